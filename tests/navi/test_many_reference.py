"""Many-origin and many-destination answers (location §4.10-4.11) equal those of the plain algorithm they were
first written as, kept here as the reference: a full Dijkstra of ``scipy.sparse.csgraph`` from the target per
call, each point snapped by a k-d tree query, each path walked node by node, and each summary the sum of the
roads a single route shows (each road's distance and duration rounded, then added).

Deterministic points over Busan (and beyond it, in the sea, on the target), both priorities, the avoid options,
a motorcycle, two traffic times, both directions; every call twice (the second one answered from the caches)."""
from __future__ import annotations

import random

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.navi.models import MAX_MANY, MSG, SNAP_MAX_M, TOO_CLOSE_M, Leg, Options, Point, failed


@pytest.fixture(scope="module")
def navi():
    sandbox = Sandbox(frozen=True)
    yield sandbox.model("navi")
    sandbox.model("events").stop()
    sandbox.store.close()


def reference_many(model, sources, target, radius, opts, *, to_target):
    """The many-origin/-destination answer as first written (without ``trans_id``)."""
    from scipy.sparse.csgraph import dijkstra

    g = model.graph
    traffic = g.traffic(opts.when if opts.when is not None else model.sandbox.clock.timestamp())
    matrix = g.matrix(g.arc_weights(model._weights(g, opts, traffic), model._blocked(g, opts)))
    ev = "roadevent" in opts.avoid
    if len(sources) > MAX_MANY:
        return [failed(202 if to_target else 303)]
    node, dist = g.snap(target.x, target.y)
    if dist > SNAP_MAX_M:
        return [dict(failed(203 if to_target else 301), key=p.key) for p in sources]
    if ev and to_target and g.all_events_at(node):
        return [dict(failed(206), key=p.key) for p in sources]
    centre = node
    cost, pred = dijkstra(matrix.T.tocsr() if to_target else matrix, directed=True, indices=centre,
                          return_predecessors=True)
    out = []
    for p in sources:
        if g.metres(p.x, p.y, target.x, target.y) > radius:
            out.append(dict(failed(207 if to_target else 304), key=p.key))
            continue
        if g.metres(p.x, p.y, target.x, target.y) <= TOO_CLOSE_M:
            out.append(dict(failed(104), key=p.key))
            continue
        node, dist = g.snap(p.x, p.y)
        if dist > SNAP_MAX_M:
            out.append(dict(failed(201 if to_target else 302), key=p.key))
            continue
        if ev and to_target and g.all_events_at(node):
            out.append(dict(failed(205), key=p.key))
            continue
        path = g.walk(cost, pred, centre, node)
        if path is None:
            out.append(dict(failed(1), key=p.key))
            continue
        if to_target:
            path = path[::-1]
        roads = model._roads(g, traffic, Leg(path, g.edges_of(path)))
        out.append({"result_code": 0, "result_msg": MSG[0], "key": p.key,
                    "summary": {"distance": sum(r["distance"] for r in roads),
                                "duration": sum(r["duration"] for r in roads)}})
    return out


def _points(rng, n, target, g):
    """Points of every kind: anywhere in the city, near the target, on graph nodes, in the sea (no road within
    ``SNAP_MAX_M``: within 10 km of the target where there is such sea, else the open sea far south-east), on the
    target itself (within 5 m), repeated."""
    pts = []
    for i in range(n):
        kind = i % 8
        if kind in (0, 1, 2):
            x, y = rng.uniform(128.95, 129.20), rng.uniform(35.05, 35.25)
        elif kind == 3:
            x, y = target.x + rng.uniform(-0.02, 0.02), target.y + rng.uniform(-0.02, 0.02)
        elif kind == 4:
            k = rng.randrange(len(g.lon))
            x, y = float(g.lon[k]), float(g.lat[k])
        elif kind == 5:
            for _ in range(100):                                                 # sea near the target
                x, y = target.x + rng.uniform(-0.09, 0.09), target.y + rng.uniform(-0.08, 0.08)
                if g.snap(x, y)[1] > SNAP_MAX_M:
                    break
            else:
                x, y = rng.uniform(129.20, 129.35), rng.uniform(34.95, 35.02)   # open sea south-east
        elif kind == 6:
            x, y = target.x + rng.uniform(-2e-5, 2e-5), target.y + rng.uniform(-2e-5, 2e-5)
        else:
            x, y = (pts[rng.randrange(len(pts))].x, pts[rng.randrange(len(pts))].y) if pts else (target.x, target.y)
        pts.append(Point(x, y, key=f"p{i}"))
    return pts


OPTIONS = [Options(priority="TIME"), Options(priority="DISTANCE"),
           Options(priority="TIME", avoid=("motorway",)), Options(priority="DISTANCE", avoid=("toll",)),
           Options(priority="TIME", avoid=("schoolzone", "roadevent")),
           Options(priority="DISTANCE", avoid=("roadevent", "toll", "motorway", "ferries")),
           Options(priority="TIME", car_type=7)]


@pytest.mark.parametrize("to_target", [True, False])
def test_answers_equal_the_reference(navi, to_target):
    g = navi.graph
    rng = random.Random(15)
    targets = [Point(129.0600, 35.1570), Point(129.0325, 35.1000), Point(129.1600, 35.1630)]
    targets += [Point(float(g.lon[k]), float(g.lat[k])) for k in rng.sample(range(len(g.lon)), 3)]
    now = navi.sandbox.clock.timestamp()
    compared = succeeded = 0
    codes = set()
    for t, target in enumerate(targets):
        sources = _points(rng, MAX_MANY, target, g)
        for k, opts in enumerate(OPTIONS):
            if (t + k) % 2:          # a second traffic time (a later 15-minute bucket) for half the pairs
                opts = Options(**{**opts.__dict__, "when": now + 3 * 3600})
            radius = rng.choice([10000, 5000])
            want = reference_many(navi, sources, target, radius, opts, to_target=to_target)
            for _ in range(2):
                got = navi.many(sources, target, radius, opts, to_target=to_target)
                assert set(got) == {"trans_id", "routes"}
                assert got["routes"] == want, (t, k)
            compared += len(want)
            succeeded += sum(r["result_code"] == 0 for r in want)
            codes |= {r["result_code"] for r in want}
    assert succeeded >= compared // 4
    assert {0, 104, 207 if to_target else 304, 201 if to_target else 302} <= codes


@pytest.mark.parametrize("to_target", [True, False])
def test_failures_of_the_whole_call_equal_the_reference(navi, to_target):
    g = navi.graph
    sources = _points(random.Random(2), MAX_MANY + 1, Point(129.06, 35.157), g)
    sea = Point(129.30, 34.98)
    for opts in (Options(priority="TIME"), Options(priority="DISTANCE", avoid=("roadevent",))):
        for target, pts in ((Point(129.06, 35.157), sources), (sea, sources[:5])):
            want = reference_many(navi, pts, target, 10000, opts, to_target=to_target)
            assert navi.many(pts, target, 10000, opts, to_target=to_target)["routes"] == want
            assert len(want) in (1, 5) and want[0]["result_code"] != 0


def test_a_road_event_at_the_target_or_an_origin_with_avoid_roadevent(navi):
    """205/206: the reference and the model agree on a point whose every edge is road works."""
    g = navi.graph
    events = [n for n in range(len(g.lon)) if g.all_events_at(n)]
    assert events, "the graph has nodes with road works only"
    ev = Point(float(g.lon[events[0]]), float(g.lat[events[0]]), key="ev")
    near = _points(random.Random(5), 10, ev, g)
    opts = Options(priority="TIME", avoid=("roadevent",))
    for target, pts in ((ev, near), (Point(129.06, 35.157), [ev, *near])):
        want = reference_many(navi, pts, target, 10000, opts, to_target=True)
        assert navi.many(pts, target, 10000, opts, to_target=True)["routes"] == want
        assert {206, 205} & {r["result_code"] for r in want}


@pytest.mark.parametrize("to_target", [True, False])
def test_the_blocks_of_a_matrix_equal_the_reference(navi, to_target):
    """A matrix sends one call per block of origins to the same target: later blocks reuse the tree and the
    roads of earlier ones; every block's answer equals the reference's."""
    import numpy as np

    g = navi.graph
    rng = random.Random(21)
    for target in (Point(129.0750, 35.1800), Point(129.0100, 35.0980)):
        # graph nodes around the target as well: many paths through the same junctions, roads starting side by side
        near = np.flatnonzero(np.hypot(g.lon - target.x, g.lat - target.y) < 0.03).tolist()
        for opts in (Options(priority="TIME"), Options(priority="DISTANCE", avoid=("toll", "schoolzone"))):
            for b in range(6):
                if b % 2:
                    block = [Point(float(g.lon[k]), float(g.lat[k]), key=f"n{k}") for k in rng.sample(near, MAX_MANY)]
                else:
                    block = _points(rng, MAX_MANY, target, g)
                want = reference_many(navi, block, target, 10000, opts, to_target=to_target)
                assert navi.many(block, target, 10000, opts, to_target=to_target)["routes"] == want


@pytest.mark.parametrize("to_target", [True, False])
def test_points_on_the_target_node_and_alone(navi, to_target):
    """A point more than 5 m from the target that snaps to the target's node (a path without edges), alone or
    with others: the same answers as the reference."""
    g = navi.graph
    node = g.snap(129.0600, 35.1570)[0]
    target = Point(float(g.lon[node]), float(g.lat[node]))
    same = [p for p in (Point(target.x + dx, target.y + dy, key=f"s{i}")
                        for i, (dx, dy) in enumerate([(1e-4, 0), (0, 1e-4), (-1e-4, 0), (0, -1e-4), (7e-5, 7e-5)]))
            if g.snap(p.x, p.y)[0] == node and g.metres(p.x, p.y, target.x, target.y) > 5]
    assert same, "points near the target that snap to its node"
    for sources in (same[:1], same, [*same, Point(129.05, 35.15, key="far")]):
        for opts in (Options(priority="TIME"), Options(priority="DISTANCE")):
            want = reference_many(navi, sources, target, 10000, opts, to_target=to_target)
            assert navi.many(sources, target, 10000, opts, to_target=to_target)["routes"] == want
            assert want[0]["summary"] == {"distance": 0, "duration": 0}
