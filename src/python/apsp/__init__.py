"""apsp: all-pairs shortest paths with the blocked Floyd-Warshall of the apsp project (Kokkos),
on the backend the module was built for (GPU builds run on the GPU).

SciPy-compatible functions (swap ``from scipy.sparse.csgraph import floyd_warshall`` for
``from apsp import floyd_warshall``):

    floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False)
    shortest_path(csgraph, method='auto', directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None)

Inputs as in SciPy: a dense array (0, inf and NaN are non-edges), a masked array (masked
entries are non-edges, unmasked zeros are zero-weight edges), a scipy.sparse matrix (stored
entries are edges, explicit zeros included; duplicates as scipy.sparse.csr_matrix makes them).
``directed=False`` lets an edge be used both ways (the lighter of w(i,j), w(j,i)). Distances
are float64 with ``np.inf`` for no path; predecessors are int32 with -9999 for none. A negative
cycle raises ``apsp.NegativeCycleError`` (a subclass of SciPy's where SciPy is installed). A
self-loop is an edge like any other, as in the command line and ``solve``: one of weight >= 0
never lowers dist(i, i) = 0, a negative one is a negative cycle (SciPy's 'J' and 'BF' agree; its
'FW' and 'D' ignore the diagonal). Every method ('auto', 'FW', 'D', 'J', 'BF') gives the exact
shortest paths: 'FW' and ``floyd_warshall`` run dense Floyd-Warshall, the others whichever
the command line's ``--algorithm auto`` would (supernodal Floyd-Warshall on sparse graphs with
small separators, such as roads and meshes, where the build has METIS; else dense).
``overwrite=True`` writes the distances into a dense, C-ordered, writeable float64 array given
as csgraph (SciPy's 'FW'; here also 'auto') and returns it. ``indices`` of any shape give distances of shape
``indices.shape + (N,)``, as in SciPy. Too large a graph is a MemoryError that says what it
needs, before anything of its size is allocated.
Predecessors follow apsp's rule: the smallest tight in-neighbour on a shortest path of fewest
edges, so every row is a tree; with tied shortest paths they may differ from SciPy's.

A 3-D array (B, n, n) is a batch of B graphs, solved in one call with SciPy's semantics per
slice (results (B, n, n); a NegativeCycleError names the first bad slice in its ``.graph``).
``solve_batch(sizes, src, dst, weight=None, ...)`` solves a PyG-style batch of edge lists.

``measures(csgraph, directed=True, measures=None, bins=64, method='auto', unweighted=False,
dtype='auto')`` gives what ``apsp measures`` writes (eccentricities, closeness and harmonic
centrality, diameter, radius, center, periphery, average shortest-path length, Wiener index,
the distance histogram) as a dict named as its .json names them, reduced from the distance rows
where the solver makes them: no V x V matrix is made. ``apsp.networkx`` answers NetworkX's
functions of these names on a NetworkX graph (and is NetworkX's backend "apsp" from 3.2).

``Graph(csgraph | (u, v, w, n), directed=True, dtype=None, method='auto')`` prepares a graph once
(supernodal Floyd-Warshall's ordering and factor, kept on the device) for many questions:
``g.distances(sources, targets)`` tables, ``g.measures()``, ``g.update_weights(w)`` (the same
edges, new weights); see apsp/graph.py.

Native form: ``solve(src, dst, weight, num_vertices, dtype='auto', predecessors=False,
algorithm='auto')`` on an edge list, in int32, float32 or float64 (float32 is exact for integer
distances below 2^24 and takes half the memory of float64).
"""

import collections
import operator

import numpy as np

from . import _native

NegativeCycleError = _native.NegativeCycleError
NULL_PREDECESSOR = -9999  # SciPy's value for "no predecessor"

__all__ = ["floyd_warshall", "shortest_path", "solve", "solve_batch", "measures", "RaggedResult",
           "Graph", "config", "NegativeCycleError"]

__version__ = _native.__version__

_METHODS = ("auto", "FW", "D", "J", "BF")
# A dense input goes to the solver as edges, where auto may order it, from this many vertices
# and at most this many edges per vertex (the command line's thresholds for considering
# supernodal Floyd-Warshall).
_SPARSE_MIN_VERTICES = _native.SUPERNODAL_MIN_VERTICES
_SPARSE_MAX_DEGREE = _native.SUPERNODAL_MAX_DEGREE
_DTYPES = ("auto", "int32", "float32", "float64")
_MAX_BINS = _native.MAX_HISTOGRAM_BINS
_INT64_MAX = int(np.iinfo(np.int64).max)


def config():
    """The build: apsp and Kokkos versions, the backend and device the module computes on."""
    return _native.config()


def _is_sparse(graph):
    try:
        import scipy.sparse
    except ImportError:
        return False
    return scipy.sparse.issparse(graph)


def _check_square(shape, ndim, batch=False):
    if ndim != 2 and not (batch and ndim == 3):
        raise ValueError("graph should have two dimensions (or three: a batch (B, n, n))"
                         if batch else "graph should have two dimensions")
    if shape[-2] != shape[-1]:
        raise ValueError("graph should be a square array")


def _whole_number(name, x):
    """x as a Python int, refused as Python refuses a non-integer where it needs one (range(2.5)):
    a TypeError, never a silent truncation."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError("%s must be an integer, got %r (%s)" % (name, x, type(x).__name__)) from None


def _integer_arrays(**arrays):
    """The named arrays as NumPy arrays, each one-dimensional and of integers (an empty one of any
    type), in the order given; else a ValueError naming the first that is not."""
    out = []
    for name, a in arrays.items():
        a = np.asarray(a)
        if a.ndim != 1 or not (a.size == 0 or np.issubdtype(a.dtype, np.integer)):
            raise ValueError("%s must be a one-dimensional integer array" % name)
        out.append(a)
    return out


def _real_array(name, w):
    """w as a NumPy array, one-dimensional and of real numbers (an empty one of any type)."""
    w = np.asarray(w)
    if w.ndim != 1 or not (w.size == 0 or np.issubdtype(w.dtype, np.number)):
        raise ValueError("%s must be a one-dimensional numeric array" % name)
    if np.issubdtype(w.dtype, np.complexfloating):
        raise ValueError("%s must hold real numbers, got %s" % (name, w.dtype))
    return w


def _edges_as_int64(src, dst, outside):
    """src and dst as int64 arrays. An unsigned vertex that int64 cannot hold (from 2^63, which
    the conversion would wrap to a negative number) is refused first, as the native check words
    a vertex out of range ("outside" ends it), naming it as given."""
    if src.shape == dst.shape:
        beyond = np.zeros(src.shape, dtype=bool)
        for a in (src, dst):
            if a.dtype.kind == "u":
                beyond |= a > _INT64_MAX
        if np.any(beyond):
            e = int(np.argmax(beyond))
            raise ValueError("edge %d (%d -> %d) has a vertex outside %s"
                             % (e, int(src[e]), int(dst[e]), outside))
    return src.astype(np.int64, copy=False), dst.astype(np.int64, copy=False)


def _check_memory(n, predecessors, host_bytes, dense=True):
    """The solver's memory check for V = n in float64 before anything of size V is allocated
    here; host_bytes: what this layer holds besides the results; dense=False: the results only
    (an edge list that auto may order: each algorithm checks its own needs). (Small graphs skip
    it: the solver checks again, exactly, before its own work.)"""
    if 8 * n * n + host_bytes > 1 << 26:
        _native.check_memory(int(n), "float64", predecessors, 0, min(host_bytes, 2**64 - 1),
                             dense)


def _solve(csgraph, directed, unweighted, predecessors, algorithm):
    """SciPy's csgraph conventions, then the solver: (distances float64, predecessors or None).
    Dense and masked inputs go to the solver as one weight matrix (+inf: no edge; the diagonal
    is not read) unless a self-loop is negative or, for algorithm 'auto', the graph is sparse;
    sparse ones as their edges, where 'auto' may take supernodal Floyd-Warshall; a self-loop of
    weight >= 0 never matters, a negative one is a negative cycle."""
    if _is_sparse(csgraph):
        import scipy.sparse

        _check_square(csgraph.shape, len(csgraph.shape))
        n = csgraph.shape[0]
        _check_memory(n, predecessors, 0, dense=algorithm == "fw")
        csr = scipy.sparse.csr_matrix(csgraph, dtype=np.float64)
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(csr.indptr))
        dst = csr.indices.astype(np.int64)
        weight = np.asarray(csr.data, dtype=np.float64)
        keep = np.isfinite(weight) & ((src != dst) | (weight < 0))
        src, dst, weight = src[keep], dst[keep], weight[keep]
        if unweighted:
            weight = np.ones_like(weight)
        if not directed:
            src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
            weight = np.concatenate([weight, weight])
        return _native.solve(src, dst, weight, n, "float64", predecessors, algorithm)
    shape = np.shape(csgraph)
    _check_square(shape, len(shape), batch=True)
    n = shape[-1]
    # The float64 copy and the mask below (of every slice of a batch).
    _check_memory(n, predecessors, 9 * int(np.prod(shape, dtype=np.float64)))
    if np.ma.isMaskedArray(csgraph):
        weights = np.array(csgraph.data, dtype=np.float64)
        no_edge = np.ma.getmaskarray(csgraph) | ~np.isfinite(weights)
    else:
        weights = np.array(csgraph, dtype=np.float64)
        no_edge = ~np.isfinite(weights)
        no_edge |= weights == 0  # 0, inf and NaN: no edge
    if unweighted:
        weights[...] = 1.0
    weights[no_edge] = np.inf
    if not directed:
        np.minimum(weights, np.swapaxes(weights, -1, -2), out=weights)
    if weights.ndim == 3:  # a batch: SciPy's semantics per slice
        return _native.solve_dense_batch_float64(weights, predecessors)
    edges = np.isfinite(weights)
    np.fill_diagonal(edges, np.diagonal(weights) < 0)
    # A negative self-loop is a negative cycle, which the solver names by its smallest vertex:
    # as edges, since the dense form does not read the diagonal. A sparse graph as edges too,
    # where auto may order it (supernodal Floyd-Warshall).
    sparse = (algorithm == "auto" and n >= _SPARSE_MIN_VERTICES
              and np.count_nonzero(edges) <= _SPARSE_MAX_DEGREE * n)
    if sparse or np.any(np.diagonal(weights) < 0):
        src, dst = np.nonzero(edges)
        return _native.solve(src, dst, weights[src, dst], n, "float64", predecessors, algorithm)
    return _native.solve_dense_float64(np.ascontiguousarray(weights), predecessors)


def _scipy_result(dist, pred, return_predecessors):
    if not return_predecessors:
        return dist
    pred[pred < 0] = NULL_PREDECESSOR
    return dist, pred


def _overwritten(csgraph, dist):
    """SciPy's overwrite=True: the distances in csgraph itself where it is a dense, C-ordered
    float64 array (writeable here; a subclass such as np.matrix through an ndarray view)."""
    if (isinstance(csgraph, np.ndarray) and not np.ma.isMaskedArray(csgraph)
            and csgraph.dtype == np.float64 and csgraph.flags.c_contiguous
            and csgraph.flags.writeable):
        out = np.asarray(csgraph)
        out[...] = dist
        return out
    return dist


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False):
    """All-pairs shortest paths, as scipy.sparse.csgraph.floyd_warshall."""
    dist, pred = _solve(csgraph, directed, unweighted, bool(return_predecessors), "fw")
    if overwrite:
        dist = _overwritten(csgraph, dist)
    return _scipy_result(dist, pred, return_predecessors)


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None):
    """Shortest paths, as scipy.sparse.csgraph.shortest_path (every method is Floyd-Warshall
    here, exact also with negative weights)."""
    if method not in _METHODS:
        raise ValueError("unrecognized method '%s'" % (method,))
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    rows = None
    if indices is not None:  # checked before any work; any shape, as in SciPy
        rows = np.array(indices, dtype=np.int64, copy=True)
        shape = csgraph.shape if hasattr(csgraph, "shape") else np.shape(csgraph)
        n = shape[-1] if len(shape) > 0 else 0
        rows[rows < 0] += n
        if np.any((rows < 0) | (rows >= n)):
            raise ValueError("indices out of range 0...N")
    dist, pred = _solve(csgraph, directed, unweighted, bool(return_predecessors),
                        "fw" if method == "FW" else "auto")
    if rows is not None:  # per slice of a batch
        dist = dist[..., rows, :]
        pred = pred[..., rows, :] if return_predecessors else pred
    elif overwrite and method in ("auto", "FW"):
        dist = _overwritten(csgraph, dist)
    return _scipy_result(dist, pred, return_predecessors)


def solve(src, dst, weight, num_vertices, dtype="auto", predecessors=False, algorithm="auto"):
    """Shortest paths of the graph with edges src[e] -> dst[e] of weight[e] on num_vertices
    vertices: returns the distances (num_vertices x num_vertices of the dtype; the int32
    infinity 2^30 - 1, or +inf, for no path) and, with predecessors=True, also the predecessor
    rows (int32, -1 for none). dtype 'auto': int32 when every weight is an integer (and the
    bounds hold), otherwise float64. A negative self-loop counts as a negative cycle.
    algorithm: 'fw' (dense blocked Floyd-Warshall), 'supernodal' (Floyd-Warshall on a
    nested-dissection order: sparse graphs with small separators; needs a build with METIS) or
    'auto' (supernodal where its ordering predicts less work, as the command line decides).
    Every algorithm gives the same distances and predecessors on integer weights."""
    if dtype not in _DTYPES:
        raise ValueError("dtype must be one of %s, got %r" % (", ".join(_DTYPES), dtype))
    src, dst = _integer_arrays(src=src, dst=dst)
    weight = _real_array("weight", weight)
    if weight.size and not np.all(np.isfinite(weight)):
        raise ValueError("weights must be finite")
    n = _whole_number("num_vertices", num_vertices)
    if not 0 <= n <= 2**31 - 1:
        raise ValueError("num_vertices must be in 0..2^31-1, got %d" % n)
    src, dst = _edges_as_int64(src, dst, "0..%d" % (n - 1))
    # The weights in float64, as the command line reads them: the native part chooses the type
    # by the command line's --dtype rule, converts them to it and checks a float32 negative
    # cycle against them.
    dist, pred = _native.solve(src, dst, weight.astype(np.float64, copy=False), n, dtype,
                               bool(predecessors), algorithm)
    return (dist, pred) if predecessors else dist



class RaggedResult(collections.namedtuple("RaggedResult",
                                          "values offsets sizes predecessors")):
    """solve_batch's ragged result: graph g's n x n distances are
    ``values[offsets[g]:offsets[g + 1]]`` row-major (``result.distances(g)`` reshapes them), its
    predecessors the same entries of ``predecessors`` (None unless asked for)."""

    def distances(self, g):
        n = int(self.sizes[g])
        return self.values[self.offsets[g]:self.offsets[g + 1]].reshape(n, n)

    def predecessors_of(self, g):
        n = int(self.sizes[g])
        return self.predecessors[self.offsets[g]:self.offsets[g + 1]].reshape(n, n)


def solve_batch(sizes, src, dst, weight=None, dtype="float64", directed=True,
                predecessors=False, layout="padded"):
    """Shortest paths of many graphs in one call. Graph g has sizes[g] vertices, numbered
    sizes[0] + ... + sizes[g-1] onwards in the concatenated numbering (PyG's batches); edge e
    goes from src[e] to dst[e] (global numbers, inside one graph: an edge between two graphs is
    an error naming it) with weight[e] (None: every weight 1, hop counts). directed=False lets
    every edge be used both ways. A negative self-loop is a negative cycle.

    layout='padded' returns a (B, nmax, nmax) array: graph g's distances in [g, :n, :n], infinity
    outside (float dtypes: inf; int32: 2^30 - 1, as for no path); layout='ragged' returns a
    RaggedResult (flat values and offsets: one 200-vertex graph among many small ones costs its
    own 200^2, not B x 200^2). dtype: float64 (SciPy's, the default), float32, int32 or 'auto'
    (int32 for whole weights whose paths int32 holds, else float64); whole weights are computed
    in int32 whatever the result type, exactly. With predecessors=True also the predecessor
    matrices (int32, apsp's rule, -9999 where none and outside each graph): padded, the tuple
    (distances, predecessors); ragged, RaggedResult.predecessors. A negative cycle raises
    NegativeCycleError naming the first graph with one (its .graph and .vertex)."""
    if dtype not in _DTYPES:
        raise ValueError("dtype must be one of %s, got %r" % (", ".join(_DTYPES), dtype))
    if layout not in ("padded", "ragged"):
        raise ValueError("layout must be 'padded' or 'ragged', got %r" % (layout,))
    sizes, src, dst = _integer_arrays(sizes=sizes, src=src, dst=dst)
    if sizes.dtype.kind == "u" and np.any(sizes > _INT64_MAX):  # as the native check words it
        g = int(np.argmax(sizes > _INT64_MAX))
        raise ValueError("graph %d has %d vertices (0..2^31-1 allowed)" % (g, int(sizes[g])))
    src, dst = _edges_as_int64(src, dst, "the batch's vertices")
    if weight is None:
        weight = np.ones(src.shape, dtype=np.float64)
    else:
        weight = np.asarray(weight)
        if weight.ndim != 1 or not (weight.size == 0 or np.issubdtype(weight.dtype, np.number)):
            raise ValueError("weight must be a one-dimensional numeric array")
    dist, pred, offsets = _native.solve_batch(
        sizes.astype(np.int64, copy=False), src, dst, weight.astype(np.float64, copy=False), dtype,
        bool(directed), bool(predecessors), layout == "padded")
    if layout == "ragged":
        return RaggedResult(dist, offsets, sizes.astype(np.int64, copy=False), pred)
    return (dist, pred) if predecessors else dist


_MEASURES = _native.MEASURES  # the vertices' names, then the graph's (the files' order)


def _edges(csgraph, directed, unweighted):
    """SciPy's csgraph conventions as an edge list (src, dst, weight float64, n): dense arrays'
    0, inf and NaN and masked entries are non-edges, sparse matrices' stored entries are edges;
    a self-loop of weight >= 0 never matters (dropped), a negative one is a negative cycle."""
    if _is_sparse(csgraph):
        import scipy.sparse
        _check_square(csgraph.shape, len(csgraph.shape))
        n = csgraph.shape[0]
        csr = scipy.sparse.csr_matrix(csgraph, dtype=np.float64)
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(csr.indptr))
        dst = csr.indices.astype(np.int64)
        weight = np.asarray(csr.data, dtype=np.float64)
    else:
        shape = np.shape(csgraph)
        _check_square(shape, len(shape))
        n = shape[-1]
        if np.ma.isMaskedArray(csgraph):
            weights = np.array(csgraph.data, dtype=np.float64)
            edge = ~np.ma.getmaskarray(csgraph)
        else:
            weights = np.array(csgraph, dtype=np.float64)
            edge = weights != 0
        src, dst = np.nonzero(edge)
        weight = weights[src, dst]
    keep = np.isfinite(weight) & ((src != dst) | (weight < 0))
    src, dst, weight = src[keep].astype(np.int64), dst[keep].astype(np.int64), weight[keep]
    if unweighted:
        weight = np.ones_like(weight)
    if not directed:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
        weight = np.concatenate([weight, weight])
    return src, dst, weight, n


def _measures_of_edges(src, dst, weight, n, names, bins, algorithm, dtype):
    """The native measures of an edge list (int64, int64, float64) as measures() returns them
    (bins = 0: no histogram), and the name of the distance type they were computed in."""
    if names is None:
        names = []
    elif isinstance(names, str):
        names = [names]
    for name in names:
        if name not in _MEASURES:
            raise ValueError("unknown measure %r: the measures are %s"
                             % (name, ", ".join(_MEASURES)))
    return _native.measures(src, dst, weight, int(n), dtype, algorithm, ",".join(names),
                            _whole_number("bins", bins))


def measures(csgraph, directed=True, measures=None, bins=64, method="auto", unweighted=False,
             dtype="auto"):
    """The measures of a graph given as SciPy's csgraph functions take it (see the module's
    text), as ``apsp measures`` computes them: a dict named as its .json names them ("vertices",
    "connected", "diameter", "radius", "center", "periphery", "average_shortest_path_length",
    "wiener_index", "histogram" (a dict: "bins", "low", "high", "counts", "unreachable"), and
    per vertex NumPy arrays "eccentricity", "in_eccentricity", "reachable", "in_reachable",
    "distance_sum", "in_distance_sum", "closeness_centrality", "harmonic_centrality").
    ``measures``: a list of those names (None: all), as ``--measures``; ``bins`` as ``--bins``
    (1..4096). Values that are not finite (the harmonic centrality of a tiny float distance,
    1 / 5e-324, is inf, as in NetworkX) are float inf, -inf or NaN.
    ``method``: 'FW' dense Floyd-Warshall, any other of SciPy's names what the command line's
    ``--algorithm auto`` runs. dtype: 'auto' (int32 for whole weights, as the command line),
    'int32', 'float32' or 'float64'. On a graph that is not strongly connected every value is
    over the pairs with a path ("connected" is False). The rows are reduced where the solver
    makes them: no V x V matrix is made."""
    if method not in _METHODS:
        raise ValueError("unrecognized method '%s'" % (method,))
    if dtype not in _DTYPES:
        raise ValueError("dtype must be one of %s, got %r" % (", ".join(_DTYPES), dtype))
    bins = _whole_number("bins", bins)
    if not 1 <= bins <= _MAX_BINS:  # as --bins (the native 0, no histogram, is internal)
        raise ValueError("bins must be in 1..%d, got %d" % (_MAX_BINS, bins))
    src, dst, weight, n = _edges(csgraph, directed, unweighted)
    return _measures_of_edges(src, dst, weight, n, measures, bins,
                              "fw" if method == "FW" else "auto", dtype)[0]


from .graph import Graph  # noqa: E402  (it uses the conventions above)
