/*
 * eccl_cuda.h - GPU side of the eccl interface.
 *
 * Kept apart from eccl.h so that CPU-only users never need CUDA headers. Functions declared here
 * exist in every build: without the CUDA backend (configure --without-cuda, or no nvcc) they
 * return ECCL_ERR_UNSUPPORTED; with it but no usable GPU at run time, ECCL_ERR_NO_DEVICE.
 */
#ifndef ECCL_CUDA_H
#define ECCL_CUDA_H

#include "eccl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of CUDA devices this process can use, in *count (0 when there are none).
 * Returns ECCL_SUCCESS (also with 0 devices), ECCL_ERR_UNSUPPORTED without the CUDA backend,
 * ECCL_ERR_INVALID_ARG for a NULL count. */
eccl_result_t eccl_cuda_device_count(int *count);

/* ECCL_SUCCESS when device `device` can run eccl's kernels (compute capability >= 8.0);
 * ECCL_ERR_NO_DEVICE when it does not exist or is too old, ECCL_ERR_UNSUPPORTED without the
 * CUDA backend. When name is not NULL, up to name_len bytes of the device name are copied. */
eccl_result_t eccl_cuda_device_check(int device, char *name, size_t name_len);

#ifdef __cplusplus
}
#endif
#endif
