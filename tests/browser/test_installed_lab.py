"""The lab of a regular install, in a real browser: the wheel installed with ``[lab]`` into a fresh venv
(tests/installed.py), ``toolkit lab`` started from an empty folder with a home of its own (so it opens its seeded
working folder, ``~/toolkit-walkthroughs``), a walkthrough with maps opened in Debian's chromium:

* its stored maps draw as soon as it opens, before any Run All, from their data (toolkit's lab extension), each with
  at least 4 tiles from the lab's own ``/toolkit/tiles/`` and no request to another loopback port; an untrusted
  copy's maps draw the same way;
* Run All ends with no error, and its maps draw again, their tiles from the same route.

Screenshots go to tests/browser/screenshots/ (gitignored)."""
from __future__ import annotations

import time

import pytest

from tests.browser.test_lab_walkthroughs import (MAPS, SHOTS, _check_maps, _open, _problems, _run_all)
from tests.browser.test_reopened_maps import other_loopback, record_requests, stored_maps_draw
from tests.labrun import LabProcess, no_windowing

NAME = "04a_local_search"

STORED_MAPS = """() => [...document.querySelectorAll('.jp-OutputArea-output .toolkit-map')]
  .map(m => ({layers: m.querySelectorAll('.leaflet-overlay-pane path, .leaflet-marker-pane > *').length}))"""
FOLIUM_FRAMES = "() => document.querySelectorAll('.jp-OutputArea-output iframe').length"


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
            if len(stored) >= MAPS["04a"] and all(m["layers"] > 0 for m in stored):
                break
            time.sleep(1)
        page.screenshot(path=str(SHOTS / f"installed_{NAME}_opened.png"))
        assert page.evaluate(FOLIUM_FRAMES) == 0, "folium's HTML drew instead of the map's data"
        assert len(stored) == MAPS["04a"] and all(m["layers"] > 0 for m in stored), stored
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
        # a copy the lab did not trust (not as toolkit ships it) draws its maps all the same, from their data
        copy = lab.folder / f"{NAME}_my_copy.ipynb"
        copy.write_text((lab.folder / f"{NAME}.ipynb").read_text("utf-8").replace("04a ·", "04a (mine) ·", 1),
                        "utf-8")
        _open(page, lab, copy.stem)
        trusted = page.evaluate("() => { const c = window.jupyterapp.shell.currentWidget.content.model.cells;"
                                " const out = []; for (let i = 0; i < c.length; i++) if (c.get(i).type === 'code'"
                                " && c.get(i).outputs.length) out.push(c.get(i).trusted); return out; }")
        assert trusted and not any(trusted), "the copy is trusted: the check below proves nothing"
        stored_maps_draw(page, lab.url + "/", f"installed_{NAME}_untrusted", MAPS["04a"])
    finally:
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        context.close()
