#!/usr/bin/env bash
# mpi_case.sh CASE NP WORKDIR APSP TESTCASES MPIRUN...
# Runs `MPIRUN... NP APSP [OPTION]... IN OUT` (MPIRUN ends with its process-count flag) for one
# case, one thread per rank:
#   - a graph case must succeed silently with OUT (and P, with --predecessors) bitwise equal to
#     the output of one process (APSP without mpirun) or to TESTCASES/NAME.out;
#   - a failure case (a rank failing at a round, bad input, too little memory) must exit with
#     code 2, print exactly one "apsp: " line however many ranks there are, and leave no output
#     (a previous OUT unchanged, no temporary file).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../cli/common.sh"

case=$1 np=$2 work=$3 apsp=$4 testcases=$5
shift 5
mpirun=("$@")
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export OMP_NUM_THREADS=1 KOKKOS_DISABLE_WARNINGS=1  # ranks oversubscribe the cores

# graph V DENSITY: a random input in.in
graph() { "$apsp" generate --vertices "$1" --density "$2" --seed 7 in.in 2>/dev/null; }

# negative_graph V CYCLE: negative.txt, an edge list with negative weights; CYCLE=1 adds the
# negative cycle 150 -> 170 -> 150.
negative_graph() {
  awk -v n="$1" -v cycle="$2" 'BEGIN {
    srand(7)
    print "# vertices " n
    for (v = 0; v < n; v++) p[v] = int(rand() * 300)
    for (u = 0; u < n; u++) for (v = 0; v < n; v++)
      if (rand() < 0.03) print u, v, int(rand() * 400) + p[u] - p[v]
    if (cycle) { print 150, 170, -500; print 170, 150, 499 }
  }' >negative.txt
}

# real_graph V: real.txt, an edge list with real weights, some negative, and no negative cycle.
real_graph() {
  awk -v n="$1" 'BEGIN {
    srand(11)
    print "# vertices " n
    for (v = 0; v < n; v++) p[v] = rand() * 3
    for (u = 0; u < n; u++) for (v = 0; v < n; v++)
      if (rand() < 0.05) printf "%d %d %.17g\n", u, v, rand() * 10 + p[u] - p[v]
  }' >real.txt
}

options=()      # for both solvers
mpi_options=()  # for the MPI run only
in=in.in
expected=""   # empty: the single-process output
message=""    # non-empty: the run must fail with this in its one line
case $case in
  ragged) graph 300 0.02; options=(--tile 32) ;;        # 10 tiles: 3 and 4 ranks do not divide
  few_tiles) graph 40 0.2; options=(--tile 32) ;;       # 2 tiles: 3 and 4 ranks hold none
  largest_tile)  # the default backend's largest tile: 3 tiles of 128 on CPUs, 5 of 64 on GPUs
    graph 300 0.02
    options=(--tile "$(tile_sizes_of "$apsp" | tail -n 1)") ;;
  one_vertex) graph 1 0 ;;
  no_edges) graph 100 0; options=(--tile 32) ;;
  serial) graph 150 0.05; options=(--backend serial --tile 32) ;;
  # 256 x 256 distances take 256 KiB (with predecessors more; text goes through rank 0): a cap
  # of 200 KiB refuses one process, which names the fewest ranks that fit as this build plans
  # them (a GPU holds two buffers of pivot rows, a CPU one). Fewer ranks are refused in the same
  # words, that many and more succeed.
  max_memory | max_memory_paths)
    graph 256 0.01
    options=(--algorithm fw --tile 32) mpi_options=(--max-memory 200K) one=()
    [[ $case == max_memory_paths ]] &&
      options+=(--output-format text) paths=1 one=(--predecessors "$work/one.pred")
    rc=0
    "$apsp" "${options[@]}" "${mpi_options[@]}" "${one[@]}" "$in" one.out 2>one.txt || rc=$?
    fitting=$(sed -n 's/.*; with \([0-9]*\) ranks of that memory each it would fit (--max-memory)$/\1/p' one.txt)
    [[ $rc == 2 && -n $fitting ]] ||
      fail "one process under the cap: exit code $rc, no count of ranks that fit: $(cat one.txt)"
    ((fitting <= 4)) || fail "one process under the cap: $fitting ranks would fit, more than 4"
    ((np < fitting)) &&
      message="but the cap allows 0.20 MiB; with $fitting ranks of that memory each it would fit (--max-memory)" ;;
  testcase-*)
    in=$testcases/${case#testcase-}.in expected=$testcases/${case#testcase-}.out
    options=(--tile 32) ;;
  fail-*-*)  # fail-R-K: rank R fails at round K
    graph 300 0.02
    options=(--tile 32)
    IFS=- read -r _ fail_rank fail_round <<<"$case"
    export APSP_FAIL_RANK=$fail_rank APSP_FAIL_ROUND=$fail_round
    message="rank $fail_rank of $np: injected failure at round $fail_round" ;;
  fail_rank_without_rows)  # 2 tiles over 4 ranks: rank 3 holds none
    graph 40 0.2
    options=(--tile 32)
    export APSP_FAIL_RANK=3 APSP_FAIL_ROUND=1
    message="rank 3 of $np: injected failure at round 1" ;;
  negative)  # negative weights, no negative cycle: w = w0 + p(u) - p(v), w0 >= 0
    negative_graph 200 0
    in=negative.txt options=(--tile 32 --allow-negative) ;;
  negative_cycle)
    negative_graph 200 1
    in=negative.txt options=(--tile 32 --allow-negative)
    message="negative cycle through vertex" ;;
  # Every feature of one process under mpirun, with the same outputs.
  predecessors)  # 5 tiles: every rank's shortest-path edges reach every other
    "$apsp" generate --vertices 150 --density 0.05 --max-weight 3 --seed 7 in.in 2>/dev/null
    options=(--tile 32) paths=1 ;;
  predecessors_negative)
    negative_graph 120 0
    in=negative.txt options=(--tile 32 --allow-negative) paths=1 ;;
  text)  # rows of varying length, through rank 0
    graph 130 0.05
    options=(--tile 32 --output-format text) ;;
  text_predecessors)
    graph 90 0.1
    options=(--tile 32 --output-format text) paths=1 ;;
  format-*)  # format-EXT: every input format (testcases/formats/08-duplicates-self-loops.EXT)
    in=$testcases/formats/08-duplicates-self-loops.${case#format-}
    expected=$testcases/08-duplicates-self-loops.out options=(--tile 32) ;;
  real)  # float64 distances (auto, for real weights) and their predecessors
    real_graph 150
    in=real.txt options=(--tile 32 --allow-negative --output-format npy) paths=1 ;;
  real32_text)  # float32, rows of varying length through rank 0
    real_graph 130
    in=real.txt options=(--tile 32 --allow-negative --dtype float32 --output-format text) ;;
  real_hw3)
    real_graph 40
    in=real.txt options=(--allow-negative) message="HW3 output holds int32 only" ;;
  npy)  # NumPy's format: its header, then the rows at their offsets
    graph 130 0.05
    options=(--tile 32 --output-format npy) paths=1 ;;
  supernodal)  # the factor on every rank, the rows split; the ranks' shortest-path edges shared
    "$apsp" generate --class road --vertices 700 --seed 7 in.in 2>/dev/null
    options=(--algorithm supernodal) paths=1 ;;
  supernodal_text)  # rows of varying length, through rank 0
    "$apsp" generate --class grid --vertices 300 --seed 7 in.in 2>/dev/null
    options=(--algorithm supernodal --output-format text) paths=1 ;;
  supernodal_negative)
    negative_graph 200 0
    in=negative.txt options=(--algorithm supernodal --allow-negative) paths=1 ;;
  supernodal_cycle)
    negative_graph 200 1
    in=negative.txt options=(--algorithm supernodal --allow-negative)
    message="negative cycle through vertex" ;;
  prepared)  # a prepared graph: rank 0 reads it and sends its factor; the edge list's answer
    "$apsp" generate --class road --vertices 700 --seed 7 road.in 2>/dev/null
    "$apsp" prepare road.in in.in
    "$apsp" --algorithm supernodal --predecessors "$work/expected.pred" road.in expected.out
    expected=$work/expected.out options=(--algorithm supernodal) paths=1 ;;
  prepare)  # apsp prepare: the factor on every rank, rank 0 writes one process's bytes
    "$apsp" generate --class grid --vertices 300 --seed 7 in.in 2>/dev/null
    options=(prepare) ;;
  sssp)  # sources split over the ranks, on a host backend: sssp runs on no other
    graph 300 0.01
    options=(--algorithm sssp --backend "$(host_backend_of "$apsp")") ;;
  sssp_prepared)  # a prepared graph's arrays: rank 0 reads them and sends them; the edge list's
    graph 300 0.01
    mv in.in edges.in
    "$apsp" prepare --algorithm sssp --backend "$(host_backend_of "$apsp")" edges.in in.in
    "$apsp" --algorithm sssp --backend "$(host_backend_of "$apsp")" edges.in expected.out
    expected=$work/expected.out options=(--backend "$(host_backend_of "$apsp")") ;;
  sssp_prepare)  # apsp prepare --algorithm sssp: rank 0 writes one process's bytes
    graph 300 0.01
    options=(prepare --algorithm sssp --backend "$(host_backend_of "$apsp")") ;;
  sssp_text)
    graph 120 0.02
    options=(--algorithm sssp --backend "$(host_backend_of "$apsp")" --output-format text) ;;
  auto)  # the same choice as one process (sssp for this sparse graph where it is built)
    graph 300 0.005
    options=(--stats "$work/auto.json") ;;
  bad_input)
    graph 100 0.1
    head -c 100 in.in >short.in
    in=short.in message="truncated edge list" ;;
  # The rules of one process (tests/cli/safety.sh) hold under mpirun: two names of one file are
  # refused before any work, the stats file is part of the run's transaction, a signal leaves
  # nothing behind.
  same_file)
    graph 100 0.1
    mpi_options=(--stats "$work/./in.in") message="IN 'in.in' and --stats '$work/./in.in' are the same file" ;;
  same_file_out)
    graph 100 0.1
    mpi_options=(--stats "$work/./result.out") message="are the same file" ;;
  stats_unwritable)
    graph 100 0.1
    mpi_options=(--stats "$work/nodir/s.json") message="nodir/s.json" ;;
  stats)
    graph 100 0.1
    options=(--tile 32) mpi_options=(--stats "$work/s.json") ;;
  transport_host)  # the pivot rows through host memory, asked for by name
    graph 300 0.02
    options=(--tile 32) mpi_options=(--transport host --stats "$work/s.json") ;;
  interrupt)
    # Floyd-Warshall (auto would pick a much faster algorithm for this sparse graph) on a graph
    # that keeps the ranks computing for seconds after the first progress line, on any backend
    # (busy_vertices, common.sh): the signals come once that line is out.
    "$apsp" generate --class grid --vertices "$(busy_vertices "$apsp" "$np")" --seed 7 in.in \
      2>/dev/null
    set -m  # its own process group: a background job would start with SIGINT ignored
    "${mpirun[@]}" "$np" "$apsp" --algorithm fw --progress "$work/in.in" result.out --stats s.json \
      >stdout 2>stderr &
    pid=$!
    set +m
    wait_for_progress "$pid" stderr
    compgen -G "result.out.apsp-tmp.*" >/dev/null || fail "no temporary output while computing"
    kill -0 "$pid" 2>/dev/null || fail "finished before the signal: use a larger graph"
    [[ ! -e result.out ]] || fail "committed before the signal: use a larger graph"
    kill -s TERM "$pid"
    sleep 0.01
    kill -s TERM "$pid" 2>/dev/null || true
    rc=0
    wait "$pid" || rc=$?
    [[ $rc != 0 ]] || fail "exit code 0 after SIGTERM"
    # Open MPI's mpirun, signalled twice, exits at once and leaves its ranks to end on their own
    # when they find their daemon gone: what they leave is judged once they have ended.
    for ((tries = 0; tries < 600; tries++)); do
      pgrep -f -- "$work/in.in" >/dev/null || break
      sleep 0.05
    done
    ! pgrep -f -- "$work/in.in" >/dev/null || fail "ranks still running 30 s after mpirun ended"
    [[ ! -e result.out && ! -e s.json ]] || fail "an output appeared after SIGTERM"
    expect_no_temporaries result.out
    expect_no_temporaries s.json
    echo "OK: SIGTERM twice under mpirun: exit code $rc, no output, no temporary"
    exit 0 ;;
  # Ranks started with standard output closed (issue 43, item 1): OUT "-" refused alike on every
  # rank, a file written as by one process, and nothing the janitors could take for a temporary:
  # d(0, 25) = 24875 is "+a" in bytes, and the file 'a' stays.
  closed_stdout)
    chain=(26 25)
    for ((u = 0; u < 25; u++)); do chain+=("$u" $((u + 1)) 995); done
    hw3 chain.bin "${chain[@]}"
    "$apsp" chain.bin expected.out
    echo keep >a
    closed=(bash -c 'exec "$0" "$@" >&-' "$apsp")
    rc=0
    "${mpirun[@]}" "$np" "${closed[@]}" chain.bin - 2>stderr || rc=$?
    [[ $rc == 2 ]] || fail "OUT - with standard output closed: exit code $rc: $(cat stderr)"
    grep '^apsp: ' stderr >ours || true
    expect_one_apsp_line ours
    grep -qF "standard output is closed" ours || fail "not why: $(cat ours)"
    "${mpirun[@]}" "$np" "${closed[@]}" --algorithm fw --tile 32 chain.bin result.out ||
      fail "OUT a file with standard output closed"
    cmp result.out expected.out || fail "$np ranks with standard output closed: another OUT"
    for ((tries = 0; tries < 20; tries++)); do
      [[ -e a ]] || break
      sleep 0.05
    done
    [[ "$(cat a 2>/dev/null)" == keep ]] || fail "the file 'a' was removed"
    echo "OK: standard output closed on $np ranks: $(cat ours)"
    exit 0 ;;
  *) fail "unknown case $case" ;;
esac

# A case that names a tile tests Floyd-Warshall over the ranks: auto could pick sssp for it.
[[ " ${options[*]} " == *" --tile "* && " ${options[*]} " != *" --algorithm "* ]] &&
  options=(--algorithm fw "${options[@]}")

out=$work/result.out
[[ -n ${paths:-} ]] && mpi_options+=(--predecessors "$work/result.pred")
if [[ -n "$message" ]]; then
  echo previous >"$out"
  rc=0
  "${mpirun[@]}" "$np" "$apsp" "${options[@]}" "${mpi_options[@]}" "$in" "$out" >stdout 2>stderr || rc=$?
  [[ $rc == 2 ]] || fail "exit code $rc, expected 2: $(cat stderr)"
  # mpirun adds its own notice of the failed job; of ours there must be one line.
  grep '^apsp: ' stderr >ours || true
  expect_one_apsp_line ours
  grep -qF -- "$message" ours || fail "expected '$message' in: $(cat ours)"
  if [[ $case == *cycle ]]; then  # the vertex of one process's fw, whatever the ranks and algorithm
    "$apsp" --algorithm fw --allow-negative "$in" one.out 2>one.txt && fail "one process: no cycle"
    [[ "$(cat ours)" == "$(cat one.txt)" ]] ||
      fail "$np ranks say '$(cat ours)', one process's fw '$(cat one.txt)'"
  fi
  [[ "$(cat "$out")" == previous ]] || fail "the previous output was changed"
  expect_no_temporaries "$out"
  if [[ -n ${paths:-} ]]; then
    [[ ! -e $work/result.pred ]] || fail "the predecessors appeared"
    expect_no_temporaries "$work/result.pred"
  fi
  echo "OK: $(cat ours)"
  exit 0
fi

if [[ -z "$expected" ]]; then
  expected=$work/expected.out
  one=()
  [[ -n ${paths:-} ]] && one=(--predecessors "$work/expected.pred")
  "$apsp" "${options[@]}" "${one[@]}" "$in" "$expected"
  [[ $case == auto ]] && mv "$work/auto.json" "$work/one.json"
fi
rc=0
"${mpirun[@]}" "$np" "$apsp" "${options[@]}" "${mpi_options[@]}" "$in" "$out" >stdout 2>stderr || rc=$?
[[ $rc == 0 ]] || fail "exit code $rc: $(cat stderr)"
[[ ! -s stdout && ! -s stderr ]] ||
  fail "a successful run should print nothing, got: $(cat stdout stderr)"
cmp "$out" "$expected" || fail "$np ranks differ from one process: $(cmp "$out" "$expected" 2>&1)"
expect_no_temporaries "$out"
if [[ -n ${paths:-} ]]; then
  cmp "$work/result.pred" "$work/expected.pred" ||
    fail "the predecessors of $np ranks differ from one process"
  expect_no_temporaries "$work/result.pred"
fi
if [[ $case == auto ]]; then
  algorithm() { grep -o '"algorithm": "[a-z]*"' "$1"; }
  [[ "$(algorithm auto.json)" == "$(algorithm one.json)" ]] ||
    fail "auto chose $(algorithm auto.json) on $np ranks, $(algorithm one.json) on one"
fi
if [[ $case == stats || $case == transport_host ]]; then
  grep -q "\"ranks\": $np," s.json || fail "the stats of $np ranks: $(cat s.json)"
  # The transport that ran: none where no pivot rows travel (one rank), host on host backends.
  transport=host
  [[ $np == 1 ]] && transport=none
  grep -q "^  \"transport\": \"$transport\"," s.json ||
    fail "expected transport $transport in the stats of $np ranks: $(cat s.json)"
  # Every rank's pivot bytes: received and sent.
  [[ $(grep -c '"communication_sent_bytes": ' s.json) == $((np + 1)) ]] ||
    fail "expected the sent bytes of every rank: $(cat s.json)"
  expect_no_temporaries s.json
fi
echo "OK: $np ranks, $(stat -c %s "$out") bytes identical to one process"
