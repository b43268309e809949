"""Fault injection between the client and a real sandbox: retries only where safe, within the time cap."""
from __future__ import annotations

import time

import pytest

from tests.faultproxy import FaultProxy
from toolkit import errors
from toolkit.client import Client
from toolkit.config import Config, Credentials, Hosts
from toolkit.http import Call


def client_via(proxy: FaultProxy, server, **cfg) -> Client:
    app = server.app_config()
    config = Config(hosts=Hosts.on_one_port(proxy.base_url),
                    credentials=Credentials(rest_api_key=app["rest_api_key"], admin_key=app["admin_key"]),
                    **{"timeout": 2.0, "total_timeout": 8.0, **cfg})
    client = Client(config)
    client.core.backoff, client.core.backoff_cap = 0.01, 0.05
    return client


def test_idempotent_get_survives_503_429_and_reset(sandbox_server):
    with FaultProxy(sandbox_server.base_url, ["503", "429", "reset", "forward"]) as proxy:
        tk = client_via(proxy, sandbox_server)
        df = tk.status.current()
        assert len(df) >= 7
        assert len(proxy.seen) == 4 and len(proxy.forwarded) == 1


def test_a_post_that_may_have_arrived_is_never_sent_twice(sandbox_server):
    identity = sandbox_server.sandbox.model("identity")
    before = sandbox_server.sandbox.store.one("SELECT COUNT(*) AS n FROM tokens")["n"]
    with FaultProxy(sandbox_server.base_url, ["forward-reset", "forward"]) as proxy:
        tk = client_via(proxy, sandbox_server)
        login = Call("POST", "auth", "/sandbox/login", base=proxy.base_url, json={"user_id": 4100000003},
                     name="sandbox login")
        with pytest.raises(errors.TransportError) as info:
            tk.core.send(login)
        assert info.value.attempts == 1
        assert len(proxy.forwarded) == 1 and len(proxy.seen) == 1
    after = sandbox_server.sandbox.store.one("SELECT COUNT(*) AS n FROM tokens")["n"]
    assert after == before + 1  # it did arrive once, and only once
    assert identity is not None


def test_a_post_refused_with_429_or_not_connected_is_retried(sandbox_server):
    with FaultProxy(sandbox_server.base_url, ["429", "forward"]) as proxy:
        tk = client_via(proxy, sandbox_server)
        body = tk.core.send(Call("POST", "auth", "/sandbox/login", base=proxy.base_url, json={"user_id": 4100000004}))
        assert body["user_id"] == 4100000004 and len(proxy.forwarded) == 1 and len(proxy.seen) == 2


def test_a_post_answered_503_is_reported_not_retried(sandbox_server):
    with FaultProxy(sandbox_server.base_url, ["503", "forward"]) as proxy:
        tk = client_via(proxy, sandbox_server)
        with pytest.raises(errors.ApiError) as info:
            tk.core.send(Call("POST", "auth", "/sandbox/login", base=proxy.base_url, json={"user_id": 4100000005}))
        assert info.value.status == 503 and len(proxy.seen) == 1 and proxy.forwarded == []


def test_slow_answers_time_out_and_the_total_cap_holds(sandbox_server):
    with FaultProxy(sandbox_server.base_url, ["slow:3"]) as proxy:
        tk = client_via(proxy, sandbox_server, timeout=0.5, total_timeout=2.0)
        started = time.monotonic()
        with pytest.raises(errors.TransportError) as info:
            tk.status.current()
        elapsed = time.monotonic() - started
        assert elapsed < 3.0, elapsed
        assert info.value.attempts >= 2 and "status.current" in str(info.value)
