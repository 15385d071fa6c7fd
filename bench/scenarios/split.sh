#!/usr/bin/env bash
# The sweeps' threads a row (RowSweeps::split): this tree against an older one, on one GPU.
#   [OLD=DIR|TARBALL] [VERTICES="115000 1000000"] [ROUNDS=2] [NCU=1] bench/device split
# `apsp measures` (every measure) of the road-like graphs (`apsp generate --class road --seed 3`),
# ROUNDS rounds of new and old interleaved, --stats of each (row_threads: the threads a row); the
# measures' bytes compared; with NCU=1 Nsight Compute's launch, occupancy, throughput and warp
# states of both trees' sweeps at the first size. OUT gets each run's --stats and the profiles.
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli)
setup
w=/tmp/split
mkdir -p $w
with_old
first=1
for v in ${VERTICES:-115000 1000000}; do
  $apsp generate --class road --vertices "$v" --seed 3 $w/g$v.in >/dev/null 2>&1
  for r in $(seq "${ROUNDS:-2}"); do
    for t in "${trees[@]}"; do
      x=$apsp
      [ "$t" = old ] && x=$old_apsp
      $x measures $w/g$v.in $w/m-$t.json --algorithm supernodal --stats "$out/r$v-$t-$r.json" ||
        log "$v $t: exit $?"
      stage_line "$out/r$v-$t-$r.json" "$v $t round $r" | tee -a "$out/summary.txt"
    done
    if [ -n "$old_apsp" ]; then
      cmp -s $w/m-new.json $w/m-old.json && s=same || s=DIFFER
      echo "$v measures: new and old $s" | tee -a "$out/summary.txt"
    fi
  done
  if [ "${NCU:-1}" = 1 ] && [ $first = 1 ]; then
    for t in "${trees[@]}"; do
      x=$apsp
      [ "$t" = old ] && x=$old_apsp
      timeout 150 ncu --kernel-name-base demangled --kernel-name regex:RowSweeps --launch-count 1 \
        --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
        $x measures $w/g$v.in $w/n.json --algorithm supernodal >"$out/ncu-$v-$t.txt" 2>&1
      echo "ncu $v $t: exit $?"
      grep -h -E "Grid Size|Registers Per|Achieved Occupancy|Theoretical Occupancy|Duration|Compute \(SM\) Throughput|Memory Throughput|Waves Per SM|Warp Cycles Per Issued" \
        "$out/ncu-$v-$t.txt" | sed "s/^/$t /" | tee -a "$out/summary.txt"
    done
  fi
  first=0
done
