/* eccl-probe: the human-readable report and the JSON object. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/probe.h"

/* The figures both reports print, derived once so they cannot disagree. */
typedef struct probe_figures {
    double range, ratio, bits_per_value;
    double max_error, max_over_eb, rmse, psnr;
    double lossless_fraction, zero_fraction;
    double compress_gbps, decompress_gbps;
    int fills_set_range; /* a fill value lies outside the range of the other values */
} probe_figures_t;

static double fraction(uint64_t part, uint64_t whole)
{
    return whole ? (double)part / (double)whole : 0.0;
}

/* "s" unless there is exactly one. */
static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* False when every finite value is a fill: the fill-free range is then NaN, and nothing is
 * outside it. */
static int fill_outside(const probe_field_t *f, const probe_result_t *r)
{
    int outside = 0;
    for (int i = 0; i < f->nfills; i++)
        outside |= f->fills[i] < r->fill_free_min || f->fills[i] > r->fill_free_max;
    return outside;
}

static void compute_figures(const probe_field_t *f, const probe_result_t *r, probe_figures_t *g)
{
    double eb = r->info.eb_abs;
    g->range = r->data_max - r->data_min;
    g->ratio = (double)r->input_bytes / (double)r->compressed_bytes;
    g->bits_per_value = 8.0 * (double)r->compressed_bytes / (double)f->count;
    g->max_error = (double)r->max_error;
    g->max_over_eb = eb > 0 ? (double)(r->max_error / (long double)eb) : NAN;
    g->rmse = r->nfinite ? (double)sqrtl(r->sum_sq / (long double)r->nfinite) : 0.0;
    g->psnr = g->rmse > 0 ? 20.0 * log10(g->range / g->rmse) : INFINITY;
    g->lossless_fraction = fraction(r->info.nblocks_raw, r->info.nblocks);
    g->zero_fraction = fraction(r->info.nblocks_zero, r->info.nblocks);
    g->compress_gbps = (double)r->input_bytes / r->compress_s / 1e9;
    g->decompress_gbps = (double)r->input_bytes / r->decompress_s / 1e9;
    g->fills_set_range = r->fill_count > 0 && fill_outside(f, r);
}

/* ---------------------------------------------------------------------------------------------
 * Text
 * ------------------------------------------------------------------------------------------- */

static void text_input(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r)
{
    printf("eccl-probe %s\n", o->input);
    printf("  input        %zu value%s of %s (", f->count, plural(f->count),
           probe_type_name(f->dtype));
    /* A netCDF variable with no dimensions holds one value: a scalar. */
    if (f->ndims == 0) fputs("scalar", stdout);
    for (int i = 0; i < f->ndims; i++) printf("%s%zu", i ? " x " : "", f->dims[i]);
    if (f->var_colon) printf(", netCDF %s", f->nc_type_name);
    printf("), %zu bytes\n", r->input_bytes);
    for (int i = 0; i < f->nfills; i++)
        printf("%s%g", i ? ", " : "  fill values  ", f->fills[i]);
    if (f->nfills)
        printf(": %zu value%s (%.1f%%), %zu changed by the round trip\n", r->fill_count,
               plural(r->fill_count), 100.0 * fraction(r->fill_count, f->count),
               r->fill_changed);
}

static void text_settings(const probe_opts_t *o, const probe_result_t *r)
{
    if (o->bound.mode == ECCL_MODE_LOSSLESS)
        printf("  settings     lossless");
    else
        printf("  settings     %s %g -> eb_abs %.6g", probe_mode_name(o->bound.mode),
               o->bound.value, r->info.eb_abs);
    printf("; data range [%.7g, %.7g]\n", r->data_min, r->data_max);
}

static void text_results(const probe_result_t *r, const probe_figures_t *g)
{
    printf("  compressed   %zu bytes (format %d): ratio %.4g, %.4g bits/value\n", r->compressed_bytes,
           r->info.version_major, g->ratio, g->bits_per_value);
    printf("  error        max %.6g", g->max_error);
    if (isfinite(g->max_over_eb)) printf(" = %.4g x eb_abs", g->max_over_eb);
    printf(", RMSE %.6g, PSNR ", g->rmse);
    if (isfinite(g->psnr)) printf("%.2f dB\n", g->psnr);
    else if (g->rmse == 0) printf("inf (exact)\n");
    else printf("n/a (constant data)\n");
    printf("  checks       %zu violations; %zu NaN/inf values, %zu not restored bit for bit\n",
           r->violations, r->nonfinite, r->nonfinite_mismatch);
    printf("  blocks       %llu block%s of 32 values: %.1f%% stored losslessly, %.1f%% all zero\n",
           (unsigned long long)r->info.nblocks, r->info.nblocks == 1 ? "" : "s",
           100.0 * g->lossless_fraction, 100.0 * g->zero_fraction);
}

static void text_speed(const probe_opts_t *o, const probe_result_t *r, const probe_figures_t *g)
{
    printf("  speed        compress %.3g GB/s, decompress %.3g GB/s (best of %d, ", g->compress_gbps,
           g->decompress_gbps, o->repeat);
    if (r->threads != r->threads_available)
        printf("%d of %d threads busy)\n", r->threads, r->threads_available);
    else
        printf("%d thread%s)\n", r->threads, r->threads == 1 ? "" : "s");
}

/* What a user would likely get wrong if nobody told them. */
static void text_notes(const probe_opts_t *o, const probe_result_t *r, const probe_figures_t *g)
{
    if (g->fills_set_range && o->bound.mode == ECCL_MODE_REL)
        printf("  note: the fill values set the range; without them it is [%.7g, %.7g], where\n"
               "        --rel %g would mean --abs %.6g\n",
               r->fill_free_min, r->fill_free_max, o->bound.value,
               o->bound.value * (r->fill_free_max - r->fill_free_min));
    if (r->fill_changed == 1)
        printf("  note: 1 fill value no longer equals the fill value after the round trip:\n"
               "        code that masks it with == will take it for data\n");
    else if (r->fill_changed)
        printf("  note: %zu fill values no longer equal the fill value after the round trip:\n"
               "        code that masks them with == will take them for data\n",
               r->fill_changed);
    if (r->violations)
        printf("  *** ERROR BOUND VIOLATED for %zu values: this is a bug in eccl, please report "
               "it ***\n", r->violations);
}

void probe_report_text(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r)
{
    probe_figures_t g;
    compute_figures(f, r, &g);
    text_input(o, f, r);
    text_settings(o, r);
    text_results(r, &g);
    text_speed(o, r, &g);
    text_notes(o, r, &g);
}

/* ---------------------------------------------------------------------------------------------
 * JSON: one object, snake_case keys, numbers as numbers, non-finite numbers as null.
 * ------------------------------------------------------------------------------------------- */

typedef struct json_writer {
    FILE *out;
    int nkeys;
} json_writer_t;

static void json_key(json_writer_t *w, const char *key)
{
    fprintf(w->out, "%s\n  \"%s\": ", w->nkeys++ ? "," : "{", key);
}

/* The shortest %g that reads back as the same double, so numbers survive a round trip. */
static void json_number(FILE *out, double v)
{
    char buf[40] = "null";
    for (int prec = 15; isfinite(v) && prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    fputs(buf, out);
}

static void json_double(json_writer_t *w, const char *key, double v)
{
    json_key(w, key);
    json_number(w->out, v);
}

static void json_size(json_writer_t *w, const char *key, uint64_t v)
{
    json_key(w, key);
    fprintf(w->out, "%llu", (unsigned long long)v);
}

static void json_bool(json_writer_t *w, const char *key, int v)
{
    json_key(w, key);
    fputs(v ? "true" : "false", w->out);
}

/* len bytes of s, or null when s is NULL. */
static void json_string(json_writer_t *w, const char *key, const char *s, size_t len)
{
    json_key(w, key);
    if (!s) len = 0;
    fputs(s ? "\"" : "null", w->out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(w->out, "\\%c", c);
        else if (c < 0x20) fprintf(w->out, "\\u%04x", c);
        else fputc(c, w->out);
    }
    if (s) fputc('"', w->out);
}

static void json_input(json_writer_t *w, const probe_opts_t *o, const probe_field_t *f,
                       const probe_result_t *r)
{
    size_t pathlen = f->var_colon ? f->var_colon : strlen(o->input);
    const char *var = f->var_colon ? o->input + f->var_colon + 1 : NULL;
    json_string(w, "file", o->input, pathlen);
    json_string(w, "variable", var, var ? strlen(var) : 0);
    json_string(w, "netcdf_type", f->var_colon ? f->nc_type_name : NULL,
                strlen(f->nc_type_name));
    json_string(w, "type", probe_type_name(f->dtype), 3);
    json_size(w, "count", f->count);
    /* [] for a scalar (a netCDF variable with no dimensions). */
    json_key(w, "dims");
    fputs("[", w->out);
    for (int i = 0; i < f->ndims; i++) fprintf(w->out, "%s%zu", i ? ", " : "", f->dims[i]);
    fputs("]", w->out);
    json_size(w, "input_bytes", r->input_bytes);
}

static void json_fills(json_writer_t *w, const probe_field_t *f, const probe_result_t *r)
{
    json_key(w, "fill_values");
    fputs("[", w->out);
    for (int i = 0; i < f->nfills; i++) {
        if (i) fputs(", ", w->out);
        json_number(w->out, f->fills[i]);
    }
    fputs("]", w->out);
    json_size(w, "fill_count", r->fill_count);
    json_size(w, "fill_changed", r->fill_changed);
    json_double(w, "fill_free_min", f->nfills ? r->fill_free_min : NAN);
    json_double(w, "fill_free_max", f->nfills ? r->fill_free_max : NAN);
}

static void json_settings(json_writer_t *w, const probe_opts_t *o, const probe_result_t *r,
                          const probe_figures_t *g)
{
    int lossless = o->bound.mode == ECCL_MODE_LOSSLESS;
    json_string(w, "mode", probe_mode_name(o->bound.mode), strlen(probe_mode_name(o->bound.mode)));
    json_double(w, "bound", lossless ? NAN : o->bound.value);
    json_double(w, "eb_abs", r->info.eb_abs);
    json_double(w, "data_min", r->data_min);
    json_double(w, "data_max", r->data_max);
    json_double(w, "data_range", g->range);
}

static void json_results(json_writer_t *w, const probe_result_t *r, const probe_figures_t *g)
{
    json_size(w, "compressed_bytes", r->compressed_bytes);
    json_size(w, "format", (uint64_t)r->info.version_major);
    json_double(w, "ratio", g->ratio);
    json_double(w, "bits_per_value", g->bits_per_value);
    json_double(w, "max_error", g->max_error);
    json_double(w, "max_error_over_eb", g->max_over_eb);
    json_size(w, "violations", r->violations);
    json_size(w, "nonfinite_count", r->nonfinite);
    json_size(w, "nonfinite_mismatches", r->nonfinite_mismatch);
    json_double(w, "rmse", g->rmse);
    json_double(w, "psnr_db", g->psnr);
    json_size(w, "blocks", r->info.nblocks);
    json_double(w, "lossless_block_fraction", g->lossless_fraction);
    json_double(w, "zero_block_fraction", g->zero_fraction);
}

static void json_speed(json_writer_t *w, const probe_opts_t *o, const probe_result_t *r,
                       const probe_figures_t *g)
{
    json_double(w, "compress_gbps", g->compress_gbps);
    json_double(w, "decompress_gbps", g->decompress_gbps);
    json_size(w, "repeat", (uint64_t)o->repeat);
    json_size(w, "threads", (uint64_t)r->threads);
    json_size(w, "threads_available", (uint64_t)r->threads_available);
#ifdef _OPENMP
    json_bool(w, "openmp", 1);
#else
    json_bool(w, "openmp", 0);
#endif
}

void probe_report_json(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r)
{
    json_writer_t w = {stdout, 0};
    probe_figures_t g;
    compute_figures(f, r, &g);
    json_input(&w, o, f, r);
    json_settings(&w, o, r, &g);
    json_fills(&w, f, r);
    json_results(&w, r, &g);
    json_speed(&w, o, r, &g);
    json_bool(&w, "ok", r->violations == 0);
    fputs("\n}\n", stdout);
}
