"""SQLite store of the sandbox: in-memory by default, a file (``--db FILE``) to persist across restarts.

One connection shared by the server's threads behind a lock; a file database uses WAL and a busy timeout so
that several processes writing the same file wait for each other instead of corrupting it.

The store records the version of its tables (``meta`` key ``schema_version``, :data:`SCHEMA_VERSION`): a file of
an older version is migrated in place when a sandbox opens it (:data:`MIGRATIONS`, every row kept); a file of a
newer version is refused (:class:`SchemaVersionError`, naming both versions) before anything is written.

>>> s = Store(":memory:")
>>> s.script("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)")
>>> with s.tx() as db:
...     _ = db.execute("INSERT INTO t VALUES ('a', 1)")
>>> s.one("SELECT v FROM t WHERE k = ?", "a")["v"]
1
"""
from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from typing import Any, Iterator

__all__ = ["Store", "SchemaVersionError", "SCHEMA_VERSION", "MIGRATIONS"]

SCHEMA_VERSION = 2
"""The version of the sandbox's tables this toolkit writes (``meta`` key ``schema_version``). 1: the tables of
every release before versioning (a file without the key); 2: ``apps.consent_items`` (the consent items an app
asks for, set like in a developer console)."""


def _add_column(db: sqlite3.Connection, table: str, column: str, decl: str) -> None:
    """``ALTER TABLE … ADD COLUMN`` unless the column exists (a migration may meet a half-made table)."""
    have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    if column not in have:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


MIGRATIONS = {
    1: lambda db: _add_column(db, "apps", "consent_items", "TEXT NOT NULL DEFAULT '{}'"),
}
"""``version -> step``: the step brings a file of that version to the next one, in place (data kept)."""


class SchemaVersionError(RuntimeError):
    """A store file written by a newer toolkit (a higher ``schema_version``): refused, untouched."""


class Store:
    def __init__(self, path: str = ":memory:"):
        self.path = path
        self._lock = threading.RLock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA foreign_keys = ON")
        if path != ":memory:":
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA busy_timeout = 30000")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on error)."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            else:
                self.db.execute("COMMIT")

    def script(self, sql: str) -> None:
        with self._lock:
            self.db.executescript(sql)

    def all(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        with self._lock:
            return self.db.execute(sql, args).fetchall()

    def one(self, sql: str, *args: Any) -> sqlite3.Row | None:
        with self._lock:
            return self.db.execute(sql, args).fetchone()

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        """One statement in its own transaction."""
        with self.tx() as db:
            return db.execute(sql, args)

    def get_meta(self, key: str, default: Any = None) -> Any:
        row = self.one("SELECT value FROM meta WHERE key = ?", key)
        return json.loads(row["value"]) if row else default

    def set_meta(self, key: str, value: Any) -> None:
        self.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                     key, json.dumps(value))

    # ------------------------------------------------------------------ schema version
    def schema_version(self) -> int | None:
        """The file's ``schema_version``: None for a new (empty) store, 1 for a file of a release before
        versioning (tables, no key)."""
        version = self.get_meta("schema_version")
        if version is not None:
            return int(version)
        # an aggregate without GROUP BY always yields exactly one row
        tables = self.all("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name != 'meta'")[0]["n"]
        return 1 if tables or self.get_meta("seed") is not None else None

    def check_version(self) -> int | None:
        """Refuse (:class:`SchemaVersionError`) a file of a newer schema before anything is written; the file's
        version otherwise (None: new)."""
        version = self.schema_version()
        if version is not None and version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"the sandbox database {self.path} has schema version {version}, written by a newer toolkit; this "
                f"toolkit reads schema versions 1 to {SCHEMA_VERSION}. Upgrade toolkit to open it, or use another "
                "--db file (the file was not changed)")
        return version

    def migrate(self, found: int | None) -> list[int]:
        """Bring the tables from version ``found`` to :data:`SCHEMA_VERSION` in place, in one transaction (every
        row kept), and record the version; the steps run. A new store is recorded at the current version."""
        steps = [] if found is None else list(range(found, SCHEMA_VERSION))
        with self.tx() as db:
            for step in steps:
                MIGRATIONS[step](db)
            db.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET"
                       " value = excluded.value", (json.dumps(SCHEMA_VERSION),))
        return steps

    def close(self) -> None:
        with self._lock:
            self.db.close()
