"""Run the sandbox app with uvicorn on 127.0.0.1, in a background thread (embedded) or in the foreground (CLI).

>>> server = SandboxServer(port=0).start()      # doctest: +SKIP
>>> server.hosts()["status"]                     # doctest: +SKIP
'http://127.0.0.1:41235/status'
>>> server.stop()                                # doctest: +SKIP
"""
from __future__ import annotations

import socket
import threading
import time

import uvicorn

from .app import Sandbox, create_app
from .clock import DEFAULT_START

__all__ = ["SandboxServer"]


class SandboxServer:
    def __init__(self, port: int = 0, db: str | None = None, *, host: str = "127.0.0.1", seed: int = 7,
                 clock_start: str = DEFAULT_START, frozen: bool = False):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the sandbox binds loopback only")
        self.host, self.requested_port = host, port
        self.sandbox = Sandbox(db or ":memory:", seed=seed, clock_start=clock_start, frozen=frozen)
        self.app = create_app(self.sandbox)
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def _bind(self) -> socket.socket:
        # proto must be IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted sockets only then (else every
        # answer waits ~40 ms for a delayed ACK).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.requested_port))
        sock.set_inheritable(True)
        return sock

    def _prepare(self) -> uvicorn.Server:
        self._socket = self._bind()
        self.port = self._socket.getsockname()[1]
        self.sandbox.base_url = self.base_url
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False)
        self._server = uvicorn.Server(config)
        return self._server

    def start(self, timeout: float = 15.0) -> "SandboxServer":
        """Serve in a daemon thread; return once the server accepts connections."""
        server = self._prepare()
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [self._socket]},
                                        name="toolkit-sandbox", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the sandbox server did not start")
            time.sleep(0.01)
        return self

    def serve_forever(self) -> None:
        """Serve in the foreground until interrupted (the CLI)."""
        server = self._prepare()
        server.run(sockets=[self._socket])

    def stop(self) -> None:
        self.sandbox.model("events").stop()
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ------------------------------------------------------------------ what clients need
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def hosts(self) -> dict[str, str]:
        return self.sandbox.hosts()

    def app_config(self) -> dict:
        return self.sandbox.apps.public_config()

    def config(self) -> dict:
        return self.sandbox.config()
