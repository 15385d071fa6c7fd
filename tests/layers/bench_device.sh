#!/usr/bin/env bash
# bench_device.sh ROOT: bench/device and what the documents say of bench/ agree with the tree.
# 1. Every script of bench/ (the driver, its library, its scenarios, the CPU scripts) parses.
# 2. Every scenario says what it would build and run (bench/device --dry-run NAME), which it
#    does only where it sets its build and calls setup before it runs anything.
# 3. Every `bench/device NAME` of README.md, CONTRIBUTING.md, docs/*.md and bench/README.md
#    names a scenario, and every bench/*.sh they name is in the tree (PERFORMANCE.md's log keeps
#    the names of its day: bench/README.md says which scenario replaced each).
# Prints each miss and exits 1 when there is one.
set -uo pipefail
root=$(cd "${1:?ROOT}" && pwd)
cd "$root" || exit 1
misses=0
miss() {
  echo "$*"
  misses=$((misses + 1))
}
for f in bench/device bench/lib/*.sh bench/scenarios/*.sh bench/*.sh; do
  bash -n "$f" 2>&1 || miss "$f: does not parse"
done
for f in bench/scenarios/*.sh; do
  name=$(basename "$f" .sh)
  said=$(OUT=/nonexistent CARRY=/nonexistent bench/device --dry-run "$name" 2>&1) ||
    miss "bench/device --dry-run $name: exit $?: $said"
  grep -q "^scenario $name: ." <<<"$said" || miss "bench/device --dry-run $name: no question said"
done
docs=(README.md CONTRIBUTING.md bench/README.md)
for f in docs/*.md; do [ "$f" = docs/PERFORMANCE.md ] || docs+=("$f"); done
for name in $(grep -oh 'bench/device [a-z][a-z-]*' "${docs[@]}" | cut -d' ' -f2 | sort -u); do
  [ "$name" = list ] || [ -f "bench/scenarios/$name.sh" ] || miss "the documents name 'bench/device $name': no such scenario"
done
for path in $(grep -oh 'bench/[a-z][a-z0-9-]*\.sh' "${docs[@]}" | sort -u); do
  [ -f "$path" ] || miss "the documents name $path: not in the tree"
done
# PERFORMANCE.md's current state (above its log) reproduces with today's commands.
current=$(sed -n '/^## Current state/,/^## The log/p' docs/PERFORMANCE.md)
for name in $(grep -o 'bench/device [a-z][a-z-]*' <<<"$current" | cut -d' ' -f2 | sort -u); do
  [ -f "bench/scenarios/$name.sh" ] || miss "PERFORMANCE.md's current state: no scenario '$name'"
done
for path in $(grep -o 'bench/[a-z][a-z0-9-]*\.\(sh\|py\)' <<<"$current" | sort -u); do
  [ -f "$path" ] || miss "PERFORMANCE.md's current state names $path: not in the tree"
done
[ $misses = 0 ] || exit 1
echo "bench: every script parses, every scenario says its plan, every command named exists"
