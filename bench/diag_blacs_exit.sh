#!/bin/bash
# diag_blacs_exit.sh - on the GPU test host (run from the repository root; the device command is
# `bash bench/diag_blacs_exit.sh`): does examples/pdgemm_plain under libeccl_blacs exit? Runs it
# with the GPU visible and hidden (CUDA_VISIBLE_DEVICES=), takes the stacks of the ranks still
# alive after DIAG_WAIT seconds (gdb when the host has it, else /proc task states), and leaves the
# output in $OUT. Written for the exit hang seen by `blacsbench` (doc/blacs-interposer.md,
# "Speed"): DIAG_ENV="MPIR_CVAR_NOLOCAL=1 ECCL_COMPRESS=always" DIAG_N=4096 is the setting that
# hung there; the defaults (shared memory, N = 1024) exited normally.
source .gpu-host/setup.sh
out=${OUT:-$PWD/gpu-logs}
mkdir -p "$out"
bash bench/gpu_host.sh build > "$out/build.txt" 2>&1
grep -q "^build  *ok" "$out/build.txt" || { tail -20 "$out/build.txt"; exit 1; }
cd build-gpu || exit 1
n=${DIAG_N:-1024}
for v in gpu nogpu; do
    extra=; [ $v = nogpu ] && extra="CUDA_VISIBLE_DEVICES="
    ( timeout "${DIAG_TIMEOUT:-80}" env $extra ${DIAG_ENV:-} LD_PRELOAD="$PWD/.libs/libeccl_blacs.so" \
        ECCL_BLACS=abs:1e-6 ECCL_BLACS_REPORT=1 ECCL_DEBUG=1 OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 \
        mpiexec -n 4 ./examples/pdgemm_plain "$n" 128 1e-6 smooth nocheck > "$out/run_$v.txt" 2>&1
      echo "exit $?" >> "$out/run_$v.txt" ) &
    sleep "${DIAG_WAIT:-45}"
    for p in $(pgrep -f "examples/pdgemm_plain $n" | head -4); do
        echo "== pid $p" >> "$out/stacks_$v.txt"
        if command -v gdb > /dev/null; then
            timeout 20 gdb -p "$p" -batch -ex "thread apply all bt 12" >> "$out/stacks_$v.txt" 2>&1
        else
            cat /proc/"$p"/task/*/stat >> "$out/stacks_$v.txt" 2>&1
        fi
    done
    wait
    echo "[$v]"; grep -vE "^\[eccl [0-9]\] bcast" "$out/run_$v.txt" | tail -6
done
