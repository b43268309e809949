"""geocode's inputs and outputs (list, tuple, Index, Series, DataFrame, dask), the caller's columns kept, the quota
warning that says how to resume, and adaptive concurrency (growth, back-off, Retry-After)."""
from __future__ import annotations

import threading
import time

import httpx
import pandas as pd
import pytest

import toolkit
from toolkit.bulk import CAP, START, Adaptive
from toolkit.errors import ParameterError

ADDRS = ["전포동 341-17", "동성로39번길 4", "없는곳 1", "전포동 341-17"]


def _plain(df):
    out = df.copy()
    out.attrs = {}
    return out


@pytest.mark.parametrize("make", [list, tuple, pd.Index, lambda v: pd.Series(v, name="address")])
def test_list_tuple_index_and_series_give_the_same_frame(tk, make):
    out = tk.local.geocode(make(ADDRS), progress=False)
    assert list(out.columns[:3]) == ["address", "x", "y"] and list(out["address"]) == ADDRS
    assert list(out["geocode_status"]) == ["matched", "matched", "not_found", "matched"]
    assert out.attrs["geocode"]["requests"] == 3
    frame = tk.local.geocode(pd.DataFrame({"address": ADDRS}), "address", progress=False)
    pd.testing.assert_frame_equal(_plain(out), _plain(frame))


def test_list_input_takes_the_column_name_and_refuses_other_types(tk):
    out = tk.local.geocode(["전포동 341-17"], "주소", progress=False)
    assert list(out.columns[:2]) == ["주소", "x"]
    with pytest.raises(ParameterError, match="list, tuple or Index"):
        tk.local.geocode("전포동 341-17", progress=False)
    with pytest.raises(ParameterError, match="concurrency"):
        tk.local.geocode(ADDRS, concurrency="fast", progress=False)


def test_existing_columns_are_never_overwritten(tk):
    df = pd.DataFrame({"addr": ADDRS[:2], "x": ["keep", "me"], "y": [1, 2]})
    with pytest.warns(UserWarning, match="overwrite=True"):
        out = tk.local.geocode(df, "addr", progress=False)
    assert list(out["x"]) == ["keep", "me"] and list(out["y"]) == [1, 2]
    assert out["x_geocoded"].notna().all() and "geocode_status_geocoded" in out.columns
    assert list(df.columns) == ["addr", "x", "y"]                       # the caller's frame is untouched
    named = tk.local.geocode(df, "addr", suffix="_home", progress=False)
    assert {"x_home", "y_home", "geocode_status_home"} <= set(named.columns) and list(named["x"]) == ["keep", "me"]
    replaced = tk.local.geocode(df, "addr", overwrite=True, progress=False)
    assert replaced["x"].dtype == "float64" and "x_geocoded" not in replaced.columns
    with pytest.raises(ParameterError, match="suffix"):
        tk.local.geocode(named, "addr", suffix="_home", progress=False)


def test_quota_stop_warns_how_to_resume_and_the_resume_works(fresh_tk, tmp_path):
    fresh_tk.sandbox.set_quota("local_search_address", 2)
    texts = ["전포동 341-17", "동성로39번길 4", "부산진구 전포동", "중앙대로 213"]
    cache = tmp_path / "geo.sqlite"
    with pytest.warns(UserWarning, match=r"quota is used up.*labelled 2.*same call again with cache="):
        first = fresh_tk.local.geocode(texts, cache=cache, concurrency=1, progress=False)
    assert first.attrs["geocode"]["resume_at"] == 2
    with pytest.warns(UserWarning, match="pass cache="):
        fresh_tk.local.geocode(texts, concurrency=1, progress=False)
    fresh_tk.sandbox.set_quota("local_search_address", None)
    rest = fresh_tk.local.geocode(texts, cache=cache, progress=False)
    assert (rest["geocode_status"] == "matched").sum() >= 3 and rest.attrs["geocode"]["cache_hits"] == 2
    assert rest.attrs["geocode"]["requests"] == 2


# ------------------------------------------------------------------------------------- adaptive concurrency
def test_adaptive_limit_grows_while_latency_holds_and_shrinks_when_it_climbs():
    lim = Adaptive("auto")
    assert lim.limit == START
    for _ in range(200):
        lim.observe(200, 0.030, None)
    assert lim.limit == CAP                                           # held: grew to the cap, never beyond
    for _ in range(8 * CAP):
        lim.observe(200, 0.200, None)                                  # the server queues: back off
    assert lim.limit < CAP / 2
    fixed = Adaptive(12)
    for _ in range(100):
        fixed.observe(200, 0.030, None)
    assert fixed.limit == 12


def test_adaptive_limit_doubles_until_latency_first_climbs_then_grows_by_half():
    lim = Adaptive("auto")
    seen = [lim.limit]
    for _ in range(2):                                  # two windows at the network's latency: doubling
        for _ in range(lim.limit):
            lim.observe(200, 0.030, None)
        seen.append(lim.limit)
    for _ in range(lim.limit):                          # latency climbed a little (queueing starts): hold
        lim.observe(200, 0.050, None)
    seen.append(lim.limit)
    for _ in range(lim.limit):                          # held again: grows by half from now on
        lim.observe(200, 0.030, None)
    seen.append(lim.limit)
    assert seen == [START, 2 * START, 4 * START, 4 * START, 6 * START]


def test_adaptive_limit_halves_and_pauses_on_429():
    lim = Adaptive("auto", cap=32)
    for _ in range(100):
        lim.observe(200, 0.010, None)
    before = lim.limit
    lim.observe(429, 0.010, 0.5)
    assert lim.limit == before // 2 and lim.pause - time.monotonic() > 0.4 and lim.throttled == 1


def test_bulk_run_honours_retry_after_and_backs_off():
    """A service that refuses with 429 + Retry-After: no request starts before the pause ends."""
    starts, lock = [], threading.Lock()
    refused = {"at": None}

    def handler(request: httpx.Request) -> httpx.Response:
        with lock:
            now = time.monotonic()
            starts.append(now)
            if len(starts) == 10:
                refused["at"] = now
                return httpx.Response(429, headers={"Retry-After": "0.4"}, json={"msg": "slow down", "code": -9})
        q = request.url.params["query"]
        lot = {"mountain_yn": "N", "main_address_no": q.split()[-1], "sub_address_no": ""}
        return httpx.Response(200, json={"meta": {"total_count": 1}, "documents": [
            {"address_name": q, "address_type": "REGION_ADDR", "x": "129.0", "y": "35.1", "address": lot}]})

    tk = toolkit.connect("http://127.0.0.1:9", rest_api_key="k", async_transport=httpx.MockTransport(handler))
    try:
        out = tk.local.geocode([f"주소 {i}" for i in range(60)], progress=False)
    finally:
        tk.close()
    assert (out["geocode_status"] == "matched").all()
    stats = out.attrs["geocode"]
    assert stats["throttled"] == 1 and stats["requests"] == 60
    after = [t for t in starts if t > refused["at"]]
    assert after and min(after) - refused["at"] >= 0.39             # everyone waited out Retry-After


# ------------------------------------------------------------------------------------- dask
def test_dask_frame_is_deduplicated_across_partitions_and_joined_lazily(fresh_tk):
    dd = pytest.importorskip("dask.dataframe")
    import dask

    texts = ["전포동 341-17", "동성로39번길 4", "없는곳 1", None, " 전포동  341-17 "] * 8
    pdf = pd.DataFrame({"addr": texts, "n": range(len(texts))})
    ddf = dd.from_pandas(pdf, npartitions=4)
    fresh_tk.sandbox.control("POST", "/sandbox/local/requests")
    with dask.config.set(scheduler="synchronous"):
        lazy = fresh_tk.local.geocode(ddf, "addr", progress=False)
        assert isinstance(lazy, dd.DataFrame)
        sent = fresh_tk.sandbox.control("GET", "/sandbox/local/requests", params={"api": "local_search_address"})
        assert sent["total"] == 3                                      # 3 distinct addresses over 4 partitions
        assert lazy.attrs["geocode"]["requests"] == 3 and lazy.attrs["geocode"]["queries"] == 3
        got = lazy.compute()
        series = fresh_tk.local.geocode(ddf["addr"], progress=False).compute()
    expected = fresh_tk.local.geocode(pdf, "addr", progress=False)
    # dask keeps text columns in its own string dtype: compare the added columns, and the input's values
    pd.testing.assert_frame_equal(_plain(got).drop(columns="addr"), _plain(expected).drop(columns="addr"))
    assert got["addr"].tolist()[:3] == texts[:3]
    assert list(series["geocode_status"]) == list(expected["geocode_status"])
