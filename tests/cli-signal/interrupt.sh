#!/usr/bin/env bash
# interrupt.sh APSP WORKDIR SIGNAL [twice|writing]
# SIGINT (Ctrl-C), SIGTERM, SIGHUP, SIGQUIT or SIGKILL while `apsp IN OUT --stats S` computes: the
# process dies of that signal and leaves neither OUT, S nor their temporaries (*.apsp-tmp.*)
# behind. With `twice`, a second signal follows 10 ms later, as coreutils' `timeout` sends
# (--kill-after aside): it must not interrupt the cleanup. With `writing`, the signal comes
# while rows are being written, a writer thread alive beside the producer (write_behind.hpp).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../cli/common.sh"

apsp=$1 work=$2 signal=$3 mode=${4:-}
rm -rf "$work"
mkdir -p "$work"
cd "$work"

# Floyd-Warshall on a graph that keeps the default backend computing for seconds after the
# first progress line (busy_vertices, common.sh); the signal comes once that line is out. Writing:
# supernodal rows of a road-like graph, which come off in a fraction of a second and fill OUT
# for seconds: 1 GB at V = 16000 from a CPU, 6.4 GB at V = 40000 from a GPU, whose rows come
# faster than a disk takes them.
algorithm=fw
if [[ $mode == writing ]]; then
  algorithm=supernodal
  vertices=16000
  default_backend_is_gpu "$apsp" && vertices=40000
  "$apsp" generate --class road --vertices $vertices --seed 3 graph.in 2>/dev/null
else
  threads=${OMP_NUM_THREADS:-$(nproc)}
  vertices=$(busy_vertices "$apsp" "${threads%%,*}")
  "$apsp" generate --class grid --vertices "$vertices" --seed 3 graph.in 2>/dev/null
fi

# Job control gives the job its own process group; without it a script's background job
# starts with SIGINT ignored, and apsp keeps an ignored signal ignored.
set -m
"$apsp" --algorithm $algorithm --progress graph.in graph.out --stats stats.json 2>stderr.txt &
pid=$!
set +m
if [[ $mode == writing ]]; then
  # The temporary appears once the input is read, before computing; then the first rows in it
  # (its size, without a sleep that could outlast the write).
  for ((tries = 0; tries < 600; tries++)); do
    compgen -G "graph.out.apsp-tmp.*" >/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  compgen -G "graph.out.apsp-tmp.*" >/dev/null || fail "no temporary output appeared; apsp's stderr: $(cat stderr.txt)"
  written=0
  for ((tries = 0; tries < 600 && written == 0; tries++)); do
    written=$(stat -c %s graph.out.apsp-tmp.* 2>/dev/null || echo 0)
    ((written > 0)) || sleep 0.01
  done
  ((written > 0)) || fail "no rows were written; apsp's stderr: $(cat stderr.txt)"
else
  wait_for_progress "$pid" stderr.txt
  compgen -G "graph.out.apsp-tmp.*" >/dev/null || fail "no temporary output while computing"
fi
kill -0 "$pid" 2>/dev/null || fail "apsp finished before the signal (a larger graph?); its stderr: $(cat stderr.txt)"
[[ ! -e graph.out ]] || fail "apsp committed its output before the signal: use a larger graph"
kill -s "$signal" "$pid"
if [[ $mode == twice ]]; then
  sleep 0.01
  kill -s "$signal" "$pid" 2>/dev/null || true
fi
status=0
wait "$pid" || status=$?

expected=$((128 + $(kill -l "$signal")))
[[ $status == "$expected" ]] || fail "exit status $status, expected $expected (killed by SIG$signal)"
# SIGKILL cannot be handled: the janitor process (src/io/hw3_io.cpp) removes the temporaries once
# apsp is gone, a moment later.
if [[ $signal == KILL ]]; then
  for ((tries = 0; tries < 100; tries++)); do
    compgen -G "*.apsp-tmp.*" >/dev/null || break
    sleep 0.05
  done
fi
[[ ! -e graph.out ]] || fail "graph.out exists after SIG$signal"
[[ ! -e stats.json ]] || fail "stats.json exists after SIG$signal"
expect_no_temporaries graph.out
expect_no_temporaries stats.json
[[ -z "$(compgen -G 'core*' || true)" ]] || fail "a core file was left behind"
when="at the first progress line, V = $vertices"
[[ $mode == twice ]] && when="(twice, 10 ms apart) $when"
[[ $mode == writing ]] && when="while writing $(numfmt --to=iec "$written") of OUT, V = $vertices"
echo "OK: SIG$signal $when: exit status $status, no output, no temporary"
