#!/bin/bash
# MPI, 2 ranks sharing the GPU: float64 with predecessors bitwise = 1 rank; GPU = Serial.
B=$PWD/.gpu-bin-new; W=/tmp/f2; mkdir -p $W
export LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-}
awk 'BEGIN{srand(9); n=1500; print "# vertices " n; for(v=0;v<n;v++) p[v]=rand()*3; for(u=0;u<n;u++) for(v=0;v<n;v++) if (rand()<0.02) printf "%d %d %.17g\n",u,v,rand()*10+p[u]-p[v]}' > $W/neg.txt
$B/apsp --allow-negative $W/neg.txt $W/one.npy --predecessors $W/one.p.npy --tile 32 || echo FAIL1
mpirun --allow-run-as-root --oversubscribe -np 2 $B/apsp --allow-negative $W/neg.txt $W/two.npy --predecessors $W/two.p.npy --tile 32 || echo FAIL2
cmp $W/one.npy $W/two.npy && cmp $W/one.p.npy $W/two.p.npy && echo "MPI float64 np2 (tile 32): bitwise equal (distances, predecessors)"
$B/apsp --backend serial --allow-negative $W/neg.txt $W/cpu.npy --predecessors $W/cpu.p.npy --tile 32 && cmp $W/one.npy $W/cpu.npy && cmp $W/one.p.npy $W/cpu.p.npy && echo "GPU float64 = Serial float64 (tile 32): bitwise equal (distances, predecessors)"
