#!/bin/sh
# mpi_run.sh FILE.mpi - the automake log compiler of MPI tests. FILE.mpi holds one line:
#   [VAR=value...] <ranks> <program> [arguments...]
# and the test runs `$MPIEXEC -n <ranks> $top_builddir/tests/<program> [arguments]`. A program
# outside tests/ is named relative to it (../bench/bench_coll) or by an absolute path.
# Skips (77) when configure found no MPI launcher. Oversubscription is fine: the sizes are small.
spec=$(cat "$1") || exit 99
set -- $spec
while [ $# -gt 0 ]; do
    case $1 in
    *=*) export "$1"; shift ;;
    *) break ;;
    esac
done
np=$1; prog=$2; shift 2
if [ -z "$MPIEXEC" ]; then
    echo "SKIP: no MPI launcher (configure found no mpiexec)"
    exit 77
fi
case $prog in
    /*) ;;
    *) prog=$top_builddir/tests/$prog ;;
esac
exec timeout "${ECCL_TEST_TIMEOUT:-900}" "$MPIEXEC" -n "$np" "$prog" "$@"
