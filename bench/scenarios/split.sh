#!/usr/bin/env bash
# The sweeps' threads a row (RowSweeps::split, --row-threads): on one GPU, optionally against an
# older tree.
#   [OLD=DIR|TARBALL] [VERTICES="115000 1000000"] [ROUNDS=2] [THREADS=auto] [RUNS=measures]
#   [NCU=1] bench/device split
# Road-like graphs (`apsp generate --class road --seed 3`), ROUNDS rounds of every variant
# interleaved: this tree at each of THREADS (--row-threads N; auto: the tree's own choice), and
# the older tree's choice; each of RUNS: `measures` (every measure) and `null` (the distances to
# /dev/null: whole rows). --stats of each (row_threads: the threads a row); the measures' bytes
# compared with the first variant's. With NCU=1 Nsight Compute's launch, occupancy, throughput and
# warp states of the first variant's and the older tree's sweeps (the first launch of each of
# RUNS) at the first size. OUT gets each run's --stats and the profiles.
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli)
setup
w=/tmp/split
mkdir -p $w
with_old
variants=()
for t in ${THREADS:-auto}; do variants+=("new:$t"); done
[ -n "$old_apsp" ] && variants+=("old:auto")
# variant_command VARIANT KIND GRAPH STATS: cmd=(the command of a variant (tree:threads) of a
# kind, not run here); measures into $w/m-TREE-THREADS.json.
variant_command() {
  local tree=${1%%:*} t=${1#*:}
  cmd=("$apsp")
  [ "$tree" = old ] && cmd=("$old_apsp")
  if [ "$2" = measures ]; then
    cmd+=(measures "$3" "$w/m-${1/:/-}.json")
  else
    cmd+=("$3" /dev/null)
  fi
  cmd+=(--algorithm supernodal --stats "$4")
  [ "$t" = auto ] || cmd+=(--row-threads "$t")
}
first=1
for v in ${VERTICES:-115000 1000000}; do
  $apsp generate --class road --vertices "$v" --seed 3 $w/g$v.in >/dev/null 2>&1
  for kind in ${RUNS:-measures}; do
    for r in $(seq "${ROUNDS:-2}"); do
      for variant in "${variants[@]}"; do
        s=$out/$kind$v-${variant/:/-}-$r.json
        variant_command "$variant" "$kind" $w/g$v.in "$s"
        "${cmd[@]}" || log "$kind $v $variant: exit $?"
        stage_line "$s" "$kind $v $variant round $r" | tee -a "$out/summary.txt"
      done
      if [ "$kind" = measures ]; then
        for variant in "${variants[@]:1}"; do
          cmp -s "$w/m-${variants[0]/:/-}.json" "$w/m-${variant/:/-}.json" && s=same || s=DIFFER
          echo "$v measures: ${variants[0]} and $variant $s" | tee -a "$out/summary.txt"
        done
      fi
    done
  done
  if [ "${NCU:-1}" = 1 ] && [ $first = 1 ]; then
    for kind in ${RUNS:-measures}; do
      for variant in "${variants[0]}" ${old_apsp:+old:auto}; do
        variant_command "$variant" "$kind" $w/g$v.in $w/n.json
        p=$out/ncu-$kind$v-${variant/:/-}.txt
        timeout 150 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 \
          --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
          "${cmd[@]}" >"$p" 2>&1
        echo "ncu $kind $v $variant: exit $?"
        grep -h -E "Grid Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Duration|Compute \(SM\) Throughput|Memory Throughput|Waves Per SM|Warp Cycles Per Issued" \
          "$p" | sed "s/^/$kind $variant /" | tee -a "$out/summary.txt"
      done
    done
  fi
  first=0
done
