/*
 * fast_stubs.c - the symbols of fast.h for builds without the x86 fast path (block_fast.c and
 * block_fast64.c compile to nothing there): never selected, since eccl_fast_available() is 0.
 */
#include "config.h"

#include "codec/fast.h"

#if !ECCL_HAVE_X86_FAST
int eccl_fast_available(void) { return 0; }
int eccl_fast_encode_raw32(const uint32_t *v, int lag, unsigned char *out, unsigned *code)
{
    (void)v, (void)lag, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_encode_raw64(const uint64_t *v, int lag, unsigned char *out, unsigned *code)
{
    (void)v, (void)lag, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_encode_f32(const eccl_qparams_t *p, const float *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code)
{
    (void)p, (void)x, (void)pr, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_encode_f64(const eccl_qparams_t *p, const double *x, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code)
{
    (void)p, (void)x, (void)pr, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_decode_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, float *x)
{
    (void)p, (void)code, (void)in, (void)pr, (void)x;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_quantize_f32(const eccl_qparams_t *p, const float *x, int32_t *q)
{
    (void)p, (void)x, (void)q;
    return 0;
}
int eccl_fast_quantize_f64(const eccl_qparams_t *p, const double *x, int64_t *q)
{
    (void)p, (void)x, (void)q;
    return 0;
}
int eccl_fast_quantize_f32_never(const eccl_qparams_t *p, const float *x, int32_t *q, int *never)
{
    (void)p, (void)x, (void)q;
    *never = 0;
    return 0;
}
int eccl_fast_unquantizable_f64(const eccl_qparams_t *p, const double *x)
{
    (void)p, (void)x;
    return 0;
}
int eccl_fast_encode_q64(const eccl_qparams_t *p, const int64_t *q, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_read_q64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                       eccl_pred_t *pr, int64_t *q)
{
    (void)p, (void)code, (void)in, (void)pr, (void)q;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_encode_q32(const eccl_qparams_t *p, const int32_t *q, eccl_pred_t *pr,
                         unsigned char *out, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)out, (void)code;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_read_q32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                       eccl_pred_t *pr, int32_t *q)
{
    (void)p, (void)code, (void)in, (void)pr, (void)q;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_decode_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, double *x)
{
    (void)p, (void)code, (void)in, (void)pr, (void)x;
    return ECCL_FAST_DECLINE;
}
void eccl_fast_range_f32(const float *x, size_t n, double *lo, double *hi, size_t *nfinite)
{
    (void)x, (void)n, (void)lo, (void)hi, (void)nfinite;
}
void eccl_fast_range_f64(const double *x, size_t n, double *lo, double *hi, size_t *nfinite)
{
    (void)x, (void)n, (void)lo, (void)hi, (void)nfinite;
}
void eccl_fast_price_forms32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                             int want_l2, int *size, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)want_l2, (void)size, (void)code;
}
void eccl_fast_price_forms64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                             int want_l2, int *size, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)want_l2, (void)size, (void)code;
}
int eccl_fast_sparse_from_dense(const unsigned char *dense, int head, unsigned code, int is64, unsigned char *out,
                                eccl_bitw_t *bw)
{
    return eccl_sparse_from_dense(dense, head, code, is64, out, bw);
}
int eccl_fast_sparse_to_dense(const unsigned char *in, int head, unsigned code, int is64, eccl_bitr_t *br,
                              unsigned char *dense)
{
    return eccl_sparse_to_dense(in, head, code, is64, br, dense);
}
int eccl_fast_write_sparse32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form, unsigned code,
                              unsigned char *out, eccl_bitw_t *bw)
{
    (void)p, (void)q, (void)head, (void)form, (void)code, (void)out, (void)bw;
    return ECCL_FAST_DECLINE;
}
void eccl_fast_price_all32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned want, int *cost,
                            int *bytes, unsigned *code)
{
    (void)p, (void)q, (void)head, (void)want, (void)cost, (void)bytes, (void)code;
}
void eccl_fast_price_all64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned want, int *cost,
                            int *bytes, unsigned *code)
{
    (void)p, (void)q, (void)head, (void)want, (void)cost, (void)bytes, (void)code;
}
void eccl_fast_price_all32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr, unsigned want,
                           int *cost, int *bytes, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)want, (void)cost, (void)bytes, (void)code;
}
void eccl_fast_price_all64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr, unsigned want,
                           int *cost, int *bytes, unsigned *code)
{
    (void)p, (void)q, (void)pr, (void)want, (void)cost, (void)bytes, (void)code;
}
int eccl_fast_write_quant32(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                            unsigned form, unsigned code, unsigned char *out)
{
    (void)p, (void)q, (void)pr, (void)form, (void)code, (void)out;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_write_quant64(const eccl_qparams_t *p, const int64_t *q, const eccl_pred_t *pr,
                            unsigned form, unsigned code, unsigned char *out)
{
    (void)p, (void)q, (void)pr, (void)form, (void)code, (void)out;
    return ECCL_FAST_DECLINE;
}
void eccl_fast_price_forms32i(const eccl_qparams_t *p, const int32_t *q, int head, int want_l2, int *size,
                              unsigned *code)
{
    (void)p, (void)q, (void)head, (void)want_l2, (void)size, (void)code;
}
int eccl_fast_write_quant32i(const eccl_qparams_t *p, const int32_t *q, int head, unsigned form, unsigned code,
                             unsigned char *out)
{
    (void)p, (void)q, (void)head, (void)form, (void)code, (void)out;
    return ECCL_FAST_DECLINE;
}
void eccl_fast_price_forms64i(const eccl_qparams_t *p, const int64_t *q, int head, int want_l2, int *size,
                              unsigned *code)
{
    (void)p, (void)q, (void)head, (void)want_l2, (void)size, (void)code;
}
int eccl_fast_write_quant64i(const eccl_qparams_t *p, const int64_t *q, int head, unsigned form, unsigned code,
                             unsigned char *out)
{
    (void)p, (void)q, (void)head, (void)form, (void)code, (void)out;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_read_l2_32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, int64_t *q)
{
    (void)p, (void)code, (void)in, (void)pr, (void)q;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_read_l2_64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                         eccl_pred_t *pr, int64_t *q)
{
    (void)p, (void)code, (void)in, (void)pr, (void)q;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_read_l2_32i(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                          eccl_pred_t *pr, int32_t *q)
{
    (void)p, (void)code, (void)in, (void)pr, (void)q;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_decode_l2_f32(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                            eccl_pred_t *pr, float *x)
{
    (void)p, (void)code, (void)in, (void)pr, (void)x;
    return ECCL_FAST_DECLINE;
}
int eccl_fast_decode_l2_f64(const eccl_qparams_t *p, unsigned code, const unsigned char *in,
                            eccl_pred_t *pr, double *x)
{
    (void)p, (void)code, (void)in, (void)pr, (void)x;
    return ECCL_FAST_DECLINE;
}
#else
typedef int eccl_fast_stubs_unused_t; /* (an empty translation unit is not ISO C) */
#endif
