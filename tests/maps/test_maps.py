"""Toolkit maps: nothing loaded from beyond loopback (assets inlined), deterministic element ids, and the base
layer chosen by where the client is bound."""
from __future__ import annotations

import re

import pytest

from toolkit import mapassets
from toolkit.client import Client
from toolkit.config import Config, Credentials, Hosts
from toolkit.maps import choropleth_map, counts_by_region, geocoded_map, places_map
from toolkit.navi import Directions
from toolkit.navimaps import origins_map, route_map

SEOMYEON = (129.059, 35.157)


def html_of(m) -> str:
    return m.get_root().render()


def outside_assets(html: str) -> str:
    """The HTML without the inlined asset files (their comments name URLs that are never requested)."""
    for name in mapassets.ASSETS:
        html = html.replace(mapassets._read(name), "")
    return html


def loaded_urls(html: str) -> list[str]:
    return re.findall(r"<(?:script|link|img|iframe)[^>]+(?:src|href)\s*=\s*[\"']([^\"']+)", html)


@pytest.fixture(scope="module")
def cafes(sandbox_server):
    from tests.conftest import client_for

    tk = client_for(sandbox_server)
    df = tk.local.keyword("카페", x=SEOMYEON[0], y=SEOMYEON[1], radius=1500, size=15)
    yield tk, df
    tk.close()


@pytest.fixture(scope="module")
def route(cafes):
    tk, _ = cafes
    return tk.navi.directions((129.03, 35.10), SEOMYEON, waypoints=[(129.04, 35.12)], alternatives=True)


def service_client() -> Client:
    hosts = Hosts(**{h: f"https://{h}.example.invalid" for h in ("auth", "api", "local", "navi", "status")})
    return Client(Config(hosts=hosts, credentials=Credentials(rest_api_key="k")))


def all_maps(tk, df, route):
    gj = tk.sandbox.control("GET", "/sandbox/local/regions.geojson", params={"level": "emd"})
    regions = tk.local.regions_of(df)
    many = tk.navi.origins([("a", 129.03, 35.10), ("b", 129.08, 35.17)], SEOMYEON)
    return {"places": places_map(df, cluster=True, center=SEOMYEON, radius=1500),
            "rect": places_map(df, rect=(129.04, 35.14, 129.08, 35.17)),
            "choropleth": choropleth_map(counts_by_region(regions), gj, places=df),
            "route": route_map(route), "route via method": route.map(), "origins": origins_map(many)}


def test_no_toolkit_map_loads_anything_from_a_cdn(cafes, route):
    tk, df = cafes
    for name, m in all_maps(tk, df, route).items():
        html = html_of(m)
        assert loaded_urls(html) == [], name                      # no <script src>, <link href>: all inline
        hosts = set(re.findall(r"https?://([^/\"'\s:]+)", outside_assets(html)))
        assert hosts <= {"127.0.0.1", "www.w3.org"}, (name, hosts)
        assert mapassets._read("leaflet") in html, name              # Leaflet itself is in the page


def test_assets_are_inlined_once_and_the_cluster_plugin_only_when_used(cafes):
    _, df = cafes
    clustered, plain = html_of(places_map(df, cluster=True)), html_of(places_map(df, cluster=False))
    leaflet = mapassets._read("leaflet")
    cluster = mapassets._read("markerclusterjs")
    assert clustered.count(leaflet) == 1 and clustered.count(cluster) == 1
    assert plain.count(leaflet) == 1 and cluster not in plain


def test_saved_map_is_self_contained(cafes, tmp_path):
    _, df = cafes
    path = tmp_path / "cafes.html"
    places_map(df, cluster=True).save(str(path))
    html = path.read_text(encoding="utf-8")
    assert "L.markerClusterGroup" in html and mapassets._read("leaflet") in html and loaded_urls(html) == []


def test_element_ids_are_deterministic(cafes, route):
    tk, df = cafes
    first = {k: html_of(m) for k, m in all_maps(tk, df, route).items()}
    second = {k: html_of(m) for k, m in all_maps(tk, df, route).items()}
    assert first == second
    for html in first.values():
        assert not re.search(r"_[0-9a-f]{32}\b", html)           # folium's random ids are gone
        assert "map_0002" in html


def test_rendering_twice_gives_the_same_html(cafes):
    _, df = cafes
    m = places_map(df, cluster=True)
    assert html_of(m) == html_of(m)


def test_sandbox_bound_maps_use_the_sandbox_tiles_without_its_address(cafes, route):
    """The kernel side knows the live source; the HTML holds no sandbox URL and no loopback port: the browser
    resolves the tiles from the Jupyter page (toolkit/tiles/...)."""
    tk, df = cafes
    url = f"{tk.sandbox.base_url}/sandbox/tiles/{{z}}/{{x}}/{{y}}.png"
    mapassets.note_binding(tk)
    for name, m in all_maps(tk, df, route).items():
        html = html_of(m)
        assert m.toolkit_tiles == url, name
        assert "L.tileLayer.toolkit(" in html and "jupyter-config-data" in html, name
        assert "/sandbox/" not in html and not re.search(r"127\.0\.0\.1:\d+", html), name
        assert tk.sandbox.base_url not in html, name
        assert "openstreetmap" not in html.lower(), name


def test_against_the_service_the_default_is_openstreetmap_and_tiles_always_chooses(cafes, route):
    tk, df = cafes
    service = service_client()                                   # the newest client: bound to the service
    try:
        assert mapassets.default_tiles() == "OpenStreetMap"
        assert "tile.openstreetmap.org" in html_of(places_map(df))
        # a Directions knows the client that asked: still the sandbox's tiles
        assert "L.tileLayer.toolkit(" in html_of(route.map())
        assert "tile.openstreetmap.org" in html_of(route_map(route.raw))          # a raw body does not
        # tiles= always chooses
        assert "L.tileLayer.toolkit(" in html_of(places_map(df, tiles=mapassets.tiles_for(tk)))
        osm = html_of(route.map(tiles="OpenStreetMap"))
        assert "tile.openstreetmap.org" in osm and "L.tileLayer.toolkit(" not in osm
    finally:
        service.close()
        mapassets.note_binding(tk)


def test_route_map_draws_traffic_colours_legend_and_markers(route):
    html = html_of(route.map())
    roads = sum(len(s.get("roads") or []) for s in route.raw["routes"][0]["sections"])
    assert html.count("L.polyline(") == roads + len(route.raw["routes"]) - 1
    assert "toolkit-legend" in html and "교통 상황" in html          # the legend speaks Korean by default (lang="ko")
    assert html.count("L.divIcon(") == 3                         # S, waypoint 1, E


def test_geocoded_map_and_choropleth(cafes):
    tk, df = cafes
    geo = tk.local.geocode(df[["road_address_name"]].head(5), "road_address_name", progress=False)
    assert html_of(geocoded_map(geo, "road_address_name")).count("L.marker(") == int(
        geo["geocode_status"].isin(["matched", "ambiguous"]).sum())
    gj = tk.sandbox.control("GET", "/sandbox/local/regions.geojson", params={"level": "emd"})
    m = choropleth_map(counts_by_region(tk.local.regions_of(df, progress=False)), gj)
    assert m.choropleth_data["features"] and "linear-gradient" in html_of(m)


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="no successful route"):
        route_map(Directions({"routes": [{"result_code": 104, "result_msg": "too close"}]}))
    import pandas as pd

    with pytest.raises(ValueError, match="columns 'x' and 'y'"):
        places_map(pd.DataFrame({"a": [1]}))


def test_the_inlined_hangul_font_is_the_same_bytes_on_every_run():
    import base64
    import io

    from fontTools.ttLib import TTFont

    from toolkit.fonts import hangul_font_path

    mapassets._font_subset.cache_clear()
    sub = TTFont(io.BytesIO(base64.b64decode(mapassets._font_subset("서면카페"))))
    assert sub.flavor == "woff" and {chr(c) for c in sub.getBestCmap()} >= set("서면카페")
    # fontTools would stamp the time of the run into the head table (and the stored notebooks would differ)
    assert sub["head"].modified == TTFont(str(hangul_font_path()))["head"].modified


def test_a_bold_hangul_title_gets_a_bold_face_and_the_family_comes_first():
    """The legend's ``<b>교통 상황</b>``: a second face, from NanumGothic Bold, with just the bold text's
    characters; the inlined family is the first of the map's fonts (after Arial, chromium drew the bold run as
    boxes)."""
    import base64
    import io
    import re

    from fontTools.ttLib import TTFont

    css = mapassets.hangul_font_css('<div class="toolkit-legend"><b>교통 상황</b><div>정체</div></div>')
    faces = re.findall(r"@font-face\{font-family:'toolkit-hangul';src:url\('data:font/woff;base64,(.*?)'\) "
                       r"format\('woff'\)(;font-weight:bold)?\}", css, re.S)
    assert [bool(bold) for _, bold in faces] == [False, True], css[:200]
    fonts = [TTFont(io.BytesIO(base64.b64decode(data.replace("\\\n", "")))) for data, _ in faces]
    assert {chr(c) for c in fonts[0].getBestCmap()} == set("교통상황정체")
    assert {chr(c) for c in fonts[1].getBestCmap()} == set("교통상황")
    assert fonts[0]["name"].getDebugName(2) == "Regular" and fonts[1]["name"].getDebugName(2) == "Bold"
    assert "{font-family:'toolkit-hangul','Helvetica Neue',Arial" in css
    # no bold text, no bold face; no Hangul, no style at all
    assert mapassets.hangul_font_css("<div>정체</div>").count("@font-face") == 1
    assert mapassets.hangul_font_css("<b>plain</b>") == ""


def _embedded(html: str) -> dict:
    """The ``{"z/x/y": data URL}`` a saved map's tile layer carries (its second argument, when there is one; the
    data URLs hold no brace)."""
    import json

    found = re.search(r"L\.tileLayer\.toolkit\(.*?\}, (\{\"\d+/\d+/\d+\": [^}]*\})\);", html, re.S)
    return json.loads(found.group(1)) if found else {}


def test_save_embeds_the_first_view_s_tiles_from_the_live_sandbox(cafes, route, tmp_path):
    import base64
    import io

    import httpx
    import numpy as np
    from PIL import Image

    tk, _ = cafes
    m = route.map(height=560)
    view = mapassets.first_view(m)
    assert view["size"] == (mapassets.VIEW_WIDTH, 560) and 4 <= len(view["tiles"]) <= 30
    m.save(str(tmp_path / "route.html"))
    html = (tmp_path / "route.html").read_text("utf-8")
    tiles = _embedded(html)
    assert sorted(tiles) == sorted(f"{z}/{x}/{y}" for z, x, y in view["tiles"])
    z, x, y = view["tiles"][0]
    live = Image.open(io.BytesIO(httpx.get(f"{tk.sandbox.base_url}/sandbox/tiles/{z}/{x}/{y}.png").content))
    kept = Image.open(io.BytesIO(base64.b64decode(tiles[f"{z}/{x}/{y}"].split(",", 1)[1])))
    assert kept.size == live.size == (256, 256)
    a, b = np.asarray(live.convert("RGB"), dtype=int), np.asarray(kept.convert("RGB"), dtype=int)
    assert np.abs(a - b).mean() < 3 and (np.abs(a - b).max(axis=2) > 40).mean() < 0.01     # the same map to the eye
    assert tk.sandbox.base_url not in html and "/sandbox/" not in html
    # the map itself is unchanged by saving: its notebook HTML carries no tile
    assert _embedded(html_of(m)) == {} and html_of(m) == html_of(route.map(height=560))


def test_save_draws_the_tiles_itself_where_the_sandbox_is_gone(tmp_path):
    """A map whose sandbox ended (a dead port) still saves its first view: drawn from the package's city."""
    import pandas as pd

    dead = "http://127.0.0.1:9/sandbox/tiles/{z}/{x}/{y}.png"
    m = places_map(pd.DataFrame({"x": [129.059, 129.06], "y": [35.157, 35.158]}), tiles=dead, height=400)
    m.save(str(tmp_path / "m.html"))
    tiles = _embedded((tmp_path / "m.html").read_text("utf-8"))
    assert len(tiles) == len(mapassets.first_view(m)["tiles"]) >= 4
    assert all(v.startswith("data:image/png;base64,iVBORw0KGgo") for v in tiles.values())


def test_save_of_an_openstreetmap_map_embeds_nothing(cafes, tmp_path):
    _, df = cafes
    m = places_map(df, tiles="OpenStreetMap")
    m.save(str(tmp_path / "osm.html"))
    html = (tmp_path / "osm.html").read_text("utf-8")
    assert "tile.openstreetmap.org" in html and "data:image/png;base64,iVBORw0KGgo" not in html.replace(
        mapassets.BLANK_TILE, "")
