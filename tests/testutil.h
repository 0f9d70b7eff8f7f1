/*
 * testutil.h - shared by the C tests: deterministic data generators, the element-by-element
 * bound check in long double, and a tiny assertion/reporting layer.
 *
 * Exit codes follow automake: 0 pass, 77 skip, 1 fail.
 */
#ifndef ECCL_TESTUTIL_H
#define ECCL_TESTUTIL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"

#if defined(__GNUC__)
#define TU_UNUSED __attribute__((unused))
#else
#define TU_UNUSED
#endif

static int tu_failures = 0;
static long tu_checks = 0;

#define TU_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        tu_checks++;                                                                               \
        if (!(cond)) {                                                                             \
            tu_failures++;                                                                         \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            if (tu_failures > 50) {                                                                \
                fprintf(stderr, "too many failures\n");                                            \
                exit(1);                                                                           \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define TU_RC(expr, expect)                                                                        \
    do {                                                                                           \
        eccl_result_t rc_ = (expr);                                                                \
        TU_CHECK(rc_ == (expect), "%s returned %d (%s), expected %d", #expr, (int)rc_,             \
                 eccl_strerror(rc_), (int)(expect));                                               \
    } while (0)

static TU_UNUSED int tu_finish(const char *name)
{
    printf("%s: %ld checks, %d failures\n", name, tu_checks, tu_failures);
    return tu_failures ? 1 : 0;
}

/* ---- deterministic random numbers (splitmix64) ---- */
typedef struct { uint64_t s; } tu_rng;
static TU_UNUSED uint64_t tu_next(tu_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static TU_UNUSED double tu_uniform(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1.0p-53; }
static TU_UNUSED double tu_normal(tu_rng *r)
{
    double u = tu_uniform(r), v = tu_uniform(r);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* ---- data patterns (over n reals) ---- */
enum {
    TU_SMOOTH, TU_RANDOM, TU_CONSTANT, TU_ZEROS, TU_ALTERNATING, TU_HUGE, TU_DENORMAL,
    TU_NANINF, TU_RANDOMWALK, TU_NORMAL, TU_MIXED_SCALE, TU_NPATTERNS
};
static TU_UNUSED const char *tu_pattern_name[] = {"smooth", "random", "constant", "zeros", "alternating",
                                        "huge", "denormal", "nan-inf", "random-walk", "normal",
                                        "mixed-scale"};

static TU_UNUSED double tu_value(int pattern, size_t i, size_t n, tu_rng *r, int is64)
{
    double maxv = is64 ? DBL_MAX : FLT_MAX;
    double tiny = is64 ? 4.9406564584124654e-324 : 1.40129846e-45;
    (void)n;
    switch (pattern) {
    case TU_SMOOTH: return sin(i * 0.001) * cos(i * 0.0003) * 10.0 + 0.5 * sin(i * 0.017);
    case TU_RANDOM: return tu_uniform(r) * 2.0 - 1.0;
    case TU_CONSTANT: return 3.14159;
    case TU_ZEROS: return 0.0;
    case TU_ALTERNATING: return (i & 1 ? -1.0 : 1.0) * (1.0 + 0.01 * (double)(i % 7));
    case TU_HUGE: {
        double u = tu_uniform(r);
        if (u < 0.1) return (tu_uniform(r) < 0.5 ? -1 : 1) * maxv;
        if (u < 0.2) return (tu_uniform(r) < 0.5 ? -1 : 1) * maxv * tu_uniform(r);
        return (tu_uniform(r) - 0.5) * 1e30 * (is64 ? 1e200 : 1.0);
    }
    case TU_DENORMAL: {
        double u = tu_uniform(r);
        if (u < 0.5) return tiny * (double)(tu_next(r) % 1000);
        if (u < 0.7) return -tiny * (double)(tu_next(r) % 3);
        return (is64 ? 2.2250738585072014e-308 : 1.17549435e-38) * (tu_uniform(r) - 0.5);
    }
    case TU_NANINF: {
        double u = tu_uniform(r);
        if (u < 0.05) return NAN;
        if (u < 0.08) return INFINITY;
        if (u < 0.11) return -INFINITY;
        if (u < 0.13) return -0.0;
        return sin(i * 0.01);
    }
    case TU_RANDOMWALK: return 0.0; /* filled cumulatively by tu_fill */
    case TU_NORMAL: return tu_normal(r);
    case TU_MIXED_SCALE: return sin(i * 0.01) * pow(10.0, (double)((i / 97) % 13) - 4.0);
    }
    return 0.0;
}

/* Fill n reals of float (is64 = 0) or double. */
static TU_UNUSED void tu_fill(void *buf, size_t n, int is64, int pattern, uint64_t seed)
{
    tu_rng r = {seed * 7919u + (uint64_t)pattern};
    double walk = 0.0;
    for (size_t i = 0; i < n; i++) {
        double v;
        if (pattern == TU_RANDOMWALK) {
            walk += (tu_uniform(&r) - 0.5) * 2e-3;
            v = walk;
        } else {
            v = tu_value(pattern, i, n, &r, is64);
        }
        if (is64) ((double *)buf)[i] = v;
        else ((float *)buf)[i] = (float)v;
    }
    if (pattern == TU_NANINF && n > 2) { /* NaN payloads that must survive */
        uint64_t q = 0x7FF4000000000123ull;
        uint32_t q32 = 0xFFA00042u;
        if (is64) memcpy((double *)buf + n / 2, &q, 8);
        else memcpy((float *)buf + n / 2, &q32, 4);
    }
}

/* Element-by-element check of a reconstruction: returns the number of violations and the max
 * error (long double). NaN and inf must come back bit for bit; lossless requires equal bits. */
static TU_UNUSED size_t tu_check_bound(const void *orig, const void *rec, size_t n, int is64, double eb,
                             int lossless, long double *maxerr)
{
    size_t bad = 0;
    long double me = 0;
    for (size_t i = 0; i < n; i++) {
        long double x, y;
        uint64_t bx = 0, by = 0;
        if (is64) {
            double a = ((const double *)orig)[i], b = ((const double *)rec)[i];
            memcpy(&bx, &a, 8);
            memcpy(&by, &b, 8);
            x = a;
            y = b;
        } else {
            float a = ((const float *)orig)[i], b = ((const float *)rec)[i];
            uint32_t ux, uy;
            memcpy(&ux, &a, 4);
            memcpy(&uy, &b, 4);
            bx = ux;
            by = uy;
            x = a;
            y = b;
        }
        if (lossless || isnan(x) || isinf(x)) {
            if (bx != by) {
                if (bad < 5)
                    fprintf(stderr, "  element %zu: %.17Lg stored as %.17Lg (bits differ)\n", i, x, y);
                bad++;
            }
            continue;
        }
        long double e = fabsl(x - y);
        if (!(e <= (long double)eb)) {
            if (bad < 5)
                fprintf(stderr, "  element %zu: %.17Lg -> %.17Lg, error %.6Lg > bound %.6g\n", i, x,
                        y, e, eb);
            bad++;
        }
        if (e > me) me = e;
    }
    if (maxerr) *maxerr = me;
    return bad;
}

static TU_UNUSED void *tu_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(99);
    }
    return p;
}

#endif
