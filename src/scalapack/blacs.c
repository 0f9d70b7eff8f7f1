/*
 * blacs.c - the BLACS drop-ins: xgebs2d / xgebr2d / xgsum2d / xgamx2d / xgamn2d with a bound.
 *
 * Each call turns (context, scope, m x n block with leading dimension lda, source or destination
 * coordinates) into (eccl communicator of the scope, contiguous buffer, count, dtype, root) and
 * calls eccl_bcast, eccl_allreduce or eccl_reduce.  A block with lda > m goes through the grid's
 * packing buffer; a contiguous one is used in place.
 *
 * BLACS semantics kept: only the first character of scope is read, top is ignored, the sum or
 * extremum lands everywhere when rdest or cdest is -1 (BLACS 2.x tests cdest, its documentation
 * rdest: both are honoured), elsewhere only on the destination, whose non-destination peers keep
 * their input.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "coll/coll.h"
#include "core/internal.h"
#include "cuda/device.h"
#include "scalapack/sl.h"

int eccl_sl_bound_invalid(const eccl_bound_t *b) { return eccl_bound_problem(b) != NULL; }

/* What a drop-in call was given, resolved. */
typedef struct sl_call {
    int ictxt;
    sl_grid_t *g;
    int scope;
    eccl_comm_t comm;
    int me;          /* my rank in the scope's communicator */
    int np;          /* its size */
    size_t m, n, lda, count, esize;
    eccl_dtype_t dtype;
    int dev;         /* a is CUDA device memory */
} sl_call_t;

/* Checks shared by every drop-in (positions 1, 2, 4, 5, 6, 7); 0 or -position.  The communicator
 * is not made here: a call with a bad argument further on must not communicate. */
static int check_common(sl_call_t *c, int ictxt, const char *scope, int m, int n, const void *a,
                        int lda, eccl_dtype_t dtype)
{
    memset(c, 0, sizeof *c);
    if (eccl_sl_grid(ictxt, &c->g)) return -1;
    c->ictxt = ictxt;
    if ((c->scope = eccl_sl_scope(scope)) < 0) return -2;
    if (m < 0) return -4;
    if (n < 0) return -5;
    if (!a && m > 0 && n > 0) return -6;
    if (lda < 1 || lda < m) return -7;
    c->dev = m > 0 && n > 0 && eccl_ptr_is_device(a); /* packed on the device (pack.c) */
    c->m = (size_t)m;
    c->n = (size_t)n;
    c->lda = (size_t)lda;
    c->count = c->m * c->n;
    c->dtype = dtype;
    c->esize = eccl_dtype_size(dtype);
    switch (c->scope) {
    case SL_SCOPE_ROW: c->me = c->g->mycol; c->np = c->g->npcol; break;
    case SL_SCOPE_COL: c->me = c->g->myrow; c->np = c->g->nprow; break;
    default:
        c->me = Cblacs_pnum(ictxt, c->g->myrow, c->g->mycol);
        c->np = c->g->nprow * c->g->npcol;
    }
    return 0;
}

/* The rank in the scope's communicator of grid coordinates (r, c), or a negative INFO: -pos_r or
 * -pos_c for coordinates out of the grid that the scope uses. */
static int scope_rank(const sl_call_t *c, int r, int col, int pos_r, int pos_c)
{
    switch (c->scope) {
    case SL_SCOPE_ROW:
        if (col < 0 || col >= c->g->npcol) return -pos_c;
        return col;
    case SL_SCOPE_COL:
        if (r < 0 || r >= c->g->nprow) return -pos_r;
        return r;
    default:
        if (r < 0 || r >= c->g->nprow) return -pos_r;
        if (col < 0 || col >= c->g->npcol) return -pos_c;
        return Cblacs_pnum(c->ictxt, r, col);
    }
}

static int is_contiguous(const sl_call_t *c) { return c->lda == c->m || c->n <= 1; }

/* The contiguous buffer for the call's block: a itself when it is contiguous, else the grid's
 * packing buffer, in device memory for a device array (NULL when out of memory). */
static void *block_buffer(sl_call_t *c, void *a)
{
    if (is_contiguous(c)) return a;
    size_t bytes = c->count * c->esize;
    return c->dev ? eccl_sl_dev_buffer(c->g, bytes) : eccl_pool_get(&c->g->pool, SL_SLOT_PACK, bytes);
}

/* Pack the block into buf / unpack it back (host or device, as the array). */
static eccl_result_t pack(const sl_call_t *c, void *buf, const void *a)
{
    if (c->dev) return eccl_sl_pack_dev(c->g, buf, a, c->lda, c->m, c->n, c->esize);
    eccl_sl_pack(buf, a, c->lda, c->m, c->n, c->esize);
    return ECCL_SUCCESS;
}
static eccl_result_t unpack(const sl_call_t *c, void *a, const void *buf)
{
    if (c->dev) return eccl_sl_unpack_dev(c->g, a, c->lda, buf, c->m, c->n, c->esize);
    eccl_sl_unpack(a, c->lda, buf, c->m, c->n, c->esize);
    return ECCL_SUCCESS;
}

/* A broadcast of the call's block on every rank of the scope: a strided device block goes to
 * eccl_bcast_matrix, which compresses and decompresses its columns in place (no packed copy)
 * when the call runs on the GPU codec; a contiguous block or a host one as one buffer. */
static eccl_result_t bcast_block(sl_call_t *c, void *a, int root, const eccl_bound_t *bound)
{
    if (c->dev && !is_contiguous(c))
        return eccl_bcast_matrix(a, c->m, c->n, c->lda, c->dtype, root, bound, c->comm, eccl_sl_dev_buffer_cb, c->g);
    void *buf = block_buffer(c, a);
    if (!buf) return ECCL_ERR_NO_MEMORY;
    eccl_result_t rc = ECCL_SUCCESS;
    if (buf != a && c->me == root && (rc = pack(c, buf, a))) return rc;
    rc = eccl_bcast(buf, c->count, c->dtype, root, bound, c->comm);
    if (!rc && buf != a && c->me != root) rc = unpack(c, a, buf);
    return rc;
}

/* ------------------------------------------------------------------------------------------ */

static int gebs2d(int ictxt, const char *scope, int m, int n, const void *a, int lda,
                  const eccl_bound_t *bound, eccl_dtype_t dtype)
{
    sl_call_t c;
    int info = check_common(&c, ictxt, scope, m, n, a, lda, dtype);
    if (info) return info;
    if (eccl_sl_bound_invalid(bound)) return -8;
    eccl_result_t rc = eccl_sl_comm(ictxt, c.g, c.scope, &c.comm);
    if (rc) return (int)rc;
    if (c.count == 0) return 0;
    /* eccl_bcast reads the root's buffer and leaves it unchanged, as MPI_Bcast does */
    rc = bcast_block(&c, (void *)a, c.me, bound);
    eccl_sl_account(c.g, c.comm, 1, c.np - 1, c.count * c.esize);
    return (int)rc;
}

static int gebr2d(int ictxt, const char *scope, int m, int n, void *a, int lda, int rsrc,
                  int csrc, const eccl_bound_t *bound, eccl_dtype_t dtype)
{
    sl_call_t c;
    int info = check_common(&c, ictxt, scope, m, n, a, lda, dtype);
    if (info) return info;
    int root = scope_rank(&c, rsrc, csrc, 8, 9);
    if (root < 0) return root;
    if (root == c.me) return c.scope == SL_SCOPE_ROW ? -9 : -8; /* a receiver cannot be the source */
    if (eccl_sl_bound_invalid(bound)) return -10;
    eccl_result_t rc = eccl_sl_comm(ictxt, c.g, c.scope, &c.comm);
    if (rc) return (int)rc;
    if (c.count == 0) return 0;
    rc = bcast_block(&c, a, root, bound);
    eccl_sl_account(c.g, c.comm, 0, c.np - 1, c.count * c.esize);
    return (int)rc;
}

/* Destination of a combine: SL_EVERYWHERE, else the rank in the scope, or a negative INFO. */
#define SL_EVERYWHERE (-1000000)
static int combine_dest(const sl_call_t *c, int rdest, int cdest, int pos_r, int pos_c)
{
    if (rdest == -1 || cdest == -1) return SL_EVERYWHERE;
    return scope_rank(c, rdest, cdest, pos_r, pos_c);
}

/* Reduce the block with op: everywhere (dest == SL_EVERYWHERE) or onto rank dest. */
static int combine(sl_call_t *c, void *a, int dest, eccl_op_t op, const eccl_bound_t *bound)
{
    eccl_result_t rc = eccl_sl_comm(c->ictxt, c->g, c->scope, &c->comm);
    if (rc) return (int)rc;
    if (c->count == 0) return 0;
    if (c->dev && !is_contiguous(c)) { /* a strided device block: reduced in place */
        if (dest == SL_EVERYWHERE)
            rc = eccl_allreduce_matrix(a, c->m, c->n, c->lda, c->dtype, op, bound, c->comm, eccl_sl_dev_buffer_cb, c->g);
        else
            rc = eccl_reduce_matrix(a, c->m, c->n, c->lda, c->dtype, op, dest, bound, c->comm, eccl_sl_dev_buffer_cb,
                                    c->g);
        eccl_sl_account(c->g, c->comm, 0, -1, 0);
        return (int)rc;
    }
    void *buf = block_buffer(c, a);
    if (!buf) return ECCL_ERR_NO_MEMORY;
    if (buf != a && (rc = pack(c, buf, a))) return (int)rc;
    if (dest == SL_EVERYWHERE)
        rc = eccl_allreduce(MPI_IN_PLACE, buf, c->count, c->dtype, op, bound, c->comm);
    else
        rc = eccl_reduce(dest == c->me ? MPI_IN_PLACE : buf, buf, c->count, c->dtype, op, dest,
                         bound, c->comm);
    if (!rc && buf != a && (dest == SL_EVERYWHERE || dest == c->me)) rc = unpack(c, a, buf);
    eccl_sl_account(c->g, c->comm, 0, -1, 0);
    return (int)rc;
}

static int gsum2d(int ictxt, const char *scope, int m, int n, void *a, int lda, int rdest,
                  int cdest, const eccl_bound_t *bound, eccl_dtype_t dtype)
{
    sl_call_t c;
    int info = check_common(&c, ictxt, scope, m, n, a, lda, dtype);
    if (info) return info;
    int dest = combine_dest(&c, rdest, cdest, 8, 9);
    if (dest < 0 && dest != SL_EVERYWHERE) return dest;
    if (eccl_sl_bound_invalid(bound)) return -10;
    return combine(&c, a, dest, ECCL_OP_SUM, bound);
}

/* Absolute extrema through MAX on a pair of derived values per element (eccl_scalapack.h):
 *   amx: (x, -x)                     -> (max x, -min x): the larger magnitude wins;
 *   amn: (x >= 0 ? -x : -inf, x <= 0 ? x : -inf) -> (-P, N), P the smallest non-negative and N
 *        the largest non-positive contribution: the smaller magnitude wins. */
static void abs_pre(void *pairs, const void *x, size_t count, eccl_dtype_t dt, int amn)
{
    for (size_t i = 0; i < count; i++) {
        double v = dt == ECCL_FLOAT32 ? (double)((const float *)x)[i] : ((const double *)x)[i];
        double u, w;
        if (amn) {
            u = v >= 0 ? -v : -INFINITY;
            w = v <= 0 ? v : -INFINITY;
        } else {
            u = v;
            w = -v;
        }
        if (dt == ECCL_FLOAT32) {
            ((float *)pairs)[i] = (float)u;
            ((float *)pairs)[count + i] = (float)w;
        } else {
            ((double *)pairs)[i] = u;
            ((double *)pairs)[count + i] = w;
        }
    }
}

static void abs_post(void *x, const void *pairs, size_t count, eccl_dtype_t dt, int amn)
{
    for (size_t i = 0; i < count; i++) {
        double u, w, v;
        if (dt == ECCL_FLOAT32) {
            u = ((const float *)pairs)[i];
            w = ((const float *)pairs)[count + i];
        } else {
            u = ((const double *)pairs)[i];
            w = ((const double *)pairs)[count + i];
        }
        if (amn) v = -u <= -w ? -u : w; /* P = -u, |N| = -w */
        else v = u >= w ? u : -w;       /* max x = u, -min x = w */
        if (dt == ECCL_FLOAT32) ((float *)x)[i] = (float)v;
        else ((double *)x)[i] = v;
    }
}

static int gamxn2d(int ictxt, const char *scope, int m, int n, void *a, int lda, int ldia,
                   int rdest, int cdest, const eccl_bound_t *bound, eccl_dtype_t dtype, int amn)
{
    sl_call_t c;
    int info = check_common(&c, ictxt, scope, m, n, a, lda, dtype);
    if (info) return info;
    if (c.dev) return -6; /* host arrays only: the magnitude pairs are formed on the host */
    if (ldia != -1) return -10;
    int dest = combine_dest(&c, rdest, cdest, 11, 12);
    if (dest < 0 && dest != SL_EVERYWHERE) return dest;
    if (eccl_sl_bound_invalid(bound)) return -13;
    eccl_result_t rc = eccl_sl_comm(ictxt, c.g, c.scope, &c.comm);
    if (rc) return (int)rc;
    if (c.count == 0) return 0;
    void *x = block_buffer(&c, a);
    void *pairs = eccl_pool_get(&c.g->pool, SL_SLOT_PACK2, 2 * c.count * c.esize);
    if (!x || !pairs) return ECCL_ERR_NO_MEMORY;
    if (x != a) eccl_sl_pack(x, a, c.lda, c.m, c.n, c.esize);
    abs_pre(pairs, x, c.count, dtype, amn);
    if (dest == SL_EVERYWHERE)
        rc = eccl_allreduce(MPI_IN_PLACE, pairs, 2 * c.count, dtype, ECCL_OP_MAX, bound, c.comm);
    else
        rc = eccl_reduce(dest == c.me ? MPI_IN_PLACE : pairs, pairs, 2 * c.count, dtype,
                         ECCL_OP_MAX, dest, bound, c.comm);
    eccl_sl_account(c.g, c.comm, 0, -1, 0);
    if (rc || !(dest == SL_EVERYWHERE || dest == c.me)) return (int)rc;
    abs_post(x, pairs, c.count, dtype, amn);
    if (x != a) eccl_sl_unpack(a, c.lda, x, c.m, c.n, c.esize);
    return 0;
}

/* ---------------------------------------------------------------- the typed entry points */

#define SL_DROPINS(p, T, DT)                                                                       \
    int eccl_##p##gebs2d(int ictxt, const char *scope, const char *top, int m, int n, const T *a,  \
                         int lda, const eccl_bound_t *bound)                                       \
    {                                                                                              \
        (void)top;                                                                                 \
        return gebs2d(ictxt, scope, m, n, a, lda, bound, DT);                                      \
    }                                                                                              \
    int eccl_##p##gebr2d(int ictxt, const char *scope, const char *top, int m, int n, T *a,        \
                         int lda, int rsrc, int csrc, const eccl_bound_t *bound)                   \
    {                                                                                              \
        (void)top;                                                                                 \
        return gebr2d(ictxt, scope, m, n, a, lda, rsrc, csrc, bound, DT);                          \
    }                                                                                              \
    int eccl_##p##gsum2d(int ictxt, const char *scope, const char *top, int m, int n, T *a,        \
                         int lda, int rdest, int cdest, const eccl_bound_t *bound)                 \
    {                                                                                              \
        (void)top;                                                                                 \
        return gsum2d(ictxt, scope, m, n, a, lda, rdest, cdest, bound, DT);                        \
    }

SL_DROPINS(s, float, ECCL_FLOAT32)
SL_DROPINS(d, double, ECCL_FLOAT64)
SL_DROPINS(c, float, ECCL_COMPLEX64)
SL_DROPINS(z, double, ECCL_COMPLEX128)

#define SL_ABSEXT(p, name, T, DT, AMN)                                                             \
    int eccl_##p##name(int ictxt, const char *scope, const char *top, int m, int n, T *a, int lda, \
                       int *ra, int *ca, int ldia, int rdest, int cdest, const eccl_bound_t *bound) \
    {                                                                                              \
        (void)top;                                                                                 \
        (void)ra;                                                                                  \
        (void)ca;                                                                                  \
        return gamxn2d(ictxt, scope, m, n, a, lda, ldia, rdest, cdest, bound, DT, AMN);            \
    }

SL_ABSEXT(s, gamx2d, float, ECCL_FLOAT32, 0)
SL_ABSEXT(d, gamx2d, double, ECCL_FLOAT64, 0)
SL_ABSEXT(s, gamn2d, float, ECCL_FLOAT32, 1)
SL_ABSEXT(d, gamn2d, double, ECCL_FLOAT64, 1)
