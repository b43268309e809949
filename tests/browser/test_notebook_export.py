"""A manager's HTML export (issue 46): ``jupyter nbconvert --to toolkit_html`` of the walkthroughs 04a and 05 as their
author keeps them (``toolkit walkthroughs --instructor``), in the installed venv (tests/installed.py), the file then
opened in chromium with every Korean font hidden and every request but the file itself refused: each map shows its
first view from embedded tiles, and Hangul (headings, paragraphs, table cells, the legends) is drawn in
NanumGothic. It prints the bytes per export and per stored map.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.browser.test_lab_hangul import MEASURE
from tests.browser.test_lab_walkthroughs import MAPS, SHOTS

pytest.importorskip("nbconvert")

MIME = "application/vnd.toolkit.map+json"


@pytest.fixture(scope="module")
def authored(installed_toolkit, tmp_path_factory):
    """The walkthroughs as their author keeps them: the instructor's edition, every stored output."""
    home = tmp_path_factory.mktemp("author")
    installed_toolkit.run(installed_toolkit.toolkit, "walkthroughs", home / "lessons", "--instructor", "--no-trust",
                          HOME=str(home))
    return home / "lessons"


def _sizes(path: Path) -> dict:
    nb = json.loads(path.read_text("utf-8"))
    out = {"maps": 0, "data_form": 0, "html": 0}
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            data = o.get("data") or {}
            if MIME in data:
                out["maps"] += 1
                out["data_form"] += len(json.dumps(data[MIME], ensure_ascii=False).encode())
                out["html"] += len("".join(data["text/html"]).encode())
    return out


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(1800)
def test_the_html_export_shows_hangul_and_every_maps_first_view_with_no_font_no_toolkit_no_network(
        browser_without_korean_fonts, authored, installed_toolkit, tmp_path):
    folder = authored
    names = ("04a_local_search", "05_directions")
    for name in names:
        shutil.copy(folder / f"{name}.ipynb", tmp_path / f"{name}.ipynb")
    started = time.monotonic()
    installed_toolkit.run(installed_toolkit.venv / "bin" / "jupyter", "nbconvert", "--to", "toolkit_html",
                          *[tmp_path / f"{n}.ipynb" for n in names], cwd=tmp_path)
    seconds = time.monotonic() - started
    installed_toolkit.run(installed_toolkit.venv / "bin" / "jupyter", "nbconvert", "--to", "html",
                          "--output-dir", tmp_path / "plain", *[tmp_path / f"{n}.ipynb" for n in names], cwd=tmp_path)
    context = browser_without_korean_fonts.new_context(viewport={"width": 1300, "height": 1000})
    asked: list[str] = []

    def only_the_file(r):
        asked.append(r.request.url)
        if r.request.url.startswith(("file:", "data:", "blob:", "about:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", only_the_file)
    page = context.new_page()
    try:
        for name in names:
            page.goto((tmp_path / f"{name}.html").as_uri())
            page.wait_for_load_state("load")
            expected = MAPS[name[:3].rstrip("_")]
            for _ in range(30):
                maps = page.evaluate("""() => [...document.querySelectorAll('.toolkit-map')].map(m =>
                    [...m.querySelectorAll('img.leaflet-tile-loaded')].filter(t => t.src.startsWith('data:')
                     && t.naturalWidth === 256).length)""")
                if len(maps) == expected and all(n >= 4 for n in maps):
                    break
                page.wait_for_timeout(500)
            assert len(maps) == expected and all(n >= 4 for n in maps), f"{name}: embedded tiles per map {maps}"
            measured = page.evaluate(MEASURE, ["h1", "h2", "h3", "p", "li", "td", "th", "strong", ".toolkit-legend b",
                                               ".toolkit-legend div"])
            off = [m for m in measured if abs(m["drawn"] - m["nanum"]) > 0.5]
            assert len(measured) >= 20 and not off, f"{name}: Hangul not drawn in NanumGothic: {off[:5]}"
            page.screenshot(path=str(SHOTS / f"export_{name}.png"), full_page=False)
            for k in range(page.locator(".toolkit-map").count()):
                page.locator(".toolkit-map").nth(k).scroll_into_view_if_needed()
                page.locator(".toolkit-map").nth(k).screenshot(path=str(SHOTS / f"export_{name}_map{k}.png"))
            size = (tmp_path / f"{name}.html").stat().st_size
            plain = (tmp_path / "plain" / f"{name}.html").stat().st_size
            stored = _sizes(tmp_path / f"{name}.ipynb")
            print(f"{name}: export {size:,} bytes (nbconvert --to html: {plain:,}); {stored['maps']} maps stored as "
                  f"{stored['data_form']:,} bytes of data form beside {stored['html']:,} of folium HTML; "
                  f"{len(measured)} Hangul texts in NanumGothic")
    finally:
        context.close()
    others = [u for u in asked if not u.startswith(("file:", "data:", "blob:", "about:"))]
    print(f"export of {len(names)} notebooks: {seconds:.0f} s; refused requests: {sorted(set(others))}")
