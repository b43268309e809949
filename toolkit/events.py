"""Webhooks and security events (identity §6, social §6): verify SETs, and receive every webhook of the
app in a notebook with a loopback :class:`Inbox`.

>>> tk = toolkit.connect()                                   # doctest: +SKIP
>>> inbox = tk.events.inbox()                                # starts on 127.0.0.1, free port
>>> inbox.register()                                         # sandbox: one call; real service: prints URLs
>>> tk.events.platform("unlink", user_id=4100000001)         # sandbox: act as the platform
>>> inbox.wait(2, timeout=5); inbox.frame()                  # one row per received event
>>> inbox.stop()

:func:`verify_set` follows the validation order of identity §6.2 (split, decode the payload, ``iss``,
``aud``, then the signature with the key of the header's ``kid`` from the cached JWKS) and raises
:class:`SetError` whose ``err`` is exactly one of ``invalid_request``, ``invalid_key``, ``invalid_issuer``,
``invalid_audience`` — the body the app answers with HTTP 400. A header ``typ`` other than
``secevent+jwt`` is ``invalid_request`` (not a SET); any ``alg`` other than RS256 (``none``, HS256, ...) is
``invalid_key``.
"""
from __future__ import annotations

import base64
import binascii
import hmac
import json
import threading
import time
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Iterable, Mapping

import httpx
import jwt

from .area import Area
from .classroom import INBOX_PROOF_PATH
from .errors import ConfigurationError, ToolkitError
from .frames import Schema
from .secrets import Claims, Secret, reveal

if TYPE_CHECKING:
    from .loopback import LoopbackServer

__all__ = ["verify_set", "forged_set", "SetError", "SecurityEvent", "VerifiedSet", "JwksCache", "Inbox", "inbox",
           "latest_inbox", "EventsArea", "events_frame", "SET_ERRORS", "SET_CONTENT_TYPE"]

SET_ERRORS = ("invalid_request", "invalid_key", "invalid_issuer", "invalid_audience")
SET_CONTENT_TYPE = "application/secevent+jwt"
ANSWER_BOUND = 3.0

# schema identifier suffix → (category, display name); identifiers documented in toolkit.sandbox.events.models
_TYPES = {
    "oauth/event-type/tokens-revoked": ("OAUTH", "Tokens Revoked"),
    "oauth/event-type/user-linked": ("OAUTH", "User Linked"),
    "oauth/event-type/user-unlinked": ("OAUTH", "User Unlinked"),
    "oauth/event-type/user-scope-consent": ("OAUTH", "User Scope Consent"),
    "oauth/event-type/user-scope-withdraw": ("OAUTH", "User Scope Withdraw"),
    "oauth/event-type/token-issued": ("OAUTH", "Business Token Issued"),
    "oauth/event-type/token-revoked": ("OAUTH", "Business Token Revoked"),
    "risc/event-type/account-credential-change-required": ("RISC", "Account Credential Change Required"),
    "risc/event-type/account-disabled": ("RISC", "Account Disabled"),
    "risc/event-type/account-enabled": ("RISC", "Account Enabled"),
    "risc/event-type/account-purged": ("RISC", "Account Purged"),
    "risc/event-type/credential-compromise": ("RISC", "Credential Compromise"),
    "risc/event-type/identifier-changed": ("RISC", "Identifier Changed"),
    "risc/event-type/identifier-recycled": ("RISC", "Identifier Recycled"),
    "risc/event-type/sessions-revoked": ("RISC", "Sessions Revoked"),
    "caep/event-type/assurance-level-change": ("CAEP", "Assurance Level Change"),
    "caep/event-type/credential-change": ("CAEP", "Credential Change"),
    "kakao/event-type/user-profile-changed": ("KAKAO", "User Profile Changed"),
}


def describe_event(identifier: str, members: dict | None = None) -> tuple[str | None, str]:
    """(category, event type name) of a schema identifier; unknown identifiers keep their last segment."""
    for suffix, (cat, name) in _TYPES.items():
        if identifier.endswith("/" + suffix):
            if name == "Tokens Revoked" and (members or {}).get("token_class") == "business":
                name = "Business Tokens Revoked"
            return cat, name
    return None, identifier.rstrip("/").rsplit("/", 1)[-1]


# ====================================================================== verification
class SetError(ToolkitError):
    """A SET failed validation; ``err`` is one of :data:`SET_ERRORS`, ``description`` a short reason.

    ``body()`` is the JSON the app answers with HTTP 400 (identity §7 shape 4)."""

    def __init__(self, err: str, description: str):
        if err not in SET_ERRORS:
            raise ValueError(f"err must be one of {', '.join(SET_ERRORS)}, not {err!r}")
        super().__init__(f"{err}: {description}")
        self.err, self.description = err, description

    def body(self) -> dict:
        return {"err": self.err, "description": self.description}


@dataclass(frozen=True)
class SecurityEvent:
    """One event of a SET: a typed row."""

    event_type: str
    category: str | None
    schema: str
    user_id: str
    toe: datetime | None      # None when the SET's value is not Unix seconds
    iat: datetime | None
    txm: str
    jti: str
    app_id: str
    members: dict = field(default_factory=dict)

    def row(self) -> dict:
        reason = self.members.get("reason")
        return {"event_type": self.event_type, "category": self.category, "user_id": self.user_id,
                "toe": self.toe, "iat": self.iat, "reason": reason, "app_id": self.app_id, "txm": self.txm,
                "jti": self.jti, "schema": self.schema,
                "members": json.dumps({k: v for k, v in self.members.items() if k != "subject"}, sort_keys=True,
                                      ensure_ascii=False)}


@dataclass(frozen=True)
class VerifiedSet:
    header: dict
    claims: dict
    events: list

    def frame(self):
        return events_frame(self.events)


SET_SCHEMA = Schema(["event_type", "category", "user_id", "toe", "iat", "reason", "app_id", "txm", "jti", "schema",
                     "members"], datetimes=["toe", "iat"])
"""One row per security event (identity §2 security event token); ``members`` is JSON text."""
INBOX_SCHEMA = Schema(["received_at", "kind", "event_type", "category", "user_id", "verified", "answer", "err",
                       "reason", "toe", "method", "resource_id", "txm", "payload"],
                      datetimes=["received_at", "toe"], bools=["verified"], ints=["answer"])
"""One row per event received by an :class:`Inbox` (``payload`` is JSON text)."""
DELIVERY_SCHEMA = Schema(["id", "kind", "event_type", "user_id", "state", "attempts", "last_status", "note", "method",
                          "created_at", "finished_at"], ints=["id", "user_id", "attempts", "last_status"],
                         datetimes=["created_at", "finished_at"])
"""One row per webhook delivery of the sandbox's log."""


def events_frame(events: Iterable[SecurityEvent]):
    """SecurityEvents → a DataFrame of :data:`SET_SCHEMA` (``toe``/``iat`` tz-aware UTC)."""
    from .frames import frame

    return frame([e.row() for e in events], schema=SET_SCHEMA, flatten=False)


def _b64json(part: str, what: str) -> dict:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        value = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise SetError("invalid_request", f"the {what} is not Base64url-encoded JSON") from None
    if not isinstance(value, dict):
        raise SetError("invalid_request", f"the {what} is not a JSON object")
    return value


class JwksCache:
    """Keys of a JWKS URL, fetched once and kept ``ttl`` seconds; an unknown ``kid`` triggers one refetch
    (key rotation), at most every ``min_refetch`` seconds. ``headers`` go with every fetch (a class sandbox's
    world header: each world publishes its own keys at the same URL)."""

    def __init__(self, url: str | None = None, *, jwks: dict | None = None, ttl: float = 3600.0,
                 min_refetch: float = 10.0, timeout: float = 2.0, headers: "Mapping[str, str] | None" = None):
        self.url, self.ttl, self.min_refetch, self.timeout = url, ttl, min_refetch, timeout
        self._headers = dict(headers or {})
        self._keys: dict[str | None, dict] = {}     # by kid (None: a key without one)
        self._fetched = 0.0
        self._lock = threading.Lock()
        if jwks is not None:
            self._load(jwks)
            self._fetched = float("inf") if url is None else time.monotonic()

    def _load(self, jwks: dict) -> None:
        self._keys = {k.get("kid"): k for k in jwks.get("keys", []) if isinstance(k, dict)}

    def _fetch(self, url: str) -> None:
        resp = httpx.get(url, timeout=self.timeout, trust_env=False, headers=self._headers)
        resp.raise_for_status()
        self._load(resp.json())
        self._fetched = time.monotonic()

    def get(self, kid: str) -> dict | None:
        with self._lock:
            age = time.monotonic() - self._fetched
            if self.url and (not self._keys or age > self.ttl or (kid not in self._keys and age > self.min_refetch)):
                try:
                    self._fetch(self.url)
                except (httpx.HTTPError, ValueError):
                    pass
            return self._keys.get(kid)


_CACHES: dict[tuple, JwksCache] = {}
_CACHES_LOCK = threading.Lock()


def _cache_for(jwks_url: str | None, jwks: dict | None, headers: "Mapping[str, str] | None" = None) -> JwksCache:
    if jwks is not None:
        return JwksCache(jwks=jwks)
    if not jwks_url:
        raise ValueError("give jwks_url= (the auth host's /.well-known/jwks.json) or jwks=")
    key = (jwks_url, tuple(sorted((headers or {}).items())))
    with _CACHES_LOCK:
        cache = _CACHES.get(key)
        if cache is None:
            cache = _CACHES[key] = JwksCache(jwks_url, headers=headers)
        return cache


def verify_set(token: "str | bytes", *, audience: "str | Secret", issuer: str, jwks_url: str | None = None,
               jwks: "dict | JwksCache | None" = None) -> VerifiedSet:
    """Validate a SET in the order of identity §6.2; raise :class:`SetError` (``.err``) on failure.

    ``audience`` is the app's REST API key, ``issuer`` the auth base URL, keys from ``jwks`` (a dict or a
    :class:`JwksCache`) or ``jwks_url`` (cached per URL).
    """
    if isinstance(token, bytes):
        try:
            token = token.decode("ascii")
        except UnicodeDecodeError:
            raise SetError("invalid_request", "the token is not ASCII text") from None
    token = token.strip()
    # 1. split at periods
    parts = token.split(".")
    if len(parts) != 3 or not all(parts[:2]):
        raise SetError("invalid_request", "a JWT has three Base64url parts separated by periods")
    # 2. decode the payload
    claims = _b64json(parts[1], "payload")
    for name in ("iss", "aud", "sub", "jti", "events"):
        if name not in claims:
            raise SetError("invalid_request", f"the payload has no {name}")
    if not isinstance(claims["events"], dict) or not claims["events"]:
        raise SetError("invalid_request", "events must be a non-empty object")
    # 3. issuer, 4. audience
    if claims["iss"] != issuer:
        raise SetError("invalid_issuer", "iss is not the service's authorization host")
    aud = claims["aud"]
    want = audience.reveal() if isinstance(audience, Secret) else audience
    auds = aud if isinstance(aud, list) else [aud]
    if not any(isinstance(a, str) and hmac.compare_digest(a.encode(), want.encode()) for a in auds):
        raise SetError("invalid_audience", "aud is not this app's REST API key")
    # 5. signature: header, key list, key of kid
    header = _b64json(parts[0], "header")
    if header.get("typ") != "secevent+jwt":
        raise SetError("invalid_request", "header typ is not secevent+jwt")
    if header.get("alg") != "RS256":
        raise SetError("invalid_key", "only RS256 signatures of the service's keys are accepted")
    cache = jwks if isinstance(jwks, JwksCache) else _cache_for(jwks_url, jwks)
    jwk = cache.get(str(header.get("kid", "")))
    if jwk is None:
        raise SetError("invalid_key", "no key of the service's key list has this kid")
    try:
        key = jwt.PyJWK(jwk, algorithm="RS256").key
        jwt.decode(token, key, algorithms=["RS256"],
                   options={"verify_aud": False, "verify_iss": False, "verify_exp": False, "verify_iat": False,
                            "verify_nbf": False})
    except jwt.PyJWTError:
        raise SetError("invalid_key", "the signature does not verify with the service's public key") from None
    events = []
    for ident, members in claims["events"].items():
        members = members if isinstance(members, dict) else {}
        category, name = describe_event(ident, members)
        events.append(SecurityEvent(
            event_type=name, category=category, schema=ident, user_id=str(claims["sub"]),
            toe=_ts(claims.get("toe")), iat=_ts(claims.get("iat")), txm=str(claims.get("txm", "")),
            jti=str(claims["jti"]), app_id=str(claims.get("app_id", "")), members=members))
    return VerifiedSet(header=header, claims=Claims(claims), events=events)   # aud (the REST API key) masked


FORGERIES = ("audience", "issuer", "signature")
_RISC = "https://schemas.openid.net/secevent/risc/event-type/"


def forged_set(tk, *, wrong: str = "audience", user_id: int | str = 4100000001,
               event: str = "account-disabled") -> str:
    """A security event token an attacker could send to the app's account-status webhook, to see what
    :func:`verify_set` (and the inbox) answer: it is signed with a throwaway RSA key under the ``kid`` of the
    service's first public key, and ``wrong`` names what else is off — ``"audience"`` (``aud`` is another
    app's key: ``invalid_audience``), ``"issuer"`` (``iss`` is not the auth host: ``invalid_issuer``) or
    ``"signature"`` (``iss`` and ``aud`` are right, only the signature is not the service's: ``invalid_key``).
    ``event`` is a RISC event name (``account-disabled``, ``sessions-revoked``, ...).

    Spec: identity §6.2 account-status change webhook (the checks a forged token fails).

    >>> forged = toolkit.events.forged_set(tk, wrong="audience")          # doctest: +SKIP
    >>> tk.events.verify(forged)                                           # doctest: +SKIP
    Traceback (most recent call last):
    SetError: invalid_audience: aud is not this app's REST API key
    """
    from cryptography.hazmat.primitives.asymmetric import rsa

    if wrong not in FORGERIES:
        raise ValueError(f"wrong must be one of {', '.join(FORGERIES)}, not {wrong!r}")
    auth = tk.config.hosts.auth
    keys = tk.oauth.jwks().get("keys", [])
    kid = str(keys[0]["kid"]) if keys else "unknown"
    now = int(time.time())
    claims: dict[str, object] = {
        "iss": "https://attacker.invalid" if wrong == "issuer" else auth,
        "aud": "another-app" if wrong == "audience" else reveal(tk.config.credentials.rest_api_key),
        "sub": str(user_id), "iat": now, "toe": now, "txm": "forged", "jti": f"forged-{now}",
        "app_id": str(tk.config.credentials.app_id or ""), "events": {_RISC + event: {}}}
    someone = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return jwt.encode(claims, someone, algorithm="RS256", headers={"kid": kid, "typ": "secevent+jwt"})


def _ts(value) -> datetime | None:
    try:
        return datetime.fromtimestamp(int(value), tz=timezone.utc)
    except (TypeError, ValueError, OverflowError):
        return None


# ====================================================================== the inbox
INBOX_PATHS = {"unlink": "/unlink", "account_status": "/account-status", "share": "/share", "channel": "/channel"}


_LATEST_INBOX: list = [None]


def latest_inbox() -> "Inbox | None":
    """The inbox this process started last (None before any): what the lessons' self-check counts.

    >>> toolkit.events.latest_inbox() is box      # doctest: +SKIP
    True
    """
    ref = _LATEST_INBOX[0]
    box = ref() if ref is not None else None
    return box if box is not None and box.running else None


class Inbox:
    """A loopback webhook receiver for one app (Starlette + uvicorn on 127.0.0.1 in a daemon thread).

    * ``GET|POST /unlink`` — checks ``Authorization: ServiceAK <primary admin key>`` in constant time; always
      answers 200 (identity §6.1); the row's ``verified`` says whether the key matched.
    * ``POST /account-status`` — verifies the SET (:func:`verify_set`); 202 without body, or 400
      ``{err, description}``.
    * ``GET|POST /share``, ``POST /channel`` — check the ServiceAK header; 200.

    Every request is recorded; :meth:`frame` shows them, :meth:`wait` blocks until ``n`` arrived.
    """

    def __init__(self, *, admin_key: "str | Secret | None", audience: "str | Secret | None", issuer: str | None,
                 jwks_url: str | None = None, jwks: dict | None = None, port: int = 0, client=None,
                 app_key_scheme: str = "ServiceAK"):
        self._admin = Secret(admin_key) if admin_key else None
        self._schemes = tuple(dict.fromkeys(("ServiceAK", app_key_scheme)))   # the spec's word, and the app's
        self._audience = Secret(audience) if audience else None
        self.issuer = issuer
        self._jwks = JwksCache(jwks_url, jwks=jwks, headers=getattr(getattr(client, "core", None), "owned_headers",
                                                                     None)) if (jwks_url or jwks) else None
        self.requested_port = port
        self._client = client
        self._records: list[dict] = []
        self._cond = threading.Condition()
        self._loop_server: LoopbackServer | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 10.0) -> "Inbox":
        from .loopback import LoopbackServer

        if self.running:
            return self
        self._loop_server = LoopbackServer(self._app(), self.requested_port, name="toolkit-inbox").start(timeout)
        _LATEST_INBOX[0] = weakref.ref(self)
        if self._jwks is not None:      # warm the key cache so the first SET answers fast
            self._jwks.get("")
        return self

    def stop(self) -> None:
        if self._loop_server is not None:
            self._loop_server.stop()

    @property
    def port(self) -> int | None:
        return self._loop_server.port if self._loop_server is not None else None

    @property
    def running(self) -> bool:
        return self._loop_server is not None and self._loop_server.running

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        state = f"{self.base_url} running" if self.running else "stopped"
        return f"<Inbox {state}, {len(self._records)} events>"

    # ------------------------------------------------------------------ URLs and registration
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def urls(self) -> dict[str, str]:
        """The webhook URLs by kind (``unlink``, ``account_status``, ``share``, ``channel``)."""
        return {kind: self.base_url + path for kind, path in INBOX_PATHS.items()}

    def register(self, tk=None, **settings) -> dict:
        """Register the inbox's URLs for the app. Sandbox: one control-API call (``settings`` such as
        ``unlink_method="GET"`` or ``account_status_details=True`` go to ``/sandbox/webhooks/settings``).
        Real service: prints what to enter in the developer console and returns the URLs."""
        tk = tk or self._client
        urls = self.urls()
        if tk is None or getattr(tk, "sandbox", None) is None:
            print("Enter these webhook URLs in the app's settings of the developer console "
                  "(the service must reach them: expose the port through a tunnel first):")
            for kind, url in urls.items():
                print(f"  {kind:15s} {url}")
            return urls
        # settings first: events recorded before this call go out under the previous registration
        tk.sandbox.control("POST", "/sandbox/webhooks/settings", json=settings)
        return tk.sandbox.control("POST", "/sandbox/webhooks", json=urls)

    # ------------------------------------------------------------------ records
    def _record(self, **row) -> None:
        row.setdefault("received_at", datetime.now(timezone.utc))
        with self._cond:
            self._records.append(row)
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._records)

    def records(self) -> list[dict]:
        with self._cond:
            return list(self._records)

    def clear(self) -> None:
        with self._cond:
            self._records.clear()

    def wait(self, n: int, timeout: float = 10.0) -> bool:
        """Block until at least ``n`` events arrived (True) or ``timeout`` seconds passed (False)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self._records) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    COLUMNS = list(INBOX_SCHEMA.columns)

    def frame(self):
        """One row per received event (a SET with several events gives several rows); ``received_at`` and
        ``toe`` tz-aware UTC; ``verified`` = ServiceAK header matched (unlink/share/channel) or SET valid."""
        from .frames import frame

        return frame([{c: r.get(c) for c in INBOX_SCHEMA.columns} for r in self.records()], schema=INBOX_SCHEMA,
                     flatten=False)

    # ------------------------------------------------------------------ the ASGI app
    def _key_ok(self, header: str | None) -> bool:
        if self._admin is None:
            return False
        given = (header or "").encode()
        return any([hmac.compare_digest(given, f"{word} {self._admin.reveal()}".encode()) for word in self._schemes])

    def _app(self):
        from starlette.applications import Starlette
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route

        async def fields(request: Request) -> tuple[dict, str]:
            data = dict(request.query_params)
            if request.method == "POST":
                ctype = request.headers.get("content-type", "")
                if ctype.startswith("application/json"):
                    try:
                        body = json.loads(await request.body() or b"{}")
                    except ValueError:
                        body = {"_unparsed": True}
                    if isinstance(body, dict):
                        data.update(body)
                else:
                    form = await request.form()
                    data.update({k: v for k, v in form.items() if isinstance(v, str)})
            return data, request.method

        async def unlink(request: Request):
            data, method = await fields(request)
            self._record(kind="unlink", event_type="unlink", category=None, user_id=str(data.get("user_id")),
                         verified=self._key_ok(request.headers.get("authorization")), answer=200, err=None,
                         reason=data.get("referrer_type"), toe=None, method=method, resource_id=None, txm=None,
                         payload=json.dumps(data, sort_keys=True))
            return Response(status_code=200)

        async def account_status(request: Request):
            body = await request.body()
            ctype = request.headers.get("content-type", "").split(";")[0].strip()
            try:
                if ctype != SET_CONTENT_TYPE:
                    raise SetError("invalid_request", f"Content-Type must be {SET_CONTENT_TYPE}")
                if self._audience is None or not self.issuer or self._jwks is None:
                    raise SetError("invalid_key", "the inbox has no audience, issuer or key list configured")
                verified = await run_in_threadpool(verify_set, body, audience=self._audience, issuer=self.issuer,
                                                   jwks=self._jwks)
            except SetError as exc:
                self._record(kind="account_status", event_type=None, category=None, user_id=None, verified=False,
                             answer=400, err=exc.err, reason=exc.description, toe=None, method="POST",
                             resource_id=None, txm=None, payload=None)
                return JSONResponse(exc.body(), status_code=400)
            for ev in verified.events:
                members = {k: v for k, v in ev.members.items() if k != "subject"}
                self._record(kind="account_status", event_type=ev.event_type, category=ev.category,
                             user_id=ev.user_id, verified=True, answer=202, err=None, reason=members.get("reason"),
                             toe=ev.toe, method="POST", resource_id=None, txm=ev.txm,
                             payload=json.dumps(members, sort_keys=True, ensure_ascii=False))
            return Response(status_code=202)

        def social(kind):
            async def handler(request: Request):
                data, method = await fields(request)
                user = data.get("id") if kind == "channel" else None
                etype = data.get("event") if kind == "channel" else data.get("CHAT_TYPE")
                self._record(kind=kind, event_type=etype, category=None, user_id=None if user is None else str(user),
                             verified=self._key_ok(request.headers.get("authorization"))
                             and request.headers.get("user-agent") == "ServiceOpenAPI/1.0"
                             and bool(request.headers.get("x-service-resource-id")),
                             answer=200, err=None, reason=None, toe=None, method=method,
                             resource_id=request.headers.get("x-service-resource-id"), txm=None,
                             payload=json.dumps(data, sort_keys=True, ensure_ascii=False))
                return Response(status_code=200)
            return handler

        async def owner(request: Request):
            """A class sandbox asks whether this inbox is its student's before it delivers here (a class on one
            machine): the answer is HMAC of its nonce under the student's token, never the token."""
            from .classroom import HEADER, inbox_proof

            held = getattr(getattr(self._client, "core", None), "owned_headers", None) or {}
            token = held.get(HEADER, "").rpartition(":")[2]
            nonce = request.query_params.get("nonce", "")
            if not token or not 16 <= len(nonce) <= 128:
                return Response(status_code=404)
            return JSONResponse({"proof": inbox_proof(token, nonce)})

        return Starlette(routes=[
            Route(INBOX_PROOF_PATH, owner, methods=["GET"]),
            Route(INBOX_PATHS["unlink"], unlink, methods=["GET", "POST"]),
            Route(INBOX_PATHS["account_status"], account_status, methods=["POST"]),
            Route(INBOX_PATHS["share"], social("share"), methods=["GET", "POST"]),
            Route(INBOX_PATHS["channel"], social("channel"), methods=["POST"]),
        ])


def inbox(tk, *, port: int = 0, start: bool = True) -> Inbox:
    """An :class:`Inbox` for the client's app: admin key, REST API key and auth host from ``tk``."""
    creds, auth = tk.config.credentials, tk.config.hosts.auth
    box = Inbox(admin_key=creds.admin_key, audience=creds.rest_api_key, issuer=auth,
                jwks_url=f"{auth}/.well-known/jwks.json", port=port, client=tk,
                app_key_scheme=getattr(creds, "app_key_scheme", "ServiceAK"))
    return box.start() if start else box


# ====================================================================== client area
class EventsArea(Area):
    """``tk.events``: the inbox, SET verification with the app's settings, and (sandbox) the platform's side."""

    def inbox(self, *, port: int = 0, start: bool = True) -> Inbox:
        """A local receiver (started by default) for the webhooks of this app: unlink, account status, share
        and channel events; see :class:`Inbox`.

        Spec: identity §6 events (a local receiver for the webhooks).

        >>> box = tk.events.inbox(); box.wait(1, timeout=5); box.frame()   # doctest: +SKIP
        """
        return inbox(self.client, port=port, start=start)

    def verify(self, token: "str | bytes") -> VerifiedSet:
        """:func:`verify_set` against this app (REST API key) and service (auth host, its JWKS).

        Spec: identity §2 security event token and §6.2 account-status change webhook.

        >>> tk.events.verify(set_token).frame()   # doctest: +SKIP
        """
        auth = self.hosts.auth
        return verify_set(token, audience=self.credentials.need("rest_api_key"), issuer=auth,
                          jwks=_cache_for(f"{auth}/.well-known/jwks.json", None, self.client.core.owned_headers))

    # ---------------------------------------------------------------- sandbox only
    def _sandbox(self):
        if self.client.sandbox is None:
            raise ConfigurationError("acting as the platform and the delivery log exist only in the sandbox")
        return self.client.sandbox

    def platform(self, action: str, **body) -> dict:
        """Sandbox: act as the platform, e.g. ``platform("unlink", user_id=..., referrer_type=...)``,
        ``platform("account-disabled", user_id=...)``; answers the ids of the queued deliveries.

        Spec: identity §6.2 account-status change webhook (the platform's side, sandbox only).

        >>> tk.events.platform("unlink", user_id=4100000001)   # doctest: +SKIP
        """
        return self._sandbox().control("POST", f"/sandbox/platform/{action.replace('_', '-')}", json=body)

    def settings(self, **changes) -> dict:
        """Sandbox: read (no arguments) or change the app's delivery settings.

        Spec: identity §6 events (the app's webhook settings, sandbox only).

        >>> tk.events.settings()   # doctest: +SKIP
        """
        if changes:
            return self._sandbox().control("POST", "/sandbox/webhooks/settings", json=changes)
        return self._sandbox().control("GET", "/sandbox/webhooks/settings")

    def deliveries(self, *, wait: float = 2.0, **filters):
        """Sandbox: the delivery log as a DataFrame (one row per delivery), once nothing is pending (at most
        ``wait`` seconds).

        Spec: identity §6 events and social §6 events (the sandbox's delivery log).

        >>> tk.events.deliveries(wait=5)   # doctest: +SKIP
        """
        from .frames import frame

        params = {k: v for k, v in {**filters, "wait": wait}.items() if v is not None}
        rows = self._sandbox().control("GET", "/sandbox/webhooks/deliveries", params=params)["deliveries"]
        return frame([{c: r.get(c) for c in DELIVERY_SCHEMA.columns} for r in rows], schema=DELIVERY_SCHEMA,
                     flatten=False, meta={"attempt_log": {r["id"]: r["attempt_log"] for r in rows}})
