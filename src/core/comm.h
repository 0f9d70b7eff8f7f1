/* comm.h - what an eccl_comm_t holds (internal). */
#ifndef ECCL_CORE_COMM_H
#define ECCL_CORE_COMM_H

#include "core/internal.h"
#include "core/pool.h"

/* The cost model's machine description: link latency and inverse bandwidth, and the codec's
 * throughputs in bytes of uncompressed data per second. */
typedef struct eccl_model {
    double alpha;   /* s per message (the slowest link: between nodes when the comm spans several) */
    double beta;    /* s per byte */
    double alpha_in, beta_in; /* the link inside a node (= alpha, beta on one node) */
    double c_thr;   /* compression */
    double d_thr;   /* decompression */
    double h_thr;   /* homomorphic reduce (stream + local -> stream) */
    double g_thr;   /* local reduction of uncompressed data (the MPI baseline's gamma) */
    double comb_thr; /* combining two streams: always the CPU codec (streams live in host memory) */
    double nccl_alpha, nccl_beta; /* the NCCL link (measured at its set-up; 0 before) */
    double op_lat;  /* s per codec operation (0 for the CPU codec; the GPU's launch + sync) */
    double stage;   /* s per byte of a device buffer staged whole through the host (0: none) */
} eccl_model_t;

/* The figures of the GPU codec in device-resident calls, per byte of uncompressed data, with the
 * PCIe copies of the compressed streams included (measured on H100/H200 with bench_device:
 * doc/performance.md); used by the cost model when every rank's call is device-resident, until
 * rank 0 measures its GPU at the first call every rank runs device-resident (builds with NCCL,
 * src/transport/nccl.c: eccl_dev_calibrate), which replaces c_thr, d_thr, h_thr and op_lat. */
#define ECCL_GPU_C_THR 200e9
#define ECCL_GPU_D_THR 200e9
#define ECCL_GPU_H_THR 100e9
/* The same for the 64-bit element types (float64, complex128), whose kernels take about twice as
 * long per byte as the float32 ones (doc/gpu.md); measured alongside them. */
#define ECCL_GPU_C_THR64 100e9
#define ECCL_GPU_D_THR64 100e9
#define ECCL_GPU_H_THR64 50e9
#define ECCL_GPU_OP_LAT 40e-6
#define ECCL_GPU_STAGE (2.0 / 25e9) /* a staged buffer crosses PCIe twice (about 25 GB/s each) */
/* The hierarchical allreduce's node steps through CUDA IPC windows (transport/node.c): s per step
 * (a node-wide agreement and a GPU synchronisation) and per byte copied or read between the ranks'
 * windows (a guess between PCIe peer-to-peer, about 25 GB/s, and NVLink, several hundred). */
#define ECCL_GPU_IPC_ALPHA 20e-6
#define ECCL_GPU_IPC_BETA (1.0 / 100e9)

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

struct eccl_comm {
    MPI_Comm comm;     /* our duplicate, errors returned */
    int size, rank;
    eccl_config_t cfg; /* resolved: no field is unset */
    eccl_model_t model;
    eccl_model_t gmodel; /* `model` with the GPU codec's figures (device-resident calls) */
    eccl_model_t nmodel; /* `gmodel` with the NCCL link (calls with the NCCL transport) */
    eccl_model_t gmodel64, nmodel64; /* the same with the 64-bit types' codec figures (float64,
                                        complex128: src/coll/model.h mdl_of) */
    eccl_pool_t pool;
    eccl_stats_t last;
    char errmsg[256];
    int warned;        /* a fallback warning was printed */
    int forced[16];    /* per collective: index+1 in eccl_algorithms, 0 = not forced */
    long fault_countdown; /* ECCL_FAULT_INJECT: corrupt the n-th message this rank sends */
    MPI_Op op_max, op_min; /* MAX/MIN with eccl's NaN and signed-zero rules (transport/mpi.c) */
    int threads;       /* OpenMP threads the codec may use in collectives (this rank's core share) */
    /* page-locked host copies of device buffers (grow-only, like the pool; coll/dispatch.c) */
    eccl_pool_t stage; /* (slots 0 and 1: the send side, or an aliased buffer, and the receive side) */
    /* GPU codec, stream and device buffers of device-resident calls (cuda/device.h), created at
     * the first one; NULL until then and in CPU-only builds */
    struct eccl_dev_ctx *dev;
    int dev_failed;    /* creating it failed once: device buffers are staged from then on */
    /* NCCL transport of device-resident calls (transport/nccl.c): set up collectively at the
     * first call every rank runs device-resident; state 0 untried, 1 ready, -1 unavailable */
    struct eccl_nccl *nccl;
    int nccl_state;
    /* CUDA IPC windows of the hierarchical allreduce's node steps on device buffers
     * (transport/node.c): state 0 untried, 1 mapped, -1 unavailable on this node */
    struct eccl_nodewin *nwin;
    int nwin_state;
    int nwin_refused;  /* some node of this communicator refused the windows (nwin_state -1 on its
                          ranks): learned by every rank at the same call, in the cost model's
                          agreement (dispatch.c), which from then on prices staged node steps */
    int gpu_measured;  /* gmodel's GPU codec figures measured (1), or the constants above (0) */
    eccl_topo_t topo;
    int child;         /* an internal communicator of a hierarchical algorithm: flat topology,
                          ECCL_<OP>_ALGORITHM ignored (the parent's choice stands) */
    void *user_stream; /* eccl_cuda_comm_set_stream: calls on device buffers wait for it first */
    int gpu_shared;    /* some ranks share a GPU (found when the NCCL transport is set up,
                          transport/nccl.c): the model then lets no GPU work overlap the network */
    int cuda_aware;    /* this rank hands device buffers straight to MPI in uncompressed algorithms
                          (ECCL_CUDA_AWARE, or MPIX_Query_cuda_support; transport/mpi.c) */
    int cuda_all;      /* every rank had the CUDA driver loaded at creation: device-resident calls
                          on all ranks are possible, so calls agree on it (the GPU figures, NCCL;
                          dispatch.c) */
};

/* Record an error message for eccl_comm_last_error and return rc. */
eccl_result_t eccl_comm_error(eccl_comm_t comm, eccl_result_t rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

double eccl_wtime(void);

/* The inter-node communicator of a hierarchical comm (topo.hier), created at the first call
 * (collective over every rank of comm) with the parent's configuration, compress = ALWAYS and the
 * inter-node link as its model. NULL with an error recorded on failure. */
eccl_comm_t eccl_comm_inter(eccl_comm_t comm);
/* eccl_comm_create; child = 1 for the internal communicators of hierarchical algorithms. */
eccl_result_t eccl_comm_create_internal(MPI_Comm mcomm, const eccl_config_t *config, int child, eccl_comm_t *out);

#endif
