"""The lessons in the lab as a class meets them: 01's OAuth flow and 02's inbox flow are Mermaid diagrams that
JupyterLab draws with its own bundled Mermaid (every non-loopback request aborted, so nothing comes from the
internet), and after Run All an exercise's answer stays folded — code and output — until it is opened; an answer asked
for from a learner's own cell (``toolkit.lessons.answer``) comes in the same closed box.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import time

import pytest

from tests.browser.test_lab_walkthroughs import SHOTS, _open, _run_all, lab, lab_page  # noqa: F401  (fixtures)

pytest.importorskip("jupyterlab")

DIAGRAMS = """() => [...document.querySelectorAll('.jp-RenderedMermaid')]
  .map(e => { const img = e.querySelector('img[src^="data:image/svg+xml"]'), svg = e.querySelector('svg');
              const text = img ? decodeURIComponent(img.src) : (svg ? svg.outerHTML : '');
              return {svg: !!(img ? img.complete && img.naturalWidth > 0 : svg), text: text.slice(0, 400000),
                      error: text.includes('Syntax error')}; })"""

SCROLL_TO_DIAGRAM = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .find(w => w.model.type === 'markdown' && w.model.sharedModel.getSource().includes('```mermaid')).node.scrollIntoView()"""

FOLDED = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter(w => (w.model.getMetadata('tags') || []).includes('solution'))
  .map(w => ({input: w.inputHidden, output: w.outputHidden, ran: w.model.executionCount !== null,
              shown: w.node.innerText}))"""

ASK_IN_A_NEW_CELL = """source => { const nb = window.jupyterapp.shell.currentWidget.content;
  nb.activeCellIndex = nb.widgets.length - 1;
  window.jupyterapp.commands.execute('notebook:insert-cell-below');
  nb.activeCell.model.sharedModel.setSource(source);
  return window.jupyterapp.commands.execute('notebook:run-cell'); }"""


@pytest.mark.parametrize("name,words", [
    ("01_login_and_consent", ["Auth host", "PKCE", "state"]),
    ("02_webhooks_and_business", ["/account-status", "/unlink", "/share", "/channel", "ServiceAK", "tk.events.platform",
                                  "delivery log", "act on nothing", "count the share"]),
])
def test_the_flows_are_drawn_offline(lab_page, lab, name, words):
    SHOTS.mkdir(exist_ok=True)
    _open(lab_page, lab, name)
    lab_page.evaluate(SCROLL_TO_DIAGRAM)          # the lab draws a diagram when its cell comes into view
    lab_page.wait_for_function(f"() => ({DIAGRAMS})().some(d => d.svg)", timeout=60000)
    diagrams = lab_page.evaluate(DIAGRAMS)
    drawn = [d for d in diagrams if d["svg"]]
    assert len(drawn) == 1 and not drawn[0]["error"], diagrams
    texts = drawn[0]["text"]                      # the SVG JupyterLab's bundled Mermaid drew (an <img> of it)
    for word in words:
        assert word in texts, f"{name}: {word!r} not in the drawn diagram: {texts[:300]}"
    lab_page.locator(".jp-RenderedMermaid").first.screenshot(path=str(SHOTS / f"{name}_diagram.png"))
    assert not [u for u in lab_page.aborted if "mermaid" in u.lower()], lab_page.aborted


def test_answers_are_folded_on_the_stored_page(lab_page, lab):
    """As the lesson opens: every answer folded, code and output; its text not on the page."""
    name = "03b_channel_and_customer_files"
    _open(lab_page, lab, name)
    folded = lab_page.evaluate(FOLDED)
    assert folded and all(f["ran"] and f["input"] and f["output"] for f in folded), folded
    page_text = lab_page.evaluate("() => document.querySelector('.jp-NotebookPanel .jp-Notebook').innerText")
    assert "✓ 03b." not in page_text and "KRW together" not in page_text


def test_answers_stay_folded_after_run_all_until_opened(lab_page, lab):
    """Run All runs the answers too, and JupyterLab shows a cell's output again when the cell runs; so an answer's
    result lives in a closed box (``toolkit.lessons.Answer``: a ``<details>``) that stays closed until clicked."""
    name = "03b_channel_and_customer_files"
    _open(lab_page, lab, name)
    _run_all(lab_page, name, 180)
    folded = lab_page.evaluate(FOLDED)
    assert folded and all(f["ran"] and f["input"] for f in folded), folded      # the code stays folded
    boxes = lab_page.locator(".jp-OutputArea-output details.toolkit-answer")
    assert boxes.count() == len(folded)
    assert all(not boxes.nth(k).evaluate("e => e.open") for k in range(boxes.count()))
    page_text = lab_page.evaluate("() => document.querySelector('.jp-NotebookPanel .jp-Notebook').innerText")
    assert "✓ 03b." not in page_text and "KRW together" not in page_text, "an answer shows after Run All"
    assert "Answer to exercise 03b.2 (click to open)" in page_text
    box = boxes.nth(1)
    box.scroll_into_view_if_needed()
    lab_page.screenshot(path=str(SHOTS / f"{name}_answers_closed.png"))
    box.locator("summary").click()                                          # the learner opens one
    time.sleep(0.5)
    shown = box.inner_text()
    assert "KRW together" in shown and "✓ 03b.2 — right." in shown, shown
    box.screenshot(path=str(SHOTS / f"{name}_answer_opened.png"))
    # a learner asks for a predict exercise's answer from a cell of their own: the same closed box
    lab_page.evaluate(ASK_IN_A_NEW_CELL, 'toolkit.lessons.answer("03b.1")')
    asked = lab_page.locator(".jp-Notebook .jp-Cell").last.locator("details.toolkit-answer")
    asked.wait_for(timeout=60000)
    assert not asked.evaluate("e => e.open")
    assert "Answer to exercise 03b.1 (click to open)" in asked.inner_text()
    page_text = lab_page.evaluate("() => document.querySelector('.jp-NotebookPanel .jp-Notebook').innerText")
    assert "users not linked to the app are omitted" not in page_text, "the asked answer shows before a click"
    asked.locator("summary").click()
    time.sleep(0.5)
    shown = asked.inner_text()
    assert "(b): users not linked to the app are omitted" in shown and "✓ 03b.1 — right." in shown, shown
