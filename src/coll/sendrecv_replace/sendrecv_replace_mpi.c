/* sendrecv_replace_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_sendrecv_replace_mpi(eccl_call_t *c)
{
    return eccl_tr_sendrecv_replace(c->comm, c->recvbuf, c->count, c->dtype, c->dest, c->sendtag,
                                    c->source, c->recvtag);
}

/* MPICH's choice, roughly: one exchange */
double eccl_sendrecv_replace_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    (void)p, (void)lg;
    return mdl_net(m, mdl_bytes(c, c->count));
}
