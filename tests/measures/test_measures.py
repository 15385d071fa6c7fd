"""`apsp measures` against NetworkX (Debian 12's 2.8 and later): every measure on small graphs of
every class (directed, undirected, disconnected, zero weights, negative weights without cycles,
real weights), fw, supernodal and sssp agreeing, the .json, .csv and .npy layouts, --measures
and --bins, and, with APSP_MPIRUN (the launcher and its options, ending in the flag before the
rank count), 1 to 3 ranks giving the bytes of one process. APSP_CLI: the apsp binary."""

import csv
import json
import os
import shlex
import subprocess
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

APSP = os.environ["APSP_CLI"]
MPIRUN = shlex.split(os.environ.get("APSP_MPIRUN", ""))
WORK = os.environ.get("APSP_WORK", "/tmp/apsp-measures-test")
RNG = np.random.default_rng(20261127)
REL = 1e-12

ALGORITHMS = ["fw", "supernodal", "sssp"]


def run(*args, expect=0, launcher=()):
    p = subprocess.run([*launcher, APSP, *map(str, args)], capture_output=True, text=True,
                       env=dict(os.environ, OMP_NUM_THREADS="1" if launcher else
                                os.environ.get("OMP_NUM_THREADS", "2")))
    assert p.returncode == expect, (args, p.returncode, p.stdout, p.stderr)
    return p


def algorithms_built():
    """The algorithms this build runs (supernodal needs METIS, sssp Kokkos Kernels)."""
    os.makedirs(WORK, exist_ok=True)
    probe = os.path.join(WORK, "probe.txt")
    with open(probe, "w") as f:
        f.write("# vertices 2\n0 1 1\n")
    found = []
    for a in ALGORITHMS:
        p = subprocess.run([APSP, "--algorithm", a, probe, os.path.join(WORK, "probe.out")],
                           capture_output=True, text=True)
        if p.returncode == 0:
            found.append(a)
    return found


BUILT = algorithms_built()


# --- graphs: (vertices, [(u, v, w)]) ---------------------------------------------------------

def random_graph(n, m, low, high, integer=True, rng=RNG):
    edges = []
    for _ in range(m):
        u, v = int(rng.integers(0, n)), int(rng.integers(0, n))
        if u == v:
            continue
        w = rng.uniform(low, high)
        edges.append((u, v, int(np.floor(w)) if integer else float(w)))
    return n, edges


def undirected(n, edges):
    return n, edges + [(v, u, w) for u, v, w in edges]


def ring(n, first=0, w=3):
    return [(first + i, first + (i + 1) % n, w + i % 4) for i in range(n)]


def graphs():
    cases = {}
    cases["directed"] = random_graph(40, 160, 1, 20)
    cases["undirected"] = undirected(*random_graph(37, 60, 1, 30))
    # Two strongly connected parts, one edge between them, and an isolated vertex.
    n1, n2 = 12, 9
    edges = ring(n1) + ring(n2, n1) + [(2, n1 + 4, 5)] + random_graph(n1, 15, 1, 9)[1]
    cases["disconnected"] = (n1 + n2 + 1, edges)
    cases["zero_weights"] = undirected(*random_graph(30, 60, 0, 3))
    # Negative weights without cycles: w + p(u) - p(v) with w >= 0, whole numbers.
    n, e = random_graph(33, 130, 0, 12)
    p = RNG.integers(0, 10, n)
    cases["negative"] = (n, [(u, v, w + int(p[u]) - int(p[v])) for u, v, w in e])
    cases["real"] = random_graph(35, 140, 0.5, 10.0, integer=False)
    cases["one_vertex"] = (1, [])
    cases["no_edges"] = (5, [])
    # Strongly connected, for NetworkX's own graph functions.
    n = 26
    cases["strong"] = (n, ring(n) + random_graph(n, 50, 1, 25)[1])
    return cases


GRAPHS = graphs()


def write_graph(path, n, edges):
    with open(path, "w") as f:
        f.write("# vertices %d\n" % n)
        for u, v, w in edges:
            f.write("%d %d %r\n" % (u, v, w))


def is_integer(edges):
    return all(isinstance(w, int) for _, _, w in edges)


def nx_graph(n, edges):
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if not g.has_edge(u, v) or g[u][v]["weight"] > w:
            g.add_edge(u, v, weight=w)
    return g


# --- the reference -------------------------------------------------------------------------

def reference(n, edges, bins=64):
    g = nx_graph(n, edges)
    negative = any(w < 0 for _, _, w in edges)
    dist = dict(nx.all_pairs_bellman_ford_path_length(g) if negative
                else nx.all_pairs_dijkstra_path_length(g))
    into = {v: {} for v in range(n)}
    for u in range(n):
        for v, d in dist[u].items():
            into[v][u] = d
    r = {
        "eccentricity": [max(dist[v].values()) for v in range(n)],
        "in_eccentricity": [max(into[v].values()) for v in range(n)],
        "reachable": [len(dist[v]) for v in range(n)],
        "in_reachable": [len(into[v]) for v in range(n)],
        "distance_sum": [sum(dist[v].values()) for v in range(n)],
        "in_distance_sum": [sum(into[v].values()) for v in range(n)],
    }
    if negative:  # NetworkX's centralities run Dijkstra: their formulas on the distances
        close = []
        for v in range(n):
            tot, k = sum(into[v].values()), len(into[v])
            c = 0.0
            if tot > 0 and n > 1:
                c = (k - 1.0) / tot * ((k - 1.0) / (n - 1))
            close.append(c)
        r["closeness_centrality"] = close
        r["harmonic_centrality"] = [sum(1 / d for d in into[v].values() if d != 0)
                                    for v in range(n)]
    else:
        c = nx.closeness_centrality(g, distance="weight")
        h = nx.harmonic_centrality(g, distance="weight")
        r["closeness_centrality"] = [c[v] for v in range(n)]
        r["harmonic_centrality"] = [h[v] for v in range(n)]
    ecc = r["eccentricity"]
    pairs = [d for u in range(n) for v, d in dist[u].items() if u != v]
    connected = len(pairs) == n * (n - 1)
    r["connected"] = connected
    r["diameter"] = max(ecc)
    r["radius"] = min(ecc)
    r["center"] = [v for v in range(n) if ecc[v] == r["radius"]]
    r["periphery"] = [v for v in range(n) if ecc[v] == r["diameter"]]
    r["wiener_index"] = sum(pairs)
    r["average_shortest_path_length"] = sum(pairs) / len(pairs) if pairs else 0.0
    if connected and not negative:  # NetworkX's own graph functions where they answer
        assert nx.diameter(g, e=nx.eccentricity(g, sp=dist)) == r["diameter"]
        assert nx.radius(g, e=nx.eccentricity(g, sp=dist)) == r["radius"]
        assert sorted(nx.center(g, e=nx.eccentricity(g, sp=dist))) == r["center"]
        assert sorted(nx.periphery(g, e=nx.eccentricity(g, sp=dist))) == r["periphery"]
        assert nx.wiener_index(g, weight="weight") == r["wiener_index"]
        if n > 1:
            assert nx.average_shortest_path_length(g, weight="weight") == pytest.approx(
                r["average_shortest_path_length"], rel=REL)
    # The histogram: equal-width bins over [min(0, the least distance), diameter].
    lo = min([0] + pairs)
    hi = r["diameter"]
    counts = [0] * bins
    for d in pairs:
        if hi == lo:
            b = 0
        elif isinstance(d, int):
            b = (d - lo) * bins // (hi - lo)
        else:
            b = int(np.floor((np.float64(d) - lo) / (hi - lo) * bins))
        counts[min(max(b, 0), bins - 1)] += 1
    r["histogram"] = {"bins": bins, "low": lo, "high": hi, "counts": counts,
                      "unreachable": n * (n - 1) - len(pairs)}
    return r


def same(ours, theirs, exact, what):
    if exact:
        assert ours == theirs, what
    else:
        assert ours == pytest.approx(theirs, rel=REL, abs=1e-300), what


VERTEX = ["eccentricity", "in_eccentricity", "reachable", "in_reachable", "distance_sum",
          "in_distance_sum", "closeness_centrality", "harmonic_centrality"]
GRAPH = ["diameter", "radius", "center", "periphery", "wiener_index",
         "average_shortest_path_length", "connected"]


def check(result, ref, integer):
    for name in VERTEX:
        exact = integer and name not in ("closeness_centrality", "harmonic_centrality")
        same(result["vertex"][name], ref[name], exact, name)
    for name in GRAPH:
        # Real weights: the distances of another order of sums, within its rounding.
        exact = name != "average_shortest_path_length" and (integer or name in (
            "center", "periphery", "connected"))
        same(result["graph"][name], ref[name], exact, name)
    h, rh = result["graph"]["histogram"], ref["histogram"]
    assert h["counts"] == rh["counts"]
    assert h["unreachable"] == rh["unreachable"]
    assert h["bins"] == rh["bins"]
    same([h["low"], h["high"]], [rh["low"], rh["high"]], integer, "histogram's range")


def measures(name, algorithm, *options, suffix=".json", launcher=()):
    n, edges = GRAPHS[name]
    d = os.path.join(WORK, name)
    os.makedirs(d, exist_ok=True)
    graph = os.path.join(d, "graph.txt")
    write_graph(graph, n, edges)
    tag = "-".join([algorithm, *[o.lstrip("-") for o in map(str, options)]]).replace(",", "_")
    out = os.path.join(d, tag + ("-mpi%d" % len(launcher) if launcher else "") + suffix)
    args = ["measures", graph, out, *options]
    if algorithm:
        args += ["--algorithm", algorithm]
    if any(w < 0 for _, _, w in edges):
        args.append("--allow-negative")
    run(*args, launcher=launcher)
    return out


def applies(name, algorithm):
    if algorithm not in BUILT:
        return False
    edges = GRAPHS[name][1]
    return algorithm != "sssp" or (is_integer(edges) and all(w >= 0 for _, _, w in edges))


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_against_networkx(name, algorithm):
    if not applies(name, algorithm):
        pytest.skip("%s does not run %s here" % (algorithm, name))
    n, edges = GRAPHS[name]
    with open(measures(name, algorithm)) as f:
        result = json.load(f)
    check(result, reference(n, edges), is_integer(edges))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_algorithms_agree(name):
    """Integer weights: the same bytes from every algorithm; real weights: the same bytes again
    from one algorithm."""
    outputs = {}
    for a in ALGORITHMS:
        if applies(name, a):
            with open(measures(name, a), "rb") as f:
                outputs[a] = f.read()
    assert "fw" in outputs
    if is_integer(GRAPHS[name][1]):
        assert len(set(outputs.values())) == 1, list(outputs)
    with open(measures(name, "fw"), "rb") as f:
        assert f.read() == outputs["fw"]


def test_bins():
    n, edges = GRAPHS["directed"]
    with open(measures("directed", "fw", "--bins", 7)) as f:
        result = json.load(f)
    check(result, reference(n, edges, bins=7), True)


def test_selected_measures():
    with open(measures("directed", "fw", "--measures", "diameter,closeness_centrality")) as f:
        result = json.load(f)
    assert set(result["vertex"]) == {"closeness_centrality"}
    assert set(result["graph"]) == {"diameter", "connected", "vertices"}


def test_csv_and_npy():
    n, edges = GRAPHS["disconnected"]
    with open(measures("disconnected", "fw")) as f:
        result = json.load(f)
    with open(measures("disconnected", "fw", suffix=".csv")) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["vertex"] + VERTEX
    assert [int(r[0]) for r in rows[1:]] == list(range(n))
    for c, name in enumerate(VERTEX, 1):
        assert [float(r[c]) for r in rows[1:]] == [float(x) for x in result["vertex"][name]], name
    a = np.load(measures("disconnected", "fw", suffix=".npy"))
    assert list(a.dtype.names) == VERTEX
    assert a.shape == (n,)
    assert a["eccentricity"].dtype == np.int32
    assert a["reachable"].dtype == np.int64
    for name in VERTEX:
        assert a[name].tolist() == result["vertex"][name], name


# Values that are not finite numbers, and denormals, in every format (issue 43): 1 / 5e-324
# overflows to inf (NetworkX's harmonic centrality too), inf - inf is NaN, the sums of a path of
# twenty 1.1e306 edges overflow. Each graph: (vertices, edges, {measure: {vertex or None: value}}).
INF, NAN = float("inf"), float("nan")


def path(first, count, w):
    return [(first + i, first + i + 1, w) for i in range(count)]


EXTREMES = {
    "tiny": (5, [(0, 2, 5e-324), (1, 2, -5e-324), (0, 3, 5e-324), (1, 4, -5e-324)],
             {"harmonic_centrality": {0: 0.0, 2: NAN, 3: INF, 4: -INF},
              "closeness_centrality": {3: INF, 4: 0.0}, "distance_sum": {0: 1e-323, 1: -1e-323},
              "in_distance_sum": {3: 5e-324, 4: -5e-324}, "eccentricity": {0: 5e-324},
              "diameter": {None: 5e-324}, "wiener_index": {None: 0.0}}),
    "overflow": (21, path(0, 20, 1.1e306),
                 {"distance_sum": {0: INF}, "in_distance_sum": {20: INF},
                  "closeness_centrality": {20: 0.0}, "wiener_index": {None: INF},
                  "average_shortest_path_length": {None: INF}}),
    "negative_overflow": (21, path(0, 20, -1.1e306),
                          {"distance_sum": {0: -INF}, "in_distance_sum": {20: -INF},
                           "wiener_index": {None: -INF},
                           "average_shortest_path_length": {None: -INF}}),
    "both": (42, path(0, 20, 1.1e306) + path(21, 20, -1.1e306),
             {"distance_sum": {0: INF, 21: -INF}, "wiener_index": {None: NAN},
              "average_shortest_path_length": {None: NAN}}),
}


def identical(x, y):
    """The same float, NaN included."""
    return (np.isnan(x) and np.isnan(y)) or (x == y and np.signbit(x) == np.signbit(y))


@pytest.mark.parametrize("name", sorted(EXTREMES))
def test_values_that_are_not_finite(name):
    n, edges, expected = EXTREMES[name]
    d = os.path.join(WORK, "extremes-" + name)
    os.makedirs(d, exist_ok=True)
    graph = os.path.join(d, "graph.txt")
    write_graph(graph, n, edges)
    files = {}
    for suffix in (".json", ".csv", ".npy"):
        files[suffix] = os.path.join(d, "measures" + suffix)
        run("measures", graph, files[suffix], "--algorithm", "fw", "--allow-negative")

    def refuse(constant):
        raise AssertionError("not standard JSON: " + constant)
    with open(files[".json"]) as f:
        result = json.load(f, parse_constant=refuse)  # Python's json alone reads NaN, Infinity
    # a value that is not finite is the string "inf", "-inf" or "nan"; every other a number
    graph = result["graph"]
    values = [*result["vertex"].values(), [graph["histogram"]["low"], graph["histogram"]["high"]],
              [v for v in graph.values() if not isinstance(v, (dict, list))]]
    for x in (x for column in values for x in column):
        assert isinstance(x, (int, float, bool)) or x in ("inf", "-inf", "nan"), x
    for measure, where in expected.items():
        for v, want in where.items():
            got = result["graph"][measure] if v is None else result["vertex"][measure][v]
            assert identical(float(got), want), (measure, v, got)
    with open(files[".csv"]) as f:
        rows = list(csv.reader(f))
    a = np.load(files[".npy"])
    for c, measure in enumerate(rows[0][1:], 1):
        for v in range(n):
            text, json_value = rows[1 + v][c], result["vertex"][measure][v]
            assert identical(float(text), float(json_value)), (measure, v, text)
            assert not isinstance(json_value, str) or text == json_value, (measure, v, text)
            assert identical(float(a[measure][v]), float(json_value)), (measure, v)


def test_float32():
    n, edges = GRAPHS["real"]
    out = measures("real", "fw", "--dtype", "float32")
    with open(out) as f:
        result = json.load(f)
    ref = reference(n, [(u, v, float(np.float32(w))) for u, v, w in edges])
    # float32 sums round: the distances within float32's rounding of a path.
    assert result["vertex"]["eccentricity"] == pytest.approx(ref["eccentricity"], rel=1e-5)
    assert result["graph"]["diameter"] == pytest.approx(ref["diameter"], rel=1e-5)


def test_refusals():
    n, edges = GRAPHS["directed"]
    os.makedirs(os.path.join(WORK, "directed"), exist_ok=True)
    graph = os.path.join(WORK, "directed", "graph.txt")
    write_graph(graph, n, edges)
    out = os.path.join(WORK, "refused.json")
    p = run("measures", graph, out, "--measures", "diameter,betweenness", expect=2)
    assert p.stderr.startswith("apsp: ") and p.stderr.count("\n") == 1, p.stderr
    assert "unknown measure 'betweenness'" in p.stderr and "eccentricity" in p.stderr
    p = run("measures", graph, os.path.join(WORK, "refused.csv"), "--measures", "diameter",
            expect=2)
    assert "diameter" in p.stderr and ".json" in p.stderr
    p = run("measures", graph, os.path.join(WORK, "refused.out"), expect=2)
    assert ".json, .csv or .npy" in p.stderr and '"-", JSON on standard output' in p.stderr
    p = run("measures", graph, out, "--measures", "", expect=2)
    assert "--measures is empty" in p.stderr
    p = run("measures", graph, out, "--bins", 0, expect=2)
    assert "--bins" in p.stderr
    assert not os.path.exists(out)


def test_standard_output():
    """OUT "-" is the JSON on standard output, the bytes of a .json OUT (issue 43)."""
    with open(measures("directed", "fw")) as f:
        expected = f.read()
    graph = os.path.join(WORK, "directed", "graph.txt")
    assert run("measures", graph, "-", "--algorithm", "fw").stdout == expected


@pytest.mark.skipif("supernodal" not in BUILT, reason="supernodal not built")
def test_stats_count_the_rows_made():
    """--stats' rates count the updates supernodal made (issue 43): its factor and the rows of
    every pass, each its share of the plan's row updates, not V^3; the sweeps' threads a row."""
    n = GRAPHS["directed"][0]
    measures("directed", "supernodal")
    graph = os.path.join(WORK, "directed", "graph.txt")
    stats = os.path.join(WORK, "rates.json")
    # Threads a row in the sweeps: one on CPUs; on GPUs up to four (AMD's: two) where the rows
    # are few.
    version = run("--version").stdout
    most_threads = max([1] + [t for b, t in {"cuda": 4, "hip": 2}.items() if b in version])
    threads = tuple(t for t in (1, 2, 4) if t <= most_threads)
    for options in [("--measures", "eccentricity"), ()]:
        run("measures", graph, os.path.join(WORK, "rates-out.json"), "--algorithm", "supernodal",
            "--stats", stats, *options)
        with open(stats) as f:
            s = json.load(f)
        rows = s["rows_made"]
        sn = s["supernodal"]
        # The measures of this directed graph come from its rows and the reversed graph's (a
        # factor of its own), on every backend: each row twice.
        assert sn["factors"] == 2, s
        assert sn["row_threads"] in threads, s
        if options:  # no histogram: each row once a factor
            assert rows == sn["factors"] * n, s
        else:  # the probes' rows, and the rows again where the histogram needs a pass of its own
            m = s["measures"]
            most = (m["histogram_passes"] + sn["factors"] - 1) * n + m["probed_rows"]
            assert sn["factors"] * n <= rows <= most, s
        made = sn["factors"] * sn["factor_updates"] + sn["row_updates"] / n * rows
        assert s["updates"] == pytest.approx(made, rel=1e-8)
        assert s["updates_per_second"] == pytest.approx(s["updates"] / s["seconds"]["compute"],
                                                        rel=1e-6)
    # --row-threads: that many, the backend's most at most; the same measures.
    with open(measures("directed", "supernodal")) as f:
        expected = f.read()
    for asked in (1, 2, 4):
        out = os.path.join(WORK, "threads-%d.json" % asked)
        run("measures", graph, out, "--algorithm", "supernodal", "--row-threads", asked,
            "--stats", stats)
        with open(stats) as f:
            assert json.load(f)["supernodal"]["row_threads"] == min(asked, most_threads)
        with open(out) as f:
            assert f.read() == expected, asked


def test_max_memory_counts_the_measures_totals():
    # 20,000 vertices: the totals of every row and column take ~1.2 MiB of the device's memory
    # beside the solver's (fw's matrix alone 1.5 GiB), and a cap counts them.
    n = 20000
    graph = os.path.join(WORK, "many.txt")
    write_graph(graph, n, [(i, i + 1, 1) for i in range(n - 1)])
    out = os.path.join(WORK, "capped.json")
    p = run("measures", graph, out, "--algorithm", "fw", "--max-memory", "1M", expect=2)
    assert p.stderr.count("\n") == 1 and "for the measures' totals" in p.stderr, p.stderr
    assert not os.path.exists(out)


@pytest.mark.skipif(not MPIRUN, reason="APSP_MPIRUN not given")
@pytest.mark.parametrize("np_", [1, 2, 3])
@pytest.mark.parametrize("algorithm", ["fw", "supernodal", "sssp"])
def test_ranks(np_, algorithm):
    """Integer weights: the bytes of one process; real weights: sums in another order (the
    ranks' in rank order), within their rounding."""
    for name in ("disconnected", "directed", "real", "negative", "one_vertex"):
        if not applies(name, algorithm):
            continue
        with open(measures(name, algorithm), "rb") as f:
            one = f.read()
        with open(measures(name, algorithm, launcher=(*MPIRUN, str(np_))), "rb") as f:
            ranks = f.read()
        if is_integer(GRAPHS[name][1]):
            assert ranks == one, (name, algorithm, np_)
            continue
        a, b = json.loads(ranks), json.loads(one)
        for part in ("vertex", "graph"):
            for key in b[part]:
                if key == "histogram":
                    assert a[part][key]["counts"] == b[part][key]["counts"]
                else:
                    same(a[part][key], b[part][key], False, key)
