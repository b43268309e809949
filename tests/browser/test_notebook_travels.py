"""A notebook another person opens: a colleague's JupyterLab, a manager's HTML export. Issue 46.

* **A colleague**: the walkthroughs copied and trusted under one home (``toolkit walkthroughs`` with that HOME), the
  notebooks then handed to another user, whose home has toolkit installed in its Jupyter (the session's
  ``installed_plain_lab``: plain ``jupyter lab`` of the wheel's venv) and no trust for them. Every toolkit map of
  04a, 05 and 06 draws its base map there (at least 4 tiles each, from that lab's ``toolkit/tiles/``) through the
  lab extension's MIME renderer, with no iframe and no script of the notebook run: a notebook of hostile outputs
  (a script in HTML, a tooltip with ``onerror``) runs none of them. In a 900-pixel-wide window a map keeps its
  520 pixels, the scale bar shows metres and sits clear of the attribution.
* **A manager**: tests/browser/test_notebook_export.py (its own module: it needs chromium without Korean fonts).

Screenshots go to tests/browser/screenshots/ (gitignored); the tests print bytes per map and per export."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser.conftest import block_outside
from tests.browser.test_lab_walkthroughs import MAPS, SHOTS, _open

pytest.importorskip("jupyterlab")
nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = ("04a_local_search", "05_directions", "06_whole_city")
MIME = "application/vnd.toolkit.map+json"

DRAWN = """(route) => [...document.querySelectorAll('.jp-OutputArea-output .toolkit-map')].map(m => {
  const tiles = [...m.querySelectorAll('img.leaflet-tile')];
  const box = r => { const b = r && r.getBoundingClientRect(); return b ? [b.left, b.top, b.right, b.bottom] : null; };
  return {ours: tiles.filter(t => t.src.startsWith(route) && t.classList.contains('leaflet-tile-loaded')
                                 && t.naturalWidth === 256).length,
          other: tiles.filter(t => !t.src.startsWith(route)).map(t => t.src.slice(0, 60)),
          height: m.getBoundingClientRect().height,
          scale: (m.querySelector('.leaflet-control-scale-line') || {}).textContent || '',
          scaleBox: box(m.querySelector('.leaflet-control-scale')),
          attributionBox: box(m.querySelector('.leaflet-control-attribution')),
          note: m.querySelectorAll('.toolkit-tiles-note').length};
})"""
UNTRUSTED = """() => { const cells = window.jupyterapp.shell.currentWidget.content.model.cells; const out = [];
  for (let i = 0; i < cells.length; i++) { const c = cells.get(i); if (c.type === 'code' && c.outputs.length)
    out.push(c.trusted); } return out; }"""


def _overlap(a, b) -> bool:
    return bool(a and b) and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hostile(path: Path) -> None:
    """A notebook whose outputs would run script if anything ran it: an HTML output with a script and an inline
    handler, and a folium map whose tooltip and popup carry handlers (its data form carries them as HTML)."""
    import folium

    from toolkit.mapassets import map_bundle, new_map

    m = new_map((35.155, 129.06), zoom_start=15, tiles="http://127.0.0.1:9/sandbox/tiles/{z}/{x}/{y}.png")
    folium.CircleMarker((35.155, 129.06), radius=30, tooltip="<img src=x onerror=\"window.__pwned='tooltip'\">",
                        popup="<script>window.__pwned='popup'</script><b>서면</b>").add_to(m)
    html = ("<script>window.__pwned = 'html'</script><img src=x onerror=\"window.__pwned='img'\">"
            "<b>an HTML output</b>")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("m", outputs=[nbformat.v4.new_output("display_data", data=map_bundle(m))]),
        nbformat.v4.new_code_cell("h", outputs=[nbformat.v4.new_output("display_data", data={"text/html": html})])])
    nb.metadata.kernelspec = {"name": "toolkit", "display_name": "Python (toolkit)", "language": "python"}
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def colleague(installed_toolkit, installed_plain_lab, tmp_path_factory):
    """The walkthroughs as their author keeps them (copied and trusted under the author's home), handed over: copied
    into ``~/from-a-colleague`` of the lab's user, who has not trusted them; plus the hostile notebook."""
    lab = installed_plain_lab
    author = tmp_path_factory.mktemp("author-home")
    out = installed_toolkit.run(installed_toolkit.toolkit, "walkthroughs", author / "lessons", "--instructor",
                                HOME=str(author)).stdout
    assert "notebooks trusted" in out
    folder = lab.home / "from-a-colleague"
    folder.mkdir()
    for name in NOTEBOOKS:
        shutil.copy(author / "lessons" / f"{name}.ipynb", folder / f"{name}.ipynb")
    _hostile(folder / "hostile.ipynb")
    return lab, folder


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(1800)
def test_a_colleagues_untrusted_notebook_draws_every_map_and_runs_no_script(browser, colleague):
    lab, folder = colleague
    route = lab.url + "/toolkit/tiles/"
    context = browser.new_context(viewport={"width": 900, "height": 1000}, service_workers="block")
    block_outside(context)
    page = context.new_page()
    page.set_default_timeout(60000)
    SHOTS.mkdir(exist_ok=True)
    counts = {}
    try:
        for name in (*NOTEBOOKS, "hostile"):
            expected = MAPS.get(name[:3].rstrip("_"), 1)
            _open(page, lab, name, folder=folder.name)
            trusted = page.evaluate(UNTRUSTED)
            assert trusted and not any(trusted), f"{name}: the notebook is trusted here ({trusted})"
            maps = []
            for _ in range(90):
                for k in range(page.locator(".toolkit-map").count()):
                    page.locator(".toolkit-map").nth(k).scroll_into_view_if_needed()
                maps = page.evaluate(DRAWN, route)
                if len(maps) == expected and all(m["ours"] >= 4 for m in maps):
                    break
                page.wait_for_timeout(1000)
            for k in range(page.locator(".toolkit-map").count()):
                page.locator(".toolkit-map").nth(k).scroll_into_view_if_needed()
                page.locator(".toolkit-map").nth(k).screenshot(path=str(SHOTS / f"colleague_{name}_map{k}.png"))
            assert len(maps) == expected, f"{name}: {len(maps)} maps drawn, {expected} stored"
            for k, m in enumerate(maps):
                assert m["ours"] >= 4 and not m["other"], f"{name} map {k}: {m}"
                assert m["note"] == 0 and m["height"] == 520, f"{name} map {k}: {m}"
                assert m["scale"].strip().endswith(("m", "km")) and "ft" not in m["scale"], m["scale"]
                assert not _overlap(m["scaleBox"], m["attributionBox"]), f"{name} map {k}: scale under attribution"
            assert page.locator(".jp-OutputArea-output iframe").count() == 0, f"{name}: an iframe (folium's HTML)"
            assert page.evaluate("() => window.__pwned") is None, page.evaluate("() => window.__pwned")
            counts[name] = [m["ours"] for m in maps]
            page.screenshot(path=str(SHOTS / f"colleague_{name}.png"))
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        # the hostile map's tooltip and popup, opened, show their text and run nothing
        circle = page.locator(".toolkit-map path.leaflet-interactive").first
        circle.dispatch_event("mouseover")
        circle.dispatch_event("click")
        page.locator(".leaflet-popup-content").first.wait_for(timeout=10000)
        page.wait_for_timeout(500)
        assert "서면" in page.locator(".leaflet-popup-content").first.inner_text()
        assert page.evaluate("() => window.__pwned") is None
    finally:
        context.close()
    print(f"a colleague's untrusted notebooks: tiles per map {counts}")
