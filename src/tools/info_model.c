/*
 * info_model.c - eccl-info --model: the cost model of a communicator on MPI_COMM_WORLD as
 * eccl_comm_create calibrated it, and what `auto` would choose for bcast and allreduce.
 *
 * The predictions are the library's own (eccl_select_predict in src/coll/select.c: the same
 * eccl_select_auto a call runs once its ranks agreed on the sampled ratio, with the cost functions
 * of the algorithm table): in a real call the ratio is sampled from the data; here it is given.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/select.h"
#include "core/comm.h"
#include "tools/info.h"

static const double sizes[] = {1024.0, 65536.0, 1048576.0, 16777216.0, 268435456.0, 1073741824.0};
static const double ratios[] = {2.0, 5.0, 10.0};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define NRATIOS ((int)(sizeof ratios / sizeof ratios[0]))
static const eccl_coll_t colls[] = {ECCL_COLL_BCAST, ECCL_COLL_ALLREDUCE};
#define NCOLLS_SHOWN ((int)(sizeof colls / sizeof colls[0]))

int info_model_open(int *argc, char ***argv, eccl_comm_t *comm, int *rank)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS) {
        fprintf(stderr, "eccl-info: MPI_Init failed\n");
        return ECCL_ERR_MPI;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    eccl_result_t rc = eccl_comm_create(MPI_COMM_WORLD, NULL, comm);
    if (rc) {
        if (*rank == 0) fprintf(stderr, "eccl-info: eccl_comm_create: %s\n", eccl_strerror(rc));
        MPI_Finalize();
    }
    return rc;
}

void info_model_close(eccl_comm_t *comm)
{
    eccl_comm_free(comm);
    MPI_Finalize();
}

static int pred_ranks(eccl_comm_t comm, int ranks) { return ranks > 0 ? ranks : comm->size > 1 ? comm->size : 8; }

typedef struct prediction {
    double t[ECCL_SELECT_MAX_ALGOS]; /* per algorithm of the collective, in table order; NAN: n/a */
    const eccl_algo_t *algo[ECCL_SELECT_MAX_ALGOS];
    int n;
    const eccl_algo_t *choice;
    const char *reason;
} prediction_t;

/* A float64 SUM call of `bytes` bytes on p ranks at `ratio`: what a call would choose, asked of the
 * library's own selection (eccl_select_predict, the eccl_select_auto a call runs after its
 * agreement), so eccl-info cannot name another algorithm than a call with the same figures. */
static void predict(eccl_comm_t comm, eccl_coll_t k, int p, double bytes, double ratio, prediction_t *r)
{
    eccl_select_prediction_t sp;
    size_t count = (size_t)(bytes / (double)eccl_dtype_size(ECCL_FLOAT64));
    memset(r, 0, sizeof *r);
    if (eccl_select_predict(comm, k, p, count, ECCL_FLOAT64, ECCL_OP_SUM, 0.0, ratio, &sp)) {
        r->reason = "?";
        return;
    }
    r->n = sp.n;
    for (int i = 0; i < sp.n; i++) {
        r->algo[i] = sp.algos[i];
        r->t[i] = sp.t[i];
    }
    r->choice = sp.algo;
    r->reason = sp.reason;
}

static const char *policy_name(int v, const char *const *names, int n)
{
    return v >= 1 && v <= n ? names[v - 1] : "?";
}
static const char *const compress_names[] = {"auto", "always", "never"};
static const char *const fallback_names[] = {"mpi", "warn", "error"};
static const char *const sum_names[] = {"hard", "statistical"};

/* Where alpha (or beta) came from, following eccl_comm_create. */
static const char *model_source(eccl_comm_t comm, double given, const char *env)
{
    if (given > 0) return getenv(env) ? env : "eccl_config_t";
    if (comm->size > 1 && comm->topo.nnodes > 1) return "measured: ping-pong between rank 0 and a rank on another node";
    if (comm->size > 1) return "measured: ping-pong between ranks 0 and 1";
    return "default: one rank, nothing to measure";
}

static const char *forced_env(eccl_coll_t k)
{
    const char *name = k == ECCL_COLL_BCAST ? "ECCL_BCAST_ALGORITHM" : "ECCL_ALLREDUCE_ALGORITHM";
    const char *v = getenv(name);
    return v && *v && strcmp(v, "auto") ? name : NULL;
}

static void size_text(char *buf, size_t n, double bytes)
{
    if (bytes >= 1073741824.0) snprintf(buf, n, "%g GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576.0) snprintf(buf, n, "%g MiB", bytes / 1048576.0);
    else snprintf(buf, n, "%g KiB", bytes / 1024.0);
}

void info_model_text(FILE *out, eccl_comm_t comm, int ranks)
{
    const eccl_model_t *m = &comm->models.host;
    const eccl_config_t *cfg = &comm->cfg;
    int p = pred_ranks(comm, ranks);
    fprintf(out, "Cost model (eccl_comm_create on MPI_COMM_WORLD, %d rank%s; doc/collectives.md)\n", comm->size,
            comm->size == 1 ? "" : "s");
    fprintf(out, "  %-20s %.3g s  (%s)\n", "alpha (latency)", m->alpha, model_source(comm, cfg->alpha, "ECCL_ALPHA"));
    fprintf(out, "  %-20s %.3g s/B = %.3g GB/s  (%s)\n", "beta (1/bandwidth)", m->beta, 1e-9 / m->beta,
            model_source(comm, cfg->beta, "ECCL_BETA"));
    fprintf(out, "  %-20s %d node(s), %d rank(s) on rank 0's%s (ECCL_NODE_SIZE or shared memory)\n", "nodes",
            comm->topo.nnodes, comm->topo.lsize, comm->topo.hier ? "; allreduce hierarchical applies" : "");
    if (comm->topo.nnodes > 1)
        fprintf(out, "  %-20s %.3g s, %.3g GB/s  (inside a node)\n", "node link", m->alpha_in, 1e-9 / m->beta_in);
    fprintf(out, "  %-20s %.3g GB/s\n", "compression", m->c_thr * 1e-9);
    fprintf(out, "  %-20s %.3g GB/s\n", "decompression", m->d_thr * 1e-9);
    fprintf(out, "  %-20s %.3g GB/s\n", "homomorphic reduce", m->h_thr * 1e-9);
    fprintf(out, "  %-20s %.3g GB/s\n", "local reduction", m->g_thr * 1e-9);
    fprintf(out, "  (codec throughputs: measured once per process on rank 0, float32 field, ABS 1e-4)\n");
    fprintf(out, "  %-20s compress %s, fallback %s, min_bytes %.0f, sum %s (sum_c %g)\n", "configuration",
            policy_name(cfg->compress, compress_names, 3), policy_name(cfg->fallback, fallback_names, 3),
            cfg->min_bytes, policy_name(cfg->sum_mode, sum_names, 2), cfg->sum_c);
    if (comm->size == 1 && ranks <= 0)
        fprintf(out, "  one rank: every collective is a local copy; the predictions below are for %d ranks "
                     "(--ranks N to change)\n", p);
    for (int ci = 0; ci < NCOLLS_SHOWN; ci++) {
        eccl_coll_t k = colls[ci];
        prediction_t r;
        predict(comm, k, p, sizes[0], ratios[0], &r);
        fprintf(out, "\n%s on %d ranks, float64%s: predicted ms per algorithm (* = auto's choice)\n",
                eccl_coll_name(k), p, k == ECCL_COLL_ALLREDUCE ? " SUM" : "");
        if (forced_env(k) && eccl_algo_find(k, getenv(forced_env(k))))
            fprintf(out, "  note: %s=%s forces the algorithm, auto is not consulted\n", forced_env(k),
                    getenv(forced_env(k)));
        else if (forced_env(k))
            fprintf(out, "  note: %s=%s is not an algorithm of %s: every call fails with "
                         "ECCL_ERR_INVALID_ARG\n", forced_env(k), getenv(forced_env(k)), eccl_coll_name(k));
        fprintf(out, "  %9s %5s", "bytes", "ratio");
        for (int i = 0; i < r.n; i++) fprintf(out, " %*s", (int)(strlen(r.algo[i]->name) > 10 ? strlen(r.algo[i]->name) : 10) + 1, r.algo[i]->name);
        fprintf(out, "   auto\n");
        for (int si = 0; si < NSIZES; si++)
            for (int ri = 0; ri < NRATIOS; ri++) {
                char sz[32];
                predict(comm, k, p, sizes[si], ratios[ri], &r);
                size_text(sz, sizeof sz, sizes[si]);
                fprintf(out, "  %9s %5g", sz, ratios[ri]);
                for (int i = 0; i < r.n; i++) {
                    int w = (int)(strlen(r.algo[i]->name) > 10 ? strlen(r.algo[i]->name) : 10);
                    if (isnan(r.t[i])) fprintf(out, " %*s ", w, "n/a");
                    else fprintf(out, " %*.4g%c", w, r.t[i] * 1e3, r.algo[i] == r.choice ? '*' : ' ');
                }
                fprintf(out, "   %s (%s)\n", r.choice ? r.choice->name : "?", r.reason);
            }
    }
}

void info_model_json(info_json_t *j, eccl_comm_t comm, int ranks)
{
    const eccl_model_t *m = &comm->models.host;
    const eccl_config_t *cfg = &comm->cfg;
    ij_begin_object(j, "model");
    ij_int(j, "ranks", comm->size);
    ij_int(j, "predicted_ranks", pred_ranks(comm, ranks));
    ij_number(j, "alpha", m->alpha);
    ij_string(j, "alpha_source", model_source(comm, cfg->alpha, "ECCL_ALPHA"));
    ij_number(j, "beta", m->beta);
    ij_string(j, "beta_source", model_source(comm, cfg->beta, "ECCL_BETA"));
    ij_int(j, "nodes", comm->topo.nnodes);
    ij_number(j, "alpha_node", m->alpha_in);
    ij_number(j, "beta_node", m->beta_in);
    ij_number(j, "compress_bytes_per_s", m->c_thr);
    ij_number(j, "decompress_bytes_per_s", m->d_thr);
    ij_number(j, "hom_reduce_bytes_per_s", m->h_thr);
    ij_number(j, "local_reduce_bytes_per_s", m->g_thr);
    ij_begin_object(j, "config");
    ij_string(j, "compress", policy_name(cfg->compress, compress_names, 3));
    ij_string(j, "fallback", policy_name(cfg->fallback, fallback_names, 3));
    ij_number(j, "min_bytes", cfg->min_bytes);
    ij_string(j, "sum_mode", policy_name(cfg->sum_mode, sum_names, 2));
    ij_number(j, "sum_c", cfg->sum_c);
    ij_end_object(j);
    ij_begin_array(j, "predictions");
    for (int ci = 0; ci < NCOLLS_SHOWN; ci++)
        for (int si = 0; si < NSIZES; si++)
            for (int ri = 0; ri < NRATIOS; ri++) {
                prediction_t r;
                predict(comm, colls[ci], pred_ranks(comm, ranks), sizes[si], ratios[ri], &r);
                ij_begin_object(j, NULL);
                ij_string(j, "collective", eccl_coll_name(colls[ci]));
                ij_string(j, "dtype", "float64");
                ij_number(j, "bytes", sizes[si]);
                ij_number(j, "ratio", ratios[ri]);
                ij_begin_object(j, "seconds");
                for (int i = 0; i < r.n; i++) ij_number(j, r.algo[i]->name, r.t[i]);
                ij_end_object(j);
                ij_string(j, "auto", r.choice ? r.choice->name : NULL);
                ij_string(j, "reason", r.reason);
                ij_string(j, "forced_by", forced_env(colls[ci]));
                ij_end_object(j);
            }
    ij_end_array(j);
    ij_end_object(j);
}
