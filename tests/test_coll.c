/*
 * test_coll.c - every collective x every algorithm of the table (forced per communicator) x
 * dtype x op x count x in-place, on however many ranks it is launched with. Each rank can
 * generate every rank's data, so it computes the exact result in long double itself and checks
 * its output element by element against the bound of doc/guarantees.md; "all" collectives must
 * also agree bit for bit across ranks.
 *
 *   mpiexec -n P tests/test_coll [--quick] [--coll NAME] [--large N]
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "transport/transport.h"
#include "eccl.h"

static int rank, size, failures;
static long checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            if (++failures <= 30) {                                                                \
                fprintf(stderr, "[rank %d] FAIL %s:%d: ", rank, __FILE__, __LINE__);               \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

enum { PAT_SMOOTH, PAT_NOISY, PAT_ADVERSARIAL, PAT_CONSTANT };
static const char *pat_name[] = {"smooth", "noisy", "adversarial", "constant"};

/* Value i of rank r's data (reals: a complex element is two). */
static double gen(int pat, int r, size_t i)
{
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull + (uint64_t)r * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    double u = (double)(h >> 11) * 0x1.0p-53;
    switch (pat) {
    case PAT_SMOOTH: return sin(i * 0.003 + r) * 5.0 + 0.25 * r;
    case PAT_NOISY: return (u - 0.5) * 200.0;
    case PAT_CONSTANT: return 2.5;
    default:
        if (u < 0.01) return NAN;
        if (u < 0.02) return r % 2 ? INFINITY : -INFINITY;
        if (u < 0.05) return (u - 0.035) * 1e32;
        if (u < 0.07) return 3e-40;
        return sin(i * 0.01) * 3.0;
    }
}

static int reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }
static int is64(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }

static void fill(void *buf, eccl_dtype_t dt, int pat, int r, size_t offset, size_t nreal)
{
    for (size_t i = 0; i < nreal; i++) {
        double v = gen(pat, r, offset + i);
        if (is64(dt)) ((double *)buf)[i] = v;
        else ((float *)buf)[i] = (float)v;
    }
}

static long double get(const void *buf, eccl_dtype_t dt, size_t i)
{
    return is64(dt) ? (long double)((const double *)buf)[i] : (long double)((const float *)buf)[i];
}

static uint64_t hash(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Finite range of the data of ranks in [r0, r1) (all their values at [offset, offset + n)). */
static void data_range(int pat, eccl_dtype_t dt, int r0, int r1, size_t nreal, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int r = r0; r < r1; r++)
        for (size_t i = 0; i < nreal; i++) {
            double v = gen(pat, r, i);
            if (!is64(dt)) v = (float)v;
            if (isfinite(v)) {
                *lo = v < *lo ? v : *lo;
                *hi = v > *hi ? v : *hi;
            }
        }
    if (*lo > *hi) *lo = *hi = 0;
}

/* Check one output value y against the exact reference ref; err_ok is the allowed error. */
static int value_ok(long double y, long double ref, long double err_ok)
{
    if (isnan(ref)) return isnan(y);
    if (isinf(ref)) return y == ref;
    return fabsl(y - ref) <= err_ok;
}

typedef struct {
    const eccl_algo_t *algo;
    eccl_dtype_t dt;
    eccl_op_t op;
    size_t count;
    int in_place, pat;
    eccl_bound_t bound;
} tcase_t;

static const char *op_name(eccl_op_t op)
{
    static const char *n[] = {"sum", "max", "min", "avg", "prod"};
    return n[op];
}

static const char *desc(const tcase_t *t)
{
    static char buf[200];
    snprintf(buf, sizeof buf, "%s/%s %s op=%s count=%zu inplace=%d data=%s bound=%d:%g",
             eccl_coll_name(t->algo->coll), t->algo->name, eccl_dtype_name(t->dt), op_name(t->op),
             t->count, t->in_place, pat_name[t->pat], (int)t->bound.mode, t->bound.value);
    return buf;
}

/* The absolute bound E of the result, as the library computes it (REL: the range of the data
 * involved: the root's for bcast/scatter, the sender's for sendrecv, everyone's otherwise). */
static double result_E(const tcase_t *t, size_t nreal_per_rank, int root, int src)
{
    if (t->bound.mode == ECCL_MODE_LOSSLESS) return 0.0;
    if (t->bound.mode == ECCL_MODE_ABS) return t->bound.value;
    double lo, hi;
    eccl_coll_t k = t->algo->coll;
    if (k == ECCL_COLL_BCAST) data_range(t->pat, t->dt, root, root + 1, nreal_per_rank, &lo, &hi);
    else if (k == ECCL_COLL_SCATTER) data_range(t->pat, t->dt, root, root + 1, nreal_per_rank, &lo, &hi);
    else if (k == ECCL_COLL_SENDRECV_REPLACE) data_range(t->pat, t->dt, src, src + 1, nreal_per_rank, &lo, &hi);
    else data_range(t->pat, t->dt, 0, size, nreal_per_rank, &lo, &hi);
    return t->bound.value * (hi - lo);
}

/* Reduction reference and allowance for element i over all ranks. */
static void reduce_ref(const tcase_t *t, size_t i, double E, long double *ref, long double *ok)
{
    long double s = 0, sabs = 0, m = 0;
    int nan = 0;
    for (int r = 0; r < size; r++) {
        long double v = gen(t->pat, r, i);
        if (!is64(t->dt)) v = (float)v;
        if (isnan(v)) nan = 1;
        s += v;
        sabs += fabsl(v);
        if (r == 0 || (t->op == ECCL_OP_MAX ? v > m : v < m)) m = v;
    }
    long double u = is64(t->dt) ? 0x1p-53L : 0x1p-24L;
    if (t->op == ECCL_OP_MAX || t->op == ECCL_OP_MIN) {
        *ref = nan ? NAN : m;
        *ok = E;
    } else if (t->op == ECCL_OP_SUM) {
        *ref = nan ? NAN : s;
        *ok = E + (size + 2) * u * (sabs + size * E);
    } else {
        *ref = nan ? NAN : s / size;
        *ok = E + (size + 2) * u * (sabs / size + E) + u * fabsl(s / size);
    }
}

static void agree_identical(const tcase_t *t, const void *buf, size_t bytes)
{
    uint64_t h = hash(buf, bytes), hmin, hmax;
    MPI_Allreduce(&h, &hmin, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hmax, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    CHECK(hmin == hmax, "results differ across ranks: %s", desc(t));
}

static void run_case(eccl_comm_t comm, const tcase_t *t)
{
    eccl_coll_t k = t->algo->coll;
    size_t n = t->count, nr = n * reals_of(t->dt), es = eccl_dtype_size(t->dt), big = n * (size_t)size;
    int root = size > 1 ? (int)(n % (size_t)size) : 0;
    eccl_result_t rc = eccl_comm_set_algorithm(comm, eccl_coll_name(k), t->algo->name);
    CHECK(rc == ECCL_SUCCESS, "set_algorithm");
    void *a = malloc(big * es + 16), *b = malloc(big * es + 16);
    double E;
    size_t bad = 0;
    switch (k) {
    case ECCL_COLL_BCAST: {
        fill(a, t->dt, t->pat, rank == root ? root : 1000 + rank, 0, nr); /* non-roots: junk */
        if (rank != root) memset(a, 0x5A, n * es);
        rc = eccl_bcast(a, n, t->dt, root, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = result_E(t, nr, root, 0);
        for (size_t i = 0; i < nr; i++) {
            long double ref = get((fill(b, t->dt, t->pat, root, i, 1), b), t->dt, 0);
            if (!value_ok(get(a, t->dt, i), ref, E)) bad++;
        }
        if (rank != root) {
            /* non-root ranks agree among themselves (the root keeps its exact input) */
            uint64_t h = hash(a, n * es), hmin, hmax, mine = rank == root ? 0 : h;
            (void)mine;
            MPI_Comm others;
            MPI_Comm_split(MPI_COMM_WORLD, 1, rank, &others);
            MPI_Allreduce(&h, &hmin, 1, MPI_UINT64_T, MPI_MIN, others);
            MPI_Allreduce(&h, &hmax, 1, MPI_UINT64_T, MPI_MAX, others);
            CHECK(hmin == hmax, "bcast results differ across non-root ranks: %s", desc(t));
            MPI_Comm_free(&others);
        } else {
            MPI_Comm others;
            MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &others);
        }
        break;
    }
    case ECCL_COLL_ALLREDUCE:
    case ECCL_COLL_REDUCE: {
        fill(a, t->dt, t->pat, rank, 0, nr);
        memset(b, 0x5A, n * es);
        const void *send = a;
        void *recv = b;
        if (t->in_place && (k == ECCL_COLL_ALLREDUCE || rank == root)) {
            memcpy(b, a, n * es);
            send = MPI_IN_PLACE;
        }
        rc = k == ECCL_COLL_ALLREDUCE ? eccl_allreduce(send, recv, n, t->dt, t->op, &t->bound, comm)
                                      : eccl_reduce(send, recv, n, t->dt, t->op, root, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s (%s): %s", eccl_strerror(rc), eccl_comm_last_error(comm), desc(t));
        E = result_E(t, nr, root, 0);
        if (k == ECCL_COLL_ALLREDUCE || rank == root) {
            for (size_t i = 0; i < nr; i++) {
                long double ref, ok;
                reduce_ref(t, i, E, &ref, &ok);
                if (!value_ok(get(b, t->dt, i), ref, ok)) {
                    if (bad < 3 && failures < 30)
                        fprintf(stderr, "[rank %d] element %zu: got %.10Lg want %.10Lg (allowed %.3Lg)\n",
                                rank, i, get(b, t->dt, i), ref, ok);
                    bad++;
                }
            }
        }
        if (k == ECCL_COLL_ALLREDUCE) agree_identical(t, b, n * es);
        break;
    }
    case ECCL_COLL_REDUCE_SCATTER_BLOCK: {
        /* rank r's input: its data over all p blocks (index continues across blocks) */
        fill(a, t->dt, t->pat, rank, 0, nr * size);
        memset(b, 0x5A, big * es);
        if (t->in_place) memcpy(b, a, big * es);
        rc = eccl_reduce_scatter_block(t->in_place ? MPI_IN_PLACE : a, b, n, t->dt, t->op, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = result_E(t, nr * size, 0, 0);
        for (size_t i = 0; i < nr; i++) {
            long double ref, ok;
            reduce_ref(t, (size_t)rank * nr + i, E, &ref, &ok);
            if (!value_ok(get(b, t->dt, i), ref, ok)) bad++;
        }
        break;
    }
    case ECCL_COLL_ALLGATHER: {
        memset(b, 0x5A, big * es);
        if (t->in_place) fill((char *)b + (size_t)rank * n * es, t->dt, t->pat, rank, 0, nr);
        else fill(a, t->dt, t->pat, rank, 0, nr);
        rc = eccl_allgather(t->in_place ? MPI_IN_PLACE : a, b, n, t->dt, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = result_E(t, nr, 0, 0);
        for (int r = 0; r < size; r++)
            for (size_t i = 0; i < nr; i++) {
                float f = (float)gen(t->pat, r, i);
                long double ref = is64(t->dt) ? (long double)gen(t->pat, r, i) : (long double)f;
                if (!value_ok(get(b, t->dt, (size_t)r * nr + i), ref, E)) bad++;
            }
        agree_identical(t, b, big * es);
        break;
    }
    case ECCL_COLL_SCATTER: {
        if (rank == root)
            for (int r = 0; r < size; r++) fill((char *)a + (size_t)r * n * es, t->dt, t->pat, r, 0, nr);
        memset(b, 0x5A, n * es);
        int inplace = t->in_place && rank == root;
        rc = eccl_scatter(a, inplace ? MPI_IN_PLACE : b, n, t->dt, root, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = t->bound.mode == ECCL_MODE_REL ? 0 : result_E(t, nr, root, 0);
        if (t->bound.mode == ECCL_MODE_REL) { /* the root's whole buffer sets the range */
            double lo, hi;
            data_range(t->pat, t->dt, 0, size, nr, &lo, &hi);
            E = t->bound.value * (hi - lo);
        }
        const void *got = inplace ? (char *)a + (size_t)root * n * es : b;
        for (size_t i = 0; i < nr; i++) {
            float f = (float)gen(t->pat, rank, i);
            long double ref = is64(t->dt) ? (long double)gen(t->pat, rank, i) : (long double)f;
            if (!value_ok(get(got, t->dt, i), ref, E)) bad++;
        }
        break;
    }
    case ECCL_COLL_GATHER: {
        memset(b, 0x5A, big * es);
        int inplace = t->in_place && rank == root;
        if (inplace) fill((char *)b + (size_t)rank * n * es, t->dt, t->pat, rank, 0, nr);
        else fill(a, t->dt, t->pat, rank, 0, nr);
        rc = eccl_gather(inplace ? MPI_IN_PLACE : a, b, n, t->dt, root, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = result_E(t, nr, 0, 0);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (size_t i = 0; i < nr; i++) {
                    float f = (float)gen(t->pat, r, i);
                    long double ref = is64(t->dt) ? (long double)gen(t->pat, r, i) : (long double)f;
                    if (!value_ok(get(b, t->dt, (size_t)r * nr + i), ref, E)) bad++;
                }
        break;
    }
    case ECCL_COLL_SENDRECV_REPLACE: {
        int dest = (rank + 1) % size, src = (rank - 1 + size) % size;
        fill(a, t->dt, t->pat, rank, 0, nr);
        rc = eccl_sendrecv_replace(a, n, t->dt, dest, 7, src, 7, &t->bound, comm);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", eccl_strerror(rc), desc(t));
        E = result_E(t, nr, 0, src);
        for (size_t i = 0; i < nr; i++) {
            float f = (float)gen(t->pat, src, i);
            long double ref = is64(t->dt) ? (long double)gen(t->pat, src, i) : (long double)f;
            if (!value_ok(get(a, t->dt, i), ref, E)) bad++;
        }
        break;
    }
    default: break;
    }
    CHECK(bad == 0, "%zu values out of bound: %s", bad, desc(t));
    free(a);
    free(b);
}

static void run_matrix(eccl_comm_t comm, const char *only, int quick, size_t large)
{
    const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};
    size_t counts[] = {0, 1, 7, (size_t)(size > 1 ? size - 1 : 1), (size_t)size * 37 + 3, large};
    int ncounts = sizeof counts / sizeof *counts;
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
        if (only && strcmp(only, eccl_coll_name(a->coll))) continue;
        if (a->applies) {
            eccl_call_t probe = {0};
            probe.comm = comm;
            probe.tr = eccl_transport(ECCL_TR_MPI);
            probe.size = size;
            if (!a->applies(&probe)) continue;
        }
        int red = a->coll == ECCL_COLL_ALLREDUCE || a->coll == ECCL_COLL_REDUCE ||
                  a->coll == ECCL_COLL_REDUCE_SCATTER_BLOCK;
        for (int d = 0; d < 4; d++) {
            for (int op = 0; op < (red ? 4 : 1); op++) {
                if (red && dts[d] >= ECCL_COMPLEX64 && (op == ECCL_OP_MAX || op == ECCL_OP_MIN)) continue;
                for (int ci = 0; ci < ncounts; ci++) {
                    if (quick && ci == ncounts - 1 && (d % 2 || op > 0)) continue;
                    tcase_t t = {a, dts[d], (eccl_op_t)op, counts[ci], 0, PAT_SMOOTH, {ECCL_MODE_ABS, 1e-3, 0}};
                    /* vary data, bound and in-place deterministically over the matrix */
                    int v = (int)(ci + 3 * d + 7 * op);
                    t.pat = v % 4 == 3 ? PAT_ADVERSARIAL : v % 4 == 2 ? PAT_NOISY : v % 7 == 0 ? PAT_CONSTANT : PAT_SMOOTH;
                    if (v % 5 == 1) t.bound = (eccl_bound_t){ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA};
                    if (v % 11 == 4) t.bound = (eccl_bound_t){ECCL_MODE_LOSSLESS, 0, 0};
                    if (t.pat == PAT_ADVERSARIAL && t.bound.mode == ECCL_MODE_REL) t.bound.mode = ECCL_MODE_ABS;
                    t.in_place = (v / 2) % 2;
                    run_case(comm, &t);
                }
            }
        }
    }
}

static void error_cases(eccl_comm_t comm)
{
    float x[4] = {1, 2, 3, 4}, y[4];
    eccl_bound_t bad = {ECCL_MODE_ABS, -1.0, 0};
    CHECK(eccl_bcast(x, 4, ECCL_FLOAT32, size, NULL, comm) == ECCL_ERR_INVALID_ARG, "bad root");
    CHECK(eccl_bcast(NULL, 4, ECCL_FLOAT32, 0, NULL, comm) == ECCL_ERR_INVALID_ARG, "NULL buffer");
    CHECK(eccl_allreduce(x, y, 4, (eccl_dtype_t)9, ECCL_OP_SUM, NULL, comm) == ECCL_ERR_INVALID_ARG, "dtype");
    CHECK(eccl_allreduce(x, y, 4, ECCL_FLOAT32, (eccl_op_t)42, NULL, comm) == ECCL_ERR_INVALID_ARG, "op");
    CHECK(eccl_allreduce(x, y, 4, ECCL_FLOAT32, ECCL_OP_SUM, &bad, comm) == ECCL_ERR_INVALID_ARG, "bound");
    CHECK(eccl_allreduce(x, y, 4, ECCL_COMPLEX64, ECCL_OP_MAX, NULL, comm) == ECCL_ERR_INVALID_ARG, "complex max");
    CHECK(eccl_allreduce(x, y, 4, ECCL_FLOAT32, ECCL_OP_SUM, NULL, NULL) == ECCL_ERR_INVALID_ARG, "NULL comm");
    CHECK(eccl_comm_set_algorithm(comm, "bcast", "nonsense") == ECCL_ERR_INVALID_ARG, "algorithm name");
    CHECK(eccl_comm_set_algorithm(comm, "nonsense", "auto") == ECCL_ERR_INVALID_ARG, "collective name");
    CHECK(strlen(eccl_comm_last_error(comm)) > 0, "last_error message");
    /* PROD: the fallback policy runs plain MPI */
    for (int i = 0; i < 4; i++) x[i] = 1.0f + (float)rank * 0.0f;
    CHECK(eccl_comm_set_algorithm(comm, "allreduce", "ring") == ECCL_SUCCESS, "set ring");
    CHECK(eccl_allreduce(x, y, 4, ECCL_FLOAT32, ECCL_OP_PROD, NULL, comm) == ECCL_SUCCESS && y[0] == 1.0f,
          "PROD falls back to MPI");
    eccl_stats_t st;
    eccl_comm_last_stats(comm, &st);
    CHECK(!strcmp(st.algorithm, size == 1 ? "local" : "mpi") && !st.compressed, "PROD ran uncompressed (%s)",
          st.algorithm);
    eccl_comm_set_algorithm(comm, "allreduce", "auto");
}

/* eccl_config_t.format (doc/env.md, ECCL_FORMAT): a format other than 0-3 is refused before
 * anything collective; a communicator writing version 2 broadcasts a smooth float64 array in
 * fewer bytes than one writing version 1 (second-order tiles, doc/format.md 8.1), one writing
 * version 3 in no more than version 2's; its broadcast and ring allreduce stay within the bound,
 * element by element; and so they do when the ranks write different versions (rank r: r % 3 + 1). */
static void format_cases(void)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    eccl_comm_t c = NULL;
    cfg.format = 4;
    CHECK(eccl_comm_create(MPI_COMM_WORLD, &cfg, &c) == ECCL_ERR_INVALID_ARG && c == NULL, "format 4 accepted");
    cfg.format = -1;
    CHECK(eccl_comm_create(MPI_COMM_WORLD, &cfg, &c) == ECCL_ERR_INVALID_ARG && c == NULL, "format -1 accepted");
    if (size < 2 || getenv("ECCL_FORMAT")) return; /* (the variable overrides the field) */
    const size_t n = 3 * 8192 + 77;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    const eccl_bound_t b = {ECCL_MODE_ABS, 1e-6, 0};
    double ratio[3] = {0, 0, 0};
    for (int v = 1; v <= 4; v++) { /* (4: every rank its own, r % 3 + 1) */
        cfg.format = v <= 3 ? v : rank % 3 + 1;
        cfg.alpha = 1e-6;
        cfg.beta = 1e-9;
        eccl_result_t rc = eccl_comm_create(MPI_COMM_WORLD, &cfg, &c);
        CHECK(rc == ECCL_SUCCESS, "format %d: eccl_comm_create: %s", v, eccl_strerror(rc));
        if (rc) continue;
        for (size_t i = 0; i < n; i++) x[i] = 100.0 * sin((double)i * 1e-3) * cos((double)i * 2e-4);
        memcpy(y, x, n * sizeof *y);
        eccl_comm_set_algorithm(c, "bcast", "binomial");
        rc = eccl_bcast(y, n, ECCL_FLOAT64, 0, &b, c);
        eccl_stats_t st;
        eccl_comm_last_stats(c, &st);
        int bad = 0;
        for (size_t i = 0; i < n; i++) bad += !(fabs(y[i] - x[i]) <= b.value);
        CHECK(rc == ECCL_SUCCESS && st.compressed && !bad, "format %d bcast: %s, compressed %d, %d values off",
              v, eccl_strerror(rc), st.compressed, bad);
        if (rank == 0 && v <= 3) ratio[v - 1] = st.ratio;
        for (size_t i = 0; i < n; i++) x[i] = (1.0 + rank) * sin((double)i * 1e-3 + rank);
        eccl_comm_set_algorithm(c, "allreduce", "ring");
        rc = eccl_allreduce(x, y, n, ECCL_FLOAT64, ECCL_OP_SUM, &b, c);
        eccl_comm_last_stats(c, &st);
        bad = 0;
        for (size_t i = 0; i < n; i++) {
            long double ref = 0;
            for (int r = 0; r < size; r++) ref += (long double)((1.0 + r) * sin((double)i * 1e-3 + r));
            bad += !(fabsl((long double)y[i] - ref) <= (long double)b.value);
        }
        CHECK(rc == ECCL_SUCCESS && st.compressed && !bad,
              "format %d ring allreduce: %s, compressed %d, %d values off", v, eccl_strerror(rc), st.compressed, bad);
        eccl_comm_free(&c);
    }
    if (rank == 0) {
        CHECK(ratio[1] > 1.2 * ratio[0], "format 2 broadcast ratio %.2f not above format 1's %.2f", ratio[1],
              ratio[0]);
        CHECK(ratio[2] >= ratio[1], "format 3 broadcast ratio %.2f below format 2's %.2f", ratio[2], ratio[1]);
    }
    free(x);
    free(y);
}

/* Behaviours of the dispatch layer: a given REL range, statistics, the fallback policy on small
 * calls, ECCL_MIN_BYTES-like config 0. */
static void dispatch_cases(void)
{
    if (size < 2) return;
    const size_t n = 40000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    eccl_stats_t st;
    eccl_comm_t c;
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6;
    cfg.beta = 1e-9;
    cfg.fallback = ECCL_FALLBACK_ERROR;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c)) MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t i = 0; i < n; i++) x[i] = sin((double)i * 1e-3) + rank;
    /* a REL bound with a given range: E = value * range, whatever the data */
    eccl_bound_t given = {ECCL_MODE_REL, 1e-4, 100.0};
    eccl_comm_set_algorithm(c, "allreduce", "ring");
    CHECK(eccl_allreduce(x, y, n, ECCL_FLOAT64, ECCL_OP_SUM, &given, c) == ECCL_SUCCESS, "given range");
    eccl_comm_last_stats(c, &st);
    CHECK(fabs(st.bound_requested - 1e-2) < 1e-12, "given range: E %g, want 1e-2", st.bound_requested);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double ref = 0;
        for (int r = 0; r < size; r++) ref += sin((double)i * 1e-3) + r;
        worst = fmax(worst, fabs(y[i] - ref));
    }
    CHECK(worst <= 1e-2 * (1 + 1e-9), "given range: error %g above E 1e-2", worst);
    eccl_bound_t badrange[] = {{ECCL_MODE_REL, 1e-4, -5.0}, {ECCL_MODE_REL, 1e-4, INFINITY},
                               {ECCL_MODE_REL, 1e-4, NAN}};
    for (int k = 0; k < 3; k++)
        CHECK(eccl_allreduce(x, y, n, ECCL_FLOAT64, ECCL_OP_SUM, &badrange[k], c) == ECCL_ERR_INVALID_ARG,
              "range %g accepted", badrange[k].range);
    /* statistics of a compressed bcast: every rank that sent something has ratio > 1 */
    eccl_comm_set_algorithm(c, "bcast", "binomial");
    eccl_bound_t abs = {ECCL_MODE_ABS, 1e-5, 0};
    CHECK(eccl_bcast(x, n, ECCL_FLOAT64, 0, &abs, c) == ECCL_SUCCESS, "bcast");
    eccl_comm_last_stats(c, &st);
    CHECK(st.bytes_sent == 0 || (st.ratio > 1 && st.bytes_raw > st.bytes_sent),
          "bcast stats: raw %llu sent %llu ratio %g", (unsigned long long)st.bytes_raw,
          (unsigned long long)st.bytes_sent, st.ratio);
    if (rank == 0) /* the root sends the whole buffer to each of its children */
        CHECK(st.bytes_raw > 0 && st.bytes_raw % (n * sizeof(double)) == 0, "root raw bytes %llu",
              (unsigned long long)st.bytes_raw);
    /* sendrecv_replace on the mpi algorithm reports no bound */
    eccl_comm_set_algorithm(c, "sendrecv_replace", "mpi");
    CHECK(eccl_sendrecv_replace(x, n, ECCL_FLOAT64, (rank + 1) % size, 0, (rank + size - 1) % size, 0, &abs, c) ==
              ECCL_SUCCESS, "sendrecv_replace");
    eccl_comm_last_stats(c, &st);
    CHECK(st.bound_requested == 0 && st.eb_per_message == 0 && !st.compressed, "mpi sendrecv_replace stats E %g",
          st.bound_requested);
    /* the fallback policy (error here) is consulted before min_bytes (doc/collectives.md section 7) */
    float f[4] = {1, 2, 3, 4}, g[4];
    eccl_comm_set_algorithm(c, "allreduce", "auto");
    CHECK(eccl_allreduce(f, g, 4, ECCL_FLOAT32, ECCL_OP_PROD, &abs, c) == ECCL_ERR_UNSUPPORTED,
          "tiny PROD with fallback=error");
    CHECK(eccl_allreduce(x, y, n, ECCL_FLOAT64, ECCL_OP_PROD, &abs, c) == ECCL_ERR_UNSUPPORTED,
          "large PROD forced ring with fallback=error");
    eccl_comm_free(&c);
    free(x);
    free(y);
}

/* Sub-communicators: split in halves, run allreduce and bcast on each (a row/column pattern). */
static void subcomm_cases(int quick)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    eccl_comm_t ec;
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.compress = ECCL_COMPRESS_ALWAYS;
    cfg.alpha = 1e-6;
    cfg.beta = 1e-9;
    CHECK(eccl_comm_create(half, &cfg, &ec) == ECCL_SUCCESS, "comm_create on a split");
    int hs, hr;
    MPI_Comm_size(half, &hs);
    MPI_Comm_rank(half, &hr);
    size_t n = quick ? 5000 : 50001;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) x[i] = sin(i * 1e-3) + hr;
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-5, 0};
    CHECK(eccl_allreduce(x, y, n, ECCL_FLOAT64, ECCL_OP_SUM, &b, ec) == ECCL_SUCCESS, "sub allreduce");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        long double ref = 0;
        for (int r = 0; r < hs; r++) ref += (long double)sin(i * 1e-3) + r;
        if (fabsl(y[i] - ref) > 1e-5 + 1e-12) bad++;
    }
    CHECK(bad == 0, "sub-communicator allreduce: %zu out of bound", bad);
    eccl_stats_t st;
    eccl_comm_last_stats(ec, &st);
    CHECK(hs == 1 || st.compressed, "ECCL_COMPRESS_ALWAYS compressed (%s)", st.algorithm);
    eccl_comm_free(&ec);
    CHECK(ec == NULL, "comm_free clears the handle");
    MPI_Comm_free(&half);
    free(x);
    free(y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int quick = getenv("ECCL_TEST_QUICK") != NULL;
    const char *only = NULL;
    size_t large = 100003;
    static struct option opts[] = {{"quick", 0, 0, 'q'}, {"coll", 1, 0, 'c'}, {"large", 1, 0, 'l'}, {0, 0, 0, 0}};
    int o;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o == 'q') quick = 1;
        else if (o == 'c') only = optarg;
        else if (o == 'l') large = strtoul(optarg, NULL, 10);
    }
    eccl_comm_t comm;
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6; /* no calibration needed: algorithms are forced */
    cfg.beta = 1e-9;
    eccl_result_t rc = eccl_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc) {
        fprintf(stderr, "eccl_comm_create: %s\n", eccl_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    run_matrix(comm, only, quick, large);
    if (!only) {
        error_cases(comm);
        dispatch_cases();
        subcomm_cases(quick);
        format_cases();
    }
    eccl_comm_free(&comm);
    long tot_checks = 0;
    int tot_fail = 0;
    MPI_Reduce(&checks, &tot_checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&failures, &tot_fail, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_coll on %d ranks: %ld checks, %d failures\n", size, tot_checks, tot_fail);
    MPI_Finalize();
    return tot_fail ? 1 : 0;
}
