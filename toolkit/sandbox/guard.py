"""One gate for every request of the sandbox: bounds and well-formedness of the raw input, checked before any
route runs, so that no route (and no state change) sees hostile input.

:class:`RequestGuard` is an ASGI middleware around the whole app. It refuses, in the platform's error shape
(``{"error": "invalid_request", ...}`` under ``/auth``, ``{"msg", "code": -2}`` elsewhere):

* a body over :data:`MAX_BODY` bytes (:data:`MAX_MULTIPART` for ``multipart/form-data`` uploads: story images
  may weigh up to 10 MB each) — HTTP 413, as soon as the bytes read pass the bound (an upload is spooled to a
  temporary file as it is read, never held whole in memory);
* text that is not valid UTF-8, holds a lone UTF-16 surrogate or a NUL character — in the query string, in a
  form body and in JSON (``"\\ud800"`` escapes included) — HTTP 400;
* JSON nested deeper than :data:`MAX_DEPTH` — in a JSON body, in a form or query field whose value is the text
  of JSON (``template_object``, ``property_keys``, ...) and in a JSON string carrying JSON — HTTP 400;
* in JSON: integers beyond 64 bits, ``NaN``/``Infinity`` and floats that overflow, duplicate keys in an
  object — HTTP 400;
* a field (query, form or JSON string) made only of digits that are not ASCII ``0-9`` (``"²"``, ``"١٢"``),
  or of ASCII digits beyond the 64-bit range (ids are the spec's ``Long``) — HTTP 400.

A body that is not JSON (nor a form) is checked as text and passed on: each route answers its own documented
error for it. :func:`loads` is the one strict JSON reader; :func:`check_fields` the one field check (multipart
text fields, read by ``web.read_fields``, go through it too).

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
toolkit.sandbox.guard.InputError: duplicate key 'a' in a JSON object
>>> check_text("²", "limit")
Traceback (most recent call last):
...
toolkit.sandbox.guard.InputError: limit: digits must be ASCII 0-9
"""
from __future__ import annotations

import codecs
import json
import math
from typing import Any, Iterable
from urllib.parse import parse_qsl, unquote_to_bytes

__all__ = ["RequestGuard", "InputError", "loads", "parsed_body", "parsed_query", "check_text", "check_fields",
           "check_request", "refusal", "send_refusal", "MAX_BODY", "MAX_MULTIPART",
           "MAX_DEPTH", "MAX_FIELD"]

MAX_BODY = 2 * 1024 * 1024
MAX_MULTIPART = 11 * 10 * 1024 * 1024 + 1024 * 1024
MAX_DEPTH = 32
MAX_FIELD = 1024 * 1024
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
SHORT_ASCII = 18      # ASCII text without NUL up to this length passes check_text (tests/test_guard_query.py)


class InputError(ValueError):
    """Input refused by the guard (``status`` 400 or 413)."""

    def __init__(self, msg: str, status: int = 400):
        super().__init__(msg)
        self.status = status


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` (brackets inside JSON strings do not count).

    >>> json_depth('{"a": [[1], "]]]"]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_depth(text: str, where: str) -> None:
    if text.count("[") + text.count("{") > MAX_DEPTH and json_depth(text) > MAX_DEPTH:
        raise InputError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")


def check_text(value: str, where: str = "a field") -> str:
    """Refuse lone surrogates, NUL, non-ASCII digit-only values, out-of-range integers and over-deep JSON text."""
    if len(value) > MAX_FIELD:
        raise InputError(f"{where}: longer than {MAX_FIELD} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{where}: text must be valid UTF-8 (no lone surrogates)") from None
    if "\x00" in value:
        raise InputError(f"{where}: text must not contain NUL characters")
    core = value.strip()
    if core[:1] in "+-":
        core = core[1:]
    if core and core.isdigit():
        if not core.isascii():
            raise InputError(f"{where}: digits must be ASCII 0-9")
        if len(core) > 18 and (len(core.lstrip("0")) > 19 or not INT64_MIN <= int(value.strip()) <= INT64_MAX):
            # past 19 significant digits no 64-bit integer is possible: int() is not asked (5,000 digits raise)
            raise InputError(f"{where}: integers must fit in 64 bits")
    elif core and not core.isascii() and _numeric_shape(core) and any(ch.isdigit() for ch in core):
        raise InputError(f"{where}: digits must be ASCII 0-9")
    if value.lstrip()[:1] in ("[", "{"):
        _check_depth(value, where)
    return value


def _numeric_shape(core: str) -> bool:
    """A number-looking value with a non-ASCII digit (``"1²"``, ``"3.١"``): refused like a digit-only one."""
    first = core[:1]
    if not (first.isdigit() or first in ".,eE+-_ "):    # most text (a word, an address) ends here
        return False
    return all(ch.isdigit() or ch in ".,eE+-_ " for ch in core)


_PASSED_NAMES: set[str] = set()   # field names check_text passed (it answers the same for the same text)


def check_fields(pairs: Iterable[tuple[str, str]]) -> None:
    for name, value in pairs:
        if name not in _PASSED_NAMES:
            check_text(name, "a field name")
            if len(name) <= 64 and len(_PASSED_NAMES) < 1024:   # the API's own names, and a few others
                _PASSED_NAMES.add(name)
        if len(value) <= SHORT_ASCII and value.isascii() and "\x00" not in value:
            continue   # check_text passes such text: ASCII digits, at most 18 of them, and too short for 33 levels
        check_text(value, name if len(name) <= 64 else name[:64] + "…")


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 19 or not INT64_MIN <= int(text) <= INT64_MAX:
        raise InputError("JSON integers must fit in 64 bits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError("JSON numbers must be finite")
    return value


def _constant(name: str):
    raise InputError(f"{name} is not JSON (numbers must be finite)")


def _walk(value: Any, where: str = "the JSON body") -> None:
    """Check every string and key of a parsed JSON value, and its nesting depth (iteratively)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, where)
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise InputError(f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for k, v in item.items():
                    check_text(k, "a JSON key")
                    stack.append((v, depth + 1))
            else:
                stack.extend((v, depth + 1) for v in item)


def loads(text: str | bytes) -> Any:
    """Strict JSON: depth, 64-bit integers, finite numbers, unique keys, valid text. Raises :class:`InputError`
    for a bound and ``ValueError`` for text that is not JSON at all."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the body must be valid UTF-8") from None
    try:  # the C decoder guards its recursion: a very deep document raises RecursionError, not a crash
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float,
                           parse_constant=_constant)
    except RecursionError:
        raise InputError(f"the JSON body: JSON nested deeper than {MAX_DEPTH} levels") from None
    _walk(value)
    return value


def _unescape(raw: bytes) -> bytes:
    r"""``urllib.parse.unquote_to_bytes`` in C: every ``%XX`` becomes the byte XX, anything else stays.

    The escapes are rewritten as ``\xXX`` (every backslash of the input doubled first, so it stays itself) for
    the C decoder of Python's backslash escapes; a ``%`` that is not followed by two hex digits makes it refuse
    (``ValueError``) and the pure-Python decoder answers instead, which keeps such a ``%`` as it is.

    >>> _unescape(rb"%EB%B6%80%EC%82%B0 %41%4a\%5C")
    b'\xeb\xb6\x80\xec\x82\xb0 AJ\\\\'
    >>> _unescape(rb"%41\x41%zz%4")
    b'A\\x41%zz%4'
    """
    try:
        return codecs.escape_decode(raw.replace(b"\\", b"\\\\").replace(b"%", b"\\x"))[0]
    except ValueError:
        return unquote_to_bytes(raw)


def _ascii_field(raw: bytes) -> str:
    raw = raw.replace(b"+", b" ")
    return _unescape(raw).decode("utf-8") if b"%" in raw else raw.decode("ascii")


def _ascii_pairs(raw: bytes) -> list[tuple[str, str]]:
    """``parse_qsl(raw.decode("latin-1"), keep_blank_values=True, errors="strict")`` for an ASCII ``raw``: the
    same pairs (empty parts skipped, a part without ``=`` has the value ``""``, ``+`` is a space, escapes are
    UTF-8) and the same ``UnicodeDecodeError`` for escapes that are not UTF-8, without the pure-Python loop
    over every escape (a Korean word is three escapes a letter)."""
    pairs = []
    for part in raw.split(b"&"):
        if part:
            name, _, value = part.partition(b"=")
            pairs.append((_ascii_field(name), _ascii_field(value)))
    return pairs


def _decode_pairs(raw: bytes, where: str) -> list[tuple[str, str]]:
    try:
        if raw.isascii():   # what clients send (percent-encoded): the fast path, same answer
            return _ascii_pairs(raw)
        return parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise InputError(f"{where} must be valid UTF-8 once percent-decoded") from None
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None


_NOT_JSON = object()


def check_request(query: bytes, ctype: str, body: bytes) -> tuple[list[tuple[str, str]], Any]:
    """Every check of the guard on one request's raw parts (raises :class:`InputError`); returns the decoded
    query fields and the parsed JSON body when the body is JSON, else a marker (``web`` reuses both)."""
    fields = _decode_pairs(query, "the query string")
    check_fields(fields)
    return fields, _check_body(ctype, body)


def _check_body(ctype: str, body: bytes) -> Any:
    if not body:
        return _NOT_JSON
    if ctype.startswith("multipart/form-data"):
        return _NOT_JSON  # file parts are bytes; text fields are checked by web.read_fields with check_fields
    if ctype.startswith("application/x-www-form-urlencoded"):
        check_fields(_decode_pairs(body, "the form body"))
        return _NOT_JSON
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("the body must be valid UTF-8") from None
    try:
        return loads(text)
    except InputError:
        raise
    except ValueError:
        check_text(text, "the body")  # not JSON: the route answers its own documented error for it
        return _NOT_JSON


def parsed_query(scope) -> list[tuple[str, str]] | None:
    """The query fields the guard decoded and checked for this request (None when it did not see it)."""
    return scope.get("state", {}).get("guard.query")


def parsed_body(scope) -> Any:
    """The JSON body the guard parsed for this request, or None when it was not JSON (or not seen)."""
    value = scope.get("state", {}).get("guard.json", _NOT_JSON)
    return None if value is _NOT_JSON else value


def refusal(path: str, exc: InputError) -> tuple[int, dict]:
    """The error body for a refused request, in the shape of the host it was sent to."""
    if path.startswith("/auth/"):
        return exc.status, {"error": "invalid_request", "error_description": str(exc)}
    return exc.status, {"msg": str(exc), "code": -2}


SPOOL = 1024 * 1024
"""Bytes of a ``multipart/form-data`` body held in memory while it is read; the rest goes to a temporary file."""
REPLAY_CHUNK = 256 * 1024
"""Bytes per message when a spooled body is handed to the app."""


class RequestGuard:
    """ASGI middleware: read the body (bounded while it is read), run :func:`check_request`, then replay the body to
    the app. A ``multipart/form-data`` body (uploads, up to :data:`MAX_MULTIPART`) is spooled to a temporary file
    past :data:`SPOOL` bytes and replayed from it in chunks: an upload never sits whole in memory (the form parser
    spools its file parts the same way)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ctype, declared = "", None
        for key, value in scope.get("headers", ()):   # the last one of a name counts
            key = key.lower()
            if key == b"content-type":
                ctype = value.decode("latin-1").lower()
            elif key == b"content-length":
                declared = value.decode("latin-1")
        multipart = ctype.startswith("multipart/form-data")
        limit = MAX_MULTIPART if multipart else MAX_BODY
        spool = None
        try:
            if declared is not None and (not declared.isascii() or not declared.isdigit()):
                raise InputError("Content-Length must be a number of bytes")
            if declared is not None and int(declared) > limit:
                raise InputError(f"the body is larger than {limit} bytes", 413)
            chunks, size, more = [], 0, True
            if multipart:
                import tempfile

                spool = tempfile.SpooledTemporaryFile(max_size=SPOOL)
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    if spool is not None:
                        spool.close()
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    raise InputError(f"the body is larger than {limit} bytes", 413)
                if spool is not None:
                    spool.write(chunk)
                else:
                    chunks.append(chunk)
                more = message.get("more_body", False)
            body = b"".join(chunks)
            query, parsed = check_request(scope.get("query_string", b""), ctype, body)
        except InputError as exc:
            if spool is not None:
                spool.close()
            await send_refusal(scope, send, exc)
            return
        state = scope.setdefault("state", {})
        state["guard.json"], state["guard.query"] = parsed, query
        if spool is None:
            replayed = False

            async def replay():
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()
        else:
            spool.seek(0)
            left, done = size, False

            async def replay():
                nonlocal left, done
                if done:
                    return await receive()
                chunk = spool.read(min(REPLAY_CHUNK, left)) if left > 0 else b""
                left -= len(chunk)
                if left <= 0 or not chunk:
                    done = True
                    spool.close()
                return {"type": "http.request", "body": chunk, "more_body": not done}
        try:
            await self.app(scope, replay, send)
        finally:
            if spool is not None:
                spool.close()


async def send_refusal(scope, send, exc: InputError) -> None:
    """Send the answer to a refused request (see :func:`refusal`)."""
    status, payload = refusal(scope.get("path", ""), exc)
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json;charset=UTF-8"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
