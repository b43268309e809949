"""Every shell line of the README and of the documentation's pages (``docs/``, where the README's sections moved)
works as written after the README's set-up command (which makes ``.venv`` in the checkout): the checkout's lines
call ``.venv/bin/...`` (a bare ``python`` is not the venv's until it is activated), every program and file they
name exists, and the quick ones run. The lines for a user's own environment (the sections on installing into
one's own Jupyter) are run by tests/package against a real install."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "docs" / "getting-started.md", REPO / "docs" / "development.md",
         *sorted((REPO / "docs" / "guide").glob("*.md"))]
"""The README and the pages its sections moved to (the instructors' and deploy guides speak of other machines)."""


def _checkout_part(text: str) -> str:
    """``text`` without its section on installing into one's own Jupyter (a user's environment, not the venv)."""
    start = text.find("## Install it into your own Jupyter")
    if start < 0:
        return text
    end = text.find("\n## ", start + 4)
    return text[:start] + (text[end:] if end > 0 else "")


CHECKOUT = "\n".join(_checkout_part(p.read_text("utf-8")) for p in PAGES)
BIN = Path(sys.prefix) / "bin"
"""The environment the suite runs in: the README's ``.venv`` when run by the README's test command."""


def _lines() -> list[str]:
    """Shell lines of the checkout's part of the README: lines of plain fences that call a program, and inline
    code that starts with ``.venv/bin/``."""
    found, fence = [], None
    for line in CHECKOUT.splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence == "" and re.match(r"(\.venv/bin/\S+|python3?(\.\d+)?|pip|toolkit|jupyter)\s", line):
            found.append(line)
    found += [" ".join(code.split()) for code in re.findall(r"`(\.venv/bin/[^`]+)`", CHECKOUT)]
    return found


LINES = list(dict.fromkeys(_lines()))      # a line the README and a page both show is checked once


def test_the_checkouts_shell_lines_call_the_venv():
    assert len(LINES) >= 6, LINES
    for line in LINES:
        for part in re.split(r"\s*&&\s*", line):
            word = part.split()[0]
            assert word.startswith(".venv/bin/") or word == "python3.11", \
                f"{line!r}: {word!r} is not the venv's until it is activated; write .venv/bin/{word}"


@pytest.mark.parametrize("line", LINES)
def test_every_program_and_file_a_line_names_exists(line):
    for part in re.split(r"\s*&&\s*", line):
        words = shlex.split(part.split("  #")[0])
        if words[0].startswith(".venv/bin/"):
            assert (BIN / words[0][len(".venv/bin/"):]).exists(), f"{line!r}: no {words[0]} in the venv"
        for word in words[1:]:
            if re.fullmatch(r"(notebooks|tests|docs|datasets)/[\w./-]+\.(py|ipynb|md)", word):
                assert (REPO / word).is_file(), f"{line!r}: {word} does not exist"


def _run(line: str, timeout: float = 120) -> subprocess.CompletedProcess:
    words = shlex.split(line)
    words[0] = str(BIN / words[0][len(".venv/bin/"):])
    return subprocess.run(words, cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_the_first_steps_shell_line_runs_as_written():
    (line,) = [ln for ln in LINES if ln.startswith(".venv/bin/python -c")]
    done = _run(line)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "로그인" in done.stdout and "GREEN" in done.stdout


def test_the_print_config_line_runs():
    done = _run(".venv/bin/toolkit sandbox --print-config --port 8123")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hosts"]["api"] == "http://127.0.0.1:8123/api"
