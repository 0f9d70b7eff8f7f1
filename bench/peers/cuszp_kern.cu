// cuszp_kern.cu - cuSZp's 1-D outlier kernels launched directly with scratch allocated once (what
// cuSZp_compress/_decompress do per call, less their cudaMalloc/cudaFree and the size read-back),
// so that cudaEvents time the device work only. Compiled once with -DCZ_F64=0 and once with 1
// (the two kernel headers define the same constants). eccl harness code, not cuSZp's.
#include <cuda_runtime.h>
#include <stddef.h>
#if CZ_F64
#include "cuSZp_kernels_1D_f64.h"
typedef double T;
#define CZ(x) x##_f64
#else
#include "cuSZp_kernels_1D_f32.h"
typedef float T;
#define CZ(x) x##_f32
#endif

struct cz_scratch { unsigned int *cmpOff, *locOff; int *flag; int offs; };

extern "C" int CZ(cz_alloc)(size_t n, cz_scratch *s)
{
    int gsize = (int)((n + tblock_size * thread_chunk - 1) / (tblock_size * thread_chunk));
    s->offs = gsize + 1;
    if (cudaMalloc((void **)&s->cmpOff, sizeof(unsigned int) * s->offs) ||
        cudaMalloc((void **)&s->locOff, sizeof(unsigned int) * s->offs) ||
        cudaMalloc((void **)&s->flag, sizeof(int) * s->offs)) return 1;
    return 0;
}

static void reset(cz_scratch *s, cudaStream_t st)
{
    cudaMemsetAsync(s->cmpOff, 0, sizeof(unsigned int) * s->offs, st);
    cudaMemsetAsync(s->locOff, 0, sizeof(unsigned int) * s->offs, st);
    cudaMemsetAsync(s->flag, 0, sizeof(int) * s->offs, st);
}

// eb as cuSZp's API passes it: a float, widened for double data
extern "C" void CZ(cz_comp)(const void *in, unsigned char *cmp, size_t n, float eb, cz_scratch *s, cudaStream_t st)
{
    reset(s, st);
    CZ(cuSZp_compress_kernel_1D_outlier)<<<s->offs - 1, tblock_size, sizeof(unsigned int) * 2, st>>>(
        (const T *)in, cmp, s->cmpOff, s->locOff, s->flag, (T)eb, n);
}

// the stream's size after cz_comp, by cuSZp's formula (synchronises)
extern "C" size_t CZ(cz_size)(size_t n, cz_scratch *s, cudaStream_t st)
{
    unsigned int g = 0;
    cudaMemcpyAsync(&g, s->cmpOff + s->offs - 1, sizeof g, cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    return (size_t)g + (n + tblock_size * thread_chunk - 1) / (tblock_size * thread_chunk) * (tblock_size * thread_chunk) / 32;
}

extern "C" void CZ(cz_dec)(void *out, const unsigned char *cmp, size_t n, float eb, cz_scratch *s, cudaStream_t st)
{
    reset(s, st);
    CZ(cuSZp_decompress_kernel_1D_outlier)<<<s->offs - 1, tblock_size, sizeof(unsigned int) * 2, st>>>(
        (T *)out, cmp, s->cmpOff, s->locOff, s->flag, (T)eb, n);
}
