/*
 * test_fastpath.c - the AVX2 block paths must produce exactly the bytes and values of the
 * reference (specification) path, on every kind of data, including corrupted streams (same
 * verdict): compression, decompression, and the homomorphic eccl_hom_reduce / eccl_hom_combine
 * (SUM, MAX, MIN on real types, SUM on complex; their fast blocks use the same AVX2 pieces). Skips when the CPU
 * has no AVX2.
 */
#include "testutil.h"
#include "ref_decoder.h"

#include "codec/codec.h" /* eccl_compress_fmt */
#include "codec/fast.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

static size_t compress_with(int reference, const void *x, size_t count, eccl_dtype_t dt,
                            const eccl_bound_t *b, unsigned char *s, size_t cap)
{
    size_t size = 0;
    eccl_result_t rc = eccl_compress_path(x, count, dt, b, s, cap, &size,
                                          reference ? ECCL_PATH_REFERENCE : ECCL_PATH_FAST);
    TU_CHECK(rc == ECCL_SUCCESS, "compress: %s", eccl_strerror(rc));
    return size;
}

static eccl_result_t decompress_with(int reference, const unsigned char *s, size_t size, void *y,
                                     size_t count, eccl_dtype_t dt)
{
    return eccl_decompress_path(s, size, y, count, dt,
                                reference ? ECCL_PATH_REFERENCE : ECCL_PATH_FAST);
}

/* The REL range a stream was made with (for a second stream the operations accept with it). */
static double eccl_stream_range_of(const unsigned char *s, size_t n)
{
    eccl_stream_info_t i;
    return eccl_stream_info(s, n, &i) == ECCL_SUCCESS ? i.range : 0.0;
}

/* The homomorphic operations on both paths must agree: same result code, same bytes. */
static void hom_compare(const unsigned char *s, size_t n, const void *local, const unsigned char *s3,
                        size_t n3, size_t count, eccl_dtype_t dt, unsigned char *o1, unsigned char *o2,
                        size_t cap, const char *what)
{
    const eccl_op_t ops[] = {ECCL_OP_SUM, ECCL_OP_MAX, ECCL_OP_MIN};
    for (int k = 0; k < (dt >= ECCL_COMPLEX64 ? 1 : 3); k++) {
        size_t z1 = 0, z2 = 0;
        eccl_result_t r1 = eccl_hom_reduce_path(s, n, local, count, dt, ops[k], o1, cap, &z1, ECCL_PATH_FAST);
        eccl_result_t r2 = eccl_hom_reduce_path(s, n, local, count, dt, ops[k], o2, cap, &z2, ECCL_PATH_REFERENCE);
        TU_CHECK(r1 == r2 && (r1 != ECCL_SUCCESS || (z1 == z2 && memcmp(o1, o2, z1) == 0)),
                 "hom_reduce %s op %d: fast %d (%zu bytes) vs reference %d (%zu bytes)", what,
                 (int)ops[k], r1, z1, r2, z2);
        if (!s3) continue; /* (a corrupted input: only the verdicts and bytes must agree) */
        TU_CHECK(r2 == ECCL_SUCCESS, "hom_reduce %s op %d of a valid stream: %s", what, (int)ops[k],
                 eccl_strerror(r2));
        r1 = eccl_hom_combine_path(s, n, s3, n3, ops[k], o1, cap, &z1, ECCL_PATH_FAST);
        r2 = eccl_hom_combine_path(s, n, s3, n3, ops[k], o2, cap, &z2, ECCL_PATH_REFERENCE);
        TU_CHECK(r1 == r2 && (r1 != ECCL_SUCCESS || (z1 == z2 && memcmp(o1, o2, z1) == 0)),
                 "hom_combine %s op %d: fast %d (%zu bytes) vs reference %d (%zu bytes)", what,
                 (int)ops[k], r1, z1, r2, z2);
        TU_CHECK(r2 == ECCL_SUCCESS, "hom_combine %s op %d of valid streams: %s", what, (int)ops[k],
                 eccl_strerror(r2));
    }
}

/* Recompute the checksum (doc/format.md section 9) after a deliberate corruption, so the
 * structural checks of both paths are what decides. */
static void fix_checksum(unsigned char *s, size_t size) { ref_fix_checksum(s, size); }

/* RAW CODED blocks whose keys sit at the ends of their range (NaN payloads: negative NaNs have
 * keys near 0, positive ones near 2^32): every sign-map bit flipped in turn and every plane bit
 * set in turn drive a key out of [0, 2^32) (or not); the fast decoder must give the reference's
 * verdict and values each time. One block of 32 float32 (or 16 complex64) values. */
static void raw_edges(void)
{
    const uint32_t bases[2] = {0xFFFFFFF0u, 0x7FFFFFF0u};
    for (int dc = 0; dc < 2; dc++) {
        eccl_dtype_t dt = dc ? ECCL_COMPLEX64 : ECCL_FLOAT32;
        size_t count = dc ? 16 : 32, cap = eccl_compress_bound(count, dt);
        for (int e = 0; e < 2; e++) {
            uint32_t x[32], y1[32], y2[32];
            for (int i = 0; i < 32; i++) x[i] = bases[e] | (uint32_t)((i * 7) % 16);
            unsigned char *s = tu_malloc(cap), *t = tu_malloc(cap);
            eccl_bound_t b = {ECCL_MODE_LOSSLESS, 0, 0};
            size_t n = compress_with(0, x, count, dt, &b, s, cap);
            const size_t P = 80; /* header, one tile index entry, one code, aligned */
            TU_CHECK(n > P + 8 && (s[72] >> 6) == 3 && s[72] != 0xFF, "expected one RAW CODED block (code %#x)", s[72]);
            int F = s[72] & 63;
            for (int bit = 0; bit < 32 * (1 + F); bit++) { /* the sign map, then the planes */
                memcpy(t, s, n);
                t[P + 4 + bit / 8] ^= (unsigned char)(1u << (bit % 8));
                fix_checksum(t, n);
                eccl_result_t r1 = decompress_with(1, t, n, y1, count, dt);
                eccl_result_t r2 = decompress_with(0, t, n, y2, count, dt);
                TU_CHECK(r1 == r2, "RAW edge %s base %#x bit %d: verdicts differ (%d vs %d)", eccl_dtype_name(dt),
                         bases[e], bit, r1, r2);
                if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS)
                    TU_CHECK(memcmp(y1, y2, sizeof y1) == 0, "RAW edge %s bit %d: values differ", eccl_dtype_name(dt), bit);
            }
            TU_CHECK(decompress_with(0, s, n, y1, count, dt) == ECCL_SUCCESS && memcmp(y1, x, sizeof x) == 0,
                     "RAW edge %s: the intact stream does not give the input back", eccl_dtype_name(dt));
            free(s);
            free(t);
        }
    }
}

/* ---- float64 and complex128 RAW blocks ---- */
enum { R64_N = 32 * 4 + 6 }; /* five blocks, the last one short (6 reals) */
static struct {
    long blocks, low, high, zero, verbatim, flips;
} r64; /* what the cases below covered: full CODED blocks with F <= 32, F > 32, F = 0, VERBATIM */

/* One full RAW block on its own: the fast decoder accepts exactly the blocks the reference accepts
 * (it never leaves one to the reference path either), with the reference's values. */
static void raw64_block(const eccl_qparams_t *qp, unsigned code, const unsigned char *pl, const char *what,
                        long bit)
{
    uint64_t y1[32], y2[32];
    eccl_pred_t p1 = {1, {5, 7}}, p2 = p1;
    int rf = eccl_fast_decode_f64(qp, code, pl, &p1, (double *)(void *)y1);
    int rr = eccl_block_decode(qp, code, pl, 32, &p2, y2);
    TU_CHECK(rf == rr && (rr != 0 || (memcmp(y1, y2, sizeof y1) == 0 && p1.have == 0)),
             "RAW64 %s code %#x bit %ld: fast block decode %d vs reference %d", what, code, bit, rf, rr);
}

/* Decode the (possibly corrupted) stream t on both paths, and its block k (at off) alone when it is
 * full (r = 32). */
static void raw64_compare(const unsigned char *t, size_t n, size_t count, eccl_dtype_t dt, const eccl_qparams_t *qp,
                          size_t k, size_t off, int r, const char *what, long bit)
{
    uint64_t y1[R64_N], y2[R64_N];
    eccl_result_t r1 = decompress_with(1, t, n, y1, count, dt), r2 = decompress_with(0, t, n, y2, count, dt);
    TU_CHECK(r1 == r2 && (r1 != ECCL_SUCCESS || memcmp(y1, y2, sizeof y1) == 0),
             "RAW64 %s %s bit %ld: verdicts %d vs %d (or values differ)", what, eccl_dtype_name(dt), bit, r1, r2);
    if (r == 32) raw64_block(qp, t[72 + k], t + off, what, bit);
}

/* x: R64_N float64 encodings, as float64 and as complex128 (lag 2), LOSSLESS: both paths write the
 * same stream and decode it to x; then every bit of every RAW CODED block (value 0's encoding, the
 * sign map, the planes) is flipped in turn, and random bits anywhere in the payload: same verdict,
 * same values, block by block and for the whole stream. */
static void raw64_case(const uint64_t *x, const char *what, tu_rng *rng)
{
    for (int dc = 0; dc < 2; dc++) {
        eccl_dtype_t dt = dc ? ECCL_COMPLEX128 : ECCL_FLOAT64;
        size_t count = dc ? R64_N / 2 : R64_N, cap = eccl_compress_bound(count, dt);
        unsigned char *s = tu_malloc(cap), *s2 = tu_malloc(cap), *t = tu_malloc(cap);
        uint64_t y[R64_N];
        eccl_bound_t b = {ECCL_MODE_LOSSLESS, 0, 0};
        eccl_qparams_t qp;
        eccl_qparams_init(&qp, dt, ECCL_MODE_LOSSLESS, 0.0);
        size_t n = compress_with(0, x, count, dt, &b, s, cap), n2 = compress_with(1, x, count, dt, &b, s2, cap);
        TU_CHECK(n == n2 && memcmp(s, s2, n) == 0, "RAW64 %s %s: fast and reference streams differ", what,
                 eccl_dtype_name(dt));
        for (int ref = 0; ref < 2; ref++)
            TU_CHECK(decompress_with(ref, s, n, y, count, dt) == ECCL_SUCCESS && memcmp(y, x, sizeof y) == 0,
                     "RAW64 %s %s: the stream does not give the input back (reference path %d)", what,
                     eccl_dtype_name(dt), ref);
        const size_t P = 80, nb = (R64_N + 31) / 32; /* header, one tile index entry, 5 codes, aligned */
        size_t off = P;
        for (size_t k = 0; k < nb; k++) {
            unsigned code = s[72 + k];
            int r = k + 1 < nb ? 32 : R64_N - 32 * (int)(nb - 1), F = (int)(code & 63u);
            size_t size = code == 0xFFu ? (size_t)r * 8 : 8u + (F ? 4u + 4u * (unsigned)F : 0u);
            TU_CHECK((code >> 6) == 3, "RAW64 %s: block %zu is not RAW (code %#x)", what, k, code);
            if (r == 32) {
                r64.blocks++;
                r64.verbatim += code == 0xFFu;
                r64.zero += code == 0xC0u;
                r64.low += code != 0xFFu && F > 0 && F <= 32;
                r64.high += code != 0xFFu && F > 32;
                raw64_block(&qp, code, s + off, what, -1);
            }
            for (long bit = 0; code != 0xFFu && bit < 8 * (long)size; bit++) {
                memcpy(t, s, n);
                t[off + (size_t)bit / 8] ^= (unsigned char)(1u << (bit % 8));
                fix_checksum(t, n);
                raw64_compare(t, n, count, dt, &qp, k, off, r, what, bit);
                r64.flips++;
            }
            off += size;
        }
        for (int trial = 0; trial < 300; trial++) { /* 1-3 random bits anywhere in the payload */
            memcpy(t, s, n);
            for (int j = 0, m = 1 + (int)(tu_next(rng) % 3); j < m; j++) {
                size_t pos = P + tu_next(rng) % (off - P);
                t[pos] ^= (unsigned char)(1u << (tu_next(rng) % 8));
            }
            fix_checksum(t, n);
            raw64_compare(t, n, count, dt, &qp, 0, P, 0, what, -2 - trial);
        }
        free(s);
        free(s2);
        free(t);
    }
}

/* Keys at both ends of [0, 2^64) (NaN payloads: negative NaNs have keys near 0, positive ones near
 * 2^64; both ends themselves included), across the middle (signed zeros, subnormals), next to the
 * infinities, spreads of 33 to 60 bits (planes above 32), one top-plane bit, smooth and random data. */
static void raw64_edges(void)
{
    tu_rng rng = {1234};
    uint64_t x[R64_N];
    for (int c = 0; c < 8; c++) {
        for (int i = 0; i < R64_N; i++) {
            int blk = i / 32, j = i % 32;
            uint64_t u = tu_next(&rng), wide = u >> (4 + 9 * (blk % 4)); /* 60, 51, 42, 33 bits */
            switch (c) {
            case 0: x[i] = 0x7FFFFFFFFFFFFFF0ull | (uint64_t)((i * 7) % 16); break;
            case 1: x[i] = 0xFFFFFFFFFFFFFFF0ull | (uint64_t)((i * 7) % 16); break;
            case 2: x[i] = 0x7FFFFFFFFFFFFFFFull - wide; break; /* keys 2^64 - 1 - wide */
            case 3: x[i] = 0xFFFFFFFFFFFFFFFFull - wide; break; /* keys wide */
            case 4: /* +-0, +-subnormals; -0.0 throughout; next to +inf; next to -inf */
                x[i] = blk == 1   ? 0x8000000000000000ull
                       : blk == 2 ? 0x7FEFFFFFFFFFFFFDull + u % 5
                       : blk == 3 ? 0xFFEFFFFFFFFFFFFDull + u % 5
                                  : ((u & 1) << 63) | (u >> 1) % 4;
                break;
            case 5: x[i] = eccl_f64_as_u64(1e3 * sin(0.01 * i)); break;
            case 6: x[i] = ~(uint64_t)(blk * 64 + j + (j == 31 ? 1ull << 40 : 0)); break;
            default: x[i] = blk == 2 ? u >> 3 : u; break; /* random (VERBATIM), random positives */
            }
        }
        static const char *names[] = {"top", "bottom", "top wide", "bottom wide", "middle and infinities",
                                      "smooth", "one top bit", "random"};
        raw64_case(x, names[c], &rng);
    }
    TU_CHECK(r64.low > 0 && r64.high > 0 && r64.zero > 0 && r64.verbatim > 0,
             "RAW64 coverage: %ld full blocks, %ld with F <= 32, %ld with F > 32, %ld F = 0, %ld VERBATIM",
             r64.blocks, r64.low, r64.high, r64.zero, r64.verbatim);
    printf("RAW64: %ld full blocks (%ld with 1..32 planes, %ld with 33..60, %ld with none, %ld VERBATIM), "
           "%ld single-bit flips\n", r64.blocks, r64.low, r64.high, r64.zero, r64.verbatim, r64.flips);
}

/* ---- float64 and complex128 QUANT blocks of 45 planes (code fc = 31: max |d_i| of 31..45 bits) ---- */
enum { Q45_N = 32 * 5 + 6 }; /* five full blocks, a short last one (6 reals) */
static struct {
    long blocks, sign[3], none, head, flips, rejected;
} q45; /* full 45-plane blocks by sign mode, with predictor none, head Lorenzo; single-bit flips */

/* One full QUANT block alone, on both decoders and both readers (eccl_fast_read_q64: the
 * homomorphic operations'): the same verdict, and on success the same values and predictor state.
 * A head block is read as one (pr empty); any other under two predecessors, near 0 and at +-QMAX.
 * bit: the corruption (-4: none; see q45_case). */
static void q45_block(const eccl_qparams_t *qp, unsigned code, const unsigned char *pl, int head,
                      const char *what, long bit)
{
    const int64_t QM = ((int64_t)1 << 44) - 1;
    const int64_t m = qp->lag == 1 ? 1 : -1; /* (real types: both entries are the last integer) */
    const eccl_pred_t prs[3] = {{0, {0, 0}}, {1, {-7 * m, -7}}, {1, {-QM * m, -QM}}};
    for (int k = head ? 0 : 1; k < (head ? 1 : 3); k++) {
        double y1[32], y2[32];
        eccl_pred_t p1 = prs[k], p2 = prs[k], p3 = prs[k], p4 = prs[k];
        int rf = eccl_fast_decode_f64(qp, code, pl, &p1, y1), rr = eccl_block_decode(qp, code, pl, 32, &p2, y2);
        TU_CHECK(rf == rr && (rr != 0 || (memcmp(y1, y2, sizeof y1) == 0 && p1.have == 1 && p2.have == 1 &&
                                          p1.q[0] == p2.q[0] && p1.q[1] == p2.q[1])),
                 "Q45 %s code %#x bit %ld pred %d: fast block decode %d vs reference %d (or values differ)", what,
                 code, bit, k, rf, rr);
        int64_t qf[32];
        eccl_blockrep_t b;
        rf = eccl_fast_read_q64(qp, code, pl, &p3, qf);
        rr = eccl_block_read(qp, code, pl, 32, &p4, &b);
        TU_CHECK(rf == rr && (rr != 0 || (memcmp(qf, b.q, sizeof qf) == 0 && p3.q[0] == p4.q[0] && p3.q[1] == p4.q[1])),
                 "Q45 %s code %#x bit %ld pred %d: fast read %d vs reference %d (or integers differ)", what, code,
                 bit, k, rf, rr);
        if (rf) TU_CHECK(memcmp(&p3, &prs[k], sizeof p3) == 0, "Q45 %s: a rejected read moved the predictor", what);
    }
}

/* The integers of case c at element e (complex: the real part; the imaginary one is 7 closer to 0). */
static int64_t q45_value(int c, int64_t e, tu_rng *rng)
{
    const int64_t QM = ((int64_t)1 << 44) - 1, T30 = (int64_t)1 << 30;
    switch (c) {
    case 0: return -((int64_t)1 << 42) + e * T30;                  /* Lorenzo deltas exactly 2^30 */
    case 1: return (e % 2) * (2 * T30 - 1) - T30;                  /* +-(2^31 - 1), both signs */
    case 2: return e % 2 ? QM : -QM;                               /* |q| = QMAX, deltas 2^45 - 2 */
    case 3: return ((int64_t)1 << 43) - e * (((int64_t)1 << 38) + 12345); /* falling: sign mode 2 */
    case 4: return (e % 3) * ((int64_t)1 << 43) - ((int64_t)1 << 43); /* deltas 2^43 and -2^44 */
    case 5: return 3 * e + (e % 32 == 17 ? T30 : 0);               /* one delta of 2^30 + 3 a block */
    case 6: return (e % 2) * (T30 - 1);                            /* 30 bits: F = 30, not 45 */
    case 7: return (int64_t)rint(0x1p42 * sin(0.013 * (double)e) * cos(0.007 * (double)e));
    case 8: return (int64_t)(tu_next(rng) % (2 * (uint64_t)QM + 1)) - QM; /* random, full range */
    case 10: return -3 * e + (e == 9 ? T30 : 0); /* the head block: one positive delta, the rest < 0 */
    default: return ((int64_t)1 << 40) + (int64_t)(tu_next(rng) % ((uint64_t)7 << 40)); /* positive: none */
    }
}

/* Every full QUANT block with 45 planes of the valid stream s (n bytes; one tile; x: its input,
 * bound bv) has each bit flipped in turn (head value, sign map, planes), and its code changed in
 * ways that may keep its size (the predictor, sign mode 1 <-> 2, 30 planes): both paths give the
 * same verdict and values, for the stream and for the block alone; the homomorphic operations too,
 * now and then. */
static void q45_flips(const unsigned char *s, size_t n, const double *x, size_t count, eccl_dtype_t dt,
                      double bv, const char *what)
{
    size_t cap = eccl_compress_bound(count, dt), reals = count * (dt == ECCL_COMPLEX128 ? 2 : 1);
    unsigned char *t = tu_malloc(cap), *o1 = tu_malloc(cap), *o2 = tu_malloc(cap);
    double *y1 = tu_malloc(reals * 8), *y2 = tu_malloc(reals * 8);
    eccl_qparams_t qp;
    eccl_qparams_init(&qp, dt, ECCL_MODE_ABS, bv);
    eccl_result_t r1 = decompress_with(1, s, n, y1, count, dt), r2 = decompress_with(0, s, n, y2, count, dt);
    TU_CHECK(r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS && memcmp(y1, y2, reals * 8) == 0,
             "Q45 %s: the paths decode differently (%d, %d)", what, r1, r2);
    for (size_t i = 0; i < reals; i++)
        TU_CHECK(isnan(x[i]) ? isnan(y1[i]) : fabs(x[i] - y1[i]) <= bv, "Q45 %s: value %zu off", what, i);
    hom_compare(s, n, x, s, n, count, dt, o1, o2, cap, what);
    const size_t nb = (reals + 31) / 32, P = (72 + nb + 15) / 16 * 16;
    size_t off = P;
    for (size_t k = 0; k < nb; k++) {
        unsigned code = s[72 + k];
        int r = k + 1 < nb ? 32 : (int)reals - 32 * (int)(nb - 1);
        int head = k == 0 || (s[72 + k - 1] >> 6) == 3, size = eccl_fmt_block_size(code, r, 1, head);
        int h = head && (code >> 6) != 3 && !((code >> 5) & 1); /* a Lorenzo head block */
        if ((code >> 6) != 3 && (code & 31) == 31 && r == 32) {
            q45.blocks++;
            q45.sign[code >> 6]++;
            q45.none += (code >> 5) & 1;
            q45.head += h;
            q45_block(&qp, code, s + off, h, what, -4);
            for (long bit = -3; bit < 8L * size; bit++) {
                memcpy(t, s, n);
                if (bit >= 0) t[off + (size_t)bit / 8] ^= (unsigned char)(1u << (bit % 8));
                else if (bit == -3) t[72 + k] ^= 0x20u;                                /* the predictor */
                else if (bit == -2 && (code >> 6) != 0) t[72 + k] ^= 0xC0u;            /* sign mode 1 <-> 2 */
                else if (bit == -1) t[72 + k] = (unsigned char)((code & ~31u) | 30u); /* 30 planes */
                fix_checksum(t, n);
                r1 = decompress_with(1, t, n, y1, count, dt);
                r2 = decompress_with(0, t, n, y2, count, dt);
                TU_CHECK(r1 == r2 && (r1 != ECCL_SUCCESS || memcmp(y1, y2, reals * 8) == 0),
                         "Q45 %s block %zu bit %ld: verdicts %d vs %d (or values differ)", what, k, bit, r1, r2);
                q45.flips++;
                q45.rejected += r1 != ECCL_SUCCESS;
                q45_block(&qp, t[72 + k], t + off, h, what, bit);
                if (bit % 64 == 0) hom_compare(t, n, x, NULL, 0, count, dt, o1, o2, cap, what);
            }
        }
        off += (size_t)size;
    }
    free(t), free(o1), free(o2), free(y1), free(y2);
}

/* The one-block stream (32 reals: q as float64 at ABS 0.5, so the quantum is 1) with a head Lorenzo
 * QUANT block, which no encoder writes with 45 planes (predictor none is smaller), though it is
 * canonical: zz(q_0) in 6 bytes, the sign map unless monotone, 45 planes of d_1 .. d_31. Returns
 * its size, or 0 when the deltas do not need 45 planes. */
static size_t q45_head_stream(const double *q, eccl_dtype_t dt, unsigned char *s, size_t cap)
{
    int lag = dt == ECCL_COMPLEX128 ? 2 : 1;
    uint64_t mag[32] = {0}, all = 0;
    uint32_t neg = 0, pos = 0;
    for (int i = 1; i < 32; i++) {
        int64_t d = (int64_t)q[i] - (int64_t)q[i >= lag ? i - lag : 0];
        mag[i] = d < 0 ? (uint64_t)-d : (uint64_t)d;
        neg |= (uint32_t)(d < 0) << i;
        pos |= (uint32_t)(d > 0) << i;
        all |= mag[i];
    }
    if (all < ((uint64_t)1 << 30)) return 0;
    eccl_bound_t b = {ECCL_MODE_ABS, 0.5, 0};
    size_t n = compress_with(0, q, 32 / (size_t)lag, dt, &b, s, cap); /* for its header */
    unsigned smode = !neg ? 1 : !pos ? 2 : 0;
    unsigned char *o = s + 80;
    uint64_t z = eccl_fmt_zigzag((int64_t)q[0]);
    for (int k = 0; k < 6; k++) *o++ = (unsigned char)(z >> (8 * k));
    if (smode == 0) eccl_st32(o, neg), o += 4;
    for (int j = 0; j < 45; j++, o += 4) {
        uint32_t w = 0;
        for (int i = 0; i < 32; i++) w |= (uint32_t)((mag[i] >> j) & 1u) << i;
        eccl_st32(o, w);
    }
    while ((o - s) % 16) *o++ = 0;
    n = (size_t)(o - s);
    s[72] = (unsigned char)(smode << 6 | 31u);
    memcpy(s + 48, &(uint64_t){n}, 8);
    fix_checksum(s, n);
    return n;
}

/* Case c (11: sin(x)cos(y)-like data at ABS 1e-12, not integers) as float64 and complex128: both
 * paths write the same stream (a NaN in block 2, odd cases, makes it RAW and block 3 a head
 * block), then q45_flips; and the first 32 reals as a head Lorenzo block of 45 planes. */
static void q45_case(int c, tu_rng *rng)
{
    for (int dc = 0; dc < 2; dc++) {
        eccl_dtype_t dt = dc ? ECCL_COMPLEX128 : ECCL_FLOAT64;
        int lag = dc ? 2 : 1;
        size_t count = Q45_N / lag, cap = eccl_compress_bound(count, dt);
        unsigned char *s = tu_malloc(cap), *s2 = tu_malloc(cap);
        double x[Q45_N];
        for (int i = 0; i < Q45_N; i++) {
            int64_t v = q45_value(c, i / lag, rng), off = (i % lag) * 7;
            x[i] = c == 11 ? sin(0.011 * (i / lag)) * cos(0.003 * i) : (double)(v >= 0 ? v - off : v + off);
        }
        double bv = c == 11 ? 1e-12 : 0.5; /* 0.5: the quantum is 1 */
        eccl_bound_t b = {ECCL_MODE_ABS, bv, 0};
        char what[64];
        snprintf(what, sizeof what, "case %d %s", c, eccl_dtype_name(dt));
        if (c != 11) {
            size_t nh = q45_head_stream(x, dt, s, cap);
            if (nh) q45_flips(s, nh, x, 32 / (size_t)lag, dt, bv, what);
        }
        if (c % 2) x[2 * 32 + 5] = NAN;
        size_t n = compress_with(0, x, count, dt, &b, s, cap), n2 = compress_with(1, x, count, dt, &b, s2, cap);
        TU_CHECK(n == n2 && memcmp(s, s2, n) == 0, "Q45 %s: fast and reference streams differ", what);
        q45_flips(s, n, x, count, dt, bv, what);
        free(s), free(s2);
    }
}

static void q45_edges(void)
{
    tu_rng rng = {4545};
    for (int c = 0; c <= 11; c++) q45_case(c, &rng);
    TU_CHECK(q45.sign[0] > 0 && q45.sign[1] > 0 && q45.sign[2] > 0 && q45.none > 0 && q45.head > 0 &&
                 q45.rejected > 0 && q45.rejected < q45.flips,
             "Q45 coverage: %ld full blocks (sign modes %ld/%ld/%ld, %ld predictor none, %ld head), %ld of %ld "
             "flips rejected", q45.blocks, q45.sign[0], q45.sign[1], q45.sign[2], q45.none, q45.head,
             q45.rejected, q45.flips);
    printf("Q45: %ld full 45-plane QUANT blocks (sign map %ld, >= 0 %ld, <= 0 %ld; %ld predictor none, %ld "
           "head), %ld corruptions (%ld rejected)\n", q45.blocks, q45.sign[0], q45.sign[1], q45.sign[2], q45.none,
           q45.head, q45.flips, q45.rejected);
}

/* Values whose error is exactly the bound (x = (k + 1/2) D, eb = D / 2 exactly): they quantize
 * (section 8: |x - q D| <= eb), so the fast paths must not take them for RAW blocks, in every
 * format version (versions 2 and 3 quantize through eccl_tile_quantize). */
static void tie_edges(void)
{
    const double eb = 0x1p-10, D = 0x1p-9; /* 2 eb has no bits to clear: D = 2 eb */
    for (unsigned d = 0; d < 4; d++) {
        eccl_dtype_t dt = dtypes[d];
        int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
        size_t count = dt >= ECCL_COMPLEX64 ? 64 : 128, reals = 128, esz = eccl_dtype_size(dt);
        unsigned char *x = tu_malloc(count * esz);
        for (size_t i = 0; i < reals; i++) {
            double v = ((double)(int)(i * 37 % 101) - 50.0 + 0.5) * D; /* exact in float32 too */
            if (is64) memcpy(x + 8 * i, &v, 8);
            else {
                float f = (float)v;
                memcpy(x + 4 * i, &f, 4);
            }
        }
        eccl_bound_t b = {ECCL_MODE_ABS, eb, 0};
        size_t cap = eccl_compress_bound(count, dt);
        unsigned char *s1 = tu_malloc(cap), *s2 = tu_malloc(cap);
        for (int v = 1; v <= 3; v++) {
            size_t nr = 0, nf = 0;
            TU_RC(eccl_compress_fmt(x, count, dt, &b, s1, cap, &nr, ECCL_PATH_REFERENCE, v), ECCL_SUCCESS);
            TU_RC(eccl_compress_fmt(x, count, dt, &b, s2, cap, &nf, ECCL_PATH_FAST, v), ECCL_SUCCESS);
            TU_CHECK(nr == nf && memcmp(s1, s2, nr) == 0, "errors exactly at the bound, %s, version %d: the fast "
                     "stream differs from the reference's (%zu vs %zu bytes)", eccl_dtype_name(dt), v, nf, nr);
            TU_CHECK(nr < reals * (is64 ? 8 : 4), "errors exactly at the bound, %s, version %d: the reference "
                     "stored RAW blocks (%zu bytes)", eccl_dtype_name(dt), v, nr);
        }
        free(x);
        free(s1);
        free(s2);
    }
}

int main(void)
{
    if (!eccl_fast_available()) {
        printf("SKIP: this CPU has no AVX2, so there is no fast path to compare\n");
        return 77;
    }
    const double bounds[] = {1e-1, 1e-3, 1e-5, 1e-7, 1e-10, 1e-14, 0.5};
    const size_t count = 20000;
    tu_rng rng = {42};
    for (unsigned d = 0; d < 4; d++) {
        eccl_dtype_t dt = dtypes[d];
        int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
        size_t reals = count * (dt >= ECCL_COMPLEX64 ? 2 : 1), esz = eccl_dtype_size(dt);
        void *x = tu_malloc(count * esz), *y1 = tu_malloc(count * esz), *y2 = tu_malloc(count * esz);
        void *xl = tu_malloc(count * esz); /* the local array of the homomorphic operations */
        size_t cap = eccl_compress_bound(count, dt);
        unsigned char *s1 = tu_malloc(cap), *s2 = tu_malloc(cap), *s3 = tu_malloc(cap);
        unsigned char *o1 = tu_malloc(cap), *o2 = tu_malloc(cap);
        int hom = 1;
        for (int pat = 0; pat < TU_NPATTERNS; pat++) {
            tu_fill(x, reals, is64, pat, 7 + d);
            for (unsigned bi = 0; bi < sizeof bounds / sizeof *bounds; bi++) {
                for (int rel = 0; rel < 3; rel++) { /* ABS, REL, and (once) LOSSLESS: RAW blocks only */
                    if (rel == 2 && bi) continue;
                    eccl_bound_t b = {rel == 2 ? ECCL_MODE_LOSSLESS : rel ? ECCL_MODE_REL : ECCL_MODE_ABS,
                                      rel == 2 ? 0.0 : bounds[bi], rel == 1 ? ECCL_RANGE_FROM_DATA : 0.0};
                    size_t n1 = compress_with(1, x, count, dt, &b, s1, cap);
                    size_t n2 = compress_with(0, x, count, dt, &b, s2, cap);
                    TU_CHECK(n1 == n2 && memcmp(s1, s2, n1) == 0,
                             "fast and reference streams differ: %s %s bound %g rel %d (%zu vs %zu bytes)",
                             eccl_dtype_name(dt), tu_pattern_name[pat], bounds[bi], rel, n1, n2);
                    eccl_result_t r1 = decompress_with(1, s1, n1, y1, count, dt);
                    eccl_result_t r2 = decompress_with(0, s1, n1, y2, count, dt);
                    TU_CHECK(r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS && memcmp(y1, y2, count * esz) == 0,
                             "fast and reference decodes differ: %s %s bound %g", eccl_dtype_name(dt),
                             tu_pattern_name[pat], bounds[bi]);
                    size_t n3 = 0;
                    if (hom) { /* local data of another kind; its stream with the same bound */
                        tu_fill(xl, reals, is64, (pat + 3) % TU_NPATTERNS, 11 + d + bi);
                        eccl_bound_t b3 = b;
                        if (rel) b3.range = eccl_stream_range_of(s1, n1);
                        n3 = compress_with(0, xl, count, dt, &b3, s3, cap);
                        hom_compare(s1, n1, xl, s3, n3, count, dt, o1, o2, cap, tu_pattern_name[pat]);
                    }
                    /* Corrupt payload bytes (checksum repaired): both paths give the same verdict,
                     * and the same values when they accept. */
                    if (pat == TU_SMOOTH || pat == TU_RANDOM) {
                        size_t P = 64 + 8 * ((reals / 32 + 255) / 256 + 1);
                        for (int trial = 0; trial < 40 && n1 > P + 64; trial++) {
                            memcpy(s2, s1, n1);
                            size_t pos = P + tu_next(&rng) % (n1 - P - 16);
                            s2[pos] ^= (unsigned char)(1u << (tu_next(&rng) % 8));
                            fix_checksum(s2, n1);
                            r1 = decompress_with(1, s2, n1, y1, count, dt);
                            r2 = decompress_with(0, s2, n1, y2, count, dt);
                            TU_CHECK(r1 == r2, "verdicts differ on corrupted stream: %d vs %d", r1, r2);
                            if (r1 == ECCL_SUCCESS)
                                TU_CHECK(memcmp(y1, y2, count * esz) == 0, "values differ on corrupted stream");
                            if (hom && trial % 4 == 0)
                                hom_compare(s2, n1, xl, NULL, 0, count, dt, o1, o2, cap, "corrupted stream");
                        }
                    }
                }
            }
        }
        free(x);
        free(y1);
        free(y2);
        free(xl);
        free(s1);
        free(s2);
        free(s3);
        free(o1);
        free(o2);
    }
    raw_edges();
    raw64_edges();
    q45_edges();
    tie_edges();
    return tu_finish("test_fastpath");
}
