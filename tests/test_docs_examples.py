"""The pages the lessons link to match the code: every ``python`` example in ``docs/`` and
``notebooks/reference/*.md`` runs as it is against the sandbox (as tests/test_readme.py runs the README's), and every
``tk.…(`` call those pages and the lessons' prose name exists on a client."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "notebooks" / "reference").glob("*.md"))
EXAMPLES = [(page, i, block) for page in PAGES
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


@pytest.mark.parametrize("page,index,block", EXAMPLES, ids=lambda v: v.name if isinstance(v, Path) else str(v)[:0])
def test_example_runs(page, index, block, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    for name in ("AUTH", "API", "LOCAL", "NAVI", "STATUS"):
        monkeypatch.delenv(f"TOOLKIT_{name}_URL", raising=False)
    exec(compile(block, f"{page.name} example {index}", "exec"), {})


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
