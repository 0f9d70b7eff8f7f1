/*
 * bench_overlap_gpu.c - how much of an allreduce on device buffers hides behind GPU computation:
 * a cuBLAS DGEMM stream and the collective run together, in one run, for
 *   mpi    MPI_Iallreduce on host buffers (the uncompressed baseline; no CUDA-aware MPI assumed),
 *   nb     eccl_iallreduce on device buffers (the communicator's progress thread runs it),
 *   async  eccl_cuda_allreduce_async on its own non-blocking stream (stream-enqueued),
 *   nccl   ncclAllReduce through eccl's `nccl` algorithm, nonblocking (where NCCL is up).
 *
 *   mpiexec -n P bench_overlap_gpu [--mib 16,64,256] [--iters 5] [--bound 1e-4] [--gemm 2048]
 *
 * One GPU per rank (local rank modulo the GPUs). Per size and variant, the median of --iters runs,
 * the slowest rank's time:
 *   comm   the collective alone (post, then wait for it);
 *   comp   the computation alone: DGEMMs of --gemm square matrices, enqueued on a non-blocking
 *          stream of default priority, as many as last about as long as eccl's nonblocking
 *          collective, then a synchronisation of that stream;
 *   both   post the collective, enqueue the DGEMMs, wait for both;
 *   hidden = (comm + comp - both) / comm: 1 when the collective is hidden entirely behind the
 *          GPU's work, 0 when the two run one after the other, below 0 when they slow each other.
 * MPI is initialised with MPI_THREAD_MULTIPLE (eccl's progress thread). Smooth float32 data, ABS
 * bound, SUM; every eccl result is checked against MPI's (|eccl - mpi| <= bound + rounding) and the
 * worst difference printed. ECCL_GPU_PRIORITY (doc/env.md) decides the priority of eccl's own
 * streams; run it with 0 and 1 to see what the priority buys.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "bench/timing.h"
#include "eccl.h"
#include "eccl_cuda.h"

static int rank, size;

static void die(const char *what)
{
    fprintf(stderr, "bench_overlap_gpu: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}
static void ck(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "bench_overlap_gpu: rank %d: %s: %s\n", rank, what, cudaGetErrorString(e));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* The computation: DGEMMs of g x g matrices on stream gst. */
static cublasHandle_t blas;
static cudaStream_t gst;
static double *ga, *gb, *gc;
static int g = 2048;
static void gemms(long reps)
{
    const double one = 1.0, zero = 0.0;
    for (long r = 0; r < reps; r++)
        if (cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, g, g, g, &one, ga, g, gb, g, r ? &one : &zero, gc, g))
            die("cublasDgemm failed");
}

enum { V_MPI, V_NB, V_ASYNC, V_NCCL, NV };
static const char *vname[NV] = {"mpi", "nb", "async", "nccl"};

typedef struct {
    int v;
    const void *send;
    void *recv;
    size_t n;
    const eccl_bound_t *b;
    eccl_comm_t ec;
    cudaStream_t cst; /* async: the collective's stream */
    eccl_request_t er;
    MPI_Request mr;
} coll_t;

static void post(coll_t *c)
{
    eccl_result_t rc = ECCL_SUCCESS;
    if (c->v == V_MPI) {
        if (MPI_Iallreduce(c->send, c->recv, (int)c->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &c->mr)) die("MPI_Iallreduce");
    } else if (c->v == V_ASYNC) {
        rc = eccl_cuda_allreduce_async(c->send, c->recv, c->n, ECCL_FLOAT32, ECCL_OP_SUM, c->b, c->ec, c->cst);
    } else {
        rc = eccl_iallreduce(c->send, c->recv, c->n, ECCL_FLOAT32, ECCL_OP_SUM, c->b, c->ec, &c->er);
    }
    if (rc) die(eccl_strerror(rc));
}
static void wait(coll_t *c)
{
    eccl_result_t rc = ECCL_SUCCESS;
    if (c->v == V_MPI) {
        MPI_Wait(&c->mr, MPI_STATUS_IGNORE);
    } else if (c->v == V_ASYNC) {
        ck(cudaStreamSynchronize(c->cst), "cudaStreamSynchronize");
        eccl_result_t ae = ECCL_SUCCESS;
        rc = eccl_cuda_comm_async_error(c->ec, &ae);
        if (!rc) rc = ae;
    } else {
        rc = eccl_wait(&c->er, NULL);
    }
    if (rc) die(eccl_strerror(rc));
}

/* comm, comp, both (seconds, medians of iters, slowest rank) for one collective and `reps`. */
static void measure(coll_t *c, long reps, int iters, double out[3])
{
    double *t = malloc(sizeof *t * (size_t)iters);
    if (!t) die("no memory");
    for (int what = 0; what < 3; what++) {
        for (int it = 0; it < iters; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (what != 1) post(c);
            if (what != 0) gemms(reps);
            if (what != 1) wait(c);
            if (what != 0) ck(cudaStreamSynchronize(gst), "cudaStreamSynchronize");
            t[it] = bench_slowest(MPI_Wtime() - t0);
        }
        out[what] = bench_median(t, iters);
    }
    free(t);
}

static void usage(void)
{
    printf("usage: mpiexec -n P bench_overlap_gpu [--mib 16,64,256] [--iters 5] [--bound 1e-4] [--gemm 2048]\n"
           "  an allreduce on device buffers (MPI on host buffers, eccl nonblocking, eccl stream-enqueued,\n"
           "  NCCL through eccl) alone, a cuBLAS DGEMM stream alone, and both together; one GPU per rank\n");
}

int main(int argc, char **argv)
{
    size_t mibs[16] = {16, 64, 256};
    int nmib = 3, iters = 5;
    double eb = 1e-4;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--mib") && v) {
            nmib = bench_mib_list(argv[++i], mibs, 16);
        } else if (!strcmp(a, "--iters") && v) {
            iters = atoi(argv[++i]);
        } else if (!strcmp(a, "--bound") && v) {
            eb = atof(argv[++i]);
        } else if (!strcmp(a, "--gemm") && v) {
            g = atoi(argv[++i]);
        } else {
            usage();
            return strcmp(a, "--help") ? 2 : 0;
        }
    }
    if (iters < 1) iters = 1;
    if (g < 64) g = 64;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ndev = 0;
    if (eccl_cuda_device_count(&ndev) || ndev < 1) {
        if (rank == 0) printf("SKIP: bench_overlap_gpu needs a GPU per rank (and eccl built with CUDA)\n");
        MPI_Finalize();
        return 77;
    }
    /* the local rank: ranks before this one with the same host name (not MPI_COMM_TYPE_SHARED,
     * which MPICH's MPIR_CVAR_NOLOCAL=1, the socket runs' setting, cuts into one rank each, so
     * that every rank took GPU 0) */
    char host[MPI_MAX_PROCESSOR_NAME] = "", *hosts = malloc((size_t)size * MPI_MAX_PROCESSOR_NAME);
    int hlen = 0, lrank = 0;
    if (!hosts) die("out of memory");
    MPI_Get_processor_name(host, &hlen);
    MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
    for (int r = 0; r < rank; r++) lrank += !strcmp(hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME, host);
    free(hosts);
    if (eccl_cuda_set_device(lrank % ndev)) die("cannot use the GPU");
    size_t gb_ = (size_t)g * g * sizeof(double);
    ck(cudaStreamCreateWithFlags(&gst, cudaStreamNonBlocking), "cudaStreamCreate");
    ck(cudaMalloc((void **)&ga, gb_), "cudaMalloc");
    ck(cudaMalloc((void **)&gb, gb_), "cudaMalloc");
    ck(cudaMalloc((void **)&gc, gb_), "cudaMalloc");
    ck(cudaMemset(ga, 0, gb_), "cudaMemset");
    ck(cudaMemset(gb, 0, gb_), "cudaMemset");
    if (cublasCreate(&blas) || cublasSetStream(blas, gst)) die("cuBLAS set-up failed");
    cudaStream_t cst;
    ck(cudaStreamCreateWithFlags(&cst, cudaStreamNonBlocking), "cudaStreamCreate");

    eccl_comm_t ec, en; /* en: the nccl algorithm forced (plain NCCL through eccl) */
    if (eccl_comm_create(MPI_COMM_WORLD, NULL, &ec) || eccl_comm_create(MPI_COMM_WORLD, NULL, &en)) die("eccl_comm_create");
    if (eccl_comm_set_algorithm(en, "allreduce", "nccl")) die("set_algorithm nccl");
    eccl_bound_t b = {ECCL_MODE_ABS, eb, 0};
    if (rank == 0) {
        const char *pr = getenv("ECCL_GPU_PRIORITY");
        printf("bench_overlap_gpu: %d ranks, float32 allreduce SUM, ABS %.0e; computation: cuBLAS DGEMM %d^3 "
               "(stream of default priority); ECCL_GPU_PRIORITY %s; MPI thread level %s; median of %d\n",
               size, eb, g, pr ? pr : "unset (1)",
               provided == MPI_THREAD_MULTIPLE ? "MULTIPLE" : "below MULTIPLE (no progress thread)", iters);
        printf("%6s %-6s %9s %9s %9s %7s %s\n", "MiB", "coll", "comm ms", "comp ms", "both ms", "hidden", "notes");
    }
    for (int s = 0; s < nmib; s++) {
        size_t n = mibs[s] * ((size_t)1 << 20) / sizeof(float), nb = n * sizeof(float);
        float *h = malloc(nb), *hm = malloc(nb), *he = malloc(nb);
        if (!h || !hm || !he) die("no memory");
        for (size_t i = 0; i < n; i++) h[i] = (float)(sin(1e-4 * (double)i + rank) * 3.0);
        void *send = NULL, *re = NULL;
        if (eccl_cuda_malloc(&send, nb) || eccl_cuda_malloc(&re, nb)) die("no device memory");
        if (eccl_cuda_memcpy(send, h, nb)) die("cudaMemcpy");
        coll_t cs[NV];
        for (int v = 0; v < NV; v++) {
            coll_t c = {v, v == V_MPI ? (const void *)h : send, v == V_MPI ? (void *)hm : re, n, &b,
                        v == V_NCCL ? en : ec, cst, ECCL_REQUEST_NULL, MPI_REQUEST_NULL};
            cs[v] = c;
        }
        /* warm-up: the engine, the GPU context, NCCL, the first stream call (at once, reserving) */
        for (int v = 0; v < NV; v++) {
            post(&cs[v]);
            wait(&cs[v]);
        }
        gemms(2); /* (cuBLAS loads its kernels at the first calls: not in the unit) */
        ck(cudaStreamSynchronize(gst), "cudaStreamSynchronize");
        double t1 = MPI_Wtime();
        gemms(4);
        ck(cudaStreamSynchronize(gst), "cudaStreamSynchronize");
        double unit = bench_slowest((MPI_Wtime() - t1) / 4);
        double tc[3];
        measure(&cs[V_NB], 0, 1, tc);
        long reps = (long)(tc[0] / unit + 0.5);
        if (reps < 1) reps = 1;
        MPI_Bcast(&reps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        for (int v = 0; v < NV; v++) {
            double t[3];
            measure(&cs[v], reps, iters, t);
            double worst = 0;
            const char *alg = "-";
            double ratio = 1;
            if (v != V_MPI) {
                if (eccl_cuda_memcpy(he, re, nb)) die("cudaMemcpy");
                for (size_t i = 0; i < n; i++) {
                    double d = fabs((double)he[i] - (double)hm[i]);
                    if (!(d <= worst)) worst = d; /* (NaN wins) */
                }
                eccl_stats_t st;
                eccl_comm_last_stats(cs[v].ec, &st);
                alg = st.algorithm;
                ratio = st.ratio;
            }
            worst = bench_slowest(worst);
            if (rank == 0) {
                if (v == V_MPI)
                    printf("%6zu %-6s %9.2f %9.2f %9.2f %7.2f MPI_Iallreduce, host buffers, uncompressed; %ld DGEMMs\n",
                           mibs[s], vname[v], t[0] * 1e3, t[1] * 1e3, t[2] * 1e3, (t[0] + t[1] - t[2]) / t[0], reps);
                else
                    printf("%6zu %-6s %9.2f %9.2f %9.2f %7.2f %s, ratio %.2f, |eccl - mpi| <= %.3g\n", mibs[s],
                           vname[v], t[0] * 1e3, t[1] * 1e3, t[2] * 1e3, (t[0] + t[1] - t[2]) / t[0], alg, ratio,
                           worst);
                fflush(stdout);
            }
        }
        eccl_cuda_free(send);
        eccl_cuda_free(re);
        free(h);
        free(hm);
        free(he);
    }
    eccl_comm_free(&en);
    eccl_comm_free(&ec);
    cublasDestroy(blas);
    cudaFree(ga);
    cudaFree(gb);
    cudaFree(gc);
    cudaStreamDestroy(cst);
    cudaStreamDestroy(gst);
    MPI_Finalize();
    return 0;
}
