/*
 * common.h - building blocks that several algorithms share (each algorithm file stays one
 * algorithm, src/coll/<op>/<op>_<algo>.c; what two of them run lives here, with one declaration).
 * Written against the primitives, as the algorithms are.
 */
#ifndef ECCL_COLL_COMMON_H
#define ECCL_COLL_COMMON_H

#include "coll/coll.h"
#include "coll/model.h"
#include "prims/prims.h"

/* ---- ring.c ---- */
/* Ring reduce-scatter over p pieces of `total` elements at `data`: on return *out holds the
 * stream of the fully reduced piece (rank + 1 - shift) mod p. shift = 0 for allreduce, 1 for
 * reduce_scatter_block (each rank ends with its own piece). allreduce ring, reduce_scatter_block
 * ring. */
eccl_result_t eccl_coll_ring_reduce_scatter(eccl_call_t *c, const void *data, size_t total, int shift,
                                            eccl_cbuf_t *out);

/* ---- ring_pipelined.c ---- */
/* The homomorphic ring with every piece cut into chunks (allreduce ring_pipelined; its first half
 * for reduce_scatter_block ring_pipelined), and its predicted seconds at the chunk count it will
 * take. */
eccl_result_t eccl_coll_ring_pipelined(eccl_call_t *c);
double eccl_coll_ring_pipelined_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio);

/* ---- tree.c ---- */
/* Broadcast the stream in *s from root along a binomial tree; receivers get it in *s (whose
 * capacity must hold it). bcast binomial, allreduce reduce_bcast. */
eccl_result_t eccl_coll_bcast_stream(eccl_call_t *c, int root, eccl_cbuf_t *s);
/* The same for a device-resident stream (eccl_prim_dev_streams(c)): the root's *s is sent, the
 * others receive it into *s (each rank forwards it to its children untouched, in one NCCL group). */
eccl_result_t eccl_coll_bcast_dev_stream(eccl_call_t *c, int root, eccl_dstream_t *s);
/* Binomial reduce of the count elements at data toward root, streams combined homomorphically;
 * the root's *result holds the stream of the reduced buffer. reduce binomial, allreduce
 * reduce_bcast. */
eccl_result_t eccl_coll_reduce_stream(eccl_call_t *c, const void *data, int root, eccl_cbuf_t *result);

/* ---- scatter.c ---- */
/* Binomial scatter of a set indexed by relative rank (position t belongs to rank (t+root)%p):
 * on return, every rank holds at least its own position; the root holds all of them. scatter
 * binomial, bcast scatter_allgather. */
eccl_result_t eccl_coll_scatter_set(eccl_call_t *c, eccl_set_t *s, int root);
/* The root's part of it, compressing piece t (the `count` elements at at(c, t, &count)) just
 * before its subtree goes and sending without blocking; the sends are left in req[0 .. *nreq)
 * (room for p) for eccl_coll_scatter_root_wait, which completes every one, also after an error,
 * and returns the first error of rc and theirs. */
eccl_result_t eccl_coll_scatter_root(eccl_call_t *c, eccl_set_t *s,
                                     const void *(*at)(const eccl_call_t *c, int t, size_t *count), eccl_req_t *req,
                                     int *nreq);
eccl_result_t eccl_coll_scatter_root_wait(eccl_call_t *c, eccl_req_t *req, int nreq, eccl_result_t rc);

#endif
