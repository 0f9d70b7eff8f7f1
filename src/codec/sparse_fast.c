/*
 * sparse_fast.c - the AVX2 and BMI2 twins of version 3's block paths (doc/format.md sections 6.4 and
 * 8.2): every form of a float32 block priced in one call, and a sparse block's words compacted onto
 * its nonzero map and spread back with pext and pdep. The same contract as block_fast.c (exactly the
 * results of block.c's reference functions); the 64-bit pricing is in block_fast64.c. Builds
 * without the x86 fast path get these symbols from fast_stubs.c.
 */
#include "config.h"

#include "codec/fast.h"
#include "codec/fast_avx2.h"

#if ECCL_HAVE_X86_FAST

/* block.c's eccl_sparse_from_dense / eccl_sparse_to_dense with BMI2's pext and pdep (a word compacted
 * onto a map, and spread back), where they are fast: not on AMD's families 15h and 17h (up to Zen 2),
 * which microcode them (tens to hundreds of cycles); block.c's loops there. */
static int pext_fast(void)
{
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam15h") && !__builtin_cpu_is("amdfam17h");
}

ECCL_AVX2 static inline uint32_t pext32(uint32_t w, uint32_t z) { return _pext_u32(w, z); }
ECCL_AVX2 static inline uint32_t pdep32(uint32_t w, uint32_t z) { return _pdep_u32(w, z); }

ECCL_AVX2 int eccl_fast_sparse_from_dense(const unsigned char *dense, int head, unsigned code, int is64,
                                          unsigned char *out, eccl_bitw_t *bw)
{
    if (!pext_fast()) return eccl_sparse_from_dense(dense, head, code, is64, out, bw);
    return eccl_sparse_from_dense_with(dense, head, code, is64, out, bw, pext32);
}

ECCL_AVX2 int eccl_fast_sparse_to_dense(const unsigned char *in, int head, unsigned code, int is64, eccl_bitr_t *br,
                                        unsigned char *dense)
{
    if (!pext_fast()) return eccl_sparse_to_dense(in, head, code, is64, br, dense);
    return eccl_sparse_to_dense_with(in, head, code, is64, br, dense, pdep32);
}

/* eccl_fast_write_quant32i of the sparse block's dense twin, then eccl_fast_sparse_from_dense, in
 * one pass: the nonzero map from the deltas, each plane compacted as it comes out of the
 * transposition (no dense payload written and read back). */
ECCL_AVX2 int eccl_fast_write_sparse32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form,
                                        unsigned code, unsigned char *out, eccl_bitw_t *bw)
{
    if (!pext_fast()) return ECCL_FAST_DECLINE;
    /* S1: first-order (Lorenzo) deltas; S2: second order (lag 1), in int32 whatever the integers:
     * the sums wrap modulo 2^32, and a sparse S2 block's deltas are usable (at most FQ32 = 31 bits,
     * section 8.2), so they come out exact (deltas_l2_wide is for pricing, which must tell) */
    __m256i d[4];
    deltas32(q, form == ECCL_FMT_FORM_S2 ? 1 : p->lag, form == ECCL_FMT_FORM_S2 ? 2 : 0, d);
    d32_t S;
    stats32(&S, d);
    const int F = eccl_fmt_quant_planes(code, 0), H = head ? 4 : 0;
    if (head) eccl_st32(out, (uint32_t)eccl_fmt_zigzag(q[0])); /* (a head block's d_0 is 0) */
    if (F == 0) return H;
    const __m256i zero = _mm256_setzero_si256();
    uint32_t zmap = 0;
    for (int k = 0; k < 4; k++)
        zmap |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(S.mag[k], zero))) << (8 * k);
    const uint32_t z = ~zmap;
    eccl_st32(out + H, z);
    uint32_t w[1 + ECCL_FMT_FQ32];
    int n = 0;
    if (eccl_fmt_code_sign(code) == ECCL_FMT_SIGN_MAP) w[n++] = pext32(S.neg, z);
    __m256i B[4];
    mag_bytes32(S.mag, (F + 7) >> 3, B);
    for (int j = 0; j < F; j++) {
        const __m256i b = _mm256_sll_epi16(B[j >> 3], _mm_cvtsi32_si128(7 - (j & 7)));
        w[n++] = pext32((uint32_t)_mm256_movemask_epi8(b), z);
    }
    eccl_bitw_putn(bw, w, n, eccl_fmt_popc32(z));
    return H + 4;
}

ECCL_AVX2 static inline eccl_fmt_dstat_t dstat32(const __m256i *d)
{
    d32_t S;
    stats32(&S, d);
    eccl_fmt_dstat_t o = {S.all, S.neg, S.pos};
    return o;
}

ECCL_AVX2 void eccl_fast_price_all32(const eccl_qparams_t *p, const int64_t *q64, const eccl_pred_t *pr, unsigned want,
                                     int *cost, int *bytes, unsigned *code)
{
    int32_t qb[48] __attribute__((aligned(32)));
    load_q32(q64, pr, p->lag, qb + 8);
    eccl_fast_price_all32i(p, qb + 8, !pr->have, want, cost, bytes, code);
}

ECCL_AVX2 void eccl_fast_price_all32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned want, int *cost,
                                      int *bytes, unsigned *code)
{
    __m256i d[4];
    eccl_fmt_dstat_t L, N = {0, 0, 0}, S2 = {0, 0, 0};
    int ok = 1;
    deltas32(q, p->lag, 0, d);
    L = dstat32(d);
    if (want & 1u) {
        deltas32(q, p->lag, 1, d);
        N = dstat32(d);
    }
    if (want & 10u) { /* (forms 1 and 3: second order, lag 1) */
        if (small_q32(q)) deltas32(q, 1, 2, d);
        else ok = deltas_l2_wide(q, d);
        S2 = dstat32(d);
    }
    eccl_fmt_price_v3(0, 32, head, want, L, N, S2, ok, cost, bytes, code);
}

#endif /* (builds without the x86 fast path: fast_stubs.c) */
