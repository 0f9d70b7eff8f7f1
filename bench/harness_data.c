/*
 * harness_data.c - the input fields of bench/bench_coll. Every rank gets its own data (a phase,
 * a seed or an offset that depends on the rank), so reductions sum different values:
 *   smooth      sin(x)cos(y) on rows of 4096 values, period 1024 along both axes
 *   randomwalk  uniform steps of +-1e-3 (the codec benchmark's random walk)
 *   normal      normal(0,1), Box-Muller
 *   netcdf      a real field from a netCDF file (default pop.nc:t of Debian's libncarg-data):
 *               _FillValue / missing_value / non-finite values replaced by 0, then the field is
 *               repeated (tiled) to the requested size, rank r starting at offset r * N / p.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_NETCDF
#include <netcdf.h>
#endif

#include "bench/harness.h"

#define SMOOTH_ROW 4096
#define SMOOTH_PERIOD 1024.0
#define TWO_PI 6.283185307179586

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state) { return (double)(splitmix(state) >> 11) * 0x1.0p-53; }

static const char *default_dir(void)
{
    const char *dir = getenv("ECCL_NCARG_DIR");
    return dir && *dir ? dir : "/usr/share/ncarg/data/cdf";
}

int bench_data_parse(const char *spec, bench_data_t *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (!strcmp(spec, "smooth")) d->kind = BENCH_SMOOTH;
    else if (!strcmp(spec, "randomwalk")) d->kind = BENCH_RANDOMWALK;
    else if (!strcmp(spec, "normal")) d->kind = BENCH_NORMAL;
    else if (!strncmp(spec, "netcdf", 6) && (spec[6] == '\0' || spec[6] == ':')) {
        d->kind = BENCH_NETCDF;
        const char *file = "pop.nc", *var = "t";
        char buf[512];
        if (spec[6] == ':') {
            snprintf(buf, sizeof buf, "%s", spec + 7);
            char *c = strrchr(buf, ':');
            if (!c || c == buf || !c[1]) {
                snprintf(err, errlen, "--data netcdf:FILE:VAR expected, got \"%s\"", spec);
                return -1;
            }
            *c = '\0';
            file = buf;
            var = c + 1;
        }
        if (strchr(file, '/')) snprintf(d->path, sizeof d->path, "%.511s", file);
        else snprintf(d->path, sizeof d->path, "%.255s/%.255s", default_dir(), file);
        snprintf(d->var, sizeof d->var, "%s", var);
    } else {
        snprintf(err, errlen, "unknown --data \"%s\" (smooth, randomwalk, normal, netcdf[:FILE:VAR])", spec);
        return -1;
    }
    return 0;
}

#ifdef HAVE_NETCDF
/* Values equal to the variable's attribute `name` (if it has one) become 0. */
static float fill_attr(int nc, int id, const char *name, int *has)
{
    float v = 0;
    *has = nc_get_att_float(nc, id, name, &v) == NC_NOERR;
    return v;
}

static int read_var(bench_data_t *d, int nc, char *err, size_t errlen)
{
    int id, nd, dims[NC_MAX_VAR_DIMS];
    if (nc_inq_varid(nc, d->var, &id) != NC_NOERR || nc_inq_varndims(nc, id, &nd) != NC_NOERR ||
        nc_inq_vardimid(nc, id, dims) != NC_NOERR) {
        snprintf(err, errlen, "%s: no variable \"%s\"", d->path, d->var);
        return -1;
    }
    size_t n = 1;
    for (int k = 0; k < nd; k++) {
        size_t len = 0;
        nc_inq_dimlen(nc, dims[k], &len);
        n *= len;
    }
    d->field = n ? malloc(n * sizeof *d->field) : NULL;
    if (!d->field || nc_get_var_float(nc, id, d->field) != NC_NOERR) {
        snprintf(err, errlen, "%s: cannot read \"%s\"", d->path, d->var);
        return -1;
    }
    int has_fill, has_missing;
    float fill = fill_attr(nc, id, "_FillValue", &has_fill);
    float missing = fill_attr(nc, id, "missing_value", &has_missing);
    for (size_t i = 0; i < n; i++) {
        float v = d->field[i];
        if (!isfinite(v) || (has_fill && v == fill) || (has_missing && v == missing)) {
            d->field[i] = 0.0f;
            d->nfilled++;
        }
    }
    d->nfield = n;
    return 0;
}
#endif

int bench_data_load(bench_data_t *d, char *err, size_t errlen)
{
    static const char *names[] = {
        "smooth: sin(x)cos(y) on rows of 4096 values, period 1024 along both axes, phase set by the rank",
        "randomwalk: uniform steps of +-1e-3 from 0, seed set by the rank",
        "normal: normal(0,1) (Box-Muller), seed set by the rank"};
    if (d->kind != BENCH_NETCDF) {
        snprintf(d->desc, sizeof d->desc, "%s", names[d->kind]);
        return 0;
    }
#ifdef HAVE_NETCDF
    int nc;
    if (nc_open(d->path, NC_NOWRITE, &nc) != NC_NOERR) {
        snprintf(err, errlen, "cannot open %s (Debian: libncarg-data)", d->path);
        return -1;
    }
    int rc = read_var(d, nc, err, errlen);
    nc_close(nc);
    if (rc) return rc;
    if (d->nfield == 0) {
        snprintf(err, errlen, "%s:%s is empty", d->path, d->var);
        return -1;
    }
    snprintf(d->desc, sizeof d->desc,
             "netcdf %s:%s, %zu values, %zu _FillValue/missing values replaced by 0, the field "
             "tiled (repeated) to the requested size, rank r starting at offset r*%zu/p",
             d->path, d->var, d->nfield, d->nfilled, d->nfield);
    return 0;
#else
    snprintf(err, errlen, "--data netcdf: eccl was built without netCDF");
    return -1;
#endif
}

static double smooth(int rank, size_t i)
{
    /* phases never 0, so that no rank's first row is all zeros */
    double u = TWO_PI * (double)(i / SMOOTH_ROW) / SMOOTH_PERIOD + 0.7 * (rank + 1);
    double v = TWO_PI * (double)(i % SMOOTH_ROW) / SMOOTH_PERIOD + 0.3 * (rank + 1);
    return sin(u) * cos(v);
}

static void put(eccl_dtype_t dtype, void *out, size_t i, double v)
{
    if (dtype == ECCL_FLOAT64 || dtype == ECCL_COMPLEX128) ((double *)out)[i] = v;
    else ((float *)out)[i] = (float)v;
}

void bench_data_fill(const bench_data_t *d, int rank, int nranks, eccl_dtype_t dtype, void *out,
                     size_t nreal)
{
    uint64_t state = 0x5EEDull + 1000003ull * (uint64_t)rank;
    double walk = 0.0;
    size_t off = d->nfield ? (size_t)rank * d->nfield / (size_t)(nranks > 0 ? nranks : 1) : 0;
    for (size_t i = 0; i < nreal; i++) {
        double v;
        switch (d->kind) {
        case BENCH_SMOOTH: v = smooth(rank, i); break;
        case BENCH_RANDOMWALK: v = walk += (uniform(&state) - 0.5) * 2e-3; break;
        case BENCH_NORMAL: {
            double a = uniform(&state), b = uniform(&state);
            v = sqrt(-2.0 * log(a > 1e-300 ? a : 1e-300)) * cos(TWO_PI * b);
            break;
        }
        default: v = d->field[(off + i) % d->nfield]; break;
        }
        put(dtype, out, i, v);
    }
}

void bench_data_free(bench_data_t *d)
{
    free(d->field);
    d->field = NULL;
}
