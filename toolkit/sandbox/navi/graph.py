"""The sandbox road graph (``datasets/navi/roads.json.gz``, derived by ``datasets/build/build_roads.py``) and
its traffic model.

The graph is loaded once per process, lazily, on the first routing request (``road_graph()``), and shared by
every sandbox of the process (it is read-only data). Start-up of a sandbox does not touch it.

Traffic model (a sandbox choice; the real service uses live probe data):

* Time of day is Busan local time (KST, UTC+9) of the sandbox clock (or the departure time of a future
  estimate), in 15-minute buckets.
* Speed = free-flow speed × time-of-day factor × per-road noise × road-event factor. The factor has a morning
  peak around 08:00, a midday plateau and an evening peak around 18:30; the depth of the peaks depends on the
  road class (arterials slow most, local streets least). Noise is deterministic per (edge, bucket) in
  [0.85, 1.10]. Road works (``roadevent`` edges) run at 40 %.
* ``traffic_state`` uses the real platform's codes: 0 no information, 1 jammed (정체), 2 delayed (지체),
  3 slow (서행), 4 smooth (원활). From the ratio traffic speed / free-flow speed: ≥ 0.8 → 4, ≥ 0.55 → 3,
  ≥ 0.35 → 2, else 1. (Code 6, accident/closed, is not produced.)
"""
from __future__ import annotations

import gzip
import json
import math
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["RoadGraph", "road_graph", "KST", "BUCKET_S", "MX", "MY"]

KST = 9 * 3600
BUCKET_S = 900
LAT0 = 35.14
MX = 111_320.0 * math.cos(math.radians(LAT0))
MY = 110_940.0
CLASSES = ("arterial", "main", "local", "motorway")
PEAK_DEPTH = {"arterial": 1.0, "main": 0.8, "local": 0.5, "motorway": 0.7}
ROADEVENT_FACTOR = 0.4

_lock = threading.Lock()
_graphs: dict[Path, "RoadGraph"] = {}


def road_graph(datasets: Path) -> "RoadGraph":
    path = Path(datasets) / "navi" / "roads.json.gz"
    with _lock:
        if path not in _graphs:
            _graphs[path] = RoadGraph(path)
        return _graphs[path]


def congestion(hour: float) -> float:
    """Share of free-flow speed lost at ``hour`` (KST, 0–24) on the most congested class (arterials)."""
    def bump(center, width):
        d = min(abs(hour - center), 24 - abs(hour - center))
        return math.exp(-0.5 * (d / width) ** 2)
    midday = 0.18 if 10 <= hour < 16 else 0.0
    return min(0.75, 0.55 * bump(8.0, 1.0) + 0.6 * bump(18.5, 1.3) + midday)


@dataclass
class Traffic:
    speed: np.ndarray      # km/h per edge
    state: np.ndarray      # traffic_state per edge
    seconds: np.ndarray    # travel time per edge


class RoadGraph:
    def __init__(self, path: Path):
        import networkx as nx

        data = json.loads(gzip.decompress(path.read_bytes()))
        self.meta = {k: data[k] for k in ("format", "source", "speeds_kmh", "synthetic", "stats")}
        self.road_names = [r[0] for r in data["roads"]]
        self.road_class = [r[1] for r in data["roads"]]
        nodes = np.asarray(data["nodes"], dtype=float)
        self.lon, self.lat = nodes[:, 0].copy(), nodes[:, 1].copy()
        self.mx, self.my = (self.lon - 129.0) * MX, (self.lat - LAT0) * MY
        cols = data["edge_columns"]
        e = np.asarray(data["edges"], dtype=float)
        col = {c: e[:, i] for i, c in enumerate(cols)}
        self.eu, self.ev = col["u"].astype(int), col["v"].astype(int)
        self.eroad = col["road"].astype(int)
        self.elen = col["len"]
        self.oneway = col["oneway"].astype(bool)
        self.toll = col["toll"].astype(int)
        self.motorway = col["motorway"].astype(bool)
        self.school = col["school"].astype(bool)
        self.event = col["event"].astype(bool)
        self.ferry = np.zeros(len(e), dtype=bool)        # no car ferry in the four districts
        speeds = data["speeds_kmh"]
        cls = np.array([self.road_class[r] if r >= 0 else "local" for r in self.eroad])
        self.eclass = cls
        self.free = np.array([speeds[c] for c in cls], dtype=float)
        self.free[self.school & (self.free > speeds["schoolzone"])] = speeds["schoolzone"]
        self.depth = np.array([PEAK_DEPTH[c] for c in cls])
        self.local = cls == "local"
        g = nx.DiGraph()
        for i in np.argsort(self.elen, kind="stable"):       # shortest first: a parallel edge keeps the shortest
            u, v = int(self.eu[i]), int(self.ev[i])
            pairs = [(u, v)] if self.oneway[i] else [(u, v), (v, u)]
            for a, b in pairs:
                if not g.has_edge(a, b):
                    g.add_edge(a, b, i=int(i))
        self.g = g
        scc = max(nx.strongly_connected_components(g), key=len)
        self.snap_ids = np.fromiter(sorted(scc), dtype=int)
        self._traffic: dict[int, Traffic] = {}
        self._tlock = threading.Lock()

    # ------------------------------------------------------------------ geometry
    def snap(self, x: float, y: float) -> tuple[int, float]:
        """Nearest routable node (of the main strongly connected part) and its distance in metres."""
        px, py = (x - 129.0) * MX, (y - LAT0) * MY
        ids = self.snap_ids
        d2 = (self.mx[ids] - px) ** 2 + (self.my[ids] - py) ** 2
        k = int(np.argmin(d2))
        return int(ids[k]), float(math.sqrt(d2[k]))

    @staticmethod
    def metres(x1, y1, x2, y2) -> float:
        return math.hypot((x1 - x2) * MX, (y1 - y2) * MY)

    def edge_name(self, i: int) -> str | None:
        r = self.eroad[i]
        return self.road_names[r] if r >= 0 else None

    # ------------------------------------------------------------------ traffic
    def traffic(self, timestamp: float) -> Traffic:
        bucket = int((timestamp + KST) // BUCKET_S)
        with self._tlock:
            hit = self._traffic.get(bucket)
            if hit is not None:
                return hit
        hour = ((bucket * BUCKET_S) % 86400) / 3600
        factor = 1.0 - self.depth * congestion(hour)
        noise = np.random.default_rng(bucket).uniform(0.85, 1.10, len(self.elen))
        speed = self.free * np.minimum(1.0, factor * noise)
        speed[self.event] *= ROADEVENT_FACTOR
        speed = np.maximum(np.round(speed, 1), 3.0)
        ratio = speed / self.free
        state = np.where(ratio >= 0.8, 4, np.where(ratio >= 0.55, 3, np.where(ratio >= 0.35, 2, 1)))
        seconds = self.elen / (speed / 3.6)
        t = Traffic(speed, state.astype(int), seconds)
        with self._tlock:
            if len(self._traffic) > 64:
                self._traffic.clear()
            self._traffic[bucket] = t
        return t
