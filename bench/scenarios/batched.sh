#!/usr/bin/env bash
# Many small graphs on the GPU (issue 27): the batched solver, alone and through the module.
#   [PARTS="tests bench python pytest"] [OLD=DIR|TARBALL [PAIRS=5]] bench/device batched [GRAPHS]
# GRAPHS (default 100,000) molecule-like graphs. The parts (PARTS, default all four):
#   tests   apsp_tests --gtest_filter='Batched*'
#   bench   apsp_bench_batched GRAPHS 5, ragged and padded: compute, and upload + compute +
#           download (bench.log)
#   python  bench/batched-vs-scipy.py through the module built for the node's Python, against
#           the node's SciPy (python.log)
#   pytest  the module's tests of forked children and batches on the GPU (pytest.txt)
# With OLD the python part is an old-against-new comparison instead: an older tree's module built
# beside this one's, then PAIRS runs of each, alternately (python-new-K.log, python-old-K.log;
# their solve_batch lines in summary.txt).
# Targets (one H100): compute <= 0.05 s, end to end <= 0.5 s.
# (Was bench/gpu-batched.sh, and the batched and python parts of bench/gpu-new-solvers.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
parts=${PARTS:-tests bench python pytest}
part() { [[ " $parts " == *" $1 "* ]]; }
targets=()
part tests && targets+=(apsp_tests) && tests=ON
part bench && targets+=(apsp_bench_batched) && benchmarks=ON
{ part python || part pytest; } && targets+=(apsp_python) && python=ON
setup
graphs=${1:-100000}

part tests && TESTS_LIMIT=300 run_tests 'Batched*'
if part bench; then
  for layout in --ragged --padded; do
    timeout 300 "$bin/apsp_bench_batched" "$graphs" 5 "$layout" >>"$out/bench.log" 2>&1
    log "apsp_bench_batched $graphs $layout: exit $?: $(grep -E '^backend' "$out/bench.log" | tail -1)"
  done
fi
if part python || part pytest; then
  [ -d "$bin/python/apsp" ] || log "no Python module in $bin/python: build apsp_python there"
  export PYTHONPATH=$bin/python
fi
if part python && [ -z "${OLD:-}" ]; then
  (cd /tmp && timeout 60 python3 -c 'import apsp; print(apsp.config())') | tee -a "$out/summary.txt"
  timeout 900 python3 "$here/bench/batched-vs-scipy.py" --graphs "$graphs" \
    --loop-graphs 2000 --single 1000 >"$out/python.log" 2>&1
  log "batched-vs-scipy.py: exit $?"
  grep -E '^(loop|apsp|one)' "$out/python.log" | tee -a "$out/summary.txt"
fi
if part python && [ -n "${OLD:-}" ]; then
  build_old apsp_python | tee -a "$out/summary.txt"
  [ -d /tmp/build-old/python/apsp ] || log "the older tree's module did not build: $out/old/build.log"
  for k in $(seq "${PAIRS:-5}"); do
    for t in new old; do
      dir=$bin/python
      [ $t = old ] && dir=/tmp/build-old/python
      (cd /tmp && PYTHONPATH=$dir timeout 300 python3 "$here/bench/batched-vs-scipy.py" \
        --graphs "$graphs" --loop-graphs 300 --single 100 --graphs-3d 1000 --runs 3 \
        >"$out/python-$t-$k.log" 2>&1)
      echo "$t $k: $(grep -E '^apsp.solve_batch' "$out/python-$t-$k.log" | tr -s ' ' | paste -sd';')" |
        tee -a "$out/summary.txt"
    done
  done
fi
if part pytest; then
  (cd /tmp && timeout 200 python3 -m pytest -q -p no:cacheprovider "$here/tests/python/test_fork.py" \
    "$here/tests/python/test_batch.py" 2>&1) | tail -15 | tee "$out/pytest.txt" | tee -a "$out/summary.txt"
fi
