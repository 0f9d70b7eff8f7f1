/*
 * ref_decoder.h - an independent implementation of the eccl stream format, written from
 * doc/format.md alone (it does not include or reuse anything from src/).
 *
 * Its purpose is to check that the specification is complete and that the library follows it:
 *  - ref_parse/ref_read_blocks/ref_decode read a stream of version 1, 2 or 3 and validate it
 *    (sections 2-7, 9; tile forms 4.1; version 3's sparse blocks 6.4 and their tiles' layout 7);
 *  - ref_compress/ref_compress_v and ref_hom write the stream the normative encoder rules
 *    (sections 8, 8.1, 8.2 and 11) prescribe, so tests can compare the library's bytes with them.
 *
 * Result values are numerically equal to the eccl result codes (0 success, 2 unsupported,
 * 5 corrupt, 6 mismatch) so tests can compare them directly, but nothing here needs eccl.h.
 * Every failing call writes a short reason into `why` (at least REF_WHY_LEN bytes, may be NULL).
 */
#ifndef ECCL_REF_DECODER_H
#define ECCL_REF_DECODER_H

#include <stddef.h>
#include <stdint.h>

enum {
    REF_OK = 0,
    REF_INVALID = 1,
    REF_UNSUPPORTED = 2,
    REF_CORRUPT = 5,
    REF_MISMATCH = 6,
    REF_NOMEM = 7
};
enum { REF_WHY_LEN = 160 };

/* block kinds */
enum { REF_QUANT = 0, REF_RAW_CODED = 1, REF_RAW_VERBATIM = 2 };
/* what a QUANT block predicts with (section 4.1; p = 1 means NONE in a form-0 tile, L2 in form 1,
 * a sparse block of first-order deltas (S1) in form 2, of second-order deltas (S2) in form 3) */
enum { REF_PRED_LORENZO = 0, REF_PRED_NONE = 1, REF_PRED_L2 = 2, REF_PRED_S1 = 3, REF_PRED_S2 = 4 };

typedef struct ref_header {
    /* the fields as stored (section 3) */
    unsigned vmajor, vminor, dtype, mode, blocklog, tilelog, flags;
    uint32_t nsum;
    uint64_t count;
    double bound, eb, range;
    uint64_t stream_size, checksum;
    /* derived */
    int is64, W, lag, H, FQ;
    uint64_t n, nb, nt, P, payload_size;
    uint64_t nt_l2; /* tiles of form 1 (versions 2 and 3, section 4.1); filled by ref_parse */
    uint64_t nt_form[4]; /* tiles of each form a (section 4.1); filled by ref_parse */
    int quant;     /* QUANT blocks allowed: lossy mode and eb >= 2^-1000 */
    double D, R;   /* quantum and reciprocal (when quant) */
    int64_t qmax;
} ref_header;

/* One block as read from a stream: everything a field-by-field check needs. */
typedef struct ref_block {
    uint64_t index;      /* block number */
    unsigned code;       /* the block code byte */
    int kind;            /* REF_QUANT, REF_RAW_CODED, REF_RAW_VERBATIM */
    int s, p, F, head;   /* sign mode, predictor bit, planes (stored), head block */
    int form;            /* the tile's form a (section 4.1; 0 in version 1) */
    int pred;            /* QUANT: REF_PRED_* */
    int sparse;          /* a sparse block (p = 1 in a form-2 or form-3 tile, section 6.4) */
    int r;               /* reals in the block */
    uint64_t offset;     /* payload offset from the start of the stream */
    int size;            /* payload bytes */
    int64_t q0;          /* head QUANT carrying its first value (Lorenzo, L2, sparse): that value */
    uint32_t sign_map;   /* as stored (0 when absent); sparse: the compacted sign word (k bits) */
    uint32_t planes[64]; /* as stored; sparse: the compacted planes C_b (k bits each) */
    /* sparse blocks with F > 0 (section 6.4; all 0 otherwise) */
    uint32_t zmap;       /* the nonzero map Z */
    int k;               /* popcount(Z) */
    uint64_t sp_offset;  /* the tile's sparse stream: its offset from the start of the stream */
    uint64_t sp_bit;     /* the block's first bit in that stream */
    int sp_bits;         /* its bits: (s = 0 ? k : 0) + F*k */
    int64_t d[32];       /* QUANT deltas (d_0 = 0 when not coded) */
    int64_t q[32];       /* QUANT integers */
    uint64_t key[32];    /* RAW keys */
    uint64_t u[32];      /* decoded encodings of T (low 32 bits for f32) */
} ref_block;

/* Section 9: the checksum of a stream of `stream_size` bytes (a multiple of 4). */
uint64_t ref_checksum(const unsigned char *s, uint64_t stream_size);
/* Recompute and store the checksum of a (possibly modified) stream: over the header's stream_size
 * when that fits in `size` and is a multiple of 4, else over `size` rounded down to 4. Needs
 * size >= 64. */
void ref_fix_checksum(unsigned char *s, size_t size);

/* Header, checksum, block codes, tile index and padding (no payload decoding). size must be the
 * stream's size, its stream_size field (doc/format.md section 3). */
int ref_parse(const void *buf, size_t size, ref_header *h, char *why);

/* Parse, then decode every block in order (canonical form checked), calling cb for each. */
typedef void (*ref_block_cb)(void *ctx, const ref_block *b);
int ref_read_blocks(const void *buf, size_t size, ref_header *h, ref_block_cb cb, void *ctx,
                    char *why);

/* Full decode into `out` (count elements of dtype, checked against the header: REF_MISMATCH). */
int ref_decode(const void *buf, size_t size, void *out, uint64_t count, unsigned dtype,
               char *why);

/* Section 8: the version-1 stream eccl_compress must produce. mode 0/1/2; range < 0: from the
 * data. *out is malloc'ed (free it). */
int ref_compress(const void *data, uint64_t count, unsigned dtype, unsigned mode, double value,
                 double range, unsigned char **out, size_t *out_size, char *why);
/* The same for version vmajor (1, 2 or 3; version 2 chooses each tile's form by section 8.1,
 * version 3 by section 8.2). */
int ref_compress_v(const void *data, uint64_t count, unsigned dtype, unsigned mode, double value,
                   double range, unsigned vmajor, unsigned char **out, size_t *out_size, char *why);
/* The form of tile t of a stream ref_parse accepted (section 4): entry >> 62. */
unsigned ref_tile_form(const void *buf, uint64_t t);

/* Section 11: the stream of op(a, b) (b != NULL) or op(a, local) (b == NULL). op: 0 SUM,
 * 1 MAX, 2 MIN. The output has the inputs' major version (REF_MISMATCH when a and b differ in it);
 * each output tile's form is chosen by section 8.1 in version 2, by 8.2 in version 3. NaN results
 * are written as the canonical quiet NaN and MAX/MIN order -0 below +0 (section 11 leaves both
 * open; these are the library's documented choices, see the tests). */
int ref_hom(const void *a, size_t a_size, const void *b, size_t b_size, const void *local,
            int op, unsigned char **out, size_t *out_size, char *why);

/* Fill the derived fields of h (is64 .. qmax) for dtype, mode and eb_abs. */
void ref_params(ref_header *h, unsigned dtype, unsigned mode, double eb_abs);
/* Section 8 step 1 for one real value x under a stream's parameters: returns 1 if quantizable. */
int ref_quantize(const ref_header *h, double x, int64_t *q);
/* Section 3.2 */
double ref_quantum(double eb_abs);

#endif
