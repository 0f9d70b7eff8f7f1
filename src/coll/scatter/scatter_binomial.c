/* scatter_binomial.c - the root compresses one stream per destination; a binomial tree carries
 * each subtree's streams as one message; every rank decompresses its own. */
#include "config.h"

#include <string.h>

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_coll_scatter_set(eccl_call_t *c, eccl_set_t *s, int root);

eccl_result_t eccl_scatter_binomial(eccl_call_t *c)
{
    int p = c->size, root = c->root;
    size_t total = c->count * (size_t)p, bytes = c->count * c->esize;
    eccl_set_t s; /* position t holds the piece of rank (t + root) % p */
    eccl_result_t rc = eccl_prim_set(c, total, p, c->rank == root, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    if (c->rank == root) {
        for (int t = 1; t < p && !rc; t++)
            rc = eccl_prim_set_compress_piece(c, &s, t, (const unsigned char *)c->sendbuf + (size_t)((t + root) % p) * bytes,
                                              c->count);
        if (rc) return rc;
        /* the root's own piece never travels: copy it exactly */
        if (c->recvbuf &&
            (rc = eccl_prim_copy(c, c->recvbuf, (const unsigned char *)c->sendbuf + (size_t)root * bytes, bytes)))
            return rc;
        s.ptr[0] = s.own; /* placeholder so the set is complete; never sent */
        s.size[0] = 0;
    }
    if ((rc = eccl_coll_scatter_set(c, &s, root))) return rc;
    if (c->rank == root) return ECCL_SUCCESS;
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
