/*
 * prims.c - the compressed primitives (prims.h): codec calls timed as codec, transport calls
 * timed as network, buffers from the communicator's pool. Streams live in host memory (except in
 * the device-stream primitives, which keep them in the GPU context's buffers: prims.h);
 * the data the codec reads and writes is host memory, or device memory when the call runs
 * device-resident (c->dev.here): then the GPU codec of the communicator works on it and only the
 * compressed streams cross PCIe (cuda/device.h). Both codecs make the same bytes, so ranks whose
 * buffers live in different places still exchange the same streams.
 */
#include "config.h"

#include <string.h>

#include "codec/codec.h"
#include "codec/format.h"
#include "cuda/device.h"
#include "core/dtype.h"
#include "prims/internal.h"

static void add_codec(eccl_call_t *c, double t0) { c->st->t_codec += eccl_wtime() - t0; }

/* The same for a device-resident codec operation that succeeded, which also tells the cost model
 * what the operation cost beyond its `count` elements at the GPU codec's calibrated throughput and,
 * for a decompression or a homomorphic SUM, beyond what its kind costs more than a compression
 * (kind: 0 compress, 1 decompress, 2 homomorphic; core/comm.h eccl_gpu_observe): the latency of a
 * compression, which the views add each kind's calibrated excess to (core/model.h). */
static void add_codec_dev(eccl_call_t *c, double t0, size_t count, int kind)
{
    double dt = eccl_wtime() - t0;
    c->st->t_codec += dt;
    const eccl_models_t *md = &c->comm->models;
    double thr = md->gpu_thr[eccl_dtype_traits(c->dtype)->is64 ? 1 : 0][kind];
    eccl_gpu_observe(c->comm, dt - (double)count * (double)c->esize / thr - eccl_models_gpu_extra(md, kind));
}

void eccl_prim_sent(eccl_call_t *c, const void *buf, size_t bytes)
{
    c->st->bytes_sent += bytes;
    const unsigned char *b = buf;
    size_t off = 0;
    uint64_t raw = 0;
    while (c->st->compressed && bytes - off >= ECCL_FMT_HEADER_SIZE && !memcmp(b + off, "ECCL", 4)) {
        uint64_t count, size;
        memcpy(&count, b + off + ECCL_HDR_COUNT, 8);
        memcpy(&size, b + off + ECCL_HDR_SIZE, 8);
        if (size < ECCL_FMT_HEADER_SIZE || size > bytes - off) break;
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
    if (!c->lay.m || !c->dev.here || q < base || q >= base + c->count * c->esize) return p;
    buf->m = c->lay.m;
    buf->ld = c->lay.ld;
    buf->first = (size_t)(q - base) / c->esize;
    *lay = buf;
    return base;
}

eccl_result_t eccl_prim_compress(eccl_call_t *c, const void *data, size_t count, eccl_cbuf_t *out)
{
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->dev.here) {
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        const void *at = eccl_prim_at(c, data, &lb, &lay);
        rc = eccl_dev_compress(c->comm->gpu.ctx, at, lay, count, c->dtype, &c->mbound, out->buf, out->cap, &out->size);
    } else {
        rc = eccl_compress_fmt(data, count, c->dtype, &c->mbound, out->buf, out->cap, &out->size, ECCL_PATH_AUTO,
                               c->comm->cfg.format);
    }
    if (c->dev.here && !rc) add_codec_dev(c, t0, count, 0);
    else add_codec(c, t0);
    return rc ? codec_fail(c, rc, "compress") : ECCL_SUCCESS;
}

eccl_result_t eccl_prim_corrupt(eccl_call_t *c, eccl_result_t rc, const char *what)
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
    void *at = c->dev.here ? (void *)eccl_prim_at(c, data, &lb, &lay) : data;
    eccl_result_t rc = c->dev.here ? eccl_dev_decompress(c->comm->gpu.ctx, s, size, at, lay, count, c->dtype)
                              : eccl_decompress(s, size, data, count, c->dtype);
    if (c->dev.here && !rc) add_codec_dev(c, t0, count, 1);
    else add_codec(c, t0);
    if (rc) {
        /* NaNs, rather than whatever was half decoded */
        if (c->dev.here) eccl_dev_fill_nan(c->comm->gpu.ctx, at, lay, count, c->dtype);
        else memset(data, 0xFF, count * c->esize);
        return eccl_prim_corrupt(c, rc, "decompressing a peer's stream");
    }
    return ECCL_SUCCESS;
}

/* ---- device-resident streams (the network side is in net.c) ---- */

void eccl_prim_dstream(const eccl_call_t *c, size_t count, eccl_dstream_t *s)
{
    s->d = NULL;
    s->size = 0;
    s->count = count;
    s->cap = eccl_compress_bound(count, c->dtype);
}

eccl_result_t eccl_prim_compress_dev(eccl_call_t *c, const void *data, size_t count, eccl_dstream_t *s)
{
    double t0 = eccl_wtime();
    eccl_dev_layout_t lb;
    const eccl_dev_layout_t *lay;
    const void *at = eccl_prim_at(c, data, &lb, &lay);
    eccl_prim_dstream(c, count, s);
    eccl_result_t rc = eccl_dev_compress_keep(c->comm->gpu.ctx, at, lay, count, c->dtype, &c->mbound, &s->d, &s->size);
    if (!rc) add_codec_dev(c, t0, count, 0);
    else add_codec(c, t0);
    return rc ? codec_fail(c, rc, "compress") : ECCL_SUCCESS;
}

eccl_result_t eccl_prim_decompress_dev(eccl_call_t *c, const eccl_dstream_t *s, void *data, size_t count)
{
    double t0 = eccl_wtime();
    eccl_dev_layout_t lb;
    const eccl_dev_layout_t *lay = NULL;
    void *at = (void *)eccl_prim_at(c, data, &lb, &lay);
    /* (an empty stream, after a receive that failed validation, is refused by the decoder) */
    eccl_result_t rc = s->d ? eccl_dev_decompress_dev(c->comm->gpu.ctx, s->d, s->size, at, lay, count, c->dtype)
                            : ECCL_ERR_CORRUPT;
    if (!rc) add_codec_dev(c, t0, count, 1);
    else add_codec(c, t0);
    if (rc) {
        eccl_dev_fill_nan(c->comm->gpu.ctx, at, lay, count, c->dtype);
        return eccl_prim_corrupt(c, rc, "decompressing a peer's stream");
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_reduce(eccl_call_t *c, const unsigned char *in, size_t in_size,
                               const void *local, size_t count, eccl_cbuf_t *out)
{
    double t0 = eccl_wtime();
    eccl_result_t rc;
    if (c->dev.here) { /* the GPU kernels take every type and op eccl_hom_reduce takes */
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        const void *at = eccl_prim_at(c, local, &lb, &lay);
        rc = eccl_dev_hom_reduce(c->comm->gpu.ctx, in, in_size, at, lay, count, c->dtype, c->op, out->buf, out->cap,
                                    &out->size);
    } else {
        rc = eccl_hom_reduce(in, in_size, local, count, c->dtype, c->op, out->buf, out->cap, &out->size);
    }
    if (c->dev.here && !rc) add_codec_dev(c, t0, count, 2);
    else add_codec(c, t0);
    if (rc == ECCL_ERR_CORRUPT || rc == ECCL_ERR_MISMATCH) {
        eccl_result_t r2 = eccl_prim_compress(c, local, count, out); /* carry on with our own data */
        return r2 ? r2 : eccl_prim_corrupt(c, rc, "homomorphic reduction of a peer's stream");
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
        return eccl_prim_corrupt(c, rc, "homomorphic combination with a peer's stream");
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
    if (c->dev.here) /* algorithms that reduce raw values are ECCL_ALG_HOST_DATA: never device-resident */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "local reduction of device data");
    double t0 = eccl_wtime();
    eccl_codec_reduce_values(c->dtype, c->op, inout, in, count);
    add_codec(c, t0);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_prim_copy(eccl_call_t *c, void *dst, const void *src, size_t bytes)
{
    if (dst == src || bytes == 0) return ECCL_SUCCESS;
    if (c->lay.m && c->dev.here) /* the algorithms a matrix call runs in place (ECCL_ALG_VIEW) copy nothing */
        return eccl_comm_error(c->comm, ECCL_ERR_INTERNAL, "raw copy in a matrix call");
    if (!c->dev.here) {
        memmove(dst, src, bytes);
        return ECCL_SUCCESS;
    }
    eccl_result_t rc = eccl_dev_copy(c->comm->gpu.ctx, dst, src, bytes);
    return rc ? codec_fail(c, rc, "copying device data") : ECCL_SUCCESS;
}
