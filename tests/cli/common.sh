# shellcheck shell=bash
# Helpers shared by the CLI test scripts (sourced, not run).

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# One int32, little-endian, as raw bytes on stdout.
le32() {
  local v=$(($1 & 0xFFFFFFFF))
  # shellcheck disable=SC2059 # the format is the escaped bytes themselves
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) \
    $((v >> 16 & 255)) $((v >> 24 & 255)))"
}

# hw3 FILE V E [src dst w]...: an HW3 input with the values exactly as given.
hw3() {
  local file=$1
  shift
  : >"$file"
  for value in "$@"; do le32 "$value" >>"$file"; done
}

# Exactly one newline-terminated line in FILE, starting with "apsp: ".
expect_one_apsp_line() {
  local file=$1 first
  first=$(head -n 1 "$file")
  [[ "$(cat "$file"; echo x)" == "$first"$'\n'x ]] ||
    fail "expected exactly one line on stderr, got: $(cat "$file")"
  [[ "$first" == "apsp: "* ]] || fail "stderr line does not start with 'apsp: ': $first"
}

# No temporary output (OUT.apsp-tmp.*) left beside OUT.
expect_no_temporaries() {
  local out=$1 left
  left=$(compgen -G "$out.apsp-tmp.*" || true)
  [[ -z "$left" ]] || fail "temporary output left behind: $left"
}

# refused MESSAGE ARGS...: `$apsp ARGS` (apsp: the caller's) exits 2 with one "apsp: " line on
# stderr that contains MESSAGE, and leaves no out.bin (nor a temporary of it) in the current
# directory.
refused() {
  local message=$1 rc=0
  shift
  "$apsp" "$@" >stdout.txt 2>stderr.txt || rc=$?
  [[ $rc == 2 ]] || fail "$*: exit code $rc, expected 2 (stderr: $(cat stderr.txt))"
  expect_one_apsp_line stderr.txt
  grep -qF -- "$message" stderr.txt || fail "$*: the error does not say '$message': $(cat stderr.txt)"
  [[ ! -e out.bin ]] || fail "$*: an output file appeared"
  expect_no_temporaries out.bin
}

# The "algorithm" of a --stats file.
algorithm_of() { sed -n 's/^  "algorithm": "\(.*\)",$/\1/p' "$1"; }

# What the build has, asked of it rather than assumed (a GPU build runs these tests too).
# The backends of APSP, the default first (`apsp --version`: "..., backends: cuda, serial").
backends_of() { "$1" --version | sed -n 's/^.*, backends: //p' | tr -d ' ' | tr ',' '\n'; }
# The first host backend of APSP (openmp or serial; empty when it has none).
host_backend_of() { backends_of "$1" | grep -m 1 -x -E 'openmp|serial' || true; }
# Whether APSP's default backend is a GPU's.
default_backend_is_gpu() { [[ $(backends_of "$1" | head -n 1) =~ ^(cuda|hip)$ ]]; }
# The tile sizes APSP's default backend runs (`apsp shapes`), ascending, each once; more
# arguments go to `apsp shapes` (--backend NAME, --dtype T).
tile_sizes_of() {
  local apsp=$1
  shift
  "$apsp" shapes "$@" | sed -n 's/^[0-9]*: \([0-9]*\)x[0-9]* tile.*/\1/p' | sort -n -u
}

# busy_vertices APSP THREADS: a V whose Floyd-Warshall keeps APSP's default backend computing for
# seconds after the first --progress line (2 s after the start), so that a signal sent once that
# line is out lands mid-run on any backend: on CPUs 5000 times the cube root of the THREADS that
# compute (about 6 s at 20 G updates/s a thread, the 2-core CI machines' rate); on GPUs 40000
# (6.4 GB of int32 distances; 5 s on an H100 or H200 at 12 T updates/s).
busy_vertices() {
  if default_backend_is_gpu "$1"; then
    echo 40000
  else
    awk -v threads="$2" 'BEGIN { print int(5000 * threads ^ (1 / 3) / 100 + 1) * 100 }'
  fi
}

# wait_for_progress PID FILE: returns once FILE, the stderr of `apsp --progress`, holds the first
# progress line of Floyd-Warshall's rounds; fails when the process PID ends first, when that line
# is already the last (100%), or after 120 s (ending the process).
wait_for_progress() {
  local pid=$1 file=$2 tries
  for ((tries = 0; tries < 2400; tries++)); do
    if grep -q '\[apsp\] round ' "$file" 2>/dev/null; then
      ! grep -q '(100.0%)' "$file" || fail "computed before the signal: use a larger graph"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || fail "ended before its first progress line: $(cat "$file")"
    sleep 0.05
  done
  kill "$pid" 2>/dev/null || true
  fail "no progress line after 120 s: $(cat "$file")"
}
