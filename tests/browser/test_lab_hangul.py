"""Hangul in JupyterLab on a machine without a Korean font, through toolkit's Jupyter extensions (the server
extension serves the Hangul subsets of NanumGothic, the lab extension ``toolkit-jupyter`` declares them as the
family ``toolkit-hangul`` with a Hangul-only ``unicode-range`` and appends it to the lab's fonts).

chromium runs with a fontconfig that hides every Korean font (``no_korean_fontconfig``), in two labs:

* ``toolkit lab`` from this checkout (an editable install: no data files; ``toolkit lab`` loads both extensions
  from the checkout);
* PLAIN ``jupyter lab`` of a regular install: the wheel with ``[lab]`` in a fresh venv (the session's
  ``installed_plain_lab``), no toolkit command involved.

In each, a fresh page (no cache) opens a notebook with no Hangul: no font is fetched. Its first output (a table
of ``tk.status.current()``) then draws Hangul, looking the same as after a reload with the font long loaded. A
second notebook has Hangul in markdown (a heading, bold, a paragraph), a printed line (the code font), a widget
label and a map with a bold legend title. Every pure-Hangul text there must be drawn as NanumGothic draws it:
its width on the page equals the width the canvas gives the same text in ``toolkit-hangul`` (boxes of a fallback
font are far narrower: ``교통 상황`` in bold was 20.9 px instead of 48.5 px).

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from tests.browser.conftest import NO_KOREAN_FONTS, block_outside, korean_fonts
from tests.browser.test_lab_walkthroughs import SHOTS
from tests.labrun import LabProcess, no_windowing

pytest.importorskip("jupyterlab")

FIRST = ["import toolkit\ntk = toolkit.connect()\ntk.status.current()"]
HANGUL = [("markdown", "# 교통 상황\n\n한글 문단입니다. **굵은 한글** 그리고 보통 글씨.\n\n한글 문단"),
          ("code", "import toolkit\ntk = toolkit.connect()\nprint('출력 한글')"),
          ("code", "import ipywidgets\nipywidgets.Label('위젯 라벨 한글')"),
          ("code", "from toolkit.mapassets import add_legend, new_map\nm = new_map((35.155, 129.06))\n"
                   "add_legend(m, '교통 상황', [('red', '정체'), ('green', '원활')])\nm")]

MEASURE = """(selectors) => {
  const pure = /^[\\u1100-\\u11ff\\u3130-\\u318f\\uac00-\\ud7a3 ]+$/;
  const out = [];
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      // the element's own text (a heading's anchor link, a legend's colour swatch are left out)
      const own = [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE && n.data.trim());
      const text = own.map(n => n.data).join('').trim();
      if (!own.length || !pure.test(text)) continue;
      const range = document.createRange();
      range.setStart(own[0], 0); range.setEnd(own[own.length - 1], own[own.length - 1].data.trimEnd().length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (rects.length !== 1) continue;         // one line only: a wrapped text's width depends on its breaks
      const style = getComputedStyle(el);
      const c = document.createElement('canvas').getContext('2d');
      // the spaces come from the first font of the element's list; the rest from NanumGothic
      c.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const spaces = (text.match(/ /g) || []).length * c.measureText(' ').width;
      c.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} toolkit-hangul`;
      out.push({selector, text, weight: style.fontWeight, drawn: rects[0].width,
                nanum: c.measureText(text.replace(/ /g, '')).width + spaces});
    }
  }
  return out;
}"""

FACES = """() => [...document.fonts].filter(f => f.family.replace(/['"]/g, '') === 'toolkit-hangul')
  .map(f => ({weight: f.weight, status: f.status, range: f.unicodeRange}))"""

VARIABLES = """() => Object.fromEntries(['--jp-ui-font-family', '--jp-content-font-family', '--jp-code-font-family']
  .map(v => [v, getComputedStyle(document.documentElement).getPropertyValue(v).trim()]))"""

KERNEL_IDLE = ("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
               "&& window.jupyterapp.shell.currentWidget.sessionContext "
               "&& window.jupyterapp.shell.currentWidget.sessionContext.session "
               "&& window.jupyterapp.shell.currentWidget.sessionContext.session.kernel "
               "&& window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'")

RAN = """() => { const p = window.jupyterapp.shell.currentWidget; const cells = p.content.model.cells;
  let done = 0, code = 0;
  for (let i = 0; i < cells.length; i++) { const c = cells.get(i); if (c.type !== 'code') continue; code++;
    if (c.executionCount !== null && !p.content.widgets[i].promptNode.textContent.includes('*')) done++; }
  return code > 0 && done === code && p.sessionContext.session.kernel.status === 'idle'; }"""


def _notebook(path: Path, cells) -> None:
    nb = {"cells": [], "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}}
    for i, (kind, source) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        nb["cells"].append(cell)
    path.write_text(json.dumps(nb), "utf-8")


def _notebooks(folder: Path) -> Path:
    """The two notebooks in ``folder`` (made here)."""
    folder.mkdir()
    _notebook(folder / "first.ipynb", [("code", FIRST[0])])
    _notebook(folder / "hangul.ipynb", HANGUL)
    return folder


@pytest.fixture(scope="module")
def toolkit_lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("hangul-toolkit-lab")
    settings = no_windowing(work / "user-settings")
    lab = LabProcess(_notebooks(work / "notebooks"), work, extra_env={"JUPYTERLAB_SETTINGS_DIR": str(settings)},
                     lab_args=["--LabApp.expose_app_in_browser=True"])
    lab.start()
    yield lab
    lab.stop()


@pytest.fixture(scope="module")
def plain_lab(installed_plain_lab):
    """The session's plain ``jupyter lab`` of the installed venv, with the notebooks in ``~/hangul``."""
    _notebooks(installed_plain_lab.home / "hangul")
    return installed_plain_lab


def _context(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, service_workers="block")
    block_outside(context)
    return context


def _open(page, lab, name: str, folder: str) -> None:
    path = f"{folder}/{name}" if folder else name
    page.goto(f"{lab.url}/lab/workspaces/{name}/tree/{path}.ipynb?reset&token={lab.token}")
    page.wait_for_function(KERNEL_IDLE, timeout=90000)


def _run_all(page, timeout: float = 180) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    time.sleep(1.0)
    page.wait_for_function(RAN, timeout=timeout * 1000)


def _off(measured) -> list:
    """Texts not drawn as NanumGothic draws them."""
    return [m for m in measured if abs(m["drawn"] - m["nanum"]) > 0.5]


def _check(browser, lab, kind: str, folder: str = "") -> dict:
    """The checks above in ``lab``, whose ``folder`` (of its root) holds the two notebooks."""
    from PIL import Image, ImageChops

    SHOTS.mkdir(exist_ok=True)
    context = _context(browser)
    fonts: list[tuple[str, int]] = []
    context.on("response", lambda r: fonts.append((r.url.split("?")[0], r.status)) if "/toolkit/fonts/" in r.url
               else None)
    page = context.new_page()
    page.set_default_timeout(60000)
    try:
        # 1. a notebook with no Hangul: the lab extension is there, no font is fetched
        _open(page, lab, "first", folder)
        variables = page.evaluate(VARIABLES)
        assert all(v.endswith("toolkit-hangul'") or v.endswith("toolkit-hangul") for v in variables.values()), \
            variables
        faces = page.evaluate(FACES)
        assert sorted(f["weight"] for f in faces) == ["bold", "normal"], faces
        assert all(f["status"] == "unloaded" for f in faces), faces
        assert all("U+AC00-D7A3" in f["range"] and "U+0-" not in f["range"] for f in faces), faces
        time.sleep(1.0)
        assert fonts == [], f"a font was fetched for a page without Hangul: {fonts}"
        # 2. its first output has Hangul: drawn in NanumGothic, the same as once the font is long loaded
        _run_all(page)
        table = page.locator(".jp-OutputArea-output table").first
        table.wait_for(timeout=90000)
        time.sleep(1.0)
        first = page.evaluate(MEASURE, [".jp-OutputArea-output td", ".jp-OutputArea-output th"])
        shot_first = table.screenshot()
        page.screenshot(path=str(SHOTS / f"lab_hangul_{kind}_first_output.png"))
        assert {m["text"] for m in first} & {"로그인", "소셜", "메시지"}, first
        assert not _off(first), f"Hangul of the first output not drawn in NanumGothic (boxes?): {_off(first)}"
        assert fonts and {status for _, status in fonts} <= {200}, fonts
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        time.sleep(1.0)
        page.reload()
        page.locator(".jp-OutputArea-output table").first.wait_for(timeout=90000)
        page.evaluate("() => document.fonts.ready")
        time.sleep(1.0)
        shot_again = page.locator(".jp-OutputArea-output table").first.screenshot()
        a, b = (Image.open(io.BytesIO(s)).convert("RGB") for s in (shot_first, shot_again))
        assert a.size == b.size, f"the first render ({a.size}) differs in size from a later one ({b.size})"
        assert ImageChops.difference(a, b).getbbox() is None, "the first render differs from a later one"
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        # 3. markdown, printed text, a widget label and a map's legend
        _open(page, lab, "hangul", folder)
        _run_all(page, 240)
        page.locator(".widget-label").first.wait_for(timeout=60000)
        legend_box = page.locator(".toolkit-map .toolkit-legend").first   # the lab extension draws the map
        legend_box.wait_for(timeout=60000)
        page.evaluate("() => document.fonts.ready")
        time.sleep(1.0)
        lab_texts = page.evaluate(MEASURE, [".jp-MarkdownOutput h1", ".jp-MarkdownOutput strong",
                                            ".jp-MarkdownOutput p", ".jp-OutputArea-output pre", ".widget-label"])
        legend = page.evaluate(MEASURE, [".toolkit-legend b", ".toolkit-legend div"])
        page.screenshot(path=str(SHOTS / f"lab_hangul_{kind}.png"), full_page=True)
        legend_box.screenshot(path=str(SHOTS / f"lab_hangul_{kind}_legend.png"))
        found = {m["text"] for m in lab_texts + legend}
        wanted = {"교통 상황", "굵은 한글", "한글 문단", "출력 한글", "위젯 라벨 한글", "정체", "원활"}
        assert wanted <= found, f"not measured: {wanted - found}"
        assert any(m["selector"] == ".toolkit-legend b" and m["weight"] == "700" for m in legend), legend
        off = _off(lab_texts) + _off(legend)
        assert not off, f"Hangul not drawn in NanumGothic (boxes?): {off}"
        assert all(f["status"] == "loaded" for f in page.evaluate(FACES)), page.evaluate(FACES)
        served = {url.rsplit("/", 1)[1] for url, _ in fonts}
        assert served == {"NanumGothic-hangul.woff2", "NanumGothicBold-hangul.woff2"}, fonts
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        return {"fonts": fonts, "measured": len(first) + len(lab_texts) + len(legend)}
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_toolkit_lab_of_a_checkout_draws_hangul_without_a_korean_font(browser_without_korean_fonts, toolkit_lab):
    done = _check(browser_without_korean_fonts, toolkit_lab, "toolkit_lab")
    print(f"toolkit lab: {done['measured']} Hangul texts drawn in NanumGothic; fonts fetched: {done['fonts']}")


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(1800)
def test_plain_jupyter_lab_of_a_wheel_install_draws_hangul_without_a_korean_font(browser_without_korean_fonts,
                                                                                 plain_lab):
    done = _check(browser_without_korean_fonts, plain_lab, "plain_lab", "hangul")
    print(f"plain jupyter lab: {done['measured']} Hangul texts drawn in NanumGothic; fonts fetched: {done['fonts']}")


def test_the_fontconfig_of_these_tests_hides_korean_fonts(no_korean_fontconfig, tmp_path):
    """The control: the bundled NanumGothic made a system font is listed as Korean, and the same configuration
    with the rejection hides it (so an empty list under it is not fontconfig failing to read the file)."""
    from toolkit.fonts import hangul_font_path

    with_nanum = tmp_path / "with-nanum.conf"
    with_nanum.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>{hangul_font_path().parent}</dir>
<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>
""", "utf-8")
    hiding = tmp_path / "hiding.conf"
    hiding.write_text(NO_KOREAN_FONTS.format(base=with_nanum), "utf-8")
    assert any("NanumGothic" in f for f in korean_fonts(with_nanum)), korean_fonts(with_nanum)
    assert korean_fonts(hiding) == []
    assert korean_fonts(no_korean_fontconfig) == []
