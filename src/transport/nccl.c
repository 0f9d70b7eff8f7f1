/*
 * nccl.c - NCCL point-to-point for the compressed streams of device-resident calls (transport.h).
 *
 * A call whose every rank runs device-resident sends its streams through NCCL (its socket,
 * InfiniBand or NVLink transports) instead of MPI. Streams live in host memory in most primitives;
 * here they are staged through device buffers of the communicator (grow-only), so one exchange is:
 * the sizes over MPI (8 bytes each way: NCCL needs the counts on both sides), the payload copied
 * to the device, one NCCL group of the send and the receive, the payload copied back. The
 * device-stream operations (dev_send, dev_recv) move streams that are already in device memory
 * (ECCL_DEVICE_STREAMS) with the same messages: the size over MPI, the payload by NCCL. Every
 * function is blocking and complete on return; pairing a send with a receive in one group keeps
 * exchanges in rings free of deadlock.
 *
 * Also here, for every CUDA build (with NCCL or not): the per-call agreement that every rank runs
 * device-resident, and the measurement of the GPU codec for the cost model at the first such call
 * (eccl_tr_dev_agree).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/log.h"
#include "cuda/device.h"
#include "transport/transport.h"

/* The GPU codec's figures for the cost model, measured on rank 0's GPU (eccl_dev_calibrate) and
 * broadcast, so that every rank decides with the same numbers. Collective. A failed measurement
 * keeps the constants of src/core/model.h (and says so under ECCL_DEBUG). */
static eccl_result_t measure_gpu_codec(eccl_comm_t c)
{
    double v[ECCL_GPU_CAL_N] = {0};
    if (c->rank == 0) {
        eccl_result_t rc = c->gpu.ctx ? eccl_dev_calibrate(c->gpu.ctx, v) : ECCL_ERR_NO_DEVICE;
        if (rc) {
            ECCL_LOG(1, c->rank, "GPU codec not measured (%s): the cost model keeps its constants",
                     eccl_strerror(rc));
            v[0] = 0;
        }
    }
    if (MPI_Bcast(v, ECCL_GPU_CAL_N, MPI_DOUBLE, 0, c->comm) != MPI_SUCCESS)
        return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Bcast failed");
    if (eccl_models_set_gpu(&c->models, v))
        ECCL_LOG(1, c->rank, "GPU codec measured on rank 0: %.1f, %.1f, %.1f us per compression, decompression, "
                 "homomorphic SUM; compress %.0f, decompress %.0f, "
                 "homomorphic %.0f GB/s (float32; float64 %.0f, %.0f, %.0f; stream copies included); the stream "
                 "kept on the GPU: compress %.0f, decompress %.0f GB/s (float32; float64 %.0f, %.0f)", v[0] * 1e6,
                 v[11] * 1e6, v[12] * 1e6, v[1] * 1e-9, v[2] * 1e-9, v[3] * 1e-9, v[4] * 1e-9, v[5] * 1e-9,
                 v[6] * 1e-9, v[7] * 1e-9, v[8] * 1e-9, v[9] * 1e-9, v[10] * 1e-9);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_dev_agree(eccl_comm_t c, int want, int *all_want)
{
    int mine = want ? 1 : 0, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
        return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
    *all_want = all;
    if (all && !c->models.gpu_measured) /* the first call every rank runs device-resident: measure the GPU codec */
        return measure_gpu_codec(c);
    return ECCL_SUCCESS;
}

#ifdef HAVE_NCCL
#include <cuda_runtime_api.h>
/* nccl.h declares a few functions with () (no prototype): not ours to warn about */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#include <nccl.h>
#pragma GCC diagnostic pop

struct eccl_nccl {
    ncclComm_t comm;
    cudaStream_t st;
    void *ds, *dr;
    size_t scap, rcap;
};

#define SIZE_TAG 0x4ECD

static eccl_result_t fail(eccl_comm_t c, const char *what, const char *why)
{
    return eccl_comm_error(c, ECCL_ERR_CUDA, "NCCL transport: %s: %s", what, why);
}
#define CUDA_OR(c, x)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            (void)cudaGetLastError();                                                              \
            return fail(c, #x, cudaGetErrorString(e_));                                            \
        }                                                                                          \
    } while (0)
#define NCCL_OR(c, x)                                                                              \
    do {                                                                                           \
        ncclResult_t n_ = (x);                                                                     \
        if (n_ != ncclSuccess) return fail(c, #x, ncclGetErrorString(n_));                         \
    } while (0)

static eccl_result_t grow(eccl_comm_t c, void **buf, size_t *cap, size_t bytes)
{
    if (*buf && *cap >= bytes) return ECCL_SUCCESS;
    size_t want = *cap + *cap / 2;
    if (want < bytes) want = bytes;
    if (want < 65536) want = 65536;
    CUDA_OR(c, cudaStreamSynchronize(c->tr.nccl->st));
    eccl_gate_free(*buf, 0); /* (not while a user's stream is held: cuda/device.h) */
    *buf = NULL;
    *cap = 0;
    CUDA_OR(c, cudaMalloc(buf, want));
    *cap = want;
    return ECCL_SUCCESS;
}

static void release(struct eccl_nccl *n)
{
    if (!n) return;
    if (n->comm) ncclCommDestroy(n->comm);
    if (n->st) cudaStreamDestroy(n->st);
    eccl_gate_free(n->ds, 0);
    eccl_gate_free(n->dr, 0);
    (void)cudaGetLastError();
    free(n);
}

static eccl_result_t calibrate_hop(eccl_comm_t c);

/* The NCCL link's latency and inverse bandwidth, measured once at set-up: every rank sends to
 * rank + 1 while receiving from rank - 1 (1 KiB, then 64 MiB, best of 3), slowest rank's time. */
static eccl_result_t calibrate(eccl_comm_t c)
{
    struct eccl_nccl *n = c->tr.nccl;
    const size_t big = (size_t)64 << 20, small = 1024;
    eccl_result_t rc = grow(c, &n->ds, &n->scap, big);
    if (!rc) rc = grow(c, &n->dr, &n->rcap, big);
    if (rc) return rc;
    CUDA_OR(c, cudaMemsetAsync(n->ds, 0, big, n->st));
    CUDA_OR(c, cudaStreamSynchronize(n->st));
    int right = (c->rank + 1) % c->size, left = (c->rank - 1 + c->size) % c->size;
    double t[2] = {INFINITY, INFINITY};
    for (int k = 0; k < 2; k++) {
        size_t bytes = k ? big : small;
        for (int it = 0; it < 4; it++) { /* the first is a warm-up */
            MPI_Barrier(c->comm);
            double t0 = MPI_Wtime();
            NCCL_OR(c, ncclGroupStart());
            NCCL_OR(c, ncclSend(n->ds, bytes, ncclUint8, right, n->comm, n->st));
            NCCL_OR(c, ncclRecv(n->dr, bytes, ncclUint8, left, n->comm, n->st));
            NCCL_OR(c, ncclGroupEnd());
            CUDA_OR(c, cudaStreamSynchronize(n->st));
            double dt = MPI_Wtime() - t0;
            if (it > 0 && dt < t[k]) t[k] = dt;
        }
    }
    double tmax[2];
    if (MPI_Allreduce(t, tmax, 2, MPI_DOUBLE, MPI_MAX, c->comm) != MPI_SUCCESS)
        return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
    double beta = (tmax[1] - tmax[0]) / (double)(big - small), alpha = tmax[0] - beta * (double)small;
    eccl_models_set_nccl(&c->models, alpha, beta); /* (the views that price NCCL: core/model.c) */
    ECCL_LOG(1, c->rank, "NCCL link: alpha %.3g s, %.2f GB/s", c->models.nccl_alpha,
             1e-9 / c->models.nccl_beta);
    return calibrate_hop(c);
}

eccl_result_t eccl_tr_nccl_reserve(eccl_comm_t c, size_t bytes)
{
    struct eccl_nccl *n = c->tr.nccl;
    if (!n || bytes == 0) return ECCL_SUCCESS;
    eccl_result_t rc = grow(c, &n->ds, &n->scap, bytes);
    return rc ? rc : grow(c, &n->dr, &n->rcap, bytes);
}

int eccl_tr_nccl_pending(eccl_comm_t c) { return c->tr.nccl_state == 0; }

eccl_result_t eccl_tr_nccl_agree(eccl_comm_t c, int want, int *all_want, int *use)
{
    *use = 0;
    eccl_result_t rc = eccl_tr_dev_agree(c, want, all_want);
    if (rc || !*all_want) return rc;
    if (c->tr.nccl_state == 0) { /* every rank gets here in the same call: set up collectively */
        struct eccl_nccl *n = calloc(1, sizeof *n);
        ncclUniqueId id;
        memset(&id, 0, sizeof id);
        int ok = n != NULL;
        /* NCCL needs one GPU per rank (ranks sharing one can hang it): host name + PCI bus id */
        char me[MPI_MAX_PROCESSOR_NAME + 32] = "", *all_ids = malloc((size_t)c->size * sizeof me);
        int len = 0, dev = -1;
        MPI_Get_processor_name(me, &len);
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetPCIBusId(me + strlen(me) + 1, 24, dev) != cudaSuccess) {
            (void)cudaGetLastError();
            ok = 0;
        } else {
            me[strlen(me)] = '|'; /* "host|bus id" */
        }
        if (!all_ids || MPI_Allgather(me, (int)sizeof me, MPI_CHAR, all_ids, (int)sizeof me, MPI_CHAR, c->comm) !=
                            MPI_SUCCESS) {
            free(all_ids);
            free(n);
            return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allgather failed");
        }
        int shared = 0; /* this rank's GPU is another rank's too */
        for (int i = 0; i < c->size && ok; i++)
            if (i != c->rank && !strcmp(all_ids + (size_t)i * sizeof me, me)) shared = 1;
        if (shared) ok = 0;
        free(all_ids);
        /* the cost model: ranks that share a GPU contend for it, so GPU work does not overlap
         * the network as the pipelined algorithms assume (src/coll/model.h mdl_gpu_overlaps) */
        if (MPI_Allreduce(MPI_IN_PLACE, &shared, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS)
            return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
        c->gpu.shared = shared;
        if (c->rank == 0 && (!ok || ncclGetUniqueId(&id) != ncclSuccess)) ok = 0;
        if (MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, c->comm) != MPI_SUCCESS)
            return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Bcast failed");
        int ok0 = ok;
        if (MPI_Allreduce(&ok0, &ok, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
            return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
        ncclResult_t nr = ncclSuccess;
        if (ok) {
            nr = ncclCommInitRank(&n->comm, c->size, id, c->rank);
            void *st = NULL;
            ok = nr == ncclSuccess && eccl_dev_stream_create(&st, c->gpu.priority) == ECCL_SUCCESS;
            n->st = (cudaStream_t)st;
            if (nr != ncclSuccess) n->comm = NULL;
        }
        int ok1 = ok;
        if (MPI_Allreduce(&ok1, &ok, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
            return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
        if (ok) {
            c->tr.nccl = n;
            c->tr.nccl_state = 1;
            eccl_result_t crc = calibrate(c); /* collective; a failure is a runtime error everywhere */
            if (crc) {
                c->tr.nccl = NULL;
                release(n);
                c->tr.nccl_state = -1;
                return crc;
            }
            ECCL_LOG(1, c->rank, "NCCL transport ready for device-resident calls");
        } else {
            release(n);
            c->tr.nccl_state = -1;
            ECCL_LOG(1, c->rank, "no NCCL transport (%s): device-resident calls use MPI",
                     nr != ncclSuccess ? ncclGetErrorString(nr) : "setup failed on some rank");
        }
    }
    *use = c->tr.nccl_state == 1;
    return ECCL_SUCCESS;
}

static void nccl_release(eccl_comm_t c)
{
    release(c->tr.nccl);
    c->tr.nccl = NULL;
}

/* A blocking exchange (the table's `exchange`; `tag` unused: NCCL matches by order, the sizes go
 * over MPI under SIZE_TAG). */
static eccl_result_t nccl_exchange(eccl_comm_t c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                                   size_t *rgot, int src, int tag)
{
    (void)tag;
    struct eccl_nccl *n = c->tr.nccl;
    if (!n) return eccl_comm_error(c, ECCL_ERR_INTERNAL, "NCCL transport used before set-up");
    uint64_t ssz = sbytes, rsz = 0;
    MPI_Status stat;
    int mrc = MPI_SUCCESS;
    if (dest >= 0 && src >= 0)
        mrc = MPI_Sendrecv(&ssz, 1, MPI_UINT64_T, dest, SIZE_TAG, &rsz, 1, MPI_UINT64_T, src, SIZE_TAG, c->comm, &stat);
    else if (dest >= 0) mrc = MPI_Send(&ssz, 1, MPI_UINT64_T, dest, SIZE_TAG, c->comm);
    else if (src >= 0) mrc = MPI_Recv(&rsz, 1, MPI_UINT64_T, src, SIZE_TAG, c->comm, &stat);
    if (mrc != MPI_SUCCESS) return eccl_comm_error(c, ECCL_ERR_MPI, "NCCL transport: exchanging sizes failed");
    /* the peer sends exactly rsz bytes whatever we can keep: receive them all (into the device
     * buffer), keep what fits, and call a message larger than the stream buffer corrupt */
    eccl_result_t rc = ECCL_SUCCESS;
    if (dest >= 0 && ssz && (rc = grow(c, &n->ds, &n->scap, ssz))) return rc;
    if (src >= 0 && rsz && (rc = grow(c, &n->dr, &n->rcap, rsz))) return rc;
    if (dest >= 0 && ssz) {
        CUDA_OR(c, cudaMemcpyAsync(n->ds, sbuf, ssz, cudaMemcpyHostToDevice, n->st));
        if (c->fault_countdown > 0 && --c->fault_countdown == 0) {
            /* ECCL_FAULT_INJECT: this message leaves with one bit flipped (testing only) */
            unsigned char byte = ((const unsigned char *)sbuf)[ssz / 2] ^ 0x10;
            CUDA_OR(c, cudaMemcpyAsync((unsigned char *)n->ds + ssz / 2, &byte, 1, cudaMemcpyHostToDevice, n->st));
            CUDA_OR(c, cudaStreamSynchronize(n->st)); /* `byte` lives on this stack frame */
        }
    }
    NCCL_OR(c, ncclGroupStart());
    if (dest >= 0 && ssz) NCCL_OR(c, ncclSend(n->ds, ssz, ncclUint8, dest, n->comm, n->st));
    if (src >= 0 && rsz) NCCL_OR(c, ncclRecv(n->dr, rsz, ncclUint8, src, n->comm, n->st));
    NCCL_OR(c, ncclGroupEnd());
    size_t keep = rsz < rcap ? (size_t)rsz : rcap;
    if (src >= 0 && keep) CUDA_OR(c, cudaMemcpyAsync(rbuf, n->dr, keep, cudaMemcpyDeviceToHost, n->st));
    CUDA_OR(c, cudaStreamSynchronize(n->st));
    if (rgot) *rgot = keep;
    return src >= 0 && rsz > rcap ? ECCL_ERR_CORRUPT : ECCL_SUCCESS;
}

/* One device-stream hop's two halves as the calls and the calibration (above) run them: the size
 * over MPI (SIZE_TAG), then the payload over NCCL from and into device memory, each side waiting
 * for its stream. A stream announced larger than cap moves nothing (the other side checks it too). */
static eccl_result_t hop_send(eccl_comm_t c, const void *d_buf, size_t bytes, size_t cap, const int *dests, int ndest)
{
    struct eccl_nccl *n = c->tr.nccl;
    uint64_t sz = bytes;
    for (int i = 0; i < ndest; i++)
        if (MPI_Send(&sz, 1, MPI_UINT64_T, dests[i], SIZE_TAG, c->comm) != MPI_SUCCESS)
            return eccl_comm_error(c, ECCL_ERR_MPI, "NCCL transport: sending a stream's size failed");
    if (bytes > cap)
        return eccl_comm_error(c, ECCL_ERR_INTERNAL, "NCCL transport: a stream of %zu bytes, above the call's %zu", bytes,
                               cap);
    if (!bytes || !ndest) return ECCL_SUCCESS;
    NCCL_OR(c, ncclGroupStart());
    for (int i = 0; i < ndest; i++) NCCL_OR(c, ncclSend(d_buf, bytes, ncclUint8, dests[i], n->comm, n->st));
    NCCL_OR(c, ncclGroupEnd());
    CUDA_OR(c, cudaStreamSynchronize(n->st));
    return ECCL_SUCCESS;
}

static eccl_result_t hop_recv(eccl_comm_t c, void *d_buf, size_t cap, size_t *got, int src)
{
    struct eccl_nccl *n = c->tr.nccl;
    uint64_t sz = 0;
    MPI_Status stat;
    if (MPI_Recv(&sz, 1, MPI_UINT64_T, src, SIZE_TAG, c->comm, &stat) != MPI_SUCCESS)
        return eccl_comm_error(c, ECCL_ERR_MPI, "NCCL transport: receiving a stream's size failed");
    if (sz > cap) return ECCL_ERR_CORRUPT; /* (nothing follows: the sender checks the same cap) */
    if (sz) {
        NCCL_OR(c, ncclGroupStart());
        NCCL_OR(c, ncclRecv(d_buf, (size_t)sz, ncclUint8, src, n->comm, n->st));
        NCCL_OR(c, ncclGroupEnd());
        CUDA_OR(c, cudaStreamSynchronize(n->st));
    }
    *got = (size_t)sz;
    return ECCL_SUCCESS;
}

/* A device-stream hop as the calls make it (hop_send, hop_recv: the MPI message, NCCL, the waits),
 * measured once at set-up after the link: ranks 2k send to 2k + 1 (an odd rank count leaves the
 * last one out), 1 KiB and then 64 MiB, best of 3 after a warm-up, the slowest receiver's time from
 * a barrier. The model prices the binomial broadcast's device streams with it (coll/model.h
 * mdl_net_dev): the link alone leaves out the size's message and the two waits. */
static eccl_result_t calibrate_hop(eccl_comm_t c)
{
    struct eccl_nccl *n = c->tr.nccl;
    const size_t big = (size_t)64 << 20, small = 1024; /* (the link's buffers: calibrate) */
    int peer = c->rank % 2 ? c->rank - 1 : c->rank + 1, send = c->rank % 2 == 0;
    if (peer >= c->size) peer = -1;
    double t[3] = {0, 0, 0}; /* t[2]: a receive of another size than sent (no figure then) */
    for (int k = 0; k < 2 && peer >= 0; k++) {
        size_t bytes = k ? big : small, got = 0;
        t[k] = send ? 0 : INFINITY; /* (the receivers' times count) */
        for (int it = 0; it < 4; it++) { /* the first is a warm-up */
            MPI_Barrier(c->comm);
            double t0 = MPI_Wtime();
            /* (an MPI or NCCL failure ends the set-up here, as in calibrate: a runtime error) */
            eccl_result_t rc = send ? hop_send(c, n->ds, bytes, big, &peer, 1) : hop_recv(c, n->dr, big, &got, peer);
            if (rc) return eccl_comm_error(c, rc, "NCCL transport: measuring a device-stream hop failed");
            double dt = MPI_Wtime() - t0;
            if (!send && got != bytes) t[2] = 1;
            if (!send && it > 0 && dt < t[k]) t[k] = dt;
        }
    }
    for (int k = 0; k < 2 && peer < 0; k++) /* (the barriers of the pairs) */
        for (int it = 0; it < 4; it++) MPI_Barrier(c->comm);
    double tmax[3];
    if (MPI_Allreduce(t, tmax, 3, MPI_DOUBLE, MPI_MAX, c->comm) != MPI_SUCCESS)
        return eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allreduce failed");
    double beta = (tmax[1] - tmax[0]) / (double)(big - small), alpha = tmax[0] - beta * (double)small;
    if (tmax[2] == 0 && eccl_models_set_nccl_hop(&c->models, alpha, beta))
        ECCL_LOG(1, c->rank, "NCCL device-stream hop: %.3g s, %.2f GB/s (the link alone: %.3g s)", alpha, 1e-9 / beta,
                 c->models.nccl_alpha);
    else
        ECCL_LOG(1, c->rank, "NCCL device-stream hop: no usable figure (%.3g s, %.3g s/B): priced as the link", alpha,
                 beta);
    return ECCL_SUCCESS;
}

/* Device-resident streams (the table's dev_send / dev_recv): one hop each (hop_send, hop_recv), the
 * payload straight from and into device memory, no staging. */
static eccl_result_t nccl_dev_send(eccl_comm_t c, const void *d_buf, size_t bytes, size_t cap, const int *dests,
                                   int ndest)
{
    struct eccl_nccl *n = c->tr.nccl;
    if (!n) return eccl_comm_error(c, ECCL_ERR_INTERNAL, "NCCL transport used before set-up");
    const void *src = d_buf;
    if (bytes && ndest && bytes <= cap && c->fault_countdown > 0 && --c->fault_countdown == 0) {
        /* ECCL_FAULT_INJECT: this stream leaves with one bit flipped (testing only): a copy in the
         * staging buffer, so that a forwarding rank's own stream stays intact */
        eccl_result_t rc = grow(c, &n->ds, &n->scap, bytes);
        if (rc) return rc;
        unsigned char byte = 0;
        CUDA_OR(c, cudaMemcpyAsync(n->ds, d_buf, bytes, cudaMemcpyDeviceToDevice, n->st));
        CUDA_OR(c, cudaMemcpyAsync(&byte, (unsigned char *)n->ds + bytes / 2, 1, cudaMemcpyDeviceToHost, n->st));
        CUDA_OR(c, cudaStreamSynchronize(n->st));
        byte ^= 0x10;
        CUDA_OR(c, cudaMemcpyAsync((unsigned char *)n->ds + bytes / 2, &byte, 1, cudaMemcpyHostToDevice, n->st));
        CUDA_OR(c, cudaStreamSynchronize(n->st)); /* `byte` lives on this stack frame */
        src = n->ds;
    }
    return hop_send(c, src, bytes, cap, dests, ndest);
}

static eccl_result_t nccl_dev_recv(eccl_comm_t c, void *d_buf, size_t cap, size_t *got, int src)
{
    *got = 0;
    if (!c->tr.nccl) return eccl_comm_error(c, ECCL_ERR_INTERNAL, "NCCL transport used before set-up");
    return hop_recv(c, d_buf, cap, got, src);
}

static int nccl_type(eccl_dtype_t dt, size_t *mult)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dt);
    *mult = t->reals;
    return t->is64 ? ncclFloat64 : ncclFloat32;
}

eccl_result_t eccl_tr_nccl_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count, eccl_dtype_t dt)
{
    struct eccl_nccl *n = c->tr.nccl;
    size_t mult;
    ncclDataType_t t = (ncclDataType_t)nccl_type(dt, &mult);
    NCCL_OR(c, ncclAllReduce(sbuf, rbuf, count * mult, t, ncclSum, n->comm, n->st));
    CUDA_OR(c, cudaStreamSynchronize(n->st));
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_nccl_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root)
{
    struct eccl_nccl *n = c->tr.nccl;
    size_t mult;
    ncclDataType_t t = (ncclDataType_t)nccl_type(dt, &mult);
    NCCL_OR(c, ncclBroadcast(buf, buf, count * mult, t, root, n->comm, n->st));
    CUDA_OR(c, cudaStreamSynchronize(n->st));
    return ECCL_SUCCESS;
}

#else /* no NCCL: the device-resident agreement alone, NCCL never used */
eccl_result_t eccl_tr_nccl_reserve(eccl_comm_t c, size_t bytes)
{
    (void)c, (void)bytes;
    return ECCL_SUCCESS;
}

int eccl_tr_nccl_pending(eccl_comm_t c)
{
    (void)c;
    return 0;
}


eccl_result_t eccl_tr_nccl_agree(eccl_comm_t c, int want, int *all_want, int *use)
{
    *use = 0;
    return eccl_tr_dev_agree(c, want, all_want);
}

eccl_result_t eccl_tr_nccl_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count, eccl_dtype_t dt)
{
    (void)sbuf, (void)rbuf, (void)count, (void)dt;
    return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "this eccl was built without NCCL");
}

eccl_result_t eccl_tr_nccl_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root)
{
    (void)buf, (void)count, (void)dt, (void)root;
    return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "this eccl was built without NCCL");
}

static void nccl_release(eccl_comm_t c) { (void)c; }

static eccl_result_t nccl_exchange(eccl_comm_t c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                                   size_t *rgot, int src, int tag)
{
    (void)sbuf, (void)sbytes, (void)dest, (void)rbuf, (void)rcap, (void)rgot, (void)src, (void)tag;
    return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "this eccl was built without NCCL");
}

static eccl_result_t nccl_dev_send(eccl_comm_t c, const void *d_buf, size_t bytes, size_t cap, const int *dests,
                                   int ndest)
{
    (void)d_buf, (void)bytes, (void)cap, (void)dests, (void)ndest;
    return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "this eccl was built without NCCL");
}

static eccl_result_t nccl_dev_recv(eccl_comm_t c, void *d_buf, size_t cap, size_t *got, int src)
{
    (void)d_buf, (void)cap, (void)src;
    *got = 0;
    return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "this eccl was built without NCCL");
}
#endif

/* ---- the NCCL transport's table: blocking pairs only (no ECCL_TR_POSTS) ---- */

/* A send is delivered before it returns (an exchange with no receive): its request is complete. */
static eccl_result_t nccl_isend(eccl_comm_t c, const void *buf, size_t bytes, int peer, int tag, eccl_req_t *req)
{
    memset(req, 0, sizeof *req);
    return nccl_exchange(c, buf, bytes, peer, NULL, 0, NULL, -1, tag);
}

/* Receives cannot be posted ahead: the primitives pair them with sends in `exchange`. */
static eccl_result_t nccl_irecv(eccl_comm_t c, void *buf, size_t bytes, int peer, int tag, eccl_req_t *req)
{
    (void)buf, (void)bytes, (void)peer, (void)tag;
    memset(req, 0, sizeof *req);
    return eccl_comm_error(c, ECCL_ERR_INTERNAL, "a posted receive on the NCCL transport (blocking pairs only)");
}

static eccl_result_t nccl_wait(eccl_comm_t c, eccl_req_t *req, size_t *got)
{
    (void)c;
    if (got) *got = 0;
    req->n = 0;
    return ECCL_SUCCESS;
}

static void nccl_cancel(eccl_comm_t c, eccl_req_t *req)
{
    (void)c;
    req->n = 0;
}

/* Every call it carries runs device-resident on every rank: the GPU codec over the NCCL link. */
static const eccl_model_t *nccl_model(eccl_comm_t c, int gpu, int w64)
{
    (void)gpu;
    return &c->models.nccl[w64 != 0];
}

const eccl_transport_t eccl_tr_nccl_table = {
    .id = ECCL_TR_NCCL,
    .name = "nccl",
    .caps = 0, /* blocking pairs only */
    .stats_code = 1,
    .create = NULL, /* set up at the first call every rank runs device-resident (eccl_tr_nccl_agree) */
    .release = nccl_release,
    .isend = nccl_isend,
    .irecv = nccl_irecv,
    .irecv_stream = nccl_irecv,
    .wait = nccl_wait,
    .cancel = nccl_cancel,
    .exchange = nccl_exchange,
    .dev_send = nccl_dev_send,
    .dev_recv = nccl_dev_recv,
    .model = nccl_model,
};
