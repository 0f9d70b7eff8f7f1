// compress32.cu - the float32 compression kernel for large streams: one CTA of 256 threads per
// tile, and one THREAD per block. Phase A quantizes the tile with coalesced 16-byte loads into
// shared memory (rows of 33 words: conflict-free for thread-per-block access); phase B has each
// thread choose its block's encoding from registers, a CTA scan places the blocks, and each
// thread writes its payload into the tile image, which goes out with 16-byte stores. Per-block
// decisions are scalar work of one thread, not of a whole warp. Same bytes as src/codec.
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/enc32.cuh"
#include "cuda/kernels.h"


// Experiment knobs (NVCCFLAGS=-DECCL_C32_MINB=4 ...): CTAs per SM the registers are sized for, and
// whether the payload image overlays the integer rows (they are dead once every block is planned:
// each thread then holds what its block's image needs in registers), which halves the shared
// memory.
#ifndef ECCL_C32_MINB
#define ECCL_C32_MINB 4
#endif
#ifndef ECCL_C32_V2_MINB // the same for the version-2 instance (ptxas: 152 bytes of spills at 4, 48 at 3)
#define ECCL_C32_V2_MINB 4
#endif
#ifndef ECCL_C32_V3_MINB // the same for the version-3 instance
#define ECCL_C32_V3_MINB 3
#endif
#ifndef ECCL_C32_BIG // 1024-thread CTAs for small streams (NT below)
#define ECCL_C32_BIG 1
#endif
#ifndef ECCL_C32_OVERLAY
#define ECCL_C32_OVERLAY 1
#endif
#if ECCL_C32_OVERLAY
#define C32_SMEM (256 * ROW * 4)
#else
#define C32_SMEM (256 * ROW * 4 + 16 + 8192 * 4 + 16)
#endif

// Phase A of a tile (values v0 .. v0 + nv of the kernel): the integers into the rows, sm.qok per
// block. VIEW: the values are read through the tile's map (sm.map), with 16-byte loads where every
// group of 4 values is aligned and in one column.
template <int NT, bool VIEW>
__device__ __forceinline__ void quantize_tile32(const eccl_comp_args &a, c32_smem &sm, int *qs, uint64_t v0,
                                                uint64_t nv, int w, int lane)
{
    const eccl_dev_q q = sm.q; // (in registers: the loop reads it for every value)
    constexpr uint64_t STEP = NT / 32 * 128; // values the CTA loads per step
    const int vec = !VIEW || (!(a.v.rows & 3) && !(a.v.ld & 3) && !(a.v.first & 3) && !((uintptr_t)a.x & 15));
    const float *x = VIEW ? (const float *)a.x : (const float *)a.x + v0;
    float nxt[4];
    if (VIEW) load4_map(x, sm.map, vec, (uint64_t)w * 128 + 4 * lane, nv, nxt);
    else load4(x, (uint64_t)w * 128 + 4 * lane, nv, nxt);
#pragma unroll 1
    for (uint64_t g = (uint64_t)w * 128; g < nv; g += STEP) {
        uint64_t i = g + 4 * lane;
        float v[4] = {nxt[0], nxt[1], nxt[2], nxt[3]};
        if (g + STEP < nv) {
            if (VIEW) load4_map(x, sm.map, vec, i + STEP, nv, nxt);
            else load4(x, i + STEP, nv, nxt);
        }
        int ok = 1;
        int *row = qs + ROW * (int)(i >> 5) + (int)(i & 31);
#pragma unroll
        for (int k = 0; k < 4; k++) {
            int qi = 0;
            ok &= !q.quant ? 0 : (i + k < nv ? quantize32((double)v[k], q, &qi) : 1);
            row[k] = qi;
        }
        uint32_t bal = __ballot_sync(ECCL_WARP_FULL, ok);
        if ((lane & 7) == 0 && i < nv) sm.qok[i >> 5] = ((bal >> lane) & 0xFFu) == 0xFFu;
    }
}

// NT = 256 threads per CTA (4 CTAs per SM), or 1024 for small streams (no more tiles than SMs,
// cuda/codec.cu: one CTA per SM, 32 warps to quantize a tile instead of 8, the same register
// budget).
// VIEW: the input is a view (a.v.rows != 0), read through the tile's map; one instance per
// layout, so that the contiguous kernel is the plain one. V: the format version the instance
// writes (a.h.vmajor; version 2's second-order pricing would cost the version-1 kernel registers,
// and version 3's pricing of four forms the version-2 one).
template <int NT, bool VIEW, int V>
__global__ void __launch_bounds__(NT, NT == 256 ? (V == 3 ? ECCL_C32_V3_MINB : V == 2 ? ECCL_C32_V2_MINB : ECCL_C32_MINB) : 1)
    eccl_compress32_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ c32_smem sm;
    int *qs = (int *)dyn; // 256 rows of 33 integers
#if ECCL_C32_OVERLAY
    uint32_t *img = (uint32_t *)dyn; // the tile's payload image, written once the rows are planned
#else
    uint32_t *img = (uint32_t *)(dyn + 256 * ROW * 4 + 16); // the tile's payload image
#endif
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    PH(sm.ph, 0);
    if (tid == 0) {
        sm.tile_id = atomicAdd(&s->tile_counter, 1ull) - a.tile_base;
        if (VIEW) sm.map = make_tile_map(a.v, sm.tile_id * 8192);
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) {
            unsigned long long kmin = s->rkey[0], kmax = s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.h = h;
        sm.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    PH(sm.ph, 1);
    PH(sm.ph, 2);
    PH(sm.ph, 3);
    const unsigned long long t = sm.tile_id;
    const uint64_t b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;
    const uint64_t v0 = b0 * 32, nv = a.n - v0 < 8192 ? a.n - v0 : 8192;
    // Phase A: quantize with coalesced 16-byte loads (a warp covers 128 values, 4 blocks); the
    // next chunk's load is issued before this one is quantized (two loads in flight per thread;
    // H100: 953 -> 1036 GB/s; unrolling the loop as well lost, hence `unroll 1`). One instance
    // per layout, so that the contiguous loop holds no more registers than it needs.
    quantize_tile32<NT, VIEW>(a, sm, qs, v0, nv, w, lane);
    __syncthreads();
    PH(sm.ph, 4);

    enc32_out o;
    o.s = s;
    o.n = a.n;
    o.nb = a.nb;
    o.nt = a.nt;
    o.P = a.P;
    o.out = a.out;
    o.epoch = a.epoch;
    o.done_base = a.done_base;
    o.d_size = a.d_size;
    o.in_checksum = NULL;
    encode_tile32<NT, VIEW, V>(o, qs, img, sm, (const unsigned *)a.x + (VIEW ? 0 : v0), t, b0, nblk);
}

template <int V> static cudaError_t setup32(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_compress32_kernel<256, false, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, C32_SMEM);
    if (!e) e = cudaFuncSetAttribute(eccl_compress32_kernel<1024, false, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, C32_SMEM);
    if (!e) e = cudaFuncSetAttribute(eccl_compress32_kernel<256, true, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, C32_SMEM);
    if (!e) e = cudaFuncSetAttribute(eccl_compress32_kernel<1024, true, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, C32_SMEM);
    return e;
}

cudaError_t eccl_compress32_setup(void)
{
    cudaError_t e = setup32<1>();
    if (!e) e = setup32<2>();
    return e ? e : setup32<3>();
}

template <int V> static void launch32(const eccl_comp_args &a, int big, cudaStream_t st)
{
    const unsigned g = (unsigned)a.nt;
    if (a.v.rows) {
        if (big) eccl_compress32_kernel<1024, true, V><<<g, 1024, C32_SMEM, st>>>(a);
        else eccl_compress32_kernel<256, true, V><<<g, 256, C32_SMEM, st>>>(a);
    } else {
        if (big) eccl_compress32_kernel<1024, false, V><<<g, 1024, C32_SMEM, st>>>(a);
        else eccl_compress32_kernel<256, false, V><<<g, 256, C32_SMEM, st>>>(a);
    }
}

cudaError_t eccl_launch_compress32(const eccl_comp_args &a, int big, cudaStream_t st)
{
#if !ECCL_C32_BIG
    big = 0;
#endif
    if (a.h.vmajor >= 3) launch32<3>(a, big, st);
    else if (a.h.vmajor == 2) launch32<2>(a, big, st);
    else launch32<1>(a, big, st);
    return cudaGetLastError();
}
