"""The class sandbox: one server, one isolated world per student, one read-only city shared by all.

``toolkit classroom --secret-file class.secret`` serves a :class:`Classroom` with a :class:`ClassroomServer`
(uvicorn on the loopback machinery of :mod:`toolkit.loopback`, as ``toolkit sandbox`` does).

Design (the choices, written down):

* **A world is a whole sandbox.** Each student's world is its own :class:`~toolkit.sandbox.app.Sandbox` (its
  own SQLite store, clock, demo app and keys, users' links, tokens, consents, stories, messages, channels and
  files, webhook settings and deliveries, quotas, incidents) served by its own app
  (:func:`~toolkit.sandbox.app.create_app`). Nothing of one world is reachable from another: the world is
  chosen before any route runs, and every model reads only its own sandbox. A world is made on its student's
  first request, in the class's world threads (:data:`MAKERS`, side by side: a class arrives at once), seeded as
  ``toolkit sandbox`` is (same seed for every world, so every walkthrough's stored outputs match in every world);
  with ``--db`` its file is a copy of one seeded template (SQLite's backup, one fsync). As it starts, the class
  sandbox warms up in a thread (:meth:`Classroom.warm`: the city's data, one request of each kind, the template),
  so a lesson's first requests wait on their own worlds only.
* **The city is shared.** The read-only data (places and addresses, road graph, transit network, tile
  renderer) are process-wide caches keyed by the datasets folder (``local.models._WORLDS``,
  ``navi.graph.road_graph``, ``local.transit.load_network``, ``tiles.render.renderer``); region polygons are
  read from the data file when asked and not kept. Loaded once, whatever the number of worlds: a world costs
  its store and its models' own small state (see :data:`MEASURED`).
* **The world is chosen by a header, not by the URL.** A student's client sends
  ``X-Toolkit-Classroom: <name>:<token>`` (:data:`toolkit.classroom.HEADER`; the API's own ``Authorization``
  stays the spec's) with every request, so the URLs a notebook shows are the sandbox's own
  (``http://HOST:PORT/local/...``) and the walkthroughs' stored outputs match. A browser that cannot add a
  header opens its first page with a single-use ticket (``?toolkit_ticket=``, minted by ``POST
  /classroom/ticket`` with the student's header): the answer sets the cookie ``toolkit_classroom`` (HttpOnly,
  SameSite=Lax) holding a session id of the class sandbox's own, valid :data:`SESSION_SECONDS`, never the
  token. The header wins over the ticket, the ticket over the cookie; the classroom's header, query parameters
  and cookie are removed before the world's app sees the request. ``?toolkit_classroom=NAME:TOKEN`` binds
  nothing (a link must not carry a credential). Behind a hub, a session holds only while the browser keeps the
  hub's session cookie it had when the ticket was spent (:data:`HUB_SESSION_COOKIE`: a hub logout or another
  hub user's login on that browser ends it). Run as a hub's service (``hub``: a
  :class:`~toolkit.sandbox.classroom_hub.HubLogin`, which ``toolkit classroom`` makes from the hub's
  environment), the browser's student is the hub's logged-in user instead, by the hub's own OAuth for services;
  tickets bind nothing there.
* **Tokens.** A student's token is ``HMAC-SHA256(class secret, "student:" + name)``
  (:func:`toolkit.classroom.student_token`), checked in constant time; a missing or wrong one answers HTTP 401
  ``{"msg": ..., "code": -401}`` saying what to set. Every route needs a student, the city's tiles and fonts
  included (a map's tiles come through the student's own Jupyter server, which adds the header); only
  ``/classroom/health`` answers an anonymous caller, and only ``{"ok": true}``. ``toolkit classroom revoke
  NAME`` revokes one student's token (:func:`toolkit.classroom.revoke`: a generation in ``F.revoked``, read
  here when it changes): the old token and the student's browser sessions are refused within a second.
* **Fair shares** (:class:`Limits`, printed at start, set with ``--max-concurrent``, ``--rate``, ``--burst``):
  each student has their own requests in progress (8), rate (20 a second, bursts of 80), request-body bytes in
  flight (128 MiB: one upload at the spec's bound), tickets (16) and sessions (16). A request past its share
  waits its turn up to a second, then gets HTTP 429 with ``Retry-After`` (the toolkit's client waits and
  retries), so one hammering student slows only themselves: 16 parallel 104.8 MB uploads by one student grew
  the class sandbox by 11 MB (1,750 MB when bodies were held whole; uploads are spooled to a temporary file as
  they are read, :class:`~toolkit.sandbox.guard.RequestGuard`).
* **What a world may point at** (:class:`ClassPolicy`): its apps' redirect URIs stay on the class's own
  origins (``--allow-origin`` adds more), never on what a request's ``Host`` says; its webhooks go to the public
  internet, to the student's own inbox (proved with a nonce signed by the student's token) and to what the
  teacher names (``--webhook-host``), nowhere else on the machine or its network, in any spelling of an
  address; a refused target fails as a closed port does (``could not deliver``), and a receiver's answer is read
  within 64 KiB, sent and decompressed (a gzip bomb fails ``answer too large``).
* **Anyone on the network** (not only a student with a token): every connection is bounded before its head is
  parsed (:mod:`toolkit.sandbox.connections`: a head within ``--header-timeout`` 10 s and 64 KiB, a body never
  idle 30 s, ``--max-connections-per-address`` 2,048 and ``--max-connections`` 8,192, the oldest idle one
  closed first); requests at the class sandbox's own address answer only to the names it is configured for
  (:data:`LOCAL_HOSTS`, ``--trusted-host``, the host of ``JUPYTERHUB_PUBLIC_URL``); refused and anonymous
  requests (a wrong token, no token, health checks, logins through the hub) take a turn per sender's address
  (:attr:`Classroom.anonymous`: 20 a second, bursts of 100; past it held a second, then 429), so a flood costs
  its sender; a browser's session changes a world only from the page's own origin (``Origin``, else ``Referer``,
  must name the request's host: a page on another port of the same host is refused).
* **The world's address** is the one its student uses, among the configured names: each request's ``Host`` (one
  of the trusted hosts) sets the world's base URL (ID tokens' ``iss``, ``/sandbox/config``), so a class sandbox
  reached as ``http://toolkit-classroom:8765`` in a cluster (``--trusted-host toolkit-classroom``) answers with
  that name.
* **Resets.** ``POST /sandbox/reset`` (``connect(fresh=True)``) replaces the student's world by a fresh one;
  the teacher's ``POST /classroom/worlds/<name>/reset`` does the same. Class incidents posted by the teacher in
  the last ``hours`` (wall time) are played again in a fresh or new world, so the status lesson survives a
  student's ``fresh=True``. A class incident the teacher clears (``POST /classroom/incidents/clear``) is no
  longer played, and ends at once in every world that plays it (:meth:`Classroom.clear_incidents`).
* **Persistence** (``--db FILE``): FILE is the class registry (SQLite: students with their world's file,
  creation time, last activity and call count; the class incidents), and each world is its own SQLite file in
  the folder ``FILE.worlds/`` next to it (``<name>.<random>.sqlite3``; names that are not lower-case ASCII get
  a hash). After a restart a world is opened again on its student's next request (or the teacher's incident);
  a reset world gets a new file and the old one is deleted. The files are 0600 in a 0700 folder, in WAL mode with
  ``synchronous = NORMAL`` (a commit is in the log before it is acknowledged: a kill -9 loses none; a power cut
  may take back the last ones). A request that may change a world's data writes its world's activity first (so a
  kill -9 loses no write's count), the reads of the worlds used are written :data:`FLUSH_EVERY` (2) seconds later
  in a thread (a kill -9 loses at most that much read activity), and stopping writes all. Without ``--db``
  everything lives in memory.
* **The teacher** calls ``/classroom/...`` with ``X-Toolkit-Classroom-Teacher: <teacher token>`` (derived from
  the class secret, which never travels): ``GET /classroom/worlds``, ``POST /classroom/worlds/<name>/reset``,
  ``POST /classroom/incidents {"api", "status", "hours", "started_minutes_ago", "note"}``, ``GET
  /classroom/incidents``, ``POST /classroom/incidents/clear {"ids": [...]}`` or ``{"all": true}``, ``GET
  /classroom/progress`` (:meth:`Classroom.progress`).
* **Progress.** A student's kernel tells its world each self-check's verdict (``POST /sandbox/checks``: exercise
  id and right or not, never the answer); the class sandbox keeps them per student in the registry
  (:data:`PROGRESS`, across the student's resets), with the last error answer of the student's world (its status
  and the keys that say its kind, never its message; written with the activity) and the kind of the last error the
  student's own code raised (``POST /sandbox/raised``: the exception's class name only).

>>> server = ClassroomServer("a-class-secret-of-32-characters!").start()      # doctest: +SKIP
>>> import toolkit, toolkit.classroom as tc                                  # doctest: +SKIP
>>> tk = toolkit.connect(classroom=server.base_url, student="ann",           # doctest: +SKIP
...                      token=tc.student_token("a-class-secret-of-32-characters!", "ann"))
>>> server.stop()                                                            # doctest: +SKIP
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import hmac
import json
import os
import random
import re
import secrets as _secrets
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable
from urllib.parse import parse_qsl, unquote, urlencode

from ..classroom import (COOKIE, HEADER, NAME_RE, QUERY, TEACHER_HEADER, TICKET, ClassroomError,
                         student_token, teacher_token)
from ..latency import Latency, LatencyMiddleware
from ..loopback import LoopbackServer
from ..secrets import Secret
from .app import Sandbox, SandboxOptions, create_app
from .clock import DEFAULT_START
from .store import Store

if TYPE_CHECKING:
    import sqlite3
    from concurrent.futures import ThreadPoolExecutor

    from .connections import ConnectionLimits

__all__ = ["Classroom", "ClassroomServer", "World", "Limits", "MEASURED"]

MEASURED = ("0.6 MB resident per extra world after a walkthrough's calls: 597 MB with 60 worlds, the city loaded "
            "once; 60 students at ten times a walkthrough's pace: p95 9 ms, p99 11 ms; 960 students (one world each, "
            "one webhook worker for all, the heap frozen as each world is made) met p95 ≤ 50 ms (21 ms, p99 46 ms, "
            "0.4 cores) on a 2-core machine that also ran their load, 1920 did not (python "
            "tests/bench/bench_classroom.py, its parts 2 to 4); 1,000 students arriving at a lesson's start (400 within "
            "5 s) all got their world within 0.16 s, then at a walkthrough's pace p95 21 ms, 0.32 cores, 1,033 MB "
            "(tests/bench/bench_class_load.py)")
"""What a world costs and what one class sandbox serves; the local model's own bounded request log and region-word
caches grow on top with use."""

TICKET_SECONDS = 300
"""How long a browser ticket (``POST /classroom/ticket``) stays valid; it is spent by its first use."""
TICKETS_MAX = 10_000
"""Tickets held at most, all students together: past it a new ticket is refused (429), nobody's is evicted."""
SESSION_SECONDS = 8 * 3600
"""How long a browser session (the cookie a spent ticket sets) lasts: a school day."""
SESSIONS_MAX = 20_000
"""Browser sessions held at most, all students together (the oldest goes first)."""


LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Host names a class sandbox always answers to (its own machine); ``--trusted-host`` adds the names it is reached
by elsewhere (``toolkit-classroom`` in a cluster), and a hub's ``JUPYTERHUB_PUBLIC_URL`` its host."""
ANYONE_RATE, ANYONE_BURST = 500.0, 1000
"""Refused and anonymous requests of all senders together, a second and at once (past it they are held, as one
sender's are past their own share): a forwarded address anyone can write cannot multiply the shares without bound."""
PEERS_MAX = 65_536
"""Senders' addresses whose refused and anonymous requests are counted at once (the oldest is forgotten past it)."""


class Limits:
    """What one student may take of a class sandbox at once (each student has their own share):

    * ``concurrent``: requests in progress. A map view fetches 12 tiles over 6 connections, as a browser does,
      and a notebook makes one call at a time: 8 leaves room for both at once.
    * ``rate``: requests a second, sustained, with bursts of ``burst`` after a pause. A walkthrough's cell makes
      a few calls and a map view 12 tiles; ten times a walkthrough's pace is under 10 a second.
    * ``body_bytes``: request bodies in flight (declared ``Content-Length``, or the route's bound when a body is
      sent chunked). One upload at the spec's bound (111 MB) fits; two at once do not.
    * ``tickets`` and ``sessions``: browser tickets pending and browser sessions held; a new one replaces the
      student's own oldest, never another student's.

    A request over ``concurrent``, ``rate`` or ``body_bytes`` waits its turn up to ``wait`` seconds (in order of
    arrival), then is answered HTTP 429 with ``Retry-After``; the toolkit's client waits that long and tries again
    (bounded by its ``max_attempts`` and ``total_timeout``), so an honest notebook does not see it. A request
    refused for the rate is held ``wait`` give or take a quarter (at random, released on 50 ms ticks) before its
    429, so a hammer's connections do not all come back at the same moment (see :func:`_hold`).

    >>> print(Limits())
    per student: 8 requests at once, 20 a second (bursts of 80), 128 MiB of bodies in flight, 16 browser tickets, 16 browser sessions; past them a request waits up to 1 s, then HTTP 429 with Retry-After
    >>> Limits(rate=0)
    Traceback (most recent call last):
    ...
    ValueError: rate must be positive (got 0)
    """

    __slots__ = ("concurrent", "rate", "burst", "body_bytes", "tickets", "sessions", "wait")

    def __init__(self, concurrent: int = 8, rate: float = 20.0, burst: int = 80, body_bytes: int = 128 * 2 ** 20,
                 tickets: int = 16, sessions: int = 16, wait: float = 1.0):
        from .guard import MAX_MULTIPART

        for key, value in (("concurrent", concurrent), ("rate", rate), ("burst", burst), ("body_bytes", body_bytes),
                           ("tickets", tickets), ("sessions", sessions)):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise ValueError(f"{key} must be positive (got {value!r})")
        if body_bytes < MAX_MULTIPART:
            raise ValueError(f"body_bytes must hold one upload at the spec's bound ({MAX_MULTIPART} bytes)")
        if not 0 <= wait <= 30:
            raise ValueError(f"wait must be 0 to 30 seconds (got {wait!r})")
        self.concurrent, self.rate, self.burst, self.body_bytes = int(concurrent), float(rate), int(burst), int(body_bytes)
        self.tickets, self.sessions, self.wait = int(tickets), int(sessions), float(wait)

    def __repr__(self) -> str:
        return ("Limits(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")")

    def __str__(self) -> str:
        return (f"per student: {self.concurrent} requests at once, {self.rate:g} a second (bursts of {self.burst}), "
                f"{self.body_bytes / 2 ** 20:g} MiB of bodies in flight, {self.tickets} browser tickets, "
                f"{self.sessions} browser sessions; past them a request waits up to {self.wait:g} s, then HTTP 429 "
                "with Retry-After")


class _Share:
    """One student's use of the class sandbox now: requests and body bytes in progress, the rate's bucket, the
    requests waiting for their turn (futures, oldest first)."""

    __slots__ = ("inflight", "bytes", "tokens", "stamp", "queue")

    def __init__(self, burst: int):
        import collections

        self.inflight = self.bytes = 0
        self.tokens, self.stamp = float(burst), time.monotonic()
        self.queue: "collections.deque[asyncio.Future]" = collections.deque()


WARM_PATHS = (
    "/local/v2/local/search/keyword.json?query=%ED%95%B4%EC%9A%B4%EB%8C%80&x=129.16&y=35.16&radius=5000",
    "/local/v2/local/search/address.json?query=%EB%B6%80%EC%82%B0%EC%A7%84%EA%B5%AC%20%EC%A0%84%ED%8F%AC%EB%8F%99"
    "%20341-17",
    "/local/v2/local/search/category.json?category_group_code=CE7&x=129.0592&y=35.1579&radius=500",
    "/local/v2/local/geo/coord2regioncode.json?x=129.0592&y=35.1579",
    "/navi/v1/directions?origin=129.1586,35.1631&destination=129.0592,35.1579",
    "/status/api/health/current?lang=en",
    "/sandbox/tiles/14/14065/6480.png",
)
"""The requests :meth:`Classroom.warm` sends the city's app as the class sandbox starts (a keyword, address and
category search, a region, a route, the status, a tile)."""

MAKERS = 16
"""Threads that make worlds at once (a class arriving together: 300 first requests took 201 time-outs when worlds were
made one at a time)."""

THAW_MIN = 16
"""Worlds replaced (reset) at least between two thaws of the frozen heap (see :meth:`Classroom._freeze`)."""

FLUSH_EVERY = 2.0
"""Seconds between writes of the activity (last activity, call counts) of the worlds used since the last write to the
registry, in a worker thread (a kill -9 loses at most this much read activity); a request that may change a world's
data (any method but GET, HEAD, OPTIONS) writes its world's at once, before it runs, and stopping the class sandbox
(SIGTERM, SIGINT) writes them all."""

REGISTRY = """
CREATE TABLE IF NOT EXISTS students (
    name TEXT PRIMARY KEY, file TEXT, created REAL NOT NULL, last_activity REAL NOT NULL, calls INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS class_incidents (
    id INTEGER PRIMARY KEY, api TEXT NOT NULL, status TEXT NOT NULL, hours REAL NOT NULL,
    started_minutes_ago REAL NOT NULL, note TEXT NOT NULL, posted REAL NOT NULL
);
"""

PROGRESS = """
CREATE TABLE IF NOT EXISTS class_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, student TEXT NOT NULL, exercise TEXT NOT NULL, lesson TEXT NOT NULL,
    ok INTEGER NOT NULL, at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS class_checks_by_student ON class_checks (student, id);
CREATE TABLE IF NOT EXISTS class_errors (
    student TEXT PRIMARY KEY, at REAL NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, method TEXT NOT NULL,
    path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS class_incidents_cleared (id INTEGER PRIMARY KEY, cleared REAL NOT NULL);
CREATE TABLE IF NOT EXISTS class_raised (student TEXT PRIMARY KEY, kind TEXT NOT NULL, at REAL NOT NULL);
"""
"""The teacher's progress table and cleared incidents, beside :data:`REGISTRY`: each student's self-check verdicts
(``POST /sandbox/checks`` of their world, kept across their resets), the last error their world answered, the kind
of the last error their own code raised (``POST /sandbox/raised``: a class name), the class incidents taken back."""

CLASS_PLAYS = "class_incidents"
"""The ``meta`` key of a world's store that maps each class incident played in it to the world's own incident id."""

CHECKS_PER_STUDENT = 2000
"""Self-check verdicts kept per student in the registry (the oldest go first)."""

ERROR_KEYS = ("code", "error", "error_code", "err", "errorType")
"""What is kept of an error answer's body for the teacher: the keys that say its kind, never its message."""

_HEADER = HEADER.lower().encode()
_TEACHER = TEACHER_HEADER.lower().encode()
_HOST_RE = re.compile(rb"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
_LABEL = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)")
_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)")

PROOF_SECONDS = 1.0
"""How long the class sandbox waits for a student's inbox to prove it is theirs (:data:`toolkit.classroom.
INBOX_PROOF_PATH`); a refused registration is answered after exactly this long, whatever was (or was not) there."""
ANSWER_BYTES = 64 * 1024
"""Bytes of a webhook's answer read at most, as sent and once decompressed: past either, the answer is dropped and
the delivery failed ``answer too large`` (the spec's answers are a status and at most a short JSON object)."""


def _origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an absolute http(s) URL, lower case, the default port left out (else None)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def webhook_target(url) -> "tuple[str, str, int] | str":
    """``(scheme, host, port)`` of a webhook URL a class accepts, else why not. The host is a DNS name or an
    address in its one canonical form: the other spellings of an address that resolvers accept (``0177.0.0.1``,
    ``0x7f.1``, ``2130706433``, ``127.1``, a zone index) are refused, so what is checked is what is reached.

    >>> webhook_target("https://hooks.example.org/share")
    ('https', 'hooks.example.org', 443)
    >>> webhook_target("http://0177.0.0.1:8000/x")
    "the webhook URL's host is neither a name nor an address in its usual form: '0177.0.0.1'"
    """
    import ipaddress
    from urllib.parse import urlsplit

    if not isinstance(url, str) or len(url) > 2048:
        return "a webhook URL is text of at most 2048 characters"
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return "the webhook URL does not parse (its host or port)"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook URL is an absolute http(s) URL"
    host = parts.hostname.lower()
    port = port or {"http": 80, "https": 443}[parts.scheme]
    if "%" in host:
        return f"the webhook URL's host has a zone index: {host[:100]!r}"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if address is not None:
        if address.version == 4 and str(address) != host:
            return f"the webhook URL's host is neither a name nor an address in its usual form: {host[:100]!r}"
        return parts.scheme, str(address), port
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    if (len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels)
            or any(_NUMERIC_LABEL.fullmatch(label) for label in labels[-1:])):
        return f"the webhook URL's host is neither a name nor an address in its usual form: {host[:100]!r}"
    return parts.scheme, host, port


def _inside(address) -> bool:
    """Whether an address is not on the public internet: loopback, private, link-local, unspecified, multicast,
    reserved, shared, and the IPv4 address inside an IPv4-mapped, 6to4, Teredo or NAT64 address that is."""
    import ipaddress

    embedded = getattr(address, "ipv4_mapped", None) or getattr(address, "sixtofour", None)
    teredo = getattr(address, "teredo", None)
    if teredo:
        embedded = teredo[1]
    if address.version == 6 and address in ipaddress.ip_network("64:ff9b::/96"):
        embedded = ipaddress.ip_address(int(address) & 0xFFFFFFFF)
    if embedded is not None and _inside(embedded):
        return True
    return not address.is_global or address.is_multicast


class ClassPolicy:
    """What a student's world may point at, in a class: its apps' redirect URIs and web domains, and its webhooks.

    * **Apps' URLs** (``redirect_uris``, ``logout_redirect_uris``, ``web_domains``, set with ``POST
      /sandbox/apps`` or ``PATCH /sandbox/apps/{id}``) stay on the class's own origins: the class sandbox's
      configured address (never what a request's ``Host`` says), the hub's public origin
      (``JUPYTERHUB_PUBLIC_URL``, where the students' own servers are too), the browser's own machine
      (``localhost``, ``127.0.0.1``, ``[::1]``, any port: the demo app's ``http://localhost:8765/callback``), and
      the origins the teacher allows (``--allow-origin``). Anything else is HTTP 400: a world's app cannot send a
      visitor off-site.
    * **Webhooks** go to the public internet, to the student's own receiver and to what the teacher names, nowhere
      else. A URL whose host is not a name or an address in its usual form is refused when it is registered
      (:func:`webhook_target`). At delivery, a target that resolves to any address that is not public (loopback,
      private, link-local, unspecified, multicast, reserved, in any encoding: :func:`_inside`) is refused unless
      it is the student's own receiver on this machine — an inbox their kernel opened, which proved it is theirs
      when it was registered (:data:`toolkit.classroom.INBOX_PROOF_PATH`, a nonce signed with the student's token)
      — or the host the teacher names (``webhook_host``, e.g. ``jupyter-{name}`` in a cluster: the student's own
      server). A refused target reads exactly like a closed port in the delivery log: ``could not deliver``, no
      status, no time spent; a refused registration is answered after :data:`PROOF_SECONDS` whatever was there.

    >>> policy = ClassPolicy(allowed=["https://apps.school.example"])
    >>> policy.origin_ok("https://apps.school.example/cb", {"http://127.0.0.1:8765"})
    True
    >>> policy.origin_ok("https://evil.example/cb", {"http://127.0.0.1:8765"})
    False
    >>> policy.webhook_refusal("http://169.254.169.254/latest/meta-data", "ann")
    'could not deliver'
    >>> policy.webhook_refusal("http://127.0.0.1:8000/hub/api", "ann")
    'could not deliver'
    """

    def __init__(self, allowed=(), webhook_host: str | None = None,
                 token_of: "Callable[[str], str | None] | None" = None):
        self.allowed = {o for o in (_origin(a) for a in allowed) if o}
        bad = [a for a in allowed if not _origin(a)]
        if bad:
            raise ClassroomError(f"an allowed origin is an http(s) address like https://apps.school.example: "
                                 f"{bad[0][:100]!r}")
        hub = _origin(os.environ.get("JUPYTERHUB_PUBLIC_URL", ""))
        if hub:
            self.allowed.add(hub)
        self.webhook_host = webhook_host
        self._token_of = token_of                        # student → their token (None: unknown)
        self._receivers: dict[str, set[tuple[str, int]]] = {}   # student → (host, port) of their proven inboxes

    def origin_ok(self, url: str, own: "set[str]") -> bool:
        from urllib.parse import urlsplit

        origin = _origin(url) if isinstance(url, str) else None
        if origin is None:
            return False
        return origin in own or origin in self.allowed or urlsplit(url.strip()).hostname in _LOOPBACK_NAMES

    def check_app_urls(self, request, settings: dict) -> None:
        """Raise the API's 400 when an app setting points off the class's origins (see the class docstring). The
        class's own origin is the world's configured address, never the request's ``Host``."""
        from .web import api_error

        own = {o for o in (_origin(request.app.state.sandbox.base_url or ""),) if o}
        for key in ("redirect_uris", "logout_redirect_uris", "web_domains"):
            for url in settings.get(key, ()):
                if not self.origin_ok(url, own):
                    raise api_error(400, -2, f"{key}: {str(url)[:100]!r} is not on this class's own origins "
                                             f"({', '.join(sorted(own | self.allowed))}, or localhost); the "
                                             "teacher allows more with `toolkit classroom --allow-origin ORIGIN`")

    # ------------------------------------------------------------------ webhooks
    def _named(self, host: str, student: str) -> bool:
        return self.webhook_host is not None and host == self.webhook_host.replace("{name}", student).lower()

    @staticmethod
    def _addresses(host: str, port: int) -> list:
        import ipaddress
        import socket

        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            # a TCP lookup gives IPv4 and IPv6 addresses only: their first item is the address as text
            return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos if isinstance(info[4][0], str)]
        except (OSError, UnicodeError, ValueError):
            return []

    async def check_webhooks(self, urls: dict, student: str) -> None:
        """Refuse (HTTP 400, before anything is stored) a webhook URL a class does not deliver to: malformed, or on
        this machine and not the student's own inbox. An inbox on this machine proves it is the student's (a nonce
        signed with their token); a refusal of that kind is answered after :data:`PROOF_SECONDS`, whatever was
        there, so it maps no port."""
        import asyncio

        from .web import api_error

        for kind, url in urls.items():
            if not url:
                continue
            target = webhook_target(url)
            if isinstance(target, str):
                raise api_error(400, -2, f"{kind[:40]}: {target}")
        started = asyncio.get_running_loop().time()
        for kind, url in urls.items():
            if not url:
                continue
            target = webhook_target(url)
            assert not isinstance(target, str)      # refused above
            scheme, host, port = target
            if self._named(host, student) or (host, port) in self._receivers.get(student, ()):
                continue
            addresses = await asyncio.to_thread(self._addresses, host, port)
            if addresses and self.webhook_host is None and not any(_inside(a) for a in addresses):
                continue                                  # the public internet (checked again at delivery)
            if addresses and all(a.is_loopback for a in addresses) and await self._prove(scheme, host, port,
                                                                                          student):
                self._receivers.setdefault(student, set()).add((host, port))
                continue
            await asyncio.sleep(max(0.0, started + PROOF_SECONDS - asyncio.get_running_loop().time()))
            raise api_error(400, -2, f"{kind[:40]}: the class sandbox does not deliver to {str(url)[:100]!r}: a "
                                     "webhook goes to the public internet, to your own inbox (tk.events.inbox() "
                                     "proves it is yours) or to the host the teacher names (`toolkit classroom "
                                     "--webhook-host`)")

    async def _prove(self, scheme: str, host: str, port: int, student: str) -> bool:
        import httpx

        from ..classroom import INBOX_PROOF_PATH, inbox_proof

        token = self._token_of(student) if self._token_of else None
        if not token:
            return False
        nonce = _secrets.token_urlsafe(24)
        netloc = f"[{host}]" if ":" in host else host
        try:
            async with httpx.AsyncClient(trust_env=False, follow_redirects=False, timeout=PROOF_SECONDS) as http:
                async with http.stream("GET", f"{scheme}://{netloc}:{port}{INBOX_PROOF_PATH}",
                                       params={"nonce": nonce}, headers={"Accept-Encoding": "identity"}) as resp:
                    body = b""
                    async for chunk in resp.aiter_raw():
                        body += chunk
                        if len(body) > 1024:
                            return False
            proof = json.loads(body).get("proof") if resp.status_code == 200 else None
        except (httpx.HTTPError, ValueError, AttributeError, UnicodeDecodeError):
            return False
        return isinstance(proof, str) and hmac.compare_digest(proof, inbox_proof(token, nonce))

    def webhook_refusal(self, url: str, student: str) -> str | None:
        """None when ``student``'s world may deliver to ``url`` now, else what the delivery log says (``could not
        deliver``, as for a closed port). Never raises."""
        refused = "could not deliver"
        target = webhook_target(url)
        if isinstance(target, str):
            return refused
        _, host, port = target
        if self._named(host, student):
            return None
        addresses = self._addresses(host, port)
        if not addresses:
            return refused
        if (host, port) in self._receivers.get(student, ()) and all(a.is_loopback for a in addresses):
            return None                  # the student's own inbox on this machine
        if self.webhook_host is not None or any(_inside(a) for a in addresses):
            return refused               # a cluster: only the student's own server; else the public internet
        return None


class World:
    """One student's world: their sandbox, its app, and the teacher's figures (wall-clock times)."""

    __slots__ = ("name", "sandbox", "app", "created", "last_activity", "calls", "file", "host")

    def __init__(self, name: str, sandbox: Sandbox, app, created: float, calls: int, file: str | None):
        self.name, self.sandbox, self.app, self.file = name, sandbox, app, file
        self.created, self.last_activity, self.calls = created, created, calls
        self.host: bytes | None = None

    def __repr__(self) -> str:
        return f"<World {self.name!r} calls={self.calls}>"


def _private(path: Path, mode: int) -> None:
    """Make ``path`` readable by this process's user only: a file is created empty with ``mode`` when missing (a
    folder must exist), an existing one (the class sandbox's own, from an earlier run) is set to ``mode``."""
    if mode == 0o600 and not path.exists():
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return
        except FileExistsError:
            pass
    try:
        os.chmod(path, mode)
    except (OSError, NotImplementedError):    # a file system without modes: nothing more to do
        pass


def _file_stem(name: str) -> str:
    """A file name for ``name``'s world: the name itself when it is lower-case ASCII, else a hash of it."""
    if re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", name):
        return name
    return "u-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]


class Classroom:
    """The ASGI app of a class sandbox: picks the student's world for each request and hands it over.

    >>> room = Classroom("a-class-secret-of-32-characters!")
    >>> room.world("ann").sandbox is room.world("ann").sandbox, room.world("bob").sandbox is room.world("ann").sandbox
    (True, False)
    >>> room.close()
    """

    def __init__(self, secret: "str | Secret", db: str | None = None, *, seed: int = 7,
                 clock_start: str = DEFAULT_START, frozen: bool = False, clock: str = "virtual",
                 latency: "Latency | str | None" = None, base_url: str | None = None, prefix: str | None = None,
                 limits: "Limits | None" = None, secret_file: "str | os.PathLike | None" = None,
                 allow_origins=(), webhook_host: str | None = None, hub=None, trusted_hosts=(),
                 anonymous: "Limits | None" = None):
        self._secret = Secret(secret)
        self.trusted_hosts = {h.strip().lower().strip("[]") for h in (*LOCAL_HOSTS, *trusted_hosts) if h.strip()}
        public = _origin(os.environ.get("JUPYTERHUB_PUBLIC_URL", ""))
        if public:
            from urllib.parse import urlsplit

            self.trusted_hosts.add(urlsplit(public).hostname)
        self._hosts_ok: set[bytes] = set()        # Host values seen and trusted (a few)
        # every connection of a sender may be held (their count is bounded: toolkit.sandbox.connections), so a
        # flood's connections do not spin on answers given at once
        self.anonymous = anonymous or Limits(concurrent=4096, rate=20, burst=100)
        self._peers: dict[str, _Share] = {}       # refused and anonymous requests' shares, by the sender's address
        self._everyone = _Share(ANYONE_BURST)      # ... and all of them together
        self.prefix = normalize_prefix(prefix)
        self.limits = limits or Limits()
        self.policy = ClassPolicy(allow_origins, webhook_host, token_of=self._token_of)
        self._tickets: dict[str, tuple[str, float]] = {}       # ticket → (student, until): no token is kept
        # session id → (student, generation, until, the hub's session id on this browser when it was made)
        self._sessions: dict[str, tuple[str, int, float, str | None]] = {}
        self._shares: dict[str, _Share] = {}
        self._secret_file = secret_file          # its revocation file (toolkit.classroom.revoke) is read when it changes
        self._revoked: dict[str, int] = {}
        self._revoked_stamp: tuple | None = None
        self._teacher = teacher_token(self._secret)
        self._options: SandboxOptions = {"seed": seed, "clock_start": clock_start, "frozen": frozen, "clock": clock}
        self.latency = Latency.parse(latency)
        self.base_url = base_url
        self.db = db
        self.folder: Path | None = None
        if db not in (None, ":memory:"):
            self.folder = Path(str(db) + ".worlds")
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            _private(self.folder, 0o700)     # the students' stories and messages: the class sandbox's user only
            _private(Path(db), 0o600)
        self.registry = Store(db or ":memory:")
        # WAL with synchronous NORMAL: a commit survives a kill -9 (it is in the log), only a power cut may take the
        # last ones back; a class arriving at once then waits on no fsync per student's row
        self.registry.db.execute("PRAGMA synchronous = NORMAL")
        self.registry.script(REGISTRY)
        self.registry.script(PROGRESS)
        self._errors: dict[str, tuple] = {}        # student → the last error their world answered, not yet written
        self._worlds: dict[str, World] = {}
        self._tokens: dict[str, str] = {}          # name → token, for names seen with the right token
        self._lock = threading.RLock()
        self._city: tuple | None = None
        self.ready = threading.Event()             # set once warm(): a first world waits on nothing more
        self._template: sqlite3.Connection | None = None    # a seeded store every new world file is copied from
        self._template_lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}   # a lock per world being made: worlds are made side by side
        self._flushed = time.monotonic()
        self._used: set[str] = set()               # worlds used since their activity was last written
        # the write of the activity to come (a timer), under way (a future)
        self._flushing: asyncio.TimerHandle | asyncio.Future[None] | None = None
        self._maker: ThreadPoolExecutor | None = None   # the threads that make worlds (fsync-bound: many at once)
        self._dropped = 0                          # worlds replaced since the heap was last thawed
        self.hub = hub                             # a HubLogin (classroom_hub): browsers are the hub's users
        if hub is not None:
            hub.generation, hub.sessions_per_student = self.generation, self.limits.sessions

    def __repr__(self) -> str:
        return f"<Classroom worlds={len(self._worlds)} db={self.db or 'in memory'}>"

    # ------------------------------------------------------------------ tokens
    def generation(self, name: str) -> int:
        """Student ``name``'s token generation (how many times it was revoked: :func:`toolkit.classroom.revoke`),
        read from the revocation file when it changed (checked at most once a second)."""
        if self._secret_file is None:
            return 0
        now = time.monotonic()
        if self._revoked_stamp is None or now - self._revoked_stamp[0] >= 1.0:
            from ..classroom import revocations, revoked_file

            try:
                st = revoked_file(self._secret_file).stat()
                key = (st.st_mtime_ns, st.st_size, st.st_ino)
            except FileNotFoundError:
                key = None
            if self._revoked_stamp is None or key != self._revoked_stamp[1]:
                self._revoked = revocations(self._secret_file)
                self._tokens.clear()
                self._sessions = {k: v for k, v in self._sessions.items() if v[1] == self._revoked.get(v[0], 0)}
            self._revoked_stamp = (now, key)
        return self._revoked.get(name, 0)

    def _token_of(self, name: str) -> str | None:
        """Student ``name``'s token now (None for a name that is not a student's)."""
        if not NAME_RE.fullmatch(name):
            return None
        return student_token(self._secret, name, self.generation(name))

    def check(self, name: str, token: str) -> bool:
        """Whether ``token`` is student ``name``'s (constant time; a revoked token is not)."""
        generation = self.generation(name)
        known = self._tokens.get(name)
        if known is None:
            if not NAME_RE.fullmatch(name):
                return False
            known = student_token(self._secret, name, generation)
        if not hmac.compare_digest(known.encode(), token.encode("utf-8", "replace")):
            return False
        self._tokens[name] = known
        return True

    # ------------------------------------------------------------------ worlds
    def _new_sandbox(self, file: str | None, fresh: bool = True) -> Sandbox:
        """A world's sandbox: in memory (``file`` None), or in ``file`` of the worlds folder — opened again when it
        exists (``fresh=False``), else copied from the class's template (a store seeded once as every world is,
        written whole by SQLite's backup: a few milliseconds, where seeding a file took 85)."""
        if file is None:
            path = ":memory:"
        else:
            assert self.folder is not None       # a world has a file with --db only (_new_file)
            path = str(self.folder / file)
            _private(Path(path), 0o600)      # SQLite gives its -wal and -shm files the database file's mode
            if fresh:
                self._copy_template(path)
        sandbox = Sandbox(path, **self._options, base_url=self.base_url)
        if file is not None:
            # WAL with synchronous NORMAL, as the registry: a commit survives a kill -9 (it is in the log); only a
            # power cut may take the last ones back. With FULL every request's write (its quota count) waited for
            # the disk on the event loop: 300 students' p95 was 1.5 s at 0.14 cores
            sandbox.store.db.execute("PRAGMA synchronous = NORMAL")
        return sandbox

    def warm(self) -> None:
        """Make what every first world needs before the first student asks (:class:`ClassroomServer` runs it in a
        thread as it starts): the sandbox's machinery, the city's read-only data (places, road graph, tiles) and,
        with ``--db``, the worlds' template. A lesson's first requests then wait on their own worlds only: loaded by
        the first search on the event loop, the city held every request of a class arriving at once for seconds
        (30 students' first requests waited up to 4.8 s; the first world alone took 1.2 s)."""
        try:
            import httpx

            city, app = self._city_app()
            # one of each kind of request a walkthrough makes, answered by the city's own app here in a thread: what
            # they load once per process (places and their index, road graph and its first route, tile renderer)
            # is not loaded by a student's first request on the event loop (seconds, every request behind it)
            key = {"Authorization": f"ServiceAK {city.apps.public_config()['rest_api_key']}"}

            async def ask():
                async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1",
                                             headers=key) as http:
                    for path in WARM_PATHS:
                        await http.get(path)
            asyncio.run(ask())
            if self.folder is not None:
                import tempfile

                with tempfile.TemporaryDirectory(prefix="toolkit-warm-") as folder:
                    self._copy_template(str(Path(folder) / "warm.sqlite3"))
        except Exception as exc:  # noqa: BLE001 — only slower first requests: they load what they need themselves
            import logging

            logging.getLogger("toolkit.sandbox.classroom").warning("warming up failed: %s", type(exc).__name__)
        finally:
            self.ready.set()

    def _clock_state(self) -> dict:
        """A new world's clock (as :class:`~toolkit.sandbox.clock.Clock` starts one): it starts now."""
        from .clock import _parse

        return {"virtual": _parse(self._options["clock_start"]), "real": time.time(),
                "frozen": bool(self._options["frozen"])}

    def _copy_template(self, path: str) -> None:
        import sqlite3

        with self._template_lock:
            if self._template is None:       # seeded as every world is; each copy starts its own clock when opened
                made = Sandbox(":memory:", **self._options)
                made.store.execute("DELETE FROM meta WHERE key = 'clock'")
                self._template = made.store.db
            target = sqlite3.connect(path)
            try:       # written whole, in WAL mode already (as the world's store opens it), then made durable once
                target.execute("PRAGMA synchronous = OFF")
                self._template.backup(target)
                target.execute("PRAGMA journal_mode = WAL")
                target.execute("INSERT INTO meta (key, value) VALUES ('clock', ?)", (json.dumps(self._clock_state()),))
                target.commit()
            finally:
                target.close()
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def _new_file(self, name: str) -> str | None:
        return None if self.folder is None else f"{_file_stem(name)}.{_secrets.token_hex(4)}.sqlite3"

    def _build(self, name: str, sandbox: Sandbox, created: float, calls: int, file: str | None) -> World:
        sandbox.class_policy = (self.policy, name)        # its apps' URLs and its webhooks stay in the class
        sandbox.on_check = lambda row: self._note_check(name, row)   # its self-checks outlive its resets
        sandbox.on_raised = lambda row: self._note_raised(name, row)
        app = create_app(sandbox)
        app.state.reset = lambda: self.reset(name)       # POST /sandbox/reset: this world only
        return World(name, sandbox, LatencyMiddleware(app, self.latency), created, calls, file)

    def world(self, name: str) -> World:
        """Student ``name``'s world, made (or opened again from ``--db``) on first use. Worlds of different students
        are made side by side (a lock per world; the class's lock only for the registry's row), so a class arriving
        at once does not queue behind one world at a time."""
        found = self._worlds.get(name)
        if found is not None:
            return found
        with self._lock:
            making = self._making.setdefault(name, threading.Lock())
        with making:
            found = self._worlds.get(name)
            if found is not None:
                return found
            row = self.registry.one("SELECT * FROM students WHERE name = ?", name)
            if row is not None and (row["file"] is None) == (self.folder is None):
                world = self._build(name, self._new_sandbox(row["file"], fresh=False), row["created"], row["calls"],
                                    row["file"])
                world.last_activity = row["last_activity"]
            else:
                now, file = time.time(), self._new_file(name)
                world = self._build(name, self._new_sandbox(file), now, 0, file)
                with self._lock:
                    self.registry.execute("INSERT INTO students (name, file, created, last_activity, calls) VALUES "
                                          "(?, ?, ?, ?, 0) ON CONFLICT(name) DO UPDATE SET file = excluded.file",
                                          name, file, now, now)
                self._replay_incidents(world.sandbox)
            with self._lock:
                if name in self._worlds:          # reset (or the teacher) made one meanwhile: theirs stands
                    world.sandbox.model("events").stop()
                    return self._worlds[name]
                self._worlds[name] = world
                self._making.pop(name, None)
                self._freeze()
            return world

    def _freeze(self, dropped: int = 0) -> None:
        """Move the heap out of the cyclic garbage collector's generations once a world is made (``gc.collect()``
        then ``gc.freeze()``, with the lock held). The city freezes itself as it loads, but every world adds
        about 1,500 objects that live as long as it does: unfrozen, each full collection walked them all (480
        worlds: pauses of up to 370 ms, bench_classroom's ceiling); frozen, a collection walks only what was made
        since the last world (under a millisecond). A frozen world that is replaced is not collected: once the
        worlds replaced since the last time reach a quarter of the worlds (at least :data:`THAW_MIN`), the heap
        is thawed, collected and frozen again (116 ms with 60 worlds, 354 ms with 480, measured)."""
        self._dropped += dropped
        if self._dropped >= max(THAW_MIN, len(self._worlds) // 4):
            self._dropped = 0
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    def reset(self, name: str) -> World | None:
        """Replace ``name``'s world by a fresh one (seeded as a new one; the class incidents still running are
        played again). None when the student has no world yet."""
        with self._lock:
            old = self._worlds.get(name)
            row = self.registry.one("SELECT * FROM students WHERE name = ?", name)
            if old is not None:
                created, calls, old_file = old.created, old.calls, old.file
            elif row is not None:
                created, calls, old_file = row["created"], row["calls"], row["file"]
            else:
                return None
            file = self._new_file(name)
            world = self._build(name, self._new_sandbox(file), created, calls, file)
            world.last_activity, world.host = time.time(), old.host if old is not None else None
            if old is not None and old.host is not None:
                world.sandbox.base_url = old.sandbox.base_url
            self._replay_incidents(world.sandbox)
            self.registry.execute("UPDATE students SET file = ?, calls = ?, last_activity = ? WHERE name = ?",
                                  file, calls, world.last_activity, name)
            self._worlds[name] = world
            self._freeze(dropped=int(old is not None))
        if old is not None:
            old.sandbox.model("events").stop()   # its webhook deliveries (the old store is garbage-collected: _freeze)
        if old_file and self.folder is not None:
            for suffix in ("", "-wal", "-shm"):
                try:
                    (self.folder / (old_file + suffix)).unlink(missing_ok=True)
                except OSError:      # still open elsewhere (Windows): left behind, harmless
                    pass
        return world

    def names(self) -> list[str]:
        """Every student with a world (in memory or in the registry), in order of creation."""
        return [r["name"] for r in self.registry.all("SELECT name FROM students ORDER BY created, name")]

    def flush(self) -> None:
        """Write the last activity and call counts of the worlds used since the last write to the registry."""
        self._flushed = time.monotonic()
        used, self._used = self._used, set()
        rows = [(w.last_activity, w.calls, w.name) for w in (self._worlds.get(n) for n in used) if w is not None]
        if rows:
            with self.registry.tx() as db:
                db.executemany("UPDATE students SET last_activity = ?, calls = ? WHERE name = ?", rows)
        self._flush_errors()

    def _flush_world(self, world: World) -> None:
        """Write one world's activity to the registry (after a request that may have changed its data: a kill -9
        then loses at most the reads since)."""
        self.registry.execute("UPDATE students SET last_activity = ?, calls = ? WHERE name = ?",
                              world.last_activity, world.calls, world.name)

    def worlds(self) -> list[dict]:
        """One dict per student world: ``student``, ``created``, ``last_activity`` (Unix seconds, wall clock),
        ``calls``, ``loaded`` (in memory now)."""
        self.flush()
        return [{"student": r["name"], "created": r["created"], "last_activity": r["last_activity"],
                 "calls": r["calls"], "loaded": r["name"] in self._worlds}
                for r in self.registry.all("SELECT * FROM students ORDER BY created, name")]

    # ------------------------------------------------------------------ class incidents
    def incident(self, api: str, status: str = "RED", *, hours: float = 1.0, started_minutes_ago: float = 0,
                 note: str = "") -> dict:
        """Play an incident in every world (each at its own clock) and in the worlds made or reset in the next
        ``hours`` of wall time. A bad API id or status raises ValueError before any world changes."""
        hours, ago = float(hours), float(started_minutes_ago)
        if not (0 < hours <= 24 * 365) or not (0 <= ago <= 60 * 24 * 365):
            raise ValueError("hours must be in (0, 8760] and started_minutes_ago in [0, 525600]")
        probe = self.world(self.names()[0]) if self.names() else None
        utility = (probe.sandbox if probe is not None else self._city_sandbox()).model("utility")
        if api not in utility.api_product:
            raise ValueError(f"unknown API id {api!r}")
        from .utility.models import STATUSES

        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        with self._lock:
            posted = self.registry.execute("INSERT INTO class_incidents (api, status, hours, started_minutes_ago, "
                                           "note, posted) VALUES (?, ?, ?, ?, ?, ?)", api, status, hours, ago,
                                           str(note), time.time()).lastrowid
            names = self.names()
        for name in names:
            self._play(self.world(name).sandbox, api, status, hours, ago, str(note), posted)
        return {"id": posted, "worlds": len(names), "api": api, "status": status, "hours": hours}

    @staticmethod
    def _play(sandbox: Sandbox, api, status, hours, ago, note, class_id: int | None = None) -> None:
        start = sandbox.clock.unix() - int(60 * ago)
        played = sandbox.model("utility").add_incident(api, status, start, start + int(3600 * hours), note)
        if class_id is not None:     # which world incident it is, in the world's own store (clear_incidents)
            plays = sandbox.store.get_meta(CLASS_PLAYS, {})
            plays[str(class_id)] = played["id"]
            sandbox.store.set_meta(CLASS_PLAYS, plays)

    def _replay_incidents(self, sandbox: Sandbox) -> None:
        now = time.time()
        for r in self.registry.all("SELECT * FROM class_incidents WHERE id NOT IN (SELECT id FROM "
                                   "class_incidents_cleared) ORDER BY id"):
            if now < r["posted"] + 3600 * r["hours"]:
                self._play(sandbox, r["api"], r["status"], r["hours"], r["started_minutes_ago"], r["note"], r["id"])

    def class_incidents(self) -> list[dict]:
        """Every incident the teacher posted, oldest first: ``id``, ``api``, ``status``, ``hours``,
        ``started_minutes_ago``, ``note``, ``posted`` (Unix seconds, wall clock), ``cleared`` (Unix seconds or
        None), ``replays`` (still played into worlds made or reset now)."""
        now = time.time()
        rows = self.registry.all("SELECT i.*, c.cleared FROM class_incidents i LEFT JOIN class_incidents_cleared c "
                                 "ON c.id = i.id ORDER BY i.id")
        return [{**{k: r[k] for k in ("id", "api", "status", "hours", "started_minutes_ago", "note", "posted",
                                      "cleared")},
                 "replays": r["cleared"] is None and now < r["posted"] + 3600 * r["hours"]} for r in rows]

    def clear_incidents(self, ids=None) -> dict:
        """Take back class incidents (``ids``; None: every one not cleared yet). A cleared incident is no longer
        played into worlds made or reset from now on, and every world that plays it has it ended at the world's
        own now (:meth:`~toolkit.sandbox.utility.models.Model.end_incident`): its status is back to normal from
        the status API's next 5-minute refresh, and its history keeps the outage as long as it lasted (it did
        happen); an incident not begun yet in a world's time is removed there. Returns ``{"cleared": [ids],
        "worlds": N}`` (the worlds where an incident ended or went). An unknown id is a :class:`ClassroomError`
        before anything changes; an id cleared before is cleared again (nothing more happens)."""
        with self._lock:
            known = {r["id"] for r in self.registry.all("SELECT id FROM class_incidents")}
            if ids is None:
                done = {r["id"] for r in self.registry.all("SELECT id FROM class_incidents_cleared")}
                chosen = sorted(known - done)
            else:
                chosen = []
                for value in ids:
                    if isinstance(value, bool) or not isinstance(value, int) or value not in known:
                        raise ClassroomError(f"no class incident {str(value)[:20]!r}: the incidents posted are "
                                             f"{', '.join(map(str, sorted(known))) or 'none'} (toolkit classroom "
                                             "incidents lists them)")
                    chosen.append(value)
                chosen = sorted(set(chosen))
            now = time.time()
            with self.registry.tx() as db:
                db.executemany("INSERT INTO class_incidents_cleared (id, cleared) VALUES (?, ?) ON CONFLICT(id) DO "
                               "NOTHING", [(i, now) for i in chosen])
            names = self.names() if chosen else []
        changed = 0
        for name in names:
            sandbox = self.world(name).sandbox
            plays = sandbox.store.get_meta(CLASS_PLAYS, {})
            outcomes = [sandbox.model("utility").end_incident(plays[str(i)]) for i in chosen if str(i) in plays]
            changed += any(o in ("ended", "removed") for o in outcomes)
        return {"cleared": chosen, "worlds": changed}

    # ------------------------------------------------------------------ the teacher's progress table
    def _note_check(self, name: str, row: dict) -> None:
        """Keep a self-check verdict of ``name``'s world (``POST /sandbox/checks``), across the world's resets."""
        with self.registry.tx() as db:
            db.execute("INSERT INTO class_checks (student, exercise, lesson, ok, at) VALUES (?, ?, ?, ?, ?)",
                             (name, row["exercise"], row["lesson"], int(bool(row["ok"])), float(row["at"])))
            db.execute("DELETE FROM class_checks WHERE student = ? AND id <= (SELECT id FROM class_checks WHERE "
                       "student = ? ORDER BY id DESC LIMIT 1 OFFSET ?)", (name, name, CHECKS_PER_STUDENT))

    def _note_raised(self, name: str, row: dict) -> None:
        """Keep the kind of the last error ``name``'s own code raised (``POST /sandbox/raised``), across resets."""
        with self.registry.tx() as db:
            db.execute("INSERT INTO class_raised (student, kind, at) VALUES (?, ?, ?) ON CONFLICT(student) DO UPDATE "
                       "SET kind = excluded.kind, at = excluded.at", (name, str(row["kind"]), float(row["at"])))

    def _flush_errors(self) -> None:
        """Write the last error each student's world answered (kept in memory as they happen) to the registry."""
        errors, self._errors = self._errors, {}
        if errors:
            with self.registry.tx() as db:
                db.executemany("INSERT INTO class_errors (student, at, status, body, method, path) VALUES "
                               "(?, ?, ?, ?, ?, ?) ON CONFLICT(student) DO UPDATE SET at = excluded.at, status = "
                               "excluded.status, body = excluded.body, method = excluded.method, path = excluded.path",
                               [(name, *error) for name, error in errors.items()])

    def progress(self) -> list[dict]:
        """One dict per student with a world, in order of creation: ``student``, ``last_activity`` (Unix seconds,
        wall clock), ``last_error`` (the last error answer of their world: ``at``, ``status``, ``body`` — only the
        keys that say its kind, :data:`ERROR_KEYS` —, ``method``, ``path``; None without one), ``last_raised`` (the
        kind of the last error their own code raised in their kernel: ``kind``, a class name, and ``at``; None
        without one), ``right`` (the exercises they checked right at least once), ``not_yet`` (checked, never right),
        ``attempts`` (how many times they checked each exercise, in the walkthroughs' order), ``last_exercise`` and
        ``last_check`` (their newest check's exercise and wall time; None before any), ``checks`` (how many)."""
        self.flush()
        checks: dict[str, list] = {}
        for r in self.registry.all("SELECT student, exercise, ok, at FROM class_checks ORDER BY id"):
            checks.setdefault(r["student"], []).append(r)
        errors = {r["student"]: r for r in self.registry.all("SELECT * FROM class_errors")}
        raised = {r["student"]: r for r in self.registry.all("SELECT * FROM class_raised")}
        out = []
        for r in self.registry.all("SELECT name, last_activity FROM students ORDER BY created, name"):
            mine = checks.get(r["name"], [])
            right = {c["exercise"] for c in mine if c["ok"]}
            tried = {c["exercise"] for c in mine}
            error = errors.get(r["name"])
            out.append({
                "student": r["name"], "last_activity": r["last_activity"],
                "last_error": None if error is None else {
                    "at": error["at"], "status": error["status"], "body": json.loads(error["body"]),
                    "method": error["method"], "path": error["path"]},
                "last_raised": None if r["name"] not in raised else {
                    "kind": raised[r["name"]]["kind"], "at": raised[r["name"]]["at"]},
                "attempts": {e: sum(1 for c in mine if c["exercise"] == e) for e in sorted(tried, key=_exercise_order)},
                "right": sorted(right, key=_exercise_order), "not_yet": sorted(tried - right, key=_exercise_order),
                "last_exercise": mine[-1]["exercise"] if mine else None,
                "last_check": mine[-1]["at"] if mine else None,
                "checks": len(mine)})
        return out

    # ------------------------------------------------------------------ the city (no token)
    def _city_sandbox(self) -> Sandbox:
        return self._city_app()[0]

    def _city_app(self):
        if self._city is None:
            with self._lock:
                if self._city is None:
                    sandbox = Sandbox(":memory:", **self._options, base_url=self.base_url)
                    self._city = (sandbox, create_app(sandbox))
        return self._city

    # ------------------------------------------------------------------ ASGI
    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                message = await receive()
                while message["type"] != "lifespan.shutdown":
                    await send({"type": message["type"] + ".complete"})
                    message = await receive()
                await send({"type": "lifespan.shutdown.complete"})
            return
        path = full_path = scope["path"]
        raw_send = send
        behind = self._behind(path)
        if behind:      # reached through the hub's proxy: answer as if at the root, rewrite what points back
            path = path[len(self.prefix):] or "/"
            scope = {**scope, "path": path, "raw_path": path.encode("utf-8"), "toolkit.forwarded": True}
            send = _ReversePrefix(send, self.prefix, scope)
        elif not self._host_ok(scope):    # at its own address: only the names it is configured for (a forged
            # Host would move the world's address, and with it where its pages and tokens say they are)
            await self._refuse(scope, send, 400, {"msg": "this class sandbox does not answer to that Host: the "
                                                          "teacher names its addresses with --trusted-host",
                                                   "code": -400})
            return
        if path == "/classroom" or path.startswith("/classroom/"):
            await self._teacher_api(scope, receive, send)
            return
        name, token, source, scope = _credential(scope)
        session = None
        if self.hub is not None and behind and source != "header":   # a browser through the hub's proxy: whom
            # the hub logged in (a request at the class sandbox's own address comes from a kernel, not a browser)
            if not self._has_cookie(scope, self.hub.cookie_name):     # anonymous: a login costs its sender
                wait = await self._peer_turn(scope)
                if wait is not None:
                    await _too_many(send, wait, self.anonymous)
                    return
            name = await self.hub.identify(scope, raw_send, full_path)
            if name is None:                              # answered: to the hub's login, or its callback
                return
            source = "hub"
        elif source == "ticket":
            held = self._tickets.pop(token, None)
            if held is None or held[1] < time.monotonic():
                name = None
            else:
                name, session = held[0], self._session(held[0], _hub_session(scope))
        elif source == "cookie":
            self.generation("")              # forgets the sessions of a student revoked meanwhile
            kept = self._sessions.get(token)
            hub_session = _hub_session(scope)
            if kept is None or kept[2] < time.monotonic() or kept[3] != hub_session:
                if kept is not None and kept[3] != hub_session:   # a hub logout, or another hub user, here
                    self._sessions.pop(token, None)
                name = None
            else:
                name = kept[0]
        if name is None:
            if source in ("ticket", "cookie"):
                await self._refuse(scope, send, 401, "this browser's ticket or session is spent, expired or revoked: "
                                                     "open the login link the notebook shows again")
                return
            await self._refuse(scope, send, 401, "this is a class sandbox: every request needs the student's name and token. "
                                      f"In a notebook set {'TOOLKIT_CLASSROOM_URL'}, TOOLKIT_CLASSROOM_TOKEN and "
                                      "JUPYTERHUB_USER (or call toolkit.connect(classroom=URL, student=NAME, "
                                      f"token=TOKEN)); other clients send the header {HEADER}: NAME:TOKEN. The "
                                      "teacher prints a token with `toolkit classroom token NAME --secret-file F`; "
                                      "a map's tiles come through the student's own Jupyter server.")
            return
        if source == "header" and not self.check(name, token):
            await self._refuse(scope, send, 401, f"wrong token for student {name[:64]!r}: ask the teacher for yours "
                                                 "(`toolkit classroom token NAME --secret-file F`) and set it as "
                                                 "TOOLKIT_CLASSROOM_TOKEN or connect(token=...)")
            return
        if source != "header" and scope["method"] not in _SAFE and not _same_origin(scope):
            # a browser's session (cookie, ticket, the hub's login) changes a world only from the page's own origin:
            # a page elsewhere on the same site (another port) must not act in a logged-in student's world
            await self._refuse(scope, send, 403, "a browser changes a world only from the class sandbox's own pages "
                                                 "(this request's Origin is another)", code=-403)
            return
        share = self._share(name)
        size = _body_bound(scope)
        refused = await self._enter(share, size)
        if refused is not None:
            await _too_many(send, refused, self.limits)
            return
        try:
            world = self._worlds.get(name)
            if world is None:
                world = await self._make(name)
            world.calls += 1
            world.last_activity = time.time()
            self._used.add(name)
            host = None if behind else _host(scope)  # a browser behind the proxy does not move the world's address
            if host is not None and host != world.host:
                world.host = host
                world.sandbox.base_url = f"{scope.get('scheme', 'http')}://{host.decode('ascii')}"
            if behind:
                send.world_base = world.sandbox.base_url
            if self._flushing is None:        # this request's activity is written within FLUSH_EVERY seconds
                self._flushing = asyncio.get_running_loop().call_later(FLUSH_EVERY, self._flush_later)
            if session is not None:
                send = _with_cookie(send, session)          # its path is put under the prefix like the world's
            if self.folder is not None and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
                await asyncio.to_thread(self._flush_world, world)   # written before the world's data can change
            await world.app(scope, receive, _ErrorWatch(send, self, name, scope))
        finally:
            self._leave(share, size)

    def _flush_later(self) -> None:
        self._flushing = asyncio.ensure_future(asyncio.to_thread(self.flush))
        self._flushing.add_done_callback(self._flushed_now)

    def _flushed_now(self, future) -> None:
        self._flushing = None
        if not future.cancelled() and future.exception() is not None:
            import logging

            logging.getLogger("toolkit.sandbox.classroom").warning("the activity was not written: %s",
                                                                   type(future.exception()).__name__)

    async def _make(self, name: str) -> World:
        """Make (or open) ``name``'s world in the class's world threads: making a world file waits on the disk more
        than on the processor, so many are made side by side (:meth:`world`)."""
        if self._maker is None:
            from concurrent.futures import ThreadPoolExecutor

            self._maker = ThreadPoolExecutor(MAKERS, thread_name_prefix="toolkit-worlds")
        return await asyncio.get_running_loop().run_in_executor(self._maker, self.world, name)

    # ------------------------------------------------------------------ anyone on the network
    def _host_ok(self, scope) -> bool:
        """Whether the request's ``Host`` is one this class sandbox is configured for (:data:`LOCAL_HOSTS`,
        ``trusted_hosts``, ``*`` for any), whatever its port."""
        raw = None
        for key, value in scope["headers"]:
            if key == b"host":
                raw = value
                break
        if raw is None:
            return False
        if raw in self._hosts_ok:
            return True
        if len(raw) > 255 or not _HOST_RE.fullmatch(raw):
            return False
        text = raw.decode("ascii").lower()
        name = text[1:text.index("]")] if text.startswith("[") else text.partition(":")[0]
        if name not in self.trusted_hosts and "*" not in self.trusted_hosts:
            return False
        if len(self._hosts_ok) < 64:
            self._hosts_ok.add(raw)
        return True

    @staticmethod
    def _has_cookie(scope, name: str) -> bool:
        wanted = (name + "=").encode("latin-1")
        return any(key == b"cookie" and wanted in value for key, value in scope["headers"])

    @staticmethod
    def _peer(scope) -> str:
        """The sender's address: the TCP peer's, and for a request through the hub's proxy (under the prefix) the
        address the proxy forwarded for (the last one of ``X-Forwarded-For``, the one the proxy added). A header
        anyone can write, so it only divides the proxy's share: every sender together is bounded as well
        (:meth:`_peer_turn`)."""
        client = scope.get("client")
        peer = str(client[0]) if client else "?"
        if scope.get("toolkit.forwarded"):
            for key, value in scope["headers"]:
                if key == b"x-forwarded-for":
                    return peer + ">" + value.rpartition(b",")[2].strip()[:64].decode("latin-1")
        return peer

    async def _peer_turn(self, scope) -> "float | None":
        """A turn for a refused or anonymous request, counted per sender's address (:attr:`anonymous`: a rate
        and a burst): None when taken, else (past the rate) the request is held :func:`_hold` and the seconds it
        should wait are returned, so that a flood costs its sender, not the class."""
        key = self._peer(scope)
        share = self._peers.get(key)
        limits = self.anonymous
        if share is None:
            while len(self._peers) >= PEERS_MAX:
                self._peers.pop(next(iter(self._peers)))
            share = self._peers[key] = _Share(limits.burst)
        now = time.monotonic()
        share.tokens = min(float(limits.burst), share.tokens + (now - share.stamp) * limits.rate)
        share.stamp = now
        everyone = self._everyone              # all senders together (forwarded addresses can be made up)
        everyone.tokens = min(ANYONE_BURST, everyone.tokens + (now - everyone.stamp) * ANYONE_RATE)
        everyone.stamp = now
        if share.tokens >= 1.0 and everyone.tokens >= 1.0:
            share.tokens -= 1.0
            everyone.tokens -= 1.0
            return None
        if share.inflight >= limits.concurrent:      # held at most this many at once: the others at once
            return 1.0
        share.inflight += 1
        try:
            await asyncio.sleep(_hold(limits.wait))
        finally:
            share.inflight -= 1
        return max(1.0, (1.0 - share.tokens) / limits.rate)

    async def _refuse(self, scope, send, status: int, msg, code: int | None = None) -> None:
        """Answer a refused request (``msg``: text, or the whole JSON body), after its sender's turn
        (:meth:`_peer_turn`)."""
        wait = await self._peer_turn(scope)
        if wait is not None:
            await _too_many(send, wait, self.anonymous)
        elif isinstance(msg, dict):
            await _json(send, status, msg)
        elif status == 401:
            await _unauthorized(send, msg)
        else:
            await _json(send, status, {"msg": msg, "code": code if code is not None else -status})

    # ------------------------------------------------------------------ fair shares
    async def _enter(self, share: _Share, size: int) -> "float | None":
        """Take a turn of ``share`` for a request with a body of up to ``size`` bytes: None once taken, else the
        seconds the student should wait before trying again (the request waited :attr:`Limits.wait` first)."""
        limits = self.limits
        now = time.monotonic()
        share.tokens = min(float(limits.burst), share.tokens + (now - share.stamp) * limits.rate)
        share.stamp = now
        share.tokens -= 1.0
        if share.tokens < 0:
            delay = -share.tokens / limits.rate
            if delay > limits.wait:          # the bucket is that far in debt: refuse (late: no answer spins)
                share.tokens += 1.0
                hold = _hold(limits.wait)
                await asyncio.sleep(hold)
                return delay - hold
            await asyncio.sleep(delay)
        deadline = time.monotonic() + max(0.0, limits.wait - max(0.0, -share.tokens / limits.rate))
        first = True
        while not (share.inflight < limits.concurrent and share.bytes + size <= limits.body_bytes
                   and (not first or not share.queue)):
            left = deadline - time.monotonic()
            if left <= 0:
                self._wake(share)
                return 1.0
            waiter = asyncio.get_running_loop().create_future()
            share.queue.append(waiter)
            try:
                await asyncio.wait_for(waiter, left)
            except asyncio.TimeoutError:
                pass
            finally:
                try:
                    share.queue.remove(waiter)
                except ValueError:
                    pass
            first = False
        share.inflight += 1
        share.bytes += size
        return None

    def _share(self, name: str) -> _Share:
        share = self._shares.get(name)
        if share is None:
            share = self._shares[name] = _Share(self.limits.burst)
        return share

    def _leave(self, share: _Share, size: int) -> None:
        share.inflight -= 1
        share.bytes -= size
        self._wake(share)

    @staticmethod
    def _wake(share: _Share) -> None:
        """Wake the oldest request waiting for a turn (it checks the limits again itself)."""
        while share.queue:
            waiter = share.queue.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    # ------------------------------------------------------------------ browsers: tickets and sessions
    def _session(self, name: str, hub_session: str | None = None) -> str:
        """A new browser session of ``name`` (the cookie's value): the student's oldest goes past
        :attr:`Limits.sessions`, the oldest of all past :data:`SESSIONS_MAX`. ``hub_session``: the hub's session
        id on this browser (its ``jupyterhub-session-id`` cookie, which the hub changes at every login and clears
        at logout): the session holds only while the browser keeps that one."""
        now = time.monotonic()
        mine = [k for k, (who, _, until, _) in self._sessions.items() if who == name or until < now]
        for key in mine:
            if self._sessions[key][2] < now:
                self._sessions.pop(key, None)
        mine = [k for k, v in self._sessions.items() if v[0] == name]
        for key in mine[:max(0, len(mine) - self.limits.sessions + 1)]:
            self._sessions.pop(key, None)
        while len(self._sessions) >= SESSIONS_MAX:
            self._sessions.pop(next(iter(self._sessions)), None)
        value = _secrets.token_urlsafe(24)
        self._sessions[value] = (name, self.generation(name), now + SESSION_SECONDS, hub_session)
        return value

    def _behind(self, path: str) -> bool:
        return bool(self.prefix) and (path == self.prefix or path.startswith(self.prefix + "/"))

    def ticket(self, name: str) -> dict:
        """A single-use ticket (valid :data:`TICKET_SECONDS`) that binds a browser to ``name``'s world: a login
        link a notebook shows carries the ticket, not the student's token. A student holds at most
        :attr:`Limits.tickets` (a new one replaces their own oldest); past :data:`TICKETS_MAX` in all, a
        :class:`ClassroomError` (nobody's ticket is evicted for another's)."""
        now = time.monotonic()
        for key, (_, until) in list(self._tickets.items()):
            if until < now:
                self._tickets.pop(key, None)
        mine = [k for k, (who, _) in self._tickets.items() if who == name]
        for key in mine[:max(0, len(mine) - self.limits.tickets + 1)]:
            self._tickets.pop(key, None)
        if len(self._tickets) >= TICKETS_MAX:
            raise ClassroomError(f"the class sandbox holds {TICKETS_MAX} browser tickets: try again in a minute")
        value = _secrets.token_urlsafe(24)
        self._tickets[value] = (name, now + TICKET_SECONDS)
        return {"ticket": value, "expires_in": TICKET_SECONDS, "parameter": TICKET}

    async def _teacher_api(self, scope, receive, send) -> None:
        path, method = scope["path"], scope["method"]
        given = next((v for k, v in scope["headers"] if k == _TEACHER), b"")
        teacher = hmac.compare_digest(given, self._teacher.encode())
        if path == "/classroom/health":     # anyone may know it is up; the teacher also how many worlds
            if teacher:
                await _json(send, 200, {"ok": True, "worlds": len(self._worlds), "ready": self.ready.is_set()})
            else:
                await self._refuse(scope, send, 200, {"ok": True})     # anonymous: counted per sender
            return
        if path == "/classroom/ticket" and method == "POST":     # a student's own call (their header)
            name, token, source, _ = _credential(scope)
            if name is None or source != "header" or not self.check(name, token):
                await self._refuse(scope, send, 401, f"a ticket is a student's own: send the header {HEADER}: "
                                                     "NAME:TOKEN")
                return
            share = self._share(name)
            refused = await self._enter(share, 0)          # a ticket is one of the student's own requests
            if refused is not None:
                await _too_many(send, refused, self.limits)
                return
            try:
                made = self.ticket(name)
            except ClassroomError as exc:
                await _too_many(send, 60.0, self.limits, str(exc))
                return
            finally:
                self._leave(share, 0)
            await _json(send, 200, made)
            return
        if not teacher:
            await self._refuse(scope, send, 401, f"the teacher's calls need the header {TEACHER_HEADER} (toolkit."
                                                 "classroom.Teacher(url, secret) or `toolkit classroom worlds --url "
                                                 "URL --secret-file F` send it)")
            return
        try:
            if path == "/classroom/worlds" and method == "GET":
                rows = await asyncio.to_thread(self.worlds)
                await _json(send, 200, {"worlds": rows})
            elif path.startswith("/classroom/worlds/") and path.endswith("/reset") and method == "POST":
                name = unquote(path[len("/classroom/worlds/"):-len("/reset")])
                if not NAME_RE.fullmatch(name):
                    raise ClassroomError(f"not a student name: {name[:64]!r}")
                world = await asyncio.to_thread(self.reset, name)
                await _json(send, 200, {"student": name, "reset": world is not None})
            elif path == "/classroom/progress" and method == "GET":
                await _json(send, 200, {"students": await asyncio.to_thread(self.progress)})
            elif path == "/classroom/incidents" and method == "GET":
                await _json(send, 200, {"incidents": await asyncio.to_thread(self.class_incidents)})
            elif path == "/classroom/incidents/clear" and method == "POST":
                body = await _read_json(receive)
                if set(body) - {"ids", "all"} or (body.get("all") is True) == ("ids" in body) or (
                        "ids" in body and not isinstance(body["ids"], list)):
                    raise ClassroomError('a clear is {"ids": [incident ids]} or {"all": true}')
                ids = None if body.get("all") is True else body["ids"]
                await _json(send, 200, await asyncio.to_thread(self.clear_incidents, ids))
            elif path == "/classroom/incidents" and method == "POST":
                body = await _read_json(receive)
                kw = {k: body[k] for k in ("hours", "started_minutes_ago", "note") if k in body}
                answer = await asyncio.to_thread(self.incident, str(body.get("api", "")),
                                                 str(body.get("status", "RED")), **kw)
                await _json(send, 200, answer)
            else:
                await _json(send, 404, {"msg": f"no such teacher call: {method} {path[:80]}", "code": -404})
        except (ClassroomError, ValueError, TypeError) as exc:
            await _json(send, 400, {"msg": str(exc), "code": -2})

    def close(self) -> None:
        """Stop every world's webhook deliveries, write the activity to the registry and thaw the heap (the
        worlds it froze are collected once unused)."""
        try:
            self.flush()
        except Exception:  # noqa: BLE001 — a closed registry: nothing left to write
            pass
        for world in list(self._worlds.values()):
            world.sandbox.model("events").stop()
        if self._maker is not None:
            self._maker.shutdown(wait=False, cancel_futures=True)
        if self._city is not None:
            self._city[0].model("events").stop()
        gc.unfreeze()


def _exercise_order(exercise: str):
    """Exercises in the walkthroughs' order: lesson, then number (``00.2`` before ``00.10``)."""
    lesson, _, number = exercise.partition(".")
    return lesson, int(number) if number.isdigit() else 0


class _ErrorWatch:
    """The ``send`` of a request a student's world answers: an error answer (HTTP 400 and above) is noted as the
    student's last error — its status, the keys of its JSON body that say its kind (:data:`ERROR_KEYS`; never its
    message), the method and path — in the class sandbox's ``_errors`` (written to the registry with the
    activity)."""

    __slots__ = ("send", "room", "name", "scope", "status", "body")

    LIMIT = 4096
    """Bytes of an error answer's body read for its kind (the spec's error bodies are far shorter)."""

    def __init__(self, send, room: "Classroom", name: str, scope):
        self.send, self.room, self.name, self.scope = send, room, name, scope
        self.status, self.body = 0, b""

    async def __call__(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message.get("status", 200)
        elif message["type"] == "http.response.body" and self.status >= 400:
            if len(self.body) < self.LIMIT:
                self.body += message.get("body", b"")[:self.LIMIT - len(self.body)]
            if not message.get("more_body"):
                self._note()
        await self.send(message)

    def _note(self) -> None:
        try:
            parsed = json.loads(self.body)
        except (ValueError, UnicodeDecodeError):
            parsed = None
        kind = {k: parsed[k] if isinstance(parsed[k], int) else parsed[k][:64] for k in ERROR_KEYS
                if k in parsed and isinstance(parsed[k], (str, int)) and not isinstance(parsed[k], bool)} \
            if isinstance(parsed, dict) else {}
        self.room._errors[self.name] = (time.time(), self.status, json.dumps(kind), self.scope["method"][:10],
                                        self.scope["path"][:200])


def _credential(scope):
    """``(name, secret, source, scope)`` of a request, the scope without the classroom's header, query
    parameters and cookie. ``source`` is ``header`` (``secret``: the student's token), ``ticket`` (``secret``: a
    ticket of the query, not yet checked), ``cookie`` (``secret``: a session id, not yet checked) or None (nothing
    given). The query parameter :data:`~toolkit.classroom.QUERY` (a token in a link) is removed and not taken."""
    headers = scope["headers"]
    value = source = None
    kept = []
    cookie_value = None
    for key, raw in headers:
        if key == _HEADER:
            value, source = raw.decode("latin-1"), "header"
            continue
        if key == b"cookie" and (COOKIE + "=").encode() in raw:
            parts = [p.strip() for p in raw.decode("latin-1").split(";")]
            mine = [p for p in parts if p.startswith(COOKIE + "=")]
            cookie_value = unquote(mine[-1][len(COOKIE) + 1:]) if mine else None
            rest = "; ".join(p for p in parts if not p.startswith(COOKIE + "="))
            if rest:
                kept.append((key, rest.encode("latin-1")))
            continue
        kept.append((key, raw))
    query = scope.get("query_string", b"")
    new_query = query
    secret = None
    if (QUERY + "=").encode() in query or (TICKET + "=").encode() in query:
        pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
        spent = [v for k, v in pairs if k == TICKET]
        if spent and value is None:
            secret, source = spent[-1], "ticket"
        new_query = urlencode([(k, v) for k, v in pairs if k not in (QUERY, TICKET)]).encode("latin-1")
    if value is None and source is None and cookie_value:
        secret, source = cookie_value, "cookie"
    if len(kept) != len(headers) or new_query != query:
        scope = {**scope, "headers": kept, "query_string": new_query}
    if value is None:
        return ("", secret, source, scope) if source else (None, None, None, scope)
    encoded, _, token = value.rpartition(":")
    return unquote(encoded), token, source, scope


HUB_SESSION_COOKIE = "jupyterhub-session-id"
"""The hub's session cookie (path ``/``, not encrypted, "so other services on this domain can read it"): a new
value at every hub login, cleared at logout."""


def _hub_session(scope) -> str | None:
    """The value of the browser's :data:`HUB_SESSION_COOKIE` (None without one: not behind a hub)."""
    for key, raw in scope["headers"]:
        if key == b"cookie" and HUB_SESSION_COOKIE.encode() in raw:
            for part in raw.decode("latin-1").split(";"):
                name, _, value = part.strip().partition("=")
                if name == HUB_SESSION_COOKIE:
                    return value or None
    return None


def _body_bound(scope) -> int:
    """The body bytes a request may bring: its ``Content-Length`` (the guard holds it to that), else the guard's
    bound for its content type (a chunked body)."""
    from .guard import MAX_BODY, MAX_MULTIPART

    ctype = declared = None
    chunked = False
    for key, value in scope["headers"]:           # one pass: every request of a hammer comes here
        if key == b"content-length":
            declared = value
        elif key == b"content-type":
            ctype = value
        elif key == b"transfer-encoding":
            chunked = True
    if declared is None and not chunked and scope["method"] in ("GET", "HEAD"):
        return 0
    bound = MAX_MULTIPART if ctype is not None and ctype.lower().startswith(b"multipart/form-data") else MAX_BODY
    if declared is not None and declared.isdigit():
        return min(int(declared), bound)
    return bound


def normalize_prefix(prefix: str | None) -> str:
    """The path prefix a proxy serves the class sandbox under (``/services/toolkit-classroom/`` →
    ``/services/toolkit-classroom``; empty or ``/``: none).

    >>> normalize_prefix("/services/toolkit-classroom/"), normalize_prefix("/"), normalize_prefix(None)
    ('/services/toolkit-classroom', '', '')
    >>> normalize_prefix("services/x")
    Traceback (most recent call last):
    ...
    toolkit.classroom.ClassroomError: a path prefix starts with / (like /services/toolkit-classroom/): 'services/x'
    """
    prefix = (prefix or "").strip()
    if prefix and not prefix.startswith("/"):
        raise ClassroomError(f"a path prefix starts with / (like /services/toolkit-classroom/): {prefix!r}")
    if any(c in prefix for c in "?#% \t\n"):
        raise ClassroomError(f"a path prefix is a plain path: {prefix!r}")
    return prefix.rstrip("/")


_COOKIE_PATH = re.compile(rb"(;\s*[Pp][Aa][Tt][Hh]=)(/[^;]*)")
_FONT_URL = b"url('/sandbox/fonts/"


class _ReversePrefix:
    """The ``send`` of a request that came through a proxy under ``prefix`` (a hub's ``/services/NAME``): what
    the world's app answers pointing back at the sandbox is made to point under the prefix, as a reverse proxy
    does (Apache's ProxyPassReverse and ProxyPassReverseCookiePath): redirects (``Location`` at the world's own
    address, at this request's origin, or an absolute path), cookie paths, and the pages' font URLs. Redirects
    elsewhere (an app's own redirect URI) stay as they are."""

    def __init__(self, send, prefix: str, scope):
        self.send, self.prefix = send, prefix
        self.world_base: str | None = None
        host = _host(scope)
        self.origin = f"{scope.get('scheme', 'http')}://{host.decode('ascii')}" if host else None
        self.start: dict | None = None
        self.body: list[bytes] = []

    def location(self, value: str) -> str:
        for base in (self.world_base, self.origin):
            if base and (value == base or value.startswith((base + "/", base + "?"))):
                rest = value[len(base):]
                return self.prefix + (rest if rest.startswith("/") else "/" + rest)
        if value.startswith("/") and not value.startswith("//"):
            return self.prefix + value
        return value

    async def __call__(self, message) -> None:
        if message["type"] == "http.response.start":
            headers, html = [], False
            for key, value in message.get("headers", ()):
                if key == b"location":
                    value = self.location(value.decode("latin-1")).encode("latin-1")
                elif key == b"set-cookie":
                    value = _COOKIE_PATH.sub(lambda m: m.group(1) + self.prefix.encode() + m.group(2), value)
                elif key == b"content-type":
                    html = value.startswith(b"text/html")
                headers.append((key, value))
            message = {**message, "headers": headers}
            if html:                  # held until the body is whole: its length changes
                self.start = message
                return
        elif message["type"] == "http.response.body" and self.start is not None:
            self.body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(self.body).replace(_FONT_URL, b"url('" + self.prefix.encode() + b"/sandbox/fonts/")
            start, self.start = self.start, None
            start["headers"] = [(k, str(len(body)).encode() if k == b"content-length" else v)
                                for k, v in start["headers"]]
            await self.send(start)
            message = {"type": "http.response.body", "body": body}
        await self.send(message)


_SAFE = ("GET", "HEAD", "OPTIONS")


def _same_origin(scope) -> bool:
    """Whether a browser's request comes from the page's own origin: its ``Origin`` (else its ``Referer``) names
    the host and port the request was sent to (its ``Host``, which the browser sets and a page cannot forge)."""
    from urllib.parse import urlsplit

    host = origin = referer = None
    for key, value in scope["headers"]:
        if key == b"host":
            host = value
        elif key == b"origin":
            origin = value
        elif key == b"referer":
            referer = value
    given = origin if origin is not None and origin != b"null" else referer
    if not host or not given:
        return False
    try:
        parts = urlsplit(given.decode("latin-1"))
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.decode("latin-1").lower()


def _host(scope) -> bytes | None:
    for key, value in scope["headers"]:
        if key == b"host":
            return value if len(value) <= 255 and _HOST_RE.fullmatch(value) else None
    return None


def _with_cookie(send, session: str):
    cookie = (f"{COOKIE}={session}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Lax").encode("latin-1")

    async def sending(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), (b"set-cookie", cookie)]}
        await send(message)
    return sending


async def _json(send, status: int, payload, headers=()) -> None:
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json;charset=UTF-8"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


_TOO_MANY: dict = {}
"""The answers of :func:`_too_many` without a message of their own, by (limits, seconds): built once, as a
hammering student gets hundreds a second."""


HOLD_TICK = 0.05
"""Refused requests are released on ticks of this many seconds of the event loop's clock (see :func:`_hold`)."""


def _hold(wait: float) -> float:
    """How long a refused request is held before its 429: ``wait`` give or take a quarter, at random (the same
    rate of answers on average as a fixed ``wait``), ending on a tick of :data:`HOLD_TICK` seconds. With a fixed
    hold, a hammer's connections refused together come back together, every ``wait`` seconds, and the class
    sandbox answers them in one burst that another student's request waits behind (180 answers within 50 ms,
    bench_classroom ``--hammer-bursts``); spread at random, each answer woke the event loop on its own (a third
    more CPU per answer, ``--hammer-before-after``). Released on ticks, the refusals of a tick are answered in one
    turn of the event loop, and a tick holds a twentieth of them."""
    import math

    now = asyncio.get_running_loop().time()
    until = math.ceil((now + wait * (0.75 + 0.5 * random.random())) / HOLD_TICK) * HOLD_TICK
    return max(0.0, until - now)


async def _too_many(send, after: float, limits: Limits, msg: str | None = None) -> None:
    import math

    seconds = max(1, math.ceil(after))
    if msg is None:
        made = _TOO_MANY.get((limits, seconds))
        if made is None:
            if len(_TOO_MANY) > 256:
                _TOO_MANY.clear()
            body = json.dumps({"msg": f"too many requests from this student at once: {limits}. Retry after "
                                      f"{seconds} s.", "code": -429}, ensure_ascii=False).encode("utf-8")
            made = _TOO_MANY[(limits, seconds)] = (
                {"type": "http.response.start", "status": 429,
                 "headers": [(b"content-type", b"application/json;charset=UTF-8"),
                             (b"content-length", str(len(body)).encode()), (b"retry-after", str(seconds).encode())]},
                {"type": "http.response.body", "body": body})
        await send(made[0])
        await send(made[1])
        return
    await _json(send, 429, {"msg": msg, "code": -429}, [(b"retry-after", str(seconds).encode())])


async def _unauthorized(send, msg: str) -> None:
    await _json(send, 401, {"msg": msg, "code": -401}, [(b"www-authenticate", b'Classroom realm="toolkit"')])


async def _read_json(receive, limit: int = 65536) -> dict:
    chunks, size = [], 0
    while True:
        message = await receive()
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ClassroomError(f"body over {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    raw = b"".join(chunks) or b"{}"
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ClassroomError("the body is not JSON") from None
    if not isinstance(body, dict):
        raise ClassroomError("the body must be a JSON object")
    return body


class ClassroomServer(LoopbackServer):
    """A :class:`Classroom` served by uvicorn (a daemon thread with :meth:`start`, the calling thread with
    :meth:`serve_forever`). ``host`` other than loopback (e.g. ``0.0.0.0`` in a cluster's pod) must be asked for
    explicitly; every request but the city's tiles needs a token anyway.

    >>> with ClassroomServer("a-class-secret-of-32-characters!") as server:     # doctest: +SKIP
    ...     print(server.base_url)
    """

    loopback_only = False

    def __init__(self, secret: "str | Secret", port: int = 0, db: str | None = None, *, host: str = "127.0.0.1",
                 connections: "ConnectionLimits | None" = None, **options):
        from .connections import ConnectionLimits

        self.classroom = Classroom(secret, db, **options)
        if host not in ("0.0.0.0", "::", ""):
            self.classroom.trusted_hosts.add(host.lower())    # the address it listens on is one it is reached by
        self.connections = connections or ConnectionLimits()
        super().__init__(self.classroom, port, name="toolkit-classroom", host=host)

    def _prepare(self):
        from ..loopback import one_write_protocol, server_stack
        from .connections import guarded_protocol, raise_file_limit

        server = super()._prepare()
        files = raise_file_limit()
        if self.connections.total > files - 256:      # room for the worlds' files, the registry, the webhooks
            self.connections.total = max(64, files - 256)
        # every connection bounded before its head is parsed (toolkit.sandbox.connections); h11's own bound on a
        # head's size too where httptools is missing
        server.config.http = guarded_protocol(one_write_protocol(server_stack()["http"]), self.connections)
        server.config.h11_max_incomplete_event_size = self.connections.head_bytes
        if self.classroom.base_url is None:
            self.classroom.base_url = self.base_url
        if not self.classroom.ready.is_set():
            threading.Thread(target=self.classroom.warm, name="toolkit-classroom-warm", daemon=True).start()
        return server

    def stop(self) -> None:
        super().stop()
        self.classroom.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
