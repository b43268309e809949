"""Shared pieces of the hostile-input suite: one frozen sandbox per module, credentials for every security
scheme of the OpenAPI document, a raw request sender (percent-encoded bytes go out as they are) and a snapshot
of the whole store (every table, the clock included) to prove that a refused request changed nothing."""
from __future__ import annotations

import hashlib
from urllib.parse import quote

import httpx
import pytest

from tests.openapi_auth import auth_headers
from toolkit.sandbox.identity.models import SCOPES
from toolkit.sandbox.openapi import build_document
from toolkit.sandbox.server import SandboxServer

# Tables a refused call may still write: the per-day call counters (the platform counts calls, refused or not,
# against the quota) — nothing else.
COUNTERS = {"quota_use", "token_issues"}


def operations() -> list[tuple[str, str, dict]]:
    """(method, path, operation) of every operation of the sandbox's OpenAPI document."""
    out = []
    for path, ops in build_document("http://sandbox").get("paths", {}).items():
        for method, op in ops.items():
            if method in ("get", "post", "put", "delete", "patch"):
                out.append((method.upper(), path, op))
    return out


def fields_of(op: dict) -> tuple[list[str], list[str], str | None]:
    """Query parameter names, body field names and the body's content type of an operation."""
    query = [p["name"] for p in op.get("parameters", []) if p.get("in") == "query"]
    body = (op.get("requestBody") or {}).get("content", {})
    ctype = next(iter(body), None)
    props = list((body.get(ctype) or {}).get("schema", {}).get("properties", {}) or []) if ctype else []
    return query, props, ctype


def concrete(path: str) -> str:
    """Fill path parameters (``{format}`` → ``json``)."""
    return path.replace("{format}", "json").replace("{", "").replace("}", "")


class Hostile:
    def __init__(self, server: SandboxServer):
        self.server = server
        self.base = server.base_url.rstrip("/")
        self.app = server.app_config()
        self.http = httpx.Client(timeout=60)
        users = self.http.get(f"{self.base}/sandbox/identity/users").json()["users"]
        self.user_id = users[0]["id"]
        self.token = self.http.post(f"{self.base}/sandbox/login", json={
            "user_id": self.user_id, "scopes": sorted(SCOPES)}).json()["access_token"]

    def headers(self, op: dict) -> dict[str, str]:
        return auth_headers(op.get("security"), self.app, self.token)

    def send(self, method: str, path: str, *, query: bytes = b"", body: bytes | None = None,
             ctype: str | None = None, headers: dict | None = None) -> httpx.Response:
        url = httpx.URL(self.base + path)
        if query:
            url = url.copy_with(query=query)
        hdrs = dict(headers or {})
        if ctype:
            hdrs["Content-Type"] = ctype
        return self.http.request(method, url, content=body, headers=hdrs, follow_redirects=False)

    def snapshot(self) -> dict[str, str]:
        """A digest per table of the store (meta, hence the clock, included) except :data:`COUNTERS`, taken once
        the webhook engine is idle; unequal snapshots show the tables that differ."""
        # let the webhook engine finish what earlier accepted requests queued (it writes in the background)
        self.server.sandbox.model("events").wait_idle(5)
        store = self.server.sandbox.store
        out = {}
        for row in store.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            if row["name"] in COUNTERS:
                continue
            digest = hashlib.sha256()
            for r in store.all(f'SELECT * FROM "{row["name"]}"'):
                digest.update(repr(tuple(r)).encode("utf-8", "backslashreplace"))
            out[row["name"]] = digest.hexdigest()[:16]
        return out


def encode_pairs(pairs: list[tuple[str, bytes | str]]) -> bytes:
    """``k=v&...`` with values given as raw (already percent-encoded) bytes or as text to percent-encode."""
    out = []
    for name, value in pairs:
        raw = value if isinstance(value, bytes) else quote(value, safe="").encode()
        out.append(quote(name, safe="").encode() + b"=" + raw)
    return b"&".join(out)


@pytest.fixture(scope="module")
def hostile():
    server = SandboxServer(port=0, frozen=True).start()
    h = Hostile(server)
    yield h
    h.http.close()
    server.stop()
