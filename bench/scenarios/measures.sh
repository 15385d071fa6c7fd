#!/usr/bin/env bash
# `apsp measures` on the GPU (issue 35): the reduction where the rows are made, checked, timed.
#   bench/device measures [ROAD_V]
# The build has the Serial backend too, the reference here (no NetworkX is needed on the node).
#   1. apsp_tests --gtest_filter='Measures*:Int128*': graph_measures on the GPU, blocks of any
#      size giving the bits of a plain loop (int32, float32, float64).
#   2. For graphs made by `apsp generate` (byte-identical everywhere: random, grid, road), the
#      .json of fw and supernodal on CUDA, byte for byte the Serial backend's (int32: every
#      algorithm and backend gives the same bytes); real weights (--dtype float64) within 1e-12.
#   3. Timing: a road-like graph of ROAD_V vertices (default 115000), every measure, supernodal on
#      one GPU (--stats: compute = the rows, write = the reduction and the file), beside the
#      same run writing the distances to /dev/null.
# OUT gets summary.txt, tests.log and the stats files.
# (Was bench/gpu-measures.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli apsp_tests) tests=ON
setup
road_v=${1:-115000}
work=${APSP_WORK:-/tmp/apsp-measures}
mkdir -p "$work"
status=0

run_tests 'Measures*:Int128*' || status=1

"$apsp" generate --vertices 700 --density 0.004 --seed 3 "$work/random.in" 2>/dev/null
"$apsp" generate --class grid --vertices 1500 --seed 4 "$work/grid.in" 2>/dev/null
"$apsp" generate --class road --vertices 3000 --seed 5 "$work/road.in" 2>/dev/null
for g in random grid road; do
  "$apsp" measures "$work/$g.in" "$work/$g.serial.json" --backend serial --algorithm fw
  for a in fw supernodal; do
    "$apsp" measures "$work/$g.in" "$work/$g.$a.json" --backend cuda --algorithm $a
    if cmp -s "$work/$g.$a.json" "$work/$g.serial.json"; then
      log "int32 $g $a: cuda = serial, byte for byte"
    else
      log "int32 $g $a: cuda DIFFERS from serial"
      status=1
    fi
  done
  "$apsp" measures "$work/$g.in" "$work/$g.f64.serial.json" --backend serial --dtype float64
  "$apsp" measures "$work/$g.in" "$work/$g.f64.cuda.json" --backend cuda --dtype float64 \
    --algorithm supernodal
  python3 - "$work/$g.f64.cuda.json" "$work/$g.f64.serial.json" <<'EOF' | tee -a "$out/summary.txt"
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
worst = 0.0
def walk(x, y):
    global worst
    if isinstance(x, dict):
        for k in y:
            walk(x[k], y[k])
    elif isinstance(x, list):
        assert len(x) == len(y)
        for u, v in zip(x, y):
            walk(u, v)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        if x != y:
            worst = max(worst, abs(x - y) / max(abs(x), abs(y)))
    else:
        assert x == y
walk(a, b)
print("float64 %s: cuda against serial, worst relative difference %.3g%s"
      % (sys.argv[1].split("/")[-1].split(".")[0], worst, "" if worst <= 1e-12 else " (> 1e-12)"))
EOF
done

"$apsp" generate --class road --vertices "$road_v" --seed 1 "$work/big.in" 2>/dev/null
"$apsp" measures "$work/big.in" "$out/big.json" --algorithm supernodal --stats "$out/measures.stats.json"
"$apsp" "$work/big.in" /dev/null --algorithm supernodal --stats "$out/devnull.stats.json"
python3 - "$out/measures.stats.json" "$out/devnull.stats.json" <<'EOF' | tee -a "$out/summary.txt"
import json, sys
for name, path in zip(("measures", "/dev/null"), sys.argv[1:3]):
    s = json.load(open(path))["seconds"]
    print("road V=%s %-9s total %.3f s (compute %.3f, download %.3f, write %.3f)"
          % (json.load(open(path))["vertices"], name, s["total"], s["compute"], s["download"],
             s["write"]))
EOF
[ $status = 0 ]
