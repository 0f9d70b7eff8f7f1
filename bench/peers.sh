#!/bin/bash
# peers.sh [BUILD] - issue 21's table, "the codec against its peers", measured on this GPU: eccl
# (bench/bench_cuda_codec) and the peer GPU codecs cuSZp (outlier mode), FSZ and PFPL on the same
# arrays, every reconstruction checked element by element in long double (tests/cmp_raw.c).
#
#   BUILD  an eccl build tree with bench/bench_cuda_codec (default: $ECCL_BUILD, else ./build-gpu)
#
# 1. bench_cuda_codec --dump writes each row's array (PEER_MIB MiB, default 1024: the generated
#    fields, and the real fields of bench/ncarg_raw.py in PEER_FIELDS (.fields) tiled to the size)
#    into PEER_DATA (/tmp/peerdata);
# 2. each codec of PEERS ("eccl cuszp fsz pfpl") runs each row at its ABS bound under a limit of
#    PEER_TIMEOUT seconds (150): eccl through bench_cuda_codec (its own timing: median of 5 runs of
#    PEER_RUNS back-to-back calls, every value checked there), the peers through the binaries in
#    PEERS_DIR/bin (.peers/bin, built by bench/peers/build.sh): cuSZp and FSZ by bench/peers/peerbench.cu
#    (their device APIs, cudaEvents around each call, median of PEER_RUNS (10) calls), PFPL by its
#    own CLIs (compress, then decompress the file; cudaEvents, median of its 9 runs);
# 3. each peer's reconstruction is compared with the array by cmp_raw (ABS bound, long double);
# 4. one table: row, codec, ratio, GB/s (uncompressed bytes per second of device time) compressing
#    and decompressing, values outside the bound, max error / bound. A codec that fails or runs out
#    of time on a row gets a line that says so; the others go on (exit status 1 at the end).
#
# PEER_ECCL_ARGS: more options for bench_cuda_codec (e.g. "--format 2").
# PEER_ROWS: the rows to run, by name (default all: sin32 walk32 normal32 trinidad32 trinidad32e2
# hgt32 sin64 vinth2p64). Logs and table.txt in PEER_LOGS (default $OUT/peers or ./gpu-logs/peers).
# `bash bench/gpu_host.sh peers` runs it after its build step.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${ECCL_BUILD:-$root/build-gpu}}" 2>/dev/null && pwd) || { echo "peers: no build tree ${1:-${ECCL_BUILD:-$root/build-gpu}}"; exit 2; }
peers_dir=${PEERS_DIR:-$root/.peers}
fields=${PEER_FIELDS:-$root/.fields}
data=${PEER_DATA:-/tmp/peerdata}
mib=${PEER_MIB:-1024}
runs=${PEER_RUNS:-10}
limit=${PEER_TIMEOUT:-150}
codecs=${PEERS:-eccl cuszp fsz pfpl}
logs=${PEER_LOGS:-${OUT:-$PWD/gpu-logs}/peers}
bin=$peers_dir/bin
mkdir -p "$data" "$logs" || exit 2

# name file dtype eb source (gen: bench_cuda_codec's generator; else the raw field in $fields)
all_rows="sin32 sin.f32 f32 1e-4 gen
walk32 walk.f32 f32 1e-4 gen
normal32 normal.f32 f32 1e-4 gen
trinidad32 trinidad.f32 f32 1e-4 trinidad.f32
trinidad32e2 trinidad.f32 f32 1e-2 trinidad.f32
hgt32 hgt.f32 f32 1e-4 hgt.f32
sin64 sin.f64 f64 1e-6 gen
vinth2p64 vinth2p_T.f64 f64 1e-6 vinth2p_T.f64"
want() { [ -z "${PEER_ROWS:-}" ] || case " $PEER_ROWS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

bcc=$build/bench/bench_cuda_codec
cmp=$data/cmp_raw
${CC_HOST:-cc} -O2 -o "$cmp" "$root/tests/cmp_raw.c" -lm || { echo "peers: cannot build cmp_raw"; exit 2; }
echo "peer commits (bench/peers/COMMITS; the sources in $peers_dir/src are meant to be these):"
sed 's/^/  /' "$root/bench/peers/COMMITS"
[ -f "$peers_dir/COMMITS" ] && { echo "recorded with the sources:"; sed 's/^/  /' "$peers_dir/COMMITS"; }

# 1. the arrays
t0=$SECONDS
dumped=" "
while read -r name file dt eb src; do
    want "$name" || continue
    case "$dumped" in *" $file "*) continue ;; esac
    dtype=float32; [ "$dt" = f64 ] && dtype=float64
    if [ "$src" = gen ]; then args=(--datasets "${file%.*}")
    elif [ -f "$fields/$src" ]; then args=(--raw "$fields/$src" --datasets raw)
    else echo "peers: no $fields/$src (bench/ncarg_raw.py makes it): row $name skipped"; continue; fi
    # shellcheck disable=SC2015
    timeout "$limit" "$bcc" --mib "$mib" --dtype "$dtype" --dump "$data" "${args[@]}" >> "$logs/dump.log" 2>&1 &&
        [ -f "$data/$file" ] || { echo "peers: dump of $file failed (see $logs/dump.log)"; continue; }
    dumped="$dumped$file "
done <<< "$all_rows"
echo "arrays in $data ($((SECONDS - t0)) s):$dumped"

# 2.-3. each codec on each row; one line of the table per run
table=$logs/table.txt
printf '%-13s %-6s %-5s %-6s %8s %10s %10s %12s %10s  %s\n' row codec dtype ABS ratio "comp GB/s" "dec GB/s" violations maxerr/eb note > "$table"
line() { printf '%-13s %-6s %-5s %-6s %8s %10s %10s %12s %10s  %s\n' "$@" >> "$table"; tail -n 1 "$table"; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
gbs() { awk -v b="$1" -v s="$2" 'BEGIN {if (s > 0) printf "%.1f", b / s / 1e9; else print "-"}'; }
why() { { grep -m 1 -i -E "error|fail|usage" "$1" || grep -v '^\s*$' "$1" | tail -n 1; } | cut -c1-70; }
# check REC against ORIG: sets viol and merr (max error / eb)
check() {
    local out
    out=$("$cmp" "$1" "$2" "$3" "$4" 2>&1)
    viol=$(sed -n 's/.*violations=\([0-9]*\).*/\1/p' <<< "$out")
    merr=$(sed -n 's/.*max_error=\([^ ]*\).*/\1/p' <<< "$out" | awk -v e="$4" '{printf "%.4g", $1 / e}')
    [ -n "$viol" ] || { viol="check failed"; merr=-; echo "$out" >> "$logs/check.log"; }
}
run_eccl() { # name file dt eb src
    local log=$logs/eccl_$1.log dtype=float32 args
    [ "$3" = f64 ] && dtype=float64
    if [ "$5" = gen ]; then args=(--datasets "${2%.*}"); else args=(--raw "$fields/$5" --datasets raw); fi
    # shellcheck disable=SC2086
    timeout "$limit" "$bcc" --mib "$mib" --small-kib 4 --iters "$runs" --rel 0 --panels 0 --dtype "$dtype" --abs "$4" \
        "${args[@]}" ${PEER_ECCL_ARGS:-} > "$log" 2>&1
    local rc=$?
    # the first ABS row after the header: the full size (columns after the 26 of the name: size
    # (number, unit), bound (ABS, value), ratio, comp, dec, hom, maxerr/eb, =CPU)
    local r
    r=$(awk '/^dataset/ {h = 1; next} h && substr($0, 27) ~ / ABS / {print substr($0, 27); exit}' "$log")
    if [ -z "$r" ]; then line "$1" eccl "$3" "$4" - - - - - "FAILED (rc $rc, no figures; see eccl_$1.log)"; return; fi
    # shellcheck disable=SC2086
    set -- "$1" "$3" "$4" $r # name dt eb, then: size unit ABS bound ratio comp dec hom maxerr/eb =CPU
    local note="hom ${11} GB/s, =CPU ${13}"
    [ "$rc" = 0 ] || note="$note, rc $rc (see eccl_$1.log)"
    line "$1" eccl "$2" "$3" "$8" "$9" "${10}" "-" "${12}" "$note"
}
run_peerbench() { # codec name file dt eb
    local c=$1 log=$logs/$1_$2.log rec=$data/rec.$1.$3
    [ -x "$bin/peerbench_$c" ] || { line "$2" "$c" "$4" "$5" n/a n/a n/a n/a n/a "no $bin/peerbench_$c"; return; }
    rm -f "$rec"
    timeout "$limit" "$bin/peerbench_$c" "$data/$3" "$rec" "$4" "$5" "$runs" > "$log" 2>&1
    local rc=$? r
    r=$(grep '^PEER ' "$log" | tail -n 1)
    if [ "$rc" != 0 ] || [ -z "$r" ]; then
        [ "$rc" = 124 ] && rc="timeout ${limit}s"
        line "$2" "$c" "$4" "$5" - - - - - "FAILED (rc $rc; see ${c}_$2.log: $(why "$log"))"
        rm -f "$rec"; return
    fi
    local ratio comp dec note=
    ratio=$(sed -n 's/.* ratio=\([^ ]*\).*/\1/p' <<< "$r" | awk '{printf "%.2f", $1}')
    comp=$(sed -n 's/.* comp_gbs=\([^ ]*\).*/\1/p' <<< "$r")
    dec=$(sed -n 's/.* dec_gbs=\([^ ]*\).*/\1/p' <<< "$r")
    grep -q api_comp_gbs <<< "$r" && note="API (alloc per call) $(sed -n 's/.* api_comp_gbs=\([^ ]*\) api_dec_gbs=\([^ ]*\).*/\1\/\2/p' <<< "$r") GB/s"
    grep -q WARNING "$log" && note="$note; $(grep -m1 WARNING "$log" | cut -c1-60)"
    check "$data/$3" "$rec" "$4" "$5"
    rm -f "$rec"
    line "$2" "$c" "$4" "$5" "$ratio" "$comp" "$dec" "$viol" "$merr" "$note"
}
run_pfpl() { # name file dt eb
    local log=$logs/pfpl_$1.log cz=$data/pfpl.cmp rec=$data/rec.pfpl.$2
    local bc=$bin/pfpl_$3_abs_comp bd=$bin/pfpl_$3_abs_decomp
    # shellcheck disable=SC2015
    [ -x "$bc" ] && [ -x "$bd" ] || { line "$1" pfpl "$3" "$4" n/a n/a n/a n/a n/a "no $bc"; return; }
    rm -f "$cz" "$rec"
    local bytes rc
    bytes=$(stat -c %s "$data/$2")
    { timeout "$limit" "$bc" "$data/$2" "$cz" "$4" && timeout "$limit" "$bd" "$cz" "$rec"; } > "$log" 2>&1
    rc=$?
    if [ "$rc" != 0 ] || [ ! -s "$cz" ] || [ ! -s "$rec" ]; then
        [ "$rc" = 124 ] && rc="timeout ${limit}s"
        line "$1" pfpl "$3" "$4" - - - - - "FAILED (rc $rc; see pfpl_$1.log: $(why "$log"))"
        rm -f "$cz" "$rec"; return
    fi
    local cs ct dt ratio
    cs=$(stat -c %s "$cz")
    ct=$(sed -n 's/^lc comp ecltime, *//p' "$log" | median)
    dt=$(sed -n 's/^lc decomp ecltime, *//p' "$log" | median)
    ratio=$(awk -v b="$bytes" -v c="$cs" 'BEGIN {printf "%.2f", b / c}')
    check "$data/$2" "$rec" "$3" "$4"
    rm -f "$cz" "$rec"
    line "$1" pfpl "$3" "$4" "$ratio" "$(gbs "$bytes" "$ct")" "$(gbs "$bytes" "$dt")" "$viol" "$merr" \
        "own CLI, median of $(grep -c '^lc comp ecltime' "$log") runs"
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
echo "rows at $mib MiB; GB/s = uncompressed bytes / device time; violations: values outside the ABS bound (long double)"
head -n 1 "$table"
while read -r name file dt eb src; do
    want "$name" || continue
    [ -f "$data/$file" ] || { line "$name" - "$dt" "$eb" - - - - - "no array (see above)"; continue; }
    for c in $codecs; do
        case $c in
        eccl) run_eccl "$name" "$file" "$dt" "$eb" "$src" ;;
        cuszp | fsz) run_peerbench "$c" "$name" "$file" "$dt" "$eb" ;;
        pfpl) run_pfpl "$name" "$file" "$dt" "$eb" ;;
        *) line "$name" "$c" "$dt" "$eb" n/a n/a n/a n/a n/a "unknown codec" ;;
        esac
    done
done <<< "$all_rows"
[ -n "${PEER_KEEP_DATA:-}" ] || rm -f "$data"/*.f32 "$data"/*.f64
echo
echo "== peers table ($((SECONDS - t0)) s; eccl: bench_cuda_codec, its maxerr/eb, hom = its homomorphic SUM)"
cat "$table"
# exit 1 where a codec failed or ran out of time on a row (a peer's bound violations are data, not failures)
! grep -q "FAILED" "$table"
