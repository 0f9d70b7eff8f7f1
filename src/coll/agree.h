/* agree.h - what every rank of a call must share before it chooses (src/coll/agree.c; used by
 * select.c). */
#ifndef ECCL_COLL_AGREE_H
#define ECCL_COLL_AGREE_H

#include "coll/coll.h"

/* The call's signature: what every rank must pass alike (MPI's rule for count, datatype,
 * operation and root, plus the bound and a forced algorithm). Every call that runs compressed
 * compares it in the agreement it makes anyway (select.c), so a mismatch returns
 * ECCL_ERR_MISMATCH on every rank instead of a hang, an MPI abort or a bound broken on some rank.
 * As doubles, each exact: the count in two 32-bit halves. */
enum { SIG_COLL, SIG_COUNT_HI, SIG_COUNT_LO, SIG_DTYPE, SIG_OP, SIG_ROOT, SIG_MODE, SIG_VALUE, SIG_RANGE, SIG_ALGO,
       SIG_N };
/* The data agreement's doubles (one MPI_MAX allreduce): ECCL_AGREE_FIG figures, then the
 * signature and its negation (MAX gives the max and -min of each). */
#define ECCL_AGREE_FIG 7
#define ECCL_AGREE_N (ECCL_AGREE_FIG + 2 * SIG_N)

/* Write the signature of call c with bound b (forced: the forced algorithm or NULL) at v[0 ..
 * 2 * SIG_N): each figure, then its negation. */
void eccl_sig_fill(const eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t *forced, double *v);
/* After the MAX allreduce of what eccl_sig_fill wrote: ECCL_ERR_MISMATCH (with a message saying
 * which argument) where some rank's signature differs, else ECCL_SUCCESS. The same on every rank. */
eccl_result_t eccl_sig_check(eccl_call_t *c, const double *v);

#ifdef HAVE_CUDA
/* Collective, where the communicator was created with CUDA on every rank (comm->gpu.all) and the
 * call wants compression or is forced to an NCCL algorithm: whether every rank runs this call
 * device-resident (c->dev.all, c->dev.agreed: the GPU codec's figures price it, measured at the
 * first such call), whether NCCL is up (c->nccl: its own algorithms apply) and whether it carries
 * the compressed streams (c->tr: where its measured link beats MPI's, or ECCL_TRANSPORT=nccl; never
 * with ECCL_TRANSPORT=mpi). Before the 'no ratio would pay' check, which must price the codec that
 * would run. Errors: those of the agreement (ECCL_ERR_MPI), the same everywhere. */
eccl_result_t eccl_agree_device(eccl_call_t *c, const eccl_algo_t *forced, int want_compressed);
/* Local: a device-resident rank reserves every device buffer the call can need
 * (eccl_dev_reserve); where it cannot, c->dev.short_ = 1 (it stages its buffers, and says so in
 * the data agreement). ECCL_FAULT_DEV_ALLOC=R makes rank R fail here (testing). */
void eccl_agree_reserve_device(eccl_call_t *c);
#endif
/* Whether no later call of comm can run a one-time set-up of the device path that may synchronise
 * the whole device (NCCL's initialisation, also that of the hierarchical allreduce's inter-node
 * communicator): until then the stream-enqueued calls run at once (src/coll/engine.c). Local; call
 * it only while no call of comm runs. 1 in builds without CUDA. */
int eccl_agree_dev_settled(eccl_comm_t comm);
/* After the data agreement: `agreed` (the MAX over ranks of eccl_gpu_observed, core/comm.h: the slowest
 * rank's GPU paces a collective) prices the GPU codec from now on (eccl_models_set_gpu_observed),
 * the same figure on every rank; nothing where it is not a positive number. */
void eccl_agree_observed_set(eccl_call_t *c, double agreed);
/* Some rank is short of device memory (the data agreement said so): this call is priced with the
 * CPU codec and its streams go over MPI, on every rank. */
void eccl_agree_drop_device(eccl_call_t *c);

/* The ratio memo (comm->memo, ECCL_RATIO_REUSE; used by select.c's data agreement). The key of
 * call c, whose per-message bound for its sample is set (c->mbound); whether c may take the memo's
 * ratio instead of sampling (the same signature, fewer than N - 1 reuses); after the agreement,
 * the agreed ratio noted under key k, reused or sampled (then the count starts again; a ratio
 * that is not a positive number empties the memo). Local. */
eccl_ratio_memo_t eccl_memo_key(const eccl_call_t *c);
int eccl_memo_hit(const eccl_call_t *c, const eccl_ratio_memo_t *k);
void eccl_memo_note(eccl_call_t *c, eccl_ratio_memo_t k, double ratio, int reused);

#endif
