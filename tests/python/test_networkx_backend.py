"""apsp as NetworkX's backend "apsp" (NetworkX 3.2 and later: Debian sid's root of
scripts/check-modern-kokkos): NetworkX finds it by the entry points that the build writes beside
the module (build/<preset>/python/apsp-*.dist-info), dispatches to it with backend="apsp" (the
backend's call counter says so), and the answers are NetworkX's own."""

import importlib.metadata

import pytest

nx = pytest.importorskip("networkx")

import apsp.networkx as anx

NX_VERSION = tuple(int(p) for p in nx.__version__.split(".")[:2] if p.isdigit())
pytestmark = pytest.mark.skipif(NX_VERSION < (3, 2),
                                reason="NetworkX %s has no backends (3.2 and later)"
                                % nx.__version__)


def test_the_entry_points_name_the_backend():
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="networkx.backends")}
    assert found.get("apsp") == "apsp.networkx:backend_interface"
    info = {ep.name: ep.value
            for ep in importlib.metadata.entry_points(group="networkx.backend_info")}
    assert info.get("apsp") == "apsp.networkx:backend_info"
    assert "apsp" in nx.utils.backends.backends


def graph():
    g = nx.DiGraph()
    edges = [(0, 1, 3), (1, 2, 1), (2, 0, 2), (2, 3, 4), (3, 1, 1), (3, 4, 2), (4, 0, 5)]
    g.add_weighted_edges_from(("n%d" % u, "n%d" % v, w) for u, v, w in edges)
    return g


CALLS = [
    ("closeness_centrality", {"distance": "weight"}),
    ("harmonic_centrality", {"distance": "weight"}),
    ("eccentricity", {"weight": "weight"}),
    ("diameter", {}),
    ("radius", {"weight": "weight"}),
    ("center", {}),
    ("periphery", {}),
    ("average_shortest_path_length", {"weight": "weight"}),
    ("wiener_index", {"weight": "weight"}),
    ("floyd_warshall_numpy", {}),
    ("all_pairs_dijkstra_path_length", {}),
]


@pytest.mark.parametrize("name,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_dispatches_to_apsp(name, kwargs):
    g = graph()
    before = anx.backend_interface.calls.get(name, 0)
    got = getattr(nx, name)(g, backend="apsp", **kwargs)
    assert anx.backend_interface.calls.get(name, 0) == before + 1, "not dispatched to apsp"
    want = getattr(nx, name)(g, backend="networkx", **kwargs)
    assert anx.backend_interface.calls.get(name, 0) == before + 1
    if name == "all_pairs_dijkstra_path_length":
        got, want = dict(got), dict(want)
    if name == "floyd_warshall_numpy":
        assert got.tolist() == want.tolist()
    elif name == "harmonic_centrality":  # sums of reciprocals round in their own order
        assert got == pytest.approx(want, rel=1e-12)
    else:
        assert got == want


def test_the_same_exception_through_the_backend():
    g = nx.DiGraph([(0, 1), (1, 2)])
    with pytest.raises(nx.NetworkXError, match="Graph is not strongly connected"):
        nx.average_shortest_path_length(g, backend="apsp")
    with pytest.raises(nx.NetworkXError, match="the digraph is not strongly connected"):
        nx.eccentricity(g, backend="apsp")
