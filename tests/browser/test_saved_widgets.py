"""Saved widgets in JupyterLab with no kernel: a notebook that ran LoginWidget, ConsentPanel and a geocode with a
progress bar (executed by nbclient, which stores the widget views and the widgets' state), opened in a plain
``jupyter lab`` whose kernel cannot start, in Debian's chromium.

What JupyterLab 4 + ipywidgets 8 does by itself with a stored widget view: with no kernel at all, "Loading
widget..." for good, with or without the notebook's saved widget state; once a new kernel runs (a later session),
the saved state's controls marked disconnected, or without that state "Error displaying widget: model not found".
What toolkit hands over instead, in a lab that loads toolkit's lab extension (as every JupyterLab where toolkit is
installed does; here the checkout's built extension):

* the progress bar's output is the line it ended on (``geocode: 3/3 in … s``) in every case (it replaced its own
  display when it closed);
* the notebook as the user saved it (widget views, with and without the widgets' state): the lab extension hides
  the widget view that draws no live widget and shows the static view of the output's ``text/html`` in its place
  ("run this cell to log in", the consent items as text); the hidden view still holds ipywidgets' placeholder,
  which shows that the lab extension, not the lack of a widget view, made the difference;
* the copy's edition (:func:`toolkit.walkthroughs.edition`, what ``toolkit walkthroughs`` and ``toolkit lab``
  write) has no widget view: the static view is the output itself.

In every case: no visible control, no visible disconnected mark, no "Loading widget..." or error.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.labrun import JupyterProcess, clean_env

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
  const visible = e => e.getClientRects().length > 0;   // (innerText of a hidden element is its whole text)
  const outs = [...document.querySelectorAll('.jp-OutputArea-output')].filter(visible);
  const shown = sel => [...document.querySelectorAll(sel)].filter(visible).length;
  return {text: outs.map(o => o.innerText).join('\\n'),
          disconnected: shown('.jupyter-widgets-disconnected'),
          controls: shown('.jp-OutputArea-output .widget-button, .jp-OutputArea-output .widget-text'),
          static_views: shown('.toolkit-static-view'),
          replaced: [...document.querySelectorAll('.toolkit-widget-replaced')].map(e => e.textContent),
          outputs: outs.length};
}"""
"""What the page shows: visible text of the outputs, visible disconnected marks and controls, the static views the
lab extension drew and the text of the widget views it hid."""


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
    # the same two for a lab with a kernel (a later session): the notebook names the kernel that ran it
    live = work / "live"
    live.mkdir()
    with_kernel = {}
    for name in ("as_saved", "stateless"):
        with_kernel[name] = json.loads(json.dumps(versions[name]))
        with_kernel[name]["metadata"]["kernelspec"] = nb.metadata.kernelspec
    (work / "jupyter-data").mkdir()
    notary = NotebookNotary(data_dir=str(work / "jupyter-data"))
    try:
        for folder, contents in ((root, versions), (live, with_kernel)):
            for name, content in contents.items():
                signed = nbformat.from_dict(content)
                notary.sign(signed)
                nbformat.write(signed, folder / f"{name}.ipynb")
    finally:
        notary.close()
    return work, root


def _lab(work: Path, root: Path, data: Path, args=()) -> JupyterProcess:
    """A plain ``jupyter lab`` of this Python on ``root`` with the checkout's lab extension (where a wheel install puts
    it in place) and Jupyter's data folder ``data`` (the trust database of the saved notebooks)."""
    from toolkit.cli import lab_extensions

    extension_args, extension_env = lab_extensions(work)
    env = {**clean_env(work), "JUPYTER_DATA_DIR": str(data), **extension_env}
    return JupyterProcess.lab(sys.executable, root, work, env=env, args=[*args, *extension_args])


@pytest.fixture
def lab(saved):
    """A lab whose kernel cannot start: no kernelspec is allowed (JupyterLab then shows "No Kernel")."""
    work, root = saved
    with _lab(work / "no-kernel-lab", root, work / "jupyter-data",
              ["--KernelSpecManager.allowed_kernelspecs=none-here"]) as lab:
        yield lab


@pytest.fixture
def live_lab(saved):
    """A lab whose ``python3`` kernel runs this toolkit, on the notebooks that name it."""
    work, root = saved
    with _lab(work / "live-lab", root.parent / "live", work / "jupyter-data") as lab:
        yield lab


@contextmanager
def _notebook_page(browser, lab, workspace: str, name: str):
    """A fresh page (its own browser context) with the notebook ``name`` open in ``lab`` and its outputs shown."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(60000)
    try:
        page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{name}.ipynb?reset&token={lab.token}")
        page.wait_for_function("() => document.querySelectorAll('.jp-OutputArea-output').length >= 3",
                               timeout=90000)
        yield page
    finally:
        context.close()


def _look(browser, lab, name: str) -> dict:
    with _notebook_page(browser, lab, f"w{name}", name) as page:
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


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_saved_widgets_show_their_static_view_without_a_kernel(browser, lab):
    found = {name: _look(browser, lab, name) for name in ("as_saved", "stateless", "copied")}
    for name, seen in found.items():
        assert seen["kernel"] is None, (name, seen["kernel"])        # no kernel ran
        assert "geocode: 3/3 in" in seen["text"], (name, seen["text"][:600])
        assert "0/3" not in seen["text"], name
    for name, seen in found.items():
        assert "run this cell to log in" in seen["text"], (name, seen["text"][:600])
        assert "account_email E-mail: ✔ / yes" in seen["text"], (name, seen["text"][:600])
        assert not any(m in seen["text"] for m in BROKEN), (name, seen["text"][:600])
        assert seen["disconnected"] == 0 and seen["controls"] == 0, (name, seen)
    # the user's own notebook: the widget views are there, drawing no live widget, hidden behind the static view
    for name in ("as_saved", "stateless"):
        seen = found[name]
        assert seen["static_views"] == 2, (name, seen)
        assert len(seen["replaced"]) == 2 and all(t.startswith(BROKEN) for t in seen["replaced"]), (name, seen)
    # the copy has no widget view left: nothing to replace
    assert found["copied"]["static_views"] == 0 and found["copied"]["replaced"] == [], found["copied"]
    print({name: {k: v for k, v in seen.items() if k != "text"} for name, seen in found.items()})


KERNEL = """() => { const s = window.jupyterapp.shell.currentWidget.sessionContext;
  return s.session && s.session.kernel ? [s.session.kernel.name, s.session.kernel.status] : null; }"""


@pytest.mark.browser
@pytest.mark.timeout(900)
def test_saved_widgets_in_a_later_session_show_the_static_view_until_run_then_the_live_widget(browser, live_lab):
    """A later session (a new kernel): the saved widget views cannot draw (no model, or the saved state's
    disconnected controls), so the static view shows; running the cell draws the live widget, and the static view
    goes."""
    lab, found = live_lab, {}
    for name in ("as_saved", "stateless"):
        with _notebook_page(browser, lab, f"l{name}", name) as page:
            page.wait_for_function(f"() => {{ const k = ({KERNEL})(); return k && k[1] === 'idle'; }}",
                                   timeout=120000)
            time.sleep(4)                         # the widget manager gives up on the saved views
            before = page.evaluate(SEEN)
            before["kernel"] = page.evaluate(KERNEL)
            page.screenshot(path=str(SHOTS / f"saved_widgets_later_{name}.png"))
            page.locator(".jp-Cell").first.click()
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-cell')")
            page.wait_for_function("() => [...document.querySelectorAll('.jp-OutputArea-output .widget-button')]"
                                   ".some(e => e.getClientRects().length > 0)", timeout=180000)
            time.sleep(2)
            after = page.evaluate(SEEN)
            page.screenshot(path=str(SHOTS / f"saved_widgets_run_{name}.png"))
            found[name] = (before, after)
    for name, (before, after) in found.items():
        assert before["kernel"] and before["kernel"][0] == "python3", (name, before["kernel"])
        assert "run this cell to log in" in before["text"], (name, before["text"][:600])
        assert not any(m in before["text"] for m in BROKEN), (name, before["text"][:600])
        assert before["disconnected"] == 0 and before["controls"] == 0, (name, before)
        assert before["static_views"] == 2 and len(before["replaced"]) == 2, (name, before)
        # run: the live widget, no static view
        assert after["controls"] > 0 and after["static_views"] == 0 and after["replaced"] == [], (name, after)
        assert "run this cell to log in" not in after["text"] and "Start login" in after["text"], (name, after)
    # without the saved state, ipywidgets says the model is missing; with it, the saved controls are disconnected
    assert all(t.startswith("Error displaying widget") for t in found["stateless"][0]["replaced"]), found
    assert "Start login" in found["as_saved"][0]["replaced"][0], found
    print({name: [{k: v for k, v in seen.items() if k != "text"} for seen in pair] for name, pair in found.items()})
