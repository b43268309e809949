"""Record the service's answers once, replay them offline: a notebook a colleague re-runs without keys.

>>> tk = toolkit.connect(hosts, rest_api_key=..., admin_key=..., record="report.har")    # doctest: +SKIP
>>> addr = tk.local.address("전포동 341-17")   # sent to the service, written to report.har   # doctest: +SKIP
>>> tk = toolkit.connect(replay="report.har")  # no keys, no network                       # doctest: +SKIP
>>> addr = tk.local.address("전포동 341-17")   # the recorded answer: the same frame        # doctest: +SKIP

**Recording.** ``connect(..., record=FILE)`` (and ``connect_async``) records every request the client makes to
the five hosts and the service's answer, sync, async and bulk (retries too, each attempt with its answer), into
FILE, replacing it: a new recording. A second client records into the same file with ``record=tk.cassette``.
The file is written a few seconds after an answer arrives, when the client closes, after each notebook cell and
at exit; ``tk.cassette.save()`` writes it at once. A recording client is configured as a service is (its hosts
and keys, or the ``TOOLKIT_*`` variables): the sandbox's control API (``tk.sandbox``, ``/sandbox/...``) is not
part of the service, so a client bound to the embedded sandbox is refused — give the sandbox's hosts and keys
instead, as a real-service user gives the service's (``toolkit sandbox --print-config``), and act as the user or
the platform from elsewhere. Requests outside the five hosts are sent but never written.

**The format: HAR 1.2** (the HTTP Archive of the W3C Web Performance group, the format of every browser's
developer tools), one JSON file: ``log.entries`` holds one entry per request (``request``: method, URL, query,
headers, body; ``response``: status, headers, the body as text; ``startedDateTime`` and ``time``), and
``log._toolkit`` the five hosts and the app's settings a replaying client needs (placeholders for its keys).
Why HAR and not vcrpy's YAML: it is JSON, so a cassette sits inside a notebook's metadata as it is (notebooks are
JSON) and needs no YAML parser; browsers' developer tools, proxies and HAR viewers open it; it records when each
answer came (a replayed login checks its ID token's times against that); Hangul stays readable. vcrpy itself is
not used: its httpx support patches httpx for the whole process while a cassette is in use, which in a notebook's
kernel would also record (or refuse) every other httpx client — another toolkit client, the webhook inbox, any
library — so toolkit records through its own httpx transport (:class:`httpx.BaseTransport`), one client's
requests only.

**Nothing secret in the file.** Before an entry is kept, these are replaced by stable placeholders (the same
value, the same placeholder, throughout the file): the app keys (REST API and admin keys, in ``Authorization``
headers and ``client_id`` fields), the client secret, access and refresh tokens (answers, ``Authorization:
Bearer`` headers, form fields), authorization codes and PKCE verifiers, any other credential-named field
(``token``, ``key``), the users' e-mail addresses (``email``, ``account_email``), phone numbers
(``phone_number``, ``receiver_phone_number1``/``2``, the ids of ``user_type=phone`` customer files), shipping
addresses (``base_address``, ``detail_address``, ``receiver_name``) and the other personal fields of the user
(``birthdate``, ``birthday``, ``birthyear``, ``legal_name``, ``legal_birth_date``, ``ci``, and ``name`` in an object
that describes a person: OIDC user information, the account); an e-mail or phone number learnt from a field is
replaced wherever else its text appears. Cookies (``Cookie``, ``Set-Cookie``) and every other request header
but ``Authorization`` and ``Content-Type`` are not written. ID tokens are JWTs the client verifies: each one's
claims are scrubbed (``aud`` is the REST API key, ``email``) and it is signed again with an RSA key made for the
recording, whose public half replaces the service's keys in the JWKS answers (the private half is never written),
so a replayed login verifies its ID token as the recorded one did. Placeholders read ``scrubbed-access-token-1``,
``scrubbed-email-1@example.invalid``: a replayed frame shows them where the recorded one showed the secret.

**Replay.** ``connect(replay=FILE)`` takes no hosts and no keys: the hosts and the app's placeholders come from the
file, and every request is answered from it, with no network. A request is matched on its method, host, path, query
and body fields (a form's or a JSON body's, in any order) and ``Authorization`` header, with the volatile fields of
a login (``code_verifier``, ``state``, ``nonce``) and personal data (placeholders in the file, where a replaying
notebook may send what it reads from its own files: a customer file's phone numbers) not compared; identical
requests are answered in the order they were recorded (the last answer again once those are spent), so bulk and
async runs, whose requests complete in any order, replay deterministically. A request the file lacks raises
:class:`CassetteMiss` naming it and the closest recorded one. A login replays through the recording's browser:
``tk.login(...)``, the login widget's **Log in as recorded** button, or ``tk.oauth.complete(req,
tk.cassette.redirect(req))``; the service's clock during a replay is the time each answer was recorded (ID-token and
token expiry are judged by it).

**With the notebook.** A cassette is a file beside the notebook (a relative path resolves from the notebook's
folder, which is the kernel's working folder), or it travels inside the notebook: :func:`embed` writes it into
the notebook's metadata (``metadata.toolkit.cassette``, at most :data:`EMBED_LIMIT` bytes) and
``connect(replay="report.ipynb")`` replays from there.
"""
from __future__ import annotations

import asyncio
import atexit
import base64
import difflib
import email.parser
import email.policy
import hashlib
import json
import os
import re
import shutil
import threading
import time
import weakref
from collections import Counter, deque
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx

from ._version import __version__
from .http import _LIMITS, _POOL, LOOPBACK_DIRECT, POOL_SIZE, _ssl_context
from .config import APP_KEY_SCHEME, HOST_NAMES, Config, Credentials, Hosts
from .errors import ConfigurationError, ToolkitError
from .secrets import Secret, reveal

__all__ = ["Cassette", "CassetteError", "CassetteMiss", "load", "embed", "from_notebook", "EMBED_LIMIT",
           "PLACEHOLDER_PREFIX"]

FORMAT = 1
"""The version of ``log._toolkit`` this module writes and reads."""

EMBED_LIMIT = 2_000_000
"""The largest cassette :func:`embed` writes into a notebook, in bytes as the notebook holds it. A notebook is
read whole by every tool that opens it (JupyterLab, nbviewer, GitHub, a diff); beyond a few MB it opens slowly and
its diffs drown, so a bigger cassette stays a file beside the notebook."""

SAVE_EVERY = 2.0
"""Seconds at least between two writes of a recording while answers arrive, and at least 20 times what the last
write took, so that writing a growing file costs a long bulk run at most about 5 % (it is also written when the
client closes, after each notebook cell and at exit)."""

PLACEHOLDER_PREFIX = "scrubbed-"
"""Every placeholder starts so."""

VOLATILE = frozenset({"code_verifier", "state", "nonce"})
"""Fields a login makes afresh each time: ignored when a request is matched."""

# fields of a request (query, form or JSON body) that carry a credential: name → the placeholder's kind
_REQUEST_SECRETS = {"access_token": "access-token", "refresh_token": "refresh-token", "client_secret": "client-secret",
                    "code_verifier": "code-verifier", "token": "token", "key": "key", "app_key": "key",
                    "client_id": "client-id"}
# fields of an answer (or a JSON body) that carry a credential or a user's personal data
_ANSWER_SECRETS = {"access_token": "access-token", "refresh_token": "refresh-token", "client_secret": "client-secret",
                   "email": "email", "account_email": "email", "phone_number": "phone",
                   "receiver_phone_number1": "phone", "receiver_phone_number2": "phone"}
# personal data replaced only where it stands under its field (short values: a name must not be replaced inside
# other text)
_FIELD_ONLY = {"base_address": "address", "detail_address": "address", "receiver_name": "name",
               "birthdate": "birth", "birthday": "birth", "birthyear": "birth", "legal_name": "name",
               "legal_birth_date": "birth", "ci": "ci"}
# a dict with one of these keys describes a person (OIDC user information, an account): its "name" is theirs (a
# place's or a shipping address's "name" stays)
_PERSON = frozenset({"email", "phone_number", "email_verified", "phone_number_verified", "name_needs_agreement"})
_KEPT_REQUEST_HEADERS = ("authorization", "content-type")
_DROPPED_RESPONSE_HEADERS = frozenset({"set-cookie", "cookie", "content-length", "content-encoding",
                                       "transfer-encoding", "connection", "keep-alive", "date", "server", "vary"})
_CREDENTIAL_HEADER = re.compile(r"key|secret|token|auth(?!enticate)|cookie|session", re.I)
_MIN_SUBSTITUTED = 6     # shorter secrets are replaced only where they stand as a whole value


# --------------------------------------------------------------------------- errors
class CassetteError(ConfigurationError):
    """A cassette that cannot be used: not found, not a toolkit cassette, too big to embed, the wrong mode."""


class CassetteMiss(LookupError):
    """A replaying client made a request its cassette has no answer for.

    Not a :class:`~toolkit.errors.ToolkitError` on purpose: the service did not refuse anything, so no code may
    take it for a service's answer (a bulk run stops on it instead of marking one row as failed). It shows in a
    notebook as toolkit's errors do (its message, not a traceback through the toolkit).

    ``err.request`` is the request as the cassette describes it, ``err.closest`` the closest recorded one (or
    None)."""

    _render_traceback_ = ToolkitError._render_traceback_

    def __init__(self, message: str, request: str, closest: str | None):
        super().__init__(message)
        self.request, self.closest = request, closest


# --------------------------------------------------------------------------- scrubbing
def _placeholder(value: str) -> bool:
    return value.startswith(PLACEHOLDER_PREFIX)


class Scrubber:
    """Replaces secrets by stable placeholders: the same value gives the same placeholder for the life of one
    recording (the map from values to placeholders is kept in memory only, never written).

    >>> s = Scrubber(); s.secret("abcdef0123456789", "access-token")
    'scrubbed-access-token-1'
    >>> s.text("Bearer abcdef0123456789")
    'Bearer scrubbed-access-token-1'
    >>> s.json({"kakao_account": {"email": "minji@example.com"}, "n": 3})
    {'kakao_account': {'email': 'scrubbed-email-1@example.invalid'}, 'n': 3}
    """

    def __init__(self):
        self._map: dict[str, str] = {}       # replaced wherever the text appears
        self._fields: dict[str, str] = {}    # replaced where it stands as a field's whole value
        self._counts: Counter = Counter()
        self._pattern: re.Pattern | None = None
        self._signing_key = None             # RSA key of this recording (ID tokens signed again); never written
        self._jwts: dict[str, str] = {}      # ID token → the same token signed again, claims scrubbed
        self._lock = threading.RLock()

    # ------------------------------------------------------------ placeholders
    def _new(self, kind: str, numbered: bool = True) -> str:
        self._counts[kind] += 1
        n = self._counts[kind]
        stem = f"{PLACEHOLDER_PREFIX}{kind}" + (f"-{n}" if numbered or n > 1 else "")
        return f"{stem}@example.invalid" if kind == "email" else stem

    def known(self, value: "str | Secret | None", kind: str) -> None:
        """Learn an app key or the client secret of the configuration: ``scrubbed-rest-api-key``, …"""
        value = reveal(value)
        if value and value not in self._map:
            with self._lock:
                self._map[value] = self._new(kind, numbered=False)
                self._pattern = None

    def secret(self, value: str, kind: str) -> str:
        """The placeholder of ``value`` (learnt now when new); placeholders and empty values are kept."""
        if not isinstance(value, str) or not value or _placeholder(value):
            return value
        found = self._map.get(value) or self._fields.get(value)
        if found is not None:
            return found
        with self._lock:
            found = self._map.get(value)
            if found is None:
                found = self._map[value] = self._new(kind)
                self._pattern = None
            return found

    def field_only(self, value: str, kind: str) -> str:
        if not isinstance(value, str) or not value or _placeholder(value):
            return value
        with self._lock:
            found = self._map.get(value) or self._fields.get(value)
            if found is None:
                found = self._fields[value] = self._new(kind)
            return found

    def text(self, text: str) -> str:
        """``text`` with every secret learnt so far replaced by its placeholder."""
        if not text or not self._map:
            return text
        pattern = self._pattern
        if pattern is None:
            with self._lock:
                names = sorted((v for v in self._map if len(v) >= _MIN_SUBSTITUTED), key=len, reverse=True)
                pattern = self._pattern = re.compile("|".join(map(re.escape, names))) if names else re.compile(r"(?!)")
        mapping = self._map
        out = pattern.sub(lambda m: mapping[m.group(0)], text)
        return mapping.get(out, out)

    def scrubbed(self, value):
        """``value`` (a text, or a frame's cell) as the file holds it: what a replayed frame shows in its place.
        Other values are returned as they are.

        >>> s = Scrubber(); _ = s.secret("minji@example.com", "email"); s.scrubbed("minji@example.com")
        'scrubbed-email-1@example.invalid'
        """
        if not isinstance(value, str):
            return value
        if value in self._fields:
            return self._fields[value]
        return self.text(value)

    # ------------------------------------------------------------ structures
    def json(self, value, key: str | None = None, *, phones: bool = False):
        """A JSON value with credentials and personal data under their field names replaced, and every known
        secret replaced in its texts."""
        if isinstance(value, dict):
            phone_ids = phones or value.get("user_type") == "phone"
            person = not _PERSON.isdisjoint(value)
            return {k: self.field_only(v, "name") if person and k == "name" and isinstance(v, str)
                    else self._json_field(k, v, phone_ids) for k, v in value.items()}
        if isinstance(value, list):
            return [self.json(v, key, phones=phones) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def _json_field(self, key: str, value, phones: bool):
        name = str(key).lower()
        if isinstance(value, str):
            if name == "id_token":
                return self.id_token(value)
            kind = _ANSWER_SECRETS.get(name)
            if kind is not None:
                return self.secret(value, kind)
            kind = _FIELD_ONLY.get(name)
            if kind is not None:
                return self.field_only(value, kind)
            if phones and name == "id":
                return self.secret(value, "phone")
            return self.text(value)
        if phones and name in ("user_ids", "users"):
            if name == "user_ids" and isinstance(value, list):
                return [self.secret(v, "phone") if isinstance(v, str) else v for v in value]
            return self.json(value, key, phones=True)
        return self.json(value, key)

    def request_field(self, name: str, value: str, host: str) -> str:
        """A query or form field of a request to ``host`` (one of the five host names, or "")."""
        low = name.lower()
        if low == "id_token":
            return self.id_token(value)
        if low == "code" and host == "auth":
            return self.secret(value, "code")
        kind = _REQUEST_SECRETS.get(low) or _ANSWER_SECRETS.get(low)
        if kind is not None:
            known = self.text(value)
            return known if known != value or _placeholder(value) else self.secret(value, kind)
        if low in _FIELD_ONLY:
            return self.field_only(value, _FIELD_ONLY[low])
        return self.text(value)

    def authorization(self, value: str) -> str:
        """An ``Authorization`` header: its credential learnt (a Bearer token is an access token)."""
        scheme, _, credential = value.partition(" ")
        if not credential:
            return self.text(value)
        known = self.text(credential)
        if known == credential and not _placeholder(credential):
            known = self.secret(credential, "access-token" if scheme.lower() == "bearer" else "app-key")
        return f"{scheme} {known}"

    # ------------------------------------------------------------ ID tokens and keys
    def _key(self):
        with self._lock:
            if self._signing_key is None:
                from cryptography.hazmat.primitives.asymmetric import rsa

                self._signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            return self._signing_key

    def id_token(self, token: str) -> str:
        """An ID token with its claims scrubbed, signed again with this recording's key (a JWT the replaying
        client verifies against the JWKS answers, which carry that key)."""
        if not isinstance(token, str) or not token or _placeholder(token):
            return token
        jwts = self._jwts
        if token in jwts or token in jwts.values():
            return jwts.get(token, token)
        import jwt

        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            return self.secret(token, "id-token")
        headers = {k: v for k, v in header.items() if k in ("kid", "typ")}
        signed = jwt.encode(self.json(claims), self._key(), algorithm="RS256", headers=headers)
        with self._lock:
            jwts[token] = signed
            self._map[token] = signed
            self._pattern = None
        return signed

    def jwks(self, body: dict) -> dict:
        """A JWKS answer with each RSA key's material replaced by this recording's public key (kid kept)."""
        import jwt

        public = jwt.algorithms.RSAAlgorithm.to_jwk(self._key().public_key(), as_dict=True)
        keys = []
        for key in body.get("keys") or []:
            if isinstance(key, dict) and key.get("kty") == "RSA":
                key = {**key, "n": public["n"], "e": public["e"]}
            keys.append(key)
        return {**body, "keys": keys}


class _Verbatim:
    """The replaying side's stand-in for a :class:`Scrubber`: a request of a replaying client carries the
    cassette's placeholders already, so its fields are taken as they are."""

    def json(self, value, key=None, *, phones=False):
        return value

    def request_field(self, name, value, host):
        return value

    def authorization(self, value):
        return value

    def text(self, value):
        return value


# --------------------------------------------------------------------------- HAR
def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _seconds(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _host_path(url: str, hosts: dict[str, str]) -> tuple[str, str]:
    """(host name, path below it) of ``url`` (without its query), or ("", url) outside the five hosts.

    >>> _host_path("http://127.0.0.1:8000/local/v2/x.json", Hosts.on_one_port("http://127.0.0.1:8000").as_dict())
    ('local', '/v2/x.json')
    """
    name, base = "", ""
    for candidate, prefix in hosts.items():
        if (url == prefix or url.startswith(prefix + "/")) and len(prefix) > len(base):
            name, base = candidate, prefix
    return (name, url[len(base):] or "/") if name else ("", url)


def _media(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def _decoded(raw: bytes, content_type: str) -> tuple[str, str | None]:
    """(text, encoding) of a body: its text, or base64 (HAR's ``encoding``) when it is not UTF-8 text."""
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return base64.b64encode(raw).decode("ascii"), "base64"


def _json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _body_json(raw: bytes, scrub, *, jwks: bool = False) -> str | None:
    """A JSON body scrubbed (its original text kept when nothing changed), or None when it is not JSON."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    clean = scrub.json(value)
    if jwks and isinstance(clean, dict) and isinstance(clean.get("keys"), list) and hasattr(scrub, "jwks"):
        clean = scrub.jwks(clean)
    return raw.decode("utf-8") if clean == value and not jwks else _json_text(clean)


def _multipart(raw: bytes, content_type: str, scrub, host: str) -> list[dict]:
    """The fields of a multipart body: text fields scrubbed, files as their name, type and SHA-256."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + raw)
    params = []
    for part in message.iter_parts() if message.is_multipart() else ():
        name = part.get_param("name", header="content-disposition") or ""
        filename = part.get_filename()
        decoded = part.get_payload(decode=True)
        payload = decoded if isinstance(decoded, bytes) else b""
        if filename is not None:
            params.append({"name": name, "fileName": filename, "contentType": part.get_content_type(),
                           "value": "sha256:" + hashlib.sha256(payload).hexdigest()})
        else:
            params.append({"name": name, "value": scrub.request_field(name, payload.decode("utf-8", "replace"), host)})
    return params


def har_request(request: httpx.Request, hosts: dict[str, str], scrub) -> dict:
    """The HAR ``request`` object of an httpx request (its body read), scrubbed by ``scrub``."""
    url = request.url
    base = str(url.copy_with(query=None, fragment=None))
    host, _ = _host_path(base, hosts)
    query = [(k, scrub.request_field(k, v, host)) for k, v in url.params.multi_items()]
    headers = []
    for name in _KEPT_REQUEST_HEADERS:
        value = request.headers.get(name)
        if value is not None:
            if name == "authorization":
                value = scrub.authorization(value)
            headers.append({"name": "Authorization" if name == "authorization" else "Content-Type", "value": value})
    raw = request.content
    out = {"method": request.method, "url": scrub.text(base) + (f"?{urlencode(query)}" if query else ""),
           "httpVersion": "HTTP/1.1", "cookies": [], "headers": headers,
           "queryString": [{"name": k, "value": v} for k, v in query], "headersSize": -1, "bodySize": len(raw)}
    if raw:
        ctype = request.headers.get("content-type", "")
        media = _media(ctype)
        if media == "application/x-www-form-urlencoded":
            fields = [(k, scrub.request_field(k, v, host))
                      for k, v in parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True)]
            out["postData"] = {"mimeType": ctype, "params": [{"name": k, "value": v} for k, v in fields],
                               "text": urlencode(fields)}
        elif media == "multipart/form-data":
            out["postData"] = {"mimeType": ctype.split(";")[0], "params": _multipart(raw, ctype, scrub, host)}
        else:
            text = _body_json(raw, scrub) if "json" in media else None
            if text is None:
                text, encoding = _decoded(raw, ctype)
                text = scrub.text(text) if encoding is None else "sha256:" + hashlib.sha256(raw).hexdigest()
            out["postData"] = {"mimeType": ctype, "text": text}
    return out


def har_response(response: httpx.Response, scrub, *, jwks: bool = False) -> dict:
    """The HAR ``response`` object of an httpx response (read), scrubbed by ``scrub``."""
    ctype = response.headers.get("content-type", "")
    raw = response.content
    headers = []
    location = ""
    for name, value in response.headers.multi_items():
        low = name.lower()
        if low in _DROPPED_RESPONSE_HEADERS or _CREDENTIAL_HEADER.search(low) and low != "www-authenticate":
            continue
        if low == "location":
            value = _scrub_url(value, scrub)
            location = value
        headers.append({"name": name, "value": scrub.text(value)})
    content: dict[str, Any] = {"size": len(raw), "mimeType": ctype}
    if raw:
        text = _body_json(raw, scrub, jwks=jwks) if "json" in _media(ctype) else None
        encoding = None
        if text is None:
            text, encoding = _decoded(raw, ctype)
            if encoding is None:
                text = scrub.text(text)
        content["text"] = text
        content["size"] = len(text.encode("utf-8")) if encoding is None else len(raw)
        if encoding:
            content["encoding"] = encoding
    return {"status": response.status_code, "statusText": response.reason_phrase or "",
            "httpVersion": response.http_version or "HTTP/1.1", "cookies": [], "headers": headers,
            "content": content, "redirectURL": location, "headersSize": -1, "bodySize": content["size"]}


def _scrub_url(url: str, scrub) -> str:
    parts = urlsplit(url)
    if not parts.query:
        return scrub.text(url)
    query = [(k, scrub.request_field(k, v, "auth")) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return scrub.text(parts._replace(query=urlencode(query)).geturl())


def _entry_response(entry: dict, request: httpx.Request) -> httpx.Response:
    """The httpx response a recorded entry answers with."""
    res = entry["response"]
    content = res.get("content") or {}
    text = content.get("text")
    if text is None:
        body = b""
    elif content.get("encoding") == "base64":
        body = base64.b64decode(text)
    else:
        body = text.encode("utf-8")
    headers = [(h["name"], h["value"]) for h in res.get("headers") or []
               if h["name"].lower() not in ("content-length", "content-encoding", "transfer-encoding")]
    return httpx.Response(res["status"], headers=headers, content=body, request=request, extensions={
        "reason_phrase": (res.get("statusText") or "").encode("ascii", "replace"),
        "http_version": (res.get("httpVersion") or "HTTP/1.1").encode("ascii", "replace")})


# --------------------------------------------------------------------------- matching
_PERSONAL = frozenset(k for k, kind in _ANSWER_SECRETS.items() if kind in ("email", "phone")) | frozenset(_FIELD_ONLY)


def _norm(name: str, value: str) -> str:
    """A field's value as matching compares it: ``*`` for a login's volatile fields and for personal data (the file
    holds placeholders where a replaying notebook may send what it read from its own files)."""
    low = name.lower()
    return "*" if low in VOLATILE or low in _PERSONAL else value


def _match_json(value, phones: bool = False):
    """A JSON body as matching compares it: personal data (the fields :class:`Scrubber` replaces) as ``*``."""
    if isinstance(value, dict):
        phones = phones or value.get("user_type") == "phone"
        person = not _PERSON.isdisjoint(value)
        out: dict = {}
        for k, v in value.items():
            low = str(k).lower()
            if isinstance(v, str) and (low in _PERSONAL or (person and low == "name") or (phones and low == "id")):
                out[k] = "*"
            elif phones and low == "user_ids" and isinstance(v, list):
                out[k] = ["*" for _ in v]
            else:
                out[k] = _match_json(v, phones)
        return out
    if isinstance(value, list):
        return [_match_json(v, phones) for v in value]
    return value


def _body_key(post: dict | None) -> tuple:
    if not post:
        return ()
    if "params" in post:
        return ("fields",) + tuple(sorted(
            (p["name"], f"{p['fileName']} {p.get('value', '')}" if p.get("fileName") is not None
             else _norm(p["name"], p.get("value", ""))) for p in post["params"]))
    text = post.get("text") or ""
    if "json" in _media(post.get("mimeType") or ""):
        try:
            return ("json", json.dumps(_match_json(json.loads(text)), sort_keys=True, ensure_ascii=False))
        except ValueError:
            pass
    return ("text", text)


def match_key(req: dict, hosts: dict[str, str]) -> tuple:
    """What a recorded request and a replayed one must share to be answered alike: method, host and path,
    query and body fields in any order (a login's volatile fields and personal data not compared), and the
    ``Authorization`` header.
    """
    base = req["url"].split("?", 1)[0]
    host, path = _host_path(base, hosts)
    query = tuple(sorted((q["name"], _norm(q["name"], q["value"])) for q in req.get("queryString") or []))
    auth = next((h["value"] for h in req.get("headers") or [] if h["name"].lower() == "authorization"), "")
    return (req["method"].upper(), host, path, query, _body_key(req.get("postData")), auth)


def describe(key: tuple) -> str:
    """A request's match key in one line, credentials masked unless they are placeholders.

    >>> describe(("GET", "local", "/v2/local/search/address.json", (("query", "서면"),), (), "ServiceAK k"))
    "GET local /v2/local/search/address.json query='서면' [ServiceAK ••••]"
    """
    method, host, path, query, body, auth = key

    def show(name, value):
        secret = name.lower() in _REQUEST_SECRETS or name.lower() in ("code", "id_token")
        return "••••" if secret and not _placeholder(str(value)) and value != "*" else value

    parts = [method, host or "(outside the five hosts)", path]
    parts += [f"{k}={show(k, v)!r}" for k, v in query]
    if body:
        if body[0] == "fields":
            parts += [f"{k}={show(k, v)!r}" for k, v in body[1:]]
        else:
            parts.append(f"body={body[1][:160]!r}")
    if auth:
        scheme, _, credential = auth.partition(" ")
        parts.append(f"[{scheme} {credential if _placeholder(credential) else '••••'}]")
    return " ".join(parts)


def _differs(a: tuple, b: tuple) -> str:
    names = ("method", "host", "path", "query", "body", "Authorization")
    return ", ".join(n for n, x, y in zip(names, a, b) if x != y) or "nothing"


# --------------------------------------------------------------------------- the cassette
_RECORDINGS: "weakref.WeakSet[Cassette]" = weakref.WeakSet()


def _flush_all() -> None:
    for cassette in list(_RECORDINGS):
        try:
            cassette.flush()
        except Exception:  # noqa: BLE001 — at exit or after a cell: best effort, the next flush tries again
            pass


atexit.register(_flush_all)


class Cassette:
    """The recorded requests and answers of one session (HAR 1.2), recording or replaying.

    Made by ``toolkit.connect(record=...)`` / ``connect(replay=...)`` (``tk.cassette``), or :func:`load`.

    >>> tk = toolkit.connect(replay="report.har")     # doctest: +SKIP
    >>> tk.cassette                                   # doctest: +SKIP
    <Cassette replay of report.har: 57 answers>
    """

    def __init__(self, path: "str | os.PathLike | None", mode: str, *, log: dict | None = None):
        if mode not in ("record", "replay"):
            raise ValueError(f"mode must be 'record' or 'replay', not {mode!r}")
        self.path = Path(path) if path is not None else None
        self.mode = mode
        self._lock = threading.RLock()
        self._entries: list[dict] = []
        self._meta: dict = {}
        self._dirty = False
        self._saved_at = 0.0
        self._save_took = 0.0
        self._scrub = Scrubber() if mode == "record" else None
        self._queues: dict[tuple, deque] = {}
        self._last: dict[tuple, dict] = {}
        self._logins: Counter = Counter()     # logins played per token endpoint (redirect())
        self._time: float | None = None
        if log is not None:
            self._read(log)
        if mode == "record":
            _RECORDINGS.add(self)
            _watch_cells()

    # ------------------------------------------------------------ what it is
    @property
    def replaying(self) -> bool:
        return self.mode == "replay"

    @property
    def entries(self) -> list[dict]:
        """The HAR entries (scrubbed), in the order their requests started."""
        with self._lock:
            return sorted(self._entries, key=lambda e: e["startedDateTime"])

    @property
    def hosts(self) -> dict[str, str]:
        return dict(self._meta.get("hosts") or {})

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        where = self.path.name if self.path is not None else "memory"
        n = len(self._entries)
        return f"<Cassette {'recording into' if self.mode == 'record' else 'replay of'} {where}: " \
               f"{n} answer{'s' if n != 1 else ''}>"

    def scrubbed(self, value):
        """Recording: ``value`` (a text or a frame's cell) as the file holds it — the placeholder a replayed frame
        shows in place of a secret this recording met. Other values are returned as they are."""
        if self._scrub is None:
            raise CassetteError("scrubbed() tells a recording's placeholders; a replaying cassette knows no secret")
        return self._scrub.scrubbed(value)

    # ------------------------------------------------------------ recording
    def attach(self, config: Config) -> None:
        """Record for a client of ``config``: its hosts (one service per cassette) and its keys, learnt as
        secrets before any request leaves."""
        if self.replaying or self._scrub is None:
            raise CassetteError("this cassette replays; record into a new one (connect(record='FILE'))")
        scrub = self._scrub
        hosts = config.hosts.as_dict()
        creds = config.credentials
        with self._lock:
            if self._meta.get("hosts") and self._meta["hosts"] != hosts:
                raise CassetteError("one cassette records one service: this client's hosts differ from those "
                                    f"it records ({self._meta['hosts']['api']}); record into another file")
            for name in ("rest_api_key", "admin_key", "client_secret"):
                scrub.known(getattr(creds, name), name.replace("_", "-"))
            if not self._meta:
                self._meta = {"format": FORMAT, "hosts": hosts, "app": {
                    "rest_api_key": scrub.text(reveal(creds.rest_api_key) or "") if creds.rest_api_key else None,
                    "admin_key": scrub.text(reveal(creds.admin_key) or "") if creds.admin_key else None,
                    "client_secret": scrub.text(reveal(creds.client_secret) or "") if creds.client_secret else None,
                    "app_id": creds.app_id, "redirect_uri": creds.redirect_uri,
                    "app_key_scheme": creds.app_key_scheme}}
                self._dirty = True

    def covers(self, url: "httpx.URL | str") -> bool:
        """Whether ``url`` is under one of the five hosts (what a cassette records and answers)."""
        base = str(url).split("?", 1)[0]
        return _host_path(base, self.hosts)[0] != ""

    def record(self, request: httpx.Request, response: httpx.Response, started: float, seconds: float) -> None:
        """Keep one request (its body read) and its answer (read), scrubbed."""
        scrub = self._scrub
        if scrub is None:
            raise CassetteError("this cassette replays; it records nothing (connect(record='FILE') records)")
        hosts = self.hosts
        host, path = _host_path(str(request.url.copy_with(query=None)), hosts)
        with self._lock:
            req = har_request(request, hosts, scrub)
            learnt = len(scrub._map)
            res = har_response(response, scrub, jwks=host == "auth" and path.endswith("jwks.json"))
            if len(scrub._map) != learnt:   # the answer taught a secret the request may carry too: scrub it again
                req = json.loads(scrub.text(json.dumps(req, ensure_ascii=False)))
            entry = {"startedDateTime": _iso(started), "time": round(seconds * 1000, 1), "request": req,
                     "response": res, "cache": {}, "timings": {"send": 0, "wait": round(seconds * 1000, 1),
                                                               "receive": 0}}
            self._entries.append(entry)
            self._dirty = True
            if time.monotonic() - self._saved_at >= max(SAVE_EVERY, 20 * self._save_took):
                self.save()

    def save(self, path: "str | os.PathLike | None" = None) -> Path:
        """Write the cassette (to ``path``, else its own file) at once; returns the path written."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise CassetteError("this cassette has no file: pass save(path)")
        with self._lock:
            started = time.monotonic()
            _write(target, json.dumps(self.har(), ensure_ascii=False, indent=1) + "\n")
            if path is None or target == self.path:
                self._dirty = False
                self._saved_at = time.monotonic()
                self._save_took = self._saved_at - started
        return target

    def flush(self) -> None:
        """Write a recording when it has answers not written yet."""
        if self.mode == "record" and self._dirty and self.path is not None:
            self.save()

    def har(self) -> dict:
        """The cassette as a HAR 1.2 document (a dict, as the file holds it)."""
        with self._lock:
            return {"log": {
                "version": "1.2",
                "creator": {"name": "toolkit", "version": __version__},
                "comment": ("Recorded by toolkit (toolkit.connect(record=...)); replay with "
                            "toolkit.connect(replay=FILE). Secrets are replaced by placeholders 'scrubbed-...': "
                            "app keys, the client secret, access and refresh tokens, authorization codes, PKCE "
                            "verifiers, credential fields, cookies, users' e-mails, phone numbers and shipping "
                            "addresses. ID tokens are signed again, claims scrubbed, with a key made for this file; "
                            "the JWKS answers carry its public key."),
                "pages": [],
                "entries": self.entries,
                "_toolkit": self._meta,
            }}

    # ------------------------------------------------------------ replaying
    def _read(self, har: dict) -> None:
        where = self.path.name if self.path is not None else "the cassette"
        log = har.get("log") if isinstance(har, dict) else None
        if not isinstance(log, dict) or not isinstance(log.get("entries"), list):
            raise CassetteError(f"{where} is not a HAR file (no log.entries)")
        meta = log.get("_toolkit")
        if not isinstance(meta, dict) or not isinstance(meta.get("hosts"), dict):
            raise CassetteError(f"{where} is a HAR file but not a toolkit cassette: it has no log._toolkit (the "
                                "hosts and app of the recording); record one with toolkit.connect(..., record=FILE)")
        if meta.get("format") != FORMAT:
            raise CassetteError(f"{where} is a cassette of format {meta.get('format')!r}; this toolkit reads "
                                f"format {FORMAT}: record it again, or use the toolkit version that wrote it "
                                f"({(log.get('creator') or {}).get('version', '?')})")
        missing = [n for n in HOST_NAMES if not meta["hosts"].get(n)]
        if missing:
            raise CassetteError(f"{where}: log._toolkit.hosts lacks {', '.join(missing)}")
        self._meta = meta
        self._entries = list(log["entries"])
        self._queues = {}
        for n, entry in enumerate(sorted(self._entries, key=lambda e: str(e.get("startedDateTime", "")))):
            try:
                _seconds(entry["startedDateTime"])
                int(entry["response"]["status"])
                key = match_key(entry["request"], meta["hosts"])
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise CassetteError(f"{where}: entry {n} is not a HAR entry toolkit can answer with "
                                    f"({type(exc).__name__}: {exc})") from None
            self._queues.setdefault(key, deque()).append(entry)

    def play(self, request: httpx.Request) -> httpx.Response:
        """The recorded answer to ``request`` (its body read); :class:`CassetteMiss` when there is none."""
        key = match_key(har_request(request, self.hosts, _Verbatim()), self.hosts)
        with self._lock:
            queue = self._queues.get(key)
            if queue:
                entry = queue.popleft()
                self._last[key] = entry
            else:
                entry = self._last.get(key)
            if entry is None:
                raise self._miss(key)
            self._time = _seconds(entry["startedDateTime"]) + float(entry.get("time") or 0) / 1000
        return _entry_response(entry, request)

    def _miss(self, key: tuple) -> CassetteMiss:
        keys = list(self._queues)
        same = [k for k in keys if k[:3] == key[:3]] or [k for k in keys if k[1:3] == key[1:3]] or keys
        wanted = describe(key)
        closest = max(same, key=lambda k: difflib.SequenceMatcher(None, describe(k), wanted).ratio(), default=None)
        where = self.path.name if self.path is not None else "the cassette"
        message = f"{where} has no answer for {wanted}"
        if closest is not None:
            message += f"; the closest recorded request: {describe(closest)} (differs in {_differs(key, closest)})"
        message += (". A replay answers the requests of the session it recorded: make the call as it was recorded, or "
                    "record the session again with keys (toolkit.connect(..., record=FILE))")
        return CassetteMiss(message, wanted, describe(closest) if closest is not None else None)

    def clock(self) -> float:
        """The service's time during a replay: when the answer replayed last was recorded (before any, the first
        answer's); the local clock for a recording."""
        if not self.replaying:
            return time.time()
        with self._lock:
            if self._time is None:
                first = min((e["startedDateTime"] for e in self._entries), default=None)
                return _seconds(first) if first else time.time()
            return self._time

    def redirect(self, request) -> str:
        """Replay: the address the recording's browser was sent back to after the user logged in, for
        ``request`` (an :class:`~toolkit.oauth.AuthRequest`, or a business one): the recorded code and the request's
        own ``state``. The n-th call gives the n-th login of the recording (the last again after those). A login's
        request takes the recorded login's ``nonce``, which the recorded ID token carries.

        >>> req = tk.oauth.authorize_url(["profile", "openid"])             # doctest: +SKIP
        >>> token = tk.oauth.complete(req, tk.cassette.redirect(req))       # doctest: +SKIP
        """
        if not self.replaying:
            raise CassetteError("redirect() plays the user's browser of a replay; while recording, the user logs in")
        business = request.url.split("?", 1)[0].endswith("/oauth/business/authorize")
        token_path = "/oauth/business/token" if business else "/oauth/token"
        logins = []
        for entry in self.entries:
            req = entry["request"]
            fields = {p["name"]: p.get("value") for p in (req.get("postData") or {}).get("params") or []}
            if req["method"] == "POST" and fields.get("grant_type") == "authorization_code" and fields.get("code") \
                    and _host_path(req["url"].split("?")[0], self.hosts) == ("auth", token_path) \
                    and fields.get("redirect_uri") in (None, request.redirect_uri):
                logins.append((fields["code"], entry))
        if not logins:
            raise CassetteError(f"{self.path.name if self.path else 'the cassette'} recorded no "
                                f"{'business ' if business else ''}login whose redirect URI is "
                                f"{request.redirect_uri}: it cannot play the user's browser for this one")
        with self._lock:
            code, entry = logins[min(self._logins[token_path], len(logins) - 1)]
            self._logins[token_path] += 1
        nonce = _recorded_nonce(entry)
        if nonce is not None and hasattr(request, "nonce"):
            request.nonce = nonce
        sep = "&" if "?" in request.redirect_uri else "?"
        return f"{request.redirect_uri}{sep}{urlencode({'code': code, 'state': request.state})}"

    # ------------------------------------------------------------ transports
    def transport(self, inner: httpx.BaseTransport | None = None) -> httpx.BaseTransport:
        """The httpx transport of a client's sync requests (``connect`` passes it as ``transport=``)."""
        return _Transport(self, inner)

    def async_transport(self, inner: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncBaseTransport:
        """The httpx transport of a client's async requests (``async_transport=``)."""
        return _AsyncTransport(self, inner)


def _recorded_nonce(entry: dict) -> str | None:
    text = ((entry.get("response") or {}).get("content") or {}).get("text")
    try:
        token = json.loads(text).get("id_token") if text else None
        if not token:
            return None
        import jwt

        return jwt.decode(token, options={"verify_signature": False}).get("nonce")
    except (ValueError, AttributeError, Exception):  # noqa: BLE001 — no usable ID token: keep the request's nonce
        return None


_WATCHING: list = []


def _watch_cells() -> None:
    """In IPython, write recordings after every cell (a kernel may be stopped without running ``atexit``)."""
    if _WATCHING:
        return
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None:
        return
    shell.events.register("post_run_cell", lambda *_: _flush_all())
    _WATCHING.append(shell)


def _plain(response: httpx.Response) -> httpx.Response:
    """A read response handed on to the client that asked (the body already decoded)."""
    headers = [(k, v) for k, v in response.headers.multi_items()
               if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]
    extensions = {k: v for k, v in response.extensions.items() if k in ("http_version", "reason_phrase")}
    return httpx.Response(response.status_code, headers=headers, content=response.content, extensions=extensions)


class _Transport(httpx.BaseTransport):
    """Records (through an inner httpx client that picks the connection as the client would: loopback direct,
    the environment's proxy for the rest) or replays the sync requests of a client."""

    def __init__(self, cassette: Cassette, inner: httpx.BaseTransport | None):
        self.cassette, self._inner = cassette, inner
        self._client: httpx.Client | None = None

    def _sender(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(transport=self._inner, mounts=None if self._inner else LOOPBACK_DIRECT,
                                        limits=_LIMITS, follow_redirects=False)
        return self._client

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        cassette = self.cassette
        request.read()
        if cassette.replaying:
            return cassette.play(request)
        started, clock = time.time(), time.monotonic()
        response = self._sender().send(request)
        if cassette.covers(request.url):
            cassette.record(request, response, started, time.monotonic() - clock)
        return _plain(response)

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()
        self.cassette.flush()


class _AsyncTransport(httpx.AsyncBaseTransport):
    """The async twin of :class:`_Transport`: inner clients per event loop (the sync client's bulk runs use a
    private loop each) and, as the client's own, one small pool per pair of bulk workers
    (:data:`toolkit.http.POOL_SIZE`: a pool of 64 connections costs more CPU per request than the request)."""

    def __init__(self, cassette: Cassette, inner: httpx.AsyncBaseTransport | None):
        self.cassette, self._inner = cassette, inner
        self._clients: dict[tuple[int, int | None], tuple[asyncio.AbstractEventLoop, httpx.AsyncClient]] = {}

    def _sender(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        pool = _POOL.get() if self._inner is None else None
        found = self._clients.get((id(loop), pool))
        if found is None or found[0] is not loop:
            limits = _LIMITS if pool is None else httpx.Limits(max_connections=POOL_SIZE,
                                                               max_keepalive_connections=POOL_SIZE)
            client = httpx.AsyncClient(transport=self._inner, mounts=None if self._inner else LOOPBACK_DIRECT,
                                       limits=limits, follow_redirects=False, verify=_ssl_context())
            found = self._clients[(id(loop), pool)] = (loop, client)
        return found[1]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        cassette = self.cassette
        await request.aread()
        if cassette.replaying:
            return cassette.play(request)
        started, clock = time.time(), time.monotonic()
        response = await self._sender().send(request)
        if cassette.covers(request.url):
            cassette.record(request, response, started, time.monotonic() - clock)
        return _plain(response)

    async def aclose(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        for key in [k for k, (owner, _) in self._clients.items() if owner is loop]:
            await self._clients.pop(key)[1].aclose()
        self.cassette.flush()


# --------------------------------------------------------------------------- files and notebooks
def _write(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` at once (a reader never sees half a file), keeping its permissions (a new file
    gets the umask's)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _notebook_har(path: Path) -> dict:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CassetteError(f"cannot read the notebook {path.name}: {exc}") from None
    har = ((nb.get("metadata") or {}).get("toolkit") or {}).get("cassette")
    if har is None:
        raise CassetteError(f"the notebook {path.name} carries no cassette (metadata.toolkit.cassette): embed one "
                            "with toolkit.cassette.embed(FILE, notebook), or replay the file beside it")
    return har


def load(source: "str | os.PathLike | Cassette") -> Cassette:
    """A replaying cassette from a HAR file, or from a notebook that carries one (``.ipynb``).

    >>> toolkit.cassette.load("report.har")      # doctest: +SKIP
    <Cassette replay of report.har: 57 answers>
    """
    if isinstance(source, Cassette):
        if not source.replaying:
            raise CassetteError("replay= takes a cassette that replays (or a file); this one is recording: replay its "
                                "file, connect(replay=tk.cassette.path), once the recording is saved")
        return source
    if not isinstance(source, (str, os.PathLike)) or not str(source):
        raise CassetteError(f"replay= takes a cassette's file (a .har, or a notebook that carries one), not {source!r}")
    path = Path(source)
    if not path.is_file():
        raise CassetteError(f"no cassette at {path}: record one with toolkit.connect(..., record={str(path)!r})")
    if path.suffix == ".ipynb":
        return Cassette(path, "replay", log=_notebook_har(path))
    try:
        har = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CassetteError(f"{path.name} is not a cassette (a HAR file is JSON): {exc}") from None
    return Cassette(path, "replay", log=har)


def from_notebook(notebook: "str | os.PathLike") -> Cassette:
    """The cassette a notebook carries in its metadata (see :func:`embed`), replaying."""
    path = Path(notebook)
    return Cassette(path, "replay", log=_notebook_har(path))


def embed(cassette: "str | os.PathLike | Cassette", notebook: "str | os.PathLike", *,
          limit: int = EMBED_LIMIT) -> int:
    """Write a cassette into a notebook's metadata (``metadata.toolkit.cassette``), replacing one there; returns
    its size in bytes. Refused above ``limit`` bytes (:data:`EMBED_LIMIT`): keep a bigger one beside the notebook.

    Run it while the notebook is closed (or reload the notebook from disk afterwards: JupyterLab would otherwise
    save its open copy over it). Copies of the notebook carry the cassette; ``connect(replay="the.ipynb")``
    replays it.

    >>> toolkit.cassette.embed("report.har", "report.ipynb")     # doctest: +SKIP
    48213
    """
    if isinstance(cassette, Cassette):
        cassette.flush()
        har = cassette.har()
    else:
        path = Path(cassette)
        try:
            har = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CassetteError(f"cannot read the cassette {path.name}: {exc}") from None
    Cassette(None, "replay", log=har)            # a cassette this toolkit can replay, or a clear error now
    size = len(json.dumps(har, ensure_ascii=False, indent=1).encode("utf-8"))
    if size > limit:
        raise CassetteError(f"the cassette is {size:,} bytes, more than the {limit:,} a notebook should carry "
                            "(limit=): keep it beside the notebook and replay the file")
    nb_path = Path(notebook)
    try:
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CassetteError(f"cannot read the notebook {nb_path.name}: {exc}") from None
    nb.setdefault("metadata", {}).setdefault("toolkit", {})["cassette"] = har
    _write(nb_path, json.dumps(nb, ensure_ascii=False, indent=1) + "\n")
    return size


# --------------------------------------------------------------------------- connect()
def recording(record: "str | os.PathLike | Cassette", config: Config) -> Cassette:
    """The cassette ``connect(record=...)`` records into for a client of ``config``."""
    if isinstance(record, Cassette):
        record.attach(config)
        return record
    if not isinstance(record, (str, os.PathLike)) or not str(record):
        raise CassetteError(f"record= takes a file name (e.g. 'report.har') or a recording cassette "
                            f"(record=tk.cassette), not {record!r}")
    path = Path(record)
    if path.suffix == ".ipynb":
        raise CassetteError(f"record= writes a HAR file and would replace the notebook {path.name}: record into "
                            "'report.har', then toolkit.cassette.embed('report.har', notebook) to carry it inside")
    if path.is_dir():
        raise CassetteError(f"record= names a file to write, and {path} is a folder: e.g. {str(path / 'report.har')!r}")
    cassette = Cassette(path, "record")
    cassette.attach(config)
    try:
        cassette.save()            # a new recording replaces the file now: a path that cannot be written fails here
    except OSError as exc:
        raise CassetteError(f"cannot write the cassette {path}: {exc.strerror or exc}") from None
    return cassette


def replay_config(cassette: Cassette, overrides: dict) -> Config:
    """The configuration of a replaying client: the recording's hosts, the placeholders of its keys."""
    app = cassette._meta.get("app") or {}
    creds = Credentials(rest_api_key=app.get("rest_api_key"), admin_key=app.get("admin_key"),
                        client_secret=app.get("client_secret"), app_id=app.get("app_id"),
                        redirect_uri=app.get("redirect_uri"),
                        app_key_scheme=app.get("app_key_scheme") or APP_KEY_SCHEME)
    return Config(hosts=Hosts(**cassette.hosts), credentials=creds, **overrides)
