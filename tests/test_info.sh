#!/bin/sh
# test_info.sh - eccl-info, and the one list of environment variables.
#   - --help, --version and the default report exit 0 when run straight from a shell (no MPI
#     launcher); bad invocations exit 2;
#   - --algorithms lists exactly the (collective, algorithm) pairs of src/coll/algorithms.def;
#   - --json is one valid JSON object whose algorithms and variables match the same lists;
#   - every ECCL_* variable the code reads (ECCL_ENV(...) declarations, eccl_env_t arrays,
#     getenv("ECCL_...")) in src/ and cuda/ is in the eccl_env_docs table (as eccl-info --env
#     prints it) and in doc/env.md; the table names no variable the code no longer reads;
#   - --model, under $MPIEXEC on 2 ranks (and as an MPICH singleton): predictions for every
#     size and ratio, auto's choice one of the table's algorithms, the configuration following
#     ECCL_COMPRESS and ECCL_MIN_BYTES.
#
# Environment (tests/Makefile.mk sets it): top_builddir, top_srcdir, MPIEXEC.
# Exit: 0 pass, 1 fail, 77 when eccl-info is not built.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
INFO=$top_builddir/eccl-info

if [ ! -x "$INFO" ]; then
    echo "SKIP: $INFO is not built (run through make check)"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eccl-info-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# info ARGS...: runs eccl-info, stdout in $tmp/out, stderr in $tmp/err, status in $rc.
info() {
    "$INFO" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
to=
command -v timeout >/dev/null 2>&1 && to="timeout 300"

# ---- invocations ----
info --help
if [ $rc -eq 0 ] && grep -q '^usage: eccl-info' "$tmp/out"; then pass "--help"; else fail "--help: status $rc"; fi

version=$(sed -n 's/^AC_INIT(\[eccl\], *\[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
info --version
if [ $rc -eq 0 ] && grep -q "^eccl-info (eccl) $version (format " "$tmp/out"; then
    pass "--version ($version)"
else
    fail "--version: status $rc, '$(cat "$tmp/out")', configure.ac says $version"
fi

info
if [ $rc -eq 0 ] && grep -q '^Build' "$tmp/out" && grep -q '^Algorithms' "$tmp/out" &&
    grep -q '^Environment' "$tmp/out" && grep -q 'CPU fast path (AVX2)' "$tmp/out" &&
    grep -q 'CUDA devices' "$tmp/out"; then
    pass "default report, run without a launcher"
else
    fail "default report: status $rc; $(head -3 "$tmp/err")"
fi

for bad in "--bogus" "extra-argument" "--ranks 4" "--model --ranks 0" "--model --ranks x"; do
    # shellcheck disable=SC2086
    info $bad
    if [ $rc -eq 2 ] && [ -s "$tmp/err" ]; then pass "'$bad' is refused"; else fail "'$bad': status $rc (want 2)"; fi
done

# ---- algorithms: the table of src/coll/algorithms.def, both ways ----
sed -n 's/.*ALGO(ECCL_COLL_[A-Z_]*, *\([a-z_]*\), *\([a-z0-9_]*\),.*/\1 \2/p' \
    "$top_srcdir/src/coll/algorithms.def" | sort >"$tmp/algos_src"
nalgos=$(wc -l <"$tmp/algos_src" | tr -d ' ')
if [ "$nalgos" -lt 10 ]; then
    fail "found only $nalgos algorithms in src/coll/algorithms.def (did the ALGO(...) layout change?)"
fi
info --algorithms
awk '/^[a-z_]+ \(ECCL_[A-Z_]+_ALGORITHM\)$/ { coll = $1; next }
     /^  [a-z]/ && coll != "" { print coll, $1 }' "$tmp/out" | sort >"$tmp/algos_info"
if [ $rc -eq 0 ] && cmp -s "$tmp/algos_src" "$tmp/algos_info"; then
    pass "--algorithms lists the $nalgos algorithms of the table"
else
    fail "--algorithms (status $rc) differs from src/coll/algorithms.def:"
    diff "$tmp/algos_src" "$tmp/algos_info"
fi
# each collective's line names the variable that forces it
for coll in $(cut -d' ' -f1 "$tmp/algos_src" | sort -u); do
    var=ECCL_$(echo "$coll" | tr 'a-z' 'A-Z')_ALGORITHM
    grep -q "^$coll ($var)\$" "$tmp/out" || fail "--algorithms: no header '$coll ($var)'"
done

# ---- environment variables: code, table, doc/env.md ----
# Names declared in the code: ECCL_ENV(var, "NAME", def), the string literals of an eccl_env_t
# initializer (up to its ';'), and getenv("ECCL_...").
for f in $(find "$top_srcdir/src" "$top_srcdir/cuda" -type f \
    \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) ! -name env_doc.c | sort); do
    awk '
        function names(s) {
            while (match(s, /"ECCL_[A-Z0-9_]+"/)) {
                print substr(s, RSTART + 1, RLENGTH - 2)
                s = substr(s, RSTART + RLENGTH)
            }
        }
        /^[ \t]*#/ { next }
        /ECCL_ENV\(/ || /eccl_env_t[^;()]*=/ { on = 1 }
        on { names($0); if ($0 ~ /;/) on = 0; next }
        /getenv\("ECCL_/ { names($0) }
    ' "$f"
done | sort -u >"$tmp/env_code"
info --env
grep -o '^ECCL_[A-Z0-9_]*' "$tmp/out" | sort >"$tmp/env_table"
sort -u "$tmp/env_table" >"$tmp/env_table_u"
if [ "$(wc -l <"$tmp/env_code" | tr -d ' ')" -lt 3 ]; then
    fail "the scan of src/ found almost no ECCL_* variable (did the way they are declared change?)"
fi
if [ $rc -ne 0 ] || ! cmp -s "$tmp/env_table" "$tmp/env_table_u"; then
    fail "--env: status $rc, or a variable is listed twice"
fi
missing=$(comm -23 "$tmp/env_code" "$tmp/env_table_u")
stale=$(comm -13 "$tmp/env_code" "$tmp/env_table_u")
if [ -n "$missing" ]; then
    fail "read by the code but missing from eccl_env_docs (src/core/env_doc.c):" $missing
else
    pass "every variable of the code ($(wc -l <"$tmp/env_code" | tr -d ' ')) is in eccl_env_docs"
fi
if [ -n "$stale" ]; then
    fail "in eccl_env_docs (src/core/env_doc.c) but no longer read by the code:" $stale
else
    pass "eccl_env_docs lists no variable the code does not read"
fi
undocumented=
for v in $(cat "$tmp/env_table_u"); do
    grep -q "\`$v\`" "$top_srcdir/doc/env.md" || undocumented="$undocumented $v"
done
if [ -n "$undocumented" ]; then fail "not in doc/env.md (as \`NAME\`):$undocumented"; else pass "doc/env.md documents every variable"; fi

ECCL_MIN_BYTES=12345 "$INFO" --env >"$tmp/out" 2>&1
grep -q '^ECCL_MIN_BYTES=12345$' "$tmp/out" && pass "--env shows current values" || fail "--env: ECCL_MIN_BYTES=12345 not shown"

# ---- JSON ----
if [ $have_python = no ]; then
    echo "note: python3 not found, JSON checks skipped"
else
    # json_check FILE [model]: valid, one object, no NaN/Infinity literals, and consistent with
    # the algorithm and variable lists above.
    json_check() {
        python3 - "$1" "$tmp/algos_src" "$tmp/env_table_u" "$2" <<'EOF'
import json, sys
def bad(c):
    raise ValueError("non-JSON number " + c)
d = json.load(open(sys.argv[1]), parse_constant=bad)
assert isinstance(d, dict), "not an object"
src = sorted(tuple(l.split()) for l in open(sys.argv[2]) if l.strip())
got = sorted((c, a["name"]) for c, v in d["algorithms"].items() for a in v["algorithms"])
assert got == src, "algorithms differ from the table: %s" % sorted(set(got) ^ set(src))
for v in d["algorithms"].values():
    for a in v["algorithms"]:
        assert isinstance(a["compressed"], bool) and a["summary"], a
        assert a["device_buffers"] in ("resident", "staged", "nccl", "node_ipc"), a
        assert (a["device_buffers"] == "node_ipc") == (a["name"] == "hierarchical"), a
env = [e["name"] for e in d["environment"]]
assert sorted(env) == sorted(l.strip() for l in open(sys.argv[3]) if l.strip()), "variables differ"
for e in d["environment"]:
    assert e["values"] and e["default"] and e["meaning"], e
for k in ("version", "format_version", "build", "machine"):
    assert k in d, "no " + k
assert d["machine"]["cuda"]["status"] in ("ok", "not built", "error")
if sys.argv[4] == "model":
    m = d["model"]
    assert m["alpha"] > 0 and m["beta"] > 0 and m["compress_bytes_per_s"] > 0, m
    names = {c: {a["name"] for a in v["algorithms"]} for c, v in d["algorithms"].items()}
    p = m["predictions"]
    assert len(p) == 2 * 6 * 3, len(p)
    for x in p:
        assert x["auto"] in names[x["collective"]], x
        assert set(x["seconds"]) == names[x["collective"]], x
print("json ok")
EOF
    }
    info --json
    if [ $rc -eq 0 ] && json_check "$tmp/out" "" >"$tmp/jc" 2>&1; then
        pass "--json is one valid object matching the table and the variables"
    else
        fail "--json: status $rc: $(tail -3 "$tmp/jc")"
    fi
    ECCL_DEBUG="$(printf 'a"b\\c\001\377')" "$INFO" --json --env >"$tmp/out" 2>"$tmp/err"
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null &&
        pass "--json escapes odd environment values" || fail "--json with an odd ECCL_DEBUG value is not valid JSON"
fi

# ---- --model ----
flavor=$("$INFO" --version --json 2>/dev/null | sed -n 's/^ *"mpi_flavor": "\([a-z]*\)".*/\1/p')
model_check() { # $1: label; runs the command in the rest of the arguments
    label=$1
    shift
    # shellcheck disable=SC2086
    $to "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$label: status $rc: $(tail -3 "$tmp/err")"
        return
    fi
    if [ $have_python = yes ]; then
        if json_check "$tmp/out" model >"$tmp/jc" 2>&1; then pass "$label"; else fail "$label: $(tail -3 "$tmp/jc")"; fi
    else
        grep -q '"predictions"' "$tmp/out" && pass "$label" || fail "$label: no predictions"
    fi
}
if [ -n "$MPIEXEC" ]; then
    model_check "--model --json on 2 ranks" $MPIEXEC -n 2 "$INFO" --model --json
    ECCL_COMPRESS=always ECCL_MIN_BYTES=1e12 $to $MPIEXEC -n 2 "$INFO" --model --ranks 4 >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 0 ] && grep -q 'compress always, fallback mpi, min_bytes 1000000000000' "$tmp/out" &&
        grep -q '^allreduce on 4 ranks' "$tmp/out" && ! grep -E -q 'iB .* mpi \(' "$tmp/out" &&
        [ "$(grep -E -c 'iB .* \(cost model\)$' "$tmp/out")" -eq 36 ]; then
        pass "--model follows ECCL_COMPRESS=always (auto never picks mpi) and ECCL_MIN_BYTES"
    else
        fail "--model with ECCL_COMPRESS=always: $(grep -m3 -e configuration -e 'iB .* mpi (' "$tmp/out")"
    fi
    ECCL_MIN_BYTES=1e12 $to $MPIEXEC -n 2 "$INFO" --model >"$tmp/out" 2>"$tmp/err"
    n=$(grep -c ' mpi (below min_bytes)$' "$tmp/out")
    [ "$n" -eq 36 ] && pass "--model: below ECCL_MIN_BYTES auto keeps mpi" || fail "--model with ECCL_MIN_BYTES=1e12: $n of 36 rows below min_bytes"
else
    echo "note: no MPI launcher, --model under mpiexec not tested"
fi
if [ "$flavor" = mpich ]; then
    model_check "--model --json as a singleton (MPICH)" "$INFO" --model --json --ranks 16
fi

if [ $failures -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all eccl-info checks passed"
exit 0
