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

/* |x - y| <= eb, decided exactly. fl(x - y) is exact except when the operands are far apart;
 * only when the rounded difference equals eb can rounding change the answer, and then the exact
 * error term of the subtraction (Knuth's TwoSum) decides. */
static inline int within(double x, double y, double eb)
{
    double d = x - y;
    double s = fabs(d);
    if (s < eb) return 1;
    if (!(s == eb)) return 0;
    double ny = -y;
    double bv = d - x;
    double err = (x - (d - bv)) + (ny - bv);
    return d > 0 ? err <= 0.0 : err >= 0.0;
}

static inline double load_real(const void *x, int i, int is64)
{
    if (is64) return ((const double *)x)[i];
    return (double)((const float *)x)[i];
}

/* Quantize one value: returns 1 if quantizable, the integer in *q (always within +-2^50). */
static inline int quantize1(const eccl_qparams_t *p, double x, int64_t *q)
{
    double t = x * p->R;
    if (!(t <= ECCL_FMT_CLAMP)) t = (t > ECCL_FMT_CLAMP) ? ECCL_FMT_CLAMP : -ECCL_FMT_CLAMP;
    if (t < -ECCL_FMT_CLAMP) t = -ECCL_FMT_CLAMP;
    double qd = rint(t);
    int ok = fabs(qd) <= (double)p->qmax;
    double rec = qd * p->D;
    ok &= within(x, rec, p->eb);
    if (!p->is64) ok &= within(x, (double)(float)rec, p->eb);
    *q = (int64_t)qd;
    return ok;
}

int eccl_block_quantize(const eccl_qparams_t *p, const void *x, int r, int64_t *q)
{
    int ok = 1;
    for (int i = 0; i < r; i++) ok &= quantize1(p, load_real(x, i, p->is64), &q[i]);
    return ok;
}

static inline int prev_index(int i, int lag) { return i >= lag ? i - lag : i - 1; }

/* Write the sign map and F planes of magnitudes mag[1..r-1]. */
static void write_planes(unsigned char *out, const uint64_t *mag, uint32_t sign, int r, int F)
{
    eccl_st32(out, sign);
    for (int j = 0; j < F; j++) {
        uint32_t w = 0;
        for (int i = 1; i < r; i++) w |= (uint32_t)((mag[i] >> j) & 1u) << i;
        eccl_st32(out + 4 + 4 * j, w);
    }
}

int eccl_block_encode_quant(const eccl_qparams_t *p, const int64_t *q, int r, unsigned char *out,
                            unsigned *code)
{
    uint64_t mag[32], all = 0;
    uint32_t sign = 0;
    for (int i = 1; i < r; i++) {
        int64_t d = q[i] - q[prev_index(i, p->lag)];
        mag[i] = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
        sign |= (uint32_t)(d < 0) << i;
        all |= mag[i];
    }
    int fb = eccl_fmt_bitlen64(all);
    int f = fb <= 30 ? fb : ECCL_FMT_F_ESCAPE;
    int F = fb <= 30 ? fb : (p->is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32);
    uint64_t z = eccl_fmt_zigzag(q[0]);
    int c = eccl_fmt_bytes_for(z);
    int W = p->is64 ? 8 : 4;
    int size = c + (F > 0 ? 4 + 4 * F : 0);
    if (size > r * W) return -1;
    for (int k = 0; k < c; k++) out[k] = (unsigned char)(z >> (8 * k));
    if (F > 0) write_planes(out + c, mag, sign, r, F);
    *code = eccl_fmt_code((unsigned)c, (unsigned)f);
    return size;
}

int eccl_block_encode_raw(const eccl_qparams_t *p, const uint64_t *v, int r, unsigned char *out,
                          unsigned *code)
{
    int W = p->is64 ? 8 : 4;
    uint64_t key[32], mag[32], all = 0;
    uint32_t sign = 0;
    for (int i = 0; i < r; i++)
        key[i] = p->is64 ? eccl_fmt_key64(v[i]) : eccl_fmt_key32((uint32_t)v[i]);
    for (int i = 1; i < r; i++) {
        uint64_t a = key[i], b = key[prev_index(i, p->lag)];
        mag[i] = a >= b ? a - b : b - a;
        sign |= (uint32_t)(a < b) << i;
        all |= mag[i];
    }
    int fb = eccl_fmt_bitlen64(all);
    int F = p->is64 ? (fb + 1) & ~1 : fb;
    int fmax = p->is64 ? 60 : 30;
    int size = W + (F > 0 ? 4 + 4 * F : 0);
    if (F <= fmax && size < r * W) {
        if (p->is64) eccl_st64(out, v[0]);
        else eccl_st32(out, (uint32_t)v[0]);
        if (F > 0) write_planes(out + W, mag, sign, r, F);
        *code = eccl_fmt_code(ECCL_FMT_CODE_RAW, (unsigned)(p->is64 ? F / 2 : F));
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

int eccl_block_encode(const eccl_qparams_t *p, const void *x, int r, unsigned char *out,
                      unsigned *code)
{
    if (p->quant) {
        int64_t q[32];
        if (eccl_block_quantize(p, x, r, q)) {
            int size = eccl_block_encode_quant(p, q, r, out, code);
            if (size >= 0) return size;
        }
    }
    uint64_t v[32];
    for (int i = 0; i < r; i++) v[i] = load_bits(x, i, p->is64);
    return eccl_block_encode_raw(p, v, r, out, code);
}

/* Read sign map and F planes into mag[]/neg; checks the canonical form of section 6.1 except the
 * minimality of F (the caller knows which planes must be nonzero). Returns the OR of all planes
 * through *all_planes, or -1 when a reserved bit is set. */
static int read_planes(const unsigned char *in, int r, int F, uint64_t *mag, uint32_t *neg,
                       uint32_t *top1, uint32_t *top2)
{
    uint32_t valid = (r == 32 ? 0xFFFFFFFFu : ((1u << r) - 1u)) & ~1u;
    uint32_t s = eccl_ld32(in), nz = 0;
    for (int i = 0; i < 32; i++) mag[i] = 0;
    uint32_t w = 0, wprev = 0;
    for (int j = 0; j < F; j++) {
        wprev = w;
        w = eccl_ld32(in + 4 + 4 * j);
        if (w & ~valid) return -1;
        nz |= w;
        uint32_t bits = w;
        while (bits) {
            int i = __builtin_ctz(bits);
            mag[i] |= (uint64_t)1 << j;
            bits &= bits - 1;
        }
    }
    if (s & ~nz) return -1; /* sign bits only on nonzero deltas, never on reserved positions */
    *neg = s;
    *top1 = w;
    *top2 = wprev;
    return 0;
}

/* Integers of a QUANT block; -1 if not canonical or out of range. */
static int read_quant(const eccl_qparams_t *p, unsigned code, const unsigned char *in, int r,
                      int64_t *q)
{
    int c = (int)(code >> 5), f = (int)(code & 31u);
    int F = eccl_fmt_quant_planes(code, p->is64);
    uint64_t z = 0;
    for (int k = 0; k < c; k++) z |= (uint64_t)in[k] << (8 * k);
    if (c > 0 && in[c - 1] == 0) return -1;
    q[0] = eccl_fmt_unzigzag(z);
    if (q[0] > p->qmax || q[0] < -p->qmax) return -1;
    if (F == 0) {
        for (int i = 1; i < r; i++) q[i] = q[0];
        return 0;
    }
    uint64_t mag[32];
    uint32_t neg, top1, top2;
    if (read_planes(in + c, r, F, mag, &neg, &top1, &top2)) return -1;
    if (f < 31) {
        if (top1 == 0) return -1;
    } else {
        uint64_t all = 0;
        for (int i = 1; i < r; i++) all |= mag[i];
        if (eccl_fmt_bitlen64(all) < 31) return -1;
    }
    for (int i = 1; i < r; i++) {
        int64_t d = (int64_t)mag[i];
        int64_t v = q[prev_index(i, p->lag)] + ((neg >> i) & 1u ? -d : d);
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
    int F = eccl_fmt_raw_planes(code, p->is64);
    v[0] = p->is64 ? eccl_ld64(in) : eccl_ld32(in);
    uint64_t key[32], mag[32];
    uint32_t neg = 0, top1 = 0, top2 = 0;
    if (F > 0) {
        if (read_planes(in + W, r, F, mag, &neg, &top1, &top2)) return -1;
        if (top1 == 0 && (!p->is64 || top2 == 0)) return -1;
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
                    eccl_blockrep_t *b)
{
    b->r = r;
    if (eccl_fmt_code_is_raw(code)) {
        b->exact = 1;
        return read_raw(p, code, payload, r, b->v);
    }
    b->exact = 0;
    if (!p->quant) return -1;
    return read_quant(p, code, payload, r, b->q);
}

int eccl_block_decode(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                      void *x)
{
    eccl_blockrep_t b;
    if (eccl_block_read(p, code, payload, r, &b)) return -1;
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

int eccl_block_encode_rep(const eccl_qparams_t *p, const eccl_blockrep_t *b, unsigned char *out,
                          unsigned *code)
{
    if (!b->exact) {
        int size = eccl_block_encode_quant(p, b->q, b->r, out, code);
        if (size >= 0) return size;
        uint64_t v[32];
        for (int i = 0; i < b->r; i++) v[i] = eccl_block_rep_bits(p, b, i);
        return eccl_block_encode_raw(p, v, b->r, out, code);
    }
    return eccl_block_encode_raw(p, b->v, b->r, out, code);
}
