/*
 * devptr.c - is a buffer CUDA device memory?
 *
 * The collectives take host or device buffers. They ask the CUDA driver (cuPointerGetAttributes)
 * what a pointer is, finding the driver with dlopen(RTLD_NOLOAD): a process that has not loaded
 * libcuda cannot own device memory, so nothing is loaded, initialised or linked for it, and a
 * CPU-only build can still recognise a device buffer (and refuse it cleanly instead of crashing).
 *
 * The driver entry point is a thread-safe cache (an atomic pointer, set once the driver is seen;
 * a miss is retried on the next call, since the program may start CUDA later).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h"

/* The driver's ABI (cuda.h, stable since CUDA 7): attribute and memory-type codes. */
enum {
    DRV_ATTR_MEMORY_TYPE = 2, /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE, unsigned int */
    DRV_ATTR_IS_MANAGED = 8,  /* CU_POINTER_ATTRIBUTE_IS_MANAGED, a boolean */
    DRV_MEMORYTYPE_DEVICE = 2 /* CU_MEMORYTYPE_DEVICE */
};
typedef int (*get_attributes_fn)(unsigned int n, int *attributes, void **data, unsigned long long ptr);

static _Atomic(uintptr_t) driver_fn; /* 0 until the driver was found */

static get_attributes_fn driver(void)
{
    uintptr_t f = atomic_load_explicit(&driver_fn, memory_order_acquire);
    if (!f) {
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (!h) return NULL;
        void *sym = dlsym(h, "cuPointerGetAttributes");
        /* the handle is deliberately kept: libcuda stays loaded for the process's life anyway */
        if (!sym) return NULL;
        f = (uintptr_t)sym;
        atomic_store_explicit(&driver_fn, f, memory_order_release);
    }
    get_attributes_fn fn;
    void *sym = (void *)f;
    memcpy(&fn, &sym, sizeof fn); /* POSIX: dlsym's object pointer names a function */
    return fn;
}

int eccl_ptr_is_device(const void *p)
{
    if (!p) return 0;
    get_attributes_fn fn = driver();
    if (!fn) return 0;
    unsigned int type = 0, managed = 0;
    int attrs[2] = {DRV_ATTR_MEMORY_TYPE, DRV_ATTR_IS_MANAGED};
    void *data[2] = {&type, &managed};
    if (fn(2, attrs, data, (unsigned long long)(uintptr_t)p) != 0) return 0;
    /* managed memory is host-accessible: the host path reads it directly */
    return type == DRV_MEMORYTYPE_DEVICE && !managed;
}
