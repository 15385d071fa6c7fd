#!/usr/bin/env bash
# Padded sizes where 32-bit products of two sizes wrap (issue 26, item 1): do they finish, right?
#   bench/device boundary [V ...]
# First the GPU against Serial, bitwise, every tile shape, on small graphs (the kernels' offsets
# changed with the fix). Then for each V (default 65536 65535 65600 65472 46341; padded N =
# 65536, 65536, 65600, 65472, 46400): a sparse graph made here (density 0.0001, seed 1), blocked
# Floyd-Warshall under a time limit (APSP_LIMIT, 120 s; before the fix N = 65536 never finished),
# `apsp verify` of the output (sampled Dijkstra rows and a second opinion), the output deleted
# before the next size (65600^2 int32 = 17 GB: the work folder APSP_WORK needs that much disk).
# OUT gets summary.txt (the table, printed as it goes), runs.jsonl (the --stats records), runs.log
# and verify.log. APSP_DEADLINE (seconds since the epoch) skips the sizes that would start less
# than 90 s before it; APSP_SMALL=0 skips the small graphs; APSP_SAMPLES sets verify's --samples
# (its default: 8); APSP_BACKEND (cuda) the backend.
# (Was bench/gpu-boundary-sizes.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli)
setup
sizes=${*:-65536 65535 65600 65472 46341}
deadline=${APSP_DEADLINE:-0}
work=${APSP_WORK:-/tmp/apsp-boundary}
limit=${APSP_LIMIT:-120}
backend=${APSP_BACKEND:-cuda}
mkdir -p "$work"
stage() { grep -o "\"$2\": [0-9.e+-]*" "$1" | head -1 | cut -d' ' -f2; }

log "disk: $(df -h "$work" | tail -1)"

fails=0
small="97 1531"
[ "${APSP_SMALL:-1}" = 0 ] && small=
for v in $small; do
  "$apsp" generate --vertices $v --density 0.01 --seed $v "$work/c$v.in" >/dev/null 2>&1
  "$apsp" --backend serial --algorithm fw "$work/c$v.in" "$work/c$v.cpu" 2>>"$out/runs.log"
  for k in $("$apsp" shapes --backend "$backend" | cut -d: -f1); do
    "$apsp" --backend "$backend" --shape "$k" "$work/c$v.in" "$work/c$v.gpu" 2>>"$out/runs.log"
    r=$("$apsp" compare "$work/c$v.cpu" "$work/c$v.gpu" 2>&1)
    echo "V=$v shape=$k: $r" >>"$out/runs.log"
    case "$r" in identical*) ;; *) fails=$((fails + 1)) ;; esac
  done
done
[ -n "$small" ] && log "gpu vs serial, V = $small, every shape: $fails mismatches"

log "V      N      exit  wall_s  upload_s  compute_s  T_upd/s  verify"
for v in $sizes; do
  if [ "$deadline" -gt 0 ] && [ $(($(date +%s) + 90)) -gt "$deadline" ]; then
    log "$v: skipped (too close to APSP_DEADLINE)"
    continue
  fi
  g=$work/g$v.in
  o=$work/o$v.out
  s=$work/s$v.json
  "$apsp" generate --vertices "$v" --density 0.0001 --seed 1 "$g" >/dev/null 2>>"$out/runs.log"
  start=$(date +%s.%N)
  timeout "$limit" "$apsp" --backend "$backend" --algorithm fw "$g" "$o" --stats "$s" 2>>"$out/runs.log"
  rc=$?
  wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  n=- upload=- compute=- rate=- verdict=-
  if [ $rc -eq 0 ]; then
    tr -d '\n' <"$s" >>"$out/runs.jsonl"
    echo >>"$out/runs.jsonl"
    n=$(stage "$s" padded_vertices)
    upload=$(printf %.2f "$(stage "$s" upload)")
    compute=$(printf %.2f "$(stage "$s" compute)")
    rate=$(awk -v r="$(stage "$s" updates_per_second)" 'BEGIN { printf "%.2f", r / 1e12 }')
    echo "== V=$v" >>"$out/verify.log"
    timeout 600 "$apsp" verify "$g" "$o" ${APSP_SAMPLES:+--samples "$APSP_SAMPLES"} >>"$out/verify.log" 2>&1
    verdict="exit $?"
  fi
  rm -f "$o"
  log "$(printf '%-6s %-6s %-5s %-7.1f %-9s %-10s %-8s %s' "$v" "$n" "$rc" "$wall" "$upload" \
    "$compute" "$rate" "$verdict")"
done
