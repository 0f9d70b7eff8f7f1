/*
 * test_select.c - eccl-info --model and the calls themselves choose with one function: for a grid
 * of collectives, dtypes, sizes, bounds, policies and links, every `auto` call's algorithm (from
 * eccl_comm_last_stats) must be the one eccl_select_predict names for the same figures (the
 * call's agreed ratio, st.model_ratio), which is what eccl-info prints.
 *
 * Also the device-stream hop's figures in the cost model (hop_model), the pipelined broadcast's
 * price on the GPU codec (pipeline_model), each kind of GPU operation at its own fixed cost
 * (op_kind_model), the verdict in a compressed algorithm's price
 * (agreement_model), and the GPU codec's observed
 * per-operation latency (core/comm.h eccl_gpu_observe, agreed in
 * select.c): fed by hand here (device operations feed it on a GPU), each rank's median must reach
 * the model as the slowest rank's, the same figure on every rank.
 *
 * With --reuse: ECCL_RATIO_REUSE (ratio_reuse).
 *
 *   mpiexec -n P tests/test_select [--reuse]
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/model.h"
#include "coll/select.h"
#include "core/comm.h"
#include "core/model.h"
#include "eccl.h"

static int rank_, size_, fails, checks;

static eccl_result_t call(eccl_coll_t k, void *x, void *y, size_t n, eccl_dtype_t dt, const eccl_bound_t *b,
                          eccl_comm_t c)
{
    switch (k) {
    case ECCL_COLL_BCAST: return eccl_bcast(x, n, dt, 0, b, c);
    case ECCL_COLL_ALLREDUCE: return eccl_allreduce(x, y, n, dt, ECCL_OP_SUM, b, c);
    case ECCL_COLL_REDUCE: return eccl_reduce(x, y, n, dt, ECCL_OP_SUM, 0, b, c);
    case ECCL_COLL_REDUCE_SCATTER_BLOCK: return eccl_reduce_scatter_block(x, y, n, dt, ECCL_OP_SUM, b, c);
    case ECCL_COLL_ALLGATHER: return eccl_allgather(x, y, n, dt, b, c);
    case ECCL_COLL_SCATTER: return eccl_scatter(x, y, n, dt, 0, b, c);
    case ECCL_COLL_GATHER: return eccl_gather(x, y, n, dt, 0, b, c);
    default: return ECCL_ERR_INTERNAL;
    }
}

static void expect(int ok, const char *what)
{
    checks++;
    if (!ok) {
        fails++;
        fprintf(stderr, "[%d] %s\n", rank_, what);
    }
}

/* A communicator priced for a 1 GB/s link with compression always on: every call compresses. */
static eccl_comm_t slow_always_comm(void)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 2e-6;
    cfg.beta = 1e-9;
    cfg.compress = ECCL_COMPRESS_ALWAYS;
    eccl_comm_t c;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c)) MPI_Abort(MPI_COMM_WORLD, 2);
    return c;
}

/* The observed latency: no figure from fewer than 3 observations, the median of the last
 * ECCL_LAT_RING (an outlier and a negative one do not move it), the MAX over ranks after a call's
 * data agreement, in every GPU view of the model and in none of the host's; nothing with
 * observe = 0. */
static void observed_latency(unsigned char *x)
{
    if (size_ < 2) return; /* (a call on one rank makes no agreement) */
    eccl_comm_t c = slow_always_comm();
    const eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    c->gpu.observe = 1; /* (read from ECCL_GPU_OBSERVE in CUDA builds only) */
    double lat0 = c->models.gpu[0].op_lat;
    eccl_gpu_observe(c, 5e-3);
    eccl_gpu_observe(c, 5e-3);
    expect(eccl_gpu_observed(c) == -INFINITY, "observed latency: a figure from 2 observations");
    expect(eccl_bcast(x, 9000, ECCL_FLOAT64, 0, &b, c) == ECCL_SUCCESS, "observed latency: bcast failed");
    expect(c->models.gpu_lat_obs == 0 && c->models.gpu[0].op_lat == lat0, "observed latency: the model moved without a figure");
    for (int i = 0; i < 5; i++) eccl_gpu_observe(c, 1e-4 * (rank_ + 1));
    eccl_gpu_observe(c, 1.0);
    eccl_gpu_observe(c, -1.0); /* (counts as 0) */
    expect(eccl_gpu_observed(c) == 1e-4 * (rank_ + 1), "observed latency: not the median of 9");
    expect(eccl_bcast(x, 9000, ECCL_FLOAT64, 0, &b, c) == ECCL_SUCCESS, "observed latency: bcast failed");
    double want = 1e-4 * size_;
    expect(c->models.gpu_lat_obs == want, "observed latency: not the slowest rank's median");
    expect(c->models.gpu[0].op_lat == want && c->models.gpu[1].op_lat == want && c->models.nccl[0].op_lat == want &&
               c->models.nccl[1].op_lat == want && c->models.host.op_lat == 0,
           "the model's views do not price it");
    for (int i = 0; i < ECCL_LAT_RING + 4; i++) eccl_gpu_observe(c, 2e-5); /* the ring wraps */
    expect(eccl_gpu_observed(c) == 2e-5, "observed latency: the ring holds older observations");
    expect(eccl_allreduce(x, x + 72000, 9000, ECCL_FLOAT64, ECCL_OP_SUM, &b, c) == ECCL_SUCCESS, "observed latency: allreduce failed");
    expect(c->models.gpu_lat_obs == 2e-5 && c->models.gpu[0].op_lat == 2e-5, "observed latency: the non-rooted agreement");
    c->gpu.observe = 0;
    unsigned n = c->gpu.nlat;
    eccl_gpu_observe(c, 1.0);
    expect(c->gpu.nlat == n, "observed latency: observed with observe = 0");
    eccl_comm_free(&c);
}

/* Each kind of GPU operation at its own fixed cost (core/model.c): a decompression and a
 * homomorphic SUM at the compression's latency plus their calibrated excess (never below it), on
 * the observed latency too once there is one; the cost functions' building blocks price them so;
 * the host view has none. Local: no communicator. */
static void op_kind_model(void)
{
    const double m[8] = {1e-5, 1e-9, 1e9, 2e9, 0.7e9, 5e9, 1e-5, 1e-9};
    eccl_models_t md;
    eccl_models_init(&md, m);
    for (int w = 0; w < 2; w++)
        expect(md.gpu[w].op_lat_d == md.gpu[w].op_lat && md.gpu[w].op_lat_h == md.gpu[w].op_lat,
               "op kinds: unmeasured, the kinds priced apart");
    double v[ECCL_GPU_CAL_N] = {20e-6, 500e9, 600e9, 150e9, 500e9, 450e9, 200e9, 1000e9, 1200e9, 900e9, 1100e9,
                                26e-6, 38e-6};
    expect(eccl_models_set_gpu(&md, v), "op kinds: the GPU figures were refused");
    expect(eccl_models_gpu_extra(&md, 0) == 0 && fabs(eccl_models_gpu_extra(&md, 1) - 6e-6) < 1e-12 &&
               fabs(eccl_models_gpu_extra(&md, 2) - 18e-6) < 1e-12,
           "op kinds: the excess over a compression");
    for (int w = 0; w < 2; w++) {
        const eccl_model_t *g = &md.gpu[w], *n = &md.nccl[w];
        expect(g->op_lat == 20e-6 && fabs(g->op_lat_d - 26e-6) < 1e-12 && fabs(g->op_lat_h - 38e-6) < 1e-12 &&
                   n->op_lat_d == g->op_lat_d && n->op_lat_h == g->op_lat_h,
               "op kinds: the GPU views' latencies");
        const double b = 1e6;
        expect(fabs(mdl_compress(g, b) - (b / g->c_thr + 20e-6)) < 1e-12 &&
                   fabs(mdl_decompress(g, b) - (b / g->d_thr + 26e-6)) < 1e-12 &&
                   fabs(mdl_decompress_dev(g, b) - (b / g->d_thr_dev + 26e-6)) < 1e-12 &&
                   fabs(mdl_hom(g, b) - (b / g->h_thr + 38e-6)) < 1e-12,
               "op kinds: the cost functions' building blocks");
    }
    expect(md.host.op_lat == 0 && md.host.op_lat_d == 0 && md.host.op_lat_h == 0,
           "op kinds: the host view has a latency");
    expect(eccl_models_set_gpu_observed(&md, 30e-6), "op kinds: the observed latency was refused");
    expect(md.gpu[0].op_lat == 30e-6 && fabs(md.gpu[0].op_lat_d - 36e-6) < 1e-12 &&
               fabs(md.gpu[1].op_lat_h - 48e-6) < 1e-12,
           "op kinds: the observed latency without the excess");
    v[11] = 15e-6; /* (a decompression calibrated faster than a compression: no excess, not a rebate) */
    expect(eccl_models_set_gpu(&md, v), "op kinds: the second figures were refused");
    expect(md.gpu[0].op_lat_d == md.gpu[0].op_lat && eccl_models_gpu_extra(&md, 1) == 0, "op kinds: a negative excess");
    v[12] = NAN;
    expect(!eccl_models_set_gpu(&md, v), "op kinds: a homomorphic latency that is not a number was taken");
}

/* The device-stream hop (core/model.c): until measured, NCCL's link plus the size's MPI message in
 * the NCCL views; once measured, its own figures there (and nowhere else), through every later
 * derivation; figures that are not positive finite numbers are refused. Local: no communicator. */
static void hop_model(void)
{
    const double m[8] = {1e-5, 1e-9, 1e9, 2e9, 0.7e9, 5e9, 1e-5, 1e-9};
    eccl_models_t md;
    eccl_models_init(&md, m);
    eccl_models_set_nccl(&md, 2e-5, 1.0 / 300e9);
    for (int w = 0; w < 2; w++)
        expect(md.nccl[w].hop_alpha == 2e-5 + 1e-5 && md.nccl[w].hop_beta == 1.0 / 300e9 &&
                   mdl_net_dev(&md.nccl[w], 1e6) == 2e-5 + 1e-5 + 1e6 / 300e9,
               "hop: unmeasured, not priced as the link and an MPI message");
    expect(!eccl_models_set_nccl_hop(&md, -1e-5, 1e-11) && !eccl_models_set_nccl_hop(&md, 9e-5, 0) &&
               !eccl_models_set_nccl_hop(&md, NAN, 1e-11) && !eccl_models_set_nccl_hop(&md, 9e-5, INFINITY),
           "hop: a figure that is not a positive finite number was taken");
    expect(md.nccl[0].hop_alpha == 2e-5 + 1e-5, "hop: a refused figure moved the model");
    expect(eccl_models_set_nccl_hop(&md, 9e-5, 1.0 / 250e9), "hop: a measured figure was refused");
    eccl_models_set_gpu_observed(&md, 3e-5); /* (derives every view again) */
    for (int w = 0; w < 2; w++) {
        expect(md.nccl[w].hop_alpha == 9e-5 && md.nccl[w].hop_beta == 1.0 / 250e9 &&
                   mdl_net_dev(&md.nccl[w], 1e6) == 9e-5 + 1e6 / 250e9,
               "hop: the NCCL views do not price the measured hop");
        expect(md.nccl[w].alpha == 2e-5 + 1e-5 && md.nccl[w].nccl_beta == 1.0 / 300e9 && md.gpu[w].hop_alpha == 1e-5,
               "hop: the measured hop moved another figure");
    }
}

/* The pipelined broadcast's stages on the GPU codec (coll/model.h mdl_stage): priced with the
 * figures of SUMMA's panels over sockets on 2 x H200 (doc/performance.md section 29: 16 MiB of
 * float64 to one other rank, ratio 13.4, the streams staged over MPI at 4.7 GB/s), the binomial
 * tree must cost less than the pipeline, as measured (0.35-0.45 against 0.52-0.76 ms; with the
 * waits priced under the messages the model picked the pipeline at 0.27 ms); and with the CPU
 * codec (no waits) the pipeline must still beat the binomial tree on a chain of 8 ranks, where it
 * pays. */
static void pipeline_model(void)
{
    const double m[8] = {3e-5, 1.0 / 4.7e9, 1e9, 2e9, 0.7e9, 5e9, 3e-5, 1.0 / 4.7e9};
    const double v[ECCL_GPU_CAL_N] = {35.7e-6, 532e9,  620e9, 165e9,  575e9,  482e9,  219e9,
                                      1172e9,  1694e9, 911e9, 1198e9, 35.7e-6, 35.7e-6};
    eccl_models_t md;
    eccl_models_init(&md, m);
    expect(eccl_models_set_gpu(&md, v), "pipeline: the GPU figures were refused");
    eccl_call_t c;
    memset(&c, 0, sizeof c);
    c.coll = ECCL_COLL_BCAST;
    c.dtype = ECCL_FLOAT64;
    c.esize = 8;
    c.count = (size_t)1 << 21;
    c.size = 2;
    c.dev.all = 1; /* (dev.here 0: the staged streams' price, as over MPI) */
    const double r = 13.4;
    const double pipe = eccl_bcast_pipeline_cost(&md.gpu[1], &c, r), tree = eccl_bcast_binomial_cost(&md.gpu[1], &c, r);
    expect(tree < pipe, "pipeline: priced below the binomial tree for a panel of 2 GPUs over sockets");
    c.size = 8;
    c.dev.all = 0;
    expect(eccl_bcast_pipeline_cost(&md.host, &c, r) < eccl_bcast_binomial_cost(&md.host, &c, r),
           "pipeline: no longer beats the binomial tree on 8 ranks with the CPU codec");
}

/* A compressed algorithm's listed price (eccl_select_predict, eccl-info --model) holds its
 * verdict, one small allreduce over MPI (select.c compressed_extra): the binomial broadcast's
 * cost plus ceil(log2 ranks) rounds at the MPI link's latency, checked against the cost function
 * itself on a link of 50 us. */
static void agreement_model(void)
{
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 5e-5;
    cfg.beta = 1e-9;
    eccl_comm_t comm;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &comm)) MPI_Abort(MPI_COMM_WORLD, 2);
    eccl_select_prediction_t p;
    const size_t n = 300000;
    expect(!eccl_select_predict(comm, ECCL_COLL_BCAST, size_, n, ECCL_FLOAT32, ECCL_OP_SUM, 1e-3, 10.0, &p),
           "agreements: eccl_select_predict failed");
    eccl_call_t c;
    eccl_stats_t st;
    memset(&c, 0, sizeof c);
    memset(&st, 0, sizeof st);
    c.comm = comm;
    c.coll = ECCL_COLL_BCAST;
    c.count = n;
    c.dtype = ECCL_FLOAT32;
    c.esize = 4;
    c.size = size_;
    c.st = &st;
    int found = 0;
    for (int i = 0; i < p.n; i++) {
        if (strcmp(p.algos[i]->name, "binomial")) continue;
        found = 1;
        double raw = eccl_bcast_binomial_cost(&comm->models.host, &c, 10.0);
        double want = raw + eccl_ceil_log2(size_) * comm->models.alpha;
        expect(fabs(p.t[i] - want) <= 1e-12 * want, "agreements: the binomial broadcast listed without its verdict");
    }
    expect(found, "agreements: no binomial broadcast listed");
    eccl_comm_free(&comm);
}

/* ECCL_RATIO_REUSE=4 (set by main before any call): an allreduce and a broadcast of one
 * signature sample on their first call; the next three take its agreed ratio although their data
 * compresses far worse (st.model_ratio equal to the first's, bit for bit, on every rank); the
 * fifth samples again (the worse ratio); a call of another count samples its own data. */
static void ratio_reuse(void)
{
    eccl_comm_t comm = slow_always_comm();
    const size_t n = 300000;
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    const eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    for (int k = 0; k < 2; k++) {
        double seen[6] = {0};
        for (int call = 0; call < 6; call++) {
            unsigned s = 12345u + (unsigned)rank_ + 7u * (unsigned)call;
            for (size_t i = 0; i < n; i++) {
                s = s * 1664525u + 1013904223u;
                x[i] = call == 0 ? sin(1e-3 * (double)i) : (double)(s >> 8) / 16777216.0; /* smooth, then noise */
            }
            size_t cnt = call == 5 ? n - 1 : n;
            eccl_result_t rc = k ? eccl_bcast(x, cnt, ECCL_FLOAT64, 0, &b, comm)
                                 : eccl_allreduce(x, y, cnt, ECCL_FLOAT64, ECCL_OP_SUM, &b, comm);
            eccl_stats_t st;
            eccl_comm_last_stats(comm, &st);
            expect(rc == ECCL_SUCCESS && st.compressed, "reuse: a call failed or ran uncompressed");
            seen[call] = st.model_ratio;
            double lo = st.model_ratio, hi = st.model_ratio;
            MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            expect(lo == hi, "reuse: the ranks priced one call at different ratios");
        }
        expect(seen[0] > 2.0 * seen[4], "reuse: the smooth field's ratio is not well above the noise's");
        for (int call = 1; call < 4; call++)
            expect(seen[call] == seen[0], "reuse: a call within ECCL_RATIO_REUSE sampled its own data");
        expect(seen[4] != seen[0], "reuse: the call after ECCL_RATIO_REUSE - 1 reuses did not sample");
        expect(seen[5] != seen[0] && seen[5] > 0, "reuse: a call of another count took the memo's ratio");
    }
    free(x);
    free(y);
    eccl_comm_free(&comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (argc > 1 && !strcmp(argv[1], "--reuse")) { /* (its own run: the variable is read once) */
        setenv("ECCL_RATIO_REUSE", "4", 1);
        if (size_ > 1) ratio_reuse();
        MPI_Allreduce(MPI_IN_PLACE, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank_ == 0) printf("test_select --reuse on %d ranks: %d failures\n", size_, fails);
        MPI_Finalize();
        return fails ? 1 : 0;
    }
    const eccl_coll_t colls[] = {ECCL_COLL_BCAST, ECCL_COLL_ALLREDUCE, ECCL_COLL_REDUCE,
                                 ECCL_COLL_REDUCE_SCATTER_BLOCK, ECCL_COLL_ALLGATHER, ECCL_COLL_SCATTER,
                                 ECCL_COLL_GATHER};
    const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};
    const size_t counts[] = {100, 9000, 300000};
    const eccl_bound_t bounds[] = {ECCL_BOUND_ABS(1e-3), ECCL_BOUND_REL(1e-5), ECCL_BOUND_LOSSLESS};
    /* links: 1 GB/s (compression pays for large calls), 100 GB/s (it does not) */
    const double betas[] = {1e-9, 1e-11};
    const eccl_compress_policy_t pols[] = {ECCL_COMPRESS_AUTO, ECCL_COMPRESS_ALWAYS};
    size_t maxn = 300000 * (size_t)size_ * 16;
    unsigned char *x = malloc(maxn), *y = malloc(maxn);
    double *xd = (double *)x;
    for (size_t i = 0; i < maxn / 8; i++) xd[i] = sin(1e-3 * (double)i) * (1 + rank_) + 1e-4 * (double)(i % 97);
    int chose[2] = {0, 0}; /* compressed / uncompressed choices seen */
    for (size_t li = 0; li < sizeof betas / sizeof *betas; li++)
        for (size_t pi = 0; pi < sizeof pols / sizeof *pols; pi++) {
            eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
            cfg.alpha = 2e-6;
            cfg.beta = betas[li];
            cfg.compress = pols[pi];
            eccl_comm_t c;
            if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &c)) MPI_Abort(MPI_COMM_WORLD, 2);
            for (size_t ki = 0; ki < sizeof colls / sizeof *colls; ki++)
                for (size_t di = 0; di < sizeof dts / sizeof *dts; di++)
                    for (size_t ni = 0; ni < sizeof counts / sizeof *counts; ni++)
                        for (size_t bi = 0; bi < sizeof bounds / sizeof *bounds; bi++) {
                            eccl_coll_t k = colls[ki];
                            size_t n = counts[ni];
                            eccl_result_t rc = call(k, x, y, n, dts[di], &bounds[bi], c);
                            eccl_stats_t st;
                            eccl_comm_last_stats(c, &st);
                            checks++;
                            if (rc) {
                                fails++;
                                fprintf(stderr, "[%d] %s: %s\n", rank_, eccl_strerror(rc), eccl_comm_last_error(c));
                                continue;
                            }
                            if (size_ == 1) continue; /* ("local": no choice to compare) */
                            /* bcast and scatter: the root chose (the others applied its choice) */
                            if ((k == ECCL_COLL_BCAST || k == ECCL_COLL_SCATTER) && rank_ != 0) continue;
                            eccl_select_prediction_t p;
                            eccl_result_t prc = eccl_select_predict(c, k, size_, n, dts[di], ECCL_OP_SUM,
                                                                    st.bound_requested, st.model_ratio, &p);
                            const char *want = prc || !p.algo ? "?" : p.algo->name;
                            chose[st.compressed != 0]++;
                            if (strcmp(want, st.algorithm)) {
                                fails++;
                                if (fails < 10)
                                    fprintf(stderr,
                                            "[%d] beta %g policy %d, %s of %zu %s, bound mode %d: the call ran %s (%s, "
                                            "ratio %g), eccl-info's prediction is %s (%s)\n",
                                            rank_, betas[li], (int)pols[pi], eccl_coll_name(k), n,
                                            eccl_dtype_name(dts[di]), (int)bounds[bi].mode, st.algorithm, st.reason,
                                            st.model_ratio, want, p.reason);
                            }
                        }
            eccl_comm_free(&c);
        }
    observed_latency(x);
    hop_model();
    op_kind_model();
    pipeline_model();
    agreement_model();
    int tot[4] = {fails, checks, chose[0], chose[1]};
    MPI_Allreduce(MPI_IN_PLACE, tot, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0)
        printf("test_select on %d ranks: %d calls, %d uncompressed and %d compressed choices compared, %d "
               "failures\n",
               size_, tot[1], tot[2], tot[3], tot[0]);
    /* the grid must exercise both kinds of choice, or the comparison proves little */
    int bad = tot[0] || (size_ > 1 && (!tot[2] || !tot[3]));
    free(x);
    free(y);
    MPI_Finalize();
    return bad ? 1 : 0;
}
