"""`toolkit lab` as a user runs it: SIGTERM / SIGINT stop JupyterLab (with its kernels) and the sandbox together,
and the lab starts with no news / update checks and auto-started kernels. Bounded in time, loopback only."""
from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.labrun import LabProcess, group_alive

pytest.importorskip("jupyterlab")


def _refused(url: str) -> bool:
    try:
        httpx.get(url, timeout=2)
    except httpx.ConnectError:
        return True
    return False


def _setting(lab, plugin: str, name: str):
    """The value JupyterLab's front end uses: the user's setting, else the schema default (overrides included)."""
    body = httpx.get(f"{lab.url}/lab/api/settings/{plugin}", params={"token": lab.token}).json()
    return body["settings"].get(name, body["schema"]["properties"][name]["default"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_jupyterlab_and_the_sandbox_together(tmp_path, sig):
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    lab = LabProcess(notebooks, tmp_path)
    try:
        lab.start()
        assert lab.sandbox_url and lab.jupyter_pid, lab.output()[-2000:]
        assert httpx.get(lab.sandbox_url + "/sandbox/health").json()["ok"]
        assert _setting(lab, "@jupyterlab/apputils-extension:notification", "fetchNews") == "false"
        assert _setting(lab, "@jupyterlab/apputils-extension:notification", "checkForUpdates") is False
        assert _setting(lab, "@jupyterlab/notebook-extension:tracker", "autoStartDefaultKernel") is True
        kernel = httpx.post(f"{lab.url}/api/kernels", params={"token": lab.token}, json={"name": "python3"})
        assert kernel.status_code == 201              # a kernel in the lab's process group must stop too
        code = lab.signal(sig)
        assert code == 0, lab.output()[-2000:]
        deadline = time.monotonic() + 10
        while group_alive(lab.jupyter_pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not group_alive(lab.jupyter_pid), "jupyter-lab (or a kernel) outlived toolkit lab"
        assert _refused(lab.url + "/api/status") and _refused(lab.sandbox_url + "/sandbox/health")
        assert "JupyterLab and the sandbox stopped" in lab.output()
    finally:
        lab.stop()


def test_in_a_checkout_the_lab_loads_the_jupyter_extensions_from_the_checkout(tmp_path, monkeypatch):
    """An editable install has no data files: ``toolkit lab`` points JupyterLab at the checkout's server extension
    config and at a folder holding the built lab extension; where both are installed it adds nothing."""
    import jupyter_core.paths

    from toolkit.cli import LABEXTENSION, lab_command, lab_extensions

    monkeypatch.setattr(jupyter_core.paths, "jupyter_config_path", lambda: [str(tmp_path / "no-config")])
    monkeypatch.setattr(jupyter_core.paths, "jupyter_path", lambda *sub: [str(tmp_path / "no-data")])
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    args, env = lab_extensions(tmp_path / "run")
    config = Path(env["JUPYTER_CONFIG_PATH"])
    assert json.loads((config / "jupyter_server_config.d" / "toolkit.json").read_text()) == {
        "ServerApp": {"jpserver_extensions": {"toolkit.jupyter": True}}}
    assert args == [f"--LabApp.extra_labextensions_path={(tmp_path / 'run' / 'labextensions').resolve()}"]
    built = tmp_path / "run" / "labextensions" / LABEXTENSION
    assert json.loads((built / "package.json").read_text())["name"] == LABEXTENSION
    assert any((built / "static").glob("remoteEntry.*.js"))
    cmd = lab_command(tmp_path, ["--", "--port=9"], extensions=args)
    assert cmd[-2:] == [args[0], "--port=9"] and "--LabApp.custom_css=True" not in cmd     # the user's last
    # installed (a wheel's data files): nothing added
    (tmp_path / "no-config" / "jupyter_server_config.d").mkdir(parents=True)
    (tmp_path / "no-config" / "jupyter_server_config.d" / "toolkit.json").write_text("{}")
    (tmp_path / "no-data" / LABEXTENSION).mkdir(parents=True)
    (tmp_path / "no-data" / LABEXTENSION / "package.json").write_text("{}")
    assert lab_extensions(tmp_path / "again") == ([], {})
