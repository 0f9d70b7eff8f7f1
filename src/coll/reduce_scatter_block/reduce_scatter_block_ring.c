/* reduce_scatter_block_ring.c - the homomorphic ring reduce-scatter, arranged so that each rank
 * ends with its own block, which it decompresses. */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_reduce_scatter_block_ring(eccl_call_t *c)
{
    eccl_cbuf_t fin;
    size_t total = c->count * (size_t)c->size;
    eccl_result_t rc = eccl_coll_ring_reduce_scatter(c, c->sendbuf, total, 1, &fin);
    return rc ? rc : eccl_prim_decompress(c, fin.buf, fin.size, c->recvbuf, c->count);
}

double eccl_reduce_scatter_block_ring_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    int p = c->size;
    double piece = mdl_bytes(c, c->count);
    return mdl_compress(m, piece) + (p - 1) * (mdl_net(m, piece / ratio) + mdl_hom(m, piece)) +
           mdl_decompress(m, piece);
}
