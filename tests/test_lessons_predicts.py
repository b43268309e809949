"""Predicts stay blind (issue 42, point 3): between a predict exercise's question and its reveal — the cell tagged
``reveal`` that demonstrates the answer — no prose, diagram or stored output states the answer, in either edition,
nor does the prose just above the question; the learner's edition keeps no output from the question to the end of
the section that demonstrates it. And an explain exercise given as a choice has a right option that is not a
sentence of its lesson."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.lesson_answers import RULES
from toolkit.walkthroughs import blind_cells, edition

NOTEBOOKS = {p.name.split("_")[0]: p for p in (Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb")}

# What would state each predict's answer (its value, in the lesson's own terms), besides its letter.
TELLS = {
    "00.1": [r"refus\w* (it )?before", r"before anything (is|was) sent", r"\b1 to 31\b", r"ParameterError"],
    "01.1": [r"state_mismatch", r"before (it|anything is) sen[dt]", r"compar\w+ it with the request", r"If not, refuse",
             r"checked when the browser comes back"],
    "02.1": [r"invalid_audience", r"\bin order\b", r"then the\s+(RS256 )?signature", r"audience[^.]{0,30}before"],
    "03a.3": [r"-532", r"failure_info", r"partial failure", r"in the middle of a call"],
    "03b.1": [r"omitted", r"leaves? (them )?out", r"not linked[^.]{0,30}(left out|omitted)"],
    "04a.3": [r"\b45\b", r"ceiling"],
    "04b.1": [r"stop(s|ped)? cleanly", r"not_done", r"QuotaStopWarning", r"how to (go on|resume)"],
    "05.2": [r"longer and slower", r"\b4,?305\b", r"\b607\b"],
    "06.1": [r"restaurants (lead|are the (most|largest))", r"FD6[^.]{0,20}(most|largest|every district)"],
    "07.1": [r"98\.8", r"minutes up ÷ minutes counted", r"[Aa]vailability is time", r"down while any of its APIs"],
}
PREDICTS = sorted(eid for eid, rule in RULES.items() if rule.get("predict"))


def _cells(eid: str) -> list[dict]:
    return json.loads(NOTEBOOKS[eid.split(".")[0]].read_text("utf-8"))["cells"]


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def _shown(cell: dict) -> str:
    """What a reader sees of a stored output: its text, plain text and markdown (a figure's text alternative)."""
    out = []
    for o in cell.get("outputs", []):
        out.append("".join(o.get("text", "")))
        data = o.get("data") or {}
        for mime in ("text/plain", "text/markdown"):
            out.append("".join(data.get(mime, "")))
        if o.get("output_type") == "error":
            out.append(f"{o.get('ename')}: {o.get('evalue')}")
    return "\n".join(out)


def places(eid: str, cells: list[dict]) -> tuple[int, int, int]:
    """(question, solution, reveal) indices of predict exercise ``eid``."""
    q = next(i for i, c in enumerate(cells) if "exercise" in _tags(c) and f"**Exercise {eid}**" in _src(c))
    reveal = next((j for j in range(q + 1, len(cells)) if "reveal" in _tags(cells[j]) or "predict" in _tags(cells[j])),
                  None)
    assert reveal is not None and "reveal" in _tags(cells[reveal]), f"{eid}: no cell tagged 'reveal' after it"
    return q, q + 1, reveal


def screen(cells: list[dict], q: int, reveal: int) -> list[int]:
    """The cells whose words a learner reads while predicting: the markdown just above the question (up to a code
    cell) and everything between the question and its reveal, but the folded solution."""
    above = []
    i = q - 1
    while i >= 0 and cells[i]["cell_type"] == "markdown":
        above.append(i)
        i -= 1
    return sorted(above) + [j for j in range(q + 2, reveal)]


@pytest.mark.parametrize("eid", PREDICTS)
def test_every_predict_has_its_tells(eid):
    assert eid in TELLS, f"{eid}: say what would give its answer away (TELLS)"


@pytest.mark.parametrize("edition_name", ["instructor", "learner"])
@pytest.mark.parametrize("eid", PREDICTS)
def test_nothing_between_a_predicts_question_and_its_reveal_states_the_answer(eid, edition_name):
    nb = {"cells": _cells(eid), "metadata": {}}
    cells = edition(nb, edition_name)["cells"]
    q, solution, reveal = places(eid, cells)
    assert "solution" in _tags(cells[solution]), f"{eid}: the solution does not follow the question"
    letter = RULES[eid]["v"]
    for i in screen(cells, q, reveal):
        cell = cells[i]
        said = _src(cell) if cell["cell_type"] == "markdown" else _shown(cell)
        for tell in TELLS[eid]:
            found = re.search(tell, said)
            assert not found, f"{eid} ({edition_name}), cell {i}: {found.group()!r} states the answer before its reveal"
        if cell["cell_type"] == "markdown":
            assert not re.search(rf"\(\s*{letter}\s*\)", said), f"{eid}: cell {i} names the letter ({letter})"


@pytest.mark.parametrize("eid", PREDICTS)
def test_the_learners_edition_keeps_no_output_to_the_end_of_the_section_that_shows_it(eid):
    cells = edition({"cells": _cells(eid), "metadata": {}}, "learner")["cells"]
    q, _, reveal = places(eid, cells)
    end = next((j for j in range(reveal + 1, len(cells)) if cells[j]["cell_type"] == "markdown"
                and re.match(r"\s{0,3}#{1,6}\s", _src(cells[j]))), len(cells))
    kept = [j for j in range(q, end) if cells[j]["cell_type"] == "code" and cells[j].get("outputs")]
    assert not kept, f"{eid}: the learner's edition keeps the outputs of cells {kept} before the section's end"
    assert set(range(q, end)) <= blind_cells(_cells(eid))


def test_the_blind_span_falls_back_to_the_next_heading_without_a_reveal():
    cells = [{"cell_type": "markdown", "metadata": {"tags": ["predict"]}, "source": "Which?"},
             {"cell_type": "code", "metadata": {}, "source": "1"},
             {"cell_type": "markdown", "metadata": {}, "source": "## Next"},
             {"cell_type": "code", "metadata": {}, "source": "2"},
             {"cell_type": "markdown", "metadata": {"tags": ["predict"]}, "source": "Which now?"},
             {"cell_type": "code", "metadata": {}, "source": "3"},
             {"cell_type": "markdown", "metadata": {}, "source": "Still the same section"},
             {"cell_type": "code", "metadata": {"tags": ["reveal"]}, "source": "4"},
             {"cell_type": "code", "metadata": {}, "source": "5"},
             {"cell_type": "markdown", "metadata": {}, "source": "### The end"},
             {"cell_type": "code", "metadata": {}, "source": "6"}]
    assert sorted(blind_cells(cells)) == [0, 1, 4, 5, 6, 7, 8]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w가-힣]+", text.lower()) if len(w) > 3}


EXPLAIN_CHOICES = sorted(eid for eid, rule in RULES.items()
                         if rule["task"] == "explain" and rule["kind"] in ("choice", "claims"))


@pytest.mark.parametrize("eid", EXPLAIN_CHOICES)
def test_an_explain_choices_right_options_are_not_sentences_of_its_lesson(eid):
    """An explain exercise given as a choice: its right option does not restate a sentence of the lesson (else the
    learner matches words instead of explaining)."""
    cells = _cells(eid)
    q = next(i for i, c in enumerate(cells) if "exercise" in _tags(c) and f"**Exercise {eid}**" in _src(c))
    options = dict(re.findall(r"^- \(([a-e])\) (.*(?:\n  .*)*)", _src(cells[q]), re.M))
    prose = " ".join(_src(c) for i, c in enumerate(cells) if c["cell_type"] == "markdown" and i != q)
    sentences = re.split(r"(?<=[.!?:])\s+", prose)
    for letter in RULES[eid]["v"]:
        mine = _words(options[letter])
        overlap = max(len(mine & _words(s)) / len(mine) for s in sentences)
        assert overlap < 0.6, f"{eid} ({letter}) restates a sentence of the lesson ({overlap:.0%} of its words)"


def test_the_write_and_explain_exercises_ask_for_the_learners_own_sentences():
    free = {eid for eid, rule in RULES.items() if rule["task"] in ("write", "explain") and rule["kind"] == "facts"}
    assert {"04a.1", "07.3"} <= free
    for eid in free:
        q = next(c for c in _cells(eid) if "exercise" in _tags(c) and f"**Exercise {eid}**" in _src(c))
        assert "one letter" not in _src(q) and re.search(r"your (own )?(sentences|text)", _src(q)), eid
