/*
 * eccl-probe: the element-by-element check of a reconstruction.
 *
 * Errors are taken in long double so that |x - x'| of two doubles is not itself rounded into or
 * out of the bound; the check must be stricter than the codec, never more forgiving.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/probe.h"

/* Enough to diagnose a codec bug from stderr without flooding it. */
#define PROBE_MAX_REPORTED 5

static int is_fill(const probe_field_t *f, long double x)
{
    int found = 0;
    for (int i = 0; i < f->nfills && !found; i++) {
        double v = f->fills[i];
        found = (long double)v == x || (isnan(v) && isnan(x));
    }
    return found;
}

static void report_violation(const probe_result_t *r, size_t i, long double x, long double y,
                             double eb)
{
    if (r->violations < PROBE_MAX_REPORTED)
        fprintf(stderr,
                "eccl-probe:   element %zu: %.17Lg came back as %.17Lg (error %.6Lg, eb_abs %.6g)\n",
                i, x, y, fabsl(x - y), eb);
    else if (r->violations == PROBE_MAX_REPORTED)
        fprintf(stderr, "eccl-probe:   (further violations not listed)\n");
}

static void track_fill_free_range(probe_result_t *r, double x)
{
    if (x < r->fill_free_min) r->fill_free_min = x;
    if (x > r->fill_free_max) r->fill_free_max = x;
}

/* same: x and y have identical bits. */
static void check_one(const probe_field_t *f, probe_result_t *r, size_t i, long double x,
                      long double y, int same, double eb, int lossless)
{
    int bad;
    int fill = f->nfills > 0 && is_fill(f, x);
    if (fill) {
        r->fill_count++;
        if (!is_fill(f, y)) r->fill_changed++;
    }
    if (!isfinite(x)) {
        r->nonfinite++;
        r->nonfinite_mismatch += !same;
        bad = !same;
    } else {
        long double e = fabsl(x - y);
        if (isnan(e)) e = INFINITY;
        r->nfinite++;
        r->sum_sq += e * e;
        if (e > r->max_error) r->max_error = e;
        if (!fill) track_fill_free_range(r, (double)x);
        bad = lossless ? !same : !(e <= (long double)eb);
    }
    if (bad) report_violation(r, i, x, y, eb);
    r->violations += bad;
}

void probe_compare(const probe_field_t *f, const void *rec, double eb, int lossless,
                   probe_result_t *r)
{
    r->max_error = 0;
    r->sum_sq = 0;
    r->nfinite = r->violations = r->nonfinite = r->nonfinite_mismatch = 0;
    r->fill_count = r->fill_changed = 0;
    r->fill_free_min = INFINITY;
    r->fill_free_max = -INFINITY;
    if (f->dtype == ECCL_FLOAT32) {
        const float *a = f->values, *b = rec;
        for (size_t i = 0; i < f->count; i++)
            check_one(f, r, i, a[i], b[i], memcmp(a + i, b + i, sizeof(float)) == 0, eb, lossless);
    } else {
        const double *a = f->values, *b = rec;
        for (size_t i = 0; i < f->count; i++)
            check_one(f, r, i, a[i], b[i], memcmp(a + i, b + i, sizeof(double)) == 0, eb, lossless);
    }
    /* No finite value besides the fills (an all-fill field, or a scalar equal to its fill
     * value): there is no such range, and NaN says so (null in JSON, no note in the report). */
    if (r->fill_free_min > r->fill_free_max) r->fill_free_min = r->fill_free_max = NAN;
}
