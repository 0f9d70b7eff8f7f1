/* cuda/device.h - what the C core may call in cuda/ (C linkage, no CUDA types). */
#ifndef ECCL_CUDA_DEVICE_H
#define ECCL_CUDA_DEVICE_H
#include "eccl_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Page-locked host memory for staging device buffers (src/coll/dispatch.c): *ptr = NULL and
 * ECCL_ERR_NO_MEMORY when it cannot be had; eccl_cuda_host_free accepts NULL. */
eccl_result_t eccl_cuda_host_alloc(void **ptr, size_t bytes);
void eccl_cuda_host_free(void *ptr);
#ifdef __cplusplus
}
#endif
#endif
