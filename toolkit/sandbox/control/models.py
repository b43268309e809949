"""The control API acts on the other areas' models; its own state is the learner's self-check verdicts and the
kinds of the errors the learner's own cells raised.

``lesson_checks``: one row per ``toolkit.lessons.check(...)`` the learner's kernel ran against this sandbox
(``POST /sandbox/checks``): the exercise id, its lesson, the verdict, the wall time and the sandbox time. Never
the answer or the feedback text. A class sandbox also keeps them per student beside its registry (they survive
the student's resets there; see :mod:`toolkit.sandbox.classroom`). At most :data:`CHECKS_KEPT` rows, the oldest
go first.

>>> from types import SimpleNamespace
>>> from toolkit.sandbox.store import Store
>>> store = Store(); store.script(SCHEMA)
>>> model = Model(SimpleNamespace(store=store, clock=SimpleNamespace(unix=lambda: 1795165200)))
>>> model.note_check("00.2", True, at=1795165201.5)["lesson"]
'00'
>>> [(c["exercise"], c["ok"]) for c in model.checks()]
[('00.2', True)]
>>> model.note_check("00.2; DROP", True)
Traceback (most recent call last):
...
ValueError: exercise must be an exercise id like '00.2' or '03b.4', not '00.2; DROP'

``lesson_raised``: one row per error that ended a cell of the learner's own code (``POST /sandbox/raised``, sent by
the kernel's cell hook, :func:`toolkit.lessons.watch_kernel`): the exception's class name only — never its message,
its traceback or the cell's code — with the wall time and the sandbox time, at most :data:`CHECKS_KEPT` rows.

>>> model.note_raised("KeyError", at=1795165202.0)["kind"]
'KeyError'
>>> model.note_raised("KeyError: 'x'")
Traceback (most recent call last):
...
ValueError: kind must be an exception's class name (letters, digits, _; at most 60), not "KeyError: 'x'"
"""
from __future__ import annotations

import re
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS lesson_checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, exercise TEXT NOT NULL, lesson TEXT NOT NULL, ok INTEGER NOT NULL,
    at REAL NOT NULL, clock INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS lesson_raised (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, at REAL NOT NULL, clock INTEGER NOT NULL
);
"""

CHECKS_KEPT = 2000
"""Self-check verdicts a sandbox keeps (a walkthrough has about five exercises, each checked a few times)."""

KIND_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,59}")
"""An exception's class name as the kernel's cell hook sends it (``type(exc).__name__``), nothing else."""

EXERCISE_RE = re.compile(r"([0-9]{2}[a-z]{0,3})\.([0-9]{1,3})")
"""An exercise id as :func:`toolkit.lessons.exercises` names them: the lesson, a dot, the number (``03b.4``)."""


def lesson_of(exercise) -> str:
    """The lesson of an exercise id (``"03b.4"`` → ``"03b"``), or ValueError for anything else."""
    match = EXERCISE_RE.fullmatch(exercise) if isinstance(exercise, str) else None
    if match is None:
        raise ValueError(f"exercise must be an exercise id like '00.2' or '03b.4', not {str(exercise)[:40]!r}")
    return match.group(1)


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox

    def note_check(self, exercise: str, ok: bool, *, at: float | None = None) -> dict:
        """Keep one self-check verdict (the oldest beyond :data:`CHECKS_KEPT` go); returns the row."""
        lesson = lesson_of(exercise)
        if not isinstance(ok, bool):
            raise ValueError(f"ok must be true or false, not {type(ok).__name__}")
        at = time.time() if at is None else float(at)
        clock = int(self.sandbox.clock.unix())
        store = self.sandbox.store
        with store.tx() as db:
            cur = db.execute("INSERT INTO lesson_checks (exercise, lesson, ok, at, clock) VALUES (?, ?, ?, ?, ?)",
                             (exercise, lesson, int(ok), at, clock))
            db.execute("DELETE FROM lesson_checks WHERE id <= ?", (cur.lastrowid - CHECKS_KEPT,))
        return {"id": cur.lastrowid, "exercise": exercise, "lesson": lesson, "ok": ok, "at": at, "clock": clock}

    def checks(self) -> list[dict]:
        """Every verdict kept, oldest first."""
        return [{**dict(r), "ok": bool(r["ok"])}
                for r in self.sandbox.store.all("SELECT * FROM lesson_checks ORDER BY id")]

    def note_raised(self, kind: str, *, at: float | None = None) -> dict:
        """Keep the kind of an error the learner's own cell raised (an exception's class name; the oldest rows
        beyond :data:`CHECKS_KEPT` go); returns the row."""
        if not isinstance(kind, str) or not KIND_RE.fullmatch(kind):
            raise ValueError("kind must be an exception's class name (letters, digits, _; at most 60), not "
                             f"{str(kind)[:40]!r}")
        at = time.time() if at is None else float(at)
        clock = int(self.sandbox.clock.unix())
        with self.sandbox.store.tx() as db:
            cur = db.execute("INSERT INTO lesson_raised (kind, at, clock) VALUES (?, ?, ?)", (kind, at, clock))
            db.execute("DELETE FROM lesson_raised WHERE id <= ?", (cur.lastrowid - CHECKS_KEPT,))
        return {"id": cur.lastrowid, "kind": kind, "at": at, "clock": clock}

    def raised(self) -> list[dict]:
        """Every raised kind kept, oldest first."""
        return [dict(r) for r in self.sandbox.store.all("SELECT * FROM lesson_raised ORDER BY id")]
