"""Many small graphs (issue 27): the batched solver against loops over SciPy's and apsp's
floyd_warshall, in one process (a benchmark, never a test).

    PYTHONPATH=build/openmp/python /usr/bin/python3 bench/batched-vs-scipy.py \
        [--graphs 100000] [--loop-graphs N] [--graphs-3d 10000] [--single 2000] [--runs 3]

Data: GRAPHS molecule-like graphs, each a random tree on n = 10..60 vertices plus n/8 extra
edges, unweighted and undirected (``unweighted=True, directed=False``), float64 results
(SciPy's defaults). Measured, end to end from NumPy to NumPy:
  - loops over scipy.sparse.csgraph.floyd_warshall and apsp.floyd_warshall, one dense (n, n)
    adjacency per call, over the first N graphs (default all; fewer: the per-graph time times
    GRAPHS, said so);
  - apsp.solve_batch on the PyG-style edge list (sizes, global src/dst), ragged and padded;
  - apsp.floyd_warshall on one (B, 60, 60) padded adjacency array of the first GRAPHS_3D graphs
    (SciPy's semantics per slice: the padding vertices are isolated; 100,000 such slices are
    2.9 GB, and the SciPy-convention preparation copies them twice);
  - one small graph per call: SciPy's and apsp's calls interleaved on the same SINGLE graphs,
    the medians of the per-call times.
Every apsp result is checked against SciPy's on the looped graphs. The machine may be shared:
compare the ratios, which come from one run.
"""

import argparse
import statistics
import time

import numpy as np
import scipy
import scipy.sparse.csgraph as csgraph

import apsp


def molecules(count, seed=27):
    """sizes, and per graph its undirected edge list (a, b) in its own numbering."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(10, 61, size=count)
    graphs = []
    for n in sizes:
        n = int(n)
        child = np.arange(1, n)
        parent = (rng.random(n - 1) * child).astype(np.int64)  # a random earlier vertex
        extra = rng.integers(0, n, size=(n // 8, 2))
        extra = extra[extra[:, 0] != extra[:, 1]]
        a = np.concatenate([child, extra[:, 0]])
        b = np.concatenate([parent, extra[:, 1]])
        graphs.append((a, b))
    return sizes.astype(np.int64), graphs


def dense(n, edges):
    a, b = edges
    m = np.zeros((n, n))
    m[a, b] = 1.0
    return m


def timed(f):
    start = time.perf_counter()
    result = f()
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graphs", type=int, default=100000)
    parser.add_argument("--loop-graphs", type=int, default=0)
    parser.add_argument("--graphs-3d", type=int, default=10000)
    parser.add_argument("--single", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    count = args.graphs
    loop = args.loop_graphs or count
    print("apsp", apsp.config())
    print("numpy %s, scipy %s; %d graphs, loops over %d, %d single calls, %d batch runs"
          % (np.__version__, scipy.__version__, count, loop, args.single, args.runs))

    sizes, graphs = molecules(count)
    matrices = [dense(int(n), e) for n, e in zip(sizes, graphs)]
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    src = np.concatenate([e[0] + f for e, f in zip(graphs, first)])
    dst = np.concatenate([e[1] + f for e, f in zip(graphs, first)])
    nmax = int(sizes.max())
    count3d = min(args.graphs_3d, count)
    stacked = np.zeros((count3d, nmax, nmax))
    for g, m in enumerate(matrices[:count3d]):
        stacked[g, :m.shape[0], :m.shape[0]] = m
    print("mean n %.1f, %d undirected edges, %d distances (ragged), %d (padded)"
          % (sizes.mean(), src.size, int(np.sum(sizes ** 2)), count * nmax * nmax))

    options = dict(directed=False, unweighted=True)
    expected, scipy_loop = timed(
        lambda: [csgraph.floyd_warshall(m, **options) for m in matrices[:loop]])
    ours, apsp_loop = timed(lambda: [apsp.floyd_warshall(m, **options) for m in matrices[:loop]])
    for g in range(loop):
        assert np.array_equal(ours[g], expected[g]), "apsp.floyd_warshall differs on graph %d" % g
    del ours
    scale = count / loop
    note = "" if loop == count else " (%d graphs timed, x %.1f)" % (loop, scale)
    print("loop scipy.floyd_warshall  %8.3f s  %7.1f us/graph%s"
          % (scipy_loop * scale, 1e6 * scipy_loop / loop, note))
    print("loop apsp.floyd_warshall   %8.3f s  %7.1f us/graph%s"
          % (apsp_loop * scale, 1e6 * apsp_loop / loop, note))

    def best_of(f):
        times = []
        for _ in range(args.runs):
            result, seconds = timed(f)
            times.append(seconds)
        return result, min(times), statistics.median(times)

    ragged, best, med = best_of(lambda: apsp.solve_batch(
        sizes, src, dst, directed=False, layout="ragged"))
    for g in range(loop):
        assert np.array_equal(ragged.distances(g), expected[g]), "ragged differs on graph %d" % g
    print("apsp.solve_batch ragged    %8.3f s  (median %.3f)  %.1fx the SciPy loop"
          % (best, med, scipy_loop * scale / best))
    del ragged
    padded, best, med = best_of(lambda: apsp.solve_batch(sizes, src, dst, directed=False))
    for g in range(loop):
        n = int(sizes[g])
        assert np.array_equal(padded[g, :n, :n], expected[g]), "padded differs on graph %d" % g
    print("apsp.solve_batch padded    %8.3f s  (median %.3f)  %.1fx the SciPy loop"
          % (best, med, scipy_loop * scale / best))
    del padded
    batch3d, best, med = best_of(lambda: apsp.floyd_warshall(stacked, **options))
    for g in range(min(loop, count3d)):
        n = int(sizes[g])
        assert np.array_equal(batch3d[g, :n, :n], expected[g]), "3-D differs on graph %d" % g
    print("apsp.floyd_warshall 3-D    %8.3f s  (median %.3f) for %d graphs: %.1f us/graph, "
          "%.1fx the SciPy loop's" % (best, med, count3d, 1e6 * best / count3d,
                                      scipy_loop / loop * count3d / best))
    del batch3d

    # One small graph per call, interleaved (which goes first alternates), one process.
    ours_us, theirs_us = [], []
    for g in range(min(args.single, count)):
        m = matrices[g]
        calls = [(theirs_us, csgraph.floyd_warshall), (ours_us, apsp.floyd_warshall)]
        for times, f in (calls if g % 2 == 0 else calls[::-1]):
            start = time.perf_counter()
            f(m, **options)
            times.append(1e6 * (time.perf_counter() - start))
    print("one small call, median of %d: scipy %.1f us, apsp %.1f us (apsp / scipy %.2f)"
          % (len(ours_us), statistics.median(theirs_us), statistics.median(ours_us),
             statistics.median(ours_us) / statistics.median(theirs_us)))


if __name__ == "__main__":
    main()
