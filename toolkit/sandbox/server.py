"""Run the sandbox app with uvicorn on 127.0.0.1, in a background thread (embedded) or in the foreground (CLI).

>>> server = SandboxServer(port=0).start()      # doctest: +SKIP
>>> server.hosts()["status"]                     # doctest: +SKIP
'http://127.0.0.1:41235/status'
>>> server.stop()                                # doctest: +SKIP
"""
from __future__ import annotations

from ..loopback import LoopbackServer
from .app import Sandbox, create_app
from .clock import DEFAULT_START

__all__ = ["SandboxServer"]


class SandboxServer(LoopbackServer):
    def __init__(self, port: int = 0, db: str | None = None, *, host: str = "127.0.0.1", seed: int = 7,
                 clock_start: str = DEFAULT_START, frozen: bool = False, clock: str = "virtual"):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the sandbox binds loopback only")
        self.sandbox = Sandbox(db or ":memory:", seed=seed, clock_start=clock_start, frozen=frozen, clock=clock)
        super().__init__(create_app(self.sandbox), port, name="toolkit-sandbox", host=host)

    def _prepare(self):
        server = super()._prepare()
        self.sandbox.base_url = self.base_url
        return server

    def stop(self) -> None:
        self.sandbox.model("events").stop()
        super().stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ------------------------------------------------------------------ what clients need
    def hosts(self) -> dict[str, str]:
        return self.sandbox.hosts()

    def app_config(self) -> dict:
        return self.sandbox.apps.public_config()

    def config(self) -> dict:
        return self.sandbox.config()
