/* fast_avx2.h - what the AVX2 block paths share (block_fast.c, block_fast64.c, sparse_fast.c):
 * compiled into each, so that the compiler can inline it as before the split. Include after
 * codec/fast.h. */
#ifndef ECCL_CODEC_FAST_AVX2_H
#define ECCL_CODEC_FAST_AVX2_H

#if ECCL_HAVE_X86_FAST
#include <immintrin.h>

/* (every feature named here is checked at run time: eccl_fast_available) */
#define ECCL_AVX2 __attribute__((target("avx2,fma,bmi,bmi2,popcnt")))

typedef eccl_fmt_choice_t choice_t;
#define choose eccl_fmt_choose

/* Magnitudes and signs of 32 int32 deltas held in four registers. */
typedef struct {
    __m256i mag[4];
    uint32_t neg, pos;
    uint32_t all;
} d32_t;

ECCL_AVX2 static inline void stats32(d32_t *o, const __m256i *d)
{
    __m256i acc = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
    o->neg = o->pos = 0;
    for (int k = 0; k < 4; k++) {
        o->mag[k] = _mm256_abs_epi32(d[k]);
        acc = _mm256_or_si256(acc, o->mag[k]);
        o->neg |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(d[k])) << (8 * k);
        o->pos |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(d[k], zero)))
                  << (8 * k);
    }
    __m128i a = _mm_or_si128(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    a = _mm_or_si128(a, _mm_shuffle_epi32(a, 0x4E));
    a = _mm_or_si128(a, _mm_shuffle_epi32(a, 0xB1));
    o->all = (uint32_t)_mm_cvtsi128_si32(a);
}

/* A full block's integers (|q| <= QMAX32) as int32 at q[0..31] with their predecessors at q[-2],
 * q[-1] (head: q_0 for both; lag 2: the real part's q_{-2}; lag 1: q_{-2} for second order). */
ECCL_AVX2 static inline void load_q32(const int64_t *q64, const eccl_pred_t *pr, int lag, int32_t *q)
{
    const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    for (int k = 0; k < 4; k++) {
        __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q64 + 8 * k)), lo);
        __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(q64 + 8 * k + 4)), lo);
        _mm256_store_si256((__m256i *)(q + 8 * k), _mm256_permute2x128_si256(a, b, 0x20));
    }
    q[-1] = pr->have ? (int32_t)pr->q[1] : q[0];
    q[-2] = pr->have ? (int32_t)(lag == 2 ? pr->q[0] : pr->q[2]) : q[0];
}

/* Whether q[-2..31] are all below 2^29 in magnitude, so that second-order deltas (|d| <= 4 max|q|)
 * are exact in int32. */
ECCL_AVX2 static inline int small_q32(const int32_t *q)
{
    const __m256i lim = _mm256_set1_epi32((1 << 29) - 1), nlim = _mm256_set1_epi32(-((1 << 29) - 1));
    __m256i big = _mm256_setzero_si256();
    for (int k = 0; k < 4; k++) {
        __m256i v = _mm256_load_si256((const __m256i *)(q + 8 * k));
        big = _mm256_or_si256(big, _mm256_or_si256(_mm256_cmpgt_epi32(v, lim), _mm256_cmpgt_epi32(nlim, v)));
    }
    return _mm256_testz_si256(big, big) && q[-1] < (1 << 29) && q[-1] > -(1 << 29) && q[-2] < (1 << 29) &&
           q[-2] > -(1 << 29);
}

/* The deltas of predictor kind k (0 Lorenzo, 1 none, 2 second order) of such integers in four
 * int32 registers. Second order only where small_q32 (its deltas are then exact); the caller
 * computes them in int64 otherwise (deltas_l2_wide). */
ECCL_AVX2 static inline void deltas32(const int32_t *q, int lag, int kind, __m256i *d)
{
    for (int k = 0; k < 4; k++) {
        __m256i cur = _mm256_load_si256((const __m256i *)(q + 8 * k));
        if (kind == 0) {
            d[k] = _mm256_sub_epi32(cur, _mm256_loadu_si256((const __m256i *)(q + 8 * k - lag)));
        } else if (kind == 1) {
            d[k] = cur;
        } else {
            __m256i a = _mm256_loadu_si256((const __m256i *)(q + 8 * k - 1));
            __m256i b = _mm256_loadu_si256((const __m256i *)(q + 8 * k - 2));
            d[k] = _mm256_add_epi32(_mm256_sub_epi32(cur, _mm256_add_epi32(a, a)), b);
        }
    }
}

/* Second-order deltas of large integers, in int64 (the head's are right too: its predecessors are
 * q_0): 0 when they need more than FQ = 31 bits (not usable), else 1 with them narrowed (exactly)
 * into four int32 registers. */
ECCL_AVX2 static inline int deltas_l2_wide(const int32_t *q, __m256i *d)
{
    int32_t n32[32] __attribute__((aligned(32)));
    uint64_t all = 0;
    for (int i = 0; i < 32; i++) {
        int64_t v = (int64_t)q[i] - 2 * (int64_t)q[i - 1] + (int64_t)q[i - 2];
        all |= v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        n32[i] = (int32_t)v;
    }
    for (int k = 0; k < 4; k++) d[k] = _mm256_load_si256((const __m256i *)(n32 + 8 * k));
    return eccl_fmt_bitlen64(all) <= ECCL_FMT_FQ32;
}


/* The 32 magnitudes of mag[0..3] (mag[k] holds values 8k..8k+7) as bytes: B[b] holds byte b of
 * values 0..31 in order (b < nb <= 4). A 4 x 4 transpose: bytes to dwords within each lane, dwords
 * to qwords across the lanes, qwords across the registers. */
ECCL_AVX2 static inline void mag_bytes32(const __m256i *mag, int nb, __m256i *B)
{
    const __m256i gather = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5,
                                            9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    const __m256i pair = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i t[4];
    for (int k = 0; k < 4; k++) /* qword b of t[k]: byte b of values 8k..8k+7 */
        t[k] = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(mag[k], gather), pair);
    __m256i a = _mm256_unpacklo_epi64(t[0], t[1]), c = _mm256_unpacklo_epi64(t[2], t[3]);
    B[0] = _mm256_permute2x128_si256(a, c, 0x20);
    if (nb > 2) B[2] = _mm256_permute2x128_si256(a, c, 0x31);
    if (nb > 1) {
        __m256i b = _mm256_unpackhi_epi64(t[0], t[1]), d = _mm256_unpackhi_epi64(t[2], t[3]);
        B[1] = _mm256_permute2x128_si256(b, d, 0x20);
        if (nb > 3) B[3] = _mm256_permute2x128_si256(b, d, 0x31);
    }
}

/* Planes 0..F-1 (F <= 8 nb) of 32 values from their bytes (B[b]: byte b of values 0..31): a plane is
 * one 16-bit shift and one byte movemask (shifting a 16-bit lane left by s <= 7 moves bit 7 - s of
 * each of its bytes to that byte's top bit). */
ECCL_AVX2 static inline void write_planes_bytes(unsigned char *out, const __m256i *B, int F)
{
    for (int j = 0; j < F; j++) {
        __m256i b = _mm256_sll_epi16(B[j >> 3], _mm_cvtsi32_si128(7 - (j & 7)));
        eccl_st32(out + 4 * j, (uint32_t)_mm256_movemask_epi8(b));
    }
}

/* planes_to_mag32 for F <= 3 planes: each value's bit shifted into place, 16 vector operations a
 * plane but no transposition to pay. */
ECCL_AVX2 static inline __attribute__((always_inline)) void planes_shift32(const unsigned char *in, int F, __m256i *m,
                                                                           uint32_t *nz)
{
    const __m256i one = _mm256_set1_epi32(1), idx0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i eight = _mm256_set1_epi32(8), idx1 = _mm256_add_epi32(idx0, eight);
    const __m256i idx2 = _mm256_add_epi32(idx1, eight), idx3 = _mm256_add_epi32(idx2, eight);
    __m256i m0 = _mm256_setzero_si256(), m1 = m0, m2 = m0, m3 = m0;
    uint32_t or_ = 0;
    for (int j = 0; j < F; j++) {
        const uint32_t w = eccl_ld32(in + 4 * j);
        or_ |= w;
        const __m256i wv = _mm256_set1_epi32((int)w);
        const __m128i sh = _mm_cvtsi32_si128(j);
        m0 = _mm256_or_si256(m0, _mm256_sll_epi32(_mm256_and_si256(_mm256_srlv_epi32(wv, idx0), one), sh));
        m1 = _mm256_or_si256(m1, _mm256_sll_epi32(_mm256_and_si256(_mm256_srlv_epi32(wv, idx1), one), sh));
        m2 = _mm256_or_si256(m2, _mm256_sll_epi32(_mm256_and_si256(_mm256_srlv_epi32(wv, idx2), one), sh));
        m3 = _mm256_or_si256(m3, _mm256_sll_epi32(_mm256_and_si256(_mm256_srlv_epi32(wv, idx3), one), sh));
    }
    m[0] = m0;
    m[1] = m1;
    m[2] = m2;
    m[3] = m3;
    *nz = or_;
}

/* The F <= 32 planes at `in` (32-bit words, bit i of plane j = bit j of value i) -> the 32
 * magnitudes in four registers of 8 (m[k] holds values 8k..8k+7); *nz: the OR of the planes,
 * *last: the top plane (0 when F = 0). From 4 planes on, the inverse of mag_bytes32 +
 * write_planes_bytes: each plane's bits spread to one byte a value (a byte shuffle of the
 * broadcast word, then a test of each byte's own bit) and shifted into the bytes of its group of 8
 * planes (byte b of the values: planes 8b..8b+7, the top one first, each step doubling the bytes;
 * a byte never carries, it takes at most 8 bits), then the bytes transposed back into 32-bit
 * values. 7 operations a plane where planes_shift32 takes 18: twice as fast on its own from 4
 * planes (doc/performance.md section 41). */
ECCL_AVX2 static inline __attribute__((always_inline)) void planes_to_mag32(const unsigned char *in, int F, __m256i *m,
                                                                            uint32_t *nz, uint32_t *last)
{
    *last = F > 0 ? eccl_ld32(in + 4 * (F - 1)) : 0u;
    if (F <= 3) {
        planes_shift32(in, F, m, nz);
        return;
    }
    /* byte t of lane L (value 16 L + t) takes byte 2 L + (t >> 3) of the word, and tests bit t & 7 */
    const __m256i sel = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3,
                                         3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x(0x8040201008040201ll), zero = _mm256_setzero_si256();
    __m256i B[4] = {zero, zero, zero, zero};
    uint32_t or_ = 0;
    for (int g = 0; 8 * g < F; g++) {
        __m256i acc = zero;
        for (int j = (F < 8 * g + 8 ? F : 8 * g + 8) - 1; j >= 8 * g; j--) {
            const uint32_t w = eccl_ld32(in + 4 * j);
            or_ |= w;
            __m256i b = _mm256_shuffle_epi8(_mm256_set1_epi32((int)w), sel);
            b = _mm256_cmpeq_epi8(_mm256_and_si256(b, bit), bit); /* 0xFF where the bit is set */
            acc = _mm256_sub_epi8(_mm256_add_epi8(acc, acc), b);
        }
        B[g] = acc;
    }
    *nz = or_;
    if (F <= 8) { /* one byte a value */
        const __m128i l = _mm256_castsi256_si128(B[0]), h = _mm256_extracti128_si256(B[0], 1);
        m[0] = _mm256_cvtepu8_epi32(l);
        m[1] = _mm256_cvtepu8_epi32(_mm_srli_si128(l, 8));
        m[2] = _mm256_cvtepu8_epi32(h);
        m[3] = _mm256_cvtepu8_epi32(_mm_srli_si128(h, 8));
        return;
    }
    /* (b0, b1) and (b2, b3) pairs, then 32-bit values, in the lane order [0..3 | 16..19],
     * [4..7 | 20..23], [8..11 | 24..27], [12..15 | 28..31] */
    const __m256i lo01 = _mm256_unpacklo_epi8(B[0], B[1]), hi01 = _mm256_unpackhi_epi8(B[0], B[1]);
    const __m256i lo23 = _mm256_unpacklo_epi8(B[2], B[3]), hi23 = _mm256_unpackhi_epi8(B[2], B[3]);
    const __m256i x0 = _mm256_unpacklo_epi16(lo01, lo23), x1 = _mm256_unpackhi_epi16(lo01, lo23);
    const __m256i x2 = _mm256_unpacklo_epi16(hi01, hi23), x3 = _mm256_unpackhi_epi16(hi01, hi23);
    m[0] = _mm256_permute2x128_si256(x0, x1, 0x20);
    m[1] = _mm256_permute2x128_si256(x2, x3, 0x20);
    m[2] = _mm256_permute2x128_si256(x0, x1, 0x31);
    m[3] = _mm256_permute2x128_si256(x2, x3, 0x31);
}

/* Planes -> signed deltas in four registers; checks the canonical form (block.c read_planes).
 * Returns 0 or -1. */
ECCL_AVX2 static inline int read_deltas32(const unsigned char *in, int F, int fc, unsigned s, int zero_first,
                                   __m256i *dv)
{
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i idx0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_epi32(8);
    const __m256i idx1 = _mm256_add_epi32(idx0, eight), idx2 = _mm256_add_epi32(idx1, eight);
    const __m256i idx3 = _mm256_add_epi32(idx2, eight);
    uint32_t valid = zero_first ? ~1u : ~0u, sm = 0, nz = 0, w = 0;
    int o = 0;
    if (s == ECCL_FMT_SIGN_MAP) {
        sm = eccl_ld32(in);
        o = 4;
    }
    __m256i mv[4];
    planes_to_mag32(in + o, F, mv, &nz, &w);
    const __m256i m0 = mv[0], m1 = mv[1], m2 = mv[2], m3 = mv[3];
    /* F is minimal: the top plane is never empty (f32 fc = 31 means exactly 31 planes; the f64
     * callers come here only with F = fc <= 30) */
    if ((nz & ~valid) || w == 0) return -1;
    (void)fc;
    uint32_t neg;
    if (s == ECCL_FMT_SIGN_MAP) {
        if ((sm & ~nz) || sm == 0 || (nz & ~sm) == 0) return -1;
        neg = sm;
    } else {
        neg = s == ECCL_FMT_SIGN_POS ? 0u : nz;
    }
    const __m256i nv = _mm256_set1_epi32((int)neg), zero = _mm256_setzero_si256();
#define ECCL_APPLY_SIGN(k, m, idx)                                                                 \
    do {                                                                                           \
        __m256i msk = _mm256_sub_epi32(zero, _mm256_and_si256(_mm256_srlv_epi32(nv, idx), one));   \
        dv[k] = _mm256_sub_epi32(_mm256_xor_si256(m, msk), msk);                                   \
    } while (0)
    ECCL_APPLY_SIGN(0, m0, idx0);
    ECCL_APPLY_SIGN(1, m1, idx1);
    ECCL_APPLY_SIGN(2, m2, idx2);
    ECCL_APPLY_SIGN(3, m3, idx3);
#undef ECCL_APPLY_SIGN
    return 0;
}

/* Inclusive prefix sums of 4 int64 lanes, plus a carry vector (block_fast64.c scan64 too). */
ECCL_AVX2 static inline __m256i scan4(__m256i x, __m256i carry)
{
    x = _mm256_add_epi64(x, _mm256_slli_si256(x, 8));
    __m256i t = _mm256_permute4x64_epi64(x, 0x55); /* element 1 everywhere */
    x = _mm256_add_epi64(x, _mm256_blend_epi32(_mm256_setzero_si256(), t, 0xF0));
    return _mm256_add_epi64(x, carry);
}

/* ---- version 2 (doc/format.md 6.2, 8.1): second-order tiles, real types (lag 1) ---- */

/* Second-order integers (doc/format.md 6.2) from 32 deltas in eight registers of 4 int64 (d[k]
 * holds deltas 4k..4k+3; |d_i| < 2^46; a head block's d_0 is 0): q_i = d_i + 2 q_{i-1} - q_{i-2}
 * from (q_{-2}, q_{-1}) = (pr->q[2], pr->q[1]); a head block starts from (q0, q0), which gives
 * q_0 = q0 and q_1 = q_0 + d_1 (first order). Computed as two prefix sums: e_i = e_{-1} + d_0 +
 * ... + d_i with e_{-1} = q_{-1} - q_{-2}, then q_i = q_{-1} + e_0 + ... + e_i. With |q_{-1}|,
 * |q_{-2}| <= qmax < 2^45, |e| < 2^52 and |q| < 2^58: no sum overflows whatever the deltas, so
 * checking every q_i at the end rejects exactly the blocks block.c's value-by-value check
 * rejects. Returns 0 (the integers in d, pr updated), or -1 (pr unchanged). */
ECCL_AVX2 static inline int l2_integrate(__m256i *d, int head, int64_t q0, int64_t qmax, eccl_pred_t *pr)
{
    int64_t b = head ? q0 : pr->q[1], e = head ? 0 : pr->q[1] - pr->q[2];
    __m256i ce = _mm256_set1_epi64x(e), cq = _mm256_set1_epi64x(b);
    const __m256i QM = _mm256_set1_epi64x(qmax), NQM = _mm256_set1_epi64x(-qmax);
    __m256i bad = _mm256_setzero_si256();
    for (int k = 0; k < 8; k++) {
        __m256i x = scan4(d[k], ce);
        ce = _mm256_permute4x64_epi64(x, 0xFF);
        d[k] = scan4(x, cq);
        cq = _mm256_permute4x64_epi64(d[k], 0xFF);
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi64(d[k], QM), _mm256_cmpgt_epi64(NQM, d[k])));
    }
    if (!_mm256_testz_si256(bad, bad)) return -1;
    pr->have = 1;
    pr->q[0] = pr->q[1] = _mm256_extract_epi64(d[7], 3);
    pr->q[2] = _mm256_extract_epi64(d[7], 2);
    return 0;
}

/* int64 -> double for |v| < 2^51, and back for integral doubles (AVX2 has neither): the
 * magic-number trick. */
ECCL_AVX2 static inline __m256d i64_to_dbl(__m256i v)
{
    const __m256d magic = _mm256_set1_pd(6755399441055744.0); /* 2^52 + 2^51 */
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(v, _mm256_castpd_si256(magic))), magic);
}
ECCL_AVX2 static inline __m256i dbl_to_i64(__m256d v)
{
    const __m256d magic = _mm256_set1_pd(6755399441055744.0);
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(v, magic)), _mm256_castpd_si256(magic));
}

#endif
#endif
