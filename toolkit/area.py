"""Base of the client areas and the ``endpoint`` decorator that runs calls and flows.

An area method builds a :class:`~toolkit.http.Call` (or returns a flow: a generator yielding calls) and is
decorated with :func:`endpoint`; the client runs it synchronously or asynchronously. Naming the spec
endpoint in the decorator registers the method in :data:`WRAPPED` (the contract tests check that every
spec endpoint is wrapped):

>>> class Demo(Area):
...     @endpoint("GET", "status", "/api/health/current")
...     def ping(self):
...         return Call("GET", "status", "/api/health/current")
>>> WRAPPED[("GET", "status", "/api/health/current")][-1].endswith("Demo.ping")
True
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from .http import Call

__all__ = ["Area", "endpoint", "Call", "WRAPPED"]

WRAPPED: dict[tuple[str, str, str], list[str]] = {}
"""(method, host, spec path) → the client methods that wrap it."""


class Area:
    def __init__(self, client):
        self._client = client

    @property
    def client(self):
        return self._client

    @property
    def config(self):
        """The client's :class:`~toolkit.config.Config`."""
        return self._client.config

    @property
    def hosts(self):
        """The five base URLs (:class:`~toolkit.config.Hosts`)."""
        return self._client.config.hosts

    @property
    def credentials(self):
        """The app's keys (:class:`~toolkit.config.Credentials`); ``credentials.need(name)`` raises a
        :class:`~toolkit.errors.ConfigurationError` naming the setting when one is missing."""
        return self._client.config.credentials

    def _check_city(self, what: str, points, radius: float = 0.0) -> None:
        """Bound to a sandbox: warn (:class:`~toolkit.errors.OutsideSandboxCityWarning`) when ``points``
        (``(x, y)`` WGS84 pairs, or ``(left, bottom, right, top)`` rectangles) lie outside its city, whose name
        and bounds the sandbox tells once (``tk.sandbox.world()``). ``radius`` (metres) widens a point to its
        circle. A client of a real service (which answers for its whole country) never warns."""
        sandbox = getattr(self._client, "sandbox", None)
        if sandbox is None or not hasattr(sandbox, "world"):
            return
        try:
            world = sandbox.world()
            left, bottom, right, top = (float(v) for v in world["bounds"])
        except Exception:   # an older sandbox without a world: nothing to say
            return
        dx, dy = radius / 91000.0, radius / 111000.0   # metres → degrees (at the city's latitude, generously)
        outside = []
        for p in points:
            x0, y0, x1, y1 = (p[0] - dx, p[1] - dy, p[0] + dx, p[1] + dy) if len(p) == 2 else p
            if x1 < left or x0 > right or y1 < bottom or y0 > top:
                outside.append(p)
        if not outside:
            return
        import warnings

        from .errors import OutsideSandboxCityWarning, _user_stacklevel

        shown = ", ".join(f"({', '.join(f'{v:g}' for v in p)})" for p in outside[:3])
        more = f" and {len(outside) - 3} more" if len(outside) > 3 else ""
        if len(points) > 1:
            count = f"{len(outside)} of {len(points)} points, {shown}{more}, lie"
        else:
            count = ("the area " if len(outside[0]) == 4 else "the point ") + f"{shown} lies"
        city = world.get("city", "its city")
        city_ko = f" ({world['city_ko']})" if world.get("city_ko") else ""
        warnings.warn(f"{what}: {count} outside the sandbox's city, {city}{city_ko}: x (longitude) {left:.4f} to "
                      f"{right:.4f}, y (latitude) {bottom:.4f} to {top:.4f}. The sandbox's world is that one city, "
                      "so it has nothing there (empty answers, no route); the real service answers for its whole "
                      "country. Use points inside those bounds.", OutsideSandboxCityWarning,
                      stacklevel=_user_stacklevel())

    def __repr__(self):
        names = [n for n in dir(type(self)) if not n.startswith("_") and callable(getattr(type(self), n))]
        return f"<{type(self).__name__}: {', '.join(names)}>"


def _runner(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(self: Area, *args, **kwargs):
        return self._client._run(fn(self, *args, **kwargs))

    return wrapper


def endpoint(*spec) -> Callable[..., Any]:
    """``@endpoint`` or ``@endpoint(method, host, path, ...)``: run what the method returns (a Call or a
    flow) with the client's sync or async runner; with a spec endpoint named (several may follow as further
    triples), record the method as its wrapper."""
    if len(spec) == 1 and callable(spec[0]):
        return _runner(spec[0])
    if not spec or len(spec) % 3:
        raise TypeError("endpoint() takes (method, host, path) triples")

    def decorate(fn):
        for i in range(0, len(spec), 3):
            method, host, path = spec[i:i + 3]
            WRAPPED.setdefault((method.upper(), host, path), []).append(f"{fn.__module__}.{fn.__qualname__}")
        return _runner(fn)

    return decorate
