/*
 * prims.h - the compressed primitives every collective algorithm is written against.
 *
 * Streams are eccl compressed streams (doc/format.md): self-describing and self-delimiting (the
 * header holds the total size), so several can travel back to back in one message. A "set" holds
 * one stream per piece of a partitioned buffer. Everything is timed into the call's statistics:
 * codec time, network time, bytes sent. Data pointers (what the codec reads and writes) are
 * device memory when the call runs device-resident (c->dev.here): the same primitives then use the GPU
 * codec, and algorithms do not change. Streams are host memory, except in the device-stream
 * primitives at the end, for transports that move device memory (NCCL).
 */
#ifndef ECCL_PRIMS_H
#define ECCL_PRIMS_H

#include "prims/call.h"
#include "cuda/device.h"
#include "transport/transport.h"

/* A buffer holding one stream: capacity, and the stream's size once filled. */
typedef struct eccl_cbuf {
    unsigned char *buf;
    size_t cap, size;
} eccl_cbuf_t;

/* One stream per piece: piece i lives at ptr[i] (size[i] bytes) or is absent (ptr NULL). */
typedef struct eccl_set {
    int n;
    const unsigned char **ptr;
    size_t *size;
    /* storage: own pieces in `own` (slot capacity piece_cap each), received ones in `arena` */
    unsigned char *own, *arena;
    size_t piece_cap, arena_cap, arena_used;
} eccl_set_t;

/* ---- buffers from the communicator's pool (no allocation once warm) ---- */
/* A stream buffer able to hold `count` elements compressed, in pool slot `slot`. */
eccl_result_t eccl_prim_cbuf(eccl_call_t *c, int slot, size_t count, eccl_cbuf_t *b);
/* A set for `npieces` pieces of a partition of `total` elements (eccl_piece): own streams
 * (when with_own) and the bookkeeping in pool slot `slot`, received streams in `slot_arena`. */
eccl_result_t eccl_prim_set(eccl_call_t *c, size_t total, int npieces, int with_own, int slot,
                            int slot_arena, eccl_set_t *s);
/* Raw scratch of `bytes` in pool slot ECCL_SLOT_TMP. */
void *eccl_prim_scratch(eccl_call_t *c, size_t bytes);

/* ---- codec on host memory (timed as codec) ---- */
eccl_result_t eccl_prim_compress(eccl_call_t *c, const void *data, size_t count, eccl_cbuf_t *out);
/* Where device data at p lives for the GPU codec: p itself (*lay = NULL), or, in a matrix call
 * (c->lay.m) for p inside the matrix's element range, the matrix base with *lay filled in (its
 * `first` the element p stands for). */
const void *eccl_prim_at(const eccl_call_t *c, const void *p, eccl_dev_layout_t *buf, const eccl_dev_layout_t **lay);
eccl_result_t eccl_prim_decompress(eccl_call_t *c, const unsigned char *s, size_t size, void *data,
                                   size_t count);
/* out = stream of op(decompress(in), local) (homomorphic). */
eccl_result_t eccl_prim_reduce(eccl_call_t *c, const unsigned char *in, size_t in_size,
                               const void *local, size_t count, eccl_cbuf_t *out);
/* out = stream of op(a, b) (homomorphic, commutative byte for byte). */
eccl_result_t eccl_prim_combine(eccl_call_t *c, const unsigned char *a, size_t a_size,
                                const unsigned char *b, size_t b_size, eccl_cbuf_t *out);
/* Compress pieces [lo, hi) of `data` (partitioned into s->n pieces of c's partition of
 * `total` elements) into the set's own storage. */
eccl_result_t eccl_prim_set_compress(eccl_call_t *c, eccl_set_t *s, const void *data, size_t total,
                                     int lo, int hi);
/* Compress `count` elements at `data` as piece i of the set. */
eccl_result_t eccl_prim_set_compress_piece(eccl_call_t *c, eccl_set_t *s, int i, const void *data,
                                           size_t count);
/* Keep only piece i (moved into the set's own storage, which it must have) and empty the
 * arena, so that a later exchange of the other pieces has room. */
void eccl_prim_set_keep(eccl_set_t *s, int i);
/* Decompress pieces [lo, hi) of a set into `data`. */
eccl_result_t eccl_prim_set_decompress(eccl_call_t *c, const eccl_set_t *s, void *data,
                                       size_t total, int lo, int hi);

/* Copy bytes of the call's data (host, or device when c->dev.here); dst may equal src. */
eccl_result_t eccl_prim_copy(eccl_call_t *c, void *dst, const void *src, size_t bytes);

/* inout = op(inout, in) elementwise on uncompressed values (timed as codec). */
eccl_result_t eccl_prim_local_reduce(eccl_call_t *c, void *inout, const void *in, size_t count);

/* ---- network (timed as network; over the call's transport, c->tr: src/prims/net.c) ---- */
/* Whether the call's transport posts messages (ECCL_TR_POSTS): eccl_prim_irecv_stream is then
 * available and sends overlap; without, every send is delivered before it returns and receives
 * come only in the blocking calls (an algorithm that posts receives ahead needs a blocking
 * variant: allgather_ring.c, bcast_pipeline.c, ring_pipelined.c). */
int eccl_prim_posts(const eccl_call_t *c);
eccl_result_t eccl_prim_send(eccl_call_t *c, const void *buf, size_t bytes, int peer);
eccl_result_t eccl_prim_recv(eccl_call_t *c, void *buf, size_t bytes, int peer);
/* Start sending; complete with eccl_prim_wait (the buffer must stay untouched until then). */
eccl_result_t eccl_prim_isend(eccl_call_t *c, const void *buf, size_t bytes, int peer, eccl_req_t *r);
eccl_result_t eccl_prim_wait(eccl_call_t *c, eccl_req_t *r);
/* Receive one stream (size unknown, at most b->cap). */
eccl_result_t eccl_prim_recv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b);
/* Start receiving one stream (at most b->cap bytes) from peer into b; complete it with
 * eccl_prim_wait_stream (b stays untouched until then). Only where eccl_prim_posts(c). */
eccl_result_t eccl_prim_irecv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b, eccl_req_t *r);
/* Complete it: b->size is the stream's size. An oversized message counts as a corrupt stream (the
 * call goes on with b->size = 0, and returns ECCL_ERR_CORRUPT at the end). */
eccl_result_t eccl_prim_wait_stream(eccl_call_t *c, eccl_req_t *r, eccl_cbuf_t *b);
/* Cancel a receive still posted (after an error: none is left on success), so that no request
 * outlives the call; nothing when r holds none. */
void eccl_prim_cancel(eccl_call_t *c, eccl_req_t *r);
/* Send `sbytes` to dest while receiving one stream from src into rb. */
eccl_result_t eccl_prim_sendrecv_stream(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                        int src, eccl_cbuf_t *rb);
/* Send `sbytes` to dest while receiving exactly `rbytes` from src. */
eccl_result_t eccl_prim_sendrecv(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                 void *rbuf, size_t rbytes, int src);

/* out[i] = combine(s[i], t[i]) for pieces [lo, hi), results into s's own storage. */
eccl_result_t eccl_prim_set_combine(eccl_call_t *c, eccl_set_t *s, const eccl_set_t *t, int lo, int hi);

/* ---- sets over the network: pieces [lo, hi) travel as one message of back-to-back streams ---- */
eccl_result_t eccl_prim_set_send(eccl_call_t *c, eccl_set_t *s, int lo, int hi, int peer);
/* Whether eccl_prim_set_send sends `pieces` pieces of s as one packed message (1) or one message
 * per stream (0); eccl_prim_set_recv expects the same. */
int eccl_prim_set_packed(const eccl_set_t *s, int pieces);
eccl_result_t eccl_prim_set_recv(eccl_call_t *c, eccl_set_t *s, int lo, int hi, int peer);
/* Send pieces [slo, shi) of s to dest while receiving pieces [rlo, rhi) of t from src (t may be
 * s: then the received pieces replace s's pointers). */
eccl_result_t eccl_prim_set_sendrecv(eccl_call_t *c, eccl_set_t *s, int slo, int shi, int dest,
                                     eccl_set_t *t, int rlo, int rhi, int src);

/* ---- device-resident streams: kept in device memory from the codec to the wire and back ----
 * Only where eccl_prim_dev_streams(c): this rank's call is device-resident and the call's
 * transport moves device memory (NCCL; every rank's call is then device-resident too, and
 * ECCL_DEVICE_STREAMS, the same everywhere, is not 0). A stream never crosses PCIe: the GPU codec
 * writes it into the communicator's device buffer, NCCL sends it from there and receives it into
 * the peer's, whose GPU codec decompresses it there. The buffers are the GPU context's (one
 * outgoing, one incoming stream at a time; valid until the next codec operation). */
typedef struct eccl_dstream {
    const void *d;   /* device address of the stream (NULL: none yet) */
    size_t size;     /* its size */
    size_t count;    /* the elements it holds */
    size_t cap;      /* the largest stream of `count` elements (eccl_compress_bound) */
} eccl_dstream_t;
int eccl_prim_dev_streams(const eccl_call_t *c);
/* An empty device stream of `count` elements. */
void eccl_prim_dstream(const eccl_call_t *c, size_t count, eccl_dstream_t *s);
/* Compress `count` elements at device `data` into the context's output buffer: s->d, s->size. */
eccl_result_t eccl_prim_compress_dev(eccl_call_t *c, const void *data, size_t count, eccl_dstream_t *s);
/* Send s to each of the n ranks peers[] (one NCCL group), complete on return. */
eccl_result_t eccl_prim_dev_send(eccl_call_t *c, const eccl_dstream_t *s, const int *peers, int n);
/* Receive one stream of at most s->cap bytes from peer into the context's input buffer: s->d,
 * s->size. One announced larger counts as a corrupt stream: s->size = 0, the call goes on and
 * returns ECCL_ERR_CORRUPT at the end (as eccl_prim_wait_stream). */
eccl_result_t eccl_prim_dev_recv(eccl_call_t *c, int peer, eccl_dstream_t *s);
/* Decompress s (received by eccl_prim_dev_recv) into `count` elements at device `data`; a stream
 * that fails validation leaves NaNs there and counts as corrupt (as eccl_prim_decompress). */
eccl_result_t eccl_prim_decompress_dev(eccl_call_t *c, const eccl_dstream_t *s, void *data, size_t count);

/* Tag for all of eccl's point-to-point traffic of one collective (its own duplicate comm and
 * MPI's in-order delivery keep calls apart). */
#define ECCL_TAG 0x4ECC

#endif
