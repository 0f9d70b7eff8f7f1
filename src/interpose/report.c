/*
 * report.c - per-grid counters and the ECCL_BLACS_REPORT summary lines.
 *
 * Every grid this process joins (seen when the real gridinit/gridmap returns a context) gets an
 * entry; every intercepted broadcast or sum counts on its context's entry.  The summary of a grid
 * sums the counters and eccl's totals (eccl_blacs_totals) over the grid's processes and its first
 * process prints one line:
 *   - at blacs_gridexit, which every process of the grid calls: one reduction on the grid's MPI
 *     communicator, then the entry is dropped (BLACS reuses context numbers);
 *   - at blacs_exit, and at MPI_Finalize (a delete callback on MPI_COMM_SELF, which MPI runs
 *     first in MPI_Finalize), for every grid still alive.  Processes may hold their grids in any
 *     order, so these reductions are nonblocking ones, all posted, then completed together: no
 *     order between grids is needed, and nothing waits for a process that is not in a grid.
 * The table is guarded by a mutex; the reductions run outside it.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "eccl_scalapack.h"
#include "interpose/interpose.h"

void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_get(int ictxt, int what, int *val);
MPI_Comm Cblacs2sys_handle(int sysctxt);

typedef struct ib_grid {
    int ictxt;
    uint64_t intercepted, forwarded;
} ib_grid_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ib_grid_t *grids;
static int ngrids, capgrids;
static int finalize_hook; /* the MPI_COMM_SELF attribute is set */

/* The entry of ictxt, added when absent (NULL when out of memory).  Under the lock. */
static ib_grid_t *entry(int ictxt)
{
    for (int i = 0; i < ngrids; i++)
        if (grids[i].ictxt == ictxt) return &grids[i];
    if (ngrids == capgrids) {
        int cap = capgrids ? 2 * capgrids : 8;
        ib_grid_t *g = realloc(grids, sizeof *g * (size_t)cap);
        if (!g) return NULL;
        grids = g;
        capgrids = cap;
    }
    ib_grid_t *g = &grids[ngrids++];
    memset(g, 0, sizeof *g);
    g->ictxt = ictxt;
    return g;
}

static int at_finalize(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)attr;
    (void)extra;
    ib_report_all();
    return MPI_SUCCESS;
}

static void hook_finalize(void)
{
    int keyval = MPI_KEYVAL_INVALID;
    if (finalize_hook) return;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &keyval, NULL) == MPI_SUCCESS &&
        MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL) == MPI_SUCCESS)
        finalize_hook = 1;
}

void ib_grid_created(int ictxt)
{
    if (ictxt < 0) return; /* this process is not in the grid */
    pthread_mutex_lock(&lock);
    ib_grid_t *g = entry(ictxt);
    if (g) g->intercepted = g->forwarded = 0; /* a reused context number starts afresh */
    hook_finalize();
    pthread_mutex_unlock(&lock);
}

void ib_count(int ictxt, int forwarded)
{
    pthread_mutex_lock(&lock);
    ib_grid_t *g = entry(ictxt);
    if (g) {
        g->intercepted++;
        if (forwarded) g->forwarded++;
    }
    pthread_mutex_unlock(&lock);
}

/* One grid's reduction: what is summed, what is maximised, and its requests. */
enum { N_SUM = 6 };
typedef struct ib_sum {
    int ictxt, first; /* first: this process is rank 0 of the grid's communicator */
    MPI_Comm comm;
    uint64_t mine[N_SUM], all[N_SUM]; /* intercepted, forwarded, eccl calls, compressed, raw, sent */
    double eb_mine, eb_all;
    MPI_Request req[2];
} ib_sum_t;

/* Take ictxt's entry out of the table and post its reduction; 0 when the grid is not usable. */
static int post(ib_sum_t *s, int ictxt)
{
    int sysh = -1, nprow, npcol, myrow, mycol;
    memset(s, 0, sizeof *s);
    s->ictxt = ictxt;
    s->req[0] = s->req[1] = MPI_REQUEST_NULL;
    Cblacs_gridinfo(ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0) return 0;
    Cblacs_get(ictxt, 10, &sysh); /* as src/scalapack/grid.c */
    s->comm = Cblacs2sys_handle(sysh);
    if (s->comm == MPI_COMM_NULL) return 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < ngrids; i++) {
        if (grids[i].ictxt != ictxt) continue;
        s->mine[0] = grids[i].intercepted;
        s->mine[1] = grids[i].forwarded;
        grids[i] = grids[--ngrids];
        break;
    }
    pthread_mutex_unlock(&lock);
    eccl_blacs_totals_t t;
    if (eccl_blacs_totals(ictxt, &t, 1) == ECCL_SUCCESS) {
        s->mine[2] = t.calls;
        s->mine[3] = t.calls_compressed;
        s->mine[4] = t.bytes_raw;
        s->mine[5] = t.bytes_sent;
        s->eb_mine = t.max_eb;
    }
    MPI_Comm_rank(s->comm, &s->first);
    s->first = s->first == 0;
    MPI_Ireduce(s->mine, s->all, N_SUM, MPI_UINT64_T, MPI_SUM, 0, s->comm, &s->req[0]);
    MPI_Ireduce(&s->eb_mine, &s->eb_all, 1, MPI_DOUBLE, MPI_MAX, 0, s->comm, &s->req[1]);
    return 1;
}

static void print(const ib_sum_t *s)
{
    int nprow, npcol, myrow, mycol;
    const uint64_t *a = s->all;
    if (!s->first || a[0] == 0) return;
    Cblacs_gridinfo(s->ictxt, &nprow, &npcol, &myrow, &mycol);
    double raw = (double)a[4], sent = (double)a[5];
    fprintf(stderr,
            "eccl_blacs: grid %dx%d (context %d): %llu calls intercepted, %llu through eccl "
            "(%llu compressed), %llu to BLACS; eccl bytes %.6g MB raw -> %.6g MB sent (%.1f%% "
            "saved); largest bound %.3g\n",
            nprow, npcol, s->ictxt, (unsigned long long)a[0], (unsigned long long)(a[0] - a[1]),
            (unsigned long long)a[3], (unsigned long long)a[1], raw / 1e6, sent / 1e6,
            raw > 0 ? 100.0 * (1.0 - sent / raw) : 0.0, s->eb_all);
    fflush(stderr);
}

void ib_report_grid(int ictxt)
{
    ib_sum_t s;
    if (!post(&s, ictxt)) return;
    MPI_Wait(&s.req[0], MPI_STATUS_IGNORE);
    MPI_Wait(&s.req[1], MPI_STATUS_IGNORE);
    print(&s);
}

void ib_report_all(void)
{
    pthread_mutex_lock(&lock);
    int n = ngrids;
    int *ctx = n ? malloc(sizeof(int) * (size_t)n) : NULL;
    for (int i = 0; ctx && i < n; i++) ctx[i] = grids[i].ictxt;
    pthread_mutex_unlock(&lock);
    if (!ctx) return;
    ib_sum_t *s = calloc((size_t)n, sizeof *s);
    int k = 0;
    for (int i = 0; s && i < n; i++)
        if (post(&s[k], ctx[i])) k++;
    /* every reduction is posted before any is waited for */
    for (int i = 0; i < k; i++) {
        MPI_Wait(&s[i].req[0], MPI_STATUS_IGNORE);
        MPI_Wait(&s[i].req[1], MPI_STATUS_IGNORE);
        print(&s[i]);
    }
    free(s);
    free(ctx);
}
