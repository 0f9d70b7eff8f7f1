#!/usr/bin/env bash
# quickstart.sh - build eccl from this source tree and run its demo or its test suite.
#
#   ./quickstart.sh demo               build in ./build, run examples/summa on 4 MPI ranks
#   ./quickstart.sh test [--distcheck] build, make check, sanitizer builds (ASan/UBSan: codec and
#                                      collectives; TSan: nonblocking engine), libFuzzer run (when
#                                      the fuzz target exists), totals
#
# Written for Debian 12: missing packages are installed with apt-get (as root, or through sudo).
# Everything else is the ordinary autotools sequence; README.md explains it for clusters.
set -Eeuo pipefail

usage() {
    cat <<'EOF'
usage: ./quickstart.sh demo [--summa | --pdgemm]
       ./quickstart.sh test [--distcheck]
       ./quickstart.sh --help

demo   installs the Debian packages eccl needs (when missing), builds eccl in ./build
       (CC=mpicc.mpich FC=mpifort.mpich) and runs
           mpiexec.mpich -n 4 ./build/examples/summa
       which multiplies two 1024 x 1024 float64 matrices on a 2 x 2 BLACS grid with SUMMA and
       eccl-compressed panel broadcasts, for a smooth kernel matrix and a random one, and
       prints the bytes saved, the largest error against PDGEMM next to its a-priori bound,
       and the times of PDGEMM and of SUMMA with plain and compressed panels.  Without
       ScaLAPACK or Fortran it runs examples/demo (a compressed broadcast) instead.
       Then, second part, an unmodified ScaLAPACK program (examples/pdgemm_plain: PDGEMM,
       no eccl in it) runs twice on 4 ranks: as it is, and with
           LD_PRELOAD=build/.libs/libeccl_blacs.so ECCL_BLACS=abs:1e-6
       (doc/blacs-interposer.md); each run checks every element of C against its bound, and
       the second prints the panel bytes eccl saved.
       --summa runs only the first part, --pdgemm only the second.

test   as demo for the packages and ./build (plus clang for the sanitizer and fuzzing), then
         1. make check in ./build (every test);
         2. an AddressSanitizer + UndefinedBehaviorSanitizer build in ./build-asan
            (--disable-fortran --without-cuda) running the codec tests (CODEC_TESTS)
            and the collectives on 3 ranks (coll_np3, corrupt_np3);
         2b. a ThreadSanitizer build in ./build-tsan (also --disable-openmp) running the
            nonblocking tests (nonblocking_np3, nonblocking_caller_np2, nonblocking_corrupt_np3);
         3. make fuzz in ./build for FUZZ_SECONDS seconds, when that target exists;
         4. with --distcheck: make distcheck in ./build (slow; not run by default);
         5. Open MPI: a build in ./build-openmpi (CC=mpicc.openmpi), the MPI tests of
            FLAVOUR_TESTS, make install into build-openmpi/_prefix and tests/consumer.sh
            (examples/consumer built with pkg-config and with CMake against that install).
       The last line is "N passed, M failed" over all automake test results of all builds
       (a fuzz run counts as one test); the exit status is nonzero when anything failed.

environment:
  FUZZ_SECONDS      libFuzzer run time (default 60)
  JOBS              parallel make jobs (default: nproc)
  OMP_NUM_THREADS   OpenMP threads per rank for the demo (default: cores / 4, at least 1)
  OPENBLAS_NUM_THREADS  BLAS threads per rank for the demo (default: the same)
EOF
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
DEMO_RANKS=4

PKGS_BUILD=(mpich libmpich-dev libscalapack-mpich-dev libopenblas-dev gfortran autoconf automake
    libtool autoconf-archive pkg-config libnetcdf-dev netcdf-bin libncarg-data make gcc libc6-dev)
# scalapack-mpi-test: ScaLAPACK's own prebuilt testers, run under libeccl_blacs (tests/test_interpose.sh)
PKGS_TEST=(clang libclang-rt-14-dev scalapack-mpi-test openmpi-bin libopenmpi-dev
    libscalapack-openmpi-dev cmake)

# The MPICH tools by their flavour-specific names: on Debian, libscalapack-mpich pulls in Open MPI,
# and plain mpicc/mpiexec may then be Open MPI's (doc: BLACS-INTEROP.md, trap 1).
MPICC=mpicc.mpich
MPIFC=mpifort.mpich
MPIEXEC=mpiexec.mpich

FAILED_STEPS=()

say() { printf '==> %s\n' "$*"; }
# One line that says what failed and what to look at.
explain() { printf 'quickstart: FAILED: %s\n' "$*" >&2; }
die() {
    explain "$@"
    exit 1
}
trap 'explain "unexpected error at quickstart.sh line $LINENO: $BASH_COMMAND"' ERR

# ---------------------------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------------------------
ensure_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian system (no dpkg-query): assuming the equivalents of these are installed:"
        say "  $*"
        return 0
    fi
    local p status missing=()
    for p in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ $status == "install ok installed" ]] || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        say "Debian packages: all ${#} present"
        return 0
    fi
    local cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    local -a sudo=()
    if ((EUID != 0)); then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            printf 'quickstart: missing Debian packages: %s\n' "${missing[*]}" >&2
            printf 'quickstart: not root and no sudo; as root, run:\n  %s\n' "$cmd" >&2
            exit 1
        fi
    fi
    say "installing missing Debian packages: ${missing[*]}"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update ||
        die "apt-get update (network or apt sources problem; command: $cmd)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing[@]}" || die "apt-get install ${missing[*]} (see apt's message above)"
}

check_tools() {
    local t
    for t in "$MPICC" "$MPIEXEC" autoreconf make; do
        command -v "$t" >/dev/null 2>&1 ||
            die "'$t' not found on PATH although its package is installed (check PATH)"
    done
}

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
ensure_configure_script() {
    local need=no f
    if [[ ! -x configure ]]; then
        need=yes
    else
        for f in configure.ac Makefile.am m4/eccl_*.m4; do
            [[ -e $f && $f -nt configure ]] && need=yes
        done
    fi
    if [[ $need == yes ]]; then
        say "generating the build system (./autogen.sh)"
        ./autogen.sh >autogen.log 2>&1 || {
            tail -n 30 autogen.log >&2
            die "./autogen.sh (autoconf/automake/libtool; full log: $ROOT/autogen.log)"
        }
        rm -f autogen.log
    fi
    if [[ -f config.status ]]; then
        die "the source tree itself is configured (config.status in $ROOT), which blocks the" \
            "out-of-tree builds: run 'make distclean' in $ROOT first"
    fi
}

# configure_dir DIR [configure args...]: configure a VPATH build in DIR unless it already is.
configure_dir() {
    local dir=$1
    shift
    if [[ -f $dir/config.status && -f $dir/Makefile ]]; then
        say "reusing the configured build in $dir"
        return 0
    fi
    mkdir -p "$dir"
    say "configuring in $dir: ../configure $*"
    if ! (cd "$dir" && ../configure "$@" >configure.out 2>&1); then
        tail -n 40 "$dir/configure.out" >&2
        explain "configure in $dir (output: $dir/configure.out, details: $dir/config.log)"
        return 1
    fi
    # configure's closing summary ("eccl X.Y.Z configured:" and what follows)
    sed -n '/ configured:$/,$p' "$dir/configure.out"
}

# make_in DIR WHAT-TO-LOOK-AT [make args...]
make_in() {
    local dir=$1 hint=$2
    shift 2
    say "make${*:+ $*} in $dir"
    if ! make -C "$dir" -j"$JOBS" "$@"; then
        explain "make${*:+ $*} in $dir ($hint)"
        return 1
    fi
}

# Configures (configure arguments after DIR and LABEL) and builds a sanitizer build in DIR; on a
# failure records the failed step under LABEL and returns 1.
sanitizer_build() {
    local dir=$1 label=$2
    shift 2
    if ! configure_dir "$dir" "$@"; then
        step_failed "configure of the $label in ./$dir"
        return 1
    fi
    make_in "$dir" "the compiler or make error is just above" || {
        step_failed "$label in ./$dir"
        return 1
    }
}

build_main() {
    ensure_configure_script
    configure_dir build CC="$MPICC" FC="$MPIFC" || return 1
    make_in build "the compiler or make error is just above" || return 1
}

# ---------------------------------------------------------------------------------------------
# Test results
# ---------------------------------------------------------------------------------------------
# Remove earlier results, so that totals only count this run.
clear_results() {
    local dir=$1 trs
    [[ -d $dir ]] || return 0
    while IFS= read -r -d '' trs; do
        rm -f "$trs" "${trs%.trs}.log"
    done < <(find "$dir" -name '*.trs' -print0)
}

N_PASS=0 N_FAIL=0 N_SKIP=0
# Counts :test-result: lines in DIR's .trs files and prints the log tail of each failed test.
collect_results() {
    local dir=$1 trs res
    [[ -d $dir ]] || return 0
    while IFS= read -r -d '' trs; do
        local failed=no
        while IFS= read -r res; do
            case $res in
                PASS | XFAIL) N_PASS=$((N_PASS + 1)) ;;
                SKIP) N_SKIP=$((N_SKIP + 1)) ;;
                FAIL | XPASS | ERROR)
                    N_FAIL=$((N_FAIL + 1))
                    failed=yes
                    ;;
            esac
        done < <(sed -n 's/^:test-result: *\([A-Z]*\).*/\1/p' "$trs")
        if [[ $failed == yes ]]; then
            local log=${trs%.trs}.log
            printf '\n---- %s failed; last lines of %s ----\n' "${trs%.trs}" "$log"
            if [[ -f $log ]]; then tail -n 40 "$log"; else echo "(no log)"; fi
            printf -- '---- end of %s ----\n' "$log"
        fi
    done < <(find "$dir" -path "$dir/eccl-*" -prune -o -name '*.trs' -print0 | sort -z)
}

step_failed() {
    FAILED_STEPS+=("$1")
}

# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------
cmd_demo() {
    local part=$1
    ensure_packages "${PKGS_BUILD[@]}"
    check_tools
    build_main || exit 1
    [[ -x build/examples/demo ]] || die "build/examples/demo was not built (is examples/Makefile.mk included?)"
    if [[ -z ${OMP_NUM_THREADS:-} ]]; then
        # DEMO_RANKS processes share the machine: give each its share of the cores.
        local t=$((JOBS / DEMO_RANKS))
        ((t >= 1)) || t=1
        export OMP_NUM_THREADS=$t
    fi
    export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$OMP_NUM_THREADS}
    [[ $part == pdgemm ]] || demo_summa
    [[ $part == summa ]] || demo_pdgemm
}

# demo_result STATUS: explain a failed demo run and exit with its status.
demo_result() {
    local rc=$1
    ((rc == 0)) && return 0
    if ((rc == 1)); then
        explain "the demo found elements outside the error bound (exit 1): please report this"
    else
        explain "the demo exited with status $rc (MPI or eccl error, message above)"
    fi
    exit "$rc"
}

demo_summa() {
    # SUMMA needs ScaLAPACK and the Fortran module; the plain broadcast demo needs neither.
    local prog=build/examples/summa
    if [[ ! -x $prog ]]; then
        say "build/examples/summa was not built (configure found no ScaLAPACK or no MPI Fortran" \
            "compiler: see 'ScaLAPACK layer' and 'Fortran module' above); running examples/demo"
        prog=build/examples/demo
    fi
    say "running: $MPIEXEC -n $DEMO_RANKS ./$prog  (OMP_NUM_THREADS=$OMP_NUM_THREADS," \
        "OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS)"
    echo
    local rc=0
    "$MPIEXEC" -n "$DEMO_RANKS" "./$prog" || rc=$?
    demo_result "$rc"
}

# The second part: an unmodified PDGEMM program, plain and under libeccl_blacs.
demo_pdgemm() {
    local prog=build/examples/pdgemm_plain lib=$ROOT/build/.libs/libeccl_blacs.so n=768 nb=64
    if [[ ! -x $prog || ! -f $lib ]]; then
        say "build/examples/pdgemm_plain or libeccl_blacs was not built (configure found no" \
            "ScaLAPACK or no MPI Fortran compiler): no interposer demo"
        return 0
    fi
    echo
    say "an unmodified ScaLAPACK program: C = A * B with PDGEMM, N = $n, NB = $nb, on $DEMO_RANKS ranks"
    say "1. as it is: $MPIEXEC -n $DEMO_RANKS ./$prog $n $nb"
    local rc=0
    "$MPIEXEC" -n "$DEMO_RANKS" "./$prog" "$n" "$nb" || rc=$?
    demo_result "$rc"
    echo
    # ECCL_COMPRESS=always: on this one machine the link is fast enough that eccl's cost model
    # would rightly send the panels uncompressed; on a cluster's network it compresses by itself.
    say "2. the same binary with eccl's BLACS interposer, panels within 1e-6 (doc/blacs-interposer.md):"
    say "   LD_PRELOAD=build/.libs/libeccl_blacs.so ECCL_BLACS=abs:1e-6 ECCL_BLACS_REPORT=1" \
        "ECCL_COMPRESS=always $MPIEXEC -n $DEMO_RANKS ./$prog $n $nb 1e-6"
    rc=0
    env LD_PRELOAD="$lib" ECCL_BLACS=abs:1e-6 ECCL_BLACS_REPORT=1 ECCL_COMPRESS=always \
        "$MPIEXEC" -n "$DEMO_RANKS" "./$prog" "$n" "$nb" 1e-6 || rc=$?
    demo_result "$rc"
    echo
    say "the bound checked for every element of C: E (sum_k |A(i,k)| + sum_k |B(k,j)|) + N E^2" \
        "+ the rounding of the product, E = 1e-6 (0 for the first run)"
    say "the times are those of $DEMO_RANKS ranks sharing this machine, whose 'network' is memory:" \
        "compressing costs time here and pays where the network is the bottleneck" \
        "(doc/performance.md)"
}

# Step 5 of `test`: eccl built with Open MPI in ./build-openmpi (with ScaLAPACK and Fortran, both
# required: a silent fallback would skip the BLACS tests), the MPI tests of FLAVOUR_TESTS
# (tests/Makefile.mk), make install into build-openmpi/_prefix and tests/consumer.sh against that
# install.  Failures go to FAILED_STEPS; the test results are counted by collect_results.
OMPI_DIR=build-openmpi
test_openmpi() {
    local t0=$SECONDS dir=$OMPI_DIR prefix=$ROOT/$OMPI_DIR/_prefix ok=yes mpiexec='' tests='' out=''
    # Open MPI refuses to run as root without the first two, and by default refuses more ranks
    # than cores (the tests run up to 6 ranks on the 2-core CI machine).
    local -a ompi_env=(OMPI_MCA_rmaps_base_oversubscribe=1)
    ((EUID != 0)) || ompi_env+=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
    configure_dir "$dir" CC=mpicc.openmpi FC=mpifort.openmpi --without-cuda \
        --with-scalapack --enable-fortran --prefix="$prefix" || {
        step_failed "Open MPI: configure in ./$dir"
        ok=no
    }
    if [[ $ok == yes ]]; then
        make_in "$dir" "the compiler or make error is just above" || {
            step_failed "Open MPI: build in ./$dir"
            ok=no
        }
    fi
    if [[ $ok == yes ]]; then
        # configure's launcher must be Open MPI's, and FLAVOUR_TESTS must not be empty.
        # shellcheck disable=SC2016  # $(...) is for make to expand
        out=$(make -s --no-print-directory -C "$dir" -f Makefile -f <(printf \
            'quickstart-flavour:\n\t@echo "$(MPIEXEC)"\n\t@echo $(FLAVOUR_TESTS)\n') \
            quickstart-flavour) || out=
        mpiexec=$(printf '%s\n' "$out" | tail -n 2 | head -n 1)
        tests=$(printf '%s\n' "$out" | tail -n 1)
        if [[ $mpiexec != *mpiexec.openmpi || -z $tests || $tests == "$mpiexec" ]]; then
            explain "Open MPI: ./$dir has MPIEXEC='$mpiexec' (expected mpiexec.openmpi)" \
                "and FLAVOUR_TESTS='$tests'"
            step_failed "Open MPI: launcher or FLAVOUR_TESTS in ./$dir"
            ok=no
        fi
    fi
    if [[ $ok == yes ]]; then
        clear_results "$dir"
        say "Open MPI: running $tests"
        env "${ompi_env[@]}" make -C "$dir" -j"$JOBS" check TESTS="$tests" || {
            explain "make check in $dir (the failed tests' logs are at the end)"
            step_failed "Open MPI: make check of FLAVOUR_TESTS in ./$dir"
        }
        rm -rf "$prefix"
        if make_in "$dir" "the install error is just above" install; then
            say "Open MPI: tests/consumer.sh against $prefix"
            env "${ompi_env[@]}" bash tests/consumer.sh "$prefix" mpicc.openmpi mpifort.openmpi "$mpiexec" || {
                explain "tests/consumer.sh (its FAILED lines and log excerpts are above)"
                step_failed "Open MPI: tests/consumer.sh (examples/consumer against the install)"
            }
        else
            step_failed "Open MPI: make install in ./$dir"
        fi
    fi
    say "Open MPI step (configure, build, tests, install, consumer) took $((SECONDS - t0)) s"
}

cmd_test() {
    local distcheck=$1
    ensure_packages "${PKGS_BUILD[@]}" "${PKGS_TEST[@]}"
    check_tools
    local t_start=$SECONDS

    # 1. the full build and every test
    local main_ok=yes
    build_main || {
        main_ok=no
        step_failed "build in ./build"
    }
    if [[ $main_ok == yes ]]; then
        clear_results build
        make_in build "a build error above, or the failed tests' logs at the end" check ||
            step_failed "make check in ./build"
    fi

    # 2. sanitizers on the CPU codec and the collectives.  CUDA is left out: nvcc code is not
    # instrumented, and the CUDA runtime and ASan need special settings to coexist.  The codec
    # tests run with leak checking; the MPI tests without (LeakSanitizer reports MPICH's own
    # allocations).
    local san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
    if sanitizer_build build-asan "sanitizer build" CC="$MPICC" CFLAGS="-O1 -g $san" LDFLAGS="$san" \
        --disable-fortran --without-cuda; then
        # The Makefile is up to date now, so make prints nothing but the list.
        local codec_tests=
        # shellcheck disable=SC2016  # $(CODEC_TESTS) is for make to expand
        if ! codec_tests=$(make -s --no-print-directory -C build-asan -f Makefile \
            -f <(printf 'quickstart-codec-tests:\n\t@echo $(CODEC_TESTS)\n') quickstart-codec-tests); then
            codec_tests=
        fi
        codec_tests=$(printf '%s\n' "$codec_tests" | tail -n 1)
        if [[ -z $codec_tests ]]; then
            explain "could not read CODEC_TESTS (make variable of tests/Makefile.mk) in ./build-asan"
            step_failed "sanitizer build: no CODEC_TESTS"
        else
            clear_results build-asan
            say "sanitizer build: running $codec_tests"
            (
                export ECCL_TEST_QUICK=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
                make_in build-asan "a build error above, or the failed tests' logs at the end" \
                    check TESTS="$codec_tests"
            ) || step_failed "sanitizer build: make check of the codec tests in ./build-asan"
            # The collectives on 3 ranks, the corrupt-stream test, the nonblocking calls and the
            # ratio memo (ECCL_RATIO_REUSE) under ASan/UBSan (leak checking off: LeakSanitizer
            # reports MPICH's own allocations).
            local san_coll="tests/coll_np3.mpi tests/corrupt_np3.mpi tests/nonblocking_np3.mpi tests/select_reuse_np3.mpi"
            say "sanitizer build: running $san_coll"
            (
                export ECCL_TEST_QUICK=1 ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
                make_in build-asan "a build error above, or the failed tests' logs at the end" \
                    check TESTS="$san_coll"
            ) || step_failed "sanitizer build: make check of the collectives in ./build-asan"
        fi
    fi

    # 2b. ThreadSanitizer on the nonblocking engine (its progress thread, and the waiting caller
    # that runs queued requests itself), with and without a progress thread and with a corrupt
    # stream in flight. OpenMP is left out (libgomp is not instrumented), and UCX's memory hooks,
    # which MPICH loads, are turned off: under TSan they crash at the first thread's start.
    local tsan="-fsanitize=thread"
    if sanitizer_build build-tsan "ThreadSanitizer build" CC="$MPICC" CFLAGS="-O1 -g $tsan" LDFLAGS="$tsan" \
        --disable-fortran --without-cuda --disable-openmp; then
        local tsan_tests="tests/nonblocking_np3.mpi tests/nonblocking_caller_np2.mpi tests/nonblocking_corrupt_np3.mpi"
        clear_results build-tsan
        say "ThreadSanitizer build: running $tsan_tests"
        (
            # (a report makes the process exit 66: the test fails)
            export ECCL_TEST_QUICK=1 TSAN_OPTIONS="halt_on_error=0 exitcode=66"
            export UCX_MEM_EVENTS=no UCX_MEM_MALLOC_HOOKS=no UCX_MEM_MMAP_HOOK_MODE=none
            make_in build-tsan "a build error above, or the failed tests' logs at the end" \
                check TESTS="$tsan_tests"
        ) || step_failed "ThreadSanitizer build: make check of the nonblocking tests in ./build-tsan"
    fi

    # 3. libFuzzer, when tests/fuzz provides the target
    local fuzz_pass=0 fuzz_fail=0
    if [[ $main_ok == yes ]] && grep -q '^fuzz:' build/Makefile; then
        say "fuzzing for ${FUZZ_SECONDS}s (make fuzz in ./build)"
        export FUZZ_SECONDS
        if make -C build fuzz FUZZ_SECONDS="$FUZZ_SECONDS"; then
            fuzz_pass=1
        else
            fuzz_fail=1
            explain "make fuzz in ./build (libFuzzer's crash report and reproducer are above)"
        fi
    else
        say "no 'fuzz' target in build/Makefile: fuzzing skipped"
    fi

    # 4. distcheck on request
    if [[ $distcheck == yes ]]; then
        if [[ $main_ok == yes ]]; then
            make_in build "its output above names the missing or leftover file" distcheck ||
                step_failed "make distcheck in ./build"
        else
            step_failed "make distcheck not run (the build failed)"
        fi
    fi

    # 5. the second MPI flavour: Open MPI, its tests, the install and the consumer programs
    test_openmpi

    # totals
    collect_results build
    collect_results build-asan
    collect_results build-tsan
    collect_results build-openmpi
    N_PASS=$((N_PASS + fuzz_pass))
    N_FAIL=$((N_FAIL + fuzz_fail))
    echo
    say "test run took $((SECONDS - t_start)) s"
    local s
    for s in "${FAILED_STEPS[@]+"${FAILED_STEPS[@]}"}"; do
        printf 'failed step: %s\n' "$s"
    done
    printf '%d skipped\n' "$N_SKIP"
    printf '%d passed, %d failed\n' "$N_PASS" "$N_FAIL"
    if ((N_FAIL > 0 || ${#FAILED_STEPS[@]} > 0)); then
        exit 1
    fi
}

# ---------------------------------------------------------------------------------------------
main() {
    local cmd=${1:-}
    case $cmd in
        -h | --help | help)
            usage
            ;;
        demo)
            local part=all
            case ${2:-} in
                "") ;;
                --summa) part=summa ;;
                --pdgemm) part=pdgemm ;;
                -h | --help)
                    usage
                    exit 0
                    ;;
                *) die "unknown option '$2' for demo (use --summa or --pdgemm); see --help" ;;
            esac
            (($# <= 2)) || die "'demo' takes one option at most (got: ${*:2}); see --help"
            cmd_demo "$part"
            ;;
        test)
            local distcheck=no a
            for a in "${@:2}"; do
                case $a in
                    --distcheck) distcheck=yes ;;
                    -h | --help)
                        usage
                        exit 0
                        ;;
                    *) die "unknown option '$a' for test; see --help" ;;
                esac
            done
            cmd_test "$distcheck"
            ;;
        "")
            usage >&2
            exit 2
            ;;
        *)
            usage >&2
            die "unknown command '$cmd' (use demo or test)"
            ;;
    esac
}

main "$@"
