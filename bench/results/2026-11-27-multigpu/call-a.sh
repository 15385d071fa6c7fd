#!/usr/bin/env bash
# Device call A (2026-11-27, issues 34-36): one build (CLI + unit tests; MPI, NCCL, METIS) in
# build/device, then the transports' correctness (bench/gpu-transport.sh same + kill) and the
# measures on the GPU (bench/gpu-measures.sh). Run from the top of the tree:
#   OUT=... bash bench/results/2026-11-27-multigpu/call-a.sh .device-carry
set -uo pipefail
here=$(pwd); carry=$(cd "${1:?CARRY}" && pwd); out=${OUT:-/tmp/call-a}; mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH HOME=/root NCCL_NVLS_ENABLE=0
source bench/lib/carried-kokkos.sh
b=$here/build/device; s=$(date +%s)
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=OFF \
  -DAPSP_ENABLE_TESTS=ON -DAPSP_ENABLE_MPI=ON -DAPSP_ENABLE_NCCL=ON -DAPSP_ENABLE_BENCHMARKS=OFF \
  -DGTest_ROOT="$carry/deps/gtest" >"$out/build.log" 2>&1 &&
  timeout 330 ninja -C $b -j "$(nproc)" -k 0 apsp_cli apsp_tests >>"$out/build.log" 2>&1
echo "build: exit $? after $(( $(date +%s)-s )) s"; grep -E 'error' "$out/build.log" | head -20
nvidia-smi -L; nvidia-smi topo -m > "$out/topology.txt" 2>&1
[ -x $b/apsp ] || exit 1
APSP_BUILD=$b PARTS="same kill" OUT=$out/transport KILL_V=${KILL_V:-20000} timeout 200 bash bench/gpu-transport.sh "$carry" 2>&1 | tail -25
[ -x $b/tests/apsp_tests ] && cp $b/tests/apsp_tests $b/ 2>/dev/null
timeout 120 $b/tests/apsp_tests --gtest_brief=1 --gtest_filter='Pipeline*:Solver*:Measures*' >$out/unit.log 2>&1
echo "unit (Pipeline, Solver, Measures): exit $?"; grep -E 'FAILED|PASSED' $out/unit.log | head -12
timeout 150 bash bench/gpu-measures.sh $b $out/measures 2>&1 | tail -20
echo "call A: $(( $(date +%s)-s )) s"
