/*
 * test_contract.c - the collectives' contract under hostile or careless use (issue 22): every case
 * is a promise of eccl.h, doc/guarantees.md or doc/collectives.md that an adversarial review found
 * broken, checked on every rank.
 *
 *   mpiexec -n P tests/test_contract [--device] [CASE...]
 *
 * --device: the data buffers are CUDA device memory (the device-resident paths and the GPU range
 * kernel; skips, 77, without a usable GPU on every rank). Any P >= 1; the cases that need two
 * ranks say so and pass trivially on one.
 *
 * Cases (each prints "ok: NAME" or "FAIL: NAME" from rank 0):
 *   rel_nan_rank       REL range with a rank whose data has no finite value: the global range is
 *                      that of the finite values, every element within it (allgather, gather, and E
 *                      of every collective that derives a global range)
 *   fallback_small     ECCL_FALLBACK_ERROR below min_bytes (and on one rank): ECCL_ERR_UNSUPPORTED
 *   intercomm          eccl_comm_create on an intercommunicator: an error, no hang
 *   comm_null          eccl_comm_create(MPI_COMM_NULL): an error and *out = NULL
 *   last_error         "" after a successful call; eccl_comm_set_algorithm(NULL) explains itself
 *   count0_rules       count 0 with a bad bound / root / dtype fails like count 1
 *   count_limit        counts whose bytes reach 2^62 are refused, never run
 *   mismatch_count     counts that differ across ranks: ECCL_ERR_MISMATCH on every rank
 *   mismatch_signature bound, mode, op, root, dtype that differ: ECCL_ERR_MISMATCH on every rank
 *   sendrecv_bound     a stream made with a larger bound than the receiver's: refused
 *   overflow_sum       float32 SUM near FLT_MAX: finite results within the bound, an infinity only
 *                      where a partial sum overflows (doc/guarantees.md section 5)
 *   in_place_misuse    MPI_IN_PLACE where MPI does not accept it: ECCL_ERR_INVALID_ARG, no crash
 *   dev_oom            (--device) a rank whose GPU memory is exhausted (or ECCL_FAULT_DEV_ALLOC=R)
 *                      stages its call; every rank succeeds within the bound
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"

static int rank_, size_, use_dev;
static int fails; /* this rank's failures in the current case */

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fails++;                                                                               \
            if (fails <= 8) {                                                                      \
                fprintf(stderr, "[%d] %s:%d: ", rank_, __func__, __LINE__);                        \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fputc('\n', stderr);                                                               \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Ends a case: every rank's failures summed; one line from rank 0. Returns 1 on failure. */
static int report(const char *name)
{
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0) printf("%s: %s%s\n", all ? "FAIL" : "ok", name, use_dev ? " (device buffers)" : "");
    fflush(stdout);
    fails = 0;
    return all != 0;
}

/* ---- buffers: host memory, or device memory with --device ---- */
static void *balloc(size_t bytes)
{
    void *p = NULL;
    if (use_dev ? eccl_cuda_malloc(&p, bytes ? bytes : 8) != ECCL_SUCCESS : !(p = malloc(bytes ? bytes : 8))) {
        fprintf(stderr, "[%d] no memory for %zu bytes\n", rank_, bytes);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}
static void bfree(void *p)
{
    if (use_dev) eccl_cuda_free(p);
    else free(p);
}
static void put(void *dst, const void *src, size_t bytes)
{
    if (use_dev) {
        if (eccl_cuda_memcpy(dst, src, bytes)) MPI_Abort(MPI_COMM_WORLD, 3);
    } else {
        memcpy(dst, src, bytes);
    }
}
static void get(void *dst, const void *src, size_t bytes) { put(dst, src, bytes); }

static eccl_comm_t make_comm(eccl_fallback_t fb, eccl_compress_policy_t pol)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6; /* no link probe: quicker, and the same model on every rank */
    cfg.beta = 1e-9;
    cfg.fallback = fb;
    cfg.compress = pol;
    eccl_comm_t c = NULL;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c) != ECCL_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
    return c;
}

/* Deterministic data of rank r: values in [100, 101), element i. */
static double val(int r, size_t i)
{
    uint64_t h = (uint64_t)(r + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)i * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return 100.0 + (double)(h >> 11) * 0x1p-53;
}

/* x_r: rank `bad`'s data has no finite value (NaN, or NaN and +-inf mixed when `mixed`). */
static double xval(int r, size_t i, int bad, int mixed)
{
    if (r == bad || bad == -2) return mixed && i % 3 ? (i % 3 == 1 ? INFINITY : -INFINITY) : NAN;
    return val(r, i);
}

static void fill(void *h, eccl_dtype_t dt, int r, size_t n, int bad, int mixed)
{
    for (size_t i = 0; i < n; i++) {
        double v = xval(r, i, bad, mixed);
        if (dt == ECCL_FLOAT32) ((float *)h)[i] = (float)v;
        else ((double *)h)[i] = v;
    }
}

static long double at(const void *h, eccl_dtype_t dt, size_t i)
{
    return dt == ECCL_FLOAT32 ? (long double)((const float *)h)[i] : (long double)((const double *)h)[i];
}

/* got == the sent value within E (NaN as NaN, infinities exactly). */
static int moved_ok(long double got, long double sent, long double E)
{
    if (isnan(sent)) return isnan(got);
    if (isinf(sent)) return got == sent;
    return fabsl(got - sent) <= E;
}

/* ---- rel_nan_rank ---- */
typedef struct {
    const char *coll, *algo;
} algo_t;

static const algo_t global_range_algos[] = {
    {"allgather", "ring"},           {"allgather", "bruck"},           {"allgather", "recursive_doubling"},
    {"gather", "binomial"},          {"allreduce", "ring"},            {"allreduce", "ring_pipelined"},
    {"allreduce", "recursive_doubling"}, {"allreduce", "rabenseifner"}, {"allreduce", "reduce_bcast"},
    {"reduce", "binomial"},          {"reduce_scatter_block", "ring"}, {"reduce_scatter_block", "recursive_halving"},
    {"allgather", "auto"},           {"gather", "auto"},               {"allreduce", "auto"}};

static int pow2(int p) { return (p & (p - 1)) == 0; }

/* Runs one collective named coll on n elements per rank (x: this rank's input, y: output). */
static eccl_result_t run_coll(const char *coll, void *x, void *y, size_t n, eccl_dtype_t dt, eccl_op_t op,
                              int root, const eccl_bound_t *b, eccl_comm_t c)
{
    if (!strcmp(coll, "allgather")) return eccl_allgather(x, y, n, dt, b, c);
    if (!strcmp(coll, "gather")) return eccl_gather(x, y, n, dt, root, b, c);
    if (!strcmp(coll, "allreduce")) return eccl_allreduce(x, y, n, dt, op, b, c);
    if (!strcmp(coll, "reduce")) return eccl_reduce(x, y, n, dt, op, root, b, c);
    if (!strcmp(coll, "reduce_scatter_block")) return eccl_reduce_scatter_block(x, y, n / (size_t)size_, dt, op, b, c);
    if (!strcmp(coll, "bcast")) return eccl_bcast(x, n, dt, root, b, c);
    if (!strcmp(coll, "scatter")) return eccl_scatter(x, y, n / (size_t)size_, dt, root, b, c);
    return ECCL_ERR_INTERNAL;
}

static int case_rel_nan_rank(void)
{
    const size_t n = 6000; /* elements per rank: several blocks, not a multiple of 32 */
    const double rel = 1e-3;
    eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
    const eccl_dtype_t dts[2] = {ECCL_FLOAT64, ECCL_FLOAT32};
    size_t P = (size_t)size_;
    void *hx = malloc(n * 8), *hy = malloc(P * n * 8), *hexp = malloc(n * 8);
    void *X = balloc(n * 8), *Y = balloc(P * n * 8);
    /* bad: the rank without a finite value (-2: every rank) */
    int bads[3] = {0, size_ - 1, -2};
    for (int d = 0; d < 2; d++)
        for (int bi = 0; bi < 3; bi++)
            for (int mixed = 0; mixed < 2; mixed++)
                for (size_t k = 0; k < sizeof global_range_algos / sizeof *global_range_algos; k++) {
                    const algo_t *a = &global_range_algos[k];
                    if (!strcmp(a->algo, "recursive_doubling") && !strcmp(a->coll, "allgather") && !pow2(size_))
                        continue;
                    if (bi == 1 && size_ == 1) continue;
                    eccl_dtype_t dt = dts[d];
                    size_t es = dt == ECCL_FLOAT32 ? 4 : 8;
                    int bad = bads[bi];
                    if (eccl_comm_set_algorithm(c, a->coll, a->algo) != ECCL_SUCCESS) {
                        CHECK(0, "set_algorithm %s %s failed", a->coll, a->algo);
                        continue;
                    }
                    fill(hx, dt, rank_, n, bad, mixed);
                    put(X, hx, n * es);
                    /* the documented E: rel * (max - min) over the finite values of the data every
                     * rank's call involves (reduce_scatter_block: its first size*recvcount) */
                    size_t cnt = !strcmp(a->coll, "reduce_scatter_block") ? n - n % P : n;
                    double lo = INFINITY, hi = -INFINITY;
                    for (int r = 0; r < size_; r++)
                        for (size_t i = 0; i < cnt; i++) {
                            double v = xval(r, i, bad, mixed);
                            if (dt == ECCL_FLOAT32) v = (float)v;
                            if (isfinite(v)) {
                                lo = v < lo ? v : lo;
                                hi = v > hi ? v : hi;
                            }
                        }
                    double E = lo <= hi ? rel * (hi - lo) : 0.0;
                    eccl_bound_t b = ECCL_BOUND_REL(rel);
                    int root = size_ - 1;
                    eccl_result_t rc = run_coll(a->coll, X, Y, cnt, dt, ECCL_OP_SUM, root, &b, c);
                    CHECK(rc == ECCL_SUCCESS, "%s %s %s bad %d: %s (%s)", a->coll, a->algo, dt == ECCL_FLOAT32 ? "f32" : "f64",
                          bad, eccl_strerror(rc), eccl_comm_last_error(c));
                    if (rc) continue;
                    eccl_stats_t st;
                    eccl_comm_last_stats(c, &st);
                    if (size_ > 1)
                        CHECK(st.compressed && fabs(st.bound_requested - E) <= 1e-12 * E,
                              "%s %s bad %d mixed %d: E %.17g, expected %.17g (compressed %d)", a->coll, a->algo, bad,
                              mixed, st.bound_requested, E, st.compressed);
                    /* data movement: every element within E of what its owner sent */
                    int gathers = !strcmp(a->coll, "allgather") || (!strcmp(a->coll, "gather") && rank_ == root);
                    if (gathers) {
                        get(hy, Y, P * n * es);
                        long first_bad = -1; /* (one message per call) */
                        for (int r = 0; r < size_ && first_bad < 0; r++) {
                            fill(hexp, dt, r, n, bad, mixed);
                            for (size_t i = 0; i < n; i++)
                                if (!moved_ok(at(hy, dt, (size_t)r * n + i), at(hexp, dt, i), E)) {
                                    first_bad = (long)i;
                                    CHECK(0, "%s %s bad %d: rank %d's element %zu came back %.17Lg for %.17Lg (E %.3g)",
                                          a->coll, a->algo, bad, r, i, at(hy, dt, (size_t)r * n + i), at(hexp, dt, i), E);
                                    break;
                                }
                        }
                    }
                }
    eccl_comm_set_algorithm(c, "allgather", "auto");
    bfree(X);
    bfree(Y);
    free(hx);
    free(hy);
    free(hexp);
    eccl_comm_free(&c);
    return report("rel_nan_rank");
}

/* ---- fallback_small ---- */
static int case_fallback_small(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_AUTO);
    double h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    void *X = balloc(sizeof h), *Y = balloc(sizeof h * (size_t)size_);
    put(X, h, sizeof h);
    eccl_result_t rc = eccl_allreduce(X, Y, 4, ECCL_FLOAT64, ECCL_OP_PROD, NULL, c);
    CHECK(rc == ECCL_ERR_UNSUPPORTED, "4-element PROD allreduce: %s, expected ECCL_ERR_UNSUPPORTED", eccl_strerror(rc));
    CHECK(rc == ECCL_SUCCESS || strlen(eccl_comm_last_error(c)) > 0, "no message");
    rc = eccl_reduce(X, Y, 4, ECCL_FLOAT64, ECCL_OP_PROD, 0, NULL, c);
    CHECK(rc == ECCL_ERR_UNSUPPORTED, "4-element PROD reduce: %s", eccl_strerror(rc));
    rc = eccl_reduce_scatter_block(X, Y, 1, ECCL_FLOAT64, ECCL_OP_PROD, NULL, c);
    CHECK(rc == ECCL_ERR_UNSUPPORTED || size_ > 8, "1-element PROD reduce_scatter_block: %s", eccl_strerror(rc));
    /* SUM of the same size: fine (plain MPI below min_bytes, no fallback involved) */
    rc = eccl_allreduce(X, Y, 4, ECCL_FLOAT64, ECCL_OP_SUM, NULL, c);
    CHECK(rc == ECCL_SUCCESS, "4-element SUM allreduce: %s", eccl_strerror(rc));
    eccl_comm_free(&c);
    /* policy never: not consulted */
    c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_NEVER);
    rc = eccl_allreduce(X, Y, 4, ECCL_FLOAT64, ECCL_OP_PROD, NULL, c);
    CHECK(rc == ECCL_SUCCESS, "PROD with compress=never: %s", eccl_strerror(rc));
    eccl_comm_free(&c);
    /* fallback mpi: the exact product */
    c = make_comm(ECCL_FALLBACK_MPI, ECCL_COMPRESS_AUTO);
    rc = eccl_allreduce(X, Y, 4, ECCL_FLOAT64, ECCL_OP_PROD, NULL, c);
    double got[4];
    get(got, Y, sizeof got);
    CHECK(rc == ECCL_SUCCESS && got[2] == pow(3.0, size_), "PROD with fallback mpi: %s, %g", eccl_strerror(rc), got[2]);
    eccl_comm_free(&c);
    bfree(X);
    bfree(Y);
    return report("fallback_small");
}

/* ---- intercomm, comm_null ---- */
static int case_intercomm(void)
{
    if (size_ >= 2) {
        int color = rank_ < size_ / 2;
        MPI_Comm local, inter;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank_, &local);
        int remote_leader = color ? size_ / 2 : 0;
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 77, &inter);
        eccl_comm_t c = (eccl_comm_t)&fails; /* must be overwritten */
        alarm(60); /* a hang (the old MPI_Bcast on an intercommunicator) ends the test */
        eccl_result_t rc = eccl_comm_create(inter, NULL, &c);
        alarm(0);
        CHECK(rc == ECCL_ERR_INVALID_ARG, "eccl_comm_create(intercommunicator): %s", eccl_strerror(rc));
        CHECK(c == NULL, "*out not NULL after a failed eccl_comm_create");
        if (rc == ECCL_SUCCESS) eccl_comm_free(&c);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);
    }
    return report("intercomm");
}

static int case_comm_null(void)
{
    eccl_comm_t c = (eccl_comm_t)&fails;
    eccl_result_t rc = eccl_comm_create(MPI_COMM_NULL, NULL, &c);
    CHECK(rc == ECCL_ERR_INVALID_ARG, "eccl_comm_create(MPI_COMM_NULL): %s", eccl_strerror(rc));
    CHECK(c == NULL, "*out was left unset after eccl_comm_create(MPI_COMM_NULL)");
    CHECK(eccl_comm_create(MPI_COMM_WORLD, NULL, NULL) == ECCL_ERR_INVALID_ARG, "NULL out accepted");
    return report("comm_null");
}

/* ---- last_error ---- */
static int case_last_error(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_MPI, ECCL_COMPRESS_AUTO);
    double h[4] = {1, 2, 3, 4};
    void *X = balloc(sizeof h);
    put(X, h, sizeof h);
    eccl_result_t rc = eccl_bcast(X, 4, ECCL_FLOAT64, size_ + 3, NULL, c); /* a bad root: local error */
    CHECK(rc == ECCL_ERR_INVALID_ARG && strlen(eccl_comm_last_error(c)) > 0, "bad root: %s, \"%s\"", eccl_strerror(rc),
          eccl_comm_last_error(c));
    rc = eccl_bcast(X, 4, ECCL_FLOAT64, 0, NULL, c);
    CHECK(rc == ECCL_SUCCESS && !strcmp(eccl_comm_last_error(c), ""), "after a success: %s, \"%s\"", eccl_strerror(rc),
          eccl_comm_last_error(c));
    /* a count-0 success clears it too */
    eccl_bcast(X, 4, ECCL_FLOAT64, -1, NULL, c);
    rc = eccl_bcast(X, 0, ECCL_FLOAT64, 0, NULL, c);
    CHECK(rc == ECCL_SUCCESS && !strcmp(eccl_comm_last_error(c), ""), "after a count-0 success: \"%s\"",
          eccl_comm_last_error(c));
    rc = eccl_comm_set_algorithm(c, NULL, "ring");
    CHECK(rc == ECCL_ERR_INVALID_ARG && strlen(eccl_comm_last_error(c)) > 0, "set_algorithm(NULL, ring): %s, \"%s\"",
          eccl_strerror(rc), eccl_comm_last_error(c));
    rc = eccl_comm_set_algorithm(c, "allreduce", NULL);
    CHECK(rc == ECCL_ERR_INVALID_ARG && strlen(eccl_comm_last_error(c)) > 0, "set_algorithm(allreduce, NULL): \"%s\"",
          eccl_comm_last_error(c));
    rc = eccl_comm_set_algorithm(c, "allreduce", "ring");
    CHECK(rc == ECCL_SUCCESS && !strcmp(eccl_comm_last_error(c), ""), "set_algorithm success: \"%s\"",
          eccl_comm_last_error(c));
    eccl_comm_free(&c);
    bfree(X);
    return report("last_error");
}

/* ---- count0_rules: every argument is checked whatever the count ---- */
static int case_count0_rules(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_MPI, ECCL_COMPRESS_AUTO);
    double h[2] = {0, 0};
    void *X = balloc(sizeof h * (size_t)size_), *Y = balloc(sizeof h * (size_t)size_);
    eccl_bound_t bad[4] = {{ECCL_MODE_ABS, -1.0, 0}, {ECCL_MODE_ABS, NAN, 0}, {ECCL_MODE_REL, 1e-3, -5.0},
                           {(eccl_mode_t)7, 1e-3, 0}};
    for (size_t count = 0; count <= 1; count++) {
        for (int k = 0; k < 4; k++) {
            eccl_result_t r1 = eccl_bcast(X, count, ECCL_FLOAT64, 0, &bad[k], c);
            eccl_result_t r2 = eccl_allreduce(X, Y, count, ECCL_FLOAT64, ECCL_OP_SUM, &bad[k], c);
            eccl_result_t r3 = eccl_allgather(X, Y, count, ECCL_FLOAT64, &bad[k], c);
            eccl_result_t r4 = eccl_sendrecv_replace(X, count, ECCL_FLOAT64, rank_, 0, rank_, 0, &bad[k], c);
            CHECK(r1 == ECCL_ERR_INVALID_ARG && r2 == ECCL_ERR_INVALID_ARG && r3 == ECCL_ERR_INVALID_ARG &&
                      r4 == ECCL_ERR_INVALID_ARG,
                  "count %zu, bad bound %d: %d %d %d %d", count, k, r1, r2, r3, r4);
        }
        eccl_result_t r = eccl_bcast(X, count, ECCL_FLOAT64, -1, NULL, c);
        CHECK(r == ECCL_ERR_INVALID_ARG, "count %zu, bad root: %s", count, eccl_strerror(r));
        r = eccl_allreduce(X, Y, count, (eccl_dtype_t)9, ECCL_OP_SUM, NULL, c);
        CHECK(r == ECCL_ERR_INVALID_ARG, "count %zu, bad dtype: %s", count, eccl_strerror(r));
        r = eccl_allreduce(X, Y, count, ECCL_FLOAT64, (eccl_op_t)17, NULL, c);
        CHECK(r == ECCL_ERR_INVALID_ARG, "count %zu, bad op: %s", count, eccl_strerror(r));
    }
    eccl_result_t r = eccl_allreduce(X, Y, 0, ECCL_FLOAT64, ECCL_OP_SUM, NULL, c);
    CHECK(r == ECCL_SUCCESS, "count 0, good arguments: %s", eccl_strerror(r));
    eccl_comm_free(&c);
    bfree(X);
    bfree(Y);
    return report("count0_rules");
}

/* ---- count_limit ---- */
static int case_count_limit(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_MPI, ECCL_COMPRESS_ALWAYS);
    float h[16] = {0};
    void *X = balloc(sizeof h), *Y = balloc(sizeof h);
    put(X, h, sizeof h);
    /* the smallest count whose bytes on `size` ranks reach 2^62 (exactly 2^62 where it divides) */
    size_t unit = 4 * (size_t)size_;
    size_t n = (((size_t)1 << 62) + unit - 1) / unit;
    eccl_result_t r = eccl_bcast(X, n, ECCL_FLOAT32, 0, NULL, c);
    CHECK(r == ECCL_ERR_INVALID_ARG, "bcast of %zu float32 on %d ranks: %s", n, size_, eccl_strerror(r));
    r = eccl_allreduce(X, Y, n, ECCL_FLOAT32, ECCL_OP_SUM, NULL, c);
    CHECK(r == ECCL_ERR_INVALID_ARG, "allreduce of %zu float32: %s", n, eccl_strerror(r));
    r = eccl_allgather(X, Y, n, ECCL_FLOAT32, NULL, c);
    CHECK(r == ECCL_ERR_INVALID_ARG, "allgather of %zu float32: %s", n, eccl_strerror(r));
    r = eccl_sendrecv_replace(X, n, ECCL_FLOAT32, rank_, 0, rank_, 0, NULL, c);
    CHECK(r == ECCL_ERR_INVALID_ARG, "sendrecv_replace of %zu float32: %s", n, eccl_strerror(r));
    CHECK(eccl_compress_bound(((size_t)1 << 62) / 4, ECCL_FLOAT32) == 0, "eccl_compress_bound of 2^62 bytes is not 0");
    eccl_comm_free(&c);
    bfree(X);
    bfree(Y);
    return report("count_limit");
}

/* ---- mismatches ---- */
static const algo_t compressed_algos[] = {
    {"allreduce", "ring"},      {"allreduce", "ring_pipelined"}, {"allreduce", "recursive_doubling"},
    {"allreduce", "rabenseifner"}, {"allreduce", "reduce_bcast"}, {"allreduce", "auto"},
    {"reduce", "binomial"},     {"reduce_scatter_block", "ring"}, {"reduce_scatter_block", "ring_pipelined"},
    {"reduce_scatter_block", "recursive_halving"}, {"allgather", "ring"}, {"allgather", "bruck"},
    {"allgather", "recursive_doubling"}, {"gather", "binomial"}, {"bcast", "binomial"},
    {"bcast", "scatter_allgather"}, {"bcast", "pipeline"}, {"bcast", "auto"}, {"scatter", "binomial"}};

/* One mismatch over every compressed algorithm: rank 0 gets (n0, dt0, op0, root0, b0), the others
 * (n, dt, op, root, b); every rank must return ECCL_ERR_MISMATCH. */
static void mismatch_all(const char *what, eccl_comm_t c, size_t n0, eccl_dtype_t dt0, eccl_op_t op0, int root0,
                         const eccl_bound_t *b0, size_t n, eccl_dtype_t dt, eccl_op_t op, int root, const eccl_bound_t *b,
                         void *X, void *Y)
{
    for (size_t k = 0; k < sizeof compressed_algos / sizeof *compressed_algos; k++) {
        const algo_t *a = &compressed_algos[k];
        if (!strcmp(a->algo, "recursive_doubling") && !strcmp(a->coll, "allgather") && !pow2(size_)) continue;
        int is_red = !strcmp(a->coll, "allreduce") || !strcmp(a->coll, "reduce") ||
                     !strcmp(a->coll, "reduce_scatter_block");
        if (!is_red && op0 != op) continue; /* (an op only matters to reductions) */
        int has_root = !strcmp(a->coll, "bcast") || !strcmp(a->coll, "scatter") || !strcmp(a->coll, "gather") ||
                       !strcmp(a->coll, "reduce");
        if (!has_root && root0 != root) continue;
        eccl_comm_set_algorithm(c, a->coll, a->algo);
        int me0 = rank_ == 0;
        size_t cnt = me0 ? n0 : n;
        if (!strcmp(a->coll, "reduce_scatter_block") || !strcmp(a->coll, "scatter")) cnt *= (size_t)size_;
        alarm(120);
        eccl_result_t rc = run_coll(a->coll, X, Y, cnt, me0 ? dt0 : dt, me0 ? op0 : op, me0 ? root0 : root,
                                    me0 ? b0 : b, c);
        alarm(0);
        CHECK(rc == ECCL_ERR_MISMATCH, "%s, %s %s: %s (%s), expected ECCL_ERR_MISMATCH", what, a->coll, a->algo,
              eccl_strerror(rc), eccl_comm_last_error(c));
        eccl_comm_set_algorithm(c, a->coll, "auto");
    }
}

static int case_mismatch_count(void)
{
    if (size_ >= 2) {
        eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
        size_t n = 20000, P = (size_t)size_;
        void *X = balloc((n + 64) * 8 * P), *Y = balloc((n + 64) * 8 * P);
        double *h = malloc((n + 64) * 8 * P);
        for (size_t i = 0; i < (n + 64) * P; i++) h[i] = val(rank_, i);
        put(X, h, (n + 64) * 8 * P);
        eccl_bound_t b = ECCL_BOUND_ABS(1e-6);
        mismatch_all("count", c, n, ECCL_FLOAT64, ECCL_OP_SUM, 0, &b, n + 64, ECCL_FLOAT64, ECCL_OP_SUM, 0, &b, X, Y);
        /* REL too (the range travels in the same agreement) */
        eccl_bound_t r = ECCL_BOUND_REL(1e-6);
        mismatch_all("count (REL)", c, n + 32, ECCL_FLOAT64, ECCL_OP_SUM, 0, &r, n, ECCL_FLOAT64, ECCL_OP_SUM, 0, &r, X, Y);
        eccl_comm_free(&c);
        free(h);
        bfree(X);
        bfree(Y);
    }
    return report("mismatch_count");
}

static int case_mismatch_signature(void)
{
    if (size_ >= 2) {
        eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
        size_t n = 20000, P = (size_t)size_;
        void *X = balloc(n * 8 * P), *Y = balloc(n * 8 * P);
        double *h = malloc(n * 8 * P);
        for (size_t i = 0; i < n * P; i++) h[i] = val(rank_, i);
        put(X, h, n * 8 * P);
        eccl_bound_t a2 = ECCL_BOUND_ABS(1e-2), a4 = ECCL_BOUND_ABS(1e-4), r4 = ECCL_BOUND_REL(1e-4),
                     rg = {ECCL_MODE_REL, 1e-4, 1.0}, rg2 = {ECCL_MODE_REL, 1e-4, 2.0}, ll = ECCL_BOUND_LOSSLESS;
        const eccl_dtype_t f64 = ECCL_FLOAT64;
        mismatch_all("ABS bound", c, n, f64, ECCL_OP_SUM, 0, &a2, n, f64, ECCL_OP_SUM, 0, &a4, X, Y);
        mismatch_all("ABS vs REL", c, n, f64, ECCL_OP_SUM, 0, &a4, n, f64, ECCL_OP_SUM, 0, &r4, X, Y);
        mismatch_all("REL range", c, n, f64, ECCL_OP_SUM, 0, &rg, n, f64, ECCL_OP_SUM, 0, &rg2, X, Y);
        mismatch_all("lossless vs ABS", c, n, f64, ECCL_OP_SUM, 0, &ll, n, f64, ECCL_OP_SUM, 0, &a4, X, Y);
        mismatch_all("op", c, n, f64, ECCL_OP_SUM, 0, &a4, n, f64, ECCL_OP_MAX, 0, &a4, X, Y);
        mismatch_all("op AVG", c, n, f64, ECCL_OP_AVG, 0, &a4, n, f64, ECCL_OP_SUM, 0, &a4, X, Y);
        mismatch_all("root", c, n, f64, ECCL_OP_SUM, 0, &a4, n, f64, ECCL_OP_SUM, 1, &a4, X, Y);
        mismatch_all("dtype", c, 2 * n, ECCL_FLOAT32, ECCL_OP_SUM, 0, &a4, n, f64, ECCL_OP_SUM, 0, &a4, X, Y);
        /* a matching call still works and keeps its bound */
        eccl_result_t rc = eccl_allreduce(X, Y, n, f64, ECCL_OP_SUM, &a4, c);
        CHECK(rc == ECCL_SUCCESS, "a matching allreduce after the mismatches: %s", eccl_strerror(rc));
        eccl_comm_free(&c);
        free(h);
        bfree(X);
        bfree(Y);
    }
    return report("mismatch_signature");
}

/* ---- sendrecv_bound ---- */
static int case_sendrecv_bound(void)
{
    if (size_ >= 2) {
        eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
        eccl_comm_set_algorithm(c, "sendrecv_replace", "compressed");
        size_t n = 20000;
        double *h = malloc(n * 8), *g = malloc(n * 8);
        for (size_t i = 0; i < n; i++) h[i] = val(rank_, i);
        void *X = balloc(n * 8);
        put(X, h, n * 8);
        /* rank 0 compresses with 1e-1, the others with 1e-4; a shift to the right: rank 1 receives
         * rank 0's stream and must refuse it, every other rank receives a tighter one */
        eccl_bound_t b = rank_ == 0 ? (eccl_bound_t)ECCL_BOUND_ABS(1e-1) : (eccl_bound_t)ECCL_BOUND_ABS(1e-4);
        int dest = (rank_ + 1) % size_, src = (rank_ + size_ - 1) % size_;
        eccl_result_t rc = eccl_sendrecv_replace(X, n, ECCL_FLOAT64, dest, 5, src, 5, &b, c);
        get(g, X, n * 8);
        if (rank_ == 1) {
            CHECK(rc == ECCL_ERR_MISMATCH, "rank 1 accepted a stream of bound 1e-1 for its 1e-4: %s", eccl_strerror(rc));
            CHECK(!memcmp(g, h, n * 8), "rank 1's buffer changed although the call failed");
        } else {
            CHECK(rc == ECCL_SUCCESS, "rank %d: %s (%s)", rank_, eccl_strerror(rc), eccl_comm_last_error(c));
            double worst = 0;
            for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs(g[i] - val(src, i)));
            CHECK(worst <= b.value, "rank %d: error %g over its bound %g", rank_, worst, b.value);
        }
        eccl_comm_free(&c);
        bfree(X);
        free(h);
        free(g);
    }
    return report("sendrecv_bound");
}

/* ---- overflow_sum ---- */
static int case_overflow_sum(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
    size_t n = 4096;
    float *h = malloc(n * 4), *g = malloc(n * 4);
    void *X = balloc(n * 4), *Y = balloc(n * 4);
    /* element i: rank r gives +-a*FLT_MAX; the exact sum is finite where the signs balance, while
     * partial sums in some order exceed FLT_MAX */
    for (size_t i = 0; i < n; i++) {
        double s = (i + (size_t)rank_) % 2 ? -1 : 1, a = 0.5 + 0.25 * (double)((i / 2) % 3);
        h[i] = (float)(s * a * FLT_MAX);
        if (i % 7 == 0) h[i] = (float)(100 + rank_); /* ordinary values too */
    }
    put(X, h, n * 4);
    const char *algos[] = {"ring", "recursive_doubling", "rabenseifner", "reduce_bcast", "mpi"};
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    for (size_t k = 0; k < sizeof algos / sizeof *algos; k++) {
        eccl_comm_set_algorithm(c, "allreduce", algos[k]);
        eccl_result_t rc = eccl_allreduce(X, Y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, c);
        CHECK(rc == ECCL_SUCCESS, "%s: %s", algos[k], eccl_strerror(rc));
        get(g, Y, n * 4);
        long inf_finite = 0; /* results not finite with a finite exact sum */
        for (size_t i = 0; i < n; i++) {
            long double S = 0, pos = 0, neg = 0, absum = 0;
            for (int r = 0; r < size_; r++) {
                float v;
                double s = (i + (size_t)r) % 2 ? -1 : 1, a = 0.5 + 0.25 * (double)((i / 2) % 3);
                v = (float)(s * a * FLT_MAX);
                if (i % 7 == 0) v = (float)(100 + r);
                S += v;
                absum += fabsl((long double)v);
                if (v > 0) pos += v;
                else neg += v;
            }
            long double y = g[i], u = FLT_EPSILON / 2;
            if (isfinite(y)) {
                long double allow = b.value + (long double)(size_ + 2) * u * (absum + size_ * b.value);
                CHECK(fabsl(y - S) <= allow, "%s: element %zu: %.9Lg for %.9Lg", algos[k], i, y, S);
            } else {
                /* the documented case: an infinity only where the terms of one sign overflow, a NaN
                 * (+inf + -inf) only where those of both signs do */
                int one = pos > FLT_MAX || neg < -FLT_MAX || fabsl(S) > FLT_MAX, both = pos > FLT_MAX && neg < -FLT_MAX;
                CHECK(isnan(y) ? both : one, "%s: element %zu is %Lg although no partial sum overflows so (S %.9Lg)",
                      algos[k], i, y, S);
                if (fabsl(S) <= FLT_MAX) inf_finite++;
            }
        }
        if (rank_ == 0 && inf_finite)
            printf("  (overflow_sum %s: %ld results inf or NaN with a finite exact sum, as documented)\n", algos[k],
                   inf_finite);
    }
    eccl_comm_free(&c);
    bfree(X);
    bfree(Y);
    free(h);
    free(g);
    return report("overflow_sum");
}

/* ---- in_place_misuse: MPI_IN_PLACE where MPI does not accept it is a local error ---- */
static int case_in_place_misuse(void)
{
    eccl_comm_t c = make_comm(ECCL_FALLBACK_MPI, ECCL_COMPRESS_AUTO);
    void *X = balloc(64 * (size_t)size_), *IP = MPI_IN_PLACE;
    eccl_result_t r[10];
    r[0] = eccl_bcast(IP, 4, ECCL_FLOAT64, 0, NULL, c);
    r[1] = eccl_allreduce(X, IP, 4, ECCL_FLOAT64, ECCL_OP_SUM, NULL, c);
    r[2] = eccl_allreduce(IP, IP, 4, ECCL_FLOAT64, ECCL_OP_SUM, NULL, c);
    r[3] = eccl_reduce(X, IP, 4, ECCL_FLOAT64, ECCL_OP_SUM, rank_, NULL, c); /* (each rank its own root) */
    r[4] = eccl_reduce_scatter_block(X, IP, 1, ECCL_FLOAT64, ECCL_OP_SUM, NULL, c);
    r[5] = eccl_allgather(X, IP, 1, ECCL_FLOAT64, NULL, c);
    r[6] = eccl_scatter(IP, X, 1, ECCL_FLOAT64, rank_, NULL, c);
    r[7] = eccl_gather(X, IP, 1, ECCL_FLOAT64, rank_, NULL, c);
    r[8] = eccl_sendrecv_replace(IP, 4, ECCL_FLOAT64, rank_, 0, rank_, 0, NULL, c);
    r[9] = eccl_bcast(IP, 0, ECCL_FLOAT64, 0, NULL, c);
    for (int k = 0; k < 10; k++)
        CHECK(r[k] == ECCL_ERR_INVALID_ARG, "call %d with a misplaced MPI_IN_PLACE: %s", k, eccl_strerror(r[k]));
    eccl_comm_free(&c);
    bfree(X);
    return report("in_place_misuse");
}

/* ---- dev_oom: a rank whose GPU has no memory left for a device-resident call stages it ----
 * With ECCL_FAULT_DEV_ALLOC=R the reservation of rank R fails by design; without it, rank 1 (or 0
 * on one rank) takes every byte of its GPU it can get before the call. Either way every rank must
 * succeed with results within the bound, identical on every rank, and the short rank staged. */
static int case_dev_oom(void)
{
    if (!use_dev) {
        if (rank_ == 0) printf("  (dev_oom: needs --device)\n");
        return report("dev_oom");
    }
    const char *fault = getenv("ECCL_FAULT_DEV_ALLOC");
    int victim = fault ? atoi(fault) : (size_ > 1 ? 1 : 0);
    eccl_comm_t c = make_comm(ECCL_FALLBACK_ERROR, ECCL_COMPRESS_ALWAYS);
    eccl_comm_set_algorithm(c, "allreduce", "ring");
    const size_t n = (size_t)1 << 22; /* 16 MiB of float32 */
    float *h = malloc(n * 4), *g = malloc(n * 4);
    for (size_t i = 0; i < n; i++) h[i] = (float)(sin(1e-4 * (double)i + rank_) * 10);
    void *X = balloc(n * 4), *Y = balloc(n * 4);
    put(X, h, n * 4);
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    /* warm-up: the GPU context (and NCCL, where it is used) exist before the memory runs out */
    eccl_result_t rc = eccl_allreduce(X, Y, 1024, ECCL_FLOAT32, ECCL_OP_SUM, &b, c);
    CHECK(rc == ECCL_SUCCESS, "warm-up: %s", eccl_strerror(rc));
    void *hog[4096];
    int nhog = 0;
    if (!fault && rank_ == victim) {
        size_t chunk[3] = {(size_t)1 << 30, (size_t)1 << 26, (size_t)1 << 22};
        for (int k = 0; k < 3; k++)
            while (nhog < 4096 && eccl_cuda_malloc(&hog[nhog], chunk[k]) == ECCL_SUCCESS) nhog++;
    }
    rc = eccl_allreduce(X, Y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, c);
    eccl_stats_t st;
    eccl_comm_last_stats(c, &st);
    for (int k = 0; k < nhog; k++) eccl_cuda_free(hog[k]);
    CHECK(rc == ECCL_SUCCESS, "allreduce with rank %d out of device memory: %s (%s)", victim, eccl_strerror(rc),
          eccl_comm_last_error(c));
    if (rank_ == victim && size_ > 1)
        CHECK(st.device == 1, "rank %d (out of device memory) ran with device = %d, expected 1 (staged)", victim, st.device);
    get(g, Y, n * 4);
    double worst = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        long double S = 0;
        for (int r = 0; r < size_; r++) S += (float)(sin(1e-4 * (double)i + r) * 10);
        long double e = fabsl((long double)g[i] - S);
        if (!(e <= worst)) worst = (double)e;
        sum += g[i] * (double)((i % 13) + 1);
    }
    double allow = b.value + (size_ + 2) * (FLT_EPSILON / 2) * (10.0 * size_ + size_ * b.value);
    CHECK(worst <= allow, "error %g over the bound %g", worst, allow);
    double mm[2] = {sum, -sum};
    MPI_Allreduce(MPI_IN_PLACE, mm, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    CHECK(mm[0] == -mm[1], "the ranks' results differ");
    int vdev = rank_ == victim ? st.device : -1;
    MPI_Allreduce(MPI_IN_PLACE, &vdev, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank_ == 0) printf("  (dev_oom: rank %d %s; its call ran with device = %d)\n", victim,
                           fault ? "by ECCL_FAULT_DEV_ALLOC" : "with its GPU memory taken", vdev);
    eccl_comm_free(&c);
    bfree(X);
    bfree(Y);
    free(h);
    free(g);
    return report("dev_oom");
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(void);
    } cases[] = {{"comm_null", case_comm_null},
                 {"intercomm", case_intercomm},
                 {"last_error", case_last_error},
                 {"count0_rules", case_count0_rules},
                 {"count_limit", case_count_limit},
                 {"fallback_small", case_fallback_small},
                 {"rel_nan_rank", case_rel_nan_rank},
                 {"mismatch_count", case_mismatch_count},
                 {"mismatch_signature", case_mismatch_signature},
                 {"sendrecv_bound", case_sendrecv_bound},
                 {"overflow_sum", case_overflow_sum},
                 {"in_place_misuse", case_in_place_misuse},
                 {"dev_oom", case_dev_oom}};
    const int ncases = (int)(sizeof cases / sizeof *cases);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int chosen[sizeof cases / sizeof *cases] = {0}, any = 0;
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (k < ncases && strcmp(argv[i], cases[k].name)) k++;
        if (!strcmp(argv[i], "--device")) {
            use_dev = 1;
        } else if (k < ncases) {
            chosen[k] = any = 1;
        } else {
            if (rank_ == 0) {
                fprintf(stderr, "usage: test_contract [--device] [CASE...]; cases:");
                for (k = 0; k < ncases; k++) fprintf(stderr, " %s", cases[k].name);
                fputc('\n', stderr);
            }
            MPI_Finalize();
            return 2;
        }
    }
    if (use_dev && !tu_mpi_use_gpu(rank_, "the contract tests with --device")) {
        MPI_Finalize();
        return 77;
    }
    int bad = 0, ran = 0;
    for (int k = 0; k < ncases; k++)
        if (chosen[k] || (!any && cases[k].fn != case_dev_oom)) { /* (dev_oom only when named) */
            bad += cases[k].fn();
            ran++;
        }
    if (rank_ == 0) printf("%d of %d cases failed\n", bad, ran);
    MPI_Finalize();
    return bad ? 1 : 0;
}
