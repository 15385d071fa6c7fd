#!/usr/bin/env bash
# Second device call (issue 26 item 1): the fixed tree (src/) and its base aaa519b (base/) built
# side by side; base at V = 65536 under a 20 s limit (the hang), base vs fixed at V = 40000
# (compute, same card), the fixed build at V = 65472 and 46341 with verify, as time allows.
set -uo pipefail
start=$(date +%s)
end=$((start + 320))
left() { echo $((end - $(date +%s))); }
here=$(cd "$(dirname "$0")" && pwd)
k=/root/.cache/apsp-deps/install/cuda-hopper-52c8d37a2a3e
mkdir -p "$(dirname "$k")" && cp -r "$here/kokkos" "$k" && ln -sfn "$k" /root/.cache/apsp-deps/cuda-hopper
export PATH=$PATH:/usr/local/cuda/bin HOME=/root
cuda=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
for f in libcudart.so stubs/libcuda.so; do
  [ -e "/usr/local/cuda/lib/$f" ] && continue
  found=$(find "$cuda"/ -path "*$f" 2>/dev/null | head -1)
  [ -n "$found" ] && mkdir -p "$(dirname "/usr/local/cuda/lib/$f")" && ln -s "$found" "/usr/local/cuda/lib/$f"
done
for t in src base; do
  (cd "$here/$t" && cmake --preset cuda-hopper -DAPSP_ENABLE_PYTHON=OFF -DAPSP_ENABLE_MPI=OFF \
    -DAPSP_ENABLE_TESTS=OFF >"$OUT/build-$t.log" 2>&1 &&
    cmake --build --preset cuda-hopper -j8 --target apsp_cli >>"$OUT/build-$t.log" 2>&1; echo "build $t: exit $?") &
done
wait
echo "builds done after $(($(date +%s) - start)) s"
fixed=$here/src/build/cuda-hopper/apsp base=$here/base/build/cuda-hopper/apsp
w=/tmp/b2; mkdir -p $w
for v in 65536 40000; do "$fixed" generate --vertices $v --density 0.0001 --seed 1 $w/g$v.in >/dev/null 2>&1; done
ab=$OUT/ab.txt
{ echo "base (aaa519b), V = 65536, 20 s limit, --progress:"
  timeout 20 "$base" --backend cuda --algorithm fw --progress $w/g65536.in /dev/null 2>&1 | tr '\r' '\n' | tail -3
  echo "exit ${PIPESTATUS[0]}"; } >"$ab"
APSP_SMALL=0 APSP_SAMPLES=2 APSP_WORK=$w APSP_DEADLINE=$end \
  bash "$here/gpu-boundary-sizes.sh" "$here/src/build/cuda-hopper" "$OUT/sizes" 65472
echo "V=40000 compute seconds, alternating:" >>"$ab"
for rep in 1 2; do for b in base fixed; do
  [ "$(left)" -lt 12 ] && break 2
  bin=$base; [ $b = fixed ] && bin=$fixed
  "$bin" --backend cuda --algorithm fw $w/g40000.in /dev/null --stats $w/s.json 2>/dev/null
  echo "$b rep $rep: exit $? $(grep -o '"compute": [0-9.]*' $w/s.json | head -1) $(grep -o '"updates_per_second": [0-9.e+]*' $w/s.json)" >>"$ab"
done; done
cat "$ab"
[ "$(left)" -gt 45 ] && APSP_SMALL=0 APSP_SAMPLES=2 APSP_WORK=$w APSP_DEADLINE=$((end + 50)) \
  bash "$here/gpu-boundary-sizes.sh" "$here/src/build/cuda-hopper" "$OUT/sizes" 46341
echo "total $(($(date +%s) - start)) s"
