#!/usr/bin/env bash
# `pip install --no-build-isolation .` from the checkout into a fresh virtual environment
# (python3 -m venv --system-site-packages: NumPy from the system), as README.md says, against the
# build tree BUILD (APSP_BUILD_DIR: its apsp_python, already built by the test command, is not
# compiled again); then, outside the tree, `import apsp` finds the installed package, which
# answers, and NetworkX finds its backend by the installed entry points. pip builds in the tree it
# is given: a copy of the files the build reads, so the checkout stays as it was (and may be
# read-only). Skipped (77) where PYTHON has no venv, pip or setuptools (python3-venv,
# python3-pip, python3-setuptools: scripts/bootstrap-deps installs them), or its venv no NumPy.
#   run.sh PYTHON SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
python=$1 source=$2 build=$3 work=$4
if ! "$python" -c 'import ensurepip, venv, setuptools' 2>/dev/null; then
  echo "skipped: $python has no venv, ensurepip or setuptools" >&2
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/tree/src/python"
cp "$source/pyproject.toml" "$source/setup.py" "$source/CMakeLists.txt" "$work/tree/"
cp -r "$source/src/python/apsp" "$work/tree/src/python/"
"$python" -m venv --system-site-packages "$work/venv"
# A PYTHON that is itself a virtual environment hands the new one the base interpreter's
# packages, not its own: without NumPy there, pip would look for it on an index.
if ! "$work/venv/bin/python" -c 'import numpy' 2>/dev/null; then
  echo "skipped: a venv of $python does not see NumPy (is $python itself a virtual environment?)" >&2
  exit 77
fi
(cd "$work/tree" && APSP_BUILD_DIR=$build "$work/venv/bin/pip" install --no-build-isolation \
  --no-index --no-cache-dir --quiet .) || { echo "pip install failed" >&2; exit 1; }
cd "$work"
env -u PYTHONPATH "$work/venv/bin/python" - "$work/venv" <<'PY'
import sys
from importlib.metadata import entry_points, version

import numpy as np

import apsp

venv = sys.argv[1]
assert apsp.__file__.startswith(venv), "imported from %s, not the environment" % apsp.__file__
assert version("apsp") == apsp.__version__, (version("apsp"), apsp.__version__)
d = apsp.solve(np.array([0, 1]), np.array([1, 2]), np.array([1.0, 2.0]), 3)
assert d.tolist() == [[0, 1, 3], [2**30 - 1, 0, 2], [2**30 - 1, 2**30 - 1, 0]], d
names = [e.name for e in entry_points().select(group="networkx.backends")] \
    if hasattr(entry_points(), "select") else [e.name for e in entry_points()["networkx.backends"]]
assert "apsp" in names, names
print("pip install: apsp %s at %s answers" % (apsp.__version__, apsp.__file__))
PY
