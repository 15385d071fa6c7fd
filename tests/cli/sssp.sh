#!/usr/bin/env bash
# sssp.sh APSP TESTCASES WORKDIR with-kokkos-kernels|without-kokkos-kernels BACKEND
# With Kokkos Kernels: `apsp --algorithm sssp` on every testcase equals the expected output and
# `--algorithm fw` bitwise, `--stats` names the algorithm and has no rates of updates, text output
# matches too, auto picks sssp for a sparse graph, in every build, and a weight above 1000 is
# refused in plain digits. Without: `--algorithm sssp` fails with one line saying why, and leaves
# no output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 testcases=$2 work=$3 kernels=$4 backend=$5
backend_option=(--backend "$backend")
[[ $backend == default ]] && backend_option=()
rm -rf "$work"
mkdir -p "$work"


if [[ $kernels == without-kokkos-kernels ]]; then
  rc=0
  "$apsp" "${backend_option[@]}" --algorithm sssp "$testcases/03-line.in" "$work/out" \
    2>"$work/stderr" || rc=$?
  [[ $rc == 2 ]] || fail "expected exit code 2, got $rc"
  expect_one_apsp_line "$work/stderr"
  grep -q -- "--algorithm sssp needs Kokkos Kernels, which this build lacks" "$work/stderr" ||
    fail "unexpected message: $(cat "$work/stderr")"
  [[ ! -e "$work/out" ]] || fail "an output file appeared"
  "$apsp" "${backend_option[@]}" --stats "$work/stats.json" "$testcases/09-sparse-300.in" \
    "$work/out"
  [[ $(algorithm_of "$work/stats.json") == fw ]] || fail "auto must mean fw without Kokkos Kernels"
  echo "OK: sssp refused without Kokkos Kernels"
  exit 0
fi

for in in "$testcases"/*.in; do
  name=$(basename "$in" .in)
  "$apsp" "${backend_option[@]}" --algorithm sssp --stats "$work/$name.json" "$in" \
    "$work/$name.sssp" 2>"$work/stderr" || fail "$name: $(cat "$work/stderr")"
  [[ ! -s "$work/stderr" ]] || fail "$name: a successful run should print nothing"
  [[ $(algorithm_of "$work/$name.json") == sssp ]] || fail "$name: --stats does not say sssp"
  "$apsp" "${backend_option[@]}" --algorithm fw "$in" "$work/$name.fw"
  cmp -s "$work/$name.sssp" "${in%.in}.out" || fail "$name: sssp differs from the expected output"
  cmp -s "$work/$name.sssp" "$work/$name.fw" || fail "$name: sssp differs from fw"
  expect_no_temporaries "$work/$name.sssp"
done

in=$testcases/06-sparse-193.in
"$apsp" "${backend_option[@]}" --algorithm sssp --output-format text "$in" "$work/sssp.txt"
"$apsp" "${backend_option[@]}" --algorithm fw --output-format text "$in" "$work/fw.txt"
cmp -s "$work/sssp.txt" "$work/fw.txt" || fail "text output: sssp differs from fw"

"$apsp" "${backend_option[@]}" --stats "$work/auto.json" "$testcases/09-sparse-300.in" \
  "$work/auto.out"
[[ $(algorithm_of "$work/auto.json") == sssp ]] || fail "auto should pick sssp for 09-sparse-300"
cmp -s "$work/auto.out" "$testcases/09-sparse-300.out" || fail "auto: wrong output"

# Dijkstra makes no min-plus updates: sssp's --stats has no rates (issue 43).
! grep -qE '"(updates|updates_counted|updates_per_second|gops)":' "$work/09-sparse-300.json" ||
  fail "sssp's --stats has rates of updates: $(cat "$work/09-sparse-300.json")"

# Its weights are int32's 0..1000 (--help says so): a heavier one is refused, written out whole.
"$apsp" --help >"$work/help.txt"
grep -qF "int32 distances, weights" "$work/help.txt" || fail "--help does not say sssp's weights"
printf '# vertices 3\n0 1 900000\n1 2 5\n' >"$work/heavy.txt"
rc=0
"$apsp" "${backend_option[@]}" --algorithm sssp "$work/heavy.txt" "$work/heavy.out" \
  2>"$work/stderr" || rc=$?
[[ $rc == 2 ]] || fail "a weight of 900000: expected exit code 2, got $rc"
expect_one_apsp_line "$work/stderr"
grep -qF "int32 with weights up to 900000: use --algorithm fw" "$work/stderr" ||
  fail "unexpected message: $(cat "$work/stderr")"

rc=0
"$apsp" --algorithm dijkstra "$in" "$work/bad" 2>"$work/stderr" || rc=$?
[[ $rc == 2 ]] || fail "unknown algorithm: expected exit code 2, got $rc"
expect_one_apsp_line "$work/stderr"
echo "OK: sssp equals fw on every testcase ($backend)"
