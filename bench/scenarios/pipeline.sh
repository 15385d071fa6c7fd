#!/usr/bin/env bash
# The one pipeline: every feature on 1 and 2 ranks sharing the GPU gives one process's bytes.
#   bench/device pipeline
# An MPI build; apsp_tests run first. Four outputs (HW3, text, a tile of 32, npy) with
# predecessors, one process against mpirun -np 1 and 2, bitwise; then --stats' stages against
# the total at V = STAGES_V (default 20000, compute-bound). OUT gets summary.txt, tests.log and
# the stats of each run. On a CPU MPI build the same checks run on the host, e.g.
#   BIN=build/check TESTS=0 STAGES_V=2000 OMP_NUM_THREADS=1 MPIRUN_EXTRA=--oversubscribe \
#     bench/device pipeline
# (Was bench/gpu-pipeline.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli apsp_tests) mpi=ON tests=ON
setup
work=$(mktemp -d)
trap 'rm -rf "$work"; log "bench/device $name: exit $? after $(elapsed) s"' EXIT
# shellcheck disable=SC2206 # MPIRUN_EXTRA: words
mpirun=(mpirun --allow-run-as-root --bind-to none ${MPIRUN_EXTRA:-} -np)
[ "${TESTS:-1}" = 0 ] || run_tests ""
"$apsp" generate --vertices 3001 --density 0.01 --seed 3 --max-weight 20 "$work/g.in" 2>/dev/null
"$apsp" generate --vertices "${STAGES_V:-20000}" --density 0.0005 --seed 4 "$work/sparse.in" 2>/dev/null
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
# Stages against the total (the stats of one process, compute-bound).
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
log "pipeline: $fails differences"
[ $fails = 0 ]
