/*
 * stage.h - device buffers of a call that cannot stay on the GPU (stage.c): staged whole through
 * page-locked host buffers of the communicator, and strided device matrices packed; the GPU
 * context of device-resident calls. Used by dispatch.c only.
 */
#ifndef ECCL_COLL_STAGE_H
#define ECCL_COLL_STAGE_H

#include "coll/coll.h"
#include "cuda/device.h"

/* A call's device buffers staged through host memory (eccl_stage_begin / eccl_stage_end). */
typedef struct stage {
    const void *user_send;
    void *user_recv;
    void *hr;              /* the host copy that receives the result */
    eccl_result_t rc;      /* a failed copy to the host */
    size_t failed;
    double t0, t_in;
} eccl_stage_t;

/* A matrix call (eccl_*_matrix) on a path that cannot take the matrix as it lies: a rank that reads
 * the matrix (c->s_in) packs it into the caller's device buffer, the call runs on that buffer, and
 * a rank that receives a result (c->r_out) unpacks it after (eccl_stage_mat_end). Where no device buffer can
 * be had and `host_ok` (the algorithm does not need device memory), the matrix is packed into a
 * host staging buffer instead (ms->host: the call then runs on the host, as a staged one). A
 * failed copy does not skip the call, whose peers would wait for it: it runs on whatever the
 * buffer holds, and the call returns the error. */
typedef struct mat_save {
    void *user;
    size_t m, ld;
    eccl_result_t rc;
    int host;
} eccl_mat_save_t;

/* Stage the call's device buffers (c->s_in bytes read at sendbuf, c->r_out written at recvbuf; one
 * buffer when they alias, unless c->split) and point the call at the host copies. A failed copy
 * from the device does not fail here (zeros stand in, the call runs, eccl_stage_end returns the
 * error). Errors: ECCL_ERR_NO_MEMORY (no host memory at all), ECCL_ERR_UNSUPPORTED (no CUDA). */
eccl_result_t eccl_stage_begin(eccl_call_t *c, eccl_stage_t *g);
/* After the collective (its result rrc): copy what it wrote back to the device, restore the
 * call's pointers; returns the first error. */
eccl_result_t eccl_stage_end(eccl_call_t *c, eccl_stage_t *g, eccl_result_t rrc);
/* Pack a matrix call's matrix (see eccl_mat_save_t) / unpack it and restore the call. */
eccl_result_t eccl_stage_mat_begin(eccl_call_t *c, eccl_mat_save_t *ms, int host_ok);
eccl_result_t eccl_stage_mat_end(eccl_call_t *c, eccl_mat_save_t *ms, eccl_result_t rc);
/* The GPU context of the communicator, created at the first device-resident call; NULL when
 * device buffers must be staged (no usable device, another current device, ECCL_DEVICE_RESIDENT=0,
 * no CUDA backend). */
eccl_dev_ctx_t *eccl_stage_dev_ctx(eccl_comm_t comm);

#endif
