"""The README is the first page: what toolkit is, the two set-up commands first (with the markers ``.ci/run`` and
the tests read), installing into one's own Jupyter under the distribution's name, the first cell (which runs as it
is against the sandbox), and where to go next: every page of the documentation it names exists. The rest of what
it used to hold lives in the documentation site (``docs/``), whose examples tests/test_docs_examples.py runs. The
first cell runs as a Jupyter cell in tests/test_readme_cells.py."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")


def test_the_readme_is_a_first_page():
    lines = README.splitlines()
    assert len(lines) <= 180, f"{len(lines)} lines: the README is the first page; the rest belongs in docs/"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[0].startswith("## Set-up"), headings        # the two set-ups come first
    lab, test = README.index("<!-- lab-command -->"), README.index("<!-- test-command -->")
    assert lab < test < README.index("## First steps")
    assert 'pip install "social-api-toolkit[lab]"' in README
    assert not re.search(r"pip install [\"']?toolkit\[", README), "the registry's `toolkit` is another project"


def test_the_readme_points_into_the_documentation():
    linked = {(ROOT / link.split("#")[0]).resolve() for link in re.findall(r"\]\(([^)\s:]+)\)", README)}
    pages = {p.resolve() for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts}
    assert {ROOT / "docs" / "getting-started.md", ROOT / "docs" / "api" / "index.md",
            ROOT / "docs" / "walkthroughs.md"} <= linked
    guide = {p for p in pages if p.parent == ROOT / "docs" / "guide" and p.name != "index.md"}
    assert guide and guide <= linked, sorted(p.name for p in guide - linked)
    assert "sphinx -W" in README, "the README names the one command that builds the site"
