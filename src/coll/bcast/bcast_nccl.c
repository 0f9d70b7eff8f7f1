/* bcast_nccl.c - ncclBroadcast of the uncompressed device buffer: for calls that every rank runs
 * device-resident when the NCCL transport is up (a fast link, such as NVLink). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

int eccl_bcast_nccl_applies(const eccl_call_t *c) { return c->nccl; }

eccl_result_t eccl_bcast_nccl(eccl_call_t *c)
{
    double t0 = eccl_wtime();
    eccl_result_t rc = eccl_tr_nccl_bcast(c->comm, c->recvbuf, c->count, c->dtype, c->root);
    c->st->t_network += eccl_wtime() - t0;
    return rc;
}

double eccl_bcast_nccl_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    return eccl_ceil_log2(c->size) * m->nccl_alpha + mdl_bytes(c, c->count) * m->nccl_beta;
}
