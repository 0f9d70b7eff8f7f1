/* consumer.c - the smallest C program against an installed eccl (doc/install.md): rank 0 makes a
 * smooth float64 field, eccl_bcast sends it to every rank with an absolute bound, and every rank
 * checks every element it received against the bound.
 *
 *   make -f examples/consumer/Makefile            (pkg-config)  or CMakeLists.txt (find_package)
 *   mpiexec -n 2 ./consumer_c                     prints "consumer_c: OK ..."; exit status 1 when
 *                                                 an element is outside the bound or a call fails
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include <eccl.h>

#define N 100000   /* elements: 800 KB, above the size below which eccl never compresses */
#define BOUND 1e-6 /* ABS: every received element within 1e-6 of the root's */

static double value(size_t i)
{
    double t = (double)i / N;
    return sin(20.0 * t) + 0.5 * cos(7.0 * t) + 3.0 * t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* ALWAYS: compress even where the cost model would send the raw array (one node, fast
     * memory), so that the bound is exercised; applications leave the default, AUTO. */
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.compress = ECCL_COMPRESS_ALWAYS;
    eccl_comm_t comm = NULL;
    int bad = 0;
    eccl_result_t rc = eccl_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc != ECCL_SUCCESS) {
        fprintf(stderr, "consumer_c: rank %d: eccl_comm_create: %s\n", rank, eccl_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    double *x = malloc(N * sizeof *x);
    if (!x) MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < N; i++) x[i] = rank == 0 ? value(i) : 0.0;

    eccl_bound_t bound = ECCL_BOUND_ABS(BOUND);
    rc = eccl_bcast(x, N, ECCL_FLOAT64, 0, &bound, comm);
    if (rc != ECCL_SUCCESS) {
        fprintf(stderr, "consumer_c: rank %d: eccl_bcast: %s (%s)\n", rank, eccl_strerror(rc),
                eccl_comm_last_error(comm));
        bad = 1;
    }
    eccl_stats_t st;
    int compressed = eccl_comm_last_stats(comm, &st) == ECCL_SUCCESS && st.compressed;
    double ratio = st.ratio;

    double maxerr = 0.0;
    size_t nbad = 0;
    for (size_t i = 0; i < N && !bad; i++) {
        double err = fabs(x[i] - value(i));
        if (err > maxerr) maxerr = err;
        if (!(err <= BOUND)) { /* also catches NaN */
            if (nbad < 5)
                fprintf(stderr, "consumer_c: rank %d: x[%zu] = %.17g, expected %.17g +- %g\n",
                        rank, i, x[i], value(i), BOUND);
            nbad++;
        }
    }
    if (nbad > 0) bad = 1;

    int bad_any = 0;
    double maxerr_all = 0.0;
    MPI_Allreduce(&bad, &bad_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&maxerr, &maxerr_all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        if (bad_any)
            printf("consumer_c: FAILED: eccl_bcast on %d ranks (see the messages above)\n", size);
        else
            printf("consumer_c: OK: eccl %s; eccl_bcast of %d float64 to %d ranks, %s (ratio "
                   "%.2f), max error %.3g <= bound %g\n",
                   eccl_version_string(), N, size, compressed ? "compressed" : "not compressed",
                   ratio, maxerr_all, BOUND);
    }
    free(x);
    eccl_comm_free(&comm);
    MPI_Finalize();
    return bad_any ? 1 : 0;
}
