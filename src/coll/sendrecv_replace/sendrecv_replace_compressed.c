/* sendrecv_replace_compressed.c - Cannon's shift: compress, exchange streams, decompress. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_sendrecv_replace_compressed(eccl_call_t *c)
{
    eccl_cbuf_t out, in;
    eccl_result_t rc = eccl_prim_cbuf(c, ECCL_SLOT_WORK, c->count, &out);
    if (!rc) rc = eccl_prim_cbuf(c, ECCL_SLOT_RECV, c->count, &in);
    if (rc) return rc;
    if (c->dest != MPI_PROC_NULL && (rc = eccl_prim_compress(c, c->recvbuf, c->count, &out))) return rc;
    if (c->dest == MPI_PROC_NULL && c->source == MPI_PROC_NULL) return ECCL_SUCCESS;
    if (c->dest == MPI_PROC_NULL) rc = eccl_prim_recv_stream(c, c->source, &in);
    else if (c->source == MPI_PROC_NULL) return eccl_prim_send(c, out.buf, out.size, c->dest);
    else rc = eccl_prim_sendrecv_stream(c, out.buf, out.size, c->dest, c->source, &in);
    return rc ? rc : eccl_prim_decompress(c, in.buf, in.size, c->recvbuf, c->count);
}

double eccl_sendrecv_replace_compressed_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    return mdl_compress(m, n) + mdl_net(m, n / ratio) + mdl_decompress(m, n);
}
