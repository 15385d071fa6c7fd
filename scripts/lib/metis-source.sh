# shellcheck shell=bash
# METIS 5.1.0 as a static, position-independent library, built from Debian's metis source package
# (bookworm: 5.1.0.dfsg-7; the binary libmetis-dev ships only a shared libmetis.so, which a GPU
# binary carried to a node would need there too). Sourced by scripts/bootstrap-deps after
# scripts/lib/kokkos-source.sh (for debian_source_apt).
#
#   metis_build DEPS_DIR JOBS   makes DEPS_DIR/install/metis-<key>/{include/metis.h,lib/libmetis.a}
#                               unless it is there; DEPS_DIR/metis links to it (CMake looks
#                               there); prints the link
#
# The key hashes what built it: this recipe, the source package's version and the C compiler.
# Upstream's own CMake build is used as it is (its default is a static library; GKlib's flags
# are -O3 -fPIC, no -march: the library travels with GPU binaries). idx_t stays 32-bit, as in
# Debian's build.

metis_source_error() { printf '[metis-source] error: %s\n' "$*" >&2; }

metis_build() {
  local deps_dir=$1 jobs=$2 apt_dir dsc version key prefix work tarball top
  apt_dir=$deps_dir/apt-metis
  if [ -d "$deps_dir/metis" ] && [ -f "$deps_dir/metis/.complete" ] &&
    [ "$(cat "$deps_dir/metis/.key")" = "$(metis_key "$(cat "$deps_dir/metis/.version")")" ]; then
    echo "$deps_dir/metis"
    return 0
  fi
  printf "[metis-source] fetching Debian's metis source package\n" >&2
  work=$deps_dir/build/metis
  rm -rf "$work" && mkdir -p "$work"
  debian_source_apt "$apt_dir" || return 1
  (cd "$apt_dir/dl" && APT_CONFIG=$apt_dir/apt.conf apt-get source --download-only -qq metis >&2) ||
    { metis_source_error "apt-get source metis failed: is the Debian archive reachable?"; return 1; }
  dsc=$(ls "$apt_dir"/dl/metis_*.dsc 2>/dev/null | head -1)
  tarball=$(ls "$apt_dir"/dl/metis_*.orig.tar.* 2>/dev/null | head -1)
  if [ -z "$dsc" ] || [ -z "$tarball" ]; then
    metis_source_error "apt-get source gave no metis .dsc or tarball"
    return 1
  fi
  version=$(sed -n 's/^Version: //p' "$dsc")
  key=$(metis_key "$version")
  prefix=$deps_dir/install/metis-$key
  if [ ! -f "$prefix/.complete" ]; then
    top=$(tar -tf "$tarball" | awk -F/ 'NR == 1 { print $1 }')
    tar -xf "$tarball" -C "$work" || { metis_source_error "extracting $tarball failed"; return 1; }
    grep -q 'IDXTYPEWIDTH 32' "$work/$top/include/metis.h" ||
      { metis_source_error "metis.h of $version does not define a 32-bit idx_t"; return 1; }
    printf '[metis-source] building METIS %s (static, PIC) into %s\n' "$version" "$prefix" >&2
    cmake -S "$work/$top" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
      -DGKLIB_PATH="$work/$top/GKlib" -DSHARED=OFF >"$work/configure.log" 2>&1 ||
      { metis_source_error "configuring METIS failed: see $work/configure.log"; return 1; }
    cmake --build "$work/build" --target metis -j "$jobs" >"$work/build.log" 2>&1 ||
      { metis_source_error "building METIS failed: see $work/build.log"; return 1; }
    rm -rf "$prefix" && mkdir -p "$prefix/include" "$prefix/lib"
    cp "$work/$top/include/metis.h" "$prefix/include/" &&
      cp "$work/build/libmetis/libmetis.a" "$prefix/lib/" || return 1
    echo "$version" >"$prefix/.version"
    echo "$key" >"$prefix/.key"
    touch "$prefix/.complete"
  fi
  rm -rf "$work" "$apt_dir/dl"
  ln -sfn "$prefix" "$deps_dir/metis"
  for old in "$deps_dir"/install/metis-*; do
    [ "$old" = "$prefix" ] || rm -rf "$old"
  done
  echo "$deps_dir/metis"
}

# What built a prefix: the recipe above (bump recipe_version when it changes), the source
# package's version, the C compiler.
metis_key() {
  echo "metis-recipe-1 $1 $(cc --version | head -1)" | sha256sum | cut -c1-12
}
