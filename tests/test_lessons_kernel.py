"""The teacher sees the kind of the last error a learner's own code raised (issue 42, point 7), recorded in a real
kernel: ``toolkit.connect()`` registers an IPython ``post_run_cell`` hook that sends the exception's class name —
never its message or the cell's code — to the learner's world, once, without ever failing the cell; a walkthrough's
cell run as shipped (its error is the lesson's) and an interrupt send nothing."""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from toolkit.classroom import Teacher, student_token
from toolkit.sandbox.classroom import ClassroomServer

SECRET = "a-class-secret-for-the-kernel-test-0123"
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def shipped_error_cell() -> str:
    """00's cell that raises on purpose (tagged raises-exception), as the walkthrough ships it."""
    cells = json.loads((NOTEBOOKS / "00_quickstart.ipynb").read_text("utf-8"))["cells"]
    return next("".join(c["source"]) for c in cells if "raises-exception" in c["metadata"].get("tags", []))


@pytest.mark.timeout(300)
def test_a_real_kernel_tells_the_class_the_kind_of_the_learners_own_errors(tmp_path, monkeypatch):
    shipped = shipped_error_cell()
    cells = [
        "import toolkit\ntk = toolkit.connect()\nprint(tk.sandbox.student)",
        'prices = {"coffee": 4500}\nprices["oolong"]',                                 # the learner's own: KeyError
        shipped,                                                                     # the lesson's own error
        shipped.replace("90", "900"),                                                # changed: the learner's own
        'class WrongAnswerError(Exception):\n    pass\n\nraise WrongAnswerError("my secret answer is 42")',
        "print(tk.sandbox.raised())",
        "tk.sandbox.note_raised = lambda kind: 1 / 0      # the sandbox cannot be told\nint('x')",
        "print('the kernel goes on')",
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    for name in ("HOME", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "IPYTHONDIR"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.setenv("MPLBACKEND", "agg")
    with ClassroomServer(SECRET, frozen=True) as room:
        monkeypatch.setenv("TOOLKIT_CLASSROOM_URL", room.base_url)
        monkeypatch.setenv("TOOLKIT_CLASSROOM_TOKEN", student_token(SECRET, "ivy"))
        monkeypatch.setenv("JUPYTERHUB_USER", "ivy")
        NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
        errors = [[o["ename"] for o in cell.outputs if o.output_type == "error"] for cell in nb.cells]
        assert errors == [[], ["KeyError"], ["ParameterError"], ["ParameterError"], ["WrongAnswerError"], [],
                          ["ValueError"], []], errors                  # each cell's own error, nothing added
        printed = "".join(o.get("text", "") for o in nb.cells[5].outputs)
        assert printed.strip() == "['KeyError', 'ParameterError', 'WrongAnswerError']", printed
        assert "the kernel goes on" in "".join(o.get("text", "") for o in nb.cells[7].outputs)
        row = Teacher(room.base_url, SECRET).progress().set_index("student").loc["ivy"]
        assert row["last_raised"] == "WrongAnswerError"
        raw = json.dumps(Teacher(room.base_url, SECRET).progress(raw=True))
        assert "secret answer" not in raw and "oolong" not in raw and "prices" not in raw
