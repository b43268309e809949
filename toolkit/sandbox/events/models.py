"""Webhook delivery engine of the sandbox (identity §6, social §6): the platform calling the app.

Four webhooks, registered per app in ``apps.webhooks`` (control API ``POST /sandbox/webhooks``) under the
names ``unlink``, ``account_status``, ``share`` and ``channel``:

* **unlink** (identity §6.1): GET query or POST form (setting ``unlink_method``, default ``POST``) with
  ``app_id``, ``user_id``, ``referrer_type`` (and ``group_user_token`` when given); header
  ``Authorization: ServiceAK <primary admin key>``. Delivered = HTTP 200 (the spec's required answer).
* **account_status** (identity §6.2): POST, ``Content-Type: application/secevent+jwt``, body a SET signed
  RS256 by the auth host's key ring (header ``typ: secevent+jwt`` and ``kid``). Delivered = 202; rejected =
  400 with ``Content-Type: application/json`` and a JSON object whose ``err`` is one of the four values of
  §6.2 and whose ``description`` is a string (logged, not retried); anything else (no answer within the bound,
  another status, a 400 that does not follow that format) = failed, retried.
* **share** (social §6.1): GET query or POST JSON (setting ``share_method``, default ``POST``) with
  ``CHAT_TYPE``, ``HASH_CHAT_ID``, the ``serverCallbackArgs`` members, optional ``TEMPLATE_ID``,
  ``IS_SINGLE_CHATROOM``, ``CHAT_MEMBER_COUNT_RANGE``. Delivered = any 2XX.
* **channel** (social §6.2): POST JSON ``event``, ``id``, ``id_type`` (``app_user_id``),
  ``channel_public_id``, ``channel_uuid``, ``updated_at`` (RFC 3339 UTC) plus the deprecated members
  ``plus_friend_public_id``, ``plus_friend_uuid`` and ``timestamp`` (ms), which the platform still sends.
  Delivered = any 2XX.

Share and channel requests carry the three headers of social §6: ``Authorization: ServiceAK <primary
admin key>``, ``X-Service-Resource-ID`` (one id per event, the same on every retry so a receiver can drop
duplicates) and ``User-Agent: ServiceOpenAPI/1.0``.

Delivery rules (choices where the spec is silent):

* One delivery worker for the whole process (:class:`DeliveryWorker`, :data:`WORKER`), shared by every sandbox
  in it (a class sandbox serves a world, a whole sandbox, per student): the first event or control call of a
  sandbox registers it (:meth:`Model.kick`); the worker sleeps until a registered sandbox's next delivery is due
  or a kick (no polling), drops a sandbox with nothing pending, and its daemon thread ends by itself after
  ``Model.idle_exit`` (30) seconds with nothing registered. :meth:`Model.stop` takes a sandbox out of it. A
  sandbox's deliveries go out one at a time in creation order (so a receiver sees an unlink webhook before its
  SET); a few threads at most (4) serve the sandboxes, so one sandbox's slow receiver does not hold up the others.
* Answer bound: 3 seconds (``answer_timeout``; the whole request, connect to last byte).
* Failed attempts are retried after ``retry_delays`` seconds of real time (default ``[1, 5, 30]``: four
  attempts in all); after the last one the delivery is ``failed``. Every attempt is logged.
* A webhook (app × kind) is **deactivated** after ``deactivate_after`` consecutive failed attempts (default 10);
  its pending deliveries are ``dropped`` and later events are logged as ``skipped`` until the URL is registered
  again with another value or ``POST /sandbox/webhooks/reactivate`` is called. A delivered or rejected answer
  resets the count. The unlink webhook follows the same retry rules (the spec only demands the 200 answer).
* Delivery states: ``pending`` → ``delivered`` | ``rejected`` | ``failed`` | ``dropped``; ``skipped`` when the
  event was not sent (reason in ``note``: webhook deactivated, no account-status-details consent, account
  disabled). An event for a webhook that is not registered is not logged.
* RISC and CAEP events are sent only when the app has the account-status-details item configured (setting
  ``account_status_details``, default false: it needs a review on the real platform) **and** the user agreed
  to the consent item :data:`ACCOUNT_STATUS_SCOPE` (``account_status_details``). OAUTH and platform-defined
  events need neither. User Profile Changed is not sent while the account is disabled.

Event types and schema identifiers (``{secevent_base}`` = :data:`SECEVENT_BASE`). The spec shows the marked
ones; the others ("not shown") use the standard OpenID RISC 1.0 / CAEP 1.0 identifiers where they exist, and
the OAUTH ones follow the shown pattern:

============================== ======== ============================================================
Event type                     Category Identifier
============================== ======== ============================================================
Tokens Revoked                 OAUTH    {secevent_base}/oauth/event-type/tokens-revoked (chosen)
User Linked                    OAUTH    {secevent_base}/oauth/event-type/user-linked (shown)
User Unlinked                  OAUTH    {secevent_base}/oauth/event-type/user-unlinked (shown)
User Scope Consent             OAUTH    {secevent_base}/oauth/event-type/user-scope-consent (shown)
User Scope Withdraw            OAUTH    {secevent_base}/oauth/event-type/user-scope-withdraw (shown)
Business Token Issued          OAUTH    {secevent_base}/oauth/event-type/token-issued (shown)
Business Token Revoked         OAUTH    {secevent_base}/oauth/event-type/token-revoked (chosen)
Business Tokens Revoked        OAUTH    {secevent_base}/oauth/event-type/tokens-revoked (chosen; ``token_class``
                                        ``business`` tells it from Tokens Revoked)
Account Credential Change Req. RISC     {secevent_base}/risc/event-type/account-credential-change-required (RISC)
Account Disabled               RISC     {secevent_base}/risc/event-type/account-disabled (shown)
Account Enabled                RISC     {secevent_base}/risc/event-type/account-enabled (RISC)
Account Purged                 RISC     {secevent_base}/risc/event-type/account-purged (RISC)
Credential Compromise          RISC     {secevent_base}/risc/event-type/credential-compromise (RISC)
Identifier Changed             RISC     {secevent_base}/risc/event-type/identifier-changed (RISC)
Identifier Recycled            RISC     {secevent_base}/risc/event-type/identifier-recycled (shown)
Sessions Revoked               RISC     {secevent_base}/risc/event-type/sessions-revoked (RISC)
Assurance Level Change         CAEP     {secevent_base}/caep/event-type/assurance-level-change (shown)
Credential Change              CAEP     {secevent_base}/caep/event-type/credential-change (CAEP)
User Profile Changed           KAKAO    {platevent_base}/kakao/event-type/user-profile-changed (shown)
============================== ======== ============================================================

``{platevent_base}`` is not given by the spec; the sandbox uses :data:`PLATEVENT_BASE`.

SET payload (identity §2): ``aud`` REST API key, ``sub`` service user id (string), ``iss`` auth base URL,
``txm`` (one id per event, kept across retries), ``toe`` (sandbox time of the state change), ``iat`` (sandbox
time of signing), ``app_id``, ``jti`` (unique), ``events`` ``{identifier: members}``. Each event carries
``subject`` ``{subject_type: "iss-sub", iss, sub}`` unless the caller gives another one (IdentifierSubject for
the identifier events, BizTokenSubject for business tokens).

Hooks the other areas call (all return the ids of the deliveries created, possibly empty):
:meth:`Model.unlink`, :meth:`Model.account_status`, :meth:`Model.share`, :meth:`Model.channel`,
:meth:`Model.business_token`, :meth:`Model.profile_changed`, and :meth:`Model.kick` — the identity area's
``consent_events`` log (``linked``, ``unlinked``, ``scope_consent``, ``scope_withdraw``, ``tokens_revoked``)
is read by :meth:`Model.pump` (a cursor in the store's meta, so each row becomes events exactly once).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
import time
import uuid
from datetime import datetime, timezone
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any, Literal

import httpx

from ..web import api_error

__all__ = ["Model", "DeliveryWorker", "WORKER", "ANSWER_BYTES", "SCHEMA", "EVENT_TYPES", "SECEVENT_BASE", "PLATEVENT_BASE",
           "ACCOUNT_STATUS_SCOPE", "UNLINK_REFERRERS", "SET_ERRORS", "DEFAULT_SETTINGS", "KINDS"]

log = logging.getLogger("toolkit.sandbox.events")

SECEVENT_BASE = "https://schemas.openid.net/secevent"
PLATEVENT_BASE = "https://schemas.sandbox.invalid/secevent"
ACCOUNT_STATUS_SCOPE = "account_status_details"
KINDS = ("unlink", "account_status", "share", "channel")
UNLINK_REFERRERS = ("ACCOUNT_DELETE", "FORCED_ACCOUNT_DELETE", "UNLINK_FROM_APPS", "UNLINK_FROM_ADMIN",
                    "INCOMPLETE_SIGN_UP")
UNLINKED_REASONS = (*UNLINK_REFERRERS, "REVOKE_ACCOUNT_SERVICE_TERMS", "UNLINK_FROM_SERVICE")
SET_ERRORS = ("invalid_request", "invalid_key", "invalid_issuer", "invalid_audience")
CHANNEL_EVENTS = ("added", "blocked")
AAL_LEVELS = ("nist-aal1", "nist-aal2")
USER_AGENT = "ServiceOpenAPI/1.0"

_O, _R, _C = f"{SECEVENT_BASE}/oauth/event-type", f"{SECEVENT_BASE}/risc/event-type", \
    f"{SECEVENT_BASE}/caep/event-type"
EVENT_TYPES: dict[str, tuple[str, str]] = {
    "Tokens Revoked": ("OAUTH", f"{_O}/tokens-revoked"),
    "User Linked": ("OAUTH", f"{_O}/user-linked"),
    "User Unlinked": ("OAUTH", f"{_O}/user-unlinked"),
    "User Scope Consent": ("OAUTH", f"{_O}/user-scope-consent"),
    "User Scope Withdraw": ("OAUTH", f"{_O}/user-scope-withdraw"),
    "Business Token Issued": ("OAUTH", f"{_O}/token-issued"),
    "Business Token Revoked": ("OAUTH", f"{_O}/token-revoked"),
    "Business Tokens Revoked": ("OAUTH", f"{_O}/tokens-revoked"),
    "Account Credential Change Required": ("RISC", f"{_R}/account-credential-change-required"),
    "Account Disabled": ("RISC", f"{_R}/account-disabled"),
    "Account Enabled": ("RISC", f"{_R}/account-enabled"),
    "Account Purged": ("RISC", f"{_R}/account-purged"),
    "Credential Compromise": ("RISC", f"{_R}/credential-compromise"),
    "Identifier Changed": ("RISC", f"{_R}/identifier-changed"),
    "Identifier Recycled": ("RISC", f"{_R}/identifier-recycled"),
    "Sessions Revoked": ("RISC", f"{_R}/sessions-revoked"),
    "Assurance Level Change": ("CAEP", f"{_C}/assurance-level-change"),
    "Credential Change": ("CAEP", f"{_C}/credential-change"),
    "User Profile Changed": ("KAKAO", f"{PLATEVENT_BASE}/kakao/event-type/user-profile-changed"),
}
_NO_SUBJECT_ISS = ("Identifier Changed", "Identifier Recycled")

DEFAULT_SETTINGS = {
    "unlink_method": "POST", "share_method": "POST", "account_status_details": False,
    "answer_timeout": 3.0, "retry_delays": [1.0, 5.0, 30.0], "deactivate_after": 10,
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, kind TEXT NOT NULL, event_type TEXT,
    user_id INTEGER, url TEXT, method TEXT, request TEXT NOT NULL DEFAULT '{}', resource_id TEXT NOT NULL,
    state TEXT NOT NULL, note TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_at REAL,
    last_status INTEGER, created_at INTEGER NOT NULL, finished_at INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(state, next_at);
CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id INTEGER NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, status INTEGER, outcome TEXT NOT NULL,
    detail TEXT, elapsed_ms REAL NOT NULL, PRIMARY KEY (delivery_id, n)
);
CREATE TABLE IF NOT EXISTS webhook_health (
    app_id TEXT NOT NULL, kind TEXT NOT NULL, url TEXT NOT NULL, failures INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1, deactivated_at INTEGER, PRIMARY KEY (app_id, kind)
);
CREATE TABLE IF NOT EXISTS events_settings (app_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
"""


def event_type_name(name: str) -> str:
    """``"account-disabled"``, ``"account_disabled"``, ``"Account Disabled"`` or a schema identifier → the
    display name of :data:`EVENT_TYPES` (ValueError when unknown)."""
    for display, (_cat, ident) in EVENT_TYPES.items():
        if name == ident:
            return display
    norm = str(name).replace("-", " ").replace("_", " ").strip().lower()
    for display in EVENT_TYPES:
        if display.lower() == norm:
            return display
    raise ValueError(f"unknown event type {name!r}; known: {', '.join(EVENT_TYPES)}")


def _rfc3339(unix: float) -> str:
    return datetime.fromtimestamp(unix, tz=timezone.utc).isoformat().replace("+00:00", "Z")


class Model:
    idle_exit = 30.0
    """Seconds the shared worker's last thread waits with nothing registered before it ends (the value of the
    model that kicked it last)."""

    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self._keys = None
        self._pump_lock = threading.Lock()
        self._local = threading.local()     # marks the thread running pump() or a pass (hooks inside do not re-pump)
        self._stopping = threading.Event()
        self._failed_passes = 0             # passes in a row that raised (the worker gives up on the third)

    # ------------------------------------------------------------------ settings
    def settings(self, app_id: str) -> dict:
        row = self.store.one("SELECT settings FROM events_settings WHERE app_id = ?", app_id)
        return {**DEFAULT_SETTINGS, **(json.loads(row["settings"]) if row else {})}

    def update_settings(self, app_id: str, **changes) -> dict:
        bad = set(changes) - set(DEFAULT_SETTINGS)
        if bad:
            raise api_error(400, -2, f"unknown settings: {', '.join(sorted(bad))}; known: "
                                     f"{', '.join(sorted(DEFAULT_SETTINGS))}")
        for name in ("unlink_method", "share_method"):
            if name in changes:
                changes[name] = str(changes[name]).upper()
                if changes[name] not in ("GET", "POST"):
                    raise api_error(400, -2, f"{name} must be GET or POST")
        if "retry_delays" in changes:
            delays = changes["retry_delays"]
            if not isinstance(delays, list) or len(delays) > 20 or not all(
                    isinstance(d, (int, float)) and 0 <= d <= 3600 for d in delays):
                raise api_error(400, -2, "retry_delays must be a list of at most 20 delays of 0 to 3600 seconds")
        for name, lo, hi in (("deactivate_after", 1, 1000), ("answer_timeout", 0.1, 3.0)):
            if name in changes:
                value = changes[name]
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
                    raise api_error(400, -2, f"{name} must be a number between {lo} and {hi}")
        if "account_status_details" in changes:
            changes["account_status_details"] = bool(changes["account_status_details"])
        self.pump()                         # events recorded so far go out under the old settings
        merged = {**self.settings(app_id), **changes}
        self.store.execute("INSERT INTO events_settings VALUES (?, ?) ON CONFLICT(app_id) DO UPDATE SET"
                           " settings = excluded.settings", app_id, json.dumps(merged))
        self.kick()
        return merged

    # ------------------------------------------------------------------ helpers
    @property
    def keys(self):
        if self._keys is None:
            from ..keys import KeyRing

            self._keys = KeyRing(self.sandbox)
        return self._keys

    def _iss(self) -> str:
        return self.sandbox.hosts()["auth"]

    def _app(self, app_id: str) -> dict:
        app = self.sandbox.apps.app(app_id)
        if app is None:
            raise api_error(400, -2, f"unknown app_id {app_id}")
        return app

    def _identity(self):
        return self.sandbox.models.get("identity")

    def consented(self, app_id: str, user_id: int) -> bool:
        """True when RISC/CAEP events may go to this app for this user (item configured and agreed)."""
        if not self.settings(app_id)["account_status_details"]:
            return False
        identity = self._identity()
        return bool(identity) and ACCOUNT_STATUS_SCOPE in identity.agreed_scopes(app_id, user_id)

    def _health(self, app_id: str, kind: str, url: str) -> dict:
        row = self.store.one("SELECT * FROM webhook_health WHERE app_id = ? AND kind = ?", app_id, kind)
        if row is None or row["url"] != url:
            self.store.execute("INSERT INTO webhook_health (app_id, kind, url) VALUES (?, ?, ?)"
                               " ON CONFLICT(app_id, kind) DO UPDATE SET url = excluded.url, failures = 0,"
                               " active = 1, deactivated_at = NULL", app_id, kind, url)
            row = self.store.one("SELECT * FROM webhook_health WHERE app_id = ? AND kind = ?", app_id, kind)
        return dict(row)

    def _enqueue(self, app_id: str, kind: str, *, event_type: str | None, user_id, method: str,
                 request: dict, resource_id: str | None = None, skip: str | None = None) -> list[int]:
        self.pump()                         # identity events recorded earlier get the lower delivery ids
        app = self._app(app_id)
        url = app["webhooks"].get(kind)
        if not url:
            return []
        if skip is None and not self._health(app_id, kind, url)["active"]:
            skip = "webhook deactivated after continued failures"
        now = self.sandbox.clock.unix()
        cur = self.store.execute(
            "INSERT INTO webhook_deliveries (app_id, kind, event_type, user_id, url, method, request, resource_id,"
            " state, note, next_at, created_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            app_id, kind, event_type, None if user_id is None else int(user_id), url, method, json.dumps(request),
            resource_id or uuid.uuid4().hex, "skipped" if skip else "pending", skip, None if skip else time.time(),
            now, now if skip else None)
        if not skip:
            self.kick()
        return [cur.lastrowid]

    # ------------------------------------------------------------------ hooks
    def unlink(self, app_id: str, user_id: int, referrer_type: str, *, group_user_token: str | None = None
               ) -> list[int]:
        """Unlink webhook (§6.1) for an unlink the app did not make itself; ``referrer_type`` of §6.1."""
        if referrer_type not in UNLINK_REFERRERS:
            raise ValueError(f"referrer_type must be one of {', '.join(UNLINK_REFERRERS)}")
        params = {"app_id": str(app_id), "user_id": str(user_id), "referrer_type": referrer_type}
        if group_user_token:
            params["group_user_token"] = group_user_token
        method = self.settings(app_id)["unlink_method"]
        return self._enqueue(app_id, "unlink", event_type=referrer_type, user_id=user_id, method=method,
                             request={"params": params})

    def account_status(self, app_id: str, user_id: int, event_type: str, *, toe: int | None = None,
                       subject: dict | None = None, **members) -> list[int]:
        """Account-status webhook (§6.2): sign one SET carrying ``event_type`` with ``members``.

        ``event_type`` is a display name, a slug (``"account-disabled"``) or a schema identifier. A ``subject``
        ``{subject_type: iss-sub, iss, sub}`` is added unless given. RISC/CAEP need :meth:`consented`.
        """
        name = event_type_name(event_type)
        category, ident = EVENT_TYPES[name]
        app = self._app(app_id)
        if not app["webhooks"].get("account_status"):
            return []
        skip = None
        if category in ("RISC", "CAEP") and not self.consented(app_id, user_id):
            skip = "no account-status-details consent (item not configured or not agreed)"
        if name == "User Profile Changed":
            user = self.sandbox.apps.user(user_id)
            if user and user.get("disabled"):
                skip = "account disabled: profile changes are not delivered"
        iss = self._iss()
        if subject is None:
            subject = {"subject_type": "iss-sub", "iss": iss, "sub": str(user_id)}
        now = self.sandbox.clock.unix()
        txm = uuid.uuid4().hex
        claims = {"aud": app["keys"]["rest_api"], "sub": str(user_id), "iss": iss, "txm": txm,
                  "toe": int(toe if toe is not None else now), "iat": now, "app_id": str(app_id),
                  "jti": uuid.uuid4().hex, "events": {ident: {"subject": subject, **members}}}
        token = self.keys.sign(claims, typ="secevent+jwt")
        return self._enqueue(app_id, "account_status", event_type=name, user_id=user_id, method="POST",
                             request={"token": token}, resource_id=txm, skip=skip)

    def share(self, app_id: str, user_id: int, *, chat_type: str = "MemoChat", hash_chat_id: str | None = None,
              args: dict | None = None, template_id: int | None = None, is_single_chatroom: bool | None = None,
              chat_member_count_range: str | None = None) -> list[int]:
        """Share webhook (social §6.1): a share message of ``user_id`` was delivered."""
        if hash_chat_id is None:
            hash_chat_id = hashlib.sha256(f"{app_id}:{user_id}:{chat_type}".encode()).hexdigest()[:40]
        body: dict[str, Any] = {"CHAT_TYPE": chat_type, "HASH_CHAT_ID": hash_chat_id}
        for key, value in (args or {}).items():
            if key in body:
                raise ValueError(f"serverCallbackArgs may not override {key}")
            body[str(key)] = value
        if template_id is not None:
            body["TEMPLATE_ID"] = int(template_id)
        if is_single_chatroom is not None:
            body["IS_SINGLE_CHATROOM"] = bool(is_single_chatroom)
        if chat_member_count_range is not None:
            body["CHAT_MEMBER_COUNT_RANGE"] = chat_member_count_range
        method = self.settings(app_id)["share_method"]
        return self._enqueue(app_id, "share", event_type="share", user_id=user_id, method=method,
                             request={"json": body})

    def channel(self, app_id: str, user_id: int, channel_public_id: str, event: str, *,
                channel_uuid: str | None = None) -> list[int]:
        """Channel webhook (social §6.2): ``user_id`` ``added`` or ``blocked`` the channel."""
        if event not in CHANNEL_EVENTS:
            raise ValueError(f"event must be one of {', '.join(CHANNEL_EVENTS)}")
        ts = self.sandbox.clock.timestamp()
        channel_uuid = channel_uuid or f"@{channel_public_id}"
        body = {"event": event, "id": str(user_id), "id_type": "app_user_id",
                "channel_public_id": channel_public_id, "channel_uuid": channel_uuid, "updated_at": _rfc3339(int(ts)),
                "plus_friend_public_id": channel_public_id, "plus_friend_uuid": channel_uuid,
                "timestamp": int(ts * 1000)}
        return self._enqueue(app_id, "channel", event_type=event, user_id=user_id, method="POST",
                             request={"json": body})

    def business_token(self, app_id: str, user_id: int, event: str, *, token: str, token_id: str,
                       token_user_id: str) -> list[int]:
        """SET Business Token Issued / Revoked (``event`` ``issued`` or ``revoked``) for a business token."""
        name = {"issued": "Business Token Issued", "revoked": "Business Token Revoked"}[event]
        digest = hashlib.sha256(token.encode()).digest()
        import base64

        subject = {"subject_type": "oauth_token", "token_type": "business_access_token",
                   "token_identifier_alg": "hash_sha256",
                   "token": base64.urlsafe_b64encode(digest).rstrip(b"=").decode()}
        owner = {"subject_type": "iss-sub", "iss": self._iss() + "/", "sub": str(token_user_id)}
        return self.account_status(app_id, user_id, name, subject=subject, token_subject=owner,
                                   token_id=str(token_id), token_class="business")

    def profile_changed(self, app_id: str, user_id: int, profile: list[str] | str) -> list[int]:
        """SET User Profile Changed: ``profile`` = consent ids whose data changed."""
        profile = profile if isinstance(profile, str) else " ".join(profile)
        return self.account_status(app_id, user_id, "User Profile Changed", profile=profile)

    # ------------------------------------------------------------------ identity log → events
    def pump(self) -> list[int]:
        """Turn new rows of the identity area's ``consent_events`` into webhook deliveries (exactly once)."""
        if self._identity() is None or getattr(self._local, "pumping", False):
            return []
        with self._pumping():
            return self._pump_rows()

    def pumped(self, write) -> tuple[Any, list[int]]:
        """Run ``write()`` (which adds rows to the identity area's ``consent_events``) and turn the new rows (and
        any earlier ones) into deliveries at once: ``write``'s result and the delivery ids. The worker, woken by
        each row, is held off meanwhile; otherwise it could take the rows first and the caller would see none."""
        with self._pumping():
            result = write()
            return result, self._pump_rows()

    def without_webhooks(self, write):
        """Run ``write()`` (which adds rows to the identity area's ``consent_events``) so that its rows never
        become webhooks: earlier rows are turned into deliveries first, then the cursor moves past the new ones
        (used to replay a history of the past). Returns what ``write`` returns."""
        with self._pumping():
            self._pump_rows()
            result = write()
            last = self.store.one("SELECT MAX(seq) AS seq FROM consent_events")
            if last is not None and last["seq"] is not None:
                self.store.set_meta("events.identity_seq", last["seq"])
        return result

    @contextlib.contextmanager
    def _pumping(self):
        """The pump's lock, with this thread marked as pumping (a hook inside does not pump again)."""
        with self._pump_lock:
            self._local.pumping = True
            try:
                yield
            finally:
                self._local.pumping = False

    def _pump_rows(self) -> list[int]:
        cursor = int(self.store.get_meta("events.identity_seq", 0))
        try:
            rows = self.store.all("SELECT * FROM consent_events WHERE seq > ? ORDER BY seq", cursor)
        except Exception:  # noqa: BLE001 - identity table absent
            return []
        created: list[int] = []
        for row in rows:
            try:
                created += self._from_identity(dict(row))
            except Exception as exc:  # noqa: BLE001 - a bad row must not stop the log
                log.warning("identity event %s not turned into a webhook: %s", row["seq"], type(exc).__name__)
            self.store.set_meta("events.identity_seq", row["seq"])
        return created

    def _from_identity(self, row: dict) -> list[int]:
        app_id, user_id, kind, at = row["app_id"], row["user_id"], row["type"], row["at"]
        detail = json.loads(row.get("detail") or "{}")
        scopes = row.get("scopes") or ""
        if kind == "linked":
            return self.account_status(app_id, user_id, "User Linked", toe=at)
        if kind == "unlinked":
            reason = detail.get("reason", "UNLINK_FROM_SERVICE")
            ids = []
            if reason in UNLINK_REFERRERS:
                ids += self.unlink(app_id, user_id, reason, group_user_token=detail.get("group_user_token"))
            return ids + self.account_status(app_id, user_id, "User Unlinked", toe=at, reason=reason)
        if kind == "scope_consent":
            return self.account_status(app_id, user_id, "User Scope Consent", toe=at, scope=scopes)
        if kind == "scope_withdraw":
            return self.account_status(app_id, user_id, "User Scope Withdraw", toe=at, scope=scopes)
        if kind == "tokens_revoked":
            return self.account_status(app_id, user_id, "Tokens Revoked", toe=at, reason=detail.get("reason", "user"))
        return []

    # ------------------------------------------------------------------ worker
    def kick(self) -> None:
        """Register this sandbox with the process's delivery worker (:class:`DeliveryWorker`, started if it is
        not running) for a pass now. Call after any state change that may have recorded events."""
        if getattr(self._local, "in_pass", False):
            return                          # inside this model's own pass: the pass looks again when it ends
        self._stopping.clear()
        WORKER.kick(self)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop this sandbox's deliveries: it leaves the shared worker, a pass in progress ends after its current
        attempt (waited for up to ``timeout`` seconds). Pending deliveries stay pending; the next kick resumes them."""
        self._stopping.set()
        WORKER.forget(self, timeout)

    @property
    def running(self) -> bool:
        """True while the shared worker has this sandbox registered (deliveries pending or a pass in progress)."""
        return WORKER.serving(self)

    def _pass(self, per_pass: int, budget: float) -> float | None:
        """One pass of the shared worker for this sandbox: new identity rows become deliveries, then the due
        deliveries go out in creation order (at most ``per_pass``, and no new one once ``budget`` seconds have
        passed). Returns when the next one is due (Unix time; at once when some were left), None when nothing
        is pending (or the model is stopping)."""
        self._local.in_pass = True
        try:
            if self._identity() is not None:
                if not self._pump_lock.acquire(blocking=False):
                    return time.time() + 0.05      # a caller is pumping (pumped()): look again in a moment
                try:
                    self._local.pumping = True
                    self._pump_rows()
                finally:
                    self._local.pumping = False
                    self._pump_lock.release()
            started = time.monotonic()
            rows = self.store.all("SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ?"
                                  " ORDER BY id LIMIT ?", time.time(), per_pass)
            for row in rows:
                if self._stopping.is_set():
                    return None
                self._attempt(dict(row))
                if time.monotonic() - started >= budget:
                    break
            if self._stopping.is_set():
                return None
            return self.store.one("SELECT MIN(next_at) AS t FROM webhook_deliveries WHERE state = 'pending'")["t"]
        finally:
            self._local.in_pass = False

    def _request(self, d: dict, app: dict, timeout: float) -> "Answer":
        req = json.loads(d["request"])
        admin = app["keys"]["admin"]
        http = WORKER.client()
        if d["kind"] == "account_status":
            headers = {"Content-Type": "application/secevent+jwt"}
            return _send(http, http.build_request("POST", d["url"], content=req["token"].encode(), headers=headers,
                                                  timeout=timeout), timeout)
        headers = {"Authorization": f"ServiceAK {admin}"}
        if d["kind"] in ("share", "channel"):
            headers.update({"X-Service-Resource-ID": d["resource_id"], "User-Agent": USER_AGENT})
        data = req.get("params") or req.get("json") or {}
        if d["method"] == "GET":
            params = {k: (json.dumps(v) if isinstance(v, bool) else str(v)) for k, v in data.items()}
            return _send(http, http.build_request("GET", d["url"], params=params, headers=headers, timeout=timeout),
                         timeout)
        if "json" in req:
            return _send(http, http.build_request("POST", d["url"], json=data, headers=headers, timeout=timeout),
                         timeout)
        return _send(http, http.build_request("POST", d["url"], data=data, headers=headers, timeout=timeout), timeout)

    @staticmethod
    def _judge(kind: str, resp: "Answer") -> tuple[str, str | None]:
        """``delivered`` | ``rejected`` | ``failed`` and a short detail."""
        status = resp.status_code
        if kind == "account_status":
            if status == 202:
                return "delivered", None
            if status == 400:
                ctype = resp.headers.get("content-type", "")
                try:
                    body = json.loads(resp.content) if ctype.split(";")[0].strip() == "application/json" else None
                except (ValueError, UnicodeDecodeError):
                    body = None
                if (isinstance(body, dict) and body.get("err") in SET_ERRORS
                        and isinstance(body.get("description"), str)):
                    return "rejected", f"{body['err']}: {body['description'][:200]}"
                return "failed", "400 answer without a JSON {err, description} body of §6.2"
            return "failed", f"HTTP {status} (202 or 400 expected)"
        if kind == "unlink":
            return ("delivered", None) if status == 200 else ("failed", f"HTTP {status} (200 expected)")
        return ("delivered", None) if 200 <= status < 300 else ("failed", f"HTTP {status} (2XX expected)")

    def _attempt(self, d: dict) -> None:
        fresh = self.store.one("SELECT state, attempts FROM webhook_deliveries WHERE id = ?", d["id"])
        if fresh is None or fresh["state"] != "pending" or fresh["attempts"] != d["attempts"]:
            return                          # dropped or handled since the batch was read
        app = self.sandbox.apps.app(d["app_id"])
        settings = self.settings(d["app_id"])
        timeout = float(settings["answer_timeout"])
        n = d["attempts"] + 1
        started = time.monotonic()
        status = None
        policy = self.sandbox.class_policy        # (policy, student) in a class sandbox, else None
        try:
            refused = policy[0].webhook_refusal(d["url"], policy[1]) if policy is not None else None
            if refused is not None:
                outcome, detail = "failed", refused
            else:
                resp = self._request(d, app, timeout)
                status = resp.status_code
                outcome, detail = self._judge(d["kind"], resp)
        except AnswerTooLarge:
            outcome, detail = "failed", "answer too large"
        except httpx.TimeoutException:
            outcome, detail = "failed", "could not deliver" if policy else f"no answer within {timeout:g} s"
        except httpx.HTTPError as exc:       # in a class, the same words whatever failed: no map of ports
            outcome, detail = "failed", "could not deliver" if policy else f"no answer: {type(exc).__name__}"
        elapsed = (time.monotonic() - started) * 1000
        if outcome == "failed" and elapsed > timeout * 1000 and status is not None:
            outcome, detail = "failed", f"answered after {elapsed / 1000:.1f} s (bound {timeout:g} s)"
        now = self.sandbox.clock.unix()
        delays = list(settings["retry_delays"])
        with self.store.tx() as db:
            db.execute("INSERT INTO webhook_attempts VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (d["id"], n, now, status, outcome, detail, round(elapsed, 1)))
            if outcome == "failed":
                if n <= len(delays):
                    db.execute("UPDATE webhook_deliveries SET attempts = ?, last_status = ?, note = ?, next_at = ?"
                               " WHERE id = ?", (n, status, detail, time.time() + float(delays[n - 1]), d["id"]))
                else:
                    db.execute("UPDATE webhook_deliveries SET attempts = ?, last_status = ?, note = ?,"
                               " state = 'failed', next_at = NULL, finished_at = ? WHERE id = ?",
                               (n, status, detail, now, d["id"]))
                db.execute("UPDATE webhook_health SET failures = failures + 1 WHERE app_id = ? AND kind = ?"
                           " AND url = ?", (d["app_id"], d["kind"], d["url"]))
                health = db.execute("SELECT failures, active FROM webhook_health WHERE app_id = ? AND kind = ?"
                                    " AND url = ?", (d["app_id"], d["kind"], d["url"])).fetchone()
                if health and health["active"] and health["failures"] >= int(settings["deactivate_after"]):
                    db.execute("UPDATE webhook_health SET active = 0, deactivated_at = ? WHERE app_id = ? AND"
                               " kind = ?", (now, d["app_id"], d["kind"]))
                    db.execute("UPDATE webhook_deliveries SET state = 'dropped', next_at = NULL, finished_at = ?,"
                               " note = 'webhook deactivated after continued failures' WHERE app_id = ? AND"
                               " kind = ? AND state = 'pending'", (now, d["app_id"], d["kind"]))
                    log.warning("webhook %s of app %s deactivated after %s consecutive failures", d["kind"],
                                d["app_id"], health["failures"])
            else:
                db.execute("UPDATE webhook_deliveries SET attempts = ?, last_status = ?, note = ?, state = ?,"
                           " next_at = NULL, finished_at = ? WHERE id = ?", (n, status, detail, outcome, now, d["id"]))
                db.execute("UPDATE webhook_health SET failures = 0 WHERE app_id = ? AND kind = ? AND url = ?",
                           (d["app_id"], d["kind"], d["url"]))
        if outcome == "rejected":
            log.info("SET delivery %s rejected by the app: %s", d["id"], detail)

    # ------------------------------------------------------------------ control API reads
    def reactivate(self, app_id: str, kind: str) -> list[dict]:
        self.store.execute("UPDATE webhook_health SET active = 1, failures = 0, deactivated_at = NULL"
                           " WHERE app_id = ? AND kind = ?", app_id, kind)
        return self.health(app_id)

    def health(self, app_id: str) -> list[dict]:
        app = self._app(app_id)
        out = []
        for kind in KINDS:
            url = app["webhooks"].get(kind)
            if url:
                h = self._health(app_id, kind, url)
                out.append({"kind": kind, "url": url, "active": bool(h["active"]),
                            "consecutive_failures": h["failures"],
                            "deactivated_at": None if h["deactivated_at"] is None else _rfc3339(h["deactivated_at"])})
        return out

    def deliveries(self, app_id: str | None = None, *, kind: str | None = None, state: str | None = None,
                   since: int = 0, limit: int = 1000) -> list[dict]:
        """The delivery log, oldest first, each with its attempts. Keys never appear in it."""
        sql = "SELECT * FROM webhook_deliveries WHERE id > ?"
        args: list[int | str] = [since]
        for col, value in (("app_id", app_id), ("kind", kind), ("state", state)):
            if value is not None:
                sql += f" AND {col} = ?"
                args.append(value)
        rows = self.store.all(sql + " ORDER BY id LIMIT ?", *args, limit)
        out = []
        for r in rows:
            d = dict(r)
            req = json.loads(d.pop("request"))
            d.pop("next_at")
            d["created_at"] = _rfc3339(d["created_at"])
            d["finished_at"] = None if d["finished_at"] is None else _rfc3339(d["finished_at"])
            d["payload"] = req.get("params") or req.get("json")
            if "token" in req:
                d["set_claims"] = _claims_of(req["token"])
            d["attempt_log"] = [{**dict(a), "at": _rfc3339(a["at"])} for a in self.store.all(
                "SELECT n, at, status, outcome, detail, elapsed_ms FROM webhook_attempts WHERE delivery_id = ?"
                " ORDER BY n", d["id"])]
            out.append(d)
        return out

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no delivery is pending (True) or ``timeout`` passes (False)."""
        self.kick()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            if self.store.one("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending'")["n"] == 0:
                return True
            time.sleep(0.02)
        return False


ANSWER_BYTES = 64 * 1024
"""Bytes of a receiver's answer read at most, as sent and once decompressed (the spec's answers are a status and at
most a short JSON object): past either bound the answer is dropped and the delivery failed ``answer too large``, so
that no receiver (a gzip bomb, an endless body) can make the sandbox hold more than this per delivery."""


class AnswerTooLarge(Exception):
    """A receiver's answer passed :data:`ANSWER_BYTES` (sent or decompressed)."""


class Answer:
    """What is kept of a receiver's answer: its status, headers and at most :data:`ANSWER_BYTES` of its body."""

    __slots__ = ("status_code", "headers", "content")

    def __init__(self, status_code: int, headers, content: bytes):
        self.status_code, self.headers, self.content = status_code, headers, content


def _send(http: httpx.Client, request: httpx.Request, timeout: float) -> Answer:
    """Send ``request`` and read its answer within ``timeout`` seconds in all (connect to last byte) and
    :data:`ANSWER_BYTES`: the body is read as sent (``iter_raw``) and decompressed here with a bound on what comes
    out (``zlib``'s ``max_length``), never by a decoder that inflates a whole chunk at once. Raises
    :class:`AnswerTooLarge` past the bound, ``httpx.ReadTimeout`` past the time."""
    import zlib

    request.headers["Accept-Encoding"] = "gzip, deflate"
    deadline = time.monotonic() + timeout
    resp = http.send(request, stream=True)
    try:
        encoding = resp.headers.get("content-encoding", "identity").strip().lower()
        inflate: zlib._Decompress | Literal[False] | None = None   # None: read as is; False: only its size bounded
        if encoding in ("gzip", "x-gzip", "deflate"):
            inflate = zlib.decompressobj(zlib.MAX_WBITS | 32)     # gzip or zlib, told by the header
        elif encoding not in ("identity", ""):
            inflate = False                                       # not read: only its size is bounded
        raw = out = 0
        body = []
        for chunk in resp.iter_raw(8192):
            raw += len(chunk)
            if raw > ANSWER_BYTES:
                raise AnswerTooLarge()
            if inflate:
                try:
                    piece = inflate.decompress(chunk, ANSWER_BYTES + 1 - out)
                except zlib.error:
                    piece, inflate = b"", False
                if inflate and inflate.unconsumed_tail:
                    raise AnswerTooLarge()
            else:
                piece = chunk if inflate is None else b""
            out += len(piece)
            if out > ANSWER_BYTES:
                raise AnswerTooLarge()
            body.append(piece)
            if time.monotonic() > deadline:
                raise httpx.ReadTimeout("the answer took longer than its bound", request=request)
        return Answer(resp.status_code, resp.headers, b"".join(body))
    finally:
        resp.close()


class DeliveryWorker:
    """The webhook delivery worker of the process, shared by every sandbox in it (:data:`WORKER`; a class sandbox
    serves hundreds of worlds in one process, each a sandbox).

    :meth:`Model.kick` registers a sandbox's model, due at once. A worker thread takes the registered model due
    first and runs its pass (:meth:`Model._pass`: new identity rows become deliveries, due deliveries go out),
    then keeps it registered until its next delivery is due, or drops it when nothing is pending. With nothing
    due, the threads sleep until the earliest due time or a kick: no polling. A model is in one pass at a time,
    so its deliveries go out in creation order.

    A pass sends at most ``per_pass`` deliveries and starts none after ``pass_budget`` seconds; the model then
    waits behind the models due before it. When a model is due while every thread is in a pass (a slow receiver
    takes up to the 3-second answer bound per attempt), another thread starts, up to ``threads``: a world's slow
    receiver holds one thread while the other worlds' deliveries go out on the others. A thread with nothing to
    do ends after ``helper_linger`` seconds when another one is waiting; the last one ends after ``idle_exit``
    seconds (that of the model kicked last) with nothing registered, and a kick starts it again. The threads
    share one HTTP client that keeps no cookies (a receiver's cookie never reaches another world's receiver).
    """

    def __init__(self, threads: int = 4, per_pass: int = 20, pass_budget: float = 0.5,
                 helper_linger: float = 1.0):
        self.threads, self.per_pass, self.pass_budget = threads, per_pass, pass_budget
        self.helper_linger = helper_linger
        self.idle_exit = Model.idle_exit
        self.passes = 0                     # passes run so far (tests and benchmarks read it)
        self._reset()

    def _reset(self) -> None:
        """Empty state (also in a forked child, where the parent's threads do not exist)."""
        self._cond = threading.Condition(threading.Lock())
        self._due: dict[Model, float] = {}              # registered models waiting: Unix time of their next pass
        self._busy: dict[Model, threading.Thread] = {}  # models in a pass, and its thread
        self._again: set[Model] = set()                 # kicked during their pass: another pass at once
        self._alive: set[threading.Thread] = set()
        self._waiting = 0                               # threads waiting for work
        self._active = time.monotonic()                 # the last kick or pass
        self._http: httpx.Client | None = None
        self._http_lock = threading.Lock()

    def __repr__(self) -> str:
        return (f"<DeliveryWorker threads={len(self._alive)} registered={len(self._due) + len(self._busy)} "
                f"passes={self.passes}>")

    @property
    def thread_count(self) -> int:
        """Worker threads alive now."""
        return len(self._alive)

    # ------------------------------------------------------------------ the models' calls
    def kick(self, model: Model) -> None:
        """Register ``model`` for a pass now (after its current pass when it is in one)."""
        with self._cond:
            self.idle_exit = model.idle_exit
            self._active = time.monotonic()
            if model in self._busy:
                self._again.add(model)
            else:
                now = time.time()
                self._due[model] = min(self._due.get(model, now), now)
            if not self._waiting and len(self._alive) < self.threads:
                self._start()
            self._cond.notify_all()

    def forget(self, model: Model, timeout: float) -> None:
        """Unregister ``model``; wait up to ``timeout`` seconds for its pass in progress to end."""
        me = threading.current_thread()
        deadline = time.monotonic() + timeout
        with self._cond:
            self._due.pop(model, None)
            self._again.discard(model)
            while self._busy.get(model) not in (None, me):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)

    def serving(self, model: Model) -> bool:
        """Whether ``model`` is registered (waiting for a pass or in one)."""
        with self._cond:
            return model in self._due or model in self._busy

    def client(self) -> httpx.Client:
        """The threads' HTTP client, made on first use (closed when the last thread ends)."""
        with self._http_lock:
            if self._http is None:
                self._http = httpx.Client(trust_env=False, follow_redirects=False,
                                          cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])))
            return self._http

    # ------------------------------------------------------------------ threads
    def _start(self) -> None:
        thread = threading.Thread(target=self._loop, name="toolkit-sandbox-webhooks", daemon=True)
        self._alive.add(thread)
        thread.start()

    def _loop(self) -> None:
        me = threading.current_thread()
        idle_since = None
        http = None
        try:
            with self._cond:
                try:
                    while True:
                        first = min(self._due.items(), key=lambda item: item[1], default=None)
                        now = time.time()
                        if first is not None and first[1] <= now:
                            idle_since = None
                            self._run_pass(first[0], me, now)
                            continue
                        mono = time.monotonic()
                        idle_since = mono if idle_since is None else idle_since
                        if self._waiting:       # another thread waits for the next work: this one may end
                            wait = self.helper_linger - (mono - idle_since)
                        elif not self._due and not self._busy:
                            wait = self.idle_exit - (mono - self._active)
                        else:
                            wait = None         # woken by a kick or the end of a pass
                        if wait is not None and wait <= 0:
                            return
                        if first is not None:
                            wait = first[1] - now if wait is None else min(wait, first[1] - now)
                        self._waiting += 1
                        try:
                            self._cond.wait(wait)
                        finally:
                            self._waiting -= 1
                finally:                        # the lock is held here (a pass takes it back when it ends)
                    self._alive.discard(me)
                    if not self._alive:
                        with self._http_lock:
                            http, self._http = self._http, None
        finally:
            if http is not None:
                http.close()

    def _run_pass(self, model: Model, me: threading.Thread, now: float) -> None:
        """Run ``model``'s pass outside the lock (held when called and on return), then schedule it again."""
        del self._due[model]
        self._busy[model] = me
        self._again.discard(model)
        if not self._waiting and len(self._alive) < self.threads and any(t <= now for t in self._due.values()):
            self._start()                   # other models are due and no thread waits to take them
        nxt, failed = None, False
        self._cond.release()
        try:
            nxt = model._pass(self.per_pass, self.pass_budget)
        except Exception as exc:  # noqa: BLE001 - the worker must survive
            log.warning("webhook worker error: %s", type(exc).__name__)
            failed = True
        finally:
            self._cond.acquire()
            self.passes += 1
            del self._busy[model]
            self._active = time.monotonic()
            if failed:
                model._failed_passes += 1
                nxt = time.time() + 1.0 if model._failed_passes < 3 else None   # then only a kick tries again
            else:
                model._failed_passes = 0
            if model in self._again:
                self._again.discard(model)
                self._due[model] = time.time()
            elif nxt is not None and not model._stopping.is_set():
                self._due[model] = max(nxt, time.time())    # work left: behind the models already waiting
            self._cond.notify_all()


WORKER = DeliveryWorker()
"""The process's webhook delivery worker (every sandbox's :class:`Model` registers with it)."""
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WORKER._reset)


def _claims_of(token: str) -> dict:
    """The SET's payload without its signature check, ``aud`` left out (it is the REST API key)."""
    import jwt

    claims = jwt.decode(token, options={"verify_signature": False})
    claims.pop("aud", None)
    return claims
