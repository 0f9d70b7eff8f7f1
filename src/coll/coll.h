/*
 * coll.h - what every collective algorithm sees: the call (arguments as the public operation
 * took them, plus the bound each message is compressed with), and the algorithm table.
 *
 * An algorithm is one file src/coll/<op>/<op>_<algo>.c defining eccl_<op>_<algo>() and its cost
 * function; it talks only to the primitives (src/prims/prims.h).
 */
#ifndef ECCL_COLL_COLL_H
#define ECCL_COLL_COLL_H

#include "core/comm.h"

typedef enum eccl_coll {
    ECCL_COLL_BCAST,
    ECCL_COLL_ALLREDUCE,
    ECCL_COLL_REDUCE,
    ECCL_COLL_REDUCE_SCATTER_BLOCK,
    ECCL_COLL_ALLGATHER,
    ECCL_COLL_SCATTER,
    ECCL_COLL_GATHER,
    ECCL_COLL_SENDRECV_REPLACE,
    ECCL_NCOLLS
} eccl_coll_t;

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
    int gm;              /* every rank agreed its call is device-resident: decisions use the GPU
                            codec's figures (comm->gmodel) */
    int nccl;            /* every rank device-resident and NCCL up (agreed): NCCL algorithms apply */
    int nccl_streams;    /* ... and compressed streams travel through NCCL (its point-to-point
                            link measured faster than MPI's) */
    int gm_agreed;       /* gm came from the NCCL agreement (every rank's status, not guessed) */
    int dev;             /* this rank's buffers are device memory and its codec work runs on the
                            GPU (comm->dev): the primitives take device data pointers */
    int dev_short;       /* dispatch only: device buffers, but no device memory could be reserved
                            for the call (eccl_dev_reserve): this rank stages them */
    eccl_result_t err;   /* first corrupt stream seen: the call goes on with substitutes so no
                            peer waits forever, and returns this at the end */
    size_t lay_m, lay_ld; /* eccl_*_matrix: recvbuf (= sendbuf) is a column-major matrix of
                             lay_m rows, lay_ld elements apart, in device memory (0: a plain
                             array); the primitives map pointers into [recvbuf, recvbuf +
                             count * esize) to its elements in column order (prims.c) */
    void *(*lay_pack)(void *arg, size_t bytes); /* a contiguous device buffer, for the paths that
                             cannot take the matrix as it is (dispatch.c packs it there) */
    void *lay_pack_arg;
} eccl_call_t;

/* Collectives on an m x n column-major device matrix with leading dimension ld (elements), as the
 * plain call on its m*n elements in column order, in place (sendbuf = recvbuf = the matrix): the
 * same streams, the same values. The matrix is not packed when the call runs device-resident with
 * an algorithm that takes it as it lies (ECCL_ALG_VIEW): the GPU codec reads and writes the
 * columns in place. Otherwise (uncompressed algorithms, staged calls) a rank that reads the matrix
 * packs it into pack(arg, m*n*esize) (a device buffer the caller owns) and a rank that receives a
 * result unpacks it after. For the BLACS drop-ins (src/scalapack/blacs.c, panel.c). Errors: as
 * eccl_bcast / eccl_allreduce / eccl_reduce. When pack returns NULL, the matrix is packed into a
 * host staging buffer of the communicator and this rank's call runs on the host (an algorithm that
 * needs device memory, nccl, then fails with ECCL_ERR_NO_MEMORY; so does no host memory). */
eccl_result_t eccl_bcast_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, int root,
                                const eccl_bound_t *bound, eccl_comm_t comm,
                                void *(*pack)(void *arg, size_t bytes), void *arg);
eccl_result_t eccl_allreduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op,
                                    const eccl_bound_t *bound, eccl_comm_t comm,
                                    void *(*pack)(void *arg, size_t bytes), void *arg);
eccl_result_t eccl_reduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op, int root,
                                 const eccl_bound_t *bound, eccl_comm_t comm,
                                 void *(*pack)(void *arg, size_t bytes), void *arg);

typedef eccl_result_t (*eccl_algo_fn)(eccl_call_t *call);
/* Predicted seconds for this call at compression ratio `ratio` (ignored by uncompressed ones). */
typedef double (*eccl_cost_fn)(const eccl_model_t *m, const eccl_call_t *call, double ratio);

enum {
    ECCL_ALG_COMPRESSED = 1u << 0, /* moves compressed data */
    ECCL_ALG_REDUCTION = 1u << 1,  /* (informational) needs a commutative op: SUM, MAX, MIN */
    ECCL_ALG_REQUANT = 1u << 2,    /* may compress a reduced value once more: the bound is split
                                      over p + 1 quantizations (MAX/MIN: 2) */
    ECCL_ALG_HOST_DATA = 1u << 3,  /* reads or writes the user's buffers other than through the
                                      codec and copy primitives: device buffers are staged whole
                                      through host memory instead of staying on the GPU */
    ECCL_ALG_DEVICE = 1u << 4,     /* uncompressed, on the device buffers themselves (NCCL): only
                                      for calls every rank runs device-resident */
    ECCL_ALG_NODE_DEVICE = 1u << 6, /* ECCL_ALG_HOST_DATA, except where every rank of a node runs
                                      device-resident and CUDA IPC joins their GPUs
                                      (transport/node.c): then device buffers stay on the GPU */
    ECCL_ALG_VIEW = 1u << 5,       /* reaches the user's buffers only through the codec primitives
                                      (compress, decompress, reduce): a strided device matrix
                                      (eccl_*_matrix) runs in place instead of packed */
};

/* Whether an algorithm works on device buffers where they are: compressed and reaching the data
 * only through the primitives, or NCCL's own (others get device buffers staged whole through the
 * host; ECCL_ALG_NODE_DEVICE ones where their node does not agree on CUDA IPC). */
#define ECCL_ALG_RESIDENT(flags)                                                                   \
    ((((flags) & ECCL_ALG_COMPRESSED) && !((flags) & ECCL_ALG_HOST_DATA)) || ((flags) & ECCL_ALG_DEVICE))

/* Whether an algorithm can run this call (NULL in the table: always). */
typedef int (*eccl_applies_fn)(const eccl_call_t *call);

typedef struct eccl_algo {
    eccl_coll_t coll;
    const char *name;
    eccl_algo_fn fn;
    eccl_cost_fn cost;
    eccl_applies_fn applies;
    unsigned flags;
    const char *restriction; /* human-readable form of `applies` ("power-of-two ranks") */
    const char *summary;
} eccl_algo_t;

/* The table (src/coll/algorithms.c), terminated by an entry with name == NULL. */
extern const eccl_algo_t eccl_algorithms[];
const char *eccl_coll_name(eccl_coll_t coll);
/* Entry of `coll` called `name`, or NULL. */
const eccl_algo_t *eccl_algo_find(eccl_coll_t coll, const char *name);

/* ---- helpers shared by algorithms (those written against the primitives: coll/common/common.h) ---- */
/* Element range [lo, hi) of piece i when n elements are split into p pieces (block partition:
 * the first n % p pieces get one more). */
static inline void eccl_piece(size_t n, int p, int i, size_t *lo, size_t *len)
{
    size_t q = n / (size_t)p, r = n % (size_t)p, ii = (size_t)i;
    *lo = ii * q + (ii < r ? ii : r);
    *len = q + (ii < r ? 1 : 0);
}
static inline int eccl_floor_pow2(int p)
{
    int k = 1;
    while (k * 2 <= p) k *= 2;
    return k;
}
static inline int eccl_ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p) k++;
    return k;
}

/* Chunks of the pipelined algorithms (bcast pipeline, ring_pipelined): ECCL_CHUNKS when
 * set to a positive number (the same on every rank), else 0 = the cost model's choice, which
 * takes at most ECCL_MAX_CHUNKS. */
int eccl_coll_chunks_forced(void);
#define ECCL_MAX_CHUNKS 1024

/* The algorithm functions, one per file. */
#define ECCL_DECLARE_ALGO(op, algo)                                                                \
    eccl_result_t eccl_##op##_##algo(eccl_call_t *call);                                           \
    double eccl_##op##_##algo##_cost(const eccl_model_t *m, const eccl_call_t *call, double ratio)

ECCL_DECLARE_ALGO(bcast, mpi);
ECCL_DECLARE_ALGO(bcast, binomial);
ECCL_DECLARE_ALGO(bcast, scatter_allgather);
ECCL_DECLARE_ALGO(bcast, pipeline);
ECCL_DECLARE_ALGO(bcast, nccl);
int eccl_bcast_nccl_applies(const eccl_call_t *call);
ECCL_DECLARE_ALGO(allreduce, mpi);
ECCL_DECLARE_ALGO(allreduce, ring);
ECCL_DECLARE_ALGO(allreduce, ring_pipelined);
ECCL_DECLARE_ALGO(allreduce, recursive_doubling);
ECCL_DECLARE_ALGO(allreduce, rabenseifner);
ECCL_DECLARE_ALGO(allreduce, reduce_bcast);
ECCL_DECLARE_ALGO(allreduce, nccl);
ECCL_DECLARE_ALGO(allreduce, hierarchical);
int eccl_allreduce_hierarchical_applies(const eccl_call_t *call);
int eccl_allreduce_nccl_applies(const eccl_call_t *call);
ECCL_DECLARE_ALGO(reduce, mpi);
ECCL_DECLARE_ALGO(reduce, binomial);
ECCL_DECLARE_ALGO(reduce_scatter_block, mpi);
ECCL_DECLARE_ALGO(reduce_scatter_block, ring);
ECCL_DECLARE_ALGO(reduce_scatter_block, ring_pipelined);
ECCL_DECLARE_ALGO(reduce_scatter_block, recursive_halving);
ECCL_DECLARE_ALGO(allgather, mpi);
ECCL_DECLARE_ALGO(allgather, ring);
ECCL_DECLARE_ALGO(allgather, recursive_doubling);
ECCL_DECLARE_ALGO(allgather, bruck);
ECCL_DECLARE_ALGO(scatter, mpi);
ECCL_DECLARE_ALGO(scatter, binomial);
ECCL_DECLARE_ALGO(gather, mpi);
ECCL_DECLARE_ALGO(gather, binomial);
ECCL_DECLARE_ALGO(sendrecv_replace, mpi);
ECCL_DECLARE_ALGO(sendrecv_replace, compressed);

#endif
