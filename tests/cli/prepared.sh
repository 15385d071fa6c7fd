#!/usr/bin/env bash
# prepared.sh APSP WORKDIR with-metis|without-metis BACKEND with-kokkos-kernels|without-kokkos-kernels
# `apsp prepare` (issue 46): a prepared graph answers every command as its edge list does, byte
# for byte (rows, predecessors, --sources/--targets tables, measures, `apsp path`, `apsp verify`)
# on a road-like graph, a uniform random one, a grid, a disconnected graph with negative weights
# and in float64; the file is told by its content whatever its name, the same input prepares the
# same bytes, a file prepared on each backend of the build is read on each, and new weights
# (--update-weights) give the file of a fresh prepare.
# Refused with one line, exit code 2 and no output: another --dtype or --algorithm than the
# file's, apsp prepare of fw, negative weights without --allow-negative, new weights on
# other edges, negative where there were none or with a negative cycle, and every damage to the
# file (a bit of each section or of the header, a cut, bytes added, another format version).
# Without METIS: apsp prepare says why.
# sssp (apsp prepare --algorithm sssp: the graph's arrays), on the build's first host backend:
# rows, tables, measures, path and verify as from the edge list, new weights, and refused: its
# predecessors, another algorithm, a device backend, weights above 1000, a damaged plan section,
# a build without Kokkos Kernels.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 work=$2 metis=$3 backend=$4 kernels=$5
backend_option=(--backend "$backend")
[[ $backend == default ]] && backend_option=()
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$apsp" generate --class road --vertices 1500 --seed 7 road.bin >/dev/null 2>&1
# New weights of the same edges, and inputs that are not that.
python3 - road.bin <<'EOF'
import array, struct, sys
data = open(sys.argv[1], "rb").read()
v, e = struct.unpack_from("<ii", data, 0)
triples = array.array("i")
triples.frombytes(data[8:])
def put(name, t, edges=e):
    open(name, "wb").write(struct.pack("<ii", v, edges) + t.tobytes())
heavier = array.array("i", triples)
for k in range(e):
    heavier[3 * k + 2] = (heavier[3 * k + 2] * 7 + 3) % 1001
put("road-new.bin", heavier)
swapped = array.array("i", triples)
swapped[3], swapped[4] = swapped[4], swapped[3]
put("road-swapped.bin", swapped)
put("road-short.bin", triples[:3 * (e - 1)], e - 1)
negative = array.array("i", triples)
negative[5] = -5
put("road-negative.bin", negative)
heavy = array.array("i", triples)
heavy[5] = 2000  # above HW3's range: an edge list
with open("road-heavy.txt", "w") as out:
    out.write("# vertices %d\n" % v)
    for k in range(e):
        out.write("%d %d %d\n" % tuple(heavy[3 * k:3 * k + 3]))
EOF

# sssp's prepared graph: the graph's arrays, answered without making them again.
host=$(host_backend_of "$apsp")
if [[ $kernels == without-kokkos-kernels && -n $host ]]; then
  refused "needs Kokkos Kernels" prepare --backend "$host" --algorithm sssp road.bin out.bin
elif [[ -n $host ]]; then
  on_host=(--backend "$host")
  "$apsp" prepare "${on_host[@]}" --algorithm sssp road.bin road.sssp
  "$apsp" prepare "${on_host[@]}" --algorithm sssp road.bin road.sssp-again
  cmp -s road.sssp road.sssp-again || fail "sssp: road.bin prepared twice: two files"
  "$apsp" "${on_host[@]}" --stats run.json road.sssp d1.bin
  grep -q '"prepared": true' run.json || fail "sssp: the stats do not say prepared"
  [[ $(algorithm_of run.json) == sssp ]] || fail "sssp: the prepared graph ran $(algorithm_of run.json)"
  "$apsp" "${on_host[@]}" --algorithm sssp road.bin d2.bin
  cmp -s d1.bin d2.bin || fail "sssp: the prepared graph's distances differ"
  for pair in "--sources 0,3,3,9 --targets 7,1,0" "--sources 5" "--targets 2,2"; do
    # shellcheck disable=SC2086 # the pair is two options
    "$apsp" "${on_host[@]}" $pair road.sssp t1.npy
    # shellcheck disable=SC2086
    "$apsp" "${on_host[@]}" --algorithm sssp $pair road.bin t2.npy
    cmp -s t1.npy t2.npy || fail "sssp: the prepared graph's table $pair differs"
  done
  "$apsp" measures "${on_host[@]}" road.sssp m1.json
  "$apsp" measures "${on_host[@]}" --algorithm sssp road.bin m2.json
  cmp -s m1.json m2.json || fail "sssp: the prepared graph's measures differ"
  "$apsp" path "${on_host[@]}" road.sssp 3 9 >path1.txt
  "$apsp" path "${on_host[@]}" road.bin 3 9 >path2.txt
  cmp -s path1.txt path2.txt || fail "sssp: apsp path differs: $(cat path1.txt path2.txt)"
  "$apsp" verify "${on_host[@]}" road.sssp d1.bin >/dev/null || fail "sssp: apsp verify"
  "$apsp" prepare "${on_host[@]}" --update-weights road-new.bin road.sssp updated.sssp
  "$apsp" prepare "${on_host[@]}" --algorithm sssp road-new.bin fresh.sssp
  cmp -s updated.sssp fresh.sssp || fail "sssp: new weights: not the file of a fresh prepare"
  refused "sssp does not write them" "${on_host[@]}" --predecessors p.bin road.sssp out.bin
  refused "holds the plan of sssp, not of --algorithm supernodal" "${on_host[@]}" \
    --algorithm supernodal road.sssp out.bin
  refused "holds the plan of sssp, not of --algorithm supernodal" path "${on_host[@]}" \
    --algorithm supernodal road.sssp 3 9
  refused "is prepared for sssp, which takes weights up to 1000; the new weights go up to 2000" \
    prepare "${on_host[@]}" --update-weights road-heavy.txt road.sssp out.bin
  if default_backend_is_gpu "$apsp"; then
    refused "sssp runs on host backends only" road.sssp out.bin
  fi
  python3 - road.sssp <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
graph = struct.unpack_from("<Q", data, 96)[0]
data[168 + graph + 20] ^= 0x10
open("sssp-plan.prep", "wb").write(bytes(data))
EOF
  refused "'sssp-plan.prep': the plan section is damaged" "${on_host[@]}" sssp-plan.prep out.bin
  echo "OK: sssp: every answer of the prepared graph is the edge list's"
fi

if [[ $metis == without-metis ]]; then
  refused "METIS" prepare "${backend_option[@]}" road.bin out.bin
  echo "OK: apsp prepare refused without METIS"
  exit 0
fi
"$apsp" generate --class grid --vertices 1200 --seed 5 grid.bin >/dev/null 2>&1
# Two components and isolated vertices; directed with negative weights (no cycle).
{
  echo "# vertices 40"
  for i in $(seq 0 14); do echo "$i $(((i + 1) % 15)) $((i % 7 + 1))"; done
  for i in $(seq 20 33); do echo "$i $((i + 1)) -$((i % 3))"; echo "$((i + 1)) $i 5"; done
} >parts.txt

# answers NAME IN [OPTIONS...]: prepare IN, then every product from the prepared file against
# the same from IN (--algorithm supernodal: the plan the file holds).
answers() {
  local name=$1 in=$2 pair
  shift 2
  local options=("${backend_option[@]}" "$@")
  local run=("$apsp" "${options[@]}")
  "$apsp" prepare "${options[@]}" --stats prepare.json "$in" "$name.prep" 2>stderr.txt ||
    fail "prepare $in: $(cat stderr.txt)"
  [[ ! -s stderr.txt ]] || fail "prepare $in should print nothing: $(cat stderr.txt)"
  grep -q '"prepared": false' prepare.json || fail "prepare $in: its stats say prepared"
  "$apsp" prepare "${options[@]}" "$in" "$name.again" || fail "prepare $in again"
  cmp -s "$name.prep" "$name.again" || fail "$in prepared twice: two files"
  "${run[@]}" --stats run.json --predecessors p1.npy "$name.prep" d1.npy 2>stderr.txt ||
    fail "$name.prep: $(cat stderr.txt)"
  [[ ! -s stderr.txt ]] || fail "$name.prep should print nothing: $(cat stderr.txt)"
  grep -q '"prepared": true' run.json || fail "$name.prep: the stats do not say prepared"
  grep -q '"ordering": 0, "symbolic": 0,' run.json || fail "$name.prep: a plan was made"
  "${run[@]}" --algorithm supernodal --predecessors p2.npy "$in" d2.npy
  cmp -s d1.npy d2.npy || fail "$name: the prepared graph's distances differ"
  cmp -s p1.npy p2.npy || fail "$name: the prepared graph's predecessors differ"
  for pair in "--sources 0,3,3,9 --targets 7,1,0" "--sources 5" "--targets 2,2"; do
    # shellcheck disable=SC2086 # the pair is two options
    "${run[@]}" $pair "$name.prep" t1.npy
    # shellcheck disable=SC2086
    "${run[@]}" --algorithm supernodal $pair "$in" t2.npy
    cmp -s t1.npy t2.npy || fail "$name: the prepared graph's table $pair differs"
  done
  "$apsp" measures "${options[@]}" "$name.prep" m1.json
  "$apsp" measures "${options[@]}" --algorithm supernodal "$in" m2.json
  cmp -s m1.json m2.json || fail "$name: the prepared graph's measures differ"
  "$apsp" path "${options[@]}" "$name.prep" 3 9 >path1.txt || fail "$name: path"
  "$apsp" path "${options[@]}" "$in" 3 9 >path2.txt || fail "$name: path"
  cmp -s path1.txt path2.txt || fail "$name: apsp path differs: $(cat path1.txt path2.txt)"
  # From the file's factor (the search above needs none).
  "$apsp" path "${options[@]}" --algorithm supernodal "$name.prep" 3 9 >path1.txt
  "$apsp" path "${options[@]}" --algorithm supernodal "$in" 3 9 >path2.txt
  cmp -s path1.txt path2.txt || fail "$name: apsp path --algorithm supernodal differs"
  "$apsp" verify "${backend_option[@]}" "$name.prep" d1.npy >/dev/null ||
    fail "$name: apsp verify of the prepared graph's answer"
  echo "OK: $name: every answer of the prepared graph is the edge list's"
}
answers road road.bin
"$apsp" generate --vertices 300 --density 0.02 --seed 3 random.bin >/dev/null 2>&1
answers random random.bin
answers grid grid.bin
answers parts parts.txt --allow-negative
answers road64 road.bin --dtype float64

# A file prepared on one backend is read on every other (a GPU node's on a laptop and back): the
# same answers; whole-number distances make the same factor, so the same file, everywhere.
read -r -a backends <<<"$("$apsp" --version | sed -n 's/.*backends: //p' | tr -d ',')"
for from in "${backends[@]}"; do
  "$apsp" prepare --backend "$from" road.bin "from-$from.prep"
  cmp -s "from-$from.prep" road.prep || fail "road.bin prepared on $from: another file"
  for to in "${backends[@]}"; do
    "$apsp" --backend "$to" --output-format npy "from-$from.prep" on.npy
    "$apsp" --backend "$to" --algorithm supernodal --output-format npy road.bin expected.npy
    cmp -s on.npy expected.npy || fail "prepared on $from, read on $to: other distances"
  done
done
echo "OK: prepared on each of ${backends[*]}, read on each"

# New weights on the prepared structure (apsp prepare --update-weights): the answers and the very
# file of a fresh prepare of the new weights.
"$apsp" prepare "${backend_option[@]}" --update-weights road-new.bin road.prep updated.prep
"$apsp" prepare "${backend_option[@]}" road-new.bin fresh.prep
cmp -s updated.prep fresh.prep || fail "new weights: not the file of a fresh prepare"
"$apsp" "${backend_option[@]}" --output-format npy updated.prep updated.npy
"$apsp" "${backend_option[@]}" --algorithm supernodal --output-format npy road-new.bin fresh.npy
cmp -s updated.npy fresh.npy || fail "new weights: other distances"
awk '/^#/ { print; next } { $3 = ($3 < 0 ? $3 - 1 : $3 + 2); print }' parts.txt >parts-new.txt
"$apsp" prepare "${backend_option[@]}" --allow-negative --update-weights parts-new.txt parts.prep \
  parts-updated.prep
"$apsp" "${backend_option[@]}" --allow-negative --output-format npy parts-updated.prep updated.npy
"$apsp" "${backend_option[@]}" --allow-negative --algorithm supernodal --output-format npy \
  parts-new.txt fresh.npy
cmp -s updated.npy fresh.npy || fail "new negative weights: other distances"
awk '/^#/ { print; next } { $3 = ($3 < 0 ? -3 : ($3 == 5 ? 1 : $3)); print }' parts.txt >parts-cycle.txt
refused "negative cycle through vertex" prepare "${backend_option[@]}" --allow-negative \
  --update-weights parts-cycle.txt parts.prep out.bin
refused "'road-swapped.bin': edge 1 is" prepare "${backend_option[@]}" \
  --update-weights road-swapped.bin road.prep out.bin
refused "'road-short.bin' has V = 1500, E =" prepare "${backend_option[@]}" \
  --update-weights road-short.bin road.prep out.bin
refused "a negative weight (-5) where prepared graph 'road.prep' had none" prepare \
  "${backend_option[@]}" --allow-negative --update-weights road-negative.bin road.prep out.bin
refused "IN 'road.bin' is not a prepared graph" prepare "${backend_option[@]}" \
  --update-weights road-new.bin road.bin out.bin
echo "OK: new weights on a prepared graph"

# The content decides, not the name: a prepared file named .txt is read as one.
cp road.prep road-named.txt
"$apsp" "${backend_option[@]}" --output-format npy road-named.txt named.npy
"$apsp" "${backend_option[@]}" --output-format npy road.prep unnamed.npy
cmp -s named.npy unnamed.npy || fail "a prepared file named .txt reads otherwise"

# What the file cannot honour.
refused "holds int32 distances, not --dtype float64's" "${backend_option[@]}" --dtype float64 \
  road.prep out.bin
refused "holds the plan of supernodal Floyd-Warshall, not of --algorithm fw" \
  "${backend_option[@]}" --algorithm fw road.prep out.bin
refused "apsp prepare keeps the plan and factor of supernodal Floyd-Warshall" \
  prepare "${backend_option[@]}" --algorithm fw road.bin out.bin
refused "negative weights need --allow-negative" "${backend_option[@]}" parts.prep out.bin
refused "are the same file" prepare "${backend_option[@]}" road.bin ./road.bin

# Every damage: one line naming the file and what is wrong.
python3 - road.prep <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
graph = struct.unpack_from("<Q", data, 96)[0]
plan = struct.unpack_from("<Q", data, 120)[0]
def put(name, content):
    open(name, "wb").write(content)
def flipped(offset):
    b = bytearray(data)
    b[offset] ^= 0x10
    return bytes(b)
put("cut.prep", data[:-7])
put("cut-header.prep", data[:100])
put("longer.prep", data + b"\0")
put("header.prep", flipped(44))
put("graph.prep", flipped(168 + graph // 2))
put("plan.prep", flipped(168 + graph + plan // 2))
put("factor.prep", flipped(len(data) - 5))
version = bytearray(data)
struct.pack_into("<I", version, 8, 99)
put("version.prep", bytes(version))
EOF
refused "'cut.prep': the file ends early" "${backend_option[@]}" cut.prep out.bin
refused "'cut-header.prep': the file ends early, in its header" "${backend_option[@]}" \
  cut-header.prep out.bin
refused "'longer.prep': 1 bytes after the last section" "${backend_option[@]}" longer.prep out.bin
refused "'header.prep': the header is damaged" "${backend_option[@]}" header.prep out.bin
refused "'graph.prep': the graph section is damaged" "${backend_option[@]}" graph.prep out.bin
refused "'plan.prep': the plan section is damaged" "${backend_option[@]}" plan.prep out.bin
refused "'factor.prep': the factor section is damaged" "${backend_option[@]}" factor.prep out.bin
refused "'version.prep': format version 99; this apsp" "${backend_option[@]}" version.prep out.bin
refused "'factor.prep': the factor section is damaged" measures "${backend_option[@]}" \
  factor.prep out.json
refused "'graph.prep': the graph section is damaged" path graph.prep 0 1
echo "OK: damaged prepared files refused"
