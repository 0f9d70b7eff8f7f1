/*
 * agree.c - the parts of a call's decision that every rank must share (select.c runs them): the
 * call's signature, compared in the data agreement, and the device part (every rank
 * device-resident? NCCL up, and does it carry the streams? device memory reserved?).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "codec/codec.h"
#include "coll/agree.h"
#include "coll/select.h"
#include "core/env.h"
#include "core/log.h"
#include "cuda/device.h"
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

void eccl_sig_fill(const eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t *forced, double *v)
{
    uint64_t n = c->count;
    int has_root = c->coll == ECCL_COLL_BCAST || c->coll == ECCL_COLL_REDUCE || c->coll == ECCL_COLL_SCATTER ||
                   c->coll == ECCL_COLL_GATHER;
    double s[SIG_N];
    s[SIG_COLL] = (double)c->coll;
    s[SIG_COUNT_HI] = (double)(n >> 32);
    s[SIG_COUNT_LO] = (double)(n & 0xffffffffu);
    s[SIG_DTYPE] = (double)c->dtype;
    s[SIG_OP] = eccl_coll_is_reduction(c->coll) ? (double)c->op : 0.0;
    s[SIG_ROOT] = has_root ? (double)c->root : 0.0;
    s[SIG_MODE] = (double)b->mode;
    s[SIG_VALUE] = b->mode == ECCL_MODE_LOSSLESS ? 0.0 : b->value;
    s[SIG_RANGE] = b->mode == ECCL_MODE_REL ? b->range : 0.0;
    s[SIG_ALGO] = forced ? (double)(forced - eccl_algorithms + 1) : 0.0;
    for (int k = 0; k < SIG_N; k++) {
        v[k] = s[k];
        v[SIG_N + k] = -s[k];
    }
}

eccl_result_t eccl_sig_check(eccl_call_t *c, const double *v)
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

#ifdef HAVE_CUDA
/* The device part of the decision (forced: the algorithm forced, or NULL; want: the call wants
 * compression). */
eccl_result_t eccl_agree_device(eccl_call_t *c, const eccl_algo_t *forced, int want_compressed)
{
    eccl_comm_t comm = c->comm;
    /* Whether every rank runs device-resident (the model then prices the GPU codec, measured at
     * the first such call), and then whether NCCL carries the call (its uncompressed algorithms
     * become candidates, compressed ones send their streams through it; not with
     * ECCL_TRANSPORT=mpi): one small agreement, on communicators created while every rank had
     * CUDA loaded. Before the 'no ratio would pay' check below, which must price the codec that
     * would run. */
    if ((want_compressed || (forced && (forced->flags & ECCL_ALG_DEVICE))) && comm->gpu.all) {
        int all_dev = 0, use = 0;
        int resident = c->dev.here && !c->dev.short_;
        eccl_result_t rc = nccl_allowed() ? eccl_tr_nccl_agree(comm, resident, &all_dev, &use)
                                          : eccl_tr_dev_agree(comm, resident, &all_dev);
        if (rc) return rc;
        c->dev.all = all_dev;
        c->nccl = use;
        /* streams by NCCL only where its link beats MPI's (both measured; same figures everywhere) */
        const eccl_transport_t *nccl = eccl_transport(ECCL_TR_NCCL), *mpi = eccl_transport(ECCL_TR_MPI);
        if (use && (nccl_forced() || nccl->model(comm, 1, 0)->beta < mpi->model(comm, 1, 0)->beta)) c->tr = nccl;
        c->dev.agreed = 1;
    }
    return ECCL_SUCCESS;
}
#endif

#ifdef HAVE_CUDA
/* A device-resident rank allocates every device buffer the call's operations can need before any
 * data moves (eccl_dev_reserve: no operation allocates after this), once the call will sample for
 * compression (not for calls that go to MPI or NCCL at once, which need none): a rank whose GPU is
 * out of memory learns it now, alone, says so in the data agreement (every rank then prices the
 * CPU codec and no stream goes through NCCL), and stages its buffers through host memory (run):
 * the streams are the same either way, and nobody is left waiting for a rank that failed in the
 * middle of the call. */
void eccl_agree_reserve_device(eccl_call_t *c)
{
    eccl_comm_t comm = c->comm;
    if (!c->dev.here) return;
    eccl_result_t rrc = eccl_env_long(&env_fault_dev) == c->rank && !comm->child
                            ? ECCL_ERR_NO_MEMORY /* (testing: ECCL_FAULT_DEV_ALLOC) */
                            : eccl_dev_reserve(comm->gpu.ctx, c->count, c->dtype);
    /* the first stream-enqueued call with these arguments: NCCL's stream buffers too, for the
     * largest stream a message can carry (a tree's scatter and gather forward several ranks'), so
     * that its enqueued successors never grow them with worse-compressing data */
    if (!rrc && c->nccl && comm->gpu.first_async)
        rrc = eccl_tr_nccl_reserve(comm, eccl_compress_bound(eccl_select_total_elems(c), c->dtype));
    if (rrc) {
        c->dev.short_ = 1;
        ECCL_LOG(1, c->rank, "%s: no device memory for a device-resident call of %zu elements (%s): this rank "
                 "stages its buffers through host memory", eccl_coll_name(c->coll), c->count, eccl_strerror(rrc));
    }
}
#endif

int eccl_agree_dev_settled(eccl_comm_t comm)
{
#ifdef HAVE_CUDA
    if (!comm->gpu.all) return 1; /* (no device agreement, so no NCCL) */
    if (nccl_allowed() && eccl_tr_nccl_pending(comm)) return 0;
    if (comm->topo.hier) return comm->topo.xcomm && eccl_agree_dev_settled(comm->topo.xcomm);
#else
    (void)comm;
#endif
    return 1;
}

/* Some rank is short of device memory (the agreement's v[5]): every rank prices the CPU codec and
 * sends no stream through NCCL for this call. */
void eccl_agree_drop_device(eccl_call_t *c)
{
    c->dev.all = 0;
    c->nccl = 0;
    c->tr = eccl_transport(ECCL_TR_MPI);
}

void eccl_agree_observed_set(eccl_call_t *c, double agreed)
{
    eccl_comm_t comm = c->comm;
    if (!(agreed > 0 && isfinite(agreed))) return;
    double old = comm->models.gpu_lat_obs; /* (0: none yet) */
    if (!eccl_models_set_gpu_observed(&comm->models, agreed)) return;
    if (!(old > 0) || agreed > 1.25 * old || agreed < 0.8 * old)
        ECCL_LOG(1, c->rank, "GPU codec: %.1f us per operation observed (slowest rank's median; calibrated %.1f us)",
                 agreed * 1e6, comm->models.gpu_lat_op[0] * 1e6);
}

/* ECCL_RATIO_REUSE = N: a call whose signature (collective, count, datatype, operation, root,
 * per-message bound) is that of the last call that sampled takes that call's agreed ratio instead
 * of sampling its own data, for N - 1 calls; then it samples again. 1 (default): every call
 * samples. Ranks may differ: the agreement reduces what each gives. */
ECCL_ENV(env_ratio_reuse, "ECCL_RATIO_REUSE", 1);

/* The memo's key for call c, whose per-message bound for its sample is set (c->mbound). */
eccl_ratio_memo_t eccl_memo_key(const eccl_call_t *c)
{
    eccl_ratio_memo_t k = {1, (int)c->coll, (int)c->dtype, (int)c->op, c->root, (int)c->mbound.mode, c->count,
                           c->mbound.value, 0, 0};
    return k;
}

/* Whether call c (key k) may take the memo's ratio instead of sampling. */
int eccl_memo_hit(const eccl_call_t *c, const eccl_ratio_memo_t *k)
{
    const eccl_ratio_memo_t *m = &c->comm->memo;
    long n = eccl_env_long(&env_ratio_reuse);
    return n > 1 && m->valid && m->uses < n - 1 && m->coll == k->coll && m->dtype == k->dtype && m->op == k->op &&
           m->root == k->root && m->mode == k->mode && m->count == k->count && m->eb == k->eb;
}

/* After the data agreement: the agreed ratio under key k, reused (the call took the memo's) or
 * sampled (the memo starts again). */
void eccl_memo_note(eccl_call_t *c, eccl_ratio_memo_t k, double ratio, int reused)
{
    if (!(ratio > 0 && isfinite(ratio))) {
        c->comm->memo.valid = 0;
        return;
    }
    k.ratio = ratio;
    k.uses = reused ? c->comm->memo.uses + 1 : 0;
    c->comm->memo = k;
}
