// codec_dev.cuh - device-side pieces of the CUDA codec shared by the compression, decompression
// and homomorphic kernels: the scratch layout, warp-level block coding, byte access to shared
// memory, and the stream checksum. The rules themselves (quantization, codes, sizes) come from
// src/codec/format.h, the same header the CPU codec uses.
#ifndef ECCL_CUDA_CODEC_DEV_CUH
#define ECCL_CUDA_CODEC_DEV_CUH

#include <stdint.h>
#include <stdio.h>

#include "codec/format.h"

// The result codes, from the single list (eccl.h has the same enum: kernels do not include it,
// so that nothing MPI-related reaches device code).
#ifndef ECCL_H
enum eccl_dev_result {
#define X(name, value, msg) name = value,
#include "eccl_errors.def"
#undef X
};
#endif

#define ECCL_WARP_FULL 0xffffffffu
#define ECCL_CTA 256 /* threads per CTA: 8 warps, one tile of 256 blocks */

// Per-codec device scratch. Counters never reset: launches pass the values they start from.
struct eccl_dev_scratch {
    unsigned long long tile_counter; // dynamic tile ids (compression: look-back order)
    unsigned long long done_counter; // CTAs finished (the last one finishes the stream)
    unsigned long long checksum;     // sum of word hashes of the current launch (reset by the finisher)
    unsigned long long checksum2;    // homomorphic kernel: the same for its input stream
    unsigned long long total_size;   // stream size, written by the last tile
    int error;                       // first eccl_result_t detected on the device (0 = none)
    int pad;
    unsigned long long rkey[2];      // min, max keys (eccl_fmt_key64) of the last range reduction
    unsigned long long status[1];    // look-back: one per tile (grows with the largest stream)
};

__device__ __forceinline__ void eccl_dev_fail(eccl_dev_scratch *s, int code) { atomicCAS(&s->error, 0, code); }

// Look-back status words: epoch (16 bits) | flag (2 bits) | value (46 bits, bytes).
// Windows a look-back inspects before it declares a predecessor lost (seconds of spinning; only a
// broken launch gets there) and reports ECCL_ERR_INTERNAL instead of hanging.
#define ECCL_LB_SPIN_LIMIT (1u << 22)
#define ECCL_LB_AGG 1ull
#define ECCL_LB_INC 2ull
__device__ __forceinline__ unsigned long long eccl_lb_pack(unsigned epoch, unsigned long long flag,
                                                           unsigned long long v)
{
    return ((unsigned long long)epoch << 48) | (flag << 46) | v;
}

// ---- shared-memory bytes (payloads are byte-granular) ----
__device__ __forceinline__ void st_bytes(unsigned char *p, uint64_t v, int n)
{
    for (int k = 0; k < n; k++) p[k] = (unsigned char)(v >> (8 * k));
}
__device__ __forceinline__ uint64_t ld_bytes(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < n; k++) v |= (uint64_t)p[k] << (8 * k);
    return v;
}

// ---- warp reductions ----
__device__ __forceinline__ uint64_t warp_or64(uint64_t v)
{
    unsigned lo = __reduce_or_sync(ECCL_WARP_FULL, (unsigned)v);
    unsigned hi = __reduce_or_sync(ECCL_WARP_FULL, (unsigned)(v >> 32));
    return ((uint64_t)hi << 32) | lo;
}
__device__ __forceinline__ unsigned long long warp_sum64(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(ECCL_WARP_FULL, v, o);
    return v;
}

// Sum over the warp, returned to every lane.
__device__ __forceinline__ unsigned long long warp_sum64_all(unsigned long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(ECCL_WARP_FULL, v, o);
    return v;
}

// Inclusive scan of 32 lanes with stride lag (1 or 2): v_i += v_{i-lag} + v_{i-2lag} + ...
__device__ __forceinline__ int64_t warp_scan_lag(int64_t v, int lag, int lane)
{
    for (int o = lag; o < 32; o <<= 1) {
        int64_t u = __shfl_up_sync(ECCL_WARP_FULL, v, o);
        if (lane >= o) v += u;
    }
    return v;
}

// ---- checksum ----
__device__ __forceinline__ unsigned long long chk_word(uint64_t w, uint64_t k) { return eccl_fmt_chk_word(w, k); }
// The two u64 words of a 16-byte chunk at byte position pos (a multiple of 16).
__device__ __forceinline__ unsigned long long chk_chunk(uint4 v, uint64_t pos)
{
    uint64_t k = pos / 8;
    return chk_word(((uint64_t)v.y << 32) | v.x, k) + chk_word(((uint64_t)v.w << 32) | v.z, k + 1);
}
// The 64-byte header (word 7, the checksum field, as 0).
__device__ __forceinline__ unsigned long long chk_header(const unsigned char *hb)
{
    unsigned long long sum = 0;
    for (int k = 0; k < 8; k++) sum += chk_word(k == 7 ? 0u : ld_bytes(hb + 8 * k, 8), (uint64_t)k);
    return sum;
}

// Sum over the threads of a CTA (up to 32 warps), returned to thread 0. tmp: 32 entries.
__device__ __forceinline__ unsigned long long cta_sum(unsigned long long v, unsigned long long *tmp)
{
    v = warp_sum64(v);
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) tmp[w] = v;
    __syncthreads();
    unsigned long long t = 0;
    if (threadIdx.x == 0)
        for (int k = 0; k < (int)(blockDim.x >> 5); k++) t += tmp[k];
    __syncthreads();
    return t;
}

// The 64-byte header (doc/format.md section 3) as the kernels need it.
struct eccl_dev_header {
    unsigned char dtype, mode;
    uint32_t nsum;
    uint64_t count;
    double bound, eb, range;
};

__device__ __forceinline__ void write_header(unsigned char *b, const eccl_dev_header &h, uint64_t ssize)
{
    for (int k = 0; k < 64; k++) b[k] = 0;
    b[0] = 'E'; b[1] = 'C'; b[2] = 'C'; b[3] = 'L';
    b[ECCL_HDR_VMAJOR] = 1;
    b[ECCL_HDR_VMINOR] = 0;
    b[ECCL_HDR_DTYPE] = h.dtype;
    b[ECCL_HDR_MODE] = h.mode;
    b[ECCL_HDR_BLOCKLOG] = ECCL_FMT_BLOCK_LOG2;
    b[ECCL_HDR_TILELOG] = ECCL_FMT_TILE_LOG2;
    st_bytes(b + ECCL_HDR_NSUM, h.nsum, 4);
    st_bytes(b + ECCL_HDR_COUNT, h.count, 8);
    st_bytes(b + ECCL_HDR_BOUND, eccl_f64_as_u64(h.bound), 8);
    st_bytes(b + ECCL_HDR_EB, eccl_f64_as_u64(h.eb), 8);
    st_bytes(b + ECCL_HDR_RANGE, eccl_f64_as_u64(h.range), 8);
    st_bytes(b + ECCL_HDR_SIZE, ssize, 8);
}

// eb in force (doc/format.md 3.1), as src/codec/stream.c computes it; -1 when invalid.
__device__ __forceinline__ double dev_eb_in_force(int mode, double bound, double range)
{
    if (mode == 0) return (bound == 0.0 && range == 0.0) ? 0.0 : -1.0;
    if (!(bound > 0.0) || !isfinite(bound)) return -1.0;
    if (mode == 1) {
        if (range != 0.0) return -1.0;
        return bound < ECCL_FMT_EB_CAP ? bound : ECCL_FMT_EB_CAP;
    }
    if (mode != 2 || !(range >= 0.0)) return -1.0;
    double e = bound * range;
    return e < ECCL_FMT_EB_CAP ? e : ECCL_FMT_EB_CAP;
}

// Quantization parameters of a stream (src/codec/block.c eccl_qparams_init).
struct eccl_dev_q {
    int quant, is64, lag;
    double eb, D, R;
    int64_t qmax;
};
__device__ __forceinline__ eccl_dev_q dev_qparams(int dtype, int mode, double eb)
{
    eccl_dev_q q;
    q.is64 = dtype == 2 || dtype == 4;
    q.lag = dtype >= 3 ? 2 : 1;
    q.eb = eb;
    q.quant = mode != 0 && eccl_fmt_can_quantize(eb);
    q.D = q.quant ? eccl_fmt_quantum(eb) : 0.0;
    q.R = q.quant ? 1.0 / q.D : 0.0;
    q.qmax = q.is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
    return q;
}

#endif
