/*
 * bench_async.c - what the stream-enqueued allreduce (eccl_cuda_allreduce_async) costs the calling
 * thread, against the blocking eccl_allreduce on the same device buffers, in one run.
 *
 *   mpiexec -n P bench_async [--mib 1,16,64,256] [--iters 5] [--loop 8] [--bound 1e-4]
 *
 * Per size (float32, a smooth field, ABS bound), each the median of --iters runs, the slowest
 * rank's time, in milliseconds:
 *   blocking   eccl_allreduce with its input complete (the call's own time);
 *   post       eccl_cuda_allreduce_async returning: the calling thread's cost of an enqueued call;
 *   done       from that call to cudaStreamSynchronize returning (the collective in stream order);
 *   loop_b     --loop iterations of "copy the input in on the stream, synchronise, eccl_allreduce";
 *   loop_e     --loop iterations of "copy the input in on the stream, eccl_cuda_allreduce_async",
 *              then one cudaStreamSynchronize;
 *   host_e     the calling thread's time in loop_e before that synchronisation.
 * Every enqueued result is compared with the blocking result of the same input (bit for bit: the
 * same code runs) and the number of differing elements printed. MPI is initialised with
 * MPI_THREAD_MULTIPLE (the enqueued calls need the progress thread; ECCL_PROGRESS=caller shows them
 * running at once). Before the timed runs, each size runs once blocking (the reference) and once as
 * a first stream call, which runs at once, so that the timed ones are enqueued (doc/collectives.md).
 */
#include "config.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"
#include "eccl_cuda.h"

#ifdef HAVE_CUDA
#include <cuda_runtime.h>

static int rank, size;

static void die(const char *what)
{
    fprintf(stderr, "bench_async: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}
#define CU(x)                                                                                      \
    do {                                                                                           \
        if ((x) != cudaSuccess) die(#x);                                                           \
    } while (0)

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
/* median over runs of the slowest rank's time */
static double med(double *t, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    qsort(t, (size_t)n, sizeof *t, cmp);
    return t[n / 2] * 1e3;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mib = "1,16,64,256";
    int iters = 5, loop = 8;
    double E = 1e-4;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mib") && i + 1 < argc) mib = argv[++i];
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--loop") && i + 1 < argc) loop = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bound") && i + 1 < argc) E = atof(argv[++i]);
        else {
            if (rank == 0)
                printf("usage: bench_async [--mib 1,16,64,256] [--iters 5] [--loop 8] [--bound 1e-4]\n");
            MPI_Finalize();
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (iters < 1) iters = 1;
    if (loop < 1) loop = 1;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        if (rank == 0) printf("bench_async: no GPU\n");
        MPI_Finalize();
        return 0;
    }
    CU(cudaSetDevice(rank % ndev));
    eccl_comm_t comm;
    if (eccl_comm_create(MPI_COMM_WORLD, NULL, &comm)) die("eccl_comm_create");
    const eccl_bound_t b = {ECCL_MODE_ABS, E, 0};
    cudaStream_t st;
    CU(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    if (rank == 0) {
        printf("bench_async: %d ranks, float32 allreduce ABS %g, median of %d, loop %d%s\n", size, E, iters, loop,
               provided == MPI_THREAD_MULTIPLE ? "" : " (MPI not MPI_THREAD_MULTIPLE: enqueued calls run at once)");
        printf("%8s %10s %10s %10s %10s %10s %10s %8s %s\n", "MiB", "blocking", "post", "done", "loop_b", "loop_e",
               "host_e", "differ", "algorithm");
    }
    for (const char *p = mib; *p;) {
        size_t n = (size_t)(atof(p) * 1048576.0 / 4);
        while (*p && *p != ',') p++;
        if (*p) p++;
        if (n == 0) continue;
        float *h, *href, *hout, *x, *y;
        CU(cudaMallocHost((void **)&h, n * 4));
        CU(cudaMallocHost((void **)&href, n * 4));
        CU(cudaMallocHost((void **)&hout, n * 4));
        CU(cudaMalloc((void **)&x, n * 4));
        CU(cudaMalloc((void **)&y, n * 4));
        for (size_t i = 0; i < n; i++)
            h[i] = (float)(sin(1e-4 * (double)i * (rank + 1)) * cos(3e-5 * (double)i) * (1 + rank));
        double *tb = malloc(sizeof(double) * (size_t)iters * 6), *tp = tb + iters, *td = tp + iters,
               *tlb = td + iters, *tle = tlb + iters, *the = tle + iters;
        if (!tb) die("no memory");
        CU(cudaMemcpy(x, h, n * 4, cudaMemcpyHostToDevice));
        if (eccl_allreduce(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm)) die(eccl_comm_last_error(comm));
        CU(cudaMemcpy(href, y, n * 4, cudaMemcpyDeviceToHost));
        eccl_stats_t s;
        eccl_comm_last_stats(comm, &s);
        /* the first stream call with these arguments runs at once (and reserves its buffers) */
        if (eccl_cuda_allreduce_async(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm, st)) die("first stream call");
        CU(cudaStreamSynchronize(st));
        size_t differ = 0;
        for (int it = 0; it < iters; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (eccl_allreduce(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm)) die(eccl_comm_last_error(comm));
            tb[it] = MPI_Wtime() - t0;
            CU(cudaMemset(y, 0, n * 4));
            CU(cudaDeviceSynchronize());
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            if (eccl_cuda_allreduce_async(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm, st)) die("enqueue");
            tp[it] = MPI_Wtime() - t0;
            CU(cudaStreamSynchronize(st));
            td[it] = MPI_Wtime() - t0;
            eccl_result_t ae;
            eccl_cuda_comm_async_error(comm, &ae);
            if (ae) die(eccl_comm_last_error(comm));
            CU(cudaMemcpy(hout, y, n * 4, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; i++) differ += memcmp(&hout[i], &href[i], 4) != 0;
            /* the loops: the input arrives on the stream each time */
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            for (int k = 0; k < loop; k++) {
                CU(cudaMemcpyAsync(x, h, n * 4, cudaMemcpyHostToDevice, st));
                CU(cudaStreamSynchronize(st));
                if (eccl_allreduce(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm)) die(eccl_comm_last_error(comm));
            }
            tlb[it] = MPI_Wtime() - t0;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            for (int k = 0; k < loop; k++) {
                CU(cudaMemcpyAsync(x, h, n * 4, cudaMemcpyHostToDevice, st));
                if (eccl_cuda_allreduce_async(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm, st)) die("enqueue");
            }
            the[it] = MPI_Wtime() - t0;
            CU(cudaStreamSynchronize(st));
            tle[it] = MPI_Wtime() - t0;
            eccl_cuda_comm_async_error(comm, &ae);
            if (ae) die(eccl_comm_last_error(comm));
            CU(cudaMemcpy(hout, y, n * 4, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < n; i++) differ += memcmp(&hout[i], &href[i], 4) != 0;
        }
        unsigned long long dall = differ;
        MPI_Allreduce(MPI_IN_PLACE, &dall, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        double vb = med(tb, iters), vp = med(tp, iters), vd = med(td, iters), vlb = med(tlb, iters),
               vle = med(tle, iters), vhe = med(the, iters);
        if (rank == 0)
            printf("%8.2f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %8llu %s\n", (double)n * 4 / 1048576.0, vb, vp,
                   vd, vlb, vle, vhe, dall, s.algorithm);
        fflush(stdout);
        free(tb);
        cudaFreeHost(h);
        cudaFreeHost(href);
        cudaFreeHost(hout);
        cudaFree(x);
        cudaFree(y);
    }
    eccl_comm_free(&comm);
    cudaStreamDestroy(st);
    MPI_Finalize();
    return 0;
}
#else
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("bench_async: eccl was built without the CUDA backend\n");
    MPI_Finalize();
    return 0;
}
#endif
