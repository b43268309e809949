"""Core benchmarks, measured side by side in one run, printed as ratios.

    python tests/bench/bench_core.py            # full run
    python tests/bench/bench_core.py --short    # a quick run (CI runs this so it cannot rot)

* import time: ``import toolkit`` against ``import pandas`` (the light import keeps heavy modules lazy)
* JSON → frame: ``toolkit.frames.frame`` (flatten + dtypes) against plain ``pd.json_normalize``
* calls: N status calls through the sync client against the same N through the async client with gather, to a
  sandbox in its own process
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def import_time(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(repeat)]
    return statistics.median(runs)


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args(argv)
    repeat = 2 if args.short else 7
    rows = []

    t_toolkit, t_pandas = import_time("toolkit", repeat), import_time("pandas", repeat)
    rows.append(("import toolkit vs import pandas", t_toolkit, t_pandas))

    import pandas as pd

    from toolkit.frames import frame

    n = 2_000 if args.short else 50_000
    records = [{"id": str(i), "x": f"129.{i:06d}", "y": f"35.{i:06d}", "created_at": "2026-11-20T09:00:00Z",
                "road_address": {"zone_no": "48058", "road_name": "중앙대로"}} for i in range(n)]
    t_frame = best(lambda: frame(records, floats=["x", "y"], datetimes=["created_at"]), repeat)
    t_plain = best(lambda: pd.json_normalize(records), repeat)
    rows.append((f"frame() typed vs json_normalize untyped, {n} records", t_frame, t_plain))

    from tests.bench.procs import sandbox_process

    calls = 10 if args.short else 60
    with sandbox_process() as sb:                          # the sandbox in its own process, as toolkit lab runs it
        rows.append(calls_vs(sb, calls))

    print(f"{'benchmark':<58}{'A (s)':>10}{'B (s)':>10}{'A/B':>8}")
    for name, a, b in rows:
        print(f"{name:<58}{a:>10.4f}{b:>10.4f}{a / b:>8.3g}")
    return 0


def calls_vs(sb, calls: int):
    """N status calls: the async client with gather against the sync client in a loop."""
    import toolkit
    from tests.bench.procs import client_config

    tk = client_config(sb)
    atk = toolkit.connect_async(sb.hosts, rest_api_key=sb.key)

    def sync_calls():
        for _ in range(calls):
            tk.status.current()

    async def async_calls() -> float:
        await atk.status.current()                       # warm-up: connection pool and loop
        t = time.perf_counter()
        await asyncio.gather(*(atk.status.current() for _ in range(calls)))
        return time.perf_counter() - t

    t_sync = best(sync_calls, 2)
    t_async = asyncio.run(async_calls())  # one run: the async client binds to its event loop
    tk.close()
    return (f"{calls} status calls: async gather vs sync loop (warm)", t_async, t_sync)


if __name__ == "__main__":
    sys.exit(main())
