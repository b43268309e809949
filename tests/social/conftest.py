"""Helpers for the social tests: a raw HTTP client for server-side bounds, tiny valid images."""
from __future__ import annotations

import struct
import zlib

import httpx
import pytest

from toolkit.secrets import reveal

MINJI, JUNHO, DOHYUN, JIWOO = 4100000001, 4100000002, 4100000004, 4100000011
ALL_SCOPES = ["profile", "friends", "talk_message", "plusfriends", "story_permalink", "birthday"]


def png(w: int = 4, h: int = 3, pad: int = 0) -> bytes:
    raw = b"".join(b"\x00" + b"\x00" * (w * 3) for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"") + b"\x00" * pad)


def gif(w: int = 2, h: int = 2) -> bytes:
    return b"GIF89a" + struct.pack("<HH", w, h) + b"\x00\x00\x00" + b";"


class Raw:
    """Direct HTTP to the sandbox api host, bypassing the client's own checks."""

    def __init__(self, tk):
        self.tk = tk
        self.base = tk.hosts.api.rstrip("/")
        self.http = httpx.Client(timeout=10)

    def bearer(self):
        return {"Authorization": f"Bearer {reveal(self.tk.access_token)}"}

    def admin(self):
        return {"Authorization": f"ServiceAK {reveal(self.tk.credentials.admin_key)}"}

    def rest(self):
        return {"Authorization": f"ServiceAK {reveal(self.tk.credentials.rest_api_key)}"}

    def __call__(self, method, path, headers=None, **kw):
        return self.http.request(method, self.base + path, headers=headers if headers is not None else self.bearer(),
                                 **kw)


@pytest.fixture
def raw(tk):
    r = Raw(tk)
    yield r
    r.http.close()


@pytest.fixture
def fresh_raw(fresh_tk):
    r = Raw(fresh_tk)
    yield r
    r.http.close()
