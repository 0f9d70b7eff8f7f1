/*
 * eccl_cuda.h - GPU side of the eccl interface.
 *
 * Kept apart from eccl.h so that CPU-only users never need CUDA headers. Functions declared here
 * exist in every build: without the CUDA backend (configure --without-cuda, or no nvcc) they
 * return ECCL_ERR_UNSUPPORTED; with it but no usable GPU at run time, ECCL_ERR_NO_DEVICE.
 */
#ifndef ECCL_CUDA_H
#define ECCL_CUDA_H

#include "eccl.h"

/* The CUDA stream type, declared without the CUDA headers (the same typedef as CUDA's). */
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Number of CUDA devices this process can use, in *count (0 when there are none).
 * Returns ECCL_SUCCESS (also with 0 devices), ECCL_ERR_UNSUPPORTED without the CUDA backend,
 * ECCL_ERR_INVALID_ARG for a NULL count. */
eccl_result_t eccl_cuda_device_count(int *count);

/* ECCL_SUCCESS when device `device` can run eccl's kernels (compute capability >= 8.0);
 * ECCL_ERR_NO_DEVICE when it does not exist or is too old, ECCL_ERR_UNSUPPORTED without the
 * CUDA backend. When name is not NULL, up to name_len bytes of the device name are copied. */
eccl_result_t eccl_cuda_device_check(int device, char *name, size_t name_len);

/* Make `device` the calling thread's current CUDA device (cudaSetDevice), for callers without CUDA
 * headers: one GPU per rank is usually eccl_cuda_set_device(local_rank % count), where local_rank
 * counts the ranks before this one on the same host (by MPI_Get_processor_name, or the launcher's
 * MPI_LOCALRANKID / OMPI_COMM_WORLD_LOCAL_RANK); a rank's place in MPI_COMM_TYPE_SHARED is not
 * safe for this: MPICH's MPIR_CVAR_NOLOCAL=1 makes that communicator one rank each, and every rank
 * then takes GPU 0 (examples/summa.f90 gpu_setup does it by host name). Device-resident
 * collectives and eccl_cuda_malloc work on the current device. Errors: ECCL_ERR_NO_DEVICE (no such
 * device), ECCL_ERR_CUDA, ECCL_ERR_UNSUPPORTED (no CUDA backend). */
eccl_result_t eccl_cuda_set_device(int device);

/* Device memory for callers without CUDA headers or CUDA Fortran (gfortran users, tests).
 * eccl_cuda_malloc: bytes of device memory on the current device in *d_ptr (NULL for 0 bytes);
 * free it with eccl_cuda_free (NULL accepted). eccl_cuda_memcpy copies bytes between any two
 * host or device buffers (the runtime works out the direction) and returns when the copy is done.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointers with bytes > 0), ECCL_ERR_NO_MEMORY,
 * ECCL_ERR_NO_DEVICE, ECCL_ERR_CUDA, ECCL_ERR_UNSUPPORTED (no CUDA backend). */
eccl_result_t eccl_cuda_malloc(void **d_ptr, size_t bytes);
eccl_result_t eccl_cuda_free(void *d_ptr);
eccl_result_t eccl_cuda_memcpy(void *dst, const void *src, size_t bytes);

/* Order the collectives of `comm` after the work enqueued on `stream` (NULL: no stream, the
 * default). With a stream set, every collective of comm that touches device memory first waits
 * (on the host) for everything enqueued on the stream so far, so the kernel or copy that wrote its
 * input may still be in flight on that stream when the call is made; without one, that data must
 * be complete when the call is made (synchronise the stream that wrote it). Either way the call
 * returns when its result is complete in device memory, so work enqueued afterwards on any stream
 * (the set one included) reads it. The collectives stay blocking: this orders them with respect
 * to the stream, it does not enqueue them on it. The stream must stay valid while it is set;
 * set NULL before destroying it. Errors: ECCL_ERR_INVALID_ARG (comm NULL), ECCL_ERR_UNSUPPORTED
 * (no CUDA backend). A failed wait makes the collective return ECCL_ERR_CUDA. */
eccl_result_t eccl_cuda_comm_set_stream(eccl_comm_t comm, cudaStream_t stream);

/* Whether this rank hands device buffers straight to MPI (*aware = 1) in the calls that move
 * them uncompressed with MPI (the `mpi` algorithms and fallbacks), instead of staging them
 * through page-locked host memory (0). Decided when the communicator is created: ECCL_CUDA_AWARE
 * (doc/env.md), by default what MPIX_Query_cuda_support says where the MPI library has it, else
 * 0. Such calls report eccl_stats_t.device = 2, transport = 2. Errors: ECCL_ERR_INVALID_ARG;
 * ECCL_ERR_UNSUPPORTED without the CUDA backend (*aware = 0). */
eccl_result_t eccl_cuda_comm_mpi_aware(eccl_comm_t comm, int *aware);

/* ---------------------------------------------------------------------------------------------
 * Stream-enqueued collectives (NCCL-style): the same arguments as the blocking call, plus a CUDA
 * stream of the communicator's device. The call returns at once; the collective happens in stream
 * order: it reads its input after the work enqueued on `stream` before the call, and work enqueued
 * on `stream` after the call sees its result. The calling thread does not wait for the GPU or for
 * the peers. Results, algorithm choice and bound are those of the blocking call, bit for bit (the
 * blocking call's code runs, in the communicator's progress thread).
 *
 * How: the call records an event on `stream` and makes the stream wait (a stream memory operation
 * on a word of page-locked host memory) until the progress thread, once the event has fired, has
 * run the collective; the stream's later work is held back meanwhile, other streams are not.
 * Buffers: device memory of the communicator's device (host memory is accepted and runs in stream
 * order too, but only device buffers are tested enqueued); untouched by the caller until the stream
 * has passed the call.
 *
 * Runs at once instead (blocking the caller until the stream's earlier work is done and the
 * collective complete, as eccl_cuda_comm_set_stream would; same results), and says why under
 * ECCL_DEBUG=2, where enqueuing it could hang, or cannot be done:
 *  - the stream is not a non-blocking stream (cudaStreamCreateWithFlags(..., cudaStreamNonBlocking)):
 *    with the legacy stream (NULL) or a blocking stream held, the caller's own synchronous CUDA
 *    calls (cudaMemcpy, eccl_cuda_memcpy) wait for it while holding a driver lock that the progress
 *    thread's copies need (seen on H100, CUDA 13: a deadlock);
 *  - no progress thread (MPI not MPI_THREAD_MULTIPLE, or ECCL_PROGRESS=caller), or the driver has
 *    no stream memory operations;
 *  - the communicator's one-time device set-up has not happened yet: NCCL is initialised
 *    collectively at the first call that compresses device buffers on every rank (and, on several
 *    nodes, the hierarchical allreduce's inter-node communicator at its first call); with
 *    ECCL_TRANSPORT=mpi there is nothing to settle;
 *  - it is the first stream call of this communicator with these arguments (collective, count,
 *    datatype, operation, root, bound, forced algorithm; the last 32 sets are remembered): running
 *    at once, it reserves the device buffers (NCCL's stream buffers for the largest stream of the
 *    call's elements: twice eccl_compress_bound of them, in device memory), loads the kernels and
 *    connects the NCCL peers. Nothing may allocate or load a kernel while a stream is held (the
 *    same driver lock, against a caller waiting for the stream). A repeated call (SUMMA's panels,
 *    a solver's residual) is enqueued from its second time on.
 * While a call holds a stream, wait for that stream with cudaStreamSynchronize or an event (not
 * with cudaDeviceSynchronize, whose locking was not tested).
 *
 * Ordering: as for every collective of a communicator, the same order on every rank; enqueued,
 * nonblocking and blocking calls of one communicator run in the order they were made. Calls on
 * one communicator come from one thread at a time. A blocking call, or any call that reads or
 * changes the communicator (eccl_comm_last_stats, ...), first waits for the enqueued calls before
 * it, so it returns only once their streams have reached them: do not make such a call while the
 * work before an enqueued call waits for something that only comes after it.
 *
 * Errors: returned at once for a NULL communicator (ECCL_ERR_INVALID_ARG), no CUDA driver
 * (ECCL_ERR_NO_DEVICE), no memory, and, where the call ran at once, its result. Everything else
 * (arguments included: the same checks and errors as the blocking call, so a mismatch or a corrupt
 * stream is seen on every rank) is the enqueued call's result, which eccl_cuda_comm_async_error
 * reports once the stream has passed it; the stream is released whatever the result (its output
 * is then undefined), so nothing hangs. eccl_comm_last_stats afterwards describes the last call
 * completed. Without the CUDA backend: ECCL_ERR_UNSUPPORTED.
 * ------------------------------------------------------------------------------------------- */
eccl_result_t eccl_cuda_bcast_async(void *buf, size_t count, eccl_dtype_t dtype, int root, const eccl_bound_t *bound,
                                    eccl_comm_t comm, cudaStream_t stream);
eccl_result_t eccl_cuda_allreduce_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                        eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm,
                                        cudaStream_t stream);
eccl_result_t eccl_cuda_reduce_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                     eccl_op_t op, int root, const eccl_bound_t *bound, eccl_comm_t comm,
                                     cudaStream_t stream);
eccl_result_t eccl_cuda_reduce_scatter_block_async(const void *sendbuf, void *recvbuf, size_t recvcount,
                                                   eccl_dtype_t dtype, eccl_op_t op, const eccl_bound_t *bound,
                                                   eccl_comm_t comm, cudaStream_t stream);
eccl_result_t eccl_cuda_allgather_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                                        const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream);
eccl_result_t eccl_cuda_scatter_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                                      const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream);
eccl_result_t eccl_cuda_gather_async(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                                     const eccl_bound_t *bound, eccl_comm_t comm, cudaStream_t stream);
eccl_result_t eccl_cuda_sendrecv_replace_async(void *buf, size_t count, eccl_dtype_t dtype, int dest, int sendtag,
                                               int source, int recvtag, const eccl_bound_t *bound, eccl_comm_t comm,
                                               cudaStream_t stream);
/* The first error of comm's stream-enqueued calls not yet reported, in *result (ECCL_SUCCESS: none),
 * and forgets it; eccl_comm_last_error then gives its message. Does not wait: a call whose stream
 * has not passed it yet is not included (synchronise the stream first). Errors:
 * ECCL_ERR_INVALID_ARG (NULL comm or result). */
eccl_result_t eccl_cuda_comm_async_error(eccl_comm_t comm, eccl_result_t *result);

/* ---------------------------------------------------------------------------------------------
 * The GPU codec: the same stream format as eccl_compress (byte for byte), on device memory.
 * All calls are ordered on the given stream and do not synchronise the host unless documented
 * (h_size requests, eccl_cuda_codec_check). A codec owns device scratch: use one per stream at
 * a time. Pointers must be device memory, 16-byte aligned.
 * ------------------------------------------------------------------------------------------- */
typedef struct eccl_cuda_codec *eccl_cuda_codec_t;

/* Create a codec on the current device (scratch for streams of up to max_count elements of an
 * 8-byte type is allocated now; larger ones grow it once, which synchronises). Errors:
 * ECCL_ERR_NO_DEVICE, ECCL_ERR_CUDA, ECCL_ERR_NO_MEMORY, ECCL_ERR_UNSUPPORTED (no CUDA backend). */
eccl_result_t eccl_cuda_codec_create(size_t max_count, eccl_cuda_codec_t *codec);
eccl_result_t eccl_cuda_codec_free(eccl_cuda_codec_t *codec);

/* Compress count elements at d_data into d_out (out_capacity >= eccl_compress_bound(count,
 * dtype)). The stream size goes to *d_size (device memory; NULL: not needed) and, when h_size is
 * not NULL, to *h_size on the host (this synchronises the stream). REL with
 * ECCL_RANGE_FROM_DATA computes the range on the device. Errors: ECCL_ERR_INVALID_ARG,
 * ECCL_ERR_BUFFER_TOO_SMALL, ECCL_ERR_CUDA. */
eccl_result_t eccl_cuda_compress(eccl_cuda_codec_t codec, const void *d_data, size_t count,
                                 eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                 size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                 cudaStream_t stream);

/* Decompress the stream at d_stream (at most stream_capacity bytes readable) into count elements
 * of dtype at d_data. stream_capacity is a capacity, not the stream's size (which may be known only
 * on the device, *d_size of eccl_cuda_compress): the stream's size is its header's stream_size,
 * which must not exceed stream_capacity, and bytes after it are not read. (eccl_decompress, on
 * host memory, takes the exact size instead: there a larger size is ECCL_ERR_CORRUPT.)
 * Validation happens on the device: errors (ECCL_ERR_CORRUPT,
 * ECCL_ERR_MISMATCH, ECCL_ERR_UNSUPPORTED) are reported by eccl_cuda_codec_check, and by this call
 * when `check` is nonzero (which synchronises the stream). */
eccl_result_t eccl_cuda_decompress(eccl_cuda_codec_t codec, const void *d_stream,
                                   size_t stream_capacity, void *d_data, size_t count,
                                   eccl_dtype_t dtype, int check, cudaStream_t stream);

/* The same on an m x n column-major matrix at d_a with leading dimension ld >= max(m, 1)
 * (elements; ScaLAPACK's local panels, where ld is the local array's LLD), read or written in
 * place: no packed copy is made. The stream is byte for byte the one eccl_cuda_compress (and
 * eccl_compress) makes of the packed m*n elements, so any decoder takes it, and
 * eccl_cuda_decompress_2d takes any stream of m*n elements; elements of d_a outside the matrix
 * (rows m..ld-1) are neither read nor written. d_a needs the alignment of one real of dtype (4
 * or 8 bytes), not 16; where ld, m and d_a allow, float32 data is still read with 16-byte loads.
 * Errors: as eccl_cuda_compress / eccl_cuda_decompress, and ECCL_ERR_INVALID_ARG for ld < m or a
 * misaligned d_a. */
eccl_result_t eccl_cuda_compress_2d(eccl_cuda_codec_t codec, const void *d_a, size_t m, size_t n,
                                    size_t ld, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                    void *d_out, size_t out_capacity, unsigned long long *d_size,
                                    size_t *h_size, cudaStream_t stream);
eccl_result_t eccl_cuda_decompress_2d(eccl_cuda_codec_t codec, const void *d_stream,
                                      size_t stream_capacity, void *d_a, size_t m, size_t n,
                                      size_t ld, eccl_dtype_t dtype, int check, cudaStream_t stream);

/* Homomorphic reduction on the GPU: out = stream (op) local, in the compressed domain, as
 * eccl_hom_reduce does (the same bytes: doc/format.md section 11). d_stream (at most
 * stream_capacity bytes readable: a capacity, as for eccl_cuda_decompress) must hold count elements
 * of dtype; d_local is count elements on
 * the device; d_out (out_capacity >= eccl_compress_bound) must not overlap the stream. op: SUM,
 * MAX, MIN (complex: SUM only). One kernel launch; the output size goes to *d_size / *h_size as
 * for eccl_cuda_compress. The input is validated on the device: a corrupt or mismatched stream is
 * reported by eccl_cuda_codec_check (and the output is then meaningless). Errors here:
 * ECCL_ERR_INVALID_ARG, ECCL_ERR_BUFFER_TOO_SMALL, ECCL_ERR_UNSUPPORTED (AVG/PROD, MAX/MIN on
 * complex data), ECCL_ERR_CUDA. All four dtypes (a 32-bit and a 64-bit kernel). */
eccl_result_t eccl_cuda_hom_reduce(eccl_cuda_codec_t codec, const void *d_stream, size_t stream_capacity,
                                   const void *d_local, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                                   void *d_out, size_t out_capacity, unsigned long long *d_size,
                                   size_t *h_size, cudaStream_t stream);

/* eccl_cuda_hom_reduce with the local array an m x n column-major matrix at d_a with leading
 * dimension ld (as eccl_cuda_compress_2d: read in place, the bytes of eccl_hom_reduce on the packed
 * m*n elements; d_a aligned to one real). */
eccl_result_t eccl_cuda_hom_reduce_2d(eccl_cuda_codec_t codec, const void *d_stream,
                                      size_t stream_capacity, const void *d_a, size_t m, size_t n,
                                      size_t ld, eccl_dtype_t dtype, eccl_op_t op, void *d_out,
                                      size_t out_capacity, unsigned long long *d_size,
                                      size_t *h_size, cudaStream_t stream);

/* Synchronise the stream and return (and clear) the first error the device detected since the
 * last check. */
eccl_result_t eccl_cuda_codec_check(eccl_cuda_codec_t codec, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
