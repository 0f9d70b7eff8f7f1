/* allreduce_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allreduce_mpi(eccl_call_t *c)
{
    return eccl_tr_allreduce(c->comm, c->sendbuf == c->recvbuf ? MPI_IN_PLACE : c->sendbuf, c->recvbuf,
                             c->count, c->dtype, c->op);
}

/* MPICH's choice, roughly: recursive doubling or Rabenseifner */
double eccl_allreduce_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count);
    double rd = lg * (mdl_net(m, n) + mdl_reduce(m, n));
    double rab = 2 * lg * m->alpha + 2.0 * (p - 1) / p * n * m->beta + (double)(p - 1) / p * mdl_reduce(m, n);
    return rd < rab ? rd : rab;
}
