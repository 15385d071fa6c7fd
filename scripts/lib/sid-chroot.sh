# shellcheck shell=bash
# A cached Debian sid chroot for build checks; sourced by scripts/check-modern-kokkos and
# scripts/check-hip. Needs root (debootstrap, chroot, mount).
#
# The caller sets SID_TAG (its name, for messages), then:
#   sid_private_mounts SCRIPT ARGS...  re-runs SCRIPT in a private mount namespace where unshare
#                                      allows one, so that mounts vanish with it
#   sid_chroot NAME REBUILD PACKAGES... [-- OPTIONAL_PACKAGES...]
#                                      makes or reuses $SID_DEPS_DIR/NAME and holds its lock;
#                                      sets SID_ROOT and SID_LOGS. A function sid_post_install
#                                      DIR, if the caller defines one, runs after apt-get.
#   in_chroot DIR COMMAND              runs COMMAND (sh) in chroot DIR, /proc mounted, clean env
#   sid_bind DIR [ro]                  bind-mounts DIR at the same path inside $SID_ROOT, so that
#                                      paths (and compiler messages) read the same in and out
#   sid_compiler_cache BASEDIR         when the caller compiles through ccache (scripts/test sets
#                                      CMAKE_CXX_COMPILER_LAUNCHER=ccache) and the root has it,
#                                      sets SID_CCACHE_ENV to the environment (VAR=value ...) under
#                                      which the root's ccache caches compiles in $SID_ROOT.ccache
#                                      (outside the root, so that a new root keeps it; bind-mounted
#                                      at the same path); BASEDIR: the source tree's path in the
#                                      root. Else sets it empty.
#   sid_say, sid_fail (exit 1), sid_usage_error (exit 2), sid_env_error (exit 3)
#
# The cache lives outside the clone, in $APSP_DEPS_DIR (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/apsp-deps). A chroot is reused while its stamp (the package
# lists and the text of the functions that made it) matches, so later runs skip debootstrap and
# apt-get. sid moves: a failure to make the chroot is "environment unavailable" (exit 3), never
# a failure of apsp.

SID_TAG=${SID_TAG:-sid-chroot}
SID_DEPS_DIR=${APSP_DEPS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/apsp-deps}
SID_APT_OPTS="-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -q"

sid_say() { printf '[%s] %s\n' "$SID_TAG" "$*"; }
sid_fail() { printf '[%s] FAILED: %s\n' "$SID_TAG" "$*" >&2; exit 1; }
sid_usage_error() { printf '[%s] error: %s\n' "$SID_TAG" "$*" >&2; exit 2; }
sid_env_error() {
  printf '[%s] ENVIRONMENT: %s\n' "$SID_TAG" "$*" >&2
  printf '[%s] (not a failure of apsp: the Debian sid environment could not be made)\n' "$SID_TAG" >&2
  exit 3
}

sid_private_mounts() {
  [ "$(id -u)" = 0 ] || sid_usage_error "needs root (debootstrap, chroot, mount)"
  if [ -z "${APSP_SID_PRIVATE_NS:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
    APSP_SID_PRIVATE_NS=1 exec unshare --mount --propagation private "$@"
  fi
}

SID_MOUNTS=()
sid_unmount_all() {
  local i
  for ((i = ${#SID_MOUNTS[@]} - 1; i >= 0; i--)); do
    umount "${SID_MOUNTS[i]}" 2>/dev/null || umount -l "${SID_MOUNTS[i]}" 2>/dev/null || true
  done
  SID_MOUNTS=()
}
trap sid_unmount_all EXIT
trap 'exit 130' INT TERM

# /proc in chroot DIR (hipcc needs it). Mount it from the main shell, not from a $(...)
# subshell, so that sid_unmount_all knows of it.
sid_mount_proc() {
  if ! mountpoint -q "$1/proc"; then
    mount -t proc proc "$1/proc"
    SID_MOUNTS+=("$1/proc")
  fi
}

# Runs a command in a root, with a clean environment. OpenMP threads wait passively: the tests run
# in pairs on machines of few cores, where spinning threads take the core the other test needs.
in_chroot() {
  local dir=$1
  shift
  sid_mount_proc "$dir"
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive OMP_PROC_BIND=false OMP_WAIT_POLICY=passive \
    ${OMP_NUM_THREADS:+OMP_NUM_THREADS=$OMP_NUM_THREADS} /bin/sh -c "$*"
}

sid_bind() {
  local dir=$1 mode=${2:-rw}
  mkdir -p "$SID_ROOT$dir"
  mountpoint -q "$SID_ROOT$dir" && return 0
  mount --bind "$dir" "$SID_ROOT$dir" || return 1
  SID_MOUNTS+=("$SID_ROOT$dir")
  if [ "$mode" = ro ]; then
    mount -o remount,bind,ro "$SID_ROOT$dir" 2>/dev/null || sid_say "note: could not make $dir read-only"
  fi
}

SID_CCACHE_ENV=
sid_compiler_cache() {
  local basedir=$1 dir=$SID_ROOT.ccache
  SID_CCACHE_ENV=
  [ "${CMAKE_CXX_COMPILER_LAUNCHER:-}" = ccache ] || return 0
  in_chroot "$SID_ROOT" "command -v ccache" >/dev/null 2>&1 || return 0
  mkdir -p "$dir" && sid_bind "$dir" || return 0
  SID_CCACHE_ENV="CCACHE_DIR=$dir CCACHE_BASEDIR=$basedir CCACHE_NOHASHDIR=1"
  SID_CCACHE_ENV+=" CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G} CMAKE_CXX_COMPILER_LAUNCHER=ccache"
}

# What the root's ccache did since the zero-stats in SID_CCACHE_ENV's cache ("N from the cache, M
# compiled"); nothing without one.
sid_compiler_cache_stats() {
  [ -n "$SID_CCACHE_ENV" ] || return 0
  in_chroot "$SID_ROOT" "$SID_CCACHE_ENV ccache --print-stats" 2>/dev/null | awk -F'\t' '
    $1 ~ /^(direct_cache_hit|preprocessed_cache_hit)$/ { h += $2 }
    $1 == "cache_miss" { m = $2 }
    END { printf "%d from the cache, %d compiled", h, m }'
}

# The machine's own Debian mirror: the URIs of the deb822 entry whose Suites name bookworm, else
# the first 'deb' line of a one-line sources file.
sid_mirror() {
  local mirror
  mirror=$(awk '
    function flush() {
      if (suites ~ /(^| )bookworm( |$)/ && uris != "" && !done) { print uris; done = 1 }
      uris = ""; suites = ""
    }
    FNR == 1 || /^[ \t]*$/ { flush() }
    /^URIs:/ { uris = $2 }
    /^Suites:/ { suites = $0; sub(/^Suites:[ \t]*/, "", suites) }
    END { flush() }
  ' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$mirror" ] || mirror=$(awk '
    $1 == "deb" && / bookworm / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }
  ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -1)
  [ -n "$mirror" ] ||
    sid_env_error "no bookworm entry in /etc/apt/sources* to take this machine's Debian mirror from"
  echo "$mirror"
}

# debootstrap + apt-get into $1 (a fresh directory); packages in SID_PACKAGES, SID_OPTIONAL.
sid_make_chroot() {
  local new=$1 mirror start p
  command -v debootstrap >/dev/null || {
    sid_say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap \
      >"$SID_LOGS/debootstrap-install.log" 2>&1 ||
      sid_env_error "could not install debootstrap (log: $SID_LOGS/debootstrap-install.log)"
  }
  mirror=$(sid_mirror)
  sid_say "debootstrap --variant=minbase sid (mirror from this machine's apt sources) into $new"
  start=$SECONDS
  debootstrap --variant=minbase sid "$new" "$mirror" >"$SID_LOGS/debootstrap.log" 2>&1 || {
    tail -5 "$SID_LOGS/debootstrap.log" >&2
    sid_env_error "debootstrap of Debian sid failed: archive unreachable? (log: $SID_LOGS/debootstrap.log)"
  }
  sid_say "debootstrap done in $((SECONDS - start)) s"

  in_chroot "$new" "apt-get $SID_APT_OPTS update" >"$SID_LOGS/apt.log" 2>&1 || {
    tail -5 "$SID_LOGS/apt.log" >&2
    sid_env_error "apt-get update in the sid chroot failed: archive unreachable? (log: $SID_LOGS/apt.log)"
  }
  local missing=() wanted=()
  for p in "${SID_PACKAGES[@]}"; do
    sid_installable "$new" "$p" || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] || sid_env_error "Debian sid has no installable package: ${missing[*]}"
  wanted=("${SID_PACKAGES[@]}")
  for p in "${SID_OPTIONAL[@]}"; do
    if sid_installable "$new" "$p"; then
      wanted+=("$p")
    else
      sid_say "optional package $p is not in sid: going on without it"
    fi
  done
  sid_say "apt-get install ${wanted[*]}"
  start=$SECONDS
  in_chroot "$new" "apt-get $SID_APT_OPTS install -y ${wanted[*]}" >>"$SID_LOGS/apt.log" 2>&1 || {
    tail -15 "$SID_LOGS/apt.log" >&2
    sid_env_error "apt-get install failed in the sid chroot (sid mid-transition?) (log: $SID_LOGS/apt.log)"
  }
  sid_say "packages installed in $((SECONDS - start)) s"
  if declare -F sid_post_install >/dev/null; then sid_post_install "$new"; fi
  in_chroot "$new" "apt-get clean"
}

sid_installable() {
  local candidate
  candidate=$(in_chroot "$1" "apt-cache policy $2" 2>/dev/null | sed -n 's/^ *Candidate: //p')
  [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

sid_chroot() {
  local name=$1 rebuild=$2 recipe stamp new
  shift 2
  SID_PACKAGES=()
  SID_OPTIONAL=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do SID_PACKAGES+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  SID_OPTIONAL=("$@")

  mkdir -p "$SID_DEPS_DIR"
  SID_DEPS_DIR=$(cd "$SID_DEPS_DIR" && pwd)
  SID_ROOT=$SID_DEPS_DIR/$name
  SID_LOGS=$SID_DEPS_DIR/$name.logs
  mkdir -p "$SID_LOGS"
  exec 9>"$SID_DEPS_DIR/$name.lock"
  flock -n 9 || { sid_say "waiting for another run that holds $SID_DEPS_DIR/$name.lock"; flock 9; }

  recipe=$({ declare -f sid_make_chroot sid_installable sid_post_install || true; } | sha256sum)
  stamp="packages: ${SID_PACKAGES[*]}
optional: ${SID_OPTIONAL[*]}
recipe: ${recipe:0:16}"
  if [ "$rebuild" = 0 ] && [ -f "$SID_ROOT/.apsp-stamp" ] &&
    [ "$(cat "$SID_ROOT/.apsp-stamp")" = "$stamp" ]; then
    sid_say "reusing the cached sid chroot $SID_ROOT"
    sid_mount_proc "$SID_ROOT"
    return 0
  fi
  new=$SID_ROOT.new
  [ -z "$(findmnt -rn -o TARGET | grep -F "$SID_ROOT" || true)" ] ||
    sid_env_error "something is still mounted under $SID_ROOT (or $new): unmount it first"
  rm -rf --one-file-system "$new"
  sid_make_chroot "$new"
  sid_unmount_all
  printf '%s\n' "$stamp" >"$new/.apsp-stamp"
  [ ! -e "$SID_ROOT" ] || rm -rf --one-file-system "$SID_ROOT"
  mv "$new" "$SID_ROOT"
  sid_say "sid chroot ready: $SID_ROOT"
  sid_mount_proc "$SID_ROOT"
}

# Debian sid's HIP toolchain (hipcc pulls in clang, lld, the ROCm device libraries and the HIP
# runtime) plus what building apsp needs, and ccache where sid has it; shared by scripts/check-hip
# and `scripts/check-modern-kokkos --hip-probe`, which use the same chroot.
# shellcheck disable=SC2034 # used by the scripts that source this file
SID_HIP_NAME=sid-hip
# shellcheck disable=SC2034
SID_HIP_PACKAGES=(hipcc libamdhip64-dev cmake ninja-build googletest libgtest-dev libgmock-dev
  libopenmpi-dev openmpi-bin -- ccache)
