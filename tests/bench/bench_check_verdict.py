"""What telling the sandbox a self-check's verdict costs a check: ``toolkit.lessons.check`` (the verdict, then
``tk.sandbox.note_check``) against the verdict alone, for a learner's embedded sandbox and a student's world of a
class sandbox on 127.0.0.1, and the worst case, a sandbox that accepts the connection and never answers.

    python tests/bench/bench_check_verdict.py [--short]

Prints milliseconds per check and ratios; asserts nothing (tests/classroom/test_class_progress.py checks the bound).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import toolkit  # noqa: E402
import toolkit.client  # noqa: E402
from toolkit import lessons  # noqa: E402
from toolkit.classroom import student_token  # noqa: E402
from toolkit.sandbox.classroom import ClassroomServer  # noqa: E402

SECRET = "a-class-secret-for-the-benchmark-0123456789"


def exercise():
    for ex in lessons.exercises():
        right = lessons._right(lessons._rules()[ex.id]) if not ex.live else lessons._NONE
        if right is not lessons._NONE and lessons._verdict(ex.id, right).ok:
            return ex.id, right
    raise SystemExit("no exercise with a stored answer")


def per_check_ms(fn, n: int) -> float:
    fn()                                   # the first one sets up the connection: not counted
    times = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main(short: bool) -> None:
    n = 20 if short else 200
    eid, right = exercise()
    verdict_ms = per_check_ms(lambda: lessons._verdict(eid, right), n)
    print(f"verdict alone (no sandbox told), ms per check (no goal) {verdict_ms:.3f}")

    tk = toolkit.connect(sandbox=True, fresh=True)
    embedded = per_check_ms(lambda: lessons.check(eid, right), n)
    clock = per_check_ms(tk.sandbox.clock, n)
    print(f"check with the embedded sandbox told, ms per check (no goal) {embedded:.2f}")
    print(f"a control-API clock read of the same sandbox, ms (no goal) {clock:.2f}")
    tk.close()

    with ClassroomServer(SECRET, frozen=True) as server:
        student = toolkit.connect(classroom=server.base_url, student="ann", token=student_token(SECRET, "ann"))
        student.status.current()
        world = per_check_ms(lambda: lessons.check(eid, right), n)
        print(f"check with the student's class world told, ms per check (no goal) {world:.2f}")
        student.close()

    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)
    handle = toolkit.client.SandboxHandle(f"http://127.0.0.1:{silent.getsockname()[1]}")
    toolkit.client.latest_client = lambda: type("Kernel", (), {"sandbox": handle})()
    started = time.perf_counter()
    lessons.check(eid, right)
    worst = time.perf_counter() - started
    silent.close()
    print(f"check with a sandbox that never answers, s (goal ≤ {handle.CHECK_TIMEOUT + 0.5:g}) {worst:.2f}")
    print(f"check told / a clock read = {embedded / clock:.2f}; class world / embedded = {world / embedded:.2f}")


if __name__ == "__main__":
    main("--short" in sys.argv)
