#!/usr/bin/env bash
# Negative weights through the MPI driver: do one and two GPUs give the same bytes?
#   bench/device mpi-negative [V]
# A random graph of V vertices (default 20000) with one weight -1, on 1 and 2 GPUs
# (--allow-negative): the same bytes; --predecessors on 2 ranks (its exit and message); a plain
# V = 40000 run on 1 and 2 GPUs for the scaling record. Needs mpirun and two GPUs.
# (Was bench/gpu-mpi-negative.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) mpi=ON
setup
v=${1:-20000}
work=${APSP_WORK:-/tmp/apsp-mpi-negative}
mkdir -p "$work"
mpi=(mpirun --allow-run-as-root --bind-to none -np)

"$apsp" generate --vertices "$v" --density 0.01 --seed 7 "$work/g.in" 2>/dev/null
negative_copy "$work/g.in" "$work/n.in"
for np in 1 2; do
  "${mpi[@]}" $np "$apsp" --allow-negative "$work/n.in" "$work/n$np.out" --stats "$work/s$np.json" \
    2>>"$out/errors.log" || log "np=$np: failed: $(tail -n 3 "$out/errors.log")"
  log "negative V=$v np=$np: $(stats_line "$work/s$np.json")"
done
log "1 vs 2 GPUs: $("$apsp" compare "$work/n1.out" "$work/n2.out")"
rc=0
"${mpi[@]}" 2 "$apsp" --predecessors "$work/p.out" "$work/g.in" "$work/x.out" 2>"$work/err" || rc=$?
log "--predecessors on 2 ranks: exit $rc, $(grep -m1 '^apsp' "$work/err")"
"$apsp" generate --vertices 40000 --density 0.001 --seed 7 "$work/g40000.in" 2>/dev/null
for np in 1 2; do
  "${mpi[@]}" $np "$apsp" "$work/g40000.in" /dev/null --stats "$work/p$np.json" 2>>"$out/errors.log"
  log "plain V=40000 np=$np: $(stats_line "$work/p$np.json")"
done
