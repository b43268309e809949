"""Copies made by an earlier release upgrade: the wheel of an earlier commit of the main line (:data:`EARLIER`, whose
manifest recorded bytes only) copies the walkthroughs; each copy is opened and saved in JupyterLab (the session's
``installed_plain_lab``, plain ``jupyter lab`` of this checkout's wheel), one of them really edited; then this
release's ``toolkit walkthroughs`` upgrades every copy but the edited one, names the edited cell, and keeps each
copy as it was in ``before-upgrade/`` (an older manifest cannot tell whose outputs a re-saved copy holds).

Before the wheel carried the cells of every shipped version (toolkit/walkthrough_history.py) the copies JupyterLab
had re-saved were skipped for good as "changed since toolkit copied it" (5 of 9).

The earlier wheel is built from ``git archive EARLIER`` (no network but PyPI's build requirements) and installed
with ``--no-deps`` into a venv that sees the installed venv's packages through a ``.pth`` file, so its ``toolkit``
command is the earlier release's and nothing else is installed twice. Both wheels carry the version of their
``pyproject.toml``; they live in separate venvs, so they need no distinct versions (the build sets
``SETUPTOOLS_SCM_PRETEND_VERSION`` for when the project takes its version from git)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import time
import venv
from pathlib import Path

import pytest

from tests.browser.conftest import block_outside
from tests.browser.test_copied_walkthroughs import KERNEL, SHOTS, _save

pytest.importorskip("jupyterlab")

REPO = Path(__file__).resolve().parents[2]
EARLIER = "0bad342cd625"
"""A main-line commit of an earlier release: the last before copies recorded their cells (its manifest has
SHA-256s only), so its copies upgrade only through the shipped history."""
EDITED = "02_webhooks_and_business"


def _earlier_wheel(work: Path) -> Path:
    src, dist = work / "src", work / "dist"
    src.mkdir(parents=True)
    archive = work / "earlier.tar"
    done = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), EARLIER],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"no git history with {EARLIER} here ({done.stderr.strip()[:200]})")
    with tarfile.open(archive) as tar:
        tar.extractall(src, filter="data")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["SETUPTOOLS_SCM_PRETEND_VERSION"] = "0.0.1.dev0"
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(src)],
                           capture_output=True, text=True, timeout=900, env=env, stdin=subprocess.DEVNULL)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return next(dist.glob("*.whl"))


def _overlay_venv(installed, work: Path, wheel: Path) -> Path:
    """A venv whose own site-packages hold only the earlier toolkit, the installed venv's packages behind it."""
    env_dir = work / "earlier-venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    theirs = subprocess.run([str(installed.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                            capture_output=True, text=True, check=True).stdout.strip()
    Path(own, "zz_installed_venv.pth").write_text(theirs + "\n", "utf-8")
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", "--no-compile",
                           "--disable-pip-version-check", str(wheel)], capture_output=True, text=True, timeout=600,
                          env={k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return env_dir / "bin" / "toolkit"


@pytest.mark.browser
@pytest.mark.package
@pytest.mark.timeout(2400)
def test_copies_of_an_earlier_release_opened_and_saved_in_jupyterlab_upgrade_but_the_edited_one(
        browser, installed_toolkit, installed_plain_lab, tmp_path):
    lab = installed_plain_lab
    started = time.monotonic()
    earlier = _overlay_venv(installed_toolkit, tmp_path, _earlier_wheel(tmp_path))
    setup = time.monotonic() - started
    folder = lab.home / "from-an-earlier-release"
    copied = installed_toolkit.run(earlier, "walkthroughs", folder, HOME=str(lab.home)).stdout
    assert "copied" in copied and "skipped" in copied, copied
    manifest = (folder / ".toolkit-walkthroughs.json").read_text("utf-8")
    assert '"cells"' not in manifest                         # the earlier release's manifest: bytes only
    names = sorted(p.stem for p in folder.glob("*.ipynb"))
    assert len(names) >= 9
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, service_workers="block")
    block_outside(context)
    page = context.new_page()
    page.set_default_timeout(60000)
    SHOTS.mkdir(exist_ok=True)
    rewritten = []
    try:
        for name in names:
            path = folder / f"{name}.ipynb"
            before = path.read_bytes()
            page.goto(f"{lab.url}/lab/workspaces/u{name[:3]}/tree/{folder.name}/{name}.ipynb?reset&token={lab.token}")
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                                   "&& window.jupyterapp.shell.currentWidget.sessionContext", timeout=90000)
            page.wait_for_function(f"({KERNEL})() && ({KERNEL})()[1] === 'idle'", timeout=120000)
            if name == EDITED:
                page.evaluate("() => { const m = window.jupyterapp.shell.currentWidget.content.model.cells.get(2);"
                              " m.sharedModel.setSource(m.sharedModel.getSource() + '\\n# my own note'); }")
            _save(page, path)
            rewritten += [name] if path.read_bytes() != before else []
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    finally:
        context.close()
    assert len(rewritten) == len(names)                     # JupyterLab rewrote every file it saved
    out = installed_toolkit.run(installed_toolkit.toolkit, "walkthroughs", folder, HOME=str(lab.home)).stdout
    skipped = re.findall(r"skipped (\S+): (.*)", out)
    assert [s[0] for s in skipped] == [f"{EDITED}.ipynb"], out
    assert skipped[0][1].startswith("its cells changed since toolkit copied it: cell 3 edited"), out
    assert "# my own note" in (folder / f"{EDITED}.ipynb").read_text("utf-8")
    updated = int(re.search(r"(\d+) updated", out).group(1))
    assert updated >= len(names) - 1, out
    kept = re.findall(r"updated (\S+\.ipynb): your copy before the upgrade, with its outputs, is (\S+)", out)
    assert len(kept) == len(names) - 1 and all((folder / where).is_file() for _, where in kept), out
    print(f"{len(names)} copies of {EARLIER} opened and saved in JupyterLab, one edited: {updated} updated, "
          f"1 skipped; the earlier wheel built and installed in {setup:.0f} s")
