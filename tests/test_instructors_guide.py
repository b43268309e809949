"""docs/instructors.md's frame holds: its two-day schedule follows its timing table (docs/schedule.py), the
learner's set-up check prints what the guide says it prints (alone and in a class), the teacher's commands it
quotes exist, and the messages its troubleshooting tables quote are the ones the code (or pip, or branca) says."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructors.md"
sys.path.insert(0, str(ROOT / "docs"))
import schedule  # noqa: E402


def guide() -> str:
    return GUIDE.read_text("utf-8")


# ---------------------------------------------------------------------- the schedule
def test_the_schedule_follows_the_timing_table():
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "schedule.py"), "--check"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_schedule_gives_every_lesson_its_minutes_within_the_days():
    lessons = schedule.lessons_from(guide())
    assert [lesson.name.split()[0] for lesson in lessons] == list(schedule.LESSONS)
    table = schedule.table_from(guide())
    rows = schedule.plan(lessons)
    for lesson in lessons:
        key = lesson.name.split()[0]
        taught = sum(r.minutes for r in rows if r.kind == "lesson" and r.what.startswith(lesson.name))
        optional = sum(s.minutes for s in lesson.optional)
        assert taught == lesson.minutes and taught + optional == table[key][1] + table[key][2], lesson.name
    for day in (1, 2):
        mine = [r for r in rows if r.day == day]
        ends = [schedule._minutes(r.start) + r.minutes for r in mine]
        assert max(ends) == schedule._minutes(schedule.DAYS[day - 1]["end"]), day
        assert all(schedule._minutes(a.start) + a.minutes == schedule._minutes(b.start) for a, b in zip(mine, mine[1:]))
        assert [r.what for r in mine if r.kind == "break"] == ["Break", "Lunch", "Break"], day
    assert not [r for r in rows if r.day == 0], "the lessons of the table no longer fit two days"


def test_each_day_has_room_to_breathe_and_the_carpentries_frame():
    """Issue 42: a buffer of 15 minutes or more each day before its close, day 1 opening with the code of conduct,
    the sticky notes and the shared notes document and closing with minute cards, day 2 answering them."""
    rows = schedule.plan(schedule.lessons_from(guide()))
    for day in (1, 2):
        mine = [r for r in rows if r.day == day]
        buffers = [r for r in mine if r.kind == "buffer"]
        assert len(buffers) == 1 and buffers[0].minutes >= 15, (day, buffers)
        assert mine[-2] is buffers[0] and mine[-1].kind == "frame" and mine[0].kind == "frame"
    first, second = ([r for r in rows if r.day == d] for d in (1, 2))
    assert all(word in first[0].what for word in ("code of conduct", "sticky notes", "shared notes document"))
    assert "minute cards" in first[-1].what and "minute cards" in second[0].what
    shown = schedule.render(rows)
    assert shown.count("| Buffer: catch up") == 2 and "Wrap-up: minute cards" in shown
    text = " ".join(guide().split())
    for basic in ("Code of conduct", "Sticky notes", "A shared notes document", "Minute cards"):
        assert f"**{basic}" in text, basic


def test_no_lesson_straddles_a_break_but_at_a_planned_break_point():
    """A lesson split by a break, lunch or the day's end stops at the end of a section the row names, and goes on
    from the next one; its parts' minutes are its sections' minutes."""
    lessons = {lesson.name: lesson for lesson in schedule.lessons_from(guide())}
    rows = schedule.plan(list(lessons.values()))
    splits = 0
    for i, row in enumerate(rows):
        if row.kind != "lesson" or ", up to the end of §" not in row.what:
            continue
        splits += 1
        name = row.what.split(", up to")[0]
        sections = lessons[name].sections
        label = row.what.split("up to the end of ")[1].split(" ")[0]
        k = [s.name for s in sections].index(label) + 1
        assert row.minutes == sum(s.minutes for s in sections[:k]), row
        after = rows[i + 1]
        assert after.kind in ("break", "buffer"), (row, after)
        rest = next(r for r in rows[i + 1:] if r.kind == "lesson")
        assert rest.what.startswith(f"{name}, from {sections[k].name} ")
        assert rest.minutes == sum(s.minutes for s in sections[k:]), rest
    assert splits >= 2


def test_a_break_moves_to_a_lesson_boundary_near_it_or_splits_the_lesson_at_a_section():
    L, S = schedule.Lesson, schedule.Section
    near = schedule.plan([L("00 A", [S("§1", 50, title="one"), S("§2", 30, title="two")]), L("01 B", [S("§1", 60)])])
    assert [(r.start, r.what) for r in near[1:3]] == [("09:20", "00 A"), ("10:40", "Break")]
    far = schedule.plan([L("00 A", [S("§1", 40, title="one"), S("§2", 35, title="two"), S("§3", 75, title="three")])])
    assert [(r.start, r.what, r.minutes) for r in far[1:4]] == [
        ("09:20", "00 A, up to the end of §2 “two” — then the break", 75), ("10:35", "Break", 15),
        ("10:50", "00 A, from §3 “three”", 75)]
    whole = schedule.plan([L("00 A", [S("§1", 150, title="one")])])      # no section boundary: the break waits
    assert [(r.what, r.minutes) for r in whole[1:3]] == [("00 A", 150), ("Break", 15)]


def test_a_lesson_that_does_not_fit_a_day_starts_the_next_and_too_much_is_said():
    L, S = schedule.Lesson, schedule.Section
    # day 1 holds 375 minutes of lessons (after the opening, the breaks, the buffer and the minute cards)
    rows = schedule.plan([L("00 A", [S("§1", 355)]), L("01 B", [S("§1", 30, title="x"), S("§2", 30, title="y")])])
    first = [r for r in rows if r.day == 1]
    assert first[-2].kind == "buffer" and first[-2].minutes == 15 + 20 and all("01 B" not in r.what for r in first)
    assert [r for r in rows if r.day == 2][1].what == "01 B"
    rows = schedule.plan([L("00 A", [S("§1", 320)]), L("01 B", [S("§1", 40, title="x"), S("§2", 40, title="y")])])
    assert [r.what for r in rows if r.day == 1 and r.kind == "lesson"][-1] == "01 B, up to the end of §1 “x” — then " \
        "the day's end"
    assert [r.what for r in rows if r.day == 2 and r.kind == "lesson"][0] == "01 B, from §2 “y”"
    over = schedule.plan([L(f"0{i} L", [S("§1", 100, title="a"), S("§2", 100, title="b")]) for i in range(5)])
    assert over[-1].day == 0 and over[-1].kind == "over" and over[-1].minutes > 0
    assert "do not fit in the two days" in schedule.render(over)
    with pytest.raises(ValueError, match="no row for lesson"):
        schedule.lessons_from("| Lesson | Teaching | Exercises |\n| --- | ---: | ---: |\n| 00 A | 1 | 2 |\n")


def test_the_guide_installs_this_project_and_names_its_editions():
    text = guide()
    assert 'pip install "social-api-toolkit[lab]"' in text
    assert not re.search(r'pip install "toolkit\[', text), "the registry's 'toolkit' is another project"


# ---------------------------------------------------------------------- the set-up check
def setup_check_code() -> str:
    text = guide()
    return re.search(r"<!-- setup-check -->\n```python\n(.*?)```", text, re.S).group(1)


def run_check(env: dict) -> str:
    done = subprocess.run([sys.executable, "-c", setup_check_code()], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MPLBACKEND": "agg", **env}, cwd=ROOT / "docs")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_setup_check_prints_what_the_guide_says_on_a_learners_machine():
    import toolkit

    env = {k: "" for k in os.environ if k.startswith(("TOOLKIT_CLASSROOM", "JUPYTERHUB"))}
    printed = run_check(env).strip()
    assert printed == f"toolkit {toolkit.__version__} · Busan · on this machine"
    quoted = re.search(r"`toolkit (\S+) · Busan · on this machine`", guide())
    released = re.search(r"^## (\d+\.\d+\.\d+)\b", (ROOT / "CHANGELOG.md").read_text("utf-8"), flags=re.M)
    assert quoted and released and quoted.group(1) == released.group(1), "the guide quotes the last release"


def test_the_setup_check_names_the_student_in_a_class():
    from toolkit.classroom import student_token
    from toolkit.sandbox.classroom import ClassroomServer

    secret = "a-class-secret-for-the-guide-0123456789"
    with ClassroomServer(secret, frozen=True) as server:
        printed = run_check({"TOOLKIT_CLASSROOM_URL": server.base_url, "JUPYTERHUB_USER": "ann",
                             "TOOLKIT_CLASSROOM_TOKEN": student_token(secret, "ann")})
        assert printed.strip().endswith("· Busan · ann")
        assert server.classroom.names() == ["ann"]          # the teacher's table lists her now


# ---------------------------------------------------------------------- what the guide quotes
def test_the_teachers_commands_it_quotes_exist():
    from toolkit.cli import CLASSROOM_ACTIONS

    quoted = set(re.findall(r"toolkit\s+classroom\s+([a-z]+)", guide()))
    assert {"progress", "incident", "incidents", "worlds", "reset", "revoke"} <= quoted
    assert quoted <= set(CLASSROOM_ACTIONS), quoted - set(CLASSROOM_ACTIONS)
    help_text = subprocess.run([sys.executable, "-m", "toolkit.cli", "classroom", "--help"], capture_output=True,
                               text=True, timeout=60).stdout
    for option in ("--clear", "--all", "--url", "--secret-file", "--hours"):
        assert option in help_text, option


QUOTED = {
    "requires a different Python": "pip",
    "is already in use": "toolkit",
    "No base map here: it needs toolkit's Jupyter extension": "toolkit",
    "Make this Notebook Trusted to load map": "branca",
    "is set but": "toolkit",
    "wrong token for student": "toolkit",
    "this browser's ticket or session is spent, expired or revoked": "toolkit",
    "could not reach the service": "toolkit",
    "your sandbox has drifted": "toolkit",
    "run this cell to log in": "toolkit",
}


@pytest.mark.parametrize("phrase", sorted(QUOTED))
def test_each_message_the_troubleshooting_quotes_is_said_by_the_code(phrase):
    import importlib.util

    assert phrase in " ".join(guide().split()), phrase
    where = Path(importlib.util.find_spec(QUOTED[phrase]).origin).parent
    found = any(phrase in path.read_text("utf-8", "replace") for path in where.rglob("*.py"))
    if not found and QUOTED[phrase] == "toolkit":       # the lab extension's static views are JavaScript
        found = any(phrase in path.read_text("utf-8", "replace") for path in where.rglob("*.js"))
    assert found, f"{phrase!r} is not said by {QUOTED[phrase]}"
