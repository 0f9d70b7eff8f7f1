#!/usr/bin/env bash
# test_interpose.sh - libeccl_blacs (doc/blacs-interposer.md) against binaries nobody here wrote:
# Debian's prebuilt ScaLAPACK testers (package scalapack-mpi-test), unmodified, run on 4 ranks
# with and without LD_PRELOAD, plus examples/pdgemm_plain (a ScaLAPACK program with no eccl in
# it) and its link-order twin examples/pdgemm_linked.
#
#   a. ECCL_BLACS=lossless (broadcasts and sums through eccl): the BLACS tester (C and Fortran
#      interfaces; s, d, c, z broadcasts and sums) and the level-3 PBLAS tester report exactly
#      what they report without the preload, and eccl carried calls (the report lines say so).
#   b. ECCL_BLACS=abs:1e-6: the PBLAS, LU and Cholesky testers run to completion; their residual
#      reports are kept in this test's log next to the lossless ones (their accuracy checks ask
#      for a few ulps, so they are expected to flag results: doc/blacs-interposer.md).
#   c. pdgemm_plain with ECCL_BLACS=abs:1e-6: every element of C within the a-priori bound,
#      bytes saved reported; the same through link order (pdgemm_linked); ECCL_BLACS=off and no
#      preload give the same answer.
#   d. a binary that never calls BLACS is unaffected; an invalid setting stops the program with a
#      message naming it.
# Environment (from make check): MPIEXEC, top_builddir, top_srcdir.  Skips (77) without the
# testers or the library.  Set ECCL_INTERPOSE_KEEP=DIR to keep the run directory.
set -uo pipefail

: "${top_builddir:=.}" "${top_srcdir:=.}"
top_builddir=$(cd "$top_builddir" && pwd)
top_srcdir=$(cd "$top_srcdir" && pwd)
MPIEXEC=${MPIEXEC:-}
skip() {
    echo "SKIP: $*"
    exit 77
}
[[ -n $MPIEXEC ]] || skip "no MPI launcher (configure found no mpiexec)"
case $(basename "$MPIEXEC") in
    *openmpi*) flavour=openmpi ;;
    *) flavour=mpich ;;
esac
TESTERS=${ECCL_SCALAPACK_TESTERS:-/usr/lib/x86_64-linux-gnu/scalapack/$flavour-tests}
[[ -x $TESTERS/xCbtest ]] ||
    skip "ScaLAPACK's testers not found in $TESTERS (Debian: apt-get install scalapack-mpi-test)"
LIB=$top_builddir/.libs/libeccl_blacs.so
[[ -f $LIB ]] || skip "$LIB not built (configure found no ScaLAPACK)"
PLAIN=$top_builddir/examples/pdgemm_plain
LINKED=$top_builddir/examples/pdgemm_linked
[[ -x $PLAIN && -x $LINKED ]] || skip "examples/pdgemm_plain or pdgemm_linked not built (no Fortran?)"

RUN=$(mktemp -d "${TMPDIR:-/tmp}/eccl-interpose.XXXXXX")
if [[ -z ${ECCL_INTERPOSE_KEEP:-} ]]; then
    trap 'rm -rf "$RUN"' EXIT
else
    echo "run directory kept: $RUN"
fi
cp "$top_srcdir"/tests/blacs_tester/*.dat "$RUN"/
cd "$RUN" || exit 99
# Open MPI as root needs these; MPICH ignores them.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
ok() { echo "ok:   $*"; }

# run NAME [VAR=value ...] -- PROGRAM [ARGS]: 4 ranks, standard output in NAME.out, standard error
# (where libeccl_blacs's report and messages go) in NAME.err, status in $rc.  Kept apart, so that
# a report line printed by one rank never lands inside another rank's table.
run() {
    local name=$1
    shift
    local -a envs=()
    while [[ $1 != -- ]]; do
        envs+=("$1")
        shift
    done
    shift
    rc=0
    env "${envs[@]+"${envs[@]}"}" timeout 600 "$MPIEXEC" -n 4 "$@" >"$name.out" 2>"$name.err" || rc=$?
}
PRE=(LD_PRELOAD="$LIB" ECCL_BLACS_REPORT=1)
LOSSLESS=("${PRE[@]}" ECCL_BLACS=lossless ECCL_BLACS_OPS=all ECCL_BLACS_MIN_BYTES=0)

# Lines "... through eccl (...)" of the report: the number of calls eccl carried.
eccl_calls() { sed -n 's/.* intercepted, \([0-9]*\) through eccl.*/\1/p' "${1%.out}.err" | awk '{s += $1} END {print s + 0}'; }
# both NAME: the two outputs of a run, for a failure's log
both() { cat "$1.out" "$1.err"; }

echo "== a. lossless: the BLACS testers (C and Fortran interfaces) and the level-3 PBLAS tester"
for t in xCbtest xFbtest; do
    run "$t.plain" -- "$TESTERS/$t"
    run "$t.eccl" "${LOSSLESS[@]}" -- "$TESTERS/$t"
    grep 'TESTS:' "$t.plain.out" >"$t.plain.sum"
    grep 'TESTS:' "$t.eccl.out" >"$t.eccl.sum"
    n=$(eccl_calls "$t.eccl.out")
    if ! grep -q 'TESTS:.*0 FAILED' "$t.plain.sum"; then
        fail "$t without the preload did not report its tests (status $rc); output:"
        tail -n 20 "$t.plain.out"
    elif ! diff "$t.plain.sum" "$t.eccl.sum"; then
        fail "$t: results differ under the preload (lossless); output tail:"
        both "$t.eccl" | tail -n 30
    elif ((n == 0)); then
        fail "$t: the report shows no call carried by eccl"
        both "$t.eccl" | tail -n 20
    else
        ok "$t: $(grep -c 'TESTS:.*TESTS;' "$t.eccl.sum") test groups as without the preload," \
            "$n calls carried by eccl"
    fi
    cat "$t.eccl.sum"
done

pblas_table() { sed -n '/SUBROUTINE  TOTAL TESTS/,/End of Tests/p' "$1"; }
run pblas.plain -- "$TESTERS/PBLAS/dpb3tst"
run pblas.eccl "${LOSSLESS[@]}" -- "$TESTERS/PBLAS/dpb3tst"
pblas_table pblas.plain.out >pblas.plain.sum
pblas_table pblas.eccl.out >pblas.eccl.sum
if [[ ! -s pblas.plain.sum ]] || grep -qE '\| +[A-Z0-9]+ +[0-9]+ +[0-9]+ +[1-9]' pblas.plain.sum; then
    fail "dpb3tst without the preload did not pass (status $rc)"
    tail -n 20 pblas.plain.out
elif ! diff pblas.plain.sum pblas.eccl.sum; then
    fail "dpb3tst: results differ under the preload (lossless)"
elif (($(eccl_calls pblas.eccl.out) == 0)); then
    fail "dpb3tst: the report shows no call carried by eccl"
else
    ok "dpb3tst (PDGEMM ... PDTRADD): the same table as without the preload," \
        "$(eccl_calls pblas.eccl.out) calls carried by eccl"
fi
cat pblas.eccl.sum

echo
echo "== b. abs:1e-6 (compressed): the PBLAS, LU and Cholesky testers run to completion"
LOSSY=("${PRE[@]}" ECCL_BLACS=abs:1e-6 ECCL_BLACS_OPS=all ECCL_BLACS_MIN_BYTES=0 ECCL_COMPRESS=always)
for t in PBLAS/dpb3tst xdlu xdllt; do
    name=$(basename "$t")
    [[ $name == dpb3tst ]] || run "$name.plain" -- "$TESTERS/$t"
    run "$name.lossy" "${LOSSY[@]}" -- "$TESTERS/$t"
    if ((rc != 0)) || ! grep -qiE 'End of Tests' "$name.lossy.out"; then
        fail "$t with abs:1e-6 did not run to completion (status $rc)"
        both "$name.lossy" | tail -n 20
        continue
    fi
    ok "$t with abs:1e-6 ran to completion; residuals (lossless, then abs:1e-6):"
    if [[ $name == dpb3tst ]]; then
        cat pblas.eccl.sum
        pblas_table "$name.lossy.out"
    else
        grep -E '^(WALL|\|\|)|tests completed' "$name.plain.out"
        grep -E '^(WALL|\|\|)|tests completed' "$name.lossy.out"
    fi
    grep '^eccl_blacs:' "$name.lossy.err"
done

echo
echo "== c. pdgemm_plain (an unmodified ScaLAPACK program): the a-priori bound, by preload and by link"
check_pdgemm() { # NAME WHAT: exit 0, 0 elements outside, compressed calls and bytes saved
    local name=$1 what=$2 saved
    saved=$(sed -n 's/.*(\([0-9.]*\)% saved).*/\1/p' "$name.err" | head -n 1)
    if ((rc != 0)) || ! grep -q ' 0 of .* elements outside the bound' "$name.out"; then
        fail "$what: status $rc"
        both "$name"
    elif ! grep -qE '\([1-9][0-9]* compressed\)' "$name.err" || [[ -z $saved ]]; then
        fail "$what: no compressed call in the report"
        both "$name"
    else
        ok "$what: every element within the bound, $saved% of eccl's bytes saved"
        grep -E 'largest error' "$name.out"
        grep -E '^eccl_blacs' "$name.err"
    fi
}
LOSSY_GEMM=(ECCL_BLACS=abs:1e-6 ECCL_COMPRESS=always ECCL_BLACS_REPORT=1)
run gemm.preload LD_PRELOAD="$LIB" "${LOSSY_GEMM[@]}" -- "$PLAIN" 512 64 1e-6
check_pdgemm gemm.preload "LD_PRELOAD, abs:1e-6"
run gemm.linked "${LOSSY_GEMM[@]}" -- "$LINKED" 512 64 1e-6
check_pdgemm gemm.linked "-leccl_blacs before ScaLAPACK, abs:1e-6"
# the C entry points (s, d, c, z broadcasts and sums, lda > m), elementwise; the program ends
# with MPI_Finalize only, so the report comes from the MPI_Finalize hook
CPROG=$top_builddir/tests/interpose_c
run cprog.plain -- "$CPROG" 0
run cprog.eccl LD_PRELOAD="$LIB" ECCL_BLACS=abs:1e-4 ECCL_BLACS_OPS=all ECCL_BLACS_MIN_BYTES=0 \
    ECCL_COMPRESS=always ECCL_BLACS_REPORT=1 -- "$CPROG" 1e-4
if ! grep -q ' 0 elements outside' cprog.plain.out; then
    fail "tests/interpose_c without the preload"
    both cprog.plain
elif ((rc != 0)) || ! grep -q ' 0 elements outside' cprog.eccl.out; then
    fail "tests/interpose_c (C entry points, abs:1e-4): status $rc"
    both cprog.eccl
elif ! grep -qE '^eccl_blacs: grid 1x4 .*\([1-9][0-9]* compressed\)' cprog.eccl.err; then
    fail "tests/interpose_c: no report line at MPI_Finalize, or nothing compressed"
    both cprog.eccl
else
    ok "C entry points s d c z, broadcasts and sums, abs:1e-4: every element within the bound;" \
        "report at MPI_Finalize:"
    grep -E 'outside' cprog.eccl.out
    grep -E '^eccl_blacs' cprog.eccl.err
fi

run gemm.none -- "$PLAIN" 256 32 0
cp gemm.none.out gemm.none.keep
run gemm.off LD_PRELOAD="$LIB" ECCL_BLACS=off ECCL_BLACS_REPORT=1 -- "$PLAIN" 256 32 0
if ((rc != 0)) || ! diff <(grep 'largest error' gemm.none.keep) <(grep 'largest error' gemm.off.out) ||
    grep -q '^eccl_blacs' gemm.off.err; then
    fail "ECCL_BLACS=off under the preload changed the result or reported calls"
    cat gemm.none.keep; both gemm.off
else
    ok "ECCL_BLACS=off under the preload: the same C as without it ($(grep 'largest error' gemm.off.out))"
fi

echo
echo "== d. a binary without BLACS is unaffected; invalid settings stop the program"
out=$(env LD_PRELOAD="$LIB" ECCL_BLACS=not-a-mode /bin/echo untouched 2>&1)
if [[ $out == untouched ]]; then ok "/bin/echo under the preload (with an invalid setting, never read)"; else fail "/bin/echo under the preload printed: $out"; fi
run demo LD_PRELOAD="$LIB" ECCL_BLACS=abs:1e-3 ECCL_BLACS_REPORT=1 -- "$top_builddir/examples/demo"
if ((rc != 0)) || grep -q '^eccl_blacs' demo.err; then
    fail "examples/demo (MPI + eccl, no BLACS) under the preload: status $rc"
    both demo | tail -n 20
else
    ok "examples/demo (MPI and eccl, no BLACS) under the preload: status 0, no report"
fi
for bad in "ECCL_BLACS=abs:-1" "ECCL_BLACS=rel:" "ECCL_BLACS=lossy" "ECCL_BLACS_OPS=bcast,amx" \
    "ECCL_BLACS_MIN_BYTES=-5" "ECCL_BLACS_CONTEXTS=0,x" "ECCL_BLACS_REPORT=maybe"; do
    var=${bad%%=*}
    extra=()
    [[ $var == ECCL_BLACS ]] || extra=(ECCL_BLACS=abs:1e-6)
    run bad LD_PRELOAD="$LIB" "${extra[@]}" "$bad" -- "$PLAIN" 64 16 1e-6
    if ((rc == 0)) || ! grep -q "eccl_blacs: rank [0-9]*: invalid setting: $var=" bad.err; then
        fail "$bad: status $rc, no message naming $var"
        both bad
    else
        ok "$bad stops the program: $(grep -m1 'invalid setting' bad.err)"
    fi
done

echo
if ((FAILS > 0)); then
    echo "test_interpose: $FAILS check(s) failed"
    exit 1
fi
echo "test_interpose: all checks passed"
