/*
 * eccl.h - Error-bounded Compressed Collectives Library, public C interface.
 *
 * Plain C99. Everything is prefixed eccl_/ECCL_. Every function returns an eccl_result_t
 * (ECCL_SUCCESS = 0) unless documented otherwise; eccl_strerror() explains a code.
 * Memory: every output buffer is owned and allocated by the caller; eccl never keeps a pointer
 * to a caller's buffer after a call returns. Functions are thread-safe: they touch no global
 * mutable state (see doc/env.md for the read-once environment cache).
 *
 * The compressed stream is specified in doc/format.md; the guarantees in doc/guarantees.md.
 */
#ifndef ECCL_H
#define ECCL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ECCL_VERSION_MAJOR 0
#define ECCL_VERSION_MINOR 1
#define ECCL_VERSION_PATCH 0
/* Version of the compressed stream format written by this library (doc/format.md). */
#define ECCL_FORMAT_VERSION_MAJOR 1
#define ECCL_FORMAT_VERSION_MINOR 0

/* ---------------------------------------------------------------------------------------------
 * Result codes (values listed once, in eccl_errors.def)
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_result {
#define X(name, value, msg) name = value,
#include "eccl_errors.def"
#undef X
    ECCL_NUM_RESULTS
} eccl_result_t;

/* Human-readable, static, never NULL (unknown codes give "unknown eccl result code"). */
const char *eccl_strerror(eccl_result_t rc);

/* Library version string, e.g. "0.1.0 (cuda: no, nccl: no, openmp: yes)". Static. */
const char *eccl_version_string(void);

/* ---------------------------------------------------------------------------------------------
 * What the data is
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_dtype {
    ECCL_FLOAT32 = 1,
    ECCL_FLOAT64 = 2,
    ECCL_COMPLEX64 = 3,  /* interleaved (re, im) float32 pairs, C99 float _Complex layout */
    ECCL_COMPLEX128 = 4  /* interleaved (re, im) float64 pairs */
} eccl_dtype_t;

/* Bytes of one element of dtype (8 for ECCL_COMPLEX64), or 0 for an unknown dtype. */
size_t eccl_dtype_size(eccl_dtype_t dtype);
/* "float32", "float64", "complex64", "complex128", or "unknown". Static. */
const char *eccl_dtype_name(eccl_dtype_t dtype);

/* ---------------------------------------------------------------------------------------------
 * How it is coded: the error bound
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_mode {
    ECCL_MODE_LOSSLESS = 0, /* bit-exact reconstruction */
    ECCL_MODE_ABS = 1,      /* |x - x'| <= value for every real component */
    ECCL_MODE_REL = 2       /* |x - x'| <= value * range, range = max - min of the (finite) data */
} eccl_mode_t;

/* Pass as eccl_bound_t.range to have the range computed from the data being compressed. */
#define ECCL_RANGE_FROM_DATA (-1.0)

typedef struct eccl_bound {
    eccl_mode_t mode;
    double value; /* ABS: the absolute bound (> 0); REL: the relative factor (> 0); LOSSLESS: ignored */
    double range; /* REL only: ECCL_RANGE_FROM_DATA, or a precomputed range >= 0 (e.g. the
                     global range of a distributed array, so every rank uses the same bound) */
} eccl_bound_t;

/* Convenience initializers: eccl_bound_t b = ECCL_BOUND_ABS(1e-4); */
#define ECCL_BOUND_ABS(e) {ECCL_MODE_ABS, (e), 0.0}
#define ECCL_BOUND_REL(e) {ECCL_MODE_REL, (e), ECCL_RANGE_FROM_DATA}
#define ECCL_BOUND_LOSSLESS {ECCL_MODE_LOSSLESS, 0.0, 0.0}

/* Reduction operations (codec: SUM, MAX, MIN; collectives add AVG and the PROD fallback). */
typedef enum eccl_op {
    ECCL_OP_SUM = 0,
    ECCL_OP_MAX = 1,
    ECCL_OP_MIN = 2,
    ECCL_OP_AVG = 3,
    ECCL_OP_PROD = 4
} eccl_op_t;

/* ---------------------------------------------------------------------------------------------
 * Codec
 * ------------------------------------------------------------------------------------------- */

/* Worst-case compressed size in bytes of `count` elements of `dtype`: eccl_compress never writes
 * more. Returns 0 for an unknown dtype or when the size would not fit in size_t. */
size_t eccl_compress_bound(size_t count, eccl_dtype_t dtype);

/* Minimum and maximum over the finite real components of data (NaN and +-inf skipped; each
 * complex element contributes its real and imaginary parts). With no finite value, *min = *max = 0.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointer with count > 0, NULL min/max, unknown dtype). */
eccl_result_t eccl_data_range(const void *data, size_t count, eccl_dtype_t dtype, double *min,
                              double *max);

/* The absolute bound that compressing `data` with `bound` guarantees (what the header's eb_abs
 * will hold): ABS: min(value, 2^1020); REL: min(value * range, 2^1020), the range taken from
 * bound->range or computed from data; LOSSLESS: 0. data may be NULL unless the range must be
 * computed. Errors: ECCL_ERR_INVALID_ARG (value <= 0, NaN or inf for a lossy mode, negative or NaN
 * range other than ECCL_RANGE_FROM_DATA, unknown mode or dtype). */
eccl_result_t eccl_bound_resolve(const eccl_bound_t *bound, const void *data, size_t count,
                                 eccl_dtype_t dtype, double *eb_abs);

/* Compress `count` elements of `dtype` from host memory `data` into `out` (capacity
 * `out_capacity` bytes), writing the stream size to *out_size.
 * Guarantee: eccl_decompress returns x' with |x - x'| <= eb_abs for every real component
 * (bit-exact for LOSSLESS; NaN, +-inf and values stored losslessly come back bit for bit; in
 * lossy modes a -0.0 may come back as +0.0).
 * The output is deterministic: same input and parameters give the same bytes on every machine
 * and thread count, and on the GPU codec.
 * Uses OpenMP threads (when built with --enable-openmp) as the caller's OpenMP settings allow.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointers, bad bound, unknown dtype),
 *         ECCL_ERR_BUFFER_TOO_SMALL (out_capacity too small: eccl_compress_bound() always
 *         suffices; *out_size then holds that bound), ECCL_ERR_NO_MEMORY. */
eccl_result_t eccl_compress(const void *data, size_t count, eccl_dtype_t dtype,
                            const eccl_bound_t *bound, void *out, size_t out_capacity,
                            size_t *out_size);

/* Decompress a whole stream of `stream_size` bytes into `data`, which holds `count` elements of
 * `dtype` (both must match the stream's header). Every field, offset and the checksum are
 * validated before use: nothing outside the given buffers is ever read or written.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointers), ECCL_ERR_CORRUPT (not a valid eccl stream,
 *         truncated, or checksum mismatch), ECCL_ERR_MISMATCH (count or dtype differ from the
 *         stream's), ECCL_ERR_UNSUPPORTED (a newer major format version). */
eccl_result_t eccl_decompress(const void *stream, size_t stream_size, void *data, size_t count,
                              eccl_dtype_t dtype);

/* What a stream's header and block codes say (no payload decoding; the checksum is checked). */
typedef struct eccl_stream_info {
    int version_major, version_minor;
    eccl_dtype_t dtype;
    eccl_mode_t mode;
    uint64_t count;        /* elements of dtype */
    double bound;          /* the user's bound value (REL: the factor) */
    double eb_abs;         /* the absolute bound in force */
    double range;          /* REL: the range used; else 0 */
    uint32_t nsum;         /* contributions summed into this stream (1 = plain compressed data) */
    uint64_t stream_size;  /* bytes */
    uint64_t nblocks;      /* blocks of 32 reals */
    uint64_t nblocks_zero; /* all-zero blocks (1 byte each) */
    uint64_t nblocks_quant;/* quantized blocks (zero blocks included) */
    uint64_t nblocks_raw;  /* blocks stored exactly (lossless) */
} eccl_stream_info_t;

/* Parse and validate a stream's header, index and block codes, and verify its checksum.
 * Errors: ECCL_ERR_INVALID_ARG, ECCL_ERR_CORRUPT, ECCL_ERR_UNSUPPORTED. */
eccl_result_t eccl_stream_info(const void *stream, size_t stream_size, eccl_stream_info_t *info);

/* Homomorphic reduction: the compressed stream of op(decompress(stream), local) computed in the
 * quantized domain (no decompress-operate-compress), doc/format.md section 11.
 * `local` holds the stream's count elements of its dtype (count and dtype must match).
 * op: ECCL_OP_SUM (integer-domain sum: errors add, nsum grows by 1), ECCL_OP_MAX/ECCL_OP_MIN
 * (error stays within eb_abs; real dtypes only). The stream must be lossy (ABS or REL); on a
 * LOSSLESS stream the result is the exact value of op applied in the element type.
 * out may not overlap stream. Errors: as eccl_decompress, plus ECCL_ERR_UNSUPPORTED (op not
 * SUM/MAX/MIN, or MAX/MIN on complex), ECCL_ERR_BUFFER_TOO_SMALL (eccl_compress_bound suffices). */
eccl_result_t eccl_hom_reduce(const void *stream, size_t stream_size, const void *local,
                              size_t count, eccl_dtype_t dtype, eccl_op_t op, void *out,
                              size_t out_capacity, size_t *out_size);

/* Homomorphic combination of two streams of the same dtype, count and eb_abs (ECCL_ERR_MISMATCH
 * otherwise): the stream of op(a, b); nsum adds (SUM) or takes the maximum (MAX/MIN).
 * Commutative: combine(a, b) and combine(b, a) produce identical bytes. */
eccl_result_t eccl_hom_combine(const void *a, size_t a_size, const void *b, size_t b_size,
                               eccl_op_t op, void *out, size_t out_capacity, size_t *out_size);

#ifdef __cplusplus
}
#endif
#endif /* ECCL_H */
