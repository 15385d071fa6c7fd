"""Importing the module when Kokkos cannot start its backend (a GPU build on a node without the
GPU, a CUDA runtime under an address-space limit): an ImportError of one line that names the
backend, never Kokkos' own lines (its error, the source file that saw it, a "Traceback" line).
Kokkos 3 refuses KOKKOS_NUM_THREADS=abc as it starts with such an exception, on every backend
(later versions abort, which no program can word)."""

import ast
import os
import subprocess
import sys

import pytest

import apsp

KOKKOS_MAJOR = int(apsp.config()["kokkos_version"].split(".")[0])

CODE = """
try:
    import apsp
except ImportError as e:
    print(repr(str(e)))
else:
    print("started")
"""


@pytest.mark.skipif(KOKKOS_MAJOR >= 4, reason="Kokkos 4 and later abort at KOKKOS_NUM_THREADS=abc")
def test_a_backend_that_cannot_start_is_one_line():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, KOKKOS_NUM_THREADS="abc"))
    assert out.returncode == 0 and out.stdout != "started\n", out.stdout + out.stderr
    message = ast.literal_eval(out.stdout)
    assert message.startswith("apsp: Kokkos could not start the "), message
    assert "KOKKOS_NUM_THREADS" in message and "\n" not in message, message
