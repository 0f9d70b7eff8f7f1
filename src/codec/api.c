/*
 * api.c - the public codec entry points: argument checking, bound resolution, and the tile
 * functions that plain compression and decompression hand to the stream drivers.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "codec/fast.h"
#include "core/env.h"

eccl_result_t eccl_data_range_n(const void *data, size_t count, eccl_dtype_t dtype, double *min,
                                double *max, size_t *nfinite)
{
    if (!min || !max || eccl_dtype_reals(dtype) == 0 || (!data && count > 0))
        return ECCL_ERR_INVALID_ARG;
    size_t n = count * eccl_dtype_reals(dtype);
    int is64 = eccl_dtype_is64(dtype), fast = eccl_fast_available();
    double lo = INFINITY, hi = -INFINITY;
    size_t nfin = 0;
    /* chunks of 2^16 reals, reduced in any order: min, max and the count are exact */
    size_t chunk = (size_t)1 << 16, nchunks = (n + chunk - 1) / chunk;
#ifdef _OPENMP
#pragma omp parallel for reduction(min : lo) reduction(max : hi) reduction(+ : nfin) if (nchunks > 16) \
    num_threads(eccl_codec_threads())
#endif
    for (size_t c = 0; c < nchunks; c++) {
        size_t i0 = c * chunk, len = n - i0 < chunk ? n - i0 : chunk, k = 0;
        double a = INFINITY, b = -INFINITY;
        if (fast) {
            if (is64) eccl_fast_range_f64((const double *)data + i0, len, &a, &b, &k);
            else eccl_fast_range_f32((const float *)data + i0, len, &a, &b, &k);
        } else {
            for (size_t i = i0; i < i0 + len; i++) {
                double v = is64 ? ((const double *)data)[i] : (double)((const float *)data)[i];
                if (isfinite(v)) {
                    a = v < a ? v : a;
                    b = v > b ? v : b;
                    k++;
                }
            }
        }
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
        nfin += k;
    }
    *min = lo; /* +inf and -inf when nothing was finite */
    *max = hi;
    if (nfinite) *nfinite = nfin;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_data_range(const void *data, size_t count, eccl_dtype_t dtype, double *min,
                              double *max)
{
    size_t nfin;
    eccl_result_t rc = eccl_data_range_n(data, count, dtype, min, max, &nfin);
    if (rc == ECCL_SUCCESS && nfin == 0) *min = *max = 0.0; /* eccl.h: no finite value */
    return rc;
}

/* Checks a bound and resolves REL's range; *range_used gets the range the header will hold. */
static eccl_result_t resolve(const eccl_bound_t *bound, const void *data, size_t count,
                             eccl_dtype_t dtype, double *eb, double *range_used)
{
    if (!bound || eccl_dtype_reals(dtype) == 0) return ECCL_ERR_INVALID_ARG;
    double range = 0.0;
    switch (bound->mode) {
    case ECCL_MODE_LOSSLESS: *eb = 0.0; *range_used = 0.0; return ECCL_SUCCESS;
    case ECCL_MODE_ABS: break;
    case ECCL_MODE_REL:
        if (bound->range == ECCL_RANGE_FROM_DATA) {
            double lo, hi;
            eccl_result_t rc = eccl_data_range(data, count, dtype, &lo, &hi);
            if (rc) return rc;
            range = hi - lo;
        } else if (bound->range >= 0.0) {
            range = bound->range;
        } else {
            return ECCL_ERR_INVALID_ARG;
        }
        /* a zero range is +0.0, whatever its sign (a given -0.0, or hi - lo of zeros of both
         * signs): eb_abs is then +0.0 and the header the one of range 0, so equal ranges give
         * equal bytes */
        if (range == 0.0) range = 0.0;
        break;
    default: return ECCL_ERR_INVALID_ARG;
    }
    if (!(bound->value > 0.0) || !isfinite(bound->value)) return ECCL_ERR_INVALID_ARG;
    *range_used = range;
    *eb = eccl_codec_eb_in_force(bound->mode, bound->value, range);
    return *eb < 0.0 ? ECCL_ERR_INVALID_ARG : ECCL_SUCCESS;
}

eccl_result_t eccl_bound_resolve(const eccl_bound_t *bound, const void *data, size_t count,
                                 eccl_dtype_t dtype, double *eb_abs)
{
    double range;
    if (!eb_abs) return ECCL_ERR_INVALID_ARG;
    return resolve(bound, data, count, dtype, eb_abs, &range);
}

/* ---- compression ---- */
/* ECCL_CODEC_REFERENCE=1 forces the reference block path (debugging; outputs are identical). */
ECCL_ENV(env_reference, "ECCL_CODEC_REFERENCE", 0);

int eccl_codec_use_fast(eccl_codec_path_t path)
{
    if (path == ECCL_PATH_REFERENCE) return 0;
    if (path == ECCL_PATH_AUTO && eccl_env_long(&env_reference)) return 0;
    return eccl_fast_available();
}

typedef struct {
    eccl_qparams_t qp;
    const unsigned char *x;
    uint64_t n;
    int fast;
    int vmajor;
} compress_ctx_t;

/* The input encodings of block k of a tile (compression's RAW blocks, section 8 step 2). */
typedef struct {
    const unsigned char *x; /* the tile's first value */
    int is64;
} raw_input_t;

static void raw_input(void *vctx, int k, uint64_t *v)
{
    const raw_input_t *c = (const raw_input_t *)vctx;
    eccl_block_encodings(c->is64, c->x + ((size_t)k << 5) * (c->is64 ? 8 : 4), v);
}

/* A version-2 or version-3 tile whose blocks are all full (every tile but maybe the last), through
 * the AVX2 coder on the integers in place (tile.c eccl_tile_encode_slots): the bytes of the generic
 * path below, without its representation of the tile. A block the AVX2 quantizer hesitates on is
 * quantized by block.c's exact rule; one that does not quantize is RAW. Returns the payload size,
 * or -1 when the generic path must take the tile (a short block). */
static int64_t tile_v2_fast(const compress_ctx_t *c, uint64_t b0, int nblk, unsigned char *codes, unsigned *form,
                            unsigned char *payload)
{
    const eccl_qparams_t *p = &c->qp;
    const int is64 = p->is64;
    const size_t W = is64 ? 8 : 4;
    if (eccl_fmt_block_len(c->n, b0 + (uint64_t)nblk - 1) != 32) return -1;
    void *slots = eccl_tile_slots_alloc(is64);
    unsigned char quant[ECCL_FMT_TILE_BLOCKS]; /* the block's form-0 kind is QUANT */
    if (!slots) return -(int64_t)ECCL_ERR_NO_MEMORY;
    for (int k = 0; k < nblk; k++)
        quant[k] = (unsigned char)eccl_tile_quantize(p, c->x + ((b0 + (uint64_t)k) << 5) * W, eccl_tile_slot(slots, is64, k));
    raw_input_t rc = {c->x + (b0 << 5) * W, is64};
    int64_t size = eccl_tile_encode_slots(p, c->vmajor, slots, quant, nblk, raw_input, &rc, codes, form, payload);
    free(slots);
    return size;
}

/* A version-2 or version-3 tile: every block's representation, then the tile encoder's choice of
 * form. */
static int64_t compress_tile_v2(void *vctx, uint64_t t, unsigned char *codes, unsigned *form,
                                unsigned char *payload)
{
    const compress_ctx_t *c = (const compress_ctx_t *)vctx;
    int W = c->qp.is64 ? 8 : 4;
    uint64_t nb = eccl_fmt_nblocks(c->n), b0 = t << 8, b1 = b0 + 256 < nb ? b0 + 256 : nb;
    if (c->fast && c->qp.quant) {
        int64_t z = tile_v2_fast(c, b0, (int)(b1 - b0), codes, form, payload);
        if (z != -1) return z;
    }
    eccl_blockrep_t *reps = (eccl_blockrep_t *)malloc((size_t)(b1 - b0) * sizeof *reps);
    if (!reps) return -(int64_t)ECCL_ERR_NO_MEMORY;
    for (uint64_t b = b0; b < b1; b++)
        eccl_tile_rep_values(&c->qp, c->fast, c->x + (b << 5) * W, eccl_fmt_block_len(c->n, b), &reps[b - b0]);
    int64_t size = eccl_tile_encode_v2(&c->qp, c->fast, c->vmajor, reps, (int)(b1 - b0), codes, form, payload);
    free(reps);
    return size;
}

static int64_t compress_tile(void *vctx, uint64_t t, unsigned char *codes, unsigned *form,
                             unsigned char *payload)
{
    const compress_ctx_t *c = (const compress_ctx_t *)vctx;
    *form = ECCL_FMT_FORM_NONE;
    int W = c->qp.is64 ? 8 : 4;
    uint64_t nb = eccl_fmt_nblocks(c->n), b0 = t << 8, b1 = b0 + 256 < nb ? b0 + 256 : nb;
    int64_t off = 0;
    eccl_pred_t pr = {0, {0, 0, 0}};
    for (uint64_t b = b0; b < b1; b++) {
        unsigned code;
        int r = eccl_fmt_block_len(c->n, b), size = ECCL_FAST_DECLINE;
        const unsigned char *xb = c->x + (b << 5) * W;
        if (c->fast && c->qp.quant && r == 32) {
            size = c->qp.is64 ? eccl_fast_encode_f64(&c->qp, (const double *)xb, &pr, payload + off, &code)
                              : eccl_fast_encode_f32(&c->qp, (const float *)xb, &pr, payload + off, &code);
        }
        if (size == ECCL_FAST_RAW) pr.have = 0; /* (no value-by-value quantization to redo) */
        else if (size < 0) size = eccl_block_encode_quantized(&c->qp, xb, r, &pr, payload + off, &code);
        if (size < 0) {
            /* a RAW block */
            if (c->fast && r == 32)
                size = c->qp.is64 ? eccl_fast_encode_raw64((const uint64_t *)(const void *)xb, c->qp.lag, payload + off, &code)
                                  : eccl_fast_encode_raw32((const uint32_t *)(const void *)xb, c->qp.lag, payload + off, &code);
            if (size < 0) size = eccl_block_encode_exact(&c->qp, xb, r, payload + off, &code);
        }
        off += size;
        codes[b - b0] = (unsigned char)code;
    }
    return eccl_tile_pad(payload, off);
}

eccl_result_t eccl_compress(const void *data, size_t count, eccl_dtype_t dtype,
                            const eccl_bound_t *bound, void *out, size_t out_capacity,
                            size_t *out_size)
{
    return eccl_compress_path(data, count, dtype, bound, out, out_capacity, out_size,
                              ECCL_PATH_AUTO);
}

eccl_result_t eccl_compress_path(const void *data, size_t count, eccl_dtype_t dtype,
                                 const eccl_bound_t *bound, void *out, size_t out_capacity,
                                 size_t *out_size, eccl_codec_path_t path)
{
    return eccl_compress_fmt(data, count, dtype, bound, out, out_capacity, out_size, path,
                             ECCL_FORMAT_VERSION_MAJOR);
}

eccl_result_t eccl_compress_fmt(const void *data, size_t count, eccl_dtype_t dtype,
                                const eccl_bound_t *bound, void *out, size_t out_capacity,
                                size_t *out_size, eccl_codec_path_t path, int vmajor)
{
    eccl_stream_desc_t d;
    compress_ctx_t c;
    if (!out_size || (!data && count > 0) || !bound || (!out && out_capacity > 0)) return ECCL_ERR_INVALID_ARG;
    if (vmajor < 1 || vmajor > 3) return ECCL_ERR_INVALID_ARG;
    if (eccl_compress_bound(count, dtype) == 0) return ECCL_ERR_INVALID_ARG;
    if (!out) { /* a size query */
        *out_size = eccl_compress_bound(count, dtype);
        return ECCL_ERR_BUFFER_TOO_SMALL;
    }
    eccl_result_t rc = resolve(bound, data, count, dtype, &d.eb, &d.range);
    if (rc) return rc;
    d.vmajor = vmajor;
    d.dtype = dtype;
    d.mode = bound->mode;
    d.bound = bound->mode == ECCL_MODE_LOSSLESS ? 0.0 : bound->value;
    d.nsum = 1;
    d.count = count;
    eccl_qparams_init(&c.qp, dtype, d.mode, d.eb);
    c.x = (const unsigned char *)data;
    c.n = (uint64_t)count * eccl_dtype_reals(dtype);
    c.fast = eccl_codec_use_fast(path);
    c.vmajor = vmajor;
    return eccl_stream_write(&d, vmajor >= 2 ? compress_tile_v2 : compress_tile, &c, out,
                             out_capacity, out_size);
}

/* ---- decompression ---- */
typedef struct {
    unsigned char *x;
    int fast;
} decompress_ctx_t;

static eccl_result_t decompress_tile(void *vctx, const eccl_stream_t *s, uint64_t t)
{
    const decompress_ctx_t *c = (const decompress_ctx_t *)vctx;
    unsigned char *x = c->x;
    int W = s->qp.is64 ? 8 : 4;
    const unsigned char *pl = eccl_stream_tile_payload(s, t);
    uint64_t b0 = t << 8, b1 = b0 + 256 < s->nb ? b0 + 256 : s->nb;
    eccl_pred_t pr = {0, {0, 0, 0}};
    unsigned form = eccl_stream_tile_form(s, t);
    eccl_bitr_t br, *brp = NULL;
    if (form >= ECCL_FMT_FORM_S1) eccl_stream_tile_bits(s, t, brp = &br);
    for (uint64_t b = b0; b < b1; b++) {
        unsigned code = s->codes[b];
        int r = eccl_fmt_block_len(s->n, b), rc = ECCL_FAST_DECLINE, fast = c->fast && r == 32;
        unsigned char *xb = x + (b << 5) * W;
        /* what the AVX2 decoders read: the block, or a sparse block's dense block (version 3) */
        unsigned fcode = code, fform = form;
        const unsigned char *fpl = pl;
        unsigned char dense[6 + 4 + 4 * ECCL_FMT_FQ64];
        uint64_t at = brp ? br.pos : 0;
        if (fast && eccl_fmt_code_sparse(code, form)) {
            fast = eccl_fast_sparse_to_dense(pl, !pr.have, code, s->qp.is64, &br, dense) == 0;
            fcode = eccl_sparse_dense_code(code, form);
            fform = eccl_sparse_dense_form(form);
            fpl = dense;
        }
        if (fast && fform == ECCL_FMT_FORM_L2 && s->qp.quant && !eccl_fmt_code_is_raw(fcode) &&
            eccl_fmt_code_pred(fcode) == ECCL_FMT_PRED_NONE) { /* a second-order block */
            rc = s->qp.is64 ? eccl_fast_decode_l2_f64(&s->qp, fcode, fpl, &pr, (double *)(void *)xb)
                            : eccl_fast_decode_l2_f32(&s->qp, fcode, fpl, &pr, (float *)(void *)xb);
        } else if (fast && (s->qp.quant || eccl_fmt_code_is_raw(fcode))) {
            /* (a QUANT code in a LOSSLESS stream is for the reference path to reject) */
            eccl_pred_t keep = pr;
            rc = s->qp.is64 ? eccl_fast_decode_f64(&s->qp, fcode, fpl, &pr, (double *)(void *)xb)
                            : eccl_fast_decode_f32(&s->qp, fcode, fpl, &pr, (float *)(void *)xb);
            if (rc) pr = keep; /* declined or rejected: the reference path decides */
        }
        if (rc && brp) br.pos = at; /* (the reference reads a sparse block from its start) */
        if (rc && eccl_block_decode_form(&s->qp, form, code, pl, r, &pr, xb, brp)) return ECCL_ERR_CORRUPT;
        pl += eccl_stream_block_size(s, b);
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_decompress(const void *stream, size_t stream_size, void *data, size_t count,
                              eccl_dtype_t dtype)
{
    return eccl_decompress_path(stream, stream_size, data, count, dtype, ECCL_PATH_AUTO);
}

eccl_result_t eccl_decompress_path(const void *stream, size_t stream_size, void *data, size_t count,
                                   eccl_dtype_t dtype, eccl_codec_path_t path)
{
    eccl_stream_t s;
    if (!stream || (!data && count > 0)) return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = eccl_stream_parse(stream, stream_size, &s);
    if (rc) return rc;
    if (s.dtype != dtype || s.count != count) return ECCL_ERR_MISMATCH;
    decompress_ctx_t c = {(unsigned char *)data, eccl_codec_use_fast(path)};
    return eccl_stream_for_tiles(&s, decompress_tile, &c);
}

eccl_result_t eccl_stream_info(const void *stream, size_t stream_size, eccl_stream_info_t *info)
{
    eccl_stream_t s;
    if (!stream || !info) return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = eccl_stream_parse(stream, stream_size, &s);
    if (rc) return rc;
    memset(info, 0, sizeof *info);
    info->version_major = s.vmajor;
    info->version_minor = s.vminor;
    info->dtype = s.dtype;
    info->mode = s.mode;
    info->count = s.count;
    info->bound = s.bound;
    info->eb_abs = s.eb;
    info->range = s.range;
    info->nsum = s.nsum;
    info->stream_size = s.size;
    info->nblocks = s.nb;
    for (uint64_t b = 0; b < s.nb; b++) {
        unsigned m = s.codes[b];
        /* predictor none, no planes: r zeros (in a form-L2 tile the code is second order instead) */
        info->nblocks_zero += m == 0x20u && eccl_stream_tile_form(&s, b >> 8) == ECCL_FMT_FORM_NONE;
        info->nblocks_raw += eccl_fmt_code_is_raw(m);
    }
    info->nblocks_quant = s.nb - info->nblocks_raw;
    return ECCL_SUCCESS;
}
