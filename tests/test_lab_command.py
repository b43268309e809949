"""`toolkit lab` as a user runs it: SIGTERM / SIGINT stop JupyterLab (with its kernels) and the sandbox together,
and the lab starts with no news / update checks and auto-started kernels. Bounded in time, loopback only."""
from __future__ import annotations

import signal
import time

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


def test_the_lab_config_folder_keeps_the_users_config_and_adds_the_hangul_font(tmp_path, monkeypatch):
    from toolkit.cli import LAB_FONT_CSS, lab_config_dir

    mine = tmp_path / "home-jupyter"
    (mine / "custom").mkdir(parents=True)
    (mine / "custom" / "custom.css").write_text("body{color:red}")
    (mine / "jupyter_server_config.json").write_text("{}")
    (mine / "lab" / "user-settings").mkdir(parents=True)
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(mine))
    monkeypatch.delenv("JUPYTERLAB_SETTINGS_DIR", raising=False)
    monkeypatch.delenv("JUPYTERLAB_WORKSPACES_DIR", raising=False)
    target, env = lab_config_dir(tmp_path / "run")
    assert env["JUPYTER_CONFIG_DIR"] == str(target) and (target / "jupyter_server_config.json").exists()
    assert not (target / "lab").exists()                      # settings and workspaces stay the user's own
    assert env["JUPYTERLAB_SETTINGS_DIR"] == str(mine / "lab" / "user-settings")
    assert env["JUPYTERLAB_WORKSPACES_DIR"] == str(mine / "lab" / "workspaces")
    css = (target / "custom" / "custom.css").read_text()
    assert css.startswith(LAB_FONT_CSS) and css.endswith("body{color:red}")
    assert (target / "custom" / "NanumGothic.ttf").stat().st_size > 1_000_000
    assert (mine / "custom" / "custom.css").read_text() == "body{color:red}"   # the user's file is untouched
