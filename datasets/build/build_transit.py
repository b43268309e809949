#!/usr/bin/env python3
"""Build the station table of the lines serving Busan (toolkit/data/local/transit_stations.csv): the sandbox's
public-transit router and its subway-station places.

Stations: every station of the six lines that serve Busan, whole and in order, from ``datasets/local/station_lines.csv``
(``build_station_lines.py``: the KRIC station code table, so each line has the operator's count of stations):
Busan Metro lines 1–4, the 부산김해경전철 light rail and the 동해선 urban line (national rail, its own fares).
``routed`` is 1 for the lines the router rides (lines 1–4 and the light rail), 0 for the 동해선: its stations are
places, but the router does not ride it. ``in_busan`` says which stations are inside the city.

    python datasets/build/build_transit.py [--landmarks toolkit/data/local/landmarks.csv] [--out ...]

A station's point comes from the first of these that has one (``point_source``):

1. ``building``: the station's subway-station landmark on that line (``landmarks.csv``, ``서면역 1호선``: the
   real address point of the station building; the first by id when a building has several addresses).
2. ``transfer``: the station's building point on another routed line (a transfer station of the metro, such as
   덕천 on lines 2 and 3, is one station complex). Not between the 동해선 and the metro: their stations of one name
   are separate buildings (좌천 is even 20 km apart).
3. ``businesses``: an **estimate**: the median point of the businesses of the store registry
   (``places_index.json.gz``) whose name holds ``<station>역`` (``맘스터치가야역점``, ``미남역1번출구``; spaces
   ignored; not when the name is part of a longer station name: ``신장림역`` is no ``장림역``, nor in ``역사관``), after dropping
   those more than ``NEAR_M`` from the first median, when at least half of them are kept (``businesses``: how
   many; one is enough, then ``spread_m`` is empty: nothing says how good it is), and only when the point is within
   ``HOP_MAX_M`` of its line per hop (``HOP_MAX_M_DONGHAE`` on the 동해선, whose stations lie farther apart) from the
   nearest station of the same line with a point of kind 1 or 2 (a business named after the 동해선's 좌천역 in
   기장군 does not place line 1's 좌천 in 동구). A 동해선 station named like a metro station (부전, 거제, 교대,
   동래, 벡스코: ``shared_name`` 1) takes the estimate of that name, which businesses near either station share:
   it is within a few hundred metres of the 동해선 station, not better. ``spread_m`` is the farthest kept
   business from the point: the estimate is that good, not better (a business named after a station stands near
   it, not in it). ``build_station_places.py`` makes these points places of the keyword and category search
   (``station_places.csv``). Only stations inside the city are estimated (the registry is Busan's).
4. none: empty ``x``/``y`` (``in_data`` 0). The router rides through the station (it counts as a stop) but
   nobody boards, alights or transfers there. No coordinate is invented.

``station_id`` groups the rows of one station on several lines, so that a ranking counts a transfer station once:
rows of the same ``station`` name whose points are within ``SAME_STATION_M`` of each other share the code of the
first of them (in line order: 서면 on lines 1 and 2 is ``119``); a row without a point is its own station.

Deterministic; no network.
"""
from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "toolkit" / "data"   # the package data the sandbox reads
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_landmarks import write_csv  # noqa: E402
from build_places_index import LANDMARK_ID, read_index  # noqa: E402

LINES_CSV = Path(__file__).resolve().parents[1] / "local" / "station_lines.csv"   # build_station_lines.py
ROUTED = ("1호선", "2호선", "3호선", "4호선", "부산김해경전철")
COLUMNS = ["line", "seq", "code", "station", "official_name", "in_busan", "routed", "station_id", "in_data", "x",
           "y", "point_source", "businesses", "spread_m", "shared_name", "building_name", "road_address_name"]
NEAR_M = 400          # businesses farther than this from the first median are dropped
MIN_BUSINESSES = 1    # at least this many businesses (and at least half of those found) must agree
HOP_MAX_M = 2500      # an estimate farther than this per hop from a line neighbour with a real point is refused
HOP_MAX_M_DONGHAE = 6000   # the 동해선's stations lie up to about 5 km apart (일광–좌천)
SAME_STATION_M = 1000      # rows of one station name this close are one station (station_id)


def read_lines(path: Path = LINES_CSV) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def metres(x1: float, y1: float, x2: float, y2: float) -> float:
    kx = 111_320 * math.cos(math.radians((y1 + y2) / 2))
    return math.hypot((x1 - x2) * kx, (y1 - y2) * 110_950)


def business_points(names: list[str], xs: list[float], ys: list[float],
                    stations: list[dict] | None = None) -> dict[str, tuple[float, float, int, int]]:
    """station name -> (x, y, businesses kept, spread m) for the estimates that pass the agreement rule."""
    stations = read_lines() if stations is None else stations
    every = {r["station"] for r in stations}
    out = {}
    for station in sorted({r["station"] for r in stations if r["in_busan"] == "1"}):
        key = station + "역"
        longer = [o[: -len(station)] for o in every if o != station and o.endswith(station)]
        pts = []
        for name, x, y in zip(names, xs, ys):
            at = name.find(key)
            while at >= 0:
                if not any(name[max(0, at - len(p)):at] == p for p in longer) \
                        and not name.startswith("사관", at + len(key)):      # 강제동원역사관: a museum
                    pts.append((x, y))
                    break
                at = name.find(key, at + 1)
        if not pts:
            continue
        mx, my = statistics.median(p[0] for p in pts), statistics.median(p[1] for p in pts)
        kept = [p for p in pts if metres(p[0], p[1], mx, my) <= NEAR_M]
        if len(kept) < MIN_BUSINESSES or 2 * len(kept) < len(pts):
            continue
        mx, my = statistics.median(p[0] for p in kept), statistics.median(p[1] for p in kept)
        spread = round(max(metres(p[0], p[1], mx, my) for p in kept)) if len(kept) > 1 else ""
        out[station] = (mx, my, len(kept), spread)
    return out


def build(landmarks: Path, out: Path, index: Path | None = None, lines: Path = LINES_CSV) -> list[dict]:
    with open(landmarks, encoding="utf-8", newline="") as fh:
        places = sorted((r for r in csv.DictReader(fh) if r["category_group_code"] == "SW8"), key=lambda r: r["id"])
    points: dict[str, dict] = {}
    for r in places:
        points.setdefault(r["place_name"], r)
    stations = read_lines(lines)
    metro_names = {r["station"] for r in stations if r["line"] in ROUTED}
    rows = []
    for st in stations:                                           # 1. the building of the station on the line
        line, station = st["line"], st["station"]
        hit = points.get(f"{station}역 {line}") if st["in_busan"] == "1" else None
        rows.append({"line": line, "seq": int(st["seq"]), "code": st["code"], "station": station,
                     "official_name": st["official_name"], "in_busan": int(st["in_busan"]),
                     "routed": int(line in ROUTED), "station_id": "", "in_data": int(hit is not None),
                     "x": hit["x"] if hit else "", "y": hit["y"] if hit else "",
                     "point_source": "building" if hit else "", "businesses": "", "spread_m": "",
                     "shared_name": int(line not in ROUTED and station in metro_names),
                     "building_name": hit["place_name"] if hit else "",
                     "road_address_name": hit["road_address_name"] if hit else ""})
    for r in rows:                                  # 2. the same station's building on another routed line
        if r["in_data"] or not r["routed"]:
            continue
        other = next((o for o in rows if o["station"] == r["station"] and o["routed"]
                      and o["point_source"] == "building"), None)
        if other:
            r.update(in_data=1, x=other["x"], y=other["y"], point_source="transfer",
                     building_name=other["building_name"], road_address_name=other["road_address_name"])
    header, table = read_index(index) if index else read_index()  # 3. estimates from businesses named after it
    col = {c: i for i, c in enumerate(header)}
    stores = [r for r in table if not LANDMARK_ID.match(r[0])]
    estimates = business_points([r[col["place_name"]].replace(" ", "") for r in stores],
                                [float(r[col["x"]]) for r in stores], [float(r[col["y"]]) for r in stores], stations)
    real = {(r["line"], r["seq"]): r for r in rows if r["point_source"] in ("building", "transfer")}
    for r in rows:
        if r["in_data"] or not r["in_busan"] or r["station"] not in estimates:
            continue
        x, y, n, spread = estimates[r["station"]]
        near = [(abs(k[1] - r["seq"]), o) for k, o in real.items() if k[0] == r["line"]]
        if not near:
            continue
        hops, o = min(near, key=lambda t: t[0])
        per_hop = HOP_MAX_M if r["routed"] else HOP_MAX_M_DONGHAE
        if metres(x, y, float(o["x"]), float(o["y"])) > per_hop * hops:
            continue
        r.update(in_data=1, x=f"{x:.6f}", y=f"{y:.6f}", point_source="businesses", businesses=n, spread_m=spread)
    groups: list[list[dict]] = []                                  # station_id: one station on several lines
    for r in rows:
        group = next((g for g in groups if r["in_data"] and g[0]["in_data"] and g[0]["station"] == r["station"]
                      and metres(float(r["x"]), float(r["y"]), float(g[0]["x"]), float(g[0]["y"])) <= SAME_STATION_M),
                     None)
        if group is None:
            groups.append([r])
        else:
            group.append(r)
    for g in groups:
        for r in g:
            r["station_id"] = g[0]["code"]
    write_csv(out, COLUMNS, rows)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--landmarks", type=Path, default=ROOT / "local" / "landmarks.csv")
    ap.add_argument("--out", type=Path, default=ROOT / "local" / "transit_stations.csv")
    args = ap.parse_args()
    rows = build(args.landmarks, args.out)
    kinds: dict[str, int] = {}
    for r in rows:
        kinds[r["point_source"] or "none"] = kinds.get(r["point_source"] or "none", 0) + 1
    print(f"{args.out}: {len(rows)} station rows", kinds)
    for line in dict.fromkeys(r["line"] for r in rows):
        on = [r for r in rows if r["line"] == line]
        print(f"  {line}: {len(on)} stations, {sum(r['in_busan'] for r in on)} in Busan, "
              f"{sum(r['in_data'] for r in on)} with a point")
    for r in rows:
        if not r["in_data"] and r["in_busan"]:
            print("  no point:", r["line"], r["station"])


if __name__ == "__main__":
    main()
