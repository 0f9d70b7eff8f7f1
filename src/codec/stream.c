/*
 * stream.c - the stream around the blocks: header, tile index, block codes, checksum
 * (doc/format.md sections 2-5, 7, 9) and the tile drivers that run the block coders, in parallel
 * with OpenMP when it is enabled.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "codec/codec.h"
#include "core/dtype.h"

/* (the facts come from the one traits table, core/dtype.h) */
size_t eccl_dtype_reals(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype);
    return t ? t->reals : 0;
}

int eccl_dtype_is64(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype);
    return t && t->is64;
}

size_t eccl_dtype_size(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype);
    return t ? t->size : 0;
}

const char *eccl_dtype_name(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype);
    return t ? t->name : "unknown";
}

/* Whether a stream may hold count elements of dtype: count * element size (= n * W) < 2^62
 * bytes (doc/format.md section 3). The element size is a power of two, so the division is exact:
 * count * esize < 2^62 exactly when count < 2^62 / esize. The one limit of compress_bound,
 * compress and every stream header (decompress, stream_info, the homomorphic operations). */
static int count_ok(uint64_t count, eccl_dtype_t dtype)
{
    uint64_t esize = eccl_dtype_size(dtype);
    return esize != 0 && count < ((uint64_t)1 << 62) / esize;
}

size_t eccl_compress_bound(size_t count, eccl_dtype_t dtype)
{
    if (!count_ok(count, dtype)) return 0;
    uint64_t n = (uint64_t)count * eccl_dtype_reals(dtype);
    uint64_t nb = eccl_fmt_nblocks(n), nt = eccl_fmt_ntiles(nb);
    uint64_t bound = eccl_fmt_payload_offset(nb) + n * (eccl_dtype_is64(dtype) ? 8u : 4u) + 16u * nt;
    if (bound > (uint64_t)SIZE_MAX) return 0;
    return (size_t)bound;
}

/* eb_abs from the header's mode, bound and range (section 3.1); -1 if they are invalid. */
static double eb_in_force(eccl_mode_t mode, double bound, double range)
{
    switch (mode) {
    case ECCL_MODE_LOSSLESS: return (bound == 0.0 && range == 0.0) ? 0.0 : -1.0;
    case ECCL_MODE_ABS:
        if (!(bound > 0.0) || !isfinite(bound) || range != 0.0) return -1.0;
        return bound < ECCL_FMT_EB_CAP ? bound : ECCL_FMT_EB_CAP;
    case ECCL_MODE_REL: {
        if (!(bound > 0.0) || !isfinite(bound) || !(range >= 0.0)) return -1.0;
        double e = bound * range;
        return e < ECCL_FMT_EB_CAP ? e : ECCL_FMT_EB_CAP;
    }
    default: return -1.0;
    }
}

double eccl_codec_eb_in_force(eccl_mode_t mode, double bound, double range)
{
    return eb_in_force(mode, bound, range);
}

/* ---- threads ----
 * The codec's OpenMP regions use at most eccl_codec_threads() threads: omp_get_max_threads(),
 * capped for the calling thread by eccl_codec_set_threads. The collectives set the cap to their
 * communicator's share of the node's cores, so p ranks per node with the default OpenMP thread
 * count do not oversubscribe the cores (spinning OpenMP workers then delay MPI progress by whole
 * scheduler time slices). Thread-local: no state is shared between threads. */
static _Thread_local int thread_cap; /* 0: no cap */

int eccl_codec_set_threads(int n)
{
    int old = thread_cap;
    thread_cap = n > 0 ? n : 0;
    return old;
}

int eccl_codec_threads(void)
{
#ifdef _OPENMP
    if (omp_in_parallel()) return 1;
    int n = omp_get_max_threads();
    return thread_cap > 0 && thread_cap < n ? thread_cap : n;
#else
    return 1;
#endif
}

/* ---- checksum ---- */
static uint64_t checksum(const unsigned char *buf, uint64_t size)
{
    uint64_t nw = size / 8, sum = 0;
#ifdef _OPENMP
#pragma omp parallel for reduction(+ : sum) schedule(static) if (nw > (1u << 17)) \
    num_threads(eccl_codec_threads())
#endif
    for (uint64_t k = 0; k < nw; k++) {
        uint64_t w = k == 7 ? 0u : eccl_ld64(buf + 8 * k);
        sum += eccl_fmt_chk_word(w, k);
    }
    return sum;
}

/* ---- parsing ---- */
eccl_result_t eccl_stream_parse(const void *buf, size_t size, eccl_stream_t *s)
{
    const unsigned char *b = (const unsigned char *)buf;
    if (!buf || !s) return ECCL_ERR_INVALID_ARG;
    memset(s, 0, sizeof *s);
    if (size < ECCL_FMT_HEADER_SIZE || memcmp(b, "ECCL", 4) != 0) return ECCL_ERR_CORRUPT;
    if (b[ECCL_HDR_VMAJOR] > ECCL_FORMAT_VERSION_READ_MAX) return ECCL_ERR_UNSUPPORTED; /* newer */
    if (b[ECCL_HDR_VMAJOR] < 1) return ECCL_ERR_CORRUPT;
    s->vmajor = b[ECCL_HDR_VMAJOR];
    s->vminor = b[ECCL_HDR_VMINOR];
    s->dtype = (eccl_dtype_t)b[ECCL_HDR_DTYPE];
    s->mode = (eccl_mode_t)b[ECCL_HDR_MODE];
    if (eccl_dtype_reals(s->dtype) == 0 || b[ECCL_HDR_MODE] > 2) return ECCL_ERR_CORRUPT;
    if (b[ECCL_HDR_BLOCKLOG] != ECCL_FMT_BLOCK_LOG2 || b[ECCL_HDR_TILELOG] != ECCL_FMT_TILE_LOG2 ||
        b[ECCL_HDR_FLAGS] != 0 || b[ECCL_HDR_FLAGS + 1] != 0)
        return ECCL_ERR_CORRUPT;
    s->nsum = eccl_ld32(b + ECCL_HDR_NSUM);
    s->count = eccl_ld64(b + ECCL_HDR_COUNT);
    s->bound = eccl_u64_as_f64(eccl_ld64(b + ECCL_HDR_BOUND));
    s->eb = eccl_u64_as_f64(eccl_ld64(b + ECCL_HDR_EB));
    s->range = eccl_u64_as_f64(eccl_ld64(b + ECCL_HDR_RANGE));
    uint64_t ssize = eccl_ld64(b + ECCL_HDR_SIZE);
    if (s->nsum == 0 || !count_ok(s->count, s->dtype)) return ECCL_ERR_CORRUPT;
    double eb = eb_in_force(s->mode, s->bound, s->range);
    if (eb < 0.0 || eccl_f64_as_u64(eb) != eccl_f64_as_u64(s->eb)) return ECCL_ERR_CORRUPT;
    s->n = s->count * eccl_dtype_reals(s->dtype);
    s->nb = eccl_fmt_nblocks(s->n);
    s->nt = eccl_fmt_ntiles(s->nb);
    uint64_t P = eccl_fmt_payload_offset(s->nb);
    /* the caller's size is the stream's (format.md section 3): more bytes are no stream either */
    if (ssize != size || ssize < P || (ssize & 15u)) return ECCL_ERR_CORRUPT;
    if (checksum(b, ssize) != eccl_ld64(b + ECCL_HDR_CHECKSUM)) return ECCL_ERR_CORRUPT;
    s->base = b;
    s->size = ssize;
    s->index = b + ECCL_FMT_HEADER_SIZE;
    s->codes = s->index + 8 * s->nt;
    s->payload = b + P;
    for (const unsigned char *z = s->codes + s->nb; z < s->payload; z++)
        if (*z) return ECCL_ERR_CORRUPT;
    eccl_qparams_init(&s->qp, s->dtype, s->mode, s->eb);

    /* Block codes and tile index: every tile's size follows from its codes, its form (section 4.1:
     * which forms a version allows, for which dtypes) and, in a sparse tile (form 2 or 3, version
     * 3), its sparse blocks' nonzero maps (section 7). */
    uint64_t off = 0, psize = ssize - P;
    int bad = 0;
    for (uint64_t t = 0; t < s->nt && !bad; t++) {
        uint64_t e = eccl_ld64(s->index + 8 * t);
        unsigned form = eccl_fmt_index_form(e);
        if (eccl_fmt_index_offset(e) != off || !eccl_fmt_form_ok(form, s->vmajor, s->qp.quant, s->qp.lag))
            return ECCL_ERR_CORRUPT;
        uint64_t b0 = t << 8, b1 = b0 + 256 < s->nb ? b0 + 256 : s->nb, tsize = 0, L = 0;
        for (uint64_t k = b0; k < b1 && !bad; k++) {
            unsigned m = s->codes[k];
            int bs = eccl_stream_block_size(s, k);
            bad |= bs < 0 || (!s->qp.quant && !eccl_fmt_code_is_raw(m)) || (uint64_t)bs > psize - off - tsize;
            if (!bad && eccl_fmt_code_sparse(m, form) && eccl_fmt_quant_planes(m, s->qp.is64) > 0) {
                /* the map is the block's last 4 bytes (after the head value, if any); bytes and
                 * bits together at most r*W bytes (section 6) */
                uint32_t z = eccl_ld32(s->payload + off + tsize + (uint64_t)bs - 4);
                int bits = eccl_fmt_sparse_bits(m, z, s->qp.is64);
                bad |= 8 * bs + bits > 8 * eccl_fmt_block_len(s->n, k) * (s->qp.is64 ? 8 : 4);
                L += (uint64_t)bits;
            }
            tsize += (uint64_t)(bs < 0 ? 0 : bs);
        }
        uint64_t padded = form >= ECCL_FMT_FORM_S1 ? eccl_fmt_sparse_tile_size(tsize, L) : eccl_fmt_align16(tsize);
        if (bad || padded > psize - off) return ECCL_ERR_CORRUPT;
        uint64_t zero_from = off + tsize; /* padding: zero bytes, and zero bits after the stream */
        if (form >= ECCL_FMT_FORM_S1 && L > 0) {
            uint64_t A = off + ((tsize + 3u) & ~(uint64_t)3u), last = A + 4 * ((L - 1) >> 5);
            for (uint64_t z = zero_from; z < A; z++)
                if (s->payload[z]) return ECCL_ERR_CORRUPT;
            if ((L & 31u) && (eccl_ld32(s->payload + last) >> (L & 31u))) return ECCL_ERR_CORRUPT;
            zero_from = last + 4;
        }
        for (uint64_t z = zero_from; z < off + padded; z++)
            if (s->payload[z]) return ECCL_ERR_CORRUPT;
        off += padded;
    }
    if (off != psize) return ECCL_ERR_CORRUPT;
    return ECCL_SUCCESS;
}

void eccl_stream_tile_bits(const eccl_stream_t *s, uint64_t t, eccl_bitr_t *br)
{
    uint64_t b0 = t << 8, b1 = b0 + 256 < s->nb ? b0 + 256 : s->nb, B = 0;
    uint64_t off = eccl_fmt_index_offset(eccl_ld64(s->index + 8 * t));
    uint64_t end = t + 1 < s->nt ? eccl_fmt_index_offset(eccl_ld64(s->index + 8 * (t + 1)))
                                 : s->size - (uint64_t)(s->payload - s->base);
    for (uint64_t k = b0; k < b1; k++) B += (uint64_t)eccl_stream_block_size(s, k);
    B = (B + 3u) & ~(uint64_t)3u;
    br->base = s->payload + off + B;
    br->pos = 0;
    br->nbits = 8 * (end - off - B);
}

/* ---- writing ---- */
static void write_header(unsigned char *b, const eccl_stream_desc_t *d, uint64_t ssize)
{
    memset(b, 0, ECCL_FMT_HEADER_SIZE);
    memcpy(b, "ECCL", 4);
    b[ECCL_HDR_VMAJOR] = (unsigned char)d->vmajor;
    b[ECCL_HDR_VMINOR] = ECCL_FORMAT_VERSION_MINOR;
    b[ECCL_HDR_DTYPE] = (unsigned char)d->dtype;
    b[ECCL_HDR_MODE] = (unsigned char)d->mode;
    b[ECCL_HDR_BLOCKLOG] = ECCL_FMT_BLOCK_LOG2;
    b[ECCL_HDR_TILELOG] = ECCL_FMT_TILE_LOG2;
    eccl_st32(b + ECCL_HDR_NSUM, d->nsum);
    eccl_st64(b + ECCL_HDR_COUNT, d->count);
    eccl_st64(b + ECCL_HDR_BOUND, eccl_f64_as_u64(d->bound));
    eccl_st64(b + ECCL_HDR_EB, eccl_f64_as_u64(d->eb));
    eccl_st64(b + ECCL_HDR_RANGE, eccl_f64_as_u64(d->range));
    eccl_st64(b + ECCL_HDR_SIZE, ssize);
}

/* Worst-case padded payload of tile t (section 10). */
static uint64_t tile_worst(uint64_t n, uint64_t t, int W)
{
    uint64_t v0 = t * ECCL_FMT_TILE_VALUES;
    uint64_t vals = n - v0 < ECCL_FMT_TILE_VALUES ? n - v0 : ECCL_FMT_TILE_VALUES;
    return eccl_fmt_align16(vals * (uint64_t)W);
}

eccl_result_t eccl_stream_write(const eccl_stream_desc_t *d, eccl_tile_encode_fn enc, void *ctx,
                                void *outv, size_t cap, size_t *out_size)
{
    eccl_result_t rc = ECCL_SUCCESS;
    unsigned char *out = (unsigned char *)outv, *scratch = NULL;
    uint64_t *sizes = NULL;
    uint64_t n = d->count * eccl_dtype_reals(d->dtype);
    uint64_t nb = eccl_fmt_nblocks(n), nt = eccl_fmt_ntiles(nb), P = eccl_fmt_payload_offset(nb);
    int W = eccl_dtype_is64(d->dtype) ? 8 : 4;
    uint64_t off = 0;
    unsigned char *index = out + ECCL_FMT_HEADER_SIZE, *codes = index + 8 * nt;
    *out_size = eccl_compress_bound(d->count, d->dtype);
    if (cap < P) ECCL_FAIL(rc, ECCL_ERR_BUFFER_TOO_SMALL);
    memset(codes + nb, 0, P - (ECCL_FMT_HEADER_SIZE + 8 * nt + nb));

    uint64_t stride = (uint64_t)ECCL_FMT_TILE_VALUES * W + 16;
    int nthreads = 1;
#ifdef _OPENMP
    nthreads = eccl_codec_threads();
#endif
    if (nt > 1 && nthreads > 1 && cap - P >= (nt - 1) * stride + tile_worst(n, nt - 1, W)) {
        /* Parallel: tile t is encoded at P + t*stride, then the tiles are slid down in order. */
        sizes = (uint64_t *)malloc(nt * sizeof *sizes);
        if (!sizes) ECCL_FAIL(rc, ECCL_ERR_NO_MEMORY);
        int64_t err = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4) reduction(min : err) num_threads(nthreads)
#endif
        for (uint64_t t = 0; t < nt; t++) {
            unsigned form = 0;
            int64_t s = enc(ctx, t, codes + (t << 8), &form, out + P + t * stride);
            if (s < 0) err = s < err ? s : err;
            sizes[t] = s < 0 ? 0 : (uint64_t)s;
            eccl_st64(index + 8 * t, form); /* the form until the offsets are known */
        }
        if (err < 0) ECCL_FAIL(rc, (eccl_result_t)(-err));
        for (uint64_t t = 0; t < nt; t++) {
            if (off != t * stride) memmove(out + P + off, out + P + t * stride, sizes[t]);
            eccl_st64(index + 8 * t, eccl_fmt_index_entry(off, (unsigned)eccl_ld64(index + 8 * t)));
            off += sizes[t];
        }
    } else {
        for (uint64_t t = 0; t < nt; t++) {
            uint64_t worst = tile_worst(n, t, W);
            unsigned char *dst = out + P + off;
            int direct = cap - P - off >= worst;
            if (!direct && !scratch) {
                scratch = (unsigned char *)malloc(stride);
                if (!scratch) ECCL_FAIL(rc, ECCL_ERR_NO_MEMORY);
            }
            unsigned form = 0;
            int64_t s = enc(ctx, t, codes + (t << 8), &form, direct ? dst : scratch);
            if (s < 0) ECCL_FAIL(rc, (eccl_result_t)(-s));
            if (!direct) {
                if ((uint64_t)s > cap - P - off) ECCL_FAIL(rc, ECCL_ERR_BUFFER_TOO_SMALL);
                memcpy(dst, scratch, (size_t)s);
            }
            eccl_st64(index + 8 * t, eccl_fmt_index_entry(off, form));
            off += (uint64_t)s;
        }
    }
    write_header(out, d, P + off);
    eccl_st64(out + ECCL_HDR_CHECKSUM, checksum(out, P + off));
    *out_size = (size_t)(P + off);
fn_exit:
    free(scratch);
    free(sizes);
    return rc;
}

eccl_result_t eccl_stream_for_tiles(const eccl_stream_t *s, eccl_tile_fn fn, void *ctx)
{
    int err = 0;
#ifdef _OPENMP
    int nthreads = eccl_codec_threads();
#pragma omp parallel for schedule(dynamic, 4) reduction(max : err) if (s->nt > 1 && nthreads > 1) \
    num_threads(nthreads)
#endif
    for (uint64_t t = 0; t < s->nt; t++) {
        int rc = (int)fn(ctx, s, t);
        if (rc > err) err = rc;
    }
    return (eccl_result_t)err;
}
