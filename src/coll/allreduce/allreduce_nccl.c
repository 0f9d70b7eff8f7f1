/* allreduce_nccl.c - ncclAllReduce of the uncompressed device buffers: for calls that every rank
 * runs device-resident when the NCCL transport is up (a fast link, such as NVLink, where
 * compression cannot pay). SUM only: eccl's MAX/MIN rules for NaN and signed zeros are not NCCL's. */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

int eccl_allreduce_nccl_applies(const eccl_call_t *c) { return c->nccl && c->op == ECCL_OP_SUM; }

eccl_result_t eccl_allreduce_nccl(eccl_call_t *c)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_nccl_allreduce(c->comm, c->sendbuf, c->recvbuf, c->count, c->dtype);
    c->st->t_network += eccl_wtime() - t0;
    return rc;
}

double eccl_allreduce_nccl_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    double p = c->size, n = mdl_bytes(c, c->count);
    return 2.0 * (p - 1) * m->nccl_alpha + 2.0 * (p - 1) / p * n * m->nccl_beta;
}
