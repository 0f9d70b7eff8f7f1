/*
 * harness.c - bench/bench_coll: every eccl collective against the same MPI collective on the same
 * data, side by side: time, algorithm bandwidth, compression ratio, and the error of the result
 * checked element by element on every rank against the exact result (the MPI collective run on
 * float64 copies of the inputs). The collectives are described by bench/bench_<coll>.c.
 *
 *   mpiexec -n P bench/bench_coll [--coll NAME|all] [--min BYTES] [--max BYTES] [--dtype T]
 *       [--op OP] [--data KIND] [--bound LIST] [--algorithm LIST] [--iters N] [--warmup N] [--csv]
 *
 * A report, not a test of speed: it never fails on slowness, but it exits 1 when a result is
 * outside its bound (or a call fails), so a run also checks the library's guarantee.
 */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/harness.h"

#define MAX_LIST 16

typedef struct {
    eccl_bound_t b;
    char label[32];
} bound_opt_t;

typedef struct {
    const bench_coll_t *colls[MAX_LIST];
    int ncolls;
    size_t min, max;
    eccl_dtype_t dtype;
    eccl_op_t op;
    char data_spec[600];
    bench_data_t data;
    bound_opt_t bounds[MAX_LIST];
    int nbounds;
    char algos[MAX_LIST][32];
    int nalgos;
    int iters, warmup, csv;
} opts_t;

typedef struct {
    opts_t o;
    int rank, size, root;
    MPI_Comm comm;
    eccl_comm_t ecomm;
    MPI_Datatype mtype;
    size_t esize, reals; /* bytes and real components per element */
    void *input;         /* this rank's data, enough for the largest size */
    int failures, rows;
} bench_t;

/* One (collective, size): buffers (eccl and MPI write to their own), the exact result. */
typedef struct {
    const bench_coll_t *coll;
    bench_counts_t n;
    bench_call_t call, call_mpi;
    void *recv, *recv_mpi;
    double *ref, *sabs; /* exact result; SUM/AVG: the same reduction of |x| (rounding allowance) */
    double range;       /* of the data a REL bound covers */
    double own_range;   /* of this rank's own input */
    double err_mpi;     /* the baseline's max error (the rounding of MPI's reduction) */
} run_t;

/* Error figures of one result, reduced over ranks. */
typedef struct {
    double maxerr, worst; /* max |y - exact|; max |y - exact| / E (-1: E = 0) */
    double viol;          /* elements outside the allowance */
} check_t;

static const bench_coll_t *const all_colls[] = {
    &bench_bcast, &bench_allreduce, &bench_reduce, &bench_reduce_scatter_block,
    &bench_allgather, &bench_scatter, &bench_gather, &bench_sendrecv_replace};
#define NCOLLS ((int)(sizeof all_colls / sizeof *all_colls))

static const char *const op_names[] = {"sum", "max", "min", "avg", "prod"};

/* ------------------------------------------------------------------------------------------ */
/* options                                                                                      */

static void usage(void)
{
    puts("usage: mpiexec -n P bench/bench_coll [options]\n"
         "  --coll NAME|all     bcast, allreduce, reduce, reduce_scatter_block, allgather, scatter,\n"
         "                      gather, sendrecv_replace, a comma list, or all (default all)\n"
         "  --min BYTES         smallest size, K/M/G suffixes (KiB...) allowed (default 1K)\n"
         "  --max BYTES         largest size; sizes double from --min (default 4M; up to 256M)\n"
         "  --dtype T           float32 (default), float64, complex64, complex128\n"
         "  --op OP             reductions: sum (default), max, min, avg, prod\n"
         "  --data KIND         smooth (default), randomwalk, normal, netcdf[:FILE:VAR]\n"
         "                      (netcdf: default pop.nc:t in $ECCL_NCARG_DIR or\n"
         "                      /usr/share/ncarg/data/cdf; fill values become 0, field tiled)\n"
         "  --bound LIST        comma list of abs:E, rel:E, lossless (default abs:1e-4)\n"
         "  --algorithm LIST    auto (the cost model chooses, default) or algorithm names\n"
         "                      (eccl-info lists them); a comma list gives one row per entry\n"
         "  --iters N           timed iterations per figure (default 5)\n"
         "  --warmup N          untimed iterations first (default 1)\n"
         "  --csv               machine-readable output\n"
         "Sizes: bcast, allreduce, reduce, sendrecv_replace: each rank's buffer; allgather,\n"
         "gather: the gathered result; scatter: the root's buffer; reduce_scatter_block: each\n"
         "rank's input. Exit status 1 if any result is outside its bound or a call failed.");
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    double v = strtod(s, &end);
    double mult = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mult = 1024.0; end++; break;
    case 'M': mult = 1048576.0; end++; break;
    case 'G': mult = 1073741824.0; end++; break;
    default: break;
    }
    if (!strcmp(end, "iB") || !strcmp(end, "B")) end += strlen(end);
    if (end == s || *end || !(v > 0) || v * mult > 4294967296.0) return -1;
    *out = (size_t)(v * mult);
    return 0;
}

/* Split a comma list into at most MAX_LIST items of up to 63 characters. */
static int split_list(const char *s, char items[][64], int max)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (n == max || len == 0 || len > 63) return -1;
        memcpy(items[n], p, len);
        items[n++][len] = '\0';
        p += len + (c ? 1 : 0);
    }
    return n;
}

static int parse_colls(const char *s, opts_t *o)
{
    char items[MAX_LIST][64];
    int n = split_list(s, items, MAX_LIST);
    o->ncolls = 0;
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < NCOLLS; k++) {
            if (strcmp(items[i], "all") && strcmp(items[i], all_colls[k]->name)) continue;
            if (o->ncolls < MAX_LIST) o->colls[o->ncolls++] = all_colls[k];
            found = 1;
        }
        if (!found) return -1;
    }
    return n > 0 ? 0 : -1;
}

static int parse_bounds(const char *s, opts_t *o)
{
    char items[MAX_LIST][64];
    int n = split_list(s, items, MAX_LIST);
    for (int i = 0; i < n; i++) {
        bound_opt_t *b = &o->bounds[i];
        char *end = NULL;
        snprintf(b->label, sizeof b->label, "%s", items[i]);
        if (!strcmp(items[i], "lossless")) {
            b->b = (eccl_bound_t)ECCL_BOUND_LOSSLESS;
            continue;
        }
        int rel = !strncmp(items[i], "rel:", 4);
        if (!rel && strncmp(items[i], "abs:", 4)) return -1;
        double v = strtod(items[i] + 4, &end);
        if (end == items[i] + 4 || *end || !(v > 0) || !isfinite(v)) return -1;
        b->b = rel ? (eccl_bound_t)ECCL_BOUND_REL(v) : (eccl_bound_t)ECCL_BOUND_ABS(v);
    }
    o->nbounds = n;
    return n > 0 ? 0 : -1;
}

static int parse_algos(const char *s, opts_t *o)
{
    char items[MAX_LIST][64];
    int n = split_list(s, items, MAX_LIST);
    for (int i = 0; i < n; i++) {
        if (strlen(items[i]) >= sizeof o->algos[i]) return -1;
        snprintf(o->algos[i], sizeof o->algos[i], "%s", items[i]);
    }
    o->nalgos = n;
    return n > 0 ? 0 : -1;
}

static int parse_name(const char *s, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(s, names[k])) return k;
    return -1;
}

static int parse_dtype(const char *s, eccl_dtype_t *dt)
{
    static const char *const names[] = {"float32", "float64", "complex64", "complex128"};
    int k = parse_name(s, names, 4);
    *dt = (eccl_dtype_t)(k + 1);
    return k;
}

static void set_defaults(opts_t *o)
{
    memset(o, 0, sizeof *o);
    parse_colls("all", o);
    o->min = 1024;
    o->max = 4 << 20;
    o->dtype = ECCL_FLOAT32;
    o->op = ECCL_OP_SUM;
    snprintf(o->data_spec, sizeof o->data_spec, "smooth");
    parse_bounds("abs:1e-4", o);
    parse_algos("auto", o);
    o->iters = 5;
    o->warmup = 1;
}

/* One option; 0 on success. */
static int parse_opt(int c, const char *arg, opts_t *o)
{
    switch (c) {
    case 'c': return parse_colls(arg, o);
    case 'm': return parse_size(arg, &o->min);
    case 'M': return parse_size(arg, &o->max);
    case 't': return parse_dtype(arg, &o->dtype) < 0 ? -1 : 0;
    case 'o': {
        int k = parse_name(arg, op_names, 5);
        o->op = (eccl_op_t)k;
        return k < 0 ? -1 : 0;
    }
    case 'd': snprintf(o->data_spec, sizeof o->data_spec, "%s", arg); return 0;
    case 'b': return parse_bounds(arg, o);
    case 'a': return parse_algos(arg, o);
    case 'i': o->iters = atoi(arg); return o->iters > 0 ? 0 : -1;
    case 'w': o->warmup = atoi(arg); return o->warmup >= 0 ? 0 : -1;
    case 'C': o->csv = 1; return 0;
    default: return -1;
    }
}

/* 0: run; 1: --help done; 2: bad usage (rank 0 has said why). */
static int parse_options(int argc, char **argv, opts_t *o, int rank)
{
    static struct option opts[] = {
        {"coll", 1, 0, 'c'},  {"min", 1, 0, 'm'},       {"max", 1, 0, 'M'},   {"dtype", 1, 0, 't'},
        {"op", 1, 0, 'o'},    {"data", 1, 0, 'd'},      {"bound", 1, 0, 'b'}, {"algorithm", 1, 0, 'a'},
        {"iters", 1, 0, 'i'}, {"warmup", 1, 0, 'w'},    {"csv", 0, 0, 'C'},   {"help", 0, 0, 'h'},
        {0, 0, 0, 0}};
    set_defaults(o);
    int c;
    opterr = rank == 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'h') {
            if (rank == 0) usage();
            return 1;
        }
        if (parse_opt(c, optarg, o)) {
            if (rank == 0 && c != '?') fprintf(stderr, "bench_coll: bad value \"%s\"\n", optarg);
            if (rank == 0) usage();
            return 2;
        }
    }
    const char *why = optind < argc ? "unexpected argument"
                      : o->min > o->max ? "--min is larger than --max"
                      : o->dtype >= ECCL_COMPLEX64 && o->op != ECCL_OP_SUM && o->op != ECCL_OP_AVG
                          ? "complex data: only --op sum or avg"
                          : NULL;
    if (why && rank == 0) fprintf(stderr, "bench_coll: %s\n", why);
    return why ? 2 : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* set-up and header                                                                            */

static MPI_Datatype mpi_type(eccl_dtype_t dt)
{
    switch (dt) {
    case ECCL_FLOAT64: return MPI_DOUBLE;
    case ECCL_COMPLEX64: return MPI_C_FLOAT_COMPLEX;
    case ECCL_COMPLEX128: return MPI_C_DOUBLE_COMPLEX;
    default: return MPI_FLOAT;
    }
}

static MPI_Op mpi_op(eccl_op_t op)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};
    return ops[op];
}

static int setup(bench_t *b)
{
    char err[600] = "";
    opts_t *o = &b->o;
    b->comm = MPI_COMM_WORLD;
    b->mtype = mpi_type(o->dtype);
    b->esize = eccl_dtype_size(o->dtype);
    b->reals = o->dtype >= ECCL_COMPLEX64 ? 2 : 1;
    int bad = bench_data_parse(o->data_spec, &o->data, err, sizeof err) ||
              bench_data_load(&o->data, err, sizeof err);
    size_t nreal = o->max / b->esize * b->reals;
    b->input = bad ? NULL : malloc(nreal * (b->esize / b->reals) + 16);
    if (!bad && !b->input) snprintf(err, sizeof err, "no memory for %zu bytes of input", o->max);
    if (b->input) bench_data_fill(&o->data, b->rank, b->size, o->dtype, b->input, nreal);
    eccl_result_t rc = eccl_comm_create(b->comm, NULL, &b->ecomm);
    if (rc) snprintf(err, sizeof err, "eccl_comm_create: %s", eccl_strerror(rc));
    int any = err[0] != '\0';
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, b->comm);
    if (err[0]) fprintf(stderr, "bench_coll [rank %d]: %s\n", b->rank, err);
    return any;
}

/* Ranks on rank 0's node (shared-memory domain), and how many nodes there are. */
static void node_layout(bench_t *b, int *local, int *nodes)
{
    MPI_Comm node;
    MPI_Comm_split_type(b->comm, MPI_COMM_TYPE_SHARED, b->rank, MPI_INFO_NULL, &node);
    int lrank, first;
    MPI_Comm_size(node, local);
    MPI_Comm_rank(node, &lrank);
    first = lrank == 0;
    MPI_Allreduce(&first, nodes, 1, MPI_INT, MPI_SUM, b->comm);
    MPI_Bcast(local, 1, MPI_INT, 0, b->comm);
    MPI_Comm_free(&node);
}

static void print_env(const char *pfx)
{
    extern char **environ;
    const char *keep[] = {"ECCL_", "UCX_", "MPIR_CVAR_", "OMP_", "FI_"};
    printf("%s environment:", pfx);
    for (char **e = environ; *e; e++)
        for (unsigned k = 0; k < sizeof keep / sizeof *keep; k++)
            if (!strncmp(*e, keep[k], strlen(keep[k]))) printf(" %s", *e);
    printf("\n");
}

static void print_header(bench_t *b)
{
    int local, nodes, len;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    node_layout(b, &local, &nodes);
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    if (b->rank) return;
    const char *pfx = "#";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("%s eccl bench_coll: eccl %s; %s\n", pfx, eccl_version_string(), lib);
    printf("%s %d ranks on %d node(s), %d on rank 0's node with %ld cores online: %.2f ranks per core\n",
           pfx, b->size, nodes, local, cores, cores > 0 ? (double)local / (double)cores : 0.0);
    print_env(pfx);
    printf("%s dtype %s, op %s (reductions), data: %s\n", pfx, eccl_dtype_name(b->o.dtype),
           op_names[b->o.op], b->o.data.desc);
    printf("%s time: median of %d iterations (after %d warm-up) of the slowest rank's time, "
           "MPI_Barrier before each call; MPI and eccl calls alternate (both see the same load); "
           "GB/s: bytes / time\n",
           pfx, b->o.iters, b->o.warmup);
    printf("%s ratio: bytes eccl would have sent uncompressed / bytes it sent, summed over ranks "
           "(eccl_comm_last_stats); err/bound: max over ranks and elements of |result - exact| / "
           "bound (exact: the MPI collective on float64 copies); speedup: MPI time / eccl time\n",
           pfx);
}

static void print_coll_header(const bench_t *b, const bench_coll_t *coll)
{
    if (b->rank) return;
    if (b->o.csv) {
        static int done;
        if (!done++)
            printf("coll,ranks,dtype,op,data,bytes,count,bound,E,algorithm_requested,algorithm,"
                   "compressed,reason,t_mpi_s,t_eccl_s,speedup,bw_mpi_GBs,bw_eccl_GBs,ratio,"
                   "bytes_raw,bytes_sent,maxerr,err_over_bound,violations,maxerr_mpi,model_ratio,"
                   "model_t_mpi_s,model_t_chosen_s\n");
        return;
    }
    printf("\n# %s: eccl_%s vs %s, %d ranks, %s%s%s, root 0\n", coll->name, coll->name,
           coll->mpi_name, b->size, eccl_dtype_name(b->o.dtype), coll->reduction ? ", op " : "",
           coll->reduction ? op_names[b->o.op] : "");
    printf("%12s %10s %-10s %10s %10s %7s %8s %9s %7s %9s %-5s %s\n", "bytes", "count", "bound",
           "MPI us", "eccl us", "speedup", "MPI GB/s", "eccl GB/s", "ratio", "err/bound", "check",
           "eccl algorithm (why)");
}

/* ------------------------------------------------------------------------------------------ */
/* the exact result, the bound, the check                                                       */

static double get_real(const bench_t *b, const void *buf, size_t i)
{
    return b->esize / b->reals == 8 ? ((const double *)buf)[i] : (double)((const float *)buf)[i];
}

/* The calls on the real buffers (recv: the result, or the in-place buffer). */
static void make_call(bench_t *b, run_t *s)
{
    bench_call_t *c = &s->call;
    memset(c, 0, sizeof *c);
    c->sendbuf = s->coll->in_place || !s->n.nsend ? NULL : b->input;
    c->recvbuf = s->recv;
    c->count = s->n.count;
    c->mtype = b->mtype;
    c->mop = mpi_op(b->o.op);
    c->dtype = b->o.dtype;
    c->op = b->o.op;
    c->root = b->root;
    c->dest = (b->rank + 1) % b->size;
    c->source = (b->rank + b->size - 1) % b->size;
    c->comm = b->comm;
    c->ecomm = b->ecomm;
    s->call_mpi = *c;
    s->call_mpi.recvbuf = s->recv_mpi;
}

/* The collective's reference run on float64 inputs x into out (op: the MPI op to apply). */
static int reference_run(bench_t *b, run_t *s, const double *x, double *out, MPI_Op op)
{
    bench_call_t c = s->call;
    c.sendbuf = s->coll->in_place || !s->n.nsend ? NULL : x;
    c.recvbuf = out;
    c.count = s->n.count * b->reals;
    c.mtype = MPI_DOUBLE;
    c.mop = op;
    if (s->coll->in_place) memcpy(out, x, s->n.nsend * b->reals * sizeof *x);
    return s->coll->reference(&c);
}

static double *alloc_doubles(size_t n) { return malloc((n ? n : 1) * sizeof(double)); }

static int make_reference(bench_t *b, run_t *s)
{
    size_t nin = s->n.nsend * b->reals, nout = s->n.nrecv * b->reals;
    double *x = alloc_doubles(nin);
    s->ref = alloc_doubles(nout);
    int need_abs = s->coll->reduction && (b->o.op == ECCL_OP_SUM || b->o.op == ECCL_OP_AVG);
    s->sabs = need_abs ? alloc_doubles(nout) : NULL;
    if (!x || !s->ref || (need_abs && !s->sabs)) return -1;
    for (size_t i = 0; i < nin; i++) x[i] = get_real(b, b->input, i);
    int rc = reference_run(b, s, x, s->ref, s->call.mop);
    if (b->o.op == ECCL_OP_AVG && s->coll->reduction)
        for (size_t i = 0; i < nout; i++) s->ref[i] /= b->size;
    if (need_abs) {
        for (size_t i = 0; i < nin; i++) x[i] = fabs(x[i]);
        rc = rc ? rc : reference_run(b, s, x, s->sabs, MPI_SUM);
    }
    free(x);
    return rc;
}

/* Range of the finite data a REL bound covers: everyone's, the root's or the sender's. */
static double data_range(bench_t *b, run_t *s)
{
    double v[2] = {-INFINITY, -INFINITY}; /* -min, max */
    for (size_t i = 0; i < s->n.nsend * b->reals; i++) {
        double x = get_real(b, b->input, i);
        if (!isfinite(x)) continue;
        v[0] = -x > v[0] ? -x : v[0];
        v[1] = x > v[1] ? x : v[1];
    }
    s->own_range = v[0] + v[1] > 0 ? v[0] + v[1] : 0.0;
    if (s->coll->range == BENCH_RANGE_ALL) MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_MAX, b->comm);
    else if (s->coll->range == BENCH_RANGE_ROOT) MPI_Bcast(v, 2, MPI_DOUBLE, b->root, b->comm);
    else MPI_Sendrecv_replace(v, 2, MPI_DOUBLE, s->call.dest, 1, s->call.source, 1, b->comm, MPI_STATUS_IGNORE);
    return v[0] + v[1] > 0 ? v[0] + v[1] : 0.0;
}

/* The absolute bound E on the result that the user's bound promises (doc/guarantees.md). */
static double result_bound(const run_t *s, const eccl_bound_t *bound)
{
    if (bound->mode == ECCL_MODE_LOSSLESS) return 0.0;
    double E = bound->mode == ECCL_MODE_ABS ? bound->value : bound->value * s->range;
    return E < 1e301 ? E : 1e301;
}

/* What element i may differ from the exact result: E plus, for SUM/AVG/PROD, the rounding of the
 * result in the element type (doubled for float64 data, whose float64 reference rounds too). */
static double allowance(const bench_t *b, const run_t *s, size_t i, double E)
{
    if (!s->coll->reduction || b->o.op == ECCL_OP_MAX || b->o.op == ECCL_OP_MIN) return E;
    double p = b->size, u = b->esize / b->reals == 8 ? 0x1p-53 : 0x1p-24;
    double k = (p + 2) * (b->esize / b->reals == 8 ? 2 : 1);
    if (b->o.op == ECCL_OP_SUM) return E + k * u * (s->sabs[i] + p * E);
    if (b->o.op == ECCL_OP_AVG) return E + k * u * (s->sabs[i] / p + E) + u * fabs(s->ref[i]);
    return E + k * u * fabs(s->ref[i]);
}

static void check(bench_t *b, const run_t *s, double E, const void *y_buf, check_t *out)
{
    double v[3] = {0, E > 0 ? 0 : -1, 0};
    for (size_t i = 0; i < s->n.nrecv * b->reals; i++) {
        double r = s->ref[i], y = get_real(b, y_buf, i);
        if (!isfinite(r)) {
            v[2] += isnan(r) ? !isnan(y) : y != r;
            continue;
        }
        double e = (double)fabsl((long double)y - (long double)r);
        if (!(e <= allowance(b, s, i, E))) v[2]++;
        if (!(e <= v[0])) v[0] = isnan(e) ? INFINITY : e;
        if (E > 0 && e / E > v[1]) v[1] = e / E;
    }
    double sum = v[2];
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_MAX, b->comm);
    MPI_Allreduce(&sum, &v[2], 1, MPI_DOUBLE, MPI_SUM, b->comm);
    out->maxerr = v[0];
    out->worst = v[1];
    out->viol = v[2];
}

/* ------------------------------------------------------------------------------------------ */
/* timing                                                                                       */

static void fill_junk(const bench_t *b, const run_t *s, void *buf)
{
    if (s->n.nrecv) memset(buf, 0xFF, s->n.nrecv * b->esize); /* NaN in every dtype */
}

/* In-place collectives start every call from the rank's own data. */
static void prepare(const bench_t *b, const run_t *s, void *buf)
{
    if (s->coll->in_place) memcpy(buf, b->input, s->n.nsend * b->esize);
}

static void scale_avg(const bench_t *b, const run_t *s, void *buf)
{
    size_t n = s->n.nrecv * b->reals;
    if (b->esize / b->reals == 8)
        for (size_t i = 0; i < n; i++) ((double *)buf)[i] /= (double)b->size;
    else
        for (size_t i = 0; i < n; i++) ((float *)buf)[i] /= (float)b->size;
}

/* One call, timed after a barrier: eccl with `bound`, or the plain MPI collective (bound NULL). */
static double call_once(const bench_t *b, run_t *s, const eccl_bound_t *bound, int *err)
{
    prepare(b, s, bound ? s->recv : s->recv_mpi);
    MPI_Barrier(b->comm);
    double t0 = MPI_Wtime();
    int rc = bound ? (int)s->coll->run_eccl(&s->call, bound) : s->coll->run_mpi(&s->call_mpi);
    if (!bound && !rc && s->coll->reduction && b->o.op == ECCL_OP_AVG) scale_avg(b, s, s->recv_mpi);
    double dt = MPI_Wtime() - t0;
    if (rc && !*err) *err = rc;
    return dt;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of the slowest rank's times of n iterations. */
static double median_max(const bench_t *b, double *t, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, b->comm);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* MPI and eccl calls alternate, so that both see the same load of the machine; the medians go
 * to t[0] (MPI) and t[1] (eccl). *err gets eccl's first failure (MPI's aborts the program). */
static void time_pair(bench_t *b, run_t *s, const eccl_bound_t *bound, double t[2], int *err)
{
    int n = b->o.iters, mpi_err = 0;
    double *tm = calloc((size_t)n, sizeof *tm), *te = calloc((size_t)n, sizeof *te);
    if (!tm || !te) MPI_Abort(b->comm, 2);
    for (int k = 0; k < b->o.warmup + n; k++) {
        double dm = call_once(b, s, NULL, &mpi_err), de = call_once(b, s, bound, err);
        if (k < b->o.warmup) continue;
        tm[k - b->o.warmup] = dm;
        te[k - b->o.warmup] = de;
    }
    t[0] = median_max(b, tm, n);
    t[1] = median_max(b, te, n);
    free(tm);
    free(te);
}

/* ------------------------------------------------------------------------------------------ */
/* rows                                                                                         */

typedef struct {
    const char *algo_req;
    const bound_opt_t *bound;
    double E, t_mpi, t;
    check_t chk;
    eccl_stats_t st;
    double raw, sent;
    int err;
} row_t;

static void fmt_err(const row_t *r, char *buf, size_t len)
{
    if (r->chk.worst >= 0) snprintf(buf, len, "%.3f", r->chk.worst);
    else if (r->chk.maxerr == 0) snprintf(buf, len, "exact");
    else snprintf(buf, len, "%.2e", r->chk.maxerr);
}

static void print_row(const bench_t *b, const run_t *s, const row_t *r)
{
    double ratio = r->sent > 0 ? r->raw / r->sent : 1.0, bytes = (double)s->n.bytes;
    const char *ok = r->err ? "ERROR" : r->chk.viol > 0 ? "FAIL" : "ok";
    char errs[32];
    fmt_err(r, errs, sizeof errs);
    if (b->o.csv) {
        printf("%s,%d,%s,%s,%s,%zu,%zu,%s,%.6g,%s,%s,%d,\"%s\",%.6e,%.6e,%.4f,%.4f,%.4f,%.4f,%.0f,%.0f,"
               "%.6g,%.6g,%.0f,%.6g,%.4f,%.6e,%.6e\n",
               s->coll->name, b->size, eccl_dtype_name(b->o.dtype), op_names[b->o.op], b->o.data_spec,
               s->n.bytes, s->n.count, r->bound->label, r->E, r->algo_req, r->st.algorithm,
               r->st.compressed, r->st.reason, r->t_mpi, r->t, r->t_mpi / r->t, bytes / r->t_mpi / 1e9,
               bytes / r->t / 1e9, ratio, r->raw, r->sent, r->chk.maxerr, r->chk.worst, r->chk.viol,
               s->err_mpi, r->st.model_ratio, r->st.model_t_mpi, r->st.model_t_chosen);
        return;
    }
    printf("%12zu %10zu %-10s %10.1f %10.1f %7.2f %8.3f %9.3f %7.2f %9s %-5s %s%s (%s)\n", s->n.bytes,
           s->n.count, r->bound->label, r->t_mpi * 1e6, r->t * 1e6, r->t_mpi / r->t,
           bytes / r->t_mpi / 1e9, bytes / r->t / 1e9, ratio, errs, ok, r->st.algorithm,
           strcmp(r->algo_req, "auto") ? " [forced]" : "", r->st.reason);
}

/* Warn when the library's E differs from the one computed here (a REL range mismatch). A rank's
 * sendrecv_replace statistics describe what it sent: the bound made from its own range. */
static void compare_bound(const bench_t *b, const run_t *s, const row_t *r)
{
    double E = r->E;
    if (s->coll->range == BENCH_RANGE_SOURCE && r->bound->b.mode == ECCL_MODE_REL)
        E = r->bound->b.value * s->own_range;
    int bad = r->st.compressed && fabs(r->st.bound_requested - E) > 1e-12 * E;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, b->comm);
    if (bad && b->rank == 0)
        fprintf(stderr, "bench_coll: warning: eccl's bound on the result (%g) differs from the one "
                        "the harness computes (%g)\n", r->st.bound_requested, E);
}

static void report_error(const bench_t *b, const run_t *s, const row_t *r)
{
    int any = r->err != 0;
    MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, b->comm);
    if (r->err)
        fprintf(stderr, "bench_coll [rank %d]: eccl_%s failed: %s (%s)\n", b->rank, s->coll->name,
                eccl_strerror((eccl_result_t)r->err), eccl_comm_last_error(b->ecomm));
    ((row_t *)r)->err = any;
}

/* One eccl row: time, stats, check. */
static void eccl_row(bench_t *b, run_t *s, const char *algo, const bound_opt_t *bo)
{
    row_t r;
    memset(&r, 0, sizeof r);
    r.algo_req = algo;
    r.bound = bo;
    r.E = result_bound(s, &bo->b);
    fill_junk(b, s, s->recv);
    double t[2];
    time_pair(b, s, &bo->b, t, &r.err);
    r.t_mpi = t[0];
    r.t = t[1];
    eccl_comm_last_stats(b->ecomm, &r.st);
    double v[2] = {(double)r.st.bytes_raw, (double)r.st.bytes_sent};
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, b->comm);
    r.raw = v[0];
    r.sent = v[1];
    report_error(b, s, &r);
    check(b, s, r.E, s->recv, &r.chk);
    compare_bound(b, s, &r);
    if (r.err || r.chk.viol > 0) b->failures++;
    b->rows++;
    if (b->rank == 0) print_row(b, s, &r);
}

/* Force the algorithm (or "auto"); 0 if this collective has it. */
static int set_algorithm(bench_t *b, const run_t *s, const char *algo)
{
    eccl_result_t rc = eccl_comm_set_algorithm(b->ecomm, s->coll->name, algo);
    if (rc && b->rank == 0 && !b->o.csv)
        printf("# (%s has no algorithm \"%s\": skipped)\n", s->coll->name, algo);
    return rc != ECCL_SUCCESS;
}

/* The baseline's result, checked once (E = 0: rounding only); its times come with each row. */
static void mpi_baseline(bench_t *b, run_t *s)
{
    int err = 0;
    check_t chk;
    fill_junk(b, s, s->recv_mpi);
    call_once(b, s, NULL, &err);
    check(b, s, 0.0, s->recv_mpi, &chk);
    s->err_mpi = chk.maxerr;
    if ((err || chk.viol > 0) && b->rank == 0)
        fprintf(stderr, "bench_coll: %s baseline %s (%.0f elements off the exact result)\n",
                s->coll->mpi_name, err ? "failed" : "check failed", chk.viol);
    if (err || chk.viol > 0) b->failures++;
}

static void run_size(bench_t *b, const bench_coll_t *coll, size_t bytes)
{
    run_t s;
    memset(&s, 0, sizeof s);
    s.coll = coll;
    coll->get_counts(bytes, b->esize, b->size, b->rank, b->root, &s.n);
    if (s.n.count == 0) return;
    s.recv = s.n.nrecv ? malloc(s.n.nrecv * b->esize) : NULL;
    s.recv_mpi = s.n.nrecv ? malloc(s.n.nrecv * b->esize) : NULL;
    int bad = s.n.nrecv && (!s.recv || !s.recv_mpi);
    make_call(b, &s);
    bad = bad || make_reference(b, &s);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, b->comm);
    if (bad) {
        if (b->rank == 0) fprintf(stderr, "bench_coll: no memory for %zu bytes\n", bytes);
        MPI_Abort(b->comm, 2);
    }
    s.range = data_range(b, &s);
    mpi_baseline(b, &s);
    for (int a = 0; a < b->o.nalgos; a++) {
        if (set_algorithm(b, &s, b->o.algos[a])) continue;
        for (int k = 0; k < b->o.nbounds; k++) eccl_row(b, &s, b->o.algos[a], &b->o.bounds[k]);
    }
    eccl_comm_set_algorithm(b->ecomm, coll->name, "auto");
    if (b->rank == 0) fflush(stdout);
    free(s.recv);
    free(s.recv_mpi);
    free(s.ref);
    free(s.sabs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    bench_t b;
    memset(&b, 0, sizeof b);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.size);
    int rc = parse_options(argc, argv, &b.o, b.rank);
    if (rc) {
        MPI_Finalize();
        return rc == 1 ? 0 : 2;
    }
    if (setup(&b)) {
        MPI_Finalize();
        return 2;
    }
    print_header(&b);
    for (int k = 0; k < b.o.ncolls; k++) {
        print_coll_header(&b, b.o.colls[k]);
        for (size_t bytes = b.o.min; bytes <= b.o.max; bytes *= 2) run_size(&b, b.o.colls[k], bytes);
    }
    if (b.rank == 0)
        printf("# %d rows; %d with a bound violation or an error\n", b.rows, b.failures);
    eccl_comm_free(&b.ecomm);
    free(b.input);
    bench_data_free(&b.o.data);
    MPI_Finalize();
    return b.failures ? 1 : 0;
}
