// decompress.cu - the decompression kernel: one CTA per tile. The tile index gives the tile's
// payload offset directly (no prefix sum over the stream). Within the tile:
//  1. a CTA scan of the block sizes (from the codes) places every block;
//  2. one thread per block checks the block's canonical form and computes the sums of its deltas
//     (from popcounts of the bit-planes, or, for the blocks a thread decodes in step 3, from the
//     integers, unpacked into rows of shared memory once and for all), which a segmented scan
//     turns into every block's Lorenzo predecessors;
//  3. one warp per block decodes the values (lane i: value i) and writes them; float32 blocks, and
//     the float64 and complex128 QUANT blocks of at most 30 planes, are decoded one per thread
//     into rows of shared memory, which the CTA writes out coalesced.
// Everything is validated as src/codec validates it; errors go to the device error word.
#include "config.h"

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"
#include "cuda/dec.cuh"
#include "cuda/kernels.h"

// Experiment knobs of the float32 kernel (NVCCFLAGS=-DECCL_DEC32_STAGE=1 ...): stage the tile's
// payload in shared memory (1) or decode it in place in the stream (0: 32 KiB less shared memory
// per CTA), and the CTAs per SM its registers are sized for.
#ifndef ECCL_DEC32_STAGE
#define ECCL_DEC32_STAGE 0
#endif
#ifndef ECCL_DEC32_MINB // (4 since the planes are read once, ECCL_DEC_ROWS: 5 spilled more; H100, 2026-11-27)
#define ECCL_DEC32_MINB 4
#endif
// float32 streams of no more tiles than SMs (1 MiB is 32 tiles): each CTA is alone on its SM and
// its latency is the kernel's, so the tile goes out with 16-byte stores (a separate instance; at 1
// GiB the same stores lost 3-5% and the plain loop stays).
#ifndef ECCL_DEC32_SMALL_V4
#define ECCL_DEC32_SMALL_V4 1
#endif
// The same two knobs as the first for 64-bit streams (256-thread CTAs; 1024-thread ones always
// stage).
#ifndef ECCL_DEC64_STAGE
#define ECCL_DEC64_STAGE 0
#endif
#ifndef ECCL_DEC64_MINB
#define ECCL_DEC64_MINB 3
#endif
// 64-bit streams: QUANT blocks of at most 30 planes decoded one per THREAD into rows of shared
// memory (33 doubles each, 66 KiB), written out coalesced (1), or every block by a warp straight
// into the output (0).
#ifndef ECCL_DEC64_THREAD
#define ECCL_DEC64_THREAD 1
#endif
#define ECCL_DEC64_ROWS (ECCL_DEC64_THREAD ? (size_t)256 * 33 * 8 : 0)
// The blocks decoded one per thread (float32, and 64-bit ones with ECCL_DEC64_THREAD) have their
// planes read once, in step 2, their integers kept in the rows until the chains are resolved (1),
// or read twice, by the chain summary and again by the decoder (0).
#ifndef ECCL_DEC_ROWS
#define ECCL_DEC_ROWS 1
#endif

namespace {

// float32: NT = 256 threads, one per block; 64-bit types: 256 or 1024 threads, a thread per narrow
// QUANT block (the first 256 threads), a warp per other block.
// SP: the instance for sparse tiles (forms 2 and 3, version 3; dec.cuh parse_quant).
template <bool D64, int NT, bool V4 = false, bool SP = false>
__device__ unsigned long long decompress_tile(const eccl_decomp_args &a, unsigned char *pay, dec_smem &sm)
{
    constexpr bool STAGE = NT != 256 || (D64 ? ECCL_DEC64_STAGE : ECCL_DEC32_STAGE);
    constexpr int WPC = NT / 32, BPW = 256 / WPC;
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    const uint64_t t = blockIdx.x, b0 = t << 8, nblk = a.nb - b0 < 256 ? a.nb - b0 : 256;
    const eccl_dev_q q = sm.q;
    eccl_dev_scratch *s = a.s;
    unsigned long long h = 0;
    constexpr bool THR = D64 && ECCL_DEC64_THREAD; // 64-bit QUANT blocks of <= 30 planes: a thread each
    constexpr bool ROWS = ECCL_DEC_ROWS && (!D64 || THR); // their planes read once (tile_prepare)
    // the rows: 256 of 33 words (float32) or 33 doubles (64-bit types), after the staged payload
    void *const rows = pay + (STAGE ? 256 * 32 * (D64 ? 8 : 4) + 48 : 0);
    if (!tile_prepare<D64, NT, STAGE, ROWS, SP>(a, t, pay, sm, &h, rows)) return 0;
    PH(sm.ph, 2);
    const unsigned char *src = tile_payload<STAGE>(a, pay, sm);
    // 3. The values.
    int ok = 1;
    static_assert(D64 || NT == 256, "float32 streams decode with 256 threads");
    if (!D64) {
        float *outs = (float *)rows;
        if (tid < (int)nblk) {
            if (ROWS && sm.thr[tid]) ok = rows_finish<false, false, SP>(sm, tid, eccl_fmt_block_len(a.n, b0 + tid), outs);
            else ok = decode_block_thread<false, SP>(sm, src, tid, a.n, b0, outs + 33 * tid);
        }
        __syncthreads();
        PH(sm.ph, 3);
        const uint64_t nv = (a.n - b0 * 32) < 8192 ? a.n - b0 * 32 : 8192;
        if (!a.v.rows) { // contiguous: no mapping
            float *x = (float *)a.x + b0 * 32;
            unsigned e0 = 0; // V4: groups of 4 values of one block per thread (conflict-free row reads)
            for (unsigned g = tid; V4 && g < (unsigned)nv / 4; g += NT) {
                const float *r = outs + 33 * (g >> 3) + 4 * (g & 7);
                *(float4 *)(x + 4 * g) = make_float4(r[0], r[1], r[2], r[3]);
            }
            if (V4) e0 = (unsigned)nv & ~3u;
            for (unsigned e = e0 + tid; e < nv; e += NT) x[e] = outs[33 * (e >> 5) + (e & 31)];
        } else { // (the map made here, after the decoder: not live across it)
            float *x = (float *)a.x;
            const tile_map map = make_tile_map(a.v, b0 * 32);
            for (unsigned e = tid; e < nv; e += NT) x[map.at(e)] = outs[33 * (e >> 5) + (e & 31)];
        }
    }
    if (THR) {
        if (tid < (int)nblk) {
            if (ROWS) {
                if (sm.thr[tid]) ok = rows_finish<true, false, SP>(sm, tid, eccl_fmt_block_len(a.n, b0 + tid), rows);
            } else {
                const unsigned code = sm.codes[tid];
                const int mine = !eccl_fmt_code_is_raw(code) && (code & 31u) < 31u;
                if (mine) ok = decode_quant_thread64<SP>(sm, src, tid, a.n, b0, (double *)rows + 33 * tid);
                sm.thr[tid] = (unsigned char)mine;
            }
        }
        __syncthreads();
        PH(sm.ph, 3);
    }
    const tile_map &map = sm.map; // (in shared memory: no registers held across the decoders)
    for (int k = 0; k < BPW && D64; k++) { // one warp per block (THR: the blocks no thread took)
        int b = w * BPW + k;
        if (b >= (int)nblk) break;
        if (THR && sm.thr[b]) continue;
        unsigned code = sm.codes[b];
        if (eccl_fmt_code_is_raw(code))
            ok &= decode_raw(q, code, src + sm.boff[b], eccl_fmt_block_len(a.n, b0 + b), lane, a.x, map, b * 32);
        else
            ok &= decode_quant<D64, SP>(sm, src, b, a.n, b0, lane, a.x, map);
    }
    if (THR) { // the rows out, coalesced (values of the blocks the threads decoded)
        const double *drows = (const double *)rows;
        const uint64_t nv = (a.n - b0 * 32) < 8192 ? a.n - b0 * 32 : 8192;
        double *x = (double *)a.x;
        for (unsigned e = tid; e < nv; e += NT)
            if (sm.thr[e >> 5]) x[a.v.rows ? map.at(e) : b0 * 32 + e] = drows[33 * (e >> 5) + (e & 31)];
    }
    int bad = __syncthreads_or(!ok);
    PH(sm.ph, 4);
    h = cta_sum(h, sm.csum_tmp);
    if (tid == 0 && bad) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
    return h;
}

// Every CTA ends here, whatever happened to its tile, so the counters stay exact for the next
// launch; the last one compares the checksum and clears the accumulator.
__device__ void finish(const eccl_decomp_args &a, unsigned long long h, dec_smem &sm)
{
    atomicAdd(&a.s->checksum, h);
#ifdef ECCL_PHASE_TIMING
    for (int k = 5; k <= 8; k++) sm.ph[k] = ph_clock();
    sm.ph[9] = sm.ph[10] = 0;
    ph_add(sm.ph);
#else
    (void)sm;
#endif
    __threadfence();
    unsigned long long done = atomicAdd(&a.s->done_counter, 1ull) - a.done_base;
    if (done == a.nt - 1) {
        __threadfence();
        unsigned long long sum = atomicExch(&a.s->checksum, 0ull);
        if (a.in_cap < 64 || sum != *(const unsigned long long *)(a.in + ECCL_HDR_CHECKSUM))
            eccl_dev_fail(a.s, ECCL_ERR_CORRUPT);
#ifdef ECCL_PHASE_TIMING
        ph_print("decompress");
#endif
    }
}

} // namespace

// The dynamic shared memory of an instance: the staged payload (1024-thread CTAs, or the STAGE
// knobs), then the rows; an instance that reads sparse tiles has 1 KiB more after them (sm.bitoff).
template <bool D64, int NT> __host__ __device__ constexpr size_t dec_dyn_bytes()
{
    return D64 ? ((NT != 256 || ECCL_DEC64_STAGE) ? (size_t)256 * 32 * 8 + 48 : 0) + ECCL_DEC64_ROWS
               : (ECCL_DEC32_STAGE ? (size_t)256 * 32 * 4 + 48 : 0) + (size_t)256 * 33 * 4;
}
#define ECCL_DEC_BITOFF_BYTES ((size_t)256 * 4)

// SP: the instance that reads version 3's sparse tiles (a.vmax 3: eccl_cuda_codec_set_read_version).
// Its registers cost dense tiles 6-17%, whether its sparse path is inlined beside the dense one or
// called (H200, 2026-11-29): the default instance has none of it.
template <bool D64, int NT, bool V4 = false, bool SP = false>
__global__ void __launch_bounds__(NT, NT == 256 ? (D64 ? ECCL_DEC64_MINB : ECCL_DEC32_MINB) : 1) eccl_decompress_kernel(eccl_decomp_args a)
{
    extern __shared__ __align__(16) unsigned char pay[];
    __shared__ dec_smem sm;
    const uint64_t t = blockIdx.x;
    PH(sm.ph, 0);
    if (threadIdx.x == 0) {
        int rc = tile_open(a, t, sm, D64);
        if (rc) eccl_dev_fail(a.s, rc);
        sm.ok = !rc;
        sm.bitoff = SP ? (unsigned *)(pay + dec_dyn_bytes<D64, NT>()) : nullptr;
        sm.map = make_tile_map(a.v, t * 8192);
    }
    __syncthreads();
    PH(sm.ph, 1);
    PH(sm.ph, 2); // (decompress_tile stamps them again; a bad tile ends here)
    PH(sm.ph, 3);
    PH(sm.ph, 4);
    unsigned long long h = sm.ok ? decompress_tile<D64, NT, V4, SP>(a, pay, sm) : 0;
    if (threadIdx.x == 0) finish(a, h, sm);
}

// A stream of zero elements: the header alone, checked.
static __global__ void eccl_decompress_empty_kernel(eccl_decomp_args a)
{
    __shared__ dec_smem sm;
    int rc = parse_header(a, sm);
    if (!rc && sm.ssize != 64) rc = ECCL_ERR_CORRUPT;
    unsigned long long sum = 0;
    if (!rc) sum = chk_header(a.in);
    if (!rc && sum != *(const unsigned long long *)(a.in + ECCL_HDR_CHECKSUM)) rc = ECCL_ERR_CORRUPT;
    if (rc) eccl_dev_fail(a.s, rc);
}

#define ECCL_SMEM_MAX ((size_t)256 * 32 * 8 + 48 + 256 * 33 * 8 + ECCL_DEC_BITOFF_BYTES) // (the largest launch below)

template <bool SP> static cudaError_t decompress_setup(void)
{
    cudaError_t e = cudaFuncSetAttribute(eccl_decompress_kernel<false, 256, false, SP>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_decompress_kernel<false, 256, true, SP>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_decompress_kernel<true, 256, false, SP>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_decompress_kernel<true, 1024, false, SP>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    return e;
}

cudaError_t eccl_decompress_setup(void)
{
    cudaError_t e = decompress_setup<false>();
    return e ? e : decompress_setup<true>();
}

template <bool SP> static cudaError_t launch_decompress(const eccl_decomp_args &a, int is64, int big, cudaStream_t st)
{
    const int small = big == 2; // (no more tiles than SMs)
    if (a.nt == 0) {
        eccl_decompress_empty_kernel<<<1, 1, 0, st>>>(a);
        return cudaGetLastError();
    }
    const unsigned grid = (unsigned)a.nt;
    const size_t sp = SP ? ECCL_DEC_BITOFF_BYTES : 0;
    if (!is64) { /* float32: thread-per-block at every size, rows of 33 words (and the staged payload) */
        const size_t smem = dec_dyn_bytes<false, 256>() + sp;
        if (ECCL_DEC32_SMALL_V4 && small) eccl_decompress_kernel<false, 256, true, SP><<<grid, 256, smem, st>>>(a);
        else eccl_decompress_kernel<false, 256, false, SP><<<grid, 256, smem, st>>>(a);
    } else if (!big) { /* the payload staged (and slack for word reads), or decoded in place */
        eccl_decompress_kernel<true, 256, false, SP><<<grid, 256, dec_dyn_bytes<true, 256>() + sp, st>>>(a);
    } else { /* 1024-thread CTAs always stage */
        eccl_decompress_kernel<true, 1024, false, SP><<<grid, 1024, dec_dyn_bytes<true, 1024>() + sp, st>>>(a);
    }
    return cudaGetLastError();
}

cudaError_t eccl_launch_decompress(const eccl_decomp_args &a, int is64, int big, cudaStream_t st)
{
    return a.vmax >= 3 ? launch_decompress<true>(a, is64, big, st) : launch_decompress<false>(a, is64, big, st);
}
