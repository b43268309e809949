"""The sandbox's lane for its busiest reads: a ``GET`` without a body to one of a few exact paths (the local
searches and coordinate lookups, ``/local/v2/local/search/address.json`` and the like) is answered from the raw
ASGI scope, without the per-request objects of Starlette's stack (middlewares, router, ``Request``,
``Response``), which cost more than the search itself.

The lane does what the whole stack does for such a request, in the same order, with the same functions:

1. the request guard's check of the query string (:func:`.guard.check_request`) and its refusal
   (:func:`.guard.send_refusal`), HTTP 400 in the host's error shape;
2. the route's own steps (its handler, given the decoded query fields and the ``Authorization`` header as
   Starlette's ``request.headers`` would give it: the first one sent);
3. its answer: the handler's JSON bytes with the two headers of every JSON answer, an error it raises
   (:class:`.web.SpecError`) rendered as the app renders it, and any other exception answered HTTP 500 as
   :func:`.app._internal` does, then raised again (as Starlette's error middleware does, so the server logs it).

Anything else goes to the whole stack: another method or path, a request with a body or a declared length,
an app mounted under a root path. ``tests/test_lane.py`` sends the same requests, hostile ones included, to an
app with and without the lane and compares the answers byte for byte, the request log and the quota counts.

>>> lane = Lane({"/local/v1/ping": lambda fields, auth: b'{"ok":true}'}, internal=None)
>>> sorted(lane.handlers)
['/local/v1/ping']
"""
from __future__ import annotations

from typing import Callable

from .guard import InputError, check_request, send_refusal
from .web import JSON_TYPE, SpecError

__all__ = ["Lane", "Handler"]

Handler = Callable[[dict, str], bytes]   # (query fields, Authorization header or "") -> a 200 JSON body
_JSON_TYPE = (b"content-type", JSON_TYPE.encode("latin-1"))
_BODY_HEADERS = (b"content-length", b"transfer-encoding")


class Lane:
    """Exact request paths (with the host's prefix, e.g. ``/local/...``) and their handlers."""

    def __init__(self, handlers: dict[str, Handler], internal: Callable[[Exception], SpecError]):
        self.handlers, self.internal = dict(handlers), internal
        self.answered = 0            # requests the lane answered (tests check it served what they sent)

    async def __call__(self, scope, receive, send) -> bool:
        """Answer this request and say True, or say False when the whole stack must answer it."""
        if scope["type"] != "http" or scope["method"] != "GET" or scope.get("root_path"):
            return False
        handler = self.handlers.get(scope["path"])
        if handler is None:
            return False
        auth = None
        for key, value in scope["headers"]:
            if key in _BODY_HEADERS:
                return False
            if key == b"authorization" and auth is None:
                auth = value
        await self.answer(handler, scope, receive, send, "" if auth is None else auth.decode("latin-1"))
        return True

    async def answer(self, handler: Handler, scope, receive, send, auth: str) -> None:
        """Answer one request with ``handler`` (``auth``: its first ``Authorization`` header, or "")."""
        self.answered += 1
        try:
            fields = dict(check_request(scope["query_string"], "", b"")[0])
        except InputError as exc:
            await send_refusal(scope, send, exc)
            return
        try:
            body = handler(fields, auth)
        except SpecError as err:
            await err.response()(scope, receive, send)
            return
        except Exception as exc:
            await self.internal(exc).response()(scope, receive, send)
            raise
        await _send(send, 200, body)


async def _send(send, status: int, body: bytes) -> None:   # what web.json_response's answer sends
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode("latin-1")), _JSON_TYPE]})
    await send({"type": "http.response.body", "body": body})
