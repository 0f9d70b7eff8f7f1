/*
 * interpose_c.c - a plain BLACS program in C (no eccl in it) for tests/test_interpose.sh: the C
 * entry points Cxgebs2d / Cxgebr2d / Cxgsum2d for s, d, c, z on a 1 x P grid, strided blocks
 * (lda > m, the rows between m and lda must stay untouched), every element checked against the
 * bound given as argv[1] (0: exact), then MPI_Finalize WITHOUT blacs_gridexit or blacs_exit, so
 * that libeccl_blacs's report comes from its MPI_Finalize hook.
 *
 * usage: mpiexec -n P interpose_c E      exit 0: all within the bound; 1: not; 2: usage
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int *iam, int *nprocs);
void Cblacs_get(int ictxt, int what, int *val);
void Cblacs_gridinit(int *ictxt, char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Csgebs2d(int, char *, char *, int, int, float *, int);
void Cdgebs2d(int, char *, char *, int, int, double *, int);
void Ccgebs2d(int, char *, char *, int, int, float *, int);
void Czgebs2d(int, char *, char *, int, int, double *, int);
void Csgebr2d(int, char *, char *, int, int, float *, int, int, int);
void Cdgebr2d(int, char *, char *, int, int, double *, int, int, int);
void Ccgebr2d(int, char *, char *, int, int, float *, int, int, int);
void Czgebr2d(int, char *, char *, int, int, double *, int, int, int);
void Csgsum2d(int, char *, char *, int, int, float *, int, int, int);
void Cdgsum2d(int, char *, char *, int, int, double *, int, int, int);
void Ccgsum2d(int, char *, char *, int, int, float *, int, int, int);
void Czgsum2d(int, char *, char *, int, int, double *, int, int, int);

enum { M = 300, N = 40, LDA = 307 };
static const double GUARD = -12345.0;

/* The value of element (i, j), part q (0 real, 1 imaginary) on process p: smooth in i, j. */
static double val(int p, int i, int j, int q) { return sin(0.01 * i + 0.1 * j + q) + 0.001 * p; }

/* Fill column-major blocks of `parts` reals per element (1 real, 2 complex) as float or double. */
static void fill(void *a, int dbl, int parts, int p)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++)
            for (int q = 0; q < parts; q++) {
                double v = i < M ? val(p, i, j, q) : GUARD;
                size_t k = ((size_t)j * LDA + i) * parts + q;
                if (dbl) ((double *)a)[k] = v;
                else ((float *)a)[k] = (float)v;
            }
}

/* Count elements outside want(i, j, q) +- tol (and guard rows changed). */
static long check(const void *a, int dbl, int parts, double (*want)(int, int, int, int), int np, double tol)
{
    long bad = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++)
            for (int q = 0; q < parts; q++) {
                size_t k = ((size_t)j * LDA + i) * parts + q;
                double got = dbl ? ((const double *)a)[k] : ((const float *)a)[k];
                double w = i < M ? want(np, i, j, q) : GUARD;
                double t = i < M ? tol : 0;
                if (!(fabs(got - w) <= t)) bad++;
            }
    return bad;
}

static double want_bcast(int np, int i, int j, int q)
{
    (void)np;
    return val(0, i, j, q); /* the sender is process 0 */
}
static double want_sum(int np, int i, int j, int q)
{
    double s = 0;
    for (int p = 0; p < np; p++) s += val(p, i, j, q);
    return s;
}

int main(int argc, char **argv)
{
    int iam, np, ctx, nprow, npcol, myrow, mycol;
    double e = argc == 2 ? atof(argv[1]) : -1;
    if (e < 0) {
        fprintf(stderr, "usage: mpiexec -n P interpose_c E   (E >= 0: the bound to check)\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    Cblacs_pinfo(&iam, &np);
    Cblacs_get(0, 0, &ctx);
    Cblacs_gridinit(&ctx, "Row", 1, np);
    Cblacs_gridinfo(ctx, &nprow, &npcol, &myrow, &mycol);
    void *a = malloc(sizeof(double) * 2 * LDA * N);
    long bad = 0;
    const char *names = "sdcz";
    for (int t = 0; t < 4; t++) {
        int dbl = t == 1 || t == 3, parts = t >= 2 ? 2 : 1;
        double ulp = dbl ? 2.3e-16 : 1.2e-7;
        /* broadcast from (0, 0) along the row */
        fill(a, dbl, parts, mycol == 0 ? 0 : 99);
        if (mycol == 0) {
            switch (t) {
            case 0: Csgebs2d(ctx, "R", " ", M, N, a, LDA); break;
            case 1: Cdgebs2d(ctx, "R", " ", M, N, a, LDA); break;
            case 2: Ccgebs2d(ctx, "R", " ", M, N, a, LDA); break;
            default: Czgebs2d(ctx, "R", " ", M, N, a, LDA);
            }
        } else {
            switch (t) {
            case 0: Csgebr2d(ctx, "R", " ", M, N, a, LDA, 0, 0); break;
            case 1: Cdgebr2d(ctx, "R", " ", M, N, a, LDA, 0, 0); break;
            case 2: Ccgebr2d(ctx, "R", " ", M, N, a, LDA, 0, 0); break;
            default: Czgebr2d(ctx, "R", " ", M, N, a, LDA, 0, 0);
            }
        }
        /* the float types: the sender's value was rounded to float first */
        long b1 = check(a, dbl, parts, want_bcast, np, e + 2 * ulp);
        /* sum over the row, result everywhere */
        fill(a, dbl, parts, mycol);
        switch (t) {
        case 0: Csgsum2d(ctx, "R", " ", M, N, a, LDA, -1, -1); break;
        case 1: Cdgsum2d(ctx, "R", " ", M, N, a, LDA, -1, -1); break;
        case 2: Ccgsum2d(ctx, "R", " ", M, N, a, LDA, -1, -1); break;
        default: Czgsum2d(ctx, "R", " ", M, N, a, LDA, -1, -1);
        }
        long b2 = check(a, dbl, parts, want_sum, np, e + 4.0 * np * ulp * (1 + np));
        if (b1 || b2)
            fprintf(stderr, "interpose_c: process %d: %c: %ld broadcast and %ld sum elements outside the bound %g\n",
                    iam, names[t], b1, b2, e);
        bad += b1 + b2;
    }
    long all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (iam == 0)
        printf("interpose_c: %d processes, s d c z broadcasts and sums of %d x %d (lda %d): %ld elements "
               "outside the bound %g\n", np, M, N, LDA, all, e);
    free(a);
    MPI_Finalize(); /* no blacs_gridexit, no blacs_exit: the report comes from MPI_Finalize */
    return all ? 1 : 0;
}
