"""folium maps of driving directions (folium is imported lazily, only when a map is drawn).

* :func:`route_map` — each road of the first route as a polyline coloured by ``traffic_state`` (with a
  legend), alternatives as dashed lines in other colours, guide points with the guidance text, origin /
  waypoint / destination markers.
* :func:`origins_map` — many-origin (or many-destination) summaries: one circle per point sized by driving
  time, coloured by success, and the common destination (origin).

The maps load nothing from a CDN (see :mod:`toolkit.mapassets`) and number their element ids
deterministically, so they can be stored in a notebook checked by nbval and ``m.save(path)`` draws offline.
This module does not import :mod:`toolkit.navi` (the code tables live in :mod:`toolkit.navicodes`).

>>> r = tk.navi.directions((129.03, 35.10), (129.06, 35.157), waypoints=[(129.04, 35.12)])  # doctest: +SKIP
>>> route_map(r)                                                                          # doctest: +SKIP
"""
from __future__ import annotations

from .mapassets import add_legend, dot_icon, new_map, resolve_tiles
from .maps import fit
from .navicodes import GUIDE_TYPES, GUIDE_TYPES_EN, TRAFFIC_STATES, TRAFFIC_STATES_EN, result_en

__all__ = ["route_map", "origins_map", "TRAFFIC_COLORS", "ALT_COLORS", "WORDS"]

#: The words of the maps, per ``lang=`` ("ko" or "en"): legends, tooltips and markers speak one language.
WORDS = {
    "ko": {"traffic": "교통 상황 (코드)", "alternative": "대안 경로 {i}", "route": "경로 {i}: {distance:,} m, {minutes}분, 택시 "
           "{taxi:,}원", "road": "{name}: {distance} m, {speed} km/h, {state}", "origin": "출발", "waypoint": "경유 {n}",
           "destination": "도착", "states": TRAFFIC_STATES, "guides": GUIDE_TYPES, "drive_time": "운전 시간",
           "found": "경로 있음 (크기 = 시간)", "no_route": "경로 없음", "common": {"destination": "공통 목적지",
                                                                             "origin": "공통 출발지"},
           "tip": "{key}: {minutes}분, {distance:,} m", "center": {"destination": "목적지", "origin": "출발지"}},
    "en": {"traffic": "traffic state (code)", "alternative": "alternative {i}", "route": "route {i}: {distance:,} m, {minutes} min, "
           "taxi {taxi:,} KRW", "road": "{name}: {distance} m, {speed} km/h, {state}", "origin": "origin",
           "waypoint": "waypoint {n}", "destination": "destination", "states": TRAFFIC_STATES_EN,
           "guides": GUIDE_TYPES_EN, "drive_time": "drive time", "found": "route found (size = duration)",
           "no_route": "no route", "common": {"destination": "common destination", "origin": "common origin"},
           "tip": "{key}: {minutes} min, {distance:,} m", "center": {"destination": "destination",
                                                                   "origin": "origin"}},
}


def _words(lang: str) -> dict:
    if lang not in WORDS:
        raise ValueError(f"lang must be 'ko' or 'en', not {lang!r}")
    return WORDS[lang]

#: traffic_state → colour (0 no information, 1 jammed, 2 delayed, 3 slow, 4 smooth)
TRAFFIC_COLORS = {0: "#7f7f7f", 1: "#d62728", 2: "#ff7f0e", 3: "#f2c80f", 4: "#2ca02c", 6: "#000000"}
ALT_COLORS = ("#1f77b4", "#9467bd", "#8c564b", "#e377c2")


def _center(bound: dict) -> list[float]:
    return [(bound["min_y"] + bound["max_y"]) / 2, (bound["min_x"] + bound["max_x"]) / 2]


def _line(route: dict) -> list[list[float]]:
    out: list[list[float]] = []
    for s in route.get("sections") or []:
        for rd in s.get("roads") or []:
            v = rd.get("vertexes") or []
            for x, y in zip(v[0::2], v[1::2]):
                if not out or out[-1] != [y, x]:
                    out.append([y, x])
    return out


def route_map(directions, *, guides: bool = True, tiles: str | None = None, width="100%", height=520,
              lang: str = "ko"):
    """A folium ``Map`` of a :class:`toolkit.navi.Directions` (or its raw body): the first route's roads
    coloured by traffic state (legend in the corner; hover a road for name, speed and state), alternatives
    dashed, guide points as small dots (hover for the guidance), and markers S (origin), 1, 2 … (waypoints),
    E (destination). ``tiles``: the base layer (default: the answer's client's — the sandbox's own tiles in
    the sandbox, OpenStreetMap against the service). ``lang``: ``"ko"`` (default: 교통 상황 (코드), 지체 (2), 대안
    경로 1) or ``"en"`` (traffic state (code), delayed (2), alternative 1) for the legend, the tooltips and the
    markers. The number after a state in the legend is its ``traffic_state`` code (1 jammed … 4 smooth, 0 no
    information), as in the route's ``roads`` frame; the legend's title says so.

    >>> route_map(tk.navi.directions((129.03, 35.10), (129.06, 35.157), alternatives=True), lang="en")  # doctest: +SKIP
    """
    import folium

    words = _words(lang)
    body = getattr(directions, "raw", directions)
    routes = (body or {}).get("routes") or []
    ok = [r for r in routes if r.get("result_code") == 0]
    if not ok:
        raise ValueError("no successful route to draw")
    bound = ok[0]["summary"]["bound"]
    m = new_map(_center(bound), zoom_start=14, tiles=resolve_tiles(tiles, directions), width=width,
                height=height)
    states_seen = set()
    for i in range(len(routes) - 1, -1, -1):          # alternatives below the main route
        r = routes[i]
        if r.get("result_code") != 0:
            continue
        s = r["summary"]
        label = words["route"].format(i=i, distance=s["distance"], minutes=s["duration"] // 60,
                                      taxi=s["fare"]["taxi"])
        if i > 0:
            folium.PolyLine(_line(r), color=ALT_COLORS[(i - 1) % len(ALT_COLORS)], weight=5, opacity=0.7,
                            dash_array="8 6", tooltip=label).add_to(m)
            continue
        for sec in r.get("sections") or []:
            for rd in sec.get("roads") or []:
                v = rd["vertexes"]
                states_seen.add(rd["traffic_state"])
                tip = words["road"].format(name=rd["name"], distance=rd["distance"], speed=rd["traffic_speed"],
                                           state=words["states"].get(rd["traffic_state"], rd["traffic_state"]))
                folium.PolyLine([[y, x] for x, y in zip(v[0::2], v[1::2])],
                                color=TRAFFIC_COLORS.get(rd["traffic_state"], "#7f7f7f"), weight=7, opacity=0.9,
                                tooltip=tip).add_to(m)
            if guides:
                for g in sec.get("guides") or []:
                    if g["type"] in (100, 101, 1000):
                        continue
                    folium.CircleMarker([g["y"], g["x"]], radius=4, color="#333333", weight=1, fill=True,
                                        fill_color="#ffffff", fill_opacity=1,
                                        tooltip=f"{words['guides'].get(g['type'], g['type'])}: {g['guidance']}"
                                        ).add_to(m)
        folium.Marker([s["origin"]["y"], s["origin"]["x"]], tooltip=f"{words['origin']} {s['origin'].get('name', '')}",
                      icon=dot_icon("#2ca02c", 18, "S")).add_to(m)
        for n, w in enumerate(s.get("waypoints") or []):
            folium.Marker([w["y"], w["x"]], tooltip=f"{words['waypoint'].format(n=n + 1)} {w.get('name', '')}",
                          icon=dot_icon("#1f77b4", 18, str(n + 1))).add_to(m)
        folium.Marker([s["destination"]["y"], s["destination"]["x"]],
                      tooltip=f"{words['destination']} {s['destination'].get('name', '')}",
                      icon=dot_icon("#d62728", 18, "E")).add_to(m)
    items = [(TRAFFIC_COLORS[k], f"{words['states'][k]} ({k})") for k in sorted(states_seen) if k in TRAFFIC_COLORS]
    items += [(ALT_COLORS[(i - 1) % len(ALT_COLORS)], words["alternative"].format(i=i)) for i in range(1, len(routes))
              if routes[i].get("result_code") == 0]
    add_legend(m, words["traffic"], items)
    # the whole of every route drawn (the summary's bound is the main route's), with room for the markers
    drawn = [pt for r in routes if r.get("result_code") == 0 for pt in _line(r)]
    lats = [p[0] for p in drawn] + [bound["min_y"], bound["max_y"]]
    lons = [p[1] for p in drawn] + [bound["min_x"], bound["max_x"]]
    fit(m, ((min(lats), min(lons)), (max(lats), max(lons))), padding=40)
    return m


def origins_map(frame, *, tiles: str | None = None, width="100%", height=520, lang: str = "en"):
    """A folium ``Map`` of a many-origin / many-destination frame (``tk.navi.origins(...)``): circles sized by
    duration (bigger = longer drive; hover for time and distance), red where no route was found (hover for why: in
    English beside the service's Korean message with ``lang="en"``), the common destination (or origin) as a large
    dot. ``tiles``: as in :func:`route_map`; ``lang``: ``"en"`` (default)
    or ``"ko"`` for the legend and the tooltips.

    >>> origins_map(tk.navi.origins([("a", 129.03, 35.10), ("b", 129.08, 35.17)], (129.06, 35.157)))  # doctest: +SKIP
    """
    import folium

    words = _words(lang)
    center = frame.attrs.get("meta", {}).get("center") or {}
    lat = [float(v) for v in frame["y"].dropna()] + ([center["y"]] if center else [])
    lon = [float(v) for v in frame["x"].dropna()] + ([center["x"]] if center else [])
    if not lat:
        raise ValueError("the frame has no points to draw")
    m = new_map([sum(lat) / len(lat), sum(lon) / len(lon)], zoom_start=13, tiles=resolve_tiles(tiles, frame),
                width=width, height=height)
    ok = frame[frame["result_code"] == 0]
    longest = float(ok["duration"].max()) if len(ok) else 1.0
    for row in frame.itertuples(index=False):
        good = row.result_code == 0
        radius = 4 + 14 * (float(row.duration) / longest if good and longest else 0)
        tip = (words["tip"].format(key=row.key, minutes=int(row.duration) // 60, distance=int(row.distance)) if good
               else f"{row.key}: {result_en(row.result_code)} ({row.result_msg})" if lang == "en"
               else f"{row.key}: {row.result_msg}")
        folium.CircleMarker([row.y, row.x], radius=radius, color="#1f77b4" if good else "#d62728", fill=True,
                            fill_opacity=0.6, tooltip=tip).add_to(m)
    role = frame.attrs.get("meta", {}).get("role", "destination")
    if center:
        folium.Marker([center["y"], center["x"]], tooltip=words["center"].get(role, role),
                      icon=dot_icon("#d62728", 20, "D" if role == "destination" else "O")).add_to(m)
    add_legend(m, words["drive_time"], [("#1f77b4", words["found"]), ("#d62728", words["no_route"]),
                                        ("#d62728", words["common"].get(role, role))])
    fit(m, ((min(lat), min(lon)), (max(lat), max(lon))), padding=32)
    return m
