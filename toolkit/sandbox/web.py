"""HTTP helpers shared by the sandbox routes: answers in the spec's shapes, parameter parsing with bounds,
app-key checks and quotas.

A handler raises :class:`SpecError` (built by :func:`api_error` or :func:`oauth_error`); the app renders it
in the spec's shape with ``Content-Type: application/json;charset=UTF-8``.
"""
from __future__ import annotations

import builtins
import json
import re
from typing import Any, Iterable, Literal, Mapping, Sequence, overload

import orjson
from starlette.requests import Request
from starlette.responses import Response

from .guard import InputError, check_fields, loads, parsed_body, parsed_query

__all__ = [
    "JSON_TYPE", "SpecError", "api_error", "oauth_error", "json_response", "finite_json", "read_fields", "read_json",
    "Params", "sandbox_of", "ascii_int", "require_app_key", "app_key", "json_bytes_response",
]

JSON_TYPE = "application/json;charset=UTF-8"
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
_ASCII_INT = re.compile(r"[+-]?[0-9]+")
_ASCII_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def ascii_int(text: str) -> int | None:
    """``text`` as a 64-bit integer when it is one written in ASCII digits, else None (``"²".isdigit()`` is
    True in Python and ``int("١٢")`` is 12: neither is a number of the spec).

    >>> ascii_int("42"), ascii_int("²"), ascii_int("١٢"), ascii_int(str(2 ** 64))
    (42, None, None, None)
    """
    text = text.strip() if isinstance(text, str) else ""
    if not _ASCII_INT.fullmatch(text):
        return None
    value = int(text)
    return value if INT64_MIN <= value <= INT64_MAX else None


class SpecError(Exception):
    """An error answer in one of the spec's shapes."""

    def __init__(self, status: int, body: Mapping[str, Any], headers: Mapping[str, str] | None = None):
        super().__init__(f"{status} {body}")
        self.status, self.body, self.headers = status, dict(body), dict(headers or {})

    def response(self) -> Response:
        return json_response(self.body, self.status, self.headers)


def api_error(status: int, code: int, msg: str, headers: Mapping[str, str] | None = None) -> SpecError:
    """Shape 1: ``{"msg": ..., "code": -N}``."""
    return SpecError(status, {"msg": msg, "code": code}, headers)


def oauth_error(status: int, error: str, description: str, error_code: str | None = None) -> SpecError:
    """Shape 2: ``{"error", "error_description", "error_code"}``."""
    body = {"error": error, "error_description": description}
    if error_code:
        body["error_code"] = error_code
    return SpecError(status, body)


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode   # = json.dumps(.., same options)
_JSON_TYPE_HEADER = (b"content-type", JSON_TYPE.encode("latin-1"))


class _JSONAnswer(Response):
    """A JSON answer without extra headers, built directly: the body's bytes and the two headers
    Starlette's :class:`Response` would make for it (``content-length``, then ``content-type``)."""

    media_type = JSON_TYPE

    def __init__(self, body: bytes, status_code: int):
        self.status_code, self.background, self.body = status_code, None, body
        self.raw_headers = [(b"content-length", str(len(body)).encode("latin-1")), _JSON_TYPE_HEADER]


def finite_json(payload: Any) -> bytes:
    """The UTF-8 bytes of ``json.dumps(payload, ensure_ascii=False, separators=(",", ":"))`` for a payload whose
    floats are all finite, written by orjson (C, about ten times faster on a page of addresses).

    orjson writes the same text (keys in order, strings not escaped beyond JSON's rules, the shortest float
    that reads back) except for a float below 1e-4 (``0.00001`` or ``1e-7`` where Python writes ``1e-05``,
    ``1e-07``): an output that may hold one (``e-`` or ``0.0000`` anywhere in it), and a payload orjson refuses
    (an integer beyond 64 bits, a key that is not text, ...), are written by :mod:`json` instead. A NaN or an
    infinity would be written ``null`` (``NaN`` by :mod:`json`): callers pass payloads without them.

    >>> finite_json({"x": 129.0652, "small": 1e-05, "name": "부산"}).decode()
    '{"x":129.0652,"small":1e-05,"name":"부산"}'
    """
    try:
        data = orjson.dumps(payload)
    except TypeError:   # orjson.JSONEncodeError
        return _ENCODE(payload).encode("utf-8")
    if b"e-" in data or b"0.0000" in data:
        return _ENCODE(payload).encode("utf-8")
    return data


def json_response(payload: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """``payload`` as compact JSON (UTF-8, not ASCII-escaped) with ``Content-Type: application/json;charset=UTF-8``
    (a payload whose floats are all finite is written faster by :func:`finite_json` and :func:`json_bytes_response`).

    >>> answer = json_response({"msg": "없음", "code": -2}, 400)
    >>> answer.status_code, answer.body.decode(), answer.headers["content-type"]
    (400, '{"msg":"없음","code":-2}', 'application/json;charset=UTF-8')
    """
    if headers or not (200 <= status and status not in (204, 304)):
        return Response(_ENCODE(payload), status_code=status, media_type=JSON_TYPE, headers=dict(headers or {}))
    return _JSONAnswer(_ENCODE(payload).encode("utf-8"), status)


def json_bytes_response(data: bytes) -> Response:
    """A 200 answer of JSON already written (by :func:`finite_json` or from its pieces), with the headers of
    every JSON answer.

    >>> json_bytes_response(b'{"ok":true}').headers["content-type"]
    'application/json;charset=UTF-8'
    """
    return _JSONAnswer(data, 200)


def sandbox_of(request: Request):
    return request.app.state.sandbox


async def read_json(request: Request) -> dict:
    """A JSON object body (an empty body counts as ``{}``); HTTP 400 ``{code: -2}`` otherwise."""
    body = parsed_body(request.scope)  # parsed and checked once, by the request guard
    if body is not None:
        return _object(body)
    try:
        body = loads(await request.body() or b"{}")
    except InputError as exc:
        raise api_error(exc.status, -2, str(exc)) from None
    except ValueError:
        body = None
    return _object(body)


def _object(body) -> dict:
    if not isinstance(body, dict):
        raise api_error(400, -2, "the body must be a JSON object (Content-Type: application/json)")
    return body


async def read_fields(request: Request) -> dict[str, str]:
    """Query fields merged with a form body (POST); repeated keys keep their last value."""
    query = parsed_query(request.scope)    # decoded once, by the request guard
    fields = dict(request.query_params if query is None else query)
    if request.method in ("POST", "PUT", "DELETE"):
        ctype = request.headers.get("content-type", "")
        if ctype.startswith("application/x-www-form-urlencoded") or ctype.startswith("multipart/form-data"):
            async with request.form() as form:   # closes the temporary files of uploaded parts
                text = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]
            try:
                check_fields(text)  # the guard's field rule, for multipart text fields it cannot see
            except InputError as exc:
                raise api_error(exc.status, -2, str(exc)) from None
            fields.update(dict(text))
    return fields


class Params:
    """Typed access to request fields; every violation is a 400 ``{code: -2}`` naming the field and bound.

    >>> p = Params({"page": "3", "size": "99"})
    >>> p.int("page", 1, lo=1, hi=45)
    3
    >>> p.int("size", 10, lo=1, hi=30)
    Traceback (most recent call last):
    ...
    toolkit.sandbox.web.SpecError: 400 {'msg': 'size must be between 1 and 30', 'code': -2}
    """

    def __init__(self, fields: Mapping[str, str]):
        self.fields = dict(fields)

    def _bad(self, msg: str) -> SpecError:
        return api_error(400, -2, msg)

    def has(self, name: str) -> bool:
        return self.fields.get(name) not in (None, "")

    # A field with a default, or required (a missing one raises), is never None: the overloads say so.
    @overload
    def str(self, name: str, default: str, *, required: bool = False) -> str: ...
    @overload
    def str(self, name: str, default: None = None, *, required: Literal[True]) -> str: ...
    @overload
    def str(self, name: str, default: None = None, *, required: bool = False) -> str | None: ...

    def str(self, name: str, default: str | None = None, *, required: bool = False) -> str | None:
        value = self.fields.get(name)
        if value in (None, ""):
            if required:
                raise self._bad(f"{name} is required")
            return default
        return value

    # the methods below are named after builtins, so their annotations name the builtins through ``builtins``
    @overload
    def int(self, name: builtins.str, default: builtins.int, *, lo: builtins.int | None = None,
            hi: builtins.int | None = None, required: builtins.bool = False) -> builtins.int: ...
    @overload
    def int(self, name: builtins.str, default: None = None, *, lo: builtins.int | None = None,
            hi: builtins.int | None = None, required: Literal[True]) -> builtins.int: ...
    @overload
    def int(self, name: builtins.str, default: None = None, *, lo: builtins.int | None = None,
            hi: builtins.int | None = None, required: builtins.bool = False) -> builtins.int | None: ...

    def int(self, name: builtins.str, default: int | None = None, *, lo: int | None = None, hi: int | None = None,
            required: bool = False) -> int | None:
        raw = self.str(name, required=required)
        if raw is None:
            return default
        if raw.isdigit() and raw.isascii() and len(raw) <= 18:    # what clients send: the checks below pass
            value = int(raw)
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise self._bad(f"{name} must be between {lo} and {hi}")
            return value
        if not _ASCII_INT.fullmatch(raw.strip()):
            raise self._bad(f"{name} must be an integer")
        value = int(raw)
        if not INT64_MIN <= value <= INT64_MAX:  # the spec's Long; SQLite cannot store more either
            raise self._bad(f"{name} must be a 64-bit integer")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self._bad(f"{name} must be between {lo} and {hi}")
        return value

    @overload
    def float(self, name: builtins.str, default: builtins.float, *,
              required: builtins.bool = False) -> builtins.float: ...
    @overload
    def float(self, name: builtins.str, default: None = None, *, required: Literal[True]) -> builtins.float: ...
    @overload
    def float(self, name: builtins.str, default: None = None, *,
              required: builtins.bool = False) -> builtins.float | None: ...

    def float(self, name: builtins.str, default: float | None = None, *, required: bool = False) -> float | None:
        raw = self.str(name, required=required)
        if raw is None:
            return default
        if not _ASCII_FLOAT.fullmatch(raw.strip()):
            raise self._bad(f"{name} must be a number")
        value = float(raw)
        if value != value or value in (float("inf"), float("-inf")):
            raise self._bad(f"{name} must be a finite number")
        return value

    def bool(self, name: builtins.str, default: bool = False) -> bool:
        raw = self.str(name)
        if raw is None:
            return default
        if raw.lower() in ("true", "1"):
            return True
        if raw.lower() in ("false", "0"):
            return False
        raise self._bad(f"{name} must be true or false")

    @overload
    def enum(self, name: builtins.str, choices: Sequence[builtins.str], default: builtins.str, *,
             required: builtins.bool = False, case: builtins.bool = True) -> builtins.str: ...
    @overload
    def enum(self, name: builtins.str, choices: Sequence[builtins.str], default: None = None, *,
             required: Literal[True], case: builtins.bool = True) -> builtins.str: ...
    @overload
    def enum(self, name: builtins.str, choices: Sequence[builtins.str], default: None = None, *,
             required: builtins.bool = False, case: builtins.bool = True) -> builtins.str | None: ...

    def enum(self, name: builtins.str, choices: Sequence[builtins.str], default: builtins.str | None = None, *,
             required: builtins.bool = False, case: builtins.bool = True) -> builtins.str | None:
        raw = self.str(name, required=required)
        if raw is None:
            return default
        match = next((c for c in choices if (c == raw if case else c.lower() == raw.lower())), None)
        if match is None:
            raise self._bad(f"{name} must be one of {', '.join(choices)}")
        return match

    @overload
    def list(self, name: builtins.str, *, required: Literal[True],
             allow_comma: builtins.bool = True) -> builtins.list[builtins.str]: ...
    @overload
    def list(self, name: builtins.str, *, required: builtins.bool = False,
             allow_comma: builtins.bool = True) -> builtins.list[builtins.str] | None: ...

    def list(self, name: builtins.str, *, required: builtins.bool = False,
             allow_comma: builtins.bool = True) -> builtins.list[builtins.str] | None:
        """A ``String[]`` field: the text of a JSON array (the spec's rule), or comma-separated when allowed."""
        raw = self.str(name, required=required)
        if raw is None:
            return None
        text = raw.strip()
        if text.startswith("["):
            try:
                value = loads(text)
            except ValueError:
                raise self._bad(f"{name} must be the text of a JSON array") from None
            if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
                raise self._bad(f"{name} must be a JSON array of strings")
            return [str(v) for v in value]
        if not allow_comma:
            raise self._bad(f"{name} must be the text of a JSON array")
        return [part.strip() for part in text.split(",") if part.strip()]

    def csv(self, name: builtins.str) -> builtins.list[builtins.str] | None:
        raw = self.str(name)
        return None if raw is None else [p.strip() for p in raw.split(",") if p.strip()]


def require_app_key(request: Request, kinds: Iterable[str] = ("rest_api",)):
    """Check ``Authorization: ServiceAK <key>`` against the registered app keys; return (app row, key kind).

    Missing or unknown key: HTTP 401 ``{code: -401}``; a key of the wrong kind: HTTP 401 ``{code: -401}`` too
    (the real platform answers an app-key error the same way whatever the cause).
    """
    return app_key(sandbox_of(request), request.headers.get("authorization", ""), kinds)


APP_KEY_WORDS = ("ServiceAK", "KakaoAK")
"""The words accepted before an app key: the spec's ``ServiceAK``, and ``KakaoAK``, which deployments of this API
(and clients written for them, ``connect(app_key_scheme="KakaoAK")``) send."""


def app_key_of(header: str) -> str | None:
    """The key of an ``Authorization: <word> <key>`` header whose word is one of :data:`APP_KEY_WORDS`, else None.

    >>> app_key_of("KakaoAK abc"), app_key_of("Bearer abc")
    ('abc', None)
    """
    scheme, _, key = (header or "").partition(" ")
    return key.strip() or None if scheme in APP_KEY_WORDS else None


def app_key(sandbox, header: str, kinds: Iterable[str] = ("rest_api",)):
    """:func:`require_app_key` for the text of an ``Authorization`` header (the request lane has no request)."""
    scheme, _, key = header.partition(" ")
    if scheme not in APP_KEY_WORDS or not key.strip():
        raise api_error(401, -401, "this API needs Authorization: ServiceAK <app key>",
                        {"WWW-Authenticate": "ServiceAK"})
    found = sandbox.apps.find_key(key.strip())
    if found is None or found[1] not in tuple(kinds):
        raise api_error(401, -401, "invalid app key for this API", {"WWW-Authenticate": "ServiceAK"})
    return found
