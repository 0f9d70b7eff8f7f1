/* allreduce_reduce_bcast.c - for small counts: homomorphic binomial reduce to rank 0, then the
 * result stream goes down a binomial tree (forwarded, never recompressed). */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_allreduce_reduce_bcast(eccl_call_t *c)
{
    eccl_cbuf_t s;
    eccl_result_t rc = eccl_coll_reduce_stream(c, c->sendbuf, 0, &s);
    if (!rc) rc = eccl_coll_bcast_stream(c, 0, &s);
    if (!rc) rc = eccl_prim_decompress(c, s.buf, s.size, c->recvbuf, c->count);
    return rc;
}

double eccl_allreduce_reduce_bcast_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    int lg = eccl_ceil_log2(c->size);
    return mdl_compress(m, n) + lg * (mdl_net(m, n / ratio) + mdl_combine(m, n)) +
           lg * mdl_net(m, n / ratio) + mdl_decompress(m, n);
}
