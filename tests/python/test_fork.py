"""The module in forked children (os.fork, multiprocessing's default start method on Linux): each
case runs in its own interpreter under a timeout, since the failure this guards against is a
hang (the child waiting for the parent's worker thread, at a call or at exit). On a host backend
a child computes; on a device backend (a CUDA context does not survive fork) it raises a
RuntimeError naming 'spawn'. Either way it ends."""

import os
import signal
import subprocess
import sys

import pytest

import apsp

TIMEOUT = 60  # seconds; each case takes about one interpreter start (under 1 s here)
HOST = apsp.config()["backend"] in ("serial", "openmp")
# The children solve float64 (floyd_warshall's type), which a checking build may not compile.
pytestmark = pytest.mark.skipif("float64" not in apsp.config()["dtypes"],
                                reason="float64 is not compiled into this build")

# SIGUSR1 prints every thread's Python stack to stderr (faulthandler: a signal handler, which a
# forked child keeps harmlessly, where a timer's thread would hang the child's exit): a case that
# hangs is sent it (its children too) before it is killed, and fails with where they waited.
PRELUDE = """
import faulthandler, multiprocessing, os, signal, sys
faulthandler.register(signal.SIGUSR1, all_threads=True)
import numpy as np
import apsp
# Three vertices that matter among 200: graphs of at most 128 vertices are solved on the
# caller's thread without Kokkos (batch.cpp), which works in any child; these go to the worker.
G = np.zeros((200, 200))
G[:3, :3] = [[0, 1.5, 0], [0, 0, 2.0], [4.0, 0, 0]]
WANT = [[0, 1.5, 3.5], [6.0, 0, 2.0], [4.0, 5.5, 0]]

def solve(k):
    try:
        return apsp.floyd_warshall(G * (k + 1))[:3, :3].tolist()
    except RuntimeError as e:
        assert "'spawn'" in str(e), e
        return "spawn"

def check(result, k=0):
    assert result == "spawn" or result == (np.array(WANT) * (k + 1)).tolist(), result
    return result

def in_child(body):
    pid = os.fork()
    if pid == 0:
        try:
            body()
        except BaseException as e:
            print("child:", repr(e), flush=True)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, status
"""


def run_case(body):
    """Runs PRELUDE + body in a new session; a hang kills the session (forked children too).
    Unbuffered (-u): a child's print reaches the pipe before os._exit, and no child writes out
    what its parent had buffered before the fork, whatever PYTHONUNBUFFERED says."""
    p = subprocess.Popen([sys.executable, "-u", "-c", PRELUDE + body], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGUSR1)
        try:
            p.communicate(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        os.killpg(p.pid, signal.SIGKILL)
        stdout, stderr = p.communicate()
        pytest.fail("hung (no end within %d s); its output and stacks:\n%s\n%s" %
                    (TIMEOUT, stdout, stderr))
    assert p.returncode == 0, stdout + stderr
    return stdout.split()


def test_child_computes_before_and_after_the_parents_first_call():
    out = run_case("""
in_child(lambda: print(check(solve(0)) != "spawn"))   # the parent never called
check(solve(1), 1)
in_child(lambda: print(check(solve(2), 2) != "spawn"))  # after a call in the parent
in_child(lambda: in_child(lambda: print(check(solve(3), 3) != "spawn")))  # a grandchild
check(solve(4), 4)  # the parent still works
print("parent done")
""")
    assert out == [str(HOST)] * 3 + ["parent", "done"]


def test_fork_pool_of_workers():
    out = run_case("""
check(solve(0))
with multiprocessing.get_context("fork").Pool(3) as pool:
    results = pool.map(solve, range(8))
for k, r in enumerate(results):
    check(r, k)
print(sum(r != "spawn" for r in results))
""")
    assert out == [str(8 if HOST else 0)]


def test_child_that_never_calls_exits():
    """A child that ends through sys.exit runs the atexit handlers the parent registered."""
    out = run_case("""
for first_call in (False, True):
    if first_call:
        check(solve(0))
    pid = os.fork()
    if pid == 0:
        sys.exit(7)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status))
""")
    assert out == ["7", "7"]


def test_child_that_called_exits_and_the_parent_too():
    out = run_case("""
pid = os.fork()
if pid == 0:
    check(solve(1), 1)
    sys.exit(3)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
""")
    assert out == ["3"]


def test_fork_while_another_thread_solves():
    """The fork waits for the running call; the child computes, the thread's result is right."""
    out = run_case("""
import threading, time
big = np.where(np.random.default_rng(1).random((1000, 1000)) < 0.01, 1.0, 0.0)
result = {}
t = threading.Thread(target=lambda: result.setdefault("d", apsp.floyd_warshall(big)))
t.start()
time.sleep(0.05)
in_child(lambda: check(solve(5), 5))
t.join()
assert np.array_equal(result["d"], apsp.floyd_warshall(big))
print("ok")
""")
    assert out == ["ok"]
