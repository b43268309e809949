"""Login by OAuth 2.0 authorization code with OpenID Connect (identity §4.1–4.4, 4.10–4.12, 4.21).

>>> tk = toolkit.connect()                                               # doctest: +SKIP
>>> token = tk.login("minji@sandbox.test", scopes=["profile", "account_email", "openid"])   # sandbox: headless
>>> token.claims["nickname"]                                             # verified ID token claims
>>> token = tk.login(scopes=["profile", "openid"])   # real service (or sandbox): browser + loopback callback server
>>> req = tk.oauth.authorize_url(scope=["profile"])   # hosted notebook: open req.url, then paste the redirect URL
>>> tk.oauth.complete(req, "http://localhost:8765/callback?code=...&state=...")
>>> url = tk.sandbox.authorize(req, "minji@sandbox.test")   # sandbox: the user's side only, for a step-by-step login

Every login uses ``state`` (checked on return), ``nonce`` (checked in the ID token) and PKCE S256. Tokens are
kept in a :class:`Token` whose values are :class:`~toolkit.secrets.Secret`. ID tokens are verified with pyjwt
against the JWKS of the authorization host, cached for an hour and re-fetched once when a ``kid`` is unknown
(key rotation): signature (RS256 only), ``kid``, ``iss``, ``aud``, ``exp``, ``iat`` and ``nonce``. Expiry is
judged by the service's clock (in the sandbox, the sandbox clock, which can be advanced).

:meth:`OAuthArea.login_in_browser` opens the authorize URL in the user's browser (or prints it) and catches the
redirect on a one-shot HTTP server bound to 127.0.0.1 at the port of the registered loopback redirect URI
(``http://localhost:8765/callback`` for the demo app), with a timeout; the server is stopped afterwards.

Calls made with the login token refresh it first when less than :data:`REFRESH_MARGIN` seconds of the access
token remain (by the service's clock), and once more on a -401 answer.
"""
from __future__ import annotations

import base64
import collections
import hashlib
import html
import http.server
import os
import re
import secrets
import sys
import time
import webbrowser
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable, cast
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt

from .area import WRAPPED, Area, Call, endpoint
from .authpages import code_from_redirect, drive_pages  # noqa: F401  (shared with the business area)
from .errors import ParameterError, ToolkitError
from .http import NO_AUTH, Bearer
from .scopes import check_scopes
from .secrets import Claims, Secret

__all__ = ["OAuthArea", "Token", "AuthRequest", "IdTokenError", "LoopbackServer", "pkce_pair", "PROMPTS",
           "REFRESH_MARGIN"]

PROMPTS = ("login", "none", "create", "select_account")
JWKS_TTL = 3600
LEEWAY = 30
REFRESH_MARGIN = 60
"""Refresh the login token before a call when fewer seconds than this remain of the access token."""
LOOPBACK_NAMES = ("localhost", "127.0.0.1")


class IdTokenError(ToolkitError):
    """An ID token failed verification (signature, kid, iss, aud, exp, iat or nonce)."""


def pkce_pair() -> tuple[Secret, str]:
    """(code_verifier as a Secret, S256 code_challenge).

    >>> verifier, challenge = pkce_pair(); len(challenge)
    43
    """
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    MADE_CHALLENGES.append(challenge)
    return Secret(verifier), challenge


MADE_CHALLENGES: "collections.deque[str]" = collections.deque(maxlen=256)
"""The challenges :func:`pkce_pair` made lately (public: each is in a request's URL), so that the lessons'
self-check knows a challenge read from a URL from one a learner computed."""


def _list(value, name: str) -> list[str] | None:
    return None if value is None else _items(value, name)


def _items(value, name: str) -> list[str]:
    """The comma-separated values of ``value`` (a string or an iterable of them), at least one."""
    items = [value] if isinstance(value, str) else list(value)
    items = [p.strip() for item in items for p in str(item).split(",") if p.strip()]
    if not items:
        raise ParameterError(name, "give at least one value, or None")
    return items


@dataclass(repr=False)
class AuthRequest:
    """One authorization request: the URL to open and what the return must match."""

    url: str
    redirect_uri: str
    state: str
    nonce: str
    code_verifier: Secret

    def __repr__(self):
        return f"AuthRequest(redirect_uri={self.redirect_uri!r}, state=…, nonce=…, code_verifier={self.code_verifier!r})"


@dataclass(repr=False)
class Token:
    """Tokens of one login. Times are the service's (the sandbox clock in the sandbox), tz-aware UTC."""

    access_token: Secret
    expires_at: datetime
    refresh_token: Secret | None = None
    refresh_expires_at: datetime | None = None
    id_token: Secret | None = None
    scopes: list[str] = field(default_factory=list)
    claims: dict | None = None
    local_deadline: float = 0.0

    @classmethod
    def from_response(cls, body: dict, now: float, previous: "Token | None" = None) -> "Token":
        refresh = body.get("refresh_token")
        tok = cls(
            access_token=Secret(body["access_token"]),
            expires_at=datetime.fromtimestamp(now + int(body["expires_in"]), tz=timezone.utc),
            refresh_token=Secret(refresh) if refresh else (previous.refresh_token if previous else None),
            refresh_expires_at=(datetime.fromtimestamp(now + int(body["refresh_token_expires_in"]), tz=timezone.utc)
                                if refresh else (previous.refresh_expires_at if previous else None)),
            id_token=Secret(body["id_token"]) if body.get("id_token") else None,
            scopes=(body.get("scope") or "").split(),
            local_deadline=time.monotonic() + int(body["expires_in"]),
        )
        return tok

    @property
    def expires_in(self) -> int:
        """Seconds left by the local clock's count since the token arrived."""
        return max(0, int(self.local_deadline - time.monotonic()))

    def __repr__(self):
        return (f"Token(access_token={self.access_token!r}, refresh_token={self.refresh_token!r}, "
                f"id_token={'Secret(…)' if self.id_token else None}, scopes={self.scopes!r}, "
                f"expires_at={self.expires_at.isoformat()})")


def _is_loopback(uri: str) -> bool:
    parts = urlsplit(uri)
    return parts.scheme == "http" and parts.hostname in LOOPBACK_NAMES and parts.port is not None


_DONE_PAGE = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title></head>"
              "<body style='font-family:sans-serif;max-width:40em;margin:3em auto'><h1>{title}</h1>"
              "<p id='{pid}'>{text}</p></body></html>")


class LoopbackServer:
    """A one-shot HTTP server on 127.0.0.1 that catches the browser's redirect to a loopback redirect URI.

    >>> with LoopbackServer("http://localhost:8765/callback", timeout=120) as server:   # doctest: +SKIP
    ...     webbrowser.open(request.url)
    ...     redirect_url = server.wait()

    It binds 127.0.0.1 only (never all interfaces), answers the first GET of the redirect path with a short
    "you can close this tab" page (other paths, e.g. ``/favicon.ico``, get 404 and waiting goes on) and is
    closed when the ``with`` block ends. :meth:`wait` raises a :class:`~toolkit.errors.ToolkitError` after
    ``timeout`` seconds.
    """

    def __init__(self, redirect_uri: str, timeout: float = 300.0):
        if not _is_loopback(redirect_uri):
            raise ParameterError("redirect_uri", "a loopback login needs a registered redirect URI of the form "
                                 "http://localhost:PORT/path (or http://127.0.0.1:PORT/path); for other URIs use "
                                 "authorize_url() and complete() with the pasted redirect URL", redirect_uri)
        if not timeout or timeout <= 0:
            raise ParameterError("timeout", "must be a positive number of seconds", timeout)
        parts = urlsplit(redirect_uri)
        self.redirect_uri, self.timeout = redirect_uri, float(timeout)
        self.port, self.path = cast(int, parts.port), parts.path or "/"     # _is_loopback: a port is given
        self.origin = f"http://{parts.netloc}"
        self.result: str | None = None
        self._httpd: http.server.HTTPServer | None = None

    def _handler(self):
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path != outer.path or outer.result is not None:
                    self.send_error(404)
                    return
                outer.result = outer.origin + self.path
                query = parse_qs(parts.query)
                if "error" in query:
                    title, pid = "Login did not complete", "error"
                    text = html.escape(f"{query['error'][0]}: {(query.get('error_description') or [''])[0]}")
                else:
                    title, pid, text = "Login received", "done", "You can close this tab and return to the notebook."
                body = _DONE_PAGE.format(title=title, pid=pid, text=text).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # the request line carries the code: never log it
                pass

        return Handler

    def __enter__(self) -> "LoopbackServer":
        try:
            self._httpd = http.server.HTTPServer(("127.0.0.1", self.port), self._handler())
        except OSError as exc:
            raise ToolkitError(f"cannot listen on 127.0.0.1:{self.port} for the login redirect ({exc.strerror}); "
                               "stop what uses the port, or use authorize_url() and complete()") from None
        return self

    def wait(self) -> str:
        """Serve until the redirect arrives; return the full redirect URL (it carries the code: keep private)."""
        if self._httpd is None:
            raise ToolkitError("the loopback server is not running (use it in a with block)")
        deadline = time.monotonic() + self.timeout
        while self.result is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ToolkitError(f"no login redirect reached {self.redirect_uri} within {self.timeout:g} s; "
                                   "log in again (or use authorize_url() and complete())")
            self._httpd.timeout = min(0.5, left)
            self._httpd.handle_request()
        return self.result

    def close(self) -> None:
        if self._httpd is not None:
            self._httpd.server_close()
            self._httpd = None

    def __exit__(self, *exc):
        self.close()


def _has_gui_browser() -> bool:
    """webbrowser.open on a Linux box without a display would start a console browser: do not."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("BROWSER"))
    return True


class OAuthArea(Area):
    """The authorization host: authorize URL, code exchange, refresh, ID token verification, discovery, logout."""

    def __init__(self, client):
        super().__init__(client)
        self.token: Token | None = None
        self._jwks: tuple[float, jwt.PyJWKSet] | None = None
        self._browser = None  # headless browser (cookie jar) of the sandbox login
        self._browser_user: str | None = None  # the e-mail whose account session that browser holds

    # ------------------------------------------------------------------ helpers
    def _client_id(self) -> str:
        return self.credentials.need("rest_api_key").reveal()

    def _redirect_uri(self, redirect_uri: str | None) -> str:
        uri = redirect_uri or self.client.credentials.redirect_uri
        if not uri:
            raise ParameterError("redirect_uri", "give a redirect URI registered for the app (or configure one)")
        return uri

    def _now(self) -> float:
        """The service's time: the sandbox clock in the sandbox, else the client's clock (the local clock; in a replay,
        when the answer replayed last was recorded)."""
        if self.client.sandbox is not None:
            return float(self.client.sandbox.clock()["unix"])
        return self.client.core.clock()

    # ------------------------------------------------------------------ authorize
    def authorize_url(self, scope=None, *, redirect_uri: str | None = None, prompt=None, login_hint: str | None = None,
                      service_terms=None, state: str | None = None, nonce: str | None = None) -> AuthRequest:
        """Build ``GET {auth_url}/oauth/authorize`` with fresh ``state``, ``nonce`` and a PKCE S256 pair.

        Spec: identity §4.1 authorization request.

        >>> req = tk.oauth.authorize_url(["profile", "friends"]); req.url   # doctest: +SKIP
        """
        prompts = _list(prompt, "prompt")
        if prompts:
            bad = [p for p in prompts if p not in PROMPTS]
            if bad:
                raise ParameterError("prompt", f"each must be one of {', '.join(PROMPTS)}", bad)
        verifier, challenge = pkce_pair()
        req_state = state or secrets.token_urlsafe(16)
        req_nonce = nonce or secrets.token_urlsafe(16)
        uri = self._redirect_uri(redirect_uri)
        params = {"client_id": self._client_id(), "redirect_uri": uri, "response_type": "code",
                  "scope": ",".join(check_scopes(_items(scope, "scope"), "scopes"))
                           if scope is not None else None,
                  "prompt": ",".join(prompts) if prompts else None, "login_hint": login_hint,
                  "service_terms": ",".join(_items(service_terms, "service_terms")) if service_terms else None,
                  "state": req_state, "nonce": req_nonce, "code_challenge": challenge,
                  "code_challenge_method": "S256"}
        query = urlencode({k: v for k, v in params.items() if v is not None})
        return AuthRequest(f"{self.client.hosts.auth}/oauth/authorize?{query}", uri, req_state, req_nonce, verifier)

    def logout_url(self, logout_redirect_uri: str | None = None, state: str | None = None) -> str:
        """``GET {auth_url}/oauth/logout``: logs the browser out of the service and the account.

        Spec: identity §4.4 logout of the account session.

        >>> tk.oauth.logout_url("http://localhost:8765/bye", state="s1")   # doctest: +SKIP
        """
        uri = logout_redirect_uri or (self.client.credentials.extra.get("logout_redirect_uris") or [None])[0]
        if not uri:
            raise ParameterError("logout_redirect_uri", "give a logout redirect URI registered for the app")
        q = {"client_id": self._client_id(), "logout_redirect_uri": uri, **({"state": state} if state else {})}
        return f"{self.client.hosts.auth}/oauth/logout?{urlencode(q)}"

    # ------------------------------------------------------------------ token endpoint
    def _token_call(self, data: dict, name: str) -> Call:
        secret = self.client.credentials.client_secret
        if secret is not None:
            data["client_secret"] = secret
        return Call("POST", "auth", "/oauth/token", NO_AUTH, data=data, name=name)

    @endpoint("POST", "auth", "/oauth/token")
    def exchange_code(self, code: str, *, redirect_uri: str | None = None, code_verifier=None,
                      nonce: str | None = None, verify: bool = True, use: bool = True):
        """``POST /oauth/token`` (authorization_code): a :class:`Token`; its ID token verified (``nonce`` checked).

        Spec: identity §4.2 token (grant type authorization_code).

        >>> tk.oauth.exchange_code(code, code_verifier=req.code_verifier)   # doctest: +SKIP
        """
        if not code:
            raise ParameterError("code", "the authorization code is required")
        data = {"grant_type": "authorization_code", "client_id": self._client_id(),
                "redirect_uri": self._redirect_uri(redirect_uri), "code": code,
                "code_verifier": Secret(code_verifier) if code_verifier is not None else None}
        body = yield self._token_call(data, "oauth.exchange_code")
        return (yield from self._accept(body, nonce, verify, use))

    def _accept(self, body: dict, nonce, verify: bool, use: bool, previous: Token | None = None):
        now = yield from self._now_flow()
        tok = Token.from_response(body, now, previous)
        if tok.id_token is not None and verify:
            tok.claims = yield from self._verify_flow(tok.id_token.reveal(), nonce, now)
        elif previous is not None and tok.id_token is None:
            tok.claims = previous.claims
        if use:
            self.token = tok
            self.client.use_token(tok.access_token, same_user=previous is not None)
        return tok

    def _now_flow(self):
        sandbox = self.client.sandbox
        if sandbox is not None:
            known = sandbox.now()        # a recent look-up or clock change: no request needed
            if known is not None:
                return known
            clock = yield Call("GET", "auth", "/sandbox/clock", base=sandbox.base_url, name="sandbox clock")
            sandbox.remember_clock(clock)
            return float(clock["unix"])
        return self.client.core.clock()

    @endpoint("POST", "auth", "/oauth/token")
    def refresh(self, token: Token | None = None, *, use: bool = True):
        """``POST /oauth/token`` (refresh_token): new access (and ID) token; the refresh token is replaced only when
        the service rotates it.

        Spec: identity §4.2 token (grant type refresh_token).

        >>> tk.oauth.refresh()   # doctest: +SKIP
        """
        tok = token or self.token
        if tok is None or tok.refresh_token is None:
            raise ParameterError("token", "no refresh token: log in first")
        data = {"grant_type": "refresh_token", "client_id": self._client_id(), "refresh_token": tok.refresh_token}
        body = yield self._token_call(data, "oauth.refresh")
        return (yield from self._accept(body, None, True, use, previous=tok))

    def refresh_flow(self):
        """A flow that refreshes :attr:`token` (used by other areas on a -401 answer).

        Spec: identity §4.2 token (grant type refresh_token).

        >>> tk.core.run(tk.oauth.refresh_flow())   # a flow: the core runs it (sync or async)  # doctest: +SKIP
        """
        tok = self.token
        data = {"grant_type": "refresh_token", "client_id": self._client_id(), "refresh_token": tok.refresh_token}
        body = yield self._token_call(data, "oauth.refresh")
        return (yield from self._accept(body, None, True, True, previous=tok))

    def fresh_flow(self, margin: float = REFRESH_MARGIN):
        """A flow run before calls with the login token: when fewer than ``margin`` seconds of the access token
        remain by the service's clock (the sandbox clock in the sandbox), refresh it first. Does nothing when the
        client does not use the login token, or the token cannot be refreshed (the call then meets -401).

        Spec: identity §4.2 token (refresh before expiry).

        >>> tk.core.run(tk.oauth.fresh_flow(margin=120))   # refreshes only when needed  # doctest: +SKIP
        """
        tok = self.token
        if tok is None or tok.refresh_token is None or tok.access_token != self.client.access_token:
            return tok
        now = yield from self._now_flow()
        if tok.expires_at.timestamp() - now >= margin:
            return tok
        if tok.refresh_expires_at is not None and tok.refresh_expires_at.timestamp() <= now:
            return tok
        return (yield from self.refresh_flow())

    def seconds_left(self) -> float | None:
        """Seconds until the login's access token expires, by the service's clock (None: not logged in).

        Spec: identity §2 token response (expires_in).

        >>> tk.oauth.seconds_left()   # doctest: +SKIP
        """
        if self.token is None:
            return None
        return self.token.expires_at.timestamp() - self._now()

    # ------------------------------------------------------------------ discovery, keys, verification
    @endpoint("GET", "auth", "/.well-known/openid-configuration")
    def openid_configuration(self):
        """``GET /.well-known/openid-configuration``.

        Spec: identity §4.10 OpenID Connect discovery.

        >>> tk.oauth.openid_configuration()["issuer"]   # doctest: +SKIP
        """
        return Call("GET", "auth", "/.well-known/openid-configuration", name="oauth.openid_configuration")

    @endpoint("GET", "auth", "/.well-known/ssf-configuration")
    def ssf_configuration(self):
        """``GET /.well-known/ssf-configuration``.

        Spec: identity §4.21 shared signals configuration.

        >>> tk.oauth.ssf_configuration()["jwks_uri"]   # doctest: +SKIP
        """
        return Call("GET", "auth", "/.well-known/ssf-configuration", name="oauth.ssf_configuration")

    @endpoint("GET", "auth", "/.well-known/jwks.json")
    def jwks(self):
        """``GET /.well-known/jwks.json`` (fetched fresh; verification uses a cached copy).

        Spec: identity §4.11 JSON Web Key set.

        >>> tk.oauth.jwks()["keys"][0]["kid"]   # doctest: +SKIP
        """
        return Call("GET", "auth", "/.well-known/jwks.json", name="oauth.jwks")

    @endpoint("POST", "auth", "/oauth/tokeninfo")
    def tokeninfo(self, id_token):
        """``POST /oauth/tokeninfo``: the service decodes an ID token (debugging only; verify it yourself).

        Spec: identity §4.12 ID token information.

        The answer is a :class:`~toolkit.secrets.Claims` dict: ``aud`` (the REST API key) shows masked,
        ``info["aud"]`` gives it.

        >>> tk.oauth.tokeninfo(tk.oauth.token.id_token)   # doctest: +SKIP
        """
        if not id_token:
            raise ParameterError("id_token", "an ID token is required")
        known = self._known_secrets()
        return Call("POST", "auth", "/oauth/tokeninfo", data={"id_token": Secret(id_token)}, name="oauth.tokeninfo",
                    parse=lambda body, response: Claims(body, known=known) if isinstance(body, dict) else body)

    def _keyset(self, force: bool = False):
        if force or self._jwks is None or time.monotonic() - self._jwks[0] > JWKS_TTL:
            body = yield Call("GET", "auth", "/.well-known/jwks.json", name="oauth.jwks")
            self._jwks = (time.monotonic(), jwt.PyJWKSet.from_dict(body))
        return self._jwks[1]

    def _verify_flow(self, id_token: str, nonce: str | None, now: float | None = None):
        try:
            header = jwt.get_unverified_header(id_token)
        except jwt.PyJWTError as exc:
            raise IdTokenError(f"ID token is not a JWT: {exc}") from None
        if header.get("alg") != "RS256":
            raise IdTokenError(f"ID token alg must be RS256, got {header.get('alg')!r}")
        kid = header.get("kid")
        if not kid:
            raise IdTokenError("ID token header has no kid")
        keyset = yield from self._keyset()
        key = next((k for k in keyset.keys if k.key_id == kid), None)
        if key is None:  # maybe the keys rotated: fetch once more
            keyset = yield from self._keyset(force=True)
            key = next((k for k in keyset.keys if k.key_id == kid), None)
        if key is None:
            raise IdTokenError(f"ID token kid {kid!r} is not in the service's JWKS")
        if now is None:
            now = yield from self._now_flow()
        try:
            claims = jwt.decode(id_token, key.key, algorithms=["RS256"], audience=self._client_id(),
                                issuer=self.client.hosts.auth, options={
                                    "verify_exp": False, "verify_iat": False, "verify_nbf": False,
                                    "require": ["iss", "aud", "sub", "iat", "exp"]})
        except jwt.PyJWTError as exc:
            raise IdTokenError(f"ID token rejected: {exc}") from None
        times = {}
        for name in ("exp", "iat", "nbf"):
            value = claims.get(name)
            if value is None and name == "nbf":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                    or value in (float("inf"), float("-inf")):
                raise IdTokenError(f"ID token {name} must be a NumericDate (seconds since 1970), got {value!r:.40}")
            times[name] = value
        if times["exp"] + LEEWAY <= now:
            raise IdTokenError("ID token has expired")
        if times["iat"] - LEEWAY > now:
            raise IdTokenError("ID token was issued in the future")
        if "nbf" in times and times["nbf"] - LEEWAY > now:
            raise IdTokenError("ID token is not valid yet (nbf is in the future)")
        if nonce is not None and claims.get("nonce") != nonce:
            raise IdTokenError("ID token nonce does not match the authorization request")
        return Claims(claims, known=self._known_secrets())

    def _known_secrets(self) -> tuple:
        """The app's keys: a claim equal to one shows masked (:class:`~toolkit.secrets.Claims`)."""
        creds = self.credentials
        return tuple(v for v in (creds.rest_api_key, creds.admin_key, creds.client_secret) if v)

    @endpoint
    def verify_id_token(self, id_token, nonce: str | None = None):
        """Verify an ID token: RS256 signature with the JWKS key of its ``kid``, ``iss`` = auth base URL, ``aud`` =
        REST API key, ``exp``/``iat`` against the service clock, ``nonce`` when given. Returns the claims.

        Spec: identity §2 ID token payload, §4.11 JSON Web Key set.

        >>> tk.oauth.verify_id_token(tk.oauth.token.id_token)["sub"]   # doctest: +SKIP
        """
        if not id_token:
            raise ParameterError("id_token", "an ID token is required")
        return (yield from self._verify_flow(id_token.reveal() if isinstance(id_token, Secret) else id_token, nonce))

    # ------------------------------------------------------------------ completing a login
    def complete(self, request: AuthRequest, redirect_url: str, *, use: bool = True) -> Token:
        """Finish a login from the URL the browser was redirected to (checks ``state``, exchanges the code).

        Spec: identity §4.1 authorization request (the redirect) and §4.2 token.

        >>> token = tk.oauth.complete(req, "http://localhost:8765/callback?code=...&state=...")   # doctest: +SKIP
        """
        code = code_from_redirect(redirect_url, request.state)
        return self.exchange_code(code, redirect_uri=request.redirect_uri, code_verifier=request.code_verifier,
                                  nonce=request.nonce, use=use)

    def login(self, email: str | None = None, password: str = "sandbox", *, user_id: int | None = None,
              scopes: Iterable[str] | None = None, prompt=None, service_terms=None, stay_logged_in: bool = False,
              agree: bool = True, optional: Iterable[str] | None = None, redirect_uri: str | None = None,
              browser: bool | None = None, open_browser: bool = True, timeout: float = 300.0) -> Token:
        """Log a user in with the full authorization-code flow and act as that user from now on.

        * In a browser (``browser=True``; the default against the real service, and in the sandbox when no
          e-mail/user_id is given): :meth:`login_in_browser` — the browser shows the login page, a loopback
          server catches the redirect (``open_browser``, ``timeout`` as there; ``email`` becomes ``login_hint``).
        * Headless (sandbox only, with ``email`` or ``user_id``): this method fills the login form (demo users:
          password ``sandbox``) and the consent form like a browser would (the account-session cookie persists on
          this client), then exchanges the code. ``agree=False`` presses Cancel (raises ``access_denied``);
          ``optional`` limits which optional scopes are ticked (default all).

        Hosted notebooks (no loopback to the browser): :meth:`authorize_url` and :meth:`complete`, or the
        LoginWidget.

        Spec: identity §4.1 authorization request and §4.2 token (headless in the sandbox).

        >>> tk.oauth.login("minji@sandbox.test", scopes=["profile", "friends"])   # doctest: +SKIP
        """
        if browser is None:
            browser = self.client.sandbox is None or (email is None and user_id is None)
        if browser:
            return self.login_in_browser(scopes, redirect_uri=redirect_uri, prompt=prompt, login_hint=email,
                                         service_terms=service_terms, open_browser=open_browser, timeout=timeout)
        if self.client.sandbox is None:
            raise ToolkitError("headless login exists only in the sandbox: use tk.login(scopes=...) (browser and "
                               "loopback callback), or open tk.oauth.authorize_url(...).url in a browser and pass "
                               "the redirect URL to tk.oauth.complete(...)")
        email, expected = self.demo_user(email, user_id)
        req = self.authorize_url(scopes, prompt=prompt, login_hint=email, service_terms=service_terms,
                                 redirect_uri=redirect_uri)
        url = self.user_side(req, email, password=password, stay_logged_in=stay_logged_in, agree=agree,
                             optional=optional)
        return self._finish_login(req, url, expected, email)

    def user_side(self, request: AuthRequest, email: str | None = None, *, user_id: int | None = None,
                  password: str = "sandbox", stay_logged_in: bool = False, agree: bool = True,
                  optional: Iterable[str] | None = None) -> str:
        """Sandbox only: the user's side of the authorization step — open ``request.url`` in this client's headless
        browser, log in as a demo user, agree (or Cancel, ``agree=False``) on the consent page — and return the URL
        the browser is sent back to (``code`` and ``state``, or ``error``), exchanging nothing. :meth:`login` is
        this, then the exchange; ``tk.sandbox.authorize(req, email)`` is the same step for a learner.

        Spec: identity §4.1 authorization request (the user's browser; sandbox only).

        >>> tk.oauth.user_side(tk.oauth.authorize_url(["profile"]), "minji@sandbox.test")   # doctest: +SKIP
        'http://localhost:8765/callback?code=...&state=...'
        """
        if self.client.sandbox is None:
            raise ToolkitError("the user's side of a login is played only in the sandbox: against the real service "
                               "the user opens request.url in a browser")
        if not isinstance(request, AuthRequest):
            raise ParameterError("request", "an authorization request of tk.oauth.authorize_url(...) is wanted, not "
                                 f"{type(request).__name__}")
        if not request.url.startswith(f"{self.client.hosts.auth}/oauth/authorize?"):
            raise ParameterError("request", "was not built for this sandbox (its URL opens another auth host): "
                                 "build it with this client's tk.oauth.authorize_url(...)")
        email, _ = self.demo_user(email, user_id)
        return self._drive(request, email, password, stay_logged_in, agree, optional)

    def demo_user(self, email: str | None, user_id: int | None) -> tuple[str, int]:
        """(e-mail, user id) of the demo user a headless sandbox login asks for; a :class:`ParameterError` for
        one the sandbox does not know (checked before any page is driven: no silent fallback to another user).

        Spec: identity §4.1 authorization request (the user who logs in; sandbox only).

        >>> tk.oauth.demo_user("jun@sandbox.test", None)       # doctest: +SKIP
        ('jun@sandbox.test', 4100000002)
        """
        if email is None and user_id is None:
            raise ParameterError("email", "give the e-mail (or user_id) of a demo user")
        users = self.client.sandbox.demo_users()
        if email is not None:
            match = [u for u in users if u["email"].lower() == str(email).strip().lower()]
            if not match:
                raise ParameterError("email", "not a demo user of the sandbox (see tk.sandbox.demo_users())", email)
            if user_id is not None and match[0]["id"] != int(user_id):
                raise ParameterError("user_id", f"is not the user of {email}", user_id)
        else:
            # user_id is not None here (the first check), which mypy sees inside the comprehension only so
            match = [u for u in users if user_id is not None and u["id"] == int(user_id)]
            if not match:
                raise ParameterError("user_id", "not a demo user of the sandbox", user_id)
        return match[0]["email"], int(match[0]["id"])

    def browser_for(self, email: str):
        """The headless browser for a login as ``email``: the current one while it holds that user's account
        session, else a new one (a different user starts a new session; the previous cookies are dropped).

        Spec: identity §4.1 authorization request (the account session of the login pages; sandbox only).

        >>> tk.oauth.browser_for("minji@sandbox.test")         # doctest: +SKIP
        """
        import httpx

        if self._browser is not None and (self._browser_user != email.lower() or self._browser.is_closed):
            self.forget_browser()
        if self._browser is None:
            from .http import LOOPBACK_DIRECT

            self._browser = self.client.core.own(httpx.Client(follow_redirects=False, mounts=LOOPBACK_DIRECT,
                                                              timeout=self.client.config.timeout))
            self._browser_user = email.lower()
        return self._browser

    @endpoint
    def _finish_login(self, req: AuthRequest, url: str, expected: int, email: str):
        """Exchange the code, then make sure the token is the asked user's before using it."""
        code = code_from_redirect(url, req.state)
        data = {"grant_type": "authorization_code", "client_id": self._client_id(),
                "redirect_uri": self._redirect_uri(req.redirect_uri), "code": code,
                "code_verifier": Secret(req.code_verifier) if req.code_verifier is not None else None}
        body = yield self._token_call(data, "oauth.exchange_code")
        tok = yield from self._accept(body, req.nonce, True, use=False)
        sub = (tok.claims or {}).get("sub")
        if sub is None:
            info = yield Call("GET", "api", "/v1/user/access_token_info", Bearer(tok.access_token),
                              name="user.access_token_info")
            sub = info.get("id")
        if str(sub) != str(expected):
            self.forget_browser()
            raise ToolkitError(f"the login as {email} ended as another user; the previous session was dropped, "
                               "try again")
        self.token = tok
        self.client.use_token(tok.access_token)
        return tok

    def loopback_redirect_uri(self) -> str | None:
        """The app's registered loopback redirect URI (``http://localhost:PORT/...``), if one is configured.

        Spec: identity §4.1 authorization request (redirect_uri).

        >>> tk.oauth.loopback_redirect_uri()   # doctest: +SKIP
        """
        candidates = [self.client.credentials.redirect_uri, *(self.client.credentials.extra.get("redirect_uris") or [])]
        return next((u for u in candidates if u and _is_loopback(u)), None)

    def login_in_browser(self, scopes: Iterable[str] | None = None, *, redirect_uri: str | None = None,
                         prompt=None, login_hint: str | None = None, service_terms=None, open_browser: bool = True,
                         timeout: float = 300.0, on_request=None) -> Token:
        """Log in through the user's browser and a one-shot loopback callback server.

        Builds the authorize URL (``state``, ``nonce``, PKCE S256), listens on 127.0.0.1 at the port of the
        loopback ``redirect_uri`` (default: the app's registered ``http://localhost:8765/callback``), opens the
        URL with :func:`webbrowser.open` (or prints it when ``open_browser=False`` or no graphical browser is
        available), waits at most ``timeout`` seconds for the redirect, stops the server, checks ``state``,
        exchanges the code and verifies the ID token. ``on_request(request)`` is called once the server
        listens (e.g. to hand the URL to another program). Blocks the calling thread; returns the :class:`Token`.

        Spec: identity §4.1 authorization request, §4.2 token (the user's browser).

        >>> tk.oauth.login_in_browser(["profile"])   # doctest: +SKIP
        """
        uri = redirect_uri or self.loopback_redirect_uri()
        if uri is None:
            raise ParameterError("redirect_uri", "the app has no loopback redirect URI (http://localhost:PORT/...) "
                                 "registered; register one, or use authorize_url() and complete()")
        req = self.authorize_url(scopes, redirect_uri=uri, prompt=prompt, login_hint=login_hint,
                                 service_terms=service_terms)
        cassette = getattr(self.client, "cassette", None)
        if cassette is not None and cassette.replaying:   # a replay: the recording's browser answers (toolkit.cassette)
            return self.complete(req, cassette.redirect(req))
        with LoopbackServer(uri, timeout) as server:
            if on_request is not None:
                on_request(req)
            opened = False
            if open_browser and _has_gui_browser():
                try:
                    opened = webbrowser.open(req.url)
                except webbrowser.Error:
                    opened = False
            if not opened and on_request is None:
                print(f"Open this address in a browser to log in (waiting up to {timeout:g} s):\n{req.url}",
                      flush=True)
            redirect_url = server.wait()
        return self.complete(req, redirect_url)

    def _drive(self, req: AuthRequest, email: str, password: str, stay: bool, agree: bool, optional) -> str:
        b = self.browser_for(email)
        base = self.client.hosts.auth + "/oauth/"

        def on_page(text: str, q: str):
            if "id='select'" in text:
                accounts = re.findall(r"name='account' value='(\d+)'>[^(]*\(([^)]+)\)", text)
                chosen = next((a for a, e in accounts if e.lower() == email.lower()), None)
                if chosen is None:
                    raise ToolkitError(f"{email} has no account session in this browser to select")
                return b.post(base + "select", data={"q": q, "account": chosen})
            if "id='consent'" in text:
                found = re.search(r"name='account' value='(\d+)'", text)
                if found is None:
                    raise ToolkitError("the sandbox's consent page names no account to consent for")
                account = found.group(1)
                scopes = re.findall(r"type='checkbox' name='scope' value='([^']+)'", text)
                terms = re.findall(r"type='checkbox' name='term' value='([^']+)'", text)
                keep = set(optional) if optional is not None else None
                data = {"q": q, "account": account, "action": "agree" if agree else "cancel",
                        "scope": [s for s in scopes if keep is None or s in keep], "term": terms}
                return b.post(base + "consent", data=data)
            return None

        return drive_pages(b, req.url, req.redirect_uri, login_url=base + "login",
                           login={"email": email, "password": password, **({"stay_logged_in": "true"} if stay else {})},
                           on_page=on_page, steps=6, what="the authorization flow")

    def forget_browser(self) -> None:
        """Drop the headless browser's account-session cookies (the next login shows the login form).

        Spec: identity §3 account session (the login session of the headless browser).

        >>> tk.oauth.forget_browser()   # doctest: +SKIP
        """
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        self._browser_user = None

    def __repr__(self):
        return f"<OAuthArea logged_in={self.token is not None}>"


# Endpoints answered by the user's browser, not by an HTTP call of the client: the client builds their URLs.
WRAPPED.setdefault(("GET", "auth", "/oauth/authorize"), []).append("toolkit.oauth.OAuthArea.authorize_url")
WRAPPED.setdefault(("GET", "auth", "/oauth/logout"), []).append("toolkit.oauth.OAuthArea.logout_url")
