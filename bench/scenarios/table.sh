#!/usr/bin/env bash
# What each kernel variant costs: plain, --predecessors, --allow-negative, both, over V (issue 16).
#   bench/device table [BEFORE_APSP] [SIZES] [RUNS]
# Compute rates (V^3 / compute seconds of --stats, medians of RUNS, default 3) of plain,
# --predecessors, --allow-negative on a graph with real negative weights, and both, from small to
# large V (SIZES: V:density pairs); optionally the same for a second binary BEFORE_APSP (the one
# before a change: e.g. OLD's, see `compare`) on plain and --allow-negative; the tests and a
# GPU-vs-CPU check of this tree; ncu evidence for the remaining-tiles kernel and for the phases
# of a round. Environment: VARIANTS (default "plain negative paths both"), CHECKS=0 skips the
# tests and the GPU-vs-CPU check, TESTS a --gtest_filter for them (default all), NCU=0 skips ncu.
# OUT gets summary.txt (the table), runs.jsonl (one record per run), tests.log, check.log,
# ncu-*.txt. The ceiling is the add-min limit, 16.7 T on H100/H200 (FACTS.md).
# (Was bench/gpu-table.sh; bench/gpu-variants.sh is `VARIANTS="plain negative paths" bench/device
# table "" "5000:0.1 11000:0.1 20000:0.01"`, bench/gpu-paths.sh is `VARIANTS="plain paths"
# bench/device table "" "11000:0.001 40000:0.001 11000:1"`.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli apsp_tests) tests=ON
setup
before=${1:-}
sizes=${2:-"1024:0.1 2048:0.1 4096:0.05 8192:0.01 11000:0.01 40000:0.001"}
runs=${3:-3}
variants=${VARIANTS:-plain negative paths both}
work=${APSP_WORK:-/tmp/apsp-table}
mkdir -p "$work"

[ -n "$before" ] && log "before: $("$before" --version | head -n 1)"

# The same graph with real negative weights and no negative cycle: w' = w + p(u) - p(v) with w
# in 0..500 (apsp generate --max-weight 500) and potentials p in 0..499, so w' in -499..999 and
# every cycle keeps its weight (>= 0). About a third of the weights are negative.
reweight() {  # IN OUT
  python3 - "$1" "$2" <<'EOF'
import array, random, sys
data = array.array("i")
with open(sys.argv[1], "rb") as f:
    data.frombytes(f.read())
rng = random.Random(data[0])
p = [rng.randrange(500) for _ in range(data[0])]
w = array.array("i", (w + p[s] - p[d] for s, d, w in zip(data[2::3], data[3::3], data[4::3])))
data[4::3] = w
with open(sys.argv[2], "wb") as f:
    data.tofile(f)
print(sum(1 for x in w if x < 0), "of", len(w), "weights negative", file=sys.stderr)
EOF
}

# 1. The whole GoogleTest suite on Cuda (and Serial).
if [ "${CHECKS:-1}" != 0 ]; then
  run_tests "${TESTS:-}"

  # 2. GPU vs CPU (Serial), bitwise: every shape, sizes that are not multiples of the tile, plain
  #    and negative weights.
  "$apsp" shapes --backend cuda >"$out/shapes.txt"
  fails=0
  for v in 1 97 1000 1531 2050; do
    "$apsp" generate --vertices $v --density 0.01 --seed $v --max-weight 500 "$work/c$v.in" 2>/dev/null
    reweight "$work/c$v.in" "$work/c$v.neg" 2>/dev/null
    for kind in in neg; do
      opts=()
      [ $kind = neg ] && opts=(--allow-negative)
      "$apsp" --backend serial --algorithm fw "${opts[@]}" "$work/c$v.$kind" "$work/c$v.$kind.cpu" \
        2>>"$out/check.log"
      for k in $(cut -d: -f1 "$out/shapes.txt"); do
        "$apsp" --backend cuda --shape "$k" "${opts[@]}" "$work/c$v.$kind" "$work/c$v.$kind.gpu" \
          2>>"$out/check.log"
        r=$("$apsp" compare "$work/c$v.$kind.cpu" "$work/c$v.$kind.gpu")
        echo "V=$v $kind shape=$k: $r" >>"$out/check.log"
        case "$r" in identical*) ;; *) fails=$((fails + 1)) ;; esac
      done
    done
  done
  log "gpu vs cpu: $fails mismatches ($(grep -c 'shape=' "$out/check.log") comparisons)"
fi

# 3. The table.
run() {  # label binary variant input
  local label=$1 exe=$2 variant=$3 in=$4 opts=()
  case $variant in
    negative) opts=(--allow-negative) ;;
    paths) opts=(--predecessors /dev/null) ;;
    both) opts=(--allow-negative --predecessors /dev/null) ;;
  esac
  if "$exe" --backend cuda "${opts[@]}" "$in" /dev/null --stats "$work/s.json" 2>>"$out/errors.log"; then
    printf '{"binary": "%s", "variant": "%s", "stats": %s}\n' "$label" "$variant" \
      "$(tr -d '\n ' <"$work/s.json")" >>"$out/runs.jsonl"
  else
    log "$label $variant $in: failed: $(tail -n 1 "$out/errors.log")"
  fi
}
for vp in $sizes; do
  v=${vp%%:*} p=${vp##*:}
  "$apsp" generate --vertices "$v" --density "$p" --seed 7 --max-weight 500 "$work/g$v.in" 2>/dev/null
  reweight "$work/g$v.in" "$work/n$v.in" 2>>"$out/summary.txt"
  for _ in $(seq "$runs"); do
    for variant in $variants; do
      in=$work/g$v.in
      case $variant in negative | both) in=$work/n$v.in ;; esac
      run after "$apsp" "$variant" "$in"
    done
    if [ -n "$before" ]; then
      run before "$before" plain "$work/g$v.in"
      run before "$before" negative "$work/n$v.in"
    fi
  done
done
python3 - "$here/bench/lib" "$out/runs.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import sys
sys.path.insert(0, sys.argv[1])
from runs import medians
runs = medians(sys.argv[2], lambda r: (r["stats"]["vertices"], r["binary"], r["variant"]),
               [lambda r: r["stats"]["seconds"]["compute"],
                lambda r: r["stats"]["seconds"].get("predecessors", 0)])
def cell(v, b, var):
    if (v, b, var) not in runs:
        return "", None
    (c, p), _ = runs[(v, b, var)]
    t = v**3 / c / 1e12
    text = f"{t:.2f} T ({c:.4f} s)"
    if p > 0:
        text += f" + {p:.3f} s rows = {v**3 / (c + p) / 1e12:.2f} T"
    return text, t
sizes = sorted({k[0] for k in runs})
print("compute rate V^3 / median compute s (median of runs); 'rows' = predecessor rows")
print("| V | plain before | plain | --allow-negative before | --allow-negative | neg/plain | --predecessors | --predecessors --allow-negative |")
print("|---|---|---|---|---|---|---|---|")
for v in sizes:
    pb, _ = cell(v, "before", "plain")
    pa, ta = cell(v, "after", "plain")
    nb, _ = cell(v, "before", "negative")
    na, tn = cell(v, "after", "negative")
    pp, _ = cell(v, "after", "paths")
    bo, _ = cell(v, "after", "both")
    ratio = f"{tn / ta:.2f}" if ta and tn else ""
    print(f"| {v} | {pb} | {pa} | {nb} | {na} | {ratio} | {pp} | {bo} |")
EOF

# 4. ncu (clocks as found): the remaining-tiles kernel of a middle round at V = 11000, plain and
#    negative; then every kernel of V = 4096 (durations only), to see where a round's time goes.
if [ "${NCU:-1}" != 0 ] && command -v ncu >/dev/null; then
  for variant in plain negative; do
    in=$work/g11000.in opts=()
    [ $variant = negative ] && in=$work/n11000.in opts=(--allow-negative)
    [ -f "$in" ] || continue
    ncu --clock-control none --kernel-name-base demangled -k regex:RemainingTiles -s 80 -c 1 \
      --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
      --section WarpStateStats --section Occupancy --section LaunchStats \
      "$apsp" --backend cuda "${opts[@]}" "$in" /dev/null >"$out/ncu-remaining-$variant.txt" 2>&1
    log "ncu remaining tiles ($variant): $(grep -E 'Duration|Compute \(SM\) Throughput|Executed Ipc Active' \
      "$out/ncu-remaining-$variant.txt" | tr -s ' ' | tr '\n' ';')"
  done
  # Rounds 20..29 of V = 4096 (64 rounds): kernel durations against the round time of the table.
  if [ -f "$work/g4096.in" ]; then
    ncu --clock-control none --kernel-name-base demangled -k regex:apsp::detail --launch-skip 60 \
      --launch-count 30 --metrics gpu__time_duration.sum --csv \
      "$apsp" --backend cuda "$work/g4096.in" /dev/null >"$out/ncu-phases-4096.csv" 2>&1
    python3 - "$out/ncu-phases-4096.csv" "$out/runs.jsonl" "$here/bench/lib" <<'EOF' | tee -a "$out/summary.txt"
import csv, sys, collections
sys.path.insert(0, sys.argv[3])
from runs import medians
total, count = collections.defaultdict(float), collections.Counter()
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
head = rows[0]
name, value, unit = head.index("Kernel Name"), head.index("Metric Value"), head.index("Metric Unit")
scales = {"nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "msecond": 1e-3, "ms": 1e-3}
for r in rows[1:]:
    k = next((p for p in ("PivotTile", "PivotPanels", "RemainingTiles") if p in r[name]), "other")
    total[k] += float(r[value].replace(",", "")) * scales[r[unit]]
    count[k] += 1
compute = medians(sys.argv[2], lambda r: (r["binary"], r["variant"], r["stats"]["vertices"]),
                  [lambda r: r["stats"]["seconds"]["compute"]]).get(("after", "plain", 4096))
rounds = max(count.values()) if count else 1
print(f"V = 4096, ncu kernel durations of {rounds} rounds (us per round):", end="")
for k in ("PivotTile", "PivotPanels", "RemainingTiles"):
    print(f" {k} {total[k] / rounds * 1e6:.1f}", end="")
kernels = sum(total.values()) / rounds
print(f"; sum {kernels * 1e6:.1f}", end="")
if compute:
    per_round = compute[0][0] / 64
    print(f"; round in the table (compute / 64) {per_round * 1e6:.1f}, gaps {(per_round - kernels) * 1e6:.1f}", end="")
print()
EOF
  fi
fi
log "done: $(date -u +%H:%M:%SZ)"
