/*
 * cmp_raw - check a reconstruction independently of eccl-probe (for tests/test_probe.sh).
 *
 *   cmp_raw ORIG REC f32|f64 EB
 *
 * Every finite value must be within EB (long double); NaN and inf must have identical bits;
 * EB = 0 asks for identical bits everywhere.  Prints "max_error=<value> violations=<n>" and exits
 * 0 when there is no violation, 1 otherwise, 2 on a usage or I/O error.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *read_all(const char *path, size_t *bytes)
{
    void *buf = NULL;
    FILE *fp = fopen(path, "rb");
    long n;
    if (!fp || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0)
        goto fn_exit;
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    *bytes = (size_t)n;
fn_exit:
    if (fp) fclose(fp);
    return buf;
}

static long double load(const void *p, size_t i, int is64, uint64_t *bits)
{
    if (is64) {
        double v;
        memcpy(&v, (const char *)p + 8 * i, 8);
        memcpy(bits, &v, 8);
        return v;
    }
    float v;
    uint32_t b;
    memcpy(&v, (const char *)p + 4 * i, 4);
    memcpy(&b, &v, 4);
    *bits = b;
    return v;
}

int main(int argc, char **argv)
{
    int status = 2;
    size_t na = 0, nb = 0, bad = 0;
    void *a = NULL, *b = NULL;
    long double maxerr = 0;
    if (argc != 5) {
        fprintf(stderr, "usage: cmp_raw ORIG REC f32|f64 EB\n");
        goto fn_exit;
    }
    int is64 = strcmp(argv[3], "f64") == 0;
    long double eb = strtold(argv[4], NULL);
    a = read_all(argv[1], &na);
    b = read_all(argv[2], &nb);
    if (!a || !b || na != nb || na % (is64 ? 8 : 4) != 0) {
        fprintf(stderr, "cmp_raw: cannot read %s and %s, or their sizes differ (%zu, %zu)\n",
                argv[1], argv[2], na, nb);
        goto fn_exit;
    }
    for (size_t i = 0; i < na / (is64 ? 8 : 4); i++) {
        uint64_t bx, by;
        long double x = load(a, i, is64, &bx), y = load(b, i, is64, &by);
        if (!isfinite(x)) {
            bad += bx != by;
            continue;
        }
        long double e = fabsl(x - y);
        if (isnan(e)) e = INFINITY;
        if (e > maxerr) maxerr = e;
        bad += eb == 0 ? bx != by : !(e <= eb);
    }
    printf("max_error=%.17g violations=%zu\n", (double)maxerr, bad);
    status = bad ? 1 : 0;
fn_exit:
    free(a);
    free(b);
    return status;
}
