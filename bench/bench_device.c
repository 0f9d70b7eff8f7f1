/*
 * bench_device.c - collectives on GPU buffers: eccl's device-resident compressed allreduce and
 * bcast against host-staged MPI (the device data copied to page-locked host memory, the MPI
 * collective, copied back) and against NCCL, in one run, one rank per GPU.
 *
 *   mpiexec -n 2 bench/bench_device [--mib 64,256,1024] [--iters 5] [--bound 1e-4]
 *                                   [--data smooth|randomwalk|normal] [--colls allreduce,bcast]
 *                                   [--dtype float32|float64]
 *                                   [--allreduce-algorithms ring,...] [--bcast-algorithms binomial,...]
 *                                   [--modes nonblocking,enqueued|enqueued-event] [--breakdown]
 *
 * --modes also times eccl-auto as a nonblocking call (eccl_iallreduce / eccl_ibcast, then
 * eccl_wait; MPI is then initialised with MPI_THREAD_MULTIPLE, so a progress thread runs it) and
 * as a stream-enqueued one (eccl_cuda_<op>_async on a non-blocking stream, then
 * cudaStreamSynchronize, or with enqueued-event a blocking-sync event's cudaEventSynchronize),
 * each result checked against the bound like the others, one line "modes COLL MIB blocking
 * nonblocking enqueued NCCL MPI-stg (auto chose; in-call ...)" per size, in ms
 * (bench/results/modes_plot.gp draws them against the size).
 *
 * The eccl column runs each of the named compressed algorithms in turn (a row each, next to the
 * same baselines: default ring for allreduce, binomial for bcast); eccl-auto lets the model choose.
 *
 * Times are the slowest rank's, median of --iters after one warm-up, in ms ("codec/net": the
 * slowest rank's seconds in the codec, PCIe copies of streams included, and waiting for the
 * network, in the last eccl call). Every eccl result is
 * checked element by element against the exact result in long double (allreduce: the sum of
 * every rank's input, with the rounding allowance of doc/guarantees.md; bcast: the root's input),
 * and the run exits 1 on any bound violation. float64 sums have no GPU homomorphic kernel yet:
 * each step reduces a host copy with the CPU codec (doc/gpu.md), which this measures.
 * NCCL is loaded at run time (libnccl.so.2); without it, or when two ranks share a GPU (NCCL
 * refuses), its column says "n/a". Which network the baselines and eccl use is the environment's
 * business: NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo puts NCCL on sockets;
 * MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self puts MPICH (eccl's transport) on TCP (doc/performance.md).
 */
#include "config.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "eccl.h"
#include "eccl_cuda.h"

#if defined(__has_include)
#if __has_include(<nccl.h>)
/* nccl.h declares a few functions with () (no prototype): not ours to warn about */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop
#define BENCH_NCCL 1
#endif
#endif

static int rank, size;

static void die(const char *what, const char *why)
{
    fprintf(stderr, "bench_device [%d]: %s: %s\n", rank, what, why);
    MPI_Abort(MPI_COMM_WORLD, 2);
}
#define CUDA(x)                                                                                    \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) die(#x, cudaGetErrorString(e_));                                    \
    } while (0)
#define ECCL(x)                                                                                    \
    do {                                                                                           \
        eccl_result_t r_ = (x);                                                                    \
        if (r_) die(#x, eccl_strerror(r_));                                                        \
    } while (0)

/* ---- NCCL, loaded at run time ---- */
#ifdef BENCH_NCCL
typedef struct {
    ncclResult_t (*get_id)(ncclUniqueId *);
    ncclResult_t (*init)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*allreduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
    ncclResult_t (*bcast)(const void *, void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*destroy)(ncclComm_t);
    ncclComm_t comm;
} nccl_t;

static int nccl_open(nccl_t *n, char *why, size_t len)
{
    memset(n, 0, sizeof *n);
    void *h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    int ok = h != NULL;
    if (ok) {
        *(void **)&n->get_id = dlsym(h, "ncclGetUniqueId");
        *(void **)&n->init = dlsym(h, "ncclCommInitRank");
        *(void **)&n->allreduce = dlsym(h, "ncclAllReduce");
        *(void **)&n->bcast = dlsym(h, "ncclBroadcast");
        *(void **)&n->destroy = dlsym(h, "ncclCommDestroy");
        ok = n->get_id && n->init && n->allreduce && n->bcast && n->destroy;
    }
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        snprintf(why, len, "libnccl.so.2 not found");
        return 0;
    }
    if (rank == 0 && n->get_id(&id) != ncclSuccess) ok = 0;
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (ok) ok = n->init(&n->comm, size, id, rank) == ncclSuccess;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        snprintf(why, len, "ncclCommInitRank failed (ranks sharing a GPU?)");
        return 0;
    }
    return 1;
}
#endif

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The slowest rank's time of each iteration, median over iterations (ms). */
static double median_ms(double *t, int iters)
{
    for (int i = 0; i < iters; i++) {
        double m;
        MPI_Allreduce(&t[i], &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[i] = m;
    }
    qsort(t, (size_t)iters, sizeof *t, cmp_double);
    return 1e3 * t[iters / 2];
}

/* One eccl measurement: the allreduce (coll 0, d_in -> d_out) or bcast (coll 1, d_out from root)
 * of n floats with the algorithm forced ("auto": the cost model), inputs restored from h_in
 * before every call; the median time (ms) and the last call's statistics. */
typedef struct {
    eccl_comm_t ec;
    int coll;
    const char *algorithm;
    void *d_in, *d_out;
    const void *h_in;
    size_t n;
    eccl_dtype_t dt;
    int root;
    const eccl_bound_t *b;
    double *t;
    int iters;
    int mode;           /* 0 blocking, 1 nonblocking (i-call + eccl_wait), 2 stream-enqueued */
    cudaStream_t astream; /* mode 2: a non-blocking stream */
    cudaEvent_t aevent;   /* ... and, where not NULL, a blocking-sync event to wait for it with */
} eccl_run_t;

/* One call of r in its mode, complete when it returns; *st: its statistics where nonblocking (the
 * others: eccl_comm_last_stats afterwards). */
static void eccl_call(const eccl_run_t *r, eccl_stats_t *st)
{
    if (r->mode == 1) {
        eccl_request_t q = ECCL_REQUEST_NULL;
        if (r->coll == 0) ECCL(eccl_iallreduce(r->d_in, r->d_out, r->n, r->dt, ECCL_OP_SUM, r->b, r->ec, &q));
        else ECCL(eccl_ibcast(r->d_out, r->n, r->dt, r->root, r->b, r->ec, &q));
        ECCL(eccl_wait(&q, st));
    } else if (r->mode == 2) {
        if (r->coll == 0)
            ECCL(eccl_cuda_allreduce_async(r->d_in, r->d_out, r->n, r->dt, ECCL_OP_SUM, r->b, r->ec, r->astream));
        else ECCL(eccl_cuda_bcast_async(r->d_out, r->n, r->dt, r->root, r->b, r->ec, r->astream));
        if (r->aevent) { /* the host thread sleeps until the stream passes the event */
            CUDA(cudaEventRecord(r->aevent, r->astream));
            CUDA(cudaEventSynchronize(r->aevent));
        } else {
            CUDA(cudaStreamSynchronize(r->astream));
        }
        eccl_result_t ar = ECCL_SUCCESS;
        ECCL(eccl_cuda_comm_async_error(r->ec, &ar));
        ECCL(ar);
    } else if (r->coll == 0) {
        ECCL(eccl_allreduce(r->d_in, r->d_out, r->n, r->dt, ECCL_OP_SUM, r->b, r->ec));
    } else {
        ECCL(eccl_bcast(r->d_out, r->n, r->dt, r->root, r->b, r->ec));
    }
}

static double time_eccl(const eccl_run_t *r, eccl_stats_t *st)
{
    ECCL(eccl_comm_set_algorithm(r->ec, r->coll == 0 ? "allreduce" : "bcast", r->algorithm));
    for (int it = -1; it < r->iters; it++) {
        CUDA(cudaMemcpy(r->coll == 0 ? r->d_in : r->d_out, r->h_in, r->n * eccl_dtype_size(r->dt), cudaMemcpyHostToDevice));
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        eccl_call(r, st);
        double t1 = MPI_Wtime();
        if (it >= 0) r->t[it] = t1 - t0;
    }
    if (r->mode != 1) ECCL(eccl_comm_last_stats(r->ec, st));
    return median_ms(r->t, r->iters);
}

/* Element i of a float32 or float64 array, as a double. */
static double elem(const void *x, int is64, size_t i)
{
    return is64 ? ((const double *)x)[i] : (double)((const float *)x)[i];
}

/* What a result is checked against: the exact sum of every rank's input (allreduce), the root's
 * input (bcast, in `root_in`), the sums of magnitudes, the bound. */
typedef struct {
    const void *d_out;
    void *h_out;
    int is64, size;
    const long double *exact;
    const double *absum;
    const unsigned char *root_in;
    double E, u;
} check_t;

/* The largest error of the n elements in k->d_out over the bound (every rank's), counting the
 * elements outside it (doc/guarantees.md: E, plus for the sum (p+2) u (sum_r |x_r| + p E)) in
 * *violations. */
static double check_out(const check_t *k, int coll, size_t n, int *violations)
{
    CUDA(cudaMemcpy(k->h_out, k->d_out, n * (k->is64 ? 8 : 4), cudaMemcpyDeviceToHost));
    double worst = 0, all = 0;
    for (size_t i = 0; i < n; i++) {
        long double want = coll == 0 ? k->exact[i] : (long double)elem(k->root_in, k->is64, i);
        double e = (double)fabsl((long double)elem(k->h_out, k->is64, i) - want);
        double tol = k->E + (coll == 0 ? (k->size + 2) * k->u * (k->absum[i] + k->size * k->E) : 0.0);
        if (!(e <= tol)) ++*violations;
        if (e / k->E > worst || e != e) worst = e != e ? INFINITY : e / k->E;
    }
    MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void parse_list(const char *s, size_t *out, int max, int *n)
{
    *n = 0;
    while (s && *s && *n < max) {
        out[(*n)++] = strtoull(s, NULL, 10);
        s = strchr(s, ',');
        if (s) s++;
    }
}

int main(int argc, char **argv)
{
    /* nonblocking calls progress on their own only under MPI_THREAD_MULTIPLE (eccl.h) */
    int want_modes = 0, provided = 0;
    for (int i = 1; i < argc; i++) want_modes |= !strcmp(argv[i], "--modes");
    if (want_modes) {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t mib[16] = {64, 256, 1024};
    int nsizes = 3, iters = 5, do_ar = 1, do_bc = 1, breakdown = 0, modes[3] = {1, 0, 0}; /* [1], [2]: --modes */
    int enq_event = 0;
    double E = 1e-4;
    const char *data_spec = "smooth", *dtype_name = "float32";
    const char *algs_spec[2] = {"ring", "binomial"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            if (rank == 0)
                printf("usage: mpiexec -n P bench_device [--mib 64,256,1024] [--iters 5] [--bound 1e-4]\n"
                       "       [--data smooth|randomwalk|normal] [--colls allreduce,bcast] [--dtype float32|float64]\n"
                       "       [--allreduce-algorithms ring,ring_pipelined] [--bcast-algorithms binomial,pipeline]\n"
                       "       [--breakdown]   (each rank's last eccl call: total, deciding, codec, network, the\n"
                       "                        rest, and the cost model's prediction, 0 where forced; ms; lines \"# breakdown\")\n"
                       "       [--modes nonblocking,enqueued]   (eccl-auto also as eccl_i<op> + eccl_wait and as\n"
                       "                        eccl_cuda_<op>_async + cudaStreamSynchronize; lines \"modes\";\n"
                       "                        enqueued-event: waited for with a blocking-sync event instead)\n"
                       "collectives on device buffers: eccl (device-resident, compressed, ABS bound on the result;\n"
                       "a row per named algorithm, default ring and binomial)\n"
                       "vs host-staged MPI vs NCCL; one rank per GPU; exit 1 when an element of eccl's result is\n"
                       "outside the bound (with the rounding allowance of doc/guarantees.md for the sum).\n");
            MPI_Finalize();
            return 0;
        } else if (!strcmp(a, "--mib") && v) parse_list(v, mib, 16, &nsizes), i++;
        else if (!strcmp(a, "--iters") && v) iters = atoi(v), i++;
        else if (!strcmp(a, "--bound") && v) E = atof(v), i++;
        else if (!strcmp(a, "--data") && v) data_spec = v, i++;
        else if (!strcmp(a, "--dtype") && v) dtype_name = v, i++;
        else if (!strcmp(a, "--breakdown")) breakdown = 1;
        else if (!strcmp(a, "--modes") && v) {
            /* (blocking: eccl-auto's own column, always measured; enqueued-event: enqueued, waited
             * for with a blocking-sync event instead of cudaStreamSynchronize) */
            modes[1] = strstr(v, "nonblocking") != NULL, modes[2] = strstr(v, "enqueued") != NULL, i++;
            enq_event = strstr(v, "enqueued-event") != NULL;
        }
        else if (!strcmp(a, "--colls") && v) do_ar = strstr(v, "allreduce") != NULL, do_bc = strstr(v, "bcast") != NULL, i++;
        else if (!strcmp(a, "--allreduce-algorithms") && v) algs_spec[0] = v, i++;
        else if (!strcmp(a, "--bcast-algorithms") && v) algs_spec[1] = v, i++;
        else {
            if (rank == 0) fprintf(stderr, "bench_device: unknown argument %s (try --help)\n", a);
            MPI_Finalize();
            return 2;
        }
    }
    if (iters < 1 || iters > 100 || !(E > 0) || nsizes < 1) die("arguments", "--iters 1..100, --bound > 0, --mib sizes");
    if (strcmp(dtype_name, "float32") && strcmp(dtype_name, "float64")) die("--dtype", "float32 or float64");
    const int is64 = !strcmp(dtype_name, "float64");
    const eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    const size_t es = is64 ? 8 : 4;
    const double u = is64 ? 0x1p-53 : 0x1p-24; /* unit roundoff */
    bench_data_t data;
    char err[256];
    if (bench_data_parse(data_spec, &data, err, sizeof err) || data.kind == BENCH_NETCDF ||
        bench_data_load(&data, err, sizeof err))
        die("--data", data.kind == BENCH_NETCDF ? "smooth, randomwalk or normal" : err);

    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        if (rank == 0) printf("SKIP: bench_device needs a CUDA GPU on every rank\n");
        MPI_Finalize();
        return 77;
    }
    CUDA(cudaSetDevice(rank % ndev));
    char gpu[128] = "";
    ECCL(eccl_cuda_device_check(rank % ndev, gpu, sizeof gpu));

    size_t nmax = 0;
    for (int k = 0; k < nsizes; k++) {
        size_t n = mib[k] * ((size_t)1 << 20) / es;
        nmax = n > nmax ? n : nmax;
    }
    /* inputs: this rank's on the host and the device; the exact sum of every rank's (long double:
     * exact for float32 inputs, within a few units of 2^-64 for float64) and the sum of magnitudes */
    void *h_in = NULL, *h_out = NULL, *h_stage = NULL;
    long double *exact = malloc(nmax * sizeof *exact);
    double *absum = malloc(nmax * sizeof *absum);
    unsigned char *other = malloc(nmax * es);
    const MPI_Datatype mt = is64 ? MPI_DOUBLE : MPI_FLOAT;
    CUDA(cudaMallocHost(&h_in, nmax * es));
    CUDA(cudaMallocHost(&h_out, nmax * es));
    CUDA(cudaMallocHost(&h_stage, nmax * es));
    if (!exact || !absum || !other) die("malloc", "out of memory");
    bench_data_fill(&data, rank, size, dt, h_in, nmax);
    for (size_t i = 0; i < nmax; i++) exact[i] = 0, absum[i] = 0;
    for (int q = 0; q < size; q++) {
        if (q == rank) memcpy(other, h_in, nmax * es);
        for (size_t off = 0; off < nmax; off += (size_t)1 << 27) {
            size_t len = nmax - off < ((size_t)1 << 27) ? nmax - off : ((size_t)1 << 27);
            MPI_Bcast(other + off * es, (int)len, mt, q, MPI_COMM_WORLD);
        }
        for (size_t i = 0; i < nmax; i++) {
            double x = elem(other, is64, i);
            exact[i] += x;
            absum[i] += fabs(x);
        }
    }
    void *d_in = NULL, *d_out = NULL;
    CUDA(cudaMalloc(&d_in, nmax * es));
    CUDA(cudaMalloc(&d_out, nmax * es));
    cudaStream_t st, ast;
    CUDA(cudaStreamCreate(&st));
    CUDA(cudaStreamCreateWithFlags(&ast, cudaStreamNonBlocking));
    cudaEvent_t aev = NULL;
    if (enq_event) CUDA(cudaEventCreateWithFlags(&aev, cudaEventBlockingSync | cudaEventDisableTiming));

    eccl_comm_t ec;
    ECCL(eccl_comm_create(MPI_COMM_WORLD, NULL, &ec));
    char nccl_why[128] = "built without nccl.h";
    int have_nccl = 0;
#ifdef BENCH_NCCL
    nccl_t nc;
    have_nccl = nccl_open(&nc, nccl_why, sizeof nccl_why);
#endif
    if (rank == 0) {
        printf("# bench_device: %d ranks, GPU %s (%d visible), %s %s data, ABS bound %g on the result\n", size,
               gpu, ndev, dtype_name, data_spec, E);
        printf("# NCCL: %s\n", have_nccl ? "yes" : nccl_why);
        printf("%-9s %6s %-14s | %9s %13s %10s | %9s %10s | %7s %7s | %6s %6s  %s\n", "coll", "MiB", "eccl alg",
               "eccl ms", "(codec/net)", "MPI-stg ms", "NCCL ms", "eccl-auto", "vs MPI", "vs NCCL", "ratio", "err/E",
               "(auto chose)");
    }
    /* the compressed algorithms of the eccl column, up to 4 per collective */
    char algbuf[2][256], *algs[2][4];
    int nalgs[2] = {0, 0};
    for (int cl = 0; cl < 2; cl++) {
        snprintf(algbuf[cl], sizeof algbuf[cl], "%s", algs_spec[cl]);
        for (char *tok = strtok(algbuf[cl], ","); tok && nalgs[cl] < 4; tok = strtok(NULL, ","))
            algs[cl][nalgs[cl]++] = tok;
        if (!nalgs[cl]) die("--allreduce-algorithms / --bcast-algorithms", "an empty list");
    }
    int violations = 0;
    double *t = malloc((size_t)iters * sizeof *t);
    eccl_bound_t b = {ECCL_MODE_ABS, E, ECCL_RANGE_FROM_DATA};
    const check_t ck = {d_out, h_out, is64, size, exact, absum, other, E, u};
    if (want_modes && rank == 0 && provided < MPI_THREAD_MULTIPLE)
        printf("# MPI_THREAD_MULTIPLE not provided: the nonblocking calls run inside eccl_wait\n");
    if (want_modes && rank == 0)
        printf("# modes lines: coll MiB | eccl-auto blocking, nonblocking, enqueued | NCCL, MPI-stg (ms) | err/E "
               "(auto chose; the last nonblocking and enqueued call's time inside the engine, ms)\n");
    for (int coll = 0; coll < 2; coll++) {
        if ((coll == 0 && !do_ar) || (coll == 1 && !do_bc)) continue;
        const char *cname = coll == 0 ? "allreduce" : "bcast";
        for (int k = 0; k < nsizes; k++) {
            size_t n = mib[k] * ((size_t)1 << 20) / es, bytes = n * es;
            int root = 0;
            /* eccl, compressed, device-resident: each named algorithm */
            double t_eccl[4], ratio_a[4], smax_a[4][2], wmax_a[4];
            int wmin_a[4], tr_a[4];
            eccl_run_t er = {ec, coll, NULL, d_in, d_out, h_in, n, dt, root, &b, t, iters, 0, ast, aev};
            if (coll == 1) { /* the root's input, for every rank */
                memcpy(other, h_in, bytes);
                for (size_t off = 0; off < n; off += (size_t)1 << 27) {
                    size_t len = n - off < ((size_t)1 << 27) ? n - off : ((size_t)1 << 27);
                    MPI_Bcast(other + off * es, (int)len, mt, root, MPI_COMM_WORLD);
                }
            }
            for (int ai = 0; ai < nalgs[coll]; ai++) {
                eccl_stats_t sts;
                er.algorithm = algs[coll][ai];
                t_eccl[ai] = time_eccl(&er, &sts);
                if (breakdown) { /* where each rank's last call went (eccl_stats_t), the model beside it */
                    double mine[5] = {sts.t_total, sts.t_select, sts.t_codec, sts.t_network, sts.model_t_chosen};
                    double *all = rank == 0 ? malloc((size_t)size * sizeof mine) : NULL;
                    MPI_Gather(mine, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                    for (int r = 0; rank == 0 && r < size; r++) {
                        const double *v = all + 5 * r;
                        printf("# breakdown %s %zu MiB %s rank %d: total %.3f deciding %.3f codec %.3f network %.3f "
                               "rest %.3f | model %.3f (ms)\n",
                               cname, mib[k], algs[coll][ai], r, v[0] * 1e3, v[1] * 1e3, v[2] * 1e3, v[3] * 1e3,
                               (v[0] - v[1] - v[2] - v[3]) * 1e3, v[4] * 1e3);
                    }
                    free(all);
                }
                /* the ratio of what was sent (ranks that send nothing, as bcast leaves, report 1) */
                double ratio = sts.bytes_sent ? sts.ratio : 0;
                MPI_Allreduce(&ratio, &ratio_a[ai], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                double split[2] = {sts.t_codec * 1e3, sts.t_network * 1e3};
                MPI_Allreduce(split, smax_a[ai], 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                int where = sts.device;
                MPI_Allreduce(&where, &wmin_a[ai], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                tr_a[ai] = sts.transport;
                /* the bound, element by element */
                wmax_a[ai] = check_out(&ck, coll, n, &violations);
            }

            /* host-staged MPI */
            for (int it = -1; it < iters; it++) {
                CUDA(cudaMemcpy(coll == 0 ? d_in : d_out, h_in, bytes, cudaMemcpyHostToDevice));
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                CUDA(cudaMemcpy(h_stage, coll == 0 ? d_in : d_out, bytes, cudaMemcpyDeviceToHost));
                for (size_t off = 0; off < n; off += (size_t)1 << 27) {
                    size_t len = n - off < ((size_t)1 << 27) ? n - off : ((size_t)1 << 27);
                    void *p = (unsigned char *)h_stage + off * es;
                    if (coll == 0) MPI_Allreduce(MPI_IN_PLACE, p, (int)len, mt, MPI_SUM, MPI_COMM_WORLD);
                    else MPI_Bcast(p, (int)len, mt, root, MPI_COMM_WORLD);
                }
                CUDA(cudaMemcpy(d_out, h_stage, bytes, cudaMemcpyHostToDevice));
                double t1 = MPI_Wtime();
                if (it >= 0) t[it] = t1 - t0;
            }
            double t_mpi = median_ms(t, iters);

            /* NCCL */
            double t_nccl = NAN;
#ifdef BENCH_NCCL
            if (have_nccl) {
                for (int it = -1; it < iters; it++) {
                    MPI_Barrier(MPI_COMM_WORLD);
                    double t0 = MPI_Wtime();
                    ncclDataType_t nt = is64 ? ncclFloat64 : ncclFloat32;
                    ncclResult_t r = coll == 0 ? nc.allreduce(d_in, d_out, n, nt, ncclSum, nc.comm, st)
                                               : nc.bcast(d_out, d_out, n, nt, root, nc.comm, st);
                    if (r != ncclSuccess) die("nccl", "collective failed");
                    CUDA(cudaStreamSynchronize(st));
                    double t1 = MPI_Wtime();
                    if (it >= 0) t[it] = t1 - t0;
                }
                t_nccl = median_ms(t, iters);
            }
#endif
            /* eccl auto: the cost model decides */
            eccl_stats_t sta;
            er.algorithm = "auto";
            double t_auto = time_eccl(&er, &sta), t_mode[3] = {t_auto, NAN, NAN}, in_call[3] = {NAN, NAN, NAN};
            double w_auto = check_out(&ck, coll, n, &violations), w_modes = w_auto;
            for (int m = 1; m < 3; m++) /* the same call nonblocking, then stream-enqueued */
                if (modes[m]) {
                    eccl_stats_t stm;
                    er.mode = m;
                    t_mode[m] = time_eccl(&er, &stm);
                    /* the last call's own time, inside the engine (the rest is the hand-over) */
                    MPI_Allreduce(&stm.t_total, &in_call[m], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                    double w = check_out(&ck, coll, n, &violations);
                    w_modes = w > w_modes || w != w ? w : w_modes;
                    er.mode = 0;
                }
            if (want_modes && rank == 0)
                printf("modes %-9s %6zu | %9.3f %9.3f %9.3f | %9.3f %10.2f | %6.3f  (%s; in-call %.3f %.3f)\n", cname,
                       mib[k], t_mode[0], t_mode[1], t_mode[2], t_nccl, t_mpi, w_modes, sta.algorithm, in_call[1] * 1e3,
                       in_call[2] * 1e3);
            for (int ai = 0; ai < nalgs[coll] && rank == 0; ai++) {
                char nccl_s[32] = "n/a", vs_nccl[32] = "n/a", cn[32], name[48];
                if (t_nccl == t_nccl) {
                    snprintf(nccl_s, sizeof nccl_s, "%.2f", t_nccl);
                    snprintf(vs_nccl, sizeof vs_nccl, "%.2fx", t_nccl / t_eccl[ai]);
                }
                snprintf(cn, sizeof cn, "(%.1f/%.1f)", smax_a[ai][0], smax_a[ai][1]);
                snprintf(name, sizeof name, "%s", algs[coll][ai]);
                printf("%-9s %6zu %-14s | %9.2f %13s %10.2f | %9s %10.2f | %6.2fx %7s | %6.2f %6.3f  (%s%s)\n", cname,
                       mib[k], name, t_eccl[ai], cn, t_mpi, nccl_s, t_auto, t_mpi / t_eccl[ai], vs_nccl, ratio_a[ai],
                       wmax_a[ai], sta.algorithm,
                       wmin_a[ai] != 2 ? "; eccl column NOT device-resident" : tr_a[ai] ? "; streams over NCCL" : "; streams over MPI");
                fflush(stdout);
            }
        }
    }
    int vall = 0;
    MPI_Allreduce(&violations, &vall, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("# bound violations: %d\n", vall);
#ifdef BENCH_NCCL
    if (have_nccl) nc.destroy(nc.comm);
#endif
    eccl_comm_free(&ec);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    cudaFreeHost(h_stage);
    free(exact);
    free(absum);
    free(other);
    free(t);
    bench_data_free(&data);
    cudaStreamDestroy(st);
    cudaStreamDestroy(ast);
    if (aev) cudaEventDestroy(aev);
    MPI_Finalize();
    return vall ? 1 : 0;
}
