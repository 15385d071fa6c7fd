#!/usr/bin/env bash
# One device call that checks a merged tree against the commit before it, on a GPU node that
# has nvcc but no Kokkos: both are built there (16 cores: ~2 min) from this tree and from
# CARRY/base, with the cuda-hopper Kokkos prefix carried in CARRY/kokkos. Then:
#   1. GPU against Serial of the same binary, bit for bit, on random, grid and road graphs,
#      with predecessors and negative and real weights;
#   2. bench/gpu-ab.sh: compute seconds of base and new, interleaved (medians of RUNS);
#   3. V = 65536 (issue 26 item 1: it never finished before) with apsp verify.
#   bench/gpu-merge-check.sh CARRY [RUNS] [SIZES]      (writes under $OUT)
set -uo pipefail
carry=$(cd "${1:?CARRY}" && pwd)
runs=${2:-5}
sizes=${3:-"4096:0.05 11000:0.01 40000:0.001"}
out=${OUT:-/tmp/apsp-merge-check}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
k=/root/.cache/apsp-deps/install/cuda-hopper-carried
mkdir -p "$(dirname "$k")" && rm -rf "$k" && cp -r "$carry/kokkos" "$k" &&
  ln -sfn "$k" /root/.cache/apsp-deps/cuda-hopper
export PATH=$PATH:/usr/local/cuda/bin HOME=/root
cuda=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
for f in libcudart.so stubs/libcuda.so; do
  [ -e "/usr/local/cuda/lib/$f" ] && continue
  found=$(find "$cuda"/ -path "*$f" 2>/dev/null | head -1)
  [ -n "$found" ] && mkdir -p "$(dirname "/usr/local/cuda/lib/$f")" && ln -s "$found" "/usr/local/cuda/lib/$f"
done
start=$(date +%s)
for t in "$here" "$carry/base"; do
  (cd "$t" && cmake --preset cuda-hopper -DAPSP_ENABLE_PYTHON=OFF -DAPSP_ENABLE_MPI=OFF \
    -DAPSP_ENABLE_TESTS=OFF >"$t/build.log" 2>&1 &&
    cmake --build --preset cuda-hopper -j8 --target apsp_cli >>"$t/build.log" 2>&1
   echo "build $t: exit $?") &
done
wait
echo "builds: $(($(date +%s) - start)) s"
new=$here/build/cuda-hopper/apsp base=$carry/base/build/cuda-hopper/apsp
[ -x "$new" ] || { tail -30 "$here/build.log"; exit 1; }
"$new" --version
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
w=/tmp/apsp-check && mkdir -p $w
# 1. GPU = Serial, bit for bit.
check=$out/check.txt
: >"$check"
same() {  # name args...: cuda and serial runs of the same binary
  local name=$1; shift
  "$new" --backend cuda "$@" "$w/$name.cuda" --predecessors "$w/$name.cuda.p" 2>>"$check" &&
    "$new" --backend serial "$@" "$w/$name.serial" --predecessors "$w/$name.serial.p" 2>>"$check" &&
    cmp -s "$w/$name.cuda" "$w/$name.serial" && cmp -s "$w/$name.cuda.p" "$w/$name.serial.p" &&
    echo "same $name" >>"$check" || echo "DIFFERENT $name" >>"$check"
}
"$new" generate --vertices 1531 --density 0.01 --seed 3 $w/r.in >/dev/null
"$new" generate --class grid --vertices 2500 --seed 4 $w/grid.in >/dev/null
"$new" generate --class road --vertices 3000 --seed 5 $w/road.in >/dev/null
same random $w/r.in
same grid $w/grid.in
same road $w/road.in
python3 - $w/real.txt <<'PY'
import random, sys
r = random.Random(9)
with open(sys.argv[1], "w") as f:
    for _ in range(20000):
        f.write(f"{r.randrange(1000)} {r.randrange(1000)} {r.uniform(-0.5, 10):.6g}\n")
PY
same real64 --allow-negative --dtype float64 --output-format npy $w/real.txt
same real32 --allow-negative --dtype float32 --output-format npy $w/real.txt
cat "$check"
# 2. Rates, base against new, interleaved.
bash "$here/bench/gpu-ab.sh" "$base" "$new" "$out/ab" "$sizes" "$runs"
# 3. V = 65536, verified.
"$new" generate --vertices 65536 --density 0.0001 --seed 1 $w/g65536.in >/dev/null
timeout 120 "$new" --backend cuda $w/g65536.in $w/g65536.out --stats $w/s65536.json
echo "V = 65536: exit $? $(grep -o '"compute": [0-9.]*' $w/s65536.json | head -1)" | tee -a "$check"
timeout 150 "$new" verify --samples 4 $w/g65536.in $w/g65536.out 2>&1 | tail -2 | tee -a "$check"
rm -f $w/g65536.out
echo "total $(($(date +%s) - start)) s"
