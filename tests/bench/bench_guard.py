"""Cost of the sandbox's request guard (``toolkit.sandbox.guard.RequestGuard``), measured side by side in one
run: the same app with and without the guard, in-process (Starlette's test client), on a GET with a query and
on a POST with a JSON body of about 12 kB. Prints milliseconds per request and the ratio guarded / unguarded.

    .venv/bin/python tests/bench/bench_guard.py [--short]
"""
from __future__ import annotations

import sys
import time
import warnings


def main(argv: list[str]) -> int:
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    import toolkit.sandbox.app as appmod
    from toolkit.sandbox.app import Sandbox, create_app

    rounds = 100 if "--short" in argv else 1000
    sandbox = Sandbox(frozen=True)
    guarded = create_app(sandbox)

    class Passthrough:
        def __init__(self, app):
            self.app = app

        async def __call__(self, scope, receive, send):
            await self.app(scope, receive, send)

    original, appmod.RequestGuard = appmod.RequestGuard, Passthrough
    try:
        plain = create_app(sandbox)
    finally:
        appmod.RequestGuard = original
    pad = [{"key": str(i), "x": 129.07 + i / 1e4, "y": 35.17, "name": "카페 ²"} for i in range(150)]
    cases = {
        "GET with a query": lambda c: c.get("/status/api/health/current", params={"lang": "ko", "api": "x"}),
        "POST with a 12 kB JSON body": lambda c: c.post("/sandbox/quotas", json={"api": "x", "limit": 5, "pad": pad}),
    }
    print("benchmark                       unguarded ms  guarded ms  ratio")
    for label, call in cases.items():
        timings = {}
        for name, app in (("plain", plain), ("guarded", guarded), ("plain", plain), ("guarded", guarded)):
            with TestClient(app) as client:
                call(client)  # warm-up
                start = time.perf_counter()
                for _ in range(rounds):
                    call(client)
                timings.setdefault(name, []).append((time.perf_counter() - start) / rounds * 1e3)
        plain_ms, guarded_ms = min(timings["plain"]), min(timings["guarded"])
        print(f"{label:<31} {plain_ms:12.3f} {guarded_ms:11.3f} {guarded_ms / plain_ms:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
