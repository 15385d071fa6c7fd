#!/usr/bin/env bash
# plan_no_kernels.sh INCLUDE_DIR[:INCLUDE_DIR...] HEADER...
# A plan describes work and launches none: no header of the algorithm layer that HEADER (say
# apsp/plan.hpp) reaches through its `#include <apsp/...>` lines may be a kernel header, one that
# names a Kokkos execution policy or a parallel_for / parallel_reduce / parallel_scan. Prints the
# chain of includes to each kernel header reached and fails when there is one. A header is looked
# for in each INCLUDE_DIR in turn (the tree's include/, then the build's generated apsp/config.hpp).
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: plan_no_kernels.sh INCLUDE_DIR[:INCLUDE_DIR...] HEADER..." >&2; exit 2; }
IFS=: read -r -a roots <<<"$1"
shift
declare -A seen=()
bad=0
visit() {  # visit HEADER CHAIN
  local header=$1 chain=$2
  [[ -n ${seen[$header]:-} ]] && return 0
  seen[$header]=1
  local root='' dir
  for dir in "${roots[@]}"; do
    [[ -f $dir/$header ]] && { root=$dir; break; }
  done
  [[ -n $root ]] || { echo "no header $header in ${roots[*]}" >&2; exit 1; }
  if grep -qE 'parallel_(for|reduce|scan)|(Team|Range|MDRange)Policy' "$root/$header"; then
    echo "$chain$header"
    bad=1
  fi
  local next
  while IFS= read -r next; do
    visit "$next" "$chain$header -> "
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<(apsp\/[^>]+)>.*/\1/p' "$root/$header")
}
for header in "$@"; do
  seen=()
  visit "$header" ""
done
if [[ $bad -ne 0 ]]; then
  echo "plan_no_kernels: the headers above launch kernels (a Kokkos policy or parallel_*)" >&2
  exit 1
fi
echo "plan_no_kernels: no header reached from $* launches a kernel"
