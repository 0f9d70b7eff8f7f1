/* reduce_binomial.c - binomial tree toward the root; each rank compresses its data once and
 * combines its children's streams homomorphically before passing the result up. */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_reduce_binomial(eccl_call_t *c)
{
    eccl_cbuf_t s;
    eccl_result_t rc = eccl_coll_reduce_stream(c, c->sendbuf, c->root, &s);
    if (!rc && c->rank == c->root) rc = eccl_prim_decompress(c, s.buf, s.size, c->recvbuf, c->count);
    return rc;
}

double eccl_reduce_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    return mdl_compress(m, n) + eccl_ceil_log2(c->size) * (mdl_net(m, n / ratio) + mdl_combine(m, n)) +
           mdl_decompress(m, n);
}
