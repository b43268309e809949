"""Every walkthrough has exercises with answers that run, and no test scaffolding shows to a learner.

The exercises: at least two cells tagged ``exercise`` per notebook, each followed at once by its answer, a code cell
tagged ``solution`` whose source and outputs are both collapsed (``"jupyter": {"source_hidden": true,
"outputs_hidden": true}``: the answer stays folded until opened, still compared by nbval), not empty, ran (an
execution count and outputs, no error) and ends in something a learner reads (printed or displayed text, not a bare
``assert``). No answer is readable on the page before its exercise: no line an answer prints appears in an
earlier cell's output.
Strict nbval (``pytest notebooks/NN.ipynb``) runs the stored notebooks and compares every output, the answers'
included; so the answers are not allowed to dodge that comparison (no ``nbval-skip``/``nbval-ignore-output``).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))

SCAFFOLDING = {
    "an assert as teaching (say it in a sentence, or move the check to tests/)": re.compile(r"^\s*assert\b", re.M),
    "matplotlib backend switching": re.compile(r"matplotlib\.use\(|plt\.switch_backend\("),
    "an nbval marker as a comment (use a cell tag)": re.compile(r"#\s*NBVAL", re.I),
    "a raw control-API call (use a named helper of tk.sandbox or tk.events)": re.compile(r"\.sandbox\.control\("),
}
NUMPY_BOOL = re.compile(r"\bnp\.(True|False)_\b")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text("utf-8"))["cells"]


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _text(outputs: list[dict]) -> str:
    chunks = []
    for out in outputs:
        chunks.append("".join(out.get("text", "")))
        for mime in ("text/plain", "text/markdown", "text/html"):
            chunks.append("".join((out.get("data") or {}).get(mime, "")))
    return "".join(chunks)


def exercise_problems(cells: list[dict]) -> list[str]:
    """What is wrong with a notebook's exercises (empty: nothing)."""
    problems = []
    exercises = [i for i, c in enumerate(cells) if "exercise" in _tags(c)]
    if len(exercises) < 2:
        problems.append(f"{len(exercises)} cells tagged 'exercise' (at least 2 wanted)")
    for i in exercises:
        where = f"exercise at cell {i}"
        if "solution" in _tags(cells[i]):
            problems.append(f"{where}: tagged both 'exercise' and 'solution'")
        if not "".join(cells[i]["source"]).strip():
            problems.append(f"{where}: the prompt is empty")
        if i + 1 >= len(cells) or "solution" not in _tags(cells[i + 1]):
            problems.append(f"{where}: the next cell is not tagged 'solution'")
    for j, cell in enumerate(cells):
        if "solution" not in _tags(cell):
            continue
        where = f"solution at cell {j}"
        if j == 0 or "exercise" not in _tags(cells[j - 1]):
            problems.append(f"{where}: does not follow a cell tagged 'exercise'")
        if cell["cell_type"] != "code":
            problems.append(f"{where}: not a code cell")
            continue
        source = "".join(cell["source"])
        if not source.strip():
            problems.append(f"{where}: empty")
        folded = cell.get("metadata", {}).get("jupyter", {})
        if folded.get("source_hidden") is not True:
            problems.append(f"{where}: not collapsed (metadata jupyter.source_hidden true)")
        if folded.get("outputs_hidden") is not True:
            problems.append(f"{where}: its answer shows under the exercise (metadata jupyter.outputs_hidden true)")
        if cell.get("execution_count") is None:
            problems.append(f"{where}: never ran (no execution count); run the notebook again")
        outputs = cell.get("outputs", [])
        if any(o.get("output_type") == "error" for o in outputs):
            problems.append(f"{where}: its stored output is an error")
        if not _text(outputs).strip():
            problems.append(f"{where}: shows nothing a learner can read (print the result in a sentence)")
        if re.search(r"^\s*assert\b", source, flags=re.M):
            problems.append(f"{where}: checks with assert; print the result in a sentence instead")
        dodges = {"nbval-skip", "nbval-ignore-output"} & set(_tags(cell))
        if dodges:
            problems.append(f"{where}: tagged {sorted(dodges)}, so nbval would not check the answer")
    return problems + leak_problems(cells)


def _answer_lines(text: str) -> list[str]:
    """The lines of an answer's output long enough to be a give-away (not "True", not a short count)."""
    return [line.strip() for line in text.splitlines() if len(line.strip()) >= 12]


def leak_problems(cells: list[dict]) -> list[str]:
    """An answer readable before its exercise: a line the solution prints appears in an earlier cell's output."""
    problems = []
    for j, cell in enumerate(cells):
        if "solution" not in _tags(cell) or j == 0:
            continue
        earlier = "\n".join(_text(c.get("outputs", [])) for c in cells[:j - 1])
        for line in _answer_lines(_text(cell.get("outputs", []))):
            if line in earlier:
                problems.append(f"solution at cell {j}: its answer {line[:40]!r} is readable in an earlier output")
                break
    return problems


def scaffolding_problems(cells: list[dict]) -> list[str]:
    problems = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        problems += [f"cell {i}: {what}" for what, pattern in SCAFFOLDING.items() if pattern.search(source)]
        if NUMPY_BOOL.search(_text(cell.get("outputs", []))):
            problems.append(f"cell {i}: prints a numpy bool (np.True_); say it in a sentence")
    return problems


PREDICT_HEAD = re.compile(r"^\*\*Exercise [^*]+\*\* · [★]+ \w+ · \*predict before you run\*", re.M)


def predict_problems(cells: list[dict]) -> list[str]:
    """A predict exercise is tagged ``predict`` (the learner's edition keeps no output after it), and its solution's
    source does not hold the letter: it says the answer through ``toolkit.lessons.answer`` when run."""
    problems = []
    for i, cell in enumerate(cells):
        asks = bool(PREDICT_HEAD.search("".join(cell["source"]))) and "exercise" in _tags(cell)
        if asks != ("predict" in _tags(cell)):
            problems.append(f"cell {i}: " + ("a predict exercise not tagged 'predict'" if asks else
                                             "tagged 'predict' but not a predict exercise"))
        if not asks or i + 1 >= len(cells):
            continue
        source = "".join(cells[i + 1]["source"])
        options = re.findall(r"^- \(([a-z])\)", "".join(cell["source"]), re.M)
        given = [o for o in options if re.search(rf"""["'(]{o}["')]""", source)]
        if given:
            problems.append(f"solution at cell {i + 1}: its source holds the letter {given[0]!r}")
        if "toolkit.lessons.answer(" not in source:
            problems.append(f"solution at cell {i + 1}: does not show its answer with toolkit.lessons.answer")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_predict_exercises_are_tagged_and_their_solutions_hold_no_letter(path):
    problems = predict_problems(_cells(path))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_the_predict_check_finds_each_problem():
    prompt = {"cell_type": "markdown", "metadata": {"tags": ["exercise", "predict"]},
              "source": "**Exercise 9.1** · ★ easy · *predict before you run*\n\n- (a) one\n- (b) two\n"}
    good = _code('toolkit.lessons.answer("9.1")', tags=["solution"])
    assert predict_problems([prompt, good]) == []
    untagged = {**prompt, "metadata": {"tags": ["exercise"]}}
    assert predict_problems([untagged, good]) == ["cell 0: a predict exercise not tagged 'predict'"]
    told = _code('box = toolkit.lessons.Answer("9.1")\nanswer = "b"\nbox.check(answer)', tags=["solution"])
    assert predict_problems([prompt, told]) == ["solution at cell 1: its source holds the letter 'b'",
                                                "solution at cell 1: does not show its answer with "
                                                "toolkit.lessons.answer"]
    stray = _code("print('x')", tags=["predict"])
    assert predict_problems([stray]) == ["cell 0: tagged 'predict' but not a predict exercise"]


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 9


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_exercises_have_collapsed_answers_that_ran(path):
    problems = exercise_problems(_cells(path))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_test_scaffolding_shows(path):
    problems = scaffolding_problems(_cells(path))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def _code(source: str, *, tags=(), hidden=True, outputs=None, count=1) -> dict:
    cell = {"cell_type": "code", "source": source, "metadata": {"tags": list(tags)}, "execution_count": count,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": "The answer is 42.\n"}]
            if outputs is None else outputs}
    if hidden:
        cell["metadata"]["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
    return cell


YES = [{"output_type": "stream", "name": "stdout", "text": "Yes, the second answer.\n"}]


def _prompt(text: str = "**Exercise.** Find the answer.") -> dict:
    return {"cell_type": "markdown", "source": text, "metadata": {"tags": ["exercise"]}}


def test_the_check_accepts_well_formed_exercises():
    cells = [_prompt(), _code("print(f'The answer is {6 * 7}.')", tags=["solution"]),
             _prompt(), _code("print('yes')", tags=["solution"], outputs=YES)]
    assert exercise_problems(cells) == []


@pytest.mark.parametrize("broken,expected", [
    (lambda c: c[1]["metadata"].pop("jupyter"), "not collapsed"),
    (lambda c: c[1]["metadata"]["jupyter"].pop("outputs_hidden"), "its answer shows under the exercise"),
    (lambda c: c.insert(0, _code("print('x')", hidden=False, outputs=[
        {"output_type": "stream", "name": "stdout", "text": "Before: The answer is 42.\n"}])), "readable in an earlier"),
    (lambda c: c[1].update(source="  "), "empty"),
    (lambda c: c[1].update(outputs=[]), "shows nothing"),
    (lambda c: c[1].update(execution_count=None), "never ran"),
    (lambda c: c[1].update(outputs=[{"output_type": "error", "ename": "E", "evalue": "", "traceback": []}]),
     "is an error"),
    (lambda c: c[1].update(source="assert 6 * 7 == 42\nprint('ok')"), "checks with assert"),
    (lambda c: c[1]["metadata"]["tags"].append("nbval-ignore-output"), "nbval would not check"),
    (lambda c: c.pop(1), "next cell is not tagged 'solution'"),
    (lambda c: c.pop(2), "does not follow a cell tagged 'exercise'"),
    (lambda c: c.__delitem__(slice(2, 4)), "1 cells tagged 'exercise'"),
])
def test_the_check_names_what_is_wrong(broken, expected):
    cells = [_prompt(), _code("print('The answer is 42.')", tags=["solution"]),
             _prompt(), _code("print('yes')", tags=["solution"], outputs=YES)]
    broken(cells)
    problems = exercise_problems(cells)
    assert any(expected in p for p in problems), problems


def test_the_scaffolding_check_finds_each_kind():
    cells = [_code("import matplotlib\nmatplotlib.use('Agg')"), _code("assert x == 1"), _code("# NBVAL_IGNORE_OUTPUT\nx"),
             _code("tk.sandbox.control('POST', '/sandbox/clock', json={})"),
             _code("x == y", outputs=[{"output_type": "execute_result", "data": {"text/plain": "np.True_"}}]),
             _code("print('fine')")]
    problems = scaffolding_problems(cells)
    assert [p.split(":")[0] for p in problems] == ["cell 0", "cell 1", "cell 2", "cell 3", "cell 4"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_errors_are_short_and_name_no_path_of_the_machine(path):
    """A cell tagged ``raises-exception`` stores the error as a learner sees it: the toolkit's message and where
    the toolkit raised it (relative to the package), not a traceback through the toolkit's internals."""
    for i, cell in enumerate(_cells(path)):
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            assert "raises-exception" in _tags(cell), f"{path.name} cell {i}: an error in a cell not tagged so"
        for out in errors:
            plain = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(out["traceback"]))
            assert not re.search(r"(^|\s)/\w", plain), f"{path.name} cell {i}: a machine path in {plain!r}"
            assert len(out["traceback"]) <= 2, f"{path.name} cell {i}: a long traceback was stored"
            assert plain.endswith(f"{out['ename']}: {out['evalue']}")


def test_toolkit_errors_render_short_in_ipython():
    from IPython.core.interactiveshell import InteractiveShell

    import toolkit.errors as errors
    from toolkit.utility import _lang

    shell = InteractiveShell.instance()
    try:
        _lang("xx")
    except errors.ToolkitError as err:
        caught = err
    lines = caught._render_traceback_()
    assert lines[0].startswith("raised in toolkit/utility.py:") and "(_lang)" in lines[0]
    assert lines[-1] == f"\x1b[31m{type(caught).__name__}\x1b[39m: {caught}"
    errors.SHOW_INTERNALS = True
    try:
        full = "\n".join(caught._render_traceback_())
    finally:
        errors.SHOW_INTERNALS = False
    assert "Traceback" in re.sub(r"\x1b\[[0-9;]*m", "", full) and len(full) > len("\n".join(lines))
    assert shell is InteractiveShell.instance()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_code_cell_is_stored_as_one_run_all_left_it(path):
    """nbval compares only the outputs a notebook stores: a cell stored without having run would pass unchecked.
    So every code cell holds its run, numbered 1, 2, 3 … as one Run All from a fresh kernel numbers them."""
    counts = [cell.get("execution_count") for cell in _cells(path) if cell["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name}: run it again top to bottom ({counts})"


DIFFICULTY = re.compile(r"^\*\*Exercise [^*]+\*\* · (★ easy|★★ medium|★★★ hard)", re.M)


def placement_problems(cells: list[dict]) -> list[str]:
    """Exercises where the learning happens: after at least two different sections (## headings), each labelled by
    difficulty and checkable with ``toolkit.lessons.check``, and at least one asking to predict before running."""
    problems, sections, section = [], set(), None
    predicts = 0
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and re.match(r"^## ", source) and "Recap" not in source:
            section = source.splitlines()[0]
        if "exercise" not in _tags(cell):
            continue
        sections.add(section)
        if not DIFFICULTY.search(source):
            problems.append(f"exercise at cell {i}: no difficulty label (★ easy, ★★ medium, ★★★ hard)")
        if "toolkit.lessons.check(" not in source:
            problems.append(f"exercise at cell {i}: does not say how to check an answer (toolkit.lessons.check)")
        predicts += "predict" in source.lower() or "explain" in source.lower()
    if len(sections) < 2:
        problems.append(f"exercises after {len(sections)} section(s); at least 2 wanted")
    if not predicts:
        problems.append("no exercise asks to predict or explain before running")
    if any(re.search(r"^## Exercises", "".join(c["source"]), re.M) for c in cells if c["cell_type"] == "markdown"):
        problems.append("an '## Exercises' section at the end: put each exercise after the section it practises")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_exercises_come_after_the_sections_they_practise(path):
    problems = placement_problems(_cells(path))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_login_lesson_exercises_state_nonce_or_pkce():
    path = next(p for p in NOTEBOOKS if p.name.startswith("01_"))
    prompts = " ".join("".join(c["source"]) for c in _cells(path) if "exercise" in _tags(c))
    assert re.search(r"`state`|`nonce`|PKCE", prompts)


def test_login_lesson_teaching_cells_show_each_refusal():
    """01's teaching cells (not its answers) drive a login step by step with tk.sandbox.authorize and store what
    each check refuses: a forged state, a wrong PKCE verifier (invalid_grant KOE320), a wrong nonce."""
    path = next(p for p in NOTEBOOKS if p.name.startswith("01_"))
    teaching = [c for c in _cells(path) if c["cell_type"] == "code" and not {"solution", "exercise"} & set(_tags(c))]
    stored = {_text(c.get("outputs", [])): "".join(c["source"]) for c in teaching}
    wanted = {"a forged state": r"RedirectError — state_mismatch", "a wrong verifier": r"invalid_grant KOE320 — PKCE",
              "a wrong nonce": r"IdTokenError — ID token nonce does not match"}
    for what, pattern in wanted.items():
        shown = [source for text, source in stored.items() if re.search(pattern, text)]
        assert shown, f"01: no teaching cell stores the refusal of {what}"
    assert any("tk.sandbox.authorize(req" in source for source in stored.values())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_frame_gives_teaching_and_exercise_minutes(path):
    frame = "".join(_cells(path)[1]["source"])
    found = re.search(r"\*\*Time \(class pace\):\*\* about (\d+) minutes of teaching and (\d+) of exercises", frame)
    assert found, f"{path.name}: the frame's time line does not give teaching and exercise minutes"
    exercises = sum("exercise" in _tags(c) for c in _cells(path))
    assert f"{exercises} exercises" in frame, f"{path.name}: the frame does not count its {exercises} exercises"
    assert "estimate" in frame
