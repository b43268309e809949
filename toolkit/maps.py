"""folium maps of local-search frames: places (markers with popups, optional clustering, a search radius or
rect) and geocoded frames (matched rows only). folium is imported when a map is drawn, never on
``import toolkit``.

>>> m = places_map(tk.local.category("PM9", x=129.059, y=35.158, radius=500), center=(129.059, 35.158),
...                radius=500)                                          # doctest: +SKIP
>>> m.save("pharmacies.html")                                           # doctest: +SKIP
"""
from __future__ import annotations

import html
from typing import Sequence

__all__ = ["places_map", "geocoded_map"]

TILES = "OpenStreetMap"
ATTRIBUTION_NOTE = "Store data: 소상공인시장진흥공단 상가(상권)정보 (data.go.kr)"


def _popup(row, fields: Sequence[str]) -> str:
    parts = []
    for f in fields:
        if f in row and row[f] == row[f] and row[f] not in (None, ""):
            parts.append(f"<b>{html.escape(str(f))}</b>: {html.escape(str(row[f]))}")
    return "<br>".join(parts)


def _points(df, x: str, y: str):
    if x not in df.columns or y not in df.columns:
        raise ValueError(f"the frame needs columns {x!r} and {y!r}")
    keep = df[df[x].notna() & df[y].notna()]
    return keep, list(zip(keep[y].astype(float), keep[x].astype(float)))


def _base(points, center, zoom):
    import folium

    if center is not None:
        start = (float(center[1]), float(center[0]))
    elif points:
        start = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    else:
        start = (35.1541, 129.0594)
    return folium, folium.Map(location=start, zoom_start=zoom, tiles=TILES)


def places_map(df, *, x: str = "x", y: str = "y", popup: Sequence[str] = ("place_name", "category_name",
                                                                            "road_address_name", "distance"),
               tooltip: str | None = "place_name", cluster: bool | None = None, center=None, radius=None,
               rect=None, zoom: int = 15, fit: bool = True):
    """A folium map with one marker per row (rows without coordinates are skipped).

    ``cluster`` defaults to True above 200 rows (MarkerCluster). ``center=(x, y)`` with ``radius`` (metres)
    draws the search circle; ``rect=(x1, y1, x2, y2)`` draws the search rectangle. The map is fitted to the
    markers (and the circle/rect) when ``fit``.
    """
    keep, points = _points(df, x, y)
    folium, m = _base(points, center, zoom)
    layer = m
    if cluster or (cluster is None and len(points) > 200):
        from folium.plugins import MarkerCluster

        layer = MarkerCluster(name="places").add_to(m)
    for (_, row), loc in zip(keep.iterrows(), points):
        tip = str(row[tooltip]) if tooltip and tooltip in row and row[tooltip] == row[tooltip] else None
        folium.Marker(loc, popup=folium.Popup(_popup(row, popup), max_width=300), tooltip=tip).add_to(layer)
    bounds = list(points)
    if center is not None:
        folium.CircleMarker((float(center[1]), float(center[0])), radius=4, color="red", fill=True).add_to(m)
        if radius:
            folium.Circle((float(center[1]), float(center[0])), radius=float(radius), color="red",
                          fill=False).add_to(m)
            d = float(radius) / 111_000
            bounds += [(float(center[1]) - d, float(center[0]) - d * 1.25),
                       (float(center[1]) + d, float(center[0]) + d * 1.25)]
    if rect is not None:
        x1, y1, x2, y2 = (float(v) for v in (rect.split(",") if isinstance(rect, str) else rect))
        folium.Rectangle([(y1, x1), (y2, x2)], color="blue", fill=False).add_to(m)
        bounds += [(y1, x1), (y2, x2)]
    if fit and bounds:
        m.fit_bounds([(min(b[0] for b in bounds), min(b[1] for b in bounds)),
                      (max(b[0] for b in bounds), max(b[1] for b in bounds))])
    return m


def geocoded_map(df, column: str | None = None, *, cluster: bool | None = None, zoom: int = 14, fit: bool = True):
    """A map of the rows :meth:`toolkit.local.LocalArea.geocode` matched (status ``matched`` or ``ambiguous``);
    popups show the input text, the address found and the status."""
    if "geocode_status" not in df.columns:
        raise ValueError("pass the frame returned by tk.local.geocode()")
    found = df[df["geocode_status"].isin(["matched", "ambiguous"])]
    fields = [c for c in (column, "geocode_address", "geocode_status", "geocode_matches") if c]
    return places_map(found, popup=fields, tooltip=column or "geocode_address", cluster=cluster, zoom=zoom,
                      fit=fit)
