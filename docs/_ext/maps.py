"""Stored maps that draw on the site with no network and no Jupyter server, the way the HTML export draws them
(:mod:`toolkit.jupyter.export`, one implementation for both).

A walkthrough's map is stored twice: folium's HTML (which asks the Jupyter page it is shown in for the sandbox
city's tiles, and inlines Leaflet, 200 KB a map) and its data form (``application/vnd.toolkit.map+json``,
:mod:`toolkit.mapassets.spec`). The site reads each notebook through :func:`read_notebook` (``nb_custom_formats``
in ``conf.py``), which runs the export's :class:`~toolkit.jupyter.export.ToolkitMapsPreprocessor` on it: a map's
output becomes a box with its data form, its first view in a column of each of :data:`WIDTHS` and the tiles of
those views embedded as data URLs (drawn from the package's city), in place of folium's HTML. So myst-nb is given
HTML only, and meets no data form it would skip with a warning. A page holding maps loads Leaflet, the marker
clusters and toolkit's drawing code (``toolkit-map.js``, the lab extension's) once, from the site
(``_static/toolkit-maps.js`` and ``.css``, the libraries' licences beside them); each map is drawn at the view of the widest of :data:`WIDTHS` that
its column holds. Beyond that view the map says that its base map needs toolkit's Jupyter extension, as anywhere
else. The notebooks are not changed."""
from __future__ import annotations

from pathlib import Path

WIDTHS = (624, 720, 736, 358)
"""Widths (CSS pixels) of a notebook's output column in the theme, whose first views' tiles each map carries:
a 1280-pixel window, 1440 and wider, a tablet (768–1024) and a phone (390)."""
CSS, JS, LICENCES = "toolkit-maps.css", "toolkit-maps.js", "toolkit-maps-licences.txt"


def read_notebook(text: str):
    """A notebook as the site renders it: each toolkit map's data form made the export's map box (see above)."""
    import nbformat

    from toolkit.jupyter.export import ToolkitMapsPreprocessor

    nb = nbformat.reads(text, as_version=4)
    ToolkitMapsPreprocessor(widths=list(WIDTHS)).preprocess(nb, {})
    return nb


def _page(app, pagename, templatename, context, doctree):
    if 'class="toolkit-export-map"' in context.get("body", ""):
        app.add_css_file(CSS)
        app.add_js_file(JS, loading_method="defer")


def _finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    from toolkit.jupyter.export import draw_script, map_assets
    from toolkit.mapassets import HERE

    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    assets = map_assets()
    (static / CSS).write_text(assets["css"], "utf-8")
    head = (f"/* Leaflet 1.9.4 (BSD-2-Clause) and Leaflet.markercluster 1.5.3 (MIT), their licences in {LICENCES}; "
            "toolkit's map drawing code (toolkit-map.js) */\n")
    (static / JS).write_text(head + assets["js"] + "\n" + draw_script() + "\n", "utf-8")
    (static / LICENCES).write_text("\n\n".join((HERE / name).read_text("utf-8").strip()
                                                for name in ("LICENSE.leaflet", "LICENSE.markercluster")) + "\n", "utf-8")


def setup(app):
    app.connect("html-page-context", _page)
    app.connect("build-finished", _finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
