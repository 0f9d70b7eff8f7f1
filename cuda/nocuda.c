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
