/*
 * hom.c - homomorphic SUM/MAX/MIN on compressed streams (doc/format.md section 11).
 *
 * Each block of each input is read as integers (QUANT) or exact values (RAW); integers combine
 * exactly in the quantized domain, anything else combines exactly as the element type would.
 * A full block whose inputs are all QUANT goes through the AVX2 pieces of
 * block_fast.c (read the integers, quantize the local values, combine, encode); anything else, and
 * any block those pieces decline, takes the reference path, which produces the same bytes
 * (tests/test_fastpath.c compares them).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "codec/fast.h"

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* op on exact values in the element type; NaN results are the canonical quiet NaN, and
 * max/min order -0.0 below +0.0, so the result never depends on the operand order. */
static uint64_t apply_exact(eccl_op_t op, uint64_t ua, uint64_t ub, int is64)
{
    if (is64) {
        double a = eccl_u64_as_f64(ua), b = eccl_u64_as_f64(ub), c;
        if (op == ECCL_OP_SUM) {
            c = a + b;
            return isnan(c) ? 0x7FF8000000000000ull : eccl_f64_as_u64(c);
        }
        if (isnan(a) || isnan(b)) return 0x7FF8000000000000ull;
        if (a == b) { /* equal, possibly zeros of different sign */
            int pick_a = op == ECCL_OP_MAX ? !(ua >> 63) : (int)(ua >> 63);
            return pick_a ? ua : ub;
        }
        return (op == ECCL_OP_MAX) == (a > b) ? ua : ub;
    }
    float a = bits_f32((uint32_t)ua), b = bits_f32((uint32_t)ub);
    if (op == ECCL_OP_SUM) {
        float c = a + b;
        return isnan(c) ? 0x7FC00000u : f32_bits(c);
    }
    if (isnan(a) || isnan(b)) return 0x7FC00000u;
    if (a == b) {
        int pick_a = op == ECCL_OP_MAX ? !((ua >> 31) & 1u) : (int)((ua >> 31) & 1u);
        return pick_a ? ua : ub;
    }
    return (op == ECCL_OP_MAX) == (a > b) ? ua : ub;
}

void eccl_codec_reduce_values(eccl_dtype_t dtype, eccl_op_t op, void *inout, const void *in,
                              size_t count)
{
    int is64 = eccl_dtype_is64(dtype);
    size_t n = count * eccl_dtype_reals(dtype);
    if (is64) {
        uint64_t *a = inout;
        const uint64_t *b = in;
        for (size_t i = 0; i < n; i++) a[i] = apply_exact(op, a[i], b[i], 1);
    } else {
        uint32_t *a = inout;
        const uint32_t *b = in;
        for (size_t i = 0; i < n; i++) a[i] = (uint32_t)apply_exact(op, a[i], b[i], 0);
    }
}

static void combine(const eccl_qparams_t *p, eccl_op_t op, const eccl_blockrep_t *a,
                    const eccl_blockrep_t *b, eccl_blockrep_t *o)
{
    o->r = a->r;
    o->input = 0;
    if (!a->exact && !b->exact) {
        int ok = 1;
        for (int i = 0; i < a->r; i++) {
            int64_t x = a->q[i], y = b->q[i];
            int64_t v = op == ECCL_OP_SUM ? x + y : op == ECCL_OP_MAX ? (x > y ? x : y)
                                                                      : (x < y ? x : y);
            ok &= v <= p->qmax && v >= -p->qmax;
            o->q[i] = v;
        }
        if (ok) {
            o->exact = 0;
            return;
        }
    }
    o->exact = 1;
    for (int i = 0; i < a->r; i++)
        o->v[i] = apply_exact(op, eccl_block_rep_bits(p, a, i), eccl_block_rep_bits(p, b, i),
                              p->is64);
}

typedef struct {
    const eccl_stream_t *a, *b; /* b == NULL: the local array x */
    const unsigned char *x;
    eccl_op_t op;
    int fast; /* QUANT stream and the AVX2 pieces available */
} hom_ctx_t;

/* qa = op(qa, qb) on quantized integers; 0 when a result leaves [-qmax, qmax] (the reference
 * path then combines the block exactly). */
static int combine_q32(const eccl_qparams_t *p, eccl_op_t op, int32_t *qa, const int32_t *qb)
{
    int ok = 1;
    for (int i = 0; i < 32; i++) {
        int64_t x = qa[i], y = qb[i];
        int64_t v = op == ECCL_OP_SUM ? x + y : op == ECCL_OP_MAX ? (x > y ? x : y) : (x < y ? x : y);
        ok &= v <= p->qmax && v >= -p->qmax;
        qa[i] = (int32_t)v;
    }
    return ok;
}

/* The same for 64-bit types (|q| <= QMAX64 < 2^62: the sum cannot overflow). */
static int combine_q64(const eccl_qparams_t *p, eccl_op_t op, int64_t *qa, const int64_t *qb)
{
    int ok = 1;
    for (int i = 0; i < 32; i++) {
        int64_t x = qa[i], y = qb[i];
        int64_t v = op == ECCL_OP_SUM ? x + y : op == ECCL_OP_MAX ? (x > y ? x : y) : (x < y ? x : y);
        ok &= v <= p->qmax && v >= -p->qmax;
        qa[i] = v;
    }
    return ok;
}

/* One full block through the AVX2 pieces: 1 when done (output written, predictors advanced),
 * 0 when the reference path must take it (predictors unchanged). */
static int fast_block(const hom_ctx_t *h, uint64_t k, const unsigned char *pa, const unsigned char *pb,
                      eccl_pred_t *pra, eccl_pred_t *prb, eccl_pred_t *pro, unsigned char *out,
                      int64_t *size, unsigned *code)
{
    const eccl_qparams_t *p = &h->a->qp;
    eccl_pred_t sa = *pra, sb = *prb;
    int ok;
    if (!p->is64) {
        int32_t qa[32], qb[32];
        ok = eccl_fast_read_q32(p, h->a->codes[k], pa, pra, qa) == 0;
        if (ok)
            ok = h->b ? eccl_fast_read_q32(p, h->b->codes[k], pb, prb, qb) == 0
                      : eccl_fast_quantize_f32(p, (const float *)(h->x + (k << 5) * 4), qb);
        if (ok && combine_q32(p, h->op, qa, qb)) {
            *size = eccl_fast_encode_q32(p, qa, pro, out, code);
            return 1;
        }
    } else {
        int64_t qa[32], qb[32];
        ok = eccl_fast_read_q64(p, h->a->codes[k], pa, pra, qa) == 0;
        if (ok)
            ok = h->b ? eccl_fast_read_q64(p, h->b->codes[k], pb, prb, qb) == 0
                      : eccl_fast_quantize_f64(p, (const double *)(h->x + (k << 5) * 8), qb);
        if (ok && combine_q64(p, h->op, qa, qb)) {
            *size = eccl_fast_encode_q64(p, qa, pro, out, code);
            return 1;
        }
    }
    *pra = sa; /* the reference path reads this block again */
    *prb = sb;
    return 0;
}

/* Block k of a version-2 or version-3 input as integers in place through the AVX2 readers (a
 * sparse block through its dense block; br: the tile's sparse stream): 0, or nonzero where they
 * decline (a RAW block, or one they do not confirm: the generic path decides). */
static int read_int_v2(const eccl_qparams_t *p, unsigned form, unsigned code, const unsigned char *in,
                       eccl_pred_t *pr, void *q, eccl_bitr_t *br)
{
    if (eccl_fmt_code_is_raw(code)) return ECCL_FAST_DECLINE;
    unsigned char dense[6 + 4 + 4 * ECCL_FMT_FQ64];
    if (eccl_fmt_code_sparse(code, form)) { /* (version 3: through its dense block) */
        if (!br || eccl_fast_sparse_to_dense(in, !pr->have, code, p->is64, br, dense)) return -1;
        code = eccl_sparse_dense_code(code, form);
        form = eccl_sparse_dense_form(form);
        in = dense;
    }
    int l2 = form == ECCL_FMT_FORM_L2 && eccl_fmt_code_pred(code) == ECCL_FMT_PRED_NONE;
    if (p->is64)
        return l2 ? eccl_fast_read_l2_64(p, code, in, pr, (int64_t *)q) : eccl_fast_read_q64(p, code, in, pr, (int64_t *)q);
    return l2 ? eccl_fast_read_l2_32i(p, code, in, pr, (int32_t *)q) : eccl_fast_read_q32(p, code, in, pr, (int32_t *)q);
}

/* Block k of a version-2 or version-3 input as integers or exact values: read_int_v2 for a full
 * QUANT block (a block it refuses goes to block.c, which decides, from the same stream position),
 * else block.c's (br: the tile's sparse stream, in a tile of form 2 or 3). */
static int read_rep_v2(const eccl_qparams_t *p, int fast, unsigned form, unsigned code,
                       const unsigned char *in, int r, eccl_pred_t *pr, eccl_blockrep_t *b, eccl_bitr_t *br)
{
    if (fast && r == 32 && !eccl_fmt_code_is_raw(code)) {
        int32_t q32[32];
        uint64_t at = br ? br->pos : 0;
        if (read_int_v2(p, form, code, in, pr, p->is64 ? (void *)b->q : (void *)q32, br) == 0) {
            if (!p->is64)
                for (int i = 0; i < 32; i++) b->q[i] = q32[i];
            b->r = 32;
            b->exact = b->input = 0;
            return 0;
        }
        if (br) br->pos = at;
    }
    return eccl_block_read_form(p, form, code, in, r, pr, b, br);
}

/* A version-2 or version-3 tile of full blocks whose inputs are all integers and whose results all stay within
 * QMAX (section 11 case 1 everywhere), combined in place and coded by tile.c's slot encoder: the
 * bytes of hom_tile_v2. Returns -1 for any other tile (hom_tile_v2 takes it). */
static int64_t hom_tile_v2_fast(const hom_ctx_t *h, uint64_t t, unsigned char *codes, unsigned *form,
                                unsigned char *payload)
{
    const eccl_stream_t *a = h->a;
    const eccl_qparams_t *p = &a->qp;
    const int is64 = p->is64;
    uint64_t b0 = t << 8, b1 = b0 + 256 < a->nb ? b0 + 256 : a->nb;
    if (eccl_fmt_block_len(a->n, b1 - 1) != 32) return -1;
    const unsigned char *pa = eccl_stream_tile_payload(a, t);
    const unsigned char *pb = h->b ? eccl_stream_tile_payload(h->b, t) : NULL;
    unsigned fa = eccl_stream_tile_form(a, t), fb = h->b ? eccl_stream_tile_form(h->b, t) : 0;
    eccl_pred_t pra = {0, {0, 0, 0}}, prb = {0, {0, 0, 0}};
    eccl_bitr_t bra, brb, *brap = NULL, *brbp = NULL;
    if (fa >= ECCL_FMT_FORM_S1) eccl_stream_tile_bits(a, t, brap = &bra);
    if (fb >= ECCL_FMT_FORM_S1) eccl_stream_tile_bits(h->b, t, brbp = &brb);
    unsigned char quant[ECCL_FMT_TILE_BLOCKS];
    void *slots = eccl_tile_slots_alloc(is64);
    if (!slots) return -(int64_t)ECCL_ERR_NO_MEMORY;
    int64_t size = -1;
    for (uint64_t k = b0; k < b1; k++) {
        int64_t qb64[32];
        int32_t qb32[32];
        void *qa = eccl_tile_slot(slots, is64, (int)(k - b0)), *qb = is64 ? (void *)qb64 : (void *)qb32;
        if (read_int_v2(p, fa, a->codes[k], pa, &pra, qa, brap)) goto done;
        pa += eccl_stream_block_size(a, k);
        if (h->b) {
            if (read_int_v2(p, fb, h->b->codes[k], pb, &prb, qb, brbp)) goto done;
            pb += eccl_stream_block_size(h->b, k);
        } else if (!eccl_tile_quantize(p, h->x + (k << 5) * (is64 ? 8 : 4), qb)) {
            goto done;
        }
        if (is64 ? !combine_q64(p, h->op, (int64_t *)qa, qb64) : !combine_q32(p, h->op, (int32_t *)qa, qb32))
            goto done;
        quant[k - b0] = 1;
    }
    size = eccl_tile_encode_slots(p, a->vmajor, slots, quant, (int)(b1 - b0), NULL, NULL, codes, form, payload);
done:
    free(slots);
    return size;
}

/* A version-2 or version-3 tile: each output block's representation (section 11), then the tile encoder's
 * choice of form (section 8.1). */
static int64_t hom_tile_v2(const hom_ctx_t *h, uint64_t t, unsigned char *codes, unsigned *form,
                           unsigned char *payload)
{
    const eccl_stream_t *a = h->a;
    const eccl_qparams_t *p = &a->qp;
    int W = p->is64 ? 8 : 4;
    const unsigned char *pa = eccl_stream_tile_payload(a, t);
    const unsigned char *pb = h->b ? eccl_stream_tile_payload(h->b, t) : NULL;
    unsigned fa = eccl_stream_tile_form(a, t), fb = h->b ? eccl_stream_tile_form(h->b, t) : 0;
    uint64_t b0 = t << 8, b1 = b0 + 256 < a->nb ? b0 + 256 : a->nb;
    eccl_pred_t pra = {0, {0, 0, 0}}, prb = {0, {0, 0, 0}};
    eccl_bitr_t bra, brb, *brap = NULL, *brbp = NULL;
    if (fa >= ECCL_FMT_FORM_S1) eccl_stream_tile_bits(a, t, brap = &bra);
    if (fb >= ECCL_FMT_FORM_S1) eccl_stream_tile_bits(h->b, t, brbp = &brb);
    eccl_blockrep_t *ro = (eccl_blockrep_t *)malloc((size_t)(b1 - b0) * sizeof *ro);
    if (!ro) return -(int64_t)ECCL_ERR_NO_MEMORY;
    for (uint64_t k = b0; k < b1; k++) {
        eccl_blockrep_t ra, rb;
        int r = eccl_fmt_block_len(a->n, k);
        if (read_rep_v2(p, h->fast, fa, a->codes[k], pa, r, &pra, &ra, brap)) goto corrupt;
        pa += eccl_stream_block_size(a, k);
        if (h->b) {
            if (read_rep_v2(p, h->fast, fb, h->b->codes[k], pb, r, &prb, &rb, brbp)) goto corrupt;
            pb += eccl_stream_block_size(h->b, k);
        } else {
            eccl_tile_rep_values(p, h->fast, h->x + (k << 5) * W, r, &rb);
        }
        combine(p, h->op, &ra, &rb, &ro[k - b0]);
    }
    int64_t size = eccl_tile_encode_v2(p, h->fast, a->vmajor, ro, (int)(b1 - b0), codes, form, payload);
    free(ro);
    return size;
corrupt:
    free(ro);
    return -(int64_t)ECCL_ERR_CORRUPT;
}

static int64_t hom_tile(void *vctx, uint64_t t, unsigned char *codes, unsigned *form,
                        unsigned char *payload)
{
    const hom_ctx_t *h = (const hom_ctx_t *)vctx;
    if (h->a->vmajor >= 2) {
        int64_t z = h->fast ? hom_tile_v2_fast(h, t, codes, form, payload) : -1;
        return z != -1 ? z : hom_tile_v2(h, t, codes, form, payload);
    }
    *form = ECCL_FMT_FORM_NONE;
    const eccl_stream_t *a = h->a;
    const eccl_qparams_t *p = &a->qp;
    int W = p->is64 ? 8 : 4;
    const unsigned char *pa = eccl_stream_tile_payload(a, t);
    const unsigned char *pb = h->b ? eccl_stream_tile_payload(h->b, t) : NULL;
    uint64_t b0 = t << 8, b1 = b0 + 256 < a->nb ? b0 + 256 : a->nb;
    int64_t off = 0;
    eccl_pred_t pra = {0, {0, 0, 0}}, prb = {0, {0, 0, 0}}, pro = {0, {0, 0, 0}};
    for (uint64_t k = b0; k < b1; k++) {
        eccl_blockrep_t ra, rb, ro;
        unsigned code = a->codes[k];
        int r = eccl_fmt_block_len(a->n, k);
        int64_t fsize;
        unsigned oc;
        if (h->fast && r == 32 && fast_block(h, k, pa, pb, &pra, &prb, &pro, payload + off, &fsize, &oc)) {
            off += fsize;
            codes[k - b0] = (unsigned char)oc;
            pa += eccl_stream_block_size(a, k);
            if (h->b) pb += eccl_stream_block_size(h->b, k);
            continue;
        }
        if (eccl_block_read(p, code, pa, r, &pra, &ra)) return -(int64_t)ECCL_ERR_CORRUPT;
        pa += eccl_stream_block_size(a, k);
        if (h->b) {
            if (eccl_block_read(p, h->b->codes[k], pb, r, &prb, &rb)) return -(int64_t)ECCL_ERR_CORRUPT;
            pb += eccl_stream_block_size(h->b, k);
        } else {
            eccl_block_rep_from_values(p, h->x + (k << 5) * W, r, &rb);
        }
        combine(p, h->op, &ra, &rb, &ro);
        off += eccl_block_encode_rep(p, &ro, &pro, payload + off, &code);
        codes[k - b0] = (unsigned char)code;
    }
    return eccl_tile_pad(payload, off);
}

/* Whether [a, a + an) and [b, b + bn) share a byte, as address ranges. Neither end is computed
 * (a + an may lie beyond the address space when a caller passes a generous size): the distance
 * from the lower start to the higher one is compared with the lower range's length. */
static int overlaps(const void *a, size_t an, const void *b, size_t bn)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (!an || !bn) return 0;
    return x <= y ? y - x < an : x - y < bn;
}

/* Bytes of count elements of dtype, saturated at SIZE_MAX (the overlap test then still sees the
 * whole array; a count that large is rejected later anyway). */
static size_t array_bytes(size_t count, eccl_dtype_t dtype)
{
    size_t es = eccl_dtype_size(dtype);
    return es && count > SIZE_MAX / es ? SIZE_MAX : count * es;
}

static eccl_result_t check_op(eccl_op_t op, eccl_dtype_t dtype)
{
    if (op != ECCL_OP_SUM && op != ECCL_OP_MAX && op != ECCL_OP_MIN) {
        return (op == ECCL_OP_AVG || op == ECCL_OP_PROD) ? ECCL_ERR_UNSUPPORTED
                                                         : ECCL_ERR_INVALID_ARG;
    }
    if (op != ECCL_OP_SUM && eccl_dtype_reals(dtype) == 2) return ECCL_ERR_UNSUPPORTED;
    return ECCL_SUCCESS;
}

static eccl_result_t run(const eccl_stream_t *a, uint32_t nsum, hom_ctx_t *h, void *out,
                         size_t cap, size_t *out_size)
{
    if (!out) { /* a size query */
        *out_size = eccl_compress_bound(a->count, a->dtype);
        return ECCL_ERR_BUFFER_TOO_SMALL;
    }
    eccl_stream_desc_t d;
    d.vmajor = a->vmajor;
    d.dtype = a->dtype;
    d.mode = a->mode;
    d.nsum = nsum;
    d.count = a->count;
    d.bound = a->bound;
    d.eb = a->eb;
    d.range = a->range;
    return eccl_stream_write(&d, hom_tile, h, out, cap, out_size);
}

static int hom_fast(const eccl_stream_t *a, eccl_codec_path_t path)
{
    return a->qp.quant && eccl_codec_use_fast(path);
}

eccl_result_t eccl_hom_reduce(const void *stream, size_t stream_size, const void *local,
                              size_t count, eccl_dtype_t dtype, eccl_op_t op, void *out,
                              size_t out_capacity, size_t *out_size)
{
    return eccl_hom_reduce_path(stream, stream_size, local, count, dtype, op, out, out_capacity,
                                out_size, ECCL_PATH_AUTO);
}

eccl_result_t eccl_hom_combine(const void *sa, size_t a_size, const void *sb, size_t b_size,
                               eccl_op_t op, void *out, size_t out_capacity, size_t *out_size)
{
    return eccl_hom_combine_path(sa, a_size, sb, b_size, op, out, out_capacity, out_size,
                                 ECCL_PATH_AUTO);
}

eccl_result_t eccl_hom_reduce_path(const void *stream, size_t stream_size, const void *local,
                                   size_t count, eccl_dtype_t dtype, eccl_op_t op, void *out,
                                   size_t out_capacity, size_t *out_size, eccl_codec_path_t path)
{
    eccl_stream_t a;
    hom_ctx_t h;
    if (!stream || !out_size || (!local && count > 0) || (!out && out_capacity > 0)) return ECCL_ERR_INVALID_ARG;
    if (overlaps(stream, stream_size, out, out_capacity) ||
        overlaps(local, array_bytes(count, dtype), out, out_capacity))
        return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = eccl_stream_parse(stream, stream_size, &a);
    if (rc) return rc;
    if (a.dtype != dtype || a.count != count) return ECCL_ERR_MISMATCH;
    if ((rc = check_op(op, dtype))) return rc;
    if (a.nsum == UINT32_MAX && op == ECCL_OP_SUM) return ECCL_ERR_UNSUPPORTED;
    h.a = &a;
    h.b = NULL;
    h.x = (const unsigned char *)local;
    h.op = op;
    h.fast = hom_fast(&a, path);
    return run(&a, op == ECCL_OP_SUM ? a.nsum + 1 : a.nsum, &h, out, out_capacity, out_size);
}

eccl_result_t eccl_hom_combine_path(const void *sa, size_t a_size, const void *sb, size_t b_size,
                                    eccl_op_t op, void *out, size_t out_capacity, size_t *out_size,
                                    eccl_codec_path_t path)
{
    eccl_stream_t a, b;
    hom_ctx_t h;
    if (!sa || !sb || !out_size || (!out && out_capacity > 0)) return ECCL_ERR_INVALID_ARG;
    if (overlaps(sa, a_size, out, out_capacity) || overlaps(sb, b_size, out, out_capacity))
        return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = eccl_stream_parse(sa, a_size, &a);
    if (rc) return rc;
    if ((rc = eccl_stream_parse(sb, b_size, &b))) return rc;
    if (a.vmajor != b.vmajor || a.dtype != b.dtype || a.count != b.count || a.mode != b.mode ||
        eccl_f64_as_u64(a.bound) != eccl_f64_as_u64(b.bound) ||
        eccl_f64_as_u64(a.eb) != eccl_f64_as_u64(b.eb) ||
        eccl_f64_as_u64(a.range) != eccl_f64_as_u64(b.range))
        return ECCL_ERR_MISMATCH;
    if ((rc = check_op(op, a.dtype))) return rc;
    uint32_t nsum;
    if (op == ECCL_OP_SUM) {
        if (a.nsum > UINT32_MAX - b.nsum) return ECCL_ERR_UNSUPPORTED;
        nsum = a.nsum + b.nsum;
    } else {
        nsum = a.nsum > b.nsum ? a.nsum : b.nsum;
    }
    h.a = &a;
    h.b = &b;
    h.x = NULL;
    h.op = op;
    h.fast = hom_fast(&a, path);
    return run(&a, nsum, &h, out, out_capacity, out_size);
}
