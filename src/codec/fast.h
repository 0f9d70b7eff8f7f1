/* fast.h - the AVX2 block paths (block_fast.c); see there for the contract. */
#ifndef ECCL_CODEC_FAST_H
#define ECCL_CODEC_FAST_H

#include "codec/codec.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define ECCL_HAVE_X86_FAST 1
#else
#define ECCL_HAVE_X86_FAST 0
/* Min and max over the finite values of x (+inf/-inf when there are none). */
void eccl_fast_range_f32(const float *x, size_t n, double *lo, double *hi);
void eccl_fast_range_f64(const double *x, size_t n, double *lo, double *hi);
#endif

enum { ECCL_FAST_DECLINE = -2 };

/* 1 when this CPU can run the fast paths (checked per call: it is a load and a test). The
 * environment variable ECCL_CODEC_REFERENCE=1 forces the reference path (tests and debugging). */
int eccl_fast_available(void);

/* Full blocks (r = 32) only. Encode: returns the payload size, or ECCL_FAST_DECLINE (pr untouched).
 * Decode: returns 0, -1 (not canonical: the caller asks the reference path to confirm), or
 * ECCL_FAST_DECLINE (RAW block). */
int eccl_fast_encode_f32(const eccl_qparams_t *p, const float *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_encode_f64(const eccl_qparams_t *p, const double *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code);
int eccl_fast_decode_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, float *x);
int eccl_fast_decode_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, double *x);
/* Min and max over the finite values of x (+inf/-inf when there are none). */
void eccl_fast_range_f32(const float *x, size_t n, double *lo, double *hi);
void eccl_fast_range_f64(const double *x, size_t n, double *lo, double *hi);
#endif
