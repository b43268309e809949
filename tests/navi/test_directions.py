"""Directions over real HTTP against the sandbox (location.md §4.8–4.11, §8)."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import httpx
import pandas as pd
import pytest

from toolkit.errors import ParameterError
from toolkit.navi import Directions
import toolkit.data

NAMPO = (129.0325, 35.1000, "남포동")
SEOMYEON = (129.0600, 35.1570, "서면")
# the two ends of the synthetic toll tunnel "수정산터널(가상)"
TUNNEL_A = (129.0470, 35.1290)
TUNNEL_B = (129.0380, 35.1565)


@pytest.fixture
def raw(sandbox_server):
    """(navi base URL, headers) for raw HTTP calls that bypass the client-side checks."""
    key = sandbox_server.app_config()["rest_api_key"]
    return sandbox_server.hosts()["navi"], {"Authorization": f"ServiceAK {key}"}


def pt(p):
    return f"{p[0]},{p[1]}"


ADDRESSES = pd.read_csv(toolkit.data.root() / "local" / "addresses.csv.gz", usecols=["x", "y"])


def city_points(seed: int, n: int):
    """Random points of real addresses of the sandbox city (so they are on land, near roads)."""
    df = ADDRESSES
    rng = random.Random(seed)
    idx = rng.sample(range(len(df)), n)
    return [(float(df.x[i]), float(df.y[i])) for i in idx]


# ------------------------------------------------------------------------------------------------ bounds
def test_get_waypoints_bound(raw):
    base, h = raw
    wps = city_points(1, 6)
    ok = httpx.get(f"{base}/v1/directions", headers=h, params={
        "origin": pt(NAMPO), "destination": pt(SEOMYEON), "waypoints": "|".join(map(pt, wps[:5])), "summary": "true"})
    assert ok.status_code == 200 and len(ok.json()["routes"][0]["sections"]) == 6
    bad = httpx.get(f"{base}/v1/directions", headers=h, params={
        "origin": pt(NAMPO), "destination": pt(SEOMYEON), "waypoints": "|".join(map(pt, wps))})
    assert bad.status_code == 400 and bad.json()["code"] == -2 and "waypoints" in bad.json()["msg"]


def test_post_waypoints_bound(raw):
    base, h = raw
    wps = [{"x": x, "y": y} for x, y in city_points(2, 31)]
    body = {"origin": {"x": NAMPO[0], "y": NAMPO[1]}, "destination": {"x": SEOMYEON[0], "y": SEOMYEON[1]},
            "summary": True}
    ok = httpx.post(f"{base}/v1/waypoints/directions", headers=h, json=dict(body, waypoints=wps[:30]), timeout=60)
    assert ok.status_code == 200 and len(ok.json()["routes"][0]["sections"]) == 31
    bad = httpx.post(f"{base}/v1/waypoints/directions", headers=h, json=dict(body, waypoints=wps))
    assert bad.status_code == 400 and bad.json()["code"] == -2


def test_origins_bounds(raw):
    base, h = raw
    origins = [{"key": f"o{i}", "x": x, "y": y} for i, (x, y) in enumerate(city_points(3, 31))]
    body = {"destination": {"x": SEOMYEON[0], "y": SEOMYEON[1]}, "radius": 10000}
    ok = httpx.post(f"{base}/v1/origins/directions", headers=h, json=dict(body, origins=origins[:30]))
    assert ok.status_code == 200
    assert [r["key"] for r in ok.json()["routes"]] == [f"o{i}" for i in range(30)]
    too_many = httpx.post(f"{base}/v1/origins/directions", headers=h, json=dict(body, origins=origins))
    assert too_many.status_code == 200 and [r["result_code"] for r in too_many.json()["routes"]] == [202]
    dests = httpx.post(f"{base}/v1/destinations/directions", headers=h,
                       json={"origin": body["destination"], "radius": 10000, "destinations": origins})
    assert dests.status_code == 200 and [r["result_code"] for r in dests.json()["routes"]] == [303]
    for extra in ({"origins": origins[:3], "radius": 10001},
                  {"origins": origins[:3], "radius": 0}, {"origins": [{"x": 129.03, "y": 35.1}]}):
        bad = httpx.post(f"{base}/v1/origins/directions", headers=h, json=dict(body, **extra))
        assert bad.status_code == 400 and bad.json()["code"] == -2, extra
    no_radius = httpx.post(f"{base}/v1/origins/directions", headers=h,
                           json={"destination": body["destination"], "origins": origins[:2]})
    assert no_radius.status_code == 400 and "radius" in no_radius.json()["msg"]


@pytest.mark.parametrize("many", ["origins", "destinations"])
def test_many_answers_are_the_models_written_as_json_dumps_from_the_guards_parse(raw, sandbox_server, monkeypatch,
                                                                                   many):
    """A many-origin/destination POST is answered from the body the request guard parsed (routes' own
    ``json.loads`` is not called) and written by orjson with the bytes ``json.dumps`` writes for the model's
    answer (Hangul keys, a point no road reaches, a far one)."""
    from types import SimpleNamespace

    from toolkit.sandbox.navi import routes
    from toolkit.sandbox.navi.models import Options, Point

    base, h = raw
    points = [(f"출발{i}", x, y) for i, (x, y) in enumerate(city_points(5, 8))] + [("바다", 129.30, 35.00)]
    centre = {"x": SEOMYEON[0], "y": SEOMYEON[1]}
    body = {many: [{"key": k, "x": x, "y": y} for k, x, y in points], "radius": 10000,
            ("destination" if many == "origins" else "origin"): centre}

    def no_second_parse(*args, **kwargs):
        raise AssertionError("the route parsed the body again")

    monkeypatch.setattr(routes, "json", SimpleNamespace(loads=no_second_parse))
    answer = httpx.post(f"{base}/v1/{many}/directions", headers=h, json=body, timeout=60)
    monkeypatch.undo()
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json;charset=UTF-8"
    model = sandbox_server.sandbox.model("navi")
    expected = model.many([Point(x, y, key=k) for k, x, y in points], Point(centre["x"], centre["y"]), 10000,
                          Options(priority="TIME"), to_target=many == "origins")
    expected["trans_id"] = answer.json()["trans_id"]
    assert answer.content == json.dumps(expected, ensure_ascii=False, separators=(",", ":")).encode()
    codes = [r["result_code"] for r in expected["routes"]]
    assert codes.count(0) >= 5 and any(c != 0 for c in codes)


def test_bad_parameters_and_key(raw):
    base, h = raw
    q = {"origin": pt(NAMPO), "destination": pt(SEOMYEON)}
    for extra in ({"priority": "FASTEST"}, {"avoid": "toll|highway"}, {"car_type": "9"}, {"car_fuel": "COAL"},
                  {"origin": "abc"}, {"summary": "maybe"}):
        r = httpx.get(f"{base}/v1/directions", headers=h, params=dict(q, **extra))
        assert r.status_code == 400 and r.json()["code"] == -2, extra
    assert httpx.get(f"{base}/v1/directions", params=q).status_code == 401
    r = httpx.get(f"{base}/v1/directions", headers=h, params=dict(q, origin=f"{pt(NAMPO)},name=출발"))
    assert r.json()["routes"][0]["summary"]["origin"]["name"] == "출발"


def test_client_checks_bounds_before_sending(tk):
    with pytest.raises(ParameterError, match="waypoints"):
        tk.navi.directions(NAMPO, SEOMYEON, waypoints=[NAMPO] * 6)
    with pytest.raises(ParameterError, match="waypoints"):
        tk.navi.waypoints(NAMPO, SEOMYEON, waypoints=[NAMPO] * 31)
    with pytest.raises(ParameterError, match="origins"):
        tk.navi.origins([(f"k{i}", 129.03, 35.1) for i in range(31)], SEOMYEON)
    with pytest.raises(ParameterError, match="radius"):
        tk.navi.origins([("k", 129.03, 35.1)], SEOMYEON, radius=10001)
    with pytest.raises(ParameterError, match="avoid"):
        tk.navi.directions(NAMPO, SEOMYEON, avoid="highway")


# ------------------------------------------------------------------------------------------------ invariants
def check_route(route: dict, n_waypoints: int):
    assert route["result_code"] == 0, route
    s = route["summary"]
    assert len(route["sections"]) == n_waypoints + 1
    assert s["distance"] == sum(sec["distance"] for sec in route["sections"])
    assert s["duration"] == sum(sec["duration"] for sec in route["sections"])
    b = s["bound"]
    for sec in route["sections"]:
        assert sec["distance"] == sum(r["distance"] for r in sec["roads"])
        assert sec["duration"] == sum(r["duration"] for r in sec["roads"])
        assert sec["distance"] == sum(g["distance"] for g in sec["guides"])
        assert sec["guides"][0]["road_index"] == 0 and sec["guides"][-1]["road_index"] == -1
        assert all(0 <= g["road_index"] < len(sec["roads"]) for g in sec["guides"][1:-1])
        sb = sec["bound"]
        for road in sec["roads"]:
            v = road["vertexes"]
            assert len(v) % 2 == 0 and len(v) >= 4 and all(isinstance(c, float) for c in v)
            assert road["traffic_state"] in (0, 1, 2, 3, 4, 6) and road["traffic_speed"] >= 0
            for x, y in zip(v[0::2], v[1::2]):
                assert b["min_x"] <= x <= b["max_x"] and b["min_y"] <= y <= b["max_y"]
                assert sb["min_x"] <= x <= sb["max_x"] and sb["min_y"] <= y <= sb["max_y"]
    assert s["fare"]["taxi"] >= 4800 and s["fare"]["toll"] >= 0


@pytest.mark.parametrize("seed", range(6))
def test_invariants_on_random_routes(tk, seed):
    pts = city_points(100 + seed, 2 + seed % 4)
    origin, destination, wps = pts[0], pts[1], pts[2:]
    priority = ("RECOMMEND", "TIME", "DISTANCE")[seed % 3]
    r = tk.navi.directions(origin, destination, waypoints=wps, priority=priority, raw=True)
    for route in r["routes"]:
        check_route(route, len(wps))
        assert route["summary"]["priority"] == priority


def test_invariants_on_30_waypoints(tk):
    pts = city_points(7, 32)
    r = tk.navi.waypoints(pts[0], pts[1], waypoints=pts[2:], raw=True)
    check_route(r["routes"][0], 30)


def test_distance_priority_is_shortest(tk):
    pts = city_points(11, 2)
    by = {p: tk.navi.directions(*pts, priority=p).summary.loc[0] for p in ("DISTANCE", "TIME")}
    assert by["DISTANCE"]["distance"] <= by["TIME"]["distance"]
    assert by["TIME"]["duration"] <= by["DISTANCE"]["duration"] + 2     # +2: per-road rounding


# ------------------------------------------------------------------------------------------------ options
def test_post_bodies_leave_out_an_avoid_not_given_and_honour_one_given(tk):
    """The POST routes (waypoints, origins) send ``avoid`` only when it is given, not as null; given, the sandbox
    routes around it as the GET route does."""
    sent = []

    def body(result):
        sent.append(json.loads(tk.core.last_response.request.content))
        return result

    direct = body(tk.navi.waypoints(TUNNEL_A, TUNNEL_B, priority="TIME"))
    avoided = body(tk.navi.waypoints(TUNNEL_A, TUNNEL_B, priority="TIME", avoid=["toll"]))
    many = body(tk.navi.origins([("a", *TUNNEL_A)], TUNNEL_B, priority="TIME"))
    many_avoided = body(tk.navi.origins([("a", *TUNNEL_A)], TUNNEL_B, priority="TIME", avoid=["toll"]))
    assert "avoid" not in sent[0] and sent[1]["avoid"] == ["toll"]
    assert "avoid" not in sent[2] and sent[3]["avoid"] == ["toll"]
    assert direct.summary.loc[0, "fare.toll"] > 0 and avoided.summary.loc[0, "fare.toll"] == 0
    assert many_avoided.loc[0, "duration"] > many.loc[0, "duration"]


def test_avoid_toll_changes_route_and_fare(tk):
    direct = tk.navi.directions(TUNNEL_A, TUNNEL_B, priority="TIME")
    assert direct.summary.loc[0, "fare.toll"] > 0
    assert "수정산터널(가상)" in set(direct.roads["name"])
    avoided = tk.navi.directions(TUNNEL_A, TUNNEL_B, priority="TIME", avoid=["toll"])
    assert avoided.summary.loc[0, "fare.toll"] == 0
    assert "수정산터널(가상)" not in set(avoided.roads["name"])
    assert avoided.summary.loc[0, "duration"] > direct.summary.loc[0, "duration"]
    light = tk.navi.directions(TUNNEL_A, TUNNEL_B, priority="TIME", car_type=6)
    assert light.summary.loc[0, "fare.toll"] == direct.summary.loc[0, "fare.toll"] // 2
    moto = tk.navi.directions(TUNNEL_A, TUNNEL_B, priority="TIME", car_type=7)
    assert "수정산터널(가상)" not in set(moto.roads["name"])


def test_alternatives_are_distinct(tk):
    r = tk.navi.directions(NAMPO, SEOMYEON, alternatives=True)
    assert len(r) >= 2
    lines = [tuple(r.coordinates(i)) for i in range(len(r))]
    assert len(set(lines)) == len(lines)
    for route in r.routes:
        check_route(route, 0)
    single = tk.navi.directions(NAMPO, SEOMYEON)
    assert len(single) == 1 and single.coordinates(0) == r.coordinates(0)


def test_summary_mode_has_no_details(tk):
    r = tk.navi.directions(NAMPO, SEOMYEON, summary=True, raw=True)
    route = r["routes"][0]
    assert route["result_code"] == 0 and "bound" in route["summary"]
    for sec in route["sections"]:
        assert set(sec) == {"distance", "duration"}


def test_result_codes(tk):
    too_close = tk.navi.directions((129.0325, 35.1000), (129.03251, 35.10001))
    assert too_close.routes == [{"result_code": 104, "result_msg": too_close.routes[0]["result_msg"]}]
    seoul = (126.978, 37.566)                                      # no road of the sandbox nearby
    far = tk.navi.directions(seoul, SEOMYEON)
    assert far.routes[0]["result_code"] == 102 and not far.ok     # the platform's codes: 102 origin
    assert tk.navi.directions(NAMPO, seoul).routes[0]["result_code"] == 103            # 103 destination
    assert tk.navi.directions(NAMPO, SEOMYEON, waypoints=[seoul]).routes[0]["result_code"] == 101  # waypoint


def test_traffic_follows_the_clock(fresh_tk):
    def duration():
        return int(fresh_tk.navi.directions(NAMPO, SEOMYEON, priority="DISTANCE").summary.loc[0, "duration"])

    fresh_tk.sandbox.control("POST", "/sandbox/clock", json={"set": "2026-11-20T09:30:00Z", "freeze": True})
    evening = duration()                                 # 18:30 KST, evening peak
    fresh_tk.sandbox.control("POST", "/sandbox/clock", json={"set": "2026-11-20T19:00:00Z"})
    night = duration()                                   # 04:00 KST
    assert night < evening * 0.8
    fut = fresh_tk.navi.future(NAMPO, SEOMYEON, "202611210930", priority="DISTANCE")   # 09:30 KST next day
    assert fut.summary.loc[0, "duration"] != night
    with pytest.raises(Exception) as err:
        fresh_tk.navi.future(NAMPO, SEOMYEON, "202601010000")
    assert getattr(err.value, "code", None) == -2


# ------------------------------------------------------------------------------------------------ many
def test_origins_and_destinations(tk):
    pts = [p for p in city_points(21, 200)
           if math.hypot((p[0] - SEOMYEON[0]) * 91_000, (p[1] - SEOMYEON[1]) * 111_000) < 9000][:5]
    origins = [(f"b{i}", x, y) for i, (x, y) in enumerate(pts)] + [("seoul", 126.978, 37.566)]
    df = tk.navi.origins(origins, SEOMYEON, radius=10000)
    assert list(df["key"]) == [k for k, _, _ in origins]
    assert df.loc[df.key == "seoul", "result_code"].item() != 0
    ok = df[df.result_code == 0]
    assert len(ok) == 5
    # each summary matches the single route from that origin with the same priority
    one = tk.navi.directions(pts[0], SEOMYEON, priority="TIME").summary.loc[0]
    row = ok[ok.key == "b0"].iloc[0]
    assert abs(int(row["distance"]) - int(one["distance"])) <= 2
    assert df.loc[df.key == "seoul", "result_code"].item() == 207          # beyond the radius
    near = tk.navi.origins(origins[:5], SEOMYEON, radius=1)
    assert (near["result_code"] == 207).all()
    assert (tk.navi.destinations(SEOMYEON, origins[:5], radius=1)["result_code"] == 304).all()
    lost = tk.navi.destinations((126.978, 37.566), origins[:2], radius=10000)
    assert (lost["result_code"] == 301).all()
    dst = tk.navi.destinations(SEOMYEON, origins[:5])
    assert (dst["result_code"] == 0).all() and list(dst["key"]) == ["b0", "b1", "b2", "b3", "b4"]


# ------------------------------------------------------------------------------------------------ frames
def test_frames_and_geojson(tk):
    r = tk.navi.directions(NAMPO, SEOMYEON, waypoints=[(129.04, 35.115)])
    assert isinstance(r, Directions)
    s = r.summary
    assert str(s["distance"].dtype) == "Int64" and s["origin.x"].dtype == "float64"
    assert s.loc[0, "origin.name"] == "남포동" and s.attrs["meta"]["trans_id"] == r.trans_id
    roads = r.roads
    assert str(roads["traffic_state"].dtype) == "Int64" and roads["traffic_speed"].dtype == "float64"
    assert roads.groupby("section")["distance"].sum().tolist() == r.sections["distance"].tolist()
    g = r.guides
    assert g["x"].dtype == "float64" and str(g["road_index"].dtype) == "Int64"
    assert g.iloc[0]["type"] == 100 and g.iloc[-1]["type"] == 101 and (g["type"] == 1000).sum() == 1
    gj = r.geojson()
    line = gj["features"][0]["geometry"]
    assert line["type"] == "LineString" and len(line["coordinates"]) >= 2
    assert gj["features"][0]["properties"]["distance"] == s.loc[0, "distance"]
    assert len(r.geojson(by_road=True)["features"]) == len(roads)


def test_maps(tk, tmp_path):
    pytest.importorskip("folium")
    r = tk.navi.directions(NAMPO, SEOMYEON, alternatives=True)
    html = r.map()._repr_html_()
    assert "PolyLine" in html or "polyline" in html.lower()
    df = tk.navi.origins([(f"b{i}", x, y) for i, (x, y) in enumerate(city_points(5, 4))], SEOMYEON)
    path = tmp_path / "o.html"
    tk.navi.origins_map(df).save(str(path))
    assert path.stat().st_size > 1000


def test_taxi_fare_has_the_busan_night_surcharge():
    from datetime import datetime, timedelta, timezone

    from toolkit.sandbox.navi.models import night_surcharge

    kst = timezone(timedelta(hours=9))
    at = lambda h, m=0: datetime(2026, 11, 21, h, m, tzinfo=kst).timestamp()  # noqa: E731
    assert night_surcharge(at(12)) == 1.0 and night_surcharge(at(22, 59)) == 1.0
    assert night_surcharge(at(23)) == 1.2 and night_surcharge(at(0, 30)) == 1.3 and night_surcharge(at(1, 59)) == 1.3
    assert night_surcharge(at(2)) == 1.2 and night_surcharge(at(3, 59)) == 1.2 and night_surcharge(at(4)) == 1.0


# ------------------------------------------------------------------------------------------------ properties
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TOLL_ROADS = {"수정산터널(가상)"}
MOTORWAYS = {"수정산터널(가상)", "동서고가로(가상)"}


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(idx=st.lists(st.integers(0, len(ADDRESSES) - 1), min_size=2, max_size=5, unique=True),
       priority=st.sampled_from(["RECOMMEND", "TIME", "DISTANCE"]),
       avoid=st.sets(st.sampled_from(["toll", "motorway", "schoolzone", "roadevent", "ferries"])),
       alternatives=st.booleans())
def test_invariants_hold_for_any_city_points(tk, idx, priority, avoid, alternatives):
    pts = [(float(ADDRESSES.x[i]), float(ADDRESSES.y[i])) for i in idx]
    r = tk.navi.directions(pts[0], pts[1], waypoints=pts[2:], priority=priority, avoid=sorted(avoid),
                           alternatives=alternatives, raw=True)
    assert r["routes"] and (alternatives or len(r["routes"]) == 1)
    for route in r["routes"]:
        if route["result_code"] == 104:      # two address points within 5 m: no route by design
            continue
        check_route(route, len(pts) - 2)
        names = {road["name"] for sec in route["sections"] for road in sec["roads"]}
        if "toll" in avoid:
            assert route["summary"]["fare"]["toll"] == 0 and not names & TOLL_ROADS
        if "motorway" in avoid:
            assert not names & MOTORWAYS


def test_road_event_and_many_no_road_codes(tk):
    """105/106/107: with avoid=roadevent, a point whose nearest road node has only road-event edges;
    201/203/302: a point with no road within 2,000 m (``SNAP_MAX_M``) in the many-origin/destination calls."""
    import numpy as np

    from toolkit.sandbox.navi.graph import road_graph

    g = road_graph(toolkit.data.root())
    node = next(int(n) for n in g.snap_ids if g.all_events_at(int(n)))
    ev = (float(g.lon[node]), float(g.lat[node]))
    assert g.snap(*ev)[0] == node and np.isfinite(g.lon[node])
    codes = lambda r: r.routes[0]["result_code"]  # noqa: E731
    assert codes(tk.navi.directions(ev, SEOMYEON, avoid=["roadevent"])) == 105
    assert codes(tk.navi.directions(SEOMYEON, ev, avoid=["roadevent"])) == 106
    assert codes(tk.navi.directions(NAMPO, SEOMYEON, waypoints=[ev], avoid=["roadevent"])) == 107
    assert codes(tk.navi.directions(ev, SEOMYEON)) == 0                  # without the avoid it is driven
    sea = (129.22, 35.11)                                                 # open sea, 7 km off the destination
    near_sea = [("a", 129.24, 35.06), ("b", SEOMYEON[0], SEOMYEON[1])]
    assert list(tk.navi.origins(near_sea, (129.2, 35.1), radius=10000)["result_code"])[:1] == [203]
    df = tk.navi.origins([("s", *sea)], (129.2, 35.17), radius=10000)
    assert list(df["result_code"]) == [201]
    df = tk.navi.destinations((129.2, 35.17), [("s", *sea)], radius=10000)
    assert list(df["result_code"]) == [302]


def test_no_route_and_many_origin_event_codes(tk, monkeypatch):
    """1: origin and destination on the graph, but every way between them blocked by ``avoid``; 205 / 206: a road
    event at an origin / the destination of the many-origins call with avoid=roadevent; every code of the platform's
    list has its message (204, a search time limit, is never produced: the sandbox has no time limit).

    No place of the city is cut off by avoiding its toll or car-only roads any more (명지오션시티 was, joined to the
    rest only by the car-only 을숙도대교, until the graph joined 강서구's roads across the 서낙동강): here every road at
    one node counts as a toll road, so that avoiding tolls leaves it no way out."""
    import numpy as np

    from toolkit.sandbox.navi.graph import MX, MY, road_graph
    from toolkit.sandbox.navi.models import MSG, Model

    g = road_graph(toolkit.data.root())
    start = (129.0113, 35.0993)                                    # 남부민동, a point no other test routes from
    cut, _ = g.snap(*start)
    start = (float(g.lon[cut]), float(g.lat[cut]))
    around = (g.eu == cut) | (g.ev == cut)
    blocked = Model._blocked
    monkeypatch.setattr(Model, "_blocked", lambda self, graph, opts: blocked(self, graph, opts)
                        | (around if "toll" in opts.avoid else False))
    g._trees.clear()                           # no weighted graph nor shortest-path tree kept from another test …
    g._matrices.clear()
    avoid = "toll"
    assert tk.navi.directions(start, SEOMYEON[:2], avoid=[avoid]).routes[0]["result_code"] == 1
    assert tk.navi.directions(start, SEOMYEON[:2]).routes[0]["result_code"] == 0       # that road is driven
    # the many-origin call answers within 10 km: a destination 2-9 km from the node
    metres = np.hypot((g.lon[g.snap_ids] - start[0]) * MX, (g.lat[g.snap_ids] - start[1]) * MY)
    inside = g.snap_ids[(metres > 2000) & (metres < 9000)]
    dest = (float(g.lon[inside[0]]), float(g.lat[inside[0]]))
    try:
        df = tk.navi.origins([("cut", *start)], dest, radius=10000, avoid=[avoid])
        assert list(df["result_code"]) == [1]
        assert list(tk.navi.origins([("cut", *start)], dest, radius=10000)["result_code"]) == [0]
    finally:
        g._trees.clear()                       # … nor from this one
        g._matrices.clear()

    node = next(int(n) for n in g.snap_ids if g.all_events_at(int(n)))
    ev = (float(g.lon[node]), float(g.lat[node]))
    near = (ev[0] + 0.01, ev[1] + 0.01)
    df = tk.navi.origins([("ev", *ev), ("ok", *near)], SEOMYEON[:2], radius=10000, avoid=["roadevent"])
    assert list(df["result_code"]) == [205, 0]
    df = tk.navi.origins([("a", *near), ("b", *SEOMYEON[:2])], ev, radius=10000, avoid=["roadevent"])
    assert set(df["result_code"]) == {206}
    assert list(tk.navi.origins([("ev", *ev)], SEOMYEON[:2], radius=10000)["result_code"]) == [0]
    documented = {0, 1, *range(101, 108), *range(201, 208), *range(301, 305)}
    assert documented <= set(MSG) and all(MSG[c] for c in documented)
