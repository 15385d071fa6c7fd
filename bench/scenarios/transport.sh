#!/usr/bin/env bash
# --transport on two or more GPUs (issue 34, item 1): same bytes, no hang when a rank dies, speed.
#   [PARTS=...] [TRANSPORTS=...] bench/device transport
# How the pivot rows of dense Floyd-Warshall go GPU to GPU (nccl, ipc) or through host memory
# (host). The command line built with MPI and NCCL (no METIS, module or tests: only
# Floyd-Warshall runs here), then the parts:
#   same      for each transport: testcases/*.in (with --predecessors) on 2 ranks, a V = 5000
#             graph on 2 ranks and on every GPU, with and without --predecessors: OUT and P
#             byte for byte those of one process, and "transport" in --stats the one asked for
#             (where the pivot rows travel at all)
#   kill      for each transport: one rank of 2 killed (SIGKILL) in the middle of the rounds of
#             V = $KILL_V (default 40000); mpirun must end, non-zero, within $KILL_LIMIT s
#             (default 60), never hang
#   time      dense V = $TIME_V (default 40000; OUT = /dev/null): compute, communication (host
#             waits), link (the pivot-rows stream's GPU seconds) and bytes sent, max over ranks;
#             1 GPU, then 2 and every GPU for each transport
# PARTS (default "same kill time") picks the parts, TRANSPORTS (default "nccl ipc host") the
# transports; summary.txt in $OUT has every line.
# (Was bench/gpu-transport.sh, whose PARTS=build is the driver's build, kept in
# build/device/transport on a warm machine.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) mpi=ON nccl=ON metis=OFF kernels=OFF
setup
parts=${PARTS:-same kill time}
part() { [[ " $parts " == *" $1 "* ]]; }
work=${APSP_WORK:-/tmp/apsp-transport-work}
mkdir -p "$work"
mpi=(mpirun --allow-run-as-root --bind-to none -np)
read -r -a transports <<<"${TRANSPORTS:-nccl ipc host}"
export NCCL_DEBUG=WARN
fails=0
bad() {
  log "FAIL: $*"
  fails=$((fails + 1))
}
gpus=$(nvidia-smi -L | wc -l)
log "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1) x $gpus; $("$apsp" --version | head -n 1)"
nvidia-smi topo -m >"$out/topology.txt" 2>&1
nps=(2)
[ "$gpus" -gt 2 ] && nps+=("$gpus")

# field FILE KEY: a top-level string of --stats.
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

if part same; then
  "$apsp" generate --vertices 5000 --density 0.01 --seed 5 "$work/g5000.in" 2>/dev/null
  # run NAME IN NP TRANSPORT [--predecessors]: NP ranks against one process (made once).
  run() {
    local name=$1 in=$2 np=$3 t=$4 pred=${5:-}
    local ref=$work/$name.one
    if [ ! -f "$ref.out" ]; then
      "$apsp" --algorithm fw --predecessors "$ref.pred" "$in" "$ref.out" 2>>"$out/errors.log" ||
        bad "$name: one process failed"
    fi
    local o=$work/$name.$t.$np.out p=$work/$name.$t.$np.pred s=$out/same-$name-$t-np$np${pred:+-pred}.json
    local extra=()
    [ -n "$pred" ] && extra=(--predecessors "$p")
    rm -f "$o" "$p"
    local rc=0
    timeout 300 "${mpi[@]}" "$np" "$apsp" --algorithm fw --transport "$t" "${extra[@]}" "$in" "$o" \
      --stats "$s" 2>>"$out/errors.log" || rc=$?
    if [ $rc != 0 ]; then
      bad "$name $t np=$np ${pred:+with P}: exit code $rc ($(tail -n 2 "$out/errors.log" | tr '\n' ' '))"
      return
    fi
    cmp -s "$o" "$ref.out" || bad "$name $t np=$np: OUT differs from one process"
    [ -z "$pred" ] || cmp -s "$p" "$ref.pred" || bad "$name $t np=$np: P differs from one process"
    local ran
    ran=$(field "$s" transport)
    # One rank holds every tile row (a graph of one tile): nothing travels ("none").
    [[ $ran == "$t" || $ran == none ]] || bad "$name $t np=$np: \"transport\": \"$ran\""
    echo "$name $t np=$np ${pred:+with P }-> $ran" >>"$out/same.txt"
  }
  for t in "${transports[@]}"; do
    before=$fails
    for in in "$here"/testcases/*.in; do
      run "$(basename "$in" .in)" "$in" 2 "$t" pred
    done
    for np in "${nps[@]}"; do
      run g5000 "$work/g5000.in" "$np" "$t"
      run g5000 "$work/g5000.in" "$np" "$t" pred
    done
    log "same bytes, $t: $([ $fails == "$before" ] && echo OK || echo "$((fails - before)) FAILED") (testcases on 2 ranks with P; V=5000 on ${nps[*]} ranks, with and without P)"
  done
  log "  runs where nothing travelled (one holder): $(grep -c -- '-> none' "$out/same.txt")"
fi

if part kill; then
  limit=${KILL_LIMIT:-60} v=${KILL_V:-40000}
  g=$work/g$v.in
  [ -f "$g" ] || "$apsp" generate --vertices "$v" --density 0.001 --seed 7 "$g" 2>/dev/null
  for t in "${transports[@]}"; do
    err=$work/kill-$t.err
    set -m # mpirun in its own process group, so that `timeout` and the test can reach it alone
    timeout 300 "${mpi[@]}" 2 "$apsp" --algorithm fw --progress --transport "$t" "$g" /dev/null 2>"$err" &
    pid=$!
    set +m
    # In the rounds: rank 0's first progress line.
    for ((i = 0; i < 600; i++)); do
      grep -q 'round' "$err" 2>/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    # The ranks are mpirun's children (each has a child of its own, which is not the rank).
    victim=
    for p in $(pgrep -P "$(pgrep -P "$pid" -x mpirun)"); do
      tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
    done
    if [ -z "$victim" ]; then
      bad "kill $t: no rank 1 found in the rounds ($(tail -c 300 "$err"))"
      wait "$pid"
      continue
    fi
    s=$(date +%s%N)
    kill -KILL "$victim"
    ended=0
    for ((i = 0; i < limit * 10; i++)); do
      kill -0 "$pid" 2>/dev/null || {
        ended=1
        break
      }
      sleep 0.1
    done
    took=$((($(date +%s%N) - s) / 1000000))
    if [ $ended == 0 ]; then
      bad "kill $t: mpirun still running ${limit} s after rank 1 was killed: a hang"
      kill -KILL -- "-$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      continue
    fi
    rc=0
    wait "$pid" || rc=$?
    [ $rc != 0 ] || bad "kill $t: exit code 0 after a rank was killed"
    log "kill rank 1 of 2 in the rounds, $t: mpirun ended after $took ms, exit code $rc"
    for ((i = 0; i < 100; i++)); do
      pgrep -f -- "--transport $t $g" >/dev/null || break
      sleep 0.1
    done
    pgrep -f -- "--transport $t $g" >/dev/null && bad "kill $t: processes left running 10 s later"
  done
fi

if part time; then
  v=${TIME_V:-40000}
  [ -f "$work/g$v.in" ] || "$apsp" generate --vertices "$v" --density 0.001 --seed 7 "$work/g$v.in" 2>/dev/null
  rm -f "$out/time.jsonl"
  timed() { # NP TRANSPORT: one run's stats, one line
    "${mpi[@]}" "$1" "$apsp" --algorithm fw --transport "$2" "$work/g$v.in" /dev/null --stats "$work/t.json" \
      2>>"$out/errors.log" && tr -d '\n ' <"$work/t.json" >>"$out/time.jsonl" && echo >>"$out/time.jsonl"
  }
  timed 1 auto
  for np in "${nps[@]}"; do
    for t in "${transports[@]}"; do
      timed "$np" "$t"
    done
  done
  python3 - "$out/time.jsonl" <<'EOF' | tee -a "$out/summary.txt"
import json, sys
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    r = json.loads(line)
    ranks = r["per_rank"] or [r["seconds"]]
    top = lambda k: max(p.get(k, 0) for p in ranks)
    v = r["vertices"]
    print(f"V={v} GPUs={r['ranks']} transport={r['transport']} (asked {r['transport_requested']}):"
          f" compute {top('compute'):.3f} s ({v**3 / top('compute') / 1e12:.2f} T),"
          f" communication {top('communication'):.3f} s, link {top('link'):.3f} s,"
          f" sent {max(p.get('communication_sent_bytes', 0) for p in ranks) / 1e9:.2f} GB a rank at most,"
          f" total {top('total'):.2f} s")
EOF
fi
log "failures: $fails"
[ $fails == 0 ]
