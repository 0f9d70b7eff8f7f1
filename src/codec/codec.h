/*
 * codec.h - internal interface of the CPU codec (src/codec/).
 *
 * Three levels: blocks (block.c: quantize, encode, decode 32 values), tiles and streams (stream.c:
 * header, index, checksum, the tile drivers with OpenMP), and the operations built on them
 * (api.c: eccl_compress/decompress/info, hom.c: homomorphic SUM/MAX/MIN).
 */
#ifndef ECCL_CODEC_CODEC_H
#define ECCL_CODEC_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec/format.h"
#include "core/internal.h"

/* How values of one stream are quantized: everything a block coder needs. */
typedef struct eccl_qparams {
    int is64;     /* element type is binary64 */
    int lag;      /* prediction distance: 1 real, 2 complex */
    int quant;    /* 1: QUANT blocks allowed (lossy mode and eb >= 2^-1000) */
    double eb;    /* eb_abs */
    double D, R;  /* quantum and its reciprocal (valid when quant) */
    int64_t qmax; /* QMAX of the element type */
    int near;     /* float32 with D * (1/2 + 2^-19) < eb: the integer the fast quantizer rounds x * R to,
                     when within QMAX, is always within eb of x, so it checks float(q * D) alone
                     (block_fast.c quantize32; block.c's exact rule does not use it) */
} eccl_qparams_t;

void eccl_qparams_init(eccl_qparams_t *p, eccl_dtype_t dtype, eccl_mode_t mode, double eb_abs);

/* A block as homomorphic operations see it: integers (QUANT) or exact values (RAW). */
typedef struct eccl_blockrep {
    int r;
    int exact;       /* 0: q[] holds the quantized integers; 1: v[] holds exact encodings */
    int input;       /* with exact = 0: v[] also holds the input's encodings (compression: a block
                        whose QUANT encoding does not fit is stored as those, section 8 step 2) */
    int64_t q[32];
    uint64_t v[32];  /* binary32 encodings in the low 32 bits when !is64 */
} eccl_blockrep_t;

/* Lorenzo prediction runs across the blocks of a tile: a QUANT block predicts its first `lag`
 * values from the last `lag` integers of the previous block when that block is QUANT and in the
 * same tile. Otherwise (first block of a tile, or after a RAW block) it is a head block.
 * q[0] = q[r-lag] and q[1] = q[r-1] of the previous block (first order); q[2] = q[r-2] (second
 * order, version 2; kept by every path). */
typedef struct eccl_pred {
    int have;
    int64_t q[3];
} eccl_pred_t;

static inline void eccl_pred_set(eccl_pred_t *pr, const int64_t *q, int r, int lag)
{
    pr->have = 1;
    pr->q[0] = q[r - lag];
    pr->q[1] = q[r - 1];
    pr->q[2] = q[r >= 2 ? r - 2 : r - 1];
}

/* A tile's sparse stream (doc/format.md sections 6.4 and 7, version 3): bits appended LSB first to
 * little-endian u32 words, and read back with a bound. */
typedef struct eccl_bitw {
    unsigned char *base; /* the stream's first word: zeroed over its final length by the caller */
    uint64_t pos;        /* bits written */
} eccl_bitw_t;
typedef struct eccl_bitr {
    const unsigned char *base;
    uint64_t pos, nbits; /* bits read, bits there are */
} eccl_bitr_t;

/* n words of k bits each (0 <= k <= 32), in order: put appends the low k bits of each v[i]; get
 * reads them into v[] (-1, nothing read, when fewer than n*k bits are left). The writer's words
 * past its position are zero (the caller zeroed the stream), the bits before it are kept. */
static inline void eccl_bitw_putn(eccl_bitw_t *b, const uint32_t *v, int n, int k)
{
    if (k == 0 || n == 0) return;
    const unsigned sh = (unsigned)(b->pos & 31u);
    const uint64_t mask = k == 32 ? 0xFFFFFFFFull : ((uint64_t)1 << k) - 1u;
    unsigned char *p = b->base + 4 * (b->pos >> 5);
    uint64_t acc = sh ? eccl_ld32(p) : 0;
    unsigned nacc = sh;
    /* branch-free (which words fill depends on k, a different one each sparse block: a branch on
     * it mispredicted half the time): the current word is stored every time, and the position
     * moves on by 0 or 1 word */
    for (int i = 0; i < n; i++) {
        acc |= ((uint64_t)v[i] & mask) << nacc; /* (nacc < 32, k <= 32: within 64 bits) */
        nacc += (unsigned)k;
        eccl_st32(p, (uint32_t)acc);
        const unsigned full = nacc >> 5; /* 0 or 1 */
        p += 4 * full;
        acc >>= 32 * full;
        nacc -= 32 * full;
    }
    if (nacc) eccl_st32(p, (uint32_t)acc);
    b->pos += (uint64_t)n * (uint64_t)k;
}
static inline int eccl_bitr_getn(eccl_bitr_t *b, uint32_t *v, int n, int k)
{
    if ((uint64_t)n * (uint64_t)k > b->nbits - b->pos) return -1;
    if (k == 0 || n == 0) {
        for (int i = 0; i < n; i++) v[i] = 0;
        return 0;
    }
    const uint64_t mask = k == 32 ? 0xFFFFFFFFull : ((uint64_t)1 << k) - 1u;
    const uint64_t bits = (uint64_t)n * (uint64_t)k;
    if (b->pos + bits + 64u <= b->nbits) {
        /* away from the end of the bits: each word from one 8-byte load at its own byte (the
         * words are little-endian, so the stream's bits are in byte order too), independent of
         * the others; every load stays within the bits there are */
        uint64_t o = b->pos;
        for (int i = 0; i < n; i++, o += (unsigned)k)
            v[i] = (uint32_t)((eccl_ld64(b->base + (o >> 3)) >> (o & 7u)) & mask);
        b->pos += bits;
        return 0;
    }
    const unsigned char *p = b->base + 4 * (b->pos >> 5);
    unsigned nacc = 32u - (unsigned)(b->pos & 31u);
    uint64_t acc = (uint64_t)eccl_ld32(p) >> (b->pos & 31u);
    p += 4;
    /* branch-free, as the writer: each word is loaded, and kept where its bits are needed (nacc <
     * k); the load never goes past the last word the n * k bits reach (which exists: checked above) */
    const unsigned char *last = b->base + 4 * ((b->pos + bits - 1u) >> 5);
    for (int i = 0; i < n; i++) {
        const uint64_t need = nacc < (unsigned)k; /* 0 or 1 */
        const uint64_t w = eccl_ld32(p <= last ? p : last);
        acc |= (w & (0u - need)) << nacc; /* (nacc < 64: < 32 + 32) */
        p += 4 * need;
        nacc += 32u * (unsigned)need;
        v[i] = (uint32_t)(acc & mask);
        acc >>= k;
        nacc -= (unsigned)k;
    }
    b->pos += bits;
    return 0;
}

/* ---- stream.c: threads ---- */
/* Cap the codec's OpenMP threads for the calling thread (n <= 0: no cap); returns the old cap. */
int eccl_codec_set_threads(int n);
/* Threads the codec's parallel regions use now: omp_get_max_threads() under the cap, 1 inside a
 * parallel region or without OpenMP. */
int eccl_codec_threads(void);

/* ---- block.c ---- */
/* Quantize r values at x (section 8 step 1). Returns 1 if every value is quantizable. */
int eccl_block_quantize(const eccl_qparams_t *p, const void *x, int r, int64_t *q);
/* Encode integers as a QUANT block of a form-0 tile (every tile of version 1) predicted from pred
 * (eccl_pred_t.q of the previous block; NULL: a head block); returns the payload size, or -1 when
 * it would exceed r*W. */
int eccl_block_encode_quant(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            unsigned char *out, unsigned *code);
/* Version 2, the two halves of the tile encoder's work on a QUANT block (doc/format.md 8.1):
 * price_forms gives its encoding's size and code in a form-0 tile (size[0], code[0]) and, with
 * want_l2, in a form-L2 tile (size[1], code[1]); a size is -1 where it exceeds r*W. write_quant
 * writes the payload of the encoding `code` names in a tile of form `form` and returns its size. */
void eccl_block_price_forms(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            int want_l2, int *size, unsigned *code);
int eccl_block_write_quant(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                           unsigned form, unsigned code, unsigned char *out);
/* Version 3 (doc/format.md 8.2): a QUANT block's encoding in each form of `want` (bit a: form a):
 * cost[a] in bits (8 per payload byte, plus a sparse block's stream bits; -1 where it exceeds
 * 8*r*W), bytes[a] of them in the block's payload, and code[a]. Forms not in want: cost -1. */
void eccl_block_price_all(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                          unsigned want, int *cost, int *bytes, unsigned *code);
/* Write a sparse block (code with p = 1 in a tile of form 2 or 3, section 6.4): its head value
 * and nonzero map at out (returns their size), its bits appended to bw. */
int eccl_block_write_sparse(const eccl_qparams_t *p, const int64_t *q, int r, const int64_t *pred,
                            unsigned form, unsigned code, unsigned char *out, eccl_bitw_t *bw);
/* A sparse block is the dense block of the same deltas with each word compacted onto its nonzero
 * map (section 6.4): the dense block's code and tile form (S1: the code with p = 0, Lorenzo, in
 * form 0; S2: the second-order code, p = 1 in a form-L2 tile), so that the dense coders (the AVX2
 * ones) do the work and these two convert. from_dense: the sparse block of the dense payload
 * `dense` (head: it starts with a head value), its bytes at out (returns their size), its bits
 * appended to bw. to_dense: the dense payload of the sparse block at in, its bits read from br; 0,
 * or -1 where the map or the words are not canonical (a map bit with no delta; the caller's
 * reference path decides), with br then at an unspecified position. */
static inline unsigned eccl_sparse_dense_code(unsigned code, unsigned form)
{
    return form == ECCL_FMT_FORM_S1 ? code & ~0x20u : code;
}
static inline unsigned eccl_sparse_dense_form(unsigned form)
{
    return form == ECCL_FMT_FORM_S2 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
}
int eccl_sparse_from_dense(const unsigned char *dense, int head, unsigned code, int is64, unsigned char *out,
                           eccl_bitw_t *bw);
int eccl_sparse_to_dense(const unsigned char *in, int head, unsigned code, int is64, eccl_bitr_t *br,
                         unsigned char *dense);
/* Their bodies, with the word transform as an argument that inlines (block.c: loops over the map;
 * sparse_fast.c: BMI2's pext to compact a word onto the map z, pdep to spread it back). */
typedef uint32_t (*eccl_sparse_word_fn)(uint32_t w, uint32_t z);
static inline __attribute__((always_inline)) int eccl_sparse_from_dense_with(const unsigned char *dense, int head,
                                                                             unsigned code, int is64, unsigned char *out,
                                                                             eccl_bitw_t *bw, eccl_sparse_word_fn compact)
{
    const int H = head ? eccl_fmt_head_bytes(is64) : 0, F = eccl_fmt_quant_planes(code, is64);
    const int sm = eccl_fmt_code_sign(code) == ECCL_FMT_SIGN_MAP;
    memcpy(out, dense, (size_t)H);
    if (F == 0) return H;
    const unsigned char *pl = dense + H + (sm ? 4 : 0);
    uint32_t z = 0, w[1 + ECCL_FMT_FQ64];
    for (int j = 0; j < F; j++) z |= eccl_ld32(pl + 4 * j); /* (the nonzero deltas) */
    int n = 0;
    eccl_st32(out + H, z);
    if (sm) w[n++] = compact(eccl_ld32(dense + H), z);
    for (int j = 0; j < F; j++) w[n++] = compact(eccl_ld32(pl + 4 * j), z);
    eccl_bitw_putn(bw, w, n, eccl_fmt_popc32(z));
    return H + 4;
}
static inline __attribute__((always_inline)) int eccl_sparse_to_dense_with(const unsigned char *in, int head,
                                                                           unsigned code, int is64, eccl_bitr_t *br,
                                                                           unsigned char *dense, eccl_sparse_word_fn expand)
{
    const int H = head ? eccl_fmt_head_bytes(is64) : 0, F = eccl_fmt_quant_planes(code, is64);
    const int sm = eccl_fmt_code_sign(code) == ECCL_FMT_SIGN_MAP;
    memcpy(dense, in, (size_t)H);
    if (F == 0) return 0;
    const uint32_t z = eccl_ld32(in + H);
    const int k = eccl_fmt_popc32(z), n = F + (sm ? 1 : 0);
    uint32_t w[1 + ECCL_FMT_FQ64], all = 0;
    if (z == 0 || eccl_bitr_getn(br, w, n, k)) return -1;
    for (int j = 0; j < n; j++) eccl_st32(dense + H + 4 * j, expand(w[j], z));
    for (int j = sm; j < n; j++) all |= w[j];
    return all == (k == 32 ? 0xFFFFFFFFu : (1u << k) - 1u) ? 0 : -1; /* every mapped delta nonzero */
}
/* Encode exact values (encodings in v[]) as a RAW block; returns the payload size. */
int eccl_block_encode_raw(const eccl_qparams_t *p, const uint64_t *v, int r, unsigned char *out,
                          unsigned *code);
/* Section 8 for r input values at x, in its two steps (src/codec/api.c runs them, with the AVX2
 * twins where they apply). Step 1: the QUANT block when every value quantizes and it fits (the
 * payload size, the tile's predictor state pr updated), else -1 (pr cleared: the block is RAW).
 * Step 2: the RAW block of the r values at x (their exact encodings); returns the payload size. */
int eccl_block_encode_quantized(const eccl_qparams_t *p, const void *x, int r, eccl_pred_t *pr,
                                unsigned char *out, unsigned *code);
int eccl_block_encode_exact(const eccl_qparams_t *p, const void *x, int r, unsigned char *out, unsigned *code);
/* Decode a block of r values into x, updating pr. The payload holds eccl_fmt_block_size(code)
 * bytes (checked by the caller). Returns 0, or -1 when the block is not in canonical form. */
int eccl_block_decode(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                      eccl_pred_t *pr, void *x);
/* Read a block into its integer-or-exact representation (same checks as decode). */
int eccl_block_read(const eccl_qparams_t *p, unsigned code, const unsigned char *payload, int r,
                    eccl_pred_t *pr, eccl_blockrep_t *b);
/* The same two for a block of a tile of form `form` (versions 2 and 3; form 0 is the functions
 * above). br: the tile's sparse stream (eccl_stream_tile_bits), read from where the previous
 * sparse block ended; only a sparse block reads it (NULL in a tile of form 0 or 1). */
int eccl_block_decode_form(const eccl_qparams_t *p, unsigned form, unsigned code,
                           const unsigned char *payload, int r, eccl_pred_t *pr, void *x, eccl_bitr_t *br);
int eccl_block_read_form(const eccl_qparams_t *p, unsigned form, unsigned code,
                         const unsigned char *payload, int r, eccl_pred_t *pr, eccl_blockrep_t *b,
                         eccl_bitr_t *br);
/* Represent r input values: integers if all quantize, else exact encodings. */
void eccl_block_rep_from_values(const eccl_qparams_t *p, const void *x, int r, eccl_blockrep_t *b);
/* The T encoding of element i of a representation. */
uint64_t eccl_block_rep_bits(const eccl_qparams_t *p, const eccl_blockrep_t *b, int i);
/* Encode a representation (QUANT when integers and small enough, else RAW), updating pr. */
int eccl_block_encode_rep(const eccl_qparams_t *p, const eccl_blockrep_t *b, eccl_pred_t *pr,
                          unsigned char *out, unsigned *code);

/* ---- stream.c ---- */
/* A validated stream (pointers into the caller's buffer). */
typedef struct eccl_stream {
    const unsigned char *base;
    uint64_t size;
    eccl_dtype_t dtype;
    eccl_mode_t mode;
    int vmajor, vminor;
    uint32_t nsum;
    uint64_t count, n, nb, nt;
    double bound, eb, range;
    eccl_qparams_t qp;
    const unsigned char *index, *codes, *payload;
} eccl_stream_t;

/* The fields of a stream to be written. */
typedef struct eccl_stream_desc {
    int vmajor; /* 1, 2 or 3 */
    eccl_dtype_t dtype;
    eccl_mode_t mode;
    uint32_t nsum;
    uint64_t count;
    double bound, eb, range;
} eccl_stream_desc_t;

/* Parse and fully validate the header, checksum, block codes and tile index. size is the
 * stream's exact size: a header whose stream_size differs (smaller or larger) is
 * ECCL_ERR_CORRUPT. */
eccl_result_t eccl_stream_parse(const void *buf, size_t size, eccl_stream_t *s);

/* The tile encoder a writer calls for each tile: write the tile's block codes at `codes` and its
 * padded payload at `payload` (room for the worst case), and its form (section 4.1; 0 in a
 * version-1 stream) at *form. Returns the payload size (a multiple of 16) or a negative
 * eccl_result_t. */
typedef int64_t (*eccl_tile_encode_fn)(void *ctx, uint64_t tile, unsigned char *codes,
                                       unsigned *form, unsigned char *payload);
/* A tile encoder's last step: zero bytes after its off payload bytes up to a multiple of 16
 * (section 7); returns the padded size. */
static inline int64_t eccl_tile_pad(unsigned char *payload, int64_t off)
{
    int64_t padded = (int64_t)eccl_fmt_align16((uint64_t)off);
    memset(payload + off, 0, (size_t)(padded - off));
    return padded;
}
/* Write a whole stream of desc's shape, calling enc for every tile (in parallel with OpenMP). */
eccl_result_t eccl_stream_write(const eccl_stream_desc_t *desc, eccl_tile_encode_fn enc, void *ctx,
                                void *out, size_t out_capacity, size_t *out_size);

/* Run fn(ctx, tile) for every tile of a parsed stream (in parallel with OpenMP); returns the
 * first failure. fn returns an eccl_result_t. */
typedef eccl_result_t (*eccl_tile_fn)(void *ctx, const eccl_stream_t *s, uint64_t tile);
eccl_result_t eccl_stream_for_tiles(const eccl_stream_t *s, eccl_tile_fn fn, void *ctx);

/* Payload start of tile t, and of each block within it: the caller walks codes. */
static inline const unsigned char *eccl_stream_tile_payload(const eccl_stream_t *s, uint64_t t)
{
    return s->payload + eccl_fmt_index_offset(eccl_ld64(s->index + 8 * t));
}

/* The form of tile t (section 4.1; always 0 in a version-1 stream, checked by the parser). */
static inline unsigned eccl_stream_tile_form(const eccl_stream_t *s, uint64_t t)
{
    return eccl_fmt_index_form(eccl_ld64(s->index + 8 * t));
}

/* The sparse stream of tile t of a parsed stream (section 7; a tile of form 2 or 3): it starts after
 * the tile's block payloads, rounded up to 4 bytes, and may run to the tile's end (the parser
 * checked that the sparse blocks' bits end in its last word). */
void eccl_stream_tile_bits(const eccl_stream_t *s, uint64_t t, eccl_bitr_t *br);

/* Size of block k of a parsed stream given the previous block's code (head rule). */
static inline int eccl_stream_block_size(const eccl_stream_t *s, uint64_t k)
{
    int head = (k & 255u) == 0 || eccl_fmt_code_is_raw(s->codes[k - 1]);
    return eccl_fmt_block_size_form(s->codes[k], eccl_fmt_block_len(s->n, k), s->qp.is64, head,
                                    eccl_stream_tile_form(s, k >> 8));
}

/* ---- tile.c: the tile encoder of versions 2 and 3 (doc/format.md sections 8.1 and 8.2) ----
 * Encode the nblk blocks of one tile from their representations (integers or exact values, as
 * compression and the homomorphic operations produce them): the form-0 kinds, every form of the
 * version (vmajor 2 or 3) priced, the smallest kept; with `fast`, full blocks go through the AVX2
 * twins where they exist (same bytes). Writes nblk codes, the tile's form and the padded payload;
 * returns the payload size (a multiple of 16), or a negative eccl_result_t. */
int64_t eccl_tile_encode_v2(const eccl_qparams_t *p, int fast, int vmajor, const eccl_blockrep_t *reps,
                            int nblk, unsigned char *codes, unsigned *form, unsigned char *payload);
/* The representation of r input values at x as eccl_block_rep_from_values gives it, through the
 * AVX2 quantizer where it can (fast, a full block, a stream that quantizes), block.c's exact rule
 * where the quantizer hesitates or cannot run. */
void eccl_tile_rep_values(const eccl_qparams_t *p, int fast, const void *x, int r, eccl_blockrep_t *b);
/* A RAW block (section 6.3) of the r encodings v (binary32 ones in the low 32 bits), through the
 * AVX2 coder with `fast` and a full block, else block.c's: the same bytes. Returns its size. */
int eccl_tile_encode_raw(const eccl_qparams_t *p, int fast, const uint64_t *v, int r, unsigned char *out,
                         unsigned *code);

/* The AVX2 form of eccl_tile_encode_v2 (format version vmajor, 2 or 3) for a tile whose nblk
 * blocks are all full (fast paths available), given as integers in place: slot k (eccl_tile_slot)
 * holds block k's 32 integers
 * (int32 for float32, int64 for float64 and complex128) when quant[k], else block k is RAW and
 * raw(ctx, k, v) gives its 32 encodings (binary32 ones in the low 32 bits; raw may be NULL when
 * every quant[k] is 1). This function fills the slots' predecessor entries. The same bytes as
 * eccl_tile_encode_v2 on the same blocks; returns the padded payload size. */
enum { ECCL_TILE_SLOT = 40 }; /* entries a slot: q[-2], q[-1] at 6 and 7, the integers from 8 */
static inline void *eccl_tile_slot(void *slots, int is64, int k)
{
    return (unsigned char *)slots + ((size_t)ECCL_TILE_SLOT * (size_t)k + 8) * (is64 ? 8u : 4u);
}
/* A full block of input values x quantized into a slot's integers q (int32 for float32, int64
 * otherwise): the AVX2 quantizer, block.c's exact rule where it hesitates. 1 when the block
 * quantizes (section 8 step 1), else 0 (a RAW block). Needs the fast paths. */
int eccl_tile_quantize(const eccl_qparams_t *p, const void *x, void *q);
/* The 32 encodings of a full block of input values x as u64 (binary32 ones in the low 32 bits). */
static inline void eccl_block_encodings(int is64, const void *x, uint64_t *v)
{
    const unsigned char *xb = (const unsigned char *)x;
    for (int i = 0; i < 32; i++) {
        uint32_t u32;
        if (is64) memcpy(&v[i], xb + 8 * i, 8);
        else memcpy(&u32, xb + 4 * i, 4), v[i] = u32;
    }
}
/* 32-byte aligned room for the slots of a tile (free() it), or NULL. */
void *eccl_tile_slots_alloc(int is64);
typedef void (*eccl_tile_raw_fn)(void *ctx, int k, uint64_t *v);
int64_t eccl_tile_encode_slots(const eccl_qparams_t *p, int vmajor, void *slots, const unsigned char *quant, int nblk,
                               eccl_tile_raw_fn raw, void *ctx, unsigned char *codes, unsigned *form,
                               unsigned char *payload);

/* Which block implementation compress/decompress use (tests compare them). */
typedef enum { ECCL_PATH_AUTO = 0, ECCL_PATH_REFERENCE = 1, ECCL_PATH_FAST = 2 } eccl_codec_path_t;
/* Whether the AVX2 block paths run for `path`: AUTO uses them when the CPU has AVX2, unless
 * ECCL_CODEC_REFERENCE=1 (api.c). */
int eccl_codec_use_fast(eccl_codec_path_t path);
eccl_result_t eccl_compress_path(const void *data, size_t count, eccl_dtype_t dtype,
                                 const eccl_bound_t *bound, void *out, size_t out_capacity,
                                 size_t *out_size, eccl_codec_path_t path);
/* eccl_compress_path writing a stream of format version vmajor (1, 2 or 3; doc/format.md: version 2
 * adds second-order tiles, version 3 sparse ones; the collectives write the version of their
 * communicator's eccl_config_t.format / ECCL_FORMAT, 1 by default). ECCL_ERR_INVALID_ARG for
 * another vmajor. */
eccl_result_t eccl_compress_fmt(const void *data, size_t count, eccl_dtype_t dtype,
                                const eccl_bound_t *bound, void *out, size_t out_capacity,
                                size_t *out_size, eccl_codec_path_t path, int vmajor);
eccl_result_t eccl_decompress_path(const void *stream, size_t stream_size, void *data,
                                   size_t count, eccl_dtype_t dtype, eccl_codec_path_t path);
eccl_result_t eccl_hom_reduce_path(const void *stream, size_t stream_size, const void *local,
                                   size_t count, eccl_dtype_t dtype, eccl_op_t op, void *out,
                                   size_t out_capacity, size_t *out_size, eccl_codec_path_t path);
eccl_result_t eccl_hom_combine_path(const void *sa, size_t a_size, const void *sb, size_t b_size,
                                    eccl_op_t op, void *out, size_t out_capacity, size_t *out_size,
                                    eccl_codec_path_t path);

/* inout[i] = op(inout[i], in[i]) in the element type, with the exact-path semantics of the
 * homomorphic operations (canonical NaN, max(-0.0, +0.0) = +0.0). */
void eccl_codec_reduce_values(eccl_dtype_t dtype, eccl_op_t op, void *inout, const void *in,
                              size_t count);

/* The absolute bound a stream of `mode` with the user's `bound` and the REL `range` holds
 * (doc/format.md 3.1; stream.c). */
double eccl_codec_eb_in_force(eccl_mode_t mode, double bound, double range);
size_t eccl_dtype_reals(eccl_dtype_t dtype); /* 1 or 2, 0 if unknown */
int eccl_dtype_is64(eccl_dtype_t dtype);

/* eccl_data_range with the number of finite real components seen (*nfinite; nfinite may be NULL):
 * min and max over them, and with none (count 0 included) *min = +INFINITY and *max = -INFINITY,
 * so that a MIN/MAX reduction of several ranks' results ignores the ranks without a finite value
 * (eccl_data_range reports 0, 0 instead). Errors as eccl_data_range: ECCL_ERR_INVALID_ARG (NULL
 * min or max, NULL data with count > 0, unknown dtype; nothing written then). The one
 * implementation: eccl_data_range calls it (api.c). */
eccl_result_t eccl_data_range_n(const void *data, size_t count, eccl_dtype_t dtype, double *min,
                                double *max, size_t *nfinite);

#endif
