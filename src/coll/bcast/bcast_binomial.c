/* bcast_binomial.c - compress once at the root, send the stream down a binomial tree, every
 * receiver forwards it untouched (no recompression) and decompresses it. Where the transport moves
 * device memory (NCCL), a device-resident call keeps the stream on the GPU throughout. */
#include "config.h"

#include "coll/common/common.h"

static eccl_result_t binomial_dev(eccl_call_t *c)
{
    eccl_dstream_t s;
    eccl_result_t rc = ECCL_SUCCESS;
    eccl_prim_dstream(c, c->count, &s);
    if (c->rank == c->root && (rc = eccl_prim_compress_dev(c, c->recvbuf, c->count, &s))) return rc;
    if ((rc = eccl_coll_bcast_dev_stream(c, c->root, &s))) return rc;
    if (c->rank != c->root) rc = eccl_prim_decompress_dev(c, &s, c->recvbuf, c->count);
    return rc;
}

eccl_result_t eccl_bcast_binomial(eccl_call_t *c)
{
    if (eccl_prim_dev_streams(c)) return binomial_dev(c);
    eccl_cbuf_t s;
    eccl_result_t rc = eccl_prim_cbuf(c, ECCL_SLOT_WORK, c->count, &s);
    if (rc) return rc;
    if (c->rank == c->root && (rc = eccl_prim_compress(c, c->recvbuf, c->count, &s))) return rc;
    if ((rc = eccl_coll_bcast_stream(c, c->root, &s))) return rc;
    if (c->rank != c->root) rc = eccl_prim_decompress(c, s.buf, s.size, c->recvbuf, c->count);
    return rc;
}

double eccl_bcast_binomial_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    if (mdl_dev_streams(c)) /* the stream stays on the GPUs: no PCIe copy priced */
        return mdl_compress_dev(m, n) + eccl_ceil_log2(c->size) * mdl_net_dev(m, n / ratio) + mdl_decompress_dev(m, n);
    return mdl_compress(m, n) + eccl_ceil_log2(c->size) * mdl_net(m, n / ratio) + mdl_decompress(m, n);
}
