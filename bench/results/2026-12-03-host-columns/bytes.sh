#!/bin/bash
B=/work/main/build/openmp/apsp; O=/tmp/oldtree/build/openmp/apsp
export OMP_WAIT_POLICY=passive
n=0; bad=0
for g in r2k.bin g1k.bin rand.bin dir0.bin /tmp/roaddir30k.bin /work/main/testcases/*.in; do
 for alg in supernodal auto; do
  for opt in "--bins 64" "--bins 7" "--bins 4096" "--measures eccentricity,harmonic_centrality" "--dtype float64" "--backend serial" "--threads-1"; do
   for ext in json csv npy; do
    [ "$ext" != json ] && [ "$opt" != "--bins 64" ] && continue
    case "$opt" in --threads-1) env="OMP_NUM_THREADS=1"; o="";; *) env="OMP_NUM_THREADS=2"; o="$opt";; esac
    env $env $O measures $g old.$ext --algorithm $alg $o > old.msg 2>&1; ro=$?
    env $env $B measures $g new.$ext --algorithm $alg $o > new.msg 2>&1; rn=$?
    n=$((n+1))
    if [ $ro != $rn ] || ! cmp -s old.msg new.msg || { [ $ro = 0 ] && ! cmp -s old.$ext new.$ext; }; then bad=$((bad+1)); echo "DIFF $g $alg $opt $ext rc $ro $rn"; fi
    rm -f old.$ext new.$ext
   done
  done
 done
done
echo "runs=$n differing=$bad"
