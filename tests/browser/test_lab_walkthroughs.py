"""Every walkthrough, as a user runs it: ``toolkit lab`` (a subprocess on 127.0.0.1, a free port, our token, a
temporary copy of notebooks/ so the repository is untouched), each notebook opened in Debian's chromium with every
non-loopback request aborted, outputs cleared, Run All through the lab's own command (``runmenu:run-all``), and
then, once the kernel is idle:

* no kernel-selection dialog and no news toast appeared; every code cell ran; no error output (but in a cell
  tagged ``raises-exception``, which shows an error on purpose and does not stop Run All); no
  ``Glyph … missing`` warning; the exercise answers (cells tagged ``solution``) ran and stay folded;
* 01's widgets render as DOM widgets (``.jupyter-widgets``, ``.widget-button``) with no cut labels;
* every map (drawn by toolkit's lab extension from the map's data form: a ``.toolkit-map`` in the output) has at
  least 4 tiles loaded from the lab's own ``/toolkit/tiles/`` (toolkit's Jupyter server extension; never the sandbox's port) and layers drawn;
  each spatial walkthrough draws exactly the maps it shows (``MAPS``).

Screenshots go to tests/browser/screenshots/ (gitignored). Bounded in time: the lab starts once per module and
each notebook has its own deadline.
"""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from tests.browser.conftest import block_outside
from tests.labrun import LabProcess, no_windowing

pytest.importorskip("jupyterlab")

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).parent / "screenshots"
WALKTHROUGHS = sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb") if re.fullmatch(r"\d\d[a-z]?_\w+", p.stem))
MAPS = {"04a": 3, "04b": 2, "05": 5, "06": 1}          # maps each spatial walkthrough draws (the others draw none)
RUN_TIMEOUT = {"04a": 300, "04b": 420, "05": 420}   # seconds per notebook (Run All); others 180
LOOPBACK = ("127.0.0.1", "localhost")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("lab")
    notebooks = work / "notebooks"
    shutil.copytree(REPO / "notebooks", notebooks, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    # the checkout is an editable install: its Jupyter gets toolkit's server extension from jupyter-config/ (a
    # wheel install has it in etc/jupyter)
    # test-only user settings: render every cell (no windowing) so outputs can be checked in the DOM
    settings = no_windowing(work / "user-settings")
    process = LabProcess(notebooks, work, extra_env={"JUPYTERLAB_SETTINGS_DIR": str(settings),
                                                     "JUPYTER_CONFIG_PATH": str(REPO / "jupyter-config")},
                         lab_args=["--LabApp.expose_app_in_browser=True"])
    process.start()
    yield process
    process.stop()


@pytest.fixture
def lab_page(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")
    aborted = block_outside(context, allowed=tuple(f"http://{host}:" for host in LOOPBACK))
    page = context.new_page()
    page.set_default_timeout(60000)
    page.aborted = aborted
    yield page
    context.close()


STATE = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.content || !panel.sessionContext) return null;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const cells = [];
  const model = panel.content.model;
  for (let i = 0; i < model.cells.length; i++) {
    const c = model.cells.get(i);
    if (c.type !== 'code') continue;
    cells.push({count: c.executionCount, outputs: c.outputs.toJSON(), tags: c.getMetadata('tags') || []});
  }
  return {kernel: kernel ? kernel.status : null, busy: panel.content.widgets.some(
            w => w.model.type === 'code' && w.promptNode && w.promptNode.textContent.includes('*')),
          cells};
}"""

SOLUTIONS = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter(w => (w.model.getMetadata('tags') || []).includes('solution'))
  .map(w => ({hidden: w.inputHidden, ran: w.model.executionCount !== null}))"""

MAP_CHECK = """(m) => {
  const tiles = [...m.querySelectorAll('img.leaflet-tile')];
  return {
    tiles: tiles.map(t => ({src: t.src, loaded: t.classList.contains('leaflet-tile-loaded') && t.naturalWidth > 0})),
    layers: m.querySelectorAll('.leaflet-overlay-pane path, .leaflet-overlay-pane canvas, '
                               + '.leaflet-marker-pane > *').length,
  };
}"""


def _lesson(name: str) -> str:
    """The lesson's number, as in its file name: ``03a``, ``05``."""
    return name.split("_")[0]


def _open(page, lab, name: str, folder: str = ""):
    """Open the notebook ``name`` (in ``folder`` of the lab's root) and wait until its kernel is idle."""
    path = f"{folder}/{name}" if folder else name
    page.goto(f"{lab.url}/lab/workspaces/t{_lesson(name)}/tree/{path}.ipynb?reset&token={lab.token}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=90000)
    page.wait_for_function(f"({STATE})() && ({STATE})().kernel === 'idle'", timeout=90000)


def _run_all(page, name: str, timeout: float) -> dict:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    cleared = page.evaluate(STATE)
    assert all(not c["outputs"] for c in cleared["cells"]), f"{name}: outputs not cleared"
    page.evaluate("() => { window.jupyterapp.commands.execute('runmenu:run-all'); }")
    deadline, quiet, state = time.monotonic() + timeout, 0, None
    while time.monotonic() < deadline:
        time.sleep(1.0)
        state = page.evaluate(STATE)
        done = all(c["count"] is not None for c in state["cells"])
        errored = any(o.get("output_type") == "error" for c in state["cells"] for o in c["outputs"]
                      if "raises-exception" not in c.get("tags", []))
        quiet = quiet + 1 if state["kernel"] == "idle" and not state["busy"] and (done or errored) else 0
        if quiet >= 3:
            return state
    raise AssertionError(f"{name}: Run All did not finish within {timeout} s "
                         f"({sum(c['count'] is not None for c in state['cells'])}/{len(state['cells'])} cells ran)")


def _problems(state: dict) -> list[str]:
    found = []
    for i, cell in enumerate(state["cells"]):
        if cell["count"] is None:
            found.append(f"code cell {i} did not run")
        for out in cell["outputs"]:
            if out.get("output_type") == "error" and "raises-exception" not in cell.get("tags", []):
                found.append(f"code cell {i}: {out.get('ename')}: {out.get('evalue')}")
            text = out.get("text", "") if out.get("output_type") == "stream" else ""
            text = "".join(text) if isinstance(text, list) else text
            if "Glyph" in text and "missing" in text:
                found.append(f"code cell {i}: glyph warning: {text.strip()[:200]}")
    return found


def _check_maps(page, lab, name: str) -> list[dict]:
    """Every map of the open notebook as toolkit's lab extension draws it (a ``.toolkit-map`` in the output):
    at least 4 tiles from the lab's own ``/toolkit/tiles/``, none from a sandbox, layers drawn."""
    results = []
    drawn = page.locator(".jp-OutputArea-output .toolkit-map")
    for k in range(drawn.count()):
        el = drawn.nth(k)
        el.scroll_into_view_if_needed()
        el.evaluate("m => new Promise((done, fail) => { const t0 = Date.now(); (function wait() {"
                    " const tiles = [...m.querySelectorAll('img.leaflet-tile')];"
                    " if (tiles.length && tiles.every(t => t.complete)) return done();"
                    " if (Date.now() - t0 > 30000) return fail(new Error('tiles did not load'));"
                    " setTimeout(wait, 200); })(); })")
        info = el.evaluate(MAP_CHECK)
        el.screenshot(path=str(SHOTS / f"{name}_map{k}.png"))
        ours = [t for t in info["tiles"] if t["src"].startswith(f"{lab.url}/toolkit/tiles/")]
        assert len(ours) >= 4 and all(t["loaded"] for t in ours), \
            f"{name} map {k}: not 4 tiles from the lab's /toolkit/tiles/: {info['tiles'][:3]}"
        assert not [t for t in info["tiles"] if "/sandbox/tiles/" in t["src"]], f"{name}: a tile from a sandbox"
        assert info["layers"] > 0, f"{name} map {k}: no layer drawn"
        results.append(info)
    return results


def _check_widgets(page, name: str) -> int:
    widgets = page.locator(".jp-OutputArea-output .jupyter-widgets")
    widgets.first.scroll_into_view_if_needed()
    buttons = page.locator(".jp-OutputArea-output .widget-button")
    assert widgets.count() > 0 and buttons.count() > 0, f"{name}: the widgets did not render as DOM widgets"
    labels = page.evaluate("""() => [...document.querySelectorAll(
        '.jp-OutputArea-output .widget-button, .jp-OutputArea-output .widget-label')]
        .filter(e => e.offsetParent !== null)
        .map(e => ({text: e.textContent.trim(), cut: e.scrollWidth > e.clientWidth + 1}))""")
    cut = [label["text"] for label in labels if label["cut"]]
    assert not cut, f"{name}: labels cut: {cut}"
    texts = {label["text"] for label in labels}
    assert {"Start login", "Log in as demo user", "Refresh"} <= texts, texts
    hangul = page.evaluate("""async () => { await document.fonts.ready; return [...document.fonts].some(
        f => f.family.replace(/['"]/g, '') === 'toolkit-hangul' && f.status === 'loaded'); }""")   # the lab extension's
    assert hangul, f"{name}: the lab did not load the bundled Hangul font for 서연 in the widgets"
    page.locator(".jp-OutputArea-output .jupyter-widgets").first.screenshot(path=str(SHOTS / f"{name}_widgets.png"))
    return widgets.count()


@pytest.mark.browser
@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", WALKTHROUGHS)
def test_walkthrough_runs_in_jupyterlab(lab_page, lab, name):
    page = lab_page
    SHOTS.mkdir(exist_ok=True)
    started = time.monotonic()
    _open(page, lab, name)
    try:
        _check_walkthrough(page, lab, name, started)
    finally:   # free the kernel for the next walkthrough (two cores are shared)
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")


def _check_walkthrough(page, lab, name: str, started: float) -> None:
    assert page.locator(".jp-Dialog").count() == 0, f"{name}: a dialog opened with the notebook"
    state = _run_all(page, name, RUN_TIMEOUT.get(_lesson(name), 180))
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    problems = _problems(state)
    assert not problems, f"{name}: " + "; ".join(problems)
    assert page.locator(".jp-Dialog").count() == 0, f"{name}: a dialog is open"
    toasts = page.locator(".jp-toast-message, .Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if "news" in t.lower() or "update" in t.lower()], toasts
    solutions = page.evaluate(SOLUTIONS)
    assert all(s["hidden"] and s["ran"] for s in solutions), f"{name}: a solution is shown open or did not run"
    if name.startswith("01"):
        _check_widgets(page, name)
    maps = _check_maps(page, lab, name)
    assert len(maps) == MAPS.get(_lesson(name), 0), \
        f"{name}: {len(maps)} maps drawn, {MAPS.get(_lesson(name), 0)} expected"
    print(f"{name}: {len(state['cells'])} code cells, {len(solutions)} folded solutions, {len(maps)} maps, {len(page.aborted)} non-loopback "
          f"requests aborted, {time.monotonic() - started:.1f} s")
