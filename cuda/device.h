/* cuda/device.h - what the C core may call in cuda/ (C linkage, no CUDA types). */
#ifndef ECCL_CUDA_DEVICE_H
#define ECCL_CUDA_DEVICE_H
#include "eccl_cuda.h"
#endif
