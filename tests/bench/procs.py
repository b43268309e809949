"""Benchmark helpers: the sandbox (and a minimal reference app) each in its own process, as ``toolkit lab`` runs
it, so a benchmark's client never shares a GIL with the server it measures.

>>> with sandbox_process() as sb:          # doctest: +SKIP
...     sb.base_url, sb.config["app"]["rest_api_key"]
"""
from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import toolkit.data

ROOT = Path(__file__).resolve().parents[2]


LUA_REPORT = """
done = function(summary, latency, requests)
  io.write(string.format('{"requests": %d, "seconds": %f, "p50_us": %f, "p99_us": %f, "max_us": %f, '
    .. '"errors": %d, "non2xx": %d}\\n', summary.requests, summary.duration / 1e6, latency:percentile(50),
    latency:percentile(99), latency.max, summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout, summary.errors.status))
end
"""
"""The end of a wrk Lua script: one JSON line of the run's figures (requests, seconds, p50/p99/max in µs, errors,
answers other than 2xx)."""


def rss_mb(pid: int) -> float:
    """Resident memory of a process (``VmRSS``), in MiB."""
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"^VmRSS:\s+(\d+) kB", f.read(), re.M).group(1)) / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for_url(proc: subprocess.Popen, what: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                raise RuntimeError(f"{what} exited with code {proc.returncode}")
            continue
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return found.group(0)
    raise RuntimeError(f"{what} did not print its URL within {timeout:.0f} s")


@contextlib.contextmanager
def _process(cmd: list[str], what: str, cwd=None):
    """``cmd`` started and stopped around the block, which gets (process, the URL it printed). ``cwd``: another
    checkout to run it from (its ``toolkit`` first on the path, e.g. an older version side by side)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **({"PYTHONPATH": str(cwd)} if cwd else {})}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                            cwd=cwd or ROOT)
    try:
        yield proc, _wait_for_url(proc, what)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()


@contextlib.contextmanager
def sandbox_process(*args: str):
    """``toolkit sandbox --port 0 [args]`` in a child process; yields its base URL and ``/sandbox/config``."""
    with _process([sys.executable, "-m", "toolkit.cli", "sandbox", "--port", "0", *args], "toolkit sandbox") \
            as (proc, base):
        with urllib.request.urlopen(base + "/sandbox/config", timeout=30) as answer:
            config = json.loads(answer.read())
        yield SimpleNamespace(base_url=base, config=config, proc=proc, hosts=config["hosts"],
                              key=config["app"]["rest_api_key"])


@contextlib.contextmanager
def minimal_process():
    """The reference: one Starlette JSON endpoint on the sandbox's own server stack, in a child process."""
    with _process([sys.executable, str(Path(__file__).with_name("minimal_app.py"))], "minimal app") as (_, base):
        yield base


def client_config(sb, **options):
    """A toolkit client for a sandbox process (no control API handle: the client only needs hosts and keys)."""
    import toolkit

    app = sb.config["app"]
    return toolkit.connect(sb.hosts, rest_api_key=app["rest_api_key"], admin_key=app["admin_key"],
                           client_secret=app["client_secret"], app_id=app["app_id"],
                           redirect_uri=app["redirect_uris"][0], **options)


def control(sb, method: str, path: str, body=None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(sb.base_url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as answer:
        return json.loads(answer.read())


def requests_seen(sb, api: str) -> int:
    """How many requests of a local API the sandbox received (its control API counts them)."""
    return control(sb, "GET", f"/sandbox/local/requests?api={api}")["total"]


def addresses(n: int, dup_share: float = 0.0, seed: int = 7) -> list[str]:
    """``n`` real addresses of the sandbox's data set (land-lot and road forms alternating), ``n * (1 -
    dup_share)`` of them distinct (as geocode counts them: whitespace-normalised), the rest repeats, shuffled."""
    raw = gzip.decompress((toolkit.data.root() / "local" / "addresses.csv.gz").read_bytes()).decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(raw)))
    rng = random.Random(seed)
    distinct = max(1, int(round(n * (1 - dup_share))))
    rng.shuffle(rows)
    seen: dict[str, str] = {}        # normalised text -> text: distinct as geocode counts them
    forms = [(r["road_address_name"], r["address_name"])[::1 if i % 2 else -1] for i, r in enumerate(rows)]
    for text in [f[0] for f in forms] + [f[1] for f in forms]:   # one form of each, then the other form
        if text:
            seen.setdefault(" ".join(text.split()), text)
        if len(seen) == distinct:
            break
    texts = list(seen.values())
    texts += [rng.choice(texts) for _ in range(n - len(texts))]
    rng.shuffle(texts)
    return texts


def points(n: int, seed: int = 7) -> list[tuple[float, float]]:
    """``n`` points of the sandbox's address data set (x, y in WGS84)."""
    raw = gzip.decompress((toolkit.data.root() / "local" / "addresses.csv.gz").read_bytes()).decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(raw)))
    rng = random.Random(seed)
    return [(float(r["x"]), float(r["y"])) for r in rng.sample(rows, n)]


def goal(label: str, value: float, target: float, *, at_most: bool = False, unit: str = "",
         error: float = 0.0) -> str:
    """One printed line: a measured ratio next to its goal and whether it is met. ``error``: the figure's own
    measurement error (a goal of equality, e.g. two paths that run the same code, is met unless the figure misses
    it by more than that; the line shows it).

    >>> goal("x vs y", 0.995, 1.0, error=0.012)[-35:]
    '0.99  goal ≥ 1 (± 0.012 error)  met'
    >>> goal("x vs y", 0.98, 1.0, error=0.012)[-39:]
    '0.98  goal ≥ 1 (± 0.012 error)  NOT met'
    """
    met = value <= target + error if at_most else value >= target - error
    sign = "≤" if at_most else "≥"
    within = f" (± {error:.3f} error)" if error else ""
    return f"{label:<62} {value:>8.2f}{unit}  goal {sign} {target:g}{unit}{within}  {'met' if met else 'NOT met'}"


def median_and_error(values: list[float]) -> tuple[float, float]:
    """The median of ``values`` and twice its standard error, from their median absolute deviation (robust to
    one run the machine disturbed): 1.4826 MAD estimates the spread of one value, 1.2533 / sqrt(n) of it the
    standard error of the median of n.

    >>> m, e = median_and_error([1.017, 0.991, 1.001, 0.936, 1.0])
    >>> round(m, 3), round(e, 3)
    (1.0, 0.015)
    """
    import statistics

    m = statistics.median(values)
    mad = statistics.median(abs(v - m) for v in values)
    return m, 2 * 1.2533 * 1.4826 * mad / len(values) ** 0.5


def place_names(n: int, seed: int = 7) -> list[str]:
    """``n`` distinct place names of the sandbox's data set (keyword queries that find something)."""
    index = json.loads(gzip.decompress((toolkit.data.root() / "local" / "places_index.json.gz").read_bytes()))
    names = sorted(set(index["data"][index["columns"].index("place_name")]))
    return random.Random(seed).sample(names, n)
