"""apsp.Graph: a graph prepared once and asked many questions. The plan of supernodal
Floyd-Warshall (the nested-dissection ordering and the symbolic phase: most of a small query's
time) and the numeric factor are made when the Graph is made and kept on the device; each query
then makes only its rows. New weights on the same edges keep the plan and make a new factor.

    g = apsp.Graph(csgraph)                   # or apsp.Graph((u, v, w, n), directed=True)
    table = g.distances(sources, targets)     # len(sources) x len(targets)
    p = g.predecessors(sources, targets)      # the vertex before each target; g.path(s, t)
    g.update_weights(new_w)                   # the same edges, in g.edges' order
    m = g.measures()                          # as apsp.measures
    g.save("roads.prep")                      # apsp prepare's file; apsp.Graph.load reads it
    g.close()                                 # or: with apsp.Graph(...) as g: ...
"""

import os

import numpy as np

from . import _native

_INT32_INFINITY = 1073741823  # 2^30 - 1: the int32 distances' "no path", as the command line's


class Graph:
    """A graph prepared for many queries, on the module's backend (GPU builds keep its factor on
    the GPU).

    ``graph``: a csgraph as SciPy's functions take it (dense, masked or scipy.sparse: its edges by
    the same conventions as ``apsp.shortest_path``), or an edge list ``(u, v, w, n)``: edges
    u[e] -> v[e] of weight w[e] (finite; None: every weight 1) on n vertices. ``directed=False``
    lets every edge be used both ways. ``dtype``: None or 'auto' (int32 for whole weights whose
    paths int32 holds, else float64), 'int32', 'float32' or 'float64'. ``method``: 'auto' or
    'supernodal' (the one algorithm with a factor smaller than the distances; needs a build with
    METIS). A negative cycle raises NegativeCycleError; too large a graph a MemoryError that
    says what it needs.

    Queries run one at a time (from any thread). ``close()`` (or leaving a ``with`` block) frees
    the device memory at once; a closed Graph raises ValueError when used."""

    def __init__(self, graph, directed=True, dtype=None, method="auto"):
        from . import _DTYPES, _edges, _edges_as_int64, _integer_arrays, _whole_number

        if method not in ("auto", "supernodal"):
            raise ValueError(
                "method must be 'auto' or 'supernodal', got %r: a Graph keeps supernodal "
                "Floyd-Warshall's factor (dense Floyd-Warshall's is its V x V distances; "
                "apsp.floyd_warshall solves a graph once)" % (method,))
        dtype = "auto" if dtype is None else dtype
        if dtype not in _DTYPES:
            raise ValueError("dtype must be one of None, %s, got %r" % (", ".join(_DTYPES), dtype))
        if isinstance(graph, tuple):
            if len(graph) != 4:
                raise ValueError("an edge list is a tuple (u, v, w, n), got %d items" % len(graph))
            u, v, w, n = graph
            n = _whole_number("n", n)
            if not 0 <= n <= 2**31 - 1:
                raise ValueError("n must be in 0..2^31-1, got %d" % n)
            u, v = _integer_arrays(u=u, v=v)
            src, dst = _edges_as_int64(u, v, "0..%d" % (n - 1))
            weight = np.ones(src.shape) if w is None else self._weights(w, "w")
            if weight.size and not np.all(np.isfinite(weight)):
                raise ValueError("w: weights must be finite")
        else:
            src, dst, weight, n = _edges(graph, True, False)
        self._src, self._dst, self._directed = src, dst, bool(directed)
        self._n = int(n)
        both = self._both_ways(weight)
        self._native = _native.PreparedGraph(both[0], both[1], both[2], self._n, dtype,
                                             "supernodal")

    # -- queries --

    def distances(self, sources=None, targets=None):
        """The distances d(s, t) for s in ``sources``, t in ``targets`` (None: every vertex, in
        order; a list may repeat a vertex and be in any order; a single vertex drops its axis),
        as an array of the Graph's dtype: shape (len(sources), len(targets)). No path is
        ``infinity`` (inf; int32: 2^30 - 1)."""
        return self._table(self._native.distances, sources, targets)

    def predecessors(self, sources=None, targets=None):
        """The predecessors p(s, t) for s in ``sources``, t in ``targets`` (as ``distances``
        takes them): the vertex before t on a shortest s -> t path (among those of fewest edges,
        the smallest), -1 for t = s and where there is no path; int32, what
        ``apsp.solve(..., predecessors=True)`` gives. Each source is one search from its
        distance row."""
        return self._table(self._native.predecessors, sources, targets)

    def path(self, source, target):
        """A shortest path from ``source`` to ``target``: its vertices (int64, source first,
        target last; the path of ``predecessors``), or an empty array where there is none."""
        s, s_scalar = self._vertex_list("source", source)
        t, t_scalar = self._vertex_list("target", target)
        if not (s_scalar and t_scalar):
            raise ValueError("path takes one source vertex and one target vertex")
        source, target = int(s[0]), int(t[0])
        if not 0 <= target < self._n:
            raise ValueError("target %d is not a vertex (0..%d)" % (target, self._n - 1))
        row = self._native.predecessors(s, None)[0]  # the source's range checked
        if source == target:
            return np.array([source], dtype=np.int64)
        if row[target] < 0:
            return np.array([], dtype=np.int64)
        path = [target]
        while path[-1] != source:
            path.append(int(row[path[-1]]))
        return np.array(path[::-1], dtype=np.int64)

    def measures(self, measures=None, bins=64):
        """The measures of ``apsp.measures`` (the same names, values and types) of the Graph's
        current weights."""
        from . import _MAX_BINS, _MEASURES, _whole_number

        names = [] if measures is None else [measures] if isinstance(measures, str) else measures
        for name in names:
            if name not in _MEASURES:
                raise ValueError("unknown measure %r: the measures are %s"
                                 % (name, ", ".join(_MEASURES)))
        bins = _whole_number("bins", bins)
        if not 1 <= bins <= _MAX_BINS:
            raise ValueError("bins must be in 1..%d, got %d" % (_MAX_BINS, bins))
        return self._native.measures(",".join(names), bins)[0]

    def update_weights(self, weights):
        """New weights on the same edges: a 1-D array in the order of ``edges`` (one weight per
        edge as given, before ``directed=False`` uses it both ways), or a csgraph whose edges are
        among the Graph's (an edge it lacks is closed). For float dtypes +inf closes an edge.
        The plan is kept and a new factor made; refused with the Graph unchanged: another
        number of weights, an edge the Graph does not have, NaN, a negative weight where the
        Graph had none, weights its dtype cannot hold, a negative cycle."""
        if isinstance(weights, np.ndarray) and weights.ndim == 1 or isinstance(weights, list):
            w = self._weights(weights, "weights")
        else:
            w = self._weights_of_csgraph(weights)
        if w.shape != self._src.shape:
            raise ValueError("weights: %d for the Graph's %d edges" % (w.size, self._src.size))
        self._native.update_weights(self._both_ways(w)[2])

    # -- the file --

    def save(self, path):
        """Writes the Graph as it is now (its edges, current weights, plan and factor) to
        ``path`` in the command line's prepared format (``apsp prepare``): ``apsp PREPARED OUT``,
        ``apsp measures PREPARED OUT`` and ``Graph.load`` read it, on any backend. Written whole
        or not at all (an existing file is replaced)."""
        self._native.save(os.fspath(path))

    @classmethod
    def load(cls, path):
        """The Graph of a prepared file (``apsp prepare``'s or ``save``'s): its plan and factor
        read, not made. Its edges are the file's, directed (a Graph made with ``directed=False``
        was saved with each edge both ways), and ``update_weights`` takes one weight per edge of
        the file. A damaged file, or one of another format version, raises apsp.Error naming
        what is wrong."""
        g = cls.__new__(cls)
        g._native = _native.PreparedGraph(os.fspath(path))
        g._src, g._dst = g._native.edge_arrays()
        g._directed = True
        g._n = int(g._native.num_vertices)
        return g

    # -- the Graph --

    @property
    def edges(self):
        """(src, dst): the Graph's edges as given (int64 arrays), the order of update_weights."""
        return self._src.copy(), self._dst.copy()

    @property
    def num_vertices(self):
        return self._n

    @property
    def dtype(self):
        return np.dtype(self._native.dtype)

    @property
    def infinity(self):
        """The distances' "no path": inf, or 2^30 - 1 for int32."""
        return _INT32_INFINITY if self._native.dtype == "int32" else np.inf

    @property
    def nbytes(self):
        """Device memory the Graph keeps between queries (its factor and index arrays)."""
        return self._native.nbytes

    @property
    def closed(self):
        return self._native.closed

    def close(self):
        """Frees the Graph's device memory now (later queries raise ValueError)."""
        self._native.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "apsp.Graph(%d vertices, %d edges, %s%s%s)" % (
            self._n, self._src.size, "directed" if self._directed else "undirected",
            ", " + self._native.dtype, ", closed" if self.closed else "")

    # -- helpers --

    def _both_ways(self, weight):
        if self._directed:
            return self._src, self._dst, weight
        return (np.concatenate([self._src, self._dst]), np.concatenate([self._dst, self._src]),
                np.concatenate([weight, weight]))

    @staticmethod
    def _weights(w, name):
        from . import _real_array

        return _real_array(name, w).astype(np.float64)

    def _table(self, native, sources, targets):
        """native(s, t) of the vertex lists, the axis of a single vertex dropped."""
        s, s_scalar = self._vertex_list("sources", sources)
        t, t_scalar = self._vertex_list("targets", targets)
        table = native(s, t)
        if s_scalar:
            table = table[0]
        if t_scalar:
            table = table[..., 0]
        return table

    def _vertex_list(self, name, given):
        if given is None:
            return None, False
        a = np.asarray(given)
        if a.ndim > 1 or not (a.size == 0 or np.issubdtype(a.dtype, np.integer)):
            raise ValueError("%s must be a vertex or a one-dimensional list of vertices" % name)
        if a.dtype.kind == "u" and np.any(a >= self._n):  # before int64 could wrap it
            raise ValueError("%s holds a vertex outside 0..%d" % (name, self._n - 1))
        return np.atleast_1d(a).astype(np.int64), a.ndim == 0

    def _weights_of_csgraph(self, csgraph):
        """The weights of the Graph's edges in a csgraph (its edges by the conventions the Graph
        was made with; one it lacks: +inf, closed); an edge of csgraph the Graph lacks is an
        error."""
        from . import _edges

        src, dst, weight, n = _edges(csgraph, True, False)
        if n != self._n:
            raise ValueError("weights: a csgraph of %d vertices for a Graph of %d" % (n, self._n))
        key = self._src * self._n + self._dst
        order = np.argsort(key, kind="stable")
        if np.any(np.diff(key[order]) == 0):
            raise ValueError("weights: the Graph has parallel edges; give its new weights as an "
                             "array in the order of Graph.edges")
        new = src * self._n + dst
        at = np.searchsorted(key[order], new)
        found = (at < key.size) & (key[order][np.minimum(at, key.size - 1)] == new)
        if not np.all(found):
            e = int(np.argmin(found))
            raise ValueError("weights: edge %d -> %d is not an edge of the Graph (its edges are "
                             "fixed: make a new Graph)" % (src[e], dst[e]))
        w = np.full(key.size, np.inf)
        w[order[at]] = weight
        return w
