// hom32.cu - the fused homomorphic kernel for 32-bit streams (float32, complex64): one CTA of
// 256 threads (1024 for streams of no more tiles than SMs) per tile decodes the received stream's
// tile into integer rows in shared memory (the decompression kernel's steps 1-2 and a
// thread-per-block integer decoder), quantizes the local array's tile with coalesced 16-byte
// loads and combines it with those integers in the same pass (SUM/MAX/MIN by the rules of
// doc/format.md section 11), then encodes the rows exactly as the float32 compression kernel does
// (look-back placement, 16-byte stores). One launch, no intermediate array in global memory; the
// bytes are those of src/codec/hom.c eccl_hom_reduce.
// (64-bit streams: eccl_hom64_kernel in compress64.cu, which shares the 64-bit encoders.)
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/dec.cuh"
#include "cuda/enc32.cuh"
#include "cuda/kernels.h"

namespace {

__device__ __forceinline__ unsigned rec_bits(int q, double D) { return __float_as_uint((float)((double)q * D)); }

} // namespace

// Experiment knobs (NVCCFLAGS=-DECCL_HOM32_STAGE=0 ...): stage the input tile's payload in shared
// memory (1) or decode it in place in the stream (0); let the output image overlay the rows
// (needs STAGE 0 to save anything); the CTAs per SM the registers are sized for.
#ifndef ECCL_HOM32_STAGE
#define ECCL_HOM32_STAGE 0
#endif
#ifndef ECCL_HOM32_OVERLAY
#define ECCL_HOM32_OVERLAY 1
#endif
// The input blocks' planes read once (tile_prepare's rows, as the decompression's ECCL_DEC_ROWS),
// or twice (0).
#ifndef ECCL_HOM32_ROWS
#define ECCL_HOM32_ROWS 1
#endif
#ifndef ECCL_HOM32_MINB
#define ECCL_HOM32_MINB 4
#endif
// 1024-thread CTAs for streams of no more tiles than SMs (as compression's ECCL_C32_BIG: each CTA
// is alone on its SM, and 32 warps quantize and combine its tile instead of 8).
#ifndef ECCL_HOM32_BIG
#define ECCL_HOM32_BIG 1
#endif
#if ECCL_HOM32_STAGE || !ECCL_HOM32_OVERLAY
#define HOM32_SMEM (256 * ROW * 4 + 16 + 256 * 32 * 4 + 48)
#else
#define HOM32_SMEM (256 * ROW * 4)
#endif
// (the instance that reads version 3: the sparse blocks' bit offsets after it, dec_smem.bitoff)
#define HOM32_SMEM_V(V) (HOM32_SMEM + ((V) >= 3 ? 256 * 4 : 0))

// OP: a.op as a template argument (ECCL_KOP_*), one kernel per operation, so that the combine
// loop carries no test of it.
// VIEW: the local array is a view (a.lv.rows != 0), read through the tile's map.
// NT: 256 threads (4 CTAs per SM), or 1024 for streams of no more tiles than SMs (the same
// register budget; threads 0-255 decode and plan a block each, all of them combine and copy).
// V: the newest input version the instance reads (and writes, the output keeping the input's): 2,
// the code it was before version 3, or 3 (sparse tiles in and out; a.in.vmax 3,
// eccl_cuda_codec_set_read_version), whose registers cost versions 1 and 2 a few percent.
template <int OP, bool VIEW, int NT, int V>
__device__ __forceinline__ void hom32_tile(const eccl_hom_args &a, unsigned char *dyn, dec_smem &ds, c32_smem &sm);

template <int OP, bool VIEW, int NT, int V>
__global__ void __launch_bounds__(NT, NT == 256 ? ECCL_HOM32_MINB : 1) eccl_hom32_kernel(eccl_hom_args a)
{
    extern __shared__ __align__(16) unsigned char dyn[];
    __shared__ dec_smem ds;
    __shared__ c32_smem sm;
    PH(sm.ph, 0);
    if (threadIdx.x == 0) {
        hom_open(a, 0, ds, &sm.tile_id, &sm.h, &sm.q);
        if (VIEW) sm.map = make_tile_map(a.lv, sm.tile_id * 8192);
        ds.bitoff = V >= 3 ? (unsigned *)(dyn + HOM32_SMEM) : nullptr; // (version 3: 1 KiB more, HOM32_SMEM_V)
    }
    __syncthreads();
    PH(sm.ph, 1);
    hom32_tile<OP, VIEW, NT, V>(a, dyn, ds, sm);
}

template <int OP, bool VIEW, int NT, int V>
__device__ __forceinline__ void hom32_tile(const eccl_hom_args &a, unsigned char *dyn, dec_smem &ds, c32_smem &sm)
{
    int *qs = (int *)dyn;                          // 256 rows of 33 words
    // the staged input payload and the output image: only allocated (HOM32_SMEM) when the input is
    // staged or the image does not overlay the rows, and only touched then
    unsigned char *pay = dyn + 256 * ROW * 4 + 16;
#if ECCL_HOM32_OVERLAY
    uint32_t *img = (uint32_t *)dyn; // the output image over the rows, once every block is planned
#else
    uint32_t *img = (uint32_t *)pay;
#endif
    const int tid = threadIdx.x;
    eccl_dev_scratch *s = a.in.s;
    const unsigned long long t = sm.tile_id;
    const eccl_dev_q q = sm.q;
    const uint64_t b0 = t << 8, nblk = a.in.nb - b0 < 256 ? a.in.nb - b0 : 256;
    const uint64_t v0 = b0 * 32, nv = a.in.n - v0 < 8192 ? a.in.n - v0 : 8192;

    // 1. The input tile: placement, payload, validation, chains, then its integers (or a RAW
    //    block's bits) into the rows; ds.flag[b] = 1 where the input block is integers.
    int ok = ds.ok;
    unsigned long long hin = 0;
    if (ok) ok = tile_prepare<false, NT, ECCL_HOM32_STAGE, ECCL_HOM32_ROWS, V >= 3>(a.in, t, pay, ds, &hin, qs);
    PH(sm.ph, 2);
    if (ok) {
        int good = 1, raw = 1;
        const unsigned char *src = tile_payload<ECCL_HOM32_STAGE>(a.in, pay, ds);
        if (tid < (int)nblk) {
            if (ECCL_HOM32_ROWS && ds.thr[tid]) { // (its integers are in the row: the predecessor added)
                good = rows_finish<false, true, V >= 3>(ds, tid, eccl_fmt_block_len(a.in.n, b0 + tid), qs);
                raw = 0;
            } else {
                good = decode_block_thread<true, V >= 3>(ds, src, tid, a.in.n, b0, (float *)(qs + ROW * tid), &raw);
            }
        }
        if (tid < 256) ds.flag[tid] = (unsigned char)!raw;
        if (__syncthreads_or(!good)) {
            if (tid == 0) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            ok = 0;
        }
    }
    if (!ok) { // a corrupt input tile: zeros, so that the look-back chain still completes
        for (int e = tid; e < 256 * ROW; e += NT) qs[e] = 0;
        if (tid < 256) ds.flag[tid] = 1;
        hin = 0;
    }
    __syncthreads();
    PH(sm.ph, 3);

    // 2. The local tile, quantized and combined with the rows (doc/format.md section 11): the
    //    rows then hold the integer results where both inputs are integers and every result of
    //    the block stays within [-QMAX, QMAX], else the exact values.
    const float *x = VIEW ? (const float *)a.local : (const float *)a.local + v0;
    const int vec = !VIEW || (!(a.lv.rows & 3) && !(a.lv.ld & 3) && !(a.lv.first & 3) && !((uintptr_t)a.local & 15));
    const int lane = tid & 31, wp = tid >> 5;
    //    Compression's layout: 16-byte loads, 4 consecutive values per lane, so a block is 8
    //    lanes of a warp and its decisions are bytes of warp ballots; the next chunk's load is
    //    issued before this one is quantized.
    const int qmax = (int)q.qmax;
    constexpr uint64_t STEP = NT / 32 * 128; // values the CTA loads per step
    static_assert(ECCL_FMT_QMAX32 < (1 << 30), "two float32 integers must add in 32 bits");
    float nxt[4];
    if (VIEW) load4_map(x, sm.map, vec, (uint64_t)wp * 128 + 4 * lane, nv, nxt);
    else load4(x, (uint64_t)wp * 128 + 4 * lane, nv, nxt);
#pragma unroll 1
    for (uint64_t g = (uint64_t)wp * 128; g < nv; g += STEP) {
        const uint64_t i = g + 4 * lane;
        const float v[4] = {nxt[0], nxt[1], nxt[2], nxt[3]};
        if (g + STEP < nv) {
            if (VIEW) load4_map(x, sm.map, vec, i + STEP, nv, nxt);
            else load4(x, i + STEP, nv, nxt);
        }
        const int bi = (int)(i >> 5), sh = lane & ~7;
        int qb[4], okl = 1;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            qb[k] = 0;
            if (q.quant && i + k < nv) okl &= quantize32((double)v[k], q, &qb[k]);
        }
        // (every ballot outside any condition: the lanes of a warp hold different blocks, whose
        // conditions differ, and a ballot over the full warp needs every lane)
        const uint32_t bq = __ballot_sync(ECCL_WARP_FULL, okl);
        const int lok = q.quant && ((bq >> sh) & 0xFFu) == 0xFFu;
        const int ka = ds.flag[bi];
        int *row = qs + ROW * bi + (int)(i & 31);
        int qa[4], fits = 1, Q[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            qa[k] = i + k < nv ? row[k] : 0;
            Q[k] = 0;
            if (ka && lok) {
                // both in [-QMAX, QMAX] (the decoder and quantize32 check it; QMAX = 2^30 - 1), so
                // the sum is exact in 32 bits
                const int u = qa[k], w = qb[k];
                Q[k] = OP == ECCL_KOP_SUM ? u + w : OP == ECCL_KOP_MAX ? (u > w ? u : w) : (u < w ? u : w);
                if (OP == ECCL_KOP_SUM) fits &= !(Q[k] > qmax || Q[k] < -qmax); // (max, min: an input, within QMAX)
            }
        }
        const uint32_t bf = __ballot_sync(ECCL_WARP_FULL, fits);
        const int useint = ka && lok && ((bf >> sh) & 0xFFu) == 0xFFu;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            if (i + k >= nv) continue;
            if (useint) {
                row[k] = Q[k];
            } else {
                unsigned ba = ka ? rec_bits(qa[k], q.D) : (unsigned)qa[k];
                unsigned bb = lok ? rec_bits(qb[k], q.D) : __float_as_uint(v[k]);
                row[k] = (int)apply32(OP, ba, bb);
            }
        }
        if ((lane & 7) == 0 && i < nv) sm.qok[bi] = (unsigned char)useint;
    }
    __syncthreads();
    PH(sm.ph, 4);
    hin = cta_sum(hin, sm.csum_tmp);
    if (tid == 0 && hin) atomicAdd(&s->checksum2, hin);

    // 3. Encode the rows (RAW blocks take their values from the rows).
    enc32_out o;
    o.s = s;
    o.n = a.in.n;
    o.nb = a.in.nb;
    o.nt = a.in.nt;
    o.P = a.in.P;
    o.out = a.out;
    o.epoch = a.epoch;
    o.done_base = a.done_base;
    o.d_size = a.d_size;
    o.in_checksum = (const unsigned long long *)(a.in.in + ECCL_HDR_CHECKSUM);
    encode_tile32<NT, false, V>(o, qs, img, sm, NULL, t, b0, nblk); // (the input's version)
}

// Zero elements: the input is a header alone; the output is its header with nsum updated.
static __global__ void eccl_hom32_empty_kernel(eccl_hom_args a)
{
    __shared__ dec_smem ds;
    int rc = parse_header(a.in, ds);
    if (!rc && ds.ssize != 64) rc = ECCL_ERR_CORRUPT;
    if (!rc && chk_header(a.in.in) != *(const unsigned long long *)(a.in.in + ECCL_HDR_CHECKSUM)) rc = ECCL_ERR_CORRUPT;
    if (!rc && a.op == ECCL_KOP_SUM && ds.hin.nsum == 0xFFFFFFFFu) rc = ECCL_ERR_UNSUPPORTED;
    if (rc) {
        eccl_dev_fail(a.in.s, rc);
        return;
    }
    eccl_dev_header h = ds.hin;
    if (a.op == ECCL_KOP_SUM) h.nsum++;
    unsigned char hb[64];
    write_header(hb, h, 64);
    st_bytes(hb + ECCL_HDR_CHECKSUM, chk_header(hb), 8);
    for (int k = 0; k < 64; k++) a.out[k] = hb[k];
    if (a.d_size) *a.d_size = 64;
}

template <bool VIEW, int NT, int V> static cudaError_t hom32_setup1(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_hom32_kernel<ECCL_KOP_SUM, VIEW, NT, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM32_SMEM_V(V));
    if (!e) e = cudaFuncSetAttribute(eccl_hom32_kernel<ECCL_KOP_MAX, VIEW, NT, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM32_SMEM_V(V));
    if (!e) e = cudaFuncSetAttribute(eccl_hom32_kernel<ECCL_KOP_MIN, VIEW, NT, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, HOM32_SMEM_V(V));
    return e;
}
template <bool VIEW, int NT> static cudaError_t hom32_setup(void)
{
    cudaError_t e = hom32_setup1<VIEW, NT, 2>();
    return e ? e : hom32_setup1<VIEW, NT, 3>();
}

cudaError_t eccl_hom32_setup(void)
{
    cudaError_t e = hom32_setup<false, 256>();
    if (!e) e = hom32_setup<true, 256>();
    if (!e) e = hom32_setup<false, 1024>();
    return e ? e : hom32_setup<true, 1024>();
}

template <bool VIEW, int NT, int V> static void hom32_launch1(const eccl_hom_args &a, cudaStream_t st)
{
    const unsigned grid = (unsigned)a.in.nt;
    if (a.op == ECCL_KOP_SUM) eccl_hom32_kernel<ECCL_KOP_SUM, VIEW, NT, V><<<grid, NT, HOM32_SMEM_V(V), st>>>(a);
    else if (a.op == ECCL_KOP_MAX) eccl_hom32_kernel<ECCL_KOP_MAX, VIEW, NT, V><<<grid, NT, HOM32_SMEM_V(V), st>>>(a);
    else eccl_hom32_kernel<ECCL_KOP_MIN, VIEW, NT, V><<<grid, NT, HOM32_SMEM_V(V), st>>>(a);
}
template <bool VIEW, int NT> static void hom32_launch(const eccl_hom_args &a, cudaStream_t st)
{
    if (a.in.vmax >= 3) hom32_launch1<VIEW, NT, 3>(a, st);
    else hom32_launch1<VIEW, NT, 2>(a, st);
}

cudaError_t eccl_launch_hom32(const eccl_hom_args &a, cudaStream_t st, int big)
{
    if (!ECCL_HOM32_BIG) big = 0;
    if (a.in.nt == 0) eccl_hom32_empty_kernel<<<1, 1, 0, st>>>(a);
    else if (a.lv.rows) big ? hom32_launch<true, 1024>(a, st) : hom32_launch<true, 256>(a, st);
    else big ? hom32_launch<false, 1024>(a, st) : hom32_launch<false, 256>(a, st);
    return cudaGetLastError();
}
