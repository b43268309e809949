"""``toolkit walkthroughs DIR`` and the folder ``toolkit lab`` opens: the walkthroughs, their pages and samples
are copied, a file the user changed is never overwritten (and the report says why), a file an earlier copy wrote
is updated, the copied notebooks are trusted for the user; in a checkout the lab opens notebooks/, elsewhere a
seeded working folder in the user's home. Every link of a walkthrough lands inside the copied folder."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolkit import cli, walkthroughs

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


@pytest.fixture(autouse=True)
def _own_trust_database(tmp_path, monkeypatch):
    """The notary's database goes to a temporary folder, not the user's Jupyter data folder."""
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))


def _trusted(paths) -> list[bool]:
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()
    try:
        return [notary.check_signature(nbformat.read(p, as_version=4)) for p in paths]
    finally:
        notary.close()


def test_a_copy_holds_the_walkthroughs_their_pages_and_samples_all_trusted(tmp_path):
    report = walkthroughs.copy(tmp_path / "lessons")
    folder = tmp_path / "lessons"
    assert sorted(p.name for p in folder.glob("*.ipynb")) == NOTEBOOKS
    assert {p.name for p in (folder / "reference").iterdir()} == {"concepts.md", "api.md", "errors.md"}
    assert {p.name for p in (folder / "samples").iterdir()} == {"customers_busan.csv"}
    assert len(report.copied) == len(NOTEBOOKS) + 3 + 1 and not report.skipped and not report.updated
    assert sorted(report.signed) == NOTEBOOKS
    assert all(_trusted(sorted(folder.glob("*.ipynb"))))
    for name in NOTEBOOKS:
        assert (folder / name).read_bytes() == (REPO / "notebooks" / name).read_bytes()
    assert f"{len(report.copied)} copied" in str(report)


def test_a_changed_file_is_never_overwritten_and_an_untouched_old_copy_is_updated(tmp_path):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder)
    mine = folder / "00_quickstart.ipynb"
    mine.write_text(mine.read_text("utf-8").replace("toolkit", "my toolkit", 1), "utf-8")
    stranger = folder / "reference" / "errors.md"
    manifest = json.loads((folder / walkthroughs.MANIFEST).read_text("utf-8"))
    # an older toolkit's copy of api.md: the manifest says toolkit wrote exactly this
    old = folder / "reference" / "api.md"
    old.write_text("an older version\n", "utf-8")
    manifest["files"]["reference/api.md"] = walkthroughs._digest(old)
    del manifest["files"]["reference/errors.md"]          # as if the user had put this file there
    stranger.write_text("my own notes\n", "utf-8")
    (folder / walkthroughs.MANIFEST).write_text(json.dumps(manifest), "utf-8")
    (folder / "05_directions.ipynb").unlink()
    report = walkthroughs.copy(folder)
    assert "my toolkit" in mine.read_text("utf-8") and stranger.read_text("utf-8") == "my own notes\n"
    assert report.skipped["00_quickstart.ipynb"].startswith("changed since toolkit copied it")
    assert report.skipped["reference/errors.md"].startswith("not written by toolkit")
    assert report.updated == ["reference/api.md"] and old.read_bytes() == (REPO / "notebooks/reference/api.md").read_bytes()
    assert report.copied == ["05_directions.ipynb"]
    assert "00_quickstart.ipynb" not in report.signed and "05_directions.ipynb" in report.signed
    text = str(report)
    assert "skipped 00_quickstart.ipynb: changed since toolkit copied it" in text
    assert "skipped reference/errors.md: not written by toolkit" in text


def test_the_command_copies_and_says_what_it_did(tmp_path, capsys):
    assert cli.main(["walkthroughs", str(tmp_path / "w")]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"{len(NOTEBOOKS) + 4} copied, 0 updated, 0 already current, 0 skipped; "
                     rf"{len(NOTEBOOKS)} notebooks trusted", out), out
    assert "toolkit lab --notebooks" in out
    assert cli.main(["walkthroughs", str(tmp_path / "w"), "--no-trust"]) == 0
    assert "0 copied" in capsys.readouterr().out


def test_a_file_as_target_is_a_clear_error(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(ValueError, match="must be a folder"):
        walkthroughs.copy(target)


def test_every_link_of_a_copied_walkthrough_lands_in_the_copied_folder(tmp_path):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder, trust=False)
    checked = 0
    for nb in sorted(folder.glob("*.ipynb")):
        cells = json.loads(nb.read_text("utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if "://" in link or link.startswith(("#", "mailto:")):
                continue
            target = (folder / link.partition("#")[0]).resolve()
            assert target.is_relative_to(folder.resolve()), f"{nb.name}: {link} leaves the folder"
            assert target.exists(), f"{nb.name}: {link} is missing in the copy"
            checked += 1
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        assert "../" not in code, f"{nb.name} reads a file through ../"
    assert checked > 20


def test_the_lab_opens_the_checkout_here_and_a_seeded_home_folder_elsewhere(tmp_path, monkeypatch):
    folder, what = cli.lab_folder(None)
    assert folder == REPO / "notebooks" and "checkout" in what
    monkeypatch.setattr(walkthroughs, "in_checkout", lambda: None)
    monkeypatch.setattr(walkthroughs, "source", lambda: REPO / "notebooks")   # as the wheel's toolkit.notebooks
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder, what = cli.lab_folder(None)
    assert folder == tmp_path / "home" / "toolkit-walkthroughs" and "working folder" in what
    assert sorted(p.name for p in folder.glob("*.ipynb")) == NOTEBOOKS
    chosen, what = cli.lab_folder(str(folder))
    assert chosen == folder and f"{len(NOTEBOOKS)} walkthroughs in it trusted" in what
    with pytest.raises(cli.CliError, match="no such folder"):
        cli.lab_folder(str(tmp_path / "nowhere"))


def test_samples_are_found_through_the_toolkit_and_a_typo_gets_help():
    import toolkit.samples
    from toolkit.errors import ParameterError

    assert toolkit.samples.path("customers_busan.csv").is_file()
    with pytest.raises(ParameterError, match="did you mean 'customers_busan.csv'"):
        toolkit.samples.path("customers.csv")


def test_the_data_override_is_checked(monkeypatch, tmp_path):
    import toolkit.data

    monkeypatch.setenv("TOOLKIT_DATASETS", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="TOOLKIT_DATASETS"):
        toolkit.data.root()
    monkeypatch.setenv("TOOLKIT_DATASETS", str(tmp_path))
    assert toolkit.data.root() == tmp_path
    monkeypatch.delenv("TOOLKIT_DATASETS")
    assert (toolkit.data.root() / "navi" / "roads.json.gz").is_file()
