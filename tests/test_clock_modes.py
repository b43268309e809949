"""Wall-clock mode: ``toolkit sandbox --clock real`` and ``connect(clock="real")`` run the sandbox on the wall
clock (tokens' ``iat``/``exp`` are real times, the clock cannot be moved); the default stays deterministic."""
from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import jwt
import pytest

import toolkit
from toolkit.errors import ParameterError
from toolkit.sandbox.clock import DEFAULT_START
from toolkit.sandbox.server import SandboxServer


def test_real_clock_follows_the_wall_clock_and_cannot_be_moved():
    with SandboxServer(port=0, clock="real") as server:
        http = httpx.Client(base_url=server.base_url)
        described = http.get("/sandbox/clock").json()
        assert described["mode"] == "real" and described["frozen"] is False
        assert abs(described["unix"] - time.time()) < 5
        for change in ({"advance": 60}, {"set": "2026-12-01T00:00:00Z"}, {"freeze": True}):
            r = http.post("/sandbox/clock", json=change)
            assert r.status_code == 400 and "wall clock" in r.json()["msg"]
        user = http.get("/sandbox/identity/users").json()["users"][0]["id"]
        tokens = http.post("/sandbox/login", json={"user_id": user, "scopes": ["openid", "profile"]}).json()
        claims = jwt.decode(tokens["id_token"], options={"verify_signature": False})
        assert abs(claims["iat"] - time.time()) < 5 and claims["exp"] > time.time()
        http.close()


def test_default_clock_stays_deterministic():
    with SandboxServer(port=0, frozen=True) as server:
        described = httpx.get(server.base_url.rstrip("/") + "/sandbox/clock").json()
    assert described["mode"] == "virtual"
    assert described["now"] == DEFAULT_START


def test_connect_clock_real_and_bad_value():
    tk = toolkit.connect(sandbox=True, clock="real")
    try:
        assert abs(tk.sandbox.clock()["unix"] - time.time()) < 5
        assert tk.sandbox.server is not toolkit.connect(sandbox=True).sandbox.server
    finally:
        tk.close()
    with pytest.raises(ParameterError, match="clock"):
        toolkit.connect(sandbox=True, clock="sundial")


def test_cli_clock_option():
    out = subprocess.run([sys.executable, "-m", "toolkit.cli", "sandbox", "--clock", "real", "--print-config"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "hosts" in json.loads(out.stdout)
    bad = subprocess.run([sys.executable, "-m", "toolkit.cli", "sandbox", "--clock", "sundial"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--clock" in bad.stderr


def test_today_follows_the_clock_across_midnight_and_back():
    from toolkit.sandbox.clock import Clock
    from toolkit.sandbox.store import Store

    store = Store()
    clock = Clock(store, "2026-11-23T23:59:59Z", frozen=True)
    assert clock.today() == "2026-11-23" == clock.now().date().isoformat()
    clock.change(advance=1)
    assert clock.today() == "2026-11-24" == clock.now().date().isoformat()
    clock.change(set="2026-11-22T23:59:59.5Z")      # set back: a day before the one kept
    assert clock.today() == "2026-11-22" == clock.now().date().isoformat()
    store.close()
