#!/usr/bin/env bash
# tests/consumer.sh PREFIX MPICC MPIFC MPIEXEC - build examples/consumer against the eccl installed
# in PREFIX, both ways a user would (pkg-config with examples/consumer/Makefile, and CMake's
# find_package with examples/consumer/CMakeLists.txt), and the C program linked statically against
# libeccl.a with `pkg-config --static`, each in a temporary directory, and run every program on 2
# ranks (CONSUMER_RANKS).  One line per step; exit status 1 when any step failed.
#
#   tests/consumer.sh "$PWD/build-openmpi/_prefix" mpicc.openmpi mpifort.openmpi mpiexec.openmpi
#
# MPICC/MPIFC/MPIEXEC must belong to the MPI eccl was built with.  The Fortran program is built when
# PREFIX has the module (include/eccl.mod).  Open MPI as root needs OMPI_ALLOW_RUN_AS_ROOT=1
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 in the environment, and more ranks than cores need
# oversubscription (OMPI_MCA_rmaps_base_oversubscribe=1); quickstart.sh test sets both.
# The temporary directory is removed unless a step failed or KEEP_CONSUMER_TMP=1.
set -euo pipefail

if (($# != 4)); then
    sed -n '2,14s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
prefix=$1 mpicc=$2 mpifc=$3 mpiexec=$4
np=${CONSUMER_RANKS:-2}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../examples/consumer" && pwd)
prefix=$(cd "$prefix" && pwd) || {
    echo "consumer: FAILED: no directory $1" >&2
    exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/eccl-consumer.XXXXXX")
n_ok=0 n_failed=0
cleanup() {
    if ((n_failed > 0)) || [[ ${KEEP_CONSUMER_TMP:-0} == 1 ]]; then
        echo "consumer: logs and programs kept in $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
failed=()
# step NAME LOG COMMAND...: run COMMAND with its output in LOG; one line with the outcome, and the
# end of LOG when it failed.
step() {
    local name=$1 log=$2
    shift 2
    if "$@" >"$log" 2>&1; then
        printf 'consumer: %-52s ok\n' "$name"
        n_ok=$((n_ok + 1))
        return 0
    fi
    printf 'consumer: %-52s FAILED (log: %s)\n' "$name" "$log"
    sed 's/^/    | /' "$log" | tail -n 25
    n_failed=$((n_failed + 1))
    failed+=("$name")
    return 1
}
not_run() {
    printf 'consumer: %-52s FAILED (not run: %s)\n' "$1" "$2"
    n_failed=$((n_failed + 1))
    failed+=("$1")
}

# run_prog DIR PROG: run it on $np ranks; it must print its OK line, and its libeccl must be the
# one in PREFIX (the build tree's would mean the program was not built against the install).
run_prog() {
    local dir=$1 prog=$2 lib
    if command -v ldd >/dev/null 2>&1; then
        lib=$(ldd "$dir/$prog" | sed -n 's/^[[:space:]]*libeccl\.so[^ ]* => \([^ ]*\).*/\1/p')
        echo "libeccl: ${lib:-not found by ldd}"
        case $lib in
            "$prefix"/*) ;;
            *)
                echo "expected the libeccl of $prefix"
                return 1
                ;;
        esac
    fi
    (cd "$dir" && timeout 300 "$mpiexec" -n "$np" "./$prog") | tee "$dir/$prog.out" || return 1
    # one OK line, from rank 0 of $np ranks (a launcher of another MPI starts $np one-rank jobs,
    # each of which prints its own OK line)
    if [[ $(grep -c "^$prog: OK" "$dir/$prog.out") != 1 ]] ||
        ! grep -q "^$prog: OK.* $np ranks" "$dir/$prog.out"; then
        echo "expected one '$prog: OK' line for $np ranks"
        return 1
    fi
}

# run_static: the statically linked consumer_c (no libeccl.so to check), on $np ranks
run_static() {
    (cd "$tmp/static" && timeout 300 "$mpiexec" -n "$np" ./consumer_c) | tee "$tmp/static/consumer_c.out" || return 1
    grep -q "^consumer_c: OK.* $np ranks" "$tmp/static/consumer_c.out"
}

progs=(consumer_c)
if [[ -f $prefix/include/eccl.mod ]]; then
    progs+=(consumer_f)
else
    echo "consumer: no Fortran module in $prefix/include: consumer_f not built"
fi
echo "consumer: eccl in $prefix; $mpicc, $mpifc, $mpiexec -n $np"

# 1. pkg-config and plain make
pcdir=$prefix/lib/pkgconfig
[[ -f $pcdir/eccl.pc ]] || pcdir=$prefix/lib64/pkgconfig
mkdir -p "$tmp/make"
pc_build() {
    local pc
    pc=$(PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} pkg-config --path eccl)
    echo "eccl.pc: $pc"
    [[ $pc == "$pcdir/eccl.pc" ]] || {
        echo "expected $pcdir/eccl.pc"
        return 1
    }
    PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
        make -C "$tmp/make" -f "$src/Makefile" CC="$mpicc" FC="$mpifc" "${progs[@]}"
}
if step "pkg-config: make ${progs[*]}" "$tmp/make.log" pc_build; then
    for p in "${progs[@]}"; do
        step "pkg-config: $mpiexec -n $np $p" "$tmp/make/$p.log" run_prog "$tmp/make" "$p" || true
    done
else
    for p in "${progs[@]}"; do not_run "pkg-config: $mpiexec -n $np $p" "the build failed"; done
fi

# 2. CMake: find_package(eccl) with CMAKE_PREFIX_PATH
cmake_fortran=OFF
[[ ${progs[*]} == *consumer_f* ]] && cmake_fortran=ON
cmake_build() {
    CC=$mpicc FC=$mpifc cmake -S "$src" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
        -DECCL_CONSUMER_FORTRAN="$cmake_fortran" || return 1
    local dir
    dir=$(sed -n 's/^eccl_DIR:PATH=//p' "$tmp/cmake/CMakeCache.txt")
    echo "eccl_DIR: $dir"
    case $dir in
        "$prefix"/*) ;;
        *)
            echo "expected the package files of $prefix"
            return 1
            ;;
    esac
    cmake --build "$tmp/cmake" --verbose || return 1
    local p
    for p in "${progs[@]}"; do
        [[ -x $tmp/cmake/$p ]] || {
            echo "$p was not built"
            return 1
        }
    done
}
if step "cmake: find_package(eccl), build ${progs[*]}" "$tmp/cmake.log" cmake_build; then
    for p in "${progs[@]}"; do
        step "cmake: $mpiexec -n $np $p" "$tmp/cmake/$p.log" run_prog "$tmp/cmake" "$p" || true
    done
else
    for p in "${progs[@]}"; do not_run "cmake: $mpiexec -n $np $p" "the build failed"; done
fi

# 3. a static link of libeccl.a from C, with what `pkg-config --static` says it needs (Libs.private:
# the Fortran runtime and MPI Fortran bindings of the module's objects, ScaLAPACK, -ldl, ...)
libdir=$(PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} pkg-config --variable=libdir eccl)
static_build() {
    local pcs=(env "PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" pkg-config)
    local libs
    libs=$("${pcs[@]}" --static --libs eccl | sed 's/\(^\| \)-leccl\( \|$\)/ /')
    echo "static: $libdir/libeccl.a $libs"
    mkdir -p "$tmp/static"
    # shellcheck disable=SC2046,SC2086
    "$mpicc" -o "$tmp/static/consumer_c" "$src/consumer.c" $("${pcs[@]}" --cflags eccl) "$libdir/libeccl.a" $libs || return 1
    if command -v ldd >/dev/null 2>&1 && ldd "$tmp/static/consumer_c" | grep -q 'libeccl\.so'; then
        echo "linked against libeccl.so, not libeccl.a"
        return 1
    fi
}
if [[ -f $libdir/libeccl.a ]]; then
    if step "static: libeccl.a + pkg-config --static --libs" "$tmp/static.log" static_build; then
        step "static: $mpiexec -n $np consumer_c" "$tmp/static/consumer_c.log" run_static || true
    else
        not_run "static: $mpiexec -n $np consumer_c" "the build failed"
    fi
else
    echo "consumer: no $libdir/libeccl.a (a shared-only build): the static link not tried"
fi

echo "consumer: $n_ok steps ok, $n_failed failed"
if ((n_failed > 0)); then
    printf 'consumer: FAILED: %s\n' "${failed[@]}"
    exit 1
fi
