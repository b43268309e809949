"""Secrets that print masked.

Every access token, refresh token, key and client secret handled by the toolkit is wrapped in
:class:`Secret`. Its ``repr`` and ``str`` never show the value; code that must send it calls
:meth:`Secret.reveal` explicitly.

>>> s = Secret("abcdef0123456789")
>>> s
Secret('••••6789')
>>> f"{s}"
'••••6789'
>>> s.reveal()
'abcdef0123456789'
"""
from __future__ import annotations

import hmac
import re

__all__ = ["Secret", "reveal", "mask", "MaskedDict", "Claims", "masked", "SECRET_NAMES"]


def mask(value: str) -> str:
    """Masked form of a secret: bullets and at most the last 4 characters (none for short values)."""
    tail = value[-4:] if len(value) >= 16 else ""
    return "••••" + tail


class Secret:
    """A string value that never prints itself.

    Equality is constant-time and works against other secrets and plain strings, so code can compare
    without revealing. Pickling is refused so that a secret cannot slip into a stored notebook by accident.
    """

    __slots__ = ("_value",)

    def __init__(self, value: "str | Secret"):
        if isinstance(value, Secret):
            value = value.reveal()
        if not isinstance(value, str):
            raise TypeError(f"Secret wraps a str, not {type(value).__name__}")
        self._value = value

    def reveal(self) -> str:
        """The real value. Call only where it must be sent."""
        return self._value

    def __repr__(self) -> str:
        return f"Secret({mask(self._value)!r})"

    def __str__(self) -> str:
        return mask(self._value)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def _repr_html_(self) -> str:
        return f"<code>{mask(self._value)}</code>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Secret):
            other = other._value
        if not isinstance(other, str):
            return NotImplemented
        return hmac.compare_digest(self._value.encode(), other.encode())

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __bool__(self) -> bool:
        return bool(self._value)

    def __len__(self) -> int:
        return len(self._value)

    def __reduce__(self):
        raise TypeError("a Secret cannot be pickled; store secret.reveal() deliberately if you must")

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


def reveal(value: "str | Secret | None") -> str | None:
    """The plain value of a Secret, or the value itself when it is already a plain string or None."""
    if isinstance(value, Secret):
        return value.reveal()
    return value


SECRET_NAMES = ("key", "secret", "token", "password", "verifier", "aud", "authorization", "client_id")
"""A field named so, or with one of these as a ``_``-separated word of its name (``rest_api_key``,
``client_secret``, ``access_token``), holds a credential: shown masked by :class:`MaskedDict`. Names ending in
``_type`` or ``_kind`` (``token_type``) describe one and are shown."""


def _secret_name(name) -> bool:
    name = str(name).lower()
    if name.endswith(("_type", "_kind")):
        return False
    return name in SECRET_NAMES or any(word in SECRET_NAMES for word in re.split(r"[^a-z0-9]+", name))


class MaskedDict(dict):
    """A plain ``dict`` (lookups, iteration, ``json.dumps`` and ``==`` give the real values) whose repr, str and
    IPython display mask credential-like values: a string under a key named like a credential
    (:data:`SECRET_NAMES`: ``aud`` — an ID token's audience is the REST API key —, ``*_key``, ``*secret*``,
    ``*token*``, …) or equal to one of ``known`` (e.g. the app's keys), in nested dicts and lists too.

    >>> d = MaskedDict({"sub": "42", "aud": "0123456789abcdef0123", "rest_api_key": "feedfacecafebeef0000"})
    >>> d
    {'sub': '42', 'aud': '••••0123', 'rest_api_key': '••••0000'}
    >>> d["aud"]
    '0123456789abcdef0123'
    """

    __slots__ = ("_known",)

    def __init__(self, *args, known=(), **kw):
        super().__init__(*args, **kw)
        self._known = frozenset(v.reveal() if isinstance(v, Secret) else v for v in known if v)

    def masked(self) -> dict:
        """A plain copy with every credential-like value masked (what the repr shows)."""
        return _mask_value(dict(self), self._known, False)

    def __repr__(self) -> str:
        return repr(self.masked())

    __str__ = __repr__

    def _repr_pretty_(self, p, cycle) -> None:
        p.text("{...}") if cycle else p.pretty(self.masked())

    def __reduce__(self):   # pickles (and copies) as the plain dict it is, keeping nothing hidden
        return (type(self), (dict(self),), {"_known": self._known})

    def __setstate__(self, state):
        self._known = state.get("_known", frozenset())

    def copy(self):
        return type(self)(self, known=self._known)


class Claims(MaskedDict):
    """The claims of an ID token (or a token-info answer): ``aud`` is the REST API key, so it shows masked;
    ``claims["aud"]`` gives the value."""


def _mask_value(value, known, secret_name: bool):
    if isinstance(value, Secret):
        return str(value)
    if isinstance(value, str):
        return mask(value) if (secret_name or value in known) and value else value
    if isinstance(value, dict):
        return {k: _mask_value(v, known, secret_name or _secret_name(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_mask_value(v, known, secret_name) for v in value)
    return value


def masked(value, known=()):
    """``value`` with every dict in it (nested ones too) a :class:`MaskedDict`: the same data, shown masked.

    >>> masked({"app": {"admin_key": "0123456789abcdef0123"}})["app"]
    {'admin_key': '••••0123'}
    """
    if isinstance(value, dict):
        return MaskedDict({k: masked(v, known) for k, v in value.items()}, known=known)
    if isinstance(value, list):
        return [masked(v, known) for v in value]
    return value
