#!/usr/bin/env bash
# formats.sh APSP TESTCASES WORKDIR NAME [OPTION]...
# One graph in all four input formats: TESTCASES/NAME.in (HW3) and TESTCASES/formats/NAME.txt,
# .mtx and .gr. Each, chosen by extension and by --format, must solve silently to exactly
# TESTCASES/NAME.out; --output-format text must give the same distances as text; `apsp verify`
# must accept NAME.out for every format.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 testcases=$2 work=$3 name=$4
shift 4
rm -rf "$work"
mkdir -p "$work"
expected=$testcases/$name.out

# solve LABEL IN ARGS...: `apsp ARGS... IN OUT` must succeed silently with OUT = expected.
solve() {
  local label=$1 in=$2 out=$work/$1.out rc=0
  shift 2
  "$apsp" "$@" "$in" "$out" >"$work/stdout" 2>"$work/stderr" || rc=$?
  [[ $rc == 0 ]] || fail "$label: exit code $rc: $(cat "$work/stderr")"
  [[ ! -s "$work/stdout" && ! -s "$work/stderr" ]] ||
    fail "$label: a successful run should print nothing, got: $(cat "$work/stdout" "$work/stderr")"
  expect_no_temporaries "$out"
  if ! cmp -s "$out" "$expected"; then
    "$apsp" compare "$expected" "$out" >&2 || true
    fail "$label: $out differs from $expected"
  fi
  echo "OK: $label"
}

solve hw3 "$testcases/$name.in" "$@"
for pair in txt:edges mtx:mtx gr:dimacs; do
  extension=${pair%:*} format=${pair#*:}
  in=$testcases/formats/$name.$extension
  solve "$extension" "$in" "$@"
  # An explicit --format wins over the name.
  cp "$in" "$work/graph-without-extension"
  solve "$extension.$format" "$work/graph-without-extension" --format "$format" "$@"
  "$apsp" verify "$in" "$expected" >"$work/verify.txt" ||
    fail "verify $in: $(cat "$work/verify.txt")"
  "$apsp" verify --format "$format" "$work/graph-without-extension" "$expected" >/dev/null ||
    fail "verify --format $format"
done

# Text output: V lines of V integers, the HW3 output's values in the same order.
vertices=0
while (( vertices * vertices * 4 < $(stat -c %s "$expected") )); do vertices=$((vertices + 1)); done
od -An -v -t d4 -w$((vertices * 4)) "$expected" | sed -E 's/^ +//; s/ +/ /g' >"$work/expected.txt"
"$apsp" --output-format text "$@" "$testcases/formats/$name.mtx" "$work/text.out" ||
  fail "--output-format text failed"
cmp -s "$work/text.out" "$work/expected.txt" ||
  fail "text output differs from $expected: $(diff "$work/expected.txt" "$work/text.out" | head -5)"
echo "OK: --output-format text"
