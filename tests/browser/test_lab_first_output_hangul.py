"""Hangul in the lab's very first output, on a machine without a Korean font (Debian's chromium here has none):
a fresh browser (no cache) opens a fresh lab page whose first output is ``tk.status.current()``; every all-Hangul
cell of that table on one line must be drawn in the bundled NanumGothic (its drawn width equals the width NanumGothic gives
the same text; boxes of a fallback font differ), and the page must look the same as a second render made after
the font was already loaded (the reload compares pixels of the same table)."""
from __future__ import annotations

import io
import json
import re
import time

import pytest

from tests.labrun import LabProcess

pytest.importorskip("jupyterlab")

CELL = "import toolkit\ntk = toolkit.connect()\ntk.status.current()"

HANGUL_CELLS = """() => {
  const out = [];
  for (const td of document.querySelectorAll('.jp-OutputArea-output td, .jp-OutputArea-output th')) {
    const text = td.textContent.trim();
    if (!/^[\\uac00-\\ud7a3 ]+$/.test(text)) continue;
    const range = document.createRange(); range.selectNodeContents(td);
    const style = getComputedStyle(td);
    const c = document.createElement('canvas').getContext('2d');
    c.font = `${style.fontWeight} ${style.fontSize} NanumGothic`;
    // one line only (a wrapped text's width depends on the breaks; the pixel comparison covers those cells)
    const rects = [...range.getClientRects()];
    if (rects.length !== 1) continue;
    out.push({text, drawn: rects[0].width, nanum: c.measureText(text).width});
  }
  const loaded = [...document.fonts].some(f => f.family.replace(/['"]/g, '') === 'NanumGothic'
                                            && f.status === 'loaded');
  return {cells: out, loaded};
}"""


def _notebook(path):
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "first", "metadata": {}, "outputs": [],
                     "source": CELL}],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), "utf-8")


@pytest.fixture(scope="module")
def first_lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("first-output")
    notebooks = work / "notebooks"
    notebooks.mkdir()
    _notebook(notebooks / "first.ipynb")
    lab = LabProcess(notebooks, work, lab_args=["--LabApp.expose_app_in_browser=True"])
    lab.start()
    yield lab
    lab.stop()


def _table(page):
    return page.locator(".jp-OutputArea-output table").first


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_the_first_output_of_a_fresh_lab_page_draws_hangul(browser, first_lab):
    from PIL import Image, ImageChops

    lab = first_lab
    context = browser.new_context(viewport={"width": 1200, "height": 900}, service_workers="block")
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        ("http://127.0.0.1", "data:", "blob:", "about:")) else route.abort())
    page = context.new_page()
    page.set_default_timeout(60000)
    try:
        page.goto(f"{lab.url}/lab/workspaces/first/tree/first.ipynb?reset&token={lab.token}")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext.session "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext.session.kernel "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
                               " === 'idle'", timeout=90000)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        _table(page).wait_for(timeout=90000)
        time.sleep(1.0)
        first = page.evaluate(HANGUL_CELLS)
        shot_first = _table(page).screenshot()
        page.screenshot(path=str(_shots() / "lab_first_output_hangul.png"))
        assert first["loaded"], "the bundled NanumGothic never loaded"
        assert {c["text"] for c in first["cells"]} & {"로그인", "소셜", "메시지"}, first
        off = [c for c in first["cells"] if abs(c["drawn"] - c["nanum"]) > 0.5]
        assert not off, f"Hangul not drawn in NanumGothic in the first output (boxes?): {off}"
        # the same output again, the font long loaded: the first render must look the same
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.reload()
        _table(page).wait_for(timeout=90000)
        page.evaluate("() => document.fonts.ready")
        time.sleep(1.0)
        shot_again = _table(page).screenshot()
        a, b = (Image.open(io.BytesIO(s)).convert("RGB") for s in (shot_first, shot_again))
        if a.size == b.size:
            diff = ImageChops.difference(a, b).getbbox()
            assert diff is None, f"the first render differs from a render with the font loaded, in {diff}"
        else:
            pytest.fail(f"the first render ({a.size}) differs in size from a render with the font loaded ({b.size})")
    finally:
        try:
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        finally:
            context.close()


def _shots():
    from tests.browser.test_lab_walkthroughs import SHOTS

    SHOTS.mkdir(exist_ok=True)
    return SHOTS


def test_the_lab_css_preloads_the_font_before_any_output():
    from toolkit.cli import LAB_FONT_CSS

    assert LAB_FONT_CSS.count("font-display:block") == 2
    assert re.search(r"body::before\{content:'[\uac00-\ud7a3]+';font-family:'NanumGothic'", LAB_FONT_CSS)
