#!/usr/bin/env bash
# Issue 27 on a GPU node: the batched solver on 100,000 molecule-like graphs (compute, and
# upload + compute + download), its unit tests, and the Python comparison with SciPy.
#   bench/gpu-batched.sh BIN_DIR OUT_DIR [GRAPHS]
# BIN_DIR: the cuda-hopper build (apsp_tests, apsp_bench_batched, and python/apsp when the
# module was built there for the node's Python). OUT_DIR gets tests.log, bench.log, python.log
# and summary.txt. Targets (one H100): compute <= 0.05 s, end to end <= 0.5 s.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
graphs=${3:-100000}
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

log "gpu: $(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>&1)"
log "date: $(date -u +%FT%TZ)"

timeout 300 "$bin/apsp_tests" --gtest_filter='Batched*' --gtest_brief=1 >"$out/tests.log" 2>&1
log "apsp_tests Batched*: exit $? ($(grep -E '^\[  (PASSED|FAILED)' "$out/tests.log" | tr '\n' ' '))"

for layout in --ragged --padded; do
  timeout 300 "$bin/apsp_bench_batched" "$graphs" 5 "$layout" >>"$out/bench.log" 2>&1
  log "apsp_bench_batched $graphs $layout: exit $?: $(grep -E '^backend' "$out/bench.log" | tail -1)"
done

if [[ -d $bin/python/apsp ]]; then
  PYTHONPATH=$bin/python timeout 900 python3 "$here/batched-vs-scipy.py" --graphs "$graphs" \
    --loop-graphs 2000 --single 1000 >"$out/python.log" 2>&1
  log "batched-vs-scipy.py: exit $?"
  grep -E '^(loop|apsp|one)' "$out/python.log" | tee -a "$out/summary.txt"
else
  log "no Python module in $bin/python: build the target apsp_python on the node for its Python"
fi
