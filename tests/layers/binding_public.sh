#!/usr/bin/env bash
# binding_public.sh PYTHON_SRC_DIR
# The Python binding is thin (src/python): it calls the library's public API, never an
# internal of it (`detail::`, apsp::batched::detail:: included), so that what the module does
# a user of the installed library can do too. Prints each such call and fails when there is one.
set -euo pipefail
[[ $# -eq 1 && -d $1 ]] || { echo "usage: binding_public.sh PYTHON_SRC_DIR" >&2; exit 2; }
if grep -rnE --include='*.cpp' --include='*.hpp' '\bdetail::' "$1"; then
  echo "binding_public: the lines above reach into the library's internals (detail::)" >&2
  exit 1
fi
echo "binding_public: $1 calls only the library's public API"
