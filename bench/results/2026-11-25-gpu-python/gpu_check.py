"""The module on the GPU without SciPy: apsp.floyd_warshall / apsp.solve against a NumPy
Floyd-Warshall (float64 and int32, random graphs, predecessors, a negative cycle), then timings
of apsp.floyd_warshall on dense float64 graphs (one warm-up call, then RUNS timed, median).

    PYTHONPATH=<build>/python python3 gpu_check.py [RUNS] [V ...]
"""

import statistics
import sys
import time

import numpy as np

import apsp


def reference(n, src, dst, w):
    d = np.full((n, n), np.inf)
    np.minimum.at(d, (src, dst), w.astype(np.float64))
    np.fill_diagonal(d, 0.0)
    for k in range(n):
        np.minimum(d, d[:, k, None] + d[None, k, :], out=d)
    return d


def check_tree(dist, pred, w, none):
    n = dist.shape[0]
    for i in range(n):
        for j in range(n):
            if i == j or np.isinf(dist[i, j]):
                assert pred[i, j] == none, (i, j, pred[i, j])
                continue
            length, v, steps = 0.0, j, 0
            while v != i:
                u = pred[i, v]
                length += w[u, v]
                v, steps = u, steps + 1
                assert steps < n
            assert abs(length - dist[i, j]) <= 1e-9 * max(1.0, abs(dist[i, j]))


def correctness():
    rng = np.random.default_rng(20261125)
    checked = 0
    for n, density in ((1, 1.0), (7, 0.5), (65, 0.1), (130, 0.05), (257, 0.02)):
        mask = rng.random((n, n)) < density
        src, dst = np.nonzero(mask)
        wf = rng.uniform(0.5, 100.0, size=src.size)
        wi = rng.integers(0, 1001, size=src.size)
        ref_f = reference(n, src, dst, wf)
        ref_i = reference(n, src, dst, wi)
        d, p = apsp.solve(src, dst, wf, n, dtype="float64", predecessors=True)
        assert np.allclose(d, ref_f, rtol=1e-12, atol=0) and np.array_equal(np.isinf(d), np.isinf(ref_f))
        lightest = np.full((n, n), np.inf)
        np.minimum.at(lightest, (src, dst), wf)
        check_tree(d, p, lightest, -1)  # native rows: -1 for none
        di = apsp.solve(src, dst, wi, n, dtype="int32")
        assert di.dtype == np.int32
        finite = np.isfinite(ref_i)
        assert np.array_equal(di[finite], ref_i[finite].astype(np.int32))
        assert np.all(di[~finite] == (1 << 30) - 1)
        dense = np.zeros((n, n))
        dense[src, dst] = wf  # duplicates cannot occur from np.nonzero
        dd, dp = apsp.floyd_warshall(dense, return_predecessors=True)
        assert np.allclose(dd, ref_f, rtol=1e-12, atol=0) and np.array_equal(np.isinf(dd), np.isinf(ref_f))
        check_tree(dd, dp, lightest, -9999)  # SciPy's form: -9999 for none
        checked += 1
    try:
        apsp.solve([0, 1, 2], [1, 2, 0], [1.0, -5.0, 1.0], 3)
        raise AssertionError("no NegativeCycleError")
    except apsp.NegativeCycleError as e:
        print("negative cycle:", e)
    print("correctness: %d graph sizes OK (float64 + predecessors, int32, dense)" % checked)


def timings(runs, sizes):
    rng = np.random.default_rng(1)
    apsp.floyd_warshall(rng.uniform(1.0, 1000.0, size=(256, 256)))  # warm-up
    for v in sizes:
        dense = rng.uniform(1.0, 1000.0, size=(v, v))
        seconds = []
        for _ in range(runs):
            start = time.perf_counter()
            apsp.floyd_warshall(dense)
            seconds.append(time.perf_counter() - start)
        median = statistics.median(seconds)
        print("apsp.floyd_warshall dense float64 V=%d runs=%s median %.4f s (%.2f G updates/s)"
              % (v, " ".join("%.4f" % s for s in seconds), median, v**3 / median / 1e9))


if __name__ == "__main__":
    print("apsp.config():", apsp.config())
    print("numpy", np.__version__, "python", sys.version.split()[0])
    correctness()
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    timings(runs, [int(a) for a in sys.argv[2:]] or [2000, 4000])
