#!/usr/bin/env bash
# One device call for issue 16 item 2 (lookahead on two streams, made once per process): GPU tests, GPU vs Serial on every
# shape, before/after table (plain, --allow-negative) at 4096 and 11000, plain at 40000, and
# after vs before outputs bitwise.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
start=$(date +%s)
t() { echo "t=$(( $(date +%s) - start )) $*"; }
APSP_WORK=/tmp/t1 VARIANTS="plain negative" NCU=0 timeout 360 bash ./gpu-table.sh . "$OUT/table" before/apsp \
  "4096:0.05 11000:0.01" 3
t table
for v in 4096 11000; do
  for o in "" --allow-negative; do
    in=/tmp/t1/g$v.in; [ -n "$o" ] && in=/tmp/t1/n$v.in
    ./apsp --backend cuda $o $in /tmp/a.out 2>>$OUT/errors.log
    before/apsp --backend cuda $o $in /tmp/b.out 2>>$OUT/errors.log
    echo "V=$v ${o:-plain}: after vs before: $(./apsp compare /tmp/a.out /tmp/b.out)" | tee -a $OUT/bitwise.txt
  done
done
rm -f /tmp/a.out /tmp/b.out
t bitwise
APSP_WORK=/tmp/t2 CHECKS=0 NCU=0 VARIANTS="plain" timeout $(( 560 - ($(date +%s) - start) )) \
  bash ./gpu-table.sh . "$OUT/table40000" before/apsp "40000:0.001" 3
t done
