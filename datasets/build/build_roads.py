"""Derive the sandbox road graph (``toolkit/data/navi/roads.json.gz``) from the real Busan addresses.

No road network ships in any registry package, so the graph is *derived*; see the "Road graph" section of
``datasets/README.md`` for what is real and what is not. Steps:

1. Read ``toolkit/data/local/addresses.csv.gz`` (real road-name addresses: road name, main building number,
   WGS84 x/y). Korean road-name addresses number buildings by distance along the road (basic interval
   10 m per number, odd left / even right), so ordering one road's addresses by building number traces it.
2. Per road name: average the points of each 40 m band of building numbers (number // 4), which merges the
   odd and even sides onto the centre line, and order the bands by number. Drop outliers: a point whose
   distance to both neighbours is more than 3× the distance between those neighbours (+60 m). Split the
   line where two consecutive points are more than 400 m apart (a gap the numbering does not explain).
3. Nodes are the line vertexes. Edges join consecutive vertexes of one road (both directions).
4. Junctions: each vertex is linked to the nearest vertex of every *other* road within 35 m by a connector
   edge (no name; folded into the next road in route output). Small components are then bridged to the
   largest one by a connector to the nearest node within 150 m (iterated), documented as derived.
5. Classes by name: ``…대로`` arterial, ``…로`` main road, ``…길`` local street. Free-flow speeds follow the
   national "안전속도 5030" policy (Busan, 2019): arterial 50 km/h, main road 40 km/h, local 30 km/h.
6. Flags by documented rules:
   * ``schoolzone``: edges within 300 m (the 도로교통법 어린이보호구역 radius) of one of the real
     elementary schools, kindergartens or day-care centres named in the address data; speed 30 km/h.
   * ``oneway``: local streets (``…길``) whose name hashes (crc32) to 0 mod 6, direction = increasing
     building number; reverted to two-way where that would cut a node off the main strongly connected part.
   * ``roadevent``: synthetic road works on edges whose (road, index) crc32 is 0 mod 97.
   * ``toll``/``motorway``: two SYNTHETIC links named ``(가상)``, modelled on real Busan facilities: a toll
     tunnel "수정산터널(가상)" across 수정산 between 동구 and 부산진구 (toll 1,000 KRW, the real tunnel's
     small-car fare, motorway, 70 km/h) and an elevated car-only road "동서고가로(가상)" (motorway, no toll,
     70 km/h). Their alignment is a straight line between two graph nodes, not the real alignment.
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

import networkx as nx
import numpy as np
import pandas as pd
from shapely import STRtree, points

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "toolkit" / "data" / "local" / "addresses.csv.gz"
OUT = ROOT / "toolkit" / "data" / "navi" / "roads.json.gz"

LAT0 = 35.14
MX = 111_320.0 * math.cos(math.radians(LAT0))   # metres per degree of longitude (local equirectangular)
MY = 110_940.0                                    # metres per degree of latitude
JUNCTION_M = 35.0
BRIDGE_M = 500.0
# any other piece of road (a village, an industrial estate, an island hamlet) is joined up to 5 km away: the
# roads between them carry no building address, so nothing traces them
BRIDGE_FAR_M = 5000.0
BRIDGE_FAR_MIN_NODES = 2
SPLIT_M = 400.0
SPEEDS = {"arterial": 50, "main": 40, "local": 30}
SCHOOL_RADIUS_M = 300.0
SCHOOL_WORDS = ("초등학교", "유치원", "어린이집")
# (name, kind, from (x, y), to (x, y), toll KRW) — endpoints snap to the nearest graph node
SYNTHETIC = [
    ("수정산터널(가상)", "toll", (129.0465, 35.1300), (129.0380, 35.1560), 1000),
    ("동서고가로(가상)", "motorway", (129.0300, 35.1600), (129.0560, 35.1390), 0),
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


def road_lines(df: pd.DataFrame) -> list[tuple[str, list[tuple[float, float]]]]:
    """(road name, [(x, y) ...]) pieces, ordered by building number, outliers dropped, split at gaps."""
    out = []
    df = df.assign(no=pd.to_numeric(df["main_building_no"], errors="coerce")).dropna(subset=["no"])
    df = df[df["underground_yn"] != "Y"]
    for name, g in df.groupby("road_name", sort=True):
        bands = g.assign(band=(g["no"] // 4).astype(int)).groupby("band")[["x", "y"]].mean().sort_index()
        pts = list(zip(bands["x"].round(6), bands["y"].round(6)))
        if len(pts) < 2:
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
        piece = [idx[0]]
        for i in idx[1:]:
            if math.hypot(mx[i] - mx[piece[-1]], my[i] - my[piece[-1]]) > SPLIT_M:
                if len(piece) >= 2:
                    out.append((name, smooth([pts[j] for j in piece])))
                piece = [i]
            else:
                piece.append(i)
        if len(piece) >= 2:
            out.append((name, smooth([pts[j] for j in piece])))
    return out


def crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def build() -> dict:
    df = pd.read_csv(SRC, dtype=str, keep_default_na=False)
    df["x"], df["y"] = df["x"].astype(float), df["y"].astype(float)
    lines = road_lines(df)

    nodes: list[tuple[float, float]] = []
    node_road: list[int] = []
    roads = []       # [name, class]
    edges = []       # dicts
    for r, (name, pts) in enumerate(lines):
        roads.append([name, road_class(name)])
        ids = []
        for p in pts:
            ids.append(len(nodes))
            nodes.append(p)
            node_road.append(r)
        for k, (a, b) in enumerate(zip(ids, ids[1:])):
            edges.append({"u": a, "v": b, "road": r, "k": k})

    nx_, ny_ = xy_m([p[0] for p in nodes], [p[1] for p in nodes])
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

    def graph():
        g = nx.Graph()
        g.add_nodes_from(range(len(nodes)))
        g.add_edges_from((e["u"], e["v"]) for e in edges)
        return g

    # bridges, nearest first: each pass joins the one piece closest to the main component (so a group of
    # far pieces is joined by one long link and short links among themselves, not by one long link each)
    from scipy.spatial import cKDTree

    bridges = 0
    while True:
        comps = sorted(nx.connected_components(graph()), key=len, reverse=True)
        if len(comps) == 1:
            break
        main = np.fromiter(sorted(comps[0]), int)
        tree_main = cKDTree(np.column_stack([nx_[main], ny_[main]]))
        best = None
        for comp in comps[1:]:
            c = np.fromiter(sorted(comp), int)
            d, j = tree_main.query(np.column_stack([nx_[c], ny_[c]]))
            i = int(np.argmin(d))
            reach = BRIDGE_FAR_M if len(c) >= BRIDGE_FAR_MIN_NODES else BRIDGE_M
            if d[i] <= reach and (best is None or d[i] < best[0]):
                best = (float(d[i]), int(c[i]), int(main[j[i]]))
        if best is None:
            break
        edges.append({"u": best[1], "v": best[2], "road": -1, "k": 0})
        bridges += 1

    # synthetic toll / motorway links
    comp_main = max(nx.connected_components(graph()), key=len)
    main_ids = np.fromiter(sorted(comp_main), int)
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

    schools = df[df["building_name"].str.contains("|".join(SCHOOL_WORDS))]
    sx, sy = xy_m(schools["x"].to_numpy(), schools["y"].to_numpy())
    for e in edges:
        a, b = e["u"], e["v"]
        mx_, my_ = (nx_[a] + nx_[b]) / 2, (ny_[a] + ny_[b]) / 2
        e["len"] = round(math.hypot(nx_[a] - nx_[b], ny_[a] - ny_[b]), 1)
        e["school"] = int(e["road"] >= 0 and roads[e["road"]][1] != "motorway" and len(sx) > 0
                          and float(np.min((sx - mx_) ** 2 + (sy - my_) ** 2)) <= SCHOOL_RADIUS_M ** 2)
        name = roads[e["road"]][0] if e["road"] >= 0 else ""
        e["event"] = int(e["road"] >= 0 and crc(f"{name}#{e['k']}") % 97 == 0)
        e["oneway"] = int(e["road"] >= 0 and roads[e["road"]][1] == "local" and crc(name) % 6 == 0)
        e.setdefault("toll", 0)
        e.setdefault("motorway", 0)

    # revert one-way edges that cut nodes off the largest strongly connected component
    for _ in range(50):
        dg = nx.DiGraph()
        dg.add_nodes_from(range(len(nodes)))
        for e in edges:
            dg.add_edge(e["u"], e["v"])
            if not e["oneway"]:
                dg.add_edge(e["v"], e["u"])
        scc = max(nx.strongly_connected_components(dg), key=len)
        changed = 0
        for e in edges:
            if e["oneway"] and (e["u"] not in scc or e["v"] not in scc) and (e["u"] in scc or e["v"] in scc
                                                                            or True):
                e["oneway"] = 0
                changed += 1
        if not changed:
            break

    g = graph()
    comps = sorted(nx.connected_components(g), key=len, reverse=True)
    stats = {
        "roads": sum(1 for r in roads if r[1] != "motorway"), "nodes": len(nodes), "edges": len(edges),
        "connectors": len(connectors), "bridges": bridges, "components": len(comps),
        "largest_component_nodes": len(comps[0]),
        "largest_component_share": round(len(comps[0]) / len(nodes), 4),
        "largest_scc_nodes": len(scc),
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
