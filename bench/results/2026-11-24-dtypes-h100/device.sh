#!/usr/bin/env bash
# One device call: GPU tests, the distance types' kernel rates, and the plain/negative table
# before (8d0a972, .gpu-bin/apsp) and after (this merge).
set -uo pipefail
B=$PWD/.gpu-bin-new
export LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/gpu.txt
( cd /tmp && $B/apsp_tests 2>&1 | tail -n 40 ) > $OUT/tests.log 2>&1
echo "tests exit ${PIPESTATUS[0]}" >> $OUT/tests.log
$B/apsp_tests --gtest_filter='RealDistances*' 2>&1 | grep -E "OK|FAILED|PASSED" > $OUT/real-tests.log
APSP_BENCH_SIZES=4096,11008 timeout 240 $B/apsp_bench_kernels \
  --benchmark_filter='floyd_warshall/cuda/|peak_probe/cuda' --benchmark_repetitions=3 \
  --benchmark_report_aggregates_only=true --benchmark_out=$OUT/kernels.json \
  > $OUT/kernels.txt 2>&1
NCU=0 CHECKS=0 VARIANTS="plain negative" APSP_WORK=/tmp/apsp-table timeout 300 \
  bench/gpu-table.sh $B $OUT/table $PWD/.gpu-bin/apsp "4096:0.05 11000:0.01 40000:0.001" 3 \
  > $OUT/table.log 2>&1
cp $OUT/table/summary.txt $OUT/table-summary.txt 2>/dev/null
tar czf $OUT/table.tgz -C $OUT table 2>/dev/null; rm -rf $OUT/table
