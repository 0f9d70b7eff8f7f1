/*
 * test_blacs_device.c - the BLACS drop-ins on CUDA device arrays (MPI program, any grid).
 *
 * eccl_[sd]gebs2d / gebr2d and eccl_[sd]gsum2d on a strided m x n block (lda > m) of device
 * memory must leave, bit for bit, what the same calls leave in a host array (the same algorithm
 * runs on the same data: force one with ECCL_<OP>_ALGORITHM, as tests/blacs_device_2x2.mpi does,
 * since the cost model may choose differently for device data), including the untouched rows
 * between m and lda; received blocks are checked against the bound; gamx2d refuses a device array
 * with INFO -6. The panel broadcasts likewise (workspaces bit for bit), and A and WORK in
 * different memory spaces give INFO -7. A large panel broadcast must be complete when the call
 * returns, also for a reader on a non-blocking stream (nothing left in flight on the default
 * stream: summa --device reads the workspaces from its cuBLAS stream). Skips (77) when not every
 * rank has a usable GPU.
 *
 * Usage: mpiexec -n 4 tests/test_blacs_device
 */
#include "config.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "eccl.h"
#include "eccl_cuda.h"
#include "testutil_mpi.h"
#include "eccl_scalapack.h"

/* BLACS' C interface (ScaLAPACK 2.x, LP64). */
void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ictxt, int what, int *val);
void Cblacs_gridinit(int *ictxt, char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ictxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ictxt);

static int rank, failures, checks;
/* The block of the drop-in calls: 37 x 5 in a 41-row array, then a block of several tiles whose
 * columns cross tile boundaries (3001 x 7 in 3003 rows). */
static int M = 37, N = 5, LDA = 41;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "[%d] %s:%d: ", rank, __FILE__, __LINE__);                             \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* Element (i, j) of process (pr, pc)'s block: smooth, different per process; padding rows NaN-free
 * junk that must survive untouched. */
static double value(int pr, int pc, int i, int j, int variant)
{
    if (i >= M) return 1000.0 + i + 100.0 * j + variant;
    return sin(0.05 * i + 0.3 * j + 0.7 * pr + 0.11 * variant) + cos(0.2 * pc + 0.01 * i * j);
}

static void fill(void *a, int is64, int pr, int pc, int variant)
{
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++) {
            double v = value(pr, pc, i, j, variant);
            if (is64) ((double *)a)[i + (size_t)j * LDA] = v;
            else ((float *)a)[i + (size_t)j * LDA] = (float)v;
        }
}

/* One drop-in call on the host array h and on the device array d (same contents), then compare. */
typedef int (*call_fn)(int is64, void *a, int ictxt, int myrow, int mycol, const eccl_bound_t *b);

static void both(const char *what, call_fn f, int is64, int ictxt, int myrow, int mycol, int variant,
                 const eccl_bound_t *b, int check_src_row, int check_src_col)
{
    size_t es = is64 ? 8 : 4, bytes = (size_t)LDA * N * es;
    unsigned char *h = malloc(bytes), *back = malloc(bytes);
    void *d = NULL;
    if (!h || !back || eccl_cuda_malloc(&d, bytes)) MPI_Abort(MPI_COMM_WORLD, 2);
    fill(h, is64, myrow, mycol, variant);
    if (eccl_cuda_memcpy(d, h, bytes)) MPI_Abort(MPI_COMM_WORLD, 2);
    int ih = f(is64, h, ictxt, myrow, mycol, b);
    int id = f(is64, d, ictxt, myrow, mycol, b);
    if (eccl_cuda_memcpy(back, d, bytes)) MPI_Abort(MPI_COMM_WORLD, 2);
    CHECK(ih == 0 && id == 0, "%s %s: INFO host %d, device %d", what, is64 ? "d" : "s", ih, id);
    CHECK(!memcmp(h, back, bytes), "%s %s: the device array differs from the host array", what, is64 ? "d" : "s");
    if (check_src_row >= 0) { /* a received block: within E of the source's */
        double worst = 0;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < M; i++) {
                double want = value(check_src_row, check_src_col, i, j, variant);
                double got = is64 ? ((double *)back)[i + (size_t)j * LDA] : ((float *)back)[i + (size_t)j * LDA];
                if (!is64) want = (float)want;
                double e = fabs(got - want);
                worst = e > worst ? e : worst;
            }
        CHECK(worst <= b->value, "%s %s: error %g over the bound %g", what, is64 ? "d" : "s", worst, b->value);
    }
    eccl_cuda_free(d);
    free(h);
    free(back);
}

/* Row broadcast from column 0 (gebs2d there, gebr2d elsewhere). */
static int row_bcast(int is64, void *a, int ictxt, int myrow, int mycol, const eccl_bound_t *b)
{
    if (mycol == 0)
        return is64 ? eccl_dgebs2d(ictxt, "R", " ", M, N, a, LDA, b) : eccl_sgebs2d(ictxt, "R", " ", M, N, a, LDA, b);
    return is64 ? eccl_dgebr2d(ictxt, "R", " ", M, N, a, LDA, myrow, 0, b)
                : eccl_sgebr2d(ictxt, "R", " ", M, N, a, LDA, myrow, 0, b);
}

/* Whole-grid broadcast from (0, 0). */
static int all_bcast(int is64, void *a, int ictxt, int myrow, int mycol, const eccl_bound_t *b)
{
    if (myrow == 0 && mycol == 0)
        return is64 ? eccl_dgebs2d(ictxt, "A", " ", M, N, a, LDA, b) : eccl_sgebs2d(ictxt, "A", " ", M, N, a, LDA, b);
    return is64 ? eccl_dgebr2d(ictxt, "A", " ", M, N, a, LDA, 0, 0, b) : eccl_sgebr2d(ictxt, "A", " ", M, N, a, LDA, 0, 0, b);
}

/* Column sum left everywhere, then a row sum onto column 0. */
static int col_sum(int is64, void *a, int ictxt, int myrow, int mycol, const eccl_bound_t *b)
{
    (void)myrow, (void)mycol;
    return is64 ? eccl_dgsum2d(ictxt, "C", " ", M, N, a, LDA, -1, -1, b)
                : eccl_sgsum2d(ictxt, "C", " ", M, N, a, LDA, -1, -1, b);
}
static int row_sum_to0(int is64, void *a, int ictxt, int myrow, int mycol, const eccl_bound_t *b)
{
    (void)mycol;
    return is64 ? eccl_dgsum2d(ictxt, "R", " ", M, N, a, LDA, myrow, 0, b)
                : eccl_sgsum2d(ictxt, "R", " ", M, N, a, LDA, myrow, 0, b);
}

/* ScaLAPACK's numroc: local rows/columns of process p for n items in blocks of nb from src. */
static int numroc(int n, int nb, int p, int src, int np)
{
    int dist = (np + p - src) % np, nblocks = n / nb, r = (nblocks / np) * nb, extra = nblocks % np;
    if (dist < extra) r += nb;
    else if (dist == extra) r += n % nb;
    return r;
}

/* The panel broadcasts on a 60 x 48 matrix in 8 x 6 blocks (MB != NB), panels not block-aligned
 * in rows, padded LLD and workspaces: host and device arrays must give the same workspace bits. */
static void panels(int ictxt, int nprow, int npcol, int myrow, int mycol, int is64, const eccl_bound_t *b)
{
    enum { GM = 60, GN = 48, MB = 8, NB = 6 };
    size_t es = is64 ? 8 : 4;
    int lld = numroc(GM, MB, myrow, 0, nprow) + 2, lcols = numroc(GN, NB, mycol, 0, npcol);
    int desc[9] = {1, ictxt, GM, GN, MB, NB, 0, 0, lld};
    size_t abytes = (size_t)lld * (lcols > 0 ? lcols : 1) * es;
    int ldw_c = lld + 3, kb_c = 6, ldw_r = 7, kb_r = 5;
    size_t wbytes_c = (size_t)ldw_c * kb_c * es, wbytes_r = (size_t)ldw_r * (lcols > 0 ? lcols : 1) * es;
    unsigned char *a = malloc(abytes), *w = malloc(wbytes_c > wbytes_r ? wbytes_c : wbytes_r),
                  *back = malloc(wbytes_c > wbytes_r ? wbytes_c : wbytes_r);
    void *da = NULL, *dw = NULL;
    if (!a || !w || !back || eccl_cuda_malloc(&da, abytes) || eccl_cuda_malloc(&dw, wbytes_c > wbytes_r ? wbytes_c : wbytes_r))
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t k = 0; k < abytes / es; k++) {
        double v = sin(0.01 * (double)k + myrow + 3.0 * mycol);
        if (is64) ((double *)a)[k] = v;
        else ((float *)a)[k] = (float)v;
    }
    if (eccl_cuda_memcpy(da, a, abytes)) MPI_Abort(MPI_COMM_WORLD, 2);
    eccl_dtype_t dt = is64 ? ECCL_FLOAT64 : ECCL_FLOAT32;
    for (int col = 1; col >= 0; col--) {
        size_t wbytes = col ? wbytes_c : wbytes_r;
        memset(w, 0x3C, wbytes); /* junk that the padding rows must keep */
        if (eccl_cuda_memcpy(dw, w, wbytes)) MPI_Abort(MPI_COMM_WORLD, 2);
        int ih = col ? eccl_panel_bcast_col(50, kb_c, a, 3, 7, desc, w, ldw_c, b, dt)
                     : eccl_panel_bcast_row(kb_r, 40, a, 9, 4, desc, w, ldw_r, b, dt);
        int id = col ? eccl_panel_bcast_col(50, kb_c, da, 3, 7, desc, dw, ldw_c, b, dt)
                     : eccl_panel_bcast_row(kb_r, 40, da, 9, 4, desc, dw, ldw_r, b, dt);
        if (eccl_cuda_memcpy(back, dw, wbytes)) MPI_Abort(MPI_COMM_WORLD, 2);
        CHECK(ih == 0 && id == 0, "panel %s %s: INFO host %d, device %d", col ? "column" : "row", is64 ? "d" : "s", ih, id);
        CHECK(!memcmp(w, back, wbytes), "panel %s %s: the device workspace differs from the host one",
              col ? "column" : "row", is64 ? "d" : "s");
    }
    /* A on the device and WORK on the host on the owner: INFO -7, agreed by every process */
    int owner = (0 + 6 / NB) % npcol == mycol; /* the owner column of global column 7 */
    int info = eccl_panel_bcast_col(50, kb_c, owner ? da : a, 3, 7, desc, w, ldw_c, b, dt);
    CHECK(info == -7, "panel with A and WORK in different memory spaces: INFO %d, expected -7 (everywhere)", info);
    eccl_cuda_free(da);
    eccl_cuda_free(dw);
    free(a);
    free(w);
    free(back);
}

/* A 2^20-row column panel (8 columns of float64, a workspace with a padding row, so the receivers
 * unpack and the owner copies: device-to-device 2-D copies of tens of MB) must be complete on
 * return: nothing left running on the legacy default stream, and a read of the workspace on a
 * non-blocking stream (which does not wait for the default stream) gives the host call's bits. */
static void done_on_return(int ictxt, int nprow, int npcol, int myrow, int mycol, const eccl_bound_t *b)
{
#ifdef HAVE_CUDA
    enum { GM = 1 << 20, GN = 16, MB = 1 << 16, NB = 8, KB = 8 };
    int lld = numroc(GM, MB, myrow, 0, nprow), lcols = numroc(GN, NB, mycol, 0, npcol);
    int desc[9] = {1, ictxt, GM, GN, MB, NB, 0, 0, lld}, ldw = lld + 1;
    size_t abytes = (size_t)lld * (lcols > 0 ? lcols : 1) * 8, wbytes = (size_t)ldw * KB * 8;
    double *a = malloc(abytes), *w = malloc(wbytes), *back = NULL;
    void *da = NULL, *dw = NULL;
    cudaStream_t st;
    if (!a || !w || eccl_cuda_malloc(&da, abytes) || eccl_cuda_malloc(&dw, wbytes) ||
        cudaMallocHost((void **)&back, wbytes) != cudaSuccess ||
        cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t k = 0; k < abytes / 8; k++) a[k] = sin(1e-5 * (double)k + myrow) + 0.5 * mycol;
    memset(w, 0x3C, wbytes);
    if (eccl_cuda_memcpy(da, a, abytes) || eccl_cuda_memcpy(dw, w, wbytes)) MPI_Abort(MPI_COMM_WORLD, 2);
    int ih = eccl_panel_bcast_col(GM, KB, a, 1, 1, desc, w, ldw, b, ECCL_FLOAT64);
    int id = eccl_panel_bcast_col(GM, KB, da, 1, 1, desc, dw, ldw, b, ECCL_FLOAT64);
    cudaError_t q = cudaStreamQuery(cudaStreamLegacy);
    CHECK(q == cudaSuccess, "large panel: work still in flight on the default stream after the call returned (%s)",
          cudaGetErrorName(q));
    if (cudaMemcpyAsync(back, dw, wbytes, cudaMemcpyDeviceToHost, st) != cudaSuccess ||
        cudaStreamSynchronize(st) != cudaSuccess)
        MPI_Abort(MPI_COMM_WORLD, 2);
    CHECK(ih == 0 && id == 0, "large panel: INFO host %d, device %d", ih, id);
    CHECK(!memcmp(w, back, wbytes), "large panel: the workspace read on a non-blocking stream right after the "
                                    "call differs from the host call's");
    cudaDeviceSynchronize();
    cudaStreamDestroy(st);
    cudaFreeHost(back);
    eccl_cuda_free(da);
    eccl_cuda_free(dw);
    free(a);
    free(w);
#else
    (void)ictxt, (void)nprow, (void)npcol, (void)myrow, (void)mycol, (void)b;
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (!tu_mpi_use_gpu(rank, "BLACS calls on device arrays")) {
        MPI_Finalize();
        return 77;
    }
    int me, nprocs, ictxt, nprow = np % 2 == 0 ? 2 : 1, npcol, myrow, mycol;
    npcol = np / nprow;
    Cblacs_pinfo(&me, &nprocs);
    Cblacs_get(0, 0, &ictxt);
    Cblacs_gridinit(&ictxt, "R", nprow, npcol);
    Cblacs_gridinfo(ictxt, &nprow, &npcol, &myrow, &mycol);
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
    for (int is64 = 0; is64 < 2; is64++) {
        both("row bcast", row_bcast, is64, ictxt, myrow, mycol, 1, &b, mycol ? myrow : -1, 0);
        both("grid bcast", all_bcast, is64, ictxt, myrow, mycol, 2, &b, myrow || mycol ? 0 : -1, 0);
        both("column sum", col_sum, is64, ictxt, myrow, mycol, 3, &b, -1, -1);
        both("row sum to column 0", row_sum_to0, is64, ictxt, myrow, mycol, 4, &b, -1, -1);
        panels(ictxt, nprow, npcol, myrow, mycol, is64, &b);
    }
    M = 3001, N = 7, LDA = 3003; /* several tiles, columns across tile boundaries */
    for (int is64 = 0; is64 < 2; is64++) {
        both("large row bcast", row_bcast, is64, ictxt, myrow, mycol, 5, &b, mycol ? myrow : -1, 0);
        both("large column sum", col_sum, is64, ictxt, myrow, mycol, 6, &b, -1, -1);
        both("large row sum to column 0", row_sum_to0, is64, ictxt, myrow, mycol, 7, &b, -1, -1);
    }
    M = 37, N = 5, LDA = 41;
    done_on_return(ictxt, nprow, npcol, myrow, mycol, &b);
    /* gamx2d forms magnitude pairs on the host: a device array is refused, without communicating */
    void *d = NULL;
    if (eccl_cuda_malloc(&d, (size_t)LDA * N * 8)) MPI_Abort(MPI_COMM_WORLD, 2);
    int info = eccl_dgamx2d(ictxt, "A", " ", M, N, d, LDA, NULL, NULL, -1, -1, -1, &b);
    CHECK(info == -6, "gamx2d of a device array: INFO %d, expected -6", info);
    eccl_cuda_free(d);
    Cblacs_gridexit(ictxt);
    int tot = 0;
    MPI_Allreduce(&failures, &tot, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_blacs_device: %d x %d grid, %d checks on rank 0, %d failures\n", nprow, npcol, checks, tot);
    MPI_Finalize();
    return tot ? 1 : 0;
}
