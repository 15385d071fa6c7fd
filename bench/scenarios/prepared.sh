#!/usr/bin/env bash
# Tables of a prepared graph (issue 46): apsp.Graph's queries against the same table from the edge list.
#   [PYTEST=0] bench/device prepared [SIZES]
# For each road-like graph of SIZES vertices (default "115000 1000000"; `apsp generate --class
# road --seed 3`), bench/prepared-graph.py through the module built for the node's Python: the
# prepare, 1,000 x 1,000 and 10,000 x 10,000 tables (best and median of 5), new weights then the
# first table again, and the command line's table from the edge list, each table checked against
# the command line's. First the module's tests of apsp.Graph on the GPU (tests/python/test_graph.py;
# PYTEST=0 skips them). NCU=1: Nsight Compute's view of the sweeps of one 1,000 x 1,000 table of
# each graph (ncu-table-V.txt).
# Then the command line's prepared graph (CLI=0 skips it): `apsp prepare` (wall, 3 runs; the
# file's size against the factor's bytes and the graph's), a 1,000 x 1,000 table from it and from
# the edge list (wall, 3 runs each, checked equal), the measures from it and from the edge list
# at V <= 200,000, apsp.Graph.load with the predecessors of 10 sources and one path, `apsp path
# --algorithm supernodal` from the file and (V <= 200,000) from the edge list, checked equal, and the
# file read on the node's host backend (the table checked; whole-number distances: the same
# file prepared there, byte for byte).
# Targets (one H100/H200, V = 115,000): table 1,000 x 1,000 <= 0.05 s, update + table <= 0.1 s;
# V = 1,000,000: 1,000 x 1,000 <= 0.2 s, 10,000 x 10,000 <= 1 s; apsp prepare <= 5 s, the file
# <= 2 x (the factor's bytes + the graph's).
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli apsp_python) python=ON
setup
sizes=${1:-115000 1000000}
work=${APSP_WORK:-/tmp/apsp-prepared}
mkdir -p "$work"
export PYTHONPATH=$bin/python
status=0
if [ "${PYTEST:-1}" != 0 ]; then
  (cd /tmp && APSP_BUILD_DIR=$bin timeout 300 python3 -m pytest -q -p no:cacheprovider \
    "$here/tests/python/test_graph.py" >"$out/pytest.txt" 2>&1) || status=1
  log "test_graph.py: $(tail -n 1 "$out/pytest.txt")"
fi
for v in $sizes; do
  "$apsp" generate --class road --vertices "$v" --seed 3 "$work/road$v.in" 2>/dev/null
  (cd /tmp && timeout 400 python3 "$here/bench/prepared-graph.py" "$apsp" "$work/road$v.in" \
    --counts 1000,10000 --runs 5 --cli-runs 3) 2>&1 | tee -a "$out/summary.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
  if [ "${NCU:-0}" != 0 ] && command -v ncu >/dev/null; then
    (cd /tmp && ncu --clock-control none --kernel-name-base demangled -k regex:RowSweeps -c 1 --section SpeedOfLight \
      --section Occupancy --section LaunchStats python3 - "$work/road$v.in" >"$out/ncu-table-$v.txt" 2>&1 <<'EOF'
import random, sys
import numpy as np
import apsp
data = np.fromfile(sys.argv[1], dtype="<i4")
v, e = int(data[0]), int(data[1])
src, dst, w = data[2:2 + 3 * e].reshape(e, 3).T
g = apsp.Graph((src.astype(np.int64), dst.astype(np.int64), w.astype(np.float64), v))
rng = random.Random(1)
g.distances([rng.randrange(v) for _ in range(1000)], [rng.randrange(v) for _ in range(1000)])
EOF
    )
    log "ncu, V = $v, a 1,000 x 1,000 table's sweeps: $(grep -E 'Duration|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|Grid Size|Block Size' \
      "$out/ncu-table-$v.txt" | tr -s ' ' | tr '\n' ';')"
  fi
done
# [APSP_TO=FILE] wall CMD...: CMD's wall seconds on stdout (its output to FILE, or the void);
# fails with it.
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"${APSP_TO:-/dev/null}" 2>"$work/wall.err" || { log "failed: $* ($(cat "$work/wall.err"))"; return 1; }
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.3f", $2 - $1}'
}
host=$("$apsp" --version | sed -n 's/.*backends: //p' | tr ',' '\n' | tr -d ' ' | grep -vx cuda | head -n 1)
if [ "${CLI:-1}" != 0 ]; then
  for v in $sizes; do
    in=$work/road$v.in prep=$work/road$v.prep
    awk -v n="$v" 'BEGIN { srand(5); for (i = 0; i < 1000; i++) print int(rand() * n) }' >"$work/s.txt"
    awk -v n="$v" 'BEGIN { srand(6); for (i = 0; i < 1000; i++) print int(rand() * n) }' >"$work/t.txt"
    table=(--sources @"$work/s.txt" --targets @"$work/t.txt")
    times=""
    for r in 1 2 3; do times+=" $(wall "$apsp" prepare --stats "$out/prepare-$v.json" "$in" "$prep")" || status=1; done
    factor=$(grep -o '"factor_bytes": [0-9]*' "$out/prepare-$v.json" | grep -o '[0-9]*$')
    edges=$(grep -o '"edges": [0-9]*' "$out/prepare-$v.json" | head -n 1 | grep -o '[0-9]*$')
    size=$(stat -c %s "$prep")
    log "V = $v: apsp prepare:$times s; file $size bytes = $(awk -v s="$size" -v f="$factor" -v e="$edges" \
      'BEGIN { printf "%.2f", s / (f + 16 * e) }') x (factor $factor + graph $((16 * edges)))"
    prepared="" listed=""
    for r in 1 2 3; do
      prepared+=" $(wall "$apsp" --stats "$out/table-$v.json" "$prep" "$work/t1.npy" "${table[@]}")" ||
        status=1
      listed+=" $(wall "$apsp" --algorithm supernodal "$in" "$work/t2.npy" "${table[@]}")" || status=1
    done
    cmp -s "$work/t1.npy" "$work/t2.npy" || { log "V = $v: the prepared table differs"; status=1; }
    log "V = $v: 1,000 x 1,000 table, command line: prepared$prepared s; edge list$listed s"
    log "V = $v: the last prepared table's stages (s): $(grep -o '"seconds": {[^}]*' "$out/table-$v.json" |
      head -n 1 | grep -oE '"(read|plan|compute|write|total)": [0-9.e-]+' | tr '\n' ' ')"
    if [ "$v" -le 200000 ]; then
      m1=$(wall "$apsp" measures "$prep" "$work/m1.json") || status=1
      m2=$(wall "$apsp" measures --algorithm supernodal "$in" "$work/m2.json") || status=1
      cmp -s "$work/m1.json" "$work/m2.json" || { log "V = $v: the prepared measures differ"; status=1; }
      log "V = $v: every measure: prepared $m1 s, edge list $m2 s"
      if [ -n "$host" ]; then
        h=$(wall "$apsp" --backend "$host" "$prep" "$work/t3.npy" "${table[@]}") || status=1
        cmp -s "$work/t3.npy" "$work/t1.npy" || { log "V = $v: $host reads another table"; status=1; }
        "$apsp" prepare --backend "$host" "$in" "$work/host.prep" || status=1
        cmp -s "$work/host.prep" "$prep" && same=same || { same=another; status=1; }
        log "V = $v: the GPU's file on $host: the table in $h s, equal; prepared on $host: $same file"
      fi
    fi
    load=$(cd /tmp && python3 -c "import sys, time, numpy as np, apsp
t = time.perf_counter(); g = apsp.Graph.load(sys.argv[1]); loaded = time.perf_counter() - t
sources = np.random.default_rng(1).integers(0, g.num_vertices, 10)
g.predecessors(sources[:1])
t = time.perf_counter(); g.predecessors(sources, [0]); pred = time.perf_counter() - t
t = time.perf_counter(); p = g.path(int(sources[0]), int(sources[1])); path = time.perf_counter() - t
print('%.3f s; predecessors of 10 sources %.3f s; a path of %d vertices %.3f s' % (loaded, pred, p.size, path))" "$prep") || status=1
    log "V = $v: apsp.Graph.load $load"
    # One path from the file's factor (--algorithm supernodal; auto makes one search instead);
    # from the edge list (every pair with predecessors: 183 s at 1M, entry 72) at V <= 200,000.
    far=$((v - 1))
    p1=$(APSP_TO="$work/path1.txt" wall "$apsp" path --algorithm supernodal "$prep" 0 "$far") || status=1
    p2="(not run above V = 200,000)"
    if [ "$v" -le 200000 ]; then
      p2="$(APSP_TO="$work/path2.txt" wall "$apsp" path --algorithm supernodal "$in" 0 "$far") s" || status=1
      cmp -s "$work/path1.txt" "$work/path2.txt" || { log "V = $v: the prepared path differs"; status=1; }
    fi
    log "V = $v: apsp path 0 $far --algorithm supernodal: prepared $p1 s, edge list $p2 ($(head -n 1 "$work/path1.txt"))"
  done
fi
log "done: $(date -u +%H:%M:%SZ)"
[ $status = 0 ]
