/*
 * dispatch.c - the public collectives: check the arguments (begin), hand device buffers to the GPU
 * or stage them (run_any, run_dev; stage.c), ask select.c which algorithm runs and with what bound
 * per message, run it, agree on the verdict, divide AVG, and record what happened in the
 * communicator's statistics.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "coll/coll.h"
#include "coll/model.h"
#include "coll/engine.h"
#include "coll/select.h"
#include "coll/stage.h"
#include "core/dtype.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "prims/prims.h"
#include "transport/transport.h"

/* AVG: the algorithms summed; every rank divides identically (on the GPU where the call runs
 * device-resident: the same rounding, so the same bits). */
static eccl_result_t scale_avg(eccl_call_t *c, void *buf, size_t count)
{
    if (c->dev.here) {
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        void *at = (void *)eccl_prim_at(c, buf, &lb, &lay);
        eccl_result_t rc = eccl_dev_divide(c->comm->gpu.ctx, at, lay, count, c->dtype, c->size);
        return rc ? eccl_comm_error(c->comm, rc, "%s: the AVG division on the GPU failed", eccl_coll_name(c->coll))
                  : ECCL_SUCCESS;
    }
    const eccl_dtype_traits_t *t = eccl_dtype_traits(c->dtype);
    size_t n = count * t->reals;
    if (!t->is64) {
        float *x = buf, p = (float)c->size;
        for (size_t i = 0; i < n; i++) x[i] /= p;
    } else {
        double *x = buf, p = (double)c->size;
        for (size_t i = 0; i < n; i++) x[i] /= p;
    }
    return ECCL_SUCCESS;
}

/* One rank: every collective is a copy (or nothing). */
static eccl_result_t local(eccl_call_t *c)
{
    size_t bytes = c->count * c->esize;
    switch (c->coll) {
    case ECCL_COLL_ALLREDUCE:
    case ECCL_COLL_REDUCE:
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
    case ECCL_COLL_ALLGATHER:
    case ECCL_COLL_GATHER:
    case ECCL_COLL_SCATTER:
        if (c->recvbuf && c->recvbuf != c->sendbuf) {
            if (c->dev.here) return eccl_dev_copy(c->comm->gpu.ctx, c->recvbuf, c->sendbuf, bytes);
            memmove(c->recvbuf, c->sendbuf, bytes);
        }
        break;
    default: break; /* bcast, and sendrecv_replace with itself or MPI_PROC_NULL */
    }
    return ECCL_SUCCESS;
}

static eccl_result_t run(eccl_call_t *c, const eccl_bound_t *bound)
{
    eccl_comm_t comm = c->comm;
    eccl_result_t rc;
    double t0 = eccl_wtime();
    const eccl_algo_t *a = NULL;
    eccl_bound_t b = bound ? *bound : comm->cfg.bound; /* (checked in begin) */
    int old_cap = eccl_codec_set_threads(comm->threads); /* restored below */
    eccl_op_t user_op = c->op;
    if (c->size == 1) {
        /* every call is a copy; the fallback policy still holds (select.c) */
        if ((rc = eccl_select_one_rank(c))) goto fn_exit;
        if (c->dev.here) c->st->device = 2;
        if ((rc = local(c))) {
            eccl_comm_error(comm, rc, "copying device data failed");
            goto fn_exit;
        }
        snprintf(c->st->algorithm, sizeof c->st->algorithm, "local");
        snprintf(c->st->reason, sizeof c->st->reason, "one rank");
        goto fn_exit;
    }
    rc = eccl_select(c, &b, &a); /* (the bound split knows AVG) */
    c->st->t_select = eccl_wtime() - t0;
    if (rc) goto fn_exit;
    c->requant = (a->flags & ECCL_ALG_REQUANT) != 0;
    if (c->requant && c->E > 0) eccl_select_set_bound(c, c->E); /* re-split the bound for this algorithm */
    if (user_op == ECCL_OP_AVG) { /* algorithms sum; every rank divides below */
        c->op = ECCL_OP_SUM;
        c->avg = 1;
    }
    snprintf(c->st->algorithm, sizeof c->st->algorithm, "%s", a->name);
    c->st->compressed = (a->flags & ECCL_ALG_COMPRESSED) != 0;
    if (c->st->compressed) c->st->bytes_raw = 0; /* the primitives count what really left */
    else c->st->bytes_sent = c->st->bytes_raw;  /* the nominal payload */
    /* this rank's call stays on the GPU: an algorithm that can, and device memory reserved for it */
    const int resident = eccl_algo_resident(a) && !c->dev.short_;
    /* NCCL runs its own algorithms and carries the streams of compressed ones (where faster) */
    if (!resident || !(a->flags & ECCL_ALG_COMPRESSED)) c->tr = eccl_transport(ECCL_TR_MPI);
    c->st->transport = (a->flags & ECCL_ALG_DEVICE) ? eccl_transport(ECCL_TR_NCCL)->stats_code : c->tr->stats_code;
    /* a CUDA-aware MPI takes the device buffers of the plain MPI collectives as they are (not an
     * in-place reduce: eccl_tr_reduce copies it on the host; not MAX/MIN: eccl's MPI operations
     * for them are host functions that MPI would call on device memory); this rank's affair only:
     * the messages are the same either way, and the choice above did not depend on it */
    int aware = c->dev.here && !resident && comm->tr.cuda_aware && !(a->flags & ECCL_ALG_COMPRESSED) &&
                !(c->coll == ECCL_COLL_REDUCE && c->sendbuf == c->recvbuf) &&
                !(eccl_coll_is_reduction(c->coll) && c->op != ECCL_OP_SUM);
    if (aware) c->st->transport = 2;
    /* a matrix stays where it is for compressed algorithms on the GPU codec (which never stage),
     * else it is packed */
    eccl_mat_save_t ms = {0};
    int in_place = c->dev.here && resident && !aware && (a->flags & ECCL_ALG_VIEW) &&
                   (uintptr_t)c->recvbuf % (c->esize / eccl_dtype_traits(c->dtype)->reals) == 0; /* (a real's alignment) */
    if (c->lay.m && !in_place && (rc = eccl_stage_mat_begin(c, &ms, !(a->flags & ECCL_ALG_DEVICE))))
        goto fn_exit;
    if (ms.host) { /* packed into host memory (no device buffer for it): the call runs on the host */
        c->dev.here = 0;
        if (aware) c->st->transport = 0;
        aware = 0;
    }
    /* the hierarchical allreduce keeps device buffers on the GPU where its node agrees (CUDA IPC);
     * every rank of the node takes part in the agreement, device-resident or not (after the
     * packing above: a matrix packed into host memory runs on the host) */
    int node_dev = 0;
#ifdef HAVE_CUDA
    if ((a->flags & ECCL_ALG_NODE_DEVICE) && comm->gpu.all &&
        (rc = eccl_tr_node_dev_agree(comm, c->dev.here && !c->dev.short_, c->count * c->esize, &node_dev))) {
        rc = eccl_stage_mat_end(c, &ms, rc);
        goto fn_exit;
    }
#endif
    int staged = c->dev.here && !resident && !node_dev && !aware;
    eccl_stage_t g;
    if (staged) { /* this algorithm needs the data in host memory: stage the buffers whole */
        c->dev.here = 0;
        if ((rc = eccl_stage_begin(c, &g))) { /* no host memory at all (doc: peers may wait) */
            rc = eccl_stage_mat_end(c, &ms, rc);
            goto fn_exit;
        }
    }
    c->st->device = staged || ms.host ? 1 : c->dev.here ? 2 : c->st->device;
    rc = a->fn(c);
    if (!rc) rc = c->err; /* a peer's stream failed validation here; the pattern still completed */
    if (c->st->compressed && c->coll != ECCL_COLL_SENDRECV_REPLACE && rc != ECCL_ERR_MPI) {
        /* everybody returns the same verdict: one small allreduce, only on the compressed path */
        double v = (double)rc;
        eccl_result_t arc = eccl_tr_allreduce_doubles(comm, &v, 1, MPI_MAX);
        if (arc) rc = arc;
        else if (v != 0 && !rc) {
            rc = (eccl_result_t)v;
            eccl_comm_error(comm, rc, "another rank received a corrupt stream in %s", eccl_coll_name(c->coll));
        }
    }
    if (!rc && user_op == ECCL_OP_AVG) {
        if (c->coll == ECCL_COLL_ALLREDUCE) rc = scale_avg(c, c->recvbuf, c->count);
        else if (c->coll == ECCL_COLL_REDUCE && c->rank == c->root) rc = scale_avg(c, c->recvbuf, c->count);
        else if (c->coll == ECCL_COLL_REDUCE_SCATTER_BLOCK) rc = scale_avg(c, c->recvbuf, c->count);
    }
    if (staged) rc = eccl_stage_end(c, &g, rc);
    rc = eccl_stage_mat_end(c, &ms, rc);
    c->op = user_op;
fn_exit:
    eccl_codec_set_threads(old_cap);
    c->st->result = rc;
    c->st->t_total = eccl_wtime() - t0;
    c->st->ratio = c->st->bytes_sent ? (double)c->st->bytes_raw / (double)c->st->bytes_sent : 1.0;
    if (!rc) eccl_comm_msg_out(comm)[0] = '\0';
    ECCL_LOG(1, c->rank,
             "%s count %zu %s: %s (%s) E %.3g eb %.3g, sent %llu of %llu bytes (ratio %.2f), "
             "%.3f ms (select %.3f, codec %.3f, net %.3f), model ratio %.2f t_mpi %.3f ms t_chosen %.3f ms",
             eccl_coll_name(c->coll), c->count, eccl_dtype_name(c->dtype), c->st->algorithm,
             c->st->reason, c->st->bound_requested, c->st->eb_per_message,
             (unsigned long long)c->st->bytes_sent, (unsigned long long)c->st->bytes_raw,
             c->st->ratio, c->st->t_total * 1e3, c->st->t_select * 1e3, c->st->t_codec * 1e3, c->st->t_network * 1e3,
             c->st->model_ratio, c->st->model_t_mpi * 1e3, c->st->model_t_chosen * 1e3);
    return rc;
}

/* Run a call whose buffers may be device memory. On this rank the call reads s_in bytes at
 * sendbuf and writes r_out bytes at recvbuf. sendbuf == recvbuf stays one buffer unless `split`
 * (reduce_scatter_block in place reads size*count and writes count). */
static eccl_result_t run_dev(eccl_call_t *c, const eccl_bound_t *bound, int sdev, int rdev);

static eccl_result_t run_any(eccl_call_t *c, const eccl_bound_t *bound, size_t s_in, size_t r_out,
                             int split)
{
    c->s_in = s_in;
    c->r_out = r_out;
    c->split = split;
    int sdev = s_in && eccl_ptr_is_device(c->sendbuf);
    int rdev = r_out && eccl_ptr_is_device(c->recvbuf);
    if (!sdev && !rdev) return run(c, bound);
    c->st->device = 1;
    /* eccl_cuda_comm_set_stream: the stream's work comes first. A failed wait (a broken stream)
     * does not skip the call, whose peers would wait for it: it runs, and returns the error. */
    eccl_result_t wrc = c->comm->gpu.user_stream ? eccl_cuda_stream_wait(c->comm->gpu.user_stream) : ECCL_SUCCESS;
    if (wrc) {
        (void)run_dev(c, bound, sdev, rdev);
        c->st->result = wrc;
        return eccl_comm_error(c->comm, wrc, "%s: waiting for the communicator's CUDA stream failed",
                               eccl_coll_name(c->coll));
    }
    eccl_result_t rc = run_dev(c, bound, sdev, rdev);
    if (!rc && c->comm->gpu.first_async) eccl_engine_note(c->comm, c->coll, c->count, c->dtype, c->op, c->root, bound);
    return rc;
}

/* run_any's device part: resident, or staged. */
static eccl_result_t run_dev(eccl_call_t *c, const eccl_bound_t *bound, int sdev, int rdev)
{
    (void)sdev; /* (used by the CUDA build) */
    (void)rdev;
#ifdef HAVE_CUDA
    /* device-resident when nothing of this rank's is in host memory; an in-place
     * reduce_scatter_block (input and output overlap) is staged */
    const size_t s_in = c->s_in, r_out = c->r_out;
    const int split = c->split;
    int resident = (sdev || !s_in) && (rdev || !r_out) && !(split && c->sendbuf == c->recvbuf) && eccl_stage_dev_ctx(c->comm);
    if (resident) {
        c->dev.here = 1;
        return run(c, bound); /* stages by itself if the chosen algorithm cannot stay resident */
    }
#endif
    double t0 = eccl_wtime();
    eccl_stage_t g;
    eccl_mat_save_t ms;
    eccl_result_t rc = eccl_stage_mat_begin(c, &ms, 1); /* (a matrix call: staged from its packed copy) */
    if (rc) return rc;
    if (ms.host) { /* packed straight into host memory: nothing more to stage */
        rc = eccl_stage_mat_end(c, &ms, run(c, bound));
        c->st->device = 1;
    } else {
        rc = eccl_stage_begin(c, &g);
        if (rc) return eccl_stage_mat_end(c, &ms, rc);
        rc = eccl_stage_mat_end(c, &ms, eccl_stage_end(c, &g, run(c, bound)));
    }
    c->st->t_total = eccl_wtime() - t0;
    c->st->result = rc;
    return rc;
}

/* Common argument checks; fills the call. Every argument is checked whatever the count (a call
 * of 0 elements with a bad root, datatype, operation or bound fails as one of 1 would); these are
 * local errors: this rank returns at once and sends nothing (its peers may then wait, as in MPI).
 * Clears the communicator's last error message (eccl_comm_last_error: "" after a success). */
static eccl_result_t begin(eccl_comm_t comm, eccl_call_t *c, eccl_coll_t coll, size_t count,
                           eccl_dtype_t dtype, eccl_op_t op, int root, const eccl_bound_t *bound)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    eccl_engine_quiesce(comm); /* after the nonblocking calls posted before (engine.c) */
    memset(c, 0, sizeof *c);
    memset(eccl_comm_stats_out(comm), 0, sizeof *eccl_comm_stats_out(comm));
    eccl_comm_msg_out(comm)[0] = '\0';
    c->comm = comm;
    c->tr = eccl_transport(ECCL_TR_MPI); /* (select.c may choose NCCL for the streams) */
    c->coll = coll;
    c->count = count;
    c->dtype = dtype;
    c->op = op;
    c->root = root;
    c->size = comm->size;
    c->rank = comm->rank;
    c->st = eccl_comm_stats_out(comm);
    c->esize = eccl_dtype_size(dtype);
    if (c->esize == 0) return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "unknown datatype %d", (int)dtype);
    if (eccl_coll_is_reduction(coll) && (op < ECCL_OP_SUM || op > ECCL_OP_PROD))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "unknown operation %d", (int)op);
    if ((coll == ECCL_COLL_BCAST || coll == ECCL_COLL_REDUCE || coll == ECCL_COLL_SCATTER ||
         coll == ECCL_COLL_GATHER) && (root < 0 || root >= comm->size))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "root %d is not a rank of a communicator of %d",
                               root, comm->size);
    /* the format's limit: the bytes of every buffer the call touches stay below 2^62 */
    if (count > (((size_t)1 << 62) - 1) / c->esize / (size_t)comm->size)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "count %zu too large (%zu bytes on %d ranks reach 2^62)",
                               count, c->esize, comm->size);
    if (eccl_coll_is_reduction(coll) && (op == ECCL_OP_MAX || op == ECCL_OP_MIN) && eccl_dtype_is_complex(dtype))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MAX/MIN are not defined for complex data");
    const eccl_bound_t *b = bound ? bound : &comm->cfg.bound;
    const char *why = eccl_bound_problem(b);
    if (why)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s (mode %d, value %g, range %g)", why, (int)b->mode,
                               b->value, b->range);
    return ECCL_SUCCESS;
}

#define NEED(ptr, what)                                                                            \
    do {                                                                                           \
        if (!(ptr) && count > 0)                                                                   \
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s is NULL", what);                \
    } while (0)
/* A buffer where MPI does not accept MPI_IN_PLACE (a local error, whatever the count). */
#define NOT_IN_PLACE(ptr, what)                                                                    \
    do {                                                                                           \
        if ((const void *)(ptr) == (const void *)MPI_IN_PLACE)                                     \
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s cannot be MPI_IN_PLACE", what); \
    } while (0)

eccl_result_t eccl_bcast(void *buf, size_t count, eccl_dtype_t dtype, int root,
                         const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_BCAST, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    NEED(buf, "buf");
    NOT_IN_PLACE(buf, "the buffer of a bcast");
    c.recvbuf = buf;
    c.sendbuf = buf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)count * c.esize : 0;
    size_t bytes = count * c.esize; /* the root keeps its buffer: only the others write */
    return run_any(&c, bound, c.rank == root ? bytes : 0, c.rank == root ? 0 : bytes, 0);
}

/* The checks and the call of an eccl_*_matrix entry point; *plain = 1 when the matrix is contiguous
 * (the caller then makes the plain call). */
static eccl_result_t matrix_call(eccl_call_t *c, eccl_comm_t comm, eccl_coll_t coll, void *a, size_t m, size_t n,
                                 size_t ld, eccl_dtype_t dtype, eccl_op_t op, int root, const eccl_bound_t *bound,
                                 void *(*pack)(void *, size_t), void *arg, int *plain)
{
    *plain = 0;
    if (ld < m || ld < 1 || (m && n > SIZE_MAX / m)) {
        if (comm)
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s: a %zu x %zu matrix with ld %zu", eccl_coll_name(coll),
                                   m, n, ld);
        return ECCL_ERR_INVALID_ARG;
    }
    if (ld == m || n <= 1) {
        *plain = 1;
        return ECCL_SUCCESS;
    }
    eccl_result_t rc = begin(comm, c, coll, m * n, dtype, op, root, bound);
    if (rc) return rc;
    if (!a && m * n > 0) return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "the matrix is NULL");
    if (m * n > 0 && !eccl_ptr_is_device(a))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s: a strided matrix must be device memory",
                               eccl_coll_name(coll));
    c->recvbuf = a;
    c->sendbuf = a;
    c->lay.m = m;
    c->lay.ld = ld;
    c->lay.pack = pack;
    c->lay.pack_arg = arg;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_bcast_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, int root,
                                const eccl_bound_t *bound, eccl_comm_t comm,
                                void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_BCAST, a, m, n, ld, dtype, ECCL_OP_SUM, root, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_bcast(a, m * n, dtype, root, bound, comm); /* contiguous */
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)c.count * c.esize : 0;
    size_t bytes = c.count * c.esize;
    return run_any(&c, bound, c.rank == root ? bytes : 0, c.rank == root ? 0 : bytes, 0);
}

eccl_result_t eccl_allreduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op,
                                    const eccl_bound_t *bound, eccl_comm_t comm,
                                    void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_ALLREDUCE, a, m, n, ld, dtype, op, 0, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_allreduce(MPI_IN_PLACE, a, m * n, dtype, op, bound, comm);
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)c.count * c.esize * 2 * (uint64_t)(c.size - 1) / (uint64_t)c.size;
    return run_any(&c, bound, c.count * c.esize, c.count * c.esize, 0);
}

eccl_result_t eccl_reduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op, int root,
                                 const eccl_bound_t *bound, eccl_comm_t comm,
                                 void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_REDUCE, a, m, n, ld, dtype, op, root, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_reduce(comm && comm->rank == root ? MPI_IN_PLACE : a, a, m * n, dtype, op, root, bound, comm);
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)c.count * c.esize;
    return run_any(&c, bound, c.count * c.esize, c.rank == root ? c.count * c.esize : 0, 0);
}

eccl_result_t eccl_allreduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_ALLREDUCE, count, dtype, op, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    c.recvbuf = recvbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)count * c.esize * 2 * (uint64_t)(c.size - 1) / (uint64_t)c.size;
    return run_any(&c, bound, count * c.esize, count * c.esize, 0);
}

eccl_result_t eccl_reduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          eccl_op_t op, int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_REDUCE, count, dtype, op, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(recvbuf, "recvbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(recvbuf, "recvbuf at the root");
    NEED(sendbuf, "sendbuf");
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    c.recvbuf = recvbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)count * c.esize;
    return run_any(&c, bound, count * c.esize, c.rank == root ? count * c.esize : 0, 0);
}

eccl_result_t eccl_reduce_scatter_block(const void *sendbuf, void *recvbuf, size_t recvcount,
                                        eccl_dtype_t dtype, eccl_op_t op,
                                        const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    size_t count = recvcount;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_REDUCE_SCATTER_BLOCK, count, dtype, op, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    size_t bytes = count * (size_t)comm->size * c.esize;
    if (sendbuf == MPI_IN_PLACE && eccl_ptr_is_device(recvbuf)) {
        c.sendbuf = recvbuf; /* run_any copies the input and the result apart */
    } else if (sendbuf == MPI_IN_PLACE) {
        /* the input is recvbuf (size*recvcount); the result goes to its first recvcount */
        void *tmp = eccl_pool_get(&comm->pool, ECCL_SLOT_TMP, bytes);
        if (!tmp) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for MPI_IN_PLACE");
        memcpy(tmp, recvbuf, bytes);
        c.sendbuf = tmp;
    }
    c.st->bytes_raw = (uint64_t)count * c.esize * (uint64_t)(c.size - 1);
    return run_any(&c, bound, bytes, count * c.esize, 1);
}

eccl_result_t eccl_allgather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_ALLGATHER, count, dtype, ECCL_OP_SUM, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf + (size_t)comm->rank * count * c.esize
                                        : sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)count * c.esize * (uint64_t)(c.size - 1);
    return run_any(&c, bound, count * c.esize, count * c.esize * (size_t)c.size, 0);
}

eccl_result_t eccl_scatter(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                           int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_SCATTER, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(sendbuf, "sendbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(sendbuf, "sendbuf at the root");
    NEED(recvbuf, "recvbuf");
    if (recvbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.sendbuf = sendbuf;
    c.recvbuf = recvbuf == MPI_IN_PLACE ? NULL : recvbuf; /* NULL: the root keeps its piece */
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)count * c.esize * (uint64_t)(c.size - 1) : 0;
    return run_any(&c, bound, c.rank == root ? count * c.esize * (size_t)c.size : 0,
                   c.recvbuf ? count * c.esize : 0, 0);
}

eccl_result_t eccl_gather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_GATHER, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(recvbuf, "recvbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(recvbuf, "recvbuf at the root");
    NEED(sendbuf, "sendbuf");
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf + (size_t)root * count * c.esize : sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)count * c.esize;
    return run_any(&c, bound, count * c.esize, c.rank == root ? count * c.esize * (size_t)c.size : 0, 0);
}

eccl_result_t eccl_sendrecv_replace(void *buf, size_t count, eccl_dtype_t dtype, int dest,
                                    int sendtag, int source, int recvtag,
                                    const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_SENDRECV_REPLACE, count, dtype, ECCL_OP_SUM, 0, bound);
    if (rc) return rc;
    NEED(buf, "buf");
    NOT_IN_PLACE(buf, "the buffer of a sendrecv_replace");
    if ((dest != MPI_PROC_NULL && (dest < 0 || dest >= comm->size)) ||
        (source != MPI_PROC_NULL && (source < 0 || source >= comm->size)))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "dest %d / source %d out of range", dest, source);
    if (sendtag < 0 || recvtag < 0)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "tags must be >= 0 (MPI_ANY_TAG is not supported)");
    c.recvbuf = buf;
    c.sendbuf = buf;
    c.dest = dest;
    c.source = source;
    c.sendtag = sendtag;
    c.recvtag = recvtag;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = dest == MPI_PROC_NULL ? 0 : (uint64_t)count * c.esize;
    size_t bytes = count * c.esize;
    return run_any(&c, bound, dest == MPI_PROC_NULL ? 0 : bytes, source == MPI_PROC_NULL ? 0 : bytes, 0);
}
