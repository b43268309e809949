"""The sandbox road graph (``toolkit/data/navi/roads.json.gz``, derived by ``datasets/build/build_roads.py``) and
its traffic model.

The graph is loaded once per process, lazily, on the first routing request (``road_graph()``), and shared by
every sandbox of the process (it is read-only data). Start-up of a sandbox does not touch it.

Traffic model (a sandbox choice; the real service uses live probe data):

* Time of day is Busan local time (KST, UTC+9) of the sandbox clock (or the departure time of a future
  estimate), in 15-minute buckets.
* Free-flow speed by road class: the "안전속도 5030" limits of the class (arterial ``…대로`` 50 km/h, main road
  ``…로`` 40, local street ``…길`` 30), car-only roads (the car-only bridges and the synthetic motorway links)
  70, school zones 30 (``speeds_kmh`` of the graph file). At night a trip runs at about these speeds.
* Speed = free-flow speed × (1 − loss) × per-edge noise × road-event factor. The loss follows the time of day
  (:func:`congestion`: a morning peak around 08:00, a midday plateau, an evening peak around 18:30, nothing at
  night) and, at its deepest, depends on the road class (``PEAK_LOSS``: arterials lose half their speed,
  car-only roads 40 %, main roads 45 %, local streets 35 %) and on the road: each road name's loss is scaled by a
  fixed factor in [0.75, 1.25] (crc32 of the name), so some arterials jam more than others. Noise is
  deterministic per (edge, bucket) in [0.85, 1.10]. Road works (``roadevent`` edges) run at 40 %. So the same trip
  takes longer at 18:00 than at 03:00, and a trip on arterials runs faster than one on local streets.
* ``traffic_state`` uses the real platform's codes: 0 no information, 1 jammed (정체), 2 delayed (지체),
  3 slow (서행), 4 smooth (원활). From the ratio traffic speed / free-flow speed: ≥ 0.8 → 4, ≥ 0.55 → 3,
  ≥ 0.35 → 2, else 1. (Code 6, accident/closed, is not produced.)
"""
from __future__ import annotations

import gzip
import json
import math
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["RoadGraph", "road_graph", "bucket_of", "KST", "BUCKET_S", "MX", "MY"]

KST = 9 * 3600
BUCKET_S = 900
LAT0 = 35.14
MX = 111_320.0 * math.cos(math.radians(LAT0))
MY = 110_940.0
CLASSES = ("arterial", "main", "local", "motorway")
# share of the free-flow speed lost at the evening peak, by class (scaled per road by ROAD_SPREAD)
PEAK_LOSS = {"arterial": 0.50, "main": 0.45, "local": 0.35, "motorway": 0.40}
ROAD_SPREAD = (0.75, 1.25)
ROADEVENT_FACTOR = 0.4
BLOCKED = 1e12          # weight of an arc removed by ``avoid`` (a path using it counts as no path)
MATRICES_KEPT = 8       # weighted graphs (forward and reversed) kept per weight key (traffic bucket + options)
TREES_KEPT = 32         # shortest-path trees kept (at most about 1 MB each: costs, predecessors, arcs and the
                        # summaries of walks; 32 MB in all): the targets of a matrix, each asked once per
                        # block of origins (a matrix of 20 destinations cycled through 16 kept trees: every call
                        # of a repeated run searched again)
SNAPS_KEPT = 100_000    # snapped points kept (exact coordinates → node; ~250 bytes each, ~25 MB at most; emptied
                        # when full)
TRAFFIC_KEPT = 16       # traffic buckets kept (speeds, states and seconds of every edge: ~1.3 MB each for the
                        # 55,877 edges, ~21 MB in all; emptied when full; one is made again in ~1 ms). Routes
                        # "now" use one bucket per 15 minutes; future departures may ask for any of a week's 672

_lock = threading.Lock()
_graphs: dict[Path, "RoadGraph"] = {}


def _roads_file(datasets: Path) -> Path:
    return Path(datasets) / "navi" / "roads.json.gz"


def loaded_graph(datasets: Path) -> "RoadGraph | None":
    """The road graph of ``datasets`` if it is loaded, else None (without loading it)."""
    with _lock:
        return _graphs.get(_roads_file(datasets))


def road_graph(datasets: Path) -> "RoadGraph":
    path = _roads_file(datasets)
    with _lock:
        if path not in _graphs:
            _graphs[path] = RoadGraph(path)
        return _graphs[path]


def bucket_of(timestamp: float) -> int:
    """The traffic bucket (15 minutes of KST) of a Unix time: traffic is the same throughout a bucket."""
    return int((timestamp + KST) // BUCKET_S)


def congestion_max() -> float:
    """The largest value of :func:`congestion` over the day (the evening peak)."""
    return max(congestion(h / 60) for h in range(24 * 60))


def congestion(hour: float) -> float:
    """How congested the city is at ``hour`` (KST, 0–24): 0 at night, about 0.6 at the evening peak; an edge loses
    ``PEAK_LOSS`` of its class × this ÷ :func:`congestion_max` of its free-flow speed (for example
    ``congestion(3.0)`` is 0, ``congestion(18.0)`` about 0.56)."""
    def bump(center, width):
        d = min(abs(hour - center), 24 - abs(hour - center))
        return math.exp(-0.5 * (d / width) ** 2)
    midday = 0.18 if 10 <= hour < 16 else 0.0
    return min(0.75, 0.55 * bump(8.0, 1.0) + 0.6 * bump(18.5, 1.3) + midday)


@dataclass
class Tree:
    """A shortest-path tree from ``root``: cost per node (``inf`` where unreached) and the predecessor of each
    node as a Python list (walked node by node; list indexing is the fastest Python can do) of the graph's
    shared node numbers (:meth:`RoadGraph.node_list`: no int objects of its own, a quarter of the memory)."""
    root: int
    cost: np.ndarray
    pred: list
    roads: dict = field(default_factory=dict)   # rounded (metres, seconds) of roads met by earlier walks (models.py)
    up: list | None = None                      # reversed trees: edge id of each node's arc to its predecessor
    suffix: dict = field(default_factory=dict)  # summaries from nodes that start a road to the root (models.py)


@dataclass
class Traffic:
    speed: np.ndarray      # km/h per edge
    state: np.ndarray      # traffic_state per edge
    seconds: np.ndarray    # travel time per edge


def _read(path: Path):
    """(JSON header without the big arrays, nodes array, edges array). The build also writes
    ``roads_index.npz`` next to ``roads.json.gz`` (the same nodes and edges as binary arrays plus the rest of the
    JSON without them), read in milliseconds; the JSON (the published format) is the fallback."""
    index = path.with_name("roads_index.npz")
    if index.exists():
        with np.load(index, allow_pickle=False) as z:
            return json.loads(str(z["header"])), z["nodes"], z["edges"]
    data = json.loads(gzip.decompress(path.read_bytes()))
    return data, np.asarray(data["nodes"], dtype=float), np.asarray(data["edges"], dtype=float)


class RoadGraph:
    def __init__(self, path: Path):
        from scipy.sparse.csgraph import connected_components

        data, nodes, e = _read(path)
        self.meta = {k: data[k] for k in ("format", "source", "speeds_kmh", "synthetic", "stats")}
        self.road_names = [r[0] for r in data["roads"]]
        self.road_class = [r[1] for r in data["roads"]]
        self.lon, self.lat = nodes[:, 0].copy(), nodes[:, 1].copy()
        self.mx, self.my = (self.lon - 129.0) * MX, (self.lat - LAT0) * MY
        cols = data["edge_columns"]
        col = {c: e[:, i] for i, c in enumerate(cols)}
        self.eu, self.ev = col["u"].astype(int), col["v"].astype(int)
        self.eroad = col["road"].astype(int)
        self.elen = col["len"]
        self.oneway = col["oneway"].astype(bool)
        self.toll = col["toll"].astype(int)
        self.motorway = col["motorway"].astype(bool)
        self.school = col["school"].astype(bool)
        self.event = col["event"].astype(bool)
        self.ferry = np.zeros(len(e), dtype=bool)        # no car ferry in the graph
        speeds = data["speeds_kmh"]
        cls = np.array([self.road_class[r] if r >= 0 else "local" for r in self.eroad])
        self.local = cls == "local"
        cls[self.motorway] = "motorway"                  # car-only bridges run as motorways
        self.eclass = cls
        self.free = np.array([speeds[c] for c in cls], dtype=float)
        self.free[self.school & (self.free > speeds["schoolzone"])] = speeds["schoolzone"]
        # the loss at the deepest peak (congestion() at its maximum) per edge: by class, scaled per road name
        lo, hi = ROAD_SPREAD
        spread = np.array([lo + (hi - lo) * (zlib.crc32(name.encode("utf-8")) % 1000) / 999
                           for name in self.road_names] + [1.0])
        self.depth = np.array([PEAK_LOSS[c] for c in cls]) * spread[self.eroad] / congestion_max()
        # directed arcs (u -> v, edge id); a two-way edge gives two arcs; of parallel arcs the shortest edge
        # is kept. Stored as one CSR structure (rows = from-node, sorted), so a request only fills in weights.
        n = len(self.lon)
        order = np.argsort(self.elen, kind="stable")
        fwd_u, fwd_v, fwd_e = self.eu[order], self.ev[order], order
        two = ~self.oneway[order]
        au = np.concatenate([fwd_u, fwd_v[two]])
        av = np.concatenate([fwd_v, fwd_u[two]])
        ae = np.concatenate([fwd_e, fwd_e[two]])
        rank = np.concatenate([np.arange(len(order)), np.flatnonzero(two)])   # shortest-first rank of the edge
        key = au.astype(np.int64) * n + av
        by = np.lexsort((rank, key))
        first = np.ones(len(by), dtype=bool)
        first[1:] = key[by][1:] != key[by][:-1]
        keep = by[first]                                   # sorted by (from, to), one arc per pair
        self.arc_u, self.arc_v, self.arc_e = au[keep], av[keep], ae[keep]
        self.indptr = np.searchsorted(self.arc_u, np.arange(n + 1)).astype(np.int32)
        self.indices = self.arc_v.astype(np.int32)
        self.arc_key = self.arc_u.astype(np.int64) * n + self.arc_v   # ascending: (from, to) of each arc
        ncomp, labels = connected_components(self.matrix(np.ones(len(self.arc_e))), directed=True,
                                             connection="strong")
        main = np.bincount(labels).argmax()
        self.snap_ids = np.flatnonzero(labels == main)
        # road name of each edge as a small integer (-1: no name); equal names (of different roads) equal ids
        names = {name: k for k, name in enumerate(dict.fromkeys(self.road_names))}
        road_name = np.array([names[name] for name in self.road_names] + [-1], dtype=np.int64)
        self.ename = road_name[self.eroad]                 # eroad -1 reads the trailing -1
        self._traffic: dict[int, Traffic] = {}
        self._tlock = threading.Lock()
        self._matrices: OrderedDict = OrderedDict()
        self._trees: OrderedDict = OrderedDict()
        self._int_objs: dict = {}
        self._tree_locks: dict = {}
        self._snaps: dict = {}
        self._clock = threading.Lock()

    # ------------------------------------------------------------------ shortest paths (scipy csgraph)
    def matrix(self, arc_weights: np.ndarray):
        """The directed graph as a CSR matrix with the given weight per arc (arc order of ``arc_e``)."""
        from scipy.sparse import csr_matrix

        n = len(self.lon)
        return csr_matrix((arc_weights, self.indices, self.indptr), shape=(n, n))

    def arc_weights(self, edge_weights: np.ndarray, blocked: np.ndarray | None = None) -> np.ndarray:
        """Per-arc weights from per-edge weights; blocked edges cost ``BLOCKED`` (never a usable path)."""
        w = np.maximum(np.asarray(edge_weights, dtype=float)[self.arc_e], 1e-6)
        if blocked is not None and blocked.any():
            w[blocked[self.arc_e]] = BLOCKED
        return w

    def weighted(self, key, arc_weights, reverse: bool):
        """The CSR matrix of ``arc_weights()`` (reversed arcs when ``reverse``), kept per ``key`` (a key must name
        everything the weights depend on)."""
        with self._clock:
            hit = self._matrices.get(key)
            if hit is not None:
                self._matrices.move_to_end(key)
        if hit is None:
            forward = self.matrix(arc_weights())
            hit = [forward, None]
            with self._clock:
                self._matrices[key] = hit
                while len(self._matrices) > MATRICES_KEPT:
                    self._matrices.popitem(last=False)
        if reverse and hit[1] is None:
            hit[1] = hit[0].T.tocsr()
        return hit[1] if reverse else hit[0]

    def node_list(self, values: np.ndarray) -> list:
        """``values.tolist()`` of a predecessor array (node numbers, or scipy's -9999 for none: any negative
        reads -9999), made of one set of int objects kept by the graph and shared by every list it gives."""
        return self._shared_list(values, len(self.lon), -9999)

    def _shared_list(self, values: np.ndarray, n: int, missing: int) -> list:
        """``values.tolist()`` for values in ``range(n)`` (any negative reads ``missing``) from int objects kept
        per ``(n, missing)`` (two threads may both build them: equal arrays)."""
        objs = self._int_objs.get((n, missing))
        if objs is None:
            objs = np.empty(n + 1, dtype=object)
            objs[:n] = range(n)
            objs[n] = missing
            self._int_objs[(n, missing)] = objs
        return objs[np.where(values >= 0, values, n)].tolist()

    @property
    def ename_list(self) -> list:
        """:attr:`ename` as a Python list (walked edge by edge)."""
        out = self.__dict__.get("_ename_list")
        if out is None:
            out = self.__dict__["_ename_list"] = self.ename.tolist()
        return out

    def has_weighted(self, key, reverse: bool, timestamp: float) -> bool:
        """Whether :meth:`weighted` (``reverse`` included) and :meth:`traffic` would answer ``key`` and
        ``timestamp`` from what is kept, without building anything."""
        with self._clock:
            hit = self._matrices.get(key)
        with self._tlock:
            traffic = bucket_of(timestamp) in self._traffic
        return traffic and hit is not None and (not reverse or hit[1] is not None)

    def tree(self, key, arc_weights, root: int, reverse: bool) -> Tree:
        """Shortest-path tree from ``root`` over the graph weighted by ``arc_weights()`` (``key`` names those
        weights), over the reversed arcs when ``reverse`` (then the tree leads every node *to* ``root``). The
        same Dijkstra as :meth:`path`; trees are kept (least recently used dropped first), and concurrent
        requests for one tree wait for a single search."""
        from scipy.sparse.csgraph import dijkstra

        k = (key, root, reverse)
        with self._clock:
            hit = self._trees.get(k)
            if hit is not None:
                self._trees.move_to_end(k)
                return hit
            lock = self._tree_locks.setdefault(k, threading.Lock())
        with lock:
            with self._clock:
                hit = self._trees.get(k)
            if hit is not None:
                return hit
            cost, pred = dijkstra(self.weighted(key, arc_weights, reverse), directed=True, indices=root,
                                  return_predecessors=True)
            hit = Tree(root, cost, self.node_list(pred))
            if reverse:   # each node's arc toward the root (node → pred), for walks that sum roads as they go
                has = np.flatnonzero(pred >= 0)
                up = np.full(len(pred), -1, dtype=np.int64)
                up[has] = self.arcs_between(has, pred[has])
                hit.up = self._shared_list(up, len(self.elen), -1)
            with self._clock:
                self._trees[k] = hit
                while len(self._trees) > TREES_KEPT:
                    self._trees.popitem(last=False)
                self._tree_locks.pop(k, None)
        return hit

    @staticmethod
    def tree_walks(tree: Tree, nodes: list[int]) -> list[list[int] | None]:
        """For each node ``b``, the nodes from ``b`` up the tree to its root (``[b, …, root]``), or None when
        ``b`` has no path (as :meth:`walk`: unreached, or reached only over a blocked arc). (Walks share their
        ends near the root; skipping the shared part through a dict of passed nodes was slower than walking.)"""
        pred, root, cost = tree.pred, tree.root, tree.cost
        out: list = []
        for b in nodes:
            if not cost[b] < BLOCKED:      # inf, nan or blocked
                out.append(None)
                continue
            path = [b]
            while b != root:
                b = pred[b]
                path.append(b)
            out.append(path)
        return out

    def path(self, matrix, a: int, b: int) -> list[int] | None:
        """Node list of the cheapest path a → b, or None when there is none."""
        from scipy.sparse.csgraph import dijkstra

        if a == b:
            return [a]
        dist, pred = dijkstra(matrix, directed=True, indices=a, return_predecessors=True)
        return self.walk(dist, pred, a, b)

    @staticmethod
    def walk(dist, pred, a: int, b: int) -> list[int] | None:
        if not np.isfinite(dist[b]) or dist[b] >= BLOCKED:
            return None
        out = [b]
        while out[-1] != a:
            out.append(int(pred[out[-1]]))
        return out[::-1]

    def arcs_between(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Edge ids of the kept arcs a[i] → b[i] (each pair must be an arc): one look-up per pair in the row of
        ``a[i]`` of a CSR matrix holding edge id + 1 (faster than a search over every arc)."""
        lookup = self.__dict__.get("_arc_lookup")
        if lookup is None:
            from scipy.sparse import csr_matrix

            n = len(self.lon)
            lookup = self.__dict__["_arc_lookup"] = csr_matrix(
                (self.arc_e.astype(np.int64) + 1, self.indices, self.indptr), shape=(n, n))
        if len(a) == 0:
            return np.zeros(0, dtype=np.int64)
        return np.asarray(lookup[a, b]).ravel() - 1

    def edges_of(self, nodes: list[int]) -> list[int]:
        """Edge ids along a node path (the kept arc of each consecutive pair)."""
        if len(nodes) < 2:
            return []
        path = np.asarray(nodes, dtype=np.int64)
        k = np.searchsorted(self.arc_key, path[:-1] * len(self.lon) + path[1:])   # every pair in one search
        return self.arc_e[k].tolist()

    # ------------------------------------------------------------------ geometry
    def snap(self, x: float, y: float) -> tuple[int, float]:
        """Nearest routable node (of the main strongly connected part) and its distance in metres."""
        px, py = (x - 129.0) * MX, (y - LAT0) * MY
        ids = self.snap_ids
        tree = self.__dict__.get("_snap_tree")
        if tree is None:     # a k-d tree of the routable nodes, made on first use; it only narrows the candidates
            from scipy.spatial import cKDTree

            tree = self.__dict__["_snap_tree"] = cKDTree(np.column_stack((self.mx[ids], self.my[ids])))
        near, _ = tree.query((px, py))
        cand = np.array(sorted(tree.query_ball_point((px, py), near * (1 + 1e-9) + 1e-9)), dtype=np.int64)
        # the nearest by the exact rule of a scan of every node: squared distance, the first of equals
        d2 = (self.mx[ids[cand]] - px) ** 2 + (self.my[ids[cand]] - py) ** 2
        k = int(cand[int(np.argmin(d2))])
        return int(ids[k]), float(math.sqrt(d2.min()))

    def snap_kept(self, x: float, y: float) -> tuple[int, float]:
        """:meth:`snap`, remembered per exact point (a matrix asks for the same origins once per target)."""
        hit = self._snaps.get((x, y))
        if hit is None:
            hit = self.snap(x, y)
            if len(self._snaps) >= SNAPS_KEPT:
                self._snaps.clear()
            self._snaps[(x, y)] = hit
        return hit

    def all_events_at(self, node: int) -> bool:
        """True when every edge touching ``node`` is a road event (road works)."""
        if not hasattr(self, "_touch"):
            touch: dict[int, list[int]] = {}
            for i, (u, v) in enumerate(zip(self.eu.tolist(), self.ev.tolist())):
                touch.setdefault(u, []).append(i)
                touch.setdefault(v, []).append(i)
            self._touch = touch
        ids = self._touch.get(node, [])
        return bool(ids) and all(self.event[i] for i in ids)

    @staticmethod
    def metres(x1, y1, x2, y2) -> float:
        return math.hypot((x1 - x2) * MX, (y1 - y2) * MY)

    def edge_name(self, i: int) -> str | None:
        r = self.eroad[i]
        return self.road_names[r] if r >= 0 else None

    # ------------------------------------------------------------------ traffic
    def traffic(self, timestamp: float) -> Traffic:
        bucket = bucket_of(timestamp)
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
            if len(self._traffic) >= TRAFFIC_KEPT:
                self._traffic.clear()
            self._traffic[bucket] = t
        return t
