"""A notebook as one HTML file a manager can read anywhere: ``jupyter nbconvert --to toolkit_html NOTEBOOK.ipynb``.

nbconvert's own HTML export leaves a reader without a Korean font with boxes for every Hangul character (headings,
markdown, tables), and a toolkit map grey with a note, since its base map comes from the Jupyter server it was
shown in. This exporter (nbconvert's HTML exporter with the ``lab`` template, shipped as the entry point
``toolkit_html`` of ``nbconvert.exporters``) writes a file that a machine with no Korean font, no toolkit and no
network shows whole:

* **Hangul**: the bundled NanumGothic (SIL OFL), cut down to the characters the page holds (regular, and bold for
  headings, ``<b>``, ``<strong>``, ``<th>``), embedded as WOFF and put first in the page's font lists (it holds
  only those characters, so every other one keeps the lab's fonts);
* **maps**: each toolkit map's data form (:mod:`toolkit.mapassets.spec`) drawn by the same drawing code as the
  lab extension (``toolkit-map.js``) with Leaflet inlined once for the page, at its first view in a
  :data:`MAP_WIDTH`-pixel box with the tiles of that view embedded (drawn here from the package's city, as
  ``m.save`` does): the view a reader moves beyond asks no server and stays blank (:func:`map_html`,
  :func:`map_assets`, :func:`draw_script`; the documentation site draws the walkthroughs' maps with the same three,
  with a first view for each width its column takes);
* figures (PNG), tables and markdown images are embedded as nbconvert embeds them.

What it adds, measured on the walkthroughs (``tests/browser/test_export.py`` prints it): Leaflet and the drawing
code once (about 200 KB), per map its first view's tiles (palette PNGs, about 15–25 tiles: 0.15–0.4 MB), and
the Hangul subsets (30–300 KB, with the number of distinct syllables). A map stored before toolkit maps carried
their data form keeps its HTML as nbconvert writes it.

>>> from nbconvert.exporters import get_exporter
>>> get_exporter("toolkit_html").__name__
'ToolkitHTMLExporter'
"""
from __future__ import annotations

import base64
import json
import re
from functools import lru_cache

from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor
from traitlets import Int, List, default

from ..mapassets import HERE as ASSETS, MAX_ZOOM, MIN_ZOOM, _compact, _font_face, _hangul_chars, _read, _BOLD
from ..mapassets.spec import MIME, spec_view

__all__ = ["ToolkitHTMLExporter", "ToolkitMapsPreprocessor", "MAP_WIDTH", "map_html", "map_assets", "draw_script"]

MAP_WIDTH = 1100
"""The width (CSS pixels) of a map in the export: its first view, and the tiles embedded, are those of this box."""
MAP_CLASS = "toolkit-export-map"


def _px(value, default: int) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(px)?\s*", str(value or ""))
    return int(float(m.group(1))) if m else default


def map_html(spec: dict, widths=(MAP_WIDTH,), counts: dict | None = None) -> str:
    """The HTML that stands for a toolkit map's data form ``spec`` in a page: a box the page's script
    (:func:`draw_script`) draws the map into, and beside it, as JSON, the spec, its first view in a box of each of
    ``widths`` (CSS pixels) and the tiles of those views as data URLs (drawn here from the package's city, as
    ``m.save`` does; none for a map whose base layer is not toolkit's). The script draws the map at the view of
    the widest of ``widths`` that fits the box's column (the narrowest where none does), the map at most that wide:
    the export gives one width, the documentation site one per width its column takes with the window.
    ``counts`` (``maps``, ``tiles``, ``tile_bytes``) is added to.

    >>> from toolkit.mapassets.spec import map_spec
    >>> from toolkit.mapassets import new_map
    >>> spec = map_spec(new_map((35.155, 129.06), zoom_start=15, tiles=None, height=400))
    >>> map_html(spec).startswith('<div class="toolkit-export-map"></div><script type="application/json"')
    True
    """
    counts = counts if counts is not None else {}
    for key in ("maps", "tiles", "tile_bytes"):
        counts.setdefault(key, 0)
    height = _px(spec.get("height"), 520)
    widths = sorted({int(w) for w in widths}, reverse=True)
    views = [(width, spec_view(spec, width, height)) for width in widths]
    keys = list(dict.fromkeys(key for _, view in views for key in view["tiles"]))
    payload = {"spec": spec, "tiles": _tiles(spec, keys, counts),
               "views": [{"width": width, "center": list(view["center"]), "zoom": view["zoom"]}
                         for width, view in views]}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    counts["maps"] += 1
    return (f'<div class="{MAP_CLASS}"></div>'
            f'<script type="application/json" class="toolkit-export-map-data">{text}</script>')


def _tiles(spec, keys, counts) -> dict:
    """``{"z/x/y": data URL}`` of the tiles ``keys`` of toolkit's base layer (none for a map without it)."""
    if not any(t.get("kind") == "toolkit" for t in spec.get("tiles") or []):
        return {}
    out = {}
    for z, x, y in keys:
        if MIN_ZOOM <= z <= MAX_ZOOM:
            png = _tile_png(z, x, y)
            out[f"{z}/{x}/{y}"] = "data:image/png;base64," + base64.b64encode(png).decode()
            counts["tiles"] += 1
            counts["tile_bytes"] += len(png)
    return out


@lru_cache(maxsize=512)
def _tile_png(z: int, x: int, y: int) -> bytes:
    """A tile of the package's city as the export embeds it (a palette PNG; drawn once per process: the maps of a
    notebook, or of a site, share many)."""
    from ..data import root
    from ..sandbox.tiles.render import renderer

    return _compact(renderer(root()).tile(z, x, y))


class ToolkitMapsPreprocessor(Preprocessor):
    """Each output holding a toolkit map's data form: its ``text/html`` becomes a box the page's script draws the
    map into, with the spec, the first view and that view's tiles (data URLs) beside it (:func:`map_html`)."""

    width = Int(MAP_WIDTH, help="The width of a map in the export, in CSS pixels.").tag(config=True)
    widths = List(Int(), default_value=[], help=(
        "Where given, instead of `width`: the widths (CSS pixels) a map's column takes on the page (one that "
        "follows the window); each map carries its first view at each, and is drawn at the widest that fits.")
    ).tag(config=True)

    def preprocess(self, nb, resources):
        resources.setdefault("toolkit", {"maps": 0, "tiles": 0, "tile_bytes": 0})
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        for output in cell.get("outputs", []):
            data = output.get("data") or {}
            spec = data.get(MIME)
            if not isinstance(spec, dict):
                continue
            data["text/html"] = map_html(spec, list(self.widths) or [self.width], counts=resources["toolkit"])
            del data[MIME]
        return cell, resources


def _no_amd(script: str) -> str:
    """A library inlined so that it takes its browser-global form even where the page has loaded require.js
    (nbconvert's template asks for it): ``define`` is hidden from it."""
    return "(function (define, module, exports) {\n" + script + "\n}).call(window);"


def map_assets() -> dict[str, str]:
    """What a page needs to draw the maps of :func:`map_html`, with no network: ``css`` (Leaflet's and the marker
    clusters' stylesheets; Leaflet's few images, its layer switcher's, left out) and ``js`` (Leaflet, the marker
    clusters and toolkit's drawing code, ``toolkit-map.js``, each in its browser-global form). The export inlines
    them once per file; the documentation site ships them as two files for the pages that have maps."""
    css = _read("leaflet_css").replace("url(images/", "url(data:,")
    script = re.sub(r"^/\*.*?\*/\s*", "", (ASSETS / "toolkit-map.js").read_text("utf-8"), count=1, flags=re.S)
    return {"css": css + _read("markerclustercss") + _read("markerclusterdefaultcss"),
            "js": "\n".join(_no_amd(s) for s in (_read("leaflet"), _read("markerclusterjs"), script))}


FONT_VARIABLES = ("--jp-content-font-family", "--jp-ui-font-family", "--jp-code-font-family")
_DEFAULT_FONTS = {
    "--jp-content-font-family": "system-ui, -apple-system, blinkmacsystemfont, 'Segoe UI', helvetica, arial, "
                                "sans-serif",
    "--jp-ui-font-family": "system-ui, -apple-system, blinkmacsystemfont, 'Segoe UI', helvetica, arial, sans-serif",
    "--jp-code-font-family": "menlo, consolas, 'DejaVu Sans Mono', monospace",
}


def _hangul_only(text: str) -> str:
    """The Hangul characters of ``text`` (the ranges of :data:`toolkit.jupyter.fonts.HANGUL_RANGES`): the page's
    other characters keep the reader's fonts."""
    from .fonts import HANGUL_RANGES

    return "".join(c for c in _hangul_chars(text) if any(lo <= ord(c) <= hi for lo, hi in HANGUL_RANGES))


def page_font_css(html: str) -> str:
    """A ``<style>``: NanumGothic cut down to the characters of ``html`` (and its bold face to those of its bold
    elements) as the first family of the page's fonts. Empty where the page has no Hangul."""
    text = re.sub(r"<script\b[^>]*>.*?</script>", " ", html, flags=re.S | re.I)    # the maps' data: drawn apart
    maps = " ".join(re.findall(r'<script[^>]*class="toolkit-export-map-data"[^>]*>(.*?)</script>', html, flags=re.S))
    chars = _hangul_only(re.sub(r"<[^>]+>", " ", text) + maps)
    if not chars:
        return ""
    faces = [_font_face(chars, bold=False)]
    bold = _hangul_only("".join(m.group(2) for m in _BOLD.finditer(text)) + maps)
    if bold:
        faces.append(_font_face(bold, bold=True))
    fonts = ";".join(f"{v}:'toolkit-hangul',{_DEFAULT_FONTS[v]}" for v in FONT_VARIABLES)
    return ("<style>" + "".join(faces) + f":root:root{{{fonts}}}"
            "body,.toolkit-map,.leaflet-container{font-family:'toolkit-hangul',system-ui,helvetica,arial,sans-serif}"
            "</style>")


DRAW = ("(function () {\n"
        "var icons = %s;\n"
        "function draw() {\n"
        "  document.querySelectorAll('." + MAP_CLASS + "').forEach(function (host) {\n"
        "    var data = JSON.parse(host.nextElementSibling.textContent);\n"
        "    var width = host.getBoundingClientRect().width, views = data.views || [];\n"
        "    var view = views[views.length - 1];\n"
        "    for (var i = 0; i < views.length; i++) {\n"
        "      if (views[i].width <= width + 0.5) { view = views[i]; break; }\n"
        "    }\n"
        "    window.toolkitMap.drawMap(L, host, data.spec, {embedded: data.tiles, markerIcons: icons,\n"
        "      fixedView: view ? {center: view.center, zoom: view.zoom} : null, maxWidth: view ? view.width : 0});\n"
        "  });\n"
        "}\n"
        "if (document.readyState === 'loading') {\n"
        "  document.addEventListener('DOMContentLoaded', draw);\n"
        "} else {\n"
        "  draw();\n"
        "}\n"
        "})();")


def draw_script() -> str:
    """The script that draws every map of :func:`map_html` on a page (after :func:`map_assets`' scripts): each at
    the first view of the widest of its widths that fits its column, at most that wide, with the tiles embedded
    (Leaflet's default marker given its images)."""
    return DRAW % _marker_icons()


def _marker_icons() -> str:
    """Leaflet's default marker images as data URLs (a JSON object for the drawing code)."""
    from ..mapassets import MARKER_IMAGES

    urls = ["data:image/png;base64," + base64.b64encode((ASSETS / n).read_bytes()).decode() for n in MARKER_IMAGES]
    return json.dumps(dict(zip(("iconUrl", "iconRetinaUrl", "shadowUrl"), urls)))


class ToolkitHTMLExporter(HTMLExporter):
    """nbconvert's HTML export (``lab`` template) with toolkit maps drawn at their first view from embedded tiles,
    and the Hangul of the page in an embedded subset of NanumGothic (see :mod:`toolkit.jupyter.export`)."""

    export_from_notebook = "HTML for any reader (toolkit: maps and Hangul embedded)"

    @default("template_name")
    def _template_name_default(self):
        return "lab"

    @default("embed_images")
    def _embed_images_default(self):
        return True

    def _init_preprocessors(self):
        super()._init_preprocessors()
        self.register_preprocessor(ToolkitMapsPreprocessor(parent=self), enabled=True)

    def from_notebook_node(self, nb, resources=None, **kw):
        html, resources = super().from_notebook_node(nb, resources, **kw)
        counts = resources.get("toolkit") or {"maps": 0}
        head = []
        if counts.get("maps"):
            assets = map_assets()
            head.append("<style>" + assets["css"] + "</style>")
            head.append("<script>" + assets["js"] + "</script>")
        head.append(page_font_css(html))
        head_html = "\n".join(h for h in head if h)
        html = html.replace("</head>", head_html + "\n</head>", 1)
        if counts.get("maps"):
            end = html.rindex("</body>")
            html = html[:end] + "<script>" + draw_script() + "</script>\n" + html[end:]
        return html, resources

