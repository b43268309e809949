"""Scale-out benchmark: geocode a dask DataFrame on a local dask cluster against the sandbox, side by side with
the single-machine (pandas) geocode of the same rows, in one run; prints ratios next to their goals.

    python tests/bench/bench_dask.py            # 1,000,000 rows, 20,000 distinct addresses
    python tests/bench/bench_dask.py --short    # 20,000 rows, 500 distinct (CI)

``toolkit sandbox`` runs in its own process; the cluster is a ``distributed.LocalCluster`` bound to 127.0.0.1
(2 worker processes, 1 thread each, 1 GiB each, no dashboard). Both runs geocode the same rows with no cache:
the requests the sandbox received must equal the distinct addresses (de-duplication across partitions), and
the dask run's rows per second (distinct addresses found on the cluster, requested once from the client
process, answers joined back per partition on the workers, result persisted there, as a pipeline that writes
parquet next would have it) must reach 80 % of the single-machine rate. The results are compared: status
counts over all rows and every 997th row's coordinates and status.
Needs the ``[scale]`` extra; without dask the benchmark says so and skips.
"""
from __future__ import annotations

import argparse
import importlib.util
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.procs import addresses, client_config, control, goal, requests_seen, sandbox_process  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--distinct", type=int, default=None)
    parser.add_argument("--partitions", type=int, default=None)
    parser.add_argument("--latency", default="0ms")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None:
        print("bench_dask: SKIPPED: dask is not installed (pip install -e '.[scale]')")
        return 0
    rows = args.rows or (20_000 if args.short else 1_000_000)
    distinct = args.distinct or (500 if args.short else 20_000)
    partitions = args.partitions or (4 if args.short else 16)

    import random

    import dask.dataframe as dd
    import numpy as np
    import pandas as pd
    from distributed import Client, LocalCluster, wait

    unique = addresses(distinct)
    rng = random.Random(5)
    texts = unique + [rng.choice(unique) for _ in range(rows - len(unique))]
    distinct = len({" ".join(t.split()) for t in unique})      # as geocode counts them (procs.addresses: n)
    rng.shuffle(texts)
    pdf = pd.DataFrame({"address": texts, "row": range(rows)})

    tmp = tempfile.mkdtemp(prefix="bench-dask-")
    (Path(tmp) / "rows").mkdir()
    step = -(-rows // partitions)
    for i in range(partitions):                                # one parquet file per partition
        pdf.iloc[i * step:(i + 1) * step].to_parquet(Path(tmp) / "rows" / f"part-{i:03d}.parquet", index=False)
    with sandbox_process("--latency", args.latency) as sb, \
            LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                         memory_limit="1GiB", processes=True, silence_logs=logging.ERROR) as cluster, Client(cluster):
        tk = client_config(sb)
        tk.local.address(unique[0])                              # load the data set before timing anything
        ddf = dd.read_parquet(str(Path(tmp) / "rows")).persist()   # the workers read the rows themselves

        control(sb, "POST", "/sandbox/local/requests")
        t = time.perf_counter()
        single = tk.local.geocode(pdf, "address", progress=False)
        t_single = time.perf_counter() - t
        sent_single = requests_seen(sb, "local_search_address")

        control(sb, "POST", "/sandbox/local/requests")
        t = time.perf_counter()
        lazy = tk.local.geocode(ddf, "address", progress=False)
        t_requests = time.perf_counter() - t
        result = lazy.persist()                            # the join runs on the workers; rows stay there
        wait(result)
        t_dask = time.perf_counter() - t
        sent_dask = requests_seen(sb, "local_search_address")
        counts = result["geocode_status"].astype(str).value_counts().compute()
        sample = result[result["row"] % 997 == 0].compute().sort_values("row")
        tk.close()

    shutil.rmtree(tmp, ignore_errors=True)
    expected = single[single["row"] % 997 == 0]
    same = (counts.sort_index().to_dict() == single["geocode_status"].astype(str).value_counts().sort_index()
            .to_dict() and np.array_equal(sample["x"].round(7).to_numpy(float), expected["x"].round(7).to_numpy(float),
                                       equal_nan=True)                  # rows not found have no x on both sides
            and sample["geocode_status"].astype(str).tolist() == expected["geocode_status"].astype(str).tolist())
    print(f"benchmark dask: {rows:,} rows, {distinct:,} distinct addresses, {partitions} partitions; LocalCluster "
          f"2 processes x 1 thread on 127.0.0.1; sandbox in its own process, latency {args.latency}")
    print(f"single machine (pandas) seconds {t_single:.2f}  rows/s {rows / t_single:,.0f}  requests {sent_single}")
    print(f"dask cluster seconds {t_dask:.2f} (distinct + requests {t_requests:.2f})  rows/s {rows / t_dask:,.0f}  "
          f"requests {sent_dask}")
    print(f"dask result equals the single-machine result: {same}")
    print(goal("dask: requests sent / distinct addresses", sent_dask / distinct, 1.0, at_most=True))
    print(goal("dask: rows/s vs single-machine rows/s", (rows / t_dask) / (rows / t_single), 0.8))
    return 0 if same and sent_dask == distinct else 1


if __name__ == "__main__":
    raise SystemExit(main())
