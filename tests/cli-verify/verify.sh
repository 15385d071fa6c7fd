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
