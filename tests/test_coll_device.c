/*
 * test_coll_device.c - the collectives on CUDA device buffers (MPI program, any rank count).
 *
 * Every collective, every algorithm (forced), float32 and float64, several counts, in-place
 * variants where MPI has them, and a device buffer on one side only: the result on device buffers
 * must be bit for bit the result of the same call on host buffers (the same algorithm runs on
 * the same data), the root of a broadcast keeps its input, and bcast/allreduce results are
 * checked against the bound element by element (ABS cases; REL cases check that the device's
 * range reduction gives the host's bits). Skips (77) when no rank has a usable GPU.
 * ECCL_TEST_EXPECT_NCCL=1 (one GPU per rank, NCCL build): the nccl algorithms must run on NCCL;
 * =2 (with ECCL_TRANSPORT=nccl): compressed device-resident calls must send their streams by NCCL;
 * =0: they must fall back to MPI. Unset: one nccl allreduce first finds out which holds here.
 * ECCL_FAULT_NODE_IPC=R with ECCL_NODE_SIZE: only the case of a node that refuses the hierarchical
 * allreduce's CUDA IPC windows (refused_ipc_case). ECCL_FORMAT=3: the GPU codec writes version 3
 * (device-resident calls of every dtype, bit for bit the host call's).
 *
 * Usage: mpiexec -n P tests/test_coll_device
 */
#include "config.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/comm.h" /* gpu_measured: white-box, the GPU model case */
#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil.h"
#include "testutil_mpi.h"

enum { BCAST, ALLREDUCE, REDUCE, RSB, ALLGATHER, SCATTER, GATHER, SRR, NCOLL };
static const char *coll_name[NCOLL] = {"bcast",     "allreduce", "reduce", "reduce_scatter_block",
                                       "allgather", "scatter",   "gather", "sendrecv_replace"};
static const char *algos[NCOLL][10] = {
    {"mpi", "binomial", "scatter_allgather", "pipeline", "nccl", NULL},
    {"mpi", "ring", "ring_pipelined", "recursive_doubling", "rabenseifner", "reduce_bcast", "nccl", "hierarchical", NULL},
    {"mpi", "binomial", NULL},
    {"mpi", "ring", "ring_pipelined", "recursive_halving", NULL},
    {"mpi", "ring", "recursive_doubling", "bruck", NULL},
    {"mpi", "binomial", NULL},
    {"mpi", "binomial", NULL},
    {"mpi", "compressed", NULL},
};

static int rank, size, failures, cases;
static int mpi_aware; /* eccl_cuda_comm_mpi_aware: device buffers go to MPI as they are */
static int expect_nccl; /* ECCL_TEST_EXPECT_NCCL=1: the nccl algorithms run (NCCL up); 2: also every
                          compressed device-resident call sends its streams by NCCL */

#define CK(call)                                                                                   \
    do {                                                                                           \
        eccl_result_t rc_ = (call);                                                                \
        if (rc_) {                                                                                 \
            fprintf(stderr, "[%d] %s:%d: %s -> %s\n", rank, __FILE__, __LINE__, #call,           \
                    eccl_strerror(rc_));                                                       \
            MPI_Abort(MPI_COMM_WORLD, 99);                                                         \
        }                                                                                          \
    } while (0)

/* Buffers of one case: host inputs, host results, device buffers. */
typedef struct {
    size_t sbytes, rbytes;
    unsigned char *hs, *hr, *out; /* host send, host recv (the host call's), device result copy */
    void *ds, *dr;
} bufs_t;

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    CK(eccl_cuda_malloc(&p, bytes ? bytes : 64));
    return p;
}

/* Sizes in bytes of sendbuf and recvbuf on this rank for a collective of `count`. */
static void sizes(int coll, size_t count, size_t es, size_t *sb, size_t *rb)
{
    size_t n = count * es, p = (size_t)size;
    switch (coll) {
    case RSB: *sb = n * p, *rb = n * p; break; /* in place, recv holds the input */
    case ALLGATHER: *sb = n, *rb = n * p; break;
    case SCATTER: *sb = n * p, *rb = n; break;
    case GATHER: *sb = n, *rb = n * p; break;
    default: *sb = n, *rb = n;
    }
}

/* One call on (send, recv); in_place picks the MPI_IN_PLACE form (recv then holds the input
 * where MPI says so). */
static eccl_result_t call(int coll, void *send, void *recv, size_t count, eccl_dtype_t dt, eccl_op_t op,
                          int in_place, const eccl_bound_t *b, eccl_comm_t ec)
{
    int root = size - 1;
    const void *s = in_place ? MPI_IN_PLACE : send;
    switch (coll) {
    case BCAST: return eccl_bcast(recv, count, dt, root, b, ec);
    case ALLREDUCE: return eccl_allreduce(s, recv, count, dt, op, b, ec);
    case REDUCE:
        return eccl_reduce(in_place && rank == root ? MPI_IN_PLACE : send, recv, count, dt, op, root, b, ec);
    case RSB: return eccl_reduce_scatter_block(s, recv, count, dt, op, b, ec);
    case ALLGATHER: return eccl_allgather(s, recv, count, dt, b, ec);
    case SCATTER:
        return eccl_scatter(send, in_place && rank == root ? MPI_IN_PLACE : recv, count, dt, root, b, ec);
    case GATHER:
        return eccl_gather(in_place && rank == root ? MPI_IN_PLACE : send, recv, count, dt, root, b, ec);
    case SRR:
        return eccl_sendrecv_replace(recv, count, dt, (rank + 1) % size, 7, (rank + size - 1) % size, 7,
                                     b, ec);
    }
    return ECCL_ERR_INVALID_ARG;
}

/* Fill the inputs of this rank: send and recv both get data (recv is the input of in-place forms,
 * bcast and sendrecv_replace). */
static void fill(bufs_t *B, int is64, int coll, size_t count, int seed)
{
    size_t es = is64 ? 8 : 4;
    tu_fill(B->hs, B->sbytes / es, is64, TU_SMOOTH, (uint64_t)(seed * 31 + rank));
    tu_fill(B->hr, B->rbytes / es, is64, TU_RANDOMWALK, (uint64_t)(seed * 37 + rank + 1));
    if (coll == ALLGATHER || coll == GATHER) /* in place: this rank's piece sits in recv */
        memcpy(B->hr + (size_t)(coll == GATHER ? size - 1 : rank) * count * es, B->hs, count * es);
}

static int differ(const unsigned char *a, const unsigned char *b, size_t bytes)
{
    return bytes && memcmp(a, b, bytes) != 0;
}

/* Which recv bytes the call defines on this rank (the rest is not compared). */
static size_t defined_recv(int coll, size_t rbytes)
{
    int root = size - 1;
    if ((coll == REDUCE || coll == GATHER) && rank != root) return 0;
    if (coll == RSB) return rbytes / (size_t)size;
    return rbytes;
}

/* The eccl_stats_t.device a call on device buffers must report on this rank: 2 (device-resident)
 * when all its buffers are on the device and the algorithm is a compressed one that works through
 * the primitives (not rabenseifner; not reduce_scatter_block in place), else 1 (staged). Mixed
 * host/device calls are staged, except where the host buffer is one this rank does not touch
 * (the non-roots' recvbuf of reduce and gather, the non-roots' sendbuf of scatter); 0 when all
 * it touches is host memory. The nccl algorithms run where every rank is device-resident and NCCL
 * is up (ECCL_TEST_EXPECT_NCCL), else fall back to MPI. hierarchical keeps device buffers on the
 * GPU (CUDA IPC inside each node; staged with ECCL_NODE_IPC=0), and falls back to MPI on one node
 * (ECCL_NODE_SIZE makes nodes). */
/* No GPU codec for the collectives: ECCL_DEVICE_RESIDENT=0. */
static int staged_only(void)
{
    const char *env = getenv("ECCL_DEVICE_RESIDENT");
    return env && !strcmp(env, "0");
}

/* ECCL_FORMAT=3 (the mixed-placement and GPU-model cases, written for the default format, are
 * left out there). */
static int format3(void)
{
    const char *fmt = getenv("ECCL_FORMAT");
    return fmt && !strcmp(fmt, "3");
}

static int where(int coll, const char *alg, eccl_op_t op, int in_place, int dev_send, int dev_recv)
{
    int root = size - 1, mine = rank == root;
    int uses_send = coll != BCAST && coll != SRR && !in_place && !(coll == SCATTER && !mine);
    int uses_recv = !((coll == REDUCE || coll == GATHER) && !mine && !in_place) || coll == BCAST || coll == SRR ||
                    in_place;
    if (coll == SCATTER && mine && in_place) uses_recv = 0; /* MPI_IN_PLACE at the root */
    if (coll == SCATTER && mine && in_place) uses_send = 1;
    if ((coll == REDUCE || coll == GATHER) && in_place && !mine) uses_send = 1, uses_recv = 0;
    if (!(uses_send && dev_send) && !(uses_recv && dev_recv)) return 0; /* all it touches is host memory */
    if (staged_only()) return 1;
    if ((uses_send && !dev_send) || (uses_recv && !dev_recv)) return 1;
    if (coll == RSB && in_place) return 1;
    /* plain MPI on device buffers: staged, or handed to a CUDA-aware MPI as they are (not an
     * in-place reduce, not MAX/MIN: their MPI operations are host functions) */
    int reduction = coll == ALLREDUCE || coll == REDUCE || coll == RSB;
    int mpi_where = mpi_aware && !(coll == REDUCE && in_place) &&
                    !(reduction && op != ECCL_OP_SUM && op != ECCL_OP_AVG) ? 2 : 1; /* (AVG: a SUM, then /p) */
    if (size > 1 && !strcmp(alg, "nccl")) /* NCCL's own collective, else the fallback: plain MPI */
        return expect_nccl && (coll == BCAST || op == ECCL_OP_SUM) ? 2 : mpi_where;
    if (size > 1 && !strcmp(alg, "hierarchical")) { /* several nodes (ECCL_NODE_SIZE), else the MPI fallback */
        const char *ipc = getenv("ECCL_NODE_IPC"); /* device-resident through CUDA IPC, or staged */
        return !getenv("ECCL_NODE_SIZE") ? mpi_where : ipc && !strcmp(ipc, "0") ? 1 : 2;
    }
    if (size == 1) return 2; /* a device copy, on the device */
    if (!strcmp(alg, "mpi")) return mpi_where;
    return strcmp(alg, "rabenseifner") ? 2 : 1;
}

/* Run case (coll, algorithm, dtype, count, in_place, which sides on the device). */
static void one_case(eccl_comm_t ec, int coll, const char *alg, int is64, size_t count, int in_place,
                     int dev_send, int dev_recv)
{
    eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    size_t es = is64 ? 8 : 4;
    /* (1003 elements: MAX in float64, AVG in float32, which divides on the GPU when resident) */
    eccl_op_t op = count != 1003 ? ECCL_OP_SUM : is64 ? ECCL_OP_MAX : ECCL_OP_AVG;
    /* float32 at the largest count: REL from the data, so that the device-side range reduction
     * must agree with the host's (bit for bit results); elsewhere ABS, checked against the bound */
    int rel = !is64 && count == 60001;
    eccl_bound_t b = {rel ? ECCL_MODE_REL : ECCL_MODE_ABS, rel ? 1e-4 : 1e-3, ECCL_RANGE_FROM_DATA};
    bufs_t B = {0};
    sizes(coll, count, es, &B.sbytes, &B.rbytes);
    B.hs = tu_malloc(B.sbytes);
    B.hr = tu_malloc(B.rbytes);
    B.out = tu_malloc(B.rbytes);
    unsigned char *in_r = tu_malloc(B.rbytes);
    fill(&B, is64, coll, count, (int)count + coll);
    memcpy(in_r, B.hr, B.rbytes);
    unsigned char *input = tu_malloc(B.rbytes); /* (the in-place input: recv as filled) */
    memcpy(input, B.hr, B.rbytes);
    B.ds = dev_alloc(B.sbytes);
    B.dr = dev_alloc(B.rbytes);
    CK(eccl_cuda_memcpy(B.ds, B.hs, B.sbytes));
    CK(eccl_cuda_memcpy(B.dr, B.hr, B.rbytes));
    CK(eccl_comm_set_algorithm(ec, coll_name[coll], alg));

    /* the host call: the reference */
    eccl_result_t hrc = call(coll, B.hs, B.hr, count, dt, op, in_place, &b, ec);
    eccl_stats_t hst;
    eccl_comm_last_stats(ec, &hst);
    /* the same call with device buffers (in place: the receive side is the one buffer) */
    void *s = dev_send ? B.ds : B.hs;
    void *r = dev_recv ? B.dr : in_r;
    eccl_result_t drc = call(coll, s, r, count, dt, op, in_place, &b, ec);
    eccl_stats_t dst;
    eccl_comm_last_stats(ec, &dst);
    if (dev_recv) CK(eccl_cuda_memcpy(B.out, B.dr, B.rbytes));
    else memcpy(B.out, in_r, B.rbytes);

    int bad = 0, nccl_alg = !strcmp(alg, "nccl");
    size_t def = defined_recv(coll, B.rbytes);
    if (hrc || drc) {
        fprintf(stderr, "[%d] %s/%s: host call %s, device call %s (%s)\n", rank, coll_name[coll], alg,
                eccl_strerror(hrc), eccl_strerror(drc), eccl_comm_last_error(ec));
        bad = 1;
    } else if (strcmp(hst.algorithm, dst.algorithm) != 0 && !(nccl_alg && dst.device == 2)) {
        fprintf(stderr, "[%d] %s: host ran %s, device ran %s\n", rank, coll_name[coll], hst.algorithm,
                dst.algorithm);
        bad = 1;
    } else if (hst.device != 0 || dst.device != where(coll, alg, op, in_place, dev_send, dev_recv)) {
        fprintf(stderr, "[%d] %s/%s%s%s%s: data handled at %d (host call: %d), expected %d\n", rank, coll_name[coll],
                alg, in_place ? " in place" : "", dev_send ? " dev-send" : "", dev_recv ? " dev-recv" : "",
                dst.device, hst.device, where(coll, alg, op, in_place, dev_send, dev_recv));
        bad = 1;
    } else if (expect_nccl && size > 1 && dev_send && dev_recv && dst.device == 2 && dst.transport != 1 &&
               (nccl_alg || expect_nccl == 2)) {
        fprintf(stderr, "[%d] %s/%s: ran over MPI, NCCL expected (ECCL_TEST_EXPECT_NCCL)\n", rank,
                coll_name[coll], alg);
        bad = 1;
    } else if (differ(B.hr, B.out, def) && !(nccl_alg && coll == ALLREDUCE && dst.device == 2) &&
               !(!strcmp(alg, "hierarchical") && dst.device == 2) &&
               !(!strcmp(alg, coll == BCAST ? "pipeline" : "ring_pipelined") && dst.device == 2 &&
                 !getenv("ECCL_CHUNKS"))) {
        /* (ncclAllReduce sums in its own order, and the pipelined algorithms cut their chunks by
         * the cost model's figures, which are the GPU codec's for device-resident calls: both
         * are checked against the bound below instead; with ECCL_CHUNKS host and device calls
         * cut the same chunks and must agree bit for bit; the hierarchical allreduce on the
         * GPU sums a node's ranks in local-rank order, MPI_Reduce_scatter in its own, and its
         * inter-node communicator chooses its algorithm with the GPU codec's figures too) */
        fprintf(stderr, "[%d] %s/%s %s count %zu%s%s%s: device result differs from the host result\n",
                rank, coll_name[coll], alg, is64 ? "f64" : "f32", count, in_place ? " in place" : "",
                dev_send ? " dev-send" : "", dev_recv ? " dev-recv" : "");
        bad = 1;
    }
    /* a broadcast leaves the root's buffer as it was; the bound on bcast and allreduce results */
    /* (collective checks run on every rank whatever `bad` is, so no rank waits alone) */
    if (coll == BCAST) {
        /* the absolute bound of the call (REL: from the root's range; 0 for uncompressed ones) */
        double E = rel ? dst.bound_requested : b.value;
        unsigned char *root_in = tu_malloc(B.rbytes);
        memcpy(root_in, in_r, B.rbytes);
        MPI_Bcast(root_in, (int)B.rbytes, MPI_BYTE, size - 1, MPI_COMM_WORLD);
        if (!hrc && !drc && rank == size - 1 && differ(root_in, B.out, B.rbytes)) {
            fprintf(stderr, "[%d] bcast/%s: the root's buffer changed\n", rank, alg);
            bad = 1;
        }
        long double me;
        if (!hrc && !drc && tu_check_bound(root_in, B.out, count, is64, E, 0, &me)) {
            fprintf(stderr, "[%d] bcast/%s: bound violated (max error %Lg)\n", rank, alg, me);
            bad = 1;
        }
        free(root_in);
    }
    if (coll == ALLREDUCE) { /* every rank ends with the same bits */
        unsigned char *first = tu_malloc(B.rbytes);
        memcpy(first, B.out, B.rbytes);
        MPI_Bcast(first, (int)B.rbytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (!hrc && !drc && differ(first, B.out, B.rbytes)) {
            fprintf(stderr, "[%d] allreduce/%s: the result differs from rank 0's\n", rank, alg);
            bad = 1;
        }
        free(first);
    }
    if (coll == ALLREDUCE && !rel) {
        /* exact sum (max, average) in long double of every rank's input vs the result */
        size_t n = count;
        long double *acc = calloc(n, sizeof *acc);
        unsigned char *other = tu_malloc(B.sbytes);
        for (int q = 0; q < size; q++) {
            if (q == rank) memcpy(other, in_place ? input : B.hs, B.sbytes);
            MPI_Bcast(other, (int)B.sbytes, MPI_BYTE, q, MPI_COMM_WORLD);
            for (size_t i = 0; i < n; i++) {
                long double x = is64 ? (long double)((double *)other)[i] : (long double)((float *)other)[i];
                acc[i] = op != ECCL_OP_MAX ? acc[i] + x : q == 0 || x > acc[i] ? x : acc[i];
            }
        }
        if (op == ECCL_OP_AVG) /* E bounds the average (+ the sum's rounding divided, + the division's) */
            for (size_t i = 0; i < n; i++) acc[i] /= size;
        long double tol = (long double)b.value, worst = 0;
        for (size_t i = 0; i < n; i++) {
            long double y = is64 ? (long double)((double *)B.out)[i] : (long double)((float *)B.out)[i];
            /* + the rounding of the sum to the element type (doc/guarantees.md) */
            long double ulp = fabsl(acc[i]) * (is64 ? 0x1p-52L : 0x1p-23L) * (op == ECCL_OP_AVG ? 2 : 1);
            long double e = fabsl(y - acc[i]);
            if (e > tol + ulp && e > worst) worst = e;
        }
        if (!hrc && !drc && worst > 0) {
            fprintf(stderr, "[%d] allreduce/%s: bound violated (error %Lg)\n", rank, alg, worst);
            bad = 1;
        }
        free(acc);
        free(other);
    }
    CK(eccl_cuda_free(B.ds));
    CK(eccl_cuda_free(B.dr));
    free(B.hs);
    free(B.hr);
    free(B.out);
    free(in_r);
    free(input);
    failures += bad;
    cases++;
}

/* ECCL_NODE_SIZE makes several nodes of equal size here (the hierarchical allreduce applies). */
static int node_size_set(void)
{
    const char *e = getenv("ECCL_NODE_SIZE");
    return e && atoi(e) > 1 && size % atoi(e) == 0 && size > atoi(e);
}

/* The hierarchical allreduce with rank 0 on host buffers and every other rank on device buffers:
 * rank 0's node stages (its ranks do not all run device-resident), the other nodes keep theirs on
 * the GPU (CUDA IPC); every rank must end with the bits of the all-host call (two ranks a node:
 * a node's sum is one addition either way), the same bits as rank 0 otherwise. */
static void mixed_hier_case(eccl_comm_t ec)
{
    const size_t n = 60001;
    const int L = atoi(getenv("ECCL_NODE_SIZE"));
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
    float *in = tu_malloc(n * sizeof *in), *ref = tu_malloc(n * sizeof *ref), *got = tu_malloc(n * sizeof *got);
    tu_fill(in, n, 0, TU_SMOOTH, (uint64_t)(977 + rank));
    CK(eccl_comm_set_algorithm(ec, "allreduce", "hierarchical"));
    eccl_result_t hrc = eccl_allreduce(in, ref, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, ec);
    void *ds = NULL, *dr = NULL;
    if (rank != 0) {
        ds = dev_alloc(n * sizeof *in);
        dr = dev_alloc(n * sizeof *in);
        CK(eccl_cuda_memcpy(ds, in, n * sizeof *in));
    }
    eccl_result_t drc = eccl_allreduce(rank ? ds : in, rank ? dr : (void *)got, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, ec);
    eccl_stats_t st;
    eccl_comm_last_stats(ec, &st);
    if (rank) CK(eccl_cuda_memcpy(got, dr, n * sizeof *got));
    int want = rank == 0 ? 0 : rank < L ? 1 : 2; /* host / staged (rank 0's node) / on the GPU */
    int bad = 0;
    if (hrc || drc) {
        fprintf(stderr, "[%d] mixed hierarchical: host call %s, mixed call %s (%s)\n", rank, eccl_strerror(hrc),
                eccl_strerror(drc), eccl_comm_last_error(ec));
        bad = 1;
    } else if (strcmp(st.algorithm, "hierarchical") || st.device != want) {
        fprintf(stderr, "[%d] mixed hierarchical: ran %s with data at %d, expected hierarchical at %d\n", rank,
                st.algorithm, st.device, want);
        bad = 1;
    } else if (L == 2 && differ((unsigned char *)ref, (unsigned char *)got, n * sizeof *got)) {
        fprintf(stderr, "[%d] mixed hierarchical: the result differs from the all-host call's\n", rank);
        bad = 1;
    }
    memcpy(ref, got, n * sizeof *got);
    MPI_Bcast(ref, (int)(n * sizeof *ref), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!bad && !hrc && !drc && differ((unsigned char *)ref, (unsigned char *)got, n * sizeof *got)) {
        fprintf(stderr, "[%d] mixed hierarchical: the result differs from rank 0's\n", rank);
        bad = 1;
    }
    if (ds) CK(eccl_cuda_free(ds));
    if (dr) CK(eccl_cuda_free(dr));
    free(in);
    free(ref);
    free(got);
    failures += bad;
    cases++;
}

/* The sum over every rank of its in[0..n-1] (float32), in long double: the exact sum the bound is
 * checked against (malloc'd; the caller frees it). Collective over MPI_COMM_WORLD. */
static long double *exact_sum_f32(const float *in, size_t n)
{
    const size_t bytes = n * sizeof(float);
    float *other = tu_malloc(bytes);
    long double *acc = calloc(n, sizeof *acc);
    if (!acc) MPI_Abort(MPI_COMM_WORLD, 98);
    for (int q = 0; q < size; q++) {
        if (q == rank) memcpy(other, in, bytes);
        MPI_Bcast(other, (int)bytes, MPI_BYTE, q, MPI_COMM_WORLD);
        for (size_t i = 0; i < n; i++) acc[i] += (long double)other[i];
    }
    free(other);
    return acc;
}

/* The largest |got - acc| above eb (plus the result's own float32 rounding), or 0 if none is. */
static long double worst_over_bound_f32(const float *got, const long double *acc, size_t n, double eb)
{
    long double worst = 0;
    for (size_t i = 0; i < n; i++) {
        long double e = fabsl((long double)got[i] - acc[i]), ulp = fabsl(acc[i]) * 0x1p-23L;
        if (e > (long double)eb + ulp && e > worst) worst = e;
    }
    return worst;
}

/* ECCL_FAULT_NODE_IPC=R with ECCL_NODE_SIZE nodes: R's node refuses the CUDA IPC windows at the
 * first hierarchical allreduce on device buffers (of a new communicator). That call must still be
 * right (R's node staged, the others on the GPU; every rank rank 0's bits, within the bound of the
 * exact sum); from the next call on, every rank's cost model must price R's node as staged: the
 * same choice on every rank, and at 64 MiB not the hierarchical allreduce (staging the buffer
 * through host memory costs more than a device-resident algorithm's whole call). The first call is
 * left to the model: where it picks the hierarchical allreduce (IPC priced), the test shows the
 * choice change. */
static void refused_ipc_case(void)
{
    const int L = atoi(getenv("ECCL_NODE_SIZE")), R = atoi(getenv("ECCL_FAULT_NODE_IPC"));
    const size_t n = (size_t)16 << 20, bytes = n * sizeof(float);
    eccl_comm_t ec;
    CK(eccl_comm_create(MPI_COMM_WORLD, NULL, &ec));
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    float *in = tu_malloc(bytes), *got = tu_malloc(bytes);
    tu_fill(in, n, 0, TU_SMOOTH, (uint64_t)(4099 + rank));
    long double *acc = exact_sum_f32(in, n);
    float *other = tu_malloc(bytes); /* rank 0's result */
    void *ds = dev_alloc(bytes), *dr = dev_alloc(bytes);
    CK(eccl_cuda_memcpy(ds, in, bytes));
    char chosen[3][32] = {"", "", ""};
    int refused = 0, bad = 0;
    for (int k = 0; k < 3; k++) {
        if (k == 1 && refused) continue; /* the model's first choice refused already */
        CK(eccl_comm_set_algorithm(ec, "allreduce", k == 1 ? "hierarchical" : "auto"));
        eccl_result_t rc = eccl_allreduce(ds, dr, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, ec);
        eccl_stats_t st;
        eccl_comm_last_stats(ec, &st);
        snprintf(chosen[k], sizeof chosen[k], "%s", st.algorithm);
        int failed = rc != ECCL_SUCCESS, any = 0;
        MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* (every rank stops together) */
        if (any) {
            if (failed)
                fprintf(stderr, "[%d] refused IPC, call %d (%s): %s (%s)\n", rank, k, st.algorithm, eccl_strerror(rc),
                        eccl_comm_last_error(ec));
            bad = 1;
            break;
        }
        CK(eccl_cuda_memcpy(got, dr, bytes));
        memcpy(other, got, bytes);
        MPI_Bcast(other, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (differ((unsigned char *)other, (unsigned char *)got, bytes)) {
            fprintf(stderr, "[%d] refused IPC, call %d (%s): the result differs from rank 0's\n", rank, k, st.algorithm);
            bad = 1;
        }
        long double worst = worst_over_bound_f32(got, acc, n, b.value);
        if (worst > 0) {
            fprintf(stderr, "[%d] refused IPC, call %d (%s): bound violated (error %Lg)\n", rank, k, st.algorithm, worst);
            bad = 1;
        }
        /* the same algorithm on every rank */
        char all[64][32];
        if (size <= 64) {
            MPI_Allgather(chosen[k], 32, MPI_CHAR, all, 32, MPI_CHAR, MPI_COMM_WORLD);
            for (int q = 0; q < size; q++)
                if (strcmp(all[q], chosen[k])) {
                    fprintf(stderr, "[%d] refused IPC, call %d: this rank ran %s, rank %d %s\n", rank, k, chosen[k], q,
                            all[q]);
                    bad = 1;
                }
        }
        if (!strcmp(st.algorithm, "hierarchical") && !refused) { /* the call that met the refusal */
            int want = rank / L == R / L ? 1 : 2; /* R's node staged, the others on the GPU */
            if (st.device != want) {
                fprintf(stderr, "[%d] refused IPC, call %d: data at %d, expected %d\n", rank, k, st.device, want);
                bad = 1;
            }
            refused = 1;
        } else if (k == 2 && !strcmp(st.algorithm, "hierarchical")) {
            fprintf(stderr, "[%d] refused IPC: auto still chose the hierarchical allreduce after the refusal\n", rank);
            bad = 1;
        }
    }
    if (rank == 0)
        printf("refused IPC windows on rank %d's node: auto chose %s, then %s%s\n", R, chosen[0], chosen[2],
               chosen[1][0] ? " (hierarchical forced in between)" : "");
    CK(eccl_cuda_free(ds));
    CK(eccl_cuda_free(dr));
    CK(eccl_comm_free(&ec));
    free(in);
    free(got);
    free(other);
    free(acc);
    failures += bad;
    cases++;
}

/* The cost model prices a device-resident call with the GPU codec, whatever carries its streams:
 * with a link given as 50 GB/s (the config's alpha and beta: no probe, no noise), an auto
 * allreduce of 32 MiB of smooth float32 data on device buffers at ABS 1e-4 costs about half a
 * millisecond of GPU codec and compressed streams against over 3 ms for plain MPI (staged
 * through host memory: PCIe both ways), so it must run compressed and device-resident. Priced
 * with the CPU codec's figures (5-12 GB/s on a GPU host's cores) compression would lose even at
 * an unbounded ratio, and before the device-resident agreement ran on every transport that is
 * what the model's first check did where NCCL was not in use (no NCCL in the build, or
 * ECCL_TRANSPORT=mpi): plain MPI, 10x slower. Run where NCCL is not up (its own uncompressed
 * allreduce over NVLink may rightly win). White-box, as that bug was: the first call, every rank
 * device-resident, must leave the GPU codec measured for the model (comm->models.gpu_measured), on
 * whichever transport. */
static void gpu_model_case(void)
{
    const size_t n = (size_t)8 << 20, bytes = n * sizeof(float);
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 5e-6;
    cfg.beta = 2e-11;
    eccl_comm_t ec;
    CK(eccl_comm_create(MPI_COMM_WORLD, &cfg, &ec));
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    float *in = tu_malloc(bytes), *got = tu_malloc(bytes);
    tu_fill(in, n, 0, TU_SMOOTH, (uint64_t)(7001 + rank));
    long double *acc = exact_sum_f32(in, n);
    void *ds = dev_alloc(bytes), *dr = dev_alloc(bytes);
    CK(eccl_cuda_memcpy(ds, in, bytes));
    int bad = 0;
    for (int k = 0; k < 2; k++) { /* the first call measures the GPU codec; both must choose well */
        cases++;
        eccl_result_t rc = eccl_allreduce(ds, dr, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, ec);
        eccl_stats_t st;
        eccl_comm_last_stats(ec, &st);
        if (rc != ECCL_SUCCESS) {
            fprintf(stderr, "[%d] GPU model, call %d: %s (%s)\n", rank, k, eccl_strerror(rc), eccl_comm_last_error(ec));
            bad = 1;
            break;
        }
        if (!ec->models.gpu_measured) {
            fprintf(stderr, "[%d] GPU model, call %d: the GPU codec was not measured for the cost model\n", rank, k);
            bad = 1;
        }
        if (!st.compressed || st.device != 2) {
            fprintf(stderr, "[%d] GPU model, call %d: auto chose %s (compressed %d, data at %d: %s; model %.3f ms "
                    "against %.3f ms for MPI), expected a compressed device-resident algorithm\n", rank, k,
                    st.algorithm, st.compressed, st.device, st.reason, st.model_t_chosen * 1e3, st.model_t_mpi * 1e3);
            bad = 1;
        }
        CK(eccl_cuda_memcpy(got, dr, bytes));
        long double worst = worst_over_bound_f32(got, acc, n, b.value);
        if (worst > 0) {
            fprintf(stderr, "[%d] GPU model, call %d (%s): bound violated (error %Lg)\n", rank, k, st.algorithm, worst);
            bad = 1;
        }
        if (rank == 0 && k == 1)
            printf("GPU model at a 50 GB/s link: auto chose %s (model %.3f ms, MPI %.3f ms)\n", st.algorithm,
                   st.model_t_chosen * 1e3, st.model_t_mpi * 1e3);
    }
    failures += bad;
    CK(eccl_cuda_free(ds));
    CK(eccl_cuda_free(dr));
    CK(eccl_comm_free(&ec));
    free(in);
    free(got);
    free(acc);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!tu_mpi_use_gpu(rank, "collectives on device buffers")) {
        MPI_Finalize();
        return 77;
    }
    const char *en = getenv("ECCL_TEST_EXPECT_NCCL");
    expect_nccl = en ? atoi(en) : 0;
    if (getenv("ECCL_FAULT_NODE_IPC")) { /* that case alone (every hierarchical call would meet it) */
        if (size > 1 && node_size_set()) refused_ipc_case();
        else if (rank == 0) printf("ECCL_FAULT_NODE_IPC needs ECCL_NODE_SIZE nodes of several ranks\n");
        int total = 0;
        MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0) printf("test_coll_device: %d ranks, %d cases per rank, %d failures\n", size, cases, total);
        MPI_Finalize();
        return total || !cases ? 1 : 0;
    }
    eccl_comm_t ec;
    CK(eccl_comm_create(MPI_COMM_WORLD, NULL, &ec));
    CK(eccl_cuda_comm_mpi_aware(ec, &mpi_aware));
    if (!en && size > 1) {
        /* ECCL_TEST_EXPECT_NCCL unset (make check): whether NCCL is up here, from one nccl allreduce
         * on device buffers (it runs on NCCL where every rank has a GPU of its own and NCCL comes
         * up, else falls back to MPI); the nccl algorithms are then expected where it said */
        const size_t n = 1003;
        float *h = tu_malloc(n * sizeof *h);
        tu_fill(h, n, 0, TU_SMOOTH, 5);
        void *ds = dev_alloc(n * sizeof *h), *dr = dev_alloc(n * sizeof *h);
        CK(eccl_cuda_memcpy(ds, h, n * sizeof *h));
        eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
        CK(eccl_comm_set_algorithm(ec, "allreduce", "nccl"));
        CK(eccl_allreduce(ds, dr, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, ec));
        eccl_stats_t st;
        eccl_comm_last_stats(ec, &st);
        int up = st.device == 2 && st.transport == 1;
        MPI_Allreduce(&up, &expect_nccl, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rank == 0)
            printf("NCCL %s here: the nccl algorithms are expected to run on %s\n", expect_nccl ? "up" : "not up",
                   expect_nccl ? "NCCL" : "MPI");
        CK(eccl_comm_set_algorithm(ec, "allreduce", "auto"));
        CK(eccl_cuda_free(ds));
        CK(eccl_cuda_free(dr));
        free(h);
    }
    const size_t counts[] = {1, 1003, 60001};
    for (int coll = 0; coll < NCOLL; coll++)
        for (int a = 0; algos[coll][a]; a++) {
            if (coll == ALLGATHER && !strcmp(algos[coll][a], "recursive_doubling") && (size & (size - 1)))
                continue;
            for (int is64 = 0; is64 < 2; is64++)
                for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
                    int has_in_place = coll != BCAST && coll != SRR;
                    one_case(ec, coll, algos[coll][a], is64, counts[k], 0, 1, 1);
                    if (has_in_place) one_case(ec, coll, algos[coll][a], is64, counts[k], 1, 1, 1);
                    if (k == 1) { /* one side on the device, the other on the host */
                        one_case(ec, coll, algos[coll][a], is64, counts[k], 0, 1, 0);
                        one_case(ec, coll, algos[coll][a], is64, counts[k], 0, 0, 1);
                    }
                }
        }
    if (size > 1 && !expect_nccl && !node_size_set() && !getenv("ECCL_DEVICE_RESIDENT") && !getenv("ECCL_COMPRESS") &&
        !mpi_aware && !staged_only() && !format3())
        gpu_model_case();
    const char *ipc = getenv("ECCL_NODE_IPC");
    if (size > 1 && node_size_set() && !(ipc && !strcmp(ipc, "0")) && !getenv("ECCL_DEVICE_RESIDENT") && !staged_only() && !format3()) {
        mixed_hier_case(ec);
        /* a buffer larger than the windows so far (2 MiB): every rank of a node grows its window
         * and maps the others' again; then a smaller call reuses them */
        one_case(ec, ALLREDUCE, "hierarchical", 1, 600001, 0, 1, 1);
        one_case(ec, ALLREDUCE, "hierarchical", 0, 1003, 1, 1, 1);
    }
    CK(eccl_comm_free(&ec));
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_coll_device: %d ranks, %d cases per rank, %d failures\n", size, cases, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
