"""Start ``toolkit lab`` as a user would (a subprocess on 127.0.0.1, a free port, a token of our choosing) for
the signal tests and the real-browser walkthrough test; every wait is bounded."""
from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class LabProcess:
    """``toolkit lab --notebooks DIR`` with ``--no-browser --port=N --ServerApp.token=T``; its output goes to
    ``log``. ``.url``, ``.token``, ``.sandbox_url``, ``.jupyter_pid`` once :meth:`start` returned."""

    def __init__(self, notebooks: Path | None, workdir: Path, startup_timeout: float = 120.0, *,
                 extra_env: dict | None = None, lab_args: list[str] = (), command: list[str] | None = None):
        """``notebooks=None``: no ``--notebooks`` (the lab chooses its folder); ``command``: how to run the
        toolkit command line (default: this Python's ``-m toolkit.cli``; an installed ``toolkit`` script too)."""
        self.notebooks = None if notebooks is None else Path(notebooks)
        self.workdir, self.startup_timeout = Path(workdir), startup_timeout
        self.command = list(command or [sys.executable, "-m", "toolkit.cli"])
        self.extra_env, self.lab_args = dict(extra_env or {}), list(lab_args)
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.workdir / "toolkit-lab.log"
        self.runtime = self.workdir / "runtime"
        self.proc: subprocess.Popen | None = None
        self.sandbox_url: str | None = None
        self.jupyter_pid: int | None = None

    def start(self) -> "LabProcess":
        self.runtime.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLKIT_")}
        # nothing of the run outside the work folder: trust database, workspaces (which a later lab would restore)
        env.update(JUPYTER_RUNTIME_DIR=str(self.runtime), PYTHONUNBUFFERED="1",
                   JUPYTER_DATA_DIR=str(self.workdir / "jupyter-data"),
                   JUPYTERLAB_WORKSPACES_DIR=str(self.workdir / "workspaces"))
        env.update(self.extra_env)
        self.runtime = Path(env["JUPYTER_RUNTIME_DIR"])
        where = [] if self.notebooks is None else ["--notebooks", str(self.notebooks)]
        cmd = [*self.command, "lab", *where, "--",
               "--no-browser", f"--port={self.port}", f"--ServerApp.token={self.token}",
               "--ServerApp.port_retries=0", *self.lab_args]
        with self.log.open("wb") as log:   # the child keeps its own copy of the descriptor
            self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"toolkit lab exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/status", params={"token": self.token}, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        else:
            self.stop()
            raise RuntimeError("toolkit lab did not answer in time:\n" + self.output()[-3000:])
        found = re.search(r"sandbox on (http://127\.0\.0\.1:\d+)", self.output())
        self.sandbox_url = found.group(1) if found else None
        servers = [json.loads(p.read_text()) for p in self.runtime.glob("jpserver-*.json")]
        self.jupyter_pid = next((s["pid"] for s in servers if s.get("port") == self.port), None)
        return self

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace") if self.log.exists() else ""

    def signal(self, sig=signal.SIGTERM, timeout: float = 40.0) -> int | None:
        """Send ``sig`` to the toolkit process; its exit code, or None if it did not exit within ``timeout``."""
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """Best-effort clean-up (tests call :meth:`signal` to check the behaviour)."""
        if self.proc is not None and self.proc.poll() is None:
            if self.signal(signal.SIGTERM, 30) is None:
                self.proc.kill()
                self.proc.wait(10)
        if self.jupyter_pid and group_alive(self.jupyter_pid):
            os.killpg(self.jupyter_pid, signal.SIGKILL)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class JupyterProcess:
    """A plain Jupyter (``command``: e.g. ``[python, "-m", "jupyter_server"]`` or ``[venv/bin/jupyter, "lab"]``)
    on 127.0.0.1 with a token and ``base_url``, in ``workdir`` (its root folder unless ``root`` is given), with
    ``env`` (a whole environment; default: this one without TOOLKIT_* and JUPYTER* variables, Jupyter's folders
    inside ``workdir``); output in ``workdir/jupyter.log``; :meth:`stop` ends it (and its kernels' group)."""

    def __init__(self, command, workdir: Path, *, base_url: str = "/", env: dict | None = None,
                 root: Path | None = None, args=(), startup_timeout: float = 120.0):
        self.workdir = Path(workdir)
        self.port, self.token, self.base_url = free_port(), secrets.token_hex(16), base_url
        self.url = f"http://127.0.0.1:{self.port}{base_url}"
        if env is None:
            env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLKIT_", "JUPYTER"))}
            env.update(JUPYTER_CONFIG_DIR=str(self.workdir / "jupyter-config-dir"),
                       JUPYTER_RUNTIME_DIR=str(self.workdir / "runtime"),
                       JUPYTER_DATA_DIR=str(self.workdir / "jupyter-data"))
        env = {**env, "PYTHONUNBUFFERED": "1"}
        self.log = self.workdir / "jupyter.log"
        cmd = [*map(str, command), "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
               f"--ServerApp.base_url={base_url}", f"--ServerApp.root_dir={root or self.workdir}",
               *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []), *args]
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=self.workdir,
                                         start_new_session=True)
        deadline = time.monotonic() + startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{cmd[0]} exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            try:
                if httpx.get(self.url + "api/status", params={"token": self.token}, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError("jupyter did not answer in time:\n" + self.output()[-3000:])

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace") if self.log.exists() else ""

    def get(self, path: str, auth: bool = True, **kw) -> httpx.Response:
        """``GET {url}{path}`` (with the token unless ``auth=False``)."""
        headers = {"Authorization": f"token {self.token}"} if auth else {}
        return httpx.get(self.url + path, headers={**headers, **kw.pop("headers", {})}, timeout=60, **kw)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if group_alive(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
