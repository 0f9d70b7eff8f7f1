/* allreduce_hierarchical.c - the mixed hierarchical allreduce for communicators that span several
 * nodes with the same number L > 1 of ranks each (coll/communicator.c: topology):
 *   1. inside each node, an uncompressed reduce-scatter splits the buffer into L shards (the block
 *      partition of eccl_piece) and leaves shard l, summed over the node, on local rank l;
 *   2. between nodes, the ranks of local rank l run a compressed allreduce of shard l on their own
 *      communicator (eccl_comm_inter: the parent's configuration, compression always, the
 *      inter-node link as its model; its own cost model picks ring, recursive doubling, ...);
 *   3. inside each node, an uncompressed allgather puts the shards together.
 * Device buffers stay on the GPU when every rank of the node runs the call device-resident: the
 * node steps then go through CUDA IPC windows (transport/node.c; over NVLink where the GPUs have
 * it) and the shard allreduce is device-resident too; otherwise they are staged through the host.
 * Only step 2 crosses the slow links, with 1/L of the data per rank and nnodes contributions per
 * value, so each message may be compressed with E / nnodes instead of E / p. The bound holds as for
 * the flat algorithms (doc/guarantees.md, section 5): the shard allreduce is bounded by E (for
 * AVG, E * p on the sum, divided afterwards), and the node sums before it only add the rounding of
 * L - 1 additions, inside the (p + 2) u term. Every rank ends with the same bits: the shard
 * allreduce gives identical results on every node and the allgather copies them. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "coll/model.h"
#include "prims/prims.h"

/* A node step's result. On host buffers any failure ends the call (MPI's); on the GPU a failure
 * other than MPI's (agreed across the node) leaves undefined values and lets the call go on, so
 * that no rank of another node waits: it is recorded and reaches every rank at the end
 * (dispatch.c). */
static eccl_result_t node_step(eccl_call_t *c, eccl_result_t rc, const char *what)
{
    if (!rc || !c->dev.here || rc == ECCL_ERR_MPI) return rc;
    if (!c->err) c->err = eccl_comm_error(c->comm, rc, "node %s on the GPU: %s", what, eccl_strerror(rc));
    return ECCL_SUCCESS;
}

int eccl_allreduce_hierarchical_applies(const eccl_call_t *c)
{
    return c->comm && c->comm->topo.hier && c->count <= INT_MAX;
}

eccl_result_t eccl_allreduce_hierarchical(eccl_call_t *c)
{
    eccl_comm_t comm = c->comm;
    const eccl_topo_t *t = &comm->topo;
    const int L = t->lsize, me = t->lrank;
    int *counts = eccl_pool_get(&comm->pool, ECCL_SLOT_REQS, 2 * (size_t)L * sizeof(int));
    if (!counts) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for %d shard counts", L);
    int *displs = counts + L;
    for (int j = 0; j < L; j++) {
        size_t lo, len;
        eccl_piece(c->count, L, j, &lo, &len);
        counts[j] = (int)len;
        displs[j] = (int)lo;
    }
    unsigned char *shard = (unsigned char *)c->recvbuf + (size_t)displs[me] * c->esize;
    const void *src = c->sendbuf;
    if (!c->dev.here && src == c->recvbuf) { /* in place: reduce from a copy (the shard lands inside recvbuf) */
        void *tmp = eccl_prim_scratch(c, c->count * c->esize);
        if (!tmp) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for an in-place copy");
        memcpy(tmp, c->recvbuf, c->count * c->esize);
        src = tmp;
    }
    /* the inter-node communicator, made at the first call (collectively: every rank is here, and
     * knows it is the first); then every rank must know that every other one has it */
    int first = t->xcomm == NULL;
    eccl_comm_t x = eccl_comm_inter(comm);
    eccl_result_t rc;
    if (first) {
        double ok = x != NULL;
        if ((rc = eccl_tr_allreduce_doubles(comm, &ok, 1, MPI_MIN))) return rc;
        if (ok == 0) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no inter-node communicator on some rank");
    }

    /* device buffers here: every rank of the node agreed on CUDA IPC (dispatch.c), else the call
     * was staged */
    double t0 = eccl_wtime();
    rc = c->dev.here ? eccl_tr_node_dev_reduce_scatter(comm, src, shard, c->count, counts, displs, c->dtype, c->op)
                : eccl_tr_node_reduce_scatter(comm, src, shard, counts, c->dtype, c->op);
    if ((rc = node_step(c, rc, "reduce-scatter"))) return rc;
    double t1 = eccl_wtime();

    /* the shard's bound: the result's (the sum's for AVG); a lossless call stays lossless */
    eccl_bound_t b = {ECCL_MODE_LOSSLESS, 0, 0};
    double E = c->avg ? c->E * (double)c->size : c->E;
    if (c->E > 0 && c->mbound.mode != ECCL_MODE_LOSSLESS) {
        b.mode = ECCL_MODE_ABS;
        b.value = E < 1e301 ? E : 1e301;
    }
    /* a failure here (a corrupt stream between nodes, agreed within x) still lets the node's
     * allgather run, so nobody waits; dispatch then agrees on the verdict over the whole comm */
    eccl_result_t xrc = eccl_allreduce(MPI_IN_PLACE, shard, (size_t)counts[me], c->dtype, c->op, &b, x);
    eccl_stats_t xs;
    eccl_comm_last_stats(x, &xs);
    double t2 = eccl_wtime();
    if (xrc == ECCL_ERR_MPI) return eccl_comm_error(comm, xrc, "inter-node allreduce: %s", eccl_comm_last_error(x));

    rc = c->dev.here ? eccl_tr_node_dev_allgatherv(comm, c->recvbuf, counts, displs, c->dtype)
                : eccl_tr_node_allgatherv(comm, c->recvbuf, counts, displs, c->dtype);
    if ((rc = node_step(c, rc, "allgather"))) return rc;
    double t3 = eccl_wtime();

    /* statistics: the inter-node call's, plus the node steps as uncompressed traffic */
    uint64_t intra = (uint64_t)c->count * c->esize * 2 * (uint64_t)(L - 1) / (uint64_t)L;
    c->st->bytes_raw += xs.bytes_raw + intra;
    c->st->bytes_sent += xs.bytes_sent + intra;
    c->st->t_codec += xs.t_codec;
    c->st->t_network += (t1 - t0) + (t3 - t2) + xs.t_network;
    if (xs.eb_per_message > 0) c->st->eb_per_message = xs.eb_per_message;
    if (xrc) {
        if (!c->err) c->err = xrc;
        eccl_comm_error(comm, xrc, "inter-node allreduce: %s", eccl_comm_last_error(x));
    }
    return ECCL_SUCCESS;
}

/* Node steps as MPI's ring collectives (L - 1 messages of a shard each way, on the link inside a
 * node; or through CUDA IPC windows on device buffers), and the best compressed allreduce between
 * nodes of one shard with nnodes ranks. */
double eccl_allreduce_hierarchical_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    const eccl_topo_t *t = &c->comm->topo;
    int L = t->lsize > 1 ? t->lsize : 1;
    double n = mdl_bytes(c, c->count), shard = n / L;
    double node = 2.0 * (L - 1) * (m->alpha_in + shard * m->beta_in) + (double)(L - 1) / L * mdl_reduce(m, n);
    if (c->dev.all && eccl_tr_node_dev_priced(c->comm)) /* device-resident: CUDA IPC windows (4 agreements; the
                                                buffer into the window, L - 1 shards read, L - 1 copied out) */
        node = 4.0 * ECCL_GPU_IPC_ALPHA + (n + 2.0 * (L - 1) * shard) * ECCL_GPU_IPC_BETA;
    eccl_call_t sub = *c;
    sub.size = t->nnodes > 1 ? t->nnodes : 2;
    sub.rank = 0;
    sub.count = (c->count + (size_t)L - 1) / (size_t)L;
    double best = INFINITY;
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
        if (a->coll != ECCL_COLL_ALLREDUCE || !(a->flags & ECCL_ALG_COMPRESSED) || a->fn == eccl_allreduce_hierarchical)
            continue;
        double v = a->cost(m, &sub, ratio);
        if (v < best) best = v;
    }
    return node + best;
}
