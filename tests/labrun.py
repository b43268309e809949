"""The Jupyter processes of the tests, each on 127.0.0.1 with a free port and a token of our choosing, every wait
bounded: ``toolkit lab`` as a user starts it (:class:`LabProcess`) and a plain ``jupyter server`` or ``jupyter lab``
(:class:`JupyterProcess`)."""
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


def clean_env(workdir: Path) -> dict[str, str]:
    """This environment less its ``TOOLKIT_*`` and ``JUPYTER*`` variables, with every Jupyter folder (config, data,
    runtime, lab settings, workspaces) inside ``workdir``: nothing of the run or of the user's own Jupyter."""
    workdir = Path(workdir)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLKIT_", "JUPYTER"))}
    env.update(JUPYTER_CONFIG_DIR=str(workdir / "jupyter-config-dir"), JUPYTER_DATA_DIR=str(workdir / "jupyter-data"),
               JUPYTER_RUNTIME_DIR=str(workdir / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(workdir / "user-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(workdir / "workspaces"))
    return env


def no_windowing(settings: Path) -> Path:
    """Test-only JupyterLab user settings in ``settings`` (a ``JUPYTERLAB_SETTINGS_DIR``): every cell rendered (no
    windowing), so outputs can be checked in the DOM, and no news or update check. Returns ``settings``."""
    for plugin, values in (("notebook-extension/tracker", {"windowingMode": "none"}),
                           ("apputils-extension/notification", {"fetchNews": "false", "checkForUpdates": False})):
        path = Path(settings) / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), "utf-8")
    return Path(settings)


class JupyterProcess:
    """A plain Jupyter, not ``toolkit lab``: ``command`` is e.g. ``[python, "-m", "jupyter_server"]``,
    ``[python, "-m", "jupyterlab"]`` or ``[venv/bin/jupyter, "lab"]``; on 127.0.0.1, a free port, a token of our
    own, ``base_url``, serving ``root`` (default: ``workdir``), with ``env`` (a whole environment; default:
    :func:`clean_env` of ``workdir``); output in ``workdir/jupyter.log``. ``.url`` is the server's address with its
    base URL and no trailing slash (``{url}/lab``, ``{url}/api/status``). :meth:`start` waits (bounded) until it
    answers; :meth:`stop` ends it and its kernels (its process group). Use it as a context manager::

        with JupyterProcess.lab(sys.executable, root, work) as lab:
            page.goto(f"{lab.url}/lab/tree/a.ipynb?token={lab.token}")
    """

    def __init__(self, command, workdir: Path, *, base_url: str = "/", env: dict | None = None,
                 root: Path | None = None, args=(), startup_timeout: float = 120.0):
        if not (base_url.startswith("/") and base_url.endswith("/")):
            raise ValueError(f"base_url must start and end with '/', not {base_url!r}")
        self.workdir, self.startup_timeout = Path(workdir), startup_timeout
        self.port, self.token, self.base_url = free_port(), secrets.token_hex(16), base_url
        self.url = f"http://127.0.0.1:{self.port}{base_url.rstrip('/')}"
        self.env = {**(clean_env(self.workdir) if env is None else env), "PYTHONUNBUFFERED": "1"}
        self.log = self.workdir / "jupyter.log"
        self.root = Path(root or self.workdir)
        self.cmd = [*map(str, command), "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}",
                    "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
                    f"--ServerApp.base_url={base_url}", f"--ServerApp.root_dir={self.root}",
                    *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []), *map(str, args)]
        self.proc: subprocess.Popen | None = None

    @classmethod
    def lab(cls, python, root: Path, workdir: Path, *, args=(), **kw) -> "JupyterProcess":
        """``python -m jupyterlab`` on ``root`` with the app exposed to the page (``window.jupyterapp``)."""
        return cls([python, "-m", "jupyterlab"], workdir, root=root,
                   args=["--LabApp.expose_app_in_browser=True", *args], **kw)

    @classmethod
    def server_of_checkout(cls, workdir: Path, *, base_url: str = "/", env: dict | None = None) -> "JupyterProcess":
        """``jupyter server`` of this Python with toolkit's server extension enabled the way this checkout enables
        it (``JUPYTER_CONFIG_PATH=<checkout>/jupyter-config``; a wheel install carries the same file in
        ``etc/jupyter``): :func:`clean_env` of ``workdir`` plus ``env``."""
        config = Path(__file__).resolve().parents[1] / "jupyter-config"
        Path(workdir).mkdir(parents=True, exist_ok=True)
        return cls([sys.executable, "-m", "jupyter_server"], workdir, base_url=base_url,
                   env={**clean_env(workdir), "JUPYTER_CONFIG_PATH": str(config), **(env or {})})

    def start(self) -> "JupyterProcess":
        self.workdir.mkdir(parents=True, exist_ok=True)
        with self.log.open("wb") as out:       # the child keeps its own copy of the descriptor
            self.proc = subprocess.Popen(self.cmd, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         cwd=self.workdir, start_new_session=True)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.cmd[0]} exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/api/status", params={"token": self.token}, timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"{self.cmd[0]} did not answer in time:\n" + self.output()[-3000:])

    def output(self) -> str:
        return self.log.read_text("utf-8", "replace") if self.log.exists() else ""

    def get(self, path: str, auth: bool = True, **kw) -> httpx.Response:
        """``GET {url}/{path}`` (with the token unless ``auth=False``)."""
        headers = {"Authorization": f"token {self.token}"} if auth else {}
        return httpx.get(f"{self.url}/{path}", headers={**headers, **kw.pop("headers", {})}, timeout=60, **kw)

    def stop(self) -> None:
        """SIGTERM to its process group (the server and its kernels), SIGKILL to what is left after 30 s."""
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
        if self.proc.poll() is None:
            self.proc.wait(10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
