"""The sandbox clock: starts at a fixed instant, ticks with real time, can be advanced, set or frozen.

Its state lives in the store, so a persisted sandbox keeps its time across restarts. Everything in the
sandbox that depends on time (token expiry, 24-hour rules, quotas per day, status history) asks this clock.

>>> from toolkit.sandbox.store import Store
>>> c = Clock(Store(), start="2026-11-20T09:00:00Z", frozen=True)
>>> c.now().isoformat()
'2026-11-20T09:00:00+00:00'
>>> _ = c.advance(3600); c.now().isoformat()
'2026-11-20T10:00:00+00:00'
"""
from __future__ import annotations

import time
from datetime import datetime, timezone

from .store import Store

__all__ = ["Clock", "DEFAULT_START"]

DEFAULT_START = "2026-11-20T09:00:00Z"


def _parse(value: str | float | datetime) -> float:
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.timestamp()


class Clock:
    def __init__(self, store: Store, start: str | float | datetime = DEFAULT_START, frozen: bool = False,
                 real_time=time.time):
        self.store, self._real = store, real_time
        state = store.get_meta("clock")
        if state is None:
            state = {"virtual": _parse(start), "real": real_time(), "frozen": bool(frozen)}
            store.set_meta("clock", state)
        self._state = state

    def timestamp(self) -> float:
        s = self._state
        return s["virtual"] if s["frozen"] else s["virtual"] + (self._real() - s["real"])

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp(), tz=timezone.utc)

    def unix(self) -> int:
        return int(self.timestamp())

    def _save(self, virtual: float, frozen: bool) -> dict:
        self._state = {"virtual": virtual, "real": self._real(), "frozen": frozen}
        self.store.set_meta("clock", self._state)
        return self.describe()

    def advance(self, seconds: float) -> dict:
        if seconds < 0:
            raise ValueError("the sandbox clock only moves forward")
        return self._save(self.timestamp() + seconds, self._state["frozen"])

    def set(self, when: str | float | datetime) -> dict:
        return self._save(_parse(when), self._state["frozen"])

    def freeze(self, frozen: bool = True) -> dict:
        return self._save(self.timestamp(), frozen)

    def describe(self) -> dict:
        return {"now": self.now().isoformat().replace("+00:00", "Z"), "unix": self.unix(),
                "frozen": self._state["frozen"]}
