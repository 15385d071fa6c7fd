#!/bin/bash
B=/work/main/build/openmp/apsp; O=/tmp/oldtree/build/openmp/apsp
export OMP_NUM_THREADS=2 OMP_PROC_BIND=true OMP_WAIT_POLICY=passive
s() { /usr/bin/python3 -c "import json,sys; d=json.load(open('$1'))['seconds']; print(' '.join('%s=%.3f'%(k,d[k]) for k in ('plan','compute','write','total')))"; }
for g in road30k grid30k roaddir30k; do
 for k in 1 2 3; do
  $O measures --stats o.json /tmp/$g.bin old.json; echo "$g old $(s o.json)"
  $B measures --stats n.json /tmp/$g.bin new.json; echo "$g new $(s n.json)"
  $B --stats d.json /tmp/$g.bin /dev/null; echo "$g devnull $(s d.json)"
  cmp -s old.json new.json && echo "$g bytes same" || echo "$g BYTES DIFFER"
 done
done
