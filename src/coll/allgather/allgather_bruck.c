/* allgather_bruck.c - Bruck's allgather on streams: position t of this rank's set is the piece
 * of rank (rank + t) % p; step k sends positions [0, cnt) to rank - 2^k and receives positions
 * [2^k, 2^k + cnt) from rank + 2^k. log2(p) steps for any p. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allgather_bruck(eccl_call_t *c)
{
    int p = c->size, r = c->rank;
    size_t total = c->count * (size_t)p;
    eccl_set_t s;
    eccl_result_t rc = eccl_prim_set(c, total, p, 1, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    /* position 0 is our own piece (all pieces have the same size, so any slot fits it) */
    if ((rc = eccl_prim_set_compress_piece(c, &s, 0, c->sendbuf, c->count))) return rc;
    for (int dist = 1; dist < p && !rc; dist <<= 1) {
        int cnt = dist < p - dist ? dist : p - dist;
        rc = eccl_prim_set_sendrecv(c, &s, 0, cnt, (r - dist + p) % p, &s, dist, dist + cnt, (r + dist) % p);
    }
    for (int t = 0; t < p && !rc; t++) {
        unsigned char *dst = (unsigned char *)c->recvbuf + (size_t)((r + t) % p) * c->count * c->esize;
        rc = eccl_prim_decompress(c, s.ptr[t], s.size[t], dst, c->count);
    }
    return rc;
}

double eccl_allgather_bruck_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double piece = mdl_bytes(c, c->count);
    return mdl_compress(m, piece) + eccl_ceil_log2(p) * m->alpha + (p - 1) * piece / ratio * m->beta +
           mdl_decompress(m, piece * p);
}
