#!/usr/bin/env bash
# Device call D (2026-11-27, issues 34-36): after auto became ipc on one node. Build as call A,
# then: auto on 2 and 4 GPUs, the unit tests of the pipeline, supernodal on the road-like
# V = 115,000 (OUT = /dev/null and a file, each rank's stages), a 1000 x 1000 table of it
# (--sources/--targets) and its measures. Run from the top of the tree:
#   OUT=... bash bench/results/2026-11-27-multigpu/call-d.sh .device-carry
set -uo pipefail
here=$(pwd); carry=$(cd "${1:?CARRY}" && pwd); out=${OUT:-/tmp/call-d}; mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH HOME=/root NCCL_NVLS_ENABLE=0
source bench/lib/carried-kokkos.sh
b=$here/build/device; s=$(date +%s)
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$k/bin/nvcc_wrapper \
  -DCMAKE_PREFIX_PATH=$k -DMETIS_ROOT="$carry/metis" -DAPSP_ENABLE_METIS=ON -DAPSP_ENABLE_PYTHON=OFF \
  -DAPSP_ENABLE_TESTS=ON -DAPSP_ENABLE_MPI=ON -DAPSP_ENABLE_NCCL=ON -DAPSP_ENABLE_BENCHMARKS=OFF \
  -DGTest_ROOT="$carry/deps/gtest" >"$out/build.log" 2>&1 &&
  timeout 330 ninja -C $b -j "$(nproc)" -k 0 apsp_cli apsp_tests >>"$out/build.log" 2>&1
echo "build: exit $? after $(( $(date +%s)-s )) s"; grep -E 'error' "$out/build.log" | head -20
a=$b/apsp; w=/tmp/d; mkdir -p $w
M="mpirun --allow-run-as-root --bind-to none -np"
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); pr=r.get('per_rank') or [r['seconds']]
m=lambda k: max(x.get(k,0) for x in pr)
print(sys.argv[2], 'P', r['ranks'], r.get('transport'), r.get('output_rows',''), ' '.join(f'{k} {m(k):.3f}' for k in ('read','plan','upload','compute','communication','link','download','write','commit','total')))
P
}
timeout 60 $b/tests/apsp_tests --gtest_brief=1 --gtest_filter='Pipeline*' >$out/unit.log 2>&1; echo "unit Pipeline*: exit $?"; grep -E 'FAILED|PASSED' $out/unit.log | head
$a generate --vertices 40000 --density 0.001 --seed 7 $w/g.in >/dev/null 2>&1
for p in 2 4; do $M $p $a $w/g.in /dev/null --stats $out/dense-auto-$p.json 2>>$out/err.log; show $out/dense-auto-$p.json "dense auto"; done
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
for p in 1 2 4; do $M $p $a --algorithm supernodal $w/r.in /dev/null --stats $out/road-null-$p.json 2>>$out/err.log; show $out/road-null-$p.json "road /dev/null"; done
python3 -c "
import random; random.seed(1); V=115000
open('$w/S','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')
open('$w/T','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')"
for i in 1 2; do $a --algorithm supernodal $w/r.in $w/od.npy --sources @$w/S --targets @$w/T --stats $out/od-$i.json 2>>$out/err.log; show $out/od-$i.json "od 1000x1000"; done
$a measures $w/r.in $w/m.json --algorithm supernodal --stats $out/measures-all.json 2>>$out/err.log; show $out/measures-all.json "measures all"
$a measures $w/r.in $w/m2.json --algorithm supernodal --measures eccentricity,closeness_centrality,harmonic_centrality,diameter,radius,wiener_index --stats $out/measures-nohist.json 2>>$out/err.log; show $out/measures-nohist.json "measures no histogram"
df -h /tmp | tail -1
for p in 1 2; do $M $p $a --algorithm supernodal $w/r.in $w/road.out --stats $out/road-file-$p.json 2>>$out/err.log; show $out/road-file-$p.json "road file"; rm -f $w/road.out; done
echo "call D: $(( $(date +%s)-s )) s"; tail -5 $out/err.log
