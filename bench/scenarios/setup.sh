#!/usr/bin/env bash
# Where the setup of a run goes on 1, 2 and 4 GPUs (issue 34): read, plan, upload, per rank.
#   [VERTICES=40000] [RANKS="2 4"] bench/device setup
# Read + plan + upload of the same graph on one process (no MPI), on mpirun -np 1 (MPI, one
# rank), and on 2 and 4 ranks (those the GPUs allow; RANKS sets them, e.g. for a trial on a CPU
# build), fw and supernodal, each rank's setup step by step from --stats (per_rank[p].setup:
# seconds, and of them the seconds in collectives); OUT = /dev/null, so every rank discards its
# own rows; then 2 ranks with Open MPI's own binding. OUT gets summary.txt and each run's stats.
# (Was bench/gpu-setup.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) mpi=ON
setup
work=$(mktemp -d)
trap 'rm -rf "$work"; log "bench/device $name: exit $? after $(elapsed) s"' EXIT
gpus=$(gpu_count)
vertices=${VERTICES:-40000}
"$apsp" generate --vertices "$vertices" --density 0.001 --seed 4 "$work/g.in" 2>/dev/null
# run NAME LAUNCHER... -- OPTIONS...: one run, its stats in OUT_DIR/NAME.json.
run() {
  local name=$1 launcher=()
  shift
  while [ "$1" != -- ]; do
    launcher+=("$1")
    shift
  done
  shift
  "${launcher[@]}" "$apsp" "$@" "$work/g.in" /dev/null --stats "$out/$name.json" \
    2>>"$out/errors.log" || log "$name: failed (errors.log)"
}
mpirun=(mpirun --allow-run-as-root --bind-to none -np)
for algorithm in fw supernodal; do
  run "$algorithm-one" -- --algorithm "$algorithm"
  run "$algorithm-np1" "${mpirun[@]}" 1 -- --algorithm "$algorithm"
  for np in ${RANKS:-2 4}; do
    [ -n "${RANKS:-}" ] || [ "$gpus" -ge "$np" ] && run "$algorithm-np$np" "${mpirun[@]}" "$np" -- --algorithm "$algorithm"
  done
done
# Open MPI's own binding (to a core for 2 ranks): does it change the setup?
[ -n "${RANKS:-}" ] || [ "$gpus" -ge 2 ] && run fw-np2-bound mpirun --allow-run-as-root -np 2 -- --algorithm fw
python3 - "$out" <<'EOF' | tee -a "$out/summary.txt"
import json, os, sys
out = sys.argv[1]
for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json")):
    s = json.load(open(os.path.join(out, name + ".json")))
    ranks = s["per_rank"]
    setup = max(r["read"] + r["plan"] + r["upload"] for r in ranks)
    print("%-16s ranks=%d read+plan+upload (max over ranks) %.3f s, compute %.3f, total %.3f; "
          "rows: %s" % (name, s["ranks"], setup, s["seconds"]["compute"], s["seconds"]["total"],
                        s.get("output_rows", "?")))
    for p, r in enumerate(ranks):
        steps = r.get("setup", {})
        print("  rank %d: read %.3f plan %.3f upload %.3f | %s" % (
            p, r["read"], r["plan"], r["upload"],
            ", ".join("%s %.3f (in collectives %.3f)" % (k, v["seconds"], v["collective"])
                      for k, v in steps.items() if v["seconds"] >= 0.0005)))
EOF
