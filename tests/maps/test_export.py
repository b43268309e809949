"""``jupyter nbconvert --to toolkit_html``: one HTML file with each toolkit map's first view (tiles embedded) and the
page's Hangul in an embedded subset of NanumGothic (the browser test opens it with no Korean font and no network:
tests/browser/test_notebook_travels.py)."""
from __future__ import annotations

import json
import re

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbconvert")

from toolkit.mapassets import add_legend, map_bundle, new_map  # noqa: E402
from toolkit.mapassets.spec import MIME  # noqa: E402

SANDBOX = "http://127.0.0.1:9/sandbox/tiles/{z}/{x}/{y}.png"      # a sandbox that is gone: tiles drawn here


def _notebook():
    m = new_map((35.155, 129.06), zoom_start=15, tiles=SANDBOX, height=400)
    add_legend(m, "교통 상황", [("#d62728", "정체")])
    table = "<table><tr><th>구</th><th>매장</th></tr><tr><td>부산진구</td><td>12</td></tr></table>"
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 서면 카페 보고서\n\n**굵은 한글**과 보통 글씨."),
        nbformat.v4.new_code_cell("m", outputs=[nbformat.v4.new_output("display_data", data=map_bundle(m))]),
        nbformat.v4.new_code_cell("df", outputs=[nbformat.v4.new_output(
            "execute_result", data={"text/html": table, "text/plain": "table"}, execution_count=1)]),
    ])


def test_the_export_draws_each_map_from_embedded_tiles_and_embeds_the_hangul_it_shows():
    from nbconvert.exporters import get_exporter

    nb = _notebook()
    html, resources = get_exporter("toolkit_html")().from_notebook_node(nb)
    boxes = re.findall(r'class="toolkit-export-map-data"[^>]*>(.*?)</script>', html, re.S)
    assert len(boxes) == 1 and f"data-mime-type=\"{MIME}\"" not in html
    data = json.loads(boxes[0])
    assert [(v["width"], v["zoom"]) for v in data["views"]] == [(1100, 15)] and len(data["tiles"]) >= 8
    assert all(v.startswith("data:image/png;base64,") for v in data["tiles"].values())
    assert "toolkit/tiles/" not in html and "<iframe" not in html          # no server asked, no folium page
    assert html.count("L.version") <= 1 and "window.toolkitMap.drawMap" in html   # Leaflet inlined once
    assert html.count("@font-face{font-family:'toolkit-hangul'") == 2       # regular and bold
    assert ":root:root{--jp-content-font-family:'toolkit-hangul'" in html
    assert resources["toolkit"]["maps"] == 1 and resources["toolkit"]["tiles"] == len(data["tiles"])
    plain, _ = get_exporter("html")().from_notebook_node(_notebook())
    print(f"toolkit_html: {len(html):,} bytes (nbconvert's html: {len(plain):,}; tiles "
          f"{resources['toolkit']['tile_bytes']:,} bytes of PNG)")


def test_a_notebook_without_maps_or_hangul_gets_neither():
    from nbconvert.exporters import get_exporter

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A report\n\nplain text")])
    html, resources = get_exporter("toolkit_html")().from_notebook_node(nb)
    assert "toolkit-hangul" not in html and "toolkitMap" not in html and resources["toolkit"]["maps"] == 0
