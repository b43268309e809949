"""The client: one object per app (and optionally per logged-in user), with one attribute per API area.

>>> import toolkit
>>> tk = toolkit.connect()                   # doctest: +SKIP
>>> tk.status.current()                      # doctest: +SKIP
>>> tk.system.ips(rule_type="inbound")       # doctest: +SKIP

Areas are loaded lazily on first use (``tk.status``, ``tk.local``, ...). The async client shares every line
of area code: ``atk = toolkit.connect_async(); await atk.status.current()``.
"""
from __future__ import annotations

import atexit
import dataclasses
import importlib
import os
import time
import threading
import weakref
from typing import Any, Callable

from .config import APP_KEY_SCHEME, Config, Credentials, Hosts
from .errors import ConfigurationError, InvalidTokenError, ToolkitError
from .mapassets import note_binding
from .http import AdminFor, Bearer, Call, RequestCore, ServiceAK
from .secrets import Secret, masked

__all__ = ["Client", "AsyncClient", "connect", "connect_async", "ConfigurationError", "AREAS", "latest_client"]

# attribute → "module:Class" of the area. Each area module depends only on the core, never on another area.
AREAS: dict[str, str] = {
    "status": "toolkit.utility:StatusArea",
    "system": "toolkit.utility:SystemArea",
    "oauth": "toolkit.oauth:OAuthArea",
    "user": "toolkit.user:UserArea",
    "business": "toolkit.business:BusinessArea",
    "story": "toolkit.story:StoryArea",
    "talk": "toolkit.talk:TalkArea",
    "channel": "toolkit.channel:ChannelArea",
    "local": "toolkit.local:LocalArea",
    "navi": "toolkit.navi:NaviArea",
    "events": "toolkit.events:EventsArea",
}

_LATEST: list = []          # weak references to the newest clients, oldest first


def latest_client() -> "Client | None":
    """The newest client of the process still in use (its most recent ``toolkit.connect()``), or None before
    any. In a class that is the student's client, bound to the student's world; the lessons' self-check
    (:mod:`toolkit.lessons`) reads the learner's world through it.

    >>> toolkit.client.latest_client() is tk        # doctest: +SKIP
    True
    """
    for ref in reversed(_LATEST):
        client = ref()
        if client is not None:
            return client
    return None


class Client:
    """Synchronous client. Build it with :func:`connect`.

    ``tk.token`` holds the logged-in user's access token (a :class:`~toolkit.secrets.Secret`); calls that act
    on a user take ``target_id=`` to use the admin-key mode instead.
    """

    _async = False

    def __init__(self, config: Config, *, sandbox: "SandboxHandle | None" = None, transport=None,
                 async_transport=None, access_token: "str | Secret | None" = None):
        self.config = config
        self.core = RequestCore(config, transport=transport, async_transport=async_transport)
        self.sandbox = sandbox
        self.access_token: Secret | None = Secret(access_token) if access_token is not None else None
        self.cassette = None      # the toolkit.cassette.Cassette of connect(record=...) / connect(replay=...)
        self._areas: dict[str, Any] = {}
        self._user_listeners: list = []
        if sandbox is not None:
            sandbox._owner = weakref.ref(self)   # its authorize() plays the user in this client's browser
        note_binding(self)        # maps of this process default to this client's base layer (toolkit.mapassets)
        _LATEST.append(weakref.ref(self))   # the lessons' self-check judges this client's world (latest_client)
        del _LATEST[:-8]

    # ------------------------------------------------------------------ areas
    def __getattr__(self, name: str):
        if name.startswith("_") or name not in AREAS:
            raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}; areas: {', '.join(AREAS)}")
        area = self._areas.get(name)
        if area is None:
            module, cls = AREAS[name].split(":")
            area = getattr(importlib.import_module(module), cls)(self)
            self._areas[name] = area
        return area

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(AREAS))

    # ------------------------------------------------------------------ running calls
    def _run(self, op):
        return self.core.run(self._guarded(op))

    def _uses_login_token(self, call: Call) -> bool:
        login = getattr(self._areas.get("oauth"), "token", None)   # the token of tk.login(...), if any
        return (isinstance(call.auth, Bearer) and login is not None and self.access_token is not None
                and call.auth.token == self.access_token and login.access_token == self.access_token)

    def _guarded(self, op):
        """Run ``op`` (a call or a flow) so that every call made with the login token, in every area, first
        refreshes the token when it is about to expire and, on a -401 answer, refreshes once and retries (a 401
        means the service did not act, so even a message send is safe to repeat)."""
        if isinstance(op, Call):
            op = _single(op)
        value, error = None, None
        while True:
            try:
                call = op.throw(error) if error is not None else op.send(value)
            except StopIteration as stop:
                return stop.value
            value, error = None, None
            try:
                if self._uses_login_token(call):
                    yield from self.oauth.fresh_flow()
                    call = dataclasses.replace(call, auth=Bearer(self.access_token))
                    try:
                        value = yield call
                    except InvalidTokenError:
                        token = self.oauth.token
                        if token is None or token.refresh_token is None:
                            raise
                        yield from self.oauth.refresh_flow()
                        value = yield dataclasses.replace(call, auth=Bearer(self.access_token))
                else:
                    value = yield call
            except ToolkitError as exc:
                error = exc

    @property
    def last_response(self):
        """The last raw ``httpx.Response`` (its ``.json()`` is the untouched API answer)."""
        return self.core.last_response

    # ------------------------------------------------------------------ auth helpers for area code
    @property
    def credentials(self) -> Credentials:
        return self.config.credentials

    @property
    def hosts(self) -> Hosts:
        return self.config.hosts

    def _need(self, name: str) -> Secret:
        return self.credentials.need(name)

    def rest_auth(self) -> ServiceAK:
        """``ServiceAK <REST API key>``."""
        return ServiceAK(self._need("rest_api_key"), scheme=self.credentials.app_key_scheme)

    def admin_auth(self) -> ServiceAK:
        """``ServiceAK <admin key>`` (no target user)."""
        return ServiceAK(self._need("admin_key"), kind="admin_key", scheme=self.credentials.app_key_scheme)

    def user_auth(self, target_id: int | None = None):
        """The 'token or admin key' mode: the logged-in user's token, or the admin key for ``target_id``."""
        if target_id is not None:
            return AdminFor(self._need("admin_key"), target_id, scheme=self.credentials.app_key_scheme)
        if self.access_token is None:
            raise ConfigurationError("no user is logged in: log in first (tk.login(...)) or pass target_id= "
                                     "to act on a user with the admin key")
        return Bearer(self.access_token)

    def login_as(self, user_id: int | None = None, *, email: str | None = None, scopes=()) -> "Client":
        """Sandbox only: log a demo user in (consenting ``scopes``) and act as that user from now on.

        >>> tk = toolkit.connect().login_as(4100000001, scopes=["profile", "friends"])   # doctest: +SKIP
        """
        if self.sandbox is None:
            raise ConfigurationError("login_as() acts as the end user and exists only in the sandbox; "
                                     "log in with the OAuth flow against the real service")
        tokens = self.sandbox.login(user_id, email=email, scopes=scopes)
        self.tokens = tokens
        return self.use_token(tokens["access_token"])

    def login(self, *args, **kwargs):
        """Log a user in with the OAuth flow (headless in the sandbox); see :meth:`toolkit.oauth.OAuthArea.login`."""
        return self.oauth.login(*args, **kwargs)

    def use_token(self, access_token: "str | Secret | None", *, same_user: bool = False) -> "Client":
        """Act as the user of this access token from now on (None forgets it).

        Unless ``same_user`` (a refreshed token of the same login), the listeners of :meth:`on_user_change` are
        told, e.g. a :class:`~toolkit.widgets.ConsentPanel` shows the new user's consent."""
        before = self.access_token
        self.access_token = Secret(access_token) if access_token is not None else None
        if not same_user and self.access_token != before:
            for listener in list(self._user_listeners):
                try:
                    listener(self)
                except Exception as exc:  # noqa: BLE001 — a display hook must not break the login itself
                    import warnings

                    warnings.warn(f"a user-change listener failed: {type(exc).__name__}: {exc}", stacklevel=2)
        return self

    def on_user_change(self, listener: "Callable[[Client], None]") -> "Callable[[], None]":
        """Call ``listener(client)`` whenever the client starts acting as another user (a login, ``login_as``,
        ``use_token``, a logout); not on a token refresh. Returns a function that removes the listener.

        >>> stop = tk.on_user_change(lambda c: print("now:", c.user.me()["id"]))   # doctest: +SKIP
        >>> stop()                                                                  # doctest: +SKIP
        """
        self._user_listeners.append(listener)

        def remove():
            if listener in self._user_listeners:
                self._user_listeners.remove(listener)
        return remove

    # ------------------------------------------------------------------ misc
    def __repr__(self) -> str:
        where = "embedded sandbox" if self.sandbox else "service"   # also a class world's (stored outputs match)
        if self.cassette is not None and self.cassette.replaying:
            where = f"replay of {self.cassette.path.name if self.cassette.path else 'a cassette'}"
        user = "user token set" if self.access_token else "no user token"
        return (f"<{type(self).__name__} {where} auth={self.hosts.auth} "
                f"rest_api_key={self.credentials.rest_api_key} {user}>")

    def close(self):
        """Close the client's connections (also done when it is garbage-collected or at exit).

        >>> with toolkit.connect() as tk:        # doctest: +SKIP
        ...     tk.status.current()
        """
        self.core.close()
        if self.sandbox is not None:
            self.sandbox.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _single(call: Call):
    return (yield call)


class AsyncClient(Client):
    """The async twin: same areas, every call returns an awaitable."""

    _async = True

    def _run(self, op):
        return self.core.arun(self._guarded(op))

    async def aclose(self):
        """Close every connection of the client (also done when it is garbage-collected or at exit).

        >>> async with toolkit.connect_async() as atk:   # doctest: +SKIP
        ...     await atk.status.current()
        """
        await self.core.aclose()
        if self.sandbox is not None:
            self.sandbox.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.aclose()


# ---------------------------------------------------------------------- the embedded sandbox
class SandboxHandle:
    """The sandbox a client is bound to: its base URL and its control API (``/sandbox/...``).

    The control API lets a notebook act as the end user or the platform (advance the clock, set an
    incident, ...). It is not part of the service; it exists only in the sandbox.
    """

    CLOCK_MAX_AGE = 60.0
    """Seconds a sandbox time learned from the control API is trusted for (see :meth:`now`)."""

    def __init__(self, base_url: str, server=None, *, headers: "dict[str, str] | None" = None,
                 student: str | None = None, browser_url: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.server = server
        self.headers = dict(headers or {})   # sent with every control call (a class sandbox's world header)
        self.student = student               # the student whose world of a class sandbox this is (None: not one)
        self.browser_url = browser_url.rstrip("/") if browser_url else None   # where a browser reaches it
        self._core: RequestCore | None = None
        self._clock_seen: tuple[float, bool, float] | None = None   # (sandbox unix, frozen, local monotonic)
        self._owner: "Callable[[], Client | None] | None" = None     # the client bound to it (authorize's browser)

    def _call(self, method: str, path: str, **kw):
        if self._core is None:
            from .config import Config as _C

            self._core = RequestCore(_C(hosts=Hosts.on_one_port(self.base_url), credentials=Credentials()))
            self._core.headers.update(self.headers)
        result = self._core.run(Call(method, "auth", path, base=self.base_url, name=f"sandbox {path}", **kw))
        if path == "/sandbox/clock":
            self.remember_clock(result)
        return masked(result)    # keys and tokens in control-API answers show masked; lookups give the values

    @property
    def browser_base(self) -> str:
        """The sandbox's address as the user's browser reaches it: :attr:`browser_url` when set (a class sandbox
        behind a hub's proxy: ``TOOLKIT_CLASSROOM_BROWSER_URL``, e.g. ``/services/toolkit-classroom``), else
        :attr:`base_url`. Login pages open there (maps take their tiles from the Jupyter server the notebook is
        shown by: :mod:`toolkit.jupyter.tiles`)."""
        return self.browser_url or self.base_url

    def browser_link(self, url: str) -> str:
        """``url`` (a page of this sandbox, e.g. a login request's) as the user's browser opens it: at
        :attr:`browser_base`, and for a world of a class sandbox with a single-use ticket that binds the browser
        to the student's world (the link never carries the student's token). Other URLs are returned as given.

        >>> SandboxHandle("http://127.0.0.1:8000").browser_link("http://127.0.0.1:8000/oauth/authorize?x=1")
        'http://127.0.0.1:8000/oauth/authorize?x=1'
        """
        if not (url == self.base_url or url.startswith((self.base_url + "/", self.base_url + "?"))):
            return url
        link = self.browser_base + url[len(self.base_url):]
        if self.student is None:
            return link
        from .classroom import ticket_url

        return ticket_url(link, self._call("POST", "/classroom/ticket")["ticket"])

    def remember_clock(self, described) -> None:
        """Note the sandbox time of a clock description (``{"unix": ..., "frozen": ...}``)."""
        if isinstance(described, dict) and "unix" in described and "frozen" in described:
            self._clock_seen = (float(described["unix"]), bool(described["frozen"]), time.monotonic())

    def now(self) -> float | None:
        """The sandbox time estimated from the last clock this handle saw (advancing with real time unless the
        clock is frozen), or None when unknown or older than :data:`CLOCK_MAX_AGE` seconds. A clock moved by
        another client is noticed at the next look-up; token refreshes then fall back on the -401 path."""
        if self._clock_seen is None:
            return None
        unix, frozen, seen = self._clock_seen
        age = time.monotonic() - seen
        if age > self.CLOCK_MAX_AGE:
            return None
        return unix if frozen else unix + age

    def config(self) -> dict:
        """Hosts and the demo app's credentials as the sandbox reports them; keys show masked, a lookup
        (``config()["app"]["rest_api_key"]``) gives the value: keep it private."""
        return self._call("GET", "/sandbox/config")

    def create_app(self, name: str = "Sandbox App", *, redirect_uris=None, logout_redirect_uris=None,
                   web_domains=None, client_secret: bool = True, consent_items=None, service_terms=None,
                   channels=None) -> dict:
        """Register another app, set up as in a developer console: its ``redirect_uris`` (authorize checks them:
        KOE006), ``logout_redirect_uris``, ``web_domains`` (origins), ``client_secret`` on or off (off: the token
        endpoint takes no secret; on: a missing or wrong one is KOE010), the ``consent_items`` it asks for (scope
        id → ``"required"``/``"optional"``, or a list of ids) and the ``service_terms`` it shows
        (``[{"tag": ..., "required": True}]``). Unset settings are the demo app's. Returns the app's config with
        its keys (shown masked; ``app["rest_api_key"]`` gives the value).

        >>> app = tk.sandbox.create_app("My web app", redirect_uris=["https://localhost:5000/callback"],
        ...                             client_secret=False, consent_items={"profile": "required",
        ...                                                                 "talk_message": "optional"})  # doctest: +SKIP
        >>> mine = toolkit.connect(tk.hosts, rest_api_key=app["rest_api_key"])                       # doctest: +SKIP
        """
        body = _app_settings(redirect_uris=redirect_uris, logout_redirect_uris=logout_redirect_uris,
                             web_domains=web_domains, client_secret=client_secret, consent_items=consent_items,
                             service_terms=service_terms)
        body["name"] = name
        if channels is not None:
            body["channels"] = list(channels)
        return self._call("POST", "/sandbox/apps", json=body)

    def update_app(self, app_id, *, name: str | None = None, redirect_uris=None, logout_redirect_uris=None,
                   web_domains=None, client_secret: bool | None = None, consent_items=None,
                   service_terms=None) -> dict:
        """Change the settings of an app (those given; see :meth:`create_app`), e.g. turn its client secret off.

        >>> tk.sandbox.update_app(app["app_id"], client_secret=False)   # doctest: +SKIP
        """
        body = _app_settings(redirect_uris=redirect_uris, logout_redirect_uris=logout_redirect_uris,
                             web_domains=web_domains, client_secret=client_secret, consent_items=consent_items,
                             service_terms=service_terms)
        if name is not None:
            body["name"] = name
        return self._call("PATCH", f"/sandbox/apps/{app_id}", json=body)

    def world(self) -> dict:
        """The sandbox's city and its bounds, ``{"city": "Busan", "city_ko": ..., "bounds": [left, bottom, right,
        top]}`` (WGS84), asked once: calls about a point outside warn (``OutsideSandboxCityWarning``).

        >>> tk.sandbox.world()["city"]   # doctest: +SKIP
        'Busan'
        """
        if getattr(self, "_world", None) is None:
            config = self.server.config() if self.server is not None else self.config()
            self._world = dict(config.get("world") or {})
        return self._world

    def clock(self) -> dict:
        return self._call("GET", "/sandbox/clock")

    def advance(self, seconds: float = 0, *, minutes: float = 0, hours: float = 0, days: float = 0) -> dict:
        """Move the sandbox clock forward (expiry and 24-hour rules become testable)."""
        total = seconds + 60 * minutes + 3600 * hours + 86400 * days
        return self._call("POST", "/sandbox/clock", json={"advance": total})

    def freeze(self, at: str | None = "2026-11-20T09:00:00Z") -> dict:
        """Stop the sandbox clock (at ``at``, RFC 3339; None keeps the current instant): times in the answers
        no longer move, so a notebook's numbers match its stored page on every run. The clock then moves only
        by :meth:`advance`; :meth:`unfreeze` lets it tick again.

        >>> tk.sandbox.freeze()              # 2026-11-20 09:00 UTC, the sandbox's start  # doctest: +SKIP
        """
        body = {"freeze": True} if at is None else {"set": at, "freeze": True}
        return self._call("POST", "/sandbox/clock", json=body)

    def unfreeze(self) -> dict:
        """Let the sandbox clock tick with real time again (from the instant it shows now)."""
        return self._call("POST", "/sandbox/clock", json={"freeze": False})

    def incident(self, api: str, status: str = "RED", *, hours: float = 1, started_minutes_ago: float = 0,
                 note: str = "") -> dict:
        """Act as the platform: the API ``api`` (an ``apiId`` of the status API) has an incident of ``status``
        (``RED``, ``YELLOW``, ``MAINTENANCE``, ...) that began ``started_minutes_ago`` minutes before the sandbox
        clock and lasts ``hours``. The status API shows it from its next 5-minute refresh, on the API's row and,
        as its worst API, on its product's row. Returns the incident (``id``, ``start``, ``end`` in Unix seconds).

        >>> tk.sandbox.incident("local_search_keyword", "RED", hours=2, started_minutes_ago=10)   # doctest: +SKIP
        {'id': 1, 'api': 'local_search_keyword', 'status': 'RED', 'start': ..., 'end': ..., 'note': ''}
        """
        start = self.clock()["unix"] - 60 * started_minutes_ago
        return self._call("POST", "/sandbox/status/incidents",
                          json={"api": api, "status": status, "start": int(start), "hours": hours, "note": note})

    def incidents(self) -> list[dict]:
        """The incidents the sandbox plays (its seeded history and those added by :meth:`incident`), oldest first.

        >>> [i["api"] for i in tk.sandbox.incidents()][-1]        # doctest: +SKIP
        'local_search_keyword'
        """
        return self._call("GET", "/sandbox/status/incidents")

    def replay_consent_history(self) -> dict:
        """Act as the platform: replay the demo users' sign-ups of the week before the sandbox's start
        (``toolkit/data/users/consent_history.json``): nine demo users (도현 … 태양, not 민지, 준호 or 서연, whom the
        walkthroughs log in themselves) link to the demo app between 2026-11-13 and 2026-11-19 with varied
        consents, and some later agree to more scopes or withdraw one. The links, consents and the consent-event
        log (:meth:`consent_events`) then read as if it had happened; no webhook is sent for this past week.
        Done once per sandbox (a second call changes nothing and answers the same summary).

        >>> tk.sandbox.replay_consent_history()        # doctest: +SKIP
        {'users': 9, 'events': 30, 'first': '2026-11-13T01:12:00Z', 'last': '2026-11-19T08:30:00Z'}
        """
        return self._call("POST", "/sandbox/identity/consent-history")

    def set_quota(self, api: str, limit: int | None) -> dict:
        """Set the daily quota of an API id (None removes it); exceeding it answers code -10."""
        return self._call("POST", "/sandbox/quotas", json={"api": api, "limit": limit})

    def login(self, user_id: int | None = None, *, email: str | None = None, scopes=()) -> dict:
        """Act as the end user: log a demo user in to the demo app with ``scopes`` consented (no browser).

        Returns the token response; tokens come wrapped as :class:`~toolkit.secrets.Secret`. A typo of a scope
        id (``profle``) raises a ``ParameterError`` naming the id meant (:func:`toolkit.scopes.check_scopes`).
        """
        from .scopes import check_scopes

        body: dict[str, Any] = {"scopes": check_scopes([scopes] if isinstance(scopes, str) else list(scopes))}
        if user_id is not None:
            body["user_id"] = int(user_id)
        if email is not None:
            body["email"] = email
        tokens = self._call("POST", "/sandbox/login", json=body)
        for key in ("access_token", "refresh_token", "id_token"):
            if tokens.get(key):
                tokens[key] = Secret(tokens[key])
        return tokens

    def authorize(self, request, email: str | None = None, *, user_id: int | None = None,
                  password: str = "sandbox", agree: bool = True, optional=None) -> str:
        """Act as the end user in a browser for one authorization request: open ``request.url`` (a request of
        ``tk.oauth.authorize_url(...)``, with its ``state``, ``nonce`` and PKCE challenge), log in as a demo user
        (``email`` or ``user_id``; password ``sandbox``), press Agree — or Cancel with ``agree=False`` — on the
        consent page (``optional``: the optional scopes to tick, default all; a user who already agreed to every
        scope asked sees no consent page, so the redirect carries a code either way), and return the URL the
        browser is sent back to: the redirect URI with ``code`` and ``state`` (or ``error`` and ``state``). Nothing is
        exchanged: the app's side is yours, step by step — ``tk.oauth.complete(request, url)`` checks ``state``,
        exchanges the code with the PKCE verifier and checks the ID token's ``nonce``. ``tk.login(email)`` is the
        same step followed by that exchange. A code is good for one exchange, for a few minutes.

        >>> req = tk.oauth.authorize_url(["profile", "openid"])                  # doctest: +SKIP
        >>> url = tk.sandbox.authorize(req, "minji@sandbox.test")                # doctest: +SKIP
        >>> sorted(parse_qs(urlsplit(url).query))                                # doctest: +SKIP
        ['code', 'state']
        >>> token = tk.oauth.complete(req, url)                                  # doctest: +SKIP
        """
        client = self._owner() if self._owner is not None else None
        if client is None:
            raise ConfigurationError("this sandbox handle is bound to no client any more: use tk.sandbox of the "
                                     "client that built the request (tk = toolkit.connect())")
        return client.oauth.user_side(request, email, user_id=user_id, password=password, agree=agree,
                                      optional=optional)

    def demo_users(self) -> list[dict]:
        """The demo users (``id``, ``email``, ``nickname``; never passwords)."""
        return self._call("GET", "/sandbox/identity/users")["users"]

    def demo_email(self, user_id: int) -> str:
        """The e-mail of a demo user (headless logins fill the login form with it)."""
        from .errors import ParameterError

        users = self.demo_users()
        match = [u["email"] for u in users if u["id"] == int(user_id)]
        if not match:
            raise ParameterError("user_id", "not a demo user of the sandbox", user_id)
        return match[0]

    def consent_events(self, since: int = 0) -> list[dict]:
        """The sandbox's consent-event log (linked, scope consent and withdrawal, unlinked …), oldest first: the
        events the platform sends as webhooks, kept so reports can show a trend
        (:func:`toolkit.reports.consent_events_frame`)."""
        return self._call("GET", "/sandbox/identity/events", params={"since": int(since)})["events"]

    # -- the platform's other users and its own data, for the walkthroughs (named instead of control paths)
    def comment_on_story(self, story_id: str, user_id: int, text: str) -> dict:
        """Act as another demo user (a friend) who comments on a story; returns the story as the service has it.

        >>> tk.sandbox.comment_on_story(story_id, 4100000002, "대단해요!")   # doctest: +SKIP
        """
        return self._call("POST", f"/sandbox/social/stories/{story_id}/comments",
                          json={"user_id": int(user_id), "text": str(text)})

    def like_story(self, story_id: str, user_id: int, emotion: str = "LIKE") -> dict:
        """Act as another demo user who reacts to a story (``LIKE``, ``COOL``, ``FUN``, ``SAD``, ``CHEER_UP``).

        >>> tk.sandbox.like_story(story_id, 4100000003, "CHEER_UP")   # doctest: +SKIP
        """
        return self._call("POST", f"/sandbox/social/stories/{story_id}/likes",
                          json={"user_id": int(user_id), "emotion": emotion})

    def set_message_limit(self, per_sender_per_day: int | None) -> int:
        """Set the daily number of messages one sender may send (None restores the default); beyond it a send
        answers -532. Returns the limit now in force.

        >>> tk.sandbox.set_message_limit(4)   # doctest: +SKIP
        """
        body = self._call("POST", "/sandbox/social/limits", json={"daily_messages_per_sender": per_sender_per_day})
        return body["daily_messages_per_sender"]

    def customer_file_users(self, file_id: int) -> list[dict]:
        """What a channel customer file stores, one dict per user (``user_type``, ``id``, ``field``): the
        service has no endpoint that reads a file's users back.

        >>> tk.sandbox.customer_file_users(1)   # doctest: +SKIP
        """
        return self._call("GET", "/sandbox/social/channels/file_users", params={"file_id": int(file_id)})

    CHECK_TIMEOUT = 1.0
    """Seconds :meth:`note_check` waits for the sandbox at most (one attempt, no retry)."""

    def _quick_core(self) -> None:
        """The request core of :meth:`note_check` and :meth:`note_raised`: one attempt, :data:`CHECK_TIMEOUT`."""
        if getattr(self, "_quick", None) is None:
            import httpx

            from .http import _ssl_context

            plain = self.base_url.startswith("http://")          # no TLS: no CA bundle to load (a quarter second)
            self._quick = RequestCore(Config(hosts=Hosts.on_one_port(self.base_url), credentials=Credentials(),
                                             timeout=self.CHECK_TIMEOUT, total_timeout=self.CHECK_TIMEOUT,
                                             max_attempts=1),
                                      transport=httpx.HTTPTransport(verify=False if plain else _ssl_context()))
            self._quick.headers.update(self.headers)

    def note_check(self, exercise: str, ok: bool) -> dict:
        """Tell the sandbox a self-check's verdict: the exercise id and whether it was right, nothing else (never
        the answer or the feedback). ``toolkit.lessons.check`` calls it; in a class the teacher's progress table
        (``toolkit classroom progress``) shows it. One attempt of at most :data:`CHECK_TIMEOUT` seconds, no retry
        (a check must not wait for it); a failure raises as any control call does.

        >>> tk.sandbox.note_check("00.2", True)["lesson"]      # doctest: +SKIP
        '00'
        """
        self._quick_core()
        return self._quick.run(Call("POST", "auth", "/sandbox/checks", base=self.base_url,
                                    name="sandbox /sandbox/checks", json={"exercise": str(exercise), "ok": bool(ok)}))

    def note_raised(self, kind: str) -> dict:
        """Tell the sandbox the kind of an error that ended a cell of the learner's own code: the exception's class
        name, nothing else (never its message, traceback or the cell's code). The kernel's cell hook
        (:func:`toolkit.lessons.watch_kernel`) calls it; in a class the teacher's progress table shows the student's
        last one. One attempt of at most :data:`CHECK_TIMEOUT` seconds, as :meth:`note_check`.

        >>> tk.sandbox.note_raised("KeyError")["kind"]      # doctest: +SKIP
        'KeyError'
        """
        self._quick_core()                              # the same quick core as a verdict
        return self._quick.run(Call("POST", "auth", "/sandbox/raised", base=self.base_url,
                                    name="sandbox /sandbox/raised", json={"kind": str(kind)}))

    def raised(self) -> list[str]:
        """The kinds of the errors the learner's own cells raised, as this sandbox was told, oldest first.

        >>> tk.sandbox.raised()                             # doctest: +SKIP
        ['KeyError', 'NameError']
        """
        return [row["kind"] for row in self._call("GET", "/sandbox/raised")["raised"]]

    def checks(self):
        """The self-check verdicts this sandbox (this student's world, in a class) has been told, oldest first, as
        a DataFrame: ``exercise``, ``lesson``, ``ok``, ``at`` (wall time, UTC), ``clock`` (the sandbox's time).

        >>> tk.sandbox.checks()[["exercise", "ok"]].tail(2)      # doctest: +SKIP
          exercise     ok
        3     00.2   True
        4     00.3  False
        """
        import pandas as pd

        from .frames import from_unix

        rows = self._call("GET", "/sandbox/checks")["checks"]
        frame = pd.DataFrame(rows, columns=["exercise", "lesson", "ok", "at", "clock"])
        frame["ok"] = frame["ok"].astype(bool)
        frame["at"] = from_unix(frame["at"].astype("float64"))
        frame["clock"] = from_unix(frame["clock"].astype("int64"))
        return frame

    def region_polygons(self, level: str | None = "emd") -> dict:
        """The legal-region polygons of the sandbox's world as a GeoJSON FeatureCollection (``level``:
        ``sigungu`` districts, ``emd`` dongs, ``ri``, ``sido``; None: all), for choropleth maps. Against the
        real service, bring your own polygons.

        >>> tk.sandbox.region_polygons("sigungu")   # doctest: +SKIP
        """
        params = {} if level is None else {"level": level}
        return self._call("GET", "/sandbox/local/regions.geojson", params=params)

    def reset(self) -> "SandboxHandle":
        """Throw the sandbox's state away and start again from its seed (same base URL, about 20 ms): the
        state a fresh ``toolkit.connect()`` had. Every token and client state of the old sandbox is void.
        ``toolkit.connect(fresh=True)`` calls this."""
        if self.server is not None:
            self.server.reset()
        else:
            self._call("POST", "/sandbox/reset")
        self._clock_seen = None
        return self

    def control(self, method: str, path: str, **kw):
        """Any control-API call without a named helper, e.g. ``control("GET", "/sandbox/clock")``.

        >>> tk.sandbox.control("GET", "/sandbox/clock")["frozen"]      # doctest: +SKIP
        True
        """
        return self._call(method, path, **kw)

    def close(self):
        """Close the connections of the control API (the server itself stays up)."""
        if self._core is not None:
            self._core.close()
        if getattr(self, "_quick", None) is not None:
            self._quick.close()

    def __repr__(self):
        world = f" world of {self.student!r}" if self.student is not None else ""
        return f"<SandboxHandle {self.base_url}{world}>"


def _app_settings(*, client_secret, **settings) -> dict:
    """The body of ``POST /sandbox/apps`` / ``PATCH /sandbox/apps/{id}`` from :meth:`SandboxHandle.create_app`'s
    arguments (None: not given)."""
    body: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else [v] if isinstance(v, str) else list(v))
                            for k, v in settings.items() if v is not None}
    if client_secret is not None:
        body["client_secret_required"] = bool(client_secret)
    return body


_EMBEDDED = None
_EMBEDDED_LOCK = threading.Lock()


_EMBEDDED_REAL = None  # the embedded sandbox on the wall clock (connect(clock="real")), started on demand


def embedded_sandbox(with_flag: bool = False, clock: str = "virtual"):
    """The process-wide embedded sandbox server, started on first use and stopped at exit (one per clock
    mode: ``"virtual"``, the deterministic default, or ``"real"``, the wall clock). ``with_flag=True``: also
    whether this call started it."""
    global _EMBEDDED, _EMBEDDED_REAL
    from .errors import ParameterError

    if clock not in ("virtual", "real"):
        raise ParameterError("clock", "must be 'virtual' (deterministic, the default) or 'real' (wall clock)", clock)
    started = False
    with _EMBEDDED_LOCK:
        current = _EMBEDDED if clock == "virtual" else _EMBEDDED_REAL
        if current is None or not current.running:
            from .sandbox.server import SandboxServer  # the only place the client imports the sandbox

            current = SandboxServer(port=0, clock=clock)
            current.start()
            atexit.register(current.stop)
            started = True
            if clock == "virtual":
                _EMBEDDED = current
            else:
                _EMBEDDED_REAL = current
        return (current, started) if with_flag else current


def _config(hosts=None, rest_api_key=None, admin_key=None, client_secret=None, app_id=None, redirect_uri=None,
            timeout=None, total_timeout=None, env=None, app_key_scheme=None) -> Config | None:
    overrides = {k: v for k, v in (("timeout", timeout), ("total_timeout", total_timeout)) if v is not None}
    if hosts is None:
        cfg = Config.from_env(env, **overrides)
        if cfg is None:
            return None
        creds = cfg.credentials
        given = dict(rest_api_key=rest_api_key, admin_key=admin_key, client_secret=client_secret, app_id=app_id,
                     redirect_uri=redirect_uri, app_key_scheme=app_key_scheme)
        merged = {k: (v if v is not None else getattr(creds, k)) for k, v in given.items()}
        return Config(hosts=cfg.hosts, credentials=Credentials(**merged), timeout=cfg.timeout,
                      total_timeout=cfg.total_timeout)
    if isinstance(hosts, str):
        hosts = Hosts.on_one_port(hosts)
    elif isinstance(hosts, dict):
        hosts = Hosts(**hosts)
    creds = Credentials(rest_api_key=rest_api_key, admin_key=admin_key, client_secret=client_secret, app_id=app_id,
                        redirect_uri=redirect_uri, app_key_scheme=app_key_scheme)
    return Config(hosts=hosts, credentials=creds, **overrides)


def _sandbox_config(config: dict, overrides: dict, app_key_scheme: str | None = None) -> Config:
    app = config["app"]
    return Config(hosts=Hosts(**config["hosts"]), credentials=Credentials(
        rest_api_key=app["rest_api_key"], admin_key=app["admin_key"], client_secret=app["client_secret"],
        app_id=app["app_id"], redirect_uri=app["redirect_uris"][0], extra=app,
        app_key_scheme=app_key_scheme or APP_KEY_SCHEME),     # None or "": the spec's word, as Credentials reads it
        **overrides)


def _connect(cls, hosts=None, *, rest_api_key=None, admin_key=None, client_secret=None, app_id=None,
             redirect_uri=None, timeout=None, total_timeout=None, sandbox: bool | None = None, shared: bool = False,
             fresh: bool = False, env=None, transport=None, async_transport=None, latency=None,
             clock: str = "virtual", app_key_scheme: str | None = None, classroom: str | None = None,
             student: str | None = None, token: "str | Secret | None" = None, record=None, replay=None):
    overrides = {k: v for k, v in (("timeout", timeout), ("total_timeout", total_timeout)) if v is not None}
    if replay is not None:       # answers from a cassette: no hosts, no keys, no network (toolkit.cassette)
        options = {"hosts": hosts, "rest_api_key": rest_api_key, "admin_key": admin_key, "client_secret": client_secret,
                   "app_id": app_id, "redirect_uri": redirect_uri, "sandbox": sandbox, "shared": shared, "fresh": fresh,
                   "transport": transport, "async_transport": async_transport, "latency": latency,
                   "app_key_scheme": app_key_scheme, "classroom": classroom, "student": student, "token": token,
                   "record": record, "clock": None if clock == "virtual" else clock}
        given = [f"{name}=" for name, value in options.items() if value not in (None, False)]
        if given:
            raise ConfigurationError(f"replay= answers from the cassette, with the hosts and app it recorded: drop "
                                     f"{', '.join(given)}")
        from .cassette import load, replay_config

        cassette = load(replay)
        client = cls(replay_config(cassette, overrides), transport=cassette.transport(),
                     async_transport=cassette.async_transport())
        client.cassette, client.core.clock = cassette, cassette.clock
        return client
    if record is not None and (sandbox or shared or classroom is not None or student is not None or token is not None):
        raise _record_needs_a_service()
    # the word before app keys: the argument, else TOOLKIT_APP_KEY_SCHEME, else the spec's ServiceAK
    scheme = app_key_scheme or (os.environ if env is None else env).get("TOOLKIT_APP_KEY_SCHEME") or None
    delay = _latency_header(latency)          # checked before any sandbox starts
    if classroom is not None or student is not None or token is not None:
        return _with_latency(_classroom_client(
            cls, classroom, student, token, fresh=fresh, clock=clock, scheme=scheme, overrides=overrides,
            options={"hosts": hosts, "shared": shared, "sandbox": sandbox}, transport=transport,
            async_transport=async_transport), delay)
    if shared:
        base = (os.environ if env is None else env).get("TOOLKIT_SANDBOX_URL")
        if not base:
            raise ConfigurationError("connect(shared=True) binds to the sandbox of `toolkit lab` or `toolkit sandbox`"
                                     ": set TOOLKIT_SANDBOX_URL to its base URL (toolkit lab sets it)")
        handle = SandboxHandle(base)
        if fresh:
            handle.reset()
        return _with_latency(cls(_sandbox_config(handle.config(), overrides, scheme), sandbox=handle,
                                 transport=transport, async_transport=async_transport), delay)
    cfg = None if sandbox else _config(hosts, rest_api_key, admin_key, client_secret, app_id, redirect_uri,
                                       timeout, total_timeout, env, scheme)
    if cfg is not None:
        # options that act on a sandbox, refused for other hosts
        if fresh:
            raise ConfigurationError("fresh=True resets a sandbox; this client is configured for other hosts "
                                     "(drop fresh=, or pass sandbox=True for the embedded sandbox)")
        if clock != "virtual":
            raise ConfigurationError("clock= chooses the embedded sandbox's clock; the service keeps its own time")
        if delay is not None:
            raise ConfigurationError("latency= emulates the network for the sandbox only (the real service has a "
                                     "real network); drop it, or connect to the sandbox")
        if record is not None:   # every request and answer into a cassette, secrets scrubbed (toolkit.cassette)
            from .cassette import recording

            cassette = recording(record, cfg)
            client = cls(cfg, transport=cassette.transport(transport),
                         async_transport=cassette.async_transport(async_transport))
            client.cassette = cassette
            return client
        return cls(cfg, transport=transport, async_transport=async_transport)
    if record is not None:
        raise _record_needs_a_service()
    if sandbox is False:
        raise ConfigurationError("no configuration: pass hosts= and keys, or set the TOOLKIT_* variables")
    room = None if sandbox else _classroom_env(env)   # TOOLKIT_CLASSROOM_URL, ..._TOKEN, JUPYTERHUB_USER
    if room is not None:
        return _with_latency(_classroom_client(cls, *room, fresh=fresh, clock=clock, scheme=scheme, options={},
                                               overrides=overrides, transport=transport,
                                               async_transport=async_transport), delay)
    server, started = embedded_sandbox(with_flag=True, clock=clock)
    if fresh and not started:
        server.reset()
    return _with_latency(cls(_sandbox_config(server.config(), overrides, scheme),
                             sandbox=SandboxHandle(server.base_url, server), transport=transport,
                             async_transport=async_transport), delay)


def _record_needs_a_service() -> ConfigurationError:
    return ConfigurationError(
        "record= records a service configured by its hosts and keys (toolkit.connect(hosts, rest_api_key=..., ..., "
        "record=FILE), or the TOOLKIT_* variables); a sandbox's control API (tk.sandbox) is not part of the service "
        "and cannot be replayed. To record the sandbox as a service, give its hosts and keys: "
        "`toolkit sandbox --clock real --print-config` prints them")


def _classroom_env(env) -> "tuple | None":
    """``(url, student, token)`` of a class sandbox from the environment, or None (see :mod:`toolkit.classroom`)."""
    if not (os.environ if env is None else env).get("TOOLKIT_CLASSROOM_URL"):
        return None
    from .classroom import ClassroomError, from_env

    try:
        return from_env(env)
    except ClassroomError as exc:
        raise ConfigurationError(str(exc)) from None


def _classroom_client(cls, url, student, token, *, fresh, clock, scheme, options, overrides, transport,
                      async_transport):
    """A client bound to ``student``'s world of the class sandbox at ``url``: every request (the control API's
    and the login pages' too) carries the world's header; no sandbox starts in this process."""
    from .classroom import ENV_BROWSER, HEADER, ClassroomError, classroom_header

    if not (url and student and token):
        raise ConfigurationError("a class sandbox needs classroom=URL, student=NAME and token=TOKEN together (or "
                                 "TOOLKIT_CLASSROOM_URL, JUPYTERHUB_USER and TOOLKIT_CLASSROOM_TOKEN)")
    clash = [name for name, value in options.items() if value]
    if clash:
        raise ConfigurationError(f"classroom= binds to a world of a class sandbox: drop {', '.join(clash)}=")
    if clock != "virtual":
        raise ConfigurationError("clock= chooses the embedded sandbox's clock; a class sandbox keeps its own")
    try:
        value = classroom_header(student, token)
    except ClassroomError as exc:
        raise ConfigurationError(str(exc)) from None
    handle = SandboxHandle(str(url), headers={HEADER: value}, student=student,
                           browser_url=os.environ.get(ENV_BROWSER) or None)
    if fresh:
        handle.reset()          # this student's world only
    client = cls(_sandbox_config(handle.config(), overrides, scheme), sandbox=handle, transport=transport,
                 async_transport=async_transport)
    client.core.headers[HEADER] = value
    client.core.owned_headers[HEADER] = value     # the login pages' browser clients too
    return client


def _latency_header(latency) -> str | None:
    """``connect(latency=...)`` as the value of the request header the sandbox honours (None: not asked)."""
    if latency is None:
        return None
    from .errors import ParameterError
    from .latency import Latency

    try:
        parsed = Latency.parse(latency)
    except ValueError as exc:
        raise ParameterError("latency", str(exc).split(": ", 1)[-1], latency) from None
    return parsed.describe() if parsed else "0"


def _with_latency(client, delay: str | None):
    """The sandbox delays its answers to this client (``connect(latency=...)``)."""
    if delay is not None:
        from .latency import HEADER

        client.core.headers[HEADER] = delay
    return client


def connect(hosts: "str | dict | Hosts | None" = None, **kw) -> Client:
    """A :class:`Client`.

    * ``connect()`` — no configuration (no arguments, no ``TOOLKIT_*_URL`` variables): starts the embedded
      sandbox on a free 127.0.0.1 port (reused by later calls, stopped at exit) and binds to its demo app.
    * ``connect(hosts, rest_api_key=..., admin_key=..., client_secret=...)`` — the given hosts: a dict of the
      five base URLs, a :class:`~toolkit.config.Hosts`, or one origin laid out like the sandbox.
    * ``connect(sandbox=True)`` forces the embedded sandbox even when ``TOOLKIT_*`` variables are set.
    * ``connect(shared=True)`` binds to a sandbox served by another process — the one ``toolkit lab`` starts
      (``TOOLKIT_SANDBOX_URL``) — with its control API, so several notebooks share one sandbox's state.
    * ``connect(classroom=URL, student=NAME, token=TOKEN)`` binds to that student's world of a class sandbox
      (``toolkit classroom``; see :mod:`toolkit.classroom`), starting no sandbox in this process; with
      ``TOOLKIT_CLASSROOM_URL``, ``TOOLKIT_CLASSROOM_TOKEN`` and ``JUPYTERHUB_USER`` set (a hub sets them), a
      plain ``connect()`` does the same (``sandbox=True`` still forces the embedded sandbox). ``fresh=True``
      and ``tk.sandbox.*`` act on that world only.
    * ``connect(fresh=True)`` — a sandbox client whose sandbox starts again from its seed: the state, clock and
      incidents of earlier cells are thrown away (same port, about 20 ms), so running a notebook again in the
      same kernel gives the same outputs. The walkthroughs start with it. Clients made earlier in the process
      talk to the fresh state too (their tokens are void). Only for a sandbox (embedded or ``shared=True``).

    * ``connect(hosts, keys..., record="report.har")`` — records every request and answer into a cassette (a HAR
      file, secrets replaced by placeholders); ``connect(replay="report.har")`` answers the same calls from it with
      no keys and no network (a notebook a colleague re-runs; see :mod:`toolkit.cassette`). ``tk.cassette`` is it.

    Options: ``timeout`` (seconds per attempt, default 10) and ``total_timeout`` (cap per call with retries,
    default 30). ``latency`` (sandbox only): the sandbox delays every answer to this client by e.g. ``"30ms"``
    or ``"30ms±10ms"`` (a non-blocking wait in the server), to feel a real network; ``toolkit sandbox
    --latency 30ms`` does it for every client. ``clock="real"`` (embedded sandbox only) runs the sandbox on the
    wall clock, so that outside clients checking token times against their own clock accept its tokens; the
    default ``"virtual"`` clock is deterministic (the walkthroughs rely on it) and can be advanced.
    ``app_key_scheme`` (or ``TOOLKIT_APP_KEY_SCHEME``): the word sent before every app key, ``Authorization:
    <word> <key>``; the spec's ``ServiceAK`` by default, ``"KakaoAK"`` for deployments that expect that word (the
    sandbox accepts both).

    In a Jupyter kernel, ``connect`` also shows the toolkit's warnings as ``TruncatedWarning: …`` without the cell's
    temporary file (:func:`toolkit.errors.show_warnings_as_learners_read_them`), and tells the sandbox the class
    name of an error your own cell code raises, for a teacher's progress table (:func:`toolkit.lessons.watch_kernel`).
    Your own plots draw Hangul with the bundled font, registered when matplotlib loads (``import toolkit`` arranges
    it; connecting imports neither matplotlib nor pandas, so a kernel stays small until it draws).

    >>> tk = connect(fresh=True)              # doctest: +SKIP
    >>> tk.status.current().head()            # doctest: +SKIP
    >>> slow = connect(latency="30ms±10ms")   # doctest: +SKIP
    """
    client = _connect(Client, hosts, **kw)
    _in_kernel()
    return client


def _in_kernel() -> None:
    """In a Jupyter kernel: show the toolkit's warnings as a learner reads them. The bundled Hangul font for the
    user's own plots is registered when matplotlib loads (:mod:`toolkit._mplfont`, installed by ``import
    toolkit``), at once when it is loaded already: connecting imports neither matplotlib nor pandas (a student's
    kernel held 101 MB more after ``connect()`` when it imported them here)."""
    import sys

    if "ipykernel" in sys.modules:
        from .errors import show_warnings_as_learners_read_them
        from .lessons import watch_kernel

        show_warnings_as_learners_read_them()     # the toolkit's warnings without the cell's temporary file
        watch_kernel()                            # the kind of an error the learner's own cell raises, for the teacher
        if "matplotlib.font_manager" in sys.modules:
            from ._mplfont import register

            register()


def connect_async(hosts: "str | dict | Hosts | None" = None, **kw) -> AsyncClient:
    """Like :func:`connect`, returning an :class:`AsyncClient` (``await atk.status.current()``).

    >>> async with toolkit.connect_async() as atk:                # doctest: +SKIP
    ...     df = await atk.local.address("전포동 341-17")
    """
    return _connect(AsyncClient, hosts, **kw)
