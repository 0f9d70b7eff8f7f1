/* eccl-probe: reading the field (raw binary or a netCDF variable) and writing outputs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#ifdef HAVE_NETCDF
#include <netcdf.h>
#endif

#include "tools/probe.h"

#ifdef HAVE_NETCDF
/* probe.h sizes the type name without netcdf.h. */
_Static_assert(PROBE_NC_NAME_MAX >= NC_MAX_NAME + 1, "PROBE_NC_NAME_MAX too small");
#endif

/* ---- helpers ---- */

static int out_of_memory(size_t bytes)
{
    probe_error("out of memory (%zu bytes)", bytes);
    return PROBE_EXIT_FAILURE;
}

static void format_dims(const size_t *dims, int ndims, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ndims && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%zu", i ? "x" : "", dims[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

/* Product of the dims, or 0 when it overflows size_t (a zero dim also gives 0). */
static size_t dims_product(const size_t *dims, int ndims)
{
    size_t p = 1;
    for (int i = 0; i < ndims && p != 0; i++)
        p = dims[i] != 0 && p > SIZE_MAX / dims[i] ? 0 : p * dims[i];
    return p;
}

/* FILE.nc:VAR (or .cdf, .nc4): a netCDF variable.  Returns the offset of ':' or 0. */
static size_t netcdf_split(const char *arg)
{
    static const char *const exts[] = {".nc", ".cdf", ".nc4"};
    const char *colon = strrchr(arg, ':');
    size_t pos = colon ? (size_t)(colon - arg) : 0, found = 0;
    for (size_t i = 0; pos && !found && i < sizeof(exts) / sizeof(exts[0]); i++) {
        size_t el = strlen(exts[i]);
        if (pos > el && strncasecmp(arg + pos - el, exts[i], el) == 0) found = pos;
    }
    return found;
}

/* netCDF classic files start with "CDF" 1/2/5, netCDF-4 with the HDF5 signature. */
static int looks_like_netcdf(const unsigned char *head, size_t n)
{
    static const unsigned char hdf5[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    int classic = n >= 4 && head[0] == 'C' && head[1] == 'D' && head[2] == 'F' &&
                  (head[3] == 1 || head[3] == 2 || head[3] == 5);
    return classic || (n >= 8 && memcmp(head, hdf5, 8) == 0);
}

/* ---- raw binary ---- */

static int raw_size(const char *path, FILE *fp, size_t esz, size_t *bytes)
{
    int status = PROBE_EXIT_USAGE;
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        probe_error("%s: not a regular file", path);
        goto fn_exit;
    }
    if (st.st_size == 0) {
        probe_error("%s: file is empty", path);
        goto fn_exit;
    }
    if ((uintmax_t)st.st_size > SIZE_MAX || (size_t)st.st_size % esz != 0) {
        probe_error("%s: size %jd bytes is not a whole number of %zu-byte values", path,
                    (intmax_t)st.st_size, esz);
        goto fn_exit;
    }
    *bytes = (size_t)st.st_size;
    status = PROBE_OK;
fn_exit:
    return status;
}

static int raw_read(const char *path, FILE *fp, size_t bytes, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE;
    f->values = malloc(bytes);
    if (!f->values) {
        status = out_of_memory(bytes);
        goto fn_exit;
    }
    if (fread(f->values, 1, bytes, fp) != bytes) {
        probe_error("%s: read failed: %s", path, ferror(fp) ? strerror(errno) : "file shrank");
        goto fn_exit;
    }
    status = PROBE_OK;
fn_exit:
    return status;
}

/* The first bytes of a regular file look like a netCDF header; fp is left at the start. */
static int raw_is_netcdf(FILE *fp)
{
    unsigned char head[8];
    size_t n = 0;
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode)) {
        n = fread(head, 1, sizeof(head), fp);
        rewind(fp);
    }
    return looks_like_netcdf(head, n);
}

static void netcdf_without_var(const char *path);

static int load_raw(const probe_opts_t *o, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE;
    size_t esz = eccl_dtype_size(o->dtype), bytes = 0;
    FILE *fp = fopen(o->input, "rb");
    if (!fp) {
        probe_error("%s: %s", o->input, strerror(errno));
        goto fn_exit;
    }
    /* Without a ":VAR" a netCDF file would be probed as floats made of its header bytes, or
     * refused for want of a --type it does not need: say what it needs instead. */
    if (raw_is_netcdf(fp)) {
        netcdf_without_var(o->input);
        goto fn_exit;
    }
    if (!o->type_given) {
        probe_error("%s: a raw file needs --type f32 or --type f64", o->input);
        goto fn_exit;
    }
    status = raw_size(o->input, fp, esz, &bytes);
    if (status != PROBE_OK) goto fn_exit;
    status = raw_read(o->input, fp, bytes, f);
    if (status != PROBE_OK) goto fn_exit;
    f->dtype = o->dtype;
    f->count = bytes / esz;
    f->ndims = 1;
    f->dims[0] = f->count;
fn_exit:
    if (fp) fclose(fp);
    return status;
}

/* ---- netCDF ---- */

#ifdef HAVE_NETCDF
static int nc_numeric(nc_type t)
{
    int numeric = 0;
    switch (t) {
    case NC_BYTE: case NC_UBYTE: case NC_SHORT: case NC_USHORT: case NC_INT: case NC_UINT:
    case NC_INT64: case NC_UINT64: case NC_FLOAT: case NC_DOUBLE: numeric = 1; break;
    default: break;
    }
    return numeric;
}

/* "variables: t, urot, ..." so a mistyped variable name can be corrected from the message
 * alone, or "the file has no variables". */
static void nc_list_vars(int ncid, char *buf, size_t len)
{
    static const char head[] = "variables: ";
    int nvars = 0;
    size_t used = sizeof(head) - 1;
    snprintf(buf, len, "%s", head);
    if (nc_inq_nvars(ncid, &nvars) != NC_NOERR) nvars = 0;
    for (int v = 0; v < nvars && used + 1 < len; v++) {
        char name[NC_MAX_NAME + 1];
        if (nc_inq_varname(ncid, v, name) != NC_NOERR) continue;
        int n = snprintf(buf + used, len - used, "%s%s", used > sizeof(head) - 1 ? ", " : "",
                         name);
        if (n < 0) break;
        used += (size_t)n;
    }
    if (used == sizeof(head) - 1) snprintf(buf, len, "the file has no variables");
}

static int nc_find_var(int ncid, const char *path, const char *var, int *varid)
{
    int status = PROBE_OK;
    int rc = nc_inq_varid(ncid, var, varid);
    if (rc != NC_NOERR) {
        char names[512];
        nc_list_vars(ncid, names, sizeof(names));
        probe_error("%s: no variable '%s' (%s)", path, var, names);
        status = PROBE_EXIT_USAGE;
    }
    return status;
}

static int nc_shape(int ncid, int varid, const char *path, const char *var, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE, ndims = 0, dimids[NC_MAX_VAR_DIMS];
    nc_type xtype;
    if (nc_inq_var(ncid, varid, NULL, &xtype, &ndims, dimids, NULL) != NC_NOERR) goto fn_fail;
    if (nc_inq_type(ncid, xtype, f->nc_type_name, NULL) != NC_NOERR) goto fn_fail;
    if (!nc_numeric(xtype)) {
        probe_error("%s:%s has type %s, not a numeric type", path, var, f->nc_type_name);
        goto fn_exit;
    }
    if (ndims > PROBE_MAX_DIMS) {
        probe_error("%s:%s has %d dimensions, more than %d", path, var, ndims, PROBE_MAX_DIMS);
        goto fn_exit;
    }
    for (int i = 0; i < ndims; i++) {
        if (nc_inq_dimlen(ncid, dimids[i], &f->dims[i]) != NC_NOERR) goto fn_fail;
        /* An unlimited dimension with no records yet: nothing to probe. */
        if (f->dims[i] == 0) {
            char dim[NC_MAX_NAME + 1] = "?";
            nc_inq_dimname(ncid, dimids[i], dim);
            probe_error("%s:%s holds no values: zero-length dimension '%s'", path, var, dim);
            goto fn_exit;
        }
    }
    /* No dimensions (a scalar): one value, the empty product. */
    f->ndims = ndims;
    f->count = dims_product(f->dims, ndims);
    if (f->count == 0) {
        probe_error("%s:%s holds too many values to address", path, var);
        goto fn_exit;
    }
    if (f->dtype == 0) f->dtype = xtype == NC_FLOAT ? ECCL_FLOAT32 : ECCL_FLOAT64;
    if (f->count > SIZE_MAX / eccl_dtype_size(f->dtype)) {
        probe_error("%s:%s: %zu values do not fit in memory", path, var, f->count);
        goto fn_exit;
    }
    status = PROBE_OK;
    goto fn_exit;
fn_fail:
    probe_error("%s:%s: cannot read the variable's shape", path, var);
fn_exit:
    return status;
}

static int nc_values(int ncid, int varid, const char *path, const char *var, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE, rc;
    size_t bytes = f->count * eccl_dtype_size(f->dtype);
    f->values = malloc(bytes);
    if (!f->values) {
        status = out_of_memory(bytes);
        goto fn_exit;
    }
    if (f->dtype == ECCL_FLOAT32)
        rc = nc_get_var_float(ncid, varid, f->values);
    else
        rc = nc_get_var_double(ncid, varid, f->values);
    if (rc != NC_NOERR) {
        probe_error("%s:%s: cannot read as %s: %s", path, var, probe_type_name(f->dtype),
                    nc_strerror(rc));
        goto fn_exit;
    }
    status = PROBE_OK;
fn_exit:
    return status;
}

static void add_fill(probe_field_t *f, double v)
{
    /* Compare in the type the data was converted to, as the data will be compared. */
    int seen = 0;
    if (f->dtype == ECCL_FLOAT32) v = (double)(float)v;
    for (int i = 0; i < f->nfills; i++)
        seen |= f->fills[i] == v || (isnan(v) && isnan(f->fills[i]));
    if (!seen && f->nfills < PROBE_MAX_FILLS) f->fills[f->nfills++] = v;
}

static void nc_fills(int ncid, int varid, probe_field_t *f)
{
    static const char *const names[PROBE_MAX_FILLS] = {"_FillValue", "missing_value"};
    for (int i = 0; i < PROBE_MAX_FILLS; i++) {
        nc_type at;
        size_t len = 0;
        double v;
        /* A fill attribute of the wrong type or length is malformed: ignore it, as readers do. */
        if (nc_inq_att(ncid, varid, names[i], &at, &len) != NC_NOERR || len != 1 ||
            !nc_numeric(at) || nc_get_att_double(ncid, varid, names[i], &v) != NC_NOERR)
            continue;
        add_fill(f, v);
    }
}

static int load_netcdf(const probe_opts_t *o, const char *path, const char *var, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE, ncid = -1, varid = -1;
    int rc = nc_open(path, NC_NOWRITE, &ncid);
    if (rc != NC_NOERR) {
        ncid = -1;
        probe_error("%s: cannot open as netCDF: %s", path, nc_strerror(rc));
        goto fn_exit;
    }
    f->dtype = o->type_given ? o->dtype : 0;
    status = nc_find_var(ncid, path, var, &varid);
    if (status == PROBE_OK) status = nc_shape(ncid, varid, path, var, f);
    if (status == PROBE_OK) status = nc_values(ncid, varid, path, var, f);
    if (status == PROBE_OK) nc_fills(ncid, varid, f);
fn_exit:
    if (ncid >= 0) nc_close(ncid);
    return status;
}

/* The probe does not pick a variable for the user: it lists those there are. */
static void netcdf_without_var(const char *path)
{
    int ncid = -1;
    char names[512];
    if (nc_open(path, NC_NOWRITE, &ncid) == NC_NOERR) {
        nc_list_vars(ncid, names, sizeof(names));
        nc_close(ncid);
        probe_error("%s is a netCDF file: name a variable, as %s:VAR (%s)", path, path, names);
    } else {
        probe_error("%s is a netCDF file: name a variable, as %s:VAR", path, path);
    }
}
#else
static void netcdf_without_var(const char *path)
{
    probe_error("%s is a netCDF file: name a variable, as %s:VAR (and use an eccl built with "
                "netCDF support)", path, path);
}

static int load_netcdf(const probe_opts_t *o, const char *path, const char *var, probe_field_t *f)
{
    (void)o;
    (void)f;
    probe_error("%s:%s: eccl was built without netCDF support (install the netCDF development "
                "files, e.g. libnetcdf-dev, and reconfigure)", path, var);
    return PROBE_EXIT_USAGE;
}
#endif

static int load_netcdf_arg(const probe_opts_t *o, size_t colon, probe_field_t *f)
{
    int status = PROBE_EXIT_USAGE;
    char *path = malloc(colon + 1);
    const char *var = o->input + colon + 1;
    if (!path) {
        status = out_of_memory(colon + 1);
        goto fn_exit;
    }
    memcpy(path, o->input, colon);
    path[colon] = '\0';
    if (*var == '\0') {
        probe_error("'%s': no variable name after the ':' (FILE.nc:VAR)", o->input);
        goto fn_exit;
    }
    status = load_netcdf(o, path, var, f);
fn_exit:
    free(path);
    return status;
}

/* --dims is a claim about the data: refuse it when it cannot be the shape of what was read. */
static int apply_dims(const probe_opts_t *o, probe_field_t *f)
{
    int status = PROBE_OK;
    if (o->ndims == 0) goto fn_exit;
    if (dims_product(o->dims, o->ndims) != f->count) {
        char given[256];
        format_dims(o->dims, o->ndims, given, sizeof(given));
        probe_error("--dims %s does not match %s: it holds %zu values of %s", given, o->input,
                    f->count, probe_type_name(f->dtype));
        status = PROBE_EXIT_USAGE;
        goto fn_exit;
    }
    f->ndims = o->ndims;
    memcpy(f->dims, o->dims, sizeof(o->dims[0]) * (size_t)o->ndims);
fn_exit:
    return status;
}

int probe_load(const probe_opts_t *o, probe_field_t *f)
{
    int status;
    size_t colon = netcdf_split(o->input);
    memset(f, 0, sizeof(*f));
    f->var_colon = colon;
    status = colon ? load_netcdf_arg(o, colon, f) : load_raw(o, f);
    if (status == PROBE_OK) status = apply_dims(o, f);
    if (status != PROBE_OK) probe_field_free(f);
    return status;
}

void probe_field_free(probe_field_t *f)
{
    free(f->values);
    f->values = NULL;
}

int probe_write_file(const char *path, const void *buf, size_t bytes, const char *what)
{
    int status = PROBE_EXIT_USAGE, rc;
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        probe_error("%s %s: %s", what, path, strerror(errno));
        goto fn_exit;
    }
    if (fwrite(buf, 1, bytes, fp) != bytes) {
        probe_error("%s %s: write failed: %s", what, path, strerror(errno));
        goto fn_exit;
    }
    /* fclose flushes: a full disk may only show up here. */
    rc = fclose(fp);
    fp = NULL;
    if (rc != 0) {
        probe_error("%s %s: write failed: %s", what, path, strerror(errno));
        goto fn_exit;
    }
    status = PROBE_OK;
fn_exit:
    if (fp) fclose(fp);
    return status;
}
