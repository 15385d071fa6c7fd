#!/usr/bin/env bash
# `apsp verify` exact on the GPU (issue 32, item 12): every wrong value caught? how fast?
#   bench/device verify
# The command line only (no METIS: dense fw solves the graphs).
#   1. verdicts: correct outputs pass (a road, a random graph with zero weights, negative
#      weights, float64 real weights); on a 2,000-vertex road 20 values changed by one and 20
#      bit flips are each caught in their row, with the same message on the GPU and on the
#      host (Serial);
#   2. times: verify of road-like V = 5,000 and 20,000 outputs, exact on the GPU and sampled
#      (--exact-limit 0), two runs each; the host's exact check at V = 5,000.
# (Was bench/gpu-verify.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) metis=OFF kernels=OFF
setup
w=/tmp/verify-work
rm -rf $w && mkdir -p $w && cd $w || exit 1
le32() {
  local v=$(($1 & 0xFFFFFFFF))
  # shellcheck disable=SC2059 # the format is the escaped bytes themselves
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) \
    $((v >> 16 & 255)) $((v >> 24 & 255)))"
}

echo "== 1. verdicts"
"$apsp" generate --class road --vertices 2000 --seed 1 road.in 2>/dev/null
"$apsp" generate --vertices 1500 --density 0.004 --seed 2 zero.in 2>/dev/null
python3 - <<'EOF'
import random
random.seed(3)
n = 800
p = [random.randrange(300) for _ in range(n)]
with open("neg.txt", "w") as f, open("real.txt", "w") as g:
    f.write("# vertices %d\n" % n)
    g.write("# vertices %d\n" % n)
    for _ in range(4 * n):
        u, v = random.randrange(n), random.randrange(n)
        f.write("%d %d %d\n" % (u, v, random.randrange(400) + p[u] - p[v]))
        g.write("%d %d %.17g\n" % (u, v, random.uniform(0.1, 100)))
EOF
"$apsp" road.in road.out && "$apsp" zero.in zero.out && "$apsp" neg.txt neg.npy --allow-negative &&
  "$apsp" real.txt real.npy
for pair in "road.in road.out" "zero.in zero.out" "neg.txt neg.npy" "real.txt real.npy"; do
  # shellcheck disable=SC2086 # the pair is split on purpose
  for backend in cuda serial; do echo "$backend $pair: $("$apsp" verify --backend $backend $pair)"; done
done
v=2000 caught=0 same=0 tried=0
for k in $(seq 1 20); do
  pos=$((k * 2654435761 % (v * v)))
  row=$((pos / v))
  ((row != pos % v)) || continue
  value=$(od -An -t d4 -j $((4 * pos)) -N 4 road.out | tr -d ' ')
  for wrong in $((value + 1)) $((value - 1)) $((value ^ (1 << (k % 31)))); do
    cp road.out bad.out
    le32 "$wrong" | dd of=bad.out bs=4 seek=$pos conv=notrunc status=none
    tried=$((tried + 1))
    gpu=$("$apsp" verify --backend cuda road.in bad.out) && echo "PASSED: d($row, $((pos % v))) = $wrong"
    host=$("$apsp" verify --backend serial road.in bad.out)
    [[ $gpu == "mismatch at ($row, "* ]] && caught=$((caught + 1))
    [[ $gpu == "$host" ]] && same=$((same + 1)) || echo "differ: $gpu | $host"
  done
done
echo "road 2000: $tried wrong values, $caught caught in their row on the GPU, $same with the host's message"

echo "== 2. times"
for n in 5000 20000; do
  "$apsp" generate --class road --vertices $n --seed 1 r$n.in 2>/dev/null
  "$apsp" r$n.in r$n.out
  for run in 1 2; do
    /usr/bin/time -f "V=$n exact GPU run $run: %e s wall, %M KB" "$apsp" verify r$n.in r$n.out
    /usr/bin/time -f "V=$n sampled run $run: %e s wall, %M KB" "$apsp" verify --exact-limit 0 r$n.in r$n.out >/dev/null
  done
done
/usr/bin/time -f "V=5000 exact host (Serial): %e s wall" "$apsp" verify --backend serial r5000.in r5000.out >/dev/null
