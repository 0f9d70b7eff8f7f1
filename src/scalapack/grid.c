/*
 * grid.c - from a BLACS context to eccl communicators.
 *
 * The state of a grid (its row, column and whole-grid eccl communicators, packing buffers and
 * totals) is an attribute of BLACS' own MPI communicator of the grid, obtained with
 * Cblacs_get(ictxt, 10) and Cblacs2sys_handle.  Context numbers are reused after blacs_gridexit, so nothing is cached by
 * ICTXT; gridexit frees BLACS' communicator, which runs the attribute's delete callback, which
 * frees everything here.
 *
 * Row and column communicators are made with MPI_Comm_create_group, which involves only the
 * processes of that row (column), not MPI_Comm_split, which would involve the whole grid: the
 * first eccl call on a row scope is made by that row only, as BLACS allows.  eccl_comm_create
 * duplicates the communicator it is given, so the intermediate one is freed at once: the MPI
 * communicators that live on are the eccl communicators' own, freed with them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "scalapack/sl.h"

static int grid_keyval = MPI_KEYVAL_INVALID;
static int grid_keyval_err = MPI_SUCCESS;
static pthread_once_t grid_keyval_once = PTHREAD_ONCE_INIT;

static void free_comms(sl_grid_t *g)
{
    for (int s = 0; s < SL_NSCOPES; s++) eccl_comm_free(&g->comm[s]);
}

static int grid_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    sl_grid_t *g = attr;
    free_comms(g);
    eccl_pool_free(&g->pool);
    eccl_cuda_free(g->dpack);
    eccl_cuda_stream_destroy(g->dstream);
    free(g);
    return MPI_SUCCESS;
}

static void create_keyval(void)
{
    grid_keyval_err = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, grid_delete, &grid_keyval, NULL);
}

int eccl_sl_scope(const char *scope)
{
    if (!scope) return -1;
    switch (scope[0]) {
    case 'R': case 'r': return SL_SCOPE_ROW;
    case 'C': case 'c': return SL_SCOPE_COL;
    case 'A': case 'a': return SL_SCOPE_ALL;
    default: return -1;
    }
}

eccl_result_t eccl_sl_grid(int ictxt, sl_grid_t **out)
{
    int nprow, npcol, myrow, mycol, flag = 0, what = 10, sysh = -1;
    void *attr = NULL;
    *out = NULL;
    /* Cblacs_gridinfo checks the handle (range, exited) and gives -1 for anything invalid. */
    Cblacs_gridinfo(ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || npcol < 1 || myrow < 0 || myrow >= nprow || mycol < 0 || mycol >= npcol)
        return ECCL_ERR_INVALID_ARG;
    /* The C interface: a program may define its own Fortran-named BLACS wrappers over the C
     * calls (ScaLAPACK's C BLACS tester does), and then blacs_get_ returns a C system handle. The
     * handle is not freed: Csys2blacs_handle reuses one a caller may hold for the same comm. */
    Cblacs_get(ictxt, what, &sysh);
    MPI_Comm grid = Cblacs2sys_handle(sysh);
    if (grid == MPI_COMM_NULL) return ECCL_ERR_INVALID_ARG;
    pthread_once(&grid_keyval_once, create_keyval);
    if (grid_keyval_err != MPI_SUCCESS) return ECCL_ERR_MPI;
    if (MPI_Comm_get_attr(grid, grid_keyval, &attr, &flag) != MPI_SUCCESS) return ECCL_ERR_MPI;
    if (flag) {
        *out = attr;
        return ECCL_SUCCESS;
    }
    sl_grid_t *g = calloc(1, sizeof *g);
    if (!g) return ECCL_ERR_NO_MEMORY;
    g->nprow = nprow;
    g->npcol = npcol;
    g->myrow = myrow;
    g->mycol = mycol;
    g->grid = grid;
    if (MPI_Comm_set_attr(grid, grid_keyval, g) != MPI_SUCCESS) {
        free(g);
        return ECCL_ERR_MPI;
    }
    *out = g;
    return ECCL_SUCCESS;
}

/* Processes of my row (scope ROW) or column (COL), ordered by their column (row), as a
 * communicator involving only them. */
static eccl_result_t line_comm(int ictxt, const sl_grid_t *g, int scope, MPI_Comm *out)
{
    int n = scope == SL_SCOPE_ROW ? g->npcol : g->nprow;
    int *ranks = malloc(sizeof(int) * (size_t)n);
    MPI_Group all = MPI_GROUP_NULL, line = MPI_GROUP_NULL;
    eccl_result_t rc = ECCL_SUCCESS;
    if (!ranks) return ECCL_ERR_NO_MEMORY;
    for (int k = 0; k < n; k++)
        ranks[k] = scope == SL_SCOPE_ROW ? Cblacs_pnum(ictxt, g->myrow, k) : Cblacs_pnum(ictxt, k, g->mycol);
    /* distinct tags for rows and columns (a process joins one of each) */
    const int tag = scope == SL_SCOPE_ROW ? 0x4543 : 0x4544;
    if (MPI_Comm_group(g->grid, &all) != MPI_SUCCESS ||
        MPI_Group_incl(all, n, ranks, &line) != MPI_SUCCESS ||
        MPI_Comm_create_group(g->grid, line, tag, out) != MPI_SUCCESS)
        rc = ECCL_ERR_MPI;
    if (line != MPI_GROUP_NULL) MPI_Group_free(&line);
    if (all != MPI_GROUP_NULL) MPI_Group_free(&all);
    free(ranks);
    return rc;
}

eccl_result_t eccl_sl_comm(int ictxt, sl_grid_t *g, int scope, eccl_comm_t *out)
{
    eccl_result_t rc = ECCL_SUCCESS;
    if (g->comm[scope]) {
        *out = g->comm[scope];
        return ECCL_SUCCESS;
    }
    const eccl_config_t *cfg = g->have_config ? &g->config : NULL;
    if (scope == SL_SCOPE_ALL) {
        rc = eccl_comm_create(g->grid, cfg, &g->comm[scope]);
    } else {
        MPI_Comm line = MPI_COMM_NULL;
        rc = line_comm(ictxt, g, scope, &line);
        if (!rc) rc = eccl_comm_create(line, cfg, &g->comm[scope]);
        if (line != MPI_COMM_NULL) MPI_Comm_free(&line);
    }
    *out = g->comm[scope];
    return rc;
}

eccl_result_t eccl_blacs_comm(int ictxt, const char *scope, eccl_comm_t *comm)
{
    sl_grid_t *g;
    int s = eccl_sl_scope(scope);
    if (!comm) return ECCL_ERR_INVALID_ARG;
    *comm = NULL;
    if (s < 0) return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = eccl_sl_grid(ictxt, &g);
    if (rc) return rc;
    return eccl_sl_comm(ictxt, g, s, comm);
}

eccl_result_t eccl_blacs_configure(int ictxt, const eccl_config_t *config)
{
    sl_grid_t *g;
    eccl_result_t rc = eccl_sl_grid(ictxt, &g);
    if (rc) return rc;
    free_comms(g);
    g->have_config = config != NULL;
    if (config) g->config = *config;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_blacs_totals(int ictxt, eccl_blacs_totals_t *totals, int reset)
{
    sl_grid_t *g;
    eccl_result_t rc = eccl_sl_grid(ictxt, &g);
    if (rc) return rc;
    if (totals) *totals = g->totals;
    if (reset) memset(&g->totals, 0, sizeof g->totals);
    return ECCL_SUCCESS;
}

void eccl_sl_account(sl_grid_t *g, eccl_comm_t comm, int is_bcast_root, int receivers,
                     size_t payload)
{
    eccl_stats_t st;
    if (eccl_comm_last_stats(comm, &st)) return;
    eccl_sl_account_stats(g, &st, is_bcast_root, receivers, payload);
}

void eccl_sl_account_stats(sl_grid_t *g, const eccl_stats_t *s, int is_bcast_root, int receivers, size_t payload)
{
    const eccl_stats_t st = *s;
    eccl_blacs_totals_t *t = &g->totals;
    /* a broadcast: one copy per receiver from its root (none within a one-process scope, where
     * the call is a local copy); a reduction: what eccl reports */
    uint64_t raw = receivers >= 0 ? (is_bcast_root ? (uint64_t)payload * (uint64_t)receivers : 0)
                                  : st.bytes_raw;
    t->calls++;
    t->bytes_raw += raw;
    if (st.compressed) {
        t->calls_compressed++;
        t->bytes_sent += st.bytes_sent;
    } else {
        t->bytes_sent += raw;
    }
    t->t_total += st.t_total;
    t->t_select += st.t_select;
    t->t_codec += st.t_codec;
    t->t_network += st.t_network;
    if (st.bound_requested > t->max_eb) t->max_eb = st.bound_requested;
}
