"""The command line's distance types (--dtype) against SciPy itself: real-valued weights in the
edge list, Matrix Market and DIMACS formats, float64 and float32 results in .npy and text,
int32 for whole numbers (auto), negative weights and cycles, predecessors, and verify, compare
and path on float outputs. Runs the apsp binary of the build (APSP_BUILD_DIR), or APSP_CLI."""

import os
import subprocess

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from path_trees import check_paths

import apsp

# APSP_CLI: another binary (a GPU build's, on a node where only the binary travels).
APSP = os.environ.get("APSP_CLI") or os.path.join(os.environ.get("APSP_BUILD_DIR", "build/openmp"),
                                                  "apsp")
INF32 = (1 << 30) - 1
RNG = np.random.default_rng(20261125)

pytestmark = pytest.mark.skipif(not os.path.exists(APSP), reason="no apsp binary in the build")


def run(*args, expect=0):
    p = subprocess.run([APSP, *map(str, args)], capture_output=True, text=True)
    assert p.returncode == expect, (args, p.returncode, p.stdout, p.stderr)
    return p


def random_edges(n, m, low, high, integer=False, rng=RNG):
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.uniform(low, high, m)
    if integer:
        w = np.floor(w)
    return src, dst, w


def reweighted(n, m, rng=RNG):
    """Negative weights without negative cycles: w + p(u) - p(v) with w >= 0."""
    src, dst, w = random_edges(n, m, 0.0, 20.0, rng=rng)
    p = rng.uniform(0, 15, n)
    return src, dst, w + p[src] - p[dst]


def dense(n, src, dst, w):
    """SciPy's dense input: the lightest of parallel edges, inf for none, self-loops dropped
    (apsp's diagonal is 0; a negative self-loop is a cycle, not used here)."""
    d = np.full((n, n), np.inf)
    for u, v, x in zip(src, dst, w):
        if u != v:
            d[u, v] = min(d[u, v], x)
    return d


def reference(n, src, dst, w):
    # SciPy's dense convention: 0 is no edge. Exact zeros do not occur in these weights.
    g = dense(n, src, dst, w)
    g[np.isinf(g)] = 0
    return csgraph.floyd_warshall(g, directed=True)


def write(path, fmt, n, src, dst, w, symmetric=False):
    with open(path, "w") as f:
        if fmt == "edges":
            f.write("# vertices %d\n" % n)
            for u, v, x in zip(src, dst, w):
                f.write("%d %d %r\n" % (u, v, float(x)))
        elif fmt == "mtx":
            f.write("%%%%MatrixMarket matrix coordinate real %s\n"
                    % ("symmetric" if symmetric else "general"))
            f.write("%d %d %d\n" % (n, n, len(src)))
            for u, v, x in zip(src, dst, w):
                f.write("%d %d %r\n" % (u + 1, v + 1, float(x)))
        else:
            f.write("p sp %d %d\n" % (n, len(src)))
            for u, v, x in zip(src, dst, w):
                f.write("a %d %d %r\n" % (u + 1, v + 1, float(x)))


@pytest.mark.parametrize("fmt,ext", [("edges", "txt"), ("mtx", "mtx"), ("dimacs", "gr")])
@pytest.mark.parametrize("n", [1, 37, 130])
def test_real_weights_match_scipy_in_every_format(tmp_path, fmt, ext, n):
    src, dst, w = random_edges(n, 4 * n, 0.001, 50.0)
    g = tmp_path / ("g." + ext)
    write(g, fmt, n, src, dst, w)
    expected = reference(n, src, dst, w)
    run(g, tmp_path / "auto.npy")  # auto: float64 for real weights
    got = np.load(tmp_path / "auto.npy")
    assert got.dtype == np.float64 and got.shape == (n, n)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    run("--dtype", "float32", g, tmp_path / "f32.npy")
    got32 = np.load(tmp_path / "f32.npy")
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, expected, rtol=1e-5)
    # Text: the same values, read back exactly; no path is "inf".
    run("--output-format", "text", g, tmp_path / "auto.txt")
    text = np.loadtxt(tmp_path / "auto.txt", ndmin=2)
    assert np.array_equal(text, got)


def test_symmetric_matrix_market_is_both_directions(tmp_path):
    n = 60
    src, dst, w = random_edges(n, 200, 0.5, 9.5)
    keep = src >= dst  # the lower triangle, as a symmetric file stores it
    src, dst, w = src[keep], dst[keep], w[keep]
    write(tmp_path / "s.mtx", "mtx", n, src, dst, w, symmetric=True)
    run(tmp_path / "s.mtx", tmp_path / "s.npy")
    both = (np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w]))
    np.testing.assert_allclose(np.load(tmp_path / "s.npy"), reference(n, *both), rtol=1e-12)


def test_whole_numbers_stay_int32_and_every_type_is_exact_on_them(tmp_path):
    n = 90
    src, dst, w = random_edges(n, 500, 0, 5000, integer=True)  # beyond HW3's 1000: still int32
    w[w == 0] = 1
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    expected = reference(n, src, dst, w)
    run(tmp_path / "g.txt", tmp_path / "g.npy")
    got = np.load(tmp_path / "g.npy")
    assert got.dtype == np.int32
    assert np.array_equal(got, np.where(np.isinf(expected), INF32, expected).astype(np.int32))
    # HW3 output: the same bytes as the .npy values.
    run(tmp_path / "g.txt", tmp_path / "g.out")
    assert (tmp_path / "g.out").read_bytes() == got.tobytes()
    for dtype in ("float32", "float64"):
        run("--dtype", dtype, tmp_path / "g.txt", tmp_path / (dtype + ".npy"))
        assert np.array_equal(np.load(tmp_path / (dtype + ".npy")), expected)


def test_negative_real_weights_and_cycles(tmp_path):
    n = 80
    src, dst, w = reweighted(n, 400)
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    run(tmp_path / "g.txt", tmp_path / "g.npy", expect=2)  # needs --allow-negative
    run("--allow-negative", tmp_path / "g.txt", tmp_path / "g.npy")
    np.testing.assert_allclose(np.load(tmp_path / "g.npy"), reference(n, src, dst, w),
                               rtol=1e-9, atol=1e-9)
    with open(tmp_path / "g.txt", "a") as f:
        f.write("3 4 -0.5\n4 3 0.25\n")
    p = run("--allow-negative", tmp_path / "g.txt", tmp_path / "c.npy", expect=2)
    assert "negative cycle through vertex" in p.stderr
    assert not (tmp_path / "c.npy").exists()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_predecessors_give_shortest_paths(tmp_path, dtype):
    n = 70
    src, dst, w = random_edges(n, 350, 0.25, 10.0)
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    run("--dtype", dtype, "--predecessors", tmp_path / "p.npy", tmp_path / "g.txt",
        tmp_path / "d.npy")
    dist, pred = np.load(tmp_path / "d.npy"), np.load(tmp_path / "p.npy")
    assert pred.dtype == np.int32
    expected = reference(n, src, dst, w)
    rtol = 1e-12 if dtype == "float64" else 1e-5
    check_paths(expected, pred, dense(n, src, dst, w), no_vertex=-1, rel=rtol, abs=0)
    # apsp path, from the saved predecessors and computed, agrees with the distance.
    for u, v in ((0, n - 1), (5, 17)):
        for extra in (["--predecessors", tmp_path / "p.npy"], ["--dtype", dtype]):
            p = subprocess.run([APSP, "path", str(tmp_path / "g.txt"), str(u), str(v),
                                *map(str, extra)], capture_output=True, text=True)
            if np.isinf(expected[u, v]):
                assert p.returncode == 1 and "no path" in p.stdout
            else:
                assert p.returncode == 0, p.stderr
                length = float(p.stdout.split("length ")[1].split(",")[0])
                assert length == pytest.approx(expected[u, v], rel=rtol)


def backends():
    """The backends of the binary (apsp --version: "..., backends: cuda, serial")."""
    line = run("--version").stdout.splitlines()[0]
    return [b.strip() for b in line.split("backends:")[1].split(",")]


def tiles(backend, dtype):
    """The tile sizes `apsp shapes` lists for the backend and type ("0: 64x64 tile, ...")."""
    out = run("shapes", "--backend", backend, "--dtype", dtype).stdout
    return {int(line.split(": ")[1].split("x")[0]) for line in out.splitlines()}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_one_tile_size_gives_one_file_and_predecessors_never_depend_on_it(tmp_path, dtype):
    n = 300
    src, dst, w = reweighted(n, 3000)
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    files = {}
    for backend in backends():
        for tile in sorted(tiles(backend, dtype)):
            name = "%s-%d" % (backend, tile)
            run("--dtype", dtype, "--allow-negative", "--backend", backend, "--tile", tile,
                "--predecessors", tmp_path / (name + ".p.npy"), tmp_path / "g.txt",
                tmp_path / (name + ".npy"))
            files[name] = (np.load(tmp_path / (name + ".npy")),
                           (tmp_path / (name + ".p.npy")).read_bytes())
    by_tile = {}
    for name, (dist, _) in files.items():
        by_tile.setdefault(name.split("-")[1], []).append(dist.tobytes())
    assert len(files) > 1
    for tile, same in by_tile.items():
        assert all(d == same[0] for d in same), tile
    first = next(iter(files.values()))
    for name, (dist, pred) in files.items():
        assert pred == first[1], name
        # Negative weights: near-zero distances carry the rounding of larger partial sums.
        tolerance = {"rtol": 1e-5, "atol": 1e-4} if dtype == "float32" else {"rtol": 1e-13,
                                                                             "atol": 1e-12}
        np.testing.assert_allclose(dist, first[0], **tolerance)


def test_verify_and_compare_read_float_outputs(tmp_path):
    n = 64
    src, dst, w = random_edges(n, 300, 0.1, 3.0)
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    run(tmp_path / "g.txt", tmp_path / "a.npy")
    run("--dtype", "float32", tmp_path / "g.txt", tmp_path / "f.npy")
    assert "verified" in run("verify", tmp_path / "g.txt", tmp_path / "a.npy").stdout
    assert "verified" in run("verify", tmp_path / "g.txt", tmp_path / "f.npy").stdout
    assert "identical" in run("compare", tmp_path / "a.npy", tmp_path / "a.npy").stdout
    assert "types differ" in run("compare", tmp_path / "a.npy", tmp_path / "f.npy",
                                 expect=1).stdout
    # A distance a little too long, and one too short, are found.
    d = np.load(tmp_path / "a.npy")
    i, j = np.argwhere(np.isfinite(d) & (d > 0))[7]
    for factor in (1.001, 0.999):
        bad = d.copy()
        bad[i, j] *= factor
        np.save(tmp_path / "bad.npy", bad)
        p = run("verify", "--samples", n, tmp_path / "g.txt", tmp_path / "bad.npy", expect=1)
        assert "mismatch at (%d, %d)" % (i, j) in p.stdout
        p = run("compare", tmp_path / "a.npy", tmp_path / "bad.npy", expect=1)
        assert "first difference at (%d, %d)" % (i, j) in p.stdout


def path_of(*args, expect=0):
    """`apsp path ARGS`: (length, vertices)."""
    lines = run("path", *args, expect=expect).stdout.splitlines()
    return float(lines[0].split("length ")[1].split(",")[0]), [int(x) for x in lines[1].split()]


def test_paths_stay_within_the_rounding_of_their_own_sums(tmp_path):
    """Issue 26: no longer path than the shortest where the distances' size widened the test."""
    with open(tmp_path / "f.txt", "w") as f:
        f.write("# vertices 1000\n0 2 1.0005\n0 1 0.5\n1 2 0.5\n")
    for extra in ([], ["--predecessors", tmp_path / "p.npy"]):
        if extra:
            run("--dtype", "float32", *extra, tmp_path / "f.txt", tmp_path / "d.npy")
        else:
            extra = ["--dtype", "float32"]
        assert path_of(*extra, tmp_path / "f.txt", 0, 2) == (1.0, [0, 1, 2])
    with open(tmp_path / "c.txt", "w") as f:
        f.write("# vertices 5\n0 1 1e15\n1 2 -999999999999990\n0 3 0.25\n3 4 0.25\n4 2 0\n")
    assert path_of("--allow-negative", tmp_path / "c.txt", 0, 2) == (0.5, [0, 3, 4, 2])


def test_a_stale_predecessor_matrix_is_caught_whatever_the_heaviest_edge(tmp_path):
    with open(tmp_path / "g.txt", "w") as f:
        f.write("# vertices 60\n0 2 1.5\n50 51 1e6\n")
    run("--dtype", "float32", "--predecessors", tmp_path / "p.npy", tmp_path / "g.txt",
        tmp_path / "d.npy")
    assert path_of("--predecessors", tmp_path / "p.npy", tmp_path / "g.txt", 0, 2)[0] == 1.5
    with open(tmp_path / "g.txt", "a") as f:
        f.write("0 1 0.1\n1 2 0.1\n")
    p = run("path", "--predecessors", tmp_path / "p.npy", tmp_path / "g.txt", 0, 2, expect=2)
    assert "stale predecessor matrix" in p.stderr


def test_verify_catches_float32_values_raised_by_a_tenth_of_a_percent(tmp_path):
    n = 400
    src, dst, w = random_edges(n, 4000, 0.1, 1000.0)
    write(tmp_path / "g.txt", "edges", n, src, dst, w)
    run("--dtype", "float32", tmp_path / "g.txt", tmp_path / "f.npy")
    assert "verified" in run("verify", tmp_path / "g.txt", tmp_path / "f.npy").stdout
    d = np.load(tmp_path / "f.npy")
    np.save(tmp_path / "raised.npy", (d * np.float32(1.001)).astype(np.float32))
    run("verify", tmp_path / "g.txt", tmp_path / "raised.npy", expect=1)


def test_float32_rounding_that_makes_or_hides_a_negative_cycle_says_so(tmp_path):
    """Issue 26: 0.1 + 0.2 - 0.3 is below 0 in float32 (not in float64); 1 - 1.0000000000000002
    is 0 in float32 (below 0 in float64). float64 decides, and the message names float32."""
    with open(tmp_path / "made.txt", "w") as f:
        f.write("# vertices 3\n0 1 0.1\n1 2 0.2\n2 0 -0.3\n")
    with open(tmp_path / "hid.txt", "w") as f:
        f.write("# vertices 2\n0 1 1.0\n1 0 -1.0000000000000002\n")
    made, hid = tmp_path / "made.txt", tmp_path / "hid.txt"
    run("--allow-negative", "--dtype", "float64", made, tmp_path / "d.npy")
    assert "negative cycle" in run("--allow-negative", "--dtype", "float64", hid,
                                   tmp_path / "e.npy", expect=2).stderr
    float32 = ["--allow-negative", "--dtype", "float32"]
    for args in ([*float32, made, tmp_path / "f.npy"], ["path", *float32, made, 0, 2]):
        p = run(*args, expect=2)
        assert "float32 rounding made it" in p.stderr and "--dtype float64" in p.stderr, p.stderr
    assert not (tmp_path / "f.npy").exists()
    for args in ([*float32, hid, tmp_path / "g.npy"], ["path", *float32, hid, 0, 1]):
        p = run(*args, expect=2)
        assert "float32 rounding hid" in p.stderr and "--dtype float64" in p.stderr, p.stderr
    assert not (tmp_path / "g.npy").exists()


@pytest.mark.parametrize("algorithm", ["fw", "supernodal"])
def test_the_module_gives_the_command_lines_float32_cycle_verdict(tmp_path, algorithm):
    """Issue 32 item 4: apsp.solve in float32 takes float64's word on a negative cycle, as the
    command line and apsp path do: the same error, vertex and account of the rounding, where it
    returned distances through a hidden cycle."""
    if algorithm == "supernodal" and not apsp.config()["supernodal"]:
        pytest.skip("this build has no METIS (no supernodal)")
    graphs = {"made": (3, [0, 1, 2], [1, 2, 0], [0.1, 0.2, -0.3]),
              "hid": (2, [0, 1], [1, 0], [1.0, -1.0000000000000002])}
    for name, (n, src, dst, w) in graphs.items():
        write(tmp_path / "g.txt", "edges", n, src, dst, w)
        cli = subprocess.run([APSP, "--allow-negative", "--dtype", "float32", "--algorithm",
                              algorithm, tmp_path / "g.txt", tmp_path / "g.npy"],
                             capture_output=True, text=True)
        assert cli.returncode in (0, 2), cli.stderr
        try:
            apsp.solve(src, dst, w, n, dtype="float32", algorithm=algorithm)
            module = None
        except apsp.NegativeCycleError as error:
            module = error
        # Dense Floyd-Warshall's float32 sums make the first cycle (the supernodal order may
        # not); float64 finds the second whatever the order.
        assert (module is not None) == (cli.returncode == 2), (name, cli.stderr, module)
        assert module is not None or name == "made"
        if module is not None:
            words = "float32 rounding %s" % ("made it" if name == "made" else "hid")
            assert words in cli.stderr and words in str(module), (cli.stderr, str(module))
            assert ("through vertex %d " % module.vertex) in cli.stderr, (cli.stderr, module)


def test_types_the_outputs_cannot_hold_are_refused_before_any_work(tmp_path):
    write(tmp_path / "g.txt", "edges", 3, [0, 1], [1, 2], [2.5, 1.0])
    p = run(tmp_path / "g.txt", tmp_path / "g.out", expect=2)
    assert "use --output-format npy|text" in p.stderr
    p = run("--dtype", "int32", tmp_path / "g.txt", tmp_path / "g.npy", expect=2)
    assert "use --dtype float64" in p.stderr
    assert not (tmp_path / "g.out").exists() and not (tmp_path / "g.npy").exists()
