/*
 * select.c - which algorithm a call runs, and the bound each of its messages gets: the forced
 * algorithm (eccl_comm_set_algorithm, ECCL_<OP>_ALGORITHM), the fallback policy, min_bytes, the
 * device agreement (every rank device-resident? NCCL up? device memory reserved?), the
 * data-dependent agreement (REL range, sampled ratio, the call's signature) and the cost model.
 * eccl-info --model asks the same eccl_select_auto that a call asks after its agreement.
 *
 * Every rank must take the same decision: decisions depend only on values all ranks share (the
 * arguments MPI requires to match, compared in the agreement; the model broadcast at creation) or
 * on data-dependent figures agreed in one small allreduce.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "coll/agree.h"
#include "coll/model.h"
#include "coll/select.h"
#include "core/dtype.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
#include "prims/prims.h"
#include "transport/transport.h"

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
int eccl_algo_resident(const eccl_algo_t *a) { return ECCL_ALG_RESIDENT(a->flags) != 0; }

static int op_compressible(const eccl_call_t *c)
{
    if (c->op == ECCL_OP_SUM || c->op == ECCL_OP_AVG) return 1;
    if (c->op == ECCL_OP_MAX || c->op == ECCL_OP_MIN)
        return !eccl_dtype_is_complex(c->dtype);
    return 0;
}

/* A reduction whose operation compression cannot do (PROD, MAX/MIN on complex): the fallback. */
static int needs_op_fallback(const eccl_call_t *c) { return eccl_coll_is_reduction(c->coll) && !op_compressible(c); }

int eccl_coll_is_reduction(eccl_coll_t k)
{
    return k == ECCL_COLL_ALLREDUCE || k == ECCL_COLL_REDUCE || k == ECCL_COLL_REDUCE_SCATTER_BLOCK;
}

/* Elements of the buffer the algorithms move (what "bytes" of the model counts). */
size_t eccl_select_total_elems(const eccl_call_t *c)
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

/* The sample's windows for n elements: nwin windows of win elements (one window of n where n is
 * no more than the windows would cover). */
static void sample_windows(const eccl_call_t *c, size_t n, size_t *win, size_t *nwin)
{
    *win = ECCL_DEV_SAMPLE_WIN_REALS / eccl_dtype_traits(c->dtype)->reals;
    *nwin = ECCL_DEV_SAMPLE_MAX;
    if (n <= *win * *nwin) {
        *win = n;
        *nwin = 1;
    }
}

/* Compress up to four tile-sized windows of the data and return raw bytes / compressed bytes (the
 * windows whose room eccl_dev_reserve keeps for the GPU's sample: cuda/device.h). */
static double sample_ratio(eccl_call_t *c, const void *data, size_t n)
{
    size_t win, nwin;
    sample_windows(c, n, &win, &nwin);
    size_t cap = eccl_compress_bound(win, c->dtype), raw = 0, comp = 0;
    if (n == 0) return 1.0;
    size_t starts[ECCL_DEV_SAMPLE_MAX];
    for (size_t k = 0; k < nwin; k++) starts[k] = nwin == 1 ? 0 : (n - win) / (nwin - 1) * k;
    double t0 = eccl_wtime();
#ifdef HAVE_CUDA
    /* device data: the GPU codec compresses the windows where they are, one host wait for their
     * sizes (the bytes eccl_compress would make of them: the same ratio everywhere) */
    if (c->dev.here) {
        eccl_dev_layout_t lb;
        const eccl_dev_layout_t *lay;
        const void *at = eccl_prim_at(c, data, &lb, &lay); /* (a matrix call: its columns) */
        eccl_result_t rc = eccl_dev_sample(c->comm->gpu.ctx, at, lay, n, c->dtype, &c->mbound, starts,
                                           (int)nwin, win, &comp);
        if (rc == ECCL_SUCCESS) {
            c->st->t_codec += eccl_wtime() - t0;
            return comp ? (double)(win * nwin * c->esize) / (double)comp : 1.0;
        }
        ECCL_LOG(2, c->rank, "%s: ratio sample on the GPU failed (%s): windows copied to the host", eccl_coll_name(c->coll),
                 eccl_strerror(rc));
        comp = 0;
    }
#endif
    /* (device data the GPU could not sample: each window is copied to the host after the stream
     * buffer; the two codecs make the same bytes, so the host codec measures the same ratio) */
    size_t wbytes = c->dev.here ? win * c->esize : 0, off = (cap + 63) & ~(size_t)63;
    unsigned char *buf = eccl_pool_get(&c->comm->pool, ECCL_SLOT_SAMPLE, off + wbytes);
    if (!buf) return 1.0;
    for (size_t k = 0; k < nwin; k++) {
        size_t start = starts[k], size = 0;
        const unsigned char *w = (const unsigned char *)data + start * c->esize;
        if (c->dev.here) {
            eccl_dev_layout_t lb;
            const eccl_dev_layout_t *lay;
            const void *at = eccl_prim_at(c, w, &lb, &lay); /* (a matrix call: its columns) */
            if (eccl_dev_copy_from(c->comm->gpu.ctx, buf + off, at, lay, win, c->esize)) return 1.0;
            w = buf + off;
        }
        if (eccl_compress_fmt(w, win, c->dtype, &c->mbound, buf, cap, &size, ECCL_PATH_AUTO, c->comm->cfg.format))
            return 1.0;
        raw += win * c->esize;
        comp += size;
    }
    c->st->t_codec += eccl_wtime() - t0;
    return comp ? (double)raw / (double)comp : 1.0;
}

/* The per-message bound for a result bound E (doc/guarantees.md, collectives). */
static double message_bound(const eccl_call_t *c, double E)
{
    if (!eccl_coll_is_reduction(c->coll)) return E;
    double q = c->requant ? 1.0 : 0.0; /* one more quantization of a reduced value */
    if (c->op == ECCL_OP_MAX || c->op == ECCL_OP_MIN) return E / (1.0 + q);
    const double shave = 1.0 - 0x1p-50; /* so that p * (E/p) cannot round above E */
    double p = (double)c->size;
    if (c->op == ECCL_OP_AVG) return E * p / (p + q) * shave;
    if (c->comm->cfg.sum_mode == ECCL_SUM_STATISTICAL) return c->comm->cfg.sum_c * E / sqrt(p + q);
    return E / (p + q) * shave;
}

void eccl_select_set_bound(eccl_call_t *c, double E)
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

/* What a compressed call pays beside its algorithm, which an uncompressed one does not: the
 * verdict (dispatch.c: one small allreduce, on every compressed path but sendrecv_replace's);
 * where `deciding` (the check made before any data is sampled) also the ratio sample (one GPU
 * operation, or the CPU codec on its windows) and the data agreement, which a call that goes
 * uncompressed there skips. Over NVLink these are a large part of a mid-sized call: about 0.03-0.08
 * ms beside NCCL's 0.23 ms for 64 MiB (doc/performance.md sections 28, 29). */
static double compressed_extra(const eccl_model_t *m, const eccl_call_t *c, int deciding)
{
    if (c->coll == ECCL_COLL_SENDRECV_REPLACE) return 0.0;
    double round = eccl_ceil_log2(c->size) * m->agree, t = round;
    if (deciding) {
        size_t n = 0, win, nwin;
        (void)local_data(c, &n); /* (the sampling rank's elements) */
        sample_windows(c, n, &win, &nwin);
        t += round + mdl_compress(m, mdl_bytes(c, win * nwin));
    }
    return t;
}

/* Algorithm a's price for call c at `ratio`: its cost function, and for a compressed one what its
 * call pays beside it (compressed_extra). */
static double algo_price(const eccl_algo_t *a, const eccl_model_t *m, const eccl_call_t *c, double ratio, int deciding)
{
    return a->cost(m, c, ratio) + (a->flags & ECCL_ALG_COMPRESSED ? compressed_extra(m, c, deciding) : 0.0);
}

/* The model's choice at `ratio` (`compressed_only` for policy ALWAYS; `deciding`: before any
 * sample, compressed_extra). A compressed algorithm must beat the uncompressed one by
 * ECCL_MODEL_MARGIN: its time is the less certain (a sampled ratio, a codec speed calibrated on
 * other data), and a wrong compressed choice also takes the CPU from the caller. */
static const eccl_algo_t *model_choice(eccl_call_t *c, double ratio, int compressed_only, int deciding,
                                       double *t_mpi, double *t_best)
{
    const eccl_algo_t *best = NULL, *mpi = NULL;
    double t_comp = INFINITY;
    const eccl_model_t *m = mdl_of(c);
    *t_mpi = INFINITY;
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++) {
        if (a->coll != c->coll || (a->applies && !a->applies(c))) continue;
        double t = algo_price(a, m, c, ratio, deciding);
        /* device-resident calls: an algorithm that needs host data stages the buffer whole */
        if (!eccl_algo_resident(a) && !((a->flags & ECCL_ALG_NODE_DEVICE) && eccl_tr_node_dev_priced(c->comm)))
            t += m->stage * mdl_bytes(c, eccl_select_total_elems(c));
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
    eccl_select_set_bound(c, 0.0);
    return ECCL_SUCCESS;
}

/* The algorithm forced for this call (eccl_comm_set_algorithm, else ECCL_<OP>_ALGORITHM; NULL:
 * auto) and whether the call wants compression (a forced compressed algorithm, or a policy other
 * than never). */
static eccl_result_t select_forced(eccl_call_t *c, const eccl_algo_t **forced, int *want_compressed)
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

/* Plain MPI: the first uncompressed entry of the collective in the table. */
static const eccl_algo_t *first_mpi(eccl_coll_t k)
{
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++)
        if (a->coll == k && !(a->flags & ECCL_ALG_COMPRESSED)) return a;
    return NULL;
}

const eccl_algo_t *eccl_select_auto(eccl_call_t *c, double ratio, const char **reason, double *t_mpi, double *t_best)
{
    eccl_comm_t comm = c->comm;
    const eccl_algo_t *mpi = first_mpi(c->coll);
    const double bytes = (double)eccl_select_total_elems(c) * (double)c->esize;
    const int is_auto = comm->cfg.compress == ECCL_COMPRESS_AUTO;
    *t_mpi = *t_best = 0;
    if (comm->cfg.compress == ECCL_COMPRESS_NEVER) {
        *reason = "compression disabled";
        return mpi;
    }
    if (needs_op_fallback(c)) {
        *reason = "fallback: cannot compress this operation/datatype";
        return mpi;
    }
    if (is_auto && bytes < comm->cfg.min_bytes) {
        *reason = "below min_bytes";
        return mpi;
    }
    if (is_auto) { /* (where even an unbounded ratio would not pay, eccl_select does not sample) */
        const eccl_algo_t *a = model_choice(c, ECCL_RATIO_CEILING, 0, 1, t_mpi, t_best);
        if (a && !(a->flags & ECCL_ALG_COMPRESSED)) {
            *reason = "cost model: no ratio would pay here";
            return a;
        }
    }
    *reason = "cost model";
    return model_choice(c, ratio, !is_auto, 0, t_mpi, t_best);
}

eccl_result_t eccl_select_predict(eccl_comm_t comm, eccl_coll_t coll, int ranks, size_t count, eccl_dtype_t dtype,
                                  eccl_op_t op, double E, double ratio, eccl_select_prediction_t *p)
{
    eccl_call_t c;
    eccl_stats_t st;
    memset(&c, 0, sizeof c);
    memset(&st, 0, sizeof st);
    memset(p, 0, sizeof *p);
    if (!comm || (int)coll < 0 || coll >= ECCL_NCOLLS || !(c.esize = eccl_dtype_size(dtype)))
        return ECCL_ERR_INVALID_ARG;
    c.comm = comm;
    c.tr = eccl_transport(ECCL_TR_MPI);
    c.coll = coll;
    c.count = count;
    c.dtype = dtype;
    c.op = op;
    c.size = ranks > 0 ? ranks : comm->size;
    c.rank = comm->rank < c.size ? comm->rank : 0; /* (the root's view for bcast and scatter) */
    c.st = &st;
    eccl_select_set_bound(&c, E);
    p->algo = eccl_select_auto(&c, ratio, &p->reason, &p->t_mpi, &p->t_chosen);
    for (const eccl_algo_t *a = eccl_algorithms; a->name && p->n < ECCL_SELECT_MAX_ALGOS; a++) {
        if (a->coll != coll) continue;
        p->algos[p->n] = a;
        p->t[p->n++] = !a->applies || a->applies(&c) ? algo_price(a, mdl_of(&c), &c, ratio, 0) : NAN;
    }
    return ECCL_SUCCESS;
}

/* The data-dependent part of the decision: this rank's range (REL) and sampled ratio, agreed by
 * all ranks together with the call's signature; then the choice (forced, else eccl_select_auto at
 * the agreed ratio). */
static eccl_result_t agree_and_choose(eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t *forced,
                                      const char *why, const eccl_algo_t **out)
{
    eccl_comm_t comm = c->comm;
    const char *reason = "cost model"; /* (the root's words at the other ranks of bcast and scatter) */
    /* Data-dependent: the range (REL) and the sampled ratio, agreed by all ranks together with the
     * call's signature. */
    int need_ratio = !forced;
    size_t ln = 0;
    const void *ld = local_data(c, &ln);
    /* -min, max, -ratio, 1 where this rank's call is not device-resident, 1 where this rank's
     * node has refused CUDA IPC windows, 1 where this rank is short of device memory, this rank's
     * observed GPU codec latency (all reduced by MAX); then the signature (sig_fill) */
    double v[ECCL_AGREE_N] = {-INFINITY, -INFINITY, -INFINITY, c->dev.here && !c->dev.short_ ? 0.0 : 1.0,
                         comm->tr.nwin_state < 0 ? 1.0 : 0.0, c->dev.short_ ? 1.0 : 0.0,
                         eccl_gpu_observed(comm)};
    eccl_sig_fill(c, b, forced, v + ECCL_AGREE_FIG);
    int data_range = b->mode == ECCL_MODE_REL && b->range == ECCL_RANGE_FROM_DATA; /* else given */
    if (ld && data_range) {
        /* a rank with no finite value (all NaN or inf, or a failed device range) adds nothing: the
         * range is that of the finite values of the ranks that have some (lo > hi: none here) */
        double lo = INFINITY, hi = -INFINITY;
        if (c->dev.here) {
            /* a failure adds nothing (a smaller E is always safe); the same runtime error surfaces
             * in the algorithm's first device operation */
            eccl_dev_layout_t lb;
            const eccl_dev_layout_t *lay;
            const void *at = eccl_prim_at(c, ld, &lb, &lay);
            if (eccl_dev_range(c->comm->gpu.ctx, at, lay, ln, c->dtype, &lo, &hi)) lo = INFINITY, hi = -INFINITY;
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
    const int sampling = need_ratio && ld && c->coll != ECCL_COLL_SENDRECV_REPLACE;
    int reused = 0;
    eccl_ratio_memo_t key = {0};
    if (sampling) {
        eccl_select_set_bound(c, result_bound(b, range));
        key = eccl_memo_key(c);
        reused = eccl_memo_hit(c, &key);
        v[2] = reused ? -c->comm->memo.ratio : -sample_ratio(c, ld, ln);
    }
    if (c->coll == ECCL_COLL_SENDRECV_REPLACE) {
        /* pairwise: both sides decide from sizes alone; the sender's range bounds its data, and a
         * receiver whose own bound is absolute (ABS, LOSSLESS) refuses a stream made with a larger
         * one (the algorithm checks c->eb_recv_max) */
        eccl_select_set_bound(c, result_bound(b, range));
        c->eb_recv_max = b->mode == ECCL_MODE_REL ? INFINITY : c->E;
        double t_mpi = 0, t_best = 0;
        const eccl_algo_t *a = forced ? forced : model_choice(c, ECCL_ASSUMED_RATIO, comm->cfg.compress == ECCL_COMPRESS_ALWAYS, 0, &t_mpi, &t_best);
        c->st->model_ratio = ECCL_ASSUMED_RATIO;
        c->st->model_t_mpi = t_mpi;
        c->st->model_t_chosen = t_best;
        *out = a;
        if (!(a->flags & ECCL_ALG_COMPRESSED)) eccl_select_set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%s (pairwise: assumed ratio %.0f)", why, ECCL_ASSUMED_RATIO);
        return ECCL_SUCCESS;
    }
    if (rooted(c)) {
        /* the root decides and tells {algorithm index, E, ratio, gm}: an MPI_MAX allreduce where the
         * other ranks give -inf (a broadcast that also compares every rank's signature) */
        double ctl[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        if (c->rank == c->root) {
            double E = result_bound(b, range), ratio = need_ratio ? -v[2] : 0, t_mpi = 0, t_best = 0;
            eccl_select_set_bound(c, E);
            if (!c->dev.agreed) c->dev.all = c->dev.here && !c->dev.short_; /* the root's figures stand for everyone's */
            const eccl_algo_t *a = forced ? forced : eccl_select_auto(c, ratio, &reason, &t_mpi, &t_best);
            ctl[0] = algo_index(a);
            ctl[1] = E;
            ctl[2] = ratio;
            ctl[3] = c->dev.all;
            c->st->model_t_mpi = t_mpi;
            c->st->model_t_chosen = t_best;
        }
        memcpy(v, ctl, sizeof ctl);
        v[4] = -INFINITY;
        eccl_result_t rc = eccl_tr_allreduce_doubles(comm, v, ECCL_AGREE_N, MPI_MAX);
        if (rc) return rc;
        if ((rc = eccl_sig_check(c, v + ECCL_AGREE_FIG))) return rc;
        eccl_agree_observed_set(c, v[6]); /* (prices the run's chunking and the calls after) */
        if (!(v[0] >= 0 && v[0] < (double)num_algorithms()))
            return eccl_comm_error(comm, ECCL_ERR_INTERNAL, "%s: the root's decision did not arrive", eccl_coll_name(c->coll));
        *out = &eccl_algorithms[(int)v[0]];
        if (sampling) eccl_memo_note(c, key, v[2], reused); /* (the root's: only the root samples) */
        c->dev.all = v[3] != 0; /* the same figures everywhere (the pipeline's chunking uses them) */
        if (v[5] > 0) eccl_agree_drop_device(c);
        eccl_select_set_bound(c, v[1]);
        c->st->model_ratio = v[2];
    } else {
        /* always (also forced with a given bound): the signature must be compared */
        eccl_result_t rc = eccl_tr_allreduce_doubles(comm, v, ECCL_AGREE_N, MPI_MAX);
        if (rc) return rc;
        if ((rc = eccl_sig_check(c, v + ECCL_AGREE_FIG))) return rc;
        eccl_agree_observed_set(c, v[6]); /* (prices the run's chunking and the calls after) */
        if (v[4] > 0) comm->tr.nwin_refused = 1; /* (the same call on every rank: the same model) */
        if (!c->dev.agreed) c->dev.all = v[3] == 0.0; /* every rank device-resident: GPU figures */
        if (v[5] > 0) eccl_agree_drop_device(c);
        range = !data_range ? b->range : v[0] + v[1] > 0 ? v[0] + v[1] : 0.0;
        eccl_select_set_bound(c, result_bound(b, range));
        double ratio = isfinite(v[2]) ? -v[2] : 1.0, t_mpi = 0, t_best = 0;
        if (sampling) eccl_memo_note(c, key, ratio, reused);
        *out = forced ? forced : eccl_select_auto(c, ratio, &reason, &t_mpi, &t_best);
        c->st->model_ratio = ratio;
        c->st->model_t_mpi = t_mpi;
        c->st->model_t_chosen = t_best;
    }
    if (!((*out)->flags & ECCL_ALG_COMPRESSED)) eccl_select_set_bound(c, 0.0);
    snprintf(c->st->reason, sizeof c->st->reason, "%s%s", forced ? why : reason,
             !forced && reused ? " (an earlier call's ratio: ECCL_RATIO_REUSE)" : "");
    return ECCL_SUCCESS;
}


eccl_result_t eccl_select(eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t **out)
{
    eccl_comm_t comm = c->comm;
    const eccl_algo_t *mpi = first_mpi(c->coll);
    const eccl_algo_t *forced = NULL;
    int want_compressed = 0;
    eccl_result_t frc = select_forced(c, &forced, &want_compressed);
    if (frc) return frc;
    size_t n = eccl_select_total_elems(c);
    double bytes = (double)n * (double)c->esize;
    const char *why = comm->forced[c->coll] ? "forced by eccl_comm_set_algorithm"
                      : forced                ? "forced by the environment"
                                              : "auto";

    /* An operation compression cannot do: the fallback policy, consulted before min_bytes
     * (doc/collectives.md section 7: with ECCL_FALLBACK=error even a tiny PROD fails). */
    if (want_compressed && needs_op_fallback(c))
        return fall_back(c, mpi, "operation/datatype", "cannot compress this operation/datatype", out);

    /* Small calls go to MPI before anything else. */
    if (want_compressed && !forced && comm->cfg.compress == ECCL_COMPRESS_AUTO && bytes < comm->cfg.min_bytes) {
        *out = mpi;
        eccl_select_set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%.0f bytes < min_bytes %.0f", bytes, comm->cfg.min_bytes);
        return ECCL_SUCCESS;
    }

#ifdef HAVE_CUDA
    /* sendrecv_replace has no data agreement: its reservation goes into the device agreement */
    if (c->coll == ECCL_COLL_SENDRECV_REPLACE && want_compressed) eccl_agree_reserve_device(c);
    eccl_result_t drc = eccl_agree_device(c, forced, want_compressed);
    if (drc) return drc;
#endif

    /* Forced algorithms that cannot run here (their restriction may depend on the agreement
     * above): fallback policy. */
    if (forced && forced->applies && !forced->applies(c))
        return fall_back(c, mpi, forced->restriction, forced->restriction, out);
    if (!want_compressed) {
        *out = forced ? forced : mpi;
        eccl_select_set_bound(c, 0.0);
        snprintf(c->st->reason, sizeof c->st->reason, "%s", forced ? why : (comm->cfg.compress == ECCL_COMPRESS_NEVER ? "compression disabled" : why));
        return ECCL_SUCCESS;
    }

    /* When the model says plain MPI wins even at an unbounded ratio (a link faster than the codec,
     * or a message too small to amortise it), no data needs to be sampled: decided from figures
     * every rank shares, with no message. */
    if (!forced && comm->cfg.compress == ECCL_COMPRESS_AUTO) {
        double t_mpi = 0, t_best = 0;
        const char *reason = NULL;
        const eccl_algo_t *a = eccl_select_auto(c, ECCL_RATIO_CEILING, &reason, &t_mpi, &t_best);
        if (a && !(a->flags & ECCL_ALG_COMPRESSED)) {
            *out = a;
            eccl_select_set_bound(c, 0.0);
            c->st->model_ratio = ECCL_RATIO_CEILING;
            c->st->model_t_mpi = t_mpi;
            c->st->model_t_chosen = t_best;
            snprintf(c->st->reason, sizeof c->st->reason, "%s", reason);
            return ECCL_SUCCESS;
        }
    }

#ifdef HAVE_CUDA
    if (c->coll != ECCL_COLL_SENDRECV_REPLACE) eccl_agree_reserve_device(c);
#endif
    return agree_and_choose(c, b, forced, why, out);
}

eccl_result_t eccl_select_one_rank(eccl_call_t *c)
{
    const eccl_algo_t *forced = NULL;
    int want_compressed = 0;
    eccl_result_t rc = select_forced(c, &forced, &want_compressed);
    if (rc || !want_compressed || !needs_op_fallback(c) || c->comm->cfg.fallback != ECCL_FALLBACK_ERROR) return rc;
    return fall_back(c, first_mpi(c->coll), "operation/datatype", "cannot compress this operation/datatype", &forced);
}
