/* bcast_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_bcast_mpi(eccl_call_t *c)
{
    return eccl_tr_bcast(c->comm, c->recvbuf, c->count, c->dtype, c->root);
}

/* MPICH's choice, roughly: binomial tree or scatter + ring allgather */
double eccl_bcast_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count);
    double binomial = lg * mdl_net(m, n);
    double scatter_ag = (lg + p - 1) * m->alpha + 2.0 * (p - 1) / p * n * m->beta;
    (void)lg;
    return binomial < scatter_ag ? binomial : scatter_ag;
}
