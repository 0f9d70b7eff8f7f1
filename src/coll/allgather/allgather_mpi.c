/* allgather_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_allgather_mpi(eccl_call_t *c)
{
    const void *own = (const char *)c->recvbuf + (size_t)c->rank * c->count * c->esize;
    return eccl_tr_allgather(c->comm, c->sendbuf == own ? MPI_IN_PLACE : c->sendbuf, c->recvbuf, c->count,
                             c->dtype);
}

/* MPICH's choice, roughly: recursive doubling or ring */
double eccl_allgather_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count * (size_t)p);
    double ring = (p - 1) * m->alpha + (double)(p - 1) / p * n * m->beta;
    double rd = lg * m->alpha + (double)(p - 1) / p * n * m->beta;
    return rd < ring ? rd : ring;
}
