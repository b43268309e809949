"""connect(fresh=True): a sandbox fresh from its seed each time, so a notebook run twice in one kernel gives the
same outputs."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import httpx
import pytest

import toolkit
from toolkit.client import ConfigurationError
from toolkit.sandbox.server import SandboxServer

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _changed_state(tk):
    tk.sandbox.advance(days=3)
    tk.sandbox.control("POST", "/sandbox/status/incidents",
                       json={"api": "local_search_keyword", "status": "RED", "start": tk.sandbox.clock()["unix"] - 60,
                             "hours": 2, "note": "left over"})
    tk.login_as(4100000001, scopes=["profile"])


def test_connect_fresh_resets_the_embedded_sandbox_on_the_same_port():
    first = toolkit.connect(sandbox=True, fresh=True)
    start = first.sandbox.clock()["unix"]
    baseline = first.status.current(lang="en").to_dict("records")
    _changed_state(first)
    assert first.status.current(lang="en").to_dict("records") != baseline
    second = toolkit.connect(sandbox=True, fresh=True)
    assert second.sandbox.base_url == first.sandbox.base_url
    assert abs(second.sandbox.clock()["unix"] - start) < 5          # the clock starts again
    assert second.status.current(lang="en").to_dict("records") == baseline
    with pytest.raises(toolkit.errors.ToolkitError):
        first.user.me()                                              # tokens of the old state are void
    plain = toolkit.connect(sandbox=True)                            # without fresh: the state carries over
    _changed_state(second)
    assert plain.status.current(lang="en").to_dict("records") != baseline


def test_fresh_through_the_control_api_for_a_shared_sandbox():
    with SandboxServer(port=0) as server:
        env = {"TOOLKIT_SANDBOX_URL": server.base_url}
        tk = toolkit.connect(shared=True, env=env)
        baseline = tk.status.current(lang="en").to_dict("records")
        _changed_state(tk)
        advanced = tk.sandbox.clock()["unix"]
        before = server.sandbox
        fresh = toolkit.connect(shared=True, fresh=True, env=env)      # POST /sandbox/reset
        assert server.sandbox is not before
        assert fresh.sandbox.clock()["unix"] < advanced - 2 * 86400
        assert fresh.status.current(lang="en").to_dict("records") == baseline


def test_fresh_needs_a_sandbox():
    with pytest.raises(ConfigurationError, match="fresh=True resets a sandbox"):
        toolkit.connect("http://127.0.0.1:9", rest_api_key="k", fresh=True)


def test_a_sandbox_in_a_file_is_not_reset(tmp_path):
    with SandboxServer(port=0, db=str(tmp_path / "sb.sqlite")) as server:
        r = httpx.post(server.base_url + "/sandbox/reset")
        assert r.status_code == 409 and "not reset" in r.json()["msg"]
        with pytest.raises(ValueError, match="not reset"):
            server.reset()


# ---------------------------------------------------------------- a notebook run twice in one kernel
def _sanitize(text: str) -> str:
    from configparser import ConfigParser

    cfg = ConfigParser()
    cfg.read(Path(__file__).with_name("nbval_sanitize.cfg"))
    for section in cfg.sections():
        text = re.sub(cfg[section]["regex"], cfg[section]["replace"], text)
    return text


def _outputs(nb) -> list:
    """Every code cell's outputs as nbval compares them (widget model ids and execution counts left out)."""
    result = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outs = []
        for out in cell.outputs:
            if out.output_type == "stream":
                if outs and outs[-1][:2] == ("stream", out.name):   # one print may arrive in pieces: nbval
                    outs[-1] = ("stream", out.name, outs[-1][2] + out.text)   # joins them, so do we
                else:
                    outs.append(("stream", out.name, out.text))
            elif out.output_type in ("execute_result", "display_data"):
                data = {k: v for k, v in out.data.items() if k != "application/vnd.jupyter.widget-view+json"}
                outs.append((out.output_type, _sanitize(repr(sorted(data.items())))))
            else:
                outs.append((out.output_type, out.get("ename"), out.get("evalue")))
        result.append([("stream", o[1], _sanitize(o[2])) if o[0] == "stream" else o for o in outs])
    return result


@pytest.mark.parametrize("name", ["00_quickstart", "01_login_and_consent"])
def test_run_all_twice_in_one_kernel_gives_the_same_outputs(name):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    runs = [copy.deepcopy(nb), copy.deepcopy(nb)]
    client = nbclient.NotebookClient(runs[0], timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    with client.setup_kernel():
        for run in runs:
            client.nb = run
            for index, cell in enumerate(run.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
    first, second = (_outputs(run) for run in runs)
    shows_error = ["raises-exception" in c.metadata.get("tags", []) for c in nb.cells if c.cell_type == "code"]
    errors = [o for outs in (first, second) for cell, meant in zip(outs, shows_error) for o in cell
              if o[0] == "error" and not meant]
    assert not errors, errors
    meant = [o for cell, flag in zip(first, shows_error) if flag for o in cell]
    assert all(o[0] == "error" for o in meant) and len(meant) == sum(shows_error)   # the error shown on purpose
    for index, (a, b) in enumerate(zip(first, second)):
        assert a == b, f"cell {index} differs between the two runs"
