/* bench_reduce.c - eccl_reduce against MPI_Reduce to rank 0: `bytes` is each rank's vector; only
 * the root holds a result to check. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    (void)nranks;
    out->count = bytes / esize;
    out->nsend = out->count;
    out->nrecv = rank == root ? out->count : 0;
    out->bytes = out->count * esize;
}

static int run_mpi(const bench_call_t *c)
{
    return MPI_Reduce(c->sendbuf, c->recvbuf, bench_mpi_count(c->count), c->mtype, c->mop, c->root,
                      c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_reduce(c->sendbuf, c->recvbuf, c->count, c->dtype, c->op, c->root, bound, c->ecomm);
}

const bench_coll_t bench_reduce = {"reduce", "MPI_Reduce", 1,       0,       BENCH_RANGE_ALL,
                                   counts,   run_mpi,      run_eccl, run_mpi};
