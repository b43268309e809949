"""The load model of a class as a benchmark: N simulated students arrive at a lesson's start and work through a
walkthrough, against one class sandbox (``toolkit classroom --db``, its own process, a fresh one for each N).

    .venv/bin/python tests/bench/bench_class_load.py            # N = 100, 300, 1000 (about 8 minutes)
    .venv/bin/python tests/bench/bench_class_load.py --short    # N = 40, 8 s + 8 s (CI, in run_all.py --short)
    .venv/bin/python tests/bench/bench_class_load.py 50 200     # other class sizes

Each student is its own token and world. The students are driven by one asyncio process (aiohttp's compiled HTTP
client; a connection pool per student, as a kernel keeps one), not a Python process per student, so the generator
costs a few per cent of a core at a thousand students and the machine's cores go to the class sandbox.

* **Arrival**: the class's first requests (``GET /sandbox/config``: the world is made by it) come at a lesson's
  start: 40 % within the first 5 seconds, the rest spread evenly over the arrival window (60 s; 8 s short). Every
  student must get their world; the table shows the longest and the p95 wait of a first request (goal: the
  slowest ≤ 5 s).
* **Walkthrough pace**: then each student makes one step of a walkthrough — a keyword, address or category search,
  a region lookup, a route, the API status, or a map view (12 tiles over 6 connections, as a browser) — and thinks
  2–10 s (a notebook cell every 6 s on average: faster than a person reads), for the measured window (60 s;
  8 s short). The table shows each request's p50/p95/p99 (goal: p95 ≤ 50 ms) and the failed requests.
* The class sandbox's CPU (cores used over each phase, from /proc) and its peak resident memory (sampled every
  0.5 s; goal ≤ 2 GiB), and the generator's own CPU.

Measured on a 2-core machine shared with other work: read the load average printed with each row.
"""
from __future__ import annotations

import asyncio
import os
import random
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.procs import _process, cpu_seconds, goal, rss_mb  # noqa: E402

THINK = (2.0, 10.0)
BURST_SHARE, BURST_SECONDS = 0.4, 5.0
TILES = [(14, x, y) for x in range(14064, 14068) for y in range(6479, 6482)]
STEPS = {   # step → (weight, request paths); each path is sent with the student's header and REST API key
    "keyword": (3, ["/local/v2/local/search/keyword.json?query=%ED%95%B4%EC%9A%B4%EB%8C%80&x=129.16&y=35.16"
                    "&radius=5000"]),
    "address": (2, ["/local/v2/local/search/address.json?query=%EB%B6%80%EC%82%B0%EC%A7%84%EA%B5%AC%20%EC%A0%84"
                    "%ED%8F%AC%EB%8F%99%20341-17"]),
    "category": (2, ["/local/v2/local/search/category.json?category_group_code=CE7&x=129.0592&y=35.1579"
                     "&radius=500&sort=distance"]),
    "region": (1, ["/local/v2/local/geo/coord2regioncode.json?x=129.0592&y=35.1579"]),
    "route": (2, ["/navi/v1/directions?origin=129.1586,35.1631&destination=129.0592,35.1579"]),
    "status": (1, ["/status/api/health/current?lang=en"]),
    "map": (1, [f"/sandbox/tiles/{z}/{x}/{y}.png" for z, x, y in TILES]),
}


def percentile(values, q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


class Sampler(threading.Thread):
    """The class sandbox's peak resident memory, every 0.5 s."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, rss_mb(pid), threading.Event()

    def run(self):
        while not self.done.wait(0.5):
            try:
                self.peak = max(self.peak, rss_mb(self.pid))
            except OSError:
                return


async def run_class(url: str, secret, n: int, arrive: float, seconds: float, seed: int) -> dict:
    import aiohttp

    from toolkit.classroom import HEADER, classroom_header, student_token

    rng = random.Random(seed)
    names = [f"s{seed}-{k:04d}" for k in range(n)]
    headers = {name: {HEADER: classroom_header(name, student_token(secret, name))} for name in names}
    starts = sorted(rng.uniform(0, BURST_SECONDS) if rng.random() < BURST_SHARE else rng.uniform(0, arrive)
                    for _ in names)
    weights = [w for w, _ in STEPS.values()]
    kinds = list(STEPS)
    waits, failures, latencies = [], {}, {k: [] for k in kinds}
    phase = {"walk": False}
    walk_from = time.monotonic() + arrive + 2.0
    until = walk_from + seconds
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)

    def failed(what: str) -> None:
        failures[what] = failures.get(what, 0) + 1

    async def get(session, path: str, head: dict, kind: str, record: bool) -> None:
        started = time.perf_counter()
        try:
            async with session.get(url + path, headers=head) as resp:
                await resp.read()
                status = resp.status
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            failed(f"{kind} {type(exc).__name__}")
            return
        if status >= 400:
            failed(f"{kind} HTTP {status}")
        elif record:
            latencies[kind].append(1000 * (time.perf_counter() - started))

    async def student(name: str, start: float, origin: float) -> None:
        await asyncio.sleep(max(0.0, origin + start - time.monotonic()))
        async with aiohttp.ClientSession(connector=connector, connector_owner=False, timeout=timeout) as session:
            began = time.monotonic()
            try:
                async with session.get(url + "/sandbox/config", headers=headers[name]) as resp:
                    config = await resp.json() if resp.status == 200 else None
                    status = resp.status
            except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
                failed(f"arrival {type(exc).__name__}")
                return
            waits.append(time.monotonic() - began)
            if config is None:
                failed(f"arrival HTTP {status}")
                return
            head = {**headers[name], "Authorization": f"ServiceAK {config['app']['rest_api_key']}"}
            while True:
                now = time.monotonic()
                if now >= until:
                    return
                record = now >= walk_from
                kind = rng.choices(kinds, weights)[0]
                paths = STEPS[kind][1]
                if kind == "map":           # a browser's 6 connections for a map view's 12 tiles
                    for k in range(0, len(paths), 6):
                        await asyncio.gather(*(get(session, p, headers[name], kind, record) for p in paths[k:k + 6]))
                else:
                    await get(session, paths[0], head, kind, record)
                await asyncio.sleep(rng.uniform(*THINK))

    origin = time.monotonic()
    await asyncio.gather(*(student(name, start, origin) for name, start in zip(names, starts)))
    await connector.close()
    everything = [v for values in latencies.values() for v in values]
    return {"waits": waits, "failures": failures, "latencies": latencies, "all": everything, "walk_from": walk_from,
            "until": until, "phase": phase}


def one_size(n: int, arrive: float, seconds: float, seed: int) -> dict:
    from toolkit.classroom import read_secret

    with tempfile.TemporaryDirectory(prefix="bench-class-load-") as folder:
        tmp = Path(folder)
        secret_file = tmp / "class.secret"
        secret = read_secret(secret_file, create=True)
        cmd = [sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file", str(secret_file),
               "--db", str(tmp / "worlds.sqlite")]
        with _process(cmd, "toolkit classroom") as (proc, url):
            import httpx

            from toolkit.classroom import TEACHER_HEADER, teacher_token

            teacher = {TEACHER_HEADER: teacher_token(secret)}
            deadline = time.monotonic() + 120          # the class sandbox warms up before the lesson starts
            while not httpx.get(url + "/classroom/health", headers=teacher, timeout=60).json().get("ready"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the class sandbox did not warm up in 2 minutes")
                time.sleep(0.2)
            sampler = Sampler(proc.pid)
            sampler.start()
            cpu0, own0, wall0 = cpu_seconds(proc.pid), _own_cpu(), time.monotonic()
            marks = {}

            def mark_walk():
                marks["cpu"], marks["own"], marks["wall"] = cpu_seconds(proc.pid), _own_cpu(), time.monotonic()

            timer = threading.Timer(arrive + 2.0, mark_walk)
            timer.start()
            result = asyncio.run(run_class(url, secret, n, arrive, seconds, seed))
            timer.join()
            cpu1, own1, wall1 = cpu_seconds(proc.pid), _own_cpu(), time.monotonic()
            sampler.done.set()
            sampler.join()
            result.update(
                arrival_cores=(marks["cpu"] - cpu0) / (marks["wall"] - wall0),
                walk_cores=(cpu1 - marks["cpu"]) / (wall1 - marks["wall"]),
                generator_cores=(own1 - own0) / (wall1 - wall0), rss_peak=sampler.peak, rss_end=rss_mb(proc.pid),
                load=os.getloadavg()[0], rate=len(result["all"]) / seconds, n=n)
            return result


def _own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(argv: list[str]) -> int:
    short = "--short" in argv
    sizes = [int(a) for a in argv if a.isdigit()] or ([40] if short else [100, 300, 1000])
    arrive, seconds = (8.0, 8.0) if short else (60.0, 60.0)
    print(f"benchmark a class arriving and working{' (short)' if short else ''}: students {sizes}, arrival over "
          f"{arrive:g} s ({BURST_SHARE:.0%} within the first {BURST_SECONDS:g} s), then {seconds:g} s at a "
          f"walkthrough's pace (think {THINK[0]:g}-{THINK[1]:g} s), one asyncio generator, {os.cpu_count()} cores")
    print(f"{'students':>8} {'worlds':>7} {'wait max s':>10} {'wait p95 s':>10} {'req/s':>6} {'p50 ms':>7} "
          f"{'p95 ms':>7} {'p99 ms':>7} {'failed':>6} {'cores arrive':>12} {'cores walk':>10} {'peak MB':>8} "
          f"{'gen cores':>9} {'load':>5}", flush=True)
    rows = []
    for k, n in enumerate(sizes):
        r = one_size(n, arrive, seconds, seed=k + 1)
        rows.append(r)
        print(f"{n:>8} {len(r['waits']):>7} {max(r['waits'], default=float('nan')):>10.2f} "
              f"{percentile(r['waits'], 0.95):>10.2f} {r['rate']:>6.1f} {percentile(r['all'], 0.5):>7.1f} "
              f"{percentile(r['all'], 0.95):>7.1f} {percentile(r['all'], 0.99):>7.1f} "
              f"{sum(r['failures'].values()):>6} {r['arrival_cores']:>12.2f} {r['walk_cores']:>10.2f} "
              f"{r['rss_peak']:>8.0f} {r['generator_cores']:>9.2f} {r['load']:>5.1f}", flush=True)
        if r["failures"]:
            print(f"         failed: {r['failures']}")
        slow = sorted(r["latencies"].items(), key=lambda kv: -percentile(kv[1], 0.95))
        print("         by step (requests, p95 ms): " + ", ".join(
            f"{kind} {len(v)} {percentile(v, 0.95):.1f}" for kind, v in slow if v), flush=True)
    last = rows[-1]
    n = last["n"]
    print(goal(f"{n} students: every one got their world", len(last["waits"]), n))
    print(goal(f"{n} students: the slowest first request s", max(last["waits"], default=1e9), 5, at_most=True))
    print(goal(f"{n} students: p95 ms at a walkthrough's pace", percentile(last["all"], 0.95), 50, at_most=True))
    print(goal(f"{n} students: failed requests", sum(last["failures"].values()), 0, at_most=True))
    print(goal(f"{n} students: the class sandbox's peak resident MB", last["rss_peak"], 2048, at_most=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
