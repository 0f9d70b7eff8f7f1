/* model.h - the alpha-beta cost model's building blocks, shared by the algorithms' cost
 * functions (seconds; bytes are bytes of uncompressed data unless divided by the ratio). */
#ifndef ECCL_COLL_MODEL_H
#define ECCL_COLL_MODEL_H

#include "coll/coll.h"
#include "core/dtype.h"
#include "prims/prims.h"

static inline double mdl_net(const eccl_model_t *m, double bytes) { return m->alpha + bytes * m->beta; }
/* A stream that stays in device memory through NCCL (eccl_prim_dev_streams): one hop as the NCCL
 * transport measured it at set-up (the size over MPI, the payload over NCCL, a wait on each side),
 * without the two PCIe crossings mdl_net prices for the staged streams of the NCCL view
 * (core/model.c derive). */
static inline double mdl_net_dev(const eccl_model_t *m, double bytes) { return m->hop_alpha + bytes * m->hop_beta; }
/* The GPU codec on such a stream: no copy of it between host and device (c_thr_dev, d_thr_dev). */
static inline double mdl_compress_dev(const eccl_model_t *m, double bytes) { return bytes / m->c_thr_dev + m->op_lat; }
static inline double mdl_decompress_dev(const eccl_model_t *m, double bytes)
{
    return bytes / m->d_thr_dev + m->op_lat_d;
}
/* (each kind of GPU operation at its own fixed cost: on one H200 a tiny decompression took 0-9 us
 * more than a compression, a homomorphic SUM 17-35 us more; doc/performance.md section 31) */
static inline double mdl_compress(const eccl_model_t *m, double bytes) { return bytes / m->c_thr + m->op_lat; }
static inline double mdl_decompress(const eccl_model_t *m, double bytes) { return bytes / m->d_thr + m->op_lat_d; }
static inline double mdl_hom(const eccl_model_t *m, double bytes) { return bytes / m->h_thr + m->op_lat_h; }
/* combining two streams decodes two and encodes one (on the CPU: streams are host memory) */
static inline double mdl_combine(const eccl_model_t *m, double bytes) { return bytes / m->comb_thr; }
static inline double mdl_reduce(const eccl_model_t *m, double bytes) { return bytes / m->g_thr; }
/* One stage of the pipelined broadcast: a chunk's stream over the link, and the host's wait for a
 * GPU codec operation beside it, not under it. The thread that waits for each chunk's compression
 * or decompression also drives the chunks' messages; on device buffers over sockets (2 x H200,
 * SUMMA's panels, doc/performance.md section 29) the calls took the message time plus the waits:
 * priced with the waits under the messages, the pipeline was predicted at 0.27 ms and took
 * 0.52-0.76, where the binomial tree it beat in the model took 0.35-0.45. op_lat is 0 for the
 * CPU codec, whose pipeline is unchanged. */
static inline double mdl_stage(const eccl_model_t *m, double stream_bytes) { return mdl_net(m, stream_bytes) + m->op_lat; }
static inline double mdl_bytes(const eccl_call_t *c, size_t elems) { return (double)elems * (double)c->esize; }
/* Whether the call's streams stay in device memory on every rank (the binomial broadcast's device
 * streams): every rank device-resident (agreed), and the transport and ECCL_DEVICE_STREAMS allow
 * it (the same on every rank: the transport is the communicator's, the environment the job's). */
#ifndef ECCL_MDL_DEV_STREAMS /* 0: price them as staged streams (the model before 2026-11-28; A/B runs) */
#define ECCL_MDL_DEV_STREAMS 1
#endif
static inline int mdl_dev_streams(const eccl_call_t *c)
{
    return ECCL_MDL_DEV_STREAMS && c->dev.all && eccl_prim_dev_streams(c);
}

/* Whether the call's codec work overlaps its network time in the pipelined algorithms: the GPU
 * codec of every rank (device-resident, agreed) works while the host lets MPI progress; not over
 * NCCL (blocking pairs), not with the CPU codec (it holds the calling thread), and not where ranks
 * share a GPU (their GPU work contends; measured on an H100: the pipelined ring lost to the plain
 * one there). */
static inline int mdl_gpu_overlaps(const eccl_call_t *c)
{
    return c->dev.all && eccl_prim_posts(c) && !c->comm->gpu.shared;
}

/* The figures a call's decisions use (core/model.h): those of the transport that carries its
 * streams, with the GPU codec's when every rank agreed its call is device-resident (c->dev.all;
 * the 64-bit kernels' for float64 and complex128), else the calibrated CPU codec's. */
static inline const eccl_model_t *mdl_of(const eccl_call_t *c)
{
    return c->tr->model(c->comm, c->dev.all, eccl_dtype_traits(c->dtype)->is64);
}

#endif
