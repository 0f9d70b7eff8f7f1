// cuda/resident.cu - the GPU side of device-resident collectives (cuda/device.h): a
// communicator's codec, stream and device buffers, and the operations the primitives call when a
// rank's buffers are device memory. Only compressed streams cross PCIe: data is compressed,
// decompressed and homomorphically reduced where it lives.
#include "config.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda/device.h"
#include "core/dtype.h"
#include "cuda/kernels.h"

struct eccl_dev_ctx {
    int device;
    cudaStream_t st;
    eccl_cuda_codec_t codec;
    void *d_in, *d_out, *d_tmp; // stream in, stream out, aligned copies of misaligned data
    size_t in_cap, out_cap, tmp_cap;
    int vmajor; // the stream format version its compressions write (eccl_dev_ctx_set_format)
    double ratio; // the last stream copied to the host: input bytes per stream byte (0: none yet)
};

// ECCL_DEV_FETCH=0 (a build knob, for A/B measurements: bench/bench_dev_ops): a stream to the host
// reads its size, waits, then copies the stream and waits again (and the homomorphic reduction
// reads its verdict with a wait of its own), as before the one-wait fetch (eccl_cuda_codec_fetch).
#ifndef ECCL_DEV_FETCH
#define ECCL_DEV_FETCH 1
#endif

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            (void)cudaGetLastError();                                                              \
            return e_ == cudaErrorMemoryAllocation ? ECCL_ERR_NO_MEMORY : ECCL_ERR_CUDA;           \
        }                                                                                          \
    } while (0)

static int misaligned(const void *p) { return ((uintptr_t)p & 15u) != 0; }

// Grow a device buffer to at least `bytes` (by half again, so a slowly growing size does not
// reallocate every call). Growing waits for the context's stream: the old buffer may be in use;
// it is freed through the gate (cuda/device.h: not while a user's stream is held).
static eccl_result_t grow(eccl_dev_ctx_t *c, void **buf, size_t *cap, size_t bytes)
{
    if (*buf && *cap >= bytes) return ECCL_SUCCESS;
    size_t want = *cap + *cap / 2;
    if (want < bytes) want = bytes;
    if (want < 4096) want = 4096;
    CK(cudaStreamSynchronize(c->st));
    eccl_gate_free(*buf, 0);
    *buf = NULL;
    *cap = 0;
    CK(cudaMalloc(buf, want));
    *cap = want;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_dev_stream_create(void **stream, int high)
{
    if (!stream) return ECCL_ERR_INVALID_ARG;
    *stream = NULL;
    int least = 0, greatest = 0;
    if (high && cudaDeviceGetStreamPriorityRange(&least, &greatest) != cudaSuccess) {
        (void)cudaGetLastError();
        return ECCL_ERR_CUDA;
    }
    cudaStream_t st = NULL;
    if (cudaStreamCreateWithPriority(&st, cudaStreamNonBlocking, high ? greatest : 0) != cudaSuccess) {
        (void)cudaGetLastError();
        return ECCL_ERR_CUDA;
    }
    *stream = st;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_dev_ctx_create(eccl_dev_ctx_t **out, int high)
{
    if (!out) return ECCL_ERR_INVALID_ARG;
    *out = NULL;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        return ECCL_ERR_NO_DEVICE;
    }
    eccl_dev_ctx_t *c = (eccl_dev_ctx_t *)calloc(1, sizeof *c);
    if (!c) return ECCL_ERR_NO_MEMORY;
    eccl_result_t rc = ECCL_SUCCESS;
    void *st = NULL;
    if (cudaGetDevice(&c->device) != cudaSuccess) {
        (void)cudaGetLastError();
        rc = ECCL_ERR_CUDA;
    }
    if (!rc) rc = eccl_dev_stream_create(&st, high);
    c->st = (cudaStream_t)st;
    if (!rc) rc = eccl_cuda_codec_create((size_t)1 << 20, &c->codec);
    c->vmajor = ECCL_FORMAT_VERSION_MAJOR;
    if (rc) {
        eccl_dev_ctx_free(c);
        return rc;
    }
    *out = c;
    return ECCL_SUCCESS;
}

extern "C" void eccl_dev_ctx_free(eccl_dev_ctx_t *c)
{
    if (!c) return;
    int cur = -1;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != c->device) cudaSetDevice(c->device);
    if (c->st) cudaStreamSynchronize(c->st);
    eccl_cuda_codec_free(&c->codec);
    eccl_gate_free(c->d_in, 0);
    eccl_gate_free(c->d_out, 0);
    eccl_gate_free(c->d_tmp, 0);
    if (c->st) cudaStreamDestroy(c->st);
    if (cur >= 0 && cur != c->device) cudaSetDevice(cur);
    (void)cudaGetLastError();
    free(c);
}

extern "C" void eccl_dev_ctx_set_progress(eccl_dev_ctx_t *c, void (*fn)(void *), void *arg)
{
    if (c) eccl_cuda_codec_set_waiter(c->codec, fn, arg);
}

extern "C" int eccl_dev_current(void)
{
    int cur = -1;
    if (cudaGetDevice(&cur) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return cur;
}

extern "C" eccl_result_t eccl_dev_make_current(int device)
{
    if (device < 0) return ECCL_SUCCESS;
    if (cudaSetDevice(device) != cudaSuccess) {
        (void)cudaGetLastError();
        return ECCL_ERR_CUDA;
    }
    return ECCL_SUCCESS;
}

extern "C" int eccl_dev_ctx_current(const eccl_dev_ctx_t *c)
{
    int cur = -1;
    if (!c || cudaGetDevice(&cur) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return cur == c->device;
}

// d_data itself when 16-byte aligned, else an aligned device copy of its `bytes`.
static eccl_result_t aligned_input(eccl_dev_ctx_t *c, const void *d_data, size_t bytes, const void **use)
{
    *use = d_data;
    if (!misaligned(d_data) || bytes == 0) return ECCL_SUCCESS;
    eccl_result_t rc = grow(c, &c->d_tmp, &c->tmp_cap, bytes);
    if (rc) return rc;
    CK(cudaMemcpyAsync(c->d_tmp, d_data, bytes, cudaMemcpyDeviceToDevice, c->st));
    *use = c->d_tmp;
    return ECCL_SUCCESS;
}

static size_t esize_of(eccl_dtype_t dt) { return eccl_dtype_size(dt); }
static int is64_of(eccl_dtype_t dt) { const eccl_dtype_traits_t *t = eccl_dtype_traits(dt); return t && t->is64; }
static uint64_t reals_of(eccl_dtype_t dt) { const eccl_dtype_traits_t *t = eccl_dtype_traits(dt); return t ? t->reals : 0; }

// The kernels' view of a layout (NULL: none); 0 when the layout is unusable.
static int view_of(const eccl_dev_layout_t *lay, const void *base, eccl_dtype_t dtype, eccl_view *v)
{
    *v = eccl_view{0, 0, 0};
    if (!lay) return 1;
    if (lay->m == 0 || lay->ld < lay->m || ((uintptr_t)base % (is64_of(dtype) ? 8 : 4))) return 0;
    const uint64_t k = reals_of(dtype);
    *v = eccl_view{(uint64_t)lay->m * k, (uint64_t)lay->ld * k, (uint64_t)lay->first * k};
    return 1;
}

// The stream of count elements at (d_base, lay) into d_out (enqueued; its size in *size after a
// wait, or, size NULL, left in the codec's size word for eccl_cuda_codec_fetch).
static eccl_result_t compress_out(eccl_dev_ctx_t *c, const void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                  eccl_dtype_t dtype, const eccl_bound_t *bound, size_t *size)
{
    size_t cap = eccl_compress_bound(count, dtype);
    eccl_view v;
    if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    const void *src = d_base;
    eccl_result_t rc = v.rows ? ECCL_SUCCESS : aligned_input(c, d_base, count * esize_of(dtype), &src);
    if (!rc) rc = grow(c, &c->d_out, &c->out_cap, cap);
    if (!rc) rc = eccl_cuda_compress_view(c->codec, count ? src : c->d_out, v, count, dtype, bound, c->d_out,
                                          c->out_cap, NULL, size, c->st, c->vmajor);
    if (!rc && size && *size > cap) rc = ECCL_ERR_INTERNAL;
    return rc;
}

#if ECCL_DEV_FETCH
// How many bytes of a stream of `bytes` input bytes to copy to the host before its size is known
// (eccl_cuda_codec_fetch): the last stream's ratio with an eighth to spare, at least 16 KiB (a
// small stream then needs one host wait, and the copy of up to 16 KiB too many costs less than a
// wait), at most the stream's bound `cap`. A stream longer than that takes a second wait for the
// rest; the bytes are the same either way.
static size_t spec_bytes(const eccl_dev_ctx_t *c, size_t bytes, size_t cap)
{
    double guess = c->ratio > 0 ? (double)bytes / c->ratio * 1.125 : 0.0;
    size_t spec = guess < (double)cap ? (size_t)guess : cap;
    if (spec < ((size_t)16 << 10)) spec = (size_t)16 << 10;
    return spec < cap ? spec : cap;
}

// The stream left by the context's last compression or homomorphic reduction of `bytes` input
// bytes, to h_out (verdict: the reduction's input stream is checked first).
static eccl_result_t fetch(eccl_dev_ctx_t *c, size_t bytes, size_t cap, void *h_out, size_t h_cap, int verdict,
                           size_t *h_size)
{
    eccl_result_t rc = eccl_cuda_codec_fetch(c->codec, c->d_out, h_out, h_cap, spec_bytes(c, bytes, cap), verdict,
                                             h_size, c->st);
    if (rc) return rc;
    if (*h_size > cap) return ECCL_ERR_INTERNAL;
    if (*h_size && bytes) c->ratio = (double)bytes / (double)*h_size;
    return ECCL_SUCCESS;
}
#endif

extern "C" eccl_result_t eccl_dev_ctx_set_format(eccl_dev_ctx_t *c, int vmajor)
{
    if (!c || vmajor < 1 || vmajor > 3) return ECCL_ERR_INVALID_ARG;
    // version 3: the decoders and homomorphic kernels that read sparse tiles (peers' streams are of
    // the same version); versions 1 and 2 keep the instances without them (faster)
    eccl_result_t rc = eccl_cuda_codec_set_read_version(c->codec, vmajor == 3 ? 3 : 2);
    if (!rc) c->vmajor = vmajor;
    return rc;
}

extern "C" eccl_result_t eccl_dev_compress(eccl_dev_ctx_t *c, const void *d_base, const eccl_dev_layout_t *lay,
                                           size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                           void *h_out, size_t h_cap, size_t *h_size)
{
    size_t cap = eccl_compress_bound(count, dtype);
    if (!c || !h_out || !h_size || cap == 0) return ECCL_ERR_INVALID_ARG;
    if (h_cap < cap) return ECCL_ERR_BUFFER_TOO_SMALL;
#if ECCL_DEV_FETCH
    eccl_result_t rc = compress_out(c, d_base, lay, count, dtype, bound, NULL);
    return rc ? rc : fetch(c, count * esize_of(dtype), cap, h_out, h_cap, 0, h_size);
#else
    eccl_result_t rc = compress_out(c, d_base, lay, count, dtype, bound, h_size);
    if (rc) return rc;
    CK(cudaMemcpyAsync(h_out, c->d_out, *h_size, cudaMemcpyDeviceToHost, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
#endif
}

extern "C" eccl_result_t eccl_dev_compress_keep(eccl_dev_ctx_t *c, const void *d_base, const eccl_dev_layout_t *lay,
                                                size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                                const void **d_stream, size_t *size)
{
    if (!c || !d_stream || !size || eccl_compress_bound(count, dtype) == 0) return ECCL_ERR_INVALID_ARG;
    *d_stream = NULL;
    eccl_result_t rc = compress_out(c, d_base, lay, count, dtype, bound, size); /* (waited for its size) */
#if !ECCL_DEV_FETCH
    if (!rc) rc = eccl_cuda_codec_wait(c->codec, c->st);
#endif
    if (!rc) *d_stream = c->d_out;
    return rc;
}

extern "C" eccl_result_t eccl_dev_stream_buf(eccl_dev_ctx_t *c, size_t cap, void **d_buf)
{
    if (!c || !d_buf) return ECCL_ERR_INVALID_ARG;
    *d_buf = NULL;
    eccl_result_t rc = grow(c, &c->d_in, &c->in_cap, cap + 64);
    if (!rc) *d_buf = c->d_in;
    return rc;
}

// The stream into the context's input buffer (capacity rounded so that the kernels' 16-byte reads
// stay inside the allocation; they never read past `size`, which is what they are told).
static eccl_result_t stream_in(eccl_dev_ctx_t *c, const void *h_stream, size_t size)
{
    eccl_result_t rc = grow(c, &c->d_in, &c->in_cap, size + 64);
    if (rc) return rc;
    if (size) CK(cudaMemcpyAsync(c->d_in, h_stream, size, cudaMemcpyHostToDevice, c->st));
    return ECCL_SUCCESS;
}

// Decompress the size-byte stream at d_stream (device memory, 16-byte aligned, readable 64 bytes
// past its end: d_in) into (d_base, lay).
static eccl_result_t decompress_from(eccl_dev_ctx_t *c, const void *d_stream, size_t size, void *d_base,
                                     const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype)
{
    size_t bytes = count * esize_of(dtype);
    eccl_view v;
    if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc;
    void *dst = d_base;
    if (!v.rows && (misaligned(d_base) || (!d_base && count == 0))) {
        if ((rc = grow(c, &c->d_tmp, &c->tmp_cap, bytes))) return rc;
        dst = c->d_tmp;
    }
    rc = eccl_cuda_decompress_view(c->codec, d_stream, size, 1, dst, v, count, dtype, 1, c->st); /* (waited) */
    if (rc) return rc;
    if (ECCL_DEV_FETCH && (dst == d_base || !bytes)) return ECCL_SUCCESS;
    if (dst != d_base && bytes) CK(cudaMemcpyAsync(d_base, dst, bytes, cudaMemcpyDeviceToDevice, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}

extern "C" eccl_result_t eccl_dev_decompress(eccl_dev_ctx_t *c, const void *h_stream, size_t size, void *d_base,
                                             const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype)
{
    if (!c || (!h_stream && size) || eccl_compress_bound(count, dtype) == 0) return ECCL_ERR_INVALID_ARG;
    eccl_result_t rc = stream_in(c, h_stream, size);
    return rc ? rc : decompress_from(c, c->d_in, size, d_base, lay, count, dtype);
}

extern "C" eccl_result_t eccl_dev_decompress_dev(eccl_dev_ctx_t *c, const void *d_stream, size_t size, void *d_base,
                                                 const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype)
{
    if (!c || !d_stream || d_stream != c->d_in || size + 64 > c->in_cap || eccl_compress_bound(count, dtype) == 0)
        return ECCL_ERR_INVALID_ARG;
    return decompress_from(c, d_stream, size, d_base, lay, count, dtype);
}

// The (dtype, op) pairs the homomorphic kernels take: those eccl_hom_reduce takes.
static int hom_supported(eccl_dtype_t dtype, eccl_op_t op)
{
    if (op == ECCL_OP_SUM)
        return eccl_dtype_traits(dtype) != NULL;
    if (op == ECCL_OP_MAX || op == ECCL_OP_MIN) return eccl_dtype_traits(dtype) && !eccl_dtype_is_complex(dtype);
    return 0;
}

extern "C" eccl_result_t eccl_dev_hom_reduce(eccl_dev_ctx_t *c, const void *h_stream, size_t size, const void *d_base,
                                             const eccl_dev_layout_t *lay, size_t count, eccl_dtype_t dtype,
                                             eccl_op_t op, void *h_out, size_t h_cap, size_t *h_size)
{
    size_t cap = eccl_compress_bound(count, dtype);
    if (!c || !h_out || !h_size || (!h_stream && size) || cap == 0) return ECCL_ERR_INVALID_ARG;
    if (!hom_supported(dtype, op)) return ECCL_ERR_UNSUPPORTED;
    if (h_cap < cap) return ECCL_ERR_BUFFER_TOO_SMALL;
    eccl_view v;
    if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    const void *local = d_base;
    eccl_result_t rc = stream_in(c, h_stream, size);
    if (!rc && !v.rows) rc = aligned_input(c, d_base, count * esize_of(dtype), &local);
    if (!rc) rc = grow(c, &c->d_out, &c->out_cap, cap);
    if (rc) return rc;
    if (!count) local = c->d_out; /* any aligned pointer: nothing is read */
#if ECCL_DEV_FETCH
    rc = eccl_cuda_hom_reduce_view(c->codec, c->d_in, size, 1, local, v, count, dtype, op, c->d_out, c->out_cap, NULL,
                                   NULL, c->st);
    return rc ? rc : fetch(c, count * esize_of(dtype), cap, h_out, h_cap, 1, h_size); /* (and the verdict) */
#else
    rc = eccl_cuda_hom_reduce_view(c->codec, c->d_in, size, 1, local, v, count, dtype, op, c->d_out, c->out_cap, NULL,
                                   h_size, c->st);
    if (rc) return rc;
    if ((rc = eccl_cuda_codec_check(c->codec, c->st))) return rc; /* the input stream's verdict */
    if (*h_size > h_cap) return ECCL_ERR_INTERNAL;
    CK(cudaMemcpyAsync(h_out, c->d_out, *h_size, cudaMemcpyDeviceToHost, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
#endif
}

// Bytes of d_out that eccl_dev_sample uses for nwin windows of win elements: each window's stream
// (16-byte aligned), then the nwin sizes.
static size_t sample_bytes(int nwin, size_t win, eccl_dtype_t dtype)
{
    size_t capw = (eccl_compress_bound(win, dtype) + 15) & ~(size_t)15;
    return (size_t)nwin * (capw + sizeof(unsigned long long));
}

extern "C" eccl_result_t eccl_dev_sample(eccl_dev_ctx_t *c, const void *d_base, const eccl_dev_layout_t *lay,
                                         size_t count, eccl_dtype_t dtype, const eccl_bound_t *bound,
                                         const size_t *starts, int nwin, size_t win, size_t *total)
{
    if (!c || !bound || !starts || !total || nwin < 1 || nwin > ECCL_DEV_SAMPLE_MAX || win == 0 || win > count ||
        !d_base || eccl_compress_bound(win, dtype) == 0)
        return ECCL_ERR_INVALID_ARG;
    *total = 0;
    for (int k = 0; k < nwin; k++)
        if (starts[k] > count - win) return ECCL_ERR_INVALID_ARG;
    const uint64_t k_re = reals_of(dtype);
    eccl_view v;
    if (lay) {
        if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    } else { // a plain array as one column: any window is a view of it (no aligned copy needed)
        if ((uintptr_t)d_base % (is64_of(dtype) ? 8 : 4)) return ECCL_ERR_INVALID_ARG;
        v = eccl_view{(uint64_t)count * k_re, (uint64_t)count * k_re, 0};
    }
    const size_t capw = (eccl_compress_bound(win, dtype) + 15) & ~(size_t)15;
    eccl_result_t rc = grow(c, &c->d_out, &c->out_cap, sample_bytes(nwin, win, dtype));
    if (rc) return rc;
    unsigned char *out = (unsigned char *)c->d_out;
    unsigned long long *d_sizes = (unsigned long long *)(out + (size_t)nwin * capw);
    // Windows of whole tiles, evenly spaced in a plain array: one launch compresses them all, as
    // the columns of a matrix view (a tile is a window, and tiles are coded independently, so the
    // payload is that of the separate streams; only the header, index and codes differ, by a known
    // amount). One launch waits once for room on a GPU that the caller's kernels keep busy.
    const uint64_t wre = (uint64_t)win * k_re, stride = nwin > 1 ? starts[1] - starts[0] : 0;
    int even = !lay && nwin > 1 && wre % ECCL_FMT_TILE_VALUES == 0 && stride >= win;
    for (int k = 2; k < nwin && even; k++) even = starts[k] - starts[k - 1] == stride;
    if (even && (size_t)nwin * capw >= eccl_compress_bound((size_t)nwin * win, dtype)) {
        eccl_view w = eccl_view{wre, stride * k_re, (uint64_t)starts[0] * k_re};
        rc = eccl_cuda_compress_view(c->codec, d_base, w, (size_t)nwin * win, dtype, bound, out,
                                     eccl_compress_bound((size_t)nwin * win, dtype), &d_sizes[0], NULL, c->st,
                                     c->vmajor);
        if (rc) return rc;
        unsigned long long h = 0;
        CK(cudaMemcpyAsync(&h, d_sizes, sizeof h, cudaMemcpyDeviceToHost, c->st));
        if ((rc = eccl_cuda_codec_wait(c->codec, c->st))) return rc;
        const uint64_t one = eccl_fmt_payload_offset(eccl_fmt_nblocks(wre)),
                       all = eccl_fmt_payload_offset(eccl_fmt_nblocks(wre * (uint64_t)nwin));
        if (h < all) return ECCL_ERR_INTERNAL;
        *total = (size_t)(h - all + (uint64_t)nwin * one);
        return ECCL_SUCCESS;
    }
    for (int k = 0; k < nwin; k++) {
        eccl_view w = v;
        w.first += (uint64_t)starts[k] * k_re;
        rc = eccl_cuda_compress_view(c->codec, d_base, w, win, dtype, bound, out + (size_t)k * capw, capw,
                                     &d_sizes[k], NULL, c->st, c->vmajor);
        if (rc) return rc;
    }
    unsigned long long h[ECCL_DEV_SAMPLE_MAX];
    CK(cudaMemcpyAsync(h, d_sizes, (size_t)nwin * sizeof *h, cudaMemcpyDeviceToHost, c->st));
    if ((rc = eccl_cuda_codec_wait(c->codec, c->st))) return rc;
    for (int k = 0; k < nwin; k++) {
        if (h[k] > capw) return ECCL_ERR_INTERNAL;
        *total += (size_t)h[k];
    }
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_dev_reserve(eccl_dev_ctx_t *c, size_t count, eccl_dtype_t dtype)
{
    size_t cap = eccl_compress_bound(count, dtype);
    if (!c || cap == 0) return ECCL_ERR_INVALID_ARG;
    // what grow() is asked for by compress / hom_reduce (d_out, also the range's scratch image),
    // stream_in (d_in), aligned_input and the misaligned decompression (d_tmp), and the codec
    size_t out = cap > sizeof(eccl_dev_scratch) ? cap : sizeof(eccl_dev_scratch);
    // and by eccl_dev_sample: a single window of the whole call (small calls) or
    // ECCL_DEV_SAMPLE_MAX windows of ECCL_DEV_SAMPLE_WIN_REALS reals
    size_t win = ECCL_DEV_SAMPLE_WIN_REALS / reals_of(dtype), smp = sample_bytes(1, count ? count : 1, dtype);
    if (count > win && sample_bytes(ECCL_DEV_SAMPLE_MAX, win, dtype) > smp) smp = sample_bytes(ECCL_DEV_SAMPLE_MAX, win, dtype);
    if (smp > out) out = smp;
    eccl_result_t rc = grow(c, &c->d_out, &c->out_cap, out);
    if (!rc) rc = grow(c, &c->d_in, &c->in_cap, cap + 64);
    if (!rc && count) rc = grow(c, &c->d_tmp, &c->tmp_cap, count * esize_of(dtype));
    if (!rc) rc = eccl_cuda_codec_reserve(c->codec, count, dtype, c->st);
    return rc;
}

extern "C" eccl_result_t eccl_dev_range(eccl_dev_ctx_t *c, const void *d_data, const eccl_dev_layout_t *lay,
                                        size_t count, eccl_dtype_t dtype, double *lo, double *hi)
{
    if (!c || !lo || !hi || esize_of(dtype) == 0 || (!d_data && count)) return ECCL_ERR_INVALID_ARG;
    *lo = INFINITY; // no finite value (yet): lo > hi, so a MIN/MAX over ranks ignores this one
    *hi = -INFINITY;
    if (count == 0) return ECCL_SUCCESS;
    eccl_view v;
    if (!view_of(lay, d_data, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    int is64 = is64_of(dtype);
    uint64_t n = (uint64_t)count * reals_of(dtype);
    // The range kernel reduces into a scratch's rkey words: a scratch image at the start of d_out
    // (free between operations) serves, so the codec's own scratch is left alone.
    eccl_result_t rc = grow(c, &c->d_out, &c->out_cap, sizeof(eccl_dev_scratch));
    if (rc) return rc;
    eccl_dev_scratch *s = (eccl_dev_scratch *)c->d_out;
    CK(cudaMemsetAsync(&s->rkey[0], 0xFF, sizeof s->rkey[0], c->st));
    CK(cudaMemsetAsync(&s->rkey[1], 0, sizeof s->rkey[1], c->st));
    CK(eccl_launch_range(d_data, v, n, is64, s, c->st));
    unsigned long long hk[2];
    CK(cudaMemcpyAsync(hk, &s->rkey[0], sizeof hk, cudaMemcpyDeviceToHost, c->st));
    CK(cudaStreamSynchronize(c->st));
    if (hk[0] <= hk[1]) {
        uint64_t a = eccl_fmt_unkey64(hk[0]), b = eccl_fmt_unkey64(hk[1]);
        memcpy(lo, &a, sizeof a);
        memcpy(hi, &b, sizeof b);
    }
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_dev_copy(eccl_dev_ctx_t *c, void *dst, const void *src, size_t bytes)
{
    if (!c || ((!dst || !src) && bytes)) return ECCL_ERR_INVALID_ARG;
    if (!bytes || dst == src) return ECCL_SUCCESS;
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}

// ---- node windows (CUDA IPC) ----
static_assert(sizeof(cudaIpcMemHandle_t) == ECCL_DEV_IPC_HANDLE, "cudaIpcMemHandle_t is not 64 bytes");

extern "C" eccl_result_t eccl_dev_win_alloc(eccl_dev_ctx_t *c, size_t bytes, void **d_win, void *handle)
{
    if (!c || !d_win || !handle || bytes == 0) return ECCL_ERR_INVALID_ARG;
    *d_win = NULL;
    void *p = NULL;
    CK(cudaMalloc(&p, bytes));
    cudaIpcMemHandle_t h;
    if (cudaIpcGetMemHandle(&h, p) != cudaSuccess) {
        (void)cudaGetLastError();
        eccl_gate_free(p, 0);
        return ECCL_ERR_UNSUPPORTED;
    }
    memcpy(handle, &h, sizeof h);
    *d_win = p;
    return ECCL_SUCCESS;
}

extern "C" void eccl_dev_win_free(eccl_dev_ctx_t *c, void *d_win)
{
    if (!d_win) return;
    if (c) cudaStreamSynchronize(c->st);
    eccl_gate_free(d_win, 0);
    (void)cudaGetLastError();
}

extern "C" eccl_result_t eccl_dev_win_open(eccl_dev_ctx_t *c, const void *handle, void **d_peer)
{
    if (!c || !handle || !d_peer) return ECCL_ERR_INVALID_ARG;
    *d_peer = NULL;
    cudaIpcMemHandle_t h;
    memcpy(&h, handle, sizeof h);
    if (cudaIpcOpenMemHandle(d_peer, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
        (void)cudaGetLastError();
        *d_peer = NULL;
        return ECCL_ERR_UNSUPPORTED;
    }
    return ECCL_SUCCESS;
}

extern "C" void eccl_dev_win_close(eccl_dev_ctx_t *c, void *d_peer)
{
    if (!d_peer) return;
    if (c) cudaStreamSynchronize(c->st);
    cudaIpcCloseMemHandle(d_peer);
    (void)cudaGetLastError();
}

extern "C" eccl_result_t eccl_dev_reduce_n(eccl_dev_ctx_t *c, void *d_out, const void *const *d_in, int n,
                                           size_t count, eccl_dtype_t dtype, eccl_op_t op)
{
    if (!c || !d_in || n < 1 || n > ECCL_NODE_MAX || esize_of(dtype) == 0 || (!d_out && count)) return ECCL_ERR_INVALID_ARG;
    if (op != ECCL_OP_SUM && op != ECCL_OP_MAX && op != ECCL_OP_MIN) return ECCL_ERR_UNSUPPORTED;
    if ((op != ECCL_OP_SUM) && reals_of(dtype) != 1) return ECCL_ERR_UNSUPPORTED; /* complex MAX/MIN */
    if (count == 0) return ECCL_SUCCESS;
    eccl_node_srcs in;
    memset(&in, 0, sizeof in);
    for (int k = 0; k < n; k++) {
        if (!d_in[k]) return ECCL_ERR_INVALID_ARG;
        in.p[k] = d_in[k];
    }
    int kop = op == ECCL_OP_SUM ? ECCL_KOP_SUM : op == ECCL_OP_MAX ? ECCL_KOP_MAX : ECCL_KOP_MIN;
    CK(eccl_launch_reduce_n(d_out, in, n, (uint64_t)count * reals_of(dtype), is64_of(dtype), kop, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}

// A smooth field (the CPU calibration's, src/core/comm.c) for eccl_dev_calibrate.
template <typename T> static __global__ void cal_field(T *x, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        x[i] = (T)(sin((double)i * 1e-3) * cos((double)i * 3e-4));
}

static double elapsed(const struct timespec &u, const struct timespec &v)
{
    return (double)(v.tv_sec - u.tv_sec) + 1e-9 * (double)(v.tv_nsec - u.tv_nsec);
}

// Best of the last three of four rounds (the first warms up) of: compression, decompression and
// homomorphic SUM of a tiny array (1024 elements), then of n elements, of dt at x, the stream
// through host memory; seconds in best[6] (tiny, then n elements, each in that order).
static eccl_result_t cal_rounds(eccl_dev_ctx_t *c, eccl_dtype_t dt, const void *x, void *y, size_t n, unsigned char *s,
                                unsigned char *s2, size_t cap, double best[6])
{
    const eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    size_t size = 0, size2 = 0;
    eccl_result_t rc = ECCL_SUCCESS;
    for (int k = 0; k < 6; k++) best[k] = INFINITY;
    for (int rep = 0; rep < 4 && !rc; rep++) {
        struct timespec ts[7];
        for (int i = 0; i < 2 && !rc; i++) {
            const size_t cnt = i ? n : 1024;
            clock_gettime(CLOCK_MONOTONIC, &ts[3 * i]);
            rc = eccl_dev_compress(c, x, NULL, cnt, dt, &b, s, cap, &size);
            clock_gettime(CLOCK_MONOTONIC, &ts[3 * i + 1]);
            if (!rc) rc = eccl_dev_decompress(c, s, size, y, NULL, cnt, dt);
            clock_gettime(CLOCK_MONOTONIC, &ts[3 * i + 2]);
            if (!rc) rc = eccl_dev_hom_reduce(c, s, size, y, NULL, cnt, dt, ECCL_OP_SUM, s2, cap, &size2);
            clock_gettime(CLOCK_MONOTONIC, &ts[3 * i + 3]);
        }
        for (int k = 0; k < 6 && rep > 0 && !rc; k++) best[k] = fmin(best[k], elapsed(ts[k], ts[k + 1]));
    }
    return rc;
}

// The same for the device-stream paths (eccl_dev_compress_keep, eccl_dev_decompress_dev: the stream
// stays in the context's buffers) at the sizes ns[0 .. nn) (elements, ascending): best[0][i] the
// compression of ns[i], best[1][i] its decompression (seconds, best of three rounds after one).
static eccl_result_t cal_rounds_dev(eccl_dev_ctx_t *c, eccl_dtype_t dt, const void *x, void *y, const size_t *ns,
                                    int nn, double best[2][3])
{
    const eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    eccl_result_t rc = ECCL_SUCCESS;
    for (int k = 0; k < 3; k++) best[0][k] = best[1][k] = INFINITY;
    for (int rep = 0; rep < 4 && !rc; rep++) {
        for (int k = 0; k < nn && !rc; k++) {
            size_t count = ns[k], size = 0;
            const void *ds = NULL;
            void *din = NULL;
            struct timespec t[4];
            clock_gettime(CLOCK_MONOTONIC, &t[0]);
            rc = eccl_dev_compress_keep(c, x, NULL, count, dt, &b, &ds, &size);
            clock_gettime(CLOCK_MONOTONIC, &t[1]);
            if (!rc) rc = eccl_dev_stream_buf(c, size, &din); // (the receive side's buffer: untimed)
            if (!rc) rc = eccl_dev_copy(c, din, ds, size);
            clock_gettime(CLOCK_MONOTONIC, &t[2]);
            if (!rc) rc = eccl_dev_decompress_dev(c, din, size, y, NULL, count, dt);
            clock_gettime(CLOCK_MONOTONIC, &t[3]);
            if (rep > 0) {
                best[0][k] = fmin(best[0][k], elapsed(t[0], t[1]));
                best[1][k] = fmin(best[1][k], elapsed(t[2], t[3]));
            }
        }
    }
    return rc;
}

// Bytes per second between sizes a and b (bytes) taking ta and tb seconds.
static double cal_rate(double a, double b, double ta, double tb)
{
    double t = tb - ta;
    return (b - a) / (t > 1e-7 ? t : 1e-7);
}

// Free a context buffer that the calibration grew past `keep` bytes (and past what it held
// before, `before`): the calls grow it again to what they need.
static eccl_result_t trim(eccl_dev_ctx_t *c, void **buf, size_t *cap, size_t before, size_t keep)
{
    if (!*buf || *cap <= before || *cap <= keep) return ECCL_SUCCESS;
    CK(cudaStreamSynchronize(c->st));
    eccl_gate_free(*buf, 0);
    *buf = NULL;
    *cap = 0;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_dev_calibrate(eccl_dev_ctx_t *c, double out[13])
{
    if (!c || !out) return ECCL_ERR_INVALID_ARG;
    // 16 MiB through host memory. The device-stream paths: a tiny call, 32 MiB and 96 MiB (where 2 x
    // 96 MiB of device memory is not to be had: a tiny call and 32 MiB); the figures below.
    const size_t bytes = (size_t)1 << 24, dbytes = (size_t)1 << 25, n32 = bytes / 4, n64 = bytes / 8;
    const size_t cap32 = eccl_compress_bound(n32, ECCL_FLOAT32), cap64 = eccl_compress_bound(n64, ECCL_FLOAT64);
    const size_t cap = cap32 > cap64 ? cap32 : cap64;
    size_t d0 = dbytes, d1 = 3 * dbytes; // the device-stream sizes, bytes
    const size_t in_before = c->in_cap, out_before = c->out_cap, tmp_before = c->tmp_cap;
    void *x = NULL, *y = NULL;
    unsigned char *s = NULL, *s2 = NULL;
    eccl_result_t rc = ECCL_SUCCESS;
    if (cudaMalloc(&x, d1) != cudaSuccess || cudaMalloc(&y, d1) != cudaSuccess) {
        (void)cudaGetLastError();
        eccl_gate_free(x, 0);
        x = y = NULL;
        d1 = dbytes;
        d0 = 0; // (a tiny call: 1024 elements)
    }
    if ((!x && cudaMalloc(&x, d1) != cudaSuccess) || (!y && cudaMalloc(&y, d1) != cudaSuccess) ||
        cudaMallocHost((void **)&s, cap) != cudaSuccess || cudaMallocHost((void **)&s2, cap) != cudaSuccess) {
        (void)cudaGetLastError();
        rc = ECCL_ERR_NO_MEMORY;
    }
    double best[2][6], dbest[2][2][3];
    for (int w = 0; w < 2 && !rc; w++) { // float32, then float64 (the same field)
        const size_t es = w ? 8 : 4;
        if (w == 0) cal_field<float><<<1024, 256, 0, c->st>>>((float *)x, d1 / 4);
        else cal_field<double><<<1024, 256, 0, c->st>>>((double *)x, d1 / 8);
        if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(c->st) != cudaSuccess) rc = ECCL_ERR_CUDA;
        eccl_dtype_t dt = w ? ECCL_FLOAT64 : ECCL_FLOAT32;
        if (!rc) rc = cal_rounds(c, dt, x, y, w ? n64 : n32, s, s2, cap, best[w]);
        const size_t ns[3] = {1024, d0 ? d0 / es : d1 / es, d1 / es};
        if (!rc) rc = cal_rounds_dev(c, dt, x, y, ns, d0 ? 3 : 2, dbest[w]);
    }
    eccl_gate_free(x, 0);
    eccl_gate_free(y, 0);
    eccl_gate_free(s, 1);
    eccl_gate_free(s2, 1);
    (void)cudaGetLastError();
    // (the buffers the 96 MiB calls grew: back to what a 32 MiB call needs at most)
    const size_t keep = eccl_compress_bound(dbytes / 4, ECCL_FLOAT32) + 4096;
    eccl_result_t trc = trim(c, &c->d_in, &c->in_cap, in_before, keep);
    if (!trc) trc = trim(c, &c->d_out, &c->out_cap, out_before, keep);
    if (!trc) trc = trim(c, &c->d_tmp, &c->tmp_cap, tmp_before, keep);
    if (!rc) rc = trc;
    if (rc) return rc;
    // per operation: the tiny float32 calls (compression; decompression and homomorphic SUM after
    // the device-stream figures); per byte: what each large call takes beyond the same operation's
    // tiny call of its type (the device-stream paths: as said below)
    out[0] = best[0][0];
    out[11] = best[0][1];
    out[12] = best[0][2];
    for (int w = 0; w < 2; w++) {
        for (int k = 0; k < 3; k++) {
            double t = best[w][3 + k] - best[w][k];
            out[3 * w + 1 + k] = (double)bytes / (t > 1e-7 ? t : 1e-7);
        }
        // the device-stream paths: the slower of two estimates, each biased one way on H200s
        // (doc/performance.md section 29): beyond the tiny call (its own kernels weigh against a 32
        // MiB call's 20-40 us of work: float32 read 1.4-1.6x what 256 MiB-1 GiB calls run at) and,
        // where there was room for 96 MiB, the slope from 32 to 96 MiB (float64 read 1.3-1.5x the
        // other estimate, which matched its 256 MiB calls)
        const double es = w ? 8.0 : 4.0, tiny = 1024 * es;
        for (int k = 0; k < 2; k++) {
            const double *t = dbest[w][k];
            double r = cal_rate(tiny, d0 ? (double)d0 : (double)d1, t[0], t[1]);
            if (d0) r = fmin(r, cal_rate((double)d0, (double)d1, t[1], t[2]));
            out[7 + 2 * w + k] = r;
        }
    }
    return ECCL_SUCCESS;
}


extern "C" eccl_result_t eccl_dev_fill_nan(eccl_dev_ctx_t *c, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                           eccl_dtype_t dtype)
{
    if (!c || (!d_base && count) || esize_of(dtype) == 0) return ECCL_ERR_INVALID_ARG;
    eccl_view v;
    if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    if (!count) return ECCL_SUCCESS;
    if (!v.rows) CK(cudaMemsetAsync(d_base, 0xFF, count * esize_of(dtype), c->st));
    else CK(eccl_launch_fill_view(d_base, v, (uint64_t)count * reals_of(dtype), is64_of(dtype), ~0ull, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}

extern "C" eccl_result_t eccl_dev_divide(eccl_dev_ctx_t *c, void *d_base, const eccl_dev_layout_t *lay, size_t count,
                                          eccl_dtype_t dtype, int p)
{
    if (!c || (!d_base && count) || esize_of(dtype) == 0 || p < 1) return ECCL_ERR_INVALID_ARG;
    eccl_view v;
    if (!view_of(lay, d_base, dtype, &v)) return ECCL_ERR_INVALID_ARG;
    if (!count || p == 1) return ECCL_SUCCESS;
    CK(eccl_launch_div_view(d_base, v, (uint64_t)count * reals_of(dtype), is64_of(dtype), (unsigned)p, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}

extern "C" eccl_result_t eccl_dev_copy_from(eccl_dev_ctx_t *c, void *dst, const void *d_base,
                                            const eccl_dev_layout_t *lay, size_t count, size_t esize)
{
    if (!c || ((!dst || !d_base) && count) || (lay && (lay->m == 0 || lay->ld < lay->m))) return ECCL_ERR_INVALID_ARG;
    if (!lay) return eccl_dev_copy(c, dst, d_base, count * esize);
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *b = (const unsigned char *)d_base;
    size_t col = lay->first / lay->m, row = lay->first % lay->m, left = count;
    if (left && row) { // the rest of a first, partial column
        size_t k = lay->m - row < left ? lay->m - row : left;
        CK(cudaMemcpyAsync(d, b + (col * lay->ld + row) * esize, k * esize, cudaMemcpyDefault, c->st));
        d += k * esize;
        left -= k;
        col++;
    }
    if (left >= lay->m) { // whole columns, one 2-D copy
        size_t ncol = left / lay->m;
        CK(cudaMemcpy2DAsync(d, lay->m * esize, b + col * lay->ld * esize, lay->ld * esize, lay->m * esize, ncol,
                             cudaMemcpyDefault, c->st));
        d += ncol * lay->m * esize;
        left -= ncol * lay->m;
        col += ncol;
    }
    if (left) CK(cudaMemcpyAsync(d, b + col * lay->ld * esize, left * esize, cudaMemcpyDefault, c->st));
    return eccl_cuda_codec_wait(c->codec, c->st);
}
