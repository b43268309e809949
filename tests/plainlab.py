"""A plain ``jupyter lab`` (not ``toolkit lab``) for browser tests: a subprocess on 127.0.0.1, a free port, our
token, every Jupyter folder (config, data, runtime, settings, workspaces) inside a work folder; bounded waits."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.labrun import free_port, group_alive


class PlainLab:
    """``jupyter lab`` on ``root`` run by ``python`` (default: this one), with ``env`` added to a clean
    environment. ``.url``, ``.token``; :meth:`stop` ends it and its kernels."""

    def __init__(self, root: Path, work: Path, *, python: str | Path | None = None, env: dict | None = None,
                 args: list[str] = (), startup_timeout: float = 120.0):
        self.root, self.work = Path(root), Path(work)
        self.python = str(python or sys.executable)
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.work / "jupyter-lab.log"
        self.startup_timeout, self.args = startup_timeout, list(args)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLKIT_", "JUPYTER"))}
        self.env.update(JUPYTER_CONFIG_DIR=str(self.work / "jupyter-config"),
                        JUPYTER_DATA_DIR=str(self.work / "jupyter-data"),
                        JUPYTER_RUNTIME_DIR=str(self.work / "jupyter-runtime"),
                        JUPYTERLAB_SETTINGS_DIR=str(self.work / "user-settings"),
                        JUPYTERLAB_WORKSPACES_DIR=str(self.work / "workspaces"), PYTHONUNBUFFERED="1")
        self.env.update(env or {})
        self.proc: subprocess.Popen | None = None

    def start(self) -> "PlainLab":
        cmd = [self.python, "-m", "jupyterlab", "--no-browser", f"--port={self.port}", "--ip=127.0.0.1",
               f"--ServerApp.token={self.token}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={self.root}",
               "--LabApp.expose_app_in_browser=True"] + (["--allow-root"] if os.geteuid() == 0 else []) + self.args
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.work,
                                         start_new_session=True)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/status", params={"token": self.token}, timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError("jupyter lab did not answer in time:\n" + self.output()[-3000:])

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        if group_alive(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
