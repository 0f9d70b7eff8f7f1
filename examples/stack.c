/*
 * stack.c - ensemble averaging (image stacking) with a compressed allreduce.
 *
 * Every rank reads the same real field from a netCDF file (default: the ocean potential
 * temperature pop.nc:t of the NCAR sample data, _FillValue points set to 0), perturbs it into its
 * own ensemble member (a smooth pattern of 1% of the field's range, different on every rank), and
 * the members are averaged twice: with MPI_Allreduce (SUM, then divided by the rank count) and
 * with eccl_allreduce(ECCL_OP_AVG) under an error bound on the average.  Every rank can rebuild
 * every member, so each computes the exact mean in long double and checks, element by element:
 *     |avg_eccl - exact mean| <= E + (p+2)*u*(mean of |x| + E) + u*|exact mean|
 * (E the bound on the result, u = 2^-24 the float32 rounding unit: doc/guarantees.md's allowance
 * for the rounding of a sum in the element type).  Rank 0 prints bytes, largest error against the
 * bound, PSNR and times.
 *
 *   mpiexec.mpich -n 4 ./examples/stack [--file F.nc] [--var NAME] [--rel E | --abs E]
 *                                       [--tile K] [--reps R] [--auto]
 * Exit status: 0 within the bound, 1 a violation, 2 bad usage, 3 an error, 77 no input file.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"

#ifndef ECCL_NCARG_DIR
#define ECCL_NCARG_DIR "/usr/share/ncarg/data/cdf"
#endif

typedef struct stack_opts {
    char file[1024];
    char var[128];
    eccl_bound_t bound;
    int tile, reps, autom;
} stack_opts;

static int rank, nranks;

static void usage(void)
{
    printf("usage: mpiexec.mpich -n RANKS ./examples/stack [options]\n"
           "\n"
           "Averages one perturbed copy of a netCDF field per rank with MPI_Allreduce and with\n"
           "eccl_allreduce(ECCL_OP_AVG) under an error bound; checks every element against the\n"
           "exact mean and prints bytes, largest error, PSNR and times.\n"
           "\n"
           "  --file F.nc   netCDF file (default $ECCL_NCARG_DIR/pop.nc, %s/pop.nc)\n"
           "  --var NAME    float variable, any shape (default t; hgt.nc: HGT)\n"
           "  --rel E       bound on the average: E * (range of the members) (default 1e-4)\n"
           "  --abs E       absolute bound on the average\n"
           "  --tile K      repeat the field K times (larger messages; default 1)\n"
           "  --reps R      timed repetitions, best reported (default 5)\n"
           "  --auto        let the cost model decide when to compress (default: always)\n",
           ECCL_NCARG_DIR);
}

static int parse_args(int argc, char **argv, stack_opts *o)
{
    const char *dir = getenv("ECCL_NCARG_DIR");
    snprintf(o->file, sizeof o->file, "%s/pop.nc", dir && *dir ? dir : ECCL_NCARG_DIR);
    snprintf(o->var, sizeof o->var, "t");
    eccl_bound_t rel = ECCL_BOUND_REL(1e-4);
    o->bound = rel;
    o->tile = 1;
    o->reps = 5;
    o->autom = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 1;
        if (!strcmp(a, "--auto")) {
            o->autom = 1;
            continue;
        }
        if (!v) goto bad;
        errno = 0;
        if (!strcmp(a, "--file")) {
            snprintf(o->file, sizeof o->file, "%s", v);
        } else if (!strcmp(a, "--var")) {
            snprintf(o->var, sizeof o->var, "%s", v);
        } else if (!strcmp(a, "--rel") || !strcmp(a, "--abs")) {
            double e = strtod(v, &end);
            if (*end || errno || !(e > 0) || !isfinite(e)) goto bad;
            o->bound.mode = a[2] == 'r' ? ECCL_MODE_REL : ECCL_MODE_ABS;
            o->bound.value = e;
            o->bound.range = a[2] == 'r' ? ECCL_RANGE_FROM_DATA : 0.0;
        } else if (!strcmp(a, "--tile") || !strcmp(a, "--reps")) {
            long k = strtol(v, &end, 10);
            if (*end || errno || k < 1 || k > 1000) goto bad;
            if (a[2] == 't') o->tile = (int)k;
            else o->reps = (int)k;
        } else {
            goto bad;
        }
        i++;
        continue;
    bad:
        if (rank == 0) fprintf(stderr, "stack: bad option or value: %s %s (try --help)\n", a, v ? v : "");
        return 2;
    }
    return 0;
}

/* The variable as float, fill and missing values set to 0, scale_factor/add_offset applied.
 * Returns 0, 77 (no such file) or 3 (another netCDF problem), with a message. */
static int read_field(const stack_opts *o, float **out, size_t *count, size_t *nfill, char *shape,
                      size_t shape_len)
{
    int nc, vid, ndims, dimids[NC_MAX_VAR_DIMS], rc;
    nc_type type;
    if ((rc = nc_open(o->file, NC_NOWRITE, &nc)) != NC_NOERR) {
        fprintf(stderr, "stack: %s: %s\n", o->file, nc_strerror(rc));
        return rc == ENOENT ? 77 : 3;
    }
    if ((rc = nc_inq_varid(nc, o->var, &vid)) || (rc = nc_inq_var(nc, vid, NULL, &type, &ndims, dimids, NULL))) {
        fprintf(stderr, "stack: %s: variable %s: %s\n", o->file, o->var, nc_strerror(rc));
        nc_close(nc);
        return 3;
    }
    size_t n = 1;
    shape[0] = '\0';
    for (int d = 0; d < ndims; d++) {
        size_t len;
        nc_inq_dimlen(nc, dimids[d], &len);
        n *= len;
        size_t used = strlen(shape);
        snprintf(shape + used, shape_len - used, "%s%zu", d ? " x " : "", len);
    }
    float *x = malloc(n * sizeof *x);
    if (!x || (rc = nc_get_var_float(nc, vid, x))) {
        fprintf(stderr, "stack: %s:%s: %s\n", o->file, o->var, x ? nc_strerror(rc) : "out of memory");
        free(x);
        nc_close(nc);
        return 3;
    }
    float fill = NC_FILL_FLOAT, missing = NC_FILL_FLOAT;
    double scale = 1.0, offset = 0.0;
    int has_fill = nc_get_att_float(nc, vid, "_FillValue", &fill) == NC_NOERR;
    int has_missing = nc_get_att_float(nc, vid, "missing_value", &missing) == NC_NOERR;
    nc_get_att_double(nc, vid, "scale_factor", &scale);
    nc_get_att_double(nc, vid, "add_offset", &offset);
    nc_close(nc);
    (void)type;
    *nfill = 0;
    for (size_t i = 0; i < n; i++) {
        if ((has_fill && x[i] == fill) || (has_missing && x[i] == missing) ||
            (!has_fill && x[i] == NC_FILL_FLOAT) || !isfinite(x[i])) {
            x[i] = 0.0f;
            ++*nfill;
        } else {
            x[i] = (float)(x[i] * scale + offset);
        }
    }
    *out = x;
    *count = n;
    return 0;
}

/* Member r: the field plus a smooth pattern of amplitude amp that depends on r. */
static float member(const float *field, size_t n, size_t i, int r, double amp)
{
    double t = (double)(i % n), k = 1.0 + 0.37 * r;
    return (float)(field[i % n] + amp * sin(1e-3 * k * t + r) * cos(2.3e-4 * t * (r + 2)));
}

static double best(double t_best, double t, MPI_Comm comm)
{
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t < t_best ? t : t_best;
}

static void die(const char *what, eccl_result_t rc)
{
    fprintf(stderr, "stack: rank %d: %s: %s\n", rank, what, eccl_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    stack_opts o;
    int st = parse_args(argc, argv, &o);
    if (st) {
        if (st == 1 && rank == 0) usage();
        MPI_Finalize();
        return st == 1 ? 0 : st;
    }

    float *field = NULL;
    size_t n0 = 0, nfill = 0;
    char shape[256];
    st = read_field(&o, &field, &n0, &nfill, shape, sizeof shape);
    MPI_Allreduce(MPI_IN_PLACE, &st, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (st) {
        if (st == 77 && rank == 0) fprintf(stderr, "stack: SKIP: no input file (libncarg-data, or --file)\n");
        free(field);
        MPI_Finalize();
        return st;
    }
    size_t n = n0 * (size_t)o.tile;
    float lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n0; i++) {
        lo = fminf(lo, field[i]);
        hi = fmaxf(hi, field[i]);
    }
    double amp = 0.01 * (hi - lo);

    /* this rank's member, and the exact mean of all members (every rank can make every member) */
    float *x = malloc(n * sizeof *x), *avg = malloc(n * sizeof *avg), *avg_mpi = malloc(n * sizeof *avg);
    long double *exact = malloc(n * sizeof *exact), *mabs = malloc(n * sizeof *mabs);
    if (!x || !avg || !avg_mpi || !exact || !mabs) die("allocation", ECCL_ERR_NO_MEMORY);
    for (size_t i = 0; i < n; i++) {
        long double s = 0, sa = 0;
        for (int r = 0; r < nranks; r++) {
            float v = member(field, n0, i, r, amp);
            s += v;
            sa += fabsl((long double)v);
        }
        exact[i] = s / nranks;
        mabs[i] = sa / nranks;
        x[i] = member(field, n0, i, rank, amp);
    }

    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.compress = o.autom ? ECCL_COMPRESS_AUTO : ECCL_COMPRESS_ALWAYS;
    eccl_comm_t comm;
    eccl_result_t rc = eccl_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc) die("eccl_comm_create", rc);

    double t_mpi = INFINITY, t_eccl = INFINITY;
    for (int k = 0; k < o.reps; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Allreduce(x, avg_mpi, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        for (size_t i = 0; i < n; i++) avg_mpi[i] /= (float)nranks;
        t_mpi = best(t_mpi, MPI_Wtime() - t0, MPI_COMM_WORLD);
    }
    eccl_stats_t stats;
    for (int k = 0; k < o.reps; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if ((rc = eccl_allreduce(x, avg, n, ECCL_FLOAT32, ECCL_OP_AVG, &o.bound, comm)))
            die("eccl_allreduce", rc);
        t_eccl = best(t_eccl, MPI_Wtime() - t0, MPI_COMM_WORLD);
    }
    eccl_comm_last_stats(comm, &stats);

    /* errors against the exact mean */
    const long double u = 0x1p-24L;
    long double E = stats.bound_requested, worst = 0, worst_mpi = 0, se = 0, se_mpi = 0, ratio = 0;
    unsigned long long bad = 0;
    for (size_t i = 0; i < n; i++) {
        long double e = fabsl((long double)avg[i] - exact[i]), em = fabsl((long double)avg_mpi[i] - exact[i]);
        long double allow = E + (nranks + 2) * u * (mabs[i] + E) + u * fabsl(exact[i]);
        if (!(e <= allow)) bad++;
        if (e / allow > ratio) ratio = e / allow;
        worst = e > worst ? e : worst;
        worst_mpi = em > worst_mpi ? em : worst_mpi;
        se += e * e;
        se_mpi += em * em;
    }
    /* maxima: errors and error/allowance; sums: violations, squared errors, bytes */
    double v[3] = {(double)worst, (double)worst_mpi, (double)ratio};
    double w[5] = {(double)bad, (double)se, (double)se_mpi, (double)stats.bytes_raw,
                   (double)(stats.compressed ? stats.bytes_sent : stats.bytes_raw)};
    MPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, w, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    if (rank == 0) {
        double range = hi - lo + 2 * amp;
        /* every rank holds the whole average: the squared errors were summed over nranks copies */
        double psnr = w[1] > 0 ? 20 * log10(range / sqrt(w[1] / ((double)n * nranks))) : INFINITY;
        double psnr_mpi = w[2] > 0 ? 20 * log10(range / sqrt(w[2] / ((double)n * nranks))) : INFINITY;
        printf("eccl ensemble average: %s:%s (%s float32, %zu fill points set to 0)%s, %d members\n",
               o.file, o.var, shape, nfill, o.tile > 1 ? " tiled" : "", nranks);
        printf("eccl %s\n", eccl_version_string());
        printf("bound on the average: %s %g -> E = %.3e (algorithm %s, %s)\n\n",
               o.bound.mode == ECCL_MODE_REL ? "REL" : "ABS", o.bound.value, (double)E,
               stats.algorithm, stats.compressed ? "compressed" : "not compressed");
        printf("                            MPI_Allreduce   eccl_allreduce(AVG)\n");
        printf("bytes sent, all ranks   %17.0f   %17.0f  (%.1f%% saved)\n", w[3], w[4],
               100.0 * (1.0 - w[4] / (w[3] > 0 ? w[3] : 1)));
        printf("max |avg - exact mean|  %17.3e   %17.3e  bound %.3e + rounding\n", v[1], v[0], (double)E);
        printf("worst error / allowance %17s   %17.4f  %s (%.0f elements over)\n", "-", v[2],
               w[0] == 0 ? "OK" : "VIOLATED", w[0]);
        printf("PSNR vs exact mean (dB) %17.1f   %17.1f\n", psnr_mpi, psnr);
        printf("time (ms), best of %-3d %17.3f   %17.3f\n", o.reps, t_mpi * 1e3, t_eccl * 1e3);
    }
    eccl_comm_free(&comm);
    free(field);
    free(x);
    free(avg);
    free(avg_mpi);
    free(exact);
    free(mabs);
    MPI_Finalize();
    return w[0] == 0 ? 0 : 1;
}
