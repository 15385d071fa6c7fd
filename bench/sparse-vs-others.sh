#!/usr/bin/env bash
# sparse-vs-others.sh APSP [V] [DEGREE] [RUNS]
# apsp --algorithm sssp against what users would otherwise run, on the same random graph
# (default V = 4000, average degree 10):
#   SciPy  scipy.sparse.csgraph.shortest_path(method='auto')   (bench/sparse_scipy.py)
#   Boost  boost::johnson_all_pairs_shortest_paths             (bench/sparse_boost_johnson.cpp,
#          built here with g++ -O3)
# Every program's output must equal apsp's, bitwise. Times are the best of RUNS (default 3),
# interleaved: apsp's whole run (reading, computing, writing; wall clock) and its compute stage,
# the others' library call alone (their reading and writing excluded), so the ratios favour them.
# Needs python3-scipy and libboost-graph-dev (Debian).
set -euo pipefail
apsp=${1:?usage: sparse-vs-others.sh APSP [V] [DEGREE] [RUNS]}
v=${2:-4000}
degree=${3:-10}
runs=${4:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=/usr/bin/python3  # Debian's, with python3-scipy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

g++ -O3 -DNDEBUG -o "$work/boost_johnson" "$here/sparse_boost_johnson.cpp"
"$apsp" --version
"$python" -c "import scipy, numpy; print('SciPy', scipy.__version__, 'NumPy', numpy.__version__)"
echo "Boost $(sed -n 's/#define BOOST_LIB_VERSION "\(.*\)"/\1/p' /usr/include/boost/version.hpp)," \
  "$(g++ --version | head -n 1)"
echo "CPU: $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"

density=$("$python" -c "print($degree / $v)")
"$apsp" generate --vertices "$v" --density "$density" --seed 1 "$work/g.in"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

best() { "$python" -c "import sys; print(min(map(float, sys.argv[1:])))" "$@"; }
apsp_wall=() apsp_compute=() scipy=() boost=()
for _ in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$apsp" --algorithm sssp --stats "$work/stats.json" "$work/g.in" "$work/apsp.out"
  apsp_wall+=("$(echo "$(date +%s.%N) - $start" | bc)")
  apsp_compute+=("$(sed -n 's/.*"compute": \([0-9.e+-]*\),.*/\1/p' "$work/stats.json")")
  scipy+=("$("$python" "$here/sparse_scipy.py" "$work/g.in" "$work/scipy.out")")
  boost+=("$("$work/boost_johnson" "$work/g.in" "$work/boost.out")")
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
cmp -s "$work/apsp.out" "$work/scipy.out" || { echo "SciPy's distances differ" >&2; exit 1; }
cmp -s "$work/apsp.out" "$work/boost.out" || { echo "Boost's distances differ" >&2; exit 1; }

a=$(best "${apsp_wall[@]}") c=$(best "${apsp_compute[@]}")
s=$(best "${scipy[@]}") b=$(best "${boost[@]}")
"$python" - "$v" "$degree" "$a" "$c" "$s" "$b" <<'PY'
import sys
v, degree, wall, compute, scipy, boost = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
print(f"V = {v}, average degree {degree}: identical outputs; best seconds")
print(f"  apsp --algorithm sssp   {wall:8.3f} whole run, {compute:.3f} compute")
print(f"  SciPy shortest_path     {scipy:8.3f}   x{scipy / wall:.1f} (whole run), x{scipy / compute:.1f} (compute)")
print(f"  Boost johnson_all_pairs {boost:8.3f}   x{boost / wall:.1f} (whole run), x{boost / compute:.1f} (compute)")
PY
