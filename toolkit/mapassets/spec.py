"""A folium map as data: the form toolkit's JupyterLab extension draws (``application/vnd.toolkit.map+json``).

A map stored in a notebook as folium's HTML draws only where the notebook is trusted: its HTML runs scripts, and
notebook trust is per user, so a notebook that travels (e-mail, Git, a shared drive) arrives untrusted and its
maps do not draw. So a toolkit map also puts this form in its output bundle, beside folium's HTML: plain JSON
(the view, the base layer, markers, lines, circles, GeoJSON with each feature's style, tooltips and popups as
text or HTML, the legend), which the lab extension's MIME renderer draws with its own bundled Leaflet, the way
plotly and vega draw their data. JupyterLab runs a MIME renderer whatever the notebook's trust, since it renders
data, not the notebook's script; HTML in tooltips and popups goes through JupyterLab's sanitizer. Front ends
without the extension (nbviewer, GitHub, an older lab) keep folium's HTML.

The same form feeds the HTML export (:mod:`toolkit.jupyter.export`), which draws it with the same drawing code
(``toolkit-map.js`` of this folder) and the first view's tiles embedded.

What converts: ``folium.Map`` with tile layers (toolkit's sandbox layer, any URL template), ``Marker`` (toolkit's
dot icons, ``folium.Icon`` colours, ``DivIcon``, Leaflet's default icon), ``PolyLine``, ``Polygon``,
``Rectangle``, ``Circle``, ``CircleMarker``, ``GeoJson`` (with ``style_function`` applied per feature and
``GeoJsonTooltip``), ``Tooltip``, ``Popup``, ``MarkerCluster``, ``FeatureGroup``, ``LayerControl`` (ignored),
``FitBounds`` and :func:`toolkit.maps.fit`, toolkit legends. A map holding anything else (a plugin, a custom
element with its own script) has no data form (:func:`map_spec` returns None): it keeps folium's HTML alone,
which needs a trusted notebook, rather than a drawing that silently leaves a part out.

A folium map one builds oneself (``folium.Map(...)``, not through toolkit) gets the data form too, on the same
terms, once ``toolkit.connect()`` has run in that IPython kernel: the client registers
:func:`toolkit.mapassets.map_bundle` as IPython's display of ``folium.Map`` (by class name; folium is not imported
for it). Its base layer draws from the URL it names (OpenStreetMap by default, from the internet, as folium's own
HTML would), and its popups and tooltips go through the sanitizer like toolkit's. Without ``toolkit.connect()`` in
the kernel, such a map is stored as folium stores it.

>>> import folium
>>> m = folium.Map((35.155, 129.06), zoom_start=14, tiles=None)
>>> _ = folium.CircleMarker((35.155, 129.06), radius=5, color="#d62728", tooltip="서면").add_to(m)
>>> spec = map_spec(m)
>>> spec["layers"][0]["type"], spec["layers"][0]["tooltip"], spec["view"]["zoom"]
('circleMarker', {'html': '서면'}, 14)
"""
from __future__ import annotations

import math
import re
from typing import Any

__all__ = ["MIME", "SPEC_VERSION", "map_spec", "stored", "layers_of", "spec_view", "spec_tiles"]

MIME = "application/vnd.toolkit.map+json"
"""The MIME type of a toolkit map's data form in a notebook output."""
SPEC_VERSION = 1

_COLOR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d.,\s%]+\)")

#: ``folium.Icon``'s colour names (awesome-markers) as the pin colours they draw
ICON_COLORS = {
    "red": "#d63e2a", "darkred": "#a23336", "lightred": "#ff8e7f", "orange": "#f69730", "beige": "#ffcb92",
    "green": "#72b026", "darkgreen": "#728224", "lightgreen": "#bbf970", "blue": "#38aadd", "darkblue": "#0067a3",
    "lightblue": "#8adaff", "cadetblue": "#436978", "purple": "#d252b9", "darkpurple": "#5b396b", "pink": "#ff91ea",
    "white": "#fbfbfb", "gray": "#575757", "lightgray": "#a3a3a3", "black": "#303030",
}

_STYLE_KEYS = ("stroke", "color", "weight", "opacity", "lineCap", "lineJoin", "dashArray", "dashOffset", "fill",
               "fillColor", "fillOpacity", "fillRule")


class _Unsupported(Exception):
    pass


_RENDER_HELPERS = ("ElementAddToElement", "SetIcon")
"""Elements folium adds to its own while rendering (they draw nothing of their own)."""


def _children(element):
    """The children of ``element`` that draw something: not the helpers a render added."""
    return [c for c in element._children.values()
            if not getattr(c, "_toolkit_helper", False) and type(c).__name__ not in _RENDER_HELPERS]


def _camel(key: str) -> str:
    head, *rest = str(key).split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def _num(v, digits: int = 6):
    return round(float(v), digits)


def _latlng(p) -> list[float]:
    return [_num(p[0]), _num(p[1])]


def _latlngs(locations):
    if locations and isinstance(locations[0], (int, float)):
        return _latlng(locations)
    return [_latlngs(x) for x in locations]


def _style(options: dict) -> dict:
    out = {}
    for k, v in (options or {}).items():
        k = _camel(k)
        if k in _STYLE_KEYS and v is not None:
            if k in ("color", "fillColor"):
                if not isinstance(v, str) or not _COLOR.fullmatch(v.strip()):
                    raise _Unsupported(f"colour {v!r}")
                v = v.strip()
            out[k] = v
    return out


def _text_of(element) -> dict | None:
    """A tooltip's or popup's content: ``{"html": ...}`` (drawn through the sanitizer) or ``{"text": ...}``."""
    import folium
    from branca.element import Html

    if element is None:
        return None
    if isinstance(element, folium.Tooltip):
        return {"html": str(element.text)}
    if isinstance(element, folium.Popup):
        parts = []
        for child in _children(element.html):
            if isinstance(child, Html):
                parts.append(("html" if child.script else "text", str(child.data)))
            else:
                raise _Unsupported(type(child).__name__)
        if len(parts) == 1:
            return {parts[0][0]: parts[0][1]}
        return {"html": "".join(d if kind == "html" else _escape(d) for kind, d in parts)}
    raise _Unsupported(type(element).__name__)


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _extras(element) -> dict:
    """Tooltip and popup of a layer."""
    import folium

    out: dict[str, Any] = {}
    for child in _children(element):
        if isinstance(child, folium.Tooltip):
            out["tooltip"] = _text_of(child)
        elif isinstance(child, folium.Popup):
            out["popup"] = _text_of(child)
            width = child.options.get("max_width")
            if isinstance(width, (int, float)) or (isinstance(width, str) and width.isdigit()):
                out["popupMaxWidth"] = int(width)
    return out


def _icon(marker) -> dict:
    import folium

    for child in _children(marker):
        dot = getattr(child, "_toolkit_dot", None)
        if dot is not None:
            color, size, label = dot
            return {"kind": "dot", "color": color, "size": int(size), "label": str(label)}
        if isinstance(child, folium.Icon):
            name = str(child.options.get("marker_color", "blue"))
            return {"kind": "pin", "color": ICON_COLORS.get(name, ICON_COLORS["blue"])}
        if isinstance(child, folium.DivIcon):
            o: dict[str, Any] = child.options
            return {"kind": "div", "html": str(o.get("html") or ""), "className": str(o.get("class_name") or ""),
                    "size": list(o["icon_size"]) if o.get("icon_size") else None,
                    "anchor": list(o["icon_anchor"]) if o.get("icon_anchor") else None}
        if isinstance(child, folium.CustomIcon):
            raise _Unsupported("CustomIcon")
    return {"kind": "default"}


def _geojson(element) -> dict:
    data = element.data
    if not isinstance(data, dict):
        raise _Unsupported("GeoJson data that is not a dict")
    feats = data.get("features") if data.get("type") == "FeatureCollection" else [data]
    styles: list[dict] = []
    index: dict[str, int] = {}
    which: list[int] = []
    fn = getattr(element, "style_function", None)
    for f in feats or []:
        s = _style(fn(f)) if fn is not None else {}
        key = repr(sorted(s.items()))
        if key not in index:
            index[key] = len(styles)
            styles.append(s)
        which.append(index[key])
    out: dict[str, Any] = {"type": "geojson", "data": data, "styles": styles, "featureStyle": which}
    import folium

    for child in _children(element):
        if isinstance(child, folium.GeoJsonTooltip):
            out["tooltipFields"] = [str(f) for f in child.fields]
            out["tooltipAliases"] = [str(a) for a in (child.aliases or child.fields)]
        elif isinstance(child, folium.Tooltip):
            out["tooltip"] = _text_of(child)
        elif isinstance(child, (folium.GeoJsonPopup, folium.Popup)):
            raise _Unsupported("GeoJson popup")
        else:
            raise _Unsupported(type(child).__name__)
    return out


def _layers(parent, spec: dict) -> list:
    import folium
    from branca.element import Element
    from folium.map import FitBounds, LayerControl
    from folium.plugins import MarkerCluster
    from folium.vector_layers import Circle, CircleMarker, Polygon, PolyLine, Rectangle

    out: list[dict[str, Any]] = []
    for child in _children(parent):
        name = getattr(child, "_name", "")
        if isinstance(child, folium.TileLayer):
            spec["tiles"].append(_tiles(child))
        elif isinstance(child, MarkerCluster):
            out.append({"type": "cluster", "layers": _layers(child, spec)})
        elif isinstance(child, folium.FeatureGroup):
            out.extend(_layers(child, spec))
        elif isinstance(child, Circle):
            out.append({"type": "circle", "center": _latlng(child.location), "radius": _num(child.options["radius"], 2),
                        "style": _style(child.options), **_extras(child)})
        elif isinstance(child, CircleMarker):
            out.append({"type": "circleMarker", "center": _latlng(child.location),
                        "radius": _num(child.options.get("radius", 10), 2), "style": _style(child.options),
                        **_extras(child)})
        elif isinstance(child, Rectangle):
            out.append({"type": "rectangle", "bounds": _latlngs(child.locations), "style": _style(child.options),
                        **_extras(child)})
        elif isinstance(child, Polygon):
            out.append({"type": "polygon", "latlngs": _latlngs(child.locations), "style": _style(child.options),
                        **_extras(child)})
        elif isinstance(child, PolyLine):
            out.append({"type": "polyline", "latlngs": _latlngs(child.locations), "style": _style(child.options),
                        **_extras(child)})
        elif isinstance(child, folium.Marker):
            out.append({"type": "marker", "at": _latlng(child.location), "icon": _icon(child), **_extras(child)})
        elif isinstance(child, folium.GeoJson):
            out.append(_geojson(child))
        elif isinstance(child, FitBounds):
            fit: dict[str, Any] = child.options or {}
            pad = fit.get("padding") or (0, 0)
            spec["view"]["fit"] = {"bounds": _latlngs(child.bounds), "padding": list(pad),
                                   "maxZoom": fit.get("max_zoom", fit.get("maxZoom"))}
        elif name == "FitData" and hasattr(child, "bounds"):
            spec["view"]["fit"] = {"bounds": _latlngs(child.bounds), "padding": [child.padding, child.padding],
                                   "maxZoom": child.max_zoom, "refit": True}
        elif isinstance(child, (LayerControl,)) or name == "ToolkitScale":
            continue
        elif type(child) is Element and not getattr(child, "template", None):
            continue
        else:
            raise _Unsupported(type(child).__name__)
    return out


def _tiles(layer) -> dict:
    from . import JUPYTER_TILES

    o = {_camel(k): v for k, v in (layer.options or {}).items()}
    keep = {k: o[k] for k in ("minZoom", "maxZoom", "maxNativeZoom", "subdomains", "tms", "opacity") if k in o}
    attribution = str(o.get("attribution") or "")
    if layer.tiles == JUPYTER_TILES:
        return {"kind": "toolkit", "attribution": attribution, "options": keep}
    url = str(layer.tiles)
    if not re.match(r"https?://", url):
        raise _Unsupported(f"tiles {url!r}")
    return {"kind": "url", "url": url, "attribution": attribution, "options": keep}


def _size(value, default):
    if isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]:g}{value[1]}"
    return default if value is None else str(value)


def map_spec(m) -> dict | None:
    """The data form of folium map ``m`` (a dict, JSON-ready), or None where ``m`` holds an element that has
    none (see the module's docstring)."""
    opts = {_camel(k): v for k, v in (getattr(m, "options", None) or {}).items()}
    spec = {"version": SPEC_VERSION, "width": _size(getattr(m, "width", None), "100%"),
            "height": _size(getattr(m, "height", None), "520px"),
            "view": {"center": _latlng(m.location) if m.location else [0.0, 0.0],
                     "zoom": opts.get("zoom", getattr(m, "zoom_start", 10) or 10),
                     "minZoom": opts.get("minZoom"), "maxZoom": opts.get("maxZoom")},
            "tiles": [], "layers": [], "legend": getattr(m, "_toolkit_legend", None),
            "scale": bool(getattr(m, "_toolkit_scale", False) or getattr(m, "control_scale", False))}
    try:
        spec["layers"] = _layers(m, spec)
    except (_Unsupported, KeyError, TypeError, ValueError):
        return None
    spec["view"] = {k: v for k, v in spec["view"].items() if v is not None}
    return spec


def stored(spec: dict) -> dict:
    """``spec`` as a notebook stores it: its layers (coordinates, GeoJSON, most of the bytes) as one compact JSON
    string. A notebook writes a JSON output indented, one number a line: a choropleth's 68 KB of layers took 170 KB
    that way. The drawing code reads either form (:func:`layers_of`).

    >>> stored({"version": 1, "layers": [{"type": "polyline", "latlngs": [[35.1, 129.0], [35.2, 129.1]]}]})["layers"]
    '[{"type":"polyline","latlngs":[[35.1,129.0],[35.2,129.1]]}]'
    """
    import json

    return {**spec, "layers": json.dumps(spec.get("layers") or [], ensure_ascii=False, separators=(",", ":"))}


def layers_of(spec: dict) -> list:
    """The layers of a spec in either form (:func:`stored` or not)."""
    import json

    layers = spec.get("layers") or []
    return json.loads(layers) if isinstance(layers, str) else layers


# ------------------------------------------------------------------ the first view of a spec (the export's tiles)
def spec_view(spec: dict, width: int, height: int) -> dict:
    """The first view of ``spec`` in a ``width`` × ``height`` viewport as Leaflet draws it (see
    :func:`toolkit.mapassets.first_view`): ``zoom``, ``center`` ``[lat, lon]`` and ``tiles`` ``[(z, x, y), …]``."""
    from . import view_of

    view = spec.get("view") or {}
    layers = spec.get("tiles") or []
    lo = min((t.get("options", {}).get("minZoom", 0) for t in layers), default=0)
    hi = max((t.get("options", {}).get("maxZoom", 18) for t in layers), default=18)
    lo, hi = view.get("minZoom", lo), view.get("maxZoom", hi)
    fit = view.get("fit")
    bounds = pad = None
    if fit:
        bounds = fit["bounds"]
        pad = (tuple(fit.get("padding") or (0, 0)), tuple(fit.get("padding") or (0, 0)), fit.get("maxZoom"))
    return view_of(view.get("center", (0, 0)), float(view.get("zoom", 10)), lo, hi, bounds, pad, width, height)


def spec_tiles(spec: dict, width: int, height: int) -> list[tuple[int, int, int]]:
    """The tiles of :func:`spec_view` (a shortcut)."""
    return spec_view(spec, width, height)["tiles"]


def _px(value: str, default: int) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(px)?\s*", str(value or ""))
    return int(math.floor(float(m.group(1)))) if m else default
