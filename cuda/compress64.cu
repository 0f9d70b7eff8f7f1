// compress64.cu - the compression kernel for float64 and complex128 streams (contiguous arrays and
// matrix views): one CTA per tile and, where the tile allows it, one THREAD per block, as
// compress32.cu does for float32.
//
// The fast path holds when every block of the tile quantizes and all its integers lie within
// +-(2^30 - 1) (a value below about 5e8 quanta: |x| < 1e3 at ABS 1e-6, for instance). Then the
// integers and their deltas fit 32 bits, and the float32 coder's per-thread plans apply
// (enc32.cuh plan_quant<true>: 6-byte head values, 45 planes behind the plane code 31). Phase A
// quantizes with coalesced 16-byte loads into rows of 32-bit integers; phase B plans every block
// in a thread, a CTA scan places the blocks, each thread writes its block's image into shared
// memory, and the image goes out with 16-byte stores.
//
// Only the tile's first block can carry a head value (no block of a fast tile is RAW), and its
// 6 bytes are the only field that is not a multiple of 4 bytes: the image is built 2 bytes into
// shared memory when that block has one, so every later field is word-aligned there, and the
// copy-out shifts it back by funnel shifts.
//
// Any other tile (a value that does not quantize, NaN or inf, a larger integer, a short last block
// that QUANT cannot hold, LOSSLESS, a bound too small to quantize) is coded by compress.cu's
// warp-per-block tile coder (enc64.cuh compress_tile), in the same launch: tiles are independent
// but for the look-back and the finishing CTA, which both coders share. Same bytes as src/codec.
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/enc32.cuh"
#include "cuda/enc64.cuh"
#include "cuda/kernels.h"

// Experiment knob (NVCCFLAGS=-DECCL_C64_FAST=0): contiguous 64-bit streams by compress.cu alone.
#ifndef ECCL_C64_FAST
#define ECCL_C64_FAST 1
#endif
#ifndef ECCL_C64_MINB // CTAs per SM the 256-thread kernel's registers are sized for
#define ECCL_C64_MINB 3
#endif
// Dynamic shared memory: the rows of compress_tile (256 blocks of 32 64-bit words), which the
// fast path's rows of 32-bit integers and its image (at most 2 + 256 * 190 bytes) overlay.
#define C64_SMEM (256 * 32 * 8)

namespace {

constexpr int C64_QW = (1 << 30) - 1; // the fast path's integers: within +-C64_QW

struct c64_smem {
    comp_smem c;    // what compress_tile needs (tile id, parameters, header), the codes and qok
    tile_map map;   // VIEW: where the tile's values are read
    int wsum[8];    // per warp of planners: the inclusive sum of its blocks' sizes, then its offset
    unsigned shift; // 2 when block 0 carries a head value (the image starts 2 bytes in), else 0
};

// Values i, i+1 (i even) of x (n values; zeros beyond), one 16-byte load where both exist.
__device__ __forceinline__ double2 load2(const double *x, uint64_t i, uint64_t n)
{
    if (i + 1 < n) return *(const double2 *)(x + i);
    return make_double2(i < n ? x[i] : 0.0, 0.0);
}

// The same for a tile's values i, i+1 through its map (codec_dev.cuh): one 16-byte load when vec
// (the view's pairs are aligned and never straddle a column), else one per value.
__device__ __forceinline__ double2 load2_map(const double *x, const tile_map &map, int vec, uint64_t i, uint64_t n)
{
    if (vec && i + 1 < n) return *(const double2 *)(x + map.at((uint32_t)i));
    return make_double2(i < n ? x[map.at((uint32_t)i)] : 0.0, i + 1 < n ? x[map.at((uint32_t)(i + 1))] : 0.0);
}

// Phase A of the fast path: the tile's integers into rows of ROW words (nv values: from x + v0,
// or VIEW, from x through sm.map); each lane quantizes two neighbours, so a warp covers two blocks
// per step. sm.c.qok[b]: block b quantizes and every integer fits the fast path. Returns whether
// every block of the tile does.
template <int NT, bool VIEW>
__device__ __forceinline__ int quantize_tile64(const eccl_comp_args &a, c64_smem &sm, int *qs, uint64_t v0,
                                               uint64_t nv, int nblk, int w, int lane)
{
    const eccl_dev_q q = sm.c.q;
    constexpr uint64_t STEP = NT / 32 * 64;
    const int vec = !VIEW || (!(a.v.rows & 1) && !(a.v.ld & 1) && !(a.v.first & 1) && !((uintptr_t)a.x & 15));
    const double *x = VIEW ? (const double *)a.x : (const double *)a.x + v0;
    const uint64_t i0 = (uint64_t)w * 64 + 2 * lane;
    double2 nxt = VIEW ? load2_map(x, sm.map, vec, i0, nv) : load2(x, i0, nv);
#pragma unroll 1
    for (uint64_t g = (uint64_t)w * 64; g < nv; g += STEP) {
        const uint64_t i = g + 2 * lane;
        const double2 v = nxt;
        if (g + STEP < nv) nxt = VIEW ? load2_map(x, sm.map, vec, i + STEP, nv) : load2(x, i + STEP, nv);
        long long q0 = 0, q1 = 0;
        int ok = 1;
        if (i < nv) ok &= quantize(v.x, q, &q0) && q0 <= C64_QW && q0 >= -C64_QW;
        if (i + 1 < nv) ok &= quantize(v.y, q, &q1) && q1 <= C64_QW && q1 >= -C64_QW;
        int *row = qs + ROW * (int)(i >> 5) + (int)(i & 31);
        row[0] = (int)q0;
        row[1] = (int)q1;
        const uint32_t bal = __ballot_sync(ECCL_WARP_FULL, ok);
        if ((lane & 15) == 0 && i < nv) sm.c.qok[i >> 5] = ((bal >> lane) & 0xFFFFu) == 0xFFFFu;
    }
    __syncthreads();
    const int b = threadIdx.x;
    return __syncthreads_and(b >= nblk || sm.c.qok[b]);
}

// The fast path's phase B to the end: plans (returns 0, with nothing written, when a block cannot
// be QUANT: the caller codes the tile with compress_tile), placement, image, copy-out, codes, tile
// index, checksum, and the header from the last CTA.
template <int NT>
__device__ int encode_tile64(const eccl_comp_args &a, c64_smem &sm, int *qs, unsigned char *img, uint64_t t,
                             uint64_t b0, int nblk)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    const eccl_dev_q q = sm.c.q;
    const int b = tid;
    uint32_t m[32];
    plan p;
    p.size = 0;
    p.head = 0;
    if (b < nblk) {
        const int r = b0 + b == a.nb - 1 ? eccl_fmt_block_len(a.n, a.nb - 1) : 32;
        p = plan_quant<true>(q, qs, b, r, b > 0, m);
        sm.c.codes[b] = (unsigned char)p.code;
        if (b == 0) sm.shift = p.head ? 2u : 0u;
    }
    if (__syncthreads_or(b < nblk && p.size < 0)) return 0; // (a short last block QUANT cannot hold)
    int incl = p.size; // CTA exclusive scan of the sizes (even numbers)
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(ECCL_WARP_FULL, incl, o);
        if (lane >= o) incl += u;
    }
    if (lane == 31 && w < 8) sm.wsum[w] = incl;
    __syncthreads();
    if (tid == 0) { // the tile's size, published at once so successors can go on
        unsigned tot = 0;
        for (int k = 0; k < 8; k++) {
            unsigned v = (unsigned)sm.wsum[k];
            sm.wsum[k] = (int)tot;
            tot += v;
        }
        unsigned long long padded = (tot + 15u) & ~15ull;
        atomicExch(&s->status[t], eccl_lb_pack(a.epoch, t == 0 ? ECCL_LB_INC : ECCL_LB_AGG, padded));
        sm.c.total = tot;
        sm.c.padded = (unsigned)padded;
    }
    __syncthreads();
    const unsigned tot = sm.c.total, padded = sm.c.padded, sh = sm.shift;
    if (w == NT / 32 - 1) { // the last warp looks back while the others build the image
        unsigned long long off = t == 0 ? 0 : look_back_warp(s, t, padded, a.epoch, lane);
        if (lane == 0) {
            sm.c.tile_off = off;
            if (t == a.nt - 1) s->total_size = a.P + off + padded;
        }
    }
    if (b < nblk) { // the block's image: every field word-aligned but block 0's head value
        unsigned at = sh + (unsigned)(sm.wsum[w] + incl - p.size);
        if (p.head) { // (block 0 only: 6 bytes at 2..7, the zigzag value below 2^31)
            *(uint16_t *)(img + 2) = (uint16_t)p.head_word;
            *(uint32_t *)(img + 4) = p.head_word >> 16;
            at = 8;
        }
        uint32_t *o = (uint32_t *)(img + at);
        if (p.with_sign) *o++ = p.neg;
        const int F = p.F < 31 ? p.F : 31; // planes 31..44 of a 45-plane block are zero
        planes(o, m, F);
        for (int j = F; j < p.F; j++) o[j] = 0;
    }
    __syncthreads();

    // Copy out with 16-byte stores (shifted back by sh bytes, bytes past tot zero) and hash.
    const unsigned long long gpos = a.P + sm.c.tile_off;
    const uint32_t *img32 = (const uint32_t *)img;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += NT) {
        uint32_t wd[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const unsigned pb = 16 * c + 4 * k; // tile byte of this word
            uint32_t v = sh ? __funnelshift_r(img32[4 * c + k], img32[4 * c + k + 1], 16) : img32[4 * c + k];
            if (pb >= tot) v = 0;
            else if (tot - pb < 4) v &= (1u << (8 * (tot - pb))) - 1u;
            wd[k] = v;
        }
        uint4 v = make_uint4(wd[0], wd[1], wd[2], wd[3]);
        *(uint4 *)(a.out + gpos + 16 * c) = v;
        h += chk_chunk(v, gpos + 16 * c);
    }
    // block codes (and, for the last tile, the zero padding up to the payload), as u64 words
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t wd = cstart / 8 + tid; wd < cend / 8; wd += NT) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t z = 8 * wd + k - cstart;
            v |= (uint64_t)(z < (uint64_t)nblk ? sm.c.codes[z] : 0) << (8 * k);
        }
        *(unsigned long long *)(a.out + 8 * wd) = v;
        h += chk_word(v, wd);
    }
    if (tid == 0) { // tile index entry
        *(unsigned long long *)(a.out + 64 + 8 * t) = sm.c.tile_off;
        h += chk_word(sm.c.tile_off, (64 + 8 * t) / 8);
    }
    h = cta_sum(h, sm.c.csum_tmp);
    if (tid == 0) {
        atomicAdd(&s->checksum, h);
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) { // the last CTA: header and checksum
            __threadfence();
            unsigned long long size = *(volatile unsigned long long *)&s->total_size;
            unsigned char hb[64];
            write_header(hb, sm.c.h, size);
            unsigned long long sum = atomicExch(&s->checksum, 0ull) + chk_header(hb);
            st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
            for (int k = 0; k < 16; k++) ((uint32_t *)a.out)[k] = (uint32_t)ld_bytes(hb + 4 * k, 4);
            if (a.d_size) *a.d_size = size;
        }
    }
    return 1;
}

} // namespace

// NT = 256 threads per CTA, or 1024 for small streams (fewer tiles than twice the SMs: 32 warps
// quantize a tile instead of 8). VIEW: the input is a view (a.v.rows != 0), read through the
// tile's map; one instance per layout, so that the contiguous kernel is the plain one.
template <int NT, bool VIEW>
__global__ void __launch_bounds__(NT, NT == 256 ? ECCL_C64_MINB : 1) eccl_compress64_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ c64_smem sm;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    if (tid == 0) {
        sm.c.tile_id = atomicAdd(&a.s->tile_counter, 1ull) - a.tile_base;
        if (VIEW) sm.map = make_tile_map(a.v, sm.c.tile_id * 8192);
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) { // REL with the range computed by eccl_range_kernel
            unsigned long long kmin = a.s->rkey[0], kmax = a.s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.c.h = h;
        sm.c.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    const uint64_t t = sm.c.tile_id, b0 = t << 8;
    const int nblk = (int)(a.nb - b0 < 256 ? a.nb - b0 : 256);
    const uint64_t v0 = b0 * 32, nv = a.n - v0 < 8192 ? a.n - v0 : 8192;
    int *qs = (int *)dyn;
    if (sm.c.q.quant && quantize_tile64<NT, VIEW>(a, sm, qs, v0, nv, nblk, w, lane) &&
        encode_tile64<NT>(a, sm, qs, dyn, t, b0, nblk))
        return;
    __syncthreads(); // (every thread is past the fast path's reads of the rows)
    compress_tile<NT>(a, sm.c, (long long *)dyn);
}

cudaError_t eccl_compress64_setup(void)
{
    cudaError_t e = cudaSuccess;
    const void *k[4] = {(const void *)eccl_compress64_kernel<256, false>, (const void *)eccl_compress64_kernel<1024, false>,
                        (const void *)eccl_compress64_kernel<256, true>, (const void *)eccl_compress64_kernel<1024, true>};
    for (int i = 0; i < 4 && !e; i++) e = cudaFuncSetAttribute(k[i], cudaFuncAttributeMaxDynamicSharedMemorySize, C64_SMEM);
    return e;
}

int eccl_compress64_applies(const eccl_comp_args &a)
{
    (void)a;
    return ECCL_C64_FAST;
}

cudaError_t eccl_launch_compress64(const eccl_comp_args &a, int big, cudaStream_t st)
{
    const unsigned g = (unsigned)a.nt;
    if (a.v.rows) {
        if (big) eccl_compress64_kernel<1024, true><<<g, 1024, C64_SMEM, st>>>(a);
        else eccl_compress64_kernel<256, true><<<g, 256, C64_SMEM, st>>>(a);
    } else {
        if (big) eccl_compress64_kernel<1024, false><<<g, 1024, C64_SMEM, st>>>(a);
        else eccl_compress64_kernel<256, false><<<g, 256, C64_SMEM, st>>>(a);
    }
    return cudaGetLastError();
}
