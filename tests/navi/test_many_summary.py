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

        def to_root_from_roads(g, traffic, tree, nodes):   # every path walked whole, its roads built and added
            return [None if path is None else from_roads(g, traffic, [path])[0]
                    for path in g.tree_walks(tree, nodes)]

        with monkeypatch.context() as patch:
            patch.setattr(navi, "_path_totals", from_roads)
            patch.setattr(navi, "_totals_to_root", to_root_from_roads)
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


@pytest.mark.parametrize("to_target", [True, False])
def test_a_many_call_runs_on_the_event_loop_only_once_its_weights_are_kept(fresh_server, fresh_tk, monkeypatch,
                                                                           to_target):
    """The route sends a many-call to a worker thread while it may build something (the graph, the weights of a
    traffic bucket), and answers it on the event loop once the call is only a search and walks; the answers are
    the same either way, and the direction asked for decides which weighted graph must be kept."""
    from toolkit.sandbox.navi import routes

    threaded = []
    real = routes.run_in_threadpool

    async def counting(fn, *args, **kwargs):
        threaded.append(fn.__name__)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(routes, "run_in_threadpool", counting)
    sandbox = fresh_server.sandbox
    # a traffic bucket no other test used (the road graph and what it keeps are shared by the process), held
    sandbox.clock.freeze()
    sandbox.clock.advance(86400 * random.Random().randrange(300, 30_000) + 900 * random.Random().randrange(96))
    model, opts = sandbox.model("navi"), Options(priority="DISTANCE")
    assert not model.many_is_quick(opts, to_target=to_target)
    points = [(f"p{i}", 129.03 + 0.004 * i, 35.10 + 0.003 * i) for i in range(6)]
    target = (129.059, 35.158)
    ask = fresh_tk.navi.origins if to_target else fresh_tk.navi.destinations
    first = ask(points, target, priority="DISTANCE") if to_target else ask(target, points, priority="DISTANCE")
    assert threaded == ["many"] and model.many_is_quick(opts, to_target=to_target)
    if not to_target:   # the reversed graph, which many origins search, was not built by many destinations
        assert not model.many_is_quick(opts, to_target=True)
    again = ask(points, target, priority="DISTANCE") if to_target else ask(target, points, priority="DISTANCE")
    assert threaded == ["many"]                     # the second call stayed on the event loop
    cols = ["key", "result_code", "distance", "duration"]
    assert first[cols].equals(again[cols]) and (first["result_code"] == 0).sum() >= 4


def test_a_trees_predecessors_are_its_list_made_of_shared_node_numbers(navi):
    import numpy as np
    from scipy.sparse.csgraph import dijkstra

    g = navi.graph
    matrix = g.matrix(np.ones(len(g.arc_e)))
    _, pred = dijkstra(matrix, directed=True, indices=int(g.snap_ids[0]), return_predecessors=True)
    _, other = dijkstra(matrix, directed=True, indices=int(g.snap_ids[-1]), return_predecessors=True)
    assert (pred == -9999).any()                      # the root and unreached nodes
    first, second = g.node_list(pred), g.node_list(other)
    assert first == pred.tolist() and second == other.tolist()
    both = set(first) & set(second)                   # nodes that are a predecessor in both trees
    node = next(v for v in first if v > 1000 and v in both)
    assert second[second.index(node)] is first[first.index(node)]   # one int object per node, shared


def test_many_frames_from_columns_equal_the_frames_of_rows():
    """many_frame() and navi.matrix build their frames from the answers' columns: the same frame, dtypes
    included, as one dict per route gave (routes found and not, an unknown key, no summary, no routes)."""
    import pandas as pd

    import warnings

    from toolkit.errors import NoRouteWarning
    from toolkit.frames import frame
    from toolkit.navi import MANY_COLUMNS, MANY_TYPES, _many_columns, many_frame
    from toolkit.navicodes import RESULT_CODES_EN

    points = [{"key": "a", "x": 129.05, "y": 35.15}, {"key": "b", "x": 129.06, "y": 35.16}]
    body = {"trans_id": "t1", "routes": [
        {"key": "a", "result_code": 0, "result_msg": "길찾기 성공",
         "summary": {"distance": 1200, "duration": 300}},
        {"key": "b", "result_code": 104, "result_msg": "출발지와 도착지가 5 m 이내"},
        {"key": "zz", "result_code": 0, "result_msg": "ok", "summary": {"distance": 5, "duration": 1}}]}

    def rows(answer, first=None):
        where = {p["key"]: p for p in points}
        return [{**(first or {}), "key": r.get("key"), "result_code": r.get("result_code"),
                 "result_msg": r.get("result_msg"), "result_msg_en": RESULT_CODES_EN.get(r.get("result_code")),
                 "distance": (r.get("summary") or {}).get("distance"),
                 "duration": (r.get("summary") or {}).get("duration"), "x": where.get(r.get("key"), {}).get("x"),
                 "y": where.get(r.get("key"), {}).get("y")} for r in answer.get("routes") or []]

    for answer in (body, {"routes": []}, {}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NoRouteWarning)     # b: code 104
            got = many_frame(answer, points, {"x": 129.0, "y": 35.0}, to_center=True)
        want = frame(rows(answer), columns=MANY_COLUMNS, **MANY_TYPES, flatten=False)
        got.attrs = want.attrs = {}
        pd.testing.assert_frame_equal(got, want)
    columns = {name: [] for name in ("destination", *MANY_COLUMNS)}
    for d, answer in (("d0", body), ("d1", {}), ("d2", body)):
        _many_columns(answer, points, columns, destination=d)
    got = frame(data=columns, columns=["destination", *MANY_COLUMNS], **MANY_TYPES)
    want = frame(rows(body, {"destination": "d0"}) + rows(body, {"destination": "d2"}),
                 columns=["destination", *MANY_COLUMNS], **MANY_TYPES, flatten=False)
    pd.testing.assert_frame_equal(got, want)
    assert got["distance"].dtype == "Int64" and got["distance"].isna().sum() == 2 and len(got) == 6
