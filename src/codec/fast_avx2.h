/* fast_avx2.h - what the AVX2 block paths share (block_fast.c, block_fast64.c): compiled into
 * each, so that the compiler can inline it as before the split. Include after codec/fast.h. */
#ifndef ECCL_CODEC_FAST_AVX2_H
#define ECCL_CODEC_FAST_AVX2_H

#if ECCL_HAVE_X86_FAST
#include <immintrin.h>

#define ECCL_AVX2 __attribute__((target("avx2,fma,bmi,bmi2")))

typedef eccl_fmt_choice_t choice_t;
#define choose eccl_fmt_choose

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

/* The F planes at `in` (32-bit words, bit i of plane j = bit j of value i) -> the 32 magnitudes in
 * four registers of 8 (m[k] holds values 8k..8k+7); *nz: the OR of the planes, *last: the top
 * plane (0 when F = 0). */
ECCL_AVX2 static inline void planes_to_mag32(const unsigned char *in, int F, __m256i *m, uint32_t *nz,
                                             uint32_t *last)
{
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i idx0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), eight = _mm256_set1_epi32(8);
    const __m256i idx1 = _mm256_add_epi32(idx0, eight), idx2 = _mm256_add_epi32(idx1, eight);
    const __m256i idx3 = _mm256_add_epi32(idx2, eight);
    __m256i m0 = _mm256_setzero_si256(), m1 = m0, m2 = m0, m3 = m0;
    uint32_t or_ = 0, w = 0;
    for (int j = 0; j < F; j++) {
        w = eccl_ld32(in + 4 * j);
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
    *last = w;
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

/* ---- version 2 (doc/format.md 6.2, 8.1): second-order tiles, real types (lag 1) ---- */

/* Second-order integers from 32 deltas d (int64), with block.c read_quant's checks: q_i =
 * d_i + 2 q_{i-1} - q_{i-2}, each within +-qmax before it predicts the next (head: q_0 = q0 and
 * q_1 = q_0 + d_1). 0, or -1. pr is updated on 0 (the caller saved it). */
static inline int l2_integers(const int64_t *d, int head, int64_t q0, int64_t qmax, eccl_pred_t *pr,
                              int64_t *q)
{
    int64_t a = head ? q0 : pr->q[2], b = head ? q0 : pr->q[1];
    for (int i = 0; i < 32; i++) {
        int64_t v = i == 0 && head ? q0 : d[i] + 2 * b - a;
        if (v > qmax || v < -qmax) return -1;
        q[i] = v;
        a = b;
        b = v;
    }
    pr->have = 1;
    pr->q[0] = pr->q[1] = q[31];
    pr->q[2] = q[30];
    return 0;
}

#endif
#endif
