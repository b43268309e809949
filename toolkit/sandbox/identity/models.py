"""Identity state: links between users and apps, scope consent, and access/refresh tokens.

This is the core other areas authenticate with: :meth:`Model.bearer` turns an ``Authorization: Bearer``
header into the acting user (HTTP 401 ``{code: -401}`` with ``WWW-Authenticate`` otherwise), and
:meth:`Model.acting_user` implements the 'token or admin key' mode (identity.md §1 conventions).

Lifetimes chosen by the sandbox (the spec leaves them open): access token 6 hours, refresh token 60 days.
"""
from __future__ import annotations

import json
import secrets

from ..web import api_error

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
    refresh_expires_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tokens_refresh ON tokens(refresh_token);
"""

ACCESS_TOKEN_SECONDS = 6 * 3600
REFRESH_TOKEN_SECONDS = 60 * 86400


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store

    # ------------------------------------------------------------------ links and consent
    def link(self, app_id: str, user_id: int, state: str = "linked") -> None:
        now = self.sandbox.clock.unix()
        self.store.execute("INSERT INTO links VALUES (?, ?, ?, ?) ON CONFLICT(app_id, user_id) DO UPDATE SET"
                           " state = excluded.state", app_id, int(user_id), state, now)

    def link_state(self, app_id: str, user_id: int) -> str | None:
        row = self.store.one("SELECT state FROM links WHERE app_id = ? AND user_id = ?", app_id, int(user_id))
        return row["state"] if row else None

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
        return changed

    def agreed_scopes(self, app_id: str, user_id: int) -> list[str]:
        return [r["scope"] for r in self.store.all(
            "SELECT scope FROM consents WHERE app_id = ? AND user_id = ? AND agreed = 1 ORDER BY scope",
            app_id, int(user_id))]

    # ------------------------------------------------------------------ tokens
    def issue_tokens(self, app_id: str, user_id: int, scopes: list[str] | None = None) -> dict:
        """New access and refresh tokens for a linked user (the token endpoint's body, without id_token)."""
        now = self.sandbox.clock.unix()
        scopes = sorted(set(scopes if scopes is not None else self.agreed_scopes(app_id, user_id)))
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        self.store.execute("INSERT INTO tokens VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)", access, refresh, app_id,
                           int(user_id), json.dumps(scopes), now, now + ACCESS_TOKEN_SECONDS,
                           now + REFRESH_TOKEN_SECONDS)
        return {"token_type": "bearer", "access_token": access, "expires_in": ACCESS_TOKEN_SECONDS,
                "refresh_token": refresh, "refresh_token_expires_in": REFRESH_TOKEN_SECONDS,
                "scope": " ".join(scopes)}

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

    # ------------------------------------------------------------------ request authentication
    def bearer(self, request) -> tuple[dict, dict]:
        """(user, token) for ``Authorization: Bearer <token>``; HTTP 401 code -401 otherwise."""
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        token = self.token(value.strip()) if scheme.lower() == "bearer" and value.strip() else None
        if token is None or self.link_state(token["app_id"], token["user_id"]) != "linked":
            raise api_error(401, -401, "this access token does not exist or has expired",
                            {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return self.sandbox.apps.user(token["user_id"]), token

    def acting_user(self, request, fields: dict) -> tuple[dict, str, dict | None]:
        """The 'token or admin key' mode: (user, app_id, token or None for the admin mode).

        Admin mode: ``ServiceAK <admin key>`` with ``target_id_type=user_id`` and ``target_id``; a user not
        linked to the app answers HTTP 400 code -101.
        """
        header = request.headers.get("authorization", "")
        if header.startswith("ServiceAK "):
            found = self.sandbox.apps.find_key(header[len("ServiceAK "):].strip())
            if found is None or found[1] != "admin":
                raise api_error(401, -401, "invalid admin key", {"WWW-Authenticate": "ServiceAK"})
            app = found[0]
            if fields.get("target_id_type") != "user_id":
                raise api_error(400, -2, "target_id_type must be user_id in the admin-key mode")
            try:
                target = int(fields.get("target_id", ""))
            except ValueError:
                raise api_error(400, -2, "target_id must be a service user id (Long)") from None
            user = self.sandbox.apps.user(target)
            if user is None or self.link_state(app["app_id"], target) != "linked":
                raise api_error(400, -101, "the user is not linked to the app")
            return user, app["app_id"], None
        user, token = self.bearer(request)
        return user, token["app_id"], token
