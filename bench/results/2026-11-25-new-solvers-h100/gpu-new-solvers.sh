#!/usr/bin/env bash
# One device call for the solvers new in this tree (issues 25 and 27), on a GPU node with nvcc
# but no Kokkos: built there (16 cores) from this tree with the cuda-hopper Kokkos prefix
# carried in CARRY/kokkos; the Python module against the node's Python and pybind11.
#   1. supernodal: correctness against dense FW (V = 4096 grid and road), the road-like class at
#      V = 115,000, the mesh class at V = 65,536 and dense FW on a 65,025-vertex grid
#      (bench/bench_supernodal.cpp), each run under a time limit;
#   2. batched: apsp_bench_batched on 100,000 molecule-like graphs (ragged, padded), and
#      bench/batched-vs-scipy.py through the module (SciPy of the node);
#   3. the module's tests that concern this build on a GPU: forked children, batches;
#   4. the command line's --algorithm supernodal against fw (byte for byte) on a grid and a
#      road-like graph, and supernodal on the road-like class at V = 115,000 to /dev/null.
#   bench/gpu-new-solvers.sh CARRY                    (writes under $OUT)
# CARRY holds kokkos/ (the cuda-hopper prefix) and metis/ (bootstrap-deps' static METIS).
# PARTS (default "supernodal batched python cli") picks the parts to run.
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd)
out=${OUT:-/tmp/apsp-new-solvers}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1 HOME=/root
source "$here/bench/lib/carried-kokkos.sh"  # sets k
b=$here/build/device  # kept on a warm machine between calls
start=$(date +%s)
cmake -S "$here" -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=ON -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=OFF \
  -DAPSP_ENABLE_BENCHMARKS=ON -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" \
  -DPython3_EXECUTABLE="$(command -v python3)" >"$out/build.log" 2>&1 &&
  timeout 420 ninja -C $b -j 16 -k 0 apsp_cli apsp_bench_supernodal apsp_bench_batched apsp_python \
    >>"$out/build.log" 2>&1
echo "build: exit $? after $(($(date +%s) - start)) s"
grep -E "METIS" "$out/build.log" | head -3
grep -E 'error|Error' "$out/build.log" | head -20
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
s=$out/supernodal.txt
run() {  # LIMIT NAME ARGS...
  local limit=$1 name=$2
  shift 2
  echo "== $name: $*" >>"$s"
  timeout "$limit" $b/apsp_bench_supernodal "$@" >"/tmp/sn-$name.log" 2>&1
  local rc=$?
  grep -E "^(graph|plan|run|best|dense|check)" "/tmp/sn-$name.log" >>"$s"
  [ $rc = 0 ] || { echo "(exit $rc)" >>"$s"; tail -n 3 "/tmp/sn-$name.log" >>"$s"; }
}
parts=${PARTS:-supernodal batched python cli}
part() { [[ " $parts " == *" $1 "* ]]; }
part supernodal && {
run 90 check-grid --graph grid --vertices 4096 --repeats 1 --check
run 90 check-road --graph road --vertices 4096 --repeats 1 --check
run 100 road-115k --graph road --vertices 115000 --repeats 2
run 80 mesh-65536 --graph grid --vertices 65536 --repeats 2

cat "$s"
}
bt=$out/batched.txt
part batched && for layout in --ragged --padded; do
  timeout 120 $b/apsp_bench_batched 100000 5 $layout >>"$bt" 2>&1
  echo "apsp_bench_batched $layout: exit $?" >>"$bt"
done
part batched && cat "$bt"
export PYTHONPATH=$b/python
part python && {
cd /tmp
timeout 60 python3 -c 'import apsp; print(apsp.config())'
timeout 240 python3 "$here/bench/batched-vs-scipy.py" --graphs 100000 --loop-graphs 2000 \
  --single 500 --runs 3 >"$out/batched-python.txt" 2>&1
echo "batched-vs-scipy.py: exit $?"
tail -25 "$out/batched-python.txt"
timeout 200 python3 -m pytest -q -p no:cacheprovider "$here/tests/python/test_fork.py" \
  "$here/tests/python/test_batch.py" 2>&1 | tail -15 | tee "$out/pytest.txt"
}
c=$out/cli.txt
part cli && {
for cls in grid:4096 road:5000; do
  $b/apsp generate --class ${cls%:*} --vertices ${cls#*:} --seed 3 /tmp/$cls.bin 2>/dev/null
  $b/apsp --algorithm supernodal --stats /tmp/sn.json /tmp/$cls.bin /tmp/sn.out >>"$c" 2>&1
  $b/apsp --algorithm fw --stats /tmp/fw.json /tmp/$cls.bin /tmp/fw.out >>"$c" 2>&1
  cmp -s /tmp/sn.out /tmp/fw.out && echo "$cls: supernodal = fw" >>"$c" || echo "$cls: DIFFER" >>"$c"
  grep -h '"compute"\|"supernodal"' /tmp/sn.json /tmp/fw.json | grep -v '^    ' >>"$c"
done
$b/apsp generate --class road --vertices 115000 --seed 3 /tmp/road115k.bin 2>/dev/null
timeout 120 $b/apsp --algorithm supernodal --stats /tmp/sn115k.json /tmp/road115k.bin /dev/null >>"$c" 2>&1
echo "road 115k CLI: exit $?" >>"$c"
grep -v '^    ' /tmp/sn115k.json >>"$c"
cat "$c"
}
echo "total $(($(date +%s) - start)) s"
