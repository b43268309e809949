"""Figures of the road graph as the sandbox routes on it: detour, speeds by class and hour, one known trip.

Prints (the figures quoted in ``datasets/README.md``, "Road graph"):

* the detour, road distance ÷ straight-line distance, over 300 random pairs of real address points of the city
  3–15 km apart (seed 20261126, the pairs of ``tests/navi/test_road_plausibility.py``): median, 90th percentile
  and mean of the recommended route at 18:00 KST (the clock the lessons freeze) and of the shortest one;
* the detour over the 1,200 trips of at least 2 km that start 75 in each district (``district_pairs``, seed
  20261201, the trips of the same test): median, 90th and 99th percentile and maximum, of all of them and of
  those with an end in 강서구, and the worst five;
* the legal dongs' and ri's representative points that do not route (as the test routes them: each from the one
  before it and to the one after it), with their distance to the nearest node of the graph;
* the median traffic speed of the edges of each road class at 03:00, 08:00, 12:00 and 18:00 KST;
* the five cafés nearest 해운대역 2호선 to 부산역: km, minutes and km/h at 18:00 and at 03:00 KST.

Run from a checkout: ``python datasets/build/check_roads.py`` (about a minute; no network).
``python datasets/build/check_roads.py --wide`` prints only the second and third (about 15 s).
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
from tests.navi.test_road_plausibility import (EVENING, NIGHT, city_pairs, detours, district_pairs,  # noqa: E402
                                                dong_points, metres)


def wide(sandbox) -> None:
    """The figures of issue 41, point 4: detours over the district trips, and the dong points that do not route."""
    pairs = district_pairs()
    ratios = detours(sandbox, pairs)
    gangseo = np.array(["강서구" in p[2:] for p in pairs])
    for label, r in (("all", ratios), ("강서구", ratios[gangseo])):
        print(f"detour over {len(r)} trips of 2 km or more ({label}) at 18:00 KST: median {np.median(r):.3f}, "
              f"p90 {np.percentile(r, 90):.3f}, p99 {np.percentile(r, 99):.3f}, max {r.max():.3f}")
    for k in np.argsort(-ratios)[:5]:
        a, b, da, db = pairs[k]
        print(f"  {ratios[k]:.2f}: {da} {a} → {db} {b} ({metres(a, b) / 1000:.1f} km straight)")
    navi = sandbox.model("navi")
    points, routes, failed = dong_points(sandbox), 0, {}
    for a, b in zip(points, points[1:] + points[:1]):               # each from the one before it, to the one after
        code = navi._routes(Point(*a[2]), Point(*b[2]), [], Options(summary=True))[0]["result_code"]
        routes += code != 0
        for (district, name, p), role in ((a, 102), (b, 103)):     # 102: the origin has no road, 103: the destination
            if code == role:
                failed[f"{district} {name}"] = navi.graph.snap(*p)[1]
    print(f"dong and ri points that do not route: {len(failed)} of {len(points)} ({routes} of {len(points)} routes "
          "failed)" + "".join(f"\n  {name}: {m:,.0f} m from the graph" for name, m in failed.items()))


def main() -> None:
    sandbox = Sandbox()
    try:
        sandbox.clock.set(EVENING)
        sandbox.clock.freeze()
        if "--wide" in sys.argv:
            wide(sandbox)
            return
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
        wide(sandbox)
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
