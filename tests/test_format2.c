/*
 * test_format2.c - the CPU codec's version-2 streams (doc/format.md sections 4.1, 6.2, 8.1, 13):
 *  1. round trips over dtypes x bounds x sizes x data patterns, the bound checked element by
 *     element in long double, for version 2; every version-2 stream is no larger than the
 *     version-1 stream of the same input, and equal to it but for the version byte and the
 *     checksum when no tile took form L2; the reference and AVX2 paths write the same bytes;
 *  2. smooth data takes form-L2 tiles (and compresses better: ratios printed);
 *  3. adversarial integers: second-order deltas beyond FQ planes, f32 head blocks whose
 *     first-order deltas need 31 planes, short last blocks;
 *  4. homomorphic SUM/MAX/MIN on version-2 streams give version-2 streams that decode to exactly
 *     the values of the same operation on version-1 streams; mixed versions are refused;
 *  5. tile forms a decoder must refuse (2, 3; L2 in a complex, LOSSLESS or version-1 stream), and
 *     random byte damage with a valid checksum: refused or decoded, never a crash (ASan in CI).
 *
 * ECCL_TEST_QUICK=1 skips the sizes above 10000.
 */
#include "testutil.h"
#include "ref_decoder.h"
#include "codec/codec.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

typedef struct {
    eccl_mode_t mode;
    double value;
} mode_case;

static const mode_case modes[] = {
    {ECCL_MODE_LOSSLESS, 0}, {ECCL_MODE_ABS, 1e-1},  {ECCL_MODE_ABS, 1e-4}, {ECCL_MODE_ABS, 1e-7},
    {ECCL_MODE_ABS, 1e-13},  {ECCL_MODE_REL, 1e-3},  {ECCL_MODE_REL, 1e-6}, {ECCL_MODE_ABS, 1e300},
    {ECCL_MODE_ABS, 1e-305}};
#define NMODES (sizeof modes / sizeof *modes)

static int quick;

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }

/* The checksum recomputed after a deliberate change (the reference decoder's). */
#define rechecksum ref_fix_checksum

/* Number of form-L2 tiles of a valid stream. */
static size_t l2_tiles(const unsigned char *s, size_t size)
{
    eccl_stream_t st;
    if (eccl_stream_parse(s, size, &st)) return 0;
    size_t k = 0;
    for (uint64_t t = 0; t < st.nt; t++) k += eccl_stream_tile_form(&st, t) == ECCL_FMT_FORM_L2;
    return k;
}

static eccl_bound_t bound_of(const mode_case *mc)
{
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    return b;
}

/* Compress x both ways; the checks of part 1. Returns the version-2 stream (caller frees). */
static unsigned char *both_versions(const void *x, size_t count, eccl_dtype_t dt, const eccl_bound_t *b,
                                    const char *what, size_t *size2_out, size_t *size1_out)
{
    size_t cap = eccl_compress_bound(count, dt), z1 = 0, z2 = 0, zr = 0;
    unsigned char *s1 = tu_malloc(cap), *s2 = tu_malloc(cap), *sr = tu_malloc(cap);
    eccl_result_t r1 = eccl_compress_fmt(x, count, dt, b, s1, cap, &z1, ECCL_PATH_AUTO, 1);
    eccl_result_t r2 = eccl_compress_fmt(x, count, dt, b, s2, cap, &z2, ECCL_PATH_AUTO, 2);
    eccl_result_t rr = eccl_compress_fmt(x, count, dt, b, sr, cap, &zr, ECCL_PATH_REFERENCE, 2);
    TU_CHECK(r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS && rr == ECCL_SUCCESS, "%s: compress %s %s %s",
             what, eccl_strerror(r1), eccl_strerror(r2), eccl_strerror(rr));
    TU_CHECK(zr == z2 && memcmp(sr, s2, z2) == 0, "%s: reference and AVX2 paths differ (v2)", what);
    TU_CHECK(z2 <= z1, "%s: version 2 larger than version 1 (%zu > %zu)", what, z2, z1);
    TU_CHECK(s2[ECCL_HDR_VMAJOR] == 2, "%s: version byte %d", what, s2[ECCL_HDR_VMAJOR]);
    if (l2_tiles(s2, z2) == 0) {
        /* no second-order tile: the version-1 bytes but for the version and the checksum */
        int same = z1 == z2;
        if (same) {
            s1[ECCL_HDR_VMAJOR] = 2;
            rechecksum(s1, z1);
            same = memcmp(s1, s2, z1) == 0;
        }
        TU_CHECK(same, "%s: all tiles form 0 but the stream differs from version 1", what);
    }
    free(s1);
    free(sr);
    *size2_out = z2;
    *size1_out = z1;
    return s2;
}

static void round_trip(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    int is64 = is64_of(dt);
    size_t reals = count * reals_of(dt), esz = eccl_dtype_size(dt), z1, z2;
    void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz);
    eccl_bound_t b = bound_of(mc);
    char what[160];
    snprintf(what, sizeof what, "%s %s %s %g n=%zu", eccl_dtype_name(dt), tu_pattern_name[pattern],
             mc->mode == ECCL_MODE_REL ? "REL" : mc->mode == ECCL_MODE_ABS ? "ABS" : "LOSSLESS",
             mc->value, count);
    tu_fill(x, reals, is64, pattern, count + 17);
    unsigned char *s = both_versions(x, count, dt, &b, what, &z2, &z1);
    double eb = 0;
    TU_RC(eccl_bound_resolve(&b, x, count, dt, &eb), ECCL_SUCCESS);
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(s, z2, &info), ECCL_SUCCESS);
    TU_CHECK(info.version_major == 2 && info.eb_abs == eb && info.count == count, "%s: stream_info", what);
    if (reals_of(dt) == 2 || mc->mode == ECCL_MODE_LOSSLESS)
        TU_CHECK(l2_tiles(s, z2) == 0, "%s: form L2 where section 4.1 forbids it", what);
    memset(y, 0xA5, count * esz);
    eccl_result_t rc = eccl_decompress(s, z2, y, count, dt);
    TU_CHECK(rc == ECCL_SUCCESS, "%s: decompress %s", what, eccl_strerror(rc));
    size_t bad = tu_check_bound(x, y, reals, is64, eb, mc->mode == ECCL_MODE_LOSSLESS, NULL);
    TU_CHECK(bad == 0, "%s: %zu elements out of bound %g", what, bad, eb);
    /* the reference decoder path agrees bit for bit */
    void *y2 = tu_malloc(count * esz);
    rc = eccl_decompress_path(s, z2, y2, count, dt, ECCL_PATH_REFERENCE);
    TU_CHECK(rc == ECCL_SUCCESS && memcmp(y, y2, count * esz) == 0, "%s: reference decode differs", what);
    free(y2);
    free(s);
    free(x);
    free(y);
}

/* Part 2: smooth fields take form L2 and shrink. */
static void smooth_ratios(void)
{
    static const struct {
        eccl_dtype_t dt;
        double eb;
    } cases[] = {{ECCL_FLOAT64, 1e-6}, {ECCL_FLOAT32, 1e-4}, {ECCL_FLOAT64, 1e-9}};
    size_t count = quick ? 8192 * 3 : 8192 * 32;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        eccl_dtype_t dt = cases[c].dt;
        int is64 = is64_of(dt);
        void *x = tu_malloc(count * 8);
        for (size_t i = 0; i < count; i++) {
            double v = sin(i * 0.0007) * cos(i * 0.00013) + 0.25 * sin(i * 0.0031);
            if (is64) ((double *)x)[i] = v;
            else ((float *)x)[i] = (float)v;
        }
        eccl_bound_t b = ECCL_BOUND_ABS(cases[c].eb);
        size_t z1, z2;
        unsigned char *s = both_versions(x, count, dt, &b, "smooth ratio", &z2, &z1);
        size_t nl2 = l2_tiles(s, z2), nt = (count + 8191) / 8192;
        double raw = (double)count * (is64 ? 8 : 4);
        printf("  smooth %s ABS %g: ratio v1 %.2f, v2 %.2f (%zu of %zu tiles form L2)\n",
               eccl_dtype_name(dt), cases[c].eb, raw / z1, raw / z2, nl2, nt);
        TU_CHECK(nl2 > 0 && z2 < z1, "smooth %s: no second-order tile", eccl_dtype_name(dt));
        void *y = tu_malloc(count * 8);
        TU_RC(eccl_decompress(s, z2, y, count, dt), ECCL_SUCCESS);
        TU_CHECK(tu_check_bound(x, y, count, is64, cases[c].eb, 0, NULL) == 0, "smooth bound");
        free(y);
        free(s);
        free(x);
    }
}

/* stream_info on version 2: an exact ramp has zero second differences, so its blocks are code
 * 0x20 in form-L2 tiles, which is not the zero block there (format.md 6.2); zeros keep theirs. */
static void info_zero_blocks(void)
{
    size_t n = 3 * 8192, cap = eccl_compress_bound(n, ECCL_FLOAT64), z;
    double *x = tu_malloc(n * 8);
    unsigned char *s = tu_malloc(cap);
    double eb = 0x1p-20, D = eccl_fmt_quantum(eb);
    eccl_bound_t b = ECCL_BOUND_ABS(eb);
    eccl_stream_info_t info;
    for (size_t i = 0; i < n; i++) x[i] = (double)(3 * (int64_t)i - 7000) * D;
    TU_RC(eccl_compress_fmt(x, n, ECCL_FLOAT64, &b, s, cap, &z, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(s, z, &info), ECCL_SUCCESS);
    TU_CHECK(l2_tiles(s, z) == 3 && info.nblocks_zero == 0, "ramp: %zu L2 tiles, %llu zero blocks reported",
             l2_tiles(s, z), (unsigned long long)info.nblocks_zero);
    size_t nz = 0;
    eccl_stream_t st;
    TU_RC(eccl_stream_parse(s, z, &st), ECCL_SUCCESS);
    for (uint64_t k = 0; k < st.nb; k++) nz += st.codes[k] == 0x20u;
    TU_CHECK(nz > st.nb / 2, "ramp: only %zu blocks of zero second differences", nz);
    memset(x, 0, n * 8);
    TU_RC(eccl_compress_fmt(x, n, ECCL_FLOAT64, &b, s, cap, &z, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    TU_RC(eccl_stream_info(s, z, &info), ECCL_SUCCESS);
    /* (a tile's head block is the 1-byte zero block; the others repeat their predecessor, code 0x00) */
    TU_CHECK(info.nblocks_zero == 3, "zeros: %llu zero blocks, not one a tile", (unsigned long long)info.nblocks_zero);
    free(x), free(s);
}

/* Part 3: integers at the format's limits. v(i) gives the quantized integer of element i. */
static void adversarial(void)
{
    for (int is64 = 0; is64 < 2; is64++) {
        eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
        double eb = is64 ? 0x1p-20 : 0x1p-10;
        double D = eccl_fmt_quantum(eb);
        int64_t qmax = is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
        for (int kind = 0; kind < 4; kind++) {
            size_t counts[] = {1, 2, 3, 31, 33, 8192, 8193, 8192 + 40, 3 * 8192 - 5};
            for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
                size_t n = counts[ci];
                void *x = tu_malloc(n * 8);
                for (size_t i = 0; i < n; i++) {
                    int64_t q;
                    switch (kind) {
                    case 0: q = (i & 1) ? qmax : -qmax; break;               /* L2 deltas 4*QMAX */
                    case 1: q = (int64_t)((i * i * 7) % 1000) - 500; break;   /* rough */
                    case 2: q = (int64_t)(i * i) % (qmax / 2) - qmax / 4; break; /* quadratic */
                    default: q = (i % 64 < 32) ? ((i & 1) ? qmax : -qmax) : (int64_t)i; break;
                    }
                    double v = (double)q * D;
                    if (is64) ((double *)x)[i] = v;
                    else ((float *)x)[i] = (float)v;
                }
                eccl_bound_t b = ECCL_BOUND_ABS(eb);
                size_t z1, z2;
                char what[96];
                snprintf(what, sizeof what, "adversarial %s kind %d n=%zu", eccl_dtype_name(dt), kind, n);
                unsigned char *s = both_versions(x, n, dt, &b, what, &z2, &z1);
                void *y = tu_malloc(n * 8);
                TU_RC(eccl_decompress(s, z2, y, n, dt), ECCL_SUCCESS);
                TU_CHECK(tu_check_bound(x, y, n, is64, eb, 0, NULL) == 0, "%s: bound", what);
                free(y);
                free(s);
                free(x);
            }
        }
    }
}

/* Part 4: homomorphic operations on version-2 streams. */
static void hom_case(eccl_dtype_t dt, const mode_case *mc, size_t count, int pa, int pb, eccl_op_t op)
{
    int is64 = is64_of(dt);
    size_t reals = count * reals_of(dt), esz = eccl_dtype_size(dt), cap = eccl_compress_bound(count, dt);
    void *xa = tu_malloc(count * esz), *xb = tu_malloc(count * esz);
    void *y1 = tu_malloc(count * esz), *y2 = tu_malloc(count * esz);
    unsigned char *a1 = tu_malloc(cap), *a2 = tu_malloc(cap), *b1 = tu_malloc(cap), *b2 = tu_malloc(cap);
    unsigned char *o1 = tu_malloc(cap), *o2 = tu_malloc(cap);
    size_t za1, za2, zb1, zb2, zo1, zo2;
    eccl_bound_t b = bound_of(mc);
    if (mc->mode == ECCL_MODE_REL) b.range = 2.0; /* every operand the same header */
    tu_fill(xa, reals, is64, pa, count + 1);
    tu_fill(xb, reals, is64, pb, count + 2);
    TU_RC(eccl_compress_fmt(xa, count, dt, &b, a1, cap, &za1, ECCL_PATH_AUTO, 1), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xa, count, dt, &b, a2, cap, &za2, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xb, count, dt, &b, b1, cap, &zb1, ECCL_PATH_AUTO, 1), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xb, count, dt, &b, b2, cap, &zb2, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    char what[128];
    snprintf(what, sizeof what, "hom %s op %d %s/%s n=%zu bound %g", eccl_dtype_name(dt), (int)op,
             tu_pattern_name[pa], tu_pattern_name[pb], count, mc->value);
    int ok = 1;
    /* combine */
    ok &= eccl_hom_combine(a1, za1, b1, zb1, op, o1, cap, &zo1) == ECCL_SUCCESS;
    ok &= eccl_hom_combine(a2, za2, b2, zb2, op, o2, cap, &zo2) == ECCL_SUCCESS;
    TU_CHECK(ok, "%s: combine failed", what);
    if (ok) {
        TU_CHECK(o2[ECCL_HDR_VMAJOR] == 2 && zo2 <= zo1, "%s: combine output version %d, size %zu vs %zu",
                 what, o2[ECCL_HDR_VMAJOR], zo2, zo1);
        TU_RC(eccl_decompress(o1, zo1, y1, count, dt), ECCL_SUCCESS);
        TU_RC(eccl_decompress(o2, zo2, y2, count, dt), ECCL_SUCCESS);
        TU_CHECK(memcmp(y1, y2, count * esz) == 0, "%s: combine values differ between versions", what);
        size_t zr;
        unsigned char *or_ = tu_malloc(cap);
        TU_RC(eccl_hom_combine_path(a2, za2, b2, zb2, op, or_, cap, &zr, ECCL_PATH_REFERENCE), ECCL_SUCCESS);
        TU_CHECK(zr == zo2 && memcmp(or_, o2, zo2) == 0, "%s: combine paths differ", what);
        free(or_);
    }
    /* reduce with the local array xb */
    ok = eccl_hom_reduce(a1, za1, xb, count, dt, op, o1, cap, &zo1) == ECCL_SUCCESS;
    ok &= eccl_hom_reduce(a2, za2, xb, count, dt, op, o2, cap, &zo2) == ECCL_SUCCESS;
    TU_CHECK(ok, "%s: reduce failed", what);
    if (ok) {
        TU_CHECK(o2[ECCL_HDR_VMAJOR] == 2 && zo2 <= zo1, "%s: reduce output", what);
        TU_RC(eccl_decompress(o1, zo1, y1, count, dt), ECCL_SUCCESS);
        TU_RC(eccl_decompress(o2, zo2, y2, count, dt), ECCL_SUCCESS);
        TU_CHECK(memcmp(y1, y2, count * esz) == 0, "%s: reduce values differ between versions", what);
        size_t zr;
        unsigned char *or_ = tu_malloc(cap);
        TU_RC(eccl_hom_reduce_path(a2, za2, xb, count, dt, op, or_, cap, &zr, ECCL_PATH_REFERENCE), ECCL_SUCCESS);
        TU_CHECK(zr == zo2 && memcmp(or_, o2, zo2) == 0, "%s: reduce paths differ", what);
        free(or_);
    }
    /* versions do not mix */
    TU_RC(eccl_hom_combine(a1, za1, b2, zb2, op, o1, cap, &zo1), ECCL_ERR_MISMATCH);
    free(xa), free(xb), free(y1), free(y2), free(a1), free(a2), free(b1), free(b2), free(o1), free(o2);
}

/* Part 5: damaged streams. */
static void damage(void)
{
    size_t count = 8192 * 3 + 100;
    double *x = tu_malloc(count * 8), *y = tu_malloc(count * 8);
    for (size_t i = 0; i < count; i++) x[i] = sin(i * 0.001);
    size_t cap = eccl_compress_bound(count, ECCL_FLOAT64), z;
    unsigned char *s = tu_malloc(cap), *t = tu_malloc(cap);
    eccl_bound_t b = ECCL_BOUND_ABS(1e-7);
    TU_RC(eccl_compress_fmt(x, count, ECCL_FLOAT64, &b, s, cap, &z, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    TU_CHECK(l2_tiles(s, z) > 0, "damage: the test stream has no L2 tile");
    /* forms 2 and 3 */
    for (unsigned f = 2; f < 4; f++) {
        memcpy(t, s, z);
        uint64_t e = eccl_ld64(t + 64);
        eccl_st64(t + 64, eccl_fmt_index_entry(eccl_fmt_index_offset(e), f));
        rechecksum(t, z);
        TU_RC(eccl_decompress(t, z, y, count, ECCL_FLOAT64), ECCL_ERR_CORRUPT);
    }
    /* an L2 tile in a version-1 stream */
    memcpy(t, s, z);
    t[ECCL_HDR_VMAJOR] = 1;
    rechecksum(t, z);
    TU_RC(eccl_decompress(t, z, y, count, ECCL_FLOAT64), ECCL_ERR_CORRUPT);
    /* version 4 is not known (version 3 is: tests/test_format3.c) */
    memcpy(t, s, z);
    t[ECCL_HDR_VMAJOR] = 4;
    rechecksum(t, z);
    TU_RC(eccl_decompress(t, z, y, count, ECCL_FLOAT64), ECCL_ERR_UNSUPPORTED);
    /* form L2 in a complex and in a LOSSLESS stream */
    {
        size_t zc;
        unsigned char *c = tu_malloc(eccl_compress_bound(count / 2, ECCL_COMPLEX128));
        TU_RC(eccl_compress_fmt(x, count / 2, ECCL_COMPLEX128, &b, c, eccl_compress_bound(count / 2, ECCL_COMPLEX128),
                                &zc, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
        eccl_st64(c + 64, eccl_fmt_index_entry(0, ECCL_FMT_FORM_L2));
        rechecksum(c, zc);
        TU_RC(eccl_decompress(c, zc, y, count / 2, ECCL_COMPLEX128), ECCL_ERR_CORRUPT);
        eccl_bound_t ll = ECCL_BOUND_LOSSLESS;
        TU_RC(eccl_compress_fmt(x, 100, ECCL_FLOAT64, &ll, c, eccl_compress_bound(100, ECCL_FLOAT64), &zc,
                                ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
        eccl_st64(c + 64, eccl_fmt_index_entry(0, ECCL_FMT_FORM_L2));
        rechecksum(c, zc);
        TU_RC(eccl_decompress(c, zc, y, 100, ECCL_FLOAT64), ECCL_ERR_CORRUPT);
        free(c);
    }
    /* flipping a form changes how blocks read: refused or decoded, never out of the buffer */
    tu_rng r = {12345};
    int refused = 0, trials = quick ? 300 : 2000;
    for (int k = 0; k < trials; k++) {
        memcpy(t, s, z);
        if (k % 3 == 0) {
            uint64_t tt = tu_next(&r) % 4, e = eccl_ld64(t + 64 + 8 * tt);
            eccl_st64(t + 64 + 8 * tt, eccl_fmt_index_entry(eccl_fmt_index_offset(e), (unsigned)(tu_next(&r) % 2)));
        } else {
            size_t at = 64 + tu_next(&r) % (z - 64);
            if (at >= 56 && at < 64) at = 64;
            t[at] ^= (unsigned char)(1u << (tu_next(&r) % 8));
        }
        rechecksum(t, z);
        eccl_result_t rc = eccl_decompress(t, z, y, count, ECCL_FLOAT64);
        TU_CHECK(rc == ECCL_SUCCESS || rc == ECCL_ERR_CORRUPT, "damage: %s", eccl_strerror(rc));
        refused += rc == ECCL_ERR_CORRUPT;
    }
    printf("  damaged version-2 streams: %d of %d refused, the rest decoded\n", refused, trials);
    free(x), free(y), free(s), free(t);
}

/* Part 6: damaged version-2 streams through the AVX2 paths and through block.c must end alike:
 * the same result code and, where accepted, the same values (decompression) or bytes (the
 * homomorphic reduction). Flips hit the planes of second-order blocks, their head integers and the
 * tile forms; integers near QMAX make out-of-range values mid-block likely. */
static void damage_paths(void)
{
    for (int is64 = 0; is64 < 2; is64++)
        for (int kind = 0; kind < 2; kind++) {
            eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
            size_t count = 8192 * 2 + 64, W = is64 ? 8 : 4;
            double eb = is64 ? 0x1p-20 : 0x1p-10, D = eccl_fmt_quantum(eb);
            int64_t qmax = is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
            void *x = tu_malloc(count * W), *y1 = tu_malloc(count * W), *y2 = tu_malloc(count * W);
            void *loc = tu_malloc(count * W);
            for (size_t i = 0; i < count; i++) {
                /* kind 0: a smooth field; kind 1: a parabola of integers through [-QMAX, QMAX] within
                 * 4096 of both ends, multiples of 128 (exact as float32 values q * D), so that
                 * flipped bits take integers out of range in the middle of blocks */
                double t = (double)i / (double)count - 0.5;
                double v = kind == 0 ? sin(i * 0.002) * 3.0
                                     : 128.0 * rint((double)(qmax - 4096) / 128.0 * (8.0 * t * t - 1.0)) * D;
                double l = cos(i * 0.003);
                if (is64) ((double *)x)[i] = v, ((double *)loc)[i] = l;
                else ((float *)x)[i] = (float)v, ((float *)loc)[i] = (float)l;
            }
            size_t cap = eccl_compress_bound(count, dt), z, o1, o2;
            unsigned char *s = tu_malloc(cap), *t = tu_malloc(cap), *h1 = tu_malloc(cap), *h2 = tu_malloc(cap);
            eccl_bound_t b = ECCL_BOUND_ABS(eb);
            TU_RC(eccl_compress_fmt(x, count, dt, &b, s, cap, &z, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
            TU_CHECK(l2_tiles(s, z) > 0, "damage_paths %s kind %d: no L2 tile", eccl_dtype_name(dt), kind);
            tu_rng r = {777u + 2u * (unsigned)is64 + (unsigned)kind};
            int trials = quick ? 400 : 3000, refused = 0;
            uint64_t P = 64 + 8 * eccl_fmt_ntiles(eccl_fmt_nblocks(count)) + eccl_fmt_nblocks(count);
            for (int k = 0; k < trials; k++) {
                memcpy(t, s, z);
                int flips = 1 + (int)(tu_next(&r) % 3);
                for (int f = 0; f < flips; f++) {
                    if (k % 5 == 0) { /* a tile's form */
                        uint64_t tt = tu_next(&r) % 3, e = eccl_ld64(t + 64 + 8 * tt);
                        eccl_st64(t + 64 + 8 * tt, eccl_fmt_index_entry(eccl_fmt_index_offset(e), (unsigned)(tu_next(&r) % 2)));
                    } else { /* a payload bit */
                        size_t at = (size_t)(P + tu_next(&r) % (z - P));
                        t[at] ^= (unsigned char)(1u << (tu_next(&r) % 8));
                    }
                }
                rechecksum(t, z);
                eccl_result_t r1 = eccl_decompress_path(t, z, y1, count, dt, ECCL_PATH_AUTO);
                eccl_result_t r2 = eccl_decompress_path(t, z, y2, count, dt, ECCL_PATH_REFERENCE);
                TU_CHECK(r1 == r2, "damage_paths %s kind %d trial %d: decompress %s (fast) vs %s (reference)",
                         eccl_dtype_name(dt), kind, k, eccl_strerror(r1), eccl_strerror(r2));
                if (r1 == r2 && r1 == ECCL_SUCCESS)
                    TU_CHECK(memcmp(y1, y2, count * W) == 0, "damage_paths %s kind %d trial %d: values differ",
                             eccl_dtype_name(dt), kind, k);
                refused += r2 == ECCL_ERR_CORRUPT;
                r1 = eccl_hom_reduce_path(t, z, loc, count, dt, ECCL_OP_SUM, h1, cap, &o1, ECCL_PATH_AUTO);
                r2 = eccl_hom_reduce_path(t, z, loc, count, dt, ECCL_OP_SUM, h2, cap, &o2, ECCL_PATH_REFERENCE);
                TU_CHECK(r1 == r2, "damage_paths %s kind %d trial %d: hom %s (fast) vs %s (reference)",
                         eccl_dtype_name(dt), kind, k, eccl_strerror(r1), eccl_strerror(r2));
                if (r1 == r2 && r1 == ECCL_SUCCESS)
                    TU_CHECK(o1 == o2 && memcmp(h1, h2, o1) == 0, "damage_paths %s kind %d trial %d: hom bytes differ",
                             eccl_dtype_name(dt), kind, k);
            }
            printf("  damaged %s version-2 streams (kind %d): %d of %d refused; AVX2 and reference paths agree\n",
                   eccl_dtype_name(dt), kind, refused, trials);
            free(x), free(y1), free(y2), free(loc), free(s), free(t), free(h1), free(h2);
        }
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") && atoi(getenv("ECCL_TEST_QUICK"));
    static const size_t sizes[] = {0, 1, 2, 31, 32, 33, 255, 8191, 8192, 8193, 3 * 8192 + 7, 100003};
    int pats[] = {TU_SMOOTH, TU_RANDOM, TU_CONSTANT, TU_ZEROS, TU_ALTERNATING, TU_HUGE,
                  TU_DENORMAL, TU_NANINF, TU_RANDOMWALK, TU_NORMAL, TU_MIXED_SCALE};
    for (size_t d = 0; d < 4; d++)
        for (size_t m = 0; m < NMODES; m++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                if (quick && sizes[z] > 10000) continue;
                for (size_t p = 0; p < sizeof pats / sizeof *pats; p++)
                    round_trip(dtypes[d], &modes[m], sizes[z], pats[p]);
            }
    smooth_ratios();
    info_zero_blocks();
    adversarial();
    static const eccl_op_t ops[] = {ECCL_OP_SUM, ECCL_OP_MAX, ECCL_OP_MIN};
    static const size_t hsizes[] = {1, 33, 8193, 3 * 8192 + 5};
    for (size_t d = 0; d < 4; d++)
        for (size_t m = 1; m < 4; m++)
            for (size_t o = 0; o < 3; o++) {
                if (o > 0 && reals_of(dtypes[d]) == 2) continue; /* MAX/MIN: real types */
                for (size_t z = 0; z < sizeof hsizes / sizeof *hsizes; z++) {
                    hom_case(dtypes[d], &modes[m], hsizes[z], TU_SMOOTH, TU_SMOOTH, ops[o]);
                    hom_case(dtypes[d], &modes[m], hsizes[z], TU_SMOOTH, TU_NANINF, ops[o]);
                    hom_case(dtypes[d], &modes[m], hsizes[z], TU_RANDOMWALK, TU_HUGE, ops[o]);
                }
            }
    damage();
    damage_paths();
    return tu_finish("test_format2");
}
