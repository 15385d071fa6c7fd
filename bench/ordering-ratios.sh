#!/usr/bin/env bash
# ordering-ratios.sh BINDIR [CHECK]
# The counted ordering ratio (bench/ordering_ratio.cpp) of each structured class at the sizes of
# issue 25's real graphs (docs/PERFORMANCE.md entry 25): grid at V = 4,942 / 7,920 / 65,536, road
# at 4,942 / 7,920 / 65,536 / 114,599, seed 1, in METIS' order and in the file's own. BINDIR holds
# `apsp` and `apsp_ordering_ratio` (a build with APSP_ENABLE_BENCHMARKS and METIS). With CHECK
# (any second argument) only small graphs, each counted both ways (--method both): the ctest.
set -euo pipefail
bin=${1:?usage: ordering-ratios.sh BINDIR [CHECK]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [[ $# -ge 2 ]]; then
  for class in grid road; do
    for v in 1 2 17 300 1500; do
      "$bin/apsp" generate --class "$class" --vertices "$v" --seed 3 "$work/$class-$v.in" 2>/dev/null
    done
  done
  "$bin/apsp_ordering_ratio" --method both "$work"/*.in
  "$bin/apsp_ordering_ratio" --method both --order natural "$work"/*.in
  exit 0
fi

"$bin/apsp" --version
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
files=()
for spec in grid:4942 grid:7920 grid:65536 road:4942 road:7920 road:65536 road:114599; do
  class=${spec%:*} v=${spec#*:}
  "$bin/apsp" generate --class "$class" --vertices "$v" --seed 1 "$work/$class-$v.in" 2>/dev/null
  files+=("$work/$class-$v.in")
done
"$bin/apsp_ordering_ratio" "${files[@]}"
"$bin/apsp_ordering_ratio" --order natural "${files[@]}"
