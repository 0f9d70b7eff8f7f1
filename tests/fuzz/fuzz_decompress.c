/*
 * fuzz_decompress.c - fuzz target for everything that reads an eccl stream.
 *
 * For any input bytes: eccl_stream_info, eccl_decompress (count and dtype from the header,
 * capped), eccl_hom_reduce (SUM, and MAX for real types) with the decoded values as the local
 * array, and eccl_hom_combine(input, input). None may crash or touch memory outside its buffers
 * (the input is exactly `size` bytes; ASan checks the rest).
 *
 * Differential part: every result is compared with the independent reference implementation
 * (tests/ref_decoder.c, written from doc/format.md): same accept/reject decision and result code,
 * bit-identical decoded values, byte-identical homomorphic results. Disagreements that are known
 * library bugs (see tests/fuzz/README.md) are counted; any other disagreement is a new bug:
 * under libFuzzer it aborts (so the input is saved), in the check driver it fails the test.
 * ECCL_FUZZ_STRICT=1 makes the known ones fatal too; ECCL_FUZZ_NODIFF=1 turns the comparison off.
 *
 * Built with -DECCL_LIBFUZZER for libFuzzer: then it also has a custom mutator that, after
 * libFuzzer's own mutation, often recomputes the checksum (section 9) and sometimes the
 * stream_size field, so mutated streams get past the checksum and reach the structural and
 * payload validation behind it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eccl.h"
#include "fuzz_target.h"
#include "ref_decoder.h"

#define FUZZ_MAX_ELEMS ((uint64_t)4 << 20) /* decode at most 4 Mi elements */

fuzz_stats_t fuzz_stats;
const char *const fuzz_known_name[5] = {
    "eb_abs cap 2^1000 instead of 2^1020 (src/codec/format.h ECCL_FMT_EB_CAP)",
    "f32 QUANT fc=31 with an empty top plane accepted (src/codec/block.c read_planes)",
    "version major 0 reported as UNSUPPORTED, not CORRUPT (src/codec/stream.c)",
    "f32/complex64 homomorphic SUM differs (section 11 fallback, src/codec/block.c "
    "eccl_block_encode_rep)",
    "unused"};

static int env_flag(const char *name)
{
    const char *e = getenv(name);
    return e && *e == '1';
}

static void report_unknown(const uint8_t *data, size_t size, const char *fmt, ...)
{
    va_list ap;
    fuzz_stats.unknown++;
    if (fuzz_stats.unknown <= 10) {
        fprintf(stderr, "fuzz: DISAGREEMENT with the reference decoder: ");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n  input (%zu bytes):", size);
        for (size_t i = 0; i < size && i < 256; i++) fprintf(stderr, "%s%02x", i % 32 ? "" : "\n  ", data[i]);
        fprintf(stderr, "\n");
    }
#ifdef ECCL_LIBFUZZER
    abort();
#endif
}

static void known(int kind)
{
    fuzz_stats.known++;
    fuzz_stats.known_by[kind]++;
    if (env_flag("ECCL_FUZZ_STRICT")) {
        fprintf(stderr, "fuzz: known bug hit (strict): %s\n", fuzz_known_name[kind]);
        abort();
    }
}

static uint64_t ld64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Is a parse disagreement explained by the eb_abs cap? The header's eb_abs or bound is at or above
 * 2^1000 (the library's cap), where the two caps differ. */
static int cap_related(const uint8_t *data, size_t size)
{
    if (size < 48) return 0;
    double eb, bound, range;
    uint64_t u = ld64(data + 32);
    memcpy(&eb, &u, 8);
    u = ld64(data + 24);
    memcpy(&bound, &u, 8);
    u = ld64(data + 40);
    memcpy(&range, &u, 8);
    double big = ldexp(1.0, 1000);
    return eb >= big || bound >= big || (data[7] == 2 && bound * range >= big);
}

/* Compare the result codes of a parse (stream_info vs ref_parse, or the full decode). */
static int same_verdict(const uint8_t *data, size_t size, eccl_result_t lib, int ref, const char *why,
                        const char *what)
{
    if ((int)lib == ref) return 1;
    if (cap_related(data, size) && ((lib == ECCL_SUCCESS) != (ref == REF_OK) || lib == ECCL_ERR_CORRUPT)) {
        known(0);
        return 0;
    }
    if (size > 4 && data[4] == 0 && lib == ECCL_ERR_UNSUPPORTED && ref == REF_CORRUPT) {
        known(2);
        return 0;
    }
    if (lib == ECCL_SUCCESS && ref == REF_CORRUPT && why && strstr(why, "F = FQ but the bit length") &&
        size > 6 && (data[6] == 1 || data[6] == 3)) {
        known(1);
        return 0;
    }
    report_unknown(data, size, "%s: library %d (%s), reference %d (%s)", what, (int)lib,
                   eccl_strerror(lib), ref, why ? why : "");
    return 0;
}

static void hom_compare(const uint8_t *data, size_t size, eccl_result_t lrc, const unsigned char *lo,
                        size_t lsize, int rrc, const unsigned char *ro, size_t rsize, const char *why,
                        eccl_dtype_t dt, int op, const char *what)
{
    if (lrc == ECCL_SUCCESS) fuzz_stats.hom_ok++;
    if (!same_verdict(data, size, lrc, rrc, why, what)) return;
    if (lrc != ECCL_SUCCESS) return;
    if (lsize == rsize && memcmp(lo, ro, lsize) == 0) return;
    if (op == 0 && (dt == ECCL_FLOAT32 || dt == ECCL_COMPLEX64)) {
        known(3);
        return;
    }
    report_unknown(data, size, "%s: the output streams differ (%zu vs %zu bytes)", what, lsize, rsize);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    eccl_stream_info_t info;
    char why[REF_WHY_LEN] = "";
    ref_header rh;
    int diff = !env_flag("ECCL_FUZZ_NODIFF");
    fuzz_stats.runs++;

    eccl_result_t rc = eccl_stream_info(data, size, &info);
    if (diff) {
        int rrc = ref_parse(data, size, &rh, why);
        same_verdict(data, size, rc, rrc, why, "stream_info/parse");
    }
    /* a wrong dtype/count must be reported, never acted on */
    {
        float dummy[4];
        eccl_result_t r2 = eccl_decompress(data, size, dummy, 3, ECCL_FLOAT32);
        if (r2 == ECCL_SUCCESS && !(rc == ECCL_SUCCESS && info.count == 3 && info.dtype == ECCL_FLOAT32))
            report_unknown(data, size, "decompress into 3 float32 succeeded for a stream of %llu",
                           (unsigned long long)info.count);
    }
    if (rc != ECCL_SUCCESS) return 0;
    fuzz_stats.valid++;
    if (info.count > FUZZ_MAX_ELEMS) return 0;

    size_t count = (size_t)info.count, esz = eccl_dtype_size(info.dtype);
    size_t bytes = count * esz;
    unsigned char *x = (unsigned char *)malloc(bytes + 1), *z = (unsigned char *)malloc(bytes + 1);
    size_t cap = eccl_compress_bound(count, info.dtype);
    unsigned char *out = (unsigned char *)malloc(cap + 1);
    if (!x || !z || !out) goto done;
    memset(x, 0, bytes);
    rc = eccl_decompress(data, size, x, count, info.dtype);
    if (diff) {
        int rrc = ref_decode(data, size, z, info.count, (unsigned)info.dtype, why);
        if (same_verdict(data, size, rc, rrc, why, "decompress") && rc == ECCL_SUCCESS &&
            memcmp(x, z, bytes) != 0)
            report_unknown(data, size, "decompress: the decoded values differ");
    }
    if (rc != ECCL_SUCCESS) goto done;
    fuzz_stats.decoded++;

    /* homomorphic operations: the decoded values as the local array (doubling: integer overflow,
     * RAW arithmetic, NaN canonicalisation), and the stream with itself */
    for (int op = 0; op < 2; op++) {
        if (op == 1 && info.dtype >= ECCL_COMPLEX64) break;
        size_t osz = 0, rsz = 0;
        unsigned char *ro = NULL;
        eccl_result_t hr = eccl_hom_reduce(data, size, x, count, info.dtype, (eccl_op_t)op, out, cap, &osz);
        if (hr == ECCL_SUCCESS) {
            eccl_stream_info_t oi;
            if (eccl_stream_info(out, osz, &oi) != ECCL_SUCCESS || oi.count != info.count)
                report_unknown(data, size, "hom_reduce wrote an invalid stream");
        }
        if (diff) {
            int rr = ref_hom(data, size, NULL, 0, x, op, &ro, &rsz, why);
            hom_compare(data, size, hr, out, osz, rr, ro, rsz, why, info.dtype, op, "hom_reduce");
            free(ro);
            ro = NULL;
        }
        hr = eccl_hom_combine(data, size, data, size, (eccl_op_t)op, out, cap, &osz);
        if (diff) {
            int rr = ref_hom(data, size, data, size, NULL, op, &ro, &rsz, why);
            hom_compare(data, size, hr, out, osz, rr, ro, rsz, why, info.dtype, op, "hom_combine");
            free(ro);
        }
    }
done:
    free(x);
    free(z);
    free(out);
    return 0;
}

#ifdef ECCL_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static void print_stats(void)
{
    fprintf(stderr,
            "eccl fuzz: %ld runs, %ld valid headers, %ld decoded, %ld homomorphic results, "
            "%ld known-bug disagreements (",
            fuzz_stats.runs, fuzz_stats.valid, fuzz_stats.decoded, fuzz_stats.hom_ok, fuzz_stats.known);
    for (int k = 0; k < 4; k++) fprintf(stderr, "%s%ld", k ? "/" : "", fuzz_stats.known_by[k]);
    fprintf(stderr, "), %ld unknown\n", fuzz_stats.unknown);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    atexit(print_stats);
    return 0;
}

/* libFuzzer's mutation, then: 1/2 recompute the checksum, 1/8 also set stream_size to the
 * length rounded down to 16 (so insertions and deletions still describe a whole stream). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size = LLVMFuzzerMutate(data, size, max_size);
    if (size >= 64) {
        unsigned r = seed % 8;
        if (r == 0) { /* the input becomes exactly stream_size bytes (doc/format.md section 3) */
            size &= ~(size_t)15;
            for (int i = 0; i < 8; i++) data[48 + i] = (uint8_t)((uint64_t)size >> (8 * i));
        }
        if (r < 4) ref_fix_checksum(data, size);
    }
    return size;
}
#endif
