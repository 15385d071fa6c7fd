#!/usr/bin/env bash
# The kernel variants on a GPU node: what --allow-negative and --predecessors cost against the
# plain kernels (which must keep their speed), and the paths/negative tests on the device.
#   bench/gpu-variants.sh BIN_DIR OUT_DIR [SIZES]
# BIN_DIR holds the cuda-hopper build's `apsp` and `apsp_tests`. SIZES: V:density pairs
# (default "5000:0.1 11000:0.1 20000:0.01"). OUT_DIR gets tests.log, runs.jsonl (one --stats
# record per run, with "variant") and summary.txt.
set -uo pipefail
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
sizes=${3:-"5000:0.1 11000:0.1 20000:0.01"}
work=${APSP_WORK:-/tmp/apsp-variants}
mkdir -p "$work"
apsp=$bin/apsp
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

log "gpu: $(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>&1)"
log "$("$apsp" --version)"

"$bin/apsp_tests" --gtest_filter='Paths*:PathBounds*:FloydWarshall*' --gtest_brief=1 \
  >"$out/tests.log" 2>&1
log "tests (paths, negative, plain): exit $? ($(grep -E '^\[  (PASSED|FAILED)' "$out/tests.log" | tr '\n' ' '))"

# One weight of the generated graph made -1 (the first edge's): the signed variant runs; the
# other weights are 0..1000, so a negative cycle is unlikely (it would show as an error).
negative_copy() {
  cp "$1" "$2"
  printf '\xff\xff\xff\xff' | dd of="$2" bs=1 seek=16 conv=notrunc status=none
}

run() {  # variant V in
  local variant=$1 v=$2 in=$3 options=()
  case $variant in
    negative) options=(--allow-negative) ;;
    paths) options=(--predecessors /dev/null) ;;
  esac
  if "$apsp" --backend cuda "${options[@]}" "$in" /dev/null --stats "$work/s.json" \
    2>>"$out/errors.log"; then
    printf '{"variant": "%s", "stats": %s}\n' "$variant" "$(tr -d '\n ' <"$work/s.json")" \
      >>"$out/runs.jsonl"
  else
    log "$variant V=$v: failed: $(tail -n 1 "$out/errors.log")"
  fi
}

for vp in $sizes; do
  v=${vp%%:*} p=${vp##*:}
  "$apsp" generate --vertices "$v" --density "$p" --seed 7 "$work/g$v.in" 2>/dev/null
  negative_copy "$work/g$v.in" "$work/n$v.in"
  for rep in 1 2 3; do
    run plain "$v" "$work/g$v.in"
    run negative "$v" "$work/n$v.in"
    run paths "$v" "$work/g$v.in"
  done
done

python3 - "$out/runs.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import json, sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    s = r["stats"]
    runs[(s["vertices"], r["variant"])].append(s)
print("V variant: compute s (median of 3), rate T V^3/s, predecessors s, total s")
for (v, variant), rs in sorted(runs.items()):
    c = statistics.median(x["seconds"]["compute"] for x in rs)
    p = statistics.median(x["seconds"]["predecessors"] for x in rs)
    t = statistics.median(x["seconds"]["total"] for x in rs)
    print(f"{v} {variant}: {c:.4f} s, {v**3 / c / 1e12:.2f} T, predecessors {p:.3f} s, total {t:.3f} s")
EOF
