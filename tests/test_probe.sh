#!/bin/sh
# test_probe.sh - eccl-probe end to end: raw f32/f64 fields (smooth, and with NaN/inf), every
# mode, the JSON contract, --compressed/--decompressed (checked by tests/cmp_raw, independently
# of the probe), bad invocations (status 2 and a message), and netCDF input when available
# (scalar variables, an empty record dimension and other edge cases with ncgen).
#
# Environment (tests/Makefile.mk sets it): top_builddir, ECCL_NCARG_DIR.
# Exit: 0 pass, 1 fail, 77 only when the programs under test are not built.

top_builddir=${top_builddir:-.}
PROBE=$top_builddir/eccl-probe
GEN=$top_builddir/tests/gen_raw
CMP=$top_builddir/tests/cmp_raw
NCARG=${ECCL_NCARG_DIR:-/usr/share/ncarg/data/cdf}

for p in "$PROBE" "$GEN" "$CMP"; do
    if [ ! -x "$p" ]; then
        echo "SKIP: $p is not built (run through make check)"
        exit 77
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eccl-probe-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# probe ARGS...: runs eccl-probe, stdout in $tmp/out, stderr in $tmp/err, status in $rc.
probe() {
    "$PROBE" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# get KEY: a scalar from the JSON in $tmp/out (the probe writes one key per line).
get() { sed -n "s/^ *\"$1\": *\([^,]*\),\{0,1\}\$/\1/p" "$tmp/out"; }

# awk_true EXPR A B: EXPR over a and b, numbers; false when either is empty or null.
awk_true() {
    case "$2$3" in *null*) return 1 ;; esac
    [ -n "$2" ] && [ -n "$3" ] && awk -v a="$2" -v b="$3" "BEGIN { exit !($1) }"
}

size_of() { wc -c <"$1" | tr -d ' '; }

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# json_ok: $tmp/out is exactly one JSON object with no NaN/Infinity literals (python3 only).
json_ok() {
    [ $have_python = no ] && return 0
    python3 - "$tmp/out" <<'EOF'
import json, sys
def bad(c):
    raise ValueError("non-JSON number " + c)
with open(sys.argv[1]) as f:
    d = json.load(f, parse_constant=bad)
assert isinstance(d, dict), "not an object"
EOF
}

# expect_ok WHAT: status 0, a valid object, no violation, nothing on stderr.
expect_ok() {
    if [ "$rc" -ne 0 ]; then fail "$1: status $rc: $(cat "$tmp/err")"; return 1; fi
    if ! json_ok; then fail "$1: stdout is not one JSON object"; return 1; fi
    if [ "$(get violations)" != 0 ] || [ "$(get ok)" != true ]; then
        fail "$1: violations=$(get violations)"; return 1
    fi
    if grep -v '^eccl-probe: note:' "$tmp/err" >/dev/null; then
        fail "$1: unexpected stderr: $(cat "$tmp/err")"; return 1
    fi
    return 0
}

# check_bound WHAT: the probe's own figures say max_error <= eb_abs.
check_bound() {
    me=$(get max_error); eb=$(get eb_abs)
    if awk_true 'a <= b' "$me" "$eb"; then pass "$1: max_error $me <= eb_abs $eb"
    else fail "$1: max_error '$me' vs eb_abs '$eb'"; fi
}

# check_rec WHAT ORIG REC TYPE EB: the reconstruction, checked by cmp_raw, and the probe's
# max_error equal to the one cmp_raw computes.
check_rec() {
    if ! "$CMP" "$2" "$3" "$4" "$5" >"$tmp/cmp" 2>&1; then
        fail "$1: cmp_raw: $(cat "$tmp/cmp")"; return
    fi
    cm=$(sed -n 's/^max_error=\([^ ]*\) .*/\1/p' "$tmp/cmp")
    if awk_true 'a == b' "$cm" "$(get max_error)"; then pass "$1: reconstruction within $5 (cmp_raw)"
    else fail "$1: cmp_raw max_error $cm, probe says $(get max_error)"; fi
}

# ---------------------------------------------------------------------------------------------
# raw float32, absolute bound, all outputs
"$GEN" "$tmp/f.f32" 60000 f32 smooth || { fail "gen_raw f32"; exit 1; }
probe "$tmp/f.f32" --type f32 --dims 200x300 --abs 1e-3 --json --repeat 2 \
    --compressed "$tmp/f.ecl" --decompressed "$tmp/f.rec"
if expect_ok "f32 abs"; then
    check_bound "f32 abs"
    [ "$(get count)" = 60000 ] && [ "$(get type)" = '"f32"' ] && [ "$(get eb_abs)" = 0.001 ] &&
        [ "$(get mode)" = '"abs"' ] && [ "$(get input_bytes)" = 240000 ] &&
        [ "$(get repeat)" = 2 ] ||
        fail "f32 abs: count/type/eb_abs/mode/input_bytes/repeat: $(tr -d '\n' <"$tmp/out")"
    grep -q '"dims": \[200, 300\]' "$tmp/out" || fail "f32 abs: dims not [200, 300]"
    awk_true 'a > 1' "$(get ratio)" 1 && pass "f32 abs: ratio $(get ratio) > 1" ||
        fail "f32 abs: ratio '$(get ratio)' not > 1"
    awk_true 'a > 0 && a <= 1' "$(get max_error_over_eb)" 1 ||
        fail "f32 abs: max_error_over_eb '$(get max_error_over_eb)' not in (0, 1]"
    awk_true 'a == 8 * b / 60000' "$(get bits_per_value)" "$(get compressed_bytes)" ||
        fail "f32 abs: bits_per_value inconsistent with compressed_bytes"
    [ "$(size_of "$tmp/f.ecl")" = "$(get compressed_bytes)" ] ||
        fail "f32 abs: --compressed file size differs from compressed_bytes"
    for k in psnr_db rmse compress_gbps decompress_gbps threads; do
        awk_true 'a > 0' "$(get $k)" 0 || fail "f32 abs: $k '$(get $k)' not > 0"
    done
    check_rec "f32 abs" "$tmp/f.f32" "$tmp/f.rec" f32 "$(get eb_abs)"
fi

# relative bound: eb_abs is E times the data range
probe "$tmp/f.f32" --type f32 --rel 1e-4 --json --repeat 1 --decompressed "$tmp/r.rec"
if expect_ok "f32 rel"; then
    check_bound "f32 rel"
    awk_true 'a > 0.999999e-4 * b && a < 1.000001e-4 * b' "$(get eb_abs)" "$(get data_range)" ||
        fail "f32 rel: eb_abs $(get eb_abs) is not 1e-4 x data_range $(get data_range)"
    check_rec "f32 rel" "$tmp/f.f32" "$tmp/r.rec" f32 "$(get eb_abs)"
fi

# lossless: bit for bit, no error figures
probe "$tmp/f.f32" --type f32 --lossless --json --repeat 1 --decompressed "$tmp/l.rec"
if expect_ok "f32 lossless"; then
    [ "$(get max_error)" = 0 ] && [ "$(get eb_abs)" = 0 ] &&
        [ "$(get max_error_over_eb)" = null ] && [ "$(get psnr_db)" = null ] &&
        [ "$(get bound)" = null ] ||
        fail "f32 lossless: expected max_error 0, eb_abs 0, nulls for ratio to eb, psnr, bound"
    check_rec "f32 lossless" "$tmp/f.f32" "$tmp/l.rec" f32 0
fi

# NaN, +-inf, -0.0 and a NaN payload, in f32 and f64
for t in f32 f64; do
    "$GEN" "$tmp/s.$t" 40000 $t special || { fail "gen_raw special $t"; continue; }
    probe "$tmp/s.$t" --type $t --abs 1e-2 --json --repeat 1 --decompressed "$tmp/s.rec"
    if expect_ok "$t special"; then
        check_bound "$t special"
        awk_true 'a > 1000' "$(get nonfinite_count)" 0 ||
            fail "$t special: nonfinite_count '$(get nonfinite_count)'"
        [ "$(get nonfinite_mismatches)" = 0 ] || fail "$t special: nonfinite mismatches"
        check_rec "$t special" "$tmp/s.$t" "$tmp/s.rec" $t "$(get eb_abs)"
    fi
done

# float64, tight bound, threads
"$GEN" "$tmp/d.f64" 50000 f64 smooth || fail "gen_raw f64"
probe "$tmp/d.f64" --type f64 --abs 1e-9 --json --threads 2 --repeat 1 --decompressed "$tmp/d.rec"
if expect_ok "f64 abs"; then
    check_bound "f64 abs"
    awk_true 'a >= 1 && a <= 2' "$(get threads)" 0 || fail "f64: threads '$(get threads)'"
    if [ "$(get openmp)" = false ]; then
        grep -q 'note: built without OpenMP' "$tmp/err" && pass "--threads without OpenMP: note" ||
            fail "--threads 2 without OpenMP printed no note"
    fi
    check_rec "f64 abs" "$tmp/d.f64" "$tmp/d.rec" f64 1e-9
fi

# --format: the stream format version written (doc/format.md); every version keeps the bound, and
# no version-2 or version-3 stream is larger than the version-1 stream of the same field
for v in 1 2 3; do
    probe "$tmp/f.f32" --type f32 --abs 1e-3 --json --repeat 1 --format $v --decompressed "$tmp/v.rec"
    if expect_ok "format $v"; then
        [ "$(get format)" = $v ] && pass "format $v: stream version $v" || fail "format $v: stream version '$(get format)'"
        eval "size_v$v=$(get compressed_bytes)"
        check_rec "format $v" "$tmp/f.f32" "$tmp/v.rec" f32 1e-3
    fi
done
awk_true 'a <= b' "${size_v3:-}" "${size_v2:-}" && awk_true 'a <= b' "${size_v2:-}" "${size_v1:-}" &&
    pass "format sizes v3 $size_v3 <= v2 $size_v2 <= v1 $size_v1" ||
    fail "format sizes: v1 '${size_v1:-}' v2 '${size_v2:-}' v3 '${size_v3:-}'"

# the human-readable report
probe "$tmp/f.f32" --type f32 --abs 1e-3 --repeat 1
if [ "$rc" -eq 0 ] && grep -q 'ratio' "$tmp/out" && grep -q 'eb_abs 0.001' "$tmp/out" &&
    grep -q '0 violations' "$tmp/out" && ! grep -q '{' "$tmp/out"; then
    pass "text report"
else
    fail "text report (status $rc): $(cat "$tmp/out" "$tmp/err")"
fi

probe --help
[ "$rc" -eq 0 ] && grep -q 'pop.nc:t' "$tmp/out" && grep -q -- '--decompressed' "$tmp/out" &&
    pass "--help" || fail "--help (status $rc)"
probe --version
[ "$rc" -eq 0 ] && grep -q '^eccl-probe ' "$tmp/out" && pass "--version" ||
    fail "--version (status $rc)"

# ---------------------------------------------------------------------------------------------
# bad invocations: status 2, one message naming the problem, nothing on stdout
head -c 6 "$tmp/f.f32" >"$tmp/odd.f32"
expect_usage() {
    what=$1
    shift
    probe "$@"
    if [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ] &&
        grep -q "^eccl-probe: .*$what" "$tmp/err"; then
        pass "usage error: $(cat "$tmp/err")"
    else
        fail "eccl-probe $*: expected status 2 and a message with '$what', got status $rc:" \
            "$(cat "$tmp/err")"
    fi
}
F=$tmp/f.f32
expect_usage 'No such file' "$tmp/missing.f32" --type f32 --abs 1e-3
expect_usage "unknown type" "$F" --type f16 --abs 1e-3
expect_usage "no error bound" "$F" --type f32
expect_usage "expected an integer from 1 to 3" "$F" --type f32 --abs 1e-3 --format 4
expect_usage "only one of" "$F" --type f32 --abs 1e-3 --rel 1e-3
expect_usage "> 0" "$F" --type f32 --abs 0
expect_usage "> 0" "$F" --type f32 --abs -1
expect_usage "> 0" "$F" --type f32 --rel nan
expect_usage "not a number" "$F" --type f32 --abs abc
expect_usage "no input FILE" --abs 1e-3
expect_usage "needs --type" "$F" --abs 1e-3
expect_usage "does not match" "$F" --type f32 --abs 1e-3 --dims 7x7
expect_usage "whole number" "$tmp/odd.f32" --type f32 --abs 1e-3
expect_usage "threads" "$F" --type f32 --abs 1e-3 --threads 0
expect_usage "unknown option" "$F" --type f32 --abs 1e-3 --frobnicate

# ---------------------------------------------------------------------------------------------
# netCDF edge cases (needs ncgen): scalar variables (zero dimensions: one value, shape [] and
# "scalar" in the report), a record variable with no records (zero-length dimension), a scalar
# that is its own fill value (no fill-free range), a file named without :VAR, and a file with no
# variables at all.
nc_edge_cases() {
    cat >"$tmp/edge.cdl" <<'EOF'
netcdf edge {
dimensions:
    x = 3 ;
    t = UNLIMITED ;
variables:
    double sd ;
    float sf ;
    double a(x) ;
    float e(t) ;
    double sfill ;
        sfill:_FillValue = -999. ;
data:
    sd = 2.5 ;
    sf = -1.25 ;
    a = 1, 2, 3 ;
}
EOF
    printf 'netcdf novars {\ndimensions:\n    x = 2 ;\n}\n' >"$tmp/novars.cdl"
    if ! ncgen -o "$tmp/edge.nc" "$tmp/edge.cdl" || ! ncgen -o "$tmp/novars.nc" "$tmp/novars.cdl"
    then
        fail "ncgen could not build the edge-case test files"
        return
    fi
    N=$tmp/edge.nc

    # scalar double: the value itself (lossless dump), then --abs, checked by cmp_raw
    probe "$N:sd" --lossless --json --repeat 1 --decompressed "$tmp/sd.f64"
    if expect_ok "scalar double lossless"; then
        [ "$(size_of "$tmp/sd.f64")" = 8 ] || fail "scalar double: --decompressed is not 8 bytes"
    fi
    probe "$N:sd" --abs 0.1 --json --repeat 1 --decompressed "$tmp/sd.rec"
    if expect_ok "scalar double --json"; then
        check_bound "scalar double"
        [ "$(get count)" = 1 ] && [ "$(get type)" = '"f64"' ] &&
            [ "$(get netcdf_type)" = '"double"' ] && [ "$(get variable)" = '"sd"' ] &&
            [ "$(get input_bytes)" = 8 ] && [ "$(get data_min)" = 2.5 ] &&
            [ "$(get data_max)" = 2.5 ] && [ "$(get blocks)" = 1 ] &&
            grep -q '^  "dims": \[\],$' "$tmp/out" &&
            pass "scalar double: count 1, dims [], range [2.5, 2.5]" ||
            fail "scalar double --json: $(tr -d '\n' <"$tmp/out")"
        check_rec "scalar double" "$tmp/sd.f64" "$tmp/sd.rec" f64 0.1
    fi
    probe "$N:sd" --abs 0.1 --repeat 1
    if [ "$rc" -eq 0 ] && grep -q '^  input        1 value of f64 (scalar, netCDF double), 8 bytes$' \
        "$tmp/out" && ! grep -q '(,' "$tmp/out"; then
        pass "scalar double: text report says 'scalar'"
    else
        fail "scalar double text report (status $rc): $(cat "$tmp/out" "$tmp/err")"
    fi

    # scalar float
    probe "$N:sf" --abs 0.01 --json --repeat 1
    if expect_ok "scalar float --json"; then
        check_bound "scalar float"
        [ "$(get count)" = 1 ] && [ "$(get type)" = '"f32"' ] &&
            [ "$(get netcdf_type)" = '"float"' ] && [ "$(get input_bytes)" = 4 ] &&
            [ "$(get data_min)" = -1.25 ] && [ "$(get data_max)" = -1.25 ] &&
            grep -q '^  "dims": \[\],$' "$tmp/out" &&
            pass "scalar float: count 1, dims [], range [-1.25, -1.25]" ||
            fail "scalar float --json: $(tr -d '\n' <"$tmp/out")"
    fi
    probe "$N:sf" --lossless --repeat 1
    [ "$rc" -eq 0 ] && grep -q '1 value of f32 (scalar, netCDF float), 4 bytes$' "$tmp/out" &&
        pass "scalar float: text report says 'scalar'" ||
        fail "scalar float text report (status $rc): $(cat "$tmp/out" "$tmp/err")"

    # --dims 1 gives a scalar the shape [1]
    probe "$N:sd" --lossless --dims 1 --json --repeat 1
    if expect_ok "scalar --dims 1"; then
        grep -q '^  "dims": \[1\],$' "$tmp/out" && pass "scalar --dims 1: dims [1]" ||
            fail "scalar --dims 1: $(tr -d '\n' <"$tmp/out")"
    fi

    # the array variable beside the scalars is unaffected
    probe "$N:a" --lossless --json --repeat 1
    if expect_ok "edge.nc:a"; then
        grep -q '^  "dims": \[3\],$' "$tmp/out" && [ "$(get count)" = 3 ] &&
            pass "array beside scalars: dims [3]" || fail "edge.nc:a: $(tr -d '\n' <"$tmp/out")"
    fi

    # a scalar equal to its _FillValue: every value is a fill, so there is no fill-free range
    probe "$N:sfill" --rel 1e-3 --json --repeat 1
    if expect_ok "scalar fill --json"; then
        [ "$(get fill_count)" = 1 ] && [ "$(get fill_free_min)" = null ] &&
            [ "$(get fill_free_max)" = null ] &&
            pass "all-fill scalar: fill_free_min/max null" ||
            fail "all-fill scalar --json: $(tr -d '\n' <"$tmp/out")"
    fi
    probe "$N:sfill" --rel 1e-3 --repeat 1
    [ "$rc" -eq 0 ] && grep -q '1 value (100.0%)' "$tmp/out" &&
        ! grep -q 'without them it is' "$tmp/out" &&
        pass "all-fill scalar: no fill-free range note" ||
        fail "all-fill scalar text report (status $rc): $(cat "$tmp/out" "$tmp/err")"

    # a record variable with no records: a usage error naming the empty dimension
    expect_usage "zero-length dimension 't'" "$N:e" --abs 1
    # no :VAR: the probe does not pick a variable, it says which there are (with or without --type)
    expect_usage "is a netCDF file: name a variable, as .*:VAR (variables: sd, sf, a, e, sfill)" \
        "$N" --abs 1
    expect_usage "is a netCDF file: name a variable" "$N" --type f64 --abs 1
    expect_usage "no variable 'v' (the file has no variables)" "$tmp/novars.nc:v" --abs 1
}

# ---------------------------------------------------------------------------------------------
# netCDF
probe --version
if grep -q 'netCDF input: yes' "$tmp/out"; then
    if [ -r "$NCARG/pop.nc" ]; then
        probe "$NCARG/pop.nc:t" --rel 1e-4 --json --repeat 1
        if expect_ok "pop.nc:t"; then
            check_bound "pop.nc:t"
            [ "$(get count)" = 122880 ] && [ "$(get variable)" = '"t"' ] &&
                [ "$(get type)" = '"f32"' ] && awk_true 'a > 0' "$(get fill_count)" 0 &&
                pass "pop.nc:t: 122880 values, $(get fill_count) fill values" ||
                fail "pop.nc:t: count/variable/type/fill_count: $(tr -d '\n' <"$tmp/out")"
        fi
        expect_usage "no variable 'nosuchvar'" "$NCARG/pop.nc:nosuchvar" --abs 1
    else
        echo "SKIP: $NCARG/pop.nc not found (Debian package libncarg-data)"
    fi
    if command -v ncgen >/dev/null 2>&1; then
        cat >"$tmp/small.cdl" <<'EOF'
netcdf small {
dimensions:
    y = 2 ;
    x = 3 ;
variables:
    int v(y, x) ;
        v:_FillValue = -1 ;
    double w(x) ;
data:
    v = 1, -1, 3, -1, 5, 6 ;
    w = 0.5, 1.5, 2.5 ;
}
EOF
        if ncgen -o "$tmp/small.nc" "$tmp/small.cdl"; then
            probe "$tmp/small.nc:v" --lossless --json --repeat 1
            if expect_ok "small.nc:v"; then
                [ "$(get type)" = '"f64"' ] && [ "$(get netcdf_type)" = '"int"' ] &&
                    [ "$(get fill_count)" = 2 ] && [ "$(get fill_changed)" = 0 ] &&
                    grep -q '"dims": \[2, 3\]' "$tmp/out" &&
                    pass "int variable read as f64, 2 fill values" ||
                    fail "small.nc:v: $(tr -d '\n' <"$tmp/out")"
            fi
            probe "$tmp/small.nc:w" --type f32 --abs 0.1 --json --repeat 1
            if expect_ok "small.nc:w --type f32"; then
                [ "$(get type)" = '"f32"' ] && pass "--type overrides the netCDF type" ||
                    fail "small.nc:w --type f32: type $(get type)"
            fi
        else
            fail "ncgen could not build the test file"
        fi
        nc_edge_cases
    else
        echo "SKIP: ncgen not found, no netCDF type/fill-value/scalar checks"
    fi
else
    expect_usage "without netCDF" "$NCARG/pop.nc:t" --rel 1e-4
    echo "SKIP: eccl built without netCDF support, no netCDF checks"
fi

if [ $failures -ne 0 ]; then
    echo "test_probe.sh: $failures failures"
    exit 1
fi
echo "test_probe.sh: all checks passed"
exit 0
