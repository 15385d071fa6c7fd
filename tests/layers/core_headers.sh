#!/usr/bin/env bash
# core_headers.sh HEADER...
# The algorithm layer (Apsp::core: the headers CMakeLists.txt lists as the core, and
# include/apsp/detail) knows no command line, no environment and no stderr: none of its headers
# may name a flag ("--" and a letter in a comment or a string), mpirun, stderr / std::cerr, or
# getenv. Prints each offending line and fails when there is one.
set -euo pipefail
[[ $# -gt 0 ]] || { echo "usage: core_headers.sh HEADER..." >&2; exit 2; }
for f in "$@"; do [[ -f $f ]] || { echo "no header $f" >&2; exit 1; }; done
if grep -nE -e '(//|").*--[a-z]|mpirun|stderr|cerr|getenv' "$@"; then
  echo "core_headers: the lines above speak the command line, the environment or stderr" >&2
  exit 1
fi
echo "core_headers: $# headers, none names a flag, mpirun, stderr or getenv"
