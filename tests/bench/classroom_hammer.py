"""A student who hammers a class sandbox: many connections, each sending the next request as soon as the last is
answered (never waiting for ``Retry-After``), for a while. Run as its own process by the hostile-student test and
bench_classroom, so its CPU is not the measuring process's.

    python tests/bench/classroom_hammer.py < job.json      # run by the tests, never by hand

The job (JSON on standard input, so no token shows in a process list): ``{"url", "headers": {...}, "path",
"connections", "seconds"}``. The process prints ``ready`` once its connections are made, waits for ``go`` on
standard input, and prints ``result {...}``: answers by status, how many 429s carried ``Retry-After``, transport
errors by kind, requests sent, and the most answers within any 50 ms (``peak_50ms``: how bursty they come).
"""
from __future__ import annotations

import asyncio
import collections
import json
import sys
import time


async def hammer(job: dict) -> dict:
    import httpx

    statuses: collections.Counter = collections.Counter()
    errors: collections.Counter = collections.Counter()
    answered: list[float] = []           # when each answer came (monotonic seconds)
    retry_after = 0
    limits = httpx.Limits(max_connections=job["connections"], max_keepalive_connections=job["connections"])
    async with httpx.AsyncClient(base_url=job["url"], headers=job["headers"], limits=limits, timeout=60,
                                 trust_env=False) as client:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        until = time.monotonic() + job["seconds"]

        async def one_connection():
            nonlocal retry_after
            while time.monotonic() < until:
                try:
                    resp = await client.get(job["path"])
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] += 1
                    continue
                statuses[resp.status_code] += 1
                answered.append(time.monotonic())
                if resp.status_code == 429 and resp.headers.get("retry-after", "").isdigit():
                    retry_after += 1

        await asyncio.gather(*(one_connection() for _ in range(job["connections"])))
    return {"statuses": {str(k): v for k, v in statuses.items()}, "retry_after": retry_after,
            "errors": dict(errors), "sent": sum(statuses.values()) + sum(errors.values()),
            "peak_50ms": peak(answered, 0.05)}


def peak(times: list[float], window: float) -> int:
    """The most answers that came within any ``window`` seconds: how bursty the class sandbox's answers are.

    >>> peak([0.0, 0.01, 0.02, 1.0, 1.5], 0.05)
    3
    """
    times = sorted(times)
    best = start = 0
    for end, t in enumerate(times):
        while t - times[start] > window:
            start += 1
        best = max(best, end - start + 1)
    return best


def start(url: str, headers: dict, path: str, connections: int, seconds: float):
    """Start a hammering student's process (this file); returns ``(process, go)``: ``go()`` starts the hammer,
    waits for its end and returns its result."""
    import subprocess
    from pathlib import Path

    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"url": url, "headers": headers, "path": path, "connections": connections,
                                 "seconds": seconds}) + "\n")
    proc.stdin.flush()
    ready = proc.stdout.readline().strip()
    if ready != "ready":
        proc.kill()
        proc.wait(30)
        raise RuntimeError(f"the hammer did not start: {ready!r}")

    def go() -> dict:
        try:
            proc.stdin.write("go\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            proc.wait(60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
            proc.stdin.close()
            proc.stdout.close()
        if not line.startswith("result "):
            raise RuntimeError(f"the hammer ended without its result: {line!r}")
        return json.loads(line[len("result "):])
    return proc, go


def main() -> int:
    job = json.loads(sys.stdin.readline())
    result = asyncio.run(hammer(job))
    print("result " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
