#!/usr/bin/env bash
# Everything we measure on one GPU node, in one go: tests, GPU = CPU, rates, SASS, ncu, MPI.
#   bench/device node [quick|full]
# 1. the whole GoogleTest suite on Cuda (and Serial); 2. GPU against Serial bitwise, every tile
# shape, sizes that are not multiples of the tile (check.log); 3. kernel rates, V^3 / compute
# seconds, three runs of each shape at V = 5000, 11000 (and 40000: full) (runs.jsonl);
# 4. the kernels' instruction mix (sass.txt); 5. ncu: per-kernel durations of a few rounds,
# the limiters of one remaining-tiles launch (full); 6. the portability report (the probe and the
# CLI over V and every shape, report/results.json: merge it with a CPU run by
# scripts/portability-report --merge cpu.json OUT/report/results.json); 7. end to end at
# V = 40000, the real file, then `apsp verify` (full); 8. on a node with several GPUs, strong
# and weak scaling on 1 and 2 ranks (mpi.jsonl). summary.txt has the table printed last.
# (Was bench/gpu-node.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli apsp_tests apsp_peak_probe) mpi=ON tests=ON benchmarks=ON
setup
mode=${1:-full}
work=${APSP_WORK:-/tmp/apsp-gpu}
mkdir -p "$work"
# 1. The whole GoogleTest suite on Cuda (and Serial).
run_tests ""

# 2. GPU vs CPU (Serial) bitwise, every tile shape, sizes that are not multiples of the tile.
"$apsp" shapes --backend cuda | tee "$out/shapes.txt"
shapes=$(cut -d: -f1 "$out/shapes.txt")
fails=$(shapes_against_serial 1 97 1000 1531 2050)
log "gpu vs cpu: $fails mismatches ($(grep -c . "$out/check.txt") lines in check.txt)"

# 3. Kernel rates: compute time of all rounds (fenced), V^3 / seconds, three runs each.
run() {  # V density shape
  local v=$1 p=$2 k=$3
  local in=$work/g$v.in
  [ -f "$in" ] || "$apsp" generate --vertices $v --density $p --seed 7 "$in" 2>/dev/null
  "$apsp" --backend cuda --shape $k "$in" /dev/null --stats "$work/s.json" 2>>"$out/errors.log" &&
    tr -d '\n ' <"$work/s.json" >>"$out/runs.jsonl" && echo >>"$out/runs.jsonl"
}
sizes="5000:1 11000:0.1 40000:0.001"
[ "$mode" = quick ] && sizes="5000:1 11000:0.1"
for vp in $sizes; do
  for k in $shapes; do
    # 32x32 tiles are a third slower at V >= 11000 (docs/PERFORMANCE.md): not worth the time.
    [ "${vp%%:*}" = 40000 ] && grep -q "^$k: 32x32" "$out/shapes.txt" && continue
    for _ in 1 2 3; do run "${vp%%:*}" "${vp##*:}" $k; done
  done
done
python3 - "$here/bench/lib" "$out/runs.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import sys
sys.path.insert(0, sys.argv[1])
from runs import medians
runs = medians(sys.argv[2], lambda r: (r["vertices"], r["shape"]), [lambda r: r["seconds"]["compute"]])
print(f"{'V':>6} {'median s':>10} {'T upd/s':>8} runs  shape")
for (v, t), ((m,), n) in runs.items():
    print(f"{v:>6} {m:>10.4f} {v**3 / m / 1e12:>8.2f} {n:>4}  {t}")
EOF

# 4. The instruction mix of the kernels (VIADDMNMX, 16-byte shared loads, no local memory).
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$apsp" >"$work/sass.txt" 2>/dev/null
  awk '/Function :/ { f = $3 } /VIADDMNMX|IMNMX|LDS|LDL|STL|BAR.SYNC/ {
         split($0, a, /[ ;]+/); for (i in a) if (a[i] ~ /^(VIADDMNMX|IMNMX|LDS|LDS\.64|LDS\.128|LDL|STL|BAR\.SYNC)/) c[f " " a[i]]++ }
       END { for (k in c) print c[k], k }' "$work/sass.txt" | grep -E "RemainingTiles|PivotPanels|PivotTile" |
    sed -E 's/_ZN6Kokkos4Impl[0-9a-z_]*ParallelForIN4apsp6detail[0-9]*//; s/INS_4CudaENS4_9TileShapeIL//; s/EEEEENS_10TeamPolicy.*EEEEvT_//' |
    sort -k2 >"$out/sass.txt"
  log "sass: $(wc -l <"$out/sass.txt") lines in sass.txt"
fi

# 5. Profiler evidence (ncu, clocks left alone): per-kernel durations of a few rounds at
# V = 5000, and the limiters of one remaining-tiles launch at V = 11000.
if command -v ncu >/dev/null; then
  k0=$(head -1 "$out/shapes.txt" | cut -d: -f1)
  ncu --clock-control none --kernel-name-base demangled -k regex:apsp --launch-skip 40 \
    --launch-count 9 --metrics gpu__time_duration.sum "$apsp" --backend cuda --shape "$k0" \
    "$work/g5000.in" /dev/null >"$out/ncu-rounds.txt" 2>&1
  [ "$mode" = quick ] || ncu --clock-control none --kernel-name-base demangled -k regex:RemainingTiles \
    --launch-skip 20 --launch-count 1 --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis \
    "$apsp" --backend cuda --shape "$k0" "$work/g11000.in" /dev/null >"$out/ncu-remaining.txt" 2>&1
  log "ncu: $(grep -c 'gpu__time_duration' "$out/ncu-rounds.txt") kernel durations"
fi

# 6. Portability report (issue 5), when the build has the benchmarks (-DAPSP_ENABLE_BENCHMARKS=ON
# puts apsp_peak_probe next to apsp): the register-only min-plus ceiling of this GPU and the CLI
# over V and every tile shape, as report/results.json (no plots here). Bring OUT_DIR/report back
# and merge it with a CPU run: scripts/portability-report --merge cpu.json OUT_DIR/report/results.json
if [ -x "$bin/apsp_peak_probe" ]; then
  quick=(--quick)  # V up to 11000: sections 3 and 8 cover the large sizes
  python3 "$here/scripts/portability-report" --apsp "$apsp" --backends cuda --repeats 2 \
    --out "$out/report" --work "$work/report" --no-plots --no-install ${quick[@]+"${quick[@]}"} \
    >"$out/report.log" 2>&1
  log "portability report: exit $?; $(grep -m1 -E '^PP' "$out/report.log")"
  grep -E 'probe cuda' "$out/report.log" | sed 's/^\[portability-report\] /  /' | tee -a "$out/summary.txt"
fi

# 7. End to end at the largest V: the real output file, then `apsp verify` on it.
if [ "$mode" != quick ]; then
  "$apsp" "$work/g40000.in" "$work/out40000" --stats "$out/end-to-end.json" 2>>"$out/errors.log"
  log "end to end V=40000: $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" "$out/end-to-end.json")"
  /usr/bin/time -f "%e s, %M KB" "$apsp" verify "$work/g40000.in" "$work/out40000" >"$out/verify.log" 2>&1
  log "verify V=40000: $(tr '\n' ' ' <"$out/verify.log")"
  rm -f "$work/out40000"
fi

# 8. Several GPUs (an MPI build on a node with more than one): strong scaling at V = 40000,
# weak scaling with V^3 / P constant (31748 on one GPU, 40000 on two).
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -gt 1 ] && command -v mpirun >/dev/null; then
  nvidia-smi topo -m >"$out/topology.txt" 2>&1
  mpi=(mpirun --allow-run-as-root --bind-to none -np)
  [ -f "$work/g40000.in" ] || "$apsp" generate --vertices 40000 --density 0.001 --seed 7 "$work/g40000.in" 2>/dev/null
  "$apsp" generate --vertices 31748 --density 0.001 --seed 7 "$work/g31748.in" 2>/dev/null
  for _ in 1 2 3; do
    for np_v in 1:40000 1:31748 2:40000; do
      "${mpi[@]}" "${np_v%%:*}" "$apsp" "$work/g${np_v##*:}.in" /dev/null --stats "$work/m.json" \
        2>>"$out/errors.log" && tr -d '\n ' <"$work/m.json" >>"$out/mpi.jsonl" && echo >>"$out/mpi.jsonl"
    done
  done
  python3 - "$here/bench/lib" "$out/mpi.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import sys
sys.path.insert(0, sys.argv[1])
from runs import medians
t = medians(sys.argv[2], lambda r: (r["vertices"], r["ranks"]),
            [lambda r: r["seconds"]["compute"], lambda r: r["seconds"]["communication"]])
med = {k: c for k, ((c, _), _) in t.items()}
for (v, p), ((m, comm), n) in t.items():
    print(f"mpi V={v} P={p}: compute {m:.3f} s ({v**3 / m / 1e12:.2f} T), communication {comm:.3f} s, runs {n}")
if (40000, 1) in med and (40000, 2) in med:
    print(f"strong scaling V=40000: T1/(2 T2) = {med[(40000, 1)] / (2 * med[(40000, 2)]):.3f}")
if (31748, 1) in med and (40000, 2) in med:
    print(f"weak scaling 31748 on 1 -> 40000 on 2: {med[(31748, 1)] / med[(40000, 2)]:.3f}")
EOF
fi
