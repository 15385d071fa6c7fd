#!/usr/bin/env bash
# The whole test suite on the GPU node (issue 43, item 10), within BUDGET seconds.
# This tree built as the cuda-hopper preset builds it (CUDA, MPI, the Python module for the
# node's python3, METIS and GoogleTest), then `ctest -j JOBS -LE bench`, all within BUDGET
# seconds from the start (default 480): ctest stops its tests 30 s before the budget's end (those
# running then show as Timeout) and is killed at the end.
#   OUT=DIR [BUDGET=480] [JOBS=8] [CTEST_ARGS='...'] bench/device ctest
# Into OUT: build.log, ctest.log (every test's result; the output of those that fail),
# failed.txt (the tests that failed, timed out or did not run), times.txt (build and test wall
# times, the slowest tests, ctest's summary) and LastTest.log.gz (every test's output).
# (Was bench/gpu-ctest.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
budget=${BUDGET:-480} jobs=${JOBS:-8}
targets=(all) mpi=ON python=ON tests=ON build_seconds=$((budget - 60))
setup

build_s=$(elapsed)
echo "build: $build_s s" >"$out/times.txt"
left=$((budget - build_s))
stop=$(date -d "@$((start + budget - 30))" +%H:%M:%S)
echo "ctest -j $jobs: $left s left, its tests stopped at $stop"
cd "$bin" || exit 1
# shellcheck disable=SC2086 # CTEST_ARGS are words
timeout -k 10 $((left - 5)) ctest -j "$jobs" -LE bench --output-on-failure --stop-time "$stop" \
  ${CTEST_ARGS:-} >"$out/ctest.log" 2>&1
rc=$?
test_s=$(($(elapsed) - build_s))
gzip -c Testing/Temporary/LastTest.log >"$out/LastTest.log.gz" 2>/dev/null

# Every test that did not pass: ctest's own lines ("***Failed", "***Timeout", "Not Run", ...);
# then those it never started (at the stop time it times out the tests running and starts no
# more).
results=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$out/ctest.log")
grep -v -E ' Passed +[0-9.]+ sec$' <<<"$results" >"$out/failed.txt"
# shellcheck disable=SC2086
ctest -N -LE bench ${CTEST_ARGS:-} 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p' | sort >all.txt
# (a name ends at the dots ctest pads it with: typed tests' names hold spaces)
sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: //; s/ \.{2,}.*$//' <<<"$results" | sort | comm -23 all.txt - |
  sed 's/^/not started: /' >>"$out/failed.txt"
{
  echo "ctest: exit $rc after $test_s s (124: killed at the budget's end)"
  grep -q 'The stop time has been passed' "$out/ctest.log" &&
    echo "ctest reached the stop time: the tests running then show as Timeout"
  echo "tests: $(grep -c . <<<"$results") of $(grep -c . all.txt) reported; total: $(elapsed) s"
  grep -E 'tests passed|Total Test time' "$out/ctest.log"
  echo "the slowest tests (seconds):"
  awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^#[0-9]+:$/) print $(NF - 1), $(i + 1) }' <<<"$results" |
    sort -rn | head -n 15
} | tee -a "$out/times.txt"
echo "not passed: $(wc -l <"$out/failed.txt")"
head -n 40 "$out/failed.txt"
[ ! -s "$out/failed.txt" ]
