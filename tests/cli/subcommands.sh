#!/usr/bin/env bash
# subcommands.sh APSP WORKDIR
# `apsp generate` (byte-identical reruns, E in the header; the grid and road classes solve and
# verify), `apsp compare` (exit 0, 1, 2),
# `apsp --version` and `apsp --help`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$apsp" generate --vertices 90 --density 0.05 --seed 3 a.in 2>gen.err
"$apsp" generate --seed 3 --density=0.05 --vertices 90 b.in 2>/dev/null
cmp -s a.in b.in || fail "generate wrote different bytes for the same arguments"
edges=$(grep -o 'E = [0-9]*' gen.err | cut -d' ' -f3)
[[ -n "$edges" ]] || fail "generate did not report E: $(cat gen.err)"
[[ $(stat -c %s a.in) == $((8 + 12 * edges)) ]] || fail "a.in is not 8 + 12 E bytes (E = $edges)"
[[ "$(od -An -t d4 -j 4 -N 4 a.in | tr -d ' ')" == "$edges" ]] || fail "header E is not $edges"
echo "OK: generate, E = $edges"

# The smallest and the largest tile of the default backend (4 and 128 on CPUs, 32 and 64 on
# GPUs), beside its default.
mapfile -t tiles < <(tile_sizes_of "$apsp")
((${#tiles[@]} > 0)) || fail "apsp shapes lists no tile size: $("$apsp" shapes)"
"$apsp" a.in a.out
"$apsp" --tile "${tiles[0]}" a.in b.out
[[ "$("$apsp" compare a.out b.out)" == "identical (V = 90)" ]] || fail "compare of equal files"
"$apsp" --tile "${tiles[-1]}" b.in c.out
cmp -s a.out c.out || fail "different tiles, different distances"

# The structured classes: reproducible, verified, the same distances from fw and auto.
for class in grid road; do
  "$apsp" generate --class "$class" --vertices 300 --seed 2 "$class.in" 2>/dev/null
  "$apsp" generate --seed 2 --vertices 300 --class="$class" "$class-2.in" 2>/dev/null
  cmp -s "$class.in" "$class-2.in" || fail "generate --class $class: different bytes"
  "$apsp" --algorithm fw "$class.in" "$class.out"
  "$apsp" verify "$class.in" "$class.out" >/dev/null || fail "verify of the $class graph"
  "$apsp" --algorithm auto "$class.in" "$class-auto.out"  # sssp on sparse graphs, where built
  cmp -s "$class.out" "$class-auto.out" || fail "$class: --algorithm fw and auto differ"
done
rc=0
"$apsp" generate --class grid --vertices 10 --density 0.5 g.in 2>gen.err || rc=$?
[[ $rc == 2 && ! -e g.in ]] || fail "generate --class grid --density: exit code $rc"
expect_one_apsp_line gen.err
rc=0
"$apsp" generate --class mesh --vertices 10 g.in 2>gen.err || rc=$?
[[ $rc == 2 && ! -e g.in ]] || fail "generate --class mesh: exit code $rc"
echo "OK: generate --class grid and road"

# NumPy's format, by OUT's name or by --output-format: the HW3 values after its header;
# compare and verify read it, path reads its predecessors.
"$apsp" --predecessors a.pred a.in a2.out
"$apsp" --predecessors a.pred.npy a.in a.npy
"$apsp" --output-format npy a.in a-npy.bin
cmp -s a.npy a-npy.bin || fail "--output-format npy and OUT.npy differ"
head -c 10 a.npy | od -An -c | grep -q 'N   U   M   P   Y' || fail "a.npy lacks the .npy magic"
[[ $(stat -c %s a.npy) == $((128 + 90 * 90 * 4)) ]] || fail "a.npy: $(stat -c %s a.npy) bytes"
cmp -s <(tail -c $((90 * 90 * 4)) a.npy) a.out || fail "a.npy's values are not a.out"
[[ "$("$apsp" compare a.npy a.out)" == "identical (V = 90)" ]] || fail "compare npy with hw3"
"$apsp" verify a.in a.npy >/dev/null || fail "verify of a.npy"
[[ "$("$apsp" path --predecessors a.pred.npy a.in 0 89)" == "$("$apsp" path --predecessors a.pred a.in 0 89)" ]] ||
  fail "path from .npy predecessors"
echo "OK: npy output, compare, verify and path"

# One distance changed: row 7, column 11.
cp a.out d.out
printf '\x07\x00\x00\x00' | dd of=d.out bs=4 seek=$((7 * 90 + 11)) conv=notrunc status=none
rc=0
"$apsp" compare a.out d.out >cmp.out || rc=$?
[[ $rc == 1 ]] || fail "compare of different files: exit code $rc, expected 1"
grep -qF "first difference at (7, 11)" cmp.out || fail "compare: $(cat cmp.out)"
echo "OK: compare: $(cat cmp.out)"

rc=0
"$apsp" compare a.out missing.out >/dev/null 2>cmp.err || rc=$?
[[ $rc == 2 ]] || fail "compare with a missing file: exit code $rc, expected 2"
expect_one_apsp_line cmp.err

rc=0
"$apsp" generate --vertices 0 --density 0.5 g.in 2>gen.err || rc=$?
[[ $rc == 2 && ! -e g.in ]] || fail "generate --vertices 0: exit code $rc"
expect_one_apsp_line gen.err
expect_no_temporaries g.in

version=$("$apsp" --version)
[[ "$version" == "apsp "*", Kokkos "*", backends: "* ]] || fail "--version: $version"
# Into a file: `grep -q` on a pipe stops reading at the first match, and the rest of the text
# (more than one 4 KiB stdio buffer) would meet a closed pipe.
"$apsp" --help >help.txt || fail "--help: exit code $?"
grep -q "usage:" help.txt || fail "--help prints no usage"
echo "OK: $version"
