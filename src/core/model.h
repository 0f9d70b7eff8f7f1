/*
 * model.h - the cost model's figures, all in one place: what a communicator measured (its links at
 * creation, the CPU codec on rank 0, the GPU codec and the NCCL link at the first call every rank
 * runs device-resident), the constants that stand in until then, and the rules that derive the
 * figures each kind of call is priced with. The algorithms' cost functions read the figures
 * through src/coll/model.h (mdl_of picks the view through the call's transport); nothing else
 * writes them.
 *
 * Units: seconds, bytes, bytes of uncompressed data per second.
 */
#ifndef ECCL_CORE_MODEL_H
#define ECCL_CORE_MODEL_H

/* The machine as one kind of call sees it: link latency and inverse bandwidth, and the codec's
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
    double c_thr_dev, d_thr_dev; /* the GPU codec with the stream kept in device memory (no PCIe
                                    copy of it): the device-stream paths (coll/model.h) */
    double nccl_alpha, nccl_beta; /* NCCL's own collectives' link (measured at its set-up; 0 before) */
    double hop_alpha, hop_beta; /* one hop of a stream kept in device memory (coll/model.h
                                   mdl_net_dev): s per hop, s per byte of stream */
    double op_lat;  /* s per codec operation (0 for the CPU codec; the GPU's launch + sync): a
                       compression, and what the others cost at the least */
    double op_lat_d, op_lat_h; /* s per decompression, per homomorphic reduction (the GPU's tiny
                                  calls take longer than a compression: op_lat plus what they
                                  took beyond it as calibrated; = op_lat until measured) */
    double agree;   /* s per round of a small MPI allreduce among the ranks: what a compressed
                       call's agreements and verdict cost (select.c), the MPI link's latency in
                       every view (they travel over MPI whatever carries the data) */
    double stage;   /* s per byte of a device buffer staged whole through the host (0: none) */
} eccl_model_t;

/* ---- the constants ---- */

/* Links and CPU codec, when a measurement gives nothing usable (one rank; a failed probe). */
#define ECCL_MDL_ALPHA 1e-6
#define ECCL_MDL_BETA 1e-10
/* The CPU codec's figures when its calibration fails: compress, decompress, homomorphic, reduce. */
#define ECCL_MDL_CPU_C_THR 1e9
#define ECCL_MDL_CPU_D_THR 2e9
#define ECCL_MDL_CPU_H_THR 0.7e9
#define ECCL_MDL_CPU_G_THR 5e9

/* The GPU codec in device-resident calls, per byte of uncompressed data, with the PCIe copies of
 * the compressed streams included (measured on H100/H200 with bench_device: doc/performance.md);
 * until rank 0 measures its GPU at the first call every rank runs device-resident
 * (eccl_models_set_gpu). The 64-bit element types' kernels take about twice as long per byte. */
#define ECCL_GPU_C_THR 200e9
#define ECCL_GPU_D_THR 200e9
#define ECCL_GPU_H_THR 100e9
#define ECCL_GPU_C_THR64 100e9
#define ECCL_GPU_D_THR64 100e9
#define ECCL_GPU_H_THR64 50e9
#define ECCL_GPU_OP_LAT 40e-6
/* One crossing of PCIe between host and device memory (about 25 GB/s). */
#define ECCL_PCIE_BETA (1.0 / 25e9)
/* The hierarchical allreduce's node steps through CUDA IPC windows (transport/node.c): s per step
 * (a node-wide agreement and a GPU synchronisation) and per byte copied or read between the ranks'
 * windows (a guess between PCIe peer-to-peer, about 25 GB/s, and NVLink, several hundred). */
#define ECCL_GPU_IPC_ALPHA 20e-6
#define ECCL_GPU_IPC_BETA (1.0 / 100e9)

/* ---- a communicator's figures ---- */

/* What was measured, and the views derived from it (eccl_models_derive; never written elsewhere):
 * `host` prices calls with the CPU codec over MPI; gpu[w] calls every rank runs device-resident
 * (w = 1: float64 and complex128, whose kernels are the 64-bit ones) over MPI, and nccl[w] the same
 * with the compressed streams through NCCL. */
typedef struct eccl_models {
    /* measured (or the constants above) */
    double alpha, beta, alpha_in, beta_in; /* MPI links: the slowest, and inside a node */
    double cpu[4];       /* CPU codec: compress, decompress, homomorphic, reduce (B/s) */
    double gpu_lat_op[3]; /* GPU codec: s per compression, decompression, homomorphic SUM of a
                             tiny array, as calibrated on an idle GPU; [0] prices every GPU
                             operation (op_lat), a decompression or a homomorphic SUM also its
                             excess over [0] (eccl_models_gpu_extra) */
    double gpu_lat_obs;  /* GPU codec: s per operation as the calls observed it, the slowest rank's,
                            agreed (eccl_models_set_gpu_observed); 0: none yet. Prices the GPU
                            views in place of gpu_lat_op[0] once set: in an application that computes on
                            the GPU, a codec operation waits for SMs and the host waits for it */
    double gpu_thr[2][3]; /* GPU codec [w][compress, decompress, homomorphic] */
    double gpu_thr_dev[2][2]; /* GPU codec [w][compress, decompress], the stream in device memory */
    double nccl_alpha, nccl_beta; /* NCCL point-to-point link (0: not measured) */
    double hop_alpha, hop_beta; /* a device-stream hop through NCCL as the calls make it: the size
                                   over MPI, the stream over NCCL, a wait on each side
                                   (transport/nccl.c; 0: not measured) */
    int gpu_measured;    /* the GPU figures are this GPU's (1) or the constants (0) */
    /* derived */
    eccl_model_t host, gpu[2], nccl[2];
} eccl_models_t;

/* Set every figure from a communicator's measurements at creation: m[0], m[1] the slowest link's
 * alpha and beta, m[6], m[7] the link inside a node, m[2..5] the CPU codec (compress, decompress,
 * homomorphic, reduce); a figure that is not a positive number gets its constant. The GPU and NCCL
 * figures start as the constants (NCCL: none). */
void eccl_models_init(eccl_models_t *md, const double m[8]);
/* The GPU codec as rank 0 measured it (eccl_dev_calibrate's v[ECCL_GPU_CAL_N]: s per compression,
 * then compress, decompress, homomorphic for float32 and for float64, the stream copied to or from
 * host memory; then compress and decompress for float32 and float64 with the stream kept in device
 * memory; then s per decompression and per homomorphic SUM). Ignored unless every figure is a
 * positive finite number; returns whether it was taken. gpu_measured is set either way (measured
 * once). */
#define ECCL_GPU_CAL_N 13
int eccl_models_set_gpu(eccl_models_t *md, const double v[ECCL_GPU_CAL_N]);
/* What a GPU operation of `kind` (0 compression, 1 decompression, 2 homomorphic SUM) costs beyond a
 * compression as calibrated (s, never negative; 0 for a compression and until measured). An
 * observed latency (eccl_models_set_gpu_observed) is that of a compression: the calls' observations
 * of the other kinds are taken less this (src/prims/prims.c). */
double eccl_models_gpu_extra(const eccl_models_t *md, int kind);
/* NCCL's point-to-point link, measured at its set-up. */
void eccl_models_set_nccl(eccl_models_t *md, double alpha, double beta);
/* The device-stream hop through NCCL, measured at its set-up after the link (s per hop, s per
 * byte). Until it is, or where the figures are not positive finite numbers (returns 0: not
 * taken), a hop is priced as NCCL's link plus one MPI message. */
int eccl_models_set_nccl_hop(eccl_models_t *md, double alpha, double beta);
/* The GPU codec's per-operation latency as the ranks' calls observed it (s; agreed, so the same on
 * every rank: select.c). Ignored unless a positive finite number; returns whether it was taken. */
int eccl_models_set_gpu_observed(eccl_models_t *md, double lat);

#endif
