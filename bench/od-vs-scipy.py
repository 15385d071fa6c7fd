#!/usr/bin/env python3
"""An origin-destination table: `apsp IN OUT.npy --sources @S --targets @T` against SciPy's
`dijkstra(graph, indices=S)` (then T's columns) on the same HW3 graph and machine (issue 35).

usage: od-vs-scipy.py APSP IN [COUNT] [RUNS] -- COUNT sources and COUNT targets (default 1000)
drawn with seed 1 from [0, V), RUNS timings each (default 3, the median printed). apsp's time is
its --stats total (read and ordering included); SciPy's is dijkstra's alone (reading excluded).
The two tables are compared value for value (apsp's int32 against SciPy's float64, no path =
1073741823 against inf). Parallel edges keep their lightest weight, self-loops are dropped, as
apsp does.
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

INFINITY = 1073741823


def read_graph(path):
    data = np.fromfile(path, dtype="<i4")
    v, e = int(data[0]), int(data[1])
    src, dst, w = (data[2:].reshape(e, 3).T if e else (np.empty(0, "<i4"),) * 3)
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    order = np.lexsort((w, dst, src))
    src, dst, w = src[order], dst[order], w[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    return v, csr_matrix((w[first].astype(np.float64), (src[first], dst[first])), shape=(v, v))


def main():
    apsp, graph_path = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    v, graph = read_graph(graph_path)
    rng = random.Random(1)
    sources = [rng.randrange(v) for _ in range(count)]
    targets = [rng.randrange(v) for _ in range(count)]
    work = tempfile.mkdtemp(prefix="od-vs-scipy-")
    s_file, t_file = os.path.join(work, "S"), os.path.join(work, "T")
    for path, ids in ((s_file, sources), (t_file, targets)):
        with open(path, "w") as f:
            f.write("\n".join(map(str, ids)) + "\n")
    table, stats = os.path.join(work, "od.npy"), os.path.join(work, "stats.json")
    ours = []
    for _ in range(runs):
        subprocess.run([apsp, graph_path, table, "--sources", "@" + s_file, "--targets",
                        "@" + t_file, "--stats", stats], check=True)
        ours.append(json.load(open(stats))["seconds"]["total"])
        algorithm = json.load(open(stats))["algorithm"]
    theirs = []
    for _ in range(runs):
        start = time.perf_counter()
        rows = dijkstra(graph, directed=True, indices=sources)
        reference = rows[:, targets]
        theirs.append(time.perf_counter() - start)
    got = np.load(table).astype(np.float64)
    got[got == INFINITY] = np.inf
    same = bool(np.array_equal(got, reference))
    a, s = statistics.median(ours), statistics.median(theirs)
    print(f"V = {v}, {count} x {count} table: apsp ({algorithm}) {a:.3f} s (--stats total, median of "
          f"{runs}), SciPy dijkstra(indices) {s:.3f} s (median of {runs}): {s / a:.1f}x; "
          f"identical: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
