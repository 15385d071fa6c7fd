#!/usr/bin/env bash
# The CPU efficiency table of issue 15 in one go: the min-plus ceiling of this machine
# (apsp_peak_probe, OpenMP) and the solver's default run (`apsp IN OUT`, no options, no tuning)
# at each V, in interleaved rounds, so that every efficiency divides two numbers of the same
# minutes; optionally the same runs of a second binary (the one before a change).
#   bench/cpu-table.sh BIN_DIR OUT_DIR [BEFORE_APSP] [SIZES] [ROUNDS]
# BIN_DIR holds `apsp` and `apsp_peak_probe` (a build with -DAPSP_ENABLE_BENCHMARKS=ON). SIZES:
# V values (default "2048 4096"); the graphs have density 0.05, dense enough that
# `--algorithm auto` picks Floyd-Warshall. Rates are V^3 / compute seconds of --stats; the
# ceiling is the probe's best register count, median of its repeats. OUT_DIR gets summary.txt
# (the table, medians over rounds) and runs.txt (every number).
set -euo pipefail
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
before=${3:-}
sizes=${4:-"2048 4096"}
rounds=${5:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)} OMP_PROC_BIND=${OMP_PROC_BIND:-true}

{
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores," \
    "$(lscpu | sed -n 's/^Thread(s) per core: *//p') thread(s) per core;" \
    "ISA: $(grep -m1 -o -w -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
  echo "apsp: $("$bin/apsp" --version | head -n 1)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ); OMP_NUM_THREADS=$OMP_NUM_THREADS; load $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/summary.txt"
: >"$out/runs.txt"

for v in $sizes; do
  "$bin/apsp" generate --vertices "$v" --density 0.05 --seed "$v" "$work/g$v.in" 2>/dev/null
done

rate() {  # APSP V: V^3 / compute seconds of one default run, its algorithm and shape
  # OUT is /dev/null: the page cache's write-back of one run's output would land in the next
  # run's compute on a 2-core machine.
  "$1" "$work/g$2.in" /dev/null --stats "$work/s.json" 2>/dev/null
  python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); v = s["vertices"]
print("%.2f %s %s" % (v ** 3 / s["seconds"]["compute"] / 1e9, s["algorithm"],
                     s["shape"].replace(" ", "_")))' "$work/s.json"
}

for ((r = 1; r <= rounds; r++)); do
  ceiling=$("$bin/apsp_peak_probe" --backend openmp --repeats 3 --seconds 0.2 2>/dev/null |
    awk '{ for (i = 1; i <= NF; i++) if ($(i + 1) == "G") { print $i; break } }' | sort -g | tail -n 1)
  echo "round $r ceiling $ceiling" >>"$out/runs.txt"
  for v in $sizes; do
    # The two binaries take turns at going first, so that neither always runs on the caches
    # and clocks the other left.
    if [ -n "$before" ] && ((r % 2 == 0)); then
      echo "round $r before V $v $(rate "$before" "$v")" >>"$out/runs.txt"
      echo "round $r after V $v $(rate "$bin/apsp" "$v")" >>"$out/runs.txt"
    else
      echo "round $r after V $v $(rate "$bin/apsp" "$v")" >>"$out/runs.txt"
      [ -z "$before" ] || echo "round $r before V $v $(rate "$before" "$v")" >>"$out/runs.txt"
    fi
  done
done

python3 - "$out/runs.txt" "$sizes" <<'EOF' | tee -a "$out/summary.txt"
import statistics, sys
runs = [line.split() for line in open(sys.argv[1])]
ceiling = statistics.median(float(r[3]) for r in runs if r[2] == "ceiling")
print(f"ceiling (apsp_peak_probe, openmp, median of rounds): {ceiling:.1f} G updates/s")
print("| V | binary | G updates/s (median) | range | efficiency |")
print("|---|---|---|---|---|")
for v in sys.argv[2].split():
    for which in ("before", "after"):
        rates = [float(r[5]) for r in runs if r[2] == which and r[4] == v]
        if rates:
            m = statistics.median(rates)
            print(f"| {v} | {which} | {m:.1f} | {min(rates):.1f}-{max(rates):.1f} | {m / ceiling:.2f} |")
EOF
