#!/usr/bin/env bash
# One device call: tests, GPU-vs-CPU, issue-16 table (before/after), ncu, V=40000, shape experiment.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
start=$(date +%s)
left() { echo $((570 - ($(date +%s) - start))); }
APSP_WORK=/tmp/t1 timeout 360 bash ./gpu-table.sh after "$OUT/table" base/apsp \
  "1024:0.1 2048:0.1 4096:0.05 8192:0.01 11000:0.01" 3
echo "t=$(( $(date +%s) - start ))"
APSP_WORK=/tmp/t2 CHECKS=0 NCU=0 VARIANTS="plain negative paths" timeout $(( $(left) - 70 )) \
  bash ./gpu-table.sh after "$OUT/table40000" "" "40000:0.001" 3
echo "t=$(( $(date +%s) - start ))"
# The 8x16-register shape (experiment binary, shape 3) against the default (shape 0).
ex=$OUT/exp; mkdir -p $ex
for v in 11000 40000; do
  in=/tmp/t1/g$v.in; [ -f $in ] || in=/tmp/t2/g$v.in
  [ -f $in ] || continue
  for k in 0 3; do for rep in 1 2 3; do
    [ $(left) -lt 15 ] && break 3
    exp/apsp --backend cuda --shape $k $in /dev/null --stats - 2>/dev/null | tr -d '\n ' >>$ex/runs.jsonl; echo >>$ex/runs.jsonl
  done; done
done
exp/apsp shapes --backend cuda > $ex/shapes.txt 2>&1
cuobjdump -res-usage exp/apsp 2>/dev/null | grep -A1 "RemainingTiles" | grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | sort | uniq -c > $ex/res-usage.txt
echo "t=$(( $(date +%s) - start ))"
# SASS of the remaining-tiles kernels: instructions and VIADDMNMX per function, before and after.
for b in base after exp; do
  cuobjdump -sass $b/apsp 2>/dev/null | awk -v b=$b '/Function :/ { f = $3 } /^ +\/\*[0-9a-f]+\*\// { n[f]++; if ($0 ~ /VIADDMNMX/) v[f]++; if ($0 ~ /LDL|STL/) l[f]++ } END { for (k in n) if (k ~ /RemainingTiles/) print b, n[k], v[k]+0, l[k]+0, k }' | sed -E 's/_ZN6Kokkos4Impl[0-9a-zA-Z_]*RemainingTiles//; s/EENS_10TeamPolicy.*//' >> $OUT/sass-remaining.txt
done
echo "t=$(( $(date +%s) - start ))"
