#!/usr/bin/env bash
# Supernodal Floyd-Warshall against dense on one GPU (issue 25): right, and how much faster?
#   [PARTS="bench threads cli tests python"] [ROW_BLOCK=N] [DENSE=0] [THREADS="0 1 2 4"]
#   bench/device supernodal
# The parts (PARTS, default "bench cli"):
#   bench   apsp_bench_supernodal (bench/bench_supernodal.cpp): every row against dense FW at
#           V = 4096 (grid and road-like); the road-like class at V = 115,000 (target: compute
#           <= 1.0 s, stretch 0.3 s; dense FW: ~130 s at V = 114,599, not rerun); the mesh class
#           at V = 65,536 (a 256 x 256 grid standing in for the Delaunay mesh; target >= 50x dense
#           FW, whose time is rerun on the 65,025-vertex 255 x 255 grid unless DENSE=0); sizes in
#           between. ROW_BLOCK sets the rows per block (default: the program's, ~256 MB of rows).
#   cli     the command line: --algorithm supernodal --predecessors against fw's two files, byte
#           for byte (grid V = 4096, road-like V = 5,000); road-like V = 48,000 in one block of
#           rows of more than 2^31 values against fw's output; the road-like V = 115,000 and the
#           mesh V = 65,536 to /dev/null (two runs each, then the road with --predecessors),
#           dense fw on the mesh, `apsp path` on the road (cli.txt)
#   threads apsp_bench_supernodal's whole rows at THREADS threads a row (RowSweeps::split;
#           default "0 1 2 4", 0 the rule's) of the road-like class at V = 115,000 (set ROW_BLOCK
#           to the command line's block: 57,500 rows on an H200), and at V = 20,000 every row
#           against dense FW at each
#   tests   the unit tests of supernodal.hpp and the pipeline on the GPU
#   python  tests/python/test_scipy.py's supernodal tests through the module on the GPU
# OUT gets summary.txt (every line printed) and one log per run.
# (Was bench/gpu-supernodal.sh (bench) and the supernodal parts of bench/gpu-new-solvers.sh and
# bench/gpu-supernodal-paths.sh (cli, tests, python).)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
parts=${PARTS:-bench cli}
part() { [[ " $parts " == *" $1 "* ]]; }
targets=(apsp_cli)
{ part bench || part threads; } && targets+=(apsp_bench_supernodal) && benchmarks=ON
part tests && targets+=(apsp_tests) && tests=ON
part python && targets+=(apsp_python) && python=ON
setup
block=${ROW_BLOCK:-}

run() {  # NAME ARGS...
  local name=$1
  shift
  log "== $name: $*"
  timeout 600 "$bin/apsp_bench_supernodal" "$@" ${block:+--block "$block"} > "$out/$name.log" 2>&1
  local rc=$?
  grep -E "^(graph|plan|run|best|dense|check)" "$out/$name.log" | tee -a "$out/summary.txt"
  if [ $rc -ne 0 ]; then
    log "(exit $rc; tail of the log:)"
    tail -n 5 "$out/$name.log" | tee -a "$out/summary.txt"
  fi
}

part bench && {
run check-grid --graph grid --vertices 4096 --repeats 1 --check
run check-road --graph road --vertices 4096 --repeats 1 --check
run road-115k --graph road --vertices 115000 --repeats 3
if [ "${DENSE:-1}" = 1 ]; then
  run mesh-65025-dense --graph grid --vertices 65025 --repeats 2 --dense
fi
run mesh-65536 --graph grid --vertices 65536 --repeats 3
for v in 16384 32768; do
  run road-$v --graph road --vertices $v --repeats 2
  run mesh-$v --graph grid --vertices $v --repeats 2
done
}
part threads && for t in ${THREADS:-0 1 2 4}; do
  run road-115k-threads-$t --graph road --vertices 115000 --repeats 3 --row-threads "$t"
  block='' run check-road-20k-threads-$t --graph road --vertices 20000 --repeats 1 --check \
    --row-threads "$t"
done
part tests && run_tests '*Supernodal*:*Pipeline*'
c=$out/cli.txt
stats() { python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); s = d['seconds']; n = d.get('supernodal', {})
print('  %s: compute %.3f predecessors %.3f download %.3f write %.3f total %.3f | ordering %s symbolic %s factor %s rows %s' % (
  d['algorithm'], s['compute'], s['predecessors'], s['download'], s['write'], s['total'],
  n.get('ordering'), n.get('symbolic'), n.get('factor'), n.get('rows')))" "$1"; }
part cli && {
  for cls in grid:4096 road:5000; do
    "$apsp" generate --class ${cls%:*} --vertices ${cls#*:} --seed 3 /tmp/g.bin 2>/dev/null
    "$apsp" --algorithm supernodal --predecessors /tmp/sn.p --stats /tmp/sn.json /tmp/g.bin /tmp/sn.d
    "$apsp" --algorithm fw --predecessors /tmp/fw.p --stats /tmp/fw.json /tmp/g.bin /tmp/fw.d
    cmp -s /tmp/sn.d /tmp/fw.d && cmp -s /tmp/sn.p /tmp/fw.p && echo "$cls --predecessors: supernodal = fw" ||
      echo "$cls --predecessors: DIFFER"
    stats /tmp/sn.json; stats /tmp/fw.json
  done >>"$c" 2>&1
  "$apsp" generate --class road --vertices 48000 --seed 3 /tmp/r48.bin 2>/dev/null
  timeout 120 "$apsp" --algorithm supernodal --progress --stats /tmp/sn.json /tmp/r48.bin /tmp/sn.d >/tmp/p.txt 2>&1
  echo "road 48k supernodal: exit $? $(tr '\r' '\n' </tmp/p.txt | grep -c 'row block') progress lines, last: $(tr '\r' '\n' </tmp/p.txt | grep 'row block' | tail -1)" >>"$c"
  stats /tmp/sn.json >>"$c"
  timeout 120 "$apsp" --algorithm fw --stats /tmp/fw.json /tmp/r48.bin /tmp/fw.d >>"$c" 2>&1
  cmp -s /tmp/sn.d /tmp/fw.d && echo "road 48k: supernodal (large blocks) = fw" >>"$c" || echo "road 48k: DIFFER" >>"$c"
  stats /tmp/fw.json >>"$c"
  rm -f /tmp/sn.d /tmp/fw.d
  "$apsp" generate --class road --vertices 115000 --seed 3 /tmp/r115.bin 2>/dev/null
  "$apsp" generate --class grid --vertices 65536 --seed 3 /tmp/m65.bin 2>/dev/null
  for g in r115 m65; do
    for i in 1 2; do
      timeout 120 "$apsp" --algorithm supernodal --progress --stats /tmp/s.json /tmp/$g.bin /dev/null >/tmp/p.txt 2>&1
      echo "$g supernodal run $i: exit $?, $(tr '\r' '\n' </tmp/p.txt | grep 'row block' | tail -1)" >>"$c"
      stats /tmp/s.json >>"$c"
    done
  done
  timeout 120 "$apsp" --algorithm supernodal --predecessors /dev/null --stats /tmp/s.json /tmp/r115.bin /dev/null >>"$c" 2>&1
  echo "r115 supernodal --predecessors: exit $?" >>"$c"
  stats /tmp/s.json >>"$c"
  timeout 120 "$apsp" --algorithm fw --stats /tmp/s.json /tmp/m65.bin /dev/null >>"$c" 2>&1
  echo "m65 fw: exit $?" >>"$c"
  stats /tmp/s.json >>"$c"
  timeout 60 "$apsp" path --algorithm supernodal /tmp/r115.bin 0 114999 >>"$c" 2>&1
  echo "path r115 0 -> 114999: exit $?" >>"$c"
  cat "$c"
}
part python && (
  cd /tmp &&
    PYTHONPATH=$bin/python timeout 300 python3 -m pytest -q -p no:cacheprovider \
      "$here/tests/python/test_scipy.py" -k "supernodal or mesh" 2>&1 | tail -8 | tee "$out/pytest.txt"
)
