/*
 * test_codec.c - round trips over dtypes x modes x sizes x data patterns, the bound checked
 * element by element in long double; plus determinism, the worst-case size, and stream_info.
 *
 * ECCL_TEST_QUICK=1 skips the 10^6+3 sizes (used by the sanitizer build to keep CI short).
 */
#include "testutil.h"
#ifdef _OPENMP
#include <omp.h>
#endif

static const eccl_dtype_t dtypes[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};

typedef struct {
    eccl_mode_t mode;
    double value;
} mode_case;

static const mode_case modes[] = {
    {ECCL_MODE_LOSSLESS, 0}, {ECCL_MODE_ABS, 1e-1}, {ECCL_MODE_ABS, 1e-4}, {ECCL_MODE_ABS, 1e-7},
    {ECCL_MODE_ABS, 1e-13},  {ECCL_MODE_ABS, 0.5},  {ECCL_MODE_REL, 1e-2}, {ECCL_MODE_REL, 1e-4},
    {ECCL_MODE_REL, 1e-6},   {ECCL_MODE_ABS, 1e300}, {ECCL_MODE_ABS, 1e-305}};

static int quick;

static void round_trip(eccl_dtype_t dt, const mode_case *mc, size_t count, int pattern)
{
    int is64 = dt == ECCL_FLOAT64 || dt == ECCL_COMPLEX128;
    size_t reals = count * (dt >= ECCL_COMPLEX64 ? 2 : 1);
    size_t esz = eccl_dtype_size(dt);
    void *x = tu_malloc(count * esz), *y = tu_malloc(count * esz);
    size_t cap = eccl_compress_bound(count, dt), size = 0, size2 = 0;
    unsigned char *s = tu_malloc(cap), *s2 = tu_malloc(cap);
    eccl_bound_t b = {mc->mode, mc->value, ECCL_RANGE_FROM_DATA};
    if (mc->mode == ECCL_MODE_ABS) b.range = 0;
    tu_fill(x, reals, is64, pattern, count);

    eccl_result_t rc = eccl_compress(x, count, dt, &b, s, cap, &size);
    TU_CHECK(rc == ECCL_SUCCESS, "compress %s mode %d %g n=%zu %s: %s", eccl_dtype_name(dt),
             mc->mode, mc->value, count, tu_pattern_name[pattern], eccl_strerror(rc));
    if (rc) goto out;
    TU_CHECK(size <= cap && size % 16 == 0, "size %zu vs bound %zu", size, cap);

    double eb = 0;
    TU_RC(eccl_bound_resolve(&b, x, count, dt, &eb), ECCL_SUCCESS);
    eccl_stream_info_t info;
    TU_RC(eccl_stream_info(s, size, &info), ECCL_SUCCESS);
    TU_CHECK(info.eb_abs == eb && info.count == count && info.dtype == dt && info.nsum == 1 &&
                 info.stream_size == size && info.mode == mc->mode,
             "stream_info fields");
    TU_CHECK(info.nblocks == (reals + 31) / 32, "nblocks");

    memset(y, 0xA5, count * esz);
    rc = eccl_decompress(s, size, y, count, dt);
    TU_CHECK(rc == ECCL_SUCCESS, "decompress: %s", eccl_strerror(rc));
    long double maxerr = 0;
    size_t bad = tu_check_bound(x, y, reals, is64, eb, mc->mode == ECCL_MODE_LOSSLESS, &maxerr);
    TU_CHECK(bad == 0, "%zu elements out of bound: %s %s mode %d value %g (eb %g) n=%zu",
             bad, eccl_dtype_name(dt), tu_pattern_name[pattern], mc->mode, mc->value, eb, count);

    /* Same input, same bytes; also with a single thread. */
    memset(s2, 0, cap);
#ifdef _OPENMP
    int nt = omp_get_max_threads();
    omp_set_num_threads(nt > 1 ? 1 : 3);
#endif
    rc = eccl_compress(x, count, dt, &b, s2, cap, &size2);
#ifdef _OPENMP
    omp_set_num_threads(nt);
#endif
    TU_CHECK(rc == ECCL_SUCCESS && size2 == size && memcmp(s, s2, size) == 0,
             "compression is not deterministic across thread counts");

    /* A buffer of exactly the stream's size works; one byte less fails cleanly. */
    if (count > 0) {
        rc = eccl_compress(x, count, dt, &b, s2, size, &size2);
        TU_CHECK(rc == ECCL_SUCCESS && size2 == size && memcmp(s, s2, size) == 0,
                 "exact-capacity compression: %s", eccl_strerror(rc));
        rc = eccl_compress(x, count, dt, &b, s2, size - 1, &size2);
        TU_CHECK(rc == ECCL_ERR_BUFFER_TOO_SMALL, "short buffer gave %s", eccl_strerror(rc));
    }
out:
    free(x);
    free(y);
    free(s);
    free(s2);
}

int main(void)
{
    quick = getenv("ECCL_TEST_QUICK") != NULL;
    const size_t sizes[] = {0, 1, 2, 15, 16, 17, 31, 32, 33, 4095, 4096, 4097, 8191, 8192, 8193, 1000003};
    int nsizes = sizeof sizes / sizeof *sizes;
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned m = 0; m < sizeof modes / sizeof *modes; m++) {
            for (int si = 0; si < nsizes; si++) {
                size_t count = sizes[si];
                if (count > 100000 && quick) continue;
                for (int pat = 0; pat < TU_NPATTERNS; pat++) {
                    if (count > 100000 && pat != TU_SMOOTH && pat != TU_NANINF &&
                        pat != TU_RANDOMWALK && (m % 3) != 0)
                        continue;
                    round_trip(dtypes[d], &modes[m], count, pat);
                }
            }
        }
    }
    /* A REL bound with a caller-provided range (what collectives do). */
    {
        float x[100], y[100];
        unsigned char s[2048];
        size_t sz;
        for (int i = 0; i < 100; i++) x[i] = (float)i;
        eccl_bound_t b = {ECCL_MODE_REL, 1e-3, 1000.0};
        double eb;
        TU_RC(eccl_bound_resolve(&b, NULL, 100, ECCL_FLOAT32, &eb), ECCL_SUCCESS);
        TU_CHECK(eb == 1e-3 * 1000.0, "REL with range: eb %g", eb);
        TU_RC(eccl_compress(x, 100, ECCL_FLOAT32, &b, s, sizeof s, &sz), ECCL_SUCCESS);
        TU_RC(eccl_decompress(s, sz, y, 100, ECCL_FLOAT32), ECCL_SUCCESS);
        TU_CHECK(tu_check_bound(x, y, 100, 0, eb, 0, NULL) == 0, "REL with range: bound");
    }
    return tu_finish("test_codec");
}
