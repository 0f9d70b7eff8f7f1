// cuda/device.cu - device discovery for the CUDA backend.
#include "config.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"

extern "C" eccl_result_t eccl_cuda_device_count(int *count)
{
    if (!count) return ECCL_ERR_INVALID_ARG;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); // no driver or no device: not an error, just none
        n = 0;
    }
    *count = n;
    return ECCL_SUCCESS;
}

extern "C" eccl_result_t eccl_cuda_device_check(int device, char *name, size_t name_len)
{
    int n = 0;
    eccl_cuda_device_count(&n);
    if (device < 0 || device >= n) return ECCL_ERR_NO_DEVICE;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return ECCL_ERR_NO_DEVICE;
    }
    if (name && name_len) {
        strncpy(name, prop.name, name_len - 1);
        name[name_len - 1] = '\0';
    }
    return prop.major >= 8 ? ECCL_SUCCESS : ECCL_ERR_NO_DEVICE;
}

// Runtime errors to eccl codes: out of memory, no usable device, anything else is ECCL_ERR_CUDA.
// The sticky-free error state is cleared so later calls do not see it again.
static eccl_result_t from_cuda(cudaError_t e)
{
    if (e == cudaSuccess) return ECCL_SUCCESS;
    (void)cudaGetLastError();
    switch (e) {
    case cudaErrorMemoryAllocation: return ECCL_ERR_NO_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice: return ECCL_ERR_NO_DEVICE;
    default: return ECCL_ERR_CUDA;
    }
}

extern "C" eccl_result_t eccl_cuda_set_device(int device)
{
    int n = 0;
    eccl_cuda_device_count(&n);
    if (device < 0 || device >= n) return ECCL_ERR_NO_DEVICE;
    return from_cuda(cudaSetDevice(device));
}

extern "C" eccl_result_t eccl_cuda_malloc(void **d_ptr, size_t bytes)
{
    if (!d_ptr) return ECCL_ERR_INVALID_ARG;
    *d_ptr = NULL;
    if (bytes == 0) return ECCL_SUCCESS;
    eccl_result_t rc = from_cuda(cudaMalloc(d_ptr, bytes));
    if (rc) *d_ptr = NULL;
    return rc;
}

extern "C" eccl_result_t eccl_cuda_free(void *d_ptr)
{
    if (!d_ptr) return ECCL_SUCCESS;
    return from_cuda(cudaFree(d_ptr));
}

extern "C" eccl_result_t eccl_cuda_memcpy(void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return ECCL_SUCCESS;
    if (!dst || !src) return ECCL_ERR_INVALID_ARG;
    // cudaMemcpy returns before a device-to-device copy is done; the promise is "done on return",
    // also for a reader on a non-blocking stream, so the legacy stream is waited for.
    eccl_result_t rc = from_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
    return rc ? rc : from_cuda(cudaStreamSynchronize(cudaStreamLegacy));
}

extern "C" eccl_result_t eccl_cuda_stream_wait(void *stream)
{
    return from_cuda(cudaStreamSynchronize((cudaStream_t)stream));
}

extern "C" void eccl_cuda_stream_destroy(void *stream)
{
    if (stream && cudaStreamDestroy((cudaStream_t)stream) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" eccl_result_t eccl_cuda_memcpy2d_on(void *stream, void *dst, size_t dpitch, const void *src,
                                               size_t spitch, size_t width, size_t height)
{
    if (!stream) return eccl_cuda_memcpy2d(dst, dpitch, src, spitch, width, height);
    if (width == 0 || height == 0) return ECCL_SUCCESS;
    if (!dst || !src || dpitch < width || spitch < width) return ECCL_ERR_INVALID_ARG;
    cudaStream_t st = (cudaStream_t)stream;
    eccl_result_t rc = from_cuda(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault, st));
    return rc ? rc : from_cuda(cudaStreamSynchronize(st));
}

extern "C" eccl_result_t eccl_cuda_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                            size_t height)
{
    if (width == 0 || height == 0) return ECCL_SUCCESS;
    if (!dst || !src || dpitch < width || spitch < width) return ECCL_ERR_INVALID_ARG;
    // On the legacy stream, so ordered after the caller's default-stream work, and waited for:
    // cudaMemcpy2D returns before a device-to-device copy is done, and a caller reading dst on a
    // non-blocking stream (summa --device's cuBLAS stream) would race with it.
    eccl_result_t rc = from_cuda(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault));
    return rc ? rc : from_cuda(cudaStreamSynchronize(cudaStreamLegacy));
}

extern "C" eccl_result_t eccl_cuda_host_alloc(void **ptr, size_t bytes)
{
    if (!ptr) return ECCL_ERR_INVALID_ARG;
    *ptr = NULL;
    if (cudaMallocHost(ptr, bytes ? bytes : 64) != cudaSuccess) {
        (void)cudaGetLastError();
        *ptr = NULL;
        return ECCL_ERR_NO_MEMORY;
    }
    return ECCL_SUCCESS;
}

extern "C" void eccl_cuda_host_free(void *ptr)
{
    eccl_gate_free(ptr, 1);
}

extern "C" void *eccl_cuda_host_alloc_ptr(size_t bytes)
{
    void *p = NULL;
    return eccl_cuda_host_alloc(&p, bytes) == ECCL_SUCCESS ? p : NULL;
}

// ---- the gate: no device-wide synchronisation while a user's stream is held -------------------
// The process's one piece of global mutable state in cuda/ (documented in cuda/device.h): how many
// user streams are held now, and the memory whose release had to wait for none to be, under one
// mutex.
struct retired {
    void *ptr;
    int host;
    struct retired *next;
};
static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static long gate_holds;
static struct retired *gate_list;

static void free_now(void *p, int host)
{
    if (host ? cudaFreeHost(p) != cudaSuccess : cudaFree(p) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" void eccl_gate_free(void *ptr, int host)
{
    if (!ptr) return;
    pthread_mutex_lock(&gate_mu);
    if (gate_holds == 0) {
        free_now(ptr, host); // (under the mutex: no hold can begin while cudaFree waits)
    } else {
        struct retired *r = (struct retired *)malloc(sizeof *r);
        if (r) {
            r->ptr = ptr;
            r->host = host;
            r->next = gate_list;
            gate_list = r;
        } // (no memory for the note: the buffer leaks rather than risk a deadlock)
    }
    pthread_mutex_unlock(&gate_mu);
}

extern "C" eccl_result_t eccl_gate_sync(void *stream)
{
    pthread_mutex_lock(&gate_mu);
    cudaError_t e = gate_holds == 0 ? cudaDeviceSynchronize()
                    : stream        ? cudaStreamSynchronize((cudaStream_t)stream)
                                    : cudaSuccess;
    pthread_mutex_unlock(&gate_mu);
    return from_cuda(e);
}

static void gate_enter(void)
{
    pthread_mutex_lock(&gate_mu);
    gate_holds++;
    pthread_mutex_unlock(&gate_mu);
}

static void gate_leave(void)
{
    pthread_mutex_lock(&gate_mu);
    if (--gate_holds == 0) {
        while (gate_list) {
            struct retired *r = gate_list;
            gate_list = r->next;
            free_now(r->ptr, r->host);
            free(r);
        }
    }
    pthread_mutex_unlock(&gate_mu);
}

// ---- holds: a user's stream waits for a word of page-locked memory the host writes ------------
typedef CUresult (*wait_value32_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

struct eccl_dev_hold {
    volatile unsigned *flag; // page-locked, mapped; the last sequence number released
    CUdeviceptr d_flag;
    wait_value32_fn wait;
};

extern "C" eccl_result_t eccl_dev_hold_create(eccl_dev_hold_t **out)
{
    if (!out) return ECCL_ERR_INVALID_ARG;
    *out = NULL;
    void *fn = NULL;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !fn) {
        (void)cudaGetLastError();
        return ECCL_ERR_UNSUPPORTED;
    }
    eccl_dev_hold_t *h = (eccl_dev_hold_t *)calloc(1, sizeof *h);
    if (!h) return ECCL_ERR_NO_MEMORY;
    void *p = NULL, *d = NULL;
    if (cudaHostAlloc(&p, 64, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError();
        free(h);
        return ECCL_ERR_NO_MEMORY;
    }
    if (cudaHostGetDevicePointer(&d, p, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaFreeHost(p);
        free(h);
        return ECCL_ERR_UNSUPPORTED;
    }
    memset(p, 0, 64);
    h->flag = (volatile unsigned *)p;
    h->d_flag = (CUdeviceptr)d;
    h->wait = (wait_value32_fn)fn;
    *out = h;
    return ECCL_SUCCESS;
}

extern "C" void eccl_dev_hold_free(eccl_dev_hold_t *h)
{
    if (!h) return;
    eccl_gate_free((void *)h->flag, 1);
    free(h);
}

extern "C" eccl_result_t eccl_dev_hold_post(eccl_dev_hold_t *h, void *stream, unsigned seq, void **ev)
{
    if (!h || !ev) return ECCL_ERR_INVALID_ARG;
    *ev = NULL;
    cudaEvent_t e = NULL;
    cudaStream_t st = (cudaStream_t)stream;
    if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return from_cuda(cudaGetLastError());
    if (cudaEventRecord(e, st) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaEventDestroy(e);
        return ECCL_ERR_CUDA;
    }
    gate_enter();
    if (h->wait((CUstream)st, h->d_flag, seq, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS) {
        gate_leave();
        cudaEventDestroy(e);
        return ECCL_ERR_UNSUPPORTED;
    }
    *ev = (void *)e;
    return ECCL_SUCCESS;
}

extern "C" int eccl_dev_stream_nonblocking(void *stream)
{
    unsigned flags = 0;
    if (!stream || cudaStreamGetFlags((cudaStream_t)stream, &flags) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return (flags & cudaStreamNonBlocking) != 0;
}

extern "C" eccl_result_t eccl_dev_hold_input(void *ev)
{
    return from_cuda(cudaEventSynchronize((cudaEvent_t)ev));
}

extern "C" void eccl_dev_hold_release(eccl_dev_hold_t *h, unsigned seq, void *ev)
{
    __atomic_store_n(h->flag, seq, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (ev && cudaEventDestroy((cudaEvent_t)ev) != cudaSuccess) (void)cudaGetLastError();
    gate_leave();
}
