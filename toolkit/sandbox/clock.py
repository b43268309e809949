"""The sandbox clock: starts at a fixed instant, ticks with real time, can be advanced, set or frozen.

Its state lives in the store, so a persisted sandbox keeps its time across restarts. Everything in the
sandbox that depends on time (token expiry, 24-hour rules, quotas per day, status history) asks this clock.

Two modes: ``"virtual"`` (the default: the deterministic clock above, which the walkthroughs rely on) and
``"real"`` (``toolkit sandbox --clock real``, ``toolkit.connect(clock="real")``): the sandbox time is the wall
clock, so outside clients that check ``exp``/``iat`` of tokens against their own clock accept them; such a
clock cannot be advanced, set or frozen (a :class:`ClockError`), and its stored state is left untouched.

Every change is checked before it is applied (:meth:`Clock.change`): the result must lie between
:data:`EARLIEST` and :data:`LATEST`, so a refused change changes nothing.

>>> from toolkit.sandbox.store import Store
>>> c = Clock(Store(), start="2026-11-20T09:00:00Z", frozen=True)
>>> c.now().isoformat()
'2026-11-20T09:00:00+00:00'
>>> _ = c.advance(3600); c.now().isoformat()
'2026-11-20T10:00:00+00:00'
"""
from __future__ import annotations

import math
import time
from datetime import datetime, timezone

from .store import Store

__all__ = ["Clock", "ClockError", "DEFAULT_START", "MODES", "EARLIEST", "LATEST"]

DEFAULT_START = "2026-11-20T09:00:00Z"
MODES = ("virtual", "real")
EARLIEST = 946684800.0   # 2000-01-01T00:00:00Z
LATEST = 7258118400.0    # 2200-01-01T00:00:00Z: tokens issued then still expire within datetime's range


class ClockError(ValueError):
    """A clock change that is refused (out of range, backwards, or on a wall clock)."""


def _parse(value: str | float | datetime) -> float:
    if isinstance(value, bool):
        raise ClockError("a time is an RFC 3339 text or Unix seconds, not a boolean")
    if isinstance(value, (int, float)):
        value = float(value)
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ClockError(f"not an RFC 3339 time: {value[:40]!r}") from None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        value = parsed.timestamp()
    elif isinstance(value, datetime):
        value = (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).timestamp()
    else:
        raise ClockError("a time is an RFC 3339 text or Unix seconds")
    return _bounded(value)


def _bounded(value: float) -> float:
    if not math.isfinite(value) or not EARLIEST <= value <= LATEST:
        raise ClockError("the sandbox time must lie between 2000-01-01 and 2200-01-01")
    return value


class Clock:
    def __init__(self, store: Store, start: str | float | datetime = DEFAULT_START, frozen: bool = False,
                 real_time=time.time, mode: str = "virtual"):
        if mode not in MODES:
            raise ClockError(f"clock must be one of {', '.join(MODES)} (got {mode!r})")
        self.store, self._real, self.mode = store, real_time, mode
        state = store.get_meta("clock")
        if state is None:
            state = {"virtual": _parse(start), "real": real_time(), "frozen": bool(frozen)}
            store.set_meta("clock", state)
        self._state = state
        self._day: tuple[float, float, str] | None = None     # (start, end, ISO date) of the day last asked

    def timestamp(self) -> float:
        if self.mode == "real":
            return self._real()
        s = self._state
        return s["virtual"] if s["frozen"] else s["virtual"] + (self._real() - s["real"])

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.timestamp(), tz=timezone.utc)

    def today(self) -> str:
        """The date of :meth:`now` in UTC as ISO text (what quotas count by), kept for the day it names.

        >>> Clock(Store(), "2026-11-23T23:59:59Z", frozen=True).today()
        '2026-11-23'
        """
        ts = self.timestamp()
        day = self._day
        if day is None or not day[0] <= ts < day[1]:
            start = ts - ts % 86400
            day = self._day = (start, start + 86400, datetime.fromtimestamp(start, tz=timezone.utc).date().isoformat())
        return day[2]

    def unix(self) -> int:
        return int(self.timestamp())

    def _save(self, virtual: float, frozen: bool) -> dict:
        self._state = {"virtual": virtual, "real": self._real(), "frozen": frozen}
        self.store.set_meta("clock", self._state)
        return self.describe()

    def change(self, *, set: str | float | datetime | None = None, advance: float | None = None,
               freeze: bool | None = None) -> dict:
        """Set, then advance, then freeze or unfreeze — all checked first, applied together or not at all.

        >>> c = Clock(Store(), frozen=True)
        >>> c.change(advance=1e300)
        Traceback (most recent call last):
        ...
        toolkit.sandbox.clock.ClockError: the sandbox time must lie between 2000-01-01 and 2200-01-01
        >>> c.describe()["now"]
        '2026-11-20T09:00:00Z'
        """
        if self.mode == "real":
            raise ClockError("this sandbox follows the wall clock (--clock real): it cannot be set, advanced "
                             "or frozen")
        when = self.timestamp() if set is None else _parse(set)
        if advance is not None:
            if isinstance(advance, bool) or not isinstance(advance, (int, float)) or not math.isfinite(advance):
                raise ClockError("advance must be a number of seconds")
            if advance < 0:
                raise ClockError("the sandbox clock only moves forward")
            when = _bounded(when + advance)
        frozen = self._state["frozen"]
        if freeze is not None:
            if not isinstance(freeze, bool):
                raise ClockError("freeze must be true or false")
            frozen = freeze
        return self._save(when, frozen)

    def advance(self, seconds: float) -> dict:
        return self.change(advance=seconds)

    def set(self, when: str | float | datetime) -> dict:
        return self.change(set=when)

    def freeze(self, frozen: bool = True) -> dict:
        return self.change(freeze=frozen)

    def describe(self) -> dict:
        return {"now": self.now().isoformat().replace("+00:00", "Z"), "unix": self.unix(),
                "frozen": self.mode == "virtual" and self._state["frozen"], "mode": self.mode}
