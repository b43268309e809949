"""Lessons 02, 03a and 03b as an instructor reviews them: 02 gets to code early, heads its sections, draws a
complete flow, shows httpx before an exercise needs it and has an exercise on the delivery log; each of the three
has a reasoning exercise (explain, debug, interpret or write) and objectives a learner can be checked against."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
REASONING = {"explain", "debug", "interpret", "write"}


def _cells(name: str) -> list[dict]:
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text("utf-8"))["cells"]


def _src(cell: dict) -> str:
    return "".join(cell["source"])


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def words_before_first_code(cells: list[dict]) -> int:
    words = 0
    for cell in cells:
        if cell["cell_type"] == "code":
            return words
        words += len(_src(cell).split())
    return words


def longest_run_without_heading(cells: list[dict]) -> int:
    """The most cells in a row, after the first code cell, that no ``## `` heading starts."""
    first = next(i for i, c in enumerate(cells) if c["cell_type"] == "code")
    run = longest = 0
    for cell in cells[first:]:
        if cell["cell_type"] == "markdown" and re.match(r"^## ", _src(cell)):
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    return longest


def diagram_problems(text: str) -> list[str]:
    """A Mermaid flowchart's loose ends: a decision ``{…}`` without both a yes and a no edge, or an inbox path
    node (``["/…"]``) that leads nowhere."""
    problems = []
    for node in re.findall(r"(\w+)\{\"", text):
        labels = re.findall(rf"^\s*{node}\s*-[-.]*>\|\"(\w+)\"\|", text, re.M)
        if not {"yes", "no"} <= set(labels):
            problems.append(f"decision {node} has the branches {labels}")
    for node in re.findall(r"(\w+)\[\"/[\w-]+\"\]", text):
        if not re.search(rf"^\s*{node}\s*-[-.]*>", text, re.M):
            problems.append(f"{node} leads nowhere")
    return problems


def test_the_diagram_check_finds_loose_ends():
    whole = '''flowchart LR
    P["Platform"] --> U["/unlink"]
    U --> K{"key right?"}
    K -->|"yes"| A["act"]
    K -->|"no"| B["ignore"]'''
    assert diagram_problems(whole) == []
    assert diagram_problems(whole.replace('    K -->|"no"| B["ignore"]', "")) == [
        "decision K has the branches ['yes']"]
    assert diagram_problems(whole + '\n    P --> S["/share"]') == ["S leads nowhere"]


def test_02_gets_to_code_early_and_heads_its_sections():
    cells = _cells("02_webhooks_and_business")
    assert words_before_first_code(cells) <= 330
    assert longest_run_without_heading(cells) <= 10
    headings = [_src(c).splitlines()[0] for c in cells if c["cell_type"] == "markdown" and _src(c).startswith("## ")]
    assert len(headings) >= 5, headings


def test_02_draws_a_complete_flow_with_the_platform_helper():
    cells = _cells("02_webhooks_and_business")
    diagrams = [m for c in cells for m in re.findall(r"```mermaid\n(.*?)```", _src(c), re.S)]
    assert len(diagrams) == 1
    assert diagram_problems(diagrams[0]) == []
    for word in ("/share", "/channel", "tk.events.platform", "tk.events.deliveries()"):
        assert word in diagrams[0], word


def test_02_shows_httpx_before_an_exercise_needs_it_and_asks_about_the_delivery_log():
    cells = _cells("02_webhooks_and_business")
    taught = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and "solution" not in _tags(c)
              and "httpx.post(" in _src(c)]
    asked = [i for i, c in enumerate(cells) if "exercise" in _tags(c) and "httpx" in _src(c)]
    assert taught and asked and min(taught) < min(asked)
    log = [c for c in cells if "exercise" in _tags(c) and "delivery log" in _src(c)]
    assert log and any(t.startswith("kind:") and t[5:] in REASONING for t in _tags(log[0]))


@pytest.mark.parametrize("name", ["02_webhooks_and_business", "03a_story_and_messenger",
                                  "03b_channel_and_customer_files"])
def test_each_lesson_has_a_reasoning_exercise_and_measurable_objectives(name):
    cells = _cells(name)
    kinds = [t[5:] for c in cells if "exercise" in _tags(c) for t in _tags(c) if t.startswith("kind:")]
    assert set(kinds) & REASONING, kinds
    frame = _src(cells[1])
    objectives = re.findall(r"^- (\w+)", frame.split("**Exercises**")[0], re.M)
    assert len(objectives) >= 3, objectives
    vague = [verb for verb in objectives if verb in {"see", "understand", "learn", "know", "the"}]
    assert not vague, f"{name}: objectives that cannot be measured start with {vague}"
