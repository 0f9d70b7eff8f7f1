// enc32.cuh - the pieces of 32-bit block encoding shared by the float32 compression kernel
// (compress32.cu) and the fused homomorphic kernel (hom32.cu): quantization, the per-thread
// block plans (section 8 of doc/format.md) and bit planes. Included by one
// kernel file each (an anonymous namespace: every translation unit has its own copy).
#ifndef ECCL_CUDA_ENC32_CUH
#define ECCL_CUDA_ENC32_CUH

#include "cuda/codec_dev.cuh"

namespace {

constexpr int ROW = 33; // words per block row in shared memory


// Values i .. i+3 of x (n values; zeros beyond), one 16-byte load where all four exist.
__device__ __forceinline__ void load4(const float *x, uint64_t i, uint64_t n, float (&v)[4])
{
    if (i + 3 < n) {
        float4 f = *(const float4 *)(x + i);
        v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
    } else {
        for (int k = 0; k < 4; k++) v[k] = i + k < n ? x[i + k] : 0.0f;
    }
}

// The same for a tile's values i .. i+3 (of n) through its map (codec_dev.cuh): one 16-byte load
// when vec (the view's groups of 4 are aligned and never straddle a column), else one per value.
__device__ __forceinline__ void load4_map(const float *x, const tile_map &map, int vec, uint64_t i, uint64_t n,
                                          float (&v)[4])
{
    if (vec && i + 3 < n) {
        float4 f = *(const float4 *)(x + map.at((uint32_t)i));
        v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w;
    } else {
        for (int k = 0; k < 4; k++) v[k] = i + k < n ? x[map.at((uint32_t)(i + k))] : 0.0f;
    }
}

__device__ __forceinline__ int quantize32(double x, const eccl_dev_q &q, int *qi)
{
    double qd = rint(x * q.R);
    double aq = fabs(qd);
    double rec = qd * q.D;
    double s1 = fabs(x - rec);
    double s2 = fabs(x - (double)(float)rec);
    int ok = aq <= (double)q.qmax && s1 < q.eb && s2 < q.eb;
    *qi = ok ? (int)qd : 0;
    if (!ok && aq <= (double)q.qmax && (s1 == q.eb || s2 == q.eb)) { // the exact rule decides ties
        int64_t v;
        ok = eccl_fmt_quantize(x, q.R, q.D, q.eb, q.qmax, 0, &v);
        *qi = ok ? (int)v : 0;
    }
    return ok;
}

__device__ __forceinline__ eccl_fmt_choice_t choose(uint32_t all, uint32_t neg, uint32_t pos, int extra)
{
    eccl_fmt_choice_t c;
    int fb = 32 - __clz((int)all);
    c.fc = fb <= 30 ? fb : ECCL_FMT_F_ESCAPE;
    c.F = fb <= 30 ? fb : ECCL_FMT_FQ32;
    c.s = c.F == 0 ? ECCL_FMT_SIGN_MAP : !neg ? ECCL_FMT_SIGN_POS : !pos ? ECCL_FMT_SIGN_NEG : ECCL_FMT_SIGN_MAP;
    c.size = extra + (c.F > 0 ? (c.s == ECCL_FMT_SIGN_MAP ? 4 : 0) + 4 * c.F : 0);
    return c;
}

// Packed (F <= 8, and F <= 16): with NW = 8, m[k + 8c] is byte c of word acc[k] (NW = 16: m[k +
// 16c] is halfword c); rotating acc[k] right by j - k brings bit j of each of its lanes to bit k of
// that lane, where plane j wants value k + NW c. Two instructions (a funnel-shift rotate, one LOP3)
// per word and plane instead of three per value and plane.
template <int NW, class Sink>
__device__ __forceinline__ void planes_packed(Sink o, const uint32_t (&m)[32], int F)
{
    constexpr uint32_t lsb = NW == 8 ? 0x01010101u : 0x00010001u; // bit 0 of every lane
    uint32_t acc[NW];
#pragma unroll
    for (int k = 0; k < NW; k++) {
        acc[k] = m[k];
#pragma unroll
        for (int c = 1; c < 32 / NW; c++) acc[k] |= m[k + NW * c] << (NW * c);
    }
    for (int j = 0; j < F; j++) {
        uint32_t w = 0;
#pragma unroll
        for (int k = 0; k < NW; k++) w |= __funnelshift_r(acc[k], acc[k], (unsigned)(j - k)) & (lsb << k);
        o(j, w);
    }
}

// The F planes of m[0..31] (plane j: bit i = bit j of m[i]), each given to o(j, plane).
template <class Sink>
__device__ __forceinline__ void planes_to(Sink o, const uint32_t (&m)[32], int F)
{
#if ECCL_PLANES_PACKED
    if (F <= 8) return planes_packed<8>(o, m, F);
    if (F <= 16) return planes_packed<16>(o, m, F);
#endif
    for (int j = 0; j < F; j++) {
        uint32_t w = 0;
#pragma unroll
        for (int i = 0; i < 32; i++) w |= ((m[i] >> j) & 1u) << i;
        o(j, w);
    }
}
// ... written at word pointer o.
__device__ __forceinline__ void planes(uint32_t *o, const uint32_t (&m)[32], int F)
{
    planes_to([o](int j, uint32_t w) { o[j] = w; }, m, F);
}

// Everything one thread needs to write its block once the offsets are known.
struct plan {
    int size, quant, none, F, with_sign, head, raw_coded;
    uint32_t neg, head_word, v0;
    unsigned code;
    // version 2 (plan_quant with l2): the block's form-1 encoding (doc/format.md 8.1): its size
    // (-1 if it exceeds r*W), code, planes and sign map, and whether it is second order
    int size1, F1, with_sign1, alt1;
    unsigned code1;
    int alt; // the block is second order (a form-1 tile: choose_form)
    // version 3 (plan_quant with want3): the block's encoding in each form a (doc/format.md 8.2),
    // packed: (cost in bits + 1) << 16 | payload bytes << 8 | code; 0 where the form is not
    // wanted or the encoding exceeds r*W. Then (choose_form3) sparse: the chosen encoding is a
    // sparse block, of sbits stream bits.
    uint32_t v3[4];
    int sparse, sbits;
};

// Second-order delta i of a block (doc/format.md 6.2) from q_i and the two integers before it
// (for a head block, have = 0: d_0 = 0, d_1 = q_1 - q_0). In 64 bits: they reach 4 QMAX.
__device__ __forceinline__ long long l2_delta(int i, int have, int qi, int pm1, int pm2)
{
    if (!have && i == 0) return 0;
    if (!have && i == 1) return (long long)qi - pm1;
    return (long long)qi - 2 * (long long)pm1 + pm2;
}

// The magnitudes of a block's second-order deltas into m (0 beyond r); returns the sign bits.
__device__ __forceinline__ uint32_t l2_mags(const int *qs, int b, int r, int have, uint32_t (&m)[32])
{
    const int *row = qs + ROW * b;
    int pm2 = have ? qs[ROW * (b - 1) + 30] : 0, pm1 = have ? qs[ROW * (b - 1) + 31] : 0;
    uint32_t neg = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        const int qi = i < r ? row[i] : 0;
        const long long d = i < r ? l2_delta(i, have, qi, pm1, pm2) : 0;
        m[i] = (uint32_t)(d < 0 ? -d : d);
        neg |= (uint32_t)(d < 0) << i;
        pm2 = pm1;
        pm1 = qi;
    }
    return neg;
}

// The magnitudes of a block's Lorenzo deltas (lag 1 or 2, doc/format.md 6.2) into m (0 beyond r);
// returns the sign bits.
__device__ __forceinline__ uint32_t lorenzo_mags(const int *qs, int b, int r, int have, int lag, uint32_t (&m)[32])
{
    const int *row = qs + ROW * b;
    const int q0 = row[0];
    int pm2 = have ? qs[ROW * (b - 1) + 30] : 0, pm1 = have ? qs[ROW * (b - 1) + 31] : 0;
    uint32_t neg = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        const int qi = i < r ? row[i] : 0;
        int prev = lag == 1 ? pm1 : pm2;
        if (!have && i < lag) prev = i == 0 ? qi : q0;
        const int dl = i < r ? qi - prev : 0;
        m[i] = dl < 0 ? 0u - (uint32_t)dl : (uint32_t)dl;
        neg |= (uint32_t)(dl < 0) << i;
        pm2 = pm1;
        pm1 = qi;
    }
    return neg;
}

// The magnitudes of the integers themselves (predictor none) into m; returns the sign bits.
__device__ __forceinline__ uint32_t none_mags(const int *qs, int b, int r, uint32_t (&m)[32])
{
    const int *row = qs + ROW * b;
    uint32_t neg = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        const int qi = i < r ? row[i] : 0;
        m[i] = qi < 0 ? 0u - (uint32_t)qi : (uint32_t)qi;
        neg |= (uint32_t)(qi < 0) << i;
    }
    return neg;
}

// The magnitudes (into m) and sign bits (p.neg) of the encoding plan p chose for QUANT block b
// (version 2 computes them once the tile's form is known, so that no thread holds 32 magnitudes
// across choose_form's barriers).
__device__ __forceinline__ void quant_mags(plan &p, const int *qs, int b, int r, int have, int lag, uint32_t (&m)[32])
{
    if (p.alt) p.neg = l2_mags(qs, b, r, have, m);
    else if (p.none) p.neg = none_mags(qs, b, r, m);
    else p.neg = lorenzo_mags(qs, b, r, have, lag, m);
}

// A plane choice of the 64-bit types: a plane code of 31 means 45 planes.
template <bool D64> __device__ __forceinline__ void wide_escape(eccl_fmt_choice_t &c)
{
    if (D64 && c.fc == ECCL_FMT_F_ESCAPE) {
        c.size += 4 * (ECCL_FMT_FQ64 - ECCL_FMT_FQ32);
        c.F = ECCL_FMT_FQ64;
    }
}

// The QUANT encoding of block b from its integers in shared memory (section 8); plan.size < 0
// when the block must be RAW. D64: a float64/complex128 block whose integers all lie within
// +-(2^30 - 1) (compress64.cu): 6-byte head values, 8-byte reals, and a plane code of 31 (deltas
// of 31 bits) meaning 45 planes, of which 31..44 are zero.
// l2 (version 2, a real type): also price the block's form-1 encoding (plan.size1 ...), whose
// second-order candidate is usable when its deltas need at most FQ planes (31 for float32; the
// 64-bit fast path's integers keep them below 2^32, always usable).
// MAGS: also leave the chosen form-0 encoding's magnitudes in m (version 1; version 2 leaves m
// alone and quant_mags fills it once the tile's form is known).
// want3 (version 3, MAGS false): the forms to price (bit a: form a), each block's prices into
// plan.v3.
template <bool D64 = false, bool MAGS = true>
__device__ plan plan_quant(const eccl_dev_q &q, const int *qs, int b, int r, int have, uint32_t (&m)[32],
                           int l2 = 0, unsigned want3 = 0)
{
    plan p;
    p.alt = 0;
    p.sparse = p.sbits = 0;
    const int *row = qs + ROW * b;
    int pm2 = 0, pm1 = 0; // q_{i-2}, q_{i-1}
    if (have) {
        pm2 = qs[ROW * (b - 1) + 30];
        pm1 = qs[ROW * (b - 1) + 31];
    }
    const int q0 = row[0];
    uint32_t allL = 0, allN = 0, negL = 0, posL = 0, negN = 0, posN = 0, all2 = 0, neg2 = 0, nz2 = 0;
    // second-order deltas (l2) as differences of the Lorenzo ones, d2_i = dl_i - dl_{i-1}: a head
    // block's dl_0 = 0 gives d2_0 = 0 and d2_1 = q_1 - q_0 (doc/format.md 6.2), and before a
    // block with a predecessor dl_{-1} = q_{-1} - q_{-2}
    // (in 32 bits: |dl| < 2^31 and |d2| < 2^32, so the sign is dl < dl_{i-1} and the magnitude
    // the difference modulo 2^32)
    int dlp = have ? pm1 - pm2 : 0;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        int qi = i < r ? row[i] : 0;
        int prev = q.lag == 1 ? pm1 : pm2;
        if (!have && i < q.lag) prev = i == 0 ? qi : q0; // head: d_0 = 0, d_1 = q_1 - q_0
        int dl = i < r ? qi - prev : 0;
        uint32_t ml = dl < 0 ? 0u - (uint32_t)dl : (uint32_t)dl, mn = qi < 0 ? 0u - (uint32_t)qi : (uint32_t)qi;
        if (MAGS) m[i] = ml;
        allL |= ml;
        allN |= mn;
        negL |= (uint32_t)(dl < 0) << i;
        posL |= (uint32_t)(dl > 0) << i;
        negN |= (uint32_t)(qi < 0) << i;
        posN |= (uint32_t)(qi > 0) << i;
        if (!MAGS) { // (version 2)
            const int lt = i < r && dl < dlp;
            const uint32_t mag2 = i >= r ? 0u : lt ? (uint32_t)dlp - (uint32_t)dl : (uint32_t)dl - (uint32_t)dlp;
            all2 |= mag2;
            neg2 |= (uint32_t)lt << i;
            nz2 |= (uint32_t)(mag2 != 0) << i;
            dlp = dl;
        }
        pm2 = pm1;
        pm1 = qi;
    }
    const uint32_t pos2 = nz2 & ~neg2;
    if (!MAGS && want3) { // (second-order magnitudes below 2^32 here: exact, s2_ok)
        const eccl_fmt_dstat_t L = {allL, negL, posL}, N = {allN, negN, posN}, S2 = {all2, neg2, pos2};
        int cost[4], by[4];
        unsigned cd[4];
        eccl_fmt_price_v3(D64, r, !have, want3, L, N, S2, 1, cost, by, cd);
#pragma unroll
        for (int a = 0; a < 4; a++)
            p.v3[a] = cost[a] < 0 ? 0u : (uint32_t)(cost[a] + 1) << 16 | (uint32_t)by[a] << 8 | cd[a];
    }
    eccl_fmt_choice_t cl = choose(allL, negL, posL, have ? 0 : eccl_fmt_head_bytes(D64)), cn = choose(allN, negN, posN, 0);
    wide_escape<D64>(cl); // (of form 0, only Lorenzo deltas reach 31 bits)
    if (l2) {
        eccl_fmt_choice_t c2 = choose(all2, neg2, pos2, have ? 0 : eccl_fmt_head_bytes(D64));
        wide_escape<D64>(c2);
        const int bits2 = 32 - __clz((int)all2);
        p.alt1 = bits2 <= (D64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32) && c2.size < cl.size;
        eccl_fmt_choice_t c1 = cl;
        if (p.alt1) c1 = c2;
        p.size1 = c1.size <= r * (D64 ? 8 : 4) ? c1.size : -1;
        p.F1 = c1.F;
        p.with_sign1 = c1.s == ECCL_FMT_SIGN_MAP && c1.F > 0;
        p.code1 = eccl_fmt_quant_code((unsigned)c1.s, p.alt1 ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                      (unsigned)c1.fc);
    }
    p.none = cn.size < cl.size;
    eccl_fmt_choice_t c = p.none ? cn : cl;
    p.size = c.size <= r * (D64 ? 8 : 4) ? c.size : -1;
    p.quant = 1;
    p.raw_coded = 0;
    p.F = c.F;
    p.with_sign = c.s == ECCL_FMT_SIGN_MAP && c.F > 0;
    p.neg = p.none ? negN : negL;
    p.head = !p.none && !have;
    p.head_word = (uint32_t)eccl_fmt_zigzag(q0);
    p.code = eccl_fmt_quant_code((unsigned)c.s, p.none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO, (unsigned)c.fc);
    if (MAGS && p.none) { // the magnitudes of the integers themselves
#pragma unroll
        for (int i = 0; i < 32; i++) {
            int qi = i < r ? row[i] : 0;
            m[i] = qi < 0 ? 0u - (uint32_t)qi : (uint32_t)qi;
        }
    }
    return p;
}

// The RAW encoding of a block (section 6.3) from its values' bits, value(i) for i < r (rare: NaN,
// inf, huge values): x[i] (plan_raw), or a view's scattered values.
template <class V>
__device__ __forceinline__ plan plan_raw_from(const eccl_dev_q &q, V value, int r, uint32_t (&m)[32])
{
    plan p;
    uint32_t key[32], all = 0, neg = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) key[i] = i < r ? eccl_fmt_key32(value(i)) : 0u;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        uint32_t b = i == 0 ? key[0] : key[i >= q.lag ? i - q.lag : i - 1];
        uint32_t a = key[i];
        m[i] = i < r ? (a >= b ? a - b : b - a) : 0u;
        neg |= (uint32_t)(i < r && a < b) << i;
        all |= m[i];
    }
    int F = 32 - __clz((int)all);
    int size = 4 + (F > 0 ? 4 + 4 * F : 0);
    p.sparse = p.sbits = 0;
    p.quant = 0;
    p.v0 = value(0);
    p.neg = neg;
    p.F = F;
    p.with_sign = F > 0;
    p.head = 0;
    p.none = 0;
    if (size < r * 4) {
        p.raw_coded = 1;
        p.size = size;
        p.code = eccl_fmt_raw_code((unsigned)F);
    } else { // VERBATIM: m carries the values themselves, so that the image needs nothing else
        p.raw_coded = 0;
        p.size = r * 4;
        p.code = 0xFFu;
#pragma unroll
        for (int i = 0; i < 32; i++) m[i] = i < r ? value(i) : 0u;
    }
    return p;
}

__device__ plan plan_raw(const eccl_dev_q &q, const unsigned *x, int r, uint32_t (&m)[32])
{
    return plan_raw_from(q, [x](int i) { return x[i]; }, r, m);
}

// Version 2: the tile's form (doc/format.md 8.1) from every thread's plan (isq: the thread has a
// QUANT block, have: the block has a predecessor; other threads count for nothing); where it is
// L2 each QUANT block takes its form-1 encoding (p.alt: second order; quant_mags then computes its
// magnitudes). Every thread of the CTA calls it; tmp: 32 entries.
__device__ __forceinline__ unsigned choose_form(plan &p, int isq, int have, unsigned long long *tmp, unsigned *form)
{
    const int inel = isq && p.size1 < 0;
    const long long diff = isq ? (long long)p.size1 - p.size : 0;
    const unsigned long long d = cta_sum((unsigned long long)diff, tmp); // (thread 0)
    const int any_inel = __syncthreads_or(inel);
    if (threadIdx.x == 0) *form = !any_inel && (long long)d < 0 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
    __syncthreads();
    const unsigned f = *form;
    if (f == ECCL_FMT_FORM_L2 && isq) {
        p.alt = p.alt1;
        p.size = p.size1;
        p.code = p.code1;
        p.F = p.F1;
        p.with_sign = p.with_sign1;
        p.none = 0;
        p.head = !have; // (every form-1 head block carries its first value)
    }
    return f;
}

// The payload bytes of the RAW block (doc/format.md 6.3) of the r float32 values value(i) (their
// bits): CODED when smaller than the values, else VERBATIM; plan_raw_from's size without its planes.
template <class V>
__device__ __forceinline__ int raw_size32(V value, int r, int lag)
{
    uint32_t key[32], all = 0;
#pragma unroll
    for (int i = 0; i < 32; i++) key[i] = i < r ? eccl_fmt_key32(value(i)) : 0u;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        const uint32_t b = i == 0 ? key[0] : key[i >= lag ? i - lag : i - 1], a = key[i];
        if (i < r) all |= a >= b ? a - b : b - a;
    }
    const int F = 32 - __clz((int)all), size = 4 + (F > 0 ? 4 + 4 * F : 0);
    return size < r * 4 ? size : r * 4;
}

// Version 3: the tile's form (doc/format.md 8.2: the smallest padded tile among form 0 and the
// eligible forms of want, ties to the lowest) from every thread's prices (isq: the thread has a
// QUANT block, p.v3; rawb: the bytes of its RAW block, else 0), then each QUANT block's encoding
// in that form: p.code, p.size (its payload bytes), p.sparse and p.sbits, and p.alt, p.none,
// p.head, p.F, p.with_sign for quant_mags and the image. Every thread of the CTA calls it (only
// threads 0-255 hold blocks); tmp: 64 words of shared memory.
__device__ __forceinline__ unsigned choose_form3(plan &p, int isq, int have, unsigned rawb, unsigned want,
                                                 unsigned *tmp, unsigned *form)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    if (tid < 256) {
        unsigned v[8]; // bytes in forms 0..3, stream bits in forms 2 and 3, RAW bytes, ineligible forms
#pragma unroll
        for (int a = 0; a < 4; a++) v[a] = isq ? (p.v3[a] >> 8) & 0xFFu : 0u;
#pragma unroll
        for (int a = 2; a < 4; a++) v[a + 2] = isq && p.v3[a] ? (p.v3[a] >> 16) - 1u - 8u * v[a] : 0u;
        v[6] = rawb;
        v[7] = 0;
#pragma unroll
        for (int a = 0; a < 4; a++) v[7] |= (unsigned)(isq && !p.v3[a]) << a;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
#pragma unroll
            for (int k = 0; k < 7; k++) v[k] += __shfl_xor_sync(ECCL_WARP_FULL, v[k], o);
            v[7] |= __shfl_xor_sync(ECCL_WARP_FULL, v[7], o);
        }
        if (lane == 0)
#pragma unroll
            for (int k = 0; k < 8; k++) tmp[8 * w + k] = v[k];
    }
    __syncthreads();
    if (tid == 0) {
        unsigned t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int x = 0; x < 8; x++)
            for (int k = 0; k < 8; k++) t[k] = k == 7 ? t[k] | tmp[8 * x + k] : t[k] + tmp[8 * x + k];
        unsigned f = ECCL_FMT_FORM_NONE;
        uint64_t best = eccl_fmt_align16(t[6] + t[0]);
        for (unsigned a = 1; a < 4; a++) {
            if (!((want >> a) & 1u) || ((t[7] >> a) & 1u)) continue;
            const uint64_t size = a >= ECCL_FMT_FORM_S1 ? eccl_fmt_sparse_tile_size(t[6] + t[a], t[a + 2])
                                                        : eccl_fmt_align16(t[6] + t[a]);
            if (size < best) best = size, f = a;
        }
        *form = f;
    }
    __syncthreads();
    const unsigned f = *form;
    if (isq) {
        const uint32_t e = p.v3[f];
        p.code = e & 0xFFu;
        p.size = (int)((e >> 8) & 0xFFu);
        p.sparse = eccl_fmt_code_sparse(p.code, f);
        p.sbits = p.sparse ? (int)((e >> 16) - 1u) - 8 * p.size : 0;
        const int p1 = eccl_fmt_code_pred(p.code) == ECCL_FMT_PRED_NONE;
        p.none = p1 && f == ECCL_FMT_FORM_NONE;
        p.alt = p1 && eccl_fmt_form_second(f);
        p.head = !have && !p.none;
        p.F = eccl_fmt_quant_planes(p.code, 0);
        p.with_sign = eccl_fmt_code_sign(p.code) == ECCL_FMT_SIGN_MAP && p.F > 0;
    }
    return f;
}

struct c32_smem {
    unsigned char codes[256];
    unsigned char qok[256];
    int wsum[8], wbits[8]; // per warp: payload bytes, sparse stream bits (version 3)
    unsigned total, padded, form;
    unsigned long long tile_off, tile_id, csum_tmp[32];
    tile_map map; // compression: where the tile's values are read (RAW blocks read them again)
    eccl_dev_q q;
    eccl_dev_header h;
#ifdef ECCL_PHASE_TIMING
    long long ph[11];
#endif
};


// Where the float32 encoder writes and what it publishes (compression and homomorphic kernels).
struct enc32_out {
    eccl_dev_scratch *s;
    uint64_t n, nb, nt, P;
    unsigned char *out;
    unsigned epoch;
    unsigned long long done_base;
    unsigned long long *d_size;
    const unsigned long long *in_checksum; // homomorphic: the input stream's checksum field, or NULL
};

// Phases B to the end for one tile whose integers are in rows qs (sm.qok: the block quantized):
// each thread plans its block (RAW blocks take their values from the input in global memory:
// rawsrc + 32 * b, or VIEW, rawsrc at the offsets of sm.map; from the rows themselves when rawsrc
// is NULL), a CTA scan places the blocks, the warp look-back finds the tile's offset while the
// image is built, the image goes out with
// 16-byte stores, and the last CTA writes the header and the checksum. img: 8192 + 4 words; it
// may overlay the rows (every thread holds what its block's image needs once the blocks are
// planned and placed: the planes' magnitudes, or a VERBATIM block's values, in m). NT threads
// (256 or 1024): threads 0-255 plan a block each, all of them share the copy-out.
// V: the newest version the instance writes (1, 2 or 3; the header's vmajor says which this
// stream is). Version 3's sparse tiles: the blocks' bytes, then the sparse stream, whose words the
// sparse blocks OR their bits into (zeroed first).
template <int NT = 256, bool VIEW = false, int V = 1>
__device__ void encode_tile32(const enc32_out &a, int *qs, uint32_t *img, c32_smem &sm, const unsigned *rawsrc,
                              unsigned long long t, uint64_t b0, uint64_t nblk)
{
    const int tid = threadIdx.x, lane = tid & 31, w = tid >> 5;
    eccl_dev_scratch *s = a.s;
    const eccl_dev_q q = sm.q;
    // Phase B: each thread plans its block.
    const int b = tid;
    uint32_t m[32];
    plan p;
    p.size = 0;
    p.quant = 0;
    int r = 32, have = 0;
    const int l2 = V >= 2 && sm.h.vmajor >= 2 && q.quant && q.lag == 1; // (version 2: price form 1 too)
    unsigned want3 = 0; // (version 3: every form the stream allows, doc/format.md 4.1)
    if (V >= 3 && sm.h.vmajor >= 3)
        for (unsigned f = 0; f < 4; f++) want3 |= (unsigned)eccl_fmt_form_ok(f, 3, q.quant, q.lag) << f;
    p.sparse = p.sbits = 0;
    if (b < (int)nblk) {
        r = b0 + b == a.nb - 1 ? eccl_fmt_block_len(a.n, a.nb - 1) : 32;
        have = b > 0 && sm.qok[b - 1];
        p.size = -1;
        if (sm.qok[b]) p = plan_quant<false, V == 1>(q, qs, b, r, have, m, l2, want3 > 1u ? want3 : 0u);
    }
    unsigned form = ECCL_FMT_FORM_NONE;
    if (V >= 2) { // the tile's form, then the chosen encoding's magnitudes (none held across barriers)
        const int isq = b < (int)nblk && sm.qok[b] && p.size >= 0;
        if (want3 > 1u) { // (a RAW block's size counts in the padded tiles compared)
            unsigned rawb = 0;
            if (b < (int)nblk && !isq) {
                if (!rawsrc)
                    rawb = (unsigned)raw_size32([qs, b, &sm, &q](int i) {
                        const int v = qs[ROW * b + i];
                        return sm.qok[b] ? __float_as_uint((float)((double)v * q.D)) : (unsigned)v;
                    }, r, q.lag);
                else if (VIEW)
                    rawb = (unsigned)raw_size32([rawsrc, &sm, b](int i) { return rawsrc[sm.map.at((uint32_t)(32 * b + i))]; },
                                                r, q.lag);
                else
                    rawb = (unsigned)raw_size32([rawsrc, b](int i) { return rawsrc[32 * b + i]; }, r, q.lag);
            }
            form = choose_form3(p, isq, have, rawb, want3, (unsigned *)sm.csum_tmp, &sm.form);
        } else if (l2) {
            form = choose_form(p, isq, have, sm.csum_tmp, &sm.form);
        }
        if (isq) quant_mags(p, qs, b, r, have, q.lag, m);
    }
    if (b < (int)nblk && p.size < 0) {
        if (!rawsrc && sm.qok[b]) // integers that do not fit (a short last block):
            for (int i = 0; i < r; i++) { // RAW of T(Q*D), in place (no block reads this row after it)
                float f = (float)((double)qs[ROW * b + i] * q.D);
                qs[ROW * b + i] = __float_as_int(f);
            }
        if (VIEW && rawsrc) // (a view: the values through the tile's map)
            p = plan_raw_from(q, [rawsrc, &sm, b](int i) { return rawsrc[sm.map.at((uint32_t)(32 * b + i))]; }, r, m);
        else
            p = plan_raw(q, rawsrc ? rawsrc + 32 * b : (const unsigned *)qs + ROW * b, r, m);
    }
    if (b < (int)nblk) sm.codes[b] = (unsigned char)p.code;
    // CTA exclusive scan of the sizes (all multiples of 4 for float32), and of a sparse tile's bits
    int incl = p.size, bincl = p.sbits;
    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(ECCL_WARP_FULL, incl, o), ub = __shfl_up_sync(ECCL_WARP_FULL, bincl, o);
        if (lane >= o) incl += u, bincl += ub;
    }
    if (lane == 31 && w < 8) sm.wsum[w] = incl, sm.wbits[w] = bincl;
    __syncthreads();
    PH(sm.ph, 5);
    if (tid == 0) { // the tile's size, published at once so successors can go on
        unsigned tot = 0, bits = 0;
        for (int k = 0; k < 8; k++) {
            unsigned v = (unsigned)sm.wsum[k], vb = (unsigned)sm.wbits[k];
            sm.wsum[k] = (int)tot;
            sm.wbits[k] = (int)bits;
            tot += v;
            bits += vb;
        }
        unsigned long long padded = form >= ECCL_FMT_FORM_S1 ? eccl_fmt_sparse_tile_size(tot, bits) : (tot + 15u) & ~15ull;
        atomicExch(&s->status[t], eccl_lb_pack(a.epoch, t == 0 ? ECCL_LB_INC : ECCL_LB_AGG, padded));
        sm.total = tot;
        sm.padded = (unsigned)padded;
    }
    __syncthreads();
    PH(sm.ph, 6);
    const unsigned tot = sm.total, padded = sm.padded;
    if (V >= 3 && form >= ECCL_FMT_FORM_S1) { // the stream and the padding zeroed before the bits go in
        // (this barrier before warp 7's look-back: after it, it made each sparse tile wait for its
        // predecessors' sizes before writing anything)
        for (unsigned z = tot / 4 + tid; z < padded / 4; z += NT) img[z] = 0;
        __syncthreads();
    }
    if (w == 7) { // the last warp looks back while the others build the image
#ifdef ECCL_PHASE_TIMING
        if (lane == 0) sm.ph[9] = ph_clock();
#endif
#ifdef ECCL_LB_FAKE // experiment only (a wrong stream): each tile at t * 32 KiB, no look-back, to
        // measure what the wait for the predecessors' sizes costs
        unsigned long long off = t * 32768ull;
#else
        unsigned long long off = t == 0 ? 0 : look_back_warp(s, t, padded, a.epoch, lane);
#endif
#ifdef ECCL_PHASE_TIMING
        if (lane == 0) sm.ph[10] = ph_clock();
#endif
        if (lane == 0) {
            sm.tile_off = off;
            if (t == a.nt - 1) s->total_size = a.P + off + padded;
        }
    }
    if (b < (int)nblk) { // write the payload into the image
        uint32_t *o = img + (sm.wsum[w] + incl - p.size) / 4;
        if (V >= 3 && p.sparse) { // head value and map; the sign word and planes compacted onto it
            if (p.head) *o++ = p.head_word;
            if (p.F > 0) {
                uint32_t z = 0;
#pragma unroll
                for (int i = 0; i < 32; i++) z |= (uint32_t)(m[i] != 0u) << i;
                *o = z;
                const bit_gather g(z);
                const int k = __popc(z);
                uint32_t *st = img + tot / 4; // (tot is a multiple of 4: the stream starts there)
                unsigned pos = (unsigned)(sm.wbits[w] + bincl - p.sbits);
                if (p.with_sign) {
                    put_bits(st, pos, g.compact(p.neg), k);
                    pos += (unsigned)k;
                }
                planes_to([st, pos, k, &g](int j, uint32_t pw) { put_bits(st, pos + (unsigned)(j * k), g.compact(pw), k); },
                          m, p.F);
            }
        } else if (p.quant || p.raw_coded) {
            if (p.head) *o++ = p.head_word;
            if (!p.quant) *o++ = p.v0;
            if (p.with_sign) *o++ = p.neg;
            planes(o, m, p.F);
        } else {
#pragma unroll
            for (int i = 0; i < 32; i++)
                if (i < p.size / 4) o[i] = m[i];
        }
    }
    if (V < 3 || form < ECCL_FMT_FORM_S1)
        for (unsigned z = tot / 4 + tid; z < padded / 4; z += NT) img[z] = 0;
    __syncthreads();
    PH(sm.ph, 7);

    // Copy out with 16-byte stores and hash.
    const unsigned long long gpos = a.P + sm.tile_off;
    unsigned long long h = 0;
    for (unsigned c = tid; c < padded / 16; c += NT) {
        uint4 v = *(const uint4 *)(img + 4 * c);
        *(uint4 *)(a.out + gpos + 16 * c) = v;
        h += chk_chunk(v, gpos + 16 * c);
    }
    const uint64_t cstart = 64 + 8 * a.nt + b0, cend = t == a.nt - 1 ? a.P : cstart + 256;
    for (uint64_t wd = cstart / 8 + tid; wd < cend / 8; wd += NT) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t z = 8 * wd + k - cstart;
            v |= (uint64_t)(z < nblk ? sm.codes[z] : 0) << (8 * k);
        }
        *(unsigned long long *)(a.out + 8 * wd) = v;
        h += chk_word(v, wd);
    }
    if (tid == 0) {
        const unsigned long long entry = eccl_fmt_index_entry(sm.tile_off, form);
        *(unsigned long long *)(a.out + 64 + 8 * t) = entry;
        h += chk_word(entry, (64 + 8 * t) / 8);
    }
    h = cta_sum(h, sm.csum_tmp);
    if (tid == 0) {
        atomicAdd(&s->checksum, h);
#ifdef ECCL_PHASE_TIMING
        sm.ph[8] = ph_clock();
        ph_add(sm.ph);
#endif
        // (the homomorphic kernel added its input checksum share to checksum2 before this)
        __threadfence();
        unsigned long long done = atomicAdd(&s->done_counter, 1ull) - a.done_base;
        if (done == a.nt - 1) {
            __threadfence();
            unsigned long long size = *(volatile unsigned long long *)&s->total_size;
            unsigned char hb[64];
            write_header(hb, sm.h, size);
            if (a.in_checksum && atomicExch(&s->checksum2, 0ull) != *a.in_checksum) eccl_dev_fail(s, ECCL_ERR_CORRUPT);
            unsigned long long sum = atomicExch(&s->checksum, 0ull) + chk_header(hb);
            st_bytes(hb + ECCL_HDR_CHECKSUM, sum, 8);
            for (int k = 0; k < 16; k++) ((uint32_t *)a.out)[k] = (uint32_t)ld_bytes(hb + 4 * k, 4);
            if (a.d_size) *a.d_size = size;
#ifdef ECCL_PHASE_TIMING
            ph_print(a.in_checksum ? "hom32" : "compress32");
#endif
        }
    }
}

} // namespace

#endif
