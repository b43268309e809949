"""How many connections each bulk worker pool holds (``toolkit.http.POOL_SIZE``), measured side by side in one run:

    .venv/bin/python tests/bench/bench_pools.py [--short]

``toolkit sandbox --latency 30ms`` runs in its own process. For each pool size (8, the size bulk runs used before,
then 2, the size they use now, alternated over rounds) the same client runs ``navi.matrix`` (300 origins x 20
destinations: 200 calls) and ``local.geocode`` (3,000 rows, 2,100 distinct) at a fixed concurrency of 64, and the
benchmark prints each size's requests per second and the client's CPU per request (this process's CPU time, every
thread), the medians over the rounds, and the rate of pools of 2 against pools of 8 (no goal: it shows why the
size is 2). httpcore walks every connection of a pool, asking each socket whether it is readable, for each request
it places, so small pools cost less CPU per request; each pool is also one more httpx client to open and close.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.procs import addresses, client_config, points, sandbox_process  # noqa: E402

SIZES = (8, 2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args(argv)
    rounds, n_geo, n_org, n_dst = (1, 300, 60, 4) if args.short else (3, 3000, 300, 20)

    import pandas as pd

    import toolkit.http

    series = pd.Series(addresses(n_geo, 0.30), name="address")
    origins = [(f"o{i}", x, y) for i, (x, y) in enumerate(points(n_org, seed=12))]
    dests = [(f"d{i}", x, y) for i, (x, y) in enumerate(points(n_dst, seed=13))]
    helpers = {
        "navi.matrix": lambda tk: tk.navi.matrix(origins, dests, concurrency=64, progress=False).attrs["matrix"],
        "geocode": lambda tk: tk.local.geocode(series, concurrency=64, progress=False).attrs["geocode"],
    }
    rates = {(name, size): [] for name in helpers for size in SIZES}
    cpus = {(name, size): [] for name in helpers for size in SIZES}
    before = toolkit.http.POOL_SIZE
    try:
        with sandbox_process("--latency", "30ms") as sb:
            tk = client_config(sb)
            for run in helpers.values():   # untimed: the sandbox's data, graph and caches, the client's imports
                run(tk)
            for _ in range(rounds):
                for size in SIZES:
                    toolkit.http.POOL_SIZE = size
                    for name, run in helpers.items():
                        gc.collect()
                        cpu, t = time.process_time(), time.perf_counter()
                        sent = run(tk)["requests"]
                        seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
                        rates[name, size].append(sent / seconds)
                        cpus[name, size].append(1000 * cpu / sent)
            tk.close()
    finally:
        toolkit.http.POOL_SIZE = before
    print(f"benchmark pools: sandbox in its own process with --latency 30ms; concurrency 64; matrix {n_org} origins"
          f" x {n_dst} destinations, geocode {n_geo} rows; pool sizes alternated over {rounds} round(s), medians")
    print(f"{'helper':<14}{'pool size':>10}{'requests/s':>12}{'client CPU ms/request':>23}")
    for name in helpers:
        for size in SIZES:
            print(f"{name:<14}{size:>10}{statistics.median(rates[name, size]):>12.1f}"
                  f"{statistics.median(cpus[name, size]):>23.2f}")
    for name in helpers:
        ratio = statistics.median(rates[name, 2]) / statistics.median(rates[name, 8])
        print(f"{name}: request rate, pools of 2 vs pools of 8 (no goal) {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
