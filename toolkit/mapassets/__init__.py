"""The offline base of every toolkit map: Leaflet and Leaflet.markercluster inlined from pinned npm files,
deterministic element ids, and the base layer chosen by where the toolkit is bound.

A toolkit map is a :class:`folium.Map` whose HTML loads nothing from the network except its tiles: Leaflet
1.9.4 and the marker-cluster plugin are inlined (the files of this folder, see its README for package,
version, integrity hash and licence), folium's other CDN assets (jQuery, Bootstrap, awesome-markers,
font-awesome, d3) are not used by toolkit maps and are dropped. So ``m.save("map.html")`` writes a file that
draws with no server at all (its first view's tiles embedded), and a map stored in a notebook draws offline.

Base layer (``tiles=``): a map of a client bound to the sandbox uses the sandbox city's raster tiles; against
the real service the default stays OpenStreetMap; an explicit ``tiles=`` (a folium tile name or an XYZ URL
template) always wins. How a map learns it: ``Directions`` and many-origin frames carry their client's tiles;
other frames fall back to the binding of the most recent ``toolkit.connect()`` of the process
(:func:`default_tiles`).

The sandbox's base layer is drawn for whoever opens the map next, not only in the run that made it: the map's
HTML never holds the sandbox's address. The kernel side knows the live source (``m.toolkit_tiles``, e.g.
``http://127.0.0.1:8000/sandbox/tiles/{z}/{x}/{y}.png``, used by :meth:`save`); the browser resolves the tiles
when the map is drawn, from the Jupyter page the map is shown in (the page's ``jupyter-config-data`` ``baseUrl``,
found by walking up ``window.parent`` while same-origin: a notebook's map is a ``srcdoc`` iframe) to
``{baseUrl}toolkit/tiles/{z}/{x}/{y}.png``, which toolkit's Jupyter server extension serves
(:mod:`toolkit.jupyter.tiles`): in JupyterLab, ``toolkit lab``, Notebook 7, and under a hub's ``/user/NAME/``.
Where there is no Jupyter page (nbviewer, GitHub, a file) and the tile is not embedded, the map says in one line
over it that its base map needs toolkit's Jupyter extension (markers and routes still draw), instead of grey.
``m.save(path)`` embeds the tiles of the map's first view (see :func:`first_view`), so the file draws the
author's view with no toolkit and no server.

>>> tiles_for_base_url("http://127.0.0.1:8000")
'http://127.0.0.1:8000/sandbox/tiles/{z}/{x}/{y}.png'

Element ids: folium gives every element a random id; a toolkit map renumbers them (1, 2, 3 … in tree order)
just before it renders, so the same map renders to the same HTML (notebooks stay strictly comparable).

Also inlined: a one-line stand-in for the only jQuery call folium's popups make, and the bundled Hangul font
(NanumGothic) cut down to the characters the map shows, so tooltips, popups and legends show Hangul on a
machine without a CJK font. The rendered HTML drops the templates' indentation (a map of many markers is a third
smaller).
"""
from __future__ import annotations

import base64
import math
import re
import types
import weakref
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["OSM", "ASSETS", "tiles_for_base_url", "tiles_for", "default_tiles", "note_binding", "resolve_tiles",
           "is_sandbox_tiles", "new_map", "add_legend", "dot_icon", "inline_assets", "first_view",
           "default_marker_script", "TILES_NOTE", "JUPYTER_TILES", "MIN_ZOOM", "MAX_ZOOM", "VIEW_WIDTH", "VIEW_HEIGHT",
           "map_bundle", "register_notebook_display", "view_of", "TRUST_NOTE"]

HERE = Path(__file__).resolve().parent
OSM = "OpenStreetMap"
SANDBOX_ATTRIBUTION = ("toolkit sandbox map · Boundaries: National Geographic Information Institute (NGII), MOLIT, "
                       "Republic of Korea · Store data: 소상공인시장진흥공단 상가(상권)정보 (data.go.kr) · roads derived "
                       "from the addresses; dashed grey lines are made-up links (가상), not streets · sources and terms: "
                       "toolkit.data.notice()")
"""The attribution of the sandbox's base map: the attributions its data requires (toolkit/data/NOTICE.md)."""

#: folium asset name → (kind, file of this folder). Names not listed are not needed by toolkit maps.
ASSETS = {
    "leaflet_css": ("css", "leaflet.css"),
    "leaflet": ("js", "leaflet.js"),
    "markerclustercss": ("css", "MarkerCluster.css"),
    "markerclusterdefaultcss": ("css", "MarkerCluster.Default.css"),
    "markerclusterjs": ("js", "leaflet.markercluster.js"),
}
ORDER = ("leaflet_css", "markerclustercss", "markerclusterdefaultcss", "leaflet", "markerclusterjs")
ALWAYS = ("leaflet_css", "leaflet")

_binding: dict[str, str | None] = {"tiles": None}
_live: "dict[str, weakref.ref]" = {}       # live tile template → its sandbox handle (the headers save() sends)

MIN_ZOOM, MAX_ZOOM = 10, 18
"""The zooms of the sandbox city's base layer (the Jupyter extension answers these, 404 outside)."""
JUPYTER_TILES = "toolkit/tiles/{z}/{x}/{y}.png"
"""The tiles' path under a Jupyter server's base URL (:mod:`toolkit.jupyter.tiles`)."""
TILES_NOTE = "No base map here: it needs toolkit's Jupyter extension (open this in Jupyter with toolkit installed)"
"""The one line a map shows over itself where its base map cannot be drawn (no Jupyter page, no embedded tile)."""
VIEW_WIDTH, VIEW_HEIGHT = 1000, 600
"""The viewport (CSS pixels) :func:`first_view` assumes where a map's width or height is not given in pixels
(``width="100%"``: a saved file opened in a 1000-pixel-wide window)."""


# ------------------------------------------------------------------ base layer
def tiles_for_base_url(base_url: str) -> str:
    """The XYZ URL template of the tiles of the sandbox at ``base_url``."""
    return f"{base_url.rstrip('/')}/sandbox/tiles/{{z}}/{{x}}/{{y}}.png"


def tiles_for(client) -> str:
    """The default base layer of ``client``: its sandbox's tiles when bound to a sandbox (the live source, as the
    kernel reaches it: a map's HTML never holds it), else OpenStreetMap."""
    sandbox = getattr(client, "sandbox", None)
    base = getattr(sandbox, "base_url", None)
    if not base:
        return OSM
    template = tiles_for_base_url(base)
    try:
        _live[template] = weakref.ref(sandbox)
    except TypeError:                              # a stand-in that cannot be weakly referenced
        pass
    return template


def is_sandbox_tiles(tiles) -> bool:
    """Whether ``tiles`` (a base layer as :func:`resolve_tiles` gives it) is a sandbox's tile template.

    >>> is_sandbox_tiles("http://127.0.0.1:8000/sandbox/tiles/{z}/{x}/{y}.png"), is_sandbox_tiles("OpenStreetMap")
    (True, False)
    """
    return isinstance(tiles, str) and tiles.endswith("/sandbox/tiles/{z}/{x}/{y}.png")


def note_binding(client) -> None:
    """Record where the newest client of the process is bound (called by :class:`toolkit.Client`)."""
    _binding["tiles"] = tiles_for(client)
    register_notebook_display()


def default_tiles() -> str:
    """The base layer of a map that was given no ``tiles=`` and whose data does not know its client: the sandbox
    tiles when the most recent ``toolkit.connect()`` bound to a sandbox, else OpenStreetMap."""
    return _binding["tiles"] or OSM


def resolve_tiles(tiles=None, data=None) -> str:
    """``tiles`` if given, else the tiles ``data`` carries (``.tiles`` or ``.attrs['tiles']``), else
    :func:`default_tiles`."""
    if tiles:
        return tiles
    carried = getattr(data, "tiles", None)
    if carried is None:
        carried = (getattr(data, "attrs", None) or {}).get("tiles") if hasattr(data, "attrs") else None
    return carried or default_tiles()


# ------------------------------------------------------------------ assets
@lru_cache(maxsize=None)
def _read(name: str) -> str:
    """An asset's text without indentation (as :func:`_squeezed_render` would leave it; the files are ES5 and
    CSS: no multi-line strings)."""
    return _squeeze((HERE / ASSETS[name][1]).read_text(encoding="utf-8"))


def _squeeze(text: str) -> str:
    return re.sub(r"\n\s+", "\n", text)


def inline_assets(names) -> str:
    """``<style>``/``<script>`` tags holding the named assets (in load order)."""
    out = []
    for name in ORDER:
        if name in names:
            kind, _ = ASSETS[name]
            body = _read(name)
            out.append(f"<style>{body}</style>" if kind == "css" else f"<script>{body}</script>")
    return "\n".join([*out, JQUERY_SHIM])


_BOLD = re.compile(r"<(b|strong|th|h[1-6])\b[^>]*>(.*?)</\1\s*>", re.S | re.I)
"""Elements a browser draws bold by default: their text also gets the bold face."""


def hangul_font_css(text: str) -> str:
    """A ``<style>`` with the bundled Hangul font (NanumGothic, SIL OFL) cut down to the non-ASCII characters of
    ``text`` and inlined as WOFF data URLs, used by the map's HTML text (tooltips, popups, legend, attribution),
    so Hangul shows on a machine without a CJK font. Empty when ``text`` has no such character.

    The family comes first in the map's font list: it holds only those characters, so every other character
    still draws in the fonts after it, and Hangul never reaches them (chromium drew a bold run of Hangul words,
    the legend's title ``<b>교통 상황</b>``, as boxes when Arial came before this family: Liberation Sans Bold,
    Arial on Linux, took the run whole). Text in bold elements (``<b>``, ``<strong>``, ``<th>``, headings) gets a
    bold face cut from NanumGothic Bold to just its characters, so it is drawn in the real bold rather than emboldened by the browser.

    >>> css = hangul_font_css("<b>교통 상황</b> 정체")                         # doctest: +SKIP
    >>> css.count("@font-face"), "font-weight:bold" in css                    # doctest: +SKIP
    (2, True)
    """
    chars = _hangul_chars(text)
    if not chars:
        return ""
    faces = [_font_face(chars, bold=False)]
    bold = _hangul_chars("".join(m.group(2) for m in _BOLD.finditer(text)))
    if bold:
        faces.append(_font_face(bold, bold=True))
    return ("<style>" + "".join(faces) + ".leaflet-container,.toolkit-legend{font-family:"
            "'toolkit-hangul','Helvetica Neue',Arial,Helvetica,sans-serif}</style>")


_ESCAPED = re.compile(r"\\u([0-9a-fA-F]{4})")


def _hangul_chars(text: str) -> str:
    """The characters of ``text`` above U+2000, JSON's ``\\uXXXX`` escapes read as the characters they stand for
    (a layer's options, the attribution among them, are written escaped into the map's script).

    >>> _hangul_chars('"\\uc0c1\\uad8c" 상')
    '권상'
    """
    text = _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)
    return "".join(sorted({c for c in text if ord(c) > 0x2000}))


def _font_face(chars: str, bold: bool) -> str:
    # the base64 is cut into lines of 40 with CSS line continuations (backslash-newline, removed by the CSS
    # parser), so no long run of it looks like a token to the notebooks' secret scan
    data = _font_subset(chars, bold)
    wrapped = "\\\n".join(data[i:i + 40] for i in range(0, len(data), 40))
    return ("@font-face{font-family:'toolkit-hangul';src:url('data:font/woff;base64,"
            f"{wrapped}') format('woff')" + (";font-weight:bold}" if bold else "}"))


@lru_cache(maxsize=64)
def _font_subset(chars: str, bold: bool = False) -> str:
    """The base64 WOFF of NanumGothic (``bold``: NanumGothic Bold) cut down to ``chars``, made in a child
    process: fontTools and the parsed font take about 30 MB that would otherwise stay in the kernel for good (a
    class of 60 kernels on one machine pays that 60 times); the same bytes are made in this process where no
    child can be started."""
    import os
    import subprocess
    import sys

    code = ("import sys; from toolkit.mapassets import _subset_here; "
            "sys.stdout.write(_subset_here(sys.stdin.read(), sys.argv[1] == 'bold'))")
    here = str(Path(__file__).resolve().parents[2])          # the folder holding the toolkit package
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)}
    try:
        done = subprocess.run([sys.executable, "-c", code, "bold" if bold else "regular"], input=chars,
                              capture_output=True, text=True, encoding="utf-8", timeout=120, env=env)
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    return _subset_here(chars, bold)


def _subset_here(chars: str, bold: bool = False) -> str:
    """:func:`_font_subset` in this process."""
    import base64
    import io
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    from ..fonts import hangul_font_path

    logging.getLogger("fontTools").setLevel(logging.ERROR)      # "TSI0 NOT subset …": tables it drops anyway
    options = subset.Options()
    options.flavor = "woff"
    options.hinting = False
    options.layout_features = []
    options.name_IDs = [0, 1, 2]
    options.recalc_timestamp = False
    with TTFont(str(hangul_font_path(bold)), recalcTimestamp=False) as font:    # same bytes on every run
        sub = subset.Subsetter(options)
        sub.populate(text=chars)
        sub.subset(font)
        font.flavor = "woff"
        buf = io.BytesIO()
        font.save(buf)
    return base64.b64encode(buf.getvalue()).decode()


def _walk(element, seen=None):
    """The element and everything below it, in tree order: children, and the header/html/script parts that
    popups and figures keep outside their children."""
    seen = set() if seen is None else seen
    if id(element) in seen:
        return
    seen.add(id(element))
    yield element
    parts = [getattr(element, p, None) for p in ("header", "html", "script")]
    for child in [*(p for p in parts if hasattr(p, "_children")), *list(element._children.values())]:
        yield from _walk(child, seen)


#: folium's popups build their content with ``$(`<div>…</div>`)[0]`` (jQuery); toolkit maps do not load
#: jQuery, so this shim provides exactly that call.
JQUERY_SHIM = ("<script>window.$ = window.$ || function (h) { var t = document.createElement('template');"
               " t.innerHTML = String(h).trim(); return [t.content.firstChild]; };</script>")


def _renumber(elements) -> None:
    """Give the elements ids 0001, 0002 … in order, and re-key the children dicts that were keyed by the old
    names (templates print those keys, e.g. a popup's content variable)."""
    old = {id(el): el.get_name() for el in elements}
    for n, el in enumerate(elements, start=1):
        el._id = f"{n:04d}"
    for el in elements:
        el._children = type(el._children)(
            (child.get_name() if key == old.get(id(child)) else key, child) for key, child in el._children.items())


#: A transparent 1×1 PNG: the tile of a map that cannot draw its base map (Leaflet's own blank GIF is never
#: marked loaded).
BLANK_TILE = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNgYGBgAAAABQAB"
              "eqhXUAAAAABJRU5ErkJggg==")
#: The sandbox base layer's tile source, resolved in the browser when the map is drawn (see the module's
#: docstring): the layer's embedded tiles first (a saved file), else the Jupyter page's ``baseUrl`` +
#: :data:`JUPYTER_TILES`, else a blank tile; :data:`TILES_NOTE` goes over the map once the view has settled
#: with a blank tile in it (not for the tiles of the view a ``fit_bounds`` replaces at once), or when the
#: Jupyter route answers an error (a Jupyter without toolkit's extension).
TILES_JS = ("<script>(function(){if(!window.L||L.TileLayer.Toolkit)return;"
            "var BLANK='" + BLANK_TILE + "';"
            "function jupyterBase(){var w=window;for(var i=0;i<16&&w;i++){try{"
            "var el=w.document.getElementById('jupyter-config-data');"
            "if(el){var b=(JSON.parse(el.textContent||'{}').baseUrl)||'/';"
            "if(b.charAt(0)!=='/')b='/'+b;if(b.charAt(b.length-1)!=='/')b+='/';return w.location.origin+b;}"
            "}catch(e){return null;}if(w.parent===w)break;w=w.parent;}return null;}"
            "L.TileLayer.Toolkit=L.TileLayer.extend({"
            "getTileUrl:function(c){var k=c.z+'/'+c.x+'/'+c.y,e=this._tkEmbedded;if(e&&e[k])return e[k];"
            "if(this._tkBase===undefined)this._tkBase=jupyterBase();"
            "if(this._tkBase)return this._tkBase+'" + JUPYTER_TILES.replace("{z}/{x}/{y}", "'+k+'") + "';"
            "return BLANK;},"
            "_tkCheck:function(){for(var k in this._tiles){var t=this._tiles[k];"
            "if(t.current&&t.el&&t.el.src===BLANK){this._tkNote();return;}}},"
            "_tkNote:function(){if(this._tkNoted||!this._map)return;this._tkNoted=true;"
            "var d=L.DomUtil.create('div','toolkit-tiles-note',this._map.getContainer());"
            "d.style.cssText='position:absolute;left:50%;top:10px;transform:translateX(-50%);z-index:1000;"
            "background:rgba(255,255,255,.92);padding:3px 8px;border-radius:4px;font:12px sans-serif;"
            "max-width:45%;text-align:center;pointer-events:none';"
            "d.textContent=" + repr(TILES_NOTE).replace("\\'", "\\u0027") + ";}});"
            "L.tileLayer.toolkit=function(o,e){var l=new L.TileLayer.Toolkit('',o);l._tkEmbedded=e||null;"
            "l.on('load',l._tkCheck,l);l.on('tileerror',function(){l._tkNote();});return l;};})();</script>")


@lru_cache(maxsize=None)
def _tile_layer_class():
    import folium
    from folium.template import Template           # jinja2 with folium's filters (tojavascript)

    class ToolkitTileLayer(folium.TileLayer):
        """The sandbox city's base layer: no URL in the HTML, the tiles resolved in the browser (``TILES_JS``);
        ``embedded`` (``{"z/x/y": data URL}``, set by :meth:`save` only) is drawn first."""

        _template = Template("{% macro script(this, kwargs) %}var {{ this.get_name() }} = L.tileLayer.toolkit("
                             "{{ this.options|tojavascript }}{% if this.embedded %}, {{ this.embedded|tojson }}"
                             "{% endif %});{% endmacro %}")
        embedded = None

    return ToolkitTileLayer


@lru_cache(maxsize=None)
def _map_class():
    import folium
    from branca.element import CssLink, Element, JavascriptLink

    class ToolkitMap(folium.Map):
        """A :class:`folium.Map` that inlines its assets and numbers its element ids before rendering; in a
        notebook it shows as its data form beside folium's HTML (:func:`map_bundle`)."""

        def _repr_mimebundle_(self, include=None, exclude=None):
            return map_bundle(self)

        def render(self, **kwargs):
            figure = self.get_root()
            needed = set(ALWAYS)
            # elements that folium's own render() adds (SetIcon, ElementAddToElement …) are marked after a render
            # and dropped before the next one (folium would add them again), so rendering twice gives the same HTML
            for e in list(_walk(self)):
                e._children = type(e._children)((k, c) for k, c in e._children.items()
                                                if not getattr(c, "_toolkit_helper", False))
            elements = [e for e in _walk(self) if e is not figure]
            for el in elements:
                if "_toolkit_assets" not in el.__dict__:
                    links = [*(getattr(el, "default_js", None) or []), *(getattr(el, "default_css", None) or [])]
                    el._toolkit_assets = {name for name, _ in links if name in ASSETS}
                    el.default_js, el.default_css = [], []    # instance attributes: no CDN link is rendered
                needed.update(el._toolkit_assets)
            _renumber([figure, *elements])
            # the figure's script part is filled by this render (keyed by element name); the helpers of a
            # previous render had other names, so start it empty
            figure.script._children = type(figure.script._children)()
            tiles_js = TILES_JS if any(isinstance(e, _tile_layer_class()) for e in elements) else ""
            figure.header.add_child(Element(inline_assets(needed) + tiles_js), name="toolkit_assets")
            if any(_uses_default_icon(e) for e in elements):      # only then: the three images are ~6 KB
                figure.header.add_child(Element(default_marker_script()), name="toolkit_marker_icons")
            from .spec import ICON_COLORS

            for e in elements:
                if isinstance(e, folium.Icon):
                    e._template = _pin_template(ICON_COLORS.get(str(e.options.get("marker_color")), ICON_COLORS["blue"]))
            figure.header.add_child(Element(f"<style>{MAP_CSS}</style>"), name="toolkit_map_css")
            rules = sorted({e._toolkit_css for e in elements if hasattr(e, "_toolkit_css")})
            if rules:
                figure.header.add_child(Element(f"<style>{DOT_CSS}{''.join(rules)}</style>"), name="toolkit_dots")
            super().render(**kwargs)
            text = figure.html.render() + figure.script.render()
            figure.header.add_child(Element(hangul_font_css(text)), name="toolkit_hangul_font")
            numbered = {id(e) for e in elements}
            for e in _walk(self):
                if id(e) not in numbered:
                    e._toolkit_helper = True
            for name, child in list(figure.header._children.items()):   # e.g. branca's d3 link: never rendered
                if isinstance(child, (JavascriptLink, CssLink)):
                    del figure.header._children[name]

        def save(self, outfile, close_file: bool = True, **kwargs):
            """Write the map as one HTML file that draws anywhere: Leaflet inlined, and where the base layer is
            the sandbox's, the tiles of the map's first view embedded as data URLs (:func:`first_view`: the
            fitted bounds or the centre and zoom, in the map's size or :data:`VIEW_WIDTH` ×
            :data:`VIEW_HEIGHT`), fetched from the live sandbox (``m.toolkit_tiles``) or, where it is gone, drawn
            in this process from the package's city. Beyond the first view the file asks the Jupyter page it is
            shown in, or shows :data:`TILES_NOTE`. A first view is about 15 tiles in a 1000-pixel-wide window,
            stored as palette PNGs: about 0.2–0.4 MB added to the file (``tests/bench/bench_map_tiles.py``).

            >>> m = toolkit.maps.places_map(cafes, center=(129.059, 35.158), radius=500)   # doctest: +SKIP
            >>> m.save("cafes.html")         # opens with no toolkit and no server, the tiles embedded   # doctest: +SKIP
            """
            layer = next((e for e in _walk(self) if isinstance(e, _tile_layer_class())), None)
            if layer is None:
                return super().save(outfile, close_file=close_file, **kwargs)
            layer.embedded = embedded_tiles(self)
            try:
                return super().save(outfile, close_file=close_file, **kwargs)
            finally:
                layer.embedded = None

    return ToolkitMap


MARKER_IMAGES = ("marker-icon.png", "marker-icon-2x.png", "marker-shadow.png")


@lru_cache(maxsize=None)
def _uses_default_icon(element) -> bool:
    """Whether ``element`` draws Leaflet's default marker icon: a ``folium.Marker`` given no ``icon=``, or GeoJSON
    with points and no ``marker=`` (its points are then default markers)."""
    import folium
    from folium.vector_layers import Circle, CircleMarker

    if isinstance(element, folium.Marker) and not isinstance(element, (Circle, CircleMarker)):   # vectors subclass it
        return not any(isinstance(c, (folium.Icon, folium.DivIcon, folium.CustomIcon))
                       for c in element._children.values())
    if isinstance(element, folium.GeoJson) and getattr(element, "marker", None) is None:
        data = getattr(element, "data", None)
        feats = data.get("features", []) if isinstance(data, dict) else []
        return any(((f or {}).get("geometry") or {}).get("type") in ("Point", "MultiPoint") for f in feats)
    return False


def default_marker_script() -> str:
    """A ``<script>`` that gives Leaflet's default marker icon (``L.Icon.Default``, what ``folium.Marker`` draws
    without an ``icon=``) its three images (Leaflet 1.9.4's ``dist/images``, this folder) as data URIs. Leaflet
    finds them through its stylesheet's URL, which an inlined stylesheet does not have: without this the marker
    is a broken image. Goes after Leaflet in the map's header.

    >>> "data:image/png;base64," in default_marker_script()
    True
    """
    import base64

    icon, retina, shadow = ("data:image/png;base64," + base64.b64encode((HERE / name).read_bytes()).decode()
                            for name in MARKER_IMAGES)
    # imagePath "" (a string) stops Leaflet from looking for the images next to its stylesheet
    return ("<script>L.Icon.Default.imagePath = ''; L.Icon.Default.mergeOptions({iconUrl: '%s', "
            "iconRetinaUrl: '%s', shadowUrl: '%s'});</script>" % (icon, retina, shadow))


def new_map(location, *, zoom_start: int = 14, tiles=None, data=None, **kw):
    """A toolkit map (a ``folium.Map``) at ``location`` ``(lat, lon)`` with the base layer of
    :func:`resolve_tiles` (``tiles`` or what ``data`` carries or the process default).

    >>> m = new_map((35.155, 129.06), tiles="OpenStreetMap")             # doctest: +SKIP
    >>> "cdn" in m.get_root().render()                                   # doctest: +SKIP
    False
    """
    import folium

    chosen = resolve_tiles(tiles, data)
    m = _map_class()(location=location, zoom_start=zoom_start, tiles=None, control_scale=False, **kw)
    m.add_child(_scale_control(), name="toolkit_scale")
    m._toolkit_scale = True
    if is_sandbox_tiles(chosen):
        _tile_layer_class()(JUPYTER_TILES, attr=SANDBOX_ATTRIBUTION, name="sandbox", max_zoom=MAX_ZOOM,
                            min_zoom=MIN_ZOOM, max_native_zoom=MAX_ZOOM).add_to(m)
    else:
        folium.TileLayer(chosen).add_to(m)
    m.toolkit_tiles = chosen
    figure = m.get_root()
    figure.render = types.MethodType(_squeezed_render, figure)
    figure._repr_html_ = types.MethodType(_framed_html, figure)
    return m


TRUST_NOTE = ("This map draws in JupyterLab with toolkit's extension; elsewhere it needs the notebook trusted "
              "(command palette: Trust Notebook)")
"""What a stored map's HTML says under the map where it cannot run (an untrusted notebook in a front end without
toolkit's extension, which draws the map's data form instead)."""


def _framed_html(figure, **kwargs) -> str:
    """folium's notebook HTML (the map in a ``srcdoc`` iframe) at the map's own height when it is given in pixels,
    instead of a box 60 % as high as it is wide, which cut a 520-pixel map off below 870 pixels of width."""
    import html as _html

    maps = [c for c in figure._children.values() if hasattr(c, "location")]
    height = _pixels(getattr(maps[0], "height", None), 0) if maps else 0
    if not height:
        return type(figure)._repr_html_(figure, **kwargs)
    return (f'<div style="width:100%;position:relative;height:{height}px">'
            f'<span style="color:#565656">{_html.escape(TRUST_NOTE)}</span>'
            f'<iframe srcdoc="{_html.escape(figure.render(**kwargs))}" style="position:absolute;width:100%;'
            'height:100%;left:0;top:0;border:none !important;" allowfullscreen webkitallowfullscreen '
            'mozallowfullscreen></iframe></div>')


def map_bundle(m) -> dict:
    """What a notebook stores of folium map ``m``: folium's HTML (``text/html``) and, where the map has one, its
    data form (:data:`toolkit.mapassets.spec.MIME`), which toolkit's lab extension draws whatever the notebook's
    trust (:mod:`toolkit.mapassets.spec`)."""
    from .spec import MIME, map_spec, stored

    html = m._repr_html_()
    spec = map_spec(m)
    return {MIME: stored(spec), "text/html": html} if spec is not None else {"text/html": html}


def register_notebook_display() -> bool:
    """Give every ``folium.Map`` shown in this IPython (one's own folium maps too) the data form beside its HTML
    (:func:`map_bundle`), so it draws in an untrusted notebook where toolkit's lab extension is installed. Called
    by ``toolkit.connect()``; registered by class name, so folium is not imported. False outside IPython."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    formatter = getattr(getattr(shell, "display_formatter", None), "mimebundle_formatter", None)
    if formatter is None:
        return False
    formatter.for_type_by_name("folium.folium", "Map", map_bundle)
    return True


def _scale_control():
    """Leaflet's scale bar in metres only (folium's ``control_scale`` shows feet too), bottom left."""
    from branca.element import MacroElement
    from jinja2 import Template

    class ScaleControl(MacroElement):
        _template = Template("{% macro script(this, kwargs) %}L.control.scale({imperial: false, maxWidth: 120})"
                             ".addTo({{ this._parent.get_name() }});{% endmacro %}")

        def __init__(self):
            super().__init__()
            self._name = "ToolkitScale"

    return ScaleControl()


MAP_CSS = (".leaflet-control-attribution{max-width:62%;white-space:normal;line-height:1.25;font-size:10px}"
           ".toolkit-pin{position:relative;width:24px;height:24px;border-radius:50% 50% 50% 0;transform:rotate(-45deg);"
           "border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6);box-sizing:border-box}"
           ".toolkit-pin::after{content:'';position:absolute;left:6px;top:6px;width:8px;height:8px;"
           "border-radius:50%;background:#fff}")
"""The look every toolkit map adds: the attribution keeps to the right 62 % (wrapping), so the scale bar at the
bottom left is never under it; ``folium.Icon`` pins (:func:`_pin_template`)."""


def _pin_template(color: str):
    """A ``folium.Icon``'s script as a pin of its colour (a ``DivIcon``): folium draws ``Icon`` with the
    awesome-markers plugin, which toolkit maps do not load, and the marker fell back to Leaflet's blue one."""
    from folium.template import Template

    return Template("{% macro script(this, kwargs) %}var {{ this.get_name() }} = L.divIcon({html: "
                    "'<div class=\"toolkit-pin\" style=\"background:" + color + "\"></div>', className: "
                    "'toolkit-pin-icon', iconSize: [24, 24], iconAnchor: [12, 30], popupAnchor: [0, -28]});"
                    "{% endmacro %}")


def _squeezed_render(figure, **kwargs) -> str:
    """The figure's HTML without the indentation and blank lines of folium's templates (a third of a map of
    many markers; whitespace at the start of a line means nothing in its HTML, JS or CSS)."""
    return _squeeze(type(figure).render(figure, **kwargs))


DOT_CSS = (".toolkit-dot{border-radius:50%;border:2px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6);color:#fff;"
           "font-weight:bold;font-family:sans-serif;text-align:center;box-sizing:border-box}")


def dot_icon(color: str, size: int = 14, label: str = ""):
    """A small round marker icon (a ``folium.DivIcon``, no icon font): ``label`` (a letter) inside it. Its look
    is one CSS class per colour and size, written once per map (a map of many markers stays small)."""
    import html

    import folium

    cls = f"tk-{color.lstrip('#')}-{size}"
    icon = folium.DivIcon(html=html.escape(label), icon_size=(size + 4, size + 4),
                          icon_anchor=(size // 2 + 2, size // 2 + 2), class_name=f"toolkit-dot {cls}")
    # two marker attributes the toolkit adds to folium's icon (read back with getattr/hasattr): folium's DivIcon
    # declares neither, so mypy cannot know them
    icon._toolkit_css = (  # type: ignore[attr-defined]
        f".{cls}{{background:{color};font-size:{max(size - 6, 8)}px;line-height:{size}px}}")
    icon._toolkit_dot = (color, size, label)  # type: ignore[attr-defined]  # the data form of the map draws it
    return icon


def add_legend(m, title: str, items) -> None:
    """A legend in the map's upper right corner: ``items`` are ``(colour, label)`` pairs, or one
    ``("gradient", [colours], low, high)`` tuple for a continuous scale."""
    import html

    from branca.element import Element

    rows, data = [], []
    for item in items:
        if item[0] == "gradient":
            data.append({"gradient": [str(c) for c in item[1]], "low": float(item[2]), "high": float(item[3])})
        else:
            data.append({"color": str(item[0]), "label": str(item[1])})
    m._toolkit_legend = {"title": str(title), "items": data}       # the map's data form (toolkit.mapassets.spec)
    for item in items:
        if item[0] == "gradient":
            _, colors, lo, hi = item
            rows.append(f'<div style="height:10px;width:150px;background:linear-gradient(to right,{",".join(colors)})">'
                        f'</div><div style="display:flex;justify-content:space-between;width:150px">'
                        f"<span>{lo:g}</span><span>{hi:g}</span></div>")
        else:
            color, label = item
            rows.append(f'<div><span style="display:inline-block;width:18px;height:5px;background:{color};'
                        f'vertical-align:middle;margin-right:6px"></span>{html.escape(str(label))}</div>')
    box = ('<div class="toolkit-legend" style="position:absolute;top:10px;right:10px;z-index:1000;'
           'background:rgba(255,255,255,.9);padding:6px 8px;border-radius:4px;font-size:12px;'
           f'box-shadow:0 1px 4px rgba(0,0,0,.4)"><b>{html.escape(title)}</b>{"".join(rows)}</div>')
    m.get_root().html.add_child(Element(box), name="toolkit_legend")


# ------------------------------------------------------------------ a saved map's first view
def _world_px(lat: float, lon: float, z: float) -> tuple[float, float]:
    """Web Mercator pixels of ``(lat, lon)`` at zoom ``z`` (Leaflet's ``map.project``)."""
    lat = max(min(lat, 85.0511287798), -85.0511287798)
    scale = 256 * 2 ** z
    s = math.sin(math.radians(lat))
    return (lon + 180) / 360 * scale, (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * scale


def _unproject(px: float, py: float, z: float) -> tuple[float, float]:
    scale = 256 * 2 ** z
    lon = px / scale * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * py / scale))))
    return lat, lon


def _pixels(value, default: int) -> int:
    """A folium size (``(520.0, "px")``, ``520``, ``"520px"``, ``(100.0, "%")``) in CSS pixels, ``default``
    for a relative one."""
    if isinstance(value, tuple) and len(value) == 2:
        return int(value[0]) if value[1] == "px" else default
    if isinstance(value, (int, float)):
        return int(value)
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(px)?\s*", str(value or ""))
    return int(float(m.group(1))) if m else default


def first_view(m, width: int | None = None, height: int | None = None) -> dict:
    """The first view of a toolkit map as Leaflet draws it: ``zoom``, ``center`` ``(lat, lon)``, ``size`` and
    the ``tiles`` ``[(z, x, y), ...]`` it loads. The view is the map's last ``fit_bounds`` (as Leaflet's
    ``fitBounds``: the largest whole zoom that holds the bounds, within the layer's zooms) or its location and
    ``zoom_start``; the viewport is ``width`` × ``height``, else the map's own size in pixels, else
    :data:`VIEW_WIDTH` × :data:`VIEW_HEIGHT`.

    >>> m = new_map((35.155, 129.06), zoom_start=14, tiles="http://h:1/sandbox/tiles/{z}/{x}/{y}.png", height=520)
    >>> view = first_view(m)      # a 1000 × 520 window: 4 × 3 tiles at zoom 14 (one more column at an edge)
    >>> view["zoom"], view["size"], len(view["tiles"]) in (12, 15, 16, 20)
    (14, (1000, 520), True)
    """
    from folium.map import FitBounds

    w = width or _pixels(getattr(m, "width", None), VIEW_WIDTH)
    h = height or _pixels(getattr(m, "height", None), VIEW_HEIGHT)
    opts = getattr(m, "options", {}) or {}
    layers = [e for e in _walk(m) if hasattr(e, "tiles") and hasattr(e, "options") and e is not m]
    lo = min((l.options.get("min_zoom", l.options.get("minZoom", 0)) for l in layers), default=0)
    hi = max((l.options.get("max_zoom", l.options.get("maxZoom", 18)) for l in layers), default=18)
    lo = opts.get("min_zoom", opts.get("minZoom", lo)) or lo
    hi = opts.get("max_zoom", opts.get("maxZoom", hi)) or hi
    zoom = float(opts.get("zoom", getattr(m, "zoom_start", 10)) or 10)
    # folium's FitBounds, or toolkit.maps.fit's element (which fits again once the map has its size)
    fits = [e for e in m._children.values()
            if isinstance(e, FitBounds) or (getattr(e, "_name", "") == "FitData" and hasattr(e, "bounds"))]
    bounds = padding = None
    if fits:
        fb = fits[-1]
        bounds = fb.bounds
        fo: dict[str, Any] = (fb.options or {}) if isinstance(fb, FitBounds) else {"padding": (fb.padding, fb.padding),
                                                                     "maxZoom": fb.max_zoom}
        pad = fo.get("padding") or (0, 0)
        tl = fo.get("paddingTopLeft") or fo.get("padding_top_left") or pad
        br = fo.get("paddingBottomRight") or fo.get("padding_bottom_right") or pad
        padding = (tuple(tl), tuple(br), fo.get("maxZoom", fo.get("max_zoom")))
    return view_of(m.location, zoom, lo, hi, bounds, padding, w, h)


def view_of(center, zoom: float, lo: float, hi: float, bounds, padding, w: int, h: int) -> dict:
    """The view Leaflet shows in a ``w`` × ``h`` viewport (:func:`first_view`): ``center`` ``(lat, lon)`` at
    ``zoom`` within the zooms ``lo``–``hi``, or, with ``bounds`` ``((south, west), (north, east))``, the view of
    ``fitBounds`` with ``padding`` ``((left, top), (right, bottom), max_zoom)``.

    >>> view_of((35.155, 129.06), 14, 10, 18, None, None, 1000, 520)["zoom"]
    14
    """
    zoom = max(lo, min(hi, float(zoom)))
    lat, lon = (float(v) for v in center)
    if bounds:
        (s_, w_), (n_, e_) = ((float(a), float(b)) for a, b in bounds)
        tl, br, mz = padding or ((0, 0), (0, 0), None)
        sx, sy = _world_px(s_, w_, zoom)
        nx, ny = _world_px(n_, e_, zoom)
        bw, bh = abs(nx - sx), abs(sy - ny)
        avail_w, avail_h = w - tl[0] - br[0], h - tl[1] - br[1]
        scale = min(avail_w / bw if bw else math.inf, avail_h / bh if bh else math.inf)
        if math.isfinite(scale):
            z = zoom + math.log2(scale)
            z = math.floor(round(z / 0.01) * 0.01)
            zoom = max(lo, min(hi, z))
        else:
            zoom = hi
        if isinstance(mz, (int, float)):
            zoom = min(mz, zoom)
        ax, ay = _world_px(s_, w_, zoom)
        bx, by = _world_px(n_, e_, zoom)
        lat, lon = _unproject((ax + bx) / 2 + (br[0] - tl[0]) / 2, (ay + by) / 2 + (br[1] - tl[1]) / 2, zoom)
    z = int(round(zoom))
    cx, cy = (math.floor(v) for v in _world_px(lat, lon, z))
    tol = 8                                  # pixels: sub-pixel differences from the browser's own arithmetic
    n = 1 << z
    x0, x1 = math.floor((cx - w / 2 - tol) / 256), math.ceil((cx + w / 2 + tol) / 256) - 1
    y0, y1 = math.floor((cy - h / 2 - tol) / 256), math.ceil((cy + h / 2 + tol) / 256) - 1
    tiles = [(z, x, y) for y in range(max(y0, 0), min(y1, n - 1) + 1) for x in range(max(x0, 0), min(x1, n - 1) + 1)]
    return {"zoom": z, "center": (lat, lon), "size": (w, h), "tiles": tiles}


def _fetch_live(template: str, keys) -> dict:
    """PNG bytes of the tiles ``keys`` from the live sandbox of ``template`` (with its handle's headers: a
    class sandbox's world); the tiles it could not give are left out."""
    import httpx

    ref = _live.get(template)
    handle = ref() if ref else None
    headers = dict(getattr(handle, "headers", None) or {})
    out = {}
    try:
        from ..http import LOOPBACK_DIRECT

        with httpx.Client(headers=headers, timeout=10.0, mounts=LOOPBACK_DIRECT) as http:
            for z, x, y in keys:
                r = http.get(template.format(z=z, x=x, y=y))
                if r.status_code == 200 and r.headers.get("content-type", "").startswith("image/png"):
                    out[(z, x, y)] = r.content
    except httpx.HTTPError:
        pass
    return out


def embedded_tiles(m, width: int | None = None, height: int | None = None) -> dict:
    """``{"z/x/y": "data:image/png;base64,..."}`` of the tiles of ``m``'s :func:`first_view`, from the live
    sandbox (``m.toolkit_tiles``), or drawn in this process from the package's city where it is gone; stored as
    128-colour palette PNGs (:func:`_compact`)."""
    keys = [k for k in first_view(m, width, height)["tiles"] if MIN_ZOOM <= k[0] <= MAX_ZOOM]
    template = getattr(m, "toolkit_tiles", "")
    got = _fetch_live(template, keys) if is_sandbox_tiles(template) else {}
    missing = [k for k in keys if k not in got]
    if missing:
        from ..data import root
        from ..sandbox.tiles.render import renderer

        rend = renderer(root())
        got.update({k: rend.tile(*k) for k in missing})
    return {f"{z}/{x}/{y}": "data:image/png;base64," + base64.b64encode(_compact(got[(z, x, y)])).decode()
            for z, x, y in keys}


def _compact(png: bytes) -> bytes:
    """A tile as a 128-colour palette PNG (no dithering): about a third of the bytes of the renderer's RGB PNG,
    the same map to the eye (flat fills, a few line and label colours with their antialiasing)."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        small = img.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(png) else png
