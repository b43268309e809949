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

__all__ = ["Secret", "reveal", "mask"]


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
