"""The snippets of the first steps and the reports page behave in Jupyter as they read (the README's first steps
and the documentation's pages, where the README's sections moved): run as cells of a real kernel (inline
matplotlib, as a reader's Jupyter shows them), each shows one figure, the first steps show their table; the
real-service snippet, run with its ``https://…`` placeholders as written, is refused at once with a
``ConfigurationError`` naming the host and what a base URL looks like; the README and getting started say what
the constraints file is for."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def text(page: str) -> str:
    return (ROOT / page).read_text("utf-8")


def section(page: str, title: str) -> str:
    """The section of ``page`` under the heading ``title`` (any level), up to the next heading of its level."""
    body = text(page)
    found = re.search(rf"^(#+) {re.escape(title)}", body, flags=re.M)
    assert found, (page, title)
    level = found.group(1)
    end = re.search(rf"^{level} ", body[found.end():], flags=re.M)
    return body[found.start():found.end() + end.start() if end else len(body)]


def blocks(page: str, title: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", section(page, title), flags=re.S)


REPORTS = ("docs/guide/reports.md", "Reports that ship")
CELLS = [(("README.md", "First steps"), 0), (("docs/getting-started.md", "First steps"), 0), (REPORTS, 0),
         (REPORTS, 1)]


def _figures(outputs) -> int:
    return sum("image/png" in out.get("data", {}) for out in outputs
               if out.output_type in ("display_data", "execute_result"))


@pytest.mark.timeout(600)
def test_each_snippet_shows_one_figure_as_a_jupyter_cell(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    for name in [n for n in os.environ if n.startswith(("TOOLKIT_", "MPL"))]:
        monkeypatch.delenv(name)
    sources = [blocks(*where)[i] for where, i in CELLS]
    assert sources[0] == sources[1], "the README's first steps and getting started's are one cell (run once here)"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources[1:]])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = {}
    for ((page, title), i), cell in zip(CELLS[1:], nb.cells):
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, (page, title, i, errors)
        shown[f"{page} {title} #{i}"] = _figures(cell.outputs)
    assert shown == {key: 1 for key in shown}, shown
    first = nb.cells[0].outputs
    result = [o for o in first if o.output_type == "execute_result"]
    assert len(result) == 1 and "text/html" in result[0].data and "<table" in result[0].data["text/html"]
    assert first.index(result[0]) < max(i for i, o in enumerate(first) if "image/png" in o.get("data", {})), \
        "the table is the cell's result, the figure follows it"
    weekly = "".join(o.get("text", "") for o in nb.cells[1].outputs if o.output_type == "stream")
    assert "availability" in weekly.lower() or "%" in weekly, weekly


def test_the_real_service_snippet_as_written_is_refused_naming_the_host_and_the_url_shape():
    import toolkit
    from toolkit.errors import ConfigurationError

    snippet = blocks("docs/guide/real-service.md", "Configuration for the real service")[0]
    assert "https://…" in snippet
    with pytest.raises(ConfigurationError) as caught:
        exec(compile(snippet, "README real-service snippet", "exec"), {"toolkit": toolkit})
    message = str(caught.value)
    assert "'auth'" in message and "https://…" in message, message
    assert "http:// or https://, a host name" in message and "e.g. 'https://api.example.com'" in message, message
    assert "TOOLKIT_AUTH_URL" in message and isinstance(caught.value, ValueError)


@pytest.mark.parametrize("url,why", [("https://…", "not a URL (Invalid IDNA hostname"), ("https://", "no host name"),
                                     ("ftp://api.example.com", "must start with http:// or https://"),
                                     ("https://exa mple.com", "is not a host name"), ("api.example.com", "must start with")])
def test_a_malformed_base_url_names_the_host_key(url, why):
    from toolkit.config import BaseURLError, Hosts

    hosts = {h: "https://x.example.test" for h in ("auth", "api", "local", "navi", "status")}
    with pytest.raises(BaseURLError, match=re.escape(why)) as caught:
        Hosts(**{**hosts, "navi": url})
    assert str(caught.value).startswith(f"base URL of the 'navi' host is {url!r}"), caught.value
    assert "TOOLKIT_NAVI_URL" in str(caught.value)


def test_good_base_urls_pass():
    from toolkit.config import Hosts

    hosts = Hosts(auth="https://auth.example.com/", api="http://127.0.0.1:8080/api", local="https://로컬.example.kr",
                  navi="https://navi.example.com", status="http://localhost:1/status")
    assert hosts.auth == "https://auth.example.com" and hosts.api == "http://127.0.0.1:8080/api"


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_the_readme_says_when_to_use_the_constraints_file(page):
    setup, own = section(page, "Set-up (a fresh machine with Python 3.11)"), section(
        page, "Install it into your own Jupyter")
    assert "-c constraints.txt" in setup and "constraints.txt" not in re.findall(r"```\n(.*?)```", own, re.S)[0]
    assert "downgrade" in " ".join(setup.split()) and "downgrade" in " ".join(own.split())
    assert 'pip install "social-api-toolkit[lab]"' in own
