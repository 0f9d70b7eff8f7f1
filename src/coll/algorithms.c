/*
 * algorithms.c - the list of algorithms is data: this table drives dispatch, the
 * ECCL_<OP>_ALGORITHM overrides, eccl-info and the test matrix.
 */
#include "config.h"

#include <string.h>

#include "coll/coll.h"
#include "coll/engine.h"
#include "core/comm.h"
#include "core/env.h"

static int pow2_ranks(const eccl_call_t *c) { return (c->size & (c->size - 1)) == 0; }

const eccl_algo_t eccl_algorithms[] = {
#define ALGO(coll, op, name, applies, flags, restriction, summary)                                 \
    {coll, #name, eccl_##op##_##name, eccl_##op##_##name##_cost, applies, flags, restriction, summary},
#include "coll/algorithms.def"
#undef ALGO
    {ECCL_NCOLLS, NULL, NULL, NULL, NULL, 0, NULL, NULL}};

ECCL_ENV(env_chunks, "ECCL_CHUNKS", 0);

int eccl_coll_chunks_forced(void)
{
    long v = eccl_env_long(&env_chunks);
    return v > 0 ? (int)(v < ECCL_MAX_CHUNKS ? v : ECCL_MAX_CHUNKS) : 0;
}

const char *eccl_coll_name(eccl_coll_t coll)
{
    static const char *const names[] = {"bcast",   "allreduce", "reduce", "reduce_scatter_block",
                                        "allgather", "scatter",  "gather", "sendrecv_replace"};
    return coll < ECCL_NCOLLS ? names[coll] : "unknown";
}

const eccl_algo_t *eccl_algo_find(eccl_coll_t coll, const char *name)
{
    for (const eccl_algo_t *a = eccl_algorithms; a->name; a++)
        if (a->coll == coll && !strcmp(a->name, name)) return a;
    return NULL;
}

eccl_result_t eccl_comm_set_algorithm(eccl_comm_t comm, const char *collective, const char *algorithm)
{
    if (!comm) return ECCL_ERR_INVALID_ARG;
    eccl_engine_quiesce(comm); /* (the requests in flight run with the settings they were posted under) */
    comm->errmsg[0] = '\0';
    if (!collective || !algorithm)
        return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "eccl_comm_set_algorithm: the %s name is NULL",
                               !collective ? "collective" : "algorithm");
    for (int k = 0; k < ECCL_NCOLLS; k++) {
        if (strcmp(collective, eccl_coll_name((eccl_coll_t)k))) continue;
        if (!strcmp(algorithm, "auto")) {
            comm->forced[k] = 0;
            return ECCL_SUCCESS;
        }
        const eccl_algo_t *a = eccl_algo_find((eccl_coll_t)k, algorithm);
        if (!a)
            return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "%s has no algorithm \"%s\"", collective,
                                   algorithm);
        comm->forced[k] = (int)(a - eccl_algorithms) + 1;
        return ECCL_SUCCESS;
    }
    return eccl_comm_error(comm, ECCL_ERR_INVALID_ARG, "no collective called \"%s\"", collective);
}
