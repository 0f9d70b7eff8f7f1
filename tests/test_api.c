/*
 * test_api.c - every public codec function with bad arguments returns the code eccl.h documents;
 * edge values of the bound (section 3.1 of doc/format.md); count 0 everywhere; eccl_strerror,
 * eccl_dtype_size/name, eccl_compress_bound (section 10) and eccl_stream_info's counters.
 */
#include <limits.h>

#include "codec/codec.h"
#include "ref_decoder.h"
#include "testutil.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};
static const eccl_dtype_t bad_dtypes[] = {(eccl_dtype_t)0, (eccl_dtype_t)5, (eccl_dtype_t)-1,
                                          (eccl_dtype_t)255};

static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }
static size_t W_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128 ? 8 : 4; }

/* section 10, computed here in 128-bit arithmetic */
static size_t bound_formula(size_t count, eccl_dtype_t dt)
{
    unsigned __int128 n = (unsigned __int128)count * reals_of(dt), nb = (n + 31) / 32, nt = (nb + 255) / 256;
    unsigned __int128 P = (64 + 8 * nt + nb + 15) / 16 * 16, b = P + n * W_of(dt) + 16 * nt;
    if (n * W_of(dt) >= ((unsigned __int128)1 << 62) || b > SIZE_MAX) return 0;
    return (size_t)b;
}

static void strings(void)
{
    /* every listed code has its message from eccl_errors.def */
#define X(name, value, msg)                                                                        \
    TU_CHECK(eccl_strerror(name) && strcmp(eccl_strerror(name), msg) == 0, "strerror(%s)", #name); \
    TU_CHECK((int)name == value, "%s = %d", #name, (int)name);
#include "eccl_errors.def"
#undef X
    const int unknown[] = {ECCL_NUM_RESULTS, 13, 99, -1, INT_MAX, INT_MIN};
    for (unsigned i = 0; i < sizeof unknown / sizeof *unknown; i++) {
        const char *s = eccl_strerror((eccl_result_t)unknown[i]);
        TU_CHECK(s && strcmp(s, "unknown eccl result code") == 0, "strerror(%d) = %s", unknown[i],
                 s ? s : "(null)");
    }
    for (int a = 0; a < ECCL_NUM_RESULTS; a++)
        for (int b = a + 1; b < ECCL_NUM_RESULTS; b++)
            TU_CHECK(strcmp(eccl_strerror((eccl_result_t)a), eccl_strerror((eccl_result_t)b)) != 0,
                     "codes %d and %d share a message", a, b);
    const char *v = eccl_version_string();
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%d.%d.%d", ECCL_VERSION_MAJOR, ECCL_VERSION_MINOR, ECCL_VERSION_PATCH);
    TU_CHECK(v && strncmp(v, prefix, strlen(prefix)) == 0, "version string '%s'", v ? v : "(null)");

    const size_t sizes[] = {4, 8, 8, 16};
    const char *names[] = {"float32", "float64", "complex64", "complex128"};
    for (int i = 0; i < 4; i++) {
        TU_CHECK(eccl_dtype_size(dtypes[i]) == sizes[i], "dtype_size(%d)", dtypes[i]);
        TU_CHECK(strcmp(eccl_dtype_name(dtypes[i]), names[i]) == 0, "dtype_name(%d)", dtypes[i]);
    }
    for (int i = 0; i < 4; i++) {
        TU_CHECK(eccl_dtype_size(bad_dtypes[i]) == 0, "dtype_size(%d)", bad_dtypes[i]);
        TU_CHECK(strcmp(eccl_dtype_name(bad_dtypes[i]), "unknown") == 0, "dtype_name(%d)", bad_dtypes[i]);
    }
}

static void compress_bound(void)
{
    const size_t counts[] = {0, 1, 15, 16, 31, 32, 33, 4096, 8191, 8192, 8193, 1000003,
                             (size_t)1 << 40};
    for (int d = 0; d < 4; d++) {
        for (unsigned i = 0; i < sizeof counts / sizeof *counts; i++) {
            size_t b = eccl_compress_bound(counts[i], dtypes[d]), f = bound_formula(counts[i], dtypes[d]);
            TU_CHECK(b == f, "compress_bound(%zu, %s) = %zu, section 10 gives %zu", counts[i],
                     eccl_dtype_name(dtypes[d]), b, f);
        }
        TU_CHECK(eccl_compress_bound(0, dtypes[d]) == 64, "bound of nothing is the header");
        /* overflow: never a wrapped small number */
        const size_t huge[] = {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 4 + 1,
                               ((size_t)1 << 62) / eccl_dtype_size(dtypes[d]) + 1};
        for (unsigned i = 0; i < sizeof huge / sizeof *huge; i++)
            TU_CHECK(eccl_compress_bound(huge[i], dtypes[d]) == 0, "compress_bound(%zu, %s) = %zu",
                     huge[i], eccl_dtype_name(dtypes[d]), eccl_compress_bound(huge[i], dtypes[d]));
        /* the format's limit (eccl.h, format.md section 3): count * element size < 2^62 bytes.
         * 2^62 - esize bytes is the largest stream, and has a bound; 2^62 bytes has none */
        size_t top = ((size_t)1 << 62) / eccl_dtype_size(dtypes[d]);
        TU_CHECK(eccl_compress_bound(top - 1, dtypes[d]) == bound_formula(top - 1, dtypes[d]) &&
                     eccl_compress_bound(top - 1, dtypes[d]) > ((size_t)1 << 62) - eccl_dtype_size(dtypes[d]),
                 "compress_bound(%zu, %s) = %zu: 2^62 - esize bytes, the largest stream, needs a bound",
                 top - 1, eccl_dtype_name(dtypes[d]), eccl_compress_bound(top - 1, dtypes[d]));
        TU_CHECK(eccl_compress_bound(top, dtypes[d]) == 0,
                 "compress_bound(%zu, %s) = %zu: count * element size reaches 2^62 bytes, expected 0",
                 top, eccl_dtype_name(dtypes[d]), eccl_compress_bound(top, dtypes[d]));
    }
    for (int i = 0; i < 4; i++) {
        TU_CHECK(eccl_compress_bound(0, bad_dtypes[i]) == 0, "bound of an unknown dtype");
        TU_CHECK(eccl_compress_bound(100, bad_dtypes[i]) == 0, "bound of an unknown dtype");
    }
}

static void data_range(void)
{
    double lo = 1, hi = 1;
    float x[6] = {1.0f, NAN, -2.5f, INFINITY, -INFINITY, 7.0f};
    TU_RC(eccl_data_range(x, 6, ECCL_FLOAT32, NULL, &hi), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_data_range(x, 6, ECCL_FLOAT32, &lo, NULL), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_data_range(NULL, 6, ECCL_FLOAT32, &lo, &hi), ECCL_ERR_INVALID_ARG);
    for (int i = 0; i < 4; i++) TU_RC(eccl_data_range(x, 6, bad_dtypes[i], &lo, &hi), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_data_range(x, 6, ECCL_FLOAT32, &lo, &hi), ECCL_SUCCESS);
    TU_CHECK(lo == -2.5 && hi == 7.0, "range of finite values: %g %g", lo, hi);
    TU_RC(eccl_data_range(x, 3, ECCL_COMPLEX64, &lo, &hi), ECCL_SUCCESS); /* same 6 reals */
    TU_CHECK(lo == -2.5 && hi == 7.0, "complex range: %g %g", lo, hi);
    lo = hi = 5;
    TU_RC(eccl_data_range(NULL, 0, ECCL_FLOAT64, &lo, &hi), ECCL_SUCCESS);
    TU_CHECK(lo == 0 && hi == 0, "empty range");
    float nan_only[3] = {NAN, INFINITY, -INFINITY};
    TU_RC(eccl_data_range(nan_only, 3, ECCL_FLOAT32, &lo, &hi), ECCL_SUCCESS);
    TU_CHECK(lo == 0 && hi == 0, "no finite value: %g %g", lo, hi);
}

/* A REL range of -0.0 is a range of 0: eb_abs +0.0 (not value * -0.0 = -0.0), and the stream is
 * byte for byte the one range +0.0 gives (header range and eb_abs +0.0, every block lossless) */
static void rel_negative_zero_range(void)
{
    const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64};
    eccl_bound_t rn = {ECCL_MODE_REL, 1e-2, -0.0}, rp = {ECCL_MODE_REL, 1e-2, 0.0};
    for (int d = 0; d < 2; d++) {
        const eccl_dtype_t dt = dts[d];
        const int is64 = dt == ECCL_FLOAT64;
        double x[100], y[100], eb = -1;
        unsigned char sn[2048], sp[2048];
        size_t nn = 0, np = 0;
        eccl_stream_info_t info;
        tu_fill(x, 100, is64, TU_SMOOTH, 1);
        TU_RC(eccl_bound_resolve(&rn, x, 100, dt, &eb), ECCL_SUCCESS);
        TU_CHECK(eb == 0 && !signbit(eb), "%s REL range -0.0: eb_abs %g with sign bit %d, expected +0.0",
                 eccl_dtype_name(dt), eb, signbit(eb) != 0);
        TU_RC(eccl_compress(x, 100, dt, &rn, sn, sizeof sn, &nn), ECCL_SUCCESS);
        TU_RC(eccl_compress(x, 100, dt, &rp, sp, sizeof sp, &np), ECCL_SUCCESS);
        TU_CHECK(nn == np && memcmp(sn, sp, nn) == 0, "%s REL range -0.0: stream differs from range +0.0's",
                 eccl_dtype_name(dt));
        TU_RC(eccl_stream_info(sn, nn, &info), ECCL_SUCCESS);
        TU_CHECK(info.eb_abs == 0 && !signbit(info.eb_abs) && info.range == 0 && !signbit(info.range),
                 "%s REL range -0.0: header eb_abs %g (sign %d), range %g (sign %d), expected +0.0 both",
                 eccl_dtype_name(dt), info.eb_abs, signbit(info.eb_abs) != 0, info.range,
                 signbit(info.range) != 0);
        TU_CHECK(info.nblocks_raw == info.nblocks, "%s REL range -0.0: %llu of %llu blocks lossless",
                 eccl_dtype_name(dt), (unsigned long long)info.nblocks_raw, (unsigned long long)info.nblocks);
        TU_RC(eccl_decompress(sn, nn, y, 100, dt), ECCL_SUCCESS);
        TU_CHECK(memcmp(x, y, 100 * eccl_dtype_size(dt)) == 0, "%s REL range -0.0: not bit for bit",
                 eccl_dtype_name(dt));
    }
}

/* eccl_data_range_n (internal, src/codec/codec.h): min and max over the finite real components and
 * their number; with none, min = +inf and max = -inf (so a MIN/MAX reduction over ranks ignores
 * this one). eccl_data_range is the same with min = max = 0 when no value is finite. */
static void expect_range_n(const char *what, const void *x, size_t count, eccl_dtype_t dt, double elo,
                           double ehi, size_t enf)
{
    double lo = 12345, hi = -12345, plo = 12345, phi = -12345;
    size_t nf = 12345;
    TU_RC(eccl_data_range_n(x, count, dt, &lo, &hi, &nf), ECCL_SUCCESS);
    TU_CHECK(nf == enf && lo == elo && hi == ehi, "%s (%zu %s): data_range_n min %g max %g nfinite %zu, "
             "expected %g %g %zu", what, count, eccl_dtype_name(dt), lo, hi, nf, elo, ehi, enf);
    lo = hi = 12345;
    TU_RC(eccl_data_range_n(x, count, dt, &lo, &hi, NULL), ECCL_SUCCESS); /* nfinite may be NULL */
    TU_CHECK(lo == elo && hi == ehi, "%s: data_range_n without nfinite: %g %g", what, lo, hi);
    TU_RC(eccl_data_range(x, count, dt, &plo, &phi), ECCL_SUCCESS);
    TU_CHECK(enf ? plo == elo && phi == ehi : plo == 0 && phi == 0 && !signbit(plo) && !signbit(phi),
             "%s: eccl_data_range %g %g", what, plo, phi);
}

static void data_range_n(void)
{
    double lo, hi;
    size_t nf;
    float one = 1.0f;
    /* the argument errors of eccl_data_range */
    TU_RC(eccl_data_range_n(&one, 1, ECCL_FLOAT32, NULL, &hi, &nf), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_data_range_n(&one, 1, ECCL_FLOAT32, &lo, NULL, &nf), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_data_range_n(NULL, 1, ECCL_FLOAT32, &lo, &hi, &nf), ECCL_ERR_INVALID_ARG);
    for (int i = 0; i < 4; i++)
        TU_RC(eccl_data_range_n(&one, 1, bad_dtypes[i], &lo, &hi, &nf), ECCL_ERR_INVALID_ARG);
    /* empty */
    for (int d = 0; d < 4; d++) expect_range_n("empty", NULL, 0, dtypes[d], INFINITY, -INFINITY, 0);
    /* no finite value: all NaN (payloads and signs), all +-inf; at lengths below, at and above the
     * AVX2 vectors and at the OpenMP split (17 chunks of 2^16 reals) */
    const size_t lens[] = {1, 3, 4, 8, 9, 37, 1000, 17 * 65536 + 3};
    size_t big = lens[sizeof lens / sizeof *lens - 1];
    double *x = tu_malloc(big * 8);
    float *f = tu_malloc(big * 4);
    const uint64_t nan64[3] = {0x7FF8000000000000ull, 0xFFF0000000000001ull, 0x7FF4000000000123ull};
    const uint32_t nan32[3] = {0x7FC00000u, 0xFF800001u, 0xFFA00042u};
    for (unsigned li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t n = lens[li];
        for (size_t i = 0; i < n; i++) {
            memcpy(x + i, &nan64[i % 3], 8);
            memcpy(f + i, &nan32[i % 3], 4);
        }
        expect_range_n("all NaN", x, n, ECCL_FLOAT64, INFINITY, -INFINITY, 0);
        expect_range_n("all NaN", f, n, ECCL_FLOAT32, INFINITY, -INFINITY, 0);
        if (n % 2 == 0) {
            expect_range_n("all NaN", x, n / 2, ECCL_COMPLEX128, INFINITY, -INFINITY, 0);
            expect_range_n("all NaN", f, n / 2, ECCL_COMPLEX64, INFINITY, -INFINITY, 0);
        }
        for (size_t i = 0; i < n; i++) {
            x[i] = i % 2 ? -INFINITY : INFINITY;
            f[i] = i % 3 ? INFINITY : -INFINITY;
        }
        expect_range_n("all inf", x, n, ECCL_FLOAT64, INFINITY, -INFINITY, 0);
        expect_range_n("all inf", f, n, ECCL_FLOAT32, INFINITY, -INFINITY, 0);
    }
    /* mixed: NaN, +-inf and finite values; the expectation computed here one value at a time */
    {
        tu_rng r = {77};
        for (int is64 = 0; is64 < 2; is64++) {
            size_t n = big, enf = 0;
            double elo = INFINITY, ehi = -INFINITY;
            for (size_t i = 0; i < n; i++) {
                double v = (tu_uniform(&r) - 0.5) * 1e6;
                if (i % 7 == 3) v = NAN;
                else if (i % 11 == 5) v = i % 2 ? INFINITY : -INFINITY;
                if (is64) {
                    x[i] = v;
                } else {
                    f[i] = (float)v;
                    v = (double)f[i];
                }
                if (isfinite(v)) {
                    enf++;
                    elo = v < elo ? v : elo;
                    ehi = v > ehi ? v : ehi;
                }
            }
            expect_range_n("mixed", is64 ? (void *)x : (void *)f, n, is64 ? ECCL_FLOAT64 : ECCL_FLOAT32, elo,
                           ehi, enf);
            /* one finite value in a sea of NaN, at the end (the scalar tail) */
            for (size_t i = 0; i < n; i++) {
                if (is64) x[i] = NAN;
                else f[i] = NAN;
            }
            if (is64) x[n - 1] = -3.5;
            else f[n - 1] = -3.5f;
            expect_range_n("one finite", is64 ? (void *)x : (void *)f, n, is64 ? ECCL_FLOAT64 : ECCL_FLOAT32,
                           -3.5, -3.5, 1);
        }
    }
    /* complex: each element contributes its real and imaginary parts, counted as two reals */
    {
        float c[6] = {1.0f, NAN, -2.5f, INFINITY, 7.0f, -INFINITY};
        double z[4] = {1.0, NAN, 2.0, NAN};
        expect_range_n("complex64", c, 3, ECCL_COMPLEX64, -2.5, 7.0, 3);
        expect_range_n("complex128, NaN imaginary parts", z, 2, ECCL_COMPLEX128, 1.0, 2.0, 2);
    }
    free(x);
    free(f);
}

static void bound_resolve(void)
{
    float x[4] = {-1.0f, 3.0f, NAN, 0.5f};
    double eb = -7;
    const double bad_values[] = {0.0, -0.0, -1e-3, NAN, INFINITY, -INFINITY};
    for (int m = 1; m <= 2; m++) {
        for (unsigned i = 0; i < sizeof bad_values / sizeof *bad_values; i++) {
            eccl_bound_t b = {(eccl_mode_t)m, bad_values[i], m == 2 ? 1.0 : 0.0};
            TU_RC(eccl_bound_resolve(&b, x, 4, ECCL_FLOAT32, &eb), ECCL_ERR_INVALID_ARG);
        }
    }
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    TU_RC(eccl_bound_resolve(NULL, x, 4, ECCL_FLOAT32, &eb), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_bound_resolve(&b, x, 4, ECCL_FLOAT32, NULL), ECCL_ERR_INVALID_ARG);
    for (int i = 0; i < 4; i++) TU_RC(eccl_bound_resolve(&b, x, 4, bad_dtypes[i], &eb), ECCL_ERR_INVALID_ARG);
    const int bad_modes[] = {3, -1, 100};
    for (int i = 0; i < 3; i++) {
        eccl_bound_t bm = {(eccl_mode_t)bad_modes[i], 1e-3, 0.0};
        TU_RC(eccl_bound_resolve(&bm, x, 4, ECCL_FLOAT32, &eb), ECCL_ERR_INVALID_ARG);
    }
    const double bad_ranges[] = {-2.0, -0.5, -INFINITY, NAN, -1.0000000000000002};
    for (unsigned i = 0; i < sizeof bad_ranges / sizeof *bad_ranges; i++) {
        eccl_bound_t br = {ECCL_MODE_REL, 1e-3, bad_ranges[i]};
        TU_RC(eccl_bound_resolve(&br, x, 4, ECCL_FLOAT32, &eb), ECCL_ERR_INVALID_ARG);
    }
    /* REL from data: the finite range; needs data unless count is 0 */
    eccl_bound_t rel = ECCL_BOUND_REL(1e-2);
    TU_RC(eccl_bound_resolve(&rel, x, 4, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 1e-2 * 4.0, "REL from data: %.17g", eb);
    TU_RC(eccl_bound_resolve(&rel, NULL, 4, ECCL_FLOAT32, &eb), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_bound_resolve(&rel, NULL, 0, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 0, "REL of nothing: %g", eb);
    /* given ranges: 0, +inf (section 3.1: allowed, capped) */
    eccl_bound_t r0 = {ECCL_MODE_REL, 1e-2, 0.0}, rinf = {ECCL_MODE_REL, 1e-2, INFINITY};
    TU_RC(eccl_bound_resolve(&r0, NULL, 4, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 0, "REL range 0: %g", eb);
    TU_RC(eccl_bound_resolve(&rinf, NULL, 4, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == ldexp(1.0, 1020), "REL range inf: eb %.17g, expected 2^1020", eb);
    rel_negative_zero_range();
    /* LOSSLESS ignores the value */
    eccl_bound_t ll = {ECCL_MODE_LOSSLESS, NAN, -5.0};
    TU_RC(eccl_bound_resolve(&ll, NULL, 4, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 0, "LOSSLESS eb");
    /* ABS ignores the range field */
    eccl_bound_t ar = {ECCL_MODE_ABS, 0.25, -3.0};
    TU_RC(eccl_bound_resolve(&ar, NULL, 4, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 0.25, "ABS with a range field: %g", eb);
    /* the cap of section 3.1: min(bound, 2^1020), min(fl(bound * range), 2^1020) */
    const double abs_values[] = {1e-300, 1.0, 1e300, 1e302, 1e305, 0x1p1020, 0x1.8p1020, 1e308, DBL_MAX};
    for (unsigned i = 0; i < sizeof abs_values / sizeof *abs_values; i++) {
        eccl_bound_t a = ECCL_BOUND_ABS(abs_values[i]);
        double expect = abs_values[i] < 0x1p1020 ? abs_values[i] : 0x1p1020;
        TU_RC(eccl_bound_resolve(&a, NULL, 4, ECCL_FLOAT64, &eb), ECCL_SUCCESS);
        TU_CHECK(eb == expect, "ABS %.17g: eb_abs %.17g, section 3.1 gives min(bound, 2^1020) = %.17g",
                 abs_values[i], eb, expect);
    }
    eccl_bound_t rbig = {ECCL_MODE_REL, 1e-3, 1e306};
    TU_RC(eccl_bound_resolve(&rbig, NULL, 4, ECCL_FLOAT64, &eb), ECCL_SUCCESS);
    TU_CHECK(eb == 1e-3 * 1e306, "REL 1e-3 x 1e306: eb_abs %.17g, expected %.17g", eb, 1e-3 * 1e306);
    /* and the stream agrees: compress and read the header back */
    {
        double y[4] = {1e300, -1e300, 0, 5e299}, z[4];
        unsigned char s[256];
        size_t size;
        eccl_stream_info_t info;
        eccl_bound_t a = ECCL_BOUND_ABS(1e305);
        TU_RC(eccl_compress(y, 4, ECCL_FLOAT64, &a, s, sizeof s, &size), ECCL_SUCCESS);
        TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
        TU_CHECK(info.eb_abs == 1e305, "header eb_abs %.17g for ABS 1e305", info.eb_abs);
        TU_RC(eccl_decompress(s, size, z, 4, ECCL_FLOAT64), ECCL_SUCCESS);
        for (int i = 0; i < 4; i++) TU_CHECK(fabs(z[i] - y[i]) <= 1e305, "ABS 1e305 bound");
    }
}

static void compress_args(void)
{
    float x[100];
    for (int i = 0; i < 100; i++) x[i] = (float)i * 0.01f;
    unsigned char s[2048];
    size_t size = 12345;
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, NULL, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, s, sizeof s, NULL), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, NULL, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_compress(NULL, 100, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    for (int i = 0; i < 4; i++)
        TU_RC(eccl_compress(x, 100, bad_dtypes[i], &b, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    const int bad_modes[] = {3, -1};
    for (int i = 0; i < 2; i++) {
        eccl_bound_t bm = {(eccl_mode_t)bad_modes[i], 1e-3, 0.0};
        TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &bm, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    }
    const double bad_values[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
    for (int m = 1; m <= 2; m++)
        for (int i = 0; i < 5; i++) {
            eccl_bound_t bv = {(eccl_mode_t)m, bad_values[i], ECCL_RANGE_FROM_DATA};
            TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &bv, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
        }
    const double bad_ranges[] = {-2.0, NAN, -INFINITY};
    for (int i = 0; i < 3; i++) {
        eccl_bound_t br = {ECCL_MODE_REL, 1e-3, bad_ranges[i]};
        TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &br, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    }
    /* counts the format cannot hold: rejected before the data is read */
    TU_RC(eccl_compress(x, SIZE_MAX, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_compress(x, (size_t)1 << 61, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
    /* at the limit, every dtype: 2^62 bytes is INVALID_ARG (also as a size query); 2^62 - esize
     * bytes is a count the format holds: a size query gives its bound, and a small buffer is
     * BUFFER_TOO_SMALL (an ABS bound: nothing of the data is read) */
    for (int d = 0; d < 4; d++) {
        size_t top = ((size_t)1 << 62) / eccl_dtype_size(dtypes[d]);
        const char *nm = eccl_dtype_name(dtypes[d]);
        size = 0;
        TU_RC(eccl_compress(x, top, dtypes[d], &b, s, sizeof s, &size), ECCL_ERR_INVALID_ARG);
        TU_CHECK(eccl_compress(x, top, dtypes[d], &b, NULL, 0, &size) == ECCL_ERR_INVALID_ARG,
                 "size query of %zu %s (2^62 bytes): %zu bytes, expected ECCL_ERR_INVALID_ARG", top, nm, size);
        size = 0;
        TU_RC(eccl_compress(x, top - 1, dtypes[d], &b, NULL, 0, &size), ECCL_ERR_BUFFER_TOO_SMALL);
        TU_CHECK(size == eccl_compress_bound(top - 1, dtypes[d]) && size != 0, "size query of %zu %s: %zu",
                 top - 1, nm, size);
        TU_RC(eccl_compress(x, top - 1, dtypes[d], &b, s, sizeof s, &size), ECCL_ERR_BUFFER_TOO_SMALL);
    }

    /* too small: BUFFER_TOO_SMALL and *out_size = eccl_compress_bound (eccl.h) */
    size_t need;
    TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, s, sizeof s, &need), ECCL_SUCCESS);
    const size_t caps[] = {0, 1, 63, 64, 79, 80, 95};
    for (unsigned i = 0; i < sizeof caps / sizeof *caps; i++) {
        if (caps[i] >= need) continue;
        size = 0;
        TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, s, caps[i], &size), ECCL_ERR_BUFFER_TOO_SMALL);
        TU_CHECK(size == eccl_compress_bound(100, ECCL_FLOAT32), "cap %zu: *out_size %zu, bound %zu",
                 caps[i], size, eccl_compress_bound(100, ECCL_FLOAT32));
    }
    size = 0;
    TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, s, need - 1, &size), ECCL_ERR_BUFFER_TOO_SMALL);
    TU_CHECK(size == eccl_compress_bound(100, ECCL_FLOAT32), "cap need-1: *out_size %zu", size);
    /* a multi-tile incompressible input, one byte short */
    {
        size_t count = 20000, cap = eccl_compress_bound(count, ECCL_FLOAT32), sz = 0;
        float *r = tu_malloc(count * 4);
        unsigned char *o = tu_malloc(cap);
        eccl_bound_t ll = ECCL_BOUND_LOSSLESS;
        tu_fill(r, count, 0, TU_RANDOM, 5);
        TU_RC(eccl_compress(r, count, ECCL_FLOAT32, &ll, o, cap, &sz), ECCL_SUCCESS);
        size_t got = 0;
        TU_RC(eccl_compress(r, count, ECCL_FLOAT32, &ll, o, sz - 1, &got), ECCL_ERR_BUFFER_TOO_SMALL);
        TU_CHECK(got == cap, "multi-tile short buffer: *out_size %zu, bound %zu", got, cap);
        TU_RC(eccl_compress(r, count, ECCL_FLOAT32, &ll, o, sz, &got), ECCL_SUCCESS);
        free(r);
        free(o);
    }
}

static void decode_args(void)
{
    float x[40], y[40];
    for (int i = 0; i < 40; i++) x[i] = (float)i;
    unsigned char s[1024];
    size_t size;
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    eccl_stream_info_t info;
    TU_RC(eccl_compress(x, 40, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    TU_RC(eccl_decompress(NULL, size, y, 40, ECCL_FLOAT32), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_decompress(s, size, NULL, 40, ECCL_FLOAT32), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_decompress(s, 0, y, 40, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
    TU_RC(eccl_decompress(NULL, 0, NULL, 0, ECCL_FLOAT32), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_stream_info(NULL, size, &info), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_stream_info(s, size, NULL), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_stream_info(s, 0, &info), ECCL_ERR_CORRUPT);
}

static void hom_args(void)
{
    float x[40], l[40];
    float _Complex c[20];
    for (int i = 0; i < 40; i++) x[i] = l[i] = (float)i * 0.5f;
    for (int i = 0; i < 20; i++) c[i] = (float)i;
    unsigned char s[1024], sc[1024], o[2048];
    size_t size, csize, osz = 0, cap = eccl_compress_bound(40, ECCL_FLOAT32);
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    TU_RC(eccl_compress(x, 40, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    TU_RC(eccl_compress(c, 20, ECCL_COMPLEX64, &b, sc, sizeof sc, &csize), ECCL_SUCCESS);

    TU_RC(eccl_hom_reduce(NULL, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_reduce(s, size, NULL, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, NULL, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, NULL), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_reduce(s, 0, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_CORRUPT);
    TU_RC(eccl_hom_combine(NULL, size, s, size, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_combine(s, size, NULL, size, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_SUM, NULL, cap, &osz), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_SUM, o, cap, NULL), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_hom_combine(s, 0, s, size, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_CORRUPT);
    TU_RC(eccl_hom_combine(s, size, s, 0, ECCL_OP_SUM, o, cap, &osz), ECCL_ERR_CORRUPT);
    /* out overlapping an input stream: ECCL_ERR_INVALID_ARG (eccl.h) */
    {
        unsigned char *buf = tu_malloc(4 * cap + 2 * size);
        memcpy(buf, s, size);
        eccl_result_t r1 = eccl_hom_reduce(buf, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf + size / 2,
                                           cap, &osz);
        eccl_result_t r2 = eccl_hom_combine(buf, size, s, size, ECCL_OP_SUM, buf + 16, cap, &osz);
        eccl_result_t r3 = eccl_hom_combine(s, size, buf, size, ECCL_OP_SUM, buf, cap, &osz);
        TU_CHECK(r1 == ECCL_ERR_INVALID_ARG && r2 == ECCL_ERR_INVALID_ARG && r3 == ECCL_ERR_INVALID_ARG,
                 "overlapping out: %d %d %d", r1, r2, r3);
        free(buf);
    }
    /* out overlapping the local array (eccl.h: ECCL_ERR_INVALID_ARG for an out overlapping the
     * inputs; local is count * element size bytes), from below and from above; just after it is
     * fine */
    {
        size_t lb = 40 * sizeof(float);
        unsigned char *buf = tu_malloc(2 * cap + 2 * lb);
        float *loc = (float *)(buf + 16);
        memcpy(loc, l, lb);
        TU_RC(eccl_hom_reduce(s, size, loc, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf, cap, &osz),
              ECCL_ERR_INVALID_ARG);
        loc = (float *)buf;
        memcpy(loc, l, lb);
        TU_RC(eccl_hom_reduce(s, size, loc, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf + lb - 16, cap, &osz),
              ECCL_ERR_INVALID_ARG);
        TU_RC(eccl_hom_reduce(s, size, loc, 40, ECCL_FLOAT32, ECCL_OP_MAX, buf + lb, cap, &osz),
              ECCL_SUCCESS);
        free(buf);
    }
    /* a capacity or a size so large that pointer + size wraps around: still an overlap (the
     * buffers really overlap; only the test's arithmetic could miss it) */
    {
        unsigned char *buf = tu_malloc(2 * cap + 2 * size + 256);
        unsigned char *in = buf + cap + 64;
        float *loc = (float *)(buf + cap + 64);
        memcpy(in, s, size);
        TU_RC(eccl_hom_reduce(in, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf, SIZE_MAX, &osz),
              ECCL_ERR_INVALID_ARG);
        TU_RC(eccl_hom_combine(in, size, s, size, ECCL_OP_SUM, buf, SIZE_MAX, &osz), ECCL_ERR_INVALID_ARG);
        TU_RC(eccl_hom_combine(s, size, in, size, ECCL_OP_SUM, buf, SIZE_MAX, &osz), ECCL_ERR_INVALID_ARG);
        memcpy(loc, l, 40 * sizeof(float));
        TU_RC(eccl_hom_reduce(s, size, loc, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf, SIZE_MAX, &osz),
              ECCL_ERR_INVALID_ARG);
        /* the other way round: an input whose size wraps, with out after it */
        memcpy(buf, s, size);
        TU_RC(eccl_hom_reduce(buf, SIZE_MAX, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, buf + cap + 64, cap, &osz),
              ECCL_ERR_INVALID_ARG);
        TU_RC(eccl_hom_combine(s, size, buf, SIZE_MAX, ECCL_OP_SUM, buf + cap + 64, cap, &osz),
              ECCL_ERR_INVALID_ARG);
        free(buf);
    }
    /* ops: AVG and PROD are not codec operations (eccl.h: UNSUPPORTED) */
    TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_AVG, o, cap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_PROD, o, cap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_AVG, o, cap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_PROD, o, cap, &osz), ECCL_ERR_UNSUPPORTED);
    /* an op that is no eccl_op_t at all: eccl.h says UNSUPPORTED for "op not SUM/MAX/MIN";
     * INVALID_ARG is accepted as well (see the report) */
    const int bad_ops[] = {5, 99, -1};
    for (int i = 0; i < 3; i++) {
        eccl_result_t r1 = eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, (eccl_op_t)bad_ops[i], o, cap, &osz);
        eccl_result_t r2 = eccl_hom_combine(s, size, s, size, (eccl_op_t)bad_ops[i], o, cap, &osz);
        TU_CHECK((r1 == ECCL_ERR_UNSUPPORTED || r1 == ECCL_ERR_INVALID_ARG) && r1 == r2,
                 "op %d: %d / %d", bad_ops[i], r1, r2);
    }
    /* MAX/MIN of complex numbers */
    size_t ccap = eccl_compress_bound(20, ECCL_COMPLEX64);
    TU_RC(eccl_hom_reduce(sc, csize, c, 20, ECCL_COMPLEX64, ECCL_OP_MAX, o, ccap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_reduce(sc, csize, c, 20, ECCL_COMPLEX64, ECCL_OP_MIN, o, ccap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_combine(sc, csize, sc, csize, ECCL_OP_MAX, o, ccap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_combine(sc, csize, sc, csize, ECCL_OP_MIN, o, ccap, &osz), ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_hom_combine(sc, csize, sc, csize, ECCL_OP_SUM, o, ccap, &osz), ECCL_SUCCESS);
    /* too small an output: BUFFER_TOO_SMALL; the size it reports then suffices */
    for (size_t c2 = 0; c2 < 96; c2 += 16) {
        osz = 0;
        TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, c2, &osz), ECCL_ERR_BUFFER_TOO_SMALL);
        TU_CHECK(osz >= 96 && osz <= sizeof o, "reported size %zu", osz);
        size_t osz2;
        TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, osz, &osz2), ECCL_SUCCESS);
        osz = 0;
        TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_MAX, o, c2, &osz), ECCL_ERR_BUFFER_TOO_SMALL);
        TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_MAX, o, osz, &osz2), ECCL_SUCCESS);
    }
    TU_RC(eccl_hom_reduce(s, size, l, 40, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz), ECCL_SUCCESS);
}

/* nsum at its limit: the result cannot count its contributions (undocumented code: any error) */
static void nsum_limit(void)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned char s[256], o[256];
    size_t size, osz;
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    TU_RC(eccl_compress(x, 8, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    /* nsum = 2^32 - 1, the checksum recomputed (section 9) */
    memset(s + 12, 0xFF, 4);
    ref_fix_checksum(s, size);
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
    TU_CHECK(info.nsum == UINT32_MAX, "nsum %u", info.nsum);
    eccl_result_t rc = eccl_hom_reduce(s, size, x, 8, ECCL_FLOAT32, ECCL_OP_SUM, o, sizeof o, &osz);
    TU_CHECK(rc != ECCL_SUCCESS, "hom_reduce SUM at nsum 2^32-1 succeeded (nsum would wrap)");
    rc = eccl_hom_combine(s, size, s, size, ECCL_OP_SUM, o, sizeof o, &osz);
    TU_CHECK(rc != ECCL_SUCCESS, "hom_combine SUM at nsum 2^32-1 succeeded (nsum would wrap)");
    TU_RC(eccl_hom_combine(s, size, s, size, ECCL_OP_MAX, o, sizeof o, &osz), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(o, osz, &info), ECCL_SUCCESS);
    TU_CHECK(info.nsum == UINT32_MAX, "MAX keeps nsum %u", info.nsum);
}

/* count 0 everywhere, every dtype and mode */
static void count_zero(void)
{
    const eccl_bound_t bs[] = {ECCL_BOUND_LOSSLESS, ECCL_BOUND_ABS(1e-3), ECCL_BOUND_REL(1e-3),
                               {ECCL_MODE_REL, 1e-3, 2.0}};
    for (int d = 0; d < 4; d++)
        for (int m = 0; m < 4; m++) {
            unsigned char s[64], s2[64], o[64];
            size_t size = 0, osz = 0;
            eccl_stream_info_t info;
            double eb = -1, lo, hi;
            TU_RC(eccl_bound_resolve(&bs[m], NULL, 0, dtypes[d], &eb), ECCL_SUCCESS);
            TU_RC(eccl_compress(NULL, 0, dtypes[d], &bs[m], s, sizeof s, &size), ECCL_SUCCESS);
            TU_CHECK(size == 64, "count 0: %zu bytes", size);
            TU_RC(eccl_compress(NULL, 0, dtypes[d], &bs[m], s2, 63, &osz), ECCL_ERR_BUFFER_TOO_SMALL);
            TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
            TU_CHECK(info.count == 0 && info.nblocks == 0 && info.nblocks_quant == 0 &&
                         info.nblocks_raw == 0 && info.nblocks_zero == 0 && info.eb_abs == eb,
                     "count 0 info");
            TU_RC(eccl_decompress(s, size, NULL, 0, dtypes[d]), ECCL_SUCCESS);
            int sum_ok = 1;
            for (int op = 0; op < 3; op++) {
                eccl_result_t expect = op && dtypes[d] >= ECCL_COMPLEX64 ? ECCL_ERR_UNSUPPORTED : ECCL_SUCCESS;
                TU_RC(eccl_hom_reduce(s, size, NULL, 0, dtypes[d], (eccl_op_t)op, o, sizeof o, &osz), expect);
                TU_RC(eccl_hom_combine(s, size, s, size, (eccl_op_t)op, o, sizeof o, &osz), expect);
                if (op == 0 && expect == ECCL_SUCCESS) sum_ok = osz == 64;
            }
            TU_CHECK(sum_ok, "count 0 combine size");
            TU_RC(eccl_data_range(NULL, 0, dtypes[d], &lo, &hi), ECCL_SUCCESS);
        }
}

/* eccl_stream_info's block counters on streams whose blocks are known */
static void info_counters(void)
{
    float z[32], c[32], mix[96];
    unsigned char s[1024];
    size_t size;
    eccl_stream_info_t info;
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    for (int i = 0; i < 32; i++) {
        z[i] = 0.0f;
        c[i] = 3.0f;
    }
    /* one block of zeros: the zero block (code 0x20, section 6.2) */
    TU_RC(eccl_compress(z, 32, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
    TU_CHECK(s[72] == 0x20, "zeros: code %02x", s[72]);
    TU_CHECK(info.nblocks == 1 && info.nblocks_quant == 1 && info.nblocks_raw == 0, "zeros counters");
    TU_CHECK(info.nblocks_zero == 1, "32 zeros: nblocks_zero = %llu, expected 1 (one all-zero block)",
             (unsigned long long)info.nblocks_zero);
    /* one block of 3.0: a QUANT block, not a zero block */
    TU_RC(eccl_compress(c, 32, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
    TU_CHECK(info.nblocks == 1 && info.nblocks_quant == 1 && info.nblocks_raw == 0, "constant counters");
    TU_CHECK(info.nblocks_zero == 0, "32 x 3.0: nblocks_zero = %llu, expected 0 (no zero value)",
             (unsigned long long)info.nblocks_zero);
    /* zeros, a NaN block, random: 1 zero block at most, 1 RAW */
    for (int i = 0; i < 96; i++) mix[i] = i < 32 ? 0.0f : i < 64 ? (i == 40 ? NAN : 1.0f) : (float)((i * 37) % 11);
    TU_RC(eccl_compress(mix, 96, ECCL_FLOAT32, &b, s, sizeof s, &size), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
    TU_CHECK(info.nblocks == 3 && info.nblocks_raw == 1 && info.nblocks_quant == 2, "mixed counters");
    TU_CHECK(info.nblocks_zero == 1, "mixed: nblocks_zero = %llu, expected 1", (unsigned long long)info.nblocks_zero);
}

int main(void)
{
    strings();
    compress_bound();
    data_range();
    data_range_n();
    bound_resolve();
    compress_args();
    decode_args();
    hom_args();
    nsum_limit();
    count_zero();
    info_counters();
    return tu_finish("test_api");
}
