"""NetworkX's shortest-path measures computed by apsp: the functions below take a NetworkX graph
and answer as the installed NetworkX does (2.8 and 3.x: the same arguments, results keyed by the
graph's nodes, the same exceptions), the distances from apsp's solvers instead of a Dijkstra or
breadth-first search from every node. The measures (eccentricity, closeness and harmonic
centrality, diameter, radius, center, periphery, average shortest-path length, Wiener index)
are reduced where the solver makes the distance rows (apsp.measures): no V x V matrix is made
(but for the sums of int weights whose paths int32 does not hold, which come from the float64
distance matrix so that they are NetworkX's exact integers).

    closeness_centrality(G, u=None, distance=None, wf_improved=True)
    harmonic_centrality(G, nbunch=None, distance=None, sources=None)
    eccentricity(G, v=None, sp=None, weight=None)
    diameter(G, e=None, usebounds=False, weight=None)   (radius, center, periphery alike)
    average_shortest_path_length(G, weight=None, method=None)
    wiener_index(G, weight=None)
    floyd_warshall_numpy(G, nodelist=None, weight="weight")
    all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight")

Weights as NetworkX reads them: the edge attribute named (missing: 1), None for every edge 1; a
multigraph's parallel edges count by the lightest. Self-loops never shorten a path, as in
NetworkX. Distances and their sums are ints if and only if every weight is an int (NetworkX's own
type on a graph of int and float weights depends on which of two tied paths it meets first),
otherwise floats; a 0 that NetworkX never sums (d(v, v), the harmonic centrality of a node nothing
reaches) is the int 0, as in NetworkX. Int weights are exact up to paths of 2^53: apsp's distances
are at most float64, so where a path could be longer (the V - 1 largest |w| summed) a function
whose answer NetworkX gives exactly raises ValueError. Negative weights give exact shortest paths
(NetworkX's Dijkstra does not promise them), and a negative cycle raises apsp.NegativeCycleError.
Arguments apsp does not compute (a callable weight, ``sp``, harmonic ``sources``) and the null
graph go to NetworkX itself.

From NetworkX 3.2 the same functions are its backend "apsp" (the build writes the entry points
``networkx.backends`` and ``networkx.backend_info``): ``nx.closeness_centrality(G,
backend="apsp")``, or every supported call with NETWORKX_BACKEND_PRIORITY=apsp.
"""

import functools
import heapq

import networkx as nx
import numpy as np

import apsp

__all__ = ["closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius",
           "center", "periphery", "average_shortest_path_length", "wiener_index",
           "floyd_warshall_numpy", "all_pairs_dijkstra_path_length"]

_NX_VERSION = tuple(int(p) for p in nx.__version__.split(".")[:2] if p.isdigit())


def _networkx(name):
    """NetworkX's own implementation of `name`, never a backend's."""
    f = getattr(nx, name)
    if _NX_VERSION >= (3, 2):
        return functools.partial(f, backend="networkx")
    return f


# float64 holds every integer of magnitude up to this, and not every one above.
_EXACT_INTEGERS = 2**53


class _Edges:
    """G's nodes (in G's order) and its edges as apsp takes them: index arrays and float64
    weights, each ordered pair once with the lightest weight (as NetworkX picks a multigraph's),
    both ways for an undirected graph, no self-loops; `integral`: whether every weight a path
    takes is an int, so NetworkX's sums are ints. exact=True (answers NetworkX gives exactly)
    refuses int weights whose paths float64 may not hold exactly."""

    def __init__(self, G, weight, nodelist=None, exact=True):
        self.nodes = list(G) if nodelist is None else list(nodelist)
        index = {v: i for i, v in enumerate(self.nodes)}
        lightest = {}
        for u, v, d in G.edges(data=True):
            if u == v or u not in index or v not in index:
                continue
            w = d.get(weight, 1) if weight is not None else 1
            pairs = [(index[u], index[v])]
            if not G.is_directed():
                pairs.append((index[v], index[u]))
            for p in pairs:
                if p not in lightest or w < lightest[p]:
                    lightest[p] = w
        self.integral = all(isinstance(w, (int, np.integer)) and not isinstance(w, bool)
                            for w in lightest.values())
        self.n = len(self.nodes)
        if self.integral and exact:
            # A shortest path takes at most V - 1 edges, each once (the native type rule's bound).
            longest = sum(heapq.nlargest(max(self.n - 1, 1), (abs(int(w)) for w in
                                                                lightest.values())))
            if longest > _EXACT_INTEGERS:
                raise ValueError(
                    "apsp.networkx: with these int weights a shortest path could reach %d (the "
                    "V - 1 largest |w| summed, V = %d), above 2^53, beyond which apsp's float64 "
                    "distances are not exact integers; NetworkX's own function computes it "
                    "exactly" % (longest, self.n))
        pairs = list(lightest)
        self.src = np.array([p[0] for p in pairs], dtype=np.int64)
        self.dst = np.array([p[1] for p in pairs], dtype=np.int64)
        self.weight = np.array([float(lightest[p]) for p in pairs], dtype=np.float64)

    def value(self, x):
        """A distance or sum as NetworkX types it."""
        return int(x) if self.integral else float(x)

    def measures(self, names, sums=()):
        """The native measures `names`; `sums` (of "distance_sum", "in_distance_sum",
        "wiener_index") exact as NetworkX's integer sums, where the weights are ints."""
        m, dtype = apsp._measures_of_edges(self.src, self.dst, self.weight, self.n,
                                           list(names) + list(sums), 0, "auto", "auto")
        if self.integral and dtype != "int32" and sums:
            # int weights whose paths int32 does not hold: float64 distances, exact (below 2^53),
            # but the native sums are doubles, which round above 2^53, where NetworkX's ints do
            # not: these sums from the distance matrix, in integers.
            m.update(self._exact_sums(sums))
        return m

    def _exact_sums(self, names):
        """The sums `names` of the float64 distances (exact integers) as Python ints: each
        distance split into d = high 2^32 + low (|d| <= 2^53: the halves' sums over V < 2^31
        values stay within int64), a block of rows at a time."""
        dist = self.distances()
        column_high = np.zeros(self.n, dtype=np.int64)
        column_low = np.zeros(self.n, dtype=np.int64)
        rows = []
        for first in range(0, self.n, 1024):
            block = dist[first:first + 1024]
            high, low = np.divmod(np.where(np.isfinite(block), block, 0).astype(np.int64), 2**32)
            column_high += high.sum(axis=0)
            column_low += low.sum(axis=0)
            rows += [int(h) * 2**32 + int(lo) for h, lo in zip(high.sum(axis=1), low.sum(axis=1))]
        sums = {"distance_sum": rows, "wiener_index": sum(rows),
                "in_distance_sum": [int(h) * 2**32 + int(lo)
                                    for h, lo in zip(column_high, column_low)]}
        return {name: sums[name] for name in names}

    def distances(self):
        return apsp.solve(self.src, self.dst, self.weight, self.n, dtype="float64")


def _not_connected(G):
    if G.is_directed():
        return nx.NetworkXError(
            "Found infinite path length because the digraph is not strongly connected")
    return nx.NetworkXError("Found infinite path length because the graph is not connected")


def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """NetworkX's closeness_centrality: from the distances into each node (a digraph's incoming
    ones), (r - 1) / sum, times (r - 1) / (n - 1) with wf_improved, r the nodes that reach it."""
    if callable(distance) or len(G) == 0:
        return _networkx("closeness_centrality")(G, u=u, distance=distance,
                                                  wf_improved=wf_improved)
    edges = _Edges(G, distance)
    m = edges.measures(["in_reachable"], sums=["in_distance_sum"])
    total = m["in_distance_sum"]
    reached = [int(r) - 1.0 for r in m["in_reachable"]]  # Python floats, as NetworkX's
    n = edges.n
    result = {}
    for i, node in enumerate(edges.nodes):
        c = 0.0
        t = edges.value(total[i])
        if t > 0.0 and n > 1:
            c = reached[i] / t
            if wf_improved:
                c *= reached[i] / (n - 1)
        result[node] = float(c)
    if u is not None:
        return result[u]
    return result


def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """NetworkX's harmonic_centrality: the sum of 1 / d(s, u) over the nodes s that reach u (a
    distance 0 skipped)."""
    if sources is not None or callable(distance) or len(G) == 0:
        return _networkx("harmonic_centrality")(G, nbunch=nbunch, distance=distance,
                                                 sources=sources)
    nodes = set(G.nbunch_iter(nbunch)) if nbunch is not None else set(G.nodes)
    edges = _Edges(G, distance)
    m = edges.measures(["harmonic_centrality", "in_eccentricity", "in_distance_sum"])
    # NetworkX starts every node at the int 0 and adds 1 / d for each d(u, v) != 0: a node with
    # no such term (each distance into it 0: none above, and a sum of 0) keeps the int.
    no_term = (m["in_eccentricity"] == 0) & (np.asarray(m["in_distance_sum"]) == 0)
    return {node: 0 if no_term[i] else float(m["harmonic_centrality"][i])
            for i, node in enumerate(edges.nodes) if node in nodes}


def _eccentricities(G, weight):
    """Every node's eccentricity, or NetworkX's error where a node does not reach every node."""
    edges = _Edges(G, weight)
    m = edges.measures(["eccentricity", "reachable"])
    if np.any(m["reachable"] != edges.n):
        raise _not_connected(G)
    return {node: edges.value(m["eccentricity"][i]) for i, node in enumerate(edges.nodes)}


def eccentricity(G, v=None, sp=None, weight=None):
    """NetworkX's eccentricity: the longest shortest path from each node (of v: one node, or a
    container of them); NetworkXError where a node does not reach every node."""
    if sp is not None or callable(weight) or len(G) == 0:
        if weight is None:
            return _networkx("eccentricity")(G, v=v, sp=sp)
        return _networkx("eccentricity")(G, v=v, sp=sp, weight=weight)
    asked = list(G.nbunch_iter(v))
    edges = _Edges(G, weight)
    m = edges.measures(["eccentricity", "reachable"])
    index = {node: i for i, node in enumerate(edges.nodes)}
    e = {}
    for node in asked:
        i = index[node]
        if m["reachable"][i] != edges.n:
            raise _not_connected(G)
        e[node] = edges.value(m["eccentricity"][i])
    if v in G:
        return e[v]
    return e


def _extreme(G, e, weight):
    if e is None:
        if len(G) == 0 or callable(weight):
            return None
        e = _eccentricities(G, weight)
    return e


def diameter(G, e=None, usebounds=False, weight=None):
    """NetworkX's diameter: the largest eccentricity."""
    e = _extreme(G, e, weight)
    return max(e.values()) if e is not None else max(eccentricity(G, weight=weight).values())


def radius(G, e=None, usebounds=False, weight=None):
    """NetworkX's radius: the smallest eccentricity."""
    e = _extreme(G, e, weight)
    return min(e.values()) if e is not None else min(eccentricity(G, weight=weight).values())


def periphery(G, e=None, usebounds=False, weight=None):
    """NetworkX's periphery: the nodes of largest eccentricity, in G's order."""
    e = _extreme(G, e, weight)
    if e is None:
        e = eccentricity(G, weight=weight)
    d = max(e.values())
    return [v for v in e if e[v] == d]


def center(G, e=None, usebounds=False, weight=None):
    """NetworkX's center: the nodes of smallest eccentricity, in G's order."""
    e = _extreme(G, e, weight)
    if e is None:
        e = eccentricity(G, weight=weight)
    r = min(e.values())
    return [v for v in e if e[v] == r]


def average_shortest_path_length(G, weight=None, method=None):
    """NetworkX's average_shortest_path_length: the sum of d(u, v) over ordered pairs u != v,
    over n (n - 1); the connectivity the installed NetworkX asks for (2.8: a digraph weakly
    connected, counting the pairs with a path, except its Floyd-Warshall methods, which count a
    pair without one as inf; 3.x: strongly connected)."""
    single_source = ["unweighted", "dijkstra", "bellman-ford"]
    supported = single_source + ["floyd-warshall", "floyd-warshall-numpy"]
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in supported:
        raise ValueError(f"method not supported: {method}")
    n = len(G)
    if n == 0 or callable(weight):
        return _networkx("average_shortest_path_length")(G, weight=weight, method=method)
    if n == 1:
        return 0
    if G.is_directed():
        if _NX_VERSION >= (3, 0):
            if not nx.is_strongly_connected(G):
                raise nx.NetworkXError("Graph is not strongly connected.")
        elif not nx.is_weakly_connected(G):
            raise nx.NetworkXError("Graph is not weakly connected.")
    elif not nx.is_connected(G):
        raise nx.NetworkXError("Graph is not connected.")
    edges = _Edges(G, None if method == "unweighted" else weight)
    m = edges.measures([], sums=["wiener_index"])
    average = edges.value(m["wiener_index"]) / (n * (n - 1))
    if method in single_source:
        return average
    if not m["connected"]:  # NetworkX 2.8 on a digraph only weakly connected: a pair's inf
        average = float("inf")
    if method == "floyd-warshall-numpy" and _NX_VERSION < (3, 0):
        return np.float64(average)  # 2.8 divides NumPy's sum of its matrix
    return average


def wiener_index(G, weight=None):
    """NetworkX's wiener_index: the sum of d(u, v) over the (unordered, in an undirected graph)
    pairs; inf where the graph is not (strongly) connected."""
    if len(G) == 0 or callable(weight):
        return _networkx("wiener_index")(G, weight=weight)
    edges = _Edges(G, weight)
    m = edges.measures([], sums=["wiener_index"])
    if not m["connected"]:
        return float("inf")
    total = edges.value(m["wiener_index"])
    return total if G.is_directed() else total / 2


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """NetworkX's floyd_warshall_numpy: the float64 distance matrix in nodelist's order (inf for
    no path)."""
    if nodelist is not None:
        if not (len(nodelist) == len(G) == len(set(nodelist))):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)"
            )
    if callable(weight):
        return _networkx("floyd_warshall_numpy")(G, nodelist=nodelist, weight=weight)
    # NetworkX's matrix is float64 too: int weights round in it as here.
    return _Edges(G, weight, nodelist, exact=False).distances()


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """NetworkX's all_pairs_dijkstra_path_length: a generator of (node, {target: distance}) in
    G's order, each dict in order of distance, targets beyond cutoff left out."""
    if callable(weight):
        yield from _networkx("all_pairs_dijkstra_path_length")(G, cutoff=cutoff, weight=weight)
        return
    edges = _Edges(G, weight)
    dist = edges.distances()
    for i, node in enumerate(edges.nodes):
        row = dist[i]
        reached = np.flatnonzero(np.isfinite(row) if cutoff is None
                                 else np.isfinite(row) & (row <= cutoff))
        order = reached[np.argsort(row[reached], kind="stable")]
        # d(v, v) is NetworkX's int 0 whatever the weights
        yield node, {edges.nodes[j]: 0 if j == i else edges.value(row[j]) for j in order}


# --- the NetworkX backend (NetworkX >= 3.2) -------------------------------------------------

class _Backend:
    """NetworkX's backend protocol: its graphs are NetworkX's own (nothing to convert), and
    `calls` counts what NetworkX dispatched here, by function name."""

    def __init__(self):
        self.calls = {}
        for name in __all__:
            setattr(self, name, self._counted(name, globals()[name]))

    def _counted(self, name, f):
        @functools.wraps(f)
        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return f(*args, **kwargs)
        return counted

    @staticmethod
    def convert_from_nx(G, *args, **kwargs):
        return G

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """What apsp computes itself: no callable weight, no sp or sources."""
        if name not in __all__:
            return False
        for key in ("weight", "distance"):
            if callable(kwargs.get(key)):
                return "a callable weight"
        if kwargs.get("sp") is not None or kwargs.get("sources") is not None:
            return "sp and sources are NetworkX's"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        return True


backend_interface = _Backend()


def backend_info():
    """The networkx.backend_info entry point: what NetworkX's docs and config say of apsp."""
    return {
        "backend_name": "apsp",
        "project": "apsp",
        "package": "apsp",
        "short_summary": "All-pairs shortest paths by blocked Floyd-Warshall (Kokkos).",
        "functions": {name: {} for name in __all__},
        "default_config": {},
    }
