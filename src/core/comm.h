/* comm.h - what an eccl_comm_t holds (internal). */
#ifndef ECCL_CORE_COMM_H
#define ECCL_CORE_COMM_H

#include "core/internal.h"
#include "core/model.h"
#include "core/pool.h"

#define ECCL_ERRMSG_LEN 256 /* bytes of an error message, with its NUL */

/* The collective operations (the per-collective settings of a communicator, the algorithm table). */
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

/* Where the ranks are (coll/communicator.c: topology): nodes by MPI_COMM_TYPE_SHARED, or by
 * MPI_COMM_WORLD rank / ECCL_NODE_SIZE. `hier`: several nodes, more than one rank on each, and the
 * same number on every node, so the hierarchical allreduce applies; then `node` holds this node's
 * ranks (ordered by rank) and `inter` the ranks of the same local rank on every node. */
typedef struct eccl_topo {
    int nnodes, lsize, lrank, hier;
    MPI_Comm node, inter;   /* MPI_COMM_NULL unless hier */
    struct eccl_comm *xcomm; /* eccl communicator over `inter` (created at the first hierarchical
                                call, collectively: every rank runs it) */
} eccl_topo_t;

/* The transports' state in a communicator (src/transport/: each field belongs to the file named;
 * nothing above the transport layer reads them except through transport.h). */
typedef struct eccl_comm_tr {
    MPI_Op op_max, op_min; /* MAX/MIN with eccl's NaN and signed-zero rules (mpi.c) */
    int cuda_aware;    /* this rank hands device buffers straight to MPI in uncompressed algorithms
                          (ECCL_CUDA_AWARE, or MPIX_Query_cuda_support; mpi.c) */
    /* NCCL (nccl.c): set up collectively at the first call every rank runs device-resident;
     * state 0 untried, 1 ready, -1 unavailable */
    struct eccl_nccl *nccl;
    int nccl_state;
    /* CUDA IPC windows of the hierarchical allreduce's node steps on device buffers (node.c):
     * state 0 untried, 1 mapped, -1 unavailable on this node */
    struct eccl_nodewin *nwin;
    int nwin_state;
    int nwin_refused;  /* some node of this communicator refused the windows (nwin_state -1 on its
                          ranks): learned by every rank at the same call, in the cost model's
                          agreement (select.c), which from then on prices staged node steps */
} eccl_comm_tr_t;

/* How many of a rank's latest device codec operations its observed latency is the median of. */
#define ECCL_LAT_RING 16

/* The GPU side of a communicator (CUDA builds; all zero in CPU-only builds). */
typedef struct eccl_comm_gpu {
    /* GPU codec, stream and device buffers of device-resident calls (cuda/device.h), created at
     * the first one; NULL until then */
    struct eccl_dev_ctx *ctx;
    int failed;        /* creating it failed once: device buffers are staged from then on */
    void *user_stream; /* eccl_cuda_comm_set_stream: calls on device buffers wait for it first */
    int shared;        /* some ranks share a GPU (found when the NCCL transport is set up,
                          transport/nccl.c): the model then lets no GPU work overlap the network */
    int all;           /* every rank had the CUDA driver loaded at creation: device-resident calls
                          on all ranks are possible, so calls agree on it (the GPU figures, NCCL;
                          select.c) */
    int first_async;   /* set while the first stream-enqueued call with its arguments runs at once
                          (src/coll/engine.c): it reserves NCCL's stream buffers for its largest
                          possible stream, so that the later calls with these arguments, enqueued,
                          never grow a buffer while a stream is held (agree.c) */
    int priority;      /* ECCL_GPU_PRIORITY at creation: 1 = eccl's own CUDA streams (the codec's,
                          NCCL's) run at the device's greatest stream priority */
    int observe;       /* ECCL_GPU_OBSERVE at creation: 1 = the device codec operations' observed
                          latency prices the GPU codec (eccl_gpu_observe below; agreed in src/coll/select.c) */
    double lat[ECCL_LAT_RING]; /* this rank's last observed per-operation latencies (s) */
    unsigned nlat;     /* observations made (the ring holds the last ECCL_LAT_RING) */
} eccl_comm_gpu_t;

/* The ratio the last data agreement agreed for a call of this signature, which the next calls
 * with the same one reuse instead of sampling their data (ECCL_RATIO_REUSE; src/coll/agree.c,
 * used by select.c). Set only from agreed figures, in call order: the same on every rank that
 * reads it. */
typedef struct eccl_ratio_memo {
    int valid;
    int coll, dtype, op, root, mode;
    size_t count;
    double eb;    /* the per-message bound the sample was compressed with */
    double ratio; /* the agreed ratio */
    long uses;    /* calls that reused it since */
} eccl_ratio_memo_t;

struct eccl_comm {
    MPI_Comm comm;     /* our duplicate, errors returned */
    int size, rank;
    eccl_config_t cfg; /* resolved: no field is unset */
    eccl_models_t models; /* the cost model's figures (core/model.h) */
    eccl_pool_t pool;
    eccl_stats_t last;
    char errmsg[ECCL_ERRMSG_LEN];
    int warned;        /* a fallback warning was printed */
    int forced[ECCL_NCOLLS]; /* per collective: index+1 in eccl_algorithms, 0 = not forced */
    long fault_countdown; /* ECCL_FAULT_INJECT: corrupt the n-th message this rank sends */
    int threads;       /* OpenMP threads the codec may use in collectives (this rank's core share) */
    /* page-locked host copies of device buffers (grow-only, like the pool; coll/stage.c) */
    eccl_pool_t stage; /* (slots 0 and 1: the send side, or an aliased buffer, and the receive side) */
    eccl_comm_gpu_t gpu;
    eccl_ratio_memo_t memo; /* (only the thread running a call of this communicator touches it) */
    eccl_comm_tr_t tr;
    eccl_topo_t topo;
    int child;         /* an internal communicator of a hierarchical algorithm: flat topology,
                          ECCL_<OP>_ALGORITHM ignored (the parent's choice stands) */
    /* The nonblocking collectives' engine (src/coll/engine.c; NULL until the first one) and where
     * the call being run reports: a request's own statistics and message while the engine runs
     * it (NULL: comm->last and comm->errmsg). Only the thread running a call touches the sinks;
     * every other function on the communicator first waits for the engine to be idle. */
    struct eccl_engine *engine;
    eccl_stats_t *sink_stats;
    char *sink_msg;
};

/* Where the call being run reports its statistics and error message (see sink_stats). */
static inline eccl_stats_t *eccl_comm_stats_out(eccl_comm_t c) { return c->sink_stats ? c->sink_stats : &c->last; }
static inline char *eccl_comm_msg_out(eccl_comm_t c) { return c->sink_msg ? c->sink_msg : c->errmsg; }

/* Record an error message for eccl_comm_last_error and return rc. */
eccl_result_t eccl_comm_error(eccl_comm_t comm, eccl_result_t rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

double eccl_wtime(void);

/* The GPU codec's per-operation latency as this rank's calls see it, for the cost model
 * (ECCL_GPU_OBSERVE). A device-resident codec operation (compress, decompress, homomorphic
 * reduce) adds `seconds`: its time beyond its bytes at the calibrated throughput, which is what
 * the host waits for a launch, for SMs the application's kernels hold, and for the result
 * (src/prims/prims.c). Local; ignored unless comm->gpu.observe. */
void eccl_gpu_observe(eccl_comm_t comm, double seconds);
/* This rank's figure for the data agreement (src/coll/select.c): the median of its last
 * ECCL_LAT_RING observations (robust to a first launch that loads its module, or a preempted
 * one), or -INFINITY with fewer than 3 (then it adds nothing to the agreement's MAX). Local. */
double eccl_gpu_observed(eccl_comm_t comm);

/* The inter-node communicator of a hierarchical comm (topo.hier), created at the first call
 * (collective over every rank of comm) with the parent's configuration, compress = ALWAYS and the
 * inter-node link as its model. NULL with an error recorded on failure. */
eccl_comm_t eccl_comm_inter(eccl_comm_t comm);
/* eccl_comm_create; child = 1 for the internal communicators of hierarchical algorithms. */
eccl_result_t eccl_comm_create_internal(MPI_Comm mcomm, const eccl_config_t *config, int child, eccl_comm_t *out);

#endif
