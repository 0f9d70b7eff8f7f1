/*
 * devptr.c - is a buffer CUDA device memory?
 *
 * The collectives take host or device buffers. They ask the CUDA driver (cuPointerGetAttributes)
 * what a pointer is, finding the driver with dlopen(RTLD_NOLOAD): a process that has not loaded
 * libcuda cannot own device memory, so nothing is loaded, initialised or linked for it, and a
 * CPU-only build can still recognise a device buffer (and refuse it cleanly instead of crashing).
 *
 * The driver entry point is a thread-safe cache (an atomic pointer, set once the driver is seen).
 * A miss is remembered with the dynamic loader's count of loaded objects (dl_iterate_phdr's
 * dlpi_adds): while nothing new was loaded, libcuda cannot have appeared, so the next call costs
 * tens of nanoseconds instead of a failed dlopen's tens of microseconds; once the program starts
 * CUDA (which loads libcuda), the count changes and the driver is looked up again.
 */
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
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

static _Atomic(uintptr_t) driver_fn;      /* 0 until the driver was found */
static _Atomic(unsigned long long) miss_at; /* loads count at the last miss, + 1 (0: none yet) */

static int first_adds(struct dl_phdr_info *info, size_t size, void *data)
{
    unsigned long long *adds = data;
    if (size >= offsetof(struct dl_phdr_info, dlpi_adds) + sizeof info->dlpi_adds)
        *adds = info->dlpi_adds + 1;
    return 1; /* the counter is the same in every entry: stop at the first */
}

static get_attributes_fn driver(void)
{
    uintptr_t f = atomic_load_explicit(&driver_fn, memory_order_acquire);
    if (!f) {
        unsigned long long adds = 0; /* 0: the loader does not tell; then never cache a miss */
        dl_iterate_phdr(first_adds, &adds);
        if (adds && adds == atomic_load_explicit(&miss_at, memory_order_relaxed)) return NULL;
        void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (!h) {
            atomic_store_explicit(&miss_at, adds, memory_order_relaxed);
            return NULL;
        }
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

int eccl_cuda_driver_loaded(void) { return driver() != NULL; }

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
