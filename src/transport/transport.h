/*
 * transport.h - how bytes move between ranks (host memory over MPI). The only layer below the
 * primitives that talks to MPI; the GPU transports (host-staged, NCCL) provide the same calls.
 *
 * Messages larger than ECCL_TR_PIECE bytes travel as several MPI messages in order.
 */
#ifndef ECCL_TRANSPORT_H
#define ECCL_TRANSPORT_H

#include "core/comm.h"

#define ECCL_TR_PIECE ((size_t)1 << 30)
#define ECCL_TR_MAX_PIECES 64

typedef struct eccl_req {
    int n;                 /* MPI requests in use */
    MPI_Request r[ECCL_TR_MAX_PIECES];
    /* receive of a size known only from the first piece (see eccl_tr_irecv_stream) */
    unsigned char *buf;
    size_t cap;
    int peer, tag, stream;
    void *owned;           /* a buffer to free on completion (fault injection) */
} eccl_req_t;

#define ECCL_REQ_NULL {0, {MPI_REQUEST_NULL}, NULL, 0, 0, 0, 0, NULL}

/* Send `bytes` bytes (any size up to ECCL_TR_PIECE * ECCL_TR_MAX_PIECES). */
eccl_result_t eccl_tr_isend(eccl_comm_t c, const void *buf, size_t bytes, int peer, int tag,
                            eccl_req_t *req);
/* Receive exactly `bytes` bytes. */
eccl_result_t eccl_tr_irecv(eccl_comm_t c, void *buf, size_t bytes, int peer, int tag,
                            eccl_req_t *req);
/* Receive an eccl stream of unknown size (at most cap bytes): its total size is read from the
 * header of the first piece. */
eccl_result_t eccl_tr_irecv_stream(eccl_comm_t c, void *buf, size_t cap, int peer, int tag,
                                   eccl_req_t *req);
/* Complete a request; for a stream receive, *got is the stream's size (NULL: not needed). */
eccl_result_t eccl_tr_wait(eccl_comm_t c, eccl_req_t *req, size_t *got);
/* Cancel a receive that will not be needed (after an error) and free its request. */
void eccl_tr_cancel(eccl_comm_t c, eccl_req_t *req);

/* ---- calls that every rank runs device-resident (CUDA builds) ----
 * Collective: every rank calls it in the same call, `want` = this rank runs device-resident; on
 * return *all_want is the same everywhere: every rank does. At the first call where every rank
 * does, the GPU codec is measured on rank 0 and its figures shared (comm->gmodel, gmodel64,
 * gpu_measured), so the cost model prices device-resident calls with this GPU's speed, whatever
 * transport carries the streams. */
eccl_result_t eccl_tr_dev_agree(eccl_comm_t c, int want, int *all_want);
/* ---- NCCL (builds with NCCL) ----
 * eccl_tr_dev_agree, then, where every rank runs device-resident, whether NCCL carries the call:
 * *use, the same everywhere, says the NCCL communicator works (set up, and its link measured into
 * comm->nmodel, at the first such call; if that fails anywhere, never again). Without NCCL:
 * eccl_tr_dev_agree alone and *use = 0. */
eccl_result_t eccl_tr_nccl_agree(eccl_comm_t c, int want, int *all_want, int *use);
/* Plain NCCL collectives on device buffers (SUM; complex as pairs of reals), complete on return. */
eccl_result_t eccl_tr_nccl_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count, eccl_dtype_t dt);
eccl_result_t eccl_tr_nccl_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root);
void eccl_tr_nccl_free(eccl_comm_t c);
/* Blocking exchange through NCCL (sizes over MPI first): send sbytes of host memory at sbuf to
 * dest (dest < 0: none) while receiving one message from src (src < 0: none) into rbuf; *rgot is
 * its size. A message larger than rcap is received and cut (*rgot = rcap): ECCL_ERR_CORRUPT. */
eccl_result_t eccl_tr_nccl_sendrecv(eccl_comm_t c, const void *sbuf, size_t sbytes, int dest, void *rbuf,
                                    size_t rcap, size_t *rgot, int src);

/* Let MPI progress the messages in flight on communicator `comm` (an eccl_comm_t), without
 * completing or consuming any: what the GPU context calls while the host waits for the GPU
 * (eccl_dev_ctx_set_progress), so that sends and receives posted before a GPU operation move on
 * during it. */
void eccl_tr_progress(void *comm);

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
 * are allowed and no node of c has refused them so far (c->nwin_refused, which every rank learns
 * at the same call: dispatch.c's agreement). Else they are priced as staged through host memory. */
int eccl_tr_node_dev_priced(eccl_comm_t c);
eccl_result_t eccl_tr_node_dev_reduce_scatter(eccl_comm_t c, const void *d_src, void *d_shard, size_t count,
                                              const int *counts, const int *displs, eccl_dtype_t dt, eccl_op_t op);
eccl_result_t eccl_tr_node_dev_allgatherv(eccl_comm_t c, void *d_buf, const int *counts, const int *displs,
                                          eccl_dtype_t dt);
void eccl_tr_node_dev_free(eccl_comm_t c);
/* The MPI operations behind MAX/MIN (NaN propagates, max(-0.0, +0.0) = +0.0, identical bits in
 * any order: the same rules as the compressed path). Created per communicator. */
eccl_result_t eccl_tr_ops_create(eccl_comm_t c);
void eccl_tr_ops_free(eccl_comm_t c);
/* Small control exchange of doubles (the calls' agreements; a root's decision travels as an MPI_MAX
 * where the other ranks give -inf, so that it carries every rank's signature too). */
eccl_result_t eccl_tr_allreduce_doubles(eccl_comm_t c, double *v, int n, MPI_Op op);

#endif
