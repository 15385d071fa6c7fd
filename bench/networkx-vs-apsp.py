"""apsp.networkx against NetworkX's own closeness_centrality on one machine, in one run (issue 35;
a benchmark, never a test).

    OMP_NUM_THREADS=2 PYTHONPATH=build/check/python /usr/bin/python3 bench/networkx-vs-apsp.py \
        [--apsp build/check/apsp] [--classes power,road,mesh,social] [--runs 3] [--seed 35]

Graphs: undirected, integer weights, the same for the same seed:
  - power: ~4,941 vertices like the US western power grid (sparse, average degree ~2.7, long
    paths): random points, each joined to its nearest earlier point (a spanning tree), plus
    edges to near neighbours up to 6,594 edges (its hop diameter is 31); weights the lengths
    scaled to 1..1000;
  - road: `apsp generate --class road --vertices 5000` (the HW3 file's edges both ways, as one
    undirected edge of the lighter weight);
  - mesh: a jittered 71 x 71 grid (5,041 points), each cell split into two triangles along a
    random diagonal; weights the lengths scaled to 1..1000;
  - social: nx.powerlaw_cluster_graph(4000, 6, 0.3) (heavy-tailed degrees, clustered, small
    world: dense Floyd-Warshall's ground); weights uniform in 1..100.
Measured, end to end from the NetworkX graph to the dict: nx.closeness_centrality(G,
distance="weight") once and apsp.networkx.closeness_centrality(G, distance="weight") the median
of RUNS (its conversion of G included), their values compared exactly; the algorithm apsp's auto
chose (apsp._native.explain_choice on the same edges) and the median of the apsp call split into
its conversion (apsp.networkx._Edges), the native measures and the dict; and the same closeness
by dense Floyd-Warshall forced (algorithm "fw"). The load average is printed before each
timing: the machine may be shared.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import networkx as nx
import numpy as np

import apsp
import apsp.networkx as anx

NAMES = ["in_distance_sum", "in_reachable"]


def load():
    return "load %.2f" % os.getloadavg()[0]


def timed(f, runs):
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        seconds.append(time.perf_counter() - start)
    return result, statistics.median(seconds)


def scaled(lengths, top):
    """Lengths as whole weights in 1..top, proportional to the longest."""
    return [int(w) for w in np.clip(np.rint(lengths / lengths.max() * top), 1, top)]


def power_grid(seed, n=4941, m=6594):
    """A sparse geometric network with long paths: each random point joined to its nearest
    earlier point (a tree that grows outward, as grids do), then a random half of the pairs of
    6 nearest neighbours, shortest first, until m edges."""
    rng = np.random.default_rng(seed)
    p = rng.random((n, 2))
    edges = {}
    for i in range(1, n):
        d = np.hypot(*(p[:i] - p[i]).T)
        j = int(np.argmin(d))
        edges[(j, i)] = d[j]
    k = 6
    candidates = []
    for start in range(0, n, 500):
        block = p[start:start + 500]
        d = np.hypot(block[:, None, 0] - p[None, :, 0], block[:, None, 1] - p[None, :, 1])
        near = np.argsort(d, axis=1)[:, 1:k + 1]
        for r, row in enumerate(near):
            i = start + r
            candidates += [(d[r, j], min(i, int(j)), max(i, int(j))) for j in row]
    candidates.sort()
    order = rng.permutation(len(candidates))
    chosen = sorted(candidates[i] for i in order[:len(candidates) // 2])
    for d, a, b in chosen:
        if len(edges) >= m:
            break
        edges.setdefault((a, b), d)
    pairs = list(edges)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for (a, b), w in zip(pairs, scaled(np.array([edges[e] for e in pairs]), 1000)):
        g.add_edge(a, b, weight=w)
    return g


def road(seed, binary, n=5000):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "road.hw3")
        subprocess.run([binary, "generate", "--class", "road", "--vertices", str(n), "--seed",
                        str(seed), path], check=True, capture_output=True)
        data = np.fromfile(path, dtype=np.int32)
    v, e = int(data[0]), int(data[1])
    triples = data[2:2 + 3 * e].reshape(e, 3)
    g = nx.Graph()
    g.add_nodes_from(range(v))
    for a, b, w in triples.tolist():
        if a != b and (not g.has_edge(a, b) or w < g[a][b]["weight"]):
            g.add_edge(a, b, weight=w)
    return g


def mesh(seed, side=71):
    rng = np.random.default_rng(seed)
    y, x = np.divmod(np.arange(side * side), side)
    p = np.stack([x, y], axis=1) + rng.uniform(-0.35, 0.35, size=(side * side, 2))
    pairs = set()
    for r in range(side - 1):
        for c in range(side - 1):
            a, b, d, e = r * side + c, r * side + c + 1, (r + 1) * side + c, (r + 1) * side + c + 1
            pairs |= {(a, b), (a, d), (b, e), (d, e)}
            pairs.add((a, e) if rng.random() < 0.5 else (b, d))
    pairs = sorted(pairs)
    lengths = np.array([np.hypot(*(p[a] - p[b])) for a, b in pairs])
    g = nx.Graph()
    g.add_nodes_from(range(side * side))
    for (a, b), w in zip(pairs, scaled(lengths, 1000)):
        g.add_edge(a, b, weight=w)
    return g


def social(seed, n=4000):
    g = nx.powerlaw_cluster_graph(n, 6, 0.3, seed=seed)
    rng = np.random.default_rng(seed)
    for (a, b), w in zip(g.edges(), rng.integers(1, 101, size=g.number_of_edges()).tolist()):
        g[a][b]["weight"] = w
    return g


def closeness(G, algorithm):
    """apsp.networkx.closeness_centrality's steps with the algorithm named (its own: "auto"),
    and the seconds of each: the conversion, the native measures, the dict."""
    t0 = time.perf_counter()
    edges = anx._Edges(G, "weight")
    t1 = time.perf_counter()
    m = apsp._measures_of_edges(edges.src, edges.dst, edges.weight, edges.n, NAMES, 0, algorithm,
                                "auto")
    t2 = time.perf_counter()
    reached = m["in_reachable"].astype(np.float64) - 1.0
    n = edges.n
    result = {}
    for i, node in enumerate(edges.nodes):
        t = edges.value(m["in_distance_sum"][i])
        c = 0.0
        if t > 0.0 and n > 1:
            c = reached[i] / t
            c *= reached[i] / (n - 1)
        result[node] = float(c)
    t3 = time.perf_counter()
    return result, (t1 - t0, t2 - t1, t3 - t2)


def compare(ours, theirs):
    """'yes' where every value is equal, else the count of differences and the largest."""
    diff = [abs(ours[v] - theirs[v]) for v in theirs if ours[v] != theirs[v]]
    return "yes" if not diff and ours.keys() == theirs.keys() else (
        "no (%d differ, max %.3g)" % (len(diff), max(diff, default=float("nan"))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apsp", default="build/check/apsp", help="the apsp binary (road)")
    parser.add_argument("--classes", default="power,road,mesh,social")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    makers = {"power": lambda: power_grid(args.seed), "road": lambda: road(args.seed, args.apsp),
              "mesh": lambda: mesh(args.seed), "social": lambda: social(args.seed)}
    print("apsp", apsp.config())
    print("python %s, networkx %s, numpy %s; OMP_NUM_THREADS=%s, runs %d, seed %d"
          % (sys.version.split()[0], nx.__version__, np.__version__,
             os.environ.get("OMP_NUM_THREADS", "unset"), args.runs, args.seed), flush=True)
    rows = []
    for name in args.classes.split(","):
        G = makers[name]()
        v, e = G.number_of_nodes(), G.number_of_edges()
        edges = anx._Edges(G, "weight")
        choice = apsp._native.explain_choice(edges.src, edges.dst, edges.n, "int32", False, False,
                                             "auto")
        print("\n%s: V %d, E %d (undirected), mean degree %.2f, connected %s; auto: %s (%s)"
              % (name, v, e, 2 * e / v, nx.is_connected(G), choice["algorithm"],
                 choice["decision"]), flush=True)

        print("  apsp auto, %s" % load(), flush=True)
        parts = []
        ours, t_apsp = timed(lambda: anx.closeness_centrality(G, distance="weight"), args.runs)
        for _ in range(args.runs):
            parts.append(closeness(G, "auto")[1])
        split = [statistics.median(p) for p in zip(*parts)]
        print("  apsp.networkx.closeness_centrality %.3f s (median of %d): conversion %.3f s, "
              "measures %.3f s, dict %.3f s" % (t_apsp, args.runs, *split), flush=True)

        print("  apsp fw, %s" % load(), flush=True)
        fw, t_fw = timed(lambda: closeness(G, "fw")[0], args.runs)
        print("  closeness by dense fw %.3f s (median of %d)" % (t_fw, args.runs), flush=True)

        print("  networkx, %s" % load(), flush=True)
        theirs, t_nx = timed(lambda: nx.closeness_centrality(G, distance="weight"), 1)
        same, same_fw = compare(ours, theirs), compare(fw, theirs)
        print("  nx.closeness_centrality %.1f s; identical: auto %s, fw %s; after: %s"
              % (t_nx, same, same_fw, load()), flush=True)
        rows.append((name, v, e, t_nx, t_apsp, same, choice["algorithm"], t_fw, same_fw))

    print("\n%-7s %6s %6s %12s %9s %8s %-10s %-12s %9s %8s %-8s"
          % ("class", "V", "E", "NetworkX s", "apsp s", "speedup", "identical", "apsp chose",
             "fw s", "fw spdup", "fw ident"))
    for name, v, e, t_nx, t_apsp, same, chose, t_fw, same_fw in rows:
        print("%-7s %6d %6d %12.1f %9.3f %7.0fx %-10s %-12s %9.3f %7.0fx %-8s"
              % (name, v, e, t_nx, t_apsp, t_nx / t_apsp, same, chose, t_fw, t_nx / t_fw,
                 same_fw))


if __name__ == "__main__":
    main()
