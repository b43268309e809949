"""Saved toolkit maps in a real browser with no network beyond loopback: Leaflet loads (it is inlined), the base
layer comes from the sandbox's tiles, and markers, clusters and route lines are drawn. Every request to another
host is aborted and recorded; the test fails if a map tried any. Screenshots go to tests/browser/screenshots/
(gitignored)."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import client_for
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
    paths = {"places": out / "places.html", "route": out / "route.html"}
    places_map(cafes, center=SEOMYEON, radius=1000, cluster=True, height=560).save(str(paths["places"]))
    route.map(height=560).save(str(paths["route"]))
    yield tk, paths, {"cafes": len(cafes), "roads": len(route.roads)}
    tk.close()


def open_offline(page, path: Path, base_url: str) -> list[str]:
    """Open a saved map with every request beyond loopback aborted; returns the aborted URLs."""
    aborted: list[str] = []

    def guard(route):
        url = route.request.url
        if url.startswith("file://") or urlparse(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            aborted.append(url)
            route.abort()

    page.route("**/*", guard)
    page.set_viewport_size({"width": 1000, "height": 600})
    page.goto(path.as_uri())
    page.wait_for_function("() => window.L !== undefined")
    page.wait_for_function("() => document.querySelectorAll('img.leaflet-tile-loaded').length >= 4")
    page.wait_for_function("() => [...document.querySelectorAll('img.leaflet-tile')]"
                           ".every(img => img.classList.contains('leaflet-tile-loaded'))")
    page.wait_for_timeout(400)                 # let the fade-in of the last tiles finish before the screenshot
    return aborted


def show(page, path: Path, base_url: str, shot: str) -> list[str]:
    """Open a saved map offline, screenshot it, check it asked for nothing beyond loopback and drew its base
    layer from the sandbox's tiles; returns the tile URLs."""
    aborted = open_offline(page, path, base_url)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / shot))
    assert aborted == []
    tiles = page.eval_on_selector_all("img.leaflet-tile-loaded", "els => els.map(e => e.src)")
    assert tiles and all(t.startswith(f"{base_url}/sandbox/tiles/") for t in tiles)
    return tiles


def test_places_map_draws_offline_with_sandbox_tiles_and_clusters(page, maps, sandbox_server):
    tk, paths, n = maps
    tiles = show(page, paths["places"], sandbox_server.base_url, "places_map.png")
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
    page.locator(".toolkit-dot").first.click()
    assert page.locator(".leaflet-popup-content").inner_text().startswith("place_name")
    print(f"places map: {len(tiles)} tiles, {clusters} clusters, {dots} single markers, {n['cafes']} cafes; "
          f"after a click on a cluster: {after} single markers")


def test_route_map_draws_offline_with_lines_markers_and_legend(page, maps, sandbox_server):
    tk, paths, n = maps
    tiles = show(page, paths["route"], sandbox_server.base_url, "route_map.png")
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
