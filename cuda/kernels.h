// kernels.h - the kernels of cuda/ and their arguments (host and device see this; no MPI, no
// eccl_comm_t: kernels know nothing of collectives).
#ifndef ECCL_CUDA_KERNELS_H
#define ECCL_CUDA_KERNELS_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda/codec_dev.cuh"

struct eccl_comp_args {
    const void *x;          // count elements of the dtype (n reals), laid out as v says
    eccl_view v;            // v.rows == 0: contiguous and 16-byte aligned; else W-byte aligned
    uint64_t n, nb, nt, P;  // reals, blocks, tiles, payload offset
    unsigned char *out;     // capacity >= eccl_compress_bound, 16-byte aligned
    eccl_dev_header h;      // header fields (eb and range replaced on the device for REL-from-data)
    int rel_range_on_device;
    eccl_dev_scratch *s;
    unsigned long long tile_base, done_base; // counter values before this launch
    unsigned epoch;         // look-back epoch of this launch (1..65535)
    unsigned long long *d_size; // optional: the stream size, written by the last CTA
};

struct eccl_decomp_args {
    const unsigned char *in; // the stream, 16-byte aligned
    uint64_t in_cap;         // bytes readable at `in`
    int exact_size;          // 1: in_cap is the stream's size (its stream_size field must equal it,
                             // as for eccl_decompress); 0: a capacity (the public eccl_cuda_* calls)
    void *x;                 // count elements of dtype, laid out as v says
    eccl_view v;             // v.rows == 0: contiguous and 16-byte aligned; else W-byte aligned
    uint64_t count;
    int dtype;
    uint64_t n, nb, nt, P;
    eccl_dev_scratch *s;
    unsigned long long done_base;
    int vmax;                // the newest format version read (0 or 1: version 1 only; 2: both)
};

// Operations of the homomorphic kernel (the values of eccl_op_t; kernels do not include eccl.h).
#define ECCL_KOP_SUM 0
#define ECCL_KOP_MAX 1
#define ECCL_KOP_MIN 2

// op on exact values of the element type (float32 bits in 32, float64 bits in 64): NaN results
// are the canonical quiet NaN, and max/min order -0.0 below +0.0, so the result never depends on
// the operand order (src/codec/hom.c apply_exact). The homomorphic kernels' RAW blocks and the
// node reduction (eccl_launch_reduce_n) combine with these.
static __device__ __forceinline__ unsigned apply32(int op, unsigned ua, unsigned ub)
{
    float a = __uint_as_float(ua), b = __uint_as_float(ub);
    if (op == ECCL_KOP_SUM) {
        float c = __fadd_rn(a, b);
        return isnan(c) ? 0x7FC00000u : __float_as_uint(c);
    }
    if (isnan(a) || isnan(b)) return 0x7FC00000u;
    if (a == b) {
        int pick_a = op == ECCL_KOP_MAX ? !(ua >> 31) : (int)(ua >> 31);
        return pick_a ? ua : ub;
    }
    return (op == ECCL_KOP_MAX) == (a > b) ? ua : ub;
}
static __device__ __forceinline__ unsigned long long apply64(int op, unsigned long long ua, unsigned long long ub)
{
    const unsigned long long qnan = 0x7FF8000000000000ull;
    double a = __longlong_as_double((long long)ua), b = __longlong_as_double((long long)ub);
    if (op == ECCL_KOP_SUM) {
        double c = __dadd_rn(a, b);
        return isnan(c) ? qnan : (unsigned long long)__double_as_longlong(c);
    }
    if (isnan(a) || isnan(b)) return qnan;
    if (a == b) {
        int pick_a = op == ECCL_KOP_MAX ? !(ua >> 63) : (int)(ua >> 63);
        return pick_a ? ua : ub;
    }
    return (op == ECCL_KOP_MAX) == (a > b) ? ua : ub;
}

struct eccl_hom_args {
    eccl_decomp_args in;    // the received stream (in.x unused), its layout and the scratch
    const void *local;      // in.count elements of in.dtype, laid out as lv says
    eccl_view lv;           // lv.rows == 0: contiguous and 16-byte aligned; else W-byte aligned
    int op;                 // ECCL_KOP_*
    unsigned char *out;     // capacity >= eccl_compress_bound, 16-byte aligned
    unsigned epoch;
    unsigned long long tile_base, done_base;
    unsigned long long *d_size;
};

// Launchers (each kernel lives in one translation unit with its launcher: template kernels cannot
// be launched from another one). big: 1024-thread CTAs for small streams, else 256.
cudaError_t eccl_kernels_setup(void); // shared-memory limits, once per process and device
cudaError_t eccl_launch_compress(const eccl_comp_args &a, int is64, int big, cudaStream_t st);
cudaError_t eccl_launch_range(const void *x, const eccl_view &v, uint64_t n, int is64, eccl_dev_scratch *s, cudaStream_t st);
// Set the n reals of view v at x to the bit pattern `bits` (a canonical NaN: a failed decompression).
cudaError_t eccl_launch_fill_view(void *x, const eccl_view &v, uint64_t n, int is64, uint64_t bits, cudaStream_t st);
// Divide the n reals of view v at x by p, rounded to nearest in the element type (as the CPU's
// x / p): the AVG of a device-resident reduction.
cudaError_t eccl_launch_div_view(void *x, const eccl_view &v, uint64_t n, int is64, unsigned p, cudaStream_t st);
// Node reduction (CUDA IPC windows of the ranks of a node): out[i] = in[0][i] op in[1][i] op ...
// op in[n-1][i], combined in that order with apply32/apply64, for the `reals` reals (is64: 8 bytes
// each) at each pointer; 1 <= n <= ECCL_NODE_MAX. out may be one of the inputs.
#define ECCL_NODE_MAX 32
struct eccl_node_srcs {
    const void *p[ECCL_NODE_MAX];
};
cudaError_t eccl_launch_reduce_n(void *out, const eccl_node_srcs &in, int n, uint64_t reals, int is64, int op,
                                 cudaStream_t st);
// (decompression: big 1 for fewer tiles than 2 x SMs, 2 for no more tiles than SMs)
cudaError_t eccl_launch_decompress(const eccl_decomp_args &a, int is64, int big, cudaStream_t st);
cudaError_t eccl_compress_setup(void);
cudaError_t eccl_compress32_setup(void);
cudaError_t eccl_launch_compress32(const eccl_comp_args &a, int big, cudaStream_t st);
// float64 and complex128 (compress64.cu: thread-per-block where a tile allows it, compress.cu's
// tile coder elsewhere); eccl_launch_compress takes it for every 64-bit stream unless
// compress64.cu was built with -DECCL_C64_FAST=0 (eccl_compress64_enabled() then says 0).
cudaError_t eccl_compress64_setup(void);
int eccl_compress64_enabled(void);
cudaError_t eccl_launch_compress64(const eccl_comp_args &a, int big, cudaStream_t st);
cudaError_t eccl_decompress_setup(void);
cudaError_t eccl_hom32_setup(void);
// big: 1024-thread CTAs (a stream of no more tiles than the GPU has SMs)
cudaError_t eccl_launch_hom32(const eccl_hom_args &a, cudaStream_t st, int big = 0);
cudaError_t eccl_hom64_setup(void); // (compress64.cu: the 64-bit kernel reuses the compression encoders)
cudaError_t eccl_launch_hom64(const eccl_hom_args &a, cudaStream_t st);

#ifdef ECCL_H
// The codec on a view of the data (cuda/codec.cu; eccl_cuda_compress and eccl_cuda_compress_2d are
// the public forms, doc: include/eccl_cuda.h): count elements taken in the view's order. A view
// needs the data aligned to one real (4 or 8 bytes); a contiguous array (view.rows == 0) to 16
// bytes. vmajor: the format version written (1 or 2).
eccl_result_t eccl_cuda_compress_view(eccl_cuda_codec_t c, const void *d_data, eccl_view view, size_t count,
                                      eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                      size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                      cudaStream_t st, int vmajor);
// exact_size: 0 takes stream_capacity as a capacity (the public forms: bytes after the stream are
// ignored); 1 as the stream's exact size, refusing a stream whose stream_size field differs, as
// eccl_decompress and eccl_hom_reduce do (the device-resident primitives, cuda/resident.cu).
eccl_result_t eccl_cuda_decompress_view(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                        int exact_size, void *d_data, eccl_view view, size_t count,
                                        eccl_dtype_t dtype, int check, cudaStream_t st);
eccl_result_t eccl_cuda_hom_reduce_view(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                        int exact_size, const void *d_local, eccl_view lview, size_t count,
                                        eccl_dtype_t dtype, eccl_op_t op, void *d_out, size_t out_capacity,
                                        unsigned long long *d_size, size_t *h_size, cudaStream_t st);
#endif

#endif
