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
