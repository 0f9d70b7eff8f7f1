/*
 * fuzz_driver.c - runs the fuzz target (fuzz_decompress.c) over a deterministic generated corpus,
 * as the check program tests/test_fuzz_smoke (no libFuzzer needed; the sanitizer build reruns it).
 *
 * Corpus: valid streams of every dtype and mode in format versions 1-3 (sizes around block and
 * tile boundaries, several data patterns), then for each a deterministic series of mutations: bit
 * flips, byte sets (random
 * and special values), truncations, extensions, header field changes, block-code changes, and
 * half of all mutations again with the checksum (and sometimes stream_size) recomputed so they
 * reach the validation behind the checksum.
 *
 * Fails if the target reports a disagreement with the reference decoder that is not a known
 * library bug (a crash or a sanitizer report fails it anyway).
 *
 *   test_fuzz_smoke                 run (ECCL_TEST_QUICK=1: fewer mutations)
 *   test_fuzz_smoke --corpus DIR    also write the small seed streams to DIR (tests/fuzz/corpus)
 */
#include <dirent.h>
#include <sys/stat.h>

#include "ref_decoder.h"
#include "testutil.h"
#include "fuzz_target.h"
#include "codec/codec.h" /* eccl_compress_fmt: version-2 and version-3 seeds */

static uint64_t rng_state = 0x5EED;
static uint64_t rnd(void)
{
    tu_rng r = {rng_state};
    uint64_t v = tu_next(&r);
    rng_state = r.s;
    return v;
}

static void run(const unsigned char *buf, size_t len)
{
    /* exactly len bytes on the heap, so any overread is caught by the sanitizers */
    unsigned char *c = tu_malloc(len);
    memcpy(c, buf, len);
    LLVMFuzzerTestOneInput(c, len);
    free(c);
}

static void set64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* one mutation of s (size n, room for n + 64) into m; returns the new length */
static size_t mutate(const unsigned char *s, size_t n, unsigned char *m)
{
    static const unsigned char special[] = {0x00, 0xFF, 0x80, 0x7F, 0x01, 0x20, 0x21, 0x40,
                                            0x5F, 0x7F, 0x9F, 0xC0, 0xC1, 0xDD, 0xFE, 0x1F};
    size_t len = n;
    memcpy(m, s, n);
    int nmut = 1 + (int)(rnd() % 3);
    for (int k = 0; k < nmut; k++) {
        unsigned kind = (unsigned)(rnd() % 9);
        size_t at = len ? (size_t)(rnd() % len) : 0;
        switch (kind) {
        case 0: /* bit flip */
        case 1:
            if (len) m[at] ^= (unsigned char)(1u << (rnd() % 8));
            break;
        case 2: /* random byte */
            if (len) m[at] = (unsigned char)rnd();
            break;
        case 3: /* special byte */
            if (len) m[at] = special[rnd() % sizeof special];
            break;
        case 4: /* truncation */
            len = len ? (size_t)(rnd() % len) : 0;
            break;
        case 5: { /* extension: zeros or random bytes */
            size_t add = 1 + (size_t)(rnd() % 48);
            int zero = rnd() % 2;
            if (len + add > n + 48) add = n + 48 - len; /* m has room for n + 64 */
            for (size_t i = 0; i < add; i++) m[len + i] = zero ? 0 : (unsigned char)rnd();
            len += add;
            break;
        }
        case 6: /* a block code (section 5), when there are any */
            if (len > 80) {
                uint64_t count = 0;
                for (int i = 7; i >= 0; i--) count = (count << 8) | m[16 + i];
                uint64_t nr = count * (m[6] >= 3 ? 2 : 1), nb = (nr + 31) / 32, nt = (nb + 255) / 256;
                if (nb && nb < 100000 && 64 + 8 * nt + nb <= len)
                    m[64 + 8 * nt + rnd() % nb] = rnd() % 2 ? special[rnd() % sizeof special] : (unsigned char)rnd();
            }
            break;
        case 7: /* a header field */
            if (len >= 64) {
                unsigned f = (unsigned)(rnd() % 6);
                if (f == 0) m[4 + rnd() % 8] = special[rnd() % sizeof special];
                else if (f == 1) set64(m + 16, rnd() % 2 ? rnd() % 4096 : rnd());       /* count */
                else if (f == 2) m[12 + rnd() % 4] = (unsigned char)rnd();              /* nsum */
                else if (f == 3) set64(m + 24 + 8 * (rnd() % 3), rnd());                /* f64s */
                else if (f == 4) set64(m + 64 + 8 * (rnd() % 2), rnd() % 2 ? rnd() % 4096 : rnd());
                else m[10 + rnd() % 2] = (unsigned char)rnd();                         /* flags */
            }
            break;
        case 8: /* a 32-bit payload word: planes, sign maps, head values */
            if (len >= 84) {
                size_t w = 64 + (size_t)(rnd() % (len - 68));
                uint32_t v = rnd() % 2 ? (uint32_t)rnd() : (uint32_t)1 << (rnd() % 32);
                for (int i = 0; i < 4; i++) m[w + i] = (unsigned char)(v >> (8 * i));
            }
            break;
        }
    }
    if (len >= 64 && rnd() % 2) { /* get past the checksum */
        if (rnd() % 4 == 0) { /* and past the size check: exactly stream_size bytes (format.md 3) */
            len &= ~(size_t)15;
            set64(m + 48, (uint64_t)len);
        }
        ref_fix_checksum(m, len);
    }
    return len;
}

typedef struct {
    unsigned char *s;
    size_t n;
} seed_t;

/* Replay every file of $srcdir/tests/fuzz/DIR (the committed seed corpus and the inputs that once
 * found bugs); `srcdir` is set by automake's test harness. Returns the number of files. */
static int replay_dir(const char *dir)
{
    const char *srcdir = getenv("srcdir");
    char path[1024];
    int nfiles = 0;
    snprintf(path, sizeof path, "%s/tests/fuzz/%s", srcdir ? srcdir : ".", dir);
    DIR *d = opendir(path);
    if (!d) return 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *f = fopen(file, "rb");
        if (!f) continue;
        unsigned char *buf = tu_malloc(1 << 20);
        size_t n = fread(buf, 1, 1 << 20, f);
        fclose(f);
        run(buf, n);
        if (strcmp(dir, "corpus") == 0) { /* the seed corpus holds valid streams (a stale seed, e.g.
                                               * after a format change, would stop at the checksum) */
            eccl_stream_info_t info;
            eccl_result_t rc = eccl_stream_info(buf, n, &info);
            TU_CHECK(rc == ECCL_SUCCESS, "tests/fuzz/corpus/%s is not a valid stream (%s): regenerate the "
                     "corpus with test_fuzz_smoke --corpus DIR", e->d_name, eccl_strerror(rc));
        }
        free(buf);
        nfiles++;
    }
    closedir(d);
    return nfiles;
}

int main(int argc, char **argv)
{
    const char *corpus_dir = argc > 2 && strcmp(argv[1], "--corpus") == 0 ? argv[2] : NULL;
    int quick = getenv("ECCL_TEST_QUICK") != NULL;
    const eccl_dtype_t dts[] = {ECCL_FLOAT32, ECCL_FLOAT64, ECCL_COMPLEX64, ECCL_COMPLEX128};
    const eccl_bound_t bounds[] = {ECCL_BOUND_LOSSLESS, ECCL_BOUND_ABS(1e-2), ECCL_BOUND_ABS(0.5),
                                   ECCL_BOUND_REL(1e-4), {ECCL_MODE_ABS, 1e-305, 0.0}};
    const size_t counts[] = {0, 1, 5, 17, 33, 70, 4100};
    const int pats[] = {TU_SMOOTH, TU_NANINF, TU_RANDOM, TU_ZEROS, TU_RANDOMWALK, TU_HUGE};
    seed_t seeds[3 * 4 * 5 * 7];
    int nseeds = 0;
    for (int v = 1; v <= 3; v++) /* stream format versions 1, 2 and 3 (doc/format.md 13, 14) */
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 7; c++) {
                size_t count = counts[c], n = count * (dts[d] >= ECCL_COMPLEX64 ? 2 : 1);
                int W = dts[d] == ECCL_FLOAT64 || dts[d] == ECCL_COMPLEX128 ? 8 : 4;
                void *x = tu_malloc(n * (size_t)W);
                tu_fill(x, n, W == 8, pats[(d + b + c) % 6], (uint64_t)(d * 100 + b * 10 + c));
                if (v == 3 && c >= 5) /* flat runs with jumps: sparse tiles (format.md 6.4) */
                    for (size_t i = 0; i < n; i++) {
                        double r = (double)((i / 9) % 5) * 0.75 - (double)((i / 41) % 3);
                        if (W == 8) ((double *)x)[i] = r;
                        else ((float *)x)[i] = (float)r;
                    }
                size_t cap = eccl_compress_bound(count, dts[d]);
                seeds[nseeds].s = tu_malloc(cap + 64);
                TU_RC(eccl_compress_fmt(x, count, dts[d], &bounds[b], seeds[nseeds].s, cap, &seeds[nseeds].n,
                                        ECCL_PATH_AUTO, v),
                      ECCL_SUCCESS);
                nseeds++;
                free(x);
            }
    if (corpus_dir) {
        /* a handful of small valid streams: one per dtype and bound, 33 or 70 elements */
        mkdir(corpus_dir, 0755);
        int written = 0;
        for (int i = 0; i < nseeds; i++) {
            int c = i % 7, b = (i / 7) % 5, v2 = i >= 4 * 5 * 7, d = (i / 35) % 4;
            /* 33 elements; 70 for ABS 1e-2; versions 2 and 3: the real dtypes' 4100 elements of
             * ABS 1e-2 and 0.5 as well (second-order tiles; version 3: sparse ones) */
            if (!(c == 4 || (c == 5 && b == 1) || (v2 && c == 6 && (b == 1 || b == 2) && (d == 0 || d == 1))))
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/seed-%03d", corpus_dir, i);
            FILE *f = fopen(path, "wb");
            if (!f || fwrite(seeds[i].s, 1, seeds[i].n, f) != seeds[i].n) {
                fprintf(stderr, "cannot write %s\n", path);
                return 1;
            }
            fclose(f);
            written++;
        }
        printf("wrote %d seed streams to %s\n", written, corpus_dir);
    }
    int replayed = replay_dir("corpus") + replay_dir("regress");
    long per_seed = quick ? 150 : 600;
    size_t maxn = 256;
    for (int i = 0; i < nseeds; i++)
        if (seeds[i].n > maxn) maxn = seeds[i].n;
    unsigned char *m = tu_malloc(maxn + 64);
    for (int i = 0; i < nseeds; i++) {
        run(seeds[i].s, seeds[i].n);
        long reps = seeds[i].n > 2000 ? per_seed / 4 : per_seed; /* the two-tile seeds: fewer */
        for (long r = 0; r < reps; r++) {
            size_t len = mutate(seeds[i].s, seeds[i].n, m);
            run(m, len);
        }
    }
    /* and a few inputs that are no stream at all */
    for (int r = 0; r < 2000; r++) {
        size_t len = (size_t)(rnd() % 200);
        for (size_t i = 0; i < len; i++) m[i] = (unsigned char)rnd();
        if (len >= 4 && r % 2) memcpy(m, "ECCL", 4);
        if (len >= 64 && r % 4 == 1) ref_fix_checksum(m, len);
        run(m, len);
    }
    free(m);
    for (int i = 0; i < nseeds; i++) free(seeds[i].s);

    printf("test_fuzz_smoke: %ld inputs (%d from tests/fuzz/corpus and regress), %ld with a valid "
           "header, %ld decoded, %ld homomorphic results\n", fuzz_stats.runs, replayed,
           fuzz_stats.valid, fuzz_stats.decoded, fuzz_stats.hom_ok);
    for (int k = 0; k < 4; k++)
        if (fuzz_stats.known_by[k])
            printf("  known library bug hit %ld times: %s\n", fuzz_stats.known_by[k], fuzz_known_name[k]);
    TU_CHECK(fuzz_stats.unknown == 0, "%ld disagreements with the reference decoder that are not "
             "known bugs (the first ones are printed above)", fuzz_stats.unknown);
    TU_CHECK(fuzz_stats.decoded > fuzz_stats.runs / 20, "too few inputs decoded (%ld of %ld): the "
             "mutations no longer reach the decoder", fuzz_stats.decoded, fuzz_stats.runs);
    return tu_finish("test_fuzz_smoke");
}
