/* sendrecv_replace_compressed.c - Cannon's shift: compress, exchange streams, decompress. */
#include "config.h"

#include "codec/format.h"
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
    if (rc) return rc;
    /* the sender compressed with its own bound: a receiver that asked for a tighter absolute one
     * refuses the stream rather than return values outside its bound (pairwise: no agreement) */
    double eb_in = in.size >= ECCL_FMT_HEADER_SIZE ? eccl_u64_as_f64(eccl_ld64(in.buf + ECCL_HDR_EB)) : 0.0;
    if (eb_in > c->eb_recv_max) {
        return eccl_comm_error(c->comm, ECCL_ERR_MISMATCH,
                               "sendrecv_replace: rank %d's stream has the bound %.17g, larger than this rank's %.17g",
                               c->source, eb_in, c->eb_recv_max);
    }
    return eccl_prim_decompress(c, in.buf, in.size, c->recvbuf, c->count);
}

double eccl_sendrecv_replace_compressed_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    double n = mdl_bytes(c, c->count);
    return mdl_compress(m, n) + mdl_net(m, n / ratio) + mdl_decompress(m, n);
}
