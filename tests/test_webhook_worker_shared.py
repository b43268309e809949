"""The process's one webhook delivery worker (``toolkit.sandbox.events.models.DeliveryWorker``) serving many
sandboxes, as a class sandbox's worlds share it: a few threads for every sandbox, no wake-up while nothing is
due, the thread gone after its idle time and back on a kick, one sandbox's slow receiver not holding up
another's deliveries, each sandbox's deliveries in creation order under the per-pass cap, stop and resume.

Each test runs its own worker (the module's ``WORKER`` swapped for the test), with short idle times."""
from __future__ import annotations

import json
import threading
import time

import pytest

from tests.events.conftest import Receiver
from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.events import models

APP = "100001"
USER = 4100000001
IDLE = 0.6


@pytest.fixture
def worker(monkeypatch):
    made = []

    def make(**options):
        w = models.DeliveryWorker(**{"helper_linger": 0.2, **options})
        monkeypatch.setattr(models, "WORKER", w)
        made.append(w)
        return w

    yield make
    for w in made:                      # the threads end on their own once idle: wait for it, leak none
        deadline = time.monotonic() + 10
        while w.thread_count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert w.thread_count == 0


@pytest.fixture
def receivers():
    started = []

    def make(mode="ok", sleep_s=0.0):
        r = Receiver(mode=mode, sleep_s=sleep_s).start()
        started.append(r)
        return r

    yield make
    for r in started:
        r.stop()


@pytest.fixture
def sandboxes():
    made = []

    def make(url: str, **settings):
        """A sandbox whose demo app's share webhook goes to ``url``; its events model."""
        sb = Sandbox()
        made.append(sb)
        events = sb.model("events")
        events.idle_exit = IDLE
        sb.apps.set_webhooks(APP, share=url)
        events.update_settings(APP, **{"retry_delays": [], **settings})
        return events

    yield make
    for sb in made:
        sb.model("events").stop()
        sb.store.close()


def share(events, n: int) -> int:
    [delivery] = events.share(APP, USER, args={"n": n})
    return delivery


def states(events) -> list[str]:
    return [r["state"] for r in events.store.all("SELECT state FROM webhook_deliveries ORDER BY id")]


def until(condition, timeout: float = 10.0) -> float:
    """Seconds until ``condition()`` held (fails the test after ``timeout``)."""
    t0 = time.monotonic()
    while not condition():
        assert time.monotonic() - t0 < timeout, "condition not met in time"
        time.sleep(0.01)
    return time.monotonic() - t0


def sent_n(receiver) -> list[int]:
    return [json.loads(body)["n"] for _, _, _, body in receiver.hits]


def worker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "toolkit-sandbox-webhooks"]


def test_many_sandboxes_share_a_few_threads_that_sleep_while_nothing_is_due(worker, receivers, sandboxes):
    w = worker(threads=3)
    fast = receivers()
    before = len(worker_threads())      # the process's own worker may still run after earlier tests
    worlds = [sandboxes(fast.url("share")) for _ in range(12)]
    for i, events in enumerate(worlds):
        share(events, 2 * i)
        share(events, 2 * i + 1)
    until(lambda: len(fast.hits) == 24)
    assert len(worker_threads()) - before <= 3 and w.thread_count <= 3  # not one thread per sandbox
    until(lambda: not any(e.running for e in worlds))                   # nothing pending: every one dropped
    assert all(states(e) == ["delivered", "delivered"] for e in worlds)
    for events in worlds:                                               # each sandbox's own order
        mine = [n for n in sent_n(fast) if n // 2 == worlds.index(events)]
        assert mine == sorted(mine)
    passes = w.passes
    time.sleep(IDLE / 2)
    assert w.passes == passes                                           # no wake-up with nothing registered
    until(lambda: w.thread_count == 0, timeout=IDLE + 5)                # gone after its idle time ...
    share(worlds[0], 100)                                               # ... and back on the next kick
    until(lambda: len(fast.hits) == 25)
    assert states(worlds[0])[-1] == "delivered"


def test_a_retry_due_later_wakes_the_worker_then_and_not_before(worker, receivers, sandboxes):
    w = worker(threads=2)
    failing = receivers(mode="500")
    events = sandboxes(failing.url("share"), retry_delays=[1.0])
    share(events, 1)
    until(lambda: len(failing.hits) == 1)
    until(lambda: events.store.one("SELECT attempts FROM webhook_deliveries")["attempts"] == 1)
    time.sleep(0.1)
    passes = w.passes
    assert events.running                                               # registered, its retry due in 1 s
    time.sleep(0.5)
    assert w.passes == passes                                           # asleep until then: no polling
    until(lambda: len(failing.hits) == 2, timeout=5)
    gap = failing.hits[1][0] - failing.hits[0][0]
    assert 0.95 <= gap < 2.0
    until(lambda: not events.running)                                   # failed for good: dropped
    assert states(events) == ["failed"]


def test_a_slow_receiver_does_not_hold_up_another_sandbox(worker, receivers, sandboxes):
    worker(threads=4)
    slow, fast = receivers(mode="sleep", sleep_s=2.0), receivers()
    slow_world = sandboxes(slow.url("share"), answer_timeout=3.0)
    fast_world = sandboxes(fast.url("share"))
    for n in range(3):
        share(slow_world, n)
    until(lambda: len(slow.hits) == 1)                                  # the slow world's first answer pending
    t0 = time.monotonic()
    share(fast_world, 10)
    waited = until(lambda: len(fast.hits) == 1)
    assert waited < 1.0, f"the fast world waited {waited:.2f} s behind a 2-second receiver"
    until(lambda: states(slow_world) == ["delivered"] * 3, timeout=15)
    assert sent_n(slow) == [0, 1, 2]                                    # one at a time, in creation order
    assert time.monotonic() - t0 > 3.5
    assert states(fast_world) == ["delivered"]


def test_more_slow_sandboxes_than_threads_delay_another_by_one_answer_at_most(worker, receivers, sandboxes):
    worker(threads=2, pass_budget=0.5)
    slow, fast = receivers(mode="sleep", sleep_s=1.0), receivers()
    slow_worlds = [sandboxes(slow.url("share"), answer_timeout=3.0) for _ in range(3)]
    fast_world = sandboxes(fast.url("share"))
    for i, events in enumerate(slow_worlds):
        share(events, 10 * i)
        share(events, 10 * i + 1)
    until(lambda: len(slow.hits) == 2)                                  # both threads on a slow answer
    t0 = time.monotonic()
    share(fast_world, 99)
    waited = until(lambda: len(fast.hits) == 1)
    # both threads are held by a 1-second answer; a pass starts no new delivery past its 0.5 s budget, so
    # the fast world goes out when one of them comes back, not after every slow delivery (about 3 s)
    assert waited < 1.8, f"the fast world waited {waited:.2f} s"
    until(lambda: all(states(e) == ["delivered"] * 2 for e in slow_worlds), timeout=20)
    for i in range(3):
        mine = [n for n in sent_n(slow) if n // 10 == i]
        assert mine == [10 * i, 10 * i + 1]


def test_order_per_sandbox_across_passes_of_a_few_deliveries(worker, receivers, sandboxes):
    worker(threads=2, per_pass=3)
    fast = receivers()
    a, b = sandboxes(fast.url("share")), sandboxes(fast.url("share"))
    for n in range(10):
        share(a, n)
        share(b, 100 + n)
    until(lambda: len(fast.hits) == 20)
    got = sent_n(fast)
    assert [n for n in got if n < 100] == list(range(10))
    assert [n for n in got if n >= 100] == list(range(100, 110))
    assert states(a) == states(b) == ["delivered"] * 10


def test_stop_leaves_deliveries_pending_and_a_kick_resumes_them(worker, receivers, sandboxes):
    worker(threads=2)
    failing = receivers(mode="500")
    events = sandboxes(failing.url("share"), retry_delays=[0.3, 0.3, 0.3])
    share(events, 1)
    until(lambda: len(failing.hits) == 1)
    events.stop()
    assert not events.running
    time.sleep(0.8)
    assert len(failing.hits) == 1 and states(events) == ["pending"]     # stopped: no retry, still pending
    failing.mode = "ok"
    events.kick()
    until(lambda: states(events) == ["delivered"])
    assert len(failing.hits) == 2


def test_stop_waits_for_the_pass_in_progress(worker, receivers, sandboxes):
    worker(threads=2)
    slow = receivers(mode="sleep", sleep_s=0.8)
    events = sandboxes(slow.url("share"), answer_timeout=3.0)
    share(events, 1)
    share(events, 2)
    until(lambda: len(slow.hits) == 1)
    t0 = time.monotonic()
    events.stop(timeout=5)
    assert 0.3 < time.monotonic() - t0 < 3 and not events.running     # the attempt under way finished ...
    time.sleep(0.3)
    assert len(slow.hits) == 1 and states(events) == ["delivered", "pending"]   # ... and no other began
