#!/bin/bash
# gpu_host.sh [what...] - build eccl on the GPU test host, run the GPU tests and benchmarks, and
# leave the logs in $OUT (or ./gpu-logs). Run from the repository root after
# `source .gpu-host/setup.sh` (see ../shared/gpu-host/README.md).
#   what: build, test, bench, devbench, all (default: all); quicktest, fmt2test, fmt2mutants, fmt2coll, fmt3coll, hiertest, contracttest, nonblocktest, asynctest, asyncbench,
#   gpusan, quickbench, devstreamtest, devstreambench, overlapbench, overlapgpubench, summabench, blacsbench, hierbench, hierdevbench, x2bench, fmt2bench, x2bcastauto, x2autovsnccl, x2sweep and x2chunks (two GPUs), x4bench (four), devops, issue21, ab (older trees in .ab/) and peers (one; peers: .peers in the carry, bench/peers/build.sh), profile on request
set -u
out=${OUT:-$PWD/gpu-logs}
mkdir -p "$out"
jobs=$(nproc)
what=${*:-all}
summary=()
# Per-step limits: a GPU test runs for seconds, so a hung kernel (a wrong ballot once deadlocked a
# warp) costs minutes, not the device call's whole budget. TEST_TIMEOUT / BENCH_TIMEOUT override.
test_timeout=${TEST_TIMEOUT:-180}
step() { # name command...
    local name=$1; shift
    local t0=$SECONDS
    if "$@" > "$out/$name.log" 2>&1; then summary+=("$(printf '%-22s ok     %4ds' "$name" $((SECONDS - t0)))")
    else summary+=("$(printf '%-22s FAILED %4ds  (see %s.log)' "$name" $((SECONDS - t0)) "$name")"); tail -30 "$out/$name.log"; fi
    echo "${summary[-1]}" # progress, so that a run cut off by its time limit still shows how far it got
}
build() ( # (sources touched first: a warm host keeps build-gpu, and the tree copied onto it keeps
    # older times than objects built there from sources an earlier command had changed)
    touch cuda/* src/*/*.c src/*/*/*.c 2>/dev/null
    ./autogen.sh && mkdir -p build-gpu && cd build-gpu &&
        ../configure CC=mpicc FC=mpifort --with-cuda --with-cuda-arch="${CUDA_ARCH:-90}" &&
        make -j"$jobs" && make -j"$jobs" check TESTS=
)
case " $what " in *" build "*|*" all "*) step build build ;; esac
cd build-gpu 2>/dev/null || { echo "no build-gpu"; exit 1; }
# two ranks on a host of several GPUs get one each and NCCL comes up: the nccl algorithms must
# then run on it (test_coll_device's ECCL_TEST_EXPECT_NCCL)
x2=0; [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] && x2=1
case " $what " in *" quickbench "*)
    step bench_quick timeout 60 ./bench/bench_cuda_codec --mib 64 --small-kib 1024 --iters 3 ;;
esac
case " $what " in *" fmt2test "*) # the GPU codec on format versions 2 and 3, and version 1 unchanged
    step test_cuda_format2 timeout "$test_timeout" ./tests/test_cuda_format2
    step test_cuda_codec_quick timeout "$test_timeout" env ECCL_TEST_QUICK=1 ./tests/test_cuda_codec ;;
esac
case " $what " in *" fmt2mutants "*) # each mutant of the version-2 and version-3 GPU code must make test_cuda_format2 fail
    mutate() { # file, sed expression, name (MUTANTS="name ...": only those)
        case " ${MUTANTS:-$3} " in *" $3 "*) ;; *) return ;; esac
        cp "../$1" "../$1.orig" && sed -i "$2" "../$1" && ! cmp -s "../$1" "../$1.orig" || { echo "mutant $3: no change"; return; }
        if make -j"$jobs" > /dev/null 2>&1 && make -j"$jobs" tests/test_cuda_format2 > /dev/null 2>&1; then
            if env ECCL_TEST_QUICK=1 timeout "$test_timeout" ./tests/test_cuda_format2 > "$out/mutant_$3.log" 2>&1
            then echo "mutant $3: SURVIVED"; else echo "mutant $3: killed ($(grep -c FAIL "$out/mutant_$3.log") failures)"; fi
        else echo "mutant $3: does not build"; fi
        mv "../$1.orig" "../$1"; touch "../$1"
    }
    mutate cuda/dec.cuh 's/(U)(i + 1) \* vel/(U)i * vel/' rows_velocity
    mutate cuda/dec.cuh 's/unsigned long long acc = (unsigned long long)sm.tail\[b - 1\]\[1\];/unsigned long long acc = (unsigned long long)sm.tail[b - 1][1] - vel;/' rows_velocity32
    mutate cuda/dec.cuh 's/const long long v = (long long)(acc + /const long long v = (long long)(int)(acc + /' rows_finish_32bit
    mutate cuda/dec.cuh 's/(long long)(lane + 1) \* vel/(long long)lane * vel/' warp_velocity
    mutate cuda/dec.cuh 's/m.a = 32;/m.a = 31;/' chain_map
    mutate cuda/dec.cuh 's/bad |= p1 > q.qmax || p1 < -q.qmax;/bad |= 0;/' l2_range_check
    mutate cuda/enc32.cuh 's/(long long)d < 0 ? ECCL_FMT_FORM_L2/(long long)d <= 0 ? ECCL_FMT_FORM_L2/' form_rule
    mutate cuda/enc32.cuh 's/int dlp = have ? pm1 - pm2 : 0;/int dlp = 0;/' fast_l2_entry
    mutate cuda/enc64.cuh 's/if (lane == 1) a2 = p1;/if (lane == 1) a2 = p0;/' warp_l2_lane1
    # version 3 (sparse tiles; not yet run: the device time of the sessions of 2026-11-29 and 2026-12-07 ran out)
    mutate cuda/dec.cuh 's/ok \&= !k.sparse || nz == k.z;/ok \&= 1;/' sparse_map_check
    mutate cuda/dec.cuh 's/if (sparse \&\& (L \& 31u) \&\& tid == 0) bad |=/if (0) bad |=/' sparse_tail_bits
    mutate cuda/enc32.cuh 's/if (size < best) best = size, f = a;/if (size <= best) best = size, f = a;/' form3_ties
    mutate cuda/codec_dev.cuh 's/if (sh + (unsigned)k > 32u) atomicOr/if (sh + (unsigned)k > 33u) atomicOr/' put_bits_carry
    mutate cuda/enc64.cuh 's/!bad \&\& t1 < t0/!bad \&\& t1 <= t0/' warp_form_rule
    mutate cuda/enc64.cuh 's/qi, r > 1 ? r - 2 : 0)/qi, r - 1)/' warp_tail
    mutate cuda/compress64.cu 's/vel = base - sm.tail\[b - 1\]\[0\];/vel = 0;/' hom64_l2_velocity
    # version 3 in the 64-bit encoders (the warp coder of enc64.cuh, compress64.cu's fast path; not
    # yet run either: the device calls of the second session of 2026-12-07 could not start a machine)
    mutate cuda/enc64.cuh 's/const uint32_t z = __ballot_sync(ECCL_WARP_FULL, S.m != 0);/const uint32_t z = __ballot_sync(ECCL_WARP_FULL, S.m > 1);/' warp_sparse_map
    mutate cuda/enc64.cuh 's/^        pos += (unsigned)k;/        pos += 0;/' warp_sign_width
    mutate cuda/enc64.cuh 's/if (n < 32) u \&= (1u << n) - 1u;/if (0) u = 0;/' stream_word_mask
    mutate cuda/enc64.cuh 's/acc\[6\] += (unsigned)encode_raw<D64>/acc[6] += 0 * encode_raw<D64>/' warp_raw_price
    mutate cuda/enc64.cuh 's/if (size < best) best = size, f = c;/if (size <= best) best = size, f = c;/' warp_form3_ties
    mutate cuda/compress64.cu 's/const unsigned sb = sh + ((tot + 3u) \& ~3u);/const unsigned sb = sh + tot;/' fast_stream_start
    # back to the sources' build (a later call's copy of the tree may be older than the mutant's objects)
    make -j"$jobs" > /dev/null 2>&1 && make -j"$jobs" tests/test_cuda_format2 > /dev/null 2>&1 ;;
esac
case " $what " in *" fmt2coll "*|*" quicktest "*|*" test "*|*" all "*) # the collectives on version-2 streams
    # (ECCL_FORMAT=2): device buffers bit for bit the host path's, over NCCL where two GPUs are
    # there, and a corrupt stream (float64 and float32) from the GPU codec
    step coll_device_fmt2_np2 timeout "$test_timeout" env ECCL_FORMAT=2 ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    [ "$x2" = 1 ] && step coll_device_fmt2_nccl timeout "$test_timeout" env ECCL_FORMAT=2 ECCL_TRANSPORT=nccl \
        ECCL_TEST_EXPECT_NCCL=1 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_fmt2_f64 timeout "$test_timeout" env ECCL_FORMAT=2 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device
    step corrupt_device_fmt2_f32 timeout "$test_timeout" env ECCL_FORMAT=2 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32 ;;
esac
case " $what " in *" fmt3coll "*|*" test "*|*" all "*) # ECCL_FORMAT=3: calls on device buffers resident on the
    # GPU codec's version 3 (float32 and float64), bit for bit the host path's; a corrupt stream
    step coll_device_fmt3_np2 timeout "$test_timeout" env ECCL_FORMAT=3 ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_fmt3_f32 timeout "$test_timeout" env ECCL_FORMAT=3 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    step corrupt_device_fmt3_f64 timeout "$test_timeout" env ECCL_FORMAT=3 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device ;;
esac
case " $what " in *" quicktest "*) # a short subset for iterating on the GPU paths (one GPU is enough)
    step test_cuda_codec_quick timeout "$test_timeout" env ECCL_TEST_QUICK=1 ./tests/test_cuda_codec
    step test_cuda_format2_quick timeout "$test_timeout" env ECCL_TEST_QUICK=1 ./tests/test_cuda_format2
    step coll_device_np2 timeout "$test_timeout" env ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    step coll_device_chunks timeout "$test_timeout" env ECCL_CHUNKS=3 ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_f32 timeout "$test_timeout" env ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    step corrupt_device_chunks timeout "$test_timeout" env ECCL_CHUNKS=4 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    step stream_device timeout "$test_timeout" mpiexec -n 2 ./tests/test_stream_device ;;
esac
case " $what " in *" contracttest "*|*" test "*|*" all "*) # issue 22's contract on device buffers: mismatches,
    # REL ranges with ranks of no finite value, fallback; a rank out of device memory (by the
    # ECCL_FAULT_DEV_ALLOC knob, and for real: its GPU's memory taken) stages its call alone
    step contract_device_np2 timeout "$test_timeout" mpiexec -n 2 ./tests/test_contract --device
    step contract_device_np3 timeout "$test_timeout" mpiexec -n 3 ./tests/test_contract --device
    step contract_devoom_fault timeout "$test_timeout" env ECCL_FAULT_DEV_ALLOC=1 mpiexec -n 2 ./tests/test_contract --device dev_oom
    step contract_devoom_real timeout "$test_timeout" mpiexec -n 2 ./tests/test_contract --device dev_oom ;;
esac
case " $what " in *" nonblocktest "*|*" test "*|*" all "*) # issue 19's nonblocking calls on device buffers:
    # bit for bit the blocking results, with the progress thread and in the caller's thread, a
    # corrupt stream in flight (NCCL carries the streams where it is up)
    step nonblocking_device_np2 timeout "$test_timeout" mpiexec -n 2 ./tests/test_nonblocking --device
    step nonblocking_device_np3 timeout "$test_timeout" mpiexec -n 3 ./tests/test_nonblocking --device
    step nonblocking_device_caller timeout "$test_timeout" env ECCL_PROGRESS=caller mpiexec -n 2 \
        ./tests/test_nonblocking --device
    step nonblocking_device_corrupt timeout "$test_timeout" env ECCL_FAULT_INJECT=1:1 mpiexec -n 2 \
        ./tests/test_nonblocking --device corrupt ;;
esac
case " $what " in *" asynctest "*|*" test "*|*" all "*) # issue 19's stream-enqueued calls: in stream order,
    # bit for bit the blocking results, the caller not waiting; at once without a progress thread;
    # errors and a corrupt stream reported by eccl_cuda_comm_async_error
    step cuda_async_np2 timeout "$test_timeout" mpiexec -n 2 ./tests/test_cuda_async
    step cuda_async_np3 timeout "$test_timeout" mpiexec -n 3 ./tests/test_cuda_async
    step cuda_async_caller timeout "$test_timeout" env ECCL_PROGRESS=caller mpiexec -n 2 ./tests/test_cuda_async
    step cuda_async_corrupt timeout "$test_timeout" env ECCL_FAULT_INJECT=1:1 ECCL_TRANSPORT=mpi mpiexec -n 2 \
        ./tests/test_cuda_async corrupt ;;
esac
case " $what " in *" asyncbench "*) # issue 19: the calling thread's cost of a stream-enqueued allreduce
    step bench_async timeout "${BENCH_TIMEOUT:-600}" mpiexec -n 2 ./bench/bench_async --mib ${ASYNC_MIB:-1,16,64,256}
    step bench_async_nvlink_off timeout "${BENCH_TIMEOUT:-600}" env ECCL_TRANSPORT=mpi MPIR_CVAR_NOLOCAL=1 \
        mpiexec -n 2 ./bench/bench_async --mib ${ASYNC_MIB:-1,16,64,256}
    cat "$out"/bench_async*.log ;;
esac
case " $what " in *" overlapbench "*) # issue 19: a nonblocking allreduce behind host computation
    step bench_overlap_device timeout "${BENCH_TIMEOUT:-600}" mpiexec -n 2 ./bench/bench_overlap --device \
        --mib ${OVERLAP_MIB:-64,256,1024}
    step bench_overlap_device_caller timeout "${BENCH_TIMEOUT:-600}" env ECCL_PROGRESS=caller mpiexec -n 2 \
        ./bench/bench_overlap --device --mib ${OVERLAP_MIB:-64,256,1024}
    step bench_overlap_host timeout "${BENCH_TIMEOUT:-600}" mpiexec -n 2 ./bench/bench_overlap --mib 16,64,256 ;;
esac
case " $what " in *" devstreamtest "*|*" test "*|*" all "*) # issue 19: streams kept in device memory over NCCL
    # (ECCL_DEVICE_STREAMS; bcast binomial): bit for bit the host results, forced onto NCCL at 2 ranks
    # and, on hosts of 3 or 4 GPUs, at 3 and 4 (the tree's forwarding ranks); staged for comparison;
    # a corrupt stream sent from device memory
    ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
    for np in 2 3 4; do
        [ "$np" -le "$ngpu" ] || continue
        step coll_device_devstreams_np$np timeout "$test_timeout" env ECCL_TRANSPORT=nccl ECCL_TEST_EXPECT_NCCL=1 \
            mpiexec -n $np ./tests/test_coll_device
    done
    step coll_device_staged_streams timeout "$test_timeout" env ECCL_TRANSPORT=nccl ECCL_DEVICE_STREAMS=0 \
        ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_devstreams timeout "$test_timeout" env ECCL_TRANSPORT=nccl ECCL_FAULT_INJECT=1:1 \
        mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    [ "$ngpu" -ge 3 ] && step corrupt_device_devstreams_np3 timeout "$test_timeout" env ECCL_TRANSPORT=nccl \
        ECCL_FAULT_INJECT=1:1 mpiexec -n 3 ./tests/test_coll_corrupt --device --float32 ;;
esac
case " $what " in *" devstreambench "*) # issue 19: the binomial bcast with its streams in device memory
    # against staged through host memory (ECCL_DEVICE_STREAMS=1/0), NCCL carrying the streams, over
    # NVLink and over sockets; float64 (SUMMA's panels) and float32
    sockets="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    for net in nvlink socket; do
        netenv=; [ $net = nvlink ] || netenv=$sockets
        for ds in 1 0; do
            for dt in float64 float32; do
                step bench_devstreams_${net}_${dt}_ds$ds timeout "${BENCH_TIMEOUT:-600}" env $netenv ECCL_TRANSPORT=nccl \
                    ECCL_DEVICE_STREAMS=$ds mpiexec -n 2 ./bench/bench_device --colls bcast --bcast-algorithms binomial \
                    --dtype $dt --mib ${DEVSTREAM_MIB:-1,16,256} --iters ${DEVSTREAM_ITERS:-5}
                grep -E "binomial" "$out/bench_devstreams_${net}_${dt}_ds$ds.log" | sed "s/^/$net $dt ECCL_DEVICE_STREAMS=$ds: /"
            done
        done
    done ;;
esac
case " $what " in *" overlapgpubench "*) # issue 19: an allreduce on device buffers behind a cuBLAS DGEMM
    # stream (eccl nonblocking, stream-enqueued, NCCL, MPI), eccl's streams at the greatest priority
    # and at the default one, over NVLink and over sockets on loopback
    sockets="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    if [ -x ./bench/bench_overlap_gpu ]; then
        for net in nvlink socket; do
            netenv=; [ $net = nvlink ] || netenv=$sockets
            for prio in 1 0; do
                step bench_overlap_gpu_${net}_prio$prio timeout "${BENCH_TIMEOUT:-600}" env $netenv \
                    ECCL_GPU_PRIORITY=$prio mpiexec -n 2 ./bench/bench_overlap_gpu --mib ${OVERLAP_MIB:-64,256} \
                    --iters ${OVERLAP_ITERS:-5}
            done
        done
        cat "$out"/bench_overlap_gpu_*.log
    else
        echo "no bench/bench_overlap_gpu (configure found no cuBLAS)"
    fi ;;
esac
case " $what " in *" hiertest "*) # the hierarchical allreduce on device buffers only (see test below)
    step coll_device_hier_np4 timeout "$test_timeout" env ECCL_NODE_SIZE=2 mpiexec -n 4 ./tests/test_coll_device
    step coll_device_hier_np6 timeout "$test_timeout" env ECCL_NODE_SIZE=3 mpiexec -n 6 ./tests/test_coll_device
    step coll_device_hier_staged timeout "$test_timeout" env ECCL_NODE_IPC=0 ECCL_NODE_SIZE=2 mpiexec -n 4 ./tests/test_coll_device
    step corrupt_device_hier timeout "$test_timeout" env ECCL_NODE_SIZE=2 ECCL_FAULT_INJECT=1:1 mpiexec -n 4 \
        ./tests/test_coll_corrupt --device --float32
    step ipc_refused_hier timeout "$test_timeout" env ECCL_NODE_SIZE=2 ECCL_FAULT_NODE_IPC=3 mpiexec -n 4 ./tests/test_coll_device ;;
esac
case " $what " in *" gpusan "*) # compute-sanitizer memcheck on the codec tests (quick) and the device
    # collectives with the hierarchical allreduce's CUDA IPC windows (two nodes of two ranks)
    cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
    if [ -z "$cs" ]; then echo "gpusan: no compute-sanitizer on this host"; else
        csan="$cs --tool memcheck --leak-check no --error-exitcode 9"
        step memcheck_cuda_codec timeout "${SAN_TIMEOUT:-400}" env ECCL_TEST_QUICK=1 $csan ./tests/test_cuda_codec
        step memcheck_cuda_format2 timeout "${SAN_TIMEOUT:-400}" env ECCL_TEST_QUICK=1 $csan ./tests/test_cuda_format2
        step memcheck_coll_hier timeout "${SAN_TIMEOUT:-400}" env ECCL_NODE_SIZE=2 mpiexec -n 4 $csan ./tests/test_coll_device
        grep -h -m 3 -E "ERROR SUMMARY|Invalid|failures" "$out"/memcheck_*.log
    fi ;;
esac
case " $what " in *" test "*|*" all "*)
    step test_cuda_codec timeout "$test_timeout" ./tests/test_cuda_codec
    step test_cuda_format2 timeout "$test_timeout" ./tests/test_cuda_format2
    ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
    for np in 1 2 3; do # collectives on device buffers (one GPU per rank where there are enough: NCCL)
        expect=0; [ "$np" -gt 1 ] && [ "$np" -le "$ngpu" ] && expect=1
        step coll_device_np$np timeout "$test_timeout" env ECCL_TEST_EXPECT_NCCL=$expect mpiexec -n $np ./tests/test_coll_device
    done
    if [ "$ngpu" -ge 2 ]; then # every compressed stream through NCCL point-to-point
        step coll_device_nccl timeout "$test_timeout" env ECCL_TRANSPORT=nccl ECCL_TEST_EXPECT_NCCL=2 mpiexec -n 2 ./tests/test_coll_device
        step corrupt_device_nccl timeout "$test_timeout" env ECCL_TRANSPORT=nccl ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    fi
    # the cost model measures the GPU codec at the first call every rank runs device-resident
    step gpu_codec_measured timeout "$test_timeout" bash -c 'ECCL_DEBUG=1 mpiexec -n 2 ./tests/test_coll_device > "$0" 2>&1
        grep -m 6 -E "GPU codec (measured|not measured)|NCCL link|failures" "$0"; grep -q "GPU codec measured on rank 0" "$0"' \
        "$out/gpu_codec_debug.txt"
    # ECCL_GPU_OBSERVE=1: the device codec operations' observed latency prices the GPU codec (every
    # result still checked; the figure agreed and printed)
    step gpu_latency_observed timeout "$test_timeout" bash -c 'ECCL_GPU_OBSERVE=1 ECCL_DEBUG=1 mpiexec -n 2 \
        ./tests/test_coll_device > "$0" 2>&1; rc=$?; grep -m 2 -E "per operation observed" "$0"; tail -n 1 "$0"
        [ $rc = 0 ] && grep -q "per operation observed" "$0"' "$out/gpu_observed_debug.txt"
    step coll_device_mpi timeout "$test_timeout" env ECCL_TRANSPORT=mpi mpiexec -n 2 ./tests/test_coll_device
    # the pipelined algorithms with several chunks (host and device calls cut the same ones)
    step coll_device_chunks timeout "$test_timeout" env ECCL_CHUNKS=3 ECCL_TEST_EXPECT_NCCL=$x2 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_chunks timeout "$test_timeout" env ECCL_CHUNKS=4 ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device --float32
    step coll_device_staged timeout "$test_timeout" env ECCL_DEVICE_RESIDENT=0 mpiexec -n 2 ./tests/test_coll_device
    step corrupt_device_f32 timeout "$test_timeout" env ECCL_FAULT_INJECT=2:1 mpiexec -n 3 ./tests/test_coll_corrupt --device --float32
    step corrupt_device_f64 timeout "$test_timeout" env ECCL_FAULT_INJECT=1:1 mpiexec -n 2 ./tests/test_coll_corrupt --device
    # eccl_cuda_comm_set_stream: calls wait for the input still in flight on the stream
    step stream_device timeout "$test_timeout" mpiexec -n 2 ./tests/test_stream_device
    step stream_device_staged timeout "$test_timeout" env ECCL_DEVICE_RESIDENT=0 mpiexec -n 2 ./tests/test_stream_device
    # the hierarchical allreduce on device buffers (staged), two nodes of two ranks made by ECCL_NODE_SIZE
    step coll_device_hier_np4 timeout "$test_timeout" env ECCL_NODE_SIZE=2 mpiexec -n 4 ./tests/test_coll_device
    # ... its node steps through CUDA IPC windows with three ranks a node, staged (ECCL_NODE_IPC=0),
    # and a corrupt stream between the nodes
    step coll_device_hier_np6 timeout "$test_timeout" env ECCL_NODE_SIZE=3 mpiexec -n 6 ./tests/test_coll_device
    step coll_device_hier_staged timeout "$test_timeout" env ECCL_NODE_IPC=0 ECCL_NODE_SIZE=2 mpiexec -n 4 ./tests/test_coll_device
    step corrupt_device_hier timeout "$test_timeout" env ECCL_NODE_SIZE=2 ECCL_FAULT_INJECT=1:1 mpiexec -n 4 \
        ./tests/test_coll_corrupt --device --float32
    # a node that refuses the CUDA IPC windows (rank 3 cannot map its peer's): staged there, and
    # the cost model on every rank prices it so from the next call
    step ipc_refused_hier timeout "$test_timeout" env ECCL_NODE_SIZE=2 ECCL_FAULT_NODE_IPC=3 mpiexec -n 4 ./tests/test_coll_device
    # strided device matrices with no device buffer to pack them: packed into host memory instead
    step matrix_device_np3 timeout "$test_timeout" mpiexec -n 3 ./tests/test_matrix_device
    if [ -x ./tests/test_blacs_device ]; then # BLACS drop-ins on device arrays, 2 x 2 grid
        step blacs_device timeout "$test_timeout" env ECCL_BCAST_ALGORITHM=binomial ECCL_ALLREDUCE_ALGORITHM=ring \
            ECCL_REDUCE_ALGORITHM=binomial mpiexec -n 4 ./tests/test_blacs_device
        # 2 x 1 grid: a one-process scope (the owner's device-to-device copy only)
        step blacs_device_2x1 timeout "$test_timeout" env ECCL_BCAST_ALGORITHM=scatter_allgather \
            ECCL_ALLREDUCE_ALGORITHM=recursive_doubling ECCL_REDUCE_ALGORITHM=binomial mpiexec -n 2 ./tests/test_blacs_device
        # strided device blocks in chunks (pipeline, ring_pipelined): chunks start inside columns
        step blacs_device_pipeline timeout "$test_timeout" env ECCL_BCAST_ALGORITHM=pipeline ECCL_CHUNKS=3 \
            ECCL_ALLREDUCE_ALGORITHM=ring_pipelined ECCL_REDUCE_ALGORITHM=binomial mpiexec -n 4 ./tests/test_blacs_device
        # ... and in place: device-resident compressed broadcasts and sums never pack a block
        step blacs_device_inplace timeout "$test_timeout" bash -c 'ECCL_DEBUG=2 ECCL_BCAST_ALGORITHM=binomial \
            ECCL_ALLREDUCE_ALGORITHM=ring ECCL_REDUCE_ALGORITHM=binomial mpiexec -n 4 ./tests/test_blacs_device > "$0" 2>&1
            tail -n 1 "$0"; n=$(grep -c "matrix packed" "$0"); echo "$n strided blocks packed"; [ "$n" = 0 ]' \
            "$out/blacs_inplace_debug.txt"
    fi
    if [ -x ./tests/test_fortran_coll ]; then
        step fortran_coll_np3 timeout "$test_timeout" mpiexec -n 3 ./tests/test_fortran_coll
    fi
    if [ -x ./examples/summa ]; then # SUMMA on device arrays (Fortran, cuBLAS) against PDGEMM, within the bound
        step summa_device_np2 timeout "$test_timeout" mpiexec -n 2 ./examples/summa --device \
            --n 700 --k 530 --mb 64 --nb 48 --reps 1
        step summa_device_2x2 timeout "$test_timeout" mpiexec -n 4 ./examples/summa --device \
            --n 300 --mb 32 --nb 24 --order C --reps 1
    fi ;;
esac
case " $what " in *" summabench "*) # SUMMA on device panels, a SUMMA_GRID grid (1x2; 2x2 on four GPUs), one GPU
    # per rank: NVLink/shm, sockets, and sockets over loopback shaped to each rate in SUMMA_LINKS (tc;
    # e.g. "25gbit 10gbit"; a burst of 16 MB, small next to the 0.5 GB of panels, so that the rate
    # holds for the whole run); SUMMA_ARGS adds options (e.g. --lookahead), SUMMA_PLAINS picks the
    # plain baselines (mpi nccl)
    # (SUMMA_NETS="" leaves out the unshaped runs; on a host of fewer GPUs than ranks the ranks share
    # them, and NCCL, which needs a GPU per rank, is left out)
    grid=${SUMMA_GRID:-1x2}; np=$(( ${grid%x*} * ${grid#*x} ))
    plains=${SUMMA_PLAINS:-mpi nccl}; [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge $np ] || plains=mpi
    sockets="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    for n in ${SUMMA_N:-8192 16384}; do
        for plain in $plains; do
            for net in ${SUMMA_NETS-shm socket} ${SUMMA_LINKS:-}; do
                netenv=; [ "$net" = shm ] || netenv=$sockets
                case $net in shm|socket) ;; *) tc qdisc replace dev lo root tbf rate "$net" burst 16mb latency 100ms ;; esac
                step summa_${grid}_${n}_${net}_$plain timeout "${BENCH_TIMEOUT:-600}" env OPENBLAS_NUM_THREADS=$((jobs / np)) \
                    $netenv mpiexec -n $np ./examples/summa --device --n $n --mb ${SUMMA_NB:-256} --nb ${SUMMA_NB:-256} \
                    --grid $grid --matrix kernel --reps ${SUMMA_REPS:-2} --plain $plain ${SUMMA_ARGS:-}
                case $net in shm|socket) ;; *) tc qdisc del dev lo root ;; esac
                grep -E "^(time|panel|worst|floor|eccl panels|eccl panel calls)" "$out/summa_${grid}_${n}_${net}_$plain.log"
            done
        done
    done ;;
esac
case " $what " in *" blacsbench "*) # an unmodified PDGEMM program (examples/pdgemm_plain, host arrays, 2 x 2
    # grid, OPENBLAS threads = cores / 4 per rank) plain and under libeccl_blacs (ECCL_BLACS=abs:1e-6,
    # eccl's cost model deciding), over loopback sockets as is and shaped by tc to each rate of
    # BLACS_LINKS; smooth data (compresses) and random data (does not)
    lib=$PWD/.libs/libeccl_blacs.so
    sockets="MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    thr=$((jobs / 4)); [ $thr -ge 1 ] || thr=1
    for net in ${BLACS_NETS-socket} ${BLACS_LINKS-25gbit}; do
        case $net in socket) ;; *) tc qdisc replace dev lo root tbf rate "$net" burst 16mb latency 100ms ;; esac
        for kind in ${BLACS_KINDS:-smooth random}; do
            for mode in plain eccl; do
                pre=; [ $mode = plain ] || pre="LD_PRELOAD=$lib ECCL_BLACS=abs:1e-6 ECCL_BLACS_REPORT=1"
                step pdgemm_${net}_${kind}_$mode timeout "${BENCH_TIMEOUT:-600}" env OPENBLAS_NUM_THREADS=$thr \
                    OMP_NUM_THREADS=$thr $sockets $pre mpiexec -n 4 ./examples/pdgemm_plain ${BLACS_N:-8192} \
                    ${BLACS_NB:-256} 1e-6 $kind nocheck
                grep -E "took|eccl_blacs" "$out/pdgemm_${net}_${kind}_$mode.log"
            done
        done
        case $net in socket) ;; *) tc qdisc del dev lo root ;; esac
    done ;;
esac
case " $what " in *" hierbench "*) # allreduce on two emulated nodes of HIER_PER ranks: MPICH counts each
    # -hosts entry as a node (shared memory inside, TCP between with UCX_TLS=tcp,self); the TCP link
    # is shaped by tc to each rate of HIER_LINKS ("unshaped" = loopback TCP as is). Host buffers.
    hp=${HIER_PER:-4}
    for net in ${HIER_LINKS-unshaped 25gbit 10gbit}; do
        [ "$net" = unshaped ] || tc qdisc replace dev lo root tbf rate "$net" burst ${HIER_BURST:-2mb} latency 100ms
        step hier_$net timeout "${BENCH_TIMEOUT:-600}" mpiexec -launcher fork -hosts 127.0.0.1:$hp,localhost:$hp \
            -n $((2 * hp)) env UCX_TLS=tcp,self ECCL_DEBUG=${HIER_DEBUG:-0} ./bench/bench_coll --coll allreduce \
            --algorithm ${HIER_ALGOS:-mpi,ring,recursive_doubling,rabenseifner,hierarchical,auto} --min ${HIER_SIZE:-64M} \
            --max ${HIER_SIZE:-64M} --bound abs:1e-4 --iters ${HIER_ITERS:-3}
        [ "$net" = unshaped ] || tc qdisc del dev lo root
    done ;;
esac
case " $what " in *" hierdevbench "*) # the hierarchical allreduce on device buffers: two nodes of HIERDEV_PER
    # ranks made by ECCL_NODE_SIZE (sharing this host's GPUs), node steps through CUDA IPC windows
    # vs staged through the host (ECCL_NODE_IPC=0), alternated; the flat ring alongside
    hp=${HIERDEV_PER:-2}
    for rep in 1 2; do
        for ipc in 1 0; do
            step hierdev_ipc${ipc}_$rep timeout "${BENCH_TIMEOUT:-600}" env ECCL_NODE_SIZE=$hp ECCL_NODE_IPC=$ipc \
                mpiexec -n $((2 * hp)) ./bench/bench_device --colls allreduce --mib ${HIERDEV_MIB:-64,256} \
                --iters ${HIERDEV_ITERS:-5} --allreduce-algorithms ${HIERDEV_ALGS:-hierarchical,ring}
            grep -E "^(#|coll|allreduce)" "$out/hierdev_ipc${ipc}_$rep.log" | sed "s/^/[ipc=$ipc] /"
        done
    done ;;
esac
case " $what " in *" devbench "*|*" all "*) # two ranks, one GPU each: shared memory/NVLink, then sockets
    db_args="--mib ${DEVBENCH_MIB:-64,256,1024} --iters ${DEVBENCH_ITERS:-5}"
    db_args+=" --allreduce-algorithms ${DEVBENCH_AR_ALGS:-ring,ring_pipelined} --bcast-algorithms ${DEVBENCH_BC_ALGS:-binomial,pipeline}"
    step bench_device timeout "${BENCH_TIMEOUT:-600}" mpiexec -n 2 ./bench/bench_device $db_args
    step bench_device_socket timeout "${BENCH_TIMEOUT:-600}" env NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 \
        NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self mpiexec -n 2 ./bench/bench_device $db_args
    # eccl's streams over MPI (TCP) instead of NCCL's sockets
    # float64 (the ScaLAPACK type) over sockets: no GPU homomorphic kernel for it yet
    step bench_device_socket_f64 timeout "${BENCH_TIMEOUT:-600}" env NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 \
        NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self mpiexec -n 2 ./bench/bench_device --dtype float64 \
        --mib ${DEVBENCH_F64_MIB:-256} --iters 3
    step bench_device_socket_mpi timeout "${BENCH_TIMEOUT:-600}" env ECCL_TRANSPORT=mpi NCCL_P2P_DISABLE=1 \
        NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self mpiexec -n 2 ./bench/bench_device \
        --mib 256,1024 --iters 3 ;;
esac
case " $what " in *" x2bench "*) # a host of two GPUs, one rank each (doc/performance.md section 11):
    # against NCCL over sockets (256 MiB and 1 GiB allreduce, 256 MiB bcast), then over NVLink
    sock="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    step x2_socket_256 timeout "${BENCH_TIMEOUT:-600}" env $sock mpiexec -n 2 ./bench/bench_device --colls allreduce,bcast \
        --mib 256 --iters 3 --allreduce-algorithms ring,ring_pipelined --bcast-algorithms binomial,pipeline
    step x2_socket_1024 timeout "${BENCH_TIMEOUT:-600}" env $sock mpiexec -n 2 ./bench/bench_device --colls allreduce \
        --mib 1024 --iters 3 --allreduce-algorithms ring_pipelined
    step x2_nvlink_256 timeout "${BENCH_TIMEOUT:-600}" mpiexec -n 2 ./bench/bench_device --colls allreduce --mib 256 \
        --iters 3 --allreduce-algorithms ring_pipelined
    for f in x2_socket_256 x2_socket_1024 x2_nvlink_256; do echo "== $f"; grep -E "^(#|coll|allreduce|bcast)" "$out/$f.log"; done ;;
esac
case " $what " in *" fmt2bench "*) # two GPUs, one rank each: the collectives writing format version 1
    # and 2 (ECCL_FORMAT) against NCCL, smooth data, over sockets (float64 and float32) and NVLink
    sock="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    for dt in float64 float32; do for v in 1 2; do
        step fmt${v}_socket_$dt timeout "${BENCH_TIMEOUT:-600}" env $sock ECCL_FORMAT=$v mpiexec -n 2 ./bench/bench_device \
            --colls allreduce,bcast --mib 256 --iters 3 --dtype $dt --allreduce-algorithms ring_pipelined \
            --bcast-algorithms pipeline
    done; done
    for v in 1 2; do
        step fmt${v}_nvlink_float64 timeout "${BENCH_TIMEOUT:-600}" env ECCL_FORMAT=$v mpiexec -n 2 ./bench/bench_device \
            --colls allreduce,bcast --mib 256 --iters 3 --dtype float64 --allreduce-algorithms ring_pipelined \
            --bcast-algorithms pipeline
    done
    for f in fmt1_socket_float64 fmt2_socket_float64 fmt1_socket_float32 fmt2_socket_float32 fmt1_nvlink_float64 \
        fmt2_nvlink_float64; do echo "== $f"; grep -E "^(#|coll|allreduce|bcast)" "$out/$f.log"; done ;;
esac
case " $what " in *" x2bcastauto "*) # two GPUs over NVLink: what auto picks for a broadcast (the binomial
    # one with device streams priced without PCIe crossings, doc/performance.md section 21) against
    # the binomial one forced and NCCL's own broadcast (the NCCL column), float32 and float64; with
    # X2B_OLD=1 also a build of the model as it was before (../build-old-model): C flags
    # X2B_OLD_FLAGS, by default -DECCL_MDL_HOP_MEASURED=0 (a device-stream hop priced as NCCL's link
    # and an MPI message; -DECCL_MDL_DEV_STREAMS=0: device streams priced as staged ones), and nvcc
    # flags X2B_OLD_NVCCFLAGS (none by default)
    builds=". "
    if [ "${X2B_OLD:-0}" = 1 ]; then
        step build_old_model bash -c 'mkdir -p ../build-old-model && cd ../build-old-model &&
            ../configure CC=mpicc FC=mpifort --with-cuda --with-cuda-arch="${CUDA_ARCH:-90}" \
                CFLAGS="-O2 -g '"${X2B_OLD_FLAGS:--DECCL_MDL_HOP_MEASURED=0}"'" > /dev/null &&
            make -j'"$jobs"' NVCCFLAGS="'"${X2B_OLD_NVCCFLAGS:-}"'" > /dev/null && make -j'"$jobs"' bench/bench_device > /dev/null'
        builds=". ../build-old-model"
    fi
    for b in $builds; do
        tag=$([ "$b" = . ] && echo new || echo old)
        for dt in float32 float64; do # (ECCL_DEBUG=1: the cost model's calibration, printed at the first call)
            step x2_bcast_auto_${tag}_$dt timeout "${BENCH_TIMEOUT:-600}" env ECCL_DEBUG=1 mpiexec -n 2 $b/bench/bench_device \
                --colls bcast --dtype $dt --mib 4,16,64,256,1024 --iters 5 --bcast-algorithms auto,binomial
        done
    done
    for f in "$out"/x2_bcast_auto_*.log; do echo "== $(basename $f .log)"
        grep -E "^(#|coll|bcast)|eccl 0\] (GPU codec measured|NCCL link|NCCL device-stream hop)" "$f"; done ;;
esac
case " $what " in *" x2autovsnccl "*) # two GPUs over NVLink: auto against NCCL for the allreduce and the
    # broadcast (issue 19's "auto never loses to NCCL by more than 5%"; doc/performance.md sections 25, 29)
    for dt in float32 float64; do
        step x2_auto_vs_nccl_$dt timeout "${BENCH_TIMEOUT:-600}" env ECCL_DEBUG=1 mpiexec -n 2 ./bench/bench_device \
            --colls allreduce,bcast --dtype $dt --mib 16,64,256 --iters 9 --allreduce-algorithms auto,nccl \
            --bcast-algorithms auto,nccl ${X2AUTO_ARGS:-}
        grep -E "^(coll|allreduce|bcast|# breakdown)|GPU codec measured" "$out/x2_auto_vs_nccl_$dt.log" | grep -v "eccl 1\]"
    done ;;
esac
case " $what " in *" x2sweep "*) # two GPUs, one rank each: time against size (SWEEP_MIB) of eccl-auto blocking,
    # nonblocking (progress thread) and stream-enqueued, NCCL and host-staged MPI, each result checked
    # against the bound; over NVLink, over sockets on loopback, and over sockets shaped to each rate in
    # SWEEP_LINKS (tc, as summabench); SWEEP_DTYPES, SWEEP_NETS pick; SWEEP_TAG names the logs of a
    # variant, SWEEP_MODES replaces --modes' list (e.g. nonblocking,enqueued-event) (bench/results/modes_plot.gp)
    tag=${SWEEP_TAG:+_$SWEEP_TAG}
    sockets="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    for dt in ${SWEEP_DTYPES:-float32}; do
        for net in ${SWEEP_NETS-nvlink socket} ${SWEEP_LINKS-25gbit}; do
            netenv=; [ "$net" = nvlink ] || netenv=$sockets
            case $net in nvlink|socket) ;; *) tc qdisc replace dev lo root tbf rate "$net" burst 16mb latency 100ms ;; esac
            step sweep_${net}_$dt$tag timeout "${BENCH_TIMEOUT:-600}" env $netenv mpiexec -n 2 ./bench/bench_device \
                --colls allreduce,bcast --dtype $dt --mib ${SWEEP_MIB:-1,4,16,64,256,1024} --iters ${SWEEP_ITERS:-5} \
                --allreduce-algorithms ring_pipelined --bcast-algorithms pipeline --modes ${SWEEP_MODES:-nonblocking,enqueued}
            case $net in nvlink|socket) ;; *) tc qdisc del dev lo root ;; esac
            grep -E "^(# bound|modes)" "$out/sweep_${net}_$dt$tag.log" | sed "s/^/$net $dt$tag: /"
        done
    done ;;
esac
case " $what " in *" devops "*) # issue 19, item 4: each device-resident operation's time, host waits
    # included (bench_dev_ops), float32 and float64; DEVOPS_AB=1 also builds the library with the
    # build knobs of DEVOPS_FLAGS (default -DECCL_DEV_FETCH=0, the one-wait fetch off) in build-old,
    # and runs the two in alternation, then bench_cuda_codec's smooth float32 row at 256 MiB in each
    # (the knobs go to nvcc as NVCCFLAGS, and to the C compiler as CPPFLAGS, which nvcc does not see),
    # and the small-stream rows of bench_cuda_codec (1 and 4 MiB, every dataset) in each
    ab=${DEVOPS_AB:-0}; flags=${DEVOPS_FLAGS:--DECCL_DEV_FETCH=0}
    if [ "$ab" = 1 ]; then
        step build_old bash -c 'mkdir -p ../build-old && cd ../build-old && ../configure CC=mpicc FC=mpifort --with-cuda \
            --with-cuda-arch="${CUDA_ARCH:-90}" CPPFLAGS="$1" > /dev/null && make -j"$0" NVCCFLAGS="$1" bench/bench_dev_ops \
            bench/bench_cuda_codec > /dev/null' "$jobs" "$flags"
    fi
    for round in 1 2; do
        for dt in float32 float64; do
            step dev_ops_${dt}_$round timeout 120 ./bench/bench_dev_ops --dtype $dt
            echo "== this build, $dt, round $round"; cat "$out/dev_ops_${dt}_$round.log"
            if [ "$ab" = 1 ]; then
                step dev_ops_old_${dt}_$round timeout 120 ../build-old/bench/bench_dev_ops --dtype $dt
                echo "== $flags, $dt, round $round"; cat "$out/dev_ops_old_${dt}_$round.log"
            fi
        done
    done
    if [ "$ab" = 1 ]; then
        for b in . ../build-old . ../build-old; do
            echo "== bench_cuda_codec, $b"
            timeout 300 $b/bench/bench_cuda_codec --mib 256 --small-kib 1024 --iters 3 --datasets sin | grep -E "^sin|identical|MISMATCH"
        done
        # streams of no more tiles than SMs (4 MiB float32 is 128 tiles; 1 MiB float64 is 16), where
        # a tile's latency is the kernel's: every dataset, both formats, both types
        for b in . ../build-old . ../build-old; do
            for args in "--dtype float32" "--dtype float32 --format 2" "--dtype float64" "--dtype float64 --format 2"; do
                echo "== small streams, $b, $args"
                timeout 120 $b/bench/bench_cuda_codec --mib 4 --small-kib 1024 --iters 20 $args | grep -E "B ABS|B REL|identical|MISMATCH|violat"
            done
        done
    fi ;;
esac
case " $what " in *" issue21 "*) # issue 21's table: every row at 1 GiB (I21_MIB), formats I21_FORMATS (default 1 2),
    # bench_cuda_codec beside the peers' figures (bench/peers.h); the real fields as raw files in
    # I21_FIELDS (default ../.fields: `python3 bench/ncarg_raw.py .fields` on a machine with
    # libncarg-data and python3-netcdf4, then name .fields in the device call's carry)
    fields=${I21_FIELDS:-../.fields}; i21="--mib ${I21_MIB:-1024} --iters ${I21_ITERS:-5} --rel 0 --panels 0"
    for v in ${I21_FORMATS:-1 2}; do
        step i21_f32_fmt$v timeout 300 ./bench/bench_cuda_codec $i21 --format $v --datasets sin,walk,normal
        step i21_f64_fmt$v timeout 300 ./bench/bench_cuda_codec $i21 --format $v --dtype float64 --abs 1e-6 --datasets sin
        for r in "trinidad.f32 1e-4" "trinidad.f32 1e-2" "hgt.f32 1e-4" "vinth2p_T.f64 1e-6"; do
            set -- $r; dt=float32; case $1 in *.f64) dt=float64 ;; esac
            if [ -f "$fields/$1" ]; then
                step i21_${1%.*}_$2_fmt$v timeout 300 ./bench/bench_cuda_codec $i21 --format $v --dtype $dt --abs $2 \
                    --raw "$fields/$1" --datasets raw
            else echo "issue21: no $fields/$1 (bench/ncarg_raw.py makes it): row skipped"; fi
        done
        echo "== issue 21's rows, format $v"
        for f in "$out"/i21_*fmt$v.log; do sed -n '/^issue 21.s rows/,$p' "$f" | grep -E "^(sin|random|normal|trinidad|hgt|vinth2p)"; done
        grep -h -E "MISMATCH|NO$" "$out"/i21_*fmt$v.log
    done ;;
esac
case " $what " in *" ab "*) # the GPU codec against older trees, on the same GPU in the same call. Each
    # tree is a folder .ab/NAME at the repository root, made on the dev machine with
    #   mkdir -p .ab/NAME && git archive REV -- . ':!bench/results' | tar x -C .ab/NAME
    # (whole trees: automake needs doc/), named in the device call's carry (.ab is ignored). Each
    # gets its library and bench_cuda_codec built; then AB_ROUNDS rounds (default 2) run
    # bench_cuda_codec AB_ARGS --format V for each V of AB_FORMATS (default 1) on this tree and
    # every older one in turn, and the rows of each tree are printed together at the end.
    # AB_RAW: one more dataset (default ../.fields/trinidad.f32 where it exists), given as --raw
    # with --datasets normal,raw unless AB_ARGS names datasets.
    ab_args=${AB_ARGS:---mib 1024 --iters 5 --rel 0 --panels 0}
    ab_raw=${AB_RAW:-../.fields/trinidad.f32}
    if [ -f "$ab_raw" ]; then
        ab_raw=$(cd "$(dirname "$ab_raw")" && pwd)/$(basename "$ab_raw")
        case " $ab_args " in *" --datasets "*) ;; *) ab_args="$ab_args --raw $ab_raw --datasets normal,raw" ;; esac
    fi
    ab_trees=("this:$PWD")
    for d in ../.ab/*/; do
        [ -d "$d" ] || continue
        n=$(basename "$d") d=$(cd "$d" && pwd)
        step "ab_build_$n" bash -c "cd '$d' && ./autogen.sh > /dev/null && mkdir -p build-gpu && cd build-gpu &&
            ../configure -q CC=mpicc FC=mpifort --with-cuda --with-cuda-arch=${CUDA_ARCH:-90} &&
            make -j$jobs bench/bench_cuda_codec" &&
            [ -x "$d/build-gpu/bench/bench_cuda_codec" ] && ab_trees+=("$n:$d/build-gpu")
    done
    [ ${#ab_trees[@]} -gt 1 ] || echo "ab: no older tree under .ab/ built: only this tree's rows"
    for r in $(seq 1 "${AB_ROUNDS:-2}"); do
        for v in ${AB_FORMATS:-1}; do
            for t in "${ab_trees[@]}"; do
                step "ab_${t%%:*}_f${v}_$r" timeout "${BENCH_TIMEOUT:-300}" "${t#*:}/bench/bench_cuda_codec" $ab_args --format "$v"
            done
        done
    done
    echo "== ab: bench_cuda_codec $ab_args --format (${AB_FORMATS:-1}): each tree's rows, round by round"
    for v in ${AB_FORMATS:-1}; do
        for t in "${ab_trees[@]}"; do
            for f in "$out/ab_${t%%:*}_f${v}"_[0-9]*.log; do
                [ -f "$f" ] && sed -n '/^dataset/,/^$/p' "$f" | grep -v -e '^dataset' -e '^$' | sed "s|^|$(basename "$f" .log)  |"
            done
        done
    done ;;
esac
case " $what " in *" peers "*) # issue 21's table re-measured on this GPU: eccl (bench_cuda_codec) beside the peer
    # codecs cuSZp (outlier), FSZ and PFPL (sm_90 binaries in ../.peers/bin: name .peers in the carry)
    # on the same 1 GiB arrays (PEER_MIB), every reconstruction checked in long double; the table
    # also in $out/peers/table.txt (bench/peers.sh: PEER_ROWS, PEERS, PEER_TIMEOUT per codec and row)
    step peers timeout "${PEERS_TIMEOUT:-570}" env PEER_LOGS="$out/peers" bash ../bench/peers.sh .
    echo "== peers table"; cat "$out/peers/table.txt" 2>/dev/null ;;
esac
case " $what " in *" x4bench "*) # four GPUs, one rank each, over sockets on loopback (issue 19's 4-GPU rows):
    # allreduce and bcast of smooth float32, `auto` and the pipelined algorithm forced, in each stream
    # format of X4_FORMATS (1 2), NCCL and MPI in the same run
    sock="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    for v in ${X4_FORMATS:-1 2}; do
        step x4_socket_fmt$v timeout "${BENCH_TIMEOUT:-600}" env $sock ECCL_FORMAT=$v mpiexec -n 4 ./bench/bench_device \
            --colls allreduce,bcast --mib "${X4_MIB:-256,1024}" --iters 3 --allreduce-algorithms auto,ring_pipelined \
            --bcast-algorithms auto,pipeline
        echo "== x4 sockets, format $v"; grep -E "^(#|coll|allreduce|bcast)" "$out/x4_socket_fmt$v.log"
    done ;;
esac
case " $what " in *" x2chunks "*) # two GPUs over sockets: the pipelined ring's chunks per piece, each count of
    # CHUNK_LIST in turn (auto: the cost model's choice; repeats allowed) at X2C_MIB (256) MiB, under
    # ECCL_DEBUG=2 (the model's figures and its choice)
    sock="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self"
    i=0
    for k in ${CHUNK_LIST:-auto 2 4 8 16 32 64}; do
        i=$((i + 1)); kenv=ECCL_CHUNKS=$k; [ "$k" = auto ] && kenv=ECCL_CHUNKS=0
        step x2_chunks_${i}_$k timeout "${BENCH_TIMEOUT:-300}" env $sock $kenv ECCL_DEBUG=2 mpiexec -n 2 ./bench/bench_device \
            --colls allreduce --mib "${X2C_MIB:-256}" --iters 3 --allreduce-algorithms ring_pipelined
        echo "== chunks $k"
        grep -hE "^allreduce|chunks of up to|measured|link|comm created|model predicts" "$out/x2_chunks_${i}_$k.log" | sed 's/^\[eccl [0-9]*\] //' | sort | uniq -c
    done ;;
esac
case " $what " in *" bench "*|*" all "*)
    step bench_cuda_codec timeout "${BENCH_TIMEOUT:-600}" ./bench/bench_cuda_codec --mib "${BENCH_MIB:-1024}" --small-kib 1024 --iters 10
    step bench_cuda_codec_f64 timeout "${BENCH_TIMEOUT:-600}" ./bench/bench_cuda_codec --dtype float64 --mib "${BENCH_MIB:-1024}" \
        --small-kib 1024 --iters 10 ;;
esac
case " $what " in *" variants "*) # kernel experiments: each entry of KVARIANTS (';'-separated NVCCFLAGS,
    # e.g. "-DECCL_C32_MINB=4;-DECCL_C32_MINB=4 -DECCL_C32_OVERLAY=1") rebuilds the kernels of
    # KVARIANT_FILES and runs bench_cuda_codec (which checks every stream against the CPU codec;
    # BENCH_ARGS adds options, e.g. "--dtype float64")
    IFS=';' read -r -a kv <<< "${KVARIANTS:-}"
    for i in "${!kv[@]}"; do
        for f in ${KVARIANT_FILES:-compress32}; do rm -f cuda/$f.lo cuda/.libs/$f.o cuda/$f.o; done
        step variant_$i bash -c 'make -j'"$jobs"' NVCCFLAGS="$0" bench/bench_cuda_codec tests/test_cuda_codec >> "$1" 2>&1 &&
            timeout "$2" ./bench/bench_cuda_codec --mib "${BENCH_MIB:-1024}" --small-kib 1024 --iters 10 ${BENCH_ARGS:-} >> "$1" 2>&1 &&
            ECCL_TEST_QUICK=1 timeout "$3" ./tests/test_cuda_codec 2>&1 | tail -n 1 >> "$1"' \
            "${kv[$i]}" "$out/variant_$i.log.tmp" "${BENCH_TIMEOUT:-300}" "$test_timeout"
        # (the step's own output went to variant_$i.log: the variant's name first, then the runs)
        { echo "variant $i: ${kv[$i]}"; cat "$out/variant_$i.log" "$out/variant_$i.log.tmp"; } > "$out/variant_$i.log.new"
        mv "$out/variant_$i.log.new" "$out/variant_$i.log"; rm -f "$out/variant_$i.log.tmp"
    done
    for f in ${KVARIANT_FILES:-compress32}; do rm -f cuda/$f.lo cuda/.libs/$f.o cuda/$f.o; done
    make -j"$jobs" bench/bench_cuda_codec > /dev/null 2>&1 ;; # back to the default build
esac
case " $what " in *" profile "*) # Nsight Compute on each float32 kernel (256 MiB smooth field; PROF_KERNELS
    # and PROF_ARGS pick others, e.g. "compress decompress hom64" and "--dtype float64"): the key
    # figures, the top warp stall reasons and source lines, one block per kernel (reports: /tmp/prof_*.ncu-rep)
    ncu=$(ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
    for k in ${PROF_KERNELS:-compress32 decompress hom32}; do
        step profile_$k "$ncu" --section SpeedOfLight --section Occupancy --section LaunchStats \
            --section WarpStateStats --section MemoryWorkloadAnalysis --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio \
            --section SourceCounters --import-source yes \
            -k regex:"eccl_${k}_kernel" --launch-skip 1 --launch-count 1 -f -o "/tmp/prof_$k" \
            ./bench/bench_cuda_codec --mib ${PROF_MIB:-256} --small-kib 1024 --iters 1 ${PROF_ARGS:-}
        "$ncu" -i "/tmp/prof_$k.ncu-rep" --page details > "$out/prof_$k.txt" 2>&1
        "$ncu" -i "/tmp/prof_$k.ncu-rep" --page raw --csv > "/tmp/prof_${k}_raw.csv" 2>&1
        # per source line (build with NVCCFLAGS=-lineinfo): the lines with the most stall samples
        "$ncu" -i "/tmp/prof_$k.ncu-rep" --page source --csv --print-source cuda,sass > "/tmp/prof_${k}_src.csv" 2>&1
        python3 - "/tmp/prof_${k}_src.csv" > "$out/prof_${k}_lines.txt" 2>&1 <<'PY'
import csv, sys
# sections per source file ("File Path", path), then rows: line, source, address, SASS, stall
# samples (all), (not issued), # samples, instructions executed, ...; a source row carries its line
f, hdr, agg = None, None, {}
for r in csv.reader(open(sys.argv[1], errors='replace')):
    if len(r) >= 2 and r[0] == 'File Path': f = r[1].split('/')[-1]; continue
    if r and r[0] == 'Line No': hdr = r; continue
    if not hdr or len(r) < 8 or not r[0]: continue
    try: smp, ins = float(r[4] or 0), float(r[7] or 0)
    except ValueError: continue
    a = agg.setdefault((f, int(r[0])), [0.0, 0.0, r[1].strip()[:80]]); a[0] += smp; a[1] += ins
ts = sum(a[0] for a in agg.values()) or 1; ti = sum(a[1] for a in agg.values()) or 1
print('source lines %d, stall samples %d, warp instructions %d' % (len(agg), ts, ti))
for (fn, ln), a in sorted(agg.items(), key=lambda x: -x[1][0])[:25]:
    print('%5.1f%% samples %5.1f%% instr  %s:%d  %s' % (100 * a[0] / ts, 100 * a[1] / ti, fn, ln, a[2]))
PY
    done ;;
esac
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
echo
for l in "${summary[@]}"; do echo "$l"; done
for f in test_cuda_codec_quick coll_device_np1 coll_device_np2 coll_device_np3 coll_device_chunks corrupt_device_chunks coll_device_hier_np4 ipc_refused_hier stream_device stream_device_staged coll_device_nccl corrupt_device_nccl coll_device_mpi coll_device_staged corrupt_device_f32 corrupt_device_f64 blacs_device blacs_device_2x1 blacs_device_pipeline blacs_device_inplace fortran_coll_np3 gpu_codec_measured; do [ -f "$out/$f.log" ] && tail -n 1 "$out/$f.log"; done
[ -f "$out/ipc_refused_hier.log" ] && grep -h "refused IPC" "$out/ipc_refused_hier.log"
for f in summa_device_np2 summa_device_2x2; do [ -f "$out/$f.log" ] && grep "bound  *[0-9.]*  *[A-Z]" "$out/$f.log"; done
for f in "$out"/summa_[0-9]*.log; do [ -f "$f" ] && { echo "== $(basename "$f" .log)"; grep -E "^(time|panel|worst)" "$f"; }; done
for k in ${PROF_KERNELS:-compress32 decompress hom32}; do f=$out/prof_$k.txt; [ -f "$f" ] || continue; echo "== profile $k"
    grep -E "^ +(Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued Instruction|Dynamic Shared Memory Per Block|Block Limit Shared Mem|Block Limit Registers|Executed Ipc Active|Issue Slots Busy)" "$f" | sed 's/  */ /g' | sort -u
    python3 - "/tmp/prof_${k}_raw.csv" <<'PY' 2>/dev/null
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h, v = rows[0], rows[-1]
st = [(float(v[i].replace(',', '')), h[i].split('stalled_')[1].split('_per')[0]) for i in range(len(h))
      if h[i].endswith('_per_issue_active.ratio') and 'issue_stalled' in h[i] and v[i].replace(',', '').replace('.', '', 1).isdigit()]
print(' stalls per issued instr:', ', '.join('%s %.2f' % (n, x) for x, n in sorted(st, reverse=True)[:7]))
PY
    [ -f "$out/prof_${k}_lines.txt" ] && head -30 "$out/prof_${k}_lines.txt"
done
for f in bench_quick bench_cuda_codec bench_cuda_codec_f64; do [ -f "$out/$f.log" ] && tail -14 "$out/$f.log"; done
for f in "$out"/variant_*.log; do [ -f "$f" ] && { head -1 "$f"; grep -v eccl-phase "$f" | grep -A 12 "^dataset"; grep "checks" "$f"
    # a -DECCL_PHASE_TIMING build: the mean SM cycles per tile of each phase, per kernel and launch size
    grep -q eccl-phase "$f" && python3 - "$f" <<'PY'
import re, sys
acc = {}
for l in open(sys.argv[1], errors='replace'):
    m = re.search(r'eccl-phase (\S+) tiles (\d+) cycles/tile: (.*)', l)
    if not m: continue
    names = re.findall(r'([a-z+/-]+) ([0-9.]+)', m.group(3))
    a = acc.setdefault((m.group(1), int(m.group(2))), [0, [0.0] * len(names), [n for n, _ in names]])
    a[0] += 1
    for i, (_, v) in enumerate(names): a[1][i] += float(v)
for (k, nt), (c, s, n) in sorted(acc.items()):
    if nt < 32: continue
    print('phase %-10s tiles %6d (%3d launches): ' % (k, nt, c) + ' '.join('%s %.0f' % (n[i], s[i] / c) for i in range(len(n))))
PY
}; done
for f in "$out"/hier_*.log; do [ -f "$f" ] && { echo "== $(basename "$f" .log)"; grep -v "^\[eccl" "$f" | grep -v "^$" | tail -9; }; done
for f in bench_device bench_device_socket bench_device_socket_f64 bench_device_socket_mpi; do [ -f "$out/$f.log" ] && { echo "== $f"; grep -v "^$" "$out/$f.log" | tail -12; }; done
