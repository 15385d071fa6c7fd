#!/usr/bin/env bash
# core_headers.sh INCLUDE_DIR
# The algorithm layer (include/apsp, what a Kokkos user embeds) knows no command line, no
# environment and no stderr: no header of it may name a flag ("--" and a letter in a comment or
# a string), mpirun, stderr / std::cerr, or getenv. Prints each offending line and fails when
# there is one.
set -euo pipefail
dir=${1:?usage: core_headers.sh INCLUDE_DIR}
[[ -d $dir/apsp ]] || { echo "no $dir/apsp" >&2; exit 1; }
if grep -rnE --include='*.hpp' -e '(//|").*--[a-z]|mpirun|stderr|cerr|getenv' "$dir/apsp"; then
  echo "core_headers: the lines above speak the command line, the environment or stderr" >&2
  exit 1
fi
echo "core_headers: $(find "$dir/apsp" -name '*.hpp' | wc -l) headers, none names a flag, mpirun, stderr or getenv"
