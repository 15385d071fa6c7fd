"""The check of predecessor matrices shared by the tests of this directory."""

import numpy as np
import pytest


def check_paths(dist, pred, graph_weight, no_vertex=-9999, rel=1e-9, abs=1e-9):
    """Every predecessor row is a tree whose paths are shortest: following pred[i] back from j
    reaches i over edges of the graph (graph_weight[u, v]: the lightest edge u -> v, inf for
    none) whose weights add up to dist[i, j]; pred is no_vertex on the diagonal and where there
    is no path."""
    n = dist.shape[0]
    for i in range(n):
        for j in range(n):
            if i == j or np.isinf(dist[i, j]):
                assert pred[i, j] == no_vertex
                continue
            length, v, steps = 0.0, j, 0
            while v != i:
                u = pred[i, v]
                assert u >= 0 and np.isfinite(graph_weight[u, v])
                length += graph_weight[u, v]
                v, steps = u, steps + 1
                assert steps < n, "predecessor row %d loops" % i
            assert length == pytest.approx(dist[i, j], rel=rel, abs=abs)
