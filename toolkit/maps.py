"""folium maps of local-search frames: places (markers with popups, optional clustering, a search radius or
rect) and geocoded frames (matched rows only), and choropleths of counts per region. folium is imported when
a map is drawn, never on ``import toolkit``. Every map draws offline (Leaflet inlined, no CDN) on the sandbox's
own tiles when the toolkit is bound to the sandbox, on OpenStreetMap against the service, or on ``tiles=``
(see :mod:`toolkit.mapassets`); shown as the last expression of a notebook cell it draws inline.

>>> m = places_map(tk.local.category("PM9", x=129.059, y=35.158, radius=500), center=(129.059, 35.158),
...                radius=500)                                          # doctest: +SKIP
>>> m.save("pharmacies.html")                                           # doctest: +SKIP
>>> gj = tk.sandbox.region_polygons("emd")  # doctest: +SKIP
>>> choropleth_map(counts_by_region(tk.local.regions_of(df)), gj)       # doctest: +SKIP

The region polygons of a choropleth come from the caller (any GeoJSON FeatureCollection whose features carry
the region code in a property); in the sandbox the control API serves the world's legal-region polygons.
"""
from __future__ import annotations

import html
from typing import Any, Sequence

from .mapassets import OSM, add_legend, dot_icon, new_map, resolve_tiles

__all__ = ["places_map", "geocoded_map", "choropleth_map", "counts_by_region", "geojson_bounds", "fit"]

TILES = OSM           # the base layer against the real service (kept for compatibility; see toolkit.mapassets)
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


def _base(points, center, zoom, tiles=None, data=None, width="100%", height=520):
    import folium

    if center is not None:
        start = (float(center[1]), float(center[0]))
    elif points:
        start = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
    else:
        start = (35.1541, 129.0594)
    return folium, new_map(start, zoom_start=zoom, tiles=tiles, data=data, width=width, height=height)


def places_map(df, *, x: str = "x", y: str = "y", popup: Sequence[str] = ("place_name", "category_name",
                                                                            "road_address_name", "distance"),
               tooltip: str | None = "place_name", cluster: bool | None = None, center=None, radius=None,
               rect=None, zoom: int = 15, fit: bool = True, tiles: str | None = None,
               color: str = "#1f77b4", width="100%", height=520):
    """A folium map with one marker (a round dot) per row (rows without coordinates are skipped).

    ``cluster`` defaults to True above 200 rows (MarkerCluster). ``center=(x, y)`` with ``radius`` (metres)
    draws the search circle; ``rect=(x1, y1, x2, y2)`` draws the search rectangle. The map is fitted to the
    markers (and the circle/rect) when ``fit``. ``width``/``height``: the map's size. ``tiles``: the base
    layer (default: the sandbox's own tiles when the toolkit is bound to the sandbox, else OpenStreetMap; see
    :mod:`toolkit.mapassets`). The map loads nothing from a CDN: ``m.save(path)`` draws offline.

    >>> cafes = tk.local.keyword("카페", x=129.059, y=35.158, radius=500)     # doctest: +SKIP
    >>> places_map(cafes, center=(129.059, 35.158), radius=500)             # doctest: +SKIP
    """
    keep, points = _points(df, x, y)
    folium, m = _base(points, center, zoom, tiles, df, width, height)
    layer = m
    if cluster or (cluster is None and len(points) > 200):
        from folium.plugins import MarkerCluster

        layer = MarkerCluster(name="places").add_to(m)
    for (_, row), loc in zip(keep.iterrows(), points):
        tip = str(row[tooltip]) if tooltip and tooltip in row and row[tooltip] == row[tooltip] else None
        folium.Marker(loc, popup=folium.Popup(_popup(row, popup), max_width=300), tooltip=tip,
                      icon=dot_icon(color, 12)).add_to(layer)
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
        _fit(m, ((min(b[0] for b in bounds), min(b[1] for b in bounds)),
                 (max(b[0] for b in bounds), max(b[1] for b in bounds))))
    return m


def geocoded_map(df, column: str | None = None, *, cluster: bool | None = None, zoom: int = 14, fit: bool = True,
                 tiles: str | None = None, width="100%", height=520):
    """A map of the rows :meth:`toolkit.local.LocalArea.geocode` matched (status ``matched`` or ``ambiguous``);
    popups show the input text, the address found and the status.

    >>> geocoded_map(tk.local.geocode(df, "address"), "address")          # doctest: +SKIP
    """
    if "geocode_status" not in df.columns:
        raise ValueError("pass the frame returned by tk.local.geocode()")
    found = df[df["geocode_status"].isin(["matched", "ambiguous"])]
    fields = [c for c in (column, "geocode_address", "geocode_status", "geocode_matches") if c]
    return places_map(found, popup=fields, tooltip=column or "geocode_address", cluster=cluster, zoom=zoom,
                      fit=fit, tiles=resolve_tiles(tiles, df), width=width, height=height)


# --------------------------------------------------------------------------- region polygons
def _walk(coords):
    if coords and isinstance(coords[0], (int, float)):
        yield coords
    else:
        for c in coords:
            yield from _walk(c)


def geojson_bounds(geojson) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """``((south, west), (north, east))`` of a FeatureCollection, a Feature or a geometry (None when empty)."""
    feats = geojson.get("features") if geojson.get("type") == "FeatureCollection" else [geojson]
    xs, ys = [], []
    for f in feats:
        geom = f.get("geometry", f) if f.get("type") == "Feature" else f
        for pt in _walk((geom or {}).get("coordinates") or []):
            xs.append(float(pt[0]))
            ys.append(float(pt[1]))
    if not xs:
        return None
    return (min(ys), min(xs)), (max(ys), max(xs))


def fit(m, *bounds, padding: int = 24, max_zoom: int = 17):
    """Fit a folium map to the union of ``((south, west), (north, east))`` boxes (None ignored); returns it.

    The map fits itself whenever it opens, not only once: Leaflet's ``fitBounds`` at load time in a container
    that has no size yet (a notebook output not laid out, a hidden tab) zooms to the maximum, so the fit is done
    again when the container gets or changes its size, until the reader moves the map. ``padding`` (pixels)
    keeps the edges (and a legend) off the data; ``max_zoom`` bounds the zoom of a single point.

    >>> m = fit(places_map(df), ((35.15, 129.05), (35.16, 129.07)))      # doctest: +SKIP
    """
    boxes = [b for b in bounds if b]
    if boxes:
        south, west = min(b[0][0] for b in boxes), min(b[0][1] for b in boxes)
        north, east = max(b[1][0] for b in boxes), max(b[1][1] for b in boxes)
        if north - south < 0.002 and east - west < 0.002:        # one point: a neighbourhood around it
            south, north, west, east = south - 0.002, north + 0.002, west - 0.0025, east + 0.0025
        m.add_child(_FitData([[south, west], [north, east]], padding, max_zoom), name="toolkit_fit")
    return m


_fit = fit     # places_map's argument ``fit`` hides the function there


def _FitData(bounds, padding: int, max_zoom: int):
    """A folium element that fits its map to ``bounds`` now and whenever its container is (re)sized, until the
    reader drags, zooms or scrolls the map."""
    from branca.element import MacroElement
    from jinja2 import Template

    class FitData(MacroElement):
        _template = Template("""
{% macro script(this, kwargs) %}
(function (map) {
    var bounds = {{ this.bounds|tojson }}, options = {padding: [{{ this.padding }}, {{ this.padding }}],
                                                       maxZoom: {{ this.max_zoom }}};
    var touched = false;
    function fitNow() {
        var size = map.getSize();
        if (!touched && size.x > 0 && size.y > 0) { map.fitBounds(bounds, options); }
    }
    ["mousedown", "touchstart", "wheel", "keydown"].forEach(function (kind) {
        map.getContainer().addEventListener(kind, function () { touched = true; }, {passive: true});
    });
    fitNow();
    map.whenReady(fitNow);
    if (window.ResizeObserver) {
        new ResizeObserver(function () { map.invalidateSize(false); fitNow(); }).observe(map.getContainer());
    }
})({{ this._parent.get_name() }});
{% endmacro %}
""")

        def __init__(self):
            super().__init__()
            self._name = "FitData"
            self.bounds, self.padding, self.max_zoom = bounds, int(padding), int(max_zoom)

    return FitData()


def _rounded(geometry: dict, digits: int = 5) -> dict:
    """The geometry with coordinates rounded to ``digits`` decimals (1e-5° ≈ 1 m: a smaller map, same look)."""
    def walk(c):
        return round(float(c), digits) if isinstance(c, (int, float)) else [walk(x) for x in c]
    return dict(geometry, coordinates=walk(geometry.get("coordinates") or []))


def counts_by_region(df, code: str = "b_code", status: str | None = "region_status"):
    """Rows per region code of a :meth:`~toolkit.local.LocalArea.regions_of` frame (matched rows only):
    a frame ``code, count`` sorted by code, ready for :func:`choropleth_map`."""
    import pandas as pd

    keep = df[df[status] == "matched"] if status and status in df.columns else df
    keep = keep[keep[code].notna()]
    out = keep.groupby(code, sort=True).size().rename("count").reset_index().rename(columns={code: "code"})
    return out.astype({"code": "object", "count": "int64"}).reset_index(drop=True) if len(out) else \
        pd.DataFrame({"code": pd.Series([], dtype="object"), "count": pd.Series([], dtype="int64")})


def choropleth_map(counts, geojson, *, key: str = "code", value: str = "count", code_column: str = "code",
                   name_property: str = "name", only_counted: bool = True, colors=("#ffffcc", "#fd8d3c", "#800026"),
                   caption: str | None = None, zoom: int = 12, fit_bounds: bool = True, places=None,
                   tiles: str | None = None, width="100%", height=520):
    """A choropleth of region polygons coloured by a count (or any number) per region.

    ``counts``: a DataFrame with ``code_column`` and ``value`` (e.g. from :func:`counts_by_region`) or a
    Series indexed by code. ``geojson``: a FeatureCollection (dict) whose features carry the code in
    ``properties[key]`` — the caller's polygons, or ``GET /sandbox/local/regions.geojson`` in the sandbox.
    Only the features with a value are drawn when ``only_counted`` (else the others are grey). Each feature
    gets the value in ``properties[value]`` and a tooltip (name and value); a linear colour scale with a
    legend; the map is fitted to the drawn features. ``places`` (a frame with x, y) adds small dots.
    The drawn FeatureCollection is ``m.choropleth_data`` (its features are counted in tests). ``tiles``: as
    in :func:`places_map`.

    >>> gj = tk.sandbox.region_polygons("emd")  # doctest: +SKIP
    >>> choropleth_map(counts_by_region(tk.local.regions_of(cafes)), gj, places=cafes)         # doctest: +SKIP
    """
    import folium
    import pandas as pd
    from branca.colormap import LinearColormap

    if isinstance(counts, pd.Series):
        values = {str(k): float(v) for k, v in counts.items() if v == v}
    else:
        if code_column not in counts.columns or value not in counts.columns:
            raise ValueError(f"counts needs columns {code_column!r} and {value!r}")
        values = {str(k): float(v) for k, v in zip(counts[code_column], counts[value]) if v == v}
    if not isinstance(geojson, dict) or geojson.get("type") != "FeatureCollection":
        raise ValueError("geojson must be a GeoJSON FeatureCollection (a dict)")
    feats: list[dict[str, Any]] = []
    for f in geojson.get("features", []):
        code = str(f.get("properties", {}).get(key))
        if only_counted and code not in values:
            continue
        props = dict(f.get("properties", {}), **{value: values.get(code)})
        feats.append({"type": "Feature", "properties": props, "geometry": _rounded(f["geometry"])})
    data = {"type": "FeatureCollection", "features": feats}
    shown = [values[str(f["properties"].get(key))] for f in feats if str(f["properties"].get(key)) in values]
    lo, hi = (min(shown), max(shown)) if shown else (0.0, 1.0)
    if hi == lo:
        hi = lo + 1.0
    scale = LinearColormap(list(colors), vmin=lo, vmax=hi, caption=caption or value)
    bounds = geojson_bounds(data)
    start = ((bounds[0][0] + bounds[1][0]) / 2, (bounds[0][1] + bounds[1][1]) / 2) if bounds else (35.1541, 129.0594)
    m = new_map(start, zoom_start=zoom, tiles=tiles, data=counts, width=width, height=height)

    def style(feature):
        v = feature["properties"].get(value)
        return {"fillColor": scale(v) if v is not None else "#cccccc", "color": "#555555", "weight": 1,
                "fillOpacity": 0.7 if v is not None else 0.2}

    fields = [f for f in (name_property, key, value) if any(f in x["properties"] for x in feats)]
    folium.GeoJson(data, name="regions", style_function=style,
                   tooltip=folium.GeoJsonTooltip(fields=fields) if fields and feats else None).add_to(m)
    add_legend(m, caption or value, [("gradient", list(colors), lo, hi)])
    if places is not None:
        keep, points = _points(places, "x", "y")
        for loc in points:
            folium.CircleMarker(loc, radius=2, color="#1f4e79", fill=True, weight=1).add_to(m)
    if fit_bounds:
        fit(m, bounds)
    m.choropleth_data = data
    return m
