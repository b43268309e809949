"""What a cassette costs (toolkit.cassette), measured side by side in one run:

    .venv/bin/python tests/bench/bench_cassette.py [--short]

``toolkit sandbox --latency 30ms`` runs in its own process. A bulk geocode (distinct addresses, concurrency 64) runs
on a plain client and on a client recording into a cassette (``connect(record=...)``), alternated over rounds; the
benchmark prints the median time of each, recording against plain (goal ≤ 1.5: scrubbing and writing must not
weigh on a bulk run whose requests wait on the network), the cassette's bytes per call, and a replay of the same
run (``connect(replay=...)``, no network) against the plain run (no goal: it shows how fast a colleague re-runs).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.procs import addresses, client_config, sandbox_process  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args(argv)
    rounds, n = (2, 300) if args.short else (6, 2000)

    import toolkit

    folder = Path(tempfile.mkdtemp(prefix="bench-cassette-"))
    plain_s, record_s, replay_s, sizes = [], [], [], []
    plain_cpu, record_cpu = [], []
    with sandbox_process("--latency", "30ms") as sb:
        with client_config(sb) as tk:                   # untimed: both kinds meet a warm sandbox
            tk.local.geocode(addresses(100, seed=99), concurrency=64, progress=False)
        for r in range(rounds):
            rows = addresses(n, seed=100 + r)          # new addresses each round: no server-side warm answers
            path = folder / f"round{r}.har"
            for kind in (("plain", "record") if r % 2 == 0 else ("record", "plain")):
                options = {"record": path} if kind == "record" else {}
                with client_config(sb, **options) as tk:
                    started, cpu = time.perf_counter(), time.process_time()
                    tk.local.geocode(rows, concurrency=64, progress=False)
                    (record_s if kind == "record" else plain_s).append(time.perf_counter() - started)
                    (record_cpu if kind == "record" else plain_cpu).append(time.process_time() - cpu)
            with toolkit.connect(replay=path) as tk:
                started = time.perf_counter()
                tk.local.geocode(rows, concurrency=64, progress=False)
                replay_s.append(time.perf_counter() - started)
                sizes.append(path.stat().st_size / len(tk.cassette))
    plain, record, replay = (statistics.median(x) for x in (plain_s, record_s, replay_s))
    ratio = record / plain
    print(f"geocode of {n} distinct addresses at 30 ms latency, {rounds} rounds: plain {plain:.2f} s, recording "
          f"{record:.2f} s, replay {replay:.2f} s (medians)")
    print(f"cassette: recording / plain time {ratio:.2f} goal ≤ 1.5 {'met' if ratio <= 1.5 else 'NOT met'}")
    print(f"cassette: client CPU, recording / plain (no goal) "
          f"{statistics.median(record_cpu) / statistics.median(plain_cpu):.2f}")
    print(f"cassette: replay / plain time (no goal) {replay / plain:.2f}")
    print(f"cassette: bytes per geocode call (no goal) {statistics.median(sizes):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
