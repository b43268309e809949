"""The latency knob: ``toolkit sandbox --latency``, ``SandboxServer(latency=)``, ``connect(latency=)``."""
import asyncio
import threading
import time

import httpx
import pytest

import toolkit
from toolkit import latency as latency_mod
from toolkit.client import ConfigurationError
from toolkit.errors import ParameterError
from toolkit.latency import HEADER, Latency, LatencyMiddleware
from toolkit.sandbox.server import SandboxServer


@pytest.mark.parametrize("text, delay, jitter", [
    ("30ms", 0.03, 0.0), ("30 ms", 0.03, 0.0), ("0.5s", 0.5, 0.0), ("2", 2.0, 0.0), ("30ms±10ms", 0.03, 0.01),
    ("30ms+-10ms", 0.03, 0.01), ("30±10ms", 0.03, 0.01), ("1s±250ms", 1.0, 0.25)])
def test_latency_texts(text, delay, jitter):
    parsed = Latency.parse(text)
    assert parsed.delay == pytest.approx(delay) and parsed.jitter == pytest.approx(jitter)
    assert Latency.parse(parsed.describe()) == parsed


@pytest.mark.parametrize("bad", ["fast", "30 minutes", "-5ms", "11s", True, [30], float("nan")])
def test_latency_refuses_bad_values_naming_the_rule(bad):
    with pytest.raises(ValueError, match="latency"):
        Latency.parse(bad)


def test_no_latency_is_none():
    assert Latency.parse(None) is None and Latency.parse(0) is None and Latency.parse("0ms") is None


def test_jitter_draws_within_bounds_and_varies():
    lat = Latency.parse("30ms±10ms")
    draws = [lat.sample() for _ in range(200)]
    assert all(0.02 <= d <= 0.04 for d in draws) and len(set(draws)) > 100


def _run(mw, path, headers=()):
    sent, waits = [], []
    original = latency_mod.asyncio.sleep
    here = threading.current_thread()

    async def fake_sleep(seconds, *args, **kwargs):
        if threading.current_thread() is not here:   # a server of another test, in its own thread (uvicorn
            return await original(seconds, *args, **kwargs)   # ticks every 0.1 s): not this middleware's wait
        waits.append(seconds)

    async def send(message):
        sent.append(message)

    latency_mod.asyncio.sleep = fake_sleep
    try:
        asyncio.run(mw({"type": "http", "path": path, "headers": list(headers)}, None, send))
    finally:
        latency_mod.asyncio.sleep = original
    return sent, waits


def test_middleware_delays_api_hosts_only_and_honours_the_client_header():
    async def app(scope, receive, send):
        pass

    mw = LatencyMiddleware(app, "30ms")
    assert _run(mw, "/local/v2/local/search/address.json")[1] == [0.03]
    assert _run(mw, "/sandbox/config")[1] == []                                       # control API: never
    assert _run(mw, "/api/v2/user/me", [(HEADER.lower().encode(), b"100ms")])[1] == [0.1]
    assert _run(mw, "/api/v2/user/me", [(HEADER.lower().encode(), b"0")])[1] == []      # a client opts out
    sent, waits = _run(mw, "/api/v2/user/me", [(HEADER.lower().encode(), b"soon")])
    assert waits == [] and sent[0]["status"] == 400


@pytest.fixture(scope="module")
def slow_server():
    server = SandboxServer(port=0, latency="150ms").start()
    yield server
    server.stop()


def test_server_latency_is_non_blocking(slow_server):
    """Ten requests in flight at once wait together: far less than ten times the delay."""
    key = slow_server.app_config()["rest_api_key"]
    url = slow_server.hosts()["status"] + "/api/health/current"

    async def main():
        async with httpx.AsyncClient(headers={"Authorization": f"ServiceAK {key}"}) as http:
            await http.get(url)
            t = time.perf_counter()
            answers = await asyncio.gather(*(http.get(url) for _ in range(10)))
            return time.perf_counter() - t, answers

    elapsed, answers = asyncio.run(main())
    assert all(a.status_code == 200 for a in answers)
    assert 0.15 <= elapsed < 1.0
    t = time.perf_counter()
    httpx.get(slow_server.base_url + "/sandbox/health")
    assert time.perf_counter() - t < 0.15        # the control API is not delayed
    slow_server.latency = None
    assert slow_server.latency is None


def test_connect_latency_delays_that_client_only():
    tk = toolkit.connect(sandbox=True, latency="120ms")
    plain = toolkit.connect(sandbox=True, latency=0)
    try:
        tk.status.current()
        t = time.perf_counter()
        tk.status.current()
        slow = time.perf_counter() - t
        assert slow >= 0.12
        assert tk.core.headers[HEADER] == "120ms" and plain.core.headers[HEADER] == "0"
    finally:
        tk.close()
        plain.close()


def test_connect_latency_refuses_bad_values_and_real_hosts():
    with pytest.raises(ParameterError, match="latency"):
        toolkit.connect(sandbox=True, latency="quick")
    with pytest.raises(ConfigurationError, match="sandbox only"):
        toolkit.connect("http://127.0.0.1:9", rest_api_key="k", latency="30ms")


def test_cli_latency_option(capsys):
    from toolkit.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["sandbox", "--latency", "later", "--print-config"])
    assert stop.value.code == 2 and "--latency" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["toolkit.latency", "toolkit.bulk", "toolkit.loopback"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
