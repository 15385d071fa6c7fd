#!/usr/bin/env bash
# Experiment (not landed): threads a row in the sweeps, L = 1 2 4 8, against the landed tree.
targets=(apsp_cli) nccl=OFF python=OFF tests=OFF
setup
a=$apsp w=/tmp/m
mkdir -p $w
build_old apsp_cli | tee -a "$out/summary.txt"
o=/tmp/build-old/apsp
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); st=r['seconds']; sn=r.get('supernodal',{})
print(sys.argv[2], ' '.join(f'{k} {st.get(k,0):.3f}' for k in ('plan','compute','write','total')), 'rows', round(sn.get('rows',0),3))
P
}
$a generate --vertices 700 --density 0.004 --seed 3 $w/random.in >/dev/null 2>&1
$a generate --class grid --vertices 1500 --seed 4 $w/grid.in >/dev/null 2>&1
$a generate --class road --vertices 20000 --seed 5 $w/road.in >/dev/null 2>&1
python3 -c "
import random; random.seed(2)
for n, V in (('random', 700), ('grid', 1500), ('road', 20000)):
    open('$w/S-'+n,'w').write('\n'.join(str(random.randrange(V)) for _ in range(300))+'\n')
    open('$w/T-'+n,'w').write('\n'.join(str(random.randrange(V)) for _ in range(250))+'\n')"
for g in random grid road; do
  for t in int32 float64; do
    $o measures $w/$g.in $w/$g.$t.old.json --algorithm supernodal --dtype $t
    $o $w/$g.in $w/$g.$t.old.npy --algorithm supernodal --dtype $t --sources @$w/S-$g --targets @$w/T-$g
    for L in 1 2 4 8; do
      APSP_EXPERIMENT_ROW_THREADS=$L $a measures $w/$g.in $w/$g.$t.new.json --algorithm supernodal --dtype $t
      cmp -s $w/$g.$t.new.json $w/$g.$t.old.json && r=same || r=DIFFER
      APSP_EXPERIMENT_ROW_THREADS=$L $a $w/$g.in $w/$g.$t.new.npy --algorithm supernodal --dtype $t --sources @$w/S-$g --targets @$w/T-$g
      cmp -s $w/$g.$t.new.npy $w/$g.$t.old.npy && r2=same || r2=DIFFER
      echo "$g $t L=$L: measures $r, table $r2"
    done
  done
  $o $w/$g.in $w/$g.old.out --algorithm supernodal
  for L in 1 4; do
    APSP_EXPERIMENT_ROW_THREADS=$L $a $w/$g.in $w/$g.new.out --algorithm supernodal
    cmp -s $w/$g.new.out $w/$g.old.out && r=same || r=DIFFER; echo "rows $g L=$L: $r"
  done
done 2>&1 | tee $out/correctness.txt
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
python3 -c "
import random; random.seed(1); V=115000
open('$w/S','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')
open('$w/T','w').write('\n'.join(str(random.randrange(V)) for _ in range(1000))+'\n')"
for i in 1 2; do
  for L in old 1 2 4 8 16; do x=$a; [ $L = old ] && x=$o
    export APSP_EXPERIMENT_ROW_THREADS=$L
    $x measures $w/r.in $w/m-$L.json --algorithm supernodal --stats $out/s.json; show $out/s.json "115k measures L=$L"
    $x --algorithm supernodal $w/r.in /dev/null --stats $out/s.json; show $out/s.json "115k /dev/null L=$L"
    $x --algorithm supernodal $w/r.in $w/od-$L.npy --sources @$w/S --targets @$w/T --stats $out/s.json; show $out/s.json "115k table L=$L"
  done
done 2>&1 | tee $out/r115k.txt
for L in 1 2 4 8 16; do cmp -s $w/m-$L.json $w/m-old.json && echo "115k measures L=$L same" || echo "115k measures L=$L DIFFER"
  cmp -s $w/od-$L.npy $w/od-old.npy && echo "115k table L=$L same" || echo "115k table L=$L DIFFER"; done | tee -a $out/r115k.txt
if [ "${BIG:-1}" = 1 ]; then
$a generate --class road --vertices 1000000 --seed 3 $w/r1m.in >/dev/null 2>&1
for L in ${BIG_L:-1 2}; do
  APSP_EXPERIMENT_ROW_THREADS=$L timeout 100 $a measures $w/r1m.in $w/m1m-$L.json --algorithm supernodal --stats $out/s.json; show $out/s.json "1M measures L=$L"
done 2>&1 | tee $out/r1m.txt
fi
