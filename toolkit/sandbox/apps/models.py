"""Apps, their keys, demo users and API quotas: the core state every area builds on.

The demo app (``app_id`` 100001) has the four key kinds of the spec — native app key, REST API key,
JavaScript key, admin key (the primary admin key) — plus a client secret, redirect URIs and webhook URLs.
Keys are derived from the sandbox seed, so a sandbox with the same seed has the same keys.

Demo users are fictional (``toolkit/data/users/demo_users.json``).

Several apps: the control API ``POST /sandbox/apps`` creates another app (``app_id`` 100002, 100003, ...) with
the same four key kinds, a client secret, the demo app's redirect URIs, and optionally its channels; users
consent to it with ``POST /sandbox/login {"app_id": ...}``. Every resource belongs to one app: links, consents
and tokens (identity), business tokens, channels and their customer files, webhook settings and deliveries,
quotas. Another app's key is an unknown key for a resource (HTTP 401 ``-401`` for a key of the wrong kind or
unknown; a channel of another app answers ``-2`` "not linked to the app"; a user not linked to the calling app
answers ``-101``), as the platform scopes everything by the app of the key.

Quotas: the real platform's quotas are per app and per day; the sandbox counts calls per app, API id and
sandbox day (UTC) and answers HTTP 400 ``{"code": -10, "msg": "API limit has been exceeded."}`` past the limit.
Limits are unset (unlimited) until set through the control API.

Every request checks an app key and most charge a quota, so both are answered from memory: the keys and the
apps they open are read once and read again after any change of an app (this model's writes, and
:meth:`Model.changed` for the other areas' writes; a store in a file shared with other processes is also read
again when another process wrote it: SQLite's ``data_version``). The limits are kept in memory beside the
table; the day's counts of an in-memory store are counted in memory and written to ``quota_use`` every
:data:`FLUSH_EVERY` calls and whenever they are read (:meth:`Model.usage`); a store in a file counts in SQL, in
one transaction per call, so that processes sharing the file share the count. The counts of days more than
:data:`QUOTA_DAYS_KEPT` days before the clock's day are deleted when the day changes (a sandbox runs for days:
the table grew by a row per app, API and day, for ever); no quota reads a past day.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from typing import Any

from ..web import api_error

SCHEMA = """
CREATE TABLE IF NOT EXISTS apps (
    app_id TEXT PRIMARY KEY, name TEXT NOT NULL, client_secret TEXT NOT NULL,
    client_secret_required INTEGER NOT NULL DEFAULT 1, auto_link INTEGER NOT NULL DEFAULT 1,
    redirect_uris TEXT NOT NULL, logout_redirect_uris TEXT NOT NULL, web_domains TEXT NOT NULL,
    webhooks TEXT NOT NULL DEFAULT '{}', consent_items TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS app_keys (
    key TEXT PRIMARY KEY, app_id TEXT NOT NULL REFERENCES apps(app_id), kind TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL, password TEXT NOT NULL, nickname TEXT NOT NULL,
    name TEXT, gender TEXT, birthyear TEXT, birthday TEXT, birthday_type TEXT, phone_number TEXT,
    profile_image_url TEXT, thumbnail_image_url TEXT, is_talk_user INTEGER NOT NULL DEFAULT 1,
    is_story_user INTEGER NOT NULL DEFAULT 1, disabled INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
    attrs TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS quotas (app_id TEXT NOT NULL, api TEXT NOT NULL, daily_limit INTEGER NOT NULL,
    PRIMARY KEY (app_id, api));
CREATE TABLE IF NOT EXISTS quota_use (app_id TEXT NOT NULL, api TEXT NOT NULL, day TEXT NOT NULL,
    used INTEGER NOT NULL, PRIMARY KEY (app_id, api, day));
"""

DEMO_APP_ID = "100001"
FLUSH_EVERY = 256
QUOTA_DAYS_KEPT = 31     # days of quota counts kept before the clock's day (older rows are deleted)
KEY_KINDS = ("native_app", "rest_api", "javascript", "admin")


def _derive(seed: int, label: str) -> str:
    return hashlib.sha256(f"toolkit-sandbox:{seed}:{label}".encode()).hexdigest()[:32]


def _user_of(row: sqlite3.Row) -> dict:
    """A user as :meth:`Model.user` returns it: the row's columns plus the attributes stored in ``attrs``."""
    user = dict(row)
    user.update(json.loads(user.pop("attrs")))
    return user


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self._shared = self.store.path != ":memory:"   # other processes may write the file
        self._lock = threading.Lock()
        self._keys: dict[str, tuple[str, str]] | None = None   # key -> (app_id, kind)
        self._apps: dict[str, dict] = {}                        # app_id -> app, as app() reads it
        self._seen: tuple | None = None                         # (base_url, data_version) the cache was read at
        self._limits: dict[tuple[str, str], int] | None = None  # (app_id, api) -> daily limit
        self._used: dict[tuple[str, str, str], int] = {}        # (app_id, api, day) -> calls (in-memory store)
        self._unflushed = 0
        self._day: str | None = None                            # the day old counts were last deleted for

    # ------------------------------------------------------------------ the in-memory view
    def changed(self) -> None:
        """Forget what was read of apps, keys and limits (call after writing the ``apps`` table)."""
        with self._lock:
            self._keys, self._apps, self._limits = None, {}, None

    def _fresh(self) -> None:
        seen = (self.sandbox.base_url, self.store.one("PRAGMA data_version")[0] if self._shared else 0)
        if seen != self._seen:
            self.changed()
            self._seen = seen

    # ------------------------------------------------------------------ seeding
    def seed(self, rng) -> None:
        seed = self.sandbox.seed
        with self.store.tx() as db:
            db.execute(
                "INSERT INTO apps (app_id, name, client_secret, redirect_uris, logout_redirect_uris, web_domains)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (DEMO_APP_ID, "Sandbox Demo App", _derive(seed, "client_secret"),
                 json.dumps(["http://localhost:8765/callback", "{sandbox}/sandbox/callback"]),
                 json.dumps(["http://localhost:8765/logout", "{sandbox}/sandbox/logged-out"]),
                 json.dumps(["http://localhost:8765", "{sandbox}"])))
            for kind in KEY_KINDS:
                db.execute("INSERT INTO app_keys (key, app_id, kind) VALUES (?, ?, ?)",
                           (_derive(seed, kind), DEMO_APP_ID, kind))
            users = json.loads((self.sandbox.datasets / "users" / "demo_users.json").read_text("utf-8"))
            now = self.sandbox.clock.unix()
            for u in users:
                extra = {k: v for k, v in u.items() if k not in _USER_COLUMNS}
                db.execute(
                    "INSERT INTO users (id, email, password, nickname, name, gender, birthyear, birthday,"
                    " birthday_type, phone_number, profile_image_url, thumbnail_image_url, is_talk_user,"
                    " is_story_user, created_at, attrs) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (u["id"], u["email"], u["password"], u["nickname"], u.get("name"), u.get("gender"),
                     u.get("birthyear"), u.get("birthday"), u.get("birthday_type", "SOLAR"), u.get("phone_number"),
                     u.get("profile_image_url"), u.get("thumbnail_image_url"), int(u.get("is_talk_user", True)),
                     int(u.get("is_story_user", True)), now - 86400 * 400, json.dumps(extra, ensure_ascii=False)))

    # ------------------------------------------------------------------ apps and keys
    def create_app(self, name: str, settings: dict | None = None) -> dict:
        """A new app with keys derived from the sandbox seed and its id (deterministic); its public config.
        ``settings`` (checked by :func:`check_settings`) replaces the demo app's redirect URIs, logout redirect
        URIs, web domains, client-secret setting and consent items."""
        row = self.store.one("SELECT MAX(CAST(app_id AS INTEGER)) AS n FROM apps")
        app_id = str(int(row["n"] or int(DEMO_APP_ID) - 1) + 1)
        seed = self.sandbox.seed
        demo = self.store.one("SELECT * FROM apps WHERE app_id = ?", DEMO_APP_ID)
        with self.store.tx() as db:
            db.execute("INSERT INTO apps (app_id, name, client_secret, redirect_uris, logout_redirect_uris,"
                       " web_domains) VALUES (?, ?, ?, ?, ?, ?)",
                       (app_id, name, _derive(seed, f"{app_id}:client_secret"), demo["redirect_uris"],
                        demo["logout_redirect_uris"], demo["web_domains"]))
            for kind in KEY_KINDS:
                db.execute("INSERT INTO app_keys (key, app_id, kind) VALUES (?, ?, ?)",
                           (_derive(seed, f"{app_id}:{kind}"), app_id, kind))
            self._write_settings(db, app_id, settings or {})
        self.changed()
        return self.public_config(app_id)

    def update_app(self, app_id: str, settings: dict) -> dict:
        """Change an app's settings (checked by :func:`check_settings`; absent ones are kept); its config."""
        with self.store.tx() as db:
            self._write_settings(db, app_id, settings)
        self.changed()
        return self.public_config(app_id)

    @staticmethod
    def _write_settings(db, app_id: str, settings: dict) -> None:
        for column in ("name", "redirect_uris", "logout_redirect_uris", "web_domains", "consent_items",
                       "client_secret_required"):
            if column in settings:
                value = settings[column]
                value = int(value) if isinstance(value, bool) else value if isinstance(value, str) else json.dumps(value)
                db.execute(f"UPDATE apps SET {column} = ? WHERE app_id = ?", (value, app_id))

    def app_ids(self) -> list[str]:
        return [r["app_id"] for r in self.store.all("SELECT app_id FROM apps ORDER BY CAST(app_id AS INTEGER)")]

    def _expand(self, value: str) -> str:
        return value.replace("{sandbox}", self.sandbox.base_url or "http://127.0.0.1")

    def app(self, app_id: str = DEMO_APP_ID) -> dict | None:
        row = self.store.one("SELECT * FROM apps WHERE app_id = ?", app_id)
        if row is None:
            return None
        app = dict(row)
        for col in ("redirect_uris", "logout_redirect_uris", "web_domains"):
            app[col] = [self._expand(v) for v in json.loads(app[col])]
        app["webhooks"] = json.loads(app["webhooks"])
        app["consent_items"] = json.loads(app.get("consent_items") or "{}")
        app["keys"] = {r["kind"]: r["key"] for r in self.store.all("SELECT * FROM app_keys WHERE app_id = ?", app_id)}
        return app

    def app_id_of(self, body: dict) -> str:
        """The ``app_id`` of a control-API body (the demo app when absent); HTTP 400 ``{code: -2}`` for an
        app that does not exist (checked before anything changes)."""
        app_id = body.get("app_id")
        if app_id is None:
            return DEMO_APP_ID
        if isinstance(app_id, bool) or not isinstance(app_id, (str, int)) or self.app(str(app_id)) is None:
            raise api_error(400, -2, "app_id must be the id of an app of the sandbox")
        return str(app_id)

    def find_key(self, key: str) -> tuple[dict, str] | None:
        """(the app, the key's kind) of an app key, or None; the app is shared: read it, do not change it."""
        self._fresh()
        keys = self._keys
        if keys is None:
            keys = {r["key"]: (r["app_id"], r["kind"]) for r in self.store.all("SELECT key, app_id, kind FROM app_keys")}
            self._keys = keys
        found = keys.get(key)
        if found is None:
            return None
        app_id, kind = found
        app = self._apps.get(app_id)
        if app is None:
            app = self.app(app_id)
            assert app is not None                  # a key belongs to an app (app_keys references apps)
            self._apps[app_id] = app
        return app, kind

    def public_config(self, app_id: str = DEMO_APP_ID) -> dict:
        """The demo app as ``toolkit sandbox --print-config`` shows it."""
        app = self.app(app_id)
        assert app is not None                      # callers pass the id of an app of the sandbox
        keys = app["keys"]
        return {
            "app_id": app["app_id"], "name": app["name"], "rest_api_key": keys["rest_api"],
            "admin_key": keys["admin"], "native_app_key": keys["native_app"], "javascript_key": keys["javascript"],
            "client_secret": app["client_secret"], "client_secret_required": bool(app["client_secret_required"]),
            "redirect_uris": app["redirect_uris"], "logout_redirect_uris": app["logout_redirect_uris"],
            "web_domains": app["web_domains"], "webhooks": app["webhooks"],
            "consent_items": app["consent_items"],
        }

    def set_webhooks(self, app_id: str, **urls) -> dict:
        """Set (text) or clear (null, "") webhook URLs by kind; HTTP 400 ``{code: -2}`` for anything else."""
        for kind, url in urls.items():
            if url is not None and not isinstance(url, str):
                raise api_error(400, -2, f"the webhook URL of {kind[:40]} must be text or null")
        app = self.app(app_id)
        assert app is not None                      # callers pass the id of an app of the sandbox (app_id_of)
        hooks = {**app["webhooks"], **{k: v for k, v in urls.items()}}
        hooks = {k: v for k, v in hooks.items() if v}
        self.store.execute("UPDATE apps SET webhooks = ? WHERE app_id = ?", json.dumps(hooks), app_id)
        self.changed()
        return hooks

    # ------------------------------------------------------------------ users
    def user(self, user_id: int) -> dict | None:
        row = self.store.one("SELECT * FROM users WHERE id = ?", int(user_id))
        return None if row is None else _user_of(row)

    def users(self) -> list[dict]:
        return [_user_of(r) for r in self.store.all("SELECT * FROM users ORDER BY id")]

    # ------------------------------------------------------------------ quotas
    def set_quota(self, app_id: str, api: str, limit: int | None) -> None:
        if limit is None:
            self.store.execute("DELETE FROM quotas WHERE app_id = ? AND api = ?", app_id, api)
        else:
            self.store.execute("INSERT INTO quotas VALUES (?, ?, ?) ON CONFLICT(app_id, api) DO UPDATE SET"
                               " daily_limit = excluded.daily_limit", app_id, api, int(limit))
        self.changed()   # after the write, as for every other change: a charge in between re-reads the new limit

    def charge(self, app_id: str, api: str) -> None:
        """Count one call of ``api``; raise the -10 quota error when the app's daily limit is used up."""
        day = self.sandbox.clock.today()
        if day != self._day:
            self._forget_old_days(day)
        if self._shared:
            self._charge_sql(app_id, api, day)
            return
        self._fresh()
        limits = self._limits
        if limits is None:
            limits = {(r["app_id"], r["api"]): r["daily_limit"] for r in self.store.all("SELECT * FROM quotas")}
            self._limits = limits
        key = (app_id, api, day)
        with self._lock:
            used = self._used.get(key)
            if used is None:
                row = self.store.one("SELECT used FROM quota_use WHERE app_id = ? AND api = ? AND day = ?", *key)
                used = row["used"] if row else 0
            limit = limits.get((app_id, api))
            if limit is not None and used >= limit:
                raise api_error(400, -10, "API limit has been exceeded.")
            self._used[key] = used + 1
            self._unflushed += 1
            flush = self._unflushed >= FLUSH_EVERY
        if flush:
            self.flush()

    def _charge_sql(self, app_id: str, api: str, day: str) -> None:
        with self.store.tx() as db:
            limit = db.execute("SELECT daily_limit FROM quotas WHERE app_id = ? AND api = ?", (app_id, api)).fetchone()
            row = db.execute("SELECT used FROM quota_use WHERE app_id = ? AND api = ? AND day = ?",
                             (app_id, api, day)).fetchone()
            used = row["used"] if row else 0
            if limit is not None and used >= limit["daily_limit"]:
                raise api_error(400, -10, "API limit has been exceeded.")
            db.execute("INSERT INTO quota_use VALUES (?, ?, ?, 1) ON CONFLICT(app_id, api, day) DO UPDATE SET"
                       " used = used + 1", (app_id, api, day))

    def _forget_old_days(self, day: str) -> None:
        """Delete the counts of days more than :data:`QUOTA_DAYS_KEPT` days before ``day`` (once per day seen)."""
        import datetime

        self._day = day
        cutoff = (datetime.date.fromisoformat(day) - datetime.timedelta(days=QUOTA_DAYS_KEPT)).isoformat()
        with self._lock:
            for key in [k for k in self._used if k[2] < cutoff]:
                del self._used[key]
            self.store.execute("DELETE FROM quota_use WHERE day < ?", cutoff)

    def flush(self) -> None:
        """Write the counts kept in memory to ``quota_use``."""
        with self._lock:
            rows = [(*key, used) for key, used in self._used.items()]
            self._used.clear()
            self._unflushed = 0
            if rows:
                with self.store.tx() as db:
                    db.executemany("INSERT INTO quota_use VALUES (?, ?, ?, ?) ON CONFLICT(app_id, api, day) DO UPDATE"
                                   " SET used = excluded.used", rows)

    def usage(self, app_id: str, api: str, day: str | None = None) -> int:
        """Calls of ``api`` counted for ``app_id`` on ``day`` (today of the sandbox clock by default).

        >>> sandbox.apps.usage("100001", "local_search_address")   # doctest: +SKIP
        0
        """
        self.flush()
        day = day or self.sandbox.clock.now().date().isoformat()
        row = self.store.one("SELECT used FROM quota_use WHERE app_id = ? AND api = ? AND day = ?", app_id, api, day)
        return row["used"] if row else 0


_USER_COLUMNS = {"id", "email", "password", "nickname", "name", "gender", "birthyear", "birthday", "birthday_type",
                 "phone_number", "profile_image_url", "thumbnail_image_url", "is_talk_user", "is_story_user"}


# ---------------------------------------------------------------------- app settings (a developer console's)
SETTINGS = ("name", "redirect_uris", "logout_redirect_uris", "web_domains", "client_secret_required",
            "consent_items", "service_terms")
CONSENT_LEVELS = ("required", "optional")


def _urls(name: str, value, origin_only: bool = False) -> list[str]:
    from urllib.parse import urlsplit

    if not isinstance(value, list) or len(value) > 10:
        raise api_error(400, -2, f"{name} must be a list of at most 10 URLs")
    for url in value:
        parts = urlsplit(url) if isinstance(url, str) and len(url) <= 512 else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise api_error(400, -2, f"each of {name} must be an absolute http or https URL, not {str(url)[:80]!r}")
        if origin_only and parts.path not in ("", "/"):
            raise api_error(400, -2, f"each of {name} must be an origin (scheme://host[:port]), not {url[:80]!r}")
    return list(value)


def check_settings(body: dict, scope_ids, *, partial: bool) -> dict:
    """The app settings of a control-API body (``POST /sandbox/apps``, ``PATCH /sandbox/apps/{app_id}``), each
    checked before anything changes (HTTP 400 ``-2`` naming the setting): ``redirect_uris``,
    ``logout_redirect_uris`` (absolute URLs), ``web_domains`` (origins), ``client_secret_required`` (bool),
    ``consent_items`` (scope id → ``"required"`` or ``"optional"``, or a list of ids: optional, ``profile`` and
    ``openid`` required), ``service_terms`` (a list of ``{"tag", "required"}``)."""
    out: dict[str, Any] = {}
    if "name" in body:
        name = body["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise api_error(400, -2, "name must be text of 1 to 100 characters")
        out["name"] = name
    for name in ("redirect_uris", "logout_redirect_uris"):
        if name in body:
            out[name] = _urls(name, body[name])
    if "web_domains" in body:
        out["web_domains"] = _urls("web_domains", body["web_domains"], origin_only=True)
    if "client_secret_required" in body:
        if not isinstance(body["client_secret_required"], bool):
            raise api_error(400, -2, "client_secret_required must be true or false")
        out["client_secret_required"] = body["client_secret_required"]
    if "consent_items" in body:
        items = body["consent_items"]
        if isinstance(items, list):
            items = {s: ("required" if s in ("profile", "openid") else "optional") for s in items}
        if not isinstance(items, dict) or len(items) > 50:
            raise api_error(400, -2, "consent_items must map scope ids to 'required' or 'optional' (or list ids)")
        for sid, level in items.items():
            if sid not in scope_ids:
                raise api_error(400, -2, f"consent_items: {str(sid)[:40]!r} is not a scope id of the sandbox")
            if level not in CONSENT_LEVELS:
                raise api_error(400, -2, f"consent_items[{sid!r}] must be 'required' or 'optional'")
        out["consent_items"] = items
    if "service_terms" in body:
        terms = body["service_terms"]
        if not isinstance(terms, list) or len(terms) > 20:
            raise api_error(400, -2, "service_terms must be a list of at most 20 {\"tag\", \"required\"}")
        seen = set()
        for term in terms:
            tag = term.get("tag") if isinstance(term, dict) else None
            if not isinstance(tag, str) or not 1 <= len(tag) <= 64 or tag in seen:
                raise api_error(400, -2, "each service term needs a distinct tag (text of 1 to 64 characters)")
            if not isinstance(term.get("required", False), bool):
                raise api_error(400, -2, f"service term {tag!r}: required must be true or false")
            seen.add(tag)
        out["service_terms"] = [{"tag": t["tag"], "required": bool(t.get("required", False))} for t in terms]
    unknown = sorted(set(body) - set(SETTINGS) - {"channels", "app_id"})
    if unknown:
        raise api_error(400, -2, f"unknown app settings: {', '.join(map(str, unknown))[:120]}; the settings are "
                                 f"{', '.join(SETTINGS)}")
    if partial and not out:
        raise api_error(400, -2, f"give at least one setting: {', '.join(SETTINGS)}")
    return out
