/*
 * test_nonblocking.c - the nonblocking collectives (eccl_i*, eccl_wait, eccl_test, eccl_waitall)
 * against the blocking ones, on every rank.
 *
 *   mpiexec -n P tests/test_nonblocking [--device] [--single] [CASE...]
 *
 * --device: the data buffers are CUDA device memory (skips, 77, without a usable GPU on every rank).
 * --single: MPI initialised with MPI_THREAD_SINGLE (no progress thread: requests run in the
 * caller's eccl calls); by default MPI_THREAD_MULTIPLE (or ECCL_PROGRESS=caller from outside).
 *
 * Cases (each prints "ok: NAME" or "FAIL: NAME" from rank 0):
 *   match        every collective x every algorithm of the table (forced; auto too) x float32,
 *                float64, complex64: the nonblocking result is bit for bit the blocking one, and
 *                eccl_wait's statistics name the same algorithm
 *   inflight     many requests of different collectives in flight at once, completed by
 *                eccl_waitall in reverse order of posting... and by eccl_wait in any order
 *   interleave   blocking calls between a post and its wait; eccl_comm_last_stats and
 *                eccl_comm_set_algorithm with requests in flight
 *   test_loop    eccl_test until done
 *   progress     (progress thread only) rank 0 posts and then sleeps without any eccl call: the
 *                other ranks' waits end long before it wakes
 *   errors       a count that differs across ranks: ECCL_ERR_MISMATCH from every rank's wait; bad
 *                arguments: the request's result; a NULL request pointer refused at the post
 *   corrupt      (run with ECCL_FAULT_INJECT=1:1) a corrupt stream in flight: ECCL_ERR_CORRUPT from
 *                every rank's wait, and the next request succeeds
 *   free_pending eccl_comm_free with a request not yet waited for: it completes, and eccl_wait
 *                afterwards returns its result
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h" /* the algorithm table (white box: every algorithm is forced in turn) */
#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"

static int rank_, size_, use_dev, threaded;
static int fails;

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

static int report(const char *name)
{
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0)
        printf("%s: %s%s%s\n", all ? "FAIL" : "ok", name, use_dev ? " (device buffers)" : "",
               threaded ? "" : " (no progress thread)");
    fflush(stdout);
    fails = 0;
    return all != 0;
}

/* ---- buffers: host memory, or device memory with --device ---- */
static void *balloc(size_t bytes)
{
    void *p = NULL;
    if (use_dev ? eccl_cuda_malloc(&p, bytes ? bytes : 8) != ECCL_SUCCESS : !(p = calloc(1, bytes ? bytes : 8))) {
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
static void copy(void *dst, const void *src, size_t bytes)
{
    if (use_dev) {
        if (eccl_cuda_memcpy(dst, src, bytes)) MPI_Abort(MPI_COMM_WORLD, 3);
    } else {
        memcpy(dst, src, bytes);
    }
}

static eccl_comm_t make_comm(eccl_compress_policy_t pol)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6; /* no link probe: quicker, and the same model on every rank */
    cfg.beta = 1e-9;
    cfg.compress = pol;
    cfg.min_bytes = 0;
    eccl_comm_t c = NULL;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c) != ECCL_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
    return c;
}

/* Deterministic smooth data of rank r (so compression pays and every algorithm compresses). */
static void fill(void *h, eccl_dtype_t dt, int r, size_t n, int salt)
{
    size_t reals = dt == ECCL_COMPLEX64 || dt == ECCL_COMPLEX128 ? 2 * n : n;
    for (size_t i = 0; i < reals; i++) {
        double v = sin(1e-3 * (double)i * (r + 1) + salt) * (10.0 + r) + 0.25 * cos(0.37 * (double)i);
        if (dt == ECCL_FLOAT32 || dt == ECCL_COMPLEX64) ((float *)h)[i] = (float)v;
        else ((double *)h)[i] = v;
    }
}

/* The arguments of one collective (all of them; each uses its own). */
typedef struct {
    eccl_coll_t coll;
    size_t n;        /* elements per rank (the count argument) */
    eccl_dtype_t dt;
    eccl_op_t op;
    int root;
    size_t in_elems, out_elems; /* elements of the input and output buffers */
} call_t;

static call_t describe(eccl_coll_t coll, size_t n, eccl_dtype_t dt, int root)
{
    call_t k = {coll, n, dt, ECCL_OP_SUM, root, n, n};
    switch (coll) {
    case ECCL_COLL_REDUCE_SCATTER_BLOCK: k.in_elems = n * (size_t)size_; break;
    case ECCL_COLL_ALLGATHER: k.out_elems = n * (size_t)size_; break;
    case ECCL_COLL_SCATTER: k.in_elems = n * (size_t)size_; break;
    case ECCL_COLL_GATHER: k.out_elems = n * (size_t)size_; break;
    default: break;
    }
    return k;
}

/* Runs k on x (input) and y (output; the buffer of bcast and sendrecv_replace), blocking (req
 * NULL) or posted (*req filled). */
static eccl_result_t start(const call_t *k, void *x, void *y, const eccl_bound_t *b, eccl_comm_t c, eccl_request_t *req)
{
    const int right = (rank_ + 1) % size_, left = (rank_ + size_ - 1) % size_;
    switch (k->coll) {
    case ECCL_COLL_BCAST: return req ? eccl_ibcast(y, k->n, k->dt, k->root, b, c, req) : eccl_bcast(y, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_ALLREDUCE:
        return req ? eccl_iallreduce(x, y, k->n, k->dt, k->op, b, c, req) : eccl_allreduce(x, y, k->n, k->dt, k->op, b, c);
    case ECCL_COLL_REDUCE:
        return req ? eccl_ireduce(x, y, k->n, k->dt, k->op, k->root, b, c, req)
                   : eccl_reduce(x, y, k->n, k->dt, k->op, k->root, b, c);
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
        return req ? eccl_ireduce_scatter_block(x, y, k->n, k->dt, k->op, b, c, req)
                   : eccl_reduce_scatter_block(x, y, k->n, k->dt, k->op, b, c);
    case ECCL_COLL_ALLGATHER:
        return req ? eccl_iallgather(x, y, k->n, k->dt, b, c, req) : eccl_allgather(x, y, k->n, k->dt, b, c);
    case ECCL_COLL_SCATTER:
        return req ? eccl_iscatter(x, y, k->n, k->dt, k->root, b, c, req) : eccl_scatter(x, y, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_GATHER:
        return req ? eccl_igather(x, y, k->n, k->dt, k->root, b, c, req) : eccl_gather(x, y, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_SENDRECV_REPLACE:
        return req ? eccl_isendrecv_replace(y, k->n, k->dt, right, 7, left, 7, b, c, req)
                   : eccl_sendrecv_replace(y, k->n, k->dt, right, 7, left, 7, b, c);
    default: return ECCL_ERR_INTERNAL;
    }
}

/* The buffers of one call: host input hx, and x, y where the collective runs (host or device). */
typedef struct {
    call_t k;
    size_t es;
    void *hx, *x, *y, *hy;
} bufs_t;

static void bufs_make(bufs_t *B, const call_t *k, int salt)
{
    B->k = *k;
    B->es = eccl_dtype_size(k->dt);
    size_t inb = k->in_elems * B->es, outb = k->out_elems * B->es;
    B->hx = calloc(1, inb ? inb : 8);
    B->hy = calloc(1, outb ? outb : 8);
    if (!B->hx || !B->hy) MPI_Abort(MPI_COMM_WORLD, 3);
    fill(B->hx, k->dt, rank_, k->in_elems, salt);
    B->x = balloc(inb);
    B->y = balloc(outb);
    copy(B->x, B->hx, inb);
}

/* Resets y (the bcast/sendrecv buffer takes the input) before a run. */
static void bufs_reset(bufs_t *B)
{
    size_t outb = B->k.out_elems * B->es;
    if (B->k.coll == ECCL_COLL_BCAST || B->k.coll == ECCL_COLL_SENDRECV_REPLACE) {
        copy(B->y, B->hx, outb);
    } else {
        memset(B->hy, 0, outb);
        copy(B->y, B->hy, outb);
    }
}

/* The output this rank holds (host copy in out). */
static void bufs_result(bufs_t *B, void *out)
{
    copy(out, B->y, B->k.out_elems * B->es);
}

static void bufs_free(bufs_t *B)
{
    free(B->hx);
    free(B->hy);
    bfree(B->x);
    bfree(B->y);
}

/* Whether this rank's output of k means anything (reduce, gather: at the root only). */
static int has_output(const call_t *k)
{
    return !((k->coll == ECCL_COLL_REDUCE || k->coll == ECCL_COLL_GATHER) && rank_ != k->root);
}

static const eccl_bound_t abs_bound = {ECCL_MODE_ABS, 1e-3, 0};

/* ---- match ---- */
static int case_match(void)
{
    static const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64};
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    const size_t n = 3000;
    int runs = 0;
    for (int coll = 0; coll < ECCL_NCOLLS; coll++) {
        for (const eccl_algo_t *a = eccl_algorithms;; a++) {
            const char *name = a->name ? a->name : "auto"; /* every algorithm of coll, then auto */
            if (a->name && (int)a->coll != coll) continue;
            if (a->name && (a->flags & ECCL_ALG_DEVICE) && !use_dev) continue; /* NCCL's own: device only */
            if (eccl_comm_set_algorithm(c, eccl_coll_name((eccl_coll_t)coll), name) != ECCL_SUCCESS)
                CHECK(0, "set_algorithm(%s, %s): %s", eccl_coll_name((eccl_coll_t)coll), name, eccl_comm_last_error(c));
            for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
                const eccl_dtype_t dt = dts[d];
                if (coll == ECCL_COLL_SENDRECV_REPLACE && dt == ECCL_COMPLEX64) continue;
                call_t k = describe((eccl_coll_t)coll, n, dt, size_ - 1);
                bufs_t B;
                bufs_make(&B, &k, (int)d);
                size_t outb = k.out_elems * B.es;
                unsigned char *ref = malloc(outb), *got = malloc(outb);
                eccl_stats_t sb, sn;
                bufs_reset(&B);
                eccl_result_t rb = start(&k, B.x, B.y, &abs_bound, c, NULL);
                eccl_comm_last_stats(c, &sb);
                bufs_result(&B, ref);
                bufs_reset(&B);
                eccl_request_t r = ECCL_REQUEST_NULL;
                eccl_result_t rp = start(&k, B.x, B.y, &abs_bound, c, &r);
                CHECK(rp == ECCL_SUCCESS && r != ECCL_REQUEST_NULL, "post %s/%s: %s", eccl_coll_name(k.coll), name,
                      eccl_strerror(rp));
                eccl_result_t rn = eccl_wait(&r, &sn);
                CHECK(r == ECCL_REQUEST_NULL, "eccl_wait left the request set");
                bufs_result(&B, got);
                CHECK(rb == ECCL_SUCCESS && rn == ECCL_SUCCESS, "%s/%s %d: blocking %s, nonblocking %s",
                      eccl_coll_name(k.coll), name, (int)dt, eccl_strerror(rb), eccl_strerror(rn));
                CHECK(!has_output(&k) || !memcmp(ref, got, outb), "%s/%s dtype %d: results differ",
                      eccl_coll_name(k.coll), name, (int)dt);
                CHECK(!strcmp(sb.algorithm, sn.algorithm) && sb.compressed == sn.compressed && sn.result == rn,
                      "%s/%s: stats say %s/%d (blocking %s/%d)", eccl_coll_name(k.coll), name, sn.algorithm,
                      sn.compressed, sb.algorithm, sb.compressed);
                runs++;
                free(ref);
                free(got);
                bufs_free(&B);
            }
            if (!a->name) break;
        }
        eccl_comm_set_algorithm(c, eccl_coll_name((eccl_coll_t)coll), "auto");
    }
    CHECK(runs > 60, "only %d runs", runs);
    eccl_comm_free(&c);
    return report("match");
}

/* ---- inflight ---- */
static int case_inflight(void)
{
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    enum { K = 10 };
    const eccl_coll_t colls[K] = {ECCL_COLL_ALLREDUCE, ECCL_COLL_BCAST, ECCL_COLL_ALLGATHER, ECCL_COLL_REDUCE,
                                  ECCL_COLL_REDUCE_SCATTER_BLOCK, ECCL_COLL_ALLREDUCE, ECCL_COLL_GATHER,
                                  ECCL_COLL_SCATTER, ECCL_COLL_SENDRECV_REPLACE, ECCL_COLL_ALLREDUCE};
    bufs_t B[K];
    unsigned char *ref[K];
    for (int i = 0; i < K; i++) {
        call_t k = describe(colls[i], 2000 + 97 * (size_t)i, i % 2 ? ECCL_FLOAT64 : ECCL_FLOAT32, i % size_);
        bufs_make(&B[i], &k, i);
        ref[i] = malloc(k.out_elems * B[i].es);
        bufs_reset(&B[i]);
        if (start(&k, B[i].x, B[i].y, &abs_bound, c, NULL)) CHECK(0, "blocking %d failed", i);
        bufs_result(&B[i], ref[i]);
        bufs_reset(&B[i]);
    }
    for (int round = 0; round < 2; round++) {
        eccl_request_t r[K];
        for (int i = 0; i < K; i++)
            CHECK(start(&B[i].k, B[i].x, B[i].y, &abs_bound, c, &r[i]) == ECCL_SUCCESS, "post %d", i);
        eccl_result_t res[K];
        if (round == 0) {
            CHECK(eccl_waitall(K, r, res) == ECCL_SUCCESS, "waitall");
        } else { /* waits in reverse order */
            for (int i = K - 1; i >= 0; i--) res[i] = eccl_wait(&r[i], NULL);
        }
        for (int i = 0; i < K; i++) {
            size_t outb = B[i].k.out_elems * B[i].es;
            unsigned char *got = malloc(outb);
            bufs_result(&B[i], got);
            CHECK(res[i] == ECCL_SUCCESS && r[i] == ECCL_REQUEST_NULL, "round %d request %d: %s", round, i,
                  eccl_strerror(res[i]));
            CHECK(!has_output(&B[i].k) || !memcmp(got, ref[i], outb), "round %d request %d (%s): results differ",
                  round, i, eccl_coll_name(B[i].k.coll));
            free(got);
            bufs_reset(&B[i]);
        }
    }
    for (int i = 0; i < K; i++) {
        free(ref[i]);
        bufs_free(&B[i]);
    }
    eccl_comm_free(&c);
    return report("inflight");
}

/* ---- interleave ---- */
static int case_interleave(void)
{
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    call_t k1 = describe(ECCL_COLL_ALLREDUCE, 5000, ECCL_FLOAT32, 0), k2 = describe(ECCL_COLL_BCAST, 4000, ECCL_FLOAT64, 0);
    bufs_t A, B;
    bufs_make(&A, &k1, 1);
    bufs_make(&B, &k2, 2);
    size_t ab = k1.out_elems * A.es, bb = k2.out_elems * B.es;
    unsigned char *ra = malloc(ab), *rb = malloc(bb), *ga = malloc(ab), *gb = malloc(bb);
    bufs_reset(&A);
    bufs_reset(&B);
    start(&k1, A.x, A.y, &abs_bound, c, NULL);
    start(&k2, B.x, B.y, &abs_bound, c, NULL);
    bufs_result(&A, ra);
    bufs_result(&B, rb);
    bufs_reset(&A);
    bufs_reset(&B);
    eccl_request_t r = ECCL_REQUEST_NULL;
    CHECK(start(&k1, A.x, A.y, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    CHECK(start(&k2, B.x, B.y, &abs_bound, c, NULL) == ECCL_SUCCESS, "blocking bcast after a post: %s",
          eccl_comm_last_error(c));
    eccl_stats_t st;
    CHECK(eccl_comm_last_stats(c, &st) == ECCL_SUCCESS && st.result == ECCL_SUCCESS, "last_stats");
    CHECK(!strcmp(eccl_comm_last_error(c), ""), "last error '%s'", eccl_comm_last_error(c));
    bufs_result(&B, gb);
    CHECK(!memcmp(gb, rb, bb), "the blocking bcast between post and wait differs");
    /* settings with a request in flight: the request keeps those it was posted under */
    eccl_request_t r2 = ECCL_REQUEST_NULL;
    bufs_reset(&B);
    CHECK(start(&k2, B.x, B.y, &abs_bound, c, &r2) == ECCL_SUCCESS, "post 2");
    CHECK(eccl_comm_set_algorithm(c, "bcast", "binomial") == ECCL_SUCCESS, "set_algorithm");
    CHECK(eccl_wait(&r, NULL) == ECCL_SUCCESS, "wait 1");
    CHECK(eccl_wait(&r2, &st) == ECCL_SUCCESS, "wait 2");
    bufs_result(&A, ga);
    bufs_result(&B, gb);
    CHECK(!memcmp(ga, ra, ab), "allreduce posted before a blocking call differs");
    CHECK(!memcmp(gb, rb, bb), "bcast posted before set_algorithm differs");
    CHECK(eccl_wait(&r, &st) == ECCL_SUCCESS && st.algorithm[0] == '\0', "waiting for a null request");
    free(ra);
    free(rb);
    free(ga);
    free(gb);
    bufs_free(&A);
    bufs_free(&B);
    eccl_comm_free(&c);
    return report("interleave");
}

/* ---- test_loop ---- */
static int case_test_loop(void)
{
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    call_t k = describe(ECCL_COLL_ALLREDUCE, 200000, ECCL_FLOAT32, 0);
    bufs_t A;
    bufs_make(&A, &k, 3);
    size_t ab = k.out_elems * A.es;
    unsigned char *ref = malloc(ab), *got = malloc(ab);
    bufs_reset(&A);
    start(&k, A.x, A.y, &abs_bound, c, NULL);
    bufs_result(&A, ref);
    bufs_reset(&A);
    eccl_request_t r = ECCL_REQUEST_NULL;
    CHECK(start(&k, A.x, A.y, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    int done = 0;
    long spins = 0;
    eccl_stats_t st;
    while (!done) {
        eccl_result_t rc = eccl_test(&r, &done, &st);
        CHECK(rc == ECCL_SUCCESS, "test: %s", eccl_strerror(rc));
        if (rc) break;
        spins++;
    }
    CHECK(r == ECCL_REQUEST_NULL && st.result == ECCL_SUCCESS, "after the test loop");
    bufs_result(&A, got);
    CHECK(!memcmp(got, ref, ab), "results differ");
    CHECK(eccl_test(NULL, &done, NULL) == ECCL_ERR_INVALID_ARG, "eccl_test(NULL)");
    free(ref);
    free(got);
    bufs_free(&A);
    eccl_comm_free(&c);
    return report("test_loop");
}

/* ---- progress ---- */
static int case_progress(void)
{
    if (!threaded || size_ < 2) return report("progress (needs a progress thread and 2 ranks: nothing to check)");
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    call_t k = describe(ECCL_COLL_ALLREDUCE, 20000, ECCL_FLOAT32, 0);
    bufs_t A;
    bufs_make(&A, &k, 4);
    bufs_reset(&A);
    const double nap = 3.0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    eccl_request_t r = ECCL_REQUEST_NULL;
    CHECK(start(&k, A.x, A.y, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    if (rank_ == 0) {
        usleep((useconds_t)(nap * 1e6)); /* no eccl call: only the progress thread can move it */
    }
    eccl_result_t rc = eccl_wait(&r, NULL);
    double dt = MPI_Wtime() - t0;
    CHECK(rc == ECCL_SUCCESS, "wait: %s", eccl_strerror(rc));
    if (rank_ != 0) CHECK(dt < nap / 2, "the wait took %.2f s while rank 0 slept %.1f s", dt, nap);
    bufs_free(&A);
    eccl_comm_free(&c);
    return report("progress");
}

/* ---- errors ---- */
static int case_errors(void)
{
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    float *h = calloc(4096, sizeof *h);
    void *x = balloc(4096 * sizeof(float)), *y = balloc(4096 * sizeof(float));
    copy(x, h, 4096 * sizeof(float));
    eccl_request_t r = ECCL_REQUEST_NULL;
    /* a count that differs across ranks */
    if (size_ > 1) {
        size_t n = rank_ == 0 ? 1000 : 1001;
        CHECK(eccl_iallreduce(x, y, n, ECCL_FLOAT32, ECCL_OP_SUM, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
        eccl_stats_t st;
        eccl_result_t rc = eccl_wait(&r, &st);
        CHECK(rc == ECCL_ERR_MISMATCH && st.result == rc, "count mismatch: %s", eccl_strerror(rc));
        CHECK(strstr(eccl_comm_last_error(c), "count") != NULL, "message '%s'", eccl_comm_last_error(c));
    }
    /* bad arguments on every rank: the request's result */
    CHECK(eccl_iallreduce(x, y, 100, (eccl_dtype_t)99, ECCL_OP_SUM, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    CHECK(eccl_wait(&r, NULL) == ECCL_ERR_INVALID_ARG, "bad dtype");
    CHECK(strstr(eccl_comm_last_error(c), "datatype") != NULL, "message '%s'", eccl_comm_last_error(c));
    CHECK(eccl_ibcast(NULL, 100, ECCL_FLOAT32, 0, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    CHECK(eccl_wait(&r, NULL) == ECCL_ERR_INVALID_ARG, "NULL buffer");
    /* refused at the post */
    CHECK(eccl_iallreduce(x, y, 100, ECCL_FLOAT32, ECCL_OP_SUM, &abs_bound, c, NULL) == ECCL_ERR_INVALID_ARG,
          "NULL request pointer");
    r = (eccl_request_t)1;
    CHECK(eccl_iallreduce(x, y, 100, ECCL_FLOAT32, ECCL_OP_SUM, &abs_bound, NULL, &r) == ECCL_ERR_INVALID_ARG &&
              r == ECCL_REQUEST_NULL, "NULL communicator");
    CHECK(eccl_wait(NULL, NULL) == ECCL_ERR_INVALID_ARG, "eccl_wait(NULL)");
    CHECK(eccl_waitall(-1, NULL, NULL) == ECCL_ERR_INVALID_ARG, "eccl_waitall(-1)");
    CHECK(eccl_waitall(0, NULL, NULL) == ECCL_SUCCESS, "eccl_waitall(0)");
    /* and the communicator still works */
    CHECK(eccl_iallreduce(x, y, 1000, ECCL_FLOAT32, ECCL_OP_SUM, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    CHECK(eccl_wait(&r, NULL) == ECCL_SUCCESS, "a good call after the errors: %s", eccl_comm_last_error(c));
    bfree(x);
    bfree(y);
    free(h);
    eccl_comm_free(&c);
    return report("errors");
}

/* ---- corrupt (ECCL_FAULT_INJECT=1:1: rank 1's first message leaves with a bit flipped) ---- */
static int case_corrupt(void)
{
    const char *f = getenv("ECCL_FAULT_INJECT");
    if (!f || size_ < 2) return report("corrupt (run with ECCL_FAULT_INJECT=1:1 on 2 or more ranks: nothing to check)");
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    eccl_comm_set_algorithm(c, "allreduce", "ring");
    call_t k = describe(ECCL_COLL_ALLREDUCE, 50000, ECCL_FLOAT32, 0);
    bufs_t A;
    bufs_make(&A, &k, 5);
    bufs_reset(&A);
    eccl_request_t r[2];
    CHECK(start(&k, A.x, A.y, &abs_bound, c, &r[0]) == ECCL_SUCCESS, "post");
    eccl_result_t rc = eccl_wait(&r[0], NULL);
    CHECK(rc == ECCL_ERR_CORRUPT, "a corrupt stream in flight: %s", eccl_strerror(rc));
    bufs_reset(&A);
    CHECK(start(&k, A.x, A.y, &abs_bound, c, &r[1]) == ECCL_SUCCESS, "post");
    rc = eccl_wait(&r[1], NULL);
    CHECK(rc == ECCL_SUCCESS, "the next request: %s", eccl_strerror(rc));
    bufs_free(&A);
    eccl_comm_free(&c);
    return report("corrupt");
}

/* ---- free_pending ---- */
static int case_free_pending(void)
{
    eccl_comm_t c = make_comm(ECCL_COMPRESS_ALWAYS);
    call_t k = describe(ECCL_COLL_ALLREDUCE, 30000, ECCL_FLOAT64, 0);
    bufs_t A;
    bufs_make(&A, &k, 6);
    size_t ab = k.out_elems * A.es;
    unsigned char *ref = malloc(ab), *got = malloc(ab);
    bufs_reset(&A);
    start(&k, A.x, A.y, &abs_bound, c, NULL);
    bufs_result(&A, ref);
    bufs_reset(&A);
    eccl_request_t r = ECCL_REQUEST_NULL;
    CHECK(start(&k, A.x, A.y, &abs_bound, c, &r) == ECCL_SUCCESS, "post");
    CHECK(eccl_comm_free(&c) == ECCL_SUCCESS && c == NULL, "eccl_comm_free with a request in flight");
    eccl_stats_t st;
    CHECK(eccl_wait(&r, &st) == ECCL_SUCCESS && st.result == ECCL_SUCCESS, "wait after the free");
    bufs_result(&A, got);
    CHECK(!memcmp(got, ref, ab), "results differ");
    free(ref);
    free(got);
    bufs_free(&A);
    return report("free_pending");
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(void);
    } cases[] = {{"match", case_match},         {"inflight", case_inflight}, {"interleave", case_interleave},
                 {"test_loop", case_test_loop}, {"progress", case_progress}, {"errors", case_errors},
                 {"corrupt", case_corrupt},     {"free_pending", case_free_pending}};
    const int ncases = (int)(sizeof cases / sizeof *cases);
    int single = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--single")) single = 1;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, single ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    const char *prog = getenv("ECCL_PROGRESS");
    threaded = provided == MPI_THREAD_MULTIPLE && !(prog && !strcmp(prog, "caller"));
    int chosen[sizeof cases / sizeof *cases] = {0}, any = 0;
    for (int i = 1; i < argc; i++) {
        int k = 0;
        while (k < ncases && strcmp(argv[i], cases[k].name)) k++;
        if (!strcmp(argv[i], "--device")) {
            use_dev = 1;
        } else if (!strcmp(argv[i], "--single")) {
        } else if (k < ncases) {
            chosen[k] = any = 1;
        } else {
            if (rank_ == 0) {
                fprintf(stderr, "usage: test_nonblocking [--device] [--single] [CASE...]; cases:");
                for (k = 0; k < ncases; k++) fprintf(stderr, " %s", cases[k].name);
                fputc('\n', stderr);
            }
            MPI_Finalize();
            return 2;
        }
    }
    if (use_dev && !tu_mpi_use_gpu(rank_, "the nonblocking tests with --device")) {
        MPI_Finalize();
        return 77;
    }
    int bad = 0, ran = 0;
    for (int k = 0; k < ncases; k++)
        if (chosen[k] || !any) {
            bad += cases[k].fn();
            ran++;
        }
    if (rank_ == 0) printf("%d of %d cases failed\n", bad, ran);
    MPI_Finalize();
    return bad ? 1 : 0;
}
