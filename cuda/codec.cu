// codec.cu - the host side of the CUDA codec: argument checks, the stream layout, launches, the
// device scratch (look-back status, counters, error word) and error reporting.
#include "config.h"

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eccl_cuda.h" /* before kernels.h: the result codes come from eccl.h here */
#include "core/dtype.h"
#include "cuda/device.h"
#include "cuda/kernels.h"

struct eccl_cuda_codec {
    int device;
    eccl_dev_scratch *s;        // device
    size_t tiles_cap;           // status entries allocated
    unsigned long long tile_base, done_base;
    unsigned epoch;
    int *h_err;                 // pinned
    unsigned long long *h_size; // pinned
    unsigned long long *h_tail; // pinned: the scratch's total_size and error words (eccl_cuda_codec_fetch)
    int sms;                    // multiprocessors: small streams get bigger CTAs
    cudaEvent_t ev;             // what eccl_cuda_codec_wait polls while a waiter is set
    cudaStream_t hk;            // non-blocking: clears new scratch (never the legacy stream, which
                                // a held user stream would stall: cuda/device.h, the gate)
    void (*waiter)(void *);     // eccl_cuda_codec_set_waiter
    void *waiter_arg;
    int vmax;                   // the newest format version the decoders read (eccl_cuda_codec_set_read_version;
                                // 0: 2, the kernels without version 3's sparse tiles)
};

// Smaller streams than this many tiles run with 1024-thread CTAs (32 warps share a tile's 256
// blocks) so that a 1 MiB input still fills the GPU; larger ones with 256 threads.
static int big_ctas(const eccl_cuda_codec_t c, uint64_t nt) { return nt < (uint64_t)(2 * c->sms); }


#define CU(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            (void)cudaGetLastError();                                                              \
            return ECCL_ERR_CUDA;                                                                  \
        }                                                                                          \
    } while (0)

static size_t scratch_bytes(size_t tiles) { return sizeof(eccl_dev_scratch) + tiles * sizeof(unsigned long long); }
static int is64_of(eccl_dtype_t dt) { const eccl_dtype_traits_t *t = eccl_dtype_traits(dt); return t && t->is64; }
static size_t reals_of(eccl_dtype_t dt) { const eccl_dtype_traits_t *t = eccl_dtype_traits(dt); return t ? t->reals : 0; }

// Grow the scratch. The old one may still be read by kernels of the stream the codec was last used
// on (st; NULL: any stream): waited for through the gate, which synchronises the device unless a
// user's stream is held (then eccl's own contexts use a codec on one stream: st). The old scratch
// is freed through the gate too.
static eccl_result_t reserve(eccl_cuda_codec_t c, size_t tiles, cudaStream_t st)
{
    if (tiles <= c->tiles_cap && c->s) return ECCL_SUCCESS;
    size_t cap = tiles > 2 * c->tiles_cap ? tiles : 2 * c->tiles_cap;
    if (cap < 64) cap = 64;
    eccl_dev_scratch *ns = NULL;
    if (c->s && eccl_gate_sync(st)) return ECCL_ERR_CUDA;
    CU(cudaMalloc((void **)&ns, scratch_bytes(cap)));
    cudaError_t e = cudaMemsetAsync(ns, 0, scratch_bytes(cap), c->hk);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->hk);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        eccl_gate_free(ns, 0);
        return ECCL_ERR_CUDA;
    }
    eccl_gate_free(c->s, 0);
    c->s = ns;
    c->tiles_cap = cap;
    c->tile_base = c->done_base = 0;
    c->epoch = 0;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_codec_reserve(eccl_cuda_codec_t c, size_t count, eccl_dtype_t dtype, void *stream)
{
    if (!c || reals_of(dtype) == 0) return ECCL_ERR_INVALID_ARG;
    return reserve(c, eccl_fmt_ntiles(eccl_fmt_nblocks((uint64_t)count * reals_of(dtype))), (cudaStream_t)stream);
}

extern "C" eccl_result_t eccl_cuda_codec_create(size_t max_count, eccl_cuda_codec_t *out)
{
    if (!out) return ECCL_ERR_INVALID_ARG;
    *out = NULL;
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        (void)cudaGetLastError();
        return ECCL_ERR_NO_DEVICE;
    }
    eccl_cuda_codec_t c = (eccl_cuda_codec_t)calloc(1, sizeof *c);
    if (!c) return ECCL_ERR_NO_MEMORY;
    cudaGetDevice(&c->device);
    eccl_result_t rc = ECCL_SUCCESS;
    size_t tiles = (max_count * 2 + ECCL_FMT_TILE_VALUES - 1) / ECCL_FMT_TILE_VALUES + 1;
    if (cudaMallocHost((void **)&c->h_err, sizeof(int)) != cudaSuccess ||
        cudaMallocHost((void **)&c->h_size, sizeof(unsigned long long)) != cudaSuccess ||
        cudaMallocHost((void **)&c->h_tail, 2 * sizeof(unsigned long long)) != cudaSuccess ||
        cudaDeviceGetAttribute(&c->sms, cudaDevAttrMultiProcessorCount, c->device) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->ev, cudaEventDisableTiming) != cudaSuccess ||
        cudaStreamCreateWithFlags(&c->hk, cudaStreamNonBlocking) != cudaSuccess ||
        eccl_compress_setup() != cudaSuccess || eccl_decompress_setup() != cudaSuccess ||
        eccl_hom32_setup() != cudaSuccess || eccl_hom64_setup() != cudaSuccess)
        rc = ECCL_ERR_CUDA;
    if (!rc) rc = reserve(c, tiles, NULL);
    if (rc) {
        (void)cudaGetLastError();
        eccl_cuda_codec_free(&c);
        return rc;
    }
    *out = c;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_codec_free(eccl_cuda_codec_t *codec)
{
    if (!codec) return ECCL_ERR_INVALID_ARG;
    eccl_cuda_codec_t c = *codec;
    if (!c) return ECCL_SUCCESS;
    if (c->s) eccl_gate_free(c->s, 0);
    if (c->h_err) eccl_gate_free(c->h_err, 1);
    if (c->h_size) eccl_gate_free(c->h_size, 1);
    if (c->h_tail) eccl_gate_free(c->h_tail, 1);
    if (c->ev) cudaEventDestroy(c->ev);
    if (c->hk) cudaStreamDestroy(c->hk);
    free(c);
    *codec = NULL;
    return ECCL_SUCCESS;
}

// The next look-back epoch; when the 16-bit epoch wraps, old status words are cleared so that a
// word from 65535 launches ago can never pass for a current one.
static eccl_result_t next_epoch(eccl_cuda_codec_t c, cudaStream_t st)
{
    if (++c->epoch > 0xFFFFu) {
        CU(cudaMemsetAsync(c->s->status, 0, c->tiles_cap * sizeof(unsigned long long), st));
        c->epoch = 1;
    }
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_codec_set_waiter(eccl_cuda_codec_t c, void (*fn)(void *), void *arg)
{
    if (!c) return ECCL_ERR_INVALID_ARG;
    c->waiter = fn;
    c->waiter_arg = arg;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_codec_wait(eccl_cuda_codec_t c, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (!c) return ECCL_ERR_INVALID_ARG;
    if (!c->waiter) {
        CU(cudaStreamSynchronize(st));
        return ECCL_SUCCESS;
    }
    CU(cudaEventRecord(c->ev, st));
    for (;;) {
        cudaError_t e = cudaEventQuery(c->ev);
        if (e == cudaSuccess) return ECCL_SUCCESS;
        if (e != cudaErrorNotReady) {
            (void)cudaGetLastError();
            return ECCL_ERR_CUDA;
        }
        c->waiter(c->waiter_arg); // e.g. MPI progress for the messages of the caller in flight
    }
}

static eccl_result_t read_size(eccl_cuda_codec_t c, const unsigned long long *d, size_t *h, cudaStream_t st)
{
    CU(cudaMemcpyAsync(c->h_size, d, sizeof *c->h_size, cudaMemcpyDeviceToHost, st));
    eccl_result_t rc = eccl_cuda_codec_wait(c, st);
    if (rc) return rc;
    *h = (size_t)*c->h_size;
    return ECCL_SUCCESS;
}

// The stream sits at the scratch's total_size, then the error word (one 16-byte copy reads both).
static_assert(offsetof(eccl_dev_scratch, error) == offsetof(eccl_dev_scratch, total_size) + 8,
              "total_size and error must be adjacent");

extern "C" eccl_result_t eccl_cuda_codec_fetch(eccl_cuda_codec_t c, const void *d_out, void *h_out, size_t h_cap,
                                               size_t spec, int verdict, size_t *h_size, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (!c || !d_out || !h_out || !h_size) return ECCL_ERR_INVALID_ARG;
    if (spec > h_cap) spec = h_cap;
    CU(cudaMemcpyAsync(c->h_tail, &c->s->total_size, 2 * sizeof *c->h_tail, cudaMemcpyDeviceToHost, st));
    if (spec) CU(cudaMemcpyAsync(h_out, d_out, spec, cudaMemcpyDeviceToHost, st));
    eccl_result_t rc = eccl_cuda_codec_wait(c, st);
    if (rc) return rc;
    int e = 0;
    memcpy(&e, &c->h_tail[1], sizeof e); /* (the error word: the low half on a little-endian host) */
    if (verdict && e) {
        CU(cudaMemsetAsync(&c->s->error, 0, sizeof(int), st));
        return (eccl_result_t)e;
    }
    size_t size = (size_t)c->h_tail[0];
    if (size > h_cap) return ECCL_ERR_INTERNAL;
    *h_size = size;
    if (size <= spec) return ECCL_SUCCESS;
    CU(cudaMemcpyAsync((unsigned char *)h_out + spec, (const unsigned char *)d_out + spec, size - spec,
                       cudaMemcpyDeviceToHost, st));
    return eccl_cuda_codec_wait(c, st);
}

// A view's checks, and its simplest form: a view whose values are contiguous from a 16-byte
// aligned address becomes a plain array (*data moved to its first value, v->rows = 0).
static eccl_result_t norm_view(const void **data, eccl_view *v, size_t count, eccl_dtype_t dtype)
{
    if (!v->rows) return ((uintptr_t)*data & 15u) ? ECCL_ERR_INVALID_ARG : ECCL_SUCCESS;
    const size_t W = is64_of(dtype) ? 8 : 4;
    if (v->ld < v->rows || ((uintptr_t)*data % W)) return ECCL_ERR_INVALID_ARG;
    const uint64_t n = (uint64_t)count * reals_of(dtype);
    const uint64_t c0 = v->first / v->rows, r0 = v->first % v->rows;
    if (v->ld == v->rows || r0 + n <= v->rows) { // one run of memory
        const char *p = (const char *)*data + (c0 * v->ld + r0) * W;
        if (!((uintptr_t)p & 15u)) {
            *data = p;
            *v = eccl_view{0, 0, 0};
        }
    }
    return ECCL_SUCCESS;
}

static eccl_result_t compress_view(eccl_cuda_codec_t c, const void *d_data, eccl_view view, size_t count,
                                   eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out, size_t out_capacity,
                                   unsigned long long *d_size, size_t *h_size, cudaStream_t st, int vmajor)
{
    if (!c || !bound || !d_out || (!d_data && count)) return ECCL_ERR_INVALID_ARG;
    if (vmajor < 1 || vmajor > 3) return ECCL_ERR_INVALID_ARG;
    size_t cap = eccl_compress_bound(count, dtype);
    if (cap == 0) return ECCL_ERR_INVALID_ARG;
    if ((uintptr_t)d_out & 15u) return ECCL_ERR_INVALID_ARG;
    if (count && norm_view(&d_data, &view, count, dtype)) return ECCL_ERR_INVALID_ARG;
    if (!count) view = eccl_view{0, 0, 0};
    if (out_capacity < cap) return ECCL_ERR_BUFFER_TOO_SMALL;
    eccl_comp_args a;
    memset(&a, 0, sizeof a);
    a.x = d_data;
    a.v = view;
    a.n = (uint64_t)count * reals_of(dtype);
    a.nb = eccl_fmt_nblocks(a.n);
    a.nt = eccl_fmt_ntiles(a.nb);
    a.P = eccl_fmt_payload_offset(a.nb);
    a.out = (unsigned char *)d_out;
    a.h.dtype = (unsigned char)dtype;
    a.h.vmajor = (unsigned char)vmajor;
    a.h.mode = (unsigned char)bound->mode;
    a.h.nsum = 1;
    a.h.count = count;
    switch (bound->mode) {
    case ECCL_MODE_LOSSLESS: break;
    case ECCL_MODE_ABS:
    case ECCL_MODE_REL: {
        if (!(bound->value > 0) || bound->value != bound->value || bound->value > 1.7976931348623157e308)
            return ECCL_ERR_INVALID_ARG;
        a.h.bound = bound->value;
        if (bound->mode == ECCL_MODE_ABS) {
            a.h.eb = bound->value < ECCL_FMT_EB_CAP ? bound->value : ECCL_FMT_EB_CAP;
        } else if (bound->range == ECCL_RANGE_FROM_DATA) {
            a.rel_range_on_device = 1;
        } else {
            if (!(bound->range >= 0)) return ECCL_ERR_INVALID_ARG;
            a.h.range = bound->range == 0.0 ? 0.0 : bound->range; /* -0.0 is range 0, as in api.c */
            double e = bound->value * a.h.range;
            a.h.eb = e < ECCL_FMT_EB_CAP ? e : ECCL_FMT_EB_CAP;
        }
        break;
    }
    default: return ECCL_ERR_INVALID_ARG;
    }
    eccl_result_t rc = reserve(c, a.nt, st);
    if (rc) return rc;
    a.s = c->s;
    a.d_size = d_size ? d_size : &c->s->total_size;
    if (a.rel_range_on_device) {
        CU(cudaMemsetAsync(&c->s->rkey[0], 0xFF, sizeof c->s->rkey[0], st)); /* min key: all ones */
        CU(cudaMemsetAsync(&c->s->rkey[1], 0, sizeof c->s->rkey[1], st));
        CU(eccl_launch_range(d_data, view, a.n, is64_of(dtype), c->s, st));
    }
    /* 1024-thread CTAs for small streams; float32 (compress32.cu) only where the 256-thread ones
     * would leave SMs empty anyway */
    const int is64 = is64_of(dtype), big = is64 ? big_ctas(c, a.nt) : a.nt <= (uint64_t)c->sms;
    if (a.nt > 0) {
        if ((rc = next_epoch(c, st))) return rc;
        a.epoch = c->epoch;
        a.tile_base = c->tile_base;
        a.done_base = c->done_base;
        c->tile_base += a.nt;
        c->done_base += a.nt;
    }
    CU(eccl_launch_compress(a, is64, big, st));
    CU(cudaGetLastError());
    if (h_size) return read_size(c, a.d_size, h_size, st);
    return ECCL_SUCCESS;
}

eccl_result_t eccl_cuda_compress_view(eccl_cuda_codec_t c, const void *d_data, eccl_view view, size_t count,
                                      eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                      size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                      cudaStream_t st, int vmajor)
{
    return compress_view(c, d_data, view, count, dtype, bound, d_out, out_capacity, d_size, h_size, st, vmajor);
}

extern "C" eccl_result_t eccl_cuda_codec_set_read_version(eccl_cuda_codec_t c, int vmax)
{
    if (!c || vmax < 1 || vmax > 3) return ECCL_ERR_INVALID_ARG;
    c->vmax = vmax;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_compress_fmt(eccl_cuda_codec_t c, const void *d_data, size_t count,
                                                eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                                size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                                void *stream, int vmajor)
{
    return compress_view(c, d_data, eccl_view{0, 0, 0}, count, dtype, bound, d_out, out_capacity, d_size, h_size,
                         (cudaStream_t)stream, vmajor);
}

extern "C" eccl_result_t eccl_cuda_compress(eccl_cuda_codec_t c, const void *d_data, size_t count,
                                            eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                            size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                            cudaStream_t st)
{
    return eccl_cuda_compress_view(c, d_data, eccl_view{0, 0, 0}, count, dtype, bound, d_out, out_capacity, d_size,
                                   h_size, st, ECCL_FORMAT_VERSION_MAJOR);
}

// The view of an m x n column-major matrix with leading dimension ld (elements); 0 for bad sizes.
static int matrix_view(size_t m, size_t n, size_t ld, eccl_dtype_t dtype, eccl_view *v, size_t *count)
{
    if (eccl_dtype_size(dtype) == 0 || ld < m || ld < 1) return 0;
    if (m && n > SIZE_MAX / m) return 0;
    *count = m * n;
    *v = eccl_view{(uint64_t)m * reals_of(dtype), (uint64_t)ld * reals_of(dtype), 0};
    if (!m || !n) *v = eccl_view{0, 0, 0};
    return 1;
}

extern "C" eccl_result_t eccl_cuda_compress_2d(eccl_cuda_codec_t c, const void *d_a, size_t m, size_t n, size_t ld,
                                               eccl_dtype_t dtype, const eccl_bound_t *bound, void *d_out,
                                               size_t out_capacity, unsigned long long *d_size, size_t *h_size,
                                               cudaStream_t st)
{
    eccl_view v;
    size_t count;
    if (!matrix_view(m, n, ld, dtype, &v, &count)) return ECCL_ERR_INVALID_ARG;
    return eccl_cuda_compress_view(c, d_a, v, count, dtype, bound, d_out, out_capacity, d_size, h_size, st,
                                   ECCL_FORMAT_VERSION_MAJOR);
}

extern "C" eccl_result_t eccl_cuda_codec_check(eccl_cuda_codec_t c, cudaStream_t st)
{
    if (!c) return ECCL_ERR_INVALID_ARG;
    CU(cudaMemcpyAsync(c->h_err, &c->s->error, sizeof(int), cudaMemcpyDeviceToHost, st));
    eccl_result_t rc = eccl_cuda_codec_wait(c, st);
    if (rc) return rc;
    int e = *c->h_err;
    if (e) CU(cudaMemsetAsync(&c->s->error, 0, sizeof(int), st));
    return (eccl_result_t)e;
}

eccl_result_t eccl_cuda_decompress_view(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                        int exact_size, void *d_data, eccl_view view, size_t count,
                                        eccl_dtype_t dtype, int check, cudaStream_t st)
{
    if (!c || !d_stream || (!d_data && count)) return ECCL_ERR_INVALID_ARG;
    if (eccl_compress_bound(count, dtype) == 0) return ECCL_ERR_INVALID_ARG;
    if ((uintptr_t)d_stream & 15u) return ECCL_ERR_INVALID_ARG;
    const void *data = d_data;
    if (count && norm_view(&data, &view, count, dtype)) return ECCL_ERR_INVALID_ARG;
    if (!count) view = eccl_view{0, 0, 0};
    eccl_decomp_args a;
    memset(&a, 0, sizeof a);
    a.in = (const unsigned char *)d_stream;
    a.in_cap = stream_capacity;
    a.exact_size = exact_size;
    a.x = (void *)data;
    a.v = view;
    a.count = count;
    a.dtype = (int)dtype;
    a.vmax = c->vmax == 3 ? 3 : 2; /* (3: the decompression kernel's sparse-tile instance) */
    a.n = (uint64_t)count * reals_of(dtype);
    a.nb = eccl_fmt_nblocks(a.n);
    a.nt = eccl_fmt_ntiles(a.nb);
    a.P = eccl_fmt_payload_offset(a.nb);
    eccl_result_t rc = reserve(c, a.nt, st);
    if (rc) return rc;
    a.s = c->s;
    if (stream_capacity < a.P) {
        if (check) return ECCL_ERR_CORRUPT;
        int e = ECCL_ERR_CORRUPT; /* reported through the error word like any device-side finding */
        CU(cudaMemcpyAsync(&c->s->error, &e, sizeof e, cudaMemcpyHostToDevice, st));
        return ECCL_SUCCESS;
    }
    a.done_base = c->done_base;
    if (a.nt > 0) c->done_base += a.nt;
    CU(eccl_launch_decompress(a, is64_of(dtype), a.nt <= (uint64_t)c->sms ? 2 : big_ctas(c, a.nt), st));
    CU(cudaGetLastError());
    return check ? eccl_cuda_codec_check(c, st) : ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_decompress(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                              void *d_data, size_t count, eccl_dtype_t dtype, int check,
                                              cudaStream_t st)
{
    return eccl_cuda_decompress_view(c, d_stream, stream_capacity, 0, d_data, eccl_view{0, 0, 0}, count, dtype,
                                     check, st);
}

extern "C" eccl_result_t eccl_cuda_decompress_2d(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                                 void *d_a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype,
                                                 int check, cudaStream_t st)
{
    eccl_view v;
    size_t count;
    if (!matrix_view(m, n, ld, dtype, &v, &count)) return ECCL_ERR_INVALID_ARG;
    return eccl_cuda_decompress_view(c, d_stream, stream_capacity, 0, d_a, v, count, dtype, check, st);
}

extern "C" eccl_result_t eccl_cuda_hom_reduce(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                              const void *d_local, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                                              void *d_out, size_t out_capacity, unsigned long long *d_size,
                                              size_t *h_size, cudaStream_t st)
{
    return eccl_cuda_hom_reduce_view(c, d_stream, stream_capacity, 0, d_local, eccl_view{0, 0, 0}, count, dtype, op,
                                     d_out, out_capacity, d_size, h_size, st);
}

eccl_result_t eccl_cuda_hom_reduce_view(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                        int exact_size, const void *d_local, eccl_view lview, size_t count,
                                        eccl_dtype_t dtype, eccl_op_t op, void *d_out, size_t out_capacity,
                                        unsigned long long *d_size, size_t *h_size, cudaStream_t st)
{
    if (!c || !d_stream || !d_out || (!d_local && count)) return ECCL_ERR_INVALID_ARG;
    size_t cap = eccl_compress_bound(count, dtype);
    if (cap == 0) return ECCL_ERR_INVALID_ARG;
    if (op != ECCL_OP_SUM && op != ECCL_OP_MAX && op != ECCL_OP_MIN)
        return op == ECCL_OP_AVG || op == ECCL_OP_PROD ? ECCL_ERR_UNSUPPORTED : ECCL_ERR_INVALID_ARG;
    if (op != ECCL_OP_SUM && reals_of(dtype) == 2) return ECCL_ERR_UNSUPPORTED;
    if (((uintptr_t)d_stream & 15u) || ((uintptr_t)d_out & 15u)) return ECCL_ERR_INVALID_ARG;
    if (count && norm_view(&d_local, &lview, count, dtype)) return ECCL_ERR_INVALID_ARG;
    if (!count) lview = eccl_view{0, 0, 0};
    if (out_capacity < cap) return ECCL_ERR_BUFFER_TOO_SMALL;
    const char *sb = (const char *)d_stream, *ob = (const char *)d_out;
    if (sb < ob + out_capacity && ob < sb + stream_capacity) return ECCL_ERR_INVALID_ARG; /* overlap */
    eccl_hom_args a;
    memset(&a, 0, sizeof a);
    a.in.in = (const unsigned char *)d_stream;
    a.in.in_cap = stream_capacity;
    a.in.exact_size = exact_size;
    a.in.count = count;
    a.in.dtype = (int)dtype;
    /* (the output keeps the input's version: version 3 from the kernels' sparse-tile instances) */
    a.in.vmax = c->vmax == 3 ? 3 : 2;
    a.in.n = (uint64_t)count * reals_of(dtype);
    a.in.nb = eccl_fmt_nblocks(a.in.n);
    a.in.nt = eccl_fmt_ntiles(a.in.nb);
    a.in.P = eccl_fmt_payload_offset(a.in.nb);
    a.local = d_local;
    a.lv = lview;
    a.op = (int)op;
    a.out = (unsigned char *)d_out;
    eccl_result_t rc = reserve(c, a.in.nt, st);
    if (rc) return rc;
    a.in.s = c->s;
    a.d_size = d_size ? d_size : &c->s->total_size;
    if (stream_capacity < a.in.P) {
        int e = ECCL_ERR_CORRUPT; /* reported through the error word like any device-side finding */
        CU(cudaMemcpyAsync(&c->s->error, &e, sizeof e, cudaMemcpyHostToDevice, st));
        return ECCL_SUCCESS;
    }
    if (a.in.nt > 0) {
        if ((rc = next_epoch(c, st))) return rc;
        a.epoch = c->epoch;
        a.tile_base = c->tile_base;
        a.done_base = c->done_base;
        c->tile_base += a.in.nt;
        c->done_base += a.in.nt;
    }
    CU(is64_of(dtype) ? eccl_launch_hom64(a, st) : eccl_launch_hom32(a, st, a.in.nt <= (uint64_t)c->sms));
    if (h_size) return read_size(c, a.d_size, h_size, st);
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_hom_reduce_2d(eccl_cuda_codec_t c, const void *d_stream, size_t stream_capacity,
                                                 const void *d_a, size_t m, size_t n, size_t ld, eccl_dtype_t dtype,
                                                 eccl_op_t op, void *d_out, size_t out_capacity,
                                                 unsigned long long *d_size, size_t *h_size, cudaStream_t st)
{
    eccl_view v;
    size_t count;
    if (!matrix_view(m, n, ld, dtype, &v, &count)) return ECCL_ERR_INVALID_ARG;
    return eccl_cuda_hom_reduce_view(c, d_stream, stream_capacity, 0, d_a, v, count, dtype, op, d_out, out_capacity,
                                     d_size, h_size, st);
}
