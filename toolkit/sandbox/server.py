"""Run the sandbox app with uvicorn on 127.0.0.1, in a background thread (embedded) or in the foreground (CLI).

>>> server = SandboxServer(port=0).start()      # doctest: +SKIP
>>> server.hosts()["status"]                     # doctest: +SKIP
'http://127.0.0.1:41235/status'
>>> server.reset()                               # doctest: +SKIP  — fresh seeded state, same port
>>> server.stop()                                # doctest: +SKIP
>>> slow = SandboxServer(latency="30ms±10ms")     # doctest: +SKIP   (every API answer 20-40 ms late)
"""
from __future__ import annotations

from ..latency import Latency, LatencyMiddleware
from ..loopback import LoopbackServer
from .app import Sandbox, SandboxOptions, create_app
from .clock import DEFAULT_START

__all__ = ["SandboxServer"]


class SandboxServer(LoopbackServer):
    def __init__(self, port: int = 0, db: str | None = None, *, host: str = "127.0.0.1", seed: int = 7,
                 clock_start: str = DEFAULT_START, frozen: bool = False, latency: "Latency | str | None" = None,
                 clock: str = "virtual"):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the sandbox binds loopback only")
        self.db = db
        self._options: SandboxOptions = {"seed": seed, "clock_start": clock_start, "frozen": frozen, "clock": clock}
        self.sandbox = Sandbox(db or ":memory:", **self._options)
        self._app = self._build(self.sandbox)
        self._delay = LatencyMiddleware(self._app, latency)     # emulated network; reset() swaps the app inside
        super().__init__(self._delay, port, name="toolkit-sandbox", host=host)

    def _build(self, sandbox: Sandbox):
        app = create_app(sandbox)
        app.state.reset = self.reset          # POST /sandbox/reset
        return app

    def reset(self) -> "SandboxServer":
        """Throw the state away and start again from the seed: a new in-memory store seeded exactly as at
        start-up (same seed, clock start, frozen flag and clock mode), served on the same port. Takes about 20 ms (the
        read-only datasets stay loaded). A sandbox persisted in a file (``db=``) is not reset."""
        if self.db not in (None, ":memory:"):
            raise ValueError(f"the sandbox persisted in {self.db!r} is not reset: start one without db= for a "
                             "fresh state")
        old = self.sandbox
        new = Sandbox(":memory:", **self._options, base_url=old.base_url)
        self.sandbox, self._app = new, self._build(new)
        self._delay.app = self._app           # requests from now on reach the new state
        old.model("events").stop()            # its webhook worker, if it ran (the old store is garbage-collected)
        return self

    @property
    def latency(self) -> "Latency | None":
        """The emulated network delay of every API answer (None: none); settable while serving."""
        return self._delay.default

    @latency.setter
    def latency(self, value) -> None:
        self._delay.default = Latency.parse(value)

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
