"""connect(fresh=True) cost: resetting the running sandbox in place against starting a new sandbox server, and
the first start of the process (which also loads the local world), side by side in one run.

    .venv/bin/python tests/bench/bench_fresh.py [--short]
"""
from __future__ import annotations

import statistics
import sys
import time

import toolkit
from toolkit.sandbox.server import SandboxServer


def timed(fn, n):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv):
    n = 5 if "--short" in argv else 30
    t0 = time.perf_counter()
    tk = toolkit.connect(sandbox=True, fresh=True)
    tk.local.address("부산 해운대구 우동")        # loads the local world once per process
    first = time.perf_counter() - t0

    def fresh():
        toolkit.connect(sandbox=True, fresh=True).status.current()

    def new_server():
        server = SandboxServer(port=0).start()
        server.stop()

    reset = timed(fresh, n)
    restart = timed(new_server, n)
    print(f"benchmark fresh sandbox, median of {n}")
    print(f"connect(fresh=True) + one call (s)   {reset:.4f}")
    print(f"new SandboxServer start + stop (s)    {restart:.4f}")
    print(f"first connect + world load (s)        {first:.4f}")
    print(f"restart / reset ratio                 {restart / reset:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
