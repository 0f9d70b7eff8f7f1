#!/bin/bash
# bench/peers/build.sh [PEERS_DIR] - build the peer GPU codecs of issue 21's table for bench/peers.sh:
# cuSZp and FSZ with eccl's harness (peerbench.cu, cuszp_kern.cu: ours, beside this script), and
# PFPL's own CLIs, into PEERS_DIR/bin (default .peers/bin: git-ignored; name .peers in a device
# call's carry). The peers' sources are not part of eccl: put them in PEERS_DIR/src/{cuSZp,FSZ,PFPL}
# at the commits of bench/peers/COMMITS, e.g. from a clone of each:
#   git -C cuSZp archive 6ab90a55 | tar -x -C .peers/src/cuSZp     (likewise FSZ and PFPL)
# nvcc on PATH; GENCODE (default sm_90 SASS only) and J (parallel compiles, 2) may be set.
set -e
here=$(cd "$(dirname "$0")" && pwd)
P=$(mkdir -p "${1:-$here/../../.peers}" && cd "${1:-$here/../../.peers}" && pwd)
GENCODE=${GENCODE:--gencode arch=compute_90,code=sm_90}
Z=$P/src/cuSZp; F=$P/src/FSZ; L=$P/src/PFPL; O=$P/obj
for d in "$Z" "$F" "$L"; do [ -d "$d" ] || { echo "build.sh: no $d (see the header)"; exit 2; }; done
mkdir -p "$P/bin" "$O"
NV="nvcc -O3 -std=c++17 $GENCODE"
# PFPL: its makefile's GPU flags, less -march=native and -fopenmp (host code for any x86-64)
for t in f32 f64; do
    for w in comp decomp; do
        (cd "$L" && nvcc -O3 $GENCODE -fmad=false -Xcompiler "-O3 -mno-fma -ffp-contract=off" -I./src/ \
            -o "$P/bin/pfpl_${t}_abs_${w}" "src/${t}_abs_${w}_gpu.cu") &
        [ "$(jobs -r | wc -l)" -ge "${J:-2}" ] && wait -n
    done
done
wait
# cuSZp: separable compilation, as its CMake does; its 1-D kernels also launched directly (cuszp_kern.cu)
for s in "$Z"/src/*.cu; do
    $NV -rdc=true -Xcompiler -Wno-unused-result -I"$Z/include" -I"$Z/include/cuSZp" -c "$s" -o "$O/$(basename "$s" .cu).o" &
    [ "$(jobs -r | wc -l)" -ge "${J:-2}" ] && wait -n
done
$NV -rdc=true -DCZ_F64=0 -I"$Z/include/cuSZp" -c "$here/cuszp_kern.cu" -o "$O/czk32.o" &
$NV -rdc=true -DCZ_F64=1 -I"$Z/include/cuSZp" -c "$here/cuszp_kern.cu" -o "$O/czk64.o" &
wait
$NV -rdc=true -DPEER_CUSZP -I"$Z/include" -I"$Z/include/cuSZp" "$here/peerbench.cu" "$O"/cuSZp*.o "$O/czk32.o" \
    "$O/czk64.o" -o "$P/bin/peerbench_cuszp"
# FSZ: src/fsz.cu with the harness
$NV -DPEER_FSZ -I"$F/include" -I"$F/src" "$here/peerbench.cu" "$F/src/fsz.cu" -o "$P/bin/peerbench_fsz"
rm -rf "$O"
strip "$P"/bin/*
ls -la "$P/bin"
