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
    /* |x - q D| <= D (1/2 + 2^-21) (1 + 2^-53) for q = rint(fl(x R)) and |q| <= QMAX32 (the
     * rounding of R and of x R moves x/D by at most |x/D| 2^-51.9 < 2^-21); the product below,
     * rounded down at most 2^-53, is above that, so `near` never says more than is true */
    p->near = p->quant && !p->is64 && p->D * (0.5 + 0x1p-19) < eb_abs;
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

/* Deltas of one predictor: magnitudes, sign bits, their bit length and the resulting encoding
 * choice. */
typedef struct {
    uint64_t mag[32];
    uint64_t all;       /* the OR of the magnitudes */
    uint32_t neg, pos; /* negative deltas, positive deltas */
    int bits;
    eccl_fmt_choice_t c;
} deltas_t;

enum { PK_LORENZO, PK_NONE, PK_L2 };

/* Delta i of predictor `kind` (section 6.2). pred: eccl_pred_t.q of the previous block, NULL for a
 * head block (whose d_0 is not coded: 0). Second order is for real types (lag 1). */
static inline int64_t delta_at(const int64_t *q, int i, const int64_t *pred, int kind, int lag)
{
    if (kind == PK_NONE) return q[i];
    if (kind == PK_LORENZO) {
        if (pred) return q[i] - (i >= lag ? q[i - lag] : pred[i]);
        return i == 0 ? 0 : q[i] - q[prev_index(i, lag)];
    }
    if (!pred) return i == 0 ? 0 : i == 1 ? q[1] - q[0] : q[i] - 2 * q[i - 1] + q[i - 2];
    int64_t a = i >= 1 ? q[i - 1] : pred[1];               /* q_{i-1} */
    int64_t b = i >= 2 ? q[i - 2] : i == 1 ? pred[1] : pred[2]; /* q_{i-2} */
    return q[i] - 2 * a + b;
}

static void deltas_of(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                      int kind, int extra, deltas_t *D)
{
    uint64_t all = 0;
    uint32_t pos = 0;
    D->neg = 0;
    for (int i = 0; i < r; i++) {
        int64_t d = delta_at(q, i, pred, kind, p->lag);
        D->mag[i] = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
        D->neg |= (uint32_t)(d < 0) << i;
        pos |= (uint32_t)(d > 0) << i;
        all |= D->mag[i];
    }
    D->all = all;
    D->pos = pos;
    D->bits = eccl_fmt_bitlen64(all);
    D->c = eccl_fmt_choose(all, D->neg, pos, p->is64, extra);
}

int eccl_block_encode_quant(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            unsigned char *out, unsigned *code)
{
    deltas_t L, N;
    int H = pred ? 0 : eccl_fmt_head_bytes(p->is64);
    deltas_of(p, q, r, pred, PK_LORENZO, H, &L);
    deltas_of(p, q, r, pred, PK_NONE, 0, &N);
    int use_none = N.c.size < L.c.size; /* only when strictly smaller (section 8) */
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

void eccl_block_price_forms(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            int want_l2, int *size, unsigned *code)
{
    deltas_t L, A;
    int H = pred ? 0 : eccl_fmt_head_bytes(p->is64), W = p->is64 ? 8 : 4;
    int fq = p->is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32;
    deltas_of(p, q, r, pred, PK_LORENZO, H, &L);
    for (int f = 0; f < (want_l2 ? 2 : 1); f++) {
        deltas_of(p, q, r, pred, f ? PK_L2 : PK_NONE, f ? H : 0, &A);
        int alt = A.c.size < L.c.size && (!f || A.bits <= fq);
        const eccl_fmt_choice_t *c = alt ? &A.c : &L.c;
        size[f] = c->size <= r * W ? c->size : -1;
        code[f] = eccl_fmt_quant_code((unsigned)c->s, alt ? ECCL_FMT_PRED_NONE : ECCL_FMT_PRED_LORENZO,
                                      (unsigned)c->fc);
    }
}

void eccl_block_price_all(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                          unsigned want, int *cost, int *bytes, unsigned *code)
{
    deltas_t D[3]; /* Lorenzo, none, second order */
    eccl_fmt_dstat_t st[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    static const int kinds[3] = {PK_LORENZO, PK_NONE, PK_L2};
    for (int k = 0; k < 3; k++) {
        if ((k == 1 && !(want & 1u)) || (k == 2 && !(want & 10u))) continue;
        deltas_of(p, q, r, pred, kinds[k], 0, &D[k]);
        st[k].all = D[k].all;
        st[k].neg = D[k].neg;
        st[k].pos = D[k].pos;
    }
    eccl_fmt_price_v3(p->is64, r, !pred, want, st[0], st[1], st[2], 1, cost, bytes, code);
}

/* The k-bit compaction of w onto the ones of z (section 6.4): bit j is w's bit at z's j-th one. */
static uint32_t compact(uint32_t w, uint32_t z)
{
    uint32_t c = 0;
    int j = 0;
    for (; z; z &= z - 1u, j++) c |= ((w >> __builtin_ctz(z)) & 1u) << j;
    return c;
}

/* The word w spread onto the ones of z: bit j of w to z's j-th one (the inverse of compact). */
static uint32_t expand(uint32_t w, uint32_t z)
{
    uint32_t e = 0;
    for (; z; z &= z - 1u, w >>= 1) e |= (w & 1u) << __builtin_ctz(z);
    return e;
}

int eccl_sparse_from_dense(const unsigned char *dense, int head, unsigned code, int is64, unsigned char *out,
                           eccl_bitw_t *bw)
{
    return eccl_sparse_from_dense_with(dense, head, code, is64, out, bw, compact);
}

int eccl_sparse_to_dense(const unsigned char *in, int head, unsigned code, int is64, eccl_bitr_t *br,
                         unsigned char *dense)
{
    return eccl_sparse_to_dense_with(in, head, code, is64, br, dense, expand);
}

int eccl_block_write_sparse(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            unsigned form, unsigned code, unsigned char *out, eccl_bitw_t *bw)
{
    unsigned char dense[6 + 4 + 4 * ECCL_FMT_FQ64];
    eccl_block_write_quant(p, q, r, pred, eccl_sparse_dense_form(form), eccl_sparse_dense_code(code, form), dense);
    return eccl_sparse_from_dense(dense, !pred, code, p->is64, out, bw);
}

int eccl_block_write_quant(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                           unsigned form, unsigned code, unsigned char *out)
{
    deltas_t D;
    int kind = eccl_fmt_code_pred(code) == ECCL_FMT_PRED_LORENZO ? PK_LORENZO
               : form == ECCL_FMT_FORM_L2                        ? PK_L2
                                                                 : PK_NONE;
    int H = pred || kind == PK_NONE ? 0 : eccl_fmt_head_bytes(p->is64);
    deltas_of(p, q, r, pred, kind, H, &D);
    if (H) {
        uint64_t z = eccl_fmt_zigzag(q[0]);
        for (int k = 0; k < H; k++) out[k] = (unsigned char)(z >> (8 * k));
    }
    if (D.c.F > 0) write_planes(out + H, D.mag, D.neg, r, D.c.F, D.c.s == ECCL_FMT_SIGN_MAP);
    return D.c.size;
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

/* F is minimal (section 6.1): the top plane holds a bit (top: its word, bits at the block's
 * positions), or for f64 with fc = 31 (F = 45) the magnitudes' bit length is 31..45. */
static int planes_minimal(uint32_t top, int fc, int is64, const uint64_t *mag, int r)
{
    if (fc < 31 || !is64) return top != 0; /* (f32 with fc = 31: F = 31 exactly) */
    uint64_t all = 0;
    for (int i = 0; i < r; i++) all |= mag[i];
    return eccl_fmt_bitlen64(all) >= 31;
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
    if (!planes_minimal(w, fc, is64, mag, r)) return -1;
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
static int read_quant(const eccl_qparams_t *p, unsigned form, unsigned code,
                      const unsigned char *in, int r, const eccl_pred_t *pr, int64_t *q, eccl_bitr_t *br)
{
    unsigned s = eccl_fmt_code_sign(code), pred = eccl_fmt_code_pred(code);
    int fc = (int)(code & 31u);
    int F = eccl_fmt_quant_planes(code, p->is64);
    int sparse = eccl_fmt_code_sparse(code, form);
    int l2 = pred == ECCL_FMT_PRED_NONE && eccl_fmt_form_second(form); /* second order */
    int head = (pred == ECCL_FMT_PRED_LORENZO || form != ECCL_FMT_FORM_NONE) && !pr->have;
    if (pred == ECCL_FMT_PRED_NONE && form == ECCL_FMT_FORM_S1) pred = ECCL_FMT_PRED_LORENZO; /* first order */
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
        /* a sparse block: its map and stream bits as the dense block's sign map and planes (a map
         * bit on a zero delta refused there; the map's reserved bits then show in the planes) */
        unsigned char dense[4 + 4 * ECCL_FMT_FQ64];
        if (sparse && (!br || eccl_sparse_to_dense(in + o, 0, code, p->is64, br, dense))) return -1;
        if (read_planes(sparse ? dense : in + o, r, F, fc, s, head, p->is64, mag, &neg)) return -1;
    } else {
        for (int i = 0; i < r; i++) mag[i] = 0;
    }
    for (int i = 0; i < r; i++) {
        int64_t d = (neg >> i) & 1u ? -(int64_t)mag[i] : (int64_t)mag[i];
        int64_t v;
        if (l2) { /* q_i = d_i + 2 q_{i-1} - q_{i-2}; every q checked before it predicts */
            if (head) v = i == 0 ? q0 : i == 1 ? q[0] + d : d + 2 * q[i - 1] - q[i - 2];
            else v = d + 2 * (i >= 1 ? q[i - 1] : pr->q[1]) - (i >= 2 ? q[i - 2] : i == 1 ? pr->q[1] : pr->q[2]);
        } else if (pred == ECCL_FMT_PRED_NONE) v = d;
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
    return eccl_block_read_form(p, ECCL_FMT_FORM_NONE, code, payload, r, pr, b, NULL);
}

int eccl_block_read_form(const eccl_qparams_t *p, unsigned form, unsigned code,
                         const unsigned char *payload, int r, eccl_pred_t *pr, eccl_blockrep_t *b,
                         eccl_bitr_t *br)
{
    b->r = r;
    b->input = 0;
    if (eccl_fmt_code_is_raw(code)) {
        b->exact = 1;
        pr->have = 0;
        return read_raw(p, code, payload, r, b->v);
    }
    b->exact = 0;
    if (!p->quant || read_quant(p, form, code, payload, r, pr, b->q, br)) return -1;
    eccl_pred_set(pr, b->q, r, p->lag);
    return 0;
}

int eccl_block_decode(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                      eccl_pred_t *pr, void *x)
{
    return eccl_block_decode_form(p, ECCL_FMT_FORM_NONE, code, payload, r, pr, x, NULL);
}

int eccl_block_decode_form(const eccl_qparams_t *p, unsigned form, unsigned code,
                           const unsigned char *payload, int r, eccl_pred_t *pr, void *x, eccl_bitr_t *br)
{
    eccl_blockrep_t b;
    if (eccl_block_read_form(p, form, code, payload, r, pr, &b, br)) return -1;
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
    for (int i = 0; i < r; i++) b->v[i] = load_bits(x, i, p->is64);
    b->exact = !(p->quant && eccl_block_quantize(p, x, r, b->q));
    b->input = !b->exact;
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
