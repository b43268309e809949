"""A class on one sandbox: the client's side (tokens, the class secret, the teacher's calls).

``toolkit classroom --secret-file class.secret`` serves one sandbox with one isolated *world* per student
(:mod:`toolkit.sandbox.classroom`, the server's side). This module is what notebooks and the command line need
to talk to it, and stays light: it imports neither the sandbox nor pandas until a teacher's table is asked for.
Both sides use it (a neutral module, as ``toolkit.loopback`` is): the class sandbox checks tokens with the same
functions the teacher makes them with.

* The **class secret** is a random string in a file (:func:`read_secret`, mode 0600, made on first use). It never
  leaves the teacher's machine and the class sandbox.
* A **student token** is ``HMAC-SHA256(class secret, "student:" + name)`` (:func:`student_token`): the teacher
  hands it out (``toolkit classroom token NAME --secret-file F``, or a hub sets it in the student's
  environment); without the secret it cannot be guessed from the name.
* Every request of a student's client carries :data:`HEADER` (``X-Toolkit-Classroom: <name>:<token>``, the
  name percent-encoded): the URLs stay the sandbox's own (``http://HOST:PORT/local/...``), so a walkthrough's
  stored outputs match. A browser that cannot send the header opens a page once with a single-use ticket
  (``POST /classroom/ticket``, :func:`ticket_url`): the class sandbox answers with a cookie holding a session id of
  its own (never the token). No link carries a student's token.
* A student's token is **revoked alone** with :func:`revoke` (``toolkit classroom revoke NAME``): the student's
  *generation* goes up in the revocation file beside the secret (``F.revoked``), the token becomes a new one
  (handed out at the student's next spawn on a hub) and the class sandbox refuses the old one at once.
* The **teacher** (:class:`Teacher`) signs with a token derived from the secret the same way
  (:func:`teacher_token`), sent as :data:`TEACHER_HEADER`.

>>> token = student_token("class-secret-0123456789", "ann")
>>> len(token), token == student_token("class-secret-0123456789", "ann"), token == student_token("x", "ann")
(32, True, False)
>>> classroom_header("ann", token) == "ann:" + token
True
>>> teacher = Teacher("http://127.0.0.1:8765", "class-secret-0123456789")     # doctest: +SKIP
>>> teacher.worlds()                        # doctest: +SKIP
>>> teacher.reset("ann")                    # doctest: +SKIP
>>> teacher.incident("local_search_keyword", "RED", hours=1)      # doctest: +SKIP
>>> teacher.clear_incident(1)               # doctest: +SKIP
>>> teacher.progress()                      # doctest: +SKIP
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets as _secrets
from pathlib import Path
from typing import Mapping
from urllib.parse import quote

from .secrets import Secret, reveal

__all__ = ["HEADER", "TEACHER_HEADER", "COOKIE", "QUERY", "TICKET", "ENV_URL", "ENV_TOKEN", "ENV_STUDENT",
           "ENV_USER", "ENV_BROWSER",
           "student_token", "teacher_token", "read_secret", "new_secret", "check_name", "classroom_header",
           "ticket_url", "from_env", "revocations", "revoke", "revoked_file", "Teacher", "ClassroomError",
           "error_kind", "INBOX_PROOF_PATH", "inbox_proof"]

HEADER = "X-Toolkit-Classroom"
"""The request header that binds a request to a student's world: ``<percent-encoded name>:<token>``."""
TEACHER_HEADER = "X-Toolkit-Classroom-Teacher"
"""The request header of the teacher's calls (``/classroom/...``): :func:`teacher_token` of the class secret."""
COOKIE = "toolkit_classroom"
"""The cookie a browser keeps its world in: a session id of the class sandbox's own (set when a page is opened with
a ticket, :data:`TICKET`), bounded in time; never the student's token."""
QUERY = "toolkit_classroom"
"""A query parameter that once carried ``<name>:<token>``: a class sandbox no longer accepts it (a link must not
carry a credential) and removes it before a world's app sees the request."""
TICKET = "toolkit_ticket"
"""The query parameter of a single-use browser ticket (``POST /classroom/ticket``): a login link a notebook shows
binds the browser to the student's world without carrying the student's token."""
ENV_URL, ENV_TOKEN, ENV_USER = "TOOLKIT_CLASSROOM_URL", "TOOLKIT_CLASSROOM_TOKEN", "JUPYTERHUB_USER"
ENV_BROWSER = "TOOLKIT_CLASSROOM_BROWSER_URL"
INBOX_PROOF_PATH = "/.toolkit/inbox-owner"
"""Where a student's webhook inbox (:class:`toolkit.events.Inbox`) proves to the class sandbox that it is theirs: the
class sandbox delivers a world's webhooks to an address on its own machine only once the server there answered
:func:`inbox_proof` of a fresh nonce under the student's token."""
"""The class sandbox's address as the student's *browser* reaches it, where that differs from the kernel's
(``TOOLKIT_CLASSROOM_URL``): on a hub, the service's path through the hub's proxy, ``/services/toolkit-classroom``
(a path is read against the page the notebook is on). Login links open there; maps take their tiles from the
student's own Jupyter server, which forwards them to the class sandbox (:mod:`toolkit.jupyter.tiles`)."""
ENV_STUDENT = "TOOLKIT_CLASSROOM_STUDENT"
"""Names the student where ``JUPYTERHUB_USER`` is not set (outside a hub); ``JUPYTERHUB_USER`` wins over it."""

NAME_RE = re.compile(r"[\w.@+-]{1,64}")
"""A student name: 1-64 letters, digits, ``_ . @ + -`` (JupyterHub user names fit)."""


class ClassroomError(ValueError):
    """A bad class secret file, student name or teacher call (the message says what to do)."""


def check_name(name: str) -> str:
    """``name`` when it is a valid student name, else :class:`ClassroomError`.

    >>> check_name("ann.lee@school")
    'ann.lee@school'
    >>> check_name("a b")
    Traceback (most recent call last):
    ...
    toolkit.classroom.ClassroomError: student name 'a b' is not 1-64 letters, digits or _ . @ + -
    """
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise ClassroomError(f"student name {name!r} is not 1-64 letters, digits or _ . @ + -")
    return name


def _mac(secret: "str | Secret", label: str) -> str:
    key = reveal(secret)
    if not key:
        raise ClassroomError("the class secret is empty")
    return hmac.new(key.encode("utf-8"), label.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def student_token(secret: "str | Secret", name: str, generation: int = 0) -> str:
    """The token of student ``name``: HMAC-SHA256 of the name under the class secret (32 hex digits, 128 bits).
    ``generation`` counts the student's revocations (:func:`revoke`): each one gives a new token.

    >>> student_token("s3cret-of-the-class", "ann")[:8]
    '73b258a7'
    >>> student_token("s3cret-of-the-class", "ann", 1) != student_token("s3cret-of-the-class", "ann")
    True
    """
    label = "student:" + check_name(name)
    return _mac(secret, label if not generation else f"{label}\n{int(generation)}")


def inbox_proof(token: "str | Secret", nonce: str) -> str:
    """What a student's inbox answers at :data:`INBOX_PROOF_PATH` for ``nonce``: HMAC-SHA256 of the nonce under the
    student's token (the token itself never travels).

    >>> inbox_proof("t0ken", "n1")[:12]
    '9dcacafde5b9'
    """
    return hmac.new((reveal(token) or "").encode("utf-8"), b"toolkit-inbox:" + nonce.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def revoked_file(secret_file: "str | os.PathLike") -> Path:
    """The revocation file beside a class secret file: ``F.revoked`` (JSON ``{name: generation}``, mode 0600)."""
    return Path(str(secret_file) + ".revoked")


def revocations(secret_file: "str | os.PathLike") -> dict[str, int]:
    """Every revoked student's generation (``{}`` when nobody was revoked); a damaged file is a
    :class:`ClassroomError`, never a silent ``{}`` (a revoked token must stay refused)."""
    import json

    path = revoked_file(secret_file)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not all(isinstance(v, int) and v > 0 for v in data.values()):
            raise ValueError
    except ValueError:
        raise ClassroomError(f"the revocation file {str(path)!r} is damaged: it holds JSON {{name: generation}}; "
                             "restore it (deleting it would make revoked tokens valid again)") from None
    return {str(k): int(v) for k, v in data.items()}


def revoke(secret_file: "str | os.PathLike", name: str) -> int:
    """Revoke student ``name``'s token: their generation goes up in :func:`revoked_file` (written whole, then
    renamed into place, mode 0600). Returns the new generation. The class sandbox reading that file refuses the
    old token and forgets the student's browser sessions; the new token is :func:`student_token` with the
    generation (a hub hands it out at the student's next spawn).

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "class.secret"
    >>> revoke(f, "ann"), revoke(f, "ann"), revocations(f)
    (1, 2, {'ann': 2})
    """
    import json

    check_name(name)
    data = revocations(secret_file)
    data[name] = data.get(name, 0) + 1
    path = revoked_file(secret_file)
    temporary = path.with_name(path.name + f".{_secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, sort_keys=True)
    os.replace(temporary, path)
    return data[name]


def teacher_token(secret: "str | Secret") -> str:
    """The teacher's token: HMAC-SHA256 of a fixed label under the class secret (the secret stays home)."""
    return _mac(secret, "teacher")


def new_secret() -> str:
    """A new random class secret (43 URL-safe characters, 256 bits)."""
    return _secrets.token_urlsafe(32)


def read_secret(path: "str | os.PathLike", create: bool = False) -> Secret:
    """The class secret kept in ``path`` (surrounding whitespace ignored), as a masked :class:`Secret`.

    ``create=True`` writes a new random secret (:func:`new_secret`) there first when the file is missing, with
    mode 0600 (readable by its owner only).

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "class.secret"
    >>> s = read_secret(f, create=True)
    >>> oct(f.stat().st_mode & 0o777), read_secret(f) == s, len(s.reveal())
    ('0o600', True, 43)
    """
    path = Path(path)
    if create and not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:       # made by another process meanwhile: read that one
            pass
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(new_secret() + "\n")
    try:
        text = path.read_text("utf-8").strip()
    except FileNotFoundError:
        raise ClassroomError(f"no class secret file {str(path)!r}: make one with `toolkit classroom --secret-file "
                             f"{path}` (it is created when missing)") from None
    if len(text) < 16:
        raise ClassroomError(f"the class secret in {str(path)!r} is shorter than 16 characters: delete the file "
                             "and let `toolkit classroom` make a new one")
    return Secret(text)


def classroom_header(name: str, token: "str | Secret") -> str:
    """The value of :data:`HEADER` for student ``name`` (the name percent-encoded, so any name fits a header)."""
    return f"{quote(check_name(name), safe='')}:{reveal(token)}"


def ticket_url(url: str, ticket: str) -> str:
    """``url`` with a single-use browser ticket (:data:`TICKET`, from ``POST /classroom/ticket``): it binds a
    browser to the student's world (the class sandbox answers with a session cookie) without the student's token.

    >>> ticket_url("/services/toolkit-classroom/auth/oauth/authorize?client_id=k", "T1")
    '/services/toolkit-classroom/auth/oauth/authorize?client_id=k&toolkit_ticket=T1'
    """
    return _with_query(url, TICKET, ticket)


def _with_query(url: str, key: str, value: str) -> str:
    """``url`` with one more query parameter ``key=value`` (the value percent-encoded)."""
    return f"{url}{'&' if '?' in url else '?'}{key}={quote(str(value), safe='')}"


def from_env(env: Mapping[str, str] | None = None) -> "tuple[str, str, Secret] | None":
    """``(url, student, token)`` from ``TOOLKIT_CLASSROOM_URL``, ``TOOLKIT_CLASSROOM_TOKEN`` and
    ``JUPYTERHUB_USER`` (or ``TOOLKIT_CLASSROOM_STUDENT``); None when no class URL is set; a
    :class:`ClassroomError` naming what is missing when the URL is set without the rest.

    >>> from_env({"TOOLKIT_CLASSROOM_URL": "http://h:1", "TOOLKIT_CLASSROOM_TOKEN": "t" * 32, "JUPYTERHUB_USER": "ann"})
    ('http://h:1', 'ann', Secret('••••tttt'))
    >>> from_env({}) is None
    True
    """
    env = os.environ if env is None else env
    url = env.get(ENV_URL)
    if not url:
        return None
    student = env.get(ENV_USER) or env.get(ENV_STUDENT)
    token = env.get(ENV_TOKEN)
    if not token or not student:
        missing = [n for n, v in ((ENV_TOKEN, token), (f"{ENV_USER} (or {ENV_STUDENT})", student)) if not v]
        raise ClassroomError(f"{ENV_URL} is set but {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                             "not: a class sandbox needs the student's name and token (the teacher prints it with "
                             "`toolkit classroom token NAME --secret-file F`)")
    return url.rstrip("/"), check_name(student), Secret(token)


class Teacher:
    """The teacher's calls to a class sandbox (``/classroom/...``), signed with the class secret.

    >>> teacher = Teacher("http://127.0.0.1:8765", read_secret("class.secret"))   # doctest: +SKIP
    >>> teacher.worlds()          # doctest: +SKIP
      student                   created             last_activity  calls
    0     ann 2026-01-05 09:00:01+00:00 2026-01-05 09:12:44+00:00    183
    >>> teacher.reset("ann")      # doctest: +SKIP
    {'student': 'ann', 'reset': True}
    >>> teacher.incident("local_search_keyword", "RED", hours=2)   # doctest: +SKIP
    {'id': 1, 'worlds': 24, 'api': 'local_search_keyword', 'status': 'RED', 'hours': 2}
    >>> teacher.clear_incident(1)   # doctest: +SKIP
    {'cleared': [1], 'worlds': 24}
    """

    def __init__(self, url: str, secret: "str | Secret", *, timeout: float = 30.0):
        self.url = url.rstrip("/")
        self._token = Secret(teacher_token(secret))
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"<Teacher {self.url}>"

    def _call(self, method: str, path: str, **kw) -> dict:
        import httpx

        headers = {TEACHER_HEADER: self._token.reveal()}
        try:
            resp = httpx.request(method, self.url + path, headers=headers, timeout=self.timeout, trust_env=False,
                                 **kw)
        except httpx.HTTPError as exc:
            raise ClassroomError(f"the class sandbox at {self.url} did not answer ({type(exc).__name__}): is "
                                 "`toolkit classroom` running there?") from None
        try:
            body = resp.json()
        except ValueError:
            body = {"msg": resp.text[:200]}
        if resp.status_code != 200:
            raise ClassroomError(f"{method} {path}: HTTP {resp.status_code}: {body.get('msg', body)}")
        return body

    def worlds(self, raw: bool = False):
        """One row per student world: ``student``, ``created``, ``last_activity`` (UTC, wall clock), ``calls``
        (requests since the world was made), ``loaded`` (in memory now). ``raw=True``: the list of dicts."""
        rows = self._call("GET", "/classroom/worlds")["worlds"]
        if raw:
            return rows
        import pandas as pd

        frame = pd.DataFrame(rows, columns=["student", "created", "last_activity", "calls", "loaded"])
        for col in ("created", "last_activity"):
            frame[col] = _utc_seconds(frame[col])
        frame["calls"] = frame["calls"].astype("int64")
        return frame

    def reset(self, name: str) -> dict:
        """Throw student ``name``'s world away: their next request starts from the seed (what ``fresh=True``
        does). Returns ``{"student", "reset"}`` (``reset`` False when the student had no world yet)."""
        return self._call("POST", f"/classroom/worlds/{quote(check_name(name), safe='')}/reset")

    def incident(self, api_id: str, status: str = "RED", *, hours: float = 1.0, started_minutes_ago: float = 0,
                 note: str = "") -> dict:
        """Post an incident of API ``api_id`` (``RED``, ``YELLOW``, ``MAINTENANCE``, ...) to every world, starting
        at each world's own clock minus ``started_minutes_ago`` and lasting ``hours``. Worlds made or reset in
        the next ``hours`` (of wall time) get it too, so a student's ``connect(fresh=True)`` keeps the lesson.
        Returns ``{"id", "worlds", "api", "status", "hours"}``: :meth:`clear_incident` takes it back by its id."""
        return self._call("POST", "/classroom/incidents", json={
            "api": api_id, "status": status, "hours": hours, "started_minutes_ago": started_minutes_ago,
            "note": note})

    def incidents(self, raw: bool = False):
        """The incidents posted to the class, oldest first: ``id``, ``api``, ``status``, ``hours``, ``note``,
        ``posted`` and ``cleared`` (UTC, wall clock; ``cleared`` empty until taken back), ``replays`` (still
        played into worlds made or reset now). ``raw=True``: the list of dicts."""
        rows = self._call("GET", "/classroom/incidents")["incidents"]
        if raw:
            return rows
        import pandas as pd

        frame = pd.DataFrame(rows, columns=["id", "api", "status", "hours", "note", "posted", "cleared", "replays"])
        for col in ("posted", "cleared"):
            frame[col] = _utc_seconds(frame[col])
        return frame.astype({"id": "int64", "hours": "float64", "replays": "bool"})

    def clear_incident(self, incident_id: "int | None" = None, *, all: bool = False) -> dict:
        """Take back a posted incident (its ``id``, from :meth:`incident` or :meth:`incidents`), or ``all=True``
        every one: it is no longer played into worlds made or reset from now on, and in every world that plays it
        it ends now, at the world's own clock (its status is normal again from the status API's next 5-minute
        refresh; its history keeps the outage as long as it lasted). Returns ``{"cleared": [ids], "worlds": N}``.

        >>> teacher.clear_incident(3)          # doctest: +SKIP
        {'cleared': [3], 'worlds': 24}
        """
        if all == (incident_id is not None):
            raise ClassroomError("clear one incident (its id: Teacher.incidents() lists them) or all=True, not "
                                 + ("both" if all else "neither"))
        if not all and (isinstance(incident_id, bool) or not isinstance(incident_id, int)):
            raise ClassroomError(f"an incident id is a whole number (Teacher.incidents() lists them), not "
                                 f"{incident_id!r}")
        return self._call("POST", "/classroom/incidents/clear", json={"all": True} if all else {"ids": [incident_id]})

    def progress(self, raw: bool = False):
        """Who is where, one row per student with a world: ``student``; ``last_activity`` (UTC, wall clock);
        ``last_error`` (the kind of the last error answer their world gave, e.g. ``InvalidArgumentError -2`` or
        ``OAuthError KOE320``; empty without one) and ``last_error_at``; ``last_raised`` (the class name of the last
        error their own code raised in their kernel, e.g. ``KeyError``, never its message or code; empty without
        one) and ``last_raised_at``; ``right`` (the exercises they checked right at least once) and ``not_yet``
        (checked, never right yet), in the walkthroughs' order; ``attempts`` (exercise → how many times they checked
        it); ``last_exercise`` and ``last_check`` (their newest self-check). A kernel's ``toolkit.lessons.check(...)``
        tells its world the verdict (never the answer); the class sandbox keeps them across the student's resets.
        ``raw=True``: the list of dicts as the class sandbox answers.

        >>> teacher.progress()[["student", "right", "not_yet", "attempts", "last_raised"]]     # doctest: +SKIP
          student         right not_yet                           attempts last_raised
        0     ann  [00.1, 00.2]  [00.3]  {'00.1': 1, '00.2': 3, '00.3': 4}    KeyError
        """
        rows = self._call("GET", "/classroom/progress")["students"]
        if raw:
            return rows
        import pandas as pd

        frame = pd.DataFrame({
            "student": [r["student"] for r in rows],
            "last_activity": [r["last_activity"] for r in rows],
            "last_error": [error_kind(r["last_error"]) for r in rows],
            "last_error_at": [(r["last_error"] or {}).get("at") for r in rows],
            "last_raised": [(r.get("last_raised") or {}).get("kind", "") for r in rows],
            "last_raised_at": [(r.get("last_raised") or {}).get("at") for r in rows],
            "right": [list(r["right"]) for r in rows],
            "not_yet": [list(r["not_yet"]) for r in rows],
            "attempts": [dict(r.get("attempts") or {}) for r in rows],
            "last_exercise": [r["last_exercise"] or "" for r in rows],
            "last_check": [r["last_check"] for r in rows],
        })
        for col in ("last_activity", "last_error_at", "last_raised_at", "last_check"):
            frame[col] = _utc_seconds(frame[col])
        return frame


def _utc_seconds(values):
    """The class sandbox's unix times (float seconds, None for never) as UTC datetimes to the whole second."""
    from .frames import from_unix

    return from_unix(values.astype("float64").round())


def error_kind(error: "Mapping | None") -> str:
    """The kind of an error answer as the progress table shows it: the toolkit's exception class for it and its
    code (:func:`toolkit.errors.error_from_response` of the status and the body's kind keys); ``""`` for None.

    >>> error_kind({"status": 400, "body": {"code": -2}})
    'InvalidArgumentError -2'
    >>> error_kind({"status": 401, "body": {"error": "invalid_grant", "error_code": "KOE320"}})
    'OAuthError KOE320'
    >>> error_kind({"status": 404, "body": {}})
    'NotFoundError 404'
    """
    if not error:
        return ""
    from .errors import error_from_response

    body = dict(error.get("body") or {})
    status = int(error.get("status") or 0)
    if "code" in body:
        body.setdefault("msg", "")
    if "err" in body:
        body.setdefault("description", "")
    found = error_from_response(status, body)
    code = body.get("error_code") or body.get("error") or body.get("err") or body.get("code")
    return f"{type(found).__name__} {code if code not in (None, '') else status}"
