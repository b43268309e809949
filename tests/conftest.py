"""Shared fixtures: a sandbox served on 127.0.0.1 for the whole session, a fresh one per test when state
matters, and clients bound to them. Every server started here is stopped by the fixture."""
from __future__ import annotations

import pytest

from toolkit.client import Client, SandboxHandle
from toolkit.config import Config, Credentials, Hosts
from toolkit.sandbox.server import SandboxServer


def client_for(server: SandboxServer, cls=Client, **config) -> Client:
    app = server.app_config()
    cfg = Config(hosts=Hosts(**server.hosts()), credentials=Credentials(
        rest_api_key=app["rest_api_key"], admin_key=app["admin_key"], client_secret=app["client_secret"],
        app_id=app["app_id"], redirect_uri=app["redirect_uris"][0], extra=app), **config)
    return cls(cfg, sandbox=SandboxHandle(server.base_url, server))


@pytest.fixture(scope="session")
def sandbox_server():
    """One sandbox for the session (state may be shared between tests: do not depend on untouched state)."""
    server = SandboxServer(port=0).start()
    yield server
    server.stop()


@pytest.fixture
def fresh_server():
    """A new sandbox for one test (clean state, same seed)."""
    server = SandboxServer(port=0, frozen=True).start()
    yield server
    server.stop()


@pytest.fixture
def tk(sandbox_server) -> Client:
    client = client_for(sandbox_server)
    yield client
    client.close()


@pytest.fixture
def fresh_tk(fresh_server) -> Client:
    client = client_for(fresh_server)
    yield client
    client.close()


@pytest.fixture
def app_keys(sandbox_server) -> dict:
    return sandbox_server.app_config()


@pytest.fixture(scope="session")
def installed_toolkit(tmp_path_factory):
    """toolkit as a user installs it: the wheel of this checkout with ``[lab]`` in a fresh venv (tests/installed.py);
    built once per session, by the first test that asks."""
    from tests.installed import build_and_install

    return build_and_install(tmp_path_factory.mktemp("installed"))


@pytest.fixture(scope="session")
def checkout_jupyter_server(tmp_path_factory):
    """``jupyter server`` of this Python with toolkit's server extension enabled from this checkout's
    jupyter-config (as ``toolkit lab`` runs it in a checkout), under a hub-like base URL ``/user/ann/``
    (tests/labrun.py); one for the session, started by the first test that asks."""
    pytest.importorskip("jupyter_server")
    from tests.labrun import JupyterProcess

    work = tmp_path_factory.mktemp("jupyter-server")
    with JupyterProcess.server_of_checkout(work, base_url="/user/ann/") as server:
        yield server


@pytest.fixture(scope="session")
def docs_site(tmp_path_factory):
    """The documentation site of this checkout, built as docs/development.md says (Sphinx, warnings as errors,
    nitpicky) into a temporary folder, once per session: ``.html`` (the site), ``.returncode``, ``.output`` (what
    Sphinx printed) and ``.seconds``. The tests that use it are one xdist group (conftest.py), built by one worker."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    import subprocess
    import sys
    import time
    from pathlib import Path
    from types import SimpleNamespace

    root = Path(__file__).resolve().parents[1]
    out = tmp_path_factory.mktemp("docs-site")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html", "-c", "docs",
                           "-d", str(out / "doctrees"), ".", str(out / "html")], cwd=root, capture_output=True,
                          text=True, timeout=1200, stdin=subprocess.DEVNULL,
                          env={**__import__("os").environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return SimpleNamespace(html=out / "html", returncode=done.returncode, output=done.stdout + done.stderr,
                           seconds=time.monotonic() - started)
