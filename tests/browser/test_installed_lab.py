"""The lab of a regular install, in a real browser: the wheel installed with ``[lab]`` into a fresh venv
(tests/installed.py), ``toolkit lab`` started from an empty folder with a home of its own (so it opens its seeded
working folder, ``~/toolkit-walkthroughs``), a walkthrough with maps opened in Debian's chromium:

* its stored maps draw as soon as it opens, before any Run All (the walkthroughs are trusted on arrival), each with
  at least 4 tiles from the lab's own ``/toolkit/tiles/`` and no request to another loopback port;
* Run All ends with no error, and its maps draw again, their tiles from the same route.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import time

import pytest

from tests.browser.test_lab_walkthroughs import (MAPS, SHOTS, _check_maps, _open, _problems, _run_all)
from tests.browser.test_reopened_maps import other_loopback, record_requests, stored_maps_draw
from tests.labrun import LabProcess, no_windowing

NAME = "04a_local_search"

STORED_MAPS = """() => [...document.querySelectorAll('.jp-OutputArea-output iframe')]
  .filter(f => (f.getAttribute('srcdoc') || '').toLowerCase().includes('leaflet'))
  .map(f => { const w = f.contentWindow; const d = f.contentDocument;
    return {leaflet: !!(w && w.L && w.L.map),
            layers: d ? d.querySelectorAll('.leaflet-overlay-pane path, .leaflet-marker-pane > *').length : 0}; })"""
UNTRUSTED = """() => [...document.querySelectorAll('.jp-OutputArea-output')]
  .some(o => o.innerText.includes('Make this Notebook Trusted') && !o.querySelector('iframe'))"""
"""folium's request to trust the notebook is in every map's output, under the map's iframe; an untrusted notebook's
output has the request and no iframe (the sanitizer removed it)."""


@pytest.fixture(scope="module")
def installed_lab(installed_toolkit, tmp_path_factory):
    work = tmp_path_factory.mktemp("installed-lab")
    env = installed_toolkit.env(HOME=str(work / "home"),
                                JUPYTERLAB_SETTINGS_DIR=str(no_windowing(work / "user-settings")))
    (work / "home").mkdir()
    lab = LabProcess(None, work, command=[str(installed_toolkit.toolkit)], extra_env=env,
                     lab_args=["--LabApp.expose_app_in_browser=True"])
    lab.start()
    lab.folder = work / "home" / "toolkit-walkthroughs"
    yield lab
    lab.stop()


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(900)
def test_a_walkthrough_of_the_installed_lab_shows_its_maps_on_opening_and_runs(browser, installed_lab):
    lab = installed_lab
    assert (lab.folder / f"{NAME}.ipynb").is_file(), lab.output()[-2000:]
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")
    requests = record_requests(context)
    page = context.new_page()
    page.set_default_timeout(60000)
    SHOTS.mkdir(exist_ok=True)
    try:
        started = time.monotonic()
        _open(page, lab, NAME)
        deadline = time.monotonic() + 60
        stored = []
        while time.monotonic() < deadline:
            stored = page.evaluate(STORED_MAPS)
            if len(stored) >= MAPS["04a"] and all(m["leaflet"] and m["layers"] > 0 for m in stored):
                break
            time.sleep(1)
        page.screenshot(path=str(SHOTS / f"installed_{NAME}_opened.png"))
        assert not page.evaluate(UNTRUSTED), "a stored map asks for the notebook to be trusted"
        assert len(stored) == MAPS["04a"] and all(m["leaflet"] and m["layers"] > 0 for m in stored), stored
        # the stored maps' base map comes from this lab's own /toolkit/tiles/ (no sandbox runs yet): >= 4 tiles each,
        # and no request went to another loopback port (a port of the run that saved the notebook)
        stored_maps_draw(page, lab.url + "/", f"installed_{NAME}", MAPS["04a"])
        assert other_loopback(requests, lab.port) == [], other_loopback(requests, lab.port)[:5]
        state = _run_all(page, NAME, 300)
        page.screenshot(path=str(SHOTS / f"installed_{NAME}.png"))
        assert not _problems(state), _problems(state)
        maps = _check_maps(page, lab, f"installed_{NAME}")
        assert len(maps) == MAPS["04a"]
        print(f"installed lab: {NAME} opened with {len(stored)} stored maps drawn, ran in "
              f"{time.monotonic() - started:.0f} s, {len(maps)} maps on the lab's /toolkit/tiles/")
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        # the control: a copy the lab did not trust (not as toolkit ships it) shows folium's request instead
        copy = lab.folder / f"{NAME}_my_copy.ipynb"
        copy.write_text((lab.folder / f"{NAME}.ipynb").read_text("utf-8").replace("04a ·", "04a (mine) ·", 1),
                        "utf-8")
        _open(page, lab, copy.stem)
        deadline = time.monotonic() + 30
        while not page.evaluate(UNTRUSTED) and time.monotonic() < deadline:
            time.sleep(1)
        assert page.evaluate(UNTRUSTED), "an untrusted copy's maps drew: the check above proves nothing"
    finally:
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        context.close()
