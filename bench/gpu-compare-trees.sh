#!/usr/bin/env bash
# One device call that compares two trees' rates on a GPU node: OLD (a copy of an earlier tree)
# and this one, each built there with the carried Kokkos (bench/make-carry.sh), then run
# interleaved, RUNS times each, on dense Floyd-Warshall of a random graph (V = DENSE_V) and
# supernodal Floyd-Warshall of the road-like class (V = ROAD_V), OUT = /dev/null. Prints each
# run's compute seconds (dense) and factor + rows seconds (supernodal), then the medians.
#   OUT=... bench/gpu-compare-trees.sh CARRY OLD        (writes under $OUT)
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd)
old=$(cd "${2:?OLD}" && pwd)
out=${OUT:-/tmp/apsp-compare}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH=/usr/local/cuda/bin:$PATH HOME=/root
runs=${RUNS:-5} dense_v=${DENSE_V:-30000} road_v=${ROAD_V:-115000}
source "$here/bench/lib/carried-kokkos.sh"  # sets k, build_tree
mkdir -p "$out/old" "$out/new"
(here=$old b=/tmp/build-old out=$out/old && build_tree apsp_cli) >"$out/old/build.txt" &
old_build=$!
(b=/tmp/build-new out=$out/new && build_tree apsp_cli) >"$out/new/build.txt"
wait $old_build
cat "$out/old/build.txt" "$out/new/build.txt"
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee "$out/gpu.txt"
/tmp/build-new/apsp generate --vertices "$dense_v" --density 0.01 --seed 7 /tmp/dense.bin >/dev/null
/tmp/build-new/apsp generate --class road --vertices "$road_v" --seed 3 /tmp/road.bin >/dev/null
field() {  # FILE: compute and (supernodal) factor + rows seconds of a --stats record
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); sn=s.get('supernodal',{}); \
print('%.4f %.4f %.4f' % (s['seconds']['compute'], sn.get('factor',0)+sn.get('rows',0), s['seconds']['total']))" "$1"
}
for i in $(seq "$runs"); do
  for tree in old new; do
    "/tmp/build-$tree/apsp" --algorithm fw --stats /tmp/s.json /tmp/dense.bin /dev/null &&
      echo "dense $tree $(field /tmp/s.json)" >>"$out/runs.txt"
    "/tmp/build-$tree/apsp" --algorithm supernodal --stats /tmp/s.json /tmp/road.bin /dev/null &&
      echo "road $tree $(field /tmp/s.json)" >>"$out/runs.txt"
  done
done
cat "$out/runs.txt"
python3 - "$out/runs.txt" <<'EOF' | tee "$out/medians.txt"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for case, col, name in (("dense", 2, "compute"), ("road", 3, "factor+rows"), ("road", 4, "total")):
    m = {t: statistics.median(float(r[col]) for r in rows if r[0] == case and r[1] == t)
         for t in ("old", "new")}
    print("%s %s: old %.4f s, new %.4f s, new/old %.3f" % (case, name, m["old"], m["new"],
                                                           m["new"] / m["old"]))
EOF
