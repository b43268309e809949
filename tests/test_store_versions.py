"""The store records its schema version: a file of the previous release (frozen in tests/data/store_v1.sql) is
migrated in place with nothing lost; a file of a newer version is refused with both versions named, by the
sandbox and by ``toolkit sandbox --db FILE``."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.store import SCHEMA_VERSION, SchemaVersionError, Store

DATA = Path(__file__).resolve().parent / "data"


def _v1_file(tmp_path) -> Path:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript((DATA / "store_v1.sql").read_text(encoding="utf-8"))
    db.close()
    return path


def _rows(path: Path) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(db.execute(f"SELECT * FROM {t}"), key=repr) for t in tables}
    finally:
        db.close()


def test_a_new_store_records_the_current_version(tmp_path):
    sandbox = Sandbox(str(tmp_path / "new.db"))
    try:
        assert sandbox.store.get_meta("schema_version") == SCHEMA_VERSION == 2
    finally:
        sandbox.store.close()


def test_a_file_of_the_previous_release_is_migrated_in_place_and_loses_nothing(tmp_path):
    path = _v1_file(tmp_path)
    before = _rows(path)
    assert "schema_version" not in str(before["meta"])
    assert Store(str(path)).schema_version() == 1
    sandbox = Sandbox(str(path))
    try:
        assert sandbox.store.get_meta("schema_version") == SCHEMA_VERSION
        demo = sandbox.apps.public_config()
        assert demo["consent_items"] == {}                         # the new column, with its default
        assert sandbox.apps.user(4100000001)["nickname"] == "민지"
    finally:
        sandbox.store.close()
    after = _rows(path)
    assert sum(map(len, before.values())) > 500
    for table, rows in before.items():                               # every row of every table is still there
        if table == "meta":
            assert set(rows) <= set(after[table])
        elif table == "apps":                                        # one column more, at the end, defaulted
            assert [r[:-1] for r in after[table]] == rows and {r[-1] for r in after[table]} == {"{}"}
        else:
            assert after[table] == rows, table


def test_a_file_of_a_newer_version_is_refused_naming_both_versions(tmp_path):
    path = tmp_path / "future.db"
    Sandbox(str(path)).store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    before_meta = _rows(path)["meta"]
    with pytest.raises(SchemaVersionError, match=rf"schema version 99, written by a newer toolkit; this toolkit "
                                                 rf"reads schema versions 1 to {SCHEMA_VERSION}"):
        Sandbox(str(path))
    assert _rows(path)["meta"] == before_meta
    out = subprocess.run([sys.executable, "-m", "toolkit.cli", "sandbox", "--db", str(path)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert "schema version 99" in out.stderr and f"schema versions 1 to {SCHEMA_VERSION}" in out.stderr
    assert "Traceback" not in out.stderr
