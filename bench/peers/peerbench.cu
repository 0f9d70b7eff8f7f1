// peerbench.cu - one peer GPU codec on one raw array, for eccl's bench/peers.sh (issue 21's table).
// eccl harness code (not the peer's): the peer's own device API, the array in device memory,
// cudaEvent timing of each call (warm-up first), median of RUNS; writes the reconstruction.
//
//   peerbench_cuszp IN REC f32|f64 EB [RUNS]   cuSZp, 1-D, outlier mode
//   peerbench_fsz   IN REC f32|f64 EB [RUNS]   FSZ (fsz_compress / fsz_decompress, one workspace)
//
// Last line: "PEER codec=.. dtype=.. n=.. bytes=.. cmp_bytes=.. ratio=.. comp_gbs=.. dec_gbs=.."
// (GB/s = uncompressed bytes / median time, 1e9). cuSZp is timed twice: comp_gbs/dec_gbs over its
// kernels launched directly (scratch allocated once: the memsets and the kernel), api_comp_gbs /
// api_dec_gbs around cuSZp_compress / cuSZp_decompress (which cudaMalloc, cudaFree and, compressing,
// copy the size back on every call). FSZ: around fsz_compress (kernels, size read-back, stream
// synchronisation) and fsz_decompress.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>

#if defined(PEER_CUSZP)
#include <cuSZp.h>
struct cz_scratch { unsigned int *cmpOff, *locOff; int *flag; int offs; };
extern "C" int cz_alloc_f32(size_t, cz_scratch *);
extern "C" int cz_alloc_f64(size_t, cz_scratch *);
extern "C" void cz_comp_f32(const void *, unsigned char *, size_t, float, cz_scratch *, cudaStream_t);
extern "C" void cz_comp_f64(const void *, unsigned char *, size_t, float, cz_scratch *, cudaStream_t);
extern "C" size_t cz_size_f32(size_t, cz_scratch *, cudaStream_t);
extern "C" size_t cz_size_f64(size_t, cz_scratch *, cudaStream_t);
extern "C" void cz_dec_f32(void *, const unsigned char *, size_t, float, cz_scratch *, cudaStream_t);
extern "C" void cz_dec_f64(void *, const unsigned char *, size_t, float, cz_scratch *, cudaStream_t);
static const char *codec = "cuszp";
#elif defined(PEER_FSZ)
#include <fsz/fsz.h>
static const char *codec = "fsz";
#else
#error define PEER_CUSZP or PEER_FSZ
#endif

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "peerbench %s: %s: %s\n", codec, #x, cudaGetErrorString(e_)); exit(3); } } while (0)

static cudaStream_t st;
static cudaEvent_t e0, e1;

template <class F> static double median_ms(int runs, F f)
{
    std::vector<float> v;
    for (int r = 0; r < runs; r++) {
        CK(cudaStreamSynchronize(st));
        CK(cudaEventRecord(e0, st));
        f();
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        v.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(v.begin(), v.end());
    return runs % 2 ? v[runs / 2] : 0.5 * (v[runs / 2 - 1] + v[runs / 2]);
}

int main(int argc, char **argv)
{
    if (argc < 5 || (strcmp(argv[3], "f32") && strcmp(argv[3], "f64"))) {
        fprintf(stderr, "usage: peerbench_%s IN REC f32|f64 EB [RUNS]\n", codec);
        return 2;
    }
    const int is64 = !strcmp(argv[3], "f64");
    const double eb = strtod(argv[4], NULL);
    const int runs = argc > 5 ? atoi(argv[5]) : 10;
    const size_t es = is64 ? 8 : 4;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "peerbench: cannot open %s\n", argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    const size_t bytes = (size_t)ftell(f) / es * es, n = bytes / es;
    fseek(f, 0, SEEK_SET);
    void *h = malloc(bytes);
    if (!h || fread(h, 1, bytes, f) != bytes || n == 0) { fprintf(stderr, "peerbench: cannot read %s\n", argv[1]); return 2; }
    fclose(f);
    CK(cudaStreamCreate(&st));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    void *din, *dout;
    unsigned char *dcmp;
    CK(cudaMalloc(&din, bytes));
    CK(cudaMalloc(&dout, bytes));
    CK(cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice));
    size_t cmp = 0;
    double c_ms, d_ms, ac_ms = 0, ad_ms = 0;
#if defined(PEER_CUSZP)
    const size_t cap = bytes + bytes / 4 + (1 << 20); // cuSZp's own CLI gives it `bytes`
    CK(cudaMalloc(&dcmp, cap));
    const cuszp_type_t ty = is64 ? CUSZP_TYPE_DOUBLE : CUSZP_TYPE_FLOAT;
    const uint3 dims = {0, 0, 0};
    const float feb = (float)eb; // cuSZp's API takes a float bound
    // its public API first: timing, size, and the reference for the direct-kernel path
    for (int w = 0; w < 2; w++) {
        cuSZp_compress(din, dcmp, n, &cmp, feb, CUSZP_DIM_1D, dims, ty, CUSZP_MODE_OUTLIER, st);
        cuSZp_decompress(dout, dcmp, n, cmp, feb, CUSZP_DIM_1D, dims, ty, CUSZP_MODE_OUTLIER, st);
    }
    ac_ms = median_ms(runs, [&] { cuSZp_compress(din, dcmp, n, &cmp, feb, CUSZP_DIM_1D, dims, ty, CUSZP_MODE_OUTLIER, st); });
    ad_ms = median_ms(runs, [&] { cuSZp_decompress(dout, dcmp, n, cmp, feb, CUSZP_DIM_1D, dims, ty, CUSZP_MODE_OUTLIER, st); });
    const size_t api_cmp = cmp;
    cz_scratch s;
    if (is64 ? cz_alloc_f64(n, &s) : cz_alloc_f32(n, &s)) { fprintf(stderr, "peerbench cuszp: scratch\n"); return 3; }
    auto comp = [&] { is64 ? cz_comp_f64(din, dcmp, n, feb, &s, st) : cz_comp_f32(din, dcmp, n, feb, &s, st); };
    auto dec = [&] { is64 ? cz_dec_f64(dout, dcmp, n, feb, &s, st) : cz_dec_f32(dout, dcmp, n, feb, &s, st); };
    comp();
    dec();
    c_ms = median_ms(runs, comp);
    cmp = is64 ? cz_size_f64(n, &s, st) : cz_size_f32(n, &s, st);
    if (cmp != api_cmp) fprintf(stderr, "peerbench cuszp: WARNING direct kernels' size %zu != API's %zu\n", cmp, api_cmp);
    d_ms = median_ms(runs, dec);
#else
    const size_t cap = fsz_max_compressed_bytes(n);
    CK(cudaMalloc(&dcmp, cap));
    fsz_workspace_t *ws = NULL;
    fsz_status_t rc = fsz_workspace_create(&ws, n);
    if (rc) { fprintf(stderr, "peerbench fsz: workspace: %s\n", fsz_status_string(rc)); return 3; }
    fsz_compress_result_t r;
    auto comp = [&] {
        rc = is64 ? fsz_compress_f64((const double *)din, dcmp, n, eb, ws, st, &r)
                  : fsz_compress((const float *)din, dcmp, n, (float)eb, ws, st, &r);
    };
    auto dec = [&] {
        rc = is64 ? fsz_decompress_f64((double *)dout, dcmp, n, eb, &r, ws, st)
                  : fsz_decompress((float *)dout, dcmp, n, (float)eb, &r, ws, st);
    };
    for (int w = 0; w < 2; w++) { comp(); dec(); }
    CK(cudaStreamSynchronize(st));
    if (rc) { fprintf(stderr, "peerbench fsz: %s\n", fsz_status_string(rc)); return 3; }
    c_ms = median_ms(runs, comp);
    if (rc) { fprintf(stderr, "peerbench fsz: compress: %s\n", fsz_status_string(rc)); return 3; }
    d_ms = median_ms(runs, dec);
    if (rc) { fprintf(stderr, "peerbench fsz: decompress: %s\n", fsz_status_string(rc)); return 3; }
    cmp = r.cmp_size;
#endif
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h, dout, bytes, cudaMemcpyDeviceToHost));
    f = fopen(argv[2], "wb");
    if (!f || fwrite(h, 1, bytes, f) != bytes || fclose(f)) { fprintf(stderr, "peerbench: cannot write %s\n", argv[2]); return 2; }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device %s, %s, %zu values, ABS %g, median of %d runs\n", p.name, argv[1], n, eb, runs);
    printf("PEER codec=%s dtype=%s n=%zu bytes=%zu cmp_bytes=%zu ratio=%.4f comp_gbs=%.1f dec_gbs=%.1f",
           codec, argv[3], n, bytes, cmp, (double)bytes / (double)cmp, bytes / (c_ms * 1e6), bytes / (d_ms * 1e6));
    if (ac_ms > 0) printf(" api_comp_gbs=%.1f api_dec_gbs=%.1f", bytes / (ac_ms * 1e6), bytes / (ad_ms * 1e6));
    printf("\n");
    return 0;
}
