"""The teacher sees who is stuck: a kernel's self-check verdicts reach its world (``POST /sandbox/checks``), the
class sandbox keeps them per student with the last error their world answered, and ``Teacher.progress()`` /
``toolkit classroom progress`` show them. A check never waits long for that, and a client of the real service
tells nothing."""
from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx
import pandas as pd
import pytest

import toolkit
import toolkit.client
from toolkit import lessons
from toolkit.classroom import HEADER, ClassroomError, Teacher, classroom_header, error_kind, read_secret, \
    student_token

from .conftest import SECRET, student, token, world_http


def stored_exercises(n: int) -> list[tuple[str, object]]:
    """``n`` exercises whose right answer is a stored fact of the city (not computed from a world), with it: the
    toolkit's own rules say what is right, so the test follows the exercises as they change."""
    found = []
    for ex in lessons.exercises():
        if ex.live:
            continue
        right = lessons._right(lessons._rules()[ex.id])
        if right is not lessons._NONE and lessons._verdict(ex.id, right).ok:
            found.append((ex.id, right))
    assert len(found) >= n, found
    return found[:n]


def row_of(teacher: Teacher, name: str) -> pd.Series:
    return teacher.progress().set_index("student").loc[name]


def checks_of(server, name: str) -> list[dict]:
    with world_http(server, name) as http:
        return http.get("/sandbox/checks").json()["checks"]


# ---------------------------------------------------------------------- a kernel's checks reach its world
def test_three_answers_reach_the_students_row_only(room):
    teacher = Teacher(room.base_url, SECRET)
    bob = student(room, "pg-bob")
    bob.status.current()                                     # another student at work, checking nothing
    bob_before = row_of(teacher, "pg-bob")
    ann = student(room, "pg-ann")                            # the newest client: the learner's kernel
    assert toolkit.client.latest_client() is ann
    (e1, r1), (e2, r2), (e3, r3) = stored_exercises(3)

    verdicts = [lessons.check(e1, r1), lessons.check(e2, r2), lessons.check(e3, None)]
    assert [v.ok for v in verdicts] == [True, True, False]

    # the world was told the verdicts and nothing else: no answer, no feedback text
    kept = checks_of(room, "pg-ann")
    assert [(c["exercise"], c["ok"]) for c in kept] == [(e1, True), (e2, True), (e3, False)]
    assert all(set(c) == {"id", "exercise", "lesson", "ok", "at", "clock"} for c in kept)
    assert [c["lesson"] for c in kept] == [e.split(".")[0] for e in (e1, e2, e3)]
    frame = ann.sandbox.checks()
    assert list(frame.columns) == ["exercise", "lesson", "ok", "at", "clock"] and str(frame["at"].dt.tz) == "UTC"
    assert frame["ok"].tolist() == [True, True, False]

    row = row_of(teacher, "pg-ann")
    assert row["right"] == [e1, e2] and row["not_yet"] == [e3] and row["last_exercise"] == e3
    assert row["last_error"] == "" and pd.isna(row["last_error_at"])
    now = pd.Timestamp.now(tz="UTC")
    assert now - pd.Timedelta(minutes=2) < row["last_check"] <= now + pd.Timedelta(seconds=2)
    assert row["last_activity"].tzinfo is not None and row["last_activity"] >= row["last_check"] - pd.Timedelta(
        seconds=1)

    # the other student's row and world are as they were
    after = row_of(teacher, "pg-bob")
    assert after["right"] == [] and after["not_yet"] == [] and after["last_exercise"] == ""
    assert pd.isna(after["last_check"]) and after["last_activity"] == bob_before["last_activity"]
    assert checks_of(room, "pg-bob") == []

    # right at last: the exercise moves over; a walkthrough's own answer box tells nothing
    assert lessons.check(e3, r3).ok
    lessons.Answer(e1).check(r1)
    row = row_of(teacher, "pg-ann")
    assert row["right"] == sorted([e1, e2, e3], key=lambda e: (e.split(".")[0], int(e.split(".")[1])))
    assert row["not_yet"] == [] and row["last_exercise"] == e3 and len(checks_of(room, "pg-ann")) == 4

    # the class keeps them across the student's reset; the new world starts with none
    assert teacher.reset("pg-ann")["reset"] is True
    assert checks_of(room, "pg-ann") == []
    assert row_of(teacher, "pg-ann")["right"] == row["right"]
    ann.close()
    bob.close()


def test_the_last_error_is_the_kind_the_students_world_answered_never_its_message(room):
    teacher = Teacher(room.base_url, SECRET)
    with world_http(room, "pg-cy") as cy, world_http(room, "pg-dee") as dee:
        dee.get("/sandbox/clock")
        assert cy.get("/api/v2/user/me").status_code == 401                 # no user logged in: -401
        assert row_of(teacher, "pg-cy")["last_error"] == "InvalidTokenError -401"
        wrong = cy.post("/sandbox/quotas", json={"limit": 3})                # no api: -2
        assert wrong.status_code == 400 and wrong.json()["code"] == -2
        row = row_of(teacher, "pg-cy")
        assert row["last_error"] == "InvalidArgumentError -2"
        assert pd.Timestamp.now(tz="UTC") - row["last_error_at"] < pd.Timedelta(minutes=2)
        raw = {r["student"]: r for r in teacher.progress(raw=True)}
        assert raw["pg-cy"]["last_error"]["body"] == {"code": -2}            # the kind, not the message
        assert raw["pg-cy"]["last_error"]["method"] == "POST" and raw["pg-cy"]["last_error"]["path"] == \
            "/sandbox/quotas"
        # an OAuth error answer, by its error code
        bad = cy.post("/auth/oauth/token", data={"grant_type": "authorization_code", "code": "nope",
                                                 "client_id": "x", "redirect_uri": "http://localhost:8765/cb"})
        assert bad.status_code >= 400
        assert row_of(teacher, "pg-cy")["last_error"].startswith(("OAuthError ", "InvalidTokenError ",
                                                                  "InvalidArgumentError "))
        before = row_of(teacher, "pg-cy")["last_error"]
        # the class's own refusals are not the world's answers: a wrong token changes nothing
        refused = httpx.get(room.base_url + "/sandbox/clock", headers={HEADER: f"pg-cy:{token('pg-dee')}"})
        assert refused.status_code == 401 and row_of(teacher, "pg-cy")["last_error"] == before
        assert cy.get("/sandbox/clock").status_code == 200 and row_of(teacher, "pg-cy")["last_error"] == before
        assert row_of(teacher, "pg-dee")["last_error"] == ""


def test_error_kind_names_the_toolkits_exception_for_each_shape():
    assert error_kind(None) == "" and error_kind({}) == ""
    assert error_kind({"status": 400, "body": {"code": -10}}) == "QuotaExceeded -10"
    assert error_kind({"status": 403, "body": {"code": -402}}) == "ConsentRequiredError -402"
    assert error_kind({"status": 400, "body": {"error": "invalid_grant", "error_code": "KOE320"}}) == \
        "OAuthError KOE320"
    assert error_kind({"status": 400, "body": {"err": "invalid_request"}}) == "WebhookValidationError invalid_request"
    assert error_kind({"status": 500, "body": {}}) == "ApiError 500"


def test_a_bad_check_record_is_refused_with_a_clear_message(room):
    with world_http(room, "pg-eve") as eve:
        for body, phrase in (({"exercise": "00.1; DROP TABLE", "ok": True}, "exercise id"),
                             ({"exercise": "00.1", "ok": "yes"}, "true or false"),
                             ({"exercise": "00.1", "ok": True, "answer": "c"}, "unknown: answer"),
                             ({"ok": True}, "exercise id")):
            r = eve.post("/sandbox/checks", json=body)
            assert r.status_code == 400 and r.json()["code"] == -2 and phrase in r.json()["msg"], (body, r.text)
        assert eve.get("/sandbox/checks").json() == {"checks": []}


# ---------------------------------------------------------------------- a check never suffers for it
def test_a_client_of_the_real_service_tells_nothing():
    seen = []

    def handler(request):
        seen.append(request.url.path)
        return httpx.Response(500)

    tk = toolkit.connect("https://api.example.invalid", rest_api_key="k", transport=httpx.MockTransport(handler))
    try:
        assert toolkit.client.latest_client() is tk and tk.sandbox is None
        (eid, right), = stored_exercises(1)
        assert lessons.check(eid, right).ok and not lessons.check(eid, None).ok
        assert seen == []
    finally:
        tk.close()


@pytest.mark.parametrize("how", ["silent", "closed"])
def test_a_sandbox_that_does_not_answer_costs_a_check_at_most_a_second(monkeypatch, how):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    if how == "silent":
        listener.listen(8)               # connects, never answers
    else:
        listener.close()                 # refuses at once
    handle = toolkit.client.SandboxHandle(f"http://127.0.0.1:{port}")
    monkeypatch.setattr(toolkit.client, "latest_client", lambda: type("Kernel", (), {"sandbox": handle})())
    try:
        (eid, right), = stored_exercises(1)
        started = time.monotonic()
        result = lessons.check(eid, right)
        spent = time.monotonic() - started
        assert result.ok and str(result) == f"✓ {eid} — right."
        assert spent < handle.CHECK_TIMEOUT + 0.5, spent
    finally:
        handle.close()
        if how == "silent":
            listener.close()


# ---------------------------------------------------------------------- the command line
def test_command_line_progress_is_one_readable_table(tmp_path):
    from tests.bench.procs import _process

    secret_file = tmp_path / "class.secret"
    with _process([sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file",
                   str(secret_file)], "toolkit classroom") as (_, url):
        secret = read_secret(secret_file)
        teach = lambda *a: subprocess.run([sys.executable, "-m", "toolkit.cli", "classroom", *a, "--url", url,  # noqa: E731
                                           "--secret-file", str(secret_file)], capture_output=True, text=True,
                                          timeout=120)
        assert teach("progress").stdout.strip() == "no worlds yet"
        (e1, _), (e2, _), (e3, _) = stored_exercises(3)
        for name, verdicts in (("lee", [(e1, True), (e2, True), (e3, False)]), ("mo", [])):
            tk = toolkit.connect(classroom=url, student=name, token=student_token(secret, name))
            tk.status.current()
            for eid, ok in verdicts:
                tk.sandbox.note_check(eid, ok)
            tk.close()
        with httpx.Client(base_url=url, headers={HEADER: classroom_header("mo", student_token(secret, "mo"))}) as mo:
            mo.get("/api/v2/user/me")
        done = teach("progress")
        assert done.returncode == 0 and done.stderr == "", done
        lines = done.stdout.rstrip("\n").split("\n")
        assert len(lines) == 3, done.stdout                        # a header and one row per student
        header = lines[0].split()
        assert header[:3] == ["student", "last", "activity"] and "error" in header and "not" in header
        rows = {line.split()[0]: line for line in lines[1:]}
        assert set(rows) == {"lee", "mo"}
        assert f" {e3}×1 " in rows["lee"] + " " and f"{e3} ✗" in rows["lee"] and " 2 " in rows["lee"]
        assert "InvalidTokenError -401" in rows["mo"] and " 0 " in rows["mo"]
        for bad in ("NaN", "NaT", "None", "[", "Traceback"):
            assert bad not in done.stdout, bad
        assert secret.reveal() not in done.stdout and student_token(secret, "lee") not in done.stdout

        # posting an incident prints its id; --clear takes it back; incidents lists it cleared
        posted = teach("incident", "local_search_keyword", "RED", "--hours", "2")
        assert posted.returncode == 0 and "incident 1:" in posted.stdout and "--clear 1" in posted.stdout, posted
        assert teach("incident", "--clear").returncode == 2
        assert teach("worlds", "--clear", "1").returncode == 2                # --clear goes with incident only
        assert teach("incident", "--clear", "x").returncode == 2
        missing = teach("incident", "--clear", "7")
        assert missing.returncode == 1 and "no class incident" in missing.stderr, missing
        cleared = teach("incident", "--clear", "1")
        assert cleared.returncode == 0 and "incident 1 cleared" in cleared.stdout and "2 world(s)" in \
            cleared.stdout, cleared
        listed = teach("incidents")
        assert listed.returncode == 0 and "local_search_keyword" in listed.stdout and "False" in listed.stdout
        assert teach("incident", "--clear", "--all").stdout.strip() == "no incident to clear"


# ---------------------------------------------------------------------- clearing an incident
def status_of(http, api: str) -> str:
    rows = http.get("/status/api/health/current", params={"lang": "en"}).json()["statuses"]
    return next((i["status"] for r in rows for i in r.get("issues", []) if i["apiId"] == api), "GREEN")


def class_incident(http, note: str) -> list[dict]:
    return [i for i in http.get("/sandbox/status/incidents").json() if i["note"] == note]


def test_a_cleared_incident_ends_where_it_plays_and_is_not_played_again(room):
    teacher = Teacher(room.base_url, SECRET)
    with world_http(room, "ic-fay") as fay, world_http(room, "ic-gus") as gus:
        fay.get("/sandbox/clock")
        gus.post("/sandbox/clock", json={"advance": 7200})            # each world at its own clock
        a = teacher.incident("local_search_keyword", "RED", hours=2, started_minutes_ago=10, note="to clear")
        b = teacher.incident("navi_directions", "YELLOW", hours=2, note="to keep")
        assert a["id"] != b["id"] and a["worlds"] >= 2
        for http in (fay, gus):
            assert status_of(http, "local_search_keyword") == "RED" and status_of(http, "navi_directions") == "YELLOW"
        played = {name: class_incident(http, "to clear")[0] for name, http in (("fay", fay), ("gus", gus))}

        done = teacher.clear_incident(a["id"])
        assert done["cleared"] == [a["id"]] and done["worlds"] >= 2
        for name, http in (("fay", fay), ("gus", gus)):
            now = http.get("/sandbox/clock").json()["unix"]
            ended, = class_incident(http, "to clear")                  # still in the history, as long as it lasted
            assert ended["start"] == played[name]["start"] == now - 600 and ended["end"] == now, name
            assert status_of(http, "local_search_keyword") == "GREEN"  # back to normal from now
            assert status_of(http, "navi_directions") == "YELLOW"      # the other one plays on
        # not played again into a reset world, nor into a new one; the other one is
        fay.post("/sandbox/reset")
        assert class_incident(fay, "to clear") == [] and len(class_incident(fay, "to keep")) == 1
        assert teacher.reset("ic-gus")["reset"] is True
        assert class_incident(gus, "to clear") == [] and status_of(gus, "navi_directions") == "YELLOW"
        with world_http(room, "ic-hal") as hal:
            assert class_incident(hal, "to clear") == [] and len(class_incident(hal, "to keep")) == 1

    listed = teacher.incidents().set_index("id")
    assert listed.loc[a["id"], "replays"] == False and pd.notna(listed.loc[a["id"], "cleared"])  # noqa: E712
    assert listed.loc[b["id"], "replays"] == True and pd.isna(listed.loc[b["id"], "cleared"])   # noqa: E712
    assert str(listed["posted"].dt.tz) == "UTC"
    # clearing again changes nothing more; bad calls say what to do
    assert teacher.clear_incident(a["id"])["worlds"] == 0
    with pytest.raises(ClassroomError, match="no class incident"):
        teacher.clear_incident(10_000)
    with pytest.raises(ClassroomError, match="neither"):
        teacher.clear_incident()
    with pytest.raises(ClassroomError, match="both"):
        teacher.clear_incident(a["id"], all=True)
    with pytest.raises(ClassroomError, match="whole number"):
        teacher.clear_incident("1")
    everything = teacher.clear_incident(all=True)
    assert b["id"] in everything["cleared"] and a["id"] not in everything["cleared"]
    assert not teacher.incidents()["replays"].any()


def test_an_incident_not_begun_in_a_worlds_time_is_removed_there(room):
    teacher = Teacher(room.base_url, SECRET)
    with world_http(room, "ic-ivy") as ivy:
        ivy.get("/sandbox/clock")
        posted = teacher.incident("local_search_keyword", "MAINTENANCE", hours=1, note="set back")
        ivy.post("/sandbox/clock", json={"set": "2026-11-19T09:00:00Z"})     # the world's clock moved back
        assert len(class_incident(ivy, "set back")) == 1
        teacher.clear_incident(posted["id"])
        assert class_incident(ivy, "set back") == []


def test_cleared_incidents_stay_cleared_after_a_restart_with_db(tmp_path):
    from toolkit.sandbox.classroom import ClassroomServer

    db = str(tmp_path / "class.db")
    server = ClassroomServer(SECRET, db=db, frozen=True).start()
    try:
        with world_http(server, "jo") as jo:
            jo.get("/sandbox/clock")
        teacher = Teacher(server.base_url, SECRET)
        posted = teacher.incident("local_search_keyword", "RED", hours=3, started_minutes_ago=5, note="gone")
        teacher.clear_incident(posted["id"])
        tk = student(server, "jo")
        tk.sandbox.note_check("00.1", False)
        tk.close()
    finally:
        server.stop()
    server = ClassroomServer(SECRET, db=db, frozen=True).start()
    try:
        teacher = Teacher(server.base_url, SECRET)
        assert teacher.incidents().loc[0, "replays"] == False    # noqa: E712
        assert teacher.progress().set_index("student").loc["jo", "not_yet"] == ["00.1"]
        with world_http(server, "jo") as jo:
            assert len(class_incident(jo, "gone")) == 1          # the world kept it, ended
            jo.post("/sandbox/reset")
            assert class_incident(jo, "gone") == []
    finally:
        server.stop()


# ---------------------------------------------------------------------- attempts, and the kind of the learner's errors
def test_the_teacher_sees_attempts_per_exercise_and_the_kind_of_the_last_error_the_students_code_raised(room):
    """Issue 42: ``attempts`` counts each exercise's checks (right or not); ``last_raised`` is the class name of the
    last error the student's own code raised (sent by the kernel's cell hook), never a message; both are the
    student's alone and outlive a reset; the command line's table shows the tries of what is not right yet."""
    from toolkit.cli import progress_table

    teacher = Teacher(room.base_url, SECRET)
    fay, gus = student(room, "pg-fay"), student(room, "pg-gus")
    (e1, r1), (e2, _) = stored_exercises(2)
    for eid, ok in ((e1, False), (e1, False), (e1, True), (e2, False), (e2, False)):
        fay.sandbox.note_check(eid, ok)
    gus.status.current()
    assert fay.sandbox.note_raised("KeyError")["kind"] == "KeyError"
    fay.sandbox.note_raised("ZeroDivisionError")
    row = row_of(teacher, "pg-fay")
    assert row["attempts"] == {e1: 3, e2: 2} and list(row["attempts"]) == [e1, e2]
    assert row["right"] == [e1] and row["not_yet"] == [e2]
    assert row["last_raised"] == "ZeroDivisionError"
    assert pd.Timestamp.now(tz="UTC") - row["last_raised_at"] < pd.Timedelta(minutes=2)
    other = row_of(teacher, "pg-gus")
    assert other["attempts"] == {} and other["last_raised"] == "" and pd.isna(other["last_raised_at"])
    with world_http(room, "pg-fay") as http:                   # only a class name is taken
        for body in ({"kind": "KeyError: 'secret'"}, {"kind": "x" * 61}, {"kind": "KeyError", "text": "boom"},
                     {"kind": 3}):
            refused = http.post("/sandbox/raised", json=body)
            assert refused.status_code == 400 and refused.json()["code"] == -2, (body, refused.text)
        assert http.get("/sandbox/raised").json()["raised"][-1]["kind"] == "ZeroDivisionError"
    assert teacher.reset("pg-fay")["reset"] is True
    again = row_of(teacher, "pg-fay")
    assert again["attempts"] == {e1: 3, e2: 2} and again["last_raised"] == "ZeroDivisionError"
    table = progress_table(teacher.progress())
    line = next(ln for ln in table.splitlines() if ln.split()[:1] == ["pg-fay"])
    assert f"{e2}×2" in line and "ZeroDivisionError (" in line and "boom" not in table
    assert "raised" in table.splitlines()[0]
    fay.close()
    gus.close()
