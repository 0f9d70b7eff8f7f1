/* scatter.c - the binomial scatter of stream sets and the root's pipelined part of it (common.h). */
#include "config.h"

#include <string.h>

#include "coll/common/common.h"

eccl_result_t eccl_coll_scatter_set(eccl_call_t *c, eccl_set_t *s, int root)
{
    int p = c->size, vr = (c->rank - root + p) % p, mask = 1;
    eccl_result_t rc;
    while (mask < p) {
        if (vr & mask) {
            int hi = vr + mask < p ? vr + mask : p;
            if ((rc = eccl_prim_set_recv(c, s, vr, hi, (vr - mask + root) % p))) return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (vr + mask < p) {
            int lo = vr + mask, hi = lo + mask < p ? lo + mask : p;
            if ((rc = eccl_prim_set_send(c, s, lo, hi, (lo + root) % p))) return rc;
        }
    }
    return ECCL_SUCCESS;
}

/* The root's part of eccl_coll_scatter_set (vr = 0: the subtrees [mask, 2 mask) from the largest
 * power of two below p down to 1), each piece compressed just before its subtree goes, and each
 * subtree sent without blocking: the next subtree is compressed while the previous ones travel (on
 * the GPU, MPI progresses while the root waits for its codec). Piece t (position t of the set, rank
 * (t + root) % p) is the `count` elements at at(c, t, &count). A subtree that travels as one
 * message (eccl_prim_set_packed) is compressed stream after stream into one run of the set's
 * storage, which is that message as it stands (no packing copy); a large one goes stream by
 * stream. The set then holds every piece but the root's own (position 0). The sends are left in
 * req[0 .. *nreq) (room for p): the caller completes every one (eccl_prim_wait), also after an
 * error, before the set's storage is reused. Shared with bcast scatter_allgather. */
eccl_result_t eccl_coll_scatter_root(eccl_call_t *c, eccl_set_t *s, const void *(*at)(const eccl_call_t *, int, size_t *),
                                     eccl_req_t *req, int *nreq)
{
    int p = c->size, root = c->root, top = 1;
    while (top < p) top <<= 1;
    *nreq = 0;
    eccl_result_t rc = ECCL_SUCCESS;
    for (int mask = top >> 1; mask > 0 && !rc; mask >>= 1) {
        int lo = mask, hi = lo + mask < p ? lo + mask : p, dest = (lo + root) % p;
        if (lo >= p) continue;
        int packed = eccl_prim_set_packed(s, hi - lo);
        /* pieces lo..hi-1 own (hi - lo) * piece_cap bytes from lo * piece_cap; each stream takes at
         * most piece_cap, so packed back to back they stay inside */
        unsigned char *run = s->own + (size_t)lo * s->piece_cap;
        size_t used = 0, room = (size_t)(hi - lo) * s->piece_cap;
        for (int t = lo; t < hi && !rc; t++) {
            eccl_cbuf_t b = {packed ? run + used : s->own + (size_t)t * s->piece_cap, packed ? room - used : s->piece_cap, 0};
            size_t count = 0;
            const void *data = at(c, t, &count);
            rc = eccl_prim_compress(c, data, count, &b);
            if (rc) break;
            s->ptr[t] = b.buf;
            s->size[t] = b.size;
            used += b.size;
            if (!packed) {
                eccl_req_t r0 = ECCL_REQ_NULL;
                req[*nreq] = r0;
                if (!(rc = eccl_prim_isend(c, b.buf, b.size, dest, &req[*nreq]))) ++*nreq;
            }
        }
        if (!rc && packed) {
            eccl_req_t r0 = ECCL_REQ_NULL;
            req[*nreq] = r0;
            if (!(rc = eccl_prim_isend(c, run, used, dest, &req[*nreq]))) ++*nreq;
        }
    }
    return rc;
}

/* Complete the sends of eccl_coll_scatter_root; the first error of rc and theirs. */
eccl_result_t eccl_coll_scatter_root_wait(eccl_call_t *c, eccl_req_t *req, int nreq, eccl_result_t rc)
{
    for (int k = 0; k < nreq; k++) { /* (every posted send completes, also after an error) */
        eccl_result_t r2 = eccl_prim_wait(c, &req[k]);
        rc = rc ? rc : r2;
    }
    return rc;
}
