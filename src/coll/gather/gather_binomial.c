/* gather_binomial.c - each rank compresses its piece once; a binomial tree collects subtrees'
 * streams as one message each; the root decompresses everyone's piece (its own stays exact). */
#include "config.h"

#include <string.h>

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_gather_binomial(eccl_call_t *c)
{
    int p = c->size, root = c->root, vr = (c->rank - root + p) % p;
    size_t total = c->count * (size_t)p, bytes = c->count * c->esize;
    eccl_set_t s; /* position t holds the piece of rank (t + root) % p */
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    if (vr != 0 && (rc = eccl_prim_set_compress_piece(c, &s, vr, c->sendbuf, c->count))) return rc;
    int mask = 1;
    for (; mask < p; mask <<= 1) {
        if (vr & mask) {
            int hi = vr + mask < p ? vr + mask : p;
            return eccl_prim_set_send(c, &s, vr, hi, (vr - mask + root) % p);
        }
        if (vr + mask < p) {
            int lo = vr + mask, hi = lo + mask < p ? lo + mask : p;
            if ((rc = eccl_prim_set_recv(c, &s, lo, hi, (lo + root) % p))) return rc;
        }
    }
    /* the root */
    unsigned char *own = (unsigned char *)c->recvbuf + (size_t)root * bytes;
    rc = eccl_prim_copy(c, own, c->sendbuf, bytes);
    for (int t = 1; t < p && !rc; t++)
        rc = eccl_prim_decompress(c, s.ptr[t], s.size[t], (unsigned char *)c->recvbuf + (size_t)((t + root) % p) * bytes,
                                  c->count);
    return rc;
}

double eccl_gather_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double n = mdl_bytes(c, c->count * (size_t)p);
    return mdl_compress(m, n / p) + eccl_ceil_log2(p) * m->alpha + (double)(p - 1) / p * n / ratio * m->beta +
           mdl_decompress(m, n);
}
