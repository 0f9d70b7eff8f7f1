/*
 * sl.h - the ScaLAPACK/BLACS layer (internal): BLACS prototypes, the per-grid cache, packing.
 *
 * The layer only turns BLACS contexts and descriptors into data descriptions (pointer, count,
 * dtype, strides, root) and calls the public collectives of eccl.h; the only MPI it calls itself
 * derives communicators and caches them on the grid (grid.c).
 */
#ifndef ECCL_SCALAPACK_SL_H
#define ECCL_SCALAPACK_SL_H

#include <stddef.h>

#include "core/pool.h"
#include "eccl.h"
#include "eccl_scalapack.h"

/* BLACS (LP64: Int is int).  No header is installed for them; these match ScaLAPACK 2.x. */
void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
int Cblacs_pnum(int ictxt, int prow, int pcol);
/* The grid's MPI communicator: Cblacs_get(ictxt, 10, &h) gives its C system handle h (registered
 * in the C interface's handle table, reused on later calls), Cblacs2sys_handle(h) the communicator.
 * Not blacs_get_: a program may define Fortran-named wrappers over the C calls (ScaLAPACK's C
 * BLACS tester does), and its blacs_get_ then answers with a C handle. */
void Cblacs_get(int ictxt, int what, int *val);
MPI_Comm Cblacs2sys_handle(int sysctxt);

enum { SL_SCOPE_ROW = 0, SL_SCOPE_COL = 1, SL_SCOPE_ALL = 2, SL_NSCOPES = 3 };

/* Per-grid state, an attribute of the grid's MPI communicator. */
typedef struct sl_grid {
    int nprow, npcol, myrow, mycol;
    MPI_Comm grid;                    /* BLACS' communicator (not ours) */
    eccl_comm_t comm[SL_NSCOPES];     /* created on first use */
    eccl_config_t config;             /* for the communicators above */
    int have_config;
    eccl_pool_t pool;                 /* packing buffers */
    void *dpack;                      /* packing buffer for device arrays (grow-only) */
    size_t dpack_cap;
    void *dstream;                    /* CUDA stream of the device copies (pack.c; NULL until the
                                         first, and where none could be made) */
    int dstream_failed;
    eccl_blacs_totals_t totals;
} sl_grid_t;

/* The grid of ictxt (created and attached on first use; ECCL_ERR_INVALID_ARG for an invalid or
 * exited context or a process outside the grid). */
eccl_result_t eccl_sl_grid(int ictxt, sl_grid_t **grid);

/* The eccl communicator of scope s of the grid, created on first use (collective over the scope). */
eccl_result_t eccl_sl_comm(int ictxt, sl_grid_t *g, int scope, eccl_comm_t *out);

/* 'R'/'C'/'A' (first character, any case) -> SL_SCOPE_*, or -1. */
int eccl_sl_scope(const char *scope);

/* Add the statistics of the last call on comm to the grid's totals. A broadcast of `payload`
 * bytes passes its receivers (>= 0; 0 in a one-process scope): its root counts one uncompressed
 * copy per receiver, the others nothing. A reduction passes receivers = -1: eccl's own count. */
void eccl_sl_account(sl_grid_t *g, eccl_comm_t comm, int is_bcast_root, int receivers,
                     size_t payload);
/* The same from a call's statistics (a nonblocking panel broadcast: at its wait). */
void eccl_sl_account_stats(sl_grid_t *g, const eccl_stats_t *st, int is_bcast_root, int receivers, size_t payload);

/* ---- packing (pack.c): m x n column-major blocks with leading dimension ld <-> contiguous ---- */
enum { SL_SLOT_PACK = 0, SL_SLOT_PACK2 = 1 };
void eccl_sl_pack(void *dst, const void *src, size_t ld, size_t m, size_t n, size_t esize);
void eccl_sl_unpack(void *dst, size_t ld, const void *src, size_t m, size_t n, size_t esize);
/* The grid's device packing buffer with room for `bytes` (grow-only; NULL when out of memory). */
void *eccl_sl_dev_buffer(sl_grid_t *g, size_t bytes);
/* The same as a callback for eccl_bcast_matrix (grid: the sl_grid_t). */
void *eccl_sl_dev_buffer_cb(void *grid, size_t bytes);
/* The same for device arrays (dst and src device memory): one 2-D copy on the device, on the
 * grid's own CUDA stream (non-blocking, at the device's greatest priority unless
 * ECCL_GPU_PRIORITY=0, created at the first copy: a copy is not queued behind the caller's
 * kernels, e.g. SUMMA's DGEMM of the previous panel), complete on return. The caller's data must
 * be complete when the call is made, as for every eccl call on device buffers. */
eccl_result_t eccl_sl_pack_dev(sl_grid_t *g, void *dst, const void *src, size_t ld, size_t m, size_t n,
                               size_t esize);
eccl_result_t eccl_sl_unpack_dev(sl_grid_t *g, void *dst, size_t ld, const void *src, size_t m, size_t n,
                                 size_t esize);
eccl_result_t eccl_sl_copy2d_dev(sl_grid_t *g, void *dst, size_t ldd, const void *src, size_t lds, size_t m,
                                 size_t n, size_t esize);
/* Copy between two strided blocks. */
void eccl_sl_copy2d(void *dst, size_t ldd, const void *src, size_t lds, size_t m, size_t n,
                    size_t esize);

/* ---- block-cyclic arithmetic (panel.c; the formulas of doc/BLACS-INTEROP.md) ---- */
/* numroc: how many of the first n global indices (block nb, first block on process src) process
 * p of np owns. */
int eccl_sl_numroc(int n, int nb, int p, int src, int np);

/* Bound argument check shared by the drop-ins and the panels: 0 if NULL or valid. */
int eccl_sl_bound_invalid(const eccl_bound_t *b);

#endif
