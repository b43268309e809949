"""The self-check judges the learner's own world: an answer that depends on state is computed from the learner's
sandbox when ``toolkit.lessons.check`` runs (the client of the process's most recent ``toolkit.connect()``).

The walkthroughs' own cells run here, as a learner runs them (their sources, read from notebooks/): a solution run
twice, an extra request before an exercise, a teacher's incident in a class — each still ✓; a world where the
exercise has no answer says so and how to start again, never "too high"."""
from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import pandas as pd
import pytest

import toolkit
import toolkit.lessons as lessons
from tests.lesson_answers import RULES

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
HEAD = re.compile(r"\*\*Exercise (\d\d[ab]?\.\d+)\*\*")


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text("utf-8"))["cells"]


def _solution_index(cells: list[dict], eid: str) -> int:
    for i, cell in enumerate(cells):
        if "exercise" in cell["metadata"].get("tags", []) and HEAD.search("".join(cell["source"])).group(1) == eid:
            return i + 1
    raise AssertionError(f"no exercise {eid}")


class Walkthrough:
    """A walkthrough's code cells run in one namespace, as one kernel runs them, in a folder of their own (what
    they write, e.g. ``reports/``, goes there)."""

    def __init__(self, name: str, folder: Path):
        self.name, self.cells, self.ns = name, _cells(name), {"__name__": "__main__"}
        self.done, self.folder = 0, folder

    def run(self, i: int) -> None:
        cell = self.cells[i]
        if cell["cell_type"] != "code":
            return
        try:
            with contextlib.chdir(self.folder):
                exec(compile("".join(cell["source"]), f"{self.name} cell {i}", "exec"), self.ns)
        except Exception:
            if "raises-exception" not in cell["metadata"].get("tags", []):
                raise

    def run_to(self, eid: str) -> int:
        """Run every code cell before exercise ``eid``'s solution; its index."""
        j = _solution_index(self.cells, eid)
        for i in range(self.done, j):
            self.run(i)
        self.done = j
        return j

    def solve(self, eid: str) -> lessons.Feedback:
        """Run the solution of ``eid`` (again, if it ran before) and give its box's verdict."""
        j = _solution_index(self.cells, eid)
        self.run(j)
        self.done = max(self.done, j + 1)
        box = self.ns["box"]
        assert box.exercise == eid and box.feedback is not None
        return box.feedback


def _drift_said(feedback: lessons.Feedback) -> None:
    text = str(feedback)
    assert not feedback and "drifted" in text and "toolkit.connect(fresh=True)" in text, text
    assert "too high" not in text and "too low" not in text, text


# ---------------------------------------------------------------------- 01.5: a cell run twice
@pytest.fixture(scope="module")
def lesson01(tmp_path_factory):
    lesson = Walkthrough("01_login_and_consent", tmp_path_factory.mktemp("lesson01"))
    lesson.run_to("01.5")
    yield lesson
    lesson.ns["tk"].close()


def test_01_5_the_official_answer_run_twice_is_right_both_times_and_the_same(lesson01):
    first = lesson01.solve("01.5")
    answer = dict(lesson01.ns["answer"])
    assert first, str(first)
    assert answer["after"] == answer["before"] + 1
    again = lesson01.solve("01.5")                                # Shift-Enter twice
    assert again and str(again) == "✓ 01.5 — right.", str(again)
    assert lesson01.ns["answer"] == answer                       # the right answer after a re-run, too


def test_01_5_a_learners_own_count_run_twice_is_right(lesson01):
    """A learner's own code (no withdrawal first) run a second time counts 준호 in "before" too: right work in
    their world, told why the two counts agree."""
    tk = lesson01.ns["tk"]
    from toolkit.reports import consent_summary

    def email():
        row = consent_summary(tk.user.consent_report()).set_index("scope").loc["account_email"]
        return int(row["agreed"]), int(row["linked"])

    before, users = email()
    tk.sandbox.login(4100000002, scopes=["account_email"])      # he agreed already: nothing changes
    after, _ = email()
    assert before == after
    result = lessons.check("01.5", {"users": users, "before": before, "after": after})
    assert result and "already agreed on an earlier run" in str(result), str(result)
    wrong = lessons.check("01.5", {"users": users, "before": before + 1, "after": after})
    assert not wrong and "before: " in str(wrong) and "not it yet" in str(wrong), str(wrong)
    assert "too high" not in str(wrong)                       # no direction before the third try
    lessons._TRIES["01.5"] = lessons.HINT_FROM - 1
    third = lessons.check("01.5", {"users": users, "before": before + 1, "after": after})
    assert not third and "before: " in str(third) and "too high" in str(third), str(third)


def test_01_summary_rates_are_over_the_users_asked_and_a_scope_never_asked_has_none(lesson01):
    """Section 7's summary is built with the consent log: ``n`` is the users asked (the e-mail was asked of fewer
    than the linked users), a scope in no request has ``n`` 0 and no rate, and the text calls it never asked."""
    summary = lesson01.ns["summary"].set_index("scope")
    assert "events" in lesson01.ns
    email, chats = summary.loc["account_email"], summary.loc["talk_chats"]
    assert 0 < email["n"] < email["linked"] and email["rate_pct"] == round(100 * email["agreed"] / email["n"], 1)
    assert chats["n"] == 0 and chats["agreed"] == 0 and pd.isna(chats["rate_pct"])
    text = "".join("".join(c["source"]) for c in lesson01.cells)
    assert "Never asked" in text and "kind unknown" not in text and "every linked user (every row" not in text


def test_01_5_users_read_from_n_with_the_consent_log_is_told_n_is_the_users_asked(lesson01):
    """Section 7's summary (with ``events=``, read before 준호 agrees) has ``n`` = the users asked for the e-mail,
    fewer than the linked users: a learner who gives that ``n`` as the linked users is told which column counts
    them, not its value; the summary's ``linked`` is right."""
    tk = lesson01.ns["tk"]
    from toolkit.reports import consent_events_frame, consent_summary

    assert lesson01.solve("01.5")                                 # 준호 agrees to his e-mail
    report = tk.user.consent_report()
    row = consent_summary(report, events=consent_events_frame(tk.sandbox.consent_events())).set_index(
        "scope").loc["account_email"]
    asked, linked, agreed = int(row["n"]), int(row["linked"]), int(row["agreed"])
    # 준호 was not asked before he agreed (his login asked for no e-mail): section 7's n was one fewer; with the
    # sign-up declines in the log everyone else was asked, so n may reach the linked users once he agreed
    before = asked - 1 if asked == linked else asked
    assert linked == len(report) and agreed < asked <= linked and before < linked, (agreed, asked, linked)
    slip = lessons.check("01.5", {"users": before, "before": agreed - 1, "after": agreed})
    said = str(slip)
    assert not slip and "users asked" in said and "linked" in said, said
    assert str(linked) not in said.split("—", 1)[1], said
    assert lessons.check("01.5", {"users": linked, "before": agreed - 1, "after": agreed})


def test_answer_of_a_state_dependent_exercise_is_computed_from_the_world(lesson01, capsys):
    """answer() computes a live exercise's answer from the newest client's world: 01.4's facts are the learner's
    numbers now (a text of the learner's own has no single right form, so no check line follows)."""
    tk = lesson01.ns["tk"]
    report = tk.user.consent_report()
    lessons.answer("01.4")
    shown = capsys.readouterr().out
    assert shown.startswith(f"In your sandbox now: {len(report)} users are linked, "
                            f"{int(report['account_email'].sum())} of them share their e-mail"), shown


def test_01_4_a_text_is_judged_by_the_facts_of_the_world_as_it_is_now(lesson01):
    """The official text, written from the world as it is when the cell runs (after 01.5 too), is right; the same
    text with another e-mail count is not, and the feedback names the fact, not its value."""
    tk = lesson01.ns["tk"]
    assert lesson01.solve("01.4")
    text = lesson01.ns["answer"]
    email = int(tk.user.consent_report()["account_email"].sum())
    changed = text.replace(f"and {email} of them", f"and {email + 1} of them")
    assert changed != text
    result = lessons.check("01.4", changed)
    assert not result and "how many of them share their e-mail" in str(result), str(result)
    assert f"{email}" not in str(result).split("—", 1)[1]


def test_01_3_the_broken_cell_fails_and_the_fixed_one_is_right(lesson01):
    """The debug exercise: the prompt's cell, run as shown, is refused (state_mismatch); the fixed cell's value
    passes the check; 민지 stays the client's user (use=False)."""
    cell = next(c for c in lesson01.cells if "kind:debug" in c["metadata"].get("tags", []))
    broken = re.search(r"```python\n(.*?)```", "".join(cell["source"]), re.S).group(1)
    with pytest.raises(toolkit.errors.RedirectError, match="state_mismatch"):
        exec(compile(broken, "01.3 as shown", "exec"), dict(lesson01.ns))
    assert lesson01.solve("01.3")
    assert not lessons.check("01.3", lesson01.ns["tk"].user.me()["id"])         # 민지's id: the old token


def test_01_5_a_count_from_before_another_login_is_told_the_world_changed(lesson01):
    """After 준호 agreed, another user logs in and agrees to the e-mail: counts made at 준호's agreement are told that
    the world changed since (who, what, when) and how to go on, not "no change?"; the same counts made now are right."""
    tk = lesson01.ns["tk"]
    assert lesson01.solve("01.5")
    counted = dict(lesson01.ns["answer"])
    tk.sandbox.advance(minutes=7)
    tk.sandbox.login(4100000003, scopes=["profile", "account_email"])        # 서연 links (or is) and agrees
    stale = lessons.check("01.5", counted)
    said = str(stale)
    assert not stale and "your world changed since you counted" in said and "서연 (4100000003)" in said, said
    assert "account_email" in said and "toolkit.connect(fresh=True)" in said and "no change?" not in said, said
    again = lesson01.solve("01.5")
    assert again, str(again)
    tk.user.revoke_scopes(["account_email"], target_id=4100000003)           # leave 서연 as she was for the rest


def test_01_5_when_junho_is_no_longer_linked_the_feedback_says_to_reset(lesson01):
    tk = lesson01.ns["tk"]
    tk.user.unlink(target_id=4100000002)
    _drift_said(lessons.check("01.5", {"users": 11, "before": 7, "after": 8}))
    box = lessons.Answer("01.5")
    lessons.answer("01.5", box)
    _drift_said(box.feedback)


def test_01_section_7_run_alone_checks_its_answers_right(tmp_path):
    """A class that starts 01 at section 7 (the consent report): the set-up cell, then section 7 only. Ten users
    are linked (민지 never logged in), and 01.4 and 01.5 are judged in that world: the official answers are ✓."""
    lesson = Walkthrough("01_login_and_consent", tmp_path)
    setup = next(i for i, c in enumerate(lesson.cells) if c["cell_type"] == "code")
    section = next(i for i, c in enumerate(lesson.cells) if "".join(c["source"]).startswith("## 7."))
    lesson.run(setup)
    lesson.done = section
    try:
        lesson.run_to("01.4")
        assert len(lesson.ns["report"]) == 10
        assert lesson.solve("01.4"), lesson.ns["answer"]
        lesson.run_to("01.5")
        assert lesson.solve("01.5"), lesson.ns["answer"]
    finally:
        lesson.ns["tk"].close()


# ---------------------------------------------------------------------- 02.3: an extra POST
def test_02_3_after_an_extra_forged_post_the_learners_count_is_right(tmp_path):
    lesson = Walkthrough("02_webhooks_and_business", tmp_path)
    lesson.run_to("02.3")
    try:
        assert lesson.solve("02.3")
        counted = dict(lesson.ns["answer"])
        lesson.solve("02.2")                                      # the attacker's POST once more
        extra = lesson.solve("02.3")
        assert extra, str(extra)
        assert lesson.ns["answer"] == {"received": counted["received"] + 1, "verified": counted["verified"]}
        stale = lessons.check("02.3", counted)                  # the count from before the extra POST
        assert not stale and "received: " in str(stale)
        lesson.ns["inbox"].stop()                                 # the inbox ends (as with its kernel)
        gone = lessons.check("02.3", lesson.ns["answer"])
        assert not gone and "no inbox runs" in str(gone) and "toolkit.connect(fresh=True)" in str(gone)
    finally:
        lesson.ns["inbox"].stop()
        lesson.ns["tk"].close()


# ---------------------------------------------------------------------- 03a.1: a story more
def test_03a_1_after_a_story_more_the_learners_count_is_right(tmp_path):
    lesson = Walkthrough("03a_story_and_messenger", tmp_path)
    lesson.run_to("03a.1")
    tk = lesson.ns["tk"]
    try:
        assert lesson.solve("03a.1")
        counted = lesson.ns["answer"]
        rows = len(tk.story.mystories())                          # the broken cell's count: a row per image
        assert rows > counted
        slip = lessons.check("03a.1", rows)
        assert not slip and "a row per image" in str(slip), str(slip)
        tk.story.post_note("하나 더", permission="M")              # the learner posts a story of their own
        assert not lessons.check("03a.1", counted)
        again = lesson.solve("03a.1")
        assert again and lesson.ns["answer"] == counted + 1, str(again)
    finally:
        tk.close()


# ---------------------------------------------------------------------- 03b.2: a text with the world's facts
def test_03b_2_a_text_is_checked_for_the_facts_of_the_learners_own_file(tmp_path):
    lesson = Walkthrough("03b_channel_and_customer_files", tmp_path)
    lesson.run_to("03b.2")
    tk = lesson.ns["tk"]
    try:
        assert lesson.solve("03b.2")
        written = lesson.ns["answer"]
        without_why = written.split(" We sent")[0] + " More news next week, with the spring campaign and its results."
        missing = lessons.check("03b.2", without_why)
        assert not missing and "does not say why the others are not stored yet" in str(missing), str(missing)
        tk.channel.delete_users(lesson.ns["fid"], "_xcLqmC", ["4100000003"])   # one user fewer in the file
        stale = lessons.check("03b.2", written)
        said = str(stale)
        assert not stale and "how many users the file stores" in said and "what they spent together" in said, said
        assert not any(ch.isdigit() for ch in said.replace("03b.2", "")), said     # no value given away
        assert lesson.solve("03b.2")                               # the same text written from the world as it is
    finally:
        tk.close()


# ---------------------------------------------------------------------- 00.3: a teacher's incident in a class
def test_00_3_after_a_teachers_incident_in_a_class_the_learners_count_is_right(monkeypatch, tmp_path):
    from toolkit.classroom import Teacher
    from toolkit.sandbox.classroom import ClassroomServer

    from tests.classroom.conftest import SECRET, token

    with ClassroomServer(SECRET) as room:
        for key, value in {"TOOLKIT_CLASSROOM_URL": room.base_url, "TOOLKIT_CLASSROOM_TOKEN": token("ana"),
                           "JUPYTERHUB_USER": "ana"}.items():
            monkeypatch.setenv(key, value)
        lesson = Walkthrough("00_quickstart", tmp_path)
        lesson.run_to("00.3")
        tk = lesson.ns["tk"]
        try:
            assert tk.sandbox is not None and room.classroom.names() == ["ana"]    # the student's world
            assert lesson.solve("00.3")
            alone = lesson.ns["answer"]
            done = Teacher(room.base_url, SECRET).incident("navi_future_directions", "RED", hours=2,
                                                           started_minutes_ago=10)
            assert done["worlds"] == 1
            tk.sandbox.advance(minutes=5)                        # the status API refreshes every 5 minutes
            after = lesson.solve("00.3")
            assert after, str(after)
            assert lesson.ns["answer"] == alone + 1              # the teacher's outage is one product-day more
            assert not lessons.check("00.3", alone)
        finally:
            tk.close()


# ---------------------------------------------------------------------- 00.3: the step, and the world moving on
def test_00_3_without_the_clock_step_is_refused_and_a_count_from_an_older_week_is_told_the_world_moved(tmp_path):
    """00.3 asks to move the clock to the next day before counting: a count made on the outage's own day is refused
    whatever it is (the step is missing: the day is not whole), the solution's count is right, and once the clock has
    moved on so far that the week's window lost an outage, that count is told the world changed (not "too high")."""
    lesson = Walkthrough("00_quickstart", tmp_path)
    lesson.run_to("00.3")
    tk = lesson.ns["tk"]
    try:
        today = tk.status.weekly(days=7)                          # the learner skips the step
        skipped = int(today.days.loc[today.days["apiId"].isna(), "RED"].sum())
        for answer in (skipped, skipped + 1):
            refused = lessons.check("00.3", answer)
            said = str(refused)
            assert not refused and "the step is missing" in said and "tk.sandbox.advance(days=1)" in said, said
        assert lesson.solve("00.3")
        counted = lesson.ns["answer"]
        assert counted == skipped + 1
        tk.sandbox.advance(days=3)                                # the 15 November outage leaves the window
        moved = lessons.check("00.3", counted)
        said = str(moved)
        assert not moved and "your world changed since you counted" in said and "toolkit.connect(fresh=True)" in said
        assert "too high" not in said, said
        assert lesson.solve("00.3")                               # counting again in the world as it is now
    finally:
        tk.close()


# ---------------------------------------------------------------------- write exercises: the facts of the world
def test_00_2_a_text_for_a_manager_is_checked_against_the_week_the_world_has_now(tmp_path):
    """00.2's text must hold the week's availability and the least available product as the learner's sandbox has
    them when ``check`` runs: after an outage of 10 hours yesterday the text written before is told which fact is
    stale (never its value), and the solution run again writes a text that passes."""
    lesson = Walkthrough("00_quickstart", tmp_path)
    lesson.run_to("00.2")
    tk = lesson.ns["tk"]
    try:
        assert lesson.solve("00.2")
        before = lesson.ns["answer"]
        assert "UTC" in before and "Local" in before
        assert not lessons.check("00.2", before.replace("UTC", "KST"))            # the time zone is a fact too
        tk.sandbox.incident("talk_sharing_upload_images", "RED", hours=10, started_minutes_ago=60 * 20)  # yesterday
        stale = lessons.check("00.2", before)
        text = str(stale)
        assert not stale and "the products' availability over the week" in text, text
        assert "which product was the least available" in text, text   # Message now, not Local
        assert "99.72" not in text and "Message" not in text
        lesson.run(next(i for i, c in enumerate(lesson.cells)                  # the weekly cell, run again
                        if "weekly = tk.status.weekly(days=7)" in "".join(c["source"])))
        assert lesson.solve("00.2"), "the solution run again in the changed world"
        assert "Message" in lesson.ns["answer"]
    finally:
        tk.close()


def test_07_4_the_consent_sentences_follow_the_learners_own_logins(tmp_path):
    """07.4's facts (linked users, the e-mail rate of the users asked) come from the learner's world: a user who
    logs in and agrees to the e-mail changes both, and the text written before is told so."""
    lesson = Walkthrough("07_manager_report", tmp_path)
    lesson.run_to("07.4")
    tk = lesson.ns["tk"]
    try:
        assert lesson.solve("07.4")
        before = lesson.ns["answer"]
        assert lessons.check("07.4", before)
        tk.sandbox.login(4100000001, scopes=["profile", "openid", "account_email"])   # 민지 links and agrees
        stale = lessons.check("07.4", before)
        assert not stale and "how many users are linked" in str(stale) and "share of the users asked" in str(stale)
        lesson.run(next(i for i, c in enumerate(lesson.cells)                  # the summary cell, run again
                        if "summary = consent_summary(" in "".join(c["source"])))
        assert lesson.solve("07.4"), str(lessons.check("07.4", lesson.ns["answer"]))
        assert lesson.ns["answer"].startswith("10 users are linked")
        too_short = lessons.check("07.4", "Ten users.")
        assert not too_short and "write at least" in str(too_short)
    finally:
        tk.close()


# ---------------------------------------------------------------------- city facts: ties and exact values
@pytest.fixture(scope="module")
def city():
    tk = toolkit.connect(fresh=True)
    yield tk
    tk.close()


def test_06_3_the_landmark_groups_hold_what_the_lesson_says(city):
    """06's caveats are the data's: SC4 is the 117 landmark schools (강서구 has none of them), PS3 is 0 in five
    districts, MT1 holds the registry's 슈퍼마켓 (small grocery stores)."""
    words = {"SC4": "학교", "PS3": "어린이집", "MT1": "대형마트"}

    def count(district, code):
        found = city.local.keyword(f"{district} {words[code]}", category_group_code=code,
                                   rect=toolkit.local.BUSAN_RECT, size=1)
        return found.attrs["meta"]["total_count"]

    districts = ["중구", "서구", "동구", "영도구", "부산진구", "동래구", "남구", "북구", "해운대구", "사하구", "금정구",
                 "강서구", "연제구", "수영구", "사상구", "기장군"]
    schools = {d: count(d, "SC4") for d in districts}
    assert sum(schools.values()) == 117 and schools["강서구"] == 0, schools
    assert sum(count(d, "PS3") == 0 for d in districts) == 5
    groceries = city.local.keyword("부산진구 대형마트", category_group_code="MT1", rect=toolkit.local.BUSAN_RECT, size=15)
    assert groceries["category_name"].str.contains("슈퍼마켓").all(), groceries["category_name"].unique()


def test_05_4_the_text_is_checked_against_the_learners_clock(tmp_path):
    """05.4 is a text for a reader with the route's numbers: computed from the learner's sandbox when checked, so
    a clock moved on (other traffic) makes the 18:00 text stale, and the text of the new time right."""
    lesson = Walkthrough("05_directions", tmp_path)
    lesson.run_to("05.4")
    try:
        assert lesson.solve("05.4")
        evening = lesson.ns["answer"]
        tk = lesson.ns["tk"]
        tk.sandbox.advance(hours=10)                              # 04:00 KST the next day: the roads are empty
        stale = lessons.check("05.4", evening)
        said = str(stale)                                         # drift named as drift, with the way back
        assert not stale and "your world changed since you computed the trip" in said, said
        assert "04:00 KST" in said and "not 18:00" in said and "lesson's first cell" in said, said
        assert "does not say" not in said, said
        night = lesson.solve("05.4")
        assert night and lesson.ns["answer"] != evening, str(night)
        vague = lessons.check("05.4", re.sub(r"The time is .*$", "The time is what the roads give at that hour.",
                                             lesson.ns["answer"]))
        assert not vague and "where the time comes from" in str(vague), str(vague)
        wrong = lessons.check("05.4", evening.replace("km", "minutes", 1))  # not the 18:00 trip either: not drift
        assert not wrong and "your world changed" not in str(wrong), str(wrong)
    finally:
        lesson.ns["tk"].close()


def test_05_4_the_trip_stored_for_the_lessons_hour_is_what_the_sandbox_answers_then():
    """The drift feedback of 05.4 compares a text with the trip at the lesson's frozen clock (the service answers no
    trip in the past); those stored values must be what a fresh sandbox at that clock answers."""
    stored = RULES["05.4"]["lesson"]
    with toolkit.connect(fresh=True) as tk:
        tk.sandbox.freeze(pd.Timestamp(stored["unix"], unit="s", tz="UTC").isoformat())
        ends = []
        for name in ("부산대학교", "자갈치시장"):
            top = tk.local.keyword(name, rect=toolkit.local.BUSAN_RECT, size=1).iloc[0]
            ends.append((float(top["x"]), float(top["y"]), top["place_name"]))
        trip = tk.navi.directions(*ends).summary.loc[0]
    assert (trip["distance"] / 1000, trip["duration"] / 60, int(trip["fare.taxi"])) == pytest.approx(
        (stored["km"], stored["minutes"], stored["fare"]))


def test_06_2_the_exact_ratios_and_the_rounded_table_are_both_right(city):
    districts = ["중구", "서구", "동구", "영도구", "부산진구", "동래구", "남구", "북구", "해운대구", "사하구", "금정구",
                 "강서구", "연제구", "수영구", "사상구", "기장군"]
    names = {"FD6": "음식점", "CE7": "카페"}

    def count(district, code):
        found = city.local.keyword(f"{district} {names[code]}", category_group_code=code, rect=toolkit.local.BUSAN_RECT,
                                   size=1)
        return found.attrs["meta"]["total_count"]

    import pandas as pd

    exact = pd.Series({d: 100 * count(d, "CE7") / count(d, "FD6") for d in districts})
    shown = exact.round(1)
    exact_answer = {"most": sorted(exact.index[exact == exact.max()]), "fewest": exact.idxmin()}
    shown_answer = {"most": sorted(shown.index[shown == shown.max()]), "fewest": shown.idxmin()}
    assert exact_answer != shown_answer          # the display's rounding makes a tie the exact values do not have
    assert lessons.check("06.2", exact_answer), exact_answer
    assert lessons.check("06.2", shown_answer), shown_answer
    assert not lessons.check("06.2", {"most": sorted(exact.nlargest(3).index), "fewest": exact.idxmin()})


# ---------------------------------------------------------------------- answer() for every predict exercise
PREDICTS = sorted(eid for eid, rule in RULES.items() if rule.get("predict"))


@pytest.mark.parametrize("eid", PREDICTS)
def test_answer_shows_a_predict_exercises_letter_and_why_in_a_closed_box(eid, capsys):
    lessons.answer(eid)
    shown = capsys.readouterr().out
    letter = RULES[eid]["v"]
    assert shown.startswith(f"({letter}): ") and shown.rstrip().endswith(f"✓ {eid} — right."), shown
    box = lessons.Answer(eid)
    lessons.answer(eid, box)
    html = box._repr_html_()
    assert html.startswith('<details class="toolkit-answer"><summary>') and f"({letter}): " in html
    assert " open" not in html.split(">", 1)[0]
    capsys.readouterr()


def test_answer_refuses_an_unknown_id_or_another_exercises_box():
    from toolkit.errors import ParameterError

    with pytest.raises(ParameterError, match="did you mean '05.2'"):
        lessons.answer("05.20")
    with pytest.raises(ParameterError, match="the box of exercise '05.2'"):
        lessons.answer("05.2", lessons.Answer("05.1"))
