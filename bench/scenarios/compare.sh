#!/usr/bin/env bash
# An older tree against this one on the same GPU: same bytes, rates interleaved (before a merge).
#   OLD=DIR|TARBALL [PARTS=...] [RUNS=5] bench/device compare
# OLD (default CARRY/old.tar.gz): a copy of the earlier tree; both are built on the node (the
# command line; METIS on, no MPI, module or tests). The parts (PARTS, default "same rates"):
#   same   this tree's Cuda against its Serial backend, bit for bit, with predecessors: random,
#          grid and road graphs, negative and real (float64, float32) weights (check.txt)
#   rates  interleaved, RUNS each: dense Floyd-Warshall of a random graph (V = DENSE_V, 30000),
#          compute seconds, and supernodal of the road-like class (V = ROAD_V, 115000), factor +
#          rows and total seconds, OUT = /dev/null (runs.txt, medians.txt)
#   ab     dense compute seconds over SIZES (V:density, default "4096:0.05 11000:0.01
#          40000:0.001"), interleaved, RUNS each (ab.txt, ab-summary.txt)
#   big    V = 65536 (issue 26 item 1: it never finished before) and `apsp verify` of its output
# (Was bench/gpu-compare-trees.sh (rates), bench/gpu-merge-check.sh (same, ab, big) and
# bench/gpu-ab.sh (ab).)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli)
setup
parts=${PARTS:-same rates}
part() { [[ " $parts " == *" $1 "* ]]; }
runs=${RUNS:-5}
work=${APSP_WORK:-/tmp/apsp-compare}
mkdir -p "$work"
build_old apsp_cli | tee -a "$out/summary.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { log "the older tree's build failed: $out/old/build.log"; exit 1; }
old_apsp=/tmp/build-old/apsp
log "old: $("$old_apsp" --version | head -n 1)"

if part same; then
  : >"$out/check.txt"
  "$apsp" generate --vertices 1531 --density 0.01 --seed 3 "$work/r.in" >/dev/null
  "$apsp" generate --class grid --vertices 2500 --seed 4 "$work/grid.in" >/dev/null
  "$apsp" generate --class road --vertices 3000 --seed 5 "$work/road.in" >/dev/null
  python3 - "$work/real.txt" <<'PY'
import random, sys
r = random.Random(9)
with open(sys.argv[1], "w") as f:
    for _ in range(20000):
        f.write(f"{r.randrange(1000)} {r.randrange(1000)} {r.uniform(-0.5, 10):.6g}\n")
PY
  fails=0
  same_on_gpu_and_serial random "$work/r.in" || fails=$((fails + 1))
  same_on_gpu_and_serial grid "$work/grid.in" || fails=$((fails + 1))
  same_on_gpu_and_serial road "$work/road.in" || fails=$((fails + 1))
  same_on_gpu_and_serial real64 --allow-negative --dtype float64 --output-format npy "$work/real.txt" ||
    fails=$((fails + 1))
  same_on_gpu_and_serial real32 --allow-negative --dtype float32 --output-format npy "$work/real.txt" ||
    fails=$((fails + 1))
  log "same: $fails of 5 differ between Cuda and Serial (check.txt)"
fi

if part rates; then
  dense_v=${DENSE_V:-30000} road_v=${ROAD_V:-115000}
  "$apsp" generate --vertices "$dense_v" --density 0.01 --seed 7 "$work/dense.bin" >/dev/null
  "$apsp" generate --class road --vertices "$road_v" --seed 3 "$work/road.bin" >/dev/null
  field() { # FILE: compute and (supernodal) factor + rows seconds of a --stats record
    python3 -c "import json,sys; s=json.load(open(sys.argv[1])); sn=s.get('supernodal',{}); \
print('%.4f %.4f %.4f' % (s['seconds']['compute'], sn.get('factor',0)+sn.get('rows',0), s['seconds']['total']))" "$1"
  }
  for _ in $(seq "$runs"); do
    for tree in old new; do
      x=$apsp
      [ $tree = old ] && x=$old_apsp
      "$x" --algorithm fw --stats "$work/s.json" "$work/dense.bin" /dev/null &&
        echo "dense $tree $(field "$work/s.json")" >>"$out/runs.txt"
      "$x" --algorithm supernodal --stats "$work/s.json" "$work/road.bin" /dev/null &&
        echo "road $tree $(field "$work/s.json")" >>"$out/runs.txt"
    done
  done
  python3 - "$out/runs.txt" <<'PY' | tee "$out/medians.txt" | tee -a "$out/summary.txt"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for case, col, name in (("dense", 2, "compute"), ("road", 3, "factor+rows"), ("road", 4, "total")):
    m = {t: statistics.median(float(r[col]) for r in rows if r[0] == case and r[1] == t)
         for t in ("old", "new")}
    print("%s %s: old %.4f s, new %.4f s, new/old %.3f" % (case, name, m["old"], m["new"],
                                                           m["new"] / m["old"]))
PY
fi

if part ab; then
  log "ab: A = old, B = new"
  interleaved_rates "$old_apsp" "$apsp" "${SIZES:-4096:0.05 11000:0.01 40000:0.001}" "$runs" |
    tee -a "$out/summary.txt"
fi

if part big; then
  "$apsp" generate --vertices 65536 --density 0.0001 --seed 1 "$work/g65536.in" >/dev/null
  timeout 120 "$apsp" --backend cuda "$work/g65536.in" "$work/g65536.out" --stats "$work/s65536.json"
  log "V = 65536: exit $? $(grep -o '"compute": [0-9.]*' "$work/s65536.json" | head -1)"
  timeout 150 "$apsp" verify --samples 4 "$work/g65536.in" "$work/g65536.out" 2>&1 | tail -2 |
    tee -a "$out/summary.txt"
  rm -f "$work/g65536.out"
fi
