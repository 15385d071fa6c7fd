#!/usr/bin/env bash
# Device call B (2026-11-28, issue 35), after call A on the same node (its build/device): every
# measure of a road-like graph of 1,000,000 vertices on one GPU and on the node's two (mpirun),
# with --progress and --stats (peak host memory); --max-memory 8G respected (the GPU's memory in
# use sampled each second for 20 s). Run from the top of the tree:
#   OUT=... bash bench/results/2026-11-28-measures/call-b.sh
set -uo pipefail
here=$(pwd); out=${OUT:-/tmp/call-b}; mkdir -p "$out"; s=$(date +%s)
a=$here/build/device/apsp; w=/tmp/m; mkdir -p $w
M="mpirun --allow-run-as-root --bind-to none -np"
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); pr=r.get('per_rank') or [r['seconds']]
m=lambda k: max(x.get(k,0) for x in pr)
print(sys.argv[2], 'P', r['ranks'], ' '.join(f'{k} {m(k):.3f}' for k in ('read','plan','upload','compute','download','write','total')),
      'rows', r.get('supernodal',{}).get('rows'), 'factor', r.get('supernodal',{}).get('factor'), 'ordering', r.get('supernodal',{}).get('ordering'),
      'measures', r.get('measures'), 'peak_host_MB', r.get('peak_host_bytes',0)//2**20)
P
}
$a generate --class road --vertices 1000000 --seed 1 $w/r1m.in 2>&1 | tail -1
if [ "${MAXMEM:-1}" = 1 ]; then
  CUDA_VISIBLE_DEVICES=0 timeout 22 $a measures $w/r1m.in $w/mm.json --algorithm supernodal --max-memory 8G 2>/dev/null &
  for t in $(seq 20); do sleep 1; nvidia-smi --query-gpu=memory.used --format=csv,noheader -i 0; done > $out/maxmem-8G.txt
  wait; echo "--max-memory 8G: GPU 0 memory used, most of 20 samples: $(sort -n $out/maxmem-8G.txt | tail -1)"
fi
if [ "${ONE:-1}" = 1 ]; then
  CUDA_VISIBLE_DEVICES=0 $a measures $w/r1m.in $out/road1m-measures.json --algorithm supernodal --progress --stats $out/road1m-1.json 2>$out/progress-1.txt
  show $out/road1m-1.json "road 1M measures"; tail -c 400 $out/progress-1.txt; echo
fi
if [ "${TWO:-1}" = 1 ]; then
  $M 2 $a measures $w/r1m.in $w/m1m-2.json --algorithm supernodal --stats $out/road1m-2.json 2>$out/err-2.txt
  show $out/road1m-2.json "road 1M measures"; cmp -s $w/m1m-2.json $out/road1m-measures.json && echo "2 ranks: same bytes as 1"
fi
echo "call B: $(( $(date +%s)-s )) s"
