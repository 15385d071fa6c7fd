#!/usr/bin/env python3
"""SciPy's all-pairs answer on an HW3 graph: scipy.sparse.csgraph.shortest_path(method='auto').

usage: sparse_scipy.py IN OUT -- writes OUT as HW3 distances (so it can be compared with apsp's)
and prints the seconds spent in shortest_path alone (reading and writing excluded).
Parallel edges keep their lightest weight (csr_matrix would sum them) and self-loops are
dropped, as apsp does; zero weights stay edges (explicit zeros of a sparse matrix are edges).
"""
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path

INFINITY = 1073741823


def main():
    source, target = sys.argv[1], sys.argv[2]
    data = np.fromfile(source, dtype="<i4")
    v, e = int(data[0]), int(data[1])
    src, dst, w = (data[2:].reshape(e, 3).T if e else (np.empty(0, "<i4"),) * 3)
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    order = np.lexsort((w, dst, src))  # by source, target, then weight: lightest first
    src, dst, w = src[order], dst[order], w[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    graph = csr_matrix((w[first].astype(np.float64), (src[first], dst[first])), shape=(v, v))
    start = time.perf_counter()
    dist = shortest_path(graph, method="auto", directed=True)
    seconds = time.perf_counter() - start
    dist[np.isinf(dist)] = INFINITY
    dist.astype("<i4").tofile(target)
    print(f"{seconds:.3f}")


if __name__ == "__main__":
    main()
