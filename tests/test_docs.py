"""The user-facing documents (notebooks/reference/, docs/ and its site's pages): the API reference is current, and every
link between the documents, the README and the notebooks lands on a file or an anchor that exists (the site's build,
tests/test_docs_site.py, checks them again as Sphinx resolves them)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REFERENCE = ROOT / "notebooks" / "reference"


def test_api_reference_is_current():
    done = subprocess.run([sys.executable, str(DOCS / "build_reference.py"), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_api_reference_lists_every_endpoint_with_a_toolkit_call():
    text = (REFERENCE / "api.md").read_text("utf-8")
    spec = json.loads((ROOT / "tests" / "data" / "spec_endpoints.json").read_text("utf-8"))
    for row in spec:
        line = next((ln for ln in text.splitlines() if f"`{row['method']} {row['host']}{row['path']}`" in ln), None)
        assert line is not None, row
        assert "`tk." in line, f"no toolkit call named for {row['method']} {row['path']}"


def _slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub, JupyterLab) gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text("utf-8")
    headings = {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}
    return set(re.findall(r'<a id="([^"]+)"></a>', text)) | headings


def _links(text: str):
    return re.findall(r"\]\(([^)\s]+)\)", text)


def _sources():
    yield ROOT / "README.md", (ROOT / "README.md").read_text("utf-8")
    pages = [p for p in DOCS.rglob("*.md") if "_build" not in p.relative_to(DOCS).parts]
    for md in [*pages, *REFERENCE.glob("*.md"), ROOT / "deploy" / "README.md", ROOT / "CHANGELOG.md"]:
        yield md, md.read_text("utf-8")
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text("utf-8"))["cells"]
        yield nb, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def test_links_to_docs_land_on_files_and_anchors():
    checked = 0
    for where, text in _sources():
        for link in _links(text):
            if "://" in link or link.startswith("#") or link.startswith("mailto:"):
                continue
            target, _, anchor = link.partition("#")
            path = (where.parent / target).resolve()
            assert path.exists(), f"{where.name}: link to a missing file {link}"
            if anchor and path.suffix == ".md":
                assert anchor in _anchors(path), f"{where.name}: link to a missing anchor {link}"
            checked += 1
    assert checked > 0
