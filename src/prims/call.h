/*
 * call.h - one collective call as the primitives and the algorithms see it: the arguments as the
 * public operation took them, the bound each message is compressed with, where the data is
 * (device-resident, a strided matrix) and what carries it, and the statistics it fills. Filled by
 * the dispatcher (src/coll/dispatch.c, select.c); below the algorithm layer, so the primitives
 * can take it without knowing the algorithms.
 */
#ifndef ECCL_PRIMS_CALL_H
#define ECCL_PRIMS_CALL_H

#include "core/comm.h"

/* Where one rank's data is (the device context of a call). */
typedef struct eccl_call_dev {
    int here;   /* this rank's buffers are device memory and its codec work runs on the GPU
                   (comm->gpu.ctx): the primitives take device data pointers */
    int all;    /* every rank agreed its call is device-resident: decisions use the GPU codec's
                   figures (comm->models.gpu) */
    int agreed; /* `all` came from the device agreement (every rank's status, not guessed) */
    int short_; /* dispatch only: device buffers, but no device memory could be reserved for the
                   call (eccl_dev_reserve): this rank stages them */
} eccl_call_dev_t;

/* The matrix layout of an eccl_*_matrix call: recvbuf (= sendbuf) is a column-major matrix of m
 * rows, ld elements apart, in device memory (m = 0: a plain array); the primitives map pointers
 * into [recvbuf, recvbuf + count * esize) to its elements in column order (prims.c). */
typedef struct eccl_call_layout {
    size_t m, ld;
    void *(*pack)(void *arg, size_t bytes); /* a contiguous device buffer, for the paths that cannot
                                               take the matrix as it is (stage.c packs it there) */
    void *pack_arg;
} eccl_call_layout_t;

typedef struct eccl_call {
    eccl_comm_t comm;
    eccl_coll_t coll;
    const void *sendbuf; /* MPI_IN_PLACE already resolved to the real buffer */
    void *recvbuf;       /* bcast and sendrecv_replace: the buffer */
    size_t count;        /* as given to the public call */
    eccl_dtype_t dtype;
    size_t esize;        /* bytes per element */
    eccl_op_t op;        /* SUM, MAX, MIN (AVG runs as SUM, scaled afterwards) */
    int root, dest, source, sendtag, recvtag;
    int size, rank;
    double E;            /* absolute bound of the result (0: lossless) */
    eccl_bound_t mbound; /* what each message is compressed with: ABS eb, or LOSSLESS */
    double eb_recv_max;  /* sendrecv_replace: the largest eb_abs a received stream may carry (this
                            rank's own E for ABS and LOSSLESS bounds; +inf for REL, whose E is
                            the sender's) */
    eccl_stats_t *st;    /* bytes and times accumulate here */
    int requant;         /* the chosen algorithm has ECCL_ALG_REQUANT */
    int avg;             /* the user's op is AVG (op says SUM): E bounds the sum divided by size */
    size_t s_in, r_out;  /* dispatch only: bytes this rank reads at sendbuf / writes at recvbuf */
    int split;           /* dispatch only: sendbuf == recvbuf are two buffers (rsb in place) */
    eccl_call_dev_t dev; /* where this rank's data is, and whether every rank's call is on the GPU */
    const struct eccl_transport *tr; /* what carries the call's point-to-point messages (never NULL
                            once the dispatcher set it up: MPI unless select.c chose NCCL for
                            the compressed streams of a call every rank runs device-resident) */
    int nccl;            /* every rank device-resident and NCCL up (agreed): NCCL algorithms apply */
    eccl_result_t err;   /* first corrupt stream seen: the call goes on with substitutes so no
                            peer waits forever, and returns this at the end */
    eccl_call_layout_t lay; /* eccl_*_matrix calls: the strided matrix */
} eccl_call_t;

/* Element range [lo, hi) of piece i when n elements are split into p pieces (block partition:
 * the first n % p pieces get one more). */
static inline void eccl_piece(size_t n, int p, int i, size_t *lo, size_t *len)
{
    size_t q = n / (size_t)p, r = n % (size_t)p, ii = (size_t)i;
    *lo = ii * q + (ii < r ? ii : r);
    *len = q + (ii < r ? 1 : 0);
}

#endif
