#!/usr/bin/env bash
# Device call 1 (issue 17, --dtype): GPU tests; the CLI against SciPy on the GPU
# (tests/python/test_cli_dtypes.py); int32 unchanged (table before/after); float32/float64
# end to end at V = 11000; MPI, 2 ranks sharing the GPU, float64 and float32 bitwise = 1 rank.
set -uo pipefail
B=$PWD/.gpu-bin-new
export LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/gpu.txt
( cd /tmp && timeout 240 $B/apsp_tests 2>&1 | tail -n 30 ) > $OUT/tests.log 2>&1
echo "tests exit ${PIPESTATUS[0]}" >> $OUT/tests.log
( mkdir -p /tmp/clibin && cp $B/apsp /tmp/clibin/apsp && cd /tmp &&
  APSP_BUILD_DIR=/tmp/clibin timeout 120 python3 -m pytest -q -p no:cacheprovider \
    $OLDPWD/tests/python/test_cli_dtypes.py 2>&1 | tail -n 15 ) > $OUT/cli-dtypes.log 2>&1
{
  W=/tmp/f; mkdir -p $W
  awk 'BEGIN{srand(5); n=11000; print "# vertices " n; for(u=0;u<n;u++) for(v=0;v<n;v++) if (rand()<0.01) printf "%d %d %.6f\n",u,v,rand()*1000}' > $W/real.txt
  wc -l $W/real.txt
  for r in 1 2 3; do for t in int32x float32 float64; do
    if [ $t = int32x ]; then continue; fi
    $B/apsp --dtype $t $W/real.txt /dev/null --output-format npy --stats $W/s.json || echo FAIL
    python3 -c "import json;s=json.load(open('$W/s.json'));x=s['seconds'];v=s['vertices'];print('$t',s['dtype'],s['shape'],'read %.3f upload %.3f compute %.4f (%.2f T) download+write %.3f total %.3f'%(x['read'],x['upload'],x['compute'],v**3/x['compute']/1e12,x['download']+x['write'],x['total']))"
  done; done
  # The same graph's --predecessors in float32 and float64.
  for t in float32 float64; do
    $B/apsp --dtype $t $W/real.txt /dev/null --output-format npy --predecessors /dev/null --stats $W/s.json || echo FAIL
    python3 -c "import json;s=json.load(open('$W/s.json'));x=s['seconds'];print('paths $t compute %.4f predecessors %.4f total %.3f'%(x['compute'],x['predecessors'],x['total']))"
  done
  # MPI: 2 ranks on the one GPU, bitwise = 1 rank (float64 npy with predecessors, float32 text).
  awk 'BEGIN{srand(9); n=1500; print "# vertices " n; for(v=0;v<n;v++) p[v]=rand()*3; for(u=0;u<n;u++) for(v=0;v<n;v++) if (rand()<0.02) printf "%d %d %.17g\n",u,v,rand()*10+p[u]-p[v]}' > $W/neg.txt
  $B/apsp --allow-negative $W/neg.txt $W/one.npy --predecessors $W/one.p.npy --tile 64 || echo FAIL1
  mpirun --allow-run-as-root --oversubscribe -np 2 $B/apsp --allow-negative $W/neg.txt $W/two.npy --predecessors $W/two.p.npy --tile 64 || echo FAIL2
  cmp $W/one.npy $W/two.npy && cmp $W/one.p.npy $W/two.p.npy && echo "MPI float64 np2: bitwise equal (distances, predecessors)"
  $B/apsp --allow-negative --dtype float32 --output-format text $W/neg.txt $W/one.txt || echo FAIL3
  mpirun --allow-run-as-root --oversubscribe -np 2 $B/apsp --allow-negative --dtype float32 --output-format text $W/neg.txt $W/two.txt || echo FAIL4
  cmp $W/one.txt $W/two.txt && echo "MPI float32 text np2: bitwise equal"
  $B/apsp verify $W/real.txt /dev/null 2>&1 | head -2
  OMP_NUM_THREADS=4 $B/apsp --backend serial --dtype float64 --allow-negative $W/neg.txt $W/cpu.npy --tile 64 && cmp $W/one.npy $W/cpu.npy && echo "GPU float64 = Serial float64 bitwise"
} > $OUT/float-cli.log 2>&1
NCU=0 CHECKS=0 VARIANTS="plain" APSP_WORK=/tmp/apsp-table timeout 200 \
  bench/gpu-table.sh $B $OUT/table $PWD/.gpu-bin/apsp "4096:0.05 11000:0.01" 3 > $OUT/table.log 2>&1
cp $OUT/table/summary.txt $OUT/table-summary.txt 2>/dev/null
rm -rf $OUT/table
