/* timing.h - what the overlap benchmarks share: the slowest rank's time of one run, the median of
 * several runs (sorts its array), and their --mib lists. */
#ifndef ECCL_BENCH_TIMING_H
#define ECCL_BENCH_TIMING_H

#include <mpi.h>
#include <stdlib.h>

static inline double bench_slowest(double t)
{
    double m = 0;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return t[n / 2];
}

/* A comma list of sizes ("16,64,256") into out[0..max): how many were read. */
static inline int bench_mib_list(const char *spec, size_t *out, int max)
{
    int n = 0;
    for (char *e; *spec && n < max; spec = *e ? e + 1 : e) out[n++] = strtoull(spec, &e, 10);
    return n;
}

#endif
