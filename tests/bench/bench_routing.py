"""Routing benchmark, measured side by side (run: .venv/bin/python tests/bench/bench_routing.py [--short]).

The sandbox runs in its own process (``toolkit sandbox``), as a user's would: the client's time in this process
does not compete with the server for the interpreter. Prints: cold graph load vs a cached route; median
single-route time on the whole-city graph (random real addresses, so most routes cross districts); one
30-origin call vs 30 single calls (many-origin throughput).
"""
from __future__ import annotations

import argparse
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import httpx  # noqa: E402

from toolkit.client import Client, SandboxHandle  # noqa: E402
from toolkit.config import Config, Credentials, Hosts  # noqa: E402


def start_sandbox():
    """A ``toolkit sandbox`` child process on a free port → (process, client, seconds until it answered)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from toolkit.cli import main; sys.exit(main())",
                             "sandbox", "--port", str(port), "--frozen-clock"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    proc.stdout.readline()                                     # "toolkit sandbox on http://127.0.0.1:PORT ..."
    started = time.perf_counter() - t
    base = f"http://127.0.0.1:{port}"
    conf = httpx.get(base + "/sandbox/config", timeout=30).json()
    app = conf["app"]
    cfg = Config(hosts=Hosts(**conf["hosts"]), credentials=Credentials(
        rest_api_key=app["rest_api_key"], admin_key=app["admin_key"], client_secret=app["client_secret"],
        app_id=app["app_id"], redirect_uri=app["redirect_uris"][0], extra=app))
    return proc, Client(cfg, sandbox=SandboxHandle(base)), started


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true", help="10 routes and 10 origins instead of 30")
    n = 10 if parser.parse_args(argv).short else 30
    proc, tk, start = start_sandbox()
    df = pd.read_csv(ROOT / "datasets/local/addresses.csv.gz", usecols=["x", "y"])
    rng = random.Random(1)
    pts = [(float(df.x[i]), float(df.y[i])) for i in rng.sample(range(len(df)), 2 + 2 * n)]
    t = time.perf_counter()
    tk.navi.directions(pts[0], pts[1], summary=True)
    cold = time.perf_counter() - t
    times = []
    for a, b in zip(pts[2:2 + n], pts[2 + n:2 + 2 * n]):
        t = time.perf_counter()
        tk.navi.directions(a, b)
        times.append(time.perf_counter() - t)
    med = statistics.median(times)
    dest = pts[0]
    t = time.perf_counter()
    tk.navi.origins([(f"k{i}", x, y) for i, (x, y) in enumerate(pts[2:2 + n])], dest)
    many = time.perf_counter() - t
    t = time.perf_counter()
    for a in pts[2:2 + n]:
        tk.navi.directions(a, dest, priority="TIME", summary=True)
    singles = time.perf_counter() - t
    print(f"sandbox start                 {start * 1000:8.1f} ms")
    print(f"first route (graph load)      {cold * 1000:8.1f} ms")
    print(f"median route, cached graph    {med * 1000:8.1f} ms   cold/cached = {cold / med:5.1f}x")
    print(f"{n} origins, one call          {many * 1000:8.1f} ms")
    print(f"{n} single summary calls       {singles * 1000:8.1f} ms   ratio = {singles / many:5.1f}x")
    tk.close()
    proc.terminate()
    proc.wait(timeout=30)


if __name__ == "__main__":
    main()
