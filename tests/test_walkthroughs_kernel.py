"""The right kernel without switching: ``toolkit walkthroughs`` writes into each copy the kernel of the environment
it runs from, so a copied walkthrough runs in a Jupyter whose ``python3`` lacks toolkit, after the README's kernel
line. The Jupyter here is a temporary one: JUPYTER_PATH holds a ``python3`` kernelspec whose interpreter cannot
import toolkit, JUPYTER_DATA_DIR is where the README's ``--user`` line registers ``toolkit``."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit import walkthroughs

pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

REPO = Path(__file__).resolve().parents[1]
BLOCKED = ("import sys; sys.modules['toolkit'] = None; "
           "from ipykernel.kernelapp import launch_new_instance; launch_new_instance()")
"""A python3 kernel in which ``import toolkit`` fails (ModuleNotFoundError), as in a Jupyter whose own python3
is another environment."""


def _readme_kernel_line() -> str:
    lines = [line for line in (REPO / "README.md").read_text("utf-8").splitlines()
             if line.startswith("python -m ipykernel install")]
    assert len(lines) == 1, lines
    return lines[0].split("#")[0].strip()


def _kernelspec(folder: Path, name: str, argv: list[str]) -> None:
    (folder / "kernels" / name).mkdir(parents=True, exist_ok=True)
    (folder / "kernels" / name / "kernel.json").write_text(json.dumps(
        {"argv": argv, "display_name": f"Python ({name})", "language": "python"}), "utf-8")


@pytest.fixture
def jupyter(tmp_path, monkeypatch):
    """A Jupyter whose python3 lacks toolkit: (JUPYTER_PATH folder, JUPYTER_DATA_DIR folder)."""
    path, data = tmp_path / "jupyter-path", tmp_path / "jupyter-data"
    other = tmp_path / "other-env" / "bin" / "python"      # another environment's python: a launcher
    other.parent.mkdir(parents=True)
    other.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c {shlex.quote(BLOCKED)} \"$@\"\n")
    other.chmod(0o755)
    _kernelspec(path, "python3", [str(other), "-f", "{connection_file}"])
    data.mkdir()
    monkeypatch.setenv("JUPYTER_PATH", str(path))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(data))
    monkeypatch.setenv("JUPYTER_PREFER_ENV_PATH", "0")
    return path, data


def _execute(nb_path: Path, **kw):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(nb_path, as_version=4)
    NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(nb_path.parent)}}, **kw).execute()
    return nb


def test_the_readme_line_is_the_one_the_hint_gives():
    assert _readme_kernel_line() == walkthroughs.KERNEL_LINE


def test_the_kernel_is_a_registered_one_of_this_python_else_python3_if_it_is_this_one_else_toolkit(jupyter):
    path, data = jupyter
    spec, hint = walkthroughs.kernel_for_this_environment()
    assert spec["name"] == "toolkit" and "ipykernel install --user --name toolkit" in hint   # python3 is another
    _kernelspec(path, "python3", [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    assert walkthroughs.kernel_for_this_environment() == (
        {"name": "python3", "display_name": "Python (python3)", "language": "python"}, None)
    _kernelspec(data, "analysis", [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    assert walkthroughs.kernel_for_this_environment()[0]["name"] == "analysis"   # a named one beats python3
    _kernelspec(data, "toolkit", [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    _kernelspec(data, "other", ["/nowhere/bin/python", "-m", "ipykernel_launcher", "-f", "{connection_file}"])
    assert walkthroughs.kernel_for_this_environment() == (
        {"name": "toolkit", "display_name": "Python (toolkit)", "language": "python"}, None)


def _console_script() -> Path:
    """The ``toolkit`` console script of this environment (pip writes its shebang with the python that installed
    it: ``…/bin/python3.11`` after ``python3.11 -m venv``)."""
    script = Path(sys.executable).parent / "toolkit"
    if not script.is_file():
        pytest.skip("this environment has no toolkit console script")
    return script


def _pythons() -> list[Path]:
    """This environment's python under each name a venv gives it and a kernelspec may name."""
    here = Path(sys.executable).parent
    names = ("python", "python3", f"python3.{sys.version_info[1]}")
    return [here / n for n in names if (here / n).exists()]


def test_the_console_script_finds_the_readme_kernel_whatever_name_of_this_python_registered_it(jupyter, tmp_path):
    """The README's line run as ``python``, ``python3`` or ``python3.X`` of this environment (a kernelspec's argv[0]
    is the path it was run as), then ``toolkit walkthroughs`` as the console script: the copies ask for 'toolkit'.
    Before the fix the script (run as ``…/python3.11``) missed a kernel registered as ``…/python`` and printed
    ``kernel 'toolkit'`` only with a hint to register it again, or ``'python3'``."""
    path, data = jupyter
    script = _console_script()
    assert len(_pythons()) >= 2
    line = shlex.split(_readme_kernel_line())
    for k, python in enumerate(_pythons()):
        subprocess.run([str(python), *line[1:]], check=True, capture_output=True, timeout=120)
        spec = json.loads((data / "kernels" / "toolkit" / "kernel.json").read_text("utf-8"))
        assert spec["argv"][0] == str(python), spec["argv"]
        done = subprocess.run([str(script), "walkthroughs", str(tmp_path / f"lessons{k}"), "--no-trust"],
                              capture_output=True, text=True, timeout=300, check=True)
        assert "learner's edition, kernel 'toolkit'" in done.stdout, (python.name, done.stdout)
        assert "ipykernel install" not in done.stdout, (python.name, done.stdout)   # no hint: it is registered
        nb = json.loads((tmp_path / f"lessons{k}" / "00_quickstart.ipynb").read_text("utf-8"))
        assert nb["metadata"]["kernelspec"]["name"] == "toolkit"


@pytest.mark.timeout(900)
def test_a_copied_walkthrough_runs_where_python3_lacks_toolkit_after_the_readme_line(jupyter, tmp_path):
    """The README's line (``python`` of this environment, as an activated environment runs it), the
    ``toolkit walkthroughs`` console script, then the copy executed in its own kernel: every cell runs."""
    path, data = jupyter
    probe = tmp_path / "probe.ipynb"          # the control: this Jupyter's python3 cannot import toolkit
    probe.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "code", "id": "probe", "metadata": {}, "source": "import toolkit", "outputs": [],
         "execution_count": None}], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}}))
    from nbclient.exceptions import CellExecutionError

    with pytest.raises(CellExecutionError, match="ModuleNotFoundError"):
        _execute(probe)
    line = shlex.split(_readme_kernel_line())
    assert line[:2] == ["python", "-m"]
    subprocess.run([str(Path(sys.executable).parent / "python"), *line[1:]], check=True, capture_output=True,
                   timeout=120)
    assert (data / "kernels" / "toolkit" / "kernel.json").is_file()
    folder = tmp_path / "lessons"
    done = subprocess.run([str(_console_script()), "walkthroughs", str(folder), "--no-trust"], capture_output=True,
                          text=True, timeout=300, check=True)
    assert re.search(r"learner's edition, kernel 'toolkit'", done.stdout), done.stdout
    nb = _execute(folder / "00_quickstart.ipynb")                       # no kernel_name: the notebook's own
    assert nb.metadata.kernelspec.name == "toolkit"
    ran = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in ran)
    errors = [o for c in ran for o in c.outputs if o.output_type == "error"
              and "raises-exception" not in c.metadata.get("tags", [])]
    assert not errors, errors
