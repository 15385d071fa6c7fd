"""apsp.networkx against the installed NetworkX (Debian 12's 2.8, sid's 3.4): every function on
small graphs of every class (directed, undirected, multigraph, node objects that are not
integers, no weights, integer and real weights, disconnected), the same answers (exactly on
integer weights, to rounding on real ones), the same exceptions with the same words."""

import inspect

import numpy as np
import pytest

nx = pytest.importorskip("networkx")

import apsp
import apsp.networkx as anx

RNG = np.random.default_rng(20261128)


def random_graph(kind, n, m, weights, rng=RNG):
    g = kind()
    g.add_nodes_from("v%d" % i for i in range(n))
    for _ in range(m):
        u, v = "v%d" % rng.integers(0, n), "v%d" % rng.integers(0, n)
        if weights == "none":
            g.add_edge(u, v)
        elif weights == "int":
            g.add_edge(u, v, weight=int(rng.integers(1, 9)), cost=int(rng.integers(0, 4)))
        else:
            g.add_edge(u, v, weight=float(rng.uniform(0.1, 3.0)), cost=float(rng.uniform(1, 2)))
    return g


def cycle_through(g):
    """g with a cycle through every node (strongly connected), weights as g's."""
    nodes = list(g)
    data = next(iter(g.edges(data=True)))[2] if g.number_of_edges() else {}
    for u, v in zip(nodes, nodes[1:] + nodes[:1]):
        g.add_edge(u, v, **{k: type(x)(7) for k, x in data.items()})
    return g


def graphs():
    cases = {}
    for weights in ("none", "int", "real"):
        cases["digraph-" + weights] = cycle_through(random_graph(nx.DiGraph, 23, 60, weights))
        cases["graph-" + weights] = cycle_through(random_graph(nx.Graph, 19, 30, weights))
        cases["multidigraph-" + weights] = cycle_through(
            random_graph(nx.MultiDiGraph, 17, 70, weights))
    cases["multigraph-int"] = cycle_through(random_graph(nx.MultiGraph, 15, 40, "int"))
    return cases


GRAPHS = graphs()
# Not (strongly) connected: a digraph that is weakly connected, one that is not, a graph in
# two parts.
DISCONNECTED = {
    "digraph-weak": nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 3}),
                                (0, 3, {"weight": 1})]),
    "digraph-apart": nx.DiGraph([(0, 1), (1, 0), (2, 3), (3, 2)]),
    "graph-apart": nx.Graph([("a", "b", {"weight": 1.5}), ("c", "d", {"weight": 2.5}),
                             ("d", "e", {"weight": 1})]),
}


def is_real(g, attr):
    return attr is not None and any(isinstance(d.get(attr, 1), float)
                                    for _, _, d in g.edges(data=True))


def same(got, want, real):
    """Equal, and of the same type; real weights' sums to rounding."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want)
        for k in want:
            same(got[k], want[k], real)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            same(a, b, real)
    elif isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.shape == want.shape
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-12 if real else 0)
    elif real:
        assert got == pytest.approx(want, rel=1e-12), (got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


def both(name, g, *args, **kwargs):
    """(apsp's answer, NetworkX's answer)."""
    return getattr(anx, name)(g, *args, **kwargs), getattr(nx, name)(g, *args, **kwargs)


def weight_attrs(g):
    return [None, "weight", "cost"] if g.number_of_edges() else [None]


@pytest.mark.parametrize("case", sorted(GRAPHS))
def test_centralities(case):
    g = GRAPHS[case]
    for attr in weight_attrs(g):
        real = is_real(g, attr)
        same(*both("closeness_centrality", g, distance=attr), real)
        same(*both("closeness_centrality", g, distance=attr, wf_improved=False), real)
        # harmonic sums of reciprocals round in their own order
        same(*both("harmonic_centrality", g, distance=attr), True)
        node = list(g)[3]
        same(*both("closeness_centrality", g, u=node, distance=attr), real)
        same(*both("harmonic_centrality", g, nbunch=list(g)[2:6], distance=attr), True)


@pytest.mark.parametrize("case", sorted(GRAPHS))
def test_distance_measures(case):
    g = GRAPHS[case]
    # NetworkX 2.8's eccentricity and the extrema are unweighted (3.x adds weight=)
    for name in ("eccentricity", "diameter", "radius", "center", "periphery"):
        same(*both(name, g), False)
    node = list(g)[1]
    same(*both("eccentricity", g, v=node), False)
    same(*both("eccentricity", g, v=list(g)[:4]), False)
    e = nx.eccentricity(g)
    same(*both("diameter", g, e=e), False)
    if "weight" in inspect.signature(nx.eccentricity).parameters:  # NetworkX 3.x
        for attr in weight_attrs(g):
            for name in ("eccentricity", "diameter", "radius", "center", "periphery"):
                same(*both(name, g, weight=attr), is_real(g, attr))
    for attr in weight_attrs(g):
        real = is_real(g, attr)
        same(*both("average_shortest_path_length", g, weight=attr), real)
        same(*both("wiener_index", g, weight=attr), real)


@pytest.mark.parametrize("case", sorted(GRAPHS))
def test_all_pairs(case):
    g = GRAPHS[case]
    for attr in weight_attrs(g):
        real = is_real(g, attr)
        got, want = both("floyd_warshall_numpy", g, weight=attr or "none")
        same(got, want, real)
        order = list(reversed(list(g)))
        same(*both("floyd_warshall_numpy", g, nodelist=order, weight=attr or "none"), real)
        got = anx.all_pairs_dijkstra_path_length(g, weight=attr)
        want = nx.all_pairs_dijkstra_path_length(g, weight=attr)
        assert not isinstance(got, (list, dict))  # a generator, as NetworkX's
        got, want = list(got), list(want)
        assert [u for u, _ in got] == [u for u, _ in want]
        same(dict(got), dict(want), real)
        same(dict(anx.all_pairs_dijkstra_path_length(g, cutoff=9, weight=attr)),
             dict(nx.all_pairs_dijkstra_path_length(g, cutoff=9, weight=attr)), real)


def raises_alike(name, g, *args, **kwargs):
    """Both raise the same exception type with the same words, or both answer the same."""
    try:
        want = getattr(nx, name)(g, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 - whatever NetworkX raises
        with pytest.raises(type(e)) as got:
            getattr(anx, name)(g, *args, **kwargs)
        assert type(got.value) is type(e) and str(got.value) == str(e), name
        return
    same(getattr(anx, name)(g, *args, **kwargs), want, is_real(g, kwargs.get("weight")))


@pytest.mark.parametrize("case", sorted(DISCONNECTED))
def test_disconnected(case):
    g = DISCONNECTED[case]
    for name in ("eccentricity", "diameter", "radius", "center", "periphery"):
        raises_alike(name, g)
    for attr in (None, "weight"):
        raises_alike("average_shortest_path_length", g, weight=attr)
        raises_alike("wiener_index", g, weight=attr)
        same(*both("closeness_centrality", g, distance=attr), is_real(g, attr))
        same(*both("harmonic_centrality", g, distance=attr), True)
        same(*both("floyd_warshall_numpy", g, weight=attr or "none"), is_real(g, attr))
        same(dict(anx.all_pairs_dijkstra_path_length(g, weight=attr)),
             dict(nx.all_pairs_dijkstra_path_length(g, weight=attr)), is_real(g, attr))
    # a node that reaches every node has an eccentricity even in a digraph that is not
    # strongly connected
    if case == "digraph-weak":
        same(*both("eccentricity", g, v=0), False)


def test_arguments_networkx_refuses():
    g = GRAPHS["digraph-int"]
    raises_alike("average_shortest_path_length", g, method="nonsense")
    raises_alike("floyd_warshall_numpy", g, nodelist=list(g)[:3])
    raises_alike("average_shortest_path_length", nx.DiGraph())
    raises_alike("wiener_index", nx.Graph())
    raises_alike("diameter", nx.Graph())
    same(*both("average_shortest_path_length", nx.path_graph(1)), False)


def test_negative_weights_are_exact():
    g = nx.DiGraph([(0, 1, {"weight": 4}), (0, 2, {"weight": 5}), (2, 1, {"weight": -3})])
    assert dict(anx.all_pairs_dijkstra_path_length(g))[0] == {0: 0, 1: 2, 2: 5}
    g.add_edge(1, 2, weight=1)
    with pytest.raises(apsp.NegativeCycleError):
        anx.floyd_warshall_numpy(g)


def test_average_shortest_path_length_method_by_method():
    """Each method as the installed NetworkX answers it: on a digraph weakly but not strongly
    connected 2.8's Floyd-Warshall methods count a pair without a path as inf, its others skip
    it, and 3.x raises; 2.8's floyd-warshall-numpy answers a NumPy float."""
    methods = ["unweighted", "dijkstra", "bellman-ford", "floyd-warshall", "floyd-warshall-numpy"]
    for g in (DISCONNECTED["digraph-weak"], GRAPHS["digraph-int"], GRAPHS["graph-real"]):
        for method in methods:
            for attr in (None, "weight"):
                raises_alike("average_shortest_path_length", g, weight=attr, method=method)


def test_integer_weights_past_2_53_are_refused():
    """Int weights are exact in float64 up to 2^53: a path that could be longer (the V - 1
    largest |w|) is refused where NetworkX's answer is exact (10^17 + 1 would round to 10^17),
    and floyd_warshall_numpy answers NetworkX's float64 matrix."""
    big = 10**17 + 1
    g = nx.DiGraph([(0, 1, {"weight": big}), (1, 2, {"weight": big}), (2, 0, {"weight": 1})])
    calls = [("closeness_centrality", {"distance": "weight"}),
             ("harmonic_centrality", {"distance": "weight"}),
             ("average_shortest_path_length", {"weight": "weight"}),
             ("wiener_index", {"weight": "weight"}),
             ("all_pairs_dijkstra_path_length", {"weight": "weight"})]
    if "weight" in inspect.signature(nx.eccentricity).parameters:  # NetworkX 3.x
        calls += [(name, {"weight": "weight"}) for name in ("eccentricity", "diameter", "radius",
                                                             "center", "periphery")]
    for name, kwargs in calls:
        with pytest.raises(ValueError, match=r"could reach 200000000000000002 .*2\^53"):
            dict(getattr(anx, name)(g, **kwargs))
    same(*both("floyd_warshall_numpy", g), False)
    # one edge that heavy alone is refused too, and unweighted calls still answer
    with pytest.raises(ValueError, match="2\\^53"):
        anx.wiener_index(nx.DiGraph([(0, 1, {"weight": 2**53 + 1})]), weight="weight")
    same(*both("wiener_index", g), False)


@pytest.mark.parametrize("directed", [True, False])
def test_integer_weights_to_2_53_are_exact(directed):
    """To paths of 2^53 float64 distances are NetworkX's exact integers, and so are their sums
    beyond 2^53 (rows of odd sums here, which doubles there round)."""
    w = 2**53 // 3
    g = (nx.DiGraph if directed else nx.Graph)([(0, 1, {"weight": w}), (1, 2, {"weight": w}),
                                                (2, 0, {"weight": w})])
    g.add_edge(2, 3, weight=1)
    g.add_edge(3, 2, weight=1)
    for name in ("wiener_index", "average_shortest_path_length"):
        same(*both(name, g, weight="weight"), False)
    same(*both("closeness_centrality", g, distance="weight"), False)
    same(*both("closeness_centrality", g, distance="weight", wf_improved=False), False)
    same(*both("harmonic_centrality", g, distance="weight"), True)  # 1 / d summed in any order
    same(dict(anx.all_pairs_dijkstra_path_length(g)), dict(nx.all_pairs_dijkstra_path_length(g)),
         False)
    if "weight" in inspect.signature(nx.eccentricity).parameters:  # NetworkX 3.x
        for name in ("eccentricity", "diameter", "radius", "center", "periphery"):
            same(*both(name, g, weight="weight"), False)


def test_integer_sums_past_2_53_over_many_rows():
    """The exact sums over more rows than one block of the distance matrix (1024)."""
    n = 1100
    g = nx.DiGraph()
    for i in range(n):
        g.add_edge(i, (i + 1) % n, weight=2**53 // n - 7 * i)
    same(*both("wiener_index", g, weight="weight"), False)
    same(*both("closeness_centrality", g, distance="weight"), False)


def test_result_types():
    """Distances and sums are ints if and only if every weight a path takes is an int (a
    multigraph's lightest parallel edge); d(v, v) and the harmonic centrality of a node nothing
    reaches are NetworkX's int 0."""
    mixed = nx.DiGraph([(0, 1, {"weight": 2}), (1, 2, {"weight": 1.5}), (3, 0, {"weight": 1})])
    got = dict(anx.all_pairs_dijkstra_path_length(mixed))
    want = dict(nx.all_pairs_dijkstra_path_length(mixed))
    for u in mixed:
        assert got[u] == want[u] and list(got[u]) == list(want[u])
        assert [type(x) for x in got[u].values()] == [int] + [float] * (len(got[u]) - 1), u
    h = anx.harmonic_centrality(mixed, distance="weight")
    same(h, nx.harmonic_centrality(mixed, distance="weight"), True)
    assert type(h[3]) is int and h[3] == 0
    multi = nx.MultiDiGraph([(0, 1, {"weight": 2.5}), (0, 1, {"weight": 1}), (1, 2, {"weight": 3})])
    same(dict(anx.all_pairs_dijkstra_path_length(multi)),
         dict(nx.all_pairs_dijkstra_path_length(multi)), False)
    same(*both("wiener_index", multi.to_undirected(), weight="weight"), False)
    # a zero-weight edge into a node: NetworkX skips d = 0, the node keeps the int
    zero = nx.DiGraph([(0, 1, {"weight": 0}), (1, 2, {"weight": 2})])
    same(anx.harmonic_centrality(zero, distance="weight"),
         nx.harmonic_centrality(zero, distance="weight"), False)
