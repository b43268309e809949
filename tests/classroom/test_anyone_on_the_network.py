"""A class that holds against anyone on the network (issue 43's attacks, each bounded in count and time, loopback only):
not only a student with their own token, but anyone who can open a connection, with or without a token, through the
class sandbox's own address or the hub's public one, and a whole class arriving at once.

* Floods from one address (127.0.0.2, while the other student calls from 127.0.0.1, paced under their own rate) —
  2,000 half-sent requests, wrong-token requests, anonymous health checks, one student's tickets, one student held
  by the limiter: the other student's p95, measured side by side with a quiet phase before and after each flood,
  stays within 2× of quiet (plus 3 ms; a flood whose phase missed it is tried again, up to three times, as a busy
  moment of this shared machine is no regression); the half-sent connections are closed after the header timeout
  and the class sandbox's open files come back down.
* Webhooks: a gzip bomb of an answer is dropped (memory held under the bound); a registration to anything on the
  machine but the student's own inbox is refused after the same second whatever was there (no port oracle); an
  octal address is refused when registered.
* Hosts and origins: a forged ``Host`` is refused and cannot widen the redirect policy; a browser session's
  state-changing request from another origin is refused.
* Anonymous state behind the hub: logins under way are bounded in count and their URLs in length
  (``test_hub_login.py``).
* A class arriving at once: 300 first requests together all get their world; a kill -9 loses no read activity older
  than a few seconds.

The other student's p95 before and after each flood is printed (``-s``); bench_class_load measures the class at
scale.
"""
from __future__ import annotations

import os
import socket
import sys
import threading
import time
from types import SimpleNamespace

import httpx
import pytest

from tests.bench.classroom_flood import start as start_flood
from tests.bench.procs import _process, rss_mb
from toolkit.classroom import HEADER, classroom_header, read_secret, student_token
from toolkit.sandbox.classroom import ClassroomServer

from .conftest import classroom_on_disk, wait_ready, worlds_on_disk

SECRET = "a-class-secret-for-the-tests-0123456789"
KEYWORD = "/local/v2/local/search/keyword.json?query=%ED%95%B4%EC%9A%B4%EB%8C%80&x=129.16&y=35.16&radius=5000"
SOURCE = "127.0.0.2"          # the flooder's address: another machine, as the class sandbox sees it
HEADER_TIMEOUT = 2.0


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[int(0.95 * (len(values) - 1))]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``toolkit classroom`` in its own process, worlds in files, 64 connections per address, a 2-second header
    timeout; its secret and the other student's headers (with their world's REST API key)."""
    probe = socket.socket()
    try:
        probe.bind((SOURCE, 0))
    except OSError:
        pytest.skip(f"this machine cannot send from {SOURCE}")
    finally:
        probe.close()
    folder = tmp_path_factory.mktemp("open-class")
    secret_file = folder / "class.secret"
    secret = read_secret(secret_file, create=True)
    cmd = [sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file", str(secret_file),
           "--db", str(folder / "worlds.sqlite"), "--max-connections-per-address", "64", "--header-timeout",
           str(HEADER_TIMEOUT)]
    with _process(cmd, "toolkit classroom") as (proc, url):
        wait_ready(url, secret)

        def header(name):
            return {HEADER: classroom_header(name, student_token(secret, name))}
        other = header("other")
        key = httpx.get(url + "/sandbox/config", headers=other, timeout=60).json()["app"]["rest_api_key"]
        other["Authorization"] = f"ServiceAK {key}"
        assert httpx.get(url + KEYWORD, headers=other, timeout=60).status_code == 200    # the city loaded
        yield SimpleNamespace(proc=proc, url=url, port=int(url.rsplit(":", 1)[1]), secret=secret,
                              secret_file=secret_file, header=header, other=other, folder=folder)


def measure(served, seconds: float) -> list[float]:
    """The other student's keyword searches for ``seconds`` (one at a time, 60 ms apart: under their own rate of 20
    a second, so their own share never holds them): their latencies (ms); every one must be answered 200."""
    out = []
    with httpx.Client(headers=served.other, timeout=10) as http:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            started = time.perf_counter()
            r = http.get(served.url + KEYWORD)
            out.append(1000 * (time.perf_counter() - started))
            assert r.status_code == 200, r.text[:200]
            time.sleep(0.06)
    return out


def flooded(served, request: bytes, *, mode: str = "requests", connections: int = 8, seconds: float = 2.0):
    """The other student's p95 alone just before, under the flood and alone just after; and the flood's result."""
    before = p95(measure(served, seconds))
    proc, go = start_flood({"host": "127.0.0.1", "port": served.port, "source": SOURCE, "connections": connections,
                            "seconds": seconds + 0.5, "mode": mode, "request": request.decode("latin-1")})
    result: dict = {}
    try:
        worker = threading.Thread(target=lambda: result.update(go()))
        worker.start()
        time.sleep(0.4)                        # the flood under way
        under = p95(measure(served, seconds))
        worker.join(60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(30)
        for pipe in (proc.stdin, proc.stdout):
            pipe.close()
    after = p95(measure(served, seconds))
    return before, under, after, result


def head(method: str, path: str, headers: dict, port: int, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *(f"{k}: {v}" for k, v in headers.items())]
    if method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def within_twice(label: str, before: float, under: float, after: float) -> bool:
    quiet = max(before, after)               # this shared machine drifts: the quiet phase on either side
    print(f"{label}: the other student's p95 {before:.1f} ms before, {under:.1f} ms under it, {after:.1f} ms after")
    return under <= 2 * quiet + 3


def flooded_within_twice(label: str, served, request: bytes, **kw) -> dict:
    """:func:`flooded`, again when the other student's p95 under the flood passed twice quiet's (a busy moment of
    this shared machine is not a regression: a flood that costs the class misses every time); the last result."""
    for attempt in range(3):
        before, under, after, result = flooded(served, request, **kw)
        if within_twice(label + (" (again)" if attempt else ""), before, under, after):
            return result
    raise AssertionError(f"{label}: the other student's p95 {under:.1f} ms under the flood, three times, against "
                         f"{max(before, after):.1f} ms quiet")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_half_sent_requests_from_one_address_cost_only_that_address(served):
    files = open_files(served.proc.pid)
    request = head("GET", "/classroom/health", {"X-Padding": "x" * 64}, served.port)
    result = flooded_within_twice("half-sent requests", served, request, mode="half", connections=2000, seconds=3.0)
    print(f"2,000 half-sent requests at once: {result}; open files {files} before")
    assert result["opened"] >= 2000 and result.get("refused", 0) + result.get("closed", 0) >= 2000 - 64
    deadline = time.monotonic() + HEADER_TIMEOUT + 5
    while open_files(served.proc.pid) > files + 16 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert open_files(served.proc.pid) <= files + 16, "half-sent connections were kept past the header timeout"


@pytest.mark.parametrize("flood", ["wrong token", "anonymous health", "one student's tickets",
                                   "one student held by the limiter"])
def test_floods_outside_the_students_limits_cost_their_sender(served, flood):
    port = served.port
    if flood == "wrong token":
        request = head("GET", KEYWORD, {HEADER: classroom_header("other", "0" * 32)}, port)
    elif flood == "anonymous health":
        request = head("GET", "/classroom/health", {}, port)
    elif flood == "one student's tickets":
        request = head("POST", "/classroom/ticket", served.header("tix"), port)
    else:
        hammer = served.header("held")
        key = httpx.get(served.url + "/sandbox/config", headers=hammer, timeout=60).json()["app"]["rest_api_key"]
        request = head("GET", KEYWORD, {**hammer, "Authorization": f"ServiceAK {key}"}, port)
    result = flooded_within_twice(flood, served, request)
    print(f"{flood}: {result}")
    statuses = result["statuses"]
    if flood in ("wrong token", "anonymous health"):
        assert statuses.get("429", 0) > 0, result              # refused past a burst: held, then 429, at its cost
    served_ok = sum(statuses.values()) - statuses.get("429", 0)
    assert served_ok <= 100 + 20 * 3 + 8, result                # a burst and a rate, no more


def test_a_class_of_300_arriving_at_once_all_get_their_world(served):
    import asyncio

    names = [f"arrive{k:03d}" for k in range(300)]

    async def arrive():
        limits = httpx.Limits(max_connections=60)       # within the fixture's 64 connections per address
        async with httpx.AsyncClient(base_url=served.url, timeout=20, limits=limits) as http:
            async def first(name):
                started = time.monotonic()
                r = await http.get("/sandbox/config", headers=served.header(name))
                return r.status_code, time.monotonic() - started
            return await asyncio.gather(*(first(n) for n in names))

    started = time.monotonic()
    answers = asyncio.run(arrive())
    waits = sorted(w for _, w in answers)
    print(f"300 first requests at once: all answered in {time.monotonic() - started:.1f} s, the slowest waited "
          f"{waits[-1]:.1f} s, p95 {waits[int(0.95 * 299)]:.1f} s")
    assert [s for s, _ in answers] == [200] * 300
    assert waits[-1] <= 10, "a student's first request waited past a client's timeout"


def test_read_activity_survives_a_kill_9_after_a_few_seconds(tmp_path):
    from toolkit.sandbox.classroom import FLUSH_EVERY

    with classroom_on_disk(tmp_path) as (_, http):
        for _ in range(5):
            assert http.get("/sandbox/config").status_code == 200      # reads only
        time.sleep(FLUSH_EVERY + 1.5)
    assert {student: row["calls"] for student, row in worlds_on_disk(tmp_path).items()} == {"ann": 5}


# ---------------------------------------------------------------------- webhooks
def _wait_delivery(world, delivery: int) -> tuple:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        row = world.store.one("SELECT state, note, last_status FROM webhook_deliveries WHERE id = ?", delivery)
        if row["state"] != "pending":
            return row["state"], row["note"], row["last_status"]
        time.sleep(0.05)
    return row["state"], row["note"], row["last_status"]


def _bomb_receiver(token: str, bomb: bytes):
    """A student's own receiver (it proves itself with the student's token) whose answer is ``bomb`` (gzip)."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from toolkit.classroom import INBOX_PROOF_PATH, inbox_proof
    from toolkit.loopback import LoopbackServer

    async def owner(request):
        return JSONResponse({"proof": inbox_proof(token, request.query_params["nonce"])})

    async def share(request):
        await request.body()
        return Response(bomb, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})

    return LoopbackServer(Starlette(routes=[Route(INBOX_PROOF_PATH, owner), Route("/share", share, methods=["POST"])]),
                          name="bomb").start()


def _gzip_of_zeros(size: int) -> bytes:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    out = [packer.compress(block) for _ in range(size >> 20)]
    return b"".join(out) + packer.flush()


class Peak(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.done = rss_mb(os.getpid()), threading.Event()

    def run(self):
        while not self.done.wait(0.01):
            self.peak = max(self.peak, rss_mb(os.getpid()))


def test_a_gzip_bomb_of_an_answer_is_dropped_and_memory_stays_bounded():
    import toolkit

    token = student_token(SECRET, "bomber")
    small, large = _gzip_of_zeros(60 << 20), _gzip_of_zeros(1 << 30)   # 60 KB and 1 MB on the wire
    assert len(small) < 64 * 1024 < len(large)
    with ClassroomServer(SECRET, frozen=True) as room:
        tk = toolkit.connect(classroom=room.base_url, student="bomber", token=token)
        for bomb in (small, large):
            receiver = _bomb_receiver(token, bomb)
            try:
                tk.sandbox.control("POST", "/sandbox/webhooks", json={"share": receiver.base_url + "/share"})
                world = room.classroom.world("bomber").sandbox
                world.model("events").update_settings("100001", retry_delays=[])
                baseline = rss_mb(os.getpid())
                peak = Peak()
                peak.start()
                [delivery] = world.model("events").share("100001", 4100000001, args={"n": 1})
                outcome = _wait_delivery(world, delivery)
                peak.done.set()
                peak.join()
                print(f"a gzip bomb of {len(bomb)} bytes: {outcome}; resident {baseline:.0f} MB, peak "
                      f"{peak.peak:.0f} MB")
                assert outcome == ("failed", "answer too large", None)
                assert peak.peak - baseline < 20, "the answer was inflated past its bound"
            finally:
                receiver.stop()


def test_webhook_registrations_map_no_port_and_refuse_odd_addresses():
    import toolkit
    from tests.events.conftest import Receiver

    other_server = Receiver(mode="ok").start()        # another student's Jupyter server, the hub, anything open
    try:
        with ClassroomServer(SECRET, frozen=True) as room:
            tk = toolkit.connect(classroom=room.base_url, student="mapper", token=student_token(SECRET, "mapper"))
            with httpx.Client(base_url=room.base_url, timeout=30, headers={
                    HEADER: classroom_header("mapper", student_token(SECRET, "mapper"))}) as http:
                answers = {}
                for label, url in (("open", f"http://127.0.0.1:{other_server.port}/x"),
                                   ("closed", "http://127.0.0.1:9/x"),
                                   ("own port", room.base_url + "/sandbox/config"),
                                   ("private", "http://10.1.2.3:8888/x"),
                                   ("mapped", f"http://[::ffff:127.0.0.1]:{other_server.port}/x")):
                    started = time.monotonic()
                    r = http.post("/sandbox/webhooks", json={"share": url})
                    answers[label] = (r.status_code, r.json()["msg"].replace(url, "URL"),
                                      time.monotonic() - started)
                print({k: (v[0], round(v[2], 2)) for k, v in answers.items()})
                assert len({(s, m) for s, m, _ in answers.values()}) == 1      # the same answer, word for word
                assert all(s == 400 and 0.95 <= t <= 1.6 for s, _, t in answers.values()), answers
                # nothing reached it but the proof's one question (a GET, no body, no credential)
                assert len(other_server.hits) <= 1 and all(
                    method == "GET" and body == b"" and "authorization" not in headers
                    for _, method, headers, body in other_server.hits), other_server.hits
                for odd in ("http://0177.0.0.1/x", "http://2130706433/x", "http://127.1/x", "http://0x7f.0.0.1/x"):
                    r = http.post("/sandbox/webhooks", json={"share": odd})
                    assert r.status_code == 400 and "usual form" in r.json()["msg"], (odd, r.text)
                assert http.get("/sandbox/config").json()["app"]["webhooks"] == {}   # nothing was stored
            inbox = tk.events.inbox()                  # the student's own inbox proves itself and is taken
            try:
                started = time.monotonic()
                assert inbox.register()["share"] == inbox.urls()["share"]
                assert time.monotonic() - started < 1.0
            finally:
                inbox.stop()
    finally:
        other_server.stop()


# ---------------------------------------------------------------------- hosts and origins
def test_a_forged_host_is_refused_and_cannot_widen_the_redirect_policy():
    with ClassroomServer(SECRET, frozen=True) as room:
        mine = {HEADER: classroom_header("mallory", student_token(SECRET, "mallory"))}
        with httpx.Client(base_url=room.base_url, timeout=30, headers=mine) as http:
            forged = http.post("/sandbox/apps", headers={"Host": "evil.example"},
                               json={"name": "Trap", "redirect_uris": ["http://evil.example/cb"]})
            assert forged.status_code == 400 and "--trusted-host" in forged.json()["msg"]
            assert http.get("/sandbox/config", headers={"Host": "evil.example:8765"}).status_code == 400
            own = http.post("/sandbox/apps", headers={"Host": f"localhost:{room.port}"},
                            json={"name": "Trap", "redirect_uris": ["http://evil.example/cb"]})
            assert own.status_code == 400 and "not on this class's own origins" in own.json()["msg"]
            assert len(http.get("/sandbox/apps").json()["apps"]) == 1          # nothing was made
    with ClassroomServer(SECRET, frozen=True, trusted_hosts=["classroom.school.example"]) as room:
        with httpx.Client(base_url=room.base_url, timeout=30, headers=mine) as http:
            named = http.get("/sandbox/config", headers={"Host": f"classroom.school.example:{room.port}"})
            assert named.status_code == 200 and "classroom.school.example" in named.json()["hosts"]["auth"]


def test_a_browser_session_changes_a_world_only_from_its_own_origin():
    from toolkit.classroom import COOKIE, TICKET

    with ClassroomServer(SECRET, frozen=True) as room:
        mine = {HEADER: classroom_header("ann", student_token(SECRET, "ann"))}
        with httpx.Client(base_url=room.base_url, timeout=30) as http:
            ticket = http.post("/classroom/ticket", headers=mine).json()["ticket"]
            session = http.get("/sandbox/config", params={TICKET: ticket}).cookies[COOKIE]
        app = {"name": "Made by a page", "redirect_uris": ["http://localhost:5000/cb"]}
        with httpx.Client(base_url=room.base_url, timeout=30, cookies={COOKIE: session}) as browser:
            other_port = browser.post("/sandbox/apps", json=app, headers={"Origin": "http://127.0.0.1:9999"})
            assert other_port.status_code == 403 and "Origin" in other_port.json()["msg"]
            assert browser.post("/sandbox/apps", json=app).status_code == 403          # no Origin, no Referer
            assert browser.post("/sandbox/apps", json=app, headers={
                "Referer": "http://127.0.0.1:9999/page"}).status_code == 403
            assert len(browser.get("/sandbox/apps").json()["apps"]) == 1                  # nothing was made
            own = browser.post("/sandbox/apps", json=app, headers={"Origin": room.base_url})
            assert own.status_code == 200, own.text


def test_a_made_up_forwarded_address_does_not_multiply_a_senders_share():
    """At the class sandbox's own address ``X-Forwarded-For`` is anyone's to write: it names no sender there, so
    160 wrong-token requests, each claiming another address, share one sender's burst and rate."""
    from concurrent.futures import ThreadPoolExecutor

    with ClassroomServer(SECRET, frozen=True) as room, httpx.Client(
            base_url=room.base_url, timeout=30, limits=httpx.Limits(max_connections=32)) as http:
        def wrong(k):
            return http.get("/sandbox/clock", headers={HEADER: classroom_header("ann", "0" * 32),
                                                       "X-Forwarded-For": f"198.18.0.{k % 250}"}).status_code
        wrong(0)                                # the connections' first use out of the way
        started = time.monotonic()
        with ThreadPoolExecutor(32) as pool:
            answers = list(pool.map(wrong, range(1, 161)))
        allowed = 100 + 20 * (time.monotonic() - started) + 1
    print(f"160 wrong-token requests with made-up forwarded addresses: {answers.count(401)} refused at once, "
          f"{answers.count(429)} held, then 429")
    assert set(answers) <= {401, 429} and answers.count(401) <= allowed
    if len(answers) > allowed + 5:
        assert answers.count(429) >= len(answers) - allowed - 5


def test_a_five_thousand_digit_number_is_refused_not_a_500():
    """Python refuses to turn more than 4,300 digits into an int (ValueError): the guard answers 400 before it asks."""
    big = "9" * 5000
    with ClassroomServer(SECRET, frozen=True) as room:
        with httpx.Client(base_url=room.base_url, timeout=30, headers={
                HEADER: classroom_header("ann", student_token(SECRET, "ann"))}) as http:
            key = http.get("/sandbox/config").json()["app"]["rest_api_key"]
            for path, params in ((f"/sandbox/tiles/14/{big}/6480.png", None),
                                 ("/local/v2/local/search/keyword.json", {"query": "카페", "x": big, "y": "35.1"}),
                                 ("/local/v2/local/search/keyword.json", {"query": "카페", "page": big,
                                                                          "rect": "129,35,129.1,35.1"}),
                                 ("/navi/v1/directions", {"origin": f"{big},35.1", "destination": "129.1,35.2"})):
                r = http.get(path, params=params, headers={"Authorization": f"ServiceAK {key}"})
                assert r.status_code == 400, (path, r.status_code, r.text[:200])
