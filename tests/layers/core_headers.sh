#!/usr/bin/env bash
# core_headers.sh HEADER...
# The algorithm layer (Apsp::core: every header under include/apsp/) knows no command line, no
# environment and no stderr: none of its headers may name a flag ("--" and a letter in a comment
# or a string), mpirun, stderr / std::cerr, or getenv; nor include a header of the application
# (src/: `#include "..."`), which a user of the installed core does not have; nor launch a
# KOKKOS_LAMBDA (its kernels are named functors: CONTRIBUTING.md, "Kernels"). Prints each
# offending line and fails when there is one.
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: core_headers.sh HEADER..." >&2; exit 2; }
for f in "$@"; do [[ -f $f ]] || { echo "no header $f" >&2; exit 1; }; done
if grep -nE -e '(//|").*--[a-z]|mpirun|stderr|cerr|getenv' "$@"; then
  echo "core_headers: the lines above speak the command line, the environment or stderr" >&2
  exit 1
fi
if grep -nE -e '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@"; then
  echo "core_headers: the lines above include a header of the application (src/)" >&2
  exit 1
fi
# A KOKKOS_LAMBDA outside a comment.
if grep -nE -e '^[^/]*KOKKOS_(CLASS_)?LAMBDA' "$@"; then
  echo "core_headers: the lines above use KOKKOS_LAMBDA: write a named functor" >&2
  exit 1
fi
echo "core_headers: $# headers, none names a flag, mpirun, stderr or getenv, includes src/ or" \
  "uses KOKKOS_LAMBDA"
