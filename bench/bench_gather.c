/* bench_gather.c - eccl_gather against MPI_Gather to rank 0: `bytes` is the root's result
 * (p pieces); each rank contributes one piece. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    out->count = bytes / esize / (size_t)nranks;
    out->nsend = out->count;
    out->nrecv = rank == root ? out->count * (size_t)nranks : 0;
    out->bytes = out->count * (size_t)nranks * esize;
}

static int run_mpi(const bench_call_t *c)
{
    int n = bench_mpi_count(c->count);
    return MPI_Gather(c->sendbuf, n, c->mtype, c->recvbuf, n, c->mtype, c->root, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_gather(c->sendbuf, c->recvbuf, c->count, c->dtype, c->root, bound, c->ecomm);
}

const bench_coll_t bench_gather = {"gather", "MPI_Gather", 0,       0,       BENCH_RANGE_ALL,
                                   counts,   run_mpi,      run_eccl, run_mpi};
