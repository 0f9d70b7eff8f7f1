/*
 * bench_codec.c - CPU codec benchmark: ratio, max error / bound, PSNR, and compress/decompress
 * throughput (GB/s of uncompressed data) per dataset and bound, on one thread and on all OpenMP
 * threads, printed next to the targets and a memcpy baseline measured in the same run.
 *
 *   bench/bench_codec [--n N] [--repeat K] [--quick] [--ncarg DIR] [--csv]
 *
 * Datasets: sin(x)cos(y) on an N x N grid, a random walk (uniform steps of +-1e-3), normal(0,1),
 * and real climate fields from Debian's libncarg-data when eccl was built with netCDF.
 * Not a test: it reports, it does not judge (targets are printed for comparison).
 */
#include "config.h"

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

static void make_synthetic(dataset_t *d, int kind, size_t side)
{
    size_t n = side * side;
    float *x = malloc(n * sizeof *x);
    if (!x) exit(2);
    double w = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (kind == 0) {
            double u = 6.283185307179586 * (double)(i / side) / (double)side * 4.0;
            double v = 6.283185307179586 * (double)(i % side) / (double)side * 4.0;
            x[i] = (float)(sin(u) * cos(v));
        } else if (kind == 1) {
            w += (uniform() - 0.5) * 2e-3;
            x[i] = (float)w;
        } else {
            double a = uniform(), b = uniform();
            if (a < 1e-300) a = 1e-300;
            x[i] = (float)(sqrt(-2.0 * log(a)) * cos(6.283185307179586 * b));
        }
    }
    static const char *names[] = {"sin(x)cos(y)", "random walk", "normal(0,1)"};
    snprintf(d->name, sizeof d->name, "%s %zux%zu", names[kind], side, side);
    d->is64 = 0;
    d->n = n;
    d->x = x;
}

#ifdef HAVE_NETCDF
static int load_nc(dataset_t *d, const char *path, const char *var)
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
    float *x = malloc(n * sizeof *x);
    if (!x || nc_get_var_float(nc, id, x) != NC_NOERR) {
        free(x);
        nc_close(nc);
        return -1;
    }
    nc_close(nc);
    const char *base = strrchr(path, '/');
    snprintf(d->name, sizeof d->name, "%.40s:%.40s", base ? base + 1 : path, var);
    d->is64 = 0;
    d->n = n;
    d->x = x;
    return 0;
}
#endif

/* best-of-k wall time of compress and decompress; error figures from the last run */
static void run(const dataset_t *d, const eccl_bound_t *b, const char *label, int threads, int repeat,
                int csv, double memcpy_gbs)
{
    eccl_dtype_t dt = d->is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    size_t esz = d->is64 ? 8 : 4, bytes = d->n * esz, cap = eccl_compress_bound(d->n, dt), size = 0;
    unsigned char *s = malloc(cap);
    void *y = malloc(bytes);
    if (!s || !y) exit(2);
    memset(s, 0, cap);
    memset(y, 0, bytes);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    double tc = 1e30, td = 1e30;
    for (int r = 0; r < repeat; r++) {
        double t0 = now();
        eccl_result_t rc = eccl_compress(d->x, d->n, dt, b, s, cap, &size);
        double t1 = now();
        rc = rc ? rc : eccl_decompress(s, size, y, d->n, dt);
        double t2 = now();
        if (rc) {
            fprintf(stderr, "%s: %s\n", d->name, eccl_strerror(rc));
            exit(1);
        }
        tc = t1 - t0 < tc ? t1 - t0 : tc;
        td = t2 - t1 < td ? t2 - t1 : td;
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
        printf("%s,%s,%d,%.4f,%.4f,%.4g,%.2f,%.3f,%.3f,%zu,%.2f\n", d->name, label, threads, ratio,
               8.0 * esz / ratio, eb > 0 ? (double)maxerr / eb : 0.0, psnr, bytes / tc / 1e9,
               bytes / td / 1e9, viol, memcpy_gbs);
    else
        printf("%-26s %-14s %3d %8.3f %7.3f %9.4f %8.2f %9.3f %9.3f %5zu\n", d->name, label,
               threads, ratio, 8.0 * esz / ratio, eb > 0 ? (double)maxerr / eb : 0.0, psnr,
               bytes / tc / 1e9, bytes / td / 1e9, viol);
    free(s);
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
         "  --n SIDE     grid side of the synthetic fields (default 4096: 16M float32, 64 MiB)\n"
         "  --repeat K   best of K runs per figure (default 3)\n"
         "  --quick      fewer bounds and datasets\n"
         "  --ncarg DIR  netCDF sample fields (default /usr/share/ncarg/data/cdf)\n"
         "  --csv        machine-readable output");
}

int main(int argc, char **argv)
{
    size_t side = 4096;
    int repeat = 3, quick = 0, csv = 0;
    const char *ncarg = "/usr/share/ncarg/data/cdf";
    static struct option opts[] = {{"n", 1, 0, 'n'},     {"repeat", 1, 0, 'r'},
                                   {"quick", 0, 0, 'q'}, {"ncarg", 1, 0, 'd'},
                                   {"csv", 0, 0, 'c'},   {"help", 0, 0, 'h'},
                                   {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'n': side = strtoul(optarg, NULL, 10); break;
        case 'r': repeat = atoi(optarg); break;
        case 'q': quick = 1; break;
        case 'd': ncarg = optarg; break;
        case 'c': csv = 1; break;
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
    int nds = 0;
    for (int k = 0; k < 3; k++) make_synthetic(&ds[nds++], k, side);
#ifdef HAVE_NETCDF
    const char *fields[][2] = {{"pop.nc", "t"}, {"hgt.nc", "HGT"}, {"trinidad.nc", "data"},
                               {"950318_sao.cdf", "T"}, {"fice.nc", "fice"}};
    for (unsigned k = 0; k < sizeof fields / sizeof *fields && !quick; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", ncarg, fields[k][0]);
        if (load_nc(&ds[nds], path, fields[k][1]) == 0) nds++;
    }
#else
    (void)ncarg;
#endif
    double mc = memcpy_speed(side * side * 4);
    printf("eccl %s CPU codec benchmark: %d OpenMP thread(s) available, best of %d runs\n",
           eccl_version_string(), maxthreads, repeat);
    printf("baseline memcpy of %zu MiB: %.2f GB/s; targets (one thread, smooth float32, REL 1e-4): "
           "compress >= 1.0 GB/s, decompress >= 1.5 GB/s\n\n",
           side * side * 4 >> 20, mc);
    if (csv) printf("dataset,bound,threads,ratio,bits_per_value,maxerr_over_eb,psnr_db,compress_gbs,decompress_gbs,violations,memcpy_gbs\n");
    else
        printf("%-26s %-14s %3s %8s %7s %9s %8s %9s %9s %5s\n", "dataset", "bound", "thr", "ratio",
               "bits/v", "maxerr/eb", "PSNR dB", "comp GB/s", "dec GB/s", "viol");
    struct {
        eccl_bound_t b;
        const char *label;
        int in_quick;
    } bounds[] = {{{ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA}, "REL 1e-4", 1},
                  {{ECCL_MODE_ABS, 1e-2, 0}, "ABS 1e-2", 0},
                  {{ECCL_MODE_ABS, 1e-4, 0}, "ABS 1e-4", 1},
                  {{ECCL_MODE_ABS, 1e-6, 0}, "ABS 1e-6", 0},
                  {{ECCL_MODE_REL, 1e-6, ECCL_RANGE_FROM_DATA}, "REL 1e-6", 0},
                  {{ECCL_MODE_LOSSLESS, 0, 0}, "LOSSLESS", 0}};
    for (int i = 0; i < nds; i++) {
        for (unsigned k = 0; k < sizeof bounds / sizeof *bounds; k++) {
            if (quick && !bounds[k].in_quick) continue;
            run(&ds[i], &bounds[k].b, bounds[k].label, 1, repeat, csv, mc);
            if (maxthreads > 1 && (k == 0 || k == 2))
                run(&ds[i], &bounds[k].b, bounds[k].label, maxthreads, repeat, csv, mc);
        }
    }
    for (int i = 0; i < nds; i++) free(ds[i].x);
    return 0;
}
