#!/usr/bin/env bash
# The device calls of 2026-11-28 (issue 35): build this tree on the node (CUDA, MPI, METIS); then
#   CHECKS=1  `apsp measures` on CUDA against Serial (int32 byte for byte, float64 within 1e-12)
#   ROAD=1    on the road-like V = 115,000, GPU 0 only: the distances to /dev/null, every measure
#             (3 runs), the measures without the histogram, and a 1000 x 1000 origin-destination
#             table (OD_RUNS runs; with OD_SERIAL=1 its bytes against the Serial backend's)
#   NCU=1     Nsight Compute's launch statistics and occupancy of the row sweeps at V = 115,000 and
#             1,000,000 (a block of rows each, the size `apsp measures` uses: 57,500 and 8,192)
#   CALL_B=1  then call-b.sh (the road of 1,000,000 vertices; its switches pass through)
# What each call ran (summary.txt): A CHECKS=1 ROAD=1 OD_RUNS=3 OD_SERIAL=0 NCU=0; C the same with
# OD_RUNS=2 NCU=1, D with OD_RUNS=3 OD_SERIAL=1 NCU=1; E CHECKS=0 ROAD=0 NCU=0 CALL_B=1 (ONE=0) on a
# 2-GPU node. Run from the top of the tree:
#   OUT=... [switches] bash bench/results/2026-11-28-measures/call.sh .device-carry
set -uo pipefail
here=$(pwd); carry=$(cd "${1:?CARRY}" && pwd); out=${OUT:-/tmp/call}; mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH HOME=/root
source bench/lib/carried-kokkos.sh
b=$here/build/device; s=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $out/gpu.txt
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=OFF \
  -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=ON -DAPSP_ENABLE_NCCL=OFF -DAPSP_ENABLE_BENCHMARKS=OFF \
  >"$out/build.log" 2>&1 && timeout 420 ninja -C $b -j "$(nproc)" apsp_cli >>"$out/build.log" 2>&1
echo "build: exit $? after $(( $(date +%s)-s )) s"; grep -E 'error' "$out/build.log" | head -20
rm -f "$out/build.log"
a=$b/apsp; w=/tmp/m; mkdir -p $w
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); pr=r.get('per_rank') or [r['seconds']]
m=lambda k: max(x.get(k,0) for x in pr)
print(sys.argv[2], 'P', r['ranks'], ' '.join(f'{k} {m(k):.3f}' for k in ('read','plan','upload','compute','download','write','total')),
      'rows', r.get('supernodal',{}).get('rows'), 'ordering', r.get('supernodal',{}).get('ordering'),
      'measures', r.get('measures'), 'peak_host_MB', r.get('peak_host_bytes',0)//2**20)
P
}
# Correctness: CUDA against Serial.
if [ "${CHECKS:-1}" = 1 ]; then
$a generate --vertices 700 --density 0.004 --seed 3 $w/random.in >/dev/null 2>&1
$a generate --class grid --vertices 1500 --seed 4 $w/grid.in >/dev/null 2>&1
$a generate --class road --vertices 3000 --seed 5 $w/road.in >/dev/null 2>&1
for g in random grid road; do
  $a measures $w/$g.in $w/$g.serial.json --backend serial --algorithm fw
  for al in fw supernodal; do
    $a measures $w/$g.in $w/$g.$al.json --backend cuda --algorithm $al --stats $w/$g.$al.st
    cmp -s $w/$g.$al.json $w/$g.serial.json && r=same || r=DIFFERS
    echo "int32 $g $al: cuda $r as serial; $(grep -o '"histogram_passes": [0-9]' $w/$g.$al.st)"
  done
  $a measures $w/$g.in $w/$g.f64.serial.json --backend serial --dtype float64
  $a measures $w/$g.in $w/$g.f64.cuda.json --backend cuda --dtype float64 --algorithm supernodal
  python3 - $w/$g.f64.cuda.json $w/$g.f64.serial.json $g <<'P'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3]); worst = 0.0
def walk(x, y):
    global worst
    if isinstance(x, dict):
        for k in y: walk(x[k], y[k])
    elif isinstance(x, list):
        assert len(x) == len(y)
        for u, v in zip(x, y): walk(u, v)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        if x != y: worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
    else: assert x == y
walk(a, b); print("float64 %s: cuda against serial, worst relative difference %.3g" % (sys.argv[3], worst))
P
done 2>&1 | tee $out/correctness.txt
fi
export CUDA_VISIBLE_DEVICES=${GPU:-0}
# Timing on the road-like V = 115,000.
if [ "${ROAD:-1}" = 1 ]; then
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
$a --algorithm supernodal $w/r.in /dev/null --stats $out/road-null.json; show $out/road-null.json "road /dev/null"
for i in 1 2 3; do $a measures $w/r.in $w/m.json --algorithm supernodal --stats $out/measures-all-$i.json; show $out/measures-all-$i.json "measures all"; done
cp $w/m.json $out/road115k-measures.json
$a measures $w/r.in $w/m2.json --algorithm supernodal --measures eccentricity,closeness_centrality,harmonic_centrality,diameter,radius,wiener_index --stats $out/measures-nohist.json; show $out/measures-nohist.json "measures no histogram"
python3 -c "
import random; random.seed(1); V=115000
open('$w/S','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')
open('$w/T','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')"
for i in $(seq ${OD_RUNS:-3}); do $a --algorithm supernodal $w/r.in $w/od.npy --sources @$w/S --targets @$w/T --stats $out/od-$i.json; show $out/od-$i.json "od 1000x1000"; done
if [ "${OD_SERIAL:-1}" = 1 ]; then
  $a --algorithm supernodal --backend serial $w/r.in $w/od-cpu.npy --sources @$w/S --targets @$w/T
  cmp -s $w/od.npy $w/od-cpu.npy && echo "od table: cuda = serial, byte for byte" || echo "od table: cuda DIFFERS from serial"
fi
fi
if [ "${NCU:-1}" = 1 ]; then
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
$a generate --class road --vertices 1000000 --seed 1 $w/r1m.in >/dev/null 2>&1
python3 -c "
open('$w/S1m','w').write('\n'.join(str(i * 122) for i in range(8192))+'\n')
open('$w/S115k','w').write('\n'.join(str(i * 2) for i in range(57500))+'\n')
open('$w/T10','w').write('\n'.join(str(i) for i in range(10))+'\n')"
for g in 115k:r.in 1m:r1m.in; do
  timeout 150 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight \
    $a --algorithm supernodal $w/${g#*:} $w/t.npy --sources @$w/S${g%%:*} --targets @$w/T10 > $out/ncu-${g%%:*}.txt 2>&1
  echo "ncu ${g%%:*}: exit $?"; grep -E "Block Size|Grid Size|Threads|Achieved Occupancy|Theoretical Occupancy|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per" $out/ncu-${g%%:*}.txt
done
fi
unset CUDA_VISIBLE_DEVICES  # call B picks its GPUs
[ "${CALL_B:-0}" = 1 ] && OUT=$out bash bench/results/2026-11-28-measures/call-b.sh
echo "call: $(( $(date +%s)-s )) s"
