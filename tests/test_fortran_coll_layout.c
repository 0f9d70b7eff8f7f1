/*
 * test_fortran_coll_layout.c - the C side of test_fortran_coll.F90's layout check: sizes and
 * field offsets of eccl_config_t, eccl_stats_t and (with ScaLAPACK) eccl_blacs_totals_t, which the
 * Fortran module mirrors with bind(C) types.  Test-only: not in libeccl.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "eccl.h"
#ifdef HAVE_SCALAPACK
#include "eccl_scalapack.h"
#endif

int64_t eccl_ftest_config_layout(int64_t *off);
int64_t eccl_ftest_stats_layout(int64_t *off);
int64_t eccl_ftest_totals_layout(int64_t *off);
int eccl_ftest_check_config(const eccl_config_t *c);

/* Returns sizeof(eccl_config_t); off[0..8] = offsets of its fields in declaration order. */
int64_t eccl_ftest_config_layout(int64_t *off)
{
    int i = 0;
    off[i++] = (int64_t)offsetof(eccl_config_t, bound);
    off[i++] = (int64_t)offsetof(eccl_config_t, compress);
    off[i++] = (int64_t)offsetof(eccl_config_t, fallback);
    off[i++] = (int64_t)offsetof(eccl_config_t, sum_mode);
    off[i++] = (int64_t)offsetof(eccl_config_t, sum_c);
    off[i++] = (int64_t)offsetof(eccl_config_t, alpha);
    off[i++] = (int64_t)offsetof(eccl_config_t, beta);
    off[i++] = (int64_t)offsetof(eccl_config_t, min_bytes);
    off[i++] = (int64_t)offsetof(eccl_config_t, format);
    return (int64_t)sizeof(eccl_config_t);
}

/* 1 when a default-initialized Fortran eccl_config equals ECCL_CONFIG_INITIALIZER. */
int eccl_ftest_check_config(const eccl_config_t *c)
{
    eccl_config_t d = ECCL_CONFIG_INITIALIZER;
    return c->bound.mode == d.bound.mode && c->bound.value == d.bound.value &&
           c->bound.range == d.bound.range && c->compress == d.compress &&
           c->fallback == d.fallback && c->sum_mode == d.sum_mode && c->sum_c == d.sum_c &&
           c->alpha == d.alpha && c->beta == d.beta && c->min_bytes == d.min_bytes && c->format == d.format;
}

/* Returns sizeof(eccl_stats_t); off[0..14] = offsets of its fields in declaration order. */
int64_t eccl_ftest_stats_layout(int64_t *off)
{
    int i = 0;
    off[i++] = (int64_t)offsetof(eccl_stats_t, algorithm);
    off[i++] = (int64_t)offsetof(eccl_stats_t, compressed);
    off[i++] = (int64_t)offsetof(eccl_stats_t, result);
    off[i++] = (int64_t)offsetof(eccl_stats_t, bound_requested);
    off[i++] = (int64_t)offsetof(eccl_stats_t, eb_per_message);
    off[i++] = (int64_t)offsetof(eccl_stats_t, bytes_raw);
    off[i++] = (int64_t)offsetof(eccl_stats_t, bytes_sent);
    off[i++] = (int64_t)offsetof(eccl_stats_t, ratio);
    off[i++] = (int64_t)offsetof(eccl_stats_t, t_total);
    off[i++] = (int64_t)offsetof(eccl_stats_t, t_codec);
    off[i++] = (int64_t)offsetof(eccl_stats_t, t_network);
    off[i++] = (int64_t)offsetof(eccl_stats_t, model_ratio);
    off[i++] = (int64_t)offsetof(eccl_stats_t, model_t_mpi);
    off[i++] = (int64_t)offsetof(eccl_stats_t, model_t_chosen);
    off[i++] = (int64_t)offsetof(eccl_stats_t, reason);
    return (int64_t)sizeof(eccl_stats_t);
}

/* Returns sizeof(eccl_blacs_totals_t) (0 without ScaLAPACK); off[0..8] = field offsets. */
int64_t eccl_ftest_totals_layout(int64_t *off)
{
#ifdef HAVE_SCALAPACK
    int i = 0;
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, calls);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, calls_compressed);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, bytes_raw);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, bytes_sent);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, t_total);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, max_eb);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, t_select);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, t_codec);
    off[i++] = (int64_t)offsetof(eccl_blacs_totals_t, t_network);
    return (int64_t)sizeof(eccl_blacs_totals_t);
#else
    (void)off;
    return 0;
#endif
}
