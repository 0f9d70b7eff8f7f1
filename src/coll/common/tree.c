/* tree.c - binomial trees of one stream: broadcast, and reduce with homomorphic combination
 * (common.h). */
#include "config.h"

#include "coll/common/common.h"

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

eccl_result_t eccl_coll_bcast_dev_stream(eccl_call_t *c, int root, eccl_dstream_t *s)
{
    int p = c->size, vr = (c->rank - root + p) % p, mask = 1;
    while (mask < p) {
        if (vr & mask) {
            eccl_result_t rc = eccl_prim_dev_recv(c, (vr - mask + root) % p, s);
            if (rc) return rc;
            break;
        }
        mask <<= 1;
    }
    int kids[32], n = 0;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p) kids[n++] = (vr + mask + root) % p;
    return n ? eccl_prim_dev_send(c, s, kids, n) : ECCL_SUCCESS;
}

/* Reduce every rank's `data` to a stream at `root`: on return the root's *result points at it
 * (a buffer of the pool). */
eccl_result_t eccl_coll_reduce_stream(eccl_call_t *c, const void *data, int root, eccl_cbuf_t *result)
{
    int p = c->size, vr = (c->rank - root + p) % p, cur = 0;
    eccl_cbuf_t b[3];
    const int slots[3] = {ECCL_SLOT_WORK, ECCL_SLOT_RECV, ECCL_SLOT_RECV2};
    eccl_result_t rc = ECCL_SUCCESS;
    for (int i = 0; i < 3 && !rc; i++) rc = eccl_prim_cbuf(c, slots[i], c->count, &b[i]);
    if (!rc) rc = eccl_prim_compress(c, data, c->count, &b[cur]);
    for (int mask = 1; mask < p && !rc; mask <<= 1) {
        if (vr & mask) {
            rc = eccl_prim_send(c, b[cur].buf, b[cur].size, (vr - mask + root) % p);
            break;
        }
        if (vr + mask < p) {
            int in = (cur + 1) % 3, out = (cur + 2) % 3;
            rc = eccl_prim_recv_stream(c, (vr + mask + root) % p, &b[in]);
            if (!rc) rc = eccl_prim_combine(c, b[cur].buf, b[cur].size, b[in].buf, b[in].size, &b[out]);
            cur = out;
        }
    }
    *result = b[cur];
    return rc;
}
