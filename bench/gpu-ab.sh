#!/usr/bin/env bash
# A/B of two apsp binaries on a GPU node, interleaved: compute seconds of the same inputs.
#   bench/gpu-ab.sh APSP_A APSP_B OUT_DIR [SIZES] [RUNS] [-- OPTIONS...]
# SIZES: V:density pairs (default "5000:1 11000:0.1"); RUNS per binary and size (default 5).
# OPTIONS go to both binaries (e.g. --shape 1). Prints the median compute seconds and rate.
set -uo pipefail
a=${1:?APSP_A} b=${2:?APSP_B} out=$(mkdir -p "${3:?OUT_DIR}" && cd "$3" && pwd)
sizes=${4:-"5000:1 11000:0.1"} runs=${5:-5}
shift $(($# < 5 ? $# : 5))
[[ ${1:-} == -- ]] && shift
work=${APSP_WORK:-/tmp/apsp-ab}
mkdir -p "$work"
for vp in $sizes; do
  v=${vp%%:*} p=${vp##*:}
  "$a" generate --vertices "$v" --density "$p" --seed 7 "$work/g$v.in" 2>/dev/null
  for rep in $(seq "$runs"); do
    for which in A B; do
      bin=$a
      [[ $which == B ]] && bin=$b
      "$bin" --backend cuda "$@" "$work/g$v.in" /dev/null --stats "$work/s.json" &&
        echo "$which $v $(sed -n 's/.*"compute": \([0-9.e+-]*\),.*/\1/p' "$work/s.json" | head -1)" \
          >>"$out/ab.txt"
    done
  done
done
python3 - "$out/ab.txt" <<'PY' | tee "$out/ab-summary.txt"
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w, v, c = line.split()
    runs[(int(v), w)].append(float(c))
for (v, w), cs in sorted(runs.items()):
    m = statistics.median(cs)
    print(f"V={v} {w}: median {m:.5f} s ({v**3 / m / 1e12:.2f} T), min {min(cs):.5f}, n={len(cs)}")
PY
