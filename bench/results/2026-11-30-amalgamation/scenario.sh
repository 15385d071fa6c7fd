#!/usr/bin/env bash
# Experiment (not landed): the amalgamation's sizes for the GPU rows.
targets=(apsp_cli) nccl=OFF python=OFF tests=OFF
setup
a=$apsp w=/tmp/m
mkdir -p $w
show() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); st=r['seconds']; sn=r.get('supernodal',{})
print(sys.argv[2], ' '.join(f'{k} {st.get(k,0):.3f}' for k in ('plan','compute','write','total')), 'factor', round(sn.get('factor',0),3), 'rows', round(sn.get('rows',0),3), 'supernodes', sn.get('supernodes'), 'upd %.3g' % sn.get('predicted_updates',0), 'path_bytes', sn.get('path_bytes'))
P
}
variants=${VARIANTS:-"32,16,0.1 64,16,0.1 128,16,0.1 32,32,0.1 64,32,0.2 128,64,0.3 256,32,0.1"}
$a generate --class road --vertices 20000 --seed 5 $w/road.in >/dev/null 2>&1
$a generate --class grid --vertices 20000 --seed 4 $w/grid.in >/dev/null 2>&1
$a generate --class road --vertices 115000 --seed 3 $w/r.in >/dev/null 2>&1
for v in $variants; do IFS=, read -r st sn rf <<<"$v"; export APSP_X_SUBTREE=$st APSP_X_SUPERNODE=$sn APSP_X_RELAXED=$rf
  for g in road grid; do $a measures $w/$g.in $w/$g-$v.json --algorithm supernodal; $a $w/$g.in $w/$g-$v.out --algorithm supernodal
    cmp -s $w/$g-$v.json $w/$g-32,16,0.1.json && cmp -s $w/$g-$v.out $w/$g-32,16,0.1.out && echo "$g $v: same" || echo "$g $v: DIFFER"; rm -f $w/$g-$v.out; done
  for i in 1 2; do
    $a measures $w/r.in $w/m-$v.json --algorithm supernodal --stats $out/s.json; show $out/s.json "115k measures $v"
    $a --algorithm supernodal $w/r.in /dev/null --stats $out/s.json; show $out/s.json "115k /dev/null $v"
  done
  cmp -s $w/m-$v.json $w/m-32,16,0.1.json && echo "115k $v: same" || echo "115k $v: DIFFER"
done 2>&1 | tee $out/r115k.txt
$a generate --class road --vertices 1000000 --seed 3 $w/r1m.in >/dev/null 2>&1
for v in $variants; do IFS=, read -r st sn rf <<<"$v"; export APSP_X_SUBTREE=$st APSP_X_SUPERNODE=$sn APSP_X_RELAXED=$rf
  rm -f $out/s.json; timeout 60 $a measures $w/r1m.in $w/m1m-$v.json --algorithm supernodal --stats $out/s.json && show $out/s.json "1M measures $v"
  cmp -s $w/m1m-$v.json $w/m1m-32,16,0.1.json && echo "1M $v: same" || echo "1M $v: DIFFER"
done 2>&1 | tee $out/r1m.txt
