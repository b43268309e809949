"""Identity state: links between users and apps, scope consent, service-term consent, account sessions,
authorization codes, access/refresh/ID tokens, shipping addresses and the consent-event log.

This is the core other areas authenticate with: :meth:`Model.bearer` turns an ``Authorization: Bearer``
header into the acting user (HTTP 401 ``{code: -401}`` with ``WWW-Authenticate`` otherwise), and
:meth:`Model.acting_user` implements the 'token or admin key' mode (identity §1 conventions).

Choices of the sandbox where the spec is silent (identity says "not shown"):

* Lifetimes: access token 6 hours, refresh token 60 days (the real platform's well-known values for REST
  apps); the refresh grant answers a new ``refresh_token`` only when less than 30 days remain on the old one
  (otherwise the refresh token is kept and omitted from the answer, as on the real platform).
  Authorization code: 10 minutes, single use, bound to ``client_id``, ``redirect_uri`` and the PKCE challenge.
* Account session: 24 hours from the first authentication, 1 month with "stay logged in" (§1, §8);
  ``auth_time`` of ID tokens is the session's authentication time.
* Token rate limit (KOE237): 20 token issuances (code or refresh grant) per user and app per 600 seconds;
  configurable with ``POST /sandbox/identity/settings``. The control API's ``POST /sandbox/login`` is not
  counted. Answered HTTP 400 (not 429, so that clients do not retry blindly).
* Scope catalogue: the demo app uses ``profile``, ``account_email``, ``openid``, ``name``, ``gender``,
  ``birthday``, ``age_range``, ``phone_number``, ``friends``, ``talk_chats``, ``talk_message``,
  ``story_publish``, ``shipping_address``. ``profile`` and ``openid`` are required consent items and therefore
  not revocable (``revocable`` false); the others are optional and revocable. Scopes agreed that the app does
  not configure are listed with ``using`` false. The first-login consent screen asks for ``profile``,
  ``account_email`` and ``openid`` unless ``scope`` names others.
* Service terms of the demo app: ``terms_of_service`` and ``privacy_policy`` (required, not revocable),
  ``marketing`` and ``location`` (optional, revocable). Revoking an agreed, non-revocable tag fails like a
  non-revocable scope (HTTP 403, code -3).
* Pending link (apps without auto-link): expires 24 hours after login; checked lazily whenever the link state
  is read; the user becomes unlinked (consents and tokens dropped) and an ``unlinked`` event with
  ``INCOMPLETE_SIGN_UP`` is recorded. A pending user's token may call ``/v2/user/me``, ``/v1/user/signup``,
  ``/v1/user/unlink``, ``/v1/user/logout`` and ``/v1/user/access_token_info`` only; other endpoints answer
  HTTP 400 code -101 (the real platform's "not registered user" answer).
* Consent transitions are recorded in ``consent_events(app_id, user_id, type, scopes, detail, at)`` with types
  ``linked``, ``unlinked``, ``scope_consent``, ``scope_withdraw``, ``tokens_revoked`` (the webhook area emits
  events from them) and ``scope_decline``; ``detail`` is a JSON object (e.g. ``{"reason": "UNLINK_FROM_APPS"}``).
* ``scope_decline``: the consent screen asked for items and the user did not agree to them: ``{"how":
  "unticked"}`` for optional items left unticked when the user agreed to the rest, ``{"how": "cancelled"}`` for
  every item of a screen the user cancelled (the app gets ``access_denied``; a first login cancelled leaves the
  user unlinked). The platform sends no event for a decline (identity §5 lists none), so no webhook is made from
  it; the sandbox keeps it so a consent report can count the users *asked*. A later withdrawal is
  ``scope_withdraw`` (event ``User Scope Withdraw``).
"""
from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading

from ..web import api_error, app_key_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS links (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id), state TEXT NOT NULL,
    linked_at INTEGER NOT NULL, PRIMARY KEY (app_id, user_id)
);
CREATE TABLE IF NOT EXISTS consents (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, scope TEXT NOT NULL, agreed INTEGER NOT NULL,
    agreed_at INTEGER, PRIMARY KEY (app_id, user_id, scope)
);
CREATE TABLE IF NOT EXISTS tokens (
    access_token TEXT PRIMARY KEY, refresh_token TEXT NOT NULL, app_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    scopes TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
    refresh_expires_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0,
    auth_time INTEGER, client_id TEXT
);
CREATE INDEX IF NOT EXISTS tokens_refresh ON tokens(refresh_token);
CREATE TABLE IF NOT EXISTS consent_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, user_id INTEGER NOT NULL, type TEXT NOT NULL,
    scopes TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '{}', at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS account_sessions (
    sid TEXT PRIMARY KEY, user_id INTEGER NOT NULL, auth_time INTEGER NOT NULL, expires_at INTEGER NOT NULL,
    stay INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS auth_codes (
    code TEXT PRIMARY KEY, app_id TEXT NOT NULL, client_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    redirect_uri TEXT NOT NULL, scopes TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time INTEGER NOT NULL,
    expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS token_issues (app_id TEXT NOT NULL, user_id INTEGER NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS app_service_terms (
    app_id TEXT NOT NULL, tag TEXT NOT NULL, required INTEGER NOT NULL, revocable INTEGER NOT NULL,
    PRIMARY KEY (app_id, tag)
);
CREATE TABLE IF NOT EXISTS term_consents (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, tag TEXT NOT NULL, agreed INTEGER NOT NULL,
    agreed_at INTEGER, agreed_by TEXT, PRIMARY KEY (app_id, user_id, tag)
);
CREATE TABLE IF NOT EXISTS shipping_addresses (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, body TEXT NOT NULL, is_default INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS user_properties (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, properties TEXT NOT NULL, PRIMARY KEY (app_id, user_id)
);
CREATE TABLE IF NOT EXISTS identity_settings (app_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
"""

ACCESS_TOKEN_SECONDS = 6 * 3600
REFRESH_TOKEN_SECONDS = 60 * 86400
REFRESH_ROTATE_BELOW = 30 * 86400
CODE_SECONDS = 600
SESSION_SECONDS = 86400
SESSION_STAY_SECONDS = 30 * 86400
PENDING_SECONDS = 86400
DEFAULT_SETTINGS = {"token_rate_limit": 20, "token_rate_window": 600}

# id: (display_name, type, required)
SCOPES: dict[str, tuple[str, str, bool]] = {
    "profile": ("Profile (nickname, profile image)", "PRIVACY", True),
    "account_email": ("E-mail", "PRIVACY", False),
    "openid": ("OpenID Connect", "SERVICE", True),
    "name": ("Name", "PRIVACY", False),
    "gender": ("Gender", "PRIVACY", False),
    "birthday": ("Birthday", "PRIVACY", False),
    "age_range": ("Age range", "PRIVACY", False),
    "phone_number": ("Phone number", "PRIVACY", False),
    "shipping_address": ("Shipping address", "PRIVACY", False),
    "friends": ("Friends list in the messenger", "PRIVACY", False),
    "talk_chats": ("Chat rooms in the messenger", "PRIVACY", False),
    "talk_message": ("Send messages in the messenger", "SERVICE", False),
    "story_publish": ("Post to the story", "SERVICE", False),
    "plusfriends": ("Channel addition status", "PRIVACY", False),
    "account_status_details": ("Account status details (security events)", "PRIVACY", False),
}
FIRST_LOGIN_SCOPES = ["profile", "account_email", "openid"]
SERVICE_TERMS = [("terms_of_service", True), ("privacy_policy", True), ("marketing", False), ("location", False)]


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self._keys = None
        self._rate_lock = threading.Lock()

    @property
    def keys(self):
        if self._keys is None:
            from ..keys import KeyRing

            self._keys = KeyRing(self.sandbox)
        return self._keys

    def seed(self, rng) -> None:
        app_id = self.sandbox.apps.app()["app_id"]
        with self.store.tx() as db:
            for tag, required in SERVICE_TERMS:
                db.execute("INSERT OR IGNORE INTO app_service_terms VALUES (?, ?, ?, ?)",
                           (app_id, tag, int(required), int(not required)))
            for user in self.sandbox.apps.users():
                for addr in user.get("shipping_addresses") or []:
                    body = {k: v for k, v in addr.items() if v is not None}
                    db.execute("INSERT INTO shipping_addresses VALUES (?, ?, ?, ?, ?)",
                               (addr["id"], user["id"], json.dumps(body, ensure_ascii=False),
                                int(addr.get("is_default", False)), int(addr["updated_at"])))

    # ------------------------------------------------------------------ settings
    def settings(self, app_id: str) -> dict:
        row = self.store.one("SELECT settings FROM identity_settings WHERE app_id = ?", app_id)
        return {**DEFAULT_SETTINGS, **(json.loads(row["settings"]) if row else {})}

    def update_settings(self, app_id: str, **changes) -> dict:
        app_cols = {k: changes.pop(k) for k in ("client_secret_required", "auto_link") if k in changes}
        for col, value in app_cols.items():
            self.store.execute(f"UPDATE apps SET {col} = ? WHERE app_id = ?", int(bool(value)), app_id)
            self.sandbox.apps.changed()
        merged = {**self.settings(app_id), **changes}
        self.store.execute("INSERT INTO identity_settings VALUES (?, ?) ON CONFLICT(app_id) DO UPDATE SET"
                           " settings = excluded.settings", app_id, json.dumps(merged))
        app = self.sandbox.apps.app(app_id)
        return {**merged, "client_secret_required": bool(app["client_secret_required"]),
                "auto_link": bool(app["auto_link"])}

    # ------------------------------------------------------------------ events
    def event(self, app_id: str, user_id: int, type_: str, scopes=(), **detail) -> None:
        self.store.execute("INSERT INTO consent_events (app_id, user_id, type, scopes, detail, at)"
                           " VALUES (?, ?, ?, ?, ?, ?)", app_id, int(user_id), type_, " ".join(scopes),
                           json.dumps(detail), self.sandbox.clock.unix())
        self.sandbox.model("events").kick()  # the webhook engine reads this log and delivers its events

    def events(self, since: int = 0) -> list[dict]:
        self.sweep_pending()
        rows = self.store.all("SELECT * FROM consent_events WHERE seq > ? ORDER BY seq", since)
        return [{**dict(r), "detail": json.loads(r["detail"])} for r in rows]

    def replay_history(self, app_id: str, rows: list[dict]) -> dict:
        """Apply a consent history (``toolkit/data/users/consent_history.json``: rows ``{user_id, at, type, scopes}``
        with ``type`` ``linked``, ``scope_consent``, ``scope_withdraw`` or ``scope_decline`` (items a consent screen
        asked for and the user did not agree to; ``how``: ``unticked`` or ``cancelled``), oldest first) as if it had happened
        at its times: links, consents and consent-event rows with the recorded ``at``. Done once per store (a
        second call answers the same summary); refused when a row lies after the sandbox clock or a user of the
        history is linked already. No webhook is sent for the past: the webhook engine's cursor moves past
        these rows (``events`` area)."""
        from datetime import datetime

        def unix(text: str) -> int:
            return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())

        done = self.store.get_meta(f"identity.history.{app_id}")
        if done:
            return done
        users = sorted({int(r["user_id"]) for r in rows})
        known = {u["id"] for u in self.sandbox.apps.users()}
        if set(users) - known:
            raise api_error(400, -2, f"the history names users the sandbox does not know: {sorted(set(users) - known)}")
        busy = [u for u in users if self.link_state(app_id, u) in ("linked", "pending")]
        if busy:
            raise api_error(400, -2, f"users of the history are linked already: {busy}; reset the sandbox first")
        times = [unix(r["at"]) for r in rows]
        if times and max(times) > self.sandbox.clock.unix():
            raise api_error(400, -2, "the history ends after the sandbox clock; set the clock later first")

        def write(db) -> int:
            count = 0
            for row, at in zip(rows, times):
                uid, kind, scopes = int(row["user_id"]), row["type"], list(row.get("scopes") or [])
                if kind == "linked":
                    db.execute("INSERT INTO links VALUES (?, ?, 'linked', ?) ON CONFLICT(app_id, user_id) DO UPDATE"
                               " SET state = 'linked', linked_at = excluded.linked_at", (app_id, uid, at))
                    db.execute("INSERT INTO consent_events (app_id, user_id, type, scopes, detail, at)"
                               " VALUES (?, ?, 'linked', '', '{}', ?)", (app_id, uid, at))
                    count += 1
                    kind = "scope_consent"
                if kind == "scope_decline":
                    db.execute("INSERT INTO consent_events (app_id, user_id, type, scopes, detail, at)"
                               " VALUES (?, ?, 'scope_decline', ?, ?, ?)",
                               (app_id, uid, " ".join(scopes), json.dumps({"how": row.get("how", "unticked")}), at))
                    count += 1
                    continue
                if kind not in ("scope_consent", "scope_withdraw"):
                    raise api_error(400, -2, f"unknown history row type {row['type']!r}")
                agreed = int(kind == "scope_consent")
                for scope in scopes:
                    db.execute("INSERT INTO consents VALUES (?, ?, ?, ?, ?) ON CONFLICT(app_id, user_id, scope)"
                               " DO UPDATE SET agreed = excluded.agreed, agreed_at = excluded.agreed_at",
                               (app_id, uid, scope, agreed, at if agreed else None))
                db.execute("INSERT INTO consent_events (app_id, user_id, type, scopes, detail, at)"
                           " VALUES (?, ?, ?, ?, '{}', ?)", (app_id, uid, kind, " ".join(scopes), at))
                count += 1
            return count

        count = self.sandbox.model("events").without_webhooks(lambda: self._write_history(write))
        summary = {"users": len(users), "events": count,
                   "first": rows[0]["at"] if rows else None, "last": rows[-1]["at"] if rows else None}
        self.store.set_meta(f"identity.history.{app_id}", summary)
        return summary

    def _write_history(self, write) -> int:
        with self.store.tx() as db:
            return write(db)

    # ------------------------------------------------------------------ links and consent
    def link(self, app_id: str, user_id: int, state: str = "linked") -> None:
        now = self.sandbox.clock.unix()
        before = self.link_state(app_id, user_id)
        if before == state:
            return
        self.store.execute("INSERT INTO links VALUES (?, ?, ?, ?) ON CONFLICT(app_id, user_id) DO UPDATE SET"
                           " state = excluded.state, linked_at = excluded.linked_at", app_id, int(user_id), state, now)
        if state == "linked":
            self.event(app_id, user_id, "linked")

    def link_state(self, app_id: str, user_id: int) -> str | None:
        row = self.store.one("SELECT state, linked_at FROM links WHERE app_id = ? AND user_id = ?", app_id,
                             int(user_id))
        if row is None:
            return None
        if row["state"] == "pending" and row["linked_at"] + PENDING_SECONDS <= self.sandbox.clock.unix():
            self.unlink(app_id, user_id, reason="INCOMPLETE_SIGN_UP")
            return "unlinked"
        return row["state"]

    def on_clock(self) -> None:
        """Called by the sandbox after the clock moved: apply the 24-hour pending-link rule now."""
        self.sweep_pending()

    def sweep_pending(self) -> None:
        """Unlink every pending link older than 24 hours (run lazily on each authenticated request)."""
        rows = self.store.all("SELECT app_id, user_id FROM links WHERE state = 'pending' AND linked_at <= ?",
                              self.sandbox.clock.unix() - PENDING_SECONDS)
        for r in rows:
            self.unlink(r["app_id"], r["user_id"], reason="INCOMPLETE_SIGN_UP")

    def unlink(self, app_id: str, user_id: int, reason: str = "UNLINK_FROM_SERVICE") -> None:
        """Unlink: consents, term consents and properties dropped, tokens revoked, event recorded."""
        with self.store.tx() as db:
            db.execute("UPDATE links SET state = 'unlinked', linked_at = ? WHERE app_id = ? AND user_id = ?",
                       (self.sandbox.clock.unix(), app_id, int(user_id)))
            for table in ("consents", "term_consents", "user_properties"):
                db.execute(f"DELETE FROM {table} WHERE app_id = ? AND user_id = ?", (app_id, int(user_id)))
        self.revoke_user_tokens(app_id, user_id)
        self.event(app_id, user_id, "unlinked", reason=reason)

    def agree(self, app_id: str, user_id: int, scopes: list[str]) -> list[str]:
        """Record consent; return the scopes that changed from not agreed to agreed."""
        now = self.sandbox.clock.unix()
        changed = []
        with self.store.tx() as db:
            for scope in scopes:
                row = db.execute("SELECT agreed FROM consents WHERE app_id = ? AND user_id = ? AND scope = ?",
                                 (app_id, int(user_id), scope)).fetchone()
                if row is None or not row["agreed"]:
                    changed.append(scope)
                db.execute("INSERT INTO consents VALUES (?, ?, ?, 1, ?) ON CONFLICT(app_id, user_id, scope)"
                           " DO UPDATE SET agreed = 1, agreed_at = excluded.agreed_at", (app_id, int(user_id), scope, now))
        if changed:
            self.event(app_id, user_id, "scope_consent", changed)
        return changed

    def decline(self, app_id: str, user_id: int, scopes: list[str], how: str) -> None:
        """Record that the consent screen asked the user for ``scopes`` and the user did not agree (``how``:
        ``unticked`` or ``cancelled``). No webhook follows (the platform has no such event)."""
        if scopes:
            self.event(app_id, user_id, "scope_decline", list(scopes), how=how)

    def agreed_scopes(self, app_id: str, user_id: int) -> list[str]:
        return [r["scope"] for r in self.store.all(
            "SELECT scope FROM consents WHERE app_id = ? AND user_id = ? AND agreed = 1 ORDER BY scope",
            app_id, int(user_id))]

    def scope_states(self, app_id: str, user_id: int) -> list[dict]:
        """The Scope resources of §2: the app's scopes plus any the user agreed to earlier. An app that sets its
        consent items (``consent_items``) uses those, required or optional as it sets them (a required item is not
        revocable); the others are listed only when agreed earlier, with ``using`` false, and revocable. An app without them uses
        the sandbox's catalogue with its defaults (``profile`` and ``openid`` required)."""
        rows = {r["scope"]: r for r in self.store.all(
            "SELECT * FROM consents WHERE app_id = ? AND user_id = ?", app_id, int(user_id))}
        app = self.sandbox.apps.app(app_id) or {}
        items = app.get("consent_items") or {}
        using = [sid for sid in SCOPES if sid in items] + sorted(set(items) - set(SCOPES)) if items else list(SCOPES)
        out = []
        for sid in using + sorted(set(rows) - set(using)):
            display, kind, required = SCOPES.get(sid, (sid, "PRIVACY", False))
            if items:                      # what this app requires; an item it no longer asks for it cannot
                required = items.get(sid) == "required"
            agreed = bool(rows[sid]["agreed"]) if sid in rows else False
            item = {"id": sid, "display_name": display, "type": kind, "using": sid in using, "agreed": agreed}
            if agreed:
                item["revocable"] = not required
            out.append(item)
        return out

    def revoke_scopes(self, app_id: str, user_id: int, scopes: list[str]) -> list[dict]:
        states = {s["id"]: s for s in self.scope_states(app_id, user_id)}
        matched = [s for s in scopes if s in states]
        if not matched:
            shown = ", ".join(scopes)[:200]
            raise api_error(400, -2, f"none of the scope ids matches a scope of the app or the user: {shown}")
        blocked = [s for s in matched if states[s]["agreed"] and not states[s].get("revocable")]
        if blocked:
            raise api_error(403, -3, f"not revocable: {', '.join(blocked)}")
        withdrawn = [s for s in matched if states[s]["agreed"]]
        with self.store.tx() as db:
            for s in withdrawn:
                db.execute("UPDATE consents SET agreed = 0 WHERE app_id = ? AND user_id = ? AND scope = ?",
                           (app_id, int(user_id), s))
            for row in db.execute("SELECT access_token, scopes FROM tokens WHERE app_id = ? AND user_id = ?"
                                  " AND revoked = 0", (app_id, int(user_id))).fetchall():
                kept = [s for s in json.loads(row["scopes"]) if s not in withdrawn]
                db.execute("UPDATE tokens SET scopes = ? WHERE access_token = ?", (json.dumps(kept), row["access_token"]))
        if withdrawn:
            self.event(app_id, user_id, "scope_withdraw", withdrawn)
        return self.scope_states(app_id, user_id)

    # ------------------------------------------------------------------ service terms
    def set_app_terms(self, app_id: str, terms: list[dict]) -> None:
        """The service terms an app asks for (``[{"tag", "required"}]``), replacing its earlier ones; a user's
        consent to a tag the app still asks for is kept."""
        with self.store.tx() as db:
            db.execute("DELETE FROM app_service_terms WHERE app_id = ?", (app_id,))
            for term in terms:
                db.execute("INSERT INTO app_service_terms VALUES (?, ?, ?, ?)",
                           (app_id, term["tag"], int(term["required"]), int(not term["required"])))

    def app_terms(self, app_id: str) -> list[dict]:
        return [dict(r) for r in self.store.all("SELECT * FROM app_service_terms WHERE app_id = ? ORDER BY rowid",
                                                app_id)]

    def term_states(self, app_id: str, user_id: int) -> list[dict]:
        """ServiceTerms records (§2) for every term of the app, agreed or not."""
        rows = {r["tag"]: r for r in self.store.all("SELECT * FROM term_consents WHERE app_id = ? AND user_id = ?",
                                                    app_id, int(user_id))}
        out = []
        for term in self.app_terms(app_id):
            row = rows.get(term["tag"])
            agreed = bool(row and row["agreed"])
            item = {"tag": term["tag"], "required": bool(term["required"]), "agreed": agreed,
                    "revocable": bool(agreed and term["revocable"])}
            if row and row["agreed_at"] is not None:
                item["agreed_at"] = _rfc3339(row["agreed_at"])
            if row and row["agreed_by"]:
                item["agreed_by"] = row["agreed_by"]
            out.append(item)
        return out

    def check_tags(self, app_id: str, tags: list[str]) -> None:
        known = {t["tag"] for t in self.app_terms(app_id)}
        unknown = [t for t in tags if t not in known]
        if unknown or not tags:
            raise api_error(400, -2, f"service term tags not configured for the app: {', '.join(unknown) or '(none)'}")

    def agree_terms(self, app_id: str, user_id: int, tags: list[str], by: str) -> list[dict]:
        now = self.sandbox.clock.unix()
        with self.store.tx() as db:
            for tag in tags:
                db.execute("INSERT INTO term_consents VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT(app_id, user_id, tag)"
                           " DO UPDATE SET agreed = 1, agreed_at = excluded.agreed_at, agreed_by = excluded.agreed_by",
                           (app_id, int(user_id), tag, now, by))
        states = {t["tag"]: t for t in self.term_states(app_id, user_id)}
        return [{k: states[t][k] for k in ("tag", "agreed", "agreed_at", "agreed_by") if k in states[t]} for t in tags]

    def revoke_terms(self, app_id: str, user_id: int, tags: list[str]) -> list[dict]:
        self.check_tags(app_id, tags)
        states = {t["tag"]: t for t in self.term_states(app_id, user_id)}
        agreed = [t for t in tags if states[t]["agreed"]]
        blocked = [t for t in agreed if not states[t]["revocable"]]
        if blocked:
            raise api_error(403, -3, f"service terms not revocable: {', '.join(blocked)}")
        with self.store.tx() as db:
            for tag in agreed:
                db.execute("UPDATE term_consents SET agreed = 0 WHERE app_id = ? AND user_id = ? AND tag = ?",
                           (app_id, int(user_id), tag))
        return [{"tag": t, "agreed": False} for t in agreed]

    # ------------------------------------------------------------------ account sessions and codes
    def new_session(self, user_id: int, stay: bool) -> dict:
        now = self.sandbox.clock.unix()
        sid = secrets.token_urlsafe(24)
        life = SESSION_STAY_SECONDS if stay else SESSION_SECONDS
        self.store.execute("INSERT INTO account_sessions VALUES (?, ?, ?, ?, ?)", sid, int(user_id), now, now + life,
                           int(stay))
        return {"sid": sid, "user_id": int(user_id), "auth_time": now, "expires_at": now + life, "stay": stay}

    def session(self, sid: str) -> dict | None:
        row = self.store.one("SELECT * FROM account_sessions WHERE sid = ?", sid)
        if row is None or row["expires_at"] <= self.sandbox.clock.unix():
            return None
        return dict(row)

    def end_session(self, sid: str) -> None:
        self.store.execute("DELETE FROM account_sessions WHERE sid = ?", sid)

    def login_user(self, email: str, password: str) -> dict | None:
        row = self.store.one("SELECT id, password, disabled FROM users WHERE lower(email) = lower(?)", email.strip())
        if row is None or row["disabled"] or not secrets.compare_digest(row["password"], password):
            return None
        return self.sandbox.apps.user(row["id"])

    def issue_code(self, app_id: str, client_id: str, user_id: int, redirect_uri: str, nonce: str | None,
                   code_challenge: str | None, auth_time: int) -> str:
        code = secrets.token_urlsafe(32)
        self.store.execute("INSERT INTO auth_codes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)", code, app_id, client_id,
                           int(user_id), redirect_uri, json.dumps(self.agreed_scopes(app_id, user_id)), nonce,
                           code_challenge, auth_time, self.sandbox.clock.unix() + CODE_SECONDS)
        return code

    def redeem_code(self, code: str) -> dict | None:
        """The code row, marked used (None when unknown, used or expired)."""
        with self.store.tx() as db:
            row = db.execute("SELECT * FROM auth_codes WHERE code = ?", (code,)).fetchone()
            if row is None or row["used"] or row["expires_at"] <= self.sandbox.clock.unix():
                return None
            db.execute("UPDATE auth_codes SET used = 1 WHERE code = ?", (code,))
        return dict(row)

    def check_rate(self, app_id: str, user_id: int) -> bool:
        """Count one token issuance; False when the user's limit for the window is used up."""
        cfg = self.settings(app_id)
        now = self.sandbox.clock.unix()
        with self._rate_lock, self.store.tx() as db:
            db.execute("DELETE FROM token_issues WHERE at <= ?", (now - int(cfg["token_rate_window"]),))
            used = db.execute("SELECT COUNT(*) AS n FROM token_issues WHERE app_id = ? AND user_id = ?",
                              (app_id, int(user_id))).fetchone()["n"]
            if used >= int(cfg["token_rate_limit"]):
                return False
            db.execute("INSERT INTO token_issues VALUES (?, ?, ?)", (app_id, int(user_id), now))
        return True

    # ------------------------------------------------------------------ tokens
    def issue_tokens(self, app_id: str, user_id: int, scopes: list[str] | None = None, *,
                     auth_time: int | None = None, client_id: str | None = None, nonce: str | None = None) -> dict:
        """New access and refresh tokens for a linked user (the token endpoint's body); ``id_token`` is added
        when ``openid`` is among the scopes."""
        now = self.sandbox.clock.unix()
        scopes = sorted(set(scopes if scopes is not None else self.agreed_scopes(app_id, user_id)))
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        client_id = client_id or self.sandbox.apps.app(app_id)["keys"]["rest_api"]
        auth_time = auth_time if auth_time is not None else now
        self.store.execute("INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)", access, refresh, app_id,
                           int(user_id), json.dumps(scopes), now, now + ACCESS_TOKEN_SECONDS,
                           now + REFRESH_TOKEN_SECONDS, auth_time, client_id)
        body = {"token_type": "bearer", "access_token": access, "expires_in": ACCESS_TOKEN_SECONDS,
                "refresh_token": refresh, "refresh_token_expires_in": REFRESH_TOKEN_SECONDS,
                "scope": " ".join(scopes)}
        if "openid" in scopes:
            body["id_token"] = self.id_token(user_id, client_id, scopes, auth_time, nonce, now + ACCESS_TOKEN_SECONDS)
        return body

    def refresh(self, app_id: str, refresh_token: str) -> dict | None:
        """The refresh grant: a new access token (and ID token); a new refresh token only when < 30 days remain."""
        now = self.sandbox.clock.unix()
        row = self.store.one("SELECT * FROM tokens WHERE refresh_token = ? AND app_id = ? AND revoked = 0"
                             " ORDER BY issued_at DESC LIMIT 1", refresh_token, app_id)
        if row is None or row["refresh_expires_at"] <= now or \
                self.link_state(app_id, row["user_id"]) not in ("linked", "pending"):
            return None
        access = secrets.token_urlsafe(32)
        new_refresh, refresh_expires = row["refresh_token"], row["refresh_expires_at"]
        rotated = refresh_expires - now < REFRESH_ROTATE_BELOW
        if rotated:
            new_refresh, refresh_expires = secrets.token_urlsafe(32), now + REFRESH_TOKEN_SECONDS
        self.store.execute("UPDATE tokens SET access_token = ?, refresh_token = ?, issued_at = ?, expires_at = ?,"
                           " refresh_expires_at = ? WHERE access_token = ?", access, new_refresh, now,
                           now + ACCESS_TOKEN_SECONDS, refresh_expires, row["access_token"])
        scopes = json.loads(row["scopes"])
        body = {"token_type": "bearer", "access_token": access, "expires_in": ACCESS_TOKEN_SECONDS,
                "scope": " ".join(scopes)}
        if "openid" in scopes:
            body["id_token"] = self.id_token(row["user_id"], row["client_id"], scopes, row["auth_time"] or now, None,
                                             now + ACCESS_TOKEN_SECONDS)
        if rotated:
            body.update(refresh_token=new_refresh, refresh_token_expires_in=REFRESH_TOKEN_SECONDS)
        return body

    def id_token(self, user_id: int, client_id: str, scopes, auth_time: int, nonce: str | None, exp: int) -> str:
        user = self.sandbox.apps.user(user_id)
        now = self.sandbox.clock.unix()
        claims = {"iss": self.sandbox.hosts()["auth"], "aud": client_id, "sub": str(user_id), "iat": now,
                  "exp": exp, "auth_time": int(auth_time)}
        if nonce:
            claims["nonce"] = nonce
        if {"profile", "profile_nickname"} & set(scopes):
            claims["nickname"] = user["nickname"]
        if {"profile", "profile_image"} & set(scopes) and user.get("thumbnail_image_url"):
            claims["picture"] = user["thumbnail_image_url"]
        if "account_email" in scopes and user.get("email"):
            claims["email"] = user["email"]
        return self.keys.sign(claims)

    def token(self, access_token: str) -> dict | None:
        """The live token row (None when unknown, expired or revoked)."""
        row = self.store.one("SELECT * FROM tokens WHERE access_token = ?", access_token)
        if row is None or row["revoked"] or row["expires_at"] <= self.sandbox.clock.unix():
            return None
        token = dict(row)
        token["scopes"] = json.loads(token["scopes"])
        return token

    def revoke_user_tokens(self, app_id: str, user_id: int) -> int:
        cur = self.store.execute("UPDATE tokens SET revoked = 1 WHERE app_id = ? AND user_id = ? AND revoked = 0",
                                 app_id, int(user_id))
        return cur.rowcount

    # ------------------------------------------------------------------ shipping addresses
    def shipping_addresses(self, user_id: int, address_id: int | None, from_updated_at: int, page_size: int):
        """Default first (first page only), then newest first; ``from_updated_at`` pages on ``updated_at``."""
        if address_id is not None:
            rows = self.store.all("SELECT body FROM shipping_addresses WHERE user_id = ? AND id = ?", int(user_id),
                                  int(address_id))
            return [json.loads(r["body"]) for r in rows]
        if from_updated_at:
            rows = self.store.all("SELECT body FROM shipping_addresses WHERE user_id = ? AND is_default = 0 AND"
                                  " updated_at < ? ORDER BY updated_at DESC, id DESC LIMIT ?", int(user_id),
                                  int(from_updated_at), page_size)
        else:
            rows = self.store.all("SELECT body FROM shipping_addresses WHERE user_id = ?"
                                  " ORDER BY is_default DESC, updated_at DESC, id DESC LIMIT ?", int(user_id), page_size)
        return [json.loads(r["body"]) for r in rows]

    # ------------------------------------------------------------------ user properties
    def properties(self, app_id: str, user_id: int) -> dict:
        row = self.store.one("SELECT properties FROM user_properties WHERE app_id = ? AND user_id = ?", app_id,
                             int(user_id))
        return json.loads(row["properties"]) if row else {}

    def update_properties(self, app_id: str, user_id: int, changes: dict) -> None:
        merged = {**self.properties(app_id, user_id), **changes}
        merged = {k: v for k, v in merged.items() if v is not None}
        self.store.execute("INSERT INTO user_properties VALUES (?, ?, ?) ON CONFLICT(app_id, user_id) DO UPDATE SET"
                           " properties = excluded.properties", app_id, int(user_id),
                           json.dumps(merged, ensure_ascii=False))

    # ------------------------------------------------------------------ request authentication
    def bearer(self, request, *, allow_pending: bool = False) -> tuple[dict, dict]:
        """(user, token) for ``Authorization: Bearer <token>``; HTTP 401 code -401 otherwise."""
        self.sweep_pending()
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        token = self.token(value.strip()) if scheme.lower() == "bearer" and value.strip() else None
        state = self.link_state(token["app_id"], token["user_id"]) if token is not None else None
        if token is None or state not in ("linked", "pending"):
            raise api_error(401, -401, "this access token does not exist or has expired",
                            {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        if state == "pending" and not allow_pending:
            raise api_error(400, -101, "the user has not completed signup to the app (pending link)")
        return self.sandbox.apps.user(token["user_id"]), token

    def acting_user(self, request, fields: dict, *, allow_pending: bool = False) -> tuple[dict, str, dict | None]:
        """The 'token or admin key' mode: (user, app_id, token or None for the admin mode).

        Admin mode: ``ServiceAK <admin key>`` with ``target_id_type=user_id`` and ``target_id``; a user not
        linked to the app answers HTTP 400 code -101.
        """
        header = request.headers.get("authorization", "")
        if app_key_of(header) is not None:
            found = self.sandbox.apps.find_key(app_key_of(header))
            if found is None or found[1] != "admin":
                raise api_error(401, -401, "invalid admin key", {"WWW-Authenticate": "ServiceAK"})
            app = found[0]
            if fields.get("target_id_type") != "user_id":
                raise api_error(400, -2, "target_id_type must be user_id in the admin-key mode")
            try:
                target = int(fields.get("target_id", ""))
            except ValueError:
                raise api_error(400, -2, "target_id must be a service user id (Long)") from None
            if not -(2 ** 63) <= target < 2 ** 63:
                raise api_error(400, -2, "target_id must be a service user id (Long)")
            user = self.sandbox.apps.user(target)
            ok = ("linked", "pending") if allow_pending else ("linked",)
            if user is None or self.link_state(app["app_id"], target) not in ok:
                raise api_error(400, -101, "the user is not linked to the app")
            return user, app["app_id"], None
        user, token = self.bearer(request, allow_pending=allow_pending)
        return user, token["app_id"], token


def _rfc3339(unix: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(int(unix), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
