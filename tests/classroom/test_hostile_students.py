"""A class no student can spoil: what a mischievous or careless student tries with nothing but their own class
token, against a class sandbox in its own process (as it runs beside a hub), each try bounded in count and time.

* 16 parallel uploads of 104.8 MB (the spec's largest valid one) by one student: the class sandbox's resident
  memory, sampled all along from ``/proc``, grows by at most 300 MB (it grew by 1,750 MB when bodies were held
  whole); one upload goes through, the others wait their turn, then get 429 with ``Retry-After``.
* One student hammering with 200 connections (a separate process, tests/bench/classroom_hammer.py): their
  answers past their share are 429 with ``Retry-After`` and what they get served stays within the rate; another
  student meanwhile gets every answer, and the toolkit's client rides a 429 out (it waits ``Retry-After``). The
  other student's p95 before and after is bench_classroom's part 5 (numbers are not asserted here).
* 10,001 tickets by one student evict nobody else's pending ticket; browser sessions are capped the same way.
* A revoked token is refused (with the browser sessions it opened) and the new one works.
* With ``--db``: world files 0600 in a 0700 folder; the activity counts survive a kill -9 once a write was made.
"""
from __future__ import annotations

import json
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from tests.bench.classroom_hammer import start as run_hammer
from tests.bench.procs import _process, rss_mb
from tests.social.conftest import png
from toolkit.classroom import COOKIE, HEADER, TICKET, classroom_header, read_secret, student_token
from toolkit.sandbox.classroom import ClassroomServer, Limits

from .conftest import classroom_on_disk, wait_ready, worlds_on_disk

ROOT = Path(__file__).resolve().parents[2]
MINJI = 4100000001
UPLOAD = "/api/v1/api/story/upload/multi"
PART, PARTS = 10_480_000, 10        # ten images just under the spec's 10 MiB each: 104.8 MB, a valid upload
GROWTH_MB = 300


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``toolkit classroom`` in its own process (default limits), its secret and a student's headers."""
    folder = tmp_path_factory.mktemp("hostile-class")
    secret_file = folder / "class.secret"
    secret = read_secret(secret_file, create=True)
    cmd = [sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file", str(secret_file)]
    with _process(cmd, "toolkit classroom") as (proc, url):
        wait_ready(url, secret)
        yield SimpleNamespace(proc=proc, url=url, secret=secret, secret_file=secret_file,
                              header=lambda n: {HEADER: classroom_header(n, student_token(secret, n))})


def logged_in(served, name: str) -> dict:
    """``name``'s class header and a story user's bearer token in their world."""
    headers = served.header(name)
    r = httpx.post(served.url + "/sandbox/login", headers=headers, json={"user_id": MINJI, "scopes": []}, timeout=60)
    assert r.status_code == 200, r.text
    return {**headers, "Authorization": f"Bearer {r.json()['access_token']}"}


def upload_body(boundary: str) -> tuple[int, "callable"]:
    """The length of a multipart upload of :data:`PARTS` images of :data:`PART` bytes, and a generator of its
    bytes (1 MiB at a time: the test process never holds an upload)."""
    head, pad = png(4, 4), b"\0" * (1 << 20)
    part_head = [f"--{boundary}\r\nContent-Disposition: form-data; name=\"file[{i}]\"; filename=\"{i}.png\"\r\n"
                 f"Content-Type: image/png\r\n\r\n".encode() for i in range(PARTS)]
    tail = f"--{boundary}--\r\n".encode()
    total = sum(len(h) + PART + 2 for h in part_head) + len(tail)

    def chunks():
        for h in part_head:
            yield h + head
            left = PART - len(head)
            while left:
                n = min(left, len(pad))
                yield pad if n == len(pad) else pad[:n]
                left -= n
            yield b"\r\n"
        yield tail
    return total, chunks


class Sampler(threading.Thread):
    """The peak resident memory of a process, read from /proc every 20 ms until stopped."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, rss_mb(pid), threading.Event()

    def run(self):
        while not self.done.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.pid))


def test_sixteen_parallel_uploads_by_one_student_leave_the_memory_bounded(served):
    headers = logged_in(served, "mallory")
    with httpx.Client(base_url=served.url, headers=headers, timeout=120) as http:   # warm the upload path
        small = http.post(UPLOAD, files=[("file", ("a.png", png(), "image/png"))])
        assert small.status_code == 200, small.text
    baseline = rss_mb(served.proc.pid)
    sampler = Sampler(served.proc.pid)
    sampler.start()
    answers: list = []

    def one(k):
        boundary = f"hostile-{k}"
        total, chunks = upload_body(boundary)
        try:
            r = httpx.post(served.url + UPLOAD, content=chunks(), timeout=300, headers={
                **headers, "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Content-Length": str(total)})
            answers.append((r.status_code, r.headers.get("retry-after"), r.text[:4000]))
        except httpx.TransportError as exc:      # answered early (429) and closed while the body was on its way
            answers.append((type(exc).__name__, None, ""))

    threads = [threading.Thread(target=one, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    sampler.done.set()
    sampler.join()
    growth = sampler.peak - baseline
    print(f"16 parallel uploads of {PARTS * PART / 1e6:.1f} MB by one student: resident {baseline:.0f} MB before, "
          f"peak {sampler.peak:.0f} MB (growth {growth:.0f} MB); answers {sorted(str(a[0]) for a in answers)}")
    assert len(answers) == 16
    done = [a for a in answers if a[0] == 200]
    refused = [a for a in answers if a[0] == 429]
    assert done and all(len(json.loads(a[2])) == PARTS for a in done if a[2].startswith("["))
    assert all(a[0] in (200, 429) or isinstance(a[0], str) for a in answers), answers
    assert all(a[1] and a[1].isdigit() for a in refused)
    assert len(done) <= 4, "the bytes in flight per student let more uploads through than their share"
    assert growth <= GROWTH_MB, f"the class sandbox grew by {growth:.0f} MB under one student's uploads"
    assert httpx.get(served.url + "/classroom/health").json() == {"ok": True}


def test_a_hammering_student_gets_429_and_another_student_is_served(served):
    hammerer = served.header("hammer")
    config = httpx.get(served.url + "/sandbox/config", headers=hammerer, timeout=60).json()
    hammerer["Authorization"] = f"ServiceAK {config['app']['rest_api_key']}"
    path = "/v2/local/search/address.json?query=" + "부산진구 전포동 341-17"
    httpx.get(served.url + "/local" + path, headers=hammerer, timeout=120).raise_for_status()   # the city loaded
    seconds = 4.0
    result: dict = {}
    proc, go = run_hammer(served.url, hammerer, "/local" + path, 200, seconds)
    try:
        worker = threading.Thread(target=lambda: result.update(go()))
        started = time.monotonic()
        worker.start()
        import toolkit

        other = toolkit.connect(classroom=served.url, student="honest",
                                token=student_token(served.secret, "honest"))
        got, latencies, t0 = 0, [], time.monotonic()
        while time.monotonic() - t0 < seconds:
            start = time.perf_counter()
            found = other.local.address("부산진구 전포동 341-17")
            latencies.append(1000 * (time.perf_counter() - start))
            got += bool(len(found))
        worker.join(120)
        elapsed = time.monotonic() - started          # the hammer's wall time (longer on a busy machine)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
        for pipe in (proc.stdin, proc.stdout):
            if not pipe.closed:
                pipe.close()
    assert result, "the hammer gave no result"
    statuses = result["statuses"]
    served_ok = statuses.get("200", 0)
    latencies.sort()
    print(f"hammer (200 connections, {seconds:g} s): {result}; the other student: {len(latencies)} calls, p95 "
          f"{latencies[int(0.95 * (len(latencies) - 1))]:.1f} ms")
    assert got == len(latencies) > 0                      # every call of the other student answered
    assert statuses.get("429", 0) > 0 and result["retry_after"] == statuses["429"]
    assert set(statuses) <= {"200", "429"} and not result["errors"], result
    limits = Limits()
    # a token bucket admits at most its burst plus its rate over the time the hammer ran
    assert served_ok <= limits.burst + limits.rate * (elapsed + 1) + limits.concurrent, (served_ok, elapsed)


def test_the_client_waits_out_a_429():
    """An honest notebook never sees a 429: the toolkit's client waits Retry-After and tries again."""
    import toolkit

    secret = "a-class-secret-for-the-tests-0123456789"
    header = {HEADER: classroom_header("slow", student_token(secret, "slow"))}
    with ClassroomServer(secret, frozen=True, limits=Limits(rate=0.5, burst=1, wait=0)) as server:
        server.classroom.world("slow")                    # made before the clock of the share matters
        with httpx.Client(base_url=server.base_url, headers=header, timeout=30) as raw:
            assert raw.get("/sandbox/clock").status_code == 200
            refused = raw.get("/sandbox/clock")
        assert refused.status_code == 429 and refused.headers["retry-after"] in ("1", "2")
        assert "per student" in refused.json()["msg"] and refused.json()["code"] == -429
        t0 = time.monotonic()
        tk = toolkit.connect(classroom=server.base_url, student="slow", token=student_token(secret, "slow"))
        assert tk.sandbox.clock()["unix"] > 0
        assert time.monotonic() - t0 >= 1.5               # it waited its turns rather than failing


def test_ten_thousand_and_one_tickets_evict_nobody_elses():
    room = ClassroomServer("a-class-secret-for-the-tests-0123456789", frozen=True).start()
    try:
        secret = "a-class-secret-for-the-tests-0123456789"
        with httpx.Client(base_url=room.base_url, timeout=30) as http:
            victim = http.post("/classroom/ticket", headers={
                HEADER: classroom_header("victim", student_token(secret, "victim"))}).json()["ticket"]
            mine = http.post("/classroom/ticket", headers={
                HEADER: classroom_header("mallory", student_token(secret, "mallory"))}).json()["ticket"]
            for _ in range(10_001):                       # what a loop of POST /classroom/ticket would mint
                room.classroom.ticket("mallory")
            held = [who for who, _ in room.classroom._tickets.values()]
            assert held.count("mallory") == Limits().tickets and held.count("victim") == 1
            first = http.get("/sandbox/config", params={TICKET: victim})
            assert first.status_code == 200 and COOKIE in first.cookies
            assert http.get("/sandbox/config", params={TICKET: mine}).status_code == 401   # mallory's own went
            # sessions too: a student's many browsers replace their own oldest session only
            sessions = [room.classroom._session("mallory") for _ in range(100)]
            for session, status in ((first.cookies[COOKIE], 200), (sessions[0], 401), (sessions[-1], 200)):
                with httpx.Client(base_url=room.base_url, timeout=30, cookies={COOKIE: session}) as browser:
                    assert browser.get("/sandbox/config").status_code == status
    finally:
        room.stop()


def test_a_revoked_token_and_its_browser_sessions_are_refused(tmp_path):
    from toolkit.cli import main

    secret_file = tmp_path / "class.secret"
    secret = read_secret(secret_file, create=True)
    room = ClassroomServer(secret, frozen=True, secret_file=secret_file).start()
    try:
        old = {HEADER: classroom_header("ann", student_token(secret, "ann"))}
        bob = {HEADER: classroom_header("bob", student_token(secret, "bob"))}
        with httpx.Client(base_url=room.base_url, timeout=30) as http:
            ticket = http.post("/classroom/ticket", headers=old).json()["ticket"]
            session = http.get("/sandbox/config", params={TICKET: ticket}).cookies[COOKIE]
            http.cookies.clear()
            browser = httpx.Client(base_url=room.base_url, timeout=30, cookies={COOKIE: session})
            assert browser.get("/sandbox/config").status_code == 200
            assert main(["classroom", "revoke", "ann", "--secret-file", str(secret_file)]) == 0
            assert stat.S_IMODE((tmp_path / "class.secret.revoked").stat().st_mode) == 0o600
            time.sleep(1.1)                               # the revocation file is read at most once a second
            assert http.get("/sandbox/config", headers=old).status_code == 401
            assert browser.get("/sandbox/config").status_code == 401
            browser.close()
            new = {HEADER: classroom_header("ann", student_token(secret, "ann", 1))}
            assert http.get("/sandbox/config", headers=new).status_code == 200
            assert http.get("/sandbox/config", headers=bob).status_code == 200          # nobody else's changes
        out = subprocess.run([sys.executable, "-m", "toolkit.cli", "classroom", "token", "ann", "--secret-file",
                              str(secret_file)], capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert out.stdout.strip() == student_token(secret, "ann", 1)
    finally:
        room.stop()


def test_world_files_are_private_and_counts_survive_a_kill_9(tmp_path):
    with classroom_on_disk(tmp_path) as (_, http):
        for _ in range(3):
            assert http.get("/sandbox/config").status_code == 200
        assert http.post("/sandbox/clock", json={"advance": 60}).status_code == 200   # a write: counts go too
        folder = tmp_path / "worlds.sqlite.worlds"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        files = [tmp_path / "worlds.sqlite", *folder.iterdir()]
        assert len(files) >= 2
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    assert worlds_on_disk(tmp_path)["ann"]["calls"] == 4


SECRET = "a-class-secret-for-the-tests-0123456789"


def header_of(name: str) -> dict:
    return {HEADER: classroom_header(name, student_token(SECRET, name))}


def test_a_students_app_cannot_redirect_off_the_class():
    with ClassroomServer(SECRET, frozen=True, allow_origins=["https://apps.school.example"]) as room:
        with httpx.Client(base_url=room.base_url, headers=header_of("mallory"), timeout=30) as http:
            foreign = http.post("/sandbox/apps", json={"name": "Trap", "redirect_uris": ["https://evil.example/cb"]})
            assert foreign.status_code == 400 and "not on this class's own origins" in foreign.json()["msg"]
            assert "--allow-origin" in foreign.json()["msg"]
            for key in ("logout_redirect_uris", "web_domains"):
                assert http.post("/sandbox/apps", json={"name": "Trap", key: ["https://evil.example"]}
                                 ).status_code == 400, key
            apps_before = http.get("/sandbox/apps").json()["apps"]
            assert len(apps_before) == 1                               # refused: nothing was made
            own = http.post("/sandbox/apps", json={"name": "Mine", "redirect_uris": [
                room.base_url + "/sandbox/callback", "http://localhost:5000/cb", "https://apps.school.example/cb"]})
            assert own.status_code == 200, own.text
            moved = http.patch(f"/sandbox/apps/{own.json()['app_id']}",
                               json={"redirect_uris": ["https://evil.example:8443/cb"]})
            assert moved.status_code == 400
            # a link carrying a token in its query binds nothing: the parameter is dropped, the visitor is anonymous
            link = http.get("/sandbox/config").json()
        visitor = httpx.get(room.base_url + "/auth/oauth/authorize", params={
            "toolkit_classroom": classroom_header("mallory", student_token(SECRET, "mallory")),
            "client_id": link["app"]["rest_api_key"], "redirect_uri": "https://evil.example/cb",
            "response_type": "code"}, follow_redirects=False)
        assert visitor.status_code == 401 and "set-cookie" not in visitor.headers


def test_webhooks_never_reach_the_hubs_ports_or_metadata(monkeypatch):
    """Set straight in the world's store (past the registration check), a webhook to anything on this machine but
    the student's own proven inbox fails as a closed port does; the inbox their kernel opened gets its delivery."""
    import toolkit
    from tests.events.conftest import Receiver

    hub = Receiver(mode="ok").start()                 # stands for the hub's API on this machine
    monkeypatch.setenv("JUPYTERHUB_API_URL", f"http://127.0.0.1:{hub.port}/hub/api")
    try:
        with ClassroomServer(SECRET, frozen=True) as room:
            tk = toolkit.connect(classroom=room.base_url, student="mallory", token=student_token(SECRET, "mallory"))
            inbox = tk.events.inbox()                 # the student's own receiver: it proves itself when registered
            try:
                inbox.register()
                world = room.classroom.world("mallory").sandbox
                events = world.model("events")
                events.update_settings("100001", retry_delays=[])
                targets = {"hub": f"http://127.0.0.1:{hub.port}/hub/api/users",
                           "metadata": "http://169.254.169.254/latest/meta-data/",
                           "own port": f"{room.base_url}/sandbox/config",
                           "closed port": "http://127.0.0.1:9/x",
                           "octal": f"http://0177.0.0.1:{hub.port}/x",
                           "student": inbox.urls()["share"]}
                notes = {}
                for label, url in targets.items():
                    world.apps.set_webhooks("100001", share=url)
                    [delivery] = events.share("100001", MINJI, args={"n": 1})
                    deadline = time.monotonic() + 20
                    while time.monotonic() < deadline:
                        row = world.store.one("SELECT state, note, last_status FROM webhook_deliveries WHERE id = ?",
                                              delivery)
                        if row["state"] != "pending":
                            break
                        time.sleep(0.05)
                    notes[label] = (row["state"], row["note"], row["last_status"])
                print(notes)
                for label in ("hub", "metadata", "own port", "closed port", "octal"):
                    assert notes[label] == ("failed", "could not deliver", None), (label, notes[label])
                assert notes["student"][0] == "delivered" and inbox.wait(1, timeout=10)
                assert hub.hits == []                                   # not one request reached the hub
            finally:
                inbox.stop()
    finally:
        hub.stop()
