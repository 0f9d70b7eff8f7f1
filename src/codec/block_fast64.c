/*
 * block_fast64.c - the AVX2 twins of the 64-bit block paths (float64, complex128 as pairs): the
 * same contract as block_fast.c (exactly the bytes and values of block.c's reference functions,
 * or ECCL_FAST_DECLINE). Builds without the x86 fast path get these symbols from fast_stubs.c.
 */
#include "config.h"

#include "codec/fast.h"
#include "codec/fast_avx2.h"

#include <math.h>

#if ECCL_HAVE_X86_FAST

/* ================================ float64 ================================ */

typedef struct {
    __m256i mag[8];
    uint32_t neg, pos;
    uint64_t all;
} d64_t;

ECCL_AVX2 static inline void stats64(d64_t *o, const __m256i *d)
{
    __m256i acc = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
    o->neg = o->pos = 0;
    for (int k = 0; k < 8; k++) {
        __m256i sgn = _mm256_cmpgt_epi64(zero, d[k]);
        o->mag[k] = _mm256_sub_epi64(_mm256_xor_si256(d[k], sgn), sgn);
        acc = _mm256_or_si256(acc, o->mag[k]);
        o->neg |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(sgn)) << (4 * k);
        o->pos |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(d[k], zero)))
                  << (4 * k);
    }
    __m128i a = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    a = _mm_or_si128(a, _mm_shuffle_epi32(a, 0x4E));
    o->all = (uint64_t)_mm_cvtsi128_si64(a);
}

/* The F <= 64 planes of 32 magnitudes held in eight registers of 4, at out (32-bit words): the
 * low and high 32 bits of the magnitudes as the float32 encoder's four registers of 8, their bytes
 * (mag_bytes32), then a shift and a movemask per plane (fast_avx2.h). */
ECCL_AVX2 static inline void write_planes64(unsigned char *out, const __m256i *mag, int F)
{
    if (F <= 0) return;
    __m256i lo[4], hi[4], B[8];
    for (int k = 0; k < 4; k++) { /* values 8k..8k+7: dwords 0 and 2 of each qword, then 1 and 3 */
        __m256 a = _mm256_castsi256_ps(mag[2 * k]), b = _mm256_castsi256_ps(mag[2 * k + 1]);
        lo[k] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88)), 0xD8);
        hi[k] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8);
    }
    mag_bytes32(lo, F < 32 ? (F + 7) >> 3 : 4, B);
    if (F > 32) mag_bytes32(hi, (F - 32 + 7) >> 3, B + 4);
    write_planes_bytes(out, B, F);
}

ECCL_AVX2 int eccl_fast_quantize_f64(const eccl_qparams_t *p, const double *x, int64_t *q)
{
    const __m256d R = _mm256_set1_pd(p->R), D = _mm256_set1_pd(p->D), EB = _mm256_set1_pd(p->eb);
    const __m256d QM = _mm256_set1_pd((double)p->qmax);
    const __m256d ABS = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll));
    __m256d good = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    for (int k = 0; k < 8; k++) {
        __m256d xd = _mm256_loadu_pd(x + 4 * k);
        __m256d qd = _mm256_round_pd(_mm256_mul_pd(xd, R), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256d rec = _mm256_mul_pd(qd, D);
        __m256d s1 = _mm256_and_pd(_mm256_sub_pd(xd, rec), ABS);
        __m256d ok = _mm256_and_pd(_mm256_cmp_pd(_mm256_and_pd(qd, ABS), QM, _CMP_LE_OQ),
                                   _mm256_cmp_pd(s1, EB, _CMP_LT_OQ));
        good = _mm256_and_pd(good, ok);
        /* for lanes that failed, qd may be huge or NaN: zero it so the conversion stays defined */
        qd = _mm256_and_pd(qd, ok);
        _mm256_storeu_si256((__m256i *)(q + 4 * k), dbl_to_i64(qd));
    }
    return _mm256_movemask_pd(good) == 0xF;
}

ECCL_AVX2 int eccl_fast_encode_q64(const eccl_qparams_t *p, const int64_t *qin, eccl_pred_t *pr,
                                   unsigned char *out, unsigned *code)
{
    int64_t qb[40] __attribute__((aligned(32)));
    int64_t *q = qb + 4;
    for (int k = 0; k < 8; k++)
        _mm256_store_si256((__m256i *)(q + 4 * k), _mm256_loadu_si256((const __m256i *)(qin + 4 * k)));
    int head = !pr->have, lag = p->lag;
    if (head) q[-1] = q[-2] = q[0];
    else {
        q[-2] = pr->q[0];
        q[-1] = pr->q[1];
    }
    __m256i dl[8], dn[8];
    for (int k = 0; k < 8; k++) {
        __m256i cur = _mm256_load_si256((const __m256i *)(q + 4 * k));
        dl[k] = _mm256_sub_epi64(cur, _mm256_loadu_si256((const __m256i *)(q + 4 * k - lag)));
        dn[k] = cur;
    }
    d64_t L, N;
    stats64(&L, dl);
    stats64(&N, dn);
    choice_t cl = choose(L.all, L.neg, L.pos, 1, head ? 6 : 0);
    choice_t cn = choose(N.all, N.neg, N.pos, 1, 0);
    int none = cn.size < cl.size;
    const choice_t *c = none ? &cn : &cl;
    const d64_t *d = none ? &N : &L;
    int o = 0;
    if (!none && head) {
        uint64_t z = eccl_fmt_zigzag(q[0]);
        for (int k = 0; k < 6; k++) out[k] = (unsigned char)(z >> (8 * k));
        o = 6;
    }
    if (c->F > 0) {
        if (c->s == ECCL_FMT_SIGN_MAP) {
            eccl_st32(out + o, d->neg);
            o += 4;
        }
        write_planes64(out + o, d->mag, c->F);
    }
    *code = eccl_fmt_quant_code((unsigned)c->s, none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                (unsigned)c->fc);
    pr->have = 1;
    pr->q[0] = q[32 - lag];
    pr->q[1] = q[31];
    pr->q[2] = q[30];
    return c->size;
}

/* Whether some value of a block that failed the quantizer certainly does not quantize (section 8):
 * its |q| is above qmax (NaN too: the reference clamps it to -2^50), or its error is computed above
 * EB (1 + 2^-50), so above EB exactly (q * D is exact for |q| <= qmax, the subtraction rounds by
 * at most 2^-53 relative; an infinite q * D is an infinite error). The block is then RAW. */
ECCL_AVX2 int eccl_fast_unquantizable_f64(const eccl_qparams_t *p, const double *x)
{
    const __m256d R = _mm256_set1_pd(p->R), D = _mm256_set1_pd(p->D), QM = _mm256_set1_pd((double)p->qmax);
    const __m256d EBHI = _mm256_set1_pd(p->eb * (1.0 + 0x1p-50));
    const __m256d ABS = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll));
    __m256d bad = _mm256_setzero_pd();
    for (int k = 0; k < 8; k++) {
        __m256d xd = _mm256_loadu_pd(x + 4 * k);
        __m256d qd = _mm256_round_pd(_mm256_mul_pd(xd, R), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256d s1 = _mm256_and_pd(_mm256_sub_pd(xd, _mm256_mul_pd(qd, D)), ABS);
        bad = _mm256_or_pd(bad, _mm256_or_pd(_mm256_cmp_pd(_mm256_and_pd(qd, ABS), QM, _CMP_NLE_UQ),
                                             _mm256_cmp_pd(s1, EBHI, _CMP_GT_OQ)));
    }
    return _mm256_movemask_pd(bad) != 0;
}

ECCL_AVX2 int eccl_fast_encode_f64(const eccl_qparams_t *p, const double *x, eccl_pred_t *pr,
                                   unsigned char *out, unsigned *code)
{
    int64_t q[32];
    if (!eccl_fast_quantize_f64(p, x, q))
        return eccl_fast_unquantizable_f64(p, x) ? ECCL_FAST_RAW : ECCL_FAST_DECLINE;
    return eccl_fast_encode_q64(p, q, pr, out, code);
}

ECCL_AVX2 int eccl_fast_encode_raw64(const uint64_t *v, int lag, unsigned char *out, unsigned *code)
{
    /* keys (eccl_fmt_key64), |key[i] - key[prev]| and the sign map of key[i] < key[prev] (unsigned),
     * prev = i - lag (i - 1 below lag), nothing for value 0 */
    uint64_t kb[36] __attribute__((aligned(32)));
    uint64_t *key = kb + 4;
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ull), zero = _mm256_setzero_si256();
    __m256i x[8];
    for (int k = 0; k < 8; k++) {
        x[k] = _mm256_loadu_si256((const __m256i *)(v + 4 * k));
        __m256i flip = _mm256_or_si256(_mm256_cmpgt_epi64(zero, x[k]), top);
        _mm256_store_si256((__m256i *)(key + 4 * k), _mm256_xor_si256(x[k], flip));
    }
    key[-2] = key[-1] = key[0]; /* value 0 has no difference; value 1 is predicted from value 0 */
    __m256i mag[8], acc = zero;
    uint32_t sign = 0;
    for (int k = 0; k < 8; k++) {
        __m256i a = _mm256_load_si256((const __m256i *)(key + 4 * k));
        __m256i b = _mm256_loadu_si256((const __m256i *)(key + 4 * k - lag));
        __m256i lt = _mm256_cmpgt_epi64(_mm256_xor_si256(b, top), _mm256_xor_si256(a, top)); /* a < b */
        __m256i d = _mm256_sub_epi64(a, b);
        mag[k] = _mm256_sub_epi64(_mm256_xor_si256(d, lt), lt); /* b - a where a < b */
        acc = _mm256_or_si256(acc, mag[k]);
        sign |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(lt)) << (4 * k);
    }
    __m128i o = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0x4E));
    uint64_t all = (uint64_t)_mm_cvtsi128_si64(o);
    int F = all ? 64 - __builtin_clzll(all) : 0;
    int size = 8 + (F > 0 ? 4 + 4 * F : 0);
    if (!out) { /* (the size alone) */
        *code = F <= 62 && size < 256 ? eccl_fmt_raw_code((unsigned)F) : 0xFFu;
        return F <= 62 && size < 256 ? size : 256;
    }
    if (F <= 62 && size < 256) {
        _mm_storeu_si64(out, _mm256_castsi256_si128(x[0])); /* value 0's encoding */
        if (F > 0) {
            eccl_st32(out + 8, sign);
            write_planes64(out + 12, mag, F);
        }
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(out + 32 * k), x[k]);
    *code = 0xFFu;
    return 256;
}

ECCL_AVX2 static inline __m256i scan64(__m256i x, int lag, __m256i carry)
{
    if (lag == 1) return scan4(x, carry);
    x = _mm256_add_epi64(x, _mm256_permute2x128_si256(x, x, 0x08)); /* low half into high */
    return _mm256_add_epi64(x, carry);
}

/* The F <= 62 planes at `in` -> the 32 magnitudes in eight registers of 4 (mag[k] holds values
 * 4k..4k+3): planes_to_mag32 on planes 0..31 and on planes 32..F-1, interleaved. *nz: the OR of
 * the planes, *last: the top plane (0 when F = 0). */
ECCL_AVX2 static inline void planes_to_mag64(const unsigned char *in, int F, __m256i *mag, uint32_t *nz,
                                             uint32_t *last)
{
    __m256i lo[4], hi[4];
    uint32_t nzhi = 0;
    planes_to_mag32(in, F < 32 ? F : 32, lo, nz, last);
    if (F > 32) {
        planes_to_mag32(in + 128, F - 32, hi, &nzhi, last);
        *nz |= nzhi;
    } else {
        hi[0] = hi[1] = hi[2] = hi[3] = _mm256_setzero_si256();
    }
    for (int k = 0; k < 4; k++) { /* (low, high) word pairs: values 8k..8k+7 */
        __m256i a = _mm256_unpacklo_epi32(lo[k], hi[k]), b = _mm256_unpackhi_epi32(lo[k], hi[k]);
        mag[2 * k] = _mm256_permute2x128_si256(a, b, 0x20);
        mag[2 * k + 1] = _mm256_permute2x128_si256(a, b, 0x31);
    }
}

/* A RAW block of 32 float64 encodings (read_raw of block.c; the twin of block_fast.c's read_raw32):
 * 0, or -1 (not canonical: the reference path confirms; v may have been written). */
ECCL_AVX2 static int read_raw64(unsigned code, int lag, const unsigned char *in, uint64_t *v)
{
    if (code == 0xFFu) { /* VERBATIM */
        for (int k = 0; k < 8; k++)
            _mm256_storeu_si256((__m256i *)(v + 4 * k), _mm256_loadu_si256((const __m256i *)(in + 32 * k)));
        return 0;
    }
    int F = (int)(code & 63u); /* <= 62: 63 is VERBATIM (and a full block's size allows 60) */
    uint32_t neg = F > 0 ? eccl_ld32(in + 8) : 0u, nz = 0, w = 0;
    __m256i mag[8];
    planes_to_mag64(in + 12, F, mag, &nz, &w);
    /* canonical: value 0 has no difference, the top plane is not empty, signs only where a
     * difference is */
    if (F > 0 && ((nz & 1u) || w == 0 || (neg & ~nz))) return -1;
    /* keys: prefix sums with stride lag of the signed differences (|d_i| < 2^62, d_0 = 0) from value
     * 0's key, which is also the predecessor of values 0 and 1; taken modulo 2^64. The first key to
     * leave [0, 2^64) has an exact predecessor, so it shows as a key above its predecessor after a
     * negative difference, or below it after a positive one; before it, every key is exact. */
    const __m256i one = _mm256_set1_epi64x(1), zero = _mm256_setzero_si256(), ones = _mm256_set1_epi64x(-1);
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const __m256i nv = _mm256_set1_epi64x((long long)neg);
    __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3), bad = zero;
    __m256i carry = _mm256_set1_epi64x((long long)eccl_fmt_key64(eccl_ld64(in)));
    for (int k = 0; k < 8; k++) {
        __m256i sgn = _mm256_sub_epi64(zero, _mm256_and_si256(_mm256_srlv_epi64(nv, idx), one));
        __m256i key = scan64(_mm256_sub_epi64(_mm256_xor_si256(mag[k], sgn), sgn), lag, carry);
        __m256i prev = lag == 1 ? _mm256_blend_epi32(_mm256_permute4x64_epi64(key, 0x90), carry, 0x03)
                                : _mm256_permute2x128_si256(carry, key, 0x20);
        __m256i ku = _mm256_xor_si256(key, top), pu = _mm256_xor_si256(prev, top); /* unsigned order */
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_and_si256(sgn, _mm256_cmpgt_epi64(ku, pu)),
                                                   _mm256_andnot_si256(sgn, _mm256_cmpgt_epi64(pu, ku))));
        carry = lag == 1 ? _mm256_permute4x64_epi64(key, 0xFF) : _mm256_permute4x64_epi64(key, 0xEE);
        /* eccl_fmt_unkey64: the top bit set -> clear it, else invert all */
        __m256i flip = _mm256_or_si256(_mm256_xor_si256(_mm256_cmpgt_epi64(zero, key), ones), top);
        _mm256_storeu_si256((__m256i *)(v + 4 * k), _mm256_xor_si256(key, flip));
        idx = _mm256_add_epi64(idx, _mm256_set1_epi64x(4));
    }
    return _mm256_testz_si256(bad, bad) ? 0 : -1;
}

/* The optional sign map and the 45 planes of a QUANT block with fc = 31 -> its 32 signed deltas in
 * eight registers of 4 (d[k]: values 4k..4k+3), with read_planes' canonical checks (block.c): no bit
 * at position 0 where d_0 is not coded (zero_first), the bit length of max |d_i| in 31..45 (some
 * plane from 30 up is not empty: planes 31..44 may all be), a sign bit only where d_i != 0 and both
 * signs present (s = 0). 0, or -1. */
ECCL_AVX2 static inline int read_deltas45(const unsigned char *in, unsigned s, int zero_first, __m256i *d)
{
    uint32_t sm = 0, nz = 0, w = 0, neg;
    int o = 0;
    if (s == ECCL_FMT_SIGN_MAP) {
        sm = eccl_ld32(in);
        o = 4;
    }
    __m256i mag[8], acc = _mm256_setzero_si256();
    planes_to_mag64(in + o, ECCL_FMT_FQ64, mag, &nz, &w);
    for (int k = 0; k < 8; k++) acc = _mm256_or_si256(acc, mag[k]);
    const __m256i high = _mm256_set1_epi64x((long long)0xFFFFFFFFC0000000ull); /* |d| >= 2^30 */
    if ((zero_first && (nz & 1u)) || _mm256_testz_si256(acc, high)) return -1;
    if (s == ECCL_FMT_SIGN_MAP) {
        if ((sm & ~nz) || sm == 0 || (nz & ~sm) == 0) return -1;
        neg = sm;
    } else {
        neg = s == ECCL_FMT_SIGN_POS ? 0u : nz;
    }
    const __m256i one = _mm256_set1_epi64x(1), zero = _mm256_setzero_si256();
    const __m256i nv = _mm256_set1_epi64x((long long)neg);
    __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
    for (int k = 0; k < 8; k++) {
        __m256i sgn = _mm256_sub_epi64(zero, _mm256_and_si256(_mm256_srlv_epi64(nv, idx), one));
        d[k] = _mm256_sub_epi64(_mm256_xor_si256(mag[k], sgn), sgn);
        idx = _mm256_add_epi64(idx, _mm256_set1_epi64x(4));
    }
    return 0;
}

/* A QUANT block's integers (read_quant of block.c; any F) in eight registers of 4: 0, -1 (not
 * canonical: the reference path confirms), or ECCL_FAST_DECLINE (a RAW code). pr is only updated
 * on 0. */
ECCL_AVX2 static int read_q64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                              eccl_pred_t *pr, __m256i *d)
{
    if (eccl_fmt_code_is_raw(code)) return ECCL_FAST_DECLINE;
    unsigned s = eccl_fmt_code_sign(code), pred = eccl_fmt_code_pred(code);
    int fc = (int)(code & 31u), F = eccl_fmt_quant_planes(code, 1), lag = p->lag;
    int head = pred == ECCL_FMT_PRED_LORENZO && !pr->have;
    int64_t q0 = 0, qmax = p->qmax;
    int o = 0;
    if (head) {
        uint64_t z = 0;
        for (int k = 0; k < 6; k++) z |= (uint64_t)in[k] << (8 * k);
        q0 = eccl_fmt_unzigzag(z);
        if (q0 > qmax || q0 < -qmax) return -1;
        o = 6;
    }
    if (F == 0) {
        for (int k = 0; k < 8; k++) d[k] = _mm256_setzero_si256();
    } else if (F <= 30) {
        __m256i d32[4];
        if (read_deltas32(in + o, F, fc, s, head, d32)) return -1;
        for (int k = 0; k < 4; k++) {
            d[2 * k] = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(d32[k]));
            d[2 * k + 1] = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(d32[k], 1));
        }
    } else if (read_deltas45(in + o, s, head, d)) { /* fc = 31: F = 45 */
        return -1;
    }
    /* |d_i| < 2^45 and |q0|, |pr->q| <= QMAX: no sum below leaves int64 (|q| < 2^51), so checking
     * them all at the end rejects exactly the blocks the reference rejects value by value */
    if (pred == ECCL_FMT_PRED_LORENZO) {
        int64_t c0 = head ? q0 : pr->q[0], c1 = head ? q0 : pr->q[1];
        __m256i carry = lag == 1 ? _mm256_set1_epi64x(c1) : _mm256_setr_epi64x(c0, c1, c0, c1);
        for (int k = 0; k < 8; k++) {
            d[k] = scan64(d[k], lag, carry);
            carry = lag == 1 ? _mm256_permute4x64_epi64(d[k], 0xFF) : _mm256_permute4x64_epi64(d[k], 0xEE);
        }
    }
    const __m256i QM = _mm256_set1_epi64x(qmax), NQM = _mm256_set1_epi64x(-qmax);
    __m256i bad = _mm256_setzero_si256();
    for (int k = 0; k < 8; k++)
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi64(d[k], QM), _mm256_cmpgt_epi64(NQM, d[k])));
    if (!_mm256_testz_si256(bad, bad)) return -1;
    pr->have = 1;
    pr->q[0] = lag == 1 ? _mm256_extract_epi64(d[7], 3) : _mm256_extract_epi64(d[7], 2);
    pr->q[1] = _mm256_extract_epi64(d[7], 3);
    pr->q[2] = _mm256_extract_epi64(d[7], 2);
    return 0;
}

ECCL_AVX2 int eccl_fast_read_q64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                 eccl_pred_t *pr, int64_t *q)
{
    __m256i d[8];
    int rc = read_q64(p, code, in, pr, d);
    if (rc) return rc;
    for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(q + 4 * k), d[k]);
    return 0;
}

ECCL_AVX2 int eccl_fast_decode_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                   eccl_pred_t *pr, double *x)
{
    if (eccl_fmt_code_is_raw(code)) {
        if (!p->is64) return ECCL_FAST_DECLINE;
        int rc = read_raw64(code, p->lag, in, (uint64_t *)(void *)x);
        if (!rc) pr->have = 0;
        return rc;
    }
    __m256i d[8];
    int rc = read_q64(p, code, in, pr, d);
    if (rc) return rc;
    const __m256d D = _mm256_set1_pd(p->D);
    for (int k = 0; k < 8; k++) _mm256_storeu_pd(x + 4 * k, _mm256_mul_pd(i64_to_dbl(d[k]), D));
    return 0;
}

/* ================================ version 2 ================================ */

/* The integers of a full block with their predecessors at q[-2], q[-1] (head: q_0 for both; lag
 * 2: the real part's q_{-2}; second order: lag 1's q_{-2}), and the deltas of predictor kind k
 * (0 Lorenzo, 1 none, 2 second order: q_i - 2 q_{i-1} + q_{i-2}, |d| < 2^47). */
ECCL_AVX2 static inline void load_q64(const int64_t *qin, const eccl_pred_t *pr, int lag, int64_t *q)
{
    for (int k = 0; k < 8; k++)
        _mm256_store_si256((__m256i *)(q + 4 * k), _mm256_loadu_si256((const __m256i *)(qin + 4 * k)));
    q[-1] = pr->have ? pr->q[1] : q[0];
    q[-2] = pr->have ? (lag == 2 ? pr->q[0] : pr->q[2]) : q[0];
}
ECCL_AVX2 static inline void deltas64(const int64_t *q, int lag, int kind, __m256i *d)
{
    for (int k = 0; k < 8; k++) {
        __m256i cur = _mm256_load_si256((const __m256i *)(q + 4 * k));
        if (kind == 0) {
            d[k] = _mm256_sub_epi64(cur, _mm256_loadu_si256((const __m256i *)(q + 4 * k - lag)));
        } else if (kind == 1) {
            d[k] = cur;
        } else {
            __m256i a = _mm256_loadu_si256((const __m256i *)(q + 4 * k - 1));
            __m256i b = _mm256_loadu_si256((const __m256i *)(q + 4 * k - 2));
            d[k] = _mm256_add_epi64(_mm256_sub_epi64(cur, _mm256_add_epi64(a, a)), b);
        }
    }
}

/* What choose needs of 32 int64 deltas, and no more (pricing): the OR of their magnitudes, and
 * masks that are nonzero where some delta is negative / positive. */
typedef struct {
    uint64_t all;
    uint32_t neg, pos;
} p64_t;

/* One vector of deltas into a candidate's three accumulators: the OR of the magnitudes, the OR of
 * the deltas (sign bits: some delta < 0) and the OR of their negations (some delta > 0; |d| < 2^63). */
ECCL_AVX2 static inline void price_acc64(__m256i d, __m256i *acc, __m256i *n, __m256i *ps)
{
    const __m256i zero = _mm256_setzero_si256(), sgn = _mm256_cmpgt_epi64(zero, d);
    *acc = _mm256_or_si256(*acc, _mm256_sub_epi64(_mm256_xor_si256(d, sgn), sgn));
    *n = _mm256_or_si256(*n, d);
    *ps = _mm256_or_si256(*ps, _mm256_sub_epi64(zero, d));
}
ECCL_AVX2 static inline p64_t price_bits64(__m256i acc, __m256i n, __m256i ps)
{
    __m128i a = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    a = _mm_or_si128(a, _mm_shuffle_epi32(a, 0x4E));
    p64_t o = {(uint64_t)_mm_cvtsi128_si64(a), (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(n)),
               (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(ps))};
    return o;
}
/* A block's three candidates priced in one pass over its integers: Lorenzo with the stream's lag
 * (*L), predictor none (*N) and second order (*S2; exact: |q| <= QMAX64 < 2^44). */
ECCL_AVX2 static inline void price3_64(const int64_t *q, int lag, p64_t *L, p64_t *N, p64_t *S2)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i la = zero, ln = zero, lp = zero, na = zero, nn = zero, np = zero, sa = zero, sn = zero, sp = zero;
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) {
        const __m256i cur = _mm256_load_si256((const __m256i *)(q + 4 * k));
        const __m256i a = _mm256_loadu_si256((const __m256i *)(q + 4 * k - 1));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(q + 4 * k - 2));
        const __m256i dl = _mm256_sub_epi64(cur, lag == 1 ? a : b);
        const __m256i d2 = _mm256_add_epi64(_mm256_sub_epi64(cur, _mm256_add_epi64(a, a)), b);
        price_acc64(dl, &la, &ln, &lp);
        price_acc64(cur, &na, &nn, &np);
        price_acc64(d2, &sa, &sn, &sp);
    }
    *L = price_bits64(la, ln, lp);
    *N = price_bits64(na, nn, np);
    *S2 = price_bits64(sa, sn, sp);
}

ECCL_AVX2 void eccl_fast_price_forms64i(const eccl_qparams_t *p, const int64_t *q, int head, int want_l2,
                                        int *size, unsigned *code)
{
    p64_t SL, SN, S2;
    price3_64(q, p->lag, &SL, &SN, &S2);
    choice_t cl = choose(SL.all, SL.neg, SL.pos, 1, head ? 6 : 0);
    choice_t cn = choose(SN.all, SN.neg, SN.pos, 1, 0);
    int none = cn.size < cl.size;
    /* (a full 64-bit block always fits: at most 6 + 4 + 180 of 256 bytes) */
    size[0] = none ? cn.size : cl.size;
    code[0] = none ? eccl_fmt_quant_code((unsigned)cn.s, ECCL_FMT_PRED_NONE, (unsigned)cn.fc)
                   : eccl_fmt_quant_code((unsigned)cl.s, ECCL_FMT_PRED_LORENZO, (unsigned)cl.fc);
    if (!want_l2) return;
    choice_t c2 = choose(S2.all, S2.neg, S2.pos, 1, head ? 6 : 0);
    int l2 = eccl_fmt_bitlen64(S2.all) <= ECCL_FMT_FQ64 && c2.size < cl.size;
    size[1] = l2 ? c2.size : cl.size;
    code[1] = l2 ? eccl_fmt_quant_code((unsigned)c2.s, ECCL_FMT_PRED_NONE, (unsigned)c2.fc)
                 : eccl_fmt_quant_code((unsigned)cl.s, ECCL_FMT_PRED_LORENZO, (unsigned)cl.fc);
}

ECCL_AVX2 int eccl_fast_write_quant64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned form,
                                       unsigned code, unsigned char *out)
{
    int kind = eccl_fmt_code_pred(code) == ECCL_FMT_PRED_LORENZO ? 0 : form == ECCL_FMT_FORM_L2 ? 2 : 1;
    __m256i d[8];
    d64_t S;
    deltas64(q, p->lag, kind, d);
    stats64(&S, d);
    choice_t c = choose(S.all, S.neg, S.pos, 1, head && kind != 1 ? 6 : 0);
    int o = 0;
    if (head && kind != 1) {
        uint64_t z = eccl_fmt_zigzag(q[0]);
        for (int k = 0; k < 6; k++) out[k] = (unsigned char)(z >> (8 * k));
        o = 6;
    }
    if (c.F > 0) {
        if (c.s == ECCL_FMT_SIGN_MAP) {
            eccl_st32(out + o, S.neg);
            o += 4;
        }
        write_planes64(out + o, S.mag, c.F);
    }
    return c.size;
}

ECCL_AVX2 void eccl_fast_price_forms64(const eccl_qparams_t *p, const int64_t *qin, const eccl_pred_t *pr,
                                       int want_l2, int *size, unsigned *code)
{
    int64_t qb[40] __attribute__((aligned(32)));
    load_q64(qin, pr, p->lag, qb + 4);
    eccl_fast_price_forms64i(p, qb + 4, !pr->have, want_l2, size, code);
}

ECCL_AVX2 int eccl_fast_write_quant64(const eccl_qparams_t *p, const int64_t *qin, const eccl_pred_t *pr,
                                      unsigned form, unsigned code, unsigned char *out)
{
    int64_t qb[40] __attribute__((aligned(32)));
    load_q64(qin, pr, p->lag, qb + 4);
    return eccl_fast_write_quant64i(p, qb + 4, !pr->have, form, code, out);
}

/* ================================ version 3 ================================ */

ECCL_AVX2 void eccl_fast_price_all64(const eccl_qparams_t *p, const int64_t *qin, const eccl_pred_t *pr, unsigned want,
                                     int *cost, int *bytes, unsigned *code)
{
    int64_t qb[40] __attribute__((aligned(32)));
    load_q64(qin, pr, p->lag, qb + 4);
    eccl_fast_price_all64i(p, qb + 4, !pr->have, want, cost, bytes, code);
}

ECCL_AVX2 void eccl_fast_price_all64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned want, int *cost,
                                      int *bytes, unsigned *code)
{
    eccl_fmt_dstat_t st[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}; /* Lorenzo, none, second order */
    for (int k = 0; k < 3; k++) {
        if ((k == 1 && !(want & 1u)) || (k == 2 && !(want & 10u))) continue;
        __m256i d[8];
        d64_t S;
        deltas64(q, k == 2 ? 1 : p->lag, k, d); /* (second order: exact, |q| <= QMAX64 < 2^44) */
        stats64(&S, d);
        st[k].all = S.all, st[k].neg = S.neg, st[k].pos = S.pos;
    }
    eccl_fmt_price_v3(1, 32, head, want, st[0], st[1], st[2], 1, cost, bytes, code);
}

/* A second-order block's integers in eight registers (l2_integrate): 0 (pr updated) or -1. */
ECCL_AVX2 static int read_l2_64(const eccl_qparams_t *p, unsigned code, const unsigned char *in, eccl_pred_t *pr,
                                __m256i *dv)
{
    unsigned s = eccl_fmt_code_sign(code);
    int fc = (int)(code & 31u), F = eccl_fmt_quant_planes(code, 1), head = !pr->have, o = 0;
    int64_t q0 = 0;
    if (head) {
        uint64_t z = 0;
        for (int k = 0; k < 6; k++) z |= (uint64_t)in[k] << (8 * k);
        q0 = eccl_fmt_unzigzag(z);
        if (q0 > p->qmax || q0 < -p->qmax) return -1;
        o = 6;
    }
    if (F == 0) {
        for (int k = 0; k < 8; k++) dv[k] = _mm256_setzero_si256();
    } else if (F <= 30) {
        __m256i d32[4];
        if (read_deltas32(in + o, F, fc, s, head, d32)) return -1;
        for (int k = 0; k < 4; k++) {
            dv[2 * k] = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(d32[k]));
            dv[2 * k + 1] = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(d32[k], 1));
        }
    } else if (read_deltas45(in + o, s, head, dv)) {
        return -1;
    }
    return l2_integrate(dv, head, q0, p->qmax, pr);
}

ECCL_AVX2 int eccl_fast_read_l2_64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                   eccl_pred_t *pr, int64_t *q)
{
    __m256i v[8];
    if (read_l2_64(p, code, in, pr, v)) return -1;
    for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(q + 4 * k), v[k]);
    return 0;
}

ECCL_AVX2 int eccl_fast_decode_l2_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                     eccl_pred_t *pr, double *x)
{
    __m256i v[8];
    if (read_l2_64(p, code, in, pr, v)) return -1;
    const __m256d D = _mm256_set1_pd(p->D);
    for (int k = 0; k < 8; k++) _mm256_storeu_pd(x + 4 * k, _mm256_mul_pd(i64_to_dbl(v[k]), D));
    return 0;
}

#endif
