#!/usr/bin/env bash
# The consumer-project test: install the build into a private prefix, then configure, build and
# run one project of a user's own per component of the package (tests/consumer/<component>:
# core, ordering where the build has METIS, sssp where it has Kokkos Kernels, app) with
# find_package(Apsp COMPONENTS ...). Only the prefixes are passed, as a user would: the install's
# and the one that holds Kokkos (and Kokkos Kernels where the build has them). The core project configures with MPI, Kokkos Kernels
# and METIS disabled (CMAKE_DISABLE_FIND_PACKAGE_*): Apsp::core must need Kokkos alone.
#   run.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER KOKKOS_PREFIX GENERATOR COMPONENT...
set -euo pipefail
[[ $# -ge 7 ]] || {
  echo "usage: run.sh BUILD_DIR SOURCE_DIR WORK_DIR CXX_COMPILER KOKKOS_PREFIX GENERATOR" \
    "COMPONENT..." >&2
  exit 2
}
build=$1 source=$2 work=$3 cxx=$4 kokkos=$5 generator=$6
shift 6
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
# Every dependency is named by its imported target (METIS::METIS, not the path of a libmetis.a).
if grep -nE '(^|[";:])/[^";>]*\.(a|so)([";>]|$)' "$work"/prefix/lib*/cmake/Apsp/*Targets*.cmake; then
  echo "consumer: the exported targets above name a library by its path" >&2
  exit 1
fi
# The build's options are in the installed headers (apsp/config.hpp, platform/config.hpp), never
# in a compile definition that a consumer's target inherits (and a project that includes the
# headers without the targets would lack).
if grep -nE 'INTERFACE_COMPILE_DEFINITIONS.*APSP_' "$work"/prefix/lib*/cmake/Apsp/*Targets*.cmake; then
  echo "consumer: the exported targets above pass apsp's options as compile definitions" >&2
  exit 1
fi
for component in "$@"; do
  echo "== consumer of Apsp::$component"
  only_kokkos=()
  if [[ $component == core ]]; then
    only_kokkos=(-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels=ON
                 -DCMAKE_DISABLE_FIND_PACKAGE_METIS=ON)
  fi
  cmake -S "$source/$component" -B "$work/$component" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$work/prefix;$kokkos" "${only_kokkos[@]}" \
    >"$work/$component.configure.log" || { cat "$work/$component.configure.log"; exit 1; }
  cmake --build "$work/$component"
  for program in "$work/$component"/consumer_*; do
    [[ -x $program && -f $program ]] || continue
    (cd "$work/$component" && OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} "$program")
  done
done
