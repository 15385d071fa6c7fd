"""Issue 32 item 5: on a machine that `apsp tune` has tuned, `apsp path` and the module weigh
auto's choice against dense Floyd-Warshall on the tuned shape, as the pipeline does (they took
the table's, so auto could choose differently). A 1,025-vertex random graph whose supernodal work
lies between dense Floyd-Warshall's on the table's first shape (64: 1,088 padded) and on the
128 tile (1,152): the pipeline takes fw without a cache and supernodal with one that names the
128 tile. The module's explain_choice must weigh the same dense updates and choose alike;
`apsp path`, given the memory of supernodal's run only (dense needs more on either shape), must
find its path. Runs the apsp binary of the build (APSP_BUILD_DIR), or APSP_CLI."""

import json
import os
import re
import subprocess

import numpy as np
import pytest

import apsp

APSP = os.environ.get("APSP_CLI") or os.path.join(os.environ.get("APSP_BUILD_DIR", "build/openmp"),
                                                  "apsp")

pytestmark = [
    pytest.mark.skipif(not os.path.exists(APSP), reason="no apsp binary in the build"),
    pytest.mark.skipif(not apsp.config()["supernodal"],
                       reason="this build has no METIS (no supernodal)"),
    pytest.mark.skipif(len(apsp.config()["dtypes"]) < 3,
                       reason="a checking build compiles one tile shape: it chooses otherwise"),
]


def run(env, *args, expect=0):
    p = subprocess.run([APSP, *map(str, args)], capture_output=True, text=True, env=env)
    assert p.returncode == expect, (args, p.returncode, p.stdout, p.stderr)
    return p


def test_path_and_the_module_choose_as_the_pipeline_on_a_tuned_machine(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("APSP_TUNING", raising=False)
    env = dict(os.environ)
    graph = tmp_path / "g.bin"
    run(env, "generate", "--vertices", 1025, "--density", 0.0034, "--seed", 3, graph)
    header = np.fromfile(graph, dtype=np.int32, count=2)
    triples = np.fromfile(graph, dtype=np.int32, offset=8).reshape(-1, 3)
    assert header[0] == 1025 and len(triples) == header[1]
    src, dst = triples[:, 0].astype(np.int64), triples[:, 1].astype(np.int64)

    def pipeline():
        run(env, graph, "/dev/null", "--predecessors", "/dev/null", "--stats", tmp_path / "s.json")
        stats = json.loads((tmp_path / "s.json").read_text())
        return stats["algorithm"], stats["supernodal"]["dense_updates"]

    def same_as_the_module(choice):
        c = apsp._native.explain_choice(src, dst, 1025, "int32", False, True, "auto")
        assert c["algorithm"] == choice[0], (c, choice)
        assert c["dense_updates"] == pytest.approx(choice[1], rel=1e-8), (c, choice)

    untuned = pipeline()
    assert untuned[0] == "fw" and untuned[1] == pytest.approx(1088**3, rel=1e-8), untuned
    same_as_the_module(untuned)

    # A cache entry of this machine (apsp tune writes its key) naming the 128 tile around V. The
    # GPUs' tables have no tile above 64: no tuned shape there pads V past the first one's 1,088.
    wide = [s for s in run(env, "shapes").stdout.splitlines() if re.match(r"\d+: 128x128 tile", s)]
    if not wide:
        pytest.skip("this build's shape table has no 128 tile (a GPU's)")
    shape = wide[0]
    run(env, "tune", "--sizes", 300, "--runs", 1)
    cache = tmp_path / "cache" / "apsp" / "tuning.json"
    _, tile, _, rows, cols, reg_rows, reg_cols, chunk = map(int, re.findall(r"\d+", shape))
    entry = {"min_vertices": 513, "max_vertices": 2050, "measured_vertices": 1025, "tile": tile,
             "team_rows": rows, "team_cols": cols, "reg_rows": reg_rows, "reg_cols": reg_cols,
             "k_chunk": chunk}
    text = cache.read_text()
    for key, value in entry.items():
        text = re.sub(r'"%s": \d+' % key, '"%s": %d' % (key, value), text)
    cache.write_text(text)

    tuned = pipeline()
    assert tuned[0] == "supernodal" and tuned[1] == pytest.approx(1152**3, rel=1e-8), tuned
    same_as_the_module(tuned)
    # apsp path within supernodal's memory: found where it takes supernodal, refused where it
    # takes dense (1,152 rows of the tuned shape need more).
    need = run(env, "path", graph, 0, 7, "--algorithm", "supernodal", "--max-memory", "1K",
               expect=2).stderr
    mib = float(re.search(r"needs ([0-9.]+) MiB", need).group(1))
    cap = "%dK" % int((mib + 0.01) * 1024 + 1)
    found = run(env, "path", graph, 0, 7, "--max-memory", cap).stdout
    assert found.startswith("0 -> 7: length "), found
    run(env, "path", graph, 0, 7, "--algorithm", "fw", "--max-memory", cap, expect=2)
