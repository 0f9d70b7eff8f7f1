/* bench_bcast.c - eccl_bcast against MPI_Bcast from rank 0: `bytes` is the buffer every rank
 * ends up with; non-roots start with their own (different) data, so a rank the broadcast did not
 * reach fails the check. */
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
    return MPI_Bcast(c->recvbuf, bench_mpi_count(c->count), c->mtype, c->root, c->comm);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_bcast(c->recvbuf, c->count, c->dtype, c->root, bound, c->ecomm);
}

const bench_coll_t bench_bcast = {"bcast", "MPI_Bcast", 0, 1, BENCH_RANGE_ROOT,
                                  counts,  run_mpi,     run_eccl, run_mpi};
