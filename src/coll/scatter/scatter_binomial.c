/* scatter_binomial.c - the root compresses one stream per destination; a binomial tree carries
 * each subtree's streams (one message, or one per stream when they are large); every rank
 * decompresses its own. The root compresses subtree after subtree, in the order it sends them, and
 * sends each without blocking: the transfers of one subtree overlap the compression of the next
 * (eccl_coll_scatter_root in coll/common/scatter.c, which bcast scatter_allgather's root runs too). */
#include "config.h"

#include <string.h>

#include "coll/common/common.h"

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
