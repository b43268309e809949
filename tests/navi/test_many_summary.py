"""Many-origin and many-destination summaries (location §4.10-4.11) are summed for all paths at once without
building each road's vertexes: the distances and durations are those of the roads a single route shows (each
road rounded, then added), and the edges of a path found in one search are those of the arc-by-arc walk."""
from __future__ import annotations

import random

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.navi.models import Leg, Options, Point


@pytest.fixture(scope="module")
def navi():
    sandbox = Sandbox()
    yield sandbox.model("navi")
    sandbox.model("events").stop()
    sandbox.store.close()


def _points(n, seed):
    rng = random.Random(seed)
    return [Point(rng.uniform(129.00, 129.15), rng.uniform(35.08, 35.22), key=f"p{i}") for i in range(n)]


@pytest.mark.parametrize("to_target", [True, False])
def test_summaries_equal_the_sums_of_the_roads(navi, monkeypatch, to_target):
    target = Point(129.0600, 35.1570)
    sources = _points(30, 4)
    for opts in (Options(priority="TIME"), Options(priority="DISTANCE"), Options(avoid=("motorway",))):
        fast = navi.many(sources, target, 20000, opts, to_target=to_target)["routes"]

        def from_roads(g, traffic, paths, *kept):
            out = []
            for path in paths:
                roads = navi._roads(g, traffic, Leg(path, g.edges_of(path)))
                out.append({"distance": sum(r["distance"] for r in roads),
                            "duration": sum(r["duration"] for r in roads)})
            return out

        with monkeypatch.context() as patch:
            patch.setattr(navi, "_path_totals", from_roads)
            slow = navi.many(sources, target, 20000, opts, to_target=to_target)["routes"]
        assert [r.get("summary") for r in fast] == [r.get("summary") for r in slow]
        assert sum(r["result_code"] == 0 for r in fast) >= 20


def test_edges_of_a_path_are_the_arcs_walked_one_by_one(navi):
    import numpy as np

    g = navi.graph
    rng = random.Random(9)
    for _ in range(20):
        a, b = rng.randrange(len(g.lon)), rng.randrange(len(g.lon))
        path = g.path(g.matrix(np.ones(len(g.arc_e))), a, b)
        if not path or len(path) < 2:
            continue
        walked = []
        for u, v in zip(path, path[1:]):
            lo, hi = g.indptr[u], g.indptr[u + 1]
            walked.append(int(g.arc_e[lo + int(np.searchsorted(g.indices[lo:hi], v))]))
        assert g.edges_of(path) == walked


def test_snap_is_the_nearest_node_of_a_scan_of_every_node(navi):
    import math

    import numpy as np

    from toolkit.sandbox.navi.graph import LAT0, MX, MY

    g = navi.graph
    ids = g.snap_ids
    rng = random.Random(3)
    points = [(rng.uniform(128.85, 129.30), rng.uniform(35.00, 35.35)) for _ in range(150)]
    points += [(float(g.lon[n]), float(g.lat[n])) for n in rng.sample(list(ids), 50)]   # exactly on nodes
    for x, y in points:
        px, py = (x - 129.0) * MX, (y - LAT0) * MY
        d2 = (g.mx[ids] - px) ** 2 + (g.my[ids] - py) ** 2
        k = int(np.argmin(d2))
        assert g.snap(x, y) == (int(ids[k]), float(math.sqrt(d2[k])))
