/*
 * test_interpose_policy.c - libeccl_blacs's settings (src/interpose/policy.c): every accepted
 * form, the defaults, and a clear message naming the variable for each rejected one.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "interpose/interpose.h"

static int fails;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

/* Parse and expect success. */
static ib_policy_t good(const char *mode, const char *ops, const char *minb, const char *ctx, const char *rep)
{
    ib_policy_t p;
    const char *err = ib_policy_parse(&p, mode, ops, minb, ctx, rep);
    if (err) {
        fprintf(stderr, "FAIL: rejected (%s, %s, %s, %s, %s): %s\n", mode ? mode : "-", ops ? ops : "-",
                minb ? minb : "-", ctx ? ctx : "-", rep ? rep : "-", err);
        fails++;
    }
    return p;
}

/* Parse and expect a message that names var. */
static void bad(const char *var, const char *mode, const char *ops, const char *minb, const char *ctx,
                const char *rep)
{
    ib_policy_t p;
    const char *err = ib_policy_parse(&p, mode, ops, minb, ctx, rep);
    if (!err || strncmp(err, var, strlen(var)) != 0) {
        fprintf(stderr, "FAIL: expected a message naming %s, got: %s\n", var, err ? err : "(accepted)");
        fails++;
    } else {
        printf("rejected as expected: %s\n", err);
    }
}

int main(void)
{
    /* defaults: off, broadcasts, 64 KiB, every context, no report */
    ib_policy_t p = good(NULL, NULL, NULL, NULL, NULL);
    CHECK(p.mode == IB_OFF && p.ops == IB_OP_BCAST && p.min_bytes == 65536 && p.ncontexts == 0 && !p.report);
    p = good("", "", "", "", "");
    CHECK(p.mode == IB_OFF && p.ops == IB_OP_BCAST);
    p = good("OFF", NULL, NULL, NULL, "0");
    CHECK(p.mode == IB_OFF && !p.report);
    p = good("lossless", "sum", "0", "3", "yes");
    CHECK(p.mode == IB_LOSSLESS && p.bound.mode == ECCL_MODE_LOSSLESS && p.ops == IB_OP_SUM &&
          p.min_bytes == 0 && p.ncontexts == 1 && p.contexts[0] == 3 && p.report);
    p = good("abs:1e-6", "bcast,sum", "4096", "0,2,7", "1");
    CHECK(p.mode == IB_ABS && p.value == 1e-6 && p.bound.mode == ECCL_MODE_ABS && p.bound.value == 1e-6);
    CHECK(p.ops == (IB_OP_BCAST | IB_OP_SUM) && p.min_bytes == 4096 && p.ncontexts == 3 && p.contexts[2] == 7);
    p = good("REL:0.001", "all", NULL, NULL, "on");
    CHECK(p.mode == IB_REL && p.bound.mode == ECCL_MODE_REL && p.bound.value == 1e-3 &&
          p.bound.range == ECCL_RANGE_FROM_DATA && p.ops == (IB_OP_BCAST | IB_OP_SUM));

    bad("ECCL_BLACS=", "abs", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "abs:", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "abs:0", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "abs:-1e-3", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "abs:inf", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "rel:nan", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "abs:1e-3x", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS=", "lossy", NULL, NULL, NULL, NULL);
    bad("ECCL_BLACS_OPS=", "abs:1", "amx", NULL, NULL, NULL);
    bad("ECCL_BLACS_OPS=", "abs:1", ",", NULL, NULL, NULL);
    bad("ECCL_BLACS_MIN_BYTES=", "abs:1", NULL, "-1", NULL, NULL);
    bad("ECCL_BLACS_MIN_BYTES=", "abs:1", NULL, "64k", NULL, NULL);
    bad("ECCL_BLACS_CONTEXTS=", "abs:1", NULL, NULL, "a", NULL);
    bad("ECCL_BLACS_CONTEXTS=", "abs:1", NULL, NULL, "-1", NULL);
    bad("ECCL_BLACS_CONTEXTS=", "abs:1", NULL, NULL, ",", NULL);
    bad("ECCL_BLACS_REPORT=", "abs:1", NULL, NULL, NULL, "2");
    char many[400] = "";
    for (int i = 0; i < 70; i++) snprintf(many + strlen(many), sizeof many - strlen(many), "%d,", i);
    bad("ECCL_BLACS_CONTEXTS=", "abs:1", NULL, NULL, many, NULL);

    if (fails) {
        fprintf(stderr, "test_interpose_policy: %d failure(s)\n", fails);
        return 1;
    }
    printf("test_interpose_policy: all checks passed\n");
    return 0;
}
