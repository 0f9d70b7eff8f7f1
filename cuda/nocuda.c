/* cuda/nocuda.c - the CUDA entry points of a build without the CUDA backend: same symbols,
 * ECCL_ERR_UNSUPPORTED, never a silent success. */
#include "config.h"

#include "cuda/device.h"

eccl_result_t eccl_cuda_device_count(int *count)
{
    if (!count) return ECCL_ERR_INVALID_ARG;
    *count = 0;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_set_device(int device)
{
    (void)device;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_device_check(int device, char *name, size_t name_len)
{
    (void)device;
    if (name && name_len) name[0] = '\0';
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_codec_create(size_t max_count, eccl_cuda_codec_t *codec)
{
    (void)max_count;
    if (codec) *codec = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_codec_free(eccl_cuda_codec_t *codec)
{
    if (codec) *codec = NULL;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_cuda_compress(eccl_cuda_codec_t codec, const void *d_data, size_t count,
                                 eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                 size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                 cudaStream_t stream)
{
    (void)codec, (void)d_data, (void)count, (void)dtype, (void)bound, (void)d_out;
    (void)out_capacity, (void)d_size, (void)h_size, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_decompress(eccl_cuda_codec_t codec, const void *d_stream,
                                   size_t stream_capacity, void *d_data, size_t count,
                                   eccl_dtype_t dtype, int check, cudaStream_t stream)
{
    (void)codec, (void)d_stream, (void)stream_capacity, (void)d_data, (void)count, (void)dtype;
    (void)check, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_compress_2d(eccl_cuda_codec_t codec, const void *d_a, size_t m, size_t n,
                                    size_t ld, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                    void *d_out, size_t out_capacity, unsigned long long *d_size,
                                    size_t *h_size, cudaStream_t stream)
{
    (void)codec, (void)d_a, (void)m, (void)n, (void)ld, (void)dtype, (void)bound, (void)d_out;
    (void)out_capacity, (void)d_size, (void)h_size, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_decompress_2d(eccl_cuda_codec_t codec, const void *d_stream,
                                      size_t stream_capacity, void *d_a, size_t m, size_t n,
                                      size_t ld, eccl_dtype_t dtype, int check, cudaStream_t stream)
{
    (void)codec, (void)d_stream, (void)stream_capacity, (void)d_a, (void)m, (void)n, (void)ld;
    (void)dtype, (void)check, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_hom_reduce_2d(eccl_cuda_codec_t codec, const void *d_stream,
                                      size_t stream_capacity, const void *d_a, size_t m, size_t n,
                                      size_t ld, eccl_dtype_t dtype, eccl_op_t op, void *d_out,
                                      size_t out_capacity, unsigned long long *d_size,
                                      size_t *h_size, cudaStream_t stream)
{
    (void)codec, (void)d_stream, (void)stream_capacity, (void)d_a, (void)m, (void)n, (void)ld, (void)dtype;
    (void)op, (void)d_out, (void)out_capacity, (void)d_size, (void)h_size, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_codec_check(eccl_cuda_codec_t codec, cudaStream_t stream)
{
    (void)codec, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_hom_reduce(eccl_cuda_codec_t codec, const void *d_stream, size_t stream_capacity,
                                   const void *d_local, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                                   void *d_out, size_t out_capacity, unsigned long long *d_size,
                                   size_t *h_size, cudaStream_t stream)
{
    (void)codec, (void)d_stream, (void)stream_capacity, (void)d_local, (void)count, (void)dtype, (void)op;
    (void)d_out, (void)out_capacity, (void)d_size, (void)h_size, (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_malloc(void **d_ptr, size_t bytes)
{
    (void)bytes;
    if (d_ptr) *d_ptr = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_free(void *d_ptr)
{
    return d_ptr ? ECCL_ERR_UNSUPPORTED : ECCL_SUCCESS;
}

eccl_result_t eccl_cuda_stream_wait(void *stream)
{
    (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_memcpy(void *dst, const void *src, size_t bytes)
{
    (void)dst, (void)src, (void)bytes;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_cuda_host_alloc(void **ptr, size_t bytes)
{
    (void)bytes;
    if (ptr) *ptr = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

void eccl_cuda_host_free(void *ptr) { (void)ptr; }

eccl_result_t eccl_cuda_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                 size_t height)
{
    (void)dst, (void)dpitch, (void)src, (void)spitch, (void)width, (void)height;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_cuda_memcpy2d_on(void *stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height)
{
    (void)stream, (void)dst, (void)dpitch, (void)src, (void)spitch, (void)width, (void)height;
    return ECCL_ERR_UNSUPPORTED;
}
void eccl_cuda_stream_destroy(void *stream) { (void)stream; }

void *eccl_cuda_host_alloc_ptr(size_t bytes)
{
    (void)bytes;
    return NULL;
}

/* Device-resident collectives: never reached without the backend (no buffer is ever device
 * memory the core may use), but defined so that the core links. */
eccl_result_t eccl_dev_ctx_create(eccl_dev_ctx_t **ctx, int high)
{
    (void)high;
    if (ctx) *ctx = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_ctx_set_format(eccl_dev_ctx_t *ctx, int vmajor)
{
    (void)ctx;
    (void)vmajor;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_stream_create(void **stream, int high)
{
    (void)high;
    if (stream) *stream = NULL;
    return ECCL_ERR_UNSUPPORTED;
}
void eccl_dev_ctx_free(eccl_dev_ctx_t *ctx) { (void)ctx; }
void eccl_dev_ctx_set_progress(eccl_dev_ctx_t *ctx, void (*fn)(void *), void *arg)
{
    (void)ctx;
    (void)fn;
    (void)arg;
}
int eccl_dev_current(void) { return -1; }
eccl_result_t eccl_dev_make_current(int device)
{
    (void)device;
    return ECCL_SUCCESS;
}
int eccl_dev_ctx_current(const eccl_dev_ctx_t *ctx)
{
    (void)ctx;
    return 0;
}
eccl_result_t eccl_dev_copy(eccl_dev_ctx_t *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx, (void)dst, (void)src, (void)bytes;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_calibrate(eccl_dev_ctx_t *ctx, double out[13])
{
    (void)ctx, (void)out;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_compress(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay,
                                size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound, void *h_out,
                                size_t h_cap, size_t *h_size)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype, (void)bound, (void)h_out, (void)h_cap;
    (void)h_size;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_decompress(eccl_dev_ctx_t *ctx, const void *h_stream, size_t size, void *d_base,
                                  const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype)
{
    (void)ctx, (void)h_stream, (void)size, (void)d_base, (void)lay, (void)count, (void)dtype;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_reserve(eccl_dev_ctx_t *ctx, size_t count, eccl_dtype_t dtype)
{
    (void)ctx, (void)count, (void)dtype;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_range(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay,
                             size_t count, eccl_dtype_t dtype, double *lo, double *hi)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype, (void)lo, (void)hi;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_compress_keep(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay,
                                     size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                     const void **d_stream, size_t *size)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype, (void)bound, (void)size;
    if (d_stream) *d_stream = NULL;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_stream_buf(eccl_dev_ctx_t *ctx, size_t cap, void **d_buf)
{
    (void)ctx, (void)cap;
    if (d_buf) *d_buf = NULL;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_decompress_dev(eccl_dev_ctx_t *ctx, const void *d_stream, size_t size, void *d_base,
                                      const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype)
{
    (void)ctx, (void)d_stream, (void)size, (void)d_base, (void)lay, (void)count, (void)dtype;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_fill_nan(eccl_dev_ctx_t *ctx, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                eccl_dtype_t dtype)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_sample(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay, size_t count,
                              eccl_dtype_t dtype, const eccl_bound_t *bound, const size_t *starts, int nwin,
                              size_t win, size_t *total)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype, (void)bound, (void)starts, (void)nwin, (void)win;
    (void)total;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_copy_from(eccl_dev_ctx_t *ctx, void *dst, const void *d_base, const eccl_dev_layout_t *lay,
                                 size_t count, size_t esize)
{
    (void)ctx, (void)dst, (void)d_base, (void)lay, (void)count, (void)esize;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_hom_reduce(eccl_dev_ctx_t *ctx, const void *h_stream, size_t size, const void *d_base,
                                  const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                                  void *h_out, size_t h_cap, size_t *h_size)
{
    (void)ctx, (void)h_stream, (void)size, (void)d_base, (void)lay, (void)count, (void)dtype, (void)op, (void)h_out;
    (void)h_cap, (void)h_size;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_win_alloc(eccl_dev_ctx_t *ctx, size_t bytes, void **d_win, void *handle)
{
    (void)ctx, (void)bytes, (void)handle;
    if (d_win) *d_win = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

void eccl_dev_win_free(eccl_dev_ctx_t *ctx, void *d_win) { (void)ctx, (void)d_win; }

eccl_result_t eccl_dev_win_open(eccl_dev_ctx_t *ctx, const void *handle, void **d_peer)
{
    (void)ctx, (void)handle;
    if (d_peer) *d_peer = NULL;
    return ECCL_ERR_UNSUPPORTED;
}

void eccl_dev_win_close(eccl_dev_ctx_t *ctx, void *d_peer) { (void)ctx, (void)d_peer; }

eccl_result_t eccl_dev_reduce_n(eccl_dev_ctx_t *ctx, void *d_out, const void *const *d_in, int n, size_t count,
                                eccl_dtype_t dtype, eccl_op_t op)
{
    (void)ctx, (void)d_out, (void)d_in, (void)n, (void)count, (void)dtype, (void)op;
    return ECCL_ERR_UNSUPPORTED;
}

eccl_result_t eccl_dev_divide(eccl_dev_ctx_t *ctx, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                              eccl_dtype_t dtype, int p)
{
    (void)ctx, (void)d_base, (void)lay, (void)count, (void)dtype, (void)p;
    return ECCL_ERR_UNSUPPORTED;
}

/* the gate and the holds (no stream can be held without CUDA) */
void eccl_gate_free(void *ptr, int host) { (void)ptr, (void)host; }
eccl_result_t eccl_gate_sync(void *stream)
{
    (void)stream;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_hold_create(eccl_dev_hold_t **hold)
{
    if (hold) *hold = NULL;
    return ECCL_ERR_UNSUPPORTED;
}
void eccl_dev_hold_free(eccl_dev_hold_t *hold) { (void)hold; }
eccl_result_t eccl_dev_hold_post(eccl_dev_hold_t *hold, void *stream, unsigned seq, void **ev)
{
    (void)hold, (void)stream, (void)seq;
    if (ev) *ev = NULL;
    return ECCL_ERR_UNSUPPORTED;
}
eccl_result_t eccl_dev_hold_input(void *ev)
{
    (void)ev;
    return ECCL_ERR_UNSUPPORTED;
}
void eccl_dev_hold_release(eccl_dev_hold_t *hold, unsigned seq, void *ev) { (void)hold, (void)seq, (void)ev; }
int eccl_dev_stream_nonblocking(void *stream)
{
    (void)stream;
    return 0;
}
