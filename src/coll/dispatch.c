/*
 * dispatch.c - the public collectives: check arguments, turn the user's bound on the RESULT into
 * the bound each message is compressed with, choose the algorithm (explicit environment override,
 * else the cost model with a sampled compression ratio, else plain MPI), run it, and record what
 * happened in the communicator's statistics.
 *
 * Every rank must take the same decision: decisions depend only on values all ranks share (the
 * arguments MPI requires to match, the model broadcast at creation) or on data-dependent figures
 * agreed in one small collective (a broadcast from the root, or an allreduce).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "coll/coll.h"
#include "coll/model.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "prims/prims.h"
#include "transport/transport.h"

#ifdef HAVE_CUDA
/* ECCL_TRANSPORT=mpi keeps device-resident calls on MPI (doc/env.md). */
ECCL_ENV(env_transport, "ECCL_TRANSPORT", 0);
/* Testing only: rank R acts as if its GPU had no memory for a device-resident call (doc/env.md). */
ECCL_ENV(env_fault_dev, "ECCL_FAULT_DEV_ALLOC", -1);
static int nccl_allowed(void)
{
    const char *v = eccl_env_str(&env_transport);
    return !v || strcmp(v, "mpi") != 0;
}
static int nccl_forced(void)
{
    const char *v = eccl_env_str(&env_transport);
    return v && !strcmp(v, "nccl");
}
#endif

/* ECCL_<OP>_ALGORITHM=<name> forces an algorithm (doc/env.md; names in eccl-info). */
static eccl_env_t env_algo[ECCL_NCOLLS] = {
    {"ECCL_BCAST_ALGORITHM", 0, 0, 0, 0},     {"ECCL_ALLREDUCE_ALGORITHM", 0, 0, 0, 0},
    {"ECCL_REDUCE_ALGORITHM", 0, 0, 0, 0},    {"ECCL_REDUCE_SCATTER_BLOCK_ALGORITHM", 0, 0, 0, 0},
    {"ECCL_ALLGATHER_ALGORITHM", 0, 0, 0, 0}, {"ECCL_SCATTER_ALGORITHM", 0, 0, 0, 0},
    {"ECCL_GATHER_ALGORITHM", 0, 0, 0, 0},    {"ECCL_SENDRECV_REPLACE_ALGORITHM", 0, 0, 0, 0}};

/* The ratio assumed where no data can be sampled (pairwise exchanges decide from sizes alone). */
#define ECCL_ASSUMED_RATIO 4.0
/* A ratio no stream reaches: with it the model gives a lower bound of every compressed time. */
#define ECCL_RATIO_CEILING 1e6
/* How much faster (as a fraction of the MPI time) a compressed algorithm must be predicted. */
#define ECCL_MODEL_MARGIN 0.1

/* Whether an algorithm runs on device buffers where they are (coll.h). */
static int runs_resident(const eccl_algo_t *a) { return ECCL_ALG_RESIDENT(a->flags) != 0; }

static int op_compressible(const eccl_call_t *c)
{
    if (c->op == ECCL_OP_SUM || c->op == ECCL_OP_AVG) return 1;
    if (c->op == ECCL_OP_MAX || c->op == ECCL_OP_MIN)
        return c->dtype == ECCL_FLOAT32 || c->dtype == ECCL_FLOAT64;
    return 0;
}

static int is_reduction(eccl_coll_t k)
{
    return k == ECCL_COLL_ALLREDUCE || k == ECCL_COLL_REDUCE || k == ECCL_COLL_REDUCE_SCATTER_BLOCK;
}

/* Elements of the buffer the algorithms move (what "bytes" of the model counts). */
static size_t total_elems(const eccl_call_t *c)
{
    switch (c->coll) {
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
    case ECCL_COLL_ALLGATHER:
    case ECCL_COLL_SCATTER:
    case ECCL_COLL_GATHER: return c->count * (size_t)c->size;
    default: return c->count;
    }
}

/* The data this rank can sample (NULL if it holds none that matters for the decision). */
static const void *local_data(const eccl_call_t *c, size_t *n)
{
    switch (c->coll) {
    case ECCL_COLL_BCAST: *n = c->count; return c->rank == c->root ? c->recvbuf : NULL;
    case ECCL_COLL_SCATTER: *n = c->count * (size_t)c->size; return c->rank == c->root ? c->sendbuf : NULL;
    case ECCL_COLL_REDUCE_SCATTER_BLOCK: *n = c->count * (size_t)c->size; return c->sendbuf;
    case ECCL_COLL_SENDRECV_REPLACE: *n = c->count; return c->recvbuf;
    default: *n = c->count; return c->sendbuf;
    }
}

static int rooted(const eccl_call_t *c) { return c->coll == ECCL_COLL_BCAST || c->coll == ECCL_COLL_SCATTER; }

/* Compress up to four tile-sized windows of the data and return raw bytes / compressed bytes. */
static double sample_ratio(eccl_call_t *c, const void *data, size_t n)
{
    size_t win = 8192 / (c->dtype >= ECCL_COMPLEX64 ? 2 : 1), nwin = 4;
    if (n <= win * nwin) {
        win = n;
        nwin = 1;
    }
    size_t cap = eccl_compress_bound(win, c->dtype), raw = 0, comp = 0;
    /* device data: each window is copied to the host after the stream buffer (the two codecs
     * make the same bytes, so the host codec measures the ratio the GPU's would give) */
    size_t wbytes = c->dev ? win * c->esize : 0, off = (cap + 63) & ~(size_t)63;
    unsigned char *buf = eccl_pool_get(&c->comm->pool, ECCL_SLOT_SAMPLE, off + wbytes);
    if (!buf || n == 0) return 1.0;
    double t0 = eccl_wtime();
    for (size_t k = 0; k < nwin; k++) {
        size_t start = nwin == 1 ? 0 : (n - win) / (nwin - 1) * k, size = 0;
        const unsigned char *w = (const unsigned char *)data + start * c->esize;
        if (c->dev) {
            eccl_dev_layout_t lb;
            const eccl_dev_layout_t *lay;
            const void *at = eccl_prim_at(c, w, &lb, &lay); /* (a matrix call: its columns) */
            if (eccl_dev_copy_from(c->comm->dev, buf + off, at, lay, win, c->esize)) return 1.0;
            w = buf + off;
        }
        if (eccl_compress(w, win, c->dtype, &c->mbound, buf, cap, &size)) return 1.0;
        raw += win * c->esize;
        comp += size;
    }
    c->st->t_codec += eccl_wtime() - t0;
    return comp ? (double)raw / (double)comp : 1.0;
}

/* The per-message bound for a result bound E (doc/guarantees.md, collectives). */
static double message_bound(const eccl_call_t *c, double E)
{
    if (!is_reduction(c->coll)) return E;
    double q = c->requant ? 1.0 : 0.0; /* one more quantization of a reduced value */
    if (c->op == ECCL_OP_MAX || c->op == ECCL_OP_MIN) return E / (1.0 + q);
    const double shave = 1.0 - 0x1p-50; /* so that p * (E/p) cannot round above E */
    double p = (double)c->size;
    if (c->op == ECCL_OP_AVG) return E * p / (p + q) * shave;
    if (c->comm->cfg.sum_mode == ECCL_SUM_STATISTICAL) return c->comm->cfg.sum_c * E / sqrt(p + q);
    return E / (p + q) * shave;
}

static void set_bound(eccl_call_t *c, double E)
{
    c->E = E;
    double eb = message_bound(c, E);
    if (E > 0 && eb > 0) {
        c->mbound.mode = ECCL_MODE_ABS;
        c->mbound.value = eb;
    } else {
        c->mbound.mode = ECCL_MODE_LOSSLESS;
        c->mbound.value = 0;
    }
    c->mbound.range = 0;
    c->st->bound_requested = E;
    c->st->eb_per_message = c->mbound.value;
}

static double result_bound(const eccl_bound_t *b, double range)
{
    if (b->mode == ECCL_MODE_LOSSLESS) return 0.0;
    double E = b->mode == ECCL_MODE_ABS ? b->value : b->value * range;
    if (!(E >= 0)) return 0.0;
    return E < 1e301 ? E : 1e301;
}

/* The model's choice at `ratio` (`compressed_only` for policy ALWAYS). A compressed algorithm
 * must beat the uncompressed one by ECCL_MODEL_MARGIN: its time is the less certain (a sampled
 * ratio, a codec speed calibrated on other data), and a wrong compressed choice also takes the
 * CPU from the caller. */
static const eccl_algo_t *model_choice(eccl_call_t *c, double ratio, int compressed_only,
                                       double *t_mpi, double *t_best)
{
    const eccl_algo_t *best = NULL, *mpi = NULL;
    double t_comp = INFINITY;
    const eccl_model_t *m = mdl_of(c);
    *t_mpi = INFINITY;
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
        if (a->coll != c->coll || (a->applies && !a->applies(c))) continue;
        double t = a->cost(m, c, ratio);
        /* device-resident calls: an algorithm that needs host data stages the buffer whole */
        if (!runs_resident(a) && !((a->flags & ECCL_ALG_NODE_DEVICE) && eccl_tr_node_dev_priced(c->comm)))
            t += m->stage * mdl_bytes(c, total_elems(c));
        ECCL_LOG(2, c->rank, "%s: model predicts %s %.3f ms at ratio %.2f", eccl_coll_name(c->coll),
                 a->name, t * 1e3, ratio);
        if (!(a->flags & ECCL_ALG_COMPRESSED)) { /* the fastest uncompressed one (MPI, NCCL) */
            if (!mpi || t < *t_mpi) {
                mpi = a;
                *t_mpi = t;
            }
        } else if (!best || t < t_comp) {
            best = a;
            t_comp = t;
        }
    }
    if (!compressed_only && mpi && !(best && t_comp < (1.0 - ECCL_MODEL_MARGIN) * *t_mpi)) {
        *t_best = *t_mpi;
        return mpi;
    }
    *t_best = best ? t_comp : *t_mpi;
    return best ? best : mpi;
}

static int algo_index(const eccl_algo_t *a) { return (int)(a - eccl_algorithms); }
static int num_algorithms(void)
{
    int n = 0;
    while (eccl_algorithms[n].name) n++;
    return n;
}

/* The call's signature: what every rank must pass alike (MPI's rule for count, datatype,
 * operation and root, plus the bound and a forced algorithm). Every call that runs compressed
 * compares it in the agreement it makes anyway (choose), so a mismatch returns
 * ECCL_ERR_MISMATCH on every rank instead of a hang, an MPI abort or a bound broken on some rank.
 * As doubles, each exact: the count in two 32-bit halves. */
enum { SIG_COLL, SIG_COUNT_HI, SIG_COUNT_LO, SIG_DTYPE, SIG_OP, SIG_ROOT, SIG_MODE, SIG_VALUE, SIG_RANGE, SIG_ALGO,
       SIG_N };
/* the agreement's doubles: 5 figures, then the signature and its negation (MAX gives max and -min) */
#define AGREE_N (5 + 2 * SIG_N)

static void sig_fill(const eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t *forced, double *v)
{
    uint64_t n = c->count;
    int has_root = c->coll == ECCL_COLL_BCAST || c->coll == ECCL_COLL_REDUCE || c->coll == ECCL_COLL_SCATTER ||
                   c->coll == ECCL_COLL_GATHER;
    double s[SIG_N];
    s[SIG_COLL] = (double)c->coll;
    s[SIG_COUNT_HI] = (double)(n >> 32);
    s[SIG_COUNT_LO] = (double)(n & 0xffffffffu);
    s[SIG_DTYPE] = (double)c->dtype;
    s[SIG_OP] = is_reduction(c->coll) ? (double)c->op : 0.0;
    s[SIG_ROOT] = has_root ? (double)c->root : 0.0;
    s[SIG_MODE] = (double)b->mode;
    s[SIG_VALUE] = b->mode == ECCL_MODE_LOSSLESS ? 0.0 : b->value;
    s[SIG_RANGE] = b->mode == ECCL_MODE_REL ? b->range : 0.0;
    s[SIG_ALGO] = forced ? (double)(algo_index(forced) + 1) : 0.0;
    for (int k = 0; k < SIG_N; k++) {
        v[k] = s[k];
        v[SIG_N + k] = -s[k];
    }
}

static eccl_result_t sig_check(eccl_call_t *c, const double *v)
{
    static const char *const what[SIG_N] = {"collective", "count", "count", "datatype", "operation", "root",
                                            "bound mode", "bound value", "bound range", "forced algorithm"};
    for (int k = 0; k < SIG_N; k++)
        if (v[k] != -v[SIG_N + k]) {
            if (k == SIG_COUNT_HI || k == SIG_COUNT_LO)
                return eccl_comm_error(c->comm, ECCL_ERR_MISMATCH, "%s: the count differs across ranks (this rank: %zu)",
                                       eccl_coll_name(c->coll), c->count);
            return eccl_comm_error(c->comm, ECCL_ERR_MISMATCH, "%s: the %s differs across ranks (from %.17g to %.17g)",
                                   eccl_coll_name(c->coll), what[k], -v[SIG_N + k], v[k]);
        }
    return ECCL_SUCCESS;
}

/* The fallback policy (doc/collectives.md section 7) for a call that cannot run compressed: plain
 * MPI (with a warning once per communicator under WARN), or ECCL_ERR_UNSUPPORTED under ERROR. The
 * same on every rank: what triggers it is an argument every rank passes alike. */
static eccl_result_t fall_back(eccl_call_t *c, const eccl_algo_t *mpi, const char *what, const char *reason,
                               const eccl_algo_t **out)
{
    eccl_comm_t comm = c->comm;
    if (comm->cfg.fallback == ECCL_FALLBACK_ERROR)
        return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED, "%s cannot run compressed here (%s) and ECCL_FALLBACK=error",
                               eccl_coll_name(c->coll), what);
    if (comm->cfg.fallback == ECCL_FALLBACK_WARN && !comm->warned && c->rank == 0) {
        fprintf(stderr, "eccl: warning: %s falls back to uncompressed MPI (%s)\n", eccl_coll_name(c->coll), what);
        comm->warned = 1;
    }
    snprintf(c->st->reason, sizeof c->st->reason, "fallback: %s", reason);
    *out = mpi;
    set_bound(c, 0.0);
    return ECCL_SUCCESS;
}

/* The algorithm forced for this call (eccl_comm_set_algorithm, else ECCL_<OP>_ALGORITHM; NULL:
 * auto) and whether the call wants compression (a forced compressed algorithm, or a policy other
 * than never). */
static eccl_result_t find_forced(eccl_call_t *c, const eccl_algo_t **forced, int *want_compressed)
{
    eccl_comm_t comm = c->comm;
    const char *forced_name = comm->child ? NULL : eccl_env_str(&env_algo[c->coll]);
    *forced = NULL;
    if (comm->forced[c->coll]) {
        *forced = &eccl_algorithms[comm->forced[c->coll] - 1];
    } else if (forced_name && *forced_name && strcmp(forced_name, "auto") != 0) {
        *forced = eccl_algo_find(c->coll, forced_name);
        if (!*forced)
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s=%s: no such algorithm (see eccl-info)",
                                   env_algo[c->coll].name, forced_name);
    }
    *want_compressed = *forced ? ((*forced)->flags & ECCL_ALG_COMPRESSED) != 0 : comm->cfg.compress != ECCL_COMPRESS_NEVER;
    return ECCL_SUCCESS;
}

static eccl_result_t choose(eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t **out)
{
    eccl_comm_t comm = c->comm;
    const eccl_algo_t *mpi = NULL; /* plain MPI: the first uncompressed entry */
    for (const eccl_algo_t *a = eccl_algorithms; a->name && !mpi; a++)
        if (a->coll == c->coll && !(a->flags & ECCL_ALG_COMPRESSED)) mpi = a;
    const eccl_algo_t *forced = NULL;
    int want_compressed = 0;
    eccl_result_t frc = find_forced(c, &forced, &want_compressed);
    if (frc) return frc;
    size_t n = total_elems(c);
    double bytes = (double)n * (double)c->esize;
    const char *why = comm->forced[c->coll] ? "forced by eccl_comm_set_algorithm"
                      : forced                ? "forced by the environment"
                                              : "auto";

    /* An operation compression cannot do: the fallback policy, consulted before min_bytes
     * (doc/collectives.md section 7: with ECCL_FALLBACK=error even a tiny PROD fails). */
    if (want_compressed && is_reduction(c->coll) && !op_compressible(c))
        return fall_back(c, mpi, "operation/datatype", "cannot compress this operation/datatype", out);

    /* Small calls go to MPI before anything else. */
    if (want_compressed && !forced && comm->cfg.compress == ECCL_COMPRESS_AUTO && bytes < comm->cfg.min_bytes) {
        *out = mpi;
        set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%.0f bytes < min_bytes %.0f", bytes, comm->cfg.min_bytes);
        return ECCL_SUCCESS;
    }

#ifdef HAVE_CUDA
    /* A device-resident rank first allocates every device buffer the call's operations can need
     * (eccl_dev_reserve: no operation allocates after this): a rank whose GPU is out of memory
     * learns it now, alone, says it is not device-resident in the agreement below, and stages its
     * buffers through host memory (run): the streams are the same either way, so its peers do not
     * care, and nobody is left waiting for a rank that failed in the middle of the call. */
    if (c->dev && (want_compressed || (forced && (forced->flags & ECCL_ALG_DEVICE)))) {
        eccl_result_t rrc = eccl_env_long(&env_fault_dev) == c->rank && !comm->child
                                ? ECCL_ERR_NO_MEMORY /* (testing: ECCL_FAULT_DEV_ALLOC) */
                                : eccl_dev_reserve(comm->dev, c->count, c->dtype);
        if (rrc) {
            c->dev_short = 1;
            ECCL_LOG(1, c->rank, "%s: no device memory for a device-resident call of %zu elements (%s): this rank "
                     "stages its buffers through host memory", eccl_coll_name(c->coll), c->count, eccl_strerror(rrc));
        }
    }
    /* Whether every rank runs device-resident (the model then prices the GPU codec, measured at
     * the first such call), and then whether NCCL carries the call (its uncompressed algorithms
     * become candidates, compressed ones send their streams through it; not with
     * ECCL_TRANSPORT=mpi): one small agreement, on communicators created while every rank had
     * CUDA loaded. Before the 'no ratio would pay' check below, which must price the codec that
     * would run. */
    if ((want_compressed || (forced && (forced->flags & ECCL_ALG_DEVICE))) && comm->cuda_all) {
        int all_dev = 0, use = 0;
        int resident = c->dev && !c->dev_short;
        eccl_result_t rc = nccl_allowed() ? eccl_tr_nccl_agree(comm, resident, &all_dev, &use)
                                          : eccl_tr_dev_agree(comm, resident, &all_dev);
        if (rc) return rc;
        c->gm = all_dev;
        c->nccl = use;
        /* streams by NCCL only where its link beats MPI's (both measured; same figures everywhere) */
        c->nccl_streams = use && (nccl_forced() || comm->nmodel.beta < comm->gmodel.beta);
        c->gm_agreed = 1;
    }
#endif

    /* Forced algorithms that cannot run here (their restriction may depend on the agreement
     * above): fallback policy. */
    if (forced && forced->applies && !forced->applies(c))
        return fall_back(c, mpi, forced->restriction, forced->restriction, out);
    if (!want_compressed) {
        *out = forced ? forced : mpi;
        set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%s", forced ? why : (comm->cfg.compress == ECCL_COMPRESS_NEVER ? "compression disabled" : why));
        return ECCL_SUCCESS;
    }

    /* When the model says plain MPI wins even at an unbounded ratio (a link faster than the codec,
     * or a message too small to amortise it), no data needs to be sampled: decided from figures
     * every rank shares, with no message. */
    if (!forced && comm->cfg.compress == ECCL_COMPRESS_AUTO) {
        double t_mpi = 0, t_best = 0;
        const eccl_algo_t *a = model_choice(c, ECCL_RATIO_CEILING, 0, &t_mpi, &t_best);
        if (a && !(a->flags & ECCL_ALG_COMPRESSED)) {
            *out = a;
            set_bound(c, 0.0);
            c->st->model_ratio = ECCL_RATIO_CEILING;
            c->st->model_t_mpi = t_mpi;
            c->st->model_t_chosen = t_best;
            snprintf(c->st->reason, sizeof c->st->reason, "cost model: no ratio would pay here");
            return ECCL_SUCCESS;
        }
    }

    /* Data-dependent: the range (REL) and the sampled ratio, agreed by all ranks together with the
     * call's signature. */
    int need_ratio = !forced;
    size_t ln = 0;
    const void *ld = local_data(c, &ln);
    /* -min, max, -ratio, 1 where this rank's call is not device-resident, and 1 where this rank's
     * node has refused CUDA IPC windows (all reduced by MAX); then the signature (sig_fill) */
    double v[AGREE_N] = {-INFINITY, -INFINITY, -INFINITY, c->dev && !c->dev_short ? 0.0 : 1.0,
                         comm->nwin_state < 0 ? 1.0 : 0.0};
    sig_fill(c, b, forced, v + 5);
    int data_range = b->mode == ECCL_MODE_REL && b->range == ECCL_RANGE_FROM_DATA; /* else given */
    if (ld && data_range) {
        /* a rank with no finite value (all NaN or inf, or a failed device range) adds nothing: the
         * range is that of the finite values of the ranks that have some (lo > hi: none here) */
        double lo = INFINITY, hi = -INFINITY;
        if (c->dev) {
            /* a failure adds nothing (a smaller E is always safe); the same runtime error surfaces
             * in the algorithm's first device operation */
            eccl_dev_layout_t lb;
            const eccl_dev_layout_t *lay;
            const void *at = eccl_prim_at(c, ld, &lb, &lay);
            if (eccl_dev_range(c->comm->dev, at, lay, ln, c->dtype, &lo, &hi)) lo = INFINITY, hi = -INFINITY;
        } else {
            size_t nfinite = 0;
            if (eccl_data_range_n(ld, ln, c->dtype, &lo, &hi, &nfinite) || !nfinite) lo = INFINITY, hi = -INFINITY;
        }
        if (lo <= hi) {
            v[0] = -lo;
            v[1] = hi;
        }
    }
    double range = !data_range ? b->range : v[0] + v[1] > 0 ? v[0] + v[1] : 0.0;
    if (need_ratio && ld && c->coll != ECCL_COLL_SENDRECV_REPLACE) {
        set_bound(c, result_bound(b, range));
        v[2] = -sample_ratio(c, ld, ln);
    }
    if (c->coll == ECCL_COLL_SENDRECV_REPLACE) {
        /* pairwise: both sides decide from sizes alone; the sender's range bounds its data, and a
         * receiver whose own bound is absolute (ABS, LOSSLESS) refuses a stream made with a larger
         * one (the algorithm checks c->eb_recv_max) */
        set_bound(c, result_bound(b, range));
        c->eb_recv_max = b->mode == ECCL_MODE_REL ? INFINITY : c->E;
        double t_mpi = 0, t_best = 0;
        const eccl_algo_t *a = forced ? forced : model_choice(c, ECCL_ASSUMED_RATIO, comm->cfg.compress == ECCL_COMPRESS_ALWAYS, &t_mpi, &t_best);
        c->st->model_ratio = ECCL_ASSUMED_RATIO;
        c->st->model_t_mpi = t_mpi;
        c->st->model_t_chosen = t_best;
        *out = a;
        if (!(a->flags & ECCL_ALG_COMPRESSED)) set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%s (pairwise: assumed ratio %.0f)", why, ECCL_ASSUMED_RATIO);
        return ECCL_SUCCESS;
    }
    if (rooted(c)) {
        /* the root decides and tells {algorithm index, E, ratio, gm}: an MPI_MAX allreduce where the
         * other ranks give -inf (a broadcast that also compares every rank's signature) */
        double ctl[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        if (c->rank == c->root) {
            double E = result_bound(b, range), ratio = need_ratio ? -v[2] : 0, t_mpi = 0, t_best = 0;
            set_bound(c, E);
            if (!c->gm_agreed) c->gm = c->dev && !c->dev_short; /* the root's figures stand for everyone's */
            const eccl_algo_t *a = forced ? forced : model_choice(c, ratio, comm->cfg.compress == ECCL_COMPRESS_ALWAYS, &t_mpi, &t_best);
            ctl[0] = algo_index(a);
            ctl[1] = E;
            ctl[2] = ratio;
            ctl[3] = c->gm;
            c->st->model_t_mpi = t_mpi;
            c->st->model_t_chosen = t_best;
        }
        memcpy(v, ctl, sizeof ctl);
        v[4] = -INFINITY;
        eccl_result_t rc = eccl_tr_allreduce_doubles(comm, v, AGREE_N, MPI_MAX);
        if (rc) return rc;
        if ((rc = sig_check(c, v + 5))) return rc;
        if (!(v[0] >= 0 && v[0] < (double)num_algorithms()))
            return eccl_comm_error(comm, ECCL_ERR_INTERNAL, "%s: the root's decision did not arrive", eccl_coll_name(c->coll));
        *out = &eccl_algorithms[(int)v[0]];
        c->gm = v[3] != 0; /* the same figures everywhere (the pipeline's chunking uses them) */
        set_bound(c, v[1]);
        c->st->model_ratio = v[2];
    } else {
        /* always (also forced with a given bound): the signature must be compared */
        eccl_result_t rc = eccl_tr_allreduce_doubles(comm, v, AGREE_N, MPI_MAX);
        if (rc) return rc;
        if ((rc = sig_check(c, v + 5))) return rc;
        if (v[4] > 0) comm->nwin_refused = 1; /* (the same call on every rank: the same model) */
        if (!c->gm_agreed) c->gm = v[3] == 0.0; /* every rank device-resident: GPU figures */
        range = !data_range ? b->range : v[0] + v[1] > 0 ? v[0] + v[1] : 0.0;
        set_bound(c, result_bound(b, range));
        double ratio = isfinite(v[2]) ? -v[2] : 1.0, t_mpi = 0, t_best = 0;
        *out = forced ? forced : model_choice(c, ratio, comm->cfg.compress == ECCL_COMPRESS_ALWAYS, &t_mpi, &t_best);
        c->st->model_ratio = ratio;
        c->st->model_t_mpi = t_mpi;
        c->st->model_t_chosen = t_best;
    }
    if (!((*out)->flags & ECCL_ALG_COMPRESSED)) set_bound(c, 0.0);
    snprintf(c->st->reason, sizeof c->st->reason, "%s", forced ? why : "cost model");
    return ECCL_SUCCESS;
}

/* AVG: the algorithms summed; every rank divides identically (on the GPU where the call runs
 * device-resident: the same rounding, so the same bits). */
static eccl_result_t scale_avg(eccl_call_t *c, void *buf, size_t count)
{
    if (c->dev) {
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        void *at = (void *)eccl_prim_at(c, buf, &lb, &lay);
        eccl_result_t rc = eccl_dev_divide(c->comm->dev, at, lay, count, c->dtype, c->size);
        return rc ? eccl_comm_error(c->comm, rc, "%s: the AVG division on the GPU failed", eccl_coll_name(c->coll))
                  : ECCL_SUCCESS;
    }
    size_t n = count * (c->dtype >= ECCL_COMPLEX64 ? 2 : 1);
    if (c->dtype == ECCL_FLOAT32 || c->dtype == ECCL_COMPLEX64) {
        float *x = buf, p = (float)c->size;
        for (size_t i = 0; i < n; i++) x[i] /= p;
    } else {
        double *x = buf, p = (double)c->size;
        for (size_t i = 0; i < n; i++) x[i] /= p;
    }
    return ECCL_SUCCESS;
}

/* One rank: every collective is a copy (or nothing). */
static eccl_result_t local(eccl_call_t *c)
{
    size_t bytes = c->count * c->esize;
    switch (c->coll) {
    case ECCL_COLL_ALLREDUCE:
    case ECCL_COLL_REDUCE:
    case ECCL_COLL_REDUCE_SCATTER_BLOCK:
    case ECCL_COLL_ALLGATHER:
    case ECCL_COLL_GATHER:
    case ECCL_COLL_SCATTER:
        if (c->recvbuf && c->recvbuf != c->sendbuf) {
            if (c->dev) return eccl_dev_copy(c->comm->dev, c->recvbuf, c->sendbuf, bytes);
            memmove(c->recvbuf, c->sendbuf, bytes);
        }
        break;
    default: break; /* bcast, and sendrecv_replace with itself or MPI_PROC_NULL */
    }
    return ECCL_SUCCESS;
}

/* A call's device buffers staged through host memory (stage_begin / stage_end). */
typedef struct stage {
    const void *user_send;
    void *user_recv;
    void *hr;              /* the host copy that receives the result */
    eccl_result_t rc;      /* a failed copy to the host */
    size_t failed;
    double t0, t_in;
} stage_t;
static eccl_result_t stage_begin(eccl_call_t *c, stage_t *g);
static eccl_result_t stage_end(eccl_call_t *c, stage_t *g, eccl_result_t rrc);

/* A matrix call (eccl_*_matrix) on a path that cannot take the matrix as it lies: a rank that reads
 * the matrix (c->s_in) packs it into the caller's device buffer, the call runs on that buffer, and
 * a rank that receives a result (c->r_out) unpacks it after (mat_end). Where no device buffer can
 * be had and `host_ok` (the algorithm does not need device memory), the matrix is packed into a
 * host staging buffer instead (ms->host: the call then runs on the host, as a staged one). A
 * failed copy does not skip the call, whose peers would wait for it: it runs on whatever the
 * buffer holds, and the call returns the error. */
typedef struct mat_save {
    void *user;
    size_t m, ld;
    eccl_result_t rc;
    int host;
} mat_save_t;

#ifdef HAVE_CUDA
static void *stage_buf(eccl_comm_t comm, int k, size_t bytes);
#endif

static eccl_result_t mat_begin(eccl_call_t *c, mat_save_t *ms, int host_ok)
{
    memset(ms, 0, sizeof *ms);
    if (!c->lay_m) return ECCL_SUCCESS;
    const size_t bytes = c->count * c->esize;
    void *buf = c->lay_pack ? c->lay_pack(c->lay_pack_arg, bytes) : NULL;
#ifdef HAVE_CUDA
    if (!buf && host_ok && (buf = stage_buf(c->comm, 0, bytes))) {
        ms->host = 1;
        ECCL_LOG(1, c->rank, "%s: no device buffer of %zu bytes to pack a matrix: packed into host memory, the "
                 "call runs on the host", eccl_coll_name(c->coll), bytes);
    }
#else
    (void)host_ok;
#endif
    if (!buf) /* (as staging without host memory: this rank fails at once, peers may wait) */
        return eccl_comm_error(c->comm, ECCL_ERR_NO_MEMORY, "%s: no device buffer of %zu bytes to pack a matrix",
                               eccl_coll_name(c->coll), bytes);
    ms->user = c->recvbuf;
    ms->m = c->lay_m;
    ms->ld = c->lay_ld;
    if (c->s_in)
        ms->rc = eccl_cuda_memcpy2d(buf, ms->m * c->esize, ms->user, ms->ld * c->esize, ms->m * c->esize,
                                    c->count / ms->m);
    c->recvbuf = buf;
    c->sendbuf = buf;
    c->lay_m = c->lay_ld = 0;
    ECCL_LOG(2, c->rank, "%s: matrix packed (%zu x %zu, ld %zu)", eccl_coll_name(c->coll), ms->m, c->count / ms->m,
             ms->ld);
    return ECCL_SUCCESS;
}

static eccl_result_t mat_end(eccl_call_t *c, mat_save_t *ms, eccl_result_t rc)
{
    if (!ms->user) return rc;
    if (!rc && !ms->rc && c->r_out)
        ms->rc = eccl_cuda_memcpy2d(ms->user, ms->ld * c->esize, c->recvbuf, ms->m * c->esize, ms->m * c->esize,
                                    c->count / ms->m);
    c->recvbuf = ms->user;
    c->sendbuf = ms->user;
    c->lay_m = ms->m;
    c->lay_ld = ms->ld;
    if (ms->rc && !rc)
        rc = eccl_comm_error(c->comm, ms->rc, "%s: packing a device matrix failed", eccl_coll_name(c->coll));
    return rc;
}

static eccl_result_t run(eccl_call_t *c, const eccl_bound_t *bound)
{
    eccl_comm_t comm = c->comm;
    eccl_result_t rc;
    double t0 = eccl_wtime();
    const eccl_algo_t *a = NULL;
    eccl_bound_t b = bound ? *bound : comm->cfg.bound; /* (checked in begin) */
    int old_cap = eccl_codec_set_threads(comm->threads); /* restored below */
    eccl_op_t user_op = c->op;
    if (c->size == 1) {
        /* every call is a copy; the fallback policy still holds, so that a program that fails with
         * ECCL_FALLBACK=error on four ranks fails on one */
        int want = 0;
        if ((rc = find_forced(c, &a, &want))) goto fn_exit;
        if (want && is_reduction(c->coll) && !op_compressible(c) && comm->cfg.fallback == ECCL_FALLBACK_ERROR) {
            rc = eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED, "%s cannot run compressed (operation/datatype) and "
                                 "ECCL_FALLBACK=error", eccl_coll_name(c->coll));
            goto fn_exit;
        }
        if (c->dev) c->st->device = 2;
        if ((rc = local(c))) {
            eccl_comm_error(comm, rc, "copying device data failed");
            goto fn_exit;
        }
        snprintf(c->st->algorithm, sizeof c->st->algorithm, "local");
        snprintf(c->st->reason, sizeof c->st->reason, "one rank");
        goto fn_exit;
    }
    if ((rc = choose(c, &b, &a))) goto fn_exit; /* (the bound split knows AVG) */
    c->requant = (a->flags & ECCL_ALG_REQUANT) != 0;
    if (c->requant && c->E > 0) set_bound(c, c->E); /* re-split the bound for this algorithm */
    if (user_op == ECCL_OP_AVG) { /* algorithms sum; every rank divides below */
        c->op = ECCL_OP_SUM;
        c->avg = 1;
    }
    snprintf(c->st->algorithm, sizeof c->st->algorithm, "%s", a->name);
    c->st->compressed = (a->flags & ECCL_ALG_COMPRESSED) != 0;
    if (c->st->compressed) c->st->bytes_raw = 0; /* the primitives count what really left */
    else c->st->bytes_sent = c->st->bytes_raw;  /* the nominal payload */
    /* this rank's call stays on the GPU: an algorithm that can, and device memory reserved for it */
    const int resident = runs_resident(a) && !c->dev_short;
    /* NCCL runs its own algorithms and carries the streams of compressed ones (where faster) */
    if (!resident || !(a->flags & ECCL_ALG_COMPRESSED)) c->nccl_streams = 0;
    c->st->transport = (a->flags & ECCL_ALG_DEVICE) || c->nccl_streams;
    /* a CUDA-aware MPI takes the device buffers of the plain MPI collectives as they are (not an
     * in-place reduce: eccl_tr_reduce copies it on the host; not MAX/MIN: eccl's MPI operations
     * for them are host functions that MPI would call on device memory); this rank's affair only:
     * the messages are the same either way, and the choice above did not depend on it */
    int aware = c->dev && !resident && comm->cuda_aware && !(a->flags & ECCL_ALG_COMPRESSED) &&
                !(c->coll == ECCL_COLL_REDUCE && c->sendbuf == c->recvbuf) &&
                !(is_reduction(c->coll) && c->op != ECCL_OP_SUM);
    if (aware) c->st->transport = 2;
    /* a matrix stays where it is for compressed algorithms on the GPU codec (which never stage),
     * else it is packed */
    mat_save_t ms = {0};
    int in_place = c->dev && resident && !aware && (a->flags & ECCL_ALG_VIEW) &&
                   (uintptr_t)c->recvbuf % (c->esize / (c->dtype >= ECCL_COMPLEX64 ? 2 : 1)) == 0; /* (a real's alignment) */
    if (c->lay_m && !in_place && (rc = mat_begin(c, &ms, !(a->flags & ECCL_ALG_DEVICE))))
        goto fn_exit;
    if (ms.host) { /* packed into host memory (no device buffer for it): the call runs on the host */
        c->dev = 0;
        if (aware) c->st->transport = 0;
        aware = 0;
    }
    /* the hierarchical allreduce keeps device buffers on the GPU where its node agrees (CUDA IPC);
     * every rank of the node takes part in the agreement, device-resident or not (after the
     * packing above: a matrix packed into host memory runs on the host) */
    int node_dev = 0;
#ifdef HAVE_CUDA
    if ((a->flags & ECCL_ALG_NODE_DEVICE) && comm->cuda_all &&
        (rc = eccl_tr_node_dev_agree(comm, c->dev && !c->dev_short, c->count * c->esize, &node_dev))) {
        rc = mat_end(c, &ms, rc);
        goto fn_exit;
    }
#endif
    int staged = c->dev && !resident && !node_dev && !aware;
    stage_t g;
    if (staged) { /* this algorithm needs the data in host memory: stage the buffers whole */
        c->dev = 0;
        if ((rc = stage_begin(c, &g))) { /* no host memory at all (doc: peers may wait) */
            rc = mat_end(c, &ms, rc);
            goto fn_exit;
        }
    }
    c->st->device = staged || ms.host ? 1 : c->dev ? 2 : c->st->device;
    rc = a->fn(c);
    if (!rc) rc = c->err; /* a peer's stream failed validation here; the pattern still completed */
    if (c->st->compressed && c->coll != ECCL_COLL_SENDRECV_REPLACE && rc != ECCL_ERR_MPI) {
        /* everybody returns the same verdict: one small allreduce, only on the compressed path */
        double v = (double)rc;
        eccl_result_t arc = eccl_tr_allreduce_doubles(comm, &v, 1, MPI_MAX);
        if (arc) rc = arc;
        else if (v != 0 && !rc) {
            rc = (eccl_result_t)v;
            eccl_comm_error(comm, rc, "another rank received a corrupt stream in %s", eccl_coll_name(c->coll));
        }
    }
    if (!rc && user_op == ECCL_OP_AVG) {
        if (c->coll == ECCL_COLL_ALLREDUCE) rc = scale_avg(c, c->recvbuf, c->count);
        else if (c->coll == ECCL_COLL_REDUCE && c->rank == c->root) rc = scale_avg(c, c->recvbuf, c->count);
        else if (c->coll == ECCL_COLL_REDUCE_SCATTER_BLOCK) rc = scale_avg(c, c->recvbuf, c->count);
    }
    if (staged) rc = stage_end(c, &g, rc);
    rc = mat_end(c, &ms, rc);
    c->op = user_op;
fn_exit:
    eccl_codec_set_threads(old_cap);
    c->st->result = rc;
    c->st->t_total = eccl_wtime() - t0;
    c->st->ratio = c->st->bytes_sent ? (double)c->st->bytes_raw / (double)c->st->bytes_sent : 1.0;
    if (!rc) comm->errmsg[0] = '\0';
    ECCL_LOG(1, c->rank,
             "%s count %zu %s: %s (%s) E %.3g eb %.3g, sent %llu of %llu bytes (ratio %.2f), "
             "%.3f ms (codec %.3f, net %.3f), model ratio %.2f t_mpi %.3f ms t_chosen %.3f ms",
             eccl_coll_name(c->coll), c->count, eccl_dtype_name(c->dtype), c->st->algorithm,
             c->st->reason, c->st->bound_requested, c->st->eb_per_message,
             (unsigned long long)c->st->bytes_sent, (unsigned long long)c->st->bytes_raw,
             c->st->ratio, c->st->t_total * 1e3, c->st->t_codec * 1e3, c->st->t_network * 1e3,
             c->st->model_ratio, c->st->model_t_mpi * 1e3, c->st->model_t_chosen * 1e3);
    return rc;
}

/* ---- device buffers -------------------------------------------------------------------------
 * Two ways, chosen per rank and per call (the bytes on the wire are the same either way, since
 * the GPU and CPU codecs make identical streams, so ranks may differ):
 * - device-resident: when every buffer this rank touches is device memory of the current device
 *   and the chosen algorithm is compressed and reaches the data only through the primitives, the
 *   communicator's GPU codec compresses, decompresses and reduces on the device and only
 *   compressed streams cross PCIe (c->dev, prims.c, cuda/resident.cu);
 * - staged: otherwise (uncompressed algorithms, mixed host/device buffers, in-place
 *   reduce_scatter_block, ECCL_DEVICE_RESIDENT=0) the buffers are copied whole to page-locked
 *   host buffers of the communicator (grow-only, so steady-state calls do not allocate), the host
 *   collective runs on the copies, and what the call writes is copied back.
 * Either way the device data must be ready when the call is made and the result is in place when
 * it returns. */
#ifdef HAVE_CUDA
ECCL_ENV(env_resident, "ECCL_DEVICE_RESIDENT", 1);

static void *stage_buf(eccl_comm_t comm, int k, size_t bytes)
{
    /* page-locked where it can be had; the pool falls back to ordinary memory (slower copies)
     * rather than failing this rank alone while its peers wait */
    if (!comm->stage.alloc) eccl_pool_set_allocator(&comm->stage, eccl_cuda_host_alloc_ptr, eccl_cuda_host_free);
    int was_plain = comm->stage.plain[k];
    void *p = eccl_pool_get(&comm->stage, k, bytes);
    if (p && comm->stage.plain[k] && !was_plain)
        ECCL_LOG(1, comm->rank, "no page-locked memory for a %zu-byte staging buffer: ordinary memory instead",
                 comm->stage.cap[k]);
    return p;
}

/* Copy in for the staged call; on failure the host copy is zeroed so the collective still runs
 * (no peer is left waiting) and the error is returned at the end. */
static eccl_result_t stage_in(void *host, const void *dev, size_t bytes, eccl_result_t rc, size_t *failed)
{
    if (!bytes) return rc;
    eccl_result_t crc = eccl_cuda_memcpy(host, dev, bytes);
    if (crc) {
        memset(host, 0, bytes);
        if (!rc) {
            rc = crc;
            *failed = bytes;
        }
    }
    return rc;
}

/* The GPU context of the communicator, created at the first device-resident call; NULL when
 * device buffers must be staged (no usable device, another current device, switched off). */
static eccl_dev_ctx_t *dev_ctx(eccl_comm_t comm)
{
    if (!eccl_env_long(&env_resident)) return NULL;
    if (!comm->dev && !comm->dev_failed) {
        eccl_result_t rc = eccl_dev_ctx_create(&comm->dev);
        if (rc) {
            comm->dev_failed = 1;
            comm->dev = NULL;
            ECCL_LOG(1, comm->rank, "no GPU codec for device-resident collectives (%s): device buffers are "
                     "staged through host memory", eccl_strerror(rc));
        } else {
            /* streams now cross PCIe: page-locked stream buffers (allocated again as needed) */
            eccl_pool_set_allocator(&comm->pool, eccl_cuda_host_alloc_ptr, eccl_cuda_host_free);
            /* while the host waits for the GPU, the call's messages in flight progress (the
             * pipelined algorithms overlap GPU work with the network this way) */
            eccl_dev_ctx_set_progress(comm->dev, eccl_tr_progress, comm);
        }
    }
    return comm->dev && eccl_dev_ctx_current(comm->dev) ? comm->dev : NULL;
}
#endif

/* Stage the call's device buffers (c->s_in bytes read at sendbuf, c->r_out written at recvbuf;
 * one buffer when they alias, unless c->split) and point the call at the host copies. */
static eccl_result_t stage_begin(eccl_call_t *c, stage_t *g)
{
    eccl_comm_t comm = c->comm;
    memset(g, 0, sizeof *g);
    g->t0 = eccl_wtime();
    g->user_send = c->sendbuf;
    g->user_recv = c->recvbuf;
#ifndef HAVE_CUDA
    return eccl_comm_error(comm, ECCL_ERR_UNSUPPORTED,
                           "%s: a buffer is CUDA device memory, but this eccl was built without the "
                           "CUDA backend (configure --with-cuda)", eccl_coll_name(c->coll));
#else
    int alias = c->sendbuf == c->recvbuf && !c->split;
    int sdev = c->s_in && eccl_ptr_is_device(c->sendbuf);
    int rdev = c->r_out && eccl_ptr_is_device(c->recvbuf);
    if (alias) {
        g->hr = stage_buf(comm, 0, c->s_in > c->r_out ? c->s_in : c->r_out);
        if (!g->hr) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
        g->rc = stage_in(g->hr, g->user_recv, c->s_in, g->rc, &g->failed);
        c->sendbuf = c->recvbuf = g->hr;
    } else {
        if (sdev) {
            void *hs = stage_buf(comm, 0, c->s_in);
            if (!hs) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
            g->rc = stage_in(hs, g->user_send, c->s_in, g->rc, &g->failed);
            c->sendbuf = hs;
        }
        if (rdev) {
            g->hr = stage_buf(comm, 1, c->r_out);
            if (!g->hr) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no host memory for staging");
            c->recvbuf = g->hr; /* written only: nothing to copy in */
        }
    }
    g->t_in = eccl_wtime() - g->t0;
    return ECCL_SUCCESS;
#endif
}

/* Copy the result back to the device, restore the user's pointers; the call's result. */
static eccl_result_t stage_end(eccl_call_t *c, stage_t *g, eccl_result_t rrc)
{
    eccl_comm_t comm = c->comm;
    double t1 = eccl_wtime();
    eccl_result_t rc = g->rc;
    if (rc) eccl_comm_error(comm, rc, "copying %zu bytes from the device failed", g->failed);
    else rc = rrc;
#ifdef HAVE_CUDA
    if (!rc && g->hr && c->r_out) {
        eccl_result_t crc = eccl_cuda_memcpy(g->user_recv, g->hr, c->r_out);
        if (crc) rc = eccl_comm_error(comm, crc, "copying %zu bytes to the device failed", c->r_out);
    }
#endif
    c->sendbuf = g->user_send;
    c->recvbuf = g->user_recv;
    double t_stage = g->t_in + (eccl_wtime() - t1);
    c->st->t_stage += t_stage;
    ECCL_LOG(2, c->rank, "%s: device buffers staged through host memory (%.3f ms of copies)",
             eccl_coll_name(c->coll), t_stage * 1e3);
    return rc;
}

/* Run a call whose buffers may be device memory. On this rank the call reads s_in bytes at
 * sendbuf and writes r_out bytes at recvbuf. sendbuf == recvbuf stays one buffer unless `split`
 * (reduce_scatter_block in place reads size*count and writes count). */
static eccl_result_t run_dev(eccl_call_t *c, const eccl_bound_t *bound, int sdev, int rdev);

static eccl_result_t run_any(eccl_call_t *c, const eccl_bound_t *bound, size_t s_in, size_t r_out,
                             int split)
{
    c->s_in = s_in;
    c->r_out = r_out;
    c->split = split;
    int sdev = s_in && eccl_ptr_is_device(c->sendbuf);
    int rdev = r_out && eccl_ptr_is_device(c->recvbuf);
    if (!sdev && !rdev) return run(c, bound);
    c->st->device = 1;
    /* eccl_cuda_comm_set_stream: the stream's work comes first. A failed wait (a broken stream)
     * does not skip the call, whose peers would wait for it: it runs, and returns the error. */
    eccl_result_t wrc = c->comm->user_stream ? eccl_cuda_stream_wait(c->comm->user_stream) : ECCL_SUCCESS;
    if (wrc) {
        (void)run_dev(c, bound, sdev, rdev);
        c->st->result = wrc;
        return eccl_comm_error(c->comm, wrc, "%s: waiting for the communicator's CUDA stream failed",
                               eccl_coll_name(c->coll));
    }
    return run_dev(c, bound, sdev, rdev);
}

/* run_any's device part: resident, or staged. */
static eccl_result_t run_dev(eccl_call_t *c, const eccl_bound_t *bound, int sdev, int rdev)
{
    (void)sdev; /* (used by the CUDA build) */
    (void)rdev;
#ifdef HAVE_CUDA
    /* device-resident when nothing of this rank's is in host memory; an in-place
     * reduce_scatter_block (input and output overlap) is staged */
    const size_t s_in = c->s_in, r_out = c->r_out;
    const int split = c->split;
    int resident = (sdev || !s_in) && (rdev || !r_out) && !(split && c->sendbuf == c->recvbuf) && dev_ctx(c->comm);
    if (resident) {
        c->dev = 1;
        return run(c, bound); /* stages by itself if the chosen algorithm cannot stay resident */
    }
#endif
    double t0 = eccl_wtime();
    stage_t g;
    mat_save_t ms;
    eccl_result_t rc = mat_begin(c, &ms, 1); /* (a matrix call: staged from its packed copy) */
    if (rc) return rc;
    if (ms.host) { /* packed straight into host memory: nothing more to stage */
        rc = mat_end(c, &ms, run(c, bound));
        c->st->device = 1;
    } else {
        rc = stage_begin(c, &g);
        if (rc) return mat_end(c, &ms, rc);
        rc = mat_end(c, &ms, stage_end(c, &g, run(c, bound)));
    }
    c->st->t_total = eccl_wtime() - t0;
    c->st->result = rc;
    return rc;
}

/* Common argument checks; fills the call. Every argument is checked whatever the count (a call
 * of 0 elements with a bad root, datatype, operation or bound fails as one of 1 would); these are
 * local errors: this rank returns at once and sends nothing (its peers may then wait, as in MPI).
 * Clears the communicator's last error message (eccl_comm_last_error: "" after a success). */
static eccl_result_t begin(eccl_comm_t comm, eccl_call_t *c, eccl_coll_t coll, size_t count,
                           eccl_dtype_t dtype, eccl_op_t op, int root, const eccl_bound_t *bound)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    memset(c, 0, sizeof *c);
    memset(&comm->last, 0, sizeof comm->last);
    comm->errmsg[0] = '\0';
    c->comm = comm;
    c->coll = coll;
    c->count = count;
    c->dtype = dtype;
    c->op = op;
    c->root = root;
    c->size = comm->size;
    c->rank = comm->rank;
    c->st = &comm->last;
    c->esize = eccl_dtype_size(dtype);
    if (c->esize == 0) return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "unknown datatype %d", (int)dtype);
    if (is_reduction(coll) && (op < ECCL_OP_SUM || op > ECCL_OP_PROD))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "unknown operation %d", (int)op);
    if ((coll == ECCL_COLL_BCAST || coll == ECCL_COLL_REDUCE || coll == ECCL_COLL_SCATTER ||
         coll == ECCL_COLL_GATHER) && (root < 0 || root >= comm->size))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "root %d is not a rank of a communicator of %d",
                               root, comm->size);
    /* the format's limit: the bytes of every buffer the call touches stay below 2^62 */
    if (count > (((size_t)1 << 62) - 1) / c->esize / (size_t)comm->size)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "count %zu too large (%zu bytes on %d ranks reach 2^62)",
                               count, c->esize, comm->size);
    if (is_reduction(coll) && (op == ECCL_OP_MAX || op == ECCL_OP_MIN) && dtype >= ECCL_COMPLEX64)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MAX/MIN are not defined for complex data");
    const char *why = eccl_bound_problem(bound ? bound : &comm->cfg.bound);
    if (why) {
        const eccl_bound_t *b = bound ? bound : &comm->cfg.bound;
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s (mode %d, value %g, range %g)", why, (int)b->mode,
                               b->value, b->range);
    }
    return ECCL_SUCCESS;
}

#define NEED(ptr, what)                                                                            \
    do {                                                                                           \
        if (!(ptr) && count > 0)                                                                   \
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s is NULL", what);                \
    } while (0)
/* A buffer where MPI does not accept MPI_IN_PLACE (a local error, whatever the count). */
#define NOT_IN_PLACE(ptr, what)                                                                    \
    do {                                                                                           \
        if ((const void *)(ptr) == (const void *)MPI_IN_PLACE)                                     \
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s cannot be MPI_IN_PLACE", what); \
    } while (0)

eccl_result_t eccl_bcast(void *buf, size_t count, eccl_dtype_t dtype, int root,
                         const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_BCAST, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    NEED(buf, "buf");
    NOT_IN_PLACE(buf, "the buffer of a bcast");
    c.recvbuf = buf;
    c.sendbuf = buf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)count * c.esize : 0;
    size_t bytes = count * c.esize; /* the root keeps its buffer: only the others write */
    return run_any(&c, bound, c.rank == root ? bytes : 0, c.rank == root ? 0 : bytes, 0);
}

/* The checks and the call of an eccl_*_matrix entry point; *plain = 1 when the matrix is contiguous
 * (the caller then makes the plain call). */
static eccl_result_t matrix_call(eccl_call_t *c, eccl_comm_t comm, eccl_coll_t coll, void *a, size_t m, size_t n,
                                 size_t ld, eccl_dtype_t dtype, eccl_op_t op, int root, const eccl_bound_t *bound,
                                 void *(*pack)(void *, size_t), void *arg, int *plain)
{
    *plain = 0;
    if (ld < m || ld < 1 || (m && n > SIZE_MAX / m)) {
        if (comm)
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s: a %zu x %zu matrix with ld %zu", eccl_coll_name(coll),
                                   m, n, ld);
        return ECCL_ERR_INVALID_ARG;
    }
    if (ld == m || n <= 1) {
        *plain = 1;
        return ECCL_SUCCESS;
    }
    eccl_result_t rc = begin(comm, c, coll, m * n, dtype, op, root, bound);
    if (rc) return rc;
    if (!a && m * n > 0) return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "the matrix is NULL");
    if (m * n > 0 && !eccl_ptr_is_device(a))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s: a strided matrix must be device memory",
                               eccl_coll_name(coll));
    c->recvbuf = a;
    c->sendbuf = a;
    c->lay_m = m;
    c->lay_ld = ld;
    c->lay_pack = pack;
    c->lay_pack_arg = arg;
    return ECCL_SUCCESS;
}

eccl_result_t eccl_bcast_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, int root,
                                const eccl_bound_t *bound, eccl_comm_t comm,
                                void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_BCAST, a, m, n, ld, dtype, ECCL_OP_SUM, root, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_bcast(a, m * n, dtype, root, bound, comm); /* contiguous */
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)c.count * c.esize : 0;
    size_t bytes = c.count * c.esize;
    return run_any(&c, bound, c.rank == root ? bytes : 0, c.rank == root ? 0 : bytes, 0);
}

eccl_result_t eccl_allreduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op,
                                    const eccl_bound_t *bound, eccl_comm_t comm,
                                    void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_ALLREDUCE, a, m, n, ld, dtype, op, 0, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_allreduce(MPI_IN_PLACE, a, m * n, dtype, op, bound, comm);
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)c.count * c.esize * 2 * (uint64_t)(c.size - 1) / (uint64_t)c.size;
    return run_any(&c, bound, c.count * c.esize, c.count * c.esize, 0);
}

eccl_result_t eccl_reduce_matrix(void *a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_op_t op, int root,
                                 const eccl_bound_t *bound, eccl_comm_t comm,
                                 void *(*pack)(void *arg, size_t bytes), void *arg)
{
    eccl_call_t c;
    int plain;
    eccl_result_t rc = matrix_call(&c, comm, ECCL_COLL_REDUCE, a, m, n, ld, dtype, op, root, bound, pack, arg, &plain);
    if (rc) return rc;
    if (plain) return eccl_reduce(comm && comm->rank == root ? MPI_IN_PLACE : a, a, m * n, dtype, op, root, bound, comm);
    if (c.count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)c.count * c.esize;
    return run_any(&c, bound, c.count * c.esize, c.rank == root ? c.count * c.esize : 0, 0);
}

eccl_result_t eccl_allreduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_ALLREDUCE, count, dtype, op, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    c.recvbuf = recvbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)count * c.esize * 2 * (uint64_t)(c.size - 1) / (uint64_t)c.size;
    return run_any(&c, bound, count * c.esize, count * c.esize, 0);
}

eccl_result_t eccl_reduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          eccl_op_t op, int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_REDUCE, count, dtype, op, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(recvbuf, "recvbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(recvbuf, "recvbuf at the root");
    NEED(sendbuf, "sendbuf");
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.sendbuf = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    c.recvbuf = recvbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)count * c.esize;
    return run_any(&c, bound, count * c.esize, c.rank == root ? count * c.esize : 0, 0);
}

eccl_result_t eccl_reduce_scatter_block(const void *sendbuf, void *recvbuf, size_t recvcount,
                                        eccl_dtype_t dtype, eccl_op_t op,
                                        const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    size_t count = recvcount;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_REDUCE_SCATTER_BLOCK, count, dtype, op, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    size_t bytes = count * (size_t)comm->size * c.esize;
    if (sendbuf == MPI_IN_PLACE && eccl_ptr_is_device(recvbuf)) {
        c.sendbuf = recvbuf; /* run_any copies the input and the result apart */
    } else if (sendbuf == MPI_IN_PLACE) {
        /* the input is recvbuf (size*recvcount); the result goes to its first recvcount */
        void *tmp = eccl_pool_get(&comm->pool, ECCL_SLOT_TMP, bytes);
        if (!tmp) return eccl_comm_error(comm, ECCL_ERR_NO_MEMORY, "no memory for MPI_IN_PLACE");
        memcpy(tmp, recvbuf, bytes);
        c.sendbuf = tmp;
    }
    c.st->bytes_raw = (uint64_t)count * c.esize * (uint64_t)(c.size - 1);
    return run_any(&c, bound, bytes, count * c.esize, 1);
}

eccl_result_t eccl_allgather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_ALLGATHER, count, dtype, ECCL_OP_SUM, 0, bound);
    if (rc) return rc;
    NEED(recvbuf, "recvbuf");
    NOT_IN_PLACE(recvbuf, "recvbuf");
    NEED(sendbuf, "sendbuf");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf + (size_t)comm->rank * count * c.esize
                                        : sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = (uint64_t)count * c.esize * (uint64_t)(c.size - 1);
    return run_any(&c, bound, count * c.esize, count * c.esize * (size_t)c.size, 0);
}

eccl_result_t eccl_scatter(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                           int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_SCATTER, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(sendbuf, "sendbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(sendbuf, "sendbuf at the root");
    NEED(recvbuf, "recvbuf");
    if (recvbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.sendbuf = sendbuf;
    c.recvbuf = recvbuf == MPI_IN_PLACE ? NULL : recvbuf; /* NULL: the root keeps its piece */
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? (uint64_t)count * c.esize * (uint64_t)(c.size - 1) : 0;
    return run_any(&c, bound, c.rank == root ? count * c.esize * (size_t)c.size : 0,
                   c.recvbuf ? count * c.esize : 0, 0);
}

eccl_result_t eccl_gather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          int root, const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_GATHER, count, dtype, ECCL_OP_SUM, root, bound);
    if (rc) return rc;
    if (comm->rank == root) NEED(recvbuf, "recvbuf at the root");
    if (comm->rank == root) NOT_IN_PLACE(recvbuf, "recvbuf at the root");
    NEED(sendbuf, "sendbuf");
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "MPI_IN_PLACE is only valid at the root");
    c.recvbuf = recvbuf;
    c.sendbuf = sendbuf == MPI_IN_PLACE ? (const char *)recvbuf + (size_t)root * count * c.esize : sendbuf;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = c.rank == root ? 0 : (uint64_t)count * c.esize;
    return run_any(&c, bound, count * c.esize, c.rank == root ? count * c.esize * (size_t)c.size : 0, 0);
}

eccl_result_t eccl_sendrecv_replace(void *buf, size_t count, eccl_dtype_t dtype, int dest,
                                    int sendtag, int source, int recvtag,
                                    const eccl_bound_t *bound, eccl_comm_t comm)
{
    eccl_call_t c;
    eccl_result_t rc = begin(comm, &c, ECCL_COLL_SENDRECV_REPLACE, count, dtype, ECCL_OP_SUM, 0, bound);
    if (rc) return rc;
    NEED(buf, "buf");
    NOT_IN_PLACE(buf, "the buffer of a sendrecv_replace");
    if ((dest != MPI_PROC_NULL && (dest < 0 || dest >= comm->size)) ||
        (source != MPI_PROC_NULL && (source < 0 || source >= comm->size)))
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "dest %d / source %d out of range", dest, source);
    if (sendtag < 0 || recvtag < 0)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "tags must be >= 0 (MPI_ANY_TAG is not supported)");
    c.recvbuf = buf;
    c.sendbuf = buf;
    c.dest = dest;
    c.source = source;
    c.sendtag = sendtag;
    c.recvtag = recvtag;
    if (count == 0) return ECCL_SUCCESS;
    c.st->bytes_raw = dest == MPI_PROC_NULL ? 0 : (uint64_t)count * c.esize;
    size_t bytes = count * c.esize;
    return run_any(&c, bound, dest == MPI_PROC_NULL ? 0 : bytes, source == MPI_PROC_NULL ? 0 : bytes, 0);
}
