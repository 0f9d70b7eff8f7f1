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
#include "cuda/enc64.cuh"
#include "cuda/kernels.h"

// V3: the instance that also writes version 3 (compress_tile's tables after the rows).
template <int NT, bool V3>
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
    compress_tile<NT, false, V3>(a, sm, (long long *)dyn, nullptr, V3 ? (v3tab *)(dyn + 256 * 32 * 8) : nullptr);
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

#define ECCL_SMEM_MAX (65536 + 64 + ECCL_V3TAB_BYTES)

cudaError_t eccl_compress_setup(void)
{
    cudaError_t e = eccl_compress32_setup();
    if (!e) e = eccl_compress64_setup();
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<256, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<1024, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<256, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    if (!e) e = cudaFuncSetAttribute(eccl_compress_kernel<1024, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, ECCL_SMEM_MAX);
    return e;
}

cudaError_t eccl_launch_compress(const eccl_comp_args &a, int is64, int big, cudaStream_t st)
{
    if (a.nt == 0) {
        eccl_compress_empty_kernel<<<1, 1, 0, st>>>(a);
        return cudaGetLastError();
    }
    if (!is64) return eccl_launch_compress32(a, big, st); /* thread-per-block (compress32.cu) */
    if (eccl_compress64_enabled()) return eccl_launch_compress64(a, big, st); /* (compress64.cu) */
    /* the 256 blocks' rows, with the staging over them (version 3: its tables after them) */
    const size_t smem = (size_t)256 * 32 * 8 + (a.h.vmajor >= 3 ? ECCL_V3TAB_BYTES : 0);
    const unsigned grid = (unsigned)a.nt;
    if (a.h.vmajor >= 3) {
        if (!big) eccl_compress_kernel<256, true><<<grid, 256, smem, st>>>(a);
        else eccl_compress_kernel<1024, true><<<grid, 1024, smem, st>>>(a);
    } else if (!big) {
        eccl_compress_kernel<256, false><<<grid, 256, smem, st>>>(a);
    } else {
        eccl_compress_kernel<1024, false><<<grid, 1024, smem, st>>>(a);
    }
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
