#!/usr/bin/env bash
# Where the lookahead's round goes at V = 4096 (exp/apsp; modes other than 0 give wrong distances,
# timing only): 0 as committed; 2 main's part only; 3 the side's chain only; 4 main + the cross;
# 5 main + cross + pivot tile (no panels); 6 main only, every remaining tile, no event waits; 7 main only, outside row and column r+1, no waits; before = main's binary.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
w=/tmp/e; mkdir -p $w
./apsp generate --vertices 4096 --density 0.05 --seed 7 --max-weight 500 $w/g.in 2>/dev/null
for rep in 1 2 3; do
  for m in before 0 2 6 7; do
    if [ $m = before ]; then b=before/apsp; else b=exp/apsp; fi
    APSP_EXP=$m $b --backend cuda $w/g.in /dev/null --stats $w/s.json 2>/dev/null
    echo "$m $(python3 -c "import json,sys; s=json.load(open('$w/s.json'))['seconds']; print(s['compute'], s['upload'])")" >> $OUT/exp2.txt
  done
done
python3 - $OUT/exp2.txt <<'P'
import sys, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 3: d[f[0]].append(float(f[1]))
for m, xs in sorted(d.items()):
    c = statistics.median(xs)
    print(f"mode {m}: median {c*1e3:.3f} ms, {c/64*1e6:.1f} us/round, {4096**3/c/1e12:.2f} T ({' '.join(f'{x*1e3:.3f}' for x in xs)})")
P
