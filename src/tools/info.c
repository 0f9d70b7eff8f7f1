/*
 * info.c - eccl-info: what this eccl is and how it will behave here. The library version and
 * build options, the stream format, this machine's CPU fast path and CUDA devices, the table of
 * algorithms (printed from eccl_algorithms[], the table dispatch uses), every ECCL_* variable
 * (from eccl_env_docs[]) with its current value and, with --model, the calibrated cost model and
 * what `auto` would choose (info_model.c). Without --model it never initialises MPI, so it runs
 * from a shell like any program.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "codec/fast.h"
#include "coll/coll.h"
#include "core/env.h"
#include "eccl.h"
#include "eccl_cuda.h"
#include "tools/info.h"

/* ---- JSON writer ---- */

static void ij_sep(info_json_t *j, const char *key)
{
    if (!j->first[j->depth]) fputc(',', j->out);
    j->first[j->depth] = 0;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
    if (key) fprintf(j->out, "\"%s\": ", key); /* keys are ours: plain ASCII */
}

/* Length of the valid UTF-8 sequence at s (0 when invalid). */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 2 && s[0] < 0xC2) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

static void ij_escaped(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    while (*s) {
        int n = utf8_len(s);
        if (n == 0) { /* not UTF-8 (an odd environment value): the replacement character */
            fputs("\\ufffd", out);
            s++;
        } else if (n > 1) {
            fwrite(s, 1, (size_t)n, out);
            s += n;
        } else {
            if (*s == '"' || *s == '\\') fprintf(out, "\\%c", *s);
            else if (*s == '\n') fputs("\\n", out);
            else if (*s == '\t') fputs("\\t", out);
            else if (*s < 0x20 || *s == 0x7F) fprintf(out, "\\u%04x", *s);
            else fputc(*s, out);
            s++;
        }
    }
    fputc('"', out);
}

void ij_begin_object(info_json_t *j, const char *key)
{
    if (j->depth > 0 || key) ij_sep(j, key);
    fputc('{', j->out);
    j->first[++j->depth] = 1;
}

void ij_end_object(info_json_t *j)
{
    j->depth--;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
    fputc('}', j->out);
    if (j->depth == 0) fputc('\n', j->out);
}

void ij_begin_array(info_json_t *j, const char *key)
{
    ij_sep(j, key);
    fputc('[', j->out);
    j->first[++j->depth] = 1;
}

void ij_end_array(info_json_t *j)
{
    j->depth--;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++) fputs("  ", j->out);
    fputc(']', j->out);
}

void ij_string(info_json_t *j, const char *key, const char *s)
{
    ij_sep(j, key);
    if (s) ij_escaped(j->out, s);
    else fputs("null", j->out);
}

void ij_number(info_json_t *j, const char *key, double v)
{
    ij_sep(j, key);
    if (isfinite(v)) fprintf(j->out, "%.17g", v);
    else fputs("null", j->out);
}

void ij_int(info_json_t *j, const char *key, long long v)
{
    ij_sep(j, key);
    fprintf(j->out, "%lld", v);
}

void ij_bool(info_json_t *j, const char *key, int v)
{
    ij_sep(j, key);
    fputs(v ? "true" : "false", j->out);
}

/* ---- what is known without MPI ---- */

typedef struct build_opt {
    const char *key, *label;
    int on;
} build_opt_t;

static const build_opt_t build_opts[] = {
#ifdef HAVE_CUDA
    {"cuda", "CUDA backend", 1},
#else
    {"cuda", "CUDA backend", 0},
#endif
#ifdef HAVE_NCCL
    {"nccl", "NCCL transport", 1},
#else
    {"nccl", "NCCL", 0},
#endif
#ifdef _OPENMP /* libeccl and this tool are compiled with the same OPENMP_CFLAGS */
    {"openmp", "OpenMP (CPU codec)", 1},
#else
    {"openmp", "OpenMP (CPU codec)", 0},
#endif
#ifdef HAVE_FORTRAN
    {"fortran", "Fortran module", 1},
#else
    {"fortran", "Fortran module", 0},
#endif
#ifdef HAVE_SCALAPACK
    {"scalapack", "ScaLAPACK/BLACS", 1},
#else
    {"scalapack", "ScaLAPACK/BLACS", 0},
#endif
#ifdef HAVE_NETCDF
    {"netcdf", "netCDF (eccl-probe)", 1},
#else
    {"netcdf", "netCDF (eccl-probe)", 0},
#endif
};
#define NBUILD_OPTS ((int)(sizeof build_opts / sizeof build_opts[0]))

/* First line of MPI_Get_library_version (callable before MPI_Init), tabs as spaces. */
static const char *mpi_library(void)
{
    static char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS) return "unknown";
    v[len < (int)sizeof v ? len : (int)sizeof v - 1] = '\0';
    v[strcspn(v, "\n")] = '\0';
    for (char *p = v; *p; p++)
        if (*p == '\t') *p = ' ';
    return v;
}

/* An integer variable parsed exactly as the library parses it (env.c), read now. */
static long env_long_now(const char *name, long def)
{
    eccl_env_t e = {name, def, 0, 0, NULL};
    return eccl_env_long(&e);
}

typedef struct cpu_info {
    int built, avx2, forced_reference;
} cpu_info_t;

static cpu_info_t cpu_info(void)
{
    cpu_info_t c = {ECCL_HAVE_X86_FAST, eccl_fast_available(), env_long_now("ECCL_CODEC_REFERENCE", 0) != 0};
    return c;
}

static const char *cpu_text(const cpu_info_t *c)
{
    if (!c->built) return "not built (not an x86 compiler): the reference path";
    if (!c->avx2) return "not available (this CPU has no AVX2): the reference path";
    if (c->forced_reference) return "available, disabled by ECCL_CODEC_REFERENCE";
    return "available, in use";
}

#define MAX_DEVICES 64

typedef struct cuda_info {
    eccl_result_t rc;
    int count;
    char name[MAX_DEVICES][128];
    eccl_result_t usable[MAX_DEVICES];
} cuda_info_t;

static void cuda_info(cuda_info_t *c)
{
    c->count = 0;
    c->rc = eccl_cuda_device_count(&c->count);
    for (int i = 0; c->rc == ECCL_SUCCESS && i < c->count && i < MAX_DEVICES; i++)
        c->usable[i] = eccl_cuda_device_check(i, c->name[i], sizeof c->name[i]);
}

/* "ECCL_BCAST_ALGORITHM" for ECCL_COLL_BCAST. */
static const char *algo_env_name(eccl_coll_t k)
{
    static char buf[ECCL_NCOLLS][64];
    const char *n = eccl_coll_name(k);
    size_t o = (size_t)snprintf(buf[k], sizeof buf[k], "ECCL_");
    for (; *n && o + 11 < sizeof buf[k]; n++) buf[k][o++] = (char)toupper((unsigned char)*n);
    snprintf(buf[k] + o, sizeof buf[k] - o, "_ALGORITHM");
    return buf[k];
}

static const char *algo_kind(const eccl_algo_t *a)
{
    if (!(a->flags & ECCL_ALG_COMPRESSED)) return "uncompressed";
    if (a->flags & ECCL_ALG_REQUANT) return "compressed, requant";
    return "compressed";
}

/* ---- text output ---- */

/* Paragraph `s` wrapped at `width` columns, every line indented by `indent` spaces. */
static void wrap(FILE *out, const char *s, int indent, int width)
{
    while (*s) {
        int room = width - indent, n = (int)strlen(s);
        if (n > room) {
            n = room;
            while (n > 0 && s[n] != ' ') n--;
            if (n == 0) n = room;
        }
        fprintf(out, "%*s%.*s\n", indent, "", n, s);
        s += n;
        while (*s == ' ') s++;
    }
}

static void text_build(FILE *out)
{
    const cpu_info_t cpu = cpu_info();
    cuda_info_t *cu = malloc(sizeof *cu);
    fprintf(out, "eccl %s\n\n", eccl_version_string());
    fprintf(out, "Build\n");
    fprintf(out, "  %-22s %s\n", "library version", PACKAGE_VERSION);
    fprintf(out, "  %-22s %d.%d (doc/format.md)\n", "stream format", ECCL_FORMAT_VERSION_MAJOR,
            ECCL_FORMAT_VERSION_MINOR);
    fprintf(out, "  %-22s %s (%s)\n", "MPI", ECCL_MPI_FLAVOR, mpi_library());
    for (int i = 0; i < NBUILD_OPTS; i++)
        fprintf(out, "  %-22s %s\n", build_opts[i].label, build_opts[i].on ? "yes" : "no");
    fprintf(out, "\nThis machine\n");
    fprintf(out, "  %-22s %s\n", "CPU fast path (AVX2)", cpu_text(&cpu));
#ifdef _OPENMP
    fprintf(out, "  %-22s %d\n", "OpenMP threads", omp_get_max_threads());
#endif
    if (!cu) return;
    cuda_info(cu);
    if (cu->rc == ECCL_ERR_UNSUPPORTED) {
        fprintf(out, "  %-22s none: this eccl is built without CUDA (eccl_cuda_device_count: %s)\n",
                "CUDA devices", eccl_strerror(cu->rc));
    } else if (cu->rc != ECCL_SUCCESS) {
        fprintf(out, "  %-22s unknown (eccl_cuda_device_count: %s)\n", "CUDA devices", eccl_strerror(cu->rc));
    } else {
        fprintf(out, "  %-22s %d\n", "CUDA devices", cu->count);
        for (int i = 0; i < cu->count && i < MAX_DEVICES; i++)
            fprintf(out, "    %d: %s (%s)\n", i, cu->name[i][0] ? cu->name[i] : "?",
                    cu->usable[i] == ECCL_SUCCESS ? "usable" : "not usable: compute capability below 8.0");
    }
    free(cu);
}

static void text_algorithms(FILE *out)
{
    fprintf(out, "Algorithms (force one with ECCL_<OP>_ALGORITHM=<name> or eccl_comm_set_algorithm;\n"
                 "\"auto\", the default, lets the cost model choose; doc/collectives.md)\n");
    for (int k = 0; k < ECCL_NCOLLS; k++) {
        fprintf(out, "\n%s (%s)\n", eccl_coll_name((eccl_coll_t)k), algo_env_name((eccl_coll_t)k));
        for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
            if (a->coll != (eccl_coll_t)k) continue;
            fprintf(out, "  %-20s %-20s %s", a->name, algo_kind(a), a->summary ? a->summary : "");
            if (a->restriction) fprintf(out, " [only: %s]", a->restriction);
            fputc('\n', out);
        }
    }
}

static void text_env(FILE *out)
{
    fprintf(out, "Environment (read once per process, at first use, and cached; doc/env.md)\n");
    for (const eccl_env_doc_t *d = eccl_env_docs; d->name; d++) {
        const char *v = getenv(d->name);
        if (v) fprintf(out, "\n%s=%s\n", d->name, v);
        else fprintf(out, "\n%s (unset)\n", d->name);
        fprintf(out, "    values: %s\n    default: %s\n", d->values, d->def);
        for (int k = 0; k < ECCL_NCOLLS; k++) {
            if (strcmp(d->name, algo_env_name((eccl_coll_t)k))) continue;
            fprintf(out, "    algorithms: auto");
            for (const eccl_algo_t *a = eccl_algorithms; a->name; a++)
                if (a->coll == (eccl_coll_t)k) fprintf(out, ", %s", a->name);
            fputc('\n', out);
            if (v && *v && strcmp(v, "auto") && !eccl_algo_find((eccl_coll_t)k, v))
                fprintf(out, "    warning: \"%s\" is not an algorithm of %s: every %s call will fail "
                             "with ECCL_ERR_INVALID_ARG\n", v, eccl_coll_name((eccl_coll_t)k),
                        eccl_coll_name((eccl_coll_t)k));
        }
        wrap(out, d->meaning, 4, 100);
    }
}

/* ---- JSON output ---- */

static void json_build(info_json_t *j)
{
    char fmt[32];
    const cpu_info_t cpu = cpu_info();
    snprintf(fmt, sizeof fmt, "%d.%d", ECCL_FORMAT_VERSION_MAJOR, ECCL_FORMAT_VERSION_MINOR);
    ij_string(j, "version", PACKAGE_VERSION);
    ij_string(j, "version_string", eccl_version_string());
    ij_string(j, "format_version", fmt);
    ij_begin_object(j, "build");
    ij_string(j, "mpi_flavor", ECCL_MPI_FLAVOR);
    ij_string(j, "mpi_library", mpi_library());
    for (int i = 0; i < NBUILD_OPTS; i++) ij_bool(j, build_opts[i].key, build_opts[i].on);
    ij_end_object(j);
    ij_begin_object(j, "machine");
    ij_begin_object(j, "cpu_fast_path");
    ij_bool(j, "built", cpu.built);
    ij_bool(j, "avx2", cpu.avx2);
    ij_bool(j, "in_use", cpu.built && cpu.avx2 && !cpu.forced_reference);
    ij_end_object(j);
#ifdef _OPENMP
    ij_int(j, "openmp_threads", omp_get_max_threads());
#else
    ij_string(j, "openmp_threads", NULL);
#endif
    cuda_info_t *cu = malloc(sizeof *cu);
    ij_begin_object(j, "cuda");
    if (cu) {
        cuda_info(cu);
        ij_string(j, "status", cu->rc == ECCL_SUCCESS ? "ok" : cu->rc == ECCL_ERR_UNSUPPORTED ? "not built" : "error");
        ij_string(j, "message", eccl_strerror(cu->rc));
        ij_int(j, "device_count", cu->rc == ECCL_SUCCESS ? cu->count : 0);
        ij_begin_array(j, "devices");
        for (int i = 0; cu->rc == ECCL_SUCCESS && i < cu->count && i < MAX_DEVICES; i++) {
            ij_begin_object(j, NULL);
            ij_int(j, "index", i);
            ij_string(j, "name", cu->name[i]);
            ij_bool(j, "usable", cu->usable[i] == ECCL_SUCCESS);
            ij_end_object(j);
        }
        ij_end_array(j);
        free(cu);
    }
    ij_end_object(j);
    ij_end_object(j);
}

static const char *device_buffers(const eccl_algo_t *a)
{
    if (a->flags & ECCL_ALG_DEVICE) return "nccl";
    if (a->flags & ECCL_ALG_NODE_DEVICE) return "node_ipc";
    return ECCL_ALG_RESIDENT(a->flags) ? "resident" : "staged";
}

static void json_algorithms(info_json_t *j)
{
    ij_begin_object(j, "algorithms");
    for (int k = 0; k < ECCL_NCOLLS; k++) {
        ij_begin_object(j, eccl_coll_name((eccl_coll_t)k));
        ij_string(j, "environment", algo_env_name((eccl_coll_t)k));
        ij_begin_array(j, "algorithms");
        for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
            if (a->coll != (eccl_coll_t)k) continue;
            ij_begin_object(j, NULL);
            ij_string(j, "name", a->name);
            ij_bool(j, "compressed", (a->flags & ECCL_ALG_COMPRESSED) != 0);
            ij_bool(j, "reduction", (a->flags & ECCL_ALG_REDUCTION) != 0);
            ij_bool(j, "requant", (a->flags & ECCL_ALG_REQUANT) != 0);
            /* runs on a strided device matrix where it lies (the BLACS layer's blocks and panels) */
            ij_bool(j, "strided_in_place", (a->flags & ECCL_ALG_VIEW) != 0);
            /* where device buffers are worked on (doc/gpu.md): by the GPU codec where they are, by
             * NCCL, through CUDA IPC inside each node, or copied whole through host memory */
            ij_string(j, "device_buffers", device_buffers(a));
            ij_string(j, "restriction", a->restriction);
            ij_string(j, "summary", a->summary);
            ij_end_object(j);
        }
        ij_end_array(j);
        ij_end_object(j);
    }
    ij_end_object(j);
}

static void json_env(info_json_t *j)
{
    ij_begin_array(j, "environment");
    for (const eccl_env_doc_t *d = eccl_env_docs; d->name; d++) {
        ij_begin_object(j, NULL);
        ij_string(j, "name", d->name);
        ij_string(j, "value", getenv(d->name));
        ij_string(j, "values", d->values);
        ij_string(j, "default", d->def);
        ij_string(j, "meaning", d->meaning);
        ij_end_object(j);
    }
    ij_end_array(j);
}

/* ---- command line ---- */

static void usage(FILE *out)
{
    fprintf(out,
"usage: eccl-info [--version] [--algorithms] [--env] [--model [--ranks N]] [--json] [--help]\n"
"\n"
"What this eccl library is and how it will behave on this machine. Without --version,\n"
"--algorithms or --env it prints the build, the machine, the algorithms and the environment;\n"
"these options print only the sections they name (several may be combined). --model adds the\n"
"cost model to whatever else is printed.\n"
"\n"
"  --version      the library version and build options (one line; with --json: the build\n"
"                 and machine sections)\n"
"  --algorithms   every algorithm of every collective (from the library's table): name,\n"
"                 compressed or not, restriction, summary\n"
"  --env          every ECCL_* environment variable: meaning, values, default, current value\n"
"  --model        initialise MPI, create an eccl communicator on MPI_COMM_WORLD and print the\n"
"                 calibrated cost model (latency, bandwidth, codec throughputs) and, for\n"
"                 messages of 1 KiB to 1 GiB and compression ratios 2, 5 and 10, the predicted\n"
"                 time of every bcast and allreduce algorithm and the one `auto` would choose.\n"
"                 Run it under mpiexec (rank 0 prints) or as a single process (MPICH starts a\n"
"                 singleton; with one rank nothing can be measured, see --ranks)\n"
"  --ranks N      with --model: predict for N ranks instead of the communicator's size (the\n"
"                 default, or 8 when it is 1)\n"
"  --json         one JSON object on stdout with the same sections (non-finite numbers: null)\n"
"  --help         this text\n"
"\n"
"Examples:\n"
"  eccl-info\n"
"  eccl-info --algorithms\n"
"  mpiexec -n 2 eccl-info --model\n"
"  eccl-info --json --model --ranks 64\n"
"\n"
"Exit status: 0 success, 1 the communicator could not be created, 2 bad invocation.\n");
}

enum { S_VERSION = 1, S_ALGOS = 2, S_ENV = 4, S_MODEL = 8, S_BUILD = 16 };

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},       {"version", no_argument, NULL, 'V'},
        {"algorithms", no_argument, NULL, 'a'}, {"env", no_argument, NULL, 'e'},
        {"model", no_argument, NULL, 'm'},      {"json", no_argument, NULL, 'j'},
        {"ranks", required_argument, NULL, 'r'}, {NULL, 0, NULL, 0}};
    int sections = 0, json = 0, ranks = 0, o;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'h': usage(stdout); return 0;
        case 'V': sections |= S_VERSION; break;
        case 'a': sections |= S_ALGOS; break;
        case 'e': sections |= S_ENV; break;
        case 'm': sections |= S_MODEL; break;
        case 'j': json = 1; break;
        case 'r': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 1 || v > 1 << 24) {
                fprintf(stderr, "eccl-info: --ranks '%s': not a number of ranks (1 .. 16777216)\n", optarg);
                return 2;
            }
            ranks = (int)v;
            break;
        }
        default: fprintf(stderr, "Try 'eccl-info --help'.\n"); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "eccl-info: unexpected argument '%s' (see --help)\n", argv[optind]);
        return 2;
    }
    if (ranks && !(sections & S_MODEL)) {
        fprintf(stderr, "eccl-info: --ranks needs --model\n");
        return 2;
    }
    if (!(sections & ~S_MODEL)) sections |= S_BUILD | S_ALGOS | S_ENV; /* --model adds to them */
    if (sections & S_VERSION && (json || sections != S_VERSION)) sections |= S_BUILD;

    eccl_comm_t comm = NULL;
    int rank = 0, status = 0;
    FILE *out = stdout, *devnull = NULL;
    if (sections & S_MODEL) {
        eccl_result_t rc = info_model_open(&argc, &argv, &comm, &rank);
        if (rc) return 1;
        if (rank != 0) out = devnull = fopen("/dev/null", "w");
        if (!out) out = stdout;
    }
    if (json) {
        info_json_t j = {out, 0, {1}};
        ij_begin_object(&j, NULL);
        if (sections & S_BUILD) json_build(&j);
        if (sections & S_ALGOS) json_algorithms(&j);
        if (sections & S_ENV) json_env(&j);
        if (sections & S_MODEL) info_model_json(&j, comm, ranks);
        ij_end_object(&j);
    } else if (sections == S_VERSION) {
        fprintf(out, "eccl-info (eccl) %s\n", eccl_version_string());
    } else {
        const char *sep = "";
        if (sections & S_BUILD) text_build(out), sep = "\n";
        if (sections & S_ALGOS) fputs(sep, out), text_algorithms(out), sep = "\n";
        if (sections & S_ENV) fputs(sep, out), text_env(out), sep = "\n";
        if (sections & S_MODEL) fputs(sep, out), info_model_text(out, comm, ranks);
    }
    if (fflush(out) != 0) status = 1;
    if (devnull) fclose(devnull);
    if (sections & S_MODEL) info_model_close(&comm);
    return status;
}
