"""folium maps of driving directions (folium is imported lazily, only when a map is drawn).

* :func:`route_map` — each road of the first route as a polyline coloured by ``traffic_state``, alternatives
  as dashed lines in other colours, guide markers with the guidance text, origin / waypoint / destination
  markers.
* :func:`origins_map` — many-origin (or many-destination) summaries: one circle per point sized by driving
  time, coloured by success, and the common destination (origin).

Maps hold random element ids: save them to a file (``m.save("route.html")``) rather than storing them in a
notebook checked by nbval.
"""
from __future__ import annotations

__all__ = ["route_map", "origins_map", "TRAFFIC_COLORS", "ALT_COLORS"]

#: traffic_state → colour (0 no information, 1 jammed, 2 delayed, 3 slow, 4 smooth)
TRAFFIC_COLORS = {0: "#7f7f7f", 1: "#d62728", 2: "#ff7f0e", 3: "#f2c80f", 4: "#2ca02c", 6: "#000000"}
ALT_COLORS = ("#1f77b4", "#9467bd", "#8c564b", "#e377c2")


def _center(bound: dict) -> list[float]:
    return [(bound["min_y"] + bound["max_y"]) / 2, (bound["min_x"] + bound["max_x"]) / 2]


def route_map(directions, *, guides: bool = True, tiles: str = "OpenStreetMap", width="100%", height=520):
    """A folium ``Map`` of a :class:`toolkit.navi.Directions` (or its raw body)."""
    import folium

    from .navi import GUIDE_TYPES, TRAFFIC_STATES, Directions

    d = directions if isinstance(directions, Directions) else Directions(directions)
    ok = [r for r in d.routes if r.get("result_code") == 0]
    if not ok:
        raise ValueError("no successful route to draw")
    bound = ok[0]["summary"]["bound"]
    m = folium.Map(location=_center(bound), tiles=tiles, width=width, height=height, zoom_start=14)
    for i in range(len(d.routes) - 1, -1, -1):          # alternatives below the main route
        r = d.routes[i]
        if r.get("result_code") != 0:
            continue
        s = r["summary"]
        label = f"route {i}: {s['distance']:,} m, {s['duration'] // 60} min, taxi {s['fare']['taxi']:,} KRW"
        if i > 0:
            coords = [[y, x] for x, y in d.coordinates(i)]
            folium.PolyLine(coords, color=ALT_COLORS[(i - 1) % len(ALT_COLORS)], weight=5, opacity=0.7,
                            dash_array="8 6", tooltip=label).add_to(m)
            continue
        for k, sec in enumerate(r.get("sections") or []):
            for j, rd in enumerate(sec.get("roads") or []):
                v = rd["vertexes"]
                tip = (f"{rd['name']}: {rd['distance']} m, {rd['traffic_speed']} km/h, "
                       f"{TRAFFIC_STATES.get(rd['traffic_state'], rd['traffic_state'])}")
                folium.PolyLine([[y, x] for x, y in zip(v[0::2], v[1::2])],
                                color=TRAFFIC_COLORS.get(rd["traffic_state"], "#7f7f7f"), weight=7, opacity=0.9,
                                tooltip=tip).add_to(m)
            if guides:
                for g in sec.get("guides") or []:
                    if g["type"] in (100, 101, 1000):
                        continue
                    folium.CircleMarker([g["y"], g["x"]], radius=4, color="#333333", fill=True, fill_opacity=1,
                                        tooltip=f"{GUIDE_TYPES.get(g['type'], g['type'])}: {g['guidance']}"
                                        ).add_to(m)
        folium.Marker([s["origin"]["y"], s["origin"]["x"]], tooltip=f"출발 {s['origin'].get('name', '')}",
                      icon=folium.Icon(color="green", icon="play")).add_to(m)
        for n, w in enumerate(s.get("waypoints") or []):
            folium.Marker([w["y"], w["x"]], tooltip=f"경유 {n + 1} {w.get('name', '')}",
                          icon=folium.Icon(color="blue", icon="flag")).add_to(m)
        folium.Marker([s["destination"]["y"], s["destination"]["x"]],
                      tooltip=f"도착 {s['destination'].get('name', '')}",
                      icon=folium.Icon(color="red", icon="stop")).add_to(m)
    m.fit_bounds([[bound["min_y"], bound["min_x"]], [bound["max_y"], bound["max_x"]]])
    return m


def origins_map(frame, *, tiles: str = "OpenStreetMap", width="100%", height=520):
    """A folium ``Map`` of a many-origin / many-destination frame (``tk.navi.origins(...)``): circles sized by
    duration (bigger = longer drive), red where no route was found, the centre point as a star marker."""
    import folium

    center = frame.attrs.get("meta", {}).get("center") or {}
    lat = [float(v) for v in frame["y"].dropna()] + ([center["y"]] if center else [])
    lon = [float(v) for v in frame["x"].dropna()] + ([center["x"]] if center else [])
    m = folium.Map(location=[sum(lat) / len(lat), sum(lon) / len(lon)], tiles=tiles, width=width, height=height,
                   zoom_start=13)
    ok = frame[frame["result_code"] == 0]
    longest = float(ok["duration"].max()) if len(ok) else 1.0
    for row in frame.itertuples(index=False):
        good = row.result_code == 0
        radius = 4 + 14 * (float(row.duration) / longest if good and longest else 0)
        tip = (f"{row.key}: {int(row.duration) // 60} min, {int(row.distance):,} m" if good
               else f"{row.key}: {row.result_msg}")
        folium.CircleMarker([row.y, row.x], radius=radius, color="#1f77b4" if good else "#d62728", fill=True,
                            fill_opacity=0.6, tooltip=tip).add_to(m)
    if center:
        role = frame.attrs.get("meta", {}).get("role", "destination")
        folium.Marker([center["y"], center["x"]], tooltip=role,
                      icon=folium.Icon(color="red", icon="star")).add_to(m)
    m.fit_bounds([[min(lat), min(lon)], [max(lat), max(lon)]])
    return m
