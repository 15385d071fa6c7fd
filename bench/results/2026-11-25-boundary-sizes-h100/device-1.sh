#!/usr/bin/env bash
# One device call (issue 26 item 1): build apsp_cli there from src/ against the carried Kokkos,
# then bench/gpu-boundary-sizes.sh.
set -uo pipefail
start=$(date +%s)
here=$(cd "$(dirname "$0")" && pwd)
k=/root/.cache/apsp-deps/install/cuda-hopper-52c8d37a2a3e
mkdir -p "$(dirname "$k")" && cp -r "$here/kokkos" "$k" && ln -sfn "$k" /root/.cache/apsp-deps/cuda-hopper
export PATH=$PATH:/usr/local/cuda/bin HOME=/root
# The carried Kokkos names /usr/local/cuda/lib/{libcudart.so,stubs/libcuda.so}: where the CUDA
# there lays them out otherwise, point those names at what it has.
if ! command -v nvcc >/dev/null; then echo "no nvcc"; exit 3; fi
cuda=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
[ -e /usr/local/cuda ] || ln -s "$cuda" /usr/local/cuda
for f in libcudart.so stubs/libcuda.so; do
  [ -e "/usr/local/cuda/lib/$f" ] && continue
  found=$(find "$cuda"/ /usr/lib/x86_64-linux-gnu -path "*$f" 2>/dev/null | head -1)
  echo "linking /usr/local/cuda/lib/$f -> ${found:-nothing}"
  [ -n "$found" ] && mkdir -p "$(dirname "/usr/local/cuda/lib/$f")" && ln -s "$found" "/usr/local/cuda/lib/$f"
done
{ g++ --version | head -1; nvcc --version | tail -2; cmake --version | head -1; nproc; } >"$OUT/build.log" 2>&1
cd "$here/src" || exit 1
cmake --preset cuda-hopper -DAPSP_ENABLE_PYTHON=OFF -DAPSP_ENABLE_MPI=OFF -DAPSP_ENABLE_TESTS=OFF \
  >>"$OUT/build.log" 2>&1 && cmake --build --preset cuda-hopper -j16 --target apsp_cli >>"$OUT/build.log" 2>&1
rc=$?
echo "build: exit $rc after $(($(date +%s) - start)) s"
tail -5 "$OUT/build.log"
[ $rc -eq 0 ] || exit $rc
APSP_WORK=/tmp/apsp-boundary APSP_DEADLINE=$((start + 570)) bash "$here/gpu-boundary-sizes.sh" build/cuda-hopper "$OUT"
echo "total $(($(date +%s) - start)) s"
