"""Fixtures of the webhook tests: a fresh sandbox (frozen clock) with fast retry settings, a client, an inbox,
and a scriptable loopback receiver. Every server started here binds 127.0.0.1 and is stopped by the fixture."""
from __future__ import annotations

import socket
import threading
import time

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import toolkit.events as events
from tests.conftest import client_for
from toolkit.sandbox.server import SandboxServer

USER = 4100000001


@pytest.fixture
def server():
    srv = SandboxServer(port=0, frozen=True).start()
    yield srv
    srv.sandbox.model("events").stop()
    srv.stop()


@pytest.fixture
def tk(server):
    client = client_for(server)
    client.sandbox.control("POST", "/sandbox/webhooks/settings",
                           json={"retry_delays": [0.05, 0.1, 0.2], "deactivate_after": 10})
    yield client
    client.close()


@pytest.fixture
def inbox(tk):
    box = events.inbox(tk)
    yield box
    box.stop()


def deliveries(tk, **params):
    return tk.sandbox.control("GET", "/sandbox/webhooks/deliveries", params=params)["deliveries"]


def settle(server, timeout=10.0):
    assert server.sandbox.model("events").wait_idle(timeout), "deliveries still pending"


class Receiver:
    """A loopback app answering every request with the current ``mode``: ``ok`` (200/202), ``500``,
    ``sleep`` (sleeps ``sleep_s`` then 202), ``bad400`` (400 text body), ``json400`` (400 {err, description})."""

    def __init__(self, mode="500", sleep_s=3.5):
        self.mode, self.sleep_s, self.hits = mode, sleep_s, []

        async def any_(request):
            self.hits.append((time.monotonic(), request.method, dict(request.headers), await request.body()))
            if self.mode == "500":
                return Response("boom", status_code=500)
            if self.mode == "bad400":
                return Response("bad", status_code=400, media_type="text/plain")
            if self.mode == "json400":
                return JSONResponse({"err": "invalid_key", "description": "nope"}, status_code=400)
            if self.mode == "sleep":
                import asyncio
                await asyncio.sleep(self.sleep_s)
            return Response(status_code=202 if request.url.path.endswith("set") else 200)

        app = Starlette(routes=[Route("/{p:path}", any_, methods=["GET", "POST"])])
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        return self

    def url(self, path="set"):
        return f"http://127.0.0.1:{self.port}/{path}"

    def stop(self):
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()
