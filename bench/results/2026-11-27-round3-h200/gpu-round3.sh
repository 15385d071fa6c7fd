#!/usr/bin/env bash
# One device call for the third round's fixes (issue 32) on a GPU node with nvcc but no Kokkos:
# built there from this tree with the cuda-hopper Kokkos prefix carried in CARRY/kokkos, METIS
# in CARRY/metis and GoogleTest in CARRY/deps/gtest (bench/make-carry.sh makes CARRY).
#   1. the unit tests on Cuda and Serial (negative-cycle vertices across algorithms, the
#      lookahead's streams per thread, predecessor ranges, supernodal tiles);
#   2. the command line's tests of supernodal, paths and verify against the Cuda backend;
#   3. the module's tests on the GPU (batches, negative cycles, float32 verdicts);
#   4. timings: `apsp path U V` and `apsp verify` on the road-like class at V = 115,000.
#   bench/gpu-round3.sh CARRY                    (writes under $OUT)
# PARTS (default "tests cli python time") picks the parts.
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd)
out=${OUT:-/tmp/apsp-round3}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1 HOME=/root
parts=${PARTS:-tests cli python time}
part() { [[ " $parts " == *" $1 "* ]]; }
source "$here/bench/lib/carried-kokkos.sh"  # sets k
b=$here/build/device  # kept on a warm machine between calls
start=$(date +%s)
targets="apsp_cli"
part python && targets="$targets apsp_python"
part tests && targets="$targets apsp_tests"
build_tree $targets
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
part tests && {
  timeout 400 $b/tests/apsp_tests --gtest_brief=1 >"$out/tests.log" 2>&1
  echo "unit tests: exit $?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED)|FAILED  \]" "$out/tests.log" | head -30
}
part cli && {
  for t in supernodal paths; do  # supernodal.sh ends with auto on a CPU's mesh: read its log
    timeout 300 bash "$here/tests/cli/$t.sh" $b/apsp "$here/testcases" /tmp/cli-$t \
      $([ $t = supernodal ] && echo with-metis) cuda >"$out/cli-$t.log" 2>&1
    echo "cli $t (cuda): exit $?"
    tail -3 "$out/cli-$t.log"
  done
}
part python && {
  cd /tmp
  PYTHONPATH=$b/python timeout 300 python3 -m pytest -q -p no:cacheprovider \
    "$here/tests/python/test_batch.py" "$here/tests/python/test_scipy.py" 2>&1 | tail -8 |
    tee "$out/pytest.txt"
  cd "$here"
}
part time && {
  t=$out/time.txt
  $b/apsp generate --class road --vertices 115000 --seed 3 /tmp/r115.bin >/dev/null 2>&1
  for i in 1 2; do
    s=$(date +%s%N)
    timeout 120 $b/apsp path /tmp/r115.bin 0 114999 >/tmp/path.txt 2>&1
    echo "path r115 0 -> 114999, run $i: exit $?, $((($(date +%s%N) - s) / 1000000)) ms: $(head -c 60 /tmp/path.txt | tr '\n' ' ')" >>"$t"
  done
  $b/apsp generate --class road --vertices 20000 --seed 3 /tmp/r20.bin >/dev/null 2>&1
  $b/apsp --algorithm supernodal /tmp/r20.bin /tmp/r20.out >/dev/null 2>&1
  for i in 1 2; do
    s=$(date +%s%N)
    timeout 200 $b/apsp verify /tmp/r20.bin /tmp/r20.out >/tmp/verify.txt 2>&1
    echo "verify r20k, run $i: exit $?, $((($(date +%s%N) - s) / 1000000)) ms: $(tail -2 /tmp/verify.txt | head -c 80 | tr '\n' ' ')" >>"$t"
  done
  cat "$t"
}
echo "total $(($(date +%s) - start)) s"
