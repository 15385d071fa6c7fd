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
