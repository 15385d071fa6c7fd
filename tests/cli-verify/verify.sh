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
grep -q "^verified: V = 150, E = [0-9]*: 8 sampled rows and columns exact (seed 1)" ok.txt ||
  fail "verify of a correct output: $(cat ok.txt)"
"$apsp" verify --samples 150 --seed=7 graph.in graph.out >all.txt ||
  fail "verify with every row sampled: $(cat all.txt)"
echo "OK: $(cat ok.txt)"

# Row 0 is always sampled; 2^30 - 2 is no distance of a 150-vertex graph.
cp graph.out bad.out
le32 1073741822 | dd of=bad.out bs=4 seek=3 conv=notrunc status=none
rc=0
"$apsp" verify graph.in bad.out >bad.txt || rc=$?
[[ $rc == 1 ]] || fail "verify of a wrong output: exit code $rc, expected 1"
grep -q "^mismatch at (0, 3): expected [0-9]*, found 1073741822 (" bad.txt ||
  fail "verify of a wrong output: $(cat bad.txt)"
[[ $(wc -l <bad.txt) == 1 ]] || fail "more than one line: $(cat bad.txt)"
echo "OK: $(cat bad.txt)"

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
