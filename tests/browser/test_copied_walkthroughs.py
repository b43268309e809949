"""The whole copy path as a user of the wheel goes it: toolkit installed from the wheel with ``[lab]`` into a fresh
venv (tests/installed.py), the README's kernel line, ``toolkit walkthroughs ~/lessons``, a plain ``jupyter lab`` of
that venv on the home (the session's ``installed_plain_lab``), Debian's chromium:

* each copied walkthrough opens in the ``toolkit`` kernel with no dialog (the copies name it);
* in the learner's copy no solution shows an output: its "•••" (JupyterLab's collapsed-output placeholder) is
  clicked where one is shown, and the cell has no output (JupyterLab shows no "•••" for a collapsed cell with no
  output);
* "File › Save Notebook" without an edit (JupyterLab rewrites the file) leaves ``toolkit walkthroughs`` reporting
  0 skipped; a walkthrough with an edited cell, saved, is skipped and kept.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.browser.conftest import block_outside

pytest.importorskip("jupyterlab")

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).parent / "screenshots"
NAMES = sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb") if re.fullmatch(r"\d\d[a-z]?_\w+", p.stem))
KERNEL = "() => { const s = window.jupyterapp.shell.currentWidget.sessionContext; " \
         "return s.session && s.session.kernel ? [s.session.kernel.name, s.session.kernel.status] : null; }"


@pytest.fixture(scope="module")
def copied(installed_toolkit, installed_plain_lab):
    """``toolkit walkthroughs ~/lessons`` in the home of the plain lab of the installed venv (where the README's
    kernel line has registered ``toolkit``)."""
    lab = installed_plain_lab
    env = {"HOME": str(lab.home)}
    folder = lab.home / "lessons"
    out = installed_toolkit.run(installed_toolkit.toolkit, "walkthroughs", folder, **env).stdout
    assert "learner's edition, kernel 'toolkit'" in out and " 0 skipped" in out, out
    return installed_toolkit, env, folder, lab


def _open(page, lab, name: str) -> None:
    page.goto(f"{lab.url}/lab/workspaces/c{name[:3]}/tree/lessons/{name}.ipynb?reset&token={lab.token}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=90000)
    page.wait_for_function(f"({KERNEL})() && ({KERNEL})()[1] === 'idle'", timeout=120000)


def _save(page, path: Path) -> None:
    """File › Save Notebook through the menu, as a person saves; returns once the file on disk changed."""
    before = path.stat().st_mtime_ns
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save Notebook")).first.click()
    deadline = time.monotonic() + 20
    while path.stat().st_mtime_ns == before and time.monotonic() < deadline:
        time.sleep(0.3)
    if path.stat().st_mtime_ns == before:
        page.screenshot(path=str(SHOTS / f"copied_not_saved_{path.stem}.png"))
        raise AssertionError(f"{path.name} was not saved")


def _solutions_show_nothing(page, name: str) -> tuple[int, int]:
    """Each solution's collapsed output: its "•••" clicked where JupyterLab shows one; either way the cell then
    shows no output at all. Returns (solutions, placeholders clicked)."""
    cells = page.locator(".jp-Notebook .jp-Cell").all()
    tags = page.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
        .map(w => (w.model.getMetadata('tags') || []).includes('solution'))""")
    solutions = clicked = 0
    for cell, solution in zip(cells, tags):
        if not solution:
            continue
        solutions += 1
        cell.scroll_into_view_if_needed()
        placeholder = cell.locator(".jp-OutputPlaceholder")
        if placeholder.count() and placeholder.first.is_visible():
            placeholder.first.click()
            clicked += 1
            time.sleep(0.2)
        shown = cell.locator(".jp-OutputArea-output")
        assert shown.count() == 0, f"{name}: a solution shows {shown.first.inner_text()[:200]!r}"
        assert "toolkit-answer" not in cell.inner_html(), f"{name}: a solution's answer box is in the page"
    return solutions, clicked


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(1800)
def test_copied_walkthroughs_open_in_the_right_kernel_save_unchanged_and_hide_the_answers(browser, copied):
    installed, env, folder, lab = copied
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, service_workers="block")
    block_outside(context)
    page = context.new_page()
    page.set_default_timeout(60000)
    SHOTS.mkdir(exist_ok=True)
    rewritten, solutions, clicked = [], 0, 0
    try:
        for name in NAMES:
            path = folder / f"{name}.ipynb"
            written = path.read_bytes()
            _open(page, lab, name)
            assert page.evaluate(KERNEL)[0] == "toolkit", name
            assert page.locator(".jp-Dialog").count() == 0, f"{name}: a dialog opened (kernel selection?)"
            found = _solutions_show_nothing(page, name)
            solutions, clicked = solutions + found[0], clicked + found[1]
            _save(page, path)
            if path.read_bytes() != written:
                rewritten.append(name)
            page.screenshot(path=str(SHOTS / f"copied_{name}.png"))
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        out = installed.run(installed.toolkit, "walkthroughs", folder, **env).stdout
        assert " 0 skipped" in out, out
        # an edit: a cell's source changed in the browser, then saved
        name = "02_webhooks_and_business"
        _open(page, lab, name)
        page.evaluate("() => { const m = window.jupyterapp.shell.currentWidget.content.model.cells.get(2);"
                      " m.sharedModel.setSource(m.sharedModel.getSource() + '\\n# my note'); }")
        _save(page, folder / f"{name}.ipynb")
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        out = installed.run(installed.toolkit, "walkthroughs", folder, **env).stdout
        assert " 1 skipped" in out and f"skipped {name}.ipynb: its cells changed" in out, out
        assert "# my note" in (folder / f"{name}.ipynb").read_text("utf-8")
    finally:
        context.close()
    assert solutions >= 30
    print(f"{len(NAMES)} copied walkthroughs opened in the toolkit kernel and saved ({len(rewritten)} rewritten by "
          f"JupyterLab: {rewritten}); {solutions} solutions show no output ({clicked} had a '•••' to click)")
