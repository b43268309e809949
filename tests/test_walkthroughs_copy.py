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


def _nb(path) -> dict:
    return json.loads(Path(path).read_text("utf-8"))


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
    for name in NOTEBOOKS:       # the same cells as the repository's, in the learner's edition
        assert walkthroughs.fingerprint(_nb(folder / name)) == walkthroughs.fingerprint(_nb(REPO / "notebooks" / name))
    assert f"{len(report.copied)} copied" in str(report)


def test_a_changed_file_is_never_overwritten_and_an_untouched_old_copy_is_updated(tmp_path):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder)
    mine = folder / "00_quickstart.ipynb"
    edited = _nb(mine)
    edited["cells"][0]["source"] = "".join(edited["cells"][0]["source"]).replace("toolkit", "my toolkit", 1)
    mine.write_text(json.dumps(edited), "utf-8")
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
    assert report.skipped["00_quickstart.ipynb"].startswith("its cells changed since toolkit copied it")
    assert report.skipped["reference/errors.md"].startswith("not written by toolkit")
    assert report.updated == ["reference/api.md"] and old.read_bytes() == (REPO / "notebooks/reference/api.md").read_bytes()
    assert report.copied == ["05_directions.ipynb"]
    assert "00_quickstart.ipynb" not in report.signed and "05_directions.ipynb" in report.signed
    text = str(report)
    assert "skipped 00_quickstart.ipynb: its cells changed since toolkit copied it" in text
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


def test_the_lab_opens_the_learners_edition_of_the_checkout_and_a_seeded_home_folder_elsewhere(tmp_path, monkeypatch):
    folder, what = cli.lab_folder(None, instructor=True)              # the instructor asks for every answer
    assert folder == REPO / "notebooks" and "instructor's edition" in what
    checkout = tmp_path / "checkout"                                  # a checkout elsewhere: its lessons/ is written
    monkeypatch.setattr(walkthroughs, "in_checkout", lambda: checkout)
    monkeypatch.setattr(walkthroughs, "source", lambda: REPO / "notebooks")
    folder, what = cli.lab_folder(None)                                # the README's command: the learner's edition
    assert folder == checkout / "lessons" and "learner's edition" in what and "--instructor" in what
    assert sorted(p.name for p in folder.glob("*.ipynb")) == NOTEBOOKS
    solutions = [c for c in _nb(folder / "05_directions.ipynb")["cells"] if "solution" in c["metadata"].get("tags", [])]
    assert solutions and not any(c["outputs"] for c in solutions)
    folder, what = cli.lab_folder(None)                                # run again: kept, nothing overwritten
    assert folder == checkout / "lessons" and "learner's edition" in what
    monkeypatch.setattr(walkthroughs, "in_checkout", lambda: None)
    monkeypatch.setattr(walkthroughs, "source", lambda: REPO / "notebooks")   # as the wheel's toolkit.notebooks
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder, what = cli.lab_folder(None)
    assert folder == tmp_path / "home" / "toolkit-walkthroughs" and "working folder" in what
    assert sorted(p.name for p in folder.glob("*.ipynb")) == NOTEBOOKS
    assert "learner's edition" in what
    solutions = [c for c in _nb(folder / "00_quickstart.ipynb")["cells"] if "solution" in c["metadata"].get("tags", [])]
    assert solutions and not any(c["outputs"] for c in solutions)        # the learner's edition
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


# ---------------------------------------------------------------- opened is not changed; editions; the kernel
KERNEL = {"name": "toolkit", "display_name": "Python (toolkit)", "language": "python"}


def _as_jupyterlab_saves(path: Path, *, run: bool = True) -> None:
    """What JupyterLab does to a notebook it opens, runs and saves, without an edit: ``collapsed`` and execution
    timings in cell metadata, its own kernelspec display name and language_info, widget state, new outputs and
    execution counts, and its own JSON layout (nbformat's writer)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    nb.metadata.kernelspec["display_name"] = "Python 3 (ipykernel)"
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.2"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2,
                                                                             "version_minor": 0}}
    for n, cell in enumerate(nb.cells):
        cell.metadata["collapsed"] = True
        if cell.cell_type == "code" and run:
            cell.metadata["execution"] = {"iopub.status.idle": "2026-01-01T00:00:00Z"}
            cell.execution_count = n + 1
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"run {n}\n")]
    nbformat.write(nb, path)


def _edit(path: Path, how) -> None:
    nb = _nb(path)
    how(nb["cells"])
    path.write_text(json.dumps(nb, indent=2), "utf-8")


@pytest.fixture
def release2(tmp_path, monkeypatch):
    """A newer toolkit: the shipped walkthroughs with one sentence changed in 00 and in 02 (01 and the others as
    before). Returns a function that makes it the shipped edition."""
    v2 = tmp_path / "v2"
    import shutil

    shutil.copytree(REPO / "notebooks", v2, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for name in ("00_quickstart.ipynb", "02_webhooks_and_business.ipynb"):
        nb = _nb(v2 / name)
        nb["cells"][0]["source"] = "".join(nb["cells"][0]["source"]) + "\n\nNew in this release.\n"
        (v2 / name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return lambda: monkeypatch.setattr(walkthroughs, "source", lambda: v2)


def test_a_walkthrough_opened_run_and_saved_is_upgraded_and_an_edited_one_is_not(tmp_path, release2):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder, kernelspec=KERNEL)
    for name in NOTEBOOKS:
        _as_jupyterlab_saves(folder / name, run=name != "00_quickstart.ipynb")
    before = (folder / "01_login_and_consent.ipynb").read_bytes()
    assert walkthroughs.copy(folder, kernelspec=KERNEL).summary().startswith(
        f"0 copied, 0 updated, {len(NOTEBOOKS) + 4} already current, 0 skipped")
    assert (folder / "01_login_and_consent.ipynb").read_bytes() == before    # the learner's run is kept
    _edit(folder / "03a_story_and_messenger.ipynb", lambda cells: cells[3].update(source="x = 'mine'"))
    _edit(folder / "03b_channel_and_customer_files.ipynb", lambda cells: cells.insert(2, {
        "cell_type": "code", "metadata": {}, "source": "print('my note')", "outputs": [], "execution_count": None}))
    _edit(folder / "04a_local_search.ipynb", lambda cells: cells.pop(5))
    _edit(folder / "02_webhooks_and_business.ipynb", lambda cells: cells[2].update(source="## my heading"))
    release2()
    report = walkthroughs.copy(folder, kernelspec=KERNEL)
    assert report.updated == ["00_quickstart.ipynb"], report.summary()
    assert "New in this release." in "".join(_nb(folder / "00_quickstart.ipynb")["cells"][0]["source"])
    assert set(report.skipped) == {"02_webhooks_and_business.ipynb", "03a_story_and_messenger.ipynb",
                                   "03b_channel_and_customer_files.ipynb", "04a_local_search.ipynb"}, report.summary()
    assert all(why.startswith("its cells changed since toolkit copied it") for why in report.skipped.values())
    assert "cell 4 edited (against the " in report.skipped["03a_story_and_messenger.ipynb"]
    assert "cell 3 added (against" in report.skipped["03b_channel_and_customer_files.ipynb"]
    assert "1 removed after cell 5 (against" in report.skipped["04a_local_search.ipynb"]
    assert "cell 3 edited (against the nearest earlier version)" in report.skipped["02_webhooks_and_business.ipynb"]
    assert not report.kept                 # 00 was only opened and saved: its outputs are those toolkit wrote
    assert "x = 'mine'" in (folder / "03a_story_and_messenger.ipynb").read_text("utf-8")
    assert "## my heading" in (folder / "02_webhooks_and_business.ipynb").read_text("utf-8")
    assert (folder / "01_login_and_consent.ipynb").read_bytes() == before
    assert "01_login_and_consent.ipynb" in report.unchanged and "01_login_and_consent.ipynb" in report.signed
    # the edited ones stay the learner's: the next copy skips them again, the upgraded one is current
    again = walkthroughs.copy(folder, kernelspec=KERNEL)
    assert set(again.skipped) == set(report.skipped) and "00_quickstart.ipynb" in again.unchanged


def test_an_older_manifest_without_cells_upgrades_every_copy_whose_cells_toolkit_shipped(tmp_path, release2):
    """A folder copied by an earlier toolkit (its manifest has SHA-256s only), re-saved by JupyterLab: a file whose
    bytes still match is as toolkit wrote it; a re-saved one whose cells equal a version toolkit shipped is upgraded
    too (before the wheel carried the shipped versions it was skipped for good), its file as it was kept, since
    whose outputs they are cannot be told; one with an edited cell is skipped, the cell named."""
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    manifest = _nb(folder / walkthroughs.MANIFEST)
    del manifest["cells"], manifest["outputs"]
    (folder / walkthroughs.MANIFEST).write_text(json.dumps(manifest), "utf-8")
    _as_jupyterlab_saves(folder / "01_login_and_consent.ipynb")        # cells as in the new release
    _as_jupyterlab_saves(folder / "02_webhooks_and_business.ipynb")    # cells of the release that copied it
    _as_jupyterlab_saves(folder / "03a_story_and_messenger.ipynb")
    _edit(folder / "03a_story_and_messenger.ipynb", lambda cells: cells[3].update(source="x = 'mine'"))
    release2()
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    assert "00_quickstart.ipynb" in report.updated and "00_quickstart.ipynb" not in report.kept   # bytes as written
    assert "01_login_and_consent.ipynb" in report.unchanged
    assert "02_webhooks_and_business.ipynb" in report.updated, report.summary()
    assert "New in this release." in (folder / "02_webhooks_and_business.ipynb").read_text("utf-8")
    kept = folder / report.kept["02_webhooks_and_business.ipynb"]
    assert kept == folder / "before-upgrade" / "02_webhooks_and_business.ipynb" and "run 3" in kept.read_text("utf-8")
    assert list(report.skipped) == ["03a_story_and_messenger.ipynb"], report.summary()
    assert report.skipped["03a_story_and_messenger.ipynb"].startswith(
        "its cells changed since toolkit copied it: cell 4 edited (against the "), report.skipped
    assert "your copy before the upgrade, with its outputs, is before-upgrade/02_webhooks_and_business.ipynb" \
        in report.summary()
    assert set(_nb(folder / walkthroughs.MANIFEST)["cells"]) >= {"00_quickstart.ipynb", "01_login_and_consent.ipynb"}


def _git_show(commit: str, path: str) -> bytes:
    import subprocess

    done = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, timeout=60)
    if done.returncode != 0:
        pytest.skip(f"this checkout has no git history with {commit} (a source tree without .git)")
    return done.stdout


def test_a_copy_of_the_first_release_that_copied_is_upgraded_after_jupyterlab_saved_it(tmp_path):
    """The walkthroughs as the first copying release shipped them (git history), copied, opened and saved: every one
    is upgraded to this release, not skipped as 'changed' (5 of 9 were, before the shipped versions were carried)."""
    from toolkit import walkthrough_history

    folder = tmp_path / "lessons"
    folder.mkdir()
    names = [n for n in NOTEBOOKS if walkthrough_history.versions(n)]
    files = {}
    for name in names:
        try:
            old = _git_show(walkthrough_history.FIRST_COPY, f"notebooks/{name}")
        except pytest.skip.Exception:
            if name == names[0]:
                raise
            continue                                   # a walkthrough that release did not have yet
        (folder / name).write_bytes(old)
        files[name] = walkthroughs._digest(folder / name)
        _as_jupyterlab_saves(folder / name, run=False)
    assert len(files) >= 8
    (folder / walkthroughs.MANIFEST).write_text(json.dumps({"files": files, "toolkit": "0.1.0"}), "utf-8")
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    assert not report.skipped, report.summary()
    assert sorted(report.updated) == sorted(n for n in files if _nb(REPO / "notebooks" / n)["cells"] != [])
    for name in files:
        assert walkthroughs.fingerprint(_nb(folder / name)) == walkthroughs.fingerprint(_nb(REPO / "notebooks" / name))


def test_every_walkthrough_of_this_checkout_is_in_the_shipped_history():
    """The table the wheel carries (toolkit/walkthrough_history.py) holds this checkout's walkthroughs: else a copy
    of this release, re-saved, would be skipped by the next one. Rebuild it: python -m toolkit.walkthrough_history"""
    from toolkit import walkthrough_history

    missing = [name for name in NOTEBOOKS if not walkthrough_history.shipped(name, _nb(REPO / "notebooks" / name))]
    assert not missing, f"not in toolkit/walkthrough_history.py: {missing}; run python -m toolkit.walkthrough_history"


def test_an_upgrade_keeps_the_learners_run_in_a_copy_and_says_so(tmp_path, release2, monkeypatch):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    _as_jupyterlab_saves(folder / "00_quickstart.ipynb", run=True)        # the learner ran it
    _as_jupyterlab_saves(folder / "02_webhooks_and_business.ipynb", run=False)   # only opened and saved
    release2()
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    assert sorted(report.updated) == ["00_quickstart.ipynb", "02_webhooks_and_business.ipynb"]
    assert report.kept == {"00_quickstart.ipynb": "before-upgrade/00_quickstart.ipynb"}
    assert "run 1" in (folder / "before-upgrade" / "00_quickstart.ipynb").read_text("utf-8")
    assert "run 1" not in (folder / "00_quickstart.ipynb").read_text("utf-8")
    assert "updated 00_quickstart.ipynb: your copy before the upgrade" in str(report)
    # the kept copy is the learner's file: the next copy leaves it alone, and another upgrade keeps another
    _as_jupyterlab_saves(folder / "00_quickstart.ipynb", run=True)
    monkeypatch.setattr(walkthroughs, "source", lambda: REPO / "notebooks")      # the cells of this release again
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    assert "00_quickstart.ipynb" in report.updated and not any(k.startswith("before-upgrade") for k in report.skipped)
    assert "00_quickstart.ipynb" in report.kept and report.kept["00_quickstart.ipynb"].endswith("00_quickstart-2.ipynb")


def _outputs(nb: dict) -> list:
    return [c.get("outputs", []) for c in nb["cells"] if c["cell_type"] == "code"]


def test_the_learners_edition_has_no_answer_outputs_and_the_instructors_has_them_all(tmp_path):
    learner, instructor = tmp_path / "learner", tmp_path / "instructor"
    walkthroughs.copy(learner, kernelspec=KERNEL, trust=False)
    walkthroughs.copy(instructor, kernelspec=KERNEL, trust=False, edition="instructor")
    solutions = predicts = 0
    for name in NOTEBOOKS:
        repo = _nb(REPO / "notebooks" / name)
        mine, full = _nb(learner / name), _nb(instructor / name)
        assert mine["metadata"]["kernelspec"] == KERNEL == full["metadata"]["kernelspec"]
        blind = walkthroughs.blind_cells(repo["cells"])      # a predict to the end of its reveal's section
        for i, (cell, shipped) in enumerate(zip(mine["cells"], repo["cells"])):
            tags = cell["metadata"].get("tags", [])
            hidden = i in blind
            predicts += "predict" in tags
            if cell["cell_type"] != "code":
                continue
            if "solution" in tags:
                solutions += 1
                assert shipped["outputs"], f"{name}: the repository's solution has no output to hide"
            if "solution" in tags or hidden:
                assert cell["outputs"] == [] and cell["execution_count"] is None, f"{name}: {cell['source'][:1]}"
            else:
                assert len(cell["outputs"]) == len(shipped["outputs"])
        assert [[{**o, "data": {k: v for k, v in o.get("data", {}).items() if k != walkthroughs.WIDGET_VIEW or
                                "text/html" not in o["data"]}} if "data" in o else o for o in outs]
                for outs in _outputs(repo)] == _outputs(full), name
    assert solutions >= 30
    print(f"learner's edition: {solutions} solution cells and the code after {predicts} predict exercises "
          f"without outputs")


def test_a_predict_hides_the_outputs_to_the_next_heading_and_widgets_keep_their_static_view():
    def code(src, *tags, data=None):
        data = data or {"text/plain": src}
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": src, "execution_count": 1,
                "outputs": [{"output_type": "display_data", "data": data, "metadata": {}}]}

    def md(src, *tags):
        return {"cell_type": "markdown", "metadata": {"tags": list(tags)}, "source": src}

    view = {walkthroughs.WIDGET_VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 0}}
    nb = {"metadata": {"kernelspec": {"name": "python3"}, "widgets": {"state": {}}}, "cells": [
        code("before"), md("**Exercise 1** · predict", "exercise", "predict"), code("answer", "solution"),
        code("shows the answer"), md("Some text, no heading"), code("still the answer"), md("### Next part"),
        code("shown"), code("a widget", data={**view, "text/html": "<b>run this cell</b>", "text/plain": "x"}),
        code("a bare widget", data={**view, "text/plain": "VBox()"}), code("after", "solution")]}
    learner = walkthroughs.edition(nb, "learner", KERNEL)
    assert [len(c.get("outputs", [])) for c in learner["cells"]] == [1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0]
    assert learner["cells"][8]["outputs"][0]["data"] == {"text/html": "<b>run this cell</b>", "text/plain": "x"}
    assert walkthroughs.WIDGET_VIEW in learner["cells"][9]["outputs"][0]["data"]   # no static view: kept
    assert learner["metadata"]["widgets"] == {"state": {}} and learner["metadata"]["kernelspec"] == KERNEL
    assert nb["cells"][2]["outputs"] and nb["metadata"]["kernelspec"] == {"name": "python3"}   # not changed
    del nb["cells"][9]
    assert "widgets" not in walkthroughs.edition(nb, "instructor")["metadata"]
    assert [len(c.get("outputs", [])) for c in walkthroughs.edition(nb, "instructor")["cells"]] == \
        [1, 0, 1, 1, 0, 1, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="edition"):
        walkthroughs.edition(nb, "teacher")


def test_writing_another_kernel_or_edition_is_no_change_of_the_learner(tmp_path):
    folder = tmp_path / "lessons"
    walkthroughs.copy(folder, kernelspec={"name": "python3", "display_name": "Python 3", "language": "python"},
                      trust=False)
    _as_jupyterlab_saves(folder / "00_quickstart.ipynb")
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False)
    assert not report.skipped and len(report.updated) == len(NOTEBOOKS), report.summary()
    assert all(_nb(folder / n)["metadata"]["kernelspec"]["name"] == "toolkit" for n in NOTEBOOKS)
    report = walkthroughs.copy(folder, kernelspec=KERNEL, trust=False, edition="instructor")
    assert not report.skipped and len(report.updated) == len(NOTEBOOKS)
    assert _outputs(_nb(folder / "00_quickstart.ipynb")) == _outputs(_nb(REPO / "notebooks/00_quickstart.ipynb"))


def test_the_command_copies_the_instructors_edition_on_request(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(walkthroughs, "kernel_for_this_environment", lambda: (KERNEL, None))
    assert cli.main(["walkthroughs", str(tmp_path / "full"), "--instructor", "--no-trust"]) == 0
    assert "instructor's edition, kernel 'toolkit'" in capsys.readouterr().out
    assert _outputs(_nb(tmp_path / "full/00_quickstart.ipynb")) == \
        _outputs(_nb(REPO / "notebooks/00_quickstart.ipynb"))
