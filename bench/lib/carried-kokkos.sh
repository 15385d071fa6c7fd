# shellcheck shell=bash disable=SC2154 # here, out, carry, bin, apsp, b: set by bench/device
# Sourced by what builds this tree on a GPU node (bench/device, and the records in bench/results):
# the cuda-hopper Kokkos prefix carried in $carry/kokkos copied to $k, its KokkosConfig pointed at
# the node's CUDA runtime and driver stub (the prefix names those of the machine that built it).
k=/tmp/kokkos
rm -rf $k && cp -a "$carry/kokkos" $k
cudart='' stub=''
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -z "$cudart" ] && [ -e $d/libcudart.so ] && cudart=$d/libcudart.so
  [ -z "$stub" ] && [ -e $d/stubs/libcuda.so ] && stub=$d/stubs/libcuda.so
done
sed -i -e "s#\"/usr/local/cuda/lib/libcudart.so\"#\"$cudart\"#" \
  -e "s#\"/usr/local/cuda/lib/stubs/libcuda.so\"#\"$stub\"#" $k/lib/cmake/Kokkos/KokkosConfig.cmake

# build_tree TARGETS...: this tree ($here) in $b with that prefix, CARRY's METIS ($carry/metis)
# and GoogleTest ($carry/deps/gtest), within build_seconds (default 480); the log in
# $out/build.log, then the build's exit code and time and its first errors printed. Returns the
# build's exit code. What is built follows these variables (ON/OFF; defaults in brackets): mpi
# [OFF], python [ON] (the module for the node's python3), tests [ON], benchmarks [OFF], metis
# [ON], nccl and kernels [not passed: the tree's defaults]; build_jobs [nproc].
build_tree() {
  local start rc options=()
  start=$(date +%s)
  [ -n "${nccl:-}" ] && options+=(-DAPSP_ENABLE_NCCL="$nccl")
  [ -n "${kernels:-}" ] && options+=(-DAPSP_ENABLE_KOKKOS_KERNELS="$kernels")
  [ "${python:-ON}" = ON ] && options+=(-Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)"
    -DPython3_EXECUTABLE="$(command -v python3)")
  [ "${tests:-ON}" = ON ] && options+=(-DGTest_ROOT="$carry/deps/gtest")
  cmake -S "$here" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
    -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS="${metis:-ON}" \
    -DAPSP_ENABLE_PYTHON="${python:-ON}" -DAPSP_ENABLE_TESTS="${tests:-ON}" \
    -DAPSP_ENABLE_MPI="${mpi:-OFF}" -DAPSP_ENABLE_BENCHMARKS="${benchmarks:-OFF}" \
    "${options[@]}" >"$out/build.log" 2>&1 &&
    timeout "${build_seconds:-480}" ninja -C "$b" -j "${build_jobs:-$(nproc)}" -k 0 "$@" \
      >>"$out/build.log" 2>&1
  rc=$?
  echo "build: exit $rc after $(($(date +%s) - start)) s"
  grep -E 'error|Error' "$out/build.log" | head -20
  return $rc
}
