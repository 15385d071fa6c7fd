#!/usr/bin/env python3
"""Tables of a prepared graph (apsp.Graph, issue 46) against the same table from the edge list
(`apsp IN OUT.npy --sources @S --targets @T`), on one HW3 graph and machine.

usage: prepared-graph.py APSP IN [--counts 1000,10000] [--runs 5] [--cli-runs 3]

Reports, in seconds (best and median of --runs, after one warm-up query):
  prepare        apsp.Graph((u, v, w, n)): ordering, symbolic phase, factor (once);
  table K        g.distances(S, T), K sources x K targets drawn with seed 1 (one line per K);
  update+table   g.update_weights(new weights, same edges) then the first table again;
  cli table K    the command line's --stats total for the same table from the edge list (ordering
                 and reading included), the median of --cli-runs;
and checks each table of the Graph against the command line's, value for value (after the
update: against the command line on the updated graph).
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import apsp


def read_edges(path):
    data = np.fromfile(path, dtype="<i4")
    v, e = int(data[0]), int(data[1])
    src, dst, w = data[2:2 + 3 * e].reshape(e, 3).T
    return v, src.astype(np.int64), dst.astype(np.int64), w.astype(np.float64)


def write_edges(path, v, src, dst, w):
    head = np.array([v, src.size], dtype="<i4")
    body = np.stack([src, dst, w]).T.astype("<i4")
    with open(path, "wb") as f:
        head.tofile(f)
        body.tofile(f)


def cli_table(cli, graph, sources, targets, work, runs):
    """(median --stats total, the table) of the command line from the edge list."""
    s_file, t_file = os.path.join(work, "S"), os.path.join(work, "T")
    for path, ids in ((s_file, sources), (t_file, targets)):
        with open(path, "w") as f:
            f.write("\n".join(map(str, ids)) + "\n")
    out, stats = os.path.join(work, "table.npy"), os.path.join(work, "stats.json")
    seconds = []
    for _ in range(runs):
        subprocess.run([cli, graph, out, "--sources", "@" + s_file, "--targets", "@" + t_file,
                        "--stats", stats], check=True, stdout=subprocess.DEVNULL)
        seconds.append(json.load(open(stats))["seconds"]["total"])
    return statistics.median(seconds), np.load(out)


def timed(f, runs):
    f()  # warm-up
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        seconds.append(time.perf_counter() - start)
    return min(seconds), statistics.median(seconds)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("cli")
    p.add_argument("graph")
    p.add_argument("--counts", default="1000,10000")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cli-runs", type=int, default=3)
    a = p.parse_args()
    v, src, dst, w = read_edges(a.graph)
    work = tempfile.mkdtemp(prefix="prepared-graph-")
    print(f"apsp {apsp.__version__} on {apsp.config()['device']}; V = {v}, E = {src.size}")
    start = time.perf_counter()
    g = apsp.Graph((src, dst, w, v))
    print(f"prepare {time.perf_counter() - start:.3f} s ({g.dtype}, nbytes {g.nbytes})")
    ok = True
    rng = random.Random(1)
    first = None
    for count in [int(c) for c in a.counts.split(",")]:
        count = min(count, v)
        sources = [rng.randrange(v) for _ in range(count)]
        targets = [rng.randrange(v) for _ in range(count)]
        first = first or (sources, targets)
        best, median = timed(lambda: g.distances(sources, targets), a.runs)
        cli, expected = cli_table(a.cli, a.graph, sources, targets, work, a.cli_runs)
        same = np.array_equal(g.distances(sources, targets), expected)
        ok = ok and same
        print(f"table {count} x {count}: {best:.4f} s best, {median:.4f} s median of {a.runs}; "
              f"cli table from the edge list {cli:.3f} s; identical: {'yes' if same else 'NO'}")
    sources, targets = first
    new = np.random.default_rng(2).integers(int(w.min()), int(w.max()) + 1, w.size)
    weights = [new.astype(np.float64), w]

    def update_and_table():
        g.update_weights(weights[0])
        weights.reverse()
        return g.distances(sources, targets)

    best, median = timed(update_and_table, a.runs + a.runs % 2)  # ends on the new weights
    updated = os.path.join(work, "updated.in")
    write_edges(updated, v, src, dst, new)
    _, expected = cli_table(a.cli, updated, sources, targets, work, 1)
    same = np.array_equal(g.distances(sources, targets), expected)
    ok = ok and same
    print(f"update+table {len(sources)} x {len(targets)}: {best:.4f} s best, {median:.4f} s "
          f"median; identical to the cli on the new weights: {'yes' if same else 'NO'}")
    g.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
