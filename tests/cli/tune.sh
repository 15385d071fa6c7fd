#!/usr/bin/env bash
# tune.sh APSP WORKDIR TESTCASES
# `apsp tune` and its cache (src/plan/tuning.hpp), in a private cache directory: the cache
# it writes, a run that takes the tuned shape ("shape_source": "tuned") and the same distances;
# --tile wins ("user"); APSP_TUNING=off, a broken cache, a cache of another shape table and a
# tuned shape the device cannot run all fall back to the table (the last three with one warning
# line), never an error; bad arguments (sizes too small to time among them) are refused, and an
# entry is never taken far from the size it was measured at.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 work=$2 testcases=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export XDG_CACHE_HOME=$work/cache
unset APSP_TUNING
cache=$XDG_CACHE_HOME/apsp/tuning.json
in=$testcases/09-sparse-300.in expected=$testcases/09-sparse-300.out

source_of() {  # the shape_source of --stats FILE
  sed -n 's/.*"shape_source": "\([a-z]*\)".*/\1/p' "$1"
}
# solves EXPECTED_SOURCE WARNINGS [ENV=VALUE...] [-- OPTIONS...]: a run on the testcase gives the
# expected distances, the shape source and that many warning lines (and nothing else) on stderr.
solves() {
  local source=$1 warnings=$2
  shift 2
  local env=()
  while [[ $# -gt 0 && $1 != -- ]]; do env+=("$1") && shift; done
  [[ $# -gt 0 ]] && shift
  env "${env[@]}" "$apsp" --algorithm fw "$in" out.bin --stats stats.json "$@" 2>stderr.txt ||
    fail "exit code $?: $(cat stderr.txt)"
  cmp -s out.bin "$expected" || fail "wrong distances (shape source $(source_of stats.json))"
  [[ "$(source_of stats.json)" == "$source" ]] ||
    fail "shape_source $(source_of stats.json), expected $source"
  [[ $(grep -c '^apsp: warning: ' stderr.txt || true) == "$warnings" &&
    $(wc -l <stderr.txt) == "$warnings" ]] || fail "expected $warnings warning line(s): $(cat stderr.txt)"
  echo "OK: $source${*:+ ($*)}$([[ $warnings == 0 ]] || echo ", $warnings warning line")"
}

# No cache yet: the table.
solves table 0

# Tuning: a table row per shape and size, the cache with one entry per size, never one that
# measured slower than the default, and no temporary left beside it.
"$apsp" tune --sizes 256,300 --runs 1 >tune.txt 2>tune.err || fail "tune: $(cat tune.err)"
[[ ! -s tune.err ]] || fail "tune wrote to stderr: $(cat tune.err)"
grep -q "stored in $cache" tune.txt || fail "tune does not say where it stored: $(cat tune.txt)"
[[ $(grep -c '<- chosen' tune.txt) == 2 ]] || fail "not one choice per size: $(cat tune.txt)"
[[ $(grep -c '"measured_vertices"' "$cache") == 2 ]] || fail "not two entries: $(cat "$cache")"
# (awk, not Python: the Kokkos 5 check runs in a chroot without it)
awk 'function field(key, m) {
    if (!match($0, "\"" key "\": [0-9.e+-]+")) { bad = 1; return 0 }
    m = substr($0, RSTART, RLENGTH); sub(/.*: /, "", m); return m + 0
  }
  /"measured_vertices"/ {
    m = field("measured_vertices")
    if (field("updates_per_second") < field("default_updates_per_second")) bad = 1
    if (field("min_vertices") != (n == 0 ? int((m + 1) / 2) : last + 1)) bad = 1
    if (field("max_vertices") > 2 * m) bad = 1
    last = field("max_vertices"); n++
  }
  END { exit bad || n == 0 }' "$cache" ||
  fail "an entry slower than the default, or beyond twice its size: $(cat "$cache")"
[[ -z "$(find "$XDG_CACHE_HOME" -name '*.apsp-tmp.*')" ]] || fail "a temporary was left"
echo "OK: tune stored $(grep -c '"measured_vertices"' "$cache") entries"

solves tuned 0
solves user 0 -- --tile 32
solves table 0 APSP_TUNING=off

# Tuning again replaces this machine's entries instead of adding to them.
"$apsp" tune --sizes 300 --runs 1 >/dev/null 2>&1 || fail "the second tune failed"
[[ $(grep -c '"measured_vertices"' "$cache") == 1 ]] || fail "entries kept: $(cat "$cache")"
solves tuned 0
cp "$cache" good.json

# The cached shape is the one that runs: the last shape of `apsp shapes` (never the default),
# written into the entry by its parameters.
last=$("$apsp" shapes | tail -n 1)
read -r tile rows cols ri rj kc < <(echo "${last#*: }" | tr -c '0-9' ' ' |
  awk '{ print $2, $3, $4, $5, $6, $7 }')
sed -E "2s/\"tile\": [0-9]+/\"tile\": $tile/; 2s/\"team_rows\": [0-9]+/\"team_rows\": $rows/;
  2s/\"team_cols\": [0-9]+/\"team_cols\": $cols/; 2s/\"reg_rows\": [0-9]+/\"reg_rows\": $ri/;
  2s/\"reg_cols\": [0-9]+/\"reg_cols\": $rj/; 2s/\"k_chunk\": [0-9]+/\"k_chunk\": $kc/" \
  good.json >"$cache"
solves tuned 0
grep -qF "\"shape\": \"${last#*: }\"" stats.json || fail "not the cached shape: $(grep shape stats.json)"
cp good.json "$cache"

# An entry measured at a size far from V is not taken (the 4x4 tile that a tune at V = 1 once
# stored for every V made V = 1500 33-41x slower): the table, and no warning.
sed -E '2s/"min_vertices": [0-9]+/"min_vertices": 1/; 2s/"max_vertices": [0-9]+/"max_vertices": 9223372036854775807/;
  2s/"measured_vertices": [0-9]+/"measured_vertices": 4/' good.json >"$cache"
grep -q '"measured_vertices": 4,' "$cache" || fail "the far entry was not written: $(cat "$cache")"
solves table 0
cp good.json "$cache"

# A cache of another shape table: stale, one warning.
sed 's/"table": "[0-9a-f]*"/"table": "0000000000000000"/' good.json >"$cache"
solves table 1
grep -q 'another shape table' stderr.txt || fail "the warning does not say why: $(cat stderr.txt)"
# A shape that this device's table does not have.
sed 's/"tile": [0-9]*/"tile": 999/' good.json >"$cache"
solves table 1
grep -q 'cannot run it' stderr.txt || fail "the warning does not say why: $(cat stderr.txt)"
# Broken files: garbage, a cut-off file, an entry with a bad number.
printf 'not json\n' >"$cache"
solves table 1
head -c 200 good.json >"$cache"
solves table 1
sed 's/"k_chunk": [0-9]*/"k_chunk": 1x/' good.json >"$cache"
solves table 1
# Whatever sits at the cache's name, a run neither hangs nor reads without bound: a FIFO (once
# every run and module call blocked on it) and a 2 MiB file are one warning each.
rm -f "$cache" && mkfifo "$cache"
rc=0
timeout 60 "$apsp" --algorithm fw "$in" out.bin 2>stderr.txt || rc=$?
[[ $rc == 0 ]] || fail "a FIFO at the cache: exit code $rc: $(cat stderr.txt)"
grep -q 'not a regular file' stderr.txt || fail "the FIFO's warning: $(cat stderr.txt)"
rc=0
timeout 60 "$apsp" tune --sizes 300 --runs 1 >/dev/null 2>tune.err || rc=$?
[[ $rc == 2 ]] || fail "tune into a FIFO: exit code $rc"
expect_one_apsp_line tune.err
rm -f "$cache"
{ head -n 1 good.json && head -c $((2 << 20)) /dev/zero | tr '\0' ' ' && echo && tail -n +2 good.json; } >"$cache"
solves table 1
grep -q 'MiB' stderr.txt || fail "the large cache's warning: $(cat stderr.txt)"
cp good.json "$cache"
echo "OK: a FIFO and a 2 MiB file at the cache's name"

# APSP_TUNING's spellings of off, in any case; anything else is off with one warning.
for off in OFF Off False disabled 0 no; do solves table 0 "APSP_TUNING=$off"; done
for on in ON True 1 yes enabled; do solves tuned 0 "APSP_TUNING=$on"; done
solves table 1 APSP_TUNING=maybe
grep -q "APSP_TUNING='maybe'.*taken as off" stderr.txt || fail "unknown value: $(cat stderr.txt)"

# A directory where the cache should be: tune cannot store, one error line.
rm -f "$cache" && mkdir "$cache"
solves table 1
rc=0
"$apsp" tune --sizes 300 --runs 1 >/dev/null 2>tune.err || rc=$?
[[ $rc == 2 ]] || fail "tune into a directory: exit code $rc"
expect_one_apsp_line tune.err
rmdir "$cache"

# Bad arguments: one line, exit code 2, no cache written.
for args in "--sizes 0" "--sizes 1" "--sizes 2,512" "--sizes 256,,512" "--runs 0" "--runs x" "file.in" "--dtype auto" \
  "--dtype int64"; do
  rc=0
  # shellcheck disable=SC2086 # the arguments are split on purpose
  "$apsp" tune $args >/dev/null 2>tune.err || rc=$?
  [[ $rc == 2 ]] || fail "tune $args: exit code $rc"
  expect_one_apsp_line tune.err
done
[[ ! -e "$cache" ]] || fail "a refused tune wrote the cache"
echo "OK: bad arguments refused"

# Each distance type has its own entries, and a run takes those of its type.
"$apsp" tune --sizes 300 --runs 1 >/dev/null 2>&1 || fail "tune failed"
"$apsp" tune --dtype float64 --sizes 300 --runs 1 >tune.txt 2>tune.err ||
  fail "tune --dtype float64: $(cat tune.err)"
grep -q "float64): stored in $cache" tune.txt || fail "not float64's entries: $(cat tune.txt)"
[[ $(grep -c '"dtype": "float64"' "$cache") == 1 && $(grep -c '"dtype": "int32"' "$cache") == 1 ]] ||
  fail "one entry of each type expected: $(cat "$cache")"
solves tuned 0
printf '# vertices 300\n0 1 0.5\n1 299 2.25\n' >real.txt
for dtype_source in float64:tuned float32:table; do
  "$apsp" --dtype "${dtype_source%:*}" real.txt real.npy --stats real.json 2>stderr.txt ||
    fail "--dtype ${dtype_source%:*}: $(cat stderr.txt)"
  [[ "$(source_of real.json)" == "${dtype_source#*:}" ]] ||
    fail "--dtype ${dtype_source%:*}: shape_source $(source_of real.json)"
done
echo "OK: float64 entries beside int32's, taken by float64 runs only"
