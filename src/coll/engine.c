/*
 * engine.c - the nonblocking collectives (eccl_ibcast, ..., eccl_wait, eccl_test, eccl_waitall).
 *
 * Every communicator that has posted a nonblocking collective has an engine: a queue of requests
 * run one after the other, in the order they were posted (the same order on every rank, as MPI
 * requires), each by the same code as the blocking call. Where MPI runs with
 * MPI_THREAD_MULTIPLE, a progress thread of the communicator runs them as soon as they are posted,
 * so they progress while the caller computes and whether or not it calls eccl_test (NCCL's proxy
 * thread is the model); a caller that waits (eccl_wait, or eccl_engine_quiesce before another
 * call) while the thread runs nothing runs the queued requests itself, so that a wait right after
 * the post does not also pay the thread's wake-up. Otherwise (or with ECCL_PROGRESS=caller) they
 * run in the caller's thread when it waits or tests, or makes another call on the communicator:
 * MPI then gives no other thread the right to call it.
 *
 * While a request runs, its statistics and error message go to the request (comm->sink_*), and
 * reach eccl_comm_last_stats / eccl_comm_last_error when it is waited for. Every other function
 * that reads or changes the communicator's state first waits until the engine is idle
 * (eccl_engine_quiesce), so only one thread at a time touches it.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/agree.h"
#include "coll/engine.h"
#include "coll/select.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "transport/transport.h"

/* ECCL_PROGRESS=auto|thread|caller (doc/env.md). */
ECCL_ENV(env_progress, "ECCL_PROGRESS", 0);

enum { REQ_QUEUED, REQ_RUNNING, REQ_DONE };
/* How many argument sets of completed first stream calls an engine remembers (eccl_engine_note). */
#define ECCL_SEEN 32

struct eccl_request {
    eccl_comm_t comm;      /* NULL once the communicator was freed before the request was waited */
    eccl_engine_args_t a;  /* the collective's arguments */
    eccl_bound_t bound;
    int has_bound;         /* bound given (else the communicator's default) */
    int device;            /* the poster's CUDA device (-1: none) */
    int state;
    eccl_result_t rc;
    eccl_stats_t st;
    char msg[ECCL_ERRMSG_LEN];
    eccl_req_hook_fn hook;              /* at completion (eccl_engine_set_hook) */
    void *hook_arg;
    long long hook_v[3];
    int enq;               /* stream-enqueued (eccl_cuda_<op>_async): no handle; it holds a stream */
    void *ev;              /* ... whose input event this is */
    unsigned seq;          /* ... and which this sequence number releases */
    struct eccl_request *next;          /* the queue */
    struct eccl_request *lprev, *lnext; /* every request not yet waited for */
};

struct eccl_engine {
    pthread_mutex_t mu;
    pthread_cond_t work;   /* the progress thread: a request was queued, or stop */
    pthread_cond_t done;   /* a request finished */
    struct eccl_request *head, *tail; /* posted, not started */
    struct eccl_request *live;        /* not yet waited for */
    int running;           /* a request is being run ... */
    pthread_t runner;      /* ... by this thread */
    int async;             /* a progress thread runs the requests */
    int stop;
    pthread_t thread;
    /* stream-enqueued calls (CUDA builds): the hold of the user's streams (hold_state 0 untried,
     * 1 made, -1 unsupported here), the last sequence number posted, whether the communicator's
     * device set-up is settled (eccl_agree_dev_settled, as of the last request run), and the first
     * error of an enqueued call not yet reported (eccl_cuda_comm_async_error) with its message */
    eccl_dev_hold_t *hold;
    int hold_state;
    unsigned seq;
    int settled;
    eccl_result_t async_rc;
    char async_msg[ECCL_ERRMSG_LEN];
    /* the arguments of the last ECCL_SEEN first stream calls that completed (eccl_engine_note) */
    struct seen {
        int used, coll, dtype, op, root, has_bound, forced;
        size_t count;
        eccl_bound_t bound;
    } seen[ECCL_SEEN];
    int seen_next;
};

/* The blocking call of collective a with bound b (NULL: the communicator's), in the calling thread. */
static eccl_result_t call(eccl_comm_t c, const eccl_engine_args_t *a, const eccl_bound_t *b)
{
    switch (a->coll) {
    case ECCL_COLL_BCAST: return eccl_bcast(a->rbuf, a->count, a->dtype, a->root, b, c);
    case ECCL_COLL_ALLREDUCE: return eccl_allreduce(a->sbuf, a->rbuf, a->count, a->dtype, a->op, b, c);
    case ECCL_COLL_REDUCE: return eccl_reduce(a->sbuf, a->rbuf, a->count, a->dtype, a->op, a->root, b, c);
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
        return eccl_reduce_scatter_block(a->sbuf, a->rbuf, a->count, a->dtype, a->op, b, c);
    case ECCL_COLL_ALLGATHER: return eccl_allgather(a->sbuf, a->rbuf, a->count, a->dtype, b, c);
    case ECCL_COLL_SCATTER: return eccl_scatter(a->sbuf, a->rbuf, a->count, a->dtype, a->root, b, c);
    case ECCL_COLL_GATHER: return eccl_gather(a->sbuf, a->rbuf, a->count, a->dtype, a->root, b, c);
    case ECCL_COLL_SENDRECV_REPLACE:
        return eccl_sendrecv_replace(a->rbuf, a->count, a->dtype, a->dest, a->sendtag, a->source, a->recvtag, b, c);
    default: return eccl_comm_error(c, ECCL_ERR_INTERNAL, "unknown request");
    }
}

/* Run one request in the calling thread: the blocking call it stands for, with the poster's
 * device and the request's sinks. A stream-enqueued request first waits for the work its stream
 * had before it, and runs without the communicator's stream (eccl_cuda_comm_set_stream: waiting
 * for it here would wait for our own release if it is the held one). */
static eccl_result_t execute(struct eccl_request *r)
{
    eccl_comm_t c = r->comm;
    eccl_result_t rc = eccl_dev_make_current(r->device);
    if (rc) {
        snprintf(r->msg, sizeof r->msg, "the progress thread could not make CUDA device %d current", r->device);
        return rc;
    }
    const eccl_bound_t *b = r->has_bound ? &r->bound : NULL;
    c->sink_stats = &r->st;
    c->sink_msg = r->msg;
    if (!r->enq) {
        rc = call(c, &r->a, b);
    } else {
        /* a failed wait (a broken stream) does not skip the call, whose peers would wait for it */
        eccl_result_t irc = eccl_dev_hold_input(r->ev);
        void *us = c->gpu.user_stream;
        c->gpu.user_stream = NULL;
        rc = call(c, &r->a, b);
        c->gpu.user_stream = us;
        if (irc && !rc) {
            rc = irc;
            snprintf(r->msg, sizeof r->msg, "%s: waiting for the work enqueued before it on its stream failed",
                     eccl_coll_name(r->a.coll));
        }
    }
    c->sink_stats = NULL;
    c->sink_msg = NULL;
    return rc;
}

/* Take the first queued request and run it (called and returning with e->mu held; released
 * while the request runs); helper: in a caller's thread, not the progress thread. */
static void run_first(struct eccl_engine *e, int helper)
{
    struct eccl_request *r = e->head;
    e->head = r->next;
    if (!e->head) e->tail = NULL;
    r->next = NULL;
    r->state = REQ_RUNNING;
    e->running = 1;
    e->runner = pthread_self();
    pthread_mutex_unlock(&e->mu);
    /* (a caller's thread that helps, in eccl_wait, gets its own CUDA device back) */
    const int dev = helper && r->device >= 0 ? eccl_dev_current() : -1;
    eccl_result_t rc = execute(r);
    if (dev >= 0 && dev != r->device) (void)eccl_dev_make_current(dev);
    const int settled = eccl_agree_dev_settled(r->comm); /* (still the only thread on the comm) */
    pthread_mutex_lock(&e->mu);
    e->settled = settled;
    r->rc = rc;
    r->st.result = rc;
    r->state = REQ_DONE;
    if (r->enq) {
        /* nobody waits for it: its statistics and message become the communicator's now, its
         * error is kept for eccl_cuda_comm_async_error, and then (so that a caller who saw the
         * stream pass finds the result recorded) the stream is released */
        eccl_comm_t c = r->comm;
        c->last = r->st;
        memcpy(c->errmsg, r->msg, sizeof r->msg);
        if (rc && !e->async_rc) {
            e->async_rc = rc;
            memcpy(e->async_msg, r->msg, sizeof r->msg);
        }
        eccl_dev_hold_release(e->hold, r->seq, r->ev);
        free(r);
    }
    e->running = 0;
    pthread_cond_broadcast(&e->done);
    if (e->head && e->async) pthread_cond_signal(&e->work); /* (a helper leaves the rest to the thread) */
}

static void *progress_thread(void *arg)
{
    struct eccl_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        if (e->head && !e->running) run_first(e, 0);
        else pthread_cond_wait(&e->work, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* The engine of comm, made at its first nonblocking call (local: no message). */
static eccl_result_t engine_get(eccl_comm_t comm, struct eccl_engine **out)
{
    if (comm->engine) {
        *out = comm->engine;
        return ECCL_SUCCESS;
    }
    struct eccl_engine *e = calloc(1, sizeof *e);
    if (!e) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for the nonblocking engine");
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->work, NULL);
    pthread_cond_init(&e->done, NULL);
    const int multiple = eccl_tr_mpi_thread_multiple();
    const char *want = eccl_env_str(&env_progress);
    const int caller = want && !strcmp(want, "caller");
    e->async = multiple && !caller;
    if (e->async && pthread_create(&e->thread, NULL, progress_thread, e) != 0) e->async = 0;
    if (!e->async)
        ECCL_LOG(1, comm->rank, "nonblocking collectives progress in the caller's eccl calls (%s)",
                 caller ? "ECCL_PROGRESS=caller" : multiple ? "no thread could be started"
                                                                    : "MPI is not MPI_THREAD_MULTIPLE");
    comm->engine = e;
    *out = e;
    return ECCL_SUCCESS;
}

/* The key of a call: its arguments, and the algorithm forced on the communicator for it. */
static struct seen seen_key(eccl_comm_t comm, eccl_coll_t coll, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                            int root, const eccl_bound_t *bound)
{
    struct seen k;
    memset(&k, 0, sizeof k);
    k.used = 1;
    k.coll = (int)coll;
    k.count = count;
    k.dtype = (int)dtype;
    k.op = eccl_coll_is_reduction(coll) ? (int)op : 0;
    k.root = root;
    k.has_bound = bound != NULL;
    if (bound) k.bound = *bound;
    k.forced = (int)coll >= 0 && coll < ECCL_NCOLLS ? comm->forced[coll] : 0;
    return k;
}

static int seen_equal(const struct seen *a, const struct seen *b)
{
    return a->used && b->used && a->coll == b->coll && a->count == b->count && a->dtype == b->dtype &&
           a->op == b->op && a->root == b->root && a->has_bound == b->has_bound && a->forced == b->forced &&
           (!a->has_bound || (a->bound.mode == b->bound.mode && a->bound.value == b->bound.value &&
                              a->bound.range == b->bound.range));
}

void eccl_engine_note(eccl_comm_t comm, eccl_coll_t coll, size_t count, eccl_dtype_t dtype, eccl_op_t op, int root,
                      const eccl_bound_t *bound)
{
    struct eccl_engine *e = comm->engine; /* (made by the stream call that runs this one) */
    if (!e) return;
    struct seen k = seen_key(comm, coll, count, dtype, op, root, bound);
    pthread_mutex_lock(&e->mu);
    int found = 0;
    for (int i = 0; i < ECCL_SEEN && !found; i++) found = seen_equal(&e->seen[i], &k);
    if (!found) {
        e->seen[e->seen_next] = k;
        e->seen_next = (e->seen_next + 1) % ECCL_SEEN;
    }
    pthread_mutex_unlock(&e->mu);
}

/* Whether the calling thread is the one running a request of e (with e->mu held). */
static int inside(const struct eccl_engine *e) { return e->running && pthread_equal(e->runner, pthread_self()); }

eccl_result_t eccl_engine_quiesce(eccl_comm_t comm)
{
    struct eccl_engine *e = comm ? comm->engine : NULL;
    if (!e) return ECCL_SUCCESS;
    pthread_mutex_lock(&e->mu);
    if (!inside(e)) {
        while (e->head || e->running) {
            if (!e->running) run_first(e, 1); /* (nobody runs the queue now: this thread does) */
            else pthread_cond_wait(&e->done, &e->mu);
        }
    }
    pthread_mutex_unlock(&e->mu);
    return ECCL_SUCCESS;
}

void eccl_engine_free(eccl_comm_t comm)
{
    struct eccl_engine *e = comm->engine;
    if (!e) return;
    eccl_engine_quiesce(comm);
    pthread_mutex_lock(&e->mu);
    for (struct eccl_request *r = e->live; r; r = r->lnext) r->comm = NULL; /* done, not waited for */
    e->stop = 1;
    pthread_cond_broadcast(&e->work);
    pthread_mutex_unlock(&e->mu);
    if (e->async) pthread_join(e->thread, NULL);
    eccl_dev_hold_free(e->hold);
    pthread_cond_destroy(&e->work);
    pthread_cond_destroy(&e->done);
    pthread_mutex_destroy(&e->mu);
    free(e);
    comm->engine = NULL;
}

/* A request for comm with the arguments a, not yet queued (NULL: no memory). */
static struct eccl_request *req_new(eccl_comm_t comm, const eccl_engine_args_t *a, const eccl_bound_t *bound)
{
    struct eccl_request *r = calloc(1, sizeof *r); /* (no statistics, message, hook or links yet) */
    if (!r) return NULL;
    r->comm = comm;
    r->a = *a;
    r->has_bound = bound != NULL;
    if (bound) r->bound = *bound;
    r->device = eccl_cuda_driver_loaded() ? eccl_dev_current() : -1;
    r->state = REQ_QUEUED;
    r->rc = ECCL_SUCCESS;
    return r;
}

/* Append r to e's queue and wake the progress thread (e->mu held). */
static void queue(struct eccl_engine *e, struct eccl_request *r)
{
    if (e->tail) e->tail->next = r;
    else e->head = r;
    e->tail = r;
    pthread_cond_signal(&e->work);
}

/* Post a request: queued behind every earlier one of the communicator. */
static eccl_result_t post(eccl_comm_t comm, const eccl_engine_args_t *args, const eccl_bound_t *bound,
                          eccl_request_t *req)
{
    if (!req) return comm ? eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "the request pointer is NULL")
                          : ECCL_ERR_INVALID_ARG;
    *req = NULL;
    if (!comm) return ECCL_ERR_INVALID_ARG;
    struct eccl_engine *e = NULL;
    eccl_result_t rc = engine_get(comm, &e);
    if (rc) return rc;
    struct eccl_request *r = req_new(comm, args, bound);
    if (!r) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for a request");
    pthread_mutex_lock(&e->mu);
    r->lnext = e->live;
    if (e->live) e->live->lprev = r;
    e->live = r;
    queue(e, r);
    pthread_mutex_unlock(&e->mu);
    *req = r;
    return ECCL_SUCCESS;
}

/* A finished request: its statistics and message become the communicator's last ones, and it is
 * freed (e->mu held when e is not NULL). */
static eccl_result_t finish(struct eccl_engine *e, struct eccl_request *r, eccl_stats_t *stats)
{
    eccl_result_t rc = r->rc;
    if (stats) *stats = r->st;
    if (e) {
        if (r->lprev) r->lprev->lnext = r->lnext;
        else e->live = r->lnext;
        if (r->lnext) r->lnext->lprev = r->lprev;
        r->comm->last = r->st;
        memcpy(r->comm->errmsg, r->msg, sizeof r->msg);
        if (r->hook) r->hook(r->hook_arg, r->hook_v, &r->st);
    }
    free(r);
    return rc;
}

eccl_result_t eccl_wait(eccl_request_t *req, eccl_stats_t *stats)
{
    if (!req) return ECCL_ERR_INVALID_ARG;
    struct eccl_request *r = *req;
    if (!r) { /* ECCL_REQUEST_NULL: nothing to wait for */
        if (stats) memset(stats, 0, sizeof *stats);
        return ECCL_SUCCESS;
    }
    *req = NULL;
    struct eccl_engine *e = r->comm ? r->comm->engine : NULL;
    if (!e) return finish(NULL, r, stats); /* its communicator is gone: it finished before */
    pthread_mutex_lock(&e->mu);
    while (r->state != REQ_DONE) {
        /* nobody runs the queue (no progress thread, or it has not woken yet): this thread runs
         * every request before r, then r, rather than sleep until the thread has woken and run
         * them (a thread's wake-up each way cost tens to hundreds of microseconds a call on 2 x
         * H200: doc/performance.md section 36) */
        if (!e->running && e->head) run_first(e, 1);
        else pthread_cond_wait(&e->done, &e->mu);
    }
    eccl_result_t rc = finish(e, r, stats);
    pthread_mutex_unlock(&e->mu);
    return rc;
}

eccl_result_t eccl_test(eccl_request_t *req, int *done, eccl_stats_t *stats)
{
    if (!req || !done) return ECCL_ERR_INVALID_ARG;
    *done = 0;
    struct eccl_request *r = *req;
    if (!r) {
        *done = 1;
        if (stats) memset(stats, 0, sizeof *stats);
        return ECCL_SUCCESS;
    }
    struct eccl_engine *e = r->comm ? r->comm->engine : NULL;
    if (e) {
        pthread_mutex_lock(&e->mu);
        const int ready = r->state == REQ_DONE || !e->async;
        pthread_mutex_unlock(&e->mu);
        if (!ready) return ECCL_SUCCESS;
    }
    *done = 1; /* done, or (no progress thread) it runs now, with those before it */
    return eccl_wait(req, stats);
}

eccl_result_t eccl_waitall(int n, eccl_request_t *reqs, eccl_result_t *results)
{
    if (n < 0 || (n > 0 && !reqs)) return ECCL_ERR_INVALID_ARG;
    eccl_result_t first = ECCL_SUCCESS;
    for (int i = 0; i < n; i++) {
        eccl_result_t rc = eccl_wait(&reqs[i], NULL);
        if (results) results[i] = rc;
        if (rc && !first) first = rc;
    }
    return first;
}

void eccl_engine_set_hook(eccl_request_t req, eccl_req_hook_fn fn, void *arg, const long long v[3])
{
    struct eccl_request *r = req;
    struct eccl_engine *e = r && r->comm ? r->comm->engine : NULL;
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    r->hook = fn;
    r->hook_arg = arg;
    memcpy(r->hook_v, v, sizeof r->hook_v);
    pthread_mutex_unlock(&e->mu);
}

/* ---- the posts ---- */

eccl_result_t eccl_ibcast(void *buf, size_t count, eccl_dtype_t dtype, int root, const eccl_bound_t *bound,
                          eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_BCAST, .rbuf = buf, .count = count, .dtype = dtype, .root = root};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_iallreduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                              const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_ALLREDUCE, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .op = op};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_ireduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                           int root, const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_REDUCE, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .op = op, .root = root};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_ireduce_scatter_block(const void *sendbuf, void *recvbuf, size_t recvcount, eccl_dtype_t dtype,
                                         eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm,
                                         eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_REDUCE_SCATTER_BLOCK, .sbuf = sendbuf, .rbuf = recvbuf,
                             .count = recvcount, .dtype = dtype, .op = op};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_iallgather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                              const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_ALLGATHER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_iscatter(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                            const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_SCATTER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .root = root};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_igather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                           const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_GATHER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .root = root};
    return post(comm, &a, bound, req);
}

eccl_result_t eccl_isendrecv_replace(void *buf, size_t count, eccl_dtype_t dtype, int dest, int sendtag,
                                     int source, int recvtag, const eccl_bound_t *bound, eccl_comm_t comm,
                                     eccl_request_t *req)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_SENDRECV_REPLACE, .rbuf = buf, .count = count, .dtype = dtype,
                             .dest = dest, .sendtag = sendtag, .source = source, .recvtag = recvtag};
    return post(comm, &a, bound, req);
}

/* ---- stream-enqueued calls (eccl_cuda.h) ---- */

eccl_result_t eccl_engine_enqueue(eccl_comm_t comm, const eccl_engine_args_t *a, const eccl_bound_t *bound,
                                  void *stream, const char *name)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
#ifdef HAVE_CUDA
    if (!eccl_cuda_driver_loaded()) {
        eccl_engine_quiesce(comm);
        return eccl_comm_error(comm, ECCL_ERR_NO_DEVICE, "%s: no CUDA driver in this process", name);
    }
    struct eccl_engine *e = NULL;
    eccl_result_t rc = engine_get(comm, &e);
    if (rc) return rc;
    const char *why = NULL;
    pthread_mutex_lock(&e->mu);
    if (!e->head && !e->running) e->settled = eccl_agree_dev_settled(comm); /* (idle: ours to read) */
    if (e->async && e->hold_state == 0) e->hold_state = eccl_dev_hold_create(&e->hold) ? -1 : 1;
    struct seen k = seen_key(comm, a->coll, a->count, a->dtype, a->op, a->root, bound);
    int found = 0;
    for (int i = 0; i < ECCL_SEEN && !found; i++) found = seen_equal(&e->seen[i], &k);
    if (!e->async) why = "no progress thread";
    else if (e->hold_state != 1) why = "the CUDA driver cannot make a stream wait for the host";
    else if (!e->settled) why = "the communicator's device set-up (NCCL) is not done yet";
    else if (!eccl_dev_stream_nonblocking(stream)) why = "not a non-blocking stream (cudaStreamNonBlocking)";
    else if (!found) why = "the first stream call with these arguments (its buffers are reserved now)";
    if (!why) {
        struct eccl_request *r = req_new(comm, a, bound);
        if (!r) {
            pthread_mutex_unlock(&e->mu);
            return ECCL_ERR_NO_MEMORY;
        }
        r->enq = 1;
        r->seq = e->seq + 1;
        if (eccl_dev_hold_post(e->hold, stream, r->seq, &r->ev) == ECCL_SUCCESS) {
            e->seq++;
            queue(e, r); /* (not on the live list: nobody waits for it) */
            pthread_mutex_unlock(&e->mu);
            return ECCL_SUCCESS;
        }
        free(r);
        why = "the stream refused the wait";
    }
    pthread_mutex_unlock(&e->mu);
    /* at once, in stream order: after the stream's work, complete on return */
    eccl_engine_quiesce(comm);
    ECCL_LOG(2, comm->rank, "%s runs at once (%s)", name, why);
    eccl_result_t wrc = eccl_cuda_stream_wait(stream);
    comm->gpu.first_async = 1; /* (the engine is idle: this thread owns the communicator) */
    rc = call(comm, a, bound);
    comm->gpu.first_async = 0;
    if (wrc && !rc)
        rc = eccl_comm_error(comm, wrc, "%s: waiting for the work enqueued before it on its stream failed", name);
    return rc;
#else
    (void)a, (void)bound, (void)stream;
    eccl_engine_quiesce(comm);
    return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED, "%s: eccl was built without the CUDA backend", name);
#endif
}

eccl_result_t eccl_cuda_comm_async_error(eccl_comm_t comm, eccl_result_t *result)
{
    if (!comm || !result) return ECCL_ERR_INVALID_ARG;
    *result = ECCL_SUCCESS;
    struct eccl_engine *e = comm->engine;
    if (!e) return ECCL_SUCCESS;
    pthread_mutex_lock(&e->mu);
    *result = e->async_rc;
    if (e->async_rc) memcpy(comm->errmsg, e->async_msg, sizeof e->async_msg);
    e->async_rc = ECCL_SUCCESS;
    pthread_mutex_unlock(&e->mu);
    return ECCL_SUCCESS;
}
