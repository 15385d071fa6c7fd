#!/usr/bin/env bash
# Negative weights through the MPI driver on a multi-GPU node: one and two GPUs must give the
# same bytes, and a 2-GPU plain run at V = 40000 for the scaling record.
#   bench/gpu-mpi-negative.sh APSP OUT_DIR [V]
# Needs mpirun (Open MPI) and at least two GPUs.
set -uo pipefail
apsp=$(cd "$(dirname "${1:?APSP}")" && pwd)/$(basename "$1")
out=$(mkdir -p "${2:?OUT_DIR}" && cd "$2" && pwd)
v=${3:-20000}
work=${APSP_WORK:-/tmp/apsp-mpi-negative}
mkdir -p "$work"
mpi=(mpirun --allow-run-as-root --bind-to none -np)
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

log "gpus: $(nvidia-smi -L | wc -l), $("$apsp" --version)"
"$apsp" generate --vertices "$v" --density 0.01 --seed 7 "$work/g.in" 2>/dev/null
cp "$work/g.in" "$work/n.in"
printf '\xff\xff\xff\xff' | dd of="$work/n.in" bs=1 seek=16 conv=notrunc status=none  # w = -1
for np in 1 2; do
  "${mpi[@]}" $np "$apsp" --allow-negative "$work/n.in" "$work/n$np.out" --stats "$work/s$np.json" \
    2>>"$out/errors.log" || log "np=$np: failed: $(tail -n 3 "$out/errors.log")"
  log "negative V=$v np=$np: $(tr -d '\n ' <"$work/s$np.json" | sed 's/.*"seconds":\({[^}]*}\).*/\1/')"
done
log "1 vs 2 GPUs: $("$apsp" compare "$work/n1.out" "$work/n2.out")"
rc=0
"${mpi[@]}" 2 "$apsp" --predecessors "$work/p.out" "$work/g.in" "$work/x.out" 2>"$work/err" || rc=$?
log "--predecessors on 2 ranks: exit $rc, $(grep -m1 '^apsp' "$work/err")"
"$apsp" generate --vertices 40000 --density 0.001 --seed 7 "$work/g40000.in" 2>/dev/null
for np in 1 2; do
  "${mpi[@]}" $np "$apsp" "$work/g40000.in" /dev/null --stats "$work/p$np.json" 2>>"$out/errors.log"
  log "plain V=40000 np=$np: $(tr -d '\n ' <"$work/p$np.json" | sed 's/.*"seconds":\({[^}]*}\).*/\1/')"
done
