/* bench_scatter.c - eccl_scatter against MPI_Scatter from rank 0: `bytes` is the root's buffer
 * (p pieces); each rank gets one piece. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    out->count = bytes / esize / (size_t)nranks;
    out->nsend = rank == root ? out->count * (size_t)nranks : 0;
    out->nrecv = out->count;
    out->bytes = out->count * (size_t)nranks * esize;
}

static int run_mpi(const bench_call_t *c)
{
    int n = bench_mpi_count(c->count);
    return MPI_Scatter(c->sendbuf, n, c->mtype, c->recvbuf, n, c->mtype, c->root, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_scatter(c->sendbuf, c->recvbuf, c->count, c->dtype, c->root, bound, c->ecomm);
}

const bench_coll_t bench_scatter = {"scatter", "MPI_Scatter", 0,       0,       BENCH_RANGE_ROOT,
                                    counts,    run_mpi,       run_eccl, run_mpi};
