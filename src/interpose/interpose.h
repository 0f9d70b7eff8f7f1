/*
 * interpose.h - libeccl_blacs, the BLACS interposer (doc/blacs-interposer.md).
 *
 * libeccl_blacs defines the BLACS broadcast and sum entry points (C Cxgebs2d / Cxgebr2d /
 * Cxgsum2d and Fortran xgebs2d_ / xgebr2d_ / xgsum2d_, x = s, d, c, z) and the grid life-cycle
 * calls it needs to watch (gridinit, gridmap, gridexit, exit).  Loaded ahead of ScaLAPACK (by
 * LD_PRELOAD or by link order) it sees every such call of an unmodified program, routes it to
 * eccl's BLACS drop-ins (src/scalapack/blacs.c) when the policy from the environment says so, and
 * otherwise calls the real BLACS routine, found with dlsym(RTLD_NEXT).
 *
 * The files: policy.c reads and checks the environment once; entry.c holds the entry points and
 * the routing; report.c keeps per-grid counters and prints the ECCL_BLACS_REPORT lines.
 *
 * State: the policy (written once under pthread_once, read-only after), the table of real BLACS
 * routines (each slot written once, atomically) and the per-grid counters (report.c, under a
 * mutex).  These are the library's only globals; all are thread-safe.
 */
#ifndef ECCL_INTERPOSE_H
#define ECCL_INTERPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "eccl.h"

/* Internal to the library: only the BLACS entry points are exported. */
#pragma GCC visibility push(hidden)

/* ---- policy.c ---- */
enum { IB_OFF = 0, IB_LOSSLESS = 1, IB_ABS = 2, IB_REL = 3 };
enum { IB_OP_BCAST = 1u, IB_OP_SUM = 2u };
#define IB_MAX_CONTEXTS 64

typedef struct ib_policy {
    int mode;               /* IB_OFF, IB_LOSSLESS, IB_ABS, IB_REL */
    double value;           /* E of abs:E / rel:E */
    eccl_bound_t bound;     /* what the eccl drop-ins are given */
    unsigned ops;           /* IB_OP_* routed to eccl */
    size_t min_bytes;       /* smaller messages go to the real BLACS */
    int ncontexts;          /* 0: every context; else the list below */
    int contexts[IB_MAX_CONTEXTS];
    int report;             /* ECCL_BLACS_REPORT */
} ib_policy_t;

/* The policy, read from the environment at the first call.  An invalid setting stops the
 * program there (ib_fatal), never falls back silently. */
const ib_policy_t *ib_policy(void);

/* Parse the settings (NULL: unset) into *p; returns NULL or a message naming the bad setting.
 * Exposed for the unit test. */
const char *ib_policy_parse(ib_policy_t *p, const char *mode, const char *ops,
                            const char *min_bytes, const char *contexts, const char *report);

/* Print "eccl_blacs: <msg>" (on MPI_COMM_WORLD rank 0 when several processes report the same
 * setting error; every process for a call-specific error) and MPI_Abort the program. */
void ib_fatal(int all_ranks, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* ---- report.c ---- */
/* A grid this process joined (after the real gridinit/gridmap returned a context). */
void ib_grid_created(int ictxt);
/* One intercepted broadcast or sum on ictxt; forwarded = it went to the real BLACS. */
void ib_count(int ictxt, int forwarded);
/* ECCL_BLACS_REPORT: the summary line of one grid, before the real gridexit (collective over
 * the grid, as gridexit is), and of every grid still alive, before blacs_exit / at MPI_Finalize. */
void ib_report_grid(int ictxt);
void ib_report_all(void);

#pragma GCC visibility pop

#endif /* ECCL_INTERPOSE_H */
