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

# V = 6000 computes for seconds on any backend of the CPU build (about 5 s with 2 OpenMP
# threads at 40 G updates/s on the 2-core CI machine). Writing: supernodal rows of a road-like
# graph, V = 16000, come off in a fraction of a second and fill 1 GB of OUT for seconds.
algorithm=fw
if [[ $mode == writing ]]; then
  algorithm=supernodal
  "$apsp" generate --class road --vertices 16000 --seed 3 graph.in 2>/dev/null
else
  "$apsp" generate --vertices 6000 --density 0.001 graph.in 2>/dev/null
fi

# Job control gives the job its own process group; without it a script's background job
# starts with SIGINT ignored, and apsp keeps an ignored signal ignored.
set -m
"$apsp" --algorithm $algorithm graph.in graph.out --stats stats.json &
pid=$!
set +m
# The temporary appears once the input is read, before computing: the signal must find it.
for ((tries = 0; tries < 600; tries++)); do
  compgen -G "graph.out.apsp-tmp.*" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
compgen -G "graph.out.apsp-tmp.*" >/dev/null || fail "no temporary output appeared"
if [[ $mode == writing ]]; then
  # The first rows in the temporary (its size, without a sleep that could outlast the write).
  written=0
  for ((tries = 0; tries < 600 && written == 0; tries++)); do
    written=$(stat -c %s graph.out.apsp-tmp.* 2>/dev/null || echo 0)
    ((written > 0)) || sleep 0.01
  done
  ((written > 0)) || fail "no rows were written"
else
  sleep 1
fi
kill -0 "$pid" 2>/dev/null || fail "apsp finished before the signal: use a larger graph"
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
[[ $mode == twice ]] && when="(twice, 10 ms apart) after 1 s" || when="after 1 s"
[[ $mode == writing ]] && when="while writing $(numfmt --to=iec "$written") of OUT"
echo "OK: SIG$signal $when: exit status $status, no output, no temporary"
