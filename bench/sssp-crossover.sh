#!/usr/bin/env bash
# sssp-crossover.sh APSP [V] [DEGREES...]
# Where --algorithm sssp stops beating --algorithm fw on this machine: for each average degree,
# a random graph with V vertices (default 4000), both algorithms, best compute seconds of 3 runs
# (from --stats), then E/V and E/V^2. The constant apsp::sssp_max_density (src/plan/sssp_choice.hpp)
# comes from this table (docs/PERFORMANCE.md, "Sparse graphs: SSSP vs FW").
set -euo pipefail
apsp=${1:?usage: sssp-crossover.sh APSP [V] [DEGREES...]}
v=${2:-4000}
shift $(($# >= 2 ? 2 : 1))
degrees=("$@")
[[ ${#degrees[@]} -gt 0 ]] || degrees=(2 10 50 100 200 400)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

best_compute() {  # best_compute ALGORITHM IN: the least compute seconds of 3 runs
  local best=
  for _ in 1 2 3; do
    "$apsp" --algorithm "$1" --stats "$work/stats.json" "$2" "$work/out.$1"
    s=$(sed -n 's/.*"compute": \([0-9.e+-]*\),.*/\1/p' "$work/stats.json")
    best=$(python3 -c "print(min(float('$s'), float('${best:-inf}')))")
  done
  echo "$best"
}

"$apsp" --version
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%8s %10s %10s %10s %10s %8s\n' degree E/V E/V^2 sssp_s fw_s fw/sssp
for d in "${degrees[@]}"; do
  density=$(python3 -c "print($d / $v)")
  "$apsp" generate --vertices "$v" --density "$density" --seed 1 "$work/g.in" 2>"$work/gen.log"
  e=$(sed -n 's/.*E = \([0-9]*\).*/\1/p' "$work/gen.log")
  sssp=$(best_compute sssp "$work/g.in")
  fw=$(best_compute fw "$work/g.in")
  cmp -s "$work/out.sssp" "$work/out.fw" || { echo "sssp and fw differ at degree $d" >&2; exit 1; }
  python3 -c "print('%8s %10.1f %10.5f %10.3f %10.3f %8.2f' % ('$d', $e / $v, $e / $v**2, $sssp, $fw, $fw / $sssp))"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
