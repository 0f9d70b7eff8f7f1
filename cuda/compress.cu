// compress.cu - the compression kernel: one CTA per tile (256 blocks of 32 values), one warp per
// block at a time (lane i holds value i), a single pass with decoupled look-back for the tile
// offsets, the stream finished by the last CTA (header, checksum, size in device memory): no host
// synchronisation. Output byte-identical to src/codec (doc/format.md section 8).
//
// Phase A quantizes the tile once into shared memory (float64: 64-bit rows, each warp loading its
// next block while it quantizes one), phase B encodes every block into a per-warp staging area
// (predecessors come from phase A; float64's staging overlays its rows), then the CTA finds its
// offset, compacts the staging areas and writes the tile with 16-byte stores (cuda/enc64.cuh).
// float32 streams are compressed by compress32.cu, float64 and complex128 ones by compress64.cu,
// which falls back to this tile coder where a tile needs it; this kernel remains as the
// experiment baseline (NVCCFLAGS=-DECCL_C64_FAST=0).
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/dec.cuh"
#include "cuda/enc64.cuh"
#include "cuda/kernels.h"

template <int NT>
__global__ void __launch_bounds__(NT, 1024 / NT) eccl_compress_kernel(eccl_comp_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ comp_smem sm;
    if (threadIdx.x == 0) {
        sm.tile_id = atomicAdd(&a.s->tile_counter, 1ull) - a.tile_base;
        eccl_dev_header h = a.h;
        if (a.rel_range_on_device) { // REL with the range computed by eccl_range_kernel
            unsigned long long kmin = a.s->rkey[0], kmax = a.s->rkey[1];
            double lo = eccl_u64_as_f64(eccl_fmt_unkey64(kmin)), hi = eccl_u64_as_f64(eccl_fmt_unkey64(kmax));
            h.range = kmin <= kmax ? hi - lo : 0.0;
            h.eb = dev_eb_in_force(2, h.bound, h.range);
        }
        sm.h = h;
        sm.q = dev_qparams(h.dtype, h.mode, h.eb);
    }
    __syncthreads();
    // dynamic shared memory: the rows, which the staging areas overlay
    compress_tile<NT>(a, sm, (long long *)dyn);
}

// ---- The fused homomorphic kernel for 64-bit streams (float64, complex128) -----------------------
// One CTA of 256 threads per tile: the received stream's tile is checked and decoded (dec.cuh:
// steps 1-2, then one warp per block) into 64-bit rows in shared memory; each warp quantizes the
// local array's block, combines it with the decoded one by the rules of doc/format.md section 11
// (integers where both inputs are integers and every result fits in [-QMAX, QMAX], else the exact
// values, as src/codec/hom.c does), and the rows are encoded by compress_tile<256, true>
// (the compression kernel's phase B and write-out). One launch; the bytes are those of
// eccl_hom_reduce. Shared memory: the rows, then the input payload, reused as the staging area.

namespace {

__device__ __forceinline__ unsigned long long rec_bits64(long long q, double D)
{
    return (unsigned long long)__double_as_longlong((double)q * D);
}

// A QUANT block's integers into its row (lane i: integer i), checked as decode_quant checks them.
__device__ int decode_quant_ints64(const dec_smem &sm, const unsigned char *pay, int b, uint64_t n, uint64_t b0,
                                   int lane, long long *row)
{
    const eccl_dev_q &q = sm.q;
    qblock k = parse_quant(sm, pay, b, n, b0, 1);
    unsigned long long m = lane_bits<unsigned long long>(pay, k.o, k.F, lane);
    long long v = lane < k.r ? ((k.negmask >> lane) & 1u ? 0ll - (long long)m : (long long)m) : 0;
    if (!k.none) {
        v = warp_scan_lag_small<long long>(v, q.lag, k.F, lane);
        if (k.head) v += (long long)k.q0;
        else v += (long long)sm.tail[b - 1][q.lag == 1 ? 1 : (lane & 1)];
    }
    int bad = lane < k.r && (v > (long long)q.qmax || v < -(long long)q.qmax);
    if (lane < k.r) row[lane] = v;
    return !__any_sync(ECCL_WARP_FULL, bad);
}

} // namespace

// Shared memory: only the rows. The input payload is read in place (through L1, which the
// validation pass has just filled), and the output staging overlays the rows: warp w's staging
// area is the rows of its own 32 blocks, and a block's encoding, at most its 256 bytes, starts no
// later than its own row (the blocks before it took at most 256 bytes each) and is written after
// the warp has read that row; rows of later blocks are untouched. So 2 CTAs per SM (the
// registers' limit) instead of 1 with a staged payload and a separate staging area.
// ECCL_HOM64_MINB (experiments): the CTAs per SM the registers are sized for.
#ifndef ECCL_HOM64_MINB
#define ECCL_HOM64_MINB 2
#endif
#define HOM64_ROWS (256 * 32 * 8)
#define HOM64_SMEM HOM64_ROWS

// VIEW: the local array is a view (a.lv.rows != 0), read through the tile's map (ds.map).
template <bool VIEW>
__global__ void __launch_bounds__(256, ECCL_HOM64_MINB) eccl_hom64_kernel(eccl_hom_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ dec_smem ds;
    __shared__ comp_smem sm;
    constexpr int BPW = 32; // blocks per warp
    long long *rows = (long long *)dyn;      // 256 blocks of 32 values, then the output staging
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.in.s;
    if (tid == 0) {
        hom_open(a, 1, ds, &sm.tile_id, &sm.h, &sm.q);
        if (VIEW) ds.map = make_tile_map(a.lv, sm.tile_id * 8192);
    }
    __syncthreads();
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.in.nb - b0 < 256 ? a.in.nb - b0 : 256;
    const uint64_t v0 = b0 * 32;

    // 1. The input tile: placement, payload, validation, chains, then each block's integers (or
    //    a RAW block's bits) into its row; ds.flag[b] = 1 where the input block is integers.
    int ok = ds.ok;
    unsigned long long hin = 0;
    if (ok) ok = tile_prepare<true, 256, false>(a.in, t, nullptr, ds, &hin);
    if (ok) {
        const unsigned char *pay = tile_payload<false>(a.in, nullptr, ds);
        int good = 1;
        for (int k = 0; k < BPW; k++) {
            int b = w * BPW + k;
            if (b >= (int)nblk) break;
            unsigned code = ds.codes[b];
            int raw = eccl_fmt_code_is_raw(code);
            if (raw)
                good &= decode_raw(q, code, pay + ds.boff[b], eccl_fmt_block_len(a.in.n, b0 + b), lane, rows,
                                   tile_map{0, 0, 0, 0}, (uint32_t)b * 32);
            else
                good &= decode_quant_ints64(ds, pay, b, a.in.n, b0, lane, rows + b * 32);
            if (lane == 0) ds.flag[b] = (unsigned char)!raw;
        }
        if (__syncthreads_or(!good)) {
            if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            ok = 0;
        }
    }
    if (!ok) { // a corrupt input tile: zeros, so that the look-back chain still completes
        for (int e = tid; e < 256 * 32; e += 256) rows[e] = 0;
        ds.flag[tid] = 1;
        hin = 0;
    }
    __syncthreads();

    // 2. Per block (one warp): quantize the local values, combine, and leave the output block in
    //    the row: integers (sm.qok, with the tails for the next block's predictor) or bits.
    //    (each warp loads its next block's local values while it combines one)
    const double *xl = VIEW ? (const double *)a.local : (const double *)a.local + v0;
    double nxt = 0.0;
    if (w * BPW < (int)nblk && lane < eccl_fmt_block_len(a.in.n, b0 + w * BPW))
        nxt = xl[VIEW ? ds.map.at((uint32_t)(w * BPW * 32 + lane)) : (uint64_t)w * BPW * 32 + lane];
    for (int k = 0; k < BPW; k++) {
        int b = w * BPW + k;
        if (b >= (int)nblk) break;
        const int r = eccl_fmt_block_len(a.in.n, b0 + b);
        const double xv = nxt;
        if (k + 1 < BPW && b + 1 < (int)nblk && lane < eccl_fmt_block_len(a.in.n, b0 + b + 1))
            nxt = xl[VIEW ? ds.map.at((uint32_t)((b + 1) * 32 + lane)) : (uint64_t)(b + 1) * 32 + lane];
        long long qb = 0;
        unsigned long long xb = 0;
        int okl = 1;
        if (lane < r) {
            xb = (unsigned long long)__double_as_longlong(xv);
            okl = q.quant ? quantize(xv, q, &qb) : 0;
        }
        const int lok = q.quant && __all_sync(ECCL_WARP_FULL, okl);
        const int ka = ds.flag[b];
        long long *row = rows + b * 32;
        const long long qa = lane < r ? row[lane] : 0;
        long long Q = a.op == ECCL_KOP_SUM ? qa + qb : a.op == ECCL_KOP_MAX ? (qa > qb ? qa : qb) : (qa < qb ? qa : qb);
        int fits = lane >= r || (Q <= (long long)q.qmax && Q >= -(long long)q.qmax);
        const int useint = ka && lok && __all_sync(ECCL_WARP_FULL, fits);
        if (lane < r) {
            if (useint) {
                row[lane] = Q;
            } else {
                unsigned long long ba = ka ? rec_bits64(qa, q.D) : (unsigned long long)qa;
                unsigned long long bb = lok ? rec_bits64(qb, q.D) : xb;
                row[lane] = (long long)apply64(a.op, ba, bb);
            }
        }
        if (!useint) Q = 0;
        long long t1 = __shfl_sync(ECCL_WARP_FULL, Q, r - 1), t0 = __shfl_sync(ECCL_WARP_FULL, Q, r - q.lag);
        if (lane == 0) {
            sm.qok[b] = (unsigned char)useint;
            sm.tail[b][0] = t0;
            sm.tail[b][1] = t1;
        }
    }
    hin = cta_sum(hin, ds.csum_tmp); // (synchronises the CTA: the rows and flags are complete)
    if (tid == 0 && hin) atomicAdd(&s->checksum2, hin);

    // 3. Encode the rows and write the tile out (the last CTA: header, checksum, input's verdict).
    eccl_comp_args o;
    o.x = nullptr;
    o.v = eccl_view{0, 0, 0};
    o.n = a.in.n;
    o.nb = a.in.nb;
    o.nt = a.in.nt;
    o.P = a.in.P;
    o.out = a.out;
    o.h = sm.h;
    o.rel_range_on_device = 0;
    o.s = s;
    o.tile_base = a.tile_base;
    o.done_base = a.done_base;
    o.epoch = a.epoch;
    o.d_size = a.d_size;
    compress_tile<256, true>(o, sm, rows, (const unsigned long long *)(a.in.in + ECCL_HDR_CHECKSUM));
}

cudaError_t eccl_hom64_setup(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_hom64_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM);
    return e ? e : cudaFuncSetAttribute(eccl_hom64_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM64_SMEM);
}

cudaError_t eccl_launch_hom64(const eccl_hom_args &a, cudaStream_t st)
{
    if (a.in.nt == 0) return eccl_launch_hom32(a, st); // the header alone (any dtype)
    if (a.lv.rows) eccl_hom64_kernel<true><<<(unsigned)a.in.nt, 256, HOM64_SMEM, st>>>(a);
    else eccl_hom64_kernel<false><<<(unsigned)a.in.nt, 256, HOM64_SMEM, st>>>(a);
    return cudaGetLastError();
}

// A stream of zero elements: the header alone.
static __global__ void eccl_compress_empty_kernel(eccl_comp_args a)
{
    unsigned char hb[64];
    write_header(hb, a.h, 64);
    unsigned long long sum = 0;
    sum += chk_header(hb);
    st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
    for (int k = 0; k < 64; k++) a.out[k] = hb[k];
    if (a.d_size) *a.d_size = 64;
    a.s->total_size = 64;
}

// f(offset) for the offset of each of the n values of view vw, the CTAs of the grid taking pieces
// of 8192 values (a tile's worth: one tile map per piece) in turn.
template <class Fn> __device__ __forceinline__ void grid_view_for(const eccl_view &vw, uint64_t n, Fn f)
{
    for (uint64_t p0 = (uint64_t)blockIdx.x * 8192; p0 < n; p0 += (uint64_t)gridDim.x * 8192) {
        const tile_map map = make_tile_map(vw, p0);
        const uint32_t len = n - p0 < 8192 ? (uint32_t)(n - p0) : 8192u;
        for (uint32_t i = threadIdx.x; i < len; i += blockDim.x) f(map.at(i));
    }
}

// The grid for grid_view_for over n values.
static unsigned view_grid(uint64_t n)
{
    uint64_t blocks = (n + 8191) / 8192;
    return blocks > 1024 ? 1024u : blocks == 0 ? 1u : (unsigned)blocks;
}

// Min and max of the finite values (REL bounds), as ordered keys so that atomics compare them.
static __global__ void eccl_range_kernel(const void *x, eccl_view vw, uint64_t n, int is64, eccl_dev_scratch *s)
{
    __shared__ unsigned long long tmp[2][32];
    unsigned long long lo = ~0ull, hi = 0;
    grid_view_for(vw, n, [&](uint64_t o) {
        double v = is64 ? ((const double *)x)[o] : (double)((const float *)x)[o];
        if (isfinite(v)) {
            unsigned long long k = eccl_fmt_key64(eccl_f64_as_u64(v));
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    });
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long a = __shfl_down_sync(ECCL_WARP_FULL, lo, o), b = __shfl_down_sync(ECCL_WARP_FULL, hi, o);
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) {
        tmp[0][w] = lo;
        tmp[1][w] = hi;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int k = 1; k < (int)(blockDim.x / 32); k++) {
            lo = tmp[0][k] < lo ? tmp[0][k] : lo;
            hi = tmp[1][k] > hi ? tmp[1][k] : hi;
        }
        atomicMin(&s->rkey[0], lo);
        atomicMax(&s->rkey[1], hi);
    }
}

#define ECCL_SMEM_MAX (65536 + 64)

cudaError_t eccl_compress_setup(void)
{
    cudaError_t e = eccl_compress32_setup();
    if (!e) e = eccl_compress64_setup();
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<256>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<1024>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    return e;
}

cudaError_t eccl_launch_compress(const eccl_comp_args &a, int is64, int big, cudaStream_t st)
{
    if (a.nt == 0) {
        eccl_compress_empty_kernel<<<1, 1, 0, st>>>(a);
        return cudaGetLastError();
    }
    if (!is64) return eccl_launch_compress32(a, big, st); /* thread-per-block (compress32.cu) */
    if (eccl_compress64_applies(a)) return eccl_launch_compress64(a, big, st); /* (compress64.cu) */
    const size_t smem = (size_t)256 * 32 * 8; /* the 256 blocks' rows, with the staging over them */
    const unsigned grid = (unsigned)a.nt;
    if (!big) eccl_compress_kernel<256><<<grid, 256, smem, st>>>(a);
    else eccl_compress_kernel<1024><<<grid, 1024, smem, st>>>(a);
    return cudaGetLastError();
}

cudaError_t eccl_launch_range(const void *x, const eccl_view &v, uint64_t n, int is64, eccl_dev_scratch *s,
                              cudaStream_t st)
{
    eccl_range_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, s);
    return cudaGetLastError();
}

static __global__ void eccl_fill_view_kernel(void *x, eccl_view vw, uint64_t n, int is64, uint64_t bits)
{
    grid_view_for(vw, n, [&](uint64_t o) {
        if (is64) ((unsigned long long *)x)[o] = bits;
        else ((unsigned *)x)[o] = (unsigned)bits;
    });
}

cudaError_t eccl_launch_fill_view(void *x, const eccl_view &v, uint64_t n, int is64, uint64_t bits, cudaStream_t st)
{
    if (n == 0) return cudaSuccess;
    eccl_fill_view_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, bits);
    return cudaGetLastError();
}

static __global__ void eccl_div_view_kernel(void *x, eccl_view vw, uint64_t n, int is64, unsigned p)
{
    grid_view_for(vw, n, [&](uint64_t o) {
        if (is64) ((double *)x)[o] = __ddiv_rn(((double *)x)[o], (double)p);
        else ((float *)x)[o] = __fdiv_rn(((float *)x)[o], (float)p);
    });
}

cudaError_t eccl_launch_div_view(void *x, const eccl_view &v, uint64_t n, int is64, unsigned p, cudaStream_t st)
{
    if (n == 0) return cudaSuccess;
    eccl_div_view_kernel<<<view_grid(n), 256, 0, st>>>(x, v, n, is64, p);
    return cudaGetLastError();
}

// out[i] = in[0][i] op ... op in[n-1][i] over the ranks of a node (eccl_launch_reduce_n).
template <typename U>
static __global__ void eccl_reduce_n_kernel(U *out, eccl_node_srcs in, int n, uint64_t reals, int op)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < reals; i += (uint64_t)gridDim.x * blockDim.x) {
        U acc = ((const U *)in.p[0])[i];
        for (int k = 1; k < n; k++) {
            U b = ((const U *)in.p[k])[i];
            if (sizeof(U) == 8) acc = (U)apply64(op, (unsigned long long)acc, (unsigned long long)b);
            else acc = (U)apply32(op, (unsigned)acc, (unsigned)b);
        }
        out[i] = acc;
    }
}

cudaError_t eccl_launch_reduce_n(void *out, const eccl_node_srcs &in, int n, uint64_t reals, int is64, int op,
                                 cudaStream_t st)
{
    if (reals == 0) return cudaSuccess;
    if (n < 1 || n > ECCL_NODE_MAX) return cudaErrorInvalidValue;
    uint64_t blocks = (reals + 255) / 256;
    unsigned grid = blocks > 4096 ? 4096u : (unsigned)blocks;
    if (is64) eccl_reduce_n_kernel<unsigned long long><<<grid, 256, 0, st>>>((unsigned long long *)out, in, n, reals, op);
    else eccl_reduce_n_kernel<unsigned><<<grid, 256, 0, st>>>((unsigned *)out, in, n, reals, op);
    return cudaGetLastError();
}
