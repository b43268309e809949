"""Emulated network latency for the sandbox: ``"30ms"``, ``"30ms±10ms"`` (uniform jitter), ``0.03`` (seconds).

A neutral utility (neither a client area nor a sandbox area): ``toolkit sandbox --latency 30ms`` delays every
answer of the sandbox's API hosts, and ``toolkit.connect(latency="30ms")`` asks the sandbox to delay the
answers to that client only (the :data:`HEADER` request header). The delay is an ``asyncio.sleep`` in an ASGI
middleware of the sandbox: it never blocks the server, so many requests in flight wait at the same time, as
they do on a real network. The control API (``/sandbox/...``) is never delayed.

>>> Latency.parse("30ms")
Latency(delay=0.03, jitter=0.0)
>>> Latency.parse("30ms±10ms").describe()
'30ms±10ms'
>>> Latency.parse("1.5s+-0.5s")
Latency(delay=1.5, jitter=0.5)
>>> 0.02 <= Latency.parse("30ms±10ms").sample() <= 0.04
True
"""
from __future__ import annotations

import asyncio
import functools
import random
import re
from dataclasses import dataclass

__all__ = ["Latency", "LatencyMiddleware", "HEADER", "MAX_SECONDS", "RULE"]

HEADER = "X-Toolkit-Latency"
MAX_SECONDS = 10.0
_PART = r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?\s*"
_SPEC = re.compile(rf"^{_PART}(?:(?:±|\+-|\+/-){_PART})?$")
_RNG = random.Random()
RULE = "must be a duration such as '30ms' or '30ms±10ms' (or '30ms+-10ms'), or a number of seconds"


@dataclass(frozen=True)
class Latency:
    """A delay in seconds and a uniform jitter around it (the delay drawn from ``delay ± jitter``, never < 0)."""

    delay: float
    jitter: float = 0.0

    @classmethod
    def parse(cls, value, name: str = "latency") -> "Latency | None":
        """``"30ms"``, ``"0.03s"``, ``"30ms±10ms"`` (``+-`` too), a number of seconds, a Latency, or None / 0
        (no delay). Anything else, or more than :data:`MAX_SECONDS`: ``ValueError`` naming ``name`` and the bound
        (this module stays free of client modules: the client turns it into a ``ParameterError``)."""
        if value is None or isinstance(value, Latency):
            return value
        if isinstance(value, bool):
            raise ValueError(f"{name}={value!r}: {RULE}")
        if isinstance(value, (int, float)):
            delay, jitter = float(value), 0.0
        elif isinstance(value, str):
            delay, jitter = _parse_text(value.strip(), name)
        else:
            raise ValueError(f"{name}={value!r}: {RULE}")
        if not (0 <= delay <= MAX_SECONDS and 0 <= jitter <= MAX_SECONDS):   # also refuses NaN
            raise ValueError(f"{name}={value!r}: must be from 0 to {MAX_SECONDS:g} seconds")
        return None if delay == 0 and jitter == 0 else cls(delay, jitter)

    def sample(self) -> float:
        """One delay in seconds, drawn uniformly from ``delay ± jitter`` (at least 0)."""
        if not self.jitter:
            return self.delay
        return max(0.0, _RNG.uniform(self.delay - self.jitter, self.delay + self.jitter))

    def describe(self) -> str:
        """The text form, e.g. ``30ms±10ms`` (what :data:`HEADER` carries)."""
        text = _ms(self.delay)
        return f"{text}±{_ms(self.jitter)}" if self.jitter else text


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:g}ms"


@functools.lru_cache(maxsize=64)
def _parse_text(text: str, name: str) -> tuple[float, float]:
    found = _SPEC.match(text)
    if not found:
        raise ValueError(f"{name}={text!r}: {RULE}")
    d, du, j, ju = found.groups()

    def seconds(number, unit):
        return 0.0 if number is None else float(number) / (1000.0 if unit == "ms" else 1.0)

    return seconds(d, du or ju), seconds(j, ju or du)   # "30±10ms": one unit for both


class LatencyMiddleware:
    """ASGI middleware: wait ``latency.sample()`` seconds (non-blocking) before every request of the API hosts.

    ``default`` applies to every request (``toolkit sandbox --latency``); a request's own :data:`HEADER`
    overrides it (``toolkit.connect(latency=...)``; ``0`` turns the delay off for that client). A malformed
    header gets HTTP 400 ``{"msg", "code": -2}``. Paths under ``/sandbox`` (the control API) are never delayed.
    """

    _HEADER = HEADER.lower().encode()

    def __init__(self, app, default: "Latency | str | float | None" = None):
        self.app = app
        self.default = Latency.parse(default)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and not scope["path"].startswith("/sandbox"):
            latency = self.default
            for key, value in scope["headers"]:
                if key == self._HEADER:
                    try:
                        latency = Latency.parse(value.decode("latin-1"), HEADER)
                    except ValueError as exc:
                        await _bad_request(send, str(exc).splitlines()[0])
                        return
            if latency is not None:
                await asyncio.sleep(latency.sample())
        await self.app(scope, receive, send)


async def _bad_request(send, msg: str) -> None:
    import json

    body = json.dumps({"msg": msg, "code": -2}, ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json;charset=UTF-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
