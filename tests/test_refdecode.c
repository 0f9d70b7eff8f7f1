/*
 * test_refdecode.c - the library against the independent reference (tests/ref_decoder.c, written
 * from doc/format.md alone):
 *  1. every stream eccl_compress writes is accepted by the reference decoder, and both decoders
 *     return bit-identical values;
 *  2. eccl_compress writes exactly the bytes the normative encoder rules (section 8) prescribe;
 *  3. eccl_hom_reduce / eccl_hom_combine write exactly the bytes section 11 prescribes.
 * Over all 4 dtypes, lossless/ABS/REL bounds (including bounds too small to quantize and huge
 * ones), sizes around block and tile boundaries, and every data pattern of testutil.h.
 *
 * ECCL_TEST_QUICK=1 skips the sizes above 10000.
 */
#include "ref_decoder.h"
#include "testutil.h"

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

typedef struct {
    eccl_mode_t mode;
    double value;
} mode_case;

static const mode_case modes[] = {
    {ECCL_MODE_LOSSLESS, 0}, {ECCL_MODE_ABS, 1e-1},  {ECCL_MODE_ABS, 1e-4},
    {ECCL_MODE_ABS, 1e-7},   {ECCL_MODE_ABS, 0.5},   {ECCL_MODE_REL, 1e-3},
    {ECCL_MODE_REL, 1e-6},   {ECCL_MODE_ABS, 1e300}, {ECCL_MODE_ABS, 1e-305},
    {ECCL_MODE_ABS, 9.332636185032189e-302 /* 2^-1000: the smallest that quantizes */}};
#define NMODES (sizeof modes / sizeof *modes)

static int quick;
static long n_streams, n_hom;

/* Failures are tallied per kind (the first few printed in full), so one library bug does not hide
 * the rest of the matrix behind testutil's 50-failure stop; main() turns each tally into a check. */
enum { K_CALL, K_REJECT, K_DECODE, K_COMPRESS, K_REDUCE, K_COMBINE, K_NKINDS };
static const char *kind_name[K_NKINDS] = {
    "a library or reference call failed", "the reference decoder rejects a library stream",
    "the decoders return different values", "eccl_compress differs from section 8",
    "eccl_hom_reduce differs from section 11", "eccl_hom_combine differs from section 11"};
static long kind_fail[K_NKINDS];
#define RD_CHECK(kind, cond, ...)                                                                  \
    do {                                                                                           \
        tu_checks++;                                                                               \
        if (!(cond) && ++kind_fail[kind] <= 4) {                                                   \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

static int is64_of(eccl_dtype_t dt) { return dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128; }
static size_t reals_of(eccl_dtype_t dt) { return dt >= ECCL_COMPLEX64 ? 2 : 1; }

/* First differing byte, and a short hex context of both. */
static void show_diff(const char *what, const unsigned char *a, size_t an, const unsigned char *b,
                      size_t bn)
{
    size_t i = 0;
    while (i < an && i < bn && a[i] == b[i]) i++;
    fprintf(stderr, "  %s: sizes %zu (library) vs %zu (reference), first difference at byte %zu\n",
            what, an, bn, i);
    size_t from = i >= 8 ? i - 8 : 0;
    fprintf(stderr, "    library  :");
    for (size_t k = from; k < an && k < from + 24; k++) fprintf(stderr, " %02x", a[k]);
    fprintf(stderr, "\n    reference:");
    for (size_t k = from; k < bn && k < from + 24; k++) fprintf(stderr, " %02x", b[k]);
    fprintf(stderr, "\n");
}

static void fill_case(void *x, size_t count, eccl_dtype_t dt, int pattern, uint64_t seed)
{
    tu_fill(x, count * reals_of(dt), is64_of(dt), pattern, seed);
}

static void one(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz), *z = tu_malloc(count * esz);
    size_t cap = eccl_compress_bound(count, dt), size = 0, rsize = 0;
    unsigned char *s = tu_malloc(cap), *rs = NULL;
    char why[REF_WHY_LEN] = "";
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? ECCL_RANGE_FROM_DATA : 0.0};
    fill_case(x, count, dt, pattern, count + 17);
    n_streams++;

    eccl_result_t rc = eccl_compress(x, count, dt, &b, s, cap, &size);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "compress: %s", eccl_strerror(rc));
    if (rc) goto out;

    /* 1. decode with both */
    memset(y, 0x5A, count * esz);
    memset(z, 0xA5, count * esz);
    rc = eccl_decompress(s, size, y, count, dt);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "decompress: %s", eccl_strerror(rc));
    int rrc = ref_decode(s, size, z, count, (unsigned)dt, why);
    RD_CHECK(K_REJECT, rrc == REF_OK, "%s %s mode %d %g count %zu: reference decoder rejects: %s",
             eccl_dtype_name(dt), tu_pattern_name[pattern], mc->mode, mc->value, count, why);
    if (rc == ECCL_SUCCESS && rrc == REF_OK && memcmp(y, z, count * esz) != 0) {
        size_t i = 0;
        while (memcmp((char *)y + i * esz, (char *)z + i * esz, esz) == 0) i++;
        RD_CHECK(K_DECODE, 0, "%s %s mode %d %g count %zu: decoders differ from element %zu",
                 eccl_dtype_name(dt), tu_pattern_name[pattern], mc->mode, mc->value, count, i);
    }

    /* 2. the normative encoder */
    rrc = ref_compress(x, count, (unsigned)dt, (unsigned)mc->mode, mc->value,
                       mc->mode == ECCL_MODE_REL ? -1.0 : 0.0, &rs, &rsize, why);
    RD_CHECK(K_CALL, rrc == REF_OK, "ref_compress: %s", why);
    if (rrc == REF_OK) {
        int same = rsize == size && memcmp(rs, s, size) == 0;
        RD_CHECK(K_COMPRESS, same, "%s %s mode %d %g count %zu: eccl_compress differs from section 8",
                 eccl_dtype_name(dt), tu_pattern_name[pattern], mc->mode, mc->value, count);
        if (!same && kind_fail[K_COMPRESS] <= 4) show_diff("compress", s, size, rs, rsize);
    }
out:
    free(rs);
    free(x);
    free(y);
    free(z);
    free(s);
}

/* Section 11 against the reference: reduce(compress(x), y) and combine(a, b), both orders. */
static void hom_case(eccl_dtype_t dt, const mode_case *mc, size_t count, int pa, int pb, int op)
{
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc(count * esz), *l = tu_malloc(count * esz);
    size_t cap = eccl_compress_bound(count, dt), sa = 0, sb = 0, so = 0, rso = 0;
    unsigned char *a = tu_malloc(cap), *bb = tu_malloc(cap), *o = tu_malloc(cap), *ro = NULL;
    char why[REF_WHY_LEN] = "";
    /* REL needs one common range for both operands: pass it explicitly */
    eccl_bound_t b = {mc->mode, mc->value, mc->mode == ECCL_MODE_REL ? 4.0 : 0.0};
    fill_case(x, count, dt, pa, 3 * count + 1);
    fill_case(l, count, dt, pb, 5 * count + 2);
    n_hom++;
    if (eccl_compress(x, count, dt, &b, a, cap, &sa) || eccl_compress(l, count, dt, &b, bb, cap, &sb)) {
        RD_CHECK(K_CALL, 0, "compress failed");
        goto out;
    }
    const char *opn = op == 0 ? "SUM" : op == 1 ? "MAX" : "MIN";
    eccl_result_t rc = eccl_hom_reduce(a, sa, l, count, dt, (eccl_op_t)op, o, cap, &so);
    RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "hom_reduce %s: %s", opn, eccl_strerror(rc));
    int rrc = ref_hom(a, sa, NULL, 0, l, op, &ro, &rso, why);
    RD_CHECK(K_CALL, rrc == REF_OK, "ref_hom: %s", why);
    if (rc == ECCL_SUCCESS && rrc == REF_OK) {
        int same = so == rso && memcmp(o, ro, so) == 0;
        RD_CHECK(K_REDUCE, same, "hom_reduce %s %s mode %d %g count %zu %s+%s differs from section 11", opn,
                 eccl_dtype_name(dt), mc->mode, mc->value, count, tu_pattern_name[pa],
                 tu_pattern_name[pb]);
        if (!same && kind_fail[K_REDUCE] <= 4) show_diff("hom_reduce", o, so, ro, rso);
    }
    free(ro);
    ro = NULL;
    for (int order = 0; order < 2; order++) {
        const unsigned char *p = order ? bb : a, *q = order ? a : bb;
        size_t ps = order ? sb : sa, qs = order ? sa : sb;
        rc = eccl_hom_combine(p, ps, q, qs, (eccl_op_t)op, o, cap, &so);
        RD_CHECK(K_CALL, rc == ECCL_SUCCESS, "hom_combine %s: %s", opn, eccl_strerror(rc));
        rrc = ref_hom(p, ps, q, qs, NULL, op, &ro, &rso, why);
        RD_CHECK(K_CALL, rrc == REF_OK, "ref_hom: %s", why);
        if (rc == ECCL_SUCCESS && rrc == REF_OK) {
            int same = so == rso && memcmp(o, ro, so) == 0;
            RD_CHECK(K_COMBINE, same, "hom_combine %s %s mode %d %g count %zu %s+%s differs from section 11",
                     opn, eccl_dtype_name(dt), mc->mode, mc->value, count, tu_pattern_name[pa],
                     tu_pattern_name[pb]);
            if (!same && kind_fail[K_COMBINE] <= 4) show_diff("hom_combine", o, so, ro, rso);
        }
        free(ro);
        ro = NULL;
    }
out:
    free(x);
    free(l);
    free(a);
    free(bb);
    free(o);
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") != NULL;
    /* counts: reals n = count (real) or 2*count (complex); boundaries of blocks (32 reals) and
     * tiles (8192 reals) for both */
    const size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64, 65, 4095, 4096, 4097,
                            8191, 8192, 8193, 20000};
    const int nsizes = sizeof sizes / sizeof *sizes;
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned m = 0; m < NMODES; m++) {
            for (int si = 0; si < nsizes; si++) {
                size_t count = sizes[si];
                if (quick && count > 10000) continue;
                for (int pat = 0; pat < TU_NPATTERNS; pat++) {
                    /* big sizes: every pattern for a few modes, a few patterns for the rest */
                    if (count > 1000 && m > 2 && pat != TU_SMOOTH && pat != TU_NANINF &&
                        pat != TU_RANDOMWALK && pat != TU_HUGE)
                        continue;
                    one(dtypes[d], &modes[m], count, pat);
                }
            }
        }
    }
    /* Section 11 */
    const size_t hsizes[] = {1, 31, 33, 100, 8193};
    const int hpat[][2] = {{TU_SMOOTH, TU_SMOOTH},   {TU_SMOOTH, TU_RANDOM}, {TU_NANINF, TU_SMOOTH},
                           {TU_HUGE, TU_RANDOMWALK}, {TU_ZEROS, TU_CONSTANT}, {TU_NORMAL, TU_HUGE},
                           {TU_ALTERNATING, TU_DENORMAL}, {TU_MIXED_SCALE, TU_SMOOTH}};
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned m = 0; m < NMODES; m++) {
            if (m == 3 || m == 6 || m == 9) continue; /* fewer bounds here */
            for (unsigned si = 0; si < sizeof hsizes / sizeof *hsizes; si++) {
                for (unsigned pi = 0; pi < sizeof hpat / sizeof *hpat; pi++) {
                    for (int op = 0; op < 3; op++) {
                        if (op && dtypes[d] >= ECCL_COMPLEX64) continue;
                        if (hsizes[si] > 1000 && (pi > 2 || op)) continue;
                        hom_case(dtypes[d], &modes[m], hsizes[si], hpat[pi][0], hpat[pi][1], op);
                    }
                }
            }
        }
    }
    printf("test_refdecode: %ld streams, %ld homomorphic cases\n", n_streams, n_hom);
    for (int k = 0; k < K_NKINDS; k++)
        TU_CHECK(kind_fail[k] == 0, "%ld cases where %s", kind_fail[k], kind_name[k]);
    return tu_finish("test_refdecode");
}
