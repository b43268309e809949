#!/usr/bin/env python3
"""Build the station places that are not station buildings (toolkit/data/local/station_places.csv).

``landmarks.csv`` holds a subway-station place (``SW8``) only where a building of the address data is named after
the station (57 of the 124 stations of the routed lines). ``transit_stations.csv`` gives a point to more of them
(see ``build_transit.py``): ``transfer`` (the same station complex's building on another line) and
``businesses`` (an **estimate**: the median point of the businesses named after the station). This script makes
one ``SW8`` place, named as the platform names it (``부산역 1호선``), for every station row with a point that has
no place in ``landmarks.csv`` yet, and one landmark for the KTX station 부산역 (at its building's address point,
``부산광역시 동구 중앙대로 206``, the 한국철도공사 부산지역본부 building).

An estimated station has no address of its own: ``address_name`` is the legal dong of the address point nearest
to it (no lot number), ``road_address_name`` is empty and ``b_code``/``h_code`` are that address point's. A
transfer station takes the address of its building on the other line. Which points are estimated is this
file's ``point_source`` column (``transfer``, ``businesses``; ``building`` for the KTX station), also stated in
``datasets/README.md``; the place documents themselves look like those of the building stations.

Input: ``transit_stations.csv``, ``landmarks.csv`` and ``addresses.csv.gz``; run after ``build_transit.py`` and
before ``build_places_index.py``. Deterministic, no network.

    python datasets/build/build_station_places.py
"""
from __future__ import annotations

import argparse
import csv
import gzip
import math
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "toolkit" / "data"   # the package data the sandbox reads
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_landmarks import COLUMNS, write_csv  # noqa: E402

KTX_ROAD_ADDRESS = "부산광역시 동구 중앙대로 206"
OUT_COLUMNS = [*COLUMNS, "point_source"]


def _metres(x1: float, y1: float, x2: float, y2: float) -> float:
    kx = 111_320 * math.cos(math.radians((y1 + y2) / 2))
    return math.hypot((x1 - x2) * kx, (y1 - y2) * 110_950)


def _place_id(name: str, where: str) -> str:
    return f"B{zlib.crc32(f'{name}|{where}'.encode('utf-8')):010d}"


def build(stations: Path, landmarks: Path, addresses: Path, out: Path) -> list[dict]:
    with open(landmarks, encoding="utf-8", newline="") as fh:
        marks = list(csv.DictReader(fh))
    named = {p["place_name"] for p in marks}
    taken = {p["id"] for p in marks}
    with gzip.open(addresses, "rt", encoding="utf-8") as fh:
        points = list(csv.DictReader(fh))
    for a in points:
        a["_x"], a["_y"] = float(a["x"]), float(a["y"])
    with open(stations, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    places = []
    for r in rows:
        name = f"{r['station']}역 {r['line']}"
        if r["in_data"] != "1" or name in named:
            continue
        x, y = float(r["x"]), float(r["y"])
        near = min(points, key=lambda a: (_metres(x, y, a["_x"], a["_y"]), a["address_name"]))
        if r["point_source"] == "transfer":      # the other line's building: its real address
            address, road = near["address_name"], r["road_address_name"]
            if road:
                same = [a for a in points if a["road_address_name"] == road]
                near = min(same, key=lambda a: (_metres(x, y, a["_x"], a["_y"]), a["address_name"]))
                address = near["address_name"]
        else:                                    # an estimate: the legal dong only, no address of its own
            address = " ".join(v for v in (near["region_1depth_name"], near["region_2depth_name"],
                                           near["region_3depth_name"], near["region_4depth_name"]) if v)
            road = ""
        pid = _place_id(name, r["x"] + "," + r["y"])
        assert pid not in taken
        taken.add(pid)
        named.add(name)
        places.append({"id": pid, "place_name": name, "category_name": f"교통,수송 > 지하철,전철 > {r['line']}",
                       "category_group_code": "SW8", "category_group_name": "지하철역", "phone": "",
                       "address_name": address, "road_address_name": road, "x": r["x"], "y": r["y"],
                       "b_code": near["b_code"], "h_code": near["h_code"], "point_source": r["point_source"]})
    ktx = next(a for a in points if a["road_address_name"] == KTX_ROAD_ADDRESS)
    places.append({"id": _place_id("부산역", KTX_ROAD_ADDRESS), "place_name": "부산역",
                   "category_name": "교통,수송 > 기차역 > KTX정차역", "category_group_code": "",
                   "category_group_name": "", "phone": "", "address_name": ktx["address_name"],
                   "road_address_name": ktx["road_address_name"], "x": ktx["x"], "y": ktx["y"],
                   "b_code": ktx["b_code"], "h_code": ktx["h_code"], "point_source": "building"})
    places.sort(key=lambda p: p["id"])
    write_csv(out, OUT_COLUMNS, places)
    return places


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    local = ROOT / "local"
    ap.add_argument("--stations", type=Path, default=local / "transit_stations.csv")
    ap.add_argument("--landmarks", type=Path, default=local / "landmarks.csv")
    ap.add_argument("--addresses", type=Path, default=local / "addresses.csv.gz")
    ap.add_argument("--out", type=Path, default=local / "station_places.csv")
    args = ap.parse_args()
    places = build(args.stations, args.landmarks, args.addresses, args.out)
    kinds: dict[str, int] = {}
    for p in places:
        kinds[p["point_source"]] = kinds.get(p["point_source"], 0) + 1
    print(f"{args.out}: {len(places)} places", kinds)


if __name__ == "__main__":
    main()
