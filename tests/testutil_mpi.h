/*
 * testutil_mpi.h - helpers of the MPI test programs that work on device memory.
 */
#ifndef ECCL_TESTUTIL_MPI_H
#define ECCL_TESTUTIL_MPI_H

#include <mpi.h>
#include <stdio.h>

#include "eccl.h"
#include "eccl_cuda.h"

/* Collective over MPI_COMM_WORLD: 1 when every rank has a usable CUDA GPU, this rank then on GPU
 * rank % (GPUs it sees) (one GPU per rank where there are enough: NCCL); else 0, with a SKIP line
 * from rank 0 naming `what` (the caller then ends with MPI_Finalize and 77). */
static inline int tu_mpi_use_gpu(int rank, const char *what)
{
    int ndev = 0;
    eccl_result_t drc = eccl_cuda_device_count(&ndev);
    int ok = drc == ECCL_SUCCESS && ndev > 0 && eccl_cuda_device_check(rank % ndev, NULL, 0) == ECCL_SUCCESS;
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        if (rank == 0)
            printf("SKIP: %s need a usable CUDA GPU on every rank (%s)\n", what,
                   drc == ECCL_ERR_UNSUPPORTED ? "eccl was built without CUDA" : "none found");
        return 0;
    }
    if (eccl_cuda_set_device(rank % ndev) != ECCL_SUCCESS) {
        fprintf(stderr, "[%d] eccl_cuda_set_device(%d) failed\n", rank, rank % ndev);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return 1;
}

#endif
