/* cuda/device.h - what the C core may call in cuda/ (C linkage, no CUDA types). */
#ifndef ECCL_CUDA_DEVICE_H
#define ECCL_CUDA_DEVICE_H
#include "eccl_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Page-locked host memory for staging device buffers (src/coll/dispatch.c): *ptr = NULL and
 * ECCL_ERR_NO_MEMORY when it cannot be had; eccl_cuda_host_free accepts NULL. */
eccl_result_t eccl_cuda_host_alloc(void **ptr, size_t bytes);
void eccl_cuda_host_free(void *ptr);
/* Wait until every operation enqueued on a CUDA stream (a cudaStream_t) is done. */
eccl_result_t eccl_cuda_stream_wait(void *stream);
/* Destroy a stream of eccl_dev_stream_create (NULL accepted; pending work completes first). */
void eccl_cuda_stream_destroy(void *stream);
/* 2-D copy between any host/device memory (cudaMemcpy2D): `height` rows of `width` bytes, rows
 * `spitch` bytes apart at src and `dpitch` at dst; complete on return. On the legacy default
 * stream (ordered after the caller's default-stream work). */
eccl_result_t eccl_cuda_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                 size_t height);
/* The same on `stream` (a cudaStream_t of eccl's, e.g. of eccl_dev_stream_create: a high-priority
 * one is not queued behind the caller's kernels on the legacy stream's low priority), waited for
 * there; complete on return. NULL: eccl_cuda_memcpy2d. */
eccl_result_t eccl_cuda_memcpy2d_on(void *stream, void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height);
/* The same as an allocator for a pool (src/core/pool.h): NULL when none can be had. */
void *eccl_cuda_host_alloc_ptr(size_t bytes);

/* ---- the gate (cuda/device.cu) ---------------------------------------------------------------
 * While a stream-enqueued collective holds a user's stream (eccl_dev_hold_post until
 * eccl_dev_hold_release), nothing in eccl may synchronise the whole device: a cudaFree,
 * cudaFreeHost or cudaDeviceSynchronize would wait for the held stream, which only the progress
 * thread running that collective (or one waiting on a peer that waits on it) releases. Every such
 * call in eccl goes through the gate: it runs at once when no stream is held, under the gate's
 * mutex (so no hold can begin meanwhile), else frees are deferred until the last hold ends and a
 * device synchronisation becomes one of the given stream. The gate is the process's only global
 * mutable state in cuda/ (a count and a list under a mutex; thread-safe). */
/* Free device memory (host = 0, cudaFree) or page-locked host memory (host = 1, cudaFreeHost) now,
 * or when no stream is held any more. NULL accepted. */
void eccl_gate_free(void *ptr, int host);
/* cudaDeviceSynchronize when no stream is held, else cudaStreamSynchronize(stream) (a
 * cudaStream_t; NULL: the legacy stream is not waited for then, nothing is). Errors: ECCL_ERR_CUDA. */
eccl_result_t eccl_gate_sync(void *stream);

/* ---- holds: stream-enqueued collectives (src/coll/engine.c) ------------------------------------
 * A hold makes a user's stream wait (cuStreamWaitValue32 on a word of page-locked host memory)
 * until the host releases it: eccl_dev_hold_post, in the caller's thread, records an event on the
 * stream (the collective's input is complete when it fires) and enqueues the wait for sequence
 * number seq; the progress thread waits for the event (eccl_dev_hold_input), runs the collective,
 * and releases seq (eccl_dev_hold_release: every wait for a number up to seq, compared cyclically,
 * passes). One hold object per communicator; its sequence numbers increase by one per post and
 * are released in order. */
typedef struct eccl_dev_hold eccl_dev_hold_t;
/* Errors: ECCL_ERR_UNSUPPORTED (the driver has no stream memory operations, or cannot map host
 * memory), ECCL_ERR_NO_MEMORY. */
eccl_result_t eccl_dev_hold_create(eccl_dev_hold_t **hold);
void eccl_dev_hold_free(eccl_dev_hold_t *hold); /* NULL accepted; no hold may be pending */
/* *ev: the input event, owned by the hold until eccl_dev_hold_release. Errors: ECCL_ERR_CUDA (the
 * event could not be recorded on the stream), ECCL_ERR_UNSUPPORTED (the wait was refused); nothing
 * is enqueued then. */
eccl_result_t eccl_dev_hold_post(eccl_dev_hold_t *hold, void *stream, unsigned seq, void **ev);
/* 1 when stream (a cudaStream_t) was created with cudaStreamNonBlocking, else 0 (the legacy stream
 * NULL, cudaStreamPerThread, a blocking stream, an invalid one): only such a stream is held. */
int eccl_dev_stream_nonblocking(void *stream);
/* Wait on the host until the work the stream had before the hold is done. Errors: ECCL_ERR_CUDA. */
eccl_result_t eccl_dev_hold_input(void *ev);
/* Release seq (and every earlier number) and free ev. */
void eccl_dev_hold_release(eccl_dev_hold_t *hold, unsigned seq, void *ev);

/* ---- device-resident collectives (cuda/resident.cu) -----------------------------------------
 * A communicator's GPU resources: the GPU codec, a stream, and grow-only device buffers for the
 * streams going in and out (allocated at the first device-resident call, grown when a larger call
 * comes; never freed before eccl_comm_free). Every function below works on the context's stream
 * and returns only when its results are complete on the device and on the host (the collectives
 * are blocking), so the compressed bytes they hand back can be sent at once. Host buffers (h_*) are
 * any host memory; device pointers (d_*) are device memory of the context's device, any alignment
 * (misaligned pieces go through an aligned scratch copy on the device). Not thread-safe: one
 * context belongs to one communicator, used by one thread at a time. */
typedef struct eccl_dev_ctx eccl_dev_ctx_t;

/* A context on the current device; its stream at the device's greatest priority when `high`
 * (the codec's kernels then take the GPU's free SMs ahead of the user's compute kernels of
 * default priority: a panel is compressed while a DGEMM runs), else the default priority.
 * Errors: ECCL_ERR_NO_DEVICE, ECCL_ERR_NO_MEMORY, ECCL_ERR_CUDA, ECCL_ERR_UNSUPPORTED (no CUDA
 * backend). */
eccl_result_t eccl_dev_ctx_create(eccl_dev_ctx_t **ctx, int high);

/* The stream format version (doc/format.md: 1, 2 or 3) the context's compressions write
 * (eccl_dev_compress, eccl_dev_compress_keep, eccl_dev_sample); 1 from creation. Version 3 also
 * makes its decoders and homomorphic kernels read sparse tiles (eccl_cuda_codec_set_read_version).
 * Errors: ECCL_ERR_INVALID_ARG (ctx NULL, another version), ECCL_ERR_UNSUPPORTED (no CUDA
 * backend). */
eccl_result_t eccl_dev_ctx_set_format(eccl_dev_ctx_t *ctx, int vmajor);
/* A non-blocking stream of the current device in *stream (a cudaStream_t), at the device's
 * greatest priority when `high`, else the default one. Errors: ECCL_ERR_CUDA, ECCL_ERR_UNSUPPORTED
 * (no CUDA backend). */
eccl_result_t eccl_dev_stream_create(void **stream, int high);
void eccl_dev_ctx_free(eccl_dev_ctx_t *ctx); /* NULL accepted */
/* While fn is set (NULL: unset), every wait of the context for the GPU (the operations below, and
 * the codec's reads of sizes and verdicts) polls the GPU and calls fn(arg) in between instead of
 * blocking in the CUDA runtime: the communicator's MPI messages in flight progress while the GPU
 * works (src/coll/dispatch.c sets MPI progress). fn must not call the context. */
void eccl_dev_ctx_set_progress(eccl_dev_ctx_t *ctx, void (*fn)(void *), void *arg);
/* The same for one codec (cuda/codec.cu), and the wait itself: everything enqueued on `stream` (a
 * cudaStream_t) so far is done on return. Errors: ECCL_ERR_INVALID_ARG, ECCL_ERR_CUDA. Used inside
 * cuda/ only (CUDA builds; nocuda.c has no stand-ins). */
eccl_result_t eccl_cuda_codec_set_waiter(eccl_cuda_codec_t codec, void (*fn)(void *), void *arg);
eccl_result_t eccl_cuda_codec_wait(eccl_cuda_codec_t codec, void *stream);
/* The stream that the codec's last compression or homomorphic reduction on `stream` wrote at d_out
 * (device memory; its size in the codec's own size word: d_size NULL there), to h_out (host memory,
 * h_cap bytes, any of which may be written), with one host wait where the stream is at most `spec`
 * bytes: the size word, the device's error word and the stream's first spec bytes are copied
 * together, then the rest, if any, after a second wait. verdict: the error word is the input
 * stream's verdict (a homomorphic reduction): a non-zero one is returned (and cleared) before the
 * size is looked at, as eccl_cuda_codec_check. *h_size: the stream's size. Errors:
 * ECCL_ERR_INVALID_ARG, ECCL_ERR_CUDA, ECCL_ERR_INTERNAL (a size above h_cap), the verdict's. */
eccl_result_t eccl_cuda_codec_fetch(eccl_cuda_codec_t codec, const void *d_out, void *h_out, size_t h_cap, size_t spec,
                                    int verdict, size_t *h_size, void *stream);
/* eccl_cuda_compress writing format version vmajor (1, 2 or 3, doc/format.md, every dtype; the
 * collectives write what ECCL_FORMAT says, through eccl_dev_ctx_set_format: cuda/codec.cu, CUDA
 * builds only, used by the tests and benchmarks). Errors as eccl_cuda_compress;
 * ECCL_ERR_INVALID_ARG for another vmajor. */
eccl_result_t eccl_cuda_compress_fmt(eccl_cuda_codec_t codec, const void *d_data, size_t count, eccl_dtype_t dtype,
                                     const eccl_bound_t *bound, void *d_out, size_t out_capacity,
                                     unsigned long long *d_size, size_t *h_size, void *stream, int vmajor);
/* The newest format version codec's decoders (eccl_cuda_decompress*, eccl_cuda_hom_reduce*) read:
 * 2 by default (a version-3 stream is refused with ECCL_ERR_UNSUPPORTED), or 3, which launches the
 * kernels' instances that read sparse tiles (every dtype; the homomorphic reduction float32 and
 * complex64 only). Those instances decode versions 1 and 2 too, 6-17% slower (their registers;
 * doc/performance.md section 38), hence not the default: the collectives, which write version 3
 * only on the CPU, keep it. cuda/codec.cu, CUDA builds only. Errors: ECCL_ERR_INVALID_ARG (no
 * codec, vmax not 1-3; 1 reads as 2). */
eccl_result_t eccl_cuda_codec_set_read_version(eccl_cuda_codec_t codec, int vmax);
/* Grow the codec's scratch for streams of count elements of dtype now (cuda/codec.cu; CUDA builds
 * only); `stream` (a cudaStream_t) is the one the codec was last used on. Errors:
 * ECCL_ERR_INVALID_ARG, ECCL_ERR_CUDA (cudaMalloc failed). */
eccl_result_t eccl_cuda_codec_reserve(eccl_cuda_codec_t codec, size_t count, eccl_dtype_t dtype, void *stream);
/* Allocate, before a device-resident call moves any data, every device buffer its operations on
 * at most `count` elements of dtype can grow (the codec's scratch, the stream buffers, the
 * alignment copy), so that no operation of the call allocates: a rank whose GPU is out of memory
 * learns it here, alone, and stages its buffers through host memory instead (src/coll/dispatch.c)
 * rather than fail in the middle of a collective while its peers wait. Grow-only. Errors:
 * ECCL_ERR_INVALID_ARG, ECCL_ERR_NO_MEMORY, ECCL_ERR_CUDA, ECCL_ERR_UNSUPPORTED (no CUDA backend). */
eccl_result_t eccl_dev_reserve(eccl_dev_ctx_t *ctx, size_t count, eccl_dtype_t dtype);
/* 1 when the calling thread's current device is the context's (its kernels can run now). */
int eccl_dev_ctx_current(const eccl_dev_ctx_t *ctx);
/* The calling thread's current CUDA device (-1: none, or no CUDA backend), and making `device`
 * current in the calling thread (nothing for -1; ECCL_ERR_CUDA on failure): the nonblocking
 * collectives run on a progress thread with the device of the thread that posted them. Call
 * eccl_dev_current only where the process has the CUDA driver loaded (eccl_cuda_driver_loaded):
 * it initialises the runtime. */
int eccl_dev_current(void);
eccl_result_t eccl_dev_make_current(int device);

/* Where device data lies for the operations below: d_base itself when lay is NULL (a plain
 * array), else the elements of a column-major matrix at d_base with m rows per column, ld >= m
 * elements apart, taken in column order from element `first` on (strided ScaLAPACK panels,
 * src/prims/prims.c); a matrix base must be aligned to one real of the dtype (4 or 8 bytes). The
 * streams are those of the packed elements. A bad layout gives ECCL_ERR_INVALID_ARG. */
typedef struct eccl_dev_layout {
    size_t m, ld, first;
} eccl_dev_layout_t;

/* Compress count elements at (d_base, lay) (bound as for eccl_compress) and copy the stream to
 * h_out (h_cap >= eccl_compress_bound); its size to *h_size. The bytes of h_out past the stream,
 * up to eccl_compress_bound, may be overwritten (the copy starts before the size is known). */
eccl_result_t eccl_dev_compress(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                eccl_dtype_t dtype, const eccl_bound_t *bound, void *h_out, size_t h_cap,
                                size_t *h_size);
/* Decompress the size-byte stream at h_stream into count elements at (d_base, lay). The stream is
 * validated: ECCL_ERR_CORRUPT / ECCL_ERR_MISMATCH / ECCL_ERR_UNSUPPORTED as eccl_decompress (the
 * elements are then undefined; size must be the stream's exact size, as there), ECCL_ERR_CUDA for
 * the runtime. */
eccl_result_t eccl_dev_decompress(eccl_dev_ctx_t *ctx, const void *h_stream, size_t size, void *d_base,
                                  const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype);
/* Device-resident streams (for transports that move device memory: NCCL, src/prims/net.c). The
 * stream of count elements at (d_base, lay), as eccl_dev_compress makes it, left in the context's
 * output buffer: *d_stream points at it (valid until the context's next operation), *size is its
 * size (at most eccl_compress_bound); complete on the device on return. */
eccl_result_t eccl_dev_compress_keep(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay,
                                     size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                     const void **d_stream, size_t *size);
/* The context's input buffer, grown to hold a stream of cap bytes (grow-only; eccl_dev_reserve
 * has grown it for the call's largest stream), in *d_buf: where a peer's stream is received to be
 * decompressed by eccl_dev_decompress_dev (valid until the context's next operation). */
eccl_result_t eccl_dev_stream_buf(eccl_dev_ctx_t *ctx, size_t cap, void **d_buf);
/* eccl_dev_decompress of a stream already in the context's input buffer (d_stream: what
 * eccl_dev_stream_buf gave, size at most the cap asked there, the stream complete on the device):
 * no copy from the host. The same validation and errors; ECCL_ERR_INVALID_ARG for another buffer. */
eccl_result_t eccl_dev_decompress_dev(eccl_dev_ctx_t *ctx, const void *d_stream, size_t size, void *d_base,
                                      const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype);
/* h_out = stream of op(decompress(h_stream), the count elements at (d_base, lay)), the bytes
 * eccl_hom_reduce makes (the bytes past it, up to eccl_compress_bound, may be overwritten). The input stream (exactly size bytes) is validated on the device:
 * ECCL_ERR_CORRUPT / ECCL_ERR_MISMATCH / ECCL_ERR_UNSUPPORTED as eccl_hom_reduce. */
eccl_result_t eccl_dev_hom_reduce(eccl_dev_ctx_t *ctx, const void *h_stream, size_t size, const void *d_base,
                                  const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                                  void *h_out, size_t h_cap, size_t *h_size);
/* Finite minimum and maximum of count elements at (d_base, lay), as eccl_data_range computes them,
 * except with no finite value (or count 0): *lo = +inf, *hi = -inf (as eccl_data_range_n), so
 * that the global range of a collective ignores this rank. */
eccl_result_t eccl_dev_range(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay, size_t count,
                             eccl_dtype_t dtype, double *lo, double *hi);
/* The compressed size of sample windows of the count elements at (d_base, lay): nwin (1 ..
 * ECCL_DEV_SAMPLE_MAX) windows of win elements each, window k starting at element starts[k]
 * (starts[k] + win <= count), each compressed on the GPU as a stream of its own with `bound` (the
 * bytes eccl_compress makes of the same window). *total: the sum of the nwin stream sizes. One
 * host wait for all of them; no allocation after eccl_dev_reserve. A plain array's base must be
 * aligned to one real of the dtype (else ECCL_ERR_INVALID_ARG: the caller samples another way). */
#define ECCL_DEV_SAMPLE_MAX 4
#define ECCL_DEV_SAMPLE_WIN_REALS 8192 /* window length (reals) eccl_dev_reserve leaves room for */
eccl_result_t eccl_dev_sample(eccl_dev_ctx_t *ctx, const void *d_base, const eccl_dev_layout_t *lay, size_t count,
                              eccl_dtype_t dtype, const eccl_bound_t *bound, const size_t *starts, int nwin,
                              size_t win, size_t *total);
/* Copy bytes between any host and device memory, on the context's stream; complete on return. */
eccl_result_t eccl_dev_copy(eccl_dev_ctx_t *ctx, void *dst, const void *src, size_t bytes);
/* Copy count elements at (d_base, lay) to contiguous memory at dst (host or device), packed;
 * complete on return. */
eccl_result_t eccl_dev_copy_from(eccl_dev_ctx_t *ctx, void *dst, const void *d_base, const eccl_dev_layout_t *lay,
                                 size_t count, size_t esize);
/* Divide the count elements at (d_base, lay) by p >= 1 in their element type, rounded to nearest
 * (each real of a complex element: the CPU's x / p, bit for bit): the AVG of a reduction. */
eccl_result_t eccl_dev_divide(eccl_dev_ctx_t *ctx, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                              eccl_dtype_t dtype, int p);
/* Set the count elements at (d_base, lay) to NaN (every byte 0xFF: after a failed decompression). */
eccl_result_t eccl_dev_fill_nan(eccl_dev_ctx_t *ctx, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                eccl_dtype_t dtype);
/* ---- node windows: device memory the ranks of a node share through CUDA IPC -------------------
 * (src/transport/node.c: the hierarchical allreduce's steps inside a node on device buffers).
 * A window is device memory of the context's device that other processes map with its handle
 * (ECCL_DEV_IPC_HANDLE opaque bytes, the same on every process of a node). */
#define ECCL_DEV_IPC_HANDLE 64
/* Allocate a window of `bytes` bytes (> 0) at *d_win and write its handle. Errors:
 * ECCL_ERR_NO_MEMORY, ECCL_ERR_UNSUPPORTED (no IPC on this device), ECCL_ERR_INVALID_ARG. */
eccl_result_t eccl_dev_win_alloc(eccl_dev_ctx_t *ctx, size_t bytes, void **d_win, void *handle);
/* Free a window of this process (after the context's stream is idle); NULL accepted. */
void eccl_dev_win_free(eccl_dev_ctx_t *ctx, void *d_win);
/* Map another process's window (its handle) at *d_peer, peer access enabled where it lies on
 * another device. Errors: ECCL_ERR_UNSUPPORTED (the runtime refuses: no peer access between the
 * devices, or a handle of this process), ECCL_ERR_INVALID_ARG. */
eccl_result_t eccl_dev_win_open(eccl_dev_ctx_t *ctx, const void *handle, void **d_peer);
/* Unmap a window mapped by eccl_dev_win_open; NULL accepted. */
void eccl_dev_win_close(eccl_dev_ctx_t *ctx, void *d_peer);
/* d_out[i] = d_in[0][i] op d_in[1][i] op ... op d_in[n-1][i] for count elements of dtype, in that
 * order (op: SUM, MAX, MIN with eccl's NaN and signed-zero rules; complex as pairs of reals),
 * 1 <= n <= 32; the inputs are device memory of this process or mapped windows; d_out may be one of
 * them. Complete on return. Errors: ECCL_ERR_INVALID_ARG, ECCL_ERR_UNSUPPORTED (op), ECCL_ERR_CUDA. */
eccl_result_t eccl_dev_reduce_n(eccl_dev_ctx_t *ctx, void *d_out, const void *const *d_in, int n, size_t count,
                                eccl_dtype_t dtype, eccl_op_t op);
/* Measure the GPU codec for the cost model: out[0] the seconds of one compression of a tiny array
 * (1024 float32 values: launch, synchronisation, stream copy), out[11] and out[12] the same for
 * a decompression and a homomorphic SUM of that stream; out[1..3] compression, decompression and
 * homomorphic SUM throughput beyond the same operation's tiny call, in bytes of uncompressed data
 * per second, stream copies over PCIe included (a 16 MiB smooth float32 field at ABS 1e-4, best of
 * three), out[4..6] the same for a 16 MiB float64 field (the 64-bit kernels, beyond their own
 * tiny calls); out[7..10] compression and decompression throughput
 * with the stream kept in device memory (eccl_dev_compress_keep, eccl_dev_decompress_dev: the
 * device-stream paths), float32 then float64, the slower of two estimates: 32 MiB beyond a tiny
 * call, and the time per byte between 32 and 96 MiB calls (where 2 x 96 MiB of device memory
 * cannot be had: the first alone). Allocates and
 * frees its own 192 MiB of device memory (64 MiB in that case) and page-locked stream buffers;
 * the context's buffers that it grows past what a 32 MiB call needs are freed again. A few
 * milliseconds;
 * called once per communicator (src/transport/nccl.c). The 13 figures are core/model.h's
 * ECCL_GPU_CAL_N. */
eccl_result_t eccl_dev_calibrate(eccl_dev_ctx_t *ctx, double out[13]);
#ifdef __cplusplus
}
#endif
#endif
