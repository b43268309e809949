"""JupyterHub configuration for a class: the class sandbox as a hub-managed service, a world per student.

Put this file where your hub reads its configuration (The Littlest JupyterHub:
``/opt/tljh/config/jupyterhub_config.d/toolkit_classroom.py``, then ``sudo tljh-config reload hub``; a plain
JupyterHub: ``jupyterhub -f deploy/jupyterhub_config.py``, or ``load_subconfig("...")`` from your own file).
See deploy/README.md.

What it does:

* runs ``toolkit classroom --port PORT --secret-file SECRET_FILE [--db DB]`` as the hub-managed service
  ``toolkit-classroom`` on ``http://127.0.0.1:PORT``; the hub starts it with the hub and stops it with the hub;
* lets a student's browser in with the hub's own login: the service is the hub's OAuth client
  (``oauth_no_confirm``, ``oauth_redirect_uri /services/toolkit-classroom/oauth_callback``) and the hub's
  ``user`` role gains ``access:services!service=toolkit-classroom``, so the class sandbox learns from the hub whom
  a browser is logged in as (``toolkit.sandbox.classroom_hub``); a hub logout ends that browser's way in;
* gives every single-user server ``TOOLKIT_CLASSROOM_URL`` and ``TOOLKIT_CLASSROOM_TOKEN`` (the student's token,
  derived from the class secret and the user's name when the server is spawned); JupyterHub itself sets
  ``JUPYTERHUB_USER``. A plain ``toolkit.connect()`` in any notebook then binds to that student's own world;
* and ``TOOLKIT_CLASSROOM_BROWSER_URL=/services/toolkit-classroom``: the kernel reaches the class sandbox at
  127.0.0.1, the student's browser cannot, so login links open through the hub's proxy, where the class sandbox
  also answers (the hub gives its service ``JUPYTERHUB_SERVICE_PREFIX``);
* maps take their tiles from the student's own server (``/user/NAME/toolkit/tiles/...``, toolkit's Jupyter server
  extension), which forwards them to the class sandbox with the student's header: one renderer for the class.
  A regular install of toolkit in the users' environment enables that extension by itself (the wheel's
  ``etc/jupyter/jupyter_server_config.d/toolkit.json``); where the hub's Python imports toolkit from a checkout
  (``pip install -e``), the servers get the checkout's ``jupyter-config/`` as ``JUPYTER_CONFIG_PATH``.

A large class splits over several class sandboxes sharing one class secret, each student assigned one by name
(rendezvous hashing: stable, and adding a sandbox moves only the students it takes over):
``TOOLKIT_CLASSROOM_SANDBOXES=N`` runs N of them here as N services (ports PORT to PORT+N-1, one core each);
``TOOLKIT_CLASSROOM_URLS`` names sandboxes run elsewhere (no service is started here then). Every single-user
server then also gets ``TOOLKIT_CLASSROOM_URLS`` (all of them: the teacher's notebook asks each). See "Past one
machine" in deploy/README.md.

Settings, read from the hub's environment (the defaults suit The Littlest JupyterHub):

=================================  ==========================================================================
``TOOLKIT_CLASSROOM_SECRET_FILE``  the class secret (created by the class sandbox when missing); keep it
                                   readable by the hub's user only: it mints every student's token
                                   (default ``/srv/toolkit-classroom/class.secret``). Its folder is made
                                   with mode 0700 when missing; an existing folder others may write in
                                   (``/tmp``) stops the hub with a message, and is never changed
``TOOLKIT_CLASSROOM_PORT``         the class sandbox's port on 127.0.0.1 (default 8765)
``TOOLKIT_CLASSROOM_DB``           SQLite file keeping the worlds across restarts (default
                                   ``/srv/toolkit-classroom/worlds.sqlite``; empty: worlds in memory only)
``TOOLKIT_CLASSROOM_TOOLKIT``      the ``toolkit`` command of the users' environment (default: TLJH's
                                   ``/opt/tljh/user/bin/toolkit`` where it exists, else the one beside the
                                   Python running the hub, else ``toolkit`` on PATH; none: the hub stops
                                   with a message before it starts its proxy)
``TOOLKIT_CLASSROOM_SANDBOXES``    how many class sandboxes to run here (default 1)
``TOOLKIT_CLASSROOM_URLS``         class sandboxes run elsewhere, comma-separated (no managed service then)
``TOOLKIT_CLASSROOM_BROWSER_URLS`` where browsers reach those, in the same order (e.g. the path of each as an
                                   external service of this hub, run with ``--prefix`` that path)
``TOOLKIT_CLASSROOM_USER_ROLE``    1 (default): the hub's ``user`` role gains
                                   ``access:services!service=toolkit-classroom``; 0: your configuration
                                   defines the ``user`` role and gives that scope itself
=================================  ==========================================================================

The hub computes tokens with ``toolkit.classroom.student_token`` when toolkit is importable in the hub's own
Python, else by running ``toolkit classroom token NAME --secret-file F`` of the users' environment (TLJH keeps
the hub and the users in two environments; toolkit need only be installed in the users' one).
"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub's config loader provides get_config)

SECRET_FILE = os.environ.get("TOOLKIT_CLASSROOM_SECRET_FILE", "/srv/toolkit-classroom/class.secret")
PORT = int(os.environ.get("TOOLKIT_CLASSROOM_PORT", "8765"))
DB = os.environ.get("TOOLKIT_CLASSROOM_DB", "/srv/toolkit-classroom/worlds.sqlite")


def _find_toolkit(required: bool) -> str:
    """The ``toolkit`` command: TOOLKIT_CLASSROOM_TOOLKIT when set, else TLJH's users' one, else the one beside the
    Python that runs the hub (a venv's, even when the venv is not activated), else the one on PATH. None found:
    the hub does not start (a clear error before its proxy starts, rather than a failed service after it)."""
    given = os.environ.get("TOOLKIT_CLASSROOM_TOOLKIT")
    candidates = [given] if given else ["/opt/tljh/user/bin/toolkit", str(Path(sys.executable).parent / "toolkit"),
                                        shutil.which("toolkit")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    if not required:                 # sandboxes run elsewhere: the command is only the tokens' fallback
        return given or "toolkit"
    raise SystemExit(f"jupyterhub_config (toolkit classroom): no toolkit command at {given!r}: set "
                     "TOOLKIT_CLASSROOM_TOOLKIT to the toolkit command of the users' environment" if given else
                     "jupyterhub_config (toolkit classroom): no toolkit command beside this Python "
                     f"({Path(sys.executable).parent}), in /opt/tljh/user/bin or on PATH: install toolkit there or "
                     "set TOOLKIT_CLASSROOM_TOOLKIT to its toolkit command")


TOOLKIT = _find_toolkit(required=not os.environ.get("TOOLKIT_CLASSROOM_URLS", "").strip())
URLS = [u.strip().rstrip("/") for u in os.environ.get("TOOLKIT_CLASSROOM_URLS", "").split(",") if u.strip()]
SANDBOXES = int(os.environ.get("TOOLKIT_CLASSROOM_SANDBOXES", "1"))
BROWSER_URLS = [u.strip().rstrip("/") for u in os.environ.get("TOOLKIT_CLASSROOM_BROWSER_URLS", "").split(",")
                if u.strip()]


def sandbox_for(name: str, urls: list[str]) -> str:
    """The class sandbox a student is assigned: the URL with the highest hash of (URL, name). Stable across
    restarts and hubs; adding a sandbox moves only the students it wins, removing one only its own."""
    return max(urls, key=lambda url: hashlib.sha256(f"{url}\n{name}".encode()).digest())


def _secret_dir() -> None:
    """Make the class secret's folder, mode 0700 (the secret and the worlds are the hub's, never a student's). A
    folder that exists already is left as it is, unless others may write in it (``/tmp``, a shared folder) or it
    is another user's: then the hub does not start (nothing is changed in a folder this file did not make)."""
    folder = Path(SECRET_FILE).parent
    if folder.exists():
        st = folder.stat()
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or st.st_uid != os.geteuid():
            raise SystemExit(f"jupyterhub_config (toolkit classroom): the class secret's folder {str(folder)!r} is "
                             "shared (others may write in it, or it is another user's): set "
                             "TOOLKIT_CLASSROOM_SECRET_FILE to a file in a folder of the hub's own, e.g. "
                             "/srv/toolkit-classroom/class.secret (it is made, mode 0700, when missing)")
        return
    folder.mkdir(mode=0o700, parents=True)
    os.chmod(folder, 0o700)           # whatever the umask


_secret = None


def student_token(name: str) -> str:
    """The student's token, computed by the hub at spawn time (the class secret never leaves the hub)."""
    global _secret
    try:
        from toolkit.classroom import read_secret, revocations, student_token as derive
    except ImportError:              # toolkit lives only in the users' environment (TLJH): ask its CLI
        out = subprocess.run([TOOLKIT, "classroom", "token", name, "--secret-file", SECRET_FILE],
                             capture_output=True, text=True, timeout=60, check=True)
        return out.stdout.strip().splitlines()[-1].strip()
    if _secret is None:
        _secret = read_secret(SECRET_FILE, create=True)
    return derive(_secret, name, revocations(SECRET_FILE).get(name, 0))   # a revoked token: a new one at spawn


def _grant_students(names: list[str]) -> None:
    """Let every hub user reach the class sandboxes ``names`` through the hub's login (``access:services!service=
    NAME`` in the hub's default ``user`` role, the way JupyterHub's documentation grants all users a service). A
    ``user`` role set earlier in this same configuration object gains the scopes. JupyterHub refuses a role defined
    twice, and a file loaded with ``load_subconfig`` cannot see its parent's roles: where the hub's own
    configuration defines ``user`` (or sets ``c.JupyterHub.load_roles`` after this file), add the scopes there and
    set ``TOOLKIT_CLASSROOM_USER_ROLE=0``."""
    if os.environ.get("TOOLKIT_CLASSROOM_USER_ROLE", "1").strip() in ("0", "false", "no", ""):
        return
    scopes = [f"access:services!service={n}" for n in names]
    roles = c.JupyterHub.load_roles
    for role in roles if isinstance(roles, list) else ():
        if role.get("name") == "user":
            role["scopes"] = [*role.get("scopes", ["self"]), *(s for s in scopes if s not in role.get("scopes", []))]
            return
    roles.append({"name": "user", "scopes": ["self", *scopes]})


SERVICE_NAMES: list[str] = []        # the class sandboxes this file runs as hub services
if not URLS:                         # the class sandboxes run here, as services of the hub
    _secret_dir()
    for k in range(SANDBOXES):
        command = [TOOLKIT, "classroom", "--port", str(PORT + k), "--secret-file", SECRET_FILE]
        if DB:
            db = Path(DB)
            command += ["--db", DB if SANDBOXES == 1 else str(db.with_name(f"{db.stem}-{k}{db.suffix}"))]
        name = "toolkit-classroom" if SANDBOXES == 1 else f"toolkit-classroom-{k}"
        c.JupyterHub.services.append({
            "name": name,
            "url": f"http://127.0.0.1:{PORT + k}",     # the hub's proxy forwards /services/NAME/ there
            "command": command,                        # which answers under JUPYTERHUB_SERVICE_PREFIX too
            "environment": {"PYTHONUNBUFFERED": "1"},
            # a browser's student is whom the hub logged in (the hub's OAuth for services), with no extra page
            "oauth_no_confirm": True,
            "oauth_redirect_uri": f"/services/{name}/oauth_callback",
        })
        BROWSER_URLS.append(f"/services/{name}")
        SERVICE_NAMES.append(name)
    URLS = [f"http://127.0.0.1:{PORT + k}" for k in range(SANDBOXES)]
    _grant_students(SERVICE_NAMES)
BROWSER = dict(zip(URLS, BROWSER_URLS))      # a class sandbox's address → where a browser reaches it


def browser_url(spawner) -> str:
    """Where the student's browser reaches their class sandbox (empty: at its own address)."""
    return BROWSER.get(sandbox_for(spawner.user.name, URLS), "")


KERNEL_MEMORY = {
    # A student's kernel holds small frames: these trade a little speed on large arrays for memory a class of
    # many kernels adds up (measured in tests/bench/bench_classroom.py, part 1: about 8 MB less per kernel).
    "ARROW_DEFAULT_MEMORY_POOL": "system",     # pandas' strings live in Arrow: glibc's heap instead of mimalloc's
    "MALLOC_MMAP_THRESHOLD_": "131072",        # blocks over 128 KiB (a figure's pixels, a response) go back to the
    "MALLOC_TRIM_THRESHOLD_": "131072",        # system when freed, instead of staying in a grown heap
}
"""What every single-user server's kernel gets for memory (a later ``c.Spawner.environment`` line changes it)."""
c.Spawner.environment.update(KERNEL_MEMORY)

c.Spawner.environment.update({
    "TOOLKIT_CLASSROOM_URL": lambda spawner: sandbox_for(spawner.user.name, URLS),
    "TOOLKIT_CLASSROOM_TOKEN": lambda spawner: student_token(spawner.user.name),
    "TOOLKIT_CLASSROOM_BROWSER_URL": browser_url,
})
if len(URLS) > 1:
    c.Spawner.environment.update({"TOOLKIT_CLASSROOM_URLS": ",".join(URLS)})


def _checkout_jupyter_config() -> "str | None":
    """The ``jupyter-config/`` folder of a checkout toolkit is imported from (an editable install, which installs
    no data files), else None (a regular install enables the server extension from ``etc/jupyter``)."""
    try:
        import toolkit
    except ImportError:
        return None
    folder = Path(toolkit.__file__).resolve().parents[1] / "jupyter-config"
    return str(folder) if (folder / "jupyter_server_config.d" / "toolkit.json").is_file() else None


if _checkout_jupyter_config():       # map tiles under /user/NAME/toolkit/tiles/ need toolkit's server extension
    c.Spawner.environment.update({"JUPYTER_CONFIG_PATH": _checkout_jupyter_config()})
