#!/usr/bin/env bash
# safety.sh APSP WORKDIR CASE
# No input or output is ever lost, whatever the user types or the system does (issue 13,
# docs/TRUST.md "Nothing lost"): each CASE is one class of mistake or system event. A refusal is
# exit code 2, exactly one "apsp: " line on stderr naming the problem, nothing on stdout; in
# every case the input is unchanged and no temporary (*.apsp-tmp.*) is left anywhere in WORKDIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

apsp=$1 work=$2 case=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
hw3 g.bin 5 4 0 1 7 1 2 3 3 4 1000 0 2 20 # a valid input
"$apsp" g.bin expected.out
cp g.bin g.copy

# refused MESSAGE ARGS...: apsp ARGS exits 2 with one "apsp: " line containing MESSAGE.
refused() {
  local message=$1 rc=0
  shift
  "$apsp" "$@" >stdout.txt 2>stderr.txt || rc=$?
  [[ $rc == 2 ]] || fail "exit code $rc, expected 2 (stderr: $(cat stderr.txt))"
  [[ ! -s stdout.txt ]] || fail "stdout not empty: $(cat stdout.txt)"
  expect_one_apsp_line stderr.txt
  grep -qF -- "$message" stderr.txt || fail "the error does not say '$message': $(cat stderr.txt)"
  echo "OK: refused: $(cat stderr.txt)"
}
# succeeds ARGS...: apsp ARGS exits 0.
succeeds() {
  "$apsp" "$@" >stdout.txt 2>stderr.txt || fail "exit code $?: $(cat stderr.txt)"
}
# Whatever the case did: the input as it was, no temporary anywhere.
finally() {
  cmp -s g.bin g.copy || fail "the input g.bin was changed"
  local left
  left=$(find . -name '*.apsp-tmp.*')
  [[ -z "$left" ]] || fail "temporaries left behind: $left"
}
trap 'finally' EXIT

# in_small_fs KIB SCRIPT: SCRIPT (bash, with $apsp set) in a private mount namespace where small/
# is a new tmpfs of KIB KiB, gone with the namespace: its outputs are checked inside. As root, or
# in a user namespace where the system allows; else the case is skipped (it says so).
mkdir -p small
in_small_fs() {
  local how
  for how in "--mount --propagation private" "--user --map-root-user --mount"; do
    # shellcheck disable=SC2086 # the options are words
    if unshare $how true 2>/dev/null; then
      # shellcheck disable=SC2086
      apsp=$apsp unshare $how bash -c "set -euo pipefail; mount -t tmpfs -o size=$1k tmpfs small; $2"
      return
    fi
  done
  echo "SKIP: no private mount namespace here (unshare) for a small file system"
  exit 0
}

case $case in
  # Two names of one file, however spelled: refused before any work, nothing overwritten.
  same_file_in_out)
    refused "IN 'g.bin' and OUT 'g.bin' are the same file" g.bin g.bin ;;
  same_file_dot)
    refused "IN 'g.bin' and OUT './g.bin' are the same file" g.bin ./g.bin
    mkdir sub
    refused "are the same file" ./g.bin "$work/sub/../g.bin" ;;
  same_file_symlink)
    ln -s g.bin link.bin
    refused "IN 'g.bin' and OUT 'link.bin' are the same file" g.bin link.bin
    refused "IN 'link.bin' and OUT 'g.bin' are the same file" link.bin g.bin
    [[ -L link.bin ]] || fail "the link was replaced" ;;
  same_file_hard_link)
    ln g.bin hard.bin
    refused "are the same file" g.bin hard.bin ;;
  same_file_predecessors)
    cp expected.out o.bin
    refused "OUT 'o.bin' and --predecessors './o.bin' are the same file" g.bin o.bin \
      --predecessors ./o.bin
    cmp -s o.bin expected.out || fail "OUT was changed"
    refused "IN 'g.bin' and --predecessors 'g.bin' are the same file" g.bin p.bin \
      --predecessors g.bin
    [[ ! -e p.bin ]] || fail "p.bin appeared" ;;
  same_file_stats)
    refused "IN 'g.bin' and --stats 'g.bin' are the same file" g.bin o.bin --stats g.bin
    cp expected.out o.bin
    refused "OUT 'o.bin' and --stats 'o.bin' are the same file" g.bin o.bin --stats o.bin
    cmp -s o.bin expected.out || fail "OUT was changed"
    # Two names of /dev/null are not one file: nothing is lost there.
    succeeds g.bin /dev/null --stats /dev/null ;;
  # The outputs of a run are one transaction.
  stats_unwritable)
    refused "nodir/s.json" g.bin o.bin --stats nodir/s.json
    [[ ! -e o.bin ]] || fail "OUT appeared although --stats could not be written"
    printf 'earlier' >o.bin
    refused "nodir/s.json" g.bin o.bin --stats nodir/s.json
    [[ "$(cat o.bin)" == earlier ]] || fail "OUT was replaced although the run failed" ;;
  predecessors_unwritable)
    refused "nodir" g.bin o.bin --predecessors nodir/p.bin --stats s.json
    [[ ! -e o.bin && ! -e s.json ]] || fail "an output appeared although the run failed" ;;
  write_error_commits_nothing)
    # /dev/full fails every write (ENOSPC): neither the stats nor anything else may appear.
    refused "/dev/full" g.bin /dev/full --stats s.json
    [[ ! -e s.json ]] || fail "the stats of a failed run appeared" ;;
  file_size_limit)
    # A write beyond `ulimit -f` (SIGXFSZ, then EFBIG) is a write error like any other. 8 MiB:
    # an MPI build starts a singleton MPI whose own files need room; OUT needs 16 MB.
    "$apsp" generate --vertices 2000 --density 0.001 big.bin 2>/dev/null
    cp big.bin big.copy
    rc=0
    (ulimit -f 8192 && "$apsp" big.bin o.bin --stats s.json >stdout.txt 2>stderr.txt) || rc=$?
    [[ $rc == 2 ]] || fail "exit code $rc, expected 2 (stderr: $(cat stderr.txt))"
    expect_one_apsp_line stderr.txt
    grep -qF "File too large" stderr.txt || fail "not a write error: $(cat stderr.txt)"
    [[ ! -e o.bin && ! -e s.json ]] || fail "an output appeared although the run failed" ;;
  write_error_behind)
    # The rows are written behind their producer (a writer thread): its write error (EFBIG past
    # `ulimit -f`, 8 MiB of a 100 MB OUT) stops the producer of the next rows and is reported
    # like a synchronous one: one line, exit 2, no output, in the time of a few row blocks.
    "$apsp" generate --class road --vertices 5000 --seed 3 road.bin 2>/dev/null
    rc=0
    (ulimit -f 8192 && timeout 60 "$apsp" --algorithm supernodal road.bin o.bin --stats s.json \
      >stdout.txt 2>stderr.txt) || rc=$?
    [[ $rc == 2 ]] || fail "exit code $rc, expected 2 (stderr: $(cat stderr.txt))"
    expect_one_apsp_line stderr.txt
    grep -qF "cannot write output 'o.bin': File too large" stderr.txt ||
      fail "not the write error: $(cat stderr.txt)"
    [[ ! -e o.bin && ! -e s.json ]] || fail "an output appeared although the run failed" ;;
  all_outputs_committed)
    succeeds g.bin o.bin --predecessors p.bin --stats s.json
    cmp -s o.bin expected.out || fail "wrong distances"
    [[ -s p.bin && -s s.json ]] || fail "predecessors or stats missing"
    grep -q '"vertices": 5' s.json || fail "stats: $(cat s.json)" ;;
  # Modes and links.
  umask_new_file)
    (umask 077 && "$apsp" g.bin o.bin --stats s.json --predecessors p.bin)
    for f in o.bin s.json p.bin; do
      [[ $(stat -c %a $f) == 600 ]] || fail "$f has mode $(stat -c %a $f) under umask 077"
    done
    (umask 022 && "$apsp" g.bin o2.bin)
    [[ $(stat -c %a o2.bin) == 644 ]] || fail "mode $(stat -c %a o2.bin) under umask 022" ;;
  mode_kept)
    printf 'earlier' >o.bin
    chmod 640 o.bin
    succeeds g.bin o.bin
    [[ $(stat -c %a o.bin) == 640 ]] || fail "the replaced file's mode 640 became $(stat -c %a o.bin)"
    cmp -s o.bin expected.out || fail "wrong distances" ;;
  symlink_out)
    mkdir results
    printf 'earlier' >results/o.bin
    ln -s results/o.bin link.out
    succeeds g.bin link.out
    [[ -L link.out ]] || fail "the symbolic link was replaced by a file"
    cmp -s results/o.bin expected.out || fail "the link's target does not hold the result"
    ln -s results/new.bin dangling.out
    succeeds g.bin dangling.out
    [[ -L dangling.out ]] && cmp -s results/new.bin expected.out ||
      fail "a dangling link's target was not written" ;;
  long_name)
    name=$(printf 'x%.0s' {1..249})
    succeeds g.bin "$name"
    cmp -s "$name" expected.out || fail "wrong distances" ;;
  # Streams: the input read once, with and without the progress line.
  stdin_pipe)
    cat g.bin | "$apsp" /dev/stdin o.bin 2>stderr.txt || fail "$(cat stderr.txt)"
    cmp -s o.bin expected.out || fail "wrong distances from a pipe"
    cat g.bin | "$apsp" /dev/stdin o2.bin --progress 2>stderr.txt || fail "$(cat stderr.txt)"
    cmp -s o2.bin expected.out || fail "wrong distances from a pipe with --progress"
    "$apsp" /dev/stdin o3.bin --progress <g.bin 2>stderr.txt || fail "$(cat stderr.txt)"
    cmp -s o3.bin expected.out || fail "wrong distances from a redirected file" ;;
  fifo)
    mkfifo in.fifo
    for progress in "" --progress; do
      cat g.bin >in.fifo &
      timeout 60 "$apsp" in.fifo o.bin $progress 2>stderr.txt || fail "rc $?: $(cat stderr.txt)"
      wait
      cmp -s o.bin expected.out || fail "wrong distances from a FIFO ($progress)"
      rm o.bin
    done ;;
  huge_edge_count_pipe)
    # A header announcing E = 2*10^9 (24 GB of edges) on a pipe: refused as truncated, with
    # memory growing only as edges arrive. The limit, 4 GB of address space above what apsp
    # holds once started, fails any allocation from the header: "started" is measured, since a
    # GPU runtime reserves address space for the device at its start, and apsp opens IN only
    # after that (AddressSanitizer reserves terabytes, so no limit under it).
    hw3 huge.bin 5 2000000000 0 1 2
    limit=unlimited
    if [[ -z ${ASAN_OPTIONS:-} ]]; then
      # apsp on a FIFO that this shell holds open for writing: it opens IN and waits to read;
      # its peak address space then is what it took to start.
      mkfifo started.fifo
      exec 3<>started.fifo
      "$apsp" started.fifo started.out 3>&- 2>/dev/null &
      pid=$! started=""
      for ((tries = 0; tries < 1200; tries++)); do
        # apsp's arguments, not those of the shell about to start it, which still holds this
        # shell's descriptors, the FIFO among them
        if [[ $(tr '\0' ' ' </proc/$pid/cmdline 2>/dev/null) == *" started.out "* &&
          -n $(find /proc/$pid/fd -lname '*/started.fifo' 2>/dev/null) ]]; then
          started=$(awk '$1 == "VmPeak:" { print $2 }' /proc/$pid/status)  # KiB
          break
        fi
        kill -0 $pid 2>/dev/null || break
        sleep 0.05
      done
      [[ -n $started ]] || kill $pid 2>/dev/null || true  # else it may wait for a writer forever
      exec 3>&-  # apsp reads the end of its input and stops
      wait $pid || true
      [[ -n $started ]] || fail "apsp did not start and open a FIFO input"
      limit=$((started + 4000000))
    fi
    rc=0
    (ulimit -v $limit && cat huge.bin | "$apsp" /dev/stdin o.bin 2>stderr.txt) || rc=$?
    [[ $rc == 2 ]] || fail "exit code $rc: $(cat stderr.txt)"
    expect_one_apsp_line stderr.txt
    grep -qF "truncated edge list" stderr.txt || fail "$(cat stderr.txt)"
    [[ ! -e o.bin ]] || fail "OUT appeared" ;;
  read_error)
    # Reading /proc/self/mem at offset 0 fails (EIO): an I/O error, not a "truncated header".
    refused "cannot read the header of '/proc/self/mem'" /proc/self/mem o.bin ;;
  # Options checked before anything starts.
  kokkos_threads)
    refused "--kokkos-threads expects an integer in [1," g.bin o.bin --kokkos-threads=0
    refused "--kokkos-threads expects an integer in [1," g.bin o.bin --kokkos-threads=4096
    refused "--kokkos-threads expects an integer in [1," g.bin o.bin --kokkos-threads=abc
    refused "--kokkos-num-threads expects an integer in [1," g.bin o.bin --kokkos-num-threads=0
    refused "--kokkos-threads needs a value" g.bin o.bin --kokkos-threads
    refused "--kokkos-device-id expects an integer" g.bin o.bin --kokkos-device-id=abc
    [[ ! -e o.bin ]] || fail "OUT appeared"
    succeeds g.bin o.bin --kokkos-threads=1
    cmp -s o.bin expected.out || fail "wrong distances with one thread" ;;
  kokkos_start_failure)
    # Kokkos refusing to start, as a GPU that cannot start does (a CUDA runtime under
    # `ulimit -v`): one apsp line naming it, not Kokkos' own lines (its error with the source
    # file that saw it, then "Traceback functionality not available"). Kokkos 3 refuses
    # --kokkos-threads and KOKKOS_NUM_THREADS that differ with an exception, which apsp words;
    # Kokkos 4 and later do not refuse them so (skipped there).
    kokkos=$("$apsp" --version | sed -n 's/^.*, Kokkos \([0-9]*\)\..*$/\1/p')
    ((kokkos < 4)) || { echo "SKIP: Kokkos $kokkos does not refuse with an exception"; exit 0; }
    (($(nproc) > 1)) || { echo "SKIP: one hardware thread, no two thread counts to differ"; exit 0; }
    KOKKOS_NUM_THREADS=2 refused "Kokkos could not start the " g.bin o.bin --kokkos-threads=1
    # Under an address-space limit, the line names it (AddressSanitizer cannot start under one).
    if [[ -z ${ASAN_OPTIONS:-} ]]; then
      (ulimit -v 8000000 &&
        KOKKOS_NUM_THREADS=2 refused "(the address space is limited to 7.63 GiB: ulimit -v)" \
          g.bin o.bin --kokkos-threads=1)
    fi
    [[ ! -e o.bin ]] || fail "OUT appeared" ;;
  kokkos_environment)
    KOKKOS_NUM_THREADS=0 refused "KOKKOS_NUM_THREADS expects an integer in [1," g.bin o.bin
    OMP_NUM_THREADS=100000 refused "OMP_NUM_THREADS expects an integer in [1," g.bin o.bin
    OMP_NUM_THREADS=1,100000 refused "OMP_NUM_THREADS expects an integer in [1," g.bin o.bin
    [[ ! -e o.bin ]] || fail "OUT appeared" ;;
  size_overflow)
    refused "--max-memory expects a size" g.bin o.bin --max-memory 17592186044417M
    refused "--max-memory expects a size" g.bin o.bin --max-memory 18446744073709551616
    refused "--max-memory expects a size" g.bin o.bin --max-memory 0
    refused "--max-memory expects a size" g.bin o.bin --max-memory -1G
    refused "--max-memory expects a size" g.bin o.bin --max-memory 16777216T
    refused "V = 5 needs" g.bin o.bin --max-memory 1K ;;
  help_anywhere)
    succeeds g.bin o.bin --help
    grep -q "^usage:" stdout.txt || fail "no usage on stdout"
    [[ ! -s stderr.txt ]] || fail "stderr: $(cat stderr.txt)"
    [[ ! -e o.bin ]] || fail "OUT appeared" ;;
  empty_names)
    refused "OUT is an empty file name" g.bin ''
    refused "IN is an empty file name" '' o.bin
    refused "--predecessors is an empty file name" g.bin o.bin --predecessors ''
    refused "--stats is an empty file name" g.bin o.bin --stats ''
    refused "OUT is an empty file name" generate --vertices 5 --density 0.5 ''
    refused "--predecessors is an empty file name" path g.bin 0 1 --predecessors '' ;;
  tile_checked_for_every_algorithm)
    # A sparse graph for which auto may choose Dijkstra: --tile and --shape still checked.
    refused "tile size 48 is not available" g.bin o.bin --tile 48
    refused "shape 63 is not available" g.bin o.bin --shape 63 ;;
  generate_density_zero)
    timeout 20 "$apsp" generate --vertices 2147483647 --density 0 empty.bin 2>/dev/null ||
      fail "generate --density 0 took too long or failed"
    [[ $(stat -c %s empty.bin) == 8 ]] || fail "expected the 8-byte header only" ;;
  # apsp path never prints a path that is not a shortest one.
  path_stale)
    succeeds g.bin o.bin --predecessors p.bin
    succeeds path g.bin 0 2 --predecessors p.bin
    grep -q "length 10" stdout.txt || fail "$(cat stdout.txt)"
    hw3 shortcut.bin 5 5 0 1 7 1 2 3 3 4 1000 0 2 20 0 2 4 # a new edge: 0 -> 2 is 4 now
    refused "give a path 0 -> 2 of length 10, but the shortest has length 4" \
      path shortcut.bin 0 2 --predecessors p.bin
    grep -qF "'p.bin'" stderr.txt || fail "the stale file is not named"
    hw3 reach.bin 5 5 0 1 7 1 2 3 3 4 1000 0 2 20 2 3 1 # 3 reachable from 0 now
    refused "say that 0 -> 3 has no path, but one of length 11 exists" \
      path reach.bin 0 3 --predecessors p.bin ;;
  mtx_real_weights)
    # Read as the nearest double: 1e-400 is 0 and 5.0000000000000001 is 5, whole numbers both,
    # so the distances stay int32 (auto) and HW3 takes them; 2.5 makes them float64.
    printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e-400\n2 3 5.0000000000000001\n' >near.mtx
    succeeds near.mtx o.bin --output-format text
    [[ "$(sed -n 1p o.bin)" == "0 0 5" ]] || fail "near-integers read wrong: $(cat o.bin)"
    printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 5.000e0\n2 3 0.15E2\n' >ok.mtx
    succeeds ok.mtx o.bin --output-format text
    [[ "$(sed -n 1p o.bin)" == "0 5 20" ]] || fail "exact reals read wrong: $(cat o.bin)"
    printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 2.5\n2 3 0.1\n' >real.mtx
    refused "HW3 output holds int32 only: use --output-format npy|text" real.mtx o.bin
    succeeds real.mtx o.txt --output-format text
    [[ "$(sed -n 1p o.txt)" == "0 2.5 2.6" ]] || fail "float64 text: $(cat o.txt)" ;;
  names_tell_formats)
    # Each output's format comes from its own name: p.npy beside an HW3 OUT is an .npy file
    # (it held raw int32 that numpy.load refused), .NPY is .npy, and P named otherwise beside
    # an .npy OUT is HW3.
    succeeds g.bin o.bin --predecessors p.npy
    cmp -s o.bin expected.out || fail "OUT is not HW3"
    [[ "$(head -c 6 p.npy | tail -c 5)" == "NUMPY" ]] || fail "p.npy is not an .npy file"
    succeeds g.bin o.NPY --predecessors p.bin
    [[ "$(head -c 6 o.NPY | tail -c 5)" == "NUMPY" ]] || fail "o.NPY is not an .npy file"
    [[ $(stat -c %s p.bin) == $((5 * 5 * 4)) ]] || fail "p.bin is not HW3: $(stat -c %s p.bin) bytes"
    "$apsp" compare o.bin o.NPY >/dev/null || fail "o.NPY differs from o.bin"
    succeeds g.bin o.bin --output-format npy --predecessors p2.bin
    [[ "$(head -c 6 p2.bin | tail -c 5)" == "NUMPY" ]] || fail "--output-format npy: P not .npy"
    [[ "$("$apsp" path g.bin 0 4 --predecessors p.npy)" == "$("$apsp" path g.bin 0 4 --predecessors p.bin)" ]] ||
      fail "path reads p.npy and p.bin differently" ;;
  read_only_out)
    # An OUT the user may not write is refused before any work, and the message says why (it
    # once blamed a file system that ranks do not share); root may write it, so replaces it and
    # keeps its mode. The unprivileged case runs as nobody where the test runs as root.
    cp expected.out ro.out && chmod 444 ro.out
    if [[ $(id -u) == 0 ]]; then
      succeeds g.bin ro.out
      [[ $(stat -c %a ro.out) == 444 ]] || fail "mode not kept: $(stat -c %a ro.out)"
      command -v setpriv >/dev/null || { echo "SKIP: no setpriv for the unprivileged case"; exit 0; }
      dir=$(mktemp -d) && chmod 777 "$dir"
      trap 'rm -rf "$dir"; finally' EXIT
      cp g.bin "$dir/g.bin" && chmod 644 "$dir/g.bin"
      cp expected.out "$dir/ro.out" && chown 65534:65534 "$dir/ro.out" && chmod 444 "$dir/ro.out"
      rc=0
      XDG_CACHE_HOME=$dir setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$apsp" "$dir/g.bin" "$dir/ro.out" >stdout.txt 2>stderr.txt || rc=$?
      [[ $rc == 2 ]] || fail "a read-only OUT as nobody: exit code $rc: $(cat stderr.txt)"
      expect_one_apsp_line stderr.txt
      grep -q "you may not write it (mode 0444)" stderr.txt || fail "not why: $(cat stderr.txt)"
      cmp -s "$dir/ro.out" expected.out || fail "the read-only OUT was changed"
      [[ -z "$(find "$dir" -name '*.apsp-tmp.*')" ]] || fail "a temporary was left"
    else
      refused "you may not write it (mode 0444)" g.bin ro.out
    fi ;;
  words)
    # What the messages say (issue 26, item 15).
    [[ "$("$apsp" path g.bin 0 1)" == $'0 -> 1: length 7, 1 edge\n0 1' ]] ||
      fail "one edge: $("$apsp" path g.bin 0 1)"
    refused "--dtype is given twice ('int32' and 'float64')" g.bin o.bin --dtype int32 --dtype float64
    refused "--output-format is given twice" g.bin o.bin --output-format hw3 --output-format=npy
    refused "shapes --dtype names a type" shapes --dtype auto
    hw3 cycle.bin 2 2 0 1 -1 1 0 0
    refused "negative cycle through vertex 0: shortest paths are undefined" cycle.bin o.bin --allow-negative
    ! grep -q "no output written" stderr.txt || fail "words of an output: $(cat stderr.txt)"
    refused "negative cycle through vertex 0" path cycle.bin 0 1 --allow-negative
    ! grep -q "no output written" stderr.txt || fail "path speaks of an output: $(cat stderr.txt)"
    printf '# vertices 3\n0 1 1e308\n1 2 1e308\n' >huge.txt
    refused "could reach more than 1.7976931348623157e+308, which float64" huge.txt o.npy
    # Outputs named through a descriptor (issue 26, item 15): a regular file through
    # /proc/self/fd/1 (procfs has no free space of its own), a pipe through /dev/stdout (the
    # link says "pipe:[N]", no name), and a deleted file, written in place and cut to the output.
    # The file's name is longer than the 64 bytes procfs gives as the link's size.
    long=a-directory-whose-name-makes-the-link-text-longer-than-64-bytes
    mkdir "$long"
    "$apsp" g.bin /proc/self/fd/1 >"$long/so.bin" 2>stderr.txt ||
      fail "OUT=/proc/self/fd/1: $(cat stderr.txt)"
    cmp -s "$long/so.bin" expected.out || fail "OUT=/proc/self/fd/1: wrong output"
    "$apsp" g.bin /dev/stdout 2>stderr.txt | cat >piped.bin
    [[ ${PIPESTATUS[0]} == 0 ]] || fail "OUT=/dev/stdout, a pipe: $(cat stderr.txt)"
    cmp -s piped.bin expected.out || fail "OUT=/dev/stdout, a pipe: wrong output"
    head -c 4096 /dev/zero >deleted.bin
    exec 3<>deleted.bin
    rm deleted.bin
    "$apsp" g.bin /proc/self/fd/3 2>stderr.txt || fail "OUT=a deleted file: $(cat stderr.txt)"
    cmp -s /dev/fd/3 expected.out || fail "OUT=a deleted file: wrong output"
    exec 3>&-
    # An .npy header's own 'descr', not one nested in another value.
    h="{'x': {'descr': '<f8'}, 'fortran_order': False, 'shape': (1, 1), }"
    while [[ ${#h} -lt 117 ]]; do h+=" "; done
    { printf '\x93NUMPY\x01\x00\x76\x00%s\n' "$h" && head -c 8 /dev/zero; } >nested.npy
    [[ $(stat -c %s nested.npy) == 136 ]] || fail "nested.npy: $(stat -c %s nested.npy) bytes"
    refused "not of int32, float32 or float64" compare nested.npy nested.npy ;;
  long_numbers)
    # A weight is any valid number text, however long (it was "not a number" from 64
    # characters): 70 leading zeros, 65 digits of pi.
    zeros=$(printf '%070d' 1)
    pi=3.1415926535897932384626433832795028841971693993751058209749445923
    printf '# vertices 3\n0 1 %s\n1 2 %s\n' "$zeros" "$pi" >long.txt
    succeeds long.txt long.npy
    "$apsp" long.txt long.txt.out --output-format text 2>stderr.txt || fail "$(cat stderr.txt)"
    [[ "$(sed -n 1p long.txt.out)" == "0 1 4.141592653589793" ]] || fail "$(cat long.txt.out)"
    # float32 cannot hold these paths, and float64 neither: no type is suggested that fails too.
    printf '# vertices 3\n0 1 1e308\n1 2 1e308\n' >huge.txt
    refused "no distance type holds such paths" huge.txt o.npy --dtype float32
    ! grep -q "use --dtype float64" stderr.txt || fail "float64 suggested: $(cat stderr.txt)"
    printf '# vertices 3\n0 1 1e300\n1 2 1e300\n' >big.txt
    refused "use --dtype float64" big.txt o.npy --dtype float32
    # A shortest path takes each edge once: the V - 1 largest |w| summed bound it (V - 1 times
    # the largest refused both of these). One edge of 1e308 on two vertices fits float64; two
    # vertices of ten joined by 2^27 and another edge of 1 keep int32 (HW3 output).
    printf '# vertices 2\n0 1 1e308\n' >one.txt
    "$apsp" one.txt one.out --output-format text 2>stderr.txt || fail "1e308: $(cat stderr.txt)"
    [[ "$(cat one.out)" == $'0 1e+308\ninf 0' ]] || fail "1e308: $(cat one.out)"
    printf '# vertices 10\n0 1 134217728\n8 9 1\n' >ten.txt
    "$apsp" ten.txt ten.out 2>stderr.txt || fail "2^27 on ten vertices: $(cat stderr.txt)"
    # A self-loop of weight >= 0 never matters, however heavy (it was refused as too heavy for
    # every type): int32 distances, the loop left out.
    printf '# vertices 2\n0 0 1e308\n0 1 2\n' >loop.txt
    "$apsp" loop.txt loop.out --output-format text 2>stderr.txt || fail "1e308 self-loop: $(cat stderr.txt)"
    [[ "$(cat loop.out)" == $'0 2\n1073741823 0' ]] || fail "1e308 self-loop: $(cat loop.out)" ;;
  # Disk space (issue 32, items 8 and 9): text is refused only when even its shortest form (one
  # character and a separator a value) cannot fit; a text that fits is written; one that fills
  # the disk midway fails like any write error. A file system that takes no new file says so,
  # not "not enough disk space".
  text_disk_space)
    "$apsp" generate --class road --vertices 1000 --seed 5 road.bin 2>/dev/null
    "$apsp" road.bin full.txt --output-format text
    size=$(stat -c %s full.txt) least=$((2 * 1000 * 1000)) most=$((11 * 1000 * 1000))
    (( least < size / 2 && size + 300000 < most )) || fail "text of $size bytes: no room for the case"
    fits=$(((size + 200000) / 1024))
    in_small_fs $fits '"$apsp" road.bin small/o.txt --output-format text && cmp small/o.txt full.txt' ||
      fail "a text output of $size bytes was not written to $fits KiB"
    midway=$(((least + size) / 2048))
    in_small_fs $midway '
      rc=0; "$apsp" road.bin small/o.txt --output-format text --stats small/s.json 2>stderr.txt || rc=$?
      [[ $rc == 2 ]] || { echo "exit code $rc: $(cat stderr.txt)"; exit 1; }
      [[ -z "$(ls -A small)" ]] || { echo "left on the full disk: $(ls -A small)"; exit 1; }' ||
      fail "filled midway"
    expect_one_apsp_line stderr.txt
    grep -qF "cannot write output 'small/o.txt': No space left on device" stderr.txt ||
      fail "not the write error: $(cat stderr.txt)"
    in_small_fs 1024 '
      rc=0; "$apsp" road.bin small/o.txt --output-format text 2>stderr.txt || rc=$?
      [[ $rc == 2 && -z "$(ls -A small)" ]] || { echo "exit code $rc, left: $(ls -A small)"; exit 1; }'
    expect_one_apsp_line stderr.txt
    grep -qF "not enough disk space for 'small/o.txt': it needs at least 1.91 MiB, " stderr.txt ||
      fail "not the refusal: $(cat stderr.txt)"
    # HW3's size is exact: no "at least".
    in_small_fs 1024 '"$apsp" road.bin small/o.bin 2>stderr.txt' && fail "4 MB of HW3 in 1 MiB"
    grep -qF "not enough disk space for 'small/o.bin': it needs 3.81 MiB, " stderr.txt ||
      fail "not the exact refusal: $(cat stderr.txt)" ;;
  unwritable_file_system)
    refused "cannot create output next to '/proc/o.bin': '/proc' takes no new files" g.bin /proc/o.bin
    ! grep -q "disk space" stderr.txt || fail "blames the disk space: $(cat stderr.txt)"
    # A full file system mounted read-only: that is what is said.
    in_small_fs 64 '
      head -c 1M /dev/zero >small/filler 2>/dev/null || true
      mount -o remount,ro small
      rc=0; "$apsp" g.bin small/o.bin --predecessors small/p.bin 2>stderr.txt || rc=$?
      [[ $rc == 2 && ! -e small/o.bin ]] || { echo "exit code $rc"; exit 1; }' ||
      fail "a read-only file system"
    expect_one_apsp_line stderr.txt
    grep -qF "cannot create output next to 'small/o.bin': Read-only file system" stderr.txt ||
      fail "not why: $(cat stderr.txt)" ;;
  # OUT or P "-": standard output, as --stats - is (issue 32, item 15); never a file named "-".
  stdout_dash)
    "$apsp" g.bin - | cmp - expected.out || fail "OUT - through a pipe"
    "$apsp" g.bin - >r.bin && cmp r.bin expected.out || fail "OUT - into a file"
    printf 'head' >a.bin
    "$apsp" g.bin - >>a.bin && cmp a.bin <(printf 'head' && cat expected.out) || fail "OUT - appended"
    "$apsp" g.bin - --output-format text | cmp - <("$apsp" g.bin /dev/stdout --output-format text) ||
      fail "OUT - as text"
    succeeds g.bin o.bin --predecessors p.bin
    "$apsp" g.bin o2.bin --predecessors - | cmp - p.bin || fail "P - through a pipe"
    cmp o2.bin expected.out || fail "OUT beside P -"
    "$apsp" g.bin - --predecessors p2.bin --stats s.json | cmp - expected.out || fail "OUT - with P"
    cmp p2.bin p.bin && [[ -s s.json ]] || fail "P or the stats beside OUT -"
    refused "OUT '-' and --predecessors '-' are the same file" g.bin - --predecessors -
    refused "OUT '-' and --stats '-' are the same file" g.bin - --stats -
    refused "--predecessors '-' and --stats '-' are the same file" g.bin o.bin --predecessors - --stats -
    [[ ! -e ./- ]] || fail "a file named '-' appeared"
    "$apsp" g.bin ./- && cmp ./- expected.out || fail "./- is the file named '-'" ;;
  # Started with standard input, output or error closed (issue 43, item 1): no descriptor apsp
  # opens takes their place. The janitor's socket once took descriptor 1: OUT "-" went into it,
  # the run exited 0 having written nothing, and the janitor read d(0, 25) = 24875 (bytes 2b 61
  # 00 00, "+a") as a file to remove at its exit: the file 'a', or the input so named. Now OUT,
  # P or --stats "-" is refused before any work, a write to a closed or full standard output
  # fails the run and commits nothing, and files are written as ever.
  closed_streams)
    chain=(26 25)
    for ((u = 0; u < 25; u++)); do chain+=("$u" $((u + 1)) 995); done
    hw3 chain.bin "${chain[@]}" # d(0, 25) = 25 x 995 = 24875
    succeeds chain.bin chain.out
    echo keep >a
    mkdir -p in
    cp chain.bin in/a
    # closed_fails MESSAGE ARGS...: apsp ARGS with standard output closed: exit code 2, one line
    # saying MESSAGE, no output o.bin.
    closed_fails() {
      local message=$1 rc=0
      shift
      "$apsp" "$@" >&- 2>stderr.txt || rc=$?
      [[ $rc == 2 ]] || fail "$* >&-: exit code $rc, expected 2 (stderr: $(cat stderr.txt))"
      expect_one_apsp_line stderr.txt
      grep -qF -- "$message" stderr.txt || fail "$* >&-: $(cat stderr.txt)"
      [[ ! -e o.bin ]] || fail "$* >&-: an output appeared"
    }
    closed_fails "OUT '-' is standard output, and standard output is closed" chain.bin -
    (cd in && closed_fails "standard output is closed" a -)
    closed_fails "--predecessors '-' is standard output, and standard output is closed" \
      chain.bin o.bin --predecessors -
    closed_fails "--stats '-' is standard output, and standard output is closed" \
      chain.bin o.bin --stats -
    closed_fails "OUT '-' is standard output, and standard output is closed" measures chain.bin -
    closed_fails "cannot write standard output: it is closed" path chain.bin 0 25
    closed_fails "cannot write standard output: it is closed" compare chain.out chain.out
    closed_fails "cannot write standard output: it is closed" --version
    # --stats "-", one of the run's outputs: on standard output, written before the commit.
    "$apsp" chain.bin o.bin --stats - >s.out && cmp -s o.bin chain.out &&
      grep -q '^  "vertices": 26,$' s.out || fail "--stats - beside OUT"
    rm o.bin
    # A full standard output: the run fails, and commits nothing.
    rc=0
    "$apsp" chain.bin o.bin --stats - >/dev/full 2>stderr.txt || rc=$?
    [[ $rc == 2 && ! -e o.bin ]] || fail "--stats - into /dev/full: exit code $rc"
    expect_one_apsp_line stderr.txt
    rc=0
    "$apsp" path chain.bin 0 25 >/dev/full 2>stderr.txt || rc=$?
    [[ $rc == 2 ]] || fail "path into /dev/full: exit code $rc"
    grep -qF "cannot write standard output: No space left on device" stderr.txt ||
      fail "path into /dev/full: $(cat stderr.txt)"
    # Files, whichever streams are closed.
    for closed in '<&-' '>&-' '2>&-' '<&- >&- 2>&-'; do
      rm -f o.bin p.bin s.json
      rc=0
      eval '"$apsp" chain.bin o.bin --predecessors p.bin --stats s.json '"$closed" || rc=$?
      [[ $rc == 0 ]] || fail "with $closed: exit code $rc"
      cmp -s o.bin chain.out && [[ -s p.bin && -s s.json ]] || fail "with $closed: the outputs"
      (cd in && eval '"$apsp" a ../o.bin '"$closed") || fail "with $closed: input 'a'"
    done
    rm -f o.bin
    rc=0
    "$apsp" missing.bin o.bin 2>&- || rc=$?
    [[ $rc == 2 && ! -e o.bin ]] || fail "an error with standard error closed: exit code $rc"
    # The janitors end a moment after their runs: what they would remove, they have by then.
    for ((tries = 0; tries < 20; tries++)); do
      [[ -e a && -e in/a ]] || break
      sleep 0.05
    done
    [[ -e a && "$(cat a)" == keep ]] || fail "the file 'a' was removed"
    cmp -s in/a chain.bin || fail "the input 'a' was removed" ;;
  *)
    fail "unknown case '$case'" ;;
esac
echo "OK: $case"
