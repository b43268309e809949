"""Public-transit routing of the sandbox: ``GET {local_url}/v2/routing/publictraffic`` (location §4.7).

The spec names the endpoint and its header (``Authorization: ServiceAK <REST API key>``) only; parameters and
response are "not shown". Everything below is the sandbox's choice (DESIGN.md "Sandbox fidelity": the simplest
behaviour consistent with the directions resources of §2 and the parameters of §4.8), written down here.

**Request** (query string):

* ``origin``, ``destination`` (required): ``x,y`` or ``x,y,name=<name>`` in WGS84, as in §4.8 (x -180…180,
  y -90…90).
* ``departure_time`` (optional): ``yyyyMMddHHmm`` in Korean time (the format of the navi future estimate);
  default the current sandbox minute. Any valid time is accepted (past ones too): it only decides whether the
  subway runs and sets ``summary.departure_time`` / ``arrival_time``.
* ``max_walk`` (optional): metres, integer 100…5000, default 1000; the longest walk allowed for each walking
  leg (to the first station, from the last station, and for the walk-only itinerary). Walking distances are
  the ones of the legs (detour factor applied, see below).
* Anything else broken (missing point, bad number, bound) is HTTP 400 ``{"code": -2, "msg": ...}``; a missing
  or wrong key is HTTP 401 ``{"code": -401}``, checked before the parameters.
* No quota: the API catalogue (``toolkit/data/status/catalog.json``) has no API id for this endpoint, so no daily
  limit can be set for it and none is charged. Requests are logged in the local request log (control API
  ``/sandbox/local/requests``) under the sandbox-only id ``local_routing_publictraffic``.

**Network**: Busan Metro lines 1–4 and the 부산김해경전철 light rail, every station in order (the whole lines, as
the KRIC station code table lists them), from ``toolkit/data/local/transit_stations.csv`` (built by
``datasets/build/build_transit.py``: real address points of the station buildings, the same point for a transfer
station on both lines, else an estimate from businesses named after the station (``point_source`` in the file); a
station with no point keeps its place in the line order: trains pass it and it counts as a stop, but nobody
boards, alights or changes there). The file's 동해선 rows (``routed`` 0: a national-rail line with its own fares)
are subway-station places of the search, not ridden. No buses.

**Model** (all constants below are sandbox assumptions unless a source is named):

* Walking: straight-line (haversine) distance × ``WALK_DETOUR`` 1.3, at 4.5 km/h (1.25 m/s). Rounded to whole
  metres and seconds per leg.
* Riding: ``HOP_SECONDS`` 120 s per station-to-station hop (dwell included). A subway leg's distance is the sum
  of the straight lines between the consecutive stations *with a point* between its ends. Before the first
  train ``WAIT_SECONDS`` 180 s (half a 6-minute headway); a transfer — at a station served by both lines with a point in the data,
  at most two (e.g. line 4 → 3 at 미남 → 2 at 수영) — costs ``TRANSFER_SECONDS`` 300 s each (platform walk and wait). Waits are inside the subway leg's
  ``duration`` and shown in its ``wait``.
* Service hours: trains run 05:00–24:00 Korean time; a trip whose first boarding (departure + first walk)
  falls outside has no subway itinerary.
* Fare (``summary.fare.transit``, KRW, adult transit card): 1,600 for a ride under 10 km (1 section), 1,800
  from 10 km (2 sections: +200), one fare per trip (a transfer between Busan Metro lines is free); 0 for a
  walk-only itinerary. Source: Busan Transportation Corporation (humetro.busan.kr, "환승 운임": adult 1,600 KRW,
  "도시철도 2구간 이용할 경우, 추가운임 부과(어른 200원)") and the section rule "10km 미만 1구간, 10km 이상
  2구간" as published in fare tables. The distance compared with 10 km is the sandbox's ridden distance
  (straight lines between stations), not the official operating distance.

**Itineraries**: the fastest subway itinerary over every pair (boarding station within ``max_walk`` of the
origin, alighting station within ``max_walk`` of the destination, different stations); ties: fewer transfers,
then shorter distance, then line order. Plus a walk-only itinerary when its walk is ≤ ``max_walk``. The subway
itinerary is dropped when the walk-only one exists and is not slower (nobody rides to arrive later).
``routes`` is sorted by duration (walk-only first on a tie).

**Response** (HTTP 200), in the style of the §2 directions resources::

    {"trans_id": "<32 hex>",
     "routes": [{"result_code": 0, "result_msg": "길찾기 성공",
                 "summary": {"origin": {name, x, y}, "destination": {name, x, y},
                             "departure_time": "yyyyMMddHHmm", "arrival_time": "yyyyMMddHHmm",
                             "distance": int m, "duration": int s, "transfers": int,
                             "fare": {"transit": int KRW}},
                 "legs": [{"mode": "WALK"|"SUBWAY", "line": null|"1호선"|"2호선",
                           "from": {name, x, y}, "to": {name, x, y},
                           "distance": int m, "duration": int s, "wait": int s, "stops": int}]}]}

A subway itinerary's legs are always WALK, SUBWAY, [SUBWAY,] WALK (walking legs of 0 m are kept); a walk-only
itinerary has one WALK leg. ``stops`` = hops ridden (stations passed including the one alighted at; 0 for
WALK). Station points are named ``<station>역`` (``남포역``); origin/destination keep the given name (``""``
when none). ``summary.distance`` / ``duration`` are the sums of the legs; ``arrival_time`` = departure +
duration, rounded down to the minute.

**No route** (HTTP 200, one route with only ``result_code`` and ``result_msg``, as the navi sandbox does):
104 origin and destination within 5 m of each other; 102 no station within ``max_walk`` of the origin (and the
walk is too long); 103 the same for the destination; 1 otherwise (e.g. both ends only near the same station, or
no train at that hour and the walk is too long). The codes mirror the navi sandbox's.
"""
from __future__ import annotations

import csv
import functools
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..web import Params, api_error, json_response, read_fields, require_app_key, sandbox_of
from .models import haversine

__all__ = ["public_transit", "plan", "load_network", "MAX_WALK_MIN", "MAX_WALK_MAX", "MAX_WALK_DEFAULT"]

KST = timezone(timedelta(hours=9))
API_ID = "local_routing_publictraffic"  # sandbox-only id for the request log (not in the quota catalogue)
MAX_WALK_MIN, MAX_WALK_MAX, MAX_WALK_DEFAULT = 100, 5000, 1000
WALK_DETOUR = 1.3
WALK_SPEED = 4.5 / 3.6          # m/s
HOP_SECONDS = 120
WAIT_SECONDS = 180
TRANSFER_SECONDS = 300
SERVICE_START_H, SERVICE_END_H = 5, 24
FARE_1, FARE_2, SECTION_M = 1600, 1800, 10_000
SAME_POINT_M = 5.0
MSG = {0: "길찾기 성공", 1: "길찾기 결과를 찾을 수 없음", 102: "출발지 주변의 역을 찾을 수 없음",
       103: "도착지 주변의 역을 찾을 수 없음", 104: "출발지와 도착지가 5 m 이내로 설정된 경우 경로를 탐색할 수 없음"}


@dataclass(frozen=True)
class Stop:
    line: str
    seq: int
    station: str
    x: float | None
    y: float | None


@dataclass
class Network:
    lines: dict[str, list[Stop]]            # line → stops in order (points may be None)
    along: dict[str, dict[int, float]]      # line → seq → metres along the line (stations with a point)
    stations: dict[str, tuple[float, float, tuple[str, ...]]]   # name → (x, y, lines) for boardable ones


@functools.lru_cache(maxsize=4)
def load_network(path: Path) -> Network:
    lines: dict[str, list[Stop]] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            if r.get("routed", "1") != "1":     # the 동해선: its stations are places, the router does not ride it
                continue
            has = r["in_data"] == "1"
            lines.setdefault(r["line"], []).append(Stop(r["line"], int(r["seq"]), r["station"],
                                                        float(r["x"]) if has else None,
                                                        float(r["y"]) if has else None))
    along: dict[str, dict[int, float]] = {}
    stations: dict[str, tuple[float, float, tuple[str, ...]]] = {}
    for line, stops in lines.items():
        stops.sort(key=lambda s: s.seq)
        pos: dict[int, float] = {}
        prev: tuple[float, float] | None = None      # the point of the last stop with one
        acc = 0.0
        for s in stops:
            if s.x is None or s.y is None:              # both or neither (in_data)
                continue
            if prev is not None:
                acc += haversine(prev[0], prev[1], s.x, s.y)
            pos[s.seq], prev = acc, (s.x, s.y)
            x, y, on = stations.get(s.station, (s.x, s.y, ()))
            stations[s.station] = (x, y, on + (line,))
        along[line] = pos
    return Network(lines, along, stations)


def _pt(name: str, x: float, y: float) -> dict:
    return {"name": name, "x": x, "y": y}


def _walk(a: dict, b: dict) -> dict:
    dist = round(haversine(a["x"], a["y"], b["x"], b["y"]) * WALK_DETOUR)
    return {"mode": "WALK", "line": None, "from": a, "to": b, "distance": dist,
            "duration": round(dist / WALK_SPEED), "wait": 0, "stops": 0}


def _ride(net: Network, line: str, a: str, b: str, wait: int) -> dict:
    seq = {s.station: s.seq for s in net.lines[line]}
    sa, sb = seq[a], seq[b]
    hops = abs(sa - sb)
    dist = round(abs(net.along[line][sa] - net.along[line][sb]))
    xa, ya, _ = net.stations[a]
    xb, yb, _ = net.stations[b]
    return {"mode": "SUBWAY", "line": line, "from": _pt(a + "역", xa, ya), "to": _pt(b + "역", xb, yb),
            "distance": dist, "duration": wait + hops * HOP_SECONDS, "wait": wait, "stops": hops}


def _transfers(net: Network, l1: str, l2: str) -> list[str]:
    """Stations with a point on both lines (where one can change trains)."""
    return [name for name, (_, _, on) in net.stations.items() if l1 in on and l2 in on]


def _rides(net: Network, a: str, b: str) -> list[list[dict]]:
    """Every way to ride from station a to station b: one line, or up to ``MAX_TRANSFERS`` changes at stations
    served by both lines (서면, 연산, 수영, 덕천, 미남, 동래, 사상 … wherever the data has their point)."""
    la, lb = net.stations[a][2], net.stations[b][2]
    out = [[_ride(net, line, a, b, WAIT_SECONDS)] for line in la if line in lb]
    for l1 in la:
        for l2 in lb:
            if l1 == l2:
                continue
            for t in _transfers(net, l1, l2):
                if t not in (a, b):
                    out.append([_ride(net, l1, a, t, WAIT_SECONDS), _ride(net, l2, t, b, TRANSFER_SECONDS)])
            for mid in net.lines:
                if mid in (l1, l2):
                    continue
                for t1 in _transfers(net, l1, mid):
                    for t2 in _transfers(net, mid, l2):
                        if len({a, t1, t2, b}) == 4:
                            out.append([_ride(net, l1, a, t1, WAIT_SECONDS),
                                        _ride(net, mid, t1, t2, TRANSFER_SECONDS),
                                        _ride(net, l2, t2, b, TRANSFER_SECONDS)])
    return out


def _fmt_time(ts: float) -> str:
    return datetime.fromtimestamp(ts, KST).strftime("%Y%m%d%H%M")


def _route(origin: dict, destination: dict, legs: list[dict], depart: float) -> dict:
    dist = sum(leg["distance"] for leg in legs)
    dur = sum(leg["duration"] for leg in legs)
    subway_m = sum(leg["distance"] for leg in legs if leg["mode"] == "SUBWAY")
    rides = sum(1 for leg in legs if leg["mode"] == "SUBWAY")
    fare = 0 if not rides else (FARE_1 if subway_m < SECTION_M else FARE_2)
    summary = {"origin": origin, "destination": destination, "departure_time": _fmt_time(depart),
               "arrival_time": _fmt_time(depart + dur), "distance": dist, "duration": dur,
               "transfers": max(0, rides - 1), "fare": {"transit": fare}}
    return {"result_code": 0, "result_msg": MSG[0], "summary": summary, "legs": legs}


def _in_service(ts: float) -> bool:
    return SERVICE_START_H <= datetime.fromtimestamp(ts, KST).hour < SERVICE_END_H


def plan(net: Network, origin: dict, destination: dict, depart: float, max_walk: int) -> list[dict]:
    """The ``routes`` of one request (see the module docstring)."""
    if haversine(origin["x"], origin["y"], destination["x"], destination["y"]) <= SAME_POINT_M:
        return [{"result_code": 104, "result_msg": MSG[104]}]
    walk_only = _walk(origin, destination)
    routes = []
    if walk_only["distance"] <= max_walk:
        routes.append(_route(origin, destination, [walk_only], depart))

    def near(p):
        found = {}
        for name, (x, y, _) in net.stations.items():
            leg_a = _walk(p, _pt(name + "역", x, y))
            if leg_a["distance"] <= max_walk:
                found[name] = leg_a
        return found

    starts = near(origin)
    ends = {k: {**v, "from": v["to"], "to": v["from"]} for k, v in near(destination).items()}
    best, best_key = None, None
    for a, walk_in in starts.items():
        if not _in_service(depart + walk_in["duration"]):
            continue
        for b, walk_out in ends.items():
            if a == b:
                continue
            for rides in _rides(net, a, b):
                legs = [walk_in, *rides, walk_out]
                key = (sum(leg["duration"] for leg in legs), len(rides), sum(leg["distance"] for leg in legs),
                       [r["line"] for r in rides], a, b)
                if best_key is None or key < best_key:
                    best, best_key = legs, key
    if best is not None and best_key is not None and (not routes or best_key[0] < routes[0]["summary"]["duration"]):
        routes.append(_route(origin, destination, [dict(leg) for leg in best], depart))
    if routes:
        return sorted(routes, key=lambda r: r["summary"]["duration"])
    code = 102 if not starts else 103 if not ends else 1
    return [{"result_code": code, "result_msg": MSG[code]}]


def _point(p: Params, name: str) -> dict:
    from ..navi.routes import parse_point_text  # same x,y[,name=] formats and -2 errors as §4.8

    text = p.str(name, required=True)
    pt = parse_point_text(text, name)
    return _pt(pt.name, pt.x, pt.y)


async def public_transit(request: Request):
    sb = sandbox_of(request)
    sb.model("local").record(API_ID)
    require_app_key(request, kinds=("rest_api",))   # no quota: see the module docstring
    p = Params(await read_fields(request))
    origin, destination = _point(p, "origin"), _point(p, "destination")
    raw = p.str("departure_time")
    if raw is None:
        now = sb.clock.timestamp()
        depart = now - now % 60
    else:
        try:
            if len(raw) != 12 or not raw.isdigit():
                raise ValueError
            depart = datetime.strptime(raw, "%Y%m%d%H%M").replace(tzinfo=KST).timestamp()
        except ValueError:
            raise api_error(400, -2, "departure_time must be yyyyMMddHHmm (Korean time)") from None
    max_walk = p.int("max_walk", MAX_WALK_DEFAULT, lo=MAX_WALK_MIN, hi=MAX_WALK_MAX)
    net = load_network(Path(sb.datasets) / "local" / "transit_stations.csv")
    routes = await run_in_threadpool(plan, net, origin, destination, depart, max_walk)
    return json_response({"trans_id": uuid.uuid4().hex, "routes": routes})
