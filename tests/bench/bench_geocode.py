"""Bulk geocoding benchmark, measured side by side in one run against one sandbox, printed as ratios.

    python tests/bench/bench_geocode.py            # 10,000 addresses (30% duplicates)
    python tests/bench/bench_geocode.py --short    # 300 addresses (CI runs this so it cannot rot)

* toolkit ``geocode`` (dedupe, concurrency 8, no cache) against a plain sequential loop of single
  ``address`` requests over the same list (every row, duplicates included), as a ratio of wall times;
* the sandbox's raw request rate for the address endpoint: distinct requests sent with bare httpx
  (one connection, nothing parsed) per second, the ceiling any client can reach;
* a second, cached run's request count (a first run fills a SQLite cache, the second must send none).

The addresses are real ones of the sandbox's data set (land-lot and road forms alternating).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def addresses(datasets: Path, n: int, dup_share: float, seed: int = 7) -> list[str]:
    rows = list(csv.DictReader(io.StringIO(gzip.decompress((datasets / "local" / "addresses.csv.gz").read_bytes())
                                           .decode("utf-8"))))
    rng = random.Random(seed)
    distinct = int(round(n * (1 - dup_share)))
    picked = rng.sample(rows, distinct)
    texts = [r["road_address_name"] if i % 2 else r["address_name"] for i, r in enumerate(picked)]
    texts += [rng.choice(texts) for _ in range(n - distinct)]
    rng.shuffle(texts)
    return texts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--n", type=int, default=None)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    n = args.n or (300 if args.short else 10_000)

    import httpx
    import pandas as pd

    from tests.conftest import client_for
    from toolkit.sandbox.server import SandboxServer

    server = SandboxServer(port=0).start()
    try:
        tk = client_for(server)
        texts = addresses(server.sandbox.datasets, n, 0.30)
        distinct = len(set(texts))
        tk.local.address("전포동 341-17")   # load the world before timing anything
        series = pd.Series(texts, name="address")

        t = time.perf_counter()
        out = tk.local.geocode(series, concurrency=args.concurrency, progress=False)
        t_toolkit = time.perf_counter() - t
        matched = int(out["geocode_status"].isin(["matched", "ambiguous"]).sum())

        t = time.perf_counter()
        plain = []
        for text in texts:
            df = tk.local.address(text, size=1)
            plain.append((df.loc[0, "x"], df.loc[0, "y"]) if len(df) else (None, None))
        t_plain = time.perf_counter() - t
        same = sum(1 for (px, py), gx, gy in zip(plain, out["x"], out["y"])
                   if (px is None and gx != gx) or (px == gx and py == gy))

        key = server.app_config()["rest_api_key"]
        url = server.hosts()["local"] + "/v2/local/search/address.json"
        raw_n = min(distinct, 2000)
        uniq = list(dict.fromkeys(texts))[:raw_n]
        with httpx.Client(headers={"Authorization": f"ServiceAK {key}"}, timeout=30) as raw:
            t = time.perf_counter()
            for text in uniq:
                raw.get(url, params={"query": text, "size": 1}).raise_for_status()
            t_raw = time.perf_counter() - t

        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp) / "geocode.sqlite"
            first = tk.local.geocode(series, cache=cache, concurrency=args.concurrency, progress=False)
            before = httpx.get(server.base_url + "/sandbox/local/requests",
                               params={"api": "local_search_address"}).json()["total"]
            second = tk.local.geocode(series, cache=cache, concurrency=args.concurrency, progress=False)
            after = httpx.get(server.base_url + "/sandbox/local/requests",
                              params={"api": "local_search_address"}).json()["total"]
        tk.close()
    finally:
        server.stop()

    print(f"benchmark geocode: {n} addresses, {distinct} distinct ({1 - distinct / n:.0%} duplicates), "
          f"concurrency {args.concurrency}; {matched} rows matched; plain loop agrees on {same}/{n} rows")
    print(f"toolkit geocode seconds {t_toolkit:.3f}")
    print(f"plain sequential loop seconds {t_plain:.3f}")
    print(f"speed-up toolkit vs plain loop (ratio) {t_plain / t_toolkit:.2f}")
    print(f"toolkit rows per second {n / t_toolkit:.1f}")
    print(f"plain loop rows per second {n / t_plain:.1f}")
    print(f"sandbox raw request rate, bare httpx, {raw_n} distinct requests (per second) {raw_n / t_raw:.1f}")
    print(f"toolkit distinct-request rate vs raw rate (ratio) {(distinct / t_toolkit) / (raw_n / t_raw):.2f}")
    print(f"cached run: first run requests {first.attrs['geocode']['requests']}")
    print(f"cached run: second run requests (client count) {second.attrs['geocode']['requests']}")
    print(f"cached run: second run requests (sandbox count) {after - before}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
