"""SQLite store of the sandbox: in-memory by default, a file (``--db FILE``) to persist across restarts.

One connection shared by the server's threads behind a lock; a file database uses WAL and a busy timeout so
that several processes writing the same file wait for each other instead of corrupting it.

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

__all__ = ["Store"]


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

    def close(self) -> None:
        with self._lock:
            self.db.close()
