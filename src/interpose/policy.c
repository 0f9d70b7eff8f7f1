/*
 * policy.c - what libeccl_blacs does, read once from the environment:
 *
 *   ECCL_BLACS          off | lossless | abs:E | rel:E      (default off: nothing changes)
 *   ECCL_BLACS_OPS      comma list of bcast, sum; or all    (default bcast)
 *   ECCL_BLACS_MIN_BYTES  n >= 0: smaller messages go to the real BLACS (default 65536)
 *   ECCL_BLACS_CONTEXTS   comma list of context handles routed to eccl (default: all)
 *   ECCL_BLACS_REPORT   0 | 1: a summary line per grid at gridexit / exit / MPI_Finalize
 *
 * An invalid value stops the program at the first intercepted call with a message naming the
 * variable (doc/blacs-interposer.md), never a silent fallback.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <mpi.h>

#include "interpose/interpose.h"

#define IB_DEFAULT_MIN_BYTES 65536

static ib_policy_t policy;
static const char *policy_error;
static char policy_errbuf[512];
static pthread_once_t policy_once = PTHREAD_ONCE_INIT;

static const char *bad(const char *fmt, const char *var, const char *val)
{
    snprintf(policy_errbuf, sizeof policy_errbuf, fmt, var, val);
    return policy_errbuf;
}

static const char *parse_mode(ib_policy_t *p, const char *s)
{
    const char *fmt = "%s='%s' is not one of off, lossless, abs:E, rel:E (E a finite number > 0, "
                      "e.g. abs:1e-6)";
    if (!s || !*s || !strcasecmp(s, "off")) {
        p->mode = IB_OFF;
        return NULL;
    }
    if (!strcasecmp(s, "lossless")) {
        p->mode = IB_LOSSLESS;
        p->bound = (eccl_bound_t)ECCL_BOUND_LOSSLESS;
        return NULL;
    }
    int mode = !strncasecmp(s, "abs:", 4) ? IB_ABS : !strncasecmp(s, "rel:", 4) ? IB_REL : IB_OFF;
    if (mode == IB_OFF) return bad(fmt, "ECCL_BLACS", s);
    char *end = NULL;
    errno = 0;
    double e = strtod(s + 4, &end);
    if (errno || end == s + 4 || *end || !isfinite(e) || e <= 0) return bad(fmt, "ECCL_BLACS", s);
    p->mode = mode;
    p->value = e;
    p->bound = mode == IB_ABS ? (eccl_bound_t)ECCL_BOUND_ABS(e) : (eccl_bound_t)ECCL_BOUND_REL(e);
    return NULL;
}

static const char *parse_ops(ib_policy_t *p, const char *s)
{
    p->ops = IB_OP_BCAST;
    if (!s || !*s) return NULL;
    char buf[128];
    if (strlen(s) >= sizeof buf) return bad("%s is too long ('%.60s...')", "ECCL_BLACS_OPS", s);
    strcpy(buf, s);
    p->ops = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcasecmp(t, "bcast")) p->ops |= IB_OP_BCAST;
        else if (!strcasecmp(t, "sum")) p->ops |= IB_OP_SUM;
        else if (!strcasecmp(t, "all")) p->ops |= IB_OP_BCAST | IB_OP_SUM;
        else return bad("%s='%s': each item must be bcast, sum or all (comma-separated)", "ECCL_BLACS_OPS", s);
    }
    if (!p->ops) return bad("%s='%s' names no operation (use bcast, sum or all)", "ECCL_BLACS_OPS", s);
    return NULL;
}

/* A whole number in [0, max]; -1 when s is not one. */
static long long whole(const char *s, long long max)
{
    char *end = NULL;
    errno = 0;
    if (!s || !*s || *s == '-' || *s == '+') return -1;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < 0 || v > max) return -1;
    return v;
}

static const char *parse_contexts(ib_policy_t *p, const char *s)
{
    p->ncontexts = 0;
    if (!s || !*s) return NULL;
    char buf[1024];
    if (strlen(s) >= sizeof buf) return bad("%s is too long ('%.60s...')", "ECCL_BLACS_CONTEXTS", s);
    strcpy(buf, s);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long long v = whole(t, 1 << 30);
        if (v < 0) return bad("%s='%s': each item must be a context handle (a whole number >= 0)",
                              "ECCL_BLACS_CONTEXTS", s);
        if (p->ncontexts == IB_MAX_CONTEXTS)
            return bad("%s='%.60s...' lists more than 64 contexts", "ECCL_BLACS_CONTEXTS", s);
        p->contexts[p->ncontexts++] = (int)v;
    }
    if (!p->ncontexts) return bad("%s='%s' lists no context (unset it to route every context)", "ECCL_BLACS_CONTEXTS", s);
    return NULL;
}

static const char *parse_flag(int *out, const char *var, const char *s)
{
    *out = 0;
    if (!s || !*s) return NULL;
    if (!strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcasecmp(s, "on")) *out = 1;
    else if (strcmp(s, "0") && strcasecmp(s, "no") && strcasecmp(s, "false") && strcasecmp(s, "off"))
        return bad("%s='%s' is not 0 or 1 (yes/no, true/false, on/off)", var, s);
    return NULL;
}

const char *ib_policy_parse(ib_policy_t *p, const char *mode, const char *ops, const char *min_bytes,
                            const char *contexts, const char *report)
{
    const char *err;
    memset(p, 0, sizeof *p);
    p->min_bytes = IB_DEFAULT_MIN_BYTES;
    if ((err = parse_mode(p, mode)) || (err = parse_ops(p, ops)) || (err = parse_contexts(p, contexts)) ||
        (err = parse_flag(&p->report, "ECCL_BLACS_REPORT", report)))
        return err;
    if (min_bytes && *min_bytes) {
        long long v = whole(min_bytes, (long long)1 << 50);
        if (v < 0) return bad("%s='%s' is not a whole number of bytes >= 0", "ECCL_BLACS_MIN_BYTES", min_bytes);
        p->min_bytes = (size_t)v;
    }
    return NULL;
}

static void read_policy(void)
{
    policy_error = ib_policy_parse(&policy, getenv("ECCL_BLACS"), getenv("ECCL_BLACS_OPS"),
                                   getenv("ECCL_BLACS_MIN_BYTES"), getenv("ECCL_BLACS_CONTEXTS"),
                                   getenv("ECCL_BLACS_REPORT"));
}

const ib_policy_t *ib_policy(void)
{
    pthread_once(&policy_once, read_policy);
    if (policy_error) ib_fatal(0, "invalid setting: %s", policy_error);
    return &policy;
}

static int world_rank(void)
{
    int init = 0, fin = 0, r = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return init && !fin ? r : -1;
}

void ib_fatal(int all_ranks, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int r = world_rank();
    /* A setting error is the same on every process: rank 0 says it, the others give it three
     * seconds to, then say it themselves (rank 0 may never make a BLACS call). */
    if (!all_ranks && r > 0) sleep(3);
    if (r >= 0) fprintf(stderr, "eccl_blacs: rank %d: %s\n", r, msg);
    else fprintf(stderr, "eccl_blacs: %s\n", msg);
    fflush(stderr);
    /* the launcher forwards output through a pipe; an abort right away can lose the message */
    if (r >= 0) sleep(1);
    if (r >= 0) MPI_Abort(MPI_COMM_WORLD, 1);
    abort();
}
