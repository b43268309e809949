"""Bulk geocoding and reverse geocoding of frames (concurrency, rate limit, cache, quota stop) and the
choropleth map, against a real sandbox over HTTP."""
from __future__ import annotations

import asyncio
import contextlib
import csv
import gzip
import io
import json

import httpx
import pandas as pd
import pytest

from tests.conftest import client_for
from toolkit.client import AsyncClient

JEONPO = (129.068245, 35.154101)


def _addresses(server, n: int, start: int = 0) -> list[str]:
    rows = list(csv.DictReader(io.StringIO(gzip.decompress(
        (server.sandbox.datasets / "local" / "addresses.csv.gz").read_bytes()).decode())))
    return [r["road_address_name"] if i % 2 else r["address_name"] for i, r in enumerate(rows[start:start + n])]


def _requests(server, api: str, times: bool = False) -> dict:
    r = httpx.get(server.base_url + "/sandbox/local/requests", params={"api": api, "times": int(times)})
    assert r.status_code == 200, r.text
    return r.json()


def _clear(server):
    assert httpx.post(server.base_url + "/sandbox/local/requests").status_code == 200


def _without_attrs(df):
    out = df.copy()
    out.attrs = {}
    return out


def test_concurrent_equals_sequential_and_async(sandbox_server, tk):
    texts = _addresses(sandbox_server, 40, 100) + ["없는곳 1", "부산진구 전포동 341", None, "  "]
    df = pd.DataFrame({"addr": texts + texts[:10]}, index=range(100, 100 + len(texts) + 10))
    seq = tk.local.geocode(df, "addr", concurrency=1, progress=False)
    par = tk.local.geocode(df, "addr", concurrency=8, progress=False)
    pd.testing.assert_frame_equal(_without_attrs(seq), _without_attrs(par))
    assert seq.attrs["geocode"]["requests"] == par.attrs["geocode"]["requests"] == 42

    async def run():
        async with client_for(sandbox_server, AsyncClient) as atk:
            return await atk.local.geocode(df, "addr", concurrency=6, progress=False)

    pd.testing.assert_frame_equal(_without_attrs(seq), _without_attrs(asyncio.run(run())))
    counts = seq["geocode_status"].value_counts()
    assert counts["matched"] + counts["ambiguous"] == 51 and counts["not_found"] == 1 and counts["empty"] == 2


def test_rate_limit_is_respected(fresh_server):
    tk = client_for(fresh_server)
    try:
        _clear(fresh_server)
        texts = _addresses(fresh_server, 16)
        out = tk.local.geocode(pd.Series(texts), rate=20, concurrency=4, progress=False)
        assert out.attrs["geocode"]["requests"] == 16
        seen = _requests(fresh_server, "local_search_address", times=True)
        times = seen["times"]
        assert seen["total"] == 16 and len(times) == 16
        # 16 starts at ≥ 50 ms spacing span ≥ 0.75 s (some slack for scheduling); no 1-second window holds
        # more than rate + 1 requests
        assert times[-1] - times[0] >= 0.75 * 15 / 20
        assert max(sum(1 for t in times if s <= t < s + 1.0) for s in times) <= 21
        # without a limit the same job is much faster than the limit allows
        _clear(fresh_server)
        tk.local.geocode(pd.Series(_addresses(fresh_server, 16, 16)), concurrency=4, progress=False)
        fast = _requests(fresh_server, "local_search_address", times=True)["times"]
        assert fast[-1] - fast[0] < 0.75
    finally:
        tk.close()


def test_rate_and_concurrency_are_checked(tk):
    from toolkit.errors import ParameterError
    for kw in ({"rate": 0}, {"rate": -1}, {"concurrency": 0}, {"concurrency": 65}):
        with pytest.raises(ParameterError):
            tk.local.geocode(pd.Series(["전포동 341-17"]), progress=False, **kw)


def test_regions_of_a_frame(tk, tmp_path):
    df = pd.DataFrame({"x": [JEONPO[0], 129.2, 127.0, None, JEONPO[0], 129.2],
                       "y": [JEONPO[1], 35.05, 37.5, 35.1, JEONPO[1], 35.32],
                       "name": list("abcdef")}, index=list("uvwxyz"))
    before = len(tk.core.attempts_log)
    out = tk.local.regions_of(df, cache=tmp_path / "r.sqlite", progress=False)
    assert len(tk.core.attempts_log) - before == 4           # 4 distinct points, the NaN row is not sent
    assert list(out.index) == list(df.index) and list(out["name"]) == list(df["name"])
    assert list(out["region_status"]) == ["matched", "sea", "outside", "empty", "matched", "matched"]
    u = out.loc["u"]
    assert (u["b_code"], u["region_3depth_name"], u["h_code"], u["h_3depth_name"]) == \
        ("2623010200", "전포동", "2623060000", "전포제1동")
    assert pd.isna(u["region_4depth_name"]) and out.loc["z", "region_4depth_name"].endswith("리")
    assert pd.isna(out.loc["v", "b_code"]) and pd.isna(out.loc["x", "b_code"])
    assert out.attrs["regions"]["queries"] == 4 and out.attrs["regions"]["requests"] == 4
    again = tk.local.regions_of(df, cache=tmp_path / "r.sqlite", progress=False, concurrency=1)
    assert again.attrs["regions"]["requests"] == 0 and again.attrs["regions"]["cache_hits"] == 4
    pd.testing.assert_frame_equal(_without_attrs(out), _without_attrs(again))


def test_regions_of_stops_on_quota_with_a_resume_point(fresh_tk, tmp_path):
    fresh_tk.sandbox.set_quota("local_geo_coord2regioncode", 3)
    pts = pd.DataFrame({"x": [129.03 + 0.005 * i for i in range(8)], "y": [35.15] * 8})
    with pytest.warns(UserWarning, match="same call again with cache="):
        out = fresh_tk.local.regions_of(pts, cache=tmp_path / "q.sqlite", progress=False)
    done = out["region_status"] != "not_done"
    assert done.sum() == 3 and out.attrs["regions"]["stopped_by_quota"] is True
    assert out.attrs["regions"]["resume_at"] == out.index[~done][0]
    fresh_tk.sandbox.set_quota("local_geo_coord2regioncode", None)
    rest = fresh_tk.local.regions_of(pts, cache=tmp_path / "q.sqlite", progress=False)
    assert (rest["region_status"] != "not_done").all() and rest.attrs["regions"]["cache_hits"] == 3
    assert rest.attrs["regions"]["requests"] == 5


def test_transport_errors_are_reported_not_silent(sandbox_server):
    def refuse(request):
        raise httpx.ConnectError("refused", request=request)

    tk = client_for(sandbox_server, max_attempts=1)
    tk.core._transport = httpx.MockTransport(refuse)
    tk.core._async_transport = httpx.MockTransport(refuse)
    try:
        out = tk.local.geocode(pd.Series(["전포동 341-17", "동성로39번길 4"]), progress=False)
        assert list(out["geocode_status"]) == ["error", "error"] and out["geocode_error"].isna().all()
        assert out.attrs["geocode"]["errors"] and "could not reach" in out.attrs["geocode"]["errors"][0]
    finally:
        tk.close()


def test_control_api_serves_region_polygons(sandbox_server):
    r = httpx.get(sandbox_server.base_url + "/sandbox/local/regions.geojson", params={"level": "sigungu"})
    assert r.status_code == 200 and len(r.json()["features"]) == 16
    assert httpx.get(sandbox_server.base_url + "/sandbox/local/regions.geojson",
                     params={"level": "x"}).status_code == 400


def test_choropleth_builds_one_feature_per_counted_region(tk):
    from toolkit.maps import choropleth_map, counts_by_region, geojson_bounds

    gj = tk.sandbox.control("GET", "/sandbox/local/regions.geojson", params={"level": "emd"})
    assert len(gj["features"]) == 192
    pts = pd.DataFrame({"x": [JEONPO[0], JEONPO[0] + 0.0005, 129.0594, 129.2],
                        "y": [JEONPO[1], JEONPO[1], 35.1541, 35.05]})
    regions = tk.local.regions_of(pts, progress=False)
    counts = counts_by_region(regions)
    assert counts["count"].sum() == 3 and "2623010200" in set(counts["code"])
    m = choropleth_map(counts, gj, caption="points per legal dong")
    assert len(m.choropleth_data["features"]) == len(counts)
    html = m.get_root().render()
    assert "fitBounds" in html and "points per legal dong" in html
    full = choropleth_map(counts.set_index("code")["count"], gj, only_counted=False)
    assert len(full.choropleth_data["features"]) == 192
    (s, w), (n, e) = geojson_bounds(m.choropleth_data)
    assert s < JEONPO[1] < n and w < JEONPO[0] < e
    with pytest.raises(ValueError):
        choropleth_map(counts, {"type": "Feature"})


def test_cache_commits_in_batches_and_on_close(tmp_path, monkeypatch):
    import sqlite3

    from toolkit.bulk import Cache

    path = tmp_path / "c.sqlite"
    cache = Cache(path)

    def on_disk():
        with contextlib.closing(sqlite3.connect(path)) as other:
            return dict(other.execute("SELECT key, value FROM geocode").fetchall())

    monkeypatch.setattr(Cache, "COMMIT_EVERY", 3600.0)
    cache.put("a", {"x": 1})
    cache.put("b", {"x": 2})
    assert on_disk() == {} and cache.get("a") == {"x": 1}    # written, not yet committed; seen by the run
    monkeypatch.setattr(Cache, "COMMIT_EVERY", 0.0)
    cache.put("c", {"x": 3})                                   # the interval passed: everything so far committed
    assert set(on_disk()) == {"a", "b", "c"}
    monkeypatch.setattr(Cache, "COMMIT_EVERY", 3600.0)
    cache.put("d", {"x": "카페"})
    cache.close()                                              # however the run ends, close commits the rest
    assert json.loads(on_disk()["d"]) == {"x": "카페"}


def test_an_adaptive_run_starts_where_the_clients_last_run_against_that_server_ended(sandbox_server, monkeypatch):
    """The limit a run ended at is remembered per server origin (scheme://host:port) for REMEMBER_S seconds; the
    next adaptive run there starts at it (within its own cap). A fixed concurrency, a run shorter than its window
    or another client neither use nor change it."""
    from toolkit import bulk

    addresses = _addresses(sandbox_server, 160, start=400)
    with contextlib.closing(client_for(sandbox_server)) as tk, contextlib.closing(client_for(sandbox_server)) as other:
        first = tk.local.geocode(addresses[:120], progress=False).attrs["geocode"]
        origin = sandbox_server.base_url.rstrip("/")
        assert first["concurrency_start"] == bulk.START and list(tk.core.bulk_levels) == [origin]
        level, when = tk.core.bulk_levels[origin]
        assert 1 <= level <= bulk.CAP and first["concurrency_peak"] >= level

        tk.core.bulk_levels[origin] = (23, when)        # a level no run starts at by itself
        second = tk.local.geocode(addresses[120:150], progress=False).attrs["geocode"]
        assert second["concurrency_start"] == 23 and second["concurrency_peak"] >= 23
        level = tk.core.bulk_levels[origin][0]
        capped = tk.local.geocode(addresses[150:], max_concurrency=2, progress=False).attrs["geocode"]
        assert capped["concurrency_start"] == min(level, 2) and tk.core.bulk_levels[origin][0] <= 2

        before = dict(tk.core.bulk_levels)
        tk.local.geocode(addresses[:40], concurrency=3, progress=False)    # fixed: neither used nor remembered
        assert tk.core.bulk_levels == before
        assert other.local.geocode(addresses[:20], progress=False).attrs["geocode"]["concurrency_start"] == bulk.START

        tk.core.bulk_levels[origin] = (37, before[origin][1] - bulk.REMEMBER_S - 1)   # too old: forgotten
        assert tk.local.geocode(addresses[40:80], progress=False).attrs["geocode"]["concurrency_start"] == bulk.START


def test_no_request_starts_beyond_the_adaptive_limit_and_waiting_workers_go_on():
    """The run's workers (one per unit of the cap) start a request only while fewer than the limit are in flight;
    when slow answers lower the limit, the others wait and are woken as answers come, and every key is answered
    once. Checked at each start, against the limit at that moment, with a core that answers after a delay."""
    from toolkit.bulk import Bulk

    job = Bulk([f"k{i}" for i in range(120)], lambda key: key, cache=None, namespace="t", concurrency="auto",
               rate=None, progress=False, desc="t", max_concurrency=16)
    in_flight, starts, waited = 0, [], []

    class Core:
        observer = None

        async def asend(self, key):
            nonlocal in_flight
            in_flight += 1
            starts.append((in_flight, job.limiter.limit))
            slow = len(starts) > 20                     # the first answers are quick, the rest 10x slower
            await asyncio.sleep(0.02 if slow else 0.002)
            in_flight -= 1
            waited.append(job.limiter.limit < 16)
            self.observer(200, 0.02 if slow else 0.002, None)
            return {"key": key}

    asyncio.run(asyncio.wait_for(job.run_async(Core()), 30))   # a worker never woken fails, not hangs
    assert all(n <= limit for n, limit in starts), [s for s in starts if s[0] > s[1]][:5]
    assert max(n for n, _ in starts) >= 8 and min(limit for _, limit in starts[40:]) < 16   # it grew, then shrank
    assert any(waited) and len(starts) == 120 and sorted(job.answers) == sorted(f"k{i}" for i in range(120))
    assert all(job.answers[k] == {"key": k} for k in job.answers)


@pytest.fixture
def gc_threshold():
    """The collector's thresholds and state as they were, restored whatever the test did."""
    import gc

    before, enabled = gc.get_threshold(), gc.isenabled()
    yield before
    gc.set_threshold(*before)
    (gc.enable if enabled else gc.disable)()


def test_bulk_runs_raise_the_young_gc_threshold_while_any_runs(gc_threshold):
    """fewer_collections() raises the young generation's threshold to YOUNG_GC while at least one run is under
    way (overlapping runs: the last one out restores it) and leaves alone a disabled collector, a threshold
    already as high and a threshold someone else changed meanwhile."""
    import gc
    import threading

    from toolkit.bulk import YOUNG_GC, fewer_collections

    gc.set_threshold(700, 10, 10)
    first, second = fewer_collections(), fewer_collections()
    first.__enter__()
    assert gc.get_threshold() == (YOUNG_GC, 10, 10)
    seen = []
    thread = threading.Thread(target=lambda: second.__enter__() or seen.append(gc.get_threshold()))
    thread.start()
    thread.join()
    first.__exit__(None, None, None)                 # the second run still goes on: still raised
    assert seen == [(YOUNG_GC, 10, 10)] and gc.get_threshold() == (YOUNG_GC, 10, 10)
    second.__exit__(None, None, None)
    assert gc.get_threshold() == (700, 10, 10)
    with fewer_collections():                        # set by someone else during the run: kept
        gc.set_threshold(1234, 5, 5)
    assert gc.get_threshold() == (1234, 5, 5)
    gc.set_threshold(50_000, 10, 10)
    with fewer_collections():                        # already higher: untouched
        assert gc.get_threshold() == (50_000, 10, 10)
    gc.set_threshold(700, 10, 10)
    gc.disable()
    with fewer_collections():                        # disabled: untouched
        assert gc.get_threshold() == (700, 10, 10) and not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(KeyError):                    # an error in the run restores it too
        with fewer_collections():
            raise KeyError("k")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_sweep_runs_with_the_raised_threshold_and_restores_it(sandbox_server, tk, gc_threshold, monkeypatch):
    """Sync and async clients alike: each page is parsed with the threshold raised, and it is back after."""
    import gc

    import toolkit.local
    from toolkit.bulk import YOUNG_GC

    seen = []
    parse = toolkit.local._sweep_answer
    monkeypatch.setattr(toolkit.local, "_sweep_answer", lambda body, response=None: seen.append(
        gc.get_threshold()[0]) or parse(body, response))
    gc.set_threshold(700, 10, 10)
    centres = [(129.059, 35.158), (129.040, 35.115), (129.07, 35.17)]
    out = tk.local.category_sweep("PM9", centres, radius=800, size=3, progress=False)
    assert seen == [YOUNG_GC] * 3 and gc.get_threshold() == (700, 10, 10) and out.attrs["sweep"]["requests"] == 3

    async def run():
        async with client_for(sandbox_server, AsyncClient) as atk:
            return await atk.local.category_sweep("PM9", centres, radius=900, size=3, progress=False)

    seen.clear()
    out = asyncio.run(run())
    assert seen == [YOUNG_GC] * 3 and gc.get_threshold() == (700, 10, 10) and out.attrs["sweep"]["requests"] == 3
