/*
 * mpi.c - the host transport over MPI: byte messages (split into 1 GiB pieces) and the
 * uncompressed MPI collectives used as the "mpi" algorithms and as fallbacks.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "core/dtype.h"
#include "core/env.h"
#include "transport/transport.h"

static eccl_result_t mpi_fail(eccl_comm_t c, int mrc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(mrc, msg, &len);
    return eccl_comm_error(c, ECCL_ERR_MPI, "%s failed: %.*s", what, len, msg);
}

#define MPI_CHECK(c, call, what)                                                                   \
    do {                                                                                           \
        int mrc_ = (call);                                                                         \
        if (mrc_ != MPI_SUCCESS) return mpi_fail((c), mrc_, (what));                               \
    } while (0)

static size_t npieces(size_t bytes) { return bytes == 0 ? 1 : (bytes + ECCL_TR_PIECE - 1) / ECCL_TR_PIECE; }

static eccl_result_t mpi_isend(eccl_comm_t c, const void *buf, size_t bytes, int peer, int tag,
                            eccl_req_t *req)
{
    size_t np = npieces(bytes);
    if (np > ECCL_TR_MAX_PIECES)
        return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "message of %zu bytes is too large", bytes);
    memset(req, 0, sizeof *req);
    if (c->fault_countdown > 0 && --c->fault_countdown == 0 && bytes > 0) {
        /* ECCL_FAULT_INJECT: this message leaves with one bit flipped (testing only) */
        req->owned = malloc(bytes);
        if (req->owned) {
            memcpy(req->owned, buf, bytes);
            ((unsigned char *)req->owned)[bytes / 2] ^= 0x10;
            buf = req->owned;
        }
    }
    for (size_t k = 0; k < np; k++) {
        size_t off = k * ECCL_TR_PIECE, len = bytes - off < ECCL_TR_PIECE ? bytes - off : ECCL_TR_PIECE;
        MPI_CHECK(c, MPI_Isend((const char *)buf + off, (int)len, MPI_BYTE, peer, tag, c->comm, &req->r[k]),
                  "MPI_Isend");
        req->n++;
    }
    return ECCL_SUCCESS;
}

static eccl_result_t mpi_irecv(eccl_comm_t c, void *buf, size_t bytes, int peer, int tag,
                            eccl_req_t *req)
{
    size_t np = npieces(bytes);
    if (np > ECCL_TR_MAX_PIECES)
        return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "message of %zu bytes is too large", bytes);
    memset(req, 0, sizeof *req);
    for (size_t k = 0; k < np; k++) {
        size_t off = k * ECCL_TR_PIECE, len = bytes - off < ECCL_TR_PIECE ? bytes - off : ECCL_TR_PIECE;
        MPI_CHECK(c, MPI_Irecv((char *)buf + off, (int)len, MPI_BYTE, peer, tag, c->comm, &req->r[k]),
                  "MPI_Irecv");
        req->n++;
    }
    return ECCL_SUCCESS;
}

static eccl_result_t mpi_irecv_stream(eccl_comm_t c, void *buf, size_t cap, int peer, int tag,
                                   eccl_req_t *req)
{
    memset(req, 0, sizeof *req);
    size_t first = cap < ECCL_TR_PIECE ? cap : ECCL_TR_PIECE;
    MPI_CHECK(c, MPI_Irecv(buf, (int)first, MPI_BYTE, peer, tag, c->comm, &req->r[0]), "MPI_Irecv");
    req->n = 1;
    req->stream = 1;
    req->buf = (unsigned char *)buf;
    req->cap = cap;
    req->peer = peer;
    req->tag = tag;
    return ECCL_SUCCESS;
}

static eccl_result_t mpi_wait(eccl_comm_t c, eccl_req_t *req, size_t *got)
{
    MPI_Status st[ECCL_TR_MAX_PIECES];
    if (req->n == 0) return ECCL_SUCCESS;
    int mrc = MPI_Waitall(req->n, req->r, st);
    free(req->owned);
    req->owned = NULL;
    if (mrc != MPI_SUCCESS) {
        req->n = 0;
        if (mrc == MPI_ERR_IN_STATUS) mrc = st[0].MPI_ERROR;
        int cls = 0;
        MPI_Error_class(mrc, &cls);
        if (cls == MPI_ERR_TRUNCATE)
            return eccl_comm_error(c, ECCL_ERR_CORRUPT, "a peer sent more bytes than its data can compress to");
        return mpi_fail(c, mrc, "MPI_Waitall");
    }
    int n = req->n;
    req->n = 0;
    if (!req->stream) return ECCL_SUCCESS;
    int count = 0;
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    size_t size = (size_t)count;
    if ((size_t)count == ECCL_TR_PIECE && req->cap > ECCL_TR_PIECE) {
        /* a large stream: the header tells how many bytes follow */
        uint64_t total;
        memcpy(&total, req->buf + 48, 8);
        if (total < ECCL_TR_PIECE || total > req->cap)
            return eccl_comm_error(c, ECCL_ERR_CORRUPT, "stream header announces %llu bytes",
                                   (unsigned long long)total);
        eccl_req_t rest;
        eccl_result_t rc = mpi_irecv(c, req->buf + ECCL_TR_PIECE, total - ECCL_TR_PIECE,
                                         req->peer, req->tag, &rest);
        if (rc) return rc;
        if ((rc = mpi_wait(c, &rest, NULL))) return rc;
        size = total;
    }
    (void)n;
    if (got) *got = size;
    return ECCL_SUCCESS;
}

void eccl_tr_progress(void *comm)
{
    eccl_comm_t c = comm;
    int flag = 0;
    /* a probe drives the progress engine (MPICH, Open MPI) and consumes nothing */
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c->comm, &flag, MPI_STATUS_IGNORE);
}

static void mpi_cancel(eccl_comm_t c, eccl_req_t *req)
{
    (void)c;
    for (int k = 0; k < req->n; k++) {
        if (req->r[k] == MPI_REQUEST_NULL) continue;
        MPI_Cancel(&req->r[k]);
        MPI_Wait(&req->r[k], MPI_STATUS_IGNORE);
    }
    req->n = 0;
    free(req->owned);
    req->owned = NULL;
}

/* ---- uncompressed collectives ---- */

MPI_Datatype eccl_tr_mpi_type(eccl_dtype_t dtype)
{
    const eccl_dtype_traits_t *t = eccl_dtype_traits(dtype); /* (MPI's type of the element) */
    if (!t) return MPI_DATATYPE_NULL;
    if (t->reals == 2) return t->is64 ? MPI_C_DOUBLE_COMPLEX : MPI_C_FLOAT_COMPLEX;
    return t->is64 ? MPI_DOUBLE : MPI_FLOAT;
}

static void op_fn(eccl_op_t op, void *in, void *inout, int *len, MPI_Datatype *dt)
{
    eccl_dtype_t t = *dt == MPI_DOUBLE ? ECCL_FLOAT64 : ECCL_FLOAT32;
    eccl_codec_reduce_values(t, op, inout, in, (size_t)*len);
}
static void max_fn(void *in, void *inout, int *len, MPI_Datatype *dt) { op_fn(ECCL_OP_MAX, in, inout, len, dt); }
static void min_fn(void *in, void *inout, int *len, MPI_Datatype *dt) { op_fn(ECCL_OP_MIN, in, inout, len, dt); }

/* The MPI operations behind MAX/MIN (NaN propagates, max(-0.0, +0.0) = +0.0, identical bits in
 * any order: the same rules as the compressed path), created per communicator. */
static eccl_result_t ops_create(eccl_comm_t c)
{
    MPI_CHECK(c, MPI_Op_create(max_fn, 1, &c->tr.op_max), "MPI_Op_create");
    MPI_CHECK(c, MPI_Op_create(min_fn, 1, &c->tr.op_min), "MPI_Op_create");
    return ECCL_SUCCESS;
}

static void ops_free(eccl_comm_t c)
{
    if (c->tr.op_max != MPI_OP_NULL) MPI_Op_free(&c->tr.op_max);
    if (c->tr.op_min != MPI_OP_NULL) MPI_Op_free(&c->tr.op_min);
}

int eccl_tr_mpi_thread_multiple(void)
{
    int level = MPI_THREAD_SINGLE;
    return MPI_Query_thread(&level) == MPI_SUCCESS && level == MPI_THREAD_MULTIPLE;
}

#ifdef HAVE_MPIX_QUERY_CUDA_SUPPORT
int MPIX_Query_cuda_support(void); /* (Open MPI declares it in mpi-ext.h, which is not included) */
#endif

ECCL_ENV(env_cuda_aware, "ECCL_CUDA_AWARE", -1);

int eccl_tr_cuda_aware(void)
{
    const char *v = eccl_env_str(&env_cuda_aware);
    if (v && *v && strcmp(v, "auto") != 0) return eccl_env_long(&env_cuda_aware) == 1;
#ifdef HAVE_MPIX_QUERY_CUDA_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

static MPI_Op mpi_op(eccl_comm_t c, eccl_op_t op)
{
    switch (op) {
    case ECCL_OP_SUM:
    case ECCL_OP_AVG: return MPI_SUM;
    case ECCL_OP_MAX: return c->tr.op_max;
    case ECCL_OP_MIN: return c->tr.op_min;
    case ECCL_OP_PROD: return MPI_PROD;
    default: return MPI_OP_NULL;
    }
}

/* A datatype holding exactly `count` elements (for counts above INT_MAX) and its MPI count. */
static eccl_result_t big_type(eccl_comm_t c, eccl_dtype_t dt, size_t count, MPI_Datatype *type,
                              int *n, int *free_it)
{
    MPI_Datatype base = eccl_tr_mpi_type(dt);
    *free_it = 0;
    if (count <= INT_MAX) {
        *type = base;
        *n = (int)count;
        return ECCL_SUCCESS;
    }
    const size_t B = (size_t)1 << 20;
    size_t a = count / B, rem = count % B;
    if (a > INT_MAX) return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED, "count %zu too large", count);
    MPI_Datatype blk, types[2];
    MPI_Aint disp[2] = {0, (MPI_Aint)(a * B * eccl_dtype_size(dt))};
    int lens[2] = {(int)a, (int)rem};
    MPI_CHECK(c, MPI_Type_contiguous((int)B, base, &blk), "MPI_Type_contiguous");
    types[0] = blk;
    types[1] = base;
    MPI_CHECK(c, MPI_Type_create_struct(rem ? 2 : 1, lens, disp, types, type), "MPI_Type_create_struct");
    MPI_Type_free(&blk);
    MPI_CHECK(c, MPI_Type_commit(type), "MPI_Type_commit");
    *n = 1;
    *free_it = 1;
    return ECCL_SUCCESS;
}

#define CHUNK ((size_t)1 << 30) /* elements per call for chunked reductions and bcasts */

eccl_result_t eccl_tr_bcast(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt, int root)
{
    size_t es = eccl_dtype_size(dt);
    for (size_t off = 0; off < count || (count == 0 && off == 0); off += CHUNK) {
        size_t n = count - off < CHUNK ? count - off : CHUNK;
        MPI_CHECK(c, MPI_Bcast((char *)buf + off * es, (int)n, eccl_tr_mpi_type(dt), root, c->comm), "MPI_Bcast");
        if (count == 0) break;
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_allreduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                                eccl_dtype_t dt, eccl_op_t op)
{
    size_t es = eccl_dtype_size(dt);
    for (size_t off = 0; off < count; off += CHUNK) {
        size_t n = count - off < CHUNK ? count - off : CHUNK;
        const void *s = sbuf == MPI_IN_PLACE ? MPI_IN_PLACE : (const char *)sbuf + off * es;
        MPI_CHECK(c, MPI_Allreduce(s, (char *)rbuf + off * es, (int)n, eccl_tr_mpi_type(dt), mpi_op(c, op), c->comm),
                  "MPI_Allreduce");
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_reduce(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                             eccl_dtype_t dt, eccl_op_t op, int root)
{
    size_t es = eccl_dtype_size(dt);
    if (sbuf == MPI_IN_PLACE) {
        /* MPICH 4.0.2 (Debian 12) crashes in MPI_Reduce with MPI_IN_PLACE at a nonzero root:
         * reduce from a copy instead */
        void *tmp = eccl_pool_get(&c->pool, ECCL_SLOT_TMP, count * es);
        if (!tmp) return eccl_comm_error(c, ECCL_ERR_NO_MEMORY, "no memory for MPI_IN_PLACE");
        memcpy(tmp, rbuf, count * es);
        sbuf = tmp;
    }
    for (size_t off = 0; off < count; off += CHUNK) {
        size_t n = count - off < CHUNK ? count - off : CHUNK;
        const void *s = sbuf == MPI_IN_PLACE ? MPI_IN_PLACE : (const char *)sbuf + off * es;
        void *r = c->rank == root ? (char *)rbuf + off * es : NULL;
        MPI_CHECK(c, MPI_Reduce(s, r, (int)n, eccl_tr_mpi_type(dt), mpi_op(c, op), root, c->comm), "MPI_Reduce");
    }
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_reduce_scatter_block(eccl_comm_t c, const void *sbuf, void *rbuf,
                                           size_t count, eccl_dtype_t dt, eccl_op_t op)
{
    if (count > INT_MAX)
        return eccl_comm_error(c, ECCL_ERR_UNSUPPORTED,
                               "uncompressed reduce_scatter_block of more than INT_MAX elements per rank");
    MPI_CHECK(c, MPI_Reduce_scatter_block(sbuf, rbuf, (int)count, eccl_tr_mpi_type(dt), mpi_op(c, op), c->comm),
              "MPI_Reduce_scatter_block");
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_allgather(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                                eccl_dtype_t dt)
{
    MPI_Datatype t;
    int n, fr;
    eccl_result_t rc = big_type(c, dt, count, &t, &n, &fr);
    if (rc) return rc;
    int mrc = MPI_Allgather(sbuf, n, t, rbuf, n, t, c->comm);
    if (fr) MPI_Type_free(&t);
    return mrc == MPI_SUCCESS ? ECCL_SUCCESS : mpi_fail(c, mrc, "MPI_Allgather");
}

eccl_result_t eccl_tr_scatter(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                              eccl_dtype_t dt, int root)
{
    MPI_Datatype t;
    int n, fr;
    eccl_result_t rc = big_type(c, dt, count, &t, &n, &fr);
    if (rc) return rc;
    int mrc = MPI_Scatter(sbuf, n, t, rbuf, n, t, root, c->comm);
    if (fr) MPI_Type_free(&t);
    return mrc == MPI_SUCCESS ? ECCL_SUCCESS : mpi_fail(c, mrc, "MPI_Scatter");
}

eccl_result_t eccl_tr_gather(eccl_comm_t c, const void *sbuf, void *rbuf, size_t count,
                             eccl_dtype_t dt, int root)
{
    MPI_Datatype t;
    int n, fr;
    eccl_result_t rc = big_type(c, dt, count, &t, &n, &fr);
    if (rc) return rc;
    int mrc = MPI_Gather(sbuf, n, t, rbuf, n, t, root, c->comm);
    if (fr) MPI_Type_free(&t);
    return mrc == MPI_SUCCESS ? ECCL_SUCCESS : mpi_fail(c, mrc, "MPI_Gather");
}

eccl_result_t eccl_tr_sendrecv_replace(eccl_comm_t c, void *buf, size_t count, eccl_dtype_t dt,
                                       int dest, int sendtag, int source, int recvtag)
{
    MPI_Datatype t;
    int n, fr;
    eccl_result_t rc = big_type(c, dt, count, &t, &n, &fr);
    if (rc) return rc;
    int mrc = MPI_Sendrecv_replace(buf, n, t, dest, sendtag, source, recvtag, c->comm, MPI_STATUS_IGNORE);
    if (fr) MPI_Type_free(&t);
    return mrc == MPI_SUCCESS ? ECCL_SUCCESS : mpi_fail(c, mrc, "MPI_Sendrecv_replace");
}

/* The node steps of hierarchical algorithms, on c->topo.node (int counts: the algorithm applies
 * to at most INT_MAX elements). */
eccl_result_t eccl_tr_node_reduce_scatter(eccl_comm_t c, const void *sbuf, void *rbuf, const int *counts,
                                          eccl_dtype_t dt, eccl_op_t op)
{
    MPI_CHECK(c, MPI_Reduce_scatter(sbuf, rbuf, counts, eccl_tr_mpi_type(dt), mpi_op(c, op), c->topo.node),
              "MPI_Reduce_scatter (inside a node)");
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_node_allgatherv(eccl_comm_t c, void *rbuf, const int *counts, const int *displs,
                                      eccl_dtype_t dt)
{
    MPI_Datatype t = eccl_tr_mpi_type(dt);
    MPI_CHECK(c, MPI_Allgatherv(MPI_IN_PLACE, 0, t, rbuf, counts, displs, t, c->topo.node),
              "MPI_Allgatherv (inside a node)");
    return ECCL_SUCCESS;
}

eccl_result_t eccl_tr_allreduce_doubles(eccl_comm_t c, double *v, int n, MPI_Op op)
{
    MPI_CHECK(c, MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, op, c->comm), "MPI_Allreduce");
    return ECCL_SUCCESS;
}

/* ---- the MPI transport's table ---- */

/* Blocking exchange over posted messages: the receive first, so that a ring of exchanges never
 * waits on itself. */
static eccl_result_t mpi_exchange(eccl_comm_t c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rcap,
                                  size_t *rgot, int src, int tag)
{
    eccl_req_t rs = ECCL_REQ_NULL, rr = ECCL_REQ_NULL;
    eccl_result_t rc = ECCL_SUCCESS;
    if (rgot) *rgot = 0;
    if (src >= 0) rc = mpi_irecv_stream(c, rbuf, rcap, src, tag, &rr);
    if (!rc && dest >= 0) rc = mpi_isend(c, sbuf, sbytes, dest, tag, &rs);
    if (!rc) rc = mpi_wait(c, &rs, NULL);
    if (rc) {
        mpi_cancel(c, &rr);
        return rc;
    }
    return mpi_wait(c, &rr, rgot);
}

static const eccl_model_t *mpi_model(eccl_comm_t c, int gpu, int w64)
{
    return gpu ? &c->models.gpu[w64 != 0] : &c->models.host;
}

static eccl_result_t mpi_create(eccl_comm_t c)
{
#ifdef HAVE_CUDA
    c->tr.cuda_aware = eccl_tr_cuda_aware();
#endif
    return ops_create(c);
}

const eccl_transport_t eccl_tr_mpi_table = {
    .id = ECCL_TR_MPI,
    .name = "mpi",
    .caps = ECCL_TR_POSTS,
    .stats_code = 0,
    .create = mpi_create,
    .release = ops_free,
    .isend = mpi_isend,
    .irecv = mpi_irecv,
    .irecv_stream = mpi_irecv_stream,
    .wait = mpi_wait,
    .cancel = mpi_cancel,
    .exchange = mpi_exchange,
    .model = mpi_model,
};
