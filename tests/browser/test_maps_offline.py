"""Saved toolkit maps in a real browser from ``file://`` with no server at all: Leaflet loads (it is inlined), the
base layer of the first view comes from the tiles ``m.save()`` embedded, and markers, clusters and route lines are
drawn; beyond the first view, with no Jupyter page around it, the map says in one line that its base map needs
toolkit's Jupyter extension. A map's HTML without embedded tiles (as a notebook stores it) opened as a file shows
that line at once. Every request that is not the file itself or a data URL is aborted and recorded; the test fails
if a map tried any (the sandbox that made the maps is still running: nothing may ask it). Screenshots go to
tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import client_for
from toolkit import mapassets
from toolkit.maps import places_map

SHOTS = Path(__file__).resolve().parent / "screenshots"
SEOMYEON = (129.0592, 35.1579)


@pytest.fixture(scope="module")
def maps(sandbox_server, tmp_path_factory):
    tk = client_for(sandbox_server)
    out = tmp_path_factory.mktemp("maps")
    cafes = tk.local.keyword_all("카페", x=SEOMYEON[0], y=SEOMYEON[1], radius=1000, sort="distance")
    route = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"),
                               waypoints=[(129.0400, 35.1180, "초량")])
    paths = {"places": out / "places.html", "route": out / "route.html", "stored": out / "stored.html"}
    places_map(cafes, center=SEOMYEON, radius=1000, cluster=True, height=560).save(str(paths["places"]))
    shown = route.map(height=560)
    shown.save(str(paths["route"]))
    paths["stored"].write_text(shown.get_root().render(), encoding="utf-8")     # what a notebook stores
    yield tk, paths, {"cafes": len(cafes), "roads": len(route.roads)}
    tk.close()


NOTE = "div.toolkit-tiles-note"


def open_offline(page, path: Path, tiles: int = 4) -> list[str]:
    """Open a saved map with every request but the file and data URLs aborted; returns the aborted URLs."""
    aborted: list[str] = []

    def guard(route):
        url = route.request.url
        if url.startswith(("file://", "data:")):
            route.continue_()
        else:
            aborted.append(url)
            route.abort()

    page.route("**/*", guard)
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(path.as_uri())
    page.wait_for_function("() => window.L !== undefined")
    page.wait_for_function(f"() => document.querySelectorAll('img.leaflet-tile-loaded').length >= {tiles}")
    page.wait_for_function("() => [...document.querySelectorAll('img.leaflet-tile')]"
                           ".every(img => img.classList.contains('leaflet-tile-loaded'))")
    page.wait_for_timeout(400)                 # let the fade-in of the last tiles finish before the screenshot
    return aborted


def show(page, path: Path, shot: str) -> list[str]:
    """Open a saved map offline, screenshot it, check it asked for nothing and drew every tile of its first
    view from the embedded PNGs (no note); returns the tile URLs."""
    aborted = open_offline(page, path)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / shot))
    assert aborted == []
    tiles = page.eval_on_selector_all("img.leaflet-tile-loaded", "els => els.map(e => e.src)")
    assert len(tiles) >= 4 and all(t.startswith("data:image/png;base64,") for t in tiles), [t[:40] for t in tiles]
    sizes = page.eval_on_selector_all("img.leaflet-tile-loaded", "els => els.map(e => e.naturalWidth)")
    assert set(sizes) == {256}
    assert page.locator(NOTE).count() == 0
    return tiles


def test_places_map_draws_offline_with_sandbox_tiles_and_clusters(page, maps, sandbox_server):
    tk, paths, n = maps
    tiles = show(page, paths["places"], "places_map.png")
    clusters = page.locator(".marker-cluster").count()
    dots = page.locator(".toolkit-dot").count()
    shown = sum(int(t) for t in page.locator(".marker-cluster span").all_inner_texts()) + dots
    assert clusters > 0 and shown == n["cafes"]                 # every cafe is in a cluster or drawn as a dot
    assert page.locator("path.leaflet-interactive").count() >= 2      # the search circle and its centre
    # clicks on a cluster zoom in until it splits (or, at the last zoom, spiderfies): single markers (the
    # toolkit's dots) appear, with popups
    for _ in range(5):
        if page.locator(".toolkit-dot").count():
            break
        page.locator(".marker-cluster").first.click()
        page.wait_for_timeout(800)
    assert page.locator(".toolkit-dot").count() > 0
    page.wait_for_function("() => [...document.querySelectorAll('img.leaflet-tile')]"
                           ".every(img => img.classList.contains('leaflet-tile-loaded'))")
    page.wait_for_timeout(600)
    page.screenshot(path=str(SHOTS / "places_map_zoomed.png"))
    after = page.locator(".toolkit-dot").count()
    # beyond the first view there is no embedded tile and no Jupyter page: one line says why
    assert page.locator(NOTE).count() == 1 and "toolkit's Jupyter extension" in page.locator(NOTE).inner_text()
    page.locator(".toolkit-dot").first.click()
    assert page.locator(".leaflet-popup-content").inner_text().startswith("place_name")
    print(f"places map: {len(tiles)} tiles, {clusters} clusters, {dots} single markers, {n['cafes']} cafes; "
          f"after a click on a cluster: {after} single markers")


def test_route_map_draws_offline_with_lines_markers_and_legend(page, maps, sandbox_server):
    tk, paths, n = maps
    tiles = show(page, paths["route"], "route_map.png")
    paths_drawn = page.locator("path.leaflet-interactive").count()
    assert paths_drawn >= n["roads"]                  # one polyline per road (+ guide dots)
    assert page.locator(".toolkit-dot").all_inner_texts() == ["S", "1", "E"]
    legend = page.locator(".toolkit-legend").inner_text()
    assert "교통 상황" in legend and "traffic" not in legend     # one language (lang="ko", the default)
    # Hangul text is drawn with the inlined font subset (no CJK system font needed)
    assert page.evaluate("() => document.fonts.check('12px toolkit-hangul', '지체')")
    assert page.evaluate("() => [...document.fonts].some(f => f.family.includes('toolkit-hangul')"
                         " && f.status === 'loaded')")
    print(f"route map: {len(tiles)} tiles, {paths_drawn} SVG paths for {n['roads']} roads")


def test_a_stored_map_opened_with_no_jupyter_says_its_base_map_needs_the_extension(page, maps):
    """The HTML a notebook stores (no embedded tiles) opened as a file: no request at all, the markers and the
    route drawn, and one line over the map instead of a grey map without a word."""
    tk, paths, n = maps
    html = paths["stored"].read_text("utf-8")
    assert html.count("data:image/png") == html.count(mapassets.BLANK_TILE) == 1 and "/sandbox/" not in html
    aborted = open_offline(page, paths["stored"], tiles=1)
    page.screenshot(path=str(SHOTS / "stored_map_no_jupyter.png"))
    assert aborted == []
    note = page.locator(NOTE)
    assert note.count() == 1 and note.is_visible()
    assert note.inner_text() == mapassets.TILES_NOTE
    # the note, the attribution and the scale bar (metres) each keep their own place (the note was drawn over the
    # attribution, and the scale bar under it)
    boxes = page.evaluate("""() => ['.toolkit-tiles-note', '.leaflet-control-attribution', '.leaflet-control-scale']
        .map(s => { const b = document.querySelector(s).getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })""")
    overlap = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]   # noqa: E731
    assert not overlap(boxes[0], boxes[1]) and not overlap(boxes[2], boxes[1]), boxes
    assert page.locator(".leaflet-control-scale-line").all_inner_texts()[0].endswith("m")
    assert page.locator(".toolkit-dot").all_inner_texts() == ["S", "1", "E"]
    assert page.locator("path.leaflet-interactive").count() >= n["roads"]
    srcs = page.eval_on_selector_all("img.leaflet-tile", "els => els.map(e => e.src)")
    assert srcs and set(srcs) == {mapassets.BLANK_TILE}                         # blank, never a request
