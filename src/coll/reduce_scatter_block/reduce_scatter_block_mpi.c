/* reduce_scatter_block_mpi.c - the uncompressed MPI collective (baseline, small messages, fallback). */
#include "config.h"

#include "coll/model.h"
#include "prims/prims.h"

eccl_result_t eccl_reduce_scatter_block_mpi(eccl_call_t *c)
{
    return eccl_tr_reduce_scatter_block(c->comm, c->sendbuf, c->recvbuf, c->count, c->dtype, c->op);
}

/* MPICH's choice, roughly: pairwise or recursive halving */
double eccl_reduce_scatter_block_mpi_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    (void)ratio;
    int p = c->size, lg = eccl_ceil_log2(p);
    double n = mdl_bytes(c, c->count * (size_t)p);
    (void)lg;
    return (p - 1) * m->alpha + (double)(p - 1) / p * (n * m->beta + mdl_reduce(m, n));
}
