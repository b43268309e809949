"""Serve an ASGI app with uvicorn on 127.0.0.1 in a daemon thread: the sandbox, the webhook inbox.

A neutral utility (neither a client area nor a sandbox area), so both sides may use it.

>>> from starlette.applications import Starlette
>>> server = LoopbackServer(Starlette(), name="demo").start()
>>> server.base_url.startswith("http://127.0.0.1:")
True
>>> server.stop(); server.running
False
"""
from __future__ import annotations

import importlib.util
import socket
import threading
import time

__all__ = ["LoopbackServer", "bind_loopback", "server_stack", "KEEP_ALIVE"]

KEEP_ALIVE = 75   # seconds an idle connection stays open


def server_stack() -> dict[str, str]:
    """uvicorn's HTTP parser and event loop for loopback servers: httptools and uvloop where installed (both are
    dependencies; uvloop has no Windows build), else uvicorn's pure-Python h11 and asyncio's own loop.

    >>> sorted(server_stack())
    ['http', 'loop']
    """
    have = importlib.util.find_spec
    return {"http": "httptools" if have("httptools") else "h11", "loop": "uvloop" if have("uvloop") else "asyncio"}


def bind_loopback(port: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """A TCP socket bound to loopback. proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets
    only then (else every answer waits ~40 ms for a delayed ACK)."""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("loopback servers bind 127.0.0.1 only")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


class LoopbackServer:
    def __init__(self, app, port: int = 0, *, name: str = "toolkit-loopback", host: str = "127.0.0.1"):
        self.app, self.requested_port, self.name, self.host = app, port, name, host
        self.port: int | None = None
        self._socket: socket.socket | None = None
        self._server = None
        self._thread: threading.Thread | None = None

    def _prepare(self):
        import uvicorn

        self._socket = bind_loopback(self.requested_port, self.host)
        self.port = self._socket.getsockname()[1]
        # No access log, no server header and no proxy-header rewriting (a loopback server has no proxy in
        # front of it): the hot path stays on the app. Idle connections are kept longer than clients keep
        # theirs (httpx: 5 s, uvicorn's default too): with equal times a client may send on a connection the
        # server is closing ("Server disconnected without sending a response").
        self._server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="off",
                                                     access_log=False, server_header=False, proxy_headers=False,
                                                     timeout_keep_alive=KEEP_ALIVE, **server_stack()))
        return self._server

    def start(self, timeout: float = 15.0) -> "LoopbackServer":
        """Serve in a daemon thread; return once the server accepts connections."""
        if self.running:
            return self
        server = self._prepare()
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [self._socket]}, name=self.name,
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the {self.name} server did not start")
            time.sleep(0.01)
        return self

    def serve_forever(self, on_bound=None) -> None:
        """Serve in the calling thread until interrupted; ``on_bound(self)`` runs once the port is known."""
        server = self._prepare()
        if on_bound is not None:
            on_bound(self)
        server.run(sockets=[self._socket])

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"
