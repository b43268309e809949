"""Figures of the road graph as the sandbox routes on it: detour, speeds by class and hour, one known trip.

Prints (the figures quoted in ``datasets/README.md``, "Road graph"):

* the detour, road distance ÷ straight-line distance, over 300 random pairs of real address points of the city
  3–15 km apart (seed 20261126, the pairs of ``tests/navi/test_road_plausibility.py``): median, 90th percentile
  and mean of the recommended route at 18:00 KST (the clock the lessons freeze) and of the shortest one;
* the median traffic speed of the edges of each road class at 03:00, 08:00, 12:00 and 18:00 KST;
* the five cafés nearest 해운대역 2호선 to 부산역: km, minutes and km/h at 18:00 and at 03:00 KST.

Run from a checkout: ``python datasets/build/check_roads.py`` (about a minute; no network).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from toolkit.sandbox.app import Sandbox  # noqa: E402
from toolkit.sandbox.clock import _parse  # noqa: E402
from toolkit.sandbox.navi.models import Options, Point  # noqa: E402

# the pairs, hours and distance of the plausibility test: the figures printed here are the ones it checks
from tests.navi.test_road_plausibility import EVENING, NIGHT, city_pairs, metres  # noqa: E402


def main() -> None:
    sandbox = Sandbox()
    try:
        sandbox.clock.set(EVENING)
        sandbox.clock.freeze()
        navi = sandbox.model("navi")
        pairs = city_pairs()
        for priority in ("RECOMMEND", "DISTANCE"):
            ratios = []
            for a, b in pairs:
                s = navi._routes(Point(*a), Point(*b), [], Options(priority=priority, summary=True))[0]["summary"]
                ratios.append(s["distance"] / metres(a, b))
            print(f"detour {priority:9s} over {len(ratios)} pairs of 3-15 km at 18:00 KST: median "
                  f"{statistics.median(ratios):.3f}, p90 {np.percentile(ratios, 90):.3f}, mean {np.mean(ratios):.3f}")
        g = navi.graph
        plain = ~g.school & ~g.event
        print("median edge speed (km/h) by class, outside school zones and road works:")
        for hour, when in (("03:00", NIGHT), ("08:00", "2026-11-19T23:00:00Z"), ("12:00", "2026-11-20T03:00:00Z"),
                           ("18:00", EVENING)):
            t = g.traffic(_parse(when))
            print(f"  {hour} KST " + ", ".join(f"{c} {np.median(t.speed[plain & (g.eclass == c)]):.1f}"
                                                for c in ("motorway", "arterial", "main", "local")))
        station, busan = (129.158894, 35.163661), (129.045082, 35.117625)   # 해운대역 2호선, 부산역 (KTX)
        print(f"five cafés around 해운대역 → 부산역 (straight line {metres(station, busan) / 1000:.1f} km):")
        for x, y, name in cafes_near(station):
            row = []
            for hour, when in (("18:00", EVENING), ("03:00", NIGHT)):
                sandbox.clock.set(when)
                s = navi._routes(Point(x, y), Point(*busan), [], Options(summary=True))[0]["summary"]
                row.append(f"{hour} {s['distance'] / 1000:.1f} km {s['duration'] / 60:.0f} min "
                           f"{s['distance'] / s['duration'] * 3.6:.1f} km/h")
            sandbox.clock.set(EVENING)
            print(f"  {name}: " + "; ".join(row))
    finally:
        sandbox.model("events").stop()
        sandbox.store.close()


def cafes_near(point, n: int = 5):
    """The ``n`` cafés (CE7) nearest ``point`` among the businesses (what a category search sorted by distance
    answers first)."""
    import toolkit

    tk = toolkit.connect(fresh=True)
    try:
        df = tk.local.category("CE7", x=point[0], y=point[1], radius=500, sort="distance", size=n)
        return [(float(x), float(y), name) for x, y, name in zip(df["x"], df["y"], df["place_name"])]
    finally:
        tk.close()


if __name__ == "__main__":
    main()
