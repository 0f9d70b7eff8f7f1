/* reduce_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_reduce_mpi(eccl_call_t *c)
{
    return eccl_tr_reduce(c->comm, c->sendbuf == c->recvbuf ? MPI_IN_PLACE : c->sendbuf, c->recvbuf,
                          c->count, c->dtype, c->op, c->root);
}

/* MPICH's choice, roughly: binomial or reduce-scatter + gather */
double eccl_reduce_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count);
    double bin = lg * (mdl_net(m, n) + mdl_reduce(m, n));
    double rab = 2 * lg * m->alpha + 2.0 * (p - 1) / p * n * m->beta + (double)(p - 1) / p * mdl_reduce(m, n);
    return bin < rab ? bin : rab;
}
