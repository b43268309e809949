"""Write the two-day schedule of docs/instructors.md from its own timing table.

    python docs/schedule.py          # rewrites the schedule between its markers in docs/instructors.md
    python docs/schedule.py --check  # exits 1 when the schedule no longer follows the table (the test suite runs this)

The table is the guide's "Lesson | Teaching | Exercises | ..." table (section "Timing"): a lesson's slot is its
teaching minutes plus its exercise minutes. Re-estimate a lesson there, run this, and the schedule follows. The
days' frame is :data:`DAYS`: the start and end, the breaks at their planned times, a set-up check first and a
wrap-up last. A break moves to the lesson boundary nearest its planned time when one lies within
:data:`BREAK_SLACK` minutes; otherwise it falls inside the lesson (best at a section boundary: the lesson's row
is split and says so). A lesson that does not fit whole before a day's end begins that day when at least
:data:`DAY_SPLIT` minutes are left and goes on the next morning (or ends the same day when only
:data:`DAY_OVERRUN` minutes would be left for the morning); with fewer, the day's rest is a buffer. Minutes that
do not fit by the end of the last day are said in a line under the schedule, with what to do.

>>> for row in plan([("00 Quickstart", 70), ("01 Login", 200)], DAYS)[:6]:
...     print(row.start, row.what, row.minutes)
09:00 Set-up check and introductions 20
09:20 00 Quickstart 70
10:30 Break 15
10:45 01 Login (to a section boundary) 105
12:30 Lunch 60
13:30 01 Login (continued) 95
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructors.md"
BEGIN = "<!-- schedule: written by docs/schedule.py from the table above; run it after changing the table -->"
END = "<!-- end of schedule -->"

LESSONS = ("00", "01", "02", "03a", "03b", "04a", "04b", "05", "06")
"""The lessons of the two days, in order (rows of the table for other lessons, e.g. a track's own, are left out)."""

BREAK_SLACK = 20
"""Minutes a break may move from its planned time to fall between two lessons."""

DAY_SPLIT = 30
"""A lesson that does not fit whole before a day's end still begins that day (to a section boundary, continued the
next morning) when at least this many minutes are left; with fewer, the rest of the day is a buffer."""

DAY_OVERRUN = 10
"""A lesson that would leave only this many minutes (or fewer) for the next morning is finished the same day."""

DAYS = (
    {"start": "09:00", "end": "17:30", "first": ("Set-up check and introductions", 20),
     "breaks": (("10:30", 15, "Break"), ("12:30", 60, "Lunch"), ("15:00", 15, "Break"))},
    {"start": "09:00", "end": "17:30", "last": ("Wrap-up: questions, feedback, what next", 15),
     "breaks": (("10:30", 15, "Break"), ("12:30", 60, "Lunch"), ("15:00", 15, "Break"))},
)
"""The frame of each day: hours, breaks (planned time, minutes, name), what opens day 1 and what closes day 2."""


@dataclass
class Row:
    day: int
    start: str
    what: str
    minutes: int


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def lessons_from(guide: str) -> list[tuple[str, int]]:
    """``(lesson, minutes)`` for each lesson of :data:`LESSONS`, from the guide's "Lesson | Teaching | Exercises"
    table: teaching plus exercise minutes. A lesson missing from the table is a ValueError naming it."""
    found: dict[str, tuple[str, int]] = {}
    header = False
    for line in guide.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if cells[:3] == ["Lesson", "Teaching", "Exercises"]:
            header = True
            continue
        if not cells:
            header = False
            continue
        match = re.fullmatch(r"([0-9]{2}[a-z]?) .+", cells[0]) if header else None
        if match and match.group(1) in LESSONS:
            found[match.group(1)] = (cells[0], int(cells[1].strip("*")) + int(cells[2].strip("*")))
    missing = [lesson for lesson in LESSONS if lesson not in found]
    if missing:
        raise ValueError(f"the timing table (Lesson | Teaching | Exercises) has no row for lesson(s) "
                         f"{', '.join(missing)}")
    return [found[lesson] for lesson in LESSONS]


def plan(lessons: list[tuple[str, int]], days=DAYS) -> list[Row]:
    """The schedule: one :class:`Row` per session, break, and part of a lesson split by a break or a day's end.
    Minutes that do not fit are left in a last row of day 0 (``what`` = ``"over"``)."""
    queue = [[name, minutes, False] for name, minutes in lessons]      # name, minutes left, begun already
    rows: list[Row] = []

    def lesson_row(day: int, t: int, minutes: int) -> int:
        name, left, begun = queue[0]
        rest = left - minutes
        notes = (["continued"] if begun else []) + (["to a section boundary"] if rest else [])
        what = name + (f" ({', '.join(notes)})" if notes else "")
        rows.append(Row(day, _clock(t), what, minutes))
        if rest:
            queue[0][1], queue[0][2] = rest, True
        else:
            queue.pop(0)
        return t + minutes

    for number, day in enumerate(days, 1):
        t, end = _minutes(day["start"]), _minutes(day["end"])
        if "last" in day:
            end -= day["last"][1]
        if "first" in day:
            rows.append(Row(number, _clock(t), *day["first"]))
            t += day["first"][1]
        for planned, length, name in day["breaks"]:
            at = _minutes(planned)
            while queue and t + queue[0][1] <= at + BREAK_SLACK:       # whole lessons before the break
                t = lesson_row(number, t, queue[0][1])
            if queue and t < at - BREAK_SLACK:                        # no boundary near: split the lesson
                t = lesson_row(number, t, at - t)
            rows.append(Row(number, _clock(t), name, length))
            t += length
        while queue and t < end and (t + queue[0][1] <= end or number == len(days) or end - t >= DAY_SPLIT):
            whole = t + queue[0][1] <= end + DAY_OVERRUN       # a few minutes over: finish it today
            t = lesson_row(number, t, queue[0][1] if whole else min(queue[0][1], end - t))
        if t < end and number < len(days):      # too little time left to begin the next lesson: it starts tomorrow
            rows.append(Row(number, _clock(t), "Buffer: catch up, questions, the day's sticky notes", end - t))
        if "last" in day:
            rows.append(Row(number, _clock(t), *day["last"]))
    if queue:
        rows.append(Row(0, "", "over", sum(left for _, left, _ in queue)))
    return rows


def render(rows: list[Row]) -> str:
    """The schedule as markdown: a table per day, and a line for minutes that do not fit."""
    out = []
    for day in sorted({r.day for r in rows if r.day}):
        out += [f"**Day {day}**", "", "| Time | Session | Minutes |", "| --- | --- | ---: |"]
        out += [f"| {r.start} | {r.what} | {r.minutes} |" for r in rows if r.day == day]
        out.append("")
    over = [r for r in rows if r.day == 0]
    if over:
        out += [f"**{over[0].minutes} minutes do not fit in the two days**: cut them with each lesson's *what to cut "
                "when behind*, or teach a track (one day) instead.", ""]
    return "\n".join(out).rstrip("\n")


def rewrite(guide: str) -> str:
    """``guide`` with the schedule between :data:`BEGIN` and :data:`END` made again from its table."""
    if guide.count(BEGIN) != 1 or guide.count(END) != 1 or guide.index(BEGIN) > guide.index(END):
        raise ValueError(f"docs/instructors.md needs the schedule's markers once each, in order: {BEGIN} ... {END}")
    head, rest = guide.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{render(plan(lessons_from(guide)))}\n{END}{tail}"


def main(argv: list[str]) -> int:
    guide = GUIDE.read_text("utf-8")
    wanted = rewrite(guide)
    if "--check" in argv:
        if wanted != guide:
            print("docs/instructors.md: the two-day schedule does not follow the timing table; run "
                  "python docs/schedule.py", file=sys.stderr)
            return 1
        return 0
    GUIDE.write_text(wanted, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
