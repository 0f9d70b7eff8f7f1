/* Internal helpers shared by every layer of the C core (never installed). */
#ifndef ECCL_CORE_INTERNAL_H
#define ECCL_CORE_INTERNAL_H

#include "eccl.h"

#define ECCL_STR_(x) #x
#define ECCL_STR(x) ECCL_STR_(x)

#if defined(__GNUC__)
#define ECCL_LIKELY(x) __builtin_expect(!!(x), 1)
#define ECCL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ECCL_LIKELY(x) (x)
#define ECCL_UNLIKELY(x) (x)
#endif

/* The one error idiom (MPICH-style single exit): `rc = f(); ECCL_CHECK(rc);` jumps to fn_exit,
 * where the function frees what it owns and returns rc. */
#define ECCL_CHECK(rc_)                                                                            \
    do {                                                                                           \
        if (ECCL_UNLIKELY((rc_) != ECCL_SUCCESS)) goto fn_exit;                                    \
    } while (0)
#define ECCL_FAIL(rc_, code_)                                                                      \
    do {                                                                                           \
        (rc_) = (code_);                                                                           \
        goto fn_exit;                                                                              \
    } while (0)

/* The one check of a collective's bound (the collectives, the BLACS layer and the panels): NULL
 * when it is valid, else a static sentence saying what is wrong. LOSSLESS (any value) and NULL
 * are valid; ABS and REL need a finite value > 0; REL's range is ECCL_RANGE_FROM_DATA or finite
 * and >= 0 (the codec's eccl_bound_resolve also takes an infinite range). */
const char *eccl_bound_problem(const eccl_bound_t *b);

/* 1 when p is CUDA device memory (not managed, not host), 0 otherwise, also when the process has
 * not loaded the CUDA driver (core/devptr.c). Thread-safe. */
int eccl_ptr_is_device(const void *p);
/* 1 when this process has loaded the CUDA driver (it can hold device memory). */
int eccl_cuda_driver_loaded(void);

#endif
