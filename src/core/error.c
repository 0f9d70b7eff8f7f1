/* Result strings and the version string. */
#include "config.h"

#include <math.h>

#include "core/internal.h"

const char *eccl_strerror(eccl_result_t rc)
{
    switch (rc) {
#define X(name, value, msg) case name: return msg;
#include "eccl_errors.def"
#undef X
    default: return "unknown eccl result code";
    }
}

#ifdef HAVE_CUDA
#define ECCL_CUDA_STR "yes"
#else
#define ECCL_CUDA_STR "no"
#endif
#ifdef HAVE_NCCL
#define ECCL_NCCL_STR "yes"
#else
#define ECCL_NCCL_STR "no"
#endif
#ifdef _OPENMP
#define ECCL_OMP_STR "yes"
#else
#define ECCL_OMP_STR "no"
#endif

const char *eccl_version_string(void)
{
    return PACKAGE_VERSION " (format " ECCL_STR(ECCL_FORMAT_VERSION_MAJOR) "." ECCL_STR(
        ECCL_FORMAT_VERSION_MINOR) ", cuda: " ECCL_CUDA_STR ", nccl: " ECCL_NCCL_STR
                           ", openmp: " ECCL_OMP_STR ")";
}

const char *eccl_bound_problem(const eccl_bound_t *b)
{
    if (!b || b->mode == ECCL_MODE_LOSSLESS) return NULL;
    if (b->mode != ECCL_MODE_ABS && b->mode != ECCL_MODE_REL) return "unknown bound mode";
    if (!(b->value > 0) || !isfinite(b->value)) return "the bound value must be finite and > 0";
    if (b->mode == ECCL_MODE_REL && b->range != ECCL_RANGE_FROM_DATA && !(b->range >= 0 && isfinite(b->range)))
        return "the bound range must be ECCL_RANGE_FROM_DATA or finite and >= 0";
    return NULL;
}
