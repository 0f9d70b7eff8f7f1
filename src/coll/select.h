/*
 * select.h - the decision of a call (select.c): which algorithm runs and with what bound per
 * message. dispatch.c asks it for every call; eccl-info --model asks eccl_select_predict, which
 * runs the same eccl_select_auto, so the two cannot name different algorithms for the same figures.
 */
#ifndef ECCL_COLL_SELECT_H
#define ECCL_COLL_SELECT_H

#include "coll/coll.h"

/* Whether an algorithm runs on device buffers where they are (ECCL_ALG_RESIDENT of its flags). */
int eccl_algo_resident(const eccl_algo_t *a);
/* allreduce, reduce, reduce_scatter_block. */
int eccl_coll_is_reduction(eccl_coll_t k);
/* Elements of the buffer the algorithms move (what the model's bytes count): count, or count x
 * ranks for reduce_scatter_block, allgather, scatter and gather. */
size_t eccl_select_total_elems(const eccl_call_t *c);
/* Set the call's result bound E and the per-message bound it gives (doc/guarantees.md section 5:
 * E/p for SUM, E/(p+1) with ECCL_ALG_REQUANT, ...), and report E in the statistics. */
void eccl_select_set_bound(eccl_call_t *c, double E);
/* A call on one rank is a local copy, but what it asks for still holds, so that a program that
 * fails on four ranks fails on one: an unknown ECCL_<OP>_ALGORITHM name (ECCL_ERR_INVALID_ARG), and
 * an operation compression cannot do under ECCL_FALLBACK=error (ECCL_ERR_UNSUPPORTED). */
eccl_result_t eccl_select_one_rank(eccl_call_t *c);

/* The whole decision of a call whose arguments begin() checked: collective over the communicator
 * where compression is wanted (the device agreement, the data agreement with the signature
 * comparison); sets c's bound, device and NCCL fields and the statistics' model fields and
 * reason. Errors: ECCL_ERR_UNSUPPORTED (fallback policy error), ECCL_ERR_MISMATCH (the signature
 * differs across ranks: every rank returns it), ECCL_ERR_INVALID_ARG, ECCL_ERR_MPI. */
eccl_result_t eccl_select(eccl_call_t *c, const eccl_bound_t *b, const eccl_algo_t **out);

/* The choice for a call that no algorithm is forced on, at `ratio` (the sampled ratio every rank
 * agreed on), from figures every rank shares: compression disabled -> mpi; an operation that
 * cannot be compressed -> mpi (the fallback; its ERROR policy is eccl_select's); policy auto below
 * min_bytes -> mpi; policy auto where no ratio would pay -> the fastest uncompressed algorithm;
 * else the cost model at `ratio` (a compressed algorithm must be predicted 10% faster; policy
 * always: the fastest compressed one). A compressed algorithm is priced with what its call pays
 * beside it (the verdict; in the "no ratio would pay" check also the sample and the data
 * agreement). *reason: a static phrase; *t_mpi, *t_best: the model's
 * seconds for the fastest uncompressed algorithm and for the choice (0 where it did not run). */
const eccl_algo_t *eccl_select_auto(eccl_call_t *c, double ratio, const char **reason, double *t_mpi, double *t_best);

#define ECCL_SELECT_MAX_ALGOS 16
/* What eccl_select_predict says. */
typedef struct eccl_select_prediction {
    const eccl_algo_t *algo;      /* the choice */
    const char *reason;           /* eccl_select_auto's phrase */
    double t_mpi, t_chosen;       /* seconds: the fastest uncompressed algorithm, the choice */
    int n;                        /* the collective's algorithms, in table order, */
    const eccl_algo_t *algos[ECCL_SELECT_MAX_ALGOS];
    double t[ECCL_SELECT_MAX_ALGOS]; /* and their predicted seconds (NAN: not applicable; a
                                        compressed one's with its verdict: select.c
                                        compressed_extra) */
} eccl_select_prediction_t;

/* What `auto` would choose for a host-memory call of `count` elements of dtype with operation op
 * (reductions), result bound E, on `ranks` ranks (<= 0: the communicator's size) of comm's model,
 * at the agreed ratio `ratio` (a call's eccl_stats_t.model_ratio gives it back): eccl_select_auto on
 * a call filled as the public entry points fill it. Local, no communication. Errors:
 * ECCL_ERR_INVALID_ARG (NULL comm, unknown collective or dtype). */
eccl_result_t eccl_select_predict(eccl_comm_t comm, eccl_coll_t coll, int ranks, size_t count, eccl_dtype_t dtype,
                                  eccl_op_t op, double E, double ratio, eccl_select_prediction_t *p);

#endif
