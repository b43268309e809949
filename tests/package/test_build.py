"""The build as a maintainer sees it: ``python -m build`` prints no warning; the wheel carries the project's
licence, the shipped data's sources and terms (PEP 639 ``License-File``, and ``toolkit.data.notice()`` after
install); the sdist holds every file of the repository (tests with their conftest, helpers, data and sanitize
file, the walkthroughs, the documents), and a quick part of the suite runs from the unpacked sdist.

Uses the session's build and install (``installed_toolkit``, tests/installed.py)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from tests.installed import REPO

pytestmark = [pytest.mark.package, pytest.mark.timeout(1800)]

WARNING = re.compile(r"(?:\b\w*Warning: |\bwarning: |^\s*warning\b|^\s*!!\s*$)", re.I)
"""A line of a warning: Python's (``SetuptoolsDeprecationWarning: …``, ``_Warning: Package … is absent``),
distutils' (``warning: no previously-included files …``), build's (``WARNING Package … is absent``) and the
``!!`` frames setuptools draws around them."""

LICENCES = ["LICENSE", "toolkit/data/NOTICE.md", "toolkit/mapassets/LICENSE.leaflet",
            "toolkit/mapassets/LICENSE.markercluster"]
QUICK = ["tests/test_import_rules.py", "tests/test_core_units.py", "tests/test_spec_coverage.py",
         "tests/test_cli_help.py"]
"""The part of the suite run from the unpacked sdist: the source's rules, the core, the sandbox through the
suite's conftest (its fixtures), the command line run as a subprocess."""


ENVIRONMENT = ("byte-compiling is disabled",)
"""Warnings of the environment running the build, not of the project (``PYTHONDONTWRITEBYTECODE``)."""


def test_the_build_prints_no_warning(installed_toolkit):
    lines = installed_toolkit.build_output.splitlines()
    warnings = [line for line in lines if WARNING.search(line) and not any(e in line for e in ENVIRONMENT)]
    print(f"python -m build: {len(lines)} lines of output, {len(warnings)} warning lines")
    assert len(lines) > 20 and any("Successfully built" in line for line in lines), lines[-20:]
    assert not warnings, "\n".join(warnings[:40])


def test_the_wheel_carries_the_licences_and_the_terms_of_its_data(installed_toolkit):
    inst = installed_toolkit
    with zipfile.ZipFile(inst.wheel) as wheel:
        names = wheel.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(f"{info}/METADATA").decode("utf-8")
        notice = wheel.read("toolkit/data/NOTICE.md").decode("utf-8")
    licences = sorted(n.split("/licenses/", 1)[1] for n in names if n.startswith(f"{info}/licenses/"))
    print(f"{info}/licenses/: {', '.join(licences)}")
    assert licences == LICENCES
    assert "License-Expression: MIT" in metadata
    assert sorted(re.findall(r"^License-File: (.+)$", metadata, flags=re.M)) == LICENCES
    assert "datasets/README.md\" for sources" not in notice and "Store data: 소상공인시장진흥공단" in notice
    # after install, from an empty folder: the terms through toolkit.data, the licence files in the dist-info
    code = ("import importlib.metadata as m, toolkit.data as d; print(d.notice_path()); "
            "print(sorted(str(f) for f in m.distribution('social-api-toolkit').files if '/licenses/' in str(f)))")
    where, files = inst.run(inst.python, "-c", code).stdout.strip().splitlines()
    assert where.startswith(str(inst.venv)) and where.endswith("toolkit/data/NOTICE.md"), where
    assert [f.split("/licenses/", 1)[1] for f in eval(files)] == LICENCES  # noqa: S307 — a list we printed
    text = inst.run(inst.python, "-c", "import toolkit.data; print(toolkit.data.notice())").stdout
    assert text.strip() == notice.strip()
    tracked = _tracked()
    if tracked is not None:           # every file of the package in the repository is in the wheel
        # the prebuilt lab extension is shipped once, as the data files Jupyter reads, not inside the package
        labext = "toolkit/jupyter/labextension/"
        shipped = {n.split("/data/", 1)[1] for n in names if n.startswith(f"{info.removesuffix('.dist-info')}.data/")}
        missing = sorted(n for n in tracked if n.startswith("toolkit/") and n not in names and not (
            n.startswith(labext) and f"share/jupyter/labextensions/toolkit-jupyter/{n[len(labext):]}" in shipped))
        assert not missing, missing
        assert not [n for n in names if n.startswith(labext)], "the lab extension is in the wheel twice"


def _tracked() -> set[str] | None:
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        return None
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return {name for name in out.split("\0") if name and (REPO / name).is_file()}


def test_the_sdist_holds_the_repository_and_a_quick_part_of_the_suite_runs_from_it(installed_toolkit, tmp_path):
    with tarfile.open(installed_toolkit.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if m.isfile() and "/" in m.name}
        sdist.extractall(tmp_path, filter="data")
    root = tmp_path / top
    assert not [m for m in members if re.search(r"(^|/)(__pycache__|\.ipynb_checkpoints|node_modules)/", m)]
    assert {"conftest.py", "tests/conftest.py", "tests/nbval_sanitize.cfg", "tests/installed.py", "tests/labrun.py",
            "tests/data/spec_endpoints.json", "tests/browser/conftest.py", "notebooks/00_quickstart.ipynb",
            "LICENSE", "toolkit/data/NOTICE.md", ".ci/run"} <= members
    tracked = _tracked()
    if tracked is not None:           # run from a checkout: every file of the repository is in the sdist
        missing = sorted(tracked - members - {".gitignore"})
        assert not missing, missing
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLKIT_", "PYTEST", "PYTHONPATH"))}
    here = subprocess.run([sys.executable, "-c", "import toolkit; print(toolkit.__file__)"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60)
    assert here.stdout.strip() == str(root / "toolkit" / "__init__.py"), here   # the sdist's source, not the checkout
    # in one process (-n 0): four quick files do not pay for starting xdist's workers
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", *QUICK], cwd=root,
                          env=env, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-2000:]
    print(f"from the sdist: pytest {' '.join(QUICK)}: {tail}")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", tail) and "failed" not in tail and "error" not in tail, tail


def test_the_installed_command_line_outside_a_checkout(installed_toolkit, tmp_path):
    """The installed ``toolkit`` from an empty folder: its version, its help about the working folder, and a
    mistake as one line."""
    inst = installed_toolkit
    version = inst.wheel.name.split("-")[1]         # the version the checkout's build gave the sdist and the wheel
    assert inst.sdist.name == f"social_api_toolkit-{version}.tar.gz", (inst.sdist.name, inst.wheel.name)
    assert inst.run(inst.toolkit, "--version").stdout.strip() == f"toolkit {version}"
    assert "~/toolkit-walkthroughs" in inst.run(inst.toolkit, "lab", "--help").stdout
    file = tmp_path / "notes.txt"
    file.write_text("mine", "utf-8")
    done = inst.run(inst.toolkit, "walkthroughs", file / "sub", check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done
    assert done.stderr.strip() == (f"toolkit walkthroughs: {file / 'sub'}: a part of this path is a file, not a "
                                   "folder; give a folder's path"), done.stderr
    empty = inst.run(inst.toolkit, "walkthroughs", "", check=False)
    assert empty.returncode == 2 and not list(inst.empty.iterdir()), empty
