#!/usr/bin/env bash
# app_folders.sh SRC_DIR
# The application's folders include one way: cli, python -> run -> plan, verify -> platform -> io
# (and each folder itself; all of them the algorithm layer, <apsp/...>): a run is planned, then
# made; a check (verify) trusts no plan and no run. Prints each include against that order and
# fails when there is one, so that no circle of includes between folders comes back.
# The command line (cli) is a user of the library like any other: it includes the public headers
# of the algorithm layer, never its internals (<apsp/detail/...>).
set -euo pipefail
[[ $# -eq 1 && -d $1 ]] || { echo "usage: app_folders.sh SRC_DIR" >&2; exit 2; }
declare -A allowed=(
  [io]="io"
  [platform]="platform io"
  [plan]="plan platform io"
  [verify]="verify platform io"
  [run]="run plan verify platform io"
  [cli]="run plan verify platform io"
  [python]="run plan verify platform io"
)
bad=0
for folder in "${!allowed[@]}"; do
  [[ -d $1/$folder ]] || continue
  while IFS= read -r hit; do
    target=${hit#*#include \"}
    target=${target%%/*}
    [[ " ${allowed[$folder]} " == *" $target "* ]] && continue
    echo "$hit"
    bad=1
  done < <(grep -rnE '^#include "(io|plan|run|verify|platform|cli|python)/' "$1/$folder" || true)
done
if [[ $bad -ne 0 ]]; then
  echo "app_folders: the includes above go against cli, python -> run -> plan, verify -> platform" \
    "-> io" >&2
  exit 1
fi
if [[ -d $1/cli ]] && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<apsp/detail/' "$1/cli"; then
  echo "app_folders: the command line includes the library's internals above (apsp/detail/)" >&2
  exit 1
fi
echo "app_folders: every include of src/ goes cli, python -> run -> plan, verify -> platform -> io;" \
  "cli includes no apsp/detail/"
