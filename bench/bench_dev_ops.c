/*
 * bench_dev_ops.c - what each device-resident operation of cuda/device.h costs its caller, the
 * host's waits included (issue 19, item 4: the per-operation overhead that the cost model calls
 * op_lat), next to the floor of one host round trip on the same stream.
 *
 *   bench/bench_dev_ops [--iters K] [--dtype float32|float64] [--sizes 4,256,4096,32768]
 *
 * Sizes in KiB of uncompressed data (4 KiB of float32 is the calibration's "tiny" call). Each
 * figure is the median of K calls (default 200) after 5 warm-up calls, in microseconds of wall
 * time; the data is the smooth field of bench_cuda_codec at ABS 1e-4, the host buffers page-locked
 * (as a communicator's pools are). Rows:
 *   round trip      an 8-byte device-to-host copy and a stream synchronisation (the floor)
 *   compress->host  eccl_dev_compress (the stream copied to host memory, its size known)
 *   compress_keep   eccl_dev_compress_keep (the stream left on the device, its size known)
 *   host->decompr.  eccl_dev_decompress (the stream copied in, validated, decompressed)
 *   dev->decompr.   eccl_dev_decompress_dev (the stream already on the device)
 *   hom host->host  eccl_dev_hom_reduce, SUM (stream in, validated, reduced, stream out)
 *   sample          eccl_dev_sample, the ratio sample of a collective (4 windows of 8192 reals)
 *   the three in turn  compress->host, host->decompr. and hom host->host one after the other, as a
 *                   ring step runs them (each kernel follows another one), then the sum of their
 *                   three rows for comparison
 *   kernel memset   an 8-byte cudaMemsetAsync, timed as the rows below (the floor of a GPU operation)
 *   kernel ...      the public codec's compression, decompression (unchecked) and homomorphic SUM
 *                   on a stream of the benchmark's, device to device, no host wait of eccl's: three
 *                   figures a call, "host / GPU / total": the host's time until the launch returned,
 *                   the GPU's between events recorded before and after it, and the wall time with
 *                   the wait for the second event
 * A benchmark: it reports, it does not judge (exit 1 only when an operation fails).
 */
#include "config.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/device.h"
#include "eccl_cuda.h"

static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_dev_ops: %s failed (%d: %s)\n", what, rc, rc < 100 ? eccl_strerror((eccl_result_t)rc) : "cuda");
    exit(1);
}
#define CUDA(x) do { cudaError_t e_ = (x); if (e_) die(#x, 100 + (int)e_); } while (0)
#define ECCL(x) do { eccl_result_t r_ = (x); if (r_) die(#x, (int)r_); } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

enum { OP_RTT, OP_COMP, OP_KEEP, OP_DEC, OP_DECDEV, OP_HOM, OP_SAMPLE, OP_CYCLE, OP_KM, OP_KC, OP_KD, OP_KH, NOPS };
static const char *const op_names[NOPS] = {"round trip",      "compress->host",    "compress_keep",
                                           "host->decompr.",  "dev->decompr.",     "hom host->host",
                                           "sample",          "the three in turn", "kernel memset",
                                           "kernel compress", "kernel decompr.",   "kernel hom"};

typedef struct {
    eccl_dev_ctx_t *ctx;
    eccl_cuda_codec_t codec;  /* the kernel rows: the public codec on st, timed by events */
    cudaEvent_t e0, e1;
    unsigned char *ds, *ds2;  /* device streams of the kernel rows */
    size_t dcap, dsize;
    double launch;            /* the kernel rows: seconds until the launch returned */
    void *dx, *dy, *d8, *din; /* din: the context's input buffer holding the stream (dev->decompr.) */
    unsigned char *hs, *hs2, *h8;
    size_t hcap, n, size; /* elements; the stream's size */
    eccl_dtype_t dt;
    cudaStream_t st;
} bench_t;

static void one(bench_t *b, int op)
{
    const eccl_bound_t bound = {ECCL_MODE_ABS, 1e-4, 0};
    size_t sz = 0;
    const void *ds = NULL;
    switch (op) {
    case OP_RTT:
        CUDA(cudaMemcpyAsync(b->h8, b->d8, 8, cudaMemcpyDeviceToHost, b->st));
        CUDA(cudaStreamSynchronize(b->st));
        break;
    case OP_COMP: ECCL(eccl_dev_compress(b->ctx, b->dx, NULL, b->n, b->dt, &bound, b->hs, b->hcap, &b->size)); break;
    case OP_KEEP: ECCL(eccl_dev_compress_keep(b->ctx, b->dx, NULL, b->n, b->dt, &bound, &ds, &sz)); break;
    case OP_DEC: ECCL(eccl_dev_decompress(b->ctx, b->hs, b->size, b->dy, NULL, b->n, b->dt)); break;
    case OP_CYCLE:
        one(b, OP_COMP);
        one(b, OP_DEC);
        one(b, OP_HOM);
        break;
    case OP_DECDEV: ECCL(eccl_dev_decompress_dev(b->ctx, b->din, b->size, b->dy, NULL, b->n, b->dt)); break;
    case OP_HOM:
        ECCL(eccl_dev_hom_reduce(b->ctx, b->hs, b->size, b->dx, NULL, b->n, b->dt, ECCL_OP_SUM, b->hs2, b->hcap, &sz));
        break;
    case OP_KM:
    case OP_KC:
    case OP_KD:
    case OP_KH: {
        double t0 = now();
        CUDA(cudaEventRecord(b->e0, b->st));
        if (op == OP_KM) CUDA(cudaMemsetAsync(b->d8, 0, 8, b->st));
        else if (op == OP_KC) ECCL(eccl_cuda_compress(b->codec, b->dx, b->n, b->dt, &bound, b->ds, b->dcap, NULL, NULL, b->st));
        else if (op == OP_KD) ECCL(eccl_cuda_decompress(b->codec, b->ds, b->dsize, b->dy, b->n, b->dt, 0, b->st));
        else ECCL(eccl_cuda_hom_reduce(b->codec, b->ds, b->dsize, b->dx, b->n, b->dt, ECCL_OP_SUM, b->ds2, b->dcap, NULL,
                                       NULL, b->st));
        CUDA(cudaEventRecord(b->e1, b->st));
        b->launch = now() - t0;
        CUDA(cudaEventSynchronize(b->e1));
        break;
    }
    case OP_SAMPLE: {
        size_t win = 8192 < b->n ? 8192 : b->n, starts[4];
        int nwin = b->n >= 4 * win ? 4 : 1;
        for (int k = 0; k < nwin; k++) starts[k] = (b->n - win) / (nwin > 1 ? nwin - 1 : 1) * (size_t)k;
        ECCL(eccl_dev_sample(b->ctx, b->dx, NULL, b->n, b->dt, &bound, starts, nwin, win, &sz));
        break;
    }
    }
}

int main(int argc, char **argv)
{
    int iters = 200, is64 = 0;
    size_t kib[16] = {4, 256, 4096, 32768};
    int nsizes = 4;
    for (int i = 1; i < argc; i += 2) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || i + 1 >= argc) {
            printf("usage: bench_dev_ops [--iters K] [--dtype float32|float64] [--sizes 4,256,4096,32768]\n"
                   "the wall time of each device-resident operation (cuda/device.h) at each size (KiB of\n"
                   "uncompressed data), host waits included, median of K calls, next to one host round trip\n");
            return strcmp(argv[i], "--help") && strcmp(argv[i], "-h") ? 2 : 0;
        }
        if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dtype") && (!strcmp(argv[i + 1], "float32") || !strcmp(argv[i + 1], "float64")))
            is64 = !strcmp(argv[i + 1], "float64");
        else if (!strcmp(argv[i], "--sizes")) {
            nsizes = 0;
            for (char *p = argv[i + 1]; *p && nsizes < 16; p += *p == ',') kib[nsizes++] = strtoul(p, &p, 10);
        } else {
            fprintf(stderr, "bench_dev_ops: bad argument %s %s (try --help)\n", argv[i], argv[i + 1]);
            return 2;
        }
    }
    if (iters < 1) iters = 1;
    for (int s = 0; s < nsizes; s++)
        if (kib[s] == 0 || kib[s] > ((size_t)1 << 22)) {
            fprintf(stderr, "bench_dev_ops: --sizes takes sizes of 1 KiB to 4 GiB, in KiB, separated by commas\n");
            return 2;
        }
    int ndev = 0;
    if (eccl_cuda_device_count(&ndev) || ndev == 0) {
        printf("bench_dev_ops: no CUDA device (or no CUDA backend): nothing to measure\n");
        return 0;
    }
    char name[128];
    eccl_cuda_device_check(0, name, sizeof name);
    const size_t es = is64 ? 8 : 4;
    size_t maxn = 0;
    for (int s = 0; s < nsizes; s++) maxn = kib[s] * 1024 / es > maxn ? kib[s] * 1024 / es : maxn;
    bench_t b;
    memset(&b, 0, sizeof b);
    b.dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    b.hcap = eccl_compress_bound(maxn, b.dt);
    ECCL(eccl_dev_ctx_create(&b.ctx, 1));
    CUDA(cudaStreamCreateWithFlags(&b.st, cudaStreamNonBlocking));
    CUDA(cudaMalloc(&b.dx, maxn * es));
    CUDA(cudaMalloc(&b.dy, maxn * es));
    CUDA(cudaMalloc(&b.d8, 8));
    CUDA(cudaMallocHost((void **)&b.hs, b.hcap));
    CUDA(cudaMallocHost((void **)&b.hs2, b.hcap));
    CUDA(cudaMallocHost((void **)&b.h8, 8));
    CUDA(cudaMemset(b.d8, 0, 8));
    double *hx = malloc(maxn * sizeof *hx), *t = malloc((size_t)iters * sizeof *t);
    float *hf = malloc(maxn * sizeof *hf);
    if (!hx || !t || !hf) die("malloc", 1);
    size_t side = (size_t)sqrt((double)maxn) + 1;
    for (size_t i = 0; i < maxn; i++) /* bench_cuda_codec's smooth field */
        hx[i] = sin(6.283185307179586 * 4.0 * (double)(i % side) / (double)side) *
                cos(6.283185307179586 * 4.0 * (double)(i / side) / (double)side);
    if (is64) CUDA(cudaMemcpy(b.dx, hx, maxn * 8, cudaMemcpyHostToDevice));
    else {
        for (size_t i = 0; i < maxn; i++) hf[i] = (float)hx[i];
        CUDA(cudaMemcpy(b.dx, hf, maxn * 4, cudaMemcpyHostToDevice));
    }
    ECCL(eccl_dev_reserve(b.ctx, maxn, b.dt));
    ECCL(eccl_cuda_codec_create(maxn, &b.codec));
    CUDA(cudaEventCreate(&b.e0));
    CUDA(cudaEventCreate(&b.e1));
    b.dcap = b.hcap;
    CUDA(cudaMalloc((void **)&b.ds, b.dcap));
    CUDA(cudaMalloc((void **)&b.ds2, b.dcap));
    double *tl = malloc((size_t)iters * sizeof *tl), *tg = malloc((size_t)iters * sizeof *tg);
    if (!tl || !tg) die("malloc", 1);
    printf("eccl %s: device-resident operations on %s, %s, ABS 1e-4, smooth field; wall time per call in us, "
           "median of %d\n", eccl_version_string(), name, is64 ? "float64" : "float32", iters);
    printf("%-16s", "operation");
    for (int s = 0; s < nsizes; s++) printf(" %16zu KiB", kib[s]);
    printf("\n");
    double ratio[16], med[NOPS][16];
    for (int op = 0; op < NOPS; op++) {
        printf("%-16s", op_names[op]);
        for (int s = 0; s < nsizes; s++) {
            b.n = kib[s] * 1024 / es;
            one(&b, OP_COMP); /* the stream the decompressions and the reduction read */
            ratio[s] = (double)(b.n * es) / (double)b.size;
            if (op == OP_DECDEV) { /* the stream into the context's input buffer, once */
                ECCL(eccl_dev_stream_buf(b.ctx, b.size, &b.din));
                ECCL(eccl_dev_copy(b.ctx, b.din, b.hs, b.size));
            }
            if (op >= OP_KM) { /* the kernel rows' stream on the device */
                size_t hsz = 0;
                const eccl_bound_t bound = {ECCL_MODE_ABS, 1e-4, 0};
                ECCL(eccl_cuda_compress(b.codec, b.dx, b.n, b.dt, &bound, b.ds, b.dcap, NULL, &hsz, b.st));
                b.dsize = hsz;
            }
            for (int w = 0; w < 5; w++) one(&b, op);
            for (int k = 0; k < iters; k++) {
                double t0 = now();
                one(&b, op);
                t[k] = now() - t0;
                tl[k] = b.launch;
                float ms = 0;
                if (op >= OP_KM) CUDA(cudaEventElapsedTime(&ms, b.e0, b.e1));
                tg[k] = ms * 1e-3;
            }
            qsort(t, (size_t)iters, sizeof *t, cmp_d);
            qsort(tl, (size_t)iters, sizeof *tl, cmp_d);
            qsort(tg, (size_t)iters, sizeof *tg, cmp_d);
            if (op >= OP_KM) printf("  %5.1f/%5.1f/%6.1f", tl[iters / 2] * 1e6, tg[iters / 2] * 1e6, t[iters / 2] * 1e6);
            else printf(" %20.1f", t[iters / 2] * 1e6);
            med[op][s] = t[iters / 2];
            fflush(stdout);
        }
        printf("\n");
        if (op == OP_CYCLE) {
            printf("%-16s", "(sum of 3 rows)");
            for (int s = 0; s < nsizes; s++) printf(" %20.1f", (med[OP_COMP][s] + med[OP_DEC][s] + med[OP_HOM][s]) * 1e6);
            printf("\n");
        }
    }
    printf("%-16s", "(ratio)");
    for (int s = 0; s < nsizes; s++) printf(" %20.2f", ratio[s]);
    printf("\n");
    eccl_dev_ctx_free(b.ctx);
    eccl_cuda_codec_free(&b.codec);
    cudaEventDestroy(b.e0);
    cudaEventDestroy(b.e1);
    cudaFree(b.ds);
    cudaFree(b.ds2);
    free(tl);
    free(tg);
    cudaFree(b.dx);
    cudaFree(b.dy);
    cudaFree(b.d8);
    cudaFreeHost(b.hs);
    cudaFreeHost(b.hs2);
    cudaFreeHost(b.h8);
    cudaStreamDestroy(b.st);
    free(hx);
    free(hf);
    free(t);
    return 0;
}
