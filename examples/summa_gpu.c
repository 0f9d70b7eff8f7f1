/* summa_gpu.c - the GPU side of examples/summa --device: DGEMM with cuBLAS on device panels,
 * ordered on one non-blocking stream, with an event per workspace slot so that SUMMA can
 * broadcast panel k+1 into one pair of workspaces while the DGEMM of panel k reads the other.
 *
 * This is example code, not part of libeccl: eccl never calls cuBLAS.  Built without cuBLAS
 * (configure's "cuBLAS (examples)" line), summa_gpu_create says so and returns 2, and summa --device
 * stops (exit status 77). Every function returns 0 or prints what failed (prefix "summa:") and
 * returns 1. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Called from Fortran (bind(C) interfaces in summa.f90): no C header declares them. */
int summa_gpu_create(void **ctx);
void summa_gpu_destroy(void *ctx);
int summa_gpu_dgemm(void *ctx, int slot, int m, int n, int k, const double *a, int lda,
                    const double *b, int ldb, double *c, int ldc);
int summa_gpu_wait(void *ctx, int slot);
int summa_gpu_zero(void *ctx, void *p, size_t bytes);
int summa_gpu_sync(void *ctx);

#ifdef HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>

typedef struct {
    cublasHandle_t blas;
    cudaStream_t st;
    cudaEvent_t ev[2];
} summa_gpu;

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 1;
    fprintf(stderr, "summa: %s: %s\n", what, cudaGetErrorString(e));
    return 0;
}

static int blas_ok(cublasStatus_t s, const char *what)
{
    if (s == CUBLAS_STATUS_SUCCESS) return 1;
    fprintf(stderr, "summa: %s: cuBLAS status %d\n", what, (int)s);
    return 0;
}

/* A cuBLAS handle on a new non-blocking stream of the current device, and two events. */
int summa_gpu_create(void **ctx)
{
    summa_gpu *g = calloc(1, sizeof *g);
    *ctx = NULL;
    if (!g) return 1;
    if (!cuda_ok(cudaStreamCreateWithFlags(&g->st, cudaStreamNonBlocking), "cudaStreamCreate") ||
        !cuda_ok(cudaEventCreateWithFlags(&g->ev[0], cudaEventDisableTiming), "cudaEventCreate") ||
        !cuda_ok(cudaEventCreateWithFlags(&g->ev[1], cudaEventDisableTiming), "cudaEventCreate") ||
        !blas_ok(cublasCreate(&g->blas), "cublasCreate") ||
        !blas_ok(cublasSetStream(g->blas, g->st), "cublasSetStream")) {
        if (g->blas) cublasDestroy(g->blas);
        if (g->ev[1]) cudaEventDestroy(g->ev[1]);
        if (g->ev[0]) cudaEventDestroy(g->ev[0]);
        if (g->st) cudaStreamDestroy(g->st);
        free(g);
        return 1;
    }
    *ctx = g;
    return 0;
}

void summa_gpu_destroy(void *ctx)
{
    summa_gpu *g = ctx;
    if (!g) return;
    cudaStreamSynchronize(g->st);
    cublasDestroy(g->blas);
    cudaEventDestroy(g->ev[0]);
    cudaEventDestroy(g->ev[1]);
    cudaStreamDestroy(g->st);
    free(g);
}

/* c(1:m, 1:n) += a(1:m, 1:k) * b(1:k, 1:n) (column major, device memory), queued on the stream;
 * the slot's event marks its end (the workspaces a and b may be reused after summa_gpu_wait). */
int summa_gpu_dgemm(void *ctx, int slot, int m, int n, int k, const double *a, int lda,
                    const double *b, int ldb, double *c, int ldc)
{
    summa_gpu *g = ctx;
    const double one = 1.0;
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    if (!blas_ok(cublasDgemm(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, lda, b, ldb, &one,
                             c, ldc),
                 "cublasDgemm"))
        return 1;
    return cuda_ok(cudaEventRecord(g->ev[slot & 1], g->st), "cudaEventRecord") ? 0 : 1;
}

/* Wait until the last DGEMM queued with this slot is done (at once when there was none). */
int summa_gpu_wait(void *ctx, int slot)
{
    summa_gpu *g = ctx;
    return cuda_ok(cudaEventSynchronize(g->ev[slot & 1]), "cudaEventSynchronize") ? 0 : 1;
}

/* bytes of device memory set to zero, ordered on the stream. */
int summa_gpu_zero(void *ctx, void *p, size_t bytes)
{
    summa_gpu *g = ctx;
    return cuda_ok(cudaMemsetAsync(p, 0, bytes, g->st), "cudaMemsetAsync") ? 0 : 1;
}

/* Wait for everything queued. */
int summa_gpu_sync(void *ctx)
{
    summa_gpu *g = ctx;
    return cuda_ok(cudaStreamSynchronize(g->st), "cudaStreamSynchronize") ? 0 : 1;
}

#else /* no cuBLAS */

int summa_gpu_create(void **ctx)
{
    *ctx = NULL;
    fprintf(stderr, "summa: --device needs cuBLAS, and this build has none (configure found no "
                    "CUDA toolkit with cublas_v2.h and libcublas)\n");
    return 2;
}

void summa_gpu_destroy(void *ctx) { (void)ctx; }

int summa_gpu_dgemm(void *ctx, int slot, int m, int n, int k, const double *a, int lda,
                    const double *b, int ldb, double *c, int ldc)
{
    (void)ctx, (void)slot, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb;
    (void)c, (void)ldc;
    return 1;
}

int summa_gpu_wait(void *ctx, int slot)
{
    (void)ctx, (void)slot;
    return 1;
}

int summa_gpu_zero(void *ctx, void *p, size_t bytes)
{
    (void)ctx, (void)p, (void)bytes;
    return 1;
}

int summa_gpu_sync(void *ctx)
{
    (void)ctx;
    return 1;
}

#endif
