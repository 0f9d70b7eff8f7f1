/*
 * communicator.c - eccl_comm_t's creation and destruction: configuration and its environment
 * overrides, where the ranks are (nodes), the calibration of the cost model (link probes, codec
 * throughput), and the setup and teardown of every layer below the collectives (transports, the
 * GPU context). Above core/, transport/, codec/ and cuda/, which it sets up.
 */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/codec.h"
#include "coll/engine.h"
#include "eccl_cuda.h"
#include "core/comm.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "transport/transport.h"

/* Environment overrides of the configuration (doc/env.md). */
ECCL_ENV(env_compress, "ECCL_COMPRESS", -1);     /* auto | always | never (string) */
ECCL_ENV(env_fallback, "ECCL_FALLBACK", -1);     /* mpi | warn | error (string) */
ECCL_ENV(env_alpha, "ECCL_ALPHA", -1);           /* link latency, seconds (string, float) */
ECCL_ENV(env_beta, "ECCL_BETA", -1);             /* seconds per byte (string, float) */
ECCL_ENV(env_min_bytes, "ECCL_MIN_BYTES", -1);   /* never compress below this many bytes */
ECCL_ENV(env_format, "ECCL_FORMAT", -1);         /* the stream format version written: 1 | 2 */
/* Testing only: "R:N" makes rank R corrupt one bit of the N-th message it sends on every
 * communicator created afterwards (checks that peers detect it and nobody hangs). */
ECCL_ENV(env_fault, "ECCL_FAULT_INJECT", 0);
/* Ranks per node, counted in MPI_COMM_WORLD ranks (k*j .. k*j+k-1 form node j); unset: the
 * ranks that share memory (MPI_COMM_TYPE_SHARED). */
ECCL_ENV(env_node_size, "ECCL_NODE_SIZE", 0);
#ifdef HAVE_CUDA
/* eccl's own CUDA streams at the device's greatest priority (1) or the default one (0) */
ECCL_ENV(env_gpu_priority, "ECCL_GPU_PRIORITY", 1);
/* the device codec operations' observed latency prices the GPU codec (1) or the calibration alone
 * (0, the default: choices that do not depend on timings after the first calls, so that a call
 * gives the same bytes blocking, nonblocking or enqueued) */
ECCL_ENV(env_gpu_observe, "ECCL_GPU_OBSERVE", 0);
#endif

static double env_double(eccl_env_t *e, double def, int zero_ok)
{
    const char *s = eccl_env_str(e);
    if (!s || !*s) return def;
    char *end;
    double v = strtod(s, &end);
    return (end != s && *end == '\0' && isfinite(v) && (v > 0 || (zero_ok && v == 0))) ? v : def;
}

static int env_choice(eccl_env_t *e, const char *const *names, int n, int def)
{
    const char *s = eccl_env_str(e);
    if (!s || !*s) return def;
    for (int k = 0; k < n; k++)
        if (!strcmp(s, names[k])) return k + 1;
    return def;
}

static void resolve_config(eccl_config_t *c, const eccl_config_t *user)
{
    static const char *const compress_names[] = {"auto", "always", "never"};
    static const char *const fallback_names[] = {"mpi", "warn", "error"};
    static const char *const format_names[] = {"1", "2", "3"};
    eccl_config_t d = ECCL_CONFIG_INITIALIZER;
    if (user) d = *user;
    if ((int)d.bound.mode < 0) {
        d.bound.mode = ECCL_MODE_REL;
        d.bound.value = 1e-6;
        d.bound.range = ECCL_RANGE_FROM_DATA;
    }
    d.compress = (eccl_compress_policy_t)env_choice(&env_compress, compress_names, 3,
                                                    d.compress ? (int)d.compress : ECCL_COMPRESS_AUTO);
    d.fallback = (eccl_fallback_t)env_choice(&env_fallback, fallback_names, 3,
                                             d.fallback ? (int)d.fallback : ECCL_FALLBACK_MPI);
    if (!d.sum_mode) d.sum_mode = ECCL_SUM_HARD;
    if (!(d.sum_c > 0)) d.sum_c = 2.0;
    d.alpha = env_double(&env_alpha, d.alpha, 0);
    d.beta = env_double(&env_beta, d.beta, 0);
    if (!(d.min_bytes >= 0)) d.min_bytes = 65536.0;
    d.min_bytes = env_double(&env_min_bytes, d.min_bytes, 1);
    d.format = env_choice(&env_format, format_names, 3, d.format ? d.format : 1);
    *c = d;
}

/* Half a round trip of `bytes` between ranks 0 and 1, best of `reps`. */
/* One-way time of `bytes` between ranks 0 and `peer` (best of reps; every rank takes part in
 * the barriers). */
static double pingpong(MPI_Comm comm, int rank, int peer, void *buf, int bytes, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, peer, 0, comm);
            MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, comm, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 0, comm);
        }
        double t = (MPI_Wtime() - t0) / 2;
        best = t < best ? t : best;
    }
    return best;
}

/* This rank's share of the cores it may run on: the CPUs of its affinity mask, and the node's
 * CPUs divided by the ranks on the node (the larger of this communicator's ranks on the node and
 * what the launcher says: MPICH's hydra, Open MPI, MVAPICH, PALS). The codec's OpenMP threads in
 * collectives are capped to it, so ranks x threads does not oversubscribe the node. */
static int core_share(MPI_Comm comm)
{
    int local = 1;
    MPI_Comm node;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    static const char *const vars[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                       "MV2_COMM_WORLD_LOCAL_SIZE", "PALS_LOCAL_SIZE"};
    for (size_t k = 0; k < sizeof vars / sizeof *vars; k++) {
        const char *v = getenv(vars[k]);
        int n = v ? atoi(v) : 0;
        if (n > local) local = n;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int share = cpus > 0 ? (int)(cpus / local) : 1;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int mine = CPU_COUNT(&set);
        if (mine > 0 && mine < share) share = mine;
    }
    return share > 0 ? share : 1;
}

/* Codec throughput on a smooth float32 field at ABS 1e-4 (best of 3), writing format version
 * vmajor: measured once per process and version (a documented, thread-safe cache: the first
 * caller measures, later ones read). */
static _Atomic int codec_cal_state[3];
static double codec_cal[3][4];

static void codec_calibration(int vmajor, double out[4])
{
    const int vi = vmajor >= 1 && vmajor <= 3 ? vmajor - 1 : 0;
    if (atomic_load_explicit(&codec_cal_state[vi], memory_order_acquire)) {
        memcpy(out, codec_cal[vi], sizeof codec_cal[vi]);
        return;
    }
    size_t n = (size_t)1 << 20;
    float *x = malloc(n * sizeof *x);
    size_t cap = eccl_compress_bound(n, ECCL_FLOAT32), size = 0, size2 = 0;
    unsigned char *s = malloc(cap), *s2 = malloc(cap);
    double v[4] = {ECCL_MDL_CPU_C_THR, ECCL_MDL_CPU_D_THR, ECCL_MDL_CPU_H_THR, ECCL_MDL_CPU_G_THR};
    if (x && s && s2) {
        for (size_t i = 0; i < n; i++) x[i] = (float)(sin(i * 1e-3) * cos(i * 3e-4));
        eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
        double best[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        int rc = 0;
        for (int rep = 0; rep < 3 && rc == 0; rep++) { /* best of 3: one cold run misleads */
            double t0 = eccl_wtime();
            rc |= eccl_compress_fmt(x, n, ECCL_FLOAT32, &b, s, cap, &size, ECCL_PATH_AUTO, vmajor);
            double t1 = eccl_wtime();
            rc |= eccl_decompress(s, size, x, n, ECCL_FLOAT32);
            double t2 = eccl_wtime();
            rc |= eccl_hom_reduce(s, size, x, n, ECCL_FLOAT32, ECCL_OP_SUM, s2, cap, &size2);
            double t3 = eccl_wtime();
            for (size_t i = 1; i < n; i++) x[i] += x[i - 1] * 1e-9f;
            double t4 = eccl_wtime();
            double t[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3 + 1e-9};
            for (int k = 0; k < 4; k++) best[k] = t[k] < best[k] ? t[k] : best[k];
        }
        if (rc == 0)
            for (int k = 0; k < 4; k++) v[k] = (double)n * 4 / best[k];
    }
    free(x);
    free(s);
    free(s2);
    memcpy(codec_cal[vi], v, sizeof v);
    atomic_store_explicit(&codec_cal_state[vi], 1, memory_order_release);
    memcpy(out, v, sizeof v);
}

/* Where the ranks are (comm.h: eccl_topo_t), and the two ranks the link probes talk to: *peer_in
 * another rank on rank 0's node, *peer_x the lowest rank on another node (-1: none). */
static eccl_result_t topology(eccl_comm_t c, int *peer_in, int *peer_x)
{
    eccl_topo_t *t = &c->topo;
    MPI_Comm node = MPI_COMM_NULL;
    t->node = t->inter = MPI_COMM_NULL;
    t->nnodes = 1;
    t->lsize = c->size;
    t->lrank = c->rank;
    *peer_in = c->size > 1 ? 1 : -1;
    *peer_x = -1;
    if (c->child || c->size == 1) return ECCL_SUCCESS;
    long k = eccl_env_long(&env_node_size);
    int mrc;
    if (k > 0) {
        int wrank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
        mrc = MPI_Comm_split(c->comm, (int)(wrank / k), c->rank, &node);
    } else {
        mrc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node);
    }
    if (mrc != MPI_SUCCESS) return eccl_comm_error(c, ECCL_ERR_MPI, "splitting the communicator by node failed");
    MPI_Comm_size(node, &t->lsize);
    MPI_Comm_rank(node, &t->lrank);
    /* the node's id: its lowest rank; then how many nodes, whether they are alike, and the peers */
    int id = c->rank, v[5];
    mrc = MPI_Allreduce(MPI_IN_PLACE, &id, 1, MPI_INT, MPI_MIN, node);
    v[0] = t->lrank == 0;                           /* SUM: nodes */
    v[1] = t->lsize;                                /* MAX */
    v[2] = -t->lsize;                               /* MAX: -min */
    v[3] = id == 0 && c->rank != 0 ? -c->rank : -c->size; /* MAX: -(lowest other rank on node 0) */
    v[4] = id != 0 ? -c->rank : -c->size;           /* MAX: -(lowest rank on another node) */
    int nodes = 0;
    if (mrc == MPI_SUCCESS) mrc = MPI_Allreduce(&v[0], &nodes, 1, MPI_INT, MPI_SUM, c->comm);
    if (mrc == MPI_SUCCESS) mrc = MPI_Allreduce(MPI_IN_PLACE, &v[1], 4, MPI_INT, MPI_MAX, c->comm);
    if (mrc != MPI_SUCCESS) {
        MPI_Comm_free(&node);
        return eccl_comm_error(c, ECCL_ERR_MPI, "exchanging the node layout failed");
    }
    t->nnodes = nodes;
    *peer_in = -v[3] < c->size ? -v[3] : -1;
    *peer_x = -v[4] < c->size ? -v[4] : -1;
    t->hier = nodes > 1 && v[1] == -v[2] && v[1] > 1;
    if (t->hier) {
        t->node = node;
        if (MPI_Comm_split(c->comm, t->lrank, c->rank, &t->inter) != MPI_SUCCESS) {
            MPI_Comm_free(&t->node);
            return eccl_comm_error(c, ECCL_ERR_MPI, "creating the inter-node communicator failed");
        }
        MPI_Comm_set_errhandler(t->node, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(t->inter, MPI_ERRORS_RETURN);
    } else {
        MPI_Comm_free(&node);
    }
    return ECCL_SUCCESS;
}

static void topo_free(eccl_topo_t *t)
{
    if (t->xcomm) eccl_comm_free(&t->xcomm);
    if (t->node != MPI_COMM_NULL) MPI_Comm_free(&t->node);
    if (t->inter != MPI_COMM_NULL) MPI_Comm_free(&t->inter);
}

eccl_result_t eccl_comm_create(MPI_Comm mcomm, const eccl_config_t *config, eccl_comm_t *out)
{
    return eccl_comm_create_internal(mcomm, config, 0, out);
}

eccl_comm_t eccl_comm_inter(eccl_comm_t comm)
{
    eccl_topo_t *t = &comm->topo;
    if (t->xcomm || !t->hier) return t->xcomm;
    eccl_config_t cfg = comm->cfg;
    cfg.alpha = comm->models.alpha;
    cfg.beta = comm->models.beta;
    eccl_result_t rc = eccl_comm_create_internal(t->inter, &cfg, 1, &t->xcomm);
    if (rc) {
        eccl_comm_error(comm, rc, "creating the inter-node eccl communicator failed");
        return NULL;
    }
    t->xcomm->cfg.compress = ECCL_COMPRESS_ALWAYS; /* the parent's model chose compression */
    t->xcomm->cfg.fallback = comm->cfg.fallback;
    /* the codec shares the node's cores as the parent's does (one rank of the inter-node
     * communicator per node would otherwise take them all on every rank) */
    t->xcomm->threads = comm->threads;
    /* ECCL_FAULT_INJECT: the faulty rank's messages between nodes count as its own */
    t->xcomm->fault_countdown = comm->fault_countdown;
    return t->xcomm;
}

/* The communicator to wrap: not MPI_COMM_NULL, and not an intercommunicator, whose collectives have
 * other semantics (two groups). Local checks (MPI_Comm_test_inter is local), made before anything
 * collective. */
static eccl_result_t check_mpi_comm(MPI_Comm mcomm)
{
    int inter = 0;
    if (mcomm == MPI_COMM_NULL) return ECCL_ERR_INVALID_ARG;
    if (MPI_Comm_test_inter(mcomm, &inter) != MPI_SUCCESS) return ECCL_ERR_MPI;
    return inter ? ECCL_ERR_INVALID_ARG : ECCL_SUCCESS;
}

eccl_result_t eccl_comm_create_internal(MPI_Comm mcomm, const eccl_config_t *config, int child, eccl_comm_t *out)
{
    eccl_result_t rc = ECCL_SUCCESS;
    eccl_comm_t c = NULL;
    void *buf = NULL;
    if (!out) return ECCL_ERR_INVALID_ARG;
    *out = NULL;
    if (config && (config->format < 0 || config->format > 3)) return ECCL_ERR_INVALID_ARG;
    if ((rc = check_mpi_comm(mcomm))) return rc;
    c = calloc(1, sizeof *c);
    if (!c) return ECCL_ERR_NO_MEMORY;
    if (MPI_Comm_dup(mcomm, &c->comm) != MPI_SUCCESS) {
        free(c);
        return ECCL_ERR_MPI;
    }
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    c->tr.op_max = c->tr.op_min = MPI_OP_NULL;
    c->topo.node = c->topo.inter = MPI_COMM_NULL;
    if ((rc = eccl_transports_create(c))) goto fn_exit;
    MPI_Comm_size(c->comm, &c->size);
    MPI_Comm_rank(c->comm, &c->rank);
    resolve_config(&c->cfg, config);
    const char *fault = eccl_env_str(&env_fault);
    int frank = -1;
    long fnth = 0;
    if (fault && sscanf(fault, "%d:%ld", &frank, &fnth) == 2 && frank == c->rank && fnth > 0)
        c->fault_countdown = fnth;

    c->child = child;
    if (child) c->fault_countdown = 0;
    int peer_in = -1, peer_x = -1;
    if ((rc = topology(c, &peer_in, &peer_x))) goto fn_exit;

    /* Calibrate on rank 0 and its peers, then share, so every rank's model is identical. The
     * model's link is the slowest one (between nodes: rank 0 and the first rank of another node,
     * else ranks 0 and 1); on several nodes the link inside one is measured too (rank 0 and
     * another rank of its node) unless alpha and beta are given (then both links are those). */
    double m[8] = {c->cfg.alpha, c->cfg.beta, 0, 0, 0, 0, c->cfg.alpha, c->cfg.beta}, cal[4];
    int given = m[0] > 0 && m[1] > 0;
    if (c->size > 1 && !given) {
        const int big = 1 << 22;
        buf = calloc(1, big);
        if (!buf) ECCL_FAIL(rc, ECCL_ERR_NO_MEMORY);
        for (int link = 0; link < 2; link++) {
            int peer = link == 0 ? (peer_x >= 0 ? peer_x : 1) : peer_in;
            if (link == 1 && (peer_x < 0 || peer_in < 0)) break; /* one kind of link only */
            double t_small = pingpong(c->comm, c->rank, peer, buf, 8, 20);
            double t_big = pingpong(c->comm, c->rank, peer, buf, big, 3);
            double a = t_small > 1e-7 ? t_small : 1e-7, b = t_big > t_small ? (t_big - t_small) / big : 1e-11;
            if (!(m[6 * link] > 0)) m[6 * link] = a;
            if (!(m[6 * link + 1] > 0)) m[6 * link + 1] = b;
        }
        if (peer_x < 0 || peer_in < 0) {
            m[6] = m[0];
            m[7] = m[1];
        }
    }
#ifdef HAVE_CUDA
    { /* only where every rank can hold device memory is the per-call device agreement (GPU codec
       * figures, NCCL) worth its cost */
        int loaded = eccl_cuda_driver_loaded();
        if (MPI_Allreduce(&loaded, &c->gpu.all, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
            ECCL_FAIL(rc, ECCL_ERR_MPI);
        c->gpu.priority = eccl_env_long(&env_gpu_priority) != 0;
        c->gpu.observe = eccl_env_long(&env_gpu_observe) != 0;
    }
#endif
    c->threads = core_share(c->comm);
    if (c->rank == 0) {
        int old_cap = eccl_codec_set_threads(c->threads);
        codec_calibration(c->cfg.format, cal);
        eccl_codec_set_threads(old_cap);
        m[2] = cal[0];
        m[3] = cal[1];
        m[4] = cal[2];
        m[5] = cal[3];
    }
    if (MPI_Bcast(m, 8, MPI_DOUBLE, 0, c->comm) != MPI_SUCCESS) ECCL_FAIL(rc, ECCL_ERR_MPI);
    eccl_models_init(&c->models, m);
    ECCL_LOG(1, c->rank,
             "comm created: %d ranks on %d node(s)%s, alpha %.3g s, beta %.3g s/B (%.2f GB/s), inside a "
             "node %.3g s, %.2f GB/s, codec %.2f/%.2f/%.2f GB/s",
             c->size, c->topo.nnodes, c->topo.hier ? " (hierarchical)" : "", c->models.alpha, c->models.beta,
             1e-9 / c->models.beta, c->models.alpha_in, 1e-9 / c->models.beta_in, c->models.cpu[0] * 1e-9,
             c->models.cpu[1] * 1e-9, c->models.cpu[2] * 1e-9);
    *out = c;
    c = NULL;
fn_exit:
    free(buf);
    if (c) {
        eccl_transports_free(c);
        topo_free(&c->topo);
        MPI_Comm_free(&c->comm);
        free(c);
    }
    return rc;
}

eccl_result_t eccl_comm_free(eccl_comm_t *comm)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    if (!*comm) return ECCL_SUCCESS;
    eccl_engine_free(*comm); /* (its requests complete first) */
    eccl_transports_free(*comm); /* (before the node's communicator and the GPU context go) */
    topo_free(&(*comm)->topo);
    eccl_pool_free(&(*comm)->pool);
    eccl_pool_free(&(*comm)->stage);
    eccl_dev_ctx_free((*comm)->gpu.ctx);
    int mrc = MPI_Comm_free(&(*comm)->comm);
    free(*comm);
    *comm = NULL;
    return mrc == MPI_SUCCESS ? ECCL_SUCCESS : ECCL_ERR_MPI;
}

/* ---- the communicator's state (after its nonblocking calls in flight: engine.c) ---- */

eccl_result_t eccl_cuda_comm_set_stream(eccl_comm_t comm, cudaStream_t stream)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    eccl_engine_quiesce(comm); /* (the requests in flight keep the stream they were posted under) */
    comm->errmsg[0] = '\0';
#ifdef HAVE_CUDA
    comm->gpu.user_stream = (void *)stream;
    return ECCL_SUCCESS;
#else
    (void)stream;
    return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED, "eccl_cuda_comm_set_stream: eccl was built without the CUDA backend");
#endif
}

const char *eccl_comm_last_error(eccl_comm_t comm)
{
    if (!comm) return "NULL communicator";
    eccl_engine_quiesce(comm);
    return comm->errmsg;
}

eccl_result_t eccl_comm_last_stats(eccl_comm_t comm, eccl_stats_t *stats)
{
    if (!comm || !stats) return ECCL_ERR_INVALID_ARG;
    eccl_engine_quiesce(comm);
    *stats = comm->last;
    return ECCL_SUCCESS;
}
