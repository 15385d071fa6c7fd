"""The module's tuning-cache warning (issue 26, item 9): a cache it cannot use is one Python
RuntimeWarning per process, through the warnings module, and nothing on C's stderr (it once
printed there on every call)."""

import os
import subprocess
import sys

CHILD = r"""
import warnings
import numpy as np
import apsp
# 200 vertices: graphs of at most 128 are solved on the caller's thread with no plan (batch.cpp),
# so no tuning cache is read for them.
g = np.zeros((200, 200))
g[0, 1], g[1, 2] = 1.0, 2.0
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for _ in range(3):
        apsp.floyd_warshall(g)
print(sum("tuning cache" in str(w.message) and w.category is RuntimeWarning for w in caught))
"""


def test_broken_cache_warns_once_through_python(tmp_path):
    cache = tmp_path / "apsp" / "tuning.json"
    cache.parent.mkdir()
    cache.write_text("not json\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    env.pop("APSP_TUNING", None)
    p = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "1", (p.stdout, p.stderr)
    assert "tuning cache" not in p.stderr, p.stderr
