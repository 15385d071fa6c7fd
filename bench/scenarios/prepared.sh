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
# Targets (one H100/H200, V = 115,000): table 1,000 x 1,000 <= 0.05 s, update + table <= 0.1 s;
# V = 1,000,000: 1,000 x 1,000 <= 0.2 s, 10,000 x 10,000 <= 1 s.
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
log "done: $(date -u +%H:%M:%SZ)"
[ $status = 0 ]
