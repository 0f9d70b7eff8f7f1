/* bench_reduce_scatter_block.c - eccl_reduce_scatter_block against MPI_Reduce_scatter_block:
 * `bytes` is each rank's whole input (p blocks); each rank gets one reduced block. */
#include "config.h"

#include "bench/harness.h"

static void counts(size_t bytes, size_t esize, int nranks, int rank, int root, bench_counts_t *out)
{
    (void)rank, (void)root;
    out->count = bytes / esize / (size_t)nranks;
    out->nsend = out->count * (size_t)nranks;
    out->nrecv = out->count;
    out->bytes = out->nsend * esize;
}

static int run_mpi(const bench_call_t *c)
{
    return MPI_Reduce_scatter_block(c->sendbuf, c->recvbuf, bench_mpi_count(c->count), c->mtype,
                                    c->mop, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_reduce_scatter_block(c->sendbuf, c->recvbuf, c->count, c->dtype, c->op, bound,
                                     c->ecomm);
}

const bench_coll_t bench_reduce_scatter_block = {
    "reduce_scatter_block", "MPI_Reduce_scatter_block", 1, 0, BENCH_RANGE_ALL, counts, run_mpi,
    run_eccl, run_mpi};
