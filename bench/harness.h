/*
 * harness.h - the shared harness of bench/bench_coll: every collective is one file
 * bench/bench_<coll>.c that fills a bench_coll_t (nccl-tests' struct testColl): how to size its
 * buffers, how to run it through eccl and as the plain MPI collective, and how to compute the
 * exact result the error check compares with. The harness (harness.c) does the rest: data,
 * timing, checking and the report.
 */
#ifndef ECCL_BENCH_HARNESS_H
#define ECCL_BENCH_HARNESS_H

#include <limits.h>
#include <stddef.h>

#include <mpi.h>

#include "eccl.h"

/* The arguments of one call, shared by the eccl and the MPI version. The reference run uses
 * the same structure with float64 copies of the inputs (mtype MPI_DOUBLE, count in reals). */
typedef struct bench_call {
    const void *sendbuf; /* this rank's input (NULL where it sends nothing, or in place) */
    void *recvbuf;       /* its result; in-place collectives: the buffer (input, then result) */
    size_t count;        /* the collective's count argument */
    MPI_Datatype mtype;
    MPI_Op mop;          /* AVG runs as MPI_SUM: the harness divides by the number of ranks */
    eccl_dtype_t dtype;
    eccl_op_t op;
    int root, dest, source;
    MPI_Comm comm;
    eccl_comm_t ecomm;
} bench_call_t;

/* This rank's buffers for a collective of `bytes` in all (nccl-tests' "size"). */
typedef struct bench_counts {
    size_t count; /* the count argument, in elements */
    size_t nsend; /* elements of this rank's input (0: it has none) */
    size_t nrecv; /* elements of this rank's result (0: none; in place: nsend) */
    size_t bytes; /* the size actually measured: `bytes` rounded down to whole elements per rank */
} bench_counts_t;

/* Whose data the range of a REL bound covers (doc/guarantees.md): everyone's, the root's (bcast,
 * scatter), or the sender's (sendrecv_replace). */
typedef enum bench_range { BENCH_RANGE_ALL, BENCH_RANGE_ROOT, BENCH_RANGE_SOURCE } bench_range_t;

typedef struct bench_coll {
    const char *name;     /* the collective's name in eccl ("allreduce") */
    const char *mpi_name; /* the baseline ("MPI_Allreduce") */
    int reduction;        /* takes --op */
    int in_place;         /* the result replaces the input (bcast, sendrecv_replace) */
    bench_range_t range;
    void (*get_counts)(size_t bytes, size_t esize, int nranks, int rank, int root,
                       bench_counts_t *out);
    int (*run_mpi)(const bench_call_t *c); /* an MPI error code */
    eccl_result_t (*run_eccl)(const bench_call_t *c, const eccl_bound_t *bound);
    /* The exact result in recvbuf from exact float64 inputs in sendbuf (MPI error code). */
    int (*reference)(const bench_call_t *c);
} bench_coll_t;

/* An MPI count (MPI takes int): -1 (which MPI rejects) when n does not fit. */
static inline int bench_mpi_count(size_t n) { return n > (size_t)INT_MAX ? -1 : (int)n; }

extern const bench_coll_t bench_bcast, bench_allreduce, bench_reduce, bench_reduce_scatter_block,
    bench_allgather, bench_scatter, bench_gather, bench_sendrecv_replace;

/* Input data (harness_data.c): --data smooth | randomwalk | normal | netcdf[:FILE:VAR]. */
typedef enum bench_kind { BENCH_SMOOTH, BENCH_RANDOMWALK, BENCH_NORMAL, BENCH_NETCDF } bench_kind_t;

typedef struct bench_data {
    bench_kind_t kind;
    char path[512], var[64];
    float *field;   /* netCDF: the variable, fill values replaced by 0 */
    size_t nfield;  /* its values */
    size_t nfilled; /* how many were _FillValue / missing_value / not finite */
    char desc[768]; /* one line saying what the data is */
} bench_data_t;

/* Parse a --data value; 0 on success, else -1 with a message in err. */
int bench_data_parse(const char *spec, bench_data_t *d, char *err, size_t errlen);
/* Read the netCDF field (no-op for synthetic data) and fill d->desc; -1 with err on failure. */
int bench_data_load(bench_data_t *d, char *err, size_t errlen);
/* Rank `rank`'s input: nreal values (a complex element is two) of dtype into out. */
void bench_data_fill(const bench_data_t *d, int rank, int nranks, eccl_dtype_t dtype, void *out,
                     size_t nreal);
void bench_data_free(bench_data_t *d);

#endif
