/* scatter_binomial.c - the root compresses one stream per destination; a binomial tree carries
 * each subtree's streams (one message, or one per stream when they are large); every rank
 * decompresses its own. The root compresses subtree after subtree, in the order it sends them, and
 * sends each without blocking: the transfers of one subtree overlap the compression of the next
 * (eccl_coll_scatter_root, which bcast scatter_allgather's root runs too). */
#include "config.h"

#include <string.h>

#include "coll/model.h"
#include "prims/prims.h"

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

/* Piece t of a scatter: the block of rank (t + root) % p. */
static const void *scatter_piece(const eccl_call_t *c, int t, size_t *count)
{
    *count = c->count;
    return (const unsigned char *)c->sendbuf + (size_t)((t + c->root) % c->size) * c->count * c->esize;
}

eccl_result_t eccl_scatter_binomial(eccl_call_t *c)
{
    int p = c->size, root = c->root;
    size_t total = c->count * (size_t)p, bytes = c->count * c->esize;
    eccl_set_t s; /* position t holds the piece of rank (t + root) % p */
    eccl_result_t rc = eccl_prim_set(c, total, p, c->rank == root, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    if (c->rank == root) {
        eccl_req_t *req = eccl_prim_scratch(c, (size_t)p * sizeof *req);
        if (!req) return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "scatter: no memory for %d requests", p);
        int nreq = 0;
        rc = eccl_coll_scatter_root(c, &s, scatter_piece, req, &nreq);
        /* the root's own piece never travels: copy it exactly (while the last streams travel) */
        if (!rc && c->recvbuf)
            rc = eccl_prim_copy(c, c->recvbuf, (const unsigned char *)c->sendbuf + (size_t)root * bytes, bytes);
        return eccl_coll_scatter_root_wait(c, req, nreq, rc);
    }
    if ((rc = eccl_coll_scatter_set(c, &s, root))) return rc;
    int vr = (c->rank - root + p) % p;
    return eccl_prim_decompress(c, s.ptr[vr], s.size[vr], c->recvbuf, c->count);
}

double eccl_scatter_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double n = mdl_bytes(c, c->count * (size_t)p);
    return mdl_compress(m, n) + eccl_ceil_log2(p) * m->alpha + (double)(p - 1) / p * n / ratio * m->beta +
           mdl_decompress(m, n / p);
}
