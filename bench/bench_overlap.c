/*
 * bench_overlap.c - how much of a nonblocking allreduce hides behind computation: eccl_iallreduce
 * against MPI_Iallreduce (the uncompressed baseline) in one run, on host buffers or (--device) on
 * CUDA device buffers.
 *
 *   mpiexec -n P bench_overlap [--mib 16,64,256] [--iters 5] [--bound 1e-4] [--device]
 *
 * (MPI's buffers are host memory in both cases: no CUDA-aware MPI is assumed.)
 * Per size, each the median of --iters runs, the slowest rank's time:
 *   comm   the collective alone (post + wait);
 *   comp   the computation alone: a host matrix multiply on this rank's thread, sized to last about
 *          as long as eccl's collective (so that either could hide the other entirely);
 *   both   post, compute, wait;
 *   hidden = (comm + comp - both) / comm: 1 when the collective is hidden entirely, 0 when the
 *          two run one after the other.
 * MPI is initialised with MPI_THREAD_MULTIPLE so that eccl's progress thread runs (say
 * ECCL_PROGRESS=caller to see the difference). Smooth float32 data, ABS bound; the eccl result is
 * checked against MPI's sum (|eccl - mpi| <= bound + rounding) and the worst error printed.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/timing.h"
#include "eccl.h"
#include "eccl_cuda.h"

static int rank, size, use_dev;

static void die(const char *what)
{
    fprintf(stderr, "bench_overlap: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *balloc(size_t bytes)
{
    void *p = NULL;
    if (use_dev ? eccl_cuda_malloc(&p, bytes) != ECCL_SUCCESS : !(p = malloc(bytes))) die("no memory");
    return p;
}
static void bfree(void *p)
{
    if (use_dev) eccl_cuda_free(p);
    else free(p);
}
static void put(void *dst, const void *src, size_t bytes)
{
    if (use_dev) {
        if (eccl_cuda_memcpy(dst, src, bytes)) die("cudaMemcpy failed");
    } else {
        memcpy(dst, src, bytes);
    }
}

/* The computation: `reps` products of two 128 x 128 matrices (about 4.2 Mflop each). */
enum { MN = 128 };
static double *ma, *mb, *mc;
static void compute(long reps)
{
    for (long r = 0; r < reps; r++)
        for (int j = 0; j < MN; j++)
            for (int k = 0; k < MN; k++) {
                double b = mb[(size_t)j * MN + k];
                for (int i = 0; i < MN; i++) mc[(size_t)j * MN + i] += ma[(size_t)k * MN + i] * b;
            }
}

typedef struct {
    int eccl;        /* eccl_iallreduce (1) or MPI_Iallreduce (0) */
    const void *send;
    void *recv;
    size_t n;
    const eccl_bound_t *b;
    eccl_comm_t ec;
    eccl_request_t er;
    MPI_Request mr;
} coll_t;

static void post(coll_t *c)
{
    if (c->eccl) {
        if (eccl_iallreduce(c->send, c->recv, c->n, ECCL_FLOAT32, ECCL_OP_SUM, c->b, c->ec, &c->er)) die("post");
    } else if (MPI_Iallreduce(c->send, c->recv, (int)c->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &c->mr)) {
        die("MPI_Iallreduce");
    }
}
static void wait(coll_t *c)
{
    if (c->eccl) {
        eccl_result_t rc = eccl_wait(&c->er, NULL);
        if (rc) die(eccl_strerror(rc));
    } else {
        MPI_Wait(&c->mr, MPI_STATUS_IGNORE);
    }
}

/* comm, comp, both (seconds, medians of iters, slowest rank) for one collective and `reps`. */
static void measure(coll_t *c, long reps, int iters, double out[3])
{
    double *t = malloc(sizeof *t * (size_t)iters);
    for (int what = 0; what < 3; what++) {
        for (int it = 0; it < iters; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (what != 1) post(c);
            if (what != 0) compute(reps);
            if (what != 1) wait(c);
            t[it] = bench_slowest(MPI_Wtime() - t0);
        }
        out[what] = bench_median(t, iters);
    }
    free(t);
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
        } else if (!strcmp(a, "--device")) {
            use_dev = 1;
        } else {
            printf("usage: mpiexec -n P bench_overlap [--mib 16,64,256] [--iters 5] [--bound 1e-4] [--device]\n");
            return strcmp(a, "--help") ? 2 : 0;
        }
    }
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (iters < 1) iters = 1;
    if (use_dev) {
        int ndev = 0;
        if (eccl_cuda_device_count(&ndev) || ndev < 1 || eccl_cuda_set_device(rank % ndev)) die("--device: no GPU");
    }
    ma = malloc(sizeof *ma * MN * MN);
    mb = malloc(sizeof *mb * MN * MN);
    mc = calloc(MN * MN, sizeof *mc);
    if (!ma || !mb || !mc) die("no memory");
    for (size_t i = 0; i < (size_t)MN * MN; i++) ma[i] = mb[i] = 1e-3 * (double)(i % 97);
    eccl_comm_t ec;
    if (eccl_comm_create(MPI_COMM_WORLD, NULL, &ec)) die("eccl_comm_create");
    eccl_bound_t b = {ECCL_MODE_ABS, eb, 0};
    if (rank == 0) {
        printf("bench_overlap: %d ranks, %s buffers, float32 allreduce SUM, ABS %.0e, MPI thread level %s, "
               "median of %d\n", size, use_dev ? "device" : "host", eb,
               provided == MPI_THREAD_MULTIPLE ? "MULTIPLE" : "below MULTIPLE (no progress thread)", iters);
        printf("%8s %-6s %10s %10s %10s %8s %s\n", "MiB", "coll", "comm ms", "comp ms", "both ms", "hidden", "notes");
    }
    for (int s = 0; s < nmib; s++) {
        size_t n = mibs[s] * ((size_t)1 << 20) / sizeof(float);
        float *h = malloc(n * sizeof *h), *he = malloc(n * sizeof *he), *hm = malloc(n * sizeof *hm);
        if (!h || !he || !hm) die("no memory");
        for (size_t i = 0; i < n; i++) h[i] = (float)(sin(1e-4 * (double)i + rank) * 3.0);
        void *send = balloc(n * sizeof(float)), *re = balloc(n * sizeof(float));
        float *rm = malloc(n * sizeof *rm); /* MPI's buffers are host memory (no CUDA-aware MPI assumed) */
        if (!rm) die("no memory");
        put(send, h, n * sizeof(float));
        coll_t ce = {1, send, re, n, &b, ec, ECCL_REQUEST_NULL, MPI_REQUEST_NULL};
        coll_t cm = {0, h, rm, n, &b, ec, ECCL_REQUEST_NULL, MPI_REQUEST_NULL};
        /* warm-up (the engine, the GPU context, NCCL), then size the computation to eccl's time */
        post(&ce);
        wait(&ce);
        post(&cm);
        wait(&cm);
        double t1 = MPI_Wtime();
        compute(4);
        double unit = bench_slowest((MPI_Wtime() - t1) / 4);
        double tc[3];
        measure(&ce, 1, 1, tc);
        long reps = (long)(tc[0] / unit + 0.5);
        if (reps < 1) reps = 1;
        MPI_Bcast(&reps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        double te[3], tm[3];
        measure(&ce, reps, iters, te);
        measure(&cm, reps, iters, tm);
        put(he, re, n * sizeof(float));
        memcpy(hm, rm, n * sizeof(float));
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            double d = fabs((double)he[i] - (double)hm[i]);
            if (!(d <= worst)) worst = d; /* (NaN wins) */
        }
        worst = bench_slowest(worst);
        eccl_stats_t st;
        eccl_comm_last_stats(ec, &st);
        if (rank == 0) {
            printf("%8zu %-6s %10.2f %10.2f %10.2f %8.2f %s\n", mibs[s], "mpi", tm[0] * 1e3, tm[1] * 1e3,
                   tm[2] * 1e3, (tm[0] + tm[1] - tm[2]) / tm[0], use_dev ? "MPI_Iallreduce, uncompressed, host buffers" : "MPI_Iallreduce, uncompressed");
            printf("%8zu %-6s %10.2f %10.2f %10.2f %8.2f %s, ratio %.2f, |eccl - mpi| <= %.3g\n", mibs[s], "eccl",
                   te[0] * 1e3, te[1] * 1e3, te[2] * 1e3, (te[0] + te[1] - te[2]) / te[0], st.algorithm, st.ratio,
                   worst);
            fflush(stdout);
        }
        bfree(send);
        bfree(re);
        free(rm);
        free(h);
        free(he);
        free(hm);
    }
    eccl_comm_free(&ec);
    free(ma);
    free(mb);
    free(mc);
    MPI_Finalize();
    return 0;
}
