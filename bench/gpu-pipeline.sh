#!/usr/bin/env bash
# The one pipeline on a GPU node: every feature on 1 and 2 ranks sharing the GPU gives the bytes
# of one process, and --stats' stages add up to the total.
#   bench/gpu-pipeline.sh BIN_DIR OUT_DIR
# BIN_DIR holds the cuda-hopper build's `apsp` (an MPI build) and `apsp_tests` (run first, when
# there). OUT_DIR gets summary.txt, tests.log and the stats of each run.
set -uo pipefail
bin=$(cd "${1:?BIN_DIR}" && pwd)
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
apsp=$bin/apsp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --allow-run-as-root --bind-to none -np)
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }
log "gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>&1); $("$apsp" --version | head -n 1)"

if [ -x "$bin/apsp_tests" ]; then
  "$bin/apsp_tests" --gtest_brief=1 >"$out/tests.log" 2>&1
  log "tests: exit $? ($(grep -E '^\[  (PASSED|FAILED)' "$out/tests.log" | tr '\n' ' '))"
fi
"$apsp" generate --vertices 3001 --density 0.01 --seed 3 --max-weight 20 "$work/g.in" 2>/dev/null
"$apsp" generate --vertices 20000 --density 0.0005 --seed 4 "$work/sparse.in" 2>/dev/null
fails=0
# case NAME OPTIONS...: one process, then 1 and 2 ranks; OUT and P bitwise equal.
check() {
  local name=$1
  shift
  "$apsp" "$@" --predecessors "$work/$name.p0" "$work/g.in" "$work/$name.o0" \
    --stats "$out/$name-one.json" 2>>"$out/errors.log" || log "$name: one process failed"
  for np in 1 2; do
    "${mpirun[@]}" "$np" "$apsp" "$@" --predecessors "$work/$name.p$np" "$work/g.in" \
      "$work/$name.o$np" --stats "$out/$name-np$np.json" 2>>"$out/errors.log" ||
      log "$name: $np ranks failed"
    if cmp -s "$work/$name.o0" "$work/$name.o$np" && cmp -s "$work/$name.p0" "$work/$name.p$np"; then
      log "$name: $np ranks identical to one process"
    else
      log "$name: $np ranks DIFFER"
      fails=$((fails + 1))
    fi
  done
}
check hw3 --algorithm fw
check text --algorithm fw --output-format text
check tile --algorithm fw --tile 32
check npy --algorithm fw --output-format npy
# Stages against the total (the stats of one process, V = 20000, compute-bound).
"$apsp" --algorithm fw "$work/sparse.in" "$work/big.out" --stats "$out/big.json" 2>>"$out/errors.log"
python3 - "$out"/*.json <<'EOF' | tee -a "$out/summary.txt"
import json, sys
for f in sys.argv[1:]:
    s = json.load(open(f))
    sec = s["seconds"]
    parts = sum(sec[k] for k in ("read", "plan", "upload", "compute", "predecessors", "download",
                                 "write", "commit"))
    print("%-16s V=%d ranks=%d total %.3f s, stages sum %.3f s: %s" % (
        f.split("/")[-1], s["vertices"], s["ranks"], sec["total"], parts,
        ", ".join("%s %.3f" % (k, sec[k]) for k in ("read", "plan", "upload", "compute",
                                                  "predecessors", "download", "write", "commit"))))
EOF
log "pipeline on the GPU: $fails differences"
