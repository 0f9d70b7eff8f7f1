#!/bin/bash
# gpu_host.sh [what...] - build eccl on the GPU test host, run the GPU tests and benchmarks, and
# leave the logs in $OUT (or ./gpu-logs). Run from the repository root after
# `source .gpu-host/setup.sh` (see ../shared/gpu-host/README.md).
#   what: build, test, bench, all (default: all)
set -u
out=${OUT:-$PWD/gpu-logs}
mkdir -p "$out"
jobs=$(nproc)
what=${*:-all}
summary=()
step() { # name command...
    local name=$1; shift
    local t0=$SECONDS
    if "$@" > "$out/$name.log" 2>&1; then summary+=("$(printf '%-22s ok     %4ds' "$name" $((SECONDS - t0)))")
    else summary+=("$(printf '%-22s FAILED %4ds  (see %s.log)' "$name" $((SECONDS - t0)) "$name")"); tail -30 "$out/$name.log"; fi
}
build() (
    ./autogen.sh && mkdir -p build-gpu && cd build-gpu &&
        ../configure CC=mpicc FC=mpifort --with-cuda --with-cuda-arch="${CUDA_ARCH:-90}" &&
        make -j"$jobs" && make -j"$jobs" check TESTS=
)
case " $what " in *" build "*|*" all "*) step build build ;; esac
cd build-gpu 2>/dev/null || { echo "no build-gpu"; exit 1; }
case " $what " in *" quickbench "*)
    step bench_quick timeout 60 ./bench/bench_cuda_codec --mib 64 --small-kib 1024 --iters 3 ;;
esac
case " $what " in *" test "*|*" all "*)
    step test_cuda_codec timeout "${TEST_TIMEOUT:-600}" ./tests/test_cuda_codec
    for np in 2 3; do # collectives on device buffers (ranks share the GPU)
        step coll_device_np$np timeout "${TEST_TIMEOUT:-600}" mpiexec -n $np ./tests/test_coll_device
    done ;;
esac
case " $what " in *" bench "*|*" all "*)
    step bench_cuda_codec timeout "${BENCH_TIMEOUT:-600}" ./bench/bench_cuda_codec --mib "${BENCH_MIB:-1024}" --small-kib 1024 --iters 10 ;;
esac
case " $what " in *" profile "*)
    ncu=$(ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
    step profile "$ncu" --section SourceCounters --section WarpStateStats --section SpeedOfLight \
        -k regex:"compress_kernel|decompress_kernel" --launch-skip 1 --launch-count 2 --import-source yes \
        -f -o "$out/prof" ./bench/bench_cuda_codec --mib 256 --iters 1
    "$ncu" -i "$out/prof.ncu-rep" --page source --csv --print-source sass > "$out/sass.csv" 2>&1
    "$ncu" -i "$out/prof.ncu-rep" --page details --csv > "$out/details.csv" 2>&1 ;;
esac
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
echo
for l in "${summary[@]}"; do echo "$l"; done
for f in coll_device_np2 coll_device_np3; do [ -f "$out/$f.log" ] && tail -n 1 "$out/$f.log"; done
for f in bench_quick bench_cuda_codec; do [ -f "$out/$f.log" ] && tail -14 "$out/$f.log"; done
