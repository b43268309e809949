"""The README's examples run as they are against the sandbox."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
SECTION = README[README.index("## First steps"):README.index("## The sandbox")]
BLOCKS = re.findall(r"```python\n(.*?)```", SECTION, flags=re.S)


def test_readme_has_an_example_per_area():
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    for name in ("AUTH", "API", "LOCAL", "NAVI", "STATUS"):
        monkeypatch.delenv(f"TOOLKIT_{name}_URL", raising=False)
    import toolkit

    namespace = {"toolkit": toolkit}
    exec(compile(BLOCKS[index], f"README example {index}", "exec"), namespace)
    assert "tk" in namespace
