/*
 * test_stream_device.c - eccl_cuda_comm_set_stream: collectives on device buffers are ordered
 * after the work enqueued on the communicator's stream.
 *
 * Each rank enqueues, on a non-blocking stream and without waiting, a long host-to-device copy
 * (a delay) and then the copy of its input into the device buffer, and calls the collective at
 * once. With the stream set, the call must wait for both copies, so the result is exact within
 * the bound; a call that did not wait would read the buffer before the input lands (zeros).
 * The result must also be complete on return: a copy enqueued on the same stream right after
 * the call reads it. Run at 2 ranks, device-resident and staged (ECCL_DEVICE_RESIDENT=0).
 *   mpiexec -n 2 tests/test_stream_device [--no-stream]
 * --no-stream: do not set the stream (the race the call must not have; expected to FAIL on a
 * GPU, which shows that the test can see it).
 * Skips (77) without the CUDA backend or without a GPU on every rank.
 */
#include "config.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"
#include "eccl_cuda.h"

#ifdef HAVE_CUDA
#include <cuda_runtime.h>

static int rank, size, failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "[rank %d] FAIL: ", rank);                                             \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define CU(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "[rank %d] %s: %s\n", rank, #call, cudaGetErrorString(e_));            \
            MPI_Abort(MPI_COMM_WORLD, 3);                                                          \
        }                                                                                          \
    } while (0)

static double value(int r, size_t i) { return sin((double)i * 1e-3) * cos((double)i * 3e-4) + 0.25 * r; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int set = !(argc > 1 && !strcmp(argv[1], "--no-stream"));
    int ndev = 0, ok = cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        if (rank == 0) printf("SKIP: test_stream_device needs a CUDA GPU on every rank\n");
        MPI_Finalize();
        return 77;
    }
    CU(cudaSetDevice(rank % ndev));
    const size_t n = (size_t)4 << 20, delay_bytes = (size_t)512 << 20; /* 16 MiB of float32, a 512 MiB delay */
    float *h_in, *h_out, *d_x, *d_y;
    void *h_delay, *d_delay;
    CU(cudaMallocHost((void **)&h_in, n * sizeof(float)));
    CU(cudaMallocHost((void **)&h_out, n * sizeof(float)));
    CU(cudaMallocHost(&h_delay, delay_bytes));
    CU(cudaMalloc((void **)&d_x, n * sizeof(float)));
    CU(cudaMalloc((void **)&d_y, n * sizeof(float)));
    CU(cudaMalloc(&d_delay, delay_bytes));
    memset(h_delay, 0, delay_bytes);
    cudaStream_t s;
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    eccl_comm_t comm;
    eccl_config_t cfg = ECCL_CONFIG_INITIALIZER;
    cfg.alpha = 1e-6;
    cfg.beta = 1e-9;
    if (eccl_comm_create(MPI_COMM_WORLD, &cfg, &comm)) MPI_Abort(MPI_COMM_WORLD, 2);
    CHECK(eccl_cuda_comm_set_stream(NULL, s) == ECCL_ERR_INVALID_ARG, "NULL comm accepted");
    if (set) CHECK(eccl_cuda_comm_set_stream(comm, s) == ECCL_SUCCESS, "eccl_cuda_comm_set_stream");
    const double E = 1e-3;
    eccl_bound_t b = {ECCL_MODE_ABS, E, 0};
    const char *algos[][2] = {{"allreduce", "ring"}, {"allreduce", "mpi"}, {"bcast", "binomial"}, {"bcast", "mpi"}};
    for (unsigned k = 0; k < sizeof algos / sizeof *algos; k++) {
        int is_bcast = !strcmp(algos[k][0], "bcast");
        eccl_comm_set_algorithm(comm, algos[k][0], algos[k][1]);
        for (size_t i = 0; i < n; i++) h_in[i] = (float)value(rank, i);
        CU(cudaMemset(d_x, 0, n * sizeof(float)));
        CU(cudaMemset(d_y, 0, n * sizeof(float)));
        CU(cudaDeviceSynchronize());
        MPI_Barrier(MPI_COMM_WORLD);
        /* the input arrives late on the stream; the call is made at once */
        CU(cudaMemcpyAsync(d_delay, h_delay, delay_bytes, cudaMemcpyHostToDevice, s));
        CU(cudaMemcpyAsync(d_x, h_in, n * sizeof(float), cudaMemcpyHostToDevice, s));
        eccl_result_t rc = is_bcast ? eccl_bcast(d_x, n, ECCL_FLOAT32, 0, &b, comm)
                                    : eccl_allreduce(d_x, d_y, n, ECCL_FLOAT32, ECCL_OP_SUM, &b, comm);
        CHECK(rc == ECCL_SUCCESS, "%s/%s: %s (%s)", algos[k][0], algos[k][1], eccl_strerror(rc),
              eccl_comm_last_error(comm));
        eccl_stats_t st;
        eccl_comm_last_stats(comm, &st);
        /* complete on return: a copy enqueued on the stream now reads the result */
        CU(cudaMemcpyAsync(h_out, is_bcast ? d_x : d_y, n * sizeof(float), cudaMemcpyDeviceToHost, s));
        CU(cudaStreamSynchronize(s));
        size_t bad = 0;
        double worst = 0;
        for (size_t i = 0; i < n; i++) {
            long double ref = 0, sabs = 0; /* the guarantee of doc/guarantees.md, section 5 */
            if (is_bcast) ref = (float)value(0, i);
            else
                for (int r = 0; r < size; r++) {
                    ref += (float)value(r, i);
                    sabs += fabsl((long double)(float)value(r, i));
                }
            long double allow = is_bcast ? E : E + (size + 2) * 0x1p-24L * (sabs + size * E);
            long double err = fabsl((long double)h_out[i] - ref);
            if (!(err <= allow)) bad++;
            if ((double)(err / allow) > worst) worst = (double)(err / allow);
        }
        CHECK(bad == 0, "%s/%s (%s, device %d): %zu of %zu values out of bound (worst error/bound %.3g)%s",
              algos[k][0], algos[k][1], st.algorithm, st.device, bad, n, worst,
              set ? "" : " [--no-stream: expected]");
    }
    /* no stream again: a plain call after the caller synchronised */
    CHECK(eccl_cuda_comm_set_stream(comm, NULL) == ECCL_SUCCESS, "unset");
    CU(cudaMemcpy(d_x, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(eccl_bcast(d_x, n, ECCL_FLOAT32, 0, &b, comm) == ECCL_SUCCESS, "bcast without a stream");
    eccl_comm_free(&comm);
    CU(cudaStreamDestroy(s));
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    cudaFreeHost(h_delay);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_delay);
    int tot = 0;
    MPI_Allreduce(&failures, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_stream_device on %d ranks (%s): %d failures\n", size, set ? "stream set" : "--no-stream", tot);
    MPI_Finalize();
    return tot ? 1 : 0;
}
#else
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    eccl_comm_t comm;
    int rc = 0;
    if (eccl_comm_create(MPI_COMM_WORLD, NULL, &comm) == ECCL_SUCCESS) {
        /* without the CUDA backend the call exists and says so */
        rc = eccl_cuda_comm_set_stream(comm, NULL) != ECCL_ERR_UNSUPPORTED;
        eccl_comm_free(&comm);
    }
    if (rank == 0) printf(rc ? "FAIL: eccl_cuda_comm_set_stream did not return ECCL_ERR_UNSUPPORTED\n"
                             : "SKIP: built without the CUDA backend\n");
    MPI_Finalize();
    return rc ? 1 : 77;
}
#endif
