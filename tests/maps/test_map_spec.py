"""A map as data (toolkit.mapassets.spec): every toolkit map carries, beside folium's HTML, a form the lab extension
draws whatever the notebook's trust; a folium map of one's own gets it too where it can be drawn faithfully, and
none where it holds something that cannot (a plugin). And the small things of a stored map: a folium.Icon's colour,
the attribution's Hangul in the inlined font, a scale bar in metres, a stored map that keeps its height."""
from __future__ import annotations

import json

import folium
import pytest

from tests.maps.test_maps import all_maps, cafes, html_of, route  # noqa: F401 (fixtures)
from toolkit import mapassets
from toolkit.mapassets.spec import MIME, layers_of, map_spec, spec_view


def test_every_toolkit_map_carries_its_data_form_beside_the_html(cafes, route):
    tk, df = cafes
    for name, m in all_maps(tk, df, route).items():
        bundle = m._repr_mimebundle_()
        assert set(bundle) == {MIME, "text/html"}, name
        spec = bundle[MIME]
        assert isinstance(spec["layers"], str), name                # stored compact (a notebook indents JSON)
        text = json.dumps(spec, ensure_ascii=False)
        assert json.loads(text) == spec, name                       # plain JSON
        spec = {**spec, "layers": layers_of(spec)}
        assert "127.0.0.1" not in text and "sandbox/tiles" not in text, name   # no address of the run
        assert spec["tiles"] == [{"kind": "toolkit", "attribution": mapassets.SANDBOX_ATTRIBUTION,
                                  "options": spec["tiles"][0]["options"]}], name
        assert spec["layers"] and spec["scale"] is True and spec["view"]["fit"]["bounds"], name
        assert len(text) < len(bundle["text/html"]) / 3, name       # data, not another copy of the page


def test_the_data_form_holds_what_the_map_draws(cafes, route):
    tk, df = cafes
    maps = all_maps(tk, df, route)
    places = maps["places"][0] if isinstance(maps["places"], tuple) else maps["places"]
    spec = map_spec(places)
    cluster = [l for l in spec["layers"] if l["type"] == "cluster"]
    assert len(cluster) == 1 and len(cluster[0]["layers"]) == len(df)
    dot = cluster[0]["layers"][0]
    assert dot["icon"]["kind"] == "dot" and dot["tooltip"]["html"] == df["place_name"].iloc[0]
    assert {l["type"] for l in spec["layers"]} >= {"circle", "circleMarker"}
    route_spec = map_spec(maps["route"])
    lines = [l for l in route_spec["layers"] if l["type"] == "polyline"]
    assert any(l["style"].get("dashArray") == "8 6" for l in lines)        # an alternative, dashed
    assert route_spec["legend"]["title"] == "교통 상황 (코드)" and route_spec["legend"]["items"]
    labels = {l["icon"].get("label") for l in route_spec["layers"] if l["type"] == "marker"}
    assert {"S", "E", "1"} <= labels
    choro = map_spec(maps["choropleth"])
    gj = next(l for l in choro["layers"] if l["type"] == "geojson")
    assert len(gj["featureStyle"]) == len(gj["data"]["features"]) > 0
    assert len(gj["styles"]) > 1 and all(s["fillColor"].startswith("#") for s in gj["styles"])
    assert "gradient" in choro["legend"]["items"][0]


def test_a_folium_map_of_ones_own_gets_the_data_form_and_a_plugin_keeps_the_html_alone():
    m = folium.Map((35.155, 129.06), zoom_start=13)
    folium.Marker((35.155, 129.06), popup="<b>서면</b>", tooltip="서면", icon=folium.Icon(color="green")).add_to(m)
    folium.PolyLine([(35.15, 129.05), (35.16, 129.07)], color="#ff0000", weight=4).add_to(m)
    bundle = mapassets.map_bundle(m)
    spec = {**bundle[MIME], "layers": layers_of(bundle[MIME])}
    assert spec["tiles"][0]["kind"] == "url" and spec["tiles"][0]["url"].startswith("https://tile.openstreetmap.org")
    assert spec["layers"][0]["icon"] == {"kind": "pin", "color": "#72b026"}
    assert spec["layers"][0]["popup"] == {"html": "<b>서면</b>"}
    from folium.plugins import MiniMap

    MiniMap().add_to(m)                    # a plugin with its own script: not drawn from data
    assert mapassets.map_bundle(m).keys() == {"text/html"}
    hostile = folium.Map((35.155, 129.06))
    folium.PolyLine([(35.15, 129.05), (35.16, 129.07)], color="red;background:url(x)").add_to(hostile)
    assert map_spec(hostile) is None       # a colour that is not one


def test_every_folium_map_shown_in_ipython_gets_the_data_form_once_connected():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        assert mapassets.register_notebook_display() is True
        data, _ = shell.display_formatter.format(folium.Map((35.155, 129.06), zoom_start=12))
        assert MIME in data and "text/html" in data
    finally:
        shell.display_formatter.mimebundle_formatter.pop("folium.folium.Map", None)
        InteractiveShell.clear_instance()


def test_a_folium_icon_draws_its_colour_not_leaflets_blue_marker():
    m = mapassets.new_map((35.155, 129.06), tiles="OpenStreetMap")
    folium.Marker((35.155, 129.06), icon=folium.Icon(color="red")).add_to(m)
    html = html_of(m)
    assert "L.AwesomeMarkers" not in html                 # the plugin is not loaded: it fell back to the default
    assert "toolkit-pin" in html and "background:#d63e2a" in html


def test_the_attribution_s_hangul_is_in_the_inlined_font():
    m = mapassets.new_map((35.155, 129.06), tiles="http://127.0.0.1:9/sandbox/tiles/{z}/{x}/{y}.png")
    html = html_of(m)
    assert "\\uc18c\\uc0c1" in html or "소상" in html          # the attribution, written escaped into the script
    faces = mapassets.hangul_font_css(html)
    assert faces, "no Hangul font inlined for the attribution"
    chars = mapassets._hangul_chars(html)
    assert set("소상공인시장진흥공단상권정보가") <= set(chars)


def test_the_scale_bar_is_metric_only_and_a_stored_map_keeps_its_height():
    m = mapassets.new_map((35.155, 129.06), tiles="OpenStreetMap", height=520)
    html = html_of(m)
    assert "L.control.scale({imperial: false" in html and "L.control.scale()" not in html
    framed = m._repr_html_()
    assert "height:520px" in framed and "padding-bottom:60%" not in framed
    assert "File -&gt; Trust Notebook" not in framed and "Trust Notebook" in framed
    assert ".leaflet-control-attribution{max-width:62%" in html


def test_the_first_view_of_a_spec_is_the_first_view_of_its_map(cafes, route):
    tk, df = cafes
    for name, m in all_maps(tk, df, route).items():
        spec = map_spec(m)
        for size in ((1000, 520), (700, 400)):
            assert spec_view(spec, *size)["tiles"] == mapassets.first_view(m, *size)["tiles"], (name, size)


@pytest.mark.parametrize("bad", ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"])
def test_tooltips_are_carried_as_html_for_the_sanitizer_never_as_script(bad):
    m = folium.Map((35.155, 129.06), tiles=None)
    folium.CircleMarker((35.155, 129.06), tooltip=bad).add_to(m)
    spec = map_spec(m)
    assert spec["layers"][0]["tooltip"] == {"html": bad}       # drawn through JupyterLab's sanitizer
