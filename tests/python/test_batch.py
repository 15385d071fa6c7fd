"""Many graphs in one call (apsp.solve_batch, 3-D arrays in apsp.floyd_warshall and
apsp.shortest_path): every slice against SciPy and against apsp's own single-graph calls
(bitwise, predecessors included); sizes 0..200 mixed in one batch, disconnected graphs, negative
weights, a negative cycle among good graphs, the errors."""

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

import apsp

RNG = np.random.default_rng(20261125)


def random_dense(n, density, low=1.0, high=100.0, integer=False):
    w = RNG.uniform(low, high, size=(n, n))
    if integer:
        w = np.floor(w)
    w[RNG.random((n, n)) >= density] = 0.0
    return w


def potential(w):
    """Negative weights without negative cycles: w + p(i) - p(j) on the edges of w."""
    p = RNG.uniform(0, 40, size=w.shape[0])
    edge = w != 0
    out = np.where(edge, w + p[:, None] - p[None, :], 0.0)
    out[edge & (out == 0)] = 1e-3
    return out


@pytest.mark.parametrize("n", [1, 7, 30, 64, 150])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("kind", ["real", "integer", "unweighted", "negative"])
def test_3d_every_slice_is_scipys_and_the_single_calls(n, directed, kind):
    count = 4 if n < 100 else 2
    graphs = []
    for g in range(count):
        density = 0.0 if g == 1 else (0.05 if n > 20 else 0.3)  # slice 1: no edges at all
        w = random_dense(n, density, integer=kind in ("integer", "unweighted"))
        graphs.append(potential(w) if kind == "negative" and directed else w)
    batch = np.stack(graphs)
    options = dict(directed=directed, unweighted=kind == "unweighted")
    dist, pred = apsp.floyd_warshall(batch, return_predecessors=True, **options)
    assert dist.shape == pred.shape == (count, n, n)
    assert dist.dtype == np.float64 and pred.dtype == np.int32
    for g in range(count):
        expected = csgraph.floyd_warshall(batch[g], **options)
        np.testing.assert_allclose(dist[g], expected, rtol=1e-12, atol=1e-9)
        single, single_pred = apsp.floyd_warshall(batch[g], return_predecessors=True, **options)
        if kind != "real" and kind != "negative":
            assert np.array_equal(dist[g], single)  # whole numbers: exact, bitwise
        np.testing.assert_allclose(dist[g], single, rtol=1e-12, atol=1e-9)
        if np.array_equal(dist[g], single):  # real weights sum alike below 128 vertices
            assert np.array_equal(pred[g], single_pred)
    rows = [0, n - 1]
    short = apsp.shortest_path(batch, indices=rows, **options)
    assert np.array_equal(short, dist[:, rows, :])


def test_3d_negative_cycle_names_the_graph():
    batch = np.stack([random_dense(12, 0.3) for _ in range(5)])
    batch[3, 4, 5], batch[3, 5, 4] = -5.0, 1.0
    batch[4, 1, 2], batch[4, 2, 1] = -5.0, 1.0
    with pytest.raises(apsp.NegativeCycleError) as error:
        apsp.floyd_warshall(batch)
    assert error.value.graph == 3 and 0 <= error.value.vertex <= 4
    assert "graph 3" in str(error.value)
    assert isinstance(error.value, csgraph.NegativeCycleError)


def mixed_batch(sizes, integer=True, negative=False, density=0.1):
    """Random graphs of the given sizes in the concatenated numbering (no self-loops)."""
    src, dst, weight, first = [], [], [], 0
    for n in sizes:
        if n:
            m = RNG.random((n, n)) < (0.005 if n % 3 == 0 else density)  # some nearly empty
            np.fill_diagonal(m, False)
            a, b = np.nonzero(m)
            w = RNG.integers(0, 100, a.size).astype(float) if integer else RNG.uniform(0, 100, a.size)
            if negative:
                p = RNG.integers(0, 40, n)
                w = w + p[a] - p[b]
            src.append(a + first)
            dst.append(b + first)
            weight.append(w)
        first += n
    cat = lambda parts, dtype: np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)
    return np.array(sizes), cat(src, np.int64), cat(dst, np.int64), cat(weight, np.float64)


def graph_of(sizes, src, dst, weight, g):
    first = int(np.sum(sizes[:g]))
    keep = (src >= first) & (src < first + sizes[g])
    return src[keep] - first, dst[keep] - first, weight[keep]


SIZES = [0, 1, 2, 3, 17, 0, 30, 60, 64, 65, 100, 129, 200, 5, 45]


@pytest.mark.parametrize("dtype", ["int32", "float64"])
@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("directed", [True, False])
def test_solve_batch_equals_the_single_graph_solver(dtype, negative, directed):
    sizes, src, dst, weight = mixed_batch(SIZES, negative=negative and directed)
    dist, pred = apsp.solve_batch(sizes, src, dst, weight, dtype=dtype, directed=directed,
                                  predecessors=True)
    ragged = apsp.solve_batch(sizes, src, dst, weight, dtype=dtype, directed=directed,
                              predecessors=True, layout="ragged")
    nmax = max(SIZES)
    assert dist.shape == pred.shape == (len(SIZES), nmax, nmax) and dist.dtype == np.dtype(dtype)
    infinity = np.inf if dtype == "float64" else 2 ** 30 - 1
    for g, n in enumerate(SIZES):
        if n == 0:
            continue
        a, b, w = graph_of(sizes, src, dst, weight, g)
        if not directed:
            a, b, w = np.concatenate([a, b]), np.concatenate([b, a]), np.concatenate([w, w])
        single, single_pred = apsp.solve(a, b, w, n, dtype=dtype, predecessors=True)
        single_pred = np.where(single_pred < 0, -9999, single_pred)
        assert np.array_equal(dist[g, :n, :n], single), "graph %d" % g
        assert np.array_equal(pred[g, :n, :n], single_pred), "graph %d" % g
        assert np.all(dist[g, n:, :] == infinity) and np.all(dist[g, :, n:] == infinity)
        assert np.all(pred[g, n:, :] == -9999) and np.all(pred[g, :, n:] == -9999)
        assert np.array_equal(ragged.distances(g), single)
        assert np.array_equal(ragged.predecessors_of(g), single_pred)
    assert ragged.values.size == sum(n * n for n in SIZES)


def test_solve_batch_unweighted_is_scipys_hop_counts():
    sizes, src, dst, _ = mixed_batch([10, 0, 33, 60, 1])
    dist = apsp.solve_batch(sizes, src, dst, directed=False)
    for g, n in enumerate(sizes):
        if n == 0:
            continue
        a, b, _ = graph_of(sizes, src, dst, np.ones(src.size), g)
        m = np.zeros((n, n))
        m[a, b] = 1
        expected = csgraph.floyd_warshall(m, directed=False, unweighted=True)
        assert np.array_equal(dist[g, :n, :n], expected)


def test_solve_batch_real_weights_are_scipys():
    sizes, src, dst, weight = mixed_batch([12, 40, 140], integer=False)
    for dtype, rtol in (("float64", 1e-12), ("float32", 1e-5)):
        dist = apsp.solve_batch(sizes, src, dst, weight, dtype=dtype, layout="ragged")
        for g, n in enumerate(sizes):
            a, b, w = graph_of(sizes, src, dst, weight, g)
            m = np.full((n, n), np.inf)
            np.minimum.at(m, (a, b), w)
            m[np.isinf(m)] = 0
            expected = csgraph.floyd_warshall(m)
            np.testing.assert_allclose(dist.distances(g), expected, rtol=rtol)


def test_solve_batch_negative_cycle_names_the_first_bad_graph():
    sizes, src, dst, weight = mixed_batch([10, 20, 150, 8, 30], negative=True)
    firsts = np.concatenate([[0], np.cumsum(sizes)])
    extra_src = [firsts[2] + 3, firsts[2] + 4, firsts[4] + 1, firsts[4] + 2]
    extra_dst = [firsts[2] + 4, firsts[2] + 3, firsts[4] + 2, firsts[4] + 1]
    with pytest.raises(apsp.NegativeCycleError) as error:
        apsp.solve_batch(sizes, np.append(src, extra_src), np.append(dst, extra_dst),
                         np.append(weight, [-1000, 1, -1000, 1]))
    assert error.value.graph == 2 and "graph 2" in str(error.value)


def test_solve_batch_errors():
    with pytest.raises(ValueError, match=r"edge 1 \(2 -> 3\) joins graph 0 and graph 1"):
        apsp.solve_batch([3, 2], [0, 2], [1, 3])
    with pytest.raises(ValueError, match="outside"):
        apsp.solve_batch([3, 2], [0], [5])
    with pytest.raises(ValueError, match="graph 1 has -1 vertices"):
        apsp.solve_batch([3, -1], [], [])
    with pytest.raises(ValueError, match="whole-number"):
        apsp.solve_batch([3], [0], [1], [0.5], dtype="int32")
    with pytest.raises(ValueError, match="layout"):
        apsp.solve_batch([3], [0], [1], layout="jagged")
    with pytest.raises(MemoryError, match="needs"):
        apsp.solve_batch([1, 3_000_000], [], [])  # padded: 2 x 3e6^2 distances
    empty = apsp.solve_batch([], [], [])
    assert empty.shape == (0, 0, 0)


@pytest.mark.parametrize("count", [1, 3])
def test_batches_of_empty_graphs_only(count):
    """B graphs without vertices: (B, 0, 0) results in every dtype and layout, as B = 0 and
    ragged batches give (a padded batch of them was a crash)."""
    sizes = [0] * count
    for dtype, kind in (("float64", np.float64), ("float32", np.float32), ("int32", np.int32),
                        ("auto", np.int32)):
        dist = apsp.solve_batch(sizes, [], [], dtype=dtype)
        assert dist.shape == (count, 0, 0) and dist.dtype == kind
        dist, pred = apsp.solve_batch(sizes, [], [], dtype=dtype, predecessors=True)
        assert dist.shape == pred.shape == (count, 0, 0) and pred.dtype == np.int32
        ragged = apsp.solve_batch(sizes, [], [], dtype=dtype, layout="ragged")
        assert ragged.values.size == 0 and list(ragged.offsets) == [0] * (count + 1)
    for negative in (False, True):  # a negative weight elsewhere than these graphs: none
        dist = apsp.solve_batch(sizes + [2], [0], [1], [-1.5 if negative else 1.5])
        assert dist.shape == (count + 1, 2, 2)
        assert np.all(np.isinf(dist[:count])) and dist[count, 0, 1] == (-1.5 if negative else 1.5)
    for predecessors in (False, True):
        result = apsp.floyd_warshall(np.zeros((count, 0, 0)), return_predecessors=predecessors)
        for array in result if predecessors else (result,):
            assert array.shape == (count, 0, 0)
        assert apsp.shortest_path(np.zeros((count, 0, 0))).shape == (count, 0, 0)


def test_one_small_call_is_the_batch_slice():
    """apsp.floyd_warshall on one small graph (the caller's-thread path) equals the batch."""
    w = random_dense(40, 0.1)
    alone, alone_pred = apsp.floyd_warshall(w, return_predecessors=True)
    dist, pred = apsp.floyd_warshall(w[None], return_predecessors=True)
    assert np.array_equal(alone, dist[0]) and np.array_equal(alone_pred, pred[0])
    np.testing.assert_allclose(alone, csgraph.floyd_warshall(w), rtol=1e-12)


def test_solve_batch_float32_takes_float64s_word_on_a_negative_cycle():
    """A float32 batch gives the single-graph solver's verdict where float32 rounding makes or
    hides a negative cycle (negative_cycles.hpp): float64 decides, per graph, and the error says
    which; where the single solver finds none, the batch returns its distances."""
    graphs = {"made": (3, [0, 1, 2], [1, 2, 0], [0.1, 0.2, -0.3]),
              "hid": (2, [0, 1], [1, 0], [1.0, -1.0000000000000002])}
    for name, (n, src, dst, w) in graphs.items():
        single = outcome(lambda: apsp.solve(src, dst, w, n, dtype="float32", algorithm="fw"))
        # Graph 1 of the batch: a good graph of 2 vertices first.
        batch = outcome(lambda: apsp.solve_batch(
            [2, n], [0] + [s + 2 for s in src], [1] + [d + 2 for d in dst], [0.5] + w,
            dtype="float32"))
        assert name == "made" or isinstance(single, apsp.NegativeCycleError), name
        if not isinstance(single, apsp.NegativeCycleError):
            assert np.array_equal(batch[1, :n, :n], single), (name, batch)
            continue
        assert isinstance(batch, apsp.NegativeCycleError), (name, batch)
        words = "float32 rounding %s" % ("made it" if "made it" in str(single) else "hid")
        assert words in str(single), str(single)
        assert batch.graph == 1, (name, str(batch))
        # A cycle that double confirms is named by the one rule (negative_cycles.hpp); one that
        # only float32's sums make has no vertex in double: each kernel names one on the cycle
        # its own order of sums closed (every vertex here: the graph is the cycle).
        if name == "hid":
            assert batch.vertex == single.vertex, (name, str(batch))
        else:
            assert 0 <= batch.vertex < n, (name, str(batch))
        assert words in str(batch) and "graph 1" in str(batch), str(batch)


def outcome(call):
    """What call() returns, or the NegativeCycleError it raises."""
    try:
        return call()
    except apsp.NegativeCycleError as error:
        return error


def test_the_sparse_thresholds_are_the_command_lines():
    """A dense input goes to the solver as edges (where auto may order it) by the command line's
    thresholds for considering supernodal Floyd-Warshall, which the module exposes from C++."""
    assert apsp._SPARSE_MIN_VERTICES == apsp._native.SUPERNODAL_MIN_VERTICES == 1024
    assert apsp._SPARSE_MAX_DEGREE == apsp._native.SUPERNODAL_MAX_DEGREE == 16
