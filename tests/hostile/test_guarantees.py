"""Load and crash guarantees, kept as regression tests (bounded in time):

* 20 threads of mixed reads and writes against one sandbox: 0 errors, and every write is visible afterwards;
* ``kill -9`` of a ``toolkit sandbox --db FILE`` process while it acknowledges writes, then a restart on the
  same file: every acknowledged write (an issued access token) is still there.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from toolkit.sandbox.server import SandboxServer

THREADS = 20
ROUNDS = 6


@pytest.mark.timeout(180)
def test_twenty_threads_mixed_reads_and_writes():
    with SandboxServer(port=0, frozen=True) as server:
        base = server.base_url.rstrip("/")
        app = server.app_config()
        users = httpx.get(f"{base}/sandbox/identity/users").json()["users"]
        errors: list[str] = []
        issued: list[str] = []
        lock = threading.Lock()

        def worker(n: int) -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                user = users[n % len(users)]["id"]
                for i in range(ROUNDS):
                    calls = [
                        ("POST", "/sandbox/login", {"json": {"user_id": user, "scopes": ["profile"]}}),
                        ("GET", "/status/api/health/current", {}),
                        ("GET", "/local/v2/local/search/keyword.json",
                         {"params": {"query": "카페", "x": 129.0592, "y": 35.1579, "radius": 1000},
                          "headers": {"Authorization": f"ServiceAK {app['rest_api_key']}"}}),
                    ]
                    for method, path, kw in calls:
                        try:
                            r = http.request(method, path, **kw)
                        except httpx.HTTPError as exc:
                            errors.append(f"{method} {path}: {type(exc).__name__}")
                            continue
                        if r.status_code != 200:
                            errors.append(f"{method} {path}: {r.status_code} {r.text[:100]}")
                        elif path == "/sandbox/login":
                            token = r.json()["access_token"]
                            me = http.get("/api/v2/user/me", headers={"Authorization": f"Bearer {token}"})
                            if me.status_code != 200 or me.json()["id"] != user:
                                errors.append(f"me after login: {me.status_code}")
                            with lock:
                                issued.append(token)

        with ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(worker, range(THREADS)))
        assert errors == []
        assert len(issued) == THREADS * ROUNDS
        with httpx.Client(base_url=base, timeout=30) as http:
            alive = sum(http.get("/api/v1/user/access_token_info",
                                 headers={"Authorization": f"Bearer {t}"}).status_code == 200 for t in issued[-40:])
        assert alive == 40


def _start(db: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "toolkit.cli", "sandbox", "--db", db, "--frozen-clock"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"on (http://127\.0\.0\.1:\d+)", line or "")
        if m:
            return proc, m.group(1)
        if proc.poll() is not None:
            break
    proc.kill()
    proc.wait(10)
    proc.stdout.close()
    raise AssertionError("the sandbox did not start")


@pytest.mark.timeout(180)
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_kill_9_during_writes_loses_no_acknowledged_write(tmp_path):
    db = str(tmp_path / "sandbox.db")
    proc, base = _start(db)
    acknowledged: list[str] = []
    stop = threading.Event()
    try:
        user = httpx.get(f"{base}/sandbox/identity/users").json()["users"][0]["id"]

        def writer():
            with httpx.Client(base_url=base, timeout=10) as http:
                while not stop.is_set():
                    try:
                        r = http.post("/sandbox/login", json={"user_id": user, "scopes": ["profile"]})
                    except httpx.HTTPError:
                        return  # the process died: this write was not acknowledged
                    if r.status_code == 200:
                        acknowledged.append(r.json()["access_token"])

        threads = [threading.Thread(target=writer) for _ in range(4)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        stop.set()
        for t in threads:
            t.join(15)
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
    assert len(acknowledged) >= 40
    proc, base = _start(db)
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            lost = [t for t in acknowledged if http.get("/api/v1/user/access_token_info",
                                                        headers={"Authorization": f"Bearer {t}"}).status_code != 200]
    finally:
        proc.kill()
        proc.wait(10)
        proc.stdout.close()
    assert lost == [], f"{len(lost)} of {len(acknowledged)} acknowledged writes lost"


def test_key_confusion_and_revoked_tokens_refused():
    with SandboxServer(port=0, frozen=True) as server:
        app = server.app_config()
        with httpx.Client(base_url=server.base_url.rstrip("/"), timeout=30) as http:
            user = http.get("/sandbox/identity/users").json()["users"][0]["id"]
            token = http.post("/sandbox/login", json={"user_id": user, "scopes": ["profile"]}).json()["access_token"]
            admin_q = {"target_id_type": "user_id", "target_id": user}
            # a REST key where the admin key is needed, a user token as an app key, an app key as a user token
            r = http.get("/api/v2/user/me", params=admin_q, headers={"Authorization": f"ServiceAK {app['rest_api_key']}"})
            assert r.status_code == 401 and r.json()["code"] == -401
            r = http.get("/local/v2/local/search/keyword.json", params={"query": "카페", "x": 129.06, "y": 35.16,
                                                                      "radius": 500},
                         headers={"Authorization": f"ServiceAK {token}"})
            assert r.status_code == 401 and r.json()["code"] == -401
            r = http.get("/api/v2/user/me", headers={"Authorization": f"Bearer {app['admin_key']}"})
            assert r.status_code == 401 and r.json()["code"] == -401
            # a revoked (logged-out) token
            assert http.post("/api/v1/user/logout", headers={"Authorization": f"Bearer {token}"}).status_code == 200
            r = http.get("/api/v2/user/me", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 401 and r.json()["code"] == -401
