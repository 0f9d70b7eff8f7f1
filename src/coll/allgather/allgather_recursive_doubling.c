/* allgather_recursive_doubling.c - log2(p) exchanges of growing sets of streams with partners
 * rank ^ 2^k (power-of-two rank counts; the table restricts it). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allgather_recursive_doubling(eccl_call_t *c)
{
    int p = c->size, r = c->rank;
    size_t total = c->count * (size_t)p;
    eccl_set_t s;
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (!rc) rc = eccl_prim_set_compress_piece(c, &s, r, c->sendbuf, c->count);
    for (int mask = 1; mask < p && !rc; mask <<= 1) {
        int partner = r ^ mask, mine = r & ~(mask - 1), theirs = partner & ~(mask - 1);
        rc = eccl_prim_set_sendrecv(c, &s, mine, mine + mask, partner, &s, theirs, theirs + mask, partner);
    }
    return rc ? rc : eccl_prim_set_decompress(c, &s, c->recvbuf, total, 0, p);
}

double eccl_allgather_recursive_doubling_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double piece = mdl_bytes(c, c->count);
    return mdl_compress(m, piece) + eccl_ceil_log2(p) * m->alpha + (p - 1) * piece / ratio * m->beta +
           mdl_decompress(m, piece * p);
}
