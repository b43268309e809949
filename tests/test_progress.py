"""Progress bars end as a line saying how the work ended: in a kernel (nbclient here) the stored output of a
geocode with ``progress=True`` is ``geocode: N/N in X s`` as text, with no widget view left behind (a stored
widget view needs the kernel that made it); outside a kernel the counts are the same."""
from __future__ import annotations

import json
import re

import pytest

from toolkit.progress import Progress

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_line_says_how_the_work_ended():
    with Progress(5, "geocode", "query", initial=2, disable=True) as bar:
        bar.update(3)
    assert re.fullmatch(r"geocode: 5/5 in \d+\.\d s \(2 from the cache\)", bar.line()), bar.line()
    stopped = Progress(93, "geocode", "query", disable=True)
    stopped.update(60)
    stopped.close()
    stopped.close()                                  # twice: nothing more
    assert re.fullmatch(r"geocode: stopped at 60/93 in \d+\.\d s", stopped.line()), stopped.line()


def test_outside_a_kernel_it_is_tqdms_text_bar(capsys):
    with Progress(3, "add_users", "user") as bar:
        bar.update(3)
    assert "add_users: 100%" in capsys.readouterr().err and bar.line().startswith("add_users: 3/3 in ")


@pytest.mark.timeout(300)
def test_a_kernel_stores_the_final_line_not_the_widget(tmp_path, monkeypatch):
    pytest.importorskip("ipywidgets")
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    source = ("import toolkit\n"
              "tk = toolkit.connect(fresh=True)\n"
              "geo = tk.local.geocode(['전포동 341-17', '중앙대로 692', '해운대로 626'])\n"
              "print(len(geo), 'rows')")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=240, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = nb.cells[0].outputs
    assert not [o for o in outputs if WIDGET_VIEW in o.get("data", {})], json.dumps(outputs)[:2000]
    lines = [o["data"]["text/plain"] for o in outputs if o.output_type == "display_data"]
    assert len(lines) == 1 and re.fullmatch(r"geocode: 3/3 in \d+\.\d s", lines[0]), outputs
    assert any("3 rows" in o.get("text", "") for o in outputs if o.output_type == "stream")
