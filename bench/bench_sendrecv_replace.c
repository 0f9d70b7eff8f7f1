/* bench_sendrecv_replace.c - eccl_sendrecv_replace against MPI_Sendrecv_replace: every rank
 * sends its buffer of `bytes` to rank + 1 and replaces it with rank - 1's (a ring shift, the
 * step of Cannon's algorithm). */
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
    return MPI_Sendrecv_replace(c->recvbuf, bench_mpi_count(c->count), c->mtype, c->dest, 0,
                                c->source, 0, c->comm, MPI_STATUS_IGNORE);
}

static eccl_result_t run_eccl(const bench_call_t *c, const eccl_bound_t *bound)
{
    return eccl_sendrecv_replace(c->recvbuf, c->count, c->dtype, c->dest, 0, c->source, 0, bound,
                                 c->ecomm);
}

const bench_coll_t bench_sendrecv_replace = {"sendrecv_replace", "MPI_Sendrecv_replace", 0, 1,
                                             BENCH_RANGE_SOURCE, counts, run_mpi, run_eccl,
                                             run_mpi};
