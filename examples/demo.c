/*
 * demo.c - an error-bounded compressed broadcast, built by hand from the eccl codec.
 *
 * Rank 0 holds a smooth 2-D float64 field.  It is sent to every rank twice:
 *   plain:      MPI_Bcast of the raw array;
 *   compressed: rank 0 calls eccl_compress once, broadcasts the stream size and then the stream,
 *               and every rank calls eccl_decompress.
 * Every rank then checks, element by element, that the decompressed field is within the bound
 * of the raw one, and rank 0 prints the bytes sent, the ratio, the largest error and the times.
 * The program exits nonzero if any element anywhere breaks the bound.
 *
 * This is the thin end of what eccl's collectives will do (tree broadcasts of compressed bytes
 * that switch compression off when it does not pay); it uses only the public codec API.
 *
 *   mpiexec.mpich -n 4 ./examples/demo [--n 2048] [--rel 1e-5 | --abs E] [--reps 5]
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"

#define DEMO_PI 3.14159265358979323846

typedef struct demo_opts {
    size_t n;           /* the field is n x n */
    eccl_bound_t bound; /* what the user asked for */
    int reps;           /* timed repetitions; the best one is reported */
} demo_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpiexec.mpich -n RANKS ./examples/demo [options]\n"
            "\n"
            "Broadcasts an n x n float64 field from rank 0 to every rank, once with a plain\n"
            "MPI_Bcast and once compressed by eccl with an error bound, checks every element on\n"
            "every rank against the bound, and prints bytes, ratio, largest error and times.\n"
            "\n"
            "options:\n"
            "  --n N       field side (default 2048: 2048 x 2048 float64 = 32 MiB)\n"
            "  --rel E     relative bound: |x - x'| <= E * (max - min) (default 1e-5)\n"
            "  --abs E     absolute bound: |x - x'| <= E\n"
            "  --reps R    timed repetitions, best reported (default 5)\n"
            "  --help      this text\n"
            "\n"
            "exit status: 0 all elements within the bound, 1 a bound violation, 2 bad usage,\n"
            "other: an MPI or eccl error.\n");
}

/* "--name value" or "--name=value": returns the value, advancing *i, or NULL if absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) != 0) return NULL;
    if (argv[*i][len] == '=') return argv[*i] + len + 1;
    if (argv[*i][len] != '\0') return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s && !*end && !errno && isfinite(*v) && *v > 0;
}

static int parse_size(const char *s, unsigned long long max, unsigned long long *v)
{
    char *end;
    errno = 0;
    if (*s == '-') return 0;
    *v = strtoull(s, &end, 10);
    return *s && !*end && !errno && *v >= 1 && *v <= max;
}

/* Returns 0 to run, 1 for --help, 2 for bad usage (message printed by rank 0). */
static int parse_args(int argc, char **argv, int rank, demo_opts *o)
{
    eccl_bound_t rel = ECCL_BOUND_REL(1e-5);
    o->n = 2048;
    o->bound = rel;
    o->reps = 5;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *v;
        unsigned long long u;
        double d;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
        if ((v = opt_value(argc, argv, &i, "--n"))) {
            /* n*n*8 bytes must fit in size_t and in an int count of MPI_BYTE chunks */
            if (!parse_size(v, 1ull << 20, &u)) goto bad;
            o->n = (size_t)u;
        } else if ((v = opt_value(argc, argv, &i, "--rel"))) {
            if (!parse_double(v, &d)) goto bad;
            o->bound.mode = ECCL_MODE_REL;
            o->bound.value = d;
            o->bound.range = ECCL_RANGE_FROM_DATA;
        } else if ((v = opt_value(argc, argv, &i, "--abs"))) {
            if (!parse_double(v, &d)) goto bad;
            o->bound.mode = ECCL_MODE_ABS;
            o->bound.value = d;
            o->bound.range = 0.0;
        } else if ((v = opt_value(argc, argv, &i, "--reps"))) {
            if (!parse_size(v, 1000, &u)) goto bad;
            o->reps = (int)u;
        } else {
            if (rank == 0) fprintf(stderr, "demo: unknown option '%s' (try --help)\n", argv[i]);
            return 2;
        }
        continue;
    bad:
        if (rank == 0)
            fprintf(stderr, "demo: bad value '%s' for %s (try --help)\n", v, opt);
        return 2;
    }
    return 0;
}

/* A smooth field on [0,1]^2: a few Gaussian bumps on a sin-cos background.  Every term is a
 * product of a function of x and a function of y, so the transcendental calls are O(n) per term
 * and the O(n^2) loop only multiplies and adds.  Stored row-major: a[j*n + i] = f(x_i, y_j). */
static void make_field(double *a, size_t n)
{
    static const struct { double amp, cx, cy, w; } bump[] = {
        {1.00, 0.30, 0.35, 0.12}, {-0.70, 0.70, 0.60, 0.08}, {0.45, 0.55, 0.20, 0.05},
        {0.30, 0.15, 0.80, 0.20}, {-0.25, 0.85, 0.15, 0.10},
    };
    enum { NB = sizeof bump / sizeof bump[0], NT = NB + 1 };
    double *fx = malloc(sizeof(double) * NT * n), *fy = malloc(sizeof(double) * NT * n);
    if (!fx || !fy) {
        fprintf(stderr, "demo: out of memory for the field\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    for (size_t i = 0; i < n; i++) {
        double t = n > 1 ? (double)i / (double)(n - 1) : 0.0;
        for (int k = 0; k < NB; k++) {
            double dx = (t - bump[k].cx) / bump[k].w, dy = (t - bump[k].cy) / bump[k].w;
            fx[k * n + i] = bump[k].amp * exp(-0.5 * dx * dx);
            fy[k * n + i] = exp(-0.5 * dy * dy);
        }
        fx[NB * n + i] = 0.2 * sin(6.0 * DEMO_PI * t);
        fy[NB * n + i] = cos(4.0 * DEMO_PI * t);
    }
    for (size_t j = 0; j < n; j++) {
        double *row = a + j * n;
        for (size_t i = 0; i < n; i++) row[i] = 0.0;
        for (int k = 0; k < NT; k++) {
            const double *px = fx + k * n;
            double y = fy[k * n + j];
            for (size_t i = 0; i < n; i++) row[i] += px[i] * y;
        }
    }
    free(fx);
    free(fy);
}

/* MPI counts are int: broadcast bytes in chunks of at most 1 GiB. */
static void bcast_bytes(void *buf, size_t size, int root, MPI_Comm comm)
{
    const size_t chunk = (size_t)1 << 30;
    for (size_t off = 0; off < size; off += chunk) {
        size_t len = size - off < chunk ? size - off : chunk;
        MPI_Bcast((char *)buf + off, (int)len, MPI_BYTE, root, comm);
    }
}

static void die_eccl(const char *what, eccl_result_t rc, int rank)
{
    fprintf(stderr, "demo: rank %d: %s failed: %s\n", rank, what, eccl_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* Largest |a - b| and the number of elements over eb.  A non-finite reference value must come
 * back bit for bit.  Differences are taken in long double so that rounding of the subtraction
 * cannot hide an error just over the bound. */
static void compare(const double *ref, const double *got, size_t count, double eb,
                    double *max_err, unsigned long long *violations)
{
    long double worst = 0.0L;
    unsigned long long bad = 0;
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(ref[i])) {
            if (memcmp(&ref[i], &got[i], sizeof(double)) != 0) bad++;
            continue;
        }
        long double e = fabsl((long double)ref[i] - (long double)got[i]);
        if (!(e <= (long double)eb)) bad++; /* also catches a NaN coming back */
        if (e > worst) worst = e;
    }
    *max_err = (double)worst;
    *violations = bad;
}

static double max_over_ranks(double t, MPI_Comm comm)
{
    double m;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, comm);
    return m;
}

static void fmt_time(char *buf, size_t len, double s)
{
    if (s < 1e-3) snprintf(buf, len, "%.1f us", s * 1e6);
    else if (s < 1.0) snprintf(buf, len, "%.2f ms", s * 1e3);
    else snprintf(buf, len, "%.3f s", s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);

    demo_opts o;
    int pa = parse_args(argc, argv, rank, &o);
    if (pa) {
        if (pa == 1 && rank == 0) usage(stdout);
        MPI_Finalize();
        return pa == 1 ? 0 : 2;
    }

    const size_t count = o.n * o.n;
    const size_t raw_bytes = count * sizeof(double);
    const size_t cap = eccl_compress_bound(count, ECCL_FLOAT64);
    double *field = NULL, *ref, *rec = malloc(raw_bytes);
    unsigned char *cbuf = malloc(cap ? cap : 1);
    if (rank == 0) {
        field = malloc(raw_bytes);
        ref = field; /* the root's copy is the reference */
    } else {
        ref = malloc(raw_bytes);
    }
    if (!rec || !cbuf || !ref || cap == 0) {
        fprintf(stderr, "demo: rank %d: cannot allocate %zu bytes\n", rank, 2 * raw_bytes + cap);
        MPI_Abort(comm, 3);
    }

    /* What the bound means in absolute terms; rank 0 owns the data, so it decides. */
    double eb_abs = 0.0, range = 0.0;
    if (rank == 0) {
        double lo, hi;
        eccl_result_t rc;
        make_field(field, o.n);
        if ((rc = eccl_data_range(field, count, ECCL_FLOAT64, &lo, &hi)))
            die_eccl("eccl_data_range", rc, rank);
        range = hi - lo;
        if ((rc = eccl_bound_resolve(&o.bound, field, count, ECCL_FLOAT64, &eb_abs)))
            die_eccl("eccl_bound_resolve", rc, rank);
    }

    /* ---- plain MPI_Bcast of the raw array ---- */
    double t_plain = INFINITY;
    for (int r = 0; r < o.reps; r++) {
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        bcast_bytes(ref, raw_bytes, 0, comm);
        t_plain = fmin(t_plain, max_over_ranks(MPI_Wtime() - t0, comm));
    }

    /* ---- compressed: compress once at the root, send size then bytes, decompress everywhere.
     * Each repetition redoes all three steps, as a real broadcast of new data would. ---- */
    double t_comp = INFINITY, t_c = 0, t_b = 0, t_d = 0;
    uint64_t csize = 0;
    for (int r = 0; r < o.reps; r++) {
        eccl_result_t rc;
        size_t out_size = 0;
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            if ((rc = eccl_compress(field, count, ECCL_FLOAT64, &o.bound, cbuf, cap, &out_size)))
                die_eccl("eccl_compress", rc, rank);
            csize = out_size;
        }
        double t1 = MPI_Wtime();
        MPI_Bcast(&csize, 1, MPI_UINT64_T, 0, comm);
        if (csize > cap) {
            fprintf(stderr, "demo: rank %d: stream of %llu bytes exceeds the worst case %zu\n",
                    rank, (unsigned long long)csize, cap);
            MPI_Abort(comm, 3);
        }
        bcast_bytes(cbuf, (size_t)csize, 0, comm);
        double t2 = MPI_Wtime();
        if ((rc = eccl_decompress(cbuf, (size_t)csize, rec, count, ECCL_FLOAT64)))
            die_eccl("eccl_decompress", rc, rank);
        double t3 = MPI_Wtime();
        /* Receivers enter MPI_Bcast at once and wait there for the root's compression, so
         * their bcast time is not the transfer time: report the root's compression, the slowest
         * decompression, and call the rest of the critical path the transfer. */
        double total = max_over_ranks(t3 - t0, comm);
        double tc = max_over_ranks(t1 - t0, comm), td = max_over_ranks(t3 - t2, comm);
        double tb = fmax(0.0, total - tc - td);
        if (total < t_comp) {
            t_comp = total;
            t_c = tc;
            t_b = tb;
            t_d = td;
        }
    }

    /* ---- every rank: the bound that the stream itself declares, and the check ---- */
    eccl_stream_info_t info;
    eccl_result_t rc = eccl_stream_info(cbuf, (size_t)csize, &info);
    if (rc) die_eccl("eccl_stream_info", rc, rank);
    MPI_Bcast(&eb_abs, 1, MPI_DOUBLE, 0, comm);
    if (info.eb_abs != eb_abs) {
        fprintf(stderr, "demo: rank %d: stream declares eb_abs %.17g, expected %.17g\n", rank,
                info.eb_abs, eb_abs);
        MPI_Abort(comm, 3);
    }
    double max_err, max_err_all;
    unsigned long long viol, viol_all;
    compare(ref, rec, count, eb_abs, &max_err, &viol);
    MPI_Reduce(&max_err, &max_err_all, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    MPI_Allreduce(&viol, &viol_all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);

    /* Are all ranks on one node?  Then MPI_Bcast is a memory copy and compression rarely wins. */
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    int one_node = node_size == nranks, all_one_node;
    MPI_Allreduce(&one_node, &all_one_node, 1, MPI_INT, MPI_LAND, comm);

    if (rank == 0) {
        char tp[32], tc[32], tcs[32], tbs[32], tds[32], bnd[96];
        fmt_time(tp, sizeof tp, t_plain);
        fmt_time(tc, sizeof tc, t_comp);
        fmt_time(tcs, sizeof tcs, t_c);
        fmt_time(tbs, sizeof tbs, t_b);
        fmt_time(tds, sizeof tds, t_d);
        if (o.bound.mode == ECCL_MODE_REL)
            snprintf(bnd, sizeof bnd, "REL %g x range %.6g = %.3e", o.bound.value, range, eb_abs);
        else
            snprintf(bnd, sizeof bnd, "ABS %.3e", eb_abs);
        printf("eccl demo: broadcast of a %zu x %zu float64 field (%.1f MiB) "
               "from rank 0 to %d ranks\n",
               o.n, o.n, raw_bytes / 1048576.0, nranks);
        printf("eccl %s\n", eccl_version_string());
        printf("error bound: %s\n\n", bnd);
        printf("                          plain MPI_Bcast    eccl compressed bcast\n");
        printf("bytes on the wire       %17zu    %17llu  (%.1f%% saved)\n", raw_bytes,
               (unsigned long long)csize, 100.0 * (1.0 - (double)csize / (double)raw_bytes));
        printf("compression ratio       %17s    %17.2f\n", "1.00",
               (double)raw_bytes / (double)csize);
        printf("blocks stored lossless  %17s    %8llu of %llu\n", "-",
               (unsigned long long)info.nblocks_raw, (unsigned long long)info.nblocks);
        printf("max |error|, all ranks  %17.3e    %17.3e  bound %.3e  %s\n", 0.0, max_err_all,
               eb_abs, viol_all ? "VIOLATION" : "OK");
        printf("time, best of %-3d       %17s    %17s  speedup %.2fx\n", o.reps, tp, tc,
               t_plain / t_comp);
        printf("  compress / transfer / decompress      %s / %s / %s\n", tcs, tbs, tds);
        if (viol_all)
            printf("\nBOUND VIOLATED: %llu elements over %.3e\n", viol_all, eb_abs);
        if (all_one_node)
            printf("\nnote: all %d ranks share one node, where MPI_Bcast is a memory copy at\n"
                   "memory speed; compression pays when the bytes cross a real network (see\n"
                   "README.md for running this demo with MPICH forced onto its network path).\n",
                   nranks);
        fflush(stdout);
    }

    free(rec);
    free(cbuf);
    free(rank == 0 ? field : ref);
    MPI_Finalize();
    return viol_all ? 1 : 0;
}
