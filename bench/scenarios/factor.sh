#!/usr/bin/env bash
# Where the supernodal factor's time goes: kernel launches, allocations and copies, by kernel.
#   [OLD=DIR|TARBALL] [VERTICES="115000 1000000"] [ASYNC=1] bench/device factor
# `apsp measures` of the road-like graphs (`apsp generate --class road --seed 3`) on one GPU:
# once plain (--stats: ordering, symbolic, factor, rows), then under bench/kernel_timer.cpp (a
# Kokkos Tools library) with CUDA_LAUNCH_BLOCKING=1, so that each kernel's seconds are its launch
# and its run, and (ASYNC=1) once more without it (the launches alone). With OLD, an older tree is built
# beside this one and both are run, plain and profiled, on the same graphs; the measures' bytes
# are compared. OUT gets each run's --stats and the tool's report.
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli)
setup
w=/tmp/factor
mkdir -p $w
g++ -std=c++17 -O2 -shared -fPIC "$here/bench/kernel_timer.cpp" -o $w/kernel_timer.so ||
  { log "the kernel timer did not build"; exit 1; }
with_old
for v in ${VERTICES:-115000 1000000}; do
  $apsp generate --class road --vertices "$v" --seed 3 $w/g$v.in >/dev/null 2>&1
  for t in "${trees[@]}"; do
    x=$apsp
    [ "$t" = old ] && x=$old_apsp
    $x measures $w/g$v.in $w/m-$t.json --algorithm supernodal --stats "$out/r$v-$t.json"
    stage_line "$out/r$v-$t.json" "$v $t plain" | tee -a "$out/summary.txt"
    KOKKOS_PROFILE_LIBRARY=$w/kernel_timer.so KOKKOS_TOOLS_LIBS=$w/kernel_timer.so \
      KERNEL_TIMER_OUT="$out/kt$v-$t-blocking.txt" CUDA_LAUNCH_BLOCKING=1 \
      $x measures $w/g$v.in $w/m-$t-p.json --algorithm supernodal --stats "$out/r$v-$t-blocking.json"
    stage_line "$out/r$v-$t-blocking.json" "$v $t profiled, blocking" | tee -a "$out/summary.txt"
    cp $w/m-$t-p.json $w/m-$t-q.json
    if [ "${ASYNC:-1}" = 1 ]; then
      KOKKOS_PROFILE_LIBRARY=$w/kernel_timer.so KOKKOS_TOOLS_LIBS=$w/kernel_timer.so \
        KERNEL_TIMER_OUT="$out/kt$v-$t-async.txt" \
        $x measures $w/g$v.in $w/m-$t-q.json --algorithm supernodal --stats "$out/r$v-$t-async.json"
      stage_line "$out/r$v-$t-async.json" "$v $t profiled, asynchronous" | tee -a "$out/summary.txt"
    fi
    cmp -s $w/m-$t.json $w/m-$t-p.json && cmp -s $w/m-$t.json $w/m-$t-q.json ||
      log "$v $t: the profiled runs' measures DIFFER"
  done
  [ -n "$old_apsp" ] && { cmp -s $w/m-new.json $w/m-old.json && r=same || r=DIFFER
    echo "$v measures: new and old $r" | tee -a "$out/summary.txt"; }
  head -n 30 "$out/kt$v-new-blocking.txt" >>"$out/summary.txt"
done
