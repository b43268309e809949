"""connect() with and without configuration, the CLI, persistence, and the light import."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest

import toolkit
from toolkit import errors
from toolkit.client import ConfigurationError
from toolkit.sandbox.server import SandboxServer

PY = sys.executable


def run_py(code: str, env=None) -> str:
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, **(env or {})})
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_import_is_light():
    out = run_py("import sys, toolkit; print(sorted(m for m in ('folium','matplotlib','pandas','httpx',"
                 "'ipywidgets','uvicorn','starlette') if m in sys.modules))")
    assert out.strip() == "[]"


def test_connect_without_configuration_starts_and_reuses_the_embedded_sandbox(monkeypatch):
    for name in ("AUTH", "API", "LOCAL", "NAVI", "STATUS"):
        monkeypatch.delenv(f"TOOLKIT_{name}_URL", raising=False)
    first, second = toolkit.connect(), toolkit.connect()
    assert first.sandbox is not None and first.sandbox.base_url == second.sandbox.base_url
    assert first.hosts.local.startswith("http://127.0.0.1:") and first.hosts.local.endswith("/local")
    assert len(first.status.current()) >= 7
    assert "rest_api_key=••••" in repr(first)
    assert first.credentials.rest_api_key.reveal() not in repr(first)


def test_connect_with_environment_targets_those_hosts(monkeypatch):
    with SandboxServer() as other:
        cfg = other.config()
        for name, url in cfg["hosts"].items():
            monkeypatch.setenv(f"TOOLKIT_{name.upper()}_URL", url)
        monkeypatch.setenv("TOOLKIT_REST_API_KEY", cfg["app"]["rest_api_key"])
        monkeypatch.setenv("TOOLKIT_ADMIN_KEY", cfg["app"]["admin_key"])
        tk = toolkit.connect()
        assert tk.sandbox is None and tk.hosts.status == cfg["hosts"]["status"]
        assert len(tk.system.ips()) > 0
        assert cfg["app"]["rest_api_key"] not in repr(tk)


def test_incomplete_environment_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TOOLKIT_AUTH_URL", "http://127.0.0.1:9/auth")
    for name in ("API", "LOCAL", "NAVI", "STATUS"):
        monkeypatch.delenv(f"TOOLKIT_{name}_URL", raising=False)
    with pytest.raises(ConfigurationError, match=r"TOOLKIT_AUTH_URL is set but TOOLKIT_API_URL, TOOLKIT_LOCAL_URL, "
                                                 r"TOOLKIT_NAVI_URL, TOOLKIT_STATUS_URL are missing"):
        toolkit.connect()


def test_connect_with_arguments_and_a_missing_key():
    tk = toolkit.connect("http://127.0.0.1:9")
    assert tk.hosts.navi == "http://127.0.0.1:9/navi"
    with pytest.raises(ConfigurationError, match="rest_api_key"):
        tk.system.ips()
    with pytest.raises(ConfigurationError, match="no user is logged in"):
        tk.user_auth()


def test_unreachable_service_is_a_transport_error():
    tk = toolkit.connect("http://127.0.0.1:9", total_timeout=2, timeout=1)
    with pytest.raises(errors.TransportError, match="could not reach"):
        tk.status.current()


def test_print_config_prints_one_json_object():
    out = subprocess.run([PY, "-m", "toolkit.cli", "sandbox", "--print-config"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    cfg = json.loads(out.stdout)
    assert set(cfg["hosts"]) == {"auth", "api", "local", "navi", "status"}
    port = cfg["hosts"]["auth"].split(":")[2].split("/")[0]
    assert all(url == f"http://127.0.0.1:{port}/{name}" for name, url in cfg["hosts"].items())
    assert {"rest_api_key", "admin_key", "client_secret", "app_id", "redirect_uris"} <= set(cfg["app"])


def test_sandbox_command_serves_until_stopped(tmp_path):
    with subprocess.Popen([PY, "-m", "toolkit.cli", "sandbox", "--port", "0"], stdout=subprocess.PIPE,
                          text=True) as proc:   # the context closes the pipe
        try:
            line = proc.stdout.readline()
            base = line.split(" on ")[1].split()[0]
            assert httpx.get(base + "/status/api/health/current", timeout=10).status_code == 200
        finally:
            proc.terminate()
            proc.wait(timeout=20)


def test_db_file_persists_state_across_restarts(tmp_path):
    db = str(tmp_path / "sandbox.sqlite")
    with SandboxServer(db=db) as first:
        keys = first.app_config()
        first.sandbox.clock.advance(86400)
        day = first.sandbox.clock.now().date()
        r = httpx.post(first.base_url + "/sandbox/status/incidents", json={"api": "search_web", "status": "RED"})
        incident = r.json()["id"]
        tokens = httpx.post(first.base_url + "/sandbox/login", json={"user_id": 4100000002}).json()
    with SandboxServer(db=db) as second:
        assert second.app_config()["rest_api_key"] == keys["rest_api_key"]
        assert second.sandbox.clock.now().date() == day
        assert any(i["id"] == incident for i in second.sandbox.model("utility").incidents())
        assert second.sandbox.model("identity").token(tokens["access_token"])["user_id"] == 4100000002


def test_concurrent_writers_on_one_file_do_not_corrupt_it(tmp_path):
    db = str(tmp_path / "shared.sqlite")
    SandboxServer(db=db)  # create and seed once
    code = ("import sys; from toolkit.sandbox.app import Sandbox\n"
            f"sb = Sandbox({db!r})\n"
            "for i in range(40): sb.model('utility').add_incident('search_web', 'YELLOW', 10**9 + i, 10**9 + i + 60)\n")
    procs = [subprocess.Popen([PY, "-c", code]) for _ in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    from toolkit.sandbox.app import Sandbox

    sb = Sandbox(db)
    assert sum(1 for i in sb.model("utility").incidents() if i["start"] >= 10**9 and i["start"] < 10**9 + 40) == 120
    assert sb.store.one("PRAGMA integrity_check")[0] == "ok"


def test_db_file_keeps_consents_stories_messages_and_files(tmp_path):
    from tests.conftest import client_for
    from toolkit import templates as T

    db = str(tmp_path / "sandbox.sqlite")
    with SandboxServer(db=db, frozen=True) as first:
        tk = client_for(first).login_as(4100000001, scopes=["profile", "friends", "talk_message"])
        story_id = tk.story.post_note("persisted story")
        tk.talk.send_memo(T.text("persisted memo", link=T.link(web_url="https://example.test")))
        file_id = tk.channel.create_file("_xcLqmC", "persisted file", {"visits": "number"})
        token = tk.access_token.reveal()
    with SandboxServer(db=db) as second:
        tk = client_for(second).use_token(token)                 # the token itself survived
        assert story_id in set(tk.story.mystories()["id"])
        agreed = tk.user.scopes()
        assert set(agreed[agreed["agreed"]]["id"]) >= {"profile", "friends", "talk_message"}
        assert "persisted memo" in set(tk.talk.received(4100000001)["title"])
        assert file_id in set(tk.channel.files("_xcLqmC")["file_id"])


def test_a_store_made_before_an_area_existed_gets_that_area_seeded(tmp_path, monkeypatch):
    import toolkit.sandbox.app as app_module
    from toolkit.sandbox.app import Sandbox

    db = str(tmp_path / "old.sqlite")
    monkeypatch.setattr(app_module, "AREAS", tuple(a for a in app_module.AREAS if a != "business"))
    Sandbox(db).store.close()                       # an older sandbox without the business area
    monkeypatch.undo()
    sb = Sandbox(db)
    assert sb.store.one("SELECT COUNT(*) AS n FROM users")["n"] == 12             # not seeded twice
    assert sb.model("business").assets(4100000001)                                 # seeded now


def test_connect_shared_binds_to_a_running_sandbox_with_its_control_api(monkeypatch):
    with SandboxServer() as lab:
        monkeypatch.setenv("TOOLKIT_SANDBOX_URL", lab.base_url)
        tk = toolkit.connect(shared=True)
        assert tk.hosts.status == lab.hosts()["status"] and tk.sandbox.base_url == lab.base_url
        assert abs(tk.sandbox.clock()["unix"] - lab.sandbox.clock.unix()) <= 2      # the lab's own clock
        tk.login_as(4100000003, scopes=["profile"])
        assert tk.user.me()["id"] == 4100000003
    monkeypatch.delenv("TOOLKIT_SANDBOX_URL")
    with pytest.raises(ConfigurationError, match="TOOLKIT_SANDBOX_URL"):
        toolkit.connect(shared=True)
