/*
 * test_golden.c - golden bytes pinning stream format version 1.0 (doc/format.md).
 *
 * The seven small inputs of tests/golden_inputs.h must compress to exactly the bytes below, and
 * the 100000-value input to exactly the size and header checksum below. Any change of these
 * bytes is a change of the format: it needs a new format version, never a silent edit.
 *
 * The expected bytes were produced by the library, and then checked against doc/format.md
 * before being frozen:
 *  - by hand, field by field, for G1, G2, G5 and G6 (the derivations are the comments of
 *    hand_check_* below, and the checks there assert each field at its offset);
 *  - for all seven, by the independent reference decoder (tests/ref_decoder.c): it must accept
 *    the frozen bytes, decode the same values as eccl_decompress (within the bound of the
 *    input), and the reference encoder (section 8) must reproduce them byte for byte.
 *
 * On a mismatch the test prints, for every differing byte range, the field it belongs to.
 */
#include "golden_inputs.h"
#include "ref_decoder.h"
#include "testutil.h"

static const char *const golden_hex[] = {
    /* parabola-f32-abs1e-3 */
    "4543434c0100010105080000010000002800000000000000fca9f1d24d62503f"
    "fca9f1d24d62503f0000000000000000a000000000000000a719b022d29001ea"
    "00000000000000000888000000000000d10700000000e0fffcfffefda8aa4b57"
    "9a9979662c2dcdd2649b84641c870387027f00f8fe000000ff00000055000000"
    "66000000d20000009b000000e300000003000000fc0000000000000000000000",
    /* ramp-naninf-f64-rel1e-4 */
    "4543434c01000202050800000100000025000000000000002d431cebe2361a3f"
    "01a60c1cd0d2553fa4703d0ad7a32a40800100000000000035984d4204397521"
    "0000000000000000ff4800000000000000000000000008c00ad7a3703d0a05c0"
    "14ae47e17a1402c03e0ad7a3703dfebf52b81e85eb51f8bf000000000000f87f"
    "f8285c8fc2f5e8bf400ad7a3703ddabf8014ae47e17aa4bf2085eb51b81ed53f"
    "686666666666e63f2085eb51b81ef13f08d7a3703d0af73ff4285c8fc2f5fc3f"
    "703d0ad7a370014066666666666604405c8fc2f5285c074052b81e85eb510a40"
    "48e17a14ae470d401f85eb51b81e1040000000000000f07f14ae47e17a141340"
    "90c2f5285c8f14400ad7a3703d0a164084eb51b81e8517400000000000001940"
    "7a14ae47e17a1a40f6285c8fc2f51b40703d0ad7a3701d40ec51b81e85eb1e40"
    "3333333333332040713d0ad7a3f02040f019000000001e0000001e0000000000"
    "00001e0000000000000000000000000000001e00000000000000000000000000",
    /* complex64-lossless */
    "4543434c01000300050800000100000014000000000000000000000000000000"
    "00000000000000000000000000000000f000000000000000e30b247158becb77"
    "0000000000000000ffff000000000000000000000000803f0000003f0000403f"
    "0000803f0000003f0000c03f0000803e000000400000000000002040000080be"
    "00004040000000bf00006040000040bf00008040000080bf000090400000a0bf"
    "0000a0400000c0bf0000b0400000e0bf0000c040000000c00000d040000010c0"
    "0000e040000020c00000f040000030c000000041000040c000000841000050c0"
    "00001041000060c000001841000070c0",
    /* zeros-f32 */
    "4543434c0100010105080000010000002000000000000000fca9f1d24d62503f"
    "fca9f1d24d62503f00000000000000005000000000000000c5fbb5bd7d90960c"
    "00000000000000002000000000000000",
    /* constant-f64 */
    "4543434c01000201050800000100000040000000000000008dedb5a0f7c6b03e"
    "8dedb5a0f7c6b03e000000000000000060000000000000006613d7b14ca88ff3"
    "000000000000000000000000000000007e352600000000000000000000000000",
    /* alternating-f32-none */
    "4543434c0100010105080000010000000700000000000000000000000000e03f"
    "000000000000e03f0000000000000000600000000000000006afa02c96245c04"
    "000000000000000021000000000000004a0000006f0000000000000000000000",
    /* complex128-abs1e-2 */
    "4543434c01000401050800000100000021000000000000007b14ae47e17a843f"
    "7b14ae47e17a843f000000000000000090000000000000006cc43bc26ad20d37"
    "00000000000000000303030000000000000000000000a8aaaaaab8b8bab8fcfd"
    "fffd54575557aaaaaaaabaac2eaefffd7fff5557d55502000000020000000300"
    "00000100000000000000000000000000",
    /* zeros-2-blocks-tie: codes 0x20 (block 0, head: none 0 bytes < Lorenzo 4) and 0x00
     * (block 1: both 0 bytes, the tie keeps Lorenzo); no payload: stream_size = P = 80 */
    "4543434c0100010105080000010000004000000000000000fca9f1d24d62503f"
    "fca9f1d24d62503f00000000000000005000000000000000fe9070310af0349c"
    "00000000000000002000000000000000",
};

/* 100000 float32 of g_large at ABS 1e-4 (13 tiles) */
#define LARGE_SIZE 16496u
#define LARGE_CHECKSUM 0xe8a1d680fd567816ull

static size_t unhex(const char *h, unsigned char *out)
{
    size_t n = 0;
    for (; h[0] && h[1]; h += 2) {
        unsigned v;
        sscanf(h, "%2x", &v);
        out[n++] = (unsigned char)v;
    }
    return n;
}

static uint64_t ld64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static uint32_t ld32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double ldf64(const unsigned char *p)
{
    uint64_t u = ld64(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Which part of the stream (doc/format.md section 2) byte `off` belongs to. */
static void field_name(const unsigned char *s, size_t size, size_t off, char *buf, size_t len)
{
    static const struct { unsigned at; const char *name; } hf[] = {
        {0, "magic"}, {4, "version major"}, {5, "version minor"}, {6, "dtype"}, {7, "mode"},
        {8, "block log2"}, {9, "tile log2"}, {10, "flags"}, {12, "nsum"}, {16, "count"},
        {24, "bound"}, {32, "eb_abs"}, {40, "range"}, {48, "stream_size"}, {56, "checksum"}};
    if (off < 64) {
        int k = 0;
        while (k + 1 < (int)(sizeof hf / sizeof *hf) && hf[k + 1].at <= off) k++;
        snprintf(buf, len, "header %s", hf[k].name);
        return;
    }
    if (size < 64) {
        snprintf(buf, len, "?");
        return;
    }
    uint64_t count = ld64(s + 16), n = count * (s[6] >= 3 ? 2 : 1), nb = (n + 31) / 32;
    uint64_t nt = (nb + 255) / 256, P = (64 + 8 * nt + nb + 15) / 16 * 16;
    if (off < 64 + 8 * nt) snprintf(buf, len, "tile index entry %zu", (size_t)((off - 64) / 8));
    else if (off < 64 + 8 * nt + nb) snprintf(buf, len, "block code %zu", (size_t)(off - 64 - 8 * nt));
    else if (off < P) snprintf(buf, len, "padding before the payload");
    else snprintf(buf, len, "payload byte %zu", (size_t)(off - P));
}

static void print_diff(const unsigned char *exp, size_t en, const unsigned char *got, size_t gn)
{
    size_t n = en > gn ? en : gn;
    int shown = 0;
    if (en != gn) fprintf(stderr, "  size: expected %zu bytes, got %zu\n", en, gn);
    for (size_t i = 0; i < n && shown < 12;) {
        if (i < en && i < gn && exp[i] == got[i]) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && j < i + 16 && !(j < en && j < gn && exp[j] == got[j])) j++;
        char name[96];
        field_name(exp, en, i, name, sizeof name);
        fprintf(stderr, "  bytes %zu..%zu (%s):\n    expected", i, j - 1, name);
        for (size_t k = i; k < j; k++) {
            if (k < en) fprintf(stderr, " %02x", exp[k]);
            else fprintf(stderr, " --");
        }
        fprintf(stderr, "\n    got     ");
        for (size_t k = i; k < j; k++) {
            if (k < gn) fprintf(stderr, " %02x", got[k]);
            else fprintf(stderr, " --");
        }
        fprintf(stderr, "\n");
        shown++;
        i = j;
    }
}

/* ---- hand checks: each field at its offset, derived from doc/format.md ---- */

/* Header fields common to every case (section 3). */
static void check_header(const char *nm, const unsigned char *s, int dtype, int mode,
                         uint64_t count, double bound, double eb, double range, uint64_t size)
{
    TU_CHECK(memcmp(s, "ECCL", 4) == 0 && s[4] == 1 && s[5] == 0, "%s: magic/version", nm);
    TU_CHECK(s[6] == dtype && s[7] == mode, "%s: dtype %d mode %d", nm, s[6], s[7]);
    TU_CHECK(s[8] == 5 && s[9] == 8 && s[10] == 0 && s[11] == 0, "%s: logs/flags", nm);
    TU_CHECK(ld32(s + 12) == 1, "%s: nsum %u", nm, ld32(s + 12));
    TU_CHECK(ld64(s + 16) == count, "%s: count", nm);
    TU_CHECK(ldf64(s + 24) == bound, "%s: bound %.17g", nm, ldf64(s + 24));
    TU_CHECK(ldf64(s + 32) == eb, "%s: eb_abs %.17g, expected %.17g", nm, ldf64(s + 32), eb);
    TU_CHECK(ldf64(s + 40) == range, "%s: range %.17g", nm, ldf64(s + 40));
    TU_CHECK(ld64(s + 48) == size, "%s: stream_size %llu", nm, (unsigned long long)ld64(s + 48));
    TU_CHECK(ld64(s + 56) == ref_checksum(s, size), "%s: checksum (section 9)", nm);
}

/*
 * G1: 40 float32 x_i = i(40-i)/100 - 2, ABS 1e-3.
 *   n = 40: nb = 2 blocks (32 + 8 values), nt = 1, P = align16(64 + 8 + 2) = 80.
 *   eb_abs = 1e-3 (0x3F50624DD2F1A9FC). 2*eb = 0x3F60624DD2F1A9FC; clearing the low 44 bits
 *   leaves 0x3F60600000000000: D = 2^-9 * (1 + 6/256) = 0.001998901367...
 *   Block 0 (head): q_0 = rint(-2/D) = rint(-1000.55) = -1001, zz = 2001 = 0x7D1.
 *     x_i - x_{i-1} = (41 - 2i)/100, so d_i = q_i - q_{i-1} ~ 5.0027 (41 - 2i):
 *     positive for i = 1..20, negative for i = 21..31 -> sign mode 0, map 0xFFE00000;
 *     max |d| = d_1 = q_1 - q_0 = -805 + 1001 = 196 (x_1 = -1.61, q_1 = rint(x_1/D) = -805),
 *     and 128 <= 196 < 256 -> F = 8; Lorenzo size 4 + 4 + 32 = 40.
 *     Predictor none: |q| up to 1001 -> F = 10, mixed signs: 4 + 40 = 44 > 40 -> Lorenzo.
 *     Code (0 << 6) | (0 << 5) | 8 = 0x08. Plane 7 (|d| >= 128): d_i >= 128 for
 *     5.0027 (41 - 2i) >= 128, i <= 7 -> bits 1..7 = 0x000000FE.
 *   Block 1 (not head, r = 8, i = 32..39): d_i ~ 5.0027 (41 - 2i) in [-185, -115]: all
 *     negative -> sign mode 2, no map; F = 8; size 32 (none would need F = 10 + map).
 *     Code (2 << 6) | 8 = 0x88. Plane 7: |d_i| >= 128 for i >= 34 -> bits 2..7 = 0xFC.
 *   Tile: 40 + 32 = 72 bytes, padded to 80 -> stream_size = 80 + 80 = 160.
 */
static void hand_check_g1(const unsigned char *s, size_t size)
{
    const char *nm = "G1";
    TU_CHECK(size == 160, "G1 size %zu", size);
    if (size != 160) return;
    check_header(nm, s, 1, 1, 40, 1e-3, 1e-3, 0.0, 160);
    TU_CHECK(ld64(s + 64) == 0, "G1 tile index");
    TU_CHECK(s[72] == 0x08 && s[73] == 0x88, "G1 codes %02x %02x", s[72], s[73]);
    for (int z = 74; z < 80; z++) TU_CHECK(s[z] == 0, "G1 padding at %d", z);
    double D = 0.001998901367187500; /* 2^-9 * 262/256 */
    TU_CHECK(ref_quantum(1e-3) == D, "G1 D");
    /* block 0 at 80: zz(q_0), sign map, 8 planes */
    TU_CHECK(ld32(s + 80) == 2001, "G1 head value zz %u (q0 = -1001)", ld32(s + 80));
    TU_CHECK(ld32(s + 84) == 0xFFE00000u, "G1 sign map %08x", ld32(s + 84));
    TU_CHECK(ld32(s + 88 + 4 * 7) == 0x000000FEu, "G1 plane 7 %08x", ld32(s + 88 + 28));
    /* every delta from the planes equals rint(x_i/D) - rint(x_{i-1}/D) */
    float x[40];
    g_parabola_f32(x, 40);
    int64_t q[40];
    for (int i = 0; i < 40; i++) q[i] = (int64_t)nearbyint((double)x[i] / D);
    TU_CHECK(q[0] == -1001 && q[1] == -805, "G1 q0 %lld q1 %lld", (long long)q[0], (long long)q[1]);
    for (int i = 1; i < 40; i++) {
        const unsigned char *planes = i < 32 ? s + 88 : s + 120;
        int bit = i % 32;
        int64_t mag = 0;
        for (int j = 0; j < 8; j++) mag |= (int64_t)((ld32(planes + 4 * j) >> bit) & 1) << j;
        int neg = i < 32 ? (ld32(s + 84) >> bit) & 1 : 1;
        TU_CHECK((neg ? -mag : mag) == q[i] - q[i - 1], "G1 delta %d: %lld vs %lld", i,
                 (long long)(neg ? -mag : mag), (long long)(q[i] - q[i - 1]));
    }
    /* block 1 at 120: 8 planes, r = 8: no bit beyond 7 */
    for (int j = 0; j < 8; j++) TU_CHECK((ld32(s + 120 + 4 * j) & ~0xFFu) == 0, "G1 b1 plane %d", j);
    TU_CHECK(ld32(s + 120 + 28) == 0xFCu, "G1 block 1 plane 7 %08x", ld32(s + 148));
    for (int z = 152; z < 160; z++) TU_CHECK(s[z] == 0, "G1 tile padding at %d", z);
}

/*
 * G2: 37 float64 x_i = 0.37 i - 3, x_5 = NaN, x_20 = +inf, REL 1e-4.
 *   range = max - min of the finite values = x_36 - x_0 = 10.32 - (-3) = 13.32 (binary64);
 *   eb_abs = fl(1e-4 * 13.32) = 0.001332 (section 3.1).
 *   nb = 2 (32 + 5), P = 80. D = 2 eb with the low 44 bits cleared = 2^-9 * (1 + 93/256).
 *   Block 0 holds NaN and inf: not quantizable -> RAW; keys of values of mixed exponents,
 *     NaN and inf differ by far more than 2^29 -> CODED would exceed 256 bytes -> VERBATIM
 *     (code 0xFF, 256 bytes = the 32 encodings, NaN and inf bit for bit).
 *   Block 1 (i = 32..36) follows a RAW block -> head: Lorenzo carries zz(q_0) in H = 6 bytes:
 *     q_0 = rint(8.84 / D) = 3320, zz = 6640 = 0x19F0. Deltas q_i - q_{i-1} = rint(0.37/D)
 *     = 139 = 0b10001011 for i = 1..4, all positive -> sign mode 1, no map; F = 8;
 *     size 6 + 32 = 38. None would need F = 12. Code (1 << 6) | 8 = 0x48.
 *     Planes 0, 1, 3, 7 = 0x1E (bits 1..4; bit 0 is not coded: head), the others 0.
 *   Tile: 256 + 38 = 294, padded to 304 -> stream_size = 80 + 304 = 384.
 */
static void hand_check_g2(const unsigned char *s, size_t size)
{
    const char *nm = "G2";
    TU_CHECK(size == 384, "G2 size %zu", size);
    if (size != 384) return;
    double range = (0.37 * 36 - 3.0) - (0.37 * 0 - 3.0);
    check_header(nm, s, 2, 2, 37, 1e-4, 1e-4 * range, range, 384);
    TU_CHECK(range == 13.32, "G2 range %.17g", range);
    TU_CHECK(ld64(s + 64) == 0, "G2 tile index");
    TU_CHECK(s[72] == 0xFF && s[73] == 0x48, "G2 codes %02x %02x", s[72], s[73]);
    double x[37];
    g_ramp_naninf_f64(x, 37);
    TU_CHECK(memcmp(s + 80, x, 256) == 0, "G2 block 0 verbatim encodings");
    const unsigned char *b1 = s + 80 + 256;
    uint64_t zz = 0;
    for (int k = 5; k >= 0; k--) zz = (zz << 8) | b1[k];
    TU_CHECK(zz == 6640, "G2 head value zz %llu (q0 = 3320)", (unsigned long long)zz);
    double D = ref_quantum(1e-4 * range);
    TU_CHECK(D == 0.001953125 * (1.0 + 93.0 / 256.0), "G2 D %.17g", D);
    TU_CHECK(nearbyint(x[32] / D) == 3320.0, "G2 q0");
    static const uint32_t planes[8] = {0x1E, 0x1E, 0, 0x1E, 0, 0, 0, 0x1E};
    for (int j = 0; j < 8; j++)
        TU_CHECK(ld32(b1 + 6 + 4 * j) == planes[j], "G2 plane %d %08x", j, ld32(b1 + 6 + 4 * j));
    for (int i = 33; i < 37; i++)
        TU_CHECK(nearbyint(x[i] / D) - nearbyint(x[i - 1] / D) == 139.0, "G2 delta %d", i);
    for (int z = 80 + 294; z < 384; z++) TU_CHECK(s[z] == 0, "G2 tile padding at %d", z);
}

/*
 * G5: 64 float64 of 2.5, ABS 1e-6. D = 2e-6 cleared = 0x3EC0C00000000000 = 2^-19 * 268/256.
 *   Block 0 (head): all q = rint(2.5 / D) = 1252031: Lorenzo deltas all 0 -> F = 0, size H = 6
 *   (zz = 2504062 = 0x26357E); none would need F = 21 -> code 0x00 (sign mode 0, Lorenzo, F 0).
 *   Block 1 (not head): Lorenzo deltas 0 -> size 0, none 84 -> code 0x00, no payload.
 *   Tile 6 bytes padded to 16: stream_size = 80 + 16 = 96.
 */
static void hand_check_g5(const unsigned char *s, size_t size)
{
    TU_CHECK(size == 96, "G5 size %zu", size);
    if (size != 96) return;
    check_header("G5", s, 2, 1, 64, 1e-6, 1e-6, 0.0, 96);
    TU_CHECK(s[72] == 0x00 && s[73] == 0x00, "G5 codes");
    TU_CHECK(ref_quantum(1e-6) == 0x1.0cp-19, "G5 D");
    TU_CHECK(nearbyint(2.5 / 0x1.0cp-19) == 1252031.0, "G5 q");
    static const unsigned char head[6] = {0x7E, 0x35, 0x26, 0, 0, 0};
    TU_CHECK(memcmp(s + 80, head, 6) == 0, "G5 head value");
    for (int z = 86; z < 96; z++) TU_CHECK(s[z] == 0, "G5 padding");
}

/*
 * G6: 7 float32 {1,-1,1,-1,0,1,-1}, ABS 0.5: D = 1.0 exactly (2 * 0.5 has no low bits).
 *   One short block (r = 7), head. q = the values.
 *   Lorenzo: 4 (zz(q_0)) + map + deltas {-2,2,-2,1,1,-2}: F = 2 -> 4 + 4 + 8 = 16.
 *   None: d = q, F = 1, mixed signs -> 4 + 4 = 8 < 16 -> predictor none (code 0x21: s 0, p 1,
 *   F 1). Map: negatives at 1, 3, 6 = 0x4A; plane 0: nonzero at 0,1,2,3,5,6 = 0x6F.
 *   8 bytes padded to 16; P = align16(64 + 8 + 1) = 80; stream_size 96.
 */
static void hand_check_g6(const unsigned char *s, size_t size)
{
    TU_CHECK(size == 96, "G6 size %zu", size);
    if (size != 96) return;
    check_header("G6", s, 1, 1, 7, 0.5, 0.5, 0.0, 96);
    TU_CHECK(s[72] == 0x21, "G6 code %02x", s[72]);
    TU_CHECK(ld32(s + 80) == 0x4A && ld32(s + 84) == 0x6F, "G6 map %08x plane %08x", ld32(s + 80),
             ld32(s + 84));
    for (int z = 73; z < 80; z++) TU_CHECK(s[z] == 0, "G6 padding");
    for (int z = 88; z < 96; z++) TU_CHECK(s[z] == 0, "G6 padding");
}

static int print_mode;

static void run_case(size_t c, const golden_case *g)
{
    size_t esz = eccl_dtype_size(g->dtype);
    size_t reals = g->count * (g->dtype >= ECCL_COMPLEX64 ? 2 : 1);
    int is64 = g->dtype == ECCL_FLOAT64 || g->dtype == ECCL_COMPLEX128;
    void *x = tu_malloc(g->count * esz), *y = tu_malloc(g->count * esz), *z = tu_malloc(g->count * esz);
    size_t cap = eccl_compress_bound(g->count, g->dtype), size = 0;
    unsigned char *s = tu_malloc(cap), *exp = tu_malloc(strlen(golden_hex[c]) / 2 + 1), *rs = NULL;
    size_t en = unhex(golden_hex[c], exp), rsize = 0;
    char why[REF_WHY_LEN] = "";
    g->fill(x, g->count);
    eccl_result_t rc = eccl_compress(x, g->count, g->dtype, &g->bound, s, cap, &size);
    TU_CHECK(rc == ECCL_SUCCESS, "%s: compress %s", g->name, eccl_strerror(rc));
    if (print_mode) {
        printf("    /* %s */\n", g->name);
        for (size_t i = 0; i < size; i += 32) {
            printf("    \"");
            for (size_t k = i; k < i + 32 && k < size; k++) printf("%02x", s[k]);
            printf("\"%s\n", i + 32 >= size ? "," : "");
        }
    }
    int same = rc == ECCL_SUCCESS && size == en && memcmp(s, exp, en) == 0;
    TU_CHECK(same, "G%zu %s: the stream differs from the golden bytes", c + 1, g->name);
    if (!same) print_diff(exp, en, s, size);

    /* the frozen bytes themselves: valid for the reference decoder, same values both ways,
     * within the bound of the input, and what the section 8 encoder writes */
    double eb = 0;
    TU_RC(eccl_bound_resolve(&g->bound, x, g->count, g->dtype, &eb), ECCL_SUCCESS);
    int rrc = ref_decode(exp, en, z, g->count, (unsigned)g->dtype, why);
    TU_CHECK(rrc == REF_OK, "G%zu: the reference decoder rejects the golden bytes: %s", c + 1, why);
    TU_RC(eccl_decompress(exp, en, y, g->count, g->dtype), ECCL_SUCCESS);
    TU_CHECK(memcmp(y, z, g->count * esz) == 0, "G%zu: decoders differ on the golden bytes", c + 1);
    TU_CHECK(tu_check_bound(x, y, reals, is64, eb, g->bound.mode == ECCL_MODE_LOSSLESS, NULL) == 0,
             "G%zu: golden stream out of bound", c + 1);
    rrc = ref_compress(x, g->count, (unsigned)g->dtype, (unsigned)g->bound.mode, g->bound.value,
                       g->bound.mode == ECCL_MODE_REL ? g->bound.range : 0.0, &rs, &rsize, why);
    TU_CHECK(rrc == REF_OK && rsize == en && memcmp(rs, exp, en) == 0,
             "G%zu: the reference encoder (section 8) does not write the golden bytes", c + 1);
    if (rrc == REF_OK && !(rsize == en && memcmp(rs, exp, en) == 0)) print_diff(exp, en, rs, rsize);

    /* field by field, by hand: against the frozen bytes and the library's */
    for (int k = 0; k < 2; k++) {
        const unsigned char *b = k ? s : exp;
        size_t bn = k ? size : en;
        if (c == 0) hand_check_g1(b, bn);
        if (c == 1) hand_check_g2(b, bn);
        if (c == 4) hand_check_g5(b, bn);
        if (c == 5) hand_check_g6(b, bn);
    }
    free(x);
    free(y);
    free(z);
    free(s);
    free(exp);
    free(rs);
}

static void run_large(void)
{
    const golden_case *g = &golden_large;
    size_t cap = eccl_compress_bound(g->count, g->dtype), size = 0;
    float *x = tu_malloc(g->count * 4), *y = tu_malloc(g->count * 4);
    unsigned char *s = tu_malloc(cap);
    g->fill(x, g->count);
    TU_RC(eccl_compress(x, g->count, g->dtype, &g->bound, s, cap, &size), ECCL_SUCCESS);
    uint64_t chk = ld64(s + 56);
    if (print_mode) printf("large: size %zu checksum 0x%016llx\n", size, (unsigned long long)chk);
    TU_CHECK(size == LARGE_SIZE, "large: size %zu, expected %u", size, LARGE_SIZE);
    TU_CHECK(chk == LARGE_CHECKSUM, "large: checksum 0x%016llx, expected 0x%016llx",
             (unsigned long long)chk, (unsigned long long)LARGE_CHECKSUM);
    TU_CHECK(ref_checksum(s, size) == chk, "large: checksum field vs section 9");
    TU_RC(eccl_decompress(s, size, y, g->count, g->dtype), ECCL_SUCCESS);
    TU_CHECK(tu_check_bound(x, y, g->count, 0, 1e-4, 0, NULL) == 0, "large: out of bound");
    free(x);
    free(y);
    free(s);
}

int main(int argc, char **argv)
{
    /* `test_golden --print` prints the current bytes in the form of golden_hex[] */
    print_mode = argc > 1 && strcmp(argv[1], "--print") == 0;
    size_t nhex = sizeof golden_hex / sizeof *golden_hex;
    TU_CHECK(nhex == GOLDEN_NCASES, "one golden per case");
    for (size_t c = 0; c < GOLDEN_NCASES && c < nhex; c++) run_case(c, &golden_cases[c]);
    run_large();
    return tu_finish("test_golden");
}
