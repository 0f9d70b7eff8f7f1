/* bench_allreduce.c - eccl_allreduce against MPI_Allreduce: `bytes` is each rank's vector. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    (void)nranks, (void)rank, (void)root;
    out->count = bytes / esize;
    out->nsend = out->nrecv = out->count;
    out->bytes = out->count * esize;
}

static int run_mpi(const bench_call_t *c)
{
    return MPI_Allreduce(c->sendbuf, c->recvbuf, bench_mpi_count(c->count), c->mtype, c->mop, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_allreduce(c->sendbuf, c->recvbuf, c->count, c->dtype, c->op, bound, c->ecomm);
}

const bench_coll_t bench_allreduce = {"allreduce", "MPI_Allreduce", 1,       0,
                                      BENCH_RANGE_ALL, counts,      run_mpi, run_eccl,
                                      run_mpi};
