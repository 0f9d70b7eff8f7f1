/* eccl-probe: command line, --help and --version. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/probe.h"

#ifdef HAVE_NETCDF
#define PROBE_NETCDF_STR "yes"
#else
#define PROBE_NETCDF_STR "no"
#endif

enum {
    OPT_TYPE = 256, OPT_DIMS, OPT_ABS, OPT_REL, OPT_LOSSLESS, OPT_DECOMPRESSED, OPT_COMPRESSED,
    OPT_JSON, OPT_THREADS, OPT_REPEAT, OPT_FORMAT
};

static const struct option long_options[] = {
    {"type", required_argument, NULL, OPT_TYPE},
    {"dims", required_argument, NULL, OPT_DIMS},
    {"abs", required_argument, NULL, OPT_ABS},
    {"rel", required_argument, NULL, OPT_REL},
    {"lossless", no_argument, NULL, OPT_LOSSLESS},
    {"decompressed", required_argument, NULL, OPT_DECOMPRESSED},
    {"compressed", required_argument, NULL, OPT_COMPRESSED},
    {"json", no_argument, NULL, OPT_JSON},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

void probe_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("eccl-probe: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const char *probe_type_name(eccl_dtype_t dtype)
{
    return dtype == ECCL_FLOAT64 ? "f64" : "f32";
}

const char *probe_mode_name(eccl_mode_t mode)
{
    return mode == ECCL_MODE_ABS ? "abs" : mode == ECCL_MODE_REL ? "rel" : "lossless";
}

static int parse_type(const char *s, eccl_dtype_t *dtype)
{
    int status = PROBE_OK;
    if (!strcmp(s, "f32") || !strcmp(s, "float32") || !strcmp(s, "float")) {
        *dtype = ECCL_FLOAT32;
    } else if (!strcmp(s, "f64") || !strcmp(s, "float64") || !strcmp(s, "double")) {
        *dtype = ECCL_FLOAT64;
    } else {
        probe_error("--type '%s': unknown type (use f32 or f64)", s);
        status = PROBE_EXIT_USAGE;
    }
    return status;
}

/* A bound must be a finite number > 0: strtod alone would accept "nan", "inf" and "1e-999". */
static int parse_bound_value(const char *opt, const char *s, double *value)
{
    int status = PROBE_EXIT_USAGE;
    char *end = NULL;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') {
        probe_error("%s '%s': not a number", opt, s);
        goto fn_exit;
    }
    if (!isfinite(v) || v <= 0.0) {
        probe_error("%s '%s': the bound must be a finite number > 0", opt, s);
        goto fn_exit;
    }
    *value = v;
    status = PROBE_OK;
fn_exit:
    return status;
}

static int parse_positive_int(const char *opt, const char *s, int max, int *value)
{
    int status = PROBE_EXIT_USAGE;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < 1 || v > max) {
        probe_error("%s '%s': expected an integer from 1 to %d", opt, s, max);
        goto fn_exit;
    }
    *value = (int)v;
    status = PROBE_OK;
fn_exit:
    return status;
}

/* "384x320" or "10x384x320": slowest-varying dimension first, as netCDF and C write them. */
static int parse_dims(const char *s, probe_opts_t *o)
{
    int status = PROBE_EXIT_USAGE;
    const char *p = s;
    o->ndims = 0;
    for (;;) {
        char *end = NULL;
        if (*p < '0' || *p > '9') break;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno == ERANGE || v == 0 || v > SIZE_MAX || o->ndims == PROBE_MAX_DIMS) break;
        o->dims[o->ndims++] = (size_t)v;
        if (*end == '\0') {
            status = PROBE_OK;
            break;
        }
        if (*end != 'x' && *end != 'X') break;
        p = end + 1;
    }
    if (status != PROBE_OK)
        probe_error("--dims '%s': expected positive sizes separated by 'x' (e.g. 384x320), "
                    "at most %d of them", s, PROBE_MAX_DIMS);
    return status;
}

static int set_bound(probe_opts_t *o, eccl_mode_t mode, const char *opt, const char *arg)
{
    int status = PROBE_EXIT_USAGE;
    if (o->bound_given) {
        probe_error("%s: give only one of --abs, --rel and --lossless", opt);
        goto fn_exit;
    }
    o->bound_given = 1;
    o->bound.mode = mode;
    o->bound.value = 0.0;
    /* REL takes the range from the probed field itself, as a single-rank run would. */
    o->bound.range = mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0;
    status = arg ? parse_bound_value(opt, arg, &o->bound.value) : PROBE_OK;
fn_exit:
    return status;
}

static int handle_option(int c, const char *arg, probe_opts_t *o)
{
    int status = PROBE_OK;
    switch (c) {
    case OPT_TYPE: o->type_given = 1; status = parse_type(arg, &o->dtype); break;
    case OPT_DIMS: status = parse_dims(arg, o); break;
    case OPT_ABS: status = set_bound(o, ECCL_MODE_ABS, "--abs", arg); break;
    case OPT_REL: status = set_bound(o, ECCL_MODE_REL, "--rel", arg); break;
    case OPT_LOSSLESS: status = set_bound(o, ECCL_MODE_LOSSLESS, "--lossless", NULL); break;
    case OPT_DECOMPRESSED: o->decompressed_path = arg; break;
    case OPT_COMPRESSED: o->compressed_path = arg; break;
    case OPT_JSON: o->json = 1; break;
    case OPT_THREADS: status = parse_positive_int("--threads", arg, 65536, &o->threads); break;
    case OPT_REPEAT: status = parse_positive_int("--repeat", arg, 1000000, &o->repeat); break;
    case OPT_FORMAT: status = parse_positive_int("--format", arg, 3, &o->format); break;
    case 'h': o->show_help = 1; break;
    case 'V': o->show_version = 1; break;
    default: status = PROBE_EXIT_USAGE; break;
    }
    return status;
}

/* getopt's own messages are switched off (opterr = 0) so every error is one "eccl-probe:" line. */
static void report_getopt_error(int c, char **argv)
{
    const char *bad = argv[optind - 1];
    if (c == ':')
        probe_error("option '%s' needs a value (see --help)", bad);
    else if (optopt > 0 && optopt < 128) /* a short option: argv may hold a cluster like -xy */
        probe_error("unknown option '-%c' (see --help)", optopt);
    else
        probe_error("unknown option '%s' (see --help)", bad);
}

static int check_complete(int argc, char **argv, probe_opts_t *o)
{
    int status = PROBE_EXIT_USAGE;
    if (o->show_help || o->show_version) {
        status = PROBE_OK;
        goto fn_exit;
    }
    if (optind >= argc) {
        probe_error("no input FILE given (see --help)");
        goto fn_exit;
    }
    if (optind + 1 < argc) {
        probe_error("unexpected argument '%s': give one input FILE", argv[optind + 1]);
        goto fn_exit;
    }
    if (!o->bound_given) {
        probe_error("no error bound: give --abs E, --rel E or --lossless");
        goto fn_exit;
    }
    o->input = argv[optind];
    status = PROBE_OK;
fn_exit:
    return status;
}

int probe_parse_args(int argc, char **argv, probe_opts_t *o)
{
    int status = PROBE_OK, c;
    memset(o, 0, sizeof(*o));
    o->dtype = ECCL_FLOAT32;
    o->repeat = 3;
    o->format = 1;
    opterr = 0;
    while (status == PROBE_OK && (c = getopt_long(argc, argv, ":hV", long_options, NULL)) != -1) {
        if (c == '?' || c == ':') {
            report_getopt_error(c, argv);
            status = PROBE_EXIT_USAGE;
        } else {
            status = handle_option(c, optarg, o);
        }
    }
    if (status == PROBE_OK) status = check_complete(argc, argv, o);
    return status;
}

void probe_print_version(void)
{
    printf("eccl-probe %s (netCDF input: %s)\nlibeccl %s\n", PACKAGE_VERSION, PROBE_NETCDF_STR,
           eccl_version_string());
}

void probe_print_help(void)
{
    fputs(
"Usage: eccl-probe FILE [--type f32|f64] [--dims N1xN2x...] (--abs E | --rel E | --lossless)\n"
"                  [--decompressed OUT] [--compressed OUT] [--json] [--threads N] [--repeat K]\n"
"                  [--format 1|2|3]\n"
"\n"
"Compress a field with eccl once, check the reconstruction element by element, and report\n"
"what compression would cost and gain: run it before turning compression on.\n"
"\n"
"Input\n"
"  FILE                raw binary: native (little-endian) values of --type, count = size / 4 or 8\n"
"  FILE.nc:VAR         a netCDF variable (also FILE.cdf:VAR, FILE.nc4:VAR); type and dims come\n"
"                      from the variable: float -> f32, double -> f64, other numeric types are\n"
"                      read as f64. Values equal to _FillValue / missing_value are counted but\n"
"                      kept: they are compressed like any other value. A scalar variable (no\n"
"                      dimensions) is a field of one value.\n"
"  --type f32|f64      element type (required for raw files; overrides the netCDF type)\n"
"  --dims N1xN2x...    shape, slowest dimension first; must multiply to the count (informative:\n"
"                      eccl compresses the values in memory order)\n"
"\n"
"Error bound (exactly one)\n"
"  --abs E             every value within E:  |x - x'| <= E\n"
"  --rel E             every value within E * (max - min), max and min over the finite values\n"
"  --lossless          bit-exact reconstruction\n"
"\n"
"Output and measurement\n"
"  --decompressed OUT  write the reconstruction, raw binary of the same type\n"
"  --compressed OUT    write the eccl stream (doc/format.md)\n"
"  --json              print one JSON object on stdout instead of the report (inf/nan -> null)\n"
"  --threads N         OpenMP threads for the codec (default: the OpenMP default)\n"
"  --repeat K          time K compressions and K decompressions, keep the best (default 3)\n"
"  --format V          stream format version (doc/format.md): 1 (default, what the collectives\n"
"                      write unless ECCL_FORMAT says otherwise), 2 (second-order tiles: smooth\n"
"                      fields), 3 (and sparse tiles: fields with flat runs)\n"
"  -h, --help          this text\n"
"  -V, --version       versions, and whether netCDF input is built in\n"
"\n"
"What the figures mean\n"
"  eb_abs              the absolute bound in force (--rel: E times the range of the data)\n"
"  range min/max       smallest and largest finite value (fill values included)\n"
"  ratio               input bytes / compressed bytes;  bits/value = 8 * compressed / count\n"
"  max error           largest |x - x'| over the finite values, in long double, and its ratio to\n"
"                      eb_abs (<= 1 is guaranteed; --lossless: every bit must match)\n"
"  violations          values outside the bound, or NaN/inf not restored bit for bit; any\n"
"                      violation is a bug in eccl and makes eccl-probe exit with status 3\n"
"  RMSE, PSNR          root mean square error over the finite values; 20 log10(range / RMSE) dB\n"
"  blocks              blocks of 32 values: the share stored losslessly (holding a NaN/inf, a\n"
"                      value too large for the bound, or values whose float spacing exceeds it)\n"
"                      and the share of all-zero blocks (one byte each)\n"
"  fill values         how many values equal _FillValue / missing_value, and how many of them\n"
"                      no longer do after the round trip (a reader masking on them would miss\n"
"                      those); when fill values set the range, --rel E is far looser than it\n"
"                      looks: the report shows the range without them\n"
"  GB/s                uncompressed bytes per second, best of --repeat runs; the threads shown are\n"
"                      those with work (the codec hands out tiles of 8192 values)\n"
"\n"
"Exit status: 0 success, 1 eccl error or out of memory, 2 bad invocation or unreadable input,\n"
"3 error bound violated.\n"
"\n"
"Examples\n"
"  eccl-probe /usr/share/ncarg/data/cdf/pop.nc:t --rel 1e-4\n"
"  eccl-probe field.f32 --type f32 --dims 512x512x256 --abs 1e-3 --decompressed field.rec.f32\n"
"  eccl-probe /usr/share/ncarg/data/cdf/hgt.nc:HGT --lossless --json --threads 4\n",
        stdout);
}
