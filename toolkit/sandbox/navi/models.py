"""Driving directions of the sandbox (location §2 "Directions resources", §4.8–4.11, §8).

Routes are shortest paths (Dijkstra of ``scipy.sparse.csgraph``) on the road graph derived from the real Busan addresses (see
``graph.py`` and ``datasets/README.md``). Choices where the spec is silent, written down here:

* **Shapes modelled on the real platform:** the response (``trans_id``, ``routes[]`` with ``result_code``,
  ``result_msg``, ``summary``, ``sections``), the GET point formats, and the many-origin response follow the
  spec. The many-destination call (``POST /v1/destinations/directions``) mirrors the many-origin one: body
  ``origin``, ``destinations[]`` (≤ 30, each with ``key``), ``radius`` (≤ 10000), ``priority`` (TIME/DISTANCE),
  ``avoid``; answer ``routes[]`` with ``key`` and summary. The future estimate
  (``GET /v1/future/directions``) takes the parameters of §4.8 plus ``departure_time`` = ``yyyyMMddHHmm``
  in Korean time (the real service's format), not before the current sandbox minute; traffic is the traffic
  model at that time. Those two are sandbox designs (the spec only names them).
* **result_code** (HTTP 200 either way; a failed route has only ``result_code`` and ``result_msg``), the
  codes the real platform documents: 0 success; 1 no route (e.g. every way blocked by ``avoid``); 101 no road
  within ``SNAP_MAX_M`` (2,000 m) of a waypoint, 102 … of the origin, 103 … of the destination; 104 origin and
  destination within 5 m of each other; 105/106/107 a road event on the road nearest the origin/destination/a waypoint
  (only with ``avoid=roadevent``: the point cannot be left or reached without driving the event).
  Many origins: 201 an origin with no road within 2,000 m (outside the area the search covers), 202 more than
  30 origins (one route carrying the code), 203 no road at the destination, 204 time limit (never produced:
  the sandbox has no search time limit), 205/206 a road event at an origin/the destination (with
  ``avoid=roadevent``), 207 an origin farther than ``radius`` from the destination. Many destinations:
  301 no road at the origin, 302 no road at a destination, 303 more than 30 destinations, 304 a destination
  farther than ``radius``.
* **priority:** ``TIME`` minimises travel time with current traffic; ``DISTANCE`` minimises metres;
  ``RECOMMEND`` minimises time with local streets (``…길``) weighted ×1.3 (prefers bigger roads).
* **avoid:** ``toll``, ``motorway`` and ``ferries`` remove edges with that flag (an avoided toll road or
  motorway never appears; no ferry exists in the city, so ``ferries`` never changes a route); ``schoolzone`` and
  ``roadevent`` make those edges 50 times as costly, so they are driven only where no other way exists (a point
  inside a school zone stays reachable, as with the real platform, which routes around them where it can). ``car_type`` 7 (motorcycle) may not use
  motorways, as on real 자동차전용도로.
* **alternatives:** up to 2 more routes by penalised re-search (edges of earlier routes ×1.6 per use); a
  candidate is kept only if fewer than 80 % of its edges are shared with each earlier route.
* **fare.toll:** sum of the toll of each toll edge driven; car_type 1–2 ×1.0, 3–5 ×1.5, 6 (light car) ×0.5.
  ``car_hipass`` and ``car_fuel`` are accepted and do not change the answer.
* **fare.taxi:** Busan medium taxi meter, rates in force from 2023-06-01 (Busan city notice of May 2023, as
  reported by the press: base fare 4,800 KRW for the first 2 km, then 100 KRW per 132 m, or per 33 s while
  slower than 15 km/h; night surcharge 20 % from 23:00 to 04:00, 30 % from 00:00 to 02:00, by the departure
  time in Korean time): distance driven at ≥ 15 km/h beyond 2 km counts distance units, time on roads slower
  than 15 km/h counts time units. Rounded down to 100 KRW.
* **guides:** one per leg end (type 100 출발지 with ``road_index`` 0, the road the leg starts on, as on the
  real platform; 101 목적지 and 1000 경유지 with ``road_index`` -1) and one per change
  of road (type 0 straight, 1 left, 2 right, 3 U-turn, 5 keep left, 6 keep right from the bearing change;
  ``road_index`` = index of the road entered). A guide's distance/duration are those of the road before it,
  so a section's guides and roads both sum to the section.
* **roads:** consecutive edges with one road name; unnamed junction connectors are folded into the road
  before them (or after them at a leg start). ``traffic_speed`` = distance / duration of the road,
  ``traffic_state`` the worst-weighted state (by length) of its edges.
* Integers: each road's distance and duration are rounded; a section is the sum of its roads, the summary the
  sum of its sections; ``bound`` is the box of the vertexes (section) or of all sections (summary).
"""
from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field

from typing import TYPE_CHECKING

if TYPE_CHECKING:                     # numpy, networkx and the graph load lazily (sandbox start-up stays small)
    import numpy as np

    from .graph import RoadGraph

SCHEMA = ""

AVOIDS = ("roadevent", "ferries", "toll", "motorway", "schoolzone")
PRIORITIES = ("RECOMMEND", "TIME", "DISTANCE")
FUELS = ("GASOLINE", "DIESEL", "LPG")
CAR_TYPES = range(1, 8)
# A point routes from the nearest node of the road graph within this distance, as the real service starts a route on
# the road nearest the point; beyond it the route carries code 101/102/103 (201/203, 301/302 in the many-origin and
# many-destination calls). The real service does not publish its bound, and its road network has every lane; this
# graph has only the roads its addresses trace, so a place between buildings may lie farther from it: 2,000 m takes
# in every legal dong's and ri's representative point (at most 1.7 km off the graph: 내리 in 기장군, then 신호동)
# and leaves the open sea (a point 2 km or more off the coast) without a road.
SNAP_MAX_M = 2000.0
TOO_CLOSE_M = 5.0
MAX_MANY = 30
MAX_ALTERNATIVES = 2
ALT_PENALTY = 1.6
ALT_MAX_SHARED = 0.8
TOLL_FACTOR = {1: 1.0, 2: 1.0, 3: 1.5, 4: 1.5, 5: 1.5, 6: 0.5, 7: 1.0}
SOFT_AVOID_FACTOR = 50.0   # avoid=schoolzone/roadevent: cost multiplier instead of removal
TAXI = {"base": 4800, "base_m": 2000, "unit": 100, "unit_m": 132, "unit_s": 33, "slow_kmh": 15}


def night_surcharge(timestamp: float) -> float:
    """Busan's night surcharge factor at a departure time (Unix seconds): ×1.3 from 00:00 to 02:00 KST,
    ×1.2 from 23:00 to 00:00 and from 02:00 to 04:00, else ×1.0."""
    hour = ((timestamp + 9 * 3600) % 86400) / 3600
    if hour < 2:
        return 1.3
    if hour < 4 or hour >= 23:
        return 1.2
    return 1.0
MSG = {0: "길찾기 성공", 1: "길찾기 결과를 찾을 수 없음", 101: "경유지 주변의 도로를 찾을 수 없음",
       102: "출발지 주변의 도로를 찾을 수 없음", 103: "도착지 주변의 도로를 찾을 수 없음",
       104: "출발지와 도착지가 5 m 이내로 설정된 경우 경로를 탐색할 수 없음",
       105: "출발지 주변의 도로에 교통 장애가 있음", 106: "도착지 주변의 도로에 교통 장애가 있음",
       107: "경유지 주변의 도로에 교통 장애가 있음",
       201: "출발지가 탐색 영역 밖에 있음", 202: "출발지 개수가 최대 개수를 초과함",
       203: "도착지 주변의 도로를 찾을 수 없음", 204: "탐색 시간 제한을 초과함",
       205: "출발지 주변의 도로에 교통 장애가 있음", 206: "도착지 주변의 도로에 교통 장애가 있음",
       207: "출발지가 설정한 반경 밖에 있음",
       301: "출발지 주변의 도로를 찾을 수 없음", 302: "목적지 주변의 도로를 찾을 수 없음",
       303: "목적지 개수가 최대 개수를 초과함", 304: "목적지가 설정한 반경 밖에 있음"}
# (no road, road event) codes per point role
NO_ROAD = {"origin": 102, "destination": 103, "waypoint": 101}
EVENT = {"origin": 105, "destination": 106, "waypoint": 107}


@dataclass
class Point:
    x: float
    y: float
    name: str = ""
    key: str | None = None

    def public(self) -> dict:
        return {"name": self.name, "x": self.x, "y": self.y}


@dataclass
class Options:
    priority: str = "RECOMMEND"
    avoid: tuple[str, ...] = ()
    alternatives: bool = False
    road_details: bool = False
    summary: bool = False
    car_type: int = 1
    car_fuel: str = "GASOLINE"
    car_hipass: bool = False
    when: float | None = None              # timestamp for traffic (future estimate); None = sandbox now


class NoRoute(Exception):
    def __init__(self, code: int):
        self.code = code


def failed(code: int, msg: str | None = None) -> dict:
    return {"result_code": code, "result_msg": msg or MSG[code]}


@dataclass
class Leg:
    nodes: list[int]
    edges: list[int] = field(default_factory=list)


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox

    @property
    def graph(self) -> "RoadGraph":
        from .graph import road_graph

        return road_graph(self.sandbox.datasets)

    # ------------------------------------------------------------------ weights
    def _weights(self, g: RoadGraph, opts: Options, traffic) -> np.ndarray:
        import numpy as np

        if opts.priority == "DISTANCE":
            w = g.elen + 0.001 * traffic.seconds
        elif opts.priority == "TIME":
            w = traffic.seconds.copy()
        else:
            w = traffic.seconds * np.where(g.local, 1.3, 1.0)
        soft = {"schoolzone": g.school, "roadevent": g.event}
        for a in opts.avoid:
            if a in soft:
                w = w * np.where(soft[a], SOFT_AVOID_FACTOR, 1.0)
        return w

    def _blocked(self, g: RoadGraph, opts: Options) -> np.ndarray:
        import numpy as np

        mask = np.zeros(len(g.elen), dtype=bool)
        flags = {"toll": g.toll > 0, "motorway": g.motorway, "ferries": g.ferry}
        for a in opts.avoid:
            if a in flags:
                mask |= flags[a]
        if opts.car_type == 7:
            mask |= g.motorway
        return mask


    def _snap(self, g: RoadGraph, p: Point, code: int, event_code: int | None = None) -> int:
        """The nearest routable node; ``NoRoute(code)`` beyond ``SNAP_MAX_M``; ``NoRoute(event_code)`` when every
        edge at that node is a road event (only asked with ``avoid=roadevent``)."""
        node, dist = g.snap_kept(p.x, p.y)
        if dist > SNAP_MAX_M:
            raise NoRoute(code)
        if event_code is not None and g.all_events_at(node):
            raise NoRoute(event_code)
        return node

    # ------------------------------------------------------------------ single routes
    def directions(self, origin: Point, destination: Point, waypoints: list[Point], opts: Options) -> dict:
        return {"trans_id": uuid.uuid4().hex, "routes": self._routes(origin, destination, waypoints, opts)}

    def _routes(self, origin, destination, waypoints, opts) -> list[dict]:
        import numpy as np

        g = self.graph
        if not waypoints and g.metres(origin.x, origin.y, destination.x, destination.y) <= TOO_CLOSE_M:
            return [failed(104)]
        ev = "roadevent" in opts.avoid
        try:
            stops = [self._snap(g, origin, NO_ROAD["origin"], EVENT["origin"] if ev else None)]
            stops += [self._snap(g, w, NO_ROAD["waypoint"], EVENT["waypoint"] if ev else None) for w in waypoints]
            stops.append(self._snap(g, destination, NO_ROAD["destination"], EVENT["destination"] if ev else None))
        except NoRoute as exc:
            return [failed(exc.code)]
        when = opts.when if opts.when is not None else self.sandbox.clock.timestamp()
        traffic = g.traffic(when)
        w = self._weights(g, opts, traffic)
        blocked = self._blocked(g, opts)
        routes: list[dict] = []
        used: list[set] = []                    # the edges of each route kept
        tries = 1 + (MAX_ALTERNATIVES + 2 if opts.alternatives else 0)
        penalty = np.ones(len(w))
        for _ in range(tries):
            matrix = g.matrix(g.arc_weights(w * penalty, blocked))
            try:
                legs = [self._leg(g, a, b, matrix) for a, b in zip(stops, stops[1:])]
            except NoRoute:
                if not routes:
                    return [failed(1)]
                break
            edges = [e for leg in legs for e in leg.edges]
            eset = set(edges)
            if all(len(eset & prev) < ALT_MAX_SHARED * max(1, len(eset)) for prev in used):
                routes.append(self._route(g, traffic, legs, origin, destination, waypoints, opts))
                used.append(eset)
                if len(routes) > MAX_ALTERNATIVES or not opts.alternatives:
                    break
            for e in edges:
                penalty[e] *= ALT_PENALTY
        return routes

    @staticmethod
    def _leg(g: RoadGraph, a: int, b: int, matrix) -> Leg:
        nodes = g.path(matrix, a, b)
        if nodes is None:
            raise NoRoute(1)
        return Leg(nodes, g.edges_of(nodes))

    # ------------------------------------------------------------------ response building
    def _route(self, g, traffic, legs, origin, destination, waypoints, opts) -> dict:
        stops = [origin, *waypoints, destination]
        sections, all_x, all_y, toll, fast_m, slow_s = [], [], [], 0.0, 0.0, 0.0
        for k, leg in enumerate(legs):
            roads = self._roads(g, traffic, leg)
            section = {"distance": sum(r["distance"] for r in roads), "duration": sum(r["duration"] for r in roads)}
            xs = [float(g.lon[n]) for n in leg.nodes]
            ys = [float(g.lat[n]) for n in leg.nodes]
            all_x += xs
            all_y += ys
            if not opts.summary:
                section["bound"] = _bound(xs, ys)
                section["roads"] = roads
                section["guides"] = self._guides(g, leg, roads, stops[k], stops[k + 1],
                                                 last=k == len(legs) - 1)
            sections.append(section)
            for e in leg.edges:
                toll += g.toll[e] * TOLL_FACTOR.get(opts.car_type, 1.0)
                if traffic.speed[e] < TAXI["slow_kmh"]:
                    slow_s += traffic.seconds[e]
                else:
                    fast_m += g.elen[e]
        units = max(0.0, fast_m - TAXI["base_m"]) / TAXI["unit_m"] + slow_s / TAXI["unit_s"]
        taxi = (TAXI["base"] + TAXI["unit"] * int(units)) * night_surcharge(opts.when if opts.when is not None
                                                                           else self.sandbox.clock.timestamp())
        taxi = int(taxi // 100 * 100)
        summary = {
            "origin": origin.public(), "destination": destination.public(),
            "waypoints": [w.public() for w in waypoints], "priority": opts.priority,
            "bound": _bound(all_x, all_y), "fare": {"taxi": int(taxi), "toll": int(round(toll))},
            "distance": sum(s["distance"] for s in sections), "duration": sum(s["duration"] for s in sections),
        }
        return {"result_code": 0, "result_msg": MSG[0], "summary": summary, "sections": sections}

    @staticmethod
    def _groups(g: RoadGraph, leg: Leg) -> list[tuple[str, int, int]]:
        """(name, first edge position, last edge position) per road of a leg."""
        import numpy as np

        groups: list[list] = []
        pending_start = None
        road_names = g.road_names
        for k, r in enumerate(g.eroad[np.asarray(leg.edges, dtype=np.int64)].tolist()):
            name = road_names[r] if r >= 0 else None           # g.edge_name of each edge, read in one go
            if name is None:
                if groups:
                    groups[-1][2] = k
                elif pending_start is None:
                    pending_start = k
                continue
            if groups and groups[-1][0] == name:
                groups[-1][2] = k
            else:
                start = pending_start if (pending_start is not None and not groups) else k
                groups.append([name, start, k])
                pending_start = None
        if pending_start is not None and not groups:
            groups.append(["연결로", pending_start, len(leg.edges) - 1])
        return [tuple(x) for x in groups]

    def _roads(self, g, traffic, leg: Leg) -> list[dict]:
        roads = []
        for name, k0, k1 in self._groups(g, leg):
            ids = leg.edges[k0:k1 + 1]
            dist = float(sum(g.elen[e] for e in ids))
            secs = float(sum(traffic.seconds[e] for e in ids))
            states: dict[int, float] = {}          # traffic state -> metres in it
            for e in ids:
                states[int(traffic.state[e])] = states.get(int(traffic.state[e]), 0.0) + g.elen[e]
            nodes = leg.nodes[k0:k1 + 2]
            roads.append({
                "name": name, "distance": int(round(dist)), "duration": int(round(secs)),
                "traffic_speed": round(dist / secs * 3.6, 1) if secs > 0 else 0.0,
                "traffic_state": max(states, key=lambda s: (states[s], -s)) if states else 0,
                "vertexes": [c for n in nodes for c in (round(float(g.lon[n]), 6), round(float(g.lat[n]), 6))],
            })
        return roads

    def _guides(self, g, leg: Leg, roads: list[dict], start: Point, end: Point, last: bool) -> list[dict]:
        first = leg.nodes[0]
        guides = [{"name": start.name or "출발지", "x": float(g.lon[first]), "y": float(g.lat[first]),
                   "distance": 0, "duration": 0, "type": 100, "guidance": "출발지",
                   "road_index": 0 if roads else -1}]
        for j in range(1, len(roads)):
            prev, cur = roads[j - 1]["vertexes"], roads[j]["vertexes"]
            turn = _turn(prev[-4:], cur[:4])
            kind, word = TURNS[turn]
            guides.append({"name": roads[j]["name"], "x": cur[0], "y": cur[1],
                           "distance": roads[j - 1]["distance"], "duration": roads[j - 1]["duration"],
                           "type": kind, "guidance": f"{roads[j]['name']} 방면으로 {word}", "road_index": j})
        lastn = leg.nodes[-1]
        kind, word = (101, "목적지") if last else (1000, "경유지")
        guides.append({"name": end.name or word, "x": float(g.lon[lastn]), "y": float(g.lat[lastn]),
                       "distance": roads[-1]["distance"] if roads else 0,
                       "duration": roads[-1]["duration"] if roads else 0,
                       "type": kind, "guidance": word, "road_index": -1})
        return guides

    # ------------------------------------------------------------------ many origins / destinations
    @staticmethod
    def _weights_key(when: float, opts: Options) -> tuple:
        """What the weights of a many-call read: the traffic bucket and the options."""
        from .graph import bucket_of

        return bucket_of(when), opts.priority, tuple(opts.avoid), opts.car_type == 7

    def many_is_quick(self, opts: Options, *, to_target: bool) -> bool:
        """Whether :meth:`many` with ``opts`` would build nothing but (at most) one shortest-path tree: the graph
        loaded, and the weighted graph of this traffic bucket and these options kept. It then takes a few
        milliseconds holding the GIL (a Dijkstra over the city, about 2.5 ms, and the walks), which the route
        runs on the event loop: in a worker thread the same work paid for the hand-offs and waited for the GIL
        (the server answered about 30 % fewer many-origin calls per second)."""
        from .graph import loaded_graph

        g = loaded_graph(self.sandbox.datasets)
        if g is None:
            return False
        when = opts.when if opts.when is not None else self.sandbox.clock.timestamp()
        return g.has_weighted(self._weights_key(when, opts), to_target, when)

    def many(self, sources: list[Point], target: Point, radius: int, opts: Options, *, to_target: bool) -> dict:
        """Summaries from each source to ``target`` (``to_target``) or from ``target`` to each source.

        One Dijkstra from the target over the reversed graph (or from the origin) answers every point; the tree
        is kept per target, traffic bucket and options (a matrix asks for one target once per block of origins),
        the weighted graph per bucket and options, and snapped points per point. The summaries are those of the
        roads a single route shows (each road rounded, then added): toward the target, summed while walking up
        the tree and kept per road start on it (:meth:`_totals_to_root`); from the origin, summed over all paths
        at once (:meth:`_path_totals`).
        """
        g = self.graph
        if len(sources) > MAX_MANY:
            return {"trans_id": uuid.uuid4().hex, "routes": [failed(202 if to_target else 303)]}
        ev = "roadevent" in opts.avoid
        when = opts.when if opts.when is not None else self.sandbox.clock.timestamp()
        try:
            centre = self._snap(g, target, 203 if to_target else 301, 206 if ev and to_target else None)
        except NoRoute as exc:
            return {"trans_id": uuid.uuid4().hex,
                    "routes": [dict(failed(exc.code), key=p.key) for p in sources]}
        traffic = g.traffic(when)
        weighted = self._weights_key(when, opts)

        def arc_weights():
            return g.arc_weights(self._weights(g, opts, traffic), self._blocked(g, opts))

        tree = g.tree(weighted, arc_weights, centre, reverse=to_target)
        out, walk = [], []
        for p in sources:
            far = g.metres(p.x, p.y, target.x, target.y)
            if far > radius:
                out.append(dict(failed(207 if to_target else 304), key=p.key))
                continue
            if far <= TOO_CLOSE_M:
                out.append(dict(failed(104), key=p.key))
                continue
            node, dist = g.snap_kept(p.x, p.y)
            if dist > SNAP_MAX_M:
                out.append(dict(failed(201 if to_target else 302), key=p.key))
                continue
            if ev and to_target and g.all_events_at(node):
                out.append(dict(failed(205), key=p.key))
                continue
            route = {"result_code": 0, "result_msg": MSG[0], "key": p.key, "summary": None}
            out.append(route)
            walk.append((route, node))
        nodes = [node for _, node in walk]
        if to_target:                                    # walks up the tree, summing roads as they go
            summaries = self._totals_to_root(g, traffic, tree, nodes)
        else:                                            # target → destination: the tree's paths, reversed
            walks = g.tree_walks(tree, nodes)
            totals = iter(self._path_totals(g, traffic, [w[::-1] for w in walks if w is not None], tree.roads))
            summaries = [None if w is None else next(totals) for w in walks]
        for (route, _), summary in zip(walk, summaries):
            if summary is None:                          # no path: the route carries code 1
                key = route["key"]
                route.clear()
                route.update(failed(1), key=key)
            else:
                route["summary"] = summary
        return {"trans_id": uuid.uuid4().hex, "routes": out}

    @staticmethod
    def _totals_to_root(g: RoadGraph, traffic, tree, nodes: list[int]) -> list[dict | None]:
        """``{"distance", "duration"}`` of the path from each node up a reversed tree to its root, as
        :meth:`_roads` sums a route (each road's metres and seconds added in path order by Python's ``sum``,
        rounded, then the roads added), or None where the node has no path (unreached, or only over a blocked arc).

        Where a road starts on a path to the root, what follows is the same for every path through that node: a
        road starts at a named edge whose name differs from the road before it (an edge without a name belongs to
        the road before it, or to the first named one), so from there on the roads are those of the path that
        starts at that node. Those summaries are kept on the tree (``tree.suffix``), and a walk goes only as far
        as its first road: a matrix's calls for one target walk each part of the tree once."""
        from .graph import BLOCKED

        pred, root, cost, up, suffix = tree.pred, tree.root, tree.cost, tree.up, tree.suffix
        names, elen, seconds = g.ename_list, g.elen, traffic.seconds

        def road(edges: list[int]) -> tuple[int, int]:
            return round(sum(elen[edges].tolist())), round(sum(seconds[edges].tolist()))  # round(): half to even

        def first_road(node: int) -> tuple[list[int], int]:
            """The edges of the first road of the path from ``node``, and the node where the next one starts
            (``root`` when it is the last)."""
            edges, name = [], -1
            while node != root:
                e = up[node]
                n = names[e]
                if n >= 0:
                    if name < 0:
                        name = n
                    elif n != name:
                        break
                edges.append(e)
                node = pred[node]
            return edges, node

        out: list[dict | None] = []
        for b in nodes:
            if not cost[b] < BLOCKED:                    # inf, nan or blocked
                out.append(None)
                continue
            if b in suffix:
                m, t = suffix[b]
                out.append({"distance": m, "duration": t})
                continue
            edges, nxt = first_road(b)
            chain = [(b if b != root and names[up[b]] >= 0 else None, road(edges))]   # b itself starts a road?
            while nxt != root and nxt not in suffix:     # each next road start, until one with a known summary
                edges, after = first_road(nxt)
                chain.append((nxt, road(edges)))
                nxt = after
            m, t = suffix[nxt] if nxt != root else (0, 0)
            for start, (rm, rt) in reversed(chain):
                m, t = m + rm, t + rt
                if start is not None:
                    suffix[start] = (m, t)
            out.append({"distance": m, "duration": t})
        return out

    @staticmethod
    def _path_totals(g: RoadGraph, traffic, paths: list[list[int]], kept: dict | None = None) -> list[dict]:
        """``{"distance", "duration"}`` of each node path as :meth:`_roads` sums it (each road's distance and
        duration rounded, then added), for all paths at once: the edges of every path in one look-up, the roads
        (:meth:`_groups`: a road without a name belongs to the road before it, or to the first named one) as runs
        of equal road names, and each road's metres and seconds added in path order by Python's ``sum``, as
        :meth:`_roads` adds them (the same doubles, in the same order).

        The paths start at the root of one shortest-path tree (many destinations) and share their beginnings,
        and with them their roads: ``kept`` (the tree's dict) holds each road's rounded (metres, seconds) under
        the node where it ends (where the next road starts), which the one tree path from the root fixes; the
        last road of a path is always summed. (Paths toward a root are summed by :meth:`_totals_to_root`.)"""
        from itertools import chain

        import numpy as np

        if not paths:
            return []
        kept = {} if kept is None else kept
        sizes = np.fromiter(map(len, paths), dtype=np.int64, count=len(paths))
        flat = np.fromiter(chain.from_iterable(paths), dtype=np.int64, count=int(sizes.sum()))
        ends = np.cumsum(sizes)                                   # node positions: path i is [ends[i-1], ends[i])
        inner = np.ones(max(len(flat) - 1, 0), dtype=bool)
        inner[ends[:-1] - 1] = False                              # no arc from the end of one path to the next
        pairs = np.flatnonzero(inner)                             # flat position of each edge's first node
        edges = g.arcs_between(flat[pairs], flat[pairs + 1])
        m = len(edges)
        counts = sizes - 1                                        # edges per path
        first = np.concatenate(([0], np.cumsum(counts)[:-1]))     # edge position where each path starts
        owner = np.repeat(np.arange(len(paths)), counts)
        name = g.ename[edges]
        pos = np.arange(m)
        # the road name each edge counts under: the last name at or before it in its path, else the next one
        last = np.maximum.accumulate(np.where(name >= 0, pos, -1)) if m else pos
        nxt = np.minimum.accumulate(np.where(name >= 0, pos, m)[::-1])[::-1] if m else pos
        own_first, own_end = first[owner], (first + counts)[owner]
        eff = np.where(last >= own_first, name[np.maximum(last, 0)],
                       np.where(nxt < own_end, name[np.minimum(nxt, m - 1)], -1))
        starts = np.ones(m, dtype=bool)
        starts[1:] = eff[1:] != eff[:-1]
        starts[first[counts > 0]] = True
        bounds = np.flatnonzero(starts)                           # each road: [bounds[k], bounds[k + 1]) edges
        stops = np.append(bounds[1:], m)[:len(bounds)]                # (no road: no stop)
        # the road's last node; -1: a path's last road
        keys = np.where(np.isin(stops, first + counts), -1, flat[pairs[stops - 1] + 1])
        lengths, seconds = g.elen[edges].tolist(), traffic.seconds[edges].tolist()
        road_m, road_s = [], []
        for key, a, b in zip(keys.tolist(), bounds.tolist(), stops.tolist()):
            hit = kept.get(key)
            if hit is None:
                hit = (round(sum(lengths[a:b])), round(sum(seconds[a:b])))     # round() of a float: half to even
                if key >= 0:
                    kept[key] = hit
            road_m.append(hit[0])
            road_s.append(hit[1])
        owner_of_road = owner[bounds]
        distance = np.bincount(owner_of_road, weights=road_m, minlength=len(paths)).astype(np.int64)
        duration = np.bincount(owner_of_road, weights=road_s, minlength=len(paths)).astype(np.int64)
        return [{"distance": d, "duration": t} for d, t in zip(distance.tolist(), duration.tolist())]


TURNS = {"straight": (0, "직진"), "left": (1, "좌회전"), "right": (2, "우회전"), "uturn": (3, "유턴"),
         "keep_left": (5, "왼쪽 방향"), "keep_right": (6, "오른쪽 방향")}


def _turn(a: list[float], b: list[float]) -> str:
    """Classify the bearing change between the last segment ``a`` and the first segment ``b`` (flat x,y)."""
    from .graph import MX, MY

    if len(a) < 4 or len(b) < 4:
        return "straight"
    h1 = math.atan2((a[3] - a[1]) * MY, (a[2] - a[0]) * MX)
    h2 = math.atan2((b[3] - b[1]) * MY, (b[2] - b[0]) * MX)
    if (a[2] == a[0] and a[3] == a[1]) or (b[2] == b[0] and b[3] == b[1]):
        return "straight"
    d = math.degrees((h2 - h1 + math.pi) % (2 * math.pi) - math.pi)   # + = counter-clockwise = left
    if abs(d) < 20:
        return "straight"
    if abs(d) > 160:
        return "uturn"
    if abs(d) < 45:
        return "keep_left" if d > 0 else "keep_right"
    return "left" if d > 0 else "right"


def _bound(xs: list[float], ys: list[float]) -> dict:
    if not xs:
        return {"min_x": 0.0, "min_y": 0.0, "max_x": 0.0, "max_y": 0.0}
    return {"min_x": round(min(xs), 6), "min_y": round(min(ys), 6), "max_x": round(max(xs), 6),
            "max_y": round(max(ys), 6)}
