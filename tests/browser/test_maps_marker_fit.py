"""The folium calls an analyst adds to a toolkit map: ``folium.Marker`` with Leaflet's default icon draws its image
(inlined, no request), and a map opens fitted to its data whether its container had a size at load or got it
later (a notebook output laid out after the script ran). Screenshots go to tests/browser/screenshots/."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_maps_offline import SHOTS, open_offline
from tests.conftest import client_for
from toolkit.maps import places_map

SEOMYEON = (129.0592, 35.1579)


@pytest.fixture(scope="module")
def saved(sandbox_server, tmp_path_factory):
    import folium

    tk = client_for(sandbox_server)
    out = tmp_path_factory.mktemp("marker")
    pharmacies = tk.local.category("PM9", x=SEOMYEON[0], y=SEOMYEON[1], radius=600, sort="distance")
    m = places_map(pharmacies, height=500)
    folium.Marker([SEOMYEON[1], SEOMYEON[0]], tooltip="서면").add_to(m)        # the default icon
    path = out / "marker.html"
    m.save(str(path))
    route = tk.navi.directions((129.0325, 35.1000), (129.0950, 35.2100))
    route_path = out / "route.html"
    route.map(height=500).save(str(route_path))
    yield {"marker": path, "route": route_path, "route_body": route.raw}
    tk.close()


def test_a_folium_marker_with_the_default_icon_draws_its_image(page, saved, sandbox_server):
    aborted = open_offline(page, saved["marker"])
    assert aborted == []
    icon = page.locator("img.leaflet-marker-icon")
    assert icon.count() == 1
    page.wait_for_function("() => { const i = document.querySelector('img.leaflet-marker-icon');"
                           " return i.complete && i.naturalWidth > 0; }")
    size = icon.evaluate("i => [i.naturalWidth, i.naturalHeight, i.src.slice(0, 22)]")
    assert size == [25, 41, "data:image/png;base64,"]            # Leaflet's marker-icon.png, inlined
    shadow = page.locator("img.leaflet-marker-shadow").evaluate("i => i.naturalWidth")
    assert shadow == 41
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "folium_marker.png"))


def _visible(page, lat: float, lon: float) -> bool:
    return page.evaluate("([lat, lon]) => { const m = Object.values(window).find(v => v instanceof L.Map);"
                         " return m.getBounds().contains([lat, lon]); }", [lat, lon])


def test_a_map_opened_in_a_hidden_container_fits_once_it_is_shown(page, saved, sandbox_server):
    """A notebook output may be laid out after the map's script ran: the map has no size then, and a fit at load
    alone would leave it at the maximum zoom. It fits again when its container gets its size."""
    html = Path(saved["marker"]).read_text("utf-8")
    hidden = Path(saved["marker"]).with_name("hidden.html")
    hidden.write_text(html.replace("<body>", "<body><div id='wrap' style='display:none'>", 1)
                      .replace("</body>", "</div></body>", 1), "utf-8")
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(hidden.as_uri())
    page.wait_for_function("() => window.L !== undefined")
    page.evaluate("() => { document.getElementById('wrap').style.display = 'block'; }")
    page.wait_for_timeout(500)
    zoom = page.evaluate("() => Object.values(window).find(v => v instanceof L.Map).getZoom()")
    assert 13 <= zoom <= 17, zoom
    assert _visible(page, SEOMYEON[1], SEOMYEON[0])


def test_the_route_map_shows_the_whole_route(page, saved, sandbox_server):
    open_offline(page, saved["route"])
    route = saved["route_body"]["routes"][0]
    points = [(y, x) for s in route["sections"] for r in s["roads"]
              for x, y in zip(r["vertexes"][0::2], r["vertexes"][1::2])]
    outside = [p for p in points if not _visible(page, *p)]
    assert not outside, outside[:3]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "route_whole.png"))
