/*
 * format.h - constants and pure helpers of the compressed stream (doc/format.md).
 *
 * Included by the CPU codec (C11) and by the CUDA codec (the .cu files in cuda/), so that the rules that make
 * the two byte-identical are written once. Only static inline functions of plain integers and
 * doubles live here; nothing allocates or touches memory beyond its arguments.
 */
#ifndef ECCL_CODEC_FORMAT_H
#define ECCL_CODEC_FORMAT_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define ECCL_HD __host__ __device__ __forceinline__
#else
#define ECCL_HD static inline
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "eccl's codec assumes a little-endian host (the stream is little-endian)"
#endif

enum {
    ECCL_FMT_HEADER_SIZE = 64,
    ECCL_FMT_BLOCK_LOG2 = 5,
    ECCL_FMT_BLOCK = 32,             /* reals per block */
    ECCL_FMT_TILE_LOG2 = 8,
    ECCL_FMT_TILE_BLOCKS = 256,      /* blocks per tile */
    ECCL_FMT_TILE_VALUES = 256 * 32, /* reals per tile */
    ECCL_FMT_FQ32 = 31,              /* planes of a QUANT block with f = 31 */
    ECCL_FMT_FQ64 = 45,
    ECCL_FMT_F_ESCAPE = 31           /* plane code meaning F = FQ */
};

#define ECCL_FMT_QMAX32 ((int64_t)((1 << 30) - 1))
#define ECCL_FMT_QMAX64 ((int64_t)(((int64_t)1 << 44) - 1))
#define ECCL_FMT_CLAMP 0x1p50            /* clamp for t before rint */
#define ECCL_FMT_EB_MIN 0x1p-1000         /* smallest eb_abs that quantizes */
#define ECCL_FMT_EB_CAP 0x1p1020          /* largest eb_abs in force */
#define ECCL_FMT_CHK_GOLDEN 0x9E3779B97F4A7C15ull

/* Header byte offsets */
enum {
    ECCL_HDR_MAGIC = 0, ECCL_HDR_VMAJOR = 4, ECCL_HDR_VMINOR = 5, ECCL_HDR_DTYPE = 6,
    ECCL_HDR_MODE = 7, ECCL_HDR_BLOCKLOG = 8, ECCL_HDR_TILELOG = 9, ECCL_HDR_FLAGS = 10,
    ECCL_HDR_NSUM = 12, ECCL_HDR_COUNT = 16, ECCL_HDR_BOUND = 24, ECCL_HDR_EB = 32,
    ECCL_HDR_RANGE = 40, ECCL_HDR_SIZE = 48, ECCL_HDR_CHECKSUM = 56
};

/* ---- little-endian loads and stores (the host is little-endian, checked above) ---- */
ECCL_HD uint32_t eccl_ld32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
ECCL_HD uint64_t eccl_ld64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
ECCL_HD void eccl_st32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
ECCL_HD void eccl_st64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
ECCL_HD double eccl_u64_as_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
ECCL_HD uint64_t eccl_f64_as_u64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- layout (section 2) ---- */
ECCL_HD uint64_t eccl_fmt_align16(uint64_t x) { return (x + 15u) & ~(uint64_t)15u; }
ECCL_HD uint64_t eccl_fmt_nblocks(uint64_t n) { return (n + 31u) >> 5; }
ECCL_HD uint64_t eccl_fmt_ntiles(uint64_t nb) { return (nb + 255u) >> 8; }
/* offset of the payload, P */
ECCL_HD uint64_t eccl_fmt_payload_offset(uint64_t nb)
{
    return eccl_fmt_align16((uint64_t)ECCL_FMT_HEADER_SIZE + 8u * eccl_fmt_ntiles(nb) + nb);
}
/* reals in block b of a stream of n reals */
ECCL_HD int eccl_fmt_block_len(uint64_t n, uint64_t b)
{
    uint64_t start = b << 5;
    return (n - start >= 32u) ? 32 : (int)(n - start);
}

/* ---- the quantum (section 3.2) ---- */
ECCL_HD int eccl_fmt_can_quantize(double eb_abs) { return eb_abs >= ECCL_FMT_EB_MIN; }
ECCL_HD double eccl_fmt_quantum(double eb_abs)
{
    uint64_t u = eccl_f64_as_u64(2.0 * eb_abs);
    return eccl_u64_as_f64(u & ~(((uint64_t)1 << 44) - 1u));
}

/* ---- block codes (section 5) ----
 * m = (s << 6) | (p << 5) | fc.  s < 3: QUANT with sign mode s (0 map, 1 all >= 0, 2 all <= 0),
 * predictor p (0 Lorenzo, 1 none), plane code fc.  s == 3: RAW, f = m & 63 (63: VERBATIM). */
enum { ECCL_FMT_SIGN_MAP = 0, ECCL_FMT_SIGN_POS = 1, ECCL_FMT_SIGN_NEG = 2, ECCL_FMT_KIND_RAW = 3 };
enum { ECCL_FMT_PRED_LORENZO = 0, ECCL_FMT_PRED_NONE = 1 };
ECCL_HD unsigned eccl_fmt_quant_code(unsigned s, unsigned p, unsigned fc) { return (s << 6) | (p << 5) | fc; }
ECCL_HD unsigned eccl_fmt_raw_code(unsigned f) { return 0xC0u | f; }
ECCL_HD int eccl_fmt_code_is_raw(unsigned m) { return (m >> 6) == 3u; }
ECCL_HD int eccl_fmt_code_is_verbatim(unsigned m) { return m == 0xFFu; }
ECCL_HD unsigned eccl_fmt_code_sign(unsigned m) { return m >> 6; }
ECCL_HD unsigned eccl_fmt_code_pred(unsigned m) { return (m >> 5) & 1u; }
/* Bytes of a head block's first value */
ECCL_HD int eccl_fmt_head_bytes(int is64) { return is64 ? 6 : 4; }

/* ---- tile forms (section 4.1, versions 2 and 3): what a QUANT code's predictor bit p = 1 selects:
 * none, second order, or (version 3) a sparse block of first- or second-order deltas (6.4) ---- */
enum { ECCL_FMT_FORM_NONE = 0, ECCL_FMT_FORM_L2 = 1, ECCL_FMT_FORM_S1 = 2, ECCL_FMT_FORM_S2 = 3 };
/* The code m is a sparse block in a tile of form `form` (section 6.4). */
ECCL_HD int eccl_fmt_code_sparse(unsigned m, unsigned form)
{
    return form >= ECCL_FMT_FORM_S1 && (m >> 6) != 3u && ((m >> 5) & 1u);
}
/* The predictor bit p = 1 selects second-order deltas in a tile of form `form` (forms L2 and S2). */
ECCL_HD int eccl_fmt_form_second(unsigned form) { return form == ECCL_FMT_FORM_L2 || form == ECCL_FMT_FORM_S2; }
/* The largest tile form a stream may hold (section 4.1): by version, dtype (lag 2: complex) and
 * whether it quantizes. */
ECCL_HD unsigned eccl_fmt_max_form(int vmajor, int quant, int lag)
{
    if (vmajor < 2 || !quant) return ECCL_FMT_FORM_NONE;
    if (vmajor == 2) return lag == 1 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
    return lag == 1 ? ECCL_FMT_FORM_S2 : ECCL_FMT_FORM_S1;
}
/* Form `form` is allowed in such a stream (form 1 and 3 for real dtypes only). */
ECCL_HD int eccl_fmt_form_ok(unsigned form, int vmajor, int quant, int lag)
{
    return form <= eccl_fmt_max_form(vmajor, quant, lag) && (lag == 1 || !eccl_fmt_form_second(form));
}
#define ECCL_FMT_INDEX_OFFSET_MASK ((((uint64_t)1) << 62) - 1u)
ECCL_HD uint64_t eccl_fmt_index_offset(uint64_t entry) { return entry & ECCL_FMT_INDEX_OFFSET_MASK; }
ECCL_HD unsigned eccl_fmt_index_form(uint64_t entry) { return (unsigned)(entry >> 62); }
ECCL_HD uint64_t eccl_fmt_index_entry(uint64_t offset, unsigned form) { return offset | ((uint64_t)form << 62); }

/* Number of planes F of a QUANT block code (is64: T = f64). */
ECCL_HD int eccl_fmt_quant_planes(unsigned m, int is64)
{
    unsigned fc = m & 31u;
    return fc < 31u ? (int)fc : (is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32);
}

/* Payload size of a block with code m holding r reals in a tile of form `form` (section 6);
 * `head` says whether the block is the first of its tile or follows a RAW block (a Lorenzo QUANT
 * block then carries its first value, and so does a block with p = 1 in a tile of form 1, 2 or 3).
 * A sparse block (p = 1 in a form-2 or form-3 tile, section 6.4): its bytes only, the head value
 * and the nonzero map (its bits are in the tile's sparse stream). Returns -1 if the code is
 * invalid for the dtype (the structural part of validation; the canonical-form checks need the
 * payload). */
ECCL_HD int eccl_fmt_block_size_form(unsigned m, int r, int is64, int head, unsigned form)
{
    int W = is64 ? 8 : 4;
    unsigned s = m >> 6;
    if (s == 3u) {
        unsigned f = m & 63u;
        if (f == 63u) return r * W;
        if ((int)f > (is64 ? 62 : 32)) return -1;
        {
            int size = W + (f > 0 ? 4 + 4 * (int)f : 0);
            return size < r * W ? size : -1;
        }
    }
    {
        int F = eccl_fmt_quant_planes(m, is64);
        int size;
        if (F == 0 && s != 0u) return -1;
        size = (head && (eccl_fmt_code_pred(m) == ECCL_FMT_PRED_LORENZO || form != ECCL_FMT_FORM_NONE))
                   ? eccl_fmt_head_bytes(is64) : 0;
        if (eccl_fmt_code_sparse(m, form)) size += F > 0 ? 4 : 0;
        else size += F > 0 ? (s == 0u ? 4 : 0) + 4 * F : 0;
        return size <= r * W ? size : -1;
    }
}
/* The same in a form-0 tile (every tile of a version-1 stream). */
ECCL_HD int eccl_fmt_block_size(unsigned m, int r, int is64, int head)
{
    return eccl_fmt_block_size_form(m, r, is64, head, ECCL_FMT_FORM_NONE);
}

ECCL_HD int eccl_fmt_popc32(uint32_t z)
{
#if defined(__CUDA_ARCH__)
    return __popc(z);
#else
    return __builtin_popcount(z);
#endif
}

/* Bits a sparse block with code m and nonzero map z holds in its tile's sparse stream (6.4). */
ECCL_HD int eccl_fmt_sparse_bits(unsigned m, uint32_t z, int is64)
{
    int F = eccl_fmt_quant_planes(m, is64), k = eccl_fmt_popc32(z);
    return F > 0 ? ((m >> 6) == 0u ? k : 0) + F * k : 0;
}
/* The padded size of a tile of form 2 or 3 (section 7): B bytes of block payloads, L stream bits. */
ECCL_HD uint64_t eccl_fmt_sparse_tile_size(uint64_t B, uint64_t L)
{
    return eccl_fmt_align16(((B + 3u) & ~(uint64_t)3u) + 4u * ((L + 31u) >> 5));
}

/* ---- integers ---- */
ECCL_HD uint64_t eccl_fmt_zigzag(int64_t v) { return v >= 0 ? (uint64_t)v * 2u : (uint64_t)(-(v + 1)) * 2u + 1u; }
ECCL_HD int64_t eccl_fmt_unzigzag(uint64_t z) { return (z & 1u) ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1); }
ECCL_HD int eccl_fmt_bitlen64(uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return 64 - __clzll((long long)v);
#else
    return v ? 64 - __builtin_clzll(v) : 0;
#endif
}

/* ---- quantization (section 8 step 1), shared by every implementation ---- */

/* |x - y| <= eb, decided exactly. fl(x - y) is exact except when the operands are far apart;
 * only when the rounded difference equals eb can rounding change the answer, and then the exact
 * error term of the subtraction (Knuth's TwoSum) decides. Needs IEEE binary64 without FMA
 * contraction (-ffp-contract=off, nvcc -fmad=false). */
ECCL_HD int eccl_fmt_within(double x, double y, double eb)
{
    double d = x - y;
    double s = d < 0 ? -d : d;
    if (s < eb) return 1;
    if (!(s == eb)) return 0;
    double ny = -y;
    double bv = d - x;
    double err = (x - (d - bv)) + (ny - bv);
    return d > 0 ? err <= 0.0 : err >= 0.0;
}

ECCL_HD double eccl_fmt_rint(double t)
{
#ifdef __CUDA_ARCH__
    return rint(t);
#else
    return __builtin_rint(t);
#endif
}

/* Quantize one value x (converted exactly to binary64): 1 if quantizable, the integer in *q
 * (always within +-2^50, so any cast of it is defined). */
ECCL_HD int eccl_fmt_quantize(double x, double R, double D, double eb, int64_t qmax, int is64,
                              int64_t *q)
{
    double t = x * R;
    if (!(t <= ECCL_FMT_CLAMP)) t = (t > ECCL_FMT_CLAMP) ? ECCL_FMT_CLAMP : -ECCL_FMT_CLAMP;
    if (t < -ECCL_FMT_CLAMP) t = -ECCL_FMT_CLAMP;
    double qd = eccl_fmt_rint(t);
    double aq = qd < 0 ? -qd : qd;
    int ok = aq <= (double)qmax;
    double rec = qd * D;
    ok &= eccl_fmt_within(x, rec, eb);
    if (!is64) ok &= eccl_fmt_within(x, (double)(float)rec, eb);
    *q = (int64_t)qd;
    return ok;
}

/* The encoding of one predictor's deltas: sign mode, planes and payload size (section 8). */
typedef struct {
    int F, fc, s, size;
} eccl_fmt_choice_t;

ECCL_HD eccl_fmt_choice_t eccl_fmt_choose(uint64_t all, uint32_t neg, uint32_t pos, int is64, int extra)
{
    eccl_fmt_choice_t c;
    int fb = eccl_fmt_bitlen64(all);
    c.fc = fb <= 30 ? fb : ECCL_FMT_F_ESCAPE;
    c.F = fb <= 30 ? fb : (is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32);
    if (c.F == 0) c.s = ECCL_FMT_SIGN_MAP;
    else if (!neg) c.s = ECCL_FMT_SIGN_POS;
    else if (!pos) c.s = ECCL_FMT_SIGN_NEG;
    else c.s = ECCL_FMT_SIGN_MAP;
    c.size = extra + (c.F > 0 ? (c.s == ECCL_FMT_SIGN_MAP ? 4 : 0) + 4 * c.F : 0);
    return c;
}

/* What version 3's pricing (section 8.2) needs of one predictor's deltas: the OR of their
 * magnitudes, which are negative / positive (bit i: delta i). */
typedef struct {
    uint64_t all;
    uint32_t neg, pos;
} eccl_fmt_dstat_t;

/* Version 3 (section 8.2): a QUANT block's encoding in each form of `want` (bit a: form a) from its
 * Lorenzo (L), predictor-none (N, read with form 0) and second-order (S2, read with forms 1 and 3)
 * deltas; s2_ok: S2's deltas are exact (a caller that computes them narrowly says when they are
 * not: they are then not usable). cost[a] in bits (8 per payload byte plus a sparse block's stream
 * bits; -1 where it exceeds 8*r*W), bytes[a] of them in the block's payload, code[a]. head: the
 * block carries its first value (a Lorenzo head block). Forms not in want: cost -1. */
ECCL_HD void eccl_fmt_price_v3(int is64, int r, int head, unsigned want, eccl_fmt_dstat_t L, eccl_fmt_dstat_t N,
                               eccl_fmt_dstat_t S2, int s2_ok, int *cost, int *bytes, unsigned *code)
{
    const int H = head ? eccl_fmt_head_bytes(is64) : 0, rw8 = 8 * r * (is64 ? 8 : 4);
    const int fq = is64 ? ECCL_FMT_FQ64 : ECCL_FMT_FQ32;
    const eccl_fmt_choice_t cl = eccl_fmt_choose(L.all, L.neg, L.pos, is64, H);
    for (int a = 0; a < 4; a++) {
        cost[a] = bytes[a] = -1;
        code[a] = 0;
        if (!((want >> a) & 1u)) continue;
        const eccl_fmt_dstat_t *d = a == 0 ? &N : a == 2 ? &L : &S2;
        const int usable = a == 0 || a == 2 || (s2_ok && eccl_fmt_bitlen64(S2.all) <= fq);
        eccl_fmt_choice_t c = eccl_fmt_choose(d->all, d->neg, d->pos, is64, a == 0 ? 0 : H);
        const unsigned acode = eccl_fmt_quant_code((unsigned)c.s, 1u, (unsigned)c.fc);
        int ab = c.size, abits = 0;
        if (a >= 2) { /* sparse (6.4): head value and map in bytes, signs and planes of the nonzero in bits */
            ab = H + (c.F > 0 ? 4 : 0);
            abits = eccl_fmt_sparse_bits(acode, d->neg | d->pos, is64);
        }
        const int alt = usable && 8 * ab + abits < 8 * cl.size; /* only when strictly cheaper */
        const int cst = alt ? 8 * ab + abits : 8 * cl.size;
        cost[a] = cst <= rw8 ? cst : -1;
        bytes[a] = alt ? ab : cl.size;
        code[a] = alt ? acode : eccl_fmt_quant_code((unsigned)cl.s, 0u, (unsigned)cl.fc);
    }
}

/* ---- checksum (section 9) ---- */
ECCL_HD uint64_t eccl_fmt_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* The hash of little-endian u64 word k of the stream (word 7, the checksum field, reads as 0). */
ECCL_HD uint64_t eccl_fmt_chk_word(uint64_t w, uint64_t k)
{
    return eccl_fmt_mix(w + k * ECCL_FMT_CHK_GOLDEN);
}

/* ---- RAW keys (section 6.3) ---- */
ECCL_HD uint32_t eccl_fmt_key32(uint32_t u) { return (u >> 31) ? ~u : (u | 0x80000000u); }
ECCL_HD uint32_t eccl_fmt_unkey32(uint32_t k) { return (k >> 31) ? (k & 0x7FFFFFFFu) : ~k; }
ECCL_HD uint64_t eccl_fmt_key64(uint64_t u) { return (u >> 63) ? ~u : (u | 0x8000000000000000ull); }
ECCL_HD uint64_t eccl_fmt_unkey64(uint64_t k) { return (k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFull) : ~k; }

#endif /* ECCL_CODEC_FORMAT_H */
