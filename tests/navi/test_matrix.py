"""Bulk routes never drop silently (issue 41, point 5): ``navi.matrix`` warns of the pairs without a route (how
many, which, why) and counts them in ``attrs["matrix"]``, takes a departure time, and every result code has an
English message beside the service's Korean one (frames, warnings, ``toolkit.navicodes``).

The job of the issue: 3 depots and 40 customers, real address points drawn across the whole city, so that many
pairs lie farther apart than the many-origin call's 10 km radius (68 of 120 in the issue's job, answered with code
207 and a Korean message only, no warning and no count). About 10 s on a shared 2-core machine."""
from __future__ import annotations

import random
import re
import warnings

import pandas as pd
import pytest

import toolkit.data
from toolkit import errors
from toolkit.navicodes import RESULT_CODES, RESULT_CODES_EN, result_en

DEPOTS = [("강서 물류", 128.9530, 35.1700), ("해운대 물류", 129.1600, 35.1700), ("사하 물류", 128.9700, 35.0950)]


def customers(n: int, seed: int = 41) -> list[tuple[str, float, float]]:
    """``n`` real address points of the city, keyed by their road address (as a customer file keys them)."""
    df = pd.read_csv(toolkit.data.root() / "local" / "addresses.csv.gz", usecols=["x", "y", "road_address_name"])
    rng = random.Random(seed)
    rows = [df.iloc[rng.randrange(len(df))] for _ in range(n)]
    return [(f"{r['road_address_name']} #{i}", float(r["x"]), float(r["y"])) for i, r in enumerate(rows)]


def test_pairs_beyond_the_radius_are_warned_of_named_and_counted(tk):
    people = customers(40)
    with pytest.warns(errors.OutOfRadiusWarning) as seen:
        out = tk.navi.matrix(people, DEPOTS, progress=False)
    info = out.attrs["matrix"]
    far = out["result_code"] == 207
    assert len(out) == 120 and info["pairs"] == 120                   # every pair has its row
    assert 20 <= far.sum() == info["beyond_radius"] < 120              # many lie beyond 10 km, each counted
    assert info["routes"] == (out["result_code"] == 0).sum() > 0
    assert info["routes"] + info["beyond_radius"] + info["no_route"] == 120
    assert info["result_codes"] == {int(c): int(n) for c, n in out["result_code"].value_counts().items()}
    text = str(seen[0].message)
    assert f"navi.matrix: {far.sum()} of 120 pairs (origin → destination) are farther apart than radius" in text
    first = out.loc[far].iloc[0]
    assert f"{first['key']!r} → {first['destination']!r}" in text     # which pairs, by their keys
    assert "result_code 207, the origin lies farther than radius from the destination" in text    # why, in English
    assert "departure_time=" in text                                   # what to do instead
    assert (out.loc[far, "result_msg_en"] == RESULT_CODES_EN[207]).all()
    assert (out.loc[far, "result_msg"] == RESULT_CODES[207]).all()     # the service's own message is kept
    assert out.loc[far, "distance"].isna().all()


def test_a_departure_time_routes_every_pair_with_the_traffic_of_that_time(tk):
    """One future-driving estimate per pair: no radius (the pairs beyond 10 km get routes too), and the durations
    follow the departure time (the morning peak is slower than the night; the distances are the roads')."""
    people = customers(8, seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                                 # no pair left without a route: no warning
        night = tk.navi.matrix(people, DEPOTS, departure_time="202611210300", progress=False)
        peak = tk.navi.matrix(people, DEPOTS, departure_time=pd.Timestamp("2026-11-21 08:00").to_pydatetime(),
                              progress=False)
    for out in (night, peak):
        assert len(out) == 24 and (out["result_code"] == 0).all() and out.attrs["matrix"]["beyond_radius"] == 0
        assert out.attrs["matrix"]["calls"] == 24                      # one call per pair
    assert night.attrs["matrix"]["departure_time"] == "202611210300"
    assert peak.attrs["matrix"]["departure_time"] == "202611210800"
    merged = night.merge(peak, on=["key", "destination"], suffixes=("_night", "_peak"))
    assert (merged["duration_peak"] > 1.2 * merged["duration_night"]).mean() > 0.9, merged
    # a pair the many-origin call leaves out (farther than 10 km) has its route here
    far = [(k, x, y) for k, x, y in people if abs(x - DEPOTS[1][1]) > 0.15][:1]
    assert far and (night.loc[night["key"] == far[0][0], "distance"] > 10_000).any()


def test_a_departure_time_refuses_a_radius_and_takes_recommend(tk):
    people = customers(2, seed=3)
    with pytest.raises(errors.ParameterError, match="radius.*does not apply with departure_time"):
        tk.navi.matrix(people, DEPOTS[:1], radius=5000, departure_time="202611210300", progress=False)
    with pytest.raises(errors.ParameterError, match="departure_time"):
        tk.navi.matrix(people, DEPOTS[:1], departure_time="tomorrow 9am", progress=False)
    with pytest.raises(errors.ParameterError, match="priority"):
        tk.navi.matrix(people, DEPOTS[:1], priority="RECOMMEND", progress=False)      # the many-origin call
    out = tk.navi.matrix(people, DEPOTS[:1], priority="RECOMMEND", departure_time="202611210300", progress=False)
    assert len(out) == 2 and (out["result_code"] == 0).all()


def test_pairs_without_a_road_are_warned_of_in_english(tk):
    """A customer in the sea (a typo in a coordinate): its pairs get code 201 (no road near the origin), named in a
    NoRouteWarning with the English reason; the other pairs are routed."""
    people = customers(3, seed=5) + [("typo", 129.1600, 35.1000)]     # in the sea, 3 km off 오륙도
    with pytest.warns(errors.ToolkitWarning) as seen:                  # (and 207 for the customers beyond 10 km)
        out = tk.navi.matrix(people, [("광안리", 129.1186, 35.1532)], progress=False)
    text = next(str(w.message) for w in seen if w.category is errors.NoRouteWarning)
    assert text.startswith("navi.matrix: 1 of 4 pairs (origin → destination) have no route (result_code 201, "
                           "the origin lies outside the area searched (no road near it): 'typo' → '광안리')")
    assert out.attrs["matrix"]["no_route"] == 1 and out.attrs["matrix"]["result_codes"][201] == 1


def test_a_route_without_a_road_warns_in_english(tk):
    sea = (129.1600, 35.1000)                                           # 3 km off 오륙도
    with pytest.warns(errors.NoRouteWarning, match=r"navi.directions: 1 of 1 routes have no route \(result_code 103, "
                                                   r"no road found near the destination: #0\)"):
        r = tk.navi.directions((129.1186, 35.1532), sea)
    row = r.summary.iloc[0]
    assert row["result_code"] == 103 and row["result_msg_en"] == "no road found near the destination"
    assert row["result_msg"] == RESULT_CODES[103]
    assert "no road found near the destination" in repr(r)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tk.navi.directions((129.1186, 35.1532), (129.0600, 35.1570)).summary.loc[0, "result_msg_en"] == \
            "route found"
    with pytest.warns(errors.NoRouteWarning, match=r"result_code 102, no road found near the origin"):
        tk.navi.future(sea, (129.0600, 35.1570), "202611210300")
    with pytest.warns(errors.NoRouteWarning, match=r"result_code 101, no road found near a waypoint"):
        tk.navi.waypoints((129.1186, 35.1532), (129.0600, 35.1570), [sea])


def test_every_result_code_has_its_english_message():
    """The client's tables name the sandbox's codes with the same Korean messages, every one in English too, and
    the concepts page shows the same table."""
    from pathlib import Path

    from toolkit.sandbox.navi.models import MSG

    assert RESULT_CODES == MSG
    assert RESULT_CODES_EN.keys() == RESULT_CODES.keys()
    assert all(re.fullmatch(r"[ -~–→]+", en) for en in RESULT_CODES_EN.values())           # English words
    assert result_en(999) == "result_code 999 (not documented)" and result_en(None) is None
    page = (Path(__file__).resolve().parents[2] / "notebooks" / "reference" / "concepts.md").read_text("utf-8")
    rows = dict((int(c), (ko, en)) for c, ko, en in
                re.findall(r"^\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$", page, re.M)
                if int(c) in RESULT_CODES and ko == RESULT_CODES[int(c)])
    assert {c: en for c, (_, en) in rows.items()} == RESULT_CODES_EN


def test_a_many_origin_map_says_why_a_point_has_no_route_in_english(tk):
    """The red circle of a point without a route: its tooltip gives the English reason beside the service's
    message (``lang="en"``, the default), the service's message alone with ``lang="ko"``."""
    with pytest.warns(errors.OutOfRadiusWarning):
        df = tk.navi.origins([("near", 129.0450, 35.1500), ("far", 129.2100, 35.2500)], (129.0592, 35.1579))
    english = tk.navi.origins_map(df).get_root().render()
    assert f"far: {RESULT_CODES_EN[207]} ({RESULT_CODES[207]})" in english
    korean = tk.navi.origins_map(df, lang="ko").get_root().render()
    assert f"far: {RESULT_CODES[207]}" in korean and RESULT_CODES_EN[207] not in korean


def test_the_async_client_gives_the_same_matrix_with_a_departure_time(sandbox_server, tk):
    import asyncio

    from tests.conftest import client_for
    from toolkit.client import AsyncClient

    people = customers(3, seed=11)
    out = tk.navi.matrix(people, DEPOTS[:2], departure_time="202611210800", progress=False)

    async def run():
        async with client_for(sandbox_server, AsyncClient) as atk:
            return await atk.navi.matrix(people, DEPOTS[:2], departure_time="202611210800", progress=False)

    got = asyncio.run(run())
    assert got.attrs["matrix"]["routes"] == out.attrs["matrix"]["routes"] == 6
    pd.testing.assert_frame_equal(got, out)
