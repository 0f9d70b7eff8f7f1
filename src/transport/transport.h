/*
 * transport.h - how bytes move between ranks: the transports' tables (MPI, NCCL, the node's CUDA
 * IPC windows), the agreements that decide which one a call may use, and the uncompressed MPI
 * collectives. The only layer below the primitives that talks to MPI or NCCL.
 *
 * Messages larger than ECCL_TR_PIECE bytes travel as several MPI messages in order.
 */
#ifndef ECCL_TRANSPORT_H
#define ECCL_TRANSPORT_H

#include "core/comm.h"

#define ECCL_TR_PIECE ((size_t)1 << 30)
#define ECCL_TR_MAX_PIECES 64

/* A completion object: what a transport's post fills and its wait completes (n = 0: complete).
 * Its fields belong to the transport that filled it (MPI: up to ECCL_TR_MAX_PIECES requests). */
typedef struct eccl_req {
    int n;                 /* MPI requests in use */
    MPI_Request r[ECCL_TR_MAX_PIECES];
    /* receive of a size known only from the first piece (see the table's irecv_stream) */
    unsigned char *buf;
    size_t cap;
    int peer, tag, stream;
    void *owned;           /* a buffer to free on completion (fault injection) */
} eccl_req_t;

#define ECCL_REQ_NULL {0, {MPI_REQUEST_NULL}, NULL, 0, 0, 0, 0, NULL}

/* ---- the transports: one table of operations each, found through the registry ----
 *
 * A transport moves the bytes of one call's point-to-point messages (compressed streams, and for
 * the algorithms on uncompressed data raw messages) between the ranks of an eccl communicator.
 * The primitives (src/prims/) reach every transport through this table only: which one carries a
 * call is the dispatcher's choice (src/coll/select.c: eccl_call_t.tr), what it can do is `caps`.
 *
 * Requests (eccl_req_t) are the completion objects: a post fills one, `wait` completes it (and
 * for a stream receive says how many bytes came), `cancel` drops a receive that will not be
 * needed after an error. A request with n = 0 is complete. Every operation is local to the
 * calling rank except where its comment says collective.
 *
 * To add a transport (e.g. CUDA-aware MPI moving device-resident streams, dev_send/dev_recv): one file defining an
 * eccl_transport_t, one row in registry.c, its state in core/comm.h's eccl_comm_tr_t; the
 * dispatcher's choice in select.c (doc/ARCHITECTURE.md). */

typedef enum eccl_tr_id { ECCL_TR_MPI, ECCL_TR_NCCL, ECCL_TR_NODE, ECCL_TR_COUNT } eccl_tr_id_t;

/* capabilities (the one the primitives ask) */
#define ECCL_TR_POSTS 1u   /* isend/irecv/irecv_stream return at once and the messages progress
                              until `wait`; without it `isend` delivers before returning (its
                              request complete), receives cannot be posted, and every transfer is
                              a blocking `exchange` pair (the patterns that would deadlock
                              otherwise pair each outgoing message with an incoming one) */

typedef struct eccl_transport {
    eccl_tr_id_t id;
    const char *name;
    unsigned caps;
    int stats_code; /* eccl_stats_t.transport of a call whose streams it carries */
    /* Set-up at eccl_comm_create (collective; NULL: this transport sets itself up lazily, at the
     * agreement of the first call that can use it) and release at eccl_comm_free (collective). */
    eccl_result_t (*create)(eccl_comm_t c);
    void (*release)(eccl_comm_t c);
    /* Post a send of `bytes` bytes (any size up to ECCL_TR_PIECE * ECCL_TR_MAX_PIECES); the buffer
     * stays untouched until the request completes. */
    eccl_result_t (*isend)(eccl_comm_t c, const void *buf, size_t bytes, int peer, int tag, eccl_req_t *req);
    /* Post a receive of exactly `bytes` bytes (the ECCL_ALG_HOST_DATA algorithms' raw messages;
     * a transport without them refuses it with ECCL_ERR_INTERNAL, as NCCL does). */
    eccl_result_t (*irecv)(eccl_comm_t c, void *buf, size_t bytes, int peer, int tag, eccl_req_t *req);
    /* Post a receive of an eccl stream of unknown size, at most cap bytes (its total size is read
     * from the header of the first piece). More than cap bytes: the wait says ECCL_ERR_CORRUPT. */
    eccl_result_t (*irecv_stream)(eccl_comm_t c, void *buf, size_t cap, int peer, int tag, eccl_req_t *req);
    /* Complete a request; for a stream receive *got is the stream's size (NULL: not needed). */
    eccl_result_t (*wait)(eccl_comm_t c, eccl_req_t *req, size_t *got);
    void (*cancel)(eccl_comm_t c, eccl_req_t *req);
    /* Blocking exchange, complete on return: send sbytes at sbuf to dest (dest < 0: none) while
     * receiving one message of at most rcap bytes from src (src < 0: none) into rbuf; *rgot is its
     * size. A larger message is ECCL_ERR_CORRUPT (with *rgot = what was kept). */
    eccl_result_t (*exchange)(eccl_comm_t c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                              size_t *rgot, int src, int tag);
    /* Device-resident streams (NULL where the transport cannot move device memory; the primitives
     * then stage streams through host memory): blocking, complete on return.
     * dev_send: one stream of `bytes` bytes at device address d_buf to each of the ndest ranks
     * dests[]. `cap` is the largest stream the call can make (the same on every rank of the call);
     * a larger `bytes` is announced to the receivers but not sent (ECCL_ERR_INTERNAL here).
     * dev_recv: one stream from src into device memory d_buf of `cap` bytes; *got is its size. A
     * stream announced larger than cap is not received: ECCL_ERR_CORRUPT, *got = 0 (the sender
     * moves nothing either, so no rank waits for the other). */
    eccl_result_t (*dev_send)(eccl_comm_t c, const void *d_buf, size_t bytes, size_t cap, const int *dests, int ndest);
    eccl_result_t (*dev_recv)(eccl_comm_t c, void *d_buf, size_t cap, size_t *got, int src);
    /* The cost model's figures for a call whose streams this transport carries: `gpu`, every rank
     * runs device-resident (the GPU codec's figures), w64: the 64-bit kernels (core/model.h). */
    const eccl_model_t *(*model)(eccl_comm_t c, int gpu, int w64);
} eccl_transport_t;

/* The registry: the table of a transport (never NULL for an id below ECCL_TR_COUNT; in builds
 * without NCCL its table refuses every operation with ECCL_ERR_UNSUPPORTED). */
const eccl_transport_t *eccl_transport(eccl_tr_id_t id);
/* The tables themselves (registry.c's; everything else asks eccl_transport). The node windows'
 * table has no point-to-point operations (NULL): its steps are collective (eccl_tr_node_dev_*). */
extern const eccl_transport_t eccl_tr_mpi_table, eccl_tr_nccl_table, eccl_tr_node_table;
/* Every transport's `create`, in registry order, at eccl_comm_create (collective). */
eccl_result_t eccl_transports_create(eccl_comm_t c);
/* Every transport's `release`, in reverse order, at eccl_comm_free (collective); safe on a
 * communicator whose creation failed half-way. */
void eccl_transports_free(eccl_comm_t c);

/* ---- calls that every rank runs device-resident (CUDA builds) ----
 * Collective: every rank calls it in the same call, `want` = this rank runs device-resident; on
 * return *all_want is the same everywhere: every rank does. At the first call where every rank
 * does, the GPU codec is measured on rank 0 and its figures shared (eccl_models_set_gpu:
 * comm->models), so the cost model prices device-resident calls with this GPU's speed, whatever
 * transport carries the streams. */
eccl_result_t eccl_tr_dev_agree(eccl_comm_t c, int want, int *all_want);
/* ---- NCCL (builds with NCCL) ----
 * eccl_tr_dev_agree, then, where every rank runs device-resident, whether NCCL carries the call:
 * *use, the same everywhere, says the NCCL communicator works (set up, and its link measured into
 * comm->models by eccl_models_set_nccl, at the first such call; if that fails anywhere, never again). Without NCCL:
 * eccl_tr_dev_agree alone and *use = 0. */
eccl_result_t eccl_tr_nccl_agree(eccl_comm_t c, int want, int *all_want, int *use);
/* 1 where a later eccl_tr_nccl_agree of c may still set NCCL up (builds with NCCL, not tried yet),
 * else 0. Local. */
int eccl_tr_nccl_pending(eccl_comm_t c);
/* Grow NCCL's device stream buffers (both directions) to bytes now, where NCCL is up (nothing
 * otherwise): a device-resident call reserves what its streams can need before any data moves.
 * Errors: ECCL_ERR_CUDA (no device memory). */
eccl_result_t eccl_tr_nccl_reserve(eccl_comm_t c, size_t bytes);
/* Plain NCCL collectives on device buffers (SUM; complex as pairs of reals), complete on return. */
eccl_result_t eccl_tr_nccl_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count, eccl_dtype_t dt);
eccl_result_t eccl_tr_nccl_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root);
/* Let MPI progress the messages in flight on communicator `comm` (an eccl_comm_t), without
 * completing or consuming any: what the GPU context calls while the host waits for the GPU
 * (eccl_dev_ctx_set_progress), so that sends and receives posted before a GPU operation move on
 * during it. */
void eccl_tr_progress(void *comm);

/* Whether MPI was initialised with MPI_THREAD_MULTIPLE (any thread may call it at any time: the
 * nonblocking collectives' progress threads need it, src/coll/engine.c). */
int eccl_tr_mpi_thread_multiple(void);

/* Whether this process's MPI takes CUDA device buffers (ECCL_CUDA_AWARE: auto = ask the MPI with
 * MPIX_Query_cuda_support where the library has it, else no; 0 = never; 1 = always, the user's
 * word for MPIs that do not advertise it). Only meaningful in builds with the CUDA backend. */
int eccl_tr_cuda_aware(void);

/* ---- the uncompressed MPI collectives ("mpi" algorithms and fallbacks) ---- */
MPI_Datatype eccl_tr_mpi_type(eccl_dtype_t dtype);
eccl_result_t eccl_tr_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root);
eccl_result_t eccl_tr_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                                eccl_dtype_t dt, eccl_op_t op);
eccl_result_t eccl_tr_reduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                             eccl_dtype_t dt, eccl_op_t op, int root);
eccl_result_t eccl_tr_reduce_scatter_block(eccl_comm_t c, const void *sbuf, void *rbuf,
                                           size_t count, eccl_dtype_t dt, eccl_op_t op);
eccl_result_t eccl_tr_allgather(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                                eccl_dtype_t dt);
eccl_result_t eccl_tr_scatter(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                              eccl_dtype_t dt, int root);
eccl_result_t eccl_tr_gather(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                             eccl_dtype_t dt, int root);
eccl_result_t eccl_tr_sendrecv_replace(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt,
                                       int dest, int sendtag, int source, int recvtag);
/* Inside this rank's node (c->topo.node, hierarchical communicators): reduce-scatter with the
 * given per-rank counts (the result, counts[local rank] elements, at rbuf; sbuf holds them all),
 * and an in-place allgather of the pieces at rbuf + displs[j]. */
eccl_result_t eccl_tr_node_reduce_scatter(eccl_comm_t c, const void *sbuf, void *rbuf, const int *counts,
                                          eccl_dtype_t dt, eccl_op_t op);
eccl_result_t eccl_tr_node_allgatherv(eccl_comm_t c, void *rbuf, const int *counts, const int *displs,
                                      eccl_dtype_t dt);
/* The same steps on device buffers through CUDA IPC windows (transport/node.c), for calls every
 * rank of the node runs device-resident. eccl_tr_node_dev_agree is collective over the node (every
 * rank calls it in the same call): *use = 1 on every rank of the node when every one wants it
 * (want: this call runs device-resident here), ECCL_NODE_IPC allows it, the node has at most
 * ECCL_TR_NODE_MAX ranks, and every rank's window holds `bytes` (grown collectively, and mapped by
 * the others, when not); else 0 everywhere (a window that cannot be mapped, for want of peer
 * access, is not tried again). The two steps then run on every rank of the node and agree on their
 * outcome there: any rank's failure (ECCL_ERR_CUDA, ...) is returned on all of them, with the
 * results undefined. The reduce-scatter reads `count` elements at d_src (device) and leaves the
 * node's reduction of shard counts[lrank] at d_shard (the ranks' values combined in local-rank
 * order, SUM/MAX/MIN with eccl's rules); the allgather fills every other shard of d_buf (at
 * displs[j], counts[j] elements) from its owner. Complete on return. */
#define ECCL_TR_NODE_MAX 32
eccl_result_t eccl_tr_node_dev_agree(eccl_comm_t c, int want, size_t bytes, int *use);
/* Whether ECCL_NODE_IPC allows the windows at all. */
int eccl_tr_node_dev_enabled(void);
/* Whether the cost model prices c's node steps on device buffers as CUDA IPC copies: the windows
 * are allowed and no node of c has refused them so far (c->tr.nwin_refused, which every rank learns
 * at the same call: dispatch.c's agreement). Else they are priced as staged through host memory. */
int eccl_tr_node_dev_priced(eccl_comm_t c);
eccl_result_t eccl_tr_node_dev_reduce_scatter(eccl_comm_t c, const void *d_src, void *d_shard, size_t count,
                                              const int *counts, const int *displs, eccl_dtype_t dt, eccl_op_t op);
eccl_result_t eccl_tr_node_dev_allgatherv(eccl_comm_t c, void *d_buf, const int *counts, const int *displs,
                                          eccl_dtype_t dt);
/* Small control exchange of doubles (the calls' agreements; a root's decision travels as an MPI_MAX
 * where the other ranks give -inf, so that it carries every rank's signature too). */
eccl_result_t eccl_tr_allreduce_doubles(eccl_comm_t c, double *v, int n, MPI_Op op);

#endif
