#!/usr/bin/env bash
# verify.sh APSP WORKDIR
# `apsp verify IN OUT`: exit 0 and one "verified:" line for a correct output, exit 1 and one
# "mismatch at (i, j)" line for a wrong one, exit 2 and one "apsp: " line on stderr for files
# or arguments it cannot use.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../cli/common.sh"

apsp=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"

"$apsp" generate --vertices 150 --density 0.03 --seed 5 graph.in 2>/dev/null
"$apsp" graph.in graph.out

"$apsp" verify graph.in graph.out >ok.txt
grep -q "^verified: V = 150, E = [0-9]*: every row exact by the shortest-path certificate (V x E = [0-9]*, at most 10000000000)" ok.txt ||
  fail "verify of a correct output: $(cat ok.txt)"
"$apsp" verify --samples 150 --seed=7 graph.in graph.out >all.txt ||
  fail "verify with every row sampled: $(cat all.txt)"
echo "OK: $(cat ok.txt)"
# Beyond the limit on V x E the check is sampled, and says so.
"$apsp" verify --exact-limit 1000 graph.in graph.out >sampled.txt
grep -q "^verified: V = 150, E = [0-9]*: sampled, not every row: V x E = [0-9]* is above the exact check's limit of 1000 (--exact-limit); 8 sampled rows and columns exact (seed 1)" sampled.txt ||
  fail "verify over the limit: $(cat sampled.txt)"
echo "OK: $(cat sampled.txt)"

# 2^30 - 2 is no distance of a 150-vertex graph: an edge into 3 bounds it.
cp graph.out bad.out
le32 1073741822 | dd of=bad.out bs=4 seek=3 conv=notrunc status=none
rc=0
"$apsp" verify graph.in bad.out >bad.txt || rc=$?
[[ $rc == 1 ]] || fail "verify of a wrong output: exit code $rc, expected 1"
grep -q "^mismatch at (0, 3): expected at most [0-9]*, found 1073741822 (edge [0-9]* -> 3 of weight [0-9]* from d(0, [0-9]*))" bad.txt ||
  fail "verify of a wrong output: $(cat bad.txt)"
[[ $(wc -l <bad.txt) == 1 ]] || fail "more than one line: $(cat bad.txt)"
echo "OK: $(cat bad.txt)"

# Every entry counts (issue 32, item 12): on a road, values changed by one at 10 places, 10 bit
# flips and, with 64 samples, values one below the truth are each caught in their row.
"$apsp" generate --class road --vertices 1000 --seed 4 road.in 2>/dev/null
"$apsp" road.in road.out
"$apsp" verify road.in road.out >/dev/null || fail "verify of a correct road"
v=1000
caught=0
for k in $(seq 1 10); do
  pos=$((k * 48271 * 7 % (v * v)))
  row=$((pos / v))
  ((row != pos % v)) || continue
  value=$(od -An -t d4 -j $((4 * pos)) -N 4 road.out | tr -d ' ')
  for wrong in $((value + 1)) $((value - 1)) $((value ^ (1 << (k % 31)))) "$((value - 1)) --samples 64"; do
    # shellcheck disable=SC2086 # the value and its options, split on purpose
    set -- $wrong
    cp road.out bad.out
    le32 "$1" | dd of=bad.out bs=4 seek=$pos conv=notrunc status=none
    rc=0
    "$apsp" verify road.in bad.out "${@:2}" >bad.txt || rc=$?
    [[ $rc == 1 ]] && grep -q "^mismatch at ($row, " bad.txt ||
      fail "d($row, $((pos % v))) = $1 instead of $value ${*:2}: exit code $rc: $(cat bad.txt)"
    caught=$((caught + 1))
  done
done
echo "OK: $caught wrong values on a road, each caught in its row"

head -c 1000 graph.out >short.out
for args in "graph.in short.out" "graph.in missing.out" "missing.in graph.out" "graph.in" \
  "--samples -1 graph.in graph.out" "--seed x graph.in graph.out" "--bogus 1 graph.in graph.out" \
  "graph.in graph.out --samples"; do
  rc=0
  # shellcheck disable=SC2086
  "$apsp" verify $args >out.txt 2>err.txt || rc=$?
  [[ $rc == 2 ]] || fail "verify $args: exit code $rc, expected 2"
  expect_one_apsp_line err.txt
  [[ ! -s out.txt ]] || fail "verify $args wrote to stdout: $(cat out.txt)"
  echo "OK: verify $args: $(cat err.txt)"
done

# Text outputs are read as text, by content, whatever their names (issue 26, item 6): verify
# passes a correct one and words its errors for text; compare takes any pair of HW3, .npy and
# text (two identical texts were once "different", read as HW3).
"$apsp" graph.in graph.txt --output-format text
"$apsp" graph.in graph.npy
"$apsp" verify graph.in graph.txt >text.txt || fail "verify of a text output: $(cat text.txt)"
cp graph.txt copy.txt
for pair in "graph.txt copy.txt" "graph.txt graph.out" "graph.out graph.txt" "graph.npy graph.txt"; do
  # shellcheck disable=SC2086 # the pair is split on purpose
  "$apsp" compare $pair >cmp.txt || fail "compare $pair: $(cat cmp.txt)"
  grep -q "^identical (V = 150)" cmp.txt || fail "compare $pair: $(cat cmp.txt)"
done
sed '1s/^0 [0-9]* /0 1073741822 /' graph.txt >wrong.txt
rc=0
"$apsp" compare graph.out wrong.txt >cmp.txt || rc=$?
[[ $rc == 1 ]] && grep -q "^first difference at (0, 1): [0-9]* in 'graph.out', 1073741822 in 'wrong.txt'" cmp.txt ||
  fail "compare with a wrong text: exit code $rc: $(cat cmp.txt)"
rc=0
"$apsp" verify graph.in wrong.txt >bad.txt || rc=$?
[[ $rc == 1 ]] || fail "verify of a wrong text: exit code $rc: $(cat bad.txt)"
head -n 3 graph.txt >short.txt
rc=0
"$apsp" verify graph.in short.txt >/dev/null 2>err.txt || rc=$?
[[ $rc == 2 ]] || fail "verify of a cut text: exit code $rc"
expect_one_apsp_line err.txt
grep -q "text" err.txt && ! grep -qi "hw3\|bytes" err.txt || fail "not worded for text: $(cat err.txt)"
printf '# vertices 3\n0 1 0.1\n1 2 0.2\n' >real.txt
"$apsp" real.txt real32.txt --dtype float32 --output-format text
"$apsp" real.txt real32.npy --dtype float32
"$apsp" verify real.txt real32.txt >/dev/null || fail "verify of a float32 text"
"$apsp" compare real32.txt real32.npy >/dev/null || fail "compare of float32 text and .npy"
echo "OK: text outputs in verify and compare"

# Negative weights (no negative cycle): the exact check takes them, int32 and real; the sampled
# check cannot (Dijkstra), and says why.
hw3 neg.in 4 5 0 1 3 1 2 -2 2 3 0 3 1 2 0 3 7
"$apsp" neg.in neg.out --allow-negative
"$apsp" verify neg.in neg.out >neg.txt || fail "verify with negative weights: $(cat neg.txt)"
cp neg.out bad.out
le32 0 | dd of=bad.out bs=4 seek=2 conv=notrunc status=none # d(0, 2) = 1, d(0, 3) = 1
rc=0
"$apsp" verify neg.in bad.out >bad.txt || rc=$?
[[ $rc == 1 ]] && grep -q "^mismatch at (0, 3): expected at most 0, found 1 (edge 2 -> 3 of weight 0 from d(0, 2))$" bad.txt ||
  fail "verify of a wrong output with negative weights: exit code $rc: $(cat bad.txt)"
rc=0
"$apsp" verify --exact-limit 0 neg.in neg.out >/dev/null 2>err.txt || rc=$?
[[ $rc == 2 ]] && grep -q "^apsp: error: verify: edge 1 (1 -> 2) has weight -2 < 0, which the sampled check cannot take (it samples rows by Dijkstra), and the exact check is off (--exact-limit 0)$" err.txt ||
  fail "verify --exact-limit 0 with negative weights: exit code $rc: $(cat err.txt)"
printf '# vertices 4\n0 1 3\n1 2 -2.25\n2 3 0.5\n3 1 1.75\n0 3 7.125\n' >negreal.txt
"$apsp" negreal.txt negreal.npy --allow-negative
"$apsp" verify negreal.txt negreal.npy >/dev/null || fail "verify of negative real weights"
echo "OK: negative weights: $(cat neg.txt)"
