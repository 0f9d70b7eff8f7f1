/*
 * node.c - the steps of the hierarchical allreduce inside a node on device buffers, through CUDA
 * IPC (transport.h: eccl_tr_node_dev_*).
 *
 * Each rank of the node keeps a window: device memory that the other ranks of the node map with
 * CUDA IPC (cuda/device.h, eccl_dev_win_*). Windows are made at the first call that needs them and
 * grown (collectively: every rank of a node holds the same capacity) when a larger call comes;
 * they are freed with the communicator. The reduce-scatter copies each rank's buffer into its
 * window, and rank l sums shard l over every window, in local-rank order, on its GPU; the
 * allgather puts each rank's shard into its window and every rank copies the others' shards out.
 * No byte of the buffer crosses PCIe or the host.
 *
 * Every step a rank's peers depend on ends in a node-wide agreement on the outcome (a small
 * allreduce of the result codes, which is also the barrier), so a CUDA failure on one rank never
 * leaves another waiting, and a window is overwritten only when nobody reads it any more.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "transport/transport.h"

#ifdef HAVE_CUDA
/* ECCL_NODE_IPC=0: device buffers of the hierarchical allreduce are staged through the host as
 * before (doc/env.md); the same on every rank of a node. */
ECCL_ENV(env_node_ipc, "ECCL_NODE_IPC", 1);
#endif
ECCL_ENV(env_fault_ipc, "ECCL_FAULT_NODE_IPC", -1);

#define MPI_CHECK(c, call, what)                                                                   \
    do {                                                                                           \
        if ((call) != MPI_SUCCESS) return eccl_comm_error((c), ECCL_ERR_MPI, "%s failed", (what));  \
    } while (0)

int eccl_tr_node_dev_enabled(void)
{
#ifdef HAVE_CUDA
    return eccl_env_long(&env_node_ipc) != 0;
#else
    return 0;
#endif
}

int eccl_tr_node_dev_priced(eccl_comm_t c) { return eccl_tr_node_dev_enabled() && !c->tr.nwin_refused; }

struct eccl_nodewin {
    void *mine;                      /* this rank's window (device memory) */
    size_t cap;                      /* its bytes: the same on every rank of the node */
    void *peer[ECCL_TR_NODE_MAX];    /* every rank's window mapped here (peer[lrank] = mine) */
};

/* Unmap the others' windows and free this rank's. With `together` (every rank of the node calls
 * it in the same step), every rank has unmapped before any frees. */
static void release(eccl_comm_t c, int together)
{
    struct eccl_nodewin *w = c->tr.nwin;
    if (!w) return;
    for (int k = 0; k < ECCL_TR_NODE_MAX; k++)
        if (w->peer[k] && w->peer[k] != w->mine) eccl_dev_win_close(c->gpu.ctx, w->peer[k]);
    if (together && c->topo.node != MPI_COMM_NULL) MPI_Barrier(c->topo.node);
    eccl_dev_win_free(c->gpu.ctx, w->mine);
    memset(w, 0, sizeof *w);
}

static void node_release(eccl_comm_t c)
{
    if (!c->tr.nwin) return;
    release(c, c->tr.nwin->cap > 0); /* (eccl_comm_free is collective; windows exist on every rank of
                                       the node or on none) */
    free(c->tr.nwin);
    c->tr.nwin = NULL;
}

/* The outcome of a step on every rank of the node: the largest result code (0 when all succeeded).
 * Also the barrier between the steps. */
static eccl_result_t node_verdict(eccl_comm_t c, eccl_result_t mine, eccl_result_t *all)
{
    int v = (int)mine;
    MPI_CHECK(c, MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, c->topo.node), "MPI_Allreduce (inside a node)");
    *all = (eccl_result_t)v;
    return ECCL_SUCCESS;
}

/* Replace the windows by ones of `bytes` bytes on every rank of the node (collective there). */
static eccl_result_t grow(eccl_comm_t c, size_t bytes, int *ok)
{
    const int L = c->topo.lsize, me = c->topo.lrank;
    struct eccl_nodewin *w = c->tr.nwin;
    *ok = 0;
    size_t cap = w->cap + w->cap / 2; /* the same on every rank: the same old cap, the same call */
    if (cap < bytes) cap = bytes;
    cap = (cap + ((size_t)2 << 20) - 1) & ~(((size_t)2 << 20) - 1); /* whole 2 MiB pages */
    release(c, 1);
    unsigned char h[(ECCL_TR_NODE_MAX + 1) * ECCL_DEV_IPC_HANDLE]; /* every rank's handle, then ours */
    unsigned char *hm = h + (size_t)ECCL_TR_NODE_MAX * ECCL_DEV_IPC_HANDLE;
    memset(h, 0, sizeof h);
    eccl_result_t lrc = eccl_dev_win_alloc(c->gpu.ctx, cap, &w->mine, hm);
    int mrc = MPI_Allgather(hm, ECCL_DEV_IPC_HANDLE, MPI_BYTE, h, ECCL_DEV_IPC_HANDLE, MPI_BYTE, c->topo.node);
    eccl_result_t all = ECCL_SUCCESS;
    eccl_result_t rc = mrc == MPI_SUCCESS ? node_verdict(c, lrc, &all)
                                          : eccl_comm_error(c, ECCL_ERR_MPI, "MPI_Allgather (inside a node) failed");
    if (!rc && all && all != ECCL_ERR_NO_MEMORY) c->tr.nwin_state = -1; /* no IPC on some GPU: never again */
    if (!rc && !all) { /* every window is there: map the others' */
        for (int k = 0; k < L && !lrc; k++)
            lrc = k == me ? ECCL_SUCCESS : eccl_dev_win_open(c->gpu.ctx, h + (size_t)k * ECCL_DEV_IPC_HANDLE, &w->peer[k]);
        w->peer[me] = w->mine;
        if (!lrc && L > 1 && eccl_env_long(&env_fault_ipc) == c->rank) /* (testing: ECCL_FAULT_NODE_IPC) */
            lrc = ECCL_ERR_UNSUPPORTED; /* as a GPU without peer access to the others' */
        rc = node_verdict(c, lrc, &all);
        if (!rc && all) c->tr.nwin_state = -1; /* mapping refused (no peer access): never again */
    }
    if (rc || all) {
        ECCL_LOG(1, c->rank, "no CUDA IPC windows of %zu bytes inside the node (%s): device buffers of the "
                 "hierarchical allreduce are staged%s", cap, eccl_strerror(rc ? rc : all),
                 c->tr.nwin_state < 0 ? " from now on" : " in this call");
        release(c, 1);
        return rc;
    }
    w->cap = cap;
    *ok = 1;
    ECCL_LOG(2, c->rank, "CUDA IPC windows of %zu bytes mapped on the node's %d ranks", cap, L);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_node_dev_agree(eccl_comm_t c, int want, size_t bytes, int *use)
{
    *use = 0;
    const int L = c->topo.lsize;
    if (!c->topo.hier || c->topo.node == MPI_COMM_NULL) return ECCL_SUCCESS;
    if (c->tr.nwin_state == 0 && !c->tr.nwin) {
        c->tr.nwin = calloc(1, sizeof *c->tr.nwin);
        /* (a failure here says no below; the state stays untried) */
    }
    int v[2];
    v[0] = want && c->gpu.ctx && c->tr.nwin && c->tr.nwin_state >= 0 && L <= ECCL_TR_NODE_MAX && bytes > 0 &&
           eccl_tr_node_dev_enabled();
    v[1] = v[0] && c->tr.nwin->cap >= bytes;
    MPI_CHECK(c, MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MIN, c->topo.node), "MPI_Allreduce (inside a node)");
    if (!v[0]) return ECCL_SUCCESS;
    if (v[1]) {
        *use = 1;
        return ECCL_SUCCESS;
    }
    eccl_result_t rc = grow(c, bytes, use);
    if (!rc && *use) c->tr.nwin_state = 1;
    return rc;
}

eccl_result_t eccl_tr_node_dev_reduce_scatter(eccl_comm_t c, const void *d_src, void *d_shard, size_t count,
                                              const int *counts, const int *displs, eccl_dtype_t dt, eccl_op_t op)
{
    struct eccl_nodewin *w = c->tr.nwin;
    const int L = c->topo.lsize, me = c->topo.lrank;
    const size_t es = eccl_dtype_size(dt);
    eccl_result_t all = ECCL_SUCCESS, rc = eccl_dev_copy(c->gpu.ctx, w->mine, d_src, count * es);
    if ((rc = node_verdict(c, rc, &all)) || all) return rc ? rc : all; /* (every window filled: barrier) */
    const void *in[ECCL_TR_NODE_MAX];
    for (int k = 0; k < L; k++) in[k] = (const unsigned char *)w->peer[k] + (size_t)displs[me] * es;
    rc = eccl_dev_reduce_n(c->gpu.ctx, d_shard, in, L, (size_t)counts[me], dt, op);
    /* nobody writes its window again before every rank has read its shard of it (allgather) */
    if ((rc = node_verdict(c, rc, &all))) return rc;
    return all;
}

eccl_result_t eccl_tr_node_dev_allgatherv(eccl_comm_t c, void *d_buf, const int *counts, const int *displs,
                                          eccl_dtype_t dt)
{
    struct eccl_nodewin *w = c->tr.nwin;
    const int L = c->topo.lsize, me = c->topo.lrank;
    const size_t es = eccl_dtype_size(dt);
    unsigned char *b = d_buf;
    const size_t my = (size_t)displs[me] * es;
    eccl_result_t all = ECCL_SUCCESS, rc = eccl_dev_copy(c->gpu.ctx, (unsigned char *)w->mine + my, b + my, (size_t)counts[me] * es);
    if ((rc = node_verdict(c, rc, &all)) || all) return rc ? rc : all;
    eccl_result_t lrc = ECCL_SUCCESS;
    for (int k = 1; k < L && !lrc; k++) { /* from the next rank on, so that ranks read different windows */
        int j = (me + k) % L;
        size_t o = (size_t)displs[j] * es;
        lrc = eccl_dev_copy(c->gpu.ctx, b + o, (const unsigned char *)w->peer[j] + o, (size_t)counts[j] * es);
    }
    /* windows stay untouched until every rank has copied out of them */
    if ((rc = node_verdict(c, lrc, &all))) return rc;
    return all;
}

/* The node's windows as a transport: collective steps only (no point-to-point operations); the
 * registry frees them with the communicator, before its node communicator and GPU context go. */
const eccl_transport_t eccl_tr_node_table = {
    .id = ECCL_TR_NODE,
    .name = "node-ipc",
    .caps = 0,
    .stats_code = 0,
    .create = NULL, /* windows are made at the first call that needs them (eccl_tr_node_dev_agree) */
    .release = node_release,
};
