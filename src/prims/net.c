/*
 * net.c - the primitives that move bytes (prims.h): single messages and sets of streams, over the
 * transport that carries the call (c->tr, transport.h), timed as network.
 *
 * Nothing here depends on which transport it is, only on what it can do: with ECCL_TR_POSTS
 * messages are posted and completed later; without (NCCL), every transfer is a blocking exchange
 * of one outgoing and one incoming message, and the set exchanges pair them up (every rank of
 * these symmetric patterns has as many of each, so the pairs match).
 */
#include "config.h"

#include <string.h>

#include "codec/format.h"
#include "core/env.h"
#include "prims/internal.h"

/* 0: device-resident calls stage their streams through host memory even where the transport
 * moves device memory (doc/env.md; the same on every rank) */
ECCL_ENV(env_dev_streams, "ECCL_DEVICE_STREAMS", 1);

static void add_net(eccl_call_t *c, double t0) { c->st->t_network += eccl_wtime() - t0; }

int eccl_prim_posts(const eccl_call_t *c) { return (c->tr->caps & ECCL_TR_POSTS) != 0; }

/* A blocking exchange on the call's transport, timed and counted. */
static eccl_result_t xchg(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                          size_t *rgot, int src)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->exchange(c->comm, sbuf, sbytes, dest, rbuf, rcap, rgot, src, ECCL_TAG);
    add_net(c, t0);
    if (dest >= 0) eccl_prim_sent(c, sbuf, sbytes);
    return rc;
}

/* A received stream that did not fit (or came inconsistent): an empty stream, the call goes on. */
static eccl_result_t stream_in(eccl_call_t *c, eccl_result_t rc, eccl_cbuf_t *b)
{
    if (rc != ECCL_ERR_CORRUPT) return rc;
    b->size = 0;
    return eccl_prim_corrupt(c, rc, "receiving a peer's stream");
}

/* ---- device-resident streams ---- */

int eccl_prim_dev_streams(const eccl_call_t *c)
{
    return c->dev.here && c->tr->dev_send && c->tr->dev_recv && eccl_env_long(&env_dev_streams) != 0;
}

eccl_result_t eccl_prim_dev_send(eccl_call_t *c, const eccl_dstream_t *s, const int *peers, int n)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->dev_send(c->comm, s->d, s->size, s->cap, peers, n);
    add_net(c, t0);
    c->st->bytes_sent += (uint64_t)s->size * (uint64_t)n;
    c->st->bytes_raw += (uint64_t)(s->count * c->esize) * (uint64_t)n;
    return rc;
}

eccl_result_t eccl_prim_dev_recv(eccl_call_t *c, int peer, eccl_dstream_t *s)
{
    void *buf = NULL;
    /* (no allocation: eccl_dev_reserve grew the buffer for the call's largest stream) */
    eccl_result_t rc = eccl_dev_stream_buf(c->comm->gpu.ctx, s->cap, &buf);
    if (rc) return eccl_comm_error(c->comm, rc, "no device buffer for a peer's stream: %s", eccl_strerror(rc));
    double t0 = eccl_wtime();
    size_t got = 0;
    rc = c->tr->dev_recv(c->comm, buf, s->cap, &got, peer);
    add_net(c, t0);
    s->d = buf;
    s->size = got;
    if (rc != ECCL_ERR_CORRUPT) return rc;
    s->size = 0;
    return eccl_prim_corrupt(c, rc, "receiving a peer's stream");
}

/* ---- single messages ---- */

eccl_result_t eccl_prim_send(eccl_call_t *c, const void *buf, size_t bytes, int peer)
{
    return xchg(c, buf, bytes, peer, NULL, 0, NULL, -1);
}

eccl_result_t eccl_prim_isend(eccl_call_t *c, const void *buf, size_t bytes, int peer, eccl_req_t *r)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->isend(c->comm, buf, bytes, peer, ECCL_TAG, r);
    add_net(c, t0);
    eccl_prim_sent(c, buf, bytes);
    return rc;
}

eccl_result_t eccl_prim_wait(eccl_call_t *c, eccl_req_t *r)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->wait(c->comm, r, NULL);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_recv(eccl_call_t *c, void *buf, size_t bytes, int peer)
{
    eccl_req_t r = ECCL_REQ_NULL;
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->irecv(c->comm, buf, bytes, peer, ECCL_TAG, &r);
    if (!rc) rc = c->tr->wait(c->comm, &r, NULL);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_recv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b)
{
    return stream_in(c, xchg(c, NULL, 0, -1, b->buf, b->cap, &b->size, peer), b);
}

eccl_result_t eccl_prim_irecv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b, eccl_req_t *r)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->irecv_stream(c->comm, b->buf, b->cap, peer, ECCL_TAG, r);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_wait_stream(eccl_call_t *c, eccl_req_t *r, eccl_cbuf_t *b)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->wait(c->comm, r, &b->size);
    add_net(c, t0);
    return stream_in(c, rc, b);
}

void eccl_prim_cancel(eccl_call_t *c, eccl_req_t *r)
{
    if (r->n) c->tr->cancel(c->comm, r);
}

eccl_result_t eccl_prim_sendrecv_stream(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                        int src, eccl_cbuf_t *rb)
{
    return stream_in(c, xchg(c, sbuf, sbytes, dest, rb->buf, rb->cap, &rb->size, src), rb);
}

eccl_result_t eccl_prim_sendrecv(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                 void *rbuf, size_t rbytes, int src)
{
    eccl_req_t rs = ECCL_REQ_NULL, rr = ECCL_REQ_NULL;
    double t0 = eccl_wtime();
    eccl_result_t rc = c->tr->irecv(c->comm, rbuf, rbytes, src, ECCL_TAG, &rr);
    if (!rc) rc = c->tr->isend(c->comm, sbuf, sbytes, dest, ECCL_TAG, &rs);
    if (!rc) rc = c->tr->wait(c->comm, &rs, NULL);
    if (!rc) rc = c->tr->wait(c->comm, &rr, NULL);
    if (rc && rr.n) c->tr->cancel(c->comm, &rr);
    add_net(c, t0);
    eccl_prim_sent(c, sbuf, sbytes);
    return rc;
}

/* ---- sets ---- */

/* Pack pieces [lo, hi) back to back into the pool's send slot. */
static eccl_result_t set_pack(eccl_call_t *c, const eccl_set_t *s, int lo, int hi,
                              const unsigned char **out, size_t *bytes)
{
    size_t total = 0;
    for (int i = lo; i < hi; i++) {
        if (!s->ptr[i]) return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "piece %d missing", i);
        total += s->size[i];
    }
    if (hi - lo == 1) { /* one stream: send it where it is */
        *out = s->ptr[lo];
        *bytes = total;
        return ECCL_SUCCESS;
    }
    /* the slot is sized for the pieces' worst case, not for these streams: a later call with the
     * same arguments never grows it (a stream-enqueued call must not allocate: src/coll/engine.c) */
    size_t cap = (size_t)(hi - lo) * s->piece_cap;
    unsigned char *buf = eccl_pool_get(&c->comm->pool, ECCL_SLOT_SEND, cap > total ? cap : total);
    if (!buf) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory to pack %zu bytes", total);
    size_t off = 0;
    for (int i = lo; i < hi; i++) {
        memcpy(buf + off, s->ptr[i], s->size[i]);
        off += s->size[i];
    }
    *out = buf;
    *bytes = total;
    return ECCL_SUCCESS;
}

/* Split a received message of back-to-back streams into pieces [lo, hi): each stream's size is
 * in its header; anything inconsistent is a corrupt message. */
static eccl_result_t set_unpack(eccl_call_t *c, eccl_set_t *s, unsigned char *buf, size_t bytes,
                                int lo, int hi)
{
    static const unsigned char invalid[ECCL_FMT_HEADER_SIZE]; /* not a stream: forwarded and
                                                                 rejected downstream */
    size_t off = 0;
    int bad = 0;
    for (int i = lo; i < hi; i++) {
        uint64_t sz = 0;
        const int whole = bytes - off >= ECCL_FMT_HEADER_SIZE;
        if (!bad && whole) memcpy(&sz, buf + off + ECCL_HDR_SIZE, 8);
        if (bad || !whole || sz < ECCL_FMT_HEADER_SIZE || sz > bytes - off || sz > s->piece_cap) {
            bad = 1;
            s->ptr[i] = invalid;
            s->size[i] = sizeof invalid;
            continue;
        }
        s->ptr[i] = buf + off;
        s->size[i] = (size_t)sz;
        off += (size_t)sz;
    }
    if (bad || off != bytes) return eccl_prim_corrupt(c, ECCL_ERR_CORRUPT, "a peer's message of streams");
    return ECCL_SUCCESS;
}

/* Room in the arena for up to `pieces` streams. */
static unsigned char *arena_room(eccl_set_t *s, int pieces, size_t *cap)
{
    size_t want = (size_t)pieces * s->piece_cap;
    if (s->arena_cap - s->arena_used < want) return NULL;
    *cap = want;
    return s->arena + s->arena_used;
}

/* Sets whose worst case fits one transport piece travel as one message; larger ones stream by
 * stream. Both sides decide from the worst case, which they compute alike. */
static int set_small(const eccl_set_t *s, int pieces) { return (size_t)pieces * s->piece_cap <= ECCL_TR_PIECE; }

int eccl_prim_set_packed(const eccl_set_t *s, int pieces) { return set_small(s, pieces); }

/* The k-th outgoing message of pieces [lo, hi) (one packed message, or one per stream). */
static void set_msg(const eccl_set_t *s, int lo, int k, int packed, const unsigned char *pk, size_t pkbytes,
                    const void **buf, size_t *bytes)
{
    *buf = packed ? pk : s->ptr[lo + k];
    *bytes = packed ? pkbytes : s->size[lo + k];
}

eccl_result_t eccl_prim_set_send(eccl_call_t *c, eccl_set_t *s, int lo, int hi, int peer)
{
    if (!set_small(s, hi - lo)) {
        for (int i = lo; i < hi; i++) {
            eccl_result_t rc = eccl_prim_send(c, s->ptr[i], s->size[i], peer);
            if (rc) return rc;
        }
        return ECCL_SUCCESS;
    }
    const unsigned char *buf;
    size_t bytes;
    eccl_result_t rc = set_pack(c, s, lo, hi, &buf, &bytes);
    return rc ? rc : eccl_prim_send(c, buf, bytes, peer);
}

/* Receive message k of pieces [rlo, rhi) of t from src while sending sbytes at sbuf to dest (< 0:
 * nothing), and split it into its pieces. */
static eccl_result_t set_xchg_in(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest, eccl_set_t *t, int rlo,
                                 int rhi, int k, int src)
{
    const int packed = set_small(t, rhi - rlo);
    size_t cap, got = 0;
    unsigned char *rb = arena_room(t, packed ? rhi - rlo : 1, &cap);
    if (!rb) return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "set arena exhausted");
    eccl_result_t rc = xchg(c, sbuf, sbytes, dest, rb, cap, &got, src);
    if (rc == ECCL_ERR_CORRUPT) rc = ECCL_SUCCESS, got = 0; /* set_unpack reports it */
    if (rc) return rc;
    t->arena_used += got;
    return packed ? set_unpack(c, t, rb, got, rlo, rhi) : set_unpack(c, t, rb, got, rlo + k, rlo + k + 1);
}

eccl_result_t eccl_prim_set_recv(eccl_call_t *c, eccl_set_t *s, int lo, int hi, int peer)
{
    int nin = set_small(s, hi - lo) ? 1 : hi - lo;
    for (int k = 0; k < nin; k++) {
        eccl_result_t rc = set_xchg_in(c, NULL, 0, -1, s, lo, hi, k, peer);
        if (rc) return rc;
    }
    return ECCL_SUCCESS;
}

/* Blocking pairs: the k-th outgoing message is exchanged with the k-th incoming one. */
static eccl_result_t set_sendrecv_paired(eccl_call_t *c, eccl_set_t *s, int slo, int shi, int dest, eccl_set_t *t,
                                         int rlo, int rhi, int src)
{
    int spacked = set_small(s, shi - slo);
    int nout = spacked ? 1 : shi - slo, nin = set_small(t, rhi - rlo) ? 1 : rhi - rlo;
    const unsigned char *pk = NULL;
    size_t pkbytes = 0;
    eccl_result_t rc = ECCL_SUCCESS;
    if (spacked && (rc = set_pack(c, s, slo, shi, &pk, &pkbytes))) return rc;
    for (int k = 0; k < (nout > nin ? nout : nin) && !rc; k++) {
        const void *sb = NULL;
        size_t sbytes = 0;
        if (k < nout) set_msg(s, slo, k, spacked, pk, pkbytes, &sb, &sbytes);
        if (k < nin) rc = set_xchg_in(c, sb, sbytes, k < nout ? dest : -1, t, rlo, rhi, k, src);
        else rc = xchg(c, sb, sbytes, dest, NULL, 0, NULL, -1);
    }
    return rc;
}

eccl_result_t eccl_prim_set_sendrecv(eccl_call_t *c, eccl_set_t *s, int slo, int shi, int dest,
                                     eccl_set_t *t, int rlo, int rhi, int src)
{
    const int ns = shi - slo;
    /* one message each way, or a transport of blocking pairs: exchange pair by pair */
    if (!eccl_prim_posts(c) || (set_small(s, ns) && set_small(t, rhi - rlo)))
        return set_sendrecv_paired(c, s, slo, shi, dest, t, rlo, rhi, src);
    /* Large: every outgoing message is posted first (nonblocking, so no ring of blocked
     * senders can form), then the receive runs in its own mode, then the sends complete. */
    eccl_req_t *reqs = eccl_pool_get(&c->comm->pool, ECCL_SLOT_REQS, (size_t)(ns + 1) * sizeof *reqs);
    if (!reqs) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for requests");
    const int spacked = set_small(s, ns), nout = spacked ? 1 : ns;
    const unsigned char *pk = NULL;
    size_t pkbytes = 0;
    eccl_result_t rc = ECCL_SUCCESS;
    if (spacked && (rc = set_pack(c, s, slo, shi, &pk, &pkbytes))) return rc;
    int nreq = 0;
    for (int k = 0; k < nout && !rc; k++) {
        const void *sb;
        size_t sbytes;
        set_msg(s, slo, k, spacked, pk, pkbytes, &sb, &sbytes);
        if (!(rc = eccl_prim_isend(c, sb, sbytes, dest, &reqs[nreq]))) nreq++;
    }
    if (!rc) rc = eccl_prim_set_recv(c, t, rlo, rhi, src);
    for (int k = 0; k < nreq; k++) {
        eccl_result_t r2 = eccl_prim_wait(c, &reqs[k]);
        rc = rc ? rc : r2;
    }
    return rc;
}
