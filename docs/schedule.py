"""Write the two-day schedule of docs/instructors.md from its own timing table and the lessons' sections.

    python docs/schedule.py          # rewrites the schedule between its markers in docs/instructors.md
    python docs/schedule.py --check  # exits 1 when the schedule no longer follows the table and the lessons

The table is the guide's "Lesson | Teaching | Exercises | ..." table (section "Timing"): a lesson's slot is its
teaching minutes plus its exercise minutes. Each lesson is cut into its sections (the notebook's ``##`` and ``###``
headings): a section's share of the teaching minutes follows the reading model of the guide (prose at 180 words a
minute, 10 s a line of code), and its exercises bring their minutes (3 for a predict, 4, 8 or 12 by stars, scaled to
the table's exercise minutes). Sections whose heading says *(optional)* are left to self-study in the two days, and
said so under the schedule.

The days' frame is :data:`DAYS`: the start and end, an opening and a closing session, the breaks at their planned
times, and a buffer of :data:`BUFFER` minutes before each day's close. A break moves to the lesson boundary nearest
its planned time when one lies within :data:`BREAK_SLACK` minutes; otherwise the lesson is split at the section
boundary nearest the break (its row names the sections on each side), never inside a section. A lesson that does not
fit whole before a day's end begins that day at a section boundary when at least :data:`DAY_SPLIT` minutes are left
and goes on the next morning; with fewer, the rest of the day adds to the buffer. Minutes that do not fit by the end
of the last day are said in a line under the schedule, with what to do.

>>> rows = plan([Lesson("00 Quickstart", [Section("§1", 40, title="Status"), Section("§2", 30, title="History")]),
...              Lesson("01 Login", [Section("§1", 60, title="Request"), Section("§2", 40, title="Steps"),
...                                  Section("§3", 50, title="Tokens")])], DAYS)
>>> for row in rows[:6]:
...     print(row.start, row.what, row.minutes)
09:00 Welcome: the code of conduct, sticky notes, the shared notes document, the set-up check 20
09:20 00 Quickstart 70
10:30 Break 15
10:45 01 Login, up to the end of §2 “Steps” — then lunch 100
12:25 Lunch 60
13:25 01 Login, from §3 “Tokens” 50
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructors.md"
NOTEBOOKS = ROOT / "notebooks"
BEGIN = "<!-- schedule: written by docs/schedule.py from the table above; run it after changing the table -->"
END = "<!-- end of schedule -->"

LESSONS = ("00", "01", "02", "03a", "03b", "04a", "04b", "05", "06")
"""The lessons of the two days, in order (rows of the table for other lessons, e.g. a track's own, are left out)."""

BREAK_SLACK = 20
"""Minutes a break may move from its planned time to fall between two lessons (or two sections)."""

DAY_SPLIT = 30
"""A lesson that does not fit whole before a day's end still begins that day (to a section boundary, continued the
next morning) when at least this many minutes are left; with fewer, the rest of the day adds to the buffer."""

BUFFER = 15
"""Minutes of buffer planned before each day's close (catching up, questions); a day's unused minutes add to it."""

BUFFER_ROW = "Buffer: catch up, questions, the day's sticky notes"

DAYS = (
    {"start": "09:00", "end": "17:30",
     "first": ("Welcome: the code of conduct, sticky notes, the shared notes document, the set-up check", 20),
     "last": ("Wrap-up: minute cards (one thing that worked, one thing still unclear)", 10),
     "breaks": (("10:30", 15, "Break"), ("12:30", 60, "Lunch"), ("15:00", 15, "Break"))},
    {"start": "09:00", "end": "17:30",
     "first": ("Day 1's minute cards: what was unclear, answered", 5),
     "last": ("Wrap-up: questions, the workshop survey, what next", 15),
     "breaks": (("10:30", 15, "Break"), ("12:30", 60, "Lunch"), ("15:00", 15, "Break"))},
)
"""The frame of each day: hours, what opens and closes it, breaks (planned time, minutes, name)."""

EXERCISE_MINUTES = {"predict": 3, 1: 4, 2: 8, 3: 12}
"""An exercise's minutes at class pace: 3 to predict and discuss, else 4, 8 or 12 by its stars (★ to ★★★)."""


@dataclass
class Section:
    name: str
    minutes: int
    optional: bool = False
    title: str = ""


@dataclass
class Lesson:
    name: str
    sections: list[Section]
    optional: list[Section] = field(default_factory=list)

    @property
    def minutes(self) -> int:
        return sum(s.minutes for s in self.sections)


@dataclass
class Row:
    day: int
    start: str
    what: str
    minutes: int
    kind: str = "lesson"          # "lesson", "break", "frame", "buffer", "over"


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def table_from(guide: str) -> dict[str, tuple[str, int, int]]:
    """``lesson → (name, teaching, exercise minutes)`` from the guide's "Lesson | Teaching | Exercises" table; a
    lesson of :data:`LESSONS` missing from it is a ValueError naming it."""
    found: dict[str, tuple[str, int, int]] = {}
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
            found[match.group(1)] = (cells[0], int(cells[1].strip("*")), int(cells[2].strip("*")))
    missing = [lesson for lesson in LESSONS if lesson not in found]
    if missing:
        raise ValueError(f"the timing table (Lesson | Teaching | Exercises) has no row for lesson(s) "
                         f"{', '.join(missing)}")
    return found


_HEADING = re.compile(r"^(#{2,3})\s+(.+?)\s*$", re.M)
_EXERCISE = re.compile(r"\*\*Exercise [^*]+\*\* · (★{1,3}) \w+ · \*([^*]+)\*")


def _weight(cell: dict) -> float:
    """Reading-model minutes of a cell: prose at 180 words a minute, 10 s a line of code."""
    source = "".join(cell.get("source", []))
    if cell.get("cell_type") == "code":
        return len([ln for ln in source.splitlines() if ln.strip()]) * 10 / 60
    return len(source.split()) / 180


def _spread(total: int, weights: list[float]) -> list[int]:
    """``total`` minutes over ``weights``, as whole minutes that add up to it (largest remainders)."""
    whole = sum(weights) or 1.0
    exact = [total * w / whole for w in weights]
    out = [int(x) for x in exact]
    for i in sorted(range(len(exact)), key=lambda i: exact[i] - out[i], reverse=True)[:total - sum(out)]:
        out[i] += 1
    return out


def sections_of(notebook: Path, teaching: int, exercises: int) -> tuple[list[Section], list[Section]]:
    """A lesson's sections with their minutes (the part before the first heading opens the first section; a
    ``###`` sub-section is a section of its own), and apart from them its optional ones."""
    cells = json.loads(notebook.read_text("utf-8"))["cells"]
    parts: list[dict] = [{"name": "§0", "weight": 0.0, "exercises": [], "optional": False, "title": ""}]  # the frame
    number = 0
    for cell in cells:
        source = "".join(cell.get("source", []))
        head = _HEADING.search(source) if cell.get("cell_type") == "markdown" else None
        if head and not head.group(2).startswith("Recap"):
            if head.group(1) == "##":
                number += 1
                label = f"§{number}"
            else:
                label = f"§{number}." + str(sum(1 for p in parts if p["name"].startswith(f"§{number}.")) + 1)
            title = re.sub(r"^[\d.]+\s+", "", head.group(2)).replace("`", "")
            parts.append({"name": label, "weight": 0.0, "exercises": [], "optional": "(optional)" in head.group(2),
                          "title": title})
        parts[-1]["weight"] += _weight(cell)
        found = _EXERCISE.search(source) if "exercise" in cell.get("metadata", {}).get("tags", []) else None
        if found:
            parts[-1]["exercises"].append("predict" if "predict" in found.group(2) else len(found.group(1)))
    parts = [p for p in parts if p["weight"] or p["exercises"]]
    teach = _spread(teaching, [p["weight"] for p in parts])
    practice = _spread(exercises, [sum(EXERCISE_MINUTES[e] for e in p["exercises"]) for p in parts])
    every = [Section(p["name"], t + x, p["optional"], p["title"]) for p, t, x in zip(parts, teach, practice)]
    return [s for s in every if not s.optional], [s for s in every if s.optional]


def lessons_from(guide: str, notebooks: Path = NOTEBOOKS) -> list[Lesson]:
    """The lessons of :data:`LESSONS` with their sections, from the guide's table and the notebooks."""
    table = table_from(guide)
    out = []
    for lesson in LESSONS:
        name, teaching, exercises = table[lesson]
        path = next(notebooks.glob(f"{lesson}_*.ipynb"), None)
        if path is None:
            raise ValueError(f"no notebook for lesson {lesson} in {notebooks.name}/")
        sections, optional = sections_of(path, teaching, exercises)
        out.append(Lesson(name, sections, optional))
    return out


def _label(part: list[Section], begun: bool, rest: bool) -> str:
    """Which sections a lesson's row teaches: up to the break point (named by its section's heading), or from it."""
    if not begun:
        return f"up to the end of {part[-1].name} “{part[-1].title}”"
    first = f"from {part[0].name} “{part[0].title}”"
    return first + (f" to the end of {part[-1].name}" if rest else "")


def plan(lessons: list[Lesson], days=DAYS) -> list[Row]:
    """The schedule: one :class:`Row` per session, break, buffer, and part of a lesson split at a section boundary
    by a break or a day's end. Minutes that do not fit are left in a last row of day 0 (``kind`` ``"over"``)."""
    queue = [(lesson.name, list(lesson.sections), False) for lesson in lessons]
    rows: list[Row] = []

    def take(day: int, t: int, count: int | None, why: str) -> int:
        """Teach the first ``count`` sections of the first lesson in the queue (all of them: None), up to ``why``."""
        name, sections, begun = queue[0]
        part = sections if count is None else sections[:count]
        rest = [] if count is None else sections[count:]
        what = name if not begun and not rest else f"{name}, {_label(part, begun, bool(rest))}"
        rows.append(Row(day, _clock(t), what + (f" — then {why}" if rest else ""), sum(s.minutes for s in part)))
        if rest:
            queue[0] = (name, rest, True)
        else:
            queue.pop(0)
        return t + rows[-1].minutes

    def split_at(t: int, at: int, slack: int) -> int | None:
        """How many sections of the first lesson end nearest ``at`` (within ``slack``), none too early: None."""
        _, sections, _ = queue[0]
        best, end = None, t
        for k, section in enumerate(sections[:-1], 1):
            end += section.minutes
            if abs(end - at) <= slack and (best is None or abs(end - at) < abs(best[1] - at)):
                best = (k, end)
        return best[0] if best else None

    for number, day in enumerate(days, 1):
        t, end = _minutes(day["start"]), _minutes(day["end"])
        close = end - day["last"][1] - BUFFER
        rows.append(Row(number, _clock(t), *day["first"], kind="frame"))
        t += day["first"][1]
        for planned, length, name in day["breaks"]:
            at = _minutes(planned)
            while queue and t + sum(s.minutes for s in queue[0][1]) <= at + BREAK_SLACK:   # whole lessons first
                t = take(number, t, None, "")
            if queue and t < at - BREAK_SLACK:     # no lesson ends near the break: the section boundary nearest it
                k = split_at(t, at, BREAK_SLACK) or split_at(t, at, 10 ** 6)
                if k is not None:
                    t = take(number, t, k, "lunch" if name == "Lunch" else f"the {name.lower()}")
                else:                               # a lesson of one section: the break waits for its end
                    t = take(number, t, None, "")
            rows.append(Row(number, _clock(t), name, length, kind="break"))
            t += length
        while queue and t < close:
            if t + sum(s.minutes for s in queue[0][1]) <= close:
                t = take(number, t, None, "")
                continue
            k = split_at(t, close, close - t) if close - t >= DAY_SPLIT else None
            if k is not None:
                t = take(number, t, k, "the day's end")
            break
        rows.append(Row(number, _clock(t), BUFFER_ROW, max(0, end - day["last"][1] - t), kind="buffer"))
        t = max(t, end - day["last"][1])
        rows.append(Row(number, _clock(t), *day["last"], kind="frame"))
    if queue:
        rows.append(Row(0, "", "over", sum(s.minutes for _, sections, _ in queue for s in sections), kind="over"))
    return rows


def render(rows: list[Row], lessons: list[Lesson] | None = None) -> str:
    """The schedule as markdown: a table per day, the sections left to self-study, and minutes that do not fit."""
    out = []
    for day in sorted({r.day for r in rows if r.day}):
        out += [f"**Day {day}**", "", "| Time | Session | Minutes |", "| --- | --- | ---: |"]
        out += [f"| {r.start} | {r.what} | {r.minutes} |" for r in rows if r.day == day]
        out.append("")
    optional = [f"{lesson.name.split()[0]} {s.name} “{s.title.replace(' (optional)', '')}” ({s.minutes} min)"
                for lesson in lessons or [] for s in lesson.optional]
    if optional:
        out += [f"Left to self-study (the lessons' *optional* sections): {', '.join(optional)}.", ""]
    over = [r for r in rows if r.day == 0]
    if over:
        out += [f"**{over[0].minutes} minutes do not fit in the two days**: cut them with each lesson's *what to cut "
                "when behind*, or teach a track (one day) instead.", ""]
    return "\n".join(out).rstrip("\n")


def rewrite(guide: str, notebooks: Path = NOTEBOOKS) -> str:
    """``guide`` with the schedule between :data:`BEGIN` and :data:`END` made again from its table and the lessons."""
    if guide.count(BEGIN) != 1 or guide.count(END) != 1 or guide.index(BEGIN) > guide.index(END):
        raise ValueError(f"docs/instructors.md needs the schedule's markers once each, in order: {BEGIN} ... {END}")
    head, rest = guide.split(BEGIN)
    _, tail = rest.split(END)
    lessons = lessons_from(guide, notebooks)
    return f"{head}{BEGIN}\n{render(plan(lessons), lessons)}\n{END}{tail}"


def main(argv: list[str]) -> int:
    guide = GUIDE.read_text("utf-8")
    wanted = rewrite(guide)
    if "--check" in argv:
        if wanted != guide:
            print("docs/instructors.md: the two-day schedule does not follow the timing table and the lessons' "
                  "sections; run python docs/schedule.py", file=sys.stderr)
            return 1
        return 0
    GUIDE.write_text(wanted, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
