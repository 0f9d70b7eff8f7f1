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
#include "prims/call.h"


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

/* every algorithm of the table (algorithms.def) */
#define ALGO(coll, op, name, applies, flags, restriction, summary) ECCL_DECLARE_ALGO(op, name);
#include "coll/algorithms.def"
#undef ALGO
/* the applies functions of rows with a restriction */
int eccl_bcast_nccl_applies(const eccl_call_t *call);
int eccl_allreduce_hierarchical_applies(const eccl_call_t *call);
int eccl_allreduce_nccl_applies(const eccl_call_t *call);

#endif
