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
