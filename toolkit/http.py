"""The one request core of the toolkit: auth modes, encoding, retries, error mapping; sync and async.

Area code never talks to httpx. It describes a request as a :class:`Call` (method, host, path, auth mode,
fields) with a ``parse`` function, and returns it — or, for work of several requests (paging, chunking),
a generator that yields calls and receives their parsed results (a *flow*). :class:`RequestCore` runs a
call or a flow either synchronously (:meth:`RequestCore.run`) or asynchronously (:meth:`RequestCore.arun`)
with the same building, retry and error code, so the sync and async clients share every line of area code.

The three calling modes of the spec are :class:`Bearer`, :class:`AdminFor` (``ServiceAK <admin key>`` plus
``target_id_type=user_id`` and ``target_id``) and :class:`ServiceAK`.

Retry policy (only where safe):

* connection not established (connect error/timeout, pool timeout): any call — nothing was sent;
* HTTP 429: any call — the service refused it without acting; ``Retry-After`` is honoured;
* HTTP 5xx, read timeouts, broken connections: only idempotent calls (GET, or a POST the area marks
  idempotent, such as a route computation). A message send is never retried after it may have arrived;
* quota exhaustion (-10) is never retried;
* waits are exponential with full jitter; a total time cap bounds the call with all its retries.

>>> encode_fields({"scopes": ["profile", "friends"], "enable_share": True, "skip": None, "n": 3})
{'scopes': '["profile","friends"]', 'enable_share': 'true', 'n': '3'}
"""
from __future__ import annotations

import asyncio
import contextvars
import email.utils
import json
import logging
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterable, Mapping
from urllib.parse import urlencode, urlsplit

import httpx
import orjson
import tenacity
from tenacity import retry_if_exception, stop_after_attempt, stop_before_delay, wait_random_exponential

from ._version import __version__
from .config import Config, Hosts
from .errors import (ParameterError, RetryBudgetExceeded, ToolkitError, TransportError, error_from_response,
                     transport_hint)
from .secrets import Secret, reveal

__all__ = [
    "Call", "Flow", "Auth", "NoAuth", "Bearer", "ServiceAK", "AdminFor", "RequestCore", "encode_fields",
    "NO_AUTH", "json_or_text",
]

log = logging.getLogger("toolkit.http")

SENSITIVE_QUERY = frozenset({"client_id", "client_secret", "code", "code_verifier", "access_token", "refresh_token",
                             "id_token", "token", "key", "app_key"})


def redact_url(url: "httpx.URL | str") -> str:
    """The URL with the values of credential-bearing query fields masked (for log lines).

    >>> redact_url("http://h/oauth/authorize?client_id=abc123&scope=profile&code=xyz")
    'http://h/oauth/authorize?client_id=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2&scope=profile&code=%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2'
    """
    url = httpx.URL(str(url))
    params = [(k, "••••" if k in SENSITIVE_QUERY else v) for k, v in url.params.multi_items()]
    return str(url.copy_with(params=params)) if params else str(url)


class _RedactHttpxUrls(logging.Filter):
    """httpx logs every request's full URL at INFO; an authorize URL carries the REST API key as client_id."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, httpx.URL) for a in record.args):
            record.args = tuple(redact_url(a) if isinstance(a, httpx.URL) else a for a in record.args)
        return True


def _install_log_redaction() -> None:
    logger = logging.getLogger("httpx")
    if not any(isinstance(f, _RedactHttpxUrls) for f in logger.filters):
        logger.addFilter(_RedactHttpxUrls())

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


# --------------------------------------------------------------------------- auth modes
class Auth:
    """How a call authenticates. Subclasses add a header and, for the admin mode, two fields; ``kind`` (one
    of :data:`toolkit.errors.AUTH_KINDS`) lets an error name the credential to fix."""

    kind = "none"

    def headers(self) -> dict[str, str]:
        return {}

    def fields(self) -> dict[str, str]:
        return {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class NoAuth(Auth):
    """No credential (authorization, discovery and status endpoints)."""


NO_AUTH = NoAuth()


@dataclass(frozen=True, repr=False)
class Bearer(Auth):
    """``Authorization: Bearer <access token>``: acts on the logged-in user."""

    token: Secret
    kind = "user_token"

    def headers(self):
        return {"Authorization": f"Bearer {reveal(self.token)}"}

    def __repr__(self):
        return f"Bearer({Secret(self.token)!r})"


@dataclass(frozen=True, repr=False)
class ServiceAK(Auth):
    """``Authorization: ServiceAK <key>`` with an app key (REST API key, admin key, ...)."""

    key: Secret
    kind: str = "app_key"
    """``app_key`` (the REST API key) or ``admin_key``."""
    scheme: str = "ServiceAK"
    """The word before the key (``connect(app_key_scheme=...)``, ``TOOLKIT_APP_KEY_SCHEME``); the spec's is
    ``ServiceAK``."""

    def headers(self):
        return {"Authorization": f"{self.scheme} {reveal(self.key)}"}

    def __repr__(self):
        word = "" if self.scheme == "ServiceAK" else f", scheme={self.scheme!r}"
        return f"ServiceAK({Secret(self.key)!r}{word})"


@dataclass(frozen=True, repr=False)
class AdminFor(Auth):
    """The admin-key mode: ``ServiceAK <admin key>`` plus ``target_id_type=user_id`` and ``target_id``."""

    admin_key: Secret
    target_id: int
    scheme: str = "ServiceAK"
    """The word before the admin key (see :class:`ServiceAK`)."""
    kind = "admin_key"

    def __post_init__(self):
        try:
            object.__setattr__(self, "target_id", int(self.target_id))
        except (TypeError, ValueError):
            raise ParameterError("target_id", "must be a service user id (a whole number)", self.target_id) from None

    def headers(self):
        return {"Authorization": f"{self.scheme} {reveal(self.admin_key)}"}

    def fields(self):
        return {"target_id_type": "user_id", "target_id": str(self.target_id)}

    def __repr__(self):
        return f"AdminFor({Secret(self.admin_key)!r}, target_id={self.target_id})"


# --------------------------------------------------------------------------- encoding
def _encode_value(value: Any) -> str:
    if isinstance(value, Secret):
        return value.reveal()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        # The spec's rule: a String[] parameter in a form body or query carries the text of a JSON array.
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def encode_fields(fields: Mapping[str, Any] | None) -> dict[str, str]:
    """Encode query or form fields: None dropped, booleans as ``true``/``false``, lists as JSON array text."""
    if not fields:
        return {}
    return {k: _encode_value(v) for k, v in fields.items() if v is not None}


_JSON_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def dumps(value: Any) -> bytes:
    """The JSON body httpx's ``json=`` sends (``json.dumps(value, ensure_ascii=False, separators=(",", ":"),
    allow_nan=False)`` in UTF-8), encoded by orjson when it can: 40 against 2 us for the body of a 30-origin
    route matrix. orjson writes NaN and infinities as ``null``, where the standard library refuses them, so a body
    with ``null`` in it goes to :func:`json.dumps`, and so does whatever orjson refuses (integers beyond 64 bits,
    keys that are not text, subclasses of the JSON types such as numpy's floats, dataclasses, datetimes). The
    two differ only in how they write some floats (``1e16`` and ``1e+16``), the same number.

    >>> dumps({"origins": [{"key": "a", "x": 127.1, "y": 37.5}], "radius": 10000})
    b'{"origins":[{"key":"a","x":127.1,"y":37.5}],"radius":10000}'
    """
    try:
        content = orjson.dumps(value, option=_JSON_OPTIONS)
    except orjson.JSONEncodeError:
        pass
    else:
        if b"null" not in content:
            return content
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


_DIGITS = bytes(0x30 if 0x30 <= i <= 0x39 else 0x20 for i in range(256))   # a digit → "0", anything else → " "
_LONG_RUN = b"0" * 19


def _has_long_number(content: bytes) -> bool:
    """Whether ``content`` has a run of 19 or more digits (``re.search(rb"[0-9]{19}", content)``, in C: a
    translation and a substring search, about 15x faster than the regular expression on a page of places)."""
    return _LONG_RUN in content.translate(_DIGITS)


def loads(content: bytes) -> Any:
    """``json.loads(content)``, decoded by orjson when it can (2–3x faster on a page of places; bulk runs decode
    one per request). A body with a run of 19 or more digits (orjson reads an integer beyond 64 bits as a float)
    and whatever orjson refuses (NaN, overflowing numbers, a BOM, another encoding, ...) go to
    :func:`json.loads`, so the result is the standard library's in every case.

    >>> loads(b'{"x": "129.05", "n": 3}')
    {'x': '129.05', 'n': 3}
    """
    if not _has_long_number(content):
        try:
            return orjson.loads(content)
        except orjson.JSONDecodeError:
            pass
    return json.loads(content)


def json_or_text(response: httpx.Response) -> Any:
    """The decoded JSON of a response, its text when it is not JSON, or None for an empty body."""
    content = response.content
    if not content:
        return None
    if "json" in response.headers.get("content-type", ""):
        try:
            return loads(content)
        except ValueError:
            return response.text
    return response.text


# --------------------------------------------------------------------------- calls and flows
@dataclass
class Call:
    """One HTTP request described by area code.

    ``host`` is one of the five spec hosts (``auth``, ``api``, ``local``, ``navi``, ``status``) or ``base``
    is a full base URL (used for the sandbox control API). ``params`` go to the query, ``data`` to a form
    body, ``json`` to a JSON body, ``files`` to a multipart body. ``parse(payload, response)`` turns the
    decoded body into the result. ``ok`` lists extra statuses that are not errors (e.g. 302 for redirects).
    """

    method: str
    host: str
    path: str
    auth: Auth = NO_AUTH
    params: Mapping[str, Any] | None = None
    data: Mapping[str, Any] | None = None
    json: Any = None
    files: Any = None
    headers: Mapping[str, str] | None = None
    idempotent: bool | None = None
    parse: Callable[[Any, httpx.Response], Any] | None = None
    name: str | None = None
    ok: Iterable[int] = ()
    base: str | None = None

    @property
    def is_idempotent(self) -> bool:
        return self.method.upper() in IDEMPOTENT_METHODS if self.idempotent is None else self.idempotent

    @property
    def label(self) -> str:
        return self.name or f"{self.method.upper()} {self.host}:{self.path}"


Flow = Generator[Call, Any, Any]


class _RetryableStatus(Exception):
    def __init__(self, response: httpx.Response):
        self.response = response


# Errors raised before the request left the machine: safe to retry for any method.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# Errors after the request may have arrived: retry only idempotent calls.
_MAYBE_SENT = (httpx.ReadTimeout, httpx.WriteTimeout, httpx.ReadError, httpx.WriteError,
               httpx.RemoteProtocolError)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _Wait(tenacity.wait.wait_base):
    """Retry-After when the service sends one, else exponential backoff with full jitter."""

    def __init__(self, multiplier: float, cap: float):
        self._jitter = wait_random_exponential(multiplier=multiplier, max=cap)

    def __call__(self, retry_state) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        if isinstance(exc, _RetryableStatus):
            after = _retry_after(exc.response)
            if after is not None:
                return after
        return self._jitter(retry_state)


# Bulk runs keep up to 64 requests in flight: keep that many connections alive between them (httpx keeps 20).
# sniffio is a dependency for speed: without it httpcore retries a failing `import sniffio` (a search of
# sys.path) several times per request, which made the async client 3x slower in the bulk benchmark's profile.
_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=64)

# A bulk run's workers share the connections in pools of POOL_SIZE (worker k uses pool k // POOL_SIZE): httpcore
# walks every connection of its pool, asking each socket whether it is still readable, for every request it
# places, so one pool of 64 connections cost the client more CPU per request than the request itself (half of
# the async geocode's time in its profile at 30 ms latency). Pools of 2 keep that walk short: against pools of 8,
# alternated runs at 30 ms latency and 64 in flight sent 358-417 -> 427-544 many-origin calls/s (client CPU
# 2.2-2.6 -> 1.5-2.1 ms a call) and 522-586 -> 617-756 geocode requests/s (1.7-1.9 -> 1.3-1.6 ms); pools of 1
# did no better, and each pool is one more httpx client to open and close (about 2 ms). tests/bench/bench_pools.py
# measures 8 against 2 side by side.
POOL_SIZE = 2
_POOL: contextvars.ContextVar[int | None] = contextvars.ContextVar("toolkit_pool", default=None)


_SSL: list = []


def _ssl_context():
    """One TLS context for every async pool: each new httpx client otherwise loads the CA bundle again
    (about 20 ms of CPU)."""
    if not _SSL:
        _SSL.append(httpx.create_ssl_context())
    return _SSL[0]


def use_pool(worker: int) -> None:
    """In the current task, send through the small pool of bulk worker ``worker`` (see :data:`POOL_SIZE`)."""
    _POOL.set(worker // POOL_SIZE)


class _Connections:
    """The httpx clients of one :class:`RequestCore`, released by :meth:`release` — explicitly, or by a
    finalizer when the core is garbage-collected or the interpreter exits (no ``unclosed socket``)."""

    _closing: set = set()   # aclose tasks scheduled by finalizers, kept alive until done

    def __init__(self):
        self.sync: httpx.Client | None = None
        self.async_: httpx.AsyncClient | None = None
        self.pools: dict[int, httpx.AsyncClient] = {}
        """The small pools of bulk workers (:func:`use_pool`), on the same loop as ``async_``."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop the async connections belong to."""
        self.owned: list[httpx.Client] = []
        """Other sync httpx clients of the client (e.g. the headless login's browser)."""

    def close_sync(self) -> None:
        sync, self.sync = self.sync, None
        owned, self.owned = self.owned, []
        for client in [sync, *owned]:
            if client is not None:
                client.close()

    def take_async(self) -> list[httpx.AsyncClient]:
        """The async clients (main and pools), forgotten here: the caller closes them."""
        clients = [c for c in (self.async_, *self.pools.values()) if c is not None]
        self.async_, self.pools = None, {}
        return clients

    def release(self) -> None:
        self.close_sync()
        loop = self.loop
        clients = [c for c in self.take_async() if not c.is_closed]
        if not clients or loop is None or loop.is_closed():
            return   # connections of an event loop that is gone: close async clients before their loop ends

        async def aclose_all():
            for client in clients:
                await client.aclose()

        if loop.is_running():
            # close after the current step (a task created now could be cancelled by a shutting-down
            # asyncio.run before it starts)
            def start():
                task = loop.create_task(aclose_all())
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)

            loop.call_soon_threadsafe(start)
            return
        try:
            loop.run_until_complete(aclose_all())
        except Exception:   # at exit, best effort
            pass


# The sandbox (and a class sandbox reached on this machine) answer on loopback: an HTTP(S)_PROXY/ALL_PROXY of the
# environment is for the outside world, and a proxy would not reach this machine's loopback anyway. These mounts
# send loopback requests directly (httpx: a pattern mounted to None uses the client's own transport), whatever
# NO_PROXY says; every other host still goes through the environment's proxy.
LOOPBACK_DIRECT = {"all://127.0.0.1": None, "all://localhost": None, "all://[::1]": None}


class RequestCore:
    """Builds, sends and retries calls; maps errors. One instance per client.

    ``transport``/``async_transport`` let tests inject an httpx transport (respx, a fault injector). Its
    connections close with :meth:`close`/:meth:`aclose`, and otherwise when the core is garbage-collected or at
    interpreter exit.
    """

    def __init__(self, config: Config, *, transport: httpx.BaseTransport | None = None,
                 async_transport: httpx.AsyncBaseTransport | None = None,
                 backoff: float = 0.2, backoff_cap: float = 5.0):
        self.config = config
        self.backoff, self.backoff_cap = backoff, backoff_cap
        self._transport, self._async_transport = transport, async_transport
        self._conns = _Connections()
        weakref.finalize(self, self._conns.release)
        self.last_response: httpx.Response | None = None
        self.attempts_log: list[tuple[str, int | str]] = []
        self.headers: dict[str, str] = {}   # sent with every call (e.g. the sandbox latency of connect(latency=))
        self.owned_headers: dict[str, str] = {}   # also set on the httpx clients it owns (a class sandbox's world)
        # observer(status or error name, seconds, Retry-After or None) after every attempt (bulk runs adapt on it)
        self.observer = None
        # where the last adaptive bulk run against each server (scheme://host:port) ended: (limit, monotonic time)
        self.bulk_levels: dict[str, tuple[int, float]] = {}
        # the service's time as the client knows it without asking (a replaying cassette: when its answer was recorded)
        self.clock: Callable[[], float] = time.time
        self._policies: dict[tuple, dict] = {}
        _install_log_redaction()

    # ---------------------------------------------------------------- building
    def _timeout(self) -> httpx.Timeout:
        return httpx.Timeout(self.config.timeout)

    @property
    def http(self) -> httpx.Client:
        if self._conns.sync is None:
            self._conns.sync = httpx.Client(timeout=self._timeout(), transport=self._transport,
                                            mounts=LOOPBACK_DIRECT, follow_redirects=False,
                                            headers={"User-Agent": f"toolkit/{__version__}"})
        return self._conns.sync

    @property
    def ahttp(self) -> httpx.AsyncClient:
        pool = _POOL.get()
        if pool is not None and self._async_transport is None:   # an injected transport is shared as it is
            client = self._conns.pools.get(pool)
            if client is None:
                self._conns.loop = asyncio.get_running_loop()
                limits = httpx.Limits(max_connections=POOL_SIZE, max_keepalive_connections=POOL_SIZE)
                client = self._conns.pools[pool] = httpx.AsyncClient(
                    timeout=self._timeout(), limits=limits, follow_redirects=False, verify=_ssl_context(),
                    mounts=LOOPBACK_DIRECT, headers={"User-Agent": f"toolkit/{__version__}"})
            return client
        if self._conns.async_ is None:
            self._conns.loop = asyncio.get_running_loop()
            self._conns.async_ = httpx.AsyncClient(timeout=self._timeout(), transport=self._async_transport,
                                                   limits=_LIMITS, follow_redirects=False, mounts=LOOPBACK_DIRECT,
                                                   headers={"User-Agent": f"toolkit/{__version__}"})
        return self._conns.async_

    def url(self, call: Call) -> str:
        base = call.base if call.base is not None else self.config.hosts.url(call.host, "")
        return base.rstrip("/") + call.path

    def build(self, client: httpx.Client | httpx.AsyncClient, call: Call, timeout: float) -> httpx.Request:
        method = call.method.upper()
        headers = {**self.headers, **(call.headers or {})}
        headers.update(call.auth.headers())
        params = encode_fields(call.params)
        data = encode_fields(call.data) if call.data is not None else None
        auth_fields = call.auth.fields()
        if auth_fields:
            # Admin-key mode: the two target fields travel with the other fields; POSTs use a form body.
            if method == "GET" or call.json is not None:
                params.update(auth_fields)
            else:
                data = {**(data or {}), **auth_fields}
        if data is not None and call.files is None:
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
        content = None
        if call.json is not None:
            content = dumps(call.json)
            headers.setdefault("Content-Type", "application/json")
        url = self.url(call)
        if params and "?" not in url:
            # The query joined here, encoded as httpx's QueryParams encodes it (the standard library's urlencode
            # of the text values): the same URL as params= gives (a test compares them), without httpx parsing
            # the URL a second time to merge the params into it. That merge was 35 of the 80 us it took to build
            # the request of a category search.
            url, params = f"{url}?{urlencode(params)}", {}
        return client.build_request(method, url, params=params or None, data=data, content=content,
                                    files=call.files, headers=headers, timeout=httpx.Timeout(timeout))

    # ---------------------------------------------------------------- retry policy
    @staticmethod
    def _should_retry(idempotent: bool, exc: BaseException) -> bool:
        if isinstance(exc, _NOT_SENT):
            return True
        if isinstance(exc, _RetryableStatus):
            return exc.response.status_code == 429 or idempotent
        if isinstance(exc, _MAYBE_SENT):
            return idempotent
        return False

    def _retrying_kwargs(self, call: Call) -> dict:
        """tenacity's strategies for ``call``. They keep no state (each attempt's state is tenacity's
        ``RetryCallState``), so they are built once per setting and shared by every call: building them per call
        cost more than tenacity's own bookkeeping of a successful attempt."""
        idempotent, cap = call.is_idempotent, self.config.total_timeout
        key = (idempotent, self.config.max_attempts, cap, self.backoff, self.backoff_cap)
        kwargs = self._policies.get(key)
        if kwargs is None:
            kwargs = self._policies[key] = dict(
                retry=retry_if_exception(lambda e: self._should_retry(idempotent, e)),
                wait=_Wait(self.backoff, self.backoff_cap),
                stop=stop_after_attempt(self.config.max_attempts) | stop_before_delay(cap),
                reraise=True,
            )
        return kwargs

    def _check_status(self, call: Call, response: httpx.Response) -> httpx.Response:
        status = response.status_code
        if status == 429 or (500 <= status < 600):
            raise _RetryableStatus(response)
        return response

    def _attempt_timeout(self, deadline: float) -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RetryBudgetExceeded("total time cap reached")
        return min(self.config.timeout, remaining)

    def _finish(self, call: Call, response: httpx.Response) -> Any:
        self.last_response = response
        status = response.status_code
        payload = json_or_text(response)
        if status >= 400 or (300 <= status < 400 and status not in set(call.ok)):
            raise error_from_response(status, payload, endpoint=call.label, headers=response.headers,
                                      auth=call.auth.kind)
        return call.parse(payload, response) if call.parse else payload

    def _fail(self, call: Call, exc: BaseException, attempts: int, started: float) -> ToolkitError:
        if isinstance(exc, _RetryableStatus):
            response = exc.response
            self.last_response = response
            err = error_from_response(response.status_code, json_or_text(response), endpoint=call.label,
                                      headers=response.headers, auth=call.auth.kind)
            err.attempts = attempts
            return err
        if isinstance(exc, RetryBudgetExceeded):
            return RetryBudgetExceeded(f"gave up: total time cap of {self.config.total_timeout:g}s reached",
                                       call.label, attempts, hint=self._transport_hint(call, True))
        if isinstance(exc, httpx.TimeoutException):
            return TransportError(f"timed out ({type(exc).__name__}, {self.config.timeout:g}s per attempt)",
                                  call.label, attempts, hint=self._transport_hint(call, True))
        if isinstance(exc, httpx.HTTPError):
            return TransportError(f"could not reach the service: {type(exc).__name__}: {exc}", call.label, attempts,
                                  hint=self._transport_hint(call, False))
        raise exc

    def _transport_hint(self, call: Call, timed_out: bool) -> str:
        """The hint of a transport failure: hosts laid out as the sandbox lays them out (one loopback origin,
        ``/auth`` … ``/status``) are a sandbox; anything else is a real service."""
        hosts = self.config.hosts
        base = getattr(call, "base", None) or hosts.auth.rsplit("/", 1)[0]
        origin = hosts.auth[: -len("/auth")] if hosts.auth.endswith("/auth") else None
        sandbox = origin is not None and hosts == Hosts.on_one_port(origin) and \
            (urlsplit(origin).hostname or "") in ("127.0.0.1", "localhost", "::1")
        if not sandbox:
            base = getattr(hosts, call.host, base) if getattr(call, "base", None) is None else base
        return transport_hint(origin if sandbox and origin is not None else base, sandbox, timed_out)

    def _log_attempt(self, call: Call, outcome: int | str, started: float | None = None,
                     response: httpx.Response | None = None):
        self.attempts_log.append((call.label, outcome))
        del self.attempts_log[:-200]
        log.debug("%s %s -> %s", call.method.upper(), call.path, outcome)
        if self.observer is not None:
            after = _retry_after(response) if response is not None and outcome == 429 else None
            self.observer(outcome, None if started is None else time.monotonic() - started, after)

    # ---------------------------------------------------------------- sync
    def send(self, call: Call) -> Any:
        """Send one call with the retry policy; return its parsed result or raise a toolkit error."""
        started = time.monotonic()
        deadline = started + self.config.total_timeout
        attempts = 0
        try:
            for attempt in tenacity.Retrying(**self._retrying_kwargs(call)):
                with attempt:
                    attempts += 1
                    request = self.build(self.http, call, self._attempt_timeout(deadline))
                    sent = time.monotonic()
                    try:
                        response = self.http.send(request)
                    except httpx.HTTPError as exc:
                        self._log_attempt(call, type(exc).__name__)
                        raise
                    self._log_attempt(call, response.status_code, sent, response)
                    self._check_status(call, response)
        except (_RetryableStatus, httpx.HTTPError, RetryBudgetExceeded) as exc:
            raise self._fail(call, exc, attempts, started) from None
        return self._finish(call, response)

    def run(self, op: "Call | Flow") -> Any:
        """Run a call or a flow synchronously."""
        if isinstance(op, Call):
            return self.send(op)
        value, error = None, None
        while True:
            try:
                call = op.throw(error) if error is not None else op.send(value)
            except StopIteration as stop:
                return stop.value
            value, error = None, None
            try:
                value = self.send(call)
            except ToolkitError as exc:
                error = exc

    # ---------------------------------------------------------------- async
    async def asend(self, call: Call) -> Any:
        """The async twin of :meth:`send` (same building, policy and mapping)."""
        started = time.monotonic()
        deadline = started + self.config.total_timeout
        attempts = 0
        waits: list[float] = []
        try:
            # tenacity's plain iterator decides as in send(); the wait it asks for is slept here, on the event loop,
            # before the next attempt (AsyncRetrying makes the same decisions at about twice the cost per call)
            for attempt in tenacity.Retrying(sleep=waits.append, **self._retrying_kwargs(call)):
                if waits:
                    await asyncio.sleep(waits.pop())
                with attempt:
                    attempts += 1
                    request = self.build(self.ahttp, call, self._attempt_timeout(deadline))
                    sent = time.monotonic()
                    try:
                        response = await self.ahttp.send(request)
                    except httpx.HTTPError as exc:
                        self._log_attempt(call, type(exc).__name__)
                        raise
                    self._log_attempt(call, response.status_code, sent, response)
                    self._check_status(call, response)
        except (_RetryableStatus, httpx.HTTPError, RetryBudgetExceeded) as exc:
            raise self._fail(call, exc, attempts, started) from None
        return self._finish(call, response)

    async def arun(self, op: "Call | Flow") -> Any:
        """Run a call or a flow asynchronously."""
        if isinstance(op, Call):
            return await self.asend(op)
        value, error = None, None
        while True:
            try:
                call = op.throw(error) if error is not None else op.send(value)
            except StopIteration as stop:
                return stop.value
            value, error = None, None
            try:
                value = await self.asend(call)
            except ToolkitError as exc:
                error = exc

    def own(self, client: httpx.Client) -> httpx.Client:
        """Close ``client`` (another sync httpx client of the same toolkit client) with this core's connections."""
        self._conns.owned.append(client)
        client.headers.update(self.owned_headers)
        return client

    def close(self):
        """Close the sync connections (an async client's are closed by :meth:`aclose`)."""
        self._conns.close_sync()

    async def aclose(self):
        """Close every connection, sync and async."""
        self.close()
        for aclient in self._conns.take_async():
            await aclient.aclose()
