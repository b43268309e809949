"""The documentation site as a reader sees it, served from its folder on 127.0.0.1 to Debian's chromium with no
Korean font and no other host reachable: getting started shows the set-up commands; a walkthrough's stored map
draws from its data form as the HTML export draws it, its base map from the tiles embedded in the page (no "no base
map" note over its first view, in a desktop, a wide and a phone window), its route and its attribution's Hangul;
the page's Hangul is drawn with the site's NanumGothic, not as boxes; an API page shows a method with its
parameters. Screenshots go to tests/browser/screenshots/ (gitignored).

Uses the session's build of the site (``docs_site``, shared with tests/test_docs_site.py)."""
from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture(scope="module")
def served(docs_site):
    """The built site on a loopback port (stopped after the module); its base URL."""
    assert docs_site.returncode == 0, docs_site.output[-4000:]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=docs_site.html))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


@pytest.fixture
def reader(browser_without_korean_fonts, served):
    """A page of the site whose requests to any other address are refused (and recorded)."""
    context = browser_without_korean_fonts.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20000)
    page.elsewhere = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith((served, "data:"))
               else (page.elsewhere.append(route.request.url), route.abort()))
    yield page
    context.close()


def _fonts(page, selector: str) -> set[str]:
    """The font families chromium drew the text of ``selector`` with (DevTools' platform fonts)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    return {f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}


def test_getting_started_shows_the_set_up(reader, served):
    reader.goto(f"{served}/docs/getting-started.html")
    assert "python3.11 -m venv .venv" in reader.inner_text("article")
    SHOTS.mkdir(exist_ok=True)
    reader.screenshot(path=str(SHOTS / "docs_getting_started.png"))
    assert reader.elsewhere == []


SHOWN_TILES = """(map) => [...map.querySelectorAll('.leaflet-tile-container img')]
    .filter(i => i.closest('.leaflet-tile-container').style.visibility !== 'hidden')
    .map(i => [i.src.slice(0, 22), i.classList.contains('leaflet-tile-loaded'), i.naturalWidth])"""


def test_a_walkthroughs_map_draws_its_base_map_and_the_page_draws_hangul(reader, served):
    reader.goto(f"{served}/notebooks/05_directions.html")
    reader.evaluate("document.fonts.ready")
    first = reader.locator(".toolkit-export-map .toolkit-map").first
    for width in (1280, 1440, 390):              # the column follows the window: the map fits its route again
        reader.set_viewport_size({"width": width, "height": 900})
        first.scroll_into_view_if_needed()
        first.locator(".leaflet-tile-loaded").first.wait_for()
        reader.wait_for_timeout(1500)            # the fit to the route's bounds, and its tiles
        tiles = first.evaluate(SHOWN_TILES)
        shown = [t for t in tiles if t[1]]
        assert len(shown) >= 4 and all(src == "data:image/png;base64," and w == 256 for src, _, w in shown), \
            (width, tiles)
        assert first.locator(".toolkit-tiles-note").count() == 0, f"{width}: the first view says its map is missing"
        assert first.locator("path.leaflet-interactive").count() >= 1          # the route
        if width == 1280:
            SHOTS.mkdir(exist_ok=True)
            reader.screenshot(path=str(SHOTS / "docs_walkthrough_map.png"))
            first.screenshot(path=str(SHOTS / "docs_walkthrough_map_only.png"))
    reader.set_viewport_size({"width": 1280, "height": 900})
    assert reader.locator(".toolkit-export-map .toolkit-map").count() == 5            # every map of the page drawn
    assert "NanumGothic" in _fonts(reader, ".toolkit-export-map .leaflet-control-attribution")   # its Hangul
    hangul = reader.locator("nav.page-toc a", has_text="서면")
    assert hangul.count() == 1
    assert "NanumGothic" in _fonts(reader, "nav.page-toc a[href*='which-branch']")
    assert reader.elsewhere == []


def test_an_api_page_shows_a_method_with_its_parameters_and_example(reader, served):
    reader.goto(f"{served}/docs/api/local.html#toolkit.local.LocalArea.category")
    entry = reader.locator("dl.py.method", has=reader.locator("[id='toolkit.local.LocalArea.category']"))
    text = entry.inner_text()
    assert "category_group_code" in text and "radius" in text and ">>>" in text, text[:500]
    reader.evaluate("""() => document.fonts.ready.then(() => [...document.querySelectorAll('dd p')]
        .find(p => p.textContent.includes('약국')).setAttribute('data-hangul', ''))""")
    assert "NanumGothic" in _fonts(reader, "dd p[data-hangul]")      # the category names: 약국 pharmacy …
    reader.screenshot(path=str(SHOTS / "docs_api_local.png"))
    assert reader.elsewhere == []
