/*
 * algorithms.c - the list of algorithms is data: this table drives dispatch, the
 * ECCL_<OP>_ALGORITHM overrides, eccl-info and the test matrix.
 */
#include "config.h"

#include <string.h>

#include "coll/coll.h"
#include "core/comm.h"
#include "core/env.h"

static int pow2_ranks(const eccl_call_t *c) { return (c->size & (c->size - 1)) == 0; }

#define ALGO(coll, op, name, applies, flags, restriction, summary)                                 \
    {coll, #name, eccl_##op##_##name, eccl_##op##_##name##_cost, applies, flags, restriction, summary}

const eccl_algo_t eccl_algorithms[] = {
    ALGO(ECCL_COLL_BCAST, bcast, mpi, NULL, 0, NULL, "MPI_Bcast of the uncompressed data"),
    ALGO(ECCL_COLL_BCAST, bcast, binomial, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_VIEW, NULL,
         "compress once at the root, binomial tree of the compressed stream"),
    ALGO(ECCL_COLL_BCAST, bcast, scatter_allgather, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_VIEW, NULL,
         "root compresses p pieces, binomial scatter, ring allgather of the streams (van de Geijn)"),
    ALGO(ECCL_COLL_BCAST, bcast, pipeline, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_VIEW, NULL,
         "chain from the root, chunks compressed separately and forwarded as they arrive"),
    ALGO(ECCL_COLL_BCAST, bcast, nccl, eccl_bcast_nccl_applies, ECCL_ALG_DEVICE,
         "device buffers on every rank and the NCCL transport up",
         "ncclBroadcast of the uncompressed device buffer (fast GPU links)"),

    ALGO(ECCL_COLL_ALLREDUCE, allreduce, mpi, NULL, 0, NULL, "MPI_Allreduce of the uncompressed data"),
    ALGO(ECCL_COLL_ALLREDUCE, allreduce, ring, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_VIEW, NULL,
         "homomorphic ring reduce-scatter, then ring allgather of the final streams"),
    ALGO(ECCL_COLL_ALLREDUCE, allreduce, ring_pipelined, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_VIEW, NULL,
         "the homomorphic ring in chunks: codec work on one chunk overlaps the transfer of others "
         "(device buffers: the GPU works while MPI moves the streams)"),
    ALGO(ECCL_COLL_ALLREDUCE, allreduce, recursive_doubling, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_VIEW, NULL,
         "whole-buffer streams combined homomorphically in log2(p) exchanges (gZCCL)"),
    ALGO(ECCL_COLL_ALLREDUCE, allreduce, rabenseifner, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_REQUANT | ECCL_ALG_HOST_DATA, NULL,
         "recursive halving + doubling; compressed while the exchanged halves are large"),
    ALGO(ECCL_COLL_ALLREDUCE, allreduce, reduce_bcast, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION,
         NULL, "homomorphic binomial reduce to rank 0, then binomial bcast of the result stream"),

    ALGO(ECCL_COLL_ALLREDUCE, allreduce, hierarchical, eccl_allreduce_hierarchical_applies,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_HOST_DATA | ECCL_ALG_NODE_DEVICE,
         "several nodes with the same number (> 1) of ranks each",
         "uncompressed reduce-scatter inside each node, compressed allreduce between nodes (one "
         "communicator per local rank), uncompressed allgather inside each node"),

    ALGO(ECCL_COLL_ALLREDUCE, allreduce, nccl, eccl_allreduce_nccl_applies, ECCL_ALG_DEVICE,
         "SUM on device buffers on every rank, NCCL transport up",
         "ncclAllReduce of the uncompressed device buffers (fast GPU links)"),

    ALGO(ECCL_COLL_REDUCE, reduce, mpi, NULL, 0, NULL, "MPI_Reduce of the uncompressed data"),
    ALGO(ECCL_COLL_REDUCE, reduce, binomial, NULL, ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION | ECCL_ALG_VIEW, NULL,
         "binomial tree, children's streams combined homomorphically"),

    ALGO(ECCL_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block, mpi, NULL, 0, NULL,
         "MPI_Reduce_scatter_block of the uncompressed data"),
    ALGO(ECCL_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block, ring, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION, NULL, "homomorphic ring"),
    ALGO(ECCL_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block, ring_pipelined, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION, NULL,
         "homomorphic ring in chunks: codec work on one chunk overlaps the transfer of others"),
    ALGO(ECCL_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block, recursive_halving, NULL,
         ECCL_ALG_COMPRESSED | ECCL_ALG_REDUCTION, NULL,
         "recursive halving of per-rank streams, combined homomorphically"),

    ALGO(ECCL_COLL_ALLGATHER, allgather, mpi, NULL, 0, NULL, "MPI_Allgather of the uncompressed data"),
    ALGO(ECCL_COLL_ALLGATHER, allgather, ring, NULL, ECCL_ALG_COMPRESSED, NULL,
         "compress once, forward streams around the ring, decompress p pieces"),
    ALGO(ECCL_COLL_ALLGATHER, allgather, recursive_doubling, pow2_ranks, ECCL_ALG_COMPRESSED,
         "power-of-two number of ranks", "exchange growing sets of streams with partners rank^2^k"),
    ALGO(ECCL_COLL_ALLGATHER, allgather, bruck, NULL, ECCL_ALG_COMPRESSED, NULL,
         "Bruck's log2(p) steps with sets of streams, any number of ranks"),

    ALGO(ECCL_COLL_SCATTER, scatter, mpi, NULL, 0, NULL, "MPI_Scatter of the uncompressed data"),
    ALGO(ECCL_COLL_SCATTER, scatter, binomial, NULL, ECCL_ALG_COMPRESSED, NULL,
         "one stream per destination, binomial tree of stream sets"),

    ALGO(ECCL_COLL_GATHER, gather, mpi, NULL, 0, NULL, "MPI_Gather of the uncompressed data"),
    ALGO(ECCL_COLL_GATHER, gather, binomial, NULL, ECCL_ALG_COMPRESSED, NULL,
         "each rank compresses its piece, binomial tree of stream sets to the root"),

    ALGO(ECCL_COLL_SENDRECV_REPLACE, sendrecv_replace, mpi, NULL, 0, NULL,
         "MPI_Sendrecv_replace of the uncompressed data"),
    ALGO(ECCL_COLL_SENDRECV_REPLACE, sendrecv_replace, compressed, NULL, ECCL_ALG_COMPRESSED, NULL,
         "compress, exchange streams, decompress"),

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
