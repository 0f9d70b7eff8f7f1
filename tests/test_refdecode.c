/*
 * test_refdecode.c - the library against the independent reference (tests/ref_decoder.c, written
 * from doc/format.md alone), for format versions 1 and 2:
 *  1. every stream the library writes (eccl_compress for version 1, eccl_compress_fmt for 2) is
 *     accepted by the reference decoder, and both decoders return bit-identical values;
 *  2. the library writes exactly the bytes the normative encoder rules (sections 8, 8.1)
 *     prescribe;
 *  3. eccl_hom_reduce / eccl_hom_combine write exactly the bytes section 11 prescribes, in the
 *     inputs' version; combining streams of different major versions is a mismatch;
 *  4. version 2: the library decodes every reference-written stream to the reference's values,
 *     and the reference checks itself against the guarantees of sections 8.1 and 13 (within the
 *     bound; no tile larger than in version 1; a form-0 tile is the version-1 tile; smooth data
 *     takes form-1 tiles and compresses much better).
 * Over all 4 dtypes, lossless/ABS/REL bounds (including bounds too small to quantize and huge
 * ones), sizes around block and tile boundaries, every data pattern of testutil.h and two more
 * (a sine, and integer patterns aimed at the edges of section 8.1).
 *
 * ECCL_TEST_QUICK=1 skips the sizes above 10000.
 */
#include "ref_decoder.h"
#include "testutil.h"
#include "codec/codec.h" /* eccl_compress_fmt: the version-2 writer */

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

typedef struct {
    eccl_mode_t mode;
    double value;
} mode_case;

static const mode_case modes[] = {
    {ECCL_MODE_LOSSLESS, 0}, {ECCL_MODE_ABS, 1e-1},  {ECCL_MODE_ABS, 1e-4},
    {ECCL_MODE_ABS, 1e-7},   {ECCL_MODE_ABS, 0.5},   {ECCL_MODE_REL, 1e-3},
    {ECCL_MODE_REL, 1e-6},   {ECCL_MODE_ABS, 1e300}, {ECCL_MODE_ABS, 1e-305},
    {ECCL_MODE_ABS, 9.332636185032189e-302 /* 2^-1000: the smallest that quantizes */}};
#define NMODES (sizeof modes / sizeof *modes)

static int quick;
static long n_streams[2], n_hom[2], n_l2_tiles, n_tiles_v2;

/* Failures are tallied per version and kind (the first few printed in full), so one library bug
 * does not hide the rest of the matrix behind testutil's 50-failure stop; main() turns each tally
 * into a check. */
enum { K_CALL, K_REJECT, K_DECODE, K_COMPRESS, K_REDUCE, K_COMBINE, K_LIBDEC, K_CRAFTED, K_SELF, K_NKINDS };
static const char *kind_name[K_NKINDS] = {
    "a library or reference call failed", "the reference decoder rejects a library stream",
    "the decoders return different values", "the library's compress differs from section 8",
    "eccl_hom_reduce differs from section 11", "eccl_hom_combine differs from section 11",
    "the library decodes a reference stream differently",
    "the library and the reference disagree on a crafted tile form",
    "the reference breaks a guarantee of sections 8.1/13 (reference bug)"};
static long kind_fail[2][K_NKINDS];
static int cur_v = 1; /* the format version under test: 1 or 2 */
#define RD_CHECK(kind, cond, ...)                                                                  \
    do {                                                                                           \
        tu_checks++;                                                                               \
        if (!(cond) && ++kind_fail[cur_v - 1][kind] <= 4) {                                        \
            fprintf(stderr, "FAIL %s:%d: v%d: ", __FILE__, __LINE__, cur_v);                       \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)
#define SHOW(kind) (kind_fail[cur_v - 1][kind] <= 4)

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }

/* First differing byte, and a short hex context of both. */
static void show_diff(const char *what, const unsigned char *a, size_t an, const unsigned char *b,
                      size_t bn)
{
    size_t i = 0;
    while (i < an && i < bn && a[i] == b[i]) i++;
    fprintf(stderr, "  %s: sizes %zu (library) vs %zu (reference), first difference at byte %zu\n",
            what, an, bn, i);
    size_t from = i >= 8 ? i - 8 : 0;
    fprintf(stderr, "    library  :");
    for (size_t k = from; k < an && k < from + 24; k++) fprintf(stderr, " %02x", a[k]);
    fprintf(stderr, "\n    reference:");
    for (size_t k = from; k < bn && k < from + 24; k++) fprintf(stderr, " %02x", b[k]);
    fprintf(stderr, "\n");
}

/* Two patterns beyond testutil's (indices TU_NPATTERNS and TU_NPATTERNS + 1). */
enum { PAT_SINE = TU_NPATTERNS, PAT_L2EDGE, NPAT };
static const char *pat_name(int pattern)
{
    return pattern == PAT_SINE ? "sine" : pattern == PAT_L2EDGE ? "l2-edge" : tu_pattern_name[pattern];
}

static void put_real(void *x, size_t i, int is64, double v)
{
    if (is64) ((double *)x)[i] = v;
    else ((float *)x)[i] = (float)v;
}

/* Integers q times the quantum D the bound is likely to give (x = q*D, exact or nearly), block
 * by block of a different kind, aimed at section 8.1: alternating +-3/4 QMAX (first-order deltas
 * of 31 (f32) / 45 (f64) planes, second-order ones beyond FQ: not usable; at a head block of f32,
 * Lorenzo does not fit, so such a tile cannot take form 1), steep ramps (second order 0, first
 * order 26/40 planes), parabolas (second order about constant), noise, zeros, blocks with a NaN
 * (RAW, so the next block is a head block), alternating +-QMAX/4 (second order of exactly FQ
 * planes), and a pair of blocks that descends slowly to -B and jumps to +B (B = 2^30 - 64 or
 * 2^44 - 64): its second-order deltas are all >= 0 but one needs FQ + 1 bits, so they are not
 * usable though their size (no sign map) is below Lorenzo's. Tiles have a flavour: a mix of
 * everything; parabolas after an alternating head block (form 1 for f64, not eligible for f32);
 * parabolas with NaN blocks and cliffs (form 1, head blocks inside).
 * Half the inputs end in a zero block: if it is short, its form-0 code is the one-byte zero block
 * and its form-1 encoding may not fit, which makes the last tile not eligible. */
static void fill_l2edge(void *x, size_t n, int is64, double D, uint64_t seed)
{
    tu_rng r = {seed * 104729u + 11};
    const int64_t big = (int64_t)3 << (is64 ? 42 : 28), step = (int64_t)1 << (is64 ? 39 : 25);
    const int64_t quarter = (int64_t)1 << (is64 ? 42 : 28);
    const int64_t cliff = ((int64_t)1 << (is64 ? 44 : 30)) - 64;
    int cls = 0, next = -1;
    for (size_t i = 0; i < n; i++) {
        size_t k = i / 32, j = i % 32;
        int flavour = (int)((k / 256 + seed) % 3);
        if (j == 0) {
            int u = (int)(tu_next(&r) % 16);
            if (flavour == 0) cls = k % 256 == 0 ? 0 : u % 8;
            else if (flavour == 1) cls = k % 256 == 0 ? 0 : (u < 14 ? 2 : u % 8);
            else cls = u < 11 ? 2 : (u < 12 ? 8 : (u < 14 ? 7 : 4));
            if (next >= 0) cls = next;
            next = cls == 8 ? 9 : -1;
            if (seed % 2 == 0 && k == (n - 1) / 32) cls = 5;
        }
        int64_t q;
        switch (cls) {
        case 0: q = (j & 1) ? -big : big; break;
        case 1: q = -big + (int64_t)j * step; break;
        case 2: case 3: {
            int64_t t = (int64_t)(i % 4096) - 2048; /* a parabola across blocks */
            q = t * t / 4;
            break;
        }
        case 4: q = (int64_t)(tu_next(&r) % 2001) - 1000; break;
        case 5: q = 0; break;
        case 6: q = (j & 1) ? -quarter : quarter; break;
        case 8: q = -cliff + 128 * (62 - (int64_t)j); break;
        case 9: q = j < 31 ? -cliff + 128 * (30 - (int64_t)j) : cliff; break;
        default: {
            int64_t t = (int64_t)(i % 4096) - 2048;
            q = t * t / 4;
            if (j == (size_t)(k % 32)) {
                put_real(x, i, is64, NAN);
                continue;
            }
        }
        }
        put_real(x, i, is64, (double)q * D);
    }
}

static void fill_case(void *x, size_t count, eccl_dtype_t dt, int pattern, uint64_t seed,
                      const eccl_bound_t *b)
{
    size_t n = count * reals_of(dt);
    if (pattern < TU_NPATTERNS) {
        tu_fill(x, n, is64_of(dt), pattern, seed);
    } else if (pattern == PAT_SINE) {
        for (size_t i = 0; i < n; i++) put_real(x, i, is64_of(dt), sin(0.001 * (double)i));
    } else {
        double eb = b->mode == ECCL_MODE_ABS ? b->value : 1e-3;
        fill_l2edge(x, n, is64_of(dt), ref_quantum(eb), seed);
    }
}

/* The library's stream of version v: eccl_compress (1) or eccl_compress_fmt (2). */
static eccl_result_t lib_compress(const void *x, size_t count, eccl_dtype_t dt, const eccl_bound_t *b,
                                  void *out, size_t cap, size_t *size, int v)
{
    if (v == 1) return eccl_compress(x, count, dt, b, out, cap, size);
    return eccl_compress_fmt(x, count, dt, b, out, cap, size, ECCL_PATH_AUTO, v);
}

static uint64_t ld64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Version 2 (reference only): the guarantees of sections 8.1 and 13 against the reference's own
 * version-1 stream of the same input, tile by tile: a form-0 tile holds the version-1 tile's codes
 * and bytes, a form-1 tile is no larger; everything else but the version byte and the checksum is
 * equal when no tile has form 1. And z, the reference's decoding of r2, is within the bound. */
static void ref_self_check(const char *what, const void *x, const void *z, size_t count,
                           eccl_dtype_t dt, const unsigned char *r2, size_t s2,
                           const unsigned char *r1, size_t s1)
{
    ref_header h2, h1;
    char why[REF_WHY_LEN] = "";
    int rc2 = ref_parse(r2, s2, &h2, why);
    RD_CHECK(K_SELF, rc2 == REF_OK && h2.vmajor == 2, "%s: own stream rejected: %s", what, why);
    int rc1 = ref_parse(r1, s1, &h1, why);
    RD_CHECK(K_SELF, rc1 == REF_OK && h1.vmajor == 1, "%s: own v1 stream rejected: %s", what, why);
    if (rc2 || rc1) return;
    n_l2_tiles += (long)h2.nt_l2;
    n_tiles_v2 += (long)h2.nt;
    RD_CHECK(K_SELF, s2 <= s1, "%s: version 2 is larger (%zu bytes) than version 1 (%zu)", what, s2, s1);
    RD_CHECK(K_SELF, h2.nt_l2 == 0 || dt == ECCL_FLOAT32 || dt == ECCL_FLOAT64,
             "%s: form-1 tile in a complex stream", what);
    if (h2.nt_l2 == 0) {
        int same = s1 == s2 && memcmp(r1, r2, 4) == 0 && r2[4] == 2 && memcmp(r1 + 5, r2 + 5, 51) == 0 &&
                   memcmp(r1 + 64, r2 + 64, s1 - 64) == 0;
        RD_CHECK(K_SELF, same, "%s: all tiles form 0 but not the version-1 bytes", what);
    }
    const unsigned char *c1 = r1 + 64 + 8 * h1.nt, *c2 = r2 + 64 + 8 * h2.nt;
    const uint64_t mask = ((uint64_t)1 << 62) - 1;
    for (uint64_t t = 0; t < h2.nt; t++) {
        uint64_t o1 = ld64(r1 + 64 + 8 * t), o2 = ld64(r2 + 64 + 8 * t) & mask;
        uint64_t e1 = t + 1 < h1.nt ? ld64(r1 + 72 + 8 * t) : h1.payload_size;
        uint64_t e2 = t + 1 < h2.nt ? ld64(r2 + 72 + 8 * t) & mask : h2.payload_size;
        uint64_t nblk = h2.nb - 256 * t < 256 ? h2.nb - 256 * t : 256;
        if (ref_tile_form(r2, t) == 0) {
            int same = e1 - o1 == e2 - o2 && memcmp(r1 + h1.P + o1, r2 + h2.P + o2, e1 - o1) == 0 &&
                       memcmp(c1 + 256 * t, c2 + 256 * t, nblk) == 0;
            RD_CHECK(K_SELF, same, "%s: form-0 tile %llu differs from the version-1 tile", what,
                     (unsigned long long)t);
        } else {
            RD_CHECK(K_SELF, e2 - o2 <= e1 - o1, "%s: form-1 tile %llu larger than in version 1",
                     what, (unsigned long long)t);
        }
    }
    if (z) { /* the reference's decoding of r2 */
        size_t bad = tu_check_bound(x, z, count * reals_of(dt), is64_of(dt), h2.eb, h2.mode == 0, NULL);
        RD_CHECK(K_SELF, bad == 0, "%s: %zu values out of bound %g", what, bad, h2.eb);
    }
}

/* Steps 1, 2 and 4 for the input x in version v. r1/r1size: the reference's version-1 stream of
 * x (kept by the version-1 pass, used by the version-2 pass). */
static void one_v(eccl_dtype_t dt, const mode_case *mc, size_t count, const void *x, const char *what,
                  int v, unsigned char **r1, size_t *r1size)
{
    size_t esz = eccl_dtype_size(dt);
    void *y = tu_malloc(count * esz), *z = tu_malloc(count * esz);
    size_t cap = eccl_compress_bound(count, dt), size = 0, rsize = 0;
    unsigned char *s = tu_malloc(cap), *rs = NULL;
    char why[REF_WHY_LEN] = "";
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    cur_v = v;
    n_streams[v - 1]++;

    eccl_result_t rc = lib_compress(x, count, dt, &b, s, cap, &size, v);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "%s: compress: %s", what, eccl_strerror(rc));
    if (rc) goto out;

    /* 1. decode with both */
    memset(y, 0x5A, count * esz);
    memset(z, 0xA5, count * esz);
    rc = eccl_decompress(s, size, y, count, dt);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "%s: decompress: %s", what, eccl_strerror(rc));
    int rrc = ref_decode(s, size, z, count, (unsigned)dt, why);
    RD_CHECK(K_REJECT, rrc == REF_OK, "%s: reference decoder rejects: %s", what, why);
    if (rc == ECCL_SUCCESS && rrc == REF_OK && memcmp(y, z, count * esz) != 0) {
        size_t i = 0;
        while (memcmp((char *)y + i * esz, (char *)z + i * esz, esz) == 0) i++;
        RD_CHECK(K_DECODE, 0, "%s: decoders differ from element %zu", what, i);
    }
    RD_CHECK(K_COMPRESS, size >= 5 && s[4] == v, "%s: version byte %d", what, size >= 5 ? s[4] : -1);
    int dec_ok = rc == ECCL_SUCCESS && rrc == REF_OK; /* z: the reference's decoding of s */

    /* 2. the normative encoder */
    rrc = ref_compress_v(x, count, (unsigned)dt, (unsigned)mc->mode, mc->value,
                         mc->mode == ECCL_MODE_REL ? -1.0 : 0.0, (unsigned)v, &rs, &rsize, why);
    RD_CHECK(K_CALL, rrc == REF_OK, "%s: ref_compress_v: %s", what, why);
    if (rrc == REF_OK) {
        int same = rsize == size && memcmp(rs, s, size) == 0;
        RD_CHECK(K_COMPRESS, same, "%s: the library's stream differs from section 8", what);
        if (!same && SHOW(K_COMPRESS)) show_diff("compress", s, size, rs, rsize);
    }

    /* 4. version 2: the library reads the reference's stream (when it differs from the library's:
     * otherwise step 1 did); the reference checks itself against its version-1 stream */
    if (v == 2 && rrc == REF_OK) {
        int decoded = dec_ok && rsize == size && memcmp(rs, s, size) == 0;
        if (!decoded) {
            memset(y, 0x5A, count * esz);
            memset(z, 0xA5, count * esz);
            rc = eccl_decompress(rs, rsize, y, count, dt);
            RD_CHECK(K_LIBDEC, rc == ECCL_SUCCESS, "%s: library rejects the reference stream: %s",
                     what, eccl_strerror(rc));
            rrc = ref_decode(rs, rsize, z, count, (unsigned)dt, why);
            RD_CHECK(K_SELF, rrc == REF_OK, "%s: own stream does not decode: %s", what, why);
            decoded = rrc == REF_OK;
            if (rc == ECCL_SUCCESS && rrc == REF_OK)
                RD_CHECK(K_LIBDEC, memcmp(y, z, count * esz) == 0,
                         "%s: library decodes the reference stream differently", what);
        }
        if (*r1) ref_self_check(what, x, decoded ? z : NULL, count, dt, rs, rsize, *r1, *r1size);
    }
out:
    if (v == 1) {
        *r1 = rs;
        *r1size = rsize;
    } else {
        free(rs);
    }
    free(y);
    free(z);
    free(s);
}

/* One input, both versions. */
static void one(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    void *x = tu_malloc(count * eccl_dtype_size(dt));
    unsigned char *r1 = NULL;
    size_t r1size = 0;
    char what[160];
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    fill_case(x, count, dt, pattern, count + 17, &b);
    snprintf(what, sizeof what, "%s %s mode %d %g count %zu", eccl_dtype_name(dt), pat_name(pattern),
             mc->mode, mc->value, count);
    one_v(dt, mc, count, x, what, 1, &r1, &r1size);
    if (!r1) { /* the version-1 pass failed early: the self-check still needs the stream */
        char why[REF_WHY_LEN];
        ref_compress_v(x, count, (unsigned)dt, (unsigned)mc->mode, mc->value,
                       mc->mode == ECCL_MODE_REL ? -1.0 : 0.0, 1, &r1, &r1size, why);
    }
    one_v(dt, mc, count, x, what, 2, &r1, &r1size);
    free(r1);
    free(x);
}

/* Section 11 against the reference: reduce(compress(x), y) and combine(a, b), both orders, for
 * streams of version v; for version 2 also combine with a version-1 operand (a mismatch). */
static void hom_case(eccl_dtype_t dt, const mode_case *mc, size_t count, int pa, int pb, int op, int v)
{
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc(count * esz), *l = tu_malloc(count * esz);
    size_t cap = eccl_compress_bound(count, dt), sa = 0, sb = 0, so = 0, rso = 0;
    unsigned char *a = tu_malloc(cap), *bb = tu_malloc(cap), *o = tu_malloc(cap), *ro = NULL;
    char why[REF_WHY_LEN] = "", what[200];
    /* REL needs one common range for both operands: pass it explicitly */
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? 4.0 : 0.0};
    const char *opn = op == 0 ? "SUM" : op == 1 ? "MAX" : "MIN";
    cur_v = v;
    fill_case(x, count, dt, pa, 3 * count + 1, &b);
    fill_case(l, count, dt, pb, 5 * count + 2, &b);
    snprintf(what, sizeof what, "%s %s mode %d %g count %zu %s+%s", opn, eccl_dtype_name(dt), mc->mode,
             mc->value, count, pat_name(pa), pat_name(pb));
    n_hom[v - 1]++;
    if (lib_compress(x, count, dt, &b, a, cap, &sa, v) || lib_compress(l, count, dt, &b, bb, cap, &sb, v)) {
        RD_CHECK(K_CALL, 0, "%s: compress failed", what);
        goto out;
    }
    eccl_result_t rc = eccl_hom_reduce(a, sa, l, count, dt, (eccl_op_t)op, o, cap, &so);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "%s: hom_reduce: %s", what, eccl_strerror(rc));
    int rrc = ref_hom(a, sa, NULL, 0, l, op, &ro, &rso, why);
    RD_CHECK(K_CALL, rrc == REF_OK, "%s: ref_hom: %s", what, why);
    if (rrc == REF_OK) RD_CHECK(K_SELF, ro[4] == v, "%s: ref_hom wrote version %d", what, ro[4]);
    if (rc == ECCL_SUCCESS && rrc == REF_OK) {
        int same = so == rso && memcmp(o, ro, so) == 0;
        RD_CHECK(K_REDUCE, same, "hom_reduce %s differs from section 11", what);
        if (!same && SHOW(K_REDUCE)) show_diff("hom_reduce", o, so, ro, rso);
    }
    free(ro);
    ro = NULL;
    for (int order = 0; order < 2; order++) {
        const unsigned char *p = order ? bb : a, *q = order ? a : bb;
        size_t ps = order ? sb : sa, qs = order ? sa : sb;
        rc = eccl_hom_combine(p, ps, q, qs, (eccl_op_t)op, o, cap, &so);
        RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "%s: hom_combine: %s", what, eccl_strerror(rc));
        rrc = ref_hom(p, ps, q, qs, NULL, op, &ro, &rso, why);
        RD_CHECK(K_CALL, rrc == REF_OK, "%s: ref_hom: %s", what, why);
        if (rc == ECCL_SUCCESS && rrc == REF_OK) {
            int same = so == rso && memcmp(o, ro, so) == 0;
            RD_CHECK(K_COMBINE, same, "hom_combine %s differs from section 11", what);
            if (!same && SHOW(K_COMBINE)) show_diff("hom_combine", o, so, ro, rso);
        }
        free(ro);
        ro = NULL;
    }
    if (v == 2 && op == 0) { /* section 11: the version majors must be equal */
        size_t s1 = 0;
        unsigned char *a1 = tu_malloc(cap);
        if (eccl_compress(x, count, dt, &b, a1, cap, &s1) == ECCL_SUCCESS) {
            for (int order = 0; order < 2; order++) {
                const unsigned char *p = order ? bb : a1, *q = order ? a1 : bb;
                size_t ps = order ? sb : s1, qs = order ? s1 : sb;
                rc = eccl_hom_combine(p, ps, q, qs, ECCL_OP_SUM, o, cap, &so);
                RD_CHECK(K_COMBINE, rc == ECCL_ERR_MISMATCH, "%s: hom_combine of versions 1 and 2 gave %s",
                         what, eccl_strerror(rc));
                rrc = ref_hom(p, ps, q, qs, NULL, 0, &ro, &rso, why);
                RD_CHECK(K_SELF, rrc == REF_MISMATCH, "%s: ref_hom of versions 1 and 2 gave %d", what, rrc);
                free(ro);
                ro = NULL;
            }
        } else {
            RD_CHECK(K_CALL, 0, "%s: compress failed", what);
        }
        free(a1);
    }
out:
    free(x);
    free(l);
    free(a);
    free(bb);
    free(o);
}

/* Section 13's motivation, pinned: sin(0.001 i) as float64 at ABS 1e-6 takes form 1 in every
 * tile, and version 2 compresses it far better than version 1 (reference, and the library). */
static void smooth_ratio(void)
{
    const size_t count = quick ? 8192 * 2 : 8192 * 8;
    double *x = tu_malloc(count * sizeof *x);
    unsigned char *r1 = NULL, *r2 = NULL;
    size_t s1 = 0, s2 = 0;
    char why[REF_WHY_LEN] = "";
    ref_header h;
    cur_v = 2;
    for (size_t i = 0; i < count; i++) x[i] = sin(0.001 * (double)i);
    int rc1 = ref_compress_v(x, count, ECCL_FLOAT64, ECCL_MODE_ABS, 1e-6, 0, 1, &r1, &s1, why);
    int rc2 = ref_compress_v(x, count, ECCL_FLOAT64, ECCL_MODE_ABS, 1e-6, 0, 2, &r2, &s2, why);
    RD_CHECK(K_CALL, rc1 == REF_OK && rc2 == REF_OK, "sine: ref_compress_v: %s", why);
    if (rc1 == REF_OK && rc2 == REF_OK) {
        int prc = ref_parse(r2, s2, &h, why);
        RD_CHECK(K_SELF, prc == REF_OK && h.nt_l2 == h.nt, "sine: %llu of %llu tiles take form 1",
                 (unsigned long long)h.nt_l2, (unsigned long long)h.nt);
        double ratio1 = 8.0 * count / s1, ratio2 = 8.0 * count / s2;
        printf("test_refdecode: sin(0.001 i) float64 ABS 1e-6: ratio %.2f (version 1), %.2f (version 2)\n",
               ratio1, ratio2);
        RD_CHECK(K_SELF, ratio2 > 1.5 * ratio1, "sine: ratio %.2f in version 2, %.2f in version 1",
                 ratio2, ratio1);
        size_t cap = eccl_compress_bound(count, ECCL_FLOAT64), size = 0;
        unsigned char *s = tu_malloc(cap);
        eccl_bound_t b = {ECCL_MODE_ABS, 1e-6, 0};
        eccl_result_t rc = eccl_compress_fmt(x, count, ECCL_FLOAT64, &b, s, cap, &size, ECCL_PATH_AUTO, 2);
        RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "sine: eccl_compress_fmt: %s", eccl_strerror(rc));
        if (rc == ECCL_SUCCESS) {
            int same = size == s2 && memcmp(s, r2, size) == 0;
            RD_CHECK(K_COMPRESS, same, "sine float64 ABS 1e-6 count %zu: the library's stream differs", count);
            if (!same && SHOW(K_COMPRESS)) show_diff("compress", s, size, r2, s2);
        }
        free(s);
    }
    free(r1);
    free(r2);
    free(x);
}

/* A stream with its tile forms or version byte edited (checksum fixed): the library and the
 * reference must give the same verdict and, when both accept, the same values; expect >= 0 is
 * the verdict section 4.1 prescribes (REF_CORRUPT for a rejected form). */
static void crafted(const char *what, const unsigned char *src, size_t size, size_t count,
                    eccl_dtype_t dt, int tile, unsigned form, int vbyte, int expect)
{
    size_t esz = eccl_dtype_size(dt);
    unsigned char *c = tu_malloc(size);
    void *y = tu_malloc(count * esz + 1), *z = tu_malloc(count * esz + 1);
    char why[REF_WHY_LEN] = "";
    memcpy(c, src, size);
    if (tile >= 0) {
        uint64_t e = ld64(c + 64 + 8 * (size_t)tile);
        e = (e & (((uint64_t)1 << 62) - 1)) | (uint64_t)form << 62;
        for (int i = 0; i < 8; i++) c[64 + 8 * tile + i] = (unsigned char)(e >> (8 * i));
    }
    if (vbyte >= 0) c[4] = (unsigned char)vbyte;
    ref_fix_checksum(c, size);
    eccl_result_t rc = eccl_decompress(c, size, y, count, dt);
    int rrc = ref_decode(c, size, z, count, (unsigned)dt, why);
    RD_CHECK(K_CRAFTED, (int)rc == rrc, "%s: library %d (%s), reference %d (%s)", what, (int)rc,
             eccl_strerror(rc), rrc, why);
    if (rc == ECCL_SUCCESS && rrc == REF_OK)
        RD_CHECK(K_CRAFTED, memcmp(y, z, count * esz) == 0, "%s: both accept, values differ", what);
    if (expect >= 0) RD_CHECK(K_SELF, rrc == expect, "%s: reference gives %d (%s), expected %d", what, rrc, why, expect);
    free(c);
    free(y);
    free(z);
}

static void crafted_forms(void)
{
    const size_t count = 3 * 8192 + 5; /* 4 tiles of float64 */
    double *x = tu_malloc(2 * count * sizeof *x);
    unsigned char *st = NULL;
    size_t size = 0;
    char why[REF_WHY_LEN] = "", what[160];
    cur_v = 2;
    for (size_t i = 0; i < 2 * count; i++) x[i] = sin(0.001 * (double)i);
    /* the sine: every tile form 1 */
    if (ref_compress_v(x, count, ECCL_FLOAT64, ECCL_MODE_ABS, 1e-6, 0, 2, &st, &size, why) == REF_OK) {
        for (int t = 0; t < 4; t++) {
            for (unsigned f = 0; f < 4; f++) {
                snprintf(what, sizeof what, "sine float64 ABS 1e-6: tile %d form %u", t, f);
                crafted(what, st, size, count, ECCL_FLOAT64, t, f, -1, f >= 2 ? REF_CORRUPT : (f == 1 ? REF_OK : -1));
            }
        }
        crafted("sine float64 ABS 1e-6 relabelled version 1", st, size, count, ECCL_FLOAT64, -1, 0, 1, REF_CORRUPT);
        crafted("sine float64 ABS 1e-6 relabelled version 3", st, size, count, ECCL_FLOAT64, -1, 0, 3, REF_UNSUPPORTED);
    }
    free(st);
    st = NULL;
    /* version-1 and form-0 streams given form 1: valid where the codes allow (real, quantizing) */
    const struct {
        eccl_dtype_t dt;
        int mode;
        double value;
        int pattern, v, expect;
    } cs[] = {{ECCL_FLOAT64, 1, 1e-6, TU_RANDOM, 2, -1},       {ECCL_FLOAT32, 1, 1e-3, TU_NANINF, 2, -1},
              {ECCL_FLOAT64, 1, 1e-6, TU_SMOOTH, 1, REF_CORRUPT}, {ECCL_COMPLEX128, 1, 1e-6, PAT_SINE, 2, REF_CORRUPT},
              {ECCL_COMPLEX64, 1, 1e-3, PAT_SINE, 2, REF_CORRUPT}, {ECCL_FLOAT64, 0, 0, PAT_SINE, 2, REF_CORRUPT},
              {ECCL_FLOAT32, 0, 0, PAT_SINE, 2, REF_CORRUPT},      {ECCL_FLOAT64, 1, 1e-305, PAT_SINE, 2, REF_CORRUPT}};
    for (size_t k = 0; k < sizeof cs / sizeof *cs; k++) {
        eccl_bound_t b = {(eccl_mode_t)cs[k].mode, cs[k].value, 0};
        size_t n = 8192 + 40; /* 2 tiles of a real type */
        fill_case(x, n, cs[k].dt, cs[k].pattern, 99, &b);
        if (ref_compress_v(x, n, (unsigned)cs[k].dt, (unsigned)cs[k].mode, cs[k].value, 0,
                           (unsigned)cs[k].v, &st, &size, why) != REF_OK)
            continue;
        for (int t = 0; t < 2; t++) {
            if (ref_tile_form(st, (uint64_t)t) != 0) continue;
            snprintf(what, sizeof what, "%s %s mode %d %g version %d: tile %d form 1", eccl_dtype_name(cs[k].dt),
                     pat_name(cs[k].pattern), cs[k].mode, cs[k].value, cs[k].v, t);
            crafted(what, st, size, n, cs[k].dt, t, 1, -1, cs[k].expect);
        }
        free(st);
        st = NULL;
    }
    free(x);
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") != NULL;
    /* counts: reals n = count (real) or 2*count (complex); boundaries of blocks (32 reals) and
     * tiles (8192 reals) for both */
    const size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 4095, 4096, 4097,
                            8191, 8192, 8193, 20000};
    const int nsizes = sizeof sizes / sizeof *sizes;
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned m = 0; m < NMODES; m++) {
            for (int si = 0; si < nsizes; si++) {
                size_t count = sizes[si];
                if (quick && count > 10000) continue;
                for (int pat = 0; pat < NPAT; pat++) {
                    /* big sizes: every pattern for a few modes, a few patterns for the rest */
                    if (count > 1000 && m > 2 && pat != TU_SMOOTH && pat != TU_NANINF &&
                        pat != TU_RANDOMWALK && pat != TU_HUGE && pat != PAT_SINE && pat != PAT_L2EDGE)
                        continue;
                    one(dtypes[d], &modes[m], count, pat); /* versions 1 and 2 */
                }
            }
        }
    }
    smooth_ratio();
    crafted_forms();
    /* Section 11 */
    const size_t hsizes[] = {1, 31, 33, 100, 8193, 16500};
    const struct {
        int a, b, big; /* big: also at the sizes above 1000 */
    } hpat[] = {{TU_SMOOTH, TU_SMOOTH, 1},    {TU_SMOOTH, TU_RANDOM, 1},      {TU_NANINF, TU_SMOOTH, 1},
                {TU_HUGE, TU_RANDOMWALK, 0},  {TU_ZEROS, TU_CONSTANT, 0},     {TU_NORMAL, TU_HUGE, 0},
                {TU_ALTERNATING, TU_DENORMAL, 0}, {TU_MIXED_SCALE, TU_SMOOTH, 0}, {PAT_SINE, PAT_SINE, 1},
                {PAT_L2EDGE, PAT_SINE, 1},    {PAT_L2EDGE, PAT_L2EDGE, 0}};
    for (int v = 1; v <= 2; v++) {
        for (unsigned d = 0; d < 4; d++) {
            for (unsigned m = 0; m < NMODES; m++) {
                if (m == 3 || m == 6 || m == 9) continue; /* fewer bounds here */
                for (unsigned si = 0; si < sizeof hsizes / sizeof *hsizes; si++) {
                    if (quick && hsizes[si] > 10000) continue;
                    for (unsigned pi = 0; pi < sizeof hpat / sizeof *hpat; pi++) {
                        for (int op = 0; op < 3; op++) {
                            if (op && dtypes[d] >= ECCL_COMPLEX64) continue;
                            /* big sizes: a few pairs, SUM only but for the new patterns */
                            if (hsizes[si] > 1000 && !hpat[pi].big) continue;
                            if (hsizes[si] > 1000 && op && (hpat[pi].a < TU_NPATTERNS || hsizes[si] > 10000))
                                continue;
                            hom_case(dtypes[d], &modes[m], hsizes[si], hpat[pi].a, hpat[pi].b, op, v);
                        }
                    }
                }
            }
        }
    }
    printf("test_refdecode: version 1: %ld streams, %ld homomorphic cases\n", n_streams[0], n_hom[0]);
    printf("test_refdecode: version 2: %ld streams, %ld homomorphic cases; the reference's own "
           "streams: %ld of %ld tiles in form 1\n",
           n_streams[1], n_hom[1], n_l2_tiles, n_tiles_v2);
    for (int v = 1; v <= 2; v++)
        for (int k = 0; k < K_NKINDS; k++)
            TU_CHECK(kind_fail[v - 1][k] == 0, "version %d: %ld cases where %s", v, kind_fail[v - 1][k],
                     kind_name[k]);
    return tu_finish("test_refdecode");
}
