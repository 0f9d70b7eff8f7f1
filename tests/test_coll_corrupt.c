/*
 * test_coll_corrupt.c - a corrupted compressed stream from a peer is detected, every rank returns
 * ECCL_ERR_CORRUPT, and nobody hangs. Run with ECCL_FAULT_INJECT=R:N in the environment (rank R
 * flips one bit of the N-th message it sends on every communicator created after that).
 *
 *   ECCL_FAULT_INJECT=1:1 mpiexec -n 4 tests/test_coll_corrupt [--float32] [--device]
 *
 * --float32: float32 data (the GPU's homomorphic kernel handles it) instead of float64;
 * --device: the buffers are CUDA device memory, so compressed algorithms run device-resident and
 * the peers' streams are validated by the GPU codec (skips, 77, without a usable GPU).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!getenv("ECCL_FAULT_INJECT")) {
        if (rank == 0) printf("SKIP: run with ECCL_FAULT_INJECT=R:N (see the header)\n");
        MPI_Finalize();
        return 77;
    }
    int use_dev = 0, f32 = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device")) use_dev = 1;
        else if (!strcmp(argv[i], "--float32")) f32 = 1;
    }
    if (use_dev) {
        if (!tu_mpi_use_gpu(rank, "corrupt streams with --device")) {
            MPI_Finalize();
            return 77;
        }
    }
    const eccl_dtype_t dt = f32 ? ECCL_FLOAT32 : ECCL_FLOAT64;
    const size_t es = f32 ? 4 : 8;
    int frank = 0;
    long fnth = 0;
    if (sscanf(getenv("ECCL_FAULT_INJECT"), "%d:%ld", &frank, &fnth) != 2 || frank < 0 || frank >= size) frank = -1;
    /* roots: the faulty rank must send compressed data, so it is the root of bcast and scatter and a
     * non-root of gather and reduce */
    int sroot = frank >= 0 ? frank : 0, rroot = frank >= 0 ? (frank + 1) % size : 0;
    const size_t n = 50000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *xf = malloc(n * sizeof *xf);
    void *dx = NULL, *dy = NULL; /* --device: the buffers the calls get */
    if (use_dev && (eccl_cuda_malloc(&dx, n * es) || eccl_cuda_malloc(&dy, n * es))) MPI_Abort(MPI_COMM_WORLD, 3);
    void *X = use_dev ? dx : f32 ? (void *)xf : (void *)x, *Y = use_dev ? dy : (void *)y;
    eccl_bound_t b = {ECCL_MODE_ABS, f32 ? 1e-3 : 1e-6, 0};
    /* every compressed collective on its own communicator, so the fault hits each of them */
    const char *colls[][2] = {{"allreduce", "ring"}, {"allreduce", "ring_pipelined"},
                              {"allreduce", "recursive_doubling"}, {"allreduce", "rabenseifner"},
                              {"allreduce", "reduce_bcast"}, {"bcast", "binomial"}, {"bcast", "scatter_allgather"},
                              {"bcast", "pipeline"}, {"allgather", "ring"}, {"allgather", "bruck"},
                              {"reduce", "binomial"}, {"reduce_scatter_block", "ring"},
                              {"reduce_scatter_block", "ring_pipelined"},
                              {"reduce_scatter_block", "recursive_halving"}, {"gather", "binomial"},
                              {"scatter", "binomial"}, {"allreduce", "hierarchical"}};
    for (unsigned k = 0; k < sizeof colls / sizeof *colls; k++) {
        eccl_comm_t c;
        eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
        cfg.alpha = 1e-6;
        cfg.beta = 1e-9;
        if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c)) MPI_Abort(MPI_COMM_WORLD, 2);
        eccl_comm_set_algorithm(c, colls[k][0], colls[k][1]);
        for (size_t i = 0; i < n; i++) x[i] = sin(i * 1e-3) + rank, xf[i] = (float)x[i];
        if (use_dev && eccl_cuda_memcpy(dx, f32 ? (void *)xf : (void *)x, n * es)) MPI_Abort(MPI_COMM_WORLD, 3);
        size_t per = n / (size_t)size;
        eccl_result_t rc;
        if (!strcmp(colls[k][0], "allreduce")) rc = eccl_allreduce(X, Y, n, dt, ECCL_OP_SUM, &b, c);
        else if (!strcmp(colls[k][0], "bcast")) rc = eccl_bcast(X, n, dt, sroot, &b, c);
        else if (!strcmp(colls[k][0], "allgather")) rc = eccl_allgather(X, Y, per, dt, &b, c);
        else if (!strcmp(colls[k][0], "reduce")) rc = eccl_reduce(X, Y, n, dt, ECCL_OP_SUM, rroot, &b, c);
        else if (!strcmp(colls[k][0], "reduce_scatter_block"))
            rc = eccl_reduce_scatter_block(X, Y, per, dt, ECCL_OP_SUM, &b, c);
        else if (!strcmp(colls[k][0], "gather")) rc = eccl_gather(X, Y, per, dt, rroot, &b, c);
        else rc = eccl_scatter(X, Y, per, dt, sroot, &b, c);
        eccl_stats_t st;
        eccl_comm_last_stats(c, &st);
        if (!strcmp(colls[k][1], "hierarchical") && strcmp(st.algorithm, "hierarchical")) {
            /* one node (or nodes of different sizes): it fell back to MPI; ECCL_NODE_SIZE runs it */
            eccl_comm_free(&c);
            continue;
        }
        /* (hierarchical: device-resident through CUDA IPC inside each node, unless ECCL_NODE_IPC=0) */
        const char *ipc = getenv("ECCL_NODE_IPC");
        int staged = !strcmp(colls[k][1], "rabenseifner") ||
                     (!strcmp(colls[k][1], "hierarchical") && ipc && !strcmp(ipc, "0"));
        int want_where = !use_dev ? 0 : staged ? 1 : 2;
        if (size > 1 && st.device != want_where) {
            fprintf(stderr, "[rank %d] %s/%s ran with device = %d, expected %d\n", rank, colls[k][0], colls[k][1],
                    st.device, want_where);
            failures++;
        }
        /* one rank corrupts its first message: with p > 1 the collective must fail everywhere */
        int want = size > 1 && frank >= 0 ? ECCL_ERR_CORRUPT : ECCL_SUCCESS, all_ok = rc == (eccl_result_t)want, every = 0;
        MPI_Allreduce(&all_ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all_ok) {
            fprintf(stderr, "[rank %d] %s/%s returned %d (%s), expected %d: %s\n", rank, colls[k][0], colls[k][1],
                    (int)rc, eccl_strerror(rc), want, eccl_comm_last_error(c));
            failures++;
        }
        /* and the communicator still works afterwards (the fault fired once) */
        eccl_bound_t lossless = ECCL_BOUND_LOSSLESS;
        rc = eccl_allreduce(X, Y, n, dt, ECCL_OP_MAX, &lossless, c);
        if (rc) {
            fprintf(stderr, "[rank %d] follow-up allreduce failed: %s\n", rank, eccl_strerror(rc));
            failures++;
        }
        eccl_comm_free(&c);
    }
    int tot = 0;
    MPI_Allreduce(&failures, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_coll_corrupt on %d ranks: %d failures\n", size, tot);
    free(x);
    free(y);
    free(xf);
    eccl_cuda_free(dx);
    eccl_cuda_free(dy);
    MPI_Finalize();
    return tot ? 1 : 0;
}
