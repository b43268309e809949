"""The manager track stands alone: one walkthrough, ``07_manager_report.ipynb`` (the weekly status update, the
consent report and the files to send), runs top to bottom in a fresh kernel in a folder of its own — no other
walkthrough run before it, no file another one wrote — and its teaching cells use no pandas beyond reading a table.
The user guide (where the README's list of tracks moved) and the instructor's guide name only whole notebooks for
each track.

Strict nbval (``pytest notebooks/07_manager_report.ipynb``) also runs the stored notebook in a fresh kernel and
compares every output; this test adds the empty folder and the answers' own checks.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MANAGER = REPO / "notebooks" / "07_manager_report.ipynb"
# pandas that is more than reading a table: reshaping, joining, grouping, building frames by hand
PANDAS_BEYOND_READING = re.compile(
    r"\.(groupby|pivot|pivot_table|merge|join|concat|apply|agg|melt|query|assign|sort_values|iloc|loc|set_index)\b"
    r"|\bpd\.(concat|merge|DataFrame|Series|to_datetime|pivot_table)\b")


def _cells(path: Path = MANAGER) -> list[dict]:
    return json.loads(path.read_text("utf-8"))["cells"]


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def _text(cell: dict) -> str:
    return "".join("".join(o.get("text", "")) + "".join((o.get("data") or {}).get("text/plain", ""))
                   for o in cell.get("outputs", []))


@pytest.mark.timeout(900)
def test_the_manager_notebook_runs_alone_in_a_fresh_kernel_in_an_empty_folder(tmp_path):
    """Copied alone into an empty folder and run top to bottom in a new kernel: no error, every answer checks itself
    right (✓), and the files it promises are written next to it."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    copy = tmp_path / MANAGER.name
    shutil.copy(MANAGER, copy)
    nb = nbformat.read(copy, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbclient.NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [(i, o.get("ename")) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.outputs if o.get("output_type") == "error"]
    assert not errors, errors
    answers = [(c, re.search(r'Answer\("([^"]+)"\)|answer\("([^"]+)"\)', c.source)) for c in nb.cells
               if "solution" in c.metadata.get("tags", [])]
    assert len(answers) == 5
    for cell, found in answers:
        eid = found.group(1) or found.group(2)
        assert f"✓ {eid} — right." in _text(cell), (eid, _text(cell))
    written = sorted(p.name for p in (tmp_path / "reports").iterdir())
    assert {"status.xlsx", "status_availability.csv", "status.png", "status.txt", "consent_per_item.csv",
            "consent.xlsx", "consent.png"} <= set(written), written
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([MANAGER.name, "reports"])


def test_the_manager_notebook_starts_from_a_fresh_sandbox_and_needs_no_other_lesson():
    cells = _cells()
    first = next(c for c in cells if c["cell_type"] == "code")
    assert "toolkit.connect(fresh=True)" in _src(first)
    code = "\n".join(_src(c) for c in cells if c["cell_type"] == "code")
    assert "replay_consent_history()" in code            # its own consent data, not a lesson's logins
    for other in sorted(p.stem for p in (REPO / "notebooks").glob("*.ipynb") if p != MANAGER):
        assert other not in code, f"the manager notebook's code reads what {other} made"
    frame = _src(cells[1])
    assert "stands alone" in _src(cells[0]) and "no other lesson" in frame


def test_the_manager_notebook_teaches_with_no_pandas_beyond_reading_a_table():
    """Its teaching cells (not the folded answers) call the toolkit and read tables: a column selection, a
    ``pd.read_csv``; nothing that reshapes, joins or groups."""
    offenders = [(i, m.group(0)) for i, c in enumerate(_cells()) if c["cell_type"] == "code"
                 and "solution" not in c["metadata"].get("tags", [])
                 for m in PANDAS_BEYOND_READING.finditer(_src(c))]
    assert not offenders, offenders
    assert PANDAS_BEYOND_READING.search('df.groupby("x")') and PANDAS_BEYOND_READING.search("pd.concat(frames)")


def test_the_manager_notebook_has_an_interpret_and_a_write_exercise_and_covers_its_topics():
    cells = _cells()
    kinds = {t for c in cells for t in c.get("metadata", {}).get("tags", []) if t.startswith("kind:")}
    assert {"kind:interpret", "kind:write", "kind:predict"} <= kinds
    code = "\n".join(_src(c) for c in cells if c["cell_type"] == "code")
    for call in ("tk.status.weekly(days=7)", 'tk.status.weekly(week="KST")', "tk.user.consent_report()",
                 "consent_summary(", "consent_figure(", ".export(", "export_frames("):
        assert call in code, call


TRACKS = re.compile(r"\*\*(developer|analyst|manager)\*\* ([^·(]+)")


@pytest.mark.parametrize("page", ["docs/guide/index.md", "docs/instructors.md"])
def test_each_track_names_whole_notebooks_and_the_manager_track_is_the_manager_notebook(page):
    text = (REPO / page).read_text("utf-8")
    tracks = {name: lessons.strip().rstrip(",") for name, lessons in TRACKS.findall(text)}
    assert set(tracks) == {"developer", "analyst", "manager"}, tracks
    stems = {p.stem.split("_")[0]: p.stem for p in (REPO / "notebooks").glob("*.ipynb")}
    for name, lessons in tracks.items():
        assert "section" not in lessons, f"{page}: the {name} track names a part of a notebook: {lessons}"
        for lesson in re.split(r",\s*|\s+and\s+", lessons):
            assert lesson in stems, f"{page}: the {name} track names {lesson!r}, not a notebook"
    assert tracks["manager"] == "07"
