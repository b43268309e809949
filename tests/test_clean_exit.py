"""Clients close their connections: as context managers (sync and async), explicitly, when garbage-collected
and at interpreter exit — no ``ResourceWarning: unclosed socket`` (checked in a fresh interpreter in
development mode, where every ResourceWarning is shown)."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap

import toolkit
from tests.conftest import client_for
from toolkit.client import AsyncClient


def _run_dev(code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLKIT_")}
    return subprocess.run([sys.executable, "-X", "dev", "-W", "always::ResourceWarning", "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=120, env=env)


def test_a_client_never_closed_leaves_no_unclosed_socket_at_exit():
    out = _run_dev("""
        import toolkit
        tk = toolkit.connect()
        tk.local.address("전포동 341-17"); tk.sandbox.clock()
        other = toolkit.connect(); other.status.current()
        del other                                   # dropped without close(): the finalizer closes it
        import gc; gc.collect()
        print("done")
    """)
    assert out.returncode == 0 and "done" in out.stdout, out.stderr
    assert "ResourceWarning" not in out.stderr, out.stderr


def test_an_async_client_left_open_on_a_live_loop_is_closed_at_exit():
    out = _run_dev("""
        import asyncio, toolkit
        loop = asyncio.new_event_loop()            # like a notebook kernel's loop: still open at exit
        atk = toolkit.connect_async()
        loop.run_until_complete(atk.local.address("전포동 341-17"))
        print("done")
    """)
    assert out.returncode == 0 and "done" in out.stdout, out.stderr
    assert "unclosed <socket" not in out.stderr and "unclosed transport" not in out.stderr, out.stderr


def test_sync_context_manager_closes_the_connections(sandbox_server):
    with client_for(sandbox_server) as tk:
        tk.status.current()
        tk.sandbox.clock()
        http, control = tk.core.http, tk.sandbox._core.http
    assert http.is_closed and control.is_closed


def test_async_context_manager_closes_the_connections(sandbox_server):
    async def main():
        async with client_for(sandbox_server, AsyncClient) as atk:
            await atk.status.current()
            return atk.core.ahttp

    assert asyncio.run(main()).is_closed


def test_connect_returns_context_managers():
    assert hasattr(toolkit.Client, "__enter__") and hasattr(toolkit.Client, "__exit__")
    assert hasattr(toolkit.AsyncClient, "__aenter__") and hasattr(toolkit.AsyncClient, "__aexit__")
