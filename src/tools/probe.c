/*
 * eccl-probe - what eccl would do to a field: compress it with the user's bound, check every
 * reconstructed value, report size, error and speed.  See --help and doc/probe.md.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "codec/codec.h" /* eccl_compress_fmt: --format */
#include "tools/probe.h"

/* The codec hands whole tiles of 256 blocks of 32 values to threads (doc/format.md). */
#define PROBE_TILE_VALUES 8192u

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Threads a parallel region gets now: OMP_NUM_THREADS, --threads, thread limits all applied. */
static int team_size(const probe_opts_t *o)
{
    int n = 1;
#ifdef _OPENMP
    if (o->threads > 0) omp_set_num_threads(o->threads);
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
#else
    if (o->threads > 1)
        probe_error("note: built without OpenMP, --threads %d ignored: the codec runs on 1 thread",
                    o->threads);
#endif
    return n;
}

/* A thread with no tile of its own does no work, so small fields use fewer threads. */
static int threads_used(const probe_field_t *f, int team)
{
    size_t tiles = f->count / PROBE_TILE_VALUES + (f->count % PROBE_TILE_VALUES != 0);
    return tiles < (size_t)team ? (int)tiles : team;
}

static int eccl_failed(const char *what, eccl_result_t rc)
{
    probe_error("%s: %s", what, eccl_strerror(rc));
    return PROBE_EXIT_FAILURE;
}

static int time_compress(const probe_opts_t *o, const probe_field_t *f, unsigned char *stream,
                         size_t cap, probe_result_t *r)
{
    eccl_result_t rc = ECCL_SUCCESS;
    double best = INFINITY;
    for (int k = 0; k < o->repeat && rc == ECCL_SUCCESS; k++) {
        double t0 = now_s();
        rc = eccl_compress_fmt(f->values, f->count, f->dtype, &o->bound, stream, cap, &r->compressed_bytes,
                               ECCL_PATH_AUTO, o->format);
        double t = now_s() - t0;
        if (t < best) best = t;
    }
    r->compress_s = best;
    return rc == ECCL_SUCCESS ? PROBE_OK : eccl_failed("eccl_compress", rc);
}

static int time_decompress(const probe_opts_t *o, const probe_field_t *f,
                           const unsigned char *stream, void *rec, probe_result_t *r)
{
    eccl_result_t rc = ECCL_SUCCESS;
    double best = INFINITY;
    for (int k = 0; k < o->repeat && rc == ECCL_SUCCESS; k++) {
        double t0 = now_s();
        rc = eccl_decompress(stream, r->compressed_bytes, rec, f->count, f->dtype);
        double t = now_s() - t0;
        if (t < best) best = t;
    }
    r->decompress_s = best;
    return rc == ECCL_SUCCESS ? PROBE_OK : eccl_failed("eccl_decompress", rc);
}

static int write_outputs(const probe_opts_t *o, const unsigned char *stream, const void *rec,
                         const probe_result_t *r)
{
    int status = PROBE_OK;
    if (o->compressed_path)
        status = probe_write_file(o->compressed_path, stream, r->compressed_bytes, "--compressed");
    if (status == PROBE_OK && o->decompressed_path)
        status = probe_write_file(o->decompressed_path, rec, r->input_bytes, "--decompressed");
    return status;
}

static void report(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r)
{
    if (o->json)
        probe_report_json(o, f, r);
    else
        probe_report_text(o, f, r);
    fflush(stdout);
    /* Also on stderr, so that it is seen when stdout goes to a file or a JSON parser. */
    if (r->violations)
        probe_error("ERROR BOUND VIOLATED for %zu of %zu values (eb_abs %g): this is a bug in "
                    "eccl, please report it", r->violations, f->count, r->info.eb_abs);
}

/* Compress, decompress, check: fills r, or returns an error status. */
static int measure(const probe_opts_t *o, const probe_field_t *f, unsigned char *stream,
                   size_t cap, void *rec, probe_result_t *r)
{
    eccl_result_t rc;
    int status;
    rc = eccl_data_range(f->values, f->count, f->dtype, &r->data_min, &r->data_max);
    if (rc != ECCL_SUCCESS) {
        status = eccl_failed("eccl_data_range", rc);
        goto fn_exit;
    }
    status = time_compress(o, f, stream, cap, r);
    if (status != PROBE_OK) goto fn_exit;
    rc = eccl_stream_info(stream, r->compressed_bytes, &r->info);
    if (rc != ECCL_SUCCESS) {
        status = eccl_failed("eccl_stream_info", rc);
        goto fn_exit;
    }
    status = time_decompress(o, f, stream, rec, r);
    if (status != PROBE_OK) goto fn_exit;
    probe_compare(f, rec, r->info.eb_abs, o->bound.mode == ECCL_MODE_LOSSLESS, r);
fn_exit:
    return status;
}

static int run(const probe_opts_t *o, const probe_field_t *f)
{
    int status = PROBE_EXIT_FAILURE;
    probe_result_t r;
    size_t cap = eccl_compress_bound(f->count, f->dtype);
    unsigned char *stream = NULL;
    void *rec = NULL;
    memset(&r, 0, sizeof(r));
    r.input_bytes = f->count * eccl_dtype_size(f->dtype);
    r.threads_available = team_size(o);
    r.threads = threads_used(f, r.threads_available);
    if (cap == 0) {
        probe_error("%s: %zu values are more than eccl can compress in one stream", o->input,
                    f->count);
        goto fn_exit;
    }
    stream = malloc(cap);
    rec = malloc(r.input_bytes);
    if (!stream || !rec) {
        probe_error("out of memory (%zu + %zu bytes)", cap, r.input_bytes);
        goto fn_exit;
    }
    status = measure(o, f, stream, cap, rec, &r);
    if (status == PROBE_OK) status = write_outputs(o, stream, rec, &r);
    if (status != PROBE_OK) goto fn_exit;
    report(o, f, &r);
    if (r.violations) status = PROBE_EXIT_VIOLATION;
fn_exit:
    free(stream);
    free(rec);
    return status;
}

int main(int argc, char **argv)
{
    probe_opts_t o;
    probe_field_t f;
    int status;
    memset(&f, 0, sizeof(f));
    status = probe_parse_args(argc, argv, &o);
    if (status != PROBE_OK) goto fn_exit;
    if (o.show_help) {
        probe_print_help();
        goto fn_exit;
    }
    if (o.show_version) {
        probe_print_version();
        goto fn_exit;
    }
    status = probe_load(&o, &f);
    if (status == PROBE_OK) status = run(&o, &f);
fn_exit:
    probe_field_free(&f);
    return status;
}
