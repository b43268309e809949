"""Derive the sandbox road graph (``toolkit/data/navi/roads.json.gz``) from the real Busan addresses.

No road network ships in any registry package, so the graph is *derived*; see the "Road graph" section of
``datasets/README.md`` for what is real and what is not. Steps:

1. Read ``toolkit/data/local/addresses.csv.gz`` (real road-name addresses: road name, main building number,
   WGS84 x/y). Korean road-name addresses number buildings by distance along the road (basic interval
   10 m per number, odd left / even right), so ordering one road's addresses by building number traces it.
2. Per road name and district: average the points of each 40 m band of building numbers (number // 4), which
   merges the odd and even sides onto the centre line, and order the bands by number. Drop outliers: a point
   whose distance to both neighbours is more than 3× the distance between those neighbours (+60 m). Keep a gap
   of more than 400 m between consecutive points as one road where the numbering explains it (straight gap ≤
   1.25 × 10 m × Δ number + 150 m, at most 4 km: a tunnel, a bridge or a stretch without buildings, which the
   numbering counts on), else split the line there. Pieces of one road name (the same road in two districts,
   or split at a gap) are joined at their nearest ends where the numbering explains that gap too. A road of one
   band (a building or two) is a lone node.
3. Nodes are the line vertexes. Edges join consecutive vertexes of one road (both directions).
4. Junctions: each vertex is linked to the nearest vertex of every *other* road within 35 m by a connector
   edge (no name; folded into the next road in route output); where two road lines cross, both are split at a
   shared node; each end of a road line (and each lone node) is joined to the nearest point of another road's
   line within 80 m (a T junction). An end that meets no road at all reaches farther: a road's start (the end
   of its lowest building number ``n``: a building numbered ``n`` stands about 10·n m from where the road
   begins, at another road) is joined to the nearest other road within what the numbering explains (1.25 × 10 m
   × n + 150 m, at most 4 km) by an edge carrying the road's own name (its unaddressed beginning); any other
   end to the nearest road within 500 m (an arterial) or 300 m, by a connector. Small components are then
   bridged to the largest one, nearest first, within ``BRIDGE_FAR_M``.
4b. District links (SYNTHETIC, ``district_links``): where the traced roads leave only a long detour between
   two neighbourhoods (the real city's tunnels, passes and through-roads carry no building address), a straight
   link named ``<동>–<동> 연결로(가상)`` (class arterial) joins hubs of the main roads: a greedy spanner that
   takes hub pairs shortest first and links a pair whose way by road is longer than ``LINK_STRETCH`` × the
   straight line, never across another link, never across the sea (the line must lie in the city's polygon).
   강서구 and 영도구 (``APART``) are joined to the rest only by their real crossings: a link never leaves them,
   and one inside them lies inside their polygon (in 강서구 such links cross the 서낙동강, the 평강천 and the
   맥도강, which real bridges cross in many places that no address places).
5. Classes by name: ``…대로`` arterial, ``…로`` main road, ``…길`` local street. Free-flow speeds follow the
   national "안전속도 5030" policy (Busan, 2019): arterial 50 km/h, main road 40 km/h, local 30 km/h.
6. Flags by documented rules:
   * ``schoolzone``: edges within 300 m (the 도로교통법 어린이보호구역 radius) of one of the real
     elementary schools, kindergartens or day-care centres named in the address data; speed 30 km/h.
   * ``oneway``: local streets (``…길``) whose name hashes (crc32) to 0 mod 6, direction = increasing
     building number; reverted to two-way where that would cut a node off the main strongly connected part.
   * ``roadevent``: synthetic road works on edges whose (road, index) crc32 is 0 mod 97.
   * ``toll``/``motorway``: three SYNTHETIC links named ``(가상)``, modelled on real Busan facilities: a toll
     tunnel "수정산터널(가상)" across 수정산 between 동구 and 부산진구 (toll 1,000 KRW, the real tunnel's
     small-car fare, motorway, 70 km/h), an elevated car-only road "동서고가로(가상)" (motorway, no toll,
     70 km/h) and "남해고속도로제2지선(가상)", the expressway's crossing of the 낙동강 between 대저2동 (where its
     one address lies) and 사상구's 학감대로 (motorway, no toll, 70 km/h). Their alignment is a straight line
     between two graph nodes, not the real alignment.
   * ``ferry``: none (no car ferry is modelled); the flag exists and is always false.
   * crossings: the real bridges of ``CROSSINGS`` (no building address traces them), straight-line alignment.

Run: ``.venv/bin/python datasets/build/build_roads.py`` (deterministic; gzip header without timestamp).
"""
from __future__ import annotations

import gzip
import io
import json
import math
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
from shapely import STRtree, points

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "toolkit" / "data" / "local" / "addresses.csv.gz"
OUT = ROOT / "toolkit" / "data" / "navi" / "roads.json.gz"
REGIONS = ROOT / "toolkit" / "data" / "local" / "regions_b.geojson"

LAT0 = 35.14
MX = 111_320.0 * math.cos(math.radians(LAT0))   # metres per degree of longitude (local equirectangular)
MY = 110_940.0                                    # metres per degree of latitude
JUNCTION_M = 35.0
END_JOIN_M = 80.0      # a road line's end joins the nearest other road within 80 m (a T junction) …
ARTERIAL_END_M = 500.0  # … and an arterial's end that meets no road at all, the nearest one within 500 m …
LONE_END_M = 300.0      # … any other road's, within 300 m
HUB_CELL_M = 400.0      # district links: one hub per 400 m square …
LINK_MIN_M = 1200.0     # … joined to hubs 1.2 to 5 km away …
LINK_MAX_M = 5000.0
LINK_STRETCH = 1.5      # … where the way by road is longer than 1.5 × the straight line, …
LINK_APART_M = 1500.0   # … crossing no other link, and not beside one (both ends within 1.5 km in all)
SNAP_END_M = 8.0       # a junction within 8 m of a segment's end is at that end (no node inserted)
# any other piece of road (a village, an industrial estate, an island hamlet) is joined up to 5 km away: the
# roads between them carry no building address, so nothing traces them
BRIDGE_FAR_M = 5000.0
SPLIT_M = 400.0
GAP_SLACK = 1.25      # a gap of one road is kept when straight ≤ 1.25 × (10 m × Δ building number) + 150 m …
GAP_PLUS_M = 150.0
GAP_MAX_M = 4000.0    # … and at most 4 km
SPEEDS = {"arterial": 50, "main": 40, "local": 30}
SCHOOL_RADIUS_M = 300.0
SCHOOL_WORDS = ("초등학교", "유치원", "어린이집")
# (name, kind, from (x, y), to (x, y), toll KRW) — endpoints snap to the nearest graph node
# districts joined to the rest of the city only by the real crossings below (a link never leaves them, and one
# inside them lies inside them): 강서구 west of the 낙동강, the island 영도구
APART = ("강서구", "영도구")
SYNTHETIC = [
    ("수정산터널(가상)", "toll", (129.0465, 35.1300), (129.0380, 35.1560), 1000),
    ("동서고가로(가상)", "motorway", (129.0300, 35.1600), (129.0560, 35.1390), 0),
    ("남해고속도로제2지선(가상)", "motorway", (128.9488, 35.1573), (128.9907, 35.1556), 0),
]


# Real river and harbour crossings of Busan that carry no building address (so the address points cannot
# trace them). (name, west/north end, east/south end, toll KRW for a small car, car-only road). The crossing
# is real; its alignment here is a straight line between the graph nodes nearest the two ends given.
CROSSINGS = [
    ("영도대교", (129.0352, 35.0968), (129.0369, 35.0917), 0, 0),
    ("부산대교", (129.0394, 35.0985), (129.0436, 35.0930), 0, 0),
    ("남항대교", (129.0225, 35.0790), (129.0410, 35.0770), 0, 1),
    ("부산항대교", (129.0860, 35.1120), (129.0660, 35.0930), 0, 1),
    ("광안대교", (129.1150, 35.1410), (129.1330, 35.1575), 1000, 1),
    ("낙동대교", (128.9640, 35.1060), (128.9350, 35.1100), 0, 0),
    ("을숙도대교", (128.9630, 35.0810), (128.9170, 35.0850), 0, 1),
    ("구포대교", (129.0030, 35.2050), (128.9830, 35.2100), 0, 0),
    ("화명대교", (129.0090, 35.2290), (128.9870, 35.2330), 0, 0),
]
SMOOTH_PASSES = 2   # (1/4, 1/2, 1/4) moving average of interior vertexes: irons out the odd/even-side zig-zag


def smooth(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Interior vertexes averaged with their neighbours (ends kept), ``SMOOTH_PASSES`` times."""
    for _ in range(SMOOTH_PASSES):
        if len(pts) < 3:
            return pts
        pts = [pts[0]] + [((a[0] + 2 * b[0] + c[0]) / 4, (a[1] + 2 * b[1] + c[1]) / 4)
                          for a, b, c in zip(pts, pts[1:], pts[2:])] + [pts[-1]]
    return [(round(x, 6), round(y, 6)) for x, y in pts]


def road_class(name: str) -> str:
    if name.endswith("대로"):
        return "arterial"
    if name.endswith("길"):
        return "local"
    return "main"


def xy_m(x, y):
    return (np.asarray(x) - 129.0) * MX, (np.asarray(y) - LAT0) * MY


def road_lines(df: pd.DataFrame) -> list[tuple[str, list[tuple[float, float]], list[float]]]:
    """(road name, [(x, y) ...], [building number ...]) pieces per road name and district, ordered by building
    number, outliers dropped, split only at gaps the numbering does not explain.

    A road-name address numbers a building by its distance from the road's start (10 m per number), so two
    consecutive points whose numbers differ by ``n`` lie about ``10·n`` metres apart *along the road*, whatever
    lies between them (a tunnel, a bridge, a stretch with no building). A gap is kept as one road when the
    straight distance is at most ``GAP_SLACK`` × that plus ``GAP_PLUS_M`` (a road is never shorter than the straight
    line, so a longer gap is not this road) and at most ``GAP_MAX_M``; otherwise (> ``SPLIT_M``) the road is split.
    """
    out = []
    df = df.assign(no=pd.to_numeric(df["main_building_no"], errors="coerce")).dropna(subset=["no"])
    df = df[df["underground_yn"] != "Y"]
    for (name, _district), g in df.groupby(["road_name", "region_2depth_name"], sort=True):
        bands = g.assign(band=(g["no"] // 4).astype(int)).groupby("band")[["x", "y", "no"]].mean().sort_index()
        pts = list(zip(bands["x"].round(6), bands["y"].round(6)))
        nos = bands["no"].tolist()
        if len(pts) < 2:                 # one band: a building or two on a road nothing else traces (a lone node)
            out.append((name, pts, nos, True))
            continue
        mx, my = xy_m([p[0] for p in pts], [p[1] for p in pts])
        keep = [True] * len(pts)
        for i in range(1, len(pts) - 1):
            a = math.hypot(mx[i] - mx[i - 1], my[i] - my[i - 1])
            b = math.hypot(mx[i] - mx[i + 1], my[i] - my[i + 1])
            c = math.hypot(mx[i + 1] - mx[i - 1], my[i + 1] - my[i - 1])
            if min(a, b) > 3 * c + 60:
                keep[i] = False
        idx = [i for i in range(len(pts)) if keep[i]]
        piece, first = [idx[0]], True
        for i in idx[1:]:
            j = piece[-1]
            d = math.hypot(mx[i] - mx[j], my[i] - my[j])
            if d > SPLIT_M and not gap_explained(d, nos[i] - nos[j]):
                out.append((name, smooth([pts[k] for k in piece]), [nos[k] for k in piece], first))
                piece, first = [i], False
            else:
                piece.append(i)
        out.append((name, smooth([pts[k] for k in piece]), [nos[k] for k in piece], first))
    return out


def gap_explained(straight_m: float, numbers: float) -> bool:
    """Whether a straight gap of ``straight_m`` between two points of one road is explained by the difference of
    their building numbers (10 m of road per number)."""
    return straight_m <= min(GAP_MAX_M, GAP_SLACK * abs(numbers) * 10 + GAP_PLUS_M)


def crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def components(n: int, edges: list[dict], directed: bool = False):
    """(count, label per node) of the graph of ``edges`` (weakly connected, or strongly with ``directed``:
    a one-way edge then runs only from u to v)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    u = np.fromiter((e["u"] for e in edges), int, len(edges))
    v = np.fromiter((e["v"] for e in edges), int, len(edges))
    if directed:
        two = np.fromiter((not e.get("oneway") for e in edges), bool, len(edges))
        u, v = np.concatenate([u, v[two]]), np.concatenate([v, u[two]])
    m = coo_matrix((np.ones(len(u)), (u, v)), shape=(n, n)).tocsr()
    return connected_components(m, directed=directed, connection="strong" if directed else "weak")


def junctions(nodes: list, node_road: list, edges: list[dict], arterial: set[int] = frozenset(),
              starts: dict[int, float] | None = None) -> dict:
    """Where roads meet, beyond the nearest vertexes: a node where two road lines cross (both lines split there),
    and a connector from each line's end to the nearest point of another road within ``END_JOIN_M`` (that line
    split there); the end of an ``arterial`` road's line that meets no other road at all joins the nearest one
    within ``ARTERIAL_END_M`` (an arterial does not end in nothing: the address points lost its continuation).
    Adds nodes and edges in place; returns counts."""
    import shapely

    starts = starts or {}
    nx_, ny_ = xy_m([p[0] for p in nodes], [p[1] for p in nodes])
    nx_, ny_ = list(nx_), list(ny_)
    named = [i for i, e in enumerate(edges) if e["road"] >= 0]
    on_edge = {n for i in named for n in (edges[i]["u"], edges[i]["v"])}
    lone = [n for n in range(len(nodes)) if n not in on_edge]
    coords = np.array([[[nx_[edges[i]["u"]], ny_[edges[i]["u"]]], [nx_[edges[i]["v"]], ny_[edges[i]["v"]]]]
                       for i in named])
    geoms = shapely.linestrings(coords)
    tree = STRtree(geoms)
    inserts: dict[int, list[tuple[float, int]]] = {}

    def add_node(x: float, y: float, road: int) -> int:
        nodes.append((round(x / MX + 129.0, 6), round(y / MY + LAT0, 6)))
        nx_.append(x)
        ny_.append(y)
        node_road.append(road)
        return len(nodes) - 1

    def at(k: int, t: float, x: float, y: float, node: int | None = None) -> int:
        """The node at parameter ``t`` of named segment ``k``: an end within ``SNAP_END_M``, else a node inserted
        there (``node`` if given)."""
        e = edges[named[k]]
        seg = math.hypot(coords[k][1][0] - coords[k][0][0], coords[k][1][1] - coords[k][0][1])
        if t * seg <= SNAP_END_M:
            return e["u"]
        if (1 - t) * seg <= SNAP_END_M:
            return e["v"]
        if node is None:
            node = add_node(x, y, e["road"])
        inserts.setdefault(named[k], []).append((t, node))
        return node

    def param(k: int, x: float, y: float) -> float:
        (ax, ay), (bx, by) = coords[k]
        dx, dy = bx - ax, by - ay
        q = dx * dx + dy * dy
        return 0.0 if q == 0 else min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / q))

    crossings = 0
    a, b = tree.query(geoms, predicate="intersects")
    for i, j in zip(a.tolist(), b.tolist()):
        if i >= j:
            continue
        ei, ej = edges[named[i]], edges[named[j]]
        if ei["road"] == ej["road"] or {ei["u"], ei["v"]} & {ej["u"], ej["v"]}:
            continue
        p = shapely.intersection(geoms[i], geoms[j])
        if p.geom_type != "Point":
            continue
        x, y = p.x, p.y
        ni = at(i, param(i, x, y), x, y)
        nj = at(j, param(j, x, y), x, y, None)
        if ni != nj:
            edges.append({"u": ni, "v": nj, "road": -1, "k": 0})
        crossings += 1

    # the two ends of every road line: to the nearest other road's line within END_JOIN_M
    ends = {}
    for e in edges:
        if e["road"] >= 0:
            ends.setdefault(e["road"], []).extend([e["u"], e["v"]])
    degree: dict[int, int] = {}
    for e in edges:
        if e["road"] >= 0:
            degree[e["u"]] = degree.get(e["u"], 0) + 1
            degree[e["v"]] = degree.get(e["v"], 0) + 1
    for node in lone:                           # a lone node (a road of one point) is an end too
        ends.setdefault(node_road[node], []).append(node)
    met = {n for e in edges if e["road"] < 0 for n in (e["u"], e["v"])}    # at a connector or a crossing already
    tee = far_ends = road_starts = 0
    for road, ids in ends.items():
        for node in sorted(n for n in ids if degree.get(n, 0) <= 1):
            pt = shapely.points(nx_[node], ny_[node])
            reaches = [(END_JOIN_M, False)]
            if node not in met:                 # an end that meets no road at all
                if node in starts:              # a road's start: as far back as its first number says
                    reaches.append((min(GAP_MAX_M, GAP_SLACK * 10 * starts[node] + GAP_PLUS_M), True))
                else:
                    reaches.append((ARTERIAL_END_M if road in arterial else LONE_END_M, False))
            best = None
            for reach, own in reaches:
                for k in tree.query(pt, predicate="dwithin", distance=reach).tolist():
                    if edges[named[k]]["road"] == road:
                        continue
                    d = shapely.distance(geoms[k], pt)
                    if best is None or d < best[0]:
                        best = (d, k, own, reach > END_JOIN_M)
                if best is not None:
                    break
            if best is None:
                continue
            _, k, own, far = best
            t = param(k, nx_[node], ny_[node])
            (ax, ay), (bx, by) = coords[k]
            other = at(k, t, ax + t * (bx - ax), ay + t * (by - ay))
            if other != node:
                # a road's unaddressed beginning carries its name; any other join is an unnamed connector
                edges.append({"u": node, "v": other, "road": road if own else -1, "k": 20_000 + tee if own else 0})
                tee += 1
                far_ends += far and not own
                road_starts += own

    # split the segments at the nodes inserted on them
    for idx, ins in inserts.items():
        e = edges[idx]
        chain = [e["u"]] + [n for _, n in sorted(ins)] + [e["v"]]
        chain = [n for k, n in enumerate(chain) if k == 0 or n != chain[k - 1]]
        e["v"] = chain[1]
        for p, q in zip(chain[1:], chain[2:]):
            edges.append(dict(e, u=p, v=q))
    return {"crossing_nodes": crossings, "end_joins": tee, "far_end_joins": far_ends, "road_start_joins": road_starts,
            "split_segments": len(inserts)}


def land_shape():
    """The city's land (the sido polygon of ``regions_b.geojson``) in the build's metres, and each district's
    polygon (to keep links out of the river and harbour crossings, which are real bridges here)."""
    import shapely
    from shapely.geometry import shape

    data = json.loads(REGIONS.read_text(encoding="utf-8"))

    def to_m(geometry):
        return shapely.transform(shape(geometry), lambda c: np.column_stack(xy_m(c[:, 0], c[:, 1])))

    land, districts = None, {}
    for f in data["features"]:
        level = f["properties"]["level"]
        if level == "sido":
            land = to_m(f["geometry"])
        elif level == "sigungu":
            districts[f["properties"]["name"]] = to_m(f["geometry"])
    return shapely.make_valid(land), districts


def crosses(ax, ay, bx, by, cx, cy, dx, dy) -> np.ndarray:
    """Whether segment a–b properly crosses each segment c–d (arrays; touching at an end does not count)."""
    def side(px, py, qx, qy, rx, ry):
        return np.sign((qx - px) * (ry - py) - (qy - py) * (rx - px))
    return ((side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0)
            & (side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0))


def district_links(nodes, roads, edges, df) -> list[dict]:
    """SYNTHETIC links between districts' main roads where the traced roads leave no way that is not a long
    detour (what the real city's tunnels, passes and unaddressed through-roads do): a greedy spanner over hubs.

    Hubs are nodes of arterial and main roads, one per ``HUB_CELL_M`` square (the node nearest the cell's centre).
    Hub pairs ``LINK_MIN_M`` … ``LINK_MAX_M`` apart are taken shortest first; a pair whose way by road is longer
    than ``LINK_STRETCH`` × the straight line (after the links added before it) gets a straight link, provided
    the line lies on land (the city's polygon, so never across the sea) and neither end is in 강서구 or 영도구,
    which the real bridges of ``CROSSINGS`` join to the rest. Each link is named after the legal dongs of its ends
    with ``(가상)``, class arterial."""
    import shapely
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra
    from scipy.spatial import cKDTree
    from shapely.prepared import prep

    n = len(nodes)
    nx_, ny_ = xy_m([p[0] for p in nodes], [p[1] for p in nodes])
    cls = np.array([roads[e["road"]][1] if e["road"] >= 0 else "local" for e in edges])
    eu = np.array([e["u"] for e in edges])
    ev = np.array([e["v"] for e in edges])
    elen = np.hypot(nx_[eu] - nx_[ev], ny_[eu] - ny_[ev])
    big = np.isin(cls, ["arterial", "main", "motorway"])
    cand = np.unique(np.concatenate([eu[big], ev[big]]))
    cell = np.floor(nx_[cand] / HUB_CELL_M).astype(int) * 100_000 + np.floor(ny_[cand] / HUB_CELL_M).astype(int)
    cx = (np.floor(nx_[cand] / HUB_CELL_M) + 0.5) * HUB_CELL_M
    cy = (np.floor(ny_[cand] / HUB_CELL_M) + 0.5) * HUB_CELL_M
    off = np.hypot(nx_[cand] - cx, ny_[cand] - cy)
    order = np.lexsort((cand, off, cell))
    first = np.ones(len(order), bool)
    first[1:] = cell[order][1:] != cell[order][:-1]
    hubs = cand[order[first]]

    land, districts = land_shape()
    land_p = prep(land)
    apart = [prep(districts[d]) for d in APART if d in districts]
    hub_pts = shapely.points(np.column_stack([nx_[hubs], ny_[hubs]]))
    # which district set apart each hub lies in (-1: none): a link joins two hubs of the same one, inside it
    side = np.array([next((k for k, p in enumerate(apart) if p.intersects(h)), -1) for h in hub_pts])
    ax, ay = xy_m(df["x"].to_numpy(), df["y"].to_numpy())
    dong = df["region_3depth_name"].to_numpy()
    near = cKDTree(np.column_stack([ax, ay])).query(np.column_stack([nx_[hubs], ny_[hubs]]))[1]
    hub_dong = dong[near]

    graph = coo_matrix((np.concatenate([elen, elen]), (np.concatenate([eu, ev]), np.concatenate([ev, eu]))),
                       shape=(n, n)).tocsr()
    dist = np.empty((len(hubs), len(hubs)))
    for k in range(0, len(hubs), 200):
        d = dijkstra(graph, indices=hubs[k:k + 200], limit=LINK_STRETCH * LINK_MAX_M)
        dist[k:k + 200] = d[:, hubs]
    hx, hy = nx_[hubs], ny_[hubs]
    tree = cKDTree(np.column_stack([hx, hy]))
    pairs = sorted((float(np.hypot(hx[i] - hx[j], hy[i] - hy[j])), i, j)
                   for i, j in tree.query_pairs(LINK_MAX_M))
    links: list[tuple[int, int, float]] = []
    la, lb, ll = np.zeros(0, int), np.zeros(0, int), np.zeros(0)
    for d, i, j in pairs:
        if d < LINK_MIN_M or side[i] != side[j] or dist[i, j] <= LINK_STRETCH * d:
            continue
        if len(ll) and min((dist[i, la] + ll + dist[lb, j]).min(),          # by a link added before
                           (dist[i, lb] + ll + dist[la, j]).min()) <= LINK_STRETCH * d:
            continue
        if len(ll) and (crosses(hx[i], hy[i], hx[j], hy[j], hx[la], hy[la], hx[lb], hy[lb]).any()
                        or (np.minimum(np.hypot(hx[la] - hx[i], hy[la] - hy[i]) + np.hypot(hx[lb] - hx[j], hy[lb] - hy[j]),
                                       np.hypot(hx[lb] - hx[i], hy[lb] - hy[i]) + np.hypot(hx[la] - hx[j], hy[la] - hy[j]))
                            < LINK_APART_M).any()):
            continue                    # no link across another, nor one beside another
        line = shapely.linestrings([[hx[i], hy[i]], [hx[j], hy[j]]])
        if not land_p.contains(line) or (side[i] >= 0 and not apart[side[i]].contains(line)):
            continue
        links.append((i, j, d))
        la, lb, ll = np.append(la, i), np.append(lb, j), np.append(ll, d)
    out = []
    for i, j, _ in links:
        a, b = sorted((str(hub_dong[i]), str(hub_dong[j])))
        name = f"{a}–{b} 연결로(가상)" if a != b else f"{a} 연결로(가상)"
        out.append({"u": int(hubs[i]), "v": int(hubs[j]), "name": name})
    return out


def build() -> dict:
    df = pd.read_csv(SRC, dtype=str, keep_default_na=False)
    df["x"], df["y"] = df["x"].astype(float), df["y"].astype(float)
    lines = road_lines(df)

    nodes: list[tuple[float, float]] = []
    node_road: list[int] = []
    roads = []       # [name, class]
    edges = []       # dicts
    piece_ends = []  # (road index, first node, last node, first number, last number)
    starts = {}      # the first node of each road (its lowest piece) -> its first building number
    for r, (name, pts, nos, first) in enumerate(lines):
        roads.append([name, road_class(name)])
        ids = []
        for p in pts:
            ids.append(len(nodes))
            nodes.append(p)
            node_road.append(r)
        for k, (a, b) in enumerate(zip(ids, ids[1:])):
            edges.append({"u": a, "v": b, "road": r, "k": k})
        piece_ends.append((r, ids[0], ids[-1], nos[0], nos[-1]))
        if first:
            starts[ids[0]] = nos[0]

    nx_, ny_ = xy_m([p[0] for p in nodes], [p[1] for p in nodes])

    # one road's pieces (in two districts, or split at a gap): their nearest ends joined where the numbering
    # explains the gap (a road that runs on across a district border numbers on)
    by_name: dict[str, list] = {}
    for piece in piece_ends:
        by_name.setdefault(roads[piece[0]][0], []).append(piece)
    same_road = 0
    for name, pieces in sorted(by_name.items()):
        for i, pa in enumerate(pieces):
            for pb in pieces[i + 1:]:
                best = None
                for na, noa in ((pa[1], pa[3]), (pa[2], pa[4])):
                    for nb, nob in ((pb[1], pb[3]), (pb[2], pb[4])):
                        d = math.hypot(nx_[na] - nx_[nb], ny_[na] - ny_[nb])
                        if gap_explained(d, noa - nob) and (best is None or d < best[0]):
                            best = (d, na, nb)
                if best is not None:
                    edges.append({"u": best[1], "v": best[2], "road": pa[0], "k": 10_000 + same_road})
                    same_road += 1

    geoms = points(np.column_stack([nx_, ny_]))
    tree = STRtree(geoms)
    src, dst = tree.query(geoms, predicate="dwithin", distance=JUNCTION_M)
    best: dict[tuple[int, int], tuple[float, int]] = {}
    for a, b in zip(src.tolist(), dst.tolist()):
        if a >= b or node_road[a] == node_road[b]:
            continue
        d = math.hypot(nx_[a] - nx_[b], ny_[a] - ny_[b])
        key = (a, node_road[b])          # nearest vertex of each other road
        if key not in best or d < best[key][0]:
            best[key] = (d, b)
    connectors = sorted({(a, b) for (a, _), (_, b) in best.items()})
    for a, b in connectors:
        edges.append({"u": a, "v": b, "road": -1, "k": 0})
    joined = junctions(nodes, node_road, edges, {r for r, (_, cls) in enumerate(roads) if cls == "arterial"}, starts)
    nx_, ny_ = xy_m([p[0] for p in nodes], [p[1] for p in nodes])

    # real crossings (bridges): each end joins the nearest node of any piece
    crossings = []
    for name, p, q, toll, car_only in CROSSINGS:
        ends = []
        for (x, y) in (p, q):
            mxp, myp = xy_m(x, y)
            ends.append(int(np.argmin((nx_ - mxp) ** 2 + (ny_ - myp) ** 2)))
        roads.append([name, "arterial"])
        edges.append({"u": ends[0], "v": ends[1], "road": len(roads) - 1, "k": 0, "toll": toll,
                      "motorway": car_only})
        crossings.append({"name": name, "kind": "crossing", "nodes": ends, "toll": toll})

    # bridges, nearest first: each pass joins the one piece closest to the main component (so a group of
    # far pieces is joined by one long link and short links among themselves, not by one long link each)
    from scipy.spatial import cKDTree

    bridges = 0
    while True:
        count, labels = components(len(nodes), edges)
        if count == 1:
            break
        sizes = np.bincount(labels)
        biggest = int(sizes.argmax())
        main = np.flatnonzero(labels == biggest)
        tree_main = cKDTree(np.column_stack([nx_[main], ny_[main]]))
        rest = np.flatnonzero(labels != biggest)
        d, j = tree_main.query(np.column_stack([nx_[rest], ny_[rest]]))
        ok = d <= BRIDGE_FAR_M
        if not ok.any():
            break
        i = int(np.flatnonzero(ok)[np.argmin(d[ok])])
        edges.append({"u": int(rest[i]), "v": int(main[j[i]]), "road": -1, "k": 0})
        bridges += 1

    # synthetic toll / motorway links
    count, labels = components(len(nodes), edges)
    main_ids = np.flatnonzero(labels == np.bincount(labels).argmax())
    synthetic = []
    for name, kind, p, q, toll in SYNTHETIC:
        ends = []
        for (x, y) in (p, q):
            mxp, myp = xy_m(x, y)
            ends.append(int(main_ids[np.argmin((nx_[main_ids] - mxp) ** 2 + (ny_[main_ids] - myp) ** 2)]))
        roads.append([name, "motorway"])
        r = len(roads) - 1
        edges.append({"u": ends[0], "v": ends[1], "road": r, "k": 0, "toll": toll, "motorway": 1})
        synthetic.append({"name": name, "kind": kind, "nodes": ends, "toll": toll})

    links = district_links(nodes, roads, edges, df)
    for link in links:
        roads.append([link["name"], "arterial"])
        edges.append({"u": link["u"], "v": link["v"], "road": len(roads) - 1, "k": 0})
        synthetic.append({"name": link["name"], "kind": "link", "nodes": [link["u"], link["v"]], "toll": 0})

    schools = df[df["building_name"].str.contains("|".join(SCHOOL_WORDS))]
    sx, sy = xy_m(schools["x"].to_numpy(), schools["y"].to_numpy())
    school_tree = cKDTree(np.column_stack([sx, sy]))
    mids = np.array([((nx_[e["u"]] + nx_[e["v"]]) / 2, (ny_[e["u"]] + ny_[e["v"]]) / 2) for e in edges])
    near_school = school_tree.query(mids, distance_upper_bound=SCHOOL_RADIUS_M)[0] <= SCHOOL_RADIUS_M
    for e, ns in zip(edges, near_school.tolist()):
        a, b = e["u"], e["v"]
        e["len"] = round(math.hypot(nx_[a] - nx_[b], ny_[a] - ny_[b]), 1)
        e["school"] = int(e["road"] >= 0 and roads[e["road"]][1] != "motorway" and ns)
        name = roads[e["road"]][0] if e["road"] >= 0 else ""
        e["event"] = int(e["road"] >= 0 and crc(f"{name}#{e['k']}") % 97 == 0)
        e["oneway"] = int(e["road"] >= 0 and roads[e["road"]][1] == "local" and crc(name) % 6 == 0)
        e.setdefault("toll", 0)
        e.setdefault("motorway", 0)

    # revert one-way edges that cut nodes off the largest strongly connected component
    for _ in range(50):
        _, labels = components(len(nodes), edges, directed=True)
        big = np.bincount(labels).argmax()
        changed = 0
        for e in edges:
            if e["oneway"] and (labels[e["u"]] != big or labels[e["v"]] != big):
                e["oneway"] = 0
                changed += 1
        if not changed:
            break
    _, labels = components(len(nodes), edges, directed=True)
    scc = int(np.bincount(labels).max())

    count, labels = components(len(nodes), edges)
    largest = int(np.bincount(labels).max())
    stats = {
        "roads": sum(1 for r in roads if r[1] != "motorway"), "nodes": len(nodes), "edges": len(edges),
        "connectors": len(connectors), **joined, "district_links": len(links), "same_road_joins": same_road, "bridges": bridges,
        "components": int(count), "largest_component_nodes": largest,
        "largest_component_share": round(largest / len(nodes), 4),
        "largest_scc_nodes": scc,
        "km": round(sum(e["len"] for e in edges) / 1000, 1),
        "schoolzone_edges": sum(e["school"] for e in edges), "oneway_edges": sum(e["oneway"] for e in edges),
        "roadevent_edges": sum(e["event"] for e in edges), "schools": len(schools),
        "classes": {c: sum(1 for r in roads if r[1] == c) for c in ("arterial", "main", "local", "motorway")},
    }
    cols = ["u", "v", "road", "len", "oneway", "toll", "motorway", "school", "event"]
    return {
        "format": "toolkit-navi-roads/1",
        "source": "derived from toolkit/data/local/addresses.csv.gz by datasets/build/build_roads.py",
        "speeds_kmh": dict(SPEEDS, motorway=70, schoolzone=30),
        "roads": roads,
        "nodes": [[round(x, 6), round(y, 6)] for x, y in nodes],
        "edge_columns": cols,
        "edges": [[e[c] for c in cols] for e in edges],
        "synthetic": synthetic,
        "crossings": crossings,
        "schools": [[n, x, y] for n, x, y in zip(schools["building_name"], schools["x"], schools["y"])],
        "stats": stats,
    }


def write_index(data: dict) -> None:
    """``roads_index.npz``: the nodes and edges of ``roads.json.gz`` as float arrays and the rest of the JSON as
    a string, so the sandbox loads the graph without parsing 70,000 JSON rows (deterministic: fixed zip times)."""
    import zipfile

    header = {k: v for k, v in data.items() if k not in ("nodes", "edges")}
    arrays = {"header": np.array(json.dumps(header, ensure_ascii=False, separators=(",", ":"))),
              "nodes": np.asarray(data["nodes"], dtype=float), "edges": np.asarray(data["edges"], dtype=float)}
    path = OUT.with_name("roads_index.npz")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, arr, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue())
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")


def main():
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as f:
        f.write(raw)
    OUT.write_bytes(buf.getvalue())
    write_index(data)
    print(json.dumps(data["stats"], ensure_ascii=False, indent=1))
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
