/*
 * block.c - quantize, encode and decode one block of 32 reals (doc/format.md sections 6 and 8).
 *
 * The functions here are the reference the CUDA codec is checked against, so they follow the
 * specification literally; the hot loops of plain compression and decompression have faster
 * twins in block_fast.c that must produce the same bytes (tests/test_codec.c compares them).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "codec/codec.h"

void eccl_qparams_init(eccl_qparams_t *p, eccl_dtype_t dtype, eccl_mode_t mode, double eb_abs)
{
    p->is64 = eccl_dtype_is64(dtype);
    p->lag = (int)eccl_dtype_reals(dtype);
    p->eb = eb_abs;
    p->quant = mode != ECCL_MODE_LOSSLESS && eccl_fmt_can_quantize(eb_abs);
    p->D = p->quant ? eccl_fmt_quantum(eb_abs) : 0.0;
    p->R = p->quant ? 1.0 / p->D : 0.0;
    p->qmax = p->is64 ? ECCL_FMT_QMAX64 : ECCL_FMT_QMAX32;
}

static inline double load_real(const void *x, int i, int is64)
{
    if (is64) return ((const double *)x)[i];
    return (double)((const float *)x)[i];
}

int eccl_block_quantize(const eccl_qparams_t *p, const void *x, int r, int64_t *q)
{
    int ok = 1;
    for (int i = 0; i < r; i++)
        ok &= eccl_fmt_quantize(load_real(x, i, p->is64), p->R, p->D, p->eb, p->qmax, p->is64, &q[i]);
    return ok;
}

static inline int prev_index(int i, int lag) { return i >= lag ? i - lag : i - 1; }

/* Write the (optional) sign map and F planes of magnitudes mag[0..r-1]. */
static int write_planes(unsigned char *out, const uint64_t *mag, uint32_t sign, int r, int F,
                        int with_sign)
{
    int o = 0;
    if (with_sign) {
        eccl_st32(out, sign);
        o = 4;
    }
    for (int j = 0; j < F; j++) {
        uint32_t w = 0;
        for (int i = 0; i < r; i++) w |= (uint32_t)((mag[i] >> j) & 1u) << i;
        eccl_st32(out + o + 4 * j, w);
    }
    return o + 4 * F;
}

/* Deltas of one predictor: magnitudes, sign bits, and the resulting encoding choice. */
typedef struct {
    uint64_t mag[32];
    uint32_t neg;
    eccl_fmt_choice_t c;
} deltas_t;

int eccl_block_encode_quant(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            unsigned char *out, unsigned *code)
{
    deltas_t L, N;
    uint64_t allL = 0, allN = 0;
    uint32_t posL = 0, posN = 0;
    L.neg = N.neg = 0;
    for (int i = 0; i < r; i++) {
        int64_t d;
        if (pred) d = q[i] - (i >= p->lag ? q[i - p->lag] : pred[i]);
        else d = i == 0 ? 0 : q[i] - q[prev_index(i, p->lag)];
        L.mag[i] = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
        L.neg |= (uint32_t)(d < 0) << i;
        posL |= (uint32_t)(d > 0) << i;
        allL |= L.mag[i];
        int64_t v = q[i];
        N.mag[i] = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        N.neg |= (uint32_t)(v < 0) << i;
        posN |= (uint32_t)(v > 0) << i;
        allN |= N.mag[i];
    }
    int H = pred ? 0 : eccl_fmt_head_bytes(p->is64);
    L.c = eccl_fmt_choose(allL, L.neg, posL, p->is64, H);
    N.c = eccl_fmt_choose(allN, N.neg, posN, p->is64, 0);
    int use_none = N.c.size < L.c.size;
    const deltas_t *d = use_none ? &N : &L;
    int W = p->is64 ? 8 : 4;
    if (d->c.size > r * W) return -1;
    int o = 0;
    if (!use_none && !pred) {
        uint64_t z = eccl_fmt_zigzag(q[0]);
        for (int k = 0; k < H; k++) out[k] = (unsigned char)(z >> (8 * k));
        o = H;
    }
    if (d->c.F > 0) write_planes(out + o, d->mag, d->neg, r, d->c.F, d->c.s == ECCL_FMT_SIGN_MAP);
    *code = eccl_fmt_quant_code((unsigned)d->c.s, use_none ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                (unsigned)d->c.fc);
    return d->c.size;
}

int eccl_block_encode_raw(const eccl_qparams_t *p, const uint64_t *v, int r, unsigned char *out,
                          unsigned *code)
{
    int W = p->is64 ? 8 : 4;
    uint64_t key[32], mag[32], all = 0;
    uint32_t sign = 0;
    for (int i = 0; i < r; i++)
        key[i] = p->is64 ? eccl_fmt_key64(v[i]) : eccl_fmt_key32((uint32_t)v[i]);
    mag[0] = 0;
    for (int i = 1; i < r; i++) {
        uint64_t a = key[i], b = key[prev_index(i, p->lag)];
        mag[i] = a >= b ? a - b : b - a;
        sign |= (uint32_t)(a < b) << i;
        all |= mag[i];
    }
    int F = eccl_fmt_bitlen64(all);
    int size = W + (F > 0 ? 4 + 4 * F : 0);
    if (F <= (p->is64 ? 62 : 32) && size < r * W) {
        if (p->is64) eccl_st64(out, v[0]);
        else eccl_st32(out, (uint32_t)v[0]);
        if (F > 0) write_planes(out + W, mag, sign, r, F, 1);
        *code = eccl_fmt_raw_code((unsigned)F);
        return size;
    }
    for (int i = 0; i < r; i++) {
        if (p->is64) eccl_st64(out + 8 * i, v[i]);
        else eccl_st32(out + 4 * i, (uint32_t)v[i]);
    }
    *code = 0xFFu;
    return r * W;
}

static inline uint64_t load_bits(const void *x, int i, int is64)
{
    if (is64) {
        uint64_t u;
        memcpy(&u, (const unsigned char *)x + 8 * i, 8);
        return u;
    }
    uint32_t u;
    memcpy(&u, (const unsigned char *)x + 4 * i, 4);
    return u;
}

int eccl_block_encode_quantized(const eccl_qparams_t *p, const void *x, int r, eccl_pred_t *pr,
                                unsigned char *out, unsigned *code)
{
    if (p->quant) {
        int64_t q[32];
        if (eccl_block_quantize(p, x, r, q)) {
            int size = eccl_block_encode_quant(p, q, r, pr->have ? pr->q : NULL, out, code);
            if (size >= 0) {
                eccl_pred_set(pr, q, r, p->lag);
                return size;
            }
        }
    }
    pr->have = 0;
    return -1;
}

int eccl_block_encode_exact(const eccl_qparams_t *p, const void *x, int r, unsigned char *out, unsigned *code)
{
    uint64_t v[32];
    for (int i = 0; i < r; i++) v[i] = load_bits(x, i, p->is64);
    return eccl_block_encode_raw(p, v, r, out, code);
}

/* Read the optional sign map and F planes into mag[]/neg, checking the canonical form of
 * section 6.1: reserved bits (positions >= r, and `zero_first` position 0) clear, F minimal,
 * and the sign mode s consistent with the signs. Returns -1 on a violation. */
static int read_planes(const unsigned char *in, int r, int F, int fc, unsigned s, int zero_first,
                       int is64, uint64_t *mag, uint32_t *neg)
{
    uint32_t valid = r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u);
    if (zero_first) valid &= ~1u;
    uint32_t sm = 0, nz = 0, w = 0;
    int o = 0;
    if (s == ECCL_FMT_SIGN_MAP) {
        sm = eccl_ld32(in);
        o = 4;
    }
    for (int i = 0; i < 32; i++) mag[i] = 0;
    for (int j = 0; j < F; j++) {
        w = eccl_ld32(in + o + 4 * j);
        if (w & ~valid) return -1;
        nz |= w;
        uint32_t bits = w;
        while (bits) {
            int i = __builtin_ctz(bits);
            mag[i] |= (uint64_t)1 << j;
            bits &= bits - 1;
        }
    }
    if (fc < 31 || !is64) {
        if (w == 0) return -1; /* top plane empty: F not minimal (f32 with fc = 31: F = 31 exactly) */
    } else {
        uint64_t all = 0;
        for (int i = 0; i < r; i++) all |= mag[i];
        if (eccl_fmt_bitlen64(all) < 31) return -1;
    }
    switch (s) {
    case ECCL_FMT_SIGN_MAP:
        /* signs only on nonzero deltas, and both signs present (else s would be 1 or 2) */
        if ((sm & ~nz) || sm == 0 || (nz & ~sm) == 0) return -1;
        *neg = sm;
        break;
    case ECCL_FMT_SIGN_POS: *neg = 0; break;
    default: *neg = nz; break;
    }
    return 0;
}

/* Integers of a QUANT block; -1 if not canonical or out of range. */
static int read_quant(const eccl_qparams_t *p, unsigned code, const unsigned char *in, int r,
                      const eccl_pred_t *pr, int64_t *q)
{
    unsigned s = eccl_fmt_code_sign(code), pred = eccl_fmt_code_pred(code);
    int fc = (int)(code & 31u);
    int F = eccl_fmt_quant_planes(code, p->is64);
    int head = pred == ECCL_FMT_PRED_LORENZO && !pr->have;
    int o = 0;
    uint64_t mag[32];
    uint32_t neg = 0;
    int64_t q0 = 0;
    if (head) {
        int H = eccl_fmt_head_bytes(p->is64);
        uint64_t z = 0;
        for (int k = 0; k < H; k++) z |= (uint64_t)in[k] << (8 * k);
        q0 = eccl_fmt_unzigzag(z);
        if (q0 > p->qmax || q0 < -p->qmax) return -1;
        o = H;
    }
    if (F > 0) {
        if (read_planes(in + o, r, F, fc, s, head, p->is64, mag, &neg)) return -1;
    } else {
        for (int i = 0; i < r; i++) mag[i] = 0;
    }
    for (int i = 0; i < r; i++) {
        int64_t d = (neg >> i) & 1u ? -(int64_t)mag[i] : (int64_t)mag[i];
        int64_t v;
        if (pred == ECCL_FMT_PRED_NONE) v = d;
        else if (head) v = i == 0 ? q0 : q[prev_index(i, p->lag)] + d;
        else v = (i >= p->lag ? q[i - p->lag] : pr->q[i]) + d;
        if (v > p->qmax || v < -p->qmax) return -1;
        q[i] = v;
    }
    return 0;
}

/* Encodings of a RAW block; -1 if not canonical. */
static int read_raw(const eccl_qparams_t *p, unsigned code, const unsigned char *in, int r,
                    uint64_t *v)
{
    int W = p->is64 ? 8 : 4;
    if (code == 0xFFu) {
        for (int i = 0; i < r; i++) v[i] = p->is64 ? eccl_ld64(in + 8 * i) : eccl_ld32(in + 4 * i);
        return 0;
    }
    int F = (int)(code & 63u);
    v[0] = p->is64 ? eccl_ld64(in) : eccl_ld32(in);
    uint64_t key[32], mag[32];
    uint32_t neg = 0;
    if (F > 0) {
        uint32_t valid = (r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u)) & ~1u, nz = 0, w = 0;
        neg = eccl_ld32(in + W);
        for (int i = 0; i < 32; i++) mag[i] = 0;
        for (int j = 0; j < F; j++) {
            w = eccl_ld32(in + W + 4 + 4 * j);
            if (w & ~valid) return -1;
            nz |= w;
            for (uint32_t bits = w; bits; bits &= bits - 1) mag[__builtin_ctz(bits)] |= (uint64_t)1 << j;
        }
        if (w == 0 || (neg & ~nz)) return -1;
    } else {
        for (int i = 0; i < 32; i++) mag[i] = 0;
    }
    uint64_t kmax = p->is64 ? UINT64_MAX : 0xFFFFFFFFull;
    key[0] = p->is64 ? eccl_fmt_key64(v[0]) : eccl_fmt_key32((uint32_t)v[0]);
    for (int i = 1; i < r; i++) {
        uint64_t b = key[prev_index(i, p->lag)];
        if ((neg >> i) & 1u) {
            if (mag[i] > b) return -1;
            key[i] = b - mag[i];
        } else {
            if (mag[i] > kmax - b) return -1;
            key[i] = b + mag[i];
        }
        v[i] = p->is64 ? eccl_fmt_unkey64(key[i]) : eccl_fmt_unkey32((uint32_t)key[i]);
    }
    return 0;
}

int eccl_block_read(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                    eccl_pred_t *pr, eccl_blockrep_t *b)
{
    b->r = r;
    if (eccl_fmt_code_is_raw(code)) {
        b->exact = 1;
        pr->have = 0;
        return read_raw(p, code, payload, r, b->v);
    }
    b->exact = 0;
    if (!p->quant || read_quant(p, code, payload, r, pr, b->q)) return -1;
    eccl_pred_set(pr, b->q, r, p->lag);
    return 0;
}

int eccl_block_decode(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                      eccl_pred_t *pr, void *x)
{
    eccl_blockrep_t b;
    if (eccl_block_read(p, code, payload, r, pr, &b)) return -1;
    for (int i = 0; i < r; i++) {
        uint64_t u = eccl_block_rep_bits(p, &b, i);
        if (p->is64) memcpy((unsigned char *)x + 8 * i, &u, 8);
        else {
            uint32_t u32 = (uint32_t)u;
            memcpy((unsigned char *)x + 4 * i, &u32, 4);
        }
    }
    return 0;
}

void eccl_block_rep_from_values(const eccl_qparams_t *p, const void *x, int r, eccl_blockrep_t *b)
{
    b->r = r;
    if (p->quant && eccl_block_quantize(p, x, r, b->q)) {
        b->exact = 0;
        return;
    }
    b->exact = 1;
    for (int i = 0; i < r; i++) b->v[i] = load_bits(x, i, p->is64);
}

uint64_t eccl_block_rep_bits(const eccl_qparams_t *p, const eccl_blockrep_t *b, int i)
{
    if (b->exact) return b->v[i];
    double rec = (double)b->q[i] * p->D;
    if (p->is64) return eccl_f64_as_u64(rec);
    float f = (float)rec;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

int eccl_block_encode_rep(const eccl_qparams_t *p, const eccl_blockrep_t *b, eccl_pred_t *pr,
                          unsigned char *out, unsigned *code)
{
    if (!b->exact) {
        int size = eccl_block_encode_quant(p, b->q, b->r, pr->have ? pr->q : NULL, out, code);
        if (size >= 0) {
            eccl_pred_set(pr, b->q, b->r, p->lag);
            return size;
        }
        uint64_t v[32];
        for (int i = 0; i < b->r; i++) v[i] = eccl_block_rep_bits(p, b, i);
        pr->have = 0;
        return eccl_block_encode_raw(p, v, b->r, out, code);
    }
    pr->have = 0;
    return eccl_block_encode_raw(p, b->v, b->r, out, code);
}
