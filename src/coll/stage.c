/*
 * stage.c - device buffers a call cannot use where they are (stage.h): whole-buffer staging
 * through page-locked host buffers of the communicator (grow-only: steady-state calls do not
 * allocate), packing of strided device matrices, and the communicator's GPU context.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coll/stage.h"
#include "core/env.h"
#include "core/log.h"
#include "transport/transport.h"

/* ---- device buffers -------------------------------------------------------------------------
 * Two ways, chosen per rank and per call (the bytes on the wire are the same either way, since
 * the GPU and CPU codecs make identical streams, so ranks may differ):
 * - device-resident: when every buffer this rank touches is device memory of the current device
 *   and the chosen algorithm is compressed and reaches the data only through the primitives, the
 *   communicator's GPU codec compresses, decompresses and reduces on the device and only
 *   compressed streams cross PCIe (c->dev.here, prims.c, cuda/resident.cu);
 * - staged: otherwise (uncompressed algorithms, mixed host/device buffers, in-place
 *   reduce_scatter_block, ECCL_DEVICE_RESIDENT=0) the buffers are copied whole to page-locked
 *   host buffers of the communicator (grow-only, so steady-state calls do not allocate), the host
 *   collective runs on the copies, and what the call writes is copied back.
 * Either way the device data must be ready when the call is made and the result is in place when
 * it returns. */
#ifdef HAVE_CUDA
ECCL_ENV(env_resident, "ECCL_DEVICE_RESIDENT", 1);

static void *stage_buf(eccl_comm_t comm, int k, size_t bytes)
{
    /* page-locked where it can be had; the pool falls back to ordinary memory (slower copies)
     * rather than failing this rank alone while its peers wait */
    if (!comm->stage.alloc) eccl_pool_set_allocator(&comm->stage, eccl_cuda_host_alloc_ptr, eccl_cuda_host_free);
    int was_plain = comm->stage.plain[k];
    void *p = eccl_pool_get(&comm->stage, k, bytes);
    if (p && comm->stage.plain[k] && !was_plain)
        ECCL_LOG(1, comm->rank, "no page-locked memory for a %zu-byte staging buffer: ordinary memory instead",
                 comm->stage.cap[k]);
    return p;
}

/* Copy in for the staged call; on failure the host copy is zeroed so the collective still runs
 * (no peer is left waiting) and the error is returned at the end. */
static eccl_result_t stage_in(void *host, const void *dev, size_t bytes, eccl_result_t rc, size_t *failed)
{
    if (!bytes) return rc;
    eccl_result_t crc = eccl_cuda_memcpy(host, dev, bytes);
    if (crc) {
        memset(host, 0, bytes);
        if (!rc) {
            rc = crc;
            *failed = bytes;
        }
    }
    return rc;
}

/* The GPU context of the communicator, created at the first device-resident call; NULL when
 * device buffers must be staged (no usable device, another current device, switched off). */
eccl_dev_ctx_t *eccl_stage_dev_ctx(eccl_comm_t comm)
{
    if (!eccl_env_long(&env_resident)) return NULL;
    if (!comm->gpu.ctx && !comm->gpu.failed) {
        eccl_result_t rc = eccl_dev_ctx_create(&comm->gpu.ctx, comm->gpu.priority);
        if (!rc && (rc = eccl_dev_ctx_set_format(comm->gpu.ctx, comm->cfg.format))) eccl_dev_ctx_free(comm->gpu.ctx);
        if (rc) {
            comm->gpu.failed = 1;
            comm->gpu.ctx = NULL;
            ECCL_LOG(1, comm->rank, "no GPU codec for device-resident collectives (%s): device buffers are "
                     "staged through host memory", eccl_strerror(rc));
        } else {
            /* streams now cross PCIe: page-locked stream buffers (allocated again as needed) */
            eccl_pool_set_allocator(&comm->pool, eccl_cuda_host_alloc_ptr, eccl_cuda_host_free);
            /* while the host waits for the GPU, the call's messages in flight progress (the
             * pipelined algorithms overlap GPU work with the network this way) */
            eccl_dev_ctx_set_progress(comm->gpu.ctx, eccl_tr_progress, comm);
        }
    }
    return comm->gpu.ctx && eccl_dev_ctx_current(comm->gpu.ctx) ? comm->gpu.ctx : NULL;
}
#else
eccl_dev_ctx_t *eccl_stage_dev_ctx(eccl_comm_t comm)
{
    (void)comm;
    return NULL;
}
#endif

eccl_result_t eccl_stage_mat_begin(eccl_call_t *c, eccl_mat_save_t *ms, int host_ok)
{
    memset(ms, 0, sizeof *ms);
    if (!c->lay.m) return ECCL_SUCCESS;
    const size_t bytes = c->count * c->esize;
    void *buf = c->lay.pack ? c->lay.pack(c->lay.pack_arg, bytes) : NULL;
#ifdef HAVE_CUDA
    if (!buf && host_ok && (buf = stage_buf(c->comm, 0, bytes))) {
        ms->host = 1;
        ECCL_LOG(1, c->rank, "%s: no device buffer of %zu bytes to pack a matrix: packed into host memory, the "
                 "call runs on the host", eccl_coll_name(c->coll), bytes);
    }
#else
    (void)host_ok;
#endif
    if (!buf) /* (as staging without host memory: this rank fails at once, peers may wait) */
        return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "%s: no device buffer of %zu bytes to pack a matrix",
                               eccl_coll_name(c->coll), bytes);
    ms->user = c->recvbuf;
    ms->m = c->lay.m;
    ms->ld = c->lay.ld;
    if (c->s_in)
        ms->rc = eccl_cuda_memcpy2d(buf, ms->m * c->esize, ms->user, ms->ld * c->esize, ms->m * c->esize,
                                    c->count / ms->m);
    c->recvbuf = buf;
    c->sendbuf = buf;
    c->lay.m = c->lay.ld = 0;
    ECCL_LOG(2, c->rank, "%s: matrix packed (%zu x %zu, ld %zu)", eccl_coll_name(c->coll), ms->m, c->count / ms->m,
             ms->ld);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_stage_mat_end(eccl_call_t *c, eccl_mat_save_t *ms, eccl_result_t rc)
{
    if (!ms->user) return rc;
    if (!rc && !ms->rc && c->r_out)
        ms->rc = eccl_cuda_memcpy2d(ms->user, ms->ld * c->esize, c->recvbuf, ms->m * c->esize, ms->m * c->esize,
                                    c->count / ms->m);
    c->recvbuf = ms->user;
    c->sendbuf = ms->user;
    c->lay.m = ms->m;
    c->lay.ld = ms->ld;
    if (ms->rc && !rc)
        rc = eccl_comm_error(c->comm, ms->rc, "%s: packing a device matrix failed", eccl_coll_name(c->coll));
    return rc;
}

/* Stage the call's device buffers (c->s_in bytes read at sendbuf, c->r_out written at recvbuf;
 * one buffer when they alias, unless c->split) and point the call at the host copies. */
eccl_result_t eccl_stage_begin(eccl_call_t *c, eccl_stage_t *g)
{
    eccl_comm_t comm = c->comm;
    memset(g, 0, sizeof *g);
    g->t0 = eccl_wtime();
    g->user_send = c->sendbuf;
    g->user_recv = c->recvbuf;
#ifndef HAVE_CUDA
    return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED,
                           "%s: a buffer is CUDA device memory, but this eccl was built without the "
                           "CUDA backend (configure --with-cuda)", eccl_coll_name(c->coll));
#else
    int alias = c->sendbuf == c->recvbuf && !c->split;
    int sdev = c->s_in && eccl_ptr_is_device(c->sendbuf);
    int rdev = c->r_out && eccl_ptr_is_device(c->recvbuf);
    if (alias) {
        g->hr = stage_buf(comm, 0, c->s_in > c->r_out ? c->s_in : c->r_out);
        if (!g->hr) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
        g->rc = stage_in(g->hr, g->user_recv, c->s_in, g->rc, &g->failed);
        c->sendbuf = c->recvbuf = g->hr;
    } else {
        if (sdev) {
            void *hs = stage_buf(comm, 0, c->s_in);
            if (!hs) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
            g->rc = stage_in(hs, g->user_send, c->s_in, g->rc, &g->failed);
            c->sendbuf = hs;
        }
        if (rdev) {
            g->hr = stage_buf(comm, 1, c->r_out);
            if (!g->hr) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
            c->recvbuf = g->hr; /* written only: nothing to copy in */
        }
    }
    g->t_in = eccl_wtime() - g->t0;
    return ECCL_SUCCESS;
#endif
}

/* Copy the result back to the device, restore the user's pointers; the call's result. */
eccl_result_t eccl_stage_end(eccl_call_t *c, eccl_stage_t *g, eccl_result_t rrc)
{
    eccl_comm_t comm = c->comm;
    double t1 = eccl_wtime();
    eccl_result_t rc = g->rc;
    if (rc) eccl_comm_error(comm, rc, "copying %zu bytes from the device failed", g->failed);
    else rc = rrc;
#ifdef HAVE_CUDA
    if (!rc && g->hr && c->r_out) {
        eccl_result_t crc = eccl_cuda_memcpy(g->user_recv, g->hr, c->r_out);
        if (crc) rc = eccl_comm_error(comm, crc, "copying %zu bytes to the device failed", c->r_out);
    }
#endif
    c->sendbuf = g->user_send;
    c->recvbuf = g->user_recv;
    double t_stage = g->t_in + (eccl_wtime() - t1);
    c->st->t_stage += t_stage;
    ECCL_LOG(2, c->rank, "%s: device buffers staged through host memory (%.3f ms of copies)",
             eccl_coll_name(c->coll), t_stage * 1e3);
    return rc;
}

