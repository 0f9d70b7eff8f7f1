/*
 * golden_inputs.h - the fixed inputs of tests/test_golden.c. Only exact IEEE operations
 * (+, -, *, / and conversions) are used, so every machine computes the same bits; no libm.
 */
#ifndef ECCL_GOLDEN_INPUTS_H
#define ECCL_GOLDEN_INPUTS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "eccl.h"

typedef struct golden_case {
    const char *name;
    eccl_dtype_t dtype;
    eccl_bound_t bound;
    size_t count;
    void (*fill)(void *x, size_t count);
} golden_case;

/* G1: 40 float32 of a parabola, x_i = i(40 - i)/100 - 2 (in [-2, 2]), ABS 1e-3 */
static void g_parabola_f32(void *v, size_t n)
{
    float *x = (float *)v;
    for (size_t i = 0; i < n; i++) x[i] = (float)((double)(i * (40 - i)) / 100.0 - 2.0);
}

/* G2: 37 float64, x_i = 0.37 i - 3 with x_5 = NaN, x_20 = +inf, REL 1e-4 (range from data) */
static void g_ramp_naninf_f64(void *v, size_t n)
{
    double *x = (double *)v;
    for (size_t i = 0; i < n; i++) x[i] = 0.37 * (double)i - 3.0;
    x[5] = NAN;
    x[20] = INFINITY;
}

/* G3: 20 complex64 (re, im) = (i/2, 1 - i/4), LOSSLESS */
static void g_complex_lossless(void *v, size_t n)
{
    float *x = (float *)v;
    for (size_t i = 0; i < n; i++) {
        x[2 * i] = (float)i * 0.5f;
        x[2 * i + 1] = 1.0f - (float)i * 0.25f;
    }
}

/* G4: 32 float32 zeros, ABS 1e-3 */
static void g_zeros(void *v, size_t n) { memset(v, 0, n * sizeof(float)); }

/* G5: 64 float64 of 2.5, ABS 1e-6 */
static void g_constant(void *v, size_t n)
{
    double *x = (double *)v;
    for (size_t i = 0; i < n; i++) x[i] = 2.5;
}

/* G6: 7 float32 alternating around 0 by one quantum (ABS 0.5: D = 1): 1,-1,1,-1,0,1,-1 */
static void g_alternating(void *v, size_t n)
{
    static const float a[7] = {1, -1, 1, -1, 0, 1, -1};
    float *x = (float *)v;
    for (size_t i = 0; i < n; i++) x[i] = a[i % 7];
}

/* G7: 33 complex128 smooth (re, im) = (i/8, -i/16) with one -0.0, ABS 1e-2 (crosses a block) */
static void g_complex128(void *v, size_t n)
{
    double *x = (double *)v;
    for (size_t i = 0; i < n; i++) {
        x[2 * i] = (double)i / 8.0;
        x[2 * i + 1] = -(double)i / 16.0;
    }
    x[1] = -0.0;
}

/* Large: 100000 float32, a smooth cubic t(1 - t)(t - 0.3) * 40 with t = i / 100000 */
static void g_large(void *v, size_t n)
{
    float *x = (float *)v;
    for (size_t i = 0; i < n; i++) {
        double t = (double)i / 100000.0;
        x[i] = (float)(t * (1.0 - t) * (t - 0.3) * 40.0);
    }
}

static const golden_case golden_cases[] = {
    {"parabola-f32-abs1e-3", ECCL_FLOAT32, {ECCL_MODE_ABS, 1e-3, 0.0}, 40, g_parabola_f32},
    {"ramp-naninf-f64-rel1e-4", ECCL_FLOAT64, {ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA}, 37,
     g_ramp_naninf_f64},
    {"complex64-lossless", ECCL_COMPLEX64, {ECCL_MODE_LOSSLESS, 0.0, 0.0}, 20, g_complex_lossless},
    {"zeros-f32", ECCL_FLOAT32, {ECCL_MODE_ABS, 1e-3, 0.0}, 32, g_zeros},
    {"constant-f64", ECCL_FLOAT64, {ECCL_MODE_ABS, 1e-6, 0.0}, 64, g_constant},
    {"alternating-f32-none", ECCL_FLOAT32, {ECCL_MODE_ABS, 0.5, 0.0}, 7, g_alternating},
    {"complex128-abs1e-2", ECCL_COMPLEX128, {ECCL_MODE_ABS, 1e-2, 0.0}, 33, g_complex128},
    /* G8: 64 float32 zeros: block 1 has size 0 with both predictors, and section 8 keeps
     * Lorenzo on a tie (code 0x00, not the zero block 0x20) */
    {"zeros-2-blocks-tie", ECCL_FLOAT32, {ECCL_MODE_ABS, 1e-3, 0.0}, 64, g_zeros},
};
#define GOLDEN_NCASES (sizeof golden_cases / sizeof *golden_cases)

static const golden_case golden_large = {"large-f32-abs1e-4", ECCL_FLOAT32,
                                         {ECCL_MODE_ABS, 1e-4, 0.0}, 100000, g_large};

#endif
