/*
 * test_cuda_format2.c - the GPU codec on stream format versions 2 and 3 (doc/format.md sections
 * 4.1, 6.2, 6.4, 7, 8.1, 8.2; doc/gpu.md): the CPU codec writes the stream, both codecs decode it,
 * and the GPU's values must equal the CPU's bit for bit, with the same verdict on damaged streams;
 * the GPU's streams (compression and homomorphic reduction) must equal the CPU's bytes. Every part
 * runs for version 2, then for version 3 (sparse tiles; the codec set to read it,
 * eccl_cuda_codec_set_read_version: by default a version-3 stream is refused).
 *  1. dtypes x bounds x sizes x data patterns (the sizes reach every decompression kernel: 1024-
 *     and 256-thread CTAs, the small-stream float32 instance), with a count of the form-L2 tiles
 *     seen, which must not be zero where the data is smooth;
 *  2. integer sequences built in quanta: constant second differences (second-order blocks with
 *     zero or one-plane deltas), float64 blocks whose second-order deltas need 34 bits (45 planes:
 *     the warp decoder) but no sign map, RAW blocks inside form-L2 tiles (head blocks after them),
 *     integers near QMAX, short last blocks;
 *  3. damage: random bit flips with the checksum repaired (the verdicts must agree; where both
 *     accept, the values too), second-order integers bent past QMAX (also by 2^32, which 32-bit
 *     arithmetic would not see), tile forms 2 and 3, form 1 written into a form-0 tile and the
 *     other way round, a version-3 stream (ECCL_ERR_UNSUPPORTED);
 *  4. a column-major view (eccl_cuda_decompress_2d) of a version-2 stream;
 *  5. the encoders (compress32.cu for float32 and complex64; compress64.cu's fast path and the
 *     warp tile coder of enc64.cuh for float64 and complex128) write the CPU's version-2 bytes for
 *     every input of parts 1-2, with a count of the 64-bit form-L2 tiles written by the warp coder
 *     (tiles with a RAW block) and of those of QUANT blocks only (the fast path where the integers
 *     fit it), neither of which may be zero; in version 3, a count of the 64-bit sparse tiles the
 *     GPU wrote (of QUANT blocks only, and with a RAW block: enc64.cuh's warp coder), none of
 *     which may be zero either;
 *  6. the homomorphic kernels (SUM, MAX, MIN for the real types, SUM for the complex ones) on
 *     those streams write the CPU's version-2 output bytes;
 *  7. the collectives' GPU context (eccl_dev_ctx_set_format) in versions 3, 2 and 1: its streams,
 *     homomorphic SUM and values the CPU's, for every dtype.
 * Skips with a message when there is no CUDA backend or no GPU.
 */
#include "config.h"

#include <cuda_runtime_api.h>

#include "codec/codec.h"
#include "cuda/device.h"
#include "eccl_cuda.h"
#include "testutil.h"
#include "ref_decoder.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

typedef struct {
    eccl_cuda_codec_t codec;
    void *dy, *ds, *dz, *dh; /* dh: the homomorphic output */
    size_t cap_elems, cap_stream;
} gpu_t;

static long streams, l2_seen, damaged;
static int V = 2; /* the format version under test (2, then 3) */

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }

/* The checksum recomputed after a deliberate change (the reference decoder's). */
#define rechecksum ref_fix_checksum

static void gpu_reserve(gpu_t *g, size_t count, eccl_dtype_t dt)
{
    size_t bytes = count * eccl_dtype_size(dt) + 64, sb = eccl_compress_bound(count, dt) + 64;
    if (bytes > g->cap_elems) {
        cudaFree(g->dy);
        cudaFree(g->dz);
        if (cudaMalloc(&g->dy, bytes) || cudaMalloc(&g->dz, bytes)) exit(99);
        g->cap_elems = bytes;
    }
    if (sb > g->cap_stream) {
        cudaFree(g->ds);
        cudaFree(g->dh);
        if (cudaMalloc(&g->ds, sb) || cudaMalloc(&g->dh, sb)) exit(99);
        g->cap_stream = sb;
    }
}

/* Second-order blocks seen, by the decoder path they take (dec.cuh): [0] float32 of at most
 * L2_ROWS32_F = 20 planes (block_rows in 32 bits, rows_finish in 64), [1] 64-bit of at most 30
 * planes (block_rows, rows_finish), [2] 64-bit of 45 planes (the warp decoder), [3] head blocks
 * (any type), [4] float32 of 21 planes or more (decode_l2_thread). */
static long l2_blocks[5];
/* Version 3: sparse blocks seen, by the path they take: [0] float32 or complex64 first order, [1]
 * float32 second order of at most 20 planes (block_rows), [2] float32 second order of 21 planes or
 * more (decode_l2_thread), [3] 64-bit of at most 30 planes (block_rows), [4] 64-bit of 45 planes
 * (the warp decoder, lane_bits_k); and the sparse tiles (forms 2 and 3). */
static long sparse_blocks[5], sparse_tiles;

/* The second-order tiles (forms 1 and 3) of stream s, their blocks counted in l2_blocks (and in
 * sparse_blocks, with those of form-2 tiles). */
static size_t l2_tiles(const unsigned char *s, size_t size)
{
    eccl_stream_t st;
    if (eccl_stream_parse(s, size, &st)) return 0;
    size_t k = 0;
    for (uint64_t t = 0; t < st.nt; t++) {
        const unsigned form = eccl_stream_tile_form(&st, t);
        sparse_tiles += form >= ECCL_FMT_FORM_S1;
        if (form == ECCL_FMT_FORM_NONE) continue;
        k += eccl_fmt_form_second(form);
        for (uint64_t b = 256 * t; b < st.nb && b < 256 * t + 256; b++) {
            const unsigned m = st.codes[b];
            if (eccl_fmt_code_is_raw(m) || eccl_fmt_code_pred(m) != ECCL_FMT_PRED_NONE) continue;
            const int head = b == 256 * t || eccl_fmt_code_is_raw(st.codes[b - 1]);
            const int F = eccl_fmt_quant_planes(m, is64_of(st.dtype));
            const int f32 = !is64_of(st.dtype);
            if (eccl_fmt_code_sparse(m, form))
                sparse_blocks[form == ECCL_FMT_FORM_S1 && f32 ? 0 : f32 ? (F <= 20 ? 1 : 2) : (m & 31u) < 31u ? 3 : 4]++;
            if (eccl_fmt_form_second(form))
                l2_blocks[head ? 3 : f32 ? (F <= 20 ? 0 : 4) : (m & 31u) < 31u ? 1 : 2]++;
        }
    }
    return k;
}

/* Decode s (size bytes) on both codecs: same verdict, same values where both accept. Returns the
 * CPU's verdict. */
static eccl_result_t both_decode(gpu_t *g, const unsigned char *s, size_t size, size_t count, eccl_dtype_t dt,
                                 const char *what)
{
    const size_t esz = eccl_dtype_size(dt);
    void *y = tu_malloc(count * esz + 1), *z = tu_malloc(count * esz + 1);
    eccl_result_t r1 = eccl_decompress(s, size, y, count, dt);
    cudaMemcpy(g->ds, s, size, cudaMemcpyHostToDevice);
    eccl_result_t r2 = eccl_cuda_decompress(g->codec, g->ds, size, g->dy, count, dt, 1, NULL);
    TU_CHECK((r1 == ECCL_SUCCESS) == (r2 == ECCL_SUCCESS), "%s %s n=%zu: verdicts differ: cpu %s, gpu %s", what,
             eccl_dtype_name(dt), count, eccl_strerror(r1), eccl_strerror(r2));
    if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS) {
        cudaMemcpy(z, g->dy, count * esz, cudaMemcpyDeviceToHost);
        int same = memcmp(y, z, count * esz) == 0;
        if (!same) {
            size_t k = 0;
            while (memcmp((char *)y + k * esz, (char *)z + k * esz, esz) == 0) k++;
            TU_CHECK(0, "%s %s n=%zu: GPU decode differs from the CPU's at element %zu", what, eccl_dtype_name(dt),
                     count, k);
        }
    }
    free(y);
    free(z);
    return r1;
}

static long encoded, homs;
static int hom_ok = 1; /* (off for the largest inputs: the homomorphic comparison needs a CPU pass more) */

/* Where two streams of the same input differ: the first tile whose form or block codes differ. */
static void explain(const unsigned char *s, size_t size, const unsigned char *g, size_t gsize)
{
    eccl_stream_t a, c;
    eccl_result_t r1 = eccl_stream_parse(s, size, &a), r2 = eccl_stream_parse(g, gsize, &c);
    if (r1 || r2) {
        printf("  (streams do not parse: cpu %s, gpu %s)\n", eccl_strerror(r1), eccl_strerror(r2));
        return;
    }
    for (uint64_t t = 0; t < a.nt; t++) {
        unsigned fa = eccl_stream_tile_form(&a, t), fc = eccl_stream_tile_form(&c, t);
        uint64_t k = 256 * t;
        while (k < a.nb && k < 256 * t + 256 && a.codes[k] == c.codes[k]) k++;
        const int same_codes = k == a.nb || k == 256 * t + 256;
        if (fa != fc || !same_codes) {
            printf("  tile %llu: form cpu %u gpu %u", (unsigned long long)t, fa, fc);
            if (!same_codes)
                printf(", block %llu: code cpu 0x%02x gpu 0x%02x (previous 0x%02x)", (unsigned long long)(k - 256 * t),
                       a.codes[k], c.codes[k], k > 256 * t ? a.codes[k - 1] : 0);
            printf("\n");
            return;
        }
    }
    printf("  forms and codes agree: a payload differs\n");
}

static long enc64_l2[2]; /* 64-bit form-L2 tiles the GPU wrote: [0] QUANT blocks only, [1] with a RAW block */
static long enc64_sparse[2][2]; /* 64-bit tiles of form S1 and S2 the GPU wrote (version 3): [form - 2][with a RAW block] */

/* Part 5: the GPU's version-V stream of x must be the CPU's s, byte for byte. */
static void encode_compare(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, const void *x,
                           const unsigned char *s, size_t size, const char *what)
{
    const size_t esz = eccl_dtype_size(dt), cap = eccl_compress_bound(count, dt);
    size_t gsize = 0;
    unsigned char *gs = tu_malloc(cap + 1);
    cudaMemcpy(g->dz, x, count * esz, cudaMemcpyHostToDevice);
    eccl_result_t rc = eccl_cuda_compress_fmt(g->codec, g->dz, count, dt, b, g->ds, g->cap_stream, NULL, &gsize,
                                              NULL, V);
    TU_CHECK(rc == ECCL_SUCCESS, "%s %s n=%zu: gpu compress (v%d): %s", what, eccl_dtype_name(dt), count, V,
             eccl_strerror(rc));
    if (rc == ECCL_SUCCESS) {
        cudaMemcpy(gs, g->ds, gsize < cap ? gsize : cap, cudaMemcpyDeviceToHost);
        size_t k = 0;
        while (k < size && k < gsize && s[k] == gs[k]) k++;
        TU_CHECK(gsize == size && k == size,
                 "%s %s mode %d %g n=%zu: GPU version-%d stream differs from the CPU's: sizes %zu/%zu, first "
                 "difference at byte %zu",
                 what, eccl_dtype_name(dt), b->mode, b->value, count, V, gsize, size, k);
        if (gsize != size || k != size) {
            explain(s, size, gs, gsize);
            if (getenv("ECCL_TEST_VERBOSE")) { /* the version-1 streams of the same input, for comparison */
                size_t z1 = 0, g1 = 0;
                unsigned char *s1 = tu_malloc(cap), *t1 = tu_malloc(cap);
                eccl_compress_fmt(x, count, dt, b, s1, cap, &z1, ECCL_PATH_AUTO, 1);
                eccl_cuda_compress_fmt(g->codec, g->dz, count, dt, b, g->ds, g->cap_stream, NULL, &g1, NULL, 1);
                cudaMemcpy(t1, g->ds, g1 < cap ? g1 : cap, cudaMemcpyDeviceToHost);
                const int same1 = g1 == z1 && !memcmp(s1, t1, z1);
                printf("  version 1: sizes %zu/%zu, %s\n", g1, z1, same1 ? "same" : "differ");
                if (!same1) explain(s1, z1, t1, g1);
                free(s1);
                free(t1);
            }
        }
        encoded++;
        eccl_stream_t st;
        if (is64_of(dt) && gsize == size && k == size && eccl_stream_parse(s, size, &st) == ECCL_SUCCESS)
            for (uint64_t t = 0; t < st.nt; t++) {
                const unsigned form = eccl_stream_tile_form(&st, t);
                int raw = 0;
                for (uint64_t j = 256 * t; j < st.nb && j < 256 * t + 256; j++) raw |= eccl_fmt_code_is_raw(st.codes[j]);
                if (form >= ECCL_FMT_FORM_S1) enc64_sparse[form - ECCL_FMT_FORM_S1][raw]++;
                if (form == ECCL_FMT_FORM_L2) enc64_l2[raw]++;
            }
    }
    free(gs);
}

/* Part 6: the homomorphic kernel on the version-V stream s of x, with x reversed as the local
 * operand, against eccl_hom_reduce: the same bytes (a version-V stream). */
static void hom_compare(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, const void *x,
                        const unsigned char *s, size_t size, const char *what)
{
    const size_t esz = eccl_dtype_size(dt), cap = eccl_compress_bound(count, dt);
    unsigned char *y = tu_malloc(count * esz + 1), *out = tu_malloc(cap), *gout = tu_malloc(cap);
    for (size_t i = 0; i < count; i++) memcpy(y + i * esz, (const unsigned char *)x + (count - 1 - i) * esz, esz);
    const eccl_op_t ops[] = {ECCL_OP_SUM, ECCL_OP_MAX, ECCL_OP_MIN};
    for (int k = 0; k < (reals_of(dt) == 1 ? 3 : 1); k++) {
        size_t o1 = 0, o2 = 0;
        eccl_result_t r1 = eccl_hom_reduce(s, size, y, count, dt, ops[k], out, cap, &o1);
        cudaMemcpy(g->ds, s, size, cudaMemcpyHostToDevice);
        cudaMemcpy(g->dy, y, count * esz, cudaMemcpyHostToDevice);
        eccl_result_t r2 = eccl_cuda_hom_reduce(g->codec, g->ds, size, g->dy, count, dt, ops[k], g->dh, cap, NULL,
                                                &o2, NULL);
        if (r2 == ECCL_SUCCESS) r2 = eccl_cuda_codec_check(g->codec, NULL);
        TU_CHECK(r1 == r2, "hom %s %s op %d n=%zu: cpu %s, gpu %s", what, eccl_dtype_name(dt), (int)ops[k], count,
                 eccl_strerror(r1), eccl_strerror(r2));
        if (r1 == ECCL_SUCCESS && r2 == ECCL_SUCCESS) {
            cudaMemcpy(gout, g->dh, o2 < cap ? o2 : cap, cudaMemcpyDeviceToHost);
            size_t z = 0;
            while (z < o1 && z < o2 && out[z] == gout[z]) z++;
            TU_CHECK(o1 == o2 && z == o1 && out[ECCL_HDR_VMAJOR] == V,
                     "hom %s %s op %d mode %d %g n=%zu: GPU stream differs (sizes %zu/%zu, byte %zu, version %d)",
                     what, eccl_dtype_name(dt), (int)ops[k], b->mode, b->value, count, o2, o1, z,
                     out[ECCL_HDR_VMAJOR]);
            homs++;
        }
    }
    free(y);
    free(out);
    free(gout);
}

/* The checks of parts 1-3 on the count elements at x. */
static void case_v2(gpu_t *g, eccl_dtype_t dt, const eccl_bound_t *b, size_t count, const void *x, const char *what,
                    int trials, tu_rng *rng)
{
    size_t cap = eccl_compress_bound(count, dt), size = 0;
    unsigned char *s = tu_malloc(cap);
    gpu_reserve(g, count, dt);
    eccl_result_t rc = eccl_compress_fmt(x, count, dt, b, s, cap, &size, ECCL_PATH_AUTO, V);
    TU_CHECK(rc == ECCL_SUCCESS, "%s: cpu compress (v%d): %s", what, V, eccl_strerror(rc));
    if (rc) {
        free(s);
        return;
    }
    streams++;
    l2_seen += (long)l2_tiles(s, size);
    encode_compare(g, dt, b, count, x, s, size, what);
    if (hom_ok) hom_compare(g, dt, b, count, x, s, size, what);
    rc = both_decode(g, s, size, count, dt, what);
    TU_CHECK(rc == ECCL_SUCCESS, "%s: the CPU refuses its own stream: %s", what, eccl_strerror(rc));
    unsigned char *c = tu_malloc(size);
    for (int trial = 0; trial < trials && size > 80; trial++) {
        memcpy(c, s, size);
        size_t pos = 64 + tu_next(rng) % (size - 64);
        c[pos] ^= (unsigned char)(1u << (tu_next(rng) % 8));
        rechecksum(c, size);
        both_decode(g, c, size, count, dt, what);
        damaged++;
    }
    eccl_stream_t st;
    if (size > 64 && eccl_stream_parse(s, size, &st) == ECCL_SUCCESS) {
        for (uint64_t t = 0; t < st.nt && t < 3; t++) { /* every form value in the first tiles' entries */
            for (unsigned form = 0; form < 4; form++) {
                memcpy(c, s, size);
                uint64_t e = eccl_ld64(c + 64 + 8 * t);
                eccl_st64(c + 64 + 8 * t, (e & ECCL_FMT_INDEX_OFFSET_MASK) | ((uint64_t)form << 62));
                rechecksum(c, size);
                eccl_result_t r = both_decode(g, c, size, count, dt, what);
                if (!eccl_fmt_form_ok(form, V, st.qp.quant, st.qp.lag))
                    TU_CHECK(r == ECCL_ERR_CORRUPT, "%s: form %u accepted in version %d", what, form, V);
                damaged++;
            }
        }
        if (V == 2) { /* the same tiles read as version 3 (which has forms 0 and 1 too): refused by the
                       * default decoders, read by those that read version 3 */
            memcpy(c, s, size);
            c[ECCL_HDR_VMAJOR] = 3;
            rechecksum(c, size);
            cudaMemcpy(g->ds, c, size, cudaMemcpyHostToDevice);
            rc = eccl_cuda_decompress(g->codec, g->ds, size, g->dy, count, dt, 1, NULL);
            TU_CHECK(rc == ECCL_ERR_UNSUPPORTED, "%s: version 3 read by default: %s", what, eccl_strerror(rc));
            eccl_cuda_codec_set_read_version(g->codec, 3);
            both_decode(g, c, size, count, dt, what);
            eccl_cuda_codec_set_read_version(g->codec, 2);
        }
        memcpy(c, s, size); /* a version-4 stream */
        c[ECCL_HDR_VMAJOR] = 4;
        rechecksum(c, size);
        cudaMemcpy(g->ds, c, size, cudaMemcpyHostToDevice);
        rc = eccl_cuda_decompress(g->codec, g->ds, size, g->dy, count, dt, 1, NULL);
        TU_CHECK(rc == ECCL_ERR_UNSUPPORTED, "%s: version 4: %s", what, eccl_strerror(rc));
    }
    free(c);
    free(s);
}

/* Part 1. */
static void pattern_cases(gpu_t *g, int quick, tu_rng *rng)
{
    const size_t sizes[] = {1, 2, 31, 33, 8191, 8193, 100003, (size_t)1 << 20, (size_t)4 << 20};
    const eccl_bound_t bounds[] = {{ECCL_MODE_ABS, 1e-4, 0},  {ECCL_MODE_ABS, 1e-1, 0},
                                   {ECCL_MODE_ABS, 1e-7, 0},  {ECCL_MODE_ABS, 1e-13, 0},
                                   {ECCL_MODE_REL, 1e-4, ECCL_RANGE_FROM_DATA}, {ECCL_MODE_LOSSLESS, 0, 0}};
    for (unsigned d = 0; d < 4; d++)
        for (unsigned bi = 0; bi < sizeof bounds / sizeof *bounds; bi++)
            for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
                for (int pat = 0; pat < TU_NPATTERNS; pat++) {
                    const size_t n = sizes[si];
                    if (n > 100000 && (pat != TU_SMOOTH && pat != TU_RANDOMWALK && pat != TU_NANINF)) continue;
                    if (n > 100000 && (quick || bi > 2)) continue;
                    void *x = tu_malloc(n * eccl_dtype_size(dtypes[d]));
                    tu_fill(x, n * reals_of(dtypes[d]), is64_of(dtypes[d]), pat, n + 17);
                    char what[96];
                    snprintf(what, sizeof what, "%s mode %d %g", tu_pattern_name[pat], bounds[bi].mode,
                             bounds[bi].value);
                    hom_ok = n <= 100000;
                    case_v2(g, dtypes[d], &bounds[bi], n, x, what, n > 100000 ? 2 : 4, rng);
                    hom_ok = 1;
                    free(x);
                }
}

/* Part 2: the integers q (n of them, |q| <= QMAX) as values q * D at ABS eb, so that they quantize
 * to exactly q. */
static void ints_case(gpu_t *g, eccl_dtype_t dt, const int64_t *q, size_t n, double eb, const char *what,
                      tu_rng *rng)
{
    const double D = eccl_fmt_quantum(eb);
    void *x = tu_malloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        if (dt == ECCL_FLOAT32) ((float *)x)[i] = (float)((double)q[i] * D);
        else ((double *)x)[i] = (double)q[i] * D;
    }
    eccl_bound_t b = {ECCL_MODE_ABS, eb, 0};
    case_v2(g, dt, &b, n, x, what, 12, rng);
    free(x);
}

static void integer_cases(gpu_t *g, tu_rng *rng)
{
    const size_t lens[] = {8192 * 3, 8192 * 3 + 1, 8192 * 2 + 45, 8192 * 4 + 8191};
    for (unsigned li = 0; li < 4; li++) {
        const size_t n = lens[li];
        int64_t *q = tu_malloc(n * sizeof *q);
        for (int dti = 0; dti < 2; dti++) {
            const eccl_dtype_t dt = dti ? ECCL_FLOAT64 : ECCL_FLOAT32;
            /* exact parabolas and cubics: constant or slowly changing second differences */
            for (size_t i = 0; i < n; i++) {
                const double u = (double)(i % 4096) - 2048.0;
                q[i] = (int64_t)(u * u * 60.0) - (int64_t)(i / 4096 % 2) * (int64_t)(u * u * u / 40.0);
            }
            ints_case(g, dt, q, n, 1e-3, "parabolas", rng);
            /* a random walk of the slope (second-order deltas of a few bits), a NaN block in tile 1
             * and an infinity in the last block: RAW blocks inside form-L2 tiles */
            int64_t v = 0, p = 0;
            for (size_t i = 0; i < n; i++) {
                v += (int64_t)(tu_next(rng) % 9) - 4;
                if (v > 3000 || v < -3000) v /= 2;
                p += v;
                if (p > 400000000 || p < -400000000) p /= 2;
                q[i] = p;
            }
            const double D = eccl_fmt_quantum(1e-3);
            void *x = tu_malloc(n * 8);
            for (size_t i = 0; i < n; i++) {
                if (dt == ECCL_FLOAT32) ((float *)x)[i] = (float)((double)q[i] * D);
                else ((double *)x)[i] = (double)q[i] * D;
            }
            if (dt == ECCL_FLOAT32) {
                ((float *)x)[8192 + 100] = NAN;
                ((float *)x)[n - 1] = INFINITY;
            } else {
                ((double *)x)[8192 + 100] = NAN;
                ((double *)x)[n - 1] = INFINITY;
            }
            eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
            case_v2(g, dt, &b, n, x, "slope walk with RAW blocks", 12, rng);
            free(x);
            /* integers near QMAX that swing: second-order deltas beyond FQ planes (Lorenzo kept) */
            const int64_t qmax = dt == ECCL_FLOAT32 ? ECCL_FMT_QMAX32 : ECCL_FMT_QMAX64;
            for (size_t i = 0; i < n; i++)
                q[i] = (i / 64) % 2 ? ((i & 1) ? qmax - (int64_t)(i % 7) : -qmax + (int64_t)(i % 5))
                                    : (int64_t)(i % 4096) * 1000 - 2000000;
            ints_case(g, dt, q, n, 1e-3, "swings near QMAX", rng);
        }
        /* float32: steep parabolas, period 64 (a cusp in every other block), second differences of
         * 2^19 (20 planes: the widest block decoded through a row) in the even tiles and 2^20 (21
         * planes: decode_l2_thread) in the odd ones */
        for (size_t i = 0; i < n; i++) {
            const int64_t j = (int64_t)(i % 64) - 32;
            q[i] = ((int64_t)1 << (i / 8192 % 2 ? 19 : 18)) * j * j;
        }
        ints_case(g, ECCL_FLOAT32, q, n, 1e-3, "steep parabolas", rng);
        /* float64: second differences of 2^32 quanta, all positive, where the Lorenzo deltas change
         * sign: second order wins by the sign map with 45 planes (the warp decoder) */
        for (size_t i = 0; i < n; i++) { /* a gentle parabola per tile (form L2), and over blocks
                                              * 40-41 a steep one whose vertex starts block 41 */
            const int64_t j = (int64_t)(i % 8192), u = j - 1312;
            q[i] = (j - 4096) * (j - 4096) / 16 + (j >= 1280 && j < 1344 ? ((int64_t)1 << 31) * u * u : 0);
        }
        ints_case(g, ECCL_FLOAT64, q, n, 1e-6, "45-plane second order", rng);
        free(q);
    }
}

/* Part 3b: a float32 parabola whose vertex sits 2000 quanta below QMAX (second-order blocks of
 * sign mode "all <= 0"); block 128's sign mode turned to "all >= 0" (same size, canonical, the
 * checksum repaired) bends the curve up past QMAX: both decoders must refuse it. */
static void out_of_range_case(gpu_t *g)
{
    const size_t n = 8192;
    const double D = eccl_fmt_quantum(1e-3);
    float *x = tu_malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        const int64_t j = (int64_t)i - 4096;
        x[i] = (float)((double)(ECCL_FMT_QMAX32 - 2000 - 128 * j * j) * D);
    }
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
    size_t cap = eccl_compress_bound(n, ECCL_FLOAT32), size = 0;
    unsigned char *s = tu_malloc(cap);
    TU_RC(eccl_compress_fmt(x, n, ECCL_FLOAT32, &b, s, cap, &size, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    gpu_reserve(g, n, ECCL_FLOAT32);
    eccl_stream_t st;
    TU_RC(eccl_stream_parse(s, size, &st), ECCL_SUCCESS);
    const size_t at = (size_t)(st.codes - s) + 128;
    TU_CHECK(eccl_stream_tile_form(&st, 0) == ECCL_FMT_FORM_L2 && (s[at] & 0xE0u) == 0xA0u,
             "out-of-range case: block 128 is not second order with sign mode 2 (form %u, code 0x%02x)",
             eccl_stream_tile_form(&st, 0), s[at]);
    s[at] = (unsigned char)((s[at] & 0x3Fu) | 0x40u);
    rechecksum(s, size);
    eccl_result_t rc = both_decode(g, s, size, n, ECCL_FLOAT32, "second-order integers past QMAX");
    TU_CHECK(rc == ECCL_ERR_CORRUPT, "integers past QMAX accepted: %s", eccl_strerror(rc));
    damaged++;
    free(x);
    free(s);
}

/* Part 3c: float32 second-order integers past QMAX that modulo 2^32 land back in range: the 32-bit
 * row of a narrow second-order block must be finished in 64 bits (dec.cuh rows_finish). No encoder
 * writes such a block (the values' float32 spacing there is 128 quanta: their blocks go RAW), so
 * the stream is built from integers here: one form-L2 tile whose blocks are all QUANT, the code of
 * each the cheaper of Lorenzo and second order (eccl_block_price_forms). Block 127 ends with the
 * jump -(2^30 - 2^16) -> 2^30 - 2^16; block 128, the last, continues it with the integers
 * 2^30 + (i + 1) 2^31 + (-1)^i e: second order, every integer past QMAX, and every one within it
 * modulo 2^32 (-2^30 + e for even i, 2^30 - e for odd i). With e = 2^10 its deltas need 18
 * planes (a row), with e = 2^19 22 planes (decode_l2_thread). Both decoders must refuse either
 * stream. The control, block 128 constant at 2^30 - 2^16, they must accept and agree on. */
typedef struct {
    const int64_t *q;
    uint64_t n;
    const eccl_qparams_t *qp;
} ints_tile_ctx;

static int64_t ints_tile(void *ctx, uint64_t tile, unsigned char *codes, unsigned *form, unsigned char *payload)
{
    const ints_tile_ctx *c = ctx;
    const uint64_t nb = (c->n + 31) / 32, b0 = 256 * tile, b1 = nb - b0 < 256 ? nb : b0 + 256;
    int64_t off = 0, pred[3];
    *form = ECCL_FMT_FORM_L2;
    for (uint64_t b = b0; b < b1; b++) {
        const int r = (int)(c->n - 32 * b < 32 ? c->n - 32 * b : 32);
        const int64_t *q = c->q + 32 * b;
        int size[2];
        unsigned code[2];
        eccl_block_price_forms(c->qp, q, r, b > b0 ? pred : NULL, 1, size, code);
        if (size[1] < 0) return -(int64_t)ECCL_ERR_INTERNAL;
        codes[b - b0] = (unsigned char)code[1];
        off += eccl_block_write_quant(c->qp, q, r, b > b0 ? pred : NULL, ECCL_FMT_FORM_L2, code[1], payload + off);
        pred[0] = pred[1] = q[r - 1];
        pred[2] = q[r >= 2 ? r - 2 : r - 1];
    }
    return eccl_tile_pad(payload, off);
}

static void wrap_case(gpu_t *g)
{
    const size_t n = 4128;
    const int64_t big = ((int64_t)1 << 30) - ((int64_t)1 << 16);
    /* the stream's parameters: those of a stream the codec writes at ABS 1e-3 */
    float *x = tu_malloc(n * sizeof *x);
    memset(x, 0, n * sizeof *x);
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
    size_t cap = eccl_compress_bound(n, ECCL_FLOAT32) + 4096, size = 0;
    unsigned char *s = tu_malloc(cap);
    eccl_stream_t st;
    TU_RC(eccl_compress_fmt(x, n, ECCL_FLOAT32, &b, s, cap, &size, ECCL_PATH_AUTO, 2), ECCL_SUCCESS);
    TU_RC(eccl_stream_parse(s, size, &st), ECCL_SUCCESS);
    const eccl_qparams_t qp = st.qp;
    const eccl_stream_desc_t desc = {2, ECCL_FLOAT32, st.mode, st.nsum, st.count, st.bound, st.eb, st.range};
    int64_t *q = tu_malloc(n * sizeof *q);
    for (size_t i = 0; i < 4094; i++) q[i] = ((int64_t)i - 2000) * ((int64_t)i - 2000) / 1024;
    q[4094] = -big;
    q[4095] = big;
    gpu_reserve(g, n, ECCL_FLOAT32);
    for (int bad = 0; bad < 3; bad++) {
        const int64_t e = bad == 2 ? (int64_t)1 << 19 : 1024;
        for (int64_t i = 0; i < 32; i++)
            q[4096 + i] = bad ? ((int64_t)1 << 30) + (i + 1) * ((int64_t)1 << 31) + (i & 1 ? -e : e) : big;
        ints_tile_ctx c = {q, n, &qp};
        TU_RC(eccl_stream_write(&desc, ints_tile, &c, s, cap, &size), ECCL_SUCCESS);
        TU_RC(eccl_stream_parse(s, size, &st), ECCL_SUCCESS);
        const unsigned m = st.codes[128];
        const int planes = bad == 2 ? 22 : 18;
        TU_CHECK(eccl_stream_tile_form(&st, 0) == ECCL_FMT_FORM_L2 && !eccl_fmt_code_is_raw(st.codes[127]) &&
                     (!bad || (eccl_fmt_code_pred(m) == ECCL_FMT_PRED_NONE && eccl_fmt_quant_planes(m, 0) == planes)),
                 "wrap case %d: not the intended structure (form %u, block 127 0x%02x, block 128 0x%02x)",
                 bad, eccl_stream_tile_form(&st, 0), st.codes[127], m);
        eccl_result_t rc =
            both_decode(g, s, size, n, ECCL_FLOAT32, bad ? "integers past QMAX by 2^32" : "wrap control");
        TU_CHECK(rc == (bad ? ECCL_ERR_CORRUPT : ECCL_SUCCESS), "wrap case %d: %s", bad, eccl_strerror(rc));
        damaged += bad > 0;
    }
    free(q);
    free(x);
    free(s);
}

/* Part 4: a version-2 stream decoded into an m x n column-major matrix with leading dimension ld. */
static void view_case(gpu_t *g, eccl_dtype_t dt, size_t m, size_t n, size_t ld)
{
    const size_t esz = eccl_dtype_size(dt), count = m * n, reals = reals_of(dt);
    void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz), *big = tu_malloc(ld * n * esz);
    tu_fill(x, count * reals, is64_of(dt), TU_SMOOTH, 5);
    size_t cap = eccl_compress_bound(count, dt), size = 0;
    unsigned char *s = tu_malloc(cap);
    eccl_bound_t b = {ECCL_MODE_ABS, 1e-5, 0};
    TU_RC(eccl_compress_fmt(x, count, dt, &b, s, cap, &size, ECCL_PATH_AUTO, V), ECCL_SUCCESS);
    TU_RC(eccl_decompress(s, size, y, count, dt), ECCL_SUCCESS);
    gpu_reserve(g, ld * n, dt);
    cudaMemcpy(g->ds, s, size, cudaMemcpyHostToDevice);
    cudaMemset(g->dz, 0, ld * n * esz);
    eccl_result_t rc = eccl_cuda_decompress_2d(g->codec, g->ds, size, g->dz, m, n, ld, dt, 1, NULL);
    TU_CHECK(rc == ECCL_SUCCESS, "2d %s %zux%zu ld %zu: %s", eccl_dtype_name(dt), m, n, ld, eccl_strerror(rc));
    cudaMemcpy(big, g->dz, ld * n * esz, cudaMemcpyDeviceToHost);
    int same = 1;
    for (size_t j = 0; j < n; j++)
        same &= memcmp((char *)big + j * ld * esz, (char *)y + j * m * esz, m * esz) == 0;
    TU_CHECK(same, "2d %s %zux%zu ld %zu: GPU values differ from the CPU's", eccl_dtype_name(dt), m, n, ld);
    l2_seen += (long)l2_tiles(s, size);
    free(x);
    free(y);
    free(big);
    free(s);
}

/* Part 2b (version 3): integers with flat or straight runs, so that tiles go sparse (doc/format.md
 * 6.4): kind 0, flat runs and jumps of 1-16 bits (first-order sparse blocks); kind 1, jumps of
 * 21-26 bits (float32) or 31-40 bits (64-bit: 45 planes, the warp decoder); kind 2, a slope that
 * turns at random points by up to 2^12 (second-order sparse blocks); kind 3, turns of 2^19-2^22
 * (float32: more than 20 planes, decode_l2_thread) or 2^33-2^36 (64-bit). The complex64 stream
 * holds kind 0 and 1's integers as its reals (form S1 with lag 2). float64's kind 0 has a NaN in
 * tile 2 (a RAW block in a sparse tile: the GPU's warp coder writes that tile). */
static void sparse_cases(gpu_t *g, tu_rng *rng)
{
    const size_t n = 8192 * 4 + 78;
    const double eb = 1e-3, D = eccl_fmt_quantum(eb);
    int64_t *q = tu_malloc(n * sizeof *q);
    static const char *names[4] = {"flat runs", "flat runs, wide jumps", "straight runs", "straight runs, sharp turns"};
    for (int dti = 0; dti < 3; dti++) {
        const eccl_dtype_t dt = dti == 1 ? ECCL_FLOAT64 : dti == 2 ? ECCL_COMPLEX64 : ECCL_FLOAT32;
        const int64_t lim = dti == 1 ? (int64_t)1 << 42 : (int64_t)1 << 24;
        for (int kind = 0; kind < (dti == 2 ? 2 : 4); kind++) {
            int64_t v = 0, slope = 0;
            for (size_t i = 0; i < n; i++) {
                if (tu_next(rng) % 11 == 0) { /* a jump (kinds 0, 1) or a turn (2, 3) */
                    const unsigned lo = kind == 0 ? 1 : kind == 1 ? (dti == 1 ? 31 : 21) : kind == 2 ? 1 : (dti == 1 ? 33 : 19);
                    const unsigned span = kind == 0 ? 16 : kind == 1 ? (dti == 1 ? 10 : 6) : kind == 2 ? 12 : 4;
                    const unsigned bits = lo + (unsigned)(tu_next(rng) % span);
                    int64_t step = (int64_t)(tu_next(rng) % ((uint64_t)1 << (bits - 1))) + ((int64_t)1 << (bits - 1));
                    if (tu_next(rng) & 1) step = -step;
                    if (kind < 2) v += step;
                    else slope = slope > 0 ? -(step < 0 ? -step : step) / 2 : (step < 0 ? -step : step) / 2; /* a zigzag */
                }
                v += slope;
                if (v > lim || v < -lim) v /= 4;
                q[i] = v;
            }
            void *x = tu_malloc(n * 8);
            for (size_t i = 0; i < n; i++) {
                if (dt == ECCL_FLOAT64) ((double *)x)[i] = (double)q[i] * D;
                else ((float *)x)[i] = (float)((double)q[i] * D);
            }
            if (dt == ECCL_FLOAT64 && kind == 0) /* a RAW block inside a sparse tile (the warp coder) */
                ((double *)x)[8192 * 2 + 333] = NAN;
            eccl_bound_t b = {ECCL_MODE_ABS, eb, 0};
            case_v2(g, dt, &b, dt == ECCL_COMPLEX64 ? n / 2 : n, x, names[kind], 12, rng);
            free(x);
        }
    }
    free(q);
}

/* The collectives' GPU context in each format (eccl_dev_ctx_set_format, as under ECCL_FORMAT):
 * the streams of every dtype of a field with flat runs (sparse tiles in version 3) must be the
 * CPU's bytes, and so must the context's homomorphic SUM of them, its decoded values the CPU's;
 * versions 2 and 1 afterwards (the instances without sparse tiles again); other versions
 * refused. */
static void ctx_cases(void)
{
    const size_t n = 70001; /* (9 tiles, a short last block) */
    const eccl_bound_t b = {ECCL_MODE_ABS, 1e-3, 0};
    eccl_dev_ctx_t *ctx = NULL;
    TU_RC(eccl_dev_ctx_create(&ctx, 1), ECCL_SUCCESS);
    if (!ctx) exit(99);
    TU_RC(eccl_dev_ctx_set_format(ctx, 4), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_dev_ctx_set_format(ctx, 0), ECCL_ERR_INVALID_ARG);
    TU_RC(eccl_dev_ctx_set_format(NULL, 3), ECCL_ERR_INVALID_ARG);
    const size_t cap = eccl_compress_bound(n, ECCL_COMPLEX128);
    unsigned char *x = tu_malloc(n * 16), *want = tu_malloc(cap), *got = tu_malloc(cap), *hw = tu_malloc(cap);
    unsigned char *y = tu_malloc(n * 16), *z = tu_malloc(n * 16);
    void *dx = NULL, *dy = NULL;
    if (cudaMalloc(&dx, n * 16) || cudaMalloc(&dy, n * 16)) exit(99);
    long sparse = 0;
    for (int v = 3; v >= 1; v--) {
        TU_RC(eccl_dev_ctx_set_format(ctx, v), ECCL_SUCCESS);
        for (unsigned d = 0; d < 4; d++) {
            const eccl_dtype_t dt = dtypes[d];
            const size_t nr = n * reals_of(dt), esz = eccl_dtype_size(dt);
            for (size_t i = 0; i < nr; i++) { /* runs of one value (zero deltas), ramps, noise */
                const double t = (double)(i / 97 % 5 == 0 ? i : i / 61) * 0.01;
                const double u = floor(sin(t) * 4000.0) * 1e-3 + (i % 211 == 0 ? 0.37 : 0.0);
                if (is64_of(dt)) ((double *)x)[i] = u;
                else ((float *)x)[i] = (float)u;
            }
            size_t wsize = 0, size = 0, hsize = 0;
            TU_RC(eccl_compress_fmt(x, n, dt, &b, want, cap, &wsize, ECCL_PATH_AUTO, v), ECCL_SUCCESS);
            if (cudaMemcpy(dx, x, n * esz, cudaMemcpyHostToDevice)) exit(99);
            memset(got, 0xA5, cap);
            eccl_result_t rc = eccl_dev_compress(ctx, dx, NULL, n, dt, &b, got, cap, &size);
            TU_RC(rc, ECCL_SUCCESS);
            if (!rc)
                TU_CHECK(size == wsize && !memcmp(got, want, wsize), "version %d %s: eccl_dev_compress %zu bytes, the CPU %zu",
                         v, eccl_dtype_name(dt), size, wsize);
            if (v == 3) {
                eccl_stream_t st;
                if (eccl_stream_parse(want, wsize, &st)) exit(99);
                for (uint64_t t = 0; t < st.nt; t++) sparse += eccl_stream_tile_form(&st, t) >= ECCL_FMT_FORM_S1;
            }
            if (v == 3) { /* the same elements in a column-major panel (lay: the BLACS layer's
                                   matrix calls), padding rows NaN: the same stream and SUM */
                const eccl_dev_layout_t lay = {1000, 1003, 5};
                const size_t cols = (lay.first + n + lay.m - 1) / lay.m, mb = lay.ld * cols * esz;
                unsigned char *A = tu_malloc(mb);
                void *dA = NULL;
                memset(A, 0xFF, mb);
                for (size_t k = 0; k < n; k++)
                    memcpy(A + ((lay.first + k) / lay.m * lay.ld + (lay.first + k) % lay.m) * esz, x + k * esz, esz);
                if (cudaMalloc(&dA, mb) || cudaMemcpy(dA, A, mb, cudaMemcpyHostToDevice)) exit(99);
                memset(got, 0xA5, cap);
                TU_RC(eccl_dev_compress(ctx, dA, &lay, n, dt, &b, got, cap, &size), ECCL_SUCCESS);
                TU_CHECK(size == wsize && !memcmp(got, want, wsize), "version 3 %s panel: eccl_dev_compress %zu bytes, the CPU %zu",
                         eccl_dtype_name(dt), size, wsize);
                TU_RC(eccl_hom_reduce(want, wsize, x, n, dt, ECCL_OP_SUM, hw, cap, &hsize), ECCL_SUCCESS);
                memset(got, 0xA5, cap);
                TU_RC(eccl_dev_hom_reduce(ctx, want, wsize, dA, &lay, n, dt, ECCL_OP_SUM, got, cap, &size), ECCL_SUCCESS);
                TU_CHECK(size == hsize && !memcmp(got, hw, hsize), "version 3 %s panel: eccl_dev_hom_reduce %zu bytes, the CPU %zu",
                         eccl_dtype_name(dt), size, hsize);
                cudaFree(dA);
                free(A);
            }
            /* the CPU's stream decoded by the context, whatever the dtype */
            TU_RC(eccl_decompress(want, wsize, y, n, dt), ECCL_SUCCESS);
            TU_RC(eccl_dev_decompress(ctx, want, wsize, dy, NULL, n, dt), ECCL_SUCCESS);
            if (cudaMemcpy(z, dy, n * esz, cudaMemcpyDeviceToHost)) exit(99);
            TU_CHECK(!memcmp(y, z, n * esz), "version %d %s: eccl_dev_decompress differs from the CPU", v,
                     eccl_dtype_name(dt));
            /* its homomorphic SUM with x */
            TU_RC(eccl_hom_reduce(want, wsize, x, n, dt, ECCL_OP_SUM, hw, cap, &hsize), ECCL_SUCCESS);
            memset(got, 0xA5, cap);
            rc = eccl_dev_hom_reduce(ctx, want, wsize, dx, NULL, n, dt, ECCL_OP_SUM, got, cap, &size);
            TU_RC(rc, ECCL_SUCCESS);
            if (!rc)
                TU_CHECK(size == hsize && !memcmp(got, hw, hsize), "version %d %s: eccl_dev_hom_reduce %zu bytes, the CPU %zu",
                         v, eccl_dtype_name(dt), size, hsize);
        }
    }
    printf("GPU context in formats 3, 2, 1: %ld sparse tiles among the version-3 inputs\n", sparse);
    TU_CHECK(sparse > 0, "no sparse tile in the context's version-3 cases");
    eccl_dev_ctx_free(ctx);
    cudaFree(dx);
    cudaFree(dy);
    free(x);
    free(y);
    free(z);
    free(want);
    free(got);
    free(hw);
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
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int quick = getenv("ECCL_TEST_QUICK") != NULL;
    tu_rng rng = {2026};
    for (V = 2; V <= 3; V++) {
        streams = l2_seen = damaged = encoded = homs = 0;
        TU_RC(eccl_cuda_codec_set_read_version(g.codec, V), ECCL_SUCCESS);
        integer_cases(&g, &rng);
        if (V == 2) {
            out_of_range_case(&g);
            wrap_case(&g);
        } else {
            sparse_cases(&g, &rng);
        }
        printf("version %d, integer cases: %ld streams, %ld second-order tiles, %ld sparse tiles, %ld damaged copies\n",
               V, streams, l2_seen, sparse_tiles, damaged);
        TU_CHECK(l2_seen > 0, "no second-order tile in the integer cases: the test does not reach the second-order decoder");
        pattern_cases(&g, quick, &rng);
        view_case(&g, ECCL_FLOAT32, 1000, 37, 1003);
        view_case(&g, ECCL_FLOAT64, 777, 41, 800);
        view_case(&g, ECCL_FLOAT64, 9000, 3, 9001);
        printf("compared %ld version-%d streams (%ld second-order tiles), %ld damaged copies\n", streams, V, l2_seen,
               damaged);
        printf("GPU version-%d streams equal to the CPU's: %ld compressed, %ld homomorphic\n", V, encoded, homs);
        TU_CHECK(encoded > 0 && homs > 0, "no GPU version-%d stream compared", V);
    }
    ctx_cases();
    printf("sparse tiles %ld; sparse blocks: 32-bit first order %ld, float32 second order rows %ld, wide %ld, "
           "64-bit rows %ld, 64-bit 45 planes %ld\n",
           sparse_tiles, sparse_blocks[0], sparse_blocks[1], sparse_blocks[2], sparse_blocks[3], sparse_blocks[4]);
    for (int k = 0; k < 5; k++)
        TU_CHECK(sparse_blocks[k] > 0, "no sparse block of kind %d: a decoder path goes untested", k);
    printf("64-bit form-L2 tiles written by the GPU: %ld of QUANT blocks only, %ld with a RAW block\n", enc64_l2[0],
           enc64_l2[1]);
    printf("64-bit sparse tiles written by the GPU: form S1 %ld of QUANT blocks only, %ld with a RAW block; form S2 %ld, %ld\n",
           enc64_sparse[0][0], enc64_sparse[0][1], enc64_sparse[1][0], enc64_sparse[1][1]);
    TU_CHECK(enc64_sparse[0][0] + enc64_sparse[1][0] > 0 && enc64_sparse[0][1] + enc64_sparse[1][1] > 0 &&
                 enc64_sparse[0][0] + enc64_sparse[0][1] > 0 && enc64_sparse[1][0] + enc64_sparse[1][1] > 0,
             "the 64-bit encoders wrote no sparse tile of a kind: a version-3 path goes untested");
    TU_CHECK(enc64_l2[0] > 0 && enc64_l2[1] > 0, "a 64-bit encoder wrote no form-L2 tile: its version-2 path goes untested");
    printf("second-order blocks: float32 rows %ld, 64-bit rows %ld, 64-bit 45 planes %ld, head %ld, float32 wide %ld\n",
           l2_blocks[0], l2_blocks[1], l2_blocks[2], l2_blocks[3], l2_blocks[4]);
    for (int k = 0; k < 5; k++)
        TU_CHECK(l2_blocks[k] > 0, "no second-order block of kind %d: a decoder path goes untested", k);
    eccl_cuda_codec_free(&g.codec);
    cudaFree(g.dy);
    cudaFree(g.dz);
    cudaFree(g.ds);
    cudaFree(g.dh);
    return tu_finish("test_cuda_format2");
}
