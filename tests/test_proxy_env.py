"""An HTTP proxy set in the environment (common on hubs and in companies) is for the outside world: the sandbox on
this machine's loopback is reached directly, with or without ``NO_PROXY``; a real service's host still goes through
the proxy."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import httpx

from toolkit.http import LOOPBACK_DIRECT

# a proxy that cannot answer: port 9 (discard) on loopback is closed here, so any request sent through it fails
DEAD_PROXY = "http://127.0.0.1:9"


def test_the_sandbox_answers_with_a_dead_proxy_in_the_environment():
    env = {k: v for k, v in os.environ.items() if k.upper() not in ("NO_PROXY",)}
    env.update(HTTP_PROXY=DEAD_PROXY, HTTPS_PROXY=DEAD_PROXY, ALL_PROXY=DEAD_PROXY, http_proxy=DEAD_PROXY,
               https_proxy=DEAD_PROXY, all_proxy=DEAD_PROXY)
    code = textwrap.dedent("""
        import asyncio, toolkit
        tk = toolkit.connect(fresh=True)
        tk.login("minji@sandbox.test", scopes=["profile"])
        print("me", tk.user.me()["id"])
        print("places", len(tk.local.keyword("카페", x=129.1604, y=35.1587, radius=500)))
        async def both():
            async with toolkit.connect_async() as atk:
                return await atk.status.current()
        print("async", len(asyncio.run(both())))
        tk.close()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    assert lines["me"].strip().isdigit() and int(lines["places"]) > 0 and int(lines["async"]) > 0, done.stdout


def test_only_loopback_bypasses_the_proxy(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", DEAD_PROXY)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with httpx.Client(mounts=LOOPBACK_DIRECT) as client:
        direct = client._transport
        assert client._transport_for_url(httpx.URL("https://127.0.0.1:8123/v2/user/me")) is direct
        assert client._transport_for_url(httpx.URL("https://localhost:8123/")) is direct
        assert client._transport_for_url(httpx.URL("https://kapi.example.com/v2/user/me")) is not direct
