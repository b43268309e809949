"""The pages the lessons and the site link to match the code: every ``python`` example in ``docs/`` (the user
guide and getting started included, as the README's examples ran before they moved there) and in
``notebooks/reference/*.md`` runs as it is against the sandbox, and every ``tk.…(`` call those pages and the
lessons' prose name exists on a client.

The user guide's examples follow the first steps' ``import toolkit`` (they run with ``toolkit`` imported); the
other pages' examples stand alone. Two kinds are run elsewhere, not twice: the cells that tests/test_readme_cells.py
runs in a Jupyter kernel (getting started's first steps, the reports page), and the real-service snippet, which
is refused on purpose (its placeholders; checked there too)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.relative_to(DOCS).parts) + \
    sorted((ROOT / "notebooks" / "reference").glob("*.md"))
AFTER_FIRST_STEPS = [DOCS / "guide", DOCS / "getting-started.md"]
"""Pages whose examples follow the first steps' ``import toolkit``."""
RUN_ELSEWHERE = {DOCS / "getting-started.md", DOCS / "guide" / "reports.md", DOCS / "guide" / "real-service.md"}
EXAMPLES = [(page, i, block) for page in PAGES if page not in RUN_ELSEWHERE
            for i, block in enumerate(re.findall(r"```python\n(.*?)```", page.read_text("utf-8"), flags=re.S))]
CALL = re.compile(r"`(tk(?:\.[a-z_]\w*)+)\(")


def _prose() -> list[tuple[str, str]]:
    texts = [(p.relative_to(ROOT).as_posix(), p.read_text("utf-8")) for p in PAGES]
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text("utf-8"))["cells"]
        texts.append((nb.name, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")))
    return texts


def test_there_are_examples():
    assert EXAMPLES, "no python example in docs/ or notebooks/reference/"
    guide = {page.name for page, _, _ in EXAMPLES if page.parent == DOCS / "guide"}
    assert len(guide) >= 6, guide         # an example per area of the user guide


@pytest.mark.parametrize("page,index,block", EXAMPLES,
                         ids=lambda v: v.relative_to(ROOT).as_posix() if isinstance(v, Path) else str(v)[:0])
def test_example_runs(page, index, block, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    for name in ("AUTH", "API", "LOCAL", "NAVI", "STATUS"):
        monkeypatch.delenv(f"TOOLKIT_{name}_URL", raising=False)
    namespace: dict = {}
    if any(page == p or p in page.parents for p in AFTER_FIRST_STEPS):
        import toolkit

        namespace["toolkit"] = toolkit
    exec(compile(block, f"{page.name} example {index}", "exec"), namespace)


def test_every_named_call_exists():
    import toolkit

    tk = toolkit.connect(fresh=True)
    missing = []
    for where, text in _prose():
        for path in sorted(set(CALL.findall(text))):
            obj = tk
            for part in path.split(".")[1:]:
                if not hasattr(obj, part):
                    missing.append(f"{where}: {path}(…)")
                    break
                obj = getattr(obj, part)
    assert not missing, "calls named in prose that the client does not have:\n  " + "\n  ".join(missing)
