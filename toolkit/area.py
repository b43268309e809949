"""Base of the client areas and the ``endpoint`` decorator that runs calls and flows.

An area method builds a :class:`~toolkit.http.Call` (or returns a flow: a generator yielding calls) and is
decorated with :func:`endpoint`; the client runs it synchronously or asynchronously.

>>> class Demo(Area):
...     @endpoint
...     def ping(self):
...         return Call("GET", "status", "/api/health/current")
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from .http import Call

__all__ = ["Area", "endpoint", "Call"]


class Area:
    def __init__(self, client):
        self._client = client

    @property
    def client(self):
        return self._client

    def __repr__(self):
        names = [n for n in dir(type(self)) if not n.startswith("_") and callable(getattr(type(self), n))]
        return f"<{type(self).__name__}: {', '.join(names)}>"


def endpoint(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run what the method returns (a Call or a flow) with the client's sync or async runner."""

    @functools.wraps(fn)
    def wrapper(self: Area, *args, **kwargs):
        return self._client._run(fn(self, *args, **kwargs))

    return wrapper
