/*
 * panel.c - descriptors and SUMMA panel broadcasts.
 *
 * A panel broadcast is a BLACS-style broadcast whose block is found from global indices: the
 * block column A(ia:ia+m-1, ja:ja+kb-1) lives on one process column (the owner of column ja),
 * and each process row holds its own rows of it, contiguous in local storage.  So every process
 * row runs one broadcast of its mloc x kb piece (leading dimension LLD) from the owning column,
 * on the row's eccl communicator.  The block row of B is the same along process columns.
 *
 * Validation follows ScaLAPACK: -k for argument k, -(100*k + j) for entry j of the descriptor that
 * is argument k.  Arguments every process holds alike are checked first and locally (all processes
 * reach the same verdict without talking).  Then the values that may differ between processes
 * (leading dimensions, pointers) are checked and the verdict agreed within the broadcasting process
 * row or column by one small lossless allreduce, which also compares a digest of the global
 * arguments: a process with a bad local value never leaves its peers waiting in the broadcast.
 *
 * The nonblocking twins (eccl_panel_ibcast_*) make the same checks and agreement before they
 * return, then post the broadcast on WORK (eccl_ibcast); the grid's totals count it at its wait.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/engine.h"
#include "core/dtype.h"
#include "core/internal.h"
#include "scalapack/sl.h"

enum { DTYPE_ = 0, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_ };

int eccl_sl_numroc(int n, int nb, int p, int src, int np)
{
    int dist = (np + p - src) % np;
    int nblocks = n / nb;
    int num = (nblocks / np) * nb;
    int extra = nblocks % np;
    if (dist < extra) num += nb;
    else if (dist == extra) num += n % nb;
    return num;
}

/* The descriptor's grid and the checks of entries that are the same on every process:
 * 0 or -(100*pos + entry). */
static int check_desc(const int *desc, int pos, sl_grid_t **g)
{
    if (!desc) return -pos;
    if (desc[DTYPE_] != 1) return -(100 * pos + 1);
    if (eccl_sl_grid(desc[CTXT_], g)) return -(100 * pos + 2);
    if (desc[M_] < 0) return -(100 * pos + 3);
    if (desc[N_] < 0) return -(100 * pos + 4);
    if (desc[MB_] < 1) return -(100 * pos + 5);
    if (desc[NB_] < 1) return -(100 * pos + 6);
    if (desc[RSRC_] < 0 || desc[RSRC_] >= (*g)->nprow) return -(100 * pos + 7);
    if (desc[CSRC_] < 0 || desc[CSRC_] >= (*g)->npcol) return -(100 * pos + 8);
    return 0;
}

/* LLD: at least 1, and at least the local rows wherever the process holds columns (ScaLAPACK). */
static int check_lld(const int *desc, const sl_grid_t *g, int pos)
{
    int lrows = eccl_sl_numroc(desc[M_], desc[MB_], g->myrow, desc[RSRC_], g->nprow);
    int lcols = eccl_sl_numroc(desc[N_], desc[NB_], g->mycol, desc[CSRC_], g->npcol);
    if (desc[LLD_] < 1 || (lcols > 0 && desc[LLD_] < lrows)) return -(100 * pos + 9);
    return 0;
}

/* Light checks for the size queries: the grid, MB/NB, RSRC/CSRC. */
static sl_grid_t *query_grid(const int *desc)
{
    sl_grid_t *g;
    if (!desc || eccl_sl_grid(desc[CTXT_], &g)) return NULL;
    if (desc[MB_] < 1 || desc[NB_] < 1 || desc[RSRC_] < 0 || desc[RSRC_] >= g->nprow ||
        desc[CSRC_] < 0 || desc[CSRC_] >= g->npcol)
        return NULL;
    return g;
}

int eccl_desc_local_rows(int m, int ia, const int *desc)
{
    sl_grid_t *g = query_grid(desc);
    if (!g || m < 0 || ia < 1 || m > INT_MAX - (ia - 1)) return -1;
    return eccl_sl_numroc(ia - 1 + m, desc[MB_], g->myrow, desc[RSRC_], g->nprow) -
           eccl_sl_numroc(ia - 1, desc[MB_], g->myrow, desc[RSRC_], g->nprow);
}

int eccl_desc_local_cols(int n, int ja, const int *desc)
{
    sl_grid_t *g = query_grid(desc);
    if (!g || n < 0 || ja < 1 || n > INT_MAX - (ja - 1)) return -1;
    return eccl_sl_numroc(ja - 1 + n, desc[NB_], g->mycol, desc[CSRC_], g->npcol) -
           eccl_sl_numroc(ja - 1, desc[NB_], g->mycol, desc[CSRC_], g->npcol);
}

int eccl_panel_width(int j, int nb, int n)
{
    if (n <= 0 || nb < 1 || j < 1) return 0;
    int w = nb - (j - 1) % nb;
    return w < n ? w : n;
}

/* One panel, resolved: the local block (rows x cols, leading dimension lld, element offset off in
 * the owner's local array), the broadcast's scope and root, and whether I am the owner. */
typedef struct sl_panel {
    sl_grid_t *g;
    int ictxt, scope, owner, is_owner, np;
    size_t rows, cols, lld, off, ldw, esize;
    eccl_dtype_t dtype;
} sl_panel_t;

/* FNV-1a over the global arguments, cut to 52 bits so that a double holds it exactly. */
static double digest(const int *v, int n, const eccl_bound_t *b)
{
    uint64_t h = 1469598103934665603ull;
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < sizeof(int) * (size_t)n; i++) h = (h ^ p[i]) * 1099511628211ull;
    if (b) {
        double bv[3] = {(double)b->mode, b->value, b->range};
        p = (const unsigned char *)bv;
        for (size_t i = 0; i < sizeof bv; i++) h = (h ^ p[i]) * 1099511628211ull;
    }
    return (double)(h >> 12);
}

/* Agree on the verdict within the panel's scope: the smallest (most negative) INFO wins; differing
 * digests give ECCL_ERR_MISMATCH.  Needs the communicator, so only after the global checks. */
static int agree(eccl_comm_t comm, int info, double dig)
{
    double v[3] = {(double)info, dig, -dig};
    eccl_bound_t exact = ECCL_BOUND_LOSSLESS;
    eccl_result_t rc = eccl_allreduce(MPI_IN_PLACE, v, 3, ECCL_FLOAT64, ECCL_OP_MIN, &exact, comm);
    if (rc) return (int)rc;
    if (v[1] != -v[2]) return ECCL_ERR_MISMATCH;
    return (int)v[0];
}

/* WORK itself carries the broadcast when it is contiguous; otherwise a packing buffer. */
static int work_contig(const sl_panel_t *p) { return p->ldw == p->rows || p->cols == 1; }

/* The owner's block of A into WORK (A and WORK in one memory space, checked before; device
 * arrays: a 2-D copy on the device). Nothing off the owner. */
static eccl_result_t own_copy(const sl_panel_t *p, const void *a, void *work, int dev)
{
    if (!p->is_owner) return ECCL_SUCCESS;
    const unsigned char *src = (const unsigned char *)a + p->off * p->esize;
    if (dev) return eccl_sl_copy2d_dev(p->g, work, p->ldw, src, p->lld, p->rows, p->cols, p->esize);
    eccl_sl_copy2d(work, p->ldw, src, p->lld, p->rows, p->cols, p->esize);
    return ECCL_SUCCESS;
}

/* The broadcast itself, once the panel is resolved and agreed. */
static int run_panel(sl_panel_t *p, eccl_comm_t comm, const void *a, void *work,
                     const eccl_bound_t *bound)
{
    size_t count = p->rows * p->cols, es = p->esize;
    if (count == 0) return 0;
    const int contig = work_contig(p), dev = eccl_ptr_is_device(work);
    if (dev && !contig) { /* compressed from and into WORK's columns in place (eccl_bcast_matrix) */
        eccl_result_t rc = own_copy(p, a, work, dev);
        if (rc) return (int)rc;
        rc = eccl_bcast_matrix(work, p->rows, p->cols, p->ldw, p->dtype, p->owner, bound, comm, eccl_sl_dev_buffer_cb,
                               p->g);
        eccl_sl_account(p->g, comm, p->is_owner, p->np - 1, count * es);
        return (int)rc;
    }
    void *buf = contig ? work
                : dev  ? eccl_sl_dev_buffer(p->g, count * es)
                       : eccl_pool_get(&p->g->pool, SL_SLOT_PACK, count * es);
    if (!buf) return ECCL_ERR_NO_MEMORY;
    eccl_result_t rc = own_copy(p, a, work, dev);
    if (!rc && p->is_owner && buf != work) {
        const unsigned char *src = (const unsigned char *)a + p->off * es;
        if (dev) rc = eccl_sl_pack_dev(p->g, buf, src, p->lld, p->rows, p->cols, es);
        else eccl_sl_pack(buf, src, p->lld, p->rows, p->cols, es);
    }
    if (rc) return (int)rc;
    rc = eccl_bcast(buf, count, p->dtype, p->owner, bound, comm);
    if (!rc && !p->is_owner && buf != work) {
        if (dev) rc = eccl_sl_unpack_dev(p->g, work, p->ldw, buf, p->rows, p->cols, es);
        else eccl_sl_unpack(work, p->ldw, buf, p->rows, p->cols, es);
    }
    eccl_sl_account(p->g, comm, p->is_owner, p->np - 1, count * es);
    return (int)rc;
}

/* The grid's totals of a nonblocking panel broadcast, when it is waited for (v: is_owner,
 * receivers, payload bytes). */
static void account_hook(void *arg, const long long v[3], const eccl_stats_t *st)
{
    eccl_sl_account_stats(arg, st, (int)v[0], (int)v[1], (size_t)v[2]);
}

/* The nonblocking broadcast, once the panel is resolved and agreed: the owner's copy into WORK
 * now, the broadcast posted on WORK. A WORK that is not contiguous takes the blocking path (its
 * packing buffer belongs to the grid, which the next panel reuses): *req stays null. */
static int post_panel(sl_panel_t *p, eccl_comm_t comm, const void *a, void *work, const eccl_bound_t *bound,
                      eccl_request_t *req)
{
    size_t count = p->rows * p->cols, es = p->esize;
    if (count == 0) return 0;
    if (!work_contig(p)) return run_panel(p, comm, a, work, bound);
    eccl_result_t rc = own_copy(p, a, work, eccl_ptr_is_device(work));
    if (!rc) rc = eccl_ibcast(work, count, p->dtype, p->owner, bound, comm, req);
    if (rc) return (int)rc;
    const long long v[3] = {p->is_owner, p->np - 1, (long long)(count * es)};
    eccl_engine_set_hook(*req, account_hook, p->g, v);
    return 0;
}

static int check_dtype_bound(const eccl_bound_t *bound, eccl_dtype_t dtype, size_t *esize)
{
    if (!eccl_dtype_traits(dtype))
        return -10;
    if (eccl_sl_bound_invalid(bound)) return -9;
    *esize = eccl_dtype_size(dtype);
    return 0;
}

/* eccl_panel_bcast_col (req NULL) and eccl_panel_ibcast_col. */
static int panel_col(int m, int kb, const void *a, int ia, int ja, const int *desca, void *work, int ldw,
                     const eccl_bound_t *bound, eccl_dtype_t dtype, eccl_request_t *req)
{
    sl_panel_t p;
    memset(&p, 0, sizeof p);
    int info = check_desc(desca, 6, &p.g);
    if (info) return info;
    if (m < 0) return -1;
    if (kb < 0) return -2;
    if (ia < 1 || (m > 0 && ia > desca[M_])) return -4;
    if (ja < 1 || (kb > 0 && ja > desca[N_])) return -5;
    if (m > 0 && (long long)ia - 1 + m > desca[M_]) return -1;
    if (kb > 0 && kb > eccl_panel_width(ja, desca[NB_], desca[N_] - ja + 1)) return -2;
    if ((info = check_dtype_bound(bound, dtype, &p.esize))) return info;
    if (m == 0 || kb == 0) return 0;

    const sl_grid_t *g = p.g;
    int j0 = ja - 1, nb = desca[NB_], mb = desca[MB_];
    int lr0 = eccl_sl_numroc(ia - 1, mb, g->myrow, desca[RSRC_], g->nprow);
    p.ictxt = desca[CTXT_];
    p.scope = SL_SCOPE_ROW;
    p.np = g->npcol;
    p.owner = (desca[CSRC_] + j0 / nb) % g->npcol;
    p.is_owner = p.owner == g->mycol;
    p.rows = (size_t)(eccl_sl_numroc(ia - 1 + m, mb, g->myrow, desca[RSRC_], g->nprow) - lr0);
    p.cols = (size_t)kb;
    p.lld = (size_t)(desca[LLD_] > 0 ? desca[LLD_] : 1);
    /* indxg2l: the local column of global column ja on its owner (products in 64 bits: NB
     * times the grid width may exceed an int when NB is the whole matrix) */
    long long lc = (long long)nb * (j0 / ((long long)nb * g->npcol)) + j0 % nb;
    p.off = (size_t)lr0 + (size_t)lc * p.lld;
    p.ldw = (size_t)(ldw > 0 ? ldw : 1);
    p.dtype = dtype;

    eccl_comm_t comm;
    eccl_result_t rc = eccl_sl_comm(p.ictxt, p.g, p.scope, &comm);
    if (rc) return (int)rc;
    /* local checks, in argument order */
    int local = 0;
    if (p.is_owner && p.rows > 0 && !a) local = -3;
    if (!local) local = check_lld(desca, g, 6);
    if (!local && p.rows > 0 && !work) local = -7;
    /* A and WORK in one memory space (host, or device: 2-D copies on the device) */
    if (!local && p.is_owner && p.rows > 0 && eccl_ptr_is_device(a) != eccl_ptr_is_device(work)) local = -7;
    if (!local && (ldw < 1 || (size_t)ldw < p.rows)) local = -8;
    /* (a context number is local to a process: not part of the digest) */
    int glob[12] = {m, kb, ia, ja, desca[DTYPE_], desca[M_], desca[N_], desca[MB_], desca[NB_],
                    desca[RSRC_], desca[CSRC_], (int)dtype};
    if ((info = agree(comm, local, digest(glob, 12, bound)))) return info;
    return req ? post_panel(&p, comm, a, work, bound, req) : run_panel(&p, comm, a, work, bound);
}

/* eccl_panel_bcast_row (req NULL) and eccl_panel_ibcast_row. */
static int panel_row(int kb, int n, const void *b, int ib, int jb, const int *descb, void *work, int ldw,
                     const eccl_bound_t *bound, eccl_dtype_t dtype, eccl_request_t *req)
{
    sl_panel_t p;
    memset(&p, 0, sizeof p);
    int info = check_desc(descb, 6, &p.g);
    if (info) return info;
    if (kb < 0) return -1;
    if (n < 0) return -2;
    if (ib < 1 || (kb > 0 && ib > descb[M_])) return -4;
    if (jb < 1 || (n > 0 && jb > descb[N_])) return -5;
    if (kb > 0 && kb > eccl_panel_width(ib, descb[MB_], descb[M_] - ib + 1)) return -1;
    if (n > 0 && (long long)jb - 1 + n > descb[N_]) return -2;
    if ((info = check_dtype_bound(bound, dtype, &p.esize))) return info;
    if (n == 0 || kb == 0) return 0;

    const sl_grid_t *g = p.g;
    int i0 = ib - 1, nb = descb[NB_], mb = descb[MB_];
    int lc0 = eccl_sl_numroc(jb - 1, nb, g->mycol, descb[CSRC_], g->npcol);
    p.ictxt = descb[CTXT_];
    p.scope = SL_SCOPE_COL;
    p.np = g->nprow;
    p.owner = (descb[RSRC_] + i0 / mb) % g->nprow;
    p.is_owner = p.owner == g->myrow;
    p.rows = (size_t)kb;
    p.cols = (size_t)(eccl_sl_numroc(jb - 1 + n, nb, g->mycol, descb[CSRC_], g->npcol) - lc0);
    p.lld = (size_t)(descb[LLD_] > 0 ? descb[LLD_] : 1);
    long long lr = (long long)mb * (i0 / ((long long)mb * g->nprow)) + i0 % mb; /* indxg2l */
    p.off = (size_t)lr + (size_t)lc0 * p.lld;
    p.ldw = (size_t)(ldw > 0 ? ldw : 1);
    p.dtype = dtype;

    eccl_comm_t comm;
    eccl_result_t rc = eccl_sl_comm(p.ictxt, p.g, p.scope, &comm);
    if (rc) return (int)rc;
    int local = 0;
    if (p.is_owner && p.cols > 0 && !b) local = -3;
    if (!local) local = check_lld(descb, g, 6);
    if (!local && p.cols > 0 && !work) local = -7;
    if (!local && p.is_owner && p.cols > 0 && eccl_ptr_is_device(b) != eccl_ptr_is_device(work)) local = -7;
    if (!local && (ldw < 1 || ldw < kb)) local = -8;
    int glob[12] = {kb, n, ib, jb, descb[DTYPE_], descb[M_], descb[N_], descb[MB_], descb[NB_],
                    descb[RSRC_], descb[CSRC_], (int)dtype};
    if ((info = agree(comm, local, digest(glob, 12, bound)))) return info;
    return req ? post_panel(&p, comm, b, work, bound, req) : run_panel(&p, comm, b, work, bound);
}

int eccl_panel_bcast_col(int m, int kb, const void *a, int ia, int ja, const int *desca,
                         void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype)
{
    return panel_col(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, NULL);
}

int eccl_panel_bcast_row(int kb, int n, const void *b, int ib, int jb, const int *descb,
                         void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype)
{
    return panel_row(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, NULL);
}

int eccl_panel_ibcast_col(int m, int kb, const void *a, int ia, int ja, const int *desca,
                          void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype,
                          eccl_request_t *req)
{
    if (!req) return -11;
    *req = ECCL_REQUEST_NULL;
    return panel_col(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, req);
}

int eccl_panel_ibcast_row(int kb, int n, const void *b, int ib, int jb, const int *descb,
                          void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype,
                          eccl_request_t *req)
{
    if (!req) return -11;
    *req = ECCL_REQUEST_NULL;
    return panel_row(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, req);
}
