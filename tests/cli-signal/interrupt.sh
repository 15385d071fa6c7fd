#!/usr/bin/env bash
# interrupt.sh APSP WORKDIR SIGNAL
# SIGINT (Ctrl-C) or SIGTERM while `apsp IN OUT` computes: the process dies of that signal and
# leaves neither OUT nor its temporary (OUT.apsp-tmp.*) behind.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../cli/common.sh"

apsp=$1 work=$2 signal=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"

# V = 6000 computes for seconds on any backend of the CPU build (about 5 s with 2 OpenMP
# threads at 40 G updates/s on the 2-core CI machine).
"$apsp" generate --vertices 6000 --density 0.001 graph.in 2>/dev/null

# Job control gives the job its own process group; without it a script's background job
# starts with SIGINT ignored, and apsp keeps an ignored signal ignored.
set -m
"$apsp" --algorithm fw graph.in graph.out &
pid=$!
set +m
# The temporary appears once the input is read, before computing: the signal must find it.
for ((tries = 0; tries < 600; tries++)); do
  compgen -G "graph.out.apsp-tmp.*" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
compgen -G "graph.out.apsp-tmp.*" >/dev/null || fail "no temporary output appeared"
sleep 1
kill -0 "$pid" 2>/dev/null || fail "apsp finished before the signal: use a larger graph"
kill -s "$signal" "$pid"
status=0
wait "$pid" || status=$?

expected=$((128 + $(kill -l "$signal")))
[[ $status == "$expected" ]] || fail "exit status $status, expected $expected (killed by SIG$signal)"
[[ ! -e graph.out ]] || fail "graph.out exists after SIG$signal"
expect_no_temporaries graph.out
echo "OK: SIG$signal after 1 s: exit status $status, no output, no temporary"
