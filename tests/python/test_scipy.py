"""The Python module apsp against SciPy itself (scipy.sparse.csgraph) on random graphs of every
input kind: dense, masked, sparse (explicit zeros, duplicates), directed and undirected,
weighted and unweighted, negative weights and cycles, indices, predecessors; and the native
solve() in int32, float32 and float64."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.csgraph as csgraph

import apsp
from path_trees import check_paths

RNG = np.random.default_rng(20261124)


def random_dense(n, density, low=1.0, high=100.0, integer=False, rng=RNG):
    w = rng.uniform(low, high, size=(n, n))
    if integer:
        w = np.floor(w)
    w[rng.random((n, n)) >= density] = 0.0  # 0: no edge in SciPy's dense convention
    return w


def potential_reweighted(n, density, rng=RNG):
    """Negative weights without negative cycles: w + p(i) - p(j) with w >= 0."""
    w = random_dense(n, density, 0.0, 50.0, rng=rng)
    p = rng.uniform(0, 40, size=n)
    edge = w != 0
    out = np.where(edge, w + p[:, None] - p[None, :], 0.0)
    out[edge & (out == 0)] = 1e-3  # keep every edge an edge in the dense convention
    return out


def lightest(dense_graph, directed=True):
    w = np.where(dense_graph != 0, dense_graph, np.inf)
    return w if directed else np.minimum(w, w.T)


@pytest.mark.parametrize("n", [1, 2, 17, 64, 65, 150])
@pytest.mark.parametrize("density", [0.05, 0.3, 1.0])
@pytest.mark.parametrize("directed", [True, False])
def test_dense_matches_scipy(n, density, directed):
    g = random_dense(n, density)
    want = csgraph.floyd_warshall(g, directed=directed)
    got = apsp.floyd_warshall(g, directed=directed)
    assert got.dtype == np.float64 and got.shape == (n, n)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert np.array_equal(np.isinf(got), np.isinf(want))


@pytest.mark.parametrize("n", [30, 100])
def test_integer_weights_are_exact(n):
    g = random_dense(n, 0.2, integer=True)
    assert np.array_equal(apsp.floyd_warshall(g), csgraph.floyd_warshall(g))
    d, p = apsp.floyd_warshall(g, return_predecessors=True)
    check_paths(d, p, lightest(g))


def test_inf_and_nan_are_non_edges():
    g = random_dense(40, 0.3)
    g[0, 1], g[2, 3], g[4, 5] = np.inf, np.nan, 0.0
    np.testing.assert_allclose(apsp.floyd_warshall(g), csgraph.floyd_warshall(g), rtol=1e-12)


def test_masked_arrays():
    g = random_dense(50, 0.3)
    mask = g == 0
    mask[3, 7] = False  # an unmasked zero: a zero-weight edge
    m = np.ma.masked_array(g, mask=mask)
    # SciPy 1.10's floyd_warshall reads unmasked zeros as non-edges, its other methods as
    # edges (what SciPy documents, and what apsp does); compare with one of those.
    want = csgraph.shortest_path(m, method="BF")
    np.testing.assert_allclose(apsp.floyd_warshall(m), want, rtol=1e-12)
    np.testing.assert_allclose(apsp.shortest_path(m, method="D"), want, rtol=1e-12)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
def test_sparse_matrices(fmt):
    n = 80
    rows = RNG.integers(0, n, 400)
    cols = RNG.integers(0, n, 400)
    data = RNG.uniform(0, 10, 400)
    data[:20] = 0.0  # explicit zeros are edges
    coo = scipy.sparse.coo_matrix((data, (rows, cols)), shape=(n, n))  # duplicates sum in csr
    s = coo.asformat(fmt) if fmt != "coo" else coo
    want = csgraph.floyd_warshall(scipy.sparse.csr_matrix(coo))
    for directed in (True, False):
        want = csgraph.floyd_warshall(scipy.sparse.csr_matrix(coo), directed=directed)
        np.testing.assert_allclose(apsp.floyd_warshall(s, directed=directed), want, rtol=1e-12)


def test_unsummed_duplicates_take_the_lightest():
    s = scipy.sparse.csr_matrix((np.array([5.0, 3.0]), np.array([1, 1]), np.array([0, 2, 2, 2])),
                                shape=(3, 3))
    np.testing.assert_array_equal(apsp.floyd_warshall(s), csgraph.floyd_warshall(s))


@pytest.mark.parametrize("directed", [True, False])
def test_unweighted(directed):
    g = random_dense(60, 0.1)
    np.testing.assert_array_equal(apsp.floyd_warshall(g, directed=directed, unweighted=True),
                                  csgraph.floyd_warshall(g, directed=directed, unweighted=True))


@pytest.mark.parametrize("n", [20, 90])
def test_negative_weights(n):
    g = potential_reweighted(n, 0.3)
    want = csgraph.floyd_warshall(g)
    got, pred = apsp.floyd_warshall(g, return_predecessors=True)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-9)
    check_paths(got, pred, lightest(g))


def test_negative_cycles_raise():
    g = random_dense(30, 0.1)
    g[4, 9], g[9, 4] = -5.0, 2.0
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.floyd_warshall(g)
    with pytest.raises(apsp.NegativeCycleError) as caught:
        apsp.floyd_warshall(g)
    assert isinstance(caught.value, csgraph.NegativeCycleError)  # code catching SciPy's works
    # An undirected negative edge is a negative cycle.
    with pytest.raises(apsp.NegativeCycleError):
        apsp.floyd_warshall(np.array([[0.0, -1.0], [0.0, 0.0]]), directed=False)


def sparse_enough_for_johnson(n=40):
    """A graph with negative weights on which SciPy's 'auto' picks Johnson (fewer than N^2/4
    edges), no negative cycle."""
    g = potential_reweighted(n, 0.1, rng=np.random.default_rng(7))
    assert np.count_nonzero(g) < n * n / 4
    return g


@pytest.mark.parametrize("kind", ["dense", "masked", "csr", "coo"])
def test_a_negative_self_loop_is_a_negative_cycle(kind):
    """One rule, the command line's and solve()'s: a self-loop of weight >= 0 never lowers
    dist(i, i) = 0, a negative one is a negative cycle. SciPy's 'J' and 'BF' (and 'auto' where it
    picks 'J') agree; its 'FW' and 'D' ignore the diagonal (docs/USAGE.md, "Python")."""
    g = sparse_enough_for_johnson()
    g[5, 5], g[9, 9] = -0.5, 3.0

    def as_kind(dense):
        if kind == "masked":
            return np.ma.masked_array(dense, mask=dense == 0)
        if kind in ("csr", "coo"):
            return scipy.sparse.coo_matrix(dense).asformat(kind)
        return dense

    for method in ("J", "BF", "auto"):
        with pytest.raises(csgraph.NegativeCycleError):
            csgraph.shortest_path(as_kind(g), method=method)
    # The vertex named is the solver's: the smallest on a negative closed walk, as in solve().
    src, dst = np.nonzero(g)
    with pytest.raises(apsp.NegativeCycleError) as native:
        apsp.solve(src, dst, g[src, dst], g.shape[0])
    for method in ("auto", "FW", "D", "J", "BF"):
        with pytest.raises(apsp.NegativeCycleError) as caught:
            apsp.shortest_path(as_kind(g), method=method)
        assert caught.value.vertex == native.value.vertex <= 5
        with pytest.raises(apsp.NegativeCycleError):
            apsp.shortest_path(as_kind(g), method=method, directed=False)
    with pytest.raises(apsp.NegativeCycleError) as caught:
        apsp.floyd_warshall(as_kind(g), return_predecessors=True)
    assert caught.value.vertex == native.value.vertex
    # Unweighted, every edge weighs 1; a self-loop >= 0 changes nothing.
    np.testing.assert_array_equal(apsp.floyd_warshall(as_kind(g), unweighted=True),
                                  csgraph.shortest_path(g, method="FW", unweighted=True))
    g[5, 5] = 0.25
    for method in ("auto", "FW", "D", "J", "BF"):
        np.testing.assert_allclose(apsp.shortest_path(as_kind(g), method=method),
                                   csgraph.shortest_path(as_kind(g), method="J"), rtol=1e-12,
                                   atol=1e-9)


def test_predecessors_match_scipy_where_paths_are_unique():
    g = random_dense(70, 0.2)  # real weights: ties have probability 0
    d, p = apsp.floyd_warshall(g, return_predecessors=True)
    want_d, want_p = csgraph.floyd_warshall(g, return_predecessors=True)
    np.testing.assert_allclose(d, want_d, rtol=1e-12)
    np.testing.assert_array_equal(p, want_p)
    assert p.dtype == np.int32


def test_predecessors_are_trees_with_zero_weight_cycles():
    n = 60
    s = scipy.sparse.random(n, n, density=0.1, random_state=4, format="csr")
    s.data[:] = np.where(RNG.random(s.nnz) < 0.5, 0.0, np.floor(s.data * 10))  # zero weights
    d, p = apsp.floyd_warshall(s, return_predecessors=True)
    np.testing.assert_array_equal(d, csgraph.floyd_warshall(s))
    dense = s.toarray()
    weight = np.where(s.toarray() != 0, dense, np.inf)
    coo = s.tocoo()
    for u, v, w in zip(coo.row, coo.col, coo.data):
        weight[u, v] = min(weight[u, v], w) if weight[u, v] != np.inf else w
    check_paths(d, p, weight)


@pytest.mark.parametrize("method", ["auto", "FW", "D", "J", "BF"])
def test_shortest_path_methods_and_indices(method):
    g = random_dense(50, 0.2)
    want = csgraph.shortest_path(g, method=method)
    np.testing.assert_allclose(apsp.shortest_path(g, method=method), want, rtol=1e-12)
    if method == "FW":
        for f in (csgraph.shortest_path, apsp.shortest_path):
            with pytest.raises(ValueError, match="indices"):
                f(g, method=method, indices=3)
        return
    for indices in (3, [5, 1, 5], np.array([49, 0]), -1):
        w = csgraph.shortest_path(g, method=method, indices=indices)
        got = apsp.shortest_path(g, method=method, indices=indices)
        assert got.shape == w.shape
        np.testing.assert_allclose(got, w, rtol=1e-12)
    d, p = apsp.shortest_path(g, method=method, indices=[2, 7], return_predecessors=True)
    wd, wp = csgraph.shortest_path(g, method=method, indices=[2, 7], return_predecessors=True)
    np.testing.assert_allclose(d, wd, rtol=1e-12)
    np.testing.assert_array_equal(p, wp)


@pytest.mark.parametrize("method", ["auto", "D", "J", "BF"])
def test_indices_of_any_shape_like_scipy(method):
    """SciPy returns indices.shape + (N,) for indices of any shape (2-D included)."""
    g = random_dense(12, 0.3)
    for indices in ([[1]], [[1, 2], [3, -1]], [[0], [11]], np.array([[[4]]]), [], [[]], 0, [0]):
        want_d, want_p = csgraph.shortest_path(g, method=method, indices=indices,
                                               return_predecessors=True)
        d, p = apsp.shortest_path(g, method=method, indices=indices, return_predecessors=True)
        assert d.shape == want_d.shape and p.shape == want_p.shape, indices
        np.testing.assert_allclose(d, want_d, rtol=1e-12)
        np.testing.assert_array_equal(p, want_p)
        assert apsp.shortest_path(g, method=method, indices=indices).shape == want_d.shape
    with pytest.raises(ValueError):
        apsp.shortest_path(g, method=method, indices=[[0, 12]])


@pytest.mark.parametrize("method", ["FW", "auto"])
@pytest.mark.parametrize("options", [{}, {"directed": False}, {"unweighted": True},
                                     {"return_predecessors": True}])
def test_shortest_path_overwrites_like_scipy(method, options):
    """SciPy's 'FW' (and its 'auto' on a graph dense enough for 'FW') writes the distances into
    a dense C-ordered float64 csgraph; apsp does for 'FW' and 'auto' (Floyd-Warshall)."""
    g = random_dense(30, 0.5)
    theirs, ours = g.copy(), g.copy()
    want = csgraph.shortest_path(theirs, method=method, overwrite=True, **options)
    got = apsp.shortest_path(ours, method=method, overwrite=True, **options)
    if options.get("return_predecessors"):
        np.testing.assert_array_equal(got[1], want[1])
        want, got = want[0], got[0]
    assert np.shares_memory(got, ours) and np.shares_memory(want, theirs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # Not a float64 C-ordered array: left as it is, as in SciPy.
    for other in (g.astype(np.float32), np.asfortranarray(g)):
        before = other.copy()
        np.testing.assert_allclose(apsp.shortest_path(other, method=method, overwrite=True),
                                   csgraph.floyd_warshall(g), rtol=1e-6)
        np.testing.assert_array_equal(other, before)


def test_argument_errors_like_scipy():
    # A 3-D array is a batch of graphs here (issue 27, tests/python/test_batch.py); SciPy
    # refuses it, and both refuse non-square slices.
    for bad in (np.zeros((2, 3)), np.zeros((2, 2, 3))):
        with pytest.raises(ValueError):
            csgraph.floyd_warshall(bad)
        with pytest.raises(ValueError):
            apsp.floyd_warshall(bad)
    with pytest.raises(ValueError, match="unrecognized method"):
        apsp.shortest_path(np.zeros((2, 2)), method="X")
    with pytest.raises(ValueError):
        apsp.shortest_path(np.zeros((3, 3)), indices=[3])
    assert apsp.floyd_warshall(np.zeros((0, 0))).shape == (0, 0)


def test_overwrite_writes_into_a_float64_array():
    g = random_dense(20, 0.3)
    want = csgraph.floyd_warshall(g)
    copy = g.copy()
    assert apsp.floyd_warshall(copy, overwrite=False) is not copy
    np.testing.assert_array_equal(copy, g)
    out = apsp.floyd_warshall(copy, overwrite=True)
    assert out is copy
    np.testing.assert_allclose(copy, want, rtol=1e-12)


def test_native_solve_in_every_dtype():
    n = 100
    g = random_dense(n, 0.1, integer=True)
    src, dst = np.nonzero(g)
    w = g[src, dst]
    want = csgraph.floyd_warshall(g)
    d = apsp.solve(src, dst, w, n)  # integer weights: int32
    assert d.dtype == np.int32
    np.testing.assert_array_equal(np.where(d == (1 << 30) - 1, np.inf, d), want)
    for dtype in ("float32", "float64"):
        d, p = apsp.solve(src, dst, w, n, dtype=dtype, predecessors=True)
        assert d.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(d, want.astype(dtype))  # integers below 2^24: exact
        check_paths(d.astype(np.float64), np.where(p < 0, -9999, p), lightest(g))
    assert apsp.solve(src, dst, w + 0.5, n).dtype == np.float64
    with pytest.raises(ValueError, match="float64"):
        apsp.solve(src, dst, w + 0.5, n, dtype="int32")
    with pytest.raises(ValueError, match="outside"):
        apsp.solve([0], [n], [1.0], n)
    with pytest.raises(ValueError):
        apsp.solve([0], [1], [np.nan], n, dtype="float64")
    with pytest.raises(ValueError):
        apsp.solve([0, 1], [1], [1.0], n)
    with pytest.raises(apsp.NegativeCycleError):
        apsp.solve([0], [0], [-1], 2)  # natively a negative self-loop is a cycle


def test_solve_names_vertices_and_sizes_as_given():
    """Issue 32 item 11: an unsigned vertex from 2^63 is named as given (int64 wrapped it to a
    negative number), and a num_vertices that is not an integer is refused as Python refuses one
    (2.5 was taken as 2)."""
    big = np.array([2**63], dtype=np.uint64)
    one = np.array([1], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"edge 0 \(9223372036854775808 -> 1\) has a vertex "
                                         r"outside 0\.\.1$"):
        apsp.solve(big, one, [1.0], 2)
    with pytest.raises(ValueError, match=r"edge 1 \(0 -> 18446744073709551615\)"):
        apsp.solve(np.array([0, 0], dtype=np.uint64), np.array([1, 2**64 - 1], dtype=np.uint64),
                   [1.0, 1.0], 2)
    with pytest.raises(ValueError, match=r"edge 0 \(9223372036854775808 -> 1\) has a vertex "
                                         r"outside the batch's vertices"):
        apsp.solve_batch([2], big, one)
    with pytest.raises(ValueError, match="graph 0 has 9223372036854775808 vertices"):
        apsp.solve_batch(big, [], [])
    for bad in (2.5, 2.0, "2", None):
        with pytest.raises(TypeError, match="num_vertices must be an integer, got"):
            apsp.solve([0], [1], [1.0], bad)
    assert apsp.solve([0], [1], [1.0], np.int16(2)).shape == (2, 2)
    with pytest.raises(ValueError, match=r"num_vertices must be in 0\.\.2\^31-1"):
        apsp.solve([0], [1], [1.0], 2**70)


def test_every_native_call_checks_edges_in_the_same_words():
    """Issue 45 item 4: the native calls share one check of an edge list: explain_choice names
    a bad edge and the lengths as solve does."""
    for call in (lambda s, d: apsp._native.solve(s, d, np.ones(len(s)), 2, "float64", False, "fw"),
                 lambda s, d: apsp._native.explain_choice(s, d, 2, "float64", False, False, "fw")):
        with pytest.raises(ValueError, match=r"^edge 1 \(0 -> 2\) has a vertex outside 0\.\.1$"):
            call(np.array([0, 0]), np.array([1, 2]))
        with pytest.raises(ValueError, match=r"must have the same length \(got 2, 1"):
            call(np.array([0, 0]), np.array([1]))


def test_paths_up_to_the_largest_float64_are_scipys():
    """Issue 32 item 11: the bound on a shortest path is the sum of its V - 1 heaviest weights,
    and without negative weights float64 holds it up to nearly its largest value: one edge of
    1e308 on two vertices is SciPy's answer exactly (it was refused beyond 4.49e307), in every
    input form; two of them in a row, whose path float64 cannot hold, are still refused."""
    want = csgraph.shortest_path(scipy.sparse.csr_matrix(([1e308], ([0], [1])), shape=(2, 2)))
    assert want[0, 1] == 1e308
    d, p = apsp.solve([0], [1], [1e308], 2, predecessors=True)
    assert d.dtype == np.float64
    np.testing.assert_array_equal(d, want)
    np.testing.assert_array_equal(p, [[-1, 0], [-1, -1]])
    dense = np.array([[0.0, 1e308], [0.0, 0.0]])
    np.testing.assert_array_equal(apsp.floyd_warshall(dense), want)
    np.testing.assert_array_equal(apsp.shortest_path(scipy.sparse.csr_matrix(dense)), want)
    np.testing.assert_array_equal(apsp.floyd_warshall(dense[None])[0], want)
    np.testing.assert_array_equal(apsp.solve_batch([2], [0], [1], [1e308])[0], want)
    # A cycle through 200 vertices of weight w (a dense matrix beyond the small-graph path):
    # 199 w is below the largest float64 (every shortest path is finite), 200 w above (each
    # walk around the cycle overflows, which lowers nothing). w's few bits keep every sum exact.
    n = 200
    cycle = np.zeros((n, n))
    w = (1 + 1 / 4 + 1 / 32) * 2.0**1016
    assert 199 * w < np.finfo(np.float64).max < 200 * w
    cycle[np.arange(n), (np.arange(n) + 1) % n] = w
    np.testing.assert_array_equal(apsp.floyd_warshall(cycle), csgraph.floyd_warshall(cycle))
    cycle[cycle != 0] = 1.01 * w  # now the path 0 -> 199 alone is beyond it
    with pytest.raises(ValueError, match="could reach more than 1.7976931348623157e"):
        apsp.floyd_warshall(cycle)
    for form in ("solve", "dense", "batch"):
        with pytest.raises(ValueError, match=r"could reach more than 1\.7976931348623157e\+308, "
                                             r"which float64 distances cannot hold"):
            if form == "solve":
                apsp.solve([0, 1], [1, 2], [1e308, 1e308], 3)
            elif form == "dense":
                apsp.floyd_warshall(np.array([[0, 1e308, 0], [0, 0, 1e308], [0, 0, 0]]))
            else:
                apsp.solve_batch([3], [0, 1], [1, 2], [1e308, 1e308])


def test_too_large_is_a_memory_error_before_any_work():
    with pytest.raises(MemoryError, match="GiB"):
        apsp.solve(np.array([0]), np.array([1]), np.array([1.5]), 3_000_000)


def test_huge_sparse_graph_is_a_memory_error_before_anything_of_its_size():
    """V = 2^31 - 1 with one edge: the solver's MemoryError naming V, not NumPy's for an array
    of V entries (16 GiB) nor an out-of-memory kill. In a child process whose address space is
    capped at 4 GiB above what it holds once apsp has started its backend (a GPU runtime
    reserves address space for the device at its start), so that a regression fails fast
    instead of taking the machine's memory."""
    code = """
import resource, numpy as np, scipy.sparse, apsp
with open("/proc/self/status") as status:
    started = next(int(line.split()[1]) << 10 for line in status if line.startswith("VmPeak:"))
resource.setrlimit(resource.RLIMIT_AS, (started + (4 << 30), started + (4 << 30)))
n = 2**31 - 1
for fmt in ("coo", "dok"):  # the formats that hold nothing of size V (csr holds V + 1 offsets)
    g = scipy.sparse.coo_matrix(([1.0], ([0], [1])), shape=(n, n)).asformat(fmt)
    for call in (lambda: apsp.floyd_warshall(g), lambda: apsp.shortest_path(g, indices=[0]),
                 lambda: apsp.shortest_path(g, method="D", return_predecessors=True)):
        try:
            call()
            raise SystemExit("no error")
        except MemoryError as e:
            assert "V = 2147483647" in str(e), e
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["ok"], out.stdout + out.stderr


def test_float32_takes_half_the_memory():
    n = 64
    g = random_dense(n, 0.2, integer=True)
    src, dst = np.nonzero(g)
    d32 = apsp.solve(src, dst, g[src, dst], n, dtype="float32")
    assert d32.nbytes * 2 == csgraph.floyd_warshall(g).nbytes


def test_threads_are_serialized_and_correct():
    graphs = [random_dense(80, 0.2, rng=np.random.default_rng(s)) for s in range(6)]
    results = [None] * len(graphs)

    def run(k):
        results[k] = apsp.floyd_warshall(graphs[k])

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(graphs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for g, r in zip(graphs, results):
        np.testing.assert_allclose(r, csgraph.floyd_warshall(g), rtol=1e-12)


def test_config_reports_the_build():
    c = apsp.config()
    assert c["backend"] and c["device"] and c["kokkos_version"].count(".") == 2
    # Every type, but in a checking build (APSP_CHECK_INSTANTIATIONS=minimal: int32 alone).
    every = os.environ.get("APSP_CHECK_INSTANTIATIONS") != "minimal"
    assert c["dtypes"] == (("int32", "float32", "float64") if every else ("int32",))


@pytest.mark.skipif("APSP_BUILD_DIR" not in os.environ, reason="needs the build (run by ctest)")
def test_installs_into_a_prefix(tmp_path):
    """cmake --install puts an importable package under the prefix."""
    subprocess.run(["cmake", "--install", os.environ["APSP_BUILD_DIR"], "--prefix", str(tmp_path)],
                   check=True, stdout=subprocess.DEVNULL)
    site = tmp_path / os.environ["APSP_PYTHON_INSTALL_DIR"]
    code = ("import apsp, numpy as np; "
            "d = apsp.floyd_warshall(np.array([[0, 2.5], [0, 0]])); "
            "assert apsp.__file__.startswith(%r), apsp.__file__; "
            "print(d[0, 1], np.isinf(d[1, 0]))" % str(site))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(site)), cwd=str(tmp_path))
    assert out.stdout.split() == ["2.5", "True"]


def test_solve_refuses_complex_weights_in_words():
    # Issue 26 item 15: a complex weight was NumPy's raw TypeError from deep inside.
    with pytest.raises(ValueError, match="weight must hold real numbers, got complex128"):
        apsp.solve([0], [1], np.array([1 + 2j]), 2)


def grid_graph(side, rng, directed=False):
    """A side x side grid of 4-neighbour edges, integer weights 1..100 (a mesh: small
    separators), 8% of the edges deleted, as a scipy.sparse CSR matrix."""
    n = side * side
    v = np.arange(n).reshape(side, side)
    src = np.concatenate([v[:, :-1].ravel(), v[:-1, :].ravel()])
    dst = np.concatenate([v[:, 1:].ravel(), v[1:, :].ravel()])
    keep = rng.random(src.size) >= 0.08
    src, dst = src[keep], dst[keep]
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    w = np.floor(rng.uniform(1, 101, size=src.size))
    return scipy.sparse.csr_matrix((w, (src, dst)), shape=(n, n))


needs_supernodal = pytest.mark.skipif(not apsp.config()["supernodal"],
                                      reason="this build has no METIS (no supernodal)")


@needs_supernodal
def test_auto_takes_supernodal_for_a_mesh():
    # 16,384 vertices: on a GPU, dense Floyd-Warshall is the faster one for a 4,096-vertex mesh
    # (docs/PERFORMANCE.md entry 36).
    g = grid_graph(128, np.random.default_rng(3))
    src, dst = g.nonzero()
    for predecessors in (False, True):
        c = apsp._native.explain_choice(src, dst, g.shape[0], "float64", False, predecessors,
                                        "auto")
        assert c["algorithm"] == "supernodal", c["decision"]
        assert c["predicted_updates"] < c["dense_updates"] / 10
    c = apsp._native.explain_choice(src, dst, g.shape[0], "float64", False, False, "fw")
    assert c["algorithm"] == "fw"
    dense = random_dense(1100, 0.3)  # no small separators: auto stays dense
    src, dst = np.nonzero(dense)
    assert apsp._native.explain_choice(src, dst, 1100, "float64", False, False,
                                       "auto")["algorithm"] == "fw"
    with pytest.raises(ValueError, match="algorithm must be"):
        apsp.solve([0], [1], [1], 2, algorithm="dijkstra")


@needs_supernodal
@pytest.mark.parametrize("directed", [False, True])
def test_supernodal_equals_dense_floyd_warshall(directed):
    """Integer weights: the same distances and the same predecessors (apsp's rule is a function
    of the graph) from supernodal and dense Floyd-Warshall, in every dtype, and SciPy's
    distances; through shortest_path on sparse and dense inputs too."""
    rng = np.random.default_rng(11)
    g = grid_graph(40, rng, directed)
    n = g.shape[0]
    src, dst = g.nonzero()
    w = np.asarray(g[src, dst]).ravel()
    want = csgraph.shortest_path(g, method="D")
    for dtype in ("int32", "float32", "float64"):
        d_sn, p_sn = apsp.solve(src, dst, w, n, dtype=dtype, predecessors=True,
                                algorithm="supernodal")
        d_fw, p_fw = apsp.solve(src, dst, w, n, dtype=dtype, predecessors=True, algorithm="fw")
        np.testing.assert_array_equal(d_sn, d_fw)
        np.testing.assert_array_equal(p_sn, p_fw)
    np.testing.assert_array_equal(d_sn, want)
    d, p = apsp.shortest_path(g, return_predecessors=True)
    np.testing.assert_array_equal(d, want)
    np.testing.assert_array_equal(p, np.where(p_fw < 0, -9999, p_fw))
    dense = g.toarray()
    np.testing.assert_array_equal(apsp.shortest_path(dense), want)


@needs_supernodal
def test_supernodal_negative_weights_and_cycles():
    rng = np.random.default_rng(5)
    g = grid_graph(36, rng, directed=True).tocoo()
    p = rng.uniform(0, 40, size=g.shape[0])
    w = g.data + p[g.row] - p[g.col]  # reweighted: negative weights, no negative cycle
    d_sn = apsp.solve(g.row, g.col, w, g.shape[0], algorithm="supernodal")
    d_fw = apsp.solve(g.row, g.col, w, g.shape[0], algorithm="fw")
    np.testing.assert_allclose(d_sn, d_fw, rtol=1e-12, atol=1e-9)
    w[0] = -1e4  # now a negative cycle through the first edge's vertices
    src = np.append(g.row, g.col[0])
    dst = np.append(g.col, g.row[0])
    w = np.append(w, 1.0)
    with pytest.raises(apsp.NegativeCycleError):
        apsp.solve(src, dst, w, g.shape[0], algorithm="supernodal")
