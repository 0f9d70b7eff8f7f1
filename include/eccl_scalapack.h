/*
 * eccl_scalapack.h - eccl on BLACS process grids: BLACS-style drop-in calls and descriptor-aware
 * panel broadcasts for SUMMA-style codes (doc/scalapack.md).
 *
 * Present in builds configured with ScaLAPACK (config: HAVE_SCALAPACK); link a program that uses
 * it with `-leccl $(SCALAPACK_LIBS)`.  Plain C99; host memory only (device arrays: see the
 * "Memory" paragraph below).
 *
 * Arguments follow BLACS and PBLAS: contexts, counts and global indices are int (LP64 BLACS,
 * 1-based global indices as in ScaLAPACK), local arrays are column-major with a leading dimension,
 * descriptors are the 9-integer DESC arrays of ScaLAPACK (DTYPE=1, CTXT, M, N, MB, NB, RSRC, CSRC,
 * LLD).  Complex data is interleaved (re, im) pairs, passed as float* (c) or double* (z), as BLACS
 * does.
 *
 * Result codes (the `int` these calls return, named INFO as in ScaLAPACK):
 *   0        success;
 *   -k       argument k (1-based position in the C argument list) is invalid;
 *   -(100*k + j)  entry j (1-based) of the descriptor that is argument k is invalid;
 *   > 0      an eccl_result_t error from the collective underneath (ECCL_ERR_MPI, _NO_MEMORY,
 *            _CORRUPT, _UNSUPPORTED, ...): eccl_strerror() explains it.
 * The Fortran module has the same procedures with the same argument positions and INFO as a
 * trailing argument.  Invalid arguments are detected before any communication and never crash;
 * which checks see only local values (leading dimensions, pointers) is stated per function.
 *
 * Error bounds: `bound` bounds the RESULT of the call as in eccl.h (NULL: the communicator's
 * default, REL 1e-6 unless eccl_blacs_configure changed it).  REL bounds use the range of the data
 * the call moves (broadcasts: the sender's m x n values; sums: all contributions), so two calls can
 * have different absolute bounds; give bound.range (e.g. the global range from PDLANGE) for one
 * absolute bound everywhere.
 *
 * Communicators: the calls run on eccl communicators derived from the context's grid: the process
 * row, the process column and the whole grid (scope 'R', 'C', 'A').  They are created on first
 * use, by the processes of that scope only, and cached on the grid's MPI communicator; BLACS'
 * blacs_gridexit frees them.  Creating one measures the link (a few milliseconds, once).
 * A context may be used by one thread at a time, as BLACS requires.
 *
 * Memory: eccl keeps no pointer to a caller's array after a call returns.  Strided (lda > m)
 * arrays are packed into a buffer the grid's cache owns and reuses.  Arrays may be host memory or,
 * in a build with the CUDA backend, device memory (recognised per pointer; doc/scalapack.md): a
 * device array is packed, and an owner's panel copied into WORK, on the device, on a
 * high-priority CUDA stream of the grid's own, and the collectives run on device buffers.  As for
 * every eccl call on device memory, the data must be complete when the call is made (synchronise
 * the stream that wrote it); the result is complete in device memory when a blocking call returns.
 */
#ifndef ECCL_SCALAPACK_H
#define ECCL_SCALAPACK_H

#include <stdint.h>

#include "eccl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Grid communicators
 * ------------------------------------------------------------------------------------------- */

/* The eccl communicator of `scope` ('R' my process row, 'C' my process column, 'A' the grid;
 * first character, case-insensitive) of BLACS context ictxt, created on first use (collective
 * over that scope then).  Borrowed: owned by the grid's cache, valid until blacs_gridexit; never
 * pass it to eccl_comm_free.  Use it for the other collectives of eccl.h (Cannon's shifts with
 * eccl_sendrecv_replace), eccl_comm_set_algorithm and eccl_comm_last_stats.  Ranks: in the row
 * communicator a process's rank is its process column; in the column communicator, its process
 * row; in the grid communicator, Cblacs_pnum(ictxt, prow, pcol).
 * Errors: ECCL_ERR_INVALID_ARG (invalid or exited context, this process not in the grid, unknown
 * scope, NULL comm), ECCL_ERR_MPI, ECCL_ERR_NO_MEMORY. */
eccl_result_t eccl_blacs_comm(int ictxt, const char *scope, eccl_comm_t *comm);

/* Set the configuration (eccl.h: default bound, compression policy, ...) of the communicators
 * eccl derives from this grid.  Communicators already created are freed and re-created with it
 * on next use, so call it on every process of the grid (collective), with the same config.
 * config NULL restores the defaults.  Errors: ECCL_ERR_INVALID_ARG (bad context). */
eccl_result_t eccl_blacs_configure(int ictxt, const eccl_config_t *config);

/* What the calls of this layer did on this process since the grid's first use or the last reset.
 * Sum over processes (e.g. MPI_Reduce) for the whole grid. */
typedef struct eccl_blacs_totals {
    uint64_t calls;            /* collectives this process took part in through this layer */
    uint64_t calls_compressed; /* ... of which moved compressed data */
    uint64_t bytes_raw;        /* bytes this process would have sent uncompressed: a broadcast's
                                  sender counts one copy per receiver (none in a one-process
                                  scope), a sum what eccl reports for it (eccl_stats_t.bytes_raw) */
    uint64_t bytes_sent;       /* bytes it sent: compressed streams, or bytes_raw for calls that
                                  ran uncompressed */
    double t_total;            /* seconds inside those collectives */
    double max_eb;             /* largest absolute result bound used (0: only lossless) */
    double t_select;           /* seconds of t_total deciding how the calls run (the agreements,
                                  the ratio samples: eccl_stats_t.t_select) */
    double t_codec;            /* seconds of t_total in the codec (eccl_stats_t.t_codec) */
    double t_network;          /* seconds of t_total waiting for the network (eccl_stats_t.t_network) */
} eccl_blacs_totals_t;

/* Copy this process's totals for context ictxt into *totals (when not NULL), then zero them if
 * reset != 0.  A grid never used through eccl reports zeros.
 * Errors: ECCL_ERR_INVALID_ARG (bad context). */
eccl_result_t eccl_blacs_totals(int ictxt, eccl_blacs_totals_t *totals, int reset);

/* ---------------------------------------------------------------------------------------------
 * BLACS drop-ins: the arguments of Cxgebs2d / Cxgebr2d / Cxgsum2d / Cxgamx2d / Cxgamn2d plus a
 * bound; they return INFO.  Adopting eccl is a rename and an INFO check:
 *     Cdgebs2d(ictxt, "R", " ", m, n, a, lda);
 *  -> info = eccl_dgebs2d(ictxt, "R", " ", m, n, a, lda, &bound);
 * scope: first character 'R', 'C' or 'A', case-insensitive; top: ignored (may be NULL).
 * a: m x n column-major with leading dimension lda >= max(1, m); never modified on the sender.
 * As with BLACS, every process of the scope must call, with the same m, n and scope; the sender
 * of a broadcast calls xgebs2d, the others xgebr2d.  lda and a are checked locally only: a process
 * that rejects them returns without communicating, and its peers may then wait, as with BLACS.
 * Guarantee: every received element is within the bound's absolute value E of the sender's (for
 * complex data: real and imaginary parts separately).
 * INFO positions: ictxt -1, scope -2, m -4, n -5, a -6, lda -7, rsrc -8, csrc -9, then the rest
 * as numbered per function.
 * ------------------------------------------------------------------------------------------- */

/* Broadcast-send: this process is the source.  bound: argument 8. */
int eccl_sgebs2d(int ictxt, const char *scope, const char *top, int m, int n, const float *a,
                 int lda, const eccl_bound_t *bound);
int eccl_dgebs2d(int ictxt, const char *scope, const char *top, int m, int n, const double *a,
                 int lda, const eccl_bound_t *bound);
int eccl_cgebs2d(int ictxt, const char *scope, const char *top, int m, int n, const float *a,
                 int lda, const eccl_bound_t *bound);
int eccl_zgebs2d(int ictxt, const char *scope, const char *top, int m, int n, const double *a,
                 int lda, const eccl_bound_t *bound);

/* Broadcast-receive from the process at grid coordinates (rsrc, csrc): for scope 'R' only csrc
 * is used, for 'C' only rsrc, for 'A' both.  bound: argument 10; it must equal the sender's. */
int eccl_sgebr2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int rsrc, int csrc, const eccl_bound_t *bound);
int eccl_dgebr2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int rsrc, int csrc, const eccl_bound_t *bound);
int eccl_cgebr2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int rsrc, int csrc, const eccl_bound_t *bound);
int eccl_zgebr2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int rsrc, int csrc, const eccl_bound_t *bound);

/* Element-wise sum over the scope.  rdest = -1: the sum is left on every process of the scope
 * (cdest ignored); otherwise on the process (rdest, cdest) (scope 'R': column cdest of my row;
 * 'C': row rdest of my column; 'A': both), and a is left unchanged elsewhere (BLACS: undefined).
 * Guarantee: |result - exact sum| <= E + the rounding of the sum in the element type
 * (doc/guarantees.md).  INFO positions: rdest -8, cdest -9, bound -10. */
int eccl_sgsum2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int rdest, int cdest, const eccl_bound_t *bound);
int eccl_dgsum2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int rdest, int cdest, const eccl_bound_t *bound);
int eccl_cgsum2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int rdest, int cdest, const eccl_bound_t *bound);
int eccl_zgsum2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int rdest, int cdest, const eccl_bound_t *bound);

/* Element-wise absolute maximum (gamx2d) / minimum (gamn2d) over the scope, real data: the result
 * is the value, with its sign, of the element of largest (smallest) magnitude, as in BLACS.
 * The BLACS argument list is kept, but eccl cannot report where the extremum was: ldia must be
 * -1 (BLACS' "ra and ca are not referenced"; any other value gives INFO = -10), and ra, ca are
 * not referenced.  rdest/cdest as for gsum2d.
 * Guarantee (result v, contributions x_p): | |v| - max_p |x_p| | <= E, and v is within E of a
 * contribution whose magnitude is within 2E of the extreme one (so v has the BLACS sign except
 * when two contributions of opposite signs tie within 2E).  gamn2d sends two values per element
 * (the smallest non-negative and the largest non-positive contribution) and marks an absent one
 * with -inf, which is stored losslessly: it compresses less than gamx2d.
 * INFO positions: ra -8, ca -9, ldia -10, rdest -11, cdest -12, bound -13. */
int eccl_sgamx2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int *ra, int *ca, int ldia, int rdest, int cdest, const eccl_bound_t *bound);
int eccl_dgamx2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int *ra, int *ca, int ldia, int rdest, int cdest, const eccl_bound_t *bound);
int eccl_sgamn2d(int ictxt, const char *scope, const char *top, int m, int n, float *a, int lda,
                 int *ra, int *ca, int ldia, int rdest, int cdest, const eccl_bound_t *bound);
int eccl_dgamn2d(int ictxt, const char *scope, const char *top, int m, int n, double *a, int lda,
                 int *ra, int *ca, int ldia, int rdest, int cdest, const eccl_bound_t *bound);

/* ---------------------------------------------------------------------------------------------
 * Descriptor-aware panel broadcasts (SUMMA, PBLAS-style global indices)
 * ------------------------------------------------------------------------------------------- */

/* Rows of sub(A) = A(ia:ia+m-1, :) (distributed by desc's MB/RSRC) that this process holds; they
 * are contiguous in its local array.  Columns likewise for A(:, ja:ja+n-1).  -1 when the context
 * is invalid or the process is not in its grid, or m/n < 0, ia/ja < 1, MB/NB < 1, RSRC/CSRC out
 * of range (no other check). */
int eccl_desc_local_rows(int m, int ia, const int *desc);
int eccl_desc_local_cols(int n, int ja, const int *desc);

/* Number of columns from global column j (1-based) to the end of its block of width nb, capped
 * at n: the widest panel eccl_panel_bcast_col accepts at j.  0 when n <= 0, nb < 1 or j < 1. */
int eccl_panel_width(int j, int nb, int n);

/* Broadcast the block column sub(A) = A(ia:ia+m-1, ja:ja+kb-1) along each process row, from the
 * process column that owns those columns, into work on every process of the grid's rows.
 * The kb columns must lie in one block column of A (1 <= kb <= eccl_panel_width(ja, NB, N-ja+1),
 * so a first partial block when (ja-1) % NB != 0 is fine); kb = 0 or m = 0 does nothing.
 * Each process row handles its own rows: on exit, work (mloc x kb, leading dimension ldw >=
 * max(1, mloc), mloc = eccl_desc_local_rows(m, ia, desca)) holds the rows of sub(A) this process
 * row owns, in local order (the same rows as the local part of a C distributed with A's MB and
 * RSRC, as SUMMA needs).  On the owning process column work is an exact copy; elsewhere every
 * element is within the bound's E of it.  a is the local array (LLD x local columns); it is read
 * on the owning column only.  Collective over the grid (every process calls with the same global
 * arguments); each process row runs one broadcast.
 * Checks: local ones (ldw, a and work pointers, LLD) are agreed within the process row (one small
 * lossless allreduce), so every process of a row returns the same INFO (the most negative one
 * found in the row) and none is left waiting; global arguments that differ between processes
 * give ECCL_ERR_MISMATCH.
 * dtype: ECCL_FLOAT32, _FLOAT64, _COMPLEX64 or _COMPLEX128 (argument 10).
 * INFO: m -1, kb -2, a -3, ia -4, ja -5, desca -(600+j), work -7, ldw -8, bound -9, dtype -10. */
int eccl_panel_bcast_col(int m, int kb, const void *a, int ia, int ja, const int *desca,
                         void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype);

/* The transpose case: broadcast the block row sub(B) = B(ib:ib+kb-1, jb:jb+n-1) along each
 * process column, from the process row that owns those rows, into work (kb x nloc, leading
 * dimension ldw >= max(1, kb), nloc = eccl_desc_local_cols(n, jb, descb)): the columns of sub(B)
 * this process column owns, in local order.  The kb rows must lie in one block row of B
 * (1 <= kb <= eccl_panel_width(ib, MB, M-ib+1)).  Agreement and checks as above, within the
 * process column.
 * INFO: kb -1, n -2, b -3, ib -4, jb -5, descb -(600+j), work -7, ldw -8, bound -9, dtype -10. */
int eccl_panel_bcast_row(int kb, int n, const void *b, int ib, int jb, const int *descb,
                         void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype);

/* Nonblocking twins, for look-ahead (SUMMA's panel k+1 travelling while panel k multiplies): the
 * same arguments, checks, agreement and INFO, plus req (argument 11; NULL: -11). The checks and
 * the agreement (one small allreduce within the row / column) complete before the call returns,
 * as does the owner's copy of its block into work; the broadcast itself is posted on the row's
 * (column's) eccl communicator (eccl_ibcast, doc/collectives.md "Nonblocking calls") and completes
 * at eccl_wait(req), which returns its result; the grid's totals (eccl_blacs_totals) count it
 * then. work must stay untouched until the wait. Where work is not contiguous (ldw larger than the
 * local rows, with more than one column) the broadcast runs before the call returns. On return
 * *req is the request, or ECCL_REQUEST_NULL when nothing is left in flight (an error, an empty
 * panel, a broadcast already done); eccl_wait accepts both. */
int eccl_panel_ibcast_col(int m, int kb, const void *a, int ia, int ja, const int *desca,
                          void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype,
                          eccl_request_t *req);
int eccl_panel_ibcast_row(int kb, int n, const void *b, int ib, int jb, const int *descb,
                          void *work, int ldw, const eccl_bound_t *bound, eccl_dtype_t dtype,
                          eccl_request_t *req);

#ifdef __cplusplus
}
#endif
#endif /* ECCL_SCALAPACK_H */
