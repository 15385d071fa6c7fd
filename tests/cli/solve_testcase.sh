#!/usr/bin/env bash
# solve_testcase.sh APSP IN EXPECTED WORKDIR [OPTION]...
# Runs `APSP [OPTION]... IN OUT` and requires success, silence and OUT bitwise equal to EXPECTED.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 in=$2 expected=$3 work=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
out=$work/result.out

rc=0
"$apsp" "$@" "$in" "$out" >"$work/stdout" 2>"$work/stderr" || rc=$?
[[ $rc == 0 ]] || fail "exit code $rc: $(cat "$work/stderr")"
[[ ! -s "$work/stdout" && ! -s "$work/stderr" ]] ||
  fail "a successful run should print nothing, got: $(cat "$work/stdout" "$work/stderr")"
[[ -f "$out" ]] || fail "no output file"
expect_no_temporaries "$out"
if ! cmp -s "$out" "$expected"; then
  "$apsp" compare "$expected" "$out" >&2 || true
  fail "$out differs from $expected"
fi
echo "OK: $(basename "$in") $*"
