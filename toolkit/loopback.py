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
from typing import Any

__all__ = ["LoopbackServer", "bind_loopback", "server_stack", "one_write_protocol", "OneWrite", "KEEP_ALIVE"]

KEEP_ALIVE = 75   # seconds an idle connection stays open


def server_stack() -> dict[str, str]:
    """uvicorn's HTTP parser and event loop for loopback servers: httptools and uvloop where installed (both are
    dependencies; uvloop has no Windows build), else uvicorn's pure-Python h11 and asyncio's own loop.

    >>> sorted(server_stack())
    ['http', 'loop']
    """
    have = importlib.util.find_spec
    return {"http": "httptools" if have("httptools") else "h11", "loop": "uvloop" if have("uvloop") else "asyncio"}


class OneWrite:
    """A transport whose writes made in one turn of the event loop leave as one, at the end of that turn.

    uvicorn writes an answer's head when the app sends ``http.response.start`` and its body when it sends
    ``http.response.body``: two sends, two TCP segments, and on loopback the reader woken for each. Joined, an
    answer is one send. ``tests/bench/bench_server.py`` (``wrk``, 16 connections), before → after: the
    sandbox's keyword search 14,300-14,600 → 17,100-18,500 req/s, its address search 14,500-15,100 →
    19,300-20,100, a minimal Starlette endpoint 27,300-28,200 → 27,800-30,700. :meth:`close` sends what is
    pending first; what is pending when the connection is gone is dropped, as the transport would drop it.
    Everything else is the transport's own (flow control, ``is_closing``, ``get_extra_info``, ...).
    """

    __slots__ = ("transport", "_loop", "_pending")

    def __init__(self, transport, loop):
        self.transport, self._loop, self._pending = transport, loop, []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def writelines(self, list_of_data) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            if not self.transport.is_closing():
                self.transport.write(data)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name):
        return getattr(self.transport, name)


def one_write_protocol(http: str):
    """uvicorn's HTTP protocol class for ``http`` (``"httptools"`` or ``"h11"``), its transport a
    :class:`OneWrite`: each answer leaves in one send.

    >>> one_write_protocol("h11").__mro__[1].__name__
    'H11Protocol'
    """
    from uvicorn.config import HTTP_PROTOCOLS
    from uvicorn.importer import import_from_string

    base: Any = import_from_string(HTTP_PROTOCOLS[http])   # uvicorn's H11Protocol or HttpToolsProtocol

    class OneWriteProtocol(base):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self.transport = OneWrite(transport, self.loop)   # what each request's cycle writes to

    OneWriteProtocol.__qualname__ = OneWriteProtocol.__name__ = f"OneWrite{base.__name__}"
    return OneWriteProtocol


def bind_loopback(port: int = 0, host: str = "127.0.0.1", *, any_host: bool = False) -> socket.socket:
    """A TCP socket bound to loopback (``any_host=True``: to ``host`` whatever it is, e.g. ``0.0.0.0`` for the
    class sandbox in a cluster's pod). proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets
    only then (else every answer waits ~40 ms for a delayed ACK)."""
    if not any_host and host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("loopback servers bind 127.0.0.1 only")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


class LoopbackServer:
    loopback_only = True
    """False in a subclass that may bind another address than loopback (the class sandbox)."""

    def __init__(self, app, port: int = 0, *, name: str = "toolkit-loopback", host: str = "127.0.0.1"):
        self.app, self.requested_port, self.name, self.host = app, port, name, host
        self.port: int | None = None
        self._socket: socket.socket | None = None
        self._server = None
        self._thread: threading.Thread | None = None

    def _prepare(self):
        import uvicorn

        self._socket = bind_loopback(self.requested_port, self.host, any_host=not self.loopback_only)
        self._socket.listen(2048)   # uvicorn's backlog: from here connections wait for the server, not refused
        self.port = self._socket.getsockname()[1]
        # No access log, no server header and no proxy-header rewriting (a loopback server has no proxy in
        # front of it): the hot path stays on the app. Idle connections are kept longer than clients keep
        # theirs (httpx: 5 s, uvicorn's default too): with equal times a client may send on a connection the
        # server is closing ("Server disconnected without sending a response").
        stack = server_stack()
        stack["http"] = one_write_protocol(stack["http"])
        self._server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="off",
                                                     access_log=False, server_header=False, proxy_headers=False,
                                                     timeout_keep_alive=KEEP_ALIVE, **stack))
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
