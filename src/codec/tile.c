/*
 * tile.c - the tile encoder of versions 2 and 3 (doc/format.md sections 8.1 and 8.2): one tile's
 * blocks, given as integers or exact values, coded in the cheapest of the tile forms.
 *
 * Form 0 is version 1's encoding (the block code's predictor bit chooses Lorenzo or none); form L2
 * lets that bit choose second-order Lorenzo instead; version 3's forms S1 and S2 let it choose a
 * sparse block of first- or second-order deltas. The QUANT/RAW kind of every block and hence the
 * head blocks are those of form 0 in all, so each block's size under each form is known block by
 * block and the choice is a comparison of sums. Compression and the homomorphic operations both
 * end here for version-2 and version-3 streams, so they choose alike.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "codec/fast.h"

/* Encode the representation b as RAW: its exact values or the input's (section 8 step 2), else
 * the values of its integers (section 11). */
static int encode_raw_rep(const eccl_qparams_t *p, int fast, const eccl_blockrep_t *b,
                          unsigned char *out, unsigned *code)
{
    uint64_t v[32];
    const uint64_t *src = b->v;
    if (!b->exact && !b->input) {
        for (int i = 0; i < b->r; i++) v[i] = eccl_block_rep_bits(p, b, i);
        src = v;
    }
    return eccl_tile_encode_raw(p, fast, src, b->r, out, code);
}

int eccl_tile_encode_raw(const eccl_qparams_t *p, int fast, const uint64_t *v, int r, unsigned char *out,
                         unsigned *code)
{
    if (fast && r == 32) {
        int z;
        if (p->is64) {
            z = eccl_fast_encode_raw64(v, p->lag, out, code);
        } else {
            uint32_t v32[32];
            for (int i = 0; i < 32; i++) v32[i] = (uint32_t)v[i];
            z = eccl_fast_encode_raw32(v32, p->lag, out, code);
        }
        if (z >= 0) return z;
    }
    return eccl_block_encode_raw(p, v, r, out, code);
}

/* A QUANT block priced in both forms (price_forms of block.c or its AVX2 twin). */
static void price(const eccl_qparams_t *p, int fast, const eccl_blockrep_t *b, const eccl_pred_t *pr,
                  int want_l2, int *size, unsigned *code)
{
    if (fast && b->r == 32) {
        if (p->is64) eccl_fast_price_forms64(p, b->q, pr, want_l2, size, code);
        else eccl_fast_price_forms32(p, b->q, pr, want_l2, size, code);
        return;
    }
    eccl_block_price_forms(p, b->q, b->r, pr->have ? pr->q : NULL, want_l2, size, code);
}

static int write_quant(const eccl_qparams_t *p, int fast, const eccl_blockrep_t *b,
                       const eccl_pred_t *pr, unsigned form, unsigned code, unsigned char *out)
{
    if (fast && b->r == 32)
        return p->is64 ? eccl_fast_write_quant64(p, b->q, pr, form, code, out)
                       : eccl_fast_write_quant32(p, b->q, pr, form, code, out);
    return eccl_block_write_quant(p, b->q, b->r, pr->have ? pr->q : NULL, form, code, out);
}

void eccl_tile_rep_values(const eccl_qparams_t *p, int fast, const void *x, int r, eccl_blockrep_t *b)
{
    if (fast && p->quant && r == 32) {
        int ok;
        if (p->is64) {
            ok = eccl_fast_quantize_f64(p, (const double *)x, b->q);
        } else {
            int32_t q32[32];
            ok = eccl_fast_quantize_f32(p, (const float *)x, q32);
            for (int i = 0; ok && i < 32; i++) b->q[i] = q32[i];
        }
        if (ok) { /* (the input's encodings too, as block.c keeps them: section 8 step 2) */
            eccl_block_encodings(p->is64, x, b->v);
            b->r = 32;
            b->exact = 0;
            b->input = 1;
            return;
        }
    }
    eccl_block_rep_from_values(p, x, r, b);
}

/* ---- version 3 (section 8.2) ---- */
/* The forms a version-3 tile of this stream may take (bit a: form a; section 4.1). */
static unsigned forms_v3(const eccl_qparams_t *p)
{
    unsigned want = 1u;
    for (unsigned a = 1; a < 4; a++) want |= (unsigned)eccl_fmt_form_ok(a, 3, p->quant, p->lag) << a;
    return want;
}

/* Pass 1's sums: QUANT block k's prices (eccl_block_price_all's cost, bytes and codes) added. */
typedef struct {
    unsigned want;
    uint64_t bytes[4], bits[4], raw; /* per form: the QUANT blocks' bytes and stream bits; RAW bytes */
    int eligible[4];
    unsigned char code[4][ECCL_FMT_TILE_BLOCKS];
} sums_v3_t;

static void sums_add(sums_v3_t *t, int k, const int *cost, const int *by, const unsigned *cd)
{
    for (int a = 0; a < 4; a++) {
        if (!((t->want >> a) & 1u)) continue;
        if (cost[a] < 0) t->eligible[a] = 0;
        t->code[a][k] = (unsigned char)cd[a];
        t->bytes[a] += (uint64_t)(by[a] < 0 ? 0 : by[a]);
        t->bits[a] += (uint64_t)(cost[a] < 0 ? 0 : cost[a] - 8 * by[a]);
    }
}

/* The tile's form: the smallest padded tile among form 0 and the eligible forms, ties to the lowest
 * form. Its size in *best; the payload's [B, *best) zeroed (padding, and the sparse stream the
 * writer ORs into), and the writer set at the stream's start. */
static unsigned sums_pick(const sums_v3_t *t, unsigned char *payload, uint64_t *best, eccl_bitw_t *bw)
{
    unsigned f = 0;
    *best = eccl_fmt_align16(t->raw + t->bytes[0]);
    for (unsigned a = 1; a < 4; a++) {
        if (!((t->want >> a) & 1u) || !t->eligible[a]) continue;
        uint64_t size = a >= ECCL_FMT_FORM_S1 ? eccl_fmt_sparse_tile_size(t->raw + t->bytes[a], t->bits[a])
                                              : eccl_fmt_align16(t->raw + t->bytes[a]);
        if (size < *best) *best = size, f = a;
    }
    uint64_t B = t->raw + t->bytes[f];
    memset(payload + B, 0, (size_t)(*best - B));
    bw->base = payload + ((B + 3u) & ~(uint64_t)3u);
    bw->pos = 0;
    return f;
}

/* Version 3 (section 8.2): every form priced in bits (the AVX2 pricing for full blocks with fast,
 * block.c's otherwise), the smallest padded tile kept; a sparse block written as its dense block
 * compacted where the AVX2 coder runs. */
static int64_t tile_encode_v3(const eccl_qparams_t *p, int fast, const eccl_blockrep_t *reps, int nblk,
                              unsigned char *codes, unsigned *form, unsigned char *payload)
{
    unsigned char quant[ECCL_FMT_TILE_BLOCKS];
    sums_v3_t t = {forms_v3(p), {0, 0, 0, 0}, {0, 0, 0, 0}, 0, {1, 1, 1, 1}, {{0}}};
    const unsigned want = t.want;
    eccl_pred_t pr = {0, {0, 0, 0}};
    unsigned char scratch[32 * 8];
    /* pass 1: form-0 kinds, every form's codes, bytes and bits */
    for (int k = 0; k < nblk; k++) {
        const eccl_blockrep_t *b = &reps[k];
        int cost[4], by[4];
        unsigned cd[4];
        quant[k] = 0;
        if (!b->exact) {
            if (fast && b->r == 32) {
                if (p->is64) eccl_fast_price_all64(p, b->q, &pr, want, cost, by, cd);
                else eccl_fast_price_all32(p, b->q, &pr, want, cost, by, cd);
            } else {
                eccl_block_price_all(p, b->q, b->r, pr.have ? pr.q : NULL, want, cost, by, cd);
            }
            if (cost[0] >= 0) {
                quant[k] = 1;
                sums_add(&t, k, cost, by, cd);
                eccl_pred_set(&pr, b->q, b->r, p->lag);
                continue;
            }
        }
        pr.have = 0;
        unsigned rc;
        t.raw += (uint64_t)encode_raw_rep(p, fast, b, scratch, &rc); /* (its size; written in pass 2) */
    }
    /* pass 2: the payloads, a sparse tile's stream after them */
    uint64_t best;
    eccl_bitw_t bw;
    const unsigned f = sums_pick(&t, payload, &best, &bw);
    int64_t off = 0;
    pr.have = 0;
    for (int k = 0; k < nblk; k++) {
        const eccl_blockrep_t *b = &reps[k];
        unsigned c;
        int size;
        if (quant[k]) {
            c = t.code[f][k];
            if (!eccl_fmt_code_sparse(c, f)) {
                /* (in a sparse tile a block that is not sparse has p = 0: Lorenzo, whatever the form) */
                size = write_quant(p, fast, b, &pr, f >= ECCL_FMT_FORM_S1 ? ECCL_FMT_FORM_NONE : f, c, payload + off);
            } else if (fast && b->r == 32) { /* the AVX2 dense coder, then compacted */
                unsigned char dense[6 + 4 + 4 * ECCL_FMT_FQ64];
                write_quant(p, 1, b, &pr, eccl_sparse_dense_form(f), eccl_sparse_dense_code(c, f), dense);
                size = eccl_fast_sparse_from_dense(dense, !pr.have, c, p->is64, payload + off, &bw);
            } else {
                size = eccl_block_write_sparse(p, b->q, b->r, pr.have ? pr.q : NULL, f, c, payload + off, &bw);
            }
            eccl_pred_set(&pr, b->q, b->r, p->lag);
        } else {
            pr.have = 0;
            size = encode_raw_rep(p, fast, b, payload + off, &c);
        }
        codes[k] = (unsigned char)c;
        off += size;
    }
    *form = f;
    return (int64_t)best;
}

int64_t eccl_tile_encode_v2(const eccl_qparams_t *p, int fast, int vmajor, const eccl_blockrep_t *reps,
                            int nblk, unsigned char *codes, unsigned *form, unsigned char *payload)
{
    if (vmajor >= 3) return tile_encode_v3(p, fast, reps, nblk, codes, form, payload);
    /* pass 1: form-0 kinds (quant[k]), both forms' codes, eligibility and the two sums */
    unsigned char quant[ECCL_FMT_TILE_BLOCKS], code1[ECCL_FMT_TILE_BLOCKS];
    int eligible = p->quant && p->lag == 1;
    int64_t s0 = 0, s1 = 0;
    eccl_pred_t pr = {0, {0, 0, 0}};
    for (int k = 0; k < nblk; k++) {
        const eccl_blockrep_t *b = &reps[k];
        int size[2] = {-1, -1};
        unsigned code[2] = {0, 0};
        quant[k] = 0;
        if (!b->exact) {
            price(p, fast, b, &pr, eligible, size, code);
            if (size[0] >= 0) {
                quant[k] = 1;
                codes[k] = (unsigned char)code[0];
                code1[k] = (unsigned char)code[1];
                s0 += size[0];
                if (eligible && size[1] < 0) eligible = 0;
                s1 += size[1];
                eccl_pred_set(&pr, b->q, b->r, p->lag);
                continue;
            }
        }
        pr.have = 0;
    }
    unsigned f = eligible && s1 < s0 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
    /* pass 2: the payloads (every QUANT block fits in form f: pass 1 made sure) */
    int64_t off = 0;
    pr.have = 0;
    for (int k = 0; k < nblk; k++) {
        const eccl_blockrep_t *b = &reps[k];
        unsigned code;
        int size;
        if (quant[k]) {
            code = f == ECCL_FMT_FORM_L2 ? code1[k] : codes[k];
            size = write_quant(p, fast, b, &pr, f, code, payload + off);
            eccl_pred_set(&pr, b->q, b->r, p->lag);
        } else {
            pr.have = 0;
            size = encode_raw_rep(p, fast, b, payload + off, &code);
        }
        codes[k] = (unsigned char)code;
        off += size;
    }
    *form = f;
    return eccl_tile_pad(payload, off);
}

int eccl_tile_quantize(const eccl_qparams_t *p, const void *x, void *q)
{
    /* (a block the AVX2 quantizer finds certainly unquantizable skips the reference: on data that
     * does not quantize, trinidad at ABS 1e-6, it took 44% of version 3's compression) */
    if (p->is64)
        return eccl_fast_quantize_f64(p, (const double *)x, (int64_t *)q) ||
               (!eccl_fast_unquantizable_f64(p, (const double *)x) && eccl_block_quantize(p, x, 32, (int64_t *)q));
    int32_t *q32 = (int32_t *)q;
    int never = 0;
    if (eccl_fast_quantize_f32_never(p, (const float *)x, q32, &never)) return 1;
    if (never) return 0;
    int64_t q64[32];
    if (!eccl_block_quantize(p, x, 32, q64)) return 0;
    for (int i = 0; i < 32; i++) q32[i] = (int32_t)q64[i]; /* (|q| <= QMAX32 fits int32) */
    return 1;
}

void *eccl_tile_slots_alloc(int is64)
{
    return aligned_alloc(32, (size_t)ECCL_FMT_TILE_BLOCKS * ECCL_TILE_SLOT * (is64 ? 8u : 4u));
}

/* Slot k's integers with their predecessors set (the previous block's last two integers; a head
 * block: its first, twice), as the AVX2 slot coders take them. */
static void *slot_preds(void *slots, int is64, int k, int head)
{
    if (is64) {
        int64_t *q = (int64_t *)eccl_tile_slot(slots, 1, k);
        q[-2] = head ? q[0] : q[-ECCL_TILE_SLOT + 30];
        q[-1] = head ? q[0] : q[-ECCL_TILE_SLOT + 31];
        return q;
    }
    int32_t *q = (int32_t *)eccl_tile_slot(slots, 0, k);
    q[-2] = head ? q[0] : q[-ECCL_TILE_SLOT + 30];
    q[-1] = head ? q[0] : q[-ECCL_TILE_SLOT + 31];
    return q;
}

/* The payload size of the RAW block of the 32 encodings at v (pass 1 of version 3, whose pass 2
 * writes it): the AVX2 coder's size alone, which does not write the planes (encoding the block in
 * both passes took a quarter of version 3's compression on data that does not quantize), else the
 * block encoded into scratch. */
static int raw_size_fast(const eccl_qparams_t *p, const uint64_t *v, unsigned char *scratch)
{
    unsigned rc;
    int z;
    if (p->is64) {
        z = eccl_fast_encode_raw64(v, p->lag, NULL, &rc);
    } else {
        uint32_t v32[32];
        for (int i = 0; i < 32; i++) v32[i] = (uint32_t)v[i];
        z = eccl_fast_encode_raw32(v32, p->lag, NULL, &rc);
    }
    return z >= 0 ? z : eccl_tile_encode_raw(p, 1, v, 32, scratch, &rc);
}

/* Version 3 on the slots: tile_encode_v3's two passes through the AVX2 coders. */
static int64_t slots_v3(const eccl_qparams_t *p, void *slots, const unsigned char *quant, int nblk, eccl_tile_raw_fn raw,
                        void *ctx, unsigned char *codes, unsigned *form, unsigned char *payload)
{
    const int is64 = p->is64;
    sums_v3_t t = {forms_v3(p), {0, 0, 0, 0}, {0, 0, 0, 0}, 0, {1, 1, 1, 1}, {{0}}};
    const unsigned want = t.want;
    unsigned char scratch[32 * 8];
    /* pass 1: predecessors (as in eccl_tile_encode_slots), every form's price; a RAW block's size */
    for (int k = 0; k < nblk; k++) {
        if (!quant[k]) {
            uint64_t v[32];
            raw(ctx, k, v);
            t.raw += (uint64_t)raw_size_fast(p, v, scratch);
            continue;
        }
        const int head = k == 0 || !quant[k - 1];
        int cost[4], by[4];
        unsigned cd[4];
        void *q = slot_preds(slots, is64, k, head);
        if (is64) eccl_fast_price_all64i(p, (const int64_t *)q, head, want, cost, by, cd);
        else eccl_fast_price_all32i(p, (const int32_t *)q, head, want, cost, by, cd);
        sums_add(&t, k, cost, by, cd); /* (form 0 always fits a full block: eccl_tile_encode_slots) */
    }
    /* pass 2 */
    uint64_t best;
    eccl_bitw_t bw;
    const unsigned f = sums_pick(&t, payload, &best, &bw);
    int64_t off = 0;
    for (int k = 0; k < nblk; k++) {
        const int head = k == 0 || !quant[k - 1];
        unsigned c;
        if (quant[k]) {
            c = t.code[f][k];
            const void *q = eccl_tile_slot(slots, is64, k);
            const int sparse = eccl_fmt_code_sparse(c, f);
            int size = sparse && !is64 ? eccl_fast_write_sparse32i(p, (const int32_t *)q, head, f, c, payload + off, &bw)
                                       : ECCL_FAST_DECLINE;
            if (size == ECCL_FAST_DECLINE) { /* (a sparse block: its dense twin, then compacted) */
                unsigned char dense[6 + 4 + 4 * ECCL_FMT_FQ64], *o = sparse ? dense : payload + off;
                unsigned wf = sparse ? eccl_sparse_dense_form(f) : f >= ECCL_FMT_FORM_S1 ? ECCL_FMT_FORM_NONE : f;
                unsigned wc = sparse ? eccl_sparse_dense_code(c, f) : c;
                size = is64 ? eccl_fast_write_quant64i(p, (const int64_t *)q, head, wf, wc, o)
                            : eccl_fast_write_quant32i(p, (const int32_t *)q, head, wf, wc, o);
                if (sparse) size = eccl_fast_sparse_from_dense(dense, head, c, is64, payload + off, &bw);
            }
            off += size;
        } else {
            uint64_t v[32];
            raw(ctx, k, v);
            off += eccl_tile_encode_raw(p, 1, v, 32, payload + off, &c);
        }
        codes[k] = (unsigned char)c;
    }
    *form = f;
    return (int64_t)best;
}

int64_t eccl_tile_encode_slots(const eccl_qparams_t *p, int vmajor, void *slots, const unsigned char *quant, int nblk,
                               eccl_tile_raw_fn raw, void *ctx, unsigned char *codes, unsigned *form,
                               unsigned char *payload)
{
    if (vmajor >= 3) return slots_v3(p, slots, quant, nblk, raw, ctx, codes, form, payload);
    const int is64 = p->is64;
    unsigned char code1[ECCL_FMT_TILE_BLOCKS];
    int64_t s0 = 0, s1 = 0, off = 0;
    int eligible = p->lag == 1;
    /* pass 1: each QUANT block's predecessors (the previous block's last two integers; a head
     * block: its first, twice) and its price in both forms */
    for (int k = 0; k < nblk; k++) {
        if (!quant[k]) continue;
        const int head = k == 0 || !quant[k - 1];
        int size[2] = {-1, -1};
        unsigned code[2] = {0, 0};
        void *q = slot_preds(slots, is64, k, head);
        if (is64) eccl_fast_price_forms64i(p, (const int64_t *)q, head, eligible, size, code);
        else eccl_fast_price_forms32i(p, (const int32_t *)q, head, eligible, size, code);
        /* (a full block's form-0 encoding always fits: predictor none alone takes at most 4 + 4 * 30
         * bytes for float32, whose |q| <= QMAX32 < 2^30, and 64-bit blocks always fit) */
        codes[k] = (unsigned char)code[0];
        code1[k] = (unsigned char)code[1];
        s0 += size[0];
        if (eligible && size[1] < 0) eligible = 0;
        s1 += size[1];
    }
    *form = eligible && s1 < s0 ? ECCL_FMT_FORM_L2 : ECCL_FMT_FORM_NONE;
    /* pass 2: the payloads */
    for (int k = 0; k < nblk; k++) {
        const int head = k == 0 || !quant[k - 1];
        unsigned code;
        if (quant[k]) {
            code = *form == ECCL_FMT_FORM_L2 ? code1[k] : codes[k];
            const void *q = eccl_tile_slot(slots, is64, k);
            off += is64 ? eccl_fast_write_quant64i(p, (const int64_t *)q, head, *form, code, payload + off)
                        : eccl_fast_write_quant32i(p, (const int32_t *)q, head, *form, code, payload + off);
        } else {
            uint64_t v[32];
            raw(ctx, k, v);
            off += eccl_tile_encode_raw(p, 1, v, 32, payload + off, &code);
        }
        codes[k] = (unsigned char)code;
    }
    return eccl_tile_pad(payload, off);
}
