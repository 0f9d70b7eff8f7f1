// cuda/device.cu - device discovery for the CUDA backend.
#include "config.h"

#include <cuda_runtime_api.h>
#include <string.h>

#include "cuda/device.h"

extern "C" eccl_result_t eccl_cuda_device_count(int *count)
{
    if (!count) return ECCL_ERR_INVALID_ARG;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); // no driver or no device: not an error, just none
        n = 0;
    }
    *count = n;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_device_check(int device, char *name, size_t name_len)
{
    int n = 0;
    eccl_cuda_device_count(&n);
    if (device < 0 || device >= n) return ECCL_ERR_NO_DEVICE;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return ECCL_ERR_NO_DEVICE;
    }
    if (name && name_len) {
        strncpy(name, prop.name, name_len - 1);
        name[name_len - 1] = '\0';
    }
    return prop.major >= 8 ? ECCL_SUCCESS : ECCL_ERR_NO_DEVICE;
}

// Runtime errors to eccl codes: out of memory, no usable device, anything else is ECCL_ERR_CUDA.
// The sticky-free error state is cleared so later calls do not see it again.
static eccl_result_t from_cuda(cudaError_t e)
{
    if (e == cudaSuccess) return ECCL_SUCCESS;
    (void)cudaGetLastError();
    switch (e) {
    case cudaErrorMemoryAllocation: return ECCL_ERR_NO_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice: return ECCL_ERR_NO_DEVICE;
    default: return ECCL_ERR_CUDA;
    }
}

extern "C" eccl_result_t eccl_cuda_set_device(int device)
{
    int n = 0;
    eccl_cuda_device_count(&n);
    if (device < 0 || device >= n) return ECCL_ERR_NO_DEVICE;
    return from_cuda(cudaSetDevice(device));
}

extern "C" eccl_result_t eccl_cuda_malloc(void **d_ptr, size_t bytes)
{
    if (!d_ptr) return ECCL_ERR_INVALID_ARG;
    *d_ptr = NULL;
    if (bytes == 0) return ECCL_SUCCESS;
    eccl_result_t rc = from_cuda(cudaMalloc(d_ptr, bytes));
    if (rc) *d_ptr = NULL;
    return rc;
}

extern "C" eccl_result_t eccl_cuda_free(void *d_ptr)
{
    if (!d_ptr) return ECCL_SUCCESS;
    return from_cuda(cudaFree(d_ptr));
}

extern "C" eccl_result_t eccl_cuda_memcpy(void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return ECCL_SUCCESS;
    if (!dst || !src) return ECCL_ERR_INVALID_ARG;
    // cudaMemcpy returns before a device-to-device copy is done; the promise is "done on return",
    // also for a reader on a non-blocking stream, so the legacy stream is waited for.
    eccl_result_t rc = from_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
    return rc ? rc : from_cuda(cudaStreamSynchronize(cudaStreamLegacy));
}

extern "C" eccl_result_t eccl_cuda_stream_wait(void *stream)
{
    return from_cuda(cudaStreamSynchronize((cudaStream_t)stream));
}

extern "C" eccl_result_t eccl_cuda_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height)
{
    if (width == 0 || height == 0) return ECCL_SUCCESS;
    if (!dst || !src || dpitch < width || spitch < width) return ECCL_ERR_INVALID_ARG;
    // On the legacy stream, so ordered after the caller's default-stream work, and waited for:
    // cudaMemcpy2D returns before a device-to-device copy is done, and a caller reading dst on a
    // non-blocking stream (summa --device's cuBLAS stream) would race with it.
    eccl_result_t rc = from_cuda(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault));
    return rc ? rc : from_cuda(cudaStreamSynchronize(cudaStreamLegacy));
}

extern "C" eccl_result_t eccl_cuda_host_alloc(void **ptr, size_t bytes)
{
    if (!ptr) return ECCL_ERR_INVALID_ARG;
    *ptr = NULL;
    if (cudaMallocHost(ptr, bytes ? bytes : 64) != cudaSuccess) {
        (void)cudaGetLastError();
        *ptr = NULL;
        return ECCL_ERR_NO_MEMORY;
    }
    return ECCL_SUCCESS;
}

extern "C" void eccl_cuda_host_free(void *ptr)
{
    if (ptr && cudaFreeHost(ptr) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" void *eccl_cuda_host_alloc_ptr(size_t bytes)
{
    void *p = NULL;
    return eccl_cuda_host_alloc(&p, bytes) == ECCL_SUCCESS ? p : NULL;
}
