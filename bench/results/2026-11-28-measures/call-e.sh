#!/usr/bin/env bash
# Device call E (2026-11-28, issue 35): after the measures' totals came out of the memory budget,
# build this tree on a 2-GPU node (as call A), then call B's --max-memory 8G check and every
# measure of the road-like V = 1,000,000 on both GPUs. Run from the top of the tree:
#   OUT=... bash bench/results/2026-11-28-measures/call-e.sh .device-carry
set -uo pipefail
here=$(pwd); carry=$(cd "${1:?CARRY}" && pwd); out=${OUT:-/tmp/call-e}; mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH HOME=/root
source bench/lib/carried-kokkos.sh
b=$here/build/device; s=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $out/gpu.txt
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=OFF \
  -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=ON -DAPSP_ENABLE_NCCL=OFF -DAPSP_ENABLE_BENCHMARKS=OFF \
  >"$out/build.log" 2>&1 && timeout 300 ninja -C $b -j "$(nproc)" apsp_cli >>"$out/build.log" 2>&1
echo "build: exit $? after $(( $(date +%s)-s )) s"; grep -E 'error' "$out/build.log" | head -20
rm -f "$out/build.log"
MAXMEM=1 ONE=0 TWO=1 OUT=$out bash bench/results/2026-11-28-measures/call-b.sh
