"""Bulk runs of many independent GET-like calls (geocode, regions_of, keyword/category sweeps, many-origin
matrices): distinct keys sent once, a persisted cache, a rate cap, a quota stop with a resume point, progress,
and adaptive concurrency. Not an area: the areas that run bulk jobs use it.

Adaptive concurrency (``concurrency="auto"``, the default of the bulk helpers): the run starts with
:data:`START` requests in flight and, after every window of answers (one answer per request the limit allows),
grows the limit while the median latency stays within :data:`HOLD` times the best seen (the network, not the
server, is the bound): until the first window where latency did not hold it doubles, one more request for each
answer in time (a slow start, as TCP's: no wait for a window's last answer), then grows by half a window. It shrinks by a fifth when latency climbs (the server queues). An HTTP 429 halves the limit and pauses every
start for its ``Retry-After`` (the core retries the refused call itself). The limit never exceeds ``cap``
(default :data:`CAP`). An integer ``concurrency`` fixes the limit.

A client remembers where its last adaptive run against a server (scheme, host and port) ended, as TCP keeps a
path's window: the next run there within :data:`REMEMBER_S` seconds starts at that limit (within its own cap)
instead of :data:`START`, and still backs off when latency climbs or the server refuses. A run remembers its
limit only when it had at least a window's worth of requests. (On a short run the ramp from 8 was most of it:
a 300-query sweep at 30 ms spent about a sixth of its time below its final limit.)

>>> limiter = Adaptive("auto")
>>> limiter.limit, limiter.cap
(8, 64)
>>> for _ in range(8):
...     limiter.observe(200, 0.030, None)
>>> limiter.limit                                    # latency held: grow (doubling at first)
16
>>> limiter.observe(429, 0.030, 2.0); limiter.limit  # refused: halve and pause 2 s
8
"""
from __future__ import annotations

import contextlib
import gc
import json
import sqlite3
import statistics
import threading
import time
from pathlib import Path

from .errors import ApiError, ParameterError, QuotaExceeded, ToolkitError

__all__ = ["Adaptive", "Bulk", "Cache", "Pacer", "START", "CAP", "HOLD", "REMEMBER_S", "YOUNG_GC", "fewer_collections"]

START, CAP, HOLD = 8, 64, 1.5
MAX_CAP = 64
REMEMBER_S = 600.0

YOUNG_GC = 10_000
"""The cyclic collector's young-generation threshold while a concurrent bulk run is under way (Python's default
is 700). Each request in flight holds about a hundred container objects (httpx, httpcore, anyio, asyncio,
tenacity) for the whole round trip; with 64 in flight, every young collection found some 6,000 of them alive
and promoted them, so that about half of the runs of a 300-centre sweep ended in a full collection of the
process's heap (26-34 ms in the benchmark's process, more in a notebook's kernel): the collector took 4-12 %
of the run. A young collection every 10,000 allocations instead of every 700 promotes a fourteenth as often;
the cyclic garbage left uncollected meanwhile is at most those 10,000 objects. See :func:`fewer_collections`."""

_gc_lock = threading.Lock()
_gc_runs = 0                                        # bulk runs under way (threads and event loops together)
_gc_saved: tuple[int, int, int] | None = None       # the thresholds before the first of them
_gc_set: tuple[int, int, int] | None = None         # the thresholds it set


@contextlib.contextmanager
def fewer_collections():
    """Raise the young-generation threshold of :mod:`gc` to :data:`YOUNG_GC` while the block runs, and restore
    it when the last of the runs that overlap ends. A threshold already as high, a disabled collector, and a
    threshold changed by someone else meanwhile are left as they are.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold()[0] >= YOUNG_GC
    True
    >>> gc.get_threshold() == before
    True
    """
    global _gc_runs, _gc_saved, _gc_set
    with _gc_lock:
        _gc_runs += 1
        if _gc_runs == 1:
            current = gc.get_threshold()
            _gc_saved = _gc_set = None
            if gc.isenabled() and 0 < current[0] < YOUNG_GC:
                _gc_saved, _gc_set = current, (YOUNG_GC, *current[1:])
                gc.set_threshold(*_gc_set)
    try:
        yield
    finally:
        with _gc_lock:
            _gc_runs -= 1
            if _gc_runs == 0 and _gc_saved is not None:
                if gc.get_threshold() == _gc_set:
                    gc.set_threshold(*_gc_saved)
                _gc_saved = _gc_set = None


def _int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(name, f"must be a whole number from {lo} to {hi}", value)
    return value


class Cache:
    """A persisted key → answer cache (SQLite file), so a re-run of a bulk job makes no requests.

    Answers are written as they arrive and committed at least every :attr:`COMMIT_EVERY` seconds and when the
    run ends, however it ends (a stopped or interrupted run keeps what it got; a process killed outright loses
    at most the last fraction of a second, which a re-run requests again). A commit per answer waited for the
    disk on the event loop: about 1 ms per answer, as much as the request itself. Errors are not cached (a re-run
    tries them again)."""

    COMMIT_EVERY = 0.25

    def __init__(self, path):
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.lock = threading.Lock()
        self.db.execute("CREATE TABLE IF NOT EXISTS geocode (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self.db.commit()
        self.committed = time.monotonic()

    def get_many(self, keys: list[str]) -> dict[str, dict]:
        """The cached answers of ``keys`` (one query per 500 keys, not one per key)."""
        found: dict[str, dict] = {}
        with self.lock:
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                marks = ",".join("?" * len(chunk))
                for key, value in self.db.execute(f"SELECT key, value FROM geocode WHERE key IN ({marks})", chunk):
                    found[key] = json.loads(value)
        return found

    def get(self, key: str):
        return self.get_many([key]).get(key)

    def put(self, key: str, value: dict):
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO geocode VALUES (?, ?)",
                            (key, json.dumps(value, ensure_ascii=False)))
            if time.monotonic() - self.committed >= self.COMMIT_EVERY:
                self.db.commit()
                self.committed = time.monotonic()

    def close(self):
        """Commit what is not yet committed and close the file."""
        with self.lock:
            try:
                self.db.commit()
            finally:
                self.db.close()


class Pacer:
    """The ``rate=`` limit: request starts are spaced by at least ``1 / rate`` seconds (across all workers)."""

    def __init__(self, rate: float | None):
        if rate is not None:
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not rate > 0 or rate != rate:
                raise ParameterError("rate", "must be a positive number of requests per second, or None", rate)
        self.interval = 1.0 / rate if rate else 0.0
        self.next = 0.0

    def delay(self) -> float:
        """Reserve the next start slot; the seconds to wait for it (0 without a limit)."""
        if not self.interval:
            return 0.0
        now = time.monotonic()
        slot = max(now, self.next)
        self.next = slot + self.interval
        return slot - now


class Adaptive:
    """The in-flight limit of a bulk run: fixed (an int) or adaptive (``"auto"``), see the module docstring.

    ``observe(status, seconds, retry_after)`` takes every attempt's outcome (the core reports them);
    ``pause`` is the monotonic time before which no request starts (a 429's Retry-After)."""

    def __init__(self, concurrency="auto", cap: int | None = None):
        self.adaptive = concurrency == "auto"
        if self.adaptive:
            self.cap = CAP if cap is None else _int("max_concurrency", cap, 1, MAX_CAP)
            self.limit = min(START, self.cap)
        else:
            self.limit = _int("concurrency", concurrency, 1, MAX_CAP)
            self.cap = self.limit
        self.best: float | None = None
        self.window: list[float] = []
        self.pause = 0.0
        self.slow_start = True     # double while latency holds, until it first does not (or a 429)
        self.target = self.limit   # answers in the current window: the limit when it began
        self.peak = self.limit
        self.throttled = 0

    def observe(self, status, seconds: float | None, retry_after: float | None) -> None:
        if status == 429:
            self.throttled += 1
            wait = retry_after if retry_after is not None else 1.0
            self.pause = max(self.pause, time.monotonic() + wait)
            if self.adaptive:
                self.limit = max(1, self.limit // 2)
                self.window.clear()
                self.slow_start = False
                self.target = self.limit
            return
        if not self.adaptive or seconds is None or not isinstance(status, int) or status >= 500:
            return
        self.best = seconds if self.best is None else min(self.best, seconds)
        self.window.append(seconds)
        if self.slow_start and seconds <= HOLD * self.best + 0.002:
            self.limit = min(self.cap, self.limit + 1)    # each answer in time lets two requests start
        if len(self.window) < self.target:
            return self._peak()
        median = statistics.median(self.window)
        self.window.clear()
        if median <= HOLD * self.best + 0.002:
            if not self.slow_start:
                self.limit = min(self.cap, self.limit + max(1, self.limit // 2))
        else:
            self.slow_start = False
            if median > 2 * HOLD * self.best:
                self.limit = max(1, self.limit - max(1, self.limit // 5))
        self.target = self.limit
        self._peak()

    def resume(self, level: int) -> None:
        """Start at ``level`` (within the cap) instead of :data:`START`: where an earlier run ended."""
        self.limit = self.target = self.peak = min(level, self.cap)

    def _peak(self) -> None:
        self.peak = max(self.peak, self.limit)


class Bulk:
    """One bulk job over distinct keys: cache look-up, pacing, progress, quota stop, concurrency. The sync and
    the async runners differ only in how a call is sent; ``make_call(key)`` builds a call whose ``parse`` gives
    the answer dict, the same for both."""

    def __init__(self, keys: list[str], make_call, *, cache, namespace: str, concurrency, rate,
                 progress: bool, desc: str, max_concurrency: int | None = None):
        if concurrency != "auto" and (isinstance(concurrency, str) or concurrency is None):
            raise ParameterError("concurrency", f"must be 'auto' or a whole number from 1 to {MAX_CAP}",
                                 concurrency)
        self.make_call, self.namespace = make_call, namespace
        self.limiter = Adaptive(concurrency, max_concurrency)
        self.start = self.limiter.limit
        self.pacer = Pacer(rate)
        self.store = Cache(Path(cache)) if cache is not None else None
        self.answers: dict[str, dict] = {}
        self.todo: list[str] = []
        self.hits = self.requests = 0
        self.stopped = False
        found = self.store.get_many([namespace + k for k in keys]) if self.store else {}
        for key in keys:
            hit = found.get(namespace + key)
            if hit is not None:
                self.answers[key] = hit
                self.hits += 1
            else:
                self.todo.append(key)
        self.bar = None
        if progress:
            from .progress import Progress

            self.bar = Progress(len(keys), desc, "query", initial=self.hits)   # ends as a line: geocode: 93/93 in …

    @property
    def concurrency(self) -> int:
        """The most requests this run may have in flight (the cap when adaptive)."""
        return self.limiter.cap

    # ---------------------------------------------------------------- shared bookkeeping
    def _ok(self, key: str, found: dict) -> None:
        self.answers[key] = found
        if self.store:
            self.store.put(self.namespace + key, found)
        self._tick()

    def _failed(self, key: str, exc: ToolkitError) -> None:
        if isinstance(exc, QuotaExceeded):   # -10: stop cleanly; this key stays not done
            self.stopped = True
            return
        self.answers[key] = {"error": exc.code if isinstance(exc, ApiError) else None,
                             "message": str(exc).splitlines()[0][:200]}
        self._tick()

    def _tick(self):
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()
        if self.store:
            self.store.close()

    def stats(self) -> dict:
        """What the run did: requests, cache hits, the in-flight limit it started at and the highest it reached,
        429 answers seen."""
        return {"requests": self.requests, "cache_hits": self.hits, "concurrency_start": self.start,
                "concurrency_peak": self.limiter.peak, "throttled": self.limiter.throttled}

    # ---------------------------------------------------------------- runners
    def run_sync(self, send) -> None:
        for key in self.todo:
            if self.stopped:
                break
            time.sleep(max(self.pacer.delay(), self.limiter.pause - time.monotonic(), 0.0))
            self.requests += 1
            try:
                result = send(self.make_call(key))
            except ToolkitError as exc:
                self._failed(key, exc)
                continue
            self._ok(key, result)

    async def run_async(self, core) -> None:
        """Run the job on ``core`` (a :class:`~toolkit.http.RequestCore`) in the running loop."""
        import asyncio

        from .http import use_pool

        limiter = self.limiter
        keys = iter(self.todo)   # shared by the workers: each takes the next key
        in_flight = waiting = 0
        slots = asyncio.Condition()   # a finished request wakes as many waiting workers as the limit has room for
        previous = core.observer
        core.observer = limiter.observe

        def may_start() -> bool:
            return self.stopped or in_flight < limiter.limit

        async def worker(index: int):
            nonlocal in_flight, waiting
            use_pool(index)                # this task's small connection pool (toolkit.http.POOL_SIZE)
            for key in keys:
                pause = limiter.pause - time.monotonic()   # a 429's Retry-After holds every start
                if pause > 0:
                    await asyncio.sleep(pause)
                if not may_start():        # one event loop: nothing runs between this check and the count
                    waiting += 1
                    try:
                        async with slots:
                            await slots.wait_for(may_start)
                    finally:
                        waiting -= 1
                in_flight += 1
                try:
                    wait = self.pacer.delay()
                    if wait:
                        await asyncio.sleep(wait)
                    if self.stopped:
                        return
                    self.requests += 1
                    try:
                        result = await core.asend(self.make_call(key))
                    except ToolkitError as exc:
                        self._failed(key, exc)
                    else:
                        self._ok(key, result)
                finally:
                    in_flight -= 1
                    if waiting:            # the lock and the wake-up only when a worker waits for room
                        async with slots:
                            slots.notify(max(1, limiter.limit - in_flight))

        try:
            with fewer_collections():
                await asyncio.gather(*(worker(i) for i in range(min(limiter.cap, len(self.todo)) or 1)))
        finally:
            core.observer = previous

    def run_threaded(self, client) -> None:
        """The sync client: the async runner on a private event loop and connection pool in a worker thread
        (works inside Jupyter's running loop too)."""
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        from .http import RequestCore

        core = RequestCore(client.config, async_transport=client.core._async_transport)
        core.attempts_log = client.core.attempts_log   # one log of attempts for the client
        core.headers = client.core.headers

        async def main():
            try:
                await self.run_async(core)
            finally:
                await core.aclose()

        with ThreadPoolExecutor(1, thread_name_prefix="toolkit-bulk") as pool:
            future = pool.submit(asyncio.run, main())
            try:
                future.result()
            except BaseException:
                self.stopped = True   # e.g. KeyboardInterrupt: the workers stop after their current call
                raise

    def _resume(self, client) -> str | None:
        """Start an adaptive run at the limit the client's last run against the same server ended at (see the
        module docstring); the server's origin, under which this run's limit is remembered."""
        if not self.limiter.adaptive or not self.todo:
            return None
        from urllib.parse import urlsplit

        parts = urlsplit(client.core.url(self.make_call(self.todo[0])))
        origin = f"{parts.scheme}://{parts.netloc}"
        level, when = client.core.bulk_levels.get(origin, (None, 0.0))
        if level is not None and time.monotonic() - when <= REMEMBER_S:
            self.limiter.resume(level)
            self.start = self.limiter.limit
        return origin

    def _remember(self, client, origin: str | None) -> None:
        if origin is not None and self.requests >= self.limiter.limit:
            client.core.bulk_levels[origin] = (self.limiter.limit, time.monotonic())

    def run(self, client, finish):
        """Run with ``client``'s runner and return ``finish(self)``: at once on the sync client (the requests in
        flight on a private loop), as an awaitable on the async client."""
        origin = self._resume(client)
        if client._async:
            async def run():
                try:
                    await self.run_async(client.core)
                    self._remember(client, origin)
                finally:
                    self.close()
                return finish(self)
            return run()
        try:
            if self.limiter.cap > 1 and len(self.todo) > 1:
                self.run_threaded(client)
            else:
                previous, client.core.observer = client.core.observer, self.limiter.observe
                try:
                    self.run_sync(client.core.send)   # one at a time; a 429's Retry-After still pauses it
                finally:
                    client.core.observer = previous
            self._remember(client, origin)
        finally:
            self.close()
        return finish(self)


def align(index, keys: list[str], answers: dict, classify):
    """Per input row, in input order: its status and its answer ({} when none), and the first row not done (the
    resume point). ``classify(answer)`` names the status of a row that has an answer."""
    statuses, rows, resume_at = [], [], None
    for label, key in zip(index, keys):
        a = answers.get(key)
        if not key:
            status = "empty"
        elif a is None:
            status = "not_done"
            resume_at = label if resume_at is None else resume_at
        elif "message" in a:
            status = "error"
        else:
            status = classify(a)
        statuses.append(status)
        rows.append(a or {})
    return statuses, rows, resume_at


def stats(job: Bulk, rows: int, resume_at) -> dict:
    """``attrs[...]`` of a bulk result: rows, distinct queries, requests, cache hits, quota stop and resume point."""
    errors = sorted({a["message"] for a in job.answers.values() if "message" in a})
    return {"rows": rows, "queries": job.hits + len(job.todo), **job.stats(), "stopped_by_quota": job.stopped,
            "resume_at": resume_at, "errors": errors[:20]}
