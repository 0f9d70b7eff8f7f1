/*
 * gen_raw - write a deterministic raw field for tests/test_probe.sh.
 *
 *   gen_raw OUT COUNT f32|f64 smooth|special
 *
 * smooth: a 2-D-like field (rows of 300) with a little noise, so a lossy bound has work to do and
 * the stream still compresses.  special: the same, sprinkled with NaN (one with a payload),
 * +-inf and -0.0, which must come back bit for bit.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double smooth_value(size_t k, uint64_t *rng)
{
    double i = (double)(k / 300), j = (double)(k % 300);
    double noise = (double)(next_random(rng) >> 11) * 0x1.0p-53 - 0.5;
    return 15.0 + 10.0 * sin(i * 0.031) * cos(j * 0.017) + 0.01 * noise;
}

static double special_value(size_t k, double v)
{
    switch (k % 97) {
    case 3: return NAN;
    case 11: return INFINITY;
    case 29: return -INFINITY;
    case 41: return -0.0;
    default: return v;
    }
}

static void store(void *buf, size_t k, double v, int is64)
{
    if (is64) ((double *)buf)[k] = v;
    else ((float *)buf)[k] = (float)v;
}

/* A quiet NaN with a payload: a codec that canonicalizes NaNs would lose it. */
static void store_payload_nan(void *buf, size_t k, int is64)
{
    uint64_t q64 = 0x7FF8000000000123ull;
    uint32_t q32 = 0x7FC00042u;
    if (is64) memcpy((double *)buf + k, &q64, sizeof(q64));
    else memcpy((float *)buf + k, &q32, sizeof(q32));
}

int main(int argc, char **argv)
{
    int status = 2;
    FILE *fp = NULL;
    void *buf = NULL;
    if (argc != 5) {
        fprintf(stderr, "usage: gen_raw OUT COUNT f32|f64 smooth|special\n");
        goto fn_exit;
    }
    size_t count = (size_t)strtoull(argv[2], NULL, 10);
    int is64 = strcmp(argv[3], "f64") == 0, special = strcmp(argv[4], "special") == 0;
    size_t esz = is64 ? sizeof(double) : sizeof(float);
    uint64_t rng = 12345;
    buf = malloc(count * esz + 1);
    if (!buf || count < 8) {
        fprintf(stderr, "gen_raw: bad COUNT or out of memory\n");
        goto fn_exit;
    }
    for (size_t k = 0; k < count; k++) {
        double v = smooth_value(k, &rng);
        store(buf, k, special ? special_value(k, v) : v, is64);
    }
    if (special) store_payload_nan(buf, count / 2, is64);
    fp = fopen(argv[1], "wb");
    if (!fp || fwrite(buf, esz, count, fp) != count) {
        fprintf(stderr, "gen_raw: cannot write %s\n", argv[1]);
        goto fn_exit;
    }
    status = 0;
fn_exit:
    if (fp && fclose(fp) != 0) status = 2;
    free(buf);
    return status;
}
