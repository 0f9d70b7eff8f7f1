/*
 * test_cuda_aware.c - the CUDA-aware MPI decision of a communicator (eccl_cuda_comm_mpi_aware):
 * what ECCL_CUDA_AWARE says (0, 1), or what the MPI library says through MPIX_Query_cuda_support
 * (auto). Needs no GPU: it checks the decision, which the collectives on device buffers follow
 * (tests/test_coll_device checks where each call ran).
 *   test_cuda_aware 0|1|auto
 */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"
#include "eccl_cuda.h"

#ifdef HAVE_MPIX_QUERY_CUDA_SUPPORT
int MPIX_Query_cuda_support(void);
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 2 || (strcmp(argv[1], "0") && strcmp(argv[1], "1") && strcmp(argv[1], "auto"))) {
        if (rank == 0) fprintf(stderr, "usage: test_cuda_aware 0|1|auto\n");
        MPI_Finalize();
        return 2;
    }
    int expect = 0;
    if (!strcmp(argv[1], "1")) expect = 1;
#ifdef HAVE_MPIX_QUERY_CUDA_SUPPORT
    if (!strcmp(argv[1], "auto")) expect = MPIX_Query_cuda_support() == 1;
#endif
    eccl_comm_t comm;
    if (eccl_comm_create(MPI_COMM_WORLD, NULL, &comm) != ECCL_SUCCESS) {
        fprintf(stderr, "rank %d: eccl_comm_create failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int aware = -1;
    eccl_result_t rc = eccl_cuda_comm_mpi_aware(comm, &aware);
#ifdef HAVE_CUDA
    if (rc != ECCL_SUCCESS || aware != expect) {
        printf("FAIL rank %d: ECCL_CUDA_AWARE=%s: rc %d aware %d, expected %d\n", rank,
               getenv("ECCL_CUDA_AWARE") ? getenv("ECCL_CUDA_AWARE") : "(unset)", (int)rc, aware, expect);
        failures++;
    }
#else
    (void)expect;
    if (rc != ECCL_ERR_UNSUPPORTED || aware != 0) { /* no CUDA backend: never aware, and it says why */
        printf("FAIL rank %d: without the CUDA backend: rc %d aware %d\n", rank, (int)rc, aware);
        failures++;
    }
#endif
    if (eccl_cuda_comm_mpi_aware(NULL, &aware) != ECCL_ERR_INVALID_ARG ||
        eccl_cuda_comm_mpi_aware(comm, NULL) != ECCL_ERR_INVALID_ARG) {
        printf("FAIL rank %d: NULL arguments accepted\n", rank);
        failures++;
    }
    eccl_comm_free(&comm);
    int tot = 0;
    MPI_Allreduce(&failures, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_cuda_aware %s: %s (%d failures)\n", argv[1], tot ? "FAIL" : "ok", tot);
    MPI_Finalize();
    return tot ? 1 : 0;
}
