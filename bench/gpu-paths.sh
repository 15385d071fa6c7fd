#!/usr/bin/env bash
# What --predecessors costs against the plain run on a GPU node, and the unit tests there.
#   bench/gpu-paths.sh BIN_DIR OUT_DIR [SIZES]
# BIN_DIR holds the cuda-hopper build's `apsp` and `apsp_tests`. SIZES: V:density pairs
# (default "11000:0.001 40000:0.001 11000:1"). Graphs are generated on the node (seed 7,
# weights 0..1000). OUT_DIR gets tests.log, runs.jsonl (one --stats record per run, with
# "variant") and summary.txt: per size and variant the medians of 3 of compute and predecessor
# seconds, and plain compute / (paths compute + predecessor rows), the issue's ratio.
set -uo pipefail
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
sizes=${3:-"11000:0.001 40000:0.001 11000:1"}
work=${APSP_WORK:-/tmp/apsp-paths}
mkdir -p "$work"
apsp=$bin/apsp
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

log "gpu: $(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>&1)"
log "$("$apsp" --version)"

timeout 200 "$bin/apsp_tests" --gtest_brief=1 >"$out/tests.log" 2>&1
log "apsp_tests: exit $? ($(grep -E '^\[  (PASSED|FAILED)' "$out/tests.log" | tr '\n' ' '))"

run() {  # variant in
  local variant=$1 in=$2 options=()
  [[ $variant == paths ]] && options=(--predecessors /dev/null)
  if "$apsp" --backend cuda "${options[@]}" "$in" /dev/null --stats "$work/s.json" \
    2>>"$out/errors.log"; then
    printf '{"variant": "%s", "stats": %s}\n' "$variant" "$(tr -d '\n ' <"$work/s.json")" \
      >>"$out/runs.jsonl"
  else
    log "$variant $in: failed: $(tail -n 1 "$out/errors.log")"
  fi
}

for vp in $sizes; do
  v=${vp%%:*} p=${vp##*:}
  "$apsp" generate --vertices "$v" --density "$p" --seed 7 "$work/g.in" 2>/dev/null
  for rep in 1 2 3; do
    run plain "$work/g.in"
    run paths "$work/g.in"
  done
  rm -f "$work/g.in"
done

python3 - "$out/runs.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import json, sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    s = r["stats"]
    runs[(s["vertices"], s["edges"], r["variant"])].append(s)
print("V E variant: compute s, predecessors s (medians of 3); plain / (compute + predecessors)")
median = lambda rs, stage: statistics.median(x["seconds"][stage] for x in rs)
plain = {(v, e): median(rs, "compute") for (v, e, variant), rs in runs.items() if variant == "plain"}
for (v, e, variant), rs in sorted(runs.items()):
    c, p = median(rs, "compute"), median(rs, "predecessors")
    ratio = f", ratio {plain[(v, e)] / (c + p):.2f}" if (v, e) in plain else ""
    print(f"{v} {e} {variant}: compute {c:.4f} s ({v**3 / c / 1e12:.2f} T), "
          f"predecessors {p:.4f} s{ratio}")
EOF
