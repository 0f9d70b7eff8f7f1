/*
 * enqueue.c - the stream-enqueued collectives (eccl_cuda_<op>_async, include/eccl_cuda.h): each
 * hands its arguments to the engine (engine.c: eccl_engine_enqueue), which holds the stream until
 * its progress thread has run the blocking call's code.
 */
#include "config.h"

#include "coll/engine.h"
#include "eccl_cuda.h"

eccl_result_t eccl_cuda_bcast_async(void *buf, size_t count, eccl_dtype_t dtype, int root, const eccl_bound_t *bound,
                                    eccl_comm_t comm, cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_BCAST, .rbuf = buf, .count = count, .dtype = dtype, .root = root};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_bcast_async");
}

eccl_result_t eccl_cuda_allreduce_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                        eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm,
                                        cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_ALLREDUCE, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .op = op};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_allreduce_async");
}

eccl_result_t eccl_cuda_reduce_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                     eccl_op_t op, int root, const eccl_bound_t *bound, eccl_comm_t comm,
                                     cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_REDUCE, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .op = op, .root = root};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_reduce_async");
}

eccl_result_t eccl_cuda_reduce_scatter_block_async(const void *sendbuf, void *recvbuf, size_t recvcount,
                                                   eccl_dtype_t dtype, eccl_op_t op, const eccl_bound_t *bound,
                                                   eccl_comm_t comm, cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_REDUCE_SCATTER_BLOCK, .sbuf = sendbuf, .rbuf = recvbuf,
                             .count = recvcount, .dtype = dtype, .op = op};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_reduce_scatter_block_async");
}

eccl_result_t eccl_cuda_allgather_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                        const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_ALLGATHER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_allgather_async");
}

eccl_result_t eccl_cuda_scatter_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                                      const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_SCATTER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .root = root};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_scatter_async");
}

eccl_result_t eccl_cuda_gather_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                                     const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_GATHER, .sbuf = sendbuf, .rbuf = recvbuf, .count = count,
                             .dtype = dtype, .root = root};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_gather_async");
}

eccl_result_t eccl_cuda_sendrecv_replace_async(void *buf, size_t count, eccl_dtype_t dtype, int dest, int sendtag,
                                               int source, int recvtag, const eccl_bound_t *bound, eccl_comm_t comm,
                                               cudaStream_t stream)
{
    eccl_engine_args_t a = {.coll = ECCL_COLL_SENDRECV_REPLACE, .rbuf = buf, .count = count, .dtype = dtype,
                             .dest = dest, .sendtag = sendtag, .source = source, .recvtag = recvtag};
    return eccl_engine_enqueue(comm, &a, bound, (void *)stream, "eccl_cuda_sendrecv_replace_async");
}
