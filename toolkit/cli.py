"""Command line: ``toolkit sandbox [--port N] [--db FILE] [--print-config]``, ``toolkit lab``, ``toolkit walkthroughs``
and ``toolkit classroom``; ``toolkit --version``.

* ``toolkit sandbox`` serves the sandbox on 127.0.0.1 until interrupted and prints its base URLs.
* ``toolkit sandbox --print-config [--port N]`` prints one JSON object ``{"hosts": {...five base URLs...},
  "app": {...demo app: keys, client secret, redirect URIs...}}`` for a sandbox on port N and exits, without
  starting a server or binding the port (so it works while a sandbox serves on N). The output holds the demo
  app's secrets in plain text, for wiring other tools to the sandbox.
* ``toolkit lab [--port N] [--sandbox-port N] [--instructor]`` starts a shared sandbox and JupyterLab (on port N)
  on the learner's edition of the walkthroughs: in a checkout its ``lessons/`` (seeded from ``notebooks/``), else
  the working folder ``~/toolkit-walkthroughs``; ``--instructor`` opens the instructor's edition (a checkout's
  ``notebooks/``), ``--notebooks DIR`` any folder. Each notebook's ``toolkit.connect()``
  starts its own embedded sandbox in its kernel (``connect(fresh=True)``, as the walkthroughs do: fresh,
  deterministic state, "Run All" gives the stored outputs); ``toolkit.connect(shared=True)`` binds to the lab's
  shared sandbox instead (``TOOLKIT_SANDBOX_URL``).

  SIGTERM, SIGINT (Ctrl-C) and SIGHUP stop JupyterLab (with its kernels) and the sandbox together: JupyterLab
  runs in its own process group, is asked to stop with SIGTERM and is killed after :data:`LAB_STOP_TIMEOUT`
  seconds. JupyterLab starts without news, update checks or their "official Jupyter news?" toast, and a notebook
  opens with its own kernel started, no kernel-selection dialog (:data:`LAB_SETTINGS`, applied as settings
  overrides of this run only; your own ``overrides.json`` still wins). Hangul shows in the lab on any machine
  through toolkit's Jupyter extensions (:mod:`toolkit.jupyter`), which a wheel install puts in place for any
  JupyterLab of its environment; in a checkout ``toolkit lab`` loads them from the checkout
  (:func:`lab_extensions`).

Mistakes and failures end in one line on stderr naming the argument and the fix, with exit code 2 for a usage
mistake and 1 for a failure (:func:`describe_error`); ``--debug`` or ``TOOLKIT_DEBUG=1`` shows the traceback
instead. For example ``toolkit lab --notebooks notes.txt`` (a file) ends in::

    toolkit lab: --notebooks notes.txt: a file, not a folder: give the folder JupyterLab should open
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

LAB_STOP_TIMEOUT = 15.0
"""Seconds JupyterLab gets to shut its kernels down after SIGTERM before it is killed."""

LAB_SETTINGS = {
    # no news feed, no update check, no toast asking about them (nothing leaves loopback)
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    # a notebook opens with its kernelspec's kernel (python3: this Python, with toolkit) started, no dialog
    "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
}
"""JupyterLab settings overrides ``toolkit lab`` applies."""


DEBUG_ENV = "TOOLKIT_DEBUG"
"""``TOOLKIT_DEBUG=1`` (like ``--debug``): a failing command shows its traceback instead of one line."""


class CliError(Exception):
    """A mistake (``code`` 2: the command line was wrong) or a failure (``code`` 1) the command line reports as
    one line, ``toolkit COMMAND: MESSAGE``.

    >>> raise CliError("--notebooks x: no such folder", code=2)
    Traceback (most recent call last):
    ...
    toolkit.cli.CliError: --notebooks x: no such folder
    """

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def _folder(text: str) -> str:
    """An argument naming a folder: an empty one is refused (it would mean the current folder by accident)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name is not a folder: give a folder's path, e.g. ~/toolkit-lessons")
    return text


def _port(text: str) -> int:
    """A TCP port number, 0 to 65535 (0: a free one)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: give a number from 1 to 65535, or 0 for a free one")
    return value


def _port_free(port: int, option: str) -> None:
    """Refuse, as one line, a port that something on 127.0.0.1 already listens on."""
    from .loopback import bind_loopback

    try:
        bind_loopback(port).close()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CliError(f"{option} {port}: 127.0.0.1:{port} is already in use; choose another port, or leave "
                           f"{option} out for a free one") from None
        raise


#: the option naming the port each command's sandbox binds (toolkit lab's --port is JupyterLab's)
SANDBOX_PORT_OPTION = {"lab": "--sandbox-port"}


def describe_error(exc: BaseException, args: argparse.Namespace) -> tuple[str, int]:
    """The one line (without the ``toolkit COMMAND:`` prefix) and the exit code for an error a command raised:
    2 for a mistake in the command line (a file given as a folder, a bad parameter, a database file of a newer
    toolkit), 1 for a failure (a busy port, a folder that cannot be written, anything unexpected).

    >>> describe_error(PermissionError(13, "Permission denied", "/srv/x"), argparse.Namespace(command="walkthroughs"))
    ('/srv/x: permission denied; choose a place you can write to, or change its permissions', 1)
    """
    from .errors import ParameterError, ToolkitError
    from .sandbox.store import SchemaVersionError

    if isinstance(exc, CliError):
        return str(exc), exc.code
    if isinstance(exc, SchemaVersionError):       # a --db file of a newer toolkit: give another file
        return f"--db {getattr(args, 'db', '')}: {exc}", 2
    if isinstance(exc, ParameterError):
        return str(exc), 2
    if isinstance(exc, ToolkitError):
        return str(exc), 1
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        if exc.errno == errno.EADDRINUSE:
            option = SANDBOX_PORT_OPTION.get(args.command, "--port")
            port = getattr(args, option.lstrip("-").replace("-", "_"), None)
            return (f"{option} {port}: the port is already in use; choose another port, or leave {option} out for a "
                    "free one"), 1
        if isinstance(exc, PermissionError):
            return f"{where}permission denied; choose a place you can write to, or change its permissions", 1
        if isinstance(exc, NotADirectoryError):
            return f"{where}a part of this path is a file, not a folder; give a folder's path", 2
        if isinstance(exc, FileExistsError):
            return f"{where}already exists and is not a folder; give a folder's path", 2
        if isinstance(exc, FileNotFoundError):
            return f"{where}no such file or folder", 1
        if exc.errno == errno.ENOSPC:
            return f"{where}no space left on the device; free some space or choose another place", 1
        return f"{where}{exc.strerror or exc}", 1
    return (f"unexpected {type(exc).__name__}: {exc} ({DEBUG_ENV}=1 or --debug shows where; please report it)"), 1


def _latency(text: str):
    from .latency import Latency

    try:
        return Latency.parse(text, "--latency")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _server(args, port: int | None = None):
    from .sandbox.server import SandboxServer

    kw = {"seed": args.seed, "latency": args.latency}
    if args.clock_start:
        kw["clock_start"] = args.clock_start
    return SandboxServer(port=args.port if port is None else port, db=args.db, frozen=args.frozen_clock,
                         clock=args.clock, **kw)


def sandbox_env(config: dict) -> dict[str, str]:
    """The ``TOOLKIT_*`` variables that point a client at a running sandbox (its five hosts and keys)."""
    env = {f"TOOLKIT_{name.upper()}_URL": url for name, url in config["hosts"].items()}
    app = config["app"]
    env.update(TOOLKIT_REST_API_KEY=app["rest_api_key"], TOOLKIT_ADMIN_KEY=app["admin_key"],
               TOOLKIT_CLIENT_SECRET=app["client_secret"], TOOLKIT_APP_ID=app["app_id"],
               TOOLKIT_REDIRECT_URI=app["redirect_uris"][0])
    return env


def print_config(args) -> dict:
    """The configuration of a sandbox on ``--port`` (with ``--db``/``--seed``), computed without starting a
    server or binding the port; ``--port 0`` picks a free port."""
    from .loopback import bind_loopback
    from .sandbox.app import Sandbox

    port = args.port
    if not port:
        with bind_loopback(0) as probe:
            port = probe.getsockname()[1]
    kw = {"clock_start": args.clock_start} if args.clock_start else {}
    sandbox = Sandbox(args.db or ":memory:", seed=args.seed, frozen=args.frozen_clock,
                      base_url=f"http://127.0.0.1:{port}", **kw)
    try:
        return sandbox.config()
    finally:
        sandbox.store.close()


def cmd_sandbox(args) -> int:
    if args.print_config:
        print(json.dumps(print_config(args), ensure_ascii=False))
        return 0
    from .sandbox.heap import settle

    settle()            # this process is a server: its C heap levels off (see toolkit/sandbox/heap.py)
    server = _server(args)
    server.start()
    delay = f", latency {server.latency.describe()}" if server.latency else ""
    print(f"toolkit sandbox on {server.base_url}  (database: {args.db or 'in memory'}{delay})", flush=True)
    for name, url in server.hosts().items():
        print(f"  {name:<7}{url}", flush=True)
    print("  control  " + server.base_url + "/sandbox/config   (Ctrl-C to stop)", flush=True)
    try:
        server.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def lab_command(notebooks: str | Path, extra: Sequence[str] = (), settings_dir: str | Path | None = None,
                extensions: Sequence[str] = ()) -> list[str]:
    """The JupyterLab command line ``toolkit lab`` runs (loopback only, on the notebooks folder, no news or
    update checks; ``settings_dir``: the app settings folder holding :data:`LAB_SETTINGS`; ``extensions``: the
    arguments of :func:`lab_extensions`; ``extra``: the user's own, last)."""
    extra = list(extra)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers run as root
    quiet = ["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate"]
    settings = [f"--LabApp.app_settings_dir={Path(settings_dir).resolve()}"] if settings_dir is not None else []
    return [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={Path(notebooks).resolve()}",
            "--ip=127.0.0.1", *root, *quiet, *settings, *extensions, *extra]


def lab_settings_dir(where: str | Path) -> Path:
    """An app settings folder for this run: the default one's files (if any) plus :data:`LAB_SETTINGS` as
    ``overrides.d/toolkit.json`` (a user's ``overrides.json`` is applied after it, so it still wins)."""
    target = Path(where) / "settings"
    try:
        from jupyterlab.commands import get_app_dir

        default = Path(get_app_dir()) / "settings"
    except Exception:  # noqa: BLE001 — no default folder to carry over
        default = None
    if default is not None and default.is_dir():
        shutil.copytree(default, target, dirs_exist_ok=True)
    (target / "overrides.d").mkdir(parents=True, exist_ok=True)
    (target / "overrides.d" / "toolkit.json").write_text(json.dumps(LAB_SETTINGS, indent=1), "utf-8")
    return target


_LAB_URL = re.compile(r"http://127\.0\.0\.1:\d+/lab\S*")


def _forward(stream, announce: Path | None, settle: float = 0.5) -> None:
    """Copy JupyterLab's log lines to stderr as they come; once its start-up banner (the lines with the lab's
    URL) has settled for ``settle`` seconds, print the address to open as the last line, on stdout."""
    import threading

    found: list[str] = []
    printed: list[bool] = []
    pending: list[threading.Timer] = []

    def ready():
        printed.append(True)
        print(f"\n  toolkit lab is ready on {announce}\n  (Ctrl-C stops JupyterLab and the sandbox)\n"
              f"  open: {found[-1]}\n", flush=True)

    for line in iter(stream.readline, ""):
        sys.stderr.write(line)
        sys.stderr.flush()
        url = _LAB_URL.search(line)
        if url and announce is not None and not printed:
            found.append(url.group(0))
            for timer in pending:
                timer.cancel()
            pending[:] = [threading.Timer(settle, ready)]
            pending[0].daemon = True
            pending[0].start()
    stream.close()


def run_until_signalled(cmd: list[str], env: dict, timeout: float = LAB_STOP_TIMEOUT, *,
                        announce: Path | None = None) -> int:
    """Run ``cmd`` in its own process group until it exits or this process gets SIGTERM, SIGINT or SIGHUP; then
    ask the group to stop (SIGTERM) and kill it after ``timeout`` seconds. Returns its exit code (0 when
    stopped by a signal). With ``announce`` (the folder served), its output passes through this process and the
    lab's address is printed last once the lab is up."""
    import threading

    proc: subprocess.Popen[bytes] | subprocess.Popen[str]      # text only when the output passes through here
    if announce is None:
        proc = subprocess.Popen(cmd, env=env, start_new_session=True)
    else:
        proc = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, encoding="utf-8", errors="replace", bufsize=1)
        threading.Thread(target=_forward, args=(proc.stdout, announce), daemon=True,
                         name="toolkit-lab-log").start()
    stopping = []

    def stop(signum, _frame):
        stopping.append(signum)
        _signal_group(proc, signal.SIGTERM)

    wanted = [signal.SIGTERM, signal.SIGINT] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {sig: signal.signal(sig, stop) for sig in wanted}
    try:
        code = proc.wait()
    finally:
        if proc.poll() is None:
            _signal_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                _signal_group(proc, signal.SIGKILL)
                proc.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if stopping else code


def _signal_group(proc: subprocess.Popen, sig) -> None:
    try:
        os.killpg(proc.pid, sig)          # JupyterLab and its kernels
    except (ProcessLookupError, PermissionError):
        pass


LABEXTENSION = "toolkit-jupyter"
"""The name of toolkit's prebuilt JupyterLab extension (its built files: ``toolkit/jupyter/labextension``)."""


def lab_extensions(where: str | Path) -> tuple[list[str], dict[str, str]]:
    """What JupyterLab needs to load toolkit's Jupyter extensions where the install has not put them in place
    (a checkout's editable install gets no data files): the command-line arguments and environment variables.

    * the server extension (``toolkit.jupyter``: tiles, the Hangul font): when no folder of Jupyter's config
      path enables it, ``JUPYTER_CONFIG_PATH`` gets the package's ``jupyter-config`` folder first;
    * the lab extension ``toolkit-jupyter``: when no ``labextensions`` folder of Jupyter's data path holds it,
      ``where/labextensions/toolkit-jupyter`` links to the built extension and
      ``--LabApp.extra_labextensions_path`` names that folder.

    A regular (wheel) install has both in place, and gets nothing here."""
    from jupyter_core.paths import jupyter_config_path, jupyter_path

    package = Path(__file__).resolve().parent
    args: list[str] = []
    env: dict[str, str] = {}
    enabled = any((Path(folder) / "jupyter_server_config.d" / "toolkit.json").is_file()
                  for folder in jupyter_config_path())
    config = package.parent / "jupyter-config"
    if not enabled and (config / "jupyter_server_config.d" / "toolkit.json").is_file():
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(p for p in (str(config), os.environ.get("JUPYTER_CONFIG_PATH"))
                                                     if p)
    installed = any((Path(folder) / LABEXTENSION / "package.json").is_file()
                    for folder in jupyter_path("labextensions"))
    built = package / "jupyter" / "labextension"
    if not installed and (built / "package.json").is_file():
        folder = Path(where) / "labextensions"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            (folder / LABEXTENSION).symlink_to(built, target_is_directory=True)
        except OSError:                   # no symbolic links here (Windows without the privilege)
            shutil.copytree(built, folder / LABEXTENSION)
        args.append(f"--LabApp.extra_labextensions_path={folder.resolve()}")
    return args, env


CHECKOUT_LESSONS = "lessons"
"""The folder of a checkout where ``toolkit lab`` keeps the learner's edition (ignored by git)."""


def lab_folder(notebooks: str | Path | None, instructor: bool = False) -> tuple[Path, str]:
    """The folder ``toolkit lab`` opens, and a line saying what it is. A learner who runs the README's command sees
    the learner's edition (no stored output gives an answer away) unless they ask for the instructor's.

    * ``--notebooks DIR``: that folder; the walkthroughs in it that are as toolkit ships them are trusted.
    * ``--instructor``: the instructor's edition, every stored output: in a checkout its ``notebooks/``, else the
      working folder ``~/toolkit-walkthroughs-instructor``; trusted.
    * In a checkout (an editable install): its ``lessons/`` (:data:`CHECKOUT_LESSONS`), seeded from ``notebooks/``
      as the learner's edition by :func:`toolkit.walkthroughs.copy` and kept between runs (a walkthrough you changed
      is never overwritten; one you only ran is upgraded), trusted.
    * Otherwise (a regular install): the working folder :func:`toolkit.walkthroughs.default_workdir`
      (``~/toolkit-walkthroughs``), seeded the same way.
    """
    from . import walkthroughs

    if notebooks is not None:
        folder = Path(notebooks).expanduser()
        if folder.exists() and not folder.is_dir():
            raise CliError(f"--notebooks {notebooks}: a file, not a folder: give the folder JupyterLab should open",
                           code=2)
        if not folder.is_dir():
            raise CliError(f"--notebooks {notebooks}: no such folder (make it, or run "
                           f"`toolkit walkthroughs {notebooks}` to put the walkthroughs there)", code=2)
        signed = walkthroughs.sign_shipped(folder)
        return folder, f"the folder you chose ({len(signed)} walkthroughs in it trusted)"
    root = walkthroughs.in_checkout()
    if root is not None and instructor:
        folder = root / "notebooks"
        signed = walkthroughs.sign_shipped(folder)
        return folder, f"the checkout's walkthroughs, the instructor's edition ({len(signed)} trusted)"
    if root is not None:
        folder = root / CHECKOUT_LESSONS
        report = walkthroughs.copy(folder)
        return folder, ("the learner's edition of the checkout's walkthroughs, kept between runs (toolkit lab "
                        "--instructor opens notebooks/, every answer); walkthroughs: " + report.summary())
    if instructor:
        folder = walkthroughs.default_workdir().with_name(walkthroughs.default_workdir().name + "-instructor")
        report = walkthroughs.copy(folder, edition="instructor")
        return folder, "the instructor's edition, kept between runs; walkthroughs: " + report.summary()
    folder = walkthroughs.default_workdir()
    report = walkthroughs.copy(folder)
    return folder, "your working folder, kept between runs; walkthroughs: " + report.summary()


def cmd_lab(args) -> int:
    import importlib.util

    if importlib.util.find_spec("jupyterlab") is None:
        raise CliError("JupyterLab is not installed: pip install 'social-api-toolkit[lab]' (in a checkout: "
                       "pip install -e '.[lab]')", code=1)
    if args.port:
        _port_free(args.port, "--port")
    if args.sandbox_port:
        _port_free(args.sandbox_port, "--sandbox-port")
    if args.notebooks is not None and args.instructor:
        raise CliError("--instructor chooses the walkthroughs' folder and --notebooks names one: give one of them",
                       code=2)
    folder, what = lab_folder(args.notebooks, instructor=args.instructor)
    server = _server(args, port=args.sandbox_port).start()
    # Each notebook's toolkit.connect() starts its own embedded sandbox in the kernel, so "Run All" reproduces the
    # stored outputs; toolkit.connect(shared=True) binds to this shared one (also reachable by other tools).
    env = {**os.environ, "TOOLKIT_SANDBOX_URL": server.base_url}
    print(f"sandbox on {server.base_url}; starting JupyterLab on {folder.resolve()}\n  ({what})", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="toolkit-lab-") as tmp:
            ext_args, ext_env = lab_extensions(tmp)
            cmd = lab_command(folder, _lab_args(args), settings_dir=lab_settings_dir(tmp), extensions=ext_args)
            return run_until_signalled(cmd, {**env, **ext_env}, announce=folder.resolve())
    finally:
        server.stop()
        print("toolkit lab: JupyterLab and the sandbox stopped", flush=True)


def _lab_args(args) -> list[str]:
    """The arguments for jupyter lab: ``--port N`` as JupyterLab's port (exactly that one: no retries on the next
    ports), then the ones given after ``--`` (which win)."""
    extra = list(args.lab_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    port = [f"--ServerApp.port={args.port}", "--ServerApp.port_retries=0"] if args.port else []
    return port + extra


def cmd_walkthroughs(args) -> int:
    from . import walkthroughs

    report = walkthroughs.copy(args.folder, trust=not args.no_trust,
                               edition="instructor" if args.instructor else "learner")
    print(report, flush=True)
    print(f"open them with: toolkit lab --notebooks {report.folder}", flush=True)
    return 0


CLASSROOM_ACTIONS = {"serve": 0, "token": 1, "worlds": 0, "reset": 1, "incident": 2, "revoke": 1, "progress": 0,
                     "incidents": 0}
"""``toolkit classroom ACTION ...``: the number of arguments after each action (serve is the default)."""


def hub_lines(url: str, secret_file: str | Path, prefix: str = "") -> str:
    """The lines of a ``jupyterhub_config.py`` that give every single-user server its class world (the hub
    sets ``JUPYTERHUB_USER`` itself); with ``prefix`` (the class sandbox answers under the hub's proxy there),
    the browser's address too."""
    browser = f"    \"TOOLKIT_CLASSROOM_BROWSER_URL\": {prefix!r},\n" if prefix else ""
    return (f"# jupyterhub_config.py: every single-user server gets its student's world\n"
            f"from toolkit.classroom import read_secret, student_token\n"
            f"_class_secret = read_secret({str(Path(secret_file).resolve())!r})\n"
            f"c.Spawner.environment.update({{\n"
            f"    \"TOOLKIT_CLASSROOM_URL\": {url!r},\n{browser}"
            f"    \"TOOLKIT_CLASSROOM_TOKEN\": lambda spawner: student_token(_class_secret, spawner.user.name),\n"
            f"}})")


def cmd_classroom(args) -> int:
    from .classroom import ClassroomError, Teacher, read_secret, revocations, revoke, student_token

    action, *rest = args.action or ["serve"]
    clearing = action == "incident" and (args.clear is not None or args.all)
    if (args.clear is not None or args.all) and action != "incident":
        print("toolkit classroom: --clear and --all go with incident: toolkit classroom incident --clear ID|--all",
              file=sys.stderr)
        return 2
    if clearing:        # incident --clear ID, incident --clear --all (or incident ID --clear)
        rest = ([args.clear] if args.clear else []) + rest
        if len(rest) != (0 if args.all else 1) or (rest and not rest[0].isdigit()):
            print("toolkit classroom: clear one incident by its id (toolkit classroom incidents lists them) or all "
                  "of them: toolkit classroom incident --clear ID, or toolkit classroom incident --clear --all",
                  file=sys.stderr)
            return 2
    if action not in CLASSROOM_ACTIONS or (len(rest) != CLASSROOM_ACTIONS[action] and not clearing):
        wanted = {"serve": "", "token": " NAME", "worlds": "", "reset": " NAME", "incident": " API_ID STATUS",
                  "revoke": " NAME", "progress": "", "incidents": "", "incident --clear": " ID|--all"}
        print(f"toolkit classroom: use one of: {'; '.join('toolkit classroom ' + a + w for a, w in wanted.items())}",
              file=sys.stderr)
        return 2
    try:
        secret = read_secret(args.secret_file, create=action in ("serve", "token"))
        if action == "token":
            print(student_token(secret, rest[0], revocations(args.secret_file).get(rest[0], 0)), flush=True)
            return 0
        if action == "revoke":
            generation = revoke(args.secret_file, rest[0])
            print(f"{rest[0]}: token revoked (generation {generation}): the class sandbox refuses the old one and "
                  "forgets their browser sessions within a second; a hub hands out the new one at their server's "
                  "next start (stop and start it from the hub's admin page)", flush=True)
            return 0
        if action == "serve":
            from .sandbox.classroom import Limits

            from .sandbox.classroom import ClassPolicy

            try:
                args.limits = Limits(concurrent=args.max_concurrent, rate=args.rate, burst=args.burst)
            except ValueError as exc:
                raise ClassroomError(str(exc)) from None
            ClassPolicy(args.allow_origin)          # an origin that is not one: a message, before anything starts
        if action == "serve":
            from .sandbox.classroom import normalize_prefix

            args.prefix = normalize_prefix(args.prefix)
        if action != "serve":
            url = args.url or os.environ.get("TOOLKIT_CLASSROOM_URL")
            if not url:
                print("toolkit classroom: give --url (the class sandbox's address) or set TOOLKIT_CLASSROOM_URL",
                      file=sys.stderr)
                return 2
            teacher = Teacher(url, secret)
            if action == "worlds":
                import pandas as pd

                with pd.option_context("display.width", 200, "display.max_columns", 10):
                    frame = teacher.worlds()
                    print(frame.to_string(index=False) if len(frame) else "no worlds yet", flush=True)
            elif action == "progress":
                print(progress_table(teacher.progress()), flush=True)
            elif action == "incidents":
                import pandas as pd

                frame = teacher.incidents()
                with pd.option_context("display.width", 200, "display.max_columns", 10):
                    print(frame.to_string(index=False) if len(frame) else "no incidents posted", flush=True)
            elif clearing:
                done = teacher.clear_incident(None if args.all else int(rest[0]), all=args.all)
                ids = ", ".join(map(str, done["cleared"]))
                print(f"incident{'s' if len(done['cleared']) != 1 else ''} {ids} cleared: no longer played into "
                      f"worlds made or reset; ended now in {done['worlds']} world(s)" if done["cleared"] else
                      "no incident to clear", flush=True)
            elif action == "reset":
                done = teacher.reset(rest[0])
                print(f"{rest[0]}: world reset" if done["reset"] else f"{rest[0]}: no world yet (nothing to reset)")
            else:
                done = teacher.incident(rest[0], rest[1], hours=args.hours, started_minutes_ago=args.started_minutes_ago,
                                        note=args.note)
                print(f"incident {done['id']}: {done['api']} {done['status']} for {done['hours']:g} h posted to "
                      f"{done['worlds']} world(s) and to the worlds made or reset meanwhile (take it back with: "
                      f"toolkit classroom incident --clear {done['id']})", flush=True)
            return 0
    except ClassroomError as exc:
        print(f"toolkit classroom: {exc}", file=sys.stderr)
        return 1
    return serve_classroom(args, secret)


def _ago(when, now) -> str:
    """``when`` (a UTC Timestamp or NaT) as a teacher reads it: ``42 s ago``, ``5 min ago``, ``2 h ago``."""
    import pandas as pd

    if pd.isna(when):
        return "-"
    seconds = max(0, int((now - when).total_seconds()))
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return f"{seconds} s ago"


def progress_table(frame, now=None) -> str:
    """The teacher's progress table (:meth:`toolkit.classroom.Teacher.progress`) as one plain-text table: a row per
    student, times as how long ago, the exercises right as a count, those not right yet by id with their tries
    (``00.3×4``), and the kind of the last error the student's own code raised."""
    import pandas as pd

    if not len(frame):
        return "no worlds yet"
    now = pd.Timestamp.now(tz="UTC") if now is None else now
    rows = [{"student": r.student, "last activity": _ago(r.last_activity, now),
             "last error": f"{r.last_error} ({_ago(r.last_error_at, now)})" if r.last_error else "-",
             "raised": f"{r.last_raised} ({_ago(r.last_raised_at, now)})" if getattr(r, "last_raised", "") else "-",
             "right": str(len(r.right)),
             "not yet": " ".join(f"{e}×{(getattr(r, 'attempts', None) or {}).get(e, 1)}" for e in r.not_yet) or "-",
             "last check": f"{r.last_exercise} {'✓' if r.last_exercise in r.right else '✗'} "
                           f"({_ago(r.last_check, now)})" if r.last_exercise else "-"}
            for r in frame.itertuples()]
    with pd.option_context("display.width", 250, "display.max_columns", 10, "display.max_colwidth", 80):
        return pd.DataFrame(rows).to_string(index=False)


def serve_classroom(args, secret) -> int:
    """Serve the class sandbox until SIGTERM, SIGINT or SIGHUP; print its address and the hub's lines."""
    import threading

    from .sandbox.classroom import ClassroomServer
    from .sandbox.heap import settle

    settle()            # this process is a server: its C heap levels off (see toolkit/sandbox/heap.py)
    kw = {"seed": args.seed, "latency": args.latency, "frozen": args.frozen_clock, "clock": args.clock,
          "prefix": args.prefix, "limits": args.limits, "secret_file": args.secret_file,
          "allow_origins": args.allow_origin, "webhook_host": args.webhook_host, "trusted_hosts": args.trusted_host}
    from .sandbox.connections import ConnectionLimits

    kw["connections"] = ConnectionLimits(per_address=args.max_connections_per_address, total=args.max_connections,
                                         head_seconds=args.header_timeout)
    if args.clock_start:
        kw["clock_start"] = args.clock_start
    from .classroom import ClassroomError
    from .sandbox.classroom_hub import HubLogin

    try:
        kw["hub"] = HubLogin.from_environment()     # a hub's service: browsers are the hub's logged-in users
    except ClassroomError as exc:
        print(f"toolkit classroom: {exc}", file=sys.stderr)
        return 1
    server = ClassroomServer(secret, port=args.port, db=args.db, host=args.host, **kw)
    stop = threading.Event()
    wanted = [signal.SIGTERM, signal.SIGINT] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in wanted}
    try:
        server.start()
        url = server.base_url if args.host not in ("0.0.0.0", "::", "") else f"http://HOSTNAME:{server.port}"
        where = f"{args.db} (worlds in {args.db}.worlds/)" if args.db else "in memory"
        print(f"toolkit classroom on {url}  (worlds: {where}; SIGTERM or Ctrl-C stops it)", flush=True)
        print(f"  limits {server.classroom.limits} (--max-concurrent, --rate, --burst)", flush=True)
        print(f"  anyone: {server.connections} (--max-connections, --max-connections-per-address); refused and "
              f"anonymous requests {server.classroom.anonymous.rate:g} a second per address; answers to Host "
              f"{', '.join(sorted(server.classroom.trusted_hosts))} (--trusted-host)", flush=True)
        print(f"  a student's token:  toolkit classroom token NAME --secret-file {args.secret_file}", flush=True)
        print(f"  the teacher:        toolkit classroom worlds --url {url} --secret-file {args.secret_file}",
              flush=True)
        print("  single-user servers' environment: TOOLKIT_CLASSROOM_URL, TOOLKIT_CLASSROOM_TOKEN (the student's "
              "token), JUPYTERHUB_USER (set by the hub)", flush=True)
        if server.classroom.prefix:
            print(f"  browsers (login pages) through the hub's proxy: {server.classroom.prefix}/ "
                  f"(TOOLKIT_CLASSROOM_BROWSER_URL={server.classroom.prefix})", flush=True)
        if kw["hub"] is not None:
            print(f"  a browser's student: the hub's login (OAuth client {kw['hub'].cookie_name}, callback "
                  f"{kw['hub'].callback_path})", flush=True)
        print(hub_lines(url, args.secret_file, server.classroom.prefix), flush=True)
        while not stop.wait(0.5):
            if not server.running:
                return 1
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("toolkit classroom: stopped", flush=True)
    return 0


DESCRIPTION = "The toolkit's command line: serve the sandbox (an emulator of the service) or JupyterLab with it."
EPILOG = """commands:
  toolkit sandbox                 serve the sandbox on 127.0.0.1 until Ctrl-C; prints its five base URLs
  toolkit sandbox --print-config  print the hosts and demo app of a sandbox on --port as JSON (binds nothing)
  toolkit lab                     a shared sandbox and JupyterLab on the learner's edition of the walkthroughs
                                  (prints the address last): a checkout's lessons/, else ~/toolkit-walkthroughs
                                  (seeded and kept); --instructor: every answer (a checkout's notebooks/)
  toolkit walkthroughs DIR        copy the walkthroughs, their pages and samples into DIR (keeps your changes)
  toolkit classroom --secret-file F           a class sandbox: one world per student (token NAME, worlds,
                                              progress, reset NAME, incident API_ID STATUS, incident --clear ID:
                                              the teacher's commands)

"toolkit COMMAND --help" lists the options of a command. An error ends in one line and exit code 2 (a
mistake in the command line) or 1 (a failure); --debug or TOOLKIT_DEBUG=1 shows its traceback."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="toolkit", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"toolkit {__version__}")
    parser.add_argument("--debug", action="store_true", help=f"show the traceback of an error (also: {DEBUG_ENV}=1)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=None, help="SQLite file to persist the sandbox (default: in memory)")
    common.add_argument("--seed", type=int, default=7, help="seed of the deterministic demo data")
    common.add_argument("--clock-start", default=None, help="start instant of the sandbox clock (RFC 3339)")
    common.add_argument("--frozen-clock", action="store_true", help="the clock moves only when advanced")
    common.add_argument("--latency", type=_latency, default=None, metavar="DELAY",
                        help="emulate the network: delay every API answer, e.g. 30ms or 30ms±10ms (jitter)")
    common.add_argument("--clock", choices=("virtual", "real"), default="virtual",
                        help="virtual: the deterministic sandbox clock (default); real: the wall clock, for outside "
                             "clients that check token times against their own clock")
    sb = sub.add_parser("sandbox", parents=[common], help="serve the sandbox",
                        description="Serve the sandbox on 127.0.0.1 until interrupted (Ctrl-C); it prints its base "
                                    "URLs. Clients reach it with the TOOLKIT_* variables or connect(hosts=...).")
    sb.add_argument("--port", type=_port, default=0, help="the sandbox's port on 127.0.0.1 (default: a free one)")
    sb.add_argument("--print-config", action="store_true",
                    help="print the five base URLs and the demo app (keys in plain text) of a sandbox on --port as "
                         "one JSON object and exit; starts no server and binds no port")
    sb.set_defaults(func=cmd_sandbox)
    lab = sub.add_parser("lab", parents=[common], help="a sandbox and JupyterLab on the walkthroughs",
                         description="Start a shared sandbox and JupyterLab (loopback only) on the learner's edition "
                                     "of the walkthroughs: in a checkout its lessons/ folder, seeded from notebooks/; "
                                     "installed from a wheel or a Git URL, the working folder ~/toolkit-walkthroughs "
                                     "(your changes are kept). --instructor opens the instructor's edition. "
                                     "toolkit.connect(shared=True) in a notebook binds to the shared sandbox.")
    lab.add_argument("--port", type=_port, default=0,
                     help="JupyterLab's port on 127.0.0.1 (default: Jupyter's, 8888 or the next free one)")
    lab.add_argument("--sandbox-port", type=_port, default=0, metavar="N",
                     help="the shared sandbox's port on 127.0.0.1 (default: a free one)")
    lab.add_argument("--notebooks", type=_folder, default=None, metavar="DIR",
                     help="folder JupyterLab opens (default: the learner's edition, in a checkout its lessons/ "
                          "folder, else the working folder ~/toolkit-walkthroughs, seeded with the walkthroughs)")
    lab.add_argument("--instructor", action="store_true",
                     help="open the instructor's edition, every stored output (answers included): in a checkout "
                          "its notebooks/ folder, else ~/toolkit-walkthroughs-instructor")
    lab.add_argument("lab_args", nargs=argparse.REMAINDER, metavar="-- ARGS",
                     help="further arguments passed to jupyter lab unchanged")
    lab.set_defaults(func=cmd_lab)
    walk = sub.add_parser("walkthroughs", help="copy the walkthroughs into a folder",
                          description="Copy the walkthroughs, the pages they link to (reference/) and the sample "
                                      "files (samples/) into DIR, and trust the copied notebooks so their stored maps "
                                      "show on first open. A file you changed is never overwritten: it is skipped, "
                                      "and the command says so.")
    walk.add_argument("folder", type=_folder, metavar="DIR", help="the folder to copy into (made when missing)")
    walk.add_argument("--no-trust", action="store_true", help="do not sign the copied notebooks as trusted")
    walk.add_argument("--instructor", action="store_true",
                      help="copy the full edition, with every stored output (answers included); default: the "
                           "learner's edition, where no stored output gives an answer away")
    walk.set_defaults(func=cmd_walkthroughs)
    room = sub.add_parser(
        "classroom", parents=[common], help="a class sandbox: one world per student",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Serve one sandbox with an isolated world per student (until SIGTERM or Ctrl-C), or act as the "
                    "teacher. The class secret lives in --secret-file (created, mode 0600, when missing).",
        epilog="actions:\n"
               "  toolkit classroom [--port N] [--db FILE] --secret-file F [--host 127.0.0.1]   serve the class\n"
               "  toolkit classroom token NAME --secret-file F                 print a student's token\n"
               "  toolkit classroom worlds --url URL --secret-file F           the worlds: activity, call counts\n"
               "  toolkit classroom reset NAME --url URL --secret-file F       reset one student's world\n"
               "  toolkit classroom revoke NAME --secret-file F                a new token for one student (at their\n"
               "                                                               next spawn); the old one is refused\n"
               "  toolkit classroom incident API_ID STATUS --hours H --url URL --secret-file F\n"
               "                                                               an incident in every world\n"
               "  toolkit classroom incidents --url URL --secret-file F        the incidents posted, with their ids\n"
               "  toolkit classroom incident --clear ID|--all --url URL --secret-file F\n"
               "                                                               take an incident back (ended now)\n"
               "  toolkit classroom progress --url URL --secret-file F         who is where: last activity, last\n"
               "                                                               error, exercises right and not yet\n"
               "--url defaults to TOOLKIT_CLASSROOM_URL. With --db FILE the worlds survive a restart (one SQLite\n"
               "file per world in FILE.worlds/).")
    room.add_argument("--port", type=_port, default=0,
                      help="the class sandbox's port (default: a free one)")
    room.add_argument("action", nargs="*", metavar="ACTION",
                      help="serve (default), token, worlds, progress, reset, incident, incidents, revoke")
    room.add_argument("--secret-file", required=True, metavar="F", help="file of the class secret")
    room.add_argument("--host", default="127.0.0.1",
                      help="address to listen on (default 127.0.0.1; 0.0.0.0 in a cluster's pod)")
    room.add_argument("--url", default=None, help="the class sandbox's address (teacher's commands)")
    room.add_argument("--prefix", default=os.environ.get("JUPYTERHUB_SERVICE_PREFIX", ""), metavar="PATH",
                      help="also answer under this path, as a hub's proxy forwards it (default: "
                           "$JUPYTERHUB_SERVICE_PREFIX, which a hub sets for its services: /services/NAME/)")
    room.add_argument("--max-concurrent", type=int, default=8, metavar="N",
                      help="requests of one student in progress at once (default 8)")
    room.add_argument("--rate", type=float, default=20.0, metavar="R",
                      help="requests a second per student, sustained (default 20)")
    room.add_argument("--burst", type=int, default=80, metavar="N",
                      help="requests per student at once after a pause (default 80)")
    room.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                      help="an origin (https://host[:port]) students' apps may also redirect to; repeat for more "
                           "(default: only the class's own origins and localhost)")
    room.add_argument("--webhook-host", default=None, metavar="TEMPLATE",
                      help="in a cluster: the only host a student's webhooks go to, {name} the student's name "
                           "(e.g. jupyter-{name}); default: the public internet and the student's own inbox")
    room.add_argument("--trusted-host", action="append", default=[], metavar="NAME",
                      help="a host name the class sandbox is reached by (the kernels' TOOLKIT_CLASSROOM_URL, e.g. "
                           "toolkit-classroom in a cluster); repeat for more (default: 127.0.0.1, localhost, ::1 "
                           "and the host of $JUPYTERHUB_PUBLIC_URL; '*' for any)")
    room.add_argument("--max-connections", type=int, default=8192, metavar="N",
                      help="open connections in all (default 8192, below the open-file limit)")
    room.add_argument("--max-connections-per-address", type=int, default=2048, metavar="N",
                      help="open connections from one address (default 2048: on one machine every kernel comes "
                           "from 127.0.0.1; lower in a cluster); past it the oldest one not in a request is closed")
    room.add_argument("--header-timeout", type=float, default=10.0, metavar="S",
                      help="seconds a connection has to send a request's whole head (default 10)")
    room.add_argument("--hours", type=float, default=1.0, help="incident: how long it lasts (default 1)")
    room.add_argument("--started-minutes-ago", type=float, default=0.0, help="incident: began this long ago")
    room.add_argument("--note", default="", help="incident: a note shown with it")
    room.add_argument("--clear", nargs="?", const="", default=None, metavar="ID",
                      help="incident --clear ID: take a posted incident back (--all: every one)")
    room.add_argument("--all", action="store_true", help="incident --clear --all: every posted incident")
    room.set_defaults(func=cmd_classroom)
    for command in sub.choices.values():
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                             help=f"show the traceback of an error (also: {DEBUG_ENV}=1)")
    args = parser.parse_args(argv)
    debug = args.debug or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 — every error ends in one line (the traceback with --debug)
        if debug:
            raise
        message, code = describe_error(exc, args)
        print(f"toolkit {args.command}: {message}", file=sys.stderr, flush=True)
        return code


if __name__ == "__main__":
    sys.exit(main())
