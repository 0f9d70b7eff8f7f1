/*
 * probe.h - eccl-probe internals: options, the loaded field, the measured figures.
 *
 * eccl-probe answers "what would eccl do to my data?" before compression is turned on in a run:
 * it compresses a field once with the user's bound, checks the reconstruction element by element
 * and reports size, error and speed.
 */
#ifndef ECCL_PROBE_H
#define ECCL_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "eccl.h"

/* Exit statuses (documented in --help and doc/probe.md). */
enum {
    PROBE_OK = 0,
    PROBE_EXIT_FAILURE = 1,  /* eccl returned an error, or out of memory */
    PROBE_EXIT_USAGE = 2,    /* bad invocation or unreadable input: the user can fix it */
    PROBE_EXIT_VIOLATION = 3 /* the reconstruction broke the error bound: a bug in eccl */
};

/* A netCDF variable can have up to NC_MAX_VAR_DIMS (1024) dimensions; real fields have a few. */
#define PROBE_MAX_DIMS 32
/* NC_MAX_NAME + 1: a netCDF type name, user-defined ones included. */
#define PROBE_NC_NAME_MAX 257
/* _FillValue and missing_value. */
#define PROBE_MAX_FILLS 2

typedef struct probe_opts {
    const char *input;       /* FILE or FILE.nc:VAR, as given */
    int type_given;          /* --type seen (else netCDF picks it; raw files require it) */
    eccl_dtype_t dtype;
    int ndims;               /* 0: no --dims */
    size_t dims[PROBE_MAX_DIMS];
    int bound_given;
    eccl_bound_t bound;
    const char *decompressed_path;
    const char *compressed_path;
    int json;
    int threads;             /* 0: leave the OpenMP default */
    int repeat;
    int format;              /* stream format version written: 1 (default), 2 or 3 */
    int show_help, show_version;
} probe_opts_t;

typedef struct probe_field {
    size_t var_colon;        /* netCDF: offset of the ':' before VAR in opts.input; raw: 0 */
    void *values;
    size_t count;
    eccl_dtype_t dtype;
    int ndims;
    size_t dims[PROBE_MAX_DIMS];
    char nc_type_name[PROBE_NC_NAME_MAX]; /* netCDF only: the variable's type, e.g. "short" */
    int nfills;              /* netCDF only: distinct _FillValue / missing_value values */
    double fills[PROBE_MAX_FILLS];
} probe_field_t;

/* Everything the report prints. */
typedef struct probe_result {
    size_t input_bytes;
    size_t compressed_bytes;
    double data_min, data_max;
    eccl_stream_info_t info;
    /* element by element, in long double */
    long double max_error;
    long double sum_sq;
    size_t nfinite;
    size_t violations;          /* finite elements off by more than eb_abs (any bit, lossless) */
    size_t nonfinite;           /* NaN and +-inf in the input */
    size_t nonfinite_mismatch;  /* of those, how many did not come back bit for bit */
    size_t fill_count;
    size_t fill_changed;        /* fill values that no longer compare equal to the attribute */
    double fill_free_min, fill_free_max; /* finite range without the fill values; NaN if none */
    /* timing: best of repeat runs */
    double compress_s, decompress_s;
    int threads;           /* busy: no more than there are tiles of 8192 values */
    int threads_available; /* the OpenMP team size */
} probe_result_t;

/* probe_args.c */
int probe_parse_args(int argc, char **argv, probe_opts_t *o);
void probe_print_help(void);
void probe_print_version(void);
const char *probe_type_name(eccl_dtype_t dtype);
const char *probe_mode_name(eccl_mode_t mode);

/* probe_input.c: each prints its own one-line error and returns a PROBE_* status. */
int probe_load(const probe_opts_t *o, probe_field_t *f);
void probe_field_free(probe_field_t *f);
int probe_write_file(const char *path, const void *buf, size_t bytes, const char *what);

/* probe_check.c */
void probe_compare(const probe_field_t *f, const void *rec, double eb_abs, int lossless,
                   probe_result_t *r);

/* probe_report.c */
void probe_report_text(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r);
void probe_report_json(const probe_opts_t *o, const probe_field_t *f, const probe_result_t *r);

/* One line on stderr, prefixed "eccl-probe: ". */
void probe_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
