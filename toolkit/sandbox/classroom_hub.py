"""The browser's student from the hub's own login: the class sandbox as a JupyterHub OAuth client.

Behind JupyterHub, the class sandbox runs as a hub service (``deploy/jupyterhub_config.py``) and learns who a
browser is the way hub services do, with the hub's OAuth for services (:class:`jupyterhub.services.auth.HubOAuth`,
configured by the environment the hub gives its service: ``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_CLIENT_ID``,
``JUPYTERHUB_API_URL``, ``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_OAUTH_CALLBACK_URL``,
``JUPYTERHUB_OAUTH_ACCESS_SCOPES``). The class sandbox is Starlette, not tornado, so it uses HubOAuth's public
pieces rather than its tornado handlers: ``login_url``, ``generate_pkce_code_challenge``, ``generate_state``,
``get_next_url``, ``get_code_verifier``, ``get_state_cookie_name``, ``clear_oauth_state``, ``token_for_code``
and ``user_for_token`` (the hub's own HTTP client makes the calls).

* A browser request through the hub's proxy (under the service's prefix) without the student's header (login
  pages, the demo app's callback page, fonts) and without a valid session cookie of the class sandbox's own is
  sent through the hub's OAuth
  (``/hub/api/oauth2/authorize``; the hub asks for its login first when the browser has none). A request that is
  not a page navigation (a font, a form post) gets HTTP 401 instead of a redirect.
* The callback (``/services/NAME/oauth_callback``) checks the OAuth state against its cookie, exchanges the code
  for the hub's token (PKCE where the hub supports it), asks the hub whose token it is and whether that user may
  use this service (``access:services!service=NAME``), and answers with the cookie ``HubOAuth.cookie_name``
  (``service-NAME``, HttpOnly, SameSite=Lax, under the service's prefix) holding a random session id. The hub's
  token stays in the class sandbox's memory; no cookie or URL ever holds it.
* Every request checks its session: the browser must still hold the hub's session cookie it had at the callback
  (``jupyterhub-session-id``: a new one at every hub login, cleared at logout), and the hub must still know the
  token and its user (asked on every request, never from a cache: the hub deletes a session's tokens at logout). A
  hub logout, or another hub user's login on the same browser, therefore never reaches the previous world: the
  browser is sent through the hub's OAuth again and comes back as whoever is logged in now.
* A single-use ticket (``?toolkit_ticket=``) binds nothing here: the hub's login is the browser's student. Outside
  a hub, and at the class sandbox's own address (kernels, with their header), nothing changes
  (:mod:`toolkit.sandbox.classroom`).

>>> HubLogin.from_environment({}) is None        # not a hub service: tickets, as outside a hub
True
"""
from __future__ import annotations

import os
import secrets as _secrets
import time
from urllib.parse import parse_qsl, quote, urlsplit

from ..secrets import Secret

__all__ = ["HubLogin", "CHECK_SECONDS", "HUB_SESSION_COOKIE", "STATES_MAX", "NEXT_URL_MAX"]

CHECK_SECONDS = 30
"""HubOAuth's ``cache_max_age`` for what it caches itself; a browser session's token is asked about on every request
(``use_cache=False``), so a hub logout ends the session at once, not up to this long later (a copied cookie pair
worked for 30 s after the hub's logout)."""
STATES_MAX = 4096
"""Logins under way (OAuth states, each holding the page to come back to) kept at most: anyone may start one, so past
this the oldest goes (HubOAuth alone keeps every one for 10 minutes: 14 KB URLs took the class sandbox from 84 to
1,009 MB in two 15-second floods)."""
NEXT_URL_MAX = 2048
"""The longest page address (path and query) a login comes back to; a longer one is answered HTTP 414."""
HUB_SESSION_COOKIE = "jupyterhub-session-id"
"""The hub's session cookie (path ``/``, not encrypted so that the hub's services may read it): a new value at every
hub login, cleared at logout."""
SESSION_SECONDS = 8 * 3600
"""How long a browser session made by the hub's login lasts at most (a school day); the hub's token ends it
sooner when it expires or the hub logs the browser out."""
SESSIONS_MAX = 20_000
"""Browser sessions held at most, all students together (the oldest goes first)."""
ENVIRONMENT = ("JUPYTERHUB_SERVICE_NAME", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID")
"""What a hub gives the services it runs (and a teacher sets for an external one): all three mean "behind a
hub"."""


class _Session:
    """One browser's session: the hub user's name, the hub's token (never shown), the hub session it was made in."""

    __slots__ = ("name", "token", "hub_session", "until", "generation")

    def __init__(self, name: str, token: str, hub_session: str | None, until: float, generation: int):
        self.name, self.token, self.hub_session = name, Secret(token), hub_session
        self.until, self.generation = until, generation

    def __repr__(self) -> str:
        return f"<hub session of {self.name!r}>"


def _cookies(scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, raw in scope["headers"]:
        if key == b"cookie":
            for part in raw.decode("latin-1").split(";"):
                name, sep, value = part.strip().partition("=")
                if sep:
                    out[name] = value
    return out


def _header(scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


class HubLogin:
    """The class sandbox's side of the hub's OAuth for services (see the module docstring).

    ``auth`` is a :class:`jupyterhub.services.auth.HubOAuth`; :meth:`from_environment` makes one from what the hub
    gives its service (None where the class sandbox is not a hub service). ``sessions_per_student`` bounds one
    student's browser sessions (a new one replaces their own oldest).

    >>> login = HubLogin.from_environment({"JUPYTERHUB_SERVICE_NAME": "toolkit-classroom",   # doctest: +SKIP
    ...     "JUPYTERHUB_API_TOKEN": "...", "JUPYTERHUB_CLIENT_ID": "service-toolkit-classroom",
    ...     "JUPYTERHUB_SERVICE_PREFIX": "/services/toolkit-classroom/"})
    >>> login.cookie_name                                                                    # doctest: +SKIP
    'service-toolkit-classroom'
    """

    def __init__(self, auth, *, sessions_per_student: int = 16):
        self.auth = auth
        self.sessions: dict[str, _Session] = {}
        self.sessions_per_student = int(sessions_per_student)
        self.callback_path = urlsplit(auth.oauth_redirect_uri).path
        self.cookie_name = auth.cookie_name
        self.cookie_path = auth.cookie_path
        self.pkce = bool(getattr(auth, "pkce_enabled", False)) and hasattr(auth, "generate_pkce_code_challenge")
        self.states: dict[str, None] = {}          # the OAuth states this process made, oldest first (STATES_MAX)

    def __repr__(self) -> str:
        return f"<HubLogin {self.cookie_name} sessions={len(self.sessions)}>"

    @classmethod
    def from_environment(cls, environ=None, **kw) -> "HubLogin | None":
        """A :class:`HubLogin` when ``environ`` (default: this process's) is a hub service's, else None.

        HubOAuth reads its settings from this process's environment; ``environ`` only decides whether there is a
        hub. Without the ``jupyterhub`` package a :class:`~toolkit.classroom.ClassroomError` says to install it."""
        from ..classroom import ClassroomError

        environ = os.environ if environ is None else environ
        if not all(environ.get(k) for k in ENVIRONMENT):
            return None
        try:
            from jupyterhub.services.auth import HubOAuth
        except ImportError:
            raise ClassroomError("the class sandbox runs as a hub service (JUPYTERHUB_API_TOKEN is set) but cannot "
                                 "import jupyterhub: install jupyterhub in its environment (pip install "
                                 "jupyterhub), which the hub's login for services needs") from None
        return cls(HubOAuth(cache_max_age=CHECK_SECONDS), **kw)

    # ------------------------------------------------------------------ one request
    async def identify(self, scope, send, path: str) -> "str | None":
        """The hub user of this browser request (a student's name), or None once the request has been answered
        (sent through the hub's OAuth, the OAuth callback completed, or refused). ``path`` is the request's path
        as the browser sent it (with the service's prefix)."""
        if path == self.callback_path:
            await self._callback(scope, send)
            return None
        cookies = _cookies(scope)
        sid = cookies.get(self.cookie_name)
        held = self.sessions.get(sid) if sid else None
        if sid and held is not None:
            name = await self._check(held, cookies.get(HUB_SESSION_COOKIE) or None)
            if name is not None:
                return name
            self.sessions.pop(sid, None)
        await self._to_login(scope, send, path, cookies)
        return None

    async def _check(self, held: _Session, hub_session: str | None) -> "str | None":
        if held.until < time.monotonic() or held.hub_session != hub_session:
            return None                         # a hub logout, or another hub user's login, on this browser
        if held.generation != self.generation(held.name):
            return None                         # the student's token was revoked
        model = await self._user(held.token.reveal(), hub_session)
        if model is None or model.get("name") != held.name:
            return None                         # the hub no longer knows the token (logged out, expired)
        return held.name

    async def _user(self, token: str, hub_session: str | None) -> "dict | None":
        from tornado.web import HTTPError

        try:
            return await self.auth.user_for_token(token, use_cache=False, session_id=hub_session or "", sync=False)
        except HTTPError:
            return None

    # ------------------------------------------------------------------ to the hub's login
    async def _to_login(self, scope, send, path: str, cookies: dict) -> None:
        from .classroom import _json

        navigation = (_header(scope, b"sec-fetch-mode") or b"navigate") == b"navigate"
        if scope["method"] not in ("GET", "HEAD") or not navigation:
            await _json(send, 401, {"msg": "log in to the hub first: open this class sandbox's page in the browser "
                                           "(the hub's login brings you back)", "code": -401},
                        [(b"www-authenticate", b'Hub realm="toolkit-classroom"')])
            return
        query = scope.get("query_string", b"").decode("latin-1")
        next_url = quote(path) + ("?" + query if query else "")
        if len(next_url) > NEXT_URL_MAX:
            await _json(send, 414, {"msg": f"this address is longer than {NEXT_URL_MAX} characters", "code": -414})
            return
        extra = {}
        params: dict[str, str] = {}
        if self.pkce:
            verifier, challenge, method = self.auth.generate_pkce_code_challenge()
            extra["code_verifier"] = verifier
            params.update(code_challenge=challenge, code_challenge_method=method)
        cookie_name = self.auth.state_cookie_name
        if cookie_name in cookies:              # another login under way in this browser: a cookie of its own
            cookie_name = f"{cookie_name}-{_secrets.token_hex(4)}"
            extra["cookie_name"] = cookie_name
        while len(self.states) >= STATES_MAX:          # anyone may start a login: the oldest one goes
            self.auth.clear_oauth_state(self._oldest_state())
        state = self.auth.generate_state(next_url, **extra)
        self.states[state] = None
        params["state"] = state
        from urllib.parse import urlencode

        login = self.auth.login_url + ("&" if "?" in self.auth.login_url else "?") + urlencode(params)
        await _redirect(send, login, [self._cookie(cookie_name, state, 600, scope)])

    # ------------------------------------------------------------------ back from the hub
    async def _callback(self, scope, send) -> None:
        from .classroom import _json

        query: dict[str, str] = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        cookies = _cookies(scope)
        if "error" in query:
            await _json(send, 400, {"msg": "the hub's login did not complete: "
                                           + query.get("error_description", query["error"])[:200], "code": -400})
            return
        code, state = query.get("code"), query.get("state")
        if not code or not state:
            await _json(send, 400, {"msg": "an OAuth callback needs code and state: open the page again", "code": -400})
            return
        cookie_name = self.auth.get_state_cookie_name(state)
        clear = [self._cookie(k, "", 0, scope) for k in cookies if k.startswith(self.auth.state_cookie_name)]
        if cookies.get(cookie_name) != state:
            await _json(send, 403, {"msg": "the OAuth state does not match this browser's: open the page again",
                                    "code": -403}, clear)
            return
        next_url = self.auth.get_next_url(state)
        verifier = self.auth.get_code_verifier(state)
        self.auth.clear_oauth_state(state)
        self.states.pop(state, None)
        if self.pkce and not verifier:          # the state is not (or no longer) this process's
            await _json(send, 403, {"msg": "this login has expired: open the page again", "code": -403}, clear)
            return
        from tornado.web import HTTPError

        hub_session = cookies.get(HUB_SESSION_COOKIE) or None
        try:
            token = await self.auth.token_for_code(code, code_verifier=verifier, sync=False)
            model = await self.auth.user_for_token(token, session_id=hub_session or "", sync=False)
        except HTTPError:
            model = None
        if model is None:
            await _json(send, 403, {"msg": "the hub did not confirm this login: open the page again", "code": -403},
                        clear)
            return
        refusal = self._refusal(model)
        if refusal:
            await _json(send, 403, {"msg": refusal, "code": -403}, clear)
            return
        sid = self._new_session(model["name"], token, hub_session)
        location = next_url if next_url.startswith("/") and not next_url.startswith("//") else self.auth.base_url
        await _redirect(send, location, [*clear, self._cookie(self.cookie_name, sid, SESSION_SECONDS, scope)])

    def _refusal(self, model: dict) -> "str | None":
        from jupyterhub.services.auth import check_scopes

        from ..classroom import NAME_RE

        if model.get("kind", "user") != "user" or not isinstance(model.get("name"), str):
            return "only the hub's users have a world here"
        if not NAME_RE.fullmatch(model["name"]):
            return f"the hub user {model['name'][:64]!r} has no world here (a name of letters, digits, _ . @ + -)"
        wanted = self.auth.access_scopes
        try:
            allowed = not wanted or bool(check_scopes(wanted, set(model.get("scopes") or ())))
        except (ValueError, TypeError):          # scopes the hub's own parser does not read
            allowed = False
        if not allowed:
            return f"the hub does not let {model['name']!r} use this service (it needs {', '.join(sorted(wanted))})"
        return None

    def _new_session(self, name: str, token: str, hub_session: str | None) -> str:
        now = time.monotonic()
        for key in [k for k, s in self.sessions.items() if s.until < now]:
            del self.sessions[key]
        mine = [k for k, s in self.sessions.items() if s.name == name]
        for key in mine[:max(0, len(mine) - self.sessions_per_student + 1)]:
            del self.sessions[key]
        while len(self.sessions) >= SESSIONS_MAX:
            del self.sessions[next(iter(self.sessions))]
        sid = _secrets.token_urlsafe(24)
        self.sessions[sid] = _Session(name, token, hub_session, now + SESSION_SECONDS, self.generation(name))
        return sid

    def _oldest_state(self) -> str:
        oldest = next(iter(self.states))
        del self.states[oldest]
        return oldest

    @staticmethod
    def generation(name: str) -> int:
        """A student's token generation (the class sandbox sets its own: a revoked student's sessions end)."""
        return 0

    def forget(self, name: str) -> int:
        """End every browser session of ``name`` (a revoked student); returns how many ended."""
        keys = [k for k, s in self.sessions.items() if s.name == name]
        for key in keys:
            del self.sessions[key]
        return len(keys)

    def _cookie(self, name: str, value: str, max_age: int, scope) -> tuple[bytes, bytes]:
        secure = (scope.get("scheme") == "https" or (_header(scope, b"x-forwarded-proto") or b"").split(b",")[0]
                  .strip() == b"https" or bool(self.auth.cookie_options.get("secure")))
        text = (f"{name}={value}; Path={self.cookie_path}; Max-Age={max_age}; HttpOnly; SameSite=Lax"
                + ("; Secure" if secure else ""))
        return b"set-cookie", text.encode("latin-1")


async def _redirect(send, location: str, headers=()) -> None:
    await send({"type": "http.response.start", "status": 302,
                "headers": [(b"location", location.encode("latin-1")), (b"content-length", b"0"),
                            (b"cache-control", b"no-store"), *headers]})
    await send({"type": "http.response.body", "body": b""})
