/* bcast_binomial.c - compress once at the root, send the stream down a binomial tree, every
 * receiver forwards it untouched (no recompression) and decompresses it. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

/* Broadcast the stream in *s from root along a binomial tree; receivers get it in *s (whose
 * capacity must hold it). Forwarding overlaps: sends to children are posted together. */
eccl_result_t eccl_coll_bcast_stream(eccl_call_t *c, int root, eccl_cbuf_t *s)
{
    int p = c->size, vr = (c->rank - root + p) % p, mask = 1;
    eccl_result_t rc = ECCL_SUCCESS;
    while (mask < p) {
        if (vr & mask) {
            rc = eccl_prim_recv_stream(c, (vr - mask + root) % p, s);
            if (rc) return rc;
            break;
        }
        mask <<= 1;
    }
    eccl_req_t req[32];
    int nreq = 0;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < p) {
            rc = eccl_prim_isend(c, s->buf, s->size, (vr + mask + root) % p, &req[nreq++]);
            if (rc) break;
        }
    }
    for (int k = 0; k < nreq; k++) {
        eccl_result_t r2 = eccl_prim_wait(c, &req[k]);
        rc = rc ? rc : r2;
    }
    return rc;
}

eccl_result_t eccl_bcast_binomial(eccl_call_t *c)
{
    eccl_cbuf_t s;
    eccl_result_t rc = eccl_prim_cbuf(c, ECCL_SLOT_WORK, c->count, &s);
    if (rc) return rc;
    if (c->rank == c->root && (rc = eccl_prim_compress(c, c->recvbuf, c->count, &s))) return rc;
    if ((rc = eccl_coll_bcast_stream(c, c->root, &s))) return rc;
    if (c->rank != c->root) rc = eccl_prim_decompress(c, s.buf, s.size, c->recvbuf, c->count);
    return rc;
}

double eccl_bcast_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    return mdl_compress(m, n) + eccl_ceil_log2(c->size) * mdl_net(m, n / ratio) + mdl_decompress(m, n);
}
