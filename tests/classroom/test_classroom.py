"""The class sandbox (toolkit classroom): one world per student, isolated; tokens; the teacher; persistence;
students' connect() from the environment; the command line."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import toolkit
from toolkit.classroom import (COOKIE, HEADER, QUERY, TEACHER_HEADER, TICKET, ClassroomError, Teacher, check_name,
                               classroom_header, from_env, read_secret, student_token, teacher_token)
from toolkit.errors import ConfigurationError, ToolkitError
from toolkit.sandbox.classroom import ClassroomServer

from .conftest import SECRET, digest, student, token, world_http

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------- tokens and the secret file
def test_student_tokens_are_hmac_of_the_name_under_the_secret():
    import hashlib
    import hmac

    t = student_token(SECRET, "ann")
    assert t == hmac.new(SECRET.encode(), b"student:ann", hashlib.sha256).hexdigest()[:32]
    assert re.fullmatch(r"[0-9a-f]{32}", t) and "ann" not in t
    assert t != student_token(SECRET, "bob") and t != student_token(SECRET + "x", "ann")
    assert teacher_token(SECRET) not in (t, student_token(SECRET, "teacher"))
    with pytest.raises(ClassroomError):
        student_token(SECRET, "a:b")
    with pytest.raises(ClassroomError):
        student_token("", "ann")
    assert check_name("ann.lee@school") == "ann.lee@school" and check_name("지민") == "지민"


def test_secret_file_is_made_once_private_and_masked(tmp_path):
    f = tmp_path / "class.secret"
    with pytest.raises(ClassroomError, match="no class secret file"):
        read_secret(f)
    s = read_secret(f, create=True)
    assert f.stat().st_mode & 0o777 == 0o600
    assert read_secret(f, create=True) == s and len(s.reveal()) >= 32
    assert s.reveal() not in repr(s) and s.reveal() not in str(s)
    assert read_secret(tmp_path / "b.secret", create=True) != s        # a new class, a new secret
    (tmp_path / "short").write_text("abc")
    with pytest.raises(ClassroomError, match="shorter than 16"):
        read_secret(tmp_path / "short")
    teacher = Teacher("http://127.0.0.1:9", s)
    assert s.reveal() not in repr(teacher) and teacher_token(s) not in repr(vars(teacher))


# ---------------------------------------------------------------------- the gate
def test_missing_or_wrong_token_is_a_clear_401(room):
    with httpx.Client(base_url=room.base_url, timeout=30) as http:
        r = http.get("/local/v2/local/search/address.json", params={"query": "전포동"})
        assert r.status_code == 401 and r.json()["code"] == -401
        msg = r.json()["msg"]
        for needed in ("TOOLKIT_CLASSROOM_URL", "TOOLKIT_CLASSROOM_TOKEN", "JUPYTERHUB_USER", HEADER):
            assert needed in msg
        for value in (f"ann:{token('bob')}", "ann:", "ann", f"{token('ann')}", f"a b:{token('ann')}",
                      f"ann:{token('ann')[:-1]}", "\u00e9:x"):
            r = http.get("/sandbox/clock", headers={HEADER: value.encode("utf-8")})
            assert r.status_code == 401 and r.json()["code"] == -401, value
            assert token("ann") not in r.text and token("bob") not in r.text
        # the teacher's calls need the teacher's token, a student's is refused
        for headers in ({}, {TEACHER_HEADER: token("ann")}, {HEADER: classroom_header("ann", token("ann"))}):
            assert http.get("/classroom/worlds", headers=headers).status_code == 401
        # anonymous callers learn only that the class sandbox is up; the tiles and fonts need a student too
        assert http.get("/classroom/health").json() == {"ok": True}
        teacher = {TEACHER_HEADER: teacher_token(SECRET)}
        assert set(http.get("/classroom/health", headers=teacher).json()) == {"ok", "worlds", "ready"}
        for path in ("/sandbox/tiles/12/3493/1613.png", "/sandbox/fonts/NanumGothic.ttf"):
            assert http.get(path).status_code == 401, path
        tile = http.get("/sandbox/tiles/12/3493/1613.png", headers={HEADER: classroom_header("ann", token("ann"))})
        assert tile.status_code == 200 and tile.headers["content-type"] == "image/png"
    with pytest.raises(ToolkitError, match="wrong token for student 'ann'"):
        toolkit.connect(classroom=room.base_url, student="ann", token=token("bob"))


def test_a_browser_binds_with_a_ticket_then_a_session_cookie_never_the_token(room):
    with world_http(room, "carol") as kernel:
        made = kernel.post("/classroom/ticket").json()
    with httpx.Client(base_url=room.base_url, timeout=30) as browser:
        # a link carrying the token itself binds nothing (and the parameter never reaches the world)
        r = browser.get("/sandbox/clock", params={QUERY: classroom_header("carol", token("carol"))})
        assert r.status_code == 401 and "set-cookie" not in r.headers
        r = browser.get("/sandbox/clock", params={TICKET: made["ticket"]})
        cookie = r.headers["set-cookie"]
        assert r.status_code == 200 and cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
        assert token("carol") not in cookie and "carol" not in cookie and "Max-Age=" in cookie
        assert browser.get("/sandbox/clock").status_code == 200           # the session cookie now
        assert "carol" in room.classroom.names()
        # the header wins over the cookie: another student's header reaches only their world
        with world_http(room, "dave") as dave:
            dave.cookies.update(browser.cookies)
            dave.post("/sandbox/clock", json={"advance": 3600})
        assert browser.get("/sandbox/clock").json()["unix"] + 3600 == room.classroom.world("dave").sandbox.clock.unix()
        # a forged session id is refused, with a message saying what to do
        browser.cookies.set(COOKIE, "not-a-session")
        r = browser.get("/sandbox/clock")
        assert r.status_code == 401 and "login link" in r.json()["msg"]


# ---------------------------------------------------------------------- isolation of two worlds
def test_two_students_worlds_are_isolated(room):
    ann, bob = student(room, "ann", fresh=True), student(room, "bob", fresh=True)
    try:
        assert ann.sandbox.student == "ann" and "ann" in repr(ann.sandbox)
        assert ann.config.credentials.rest_api_key == bob.config.credentials.rest_api_key   # same seed, same keys
        # stories
        ann.login_as(4100000001, scopes=["profile", "friends", "talk_message"])
        bob.login_as(4100000001, scopes=["profile"])
        story = ann.story.post_note("ann's own story", permission="F")
        assert story in set(ann.story.mystories()["id"])
        assert story not in set(bob.story.mystories()["id"]) if len(bob.story.mystories()) else True
        # consents: the same demo user consented differently in each world
        agreed = lambda tk: set(tk.user.scopes().query("agreed")["id"])  # noqa: E731
        assert "talk_message" in agreed(ann) and "talk_message" not in agreed(bob)
        # a token of one world is unknown in the other
        with httpx.Client(base_url=room.base_url, timeout=30) as http:
            r = http.get("/api/v2/user/me", headers={HEADER: classroom_header("bob", token("bob")),
                                                     "Authorization": f"Bearer {ann.access_token.reveal()}"})
            assert r.status_code == 401 and r.json()["code"] == -401
        # clock
        before = bob.sandbox.clock()["unix"]
        ann.sandbox.advance(hours=25)
        assert ann.sandbox.clock()["unix"] >= before + 25 * 3600 and bob.sandbox.clock()["unix"] == before
        # incidents
        seeded = bob.sandbox.incidents()
        posted = ann.sandbox.incident("local_search_keyword", "RED", hours=2, note="ann's")
        assert ann.sandbox.incidents()[-1]["note"] == "ann's" and bob.sandbox.incidents() == seeded
        assert posted["start"] >= before + 25 * 3600
        # a fresh start of one world leaves the other
        bob_state = digest(room, "bob")
        again = student(room, "ann", fresh=True)
        assert again.sandbox.clock()["unix"] == before
        assert again.sandbox.incidents() == seeded
        assert digest(room, "bob") == bob_state
        assert bob.user.me()["id"] == 4100000001                    # bob's token still good
        with pytest.raises(ToolkitError):
            ann.user.me()                                            # ann's was in the world thrown away
        again.close()
    finally:
        ann.close()
        bob.close()


def test_control_calls_and_fresh_act_on_the_callers_world_only(room):
    with world_http(room, "eve") as eve, world_http(room, "fay") as fay:
        fay.post("/sandbox/quotas", json={"api": "local_search_address", "limit": 1})
        fay_state = digest(room, "fay")
        for method, path, body in [("POST", "/sandbox/clock", {"advance": 7200}), ("POST", "/sandbox/reset", None),
                                   ("POST", "/sandbox/quotas", {"api": "local_search_address", "limit": None}),
                                   ("POST", "/sandbox/apps", {"name": "Eve's app"}),
                                   ("POST", "/sandbox/webhooks", {"unlink": "http://127.0.0.1:9/u"})]:
            assert eve.request(method, path, json=body).status_code < 500
        assert digest(room, "fay") == fay_state
        app = fay.get("/sandbox/config").json()["app"]
        ak = {"Authorization": f"ServiceAK {app['rest_api_key']}"}
        assert fay.get("/local/v2/local/search/address.json", params={"query": "전포동"}, headers=ak).status_code == 200
        assert fay.get("/local/v2/local/search/address.json", params={"query": "전포동"},
                       headers=ak).json()["code"] == -10                       # fay's quota is still 1


# ---------------------------------------------------------------------- the teacher
def test_teacher_lists_resets_and_posts_an_incident(room):
    teacher = Teacher(room.base_url, SECRET)
    with world_http(room, "gus") as gus, world_http(room, "hal") as hal:
        for _ in range(3):
            gus.get("/sandbox/clock")
        hal.post("/sandbox/clock", json={"advance": 3600})
        frame = teacher.worlds()
        assert list(frame.columns) == ["student", "created", "last_activity", "calls", "loaded"]
        row = frame.set_index("student").loc["gus"]
        assert row["calls"] >= 3 and row["last_activity"] >= row["created"]
        assert str(frame["created"].dt.tz) == "UTC"
        # reset one world
        moved = hal.get("/sandbox/clock").json()["unix"]
        gus_state = digest(room, "gus")
        assert teacher.reset("hal") == {"student": "hal", "reset": True}
        assert hal.get("/sandbox/clock").json()["unix"] == moved - 3600
        assert digest(room, "gus") == gus_state
        assert teacher.reset("nobody") == {"student": "nobody", "reset": False}
        # an incident in every world, and in a world made or reset afterwards
        done = teacher.incident("local_search_keyword", "RED", hours=1, note="for the status lesson")
        assert done["worlds"] == len(room.classroom.names())
        apis = lambda http: [i["api"] for i in http.get("/sandbox/status/incidents").json()]  # noqa: E731
        assert "local_search_keyword" in apis(gus) and "local_search_keyword" in apis(hal)
        hal.post("/sandbox/reset")
        assert "local_search_keyword" in apis(hal)
        with world_http(room, "ivy") as ivy:
            assert "local_search_keyword" in apis(ivy)
            current = ivy.get("/status/api/health/current", params={"lang": "en"})
            assert current.status_code == 200
        with pytest.raises(ClassroomError, match="unknown API id"):
            teacher.incident("no_such_api", "RED")
        with pytest.raises(ClassroomError, match="HTTP 401"):
            Teacher(room.base_url, "another-secret-0123456789").worlds()


# ---------------------------------------------------------------------- persistence
def test_worlds_survive_a_restart_with_db(tmp_path):
    db = str(tmp_path / "class.db")
    server = ClassroomServer(SECRET, db=db, frozen=True).start()
    try:
        tk = student(server, "ann", fresh=True).login_as(4100000001, scopes=["profile", "talk_message"])
        story = tk.story.post_note("kept across a restart", permission="F")
        tk.sandbox.advance(hours=3)
        unix = tk.sandbox.clock()["unix"]
        tk.close()
        with world_http(server, "bob") as bob:
            bob.get("/sandbox/clock")
    finally:
        server.stop()
    assert sorted(p.name.split(".")[0] for p in (tmp_path / "class.db.worlds").glob("*.sqlite3")) == ["ann", "bob"]
    server = ClassroomServer(SECRET, db=db, frozen=True).start()
    try:
        assert set(Teacher(server.base_url, SECRET).worlds(raw=True)[0]) >= {"student", "calls"}
        assert [w["student"] for w in Teacher(server.base_url, SECRET).worlds(raw=True)] == ["ann", "bob"]
        tk = student(server, "ann")
        assert tk.sandbox.clock()["unix"] == unix
        tk.login_as(4100000001, scopes=["profile", "talk_message"])
        assert story in set(tk.story.mystories()["id"])
        again = student(server, "ann", fresh=True)            # fresh=True works on a persisted world too
        assert again.sandbox.clock()["unix"] == unix - 3 * 3600
        assert len(list((tmp_path / "class.db.worlds").glob("ann.*.sqlite3"))) == 1
        tk.close()
        again.close()
    finally:
        server.stop()


# ---------------------------------------------------------------------- students' connect()
def test_connect_from_the_environment(room):
    env = {"TOOLKIT_CLASSROOM_URL": room.base_url, "TOOLKIT_CLASSROOM_TOKEN": token("jo"), "JUPYTERHUB_USER": "jo"}
    tk = toolkit.connect(env=env, fresh=True)
    assert tk.sandbox.student == "jo" and tk.sandbox.server is None
    assert tk.status.current() is not None and "jo" in room.classroom.names()
    assert token("jo") not in repr(tk) and token("jo") not in repr(tk.sandbox)
    tk.close()
    assert from_env({}) is None
    with pytest.raises(ConfigurationError, match="TOOLKIT_CLASSROOM_TOKEN"):
        toolkit.connect(env={"TOOLKIT_CLASSROOM_URL": room.base_url, "JUPYTERHUB_USER": "jo"})
    with pytest.raises(ConfigurationError, match="together"):
        toolkit.connect(classroom=room.base_url, student="jo")
    with pytest.raises(ConfigurationError, match="drop shared="):
        toolkit.connect(classroom=room.base_url, student="jo", token=token("jo"), shared=True)


def test_a_kernel_bound_to_a_class_imports_no_sandbox(room):
    code = ("import sys, toolkit\n"
            "tk = toolkit.connect(fresh=True)\n"
            "tk.local.keyword('카페', x=129.0592, y=35.1579, radius=500)\n"
            "tk.login('minji@sandbox.test', scopes=['profile', 'openid'])\n"
            "assert tk.user.me()['id']\n"
            "print(sorted(m for m in sys.modules if m.startswith('toolkit.sandbox')))\n")
    env = {**os.environ, "TOOLKIT_CLASSROOM_URL": room.base_url, "TOOLKIT_CLASSROOM_TOKEN": token("kim"),
           "JUPYTERHUB_USER": "kim"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"
    assert "kim" in room.classroom.names()


# ---------------------------------------------------------------------- the command line
def test_command_line_serves_and_teaches(tmp_path):
    secret_file = tmp_path / "class.secret"
    tool = [sys.executable, "-m", "toolkit.cli", "classroom"]
    proc = subprocess.Popen([*tool, "--secret-file", str(secret_file)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(5)]
        url = re.search(r"on (http://127\.0\.0\.1:\d+)", lines[0]).group(1)
        rest = "".join(lines) + "".join(proc.stdout.readline() for _ in range(5))
        assert "TOOLKIT_CLASSROOM_URL" in rest and "TOOLKIT_CLASSROOM_TOKEN" in rest and "JUPYTERHUB_USER" in rest
        secret = read_secret(secret_file)
        assert secret_file.stat().st_mode & 0o777 == 0o600 and secret.reveal() not in rest
        printed = subprocess.run([*tool, "token", "lee", "--secret-file", str(secret_file)], capture_output=True,
                                 text=True, check=True).stdout.strip()
        assert printed == student_token(secret, "lee")
        tk = toolkit.connect(classroom=url, student="lee", token=printed)
        tk.sandbox.advance(hours=1)
        teach = lambda *a: subprocess.run([*tool, *a, "--url", url, "--secret-file", str(secret_file)],  # noqa: E731
                                          capture_output=True, text=True, timeout=60)
        listed = teach("worlds")
        assert listed.returncode == 0 and re.search(r"^\s*lee\s", listed.stdout, re.M), listed
        done = teach("incident", "local_search_keyword", "YELLOW", "--hours", "2")
        assert done.returncode == 0 and "1 world" in done.stdout, done
        assert "local_search_keyword" in [i["api"] for i in tk.sandbox.incidents()]
        assert teach("reset", "lee").stdout.strip() == "lee: world reset"
        bad = teach("reset", "a b")
        assert bad.returncode == 1 and "not 1-64" in bad.stderr
        assert subprocess.run([*tool, "nonsense", "--secret-file", str(secret_file)],
                              capture_output=True, text=True).returncode == 2
        tk.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "stopped" in out
