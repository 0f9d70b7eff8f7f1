/*
 * test_corrupt.c - a decoder must reject every damaged or invalid stream cleanly: the right
 * result code, no crash, nothing read outside the given buffer (the sanitizer build reruns this).
 *
 *  1. truncation at every length, of small streams of every dtype;
 *  2. every single-bit flip of those streams;
 *  3. crafted streams whose checksum is recomputed after the change (so the structural and
 *     canonical-form validation behind the checksum is exercised), one rule of doc/format.md
 *     broken at a time; each next to a valid twin, so the test proves the rule and not an
 *     accident of the construction;
 *  4. wrong count/dtype (ECCL_ERR_MISMATCH) and sizes larger than the stream (ECCL_ERR_CORRUPT).
 *
 * Every damaged stream is copied into a heap buffer of exactly its size, and is given to
 * eccl_stream_info, eccl_decompress, eccl_hom_reduce and eccl_hom_combine (both positions), and
 * to the reference decoder (tests/ref_decoder.c), which must all agree with the expected code.
 * eccl_stream_info does no payload decoding (eccl.h), so for payload-level (canonical form)
 * violations it is only required not to crash, and to succeed.
 */
#include "golden_inputs.h"
#include "ref_decoder.h"
#include "testutil.h"

static long n_cases;

static void st32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static void st64(unsigned char *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static uint64_t ld64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static void stf64(unsigned char *p, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    st64(p, u);
}

/* Expected results: for the header-level checks every entry point agrees; for payload-level
 * violations stream_info (which reads no payload) succeeds. */
typedef struct {
    eccl_result_t decode; /* eccl_decompress, hom_reduce, hom_combine, reference decoder */
    eccl_result_t info;   /* eccl_stream_info */
} expect_t;
static const expect_t E_CORRUPT = {ECCL_ERR_CORRUPT, ECCL_ERR_CORRUPT};
static const expect_t E_PAYLOAD = {ECCL_ERR_CORRUPT, ECCL_SUCCESS};
static const expect_t E_OK = {ECCL_SUCCESS, ECCL_SUCCESS};
static const expect_t E_UNSUPPORTED = {ECCL_ERR_UNSUPPORTED, ECCL_ERR_UNSUPPORTED};

/* Run every entry point on `len` bytes of `src` (copied to an exact-size heap buffer). dtype and
 * count for decompress/hom_reduce are read from the header when they make sense, so that a
 * MISMATCH never hides the corruption. `quiet` limits the failure messages of bulk loops. */
static int try_stream(const char *what, const unsigned char *src, size_t len, expect_t e)
{
    int ok = 1;
    unsigned char *s = tu_malloc(len);
    memcpy(s, src, len);
    n_cases++;
    eccl_dtype_t dt = ECCL_FLOAT32;
    uint64_t count = 0;
    if (len >= 24) {
        if (s[6] >= 1 && s[6] <= 4) dt = (eccl_dtype_t)s[6];
        count = ld64(s + 16);
    }
    if (count > 1000000) count = 0; /* absurd counts: the header is rejected before the size */
    size_t esz = eccl_dtype_size(dt);
    void *x = calloc(count ? count : 1, esz);
    size_t cap = eccl_compress_bound(count, dt), osz = 0;
    unsigned char *o = tu_malloc(cap);
    char why[REF_WHY_LEN] = "";
    eccl_stream_info_t info;

    eccl_result_t rc = eccl_stream_info(s, len, &info);
    ok &= rc == e.info;
    TU_CHECK(rc == e.info, "%s: eccl_stream_info gave %d (%s), expected %d", what, rc, eccl_strerror(rc), e.info);
    rc = eccl_decompress(s, len, x, (size_t)count, dt);
    ok &= rc == e.decode;
    TU_CHECK(rc == e.decode, "%s: eccl_decompress gave %d (%s), expected %d", what, rc, eccl_strerror(rc), e.decode);
    memset(x, 0, count * esz);
    rc = eccl_hom_reduce(s, len, x, (size_t)count, dt, ECCL_OP_SUM, o, cap, &osz);
    ok &= rc == e.decode;
    TU_CHECK(rc == e.decode, "%s: eccl_hom_reduce gave %d (%s), expected %d", what, rc, eccl_strerror(rc), e.decode);
    rc = eccl_hom_combine(s, len, s, len, ECCL_OP_SUM, o, cap, &osz);
    ok &= rc == e.decode;
    TU_CHECK(rc == e.decode, "%s: eccl_hom_combine gave %d (%s), expected %d", what, rc, eccl_strerror(rc), e.decode);
    int rrc = ref_decode(s, len, x, count, (unsigned)dt, why);
    ok &= rrc == (int)e.decode;
    TU_CHECK(rrc == (int)e.decode, "%s: the reference decoder gave %d (%s), expected %d", what, rrc, why, e.decode);
    free(s);
    free(x);
    free(o);
    return ok;
}

/* A second stream in the other operand position of hom_combine. */
static void try_combine_with(const char *what, const unsigned char *bad, size_t blen,
                             const unsigned char *good, size_t glen, eccl_result_t expect)
{
    unsigned char *s = tu_malloc(blen);
    memcpy(s, bad, blen);
    size_t cap = eccl_compress_bound(ld64(good + 16), (eccl_dtype_t)good[6]), osz;
    unsigned char *o = tu_malloc(cap);
    eccl_result_t r1 = eccl_hom_combine(good, glen, s, blen, ECCL_OP_SUM, o, cap, &osz);
    eccl_result_t r2 = eccl_hom_combine(s, blen, good, glen, ECCL_OP_SUM, o, cap, &osz);
    TU_CHECK(r1 == expect && r2 == expect, "%s: hom_combine with a good stream gave %d/%d, expected %d",
             what, r1, r2, expect);
    free(s);
    free(o);
}

/* ------------------------------------------------------------------------------------------- */
/* 1 and 2: truncations and bit flips of real streams                                           */

typedef struct {
    unsigned char *s;
    size_t size;
    const char *name;
} stream_t;

static stream_t make(const golden_case *g)
{
    stream_t r;
    void *x = tu_malloc(g->count * eccl_dtype_size(g->dtype));
    size_t cap = eccl_compress_bound(g->count, g->dtype);
    r.s = tu_malloc(cap);
    r.name = g->name;
    g->fill(x, g->count);
    if (eccl_compress(x, g->count, g->dtype, &g->bound, r.s, cap, &r.size) != ECCL_SUCCESS) {
        fprintf(stderr, "compress failed\n");
        exit(1);
    }
    free(x);
    return r;
}

static void truncations(const stream_t *st)
{
    int bad = 0;
    char what[128];
    for (size_t len = 0; len < st->size && bad < 3; len++) {
        snprintf(what, sizeof what, "%s truncated to %zu of %zu bytes", st->name, len, st->size);
        if (!try_stream(what, st->s, len, E_CORRUPT)) bad++;
        if (len % 7 == 0) try_combine_with(what, st->s, len, st->s, st->size, ECCL_ERR_CORRUPT);
    }
}

static void bit_flips(const stream_t *st)
{
    int bad = 0;
    char what[128];
    unsigned char *c = tu_malloc(st->size);
    for (size_t byte = 0; byte < st->size && bad < 3; byte++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(c, st->s, st->size);
            c[byte] ^= (unsigned char)(1u << bit);
            expect_t e = E_CORRUPT;
            /* The version byte: eccl.h documents UNSUPPORTED for a newer major version; a major
             * version 0 never existed, so that stream is simply not an eccl stream. */
            if (byte == 4 && c[4] > ECCL_FORMAT_VERSION_READ_MAX) e = E_UNSUPPORTED;
            /* (a single flip of version 1 never gives 2, the other version read) */
            /* major 0: covered once by crafted_header ("version major 0"), not 8 times here */
            if (byte == 4 && c[4] == 0) continue;
            snprintf(what, sizeof what, "%s: bit %d of byte %zu flipped (%02x -> %02x)", st->name,
                     bit, byte, st->s[byte], c[byte]);
            if (!try_stream(what, c, st->size, e)) bad++;
            if (byte % 5 == 0 && bit == 3)
                try_combine_with(what, c, st->size, st->s, st->size, e.decode);
        }
    }
    free(c);
}

/* ------------------------------------------------------------------------------------------- */
/* 3: crafted streams                                                                           */

/* A header field changed in a real stream, checksum recomputed. */
static void header_case(const char *what, const stream_t *st, size_t off, const void *bytes,
                        size_t n, expect_t e)
{
    unsigned char *c = tu_malloc(st->size);
    memcpy(c, st->s, st->size);
    memcpy(c + off, bytes, n);
    ref_fix_checksum(c, st->size);
    try_stream(what, c, st->size, e);
    free(c);
}
static void header_u8(const char *what, const stream_t *st, size_t off, unsigned v, expect_t e)
{
    unsigned char b = (unsigned char)v;
    header_case(what, st, off, &b, 1, e);
}
static void header_u64(const char *what, const stream_t *st, size_t off, uint64_t v, expect_t e)
{
    unsigned char b[8];
    st64(b, v);
    header_case(what, st, off, b, 8, e);
}
static void header_f64(const char *what, const stream_t *st, size_t off, double v, expect_t e)
{
    unsigned char b[8];
    stf64(b, v);
    header_case(what, st, off, b, 8, e);
}

/* Builder of single-tile streams from block codes and payloads (doc/format.md section 2). */
typedef struct {
    unsigned code;
    int len;
    unsigned char b[520];
} cblock;

typedef struct {
    int dtype, mode;
    double bound, eb, range;
    uint64_t count;
    int nb;
    cblock blk[4];
} cstream;

static void blk_u32(cblock *b, uint32_t v)
{
    st32(b->b + b->len, v);
    b->len += 4;
}
static void blk_bytes(cblock *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++) b->b[b->len++] = (unsigned char)(v >> (8 * i));
}
static uint64_t zz(int64_t v) { return v >= 0 ? 2 * (uint64_t)v : 2 * (uint64_t)(-v) - 1; }

static unsigned char *build(const cstream *c, size_t *size)
{
    uint64_t n = c->count * (c->dtype >= 3 ? 2 : 1), nb = (n + 31) / 32;
    if ((int)nb != c->nb || nb > 256) {
        fprintf(stderr, "build: %d blocks given, %llu needed\n", c->nb, (unsigned long long)nb);
        exit(1);
    }
    size_t P = (64 + 8 + nb + 15) / 16 * 16, pay = 0;
    for (int k = 0; k < c->nb; k++) pay += (size_t)c->blk[k].len;
    size_t padded = (pay + 15) / 16 * 16;
    *size = P + (nb ? padded : 0);
    unsigned char *s = calloc(*size, 1);
    memcpy(s, "ECCL", 4);
    s[4] = 1;
    s[6] = (unsigned char)c->dtype;
    s[7] = (unsigned char)c->mode;
    s[8] = 5;
    s[9] = 8;
    st32(s + 12, 1);
    st64(s + 16, c->count);
    stf64(s + 24, c->bound);
    stf64(s + 32, c->eb);
    stf64(s + 40, c->range);
    st64(s + 48, *size);
    size_t at = P;
    for (int k = 0; k < c->nb; k++) {
        s[64 + 8 + k] = (unsigned char)c->blk[k].code;
        memcpy(s + at, c->blk[k].b, (size_t)c->blk[k].len);
        at += (size_t)c->blk[k].len;
    }
    ref_fix_checksum(s, *size);
    return s;
}

static void craft(const char *what, const cstream *c, expect_t e)
{
    size_t size;
    unsigned char *s = build(c, &size);
    try_stream(what, s, size, e);
    free(s);
}

static cstream f32_stream(int mode, double bound, uint64_t count)
{
    cstream c;
    memset(&c, 0, sizeof c);
    c.dtype = ECCL_FLOAT32;
    c.mode = mode;
    c.bound = bound;
    c.eb = bound;
    c.count = count;
    c.nb = (int)((count + 31) / 32);
    return c;
}

/* A valid f32 ABS 0.5 (D = 1) head Lorenzo block of r values with integers q[] */
static void quant_head_f32(cblock *b, const int64_t *q, int r)
{
    int64_t d[32];
    uint64_t any = 0;
    uint32_t neg = 0, pos = 0;
    for (int i = 1; i < r; i++) {
        d[i] = q[i] - q[i - 1];
        any |= (uint64_t)(d[i] < 0 ? -d[i] : d[i]);
        if (d[i] < 0) neg |= 1u << i;
        if (d[i] > 0) pos |= 1u << i;
    }
    int F = 0;
    while (any >> F) F++;
    int s = F == 0 ? 0 : !neg ? 1 : !pos ? 2 : 0;
    b->code = (unsigned)(s << 6) | (unsigned)(F <= 30 ? F : 31);
    b->len = 0;
    blk_bytes(b, zz(q[0]), 4);
    if (F > 0 && s == 0) blk_u32(b, neg);
    for (int j = 0; j < (F <= 30 ? F : 31); j++) {
        uint32_t w = 0;
        for (int i = 1; i < r; i++) w |= (uint32_t)(((uint64_t)(d[i] < 0 ? -d[i] : d[i]) >> j) & 1) << i;
        blk_u32(b, w);
    }
}

static void crafted_header(const stream_t *g1, const stream_t *g2, const stream_t *g3)
{
    /* the unmodified streams first: the checksum fix-up itself must change nothing */
    header_u8("G1 unchanged", g1, 6, 1, E_OK);
    header_u8("G2 unchanged", g2, 6, 2, E_OK);

    header_u8("magic 'ECCM'", g1, 3, 'M', E_CORRUPT);
    header_u8("magic 'eCCL'", g1, 0, 'e', E_CORRUPT);
    /* a version-1 stream relabelled 2 is a valid version-2 stream: every tile of form 0 (format.md
     * section 13) */
    header_u8("version major 2 (all tiles form 0: accepted)", g1, 4, 2, E_OK);
    header_u8("version major 3 (all tiles form 0: accepted)", g1, 4, 3, E_OK);
    header_u8("version major 4", g1, 4, 4, E_UNSUPPORTED);
    header_u8("version major 255", g1, 4, 255, E_UNSUPPORTED);
    header_u8("version major 0", g1, 4, 0, E_CORRUPT);
    header_u8("version minor 7 (accepted: section 12)", g1, 5, 7, E_OK);
    {
        unsigned char *c = tu_malloc(g1->size);
        eccl_stream_info_t info;
        memcpy(c, g1->s, g1->size);
        c[5] = 7;
        ref_fix_checksum(c, g1->size);
        TU_RC(eccl_stream_info(c, g1->size, &info), ECCL_SUCCESS);
        TU_CHECK(info.version_major == 1 && info.version_minor == 7, "minor version 7 in stream_info");
        free(c);
    }
    header_u8("dtype 0", g1, 6, 0, E_CORRUPT);
    header_u8("dtype 5", g1, 6, 5, E_CORRUPT);
    header_u8("dtype 255", g1, 6, 255, E_CORRUPT);
    /* G1 read as float64: the codes still give a consistent layout (72 -> 74 payload bytes, both
     * padded to 80), so only the payload shows the damage */
    header_u8("dtype 2 for float32 data", g1, 6, 2, E_PAYLOAD);
    header_u8("mode 3", g1, 7, 3, E_CORRUPT);
    header_u8("mode 255", g1, 7, 255, E_CORRUPT);
    header_u8("mode LOSSLESS with ABS fields", g1, 7, 0, E_CORRUPT);
    header_u8("block log 4", g1, 8, 4, E_CORRUPT);
    header_u8("block log 6", g1, 8, 6, E_CORRUPT);
    header_u8("tile log 7", g1, 9, 7, E_CORRUPT);
    header_u8("tile log 9", g1, 9, 9, E_CORRUPT);
    header_u8("flags 1", g1, 10, 1, E_CORRUPT);
    header_u8("flags 0x8000", g1, 11, 0x80, E_CORRUPT);
    {
        unsigned char z[4] = {0, 0, 0, 0};
        header_case("nsum 0", g1, 12, z, 4, E_CORRUPT);
    }
    header_u64("count 0 (payload left over)", g1, 16, 0, E_CORRUPT);
    header_u64("count 300 (codes run into the payload)", g1, 16, 300, E_CORRUPT);
    header_u64("count 10^6 (P beyond stream_size)", g1, 16, 1000000, E_CORRUPT);
    header_u64("count 2^60 (n*W = 2^62, P beyond stream_size)", g1, 16, (uint64_t)1 << 60, E_CORRUPT);
    header_u64("count 2^64-1", g1, 16, UINT64_MAX, E_CORRUPT);
    header_u64("count 2^62/4 + 1 float32", g1, 16, ((uint64_t)1 << 60) + 1, E_CORRUPT);

    /* section 3.1: eb_abs must be what mode, bound and range give */
    header_f64("eb_abs one ulp above bound", g1, 32, nextafter(1e-3, 1.0), E_CORRUPT);
    header_f64("eb_abs one ulp below bound", g1, 32, nextafter(1e-3, 0.0), E_CORRUPT);
    header_f64("eb_abs 0 in ABS", g1, 32, 0.0, E_CORRUPT);
    header_f64("bound changed, eb_abs not", g1, 24, 2e-3, E_CORRUPT);
    header_f64("ABS with range 1", g1, 40, 1.0, E_CORRUPT);
    header_f64("ABS with range NaN", g1, 40, NAN, E_CORRUPT);
    header_f64("ABS bound NaN", g1, 24, NAN, E_CORRUPT);
    header_f64("ABS bound +inf", g1, 24, INFINITY, E_CORRUPT);
    header_f64("ABS bound -1e-3", g1, 24, -1e-3, E_CORRUPT);
    header_f64("REL range NaN", g2, 40, NAN, E_CORRUPT);
    header_f64("REL range -13.32", g2, 40, -13.32, E_CORRUPT);
    header_f64("REL range doubled", g2, 40, 2 * 13.32, E_CORRUPT);
    header_f64("REL bound 0", g2, 24, 0.0, E_CORRUPT);
    header_f64("REL bound inf", g2, 24, INFINITY, E_CORRUPT);
    header_f64("LOSSLESS with bound 1", g3, 24, 1.0, E_CORRUPT);
    header_f64("LOSSLESS with eb_abs 1e-300", g3, 32, 1e-300, E_CORRUPT);
    header_f64("LOSSLESS with range 1", g3, 40, 1.0, E_CORRUPT);

    /* stream_size (section 2) */
    header_u64("stream_size - 16", g1, 48, g1->size - 16, E_CORRUPT);
    header_u64("stream_size - 4 (not a multiple of 16)", g1, 48, g1->size - 4, E_CORRUPT);
    header_u64("stream_size + 16 (beyond the buffer)", g1, 48, g1->size + 16, E_CORRUPT);
    header_u64("stream_size 64 (< P)", g1, 48, 64, E_CORRUPT);
    header_u64("stream_size 2^64-16", g1, 48, UINT64_MAX - 15, E_CORRUPT);
    {
        /* 16 zero bytes more, and stream_size says so: the tiles end before the stream */
        unsigned char *c = calloc(g1->size + 16, 1);
        memcpy(c, g1->s, g1->size);
        st64(c + 48, g1->size + 16);
        ref_fix_checksum(c, g1->size + 16);
        try_stream("16 trailing zero bytes inside stream_size", c, g1->size + 16, E_CORRUPT);
        free(c);
    }
}

static void crafted_structure(const stream_t *g1)
{
    /* nonzero byte between the block codes and P (G1: codes at 72, 73; P = 80) */
    header_u8("nonzero byte after the block codes", g1, 74, 1, E_CORRUPT);
    header_u8("nonzero byte just before P", g1, 79, 0x80, E_CORRUPT);
    /* G1's tile: 72 payload bytes, padded to 80 -> payload bytes 72..79 (stream 152..159) */
    header_u8("nonzero tile padding (first)", g1, 152, 1, E_CORRUPT);
    header_u8("nonzero tile padding (last)", g1, 159, 1, E_CORRUPT);
    header_u64("tile index 0 = 16", g1, 64, 16, E_CORRUPT);

    /* two tiles: 8193 float32 smooth (257 blocks) */
    {
        size_t count = 8193, cap = eccl_compress_bound(count, ECCL_FLOAT32);
        float *x = tu_malloc(count * 4);
        stream_t st = {tu_malloc(cap), 0, "two tiles"};
        eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
        tu_fill(x, count, 0, TU_SMOOTH, 1);
        TU_RC(eccl_compress(x, count, ECCL_FLOAT32, &b, st.s, cap, &st.size), ECCL_SUCCESS);
        uint64_t e1 = ld64(st.s + 72);
        header_u64("two tiles unchanged", &st, 72, e1, E_OK);
        header_u64("tile index 1 + 16", &st, 72, e1 + 16, E_CORRUPT);
        header_u64("tile index 1 - 16", &st, 72, e1 - 16, E_CORRUPT);
        header_u64("tile index 1 = 0", &st, 72, 0, E_CORRUPT);
        header_u64("tile index 1 = 2^64-16", &st, 72, UINT64_MAX - 15, E_CORRUPT);
        free(x);
        free(st.s);
    }

    /* ---- block codes (section 5, 6) ---- */
    cstream c;
    /* QUANT in a LOSSLESS stream: 32 zeros are RAW CODED(0) = u_0 only */
    c = f32_stream(ECCL_MODE_LOSSLESS, 0.0, 32);
    c.eb = 0.0;
    c.blk[0].code = 0xC0;
    blk_u32(&c.blk[0], 0);
    craft("LOSSLESS zeros as RAW CODED(0)", &c, E_OK);
    c.blk[0].code = 0x20;
    c.blk[0].len = 0;
    craft("zero block (QUANT) in a LOSSLESS stream", &c, E_CORRUPT);
    /* QUANT with eb_abs below 2^-1000 */
    c = f32_stream(ECCL_MODE_ABS, 1e-305, 32);
    c.blk[0].code = 0xC0;
    blk_u32(&c.blk[0], 0);
    craft("ABS 1e-305 zeros as RAW CODED(0)", &c, E_OK);
    c.blk[0].code = 0x20;
    c.blk[0].len = 0;
    craft("zero block with eb_abs < 2^-1000", &c, E_CORRUPT);
    /* ... while 2^-1000 itself quantizes */
    c = f32_stream(ECCL_MODE_ABS, ldexp(1.0, -1000), 32);
    c.blk[0].code = 0x20;
    craft("zero block with eb_abs = 2^-1000", &c, E_OK);

    /* QUANT F = 0 with sign mode 1 or 2 */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 32);
    c.blk[0].code = 0x20;
    craft("zero block 0x20", &c, E_OK);
    c.blk[0].code = 0x60;
    craft("QUANT none F=0 sign mode 1 (0x60)", &c, E_CORRUPT);
    c.blk[0].code = 0xA0;
    craft("QUANT none F=0 sign mode 2 (0xA0)", &c, E_CORRUPT);
    c.blk[0].code = 0x40;
    blk_u32(&c.blk[0], 0);
    craft("QUANT Lorenzo F=0 sign mode 1 (0x40)", &c, E_CORRUPT);
    c.blk[0].code = 0x00;
    craft("QUANT Lorenzo head F=0, q0 = 0 (0x00)", &c, E_OK);

    /* QUANT larger than r*W: r = 1, predictor none, F = 2 with a map: 12 > 4 bytes */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 1);
    c.blk[0].code = 0x22;
    blk_u32(&c.blk[0], 0);
    blk_u32(&c.blk[0], 1);
    blk_u32(&c.blk[0], 0);
    craft("QUANT of 12 bytes for 1 value", &c, E_CORRUPT);
    c.blk[0] = (cblock){0x00, 0, {0}};
    blk_bytes(&c.blk[0], zz(-3), 4);
    craft("1 value, head Lorenzo q0 = -3", &c, E_OK);

    /* RAW CODED plane counts: r = 32 float32 holds 4 + 4 + 4F < 128 -> F <= 29 */
    {
        c = f32_stream(ECCL_MODE_LOSSLESS, 0.0, 32);
        c.eb = 0.0;
        cblock *b = &c.blk[0];
        b->code = 0xC0 | 29;
        blk_u32(b, 0x3F800000u); /* 1.0: key 0xBF800000 */
        blk_u32(b, 0);           /* sign map */
        for (int j = 0; j < 29; j++) blk_u32(b, j == 28 ? 2u : 0u); /* d_1 = 2^28 */
        craft("RAW CODED(29), 124 bytes", &c, E_OK);
        b->code = 0xC0 | 30;
        blk_u32(b, 0);
        craft("RAW CODED(30): 128 bytes, not below r*W", &c, E_CORRUPT);
        b->code = 0xC0 | 33;
        for (int j = 0; j < 3; j++) blk_u32(b, 0);
        craft("RAW CODED(33) for float32", &c, E_CORRUPT);
        /* f64 RAW CODED(62): 8 + 4 + 248 > 256 */
        cstream d;
        memset(&d, 0, sizeof d);
        d.dtype = ECCL_FLOAT64;
        d.count = 32;
        d.nb = 1;
        d.blk[0].code = 0xC0 | 62;
        d.blk[0].len = 260;
        craft("RAW CODED(62) for float64", &d, E_CORRUPT);
        /* short blocks: r = 1 RAW CODED(0) is 4 bytes, not below 4 */
        c = f32_stream(ECCL_MODE_LOSSLESS, 0.0, 1);
        c.eb = 0.0;
        c.blk[0].code = 0xC0;
        blk_u32(&c.blk[0], 0x40490FDBu);
        craft("RAW CODED(0) for 1 value", &c, E_CORRUPT);
        c.blk[0].code = 0xFF;
        craft("VERBATIM for 1 value", &c, E_OK);
        /* r = 2: CODED(1) is 12 bytes, not below 8 */
        c = f32_stream(ECCL_MODE_LOSSLESS, 0.0, 2);
        c.eb = 0.0;
        c.blk[0].code = 0xC1;
        blk_u32(&c.blk[0], 0x3F800000u);
        blk_u32(&c.blk[0], 0);
        blk_u32(&c.blk[0], 2);
        craft("RAW CODED(1) for 2 values", &c, E_CORRUPT);
    }
}

static void crafted_payload(void)
{
    cstream c;
    cblock *b;
    int64_t q[32];

    /* ---- QUANT, ABS 0.5 (D = 1), 7 values {1,-1,1,-1,0,1,-1}: predictor none, F 1, map ---- */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 7);
    b = &c.blk[0];
    b->code = 0x21;
    blk_u32(b, 0x4A);
    blk_u32(b, 0x6F);
    craft("G6 block rebuilt", &c, E_OK);
    b->len = 0;
    blk_u32(b, 0x4A);
    blk_u32(b, 0xEF);
    craft("plane bit at position r = 7", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x8000004A);
    blk_u32(b, 0x6F);
    craft("sign map bit 31 with r = 7", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x5A);
    blk_u32(b, 0x6F);
    craft("sign bit on a zero delta (QUANT)", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x6F);
    blk_u32(b, 0x6F);
    craft("sign map: all negative with sign mode 0", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x00);
    blk_u32(b, 0x6F);
    craft("sign map: all positive with sign mode 0", &c, E_PAYLOAD);
    b->code = 0x22;
    b->len = 0;
    blk_u32(b, 0x4A);
    blk_u32(b, 0x6F);
    blk_u32(b, 0);
    craft("top plane zero (F = 2, bit length 1)", &c, E_PAYLOAD);
    b->code = 0x61; /* sign mode 1, none, F 1: the negative values cannot be expressed */
    b->len = 0;
    blk_u32(b, 0x25);
    craft("sign mode 1, predictor none, 1,0,1,0,0,1,0", &c, E_OK);

    /* ---- head Lorenzo blocks ---- */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 32);
    for (int i = 0; i < 32; i++) q[i] = 100 + (i % 3) - (i % 5);
    quant_head_f32(&c.blk[0], q, 32);
    craft("head Lorenzo block", &c, E_OK);
    b = &c.blk[0];
    TU_CHECK((b->code >> 5) == 0 && (b->code & 31) > 0, "helper: code %02x", b->code);
    {
        cblock keep = *b;
        b->b[4] |= 1; /* bit 0 of the sign map: d_0 is not coded */
        craft("head Lorenzo: sign map bit 0", &c, E_PAYLOAD);
        *b = keep;
        b->b[8] |= 1; /* bit 0 of plane 0 */
        craft("head Lorenzo: plane 0 bit 0", &c, E_PAYLOAD);
        *b = keep;
    }
    /* head value: |q0| <= QMAX = 2^30 - 1 for f32 */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 32);
    c.blk[0].code = 0x00;
    blk_bytes(&c.blk[0], zz(((int64_t)1 << 30) - 1), 4);
    craft("head q0 = QMAX (f32)", &c, E_OK);
    c.blk[0].len = 0;
    blk_bytes(&c.blk[0], zz((int64_t)1 << 30), 4);
    craft("head q0 = QMAX + 1 (f32)", &c, E_PAYLOAD);
    c.blk[0].len = 0;
    blk_bytes(&c.blk[0], zz(-((int64_t)1 << 30)), 4);
    craft("head q0 = -QMAX - 1 (f32)", &c, E_PAYLOAD);
    c.blk[0].len = 0;
    blk_bytes(&c.blk[0], 0xFFFFFFFFu, 4);
    craft("head zz = 2^32 - 1 (f32)", &c, E_PAYLOAD);
    /* a delta that leaves QMAX: q0 = QMAX, d_1 = +1 */
    c.blk[0].code = 0x41;
    c.blk[0].len = 0;
    blk_bytes(&c.blk[0], zz(((int64_t)1 << 30) - 1), 4);
    blk_u32(&c.blk[0], 2);
    craft("q0 = QMAX, d_1 = +1", &c, E_PAYLOAD);
    c.blk[0].code = 0x81;
    craft("q0 = QMAX, d_1 = -1", &c, E_OK);
    /* f64: H = 6 bytes, QMAX = 2^44 - 1 */
    {
        cstream d;
        memset(&d, 0, sizeof d);
        d.dtype = ECCL_FLOAT64;
        d.mode = ECCL_MODE_ABS;
        d.bound = d.eb = 0.5;
        d.count = 3;
        d.nb = 1;
        d.blk[0].code = 0x00;
        blk_bytes(&d.blk[0], zz(((int64_t)1 << 44) - 1), 6);
        craft("head q0 = QMAX (f64)", &d, E_OK);
        d.blk[0].len = 0;
        blk_bytes(&d.blk[0], zz((int64_t)1 << 44), 6);
        craft("head q0 = QMAX + 1 (f64)", &d, E_PAYLOAD);
        d.blk[0].len = 0;
        blk_bytes(&d.blk[0], ((uint64_t)1 << 48) - 1, 6);
        craft("head zz = 2^48 - 1 (f64)", &d, E_PAYLOAD);
        /* f64 fc = 31 (F = 45) needs a bit length of 31..45: predictor none, 1 value, s = 1 */
        d.count = 1;
        d.blk[0].code = 0x7F;
        d.blk[0].len = 0;
        for (int j = 0; j < 45; j++) blk_u32(&d.blk[0], j == 30 ? 1u : 0u);
        craft("f64 fc=31, |q| = 2^30", &d, E_CORRUPT); /* 180 bytes > 8: too big for 1 value */
        d.count = 32;
        craft("f64 fc=31, |q_0| = 2^30, 31 zeros", &d, E_OK);
        d.blk[0].len = 0;
        for (int j = 0; j < 45; j++) blk_u32(&d.blk[0], j == 29 ? 1u : 0u);
        craft("f64 fc=31 with bit length 30", &d, E_PAYLOAD);
        d.blk[0].len = 0;
        for (int j = 0; j < 45; j++) blk_u32(&d.blk[0], j == 44 ? 1u : 0u);
        craft("f64 fc=31, |q_0| = 2^44 > QMAX", &d, E_PAYLOAD);
    }
    /* f32 fc = 31 means F = 31 exactly: the top plane (bit 30) must be set */
    {
        c = f32_stream(ECCL_MODE_ABS, 0.5, 32);
        b = &c.blk[0];
        /* head Lorenzo, q0 = -(2^30 - 1), d_1 = 2^31 - 2 -> q_1 = 2^30 - 1: bit length 31 */
        b->code = 0x5F;
        blk_bytes(b, zz(-(((int64_t)1 << 30) - 1)), 4);
        for (int j = 0; j < 31; j++) blk_u32(b, j >= 1 ? 2u : 0u);
        craft("f32 fc=31 with bit length 31", &c, E_OK);
        b->len = 0;
        blk_bytes(b, zz(-(((int64_t)1 << 30) - 1)), 4);
        for (int j = 0; j < 31; j++) blk_u32(b, (j >= 1 && j < 30) ? 2u : 0u);
        craft("f32 fc=31 with the top plane zero", &c, E_PAYLOAD);
    }

    /* ---- a non-head block: predicted from the previous block's last integers ---- */
    c = f32_stream(ECCL_MODE_ABS, 0.5, 33);
    c.nb = 2;
    c.blk[0].code = 0x20; /* zeros */
    c.blk[1].code = 0x41; /* s = 1, Lorenzo, F = 1: d_0 = 1 -> q = 1 */
    blk_u32(&c.blk[1], 1);
    craft("zero block then +1", &c, E_OK);
    c.blk[1].code = 0x00; /* not head: no q0 field, size 0 */
    c.blk[1].len = 0;
    craft("zero block then a repeat", &c, E_OK);
    c.blk[1].len = 4; /* a head field where none belongs: the tile size no longer matches */
    craft("non-head block with a head field", &c, E_CORRUPT);

    /* ---- RAW CODED (section 6.3), float32 lossless, 32 values ---- */
    c = f32_stream(ECCL_MODE_LOSSLESS, 0.0, 32);
    c.eb = 0.0;
    b = &c.blk[0];
    b->code = 0xC2;
    blk_u32(b, 0x3F800000u); /* key_0 = 0xBF800000 */
    blk_u32(b, 0x4);         /* d_2 < 0 */
    blk_u32(b, 0x6);         /* |d_1| = 1, |d_2| = 3 */
    blk_u32(b, 0x4);
    craft("RAW CODED(2)", &c, E_OK);
    b->len = 0;
    blk_u32(b, 0x3F800000u);
    blk_u32(b, 0xC);
    blk_u32(b, 0x6);
    blk_u32(b, 0x4);
    craft("RAW CODED: sign bit on a zero delta", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x3F800000u);
    blk_u32(b, 0x4);
    blk_u32(b, 0x7);
    blk_u32(b, 0x4);
    craft("RAW CODED: plane bit 0 (d_0 is not coded)", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x3F800001u);
    blk_u32(b, 0x1);
    blk_u32(b, 0x6);
    blk_u32(b, 0x4);
    craft("RAW CODED: sign map bit 0", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x3F800000u);
    blk_u32(b, 0x4);
    blk_u32(b, 0x6);
    blk_u32(b, 0x0);
    craft("RAW CODED: top plane zero", &c, E_PAYLOAD);
    /* key overflow: u_0 = 0x7FFFFFFF (NaN) has key 0xFFFFFFFF; d_1 = +1 */
    b->code = 0xC1;
    b->len = 0;
    blk_u32(b, 0x7FFFFFFFu);
    blk_u32(b, 0);
    blk_u32(b, 0x2);
    craft("RAW CODED: key above 2^32 - 1", &c, E_PAYLOAD);
    b->len = 0;
    blk_u32(b, 0x7FFFFFFFu);
    blk_u32(b, 0x2);
    blk_u32(b, 0x2);
    craft("RAW CODED: key 2^32 - 2", &c, E_OK);
    /* key underflow: u_0 = 0xFFFFFFFF (negative NaN) has key 0; d_1 = -1 */
    b->len = 0;
    blk_u32(b, 0xFFFFFFFFu);
    blk_u32(b, 0x2);
    blk_u32(b, 0x2);
    craft("RAW CODED: key below 0", &c, E_PAYLOAD);
    /* f64: key overflow beyond 2^64 */
    {
        cstream d;
        memset(&d, 0, sizeof d);
        d.dtype = ECCL_FLOAT64;
        d.count = 32;
        d.nb = 1;
        d.blk[0].code = 0xC1;
        blk_bytes(&d.blk[0], 0x7FFFFFFFFFFFFFFFull, 8);
        blk_u32(&d.blk[0], 0);
        blk_u32(&d.blk[0], 0x2);
        craft("RAW CODED f64: key above 2^64 - 1", &d, E_PAYLOAD);
        d.blk[0].len = 0;
        blk_bytes(&d.blk[0], 0xFFFFFFFFFFFFFFFFull, 8);
        blk_u32(&d.blk[0], 0x2);
        blk_u32(&d.blk[0], 0x2);
        craft("RAW CODED f64: key below 0", &d, E_PAYLOAD);
        d.blk[0].len = 0;
        blk_bytes(&d.blk[0], 0xFFFFFFFFFFFFFFFFull, 8);
        blk_u32(&d.blk[0], 0x0);
        blk_u32(&d.blk[0], 0x2);
        craft("RAW CODED f64: key 0 + 1", &d, E_OK);
    }
    /* complex: lag 2, d_1 = key_1 - key_0, d_2 = key_2 - key_0 */
    {
        cstream d;
        memset(&d, 0, sizeof d);
        d.dtype = ECCL_COMPLEX64;
        d.count = 16;
        d.nb = 1;
        d.blk[0].code = 0xC1;
        blk_u32(&d.blk[0], 0x7FFFFFFEu); /* key 0xFFFFFFFE */
        blk_u32(&d.blk[0], 0);
        blk_u32(&d.blk[0], 0x6); /* d_1 = d_2 = +1: both from key_0 -> 0xFFFFFFFF: fine */
        craft("RAW CODED c64: lag 2", &d, E_OK);
        d.blk[0].len = 0;
        blk_u32(&d.blk[0], 0x7FFFFFFEu);
        blk_u32(&d.blk[0], 0);
        blk_u32(&d.blk[0], 0xE); /* d_3 = +1 from key_1 = 0xFFFFFFFF: overflow */
        craft("RAW CODED c64: key overflow at lag 2", &d, E_PAYLOAD);
    }
}

/* ---- 4: MISMATCH and larger buffers ---- */
static void mismatch_and_buffers(const stream_t *st, eccl_dtype_t dt, size_t count)
{
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc((count + 1) * 16), *y = tu_malloc((count + 1) * 16);
    eccl_dtype_t other = dt == ECCL_FLOAT32 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    TU_RC(eccl_decompress(st->s, st->size, x, count, dt), ECCL_SUCCESS);
    TU_RC(eccl_decompress(st->s, st->size, y, count + 1, dt), ECCL_ERR_MISMATCH);
    TU_RC(eccl_decompress(st->s, st->size, y, count - 1, dt), ECCL_ERR_MISMATCH);
    TU_RC(eccl_decompress(st->s, st->size, y, 0, dt), ECCL_ERR_MISMATCH);
    TU_RC(eccl_decompress(st->s, st->size, y, count, other), ECCL_ERR_MISMATCH);
    {
        eccl_result_t rc = eccl_decompress(st->s, st->size, y, count, (eccl_dtype_t)7);
        TU_CHECK(rc == ECCL_ERR_MISMATCH || rc == ECCL_ERR_INVALID_ARG, "unknown dtype: %d", rc);
    }
    /* a size larger than the stream (bytes after it, zeros or not): not a valid stream
     * (eccl.h: stream_size is the stream's size, the header's stream_size field), for every entry
     * point, and for the reference decoder; the exact size still works */
    const size_t extras[] = {1, 8, 15, 16, 33, 64};
    static const char *const entry[6] = {"eccl_decompress", "eccl_stream_info", "eccl_hom_combine(a)",
                                         "eccl_hom_combine(b)", "eccl_hom_reduce", "ref_decode"};
    for (unsigned e = 0; e < sizeof extras / sizeof *extras; e++) {
        for (int fill = 0; fill < 2; fill++) {
            size_t extra = extras[e], big_size = st->size + extra;
            unsigned char *big = tu_malloc(big_size);
            memcpy(big, st->s, st->size);
            memset(big + st->size, fill ? 0xEE : 0, extra);
            eccl_stream_info_t info;
            size_t cap = eccl_compress_bound(count, dt), osz;
            unsigned char *o = tu_malloc(cap);
            char why[REF_WHY_LEN] = "";
            eccl_result_t r[6];
            r[0] = eccl_decompress(big, big_size, y, count, dt);
            r[1] = eccl_stream_info(big, big_size, &info);
            r[2] = eccl_hom_combine(big, big_size, st->s, st->size, ECCL_OP_SUM, o, cap, &osz);
            r[3] = eccl_hom_combine(st->s, st->size, big, big_size, ECCL_OP_SUM, o, cap, &osz);
            r[4] = eccl_hom_reduce(big, big_size, x, count, dt, ECCL_OP_SUM, o, cap, &osz);
            r[5] = ref_decode(big, big_size, y, count, (unsigned)dt, why) == REF_CORRUPT ? ECCL_ERR_CORRUPT
                                                                                      : ECCL_SUCCESS;
            for (int k = 0; k < 6; k++)
                TU_CHECK(r[k] == ECCL_ERR_CORRUPT,
                         "%s given %zu more bytes (%s) than its stream_size: %s gave %d (%s), expected "
                         "ECCL_ERR_CORRUPT", st->name, extra, fill ? "0xEE" : "zeros", entry[k], r[k],
                         eccl_strerror(r[k]));
            TU_RC(eccl_decompress(big, st->size, y, count, dt), ECCL_SUCCESS);
            TU_CHECK(memcmp(x, y, count * esz) == 0, "%s decodes differently", st->name);
            free(o);
            free(big);
        }
    }
    free(x);
    free(y);
}

int main(void)
{
    stream_t st[GOLDEN_NCASES + 1];
    for (size_t i = 0; i < GOLDEN_NCASES; i++) st[i] = make(&golden_cases[i]);
    {
        /* and the empty stream (count 0: the header alone) */
        static const golden_case empty = {"empty-f32", ECCL_FLOAT32, {ECCL_MODE_ABS, 1e-3, 0.0}, 0,
                                          g_zeros};
        st[GOLDEN_NCASES] = make(&empty);
        TU_CHECK(st[GOLDEN_NCASES].size == 64, "empty stream size %zu", st[GOLDEN_NCASES].size);
        header_u64("empty stream unchanged", &st[GOLDEN_NCASES], 16, 0, E_OK);
    }
    for (size_t i = 0; i <= GOLDEN_NCASES; i++) {
        truncations(&st[i]);
        bit_flips(&st[i]);
    }
    {
        /* two tiles: 4100 complex64 = 8200 reals, smooth with a few NaN/inf (QUANT and RAW
         * blocks), about 3 KB, so every bit flip stays cheap */
        size_t count = 4100, cap = eccl_compress_bound(count, ECCL_COMPLEX64);
        float *x = tu_malloc(count * 8);
        stream_t big = {tu_malloc(cap), 0, "2 tiles complex64"};
        eccl_bound_t b = ECCL_BOUND_ABS(1e-1);
        tu_fill(x, 2 * count, 0, TU_SMOOTH, 3);
        x[100] = NAN;
        x[5000] = INFINITY;
        x[8199] = -0.0f;
        TU_RC(eccl_compress(x, count, ECCL_COMPLEX64, &b, big.s, cap, &big.size), ECCL_SUCCESS);
        truncations(&big);
        if (!getenv("ECCL_TEST_QUICK")) bit_flips(&big);
        free(x);
        free(big.s);
    }
    crafted_header(&st[0], &st[1], &st[2]);
    crafted_structure(&st[0]);
    crafted_payload();
    for (size_t i = 0; i < GOLDEN_NCASES; i++)
        if (golden_cases[i].count > 1)
            mismatch_and_buffers(&st[i], golden_cases[i].dtype, golden_cases[i].count);
    for (size_t i = 0; i <= GOLDEN_NCASES; i++) free(st[i].s);
    printf("test_corrupt: %ld damaged or crafted streams\n", n_cases);
    return tu_finish("test_corrupt");
}
