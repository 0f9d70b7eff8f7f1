/*
 * test_refdecode.c - the library against the independent reference (tests/ref_decoder.c, written
 * from doc/format.md alone), for the format versions in lib_versions[] (1, 2 and 3):
 *  1. every stream the library writes (eccl_compress for version 1, eccl_compress_fmt for 2 and 3)
 *     is accepted by the reference decoder, and both decoders return bit-identical values;
 *  2. the library writes exactly the bytes the normative encoder rules (sections 8, 8.1, 8.2)
 *     prescribe;
 *  3. eccl_hom_reduce / eccl_hom_combine write exactly the bytes section 11 prescribes, in the
 *     inputs' version; combining streams of different major versions is a mismatch;
 *  4. versions 2 and up: the library decodes every reference-written stream to the reference's
 *     values;
 *  5. the reference checks itself, in versions 2 and 3, whatever lib_versions holds: against the
 *     guarantees of sections 8.1 and 13 (within the bound; no tile larger than in version 1; a
 *     form-0 tile is the version-1 tile; smooth data takes form-1 tiles and compresses much
 *     better) and of sections 8.2 and 14 (no tile larger than in versions 1 and 2, a form-1 tile is
 *     the version-2 tile; data with flat runs takes form-2 tiles, ramps with runs form-3 tiles,
 *     and both compress better than in version 2; ref_hom keeps version 3; crafted corruptions of
 *     sparse blocks and their tiles are CORRUPT).
 * Over all 4 dtypes, lossless/ABS/REL bounds (including bounds too small to quantize and huge
 * ones), sizes around block and tile boundaries, every data pattern of testutil.h and four more
 * (a sine, integer patterns aimed at the edges of section 8.1, flat runs with jumps, ramps with
 * runs: the last two for version 3's sparse forms).
 *
 * ECCL_TEST_QUICK=1 skips the sizes above 10000.
 */
#include "ref_decoder.h"
#include "testutil.h"
#include "codec/codec.h" /* eccl_compress_fmt: the version-2 and version-3 writer */

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

/* The versions whose library writer (eccl_compress_fmt), homomorphic operations and reader are
 * compared with the reference, byte for byte (steps 1-4: one_v, hom_case, the library's verdict
 * on crafted streams). */
static const int lib_versions[] = {1, 2, 3};
#define NLIBV ((int)(sizeof lib_versions / sizeof *lib_versions))
static int lib_has(int v)
{
    for (int i = 0; i < NLIBV; i++)
        if (lib_versions[i] == v) return 1;
    return 0;
}
enum { NV = 3 }; /* versions 1 .. NV: the reference reads and writes them all */

static int quick;
static long n_streams[NV], n_hom[NV], n_l2_tiles, n_tiles_v2;
static long n_ref3_streams, n_ref3_hom, n_tiles_v3, n_form_v3[4]; /* the reference's own version 3 */

/* Failures are tallied per version and kind (the first few printed in full), so one library bug
 * does not hide the rest of the matrix behind testutil's 50-failure stop; main() turns each tally
 * into a check. */
enum { K_CALL, K_REJECT, K_DECODE, K_COMPRESS, K_REDUCE, K_COMBINE, K_LIBDEC, K_CRAFTED, K_SELF, K_NKINDS };
static const char *kind_name[K_NKINDS] = {
    "a library or reference call failed", "the reference decoder rejects a library stream",
    "the decoders return different values", "the library's compress differs from section 8",
    "eccl_hom_reduce differs from section 11", "eccl_hom_combine differs from section 11",
    "the library decodes a reference stream differently",
    "the library and the reference disagree on a crafted stream",
    "the reference breaks a guarantee of sections 8.1/8.2/13/14 (reference bug)"};
static long kind_fail[NV][K_NKINDS];
static int cur_v = 1; /* the format version under test: 1 .. NV */
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

/* Four patterns beyond testutil's (indices TU_NPATTERNS and up). */
enum { PAT_SINE = TU_NPATTERNS, PAT_L2EDGE, PAT_FLAT, PAT_RAMP, NPAT };
static const char *pat_name(int pattern)
{
    return pattern == PAT_SINE ? "sine" : pattern == PAT_L2EDGE ? "l2-edge" : pattern == PAT_FLAT ? "flat-runs"
           : pattern == PAT_RAMP ? "ramp-runs" : tu_pattern_name[pattern];
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

/* Version 3, form 2 (section 6.4): flat runs (1 to 120 equal values) with jumps of +-0.5 to +-50,
 * so first-order deltas are mostly zero and the rest large (a block with one jump has sign mode 1
 * or 2, one with several often 0); now and then (seed odd) a NaN, whose RAW block makes the next
 * block a head block. Equal values quantize equally, whatever the bound. */
static void fill_flat(void *x, size_t n, int is64, uint64_t seed)
{
    tu_rng r = {seed * 7919u + 3};
    double level = (double)(int)(tu_next(&r) % 201) - 100.0;
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        if (left == 0) {
            left = 1 + (size_t)(tu_next(&r) % 120);
            double step = 0.5 + (double)(tu_next(&r) % 4096) * (50.0 / 4096);
            level += tu_next(&r) % 2 ? step : -step;
        }
        left--;
        put_real(x, i, is64, seed % 2 == 1 && tu_next(&r) % 3000 == 0 ? NAN : level);
    }
}

/* Version 3, form 3: integers q times the quantum D (exact): straight segments of 20 to 200 values
 * of slopes up to +-3000 (one in eight flat), a quarter of them starting with a step of up to
 * +-10^5, kept within +-2^21; so second-order deltas are mostly zero and first-order ones not. */
static void fill_ramp(void *x, size_t n, int is64, double D, uint64_t seed)
{
    tu_rng r = {seed * 6271u + 5};
    int64_t q = 0, slope = 0, lim = (int64_t)1 << 21;
    size_t left = 0;
    for (size_t i = 0; i < n; i++) {
        if (left == 0) {
            left = 20 + (size_t)(tu_next(&r) % 181);
            slope = tu_next(&r) % 8 == 0 ? 0 : (int64_t)(tu_next(&r) % 6001) - 3000;
            if (tu_next(&r) % 4 == 0) q += (int64_t)(tu_next(&r) % 200001) - 100000;
        }
        left--;
        q += slope;
        if (q > lim || q < -lim) { /* turn back (one more kink) */
            slope = q > lim ? -(slope > 0 ? slope : -slope) - 1 : (slope > 0 ? slope : -slope) + 1;
            q = q > lim ? lim : -lim;
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
    } else if (pattern == PAT_FLAT) {
        fill_flat(x, n, is64_of(dt), seed);
    } else {
        double eb = b->mode == ECCL_MODE_ABS ? b->value : 1e-3;
        if (pattern == PAT_RAMP) fill_ramp(x, n, is64_of(dt), ref_quantum(eb), seed);
        else fill_l2edge(x, n, is64_of(dt), ref_quantum(eb), seed);
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

/* Tile t of a parsed stream: its payload offset from P and its size (section 4). */
static void tile_span(const unsigned char *st, const ref_header *h, uint64_t t, uint64_t *off, uint64_t *len)
{
    const uint64_t mask = ((uint64_t)1 << 62) - 1;
    uint64_t o = ld64(st + 64 + 8 * t) & mask;
    uint64_t e = t + 1 < h->nt ? ld64(st + 72 + 8 * t) & mask : h->payload_size;
    *off = o;
    *len = e - o;
}

/* The tile t of two streams of the same input: same size, codes and payload bytes. */
static int same_tile(const unsigned char *ra, const ref_header *ha, const unsigned char *rb,
                     const ref_header *hb, uint64_t t)
{
    uint64_t oa, la, ob, lb, nblk = ha->nb - 256 * t < 256 ? ha->nb - 256 * t : 256;
    tile_span(ra, ha, t, &oa, &la);
    tile_span(rb, hb, t, &ob, &lb);
    return la == lb && memcmp(ra + ha->P + oa, rb + hb->P + ob, la) == 0 &&
           memcmp(ra + 64 + 8 * ha->nt + 256 * t, rb + 64 + 8 * hb->nt + 256 * t, nblk) == 0;
}

/* Versions 2 and 3 (reference only): rs[v] (size rsz[v]), the reference's version-v stream of an
 * input, against its version-1 (and, for v = 3, version-2) streams of the same input, tile by tile.
 * Version 2 (sections 8.1, 13): a form-0 tile holds the version-1 tile's codes and bytes, a form-1
 * tile is no larger; everything else but the version byte and the checksum is equal when no tile
 * has form 1. Version 3 (sections 8.2, 14): no tile larger than in versions 1 and 2; a form-0 tile
 * is the version-1 tile, a form-1 tile the version-2 one (which has form 1 too); a form-0 tile whose
 * version-2 tile has form 1 has that tile's padded size; forms 1 and 3 only for real dtypes; when
 * every tile has form 0, the version-1 bytes but for the version byte and the checksum. Both: the
 * stream decodes to the version-1 stream's values (the same integers and RAW values in every form)
 * and, given x (not NULL), within the bound. The first stream of rs may be NULL (not checked). */
static void ref_self_check(const char *what, const void *x, size_t count, eccl_dtype_t dt, int v,
                           unsigned char *const *rs, const size_t *rsz)
{
    ref_header hv, h1, h2;
    char why[REF_WHY_LEN] = "";
    const unsigned char *r1 = rs[1], *r2 = rs[2], *rv = rs[v];
    size_t s1 = rsz[1], s2 = rsz[2], sv = rsz[v];
    if (!r1 || !rv || (v == 3 && !r2)) return;
    int rcv = ref_parse(rv, sv, &hv, why);
    RD_CHECK(K_SELF, rcv == REF_OK && (int)hv.vmajor == v, "%s: own stream rejected: %s", what, why);
    int rc1 = ref_parse(r1, s1, &h1, why);
    RD_CHECK(K_SELF, rc1 == REF_OK && h1.vmajor == 1, "%s: own v1 stream rejected: %s", what, why);
    int rc2 = v == 3 ? ref_parse(r2, s2, &h2, why) : REF_OK;
    RD_CHECK(K_SELF, rc2 == REF_OK && (v != 3 || h2.vmajor == 2), "%s: own v2 stream rejected: %s", what, why);
    if (rcv || rc1 || rc2) return;
    int real = dt == ECCL_FLOAT32 || dt == ECCL_FLOAT64;
    RD_CHECK(K_SELF, sv <= s1, "%s: version %d is larger (%zu bytes) than version 1 (%zu)", what, v, sv, s1);
    RD_CHECK(K_SELF, (hv.nt_form[1] == 0 && hv.nt_form[3] == 0) || real, "%s: form-1 or form-3 tile in a complex stream",
             what);
    RD_CHECK(K_SELF, hv.nt_l2 == hv.nt_form[1], "%s: ref_parse counts %llu form-1 tiles, then %llu", what,
             (unsigned long long)hv.nt_l2, (unsigned long long)hv.nt_form[1]);
    if (v == 2) {
        n_l2_tiles += (long)hv.nt_l2;
        n_tiles_v2 += (long)hv.nt;
    } else {
        RD_CHECK(K_SELF, sv <= s2, "%s: version 3 is larger (%zu bytes) than version 2 (%zu)", what, sv, s2);
        n_tiles_v3 += (long)hv.nt;
        for (int a = 0; a < 4; a++) n_form_v3[a] += (long)hv.nt_form[a];
    }
    if (hv.nt_form[0] == hv.nt) {
        int same = s1 == sv && memcmp(r1, rv, 4) == 0 && rv[4] == v && memcmp(r1 + 5, rv + 5, 51) == 0 &&
                   memcmp(r1 + 64, rv + 64, s1 - 64) == 0;
        RD_CHECK(K_SELF, same, "%s: all tiles form 0 but not the version-1 bytes", what);
    } else { /* the header but for the version, stream_size and the checksum */
        RD_CHECK(K_SELF, memcmp(r1, rv, 4) == 0 && memcmp(r1 + 5, rv + 5, 43) == 0, "%s: header differs", what);
    }
    for (uint64_t t = 0; t < hv.nt; t++) {
        uint64_t o1, l1, ov, lv, o2, l2;
        unsigned a = ref_tile_form(rv, t);
        tile_span(r1, &h1, t, &o1, &l1);
        tile_span(rv, &hv, t, &ov, &lv);
        if (a == 0) {
            RD_CHECK(K_SELF, same_tile(r1, &h1, rv, &hv, t), "%s: form-0 tile %llu differs from the version-1 tile",
                     what, (unsigned long long)t);
        } else {
            RD_CHECK(K_SELF, lv <= l1, "%s: form-%u tile %llu larger than in version 1", what, a,
                     (unsigned long long)t);
        }
        if (v != 3) continue;
        tile_span(r2, &h2, t, &o2, &l2);
        unsigned a2 = ref_tile_form(r2, t);
        RD_CHECK(K_SELF, lv <= l2, "%s: form-%u tile %llu larger (%llu bytes) than in version 2 (%llu)", what, a,
                 (unsigned long long)t, (unsigned long long)lv, (unsigned long long)l2);
        if (a == 1)
            RD_CHECK(K_SELF, a2 == 1 && same_tile(r2, &h2, rv, &hv, t),
                     "%s: form-1 tile %llu differs from the version-2 tile (form %u)", what, (unsigned long long)t, a2);
        if (a == 0 && a2 == 1)
            RD_CHECK(K_SELF, l2 == l1, "%s: tile %llu: form 0, but form 1 (version 2) is smaller", what,
                     (unsigned long long)t);
    }
    size_t esz = eccl_dtype_size(dt);
    void *z = tu_malloc(count * esz + 1), *z1 = tu_malloc(count * esz + 1);
    int rcz = ref_decode(rv, sv, z, count, (unsigned)dt, why);
    RD_CHECK(K_SELF, rcz == REF_OK, "%s: own version-%d stream does not decode: %s", what, v, why);
    int rcz1 = ref_decode(r1, s1, z1, count, (unsigned)dt, why);
    RD_CHECK(K_SELF, rcz1 == REF_OK, "%s: own version-1 stream does not decode: %s", what, why);
    if (rcz == REF_OK && rcz1 == REF_OK)
        RD_CHECK(K_SELF, memcmp(z, z1, count * esz) == 0, "%s: versions %d and 1 decode differently", what, v);
    if (x && rcz == REF_OK) {
        size_t bad = tu_check_bound(x, z, count * reals_of(dt), is64_of(dt), hv.eb, hv.mode == 0, NULL);
        RD_CHECK(K_SELF, bad == 0, "%s: %zu values out of bound %g", what, bad, hv.eb);
    }
    free(z);
    free(z1);
}

/* Steps 1, 2 and 4 for the input x in version v (one of lib_versions). *rsp and *rsizep: the
 * reference's version-v stream of x, kept for the self-checks (step 5; NULL if it failed). */
static void one_v(eccl_dtype_t dt, const mode_case *mc, size_t count, const void *x, const char *what,
                  int v, unsigned char **rsp, size_t *rsizep)
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

    /* 4. versions 2 and up: the library reads the reference's stream (when it differs from the
     * library's: otherwise step 1 did) */
    if (v >= 2 && rrc == REF_OK) {
        int decoded = dec_ok && rsize == size && memcmp(rs, s, size) == 0;
        if (!decoded) {
            memset(y, 0x5A, count * esz);
            memset(z, 0xA5, count * esz);
            rc = eccl_decompress(rs, rsize, y, count, dt);
            RD_CHECK(K_LIBDEC, rc == ECCL_SUCCESS, "%s: library rejects the reference stream: %s",
                     what, eccl_strerror(rc));
            rrc = ref_decode(rs, rsize, z, count, (unsigned)dt, why);
            RD_CHECK(K_SELF, rrc == REF_OK, "%s: own stream does not decode: %s", what, why);
            if (rc == ECCL_SUCCESS && rrc == REF_OK)
                RD_CHECK(K_LIBDEC, memcmp(y, z, count * esz) == 0,
                         "%s: library decodes the reference stream differently", what);
        }
    }
out:
    *rsp = rs;
    *rsizep = rsize;
    free(y);
    free(z);
    free(s);
}

/* One input, every version: the library against the reference (steps 1-4) in lib_versions, the
 * reference's self-checks (step 5) in versions 2 and 3. */
static void one(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    void *x = tu_malloc(count * eccl_dtype_size(dt));
    unsigned char *rs[NV + 1] = {NULL};
    size_t rsz[NV + 1] = {0};
    char what[160];
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    fill_case(x, count, dt, pattern, count + 17, &b);
    snprintf(what, sizeof what, "%s %s mode %d %g count %zu", eccl_dtype_name(dt), pat_name(pattern),
             mc->mode, mc->value, count);
    for (int v = 1; v <= NV; v++) {
        if (lib_has(v)) one_v(dt, mc, count, x, what, v, &rs[v], &rsz[v]);
        cur_v = v;
        if (!rs[v]) { /* not compared with the library, or its pass failed early */
            char why[REF_WHY_LEN] = "";
            int rrc = ref_compress_v(x, count, (unsigned)dt, (unsigned)mc->mode, mc->value,
                                     mc->mode == ECCL_MODE_REL ? -1.0 : 0.0, (unsigned)v, &rs[v], &rsz[v], why);
            RD_CHECK(K_SELF, rrc == REF_OK, "%s: ref_compress_v version %d: %s", what, v, why);
            if (rrc != REF_OK) rs[v] = NULL;
            n_ref3_streams += v == 3;
        }
        if (v >= 2) ref_self_check(what, x, count, dt, v, rs, rsz);
    }
    for (int v = 1; v <= NV; v++) free(rs[v]);
    free(x);
}

/* Section 11 against the reference: reduce(compress(x), y) and combine(a, b), both orders, for
 * streams of version v (one of lib_versions); for versions 2 and up also combine with a version-1
 * operand (a mismatch). */
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
    if (v >= 2 && op == 0) { /* section 11: the version majors must be equal */
        size_t s1 = 0;
        unsigned char *a1 = tu_malloc(cap);
        if (eccl_compress(x, count, dt, &b, a1, cap, &s1) == ECCL_SUCCESS) {
            for (int order = 0; order < 2; order++) {
                const unsigned char *p = order ? bb : a1, *q = order ? a1 : bb;
                size_t ps = order ? sb : s1, qs = order ? s1 : sb;
                rc = eccl_hom_combine(p, ps, q, qs, ECCL_OP_SUM, o, cap, &so);
                RD_CHECK(K_COMBINE, rc == ECCL_ERR_MISMATCH, "%s: hom_combine of versions 1 and %d gave %s",
                         what, v, eccl_strerror(rc));
                rrc = ref_hom(p, ps, q, qs, NULL, 0, &ro, &rso, why);
                RD_CHECK(K_SELF, rrc == REF_MISMATCH, "%s: ref_hom of versions 1 and %d gave %d", what, v, rrc);
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

/* Section 11 in the reference alone, for version 3 (step 5): reduce(x, l) and combine(x, l), both
 * orders, of the reference's streams of x and l in versions 1, 2 and 3 keep their version, and the
 * version-2 and version-3 results pass ref_self_check against the version-1 ones (the blocks' kinds
 * and integers do not depend on the inputs' version); operands of versions 3 and 1 or 2 are a
 * mismatch. */
static void hom_ref(eccl_dtype_t dt, const mode_case *mc, size_t count, int pa, int pb, int op)
{
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc(count * esz), *l = tu_malloc(count * esz);
    unsigned char *a[NV + 1] = {NULL}, *bb[NV + 1] = {NULL}, *o[3][NV + 1] = {{NULL}};
    size_t sa[NV + 1] = {0}, sb[NV + 1] = {0}, so[3][NV + 1] = {{0}};
    char why[REF_WHY_LEN] = "", what[200];
    double range = mc->mode == ECCL_MODE_REL ? 4.0 : 0.0;
    eccl_bound_t b = {mc->mode, mc->value, range};
    const char *opn = op == 0 ? "SUM" : op == 1 ? "MAX" : "MIN";
    cur_v = 3;
    n_ref3_hom++;
    fill_case(x, count, dt, pa, 3 * count + 1, &b);
    fill_case(l, count, dt, pb, 5 * count + 2, &b);
    snprintf(what, sizeof what, "reference %s %s mode %d %g count %zu %s+%s", opn, eccl_dtype_name(dt), mc->mode,
             mc->value, count, pat_name(pa), pat_name(pb));
    for (int v = 1; v <= NV; v++) {
        int rc = ref_compress_v(x, count, (unsigned)dt, (unsigned)mc->mode, mc->value, range, (unsigned)v, &a[v],
                                &sa[v], why);
        if (rc == REF_OK)
            rc = ref_compress_v(l, count, (unsigned)dt, (unsigned)mc->mode, mc->value, range, (unsigned)v, &bb[v],
                                &sb[v], why);
        RD_CHECK(K_SELF, rc == REF_OK, "%s: ref_compress_v version %d: %s", what, v, why);
        if (rc != REF_OK) goto out;
        /* o[0]: reduce(a, l); o[1], o[2]: combine(a, b), combine(b, a) */
        for (int c = 0; c < 3; c++) {
            rc = c == 0 ? ref_hom(a[v], sa[v], NULL, 0, l, op, &o[c][v], &so[c][v], why)
                        : ref_hom(c == 1 ? a[v] : bb[v], c == 1 ? sa[v] : sb[v], c == 1 ? bb[v] : a[v],
                                  c == 1 ? sb[v] : sa[v], NULL, op, &o[c][v], &so[c][v], why);
            RD_CHECK(K_SELF, rc == REF_OK, "%s: ref_hom version %d: %s", what, v, why);
            if (rc != REF_OK) {
                o[c][v] = NULL;
                continue;
            }
            RD_CHECK(K_SELF, o[c][v][4] == v, "%s: ref_hom of version %d wrote version %d", what, v, o[c][v][4]);
        }
    }
    for (int c = 0; c < 3; c++) {
        char w2[240];
        snprintf(w2, sizeof w2, "%s (%s)", what, c == 0 ? "reduce" : "combine");
        ref_self_check(w2, NULL, count, dt, 2, o[c], so[c]);
        ref_self_check(w2, NULL, count, dt, 3, o[c], so[c]);
    }
    if (o[1][3] && o[2][3]) /* commutative, byte for byte */
        RD_CHECK(K_SELF, so[1][3] == so[2][3] && memcmp(o[1][3], o[2][3], so[1][3]) == 0,
                 "%s: combine is not commutative in version 3", what);
    if (op == 0) { /* section 11: the version majors must be equal */
        for (int v = 1; v <= 2; v++) {
            unsigned char *m = NULL;
            size_t sm = 0;
            int rc = ref_hom(a[3], sa[3], bb[v], sb[v], NULL, 0, &m, &sm, why);
            RD_CHECK(K_SELF, rc == REF_MISMATCH, "%s: ref_hom of versions 3 and %d gave %d", what, v, rc);
            if (rc == REF_OK) free(m);
        }
    }
out:
    for (int v = 1; v <= NV; v++) {
        free(a[v]);
        free(bb[v]);
        for (int c = 0; c < 3; c++) free(o[c][v]);
    }
    free(x);
    free(l);
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

/* The verdict on a crafted stream c (its checksum fixed): expect >= 0 is the verdict the spec
 * prescribes, and a CORRUPT one must come from a structural check, not the checksum. With lib,
 * the library and the reference must give the same verdict and, when both accept, the same
 * values. */
static void verdict(const char *what, unsigned char *c, size_t size, size_t count, eccl_dtype_t dt, int expect,
                    int lib)
{
    size_t esz = eccl_dtype_size(dt);
    void *y = tu_malloc(count * esz + 1), *z = tu_malloc(count * esz + 1);
    char why[REF_WHY_LEN] = "";
    ref_fix_checksum(c, size);
    int rrc = ref_decode(c, size, z, count, (unsigned)dt, why);
    if (lib) {
        eccl_result_t rc = eccl_decompress(c, size, y, count, dt);
        RD_CHECK(K_CRAFTED, (int)rc == rrc, "%s: library %d (%s), reference %d (%s)", what, (int)rc,
                 eccl_strerror(rc), rrc, why);
        if (rc == ECCL_SUCCESS && rrc == REF_OK)
            RD_CHECK(K_CRAFTED, memcmp(y, z, count * esz) == 0, "%s: both accept, values differ", what);
    }
    if (expect >= 0)
        RD_CHECK(K_SELF, rrc == expect && (rrc != REF_CORRUPT || strcmp(why, "checksum") != 0),
                 "%s: reference gives %d (%s), expected %d", what, rrc, why, expect);
    free(y);
    free(z);
}

/* A copy of src with tile `tile`'s form set to `form` (tile >= 0) and its version byte set to
 * vbyte (>= 0). */
static unsigned char *relabel(const unsigned char *src, size_t size, int tile, unsigned form, int vbyte)
{
    unsigned char *c = tu_malloc(size);
    memcpy(c, src, size);
    if (tile >= 0) {
        uint64_t e = ld64(c + 64 + 8 * (size_t)tile);
        e = (e & (((uint64_t)1 << 62) - 1)) | (uint64_t)form << 62;
        for (int i = 0; i < 8; i++) c[64 + 8 * tile + i] = (unsigned char)(e >> (8 * i));
    }
    if (vbyte >= 0) c[4] = (unsigned char)vbyte;
    return c;
}

/* A stream with its tile forms or version byte edited (checksum fixed): see verdict (with the
 * library when lib); expect >= 0 is the verdict section 4.1 prescribes (REF_CORRUPT for a rejected
 * form). */
static void crafted_lib(const char *what, const unsigned char *src, size_t size, size_t count, eccl_dtype_t dt,
                        int tile, unsigned form, int vbyte, int expect, int lib)
{
    unsigned char *c = relabel(src, size, tile, form, vbyte);
    verdict(what, c, size, count, dt, expect, lib);
    free(c);
}
static void crafted(const char *what, const unsigned char *src, size_t size, size_t count,
                    eccl_dtype_t dt, int tile, unsigned form, int vbyte, int expect)
{
    crafted_lib(what, src, size, count, dt, tile, form, vbyte, expect, 1);
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
        /* a version-2 stream relabelled 3 is a valid version-3 stream (forms 0 and 1 have the same
         * layout), not the one section 8.2 writes; 4 is a newer major version */
        crafted("sine float64 ABS 1e-6 relabelled version 3", st, size, count, ECCL_FLOAT64, -1, 0, 3, REF_OK);
        crafted("sine float64 ABS 1e-6 relabelled version 4", st, size, count, ECCL_FLOAT64, -1, 0, 4, REF_UNSUPPORTED);
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

/* Section 14's motivation, pinned (reference only): flat runs with jumps take form-2 tiles, ramps
 * with runs form-3 tiles (real dtypes; complex ones form 2 at most), and version 3 compresses them
 * better than version 2; every stream passes ref_self_check. */
static void sparse_ratio(void)
{
    const struct {
        eccl_dtype_t dt;
        double eb;
        int pattern, form;
        double gain; /* version 3 at least this much better than version 2 */
    } cs[] = {{ECCL_FLOAT32, 1e-4, PAT_FLAT, 2, 1.5}, {ECCL_FLOAT64, 1e-6, PAT_FLAT, 2, 1.5},
              {ECCL_COMPLEX64, 1e-4, PAT_FLAT, 2, 1.5}, {ECCL_FLOAT32, 1e-2, PAT_FLAT, 2, 1.5},
              {ECCL_FLOAT64, 1e-3, PAT_RAMP, 3, 1.5}, {ECCL_FLOAT32, 1e-3, PAT_RAMP, 3, 1.5}};
    const size_t count = quick ? 8192 * 3 + 77 : 8192 * 8 + 77;
    cur_v = 3;
    for (size_t c = 0; c < sizeof cs / sizeof *cs; c++) {
        size_t n = count * reals_of(cs[c].dt);
        void *x = tu_malloc(n * 8);
        unsigned char *rs[NV + 1] = {NULL};
        size_t rsz[NV + 1] = {0};
        char why[REF_WHY_LEN] = "", what[160];
        eccl_bound_t b = {ECCL_MODE_ABS, cs[c].eb, 0};
        fill_case(x, count, cs[c].dt, cs[c].pattern, 2 * c + 2, &b);
        snprintf(what, sizeof what, "%s %s ABS %g count %zu", eccl_dtype_name(cs[c].dt), pat_name(cs[c].pattern),
                 cs[c].eb, count);
        int ok = 1;
        for (int v = 1; v <= NV; v++)
            ok &= ref_compress_v(x, count, (unsigned)cs[c].dt, ECCL_MODE_ABS, cs[c].eb, 0, (unsigned)v, &rs[v],
                                 &rsz[v], why) == REF_OK;
        RD_CHECK(K_SELF, ok, "%s: ref_compress_v: %s", what, why);
        ref_header h;
        if (ok && ref_parse(rs[3], rsz[3], &h, why) == REF_OK) {
            ref_self_check(what, x, count, cs[c].dt, 3, rs, rsz);
            double bytes = (double)(n * (size_t)(is64_of(cs[c].dt) ? 8 : 4));
            double r1 = bytes / (double)rsz[1], r2 = bytes / (double)rsz[2], r3 = bytes / (double)rsz[3];
            printf("test_refdecode: %s: ratio %.2f (version 1), %.2f (version 2), %.2f (version 3); "
                   "version-3 tiles by form %llu/%llu/%llu/%llu\n",
                   what, r1, r2, r3, (unsigned long long)h.nt_form[0], (unsigned long long)h.nt_form[1],
                   (unsigned long long)h.nt_form[2], (unsigned long long)h.nt_form[3]);
            RD_CHECK(K_SELF, 4 * h.nt_form[cs[c].form] >= 3 * h.nt, "%s: %llu of %llu tiles take form %d", what,
                     (unsigned long long)h.nt_form[cs[c].form], (unsigned long long)h.nt, cs[c].form);
            RD_CHECK(K_SELF, r3 >= cs[c].gain * r2, "%s: ratio %.2f in version 3, %.2f in version 2", what, r3, r2);
        } else {
            RD_CHECK(K_SELF, !ok, "%s: own version-3 stream rejected: %s", what, why);
        }
        for (int v = 1; v <= NV; v++) free(rs[v]);
        free(x);
    }
}

/* What crafted_sparse needs to know of a version-3 stream: its blocks as ref_read_blocks reads
 * them, a few sparse ones kept whole. */
enum { SC_TILES = 8 };
typedef struct {
    int have_short, have_head, have_zero, have_mixed;
    ref_block shortb, headb, zerob, mixedb; /* sparse, F > 0: r < 32; head; k >= 2; s = 0 */
    int zero_j;                             /* zerob: a mapped delta that is not the only widest */
    uint64_t sp[SC_TILES], L[SC_TILES], bend[SC_TILES]; /* per tile: sparse stream, its bits, end of B */
} scan_ctx;

static void scan_cb(void *vctx, const ref_block *b)
{
    scan_ctx *c = (scan_ctx *)vctx;
    uint64_t t = b->index / 256;
    if (t >= SC_TILES) return;
    c->bend[t] = b->offset + (uint64_t)b->size;
    if (!b->sparse || b->F == 0) return;
    c->sp[t] = b->sp_offset;
    c->L[t] = b->sp_bit + (uint64_t)b->sp_bits;
    if (!c->have_short && b->r < 32) c->shortb = *b, c->have_short = 1;
    if (!c->have_head && b->head) c->headb = *b, c->have_head = 1;
    if (!c->have_mixed && b->s == 0) c->mixedb = *b, c->have_mixed = 1;
    if (!c->have_zero && b->k >= 2) { /* the narrowest mapped delta, if another is as wide as F */
        int j = 0, jmin = 0, wide = 0;
        uint64_t mmin = UINT64_MAX;
        for (int i = 0; i < b->r; i++) {
            if (!((b->zmap >> i) & 1)) continue;
            uint64_t m = (uint64_t)(b->d[i] < 0 ? -b->d[i] : b->d[i]);
            if (m < mmin) mmin = m, jmin = j;
            wide += m >> (b->F - 1) != 0;
            j++;
        }
        if (wide >= 2 || (wide == 1 && mmin >> (b->F - 1) == 0)) c->zerob = *b, c->zero_j = jmin, c->have_zero = 1;
    }
}

static void flip_bit(unsigned char *c, uint64_t byte, uint64_t bit, int set)
{
    byte += bit / 8;
    if (set) c[byte] |= (unsigned char)(1u << (bit % 8));
    else c[byte] &= (unsigned char)~(1u << (bit % 8));
}

/* Section 6.4, 7 and 4.1 violations in version-3 streams, each rejected as CORRUPT by a structural
 * check (the checksum fixed); and the forms a version or a dtype does not have. The library's
 * verdict is compared too when it reads and writes version 3 (lib_versions). */
static void crafted_sparse(void)
{
    const size_t count = 2 * 8192 + 52; /* float64: 3 tiles, the last block 20 values */
    const int lib = lib_has(3);
    double *x = tu_malloc(2 * count * sizeof *x);
    unsigned char *st = NULL, *c;
    size_t size = 0;
    char why[REF_WHY_LEN] = "", what[200];
    scan_ctx sc;
    ref_header h;
    cur_v = 3;
    memset(&sc, 0, sizeof sc);
    fill_flat(x, count, 1, 1); /* with NaNs */
    x[count - 5] += 3.0;     /* a jump in the short last block, and back: s = 0 */
    if (ref_compress_v(x, count, ECCL_FLOAT64, ECCL_MODE_ABS, 1e-6, 0, 3, &st, &size, why) != REF_OK ||
        ref_read_blocks(st, size, &h, scan_cb, &sc, why) != REF_OK) {
        RD_CHECK(K_SELF, 0, "crafted_sparse: own stream: %s", why);
        free(st);
        free(x);
        return;
    }
    RD_CHECK(K_SELF, sc.have_short && sc.have_head && sc.have_zero && sc.have_mixed && h.nt_form[2] == h.nt,
             "crafted_sparse: the stream lacks a kind of sparse block (%d %d %d %d) or a form-2 tile (%llu of %llu)",
             sc.have_short, sc.have_head, sc.have_zero, sc.have_mixed, (unsigned long long)h.nt_form[2],
             (unsigned long long)h.nt);
    const char *base = "flat-runs float64 ABS 1e-6 version 3";
    snprintf(what, sizeof what, "%s: as written", base);
    c = relabel(st, size, -1, 0, -1);
    verdict(what, c, size, count, ECCL_FLOAT64, REF_OK, lib);
    free(c);
    /* a map bit at r, and bit 0 of a head block's map: set alone (then L and the tile's size
     * change too), and set with the map's lowest other one cleared (L unchanged: only the map's
     * rule, section 6.4, rejects it) */
    for (int v = 0; v < 4; v++) {
        const ref_block *b = v < 2 ? &sc.shortb : &sc.headb;
        int bit = v < 2 ? b->r : 0;
        if (!(v < 2 ? sc.have_short : sc.have_head)) continue;
        c = relabel(st, size, -1, 0, -1);
        uint64_t at = b->offset + (b->head ? 6 : 0);
        flip_bit(c, at, (uint64_t)bit, 1);
        int low = 0;
        while (!((b->zmap >> low) & 1)) low++;
        if (v % 2) flip_bit(c, at, (uint64_t)low, 0);
        snprintf(what, sizeof what, "%s: %sblock %llu (r = %d): map bit %d set%s", base, b->head ? "head " : "",
                 (unsigned long long)b->index, b->r, bit, v % 2 ? ", its lowest one cleared" : "");
        verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
        free(c);
    }
    if (sc.have_zero) { /* a mapped delta of magnitude zero (F and L unchanged) */
        const ref_block *b = &sc.zerob;
        c = relabel(st, size, -1, 0, -1);
        for (int p = 0; p < b->F; p++)
            flip_bit(c, b->sp_offset, b->sp_bit + (uint64_t)((b->s == 0 ? b->k : 0) + p * b->k + sc.zero_j), 0);
        snprintf(what, sizeof what, "%s: block %llu: mapped delta %d zeroed", base, (unsigned long long)b->index,
                 sc.zero_j);
        verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
        free(c);
    }
    if (sc.have_mixed) { /* s = 0 with a compacted sign word of one sign */
        const ref_block *b = &sc.mixedb;
        c = relabel(st, size, -1, 0, -1);
        for (int j = 0; j < b->k; j++) flip_bit(c, b->sp_offset, b->sp_bit + (uint64_t)j, 0);
        snprintf(what, sizeof what, "%s: block %llu: sign word cleared", base, (unsigned long long)b->index);
        verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
        free(c);
    }
    int n_after_l = 0, n_before_a = 0, n_pad = 0;
    for (uint64_t t = 0; t < h.nt && t < SC_TILES; t++) {
        uint64_t off, len, end_words = sc.sp[t] + 4 * ((sc.L[t] + 31) / 32);
        tile_span(st, &h, t, &off, &len);
        if (sc.L[t] % 32 != 0) { /* a bit after the L-th */
            c = relabel(st, size, -1, 0, -1);
            flip_bit(c, sc.sp[t], sc.L[t] + (uint64_t)(t % 2) * (31 - sc.L[t] % 32), 1);
            snprintf(what, sizeof what, "%s: tile %llu: bit %llu of the sparse stream (L = %llu) set", base,
                     (unsigned long long)t, (unsigned long long)(sc.L[t] + (t % 2) * (31 - sc.L[t] % 32)),
                     (unsigned long long)sc.L[t]);
            verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
            free(c);
            n_after_l++;
        }
        if (sc.bend[t] < sc.sp[t]) { /* a byte between B and align4(B) */
            c = relabel(st, size, -1, 0, -1);
            c[sc.bend[t]] = 0x01;
            snprintf(what, sizeof what, "%s: tile %llu: byte %llu before the sparse stream set", base,
                     (unsigned long long)t, (unsigned long long)sc.bend[t]);
            verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
            free(c);
            n_before_a++;
        }
        if (end_words < h.P + off + len) { /* the last padding byte */
            c = relabel(st, size, -1, 0, -1);
            c[h.P + off + len - 1] = 0x80;
            snprintf(what, sizeof what, "%s: tile %llu: last padding byte set", base, (unsigned long long)t);
            verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
            free(c);
            n_pad++;
        }
    }
    RD_CHECK(K_SELF, n_after_l > 0 && n_before_a > 0 && n_pad > 0,
             "crafted_sparse: %d tiles with bits after L, %d with bytes before A, %d with padding", n_after_l,
             n_before_a, n_pad);
    /* a wrong tile size: tile 1's index entry 16 bytes further (tile 0 16 bytes longer, tile 1
     * shorter); then tile 0 really 16 zero bytes longer, everything after it moved */
    c = relabel(st, size, -1, 0, -1);
    {
        uint64_t e = ld64(c + 72) + 16;
        for (int i = 0; i < 8; i++) c[72 + i] = (unsigned char)(e >> (8 * i));
    }
    snprintf(what, sizeof what, "%s: tile 1's offset 16 bytes later", base);
    verdict(what, c, size, count, ECCL_FLOAT64, REF_CORRUPT, lib);
    free(c);
    {
        uint64_t off1, len1;
        tile_span(st, &h, 1, &off1, &len1);
        c = tu_malloc(size + 16);
        memcpy(c, st, h.P + off1);
        memset(c + h.P + off1, 0, 16);
        memcpy(c + h.P + off1 + 16, st + h.P + off1, size - (h.P + off1));
        for (uint64_t t = 1; t < h.nt; t++) {
            uint64_t e = ld64(c + 64 + 8 * t) + 16;
            for (int i = 0; i < 8; i++) c[64 + 8 * t + i] = (unsigned char)(e >> (8 * i));
        }
        uint64_t ss = size + 16;
        for (int i = 0; i < 8; i++) c[48 + i] = (unsigned char)(ss >> (8 * i));
        snprintf(what, sizeof what, "%s: tile 0 16 zero bytes longer", base);
        verdict(what, c, size + 16, count, ECCL_FLOAT64, REF_CORRUPT, lib);
        free(c);
    }
    /* versions without forms 2 and 3 */
    snprintf(what, sizeof what, "%s relabelled version 2", base);
    crafted_lib(what, st, size, count, ECCL_FLOAT64, -1, 0, 2, REF_CORRUPT, 1);
    snprintf(what, sizeof what, "%s relabelled version 1", base);
    crafted_lib(what, st, size, count, ECCL_FLOAT64, -1, 0, 1, REF_CORRUPT, 1);
    snprintf(what, sizeof what, "%s relabelled version 4", base);
    crafted_lib(what, st, size, count, ECCL_FLOAT64, -1, 0, 4, REF_UNSUPPORTED, 1);
    free(st);
    st = NULL;
    /* forms a stream's version, dtype or bound does not have: v2 and v1 streams given forms 2 and
     * 3, a complex stream forms 1 and 3, non-quantizing streams form 2 */
    const struct {
        eccl_dtype_t dt;
        int mode;
        double value;
        int v;
        unsigned form;
    } cs[] = {{ECCL_FLOAT64, 1, 1e-6, 2, 2},      {ECCL_FLOAT64, 1, 1e-6, 2, 3},   {ECCL_FLOAT32, 1, 1e-4, 1, 2},
              {ECCL_FLOAT32, 1, 1e-4, 1, 3},      {ECCL_COMPLEX64, 1, 1e-4, 3, 3}, {ECCL_COMPLEX64, 1, 1e-4, 3, 1},
              {ECCL_COMPLEX128, 1, 1e-6, 3, 3},   {ECCL_FLOAT64, 0, 0, 3, 2},      {ECCL_FLOAT32, 0, 0, 3, 3},
              {ECCL_FLOAT64, 1, 1e-305, 3, 2}};
    for (size_t k = 0; k < sizeof cs / sizeof *cs; k++) {
        size_t n = 8192 + 40;
        fill_flat(x, n * reals_of(cs[k].dt), is64_of(cs[k].dt), 4);
        if (ref_compress_v(x, n, (unsigned)cs[k].dt, (unsigned)cs[k].mode, cs[k].value, 0, (unsigned)cs[k].v, &st,
                           &size, why) != REF_OK) {
            RD_CHECK(K_SELF, 0, "crafted_sparse: ref_compress_v: %s", why);
            continue;
        }
        for (int t = 0; t < 2; t++) {
            snprintf(what, sizeof what, "flat-runs %s mode %d %g version %d: tile %d (form %u) form %u",
                     eccl_dtype_name(cs[k].dt), cs[k].mode, cs[k].value, cs[k].v, t, ref_tile_form(st, (uint64_t)t),
                     cs[k].form);
            crafted_lib(what, st, size, n, cs[k].dt, t, cs[k].form, -1, REF_CORRUPT, cs[k].v < 3 || lib);
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
                        pat != TU_RANDOMWALK && pat != TU_HUGE && pat != PAT_SINE && pat != PAT_L2EDGE &&
                        pat != PAT_FLAT && pat != PAT_RAMP)
                        continue;
                    one(dtypes[d], &modes[m], count, pat); /* every version */
                }
            }
        }
    }
    smooth_ratio();
    crafted_forms();
    sparse_ratio();
    crafted_sparse();
    /* Section 11 */
    const size_t hsizes[] = {1, 31, 33, 100, 8193, 16500};
    const struct {
        int a, b, big; /* big: also at the sizes above 1000 */
    } hpat[] = {{TU_SMOOTH, TU_SMOOTH, 1},    {TU_SMOOTH, TU_RANDOM, 1},      {TU_NANINF, TU_SMOOTH, 1},
                {TU_HUGE, TU_RANDOMWALK, 0},  {TU_ZEROS, TU_CONSTANT, 0},     {TU_NORMAL, TU_HUGE, 0},
                {TU_ALTERNATING, TU_DENORMAL, 0}, {TU_MIXED_SCALE, TU_SMOOTH, 0}, {PAT_SINE, PAT_SINE, 1},
                {PAT_L2EDGE, PAT_SINE, 1},    {PAT_L2EDGE, PAT_L2EDGE, 0},    {PAT_FLAT, PAT_FLAT, 1},
                {PAT_RAMP, PAT_FLAT, 1},      {PAT_RAMP, PAT_RAMP, 0}};
    /* the library in lib_versions (vi < NLIBV), then the reference alone in version 3 */
    for (int vi = 0; vi <= NLIBV; vi++) {
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
                            if (vi < NLIBV)
                                hom_case(dtypes[d], &modes[m], hsizes[si], hpat[pi].a, hpat[pi].b, op,
                                         lib_versions[vi]);
                            else
                                hom_ref(dtypes[d], &modes[m], hsizes[si], hpat[pi].a, hpat[pi].b, op);
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
    printf("test_refdecode: version 3: %ld streams, %ld homomorphic cases against the library; the reference "
           "alone: %ld streams, %ld homomorphic cases, its streams' %ld tiles by form %ld/%ld/%ld/%ld\n",
           n_streams[2], n_hom[2], n_ref3_streams, n_ref3_hom, n_tiles_v3, n_form_v3[0], n_form_v3[1],
           n_form_v3[2], n_form_v3[3]);
    for (int v = 1; v <= NV; v++)
        for (int k = 0; k < K_NKINDS; k++)
            TU_CHECK(kind_fail[v - 1][k] == 0, "version %d: %ld cases where %s", v, kind_fail[v - 1][k],
                     kind_name[k]);
    return tu_finish("test_refdecode");
}
