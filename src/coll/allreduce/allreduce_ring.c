/* allreduce_ring.c - homomorphic ring: reduce-scatter where each step combines the received
 * stream with the local piece in the compressed domain (no decompress-operate-compress), then an
 * allgather that forwards the final streams untouched; every rank decompresses the same p
 * streams, so results are identical everywhere. */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_allreduce_ring(eccl_call_t *c)
{
    int p = c->size, r = c->rank, right = (r + 1) % p, left = (r - 1 + p) % p;
    eccl_cbuf_t fin;
    eccl_set_t s;
    eccl_result_t rc = eccl_coll_ring_reduce_scatter(c, c->sendbuf, c->count, 0, &fin);
    if (!rc) rc = eccl_prim_set(c, c->count, p, 0, ECCL_SLOT_PIECES, ECCL_SLOT_PIECES2, &s);
    if (rc) return rc;
    int mine = (r + 1) % p;
    s.ptr[mine] = fin.buf;
    s.size[mine] = fin.size;
    for (int k = 0; k < p - 1; k++) {
        int sp = ((mine - k) % p + p) % p, rp = ((mine - k - 1) % p + p) % p;
        if ((rc = eccl_prim_set_sendrecv(c, &s, sp, sp + 1, right, &s, rp, rp + 1, left))) return rc;
    }
    return eccl_prim_set_decompress(c, &s, c->recvbuf, c->count, 0, p);
}

double eccl_allreduce_ring_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double n = mdl_bytes(c, c->count), piece = n / p;
    return mdl_compress(m, piece) + (p - 1) * (mdl_net(m, piece / ratio) + mdl_hom(m, piece)) +
           (p - 1) * mdl_net(m, piece / ratio) + mdl_decompress(m, n);
}
