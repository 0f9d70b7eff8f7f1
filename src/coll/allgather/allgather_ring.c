/* allgather_ring.c - compress the local piece once, forward streams around the ring untouched,
 * decompress all p pieces (the own one too, so every rank holds identical values). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allgather_ring(eccl_call_t *c)
{
    int p = c->size, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
    size_t total = c->count * (size_t)p;
    eccl_set_t s;
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (!rc) rc = eccl_prim_set_compress_piece(c, &s, r, c->sendbuf, c->count);
    for (int k = 0; k < p - 1 && !rc; k++) {
        int sp = ((r - k) % p + p) % p, rp = ((r - k - 1) % p + p) % p;
        rc = eccl_prim_set_sendrecv(c, &s, sp, sp + 1, right, &s, rp, rp + 1, left);
    }
    return rc ? rc : eccl_prim_set_decompress(c, &s, c->recvbuf, total, 0, p);
}

double eccl_allgather_ring_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double piece = mdl_bytes(c, c->count);
    return mdl_compress(m, piece) + (p - 1) * mdl_net(m, piece / ratio) + mdl_decompress(m, piece * p);
}
