#!/usr/bin/env bash
# supernodal.sh APSP TESTCASES WORKDIR with-metis|without-metis BACKEND
# `apsp --algorithm supernodal` (issue 25) against `--algorithm fw`, byte for byte: every
# testcase, the structured classes of `apsp generate` (grid with deletions, road-like), a
# disconnected graph, directed negative weights, float64 npy output, with --predecessors too
# (the same predecessor file as fw's, also in many row blocks); a negative cycle worded as fw
# words it; auto picks supernodal for a mesh, with and without --predecessors, and says why in
# --stats; `apsp path` computes with it.
# Without METIS: --algorithm supernodal fails with one line saying why, auto runs fw.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 testcases=$2 work=$3 metis=$4 backend=$5
backend_option=(--backend "$backend")
[[ $backend == default ]] && backend_option=()
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$apsp" generate --class grid --vertices 1200 --seed 5 grid.bin >/dev/null
if [[ $metis == without-metis ]]; then
  refused "--algorithm supernodal orders the graph with METIS, which this build lacks" \
    "${backend_option[@]}" --algorithm supernodal grid.bin out.bin
  "$apsp" "${backend_option[@]}" --stats auto.json grid.bin auto.bin
  [[ $(algorithm_of auto.json) != supernodal ]] || fail "auto picked supernodal without METIS"
  echo "OK: supernodal refused without METIS"
  exit 0
fi

# same ARGS...: supernodal and fw write the same bytes.
same() {
  "$apsp" "${backend_option[@]}" --algorithm supernodal --stats sn.json "$@" sn.out 2>stderr.txt ||
    fail "$*: $(cat stderr.txt)"
  [[ ! -s stderr.txt ]] || fail "$*: a successful run should print nothing: $(cat stderr.txt)"
  [[ $(algorithm_of sn.json) == supernodal ]] || fail "$*: --stats does not say supernodal"
  "$apsp" "${backend_option[@]}" --algorithm fw "$@" fw.out
  cmp -s sn.out fw.out || fail "$*: supernodal differs from fw"
  expect_no_temporaries sn.out
}

# same_paths ARGS...: the same with --predecessors: both files equal fw's.
same_paths() {
  same --predecessors sn.pred "$@"
  mv fw.out sn-fw.out
  "$apsp" "${backend_option[@]}" --algorithm fw --predecessors fw.pred "$@" fw.out
  cmp -s sn.pred fw.pred || fail "$*: supernodal's predecessors differ from fw's"
  cmp -s sn.out fw.out || fail "$*: with --predecessors supernodal differs from fw"
}

for in in "$testcases"/*.in; do
  same "$in"
done
"$apsp" generate --class road --vertices 1500 --seed 7 road.bin >/dev/null
same grid.bin
same road.bin
same road.bin --dtype float64 --output-format npy
same_paths grid.bin
same_paths road.bin --dtype float64 --output-format npy
# Rows in blocks of a few dozen: the predecessors' second pass makes each block again.
same_paths road.bin --max-memory 10M
# Two components and isolated vertices; directed with negative weights (no cycle).
{
  echo "# vertices 40"
  for i in $(seq 0 14); do echo "$i $(((i + 1) % 15)) $((i % 7 + 1))"; done
  for i in $(seq 20 33); do echo "$i $((i + 1)) -$((i % 3))"; echo "$((i + 1)) $i 5"; done
} >parts.txt
same parts.txt --allow-negative
same_paths parts.txt --allow-negative
# apsp path computes its row with supernodal (asked, or auto's pick) too: fw's path.
for algorithm in fw supernodal auto; do
  "$apsp" path "${backend_option[@]}" --algorithm $algorithm road.bin 3 1400 >path-$algorithm.txt ||
    fail "path --algorithm $algorithm: exit code $?"
done
grep -q '^3 -> 1400: length' path-fw.txt || fail "path: $(cat path-fw.txt)"
cmp -s path-fw.txt path-supernodal.txt || fail "path: supernodal's differs from fw's"
cmp -s path-fw.txt path-auto.txt || fail "path: auto's differs from fw's"
rc=0
"$apsp" path "${backend_option[@]}" --algorithm sssp road.bin 3 1400 >stdout.txt 2>stderr.txt || rc=$?
[[ $rc == 2 ]] || fail "path --algorithm sssp: exit code $rc, expected 2"
expect_one_apsp_line stderr.txt
grep -qF "path's --algorithm expects auto, fw or supernodal" stderr.txt ||
  fail "path --algorithm sssp: $(cat stderr.txt)"
# A negative cycle inside one component: the same words as fw's.
printf '# vertices 6\n0 1 2\n1 2 -3\n2 0 0\n3 4 1\n4 5 1\n' >cycle.txt
refused "negative cycle through vertex 0" "${backend_option[@]}" --algorithm supernodal \
  --allow-negative cycle.txt out.bin
# One vertex for a negative cycle whatever the algorithm: the smallest vertex with a negative
# closed walk through it (fw's dist(v, v) < 0), by fw, supernodal and auto, and by `apsp path`.
# names EXPECTED FILE: every algorithm refuses FILE naming vertex EXPECTED.
names() {
  local expected=$1 file=$2 algorithm rc
  for algorithm in fw supernodal auto; do
    refused "negative cycle through vertex $expected:" "${backend_option[@]}" \
      --algorithm "$algorithm" --allow-negative "$file" out.bin
    rc=0
    "$apsp" path "${backend_option[@]}" --algorithm "$algorithm" --allow-negative "$file" 0 1 \
      >stdout.txt 2>stderr.txt || rc=$?
    [[ $rc == 2 ]] || fail "path --algorithm $algorithm $file: exit code $rc, expected 2"
    expect_one_apsp_line stderr.txt
    grep -qF "negative cycle through vertex $expected:" stderr.txt ||
      fail "path --algorithm $algorithm $file: $(cat stderr.txt)"
  done
}
# A 20 x 20 grid of two-way edges with a negative cycle among its high-numbered vertices (one
# strongly connected component: every vertex has a negative closed walk), and a second
# component with a cycle and a tail: vertex 0.
grid_edges() {  # SIDE WEIGHT
  local r c v side=$1
  for r in $(seq 0 $((side - 1))); do
    for c in $(seq 0 $((side - 1))); do
      v=$((r * side + c))
      [[ $c -lt $((side - 1)) ]] && echo "$v $((v + 1)) $2" && echo "$((v + 1)) $v $2"
      [[ $r -lt $((side - 1)) ]] && echo "$v $((v + side)) $2" && echo "$((v + side)) $v $2"
    done
  done
  return 0
}
{
  echo "# vertices 420"
  grid_edges 20 3
  echo "377 398 -20"
  echo "398 399 1"
  echo "399 377 1"
  echo "405 406 -1"
  echo "406 405 0"
  echo "410 405 1"
} >cycles.txt
names 0 cycles.txt
# A 40 x 40 grid of weight 10 and one arc 820 -> 821 of weight -15: vertex 0.
{
  echo "# vertices 1600"
  grid_edges 40 10
  echo "820 821 -15"
} >grid-arc.txt
names 0 grid-arc.txt
# A one-way chain of 10 with a negative two-cycle 3 <-> 4: vertex 3 (0..2 reach it, never back).
{
  echo "# vertices 10"
  for v in $(seq 0 8); do echo "$v $((v + 1)) 1"; done
  echo "4 3 -2"
} >chain.txt
names 3 chain.txt
# Components in the order 0 < 2 < 5: {0, 1} has a negative arc but no negative cycle, {2, 3}
# and {5, 6} have one; the search from the last finds the one of {2, 3}: vertex 2.
printf '# vertices 8\n0 1 -5\n1 0 6\n1 2 1\n2 3 -4\n3 2 3\n3 5 1\n5 6 -1\n6 5 0\n6 7 1\n' >components.txt
names 2 components.txt

# auto on a mesh: the ordering predicts far fewer updates than either alternative.
"$apsp" generate --class grid --vertices 4096 --seed 9 mesh.bin >/dev/null
"$apsp" "${backend_option[@]}" --stats auto.json mesh.bin auto.out
[[ $(algorithm_of auto.json) == supernodal ]] || fail "auto did not pick supernodal for a mesh"
grep -q '"decision": "auto: .*: supernodal"' auto.json || fail "auto's reason: $(grep decision auto.json)"
"$apsp" "${backend_option[@]}" --algorithm fw mesh.bin fw.out
cmp -s auto.out fw.out || fail "auto (supernodal) differs from fw on the mesh"
"$apsp" "${backend_option[@]}" --stats auto.json --predecessors auto.pred mesh.bin auto.out
[[ $(algorithm_of auto.json) == supernodal ]] ||
  fail "auto did not pick supernodal for a mesh with --predecessors"
"$apsp" "${backend_option[@]}" --algorithm fw --predecessors fw.pred mesh.bin fw.out
cmp -s auto.pred fw.pred || fail "auto (supernodal) predecessors differ from fw's on the mesh"
# --progress counts the blocks of rows and ends at the last.
"$apsp" "${backend_option[@]}" --algorithm supernodal --progress mesh.bin progress.out \
  2>progress.txt || fail "--progress: $(cat progress.txt)"
tr '\r' '\n' <progress.txt | grep -q '^\[apsp\] row block \([0-9]*\)/\1 (100.0%)' ||
  fail "--progress did not end at the last block of rows: $(cat progress.txt)"
cmp -s progress.out fw.out || fail "supernodal with --progress differs from fw"
echo "OK: supernodal equals fw ($backend)"
