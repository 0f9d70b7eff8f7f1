/*
 * test_cuda_async.c - the stream-enqueued collectives (eccl_cuda_<op>_async) against the blocking
 * ones, on device buffers, on every rank.
 *
 *   mpiexec -n P tests/test_cuda_async [CASE...]
 *
 * Each case enqueues, on a stream and without waiting, a long host-to-device copy (a delay), then
 * the copy of the input into the device buffer, then the collective, then the copy of the output
 * back to the host, and only then synchronises the stream. A collective that did not wait for the
 * stream's earlier work would read the buffer before the input lands; one that did not hold the
 * stream back would let the output copy read the buffer before the result lands: either way the
 * result differs from the blocking call's, which must be matched bit for bit. Right after the
 * call returns, the stream must still be busy (the delay): the caller did not wait for it (with a
 * progress thread, on a non-blocking stream; with ECCL_PROGRESS=caller, or on the legacy stream or a
 * blocking one, the call runs at once and the stream must be idle).
 *
 * Cases (each prints "ok: NAME" or "FAIL: NAME" from rank 0):
 *   match      every collective x every algorithm of the table (forced; auto too) x float32,
 *              float64 (complex64 for allreduce): bit for bit the blocking result, by the first
 *              stream call with the arguments (which runs at once) and by the second (enqueued)
 *   streams    the same on a blocking stream (cudaStreamCreate) and on the legacy default stream,
 *              where the call runs at once (only a non-blocking stream is held)
 *   inflight   eight allreduces and bcasts of different sizes and types enqueued back to back
 *              behind one delay, a blocking call in between
 *   errors     a count that differs across ranks: ECCL_ERR_MISMATCH from every rank's
 *              eccl_cuda_comm_async_error once the stream passed; the stream is released; the next
 *              call succeeds; an invalid datatype (never seen: at once, returned); NULL arguments
 *   corrupt    (run with ECCL_FAULT_INJECT=1:1 ECCL_TRANSPORT=mpi) the first stream a rank sends is
 *              corrupted (a first call: at once, ECCL_ERR_CORRUPT returned on every rank), and the
 *              next call (enqueued) succeeds
 * Skips (77) without the CUDA backend or without a GPU on every rank.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h" /* the algorithm table (white box: every algorithm is forced in turn) */
#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"

#ifdef HAVE_CUDA
#include <cuda_runtime.h>

static int rank_, size_, threaded, fails;
static void *h_delay, *d_delay;
static const size_t delay_bytes = (size_t)256 << 20;

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
#define CU(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "[%d] %s: %s\n", rank_, #call, cudaGetErrorString(e_));                \
            MPI_Abort(MPI_COMM_WORLD, 3);                                                          \
        }                                                                                          \
    } while (0)

static int report(const char *name)
{
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0) printf("%s: %s%s\n", all ? "FAIL" : "ok", name, threaded ? "" : " (no progress thread)");
    fflush(stdout);
    fails = 0;
    return all != 0;
}


static const eccl_bound_t abs_bound = {ECCL_MODE_ABS, 1e-3, 0};

/* A communicator compressing every call; `warm`: after one blocking compressed call on device
 * buffers, which sets NCCL up (until then enqueued calls run at once). */
static eccl_comm_t make_comm(int warm)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6; /* no link probe: quicker, and the same model on every rank */
    cfg.beta = 1e-9;
    cfg.compress = ECCL_COMPRESS_ALWAYS;
    cfg.min_bytes = 0;
    eccl_comm_t c = NULL;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c) != ECCL_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 2);
    if (warm) {
        float *d = NULL;
        CU(cudaMalloc((void **)&d, 8192 * sizeof(float)));
        CU(cudaMemset(d, 0, 8192 * sizeof(float)));
        CU(cudaDeviceSynchronize());
        eccl_result_t rc = eccl_allreduce(d, d + 4096, 4096, ECCL_FLOAT32, ECCL_OP_SUM, &abs_bound, c);
        if (rc) {
            fprintf(stderr, "[%d] warm-up: %s\n", rank_, eccl_strerror(rc));
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        cudaFree(d);
    }
    return c;
}

static void fill(void *h, eccl_dtype_t dt, int r, size_t n, int salt)
{
    size_t reals = dt == ECCL_COMPLEX64 || dt == ECCL_COMPLEX128 ? 2 * n : n;
    for (size_t i = 0; i < reals; i++) {
        double v = sin(1e-3 * (double)i * (r + 1) + salt) * (10.0 + r) + 0.25 * cos(0.37 * (double)i);
        if (dt == ECCL_FLOAT32 || dt == ECCL_COMPLEX64) ((float *)h)[i] = (float)v;
        else ((double *)h)[i] = v;
    }
}

typedef struct {
    eccl_coll_t coll;
    size_t n;
    eccl_dtype_t dt;
    int root;
    size_t in_elems, out_elems, es;
    void *hx, *hy, *x, *y; /* page-locked host input and output, device input and output */
} call_t;

static void call_make(call_t *k, eccl_coll_t coll, size_t n, eccl_dtype_t dt, int salt)
{
    memset(k, 0, sizeof *k);
    k->coll = coll;
    k->n = n;
    k->dt = dt;
    k->root = size_ - 1;
    k->in_elems = k->out_elems = n;
    if (coll == ECCL_COLL_REDUCE_SCATTER_BLOCK || coll == ECCL_COLL_SCATTER) k->in_elems = n * (size_t)size_;
    if (coll == ECCL_COLL_ALLGATHER || coll == ECCL_COLL_GATHER) k->out_elems = n * (size_t)size_;
    k->es = eccl_dtype_size(dt);
    CU(cudaMallocHost(&k->hx, k->in_elems * k->es + 8));
    CU(cudaMallocHost(&k->hy, k->out_elems * k->es + 8));
    CU(cudaMalloc(&k->x, k->in_elems * k->es + 8));
    CU(cudaMalloc(&k->y, k->out_elems * k->es + 8));
    fill(k->hx, dt, rank_, k->in_elems, salt);
}

static void call_free(call_t *k)
{
    cudaFreeHost(k->hx);
    cudaFreeHost(k->hy);
    cudaFree(k->x);
    cudaFree(k->y);
}

/* The buffer the collective writes (bcast and sendrecv_replace: in place, in x). */
static int in_place(const call_t *k) { return k->coll == ECCL_COLL_BCAST || k->coll == ECCL_COLL_SENDRECV_REPLACE; }
static void *out_buf(const call_t *k) { return in_place(k) ? k->x : k->y; }
static int has_output(const call_t *k)
{
    return !((k->coll == ECCL_COLL_REDUCE || k->coll == ECCL_COLL_GATHER) && rank_ != k->root);
}

/* The collective of k, blocking (st == NULL and !async) or enqueued on st. */
static eccl_result_t run(const call_t *k, eccl_comm_t c, int async, cudaStream_t st)
{
    const int right = (rank_ + 1) % size_, left = (rank_ + size_ - 1) % size_;
    const eccl_bound_t *b = &abs_bound;
    switch (k->coll) {
    case ECCL_COLL_BCAST:
        return async ? eccl_cuda_bcast_async(k->x, k->n, k->dt, k->root, b, c, st)
                     : eccl_bcast(k->x, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_ALLREDUCE:
        return async ? eccl_cuda_allreduce_async(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, b, c, st)
                     : eccl_allreduce(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, b, c);
    case ECCL_COLL_REDUCE:
        return async ? eccl_cuda_reduce_async(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, k->root, b, c, st)
                     : eccl_reduce(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, k->root, b, c);
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
        return async ? eccl_cuda_reduce_scatter_block_async(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, b, c, st)
                     : eccl_reduce_scatter_block(k->x, k->y, k->n, k->dt, ECCL_OP_SUM, b, c);
    case ECCL_COLL_ALLGATHER:
        return async ? eccl_cuda_allgather_async(k->x, k->y, k->n, k->dt, b, c, st)
                     : eccl_allgather(k->x, k->y, k->n, k->dt, b, c);
    case ECCL_COLL_SCATTER:
        return async ? eccl_cuda_scatter_async(k->x, k->y, k->n, k->dt, k->root, b, c, st)
                     : eccl_scatter(k->x, k->y, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_GATHER:
        return async ? eccl_cuda_gather_async(k->x, k->y, k->n, k->dt, k->root, b, c, st)
                     : eccl_gather(k->x, k->y, k->n, k->dt, k->root, b, c);
    case ECCL_COLL_SENDRECV_REPLACE:
        return async ? eccl_cuda_sendrecv_replace_async(k->x, k->n, k->dt, right, 7, left, 7, b, c, st)
                     : eccl_sendrecv_replace(k->x, k->n, k->dt, right, 7, left, 7, b, c);
    default: return ECCL_ERR_INTERNAL;
    }
}

/* The blocking reference: input copied and complete, the call, the output read back into ref. */
static eccl_result_t blocking(call_t *k, eccl_comm_t c, void *ref)
{
    CU(cudaMemcpy(k->x, k->hx, k->in_elems * k->es, cudaMemcpyHostToDevice));
    CU(cudaMemset(k->y, 0, k->out_elems * k->es));
    CU(cudaDeviceSynchronize());
    eccl_result_t rc = run(k, c, 0, NULL);
    CU(cudaMemcpy(ref, out_buf(k), k->out_elems * k->es, cudaMemcpyDeviceToHost));
    return rc;
}

/* Zero the device buffers (complete), so that a call reading too early sees zeros. */
static void clear(call_t *k)
{
    CU(cudaMemset(k->x, 0, k->in_elems * k->es));
    CU(cudaMemset(k->y, 0, k->out_elems * k->es));
    memset(k->hy, 0, k->out_elems * k->es);
    CU(cudaDeviceSynchronize());
}

/* On st: the delay (when `delay`), the input, the collective, the output copy; the stream's state
 * right after the call returned in *busy (1: still working). Not synchronised. */
static eccl_result_t enqueue(call_t *k, eccl_comm_t c, cudaStream_t st, int delay, int *busy)
{
    if (delay) CU(cudaMemcpyAsync(d_delay, h_delay, delay_bytes, cudaMemcpyHostToDevice, st));
    CU(cudaMemcpyAsync(k->x, k->hx, k->in_elems * k->es, cudaMemcpyHostToDevice, st));
    eccl_result_t rc = run(k, c, 1, st);
    if (busy) {
        cudaError_t q = cudaStreamQuery(st);
        *busy = q == cudaErrorNotReady;
        if (q != cudaSuccess && q != cudaErrorNotReady) CU(q);
    }
    CU(cudaMemcpyAsync(k->hy, out_buf(k), k->out_elems * k->es, cudaMemcpyDeviceToHost, st));
    return rc;
}

/* One call enqueued on st against its blocking result; `enq`: it must be enqueued (else it runs at
 * once) when there is a progress thread. */
static void one_as(call_t *k, eccl_comm_t c, cudaStream_t st, const char *what, int enq)
{
    size_t outb = k->out_elems * k->es;
    unsigned char *ref = malloc(outb + 8);
    eccl_stats_t sb, sa;
    eccl_result_t rb = blocking(k, c, ref);
    eccl_comm_last_stats(c, &sb);
    CHECK(rb == ECCL_SUCCESS, "%s: blocking %s", what, eccl_strerror(rb));
    /* the first stream call with these arguments runs at once; the second is enqueued */
    for (int pass = 0; pass < 2; pass++) {
        clear(k);
        MPI_Barrier(MPI_COMM_WORLD);
        int busy = 0;
        eccl_result_t ra = enqueue(k, c, st, 1, &busy);
        CHECK(ra == ECCL_SUCCESS, "%s (call %d): %s (%s)", what, pass + 1, eccl_strerror(ra), eccl_comm_last_error(c));
        CHECK(threaded && enq && pass ? busy : !busy, "%s (call %d): the stream was %s when the call returned", what,
              pass + 1, busy ? "busy" : "idle");
        CU(cudaStreamSynchronize(st));
        eccl_result_t ae = ECCL_ERR_INTERNAL;
        CHECK(eccl_cuda_comm_async_error(c, &ae) == ECCL_SUCCESS && ae == ECCL_SUCCESS, "%s: async error %s (%s)",
              what, eccl_strerror(ae), eccl_comm_last_error(c));
        eccl_comm_last_stats(c, &sa);
        CHECK(!has_output(k) || !memcmp(ref, k->hy, outb), "%s (call %d): results differ from the blocking call's",
              what, pass + 1);
        CHECK(!strcmp(sb.algorithm, sa.algorithm), "%s (call %d): blocking ran %s, this %s", what, pass + 1,
              sb.algorithm, sa.algorithm);
        CHECK(sa.device == sb.device, "%s: device %d, blocking %d", what, sa.device, sb.device);
    }
    free(ref);
}
static void one(call_t *k, eccl_comm_t c, cudaStream_t st, const char *what) { one_as(k, c, st, what, 1); }

static int case_match(cudaStream_t st)
{
    eccl_comm_t c = make_comm(1);
    const size_t n = 3000;
    int runs = 0;
    for (int coll = 0; coll < ECCL_NCOLLS; coll++) {
        for (const eccl_algo_t *a = eccl_algorithms;; a++) {
            const char *name = a->name ? a->name : "auto";
            if (a->name && (int)a->coll != coll) continue;
            if (eccl_comm_set_algorithm(c, eccl_coll_name((eccl_coll_t)coll), name) != ECCL_SUCCESS)
                CHECK(0, "set_algorithm(%s, %s): %s", eccl_coll_name((eccl_coll_t)coll), name, eccl_comm_last_error(c));
            eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64};
            int nd = coll == ECCL_COLL_ALLREDUCE ? 3 : 2;
            for (int d = 0; d < nd; d++) {
                call_t k;
                call_make(&k, (eccl_coll_t)coll, n + (size_t)d * 77, dts[d], d);
                char what[128];
                snprintf(what, sizeof what, "%s/%s dtype %d", eccl_coll_name((eccl_coll_t)coll), name, (int)dts[d]);
                one(&k, c, st, what);
                call_free(&k);
                runs++;
            }
            if (!a->name) break;
        }
    }
    if (rank_ == 0) printf("  match: %d calls, each enqueued and blocking\n", runs);
    eccl_comm_free(&c);
    return report("match");
}

static int case_streams(void)
{
    eccl_comm_t c = make_comm(1);
    cudaStream_t blk;
    CU(cudaStreamCreate(&blk));
    cudaStream_t sts[2] = {blk, NULL};
    const char *names[2] = {"blocking stream", "legacy stream"};
    for (int s = 0; s < 2; s++)
        for (int coll = ECCL_COLL_BCAST; coll <= ECCL_COLL_ALLREDUCE; coll++) {
            call_t k;
            call_make(&k, (eccl_coll_t)coll, (size_t)1 << 20, ECCL_FLOAT32, s);
            char what[96];
            snprintf(what, sizeof what, "%s on the %s", eccl_coll_name((eccl_coll_t)coll), names[s]);
            one_as(&k, c, sts[s], what, 0); /* (only a non-blocking stream is held) */
            call_free(&k);
        }
    CU(cudaStreamDestroy(blk));
    eccl_comm_free(&c);
    return report("streams");
}

static int case_inflight(cudaStream_t st)
{
    eccl_comm_t c = make_comm(1);
    enum { K = 8 };
    /* (each call's arguments are first run blocking, for the reference, and then by a first stream
     * call, which runs at once and reserves its buffers: the calls with the same arguments are
     * enqueued after it) */
    call_t ks[K], extra;
    unsigned char *refs[K], *xref;
    for (int i = 0; i < K; i++) {
        size_t n = (size_t)4096 << (i < 6 ? i : 6);
        call_make(&ks[i], i % 2 ? ECCL_COLL_BCAST : ECCL_COLL_ALLREDUCE, n, i % 3 ? ECCL_FLOAT32 : ECCL_FLOAT64, i);
        refs[i] = malloc(ks[i].out_elems * ks[i].es + 8);
        CHECK(blocking(&ks[i], c, refs[i]) == ECCL_SUCCESS, "blocking call %d", i);
        clear(&ks[i]);
    }
    for (int i = 0; i < K; i++) { /* the first stream call with each call's arguments: at once */
        CHECK(enqueue(&ks[i], c, st, 0, NULL) == ECCL_SUCCESS, "first stream call %d", i);
        CU(cudaStreamSynchronize(st));
        CHECK(!memcmp(refs[i], ks[i].hy, ks[i].out_elems * ks[i].es), "first stream call %d differs", i);
        clear(&ks[i]);
    }
    call_make(&extra, ECCL_COLL_ALLREDUCE, (size_t)1 << 18, ECCL_FLOAT32, 99);
    xref = malloc(extra.out_elems * extra.es + 8);
    CHECK(blocking(&extra, c, xref) == ECCL_SUCCESS, "blocking extra");
    clear(&extra);
    MPI_Barrier(MPI_COMM_WORLD);
    CU(cudaMemcpyAsync(d_delay, h_delay, delay_bytes, cudaMemcpyHostToDevice, st));
    for (int i = 0; i < K; i++) {
        eccl_result_t rc = enqueue(&ks[i], c, st, 0, NULL);
        CHECK(rc == ECCL_SUCCESS, "enqueue %d: %s", i, eccl_strerror(rc));
        if (i == K / 2) { /* a blocking call in between: it runs after the enqueued ones before it */
            CU(cudaMemcpy(extra.x, extra.hx, extra.in_elems * extra.es, cudaMemcpyHostToDevice));
            CHECK(run(&extra, c, 0, NULL) == ECCL_SUCCESS, "blocking call between");
            CU(cudaMemcpy(extra.hy, extra.y, extra.out_elems * extra.es, cudaMemcpyDeviceToHost));
            CHECK(!memcmp(extra.hy, xref, extra.out_elems * extra.es), "the blocking call between differs");
        }
    }
    CU(cudaStreamSynchronize(st));
    eccl_result_t ae = ECCL_ERR_INTERNAL;
    eccl_cuda_comm_async_error(c, &ae);
    CHECK(ae == ECCL_SUCCESS, "async error %s (%s)", eccl_strerror(ae), eccl_comm_last_error(c));
    for (int i = 0; i < K; i++) {
        CHECK(!memcmp(refs[i], ks[i].hy, ks[i].out_elems * ks[i].es), "call %d (%s, %zu elements) differs", i,
              eccl_coll_name(ks[i].coll), ks[i].n);
        call_free(&ks[i]);
        free(refs[i]);
    }
    call_free(&extra);
    free(xref);
    eccl_comm_free(&c);
    return report("inflight");
}

static int case_errors(cudaStream_t st)
{
    eccl_comm_t c = make_comm(1);
    eccl_result_t ae = ECCL_ERR_INTERNAL;
    CHECK(eccl_cuda_comm_async_error(c, &ae) == ECCL_SUCCESS && ae == ECCL_SUCCESS, "no call yet: %s",
          eccl_strerror(ae));
    CHECK(eccl_cuda_comm_async_error(NULL, &ae) == ECCL_ERR_INVALID_ARG, "NULL comm accepted");
    CHECK(eccl_cuda_comm_async_error(c, NULL) == ECCL_ERR_INVALID_ARG, "NULL result accepted");
    CHECK(eccl_cuda_allreduce_async(NULL, NULL, 1, ECCL_FLOAT32, ECCL_OP_SUM, NULL, NULL, st) == ECCL_ERR_INVALID_ARG,
          "NULL comm accepted");
    call_t k;
    /* rank 0's arguments (count 5001) and the others' (5000) each ran in a first stream call (at
     * once) on every rank before */
    for (size_t cnt = 5000; cnt <= 5001; cnt++) {
        call_make(&k, ECCL_COLL_ALLREDUCE, cnt, ECCL_FLOAT32, 1);
        CHECK(enqueue(&k, c, st, 0, NULL) == ECCL_SUCCESS, "first stream call, count %zu", cnt);
        CU(cudaStreamSynchronize(st));
        call_free(&k);
    }
    call_make(&k, ECCL_COLL_ALLREDUCE, 5000 + (rank_ == 0), ECCL_FLOAT32, 1);
    clear(&k);
    eccl_result_t rc = enqueue(&k, c, st, 1, NULL);
    CHECK(rc == (threaded ? ECCL_SUCCESS : ECCL_ERR_MISMATCH), "mismatched count: %s", eccl_strerror(rc));
    CU(cudaStreamSynchronize(st)); /* released although the call failed */
    eccl_cuda_comm_async_error(c, &ae);
    CHECK(ae == (threaded ? ECCL_ERR_MISMATCH : ECCL_SUCCESS), "mismatched count: async error %s",
          eccl_strerror(ae));
    if (threaded) CHECK(strstr(eccl_comm_last_error(c), "count") != NULL, "message: '%s'", eccl_comm_last_error(c));
    eccl_cuda_comm_async_error(c, &ae);
    CHECK(ae == ECCL_SUCCESS, "the error was not forgotten: %s", eccl_strerror(ae));
    /* a bad argument (an invalid datatype) on every rank: never completed before, so it runs at once */
    rc = eccl_cuda_allreduce_async(k.x, k.y, 10, (eccl_dtype_t)99, ECCL_OP_SUM, NULL, c, st);
    CU(cudaStreamSynchronize(st));
    eccl_cuda_comm_async_error(c, &ae);
    CHECK(rc == ECCL_ERR_INVALID_ARG && ae == ECCL_SUCCESS, "invalid datatype: %s / %s", eccl_strerror(rc),
          eccl_strerror(ae));
    call_free(&k);
    /* and the next call works (a count no stream call had yet: its first call runs at once, the
     * second is enqueued, as `one` expects) */
    call_make(&k, ECCL_COLL_ALLREDUCE, 4999, ECCL_FLOAT32, 1);
    one(&k, c, st, "after the errors");
    call_free(&k);
    eccl_comm_free(&c);
    return report("errors");
}

static int case_corrupt(cudaStream_t st)
{
    eccl_comm_t c = make_comm(0); /* (ECCL_TRANSPORT=mpi: nothing to settle) */
    call_t k;
    call_make(&k, ECCL_COLL_ALLREDUCE, (size_t)1 << 16, ECCL_FLOAT32, 3);
    clear(&k);
    eccl_result_t rc = enqueue(&k, c, st, 1, NULL);
    CU(cudaStreamSynchronize(st));
    eccl_result_t ae = ECCL_ERR_INTERNAL;
    eccl_cuda_comm_async_error(c, &ae);
    /* (the first call with these arguments runs at once: its result is returned) */
    CHECK(rc == ECCL_ERR_CORRUPT && ae == ECCL_SUCCESS, "a corrupt stream: %s / %s", eccl_strerror(rc),
          eccl_strerror(ae));
    one(&k, c, st, "after the corrupt stream");
    call_free(&k);
    eccl_comm_free(&c);
    return report("corrupt");
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (!tu_mpi_use_gpu(rank_, "the stream-enqueued collectives")) {
        MPI_Finalize();
        return 77;
    }
    const char *prog = getenv("ECCL_PROGRESS");
    threaded = provided == MPI_THREAD_MULTIPLE && !(prog && !strcmp(prog, "caller"));
    CU(cudaMallocHost(&h_delay, delay_bytes));
    CU(cudaMalloc(&d_delay, delay_bytes));
    memset(h_delay, 0, delay_bytes);
    cudaStream_t st;
    CU(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int bad = 0, any = 0;
    for (int i = 1; i <= argc; i++) {
        const char *cs = i < argc ? argv[i] : NULL;
        if (!cs && any) break;
        int all = !cs;
        if (all || !strcmp(cs, "match")) bad |= case_match(st), any = 1;
        if (all || !strcmp(cs, "streams")) bad |= case_streams(), any = 1;
        if (all || !strcmp(cs, "inflight")) bad |= case_inflight(st), any = 1;
        if (all || !strcmp(cs, "errors")) bad |= case_errors(st), any = 1;
        if (cs && !strcmp(cs, "corrupt")) bad |= case_corrupt(st), any = 1;
        if (all) break;
    }
    CU(cudaStreamDestroy(st));
    cudaFree(d_delay);
    cudaFreeHost(h_delay);
    MPI_Finalize();
    return bad ? 1 : 0;
}
#else
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("SKIP: the stream-enqueued collectives need the CUDA backend\n");
    MPI_Finalize();
    return 77;
}
#endif
