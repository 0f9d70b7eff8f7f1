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

#endif
