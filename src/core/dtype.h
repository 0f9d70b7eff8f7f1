/*
 * dtype.h - the one table of per-dtype facts (zfp's traits headers are the model): every layer
 * (codec, collectives, transports, the BLACS layer, tools, the CUDA code) asks it instead of
 * testing the enum's order. Plain C, header only, usable from CUDA C++.
 *
 * Adding a dtype: a row here (and the enum value in include/eccl.h), then the places that hold
 * per-type code: the codec's element loads and stores (src/codec, cuda/), the MPI and NCCL type
 * of its component (src/transport), the Fortran instances (fortran/) and the tests; see
 * doc/ARCHITECTURE.md.
 */
#ifndef ECCL_CORE_DTYPE_H
#define ECCL_CORE_DTYPE_H

#include <stddef.h>

#include "eccl.h"

typedef struct eccl_dtype_traits {
    eccl_dtype_t dtype;
    const char *name;        /* "float32", ... (eccl_dtype_name) */
    size_t size;             /* bytes of one element */
    unsigned reals;          /* real components per element: 1, or 2 for complex (re, im) */
    unsigned is64;           /* the components are float64 (else float32) */
    eccl_dtype_t component;  /* the real dtype of one component (itself for a real dtype) */
    unsigned format_code;    /* the stream header's dtype byte (doc/format.md section 3) */
} eccl_dtype_traits_t;

/* The row of dtype, or NULL for a value that is not an eccl_dtype_t. */
static inline const eccl_dtype_traits_t *eccl_dtype_traits(eccl_dtype_t dtype)
{
    static const eccl_dtype_traits_t table[] = {
        {ECCL_FLOAT32, "float32", 4, 1, 0, ECCL_FLOAT32, 1},
        {ECCL_FLOAT64, "float64", 8, 1, 1, ECCL_FLOAT64, 2},
        {ECCL_COMPLEX64, "complex64", 8, 2, 0, ECCL_FLOAT32, 3},
        {ECCL_COMPLEX128, "complex128", 16, 2, 1, ECCL_FLOAT64, 4},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].dtype == dtype) return &table[i];
    return NULL;
}

/* 1 for complex64 and complex128 (MAX/MIN are undefined there), 0 otherwise. */
static inline int eccl_dtype_is_complex(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype);
    return t && t->reals == 2;
}

#endif
