#!/bin/bash
# Device call 2 (issue 17): the module built here against this Python (as device.sh), tests/python
# (the module and the CUDA CLI against SciPy), timings of apsp.floyd_warshall.
set -u
G=$(cd "$(dirname "$0")" && pwd)
B=/tmp/apsp-py-build
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
step() { printf '\n==== %s (%s)\n' "$*" "$(date -u +%T)"; }

main() {
  step "Kokkos prefix: the CUDA library paths of this machine"
  rm -rf /tmp/kokkos && cp -a "$G/kokkos" /tmp/kokkos
  local d cudart stub libdl
  for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -z "${cudart:-}" ] && [ -e $d/libcudart.so ] && cudart=$d/libcudart.so
    [ -z "${stub:-}" ] && [ -e $d/stubs/libcuda.so ] && stub=$d/stubs/libcuda.so
  done
  for d in /usr/lib/x86_64-linux-gnu/libdl.a /usr/lib/x86_64-linux-gnu/libdl.so.2 /lib/x86_64-linux-gnu/libdl.so.2; do
    [ -z "${libdl:-}" ] && [ -e $d ] && libdl=$d
  done
  echo "cudart=${cudart:-none} stub=${stub:-none} libdl=${libdl:-none}"
  sed -i -e "s#\"/usr/local/cuda/lib/libcudart.so\"#\"${cudart:-}\"#" \
    -e "s#\"/usr/local/cuda/lib/stubs/libcuda.so\"#\"${stub:-}\"#" \
    -e "s#\"/usr/lib/x86_64-linux-gnu/libdl.a\"#\"${libdl:-}\"#" /tmp/kokkos/lib/cmake/Kokkos/KokkosConfig.cmake
  grep -n IMPORTED_LOCATION /tmp/kokkos/lib/cmake/Kokkos/KokkosConfig.cmake

  local py rc
  py=$(which python3)
  build() {  # $1: pybind11_DIR
    cmake -S "$G/src" -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER=/tmp/kokkos/bin/nvcc_wrapper -DCMAKE_PREFIX_PATH=/tmp/kokkos \
      -DAPSP_ENABLE_PYTHON=ON -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=OFF \
      -Dpybind11_DIR="$1" -DPython3_EXECUTABLE="$py" &&
      timeout 400 ninja -C $B -j 16 apsp_python
  }
  step "build apsp_python with pybind11 2.10.3 (carried)"
  build "$G/pybind11/lib/cmake/pybind11" >"$OUT/build-pybind11-2.10.3.log" 2>&1
  rc=$?
  grep -E "pybind11|Python3|apsp|Kokkos|error|Error" "$OUT/build-pybind11-2.10.3.log" | head -60
  echo "build with pybind11 2.10.3: rc=$rc"
  if [ $rc != 0 ]; then
    step "build apsp_python with the device's pybind11"
    build "$(python3 -m pybind11 --cmakedir)" >"$OUT/build-pybind11-device.log" 2>&1
    rc=$?
    grep -E "pybind11|error|Error" "$OUT/build-pybind11-device.log" | head -40
    echo "build with the device's pybind11: rc=$rc"
  fi
  [ $rc = 0 ] || return 1
  ls -la $B/python/apsp; ldd $B/python/apsp/_native*.so

  export PYTHONPATH=$B/python
  cd /tmp
  step "apsp.config()"
  timeout 60 python3 -c 'import apsp; print(apsp.config())'
  step "pytest tests/python"
  APSP_CLI="$G/../.gpu-bin-new/apsp" LD_LIBRARY_PATH=$G/../.gpu-bin-new/lib timeout 300 python3 -m pytest -q -p no:cacheprovider -rs "$G/src/tests/python" 2>&1 | tee "$OUT/pytest.log" | tail -25
  step "standalone check and timings"
  timeout 150 python3 "$G/gpu_check.py" 3 2000 4000 2>&1 | tee "$OUT/gpu-check.log"
  step end
}

main 2>&1 | tee "$OUT/device2.log"
