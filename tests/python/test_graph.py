"""apsp.Graph, a graph prepared once for many queries, against the same queries from the edge
list (apsp.solve, apsp.measures) and SciPy: tables of any sources and targets (repeated, out of
order, single vertices, empty lists), measures, new weights against a Graph made with them,
every refusal leaving the Graph as it was, close() and `with`, queries from many threads, and a
Graph still open at interpreter exit. Random, grid (road-like), disconnected graphs."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import apsp

pytestmark = pytest.mark.skipif(not apsp.config()["supernodal"],
                                reason="a Graph needs supernodal Floyd-Warshall (METIS)")

RNG = np.random.default_rng(20261130)


def random_edges(n, m, low=0, high=50, rng=RNG):
    return (rng.integers(0, n, m), rng.integers(0, n, m),
            rng.integers(low, high, m).astype(np.float64))


def grid_edges(rows, cols, rng=RNG):
    """A rows x cols grid (a road network's shape), each street one way per direction with its
    own weight."""
    u, v = [], []
    for r in range(rows):
        for c in range(cols):
            x = r * cols + c
            if c + 1 < cols:
                u += [x, x + 1]
                v += [x + 1, x]
            if r + 1 < rows:
                u += [x, x + cols]
                v += [x + cols, x]
    u, v = np.array(u), np.array(v)
    return u, v, rng.integers(1, 100, u.size).astype(np.float64)


def disconnected_edges(rng=RNG):
    """Two random components and isolated vertices."""
    a = random_edges(40, 150, rng=rng)
    b = random_edges(30, 100, rng=rng)
    return (np.r_[a[0], b[0] + 40], np.r_[a[1], b[1] + 40], np.r_[a[2], b[2]]), 75


GRAPHS = {
    "random": (random_edges(120, 600), 120),
    "grid": (grid_edges(12, 15), 180),
    "disconnected": disconnected_edges(),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_tables_are_the_edge_lists_answers(name, dtype):
    (u, v, w), n = GRAPHS[name]
    every = apsp.solve(u, v, w, n, dtype=dtype)
    with apsp.Graph((u, v, w, n), dtype=dtype) as g:
        assert g.dtype == np.dtype(dtype) and g.num_vertices == n and g.nbytes > 0
        assert np.array_equal(g.distances(), every)
        sources = [5, 3, 5, n - 1, 0, 17]
        targets = [7, 7, 1, n - 2, 0]
        table = g.distances(sources, targets)
        assert table.dtype == np.dtype(dtype) and table.shape == (6, 5)
        assert np.array_equal(table, every[np.ix_(sources, targets)])
        assert np.array_equal(g.distances(sources), every[sources])
        assert np.array_equal(g.distances(targets=targets), every[:, targets])
        assert np.array_equal(g.distances(3), every[3])
        assert g.distances(3, 7) == every[3, 7]
        assert g.distances([], targets).shape == (0, 5)
        assert g.distances(sources, []).shape == (6, 0)
        # Asked again: the same answer (nothing of one query stays in the next).
        assert np.array_equal(g.distances(sources, targets), table)
    if name == "disconnected":
        assert every[0, 50] == g.infinity


def test_undirected_and_csgraph_inputs():
    scipy_sparse = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    (u, v, w), n = GRAPHS["grid"]
    keep = u < v  # each street once: undirected uses it both ways
    m = scipy_sparse.csr_matrix((w[keep], (u[keep], v[keep])), shape=(n, n))
    expected = csgraph.shortest_path(m, directed=False)
    with apsp.Graph(m, directed=False, dtype="float64") as g:
        assert np.array_equal(g.distances(), expected)
    with apsp.Graph(m.toarray(), directed=False, dtype="float64") as g:
        assert np.array_equal(g.distances([0, 9], [170, 4]), expected[np.ix_([0, 9], [170, 4])])


def assert_same_measures(got, expected):
    """The same names, values and types."""
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        if isinstance(value, np.ndarray):
            assert value.dtype == got[key].dtype and np.array_equal(value, got[key]), key
        elif isinstance(value, dict):
            assert value.keys() == got[key].keys(), key
            for k in value:
                assert np.array_equal(value[k], got[key][k]), (key, k)
        else:
            assert value == got[key] and type(value) is type(got[key]), key


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_measures_are_apsp_measures(dtype):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    (u, v, w), n = GRAPHS["disconnected"]
    m = scipy_sparse.coo_matrix((w + 1, (u, v)), shape=(n, n)).tocsr()  # summed duplicates
    src, dst = m.nonzero()
    expected = apsp.measures(m, dtype=dtype)
    with apsp.Graph((src, dst, np.asarray(m[src, dst]).ravel(), n), dtype=dtype) as g:
        assert_same_measures(g.measures(), expected)
        assert g.measures(["diameter"], bins=3).keys() == {"vertices", "connected", "diameter"}
        with pytest.raises(ValueError, match="unknown measure"):
            g.measures(["girth"])


@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_new_weights_are_a_new_graphs(dtype):
    (u, v, w), n = GRAPHS["random"]
    rng = np.random.default_rng(7)
    with apsp.Graph((u, v, w, n), dtype=dtype) as g:
        for _ in range(3):
            w = rng.integers(0, 80, w.size).astype(np.float64)
            g.update_weights(w)
            assert np.array_equal(g.distances(), apsp.solve(u, v, w, n, dtype=dtype))
            assert np.array_equal(g.distances([4, 2], [9]),
                                  apsp.solve(u, v, w, n, dtype=dtype)[np.ix_([4, 2], [9])])


def test_infinite_weights_close_edges():
    (u, v, w), n = GRAPHS["grid"]
    with apsp.Graph((u, v, w, n), dtype="float64", directed=False) as g:
        closed = w.copy()
        closed[::3] = np.inf
        g.update_weights(closed)
        keep = np.isfinite(closed)
        uu, vv, ww = u[keep], v[keep], closed[keep]
        expected = apsp.solve(np.r_[uu, vv], np.r_[vv, uu], np.r_[ww, ww], n, dtype="float64")
        assert np.array_equal(g.distances(), expected)
        g.update_weights(w)  # opened again
        assert np.array_equal(
            g.distances(), apsp.solve(np.r_[u, v], np.r_[v, u], np.r_[w, w], n, dtype="float64"))


def test_a_csgraph_of_new_weights():
    scipy_sparse = pytest.importorskip("scipy.sparse")
    (u, v, w), n = GRAPHS["grid"]
    with apsp.Graph(scipy_sparse.csr_matrix((w, (u, v)), shape=(n, n)), dtype="float64") as g:
        src, dst = g.edges
        new = RNG.integers(1, 9, src.size).astype(np.float64)
        g.update_weights(scipy_sparse.csr_matrix((new, (src, dst)), shape=(n, n)))
        assert np.array_equal(g.distances(), apsp.solve(src, dst, new, n, dtype="float64"))
        # An edge the Graph lacks is refused; one the new csgraph lacks is closed.
        extra = scipy_sparse.csr_matrix(([1.0], ([0], [n - 1])), shape=(n, n))
        with pytest.raises(ValueError, match="not an edge of the Graph"):
            g.update_weights(extra)
        g.update_weights(scipy_sparse.csr_matrix((new[1:], (src[1:], dst[1:])), shape=(n, n)))
        assert np.array_equal(g.distances(),
                              apsp.solve(src[1:], dst[1:], new[1:], n, dtype="float64"))


def test_refused_updates_leave_the_graph_as_it_was():
    (u, v, w), n = GRAPHS["random"]
    with apsp.Graph((u, v, w, n)) as g:
        before = g.distances()
        bad = {
            "edges": w[:-1],
            "NaN": np.where(np.arange(w.size) == 3, np.nan, w),
            "negative weight": np.where(np.arange(w.size) == 3, -1.0, w),
            "int32": np.where(np.arange(w.size) == 3, np.inf, w),
            "int32 distances": w + 0.5,
            "paths": np.full(w.size, 2.0**30),
        }
        for what, new in bad.items():
            with pytest.raises(ValueError):
                g.update_weights(new)
            assert np.array_equal(g.distances(), before), what
    # A negative cycle: NegativeCycleError, and the Graph keeps its weights.
    u, v, w, n = np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1.0, -1.0, 1.0]), 3
    with apsp.Graph((u, v, w, n)) as g:
        before = g.distances()
        with pytest.raises(apsp.NegativeCycleError):
            g.update_weights(np.array([1.0, -1.0, -1.0]))
        assert np.array_equal(g.distances(), before)


def test_refused_graphs_and_queries():
    (u, v, w), n = GRAPHS["random"]
    with pytest.raises(ValueError, match="supernodal"):
        apsp.Graph((u, v, w, n), method="FW")
    with pytest.raises(ValueError, match="dtype"):
        apsp.Graph((u, v, w, n), dtype="int8")
    with pytest.raises(ValueError, match="finite"):
        apsp.Graph((u, v, np.where(w > 10, w, np.inf), n))
    with pytest.raises(ValueError, match="outside"):
        apsp.Graph((u, v, w, 10))
    with pytest.raises(apsp.NegativeCycleError):
        apsp.Graph((np.array([0, 1]), np.array([1, 0]), np.array([1.0, -2.0]), 2))
    with apsp.Graph((u, v, w, n)) as g:
        with pytest.raises(ValueError, match="not a vertex"):
            g.distances([0, n])
        with pytest.raises(ValueError, match="not a vertex"):
            g.distances(None, [-1])
        with pytest.raises(ValueError, match="one-dimensional"):
            g.distances([[0, 1]])


def test_a_closed_graph_says_so():
    (u, v, w), n = GRAPHS["random"]
    g = apsp.Graph((u, v, w, n))
    assert not g.closed
    g.close()
    assert g.closed and "closed" in repr(g)
    for use in (lambda: g.distances(), lambda: g.measures(), lambda: g.update_weights(w)):
        with pytest.raises(ValueError, match="closed"):
            use()
    g.close()  # twice is fine
    with apsp.Graph((u, v, w, n)) as h:
        pass
    assert h.closed


def test_queries_from_many_threads():
    (u, v, w), n = GRAPHS["grid"]
    expected = apsp.solve(u, v, w, n)
    failures = []
    with apsp.Graph((u, v, w, n)) as g:
        def ask(seed):
            rng = np.random.default_rng(seed)
            for _ in range(10):
                s, t = rng.integers(0, n, 20), rng.integers(0, n, 30)
                if not np.array_equal(g.distances(s, t), expected[np.ix_(s, t)]):
                    failures.append(seed)
        threads = [threading.Thread(target=ask, args=(seed,)) for seed in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []


def test_a_graph_open_at_exit():
    """Kokkos is finalized at exit after every open Graph's memory is freed: no error, no crash
    (a Graph kept alive by a reference cycle is collected after that)."""
    code = ("import numpy as np, apsp\n"
            "g = apsp.Graph((np.array([0, 1]), np.array([1, 2]), np.array([1.0, 2.0]), 3))\n"
            "cycle = [g]; cycle.append(cycle)\n"
            "print(g.distances(0, 2))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3" and done.stderr == ""


def test_version():
    assert apsp.__version__ == apsp.config()["apsp_version"]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_graphs_without_edges(n):
    """No vertex, one, several without an edge (the solver's memory arithmetic divided by a row
    of zero bytes at V = 0 before)."""
    e = np.array([], dtype=np.int64)
    expected = np.where(np.eye(n, dtype=bool), 0, 2**30 - 1).astype(np.int32)
    assert np.array_equal(apsp.solve(e, e, np.array([]), n, algorithm="supernodal"), expected)
    with apsp.Graph((e, e, np.array([]), n)) as g:
        assert np.array_equal(g.distances(), expected)
        assert g.distances([], []).shape == (0, 0)
        assert g.measures()["vertices"] == n
        g.update_weights(np.array([]))
        assert np.array_equal(g.distances(), expected)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_saved_graphs_load_as_they_were(tmp_path, dtype):
    """save then load: the same tables and measures, the plan and factor read; closed edges keep
    their places for later updates; the file is byte for byte what the Graph holds (saved
    twice: one file)."""
    (u, v, w), n = GRAPHS["grid"]
    path = tmp_path / "grid.prep"
    with apsp.Graph((u, v, w, n), dtype=dtype, directed=False) as g:
        if dtype != "int32":
            closed = w.copy()
            closed[::5] = np.inf
            g.update_weights(closed)
        g.save(path)
        g.save(tmp_path / "again.prep")
        expected, measures = g.distances(), g.measures()
    assert path.read_bytes() == (tmp_path / "again.prep").read_bytes()
    with apsp.Graph.load(path) as loaded:
        assert loaded.dtype == np.dtype(dtype)
        assert loaded.num_vertices == n
        assert np.array_equal(loaded.distances(), expected)
        assert np.array_equal(loaded.distances([7, 1], [0, 0, 9]),
                              expected[np.ix_([7, 1], [0, 0, 9])])
        assert_same_measures(loaded.measures(), measures)
        src, dst = loaded.edges
        assert np.array_equal(src, np.r_[u, v]) and np.array_equal(dst, np.r_[v, u])
        # A loaded Graph takes one weight per edge of the file, and a new factor.
        w2 = np.r_[w, w] + 1
        loaded.update_weights(w2)
        assert np.array_equal(loaded.distances(),
                              apsp.solve(np.r_[u, v], np.r_[v, u], w2, n, dtype=dtype))


def test_damaged_files_are_refused(tmp_path):
    (u, v, w), n = GRAPHS["random"]
    path = tmp_path / "random.prep"
    with apsp.Graph((u, v, w, n)) as g:
        g.save(path)
    data = path.read_bytes()
    for name, content, words in [
            ("cut", data[:-1], "ends early"),
            ("header", data[:40] + bytes([data[40] ^ 1]) + data[41:], "header is damaged"),
            ("factor", data[:-4] + bytes([data[-4] ^ 1]) + data[-3:], "factor section is damaged"),
            ("other", b"not a prepared graph at all", "not a prepared graph")]:
        bad = tmp_path / (name + ".prep")
        bad.write_bytes(content)
        with pytest.raises(RuntimeError, match=words):
            apsp.Graph.load(bad)


APSP_CLI = os.environ.get("APSP_CLI") or os.path.join(os.environ.get("APSP_BUILD_DIR", "build/openmp"),
                                                      "apsp")


@pytest.mark.skipif(not os.path.exists(APSP_CLI), reason="no apsp binary in the build")
def test_the_command_lines_files(tmp_path):
    """A file of `apsp prepare` loads as a Graph, and a Graph's file is the command line's IN:
    the same answers either way."""
    (u, v, w), n = GRAPHS["grid"]
    edges = tmp_path / "grid.txt"
    edges.write_text("# vertices %d\n" % n
                     + "".join("%d %d %d\n" % e for e in zip(u, v, w.astype(int))))
    subprocess.run([APSP_CLI, "prepare", str(edges), str(tmp_path / "cli.prep")], check=True)
    expected = apsp.solve(u, v, w, n)
    with apsp.Graph.load(tmp_path / "cli.prep") as g:
        assert np.array_equal(g.distances(), expected)
        g.save(tmp_path / "python.prep")
    assert (tmp_path / "python.prep").read_bytes() == (tmp_path / "cli.prep").read_bytes()
    subprocess.run([APSP_CLI, str(tmp_path / "python.prep"), str(tmp_path / "out.npy")],
                   check=True)
    assert np.array_equal(np.load(tmp_path / "out.npy"), expected)


@pytest.mark.skipif(not os.path.exists(APSP_CLI), reason="no apsp binary in the build")
def test_an_sssp_file_is_refused(tmp_path):
    """apsp prepare --algorithm sssp keeps the graph's arrays, no factor: Graph.load says so."""
    (u, v, w), n = GRAPHS["grid"]
    edges = tmp_path / "grid.txt"
    edges.write_text("# vertices %d\n" % n
                     + "".join("%d %d %d\n" % e for e in zip(u, v, w.astype(int))))
    version = subprocess.run([APSP_CLI, "--version"], capture_output=True, text=True).stdout
    hosts = [b for b in ("openmp", "serial") if b in version.split("backends:")[-1]]
    if not hosts:
        pytest.skip("no host backend in the command line's build")
    done = subprocess.run([APSP_CLI, "prepare", "--backend", hosts[0], "--algorithm", "sssp",
                           str(edges), str(tmp_path / "sssp.prep")], capture_output=True, text=True)
    if done.returncode != 0 and "Kokkos Kernels" in done.stderr:
        pytest.skip("the command line's build has no sssp")
    assert done.returncode == 0, done.stderr
    with pytest.raises(ValueError, match="holds the arrays of sssp"):
        apsp.Graph.load(tmp_path / "sssp.prep")


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_predecessors_and_paths_are_a_solves(name, dtype):
    """predecessors: apsp.solve's (every algorithm gives the same on integer weights), for any
    table, after new weights too; path: that row followed back, [] where there is none."""
    (u, v, w), n = GRAPHS[name]
    with apsp.Graph((u, v, w, n), dtype=dtype) as g:
        for weights in (w, w[::-1].copy()):
            g.update_weights(weights)
            dist, pred = apsp.solve(u, v, weights, n, dtype=dtype, predecessors=True)
            assert np.array_equal(g.predecessors(), pred)
            rows, columns = [5, 0, 5, n - 1], [n - 1, 3, 3]
            assert np.array_equal(g.predecessors(rows, columns), pred[np.ix_(rows, columns)])
            assert np.array_equal(g.predecessors(7), pred[7])
            assert g.predecessors(7, 2) == pred[7, 2]
            for s, t in [(0, n - 1), (3, 3), (n - 1, 0), (2, 50)]:
                path = g.path(s, t)
                if s != t and pred[s, t] < 0:
                    assert path.size == 0
                    continue
                assert path[0] == s and path[-1] == t
                assert all(pred[s, path[k + 1]] == path[k] for k in range(path.size - 1))
        with pytest.raises(ValueError, match="one source vertex and one target"):
            g.path([0, 1], 2)
        with pytest.raises(ValueError, match="not a vertex"):
            g.path(0, n)


def test_predecessors_with_real_weights():
    """Real weights: the predecessors of a solve by supernodal Floyd-Warshall (the same rows,
    the same rule)."""
    rng = np.random.default_rng(3)
    (u, v, _), n = GRAPHS["grid"]
    w = rng.uniform(0.5, 10.0, u.size)
    dist, pred = apsp.solve(u, v, w, n, dtype="float64", predecessors=True,
                            algorithm="supernodal")
    with apsp.Graph((u, v, w, n), dtype="float64") as g:
        assert np.array_equal(g.distances(), dist)
        assert np.array_equal(g.predecessors(), pred)
