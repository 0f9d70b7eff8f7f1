/*
 * pack.c - moving m x n column-major blocks between a strided local array (leading dimension
 * ld) and the contiguous buffers the collectives take.
 *
 * This is the one place that touches the elements of the user's arrays. Device arrays (the
 * drop-in calls accept them) are packed on the device with one 2-D copy (cudaMemcpy2D) into a
 * device buffer of the grid (on the grid's own high-priority stream), and the collectives then run
 * on device buffers.
 */
#include "config.h"

#include <string.h>

#include "core/env.h"
#include "cuda/device.h"
#include "scalapack/sl.h"

void eccl_sl_copy2d(void *dst, size_t ldd, const void *src, size_t lds, size_t m, size_t n,
                    size_t esize)
{
    if (m == 0 || n == 0) return;
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (ldd == m && lds == m) {
        memcpy(d, s, m * n * esize);
        return;
    }
    for (size_t j = 0; j < n; j++) memcpy(d + j * ldd * esize, s + j * lds * esize, m * esize);
}

void eccl_sl_pack(void *dst, const void *src, size_t ld, size_t m, size_t n, size_t esize)
{
    eccl_sl_copy2d(dst, m, src, ld, m, n, esize);
}

void eccl_sl_unpack(void *dst, size_t ld, const void *src, size_t m, size_t n, size_t esize)
{
    eccl_sl_copy2d(dst, ld, src, m, m, n, esize);
}

/* ECCL_GPU_PRIORITY (doc/env.md): the grid's copy stream at the device's greatest priority. */
ECCL_ENV(env_gpu_priority, "ECCL_GPU_PRIORITY", 1);

/* The grid's copy stream, made at the first device copy (NULL where it cannot be: the copies then
 * run on the legacy stream, as eccl_cuda_memcpy2d does). */
static void *copy_stream(sl_grid_t *g)
{
    if (!g->dstream && !g->dstream_failed &&
        eccl_dev_stream_create(&g->dstream, eccl_env_long(&env_gpu_priority) != 0) != ECCL_SUCCESS) {
        g->dstream = NULL;
        g->dstream_failed = 1;
    }
    return g->dstream;
}

eccl_result_t eccl_sl_pack_dev(sl_grid_t *g, void *dst, const void *src, size_t ld, size_t m, size_t n,
                               size_t esize)
{
    return eccl_cuda_memcpy2d_on(copy_stream(g), dst, m * esize, src, ld * esize, m * esize, n);
}

eccl_result_t eccl_sl_unpack_dev(sl_grid_t *g, void *dst, size_t ld, const void *src, size_t m, size_t n,
                                 size_t esize)
{
    return eccl_cuda_memcpy2d_on(copy_stream(g), dst, ld * esize, src, m * esize, m * esize, n);
}

eccl_result_t eccl_sl_copy2d_dev(sl_grid_t *g, void *dst, size_t ldd, const void *src, size_t lds, size_t m,
                                 size_t n, size_t esize)
{
    return eccl_cuda_memcpy2d_on(copy_stream(g), dst, ldd * esize, src, lds * esize, m * esize, n);
}

void *eccl_sl_dev_buffer(sl_grid_t *g, size_t bytes)
{
    if (g->dpack && g->dpack_cap >= bytes) return g->dpack;
    void *p = NULL;
    if (eccl_cuda_malloc(&p, bytes ? bytes : 64)) return NULL;
    eccl_cuda_free(g->dpack);
    g->dpack = p;
    g->dpack_cap = bytes;
    return p;
}

void *eccl_sl_dev_buffer_cb(void *grid, size_t bytes) { return eccl_sl_dev_buffer(grid, bytes); }
