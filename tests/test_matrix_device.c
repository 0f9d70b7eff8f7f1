/*
 * test_matrix_device.c - the collectives on strided device matrices (src/coll/coll.h:
 * eccl_bcast_matrix, eccl_allreduce_matrix, eccl_reduce_matrix, what the BLACS drop-ins call) when
 * no device buffer can be had to pack the matrix: the call must still complete on every rank (the
 * matrix is packed into host memory and the call runs there), with the same values as with a
 * device pack buffer, the rows outside the matrix untouched, and the call reported as staged.
 * Every algorithm that packs (uncompressed mpi, the host-data rabenseifner, a forced compressed one
 * for comparison). Skips (77) without a GPU on every rank.
 *
 * Usage: mpiexec -n P tests/test_matrix_device
 */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"

static int rank, size, failures;

#define CK(call)                                                                                   \
    do {                                                                                           \
        eccl_result_t rc_ = (call);                                                                \
        if (rc_) {                                                                                 \
            fprintf(stderr, "[%d] %s:%d: %s -> %s\n", rank, __FILE__, __LINE__, #call, eccl_strerror(rc_)); \
            MPI_Abort(MPI_COMM_WORLD, 99);                                                         \
        }                                                                                          \
    } while (0)

/* Pack buffers: a device one, and none at all (out of device memory). */
static void *dev_pack(void *arg, size_t bytes)
{
    void **buf = arg;
    if (*buf) CK(eccl_cuda_free(*buf));
    *buf = NULL;
    CK(eccl_cuda_malloc(buf, bytes ? bytes : 64));
    return *buf;
}
static void *no_pack(void *arg, size_t bytes)
{
    (void)arg, (void)bytes;
    return NULL;
}

enum { BCAST, ALLREDUCE, REDUCE };
static const char *names[] = {"bcast", "allreduce", "reduce"};

static eccl_result_t call(int coll, double *d, size_t m, size_t n, size_t ld, eccl_comm_t ec,
                          void *(*pack)(void *, size_t), void *arg)
{
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-6, 0};
    int root = size - 1;
    switch (coll) {
    case BCAST: return eccl_bcast_matrix(d, m, n, ld, ECCL_FLOAT64, root, &b, ec, pack, arg);
    case ALLREDUCE: return eccl_allreduce_matrix(d, m, n, ld, ECCL_FLOAT64, ECCL_OP_SUM, &b, ec, pack, arg);
    default: return eccl_reduce_matrix(d, m, n, ld, ECCL_FLOAT64, ECCL_OP_SUM, root, &b, ec, pack, arg);
    }
}

/* One collective with one algorithm on an m x n matrix in ld rows: with a device pack buffer, then
 * with none; the results (and the gaps) must agree bit for bit. */
static void one_case(eccl_comm_t ec, int coll, const char *alg, size_t m, size_t n, size_t ld)
{
    size_t total = ld * n;
    double *h = malloc(total * sizeof *h), *r1 = malloc(total * sizeof *h), *r2 = malloc(total * sizeof *h);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < ld; i++)
            h[j * ld + i] = i < m ? 0.5 * rank + 1e-3 * (double)(i + 7 * j) : -12345.0 - (double)i; /* gaps */
    void *d = NULL, *pk = NULL;
    CK(eccl_cuda_malloc(&d, total * sizeof *h));
    CK(eccl_comm_set_algorithm(ec, names[coll], alg));

    CK(eccl_cuda_memcpy(d, h, total * sizeof *h));
    eccl_result_t rc1 = call(coll, d, m, n, ld, ec, dev_pack, &pk);
    CK(eccl_cuda_memcpy(r1, d, total * sizeof *h));
    eccl_stats_t s1;
    eccl_comm_last_stats(ec, &s1);

    CK(eccl_cuda_memcpy(d, h, total * sizeof *h));
    eccl_result_t rc2 = call(coll, d, m, n, ld, ec, no_pack, NULL);
    CK(eccl_cuda_memcpy(r2, d, total * sizeof *h));
    eccl_stats_t s2;
    eccl_comm_last_stats(ec, &s2);

    int bad = 0;
    int defined = !(coll == REDUCE && rank != size - 1); /* (a reduce defines the root's result only) */
    if (rc1 || rc2) {
        fprintf(stderr, "[%d] %s/%s %zux%zu ld %zu: with a pack buffer %s, without %s (%s)\n", rank, names[coll], alg,
                m, n, ld, eccl_strerror(rc1), eccl_strerror(rc2), eccl_comm_last_error(ec));
        bad = 1;
    } else if (defined && memcmp(r1, r2, total * sizeof *h) != 0) {
        fprintf(stderr, "[%d] %s/%s %zux%zu ld %zu: results differ without a pack buffer\n", rank, names[coll], alg, m,
                n, ld);
        bad = 1;
    } else if (size > 1 && strcmp(alg, "ring") && strcmp(alg, "binomial") && s2.device != 1) {
        fprintf(stderr, "[%d] %s/%s: ran with device = %d without a pack buffer, expected 1 (host)\n", rank,
                names[coll], alg, s2.device);
        bad = 1;
    }
    for (size_t j = 0; j < n && !bad; j++) /* rows m..ld-1 of every column untouched, both times */
        for (size_t i = m; i < ld; i++)
            if (r1[j * ld + i] != h[j * ld + i] || r2[j * ld + i] != h[j * ld + i]) {
                fprintf(stderr, "[%d] %s/%s: row %zu of column %zu (outside the matrix) changed\n", rank, names[coll],
                        alg, i, j);
                bad = 1;
                break;
            }
    failures += bad;
    CK(eccl_cuda_free(d));
    if (pk) CK(eccl_cuda_free(pk));
    free(h);
    free(r1);
    free(r2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!tu_mpi_use_gpu(rank, "matrix collectives on device memory")) {
        MPI_Finalize();
        return 77;
    }
    eccl_comm_t ec;
    CK(eccl_comm_create(MPI_COMM_WORLD, NULL, &ec));
    const char *algs[3][4] = {{"mpi", "binomial", NULL}, {"mpi", "rabenseifner", "ring", NULL}, {"mpi", "binomial", NULL}};
    const size_t shapes[][3] = {{37, 5, 41}, {1000, 3, 1003}, {64, 64, 64}};
    int cases = 0;
    for (int coll = 0; coll < 3; coll++)
        for (int a = 0; algs[coll][a]; a++)
            for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++, cases++)
                one_case(ec, coll, algs[coll][a], shapes[k][0], shapes[k][1], shapes[k][2]);
    CK(eccl_comm_free(&ec));
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_matrix_device: %d ranks, %d cases, %d failures\n", size, cases, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
