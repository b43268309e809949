"""A regular install works anywhere: the wheel (at most 20 MB) carries the sandbox's data, the walkthroughs, their
pages and samples; installed without ``-e`` with ``[lab]`` only into a fresh venv, it runs the README's first steps,
``toolkit sandbox``, ``toolkit lab`` and ``toolkit walkthroughs DIR`` from an empty folder with no checkout on its
path, and every copied walkthrough executes there without an error (cells tagged ``raises-exception`` excepted).

The install is built once per session (``installed_toolkit`` in tests/conftest.py); each test prints its figures."""
from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import tarfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.installed import REPO, WHEEL_LIMIT

pytestmark = [pytest.mark.package, pytest.mark.timeout(1800)]

WALKTHROUGHS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


def test_the_wheel_carries_what_the_sandbox_and_the_walkthroughs_read(installed_toolkit):
    inst = installed_toolkit
    size = inst.wheel.stat().st_size
    print(f"wheel {size / 1e6:.1f} MB, sdist {inst.sdist.stat().st_size / 1e6:.1f} MB; build {inst.build_seconds:.0f} s, "
          f"install with [lab] {inst.install_seconds:.0f} s")
    assert size <= WHEEL_LIMIT, f"the wheel is {size / 1e6:.1f} MB (limit 20 MB)"
    names = set(zipfile.ZipFile(inst.wheel).namelist())
    data = {p.relative_to(REPO).as_posix() for p in (REPO / "toolkit" / "data").rglob("*") if p.is_file()
            and "__pycache__" not in p.parts}
    assert data and data <= names, sorted(data - names)
    assert {f"toolkit/notebooks/{n}" for n in WALKTHROUGHS} <= names
    assert {"toolkit/notebooks/reference/concepts.md", "toolkit/notebooks/reference/api.md",
            "toolkit/notebooks/reference/errors.md"} <= names
    assert {"toolkit/mapassets/leaflet.js", "toolkit/mapassets/leaflet.css"} <= names
    assert not [n for n in names if n.startswith(("datasets/", "notebooks/", "tests/"))], "top-level folders leaked"
    with tarfile.open(inst.sdist) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"setup.py", "pyproject.toml", "notebooks/00_quickstart.ipynb", "datasets/README.md",
            "datasets/build/build_roads.py", "datasets/local/station_lines.csv",
            "toolkit/data/navi/roads.json.gz"} <= members


def test_the_readme_first_steps_run_from_an_empty_folder(installed_toolkit, tmp_path):
    inst = installed_toolkit
    script = tmp_path / "smoke.py"            # run from outside the checkout (a script's folder is on sys.path)
    shutil.copyfile(REPO / "tests" / "package" / "smoke.py", script)
    done = inst.run(inst.python, script, tmp_path, timeout=300)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(seen["toolkit_file"]).is_relative_to(inst.venv), seen["toolkit_file"]
    assert not [p for p in seen["sys_path"] if p and Path(p).resolve().is_relative_to(REPO)], seen["sys_path"]
    assert seen["status_rows"] > 0 and seen["cafes"] > 0 and seen["cafes_x_dtype"] == "float64"
    assert seen["route_ok"] and seen["route_m"] > 1000
    assert seen["map_has_leaflet"] and seen["map_remote_scripts"] == [], seen["map_remote_scripts"]
    assert seen["hangul_labels"] > 0 and seen["hangul_font_file"] == "NanumGothic.ttf"
    assert not [w for w in seen["warnings"] if "Glyph" in w], seen["warnings"]
    assert (tmp_path / "report.png").stat().st_size > 10_000 and (tmp_path / "hangul.png").stat().st_size > 3_000
    # the README's shell line, as written (a bare `python` after the set-up, the venv's bin first on PATH)
    line = inst.run("python", "-c", "import toolkit; print(toolkit.connect().status.current())", timeout=120)
    assert "로그인" in line.stdout


def test_toolkit_sandbox_serves_and_prints_its_config_from_an_empty_folder(installed_toolkit):
    inst = installed_toolkit
    config = json.loads(inst.run(inst.toolkit, "sandbox", "--print-config", "--port", "8123").stdout)
    assert config["hosts"]["local"] == "http://127.0.0.1:8123/local" and config["app"]["rest_api_key"]
    proc = subprocess.Popen([str(inst.toolkit), "sandbox"], cwd=inst.empty, env=inst.env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        first = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", first)
        assert found, first
        answer = httpx.get(f"{found.group(0)}/status/api/health/current", timeout=10)
        assert answer.status_code == 200 and answer.json()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        proc.stdout.close()


def test_toolkit_lab_seeds_a_working_folder_and_prints_the_address_last(installed_toolkit, tmp_path):
    from tests.labrun import LabProcess

    inst = installed_toolkit
    lab = LabProcess(None, tmp_path, command=[str(inst.toolkit)], extra_env=inst.env())
    lab.start()
    try:
        folder = inst.home / "toolkit-walkthroughs"
        assert {n for n in WALKTHROUGHS} <= {p.name for p in folder.glob("*.ipynb")}
        assert (folder / "reference" / "concepts.md").is_file() and (folder / "samples" / "customers_busan.csv").is_file()
        listing = httpx.get(f"{lab.url}/api/contents", params={"token": lab.token}, timeout=10).json()
        assert "00_quickstart.ipynb" in {item["name"] for item in listing["content"]}
        deadline = time.monotonic() + 20
        while "open: " not in lab.output() and time.monotonic() < deadline:
            time.sleep(0.5)
        out = lab.output()
        assert str(folder) in out, out[-2000:]
        last = [ln for ln in out.splitlines() if ln.strip()][-1]
        assert last.strip().startswith(f"open: http://127.0.0.1:{lab.port}/lab"), out[-2000:]
    finally:
        assert lab.signal(signal.SIGTERM, 40) == 0


def test_every_copied_walkthrough_runs_in_the_installed_environment(installed_toolkit, tmp_path):
    inst = installed_toolkit
    lessons = tmp_path / "lessons"
    report = inst.run(inst.toolkit, "walkthroughs", lessons).stdout
    files = [p for p in lessons.rglob("*") if p.is_file() and p.name != ".toolkit-walkthroughs.json"]
    assert re.search(r"(\d+) copied", report).group(1) == str(len(files)) and "0 skipped" in report, report
    assert f"{len(WALKTHROUGHS)} notebooks trusted" in report, report
    assert sorted(p.name for p in lessons.glob("*.ipynb")) == WALKTHROUGHS
    # trusted for this user (the home of the install): stored maps show on first open
    check = ("import sys, nbformat; from nbformat.sign import NotebookNotary; n = NotebookNotary(); "
             "print(all(n.check_signature(nbformat.read(p, 4)) for p in sys.argv[1:])); n.close()")
    assert inst.run(inst.python, "-c", check, *sorted(lessons.glob("*.ipynb"))).stdout.strip() == "True"
    started = time.monotonic()
    executed = tmp_path / "executed"
    notebooks = sorted(lessons.glob("*.ipynb"))

    def execute(part):
        return inst.run(inst.python, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--output-dir",
                        executed, "--ExecutePreprocessor.timeout=600", "--ExecutePreprocessor.kernel_name=python3",
                        *part, timeout=1500, cwd=lessons)

    # two at a time: a walkthrough's kernel (its sandbox included) keeps one core busy, and the machine has two
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(execute, (notebooks[0::2], notebooks[1::2])))
    took = time.monotonic() - started
    for name in WALKTHROUGHS:
        nb = json.loads((executed / name).read_text("utf-8"))
        errors = [c for c in nb["cells"] if c["cell_type"] == "code"
                  and any(o.get("output_type") == "error" for o in c.get("outputs", []))
                  and "raises-exception" not in c.get("metadata", {}).get("tags", [])]
        assert not errors, f"{name}: {errors[0]['outputs']}"
        assert all(c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"), name
    print(f"{len(WALKTHROUGHS)} walkthroughs executed in the installed environment in {took:.0f} s (two at a time)")
    # a second copy keeps a walkthrough the user changed, and says so
    first = lessons / WALKTHROUGHS[0]
    nb = json.loads(first.read_text("utf-8"))
    nb["cells"][0]["source"] = "".join(nb["cells"][0]["source"]) + "\nmy note"
    first.write_text(json.dumps(nb), "utf-8")
    again = inst.run(inst.toolkit, "walkthroughs", lessons).stdout
    assert f"skipped {WALKTHROUGHS[0]}: its cells changed since toolkit copied it" in again, again
    assert "my note" in first.read_text("utf-8")


def test_a_kernel_of_the_install_runs_toolkit_in_another_jupyter(installed_toolkit, tmp_path):
    """The README's way into an existing Jupyter: ``python -m ipykernel install --user --name toolkit`` in the
    install's environment; another environment's Jupyter (this test run's) then runs ``toolkit.connect()`` in it."""
    import sys

    inst = installed_toolkit
    inst.run(inst.python, "-m", "ipykernel", "install", "--user", "--name", "toolkit")
    kernels = inst.home / ".local" / "share" / "jupyter" / "kernels"
    spec = json.loads((kernels / "toolkit" / "kernel.json").read_text("utf-8"))
    assert Path(spec["argv"][0]).parent == inst.venv / "bin", spec["argv"]
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                     "source": "import toolkit\ntk = toolkit.connect()\n"
                               "print(toolkit.__file__, len(tk.status.current()))"}],
          "metadata": {"kernelspec": {"name": "toolkit", "display_name": "toolkit", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "mine.ipynb").write_text(json.dumps(nb), "utf-8")
    env = {**{k: v for k, v in __import__("os").environ.items() if not k.startswith("TOOLKIT_")},
           "JUPYTER_PATH": str(inst.home / ".local" / "share" / "jupyter")}
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute",
                           "--ExecutePreprocessor.kernel_name=toolkit", "--output", "ran.ipynb",
                           str(tmp_path / "mine.ipynb")], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = json.loads((tmp_path / "ran.ipynb").read_text("utf-8"))
    text = "".join(ran["cells"][0]["outputs"][0]["text"])
    where, rows = text.split()
    assert Path(where).is_relative_to(inst.venv) and int(rows) > 0, text
