/*
 * comm.c - the parts of eccl_comm_t every layer may use: the clock, error messages, the
 * communicator's identity. The functions that read or change its state (last statistics and
 * error, stream, algorithm) wait for its nonblocking collectives first, so they live with them
 * (src/coll/communicator.c, algorithms.c). Creating and freeing a
 * communicator sets up every layer below the collectives, so it lives above them
 * (src/coll/communicator.c).
 */
#include "config.h"

#include <math.h>
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
        char *msg = eccl_comm_msg_out(comm);
        vsnprintf(msg, ECCL_ERRMSG_LEN, fmt, ap);
        va_end(ap);
        ECCL_LOG(1, comm->rank, "error %d (%s): %s", (int)rc, eccl_strerror(rc), msg);
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

void eccl_gpu_observe(eccl_comm_t comm, double seconds)
{
    if (!comm->gpu.observe || !(seconds == seconds)) return;
    if (seconds < 0) seconds = 0; /* (faster than the calibrated throughput) */
    comm->gpu.lat[comm->gpu.nlat % ECCL_LAT_RING] = seconds;
    comm->gpu.nlat++;
}

double eccl_gpu_observed(eccl_comm_t comm)
{
    unsigned n = comm->gpu.nlat < ECCL_LAT_RING ? comm->gpu.nlat : ECCL_LAT_RING;
    if (n < 3) return -INFINITY;
    double s[ECCL_LAT_RING];
    for (unsigned i = 0; i < n; i++) { /* insertion sort: at most 16 */
        double x = comm->gpu.lat[i];
        unsigned j = i;
        for (; j > 0 && s[j - 1] > x; j--) s[j] = s[j - 1];
        s[j] = x;
    }
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}
