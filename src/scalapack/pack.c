/*
 * pack.c - moving m x n column-major blocks between a strided local array (leading dimension
 * ld) and the contiguous buffers the collectives take.
 *
 * Host memory only.  This is the one place that touches the elements of the user's arrays: when
 * the layer accepts device arrays, a pointer's memory space (cudaPointerGetAttributes) selects the
 * GPU backend's pack/unpack kernels here (one 2-D copy, cudaMemcpy2DAsync-shaped) and the
 * collectives then run on device buffers; nothing else in src/scalapack changes.
 */
#include "config.h"

#include <string.h>

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
