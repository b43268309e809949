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
    assert [name.split()[0] for name, _ in lessons] == list(schedule.LESSONS)
    rows = schedule.plan(lessons)
    for name, minutes in lessons:
        assert sum(r.minutes for r in rows if r.what.startswith(name)) == minutes, name
    for day in (1, 2):
        mine = [r for r in rows if r.day == day]
        ends = [schedule._minutes(r.start) + r.minutes for r in mine]
        assert max(ends) <= schedule._minutes(schedule.DAYS[day - 1]["end"]) + schedule.DAY_OVERRUN, day
        assert all(schedule._minutes(a.start) + a.minutes == schedule._minutes(b.start) for a, b in zip(mine, mine[1:]))
        assert sum(r.what in ("Break", "Lunch") for r in mine) == 3, day
    assert not [r for r in rows if r.day == 0], "the lessons of the table no longer fit two days"


def test_a_break_moves_to_a_lesson_boundary_near_it_or_splits_the_lesson():
    near = schedule.plan([("00 A", 80), ("01 B", 60)])                 # 00 ends 10:40, 10 min after 10:30
    assert [(r.start, r.what) for r in near[1:3]] == [("09:20", "00 A"), ("10:40", "Break")]
    far = schedule.plan([("00 A", 150)])                               # 00 would end 11:50: split at 10:30
    assert [(r.start, r.what, r.minutes) for r in far[1:4]] == [
        ("09:20", "00 A (to a section boundary)", 70), ("10:30", "Break", 15), ("10:45", "00 A (continued)", 80)]


def test_a_lesson_that_does_not_fit_a_day_starts_the_next_and_too_much_is_said():
    # day 1 holds 400 minutes of lessons after the set-up check (two breaks and lunch); 00 A leaves 20 of them
    rows = schedule.plan([("00 A", 380), ("01 B", 60)])
    first = [r for r in rows if r.day == 1]
    assert first[-1].what.startswith("Buffer") and all(not r.what.startswith("01 B") for r in first)
    assert [r for r in rows if r.day == 2][0].what == "01 B"
    # with DAY_SPLIT minutes or more left, the next lesson begins the same day and goes on the next morning
    rows = schedule.plan([("00 A", 400 - schedule.DAY_SPLIT), ("01 B", 60)])
    assert [r.what for r in rows if r.day == 1][-1] == "01 B (to a section boundary)"
    assert [r.what for r in rows if r.day == 2][0] == "01 B (continued)"
    # a lesson that would leave only a few minutes for the morning is finished the same day
    rows = schedule.plan([("00 A", 400 - 50), ("01 B", 50 + schedule.DAY_OVERRUN)])
    assert [(r.what, r.minutes) for r in rows if r.day == 1][-1] == ("01 B", 50 + schedule.DAY_OVERRUN)
    over = schedule.plan([(f"0{i} L", 200) for i in range(5)])
    taught = sum(r.minutes for r in over if r.day and r.what.startswith("0") and " L" in r.what)
    assert over[-1].day == 0 and over[-1].minutes == 5 * 200 - taught > 0
    assert any(r.what.endswith("(continued, to a section boundary)") for r in over)
    assert "do not fit in the two days" in schedule.render(over)
    with pytest.raises(ValueError, match="no row for lesson"):
        schedule.lessons_from("| Lesson | Teaching | Exercises |\n| --- | ---: | ---: |\n| 00 A | 1 | 2 |\n")


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
    assert "`toolkit 0.1.0 · Busan · on this machine`" in guide()


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
