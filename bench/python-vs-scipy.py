"""The Python module against SciPy on one machine, in one run (a benchmark, never a test):
apsp.floyd_warshall vs scipy.sparse.csgraph.floyd_warshall on a dense float64 graph, and the
native solve() in int32, float32 and float64 on the same integer-weighted graph (the float32 /
int32 rate ratio, and the result's bytes against SciPy's float64 matrix).

    PYTHONPATH=build/openmp/python /usr/bin/python3 bench/python-vs-scipy.py [V] [RUNS]

Prints one line per measurement (best and median seconds of RUNS, rate V^3 / s) and the ratios.
"""

import statistics
import sys
import time

import numpy as np
import scipy
import scipy.sparse.csgraph as csgraph

import apsp


def timed(f, runs):
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        seconds.append(time.perf_counter() - start)
    return result, min(seconds), statistics.median(seconds)


def main():
    v = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rng = np.random.default_rng(1)
    dense = rng.uniform(1.0, 1000.0, size=(v, v))  # density 1, real weights
    print("apsp", apsp.config())
    print("numpy %s, scipy %s, V = %d, runs = %d" % (np.__version__, scipy.__version__, v, runs))

    ours, best, median = timed(lambda: apsp.floyd_warshall(dense), runs)
    print("apsp.floyd_warshall  float64  best %.3f s  median %.3f s  %.2f G/s"
          % (best, median, v**3 / median / 1e9))
    theirs, sbest, smedian = timed(lambda: csgraph.floyd_warshall(dense), 1)
    print("scipy floyd_warshall float64  best %.3f s  median %.3f s  %.2f G/s"
          % (sbest, smedian, v**3 / smedian / 1e9))
    scale = np.maximum(np.abs(theirs), np.finfo(np.float64).tiny)  # the diagonal is 0 in both
    print("max relative difference %.2e; speedup (medians) %.1fx"
          % (float(np.max(np.abs(ours - theirs) / scale)), smedian / median))

    integer = np.floor(dense)
    src, dst = np.nonzero(integer)
    w = integer[src, dst]
    rates = {}
    for dtype in ("int32", "float32", "float64"):
        d, best, median = timed(lambda: apsp.solve(src, dst, w, v, dtype=dtype), runs)
        rates[dtype] = v**3 / median
        print("apsp.solve %-8s best %.3f s  median %.3f s  %.2f G/s  result %d MB"
              % (dtype, best, median, rates[dtype] / 1e9, d.nbytes // 2**20))
    print("float32 / int32 rate %.2f; float32 result %d MB against SciPy's float64 %d MB"
          % (rates["float32"] / rates["int32"], v * v * 4 // 2**20, theirs.nbytes // 2**20))


if __name__ == "__main__":
    main()
