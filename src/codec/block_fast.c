/*
 * block_fast.c - AVX2 twins of the hot block paths: quantize + encode a full block, and decode a
 * full QUANT block. They produce exactly the bytes (and values) of the reference functions in
 * block.c, which remain the specification: whenever a block is anything but the common case
 * (a value that does not quantize, a rounded error exactly equal to the bound, a short block, a
 * RAW block), the fast function declines (returns ECCL_FAST_DECLINE) and the caller uses the
 * reference path. tests/test_fastpath.c checks the two agree byte for byte.
 *
 * Selected at run time where the CPU has AVX2 and the other features ECCL_AVX2 compiles for (FMA,
 * BMI1/2, POPCNT; a virtual machine may hide some); other CPUs use the reference path.
 * The float64 twins are in block_fast64.c, version 3's in sparse_fast.c.
 */
#include "config.h"

#include "codec/fast.h"
#include "codec/fast_avx2.h"

#include <math.h>

#if ECCL_HAVE_X86_FAST

int eccl_fast_available(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
}

/* ================================ float32 ================================ */

/* The sign map (with_sign) and planes 0..F-1 of the magnitudes (bit i of plane j = bit j of value
 * i), from their bytes (fast_avx2.h). */
ECCL_AVX2 static inline int write_planes32(unsigned char *out, const __m256i *mag, uint32_t sign,
                                           int F, int with_sign)
{
    int o = 0;
    if (with_sign) {
        eccl_st32(out, sign);
        o = 4;
    }
    __m256i B[4];
    if (F > 0) mag_bytes32(mag, (F + 7) >> 3, B);
    write_planes_bytes(out + o, B, F);
    return o + 4 * F;
}

/* Whether some value of a block that failed the quantizer is certainly not quantizable because of
 * its error: one of its two errors (section 8) is computed above EB (1 + 2^-50), so it is above EB
 * exactly (q * D and float(q * D) are exact, the subtraction rounds by at most 2^-53 relative). A
 * tight bound on float32 data, where float(q * D) misses the bound, makes most blocks so. */
ECCL_AVX2 static int error_over32(const eccl_qparams_t *p, const float *x)
{
    const __m256d R = _mm256_set1_pd(p->R), D = _mm256_set1_pd(p->D);
    const __m256d EBHI = _mm256_set1_pd(p->eb * (1.0 + 0x1p-50));
    const __m256d ABS = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll));
    __m256d over = _mm256_setzero_pd();
    for (int k = 0; k < 8; k++) {
        __m256d xd = _mm256_cvtps_pd(_mm_loadu_ps(x + 4 * k));
        __m256d rec = _mm256_mul_pd(_mm256_round_pd(_mm256_mul_pd(xd, R), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), D);
        __m256d s1 = _mm256_and_pd(_mm256_sub_pd(xd, rec), ABS);
        __m256d s2 = _mm256_and_pd(_mm256_sub_pd(xd, _mm256_cvtps_pd(_mm256_cvtpd_ps(rec))), ABS);
        over = _mm256_or_pd(over, _mm256_or_pd(_mm256_cmp_pd(s1, EBHI, _CMP_GT_OQ), _mm256_cmp_pd(s2, EBHI, _CMP_GT_OQ)));
    }
    return _mm256_movemask_pd(over) != 0;
}

/* eccl_fast_quantize_f32, and in *out 1 when some value is certainly not quantizable: its |q| is
 * above qmax, or it is NaN or infinite (the reference's clamped integer is then above qmax too, so
 * the block is RAW whatever the error checks say), or its error is (error_over32). */
ECCL_AVX2 static int quantize32(const eccl_qparams_t *p, const float *x, int32_t *q, int *out)
{
    const __m256d R = _mm256_set1_pd(p->R), D = _mm256_set1_pd(p->D), EB = _mm256_set1_pd(p->eb);
    const __m256d QM = _mm256_set1_pd((double)p->qmax);
    const __m256d ABS = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll));
    __m256d good = _mm256_castsi256_pd(_mm256_set1_epi64x(-1)), inr = good;
    const int near = p->near;
    for (int k = 0; k < 8; k++) {
        __m256d xd = _mm256_cvtps_pd(_mm_loadu_ps(x + 4 * k));
        __m256d qd = _mm256_round_pd(_mm256_mul_pd(xd, R), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m256d rec = _mm256_mul_pd(qd, D);
        __m256d s2 = _mm256_and_pd(_mm256_sub_pd(xd, _mm256_cvtps_pd(_mm256_cvtpd_ps(rec))), ABS);
        __m256d in = _mm256_cmp_pd(_mm256_and_pd(qd, ABS), QM, _CMP_LE_OQ);
        __m256d ok = _mm256_and_pd(in, _mm256_cmp_pd(s2, EB, _CMP_LT_OQ));
        if (!near) { /* (p->near: |x - q D| < eb wherever `in` holds) */
            __m256d s1 = _mm256_and_pd(_mm256_sub_pd(xd, rec), ABS);
            ok = _mm256_and_pd(ok, _mm256_cmp_pd(s1, EB, _CMP_LT_OQ));
        }
        good = _mm256_and_pd(good, ok);
        inr = _mm256_and_pd(inr, in);
        _mm_storeu_si128((__m128i *)(q + 4 * k), _mm256_cvtpd_epi32(qd));
    }
    const int all_good = _mm256_movemask_pd(good) == 0xF;
    *out = _mm256_movemask_pd(inr) != 0xF || (!all_good && error_over32(p, x));
    return all_good;
}

ECCL_AVX2 int eccl_fast_quantize_f32(const eccl_qparams_t *p, const float *x, int32_t *q)
{
    int out;
    return quantize32(p, x, q, &out);
}

ECCL_AVX2 int eccl_fast_quantize_f32_never(const eccl_qparams_t *p, const float *x, int32_t *q, int *never)
{
    return quantize32(p, x, q, never);
}

ECCL_AVX2 int eccl_fast_encode_q32(const eccl_qparams_t *p, const int32_t *qin, eccl_pred_t *pr,
                                   unsigned char *out, unsigned *code)
{
    int32_t qb[48] __attribute__((aligned(32)));
    int32_t *q = qb + 8;
    for (int k = 0; k < 4; k++)
        _mm256_store_si256((__m256i *)(q + 8 * k), _mm256_loadu_si256((const __m256i *)(qin + 8 * k)));
    int head = !pr->have, lag = p->lag;
    if (head) q[-1] = q[-2] = q[0];
    else {
        q[-2] = (int32_t)pr->q[0];
        q[-1] = (int32_t)pr->q[1];
    }
    __m256i dl[4], dn[4];
    for (int k = 0; k < 4; k++) {
        __m256i cur = _mm256_load_si256((const __m256i *)(q + 8 * k));
        dl[k] = _mm256_sub_epi32(cur, _mm256_loadu_si256((const __m256i *)(q + 8 * k - lag)));
        dn[k] = cur;
    }
    d32_t L, N;
    stats32(&L, dl);
    stats32(&N, dn);
    choice_t cl = choose(L.all, L.neg, L.pos, 0, head ? 4 : 0);
    choice_t cn = choose(N.all, N.neg, N.pos, 0, 0);
    int none = cn.size < cl.size;
    const choice_t *c = none ? &cn : &cl;
    const d32_t *d = none ? &N : &L;
    int o = 0;
    if (!none && head) {
        eccl_st32(out, (uint32_t)eccl_fmt_zigzag(q[0]));
        o = 4;
    }
    if (c->F > 0) write_planes32(out + o, d->mag, d->neg, c->F, c->s == ECCL_FMT_SIGN_MAP);
    *code = eccl_fmt_quant_code((unsigned)c->s, none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                (unsigned)c->fc);
    pr->have = 1;
    pr->q[0] = q[32 - lag];
    pr->q[1] = q[31];
    pr->q[2] = q[30];
    return c->size;
}

ECCL_AVX2 int eccl_fast_encode_raw32(const uint32_t *v, int lag, unsigned char *out, unsigned *code)
{
    /* keys (order-preserving: eccl_fmt_key32), then |key[i] - key[prev]| and the sign map of
     * key[i] < key[prev], prev = i - lag (i - 1 below lag), nothing for value 0 */
    uint32_t kb[40] __attribute__((aligned(32)));
    uint32_t *key = kb + 8;
    const __m256i top = _mm256_set1_epi32((int)0x80000000u);
    __m256i x[4];
    for (int k = 0; k < 4; k++) {
        x[k] = _mm256_loadu_si256((const __m256i *)(v + 8 * k));
        __m256i flip = _mm256_or_si256(_mm256_srai_epi32(x[k], 31), top);
        _mm256_store_si256((__m256i *)(key + 8 * k), _mm256_xor_si256(x[k], flip));
    }
    key[-2] = key[-1] = key[0]; /* value 0 has no difference; value 1 is predicted from value 0 */
    __m256i mag[4], acc = _mm256_setzero_si256();
    uint32_t sign = 0;
    for (int k = 0; k < 4; k++) {
        __m256i a = _mm256_load_si256((const __m256i *)(key + 8 * k));
        __m256i b = _mm256_loadu_si256((const __m256i *)(key + 8 * k - lag));
        mag[k] = _mm256_sub_epi32(_mm256_max_epu32(a, b), _mm256_min_epu32(a, b));
        acc = _mm256_or_si256(acc, mag[k]);
        __m256i lt = _mm256_cmpgt_epi32(_mm256_xor_si256(b, top), _mm256_xor_si256(a, top)); /* a < b */
        sign |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(lt)) << (8 * k);
    }
    __m128i o = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0x4E));
    o = _mm_or_si128(o, _mm_shuffle_epi32(o, 0xB1));
    uint32_t all = (uint32_t)_mm_cvtsi128_si32(o);
    int F = all ? 32 - __builtin_clz(all) : 0;
    int size = 4 + (F > 0 ? 4 + 4 * F : 0);
    if (!out) { /* (the size alone) */
        *code = size < 128 ? eccl_fmt_raw_code((unsigned)F) : 0xFFu;
        return size < 128 ? size : 128;
    }
    if (size < 128) {
        _mm_storeu_si32(out, _mm256_castsi256_si128(x[0])); /* value 0's encoding */
        if (F > 0) write_planes32(out + 4, mag, sign, F, 1);
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    for (int k = 0; k < 4; k++) _mm256_storeu_si256((__m256i *)(out + 32 * k), x[k]);
    *code = 0xFFu;
    return 128;
}

ECCL_AVX2 int eccl_fast_encode_f32(const eccl_qparams_t *p, const float *x, eccl_pred_t *pr,
                                   unsigned char *out, unsigned *code)
{
    int32_t q[32];
    int never = 0;
    if (!quantize32(p, x, q, &never)) return never ? ECCL_FAST_RAW : ECCL_FAST_DECLINE;
    return eccl_fast_encode_q32(p, q, pr, out, code);
}

/* Inclusive prefix sums of 8 int32 lanes with stride lag (1 or 2), plus a carry vector. The sums
 * are taken modulo 2^32: in a valid block every partial sum is a difference of two in-range
 * integers, and in a corrupt one the first integer to leave [-QMAX, QMAX] still lands outside it
 * after wrapping (|q| < 2^30 + 2^31), so the range check afterwards cannot be fooled. */
ECCL_AVX2 static inline __m256i scan32(__m256i x, int lag, __m256i carry)
{
    const __m256i zero = _mm256_setzero_si256();
    if (lag == 1) {
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        __m256i t = _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(3));
        x = _mm256_add_epi32(x, _mm256_blend_epi32(zero, t, 0xF0));
    } else {
        x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
        __m256i t = _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(2, 3, 2, 3, 2, 3, 2, 3));
        x = _mm256_add_epi32(x, _mm256_blend_epi32(zero, t, 0xF0));
    }
    return _mm256_add_epi32(x, carry);
}

ECCL_AVX2 static int read_q32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                              eccl_pred_t *pr, __m256i *d)
{
    if (eccl_fmt_code_is_raw(code)) return ECCL_FAST_DECLINE;
    unsigned s = eccl_fmt_code_sign(code), pred = eccl_fmt_code_pred(code);
    int fc = (int)(code & 31u), F = eccl_fmt_quant_planes(code, 0), lag = p->lag;
    int head = pred == ECCL_FMT_PRED_LORENZO && !pr->have;
    int64_t q0 = 0;
    int o = 0;
    if (head) {
        q0 = eccl_fmt_unzigzag(eccl_ld32(in));
        if (q0 > p->qmax || q0 < -p->qmax) return -1;
        o = 4;
    }
    if (F > 0) {
        if (read_deltas32(in + o, F, fc, s, head, d)) return -1;
    } else {
        d[0] = d[1] = d[2] = d[3] = _mm256_setzero_si256();
    }
    if (pred == ECCL_FMT_PRED_LORENZO) {
        /* carry: the predecessors of the first lag elements (head: q_0 for both) */
        int32_t c0 = (int32_t)(head ? q0 : pr->q[0]), c1 = (int32_t)(head ? q0 : pr->q[1]);
        __m256i carry = lag == 1 ? _mm256_set1_epi32(c1) : _mm256_setr_epi32(c0, c1, c0, c1, c0, c1, c0, c1);
        const __m256i last = lag == 1 ? _mm256_set1_epi32(7) : _mm256_setr_epi32(6, 7, 6, 7, 6, 7, 6, 7);
        for (int k = 0; k < 4; k++) {
            d[k] = scan32(d[k], lag, carry);
            carry = _mm256_permutevar8x32_epi32(d[k], last);
        }
    }
    const __m256i QM = _mm256_set1_epi32((int)p->qmax), NQM = _mm256_set1_epi32(-(int)p->qmax);
    __m256i bad = _mm256_setzero_si256();
    for (int k = 0; k < 4; k++)
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi32(d[k], QM), _mm256_cmpgt_epi32(NQM, d[k])));
    if (!_mm256_testz_si256(bad, bad)) return -1;
    pr->have = 1;
    pr->q[0] = pr->q[2] = _mm256_extract_epi32(d[3], 6);
    pr->q[1] = _mm256_extract_epi32(d[3], 7);
    if (lag == 1) pr->q[0] = pr->q[1];
    return 0;
}

ECCL_AVX2 int eccl_fast_read_q32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                 eccl_pred_t *pr, int32_t *q)
{
    __m256i d[4];
    int rc = read_q32(p, code, in, pr, d);
    if (rc) return rc;
    for (int k = 0; k < 4; k++) _mm256_storeu_si256((__m256i *)(q + 8 * k), d[k]);
    return 0;
}

/* A RAW block of 32 float32 encodings (read_raw of block.c): 0, -1 (not canonical: the reference
 * path confirms), ECCL_FAST_DECLINE (more planes than a float32 has). */
ECCL_AVX2 static int read_raw32(unsigned code, int lag, const unsigned char *in, uint32_t *v)
{
    if (code == 0xFFu) { /* VERBATIM */
        for (int k = 0; k < 4; k++)
            _mm256_storeu_si256((__m256i *)(v + 8 * k), _mm256_loadu_si256((const __m256i *)(in + 32 * k)));
        return 0;
    }
    int F = (int)(code & 63u);
    if (F > 32) return ECCL_FAST_DECLINE;
    uint32_t mag[32] __attribute__((aligned(32))), neg = F > 0 ? eccl_ld32(in + 4) : 0u, nz = 0, w = 0;
    __m256i m[4];
    planes_to_mag32(in + 8, F, m, &nz, &w);
    /* canonical: value 0 has no difference, the top plane is not empty, signs only where a
     * difference is */
    if (F > 0 && ((nz & 1u) || w == 0 || (neg & ~nz))) return -1;
    for (int k = 0; k < 4; k++) _mm256_store_si256((__m256i *)(mag + 8 * k), m[k]);
    /* keys from value 0's, each from its predecessor's (i - lag; value 1 from value 0); a key
     * leaving [0, 2^32) is not canonical */
    uint32_t key[32] __attribute__((aligned(32)));
    v[0] = eccl_ld32(in);
    key[0] = eccl_fmt_key32(v[0]);
    uint64_t bad = 0;
    for (int i = 1; i < 32; i++) {
        int64_t b = key[i >= lag ? i - lag : i - 1], d = (int64_t)mag[i];
        int64_t kv = (neg >> i) & 1u ? b - d : b + d;
        bad |= (uint64_t)kv >> 32;
        key[i] = (uint32_t)kv;
    }
    if (bad) return -1;
    const __m256i top = _mm256_set1_epi32((int)0x80000000u);
    for (int k = 0; k < 4; k++) { /* eccl_fmt_unkey32 */
        __m256i kk = _mm256_load_si256((const __m256i *)(key + 8 * k));
        __m256i flip = _mm256_or_si256(_mm256_xor_si256(_mm256_srai_epi32(kk, 31), _mm256_set1_epi32(-1)), top);
        __m256i out = _mm256_xor_si256(kk, flip);
        if (k == 0) out = _mm256_insert_epi32(out, (int)v[0], 0);
        _mm256_storeu_si256((__m256i *)(v + 8 * k), out);
    }
    return 0;
}

ECCL_AVX2 int eccl_fast_decode_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                   eccl_pred_t *pr, float *x)
{
    if (eccl_fmt_code_is_raw(code)) {
        if (p->is64) return ECCL_FAST_DECLINE;
        int rc = read_raw32(code, p->lag, in, (uint32_t *)(void *)x);
        if (!rc) pr->have = 0;
        return rc;
    }
    __m256i d[4];
    int rc = read_q32(p, code, in, pr, d);
    if (rc) return rc;
    const __m256d D = _mm256_set1_pd(p->D);
    for (int k = 0; k < 4; k++) {
        __m256d lo = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(d[k])), D);
        __m256d hi = _mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(d[k], 1)), D);
        _mm_storeu_ps(x + 8 * k, _mm256_cvtpd_ps(lo));
        _mm_storeu_ps(x + 8 * k + 4, _mm256_cvtpd_ps(hi));
    }
    return 0;
}

/* ================================ version 2 ================================ */

/* What choose needs of 32 int32 deltas, and no more (pricing): a value with the bit length of the
 * largest magnitude, and flags: some delta is negative / positive. From the smallest and the
 * largest delta (lane-wise in mn, mx). */
typedef struct {
    uint32_t all, neg, pos;
} p32_t;
ECCL_AVX2 static inline p32_t minmax_stats32(__m256i mn, __m256i mx)
{
    __m128i a = _mm_min_epi32(_mm256_castsi256_si128(mn), _mm256_extracti128_si256(mn, 1));
    __m128i b = _mm_max_epi32(_mm256_castsi256_si128(mx), _mm256_extracti128_si256(mx, 1));
    a = _mm_min_epi32(a, _mm_shuffle_epi32(a, 0x4E));
    b = _mm_max_epi32(b, _mm_shuffle_epi32(b, 0x4E));
    a = _mm_min_epi32(a, _mm_shuffle_epi32(a, 0xB1));
    b = _mm_max_epi32(b, _mm_shuffle_epi32(b, 0xB1));
    const int32_t lo = _mm_cvtsi128_si32(a), hi = _mm_cvtsi128_si32(b);
    p32_t o = {(hi > 0 ? (uint32_t)hi : 0u) | (lo < 0 ? 0u - (uint32_t)lo : 0u), (uint32_t)(lo < 0),
               (uint32_t)(hi > 0)};
    return o;
}

/* A block's three candidates priced in one pass over its integers: Lorenzo with the stream's lag
 * (*L), predictor none (*N) and second order (*S2: lag 1 only, and exact only where the result,
 * small_q32's, is 1). */
ECCL_AVX2 static inline int price3_32(const int32_t *q, int lag, p32_t *L, p32_t *N, p32_t *S2)
{
    const __m256i lim = _mm256_set1_epi32((1 << 29) - 1), nlim = _mm256_set1_epi32(-((1 << 29) - 1));
    const __m256i top = _mm256_set1_epi32(INT32_MAX), bot = _mm256_set1_epi32(INT32_MIN);
    __m256i lmn = top, lmx = bot, nmn = top, nmx = bot, smn = top, smx = bot, big = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        const __m256i cur = _mm256_load_si256((const __m256i *)(q + 8 * k));
        const __m256i a = _mm256_loadu_si256((const __m256i *)(q + 8 * k - 1));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(q + 8 * k - 2));
        const __m256i dl = _mm256_sub_epi32(cur, lag == 1 ? a : b);
        const __m256i d2 = _mm256_add_epi32(_mm256_sub_epi32(cur, _mm256_add_epi32(a, a)), b);
        lmn = _mm256_min_epi32(lmn, dl);
        lmx = _mm256_max_epi32(lmx, dl);
        nmn = _mm256_min_epi32(nmn, cur);
        nmx = _mm256_max_epi32(nmx, cur);
        smn = _mm256_min_epi32(smn, d2);
        smx = _mm256_max_epi32(smx, d2);
        big = _mm256_or_si256(big, _mm256_or_si256(_mm256_cmpgt_epi32(cur, lim), _mm256_cmpgt_epi32(nlim, cur)));
    }
    *L = minmax_stats32(lmn, lmx);
    *N = minmax_stats32(nmn, nmx);
    *S2 = minmax_stats32(smn, smx);
    return _mm256_testz_si256(big, big) && q[-1] < (1 << 29) && q[-1] > -(1 << 29) && q[-2] < (1 << 29) &&
           q[-2] > -(1 << 29);
}

ECCL_AVX2 void eccl_fast_price_forms32i(const eccl_qparams_t *p, const int32_t *q, int head, int want_l2,
                                        int *size, unsigned *code)
{
    p32_t SL, SN, S2;
    const int small = price3_32(q, p->lag, &SL, &SN, &S2);
    choice_t cl = choose(SL.all, SL.neg, SL.pos, 0, head ? 4 : 0);
    choice_t cn = choose(SN.all, SN.neg, SN.pos, 0, 0);
    int none = cn.size < cl.size;
    const choice_t *c = none ? &cn : &cl;
    size[0] = c->size <= 128 ? c->size : -1;
    code[0] = eccl_fmt_quant_code((unsigned)c->s, none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO, (unsigned)c->fc);
    if (!want_l2) return;
    int usable = 1;
    if (!small) {
        __m256i d[4];
        usable = deltas_l2_wide(q, d);
        const __m256i mn = _mm256_min_epi32(_mm256_min_epi32(d[0], d[1]), _mm256_min_epi32(d[2], d[3]));
        const __m256i mx = _mm256_max_epi32(_mm256_max_epi32(d[0], d[1]), _mm256_max_epi32(d[2], d[3]));
        S2 = minmax_stats32(mn, mx);
    }
    choice_t c2 = choose(S2.all, S2.neg, S2.pos, 0, head ? 4 : 0);
    int l2 = usable && c2.size < cl.size;
    c = l2 ? &c2 : &cl;
    size[1] = c->size <= 128 ? c->size : -1; /* (an f32 head block with 31-plane deltas: 132) */
    code[1] = eccl_fmt_quant_code((unsigned)c->s, l2 ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO, (unsigned)c->fc);
}

ECCL_AVX2 int eccl_fast_write_quant32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form,
                                       unsigned code, unsigned char *out)
{
    int kind = eccl_fmt_code_pred(code) == ECCL_FMT_PRED_LORENZO ? 0 : form == ECCL_FMT_FORM_L2 ? 2 : 1;
    __m256i d[4];
    d32_t S;
    if (kind == 2 && !small_q32(q)) deltas_l2_wide(q, d);
    else deltas32(q, p->lag, kind, d);
    stats32(&S, d);
    choice_t c = choose(S.all, S.neg, S.pos, 0, head && kind != 1 ? 4 : 0);
    int o = 0;
    if (head && kind != 1) {
        eccl_st32(out, (uint32_t)eccl_fmt_zigzag(q[0]));
        o = 4;
    }
    if (c.F > 0) write_planes32(out + o, S.mag, S.neg, c.F, c.s == ECCL_FMT_SIGN_MAP);
    return c.size;
}

ECCL_AVX2 void eccl_fast_price_forms32(const eccl_qparams_t *p, const int64_t *q64, const eccl_pred_t *pr,
                                       int want_l2, int *size, unsigned *code)
{
    int32_t qb[48] __attribute__((aligned(32)));
    load_q32(q64, pr, p->lag, qb + 8);
    eccl_fast_price_forms32i(p, qb + 8, !pr->have, want_l2, size, code);
}

ECCL_AVX2 int eccl_fast_write_quant32(const eccl_qparams_t *p, const int64_t *q64, const eccl_pred_t *pr,
                                      unsigned form, unsigned code, unsigned char *out)
{
    int32_t qb[48] __attribute__((aligned(32)));
    load_q32(q64, pr, p->lag, qb + 8);
    return eccl_fast_write_quant32i(p, qb + 8, !pr->have, form, code, out);
}

/* A second-order block's integers in eight registers of 4 int64 (l2_integrate): 0 (pr updated) or
 * -1 (pr unchanged). */
ECCL_AVX2 static int read_l2_32(const eccl_qparams_t *p, unsigned code, const unsigned char *in, eccl_pred_t *pr,
                                __m256i *q)
{
    unsigned s = eccl_fmt_code_sign(code);
    int fc = (int)(code & 31u), F = eccl_fmt_quant_planes(code, 0), head = !pr->have, o = 0;
    int64_t q0 = 0;
    if (head) {
        q0 = eccl_fmt_unzigzag(eccl_ld32(in));
        if (q0 > p->qmax || q0 < -p->qmax) return -1;
        o = 4;
    }
    if (F > 0) {
        __m256i dv[4];
        if (read_deltas32(in + o, F, fc, s, head, dv)) return -1;
        for (int k = 0; k < 4; k++) {
            q[2 * k] = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(dv[k]));
            q[2 * k + 1] = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(dv[k], 1));
        }
    } else {
        for (int k = 0; k < 8; k++) q[k] = _mm256_setzero_si256();
    }
    return l2_integrate(q, head, q0, p->qmax, pr);
}

ECCL_AVX2 int eccl_fast_read_l2_32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                   eccl_pred_t *pr, int64_t *q)
{
    __m256i v[8];
    if (read_l2_32(p, code, in, pr, v)) return -1;
    for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(q + 4 * k), v[k]);
    return 0;
}

ECCL_AVX2 int eccl_fast_read_l2_32i(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                    eccl_pred_t *pr, int32_t *q)
{
    __m256i v[8];
    if (read_l2_32(p, code, in, pr, v)) return -1;
    const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6); /* (|q| <= QMAX32: the low halves) */
    for (int k = 0; k < 4; k++) {
        __m256i a = _mm256_permutevar8x32_epi32(v[2 * k], lo), b = _mm256_permutevar8x32_epi32(v[2 * k + 1], lo);
        _mm256_storeu_si256((__m256i *)(q + 8 * k), _mm256_blend_epi32(a, b, 0xF0));
    }
    return 0;
}

ECCL_AVX2 int eccl_fast_decode_l2_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                                     eccl_pred_t *pr, float *x)
{
    __m256i v[8];
    if (read_l2_32(p, code, in, pr, v)) return -1;
    const __m256d D = _mm256_set1_pd(p->D);
    for (int k = 0; k < 8; k++) _mm_storeu_ps(x + 4 * k, _mm256_cvtpd_ps(_mm256_mul_pd(i64_to_dbl(v[k]), D)));
    return 0;
}

#endif /* (builds without the x86 fast path: fast_stubs.c) */
