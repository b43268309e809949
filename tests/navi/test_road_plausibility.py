"""The synthetic road graph gives plausible trips everywhere in the city.

* Issue 37, point 3: road distance ÷ straight-line distance at most 1.4 in median over random city pairs of
  3–15 km, and speeds that follow the road class and the time of day.
* Issue 41, point 4: over 1,200 random pairs of real address points at least 2 km apart, drawn district by district
  (each of the 16 districts, 강서구 west of the 낙동강 included, is the origin of 75 of them, and half of those trips
  stay inside it), the detour's 99th percentile is at most 2.5 and its maximum at most 4; and every legal dong's
  and ri's representative point (the point the address search answers for its name: 신호동 answered code 103)
  routes, as an origin and as a destination.

The pairs are real address points of the city (so both ends are on land, in Busan), drawn with a fixed seed; the
routes are the sandbox's own (``Model._routes``, what ``GET /v1/directions`` answers), computed in this process on
the sandbox that also serves a sample of them over HTTP (the same answers), at the lessons' frozen 18:00 KST and at
03:00 KST. The module takes about 15 s of CPU (the 1,200 routes about 5 s); 30–40 s on a shared, loaded 2-core
machine."""
from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pandas as pd
import pytest

import toolkit.data
from tests.conftest import client_for
from toolkit.sandbox.clock import _parse
from toolkit.sandbox.navi.graph import MX, MY
from toolkit.sandbox.navi.models import SNAP_MAX_M, TOO_CLOSE_M, Leg, NoRoute, Options, Point
from toolkit.sandbox.server import SandboxServer

EVENING = "2026-11-20T09:00:00Z"      # 18:00 KST, the clock 05_directions freezes
NIGHT = "2026-11-19T18:00:00Z"        # 03:00 KST the same day
SEED = 20261126
PAIRS = 300
WIDE_SEED = 20261201                  # the pairs of issue 41 (district_pairs)
WIDE_PAIRS = 1200
WIDE_LOW_M = 2000.0
CITY_HALL = (129.0756, 35.1796)       # 부산광역시청


@pytest.fixture(scope="module")
def server():
    """One sandbox, frozen at 18:00 KST, served on loopback (for the HTTP sample) and routed on in this process."""
    server = SandboxServer(port=0, frozen=True, clock_start=EVENING).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def navi(server):
    return server.sandbox


def metres(a, b) -> float:
    return math.hypot((a[0] - b[0]) * MX, (a[1] - b[1]) * MY)


def city_pairs(n: int = PAIRS, seed: int = SEED, low: float = 3000, high: float = 15000):
    """``n`` pairs of real address points of the city, ``low``–``high`` metres apart in a straight line."""
    df = pd.read_csv(toolkit.data.root() / "local" / "addresses.csv.gz", usecols=["x", "y"])
    xs, ys = df["x"].tolist(), df["y"].tolist()
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        i, j = rng.randrange(len(xs)), rng.randrange(len(xs))
        a, b = (xs[i], ys[i]), (xs[j], ys[j])
        if low <= metres(a, b) <= high:
            out.append((a, b))
    return out


def district_pairs(n: int = WIDE_PAIRS, seed: int = WIDE_SEED, low: float = WIDE_LOW_M):
    """``n`` trips between real address points at least ``low`` metres apart, as (origin, destination, origin's
    district, destination's district): the origin's district goes round the 16 districts in turn (so each is the
    origin of n / 16 trips), the origin is a random address of it, and the destination a random address of the same
    district (every other trip, when one lies ``low`` away) or of the whole city."""
    df = pd.read_csv(toolkit.data.root() / "local" / "addresses.csv.gz", usecols=["x", "y", "region_2depth_name"])
    points, district = list(zip(df["x"].tolist(), df["y"].tolist())), df["region_2depth_name"].tolist()
    members: dict[str, list[int]] = {}
    for i, d in enumerate(district):
        members.setdefault(d, []).append(i)
    names, everywhere = sorted(members), range(len(points))
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        i = rng.choice(members[names[len(out) % len(names)]])
        pool = members[district[i]] if rng.random() < 0.5 else everywhere
        for _ in range(100):
            j = rng.choice(pool)
            if metres(points[i], points[j]) >= low:
                out.append((points[i], points[j], district[i], district[j]))
                break
    return out


def dong_points(sandbox) -> list[tuple[str, str, tuple[float, float]]]:
    """(district, name, point) of every legal dong and ri of the city: the point the address search answers for the
    region's name (its representative point), in code order."""
    regions = sandbox.model("local").world().regions
    return [(r["region_2depth_name"], r["name"], (r["x"], r["y"])) for _, r in sorted(regions.items())
            if r["level"] in ("emd", "ri")]


def detours(sandbox, pairs) -> np.ndarray:
    """Road distance of the recommended route ÷ straight-line distance of each (origin, destination, …) pair at the
    sandbox's clock (inf where no route): as ``Model._routes`` computes a route (the same snapping, weights, shortest
    path and roads rounded one by one; ``test_routes_over_http_are_the_routes_counted_here`` checks a sample against
    the served answers), with one weighted graph for all the pairs (``_routes`` builds it for each: twice the time)."""
    model = sandbox.model("navi")
    g, opts = model.graph, Options(summary=True)
    traffic = g.traffic(sandbox.clock.timestamp())
    matrix = g.matrix(g.arc_weights(model._weights(g, opts, traffic), model._blocked(g, opts)))
    out = []
    for a, b, *_ in pairs:
        try:
            ends = [model._snap(g, Point(*p), code) for p, code in ((a, 102), (b, 103))]
        except NoRoute:
            ends = None
        nodes = g.path(matrix, *ends) if ends and metres(a, b) > TOO_CLOSE_M else None
        if nodes is None:
            out.append(math.inf)
            continue
        roads = model._roads(g, traffic, Leg(nodes, g.edges_of(nodes)))
        out.append(sum(r["distance"] for r in roads) / metres(a, b))
    return np.array(out)


def route(sandbox, a, b, when: str | None = None, **options) -> dict:
    if when is not None:
        sandbox.clock.set(when)
    try:
        answer = sandbox.model("navi")._routes(Point(*a), Point(*b), [], Options(summary=True, **options))[0]
    finally:
        sandbox.clock.set(EVENING)
    assert answer["result_code"] == 0, answer
    return answer["summary"]


def test_detour_median_at_most_1_4_over_random_city_pairs(navi):
    pairs = city_pairs()
    ratios = [route(navi, a, b)["distance"] / metres(a, b) for a, b in pairs]
    median = statistics.median(ratios)
    assert len(ratios) == PAIRS
    assert 1.0 < median <= 1.4, median                 # a road is never shorter than the straight line
    assert min(ratios) >= 0.99                          # (snapping to the road may gain a few metres)
    # the shortest way by road (priority DISTANCE) is no longer than the recommended one
    short = [route(navi, a, b, priority="DISTANCE")["distance"] / metres(a, b) for a, b in pairs[:60]]
    assert statistics.median(short) <= statistics.median(ratios[:60])


def test_the_same_trip_is_slower_at_the_evening_peak_than_at_night(navi):
    for a, b in city_pairs(10, seed=7):
        evening, night = route(navi, a, b), route(navi, a, b, when=NIGHT)
        speed = lambda s: s["distance"] / s["duration"] * 3.6          # noqa: E731
        assert speed(night) > 1.4 * speed(evening), (a, b, speed(night), speed(evening))


def test_speeds_follow_the_road_class(navi):
    """The traffic speed of the edges at 03:00 and 18:00 KST, by class (median): car-only roads fastest, then
    arterials, main roads and local streets; each class much slower at 18:00 than at 03:00."""
    g = navi.model("navi").graph
    night, evening = g.traffic(_parse(NIGHT)), g.traffic(_parse(EVENING))
    plain = ~g.school & ~g.event
    order = ["motorway", "arterial", "main", "local"]
    med = {c: (float(np.median(night.speed[plain & (g.eclass == c)])),
               float(np.median(evening.speed[plain & (g.eclass == c)]))) for c in order}
    for when in (0, 1):
        values = [med[c][when] for c in order]
        assert values == sorted(values, reverse=True) and len(set(values)) == 4, med
    for c in order:
        assert med[c][1] < 0.8 * med[c][0], (c, med[c])


def test_routes_on_bigger_roads_run_faster(navi):
    """At 18:00 routes do not all run at one speed: over random pairs, the share of a route's length on
    arterials and car-only roads goes with its average speed."""
    model = navi.model("navi")
    g = model.graph
    traffic = g.traffic(_parse(EVENING))
    matrix = g.matrix(g.arc_weights(model._weights(g, Options(), traffic)))
    big = np.isin(g.eclass, ["arterial", "motorway"])
    shares, speeds = [], []
    for a, b in city_pairs(40, seed=11):
        edges = g.edges_of(g.path(matrix, g.snap(*a)[0], g.snap(*b)[0]))
        length = g.elen[edges].sum()
        shares.append(g.elen[edges][big[edges]].sum() / length)
        speeds.append(length / traffic.seconds[edges].sum() * 3.6)
    assert max(speeds) - min(speeds) > 5, speeds
    rank = lambda v: np.argsort(np.argsort(v))                         # noqa: E731
    assert np.corrcoef(rank(shares), rank(speeds))[0, 1] > 0.5, list(zip(shares, speeds))


def test_haeundae_to_busan_station_by_road_is_near_the_real_drive(navi):
    """The issue's case: from the cafés around 해운대역 to 부산역 the straight line is about 11.5 km and the real
    drive (광안대교 and 부산항대교, or 황령터널) about 15–17 km. Here it is about 16 km (18 km before issue 41's
    round, 23 km before the graph had its junctions and district links), by 해운대로, 연수로, 중앙대로, 범일로 and
    충장대로; this test allows up to 18.5 km. (The points: 해운대역 2호선 and the KTX 부산역, as the keyword search places
    them.)"""
    haeundae, busan_station = (129.158894, 35.163661), (129.045082, 35.117625)
    s = route(navi, haeundae, busan_station)
    assert 15000 <= s["distance"] <= 18500, s


@pytest.fixture(scope="module")
def wide(navi):
    """The trips of :func:`district_pairs` and their detours."""
    pairs = district_pairs()
    return pairs, detours(navi, pairs)


def test_detours_are_plausible_all_over_the_city(wide):
    """Issue 41, point 4: p99 ≤ 2.5 and max ≤ 4 over 1,200 trips of at least 2 km, 75 starting in each district;
    before the fix trips west of the 서낙동강 ran 3–16 times the straight line (p99 2.97, max 14.7; 강서구's p99 8.0)."""
    pairs, ratios = wide
    assert len(pairs) >= 1000 and np.isfinite(ratios).all()
    starts = {p[2] for p in pairs}
    assert len(starts) == 16 and all(sum(p[2] == d for p in pairs) == WIDE_PAIRS // 16 for d in starts)
    assert min(ratios) >= 0.99                                          # a road is never shorter than the line
    assert np.percentile(ratios, 99) <= 2.5, np.percentile(ratios, 99)
    worst = int(np.argmax(ratios))
    assert ratios[worst] <= 4, (ratios[worst], pairs[worst])
    gangseo = np.array(["강서구" in p[2:] for p in pairs])
    assert gangseo.sum() >= 75 and ratios[gangseo].max() <= 4 and np.percentile(ratios[gangseo], 99) <= 2.5


def test_the_issue_trip_west_of_the_seonakdong_river(navi):
    """공항진입로 (대저1동, on the 대저 island) to 식만동 across the 서낙동강: 2.7–3.1 km in a straight line, 43.4 km by
    road before (round by the 낙동강's bridges and 사하구); now at most 2.5 times the line."""
    airport_road = (128.938056, 35.201051)                              # 공항진입로, its first address
    simman = next(p for d, name, p in dong_points(navi) if (d, name) == ("강서구", "식만동"))
    assert route(navi, airport_road, simman)["distance"] <= 2.5 * metres(airport_road, simman)


def test_every_dong_and_ri_point_routes_as_origin_and_destination(navi):
    """Issue 41, point 4: each legal dong's and ri's representative point, from the one before it and to the one
    after it (so each is an origin and a destination once): every route found (result_code 0), the point snapped to
    a road within the bound (``SNAP_MAX_M``), and no trip of 2 km or more longer than 5 times the straight line
    (neighbouring ri of 기장군 lie on either side of a hill: 용천리 to 철마면 round 달음산 is about 4 times the
    line). Before: 6 points (신호동 and five ri of 기장군) lay more than 1,000 m from any road and got code 102/103,
    and 장전리 to 백길리, 3 km apart in 철마면, took 12 km."""
    points = dong_points(navi)
    assert len(points) == 254                                           # 192 legal dongs and 62 ri
    g = navi.model("navi").graph
    for (_, _, a), (district, name, b) in zip(points, points[1:] + points[:1]):
        assert g.snap(*b)[1] <= SNAP_MAX_M, (district, name)
        s = route(navi, a, b)                                           # asserts result_code 0
        assert metres(a, b) < 2000 or s["distance"] <= 5 * metres(a, b), (district, name, s)


def test_routes_over_http_are_the_routes_counted_here(server, wide):
    """A sample of the trips (two per district) and the dong points that failed before, asked with
    ``tk.navi.directions``: the same distances as computed in this process, result_code 0 everywhere."""
    pairs, ratios = wide
    tk = client_for(server)
    try:
        for k in range(0, 32):                                          # trips k (district k % 16)
            a, b, *_ = pairs[k]
            s = tk.navi.directions(a, b, summary=True).summary.loc[0]
            assert s["result_code"] == 0 and s["distance"] == round(ratios[k] * metres(a, b)), (a, b)
        sinho = next(p for d, name, p in dong_points(server.sandbox) if name == "신호동")
        assert tk.navi.directions(CITY_HALL, sinho).ok                   # code 103 before
        assert tk.navi.directions(sinho, CITY_HALL).ok                   # code 102 before
    finally:
        tk.close()
