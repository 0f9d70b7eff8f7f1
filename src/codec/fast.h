/* fast.h - the AVX2 block paths (block_fast.c, block_fast64.c, range_fast.c); see block_fast.c for the
 * contract. */
#ifndef ECCL_CODEC_FAST_H
#define ECCL_CODEC_FAST_H

#include "codec/codec.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ECCL_HAVE_X86_FAST 1
#else
#define ECCL_HAVE_X86_FAST 0
#endif

enum { ECCL_FAST_DECLINE = -2, ECCL_FAST_RAW = -3 };

/* 1 when this CPU can run the fast paths (checked per call: it is a load and a test). The
 * environment variable ECCL_CODEC_REFERENCE=1 forces the reference path (tests and debugging). */
int eccl_fast_available(void);

/* Full blocks (r = 32) only. Encode: returns the payload size, or ECCL_FAST_DECLINE (pr untouched),
 * or ECCL_FAST_RAW: some value does not quantize in any case, the block is RAW (section
 * 8 step 2; the caller clears pr, as the reference does).
 * Decode (QUANT and RAW blocks): returns 0, -1 (not canonical: the caller asks the reference path
 * to confirm), or ECCL_FAST_DECLINE (the reference path decodes the block: only where the fast
 * paths are not built, or for codes the stream's structural checks already refuse). */
int eccl_fast_encode_f32(const eccl_qparams_t *p, const float *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_encode_f64(const eccl_qparams_t *p, const double *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_decode_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, float *x);
/* The RAW block (section 8 step 2) of 32 float32 encodings at v, prediction distance lag (1, or
 * 2 for complex64): the bytes of eccl_block_encode_raw; returns the payload size (never declines
 * where the fast paths are available). out NULL: the size and the code only, nothing written. */
int eccl_fast_encode_raw32(const uint32_t *v, int lag, unsigned char *out, unsigned *code);
/* The same for 32 float64 encodings (lag 2: complex128). */
int eccl_fast_encode_raw64(const uint64_t *v, int lag, unsigned char *out, unsigned *code);
int eccl_fast_decode_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, double *x);
/* The two halves of eccl_fast_encode_f32, for the homomorphic operations (full blocks): quantize 32 values (1, or 0 when the reference path must decide), and encode 32
 * integers with |q| <= qmax (never declines). read_q32 is eccl_fast_decode_f32 stopping at the
 * integers: 0, -1 (not canonical: ask the reference path) or ECCL_FAST_DECLINE (RAW block); pr
 * is only updated on 0. */
int eccl_fast_quantize_f32(const eccl_qparams_t *p, const float *x, int32_t *q);
/* The same, and where it returns 0, *never = 1 when some value is certainly not quantizable (the
 * reference path would say so too: the block is RAW without asking it), 0 when the reference
 * path must decide. eccl_fast_unquantizable_f64 says the same of a 64-bit block that
 * eccl_fast_quantize_f64 refused. */
int eccl_fast_quantize_f32_never(const eccl_qparams_t *p, const float *x, int32_t *q, int *never);
int eccl_fast_unquantizable_f64(const eccl_qparams_t *p, const double *x);
int eccl_fast_encode_q32(const eccl_qparams_t *p, const int32_t *q, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_read_q32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                       eccl_pred_t *pr, int32_t *q);
/* The same for 64-bit types (QUANT blocks of any F, the 45 planes of fc = 31 included). */
int eccl_fast_quantize_f64(const eccl_qparams_t *p, const double *x, int64_t *q);
int eccl_fast_encode_q64(const eccl_qparams_t *p, const int64_t *q, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_read_q64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                       eccl_pred_t *pr, int64_t *q);
/* Version 2 (doc/format.md 8.1), full blocks of integers (|q| <= qmax) predicted from pr (not
 * updated: the caller sets it). price_forms: the QUANT encoding's size and code in a form-0 tile
 * (size[0], code[0]) and, with want_l2, in a form-L2 tile (size[1], code[1]); a size is -1 where
 * it exceeds 32*W (block.c eccl_block_price_forms). write_quant: the payload of the encoding `code`
 * chose in a tile of form `form`; returns its size (block.c eccl_block_write_quant's bytes).
 * read_l2: the integers of a second-order block (p = 1 in a form-L2 tile): 0 (pr updated), or -1
 * (not canonical or out of range: the reference path confirms; pr unchanged). */
void eccl_fast_price_forms32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                             int want_l2, int *size, unsigned *code);
void eccl_fast_price_forms64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                             int want_l2, int *size, unsigned *code);
int eccl_fast_write_quant32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                            unsigned form, unsigned code, unsigned char *out);
/* The float32 ones on int32 integers at q[0..31] whose predecessors the caller has put at q[-2]
 * (the previous block's q[30]; a head block: q[0]) and q[-1] (its q[31]; a head block: q[0]); q
 * 32-byte aligned. The version-2 tile path of compression (api.c) keeps its tile so. */
void eccl_fast_price_forms32i(const eccl_qparams_t *p, const int32_t *q, int head, int want_l2, int *size,
                              unsigned *code);
int eccl_fast_write_quant32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form, unsigned code,
                             unsigned char *out);
/* The same for 64-bit integers (q 32-byte aligned, predecessors at q[-2], q[-1] alike). */
void eccl_fast_price_forms64i(const eccl_qparams_t *p, const int64_t *q, int head, int want_l2, int *size,
                              unsigned *code);
int eccl_fast_write_quant64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned form, unsigned code,
                             unsigned char *out);
int eccl_fast_write_quant64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                            unsigned form, unsigned code, unsigned char *out);
int eccl_fast_read_l2_32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, int64_t *q);
int eccl_fast_read_l2_64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, int64_t *q);
/* read_l2_32 with int32 integers (|q| <= QMAX32), and the values T(q * D) of a second-order block
 * (decode_l2): the same returns. */
int eccl_fast_read_l2_32i(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                          eccl_pred_t *pr, int32_t *q);
int eccl_fast_decode_l2_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                            eccl_pred_t *pr, float *x);
int eccl_fast_decode_l2_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                            eccl_pred_t *pr, double *x);
/* Version 3 (doc/format.md 8.2), full blocks of integers predicted from pr: block.c's
 * eccl_block_price_all (every form of want priced; the same costs, bytes and codes). */
void eccl_fast_price_all32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr, unsigned want,
                           int *cost, int *bytes, unsigned *code);
void eccl_fast_price_all64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr, unsigned want,
                           int *cost, int *bytes, unsigned *code);
/* The same on integers in a tile slot (predecessors at q[-2], q[-1], as eccl_fast_price_forms32i). */
void eccl_fast_price_all32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned want, int *cost,
                            int *bytes, unsigned *code);
void eccl_fast_price_all64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned want, int *cost,
                            int *bytes, unsigned *code);
/* block.c's eccl_sparse_from_dense / eccl_sparse_to_dense (codec.h), the same results, through
 * BMI2 where it is fast. */
int eccl_fast_sparse_from_dense(const unsigned char *dense, int head, unsigned code, int is64, unsigned char *out,
                                eccl_bitw_t *bw);
int eccl_fast_sparse_to_dense(const unsigned char *in, int head, unsigned code, int is64, eccl_bitr_t *br,
                              unsigned char *dense);
/* The sparse block (code, form S1 or S2 of a float32 tile) of the integers of a tile slot
 * (predecessors at q[-2], q[-1]): eccl_fast_write_quant32i of its dense twin
 * (eccl_sparse_dense_form/code) and eccl_fast_sparse_from_dense in one, the same bytes and bits;
 * ECCL_FAST_DECLINE where pext is not fast (the caller takes those two). */
int eccl_fast_write_sparse32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form, unsigned code,
                              unsigned char *out, eccl_bitw_t *bw);
/* Min and max over the finite values of x (+inf/-inf when there are none), and their number
 * (range_fast.c). */
void eccl_fast_range_f32(const float *x, size_t n, double *lo, double *hi, size_t *nfinite);
void eccl_fast_range_f64(const double *x, size_t n, double *lo, double *hi, size_t *nfinite);
#endif
