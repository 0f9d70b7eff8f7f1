/*
 * bench_cuda_codec.c - GPU codec throughput and ratio, side by side with a device-to-device copy
 * of the same bytes and the targets of doc/performance.md; every stream is checked against the CPU
 * codec (same bytes) and every decoded value against the bound.
 *
 *   bench/bench_cuda_codec [--mib N] [--small-kib N] [--iters K] [--dtype float32|float64] [--format 1|2|3]
 *                          [--abs E] [--raw FILE] [--datasets ...] [--rel 0|1] [--panels 0|1] [--dump DIR]
 *
 * --dump DIR writes the arrays the rows would compress (each dataset of --datasets at --mib and
 * --dtype, raw little-endian: DIR/sin.f32, DIR/walk.f32, DIR/normal.f32 and, with --raw, the file's
 * name without its extension, e.g. DIR/trinidad.f32, tiled to the size) and exits without a device;
 * bench/peers.sh feeds them to the peer codecs.
 *
 * The rows that are issue 21's are printed again at the end beside the peer codecs' figures
 * (bench/peers.h); `bash bench/gpu_host.sh issue21` runs them all.
 *
 * Every GB/s figure is the median of 5 runs of K calls (50 K at the small size).
 */
#include "config.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench/peers.h"  /* issue 21's rows */
#include "codec/codec.h" /* eccl_compress_fmt (--format) */
#include "cuda/device.h"  /* eccl_cuda_compress_fmt */
#include "eccl_cuda.h"

static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_cuda_codec: %s failed (%d: %s)\n", what, rc, rc < 100 ? eccl_strerror((eccl_result_t)rc) : "cuda");
    exit(1);
}
#define CUDA(x) do { cudaError_t e_ = (x); if (e_) die(#x, 100 + (int)e_); } while (0)

static double splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

static void put(void *x, int is64, size_t i, double v)
{
    if (is64) ((double *)x)[i] = v;
    else ((float *)x)[i] = (float)v;
}

static double get(const void *x, int is64, size_t i)
{
    return is64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
}

/* kind 0: sin(x)cos(y) on a square grid; 1: random walk (uniform steps of +-1e-3); 2: normal(0,1) */
static void generate(void *x, size_t n, int kind, int is64)
{
    size_t side = (size_t)sqrt((double)n);
    if (kind == 1) {
        /* walk in 64 independent chunks (threads), each continuing from the previous chunk's end */
        size_t chunk = (n + 63) / 64;
        double ends[64];
#pragma omp parallel for
        for (int c = 0; c < 64; c++) {
            uint64_t s = 1234 + (uint64_t)c;
            double w = 0;
            size_t end = (c + 1) * chunk < n ? (c + 1) * chunk : n;
            for (size_t i = c * chunk; i < end; i++) {
                w += (splitmix(&s) - 0.5) * 2e-3;
                put(x, is64, i, w);
            }
            ends[c] = w;
        }
        double off[64] = {0};
        for (int c = 1; c < 64; c++) off[c] = off[c - 1] + ends[c - 1];
#pragma omp parallel for
        for (size_t i = chunk; i < n; i++) put(x, is64, i, get(x, is64, i) + off[i / chunk]);
        return;
    }
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
        if (kind == 0) {
            double u = 12.566370614359172 * (double)(i / side) / side, v = 12.566370614359172 * (double)(i % side) / side;
            put(x, is64, i, sin(u) * cos(v));
        } else {
            uint64_t s = i * 2654435761u + 7;
            double a = splitmix(&s), b = splitmix(&s);
            if (a < 1e-300) a = 1e-300;
            put(x, is64, i, sqrt(-2.0 * log(a)) * cos(6.283185307179586 * b));
        }
    }
}

/* Whether the comma-separated list names key. */
static int list_has(const char *list, const char *key)
{
    size_t k = strlen(key);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == k && !strncmp(p, key, k)) return 1;
        p += len + (e ? 1 : 0);
    }
    return 0;
}

/* The whole of a raw file of reals of es bytes each (*n of them), or NULL after a message. */
static void *read_raw(const char *path, size_t es, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_cuda_codec: cannot open %s\n", path);
        return NULL;
    }
    void *v = NULL;
    long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (len >= (long)es && !fseek(f, 0, SEEK_SET) && (v = malloc((size_t)len)) && fread(v, 1, (size_t)len, f) == (size_t)len) {
        *n = (size_t)len / es;
    } else {
        fprintf(stderr, "bench_cuda_codec: %s: not a readable file of at least one %zu-byte real\n", path, es);
        free(v);
        v = NULL;
    }
    fclose(f);
    return v;
}

/* The array of dataset `kind` (0-2: generate(); 3: the --raw values repeated to fill n) into x. */
static void fill(void *x, size_t n, int kind, int is64, const void *rawv, size_t rawn)
{
    const size_t es = is64 ? 8 : 4;
    if (kind < 3) generate(x, n, kind, is64);
    else
        for (size_t i = 0; i < n; i += rawn) memcpy((char *)x + i * es, rawv, (n - i < rawn ? n - i : rawn) * es);
}

/* --dump: `bytes` of x to dir/name.ext (raw, host byte order: little-endian on every host eccl
 * runs on); 0, or 1 after a message. */
static int dump_file(const char *dir, const char *name, const char *ext, const void *x, size_t bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    size_t w = f ? fwrite(x, 1, bytes, f) : 0;
    if (!f || w != bytes || fclose(f)) {
        fprintf(stderr, "bench_cuda_codec: cannot write %s\n", path);
        if (f && w != bytes) fclose(f);
        return 1;
    }
    printf("%s %zu bytes\n", path, bytes);
    return 0;
}

/* Each figure is the median of REPS timed runs of `iters` back-to-back calls on one stream, timed
 * with events (kernel time and launch gaps, no host synchronisation inside a run): a single run of
 * short kernels is at the mercy of one slow launch or clock change. */
#define REPS 5
static double median(double *v)
{
    for (int i = 1; i < REPS; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v[REPS / 2];
}
/* GB/s of `iters` calls on `bytes` each, timed from event e0 (recorded before them) to now */
static double stop_timing(cudaEvent_t e0, cudaEvent_t e1, cudaStream_t st, size_t bytes, int iters)
{
    float ms = 0;
    CUDA(cudaEventRecord(e1, st));
    CUDA(cudaEventSynchronize(e1));
    CUDA(cudaEventElapsedTime(&ms, e0, e1));
    return (double)bytes * iters / (ms * 1e-3) / 1e9;
}
#define START_TIMING() CUDA(cudaEventRecord(e0, st))
#define STOP_TIMING() stop_timing(e0, e1, st, bytes, iters)

static int fmt = 1; /* --format: the stream format version measured */

typedef struct {
    double ratio, comp_gbs, decomp_gbs, hom_gbs, maxerr_eb;
    int same_as_cpu, hom_same;
} result_t;

static result_t measure(eccl_cuda_codec_t codec, eccl_dtype_t dt, const void *hx, size_t n, const eccl_bound_t *b,
                        int iters, cudaStream_t st, void *dx, void *dy, unsigned char *ds, unsigned char *ds2, size_t cap)
{
    result_t r = {0};
    const int is64 = dt == ECCL_FLOAT64;
    size_t bytes = n * eccl_dtype_size(dt), gsize = 0, csize = 0;
    cudaEvent_t e0, e1;
    CUDA(cudaEventCreate(&e0));
    CUDA(cudaEventCreate(&e1));
    CUDA(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
    int rc;
    double gbs[REPS];
    rc = eccl_cuda_compress_fmt(codec, dx, n, dt, b, ds, cap, NULL, &gsize, st, fmt);
    if (rc) die("eccl_cuda_compress", rc);
    for (int rep = 0; rep < REPS; rep++) {
        START_TIMING();
        for (int k = 0; k < iters; k++)
            if ((rc = eccl_cuda_compress_fmt(codec, dx, n, dt, b, ds, cap, NULL, NULL, st, fmt))) die("compress", rc);
        gbs[rep] = STOP_TIMING();
    }
    r.comp_gbs = median(gbs);
    for (int rep = 0; rep < REPS; rep++) {
        START_TIMING();
        for (int k = 0; k < iters; k++)
            if ((rc = eccl_cuda_decompress(codec, ds, cap, dy, n, dt, 0, st))) die("decompress", rc);
        gbs[rep] = STOP_TIMING();
    }
    r.decomp_gbs = median(gbs);
    if ((rc = eccl_cuda_codec_check(codec, st))) die("decompression (device check)", rc);
    /* the fused homomorphic kernel: stream + local array (dx) -> stream, SUM */
    size_t hsize = 0;
    if ((rc = eccl_cuda_hom_reduce(codec, ds, cap, dx, n, dt, ECCL_OP_SUM, ds2, cap, NULL, &hsize, st)))
        die("eccl_cuda_hom_reduce", rc);
    for (int rep = 0; rep < REPS; rep++) {
        START_TIMING();
        for (int k = 0; k < iters; k++)
            if ((rc = eccl_cuda_hom_reduce(codec, ds, cap, dx, n, dt, ECCL_OP_SUM, ds2, cap, NULL, NULL, st)))
                die("hom_reduce", rc);
        gbs[rep] = STOP_TIMING();
    }
    r.hom_gbs = median(gbs);
    if ((rc = eccl_cuda_codec_check(codec, st))) die("homomorphic reduction (device check)", rc);
    r.ratio = (double)bytes / (double)gsize;
    /* the same bytes as the CPU codec, and every value within the bound */
    unsigned char *hs = malloc(cap), *cs = malloc(cap);
    void *hy = malloc(bytes);
    CUDA(cudaMemcpy(hs, ds, gsize, cudaMemcpyDeviceToHost));
    CUDA(cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost));
    if ((rc = eccl_compress_fmt(hx, n, dt, b, cs, cap, &csize, ECCL_PATH_AUTO, fmt))) die("eccl_compress", rc);
    r.same_as_cpu = csize == gsize && memcmp(cs, hs, csize) == 0;
    {
        unsigned char *hh = malloc(cap), *ch = malloc(cap);
        size_t chs = 0;
        CUDA(cudaMemcpy(hh, ds2, hsize, cudaMemcpyDeviceToHost));
        if ((rc = eccl_hom_reduce(cs, csize, hx, n, dt, ECCL_OP_SUM, ch, cap, &chs))) die("eccl_hom_reduce", rc);
        r.hom_same = chs == hsize && memcmp(ch, hh, chs) == 0;
        free(hh);
        free(ch);
    }
    eccl_stream_info_t info;
    eccl_stream_info(hs, gsize, &info);
    double me = 0;
#pragma omp parallel for reduction(max : me)
    for (size_t i = 0; i < n; i++) {
        double e = fabs(get(hx, is64, i) - get(hy, is64, i));
        me = e > me ? e : me;
    }
    r.maxerr_eb = info.eb_abs > 0 ? me / info.eb_abs : me;
    free(hs);
    free(cs);
    free(hy);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return r;
}

/* Strided panels (ScaLAPACK local arrays: m rows of an lld = m + pad column stride): compressing
 * the panel in place (eccl_cuda_compress_2d) against packing it first (cudaMemcpy2DAsync into a
 * contiguous buffer, then eccl_cuda_compress), decompressing in place against decompressing and
 * unpacking, and the homomorphic SUM with the panel as the local array in place against packing
 * it first; GB/s of the m x cols panel's bytes. The in-place stream must equal the packed one. */
static int panel_bench(eccl_cuda_codec_t codec, eccl_dtype_t dt, size_t n, size_t m, size_t pad, int iters,
                       cudaStream_t st, void *dx, void *dy, unsigned char *ds, unsigned char *ds2, size_t cap)
{
    const int is64 = dt == ECCL_FLOAT64;
    const size_t es = is64 ? 8 : 4, ld = m + pad, cols = n / ld, bytes = m * cols * es;
    const eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    void *h = malloc(ld * cols * es);
    generate(h, ld * cols, 0, is64);
    CUDA(cudaMemcpy(dx, h, ld * cols * es, cudaMemcpyHostToDevice));
    free(h);
    cudaEvent_t e0, e1;
    CUDA(cudaEventCreate(&e0));
    CUDA(cudaEventCreate(&e1));
    double g[6], gbs[REPS];
    size_t s1 = 0, s2 = 0;
    int rc, same = 0;
    for (int way = 0; way < 6; way++) {
        for (int rep = 0; rep < REPS; rep++) {
            START_TIMING();
            for (int k = 0; k < iters; k++) {
                switch (way) {
                case 0: /* pack, then compress */
                    CUDA(cudaMemcpy2DAsync(dy, m * es, dx, ld * es, m * es, cols, cudaMemcpyDeviceToDevice, st));
                    rc = eccl_cuda_compress(codec, dy, m * cols, dt, &b, ds, cap, NULL, NULL, st);
                    break;
                case 1: rc = eccl_cuda_compress_2d(codec, dx, m, cols, ld, dt, &b, ds2, cap, NULL, NULL, st); break;
                case 2: /* decompress, then unpack */
                    rc = eccl_cuda_decompress(codec, ds, cap, dy, m * cols, dt, 0, st);
                    CUDA(cudaMemcpy2DAsync(dx, ld * es, dy, m * es, m * es, cols, cudaMemcpyDeviceToDevice, st));
                    break;
                case 3: rc = eccl_cuda_decompress_2d(codec, ds, cap, dx, m, cols, ld, dt, 0, st); break;
                case 4: /* pack the local panel, then the homomorphic SUM (stream ds + panel -> ds2) */
                    CUDA(cudaMemcpy2DAsync(dy, m * es, dx, ld * es, m * es, cols, cudaMemcpyDeviceToDevice, st));
                    rc = eccl_cuda_hom_reduce(codec, ds, cap, dy, m * cols, dt, ECCL_OP_SUM, ds2, cap, NULL, NULL, st);
                    break;
                default:
                    rc = eccl_cuda_hom_reduce_2d(codec, ds, cap, dx, m, cols, ld, dt, ECCL_OP_SUM, ds2, cap, NULL, NULL, st);
                    break;
                }
                if (rc) die("panel benchmark", rc);
            }
            gbs[rep] = STOP_TIMING();
        }
        g[way] = median(gbs);
        if (way == 1) { /* both streams of the same panel: equal (compared before ds2 is reused) */
            if ((rc = eccl_cuda_compress(codec, dy, m * cols, dt, &b, ds, cap, NULL, &s1, st)) ||
                (rc = eccl_cuda_compress_2d(codec, dx, m, cols, ld, dt, &b, ds2, cap, NULL, &s2, st)))
                die("panel streams", rc);
            same = s1 == s2;
            if (same) {
                unsigned char *a = malloc(s1), *c = malloc(s2);
                CUDA(cudaMemcpy(a, ds, s1, cudaMemcpyDeviceToHost));
                CUDA(cudaMemcpy(c, ds2, s2, cudaMemcpyDeviceToHost));
                same = !memcmp(a, c, s1);
                free(a);
                free(c);
            }
        }
    }
    if ((rc = eccl_cuda_codec_check(codec, st))) die("panel decompression (device check)", rc);
    printf("%6zu x %-6zu lld %-6zu %7.1f MiB %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %6s\n", m, cols, ld, bytes / 1048576.0,
           g[0], g[1], g[2], g[3], g[4], g[5], same ? "yes" : "NO");
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return same;
}

int main(int argc, char **argv)
{
    size_t mib = 1024, small_kib = 1024;
    int iters = 10, is64 = 0;
    double abs_eb = 1e-4;
    const char *raw = NULL, *only = NULL, *dump_dir = NULL;
    int with_rel = 1, with_panels = 1;
    for (int i = 1; i < argc; i += 2) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || i + 1 >= argc) {
            printf("usage: bench_cuda_codec [--mib N] [--small-kib N] [--iters K] [--dtype float32|float64]\n"
                   "                        [--format 1|2|3]\n"
                   "                        [--abs E] [--raw FILE] [--datasets sin,walk,normal,raw] [--dump DIR]\n"
                   "GPU codec throughput (compression, decompression, homomorphic SUM) and ratio at N MiB and\n"
                   "N KiB, next to a device-to-device copy; streams compared with the CPU codec's; exit 1 on a\n"
                   "mismatch or a bound violation.\n"
                   "  --abs E     the ABS rows' bound (default 1e-4; the REL rows stay at 1e-4)\n"
                   "  --raw FILE  one more dataset: FILE's values (raw little-endian reals of --dtype), repeated\n"
                   "              to fill N MiB (a real field tiled, as issue 21's rows are)\n"
                   "  --datasets  which rows to run (default all; raw needs --raw), then the strided panels\n"
                   "  --format    stream format version (default 1)\n"
                   "  --rel 0     no REL rows;  --panels 0  no strided panels\n"
                   "  --dump DIR  write each dataset's array (as the rows compress it: N MiB of --dtype, raw\n"
                   "              little-endian) to DIR/sin.f32, DIR/walk.f32, DIR/normal.f32 and DIR/<FILE's name\n"
                   "              without extension>.f32 (.f64 with float64), then exit (no device needed)\n"
                   "Rows that are issue 21's (dataset, type and ABS bound: sin, walk and normal at 1e-4 as float32,\n"
                   "sin at 1e-6 as float64, the fields of bench/ncarg_raw.py through --raw at their bounds) are\n"
                   "printed again at the end beside the peer codecs' figures (bench/peers.h).\n");
            return strcmp(argv[i], "--help") && strcmp(argv[i], "-h") ? 2 : 0;
        }
        if (!strcmp(argv[i], "--mib")) mib = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--abs")) abs_eb = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--raw")) raw = argv[i + 1];
        else if (!strcmp(argv[i], "--datasets")) only = argv[i + 1];
        else if (!strcmp(argv[i], "--dump")) dump_dir = argv[i + 1];
        else if (!strcmp(argv[i], "--small-kib")) small_kib = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rel") && (!strcmp(argv[i + 1], "0") || !strcmp(argv[i + 1], "1")))
            with_rel = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--panels") && (!strcmp(argv[i + 1], "0") || !strcmp(argv[i + 1], "1")))
            with_panels = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--format") &&
                 (!strcmp(argv[i + 1], "1") || !strcmp(argv[i + 1], "2") || !strcmp(argv[i + 1], "3")))
            fmt = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dtype") && (!strcmp(argv[i + 1], "float32") || !strcmp(argv[i + 1], "float64")))
            is64 = !strcmp(argv[i + 1], "float64");
        else {
            fprintf(stderr, "bench_cuda_codec: bad argument %s %s (try --help)\n", argv[i], argv[i + 1]);
            return 2;
        }
    }
    const eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    const size_t es = is64 ? 8 : 4;
    if (!(abs_eb > 0 && isfinite(abs_eb))) {
        fprintf(stderr, "bench_cuda_codec: --abs needs a finite bound > 0\n");
        return 2;
    }
    void *rawv = NULL;
    size_t rawn = 0;
    if (raw && !(rawv = read_raw(raw, es, &rawn))) return 2;
    static const char *keys[] = {"sin", "walk", "normal", "raw"};
    if (dump_dir) { /* the arrays only, no device */
        size_t n = (mib << 20) / es;
        void *x = malloc(n * es);
        int bad = !x;
        for (int kind = 0; kind < (raw ? 4 : 3) && !bad; kind++) {
            if (only && !list_has(only, keys[kind])) continue;
            char name[256];
            if (kind < 3) snprintf(name, sizeof name, "%s", keys[kind]);
            else { /* the --raw file's name without directory and extension */
                const char *base = strrchr(raw, '/') ? strrchr(raw, '/') + 1 : raw, *dot = strrchr(base, '.');
                snprintf(name, sizeof name, "%.*s", (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
            }
            fill(x, n, kind, is64, rawv, rawn);
            bad = dump_file(dump_dir, name, is64 ? "f64" : "f32", x, n * es);
        }
        free(x);
        free(rawv);
        return bad;
    }
    int ndev = 0;
    if (eccl_cuda_device_count(&ndev) || ndev == 0) {
        printf("bench_cuda_codec: no CUDA device (or no CUDA backend): nothing to measure\n");
        return 0;
    }
    char name[128];
    eccl_cuda_device_check(0, name, sizeof name);
    size_t n = (mib << 20) / es, ns = (small_kib << 10) / es;
    eccl_cuda_codec_t codec;
    int rc = eccl_cuda_codec_create(n, &codec);
    if (rc) die("eccl_cuda_codec_create", rc);
    if (fmt == 3 && (rc = eccl_cuda_codec_set_read_version(codec, 3))) die("eccl_cuda_codec_set_read_version", rc);
    cudaStream_t st;
    CUDA(cudaStreamCreate(&st));
    void *hx = malloc(n * es), *dx, *dy;
    size_t cap = eccl_compress_bound(n, dt);
    unsigned char *ds, *ds2;
    CUDA(cudaMalloc((void **)&ds2, cap));
    CUDA(cudaMalloc(&dx, n * es));
    CUDA(cudaMalloc(&dy, n * es));
    CUDA(cudaMalloc((void **)&ds, cap));
    /* baseline: a device-to-device copy of the uncompressed bytes */
    cudaEvent_t e0, e1;
    float ms;
    CUDA(cudaEventCreate(&e0));
    CUDA(cudaEventCreate(&e1));
    CUDA(cudaMemcpyAsync(dy, dx, n * es, cudaMemcpyDeviceToDevice, st));
    CUDA(cudaEventRecord(e0, st));
    for (int k = 0; k < iters; k++) CUDA(cudaMemcpyAsync(dy, dx, n * es, cudaMemcpyDeviceToDevice, st));
    CUDA(cudaEventRecord(e1, st));
    CUDA(cudaEventSynchronize(e1));
    CUDA(cudaEventElapsedTime(&ms, e0, e1));
    double copy_gbs = (double)n * es * iters / (ms * 1e-3) / 1e9;
    printf("eccl %s GPU codec benchmark on %s, %s, format version %d, %d iterations each\n", eccl_version_string(),
           name, is64 ? "float64" : "float32", fmt, iters);
    printf("baseline: device-to-device copy of %zu MiB at %.0f GB/s (bytes copied per second)\n", mib, copy_gbs);
    printf("targets (issue 21): >= 100 GB/s both ways at 1 MiB; homomorphic SUM (stream + local array -> stream) >=\n"
           "the decompression of the same stream; the rows of issue 21's table against the peers (the table at the\n"
           "end, where rows match); GB/s = uncompressed bytes per second\n\n");
    printf("%-26s %8s %-9s %7s %10s %10s %10s %9s %6s\n", "dataset", "size", "bound", "ratio", "comp GB/s", "dec GB/s",
           "hom GB/s", "maxerr/eb", "=CPU");
    const char *names[] = {"sin(x)cos(y)", "random walk", "normal(0,1)", NULL};
    if (raw) names[3] = strrchr(raw, '/') ? strrchr(raw, '/') + 1 : raw;
    eccl_bound_t bounds[] = {{ECCL_MODE_ABS, abs_eb, 0}, {ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA}};
    char alabel[32];
    snprintf(alabel, sizeof alabel, "ABS %g", abs_eb);
    const char *blabel[] = {alabel, "REL 1e-4"};
    int all_ok = 1;
    struct { const peer_row_t *p; char size[32]; result_t r; } board[8]; /* issue 21's rows met */
    int nboard = 0;
    for (int kind = 0; kind < (raw ? 4 : 3); kind++) {
        if (only && !list_has(only, keys[kind])) continue;
        fill(hx, n, kind, is64, rawv, rawn);
        for (int bi = 0; bi < 2; bi++) {
            size_t sizes[2] = {n, ns};
            for (int si = 0; si < 2; si++) {
                if (si == 1 && bi == 1) continue;
                if (bi == 1 && !with_rel) continue;
                int it = si == 1 ? iters * 50 : iters;
                result_t r = measure(codec, dt, hx, sizes[si], &bounds[bi], it, st, dx, dy, ds, ds2, cap);
                char sz[32];
                size_t bytes = sizes[si] * es;
                if (bytes >= (1u << 30)) snprintf(sz, sizeof sz, "%zu GiB", bytes >> 30);
                else snprintf(sz, sizeof sz, "%zu MiB", bytes >> 20);
                if (bytes < (1u << 20)) snprintf(sz, sizeof sz, "%zu KiB", bytes >> 10);
                printf("%-26.26s %8s %-9s %7.2f %10.1f %10.1f %10.1f %9.4f %6s\n", names[kind], sz, blabel[bi], r.ratio,
                       r.comp_gbs, r.decomp_gbs, r.hom_gbs, r.maxerr_eb, r.same_as_cpu && r.hom_same ? "yes" : "NO");
                all_ok &= r.same_as_cpu && r.hom_same && r.maxerr_eb <= 1.0;
                const peer_row_t *p = bi == 0 && si == 0 ? peer_find(names[kind], 0, is64, abs_eb) : NULL;
                if (p && nboard < 8) {
                    board[nboard].p = p;
                    snprintf(board[nboard].size, sizeof board[nboard].size, "%s", sz);
                    board[nboard++].r = r;
                }
            }
        }
    }
    if (with_panels) {
        printf("\nstrided panels, smooth field, ABS 1e-4, GB/s of the panel's bytes: packed first (cudaMemcpy2DAsync) "
               "against in place (eccl_cuda_compress_2d / decompress_2d / hom_reduce_2d)\n");
        printf("%-29s %11s %9s %9s %9s %9s %9s %9s %6s\n", "panel", "bytes", "pack+comp", "comp_2d", "dec+unpk",
               "dec_2d", "pack+hom", "hom_2d", "=pack");
        static const size_t panel_m[][2] = {{4096, 8}, {4093, 3}, {32768, 16}, {100, 4}};
        for (int k = 0; k < 4; k++)
            all_ok &= panel_bench(codec, dt, n, panel_m[k][0], panel_m[k][1], iters, st, dx, dy, ds, ds2, cap);
    }
    if (nboard) {
        peer_print_header(stdout, name, fmt);
        for (int k = 0; k < nboard; k++)
            peer_print_row(stdout, board[k].p, board[k].size, board[k].r.ratio, board[k].r.comp_gbs,
                           board[k].r.decomp_gbs, board[k].r.hom_gbs);
    }
    printf("\n%s\n", all_ok ? "all streams (compressed and homomorphic) identical to the CPU codec's, all values within the bound"
                            : "MISMATCH OR BOUND VIOLATION: see the table");
    eccl_cuda_codec_free(&codec);
    free(rawv);
    return all_ok ? 0 : 1;
}
