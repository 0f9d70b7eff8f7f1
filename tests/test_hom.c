/*
 * test_hom.c - the homomorphic operations (doc/format.md section 11, eccl.h):
 *
 *  (a) accuracy: SUM of k = 2..8 contributions, chained through eccl_hom_reduce, against the
 *      exact sum (long double) and against the decompress-operate-compress (DOC) path; MAX/MIN
 *      within eb_abs of the exact max/min; the integer domain exact: every output block that is
 *      QUANT holds exactly sum_j q_j (q_j quantized by the section 8 rule, independently, in
 *      tests/ref_decoder.c) and decodes to exactly T(Q * D); NaN results are the canonical quiet
 *      NaN; infinities propagate;
 *  (b) commutativity: combine(a, b) and combine(b, a) are the same bytes;
 *  (c) nsum: +1 per hom_reduce SUM, added by combine SUM, the maximum for MAX/MIN;
 *  (d) mismatched operands: ECCL_ERR_MISMATCH; MAX/MIN on complex: ECCL_ERR_UNSUPPORTED;
 *  (e) integer overflow beyond QMAX falls back to exact T arithmetic (RAW);
 *  (f) LOSSLESS streams (and bounds below 2^-1000): exact T arithmetic, bit for bit;
 *  (g) section 11's fallback rule when QUANT would not fit the block.
 *
 * THE ALLOWED ERROR OF A SUM (a). With k contributions x_1..x_k and S = sum x_j (exact):
 *  - a QUANT block keeps integers: each |x_j - q_j D| <= eb_abs (section 8's check), so
 *    |S - Q D| <= k eb, and Q D is exact in binary64 (|Q| <= QMAX); the decoder rounds once to T.
 *  - a block that becomes RAW (a value not quantizable, or |Q| > QMAX) is computed as
 *    fl_T(a + b) from then on: a is the previous result (T), b the local value exactly, or
 *    T(q D) within eb_abs of it (the f32 check of section 8 is on that very float). Each such
 *    addition rounds once more.
 *  So the error is at most k eb plus k rounding events (k - 1 additions, the final conversion).
 *  Every intermediate value has magnitude at most M' = max_j |S_j| + k eb plus the roundings
 *  (S_j the exact partial sums), well below 2 M' for k <= 8, so each rounding is at most half
 *  an ulp at 2 M', which is one ulp of T at M'. The allowed error is therefore
 *        k * eb_abs + k * ulp_T(M')            (ulp_T: the spacing of T at that magnitude)
 *  plus k M' 2^-63 for the long double reference itself (exact for f32 inputs; for f64 it rounds
 *  at 2^-64 relative). The DOC path (compress x_1, then decompress, add x_j in T, compress) has
 *  the same bound: one rounding and one eb per step. Elements whose partial sums may overflow T
 *  (M' + slack >= T's maximum) are skipped (counted); the result must then still not be NaN
 *  unless the exact sum is.
 *
 * ECCL_TEST_QUICK=1 skips the largest size.
 */
#include "ref_decoder.h"
#include "testutil.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};
static int quick;
static long n_elems, n_skipped, n_quant_blocks_checked, n_raw_fallback_blocks;

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }

static long double get(const void *x, size_t i, int is64)
{
    return is64 ? (long double)((const double *)x)[i] : (long double)((const float *)x)[i];
}
static uint64_t bits(const void *x, size_t i, int is64)
{
    if (is64) {
        uint64_t u;
        memcpy(&u, (const double *)x + i, 8);
        return u;
    }
    uint32_t u;
    memcpy(&u, (const float *)x + i, 4);
    return u;
}
static long double ulp_of(long double v, int is64)
{
    v = fabsl(v);
    if (is64) return v < DBL_MIN ? 0x1p-1074L : ldexpl(1.0L, ilogbl(v) - 52);
    return v < FLT_MIN ? 0x1p-149L : ldexpl(1.0L, ilogbl(v) - 23);
}
static int is_canonical_nan(uint64_t u, int is64)
{
    return is64 ? u == 0x7FF8000000000000ull : u == 0x7FC00000u;
}

typedef struct {
    eccl_mode_t mode;
    double value, range;
} bcase;

static const bcase bounds[] = {{ECCL_MODE_ABS, 1e-3, 0.0},
                               {ECCL_MODE_ABS, 1e-6, 0.0},
                               {ECCL_MODE_REL, 1e-4, 8.0}, /* a fixed (global) range */
                               {ECCL_MODE_ABS, 0.5, 0.0}};
#define NBOUNDS (sizeof bounds / sizeof *bounds)

/* contribution j of a case: the case's pattern for j = 0, then a rotation of patterns */
static void contribution(void *x, size_t n, int is64, int pat, int j, size_t count)
{
    static const int rot[] = {TU_SMOOTH, TU_RANDOM, TU_NORMAL, TU_RANDOMWALK, TU_ALTERNATING};
    int p = j == 0 ? pat : (j % 2 ? pat : rot[j % 5]);
    tu_fill(x, n, is64, p, count * 31 + (uint64_t)j);
}

/* decoded blocks of a stream through the reference decoder: kind and integers */
typedef struct {
    int *quant;
    int64_t *q;
} blocks_t;
static void blocks_cb(void *vctx, const ref_block *b)
{
    blocks_t *c = (blocks_t *)vctx;
    c->quant[b->index] = b->kind == REF_QUANT;
    memcpy(c->q + 32 * b->index, b->q, 32 * sizeof(int64_t));
}

/* ---- (a) SUM chains ---- */
static void sum_chain(eccl_dtype_t dt, const bcase *bc, size_t count, int pat, int k)
{
    int is64 = is64_of(dt);
    size_t n = count * reals_of(dt), esz = eccl_dtype_size(dt), W = is64 ? 8 : 4;
    size_t cap = eccl_compress_bound(count, dt), sa = 0, sb = 0, sd = 0, st = 0;
    unsigned char *A = tu_malloc(cap), *B = tu_malloc(cap), *Dd = tu_malloc(cap), *T = tu_malloc(cap);
    void **x = tu_malloc((size_t)k * sizeof *x);
    void *y = tu_malloc(n * W + 1), *z = tu_malloc(n * W + 1);
    long double *S = tu_malloc(n * sizeof *S + 1), *M = tu_malloc(n * sizeof *M + 1);
    eccl_bound_t b = {bc->mode, bc->value, bc->range};
    double eb = 0;
    char why[REF_WHY_LEN];
    for (int j = 0; j < k; j++) {
        x[j] = tu_malloc(n * W + 1);
        contribution(x[j], n, is64, pat, j, count);
    }
    TU_RC(eccl_bound_resolve(&b, NULL, count, dt, &eb), ECCL_SUCCESS);

    /* the hom chain */
    TU_RC(eccl_compress(x[0], count, dt, &b, A, cap, &sa), ECCL_SUCCESS);
    /* the DOC chain */
    TU_RC(eccl_compress(x[0], count, dt, &b, Dd, cap, &sd), ECCL_SUCCESS);
    for (size_t i = 0; i < n; i++) S[i] = M[i] = fabsl(get(x[0], i, is64)), S[i] = get(x[0], i, is64);
    for (int j = 1; j < k; j++) {
        eccl_result_t rc = eccl_hom_reduce(A, sa, x[j], count, dt, ECCL_OP_SUM, B, cap, &sb);
        TU_CHECK(rc == ECCL_SUCCESS, "hom_reduce: %s", eccl_strerror(rc));
        if (rc) goto out;
        memcpy(A, B, sb);
        sa = sb;
        TU_RC(eccl_decompress(Dd, sd, z, count, dt), ECCL_SUCCESS);
        for (size_t i = 0; i < n; i++) {
            if (is64) ((double *)z)[i] += ((double *)x[j])[i];
            else ((float *)z)[i] += ((float *)x[j])[i];
            S[i] += get(x[j], i, is64);
            if (fabsl(S[i]) > M[i] || isnan(S[i])) M[i] = fabsl(S[i]);
        }
        TU_RC(eccl_compress(z, count, dt, &b, Dd, cap, &sd), ECCL_SUCCESS);
    }
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(A, sa, &info), ECCL_SUCCESS);
    TU_CHECK(info.nsum == (uint32_t)k, "nsum %u after %d contributions", info.nsum, k);
    TU_RC(eccl_decompress(A, sa, y, count, dt), ECCL_SUCCESS);
    TU_RC(eccl_decompress(Dd, sd, z, count, dt), ECCL_SUCCESS);

    /* bounds, element by element */
    long double Tmax = is64 ? DBL_MAX : FLT_MAX;
    int bad = 0;
    for (size_t i = 0; i < n && bad < 4; i++) {
        long double r = get(y, i, is64), d = get(z, i, is64), s = S[i];
        n_elems++;
        if (isnan(s) || isinf(s)) {
            int ok = isnan(s) ? isnan(r) && is_canonical_nan(bits(y, i, is64), is64)
                              : r == s;
            if (!ok && !(isinf(s) && isnan(r) && M[i] >= Tmax)) { /* inf-inf after overflow */
                TU_CHECK(0, "%s %s k=%d elem %zu: exact %Lg, hom gave %Lg (bits %llx)",
                         eccl_dtype_name(dt), tu_pattern_name[pat], k, i, s, r,
                         (unsigned long long)bits(y, i, is64));
                bad++;
            }
            TU_CHECK(isnan(s) ? isnan(d) : (d == s || M[i] >= Tmax), "DOC elem %zu: %Lg vs %Lg", i, d, s);
            continue;
        }
        long double Mp = M[i] + (long double)k * eb;
        long double slack = (long double)k * ulp_of(Mp, is64) + (long double)k * Mp * 0x1p-63L;
        long double allowed = (long double)k * eb + slack;
        if (Mp + slack >= Tmax) {
            n_skipped++;
            TU_CHECK(!isnan(r), "hom gave NaN for a finite sum (elem %zu)", i);
            continue;
        }
        if (!(fabsl(r - s) <= allowed)) {
            TU_CHECK(0, "%s %s mode %d %g k=%d count %zu elem %zu: hom %.21Lg exact %.21Lg error %.3Lg > %.3Lg",
                     eccl_dtype_name(dt), tu_pattern_name[pat], bc->mode, bc->value, k, count, i,
                     r, s, fabsl(r - s), allowed);
            bad++;
        }
        if (!(fabsl(d - s) <= allowed)) {
            TU_CHECK(0, "%s %s k=%d elem %zu: DOC %.21Lg exact %.21Lg error %.3Lg > %.3Lg",
                     eccl_dtype_name(dt), tu_pattern_name[pat], k, i, d, s, fabsl(d - s), allowed);
            bad++;
        }
        if (!(fabsl(r - d) <= 2 * allowed)) {
            TU_CHECK(0, "elem %zu: hom %.21Lg and DOC %.21Lg differ by more than 2 * %.3Lg", i, r, d, allowed);
            bad++;
        }
    }
    tu_checks += (long)n;

    /* the integer domain: quantize every contribution by section 8 (independently) */
    {
        ref_header h;
        memset(&h, 0, sizeof h);
        ref_params(&h, (unsigned)dt, (unsigned)bc->mode, eb);
        uint64_t nb = (n + 31) / 32;
        blocks_t bl = {tu_malloc(nb * sizeof(int) + 1), tu_malloc(nb * 32 * sizeof(int64_t) + 1)};
        int rrc = ref_read_blocks(A, sa, &h, blocks_cb, &bl, why);
        TU_CHECK(rrc == REF_OK, "reference decoder on the hom stream: %s", why);
        ref_params(&h, (unsigned)dt, (unsigned)bc->mode, eb);
        for (uint64_t blk = 0; blk < nb && rrc == REF_OK && bad < 8; blk++) {
            int r = blk + 1 < nb ? 32 : (int)(n - 32 * (nb - 1));
            int all_int = h.quant, small = 1;
            int64_t Q[32];
            for (int i = 0; i < r; i++) Q[i] = 0;
            for (int j = 0; j < k && all_int; j++) {
                for (int i = 0; i < r; i++) {
                    int64_t q;
                    double v = (double)get(x[j], 32 * blk + (size_t)i, is64);
                    if (!ref_quantize(&h, v, &q)) all_int = 0;
                    Q[i] += q;
                    if (Q[i] > h.qmax || Q[i] < -h.qmax) all_int = 0;
                    if (Q[i] > (1 << 20) || Q[i] < -(1 << 20)) small = 0;
                }
            }
            if (bl.quant[blk]) {
                n_quant_blocks_checked++;
                TU_CHECK(all_int, "block %llu is QUANT, but a contribution does not quantize or "
                         "the sum leaves QMAX", (unsigned long long)blk);
                for (int i = 0; i < r && all_int; i++) {
                    size_t e = 32 * blk + (size_t)i;
                    double qd = (double)Q[i] * h.D;
                    uint64_t expect;
                    if (is64) memcpy(&expect, &qd, 8);
                    else {
                        float f = (float)qd;
                        uint32_t u;
                        memcpy(&u, &f, 4);
                        expect = u;
                    }
                    if (bl.q[32 * blk + i] != Q[i] || bits(y, e, is64) != expect) {
                        TU_CHECK(0, "%s %s k=%d block %llu value %d: stream integer %lld, sum of q_j "
                                 "%lld; decoded bits %llx, T(Q*D) %llx", eccl_dtype_name(dt),
                                 tu_pattern_name[pat], k, (unsigned long long)blk, i,
                                 (long long)bl.q[32 * blk + i], (long long)Q[i],
                                 (unsigned long long)bits(y, e, is64), (unsigned long long)expect);
                        bad++;
                        break;
                    }
                }
            } else if (all_int) {
                /* integers that fit: RAW only if a QUANT encoding did not fit r*W, which needs
                 * large integers or a short block */
                n_raw_fallback_blocks++;
                TU_CHECK(!(small && r == 32), "%s %s k=%d block %llu: small integers stored RAW",
                         eccl_dtype_name(dt), tu_pattern_name[pat], k, (unsigned long long)blk);
            }
        }
        free(bl.quant);
        free(bl.q);
    }
out:
    for (int j = 0; j < k; j++) free(x[j]);
    free(x);
    free(A);
    free(B);
    free(Dd);
    free(T);
    free(y);
    free(z);
    free(S);
    free(M);
    (void)sd;
    (void)st;
    (void)esz;
}

/* ---- (a) MAX/MIN chains: within eb_abs, no accumulation ---- */
static void maxmin_chain(eccl_dtype_t dt, const bcase *bc, size_t count, int pat, int k, eccl_op_t op)
{
    int is64 = is64_of(dt);
    size_t n = count, W = is64 ? 8 : 4;
    size_t cap = eccl_compress_bound(count, dt), sa = 0, sb = 0;
    unsigned char *A = tu_malloc(cap), *B = tu_malloc(cap);
    void *x = tu_malloc(n * W + 1), *y = tu_malloc(n * W + 1);
    long double *E = tu_malloc(n * sizeof *E + 1);
    int *anynan = tu_malloc(n * sizeof(int) + 1);
    eccl_bound_t b = {bc->mode, bc->value, bc->range};
    double eb = 0;
    TU_RC(eccl_bound_resolve(&b, NULL, count, dt, &eb), ECCL_SUCCESS);
    for (int j = 0; j < k; j++) {
        contribution(x, n, is64, pat, j, count);
        for (size_t i = 0; i < n; i++) {
            long double v = get(x, i, is64);
            if (j == 0) {
                E[i] = v;
                anynan[i] = isnan(v);
            } else {
                anynan[i] |= isnan(v);
                if (op == ECCL_OP_MAX ? v > E[i] : v < E[i]) E[i] = v;
            }
        }
        eccl_result_t rc = j == 0 ? eccl_compress(x, count, dt, &b, A, cap, &sa)
                                  : eccl_hom_reduce(A, sa, x, count, dt, op, B, cap, &sb);
        TU_CHECK(rc == ECCL_SUCCESS, "%s step %d: %s", op == ECCL_OP_MAX ? "MAX" : "MIN", j,
                 eccl_strerror(rc));
        if (rc) goto out;
        if (j) {
            memcpy(A, B, sb);
            sa = sb;
        }
    }
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(A, sa, &info), ECCL_SUCCESS);
    TU_CHECK(info.nsum == 1, "MAX/MIN chain: nsum %u, expected 1 (the maximum)", info.nsum);
    TU_RC(eccl_decompress(A, sa, y, count, dt), ECCL_SUCCESS);
    int bad = 0;
    for (size_t i = 0; i < n && bad < 4; i++) {
        long double r = get(y, i, is64);
        n_elems++;
        tu_checks++;
        if (anynan[i]) {
            if (!(isnan(r) && (k == 1 || is_canonical_nan(bits(y, i, is64), is64)))) {
                TU_CHECK(0, "%s elem %zu: a NaN contribution, result %Lg bits %llx",
                         op == ECCL_OP_MAX ? "MAX" : "MIN", i, r, (unsigned long long)bits(y, i, is64));
                bad++;
            }
            continue;
        }
        int ok = isinf(E[i]) ? r == E[i] : fabsl(r - E[i]) <= (long double)eb;
        if (!ok) {
            TU_CHECK(0, "%s %s %s mode %d %g k=%d elem %zu: result %.21Lg exact %.21Lg (eb %g)",
                     op == ECCL_OP_MAX ? "MAX" : "MIN", eccl_dtype_name(dt), tu_pattern_name[pat],
                     bc->mode, bc->value, k, i, r, E[i], eb);
            bad++;
        }
    }
out:
    free(A);
    free(B);
    free(x);
    free(y);
    free(E);
    free(anynan);
}

/* ---- (b) commutativity and (c) nsum ---- */
static unsigned char *compress_new(const void *x, size_t count, eccl_dtype_t dt, const eccl_bound_t *b,
                                   size_t *size)
{
    size_t cap = eccl_compress_bound(count, dt);
    unsigned char *s = tu_malloc(cap);
    eccl_result_t rc = eccl_compress(x, count, dt, b, s, cap, size);
    TU_CHECK(rc == ECCL_SUCCESS, "compress: %s", eccl_strerror(rc));
    return s;
}

static uint32_t nsum_of(const unsigned char *s, size_t size)
{
    eccl_stream_info_t info;
    if (eccl_stream_info(s, size, &info) != ECCL_SUCCESS) return 0;
    return info.nsum;
}

static void commutativity(void)
{
    const size_t counts[] = {1, 31, 33, 257, 8200};
    const eccl_bound_t bs[] = {{ECCL_MODE_ABS, 1e-3, 0.0}, {ECCL_MODE_LOSSLESS, 0.0, 0.0},
                               {ECCL_MODE_REL, 1e-5, 3.0}, {ECCL_MODE_ABS, 1e-305, 0.0}};
    const int pats[][2] = {{TU_SMOOTH, TU_RANDOM}, {TU_NANINF, TU_SMOOTH}, {TU_NANINF, TU_NANINF},
                           {TU_HUGE, TU_NORMAL}, {TU_ZEROS, TU_DENORMAL}, {TU_ALTERNATING, TU_MIXED_SCALE}};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned bi = 0; bi < sizeof bs / sizeof *bs; bi++)
            for (unsigned ci = 0; ci < sizeof counts / sizeof *counts; ci++)
                for (unsigned pi = 0; pi < sizeof pats / sizeof *pats; pi++) {
                    eccl_dtype_t dt = dtypes[d];
                    size_t count = counts[ci], n = count * reals_of(dt), W = is64_of(dt) ? 8 : 4;
                    void *x = tu_malloc(n * W), *l = tu_malloc(n * W);
                    tu_fill(x, n, is64_of(dt), pats[pi][0], 11);
                    tu_fill(l, n, is64_of(dt), pats[pi][1], 12);
                    if (n > 3 && pats[pi][0] == TU_NANINF && pats[pi][1] == TU_NANINF) {
                        /* different NaN payloads and signed zeros at the same places */
                        uint64_t q64 = 0xFFF0000000000777ull;
                        uint32_t q32 = 0xFFB00005u;
                        if (W == 8) memcpy((double *)l + n / 2, &q64, 8), ((double *)x)[1] = -0.0, ((double *)l)[1] = 0.0;
                        else memcpy((float *)l + n / 2, &q32, 4), ((float *)x)[1] = -0.0f, ((float *)l)[1] = 0.0f;
                    }
                    size_t sa, sb, cap = eccl_compress_bound(count, dt), s1, s2;
                    unsigned char *a = compress_new(x, count, dt, &bs[bi], &sa);
                    unsigned char *b = compress_new(l, count, dt, &bs[bi], &sb);
                    unsigned char *o1 = tu_malloc(cap), *o2 = tu_malloc(cap), *o3 = tu_malloc(cap);
                    /* make the nsum differ: a' = a + l (nsum 2) */
                    size_t s3;
                    TU_RC(eccl_hom_reduce(a, sa, l, count, dt, ECCL_OP_SUM, o3, cap, &s3), ECCL_SUCCESS);
                    TU_CHECK(nsum_of(o3, s3) == 2, "nsum after one hom_reduce SUM: %u", nsum_of(o3, s3));
                    for (int op = 0; op < 3; op++) {
                        if (op && reals_of(dt) == 2) {
                            TU_RC(eccl_hom_combine(a, sa, b, sb, (eccl_op_t)op, o1, cap, &s1), ECCL_ERR_UNSUPPORTED);
                            TU_RC(eccl_hom_reduce(a, sa, l, count, dt, (eccl_op_t)op, o1, cap, &s1), ECCL_ERR_UNSUPPORTED);
                            continue;
                        }
                        for (int pair = 0; pair < 2; pair++) {
                            const unsigned char *p = pair ? o3 : a;
                            size_t ps = pair ? s3 : sa;
                            eccl_result_t r1 = eccl_hom_combine(p, ps, b, sb, (eccl_op_t)op, o1, cap, &s1);
                            eccl_result_t r2 = eccl_hom_combine(b, sb, p, ps, (eccl_op_t)op, o2, cap, &s2);
                            TU_CHECK(r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS, "combine: %d %d", r1, r2);
                            if (r1 || r2) continue;
                            int same = s1 == s2 && memcmp(o1, o2, s1) == 0;
                            TU_CHECK(same, "combine(a,b) != combine(b,a): %s op %d mode %d count %zu %s+%s",
                                     eccl_dtype_name(dt), op, bs[bi].mode, count,
                                     tu_pattern_name[pats[pi][0]], tu_pattern_name[pats[pi][1]]);
                            uint32_t expect = op == 0 ? (pair ? 3u : 2u) : (pair ? 2u : 1u);
                            TU_CHECK(nsum_of(o1, s1) == expect, "nsum %u after combine op %d, expected %u",
                                     nsum_of(o1, s1), op, expect);
                            if (op) { /* hom_reduce MAX/MIN keeps nsum */
                                TU_RC(eccl_hom_reduce(p, ps, l, count, dt, (eccl_op_t)op, o2, cap, &s2), ECCL_SUCCESS);
                                TU_CHECK(nsum_of(o2, s2) == (pair ? 2u : 1u), "nsum after hom_reduce MAX/MIN: %u", nsum_of(o2, s2));
                            }
                        }
                    }
                    free(x);
                    free(l);
                    free(a);
                    free(b);
                    free(o1);
                    free(o2);
                    free(o3);
                }
    /* nsum grows through a chain of combines: 1+1 = 2, 2+2 = 4, 4+4 = 8, ... */
    {
        float x[40];
        for (int i = 0; i < 40; i++) x[i] = (float)i * 0.25f;
        eccl_bound_t b = ECCL_BOUND_ABS(1e-2);
        size_t sa, cap = eccl_compress_bound(40, ECCL_FLOAT32), so;
        unsigned char *a = compress_new(x, 40, ECCL_FLOAT32, &b, &sa), *o = tu_malloc(cap);
        for (uint32_t expect = 2; expect <= 64; expect *= 2) {
            TU_RC(eccl_hom_combine(a, sa, a, sa, ECCL_OP_SUM, o, cap, &so), ECCL_SUCCESS);
            TU_CHECK(nsum_of(o, so) == expect, "nsum %u, expected %u", nsum_of(o, so), expect);
            memcpy(a, o, so);
            sa = so;
        }
        free(a);
        free(o);
    }
}

/* ---- (d) mismatches ---- */
static void mismatches(void)
{
    float x[41];
    double xd[41];
    for (int i = 0; i < 41; i++) x[i] = (float)(xd[i] = i * 0.1);
    eccl_bound_t b1 = ECCL_BOUND_ABS(1e-3), b2 = ECCL_BOUND_ABS(2e-3), bl = ECCL_BOUND_LOSSLESS;
    eccl_bound_t r1 = {ECCL_MODE_REL, 1e-3, 4.0}, r2 = {ECCL_MODE_REL, 1e-3, 5.0};
    size_t s1, s2, s3, s4, s5, s6, s7, cap = eccl_compress_bound(41, ECCL_FLOAT64), so;
    unsigned char *a = compress_new(x, 40, ECCL_FLOAT32, &b1, &s1);
    unsigned char *eb2 = compress_new(x, 40, ECCL_FLOAT32, &b2, &s2);
    unsigned char *n41 = compress_new(x, 41, ECCL_FLOAT32, &b1, &s3);
    unsigned char *f64 = compress_new(xd, 40, ECCL_FLOAT64, &b1, &s4);
    unsigned char *los = compress_new(x, 40, ECCL_FLOAT32, &bl, &s5);
    unsigned char *ra = compress_new(x, 40, ECCL_FLOAT32, &r1, &s6);
    unsigned char *rb = compress_new(x, 40, ECCL_FLOAT32, &r2, &s7);
    unsigned char *o = tu_malloc(cap);
    for (int op = 0; op < 3; op++) {
        eccl_op_t e = (eccl_op_t)op;
        TU_RC(eccl_hom_combine(a, s1, eb2, s2, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(a, s1, n41, s3, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(n41, s3, a, s1, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(a, s1, f64, s4, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(a, s1, los, s5, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(ra, s6, rb, s7, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_reduce(a, s1, x, 41, ECCL_FLOAT32, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_reduce(a, s1, x, 39, ECCL_FLOAT32, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_reduce(a, s1, xd, 40, ECCL_FLOAT64, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_reduce(a, s1, x, 40, ECCL_COMPLEX64, e, o, cap, &so), ECCL_ERR_MISMATCH);
        TU_RC(eccl_hom_combine(a, s1, a, s1, e, o, cap, &so), ECCL_SUCCESS);
    }
    /* Streams of the same eb_abs reached through different modes (ABS 0.01 vs REL 1e-3 of a range
     * 10): eccl.h asks only for equal eb_abs, the implementation also for equal mode, bound and
     * range. Either answer is allowed here, but it must not depend on the operand order. */
    {
        eccl_bound_t ab = ECCL_BOUND_ABS(0.01), rb10 = {ECCL_MODE_REL, 1e-3, 10.0};
        double e1, e2;
        eccl_bound_resolve(&ab, NULL, 40, ECCL_FLOAT32, &e1);
        eccl_bound_resolve(&rb10, NULL, 40, ECCL_FLOAT32, &e2);
        size_t sp, sq, o1s = 0, o2s = 0;
        unsigned char *p = compress_new(x, 40, ECCL_FLOAT32, &ab, &sp);
        unsigned char *q = compress_new(x, 40, ECCL_FLOAT32, &rb10, &sq);
        unsigned char *o2 = tu_malloc(cap);
        eccl_result_t c1 = eccl_hom_combine(p, sp, q, sq, ECCL_OP_SUM, o, cap, &o1s);
        eccl_result_t c2 = eccl_hom_combine(q, sq, p, sp, ECCL_OP_SUM, o2, cap, &o2s);
        TU_CHECK(e1 == e2, "ABS 0.01 and REL 1e-3 x 10: eb %.17g %.17g", e1, e2);
        TU_CHECK(c1 == c2 && (c1 == ECCL_ERR_MISMATCH ||
                              (c1 == ECCL_SUCCESS && o1s == o2s && memcmp(o, o2, o1s) == 0)),
                 "same eb_abs, different modes: combine gives %d / %d, or different bytes", c1, c2);
        free(p);
        free(q);
        free(o2);
    }
    free(a);
    free(eb2);
    free(n41);
    free(f64);
    free(los);
    free(ra);
    free(rb);
    free(o);
}

/* ---- (e) overflow of QMAX ---- */
static void overflow(void)
{
    /* f32, ABS 0.5: D = 1, QMAX = 2^30 - 1. 1e9 quantizes (q = 1e9); 2e9 does not fit.
     * Two full blocks (a short block of such integers would not fit QUANT anyway). */
    {
        const size_t count = 64;
        float x[64], l[64], y[64];
        for (size_t i = 0; i < count; i++) {
            x[i] = i % 2 ? 1.0e9f : -1.0e9f;
            l[i] = i % 2 ? 1.0e9f : -1.0e9f;
        }
        l[63] = 5.0f; /* block 1: 31 overflowing values, one that does not */
        x[62] = 1.0e9f;
        eccl_bound_t b = ECCL_BOUND_ABS(0.5);
        size_t sa, so, cap = eccl_compress_bound(count, ECCL_FLOAT32);
        unsigned char *a = compress_new(x, count, ECCL_FLOAT32, &b, &sa), *o = tu_malloc(cap);
        eccl_stream_info_t info;
        TU_RC(eccl_stream_info(a, sa, &info), ECCL_SUCCESS);
        TU_CHECK(info.nblocks_quant == 2, "1e9 with D = 1 quantizes");
        TU_RC(eccl_hom_reduce(a, sa, l, count, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &so), ECCL_SUCCESS);
        TU_RC(eccl_stream_info(o, so, &info), ECCL_SUCCESS);
        TU_CHECK(info.nblocks_raw == 2, "sums beyond QMAX: %llu RAW blocks, expected 2",
                 (unsigned long long)info.nblocks_raw);
        TU_RC(eccl_decompress(o, so, y, count, ECCL_FLOAT32), ECCL_SUCCESS);
        for (size_t i = 0; i < count; i++)
            TU_CHECK(y[i] == x[i] + l[i], "overflow f32 elem %zu: %.9g vs %.9g", i, y[i], x[i] + l[i]);
        /* and through combine, and MAX (which never overflows: stays QUANT) */
        size_t sb;
        unsigned char *bs = compress_new(l, count, ECCL_FLOAT32, &b, &sb);
        TU_RC(eccl_hom_combine(a, sa, bs, sb, ECCL_OP_SUM, o, cap, &so), ECCL_SUCCESS);
        TU_RC(eccl_decompress(o, so, y, count, ECCL_FLOAT32), ECCL_SUCCESS);
        for (size_t i = 0; i < count; i++)
            TU_CHECK(y[i] == x[i] + l[i], "overflow combine elem %zu", i);
        TU_RC(eccl_hom_combine(a, sa, bs, sb, ECCL_OP_MAX, o, cap, &so), ECCL_SUCCESS);
        TU_RC(eccl_stream_info(o, so, &info), ECCL_SUCCESS);
        TU_CHECK(info.nblocks_raw == 0, "MAX of integers stays QUANT");
        TU_RC(eccl_decompress(o, so, y, count, ECCL_FLOAT32), ECCL_SUCCESS);
        for (size_t i = 0; i < count; i++)
            TU_CHECK(y[i] == (x[i] > l[i] ? x[i] : l[i]), "MAX elem %zu", i);
        free(a);
        free(bs);
        free(o);
    }
    /* f64, ABS 0.5: QMAX = 2^44 - 1 = 17592186044415. 1.5e13 quantizes; chain of 8 overflows at
     * the 2nd step; the RAW path adds exactly (these sums are exact in binary64) */
    {
        const size_t count = 64;
        double x[64], y[64];
        long double s[64];
        for (size_t i = 0; i < count; i++) x[i] = s[i] = (i % 3 ? 1.5e13 : -1.5e13) + (double)i;
        eccl_bound_t b = ECCL_BOUND_ABS(0.5);
        size_t sa, so, cap = eccl_compress_bound(count, ECCL_FLOAT64);
        unsigned char *a = compress_new(x, count, ECCL_FLOAT64, &b, &sa), *o = tu_malloc(cap);
        for (int j = 1; j < 8; j++) {
            TU_RC(eccl_hom_reduce(a, sa, x, count, ECCL_FLOAT64, ECCL_OP_SUM, o, cap, &so), ECCL_SUCCESS);
            memcpy(a, o, so);
            sa = so;
            for (size_t i = 0; i < count; i++) s[i] += x[i];
        }
        TU_RC(eccl_decompress(a, sa, y, count, ECCL_FLOAT64), ECCL_SUCCESS);
        for (size_t i = 0; i < count; i++)
            TU_CHECK((long double)y[i] == s[i], "overflow f64 elem %zu: %.17g vs %.17Lg", i, y[i], s[i]);
        TU_CHECK(nsum_of(a, sa) == 8, "nsum 8");
        free(a);
        free(o);
    }
    /* exactly QMAX stays integer; QMAX + 1 does not (f32, D = 1: 2^29 + (2^29 - 1) = QMAX) */
    {
        float x[32], l[32], y[32];
        for (int i = 0; i < 32; i++) {
            x[i] = 536870912.0f;                 /* 2^29 */
            l[i] = i == 0 ? 536870848.0f : 0.0f; /* 2^29 - 64 (float32 spacing at 2^29 is 64) */
        }
        eccl_bound_t b = ECCL_BOUND_ABS(0.5);
        size_t sa, so, cap = eccl_compress_bound(32, ECCL_FLOAT32);
        unsigned char *a = compress_new(x, 32, ECCL_FLOAT32, &b, &sa), *o = tu_malloc(cap);
        eccl_stream_info_t info;
        TU_RC(eccl_hom_reduce(a, sa, l, 32, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &so), ECCL_SUCCESS);
        TU_RC(eccl_stream_info(o, so, &info), ECCL_SUCCESS);
        TU_CHECK(info.nblocks_quant == 1, "2^30 - 64 <= QMAX stays QUANT");
        TU_RC(eccl_decompress(o, so, y, 32, ECCL_FLOAT32), ECCL_SUCCESS);
        TU_CHECK(y[0] == 1073741760.0f && y[1] == 536870912.0f, "QMAX-64 sum: %.9g", y[0]);
        free(a);
        free(o);
    }
}

/* ---- (f) LOSSLESS and bounds below 2^-1000: exact T arithmetic ---- */
static void exact_ops(void)
{
    const eccl_bound_t bs[] = {ECCL_BOUND_LOSSLESS, {ECCL_MODE_ABS, 1e-305, 0.0}};
    const int pats[] = {TU_SMOOTH, TU_RANDOM, TU_HUGE, TU_DENORMAL, TU_NANINF, TU_MIXED_SCALE};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned bi = 0; bi < 2; bi++)
            for (unsigned pi = 0; pi < sizeof pats / sizeof *pats; pi++) {
                eccl_dtype_t dt = dtypes[d];
                int is64 = is64_of(dt);
                size_t count = 1000, n = count * reals_of(dt), W = is64 ? 8 : 4;
                void *x = tu_malloc(n * W), *l = tu_malloc(n * W), *y = tu_malloc(n * W);
                tu_fill(x, n, is64, pats[pi], 21);
                tu_fill(l, n, is64, pats[(pi + 1) % 6], 22);
                size_t sa, so, cap = eccl_compress_bound(count, dt);
                unsigned char *a = compress_new(x, count, dt, &bs[bi], &sa), *o = tu_malloc(cap);
                for (int op = 0; op < 3; op++) {
                    if (op && reals_of(dt) == 2) continue;
                    TU_RC(eccl_hom_reduce(a, sa, l, count, dt, (eccl_op_t)op, o, cap, &so), ECCL_SUCCESS);
                    TU_RC(eccl_decompress(o, so, y, count, dt), ECCL_SUCCESS);
                    int bad = 0;
                    for (size_t i = 0; i < n && bad < 3; i++) {
                        uint64_t expect;
                        if (is64) {
                            double p = ((double *)x)[i], q = ((double *)l)[i], r;
                            if (op == 0) r = p + q;
                            else if (isnan(p) || isnan(q)) r = NAN;
                            else r = op == 1 ? (p > q ? p : q) : (p < q ? p : q);
                            memcpy(&expect, &r, 8);
                            if (isnan(r)) expect = 0x7FF8000000000000ull;
                            if (r == 0 && p == 0 && q == 0 && op) expect = bits(op == 1 ? (signbit(p) ? l : x) : (signbit(p) ? x : l), i, 1);
                        } else {
                            float p = ((float *)x)[i], q = ((float *)l)[i], r;
                            uint32_t u;
                            if (op == 0) r = p + q;
                            else if (isnan(p) || isnan(q)) r = NAN;
                            else r = op == 1 ? (p > q ? p : q) : (p < q ? p : q);
                            memcpy(&u, &r, 4);
                            expect = isnan(r) ? 0x7FC00000u : u;
                            if (r == 0 && p == 0 && q == 0 && op) expect = bits(op == 1 ? (signbit(p) ? l : x) : (signbit(p) ? x : l), i, 0);
                        }
                        tu_checks++;
                        if (bits(y, i, is64) != expect) {
                            TU_CHECK(0, "exact %s op %d %s elem %zu: bits %llx, expected %llx",
                                     eccl_dtype_name(dt), op, bi ? "ABS 1e-305" : "LOSSLESS", i,
                                     (unsigned long long)bits(y, i, is64), (unsigned long long)expect);
                            bad++;
                        }
                    }
                }
                free(x);
                free(l);
                free(y);
                free(a);
                free(o);
            }
}

/* ---- (g) section 11: when the integers fit QMAX but QUANT would exceed r*W, the output is RAW
 * holding T(Q*D) (exact integer sum, one rounding) ---- */
static void quant_too_big_fallback(void)
{
    /* f32, ABS 0.5 (D = 1), 33 values: block 1 is a single value that is not a head block.
     * A = compress(2^25 everywhere) + L1, with L1 = 1 at 31 and 2 at 32: integers 2^25 + 1 and
     *     2^25 + 2, one apart: block 1 is QUANT (Lorenzo, d = 1, 4 bytes). A decodes element 32
     *     to float(2^25 + 2) = 2^25 (a tie, to even).
     * hom_reduce(A, L2), L2 = -2^20 at 31 and 2 at 32: Q_31 = 2^25 + 1 - 2^20, Q_32 = 2^25 + 4:
     *     the delta 2^20 + 3 needs 21 planes (84 bytes), predictor none 26 planes: neither fits
     *     the 4 bytes of a 1-value block, so section 11 says: store RAW the values T(Q D):
     *     element 32 is float(2^25 + 4) = 2^25 + 4, not fl32(decoded A + local) = 2^25 (the
     *     integer sum is exact; only the final conversion rounds). */
    float x[33], l1[33], l2[33], y[33];
    for (int i = 0; i < 33; i++) {
        x[i] = 33554432.0f;
        l1[i] = l2[i] = 0.0f;
    }
    l1[31] = 1.0f;
    l1[32] = 2.0f;
    l2[31] = -1048576.0f;
    l2[32] = 2.0f;
    eccl_bound_t b = ECCL_BOUND_ABS(0.5);
    size_t s0, s1, s2, cap = eccl_compress_bound(33, ECCL_FLOAT32);
    unsigned char *a0 = compress_new(x, 33, ECCL_FLOAT32, &b, &s0), *a1 = tu_malloc(cap), *a2 = tu_malloc(cap);
    TU_RC(eccl_hom_reduce(a0, s0, l1, 33, ECCL_FLOAT32, ECCL_OP_SUM, a1, cap, &s1), ECCL_SUCCESS);
    TU_CHECK(a1[72] < 0xC0 && a1[73] < 0xC0, "setup: A is QUANT (codes %02x %02x)", a1[72], a1[73]);
    TU_RC(eccl_decompress(a1, s1, y, 33, ECCL_FLOAT32), ECCL_SUCCESS);
    TU_CHECK(y[32] == 33554432.0f, "setup: A decodes element 32 to %.1f", y[32]);
    TU_RC(eccl_hom_reduce(a1, s1, l2, 33, ECCL_FLOAT32, ECCL_OP_SUM, a2, cap, &s2), ECCL_SUCCESS);
    TU_CHECK(a2[73] >= 0xC0, "block 1 must be RAW (code %02x)", a2[73]);
    TU_RC(eccl_decompress(a2, s2, y, 33, ECCL_FLOAT32), ECCL_SUCCESS);
    float expect = 33554436.0f; /* T(Q*D), Q = 2^25 + 4 */
    TU_CHECK(y[32] == expect, "section 11 fallback: element 32 is %.1f, the spec's T(Q*D) is %.1f", y[32],
             expect);
    /* and the same through the reference writer */
    unsigned char *ro = NULL;
    size_t rs = 0;
    char why[REF_WHY_LEN];
    TU_CHECK(ref_hom(a1, s1, NULL, 0, l2, 0, &ro, &rs, why) == REF_OK, "ref_hom: %s", why);
    TU_CHECK(ro && rs == s2 && memcmp(ro, a2, rs) == 0, "hom_reduce differs from the reference (section 11)");
    free(ro);
    free(a0);
    free(a1);
    free(a2);
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") != NULL;
    /* every pattern and k for the small sizes; the larger ones for a few patterns, k = 8 */
    const size_t sizes[] = {1, 33, 1000, 8193, 30000};
    const int ks[] = {2, 3, 8};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned bi = 0; bi < NBOUNDS; bi++)
            for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                size_t count = sizes[si];
                if (count > 10000 && (quick || bi != 0 || (d != 0 && d != 3))) continue;
                for (int pat = 0; pat < TU_NPATTERNS; pat++)
                    for (unsigned ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
                        if (count > 1000 && ki != 2) continue;
                        if (count > 1000 && pat != TU_SMOOTH && pat != TU_NANINF &&
                            !(count < 10000 && pat == TU_RANDOM))
                            continue;
                        sum_chain(dtypes[d], &bounds[bi], count, pat, ks[ki]);
                        if (reals_of(dtypes[d]) == 1 && count < 10000) {
                            maxmin_chain(dtypes[d], &bounds[bi], count, pat, ks[ki], ECCL_OP_MAX);
                            maxmin_chain(dtypes[d], &bounds[bi], count, pat, ks[ki], ECCL_OP_MIN);
                        }
                    }
            }
    TU_CHECK(n_quant_blocks_checked > 1000, "only %ld QUANT blocks checked in the integer domain",
             n_quant_blocks_checked);
    commutativity();
    mismatches();
    overflow();
    exact_ops();
    quant_too_big_fallback();
    printf("test_hom: %ld elements, %ld skipped (possible overflow of T), %ld QUANT blocks checked "
           "exactly, %ld integer blocks stored RAW\n",
           n_elems, n_skipped, n_quant_blocks_checked, n_raw_fallback_blocks);
    return tu_finish("test_hom");
}
