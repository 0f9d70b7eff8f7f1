/*
 * ref_decoder.c - an independent reader and writer of the eccl stream, written from
 * doc/format.md alone (see ref_decoder.h). Section numbers below refer to that document.
 *
 * It reads and writes versions 1, 2 and 3 (version 3: tile forms 2 and 3, sparse blocks with their
 * tile's bit-packed sparse stream, sections 4.1, 6.4, 7, 8.2, 14).
 *
 * It is deliberately plain: byte-by-byte little-endian access (bit by bit for the sparse stream),
 * one block at a time, no tables, no parallelism. Where doc/format.md leaves a choice open, the
 * choice made here is marked "SPEC GAP" and listed in tests/fuzz/README.md.
 */
#include "ref_decoder.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(char *why, const char *fmt, ...)
{
    va_list ap;
    if (!why) return;
    va_start(ap, fmt);
    vsnprintf(why, REF_WHY_LEN, fmt, ap);
    va_end(ap);
}

/* little-endian access, one byte at a time (section 2: all integers are little-endian) */
static uint64_t rd(const unsigned char *p, int nbytes)
{
    uint64_t v = 0;
    for (int i = nbytes - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static void wr(unsigned char *p, uint64_t v, int nbytes)
{
    for (int i = 0; i < nbytes; i++) {
        p[i] = (unsigned char)(v & 0xFF);
        v >>= 8;
    }
}
static double u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static int bitlen(uint64_t v)
{
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}
static uint64_t align16(uint64_t x) { return (x + 15) / 16 * 16; }
static uint64_t align4(uint64_t x) { return (x + 3) / 4 * 4; }
static int popcount32(uint32_t v)
{
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}
/* Section 7: stream bit j is bit j % 32 of little-endian u32 word j / 32, i.e. bit j % 8 of byte
 * j / 8. n <= 32 bits from bit `at`. */
static uint32_t get_bits(const unsigned char *sp, uint64_t at, int n)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        uint64_t j = at + (uint64_t)i;
        v |= (uint32_t)((sp[j >> 3] >> (j & 7)) & 1) << i;
    }
    return v;
}

/* ---- section 9 ---- */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t ref_checksum(const unsigned char *s, uint64_t stream_size)
{
    uint64_t sum = 0;
    for (uint64_t k = 0; k < stream_size / 8; k++) {
        uint64_t w = 8 * k == 56 ? 0 : rd(s + 8 * k, 8);
        sum += mix(w + k * 0x9E3779B97F4A7C15ull);
    }
    return sum;
}

void ref_fix_checksum(unsigned char *s, size_t size)
{
    uint64_t ss = rd(s + 48, 8);
    uint64_t n = (ss <= size && ss % 8 == 0) ? ss : (uint64_t)size / 8 * 8;
    wr(s + 56, ref_checksum(s, n), 8);
}

/* ---- sections 3.1, 3.2 ---- */
double ref_quantum(double eb_abs)
{
    uint64_t u = d2u(2.0 * eb_abs);
    u = (u >> 44) << 44;
    return u2d(u);
}

void ref_params(ref_header *h, unsigned dtype, unsigned mode, double eb_abs)
{
    h->dtype = dtype;
    h->mode = mode;
    h->eb = eb_abs;
    h->is64 = dtype == 2 || dtype == 4;
    h->W = h->is64 ? 8 : 4;
    h->lag = dtype >= 3 ? 2 : 1;
    h->H = h->is64 ? 6 : 4;
    h->FQ = h->is64 ? 45 : 31;
    h->qmax = h->is64 ? ((int64_t)1 << 44) - 1 : ((int64_t)1 << 30) - 1;
    h->quant = mode != 0 && eb_abs >= ldexp(1.0, -1000);
    h->D = h->quant ? ref_quantum(eb_abs) : 0.0;
    h->R = h->quant ? 1.0 / h->D : 0.0;
}

/* The bound in force from the stored mode, bound and range; 0 if the combination is invalid. */
static int eb_rule(unsigned mode, double bound, double range, double *eb)
{
    const double cap = ldexp(1.0, 1020);
    switch (mode) {
    case 0:
        if (bound != 0.0 || range != 0.0) return 0;
        *eb = 0.0;
        return 1;
    case 1:
        if (!(bound > 0.0) || isinf(bound) || range != 0.0) return 0;
        *eb = bound < cap ? bound : cap;
        return 1;
    case 2: {
        if (!(bound > 0.0) || isinf(bound) || isnan(range) || range < 0.0) return 0;
        double p = bound * range;
        *eb = p < cap ? p : cap;
        return 1;
    }
    }
    return 0;
}

/* ---- section 6.3: keys ---- */
static uint64_t key_of(uint64_t u, int W)
{
    uint64_t sign = (uint64_t)1 << (8 * W - 1);
    uint64_t all = W == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull;
    return (u & sign) ? (~u & all) : (u | sign);
}
static uint64_t unkey(uint64_t k, int W)
{
    uint64_t sign = (uint64_t)1 << (8 * W - 1);
    uint64_t all = W == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull;
    return (k & sign) ? (k & ~sign) : (~k & all);
}

/* T(q * D) as an encoding (section 6.2) */
static uint64_t quant_value(const ref_header *h, int64_t q)
{
    double v = (double)q * h->D;
    if (h->is64) return d2u(v);
    return f2u((float)v);
}

/* Block code -> kind, fields and payload size in bytes (sections 5, 6; a sparse block's bits in the
 * sparse stream are not counted) in a tile of form `form`; -1 if the code is invalid. */
static int code_size(const ref_header *h, unsigned m, int r, int head, int form, ref_block *b)
{
    unsigned s = m >> 6;
    b->code = m;
    b->head = head;
    b->r = r;
    b->form = form;
    b->pred = REF_PRED_LORENZO;
    b->sparse = 0;
    if (s == 3) {
        unsigned f = m & 63;
        b->s = 3;
        b->p = 0;
        if (f == 63) {
            b->kind = REF_RAW_VERBATIM;
            b->F = 0;
            return r * h->W;
        }
        b->kind = REF_RAW_CODED;
        b->F = (int)f;
        if ((int)f > (h->is64 ? 62 : 32)) return -1;
        int size = h->W + (f > 0 ? 4 + 4 * (int)f : 0);
        return size < r * h->W ? size : -1;
    }
    b->kind = REF_QUANT;
    b->s = (int)s;
    b->p = (int)((m >> 5) & 1);
    /* section 4.1: what p = 1 selects in a tile of form a */
    static const int alt[4] = {REF_PRED_NONE, REF_PRED_L2, REF_PRED_S1, REF_PRED_S2};
    b->pred = b->p == 0 ? REF_PRED_LORENZO : alt[form & 3];
    b->sparse = b->p == 1 && form >= 2;
    unsigned fc = m & 31;
    b->F = fc == 31 ? h->FQ : (int)fc;
    if (!h->quant) return -1; /* QUANT in a LOSSLESS stream or with eb < 2^-1000 */
    if (b->F == 0 && s != 0) return -1;
    int size;
    if (b->sparse) /* section 6: head value and nonzero map; the rest is in the sparse stream */
        size = (head ? h->H : 0) + (b->F > 0 ? 4 : 0);
    else /* section 6: a head block carries its first value when p = 0 or a = 1 */
        size = (head && (b->p == 0 || form == 1) ? h->H : 0) +
               (b->F > 0 ? (s == 0 ? 4 : 0) + 4 * b->F : 0);
    return size <= r * h->W ? size : -1;
}

static int block_len(const ref_header *h, uint64_t k)
{
    return k + 1 < h->nb ? 32 : (int)(h->n - 32 * (h->nb - 1));
}

/* ---- sections 2-5, 7, 9 ---- */
int ref_parse(const void *buf, size_t size, ref_header *h, char *why)
{
    const unsigned char *s = (const unsigned char *)buf;
    memset(h, 0, sizeof *h);
    if (!buf) {
        say(why, "NULL stream");
        return REF_INVALID;
    }
    if (size < 64) {
        say(why, "%zu bytes: shorter than the header", size);
        return REF_CORRUPT;
    }
    if (memcmp(s, "ECCL", 4) != 0) {
        say(why, "bad magic");
        return REF_CORRUPT;
    }
    h->vmajor = s[4];
    h->vminor = s[5];
    h->dtype = s[6];
    h->mode = s[7];
    h->blocklog = s[8];
    h->tilelog = s[9];
    h->flags = (unsigned)rd(s + 10, 2);
    h->nsum = (uint32_t)rd(s + 12, 4);
    h->count = rd(s + 16, 8);
    h->bound = u2d(rd(s + 24, 8));
    h->eb = u2d(rd(s + 32, 8));
    h->range = u2d(rd(s + 40, 8));
    h->stream_size = rd(s + 48, 8);
    h->checksum = rd(s + 56, 8);
    if (h->vmajor < 1 || h->vmajor > 3) {
        say(why, "version major %u", h->vmajor);
        /* sections 3, 12: a newer major (4 and up) is UNSUPPORTED, 0 CORRUPT */
        return h->vmajor > 3 ? REF_UNSUPPORTED : REF_CORRUPT;
    }
    if (h->dtype < 1 || h->dtype > 4) {
        say(why, "dtype %u", h->dtype);
        return REF_CORRUPT;
    }
    if (h->mode > 2) {
        say(why, "mode %u", h->mode);
        return REF_CORRUPT;
    }
    if (h->blocklog != 5 || h->tilelog != 8) {
        say(why, "block log %u tile log %u", h->blocklog, h->tilelog);
        return REF_CORRUPT;
    }
    if (h->flags != 0) {
        say(why, "flags 0x%x", h->flags);
        return REF_CORRUPT;
    }
    if (h->nsum == 0) {
        say(why, "nsum 0");
        return REF_CORRUPT;
    }
    {
        uint64_t esize = (h->dtype >= 3 ? 2u : 1u) * ((h->dtype == 2 || h->dtype == 4) ? 8u : 4u);
        if (h->count >= ((uint64_t)1 << 62) / esize) { /* n * W < 2^62 */
            say(why, "count %llu too large", (unsigned long long)h->count);
            return REF_CORRUPT;
        }
    }
    double eb;
    if (!eb_rule(h->mode, h->bound, h->range, &eb)) {
        say(why, "mode %u with bound %g range %g", h->mode, h->bound, h->range);
        return REF_CORRUPT;
    }
    if (d2u(eb) != d2u(h->eb)) {
        say(why, "eb_abs %.17g, the rule gives %.17g", h->eb, eb);
        return REF_CORRUPT;
    }
    ref_params(h, h->dtype, h->mode, eb);
    h->n = h->count * (uint64_t)(h->dtype >= 3 ? 2 : 1);
    h->nb = (h->n + 31) / 32;
    h->nt = (h->nb + 255) / 256;
    h->P = align16(64 + 8 * h->nt + h->nb);
    if (h->stream_size != size) { /* section 3: the stream is exactly stream_size bytes */
        say(why, "stream_size %llu, %zu bytes given", (unsigned long long)h->stream_size, size);
        return REF_CORRUPT;
    }
    if (h->stream_size % 16 != 0 || h->stream_size < h->P) {
        say(why, "stream_size %llu (P = %llu)", (unsigned long long)h->stream_size,
            (unsigned long long)h->P);
        return REF_CORRUPT;
    }
    if (ref_checksum(s, h->stream_size) != h->checksum) {
        say(why, "checksum");
        return REF_CORRUPT;
    }
    h->payload_size = h->stream_size - h->P;
    for (uint64_t z = 64 + 8 * h->nt + h->nb; z < h->P; z++) {
        if (s[z]) {
            say(why, "nonzero byte %llu before the payload", (unsigned long long)z);
            return REF_CORRUPT;
        }
    }
    const unsigned char *index = s + 64, *codes = s + 64 + 8 * h->nt, *payload = s + h->P;
    uint64_t at = 0;
    for (uint64_t t = 0; t < h->nt; t++) {
        /* section 4: the low 62 bits are the offset, the top two the tile's form (4.1) */
        uint64_t entry = rd(index + 8 * t, 8), offset = entry & (((uint64_t)1 << 62) - 1);
        int form = (int)(entry >> 62);
        /* section 4.1: a form the version does not have, forms 1 and 3 in a complex stream, any
         * form but 0 in a stream without QUANT blocks: CORRUPT */
        if (form > (h->vmajor == 1 ? 0 : h->vmajor == 2 ? 1 : 3)) {
            say(why, "tile %llu: form %d in a version-%u stream", (unsigned long long)t, form,
                h->vmajor);
            return REF_CORRUPT;
        }
        if (form != 0 && ((form % 2 == 1 && h->lag != 1) || !h->quant)) {
            say(why, "tile %llu: form %d in a %s stream", (unsigned long long)t, form,
                !h->quant ? "non-quantizing" : "complex");
            return REF_CORRUPT;
        }
        h->nt_l2 += form == 1;
        h->nt_form[form]++;
        if (offset != at) {
            say(why, "tile %llu index %llu, expected %llu", (unsigned long long)t,
                (unsigned long long)offset, (unsigned long long)at);
            return REF_CORRUPT;
        }
        /* section 7: the blocks' payloads, B bytes (from the codes) */
        uint64_t tsize = 0;
        for (uint64_t k = 256 * t; k < h->nb && k < 256 * (t + 1); k++) {
            ref_block b;
            int head = k % 256 == 0 || (codes[k - 1] >> 6) == 3;
            int bs = code_size(h, codes[k], block_len(h, k), head, form, &b);
            if (bs < 0) {
                say(why, "block %llu: invalid code 0x%02x (r = %d, head %d)",
                    (unsigned long long)k, codes[k], block_len(h, k), head);
                return REF_CORRUPT;
            }
            tsize += (uint64_t)bs;
        }
        uint64_t B = tsize, A = tsize, L = 0;
        if (form >= 2) {
            /* section 7: zero bytes up to A = align4(B), then ceil(L/32) words of the sparse
             * stream, L from the sparse blocks' maps as stored (section 6.4; the maps themselves
             * are checked with their blocks, ref_read_blocks: this is the layout only) */
            A = align4(B);
            if (A > h->payload_size - at) {
                say(why, "tile %llu overruns the stream", (unsigned long long)t);
                return REF_CORRUPT;
            }
            uint64_t pos = at;
            for (uint64_t k = 256 * t; k < h->nb && k < 256 * (t + 1); k++) {
                ref_block b;
                int head = k % 256 == 0 || (codes[k - 1] >> 6) == 3;
                int bs = code_size(h, codes[k], block_len(h, k), head, form, &b);
                if (b.sparse && b.F > 0) {
                    int kk = popcount32((uint32_t)rd(payload + pos + (head ? h->H : 0), 4));
                    int bits = (b.s == 0 ? kk : 0) + b.F * kk, r = block_len(h, k);
                    /* section 6: a sparse block's bytes and bits together at most r*W bytes */
                    if (8 * bs + bits > 8 * r * (int)h->W) {
                        say(why, "block %llu: sparse block of %d bytes and %d bits exceeds r*W",
                            (unsigned long long)k, bs, bits);
                        return REF_CORRUPT;
                    }
                    L += (uint64_t)bits;
                }
                pos += (uint64_t)bs;
            }
            tsize = A + 4 * ((L + 31) / 32);
        }
        uint64_t padded = align16(tsize);
        if (padded > h->payload_size - at) {
            say(why, "tile %llu overruns the stream", (unsigned long long)t);
            return REF_CORRUPT;
        }
        for (uint64_t z = at + B; z < at + A; z++) {
            if (payload[z]) {
                say(why, "tile %llu: nonzero byte before the sparse stream", (unsigned long long)t);
                return REF_CORRUPT;
            }
        }
        if (L % 32 != 0 && (rd(payload + at + A + 4 * (L / 32), 4) >> (L % 32)) != 0) {
            say(why, "tile %llu: nonzero bit after the sparse stream's %llu bits",
                (unsigned long long)t, (unsigned long long)L);
            return REF_CORRUPT;
        }
        for (uint64_t z = at + tsize; z < at + padded; z++) {
            if (payload[z]) {
                say(why, "tile %llu: nonzero padding", (unsigned long long)t);
                return REF_CORRUPT;
            }
        }
        at += padded;
    }
    if (at != h->payload_size) {
        say(why, "tiles end at %llu, payload is %llu bytes", (unsigned long long)at,
            (unsigned long long)h->payload_size);
        return REF_CORRUPT;
    }
    return REF_OK;
}

/* ---- section 6: one block's payload. A sparse block (6.4) also reads its bits from the tile's
 * sparse stream sp (at sp_offset in the stream) from bit *spos on, and advances *spos. ---- */
static int read_block(const ref_header *h, const unsigned char *p, ref_block *b, int have_prev,
                      const int64_t *prev_q, const unsigned char *sp, uint64_t sp_offset,
                      uint64_t *spos, char *why)
{
    int r = b->r, W = h->W, pos = 0;
    uint64_t allowed = (r == 32 ? 0xFFFFFFFFull : (((uint64_t)1 << r) - 1));
    uint64_t mag[32];
    int neg[32];
    b->q0 = 0;
    b->sign_map = 0;
    b->zmap = 0;
    b->k = 0;
    b->sp_offset = 0;
    b->sp_bit = 0;
    b->sp_bits = 0;
    memset(b->planes, 0, sizeof b->planes);
    memset(b->d, 0, sizeof b->d);
    memset(b->q, 0, sizeof b->q);
    memset(b->key, 0, sizeof b->key);
    memset(mag, 0, sizeof mag);
    if (b->kind == REF_RAW_VERBATIM) {
        for (int i = 0; i < r; i++) b->u[i] = rd(p + W * i, W);
        return REF_OK;
    }
    int d0_coded;
    if (b->kind == REF_RAW_CODED) {
        b->u[0] = rd(p, W);
        pos = W;
        d0_coded = 0;
    } else {
        /* head blocks carry q_0 unless they predict nothing (sections 6, 6.2) */
        d0_coded = !(b->head && b->pred != REF_PRED_NONE);
        if (!d0_coded) {
            uint64_t z = rd(p, h->H);
            b->q0 = (z & 1) ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1);
            pos = h->H;
            if (b->q0 > h->qmax || b->q0 < -h->qmax) {
                say(why, "block %llu: head value %lld beyond QMAX", (unsigned long long)b->index,
                    (long long)b->q0);
                return REF_CORRUPT;
            }
        }
    }
    if (!d0_coded) allowed &= ~(uint64_t)1;
    int has_map = !b->sparse && b->F > 0 && (b->kind == REF_RAW_CODED || b->s == 0);
    uint64_t any = 0;
    if (b->sparse) {
        /* section 6.4: the nonzero map Z, then k sign bits (s = 0) and F compacted planes of k
         * bits in the sparse stream */
        for (int i = 0; i < r; i++) neg[i] = b->s == 2;
        if (b->F > 0) {
            uint32_t z = (uint32_t)rd(p + pos, 4);
            if (z & ~allowed) {
                say(why, "block %llu: nonzero map 0x%08x has reserved bits (r = %d, head %d)",
                    (unsigned long long)b->index, z, r, b->head);
                return REF_CORRUPT;
            }
            if (z == 0) {
                say(why, "block %llu: empty nonzero map", (unsigned long long)b->index);
                return REF_CORRUPT;
            }
            int k = popcount32(z), at[32], j = 0;
            for (int i = 0; i < r; i++)
                if ((z >> i) & 1) at[j++] = i;
            b->zmap = z;
            b->k = k;
            b->sp_offset = sp_offset;
            b->sp_bit = *spos;
            b->sp_bits = (b->s == 0 ? k : 0) + b->F * k;
            if (b->s == 0) {
                b->sign_map = get_bits(sp, *spos, k);
                *spos += (uint64_t)k;
                /* canonical: at least one negative and one positive delta */
                uint32_t all = k == 32 ? 0xFFFFFFFFu : ((uint32_t)1 << k) - 1;
                if (b->sign_map == 0 || b->sign_map == all) {
                    say(why, "block %llu: compacted sign word with only one sign",
                        (unsigned long long)b->index);
                    return REF_CORRUPT;
                }
                for (j = 0; j < k; j++) neg[at[j]] = (b->sign_map >> j) & 1;
            }
            for (int c = 0; c < b->F; c++) {
                uint32_t w = get_bits(sp, *spos, k);
                *spos += (uint64_t)k;
                b->planes[c] = w;
                for (j = 0; j < k; j++)
                    if ((w >> j) & 1) mag[at[j]] |= (uint64_t)1 << c;
            }
            for (j = 0; j < k; j++) {
                if (mag[at[j]] == 0) { /* canonical: every mapped delta is nonzero */
                    say(why, "block %llu: mapped delta %d is zero", (unsigned long long)b->index,
                        at[j]);
                    return REF_CORRUPT;
                }
            }
        }
    } else {
        if (has_map) {
            b->sign_map = (uint32_t)rd(p + pos, 4);
            pos += 4;
            if (b->sign_map & ~allowed) {
                say(why, "block %llu: sign map has reserved bits", (unsigned long long)b->index);
                return REF_CORRUPT;
            }
        }
        for (int j = 0; j < b->F; j++) {
            uint32_t w = (uint32_t)rd(p + pos + 4 * j, 4);
            b->planes[j] = w;
            if (w & ~allowed) {
                say(why, "block %llu: plane %d has reserved bits", (unsigned long long)b->index, j);
                return REF_CORRUPT;
            }
            for (int i = 0; i < r; i++)
                if ((w >> i) & 1) mag[i] |= (uint64_t)1 << j;
        }
    }
    for (int i = 0; i < r; i++) any |= mag[i];
    /* canonical F (section 6.1) */
    int bl = bitlen(any);
    int fc = (int)(b->code & (b->kind == REF_QUANT ? 31u : 63u));
    if (b->kind == REF_QUANT && fc == 31) {
        if (bl < 31 || bl > h->FQ) {
            say(why, "block %llu: F = FQ but the bit length is %d", (unsigned long long)b->index, bl);
            return REF_CORRUPT;
        }
    } else if (bl != b->F) {
        say(why, "block %llu: F = %d but the bit length is %d", (unsigned long long)b->index,
            b->F, bl);
        return REF_CORRUPT;
    }
    /* signs (sparse blocks: above) */
    for (int i = 0; i < r && !b->sparse; i++) {
        if (has_map) neg[i] = (b->sign_map >> i) & 1;
        else neg[i] = b->kind == REF_QUANT && b->s == 2;
    }
    if (has_map) {
        int npos = 0, nneg = 0;
        for (int i = 0; i < r; i++) {
            if (neg[i] && mag[i] == 0) {
                /* SPEC GAP: 6.1 states this rule for QUANT s = 0; applied to RAW maps too. */
                say(why, "block %llu: sign bit on a zero delta %d", (unsigned long long)b->index, i);
                return REF_CORRUPT;
            }
            npos += !neg[i] && mag[i] != 0;
            nneg += neg[i];
        }
        if (b->kind == REF_QUANT && (npos == 0 || nneg == 0)) {
            say(why, "block %llu: sign map with only one sign", (unsigned long long)b->index);
            return REF_CORRUPT;
        }
    }
    if (b->kind == REF_RAW_CODED) {
        uint64_t kmax = W == 8 ? ~(uint64_t)0 : 0xFFFFFFFFull;
        b->key[0] = key_of(b->u[0], W);
        for (int i = 1; i < r; i++) {
            uint64_t base = b->key[i >= h->lag ? i - h->lag : i - 1];
            if (neg[i]) {
                if (mag[i] > base) {
                    say(why, "block %llu: key %d below 0", (unsigned long long)b->index, i);
                    return REF_CORRUPT;
                }
                b->key[i] = base - mag[i];
            } else {
                if (mag[i] > kmax - base) {
                    say(why, "block %llu: key %d beyond 2^%d", (unsigned long long)b->index, i,
                        8 * W);
                    return REF_CORRUPT;
                }
                b->key[i] = base + mag[i];
            }
            b->d[i] = neg[i] ? -(int64_t)mag[i] : (int64_t)mag[i]; /* informative (wraps > 2^63) */
            b->u[i] = unkey(b->key[i], W);
        }
        return REF_OK;
    }
    /* QUANT (section 6.2) */
    for (int i = 0; i < r; i++) b->d[i] = neg[i] ? -(int64_t)mag[i] : (int64_t)mag[i];
    if (!b->head && b->pred != REF_PRED_NONE && !have_prev) {
        say(why, "internal: no previous block");
        return REF_CORRUPT;
    }
    for (int i = 0; i < r; i++) {
        int64_t q;
        /* q_{i-j}: from this block, or (j > i) from the end of the previous, full block */
#define QAT(j) ((i) >= (j) ? b->q[(i) - (j)] : prev_q[32 + (i) - (j)])
        if (b->pred == REF_PRED_NONE) {
            q = b->d[i];
        } else if (b->head && i == 0) {
            q = b->q0;
        } else if (b->head && i == 1) {
            q = b->q[0] + b->d[1]; /* both predictors: d_1 = q_1 - q_0 */
        } else if (b->pred == REF_PRED_LORENZO || b->pred == REF_PRED_S1) {
            q = QAT(h->lag) + b->d[i];
        } else { /* second order, L2 or S2 (real types: lag 1); |d| < 2^46, |q| <= QMAX: no
                  * overflow */
            q = 2 * QAT(1) - QAT(2) + b->d[i];
        }
#undef QAT
        if (q > h->qmax || q < -h->qmax) {
            say(why, "block %llu: integer %d = %lld beyond QMAX", (unsigned long long)b->index, i,
                (long long)q);
            return REF_CORRUPT;
        }
        b->q[i] = q;
        b->u[i] = quant_value(h, q);
    }
    return REF_OK;
}

int ref_read_blocks(const void *buf, size_t size, ref_header *h, ref_block_cb cb, void *ctx,
                    char *why)
{
    int rc = ref_parse(buf, size, h, why);
    if (rc) return rc;
    const unsigned char *s = (const unsigned char *)buf;
    const unsigned char *codes = s + 64 + 8 * h->nt;
    ref_block *b = (ref_block *)malloc(sizeof *b);
    int64_t prev_q[32];
    if (!b) return REF_NOMEM;
    for (uint64_t t = 0; t < h->nt && rc == REF_OK; t++) {
        uint64_t entry = rd(s + 64 + 8 * t, 8);
        uint64_t off = h->P + (entry & (((uint64_t)1 << 62) - 1));
        int form = (int)(entry >> 62);
        int have_prev = 0;
        /* section 7: in a form-2 or form-3 tile the sparse stream starts at align4 of the blocks'
         * bytes (ref_parse checked the layout) */
        uint64_t sp_offset = off, spos = 0;
        if (form >= 2) {
            for (uint64_t k = 256 * t; k < h->nb && k < 256 * (t + 1); k++) {
                int head = k % 256 == 0 || (codes[k - 1] >> 6) == 3;
                sp_offset += (uint64_t)code_size(h, codes[k], block_len(h, k), head, form, b);
            }
            sp_offset = off + align4(sp_offset - off);
        }
        for (uint64_t k = 256 * t; k < h->nb && k < 256 * (t + 1); k++) {
            int head = k % 256 == 0 || (codes[k - 1] >> 6) == 3;
            b->index = k;
            b->size = code_size(h, codes[k], block_len(h, k), head, form, b);
            b->offset = off;
            rc = read_block(h, s + off, b, have_prev, prev_q, s + sp_offset, sp_offset, &spos, why);
            if (rc) break;
            if (b->kind == REF_QUANT) {
                have_prev = 1;
                memcpy(prev_q, b->q, sizeof prev_q);
            } else {
                have_prev = 0;
            }
            if (cb) cb(ctx, b);
            off += (uint64_t)b->size;
        }
    }
    free(b);
    return rc;
}

typedef struct {
    unsigned char *out;
    int W;
} decode_ctx;

static void decode_cb(void *vctx, const ref_block *b)
{
    decode_ctx *c = (decode_ctx *)vctx;
    for (int i = 0; i < b->r; i++) wr(c->out + (32 * b->index + (uint64_t)i) * c->W, b->u[i], c->W);
}

int ref_decode(const void *buf, size_t size, void *out, uint64_t count, unsigned dtype, char *why)
{
    ref_header h;
    int rc = ref_parse(buf, size, &h, why);
    if (rc) return rc;
    if (h.count != count || h.dtype != dtype) {
        say(why, "stream holds %llu of dtype %u", (unsigned long long)h.count, h.dtype);
        return REF_MISMATCH;
    }
    decode_ctx c = {(unsigned char *)out, h.W};
    return ref_read_blocks(buf, size, &h, decode_cb, &c, why);
}

/* ======================================================================================
 * The writer (sections 8, 10, 11)
 * ==================================================================================== */

int ref_quantize(const ref_header *h, double x, int64_t *q)
{
    const double lim = ldexp(1.0, 50);
    double t = x * h->R;
    if (isnan(t)) t = -lim;
    if (t > lim) t = lim;
    if (t < -lim) t = -lim;
    double qd = nearbyint(t); /* default rounding: to nearest, ties to even */
    *q = (int64_t)qd;
    if (fabs(qd) > (double)h->qmax) return 0;
    /* The differences, exactly: long double (64-bit significand) holds x - y exactly whenever it
     * can matter: for q = 0, y = 0; otherwise x and y have the same sign and lie within a
     * factor 2 of each other (|x - qD| <~ D/2 <= |qD|/2), so even binary64 is exact (Sterbenz).
     * q*D itself is computed in binary64 (exact for |q| <= QMAX unless it overflows: then
     * y = inf and the value is not quantizable). */
    double y = (double)*q * h->D;
    long double eb = h->eb;
    if (!(fabsl((long double)x - (long double)y) <= eb)) return 0;
    if (!h->is64) {
        double yf = (double)(float)y;
        if (!(fabsl((long double)x - (long double)yf) <= eb)) return 0;
    }
    return 1;
}

/* A block to write: integers (qok) with an exact fallback, or only exact encodings. */
typedef struct {
    int r;
    int qok;
    int64_t q[32];
    uint64_t u[32];
} rep_t;

typedef struct {
    uint64_t mag[32];
    uint32_t neg;
    int s, F, fc, size;
    int bl; /* bit length of max |d_i| */
} deltas_t;

static void finish(const ref_header *h, deltas_t *d, int r, int extra)
{
    uint64_t any = 0;
    int np = 0, nn = 0;
    for (int i = 0; i < r; i++) {
        any |= d->mag[i];
        nn += (d->neg >> i) & 1;
        np += !((d->neg >> i) & 1) && d->mag[i];
    }
    int bl = bitlen(any);
    d->bl = bl;
    d->fc = bl <= 30 ? bl : 31;
    d->F = bl <= 30 ? bl : h->FQ; /* meaningless when bl > FQ (second order: not usable) */
    d->s = bl == 0 ? 0 : (nn == 0 ? 1 : (np == 0 ? 2 : 0));
    d->size = extra + (d->F > 0 ? (d->s == 0 ? 4 : 0) + 4 * d->F : 0);
}

static void set_delta(deltas_t *d, int i, int64_t v)
{
    d->mag[i] = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0) d->neg |= (uint32_t)1 << i;
}

static int put_words(unsigned char *o, const uint64_t *mag, uint32_t neg, int r, int F, int map)
{
    int pos = 0;
    if (map) {
        wr(o, neg, 4);
        pos = 4;
    }
    for (int j = 0; j < F; j++) {
        uint32_t w = 0;
        for (int i = 0; i < r; i++) w |= (uint32_t)((mag[i] >> j) & 1) << i;
        wr(o + pos, w, 4);
        pos += 4;
    }
    return pos;
}

/* Section 6.2: the deltas of the integers of b under predictor pred (REF_PRED_*), as a head block
 * or after a previous block whose integers are last[0..31]; with the block's size. */
static void quant_deltas(const ref_header *h, const rep_t *b, int pred, int head,
                         const int64_t *last, deltas_t *d)
{
    memset(d, 0, sizeof *d);
    for (int i = 0; i < b->r; i++) {
        int64_t v;
#define QAT(j) (i >= (j) ? b->q[i - (j)] : last[32 + i - (j)])
        if (pred == REF_PRED_NONE) v = b->q[i];
        else if (head && i == 0) v = 0; /* not coded: q_0 is stored */
        else if (head && i == 1) v = b->q[1] - b->q[0];
        else if (pred == REF_PRED_LORENZO) v = b->q[i] - QAT(h->lag);
        else v = b->q[i] - 2 * QAT(1) + QAT(2);
#undef QAT
        set_delta(d, i, v);
    }
    finish(h, d, b->r, head && pred != REF_PRED_NONE ? h->H : 0);
}

/* Section 8 step 1 (form 0: Lorenzo or none) and step 1b (form 1: Lorenzo or second order):
 * the QUANT encoding of b, written to o (room for 256 bytes). Returns its size, which may exceed
 * r*W: the caller decides. */
static int quant_block(const ref_header *h, const rep_t *b, int form, int head,
                       const int64_t *last, unsigned char *o, unsigned *code)
{
    deltas_t L, A;
    quant_deltas(h, b, REF_PRED_LORENZO, head, last, &L);
    quant_deltas(h, b, form == 1 ? REF_PRED_L2 : REF_PRED_NONE, head, last, &A);
    /* the alternative only if strictly smaller (and, second order, usable: at most FQ bits) */
    int alt = (form == 0 || A.bl <= h->FQ) && A.size < L.size;
    const deltas_t *d = alt ? &A : &L;
    int pos = 0;
    if (head && (!alt || form == 1)) { /* section 6: head and (p = 0 or a = 1) */
        int64_t v = b->q[0];
        wr(o, v >= 0 ? 2 * (uint64_t)v : 2 * (uint64_t)(-v) - 1, h->H);
        pos = h->H;
    }
    if (d->F > 0) put_words(o + pos, d->mag, d->neg, b->r, d->F, d->s == 0);
    *code = (unsigned)(d->s << 6) | (unsigned)(alt << 5) | (unsigned)d->fc;
    return d->size;
}

/* A tile's sparse stream being written (section 7): L bits so far in w[] (zeroed beforehand). */
typedef struct {
    uint32_t *w;
    uint64_t L;
} bits_t;

static void put_bits(bits_t *bs, uint32_t v, int n)
{
    for (int i = 0; i < n; i++, bs->L++)
        if ((v >> i) & 1) bs->w[bs->L / 32] |= (uint32_t)1 << (bs->L % 32);
}

/* Section 8.2, forms 2 and 3: b's encoding in a tile of form `form`: the sparse one (section 6.4,
 * first-order deltas in form 2, second-order in form 3) when usable and strictly cheaper than the
 * Lorenzo one (p = 0), else the Lorenzo one. Bytes to o (room for 256), bits to bs. Returns the
 * bytes; *cost is the price in bits (8 per byte plus the stream bits). */
static int sparse_form_block(const ref_header *h, const rep_t *b, int form, int head,
                             const int64_t *last, unsigned char *o, unsigned *code, bits_t *bs,
                             uint64_t *cost)
{
    deltas_t L, S;
    quant_deltas(h, b, REF_PRED_LORENZO, head, last, &L);
    quant_deltas(h, b, form == 2 ? REF_PRED_LORENZO : REF_PRED_L2, head, last, &S);
    int k = 0;
    uint32_t z = 0;
    for (int i = 0; i < b->r; i++)
        if (S.mag[i]) {
            z |= (uint32_t)1 << i;
            k++;
        }
    int sbytes = (head ? h->H : 0) + (S.F > 0 ? 4 : 0);
    int sbits = S.F > 0 ? (S.s == 0 ? k : 0) + S.F * k : 0;
    uint64_t scost = 8 * (uint64_t)sbytes + (uint64_t)sbits, lcost = 8 * (uint64_t)L.size;
    /* usable: first-order deltas always, second-order ones of at most FQ bits */
    int sparse = (form == 2 || S.bl <= h->FQ) && scost < lcost;
    const deltas_t *d = sparse ? &S : &L;
    int pos = 0;
    if (head) { /* both carry q_0 at a head block (sections 6.2, 6.4) */
        int64_t v = b->q[0];
        wr(o, v >= 0 ? 2 * (uint64_t)v : 2 * (uint64_t)(-v) - 1, h->H);
        pos = h->H;
    }
    if (sparse) {
        if (S.F > 0) {
            wr(o + pos, z, 4);
            uint32_t sw = 0;
            int j = 0;
            for (int i = 0; i < b->r; i++)
                if ((z >> i) & 1) sw |= (uint32_t)((S.neg >> i) & 1) << j++;
            if (S.s == 0) put_bits(bs, sw, k);
            for (int c = 0; c < S.F; c++) {
                uint32_t w = 0;
                j = 0;
                for (int i = 0; i < b->r; i++)
                    if ((z >> i) & 1) w |= (uint32_t)((S.mag[i] >> c) & 1) << j++;
                put_bits(bs, w, k);
            }
        }
        *cost = scost;
    } else {
        if (L.F > 0) put_words(o + pos, L.mag, L.neg, b->r, L.F, L.s == 0);
        *cost = lcost;
    }
    *code = (unsigned)(d->s << 6) | (unsigned)(sparse << 5) | (unsigned)d->fc;
    return sparse ? sbytes : L.size;
}

/* Section 8 step 2: a RAW block of b's encodings. */
static int raw_block(const ref_header *h, const rep_t *b, unsigned char *o, unsigned *code)
{
    int r = b->r, W = h->W;
    uint64_t key[32], mag[32], any = 0;
    uint32_t neg = 0;
    for (int i = 0; i < r; i++) key[i] = key_of(b->u[i], W);
    mag[0] = 0;
    for (int i = 1; i < r; i++) {
        uint64_t a = key[i], c = key[i >= h->lag ? i - h->lag : i - 1];
        mag[i] = a >= c ? a - c : c - a;
        if (a < c) neg |= (uint32_t)1 << i;
        any |= mag[i];
    }
    int F = bitlen(any);
    int size = W + (F > 0 ? 4 + 4 * F : 0);
    if (size < r * W && F <= (h->is64 ? 62 : 32)) {
        wr(o, b->u[0], W);
        if (F > 0) put_words(o + W, mag, neg, r, F, 1);
        *code = 0xC0u | (unsigned)F;
        return size;
    }
    for (int i = 0; i < r; i++) wr(o + W * i, b->u[i], W);
    *code = 0xFF;
    return r * W;
}

/* One tile of nblk blocks in form `form` (sections 8, 8.1, 8.2), payload to o (TILE_ROOM bytes),
 * codes to codes[]. Form 0 decides each block's kind (quant[j]: QUANT, else RAW); forms 1-3 keep
 * those kinds (and so the head blocks). Returns the unpadded tile size (forms 2 and 3: with the
 * sparse stream, section 7, whose words are sw[], SPARSE_WORDS of them); *qsize is the sum of the
 * QUANT blocks' sizes in bytes, *fits says whether each of them is at most r*W bytes (forms 2, 3:
 * costs at most 8*r*W bits). */
enum { TILE_ROOM = 2 * 65536, SPARSE_WORDS = 256 * 32 * 46 / 32 };
static uint64_t encode_tile(const ref_header *h, const rep_t *reps, int nblk, int form, int *quant,
                            unsigned char *o, unsigned char *codes, uint64_t *qsize, int *fits,
                            uint32_t *sw)
{
    int have = 0; /* the previous block is QUANT (in this tile): this one is not a head block */
    int64_t last[32];
    uint64_t at = 0;
    bits_t bs = {sw, 0};
    if (form >= 2) memset(sw, 0, SPARSE_WORDS * sizeof *sw);
    *qsize = 0;
    *fits = 1;
    for (int j = 0; j < nblk; j++) {
        const rep_t *b = &reps[j];
        unsigned code = 0;
        int size = 0;
        if (form == 0) {
            quant[j] = 0;
            if (h->quant && b->qok) {
                size = quant_block(h, b, 0, !have, last, o + at, &code);
                quant[j] = size <= b->r * h->W;
            }
        } else if (quant[j] && form == 1) {
            size = quant_block(h, b, 1, !have, last, o + at, &code);
            if (size > b->r * h->W) *fits = 0;
        } else if (quant[j]) {
            uint64_t cost;
            size = sparse_form_block(h, b, form, !have, last, o + at, &code, &bs, &cost);
            if (cost > 8 * (uint64_t)(b->r * h->W)) *fits = 0;
        }
        if (quant[j]) {
            *qsize += (uint64_t)size;
            have = 1;
            for (int i = 0; i < b->r; i++) last[i] = b->q[i];
        } else {
            size = raw_block(h, b, o + at, &code);
            have = 0;
        }
        codes[j] = (unsigned char)code;
        at += (uint64_t)size;
    }
    if (form >= 2) { /* section 7: zero bytes up to align4, then the sparse stream's words */
        uint64_t A = align4(at), nw = (bs.L + 31) / 32;
        memset(o + at, 0, (size_t)(A - at));
        for (uint64_t i = 0; i < nw; i++) wr(o + A + 4 * i, sw[i], 4);
        at = A + 4 * nw;
    }
    return at;
}

typedef void (*rep_fn)(void *ctx, const ref_header *h, uint64_t k, rep_t *b);

/* Write a whole stream with the header fields in h (vmajor, count, dtype, mode, nsum, bound, eb,
 * range). */
static int write_stream(ref_header *h, rep_fn fn, void *ctx, unsigned char **out, size_t *out_size)
{
    h->n = h->count * (uint64_t)(h->dtype >= 3 ? 2 : 1);
    h->nb = (h->n + 31) / 32;
    h->nt = (h->nb + 255) / 256;
    h->P = align16(64 + 8 * h->nt + h->nb);
    h->nt_l2 = 0;
    uint64_t cap = h->P + h->n * (uint64_t)h->W + 16 * h->nt;
    unsigned char *s = (unsigned char *)calloc(cap, 1);
    rep_t *reps = (rep_t *)malloc(256 * sizeof *reps);
    unsigned char *tbuf[4];
    unsigned char tcodes[4][256];
    uint32_t *sw = (uint32_t *)malloc(SPARSE_WORDS * sizeof *sw);
    int quant[256], nomem = !s || !reps || !sw;
    for (int a = 0; a < 4; a++) nomem |= !(tbuf[a] = (unsigned char *)malloc(TILE_ROOM));
    memset(h->nt_form, 0, sizeof h->nt_form);
    if (nomem) {
        free(s);
        free(reps);
        free(sw);
        for (int a = 0; a < 4; a++) free(tbuf[a]);
        return REF_NOMEM;
    }
    uint64_t at = 0;
    for (uint64_t t = 0; t < h->nt; t++) {
        int nblk = (int)(h->nb - 256 * t < 256 ? h->nb - 256 * t : 256);
        for (int j = 0; j < nblk; j++) {
            reps[j].r = block_len(h, 256 * t + (uint64_t)j);
            fn(ctx, h, 256 * t + (uint64_t)j, &reps[j]);
        }
        uint64_t s0, s1;
        int fits, form = 0;
        uint64_t size = encode_tile(h, reps, nblk, 0, quant, tbuf[0], tcodes[0], &s0, &fits, sw);
        /* section 8.1: form 1 for a real dtype and a stream that quantizes, when eligible and
         * its QUANT blocks are strictly smaller in total */
        if (h->vmajor == 2 && h->lag == 1 && h->quant) {
            uint64_t size1 =
                encode_tile(h, reps, nblk, 1, quant, tbuf[1], tcodes[1], &s1, &fits, sw);
            if (fits && s1 < s0) {
                form = 1;
                size = size1;
            }
        }
        /* section 8.2: every form the dtype allows (1 and 3 real only), when eligible; the
         * smallest padded tile, of equal sizes the lowest form */
        if (h->vmajor == 3 && h->quant) {
            for (int a = 1; a < 4; a++) {
                if (a % 2 == 1 && h->lag != 1) continue;
                uint64_t sa =
                    encode_tile(h, reps, nblk, a, quant, tbuf[a], tcodes[a], &s1, &fits, sw);
                if (fits && align16(sa) < align16(size)) {
                    form = a;
                    size = sa;
                }
            }
        }
        h->nt_l2 += form == 1;
        h->nt_form[form]++;
        wr(s + 64 + 8 * t, at | (uint64_t)form << 62, 8);
        memcpy(s + 64 + 8 * h->nt + 256 * t, tcodes[form], (size_t)nblk);
        memcpy(s + h->P + at, tbuf[form], (size_t)size);
        at = align16(at + size);
    }
    free(reps);
    free(sw);
    for (int a = 0; a < 4; a++) free(tbuf[a]);
    memcpy(s, "ECCL", 4);
    s[4] = (unsigned char)h->vmajor;
    s[5] = 0;
    s[6] = (unsigned char)h->dtype;
    s[7] = (unsigned char)h->mode;
    s[8] = 5;
    s[9] = 8;
    wr(s + 12, h->nsum, 4);
    wr(s + 16, h->count, 8);
    wr(s + 24, d2u(h->bound), 8);
    wr(s + 32, d2u(h->eb), 8);
    wr(s + 40, d2u(h->range), 8);
    wr(s + 48, h->P + at, 8);
    wr(s + 56, ref_checksum(s, h->P + at), 8);
    *out = s;
    *out_size = (size_t)(h->P + at);
    return REF_OK;
}

static double load_real(const ref_header *h, const unsigned char *x, uint64_t i)
{
    if (h->is64) return u2d(rd(x + 8 * i, 8));
    return (double)u2f((uint32_t)rd(x + 4 * i, 4));
}

/* A block of input values: integers if every value quantizes, with the exact encodings. */
static void rep_from_values(const ref_header *h, const unsigned char *x, uint64_t k, rep_t *b)
{
    b->qok = h->quant;
    for (int i = 0; i < b->r; i++) {
        uint64_t j = 32 * k + (uint64_t)i;
        b->u[i] = rd(x + (uint64_t)h->W * j, h->W);
        if (h->quant && !ref_quantize(h, load_real(h, x, j), &b->q[i])) b->qok = 0;
    }
}

static void compress_fn(void *ctx, const ref_header *h, uint64_t k, rep_t *b)
{
    rep_from_values(h, (const unsigned char *)ctx, k, b);
}

int ref_compress(const void *data, uint64_t count, unsigned dtype, unsigned mode, double value,
                 double range, unsigned char **out, size_t *out_size, char *why)
{
    return ref_compress_v(data, count, dtype, mode, value, range, 1, out, out_size, why);
}

int ref_compress_v(const void *data, uint64_t count, unsigned dtype, unsigned mode, double value,
                   double range, unsigned vmajor, unsigned char **out, size_t *out_size, char *why)
{
    ref_header h;
    memset(&h, 0, sizeof h);
    if (dtype < 1 || dtype > 4 || mode > 2 || vmajor < 1 || vmajor > 3) {
        say(why, "dtype %u mode %u version %u", dtype, mode, vmajor);
        return REF_INVALID;
    }
    ref_params(&h, dtype, mode, 0.0);
    double bound = mode == 0 ? 0.0 : value, rng = 0.0, eb;
    if (mode == 2) {
        if (range < 0) { /* section 3.1: max - min over the finite values, binary64 */
            double lo = INFINITY, hi = -INFINITY;
            uint64_t n = count * (uint64_t)h.lag;
            for (uint64_t i = 0; i < n; i++) {
                double v = load_real(&h, (const unsigned char *)data, i);
                if (isfinite(v)) {
                    if (v < lo) lo = v;
                    if (v > hi) hi = v;
                }
            }
            rng = lo <= hi ? hi - lo : 0.0;
        } else {
            rng = range;
        }
    }
    if (!eb_rule(mode, bound, rng, &eb)) {
        say(why, "invalid bound");
        return REF_INVALID;
    }
    ref_params(&h, dtype, mode, eb);
    h.vmajor = vmajor;
    h.count = count;
    h.nsum = 1;
    h.bound = bound;
    h.range = rng;
    return write_stream(&h, compress_fn, (void *)data, out, out_size);
}

unsigned ref_tile_form(const void *buf, uint64_t t)
{
    return (unsigned)(rd((const unsigned char *)buf + 64 + 8 * t, 8) >> 62);
}

/* ---- section 11 (the output keeps ha.vmajor: write_stream picks version-2 forms by 8.1, version-3
 * forms by 8.2) ---- */
typedef struct {
    int exact;      /* RAW in the input */
    int r;
    int64_t q[32];
    uint64_t u[32]; /* T encodings (for QUANT: T(q*D)) */
} inblock_t;

typedef struct {
    inblock_t *blocks;
} collect_ctx;

static void collect_cb(void *vctx, const ref_block *b)
{
    collect_ctx *c = (collect_ctx *)vctx;
    inblock_t *o = &c->blocks[b->index];
    o->exact = b->kind != REF_QUANT;
    o->r = b->r;
    memcpy(o->q, b->q, sizeof o->q);
    memcpy(o->u, b->u, sizeof o->u);
}

static uint64_t apply_T(const ref_header *h, int op, uint64_t ua, uint64_t ub)
{
    if (h->is64) {
        double a = u2d(ua), b = u2d(ub);
        if (op == 0) {
            double c = a + b;
            return isnan(c) ? 0x7FF8000000000000ull : d2u(c); /* SPEC GAP: which NaN */
        }
        if (isnan(a) || isnan(b)) return 0x7FF8000000000000ull;
        if (a == b) { /* SPEC GAP: max(-0, +0) */
            int a_neg = (int)(ua >> 63);
            return (op == 1) == !a_neg ? ua : ub;
        }
        return ((op == 1) == (a > b)) ? ua : ub;
    } else {
        float a = u2f((uint32_t)ua), b = u2f((uint32_t)ub);
        if (op == 0) {
            float c = a + b;
            return isnan(c) ? 0x7FC00000u : f2u(c);
        }
        if (isnan(a) || isnan(b)) return 0x7FC00000u;
        if (a == b) {
            int a_neg = (int)((ua >> 31) & 1);
            return (op == 1) == !a_neg ? ua : ub;
        }
        return ((op == 1) == (a > b)) ? ua : ub;
    }
}

typedef struct {
    const inblock_t *a, *b;
    const unsigned char *local;
    int op;
} hom_ctx;

static void hom_fn(void *vctx, const ref_header *h, uint64_t k, rep_t *o)
{
    const hom_ctx *c = (const hom_ctx *)vctx;
    const inblock_t *a = &c->a[k];
    inblock_t lb;
    const inblock_t *b;
    if (c->b) {
        b = &c->b[k];
    } else {
        rep_t lr;
        lr.r = o->r;
        rep_from_values(h, c->local, k, &lr);
        lb.exact = !lr.qok;
        lb.r = lr.r;
        memcpy(lb.q, lr.q, sizeof lb.q);
        memcpy(lb.u, lr.u, sizeof lb.u); /* exact values: the local encodings */
        if (!lb.exact)
            for (int i = 0; i < lb.r; i++) lb.u[i] = quant_value(h, lb.q[i]);
        b = &lb;
    }
    o->qok = !a->exact && !b->exact;
    for (int i = 0; i < o->r; i++) {
        if (o->qok) {
            int64_t x = a->q[i], y = b->q[i], v;
            v = c->op == 0 ? x + y : c->op == 1 ? (x > y ? x : y) : (x < y ? x : y);
            if (v > h->qmax || v < -h->qmax) o->qok = 0;
            o->q[i] = v;
        }
    }
    /* section 11: integers that fit stay exact values T(Q*D) even when they must be stored RAW */
    for (int i = 0; i < o->r; i++)
        o->u[i] = o->qok ? quant_value(h, o->q[i]) : apply_T(h, c->op, a->u[i], b->u[i]);
}

int ref_hom(const void *a, size_t a_size, const void *b, size_t b_size, const void *local,
            int op, unsigned char **out, size_t *out_size, char *why)
{
    ref_header ha, hb;
    int rc;
    inblock_t *ba = NULL, *bb = NULL;
    collect_ctx c;
    if ((rc = ref_parse(a, a_size, &ha, why))) return rc;
    if (b && (rc = ref_parse(b, b_size, &hb, why))) return rc;
    /* section 11: equal version major, dtype, count, mode, bound, range and eb_abs, else
     * MISMATCH */
    if (b && (ha.vmajor != hb.vmajor || ha.dtype != hb.dtype || ha.count != hb.count ||
              ha.mode != hb.mode || d2u(ha.bound) != d2u(hb.bound) || d2u(ha.eb) != d2u(hb.eb) ||
              d2u(ha.range) != d2u(hb.range))) {
        say(why, "streams differ");
        return REF_MISMATCH;
    }
    if (op < 0 || op > 2 || (op != 0 && ha.dtype >= 3)) {
        say(why, "op %d on dtype %u", op, ha.dtype);
        return REF_UNSUPPORTED;
    }
    uint32_t nb_sum = b ? hb.nsum : 1, nsum;
    if (op == 0 && ha.nsum > UINT32_MAX - nb_sum) {
        /* SPEC GAP: section 3 has no word on an nsum that no longer fits 32 bits; eccl.h neither.
         * Refused like the library does (UNSUPPORTED), before any payload is read. */
        say(why, "nsum %u + %u overflows", ha.nsum, nb_sum);
        return REF_UNSUPPORTED;
    }
    nsum = op == 0 ? ha.nsum + nb_sum : (ha.nsum > nb_sum ? ha.nsum : nb_sum);
    ba = (inblock_t *)calloc(ha.nb ? ha.nb : 1, sizeof *ba);
    bb = b ? (inblock_t *)calloc(ha.nb ? ha.nb : 1, sizeof *bb) : NULL;
    if (!ba || (b && !bb)) {
        rc = REF_NOMEM;
        goto done;
    }
    c.blocks = ba;
    if ((rc = ref_read_blocks(a, a_size, &ha, collect_cb, &c, why))) goto done;
    if (b) {
        c.blocks = bb;
        if ((rc = ref_read_blocks(b, b_size, &hb, collect_cb, &c, why))) goto done;
    }
    {
        hom_ctx hc = {ba, bb, (const unsigned char *)local, op};
        ref_header ho = ha;
        ho.nsum = nsum;
        rc = write_stream(&ho, hom_fn, &hc, out, out_size);
    }
done:
    free(ba);
    free(bb);
    return rc;
}
