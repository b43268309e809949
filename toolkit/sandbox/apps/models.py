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
one transaction per call, so that processes sharing the file share the count.
"""
from __future__ import annotations

import hashlib
import json
import threading

from ..web import api_error

SCHEMA = """
CREATE TABLE IF NOT EXISTS apps (
    app_id TEXT PRIMARY KEY, name TEXT NOT NULL, client_secret TEXT NOT NULL,
    client_secret_required INTEGER NOT NULL DEFAULT 1, auto_link INTEGER NOT NULL DEFAULT 1,
    redirect_uris TEXT NOT NULL, logout_redirect_uris TEXT NOT NULL, web_domains TEXT NOT NULL,
    webhooks TEXT NOT NULL DEFAULT '{}'
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
KEY_KINDS = ("native_app", "rest_api", "javascript", "admin")


def _derive(seed: int, label: str) -> str:
    return hashlib.sha256(f"toolkit-sandbox:{seed}:{label}".encode()).hexdigest()[:32]


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
    def create_app(self, name: str) -> dict:
        """A new app with keys derived from the sandbox seed and its id (deterministic); its public config."""
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
        self.changed()
        return self.public_config(app_id)

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
            app = self._apps[app_id] = self.app(app_id)
        return app, kind

    def public_config(self, app_id: str = DEMO_APP_ID) -> dict:
        """The demo app as ``toolkit sandbox --print-config`` shows it."""
        app = self.app(app_id)
        keys = app["keys"]
        return {
            "app_id": app["app_id"], "name": app["name"], "rest_api_key": keys["rest_api"],
            "admin_key": keys["admin"], "native_app_key": keys["native_app"], "javascript_key": keys["javascript"],
            "client_secret": app["client_secret"], "client_secret_required": bool(app["client_secret_required"]),
            "redirect_uris": app["redirect_uris"], "logout_redirect_uris": app["logout_redirect_uris"],
            "web_domains": app["web_domains"], "webhooks": app["webhooks"],
        }

    def set_webhooks(self, app_id: str, **urls) -> dict:
        """Set (text) or clear (null, "") webhook URLs by kind; HTTP 400 ``{code: -2}`` for anything else."""
        for kind, url in urls.items():
            if url is not None and not isinstance(url, str):
                raise api_error(400, -2, f"the webhook URL of {kind[:40]} must be text or null")
        app = self.app(app_id)
        hooks = {**app["webhooks"], **{k: v for k, v in urls.items()}}
        hooks = {k: v for k, v in hooks.items() if v}
        self.store.execute("UPDATE apps SET webhooks = ? WHERE app_id = ?", json.dumps(hooks), app_id)
        self.changed()
        return hooks

    # ------------------------------------------------------------------ users
    def user(self, user_id: int) -> dict | None:
        row = self.store.one("SELECT * FROM users WHERE id = ?", int(user_id))
        if row is None:
            return None
        user = dict(row)
        user.update(json.loads(user.pop("attrs")))
        return user

    def users(self) -> list[dict]:
        return [self.user(r["id"]) for r in self.store.all("SELECT id FROM users ORDER BY id")]

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
