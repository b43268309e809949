"""The code's own checks, as pyproject.toml configures them: ruff finds no error or likely bug in ``toolkit/``,
``setup.py`` and ``docs/`` (pyflakes, pycodestyle's errors, bugbear, …; no formatter), and mypy finds no type
error in ``toolkit/``, with no error code switched off for any of its modules; the package says it is typed
(``py.typed``, shipped in the wheel), so users' type checkers read its annotations."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def _run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_ruff_finds_nothing():
    pytest.importorskip("ruff")
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise", "toolkit", "setup.py", "docs")
    assert done.returncode == 0, f"ruff check (pyproject.toml [tool.ruff]):\n{done.stdout[-6000:]}{done.stderr[-2000:]}"


@pytest.mark.timeout(300)
def test_mypy_finds_no_type_error(tmp_path):
    pytest.importorskip("mypy")
    done = _run("mypy", "--cache-dir", str(tmp_path / "mypy-cache"), "--no-error-summary", "--hide-error-context")
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, ("mypy (pyproject.toml [tool.mypy]):\n" + "\n".join(errors[:60])
                                                 + done.stderr[-2000:])


def test_no_module_of_the_package_is_exempt_from_mypy():
    """No baseline: no ``[[tool.mypy.overrides]]`` entry switches an error code off, or errors off, for a module of
    toolkit/ (an error is corrected where it is, or ignored on its line with its code and a reason)."""
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy.get("disable_error_code", []) in ([], ["annotation-unchecked"])
    for entry in mypy.get("overrides", []):
        modules = entry["module"] if isinstance(entry["module"], list) else [entry["module"]]
        ours = [m for m in modules if m == "toolkit" or m.startswith("toolkit.")]
        assert not ours or not (entry.get("disable_error_code") or entry.get("ignore_errors")), entry


def test_the_package_is_typed_and_ships_the_marker():
    assert (ROOT / "toolkit" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["toolkit"]
