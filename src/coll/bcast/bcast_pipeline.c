/* bcast_pipeline.c - a chain from the root; the buffer travels as k chunks, each compressed
 * separately by the root and forwarded by every rank as soon as it arrives, so compression,
 * transfer and decompression of different chunks overlap along the chain. Over MPI a relay posts
 * the receive of chunk j+1 before it decompresses chunk j, and sends are nonblocking (three
 * stream buffers in turn); on device buffers MPI progresses while the host waits for the GPU. */
#include "config.h"

#include "coll/model.h"
#include "core/log.h"
#include "prims/prims.h"

/* Chunks: the model's best k among powers of two, with chunks of at least one 64 KiB. Every rank
 * computes it from the same inputs (count, ranks, model, the ratio the root broadcast). */
static int chunks(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int forced = eccl_coll_chunks_forced(); /* ECCL_CHUNKS */
    if (forced > 0) return (size_t)forced < c->count ? forced : (int)c->count;
    double n = mdl_bytes(c, c->count), best = 0;
    int kbest = 1;
    if (!(ratio > 0)) ratio = 4.0;
    for (int k = 1; k <= 4096; k *= 2) {
        if (k > 1 && n / k < 65536.0) break;
        double s = n / k, stage = mdl_stage(m, s / ratio);
        double codec = mdl_compress(m, s) > mdl_decompress(m, s) ? mdl_compress(m, s) : mdl_decompress(m, s);
        /* as the cost below: a stage lasts as long as its slower half (a chunk's GPU codec
         * operation has a fixed launch + sync cost, which keeps device chunks large) */
        double t = (k + c->size - 2) * (stage > codec ? stage : codec) + mdl_compress(m, s) + mdl_decompress(m, s);
        if (k == 1 || t < best) {
            best = t;
            kbest = k;
        }
    }
    return kbest;
}

eccl_result_t eccl_bcast_pipeline(eccl_call_t *c)
{
    int p = c->size, vr = (c->rank - c->root + p) % p;
    int next = vr + 1 < p ? (c->rank + 1) % p : -1, prev = vr > 0 ? (c->rank - 1 + p) % p : -1;
    int k = chunks(mdl_of(c), c, c->st->model_ratio);
    const int pairs = !eccl_prim_posts(c); /* blocking exchanges (NCCL): nothing is posted ahead */
    size_t lo0, len0;
    eccl_piece(c->count, k, 0, &lo0, &len0);
    ECCL_LOG(2, c->rank, "bcast pipeline: %d chunks of up to %zu elements", k, len0);
    eccl_cbuf_t buf[3];
    eccl_req_t req[3] = {ECCL_REQ_NULL, ECCL_REQ_NULL, ECCL_REQ_NULL}, rreq[3] = {ECCL_REQ_NULL, ECCL_REQ_NULL, ECCL_REQ_NULL};
    eccl_result_t rc = eccl_prim_cbuf(c, ECCL_SLOT_WORK, len0, &buf[0]);
    if (!rc) rc = eccl_prim_cbuf(c, ECCL_SLOT_RECV, len0, &buf[1]);
    if (!rc) rc = eccl_prim_cbuf(c, ECCL_SLOT_RECV2, len0, &buf[2]);
    /* chunk j lives in buf[j % 3]: before it is filled, the send of chunk j - 3 must be done */
    if (!rc && prev >= 0 && !pairs) rc = eccl_prim_irecv_stream(c, prev, &buf[0], &rreq[0]);
    for (int j = 0; j < k && !rc; j++) {
        size_t lo, len;
        eccl_piece(c->count, k, j, &lo, &len);
        eccl_cbuf_t *b = &buf[j % 3];
        unsigned char *data = (unsigned char *)c->recvbuf + lo * c->esize;
        if (prev < 0) {
            if (!(rc = eccl_prim_wait(c, &req[j % 3]))) rc = eccl_prim_compress(c, data, len, b);
        } else if (pairs) {
            if (!(rc = eccl_prim_wait(c, &req[j % 3]))) rc = eccl_prim_recv_stream(c, prev, b);
        } else {
            rc = eccl_prim_wait_stream(c, &rreq[j % 3], b);
        }
        if (!rc && next >= 0) rc = eccl_prim_isend(c, b->buf, b->size, next, &req[j % 3]);
        if (!rc && prev >= 0 && !pairs && j + 1 < k) { /* the next chunk arrives while this one decodes */
            int s = (j + 1) % 3;
            if (!(rc = eccl_prim_wait(c, &req[s]))) rc = eccl_prim_irecv_stream(c, prev, &buf[s], &rreq[s]);
        }
        if (!rc && prev >= 0) rc = eccl_prim_decompress(c, b->buf, b->size, data, len);
    }
    for (int i = 0; i < 3; i++) {
        eccl_prim_cancel(c, &rreq[i]); /* only after an error */
        eccl_result_t r2 = eccl_prim_wait(c, &req[i]);
        rc = rc ? rc : r2;
    }
    return rc;
}

double eccl_bcast_pipeline_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int k = chunks(m, c, ratio);
    double s = mdl_bytes(c, c->count) / k;
    double stage = mdl_stage(m, s / ratio);
    double codec = mdl_compress(m, s) > mdl_decompress(m, s) ? mdl_compress(m, s) : mdl_decompress(m, s);
    return (k + c->size - 2) * (stage > codec ? stage : codec) + mdl_compress(m, s) + mdl_decompress(m, s);
}
