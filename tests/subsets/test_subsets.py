"""`apsp IN OUT --sources S --targets T`: the |S| x |T| table equals the slice of the full matrix,
byte for byte (text: token for token), for every algorithm of the build, int32 and float,
duplicates and unsorted lists, .npy and text, predecessors, @FILE lists; every bad list refused
with one line before any output; and, with APSP_MPIRUN (the launcher and its options, ending in
the flag before the rank count), 1 to 3 ranks giving the bytes of one process; `apsp compare` of
two tables, and the rates of --stats for the rows made. APSP_CLI: the apsp binary."""

import json
import os
import shlex
import subprocess

import numpy as np
import pytest

APSP = os.environ["APSP_CLI"]
MPIRUN = shlex.split(os.environ.get("APSP_MPIRUN", ""))
WORK = os.environ.get("APSP_WORK", "/tmp/apsp-subsets-test")
RNG = np.random.default_rng(20261127)


def run(*args, expect=0, launcher=()):
    p = subprocess.run([*launcher, APSP, *map(str, args)], capture_output=True, text=True,
                       env=dict(os.environ, OMP_NUM_THREADS="1" if launcher else
                                os.environ.get("OMP_NUM_THREADS", "2")))
    assert p.returncode == expect, (args, p.returncode, p.stdout, p.stderr)
    return p


def path(name):
    os.makedirs(WORK, exist_ok=True)
    return os.path.join(WORK, name)


def write_graph(name, n, m, real=False, seed=0):
    rng = np.random.default_rng(seed)
    lines = [f"# vertices {n}"]
    for _ in range(m):
        u, v = int(rng.integers(0, n)), int(rng.integers(0, n))
        w = f"{rng.uniform(0.5, 9.5):.3f}" if real else str(int(rng.integers(0, 20)))
        lines.append(f"{u} {v} {w}")
    p = path(name + ".txt")
    with open(p, "w") as f:
        f.write("\n".join(lines) + "\n")
    return p


V = 37
INT = write_graph("int", V, 120, seed=1)
REAL = write_graph("real", V, 120, real=True, seed=2)
SOURCES = [5, 0, 36, 5, 17, 2, 2, 30]     # duplicates, unsorted
TARGETS = [3, 3, 36, 0, 11, 29, 4]


def built():
    found = []
    for a in ("fw", "supernodal", "sssp"):
        p = subprocess.run([APSP, "--algorithm", a, INT, path("probe.out")], capture_output=True)
        if p.returncode == 0:
            found.append(a)
    return found


ALGORITHMS = built()


def cases():
    for a in ALGORITHMS:
        yield a, INT, "int32"
        if a != "sssp":
            yield a, REAL, "float64"
            yield a, INT, "float32"


def listed(ids):
    return ",".join(map(str, ids))


def text_rows(file):
    with open(file) as f:
        return [line.split() for line in f.read().splitlines()]


@pytest.mark.parametrize("algorithm,graph,dtype", list(cases()))
def test_npy_slice(algorithm, graph, dtype):
    full, sub = path("full.npy"), path("sub.npy")
    common = ("--algorithm", algorithm, "--dtype", dtype)
    run(*common, graph, full)
    run(*common, graph, sub, "--sources", listed(SOURCES), "--targets", listed(TARGETS))
    a, b = np.load(full), np.load(sub)
    assert b.shape == (len(SOURCES), len(TARGETS)) and b.dtype == a.dtype
    assert b.tobytes() == a[np.ix_(SOURCES, TARGETS)].tobytes()


@pytest.mark.parametrize("algorithm,graph,dtype", list(cases()))
def test_text_slice(algorithm, graph, dtype):
    full, sub = path("full.txt.out"), path("sub.txt.out")
    common = ("--algorithm", algorithm, "--dtype", dtype, "--output-format", "text")
    run(*common, graph, full)
    run(*common, graph, sub, "--sources", listed(SOURCES), "--targets", listed(TARGETS))
    a = text_rows(full)
    assert text_rows(sub) == [[a[s][t] for t in TARGETS] for s in SOURCES]


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if a != "sssp"])
def test_predecessors(algorithm):
    full, fullp, sub, subp = path("f.npy"), path("fp.npy"), path("s.npy"), path("sp.npy")
    run("--algorithm", algorithm, INT, full, "--predecessors", fullp)
    run("--algorithm", algorithm, INT, sub, "--predecessors", subp, "--sources", listed(SOURCES),
        "--targets", listed(TARGETS))
    assert np.load(sub).tobytes() == np.load(full)[np.ix_(SOURCES, TARGETS)].tobytes()
    pred = np.load(subp)
    assert pred.shape == (len(SOURCES), len(TARGETS))
    assert pred.tobytes() == np.load(fullp)[np.ix_(SOURCES, TARGETS)].tobytes()


def test_one_side_and_files():
    """Only --sources: every column; only --targets: every row; @FILE lists."""
    full, sub = path("full.npy"), path("sub.npy")
    run(INT, full)
    a = np.load(full)
    run(INT, sub, "--sources", listed(SOURCES))
    assert np.load(sub).tobytes() == a[SOURCES, :].tobytes()
    run(INT, sub, "--targets", listed(TARGETS))
    assert np.load(sub).tobytes() == a[:, TARGETS].tobytes()
    with open(path("s.list"), "w") as f:
        f.write("\n".join(map(str, SOURCES)) + "\n")
    with open(path("t.list"), "w") as f:
        f.write("\n".join(map(str, TARGETS)))  # no final newline
    run(INT, sub, "--sources", "@" + path("s.list"), "--targets", "@" + path("t.list"))
    assert np.load(sub).tobytes() == a[np.ix_(SOURCES, TARGETS)].tobytes()


@pytest.mark.parametrize("option,value,words", [
    ("--sources", "3,37", "vertex 37 out of range [0, 37)"),
    ("--targets", "-1", "--targets: '-1' is not a vertex"),
    ("--sources", "", "--sources is empty"),
    ("--targets", "1,,2", "--targets: '' is not a vertex"),
    ("--sources", "1,x", "--sources: 'x' is not a vertex"),
    ("--sources", "2.5", "--sources: '2.5' is not a vertex"),
    ("--sources", "@/nonexistent/list", "--sources: cannot read '/nonexistent/list'"),
])
def test_bad_lists(option, value, words):
    out = path("bad.npy")
    if os.path.exists(out):
        os.remove(out)
    p = run(INT, out, option, value, expect=2)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], p.stderr
    assert not os.path.exists(out)


def test_list_file_without_at():
    """A list file named without its @ is read as an id: the error says to write @FILE."""
    listing = path("named.list")
    with open(listing, "w") as f:
        f.write("1\n2\n")
    out = path("bad.npy")
    p = run(INT, out, "--sources", listing, expect=2)
    assert p.stderr.count("\n") == 1, p.stderr
    assert f"--sources: '{listing}' is not a vertex" in p.stderr
    assert f"write --sources @{listing}" in p.stderr
    p = run(INT, out, "--targets", "x", expect=2)
    assert "a file of ids, one a line, is given as @FILE" in p.stderr
    assert not os.path.exists(out)


def test_compare_tables():
    """`apsp compare` takes two tables of one shape, .npy (its header says the shape) or text (its
    lines do), and names both shapes where they differ (issue 43)."""
    lists = ("--sources", listed(SOURCES), "--targets", listed(TARGETS))
    a, b, t = path("cmp-a.npy"), path("cmp-b.npy"), path("cmp.txt.out")
    run(INT, a, *lists)
    run("--algorithm", ALGORITHMS[-1], INT, b, *lists)
    run("--output-format", "text", INT, t, *lists)
    shape = f"{len(SOURCES)} x {len(TARGETS)}"
    for x, y in [(a, b), (a, t), (t, a), (t, t)]:
        assert run("compare", x, y).stdout == f"identical ({shape})\n"
    fewer, transposed = path("cmp-fewer.txt.out"), path("cmp-t.npy")
    run("--output-format", "text", INT, fewer, "--sources", listed(SOURCES[:3]), "--targets",
        listed(TARGETS))
    run(INT, transposed, "--sources", listed(TARGETS), "--targets", listed(SOURCES))
    p = run("compare", t, fewer, expect=1)
    assert p.stdout == f"shapes differ: '{t}' holds {shape} values, '{fewer}' 3 x {len(TARGETS)}\n"
    p = run("compare", a, transposed, expect=1)
    assert p.stdout == (f"shapes differ: '{a}' holds {shape} values, '{transposed}' "
                        f"{len(TARGETS)} x {len(SOURCES)}\n")
    changed = path("cmp-changed.npy")
    table = np.load(a)
    table[2, 5] += 1
    np.save(changed, table)
    p = run("compare", a, changed, expect=1)
    assert p.stdout.startswith("first difference at (2, 5): "), p.stdout


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_stats_count_the_updates_made(algorithm):
    """--stats' rates count the min-plus updates the run made and say which count (issue 43):
    fw's V^3; supernodal's plan's prediction for the factor and the rows made, |S| of a table and
    not V; sssp makes none and has no rates."""
    rates = ("updates", "updates_counted", "updates_per_second", "gops")
    for lists, rows in [((), V), (("--sources", listed(SOURCES)), len(SOURCES))]:
        stats = path("rates.json")
        run("--algorithm", algorithm, "--stats", stats, INT, path("rates.npy"), *lists)
        with open(stats) as f:
            s = json.load(f)
        if algorithm == "sssp":
            assert not set(rates) & set(s), s
            continue
        if algorithm == "fw":
            assert s["updates"] == V ** 3
            assert s["updates_counted"].startswith("V^3")
        else:
            sn = s["supernodal"]
            assert s["rows_made"] == rows
            made = sn["factor_updates"] + sn["row_updates"] / V * rows
            assert s["updates"] == pytest.approx(made, rel=1e-8)
            assert s["updates_counted"].startswith("predicted by the supernodal plan")
        per_second = s["updates"] / s["seconds"]["compute"]
        assert s["updates_per_second"] == pytest.approx(per_second, rel=1e-6)
        assert s["gops"] == pytest.approx(2 * per_second / 1e9, rel=1e-6)


def test_empty_file_list():
    out = path("bad.npy")
    open(path("empty.list"), "w").close()
    p = run(INT, out, "--sources", "@" + path("empty.list"), expect=2)
    assert "--sources: '" + path("empty.list") + "' lists no vertex" in p.stderr
    assert not os.path.exists(out)


def test_hw3_refused():
    out = path("bad.out")
    p = run(INT, out, "--sources", "1,2", expect=2)
    assert len(p.stderr.strip().splitlines()) == 1 and ".npy" in p.stderr, p.stderr
    assert "HW3" in p.stderr
    assert not os.path.exists(out)


def test_measures_refuse_subsets():
    p = run("measures", INT, path("m.json"), "--sources", "1", expect=2)
    assert "--sources" in p.stderr


@pytest.mark.skipif(not MPIRUN, reason="APSP_MPIRUN not given")
@pytest.mark.parametrize("np_", [2, 3])
@pytest.mark.parametrize("algorithm", ["fw", "supernodal", "sssp"])
@pytest.mark.parametrize("suffix", [".npy", ".txt.out"])
def test_ranks(np_, algorithm, suffix):
    if algorithm not in ALGORITHMS:
        pytest.skip(algorithm + " not built")
    one, many = path("one" + suffix), path("many" + suffix)
    fmt = ("--output-format", "text") if suffix != ".npy" else ()
    lists = ("--sources", listed(SOURCES), "--targets", listed(TARGETS))
    pred = ("--predecessors",) if algorithm != "sssp" else ()
    extra_one = (*pred, path("p1.npy")) if pred else ()
    extra_many = (*pred, path("pn.npy")) if pred else ()
    run("--algorithm", algorithm, *fmt, INT, one, *lists, *extra_one)
    run("--algorithm", algorithm, *fmt, INT, many, *lists, *extra_many,
        launcher=(*MPIRUN, str(np_)))
    with open(one, "rb") as a, open(many, "rb") as b:
        assert a.read() == b.read()
    if pred:
        with open(path("p1.npy"), "rb") as a, open(path("pn.npy"), "rb") as b:
            assert a.read() == b.read()


def test_text_of_a_large_graph():
    """Text is for V <= 10000 because of its rows of V values; a table's rows are |T| long."""
    big = path("big.txt")
    with open(big, "w") as f:
        f.write("# vertices 12000\n0 11999 4\n11999 5 2\n")
    out = path("big.txt.out")
    run("--output-format", "text", big, out, "--sources", "0,11999,3", "--targets", "5,11999")
    assert text_rows(out) == [["6", "4"], ["2", "0"], ["1073741823", "1073741823"]]
