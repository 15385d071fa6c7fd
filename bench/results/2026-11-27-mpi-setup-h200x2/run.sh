#!/usr/bin/env bash
# Where MPI's setup time goes (main as of today), dense V=40000 on 1 and 2 GPUs.
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd); out=${OUT:-/tmp/prof}; mkdir -p "$out"
here=$(pwd); export PATH=/usr/local/cuda/bin:$PATH HOME=/root NCCL_NVLS_ENABLE=0
source bench/lib/carried-kokkos.sh  # run from the top of the tree: bash bench/results/2026-11-27-mpi-setup-h200x2/run.sh .device-carry
b=$here/build/device; s=$(date +%s)
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=OFF \
  -DAPSP_ENABLE_TESTS=OFF -DAPSP_ENABLE_MPI=ON -DAPSP_ENABLE_BENCHMARKS=OFF >"$out/build.log" 2>&1 &&
  ninja -C $b -j 32 apsp_cli >>"$out/build.log" 2>&1; echo "build exit $? $(( $(date +%s)-s )) s"
nvidia-smi -L; nproc
a=$b/apsp; $a generate --vertices 40000 --density 0.001 --seed 7 /tmp/g.in >/dev/null 2>&1
M="mpirun --allow-run-as-root --bind-to none"
run() { local name=$1; shift; local t0=$(date +%s%N); "$@" /tmp/g.in /dev/null --stats /tmp/s.json >/dev/null 2>>"$out/err.log";
  echo "$name wall $(( ($(date +%s%N)-t0)/1000000 )) ms"; python3 - /tmp/s.json "$name" <<'P' | tee -a "$out/summary.txt"
import json,sys; r=json.load(open(sys.argv[1]))
for i,p in enumerate(r.get("per_rank",[r["seconds"]])):
  print(sys.argv[2], "rank",i, " ".join(f"{k}={p[k]:.3f}" for k in ("read","plan","upload","compute","communication","download","write","commit","total")))
P
}
for rep in 1 2; do
run bare $a; run np1 $M -np 1 $a; run np2 $M -np 2 $a
CUDA_MODULE_LOADING=EAGER run np2eager $M -x CUDA_MODULE_LOADING -np 2 $a
done
cp /tmp/s.json $out/last.json
