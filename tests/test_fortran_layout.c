/*
 * test_fortran_layout.c - the C side of the layout check in test_fortran.F90: sizes and field
 * offsets of the structs the Fortran module mirrors with bind(C) types, and structs filled with
 * distinct values, so a field of the wrong size or place shows up.  Test-only: not in libeccl.
 */
#include <stddef.h>
#include <stdint.h>

#include "eccl.h"

/* Called from Fortran (bind(C) interfaces in test_fortran.F90): no C header declares them. */
int64_t eccl_ftest_bound_layout(int64_t *off);
int64_t eccl_ftest_stream_info_layout(int64_t *off);
int64_t eccl_ftest_addr_diff(const void *base, const void *field);
void eccl_ftest_fill_bound(eccl_bound_t *b);
void eccl_ftest_fill_stream_info(eccl_stream_info_t *s);
int eccl_ftest_check_bound(const eccl_bound_t *b);
int64_t eccl_ftest_stats_layout(int64_t *off);

/* Returns sizeof(eccl_bound_t); off[0..2] = offsets of mode, value, range. */
int64_t eccl_ftest_bound_layout(int64_t *off)
{
    off[0] = (int64_t)offsetof(eccl_bound_t, mode);
    off[1] = (int64_t)offsetof(eccl_bound_t, value);
    off[2] = (int64_t)offsetof(eccl_bound_t, range);
    return (int64_t)sizeof(eccl_bound_t);
}

/* Returns sizeof(eccl_stream_info_t); off[0..13] = offsets of its fields in declaration order. */
int64_t eccl_ftest_stream_info_layout(int64_t *off)
{
    int i = 0;
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, version_major);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, version_minor);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, dtype);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, mode);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, count);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, bound);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, eb_abs);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, range);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, nsum);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, stream_size);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, nblocks);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, nblocks_zero);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, nblocks_quant);
    off[i++] = (int64_t)offsetof(eccl_stream_info_t, nblocks_raw);
    return (int64_t)sizeof(eccl_stream_info_t);
}

/* Byte distance from base to field, for the Fortran side's offsets (c_loc of each component). */
int64_t eccl_ftest_addr_diff(const void *base, const void *field)
{
    return (int64_t)((const char *)field - (const char *)base);
}

void eccl_ftest_fill_bound(eccl_bound_t *b)
{
    b->mode = ECCL_MODE_REL;
    b->value = 0.25;
    b->range = -1.5;
}

/* Every field distinct; nsum has its top bit set (reads as -2 in a signed 32-bit integer). */
void eccl_ftest_fill_stream_info(eccl_stream_info_t *s)
{
    s->version_major = 11;
    s->version_minor = 12;
    s->dtype = ECCL_COMPLEX128;
    s->mode = ECCL_MODE_ABS;
    s->count = UINT64_C(0x0102030405060708);
    s->bound = 1.5;
    s->eb_abs = 2.5;
    s->range = 3.5;
    s->nsum = UINT32_C(0xFFFFFFFE);
    s->stream_size = UINT64_C(0x1112131415161718);
    s->nblocks = 21;
    s->nblocks_zero = 22;
    s->nblocks_quant = 23;
    s->nblocks_raw = 24;
}

/* Reads a bound the Fortran side filled: 1 when it holds (ABS, 0.125, 7.0). */
int eccl_ftest_check_bound(const eccl_bound_t *b)
{
    return b->mode == ECCL_MODE_ABS && b->value == 0.125 && b->range == 7.0;
}

/* Returns sizeof(eccl_stats_t); off[0..6] = offsets of compressed, bytes_raw, reason, t_stage, device,
 * transport, t_select. */
int64_t eccl_ftest_stats_layout(int64_t *off)
{
    off[0] = (int64_t)offsetof(eccl_stats_t, compressed);
    off[1] = (int64_t)offsetof(eccl_stats_t, bytes_raw);
    off[2] = (int64_t)offsetof(eccl_stats_t, reason);
    off[3] = (int64_t)offsetof(eccl_stats_t, t_stage);
    off[4] = (int64_t)offsetof(eccl_stats_t, device);
    off[5] = (int64_t)offsetof(eccl_stats_t, transport);
    off[6] = (int64_t)offsetof(eccl_stats_t, t_select);
    return (int64_t)sizeof(eccl_stats_t);
}
