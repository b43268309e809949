"""deploy/teacher.ipynb runs against a real class sandbox (``toolkit classroom`` in its own process), its two
actions switched on: it lists the worlds, resets one student's world and posts an incident to every world. Its
outputs are not compared with stored ones (it stores none); the test checks what it did and that no output shows
the class secret or a token."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import toolkit
from tests.bench.procs import _process
from toolkit import lessons
from toolkit.classroom import Teacher, read_secret, student_token, teacher_token

from .test_class_progress import stored_exercises

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "deploy" / "teacher.ipynb"


@pytest.fixture
def class_sandbox(tmp_path):
    secret_file = tmp_path / "class.secret"
    with _process([sys.executable, "-m", "toolkit.cli", "classroom", "--port", "0", "--secret-file",
                   str(secret_file)], "toolkit classroom") as (_, url):
        yield url, secret_file


def run_teacher_notebook(switches: dict, url, secret_file, tmp_path, monkeypatch):
    """deploy/teacher.ipynb with ``switches`` (text → text in its cells) executed against the class sandbox at
    ``url`` as a teacher's kernel runs it (its own home, the class's URL and secret file): the executed notebook."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        for old, new in switches.items():
            cell.source = cell.source.replace(old, new)
    for name in ("HOME", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("TOOLKIT_CLASSROOM_URLS", raising=False)
    monkeypatch.setenv("TOOLKIT_CLASSROOM_URL", url)
    monkeypatch.setenv("TOOLKIT_CLASSROOM_SECRET_FILE", str(secret_file))
    monkeypatch.setenv("MPLBACKEND", "agg")
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    return nb


def test_teacher_notebook_lists_resets_and_posts_an_incident(class_sandbox, tmp_path, monkeypatch):
    url, secret_file = class_sandbox
    secret = read_secret(secret_file)
    students = {name: toolkit.connect(classroom=url, student=name, token=student_token(secret, name))
                for name in ("student1", "student2")}
    for name, tk in students.items():
        tk.status.current()
        tk.sandbox.incident("navi_directions", "YELLOW", hours=1, note=f"{name}'s own")
    before = Teacher(url, secret).worlds().set_index("student")

    nb = run_teacher_notebook({'RESET = ""': 'RESET = "student2"', "POST = False": "POST = True"},  # its two actions
                              url, secret_file, tmp_path, monkeypatch)

    shown = json.dumps([cell.get("outputs", []) for cell in nb.cells])
    assert "student1" in shown and "student2" in shown            # the worlds table
    assert "'reset': True" in shown                               # student2's world was thrown away
    assert "'api': 'local_search_keyword'" in shown               # the incident went out
    for value in (secret.reveal(), teacher_token(secret), student_token(secret, "student1"),
                  student_token(secret, "student2")):
        assert value not in shown
    after = Teacher(url, secret).worlds().set_index("student")
    assert after.loc["student1", "calls"] >= before.loc["student1", "calls"]
    assert after.loc["student2", "last_activity"] >= before.loc["student2", "last_activity"]
    notes = {name: {i["note"] for i in tk.sandbox.incidents()} for name, tk in students.items()}
    assert {"student1's own", "class demo"} <= notes["student1"]     # kept, and got the class incident
    assert "class demo" in notes["student2"] and "student2's own" not in notes["student2"]   # started again


# deploy/teacher.ipynb's progress table and its "take an incident back" cell: a student who checked three exercises
# (two right, one not yet) shows so, the other student shows nothing checked, and the incident the notebook posts is
# cleared by it.
def test_teacher_notebook_shows_who_is_stuck_and_takes_an_incident_back(class_sandbox, tmp_path, monkeypatch):
    url, secret_file = class_sandbox
    secret = read_secret(secret_file)
    other = toolkit.connect(classroom=url, student="student2", token=student_token(secret, "student2"))
    other.status.current()
    tk = toolkit.connect(classroom=url, student="student1", token=student_token(secret, "student1"))
    (e1, r1), (e2, r2), (e3, _) = stored_exercises(3)
    assert [lessons.check(e, r).ok for e, r in ((e1, r1), (e2, r2), (e3, None))] == [True, True, False]

    nb = run_teacher_notebook({"POST = False": "POST = True", "CLEAR = None": 'CLEAR = "all"'},  # post, take back
                              url, secret_file, tmp_path, monkeypatch)

    def shown_by(marker: str) -> str:
        cell = next(c for c in nb.cells if c.cell_type == "code" and marker in c.source)
        return json.dumps(cell.get("outputs", []), ensure_ascii=False)

    board = shown_by("board = progress()")               # the table, as HTML and as text
    assert "student1" in board and "student2" in board and e3 in board
    assert "last_error" in board and "not_yet" in board
    stuck = shown_by("with an exercise checked but not right yet")
    assert "2 students; 1 with an exercise checked but not right yet" in stuck
    assert f"student1: not yet {e3}" in stuck and "student2:" not in stuck
    cleared = shown_by("CLEAR = ")
    assert "local_search_keyword" in cleared and "'cleared': [1]" in cleared

    teacher = Teacher(url, secret)
    assert not teacher.incidents()["replays"].any()
    for client in (tk, other):                           # played, then ended in both worlds
        now = client.sandbox.clock()["unix"]
        played = [i for i in client.sandbox.incidents() if i["note"] == "class demo"]
        assert played == [] or all(i["end"] <= now for i in played)
    shown = json.dumps([cell.get("outputs", []) for cell in nb.cells])
    for value in (secret.reveal(), teacher_token(secret), student_token(secret, "student1"),
                  student_token(secret, "student2")):
        assert value not in shown
    tk.close()
    other.close()
