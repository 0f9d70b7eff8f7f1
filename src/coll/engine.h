/* engine.h - the nonblocking collectives' engine (engine.c): what the rest of eccl calls. */
#ifndef ECCL_COLL_ENGINE_H
#define ECCL_COLL_ENGINE_H

#include "coll/coll.h"

/* Wait until every nonblocking collective posted on comm has completed (running those not yet
 * run in the calling thread where there is no progress thread), so that the caller may use the
 * communicator's state. Nothing when comm has no engine, or when called from inside a request
 * being run (the blocking call a request runs). Every public function that reads or changes a
 * communicator's state calls it first. */
eccl_result_t eccl_engine_quiesce(eccl_comm_t comm);
/* The first stream-enqueued call with these arguments (bound: as passed, NULL for the default),
 * run at once on device buffers of comm, completed successfully: its buffers are reserved (NCCL's
 * for the worst case), its kernels loaded, its NCCL peers connected. Stream-enqueued calls are
 * enqueued only with the arguments of such a call (engine.c). */
void eccl_engine_note(eccl_comm_t comm, eccl_coll_t coll, size_t count, eccl_dtype_t dtype, eccl_op_t op, int root,
                      const eccl_bound_t *bound);
/* A collective's arguments (each collective uses its own). */
typedef struct eccl_engine_args {
    eccl_coll_t coll;
    const void *sbuf;
    void *rbuf;
    size_t count;
    eccl_dtype_t dtype;
    eccl_op_t op;
    int root, dest, source, sendtag, recvtag;
} eccl_engine_args_t;
/* Enqueue the collective of a on `stream` (a cudaStream_t; name: the public function, for
 * messages): the stream is held (cuda/device.h) until the progress thread has run it, and
 * ECCL_SUCCESS returned. Where that cannot be (no progress thread, no stream memory operations,
 * the communicator's device set-up not settled, not a non-blocking stream, arguments no earlier
 * stream call of comm completed with: eccl_engine_note), the call runs at once in this thread,
 * after the work on the stream, and its result is returned. Errors of an enqueued call: eccl_cuda_comm_async_error. */
eccl_result_t eccl_engine_enqueue(eccl_comm_t comm, const eccl_engine_args_t *a, const eccl_bound_t *bound,
                                  void *stream, const char *name);
/* At eccl_comm_free: complete what is posted, stop the progress thread, and detach the requests
 * not yet waited for (eccl_wait still returns their result). */
void eccl_engine_free(eccl_comm_t comm);

/* Something to do when a request is completed by eccl_wait / eccl_test / eccl_waitall, in the
 * waiting thread, with the request's statistics (the BLACS layer's totals of a nonblocking panel
 * broadcast: src/scalapack/panel.c). Set right after the post, by the poster. Not called for a
 * request whose communicator was freed before the wait. */
typedef void (*eccl_req_hook_fn)(void *arg, const long long v[3], const eccl_stats_t *st);
void eccl_engine_set_hook(eccl_request_t req, eccl_req_hook_fn fn, void *arg, const long long v[3]);

#endif
