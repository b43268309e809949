"""Shared pieces of the class-sandbox tests: a class sandbox served on 127.0.0.1 (stopped by its fixture), its
students' clients and raw HTTP clients bound to one student's world, and a digest of a world's whole store."""
from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import sys
from pathlib import Path

import httpx
import pytest

import toolkit
from toolkit.classroom import HEADER, classroom_header, read_secret, student_token
from toolkit.sandbox.classroom import ClassroomServer

SECRET = "a-class-secret-for-the-tests-0123456789"
COUNTERS = {"quota_use", "token_issues"}   # per-day call counters: a refused call may still count


def wait_ready(url: str, secret, timeout: float = 120) -> None:
    """Wait until the class sandbox at ``url`` has warmed up (its teacher's health says ``ready``): what it loads
    then (the city, about 500 MB) is not counted as growth by a test that measures its memory."""
    import time

    from toolkit.classroom import TEACHER_HEADER, teacher_token

    deadline = time.monotonic() + timeout
    while not httpx.get(url + "/classroom/health", headers={TEACHER_HEADER: teacher_token(secret)},
                        timeout=30).json().get("ready"):
        assert time.monotonic() < deadline, "the class sandbox did not warm up"
        time.sleep(0.1)


def token(name: str) -> str:
    return student_token(SECRET, name)


def student(server: ClassroomServer, name: str, **kw):
    """A client bound to ``name``'s world (as a student's notebook makes it)."""
    return toolkit.connect(classroom=server.base_url, student=name, token=token(name), **kw)


def world_http(server: ClassroomServer, name: str) -> httpx.Client:
    """A raw HTTP client whose every request carries ``name``'s world header."""
    return httpx.Client(base_url=server.base_url, timeout=60, headers={HEADER: classroom_header(name, token(name))})


def digest(server: ClassroomServer, name: str) -> dict[str, str]:
    """A digest per table of ``name``'s world's store (the clock's meta row included; call counters left out),
    taken once its webhook engine is idle."""
    sandbox = server.classroom.world(name).sandbox
    sandbox.model("events").wait_idle(5)
    out = {}
    for row in sandbox.store.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        if row["name"] in COUNTERS:
            continue
        h = hashlib.sha256()
        for r in sandbox.store.all(f'SELECT * FROM "{row["name"]}"'):
            h.update(repr(tuple(r)).encode("utf-8", "backslashreplace"))
        out[row["name"]] = h.hexdigest()[:16]
    return out


@pytest.fixture(scope="module")
def room():
    """A class sandbox for the module (worlds in memory, virtual clocks frozen at the start)."""
    server = ClassroomServer(SECRET, frozen=True).start()
    yield server
    server.stop()


@contextlib.contextmanager
def classroom_on_disk(tmp_path: Path, name: str = "ann"):
    """``toolkit classroom --db`` in a process of its own (its secret and files in ``tmp_path``) and an httpx client
    of the student ``name``: yields ``(process, client)``; the block ends with the process killed by SIGKILL, as a
    crash would end it. :func:`worlds_on_disk` then reads what its files kept."""
    from tests.bench.procs import _process

    secret = read_secret(tmp_path / "class.secret", create=True)
    cmd = [sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file",
           str(tmp_path / "class.secret"), "--db", str(tmp_path / "worlds.sqlite")]
    with _process(cmd, "toolkit classroom") as (proc, url):
        with httpx.Client(base_url=url, timeout=60,
                          headers={HEADER: classroom_header(name, student_token(secret, name))}) as http:
            yield proc, http
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)


def worlds_on_disk(tmp_path: Path) -> dict[str, dict]:
    """The worlds a new class sandbox reads from the files :func:`classroom_on_disk` left, by student."""
    room = ClassroomServer(read_secret(tmp_path / "class.secret"), db=str(tmp_path / "worlds.sqlite")).start()
    try:
        return {r["student"]: r for r in room.classroom.worlds()}
    finally:
        room.stop()
