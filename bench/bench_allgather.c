/* bench_allgather.c - eccl_allgather against MPI_Allgather: `bytes` is the gathered result
 * (p pieces); each rank contributes one piece. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    (void)rank, (void)root;
    out->count = bytes / esize / (size_t)nranks;
    out->nsend = out->count;
    out->nrecv = out->count * (size_t)nranks;
    out->bytes = out->nrecv * esize;
}

static int run_mpi(const bench_call_t *c)
{
    int n = bench_mpi_count(c->count);
    return MPI_Allgather(c->sendbuf, n, c->mtype, c->recvbuf, n, c->mtype, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_allgather(c->sendbuf, c->recvbuf, c->count, c->dtype, bound, c->ecomm);
}

const bench_coll_t bench_allgather = {"allgather", "MPI_Allgather", 0,       0,
                                      BENCH_RANGE_ALL, counts,      run_mpi, run_eccl,
                                      run_mpi};
