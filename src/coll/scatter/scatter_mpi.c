/* scatter_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_scatter_mpi(eccl_call_t *c)
{
    return eccl_tr_scatter(c->comm, c->sendbuf, c->recvbuf ? c->recvbuf : MPI_IN_PLACE, c->count, c->dtype,
                           c->root);
}

/* MPICH's choice, roughly: binomial */
double eccl_scatter_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count * (size_t)p);
    return lg * m->alpha + (double)(p - 1) / p * n * m->beta;
}
