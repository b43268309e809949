"""A student's kernel stays thin: one ipykernel with the environment the hub gives a single-user server
(``deploy/jupyterhub_config.py``), bound to a class sandbox, measured after each step of a walkthrough's start.

``connect()`` imports neither pandas nor matplotlib (it did, for the Hangul font, which ``import toolkit`` already
registers when matplotlib loads): a kernel held 154 MB after ``connect()``, now about 62. After a keyword search, a
route and a map it holds about 161 MB: pandas 3 imports pyarrow whenever it is installed (35 MB of it in this
kernel, 28 MB of which are file pages shared by every kernel; lesson 04b's GeoParquet needs it), so the bound
here is the measured figure with a little room, and the figures are printed (``-s``).
"""
from __future__ import annotations

import os

import pytest

from toolkit.classroom import read_secret
from toolkit.sandbox.classroom import ClassroomServer

pytest.importorskip("ipykernel")

STEPS = [
    ("kernel started", "pass"),
    ("connect", "import toolkit\ntk = toolkit.connect()\nassert tk.sandbox.student == 'thin'"),
    ("keyword search", "from toolkit.local import BUSAN_RECT\nassert len(tk.local.keyword('해운대', rect=BUSAN_RECT, "
                       "size=15))"),
    ("route", "r = tk.navi.directions((129.1586, 35.1631), (129.0592, 35.1579))\nr.summary"),
    ("one map", "m = r.map()\nassert m._repr_html_()"),
    ("nothing heavy early", "import sys\nassert 'matplotlib' not in sys.modules, 'a map imported matplotlib'"),
]
CONNECT_MB = 30          # what connect() may add to a started kernel (it added 101 MB with pandas and matplotlib)
AFTER_MAP_MB = 175       # measured 161 (PSS 140, USS 135); 202 before


def test_a_students_kernel_after_connect_search_route_and_map(tmp_path):
    from tests.bench.kernel_memory import hub_environment, run_kernels

    secret_file = tmp_path / "class.secret"
    secret = read_secret(secret_file, create=True)
    with ClassroomServer(secret) as room:
        base = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLKIT_CLASSROOM", "JUPYTERHUB"))}
        base.update({"HOME": str(tmp_path), "MPLBACKEND": "module://matplotlib_inline.backend_inline",
                     "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
                     "JUPYTER_DATA_DIR": str(tmp_path / "data"), "IPYTHONDIR": str(tmp_path / "ipython")})
        previous = os.environ.get("JUPYTER_RUNTIME_DIR")
        os.environ["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")   # the connection file stays in tmp_path
        try:
            [steps] = run_kernels([{**base, **hub_environment(room.base_url, secret_file, "thin")}], STEPS)
        finally:
            if previous is None:
                os.environ.pop("JUPYTER_RUNTIME_DIR", None)
            else:
                os.environ["JUPYTER_RUNTIME_DIR"] = previous
    mb = dict(steps)
    print("a student's kernel, MB (RSS / PSS / USS): " + "; ".join(
        f"{name} {m['rss']:.0f} / {m['pss']:.0f} / {m['uss']:.0f}" for name, m in steps))
    assert mb["connect"]["rss"] - mb["kernel started"]["rss"] <= CONNECT_MB
    assert mb["one map"]["rss"] <= AFTER_MAP_MB
