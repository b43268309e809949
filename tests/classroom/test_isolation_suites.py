"""Isolation as tests: the hostile-input suite (``tests/hostile``) and the access-control suite of several apps
(``tests/test_several_apps.py``) run again, unchanged, against one student's world of a class sandbox, while a
second world (the victim's, with a logged-in user, a story, consents, a moved clock and a quota) watches: after
every test its whole store is the same and not one request reached it (its call count did not move), and no
answer was a 5xx (the suites check that themselves). Cross-world attempts (another world's tokens, cookies and
query parameters next to one's own header, hostile classroom headers) are tried on top."""
from __future__ import annotations

import socket
from types import SimpleNamespace
from urllib.parse import urlsplit

import httpx
import pytest

import tests.hostile.test_classes as hostile_classes
import tests.hostile.test_generated as hostile_generated
from tests.hostile.conftest import Hostile
from tests.hostile.test_classes import (test_control_api, test_field_values_over_every_operation,  # noqa: F401
                                        test_hostile_path_parameters, test_raw_bodies_over_every_operation,
                                        test_refused_clock_change_changes_nothing)
from tests.hostile.test_generated import test_generated_input  # noqa: F401
import tests.test_several_apps as several
from tests.test_several_apps import (test_customer_files_belong_to_the_channels_app,  # noqa: F401
                                     test_channel_relations_only_for_the_apps_channels, test_foreign_or_bad_key_is_401,
                                     test_identity_users_link_per_app, test_local_and_navi_work_with_any_apps_key,
                                     test_refused_app_creation_changes_nothing, test_second_app_has_its_own_keys,
                                     test_webhook_settings_are_per_app)
from toolkit.classroom import COOKIE, HEADER, QUERY, TICKET, classroom_header
from toolkit.sandbox.classroom import ClassroomServer, Limits
from toolkit.sandbox.identity.models import SCOPES

from .conftest import SECRET, digest, student, token, world_http

ATTACKER, APPS, VICTIM = "mallory", "trent", "victim"


class WorldServer:
    """What the suites read of a ``SandboxServer``, for one world of a class sandbox (its current sandbox: a
    reset replaces it)."""

    def __init__(self, room: ClassroomServer, name: str):
        self.room, self.name, self.base_url = room, name, room.base_url

    @property
    def sandbox(self):
        return self.room.classroom.world(self.name).sandbox

    def app_config(self) -> dict:
        return self.sandbox.apps.public_config()

    def hosts(self) -> dict:
        return self.sandbox.hosts()


class WorldHostile(Hostile):
    """The hostile suite's sender, every request carrying the attacker's world header."""

    def __init__(self, room: ClassroomServer, name: str):
        self.server = WorldServer(room, name)
        self.base = room.base_url.rstrip("/")
        self.http = world_http(room, name)
        self.app = self.server.app_config()
        users = self.http.get(f"{self.base}/sandbox/identity/users").json()["users"]
        self.user_id = users[0]["id"]
        self.token = self.http.post(f"{self.base}/sandbox/login", json={
            "user_id": self.user_id, "scopes": sorted(SCOPES)}).json()["access_token"]


@pytest.fixture(scope="module")
def room():
    # the suites send thousands of requests one after another: a share wide enough not to slow them down (the
    # shares themselves are tested in tests/classroom/test_hostile_students.py)
    # the suite of several apps registers webhooks on this machine's closed ports: the teacher names it
    # (--webhook-host 127.0.0.1), as no class on a shared machine should (test_anyone_on_the_network.py)
    server = ClassroomServer(SECRET, frozen=True, limits=Limits(rate=10_000, burst=10_000),
                             webhook_host="127.0.0.1").start()
    victim = student(server, VICTIM, fresh=True).login_as(4100000001, scopes=["profile", "friends", "talk_message"])
    victim.story.post_note("the victim's story", permission="F")
    victim.sandbox.advance(hours=5)
    victim.sandbox.set_quota("local_search_address", 7)
    server.victim_token = victim.access_token.reveal()
    victim.close()
    yield server
    server.stop()


@pytest.fixture(scope="module", autouse=True)
def _suite_counts():
    """The hostile modules count their cases for their own final check: leave their counts as they were."""
    kept = dict(hostile_classes.COUNT), dict(hostile_generated.COUNT)
    yield
    for count, before in zip((hostile_classes.COUNT, hostile_generated.COUNT), kept):
        count.clear()
        count.update(before)


@pytest.fixture(autouse=True)
def victim_untouched(room):
    """After every test: the victim's world has the same store and got no request."""
    world = room.classroom.world(VICTIM)
    before, calls = digest(room, VICTIM), world.calls
    yield
    assert room.classroom.world(VICTIM) is world, "the victim's world was replaced"
    assert world.calls == calls, f"{world.calls - calls} request(s) reached the victim's world"
    assert digest(room, VICTIM) == before, "the victim's store changed"


@pytest.fixture(scope="module")
def hostile(room):
    h = WorldHostile(room, ATTACKER)
    yield h
    h.http.close()


@pytest.fixture(scope="module")
def two_apps(room):
    """test_several_apps' fixture, in the world of another student."""
    http = world_http(room, APPS)
    a = WorldServer(room, APPS).app_config()
    r = http.post("/sandbox/apps", json={"name": "Second App", "channels": [
        {"channel_public_id": "_second1", "channel_uuid": "@second", "name": "Second channel"}]})
    assert r.status_code == 200, r.text
    yield WorldServer(room, APPS), http, a, r.json()
    http.close()


def test_codes_and_refresh_tokens_do_not_cross_apps_in_a_world(two_apps, room, monkeypatch):
    """The suite's headless browser drives the login pages as a browser does in a class: with the session cookie
    a ticket's first page leaves, no header."""
    import tests.identity.helpers as helpers

    with world_http(room, APPS) as kernel:
        ticket = kernel.post("/classroom/ticket").json()["ticket"]
    first = httpx.get(room.base_url + "/sandbox/config", params={TICKET: ticket})
    assert first.status_code == 200
    cookie = {COOKIE: first.cookies[COOKIE]}
    real = httpx.Client
    origin = {"Origin": room.base_url}          # what a browser sends with the login pages' forms
    monkeypatch.setattr(helpers, "httpx", SimpleNamespace(
        Client=lambda **kw: real(cookies=cookie, headers={**origin, **kw.pop("headers", {})}, **kw)))
    several.test_codes_and_refresh_tokens_do_not_cross_apps(two_apps)


# ---------------------------------------------------------------------- attempts across worlds
def test_another_worlds_token_cookie_or_query_reaches_nothing(room):
    victim_header = classroom_header(VICTIM, token(VICTIM))
    with world_http(room, ATTACKER) as http:
        app = http.get("/sandbox/config").json()["app"]
        bearer = {"Authorization": f"Bearer {room.victim_token}"}
        for path in ("/api/v2/user/me", "/api/v1/user/access_token_info", "/api/v1/api/talk/profile"):
            r = http.get(path, headers=bearer)
            assert r.status_code == 401 and r.json()["code"] == -401, (path, r.text)
        # the victim's credentials as cookie or query parameter: the attacker's header wins
        http.cookies.set(COOKIE, victim_header)
        for method, path in (("POST", "/sandbox/reset"), ("POST", "/sandbox/clock"), ("GET", "/sandbox/config")):
            r = http.request(method, path, params={QUERY: victim_header},
                             json={"advance": 60} if path.endswith("clock") else None)
            assert r.status_code < 500
        # the same demo app keys in every world (one seed): a key names no world, the header does
        r = http.get("/local/v2/local/search/address.json", params={"query": "전포동 341-17"},
                     headers={"Authorization": f"ServiceAK {app['rest_api_key']}"})
        assert r.status_code == 200


BAD_HEADERS = [b"victim", b"victim:", b":" + b"0" * 32, b"victim:" + b"0" * 32, b"victim:\xff\xfe",
               b"vic%00tim:" + b"0" * 32, b"%2e%2e%2fvictim:" + b"0" * 32, b"victim%3A:" + b"0" * 32,
               b"victim:" + b"0" * 8000, b"\x01\x02", b"mallory:" + b"0" * 32]


@pytest.mark.parametrize("header", BAD_HEADERS, ids=[repr(h[:20]) for h in BAD_HEADERS])
def test_hostile_classroom_headers_are_401(room, header):
    parts = urlsplit(room.base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(b"POST /sandbox/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n" + HEADER.encode()
                     + b": " + header + b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    assert status in (400, 401, 431), (header[:30], status)


def test_teacher_paths_are_not_reachable_with_a_students_header(room):
    with world_http(room, ATTACKER) as http:
        for method, path in (("GET", "/classroom/worlds"), ("POST", f"/classroom/worlds/{VICTIM}/reset"),
                             ("POST", "/classroom/incidents"), ("GET", "/classroom/../classroom/worlds"),
                             ("POST", f"/classroom/worlds/{VICTIM}%2F..%2F{VICTIM}/reset")):
            r = http.request(method, path, json={"api": "local_search_keyword"})
            assert r.status_code in (401, 404), (path, r.status_code)
    with httpx.Client(base_url=room.base_url, timeout=30) as anonymous:
        assert anonymous.post("/sandbox/reset").status_code == 401
