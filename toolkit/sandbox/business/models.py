"""Business authorization state (identity §2 Business token information, §3 Business token, §4.16–4.20):
the business consent catalogue, the demo users' business assets, business codes, business tokens and the log
of business-token state transitions.

Choices of the sandbox where the spec is silent:

* Consent catalogue (the spec names only ``biz_account_email``, ``keyword_create``, ``moment_create`` and the
  sample groups ``personal`` and ``keyword``): group ``personal`` — ``biz_account_email``; group ``keyword``
  (keyword-ad accounts) — ``keyword_create``, ``keyword_manage``, ``keyword_report``; group ``moment``
  (display-ad accounts) — ``moment_create``, ``moment_manage``, ``moment_report``; group ``channel``
  (messenger channels) — ``channel_manage``, ``channel_message``. Every business consent item is required on
  the screen (the real platform supports only the required-consent stage for business consent): the user
  agrees to all requested items or cancels.
* Assets: each demo user holds 1–3 keyword ad accounts, 1–3 moment ad accounts (numeric strings, 6 digits)
  and 1–2 channels (public ids ``_`` + 6 letters), drawn from the seed, so the same seed gives the same assets.
  Groups ``keyword`` and ``moment`` grant ``ad_account_ids``, ``channel`` grants ``channel_public_ids``,
  ``personal`` grants no assets.
* ``ScopeGroup:*`` is kept as ``["*"]`` in ``biz_agreements`` (the spec's field text: ``*`` means all assets of
  the group, including ones the user gets later); the consent screen shows the expansion (every asset of the
  group the user holds, fixed). Without ``resource_ids`` the screen lists the user's assets of each requested
  asset group as check boxes (ticked by default) and the agreement lists the ids the user kept (possibly none).
* ``token_user_id`` is the service user id as a string (it is the ``sub`` of the Business Token SETs).
* Business codes: 10 minutes, single use, bound to ``client_id`` and ``redirect_uri``. Business tokens carry no
  expiry (the token response has no ``expires_in``): they stay ``active`` until revoked; unlinking the user
  from the app does not revoke them. ``status`` is written ``ACTIVE`` (the spec's sample; the field text
  says ``active``, clients should compare case-insensitively).
* Transitions are recorded in ``biz_token_events(seq, token_id, app_id, user_id, kind, at)`` with ``kind``
  ``issued`` or ``revoked`` and passed to :meth:`Model._on_token_change` — the hook for the webhook engine.
"""
from __future__ import annotations

import json
import secrets
import string

SCHEMA = """
CREATE TABLE IF NOT EXISTS biz_assets (
    user_id INTEGER NOT NULL, grp TEXT NOT NULL, resource_id TEXT NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (user_id, grp, resource_id)
);
CREATE TABLE IF NOT EXISTS biz_codes (
    code TEXT PRIMARY KEY, app_id TEXT NOT NULL, client_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    redirect_uri TEXT NOT NULL, scopes TEXT NOT NULL, agreements TEXT NOT NULL, expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS biz_tokens (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, access_token TEXT UNIQUE NOT NULL, app_id TEXT NOT NULL,
    client_id TEXT NOT NULL, user_id INTEGER NOT NULL, token_user_id TEXT NOT NULL, scopes TEXT NOT NULL,
    agreements TEXT NOT NULL, status TEXT NOT NULL, issued_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS biz_token_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, token_id TEXT NOT NULL, app_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    kind TEXT NOT NULL, at INTEGER NOT NULL
);
"""

CODE_SECONDS = 600
TOKEN_ID_BASE = 7000000
STATUS_ACTIVE = "ACTIVE"
RETIRE_USERINFO_AT = "2026-12-01T00:00:00Z"  # the endpoint ends on 2026-11-30 (UTC)

# consent id → (group, display name)
BIZ_SCOPES: dict[str, tuple[str, str]] = {
    "biz_account_email": ("personal", "Business account e-mail"),
    "keyword_create": ("keyword", "Create keyword-ad accounts"),
    "keyword_manage": ("keyword", "Manage keyword ads"),
    "keyword_report": ("keyword", "Keyword-ad reports"),
    "moment_create": ("moment", "Create display-ad accounts"),
    "moment_manage": ("moment", "Manage display ads"),
    "moment_report": ("moment", "Display-ad reports"),
    "channel_manage": ("channel", "Manage messenger channels"),
    "channel_message": ("channel", "Send channel messages"),
}
# group → the BizAgreement field its assets go to (None: the group grants no assets)
GROUP_FIELD: dict[str, str | None] = {"personal": None, "keyword": "ad_account_ids", "moment": "ad_account_ids",
                                      "channel": "channel_public_ids"}
CREATE_SCOPES = {"keyword_create": "keyword", "moment_create": "moment"}
GROUP_ORDER = list(GROUP_FIELD)


def group_of(scope: str) -> str:
    return BIZ_SCOPES[scope][0]


def build_agreements(scopes: list[str], grants: dict[str, list[str]]) -> list[dict]:
    """BizAgreement objects: one per group of ``scopes``; ``grants`` maps asset groups to granted ids."""
    out = []
    for grp in GROUP_ORDER:
        ids = [s for s in scopes if group_of(s) == grp]
        if not ids:
            continue
        item: dict = {"group": grp, "scope": ids}
        field = GROUP_FIELD[grp]
        if field is not None:
            item[field] = list(grants.get(grp, []))
        out.append(item)
    return out


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store

    # ------------------------------------------------------------------ seeding
    def seed(self, rng) -> None:
        users = self.store.all("SELECT id FROM users ORDER BY id")
        with self.store.tx() as db:
            for row in users:
                uid = row["id"]
                for grp, lo, hi in (("keyword", 1, 3), ("moment", 1, 3)):
                    ids = sorted({str(rng.randint(100000, 999999)) for _ in range(rng.randint(lo, hi))})
                    for n, rid in enumerate(ids, 1):
                        db.execute("INSERT INTO biz_assets VALUES (?, ?, ?, ?)",
                                   (uid, grp, rid, f"{grp.title()} ad account {n}"))
                for n in range(1, rng.randint(1, 2) + 1):
                    pid = "_" + "".join(rng.choice(string.ascii_letters) for _ in range(6))
                    db.execute("INSERT OR IGNORE INTO biz_assets VALUES (?, ?, ?, ?)",
                               (uid, "channel", pid, f"Channel {n}"))

    def assets(self, user_id: int, grp: str | None = None) -> list[dict]:
        rows = self.store.all("SELECT grp, resource_id, name FROM biz_assets WHERE user_id = ?"
                              + (" AND grp = ?" if grp else "") + " ORDER BY grp, resource_id",
                              int(user_id), *([grp] if grp else []))
        return [{"group": r["grp"], "resource_id": r["resource_id"], "name": r["name"]} for r in rows]

    # ------------------------------------------------------------------ codes
    def issue_code(self, app_id: str, client_id: str, user_id: int, redirect_uri: str, scopes: list[str],
                   agreements: list[dict]) -> str:
        code = secrets.token_urlsafe(32)
        self.store.execute("INSERT INTO biz_codes VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)", code, app_id, client_id,
                           int(user_id), redirect_uri, json.dumps(scopes), json.dumps(agreements),
                           self.sandbox.clock.unix() + CODE_SECONDS)
        return code

    def redeem_code(self, code: str) -> dict | None:
        """The code row, marked used (None when unknown, used or expired)."""
        with self.store.tx() as db:
            row = db.execute("SELECT * FROM biz_codes WHERE code = ?", (code,)).fetchone()
            if row is None or row["used"] or row["expires_at"] <= self.sandbox.clock.unix():
                return None
            db.execute("UPDATE biz_codes SET used = 1 WHERE code = ?", (code,))
        out = dict(row)
        out["scopes"], out["agreements"] = json.loads(out["scopes"]), json.loads(out["agreements"])
        return out

    # ------------------------------------------------------------------ tokens
    def issue_token(self, code_row: dict) -> dict:
        now = self.sandbox.clock.unix()
        access = secrets.token_urlsafe(40)
        with self.store.tx() as db:
            cur = db.execute(
                "INSERT INTO biz_tokens (access_token, app_id, client_id, user_id, token_user_id, scopes, agreements,"
                " status, issued_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (access, code_row["app_id"], code_row["client_id"], code_row["user_id"], str(code_row["user_id"]),
                 json.dumps(code_row["scopes"]), json.dumps(code_row["agreements"]), STATUS_ACTIVE, now, now))
            seq = cur.lastrowid
        row = self._row(self.store.one("SELECT * FROM biz_tokens WHERE seq = ?", seq))
        self._transition("issued", row)
        return row

    def _row(self, row) -> dict:
        out = dict(row)
        out["id"] = str(TOKEN_ID_BASE + out["seq"])
        out["scopes"], out["agreements"] = json.loads(out["scopes"]), json.loads(out["agreements"])
        return out

    def token(self, access_token: str) -> dict | None:
        """The active token row (None when unknown or revoked)."""
        row = self.store.one("SELECT * FROM biz_tokens WHERE access_token = ?", access_token)
        if row is None or row["status"] != STATUS_ACTIVE:
            return None
        return self._row(row)

    def revoke(self, token: dict) -> dict:
        now = self.sandbox.clock.unix()
        self.store.execute("UPDATE biz_tokens SET status = 'REVOKED', updated_at = ? WHERE seq = ?", now, token["seq"])
        row = self._row(self.store.one("SELECT * FROM biz_tokens WHERE seq = ?", token["seq"]))
        self._transition("revoked", row)
        return row

    # ------------------------------------------------------------------ state transitions
    def _transition(self, kind: str, row: dict) -> None:
        self.store.execute("INSERT INTO biz_token_events (token_id, app_id, user_id, kind, at) VALUES (?, ?, ?, ?, ?)",
                           row["id"], row["app_id"], row["user_id"], kind, self.sandbox.clock.unix())
        self._on_token_change(kind, row)

    def _on_token_change(self, kind: str, row: dict) -> None:
        """Hook called after every business-token transition (``kind``: ``issued`` or ``revoked``).

        ``row``: ``id`` (token id), ``access_token``, ``app_id``, ``user_id``, ``token_user_id``, ``scopes``,
        ``agreements``, ``status``, ``issued_at``, ``updated_at``. Sends the Business Token Issued/Revoked
        SET through the webhook engine.
        """
        self.sandbox.model("events").business_token(row["app_id"], row["user_id"], kind, token=row["access_token"],
                                                    token_id=row["id"], token_user_id=row["token_user_id"])

    def events(self, since: int = 0) -> list[dict]:
        return [dict(r) for r in self.store.all("SELECT * FROM biz_token_events WHERE seq > ? ORDER BY seq", since)]
