# shellcheck shell=bash disable=SC2154 # here, out, carry, bin, apsp, b: set by bench/device
# The steps every scenario of bench/device shares, sourced by it (not run on their own).
# Set by the driver and its setup (which a scenario calls once it has set its build variables):
#   here   the top of the tree (the driver runs from there)     out  $OUT, made and absolute
#   carry  $CARRY (default .device-carry), absolute where it exists
#   bin    the folder with this tree's binaries: $BIN, or the build the driver made (build/device/NAME)
#   apsp   $bin/apsp                                            start  the driver's start (date +%s)

# log LINE...: printed and appended to $out/summary.txt.
log() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }

elapsed() { echo $(($(date +%s) - start)); }

# node_info: the machine (GPUs, their clocks and driver, links, cores, Python, MPI) into
# $out/node.txt, and its first lines printed.
node_info() {
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    if command -v nvidia-smi >/dev/null; then
      nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv,noheader 2>&1
    else
      echo "no nvidia-smi"
    fi
    echo "gpus: $(gpu_count); cores: $(getconf _NPROCESSORS_ONLN)"
    echo "python3: $(command -v python3) ($(python3 --version 2>&1))"
    mpirun --version 2>&1 | head -n 1
    nvidia-smi topo -m 2>/dev/null
  } >"$out/node.txt"
  head -n 4 "$out/node.txt"
}

# gpu_count: the GPUs nvidia-smi lists (0 where there is none); GPUS overrides it.
gpu_count() { echo "${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}"; }

# tests_binary: apsp_tests of $bin (a build tree keeps it in tests/).
tests_binary() {
  if [ -x "$bin/apsp_tests" ]; then echo "$bin/apsp_tests"; else echo "$bin/tests/apsp_tests"; fi
}

# run_tests FILTER: apsp_tests --gtest_filter=FILTER (empty: all) into $out/tests.log, logged.
run_tests() {
  local t
  t=$(tests_binary)
  [ -x "$t" ] || {
    log "tests: no apsp_tests in $bin"
    return 1
  }
  timeout "${TESTS_LIMIT:-400}" "$t" ${1:+--gtest_filter="$1"} --gtest_brief=1 >"$out/tests.log" 2>&1
  local rc=$?
  log "apsp_tests ${1:-(all)}: exit $rc ($(grep -E '^\[  (PASSED|FAILED)' "$out/tests.log" | tr '\n' ' '))"
  return $rc
}

# stats_line FILE: the "seconds" object of a --stats record on one line.
stats_line() { tr -d '\n ' <"$1" | sed 's/.*"seconds":\({[^}]*}\).*/\1/'; }

# append_stats FILE JSONL [PREFIX_JSON]: a --stats record as one line of JSONL, wrapped as
# {"variant": ..., "stats": ...} where a prefix (e.g. '"variant": "paths"') is given.
append_stats() {
  if [ -n "${3:-}" ]; then
    printf '{%s, "stats": %s}\n' "$3" "$(tr -d '\n ' <"$1")" >>"$2"
  else
    tr -d '\n ' <"$1" >>"$2" && echo >>"$2"
  fi
}

# negative_copy IN OUT: the HW3 graph IN with its first edge's weight made -1.
negative_copy() {
  cp "$1" "$2"
  printf '\xff\xff\xff\xff' | dd of="$2" bs=1 seek=16 conv=notrunc status=none
}

# same_on_gpu_and_serial NAME ARGS...: the Cuda and Serial runs of $apsp (ARGS: options, the
# input, the output's stem) with --predecessors give the same bytes; one line into $out/check.txt;
# returns 1 where they differ.
same_on_gpu_and_serial() {
  local name=$1 w=${work:-/tmp}
  shift
  if "$apsp" --backend cuda "$@" "$w/$name.cuda" --predecessors "$w/$name.cuda.p" 2>>"$out/check.txt" &&
    "$apsp" --backend serial "$@" "$w/$name.serial" --predecessors "$w/$name.serial.p" 2>>"$out/check.txt" &&
    cmp -s "$w/$name.cuda" "$w/$name.serial" && cmp -s "$w/$name.cuda.p" "$w/$name.serial.p"; then
    echo "same $name" >>"$out/check.txt"
  else
    echo "DIFFERENT $name" >>"$out/check.txt"
    return 1
  fi
}

# shapes_against_serial V...: for each V a random graph (density 0.01, seed V), Serial's output
# against the Cuda backend's with every tile shape, bitwise; prints the number of mismatches and
# appends every comparison to $out/check.txt.
shapes_against_serial() {
  local v k r fails=0 w=${work:-/tmp}
  for v in "$@"; do
    "$apsp" generate --vertices "$v" --density 0.01 --seed "$v" "$w/c$v.in" >/dev/null 2>&1
    "$apsp" --backend serial --algorithm fw "$w/c$v.in" "$w/c$v.cpu" 2>>"$out/check.txt"
    for k in $("$apsp" shapes --backend cuda | cut -d: -f1); do
      "$apsp" --backend cuda --shape "$k" "$w/c$v.in" "$w/c$v.gpu" 2>>"$out/check.txt"
      r=$("$apsp" compare "$w/c$v.cpu" "$w/c$v.gpu" 2>&1)
      echo "V=$v shape=$k: $r" >>"$out/check.txt"
      case "$r" in identical*) ;; *) fails=$((fails + 1)) ;; esac
    done
  done
  echo "$fails"
}

# interleaved_rates A B SIZES RUNS [OPTIONS...]: compute seconds of two apsp binaries on the same
# graphs (SIZES: V:density pairs, seed 7), interleaved, RUNS each; $out/ab.txt gets every run,
# $out/ab-summary.txt (printed) the medians and rates.
interleaved_rates() {
  local a=$1 b=$2 sizes=$3 runs=$4 vp v p which x w=${work:-/tmp}
  shift 4
  for vp in $sizes; do
    v=${vp%%:*} p=${vp##*:}
    "$a" generate --vertices "$v" --density "$p" --seed 7 "$w/ab$v.in" >/dev/null 2>&1
    for _ in $(seq "$runs"); do
      for which in A B; do
        x=$a
        [[ $which == B ]] && x=$b
        "$x" --backend cuda "$@" "$w/ab$v.in" /dev/null --stats "$w/ab.json" &&
          echo "$which $v $(sed -n 's/.*"compute": \([0-9.e+-]*\),.*/\1/p' "$w/ab.json" | head -1)" \
            >>"$out/ab.txt"
      done
    done
  done
  python3 - "$out/ab.txt" <<'PY' | tee "$out/ab-summary.txt"
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w, v, c = line.split()
    runs[(int(v), w)].append(float(c))
for (v, w), cs in sorted(runs.items()):
    m = statistics.median(cs)
    print(f"V={v} {w}: median {m:.5f} s ({v**3 / m / 1e12:.2f} T), min {min(cs):.5f}, n={len(cs)}")
PY
}

# build_old [TARGETS...]: the older tree of an old-against-new scenario, $OLD (a folder, or a
# .tar/.tar.gz of one; default $carry/old.tar.gz), unpacked to /tmp/old-tree and built into
# /tmp/build-old with this scenario's build variables (default target apsp_cli); its log in
# $out/old/build.log. Sets old_apsp.
build_old() {
  local src=${OLD:-$carry/old.tar.gz} tree=/tmp/old-tree
  [ -e "$src" ] || {
    log "no older tree: set OLD (a folder or tarball) or put CARRY/old.tar.gz"
    return 1
  }
  mkdir -p "$out/old"
  # shellcheck source=bench/lib/carried-kokkos.sh
  [ -n "${k:-}" ] || source "$here/bench/lib/carried-kokkos.sh"
  if [ -d "$src" ]; then
    tree=$(cd "$src" && pwd)
  else
    rm -rf $tree && mkdir -p $tree && tar -xf "$src" -C $tree
  fi
  (here=$tree b=/tmp/build-old out=$out/old && build_tree "${@:-apsp_cli}")
  old_apsp=/tmp/build-old/apsp
  [ -x "$old_apsp" ]
}

# with_old: trees=(new), and with OLD set the older tree built (build_old, its lines into
# summary.txt) and `old` added where it built; old_apsp its apsp, else empty.
with_old() {
  trees=(new) old_apsp=''
  [ -n "${OLD:-}" ] || return 0
  build_old apsp_cli | tee -a "$out/summary.txt"
  old_apsp=/tmp/build-old/apsp
  if [ -x "$old_apsp" ]; then trees+=(old); else
    log "the older tree's build failed: $out/old/build.log"
    old_apsp=''
  fi
}

# stage_line FILE LABEL: a --stats file's stages in one line (the supernodal solver's parts, its
# supernodes and threads a row).
stage_line() { python3 - "$@" <<'P'
import json,sys
r=json.load(open(sys.argv[1])); st=r['seconds']; sn=r.get('supernodal',{})
print(sys.argv[2], ' '.join(f'{k} {st.get(k,0):.3f}' for k in ('plan','compute','write','total')),
      '|', ' '.join(f'{k} {sn.get(k,0):.3f}' for k in ('ordering','symbolic','factor','rows')),
      'supernodes', sn.get('supernodes'), 'row_threads', sn.get('row_threads', '-'))
P
}
