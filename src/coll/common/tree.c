/* tree.c - binomial trees of one stream: broadcast, and reduce with homomorphic combination
 * (common.h). */
#include "config.h"

#include "coll/common/common.h"

/* This rank's place in the binomial tree rooted at root: its parent (-1 at the root) and its
 * children in sending order (largest subtree first); returns how many children. */
static int tree_links(const eccl_call_t *c, int root, int *parent, int kids[32])
{
    int p = c->size, vr = (c->rank - root + p) % p, mask = 1, n = 0;
    *parent = -1;
    while (mask < p) {
        if (vr & mask) {
            *parent = (vr - mask + root) % p;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < p) kids[n++] = (vr + mask + root) % p;
    return n;
}

/* Broadcast the stream in *s from root along a binomial tree; receivers get it in *s (whose
 * capacity must hold it). Forwarding overlaps: sends to children are posted together. */
eccl_result_t eccl_coll_bcast_stream(eccl_call_t *c, int root, eccl_cbuf_t *s)
{
    int parent, kids[32], n = tree_links(c, root, &parent, kids);
    eccl_result_t rc = parent >= 0 ? eccl_prim_recv_stream(c, parent, s) : ECCL_SUCCESS;
    if (rc) return rc;
    eccl_req_t req[32];
    int nreq = 0;
    for (int k = 0; k < n && !rc; k++) rc = eccl_prim_isend(c, s->buf, s->size, kids[k], &req[nreq++]);
    for (int k = 0; k < nreq; k++) {
        eccl_result_t r2 = eccl_prim_wait(c, &req[k]);
        rc = rc ? rc : r2;
    }
    return rc;
}

eccl_result_t eccl_coll_bcast_dev_stream(eccl_call_t *c, int root, eccl_dstream_t *s)
{
    int parent, kids[32], n = tree_links(c, root, &parent, kids);
    eccl_result_t rc = parent >= 0 ? eccl_prim_dev_recv(c, parent, s) : ECCL_SUCCESS;
    if (rc) return rc;
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
