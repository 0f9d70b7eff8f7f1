/*
 * prims.c - the compressed primitives (prims.h): codec calls timed as codec, transport calls
 * timed as network, buffers from the communicator's pool. Streams always live in host memory;
 * the data the codec reads and writes is host memory, or device memory when the call runs
 * device-resident (c->dev): then the GPU codec of the communicator works on it and only the
 * compressed streams cross PCIe (cuda/device.h). Both codecs make the same bytes, so ranks whose
 * buffers live in different places still exchange the same streams.
 */
#include "config.h"

#include <string.h>

#include "codec/codec.h"
#include "cuda/device.h"
#include "prims/prims.h"

static void add_codec(eccl_call_t *c, double t0) { c->st->t_codec += eccl_wtime() - t0; }
static void add_net(eccl_call_t *c, double t0) { c->st->t_network += eccl_wtime() - t0; }

/* Statistics of one outgoing message: bytes_sent, and bytes_raw = what it carries uncompressed
 * (the count of every stream in it, walking back-to-back streams by their header sizes; bytes
 * that are not a stream count as themselves). */
static void sent(eccl_call_t *c, const void *buf, size_t bytes)
{
    c->st->bytes_sent += bytes;
    const unsigned char *b = buf;
    size_t off = 0;
    uint64_t raw = 0;
    while (c->st->compressed && bytes - off >= 64 && !memcmp(b + off, "ECCL", 4)) {
        uint64_t count, size;
        memcpy(&count, b + off + 16, 8);
        memcpy(&size, b + off + 48, 8);
        if (size < 64 || size > bytes - off) break;
        raw += count * c->esize;
        off += (size_t)size;
    }
    c->st->bytes_raw += raw + (bytes - off);
}

static eccl_result_t codec_fail(eccl_call_t *c, eccl_result_t rc, const char *what)
{
    return eccl_comm_error(c->comm, rc, "%s: %s", what, eccl_strerror(rc));
}

/* ---- buffers ---- */

eccl_result_t eccl_prim_cbuf(eccl_call_t *c, int slot, size_t count, eccl_cbuf_t *b)
{
    size_t cap = eccl_compress_bound(count, c->dtype);
    b->buf = eccl_pool_get(&c->comm->pool, slot, cap);
    b->cap = cap;
    b->size = 0;
    return b->buf ? ECCL_SUCCESS : eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for %zu bytes", cap);
}

void *eccl_prim_scratch(eccl_call_t *c, size_t bytes)
{
    return eccl_pool_get(&c->comm->pool, ECCL_SLOT_TMP, bytes);
}

eccl_result_t eccl_prim_set(eccl_call_t *c, size_t total, int npieces, int with_own, int slot,
                            int slot_arena, eccl_set_t *s)
{
    size_t lo, len;
    eccl_piece(total, npieces, 0, &lo, &len); /* piece 0 is the largest */
    size_t pcap = eccl_compress_bound(len, c->dtype);
    size_t meta = (size_t)npieces * (sizeof(*s->ptr) + sizeof(*s->size));
    /* rounded up so that the pointer and size arrays after the streams are aligned */
    size_t owncap = with_own ? ((size_t)npieces * pcap + 63) & ~(size_t)63 : 0;
    /* own streams, then the pointer and size arrays */
    unsigned char *own = eccl_pool_get(&c->comm->pool, slot, owncap + meta + 64);
    unsigned char *arena = eccl_pool_get(&c->comm->pool, slot_arena, (size_t)npieces * pcap);
    if (!own || !arena) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for %d pieces", npieces);
    s->n = npieces;
    s->own = own;
    s->arena = arena;
    s->piece_cap = pcap;
    s->arena_cap = (size_t)npieces * pcap;
    s->arena_used = 0;
    s->ptr = (const unsigned char **)(own + owncap);
    s->size = (size_t *)(s->ptr + npieces);
    for (int i = 0; i < npieces; i++) {
        s->ptr[i] = NULL;
        s->size[i] = 0;
    }
    return ECCL_SUCCESS;
}

/* ---- codec ---- */

const void *eccl_prim_at(const eccl_call_t *c, const void *p, eccl_dev_layout_t *buf, const eccl_dev_layout_t **lay)
{
    *lay = NULL;
    const unsigned char *base = c->recvbuf, *q = p;
    if (!c->lay_m || !c->dev || q < base || q >= base + c->count * c->esize) return p;
    buf->m = c->lay_m;
    buf->ld = c->lay_ld;
    buf->first = (size_t)(q - base) / c->esize;
    *lay = buf;
    return base;
}

eccl_result_t eccl_prim_compress(eccl_call_t *c, const void *data, size_t count, eccl_cbuf_t *out)
{
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->dev) {
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        const void *at = eccl_prim_at(c, data, &lb, &lay);
        rc = eccl_dev_compress(c->comm->dev, at, lay, count, c->dtype, &c->mbound, out->buf, out->cap, &out->size);
    } else {
        rc = eccl_compress(data, count, c->dtype, &c->mbound, out->buf, out->cap, &out->size);
    }
    add_codec(c, t0);
    return rc ? codec_fail(c, rc, "compress") : ECCL_SUCCESS;
}

/* A peer's stream failed validation: remember it, and let the call go on with a substitute so
 * that no rank waits forever for a message this one will now not send. */
static eccl_result_t corrupt(eccl_call_t *c, eccl_result_t rc, const char *what)
{
    if (rc != ECCL_ERR_CORRUPT && rc != ECCL_ERR_MISMATCH && rc != ECCL_ERR_UNSUPPORTED)
        return codec_fail(c, rc, what);
    if (!c->err) {
        c->err = ECCL_ERR_CORRUPT;
        eccl_comm_error(c->comm, ECCL_ERR_CORRUPT, "%s: %s", what, eccl_strerror(rc));
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_decompress(eccl_call_t *c, const unsigned char *s, size_t size, void *data,
                                   size_t count)
{
    double t0 = eccl_wtime();
    eccl_dev_layout_t lb;
    const eccl_dev_layout_t *lay = NULL;
    void *at = c->dev ? (void *)eccl_prim_at(c, data, &lb, &lay) : data;
    eccl_result_t rc = c->dev ? eccl_dev_decompress(c->comm->dev, s, size, at, lay, count, c->dtype)
                              : eccl_decompress(s, size, data, count, c->dtype);
    add_codec(c, t0);
    if (rc) {
        /* NaNs, rather than whatever was half decoded */
        if (c->dev) eccl_dev_fill_nan(c->comm->dev, at, lay, count, c->dtype);
        else memset(data, 0xFF, count * c->esize);
        return corrupt(c, rc, "decompressing a peer's stream");
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_reduce(eccl_call_t *c, const unsigned char *in, size_t in_size,
                               const void *local, size_t count, eccl_cbuf_t *out)
{
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->dev) { /* the GPU kernels take every type and op eccl_hom_reduce takes */
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        const void *at = eccl_prim_at(c, local, &lb, &lay);
        rc = eccl_dev_hom_reduce(c->comm->dev, in, in_size, at, lay, count, c->dtype, c->op, out->buf, out->cap,
                                    &out->size);
    } else {
        rc = eccl_hom_reduce(in, in_size, local, count, c->dtype, c->op, out->buf, out->cap, &out->size);
    }
    add_codec(c, t0);
    if (rc == ECCL_ERR_CORRUPT || rc == ECCL_ERR_MISMATCH) {
        eccl_result_t r2 = eccl_prim_compress(c, local, count, out); /* carry on with our own data */
        return r2 ? r2 : corrupt(c, rc, "homomorphic reduction of a peer's stream");
    }
    return rc ? codec_fail(c, rc, "homomorphic reduction of a peer's stream") : ECCL_SUCCESS;
}

eccl_result_t eccl_prim_combine(eccl_call_t *c, const unsigned char *a, size_t a_size,
                                const unsigned char *b, size_t b_size, eccl_cbuf_t *out)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_hom_combine(a, a_size, b, b_size, c->op, out->buf, out->cap, &out->size);
    add_codec(c, t0);
    if (rc == ECCL_ERR_CORRUPT || rc == ECCL_ERR_MISMATCH) {
        /* carry on with whichever input is sound (ours, `a`, in every algorithm) */
        eccl_stream_info_t info;
        const unsigned char *keep = eccl_stream_info(a, a_size, &info) == ECCL_SUCCESS ? a : b;
        size_t ksize = keep == a ? a_size : b_size;
        if (ksize > out->cap) ksize = out->cap;
        memmove(out->buf, keep, ksize);
        out->size = ksize;
        return corrupt(c, rc, "homomorphic combination with a peer's stream");
    }
    return rc ? codec_fail(c, rc, "homomorphic combination of streams") : ECCL_SUCCESS;
}

eccl_result_t eccl_prim_set_compress(eccl_call_t *c, eccl_set_t *s, const void *data, size_t total,
                                     int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        size_t off, len;
        eccl_piece(total, s->n, i, &off, &len);
        eccl_cbuf_t b = {s->own + (size_t)i * s->piece_cap, s->piece_cap, 0};
        eccl_result_t rc = eccl_prim_compress(c, (const unsigned char *)data + off * c->esize, len, &b);
        if (rc) return rc;
        s->ptr[i] = b.buf;
        s->size[i] = b.size;
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_set_compress_piece(eccl_call_t *c, eccl_set_t *s, int i, const void *data,
                                           size_t count)
{
    eccl_cbuf_t b = {s->own + (size_t)i * s->piece_cap, s->piece_cap, 0};
    eccl_result_t rc = eccl_prim_compress(c, data, count, &b);
    s->ptr[i] = b.buf;
    s->size[i] = b.size;
    return rc;
}

void eccl_prim_set_keep(eccl_set_t *s, int i)
{
    unsigned char *own = s->own + (size_t)i * s->piece_cap;
    if (s->ptr[i] && s->ptr[i] != own) memmove(own, s->ptr[i], s->size[i]);
    for (int k = 0; k < s->n; k++)
        if (k != i) s->ptr[k] = NULL, s->size[k] = 0;
    if (s->ptr[i]) s->ptr[i] = own;
    s->arena_used = 0;
}

eccl_result_t eccl_prim_set_decompress(eccl_call_t *c, const eccl_set_t *s, void *data,
                                       size_t total, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        size_t off, len;
        eccl_piece(total, s->n, i, &off, &len);
        if (!s->ptr[i]) return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "piece %d missing", i);
        eccl_result_t rc = eccl_prim_decompress(c, s->ptr[i], s->size[i],
                                                (unsigned char *)data + off * c->esize, len);
        if (rc) return rc;
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_set_combine(eccl_call_t *c, eccl_set_t *s, const eccl_set_t *t, int lo, int hi)
{
    /* the result cannot overwrite its own input: go through the work slot, then copy into place */
    for (int i = lo; i < hi; i++) {
        eccl_cbuf_t out;
        out.buf = eccl_pool_get(&c->comm->pool, ECCL_SLOT_WORK, s->piece_cap);
        out.cap = s->piece_cap;
        if (!out.buf) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory to combine");
        eccl_result_t rc = eccl_prim_combine(c, s->ptr[i], s->size[i], t->ptr[i], t->size[i], &out);
        if (rc) return rc;
        unsigned char *dst = s->own + (size_t)i * s->piece_cap;
        memcpy(dst, out.buf, out.size);
        s->ptr[i] = dst;
        s->size[i] = out.size;
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_local_reduce(eccl_call_t *c, void *inout, const void *in, size_t count)
{
    if (c->dev) /* algorithms that reduce raw values are ECCL_ALG_HOST_DATA: never device-resident */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "local reduction of device data");
    double t0 = eccl_wtime();
    eccl_codec_reduce_values(c->dtype, c->op, inout, in, count);
    add_codec(c, t0);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_copy(eccl_call_t *c, void *dst, const void *src, size_t bytes)
{
    if (dst == src || bytes == 0) return ECCL_SUCCESS;
    if (c->lay_m && c->dev) /* the algorithms a matrix call runs in place (ECCL_ALG_VIEW) copy nothing */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "raw copy in a matrix call");
    if (!c->dev) {
        memmove(dst, src, bytes);
        return ECCL_SUCCESS;
    }
    eccl_result_t rc = eccl_dev_copy(c->comm->dev, dst, src, bytes);
    return rc ? codec_fail(c, rc, "copying device data") : ECCL_SUCCESS;
}

/* ---- network ---- */

/* NCCL (c->nccl_streams): every exchange is blocking and complete on return (transport/nccl.c); the
 * patterns of the algorithms (paired exchanges, trees, chains) need no more. */
static eccl_result_t nccl_xchg(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                               size_t *rgot, int src)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_nccl_sendrecv(c->comm, sbuf, sbytes, dest, rbuf, rcap, rgot, src);
    add_net(c, t0);
    if (dest >= 0) sent(c, sbuf, sbytes);
    return rc;
}

eccl_result_t eccl_prim_send(eccl_call_t *c, const void *buf, size_t bytes, int peer)
{
    if (c->nccl_streams) return nccl_xchg(c, buf, bytes, peer, NULL, 0, NULL, -1);
    eccl_req_t r;
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_isend(c->comm, buf, bytes, peer, ECCL_TAG, &r);
    if (!rc) rc = eccl_tr_wait(c->comm, &r, NULL);
    add_net(c, t0);
    sent(c, buf, bytes);
    return rc;
}

eccl_result_t eccl_prim_isend(eccl_call_t *c, const void *buf, size_t bytes, int peer, eccl_req_t *r)
{
    if (c->nccl_streams) { /* sent now; the request is already complete */
        r->n = 0;
        r->owned = NULL;
        return nccl_xchg(c, buf, bytes, peer, NULL, 0, NULL, -1);
    }
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_isend(c->comm, buf, bytes, peer, ECCL_TAG, r);
    add_net(c, t0);
    sent(c, buf, bytes);
    return rc;
}

eccl_result_t eccl_prim_wait(eccl_call_t *c, eccl_req_t *r)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_wait(c->comm, r, NULL);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_recv(eccl_call_t *c, void *buf, size_t bytes, int peer)
{
    if (c->nccl_streams) /* raw exchanges serve ECCL_ALG_HOST_DATA algorithms: never on NCCL */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "raw receive on the NCCL transport");
    eccl_req_t r;
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_irecv(c->comm, buf, bytes, peer, ECCL_TAG, &r);
    if (!rc) rc = eccl_tr_wait(c->comm, &r, NULL);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_recv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b)
{
    eccl_req_t r;
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->nccl_streams) {
        rc = eccl_tr_nccl_sendrecv(c->comm, NULL, 0, -1, b->buf, b->cap, &b->size, peer);
    } else {
        rc = eccl_tr_irecv_stream(c->comm, b->buf, b->cap, peer, ECCL_TAG, &r);
        if (!rc) rc = eccl_tr_wait(c->comm, &r, &b->size);
    }
    add_net(c, t0);
    if (rc == ECCL_ERR_CORRUPT) { /* an oversized or inconsistent message: an empty stream */
        b->size = 0;
        return corrupt(c, rc, "receiving a peer's stream");
    }
    return rc;
}

eccl_result_t eccl_prim_irecv_stream(eccl_call_t *c, int peer, eccl_cbuf_t *b, eccl_req_t *r)
{
    if (c->nccl_streams)
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "nonblocking receive on the NCCL transport");
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_irecv_stream(c->comm, b->buf, b->cap, peer, ECCL_TAG, r);
    add_net(c, t0);
    return rc;
}

eccl_result_t eccl_prim_wait_stream(eccl_call_t *c, eccl_req_t *r, eccl_cbuf_t *b)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_wait(c->comm, r, &b->size);
    add_net(c, t0);
    if (rc == ECCL_ERR_CORRUPT) { /* an oversized or inconsistent message: an empty stream */
        b->size = 0;
        return corrupt(c, rc, "receiving a peer's stream");
    }
    return rc;
}

void eccl_prim_cancel(eccl_call_t *c, eccl_req_t *r)
{
    if (r->n) eccl_tr_cancel(c->comm, r);
}

eccl_result_t eccl_prim_sendrecv_stream(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                        int src, eccl_cbuf_t *rb)
{
    if (c->nccl_streams) {
        eccl_result_t rc = nccl_xchg(c, sbuf, sbytes, dest, rb->buf, rb->cap, &rb->size, src);
        if (rc == ECCL_ERR_CORRUPT) {
            rb->size = 0;
            return corrupt(c, rc, "receiving a peer's stream");
        }
        return rc;
    }
    eccl_req_t rs, rr;
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_irecv_stream(c->comm, rb->buf, rb->cap, src, ECCL_TAG, &rr);
    if (!rc) rc = eccl_tr_isend(c->comm, sbuf, sbytes, dest, ECCL_TAG, &rs);
    if (!rc) rc = eccl_tr_wait(c->comm, &rs, NULL);
    eccl_result_t rc2 = rc ? rc : eccl_tr_wait(c->comm, &rr, &rb->size);
    add_net(c, t0);
    sent(c, sbuf, sbytes);
    if (!rc && rc2 == ECCL_ERR_CORRUPT) {
        rb->size = 0;
        return corrupt(c, rc2, "receiving a peer's stream");
    }
    return rc ? rc : rc2;
}

eccl_result_t eccl_prim_sendrecv(eccl_call_t *c, const void *sbuf, size_t sbytes, int dest,
                                 void *rbuf, size_t rbytes, int src)
{
    if (c->nccl_streams) /* raw exchanges serve ECCL_ALG_HOST_DATA algorithms: never on NCCL */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "raw exchange on the NCCL transport");
    eccl_req_t rs, rr;
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_irecv(c->comm, rbuf, rbytes, src, ECCL_TAG, &rr);
    if (!rc) rc = eccl_tr_isend(c->comm, sbuf, sbytes, dest, ECCL_TAG, &rs);
    if (!rc) rc = eccl_tr_wait(c->comm, &rs, NULL);
    if (!rc) rc = eccl_tr_wait(c->comm, &rr, NULL);
    add_net(c, t0);
    sent(c, sbuf, sbytes);
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
    unsigned char *buf = eccl_pool_get(&c->comm->pool, ECCL_SLOT_SEND, total);
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
    static const unsigned char invalid[64]; /* not a stream: forwarded and rejected downstream */
    size_t off = 0;
    int bad = 0;
    for (int i = lo; i < hi; i++) {
        uint64_t sz = 0;
        if (!bad && bytes - off >= 64) memcpy(&sz, buf + off + 48, 8);
        if (bad || bytes - off < 64 || sz < 64 || sz > bytes - off || sz > s->piece_cap) {
            bad = 1;
            s->ptr[i] = invalid;
            s->size[i] = sizeof invalid;
            continue;
        }
        s->ptr[i] = buf + off;
        s->size[i] = (size_t)sz;
        off += (size_t)sz;
    }
    if (bad || off != bytes) return corrupt(c, ECCL_ERR_CORRUPT, "a peer's message of streams");
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

/* One message of at most cap <= ECCL_TR_PIECE bytes, its size from the MPI status. */
static eccl_result_t recv_msg(eccl_call_t *c, void *buf, size_t cap, int peer, eccl_req_t *r)
{
    return eccl_tr_irecv_stream(c->comm, buf, cap, peer, ECCL_TAG, r);
}

eccl_result_t eccl_prim_set_recv(eccl_call_t *c, eccl_set_t *s, int lo, int hi, int peer)
{
    size_t cap, got = 0;
    unsigned char *buf = arena_room(s, hi - lo, &cap);
    if (!buf) return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "set arena exhausted");
    if (!set_small(s, hi - lo)) {
        for (int i = lo; i < hi; i++) {
            eccl_cbuf_t b = {s->arena + s->arena_used, s->piece_cap, 0};
            eccl_result_t rc = eccl_prim_recv_stream(c, peer, &b);
            if (rc) return rc;
            if ((rc = set_unpack(c, s, b.buf, b.size, i, i + 1))) return rc;
            s->arena_used += b.size;
        }
        return ECCL_SUCCESS;
    }
    eccl_req_t r;
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->nccl_streams) {
        rc = eccl_tr_nccl_sendrecv(c->comm, NULL, 0, -1, buf, cap, &got, peer);
    } else {
        rc = recv_msg(c, buf, cap, peer, &r);
        if (!rc) rc = eccl_tr_wait(c->comm, &r, &got);
    }
    add_net(c, t0);
    if (rc == ECCL_ERR_CORRUPT) rc = ECCL_SUCCESS, got = 0; /* set_unpack reports it */
    if (rc) return rc;
    s->arena_used += got;
    return set_unpack(c, s, buf, got, lo, hi);
}

/* NCCL: the i-th outgoing message (one packed message, or one stream per piece, as on MPI) is
 * exchanged with the i-th incoming one in one blocking pair; every rank of these symmetric
 * patterns has as many of each, so the pairs match up. */
static eccl_result_t nccl_set_sendrecv(eccl_call_t *c, eccl_set_t *s, int slo, int shi, int dest, eccl_set_t *t,
                                       int rlo, int rhi, int src)
{
    int spacked = set_small(s, shi - slo), rpacked = set_small(t, rhi - rlo);
    int nout = spacked ? 1 : shi - slo, nin = rpacked ? 1 : rhi - rlo;
    const unsigned char *pk = NULL;
    size_t pkbytes = 0;
    eccl_result_t rc = ECCL_SUCCESS;
    if (spacked && (rc = set_pack(c, s, slo, shi, &pk, &pkbytes))) return rc;
    for (int i = 0; i < (nout > nin ? nout : nin) && !rc; i++) {
        const void *sb = NULL;
        size_t sbytes = 0, cap = 0, got = 0;
        if (i < nout) {
            sb = spacked ? pk : s->ptr[slo + i];
            sbytes = spacked ? pkbytes : s->size[slo + i];
        }
        unsigned char *rb = NULL;
        if (i < nin && !(rb = arena_room(t, rpacked ? rhi - rlo : 1, &cap)))
            return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "set arena exhausted");
        rc = nccl_xchg(c, sb, sbytes, i < nout ? dest : -1, rb, cap, &got, i < nin ? src : -1);
        if (rc == ECCL_ERR_CORRUPT) rc = ECCL_SUCCESS, got = 0; /* set_unpack reports it */
        if (rc || i >= nin) continue;
        t->arena_used += got;
        rc = rpacked ? set_unpack(c, t, rb, got, rlo, rhi) : set_unpack(c, t, rb, got, rlo + i, rlo + i + 1);
    }
    return rc;
}

eccl_result_t eccl_prim_set_sendrecv(eccl_call_t *c, eccl_set_t *s, int slo, int shi, int dest,
                                     eccl_set_t *t, int rlo, int rhi, int src)
{
    eccl_result_t rc = ECCL_SUCCESS;
    size_t cap, got = 0;
    unsigned char *rbuf = arena_room(t, rhi - rlo, &cap);
    if (!rbuf) return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "set arena exhausted");
    if (c->nccl_streams) return nccl_set_sendrecv(c, s, slo, shi, dest, t, rlo, rhi, src);
    if (set_small(s, shi - slo) && set_small(t, rhi - rlo)) {
        const unsigned char *sbuf;
        size_t sbytes;
        if ((rc = set_pack(c, s, slo, shi, &sbuf, &sbytes))) return rc;
        eccl_req_t rs, rr;
        double t0 = eccl_wtime();
        rc = recv_msg(c, rbuf, cap, src, &rr);
        if (!rc) rc = eccl_tr_isend(c->comm, sbuf, sbytes, dest, ECCL_TAG, &rs);
        if (!rc) rc = eccl_tr_wait(c->comm, &rs, NULL);
        if (!rc) rc = eccl_tr_wait(c->comm, &rr, &got);
        add_net(c, t0);
        sent(c, sbuf, sbytes);
        if (rc == ECCL_ERR_CORRUPT) rc = ECCL_SUCCESS, got = 0; /* set_unpack reports it */
        if (rc) return rc;
        t->arena_used += got;
        return set_unpack(c, t, rbuf, got, rlo, rhi);
    }
    /* Large: every outgoing message is posted first (nonblocking, so no ring of blocked
     * senders can form), then the receive runs in its own mode, then the sends complete. */
    int ns = shi - slo;
    eccl_req_t *reqs = eccl_pool_get(&c->comm->pool, ECCL_SLOT_REQS, (size_t)(ns + 1) * sizeof *reqs);
    if (!reqs) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "no memory for requests");
    int nreq = 0;
    double t0 = eccl_wtime();
    if (set_small(s, ns)) {
        const unsigned char *sbuf;
        size_t sbytes;
        if ((rc = set_pack(c, s, slo, shi, &sbuf, &sbytes))) return rc;
        rc = eccl_tr_isend(c->comm, sbuf, sbytes, dest, ECCL_TAG, &reqs[nreq++]);
        sent(c, sbuf, sbytes);
    } else {
        for (int i = slo; i < shi && !rc; i++) {
            rc = eccl_tr_isend(c->comm, s->ptr[i], s->size[i], dest, ECCL_TAG, &reqs[nreq++]);
            sent(c, s->ptr[i], s->size[i]);
        }
    }
    add_net(c, t0);
    if (!rc) rc = eccl_prim_set_recv(c, t, rlo, rhi, src);
    t0 = eccl_wtime();
    for (int k = 0; k < nreq; k++) {
        eccl_result_t r2 = eccl_tr_wait(c->comm, &reqs[k], NULL);
        rc = rc ? rc : r2;
    }
    add_net(c, t0);
    return rc;
}
