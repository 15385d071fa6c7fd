#!/usr/bin/env bash
# Supernodal row sweeps, this tree against an older one (issue 44): same bytes, measures, tables.
#   OLD=DIR|TARBALL [switches] bench/device rows
# The path arrays, a team of rows, the columns handed over as they finish: this tree's command
# line against the older tree's (OLD, default CARRY/old.tar.gz; ALONE=1: this tree's alone), both
# built on the node (CUDA, no MPI), then
#   CHECKS=1  the same bytes from both trees on CUDA: measures (int32, float64), a table of
#             spread-out sources and targets, whole rows to a file; road, grid, random graphs
#             (ALONE=1: supernodal's bytes against dense Floyd-Warshall's, int32)
#   ROAD=1    the road-like V = 115,000: every measure, distances to /dev/null, a 1000 x 1000
#             table (RUNS runs each, new and old interleaved)
#   BIG=1     the road-like V = 1,000,000: every measure with the new tree (BIG_RUNS runs), the
#             old tree once where OLD_BIG=1 (117 s on an H200 on 2026-11-29)
#   RANKS=P   (P > 1; built with MPI) the road-like V = 1,000,000's every measure on 1 and P GPUs
#             (mpirun), RANK_RUNS runs each (default 1), and the same bytes
#   NCU=1     Nsight Compute (launch statistics, occupancy, throughput) of the new sweeps of
#             `apsp measures` at V = 115,000 and at V = 1,000,000 (NCU_BIG=table: a 65,536-row
#             table there instead)
# (Was bench/gpu-rows.sh, whose OLD=0 is ALONE=1 here.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) nccl=OFF
[ "${RANKS:-1}" -gt 1 ] && mpi=ON
setup
a=$apsp w=/tmp/m
mkdir -p $w
if [ "${ALONE:-0}" = 0 ]; then
  build_old apsp_cli | tee -a "$out/summary.txt"
  o=/tmp/build-old/apsp
else
  o=$apsp
fi
[ -x "$o" ] || { log "the older tree's build failed: $out/old/build.log"; exit 1; }
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); st=r['seconds']; sn=r.get('supernodal',{})
print(sys.argv[2], ' '.join(f'{k} {st.get(k,0):.3f}' for k in ('plan','compute','download','write','total')),
      'rows', round(sn.get('rows',0),3), 'path_bytes', sn.get('path_bytes'), 'peak_device', r.get('peak_device_bytes'))
P
}
if [ "${CHECKS:-1}" = 1 ]; then
$a generate --vertices 700 --density 0.004 --seed 3 $w/random.in >/dev/null 2>&1
$a generate --class grid --vertices 1500 --seed 4 $w/grid.in >/dev/null 2>&1
$a generate --class road --vertices 20000 --seed 5 $w/road.in >/dev/null 2>&1
python3 -c "
import random; random.seed(2)
for n, V in (('random', 700), ('grid', 1500), ('road', 20000)):
    open('$w/S-'+n,'w').write('\n'.join(str(random.randrange(V)) for _ in range(300))+'\n')
    open('$w/T-'+n,'w').write('\n'.join(str(random.randrange(V)) for _ in range(250))+'\n')"
ref_algorithm=supernodal; types="int32 float64"
[ "${ALONE:-0}" = 0 ] || { ref_algorithm=fw; types=int32; }
for g in random grid road; do
  for t in $types; do
    $a measures $w/$g.in $w/$g.$t.new.json --algorithm supernodal --dtype $t
    $o measures $w/$g.in $w/$g.$t.old.json --algorithm $ref_algorithm --dtype $t
    cmp -s $w/$g.$t.new.json $w/$g.$t.old.json && r=same || r=DIFFER
    echo "measures $g $t: new and old $r"
    $a $w/$g.in $w/$g.$t.new.npy --algorithm supernodal --dtype $t --sources @$w/S-$g --targets @$w/T-$g
    $o $w/$g.in $w/$g.$t.old.npy --algorithm $ref_algorithm --dtype $t --sources @$w/S-$g --targets @$w/T-$g
    cmp -s $w/$g.$t.new.npy $w/$g.$t.old.npy && r=same || r=DIFFER
    echo "table $g $t: new and old $r"
  done
  $a $w/$g.in $w/$g.new.out --algorithm supernodal; $o $w/$g.in $w/$g.old.out --algorithm $ref_algorithm
  cmp -s $w/$g.new.out $w/$g.old.out && r=same || r=DIFFER; echo "rows $g: new and old $r"
  rm -f $w/$g.new.out $w/$g.old.out
done 2>&1 | tee $out/correctness.txt
fi
if [ "${ROAD:-1}" = 1 ]; then
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
python3 -c "
import random; random.seed(1); V=115000
open('$w/S','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')
open('$w/T','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')"
for i in $(seq ${RUNS:-3}); do
  for t in new $([ "${ALONE:-0}" = 0 ] && echo old); do x=$a; [ $t = old ] && x=$o
    $x measures $w/r.in $w/m-$t.json --algorithm supernodal --stats $out/r115k-measures-$t-$i.json; show $out/r115k-measures-$t-$i.json "115k measures $t"
    $x --algorithm supernodal $w/r.in /dev/null --stats $out/r115k-null-$t-$i.json; show $out/r115k-null-$t-$i.json "115k /dev/null $t"
    $x --algorithm supernodal $w/r.in $w/od-$t.npy --sources @$w/S --targets @$w/T --stats $out/r115k-od-$t-$i.json; show $out/r115k-od-$t-$i.json "115k table $t"
  done
done
if [ "${ALONE:-0}" = 0 ]; then
  cmp -s $w/m-new.json $w/m-old.json && echo "115k measures: same bytes" || echo "115k measures: DIFFER"
  cmp -s $w/od-new.npy $w/od-old.npy && echo "115k table: same bytes" || echo "115k table: DIFFER"
fi
fi
if [ "${BIG:-1}" = 1 ]; then
$a generate --class road --vertices 1000000 --seed 3 $w/r1m.in >/dev/null 2>&1
for i in $(seq ${BIG_RUNS:-2}); do
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 > $w/mem-$i.txt & smi=$!
  timeout 200 $a measures $w/r1m.in $w/m1m-new.json --algorithm supernodal --stats $out/r1m-measures-new-$i.json; show $out/r1m-measures-new-$i.json "1M measures new"
  kill $smi; echo "1M measures new: peak device memory $(sort -n $w/mem-$i.txt | tail -1) MiB (nvidia-smi, every 0.2 s)"
done
if [ "${OLD_BIG:-0}" = 1 ]; then
  timeout 200 $o measures $w/r1m.in $w/m1m-old.json --algorithm supernodal --stats $out/r1m-measures-old.json; show $out/r1m-measures-old.json "1M measures old"
  cmp -s $w/m1m-new.json $w/m1m-old.json && echo "1M measures: same bytes" || echo "1M measures: DIFFER"
fi
fi
if [ "${RANKS:-1}" -gt 1 ]; then
[ -f $w/r1m.in ] || $a generate --class road --vertices 1000000 --seed 3 $w/r1m.in >/dev/null 2>&1
for i in $(seq ${RANK_RUNS:-1}); do
  for p in 1 $RANKS; do
    timeout 200 mpirun --allow-run-as-root --bind-to none -np $p $a measures $w/r1m.in $w/m1m-p$p.json \
      --algorithm supernodal --stats $out/r1m-measures-p$p-$i.json
    show $out/r1m-measures-p$p-$i.json "1M measures on $p GPUs"
  done
done
cmp -s $w/m1m-p1.json $w/m1m-p$RANKS.json && echo "1M measures, 1 and $RANKS GPUs: same bytes" ||
  echo "1M measures, 1 and $RANKS GPUs: DIFFER"
fi
if [ "${NCU:-1}" = 1 ]; then
[ -f $w/r.in ] || $a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
[ -f $w/r1m.in ] || $a generate --class road --vertices 1000000 --seed 3 $w/r1m.in >/dev/null 2>&1
python3 -c "
open('$w/S1m','w').write('\n'.join(str(i * 15) for i in range(65536))+'\n')
open('$w/T10','w').write('\n'.join(str(i) for i in range(10))+'\n')"
timeout 150 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
  $a measures $w/r.in $w/n.json --algorithm supernodal > $out/ncu-115k-measures.txt 2>&1; echo "ncu 115k: exit $?"
if [ "${NCU_BIG:-measures}" = table ]; then
  timeout 200 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight \
    $a --algorithm supernodal $w/r1m.in $w/t.npy --sources @$w/S1m --targets @$w/T10 > $out/ncu-1m-table.txt 2>&1; echo "ncu 1m table: exit $?"
else
  timeout 200 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    $a measures $w/r1m.in $w/n1m.json --algorithm supernodal > $out/ncu-1m-measures.txt 2>&1; echo "ncu 1m measures: exit $?"
fi
grep -h -E "Block Size|Grid Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Duration|Compute \(SM\) Throughput|Memory Throughput|Waves Per SM" $out/ncu-*.txt
fi
