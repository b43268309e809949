"""Browser tests drive Debian's chromium (/usr/bin/chromium) with Playwright; no browser is downloaded.
They are skipped, with the reason, where chromium or playwright is missing (.ci/run installs chromium)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.labrun import JupyterProcess, no_windowing

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


LOCAL_SCHEMES = ("data:", "blob:", "about:")


def block_outside(target, allowed=("http://127.0.0.1:", "http://localhost:"), aborted: list | None = None) -> list:
    """Abort every request of ``target`` (a Playwright context or page) to an address that does not start with one of
    ``allowed`` (nor is a data, blob or about URL), noting its URL in ``aborted`` (returned). Only those requests are
    routed: a routed request that Playwright continues with ``route.continue_()`` is re-sent by it, and a large
    body (a notebook's PUT when JupyterLab saves it, half a megabyte) never reached the server, so the save
    hung at "Saving started"."""
    aborted = [] if aborted is None else aborted
    prefixes = tuple(allowed) + LOCAL_SCHEMES
    pattern = re.compile("^(?!(" + "|".join(re.escape(p) for p in prefixes) + "))")

    def abort(route):
        aborted.append(route.request.url)
        route.abort()

    target.route(pattern, abort)
    return aborted


@pytest.fixture(scope="module")
def browser():
    """Module-scoped: Playwright's sync API runs an event loop in the main thread while it is open, so it
    must be closed before other tests call asyncio.run()."""
    yield from _launch()


def _launch(env: dict | None = None):
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True,
                                     env=None if env is None else {**os.environ, **env})
        yield browser
        browser.close()


NO_KOREAN_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<!-- the machine's fonts, less every font that covers Korean (Nanum, Noto CJK, Un, Baekmuk, ... all declare ko) -->
<fontconfig>
  <include ignore_missing="yes">{base}</include>
  <selectfont>
    <rejectfont>
      <pattern><patelt name="lang"><string>ko</string></patelt></pattern>
      <glob>*Nanum*</glob>
      <glob>*/noto-cjk/*</glob>
      <glob>*/unfonts*/*</glob>
      <glob>*/baekmuk/*</glob>
    </rejectfont>
  </selectfont>
</fontconfig>
"""
"""A fontconfig file that hides every Korean font of the machine (``{base}``: the configuration it starts from)."""


def korean_fonts(fontconfig_file: str | Path | None = None) -> list[str]:
    """The fonts fontconfig (``fc-list :lang=ko``) lists as covering Korean under ``fontconfig_file``."""
    env = dict(os.environ)
    if fontconfig_file is not None:
        env["FONTCONFIG_FILE"] = str(fontconfig_file)
    done = subprocess.run(["fc-list", ":lang=ko", "file"], capture_output=True, text=True, env=env, timeout=60,
                          check=True)
    return sorted(line.strip() for line in done.stdout.splitlines() if line.strip())


@pytest.fixture(scope="session")
def no_korean_fontconfig(tmp_path_factory) -> Path:
    """A ``FONTCONFIG_FILE`` under which fontconfig knows no font that covers Korean (checked with fc-list)."""
    if shutil.which("fc-list") is None:
        pytest.skip("fontconfig's fc-list is not installed")
    path = tmp_path_factory.mktemp("fontconfig") / "fonts.conf"
    path.write_text(NO_KOREAN_FONTS.format(base="/etc/fonts/fonts.conf"), "utf-8")
    assert korean_fonts(path) == [], "the fontconfig that hides Korean fonts still lists some"
    return path


@pytest.fixture(scope="module")
def browser_without_korean_fonts(no_korean_fontconfig):
    """chromium that sees no Korean font of the machine: Hangul draws only with a web font."""
    yield from _launch({"FONTCONFIG_FILE": str(no_korean_fontconfig)})


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def installed_plain_lab(installed_toolkit, tmp_path_factory):
    """PLAIN ``jupyter lab`` of the wheel's venv (``installed_toolkit``), started as its user starts it (no toolkit
    command; toolkit's extensions enabled by the wheel's data files, nothing else configured), once for the browser
    tests of a regular install. Its root is the user's home ``lab.home``, where the README's kernel line has
    registered the ``toolkit`` kernel before the lab started; each test makes a folder of its own there. Test-only
    settings: every cell rendered (no windowing), no news."""
    inst = installed_toolkit
    work = tmp_path_factory.mktemp("installed-plain-lab")
    home = work / "home"
    home.mkdir()
    inst.run(inst.python, "-m", "ipykernel", "install", "--user", "--name", "toolkit", "--display-name",
             "Python (toolkit)", HOME=str(home))
    env = inst.env(HOME=str(home), JUPYTERLAB_SETTINGS_DIR=str(no_windowing(work / "user-settings")),
                   JUPYTER_RUNTIME_DIR=str(work / "runtime"), JUPYTERLAB_WORKSPACES_DIR=str(work / "workspaces"))
    with JupyterProcess([inst.venv / "bin" / "jupyter", "lab"], work, env=env, root=home,
                        args=["--LabApp.expose_app_in_browser=True"]) as lab:
        lab.home = home
        yield lab
