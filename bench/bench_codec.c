/*
 * bench_codec.c - CPU codec benchmark: ratio, max error / bound, PSNR, and compress/decompress/
 * homomorphic-SUM throughput (GB/s of uncompressed data) per dataset and bound, on one thread and on all OpenMP
 * threads, printed next to the targets and a memcpy baseline measured in the same run.
 *
 *   bench/bench_codec [--n N] [--repeat K] [--quick] [--ncarg DIR] [--csv]
 *                     [--dtype float32|float64|all] [--dataset TEXT] [--bound TEXT]
 *
 * Datasets: sin(x)cos(y) on an N x N grid, a random walk (uniform steps of +-1e-3), normal(0,1),
 * each as float32 and as float64 (computed in binary64), and real climate fields from Debian's
 * libncarg-data when eccl was built with netCDF (float32; vinth2p T also read as float64, as in
 * issue 21's table). float64 datasets also run at ABS 1e-12, where most blocks need 45 planes.
 * Not a test: it reports, it does not judge (targets are printed for comparison).
 */
#include "config.h"

#include "bench/peers.h" /* issue 21's rows */

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef HAVE_NETCDF
#include <netcdf.h>
#endif

#include "eccl.h"
#include "codec/codec.h" /* eccl_compress_fmt: format versions 2 and 3 */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct {
    char name[96];
    int is64;
    size_t n;
    void *x;
} dataset_t;

static uint64_t rng_state = 12345;
static double uniform(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* The field in binary64, stored as float32 (rounded once) or float64 (as computed). */
/* sin(x)cos(y) has `periods` periods along each axis (bench_cuda_codec's grids: 2) */
static double periods = 4.0;

static void make_synthetic(dataset_t *d, int kind, size_t side, int is64)
{
    size_t n = side * side;
    void *x = malloc(n * (is64 ? 8 : 4));
    if (!x) exit(2);
    double w = 0.0;
    for (size_t i = 0; i < n; i++) {
        double v;
        if (kind == 0) {
            double a = 6.283185307179586 * (double)(i / side) / (double)side * periods;
            double b = 6.283185307179586 * (double)(i % side) / (double)side * periods;
            v = sin(a) * cos(b);
        } else if (kind == 1) {
            w += (uniform() - 0.5) * 2e-3;
            v = w;
        } else {
            double a = uniform(), b = uniform();
            if (a < 1e-300) a = 1e-300;
            v = sqrt(-2.0 * log(a)) * cos(6.283185307179586 * b);
        }
        if (is64) ((double *)x)[i] = v;
        else ((float *)x)[i] = (float)v;
    }
    static const char *names[] = {"sin(x)cos(y)", "random walk", "normal(0,1)"};
    snprintf(d->name, sizeof d->name, "%s %zux%zu%s", names[kind], side, side, is64 ? " f64" : "");
    d->is64 = is64;
    d->n = n;
    d->x = x;
}

#ifdef HAVE_NETCDF
/* The variable var of the netCDF file at path, read as float32 or (is64) float64. */
static int load_nc(dataset_t *d, const char *path, const char *var, int is64)
{
    int nc, id, nd, dims[NC_MAX_VAR_DIMS];
    size_t n = 1;
    if (nc_open(path, NC_NOWRITE, &nc) != NC_NOERR) return -1;
    if (nc_inq_varid(nc, var, &id) != NC_NOERR || nc_inq_varndims(nc, id, &nd) != NC_NOERR ||
        nc_inq_vardimid(nc, id, dims) != NC_NOERR) {
        nc_close(nc);
        return -1;
    }
    for (int k = 0; k < nd; k++) {
        size_t len;
        nc_inq_dimlen(nc, dims[k], &len);
        n *= len;
    }
    void *x = malloc(n * (is64 ? 8 : 4));
    if (!x || (is64 ? nc_get_var_double(nc, id, x) : nc_get_var_float(nc, id, x)) != NC_NOERR) {
        free(x);
        nc_close(nc);
        return -1;
    }
    nc_close(nc);
    const char *base = strrchr(path, '/');
    snprintf(d->name, sizeof d->name, "%.40s:%.40s%s", base ? base + 1 : path, var, is64 ? " f64" : "");
    d->is64 = is64;
    d->n = n;
    d->x = x;
    return 0;
}
#endif

/* best-of-k wall time of compress, decompress and the homomorphic SUM of the stream with the
 * input itself (what a ring allreduce step does); error figures from the last run */
static void run(const dataset_t *d, const eccl_bound_t *b, const char *blabel, int threads, int repeat,
                int csv, double memcpy_gbs, int vmajor)
{
    char label[32];
    snprintf(label, sizeof label, "%s%s", blabel, vmajor == 2 ? " v2" : vmajor == 3 ? " v3" : "");
    eccl_dtype_t dt = d->is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    size_t esz = d->is64 ? 8 : 4, bytes = d->n * esz, cap = eccl_compress_bound(d->n, dt), size = 0;
    unsigned char *s = malloc(cap), *h = malloc(cap);
    void *y = malloc(bytes);
    if (!s || !h || !y) exit(2);
    memset(s, 0, cap);
    memset(y, 0, bytes);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    double tc = 1e30, td = 1e30, th = 1e30;
    for (int r = 0; r < repeat; r++) {
        double t0 = now();
        eccl_result_t rc = eccl_compress_fmt(d->x, d->n, dt, b, s, cap, &size, ECCL_PATH_AUTO, vmajor);
        double t1 = now();
        rc = rc ? rc : eccl_decompress(s, size, y, d->n, dt);
        double t2 = now();
        size_t hsize = 0;
        rc = rc ? rc : eccl_hom_reduce(s, size, d->x, d->n, dt, ECCL_OP_SUM, h, cap, &hsize);
        double t3 = now();
        if (rc) {
            fprintf(stderr, "%s: %s\n", d->name, eccl_strerror(rc));
            exit(1);
        }
        tc = t1 - t0 < tc ? t1 - t0 : tc;
        td = t2 - t1 < td ? t2 - t1 : td;
        th = t3 - t2 < th ? t3 - t2 : th;
    }
    eccl_stream_info_t info;
    eccl_stream_info(s, size, &info);
    long double maxerr = 0, sq = 0;
    double lo = 0, hi = 0;
    eccl_data_range(d->x, d->n, dt, &lo, &hi);
    size_t viol = 0;
    for (size_t i = 0; i < d->n; i++) {
        long double a = d->is64 ? ((double *)d->x)[i] : ((float *)d->x)[i];
        long double c = d->is64 ? ((double *)y)[i] : ((float *)y)[i];
        if (!isfinite((double)a)) continue;
        long double e = fabsl(a - c);
        if (e > maxerr) maxerr = e;
        if (e > (long double)info.eb_abs && b->mode != ECCL_MODE_LOSSLESS) viol++;
        sq += e * e;
    }
    double rmse = sqrtl(sq / (long double)d->n);
    double psnr = rmse > 0 ? 20.0 * log10((hi - lo) / rmse) : INFINITY;
    double ratio = (double)bytes / (double)size;
    double eb = info.eb_abs;
    if (csv)
        printf("%s,%s,%d,%.4f,%.4f,%.4g,%.2f,%.3f,%.3f,%zu,%.2f,%.3f\n", d->name, label, threads, ratio,
               8.0 * esz / ratio, eb > 0 ? (double)maxerr / eb : 0.0, psnr, bytes / tc / 1e9,
               bytes / td / 1e9, viol, memcpy_gbs, bytes / th / 1e9);
    else
        printf("%-26s %-14s %3d %8.3f %7.3f %9.4f %8.2f %9.3f %9.3f %5zu %9.3f\n", d->name, label,
               threads, ratio, 8.0 * esz / ratio, eb > 0 ? (double)maxerr / eb : 0.0, psnr,
               bytes / tc / 1e9, bytes / td / 1e9, viol, bytes / th / 1e9);
    /* issue 21's real fields, untiled as PFPL's ratios were measured: the best peer's ratio, and
     * the one-core target */
    const peer_row_t *p = !csv && threads == 1 && b->mode == ECCL_MODE_ABS ? peer_find(d->name, 1, d->is64, b->value)
                                                                           : NULL;
    if (p) {
        const int fast = bytes / tc / 1e9 >= 1.0 && bytes / td / 1e9 >= 1.0;
        printf("%-26s   ^ issue 21: best peer's ratio %s %.2f, eccl %.2fx; one core >= 1 GB/s each way: %s\n", "",
               p->ratio_by, p->ratio, ratio / p->ratio, fast ? "met" : "short");
    }
    free(s);
    free(h);
    free(y);
}

static double memcpy_speed(size_t bytes)
{
    char *a = malloc(bytes), *b = malloc(bytes);
    if (!a || !b) exit(2);
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        memcpy(b, a, bytes);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    volatile char sink = b[bytes / 2];
    (void)sink;
    free(a);
    free(b);
    return bytes / best / 1e9;
}

static void usage(void)
{
    puts("usage: bench_codec [--n SIDE] [--repeat K] [--quick] [--ncarg DIR] [--csv]\n"
         "                   [--dtype float32|float64|all] [--dataset TEXT] [--bound TEXT]\n"
         "                   [--format 1|2|3|both|all] [--periods P]\n"
         "  --n SIDE        grid side of the synthetic fields (default 4096: 16M values, 64 MiB\n"
         "                  as float32, 128 MiB as float64)\n"
         "  --repeat K      best of K runs per figure (default 3)\n"
         "  --quick         fewer bounds and datasets\n"
         "  --ncarg DIR     netCDF sample fields (default $ECCL_NCARG_DIR, else\n"
         "                  /usr/share/ncarg/data/cdf)\n"
         "  --csv           machine-readable output\n"
         "  --dtype T       float32, float64 or all (default all)\n"
         "  --dataset TEXT  only the datasets whose name contains TEXT (e.g. 'vinth2p', 'f64')\n"
         "  --bound TEXT    only the bounds whose label contains TEXT (e.g. 'ABS 1e-6')\n"
         "  --format V      stream format version (doc/format.md): 1 (default: what the collectives\n"
         "                  write unless ECCL_FORMAT says otherwise), 2 (second-order tiles), 3 (and\n"
         "                  sparse tiles), both (1 and 2) or all (1, 2 and 3): each row once per\n"
         "                  version, versions 2 and 3 labelled 'v2' and 'v3'\n"
         "  --periods P     periods of sin(x)cos(y) along each axis (default 4; bench_cuda_codec's\n"
         "                  1 GiB grids, issue 21's rows: 2 with --n 16384 float32, --n 11585 float64)");
}

/* The datasets: synthetic fields, then netCDF ones (a missing file, or a build without netCDF,
 * skips its row with a message on stderr); float32 ones, then float64 ones. */
static int load_datasets(dataset_t *ds, int maxds, size_t side, const int *types, int quick, const char *ncarg,
                         const char *only)
{
    int nds = 0;
    for (int is64 = 0; is64 < 2; is64++) {
        if (!types[is64]) continue;
        rng_state = 12345; /* the same random fields for both types */
        for (int k = 0; k < 3; k++) {
            make_synthetic(&ds[nds], k, side, is64);
            if (only && !strstr(ds[nds].name, only)) free(ds[nds].x);
            else nds++;
        }
        /* {file, variable}, and whether it is read as float64 (issue 21 has vinth2p T as float64) */
        static const char *fields[][2] = {{"pop.nc", "t"}, {"hgt.nc", "HGT"}, {"trinidad.nc", "data"},
                                          {"950318_sao.cdf", "T"}, {"fice.nc", "fice"}, {"vinth2p.nc", "T"}};
        static const int f64[] = {0, 0, 0, 0, 0, 1};
        for (unsigned k = 0; k < sizeof fields / sizeof *fields && !quick && nds < maxds; k++) {
            if (f64[k] != is64) continue;
            char path[512], name[96];
            snprintf(path, sizeof path, "%s/%s", ncarg, fields[k][0]);
            snprintf(name, sizeof name, "%s:%s%s", fields[k][0], fields[k][1], is64 ? " f64" : "");
            if (only && !strstr(name, only)) continue;
#ifdef HAVE_NETCDF
            if (load_nc(&ds[nds], path, fields[k][1], is64) == 0) nds++;
            else
                fprintf(stderr, "bench_codec: skipping %s: cannot read variable %s from %s (absent? --ncarg, "
                        "ECCL_NCARG_DIR; Debian: libncarg-data)\n", name, fields[k][1], path);
#else
            fprintf(stderr, "bench_codec: skipping %s: eccl was built without netCDF\n", name);
#endif
        }
    }
    return nds;
}

int main(int argc, char **argv)
{
    size_t side = 4096;
    int repeat = 3, quick = 0, csv = 0, types[2] = {1, 1};
    const char *ncarg = getenv("ECCL_NCARG_DIR"), *only = NULL, *only_bound = NULL;
    if (!ncarg || !*ncarg) ncarg = "/usr/share/ncarg/data/cdf";
    static struct option opts[] = {{"n", 1, 0, 'n'},       {"repeat", 1, 0, 'r'}, {"quick", 0, 0, 'q'},
                                   {"ncarg", 1, 0, 'd'},   {"csv", 0, 0, 'c'},    {"help", 0, 0, 'h'},
                                   {"dtype", 1, 0, 't'},   {"dataset", 1, 0, 's'}, {"bound", 1, 0, 'b'},
                                   {"format", 1, 0, 'f'},  {"periods", 1, 0, 'p'}, {0, 0, 0, 0}};
    int formats = 1; /* bit v - 1: version v */
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'n': side = strtoul(optarg, NULL, 10); break;
        case 'r': repeat = atoi(optarg); break;
        case 'q': quick = 1; break;
        case 'd': ncarg = optarg; break;
        case 'c': csv = 1; break;
        case 't':
            types[0] = !strcmp(optarg, "float32") || !strcmp(optarg, "all");
            types[1] = !strcmp(optarg, "float64") || !strcmp(optarg, "all");
            if (!types[0] && !types[1]) {
                usage();
                return 2;
            }
            break;
        case 's': only = optarg; break;
        case 'b': only_bound = optarg; break;
        case 'p': periods = atof(optarg); break;
        case 'f':
            formats = !strcmp(optarg, "1") ? 1 : !strcmp(optarg, "2") ? 2 : !strcmp(optarg, "3") ? 4
                      : !strcmp(optarg, "both") ? 3 : !strcmp(optarg, "all") ? 7 : 0;
            if (!formats) {
                usage();
                return 2;
            }
            break;
        case 'h': usage(); return 0;
        default: usage(); return 2;
        }
    }
    if (side < 32 || repeat < 1) {
        usage();
        return 2;
    }
    int maxthreads = 1;
#ifdef _OPENMP
    maxthreads = omp_get_max_threads();
#endif
    dataset_t ds[16];
    int nds = load_datasets(ds, 16, side, types, quick, ncarg, only);
    double mc = memcpy_speed(side * side * 4);
    printf("eccl %s CPU codec benchmark: %d OpenMP thread(s) available, best of %d runs\n",
           eccl_version_string(), maxthreads, repeat);
    printf("baseline memcpy of %zu MiB: %.2f GB/s; targets (one thread, smooth float32, REL 1e-4): "
           "compress >= 1.0 GB/s, decompress >= 1.5 GB/s;\nissue 21: >= 1 GB/s both ways on one core "
           "on each of its datasets (float64: sin(x)cos(y) and vinth2p T at ABS 1e-6)\n\n",
           side * side * 4 >> 20, mc);
    if (csv) printf("dataset,bound,threads,ratio,bits_per_value,maxerr_over_eb,psnr_db,compress_gbs,decompress_gbs,violations,memcpy_gbs,hom_sum_gbs\n");
    else
        printf("%-26s %-14s %3s %8s %7s %9s %8s %9s %9s %5s %9s\n", "dataset", "bound", "thr", "ratio",
               "bits/v", "maxerr/eb", "PSNR dB", "comp GB/s", "dec GB/s", "viol", "hom GB/s");
    /* for: 1 float32, 2 float64; quick: the types it runs for with --quick */
    struct {
        eccl_bound_t b;
        const char *label;
        int for_types, quick;
    } bounds[] = {{{ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA}, "REL 1e-4", 3, 3},
                  {{ECCL_MODE_ABS, 1e-2, 0}, "ABS 1e-2", 3, 0},
                  {{ECCL_MODE_ABS, 1e-4, 0}, "ABS 1e-4", 3, 1},
                  {{ECCL_MODE_ABS, 1e-6, 0}, "ABS 1e-6", 3, 2},
                  {{ECCL_MODE_REL, 1e-6, ECCL_RANGE_FROM_DATA}, "REL 1e-6", 3, 0},
                  {{ECCL_MODE_ABS, 1e-12, 0}, "ABS 1e-12", 2, 0},
                  {{ECCL_MODE_LOSSLESS, 0, 0}, "LOSSLESS", 3, 0}};
    for (int i = 0; i < nds; i++) {
        int type = ds[i].is64 ? 2 : 1;
        for (unsigned k = 0; k < sizeof bounds / sizeof *bounds; k++) {
            if (!(bounds[k].for_types & type) || (quick && !(bounds[k].quick & type))) continue;
            if (only_bound && !strstr(bounds[k].label, only_bound)) continue;
            for (int v = 1; v <= 3; v++) {
                if (!(formats & (1 << (v - 1)))) continue;
                run(&ds[i], &bounds[k].b, bounds[k].label, 1, repeat, csv, mc, v);
                if (maxthreads > 1 && (k == 0 || k == 2))
                    run(&ds[i], &bounds[k].b, bounds[k].label, maxthreads, repeat, csv, mc, v);
            }
        }
    }
    for (int i = 0; i < nds; i++) free(ds[i].x);
    return 0;
}
