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
