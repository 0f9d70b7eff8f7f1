/*
 * entry.c - the BLACS entry points libeccl_blacs defines, and where each call goes.
 *
 * A broadcast or sum goes to eccl (src/scalapack/blacs.c's drop-ins, with the policy's bound)
 * when the policy selects it: ECCL_BLACS is not off, the operation is in ECCL_BLACS_OPS, the
 * message (m * n elements) has at least ECCL_BLACS_MIN_BYTES and the context is selected.
 * Everything else goes to the real BLACS routine of the same name, the next definition after
 * this library (dlsym(RTLD_NEXT)), with the caller's arguments untouched.  That includes a call
 * eccl rejects before communicating (a negative INFO: an argument eccl does not accept, such as
 * an unknown scope or a context this process is not in), so that BLACS answers it as it always
 * does.  An error after communication started (a corrupt stream, an MPI error) cannot be handed
 * back: BLACS routines return nothing, so the program stops with a message (ib_fatal).
 *
 * BLACS semantics kept here: lda < m means lda = m (BLACS does the same), top is ignored, and
 * the Fortran entry points read their scalar arguments through pointers; their hidden string
 * lengths are not declared (neither eccl nor BLACS reads them).  Integer and every other BLACS
 * routine is not defined here, so it resolves to the real BLACS directly.
 */
#include "config.h" /* _GNU_SOURCE (AC_USE_SYSTEM_EXTENSIONS): RTLD_NEXT */

#include <dlfcn.h>
#include <stdatomic.h>

#include "eccl_scalapack.h"
#include "interpose/interpose.h"

/* ---- the real BLACS routines ---- */
#define IB_REAL_LIST(X)                                                                            \
    X(Csgebs2d) X(Cdgebs2d) X(Ccgebs2d) X(Czgebs2d) X(Csgebr2d) X(Cdgebr2d) X(Ccgebr2d) X(Czgebr2d)  \
    X(Csgsum2d) X(Cdgsum2d) X(Ccgsum2d) X(Czgsum2d) X(sgebs2d_) X(dgebs2d_) X(cgebs2d_) X(zgebs2d_)  \
    X(sgebr2d_) X(dgebr2d_) X(cgebr2d_) X(zgebr2d_) X(sgsum2d_) X(dgsum2d_) X(cgsum2d_) X(zgsum2d_)  \
    X(Cblacs_gridinit) X(Cblacs_gridmap) X(Cblacs_gridexit) X(Cblacs_exit) X(blacs_gridinit_)      \
    X(blacs_gridmap_) X(blacs_gridexit_) X(blacs_exit_)

#define IB_ID(name) R_##name,
enum { IB_REAL_LIST(IB_ID) R_COUNT };
#define IB_NAME(name) #name,
static const char *const real_names[R_COUNT] = {IB_REAL_LIST(IB_NAME)};

/* Resolved on first use; a slot is written once with the same value by any racing thread. */
static _Atomic(void *) real_fn[R_COUNT];

static void *ib_real(int id)
{
    void *f = atomic_load_explicit(&real_fn[id], memory_order_acquire);
    if (f) return f;
    f = dlsym(RTLD_NEXT, real_names[id]);
    if (!f)
        ib_fatal(1,
                 "the real BLACS routine %s was not found after libeccl_blacs. Load libeccl_blacs "
                 "ahead of a shared ScaLAPACK/BLACS library (LD_PRELOAD, or -leccl_blacs before "
                 "-lscalapack at link time); a fully static link cannot reach the real BLACS.",
                 real_names[id]);
    atomic_store_explicit(&real_fn[id], f, memory_order_release);
    return f;
}

/* ---- routing ---- */
static int context_selected(const ib_policy_t *p, int ictxt)
{
    if (!p->ncontexts) return 1;
    for (int i = 0; i < p->ncontexts; i++)
        if (p->contexts[i] == ictxt) return 1;
    return 0;
}

/* 1: give the call to eccl; 0: to the real BLACS (counted as forwarded). */
static int ib_take(int ictxt, unsigned op, int m, int n, size_t esize)
{
    const ib_policy_t *p = ib_policy();
    if (p->mode == IB_OFF) return 0;
    int take = (p->ops & op) && m > 0 && n > 0 && (size_t)m * (size_t)n * esize >= p->min_bytes &&
               context_selected(p, ictxt);
    if (!take) ib_count(ictxt, 1);
    return take;
}

/* After eccl's drop-in: 1 done, 0 rejected before communicating (the real BLACS gets the call). */
static int ib_done(int info, const char *routine, int ictxt)
{
    if (info == 0) {
        ib_count(ictxt, 0);
        return 1;
    }
    if (info < 0) {
        ib_count(ictxt, 1);
        return 0;
    }
    ib_fatal(1, "%s on BLACS context %d failed in eccl: %s (eccl error %d). A BLACS routine cannot "
                "return an error, so the program stops here.",
             routine, ictxt, eccl_strerror((eccl_result_t)info), info);
}

static int ib_lda(int lda, int m) { return lda < m ? m : lda < 1 ? 1 : lda; }
static const eccl_bound_t *ib_bound(void) { return &ib_policy()->bound; }

/* ---- broadcasts and sums, C and Fortran, s d c z ---- */
#define IB_ENTRIES(P, T, ES)                                                                       \
    typedef void (*P##bs_c_t)(int, char *, char *, int, int, T *, int);                            \
    typedef void (*P##br_c_t)(int, char *, char *, int, int, T *, int, int, int);                  \
    typedef void (*P##bs_f_t)(int *, char *, char *, int *, int *, T *, int *);                    \
    typedef void (*P##br_f_t)(int *, char *, char *, int *, int *, T *, int *, int *, int *);      \
    void C##P##gebs2d(int ictxt, char *scope, char *top, int m, int n, T *a, int lda)              \
    {                                                                                              \
        if (!ib_take(ictxt, IB_OP_BCAST, m, n, ES) ||                                              \
            !ib_done(eccl_##P##gebs2d(ictxt, scope, top, m, n, a, ib_lda(lda, m), ib_bound()),     \
                     "C" #P "gebs2d", ictxt))                                                      \
            ((P##bs_c_t)ib_real(R_C##P##gebs2d))(ictxt, scope, top, m, n, a, lda);                 \
    }                                                                                              \
    void C##P##gebr2d(int ictxt, char *scope, char *top, int m, int n, T *a, int lda, int rsrc,    \
                      int csrc)                                                                    \
    {                                                                                              \
        if (!ib_take(ictxt, IB_OP_BCAST, m, n, ES) ||                                              \
            !ib_done(eccl_##P##gebr2d(ictxt, scope, top, m, n, a, ib_lda(lda, m), rsrc, csrc,      \
                                      ib_bound()),                                                 \
                     "C" #P "gebr2d", ictxt))                                                      \
            ((P##br_c_t)ib_real(R_C##P##gebr2d))(ictxt, scope, top, m, n, a, lda, rsrc, csrc);     \
    }                                                                                              \
    void C##P##gsum2d(int ictxt, char *scope, char *top, int m, int n, T *a, int lda, int rdest,   \
                      int cdest)                                                                   \
    {                                                                                              \
        if (!ib_take(ictxt, IB_OP_SUM, m, n, ES) ||                                                \
            !ib_done(eccl_##P##gsum2d(ictxt, scope, top, m, n, a, ib_lda(lda, m), rdest, cdest,    \
                                      ib_bound()),                                                 \
                     "C" #P "gsum2d", ictxt))                                                      \
            ((P##br_c_t)ib_real(R_C##P##gsum2d))(ictxt, scope, top, m, n, a, lda, rdest, cdest);   \
    }                                                                                              \
    void P##gebs2d_(int *ictxt, char *scope, char *top, int *m, int *n, T *a, int *lda)            \
    {                                                                                              \
        if (!ib_take(*ictxt, IB_OP_BCAST, *m, *n, ES) ||                                           \
            !ib_done(eccl_##P##gebs2d(*ictxt, scope, top, *m, *n, a, ib_lda(*lda, *m), ib_bound()), \
                     #P "gebs2d", *ictxt))                                                         \
            ((P##bs_f_t)ib_real(R_##P##gebs2d_))(ictxt, scope, top, m, n, a, lda);                 \
    }                                                                                              \
    void P##gebr2d_(int *ictxt, char *scope, char *top, int *m, int *n, T *a, int *lda, int *rsrc, \
                    int *csrc)                                                                     \
    {                                                                                              \
        if (!ib_take(*ictxt, IB_OP_BCAST, *m, *n, ES) ||                                           \
            !ib_done(eccl_##P##gebr2d(*ictxt, scope, top, *m, *n, a, ib_lda(*lda, *m), *rsrc,      \
                                      *csrc, ib_bound()),                                          \
                     #P "gebr2d", *ictxt))                                                         \
            ((P##br_f_t)ib_real(R_##P##gebr2d_))(ictxt, scope, top, m, n, a, lda, rsrc, csrc);     \
    }                                                                                              \
    void P##gsum2d_(int *ictxt, char *scope, char *top, int *m, int *n, T *a, int *lda,            \
                    int *rdest, int *cdest)                                                        \
    {                                                                                              \
        if (!ib_take(*ictxt, IB_OP_SUM, *m, *n, ES) ||                                             \
            !ib_done(eccl_##P##gsum2d(*ictxt, scope, top, *m, *n, a, ib_lda(*lda, *m), *rdest,     \
                                      *cdest, ib_bound()),                                         \
                     #P "gsum2d", *ictxt))                                                         \
            ((P##br_f_t)ib_real(R_##P##gsum2d_))(ictxt, scope, top, m, n, a, lda, rdest, cdest);   \
    }

/* The prototypes the definitions below follow (no BLACS header is installed). */
#define IB_PROTOS(P, T)                                                                            \
    void C##P##gebs2d(int, char *, char *, int, int, T *, int);                                    \
    void C##P##gebr2d(int, char *, char *, int, int, T *, int, int, int);                          \
    void C##P##gsum2d(int, char *, char *, int, int, T *, int, int, int);                          \
    void P##gebs2d_(int *, char *, char *, int *, int *, T *, int *);                              \
    void P##gebr2d_(int *, char *, char *, int *, int *, T *, int *, int *, int *);                \
    void P##gsum2d_(int *, char *, char *, int *, int *, T *, int *, int *, int *);
IB_PROTOS(s, float)
IB_PROTOS(d, double)
IB_PROTOS(c, float)
IB_PROTOS(z, double)

IB_ENTRIES(s, float, 4)
IB_ENTRIES(d, double, 8)
IB_ENTRIES(c, float, 8)
IB_ENTRIES(z, double, 16)

/* ---- grid life cycle: watched for the report, always forwarded ---- */
void Cblacs_gridinit(int *ictxt, char *order, int nprow, int npcol);
void Cblacs_gridmap(int *ictxt, int *usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int ictxt);
void Cblacs_exit(int notdone);
void blacs_gridinit_(int *ictxt, char *order, int *nprow, int *npcol);
void blacs_gridmap_(int *ictxt, int *usermap, int *ldumap, int *nprow, int *npcol);
void blacs_gridexit_(int *ictxt);
void blacs_exit_(int *notdone);

void Cblacs_gridinit(int *ictxt, char *order, int nprow, int npcol)
{
    ((void (*)(int *, char *, int, int))ib_real(R_Cblacs_gridinit))(ictxt, order, nprow, npcol);
    if (ib_policy()->report) ib_grid_created(*ictxt);
}

void Cblacs_gridmap(int *ictxt, int *usermap, int ldumap, int nprow, int npcol)
{
    ((void (*)(int *, int *, int, int, int))ib_real(R_Cblacs_gridmap))(ictxt, usermap, ldumap, nprow, npcol);
    if (ib_policy()->report) ib_grid_created(*ictxt);
}

void blacs_gridinit_(int *ictxt, char *order, int *nprow, int *npcol)
{
    ((void (*)(int *, char *, int *, int *))ib_real(R_blacs_gridinit_))(ictxt, order, nprow, npcol);
    if (ib_policy()->report) ib_grid_created(*ictxt);
}

void blacs_gridmap_(int *ictxt, int *usermap, int *ldumap, int *nprow, int *npcol)
{
    ((void (*)(int *, int *, int *, int *, int *))ib_real(R_blacs_gridmap_))(ictxt, usermap, ldumap, nprow, npcol);
    if (ib_policy()->report) ib_grid_created(*ictxt);
}

void Cblacs_gridexit(int ictxt)
{
    if (ib_policy()->report) ib_report_grid(ictxt);
    ((void (*)(int))ib_real(R_Cblacs_gridexit))(ictxt);
}

void blacs_gridexit_(int *ictxt)
{
    if (ib_policy()->report) ib_report_grid(*ictxt);
    ((void (*)(int *))ib_real(R_blacs_gridexit_))(ictxt);
}

void Cblacs_exit(int notdone)
{
    if (ib_policy()->report) ib_report_all();
    ((void (*)(int))ib_real(R_Cblacs_exit))(notdone);
}

void blacs_exit_(int *notdone)
{
    if (ib_policy()->report) ib_report_all();
    ((void (*)(int *))ib_real(R_blacs_exit_))(notdone);
}
