#!/usr/bin/env bash
# One device call for supernodal Floyd-Warshall's predecessors, large row blocks and the Python
# module's algorithm choice (issue 25), on a GPU node with nvcc but no Kokkos: built there from
# this tree with the cuda-hopper Kokkos prefix carried in CARRY/kokkos and METIS in CARRY/metis.
#   1. the unit tests of supernodal.hpp and the pipeline on the GPU (SupernodalSolver with
#      predecessors against the dense Solver);
#   2. the command line: --algorithm supernodal --predecessors against fw's two files, byte for
#      byte (grid V = 4096, road-like V = 5,000); road-like V = 48,000 in one block of rows of
#      more than 2^31 values against fw's output; road-like V = 115,000 and the mesh V = 65,536
#      to /dev/null (two runs each, then the road with --predecessors), dense fw on the mesh;
#   3. the module: tests/python/test_scipy.py's supernodal tests on the GPU;
#   4. write: dense fw at V = 46,000 written to a file (8.5 GB) by this tree and by the tree in
#      CARRY/old.tar (git archive of the commit before rows were written behind), alternated.
#   bench/gpu-supernodal-paths.sh CARRY                (writes under $OUT)
# PARTS (default "tests cli python") picks the parts.
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd)
out=${OUT:-/tmp/apsp-supernodal-paths}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1 HOME=/root
parts=${PARTS:-tests cli python}
part() { [[ " $parts " == *" $1 "* ]]; }
source "$here/bench/lib/carried-kokkos.sh"  # sets k
b=$here/build/device  # kept on a warm machine between calls
start=$(date +%s)
targets="apsp_cli"
part python && targets="$targets apsp_python"
part tests && targets="$targets apsp_tests"
build_tree $targets
if part write; then
  rm -rf /tmp/old && mkdir -p /tmp/old && tar -xf "$carry/old.tar" -C /tmp/old
  cmake -S /tmp/old -B /tmp/old/build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" \
    -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=OFF -DAPSP_ENABLE_PYTHON=OFF \
    -DAPSP_ENABLE_BENCHMARKS=OFF >"$out/build-old.log" 2>&1 &&
    timeout 400 ninja -C /tmp/old/build -j 16 apsp_cli >>"$out/build-old.log" 2>&1
  echo "old build: exit $? after $(($(date +%s) - start)) s"
fi
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
part tests && {
  timeout 300 $b/tests/apsp_tests --gtest_filter='*Supernodal*:*Pipeline*' >"$out/tests.log" 2>&1
  echo "unit tests: exit $?"
  grep -E "^\[  (PASSED|FAILED)|FAILED  \]" "$out/tests.log" | head -20
}
c=$out/cli.txt
stats() { python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); s = d['seconds']; n = d.get('supernodal', {})
print('  %s: compute %.3f predecessors %.3f download %.3f write %.3f total %.3f | ordering %s symbolic %s factor %s rows %s' % (
  d['algorithm'], s['compute'], s['predecessors'], s['download'], s['write'], s['total'],
  n.get('ordering'), n.get('symbolic'), n.get('factor'), n.get('rows')))" "$1"; }
part cli && {
  for cls in grid:4096 road:5000; do
    $b/apsp generate --class ${cls%:*} --vertices ${cls#*:} --seed 3 /tmp/g.bin 2>/dev/null
    $b/apsp --algorithm supernodal --predecessors /tmp/sn.p --stats /tmp/sn.json /tmp/g.bin /tmp/sn.d
    $b/apsp --algorithm fw --predecessors /tmp/fw.p --stats /tmp/fw.json /tmp/g.bin /tmp/fw.d
    cmp -s /tmp/sn.d /tmp/fw.d && cmp -s /tmp/sn.p /tmp/fw.p && echo "$cls --predecessors: supernodal = fw" ||
      echo "$cls --predecessors: DIFFER"
    stats /tmp/sn.json; stats /tmp/fw.json
  done >>"$c" 2>&1
  $b/apsp generate --class road --vertices 48000 --seed 3 /tmp/r48.bin 2>/dev/null
  timeout 120 $b/apsp --algorithm supernodal --progress --stats /tmp/sn.json /tmp/r48.bin /tmp/sn.d >/tmp/p.txt 2>&1
  echo "road 48k supernodal: exit $? $(tr '\r' '\n' </tmp/p.txt | grep -c 'row block') progress lines, last: $(tr '\r' '\n' </tmp/p.txt | grep 'row block' | tail -1)" >>"$c"
  stats /tmp/sn.json >>"$c"
  timeout 120 $b/apsp --algorithm fw --stats /tmp/fw.json /tmp/r48.bin /tmp/fw.d >>"$c" 2>&1
  cmp -s /tmp/sn.d /tmp/fw.d && echo "road 48k: supernodal (large blocks) = fw" >>"$c" || echo "road 48k: DIFFER" >>"$c"
  stats /tmp/fw.json >>"$c"
  rm -f /tmp/sn.d /tmp/fw.d
  $b/apsp generate --class road --vertices 115000 --seed 3 /tmp/r115.bin 2>/dev/null
  $b/apsp generate --class grid --vertices 65536 --seed 3 /tmp/m65.bin 2>/dev/null
  for g in r115 m65; do
    for i in 1 2; do
      timeout 120 $b/apsp --algorithm supernodal --progress --stats /tmp/s.json /tmp/$g.bin /dev/null >/tmp/p.txt 2>&1
      echo "$g supernodal run $i: exit $?, $(tr '\r' '\n' </tmp/p.txt | grep 'row block' | tail -1)" >>"$c"
      stats /tmp/s.json >>"$c"
    done
  done
  timeout 120 $b/apsp --algorithm supernodal --predecessors /dev/null --stats /tmp/s.json /tmp/r115.bin /dev/null >>"$c" 2>&1
  echo "r115 supernodal --predecessors: exit $?" >>"$c"
  stats /tmp/s.json >>"$c"
  timeout 120 $b/apsp --algorithm fw --stats /tmp/s.json /tmp/m65.bin /dev/null >>"$c" 2>&1
  echo "m65 fw: exit $?" >>"$c"
  stats /tmp/s.json >>"$c"
  timeout 60 $b/apsp path --algorithm supernodal /tmp/r115.bin 0 114999 >>"$c" 2>&1
  echo "path r115 0 -> 114999: exit $?" >>"$c"
  cat "$c"
}
part write && {
  w=$out/write.txt
  df -h /tmp | tail -1 >>"$w"
  $b/apsp generate --vertices 46000 --density 0.0005 --seed 3 /tmp/d46.bin 2>/dev/null
  for i in 1 2; do
    for tree in old new; do
      bin=$b/apsp
      [ $tree = old ] && bin=/tmp/old/build/apsp
      sync
      timeout 200 $bin --algorithm fw --stats /tmp/w.json /tmp/d46.bin /tmp/d46.out >>"$w" 2>&1
      echo "$tree run $i: exit $?, $(stat -c %s /tmp/d46.out) bytes" >>"$w"
      python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); s = d['seconds']
print('  compute %.3f download %.3f write %.3f commit %.3f total %.3f write_behind %s' % (
  s['compute'], s['download'], s['write'], s['commit'], s['total'], s.get('write_behind')))" /tmp/w.json >>"$w"
      [ $tree = old ] && mv /tmp/d46.out /tmp/d46.old
      [ $tree = new ] && { cmp -s /tmp/d46.out /tmp/d46.old && echo "  old = new" >>"$w" || echo "  old != new" >>"$w"; rm -f /tmp/d46.out /tmp/d46.old; }
    done
  done
  cat "$w"
}
part python && {
  cd /tmp
  PYTHONPATH=$b/python timeout 300 python3 -m pytest -q -p no:cacheprovider \
    "$here/tests/python/test_scipy.py" -k "supernodal or mesh" 2>&1 | tail -8 | tee "$out/pytest.txt"
}
echo "total $(($(date +%s) - start)) s"
