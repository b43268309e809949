#!/usr/bin/env python3
"""Build the subway station table of the sandbox's public-transit router (datasets/local/transit_stations.csv).

Input: ``datasets/local/addresses.csv.gz`` (the real Busan address points of the local world; see
datasets/README.md). Line order: public knowledge of Busan Metro Line 1 and Line 2 (station sequence only).

    python datasets/build/build_transit.py [--addresses datasets/local/addresses.csv.gz] [--out ...]

Each station of the two line spans below gets the coordinates of the address point whose ``building_name``
is exactly the station's building name in the data (a real point). A station with no such point keeps its
place in the line order with empty ``x``/``y`` (``in_data`` 0): the router rides through it (it counts as a
stop) but nobody boards or alights there. No coordinate is invented. Building names that merely contain a
station name (apartments, hotels: ``부산역라마다앙코르호텔``, ``범일역풍림아이원`` ...) are not used.

Spans: Line 1 자갈치 … 양정 and Line 2 개금 … 전포, i.e. from the first to the last station of each line that
has a point in the data (the data covers 중구, 동구, 서구, 부산진구 only; 시청, 국제금융센터·부산은행, 문현 and
the rest of the lines lie outside it or have no point). Deterministic: same input, byte-identical output.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (line, station name, building_name of its address point in the data or None)
LINES = {
    "1호선": [("자갈치", "도시철도자갈치역"), ("남포", "도시철도남포역"), ("중앙", "도시철도중앙역"),
             ("부산역", None), ("초량", "초량역"), ("부산진", None), ("좌천", None), ("범일", None),
             ("범내골", "범내골역"), ("서면", "서면역"), ("부전", "부전역"), ("양정", "양정역")],
    "2호선": [("개금", "개금역"), ("동의대", None), ("가야", None), ("부암", None), ("서면", "서면역"),
             ("전포", "전포역")],
}
COLUMNS = ["line", "seq", "station", "in_data", "x", "y", "building_name", "road_address_name"]


def build(addresses: Path, out: Path) -> list[dict]:
    with gzip.open(addresses, "rt", encoding="utf-8") as fh:
        points = {}
        for row in csv.DictReader(fh):
            name = row["building_name"]
            if name and name not in points:  # 초량역 has two lot rows with the same point: first one kept
                points[name] = row
    rows = []
    for line, stations in LINES.items():
        for seq, (station, building) in enumerate(stations, start=1):
            hit = points.get(building) if building else None
            if building and hit is None:
                raise SystemExit(f"{building} not found in {addresses}")
            rows.append({"line": line, "seq": seq, "station": station, "in_data": int(hit is not None),
                         "x": hit["x"] if hit else "", "y": hit["y"] if hit else "",
                         "building_name": building or "", "road_address_name": hit["road_address_name"] if hit else ""})
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    out.write_text(buf.getvalue(), encoding="utf-8")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addresses", type=Path, default=ROOT / "local" / "addresses.csv.gz")
    ap.add_argument("--out", type=Path, default=ROOT / "local" / "transit_stations.csv")
    args = ap.parse_args()
    rows = build(args.addresses, args.out)
    real = sum(r["in_data"] for r in rows)
    print(f"{args.out}: {len(rows)} station rows, {real} with a real point, {len(rows) - real} without")


if __name__ == "__main__":
    main()
