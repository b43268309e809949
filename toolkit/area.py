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
