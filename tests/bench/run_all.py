"""All benchmarks in one run, each printing its ratios measured side by side:

    .venv/bin/python tests/bench/run_all.py            # full sizes (a few minutes)
    .venv/bin/python tests/bench/run_all.py --short    # what CI runs

import time and JSON → frame and sync vs async calls (bench_core), the sandbox server under wrk against a
minimal Starlette endpoint (bench_server), bulk work at 30 ms emulated latency against sequential loops and
bare httpx (bench_bulk), bulk work through connection pools of 8 against pools of 2 (bench_pools), geocoding a
dask frame on a local cluster (bench_dask), routing cold vs cached and many-origin vs single calls
(bench_routing), a fresh sandbox by reset vs a new server (bench_fresh), tile time cold vs cached over a pan of
the city (bench_tiles), a reopened map's base map: a stored map's size and its tiles through toolkit's Jupyter
server extension, drawn there or forwarded to a class sandbox (bench_map_tiles), the request guard's cost
(bench_guard), start-up to the first keyword answer in a new
process (bench_startup), a class on one machine (bench_classroom: a student's kernel bound to the class sandbox
against the embedded sandbox, the class sandbox's memory per world, simulated students in their own processes,
the students one core serves), a class arriving at a lesson's start and working through a walkthrough, for 100, 300
and 1,000 students driven by one asyncio process (bench_class_load: every world made, p50/p95/p99, the class
sandbox's CPU and peak memory), the sandbox's resident memory over a long run of varied requests and its growth
over the run's last third (bench_soak: 10 minutes, 75 s short), a bulk geocode recorded into a cassette and
replayed from it against a plain one (bench_cassette). Every benchmark that
loads the sandbox runs it in its own process (``toolkit sandbox --port 0``) and prints its ratios. Each one's
wall time is printed after it (``--- bench_core.py: 12 s``).
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = ["bench_core.py", "bench_server.py", "bench_bulk.py", "bench_pools.py", "bench_dask.py", "bench_routing.py",
           "bench_fresh.py", "bench_tiles.py", "bench_map_tiles.py", "bench_guard.py", "bench_startup.py",
           "bench_classroom.py", "bench_class_load.py", "bench_soak.py", "bench_cassette.py"]


def main(argv: list[str]) -> int:
    short = ["--short"] if "--short" in argv else []
    failed = 0
    for name in BENCHES:
        print(f"\n=== {name} {' '.join(short)}", flush=True)
        started = time.monotonic()
        failed += subprocess.call([sys.executable, str(HERE / name), *short]) != 0
        print(f"--- {name}: {time.monotonic() - started:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
