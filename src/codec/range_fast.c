/*
 * range_fast.c - the AVX2 min/max scan of eccl_data_range (REL bounds take the range of the finite
 * values): the same figures as the scalar loop of api.c, eight float32 or four float64 lanes at a
 * time. Other CPUs: fast_stubs.c.
 */
#include "config.h"

#include "codec/fast.h"
#include "codec/fast_avx2.h"

#include <math.h>

#if ECCL_HAVE_X86_FAST

/* Min and max over the finite values (NaN and +-inf skipped): x - x is 0 exactly for finite x. */
ECCL_AVX2 void eccl_fast_range_f32(const float *x, size_t n, double *lo, double *hi, size_t *nfinite)
{
    __m256 vlo = _mm256_set1_ps(INFINITY), vhi = _mm256_set1_ps(-INFINITY);
    const __m256 zero = _mm256_setzero_ps();
    size_t i = 0, cnt = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256 fin = _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ);
        vlo = _mm256_min_ps(vlo, _mm256_blendv_ps(vlo, v, fin));
        vhi = _mm256_max_ps(vhi, _mm256_blendv_ps(vhi, v, fin));
        cnt += (size_t)__builtin_popcount((unsigned)_mm256_movemask_ps(fin));
    }
    float l[8], h[8];
    _mm256_storeu_ps(l, vlo);
    _mm256_storeu_ps(h, vhi);
    float a = INFINITY, b = -INFINITY;
    for (int k = 0; k < 8; k++) {
        a = l[k] < a ? l[k] : a;
        b = h[k] > b ? h[k] : b;
    }
    for (; i < n; i++)
        if (isfinite(x[i])) {
            a = x[i] < a ? x[i] : a;
            b = x[i] > b ? x[i] : b;
            cnt++;
        }
    *lo = a;
    *hi = b;
    *nfinite = cnt;
}

ECCL_AVX2 void eccl_fast_range_f64(const double *x, size_t n, double *lo, double *hi, size_t *nfinite)
{
    __m256d vlo = _mm256_set1_pd(INFINITY), vhi = _mm256_set1_pd(-INFINITY);
    const __m256d zero = _mm256_setzero_pd();
    size_t i = 0, cnt = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i);
        __m256d fin = _mm256_cmp_pd(_mm256_sub_pd(v, v), zero, _CMP_EQ_OQ);
        vlo = _mm256_min_pd(vlo, _mm256_blendv_pd(vlo, v, fin));
        vhi = _mm256_max_pd(vhi, _mm256_blendv_pd(vhi, v, fin));
        cnt += (size_t)__builtin_popcount((unsigned)_mm256_movemask_pd(fin));
    }
    double l[4], h[4];
    _mm256_storeu_pd(l, vlo);
    _mm256_storeu_pd(h, vhi);
    double a = INFINITY, b = -INFINITY;
    for (int k = 0; k < 4; k++) {
        a = l[k] < a ? l[k] : a;
        b = h[k] > b ? h[k] : b;
    }
    for (; i < n; i++)
        if (isfinite(x[i])) {
            a = x[i] < a ? x[i] : a;
            b = x[i] > b ? x[i] : b;
            cnt++;
        }
    *lo = a;
    *hi = b;
    *nfinite = cnt;
}

#else
typedef int eccl_range_fast_unused_t; /* (an empty translation unit is not ISO C) */
#endif
