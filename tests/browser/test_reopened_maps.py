"""Stored maps draw their base map for whoever opens them next: the wheel installed into a fresh venv
(tests/installed.py), the walkthroughs copied out (``toolkit walkthroughs DIR``), opened in PLAIN ``jupyter lab`` of
that venv (the session's ``installed_plain_lab``: toolkit's server extension enabled by the wheel's ``etc/jupyter``
file, nothing else configured), no sandbox running. Every stored map of 04a and 05 draws at least 4 tiles, all from the lab's own
``/toolkit/tiles/``, and no request goes to a loopback port other than the lab's (every request is recorded).

The stored maps are those of the walkthroughs the wheel is built from: they need the notebooks executed with
toolkit's map code of this checkout (maps stored before it ask a dead sandbox port and this test fails, as it
should). Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import block_outside
from tests.browser.test_lab_walkthroughs import MAPS, SHOTS, _open

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
NOTEBOOKS = ("04a_local_search", "05_directions")

STORED_MAPS = """() => [...document.querySelectorAll('.jp-OutputArea-output .toolkit-map')]
  .map(m => { const tiles = [...m.querySelectorAll('img.leaflet-tile')];
    return {tiles: tiles.map(t => ({src: t.src, loaded: t.classList.contains('leaflet-tile-loaded')
                                                          && t.naturalWidth === 256})),
            layers: m.querySelectorAll('.leaflet-overlay-pane path, .leaflet-marker-pane > *').length,
            note: m.querySelectorAll('.toolkit-tiles-note').length}; })"""
"""The stored maps as the lab draws them: toolkit's lab extension draws each map's data form (a ``.toolkit-map``
in the output, no iframe) whether or not the notebook is trusted."""


def stored_maps_draw(page, lab_url: str, name: str, expected: int) -> list[dict]:
    """Wait (bounded) until the ``expected`` stored maps of the open notebook each show >= 4 tiles from the lab's
    ``toolkit/tiles/`` route, all loaded; screenshots each map; returns what each map showed."""
    route = lab_url + "toolkit/tiles/"
    maps = []
    for _ in range(90):
        drawn = page.locator(".jp-OutputArea-output .toolkit-map")
        for k in range(drawn.count()):
            drawn.nth(k).scroll_into_view_if_needed()
        maps = page.evaluate(STORED_MAPS)
        if len(maps) == expected and all(sum(t["loaded"] and t["src"].startswith(route) for t in m["tiles"]) >= 4
                                         for m in maps):
            break
        page.wait_for_timeout(1000)
    drawn = page.locator(".jp-OutputArea-output .toolkit-map")
    for k in range(drawn.count()):
        drawn.nth(k).scroll_into_view_if_needed()
        drawn.nth(k).screenshot(path=str(SHOTS / f"reopened_{name}_map{k}.png"))
    assert len(maps) == expected, f"{name}: {len(maps)} stored maps, {expected} expected"
    for k, m in enumerate(maps):
        ours = [t for t in m["tiles"] if t["src"].startswith(route)]
        assert len([t for t in ours if t["loaded"]]) >= 4, f"{name} map {k}: tiles {m['tiles'][:4]}"
        assert m["note"] == 0, f"{name} map {k}: the 'needs the extension' note shows"
        assert m["layers"] > 0, f"{name} map {k}: no layer drawn"
    return maps


def record_requests(context) -> list[str]:
    """Every request the context makes (pages, iframes, workers); beyond loopback each is aborted."""
    seen: list[str] = []
    context.on("request", lambda r: seen.append(r.url))
    block_outside(context)
    return seen


def other_loopback(requests: list[str], port: int) -> list[str]:
    """The requests to a loopback host on a port other than ``port``."""
    out = []
    for url in requests:
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOOPBACK and parts.port != port:
            out.append(url)
    return out


@pytest.fixture(scope="module")
def plain_lab(installed_toolkit, installed_plain_lab):
    """The walkthroughs copied to ``~/reopened`` (and trusted, in the home's Jupyter trust database) as a user does,
    in the home of the plain lab of the installed venv."""
    lab = installed_plain_lab
    folder = lab.home / "reopened"
    installed_toolkit.run(installed_toolkit.toolkit, "walkthroughs", folder, HOME=str(lab.home))
    return lab, folder


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(1800)                  # the wheel is built and installed first (about 5-10 minutes)
def test_stored_maps_draw_in_plain_jupyter_lab_of_a_wheel_install_with_no_sandbox(browser, plain_lab):
    lab, folder = plain_lab
    for name in NOTEBOOKS:
        assert (folder / f"{name}.ipynb").is_file()
    assert "toolkit: map tiles drawn by this server" in lab.output()
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")
    requests = record_requests(context)
    page = context.new_page()
    page.set_default_timeout(60000)
    SHOTS.mkdir(exist_ok=True)
    try:
        for name in NOTEBOOKS:
            _open(page, lab, name, folder=folder.name)
            maps = stored_maps_draw(page, lab.url + "/", name, MAPS[name.split("_")[0]])
            page.screenshot(path=str(SHOTS / f"reopened_{name}.png"))
            print(f"plain jupyter lab: {name}: {len(maps)} stored maps, "
                  f"{[sum(t['loaded'] for t in m['tiles']) for m in maps]} tiles each")
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    finally:
        context.close()
    assert any("/toolkit/tiles/" in u for u in requests)
    assert other_loopback(requests, lab.port) == [], other_loopback(requests, lab.port)[:5]
