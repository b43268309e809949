#!/usr/bin/env python3
"""Build the station table of the sandbox's public-transit router (datasets/local/transit_stations.csv).

Input: ``datasets/local/landmarks.csv`` (built by ``build_landmarks.py``): its subway stations (``SW8``) are
the real address points of the station buildings of the data (``서면역 1호선`` …). Line order: public knowledge
of the network (the ``LINES`` table of ``build_landmarks.py``): Busan Metro lines 1–4 and the 부산김해경전철
light rail (its stations inside Busan, 사상 … 불암). The 동해선 is a national-rail urban line with its own fares:
left out.

    python datasets/build/build_transit.py [--landmarks datasets/local/landmarks.csv] [--out ...]

Every station of those lines is listed in order. A station with a point in the landmarks gets it (the first
place of that station and line by id, when a station building has several addresses); one without keeps its
place in the line order with empty ``x``/``y`` (``in_data`` 0): the router rides through it (it counts as a
stop) but nobody boards, alights or transfers there. No coordinate is invented. Deterministic.
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_landmarks import LINES, write_csv  # noqa: E402  (the one table of station order)

ROUTED = ("1호선", "2호선", "3호선", "4호선", "부산김해경전철")
COLUMNS = ["line", "seq", "station", "in_data", "x", "y", "building_name", "road_address_name"]


def build(landmarks: Path, out: Path) -> list[dict]:
    with open(landmarks, encoding="utf-8", newline="") as fh:
        places = sorted((r for r in csv.DictReader(fh) if r["category_group_code"] == "SW8"), key=lambda r: r["id"])
    points = {}
    for r in places:
        points.setdefault(r["place_name"], r)
    rows = []
    for line in ROUTED:
        for seq, station in enumerate(LINES[line].split(), start=1):
            hit = points.get(f"{station}역 {line}")
            rows.append({"line": line, "seq": seq, "station": station, "in_data": int(hit is not None),
                         "x": hit["x"] if hit else "", "y": hit["y"] if hit else "",
                         "building_name": hit["place_name"] if hit else "",
                         "road_address_name": hit["road_address_name"] if hit else ""})
    write_csv(out, COLUMNS, rows)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--landmarks", type=Path, default=ROOT / "local" / "landmarks.csv")
    ap.add_argument("--out", type=Path, default=ROOT / "local" / "transit_stations.csv")
    args = ap.parse_args()
    rows = build(args.landmarks, args.out)
    real = sum(r["in_data"] for r in rows)
    print(f"{args.out}: {len(rows)} station rows, {real} with a real point, {len(rows) - real} without")


if __name__ == "__main__":
    main()
