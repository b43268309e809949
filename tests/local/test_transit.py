"""Public transit (location.md §4.7, sandbox design in toolkit/sandbox/local/transit.py) over real HTTP."""
from __future__ import annotations

from datetime import datetime

import httpx
import pytest

from toolkit.errors import ApiError, ParameterError

NAMPO = (129.034619, 35.097884)      # 도시철도남포역 (address point of the data)
SEOMYEON = (129.058468, 35.157675)   # 서면역
GAEGEUM = (129.020437, 35.153260)    # 개금역
JEONPO = (129.065386, 35.152856)     # 전포역
EVENING = "202611201800"


def _subway(df, route=0):
    return df[(df["route"] == route) & (df["mode"] == "SUBWAY")]


def _check_sums(df):
    for r in df.attrs["meta"]["routes"]:
        legs = df[df["route"] == r["route"]]
        assert legs["distance"].sum() == r["summary"]["distance"]
        assert legs["duration"].sum() == r["summary"]["duration"]


def test_nampo_to_seomyeon_rides_line_1(tk):
    df = tk.local.public_transit(NAMPO, (SEOMYEON[0] + 0.001, SEOMYEON[1]), departure_time=EVENING)
    assert list(df[df["route"] == 0]["mode"]) == ["WALK", "SUBWAY", "WALK"]
    ride = _subway(df).iloc[0]
    assert (ride["line"], ride["from.name"], ride["to.name"]) == ("1호선", "남포역", "서면역")
    assert ride["stops"] == 8                           # 중앙 부산역 초량 부산진 좌천 범일 범내골 서면
    summary = df.attrs["meta"]["routes"][0]["summary"]
    assert summary["transfers"] == 0 and summary["fare"] == {"transit": 1600}
    assert summary["departure_time"] == EVENING and summary["arrival_time"] > EVENING
    assert df["distance"].dtype.name == "Int64" and df["from.x"].dtype == "float64"
    _check_sums(df)


def test_across_lines_transfers_at_seomyeon(tk):
    df = tk.local.public_transit({"x": GAEGEUM[0], "y": GAEGEUM[1], "name": "집"}, NAMPO, departure_time=EVENING)
    rides = _subway(df)
    assert list(rides["line"]) == ["2호선", "1호선"]
    assert rides.iloc[0]["to.name"] == rides.iloc[1]["from.name"] == "서면역"
    assert rides.iloc[1]["wait"] == 300                 # transfer time
    summary = df.attrs["meta"]["routes"][0]["summary"]
    assert summary["transfers"] == 1 and summary["origin"]["name"] == "집"
    assert summary["fare"]["transit"] == 1800           # ridden ≥ 10 km: 2 sections
    _check_sums(df)


def test_same_line_2_no_transfer(tk):
    df = tk.local.public_transit(GAEGEUM, JEONPO, departure_time=EVENING)
    assert list(_subway(df)["line"]) == ["2호선"]
    assert _subway(df).iloc[0]["stops"] == 5


def test_short_trip_is_walk_only(tk):
    df = tk.local.public_transit((129.0565, 35.1577), (129.0605, 35.1577), departure_time=EVENING)
    assert list(df["mode"]) == ["WALK"] and set(df["route"]) == {0}
    summary = df.attrs["meta"]["routes"][0]["summary"]
    assert summary["fare"] == {"transit": 0} and summary["transfers"] == 0
    _check_sums(df)


def test_walk_and_subway_both_offered_sorted_by_duration(tk):
    df = tk.local.public_transit((129.0335, 35.0975), (129.0390, 35.1045), departure_time=EVENING,
                                 max_walk=1500)
    durations = [r["summary"]["duration"] for r in df.attrs["meta"]["routes"]]
    assert durations == sorted(durations) and len(durations) == 2
    _check_sums(df)


def test_no_route_codes(tk):
    far = tk.local.public_transit((129.0, 35.0), NAMPO, departure_time=EVENING)
    assert far.empty and far.attrs["meta"]["routes"][0]["result_code"] == 102
    far_dest = tk.local.public_transit(NAMPO, (129.0, 35.0), departure_time=EVENING)
    assert far_dest.attrs["meta"]["routes"][0]["result_code"] == 103
    same = tk.local.public_transit(NAMPO, NAMPO)
    assert same.attrs["meta"]["routes"][0]["result_code"] == 104
    night = tk.local.public_transit(NAMPO, SEOMYEON, departure_time=datetime(2026, 11, 21, 3, 0))
    assert night.attrs["meta"]["routes"][0] == {"route": 0, "result_code": 1, "result_msg": "길찾기 결과를 찾을 수 없음"}


def test_raw_body_shape(tk):
    body = tk.local.public_transit("129.034619,35.097884,name=A", SEOMYEON, raw=True)
    assert len(body["trans_id"]) == 32
    route = body["routes"][0]
    assert set(route) == {"result_code", "result_msg", "summary", "legs"}
    assert set(route["legs"][0]) == {"mode", "line", "from", "to", "distance", "duration", "wait", "stops"}


@pytest.mark.parametrize("kwargs", [
    {"max_walk": 99}, {"max_walk": 5001}, {"max_walk": 1.5}, {"departure_time": "2026112018"},
    {"departure_time": "202613011200"}, {"origin": (200, 35)}, {"origin": (129, -91)}, {"origin": "129.0"},
    {"origin": (float("nan"), 35)}, {"destination": "129,35,x=1"},
])
def test_client_side_bounds(tk, kwargs):
    args = {"origin": NAMPO, "destination": SEOMYEON, **kwargs}
    with pytest.raises(ParameterError):
        tk.local.public_transit(args.pop("origin"), args.pop("destination"), **args)


def _get(server, params, key):
    headers = {"Authorization": f"ServiceAK {key}"} if key else {}
    return httpx.get(server.hosts()["local"] + "/v2/routing/publictraffic", params=params, headers=headers)


@pytest.mark.parametrize("params, word", [
    ({"destination": "129.05,35.15"}, "origin"),
    ({"origin": "129.03,35.09"}, "destination"),
    ({"origin": "abc,35.09", "destination": "129.05,35.15"}, "origin"),
    ({"origin": "129.03,95", "destination": "129.05,35.15"}, "origin"),
    ({"origin": "129.03,35.09", "destination": "129.05,35.15", "max_walk": "99"}, "max_walk"),
    ({"origin": "129.03,35.09", "destination": "129.05,35.15", "max_walk": "5001"}, "max_walk"),
    ({"origin": "129.03,35.09", "destination": "129.05,35.15", "departure_time": "20261120180"}, "departure_time"),
    ({"origin": "129.03,35.09", "destination": "129.05,35.15", "departure_time": "202611201861"}, "departure_time"),
])
def test_server_bounds(sandbox_server, app_keys, params, word):
    r = _get(sandbox_server, params, app_keys["rest_api_key"])
    assert r.status_code == 400 and r.json()["code"] == -2 and word in r.json()["msg"]


def test_auth(sandbox_server, app_keys):
    params = {"origin": "129.034619,35.097884", "destination": "129.058468,35.157675"}
    assert _get(sandbox_server, params, None).status_code == 401
    bad = _get(sandbox_server, params, "not-a-key")
    assert bad.status_code == 401 and bad.json()["code"] == -401
    if app_keys.get("admin_key"):
        assert _get(sandbox_server, params, app_keys["admin_key"]).status_code == 401
    ok = _get(sandbox_server, params, app_keys["rest_api_key"])
    assert ok.status_code == 200 and ok.headers["content-type"].startswith("application/json")


def test_client_maps_auth_error(sandbox_server):
    import dataclasses

    from tests.conftest import client_for

    client = client_for(sandbox_server)
    try:
        creds = dataclasses.replace(client.config.credentials, rest_api_key="wrong")
        wrong = type(client)(dataclasses.replace(client.config, credentials=creds))
        with pytest.raises(ApiError) as info:
            wrong.local.public_transit(NAMPO, SEOMYEON)
        assert info.value.status == 401
        wrong.close()
    finally:
        client.close()
