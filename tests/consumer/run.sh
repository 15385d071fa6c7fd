#!/usr/bin/env bash
# The consumer-project test: install the build into a private prefix, configure and build
# tests/consumer against it with find_package(Apsp) (only Kokkos' location is passed, as a
# user would: the prefix that holds Kokkos, and Kokkos Kernels where the build has them), run it.
#   run.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER KOKKOS_PREFIX [GENERATOR]
set -euo pipefail
build=$1 source=$2 work=$3 cxx=$4 kokkos=$5 generator=${6:-Ninja}
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source" -B "$work/build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$work/prefix;$kokkos" >/dev/null
cmake --build "$work/build"
OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$work/build/consumer"
