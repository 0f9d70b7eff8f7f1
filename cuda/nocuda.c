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
