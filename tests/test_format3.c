/*
 * test_format3.c - the CPU codec's version-3 streams (doc/format.md sections 4.1, 6.4, 7, 8.2, 14):
 *  1. round trips over dtypes x bounds x sizes x data patterns (those of testutil.h and two with
 *     flat runs), the bound checked element by element in long double; every version-3 stream is
 *     no larger than the version-2 stream of the same input (nor that one than version 1); the
 *     reference and AVX2 paths write the same bytes and decode to the same values; forms 1 and 3
 *     never appear in a complex stream, and no form but 0 where nothing quantizes;
 *  2. fields with flat runs take sparse tiles and compress better than in version 2 (printed);
 *  3. homomorphic SUM/MAX/MIN on version-3 streams give version-3 streams that decode to exactly
 *     the values of the same operation on version-1 streams, by both paths alike;
 *  4. the sparse-dense conversions' two implementations (loops, BMI2) agree; crafted streams a
 *     decoder must refuse (a form the version, dtype or mode does not have, a map
 *     bit added or a map cleared, a tile 16 bytes short), and random damage with a valid checksum:
 *     refused or decoded, never a crash (ASan in CI), the AVX2 and reference paths alike.
 *
 * ECCL_TEST_QUICK=1 skips the sizes above 10000.
 */
#include "testutil.h"
#include "ref_decoder.h"
#include "codec/codec.h"
#include "codec/fast.h" /* the BMI2 sparse-dense conversions (part 4b) */

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

enum { PAT_RUNS = TU_NPATTERNS, PAT_RAMPS, NPATS };
static int quick;

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }
static const char *pat_name(int p) { return p == PAT_RUNS ? "runs" : p == PAT_RAMPS ? "ramps" : tu_pattern_name[p]; }

/* Flat runs with jumps (terrain, masks: first-order deltas mostly zero), or straight ramps that
 * change slope now and then (second-order deltas mostly zero), with a little jitter on some runs. */
static void fill(void *x, size_t n, int is64, int pattern, uint64_t seed)
{
    if (pattern < TU_NPATTERNS) {
        tu_fill(x, n, is64, pattern, seed);
        return;
    }
    tu_rng r = {seed * 2654435761u + 1u};
    double v = 0, slope = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t u = tu_next(&r);
        if (u % 23 == 0) v += (double)((int64_t)(tu_next(&r) % 2001) - 1000) * 0.37;
        if (pattern == PAT_RAMPS && u % 97 == 1) slope = (double)((int64_t)(tu_next(&r) % 201) - 100) * 1e-3;
        v += slope;
        double jitter = (u >> 40) % 5 == 0 ? (double)((int64_t)(u >> 50) % 7 - 3) * 1e-5 : 0.0;
        if (is64) ((double *)x)[i] = v + jitter;
        else ((float *)x)[i] = (float)(v + jitter);
    }
}

/* Number of tiles of each form in a valid stream. */
static void forms_of(const unsigned char *s, size_t size, size_t nf[4])
{
    eccl_stream_t st;
    nf[0] = nf[1] = nf[2] = nf[3] = 0;
    if (eccl_stream_parse(s, size, &st)) return;
    for (uint64_t t = 0; t < st.nt; t++) nf[eccl_stream_tile_form(&st, t)]++;
}

static eccl_bound_t bound_of(const mode_case *mc)
{
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    return b;
}

/* Compress x in versions 1, 2 and 3 (3 by both paths); the checks of part 1 on sizes and bytes.
 * Returns the version-3 stream (caller frees), its size and version 2's. */
static unsigned char *three_versions(const void *x, size_t count, eccl_dtype_t dt, const eccl_bound_t *b,
                                     const char *what, size_t *z3_out, size_t *z2_out)
{
    size_t cap = eccl_compress_bound(count, dt), z1 = 0, z2 = 0, z3 = 0, zr = 0;
    unsigned char *s1 = tu_malloc(cap), *s2 = tu_malloc(cap), *s3 = tu_malloc(cap), *sr = tu_malloc(cap);
    eccl_result_t r1 = eccl_compress_fmt(x, count, dt, b, s1, cap, &z1, ECCL_PATH_AUTO, 1);
    eccl_result_t r2 = eccl_compress_fmt(x, count, dt, b, s2, cap, &z2, ECCL_PATH_AUTO, 2);
    eccl_result_t r3 = eccl_compress_fmt(x, count, dt, b, s3, cap, &z3, ECCL_PATH_AUTO, 3);
    eccl_result_t rr = eccl_compress_fmt(x, count, dt, b, sr, cap, &zr, ECCL_PATH_REFERENCE, 3);
    TU_CHECK(r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS && r3 == ECCL_SUCCESS && rr == ECCL_SUCCESS,
             "%s: compress %s %s %s %s", what, eccl_strerror(r1), eccl_strerror(r2), eccl_strerror(r3),
             eccl_strerror(rr));
    TU_CHECK(zr == z3 && memcmp(sr, s3, z3) == 0, "%s: reference and AVX2 paths differ (v3)", what);
    TU_CHECK(z3 <= z2 && z2 <= z1, "%s: sizes v1 %zu v2 %zu v3 %zu", what, z1, z2, z3);
    TU_CHECK(s3[ECCL_HDR_VMAJOR] == 3, "%s: version byte %d", what, s3[ECCL_HDR_VMAJOR]);
    size_t nf[4];
    forms_of(s3, z3, nf);
    if (reals_of(dt) == 2) TU_CHECK(nf[1] == 0 && nf[3] == 0, "%s: a second-order form in a complex stream", what);
    if (b->mode == ECCL_MODE_LOSSLESS) TU_CHECK(nf[0] == (z3 ? nf[0] + nf[1] + nf[2] + nf[3] : 0), "%s: form in LOSSLESS", what);
    free(s1), free(s2), free(sr);
    *z3_out = z3;
    *z2_out = z2;
    return s3;
}

static void round_trip(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    int is64 = is64_of(dt);
    size_t reals = count * reals_of(dt), esz = eccl_dtype_size(dt), z3, z2;
    void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz), *y2 = tu_malloc(count * esz);
    eccl_bound_t b = bound_of(mc);
    char what[160];
    snprintf(what, sizeof what, "%s %s %s %g n=%zu", eccl_dtype_name(dt), pat_name(pattern),
             mc->mode == ECCL_MODE_REL ? "REL" : mc->mode == ECCL_MODE_ABS ? "ABS" : "LOSSLESS", mc->value, count);
    fill(x, reals, is64, pattern, count + 17);
    unsigned char *s = three_versions(x, count, dt, &b, what, &z3, &z2);
    double eb = 0;
    TU_RC(eccl_bound_resolve(&b, x, count, dt, &eb), ECCL_SUCCESS);
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(s, z3, &info), ECCL_SUCCESS);
    TU_CHECK(info.version_major == 3 && info.eb_abs == eb && info.count == count, "%s: stream_info", what);
    memset(y, 0xA5, count * esz);
    eccl_result_t rc = eccl_decompress(s, z3, y, count, dt);
    TU_CHECK(rc == ECCL_SUCCESS, "%s: decompress %s", what, eccl_strerror(rc));
    size_t bad = tu_check_bound(x, y, reals, is64, eb, mc->mode == ECCL_MODE_LOSSLESS, NULL);
    TU_CHECK(bad == 0, "%s: %zu elements out of bound %g", what, bad, eb);
    rc = eccl_decompress_path(s, z3, y2, count, dt, ECCL_PATH_REFERENCE);
    TU_CHECK(rc == ECCL_SUCCESS && memcmp(y, y2, count * esz) == 0, "%s: reference decode differs", what);
    free(s), free(x), free(y), free(y2);
}

/* Part 2: fields with flat runs take sparse tiles and shrink. */
static void sparse_ratios(void)
{
    static const struct {
        eccl_dtype_t dt;
        double eb;
        int pattern;
    } cases[] = {{ECCL_FLOAT32, 1e-4, PAT_RUNS}, {ECCL_FLOAT32, 1e-2, PAT_RUNS}, {ECCL_FLOAT64, 1e-6, PAT_RUNS},
                 {ECCL_FLOAT32, 1e-4, PAT_RAMPS}, {ECCL_FLOAT64, 1e-6, PAT_RAMPS}, {ECCL_COMPLEX64, 1e-4, PAT_RUNS}};
    size_t count = quick ? 8192 * 3 : 8192 * 32;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        eccl_dtype_t dt = cases[c].dt;
        int is64 = is64_of(dt);
        size_t reals = count * reals_of(dt), esz = eccl_dtype_size(dt), z3, z2, nf[4];
        void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz);
        fill(x, reals, is64, cases[c].pattern, 99 + c);
        eccl_bound_t b = ECCL_BOUND_ABS(cases[c].eb);
        unsigned char *s = three_versions(x, count, dt, &b, "sparse ratio", &z3, &z2);
        forms_of(s, z3, nf);
        double raw = (double)count * (double)esz;
        printf("  %s %s ABS %g: ratio v2 %.2f, v3 %.2f (tiles of forms 0-3: %zu %zu %zu %zu)\n", pat_name(cases[c].pattern),
               eccl_dtype_name(dt), cases[c].eb, raw / z2, raw / z3, nf[0], nf[1], nf[2], nf[3]);
        TU_CHECK(nf[2] + nf[3] > 0 && z3 < z2, "%s %s: no sparse tile", pat_name(cases[c].pattern), eccl_dtype_name(dt));
        TU_RC(eccl_decompress(s, z3, y, count, dt), ECCL_SUCCESS);
        TU_CHECK(tu_check_bound(x, y, reals, is64, cases[c].eb, 0, NULL) == 0, "sparse ratio: bound");
        free(x), free(y), free(s);
    }
}

/* Part 2b: integers at the format's limits (second-order deltas beyond FQ planes, first-order ones
 * of 31 planes, flat runs between extremes), every size around block and tile edges: the AVX2
 * pricing (the wide second-order deltas included) against block.c's, byte for byte. */
static void adversarial(void)
{
    for (int is64 = 0; is64 < 2; is64++) {
        eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
        double eb = is64 ? 0x1p-20 : 0x1p-10, D = eccl_fmt_quantum(eb);
        int64_t qmax = is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
        for (int kind = 0; kind < 5; kind++) {
            size_t counts[] = {1, 2, 3, 31, 33, 8192, 8193, 8192 + 40, 3 * 8192 - 5};
            for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
                size_t n = counts[ci], z3, z2;
                void *x = tu_malloc(n * 8), *y = tu_malloc(n * 8);
                for (size_t i = 0; i < n; i++) {
                    int64_t q;
                    switch (kind) {
                    case 0: q = (i & 1) ? qmax : -qmax; break;                  /* L2 deltas 4*QMAX */
                    case 1: q = (i % 37 < 30) ? 5 : ((i & 2) ? qmax : -qmax); break; /* runs, extremes */
                    case 2: q = (i / 9 % 2) ? qmax - (int64_t)(i % 5) : -qmax + (int64_t)(i % 3); break;
                    case 3: q = (i % 64 < 32) ? ((i & 1) ? qmax : -qmax) : (int64_t)(i / 7); break;
                    default: /* ramps just under QMAX, a kink now and then: sparse second-order
                              * blocks of integers whose doubles leave int32 (sparse_fast.c); in
                              * steps of 64, which float32 holds exactly there */
                        q = (qmax & ~(int64_t)63) - 64 * (1000 + 3 * (int64_t)(i % 200)) + (i % 97 == 0 ? 128 : 0);
                        break;
                    }
                    double v = (double)q * D;
                    if (is64) ((double *)x)[i] = v;
                    else ((float *)x)[i] = (float)v;
                }
                eccl_bound_t b = ECCL_BOUND_ABS(eb);
                char what[96];
                snprintf(what, sizeof what, "adversarial %s kind %d n=%zu", eccl_dtype_name(dt), kind, n);
                unsigned char *s = three_versions(x, n, dt, &b, what, &z3, &z2);
                TU_RC(eccl_decompress(s, z3, y, n, dt), ECCL_SUCCESS);
                TU_CHECK(tu_check_bound(x, y, n, is64, eb, 0, NULL) == 0, "%s: bound", what);
                if (kind == 4 && n >= 8192) {
                    size_t nf[4];
                    forms_of(s, z3, nf);
                    TU_CHECK(nf[3] > 0, "%s: no S2 tile (forms %zu %zu %zu %zu)", what, nf[0], nf[1], nf[2], nf[3]);
                }
                free(y), free(s), free(x);
            }
        }
    }
}

/* Part 3: homomorphic operations on version-3 streams. */
static void hom_case(eccl_dtype_t dt, const mode_case *mc, size_t count, int pa, int pb, eccl_op_t op)
{
    int is64 = is64_of(dt);
    size_t reals = count * reals_of(dt), esz = eccl_dtype_size(dt), cap = eccl_compress_bound(count, dt);
    void *xa = tu_malloc(count * esz), *xb = tu_malloc(count * esz);
    void *y1 = tu_malloc(count * esz), *y3 = tu_malloc(count * esz);
    unsigned char *a1 = tu_malloc(cap), *a3 = tu_malloc(cap), *b1 = tu_malloc(cap), *b3 = tu_malloc(cap);
    unsigned char *o1 = tu_malloc(cap), *o3 = tu_malloc(cap), *orf = tu_malloc(cap);
    size_t za1, za3, zb1, zb3, zo1, zo3, zr;
    eccl_bound_t b = bound_of(mc);
    if (mc->mode == ECCL_MODE_REL) b.range = 2000.0; /* every operand the same header */
    fill(xa, reals, is64, pa, count + 1);
    fill(xb, reals, is64, pb, count + 2);
    TU_RC(eccl_compress_fmt(xa, count, dt, &b, a1, cap, &za1, ECCL_PATH_AUTO, 1), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xa, count, dt, &b, a3, cap, &za3, ECCL_PATH_AUTO, 3), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xb, count, dt, &b, b1, cap, &zb1, ECCL_PATH_AUTO, 1), ECCL_SUCCESS);
    TU_RC(eccl_compress_fmt(xb, count, dt, &b, b3, cap, &zb3, ECCL_PATH_AUTO, 3), ECCL_SUCCESS);
    char what[128];
    snprintf(what, sizeof what, "hom %s op %d %s/%s n=%zu bound %g", eccl_dtype_name(dt), (int)op, pat_name(pa),
             pat_name(pb), count, mc->value);
    for (int reduce = 0; reduce < 2; reduce++) {
        eccl_result_t r1, r3, rr;
        if (reduce) {
            r1 = eccl_hom_reduce(a1, za1, xb, count, dt, op, o1, cap, &zo1);
            r3 = eccl_hom_reduce(a3, za3, xb, count, dt, op, o3, cap, &zo3);
            rr = eccl_hom_reduce_path(a3, za3, xb, count, dt, op, orf, cap, &zr, ECCL_PATH_REFERENCE);
        } else {
            r1 = eccl_hom_combine(a1, za1, b1, zb1, op, o1, cap, &zo1);
            r3 = eccl_hom_combine(a3, za3, b3, zb3, op, o3, cap, &zo3);
            rr = eccl_hom_combine_path(a3, za3, b3, zb3, op, orf, cap, &zr, ECCL_PATH_REFERENCE);
        }
        TU_CHECK(r1 == ECCL_SUCCESS && r3 == ECCL_SUCCESS && rr == ECCL_SUCCESS, "%s: %s failed", what,
                 reduce ? "reduce" : "combine");
        if (r1 || r3 || rr) continue;
        TU_CHECK(o3[ECCL_HDR_VMAJOR] == 3 && zo3 <= zo1, "%s: output version %d, size %zu vs %zu", what,
                 o3[ECCL_HDR_VMAJOR], zo3, zo1);
        TU_CHECK(zr == zo3 && memcmp(orf, o3, zo3) == 0, "%s: %s paths differ", what, reduce ? "reduce" : "combine");
        TU_RC(eccl_decompress(o1, zo1, y1, count, dt), ECCL_SUCCESS);
        TU_RC(eccl_decompress(o3, zo3, y3, count, dt), ECCL_SUCCESS);
        TU_CHECK(memcmp(y1, y3, count * esz) == 0, "%s: %s values differ between versions", what,
                 reduce ? "reduce" : "combine");
    }
    TU_RC(eccl_hom_combine(a1, za1, b3, zb3, op, o1, cap, &zo1), ECCL_ERR_MISMATCH); /* versions do not mix */
    free(xa), free(xb), free(y1), free(y3), free(a1), free(a3), free(b1), free(b3), free(o1), free(o3), free(orf);
}

/* The first sparse block (p = 1, F > 0) of tile t: its index and payload offset from P, or -1. */
static long long first_sparse(const eccl_stream_t *st, uint64_t t, uint64_t *at)
{
    unsigned form = eccl_stream_tile_form(st, t);
    uint64_t off = (uint64_t)(eccl_stream_tile_payload(st, t) - st->payload);
    uint64_t b1 = (t << 8) + 256 < st->nb ? (t << 8) + 256 : st->nb;
    for (uint64_t k = t << 8; k < b1; k++) {
        int bs = eccl_stream_block_size(st, k);
        if (eccl_fmt_code_sparse(st->codes[k], form) && eccl_fmt_quant_planes(st->codes[k], st->qp.is64) > 0) {
            *at = off + (uint64_t)bs - 4; /* its map */
            return (long long)k;
        }
        off += (uint64_t)bs;
    }
    return -1;
}

/* Part 4a: a sparse block whose bytes and bits exceed its values' r*W bytes (format.md section 6)
 * is refused by the library and the reference alike; a cheaper one of the same shape is a valid
 * stream both decode to the same values. One float32 tile of form S1 and one block: a head block
 * whose integers alternate between +-M (first-order deltas +-2M, all 31 nonzero, both signs): with
 * M = 2^30 - 1 its deltas need 31 planes, 8 bytes and 31 + 31 * 31 bits, 1056 bits against 1024;
 * with M = 2^27, 29 planes, 994 bits. No encoder writes the first (section 8.2's eligibility). */
typedef struct {
    int64_t M;
} cost_ctx_t;

static int64_t cost_tile(void *vctx, uint64_t t, unsigned char *codes, unsigned *form, unsigned char *payload)
{
    const int64_t M = ((const cost_ctx_t *)vctx)->M;
    (void)t;
    uint32_t w[32] = {0}, sign = 0;
    int F = eccl_fmt_bitlen64((uint64_t)(2 * M));
    for (int i = 1; i < 32; i++) { /* d_i = q_i - q_{i-1}, q_i = (-1)^i M */
        int64_t d = (i & 1) ? -2 * M : 2 * M;
        sign |= (uint32_t)(d < 0) << (i - 1);
        for (int j = 0; j < F; j++) w[j] |= (uint32_t)(((uint64_t)(d < 0 ? -d : d) >> j) & 1u) << (i - 1);
    }
    codes[0] = (unsigned char)eccl_fmt_quant_code(ECCL_FMT_SIGN_MAP, 1, (unsigned)(F <= 30 ? F : 31));
    *form = ECCL_FMT_FORM_S1;
    eccl_st32(payload, (uint32_t)eccl_fmt_zigzag(M));
    eccl_st32(payload + 4, 0xFFFFFFFEu);
    memset(payload + 8, 0, 4 * 33);
    eccl_bitw_t bw = {payload + 8, 0};
    eccl_bitw_putn(&bw, &sign, 1, 31);
    eccl_bitw_putn(&bw, w, F, 31);
    return (int64_t)eccl_fmt_sparse_tile_size(8, bw.pos);
}

static void crafted_cost(void)
{
    for (int big = 0; big < 2; big++) {
        cost_ctx_t c = {big ? ECCL_FMT_QMAX32 : (int64_t)1 << 27};
        eccl_stream_desc_t d = {3, ECCL_FLOAT32, ECCL_MODE_ABS, 1, 32, 0x1p-10, 0x1p-10, 0.0};
        size_t cap = eccl_compress_bound(32, ECCL_FLOAT32) + 64, z = 0;
        unsigned char *s = tu_malloc(cap);
        float y[32], yr[32];
        char why[REF_WHY_LEN];
        TU_RC(eccl_stream_write(&d, cost_tile, &c, s, cap, &z), ECCL_SUCCESS);
        eccl_result_t rc = eccl_decompress(s, z, y, 32, ECCL_FLOAT32);
        int rr = ref_decode(s, z, yr, 32, ECCL_FLOAT32, why);
        TU_CHECK(rc == (big ? ECCL_ERR_CORRUPT : ECCL_SUCCESS) && rr == (int)rc,
                 "sparse block of %s r*W: library %s, reference %d (%s)", big ? "more than" : "at most",
                 eccl_strerror(rc), rr, why);
        if (!big && rc == ECCL_SUCCESS) {
            TU_CHECK(memcmp(y, yr, sizeof y) == 0, "sparse block at most r*W: values differ");
            TU_CHECK(y[1] == (float)(-(double)c.M * eccl_fmt_quantum(0x1p-10)), "sparse block: value 1 is %g", y[1]);
        }
        free(s);
    }
}

/* Part 4b: the two implementations of the sparse-dense conversion (codec.h), block.c's loops (the
 * ones AMD's Zen 2 and older run) and BMI2's pext/pdep (sparse_fast.c, where the fast paths run),
 * give the same dense block and the same sparse bytes and bits, on every sparse block of streams
 * with flat runs, both dtypes. */
static void sparse_conversions(void)
{
    long blocks = 0;
    for (int is64 = 0; is64 < 2; is64++) {
        eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
        size_t n = 4 * 8192, cap = eccl_compress_bound(n, dt), z;
        void *x = tu_malloc(n * 8);
        unsigned char *s = tu_malloc(cap);
        fill(x, n, is64, PAT_RAMPS, 31);
        eccl_bound_t b = ECCL_BOUND_ABS(1e-4);
        TU_RC(eccl_compress_fmt(x, n, dt, &b, s, cap, &z, ECCL_PATH_AUTO, 3), ECCL_SUCCESS);
        eccl_stream_t st;
        TU_RC(eccl_stream_parse(s, z, &st), ECCL_SUCCESS);
        for (uint64_t t = 0; t < st.nt; t++) {
            unsigned form = eccl_stream_tile_form(&st, t);
            if (form < ECCL_FMT_FORM_S1) continue;
            eccl_bitr_t br;
            eccl_stream_tile_bits(&st, t, &br);
            const unsigned char *pl = eccl_stream_tile_payload(&st, t);
            for (uint64_t k = t << 8; k < st.nb && k < (t + 1) << 8; k++) {
                unsigned m = st.codes[k];
                int head = (k & 255u) == 0 || eccl_fmt_code_is_raw(st.codes[k - 1]);
                if (eccl_fmt_code_sparse(m, form)) {
                    unsigned char d1[192], d2[192], o1[16], o2[16], w1[192] = {0}, w2[192] = {0};
                    eccl_bitr_t b1 = br, b2 = br;
                    int r1 = eccl_sparse_to_dense(pl, head, m, is64, &b1, d1);
                    int r2 = eccl_fast_sparse_to_dense(pl, head, m, is64, &b2, d2);
                    int F = eccl_fmt_quant_planes(m, is64); /* the dense block's bytes: */
                    int dn = (head ? eccl_fmt_head_bytes(is64) : 0) + (F > 0 ? (m >> 6 == 0 ? 4 : 0) + 4 * F : 0);
                    TU_CHECK(r1 == 0 && r2 == 0 && b1.pos == b2.pos && memcmp(d1, d2, (size_t)dn) == 0,
                             "block %llu: to_dense differs (%d %d)", (unsigned long long)k, r1, r2);
                    eccl_bitw_t v1 = {w1, 0}, v2 = {w2, 0};
                    int s1 = eccl_sparse_from_dense(d1, head, m, is64, o1, &v1);
                    int s2 = eccl_fast_sparse_from_dense(d1, head, m, is64, o2, &v2);
                    TU_CHECK(s1 == s2 && v1.pos == v2.pos && v1.pos == b1.pos - br.pos && memcmp(o1, o2, (size_t)s1) == 0 &&
                                 memcmp(o1, pl, (size_t)s1) == 0 && memcmp(w1, w2, sizeof w1) == 0,
                             "block %llu: from_dense differs", (unsigned long long)k);
                    br = b1;
                    blocks++;
                }
                pl += eccl_stream_block_size(&st, k);
            }
        }
        free(x), free(s);
    }
    printf("  sparse-dense conversions compared on %ld sparse blocks\n", blocks);
    TU_CHECK(blocks > 100, "only %ld sparse blocks: the comparison does not reach them", blocks);
}

/* Part 4: crafted and damaged streams. */
static void damage(void)
{
    size_t count = 8192 * 3 + 100, cap = eccl_compress_bound(count, ECCL_FLOAT32), z, zh;
    float *x = tu_malloc(count * 4), *y1 = tu_malloc(count * 4), *y2 = tu_malloc(count * 4), *loc = tu_malloc(count * 4);
    fill(x, count, 0, PAT_RUNS, 5);
    for (size_t i = 0; i < count; i++) loc[i] = (float)cos(i * 0.01);
    unsigned char *s = tu_malloc(cap), *t = tu_malloc(cap), *h1 = tu_malloc(cap), *h2 = tu_malloc(cap);
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    TU_RC(eccl_compress_fmt(x, count, ECCL_FLOAT32, &b, s, cap, &z, ECCL_PATH_AUTO, 3), ECCL_SUCCESS);
    eccl_stream_t st;
    TU_RC(eccl_stream_parse(s, z, &st), ECCL_SUCCESS);
    uint64_t P = (uint64_t)(st.payload - s), at = 0;
    long long k0 = first_sparse(&st, 0, &at);
    TU_CHECK(eccl_stream_tile_form(&st, 0) == ECCL_FMT_FORM_S1 && k0 >= 0, "damage: tile 0 is not a sparse tile");
    if (k0 < 0) goto done;
    /* version 2 does not have forms 2 and 3 */
    memcpy(t, s, z);
    t[ECCL_HDR_VMAJOR] = 2;
    ref_fix_checksum(t, z);
    TU_RC(eccl_decompress(t, z, y1, count, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
    /* a map bit added (the lowest clear one: the stream then holds fewer bits than the maps ask),
     * and a map cleared (F > 0 with no nonzero delta) */
    for (int c = 0; c < 2; c++) {
        memcpy(t, s, z);
        uint32_t m = eccl_ld32(t + P + at);
        eccl_st32(t + P + at, c == 0 ? m | (~m & (m + 1u)) : 0u);
        ref_fix_checksum(t, z);
        eccl_result_t r1 = eccl_decompress_path(t, z, y1, count, ECCL_FLOAT32, ECCL_PATH_AUTO);
        TU_CHECK(r1 == ECCL_ERR_CORRUPT, "damage: map %s: %s", c == 0 ? "bit added" : "cleared", eccl_strerror(r1));
    }
    /* a tile one word shorter: the sizes the index gives no longer follow from the maps */
    {
        memcpy(t, s, z);
        eccl_st64(t + 64 + 8, eccl_fmt_index_entry(eccl_fmt_index_offset(eccl_ld64(t + 64 + 8)) - 16,
                                                   eccl_fmt_index_form(eccl_ld64(t + 64 + 8))));
        ref_fix_checksum(t, z);
        TU_RC(eccl_decompress(t, z, y1, count, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
    }
    /* form 3 in a complex stream; form 2 in a LOSSLESS one */
    {
        size_t zc, cc = count / 2;
        unsigned char *c = tu_malloc(eccl_compress_bound(cc, ECCL_COMPLEX64));
        TU_RC(eccl_compress_fmt(x, cc, ECCL_COMPLEX64, &b, c, eccl_compress_bound(cc, ECCL_COMPLEX64), &zc, ECCL_PATH_AUTO, 3),
              ECCL_SUCCESS);
        eccl_st64(c + 64, eccl_fmt_index_entry(0, ECCL_FMT_FORM_S2));
        ref_fix_checksum(c, zc);
        TU_RC(eccl_decompress(c, zc, y1, cc, ECCL_COMPLEX64), ECCL_ERR_CORRUPT);
        eccl_bound_t ll = ECCL_BOUND_LOSSLESS;
        TU_RC(eccl_compress_fmt(x, 100, ECCL_FLOAT32, &ll, c, eccl_compress_bound(100, ECCL_FLOAT32), &zc, ECCL_PATH_AUTO, 3),
              ECCL_SUCCESS);
        eccl_st64(c + 64, eccl_fmt_index_entry(0, ECCL_FMT_FORM_S1));
        ref_fix_checksum(c, zc);
        TU_RC(eccl_decompress(c, zc, y1, 100, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
        free(c);
    }
    /* version 4 is not known */
    memcpy(t, s, z);
    t[ECCL_HDR_VMAJOR] = 4;
    ref_fix_checksum(t, z);
    TU_RC(eccl_decompress(t, z, y1, count, ECCL_FLOAT32), ECCL_ERR_UNSUPPORTED);
    /* random damage: refused or decoded, the AVX2 and reference paths alike */
    {
        tu_rng r = {4242};
        int trials = quick ? 400 : 3000, refused = 0;
        for (int k = 0; k < trials; k++) {
            memcpy(t, s, z);
            int flips = 1 + (int)(tu_next(&r) % 3);
            for (int f = 0; f < flips; f++) {
                if (k % 5 == 0) { /* a tile's form */
                    uint64_t tt = tu_next(&r) % st.nt, e = eccl_ld64(t + 64 + 8 * tt);
                    eccl_st64(t + 64 + 8 * tt, eccl_fmt_index_entry(eccl_fmt_index_offset(e), (unsigned)(tu_next(&r) % 4)));
                } else if (k % 5 == 1) { /* a block code */
                    t[64 + 8 * st.nt + tu_next(&r) % st.nb] ^= (unsigned char)(1u << (tu_next(&r) % 8));
                } else { /* a payload bit */
                    t[P + tu_next(&r) % (z - P)] ^= (unsigned char)(1u << (tu_next(&r) % 8));
                }
            }
            ref_fix_checksum(t, z);
            eccl_result_t r1 = eccl_decompress_path(t, z, y1, count, ECCL_FLOAT32, ECCL_PATH_AUTO);
            eccl_result_t r2 = eccl_decompress_path(t, z, y2, count, ECCL_FLOAT32, ECCL_PATH_REFERENCE);
            TU_CHECK(r1 == r2 && (r1 == ECCL_SUCCESS || r1 == ECCL_ERR_CORRUPT), "damage trial %d: %s vs %s", k,
                     eccl_strerror(r1), eccl_strerror(r2));
            if (r1 == r2 && r1 == ECCL_SUCCESS)
                TU_CHECK(memcmp(y1, y2, count * 4) == 0, "damage trial %d: values differ", k);
            refused += r2 == ECCL_ERR_CORRUPT;
            r1 = eccl_hom_reduce_path(t, z, loc, count, ECCL_FLOAT32, ECCL_OP_SUM, h1, cap, &zh, ECCL_PATH_AUTO);
            size_t zh2 = 0;
            r2 = eccl_hom_reduce_path(t, z, loc, count, ECCL_FLOAT32, ECCL_OP_SUM, h2, cap, &zh2, ECCL_PATH_REFERENCE);
            TU_CHECK(r1 == r2, "damage trial %d: hom %s vs %s", k, eccl_strerror(r1), eccl_strerror(r2));
            if (r1 == r2 && r1 == ECCL_SUCCESS)
                TU_CHECK(zh == zh2 && memcmp(h1, h2, zh) == 0, "damage trial %d: hom bytes differ", k);
        }
        printf("  damaged version-3 streams: %d of %d refused; AVX2 and reference paths agree\n", refused, trials);
    }
done:
    free(x), free(y1), free(y2), free(loc), free(s), free(t), free(h1), free(h2);
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") && atoi(getenv("ECCL_TEST_QUICK"));
    static const size_t sizes[] = {0, 1, 2, 31, 32, 33, 255, 8191, 8192, 8193, 3 * 8192 + 7, 100003};
    for (size_t d = 0; d < 4; d++)
        for (size_t m = 0; m < NMODES; m++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                if (quick && sizes[z] > 10000) continue;
                for (int p = 0; p < NPATS; p++) round_trip(dtypes[d], &modes[m], sizes[z], p);
            }
    sparse_ratios();
    adversarial();
    static const eccl_op_t ops[] = {ECCL_OP_SUM, ECCL_OP_MAX, ECCL_OP_MIN};
    static const size_t hsizes[] = {1, 33, 8193, 3 * 8192 + 5};
    for (size_t d = 0; d < 4; d++)
        for (size_t m = 1; m < 4; m++)
            for (size_t o = 0; o < 3; o++) {
                if (o > 0 && reals_of(dtypes[d]) == 2) continue; /* MAX/MIN: real types */
                for (size_t z = 0; z < sizeof hsizes / sizeof *hsizes; z++) {
                    hom_case(dtypes[d], &modes[m], hsizes[z], PAT_RUNS, PAT_RUNS, ops[o]);
                    hom_case(dtypes[d], &modes[m], hsizes[z], PAT_RAMPS, TU_SMOOTH, ops[o]);
                    hom_case(dtypes[d], &modes[m], hsizes[z], PAT_RUNS, TU_NANINF, ops[o]);
                }
            }
    crafted_cost();
    sparse_conversions();
    damage();
    return tu_finish("test_format3");
}
