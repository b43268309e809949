"""Saved widgets in JupyterLab with no kernel: a notebook that ran LoginWidget, ConsentPanel and a geocode with a
progress bar (executed by nbclient, which stores the widget views and the widgets' state), opened in a plain
``jupyter lab`` whose kernel cannot start, in Debian's chromium.

What JupyterLab 4 + ipywidgets 8 does with a stored widget view (the control, checked here): with no kernel at
all, "Loading widget..." for good, with or without the notebook's saved widget state; once a new kernel runs (a
later session), the saved state's controls marked disconnected, or without that state "Error displaying widget:
model not found". What toolkit hands over instead:

* the progress bar's output is the line it ended on (``geocode: 3/3 in … s``) in every case (it replaced its own
  display when it closed);
* the copy's edition (:func:`toolkit.walkthroughs.edition`, what ``toolkit walkthroughs`` and ``toolkit lab``
  write) shows the widgets' static view: "run this cell to log in", the consent items as text; no control, no
  disconnected mark, no error.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.plainlab import PlainLab

pytest.importorskip("jupyterlab")
pytest.importorskip("ipywidgets")

SHOTS = Path(__file__).parent / "screenshots"
SOURCE = [
    "import toolkit\n"
    "from toolkit.widgets import ConsentPanel, LoginWidget\n"
    "tk = toolkit.connect(fresh=True)\n"
    "tk.login_as(4100000001, scopes=['profile', 'account_email'])\n"
    "display(LoginWidget(tk, scopes=['profile']), ConsentPanel(tk))",
    "geo = tk.local.geocode(['전포동 341-17', '중앙대로 692', '해운대로 626'])",
]
BROKEN = ("Error displaying widget", "Loading widget...")
"""What JupyterLab shows for a stored widget view it cannot draw."""
SEEN = """() => {
  const outs = [...document.querySelectorAll('.jp-OutputArea-output')];
  return {text: outs.map(o => o.innerText).join('\\n'),
          disconnected: document.querySelectorAll('.jupyter-widgets-disconnected').length,
          controls: document.querySelectorAll('.jp-OutputArea-output .widget-button, '
                                              + '.jp-OutputArea-output .widget-text').length,
          outputs: outs.length};
}"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """The executed notebook three ways: as saved (widget views and state), without the state, and the copy's
    edition; all trusted in the lab's data folder. Returns (work folder, notebook folder)."""
    import nbformat
    from nbclient import NotebookClient
    from nbformat.sign import NotebookNotary

    from toolkit import walkthroughs

    work = tmp_path_factory.mktemp("saved-widgets")
    root = work / "notebooks"
    root.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in SOURCE])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(root)}}).execute()
    assert "widgets" in nb.metadata                       # nbclient saved the widgets' state
    no_kernel = {"name": "no-such-kernel", "display_name": "a kernel that is not there", "language": "python"}
    as_saved = json.loads(nbformat.writes(nb))
    as_saved["metadata"]["kernelspec"] = no_kernel
    stateless = json.loads(json.dumps(as_saved))
    del stateless["metadata"]["widgets"]
    versions = {"as_saved": as_saved, "stateless": stateless,
                "copied": walkthroughs.edition(as_saved, "learner", no_kernel)}
    (work / "jupyter-data").mkdir()
    notary = NotebookNotary(data_dir=str(work / "jupyter-data"))
    try:
        for name, content in versions.items():
            signed = nbformat.from_dict(content)
            notary.sign(signed)
            nbformat.write(signed, root / f"{name}.ipynb")
    finally:
        notary.close()
    return work, root


@pytest.fixture(scope="module")
def lab(saved):
    work, root = saved
    # a lab whose kernel cannot start: no kernelspec is allowed (JupyterLab then shows "No Kernel")
    with PlainLab(root, work, args=["--KernelSpecManager.allowed_kernelspecs=none-here"]) as lab:
        yield lab


def _look(browser, lab, name: str) -> dict:
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(60000)
    try:
        page.goto(f"{lab.url}/lab/workspaces/w{name}/tree/{name}.ipynb?reset&token={lab.token}")
        page.wait_for_function("() => document.querySelectorAll('.jp-OutputArea-output').length >= 3",
                               timeout=90000)
        deadline, seen = time.monotonic() + 30, None
        while time.monotonic() < deadline:       # the widget manager settles: no "Loading widget..." left
            time.sleep(1)
            seen = page.evaluate(SEEN)
            if "Loading widget" not in seen["text"]:
                break
        time.sleep(2)
        page.keyboard.press("Escape")             # the kernel dialog: no kernel
        seen = page.evaluate(SEEN)
        seen["kernel"] = page.evaluate("() => { const s = window.jupyterapp.shell.currentWidget.sessionContext;"
                                       " return s.session && s.session.kernel ? s.session.kernel.name : null; }")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"saved_widgets_{name}.png"))
        return seen
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_saved_widgets_show_their_static_view_without_a_kernel(browser, lab):
    found = {name: _look(browser, lab, name) for name in ("as_saved", "stateless", "copied")}
    for name, seen in found.items():
        assert seen["kernel"] is None, (name, seen["kernel"])        # no kernel ran
        assert "geocode: 3/3 in" in seen["text"], (name, seen["text"][:600])
        assert "0/3" not in seen["text"], name
    # the control: JupyterLab's own way with a stored widget view when no kernel runs
    for name in ("as_saved", "stateless"):
        seen = found[name]
        assert "run this cell" not in seen["text"], name
        assert seen["disconnected"] or any(m in seen["text"] for m in BROKEN), (name, seen)
    copied = found["copied"]
    assert "run this cell to log in" in copied["text"] and "account_email E-mail: ✔ / yes" in copied["text"], copied
    assert copied["disconnected"] == 0 and copied["controls"] == 0 and "Error displaying widget" not in copied["text"]
    print({name: {**{k: v for k, v in seen.items() if k != "text"},
                  "shows": [m for m in BROKEN if m in seen["text"]]} for name, seen in found.items()})
