/*
 * test_cuda_codec.c - the GPU codec against the CPU codec (the specification's reference): the
 * same bytes for the same input and parameters, the same values when decoding, the same verdict
 * on corrupted streams. Skips with a message when there is no CUDA backend or no GPU.
 */
#include "config.h"

#include <cuda_runtime_api.h>

#include "cuda/device.h"
#include "eccl_cuda.h"
#include "testutil.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

static void fix_checksum(unsigned char *s, size_t size)
{
    uint64_t sum = 0;
    for (uint64_t k = 0; k < size / 8; k++) {
        uint64_t w;
        memcpy(&w, s + 8 * k, 8);
        if (k == 7) w = 0;
        uint64_t z = w + k * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        sum += z ^ (z >> 31);
    }
    memcpy(s + 56, &sum, 8);
}

typedef struct {
    eccl_cuda_codec_t codec;
    void *dx, *dy, *ds;
    size_t cap_elems, cap_stream;
} gpu_t;

static void gpu_reserve(gpu_t *g, size_t count, eccl_dtype_t dt)
{
    size_t bytes = count * eccl_dtype_size(dt) + 64, sb = eccl_compress_bound(count, dt);
    if (bytes > g->cap_elems) {
        cudaFree(g->dx);
        cudaFree(g->dy);
        if (cudaMalloc(&g->dx, bytes) || cudaMalloc(&g->dy, bytes)) exit(99);
        g->cap_elems = bytes;
    }
    if (sb > g->cap_stream) {
        cudaFree(g->ds);
        if (cudaMalloc(&g->ds, sb)) exit(99);
        g->cap_stream = sb;
    }
}

static long streams, bytes_compared;

/* The GPU codec against the CPU codec on the count elements at x (named `what` in messages):
 * compression bytes, decoding, and the verdicts on corrupted copies of the stream. */
static void compare_case(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, const void *x,
                         const char *what, tu_rng *rng)
{
    size_t esz = eccl_dtype_size(dt);
    size_t cap = eccl_compress_bound(count, dt), size = 0, gsize = 0;
    void *y = tu_malloc(count * esz), *z = tu_malloc(count * esz);
    unsigned char *s = tu_malloc(cap), *gs = tu_malloc(cap);
    gpu_reserve(g, count, dt);
    cudaMemcpy(g->dx, x, count * esz, cudaMemcpyHostToDevice);
    eccl_result_t rc = eccl_compress(x, count, dt, b, s, cap, &size);
    TU_CHECK(rc == ECCL_SUCCESS, "cpu compress: %s", eccl_strerror(rc));
    rc = eccl_cuda_compress(g->codec, g->dx, count, dt, b, g->ds, g->cap_stream, NULL, &gsize, NULL);
    TU_CHECK(rc == ECCL_SUCCESS, "gpu compress: %s", eccl_strerror(rc));
    cudaMemcpy(gs, g->ds, gsize < cap ? gsize : cap, cudaMemcpyDeviceToHost);
    int same = gsize == size && memcmp(s, gs, size) == 0;
    if (!same) {
        size_t k = 0;
        while (k < size && k < gsize && s[k] == gs[k]) k++;
        TU_CHECK(0, "GPU stream differs from the CPU's: %s %s mode %d %g n=%zu: sizes %zu/%zu, first difference at byte %zu",
                 eccl_dtype_name(dt), what, b->mode, b->value, count, gsize, size, k);
    }
    streams++;
    bytes_compared += (long)size;
    /* decode the CPU stream on the GPU: the values must equal the CPU's decode bit for bit */
    rc = eccl_decompress(s, size, y, count, dt);
    TU_CHECK(rc == ECCL_SUCCESS, "cpu decompress: %s", eccl_strerror(rc));
    cudaMemcpy(g->ds, s, size, cudaMemcpyHostToDevice);
    rc = eccl_cuda_decompress(g->codec, g->ds, size, g->dy, count, dt, 1, NULL);
    TU_CHECK(rc == ECCL_SUCCESS, "gpu decompress: %s (%s %s n=%zu)", eccl_strerror(rc), eccl_dtype_name(dt), what,
             count);
    cudaMemcpy(z, g->dy, count * esz, cudaMemcpyDeviceToHost);
    TU_CHECK(memcmp(y, z, count * esz) == 0, "GPU decode differs from the CPU's: %s %s n=%zu", eccl_dtype_name(dt),
             what, count);
    /* corruptions with the checksum repaired: both codecs give the same verdict */
    for (int trial = 0; trial < 6 && size > 80; trial++) {
        unsigned char *c = tu_malloc(size);
        memcpy(c, s, size);
        size_t pos = 64 + tu_next(rng) % (size - 64);
        c[pos] ^= (unsigned char)(1u << (tu_next(rng) % 8));
        if (trial % 3) fix_checksum(c, size);
        eccl_result_t r1 = eccl_decompress(c, size, y, count, dt);
        cudaMemcpy(g->ds, c, size, cudaMemcpyHostToDevice);
        eccl_result_t r2 = eccl_cuda_decompress(g->codec, g->ds, size, g->dy, count, dt, 1, NULL);
        TU_CHECK((r1 == ECCL_SUCCESS) == (r2 == ECCL_SUCCESS),
                 "verdicts differ on a corrupted stream (byte %zu): cpu %s, gpu %s", pos, eccl_strerror(r1),
                 eccl_strerror(r2));
        if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS) {
            cudaMemcpy(z, g->dy, count * esz, cudaMemcpyDeviceToHost);
            TU_CHECK(memcmp(y, z, count * esz) == 0, "values differ on an accepted corrupted stream");
        }
        free(c);
    }
    free(y);
    free(z);
    free(s);
    free(gs);
}

static void one_case(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, int pat, tu_rng *rng)
{
    int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
    size_t reals = count * (dt >= ECCL_COMPLEX64 ? 2 : 1);
    void *x = tu_malloc(count * eccl_dtype_size(dt));
    tu_fill(x, reals, is64, pat, count + 17);
    compare_case(g, dt, b, count, x, tu_pattern_name[pat], rng);
    free(x);
}

/* One stream whose tiles take different paths of the 64-bit compression kernel (compress64.cu):
 * smooth tiles (thread-per-block), a tile with a NaN, one with an integer beyond 2^30 quanta, one
 * whose last block cannot be QUANT, each beside smooth ones, for every 64-bit type and a few
 * lengths (a tile is 8192 reals). Also float32, whose kernel has no such split. */
static void mixed_tiles_cases(gpu_t *g, tu_rng *rng)
{
    const eccl_dtype_t dts[] = {ECCL_FLOAT64, ECCL_COMPLEX128, ECCL_FLOAT32};
    const size_t lens[] = {8192 * 6, 8192 * 6 + 1, 8192 * 6 + 33, 8192 * 5 + 8191};
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    for (unsigned d = 0; d < 3; d++)
        for (unsigned li = 0; li < 4; li++) {
            const int is64 = dts[d] != ECCL_FLOAT32, cplx = dts[d] == ECCL_COMPLEX128;
            const size_t reals = lens[li], count = reals / (cplx ? 2 : 1);
            double *v = tu_malloc(reals * sizeof *v);
            for (size_t i = 0; i < reals; i++) v[i] = sin((double)i * 0.002) * 3.0 + 1e-3 * (double)(i % 5);
            v[8192 * 1 + 700] = NAN;                 /* tile 1: a RAW block */
            v[8192 * 2 + 4000] = 4e5;                /* tile 2: 2e9 quanta, beyond 2^30 */
            v[8192 * 3 + 31] = -1e5;                 /* tile 3: 5e8 quanta, within 2^30 */
            /* tile 4: about +-1e9 quanta in turn, deltas of 31 bits (45 planes for the 64-bit types) */
            for (size_t i = 8192 * 4; i < 8192 * 4 + 64; i++) v[i] = (i & 1) ? 2e5 : -2e5;
            v[reals - 1] = (li & 1) ? 7e4 : v[reals - 1]; /* a short last block with a large step */
            void *x = tu_malloc(reals * (is64 ? 8 : 4));
            for (size_t i = 0; i < reals; i++) {
                if (is64) ((double *)x)[i] = v[i];
                else ((float *)x)[i] = (float)v[i];
            }
            char what[64];
            snprintf(what, sizeof what, "mixed tiles (%zu reals)", reals);
            compare_case(g, dts[d], &b, count, x, what, rng);
            free(x);
            free(v);
        }
}

/* The fused homomorphic kernel against eccl_hom_reduce: same bytes, same verdict on corrupted
 * input streams. x gives the stream, y the local array (both host arrays of count elements). */
static long homs;

static void hom_case(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, const void *x, const void *y,
                     eccl_op_t op, tu_rng *rng, const char *what)
{
    size_t esz = eccl_dtype_size(dt), cap = eccl_compress_bound(count, dt), size = 0, o1 = 0, o2 = 0;
    unsigned char *s = tu_malloc(cap), *out = tu_malloc(cap), *gout = tu_malloc(cap);
    void *dout = NULL;
    if (cudaMalloc(&dout, cap)) exit(99);
    gpu_reserve(g, count, dt);
    eccl_result_t rc = eccl_compress(x, count, dt, b, s, cap, &size);
    TU_CHECK(rc == ECCL_SUCCESS, "cpu compress: %s", eccl_strerror(rc));
    /* a chain: the stream may already be a sum (nsum 2), as in a ring */
    if (rng && tu_next(rng) % 2 && op == ECCL_OP_SUM) {
        unsigned char *s2 = tu_malloc(cap);
        size_t sz2 = 0;
        rc = eccl_hom_reduce(s, size, y, count, dt, op, s2, cap, &sz2);
        if (rc == ECCL_SUCCESS) {
            memcpy(s, s2, sz2);
            size = sz2;
        }
        free(s2);
    }
    for (int trial = -1; trial < 4; trial++) {
        unsigned char *in = tu_malloc(size);
        memcpy(in, s, size);
        size_t pos = 0;
        if (trial >= 0) { /* corruptions, the checksum repaired in most */
            if (size <= 80) {
                free(in);
                break;
            }
            pos = 64 + tu_next(rng) % (size - 64);
            in[pos] ^= (unsigned char)(1u << (tu_next(rng) % 8));
            if (trial % 2 == 0) fix_checksum(in, size);
        }
        if (getenv("ECCL_TEST_VERBOSE"))
            printf("  hom %s n=%zu op %d trial %d byte %zu size %zu\n", what, count, (int)op, trial, pos, size);
        eccl_result_t r1 = eccl_hom_reduce(in, size, y, count, dt, op, out, cap, &o1);
        cudaMemcpy(g->ds, in, size, cudaMemcpyHostToDevice);
        cudaMemcpy(g->dx, y, count * esz, cudaMemcpyHostToDevice);
        if (getenv("ECCL_TEST_VERBOSE")) printf("  cpu %d\n", (int)r1);
        eccl_result_t r2 = eccl_cuda_hom_reduce(g->codec, g->ds, size, g->dx, count, dt, op, dout, cap, NULL, NULL, NULL);
        if (getenv("ECCL_TEST_VERBOSE")) printf("  launched %d\n", (int)r2);
        if (r2 == ECCL_SUCCESS) r2 = eccl_cuda_codec_check(g->codec, NULL);
        if (getenv("ECCL_TEST_VERBOSE")) printf("  checked %d\n", (int)r2);
        if (r2 == ECCL_SUCCESS) {
            unsigned long long hs = 0;
            cudaMemcpy(&hs, (const char *)dout + 48, 8, cudaMemcpyDeviceToHost);
            o2 = (size_t)hs;
        }
        TU_CHECK((r1 == ECCL_SUCCESS) == (r2 == ECCL_SUCCESS), "hom %s %s n=%zu op %d trial %d (byte %zu): cpu %s, gpu %s",
                 what, eccl_dtype_name(dt), count, (int)op, trial, pos, eccl_strerror(r1), eccl_strerror(r2));
        if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS) {
            cudaMemcpy(gout, dout, o2 < cap ? o2 : cap, cudaMemcpyDeviceToHost);
            size_t k = 0;
            while (k < o1 && k < o2 && out[k] == gout[k]) k++;
            TU_CHECK(o1 == o2 && k == o1, "hom %s %s n=%zu op %d mode %d %g trial %d: GPU stream differs (sizes %zu/%zu, byte %zu)",
                     what, eccl_dtype_name(dt), count, (int)op, b->mode, b->value, trial, o2, o1, k);
            homs++;
        }
        free(in);
    }
    cudaFree(dout);
    free(s);
    free(out);
    free(gout);
}

static void hom_cases(gpu_t *g, int quick, tu_rng *rng)
{
    /* (1 << 21) + 3 float32 values are 257 tiles: more than any GPU has SMs, so the 256-thread
     * kernels run (streams of no more tiles than SMs take 1024-thread CTAs) */
    const size_t sizes[] = {0, 1, 31, 33, 8191, 8193, 100003, (1u << 20) + 5, (1u << 21) + 3};
    eccl_bound_t bounds[] = {{ECCL_MODE_ABS, 1e-4, 0}, {ECCL_MODE_ABS, 1e-1, 0}, {ECCL_MODE_ABS, 1e-13, 0},
                             {ECCL_MODE_REL, 1e-3, 12.5}, {ECCL_MODE_LOSSLESS, 0, 0}, {ECCL_MODE_ABS, 0.5, 0}};
    const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_COMPLEX64, ECCL_FLOAT64, ECCL_COMPLEX128};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned bi = 0; bi < sizeof bounds / sizeof *bounds; bi++)
            for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++) {
                printf("hom: %s mode %d %g n=%zu\n", eccl_dtype_name(dts[d]), bounds[bi].mode, bounds[bi].value, sizes[si]);
                for (int pat = 0; pat < TU_NPATTERNS; pat++) {
                    const int cplx = dts[d] == ECCL_COMPLEX64 || dts[d] == ECCL_COMPLEX128, is64 = dts[d] == ECCL_FLOAT64 || dts[d] == ECCL_COMPLEX128;
                    size_t count = sizes[si], reals = count * (cplx ? 2 : 1);
                    if (getenv("ECCL_TEST_HOM_N") && count != strtoul(getenv("ECCL_TEST_HOM_N"), NULL, 10)) continue;
                    if (count > 100000 && (quick || pat % 4)) continue;
                    void *x = tu_malloc(reals * 8 + 8), *y = tu_malloc(reals * 8 + 8);
                    tu_fill(x, reals, is64, pat, count + 5);
                    tu_fill(y, reals, is64, (pat + 3) % TU_NPATTERNS, count + 9);
                    for (int op = 0; op < (cplx ? 1 : 3); op++)
                        hom_case(g, dts[d], &bounds[bi], count, x, y, (eccl_op_t)op, rng, tu_pattern_name[pat]);
                    free(x);
                    free(y);
                }
            }
    /* sums that leave [-QMAX, QMAX]: values near QMAX * D in both inputs (exact RAW results) */
    size_t n = 20000;
    float *x = tu_malloc(n * 4), *y = tu_malloc(n * 4);
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-6, 0};
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)(1500.0 + 700.0 * sin(i * 0.01));
        y[i] = (float)(i % 64 < 32 ? 1500.0 + 600.0 * cos(i * 0.02) : -3.0 + 1e-3 * i);
    }
    for (int op = 0; op < 3; op++) hom_case(g, ECCL_FLOAT32, &b, n, x, y, (eccl_op_t)op, rng, "near-qmax");
    free(x);
    free(y);
    /* the same for float64: QMAX64 * D = (2^44 - 1) * 2e-6, about 3.5e7 */
    double *xd = tu_malloc(n * 8), *yd = tu_malloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        xd[i] = 2.0e7 + 1.0e7 * sin(i * 0.01);
        yd[i] = i % 64 < 32 ? 2.0e7 + 9.0e6 * cos(i * 0.02) : -3.0 + 1e-3 * i;
    }
    for (int op = 0; op < 3; op++) hom_case(g, ECCL_FLOAT64, &b, n, xd, yd, (eccl_op_t)op, rng, "near-qmax");
    free(xd);
    free(yd);
    /* argument checks */
    TU_RC(eccl_cuda_hom_reduce(g->codec, g->ds, 64, g->dx, 1, ECCL_COMPLEX128, ECCL_OP_MIN, g->dy, 4096, NULL, NULL, NULL),
          ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_cuda_hom_reduce(g->codec, g->ds, 64, g->dx, 1, ECCL_COMPLEX64, ECCL_OP_MAX, g->dy, 4096, NULL, NULL, NULL),
          ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_cuda_hom_reduce(g->codec, g->ds, 64, g->dx, 1, ECCL_FLOAT32, ECCL_OP_PROD, g->dy, 4096, NULL, NULL, NULL),
          ECCL_ERR_UNSUPPORTED);
    TU_RC(eccl_cuda_hom_reduce(g->codec, g->ds, 64, g->dx, 1000, ECCL_FLOAT32, ECCL_OP_SUM, g->dy, 100, NULL, NULL, NULL),
          ECCL_ERR_BUFFER_TOO_SMALL);
    TU_RC(eccl_cuda_hom_reduce(g->codec, g->ds, 4096, g->dx, 1, ECCL_FLOAT32, ECCL_OP_SUM, g->ds, 4096, NULL, NULL, NULL),
          ECCL_ERR_INVALID_ARG);
    printf("compared %ld homomorphic outputs\n", homs);
}

/* eccl_cuda_compress_2d / decompress_2d on an m x n matrix with leading dimension ld inside a
 * device array (at byte offset `shift` from an aligned allocation): the stream must be the CPU's
 * stream of the packed elements byte for byte, and decoding it into the matrix must give the
 * CPU's values while leaving every element outside the matrix (rows m..ld-1, and what lies past
 * the last column) untouched. */
static long views;

/* A matrix of view_case: m x n, leading dimension ld, at byte offset shift of the device array dA
 * (span elements, abytes bytes from dA); `full` holds the array's host image (the sentinels). */
typedef struct {
    unsigned char *dA, *full, *back;
    size_t m, n, ld, shift, span, abytes, esz;
    eccl_dtype_t dt;
} mat2d_t;

/* Decode the size-byte stream s into the matrix on the GPU (the array first reset to `full`) and
 * compare with the packed values y: *differ matrix elements differ, *outside elements outside
 * the matrix changed. Returns eccl_cuda_decompress_2d's result (checked). */
static eccl_result_t decode_2d(eccl_cuda_codec_t codec, void *dS, const unsigned char *s, size_t size,
                               const mat2d_t *a, const void *y, size_t *differ, size_t *outside)
{
    cudaMemcpy(a->dA + a->shift, a->full + a->shift, a->abytes - a->shift, cudaMemcpyHostToDevice);
    cudaMemcpy(dS, s, size, cudaMemcpyHostToDevice);
    eccl_result_t rc = eccl_cuda_decompress_2d(codec, dS, size, a->dA + a->shift, a->m, a->n, a->ld, a->dt, 1, NULL);
    cudaMemcpy(a->back + a->shift, a->dA + a->shift, a->abytes - a->shift, cudaMemcpyDeviceToHost);
    *differ = *outside = 0;
    for (size_t e = 0; e < a->span; e++) {
        size_t j = e / a->ld, i = e % a->ld, off = a->shift + e * a->esz;
        if (j < a->n && i < a->m)
            *differ += memcmp(a->back + off, (const unsigned char *)y + (j * a->m + i) * a->esz, a->esz) != 0;
        else
            *outside += memcmp(a->back + off, a->full + off, a->esz) != 0;
    }
    return rc;
}

static void view_case(eccl_dtype_t dt, const eccl_bound_t *b, size_t m, size_t n, size_t ld, size_t shift, int pat)
{
    int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
    size_t esz = eccl_dtype_size(dt), k = dt >= ECCL_COMPLEX64 ? 2 : 1, count = m * n;
    size_t span = (n ? (n - 1) * ld + m : 0) + 8; /* elements the array holds (8 spare at the end) */
    size_t abytes = span * esz + shift, cap = eccl_compress_bound(count, dt), size = 0, gsize = 0;
    unsigned char *full = tu_malloc(abytes), *back = tu_malloc(abytes);
    void *x = tu_malloc(count * esz + 1), *y = tu_malloc(count * esz + 1);
    unsigned char *s = tu_malloc(cap), *gs = tu_malloc(cap);
    tu_fill(x, count * k, is64, pat, count + ld + 5);
    for (size_t i = 0; i < abytes; i++) full[i] = (unsigned char)(0xA5 ^ (i * 7)); /* sentinel bytes */
    for (size_t j = 0; j < n; j++) /* the matrix into the array */
        memcpy(full + shift + j * ld * esz, (unsigned char *)x + j * m * esz, m * esz);
    unsigned char *dA = NULL, *dS = NULL;
    eccl_cuda_codec_t codec = NULL;
    if (cudaMalloc((void **)&dA, abytes + 16) || cudaMalloc((void **)&dS, cap)) exit(99);
    if (eccl_cuda_codec_create(1 << 16, &codec)) exit(99);
    cudaMemcpy(dA + shift, full + shift, abytes - shift, cudaMemcpyHostToDevice);
    eccl_result_t rc = eccl_compress(x, count, dt, b, s, cap, &size);
    TU_CHECK(rc == ECCL_SUCCESS, "cpu compress: %s", eccl_strerror(rc));
    rc = eccl_cuda_compress_2d(codec, dA + shift, m, n, ld, dt, b, dS, cap, NULL, &gsize, NULL);
    TU_CHECK(rc == ECCL_SUCCESS, "gpu compress_2d %s %zux%zu ld %zu: %s", eccl_dtype_name(dt), m, n, ld,
             eccl_strerror(rc));
    if (!rc) {
        cudaMemcpy(gs, dS, gsize < cap ? gsize : cap, cudaMemcpyDeviceToHost);
        size_t d = 0;
        while (d < size && d < gsize && s[d] == gs[d]) d++;
        TU_CHECK(gsize == size && d == size,
                 "2-D stream differs from the CPU's: %s %s mode %d %zux%zu ld %zu shift %zu: sizes %zu/%zu, byte %zu",
                 eccl_dtype_name(dt), tu_pattern_name[pat], b->mode, m, n, ld, shift, gsize, size, d);
    }
    /* the homomorphic reduction with the matrix as the local array: the CPU's bytes on the packed copy */
    eccl_op_t ops[3] = {ECCL_OP_SUM, ECCL_OP_MAX, ECCL_OP_MIN};
    unsigned char *dO = NULL, *hs = tu_malloc(cap), *ghs = tu_malloc(cap);
    if (cudaMalloc((void **)&dO, cap)) exit(99);
    cudaMemcpy(dS, s, size, cudaMemcpyHostToDevice);
    for (int o = 0; o < (dt >= ECCL_COMPLEX64 ? 1 : 3); o++) {
        size_t hsz = 0, ghsz = 0;
        eccl_result_t r1 = eccl_hom_reduce(s, size, x, count, dt, ops[o], hs, cap, &hsz);
        eccl_result_t r2 = eccl_cuda_hom_reduce_2d(codec, dS, size, dA + shift, m, n, ld, dt, ops[o], dO, cap, NULL,
                                                   &ghsz, NULL);
        if (r2 == ECCL_SUCCESS) r2 = eccl_cuda_codec_check(codec, NULL);
        TU_CHECK(r1 == r2, "hom_reduce_2d %s op %d %zux%zu ld %zu: CPU %s, GPU %s", eccl_dtype_name(dt), (int)ops[o], m,
                 n, ld, eccl_strerror(r1), eccl_strerror(r2));
        if (r1 || r2) continue;
        cudaMemcpy(ghs, dO, ghsz < cap ? ghsz : cap, cudaMemcpyDeviceToHost);
        TU_CHECK(hsz == ghsz && !memcmp(hs, ghs, hsz),
                 "hom_reduce_2d %s %s op %d %zux%zu ld %zu shift %zu: the stream differs from the CPU's (sizes %zu/%zu)",
                 eccl_dtype_name(dt), tu_pattern_name[pat], (int)ops[o], m, n, ld, shift, ghsz, hsz);
    }
    cudaFree(dO);
    free(hs), free(ghs);
    /* decode the CPU stream into a matrix of the array, whose other elements must survive */
    rc = eccl_decompress(s, size, y, count, dt);
    TU_CHECK(rc == ECCL_SUCCESS, "cpu decompress: %s", eccl_strerror(rc));
    for (size_t i = 0; i < abytes; i++) full[i] = (unsigned char)(0x3C ^ (i * 13));
    const mat2d_t mat = {dA, full, back, m, n, ld, shift, span, abytes, esz, dt};
    size_t bad_in = 0, bad_out = 0;
    rc = decode_2d(codec, dS, s, size, &mat, y, &bad_in, &bad_out);
    TU_CHECK(rc == ECCL_SUCCESS, "gpu decompress_2d %s %zux%zu ld %zu: %s", eccl_dtype_name(dt), m, n, ld,
             eccl_strerror(rc));
    TU_CHECK(bad_in == 0 && bad_out == 0,
             "decompress_2d %s %zux%zu ld %zu shift %zu: %zu matrix elements differ from the CPU's, %zu outside "
             "it were written", eccl_dtype_name(dt), m, n, ld, shift, bad_in, bad_out);
    /* corrupted streams (the checksum repaired in two of three): the CPU's verdict, and whatever a
     * rejected stream left in the matrix, nothing written outside it */
    uint64_t cseed = 12345 + m * 131 + n * 7919 + ld * 31 + (uint64_t)pat;
    for (int trial = 0; trial < 3 && size > 80; trial++) {
        unsigned char *c = tu_malloc(size);
        memcpy(c, s, size);
        cseed = cseed * 6364136223846793005ull + 1442695040888963407ull;
        size_t pos = 64 + (size_t)(cseed >> 33) % (size - 64);
        c[pos] ^= (unsigned char)(1u << ((cseed >> 20) % 8));
        if (trial % 3) fix_checksum(c, size);
        eccl_result_t r1 = eccl_decompress(c, size, y, count, dt);
        size_t outside = 0, differ = 0;
        eccl_result_t r2 = decode_2d(codec, dS, c, size, &mat, y, &differ, &outside);
        TU_CHECK((r1 == ECCL_SUCCESS) == (r2 == ECCL_SUCCESS),
                 "decompress_2d verdicts differ on a corrupted stream (byte %zu): cpu %s, gpu %s", pos,
                 eccl_strerror(r1), eccl_strerror(r2));
        TU_CHECK(outside == 0, "decompress_2d of a corrupted stream wrote %zu elements outside the matrix", outside);
        if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS)
            TU_CHECK(differ == 0, "decompress_2d: values differ on an accepted corrupted stream");
        free(c);
    }
    views++;
    eccl_cuda_codec_free(&codec);
    cudaFree(dA);
    cudaFree(dS);
    free(full), free(back), free(x), free(y), free(s), free(gs);
}

static void view_cases(int quick)
{
    /* (m, n, ld): a column of 8192 and more values, narrow columns (several per tile), columns of 4k
     * values (16-byte loads for float32), a single column, a row, and streams of many tiles */
    static const size_t shapes[][3] = {{1000, 37, 1003}, {4096, 9, 4100}, {9000, 3, 9001}, {7, 2000, 9},
                                       {33, 1, 40},      {1, 50, 3},      {8192, 4, 8200}, {300, 700, 301},
                                       {64, 64, 64},     {5, 5, 5}};
    eccl_bound_t bounds[] = {{ECCL_MODE_ABS, 1e-4, 0}, {ECCL_MODE_REL, 1e-3, ECCL_RANGE_FROM_DATA},
                             {ECCL_MODE_LOSSLESS, 0, 0}};
    const int pats[] = {TU_SMOOTH, TU_NANINF, TU_RANDOMWALK, TU_MIXED_SCALE};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned si = 0; si < sizeof shapes / sizeof *shapes; si++)
            for (unsigned bi = 0; bi < sizeof bounds / sizeof *bounds; bi++)
                for (unsigned pi = 0; pi < sizeof pats / sizeof *pats; pi++) {
                    if (quick && (pi > 1 || bi > 0)) continue;
                    /* aligned, and (where a real allows it) off 16-byte alignment */
                    size_t real = dtypes[d] == ECCL_FLOAT32 || dtypes[d] == ECCL_COMPLEX64 ? 4 : 8;
                    view_case(dtypes[d], &bounds[bi], shapes[si][0], shapes[si][1], shapes[si][2], 0, pats[pi]);
                    if (pi == 0) view_case(dtypes[d], &bounds[bi], shapes[si][0], shapes[si][1], shapes[si][2], real, pats[pi]);
                }
    /* bad arguments: ld < m, a base not aligned to a real */
    eccl_cuda_codec_t codec = NULL;
    void *dA = NULL, *dS = NULL;
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
    if (eccl_cuda_codec_create(1024, &codec) || cudaMalloc(&dA, 4096) || cudaMalloc(&dS, 8192)) exit(99);
    size_t sz = 0;
    TU_CHECK(eccl_cuda_compress_2d(codec, dA, 10, 3, 9, ECCL_FLOAT64, &b, dS, 8192, NULL, &sz, NULL) ==
                 ECCL_ERR_INVALID_ARG, "compress_2d accepted ld < m");
    TU_CHECK(eccl_cuda_compress_2d(codec, (char *)dA + 4, 10, 3, 11, ECCL_FLOAT64, &b, dS, 8192, NULL, &sz, NULL) ==
                 ECCL_ERR_INVALID_ARG, "compress_2d accepted a float64 matrix at a 4-byte offset");
    TU_CHECK(eccl_cuda_decompress_2d(codec, dS, 8192, dA, 10, 3, 9, ECCL_FLOAT32, 1, NULL) == ECCL_ERR_INVALID_ARG,
             "decompress_2d accepted ld < m");
    eccl_cuda_codec_free(&codec);
    cudaFree(dA);
    cudaFree(dS);
    printf("compared %ld 2-D (strided) cases\n", views);
}

/* Sizes (eccl.h, eccl_cuda.h): the public GPU calls take a stream capacity (bytes after the stream
 * are not read), the device-resident primitives (cuda/device.h) the exact size of a host stream, as
 * eccl_decompress and eccl_hom_reduce do: a larger size is ECCL_ERR_CORRUPT there, as on the CPU. */
static void size_cases(gpu_t *g)
{
    const size_t count = 1000, extra = 16;
    float x[1000], y[1000], z[1000];
    eccl_bound_t b = ECCL_BOUND_ABS(1e-3);
    size_t cap = eccl_compress_bound(count, ECCL_FLOAT32), size = 0, osz = 0, hsz = 0;
    unsigned char *s = tu_malloc(cap + extra), *o = tu_malloc(cap), *ho = tu_malloc(cap);
    eccl_dev_ctx_t *ctx = NULL;
    for (size_t i = 0; i < count; i++) x[i] = (float)sin(i * 0.01);
    TU_RC(eccl_compress(x, count, ECCL_FLOAT32, &b, s, cap, &size), ECCL_SUCCESS);
    memset(s + size, 0xEE, extra);
    TU_RC(eccl_decompress(s, size, z, count, ECCL_FLOAT32), ECCL_SUCCESS);
    TU_RC(eccl_decompress(s, size + extra, y, count, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
    gpu_reserve(g, count, ECCL_FLOAT32); /* room for the bound: a smooth field's stream is far smaller */
    TU_CHECK(size + extra <= g->cap_stream, "stream of %zu bytes", size);
    if (cudaMemcpy(g->ds, s, size + extra, cudaMemcpyHostToDevice)) exit(99);
    TU_RC(eccl_cuda_decompress(g->codec, g->ds, size + extra, g->dy, count, ECCL_FLOAT32, 1, NULL), ECCL_SUCCESS);
    cudaMemcpy(y, g->dy, sizeof y, cudaMemcpyDeviceToHost);
    TU_CHECK(memcmp(y, z, sizeof y) == 0, "eccl_cuda_decompress with a larger capacity: other values");
    if (eccl_dev_ctx_create(&ctx, 1) != ECCL_SUCCESS) {
        TU_CHECK(0, "eccl_dev_ctx_create failed");
        goto done;
    }
    TU_RC(eccl_dev_decompress(ctx, s, size + extra, g->dy, NULL, count, ECCL_FLOAT32), ECCL_ERR_CORRUPT);
    TU_RC(eccl_dev_decompress(ctx, s, size, g->dy, NULL, count, ECCL_FLOAT32), ECCL_SUCCESS);
    cudaMemcpy(y, g->dy, sizeof y, cudaMemcpyDeviceToHost);
    TU_CHECK(memcmp(y, z, sizeof y) == 0, "eccl_dev_decompress: other values than eccl_decompress");
    cudaMemcpy(g->dx, x, sizeof x, cudaMemcpyHostToDevice);
    TU_RC(eccl_dev_hom_reduce(ctx, s, size + extra, g->dx, NULL, count, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz),
          ECCL_ERR_CORRUPT);
    TU_RC(eccl_dev_hom_reduce(ctx, s, size, g->dx, NULL, count, ECCL_FLOAT32, ECCL_OP_SUM, o, cap, &osz),
          ECCL_SUCCESS);
    TU_RC(eccl_hom_reduce(s, size, x, count, ECCL_FLOAT32, ECCL_OP_SUM, ho, cap, &hsz), ECCL_SUCCESS);
    TU_CHECK(osz == hsz && memcmp(o, ho, hsz) == 0, "eccl_dev_hom_reduce: other bytes than eccl_hom_reduce");
    eccl_dev_ctx_free(ctx);
done:
    free(s);
    free(o);
    free(ho);
}

/* A REL range of -0.0 is range 0 on the GPU as on the CPU: the same bytes as eccl_compress (header
 * range and eb_abs +0.0) */
static void negative_zero_range(gpu_t *g)
{
    const size_t count = 1000;
    float x[1000];
    eccl_bound_t b = {ECCL_MODE_REL, 1e-2, -0.0};
    size_t cap = eccl_compress_bound(count, ECCL_FLOAT32), size = 0, gsize = 0;
    unsigned char *s = tu_malloc(cap), *gs = tu_malloc(cap);
    for (size_t i = 0; i < count; i++) x[i] = (float)cos(i * 0.01);
    gpu_reserve(g, count, ECCL_FLOAT32);
    cudaMemcpy(g->dx, x, sizeof x, cudaMemcpyHostToDevice);
    TU_RC(eccl_compress(x, count, ECCL_FLOAT32, &b, s, cap, &size), ECCL_SUCCESS);
    TU_RC(eccl_cuda_compress(g->codec, g->dx, count, ECCL_FLOAT32, &b, g->ds, g->cap_stream, NULL, &gsize, NULL),
          ECCL_SUCCESS);
    cudaMemcpy(gs, g->ds, gsize < cap ? gsize : cap, cudaMemcpyDeviceToHost);
    TU_CHECK(gsize == size && memcmp(s, gs, size) == 0, "REL range -0.0: GPU stream differs from the CPU's");
    double eb;
    memcpy(&eb, gs + 32, 8);
    TU_CHECK(eb == 0 && !signbit(eb), "REL range -0.0: GPU header eb_abs %g, sign %d", eb, signbit(eb) != 0);
    free(s);
    free(gs);
}

/* eccl_dev_sample (the ratio sample of device-resident calls) against eccl_compress on the same
 * windows: the same total size, for plain arrays at any real-aligned address and for matrix
 * layouts; bad arguments are refused. */
static size_t host_windows(const unsigned char *x, eccl_dtype_t dt, const eccl_bound_t *b, const size_t *st, int nwin,
                           size_t win)
{
    size_t cap = eccl_compress_bound(win, dt), total = 0, size = 0;
    unsigned char *s = tu_malloc(cap);
    for (int k = 0; k < nwin; k++) {
        TU_RC(eccl_compress(x + st[k] * eccl_dtype_size(dt), win, dt, b, s, cap, &size), ECCL_SUCCESS);
        total += size;
    }
    free(s);
    return total;
}

static void sample_cases(void)
{
    eccl_dev_ctx_t *ctx = NULL;
    if (eccl_dev_ctx_create(&ctx, 1) != ECCL_SUCCESS) {
        TU_CHECK(0, "eccl_dev_ctx_create failed");
        return;
    }
    const eccl_bound_t bounds[] = {ECCL_BOUND_ABS(1e-4), ECCL_BOUND_ABS(1e-9), {ECCL_MODE_LOSSLESS, 0, 0}};
    const size_t counts[] = {1, 5000, 40000, 100003};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned ci = 0; ci < 4; ci++)
            for (unsigned bi = 0; bi < 3; bi++) {
                eccl_dtype_t dt = dtypes[d];
                int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
                size_t esz = eccl_dtype_size(dt), k = dt >= ECCL_COMPLEX64 ? 2 : 1, n = counts[ci];
                size_t win = 8192 / k, nwin = 4, st[4], total = 0;
                if (n <= win * nwin) win = n, nwin = 1;
                for (size_t w = 0; w < nwin; w++) st[w] = nwin == 1 ? 0 : (n - win) / (nwin - 1) * w;
                unsigned char *x = tu_malloc(n * esz), *dA = NULL;
                tu_fill(x, n * k, is64, (int)(ci + bi + d) % TU_NPATTERNS, n + 3);
                size_t want = host_windows(x, dt, &bounds[bi], st, (int)nwin, win);
                if (cudaMalloc((void **)&dA, n * esz + 64)) exit(99);
                TU_RC(eccl_dev_reserve(ctx, n, dt), ECCL_SUCCESS);
                /* a plain array at offsets 0, one real and 16 bytes from an allocation */
                const size_t shifts[3] = {0, is64 ? 8 : 4, 16};
                for (unsigned si = 0; si < 3; si++) {
                    size_t sh = shifts[si];
                    /* (cudaMemcpy from pageable memory may still be copying when it returns:
                     * the data must be complete before a call, which runs on its own stream) */
                    if (cudaMemcpy(dA + sh, x, n * esz, cudaMemcpyHostToDevice) || cudaDeviceSynchronize()) exit(99);
                    TU_RC(eccl_dev_sample(ctx, dA + sh, NULL, n, dt, &bounds[bi], st, (int)nwin, win, &total),
                          ECCL_SUCCESS);
                    TU_CHECK(total == want, "eccl_dev_sample %s n %zu bound %u shift %zu: %zu bytes, the CPU %zu",
                             eccl_dtype_name(dt), n, bi, sh, total, want);
                }
                /* the same values as the columns of a matrix (m rows, ld apart, from element first) */
                size_t m = 333, ld = 350, first = 17, cols = (first + n + m - 1) / m;
                unsigned char *full = tu_malloc(cols * ld * esz), *dM = NULL;
                for (size_t i = 0; i < n; i++) {
                    size_t e = first + i;
                    memcpy(full + ((e / m) * ld + e % m) * esz, x + i * esz, esz);
                }
                if (cudaMalloc((void **)&dM, cols * ld * esz)) exit(99);
                if (cudaMemcpy(dM, full, cols * ld * esz, cudaMemcpyHostToDevice) || cudaDeviceSynchronize()) exit(99);
                eccl_dev_layout_t lay = {m, ld, first};
                TU_RC(eccl_dev_sample(ctx, dM, &lay, n, dt, &bounds[bi], st, (int)nwin, win, &total), ECCL_SUCCESS);
                TU_CHECK(total == want, "eccl_dev_sample %s n %zu bound %u, matrix: %zu bytes, the CPU %zu",
                         eccl_dtype_name(dt), n, bi, total, want);
                cudaFree(dM);
                free(full);
                /* refused: no window, too many, past the end, a base not aligned to a real */
                TU_RC(eccl_dev_sample(ctx, dA, NULL, n, dt, &bounds[bi], st, 0, win, &total), ECCL_ERR_INVALID_ARG);
                TU_RC(eccl_dev_sample(ctx, dA, NULL, n, dt, &bounds[bi], st, ECCL_DEV_SAMPLE_MAX + 1, win, &total),
                      ECCL_ERR_INVALID_ARG);
                size_t past[1] = {n - win + 1};
                TU_RC(eccl_dev_sample(ctx, dA, NULL, n, dt, &bounds[bi], past, 1, win, &total), ECCL_ERR_INVALID_ARG);
                TU_RC(eccl_dev_sample(ctx, dA + 2, NULL, n, dt, &bounds[bi], st, (int)nwin, win, &total),
                      ECCL_ERR_INVALID_ARG);
                cudaFree(dA);
                free(x);
            }
    eccl_dev_ctx_free(ctx);
}

/* A stream to the host with one wait where it fits the guess (eccl_cuda_codec_fetch): every spec
 * below, at and above the size gives the CPU's bytes, a capacity below the size is refused; the
 * device-resident compression and homomorphic reduction give the CPU's bytes whatever their
 * guess (a smooth call after noise guesses too long, noise after a smooth call too short: the
 * second wait), and a corrupt input's verdict comes back and is cleared. */
static void fetch_cases(void)
{
    const eccl_bound_t b = ECCL_BOUND_ABS(1e-4);
    const size_t n = 100003, esz = 4, cap = eccl_compress_bound(n, ECCL_FLOAT32);
    unsigned char *x = tu_malloc(n * esz), *want = tu_malloc(cap), *got = tu_malloc(cap), *dx = NULL, *ds = NULL;
    size_t wsize = 0, size = 0;
    eccl_cuda_codec_t codec = NULL;
    cudaStream_t st = NULL;
    if (eccl_cuda_codec_create(n, &codec) || cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) ||
        cudaMalloc((void **)&dx, n * esz) || cudaMalloc((void **)&ds, cap))
        exit(99);
    tu_fill(x, n, 0, TU_SMOOTH, 7);
    TU_RC(eccl_compress(x, n, ECCL_FLOAT32, &b, want, cap, &wsize), ECCL_SUCCESS);
    if (cudaMemcpy(dx, x, n * esz, cudaMemcpyHostToDevice)) exit(99);
    const size_t specs[] = {0, 1, wsize - 1, wsize, wsize + 1, cap};
    for (unsigned k = 0; k < sizeof specs / sizeof *specs; k++) {
        memset(got, 0xA5, cap);
        TU_RC(eccl_cuda_compress(codec, dx, n, ECCL_FLOAT32, &b, ds, cap, NULL, NULL, st), ECCL_SUCCESS);
        TU_RC(eccl_cuda_codec_fetch(codec, ds, got, cap, specs[k], 0, &size, st), ECCL_SUCCESS);
        TU_CHECK(size == wsize && !memcmp(got, want, wsize), "eccl_cuda_codec_fetch spec %zu: %zu bytes (the CPU %zu)%s",
                 specs[k], size, wsize, size == wsize ? ", different" : "");
    }
    TU_RC(eccl_cuda_compress(codec, dx, n, ECCL_FLOAT32, &b, ds, cap, NULL, NULL, st), ECCL_SUCCESS);
    TU_RC(eccl_cuda_codec_fetch(codec, ds, got, wsize - 1, 64, 0, &size, st), ECCL_ERR_INTERNAL);
    TU_RC(eccl_cuda_codec_fetch(codec, ds, NULL, cap, 64, 0, &size, st), ECCL_ERR_INVALID_ARG);

    /* the device-resident operations: noise, smooth, noise, smooth (each guess from the last) */
    eccl_dev_ctx_t *ctx = NULL;
    TU_RC(eccl_dev_ctx_create(&ctx, 1), ECCL_SUCCESS);
    if (!ctx) exit(99);
    unsigned char *y = tu_malloc(n * esz), *hin = tu_malloc(cap), *hwant = tu_malloc(cap);
    for (int r = 0; r < 4; r++) {
        const int pat = r % 2 ? TU_SMOOTH : TU_RANDOM;
        tu_fill(x, n, 0, pat, 11 + r);
        tu_fill(y, n, 0, pat, 23 + r);
        if (cudaMemcpy(dx, x, n * esz, cudaMemcpyHostToDevice)) exit(99);
        TU_RC(eccl_compress(x, n, ECCL_FLOAT32, &b, want, cap, &wsize), ECCL_SUCCESS);
        memset(got, 0xA5, cap);
        TU_RC(eccl_dev_compress(ctx, dx, NULL, n, ECCL_FLOAT32, &b, got, cap, &size), ECCL_SUCCESS);
        TU_CHECK(size == wsize && !memcmp(got, want, wsize), "eccl_dev_compress, call %d: %zu bytes (the CPU %zu)", r,
                 size, wsize);
        /* y's stream reduced with x on the device, against the CPU's reduction */
        size_t isize = 0, hsize = 0;
        TU_RC(eccl_compress(y, n, ECCL_FLOAT32, &b, hin, cap, &isize), ECCL_SUCCESS);
        TU_RC(eccl_hom_reduce(hin, isize, x, n, ECCL_FLOAT32, ECCL_OP_SUM, hwant, cap, &hsize), ECCL_SUCCESS);
        memset(got, 0xA5, cap);
        TU_RC(eccl_dev_hom_reduce(ctx, hin, isize, dx, NULL, n, ECCL_FLOAT32, ECCL_OP_SUM, got, cap, &size),
              ECCL_SUCCESS);
        TU_CHECK(size == hsize && !memcmp(got, hwant, hsize), "eccl_dev_hom_reduce, call %d: %zu bytes (the CPU %zu)",
                 r, size, hsize);
        /* a corrupt input: refused, and the next call is not */
        hin[isize / 2] ^= 0x10;
        TU_RC(eccl_dev_hom_reduce(ctx, hin, isize, dx, NULL, n, ECCL_FLOAT32, ECCL_OP_SUM, got, cap, &size),
              ECCL_ERR_CORRUPT);
        hin[isize / 2] ^= 0x10;
    }
    eccl_dev_ctx_free(ctx);
    eccl_cuda_codec_free(&codec);
    cudaStreamDestroy(st);
    cudaFree(dx);
    cudaFree(ds);
    free(x);
    free(y);
    free(want);
    free(got);
    free(hin);
    free(hwant);
}

/* eccl's own streams (ECCL_GPU_PRIORITY): high = the device's greatest priority, else the default
 * one; non-blocking either way (the stream-enqueued calls rely on it: eccl_cuda.h) */
static void stream_priorities(void)
{
    int least = 0, greatest = 0;
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest)) exit(99);
    for (int high = 0; high <= 1; high++) {
        void *st = NULL;
        TU_RC(eccl_dev_stream_create(&st, high), ECCL_SUCCESS);
        int prio = 12345;
        unsigned flags = 0;
        if (cudaStreamGetPriority((cudaStream_t)st, &prio) || cudaStreamGetFlags((cudaStream_t)st, &flags)) exit(99);
        TU_CHECK(prio == (high ? greatest : 0), "eccl_dev_stream_create(high %d): priority %d (device range %d..%d)",
                 high, prio, least, greatest);
        TU_CHECK(flags & cudaStreamNonBlocking, "eccl_dev_stream_create(high %d): a blocking stream", high);
        cudaStreamDestroy((cudaStream_t)st);
    }
    TU_RC(eccl_dev_stream_create(NULL, 1), ECCL_ERR_INVALID_ARG);
}

int main(void)
{
    int ndev = 0;
    eccl_result_t rc = eccl_cuda_device_count(&ndev);
    if (rc == ECCL_ERR_UNSUPPORTED) {
        printf("SKIP: eccl was built without the CUDA backend\n");
        return 77;
    }
    if (ndev == 0) {
        printf("SKIP: no CUDA device on this machine (run on the GPU host: see doc/gpu.md)\n");
        return 77;
    }
    gpu_t g = {0};
    rc = eccl_cuda_codec_create(1 << 20, &g.codec);
    if (rc) {
        printf("eccl_cuda_codec_create: %s\n", eccl_strerror(rc));
        return 1;
    }
    int quick = getenv("ECCL_TEST_QUICK") != NULL;
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines reach the log even if a kernel hangs */
    const size_t sizes[] = {0, 1, 2, 31, 32, 33, 4097, 8191, 8192, 8193, 100003, (1u << 20) + 7};
    eccl_bound_t bounds[] = {{ECCL_MODE_ABS, 1e-4, 0},      {ECCL_MODE_ABS, 1e-1, 0},
                             {ECCL_MODE_ABS, 1e-7, 0},      {ECCL_MODE_ABS, 1e-13, 0},
                             {ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA},
                             {ECCL_MODE_REL, 1e-3, 12.5},   {ECCL_MODE_LOSSLESS, 0, 0},
                             {ECCL_MODE_ABS, 0.5, 0}};
    tu_rng rng = {99};
    stream_priorities();
    size_cases(&g);
    negative_zero_range(&g);
    sample_cases();
    fetch_cases();
    for (unsigned d = 0; d < 4 && !getenv("ECCL_TEST_HOM_ONLY"); d++)
        for (unsigned bi = 0; bi < sizeof bounds / sizeof *bounds; bi++)
            for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
                for (int pat = 0; pat < TU_NPATTERNS; pat++) {
                    if (sizes[si] > 100000 && (quick || (pat % 4) != 0)) continue;
                    one_case(&g, dtypes[d], &bounds[bi], sizes[si], pat, &rng);
                }
    /* a large stream: many tiles, the look-back under load */
    if (!quick && !getenv("ECCL_TEST_HOM_ONLY")) {
        eccl_bound_t b = {ECCL_MODE_ABS, 1e-4, 0};
        one_case(&g, ECCL_FLOAT32, &b, (size_t)48 << 20, TU_SMOOTH, &rng);
        one_case(&g, ECCL_FLOAT64, &b, (size_t)12 << 20, TU_RANDOMWALK, &rng);
    }
    if (!getenv("ECCL_TEST_HOM_ONLY")) mixed_tiles_cases(&g, &rng);
    printf("compared %ld streams, %ld bytes\n", streams, bytes_compared);
    fflush(stdout);
    if (!getenv("ECCL_TEST_HOM_ONLY")) view_cases(quick);
    hom_cases(&g, quick, &rng);
    eccl_cuda_codec_free(&g.codec);
    cudaFree(g.dx);
    cudaFree(g.dy);
    cudaFree(g.ds);
    return tu_finish("test_cuda_codec");
}
