# shellcheck shell=bash
# Kokkos 3.4.01's source and the project's patches to it; sourced by scripts/bootstrap-deps and
# scripts/check-arm, so that every Kokkos the project builds comes from the same source with the
# same patches.
#
#   kokkos_fetch_source DEPS_DIR   makes DEPS_DIR/src/trilinos-13.2.0/{kokkos,kokkos-kernels}
#                                  unless it is there already; prints where it is
#   kokkos_patched_copy SRC DEST   copies SRC/kokkos to DEST and applies every patch
#   kokkos_patch_text              the text of the patches (for the cache keys of built prefixes)
#
# The only Kokkos source reachable here is Debian's trilinos 13.2 source package, which carries
# Kokkos 3.4.01 and Kokkos Kernels 3.4.01. It is fetched with `apt-get source` through a private
# apt configuration derived from this machine's own apt sources (the system configuration is not
# touched). The functions print what went wrong on stderr and return 1; the caller decides what
# that means (scripts/check-arm reports "archive unreachable" apart from a build failure).

KOKKOS_PATCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../patches/kokkos-3.4.01" && pwd)

kokkos_source_error() { printf '[kokkos-source] error: %s\n' "$*" >&2; }

# A private apt configuration in APT_DIR (emptied first) with deb-src entries derived from the
# machine's own sources, updated; APT_DIR/dl is where to download. Shared with
# scripts/lib/metis-source.sh.
debian_source_apt() {
  local apt_dir=$1 found f
  rm -rf "$apt_dir" && mkdir -p "$apt_dir"/{parts,lists/partial,cache/archives/partial,dl}
  # deb-src entries derived from the machine's own sources (deb822 or one-line form).
  found=0
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -E 's/^Types:.*/Types: deb-src/' "$f" >"$apt_dir/parts/$(basename "$f")" && found=1
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    grep -E '^deb ' "$f" | sed -E 's/^deb /deb-src /' >>"$apt_dir/parts/derived.list" && found=1
  done
  [ "$found" = 1 ] ||
    { kokkos_source_error "no apt sources found under /etc/apt to derive deb-src entries from"; return 1; }
  cat >"$apt_dir/apt.conf" <<EOF
Dir::Etc::SourceList "/dev/null";
Dir::Etc::SourceParts "$apt_dir/parts";
Dir::State::Lists "$apt_dir/lists";
Dir::Cache "$apt_dir/cache";
APT::Sandbox::User "root";
EOF
  APT_CONFIG=$apt_dir/apt.conf apt-get update -qq >&2 ||
    { kokkos_source_error "apt-get update (deb-src) failed: is the Debian archive reachable?"; return 1; }
}

kokkos_fetch_source() {
  local deps_dir=$1 src_dir apt_dir tarball top
  src_dir=$deps_dir/src/trilinos-13.2.0
  if [ -f "$src_dir/.extracted" ]; then
    echo "$src_dir"
    return 0
  fi
  printf "[kokkos-source] fetching Debian's trilinos 13.2 source package (carries Kokkos 3.4.01)\n" >&2
  apt_dir=$deps_dir/apt
  debian_source_apt "$apt_dir" || return 1
  (cd "$apt_dir/dl" && APT_CONFIG=$apt_dir/apt.conf apt-get source --download-only -qq trilinos >&2) ||
    { kokkos_source_error "apt-get source trilinos failed: is the Debian archive reachable?"; return 1; }
  tarball=$(ls "$apt_dir"/dl/trilinos_13.2.0.orig.tar.* 2>/dev/null | head -1)
  [ -n "$tarball" ] || {
    kokkos_source_error "apt-get source gave no trilinos_13.2.0.orig tarball (is bookworm's trilinos 13.2 still served?)"
    return 1
  }
  rm -rf "$src_dir" && mkdir -p "$src_dir"
  top=$(tar -tf "$tarball" | awk -F/ 'NR == 1 { print $1 }')
  printf '[kokkos-source] extracting packages/kokkos and packages/kokkos-kernels\n' >&2
  tar -xf "$tarball" -C "$src_dir" --strip-components=2 \
    "$top/packages/kokkos" "$top/packages/kokkos-kernels" ||
    { kokkos_source_error "extracting Kokkos from $tarball failed"; return 1; }
  grep -q 'Kokkos_VERSION_MINOR 4' "$src_dir/kokkos/CMakeLists.txt" ||
    { kokkos_source_error "the trilinos source does not carry Kokkos 3.4"; return 1; }
  rm -rf "$apt_dir/dl"
  touch "$src_dir/.extracted"
  echo "$src_dir"
}

kokkos_patched_copy() {
  local src_dir=$1 dest=$2 p
  cp -r "$src_dir/kokkos" "$dest" || return 1
  for p in "$KOKKOS_PATCH_DIR"/*.patch; do
    patch -s -d "$dest" -p1 <"$p" ||
      { kokkos_source_error "patch $(basename "$p") does not apply to Kokkos 3.4.01"; return 1; }
  done
}

kokkos_patch_text() { cat "$KOKKOS_PATCH_DIR"/*.patch; }
