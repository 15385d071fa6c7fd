"""apsp.measures against `apsp measures`' .json (the same names and values, bit for bit) and
against NetworkX: directed and undirected, disconnected, integer and real weights, --measures
and --bins. The command line is the apsp binary of the build (APSP_BUILD_DIR), or APSP_CLI."""

import json
import os
import subprocess

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import apsp

APSP = os.environ.get("APSP_CLI") or os.path.join(os.environ.get("APSP_BUILD_DIR", "build/openmp"),
                                                  "apsp")
WORK = os.path.join(os.environ.get("APSP_BUILD_DIR", "/tmp"), "python-measures")
RNG = np.random.default_rng(20261127)


def random_matrix(n, m, low, high, integer=True, rng=RNG):
    """A dense weight matrix (0: no edge) of about m edges, no self-loops."""
    w = np.zeros((n, n))
    for _ in range(m):
        u, v = int(rng.integers(0, n)), int(rng.integers(0, n))
        if u != v:
            w[u, v] = int(rng.integers(low, high)) if integer else float(rng.uniform(low, high))
    return w


CASES = {
    "directed": (random_matrix(30, 120, 1, 20), True),
    "strongly-connected": (random_matrix(12, 100, 1, 20), True),
    "undirected": (random_matrix(25, 50, 1, 9), False),
    "disconnected": (np.block([[random_matrix(12, 40, 1, 5), np.zeros((12, 9))],
                               [np.zeros((9, 12)), random_matrix(9, 20, 1, 5)]]), True),
    "real": (random_matrix(20, 80, 0.5, 3.0, integer=False), True),
}


def cli_measures(w, directed, *args):
    """`apsp measures` on the edges of w (both ways where undirected), its .json as a dict."""
    os.makedirs(WORK, exist_ok=True)
    n = w.shape[0]
    src, dst = np.nonzero(w)
    path = os.path.join(WORK, "graph.txt")
    with open(path, "w") as f:
        f.write("# vertices %d\n" % n)
        for u, v in zip(src, dst):
            f.write("%d %d %r\n" % (u, v, float(w[u, v])))
            if not directed:
                f.write("%d %d %r\n" % (v, u, float(w[u, v])))
    out = os.path.join(WORK, "measures.json")
    p = subprocess.run([APSP, "measures", path, out, *args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(out) as f:
        return json.load(f)


@pytest.mark.skipif(not os.path.exists(APSP), reason="no apsp binary in the build")
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_command_lines_json(case):
    w, directed = CASES[case]
    expected = cli_measures(w, directed)
    got = apsp.measures(w, directed=directed)
    names = set(expected["graph"]) | set(expected["vertex"])
    assert set(got) == names
    for name, value in expected["graph"].items():
        if name == "histogram":
            h = dict(got[name])
            assert h.pop("counts").tolist() == value.pop("counts")
            assert h == value
        elif name in ("center", "periphery"):
            assert got[name].tolist() == value
        else:
            assert got[name] == value, name
    for name, value in expected["vertex"].items():
        assert isinstance(got[name], np.ndarray) and got[name].shape == (w.shape[0],)
        assert got[name].tolist() == value, name


@pytest.mark.skipif(not os.path.exists(APSP), reason="no apsp binary in the build")
def test_named_measures_and_bins_as_the_command_line():
    w, directed = CASES["directed"]
    expected = cli_measures(w, directed, "--measures", "radius,histogram,eccentricity",
                            "--bins", "7")
    got = apsp.measures(w, measures=["radius", "histogram", "eccentricity"], bins=7)
    assert set(got) == {"vertices", "connected", "radius", "histogram", "eccentricity"}
    assert got["histogram"]["counts"].tolist() == expected["graph"]["histogram"]["counts"]
    assert got["eccentricity"].dtype == np.int32
    assert got["eccentricity"].tolist() == expected["vertex"]["eccentricity"]


def nx_graph(w, directed):
    g = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(range(w.shape[0]))
    for u, v in zip(*np.nonzero(w)):
        g.add_edge(int(u), int(v), weight=float(w[u, v]))
    return g


@pytest.mark.parametrize("case", ["directed", "strongly-connected", "undirected", "real"])
@pytest.mark.parametrize("method", ["auto", "FW"])
def test_networkx(case, method):
    w, directed = CASES[case]
    g = nx_graph(w, directed)
    got = apsp.measures(w, directed=directed, method=method)
    n = w.shape[0]
    close = nx.closeness_centrality(g, distance="weight")
    harmonic = nx.harmonic_centrality(g, distance="weight")
    assert got["closeness_centrality"] == pytest.approx([close[v] for v in range(n)], rel=1e-12)
    assert got["harmonic_centrality"] == pytest.approx([harmonic[v] for v in range(n)],
                                                       rel=1e-12)
    lengths = dict(nx.all_pairs_dijkstra_path_length(g))
    assert got["wiener_index"] == pytest.approx(
        sum(sum(d.values()) for d in lengths.values()), rel=1e-12)
    assert got["connected"] == (nx.is_strongly_connected(g) if directed else nx.is_connected(g))
    if got["connected"]:
        assert got["wiener_index"] == pytest.approx(
            nx.wiener_index(g, weight="weight") * (1 if directed else 2), rel=1e-12)
        ecc = {v: max(d.values()) for v, d in nx.all_pairs_dijkstra_path_length(g)}
        assert got["eccentricity"].tolist() == pytest.approx([ecc[v] for v in range(n)],
                                                             rel=1e-12)
        assert got["diameter"] == pytest.approx(max(ecc.values()), rel=1e-12)


def test_disconnected_is_over_the_pairs_with_a_path():
    w, directed = CASES["disconnected"]
    got = apsp.measures(w, directed=directed, measures=["reachable", "wiener_index"])
    g = nx_graph(w, directed)
    reach = dict(nx.all_pairs_dijkstra_path_length(g))
    assert got["connected"] is False
    assert got["reachable"].tolist() == [len(reach[v]) for v in range(w.shape[0])]
    assert got["wiener_index"] == sum(sum(d.values()) for d in reach.values())


def test_unknown_measure_and_method():
    w, _ = CASES["directed"]
    with pytest.raises(ValueError, match="nonsense"):
        apsp.measures(w, measures=["nonsense"])
    with pytest.raises(ValueError, match="unrecognized method"):
        apsp.measures(w, method="X")


def test_types_follow_the_distance_type():
    w = np.array([[0, 1.5, 0], [0, 0, 2], [1, 0, 0.]])
    for dtype, number, distance in (("float64", float, np.float64), ("float32", float, np.float32),
                                    ("int32", int, np.int32)):
        m = apsp.measures(np.round(w) if dtype == "int32" else w, dtype=dtype)
        assert m["eccentricity"].dtype == distance and m["reachable"].dtype == np.int64
        assert m["distance_sum"].dtype == (np.int64 if number is int else np.float64)
        for name in ("diameter", "radius", "wiener_index"):
            assert type(m[name]) is number, (dtype, name)
        assert type(m["average_shortest_path_length"]) is float
        assert type(m["histogram"]["high"]) is number


def test_negative_cycle_and_tiny_graphs():
    with pytest.raises(apsp.NegativeCycleError):
        apsp.measures(np.array([[0, 1, 0], [0, 0, -3], [1, 0, 0.]]))
    assert apsp.measures(np.zeros((0, 0)), measures=["eccentricity"])["eccentricity"].shape == (0,)
    one = apsp.measures(np.zeros((1, 1)))
    assert one["diameter"] == 0 and one["connected"] and one["center"].tolist() == [0]


@pytest.mark.skipif(not apsp.config()["supernodal"], reason="this build has no METIS")
@pytest.mark.skipif(len(apsp.config()["dtypes"]) < 3,
                    reason="a checking build compiles one front tile: auto chooses otherwise")
def test_supernodal_gives_the_bits_of_dense_floyd_warshall():
    """A mesh's measures by supernodal Floyd-Warshall (its reduce_rows): integer weights, so
    every measure is the same exact value whichever solver made the rows. Where 'auto' takes
    supernodal for it (host backends: a GPU's dense Floyd-Warshall is fast enough to take a mesh
    of 1,600 vertices) the public call is that path; supernodal is asked for by name all the
    same, so that a GPU build tests it too."""
    from test_scipy import grid_graph
    g = grid_graph(40, np.random.default_rng(3))
    src, dst = g.nonzero()
    choice = apsp._native.explain_choice(src, dst, g.shape[0], "int32", False, False, "auto")
    on_host = apsp.config()["backend"] in ("openmp", "serial", "threads")
    assert choice["algorithm"] == "supernodal" or not on_host, choice["decision"]
    src, dst, weight, n = apsp._edges(g, False, False)
    auto = apsp._measures_of_edges(src, dst, weight, n, None, 64, "supernodal", "int32")[0]
    dense = apsp.measures(g, directed=False, method="FW")
    assert set(auto) == set(dense)
    for name, value in dense.items():
        if name == "histogram":
            assert auto[name]["counts"].tolist() == value["counts"].tolist()
        elif isinstance(value, np.ndarray):
            assert auto[name].dtype == value.dtype and auto[name].tolist() == value.tolist(), name
        else:
            assert auto[name] == value, name


def test_bins_as_the_command_line():
    """bins as --bins: 1..4096, a ValueError outside (0, the native "no histogram", included)."""
    w, directed = CASES["directed"]
    for bins in (0, -1, 4097):
        with pytest.raises(ValueError, match=r"^bins must be in 1\.\.4096, got %d$" % bins):
            apsp.measures(w, bins=bins)
    with pytest.raises(TypeError, match="bins must be an integer"):
        apsp.measures(w, bins=2.5)
    n = w.shape[0]
    for bins in (1, 4096):
        h = apsp.measures(w, measures=["histogram", "diameter"], bins=bins)
        assert h["histogram"]["bins"] == bins and len(h["histogram"]["counts"]) == bins
        assert h["histogram"]["high"] == h["diameter"]
        assert h["histogram"]["counts"].sum() + h["histogram"]["unreachable"] == n * (n - 1)


def tiny_and_long_paths():
    """Float distances whose measures are not finite: 1 / 5e-324 = inf (harmonic and closeness),
    -inf on a negative edge, inf - inf = NaN; the sums of two paths of twenty 1.1e306 edges, one
    positive and one negative, overflow to inf and -inf, and their Wiener index is NaN."""
    tiny = np.zeros((5, 5))
    tiny[0, 2] = tiny[0, 3] = 5e-324
    tiny[1, 2] = tiny[1, 4] = -5e-324
    long = np.zeros((42, 42))
    for i in range(20):
        long[i, i + 1] = 1.1e306
        long[21 + i, 22 + i] = -1.1e306
    return tiny, long


def identical(x, y):
    return (np.isnan(x) and np.isnan(y)) or x == y


def test_values_that_are_not_finite():
    """Python's inf, -inf and NaN where the .json writes "inf", "-inf" and "nan" (strict JSON has
    no number for them), the command line's values bit for bit."""
    tiny, long = tiny_and_long_paths()
    m = apsp.measures(tiny)
    assert [identical(x, y) for x, y in zip(m["harmonic_centrality"],
                                             [0, 0, np.nan, np.inf, -np.inf])] == [True] * 5
    assert m["closeness_centrality"][3] == np.inf and m["distance_sum"][0] == 1e-323
    m = apsp.measures(long)
    assert m["distance_sum"][0] == np.inf and m["distance_sum"][21] == -np.inf
    assert m["in_distance_sum"][20] == np.inf and m["in_distance_sum"][41] == -np.inf
    for name in ("wiener_index", "average_shortest_path_length"):
        assert type(m[name]) is float and np.isnan(m[name])
    if not os.path.exists(APSP):
        return
    for w in (tiny, long):
        expected = cli_measures(w, True, "--allow-negative")
        got = apsp.measures(w)
        for name, value in expected["vertex"].items():
            assert all(identical(x, float(y)) for x, y in zip(got[name], value)), name
        for name in ("diameter", "radius", "wiener_index", "average_shortest_path_length"):
            assert identical(got[name], float(expected["graph"][name])), name


def test_networkx_answers_inf_as_networkx():
    """1 / 5e-324 overflows in NetworkX too: apsp.networkx gives its inf (and its int 0 for the
    node that nothing reaches)."""
    import apsp.networkx as anx
    g = nx.DiGraph([(0, 1, {"weight": 5e-324})])
    for name in ("harmonic_centrality", "closeness_centrality"):
        got = getattr(anx, name)(g, distance="weight")
        want = getattr(nx, name)(g, distance="weight")
        assert got == want == {0: 0, 1: np.inf}
        assert [type(got[v]) for v in g] == [type(want[v]) for v in g], name
