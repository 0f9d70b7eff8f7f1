/*
 * comm.c - the parts of eccl_comm_t every layer may use: the clock, error messages, the
 * communicator's identity, its last statistics and stream settings. Creating and freeing a
 * communicator sets up every layer below the collectives, so it lives above them
 * (src/coll/communicator.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "eccl_cuda.h"
#include "core/comm.h"
#include "core/log.h"

double eccl_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

eccl_result_t eccl_comm_error(eccl_comm_t comm, eccl_result_t rc, const char *fmt, ...)
{
    if (comm) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(comm->errmsg, sizeof comm->errmsg, fmt, ap);
        va_end(ap);
        ECCL_LOG(1, comm->rank, "error %d (%s): %s", (int)rc, eccl_strerror(rc), comm->errmsg);
    }
    return rc;
}

eccl_result_t eccl_comm_info(eccl_comm_t comm, MPI_Comm *mpi_comm, int *size, int *rank)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    if (mpi_comm) *mpi_comm = comm->comm;
    if (size) *size = comm->size;
    if (rank) *rank = comm->rank;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_cuda_comm_set_stream(eccl_comm_t comm, cudaStream_t stream)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    comm->errmsg[0] = '\0';
#ifdef HAVE_CUDA
    comm->gpu.user_stream = (void *)stream;
    return ECCL_SUCCESS;
#else
    (void)stream;
    return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED, "eccl_cuda_comm_set_stream: eccl was built without the CUDA backend");
#endif
}

eccl_result_t eccl_cuda_comm_mpi_aware(eccl_comm_t comm, int *aware)
{
    if (!comm || !aware) return ECCL_ERR_INVALID_ARG;
    *aware = comm->tr.cuda_aware;
#ifdef HAVE_CUDA
    return ECCL_SUCCESS;
#else
    return ECCL_ERR_UNSUPPORTED;
#endif
}

const char *eccl_comm_last_error(eccl_comm_t comm) { return comm ? comm->errmsg : "NULL communicator"; }

eccl_result_t eccl_comm_last_stats(eccl_comm_t comm, eccl_stats_t *stats)
{
    if (!comm || !stats) return ECCL_ERR_INVALID_ARG;
    *stats = comm->last;
    return ECCL_SUCCESS;
}
