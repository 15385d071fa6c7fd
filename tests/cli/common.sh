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
