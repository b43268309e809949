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
from .navicodes import GUIDE_TYPES, TRAFFIC_STATES

__all__ = ["route_map", "origins_map", "TRAFFIC_COLORS", "ALT_COLORS"]

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


def route_map(directions, *, guides: bool = True, tiles: str | None = None, width="100%", height=520):
    """A folium ``Map`` of a :class:`toolkit.navi.Directions` (or its raw body): the first route's roads
    coloured by traffic state (legend in the corner; hover a road for name, speed and state), alternatives
    dashed, guide points as small dots (hover for the guidance), and markers S (origin), 1, 2 … (waypoints),
    E (destination). ``tiles``: the base layer (default: the answer's client's — the sandbox's own tiles in
    the sandbox, OpenStreetMap against the service).

    >>> route_map(tk.navi.directions((129.03, 35.10), (129.06, 35.157), alternatives=True))  # doctest: +SKIP
    """
    import folium

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
        label = f"route {i}: {s['distance']:,} m, {s['duration'] // 60} min, taxi {s['fare']['taxi']:,} KRW"
        if i > 0:
            folium.PolyLine(_line(r), color=ALT_COLORS[(i - 1) % len(ALT_COLORS)], weight=5, opacity=0.7,
                            dash_array="8 6", tooltip=label).add_to(m)
            continue
        for sec in r.get("sections") or []:
            for rd in sec.get("roads") or []:
                v = rd["vertexes"]
                states_seen.add(rd["traffic_state"])
                tip = (f"{rd['name']}: {rd['distance']} m, {rd['traffic_speed']} km/h, "
                       f"{TRAFFIC_STATES.get(rd['traffic_state'], rd['traffic_state'])}")
                folium.PolyLine([[y, x] for x, y in zip(v[0::2], v[1::2])],
                                color=TRAFFIC_COLORS.get(rd["traffic_state"], "#7f7f7f"), weight=7, opacity=0.9,
                                tooltip=tip).add_to(m)
            if guides:
                for g in sec.get("guides") or []:
                    if g["type"] in (100, 101, 1000):
                        continue
                    folium.CircleMarker([g["y"], g["x"]], radius=4, color="#333333", weight=1, fill=True,
                                        fill_color="#ffffff", fill_opacity=1,
                                        tooltip=f"{GUIDE_TYPES.get(g['type'], g['type'])}: {g['guidance']}"
                                        ).add_to(m)
        folium.Marker([s["origin"]["y"], s["origin"]["x"]], tooltip=f"출발 {s['origin'].get('name', '')}",
                      icon=dot_icon("#2ca02c", 18, "S")).add_to(m)
        for n, w in enumerate(s.get("waypoints") or []):
            folium.Marker([w["y"], w["x"]], tooltip=f"경유 {n + 1} {w.get('name', '')}",
                          icon=dot_icon("#1f77b4", 18, str(n + 1))).add_to(m)
        folium.Marker([s["destination"]["y"], s["destination"]["x"]],
                      tooltip=f"도착 {s['destination'].get('name', '')}",
                      icon=dot_icon("#d62728", 18, "E")).add_to(m)
    items = [(TRAFFIC_COLORS[k], f"{TRAFFIC_STATES[k]} ({k})") for k in sorted(states_seen) if k in TRAFFIC_COLORS]
    items += [(ALT_COLORS[(i - 1) % len(ALT_COLORS)], f"alternative {i}") for i in range(1, len(routes))
              if routes[i].get("result_code") == 0]
    add_legend(m, "traffic", items)
    m.fit_bounds([[bound["min_y"], bound["min_x"]], [bound["max_y"], bound["max_x"]]])
    return m


def origins_map(frame, *, tiles: str | None = None, width="100%", height=520):
    """A folium ``Map`` of a many-origin / many-destination frame (``tk.navi.origins(...)``): circles sized by
    duration (bigger = longer drive; hover for time and distance), red where no route was found, the common
    destination (or origin) as a large dot. ``tiles``: as in :func:`route_map`.

    >>> origins_map(tk.navi.origins([("a", 129.03, 35.10), ("b", 129.08, 35.17)], (129.06, 35.157)))  # doctest: +SKIP
    """
    import folium

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
        tip = (f"{row.key}: {int(row.duration) // 60} min, {int(row.distance):,} m" if good
               else f"{row.key}: {row.result_msg}")
        folium.CircleMarker([row.y, row.x], radius=radius, color="#1f77b4" if good else "#d62728", fill=True,
                            fill_opacity=0.6, tooltip=tip).add_to(m)
    role = frame.attrs.get("meta", {}).get("role", "destination")
    if center:
        folium.Marker([center["y"], center["x"]], tooltip=role,
                      icon=dot_icon("#d62728", 20, "D" if role == "destination" else "O")).add_to(m)
    add_legend(m, "drive time", [("#1f77b4", "route found (size = duration)"), ("#d62728", "no route"),
                                 ("#d62728", f"common {role}")])
    m.fit_bounds([[min(lat), min(lon)], [max(lat), max(lon)]])
    return m
