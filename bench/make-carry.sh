#!/usr/bin/env bash
# Makes the folder that the device scripts carry to a GPU node (default .device-carry, ignored by
# git): kokkos/ (the cuda-hopper prefix of scripts/bootstrap-deps), metis/ (its static METIS)
# and deps/gtest/ (GoogleTest from Debian's source, static, position-independent).
#   bench/make-carry.sh [DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/.device-carry}
deps=${APSP_DEPS_DIR:-$HOME/.cache/apsp-deps}
[ -f "$deps/cuda-hopper/.complete" ] ||
  { echo "make-carry: run scripts/bootstrap-deps --backend cuda-hopper --no-kernels first" >&2; exit 1; }
mkdir -p "$dir/deps"
rm -rf "$dir/kokkos" "$dir/metis"
cp -aL "$deps/cuda-hopper" "$dir/kokkos"
cp -aL "$deps/metis" "$dir/metis"
if [ ! -f "$dir/deps/gtest/lib/libgtest.a" ] && [ ! -f "$dir/deps/gtest/lib64/libgtest.a" ]; then
  cmake -S /usr/src/googletest -B /tmp/gtest-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_INSTALL_PREFIX="$dir/deps/gtest" >/dev/null
  cmake --build /tmp/gtest-build --target install >/dev/null
fi
du -sh "$dir"
