"""The walkthroughs (lessons) as files a user can open anywhere: ``toolkit walkthroughs DIR`` copies them, with
the sample files they read and the pages they link to (``reference/``: concepts, API, errors), into ``DIR``.

* The walkthroughs ship inside the package (``toolkit.notebooks``, built from the repository's ``notebooks/``);
  in a checkout, :func:`source` is the checkout's ``notebooks/`` itself. That is the **full edition**: every
  stored output (nbval checks it; ``toolkit walkthroughs DIR --instructor`` copies it).
* A copy is the **learner's edition** (:func:`edition`): no stored output that gives an answer away — cells tagged
  ``solution`` carry no outputs, nor do the code cells from a cell tagged ``predict`` to the next heading (the
  learner runs them after choosing a letter). Both editions show saved widgets as their static view (a stored
  widget view needs the kernel that made it; opened later, JupyterLab draws it as "Error displaying widget: model
  not found", or with the notebook's saved widget state as controls marked disconnected), and name the kernel of
  the environment that copies them (:func:`kernel_for_this_environment`).
* A copy never overwrites a walkthrough the user changed. What counts is what a person writes: the cells' types
  and sources in order (and a markdown cell's attachments), :func:`fingerprint`. JupyterLab's rewriting on open
  and save (``"collapsed"``, the kernelspec's display name, execution metadata, widget state, outputs of a run)
  is not a change, so a walkthrough only opened, run or saved is upgraded by the next copy; one with a cell
  added, removed or edited is skipped, and the report says why. Other files (pages, samples) compare by bytes.
* ``DIR/.toolkit-walkthroughs.json`` records, per file, the SHA-256 of the bytes written (``files``) and, per
  notebook, the fingerprint of its cells (``cells``). An older manifest has no ``cells``: a notebook whose bytes
  still match its recorded SHA-256 is as toolkit wrote it (upgraded); one that JupyterLab re-saved no longer matches
  and its cells cannot be checked against what was written, so it is upgraded only when its cells already equal
  the new edition's (nothing of the user's to lose), and otherwise skipped as changed — for good, since what
  toolkit wrote there is no longer known (rename or delete it to get the new version).
* Copied notebooks are signed for the user with nbformat's notary (the user's Jupyter trust database), so their
  stored maps show on first open, before any Run All; a notebook the user changed is left alone.

>>> from toolkit.walkthroughs import copy
>>> report = copy("lessons")            # doctest: +SKIP
>>> print(report)                       # doctest: +SKIP
walkthroughs in /home/me/lessons: 13 copied, 0 updated, 0 already current, 0 skipped; 9 notebooks trusted
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ._version import __version__

__all__ = ["source", "in_checkout", "shipped_files", "copy", "sign", "sign_shipped", "CopyReport", "MANIFEST",
           "default_workdir", "edition", "fingerprint", "kernel_for_this_environment", "KERNEL_LINE", "EDITIONS"]

MANIFEST = ".toolkit-walkthroughs.json"
"""The file in a copied folder that records what toolkit wrote there (path → SHA-256, notebook → cells' digest)."""

SAMPLES_DIR = "samples"
"""Where a copy puts the sample files (the notebooks read them through :func:`toolkit.samples.path`; the copies
are there to look at and to try one's own changes on)."""

EDITIONS = ("learner", "instructor")
"""``learner``: no stored output that gives an answer away (the default of a copy); ``instructor``: the full
edition with every stored output, as the repository keeps it."""

KERNEL_NAME = "toolkit"
"""The kernel name the README's kernel line registers (:data:`KERNEL_LINE`)."""

KERNEL_LINE = 'python -m ipykernel install --user --name toolkit --display-name "Python (toolkit)"'
"""The README's line that registers this environment's Python as the ``toolkit`` kernel (run with that python)."""

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s", re.M)


def _package_root() -> Path:
    return Path(__file__).resolve().parent


def in_checkout() -> Path | None:
    """The repository root when toolkit runs from a checkout (an editable install), else None."""
    root = _package_root().parent
    if (root / "pyproject.toml").is_file() and (root / "notebooks" / "00_quickstart.ipynb").is_file():
        return root
    return None


def source() -> Path:
    """The folder holding the walkthroughs: the checkout's ``notebooks/``, or the installed ``toolkit.notebooks``.

    >>> (source() / "00_quickstart.ipynb").is_file()
    True
    """
    root = in_checkout()
    if root is not None:
        return root / "notebooks"
    # the data package toolkit.notebooks (no __init__: a folder of files installed beside the modules)
    return _package_root() / "notebooks"


def shipped_files() -> dict[str, Path]:
    """What a copy holds: relative path in the target folder → the shipped file. The walkthroughs, the pages
    under ``reference/`` and the sample files (under ``samples/``).

    >>> files = shipped_files()
    >>> "00_quickstart.ipynb" in files and "reference/concepts.md" in files and "samples/customers_busan.csv" in files
    True
    """
    from . import samples

    src = source()
    out = {p.name: p for p in sorted(src.glob("*.ipynb"))}
    out.update({f"reference/{p.name}": p for p in sorted((src / "reference").glob("*.md"))})
    out.update({f"{SAMPLES_DIR}/{name}": samples.path(name) for name in sorted(samples.SAMPLES)})
    return out


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def fingerprint(nb: dict) -> str:
    """SHA-256 of what a person writes in notebook ``nb`` (its JSON as a dict): each cell's type and source, in
    order, and a markdown cell's attachments. Outputs, execution counts, cell and notebook metadata (where
    JupyterLab writes ``collapsed``, its kernelspec, widget state, timings) do not count.

    >>> a = {"cells": [{"cell_type": "code", "source": ["x = 1\\n", "x"], "outputs": [], "metadata": {}}]}
    >>> b = {"cells": [{"cell_type": "code", "source": "x = 1\\nx", "outputs": [{"output_type": "stream"}],
    ...                 "metadata": {"collapsed": True}, "execution_count": 3}], "metadata": {"widgets": {}}}
    >>> fingerprint(a) == fingerprint(b)
    True
    >>> fingerprint(a) == fingerprint({"cells": [{"cell_type": "code", "source": "x = 2\\nx"}]})
    False
    """
    cells = []
    for cell in nb.get("cells") or []:
        item = [cell.get("cell_type"), _text(cell.get("source"))]
        if cell.get("cell_type") == "markdown" and cell.get("attachments"):
            item.append(cell["attachments"])
        cells.append(item)
    return hashlib.sha256(json.dumps(cells, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def _read_notebook(path: Path) -> dict | None:
    try:
        nb = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return nb if isinstance(nb, dict) and isinstance(nb.get("cells"), list) else None


def _notebook_bytes(nb: dict) -> bytes:
    """The notebook as Jupyter writes it (nbformat's layout: indent 1, keys sorted, UTF-8, final newline)."""
    return (json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def _tags(cell: dict) -> list:
    return (cell.get("metadata") or {}).get("tags") or []


def _static(output: dict) -> dict:
    """A stored output without its widget view when it carries a static one (``text/html``): what JupyterLab
    shows of it when the kernel that made it is gone. Other outputs as they are."""
    data = output.get("data")
    if isinstance(data, dict) and WIDGET_VIEW in data and "text/html" in data:
        output = {**output, "data": {k: v for k, v in data.items() if k != WIDGET_VIEW}}
    return output


def edition(nb: dict, which: str = "learner", kernelspec: dict | None = None) -> dict:
    """Notebook ``nb`` (a dict, not changed) as the given edition: a new dict.

    * ``learner``: cells tagged ``solution`` carry no outputs; for every cell tagged ``predict``, the code cells
      from it to the next heading (a markdown cell with a ``#`` heading) carry no outputs.
    * ``instructor``: every stored output kept.
    * Both: a widget output that carries a static view (``text/html``, e.g. :class:`toolkit.widgets.LoginWidget`)
      keeps only that, and the notebook's saved widget state goes where no widget view is left; ``kernelspec``
      (a dict with ``name``, ``display_name``, ``language``), when given, replaces the notebook's.

    >>> nb = {"metadata": {}, "cells": [
    ...     {"cell_type": "markdown", "metadata": {"tags": ["predict"]}, "source": "Which letter?"},
    ...     {"cell_type": "code", "metadata": {}, "source": "1 + 1", "execution_count": 1,
    ...      "outputs": [{"output_type": "execute_result", "data": {"text/plain": "2"}}]},
    ...     {"cell_type": "markdown", "metadata": {}, "source": "## Next"},
    ...     {"cell_type": "code", "metadata": {}, "source": "2", "execution_count": 2,
    ...      "outputs": [{"output_type": "execute_result", "data": {"text/plain": "2"}}]}]}
    >>> [len(c.get("outputs", [])) for c in edition(nb)["cells"]]
    [0, 0, 0, 1]
    >>> [len(c.get("outputs", [])) for c in edition(nb, "instructor")["cells"]]
    [0, 1, 0, 1]
    """
    if which not in EDITIONS:
        from .errors import closed_set_error

        raise closed_set_error("edition", which, EDITIONS)
    nb = json.loads(json.dumps(nb))
    hidden = False
    for cell in nb.get("cells") or []:
        tags = _tags(cell)
        if cell.get("cell_type") == "markdown" and _HEADING.search(_text(cell.get("source"))) and "predict" not in tags:
            hidden = False
        if "predict" in tags:
            hidden = True
        if cell.get("cell_type") != "code":
            continue
        if which == "learner" and (hidden or "solution" in tags):
            cell["outputs"], cell["execution_count"] = [], None
        cell["outputs"] = [_static(o) for o in cell.get("outputs") or []]
    views = any(WIDGET_VIEW in (o.get("data") or {}) for c in nb.get("cells") or [] for o in c.get("outputs") or [])
    meta = nb.setdefault("metadata", {})
    if not views:
        meta.pop("widgets", None)
    if kernelspec is not None:
        meta["kernelspec"] = dict(kernelspec)
    return nb


_edition = edition      # copy() has a parameter of that name


def _same_python(command: str) -> bool:
    """Whether ``command`` (a kernelspec's argv[0]) is this environment's python: the same path, with the folder
    resolved but not the file (a virtual environment's python is a link to the base interpreter)."""
    def norm(p):
        p = Path(p)
        return p.parent.resolve() / p.name

    try:
        return os.path.isabs(command) and norm(command) == norm(sys.executable)
    except OSError:
        return False


def kernel_for_this_environment() -> tuple[dict, str | None]:
    """The kernelspec (``name``, ``display_name``, ``language``) a copied walkthrough asks for, so it opens in a
    kernel that has toolkit, and a hint to print (or None):

    1. a registered kernelspec whose interpreter is this environment's python (``toolkit`` after the README's
       kernel line, :data:`KERNEL_LINE`; that name first when several match);
    2. else ``python3`` when that is this environment: its kernelspec runs this python, or it is Jupyter's own
       (``python`` on its command line: the python of the Jupyter server) and Jupyter is installed here;
    3. else ``toolkit``, with the hint to run the README's kernel line in this environment.

    >>> spec, hint = kernel_for_this_environment()     # doctest: +SKIP
    >>> spec["name"]                                   # doctest: +SKIP
    'toolkit'
    """
    import importlib.util

    fallback = ({"name": KERNEL_NAME, "display_name": "Python (toolkit)", "language": "python"},
                f"the walkthroughs ask for the kernel '{KERNEL_NAME}', which this Jupyter does not have yet: run "
                f"`{Path(sys.executable).name} -m ipykernel install --user --name toolkit --display-name "
                f"\"Python (toolkit)\"` with this environment's python ({sys.prefix})")
    try:
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        return fallback
    manager = KernelSpecManager()
    try:
        found = manager.find_kernel_specs()
    except Exception:  # noqa: BLE001 — an unreadable Jupyter folder: the README's kernel is the answer
        return fallback
    ours = []
    for name in sorted(found, key=lambda n: (n != KERNEL_NAME, n)):
        try:
            spec = manager.get_kernel_spec(name)
        except Exception:  # noqa: BLE001 — a broken kernel.json is not ours
            continue
        argv = list(spec.argv or [])
        if not argv:
            continue
        mine = _same_python(argv[0])
        if name == "python3" and not mine and argv[0] in ("python", "python3", f"python{sys.version_info[0]}.{sys.version_info[1]}"):
            mine = importlib.util.find_spec("jupyter_server") is not None and importlib.util.find_spec("ipykernel") is not None
        if mine:
            ours.append((name, spec))
    for name, spec in ours:
        if name != "python3" or len(ours) == 1:
            return {"name": name, "display_name": spec.display_name or name, "language": spec.language or "python"}, None
    return fallback


@dataclass
class CopyReport:
    """What :func:`copy` did, file by file (relative paths)."""

    folder: Path
    copied: list[str] = field(default_factory=list)
    """New in the folder."""
    updated: list[str] = field(default_factory=list)
    """Replaced by this toolkit's version: the file was as an earlier copy wrote it (for a notebook: its cells
    were; JupyterLab's metadata, outputs of a run and a save do not count)."""
    unchanged: list[str] = field(default_factory=list)
    """Already this toolkit's version."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Left as they are, with the reason (changed by the user, or not written by toolkit)."""
    signed: list[str] = field(default_factory=list)
    """Notebooks signed as trusted for this user."""
    edition: str = "learner"
    """Which edition of the walkthroughs was written (:data:`EDITIONS`)."""
    kernel: str | None = None
    """The kernel name written into the notebooks."""
    hint: str | None = None
    """Something the user should do (e.g. register the kernel the notebooks ask for)."""

    def summary(self) -> str:
        """The counts, then a line for each skipped file and why (the folder is not named)."""
        lines = [f"{len(self.copied)} copied, {len(self.updated)} updated, {len(self.unchanged)} already current, "
                 f"{len(self.skipped)} skipped; {len(self.signed)} notebooks trusted"]
        if self.kernel:
            lines[0] += f"; {self.edition}'s edition, kernel '{self.kernel}'"
        lines += [f"  skipped {name}: {why}" for name, why in self.skipped.items()]
        if self.hint:
            lines.append(f"  note: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"walkthroughs in {self.folder}: {self.summary()}"


def _read_manifest(folder: Path) -> dict:
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        data = {"files": {}}
    if not isinstance(data.get("cells"), dict):
        data["cells"] = {}
    return data


_CHANGED = "changed since toolkit copied it; kept as it is (rename or delete it to get this version)"
_CELLS_CHANGED = ("its cells changed since toolkit copied it (a cell added, removed or edited); kept as it is "
                  "(rename or delete it to get this version)")
_STRANGER = "not written by toolkit; kept as it is (move it away to get toolkit's)"


def copy(folder: str | Path, *, trust: bool = True, edition: str = "learner",
         kernelspec: dict | None = None) -> CopyReport:
    """Copy the walkthroughs (the learner's edition; ``edition="instructor"``: the full one, see :func:`edition`),
    their ``reference/`` pages and the sample files into ``folder`` (made if missing), never overwriting a file the
    user changed, and sign the written notebooks as trusted (``trust=False``: not). The notebooks ask for the
    kernel ``kernelspec`` (default: :func:`kernel_for_this_environment`).

    A file is written when it is missing, or when it is as an earlier copy wrote it: for a notebook, when its
    cells (types, sources) are as written, whatever JupyterLab did to its metadata and outputs; for other files,
    byte for byte. Any other existing file is skipped, and the report says why.

    >>> report = copy(tmp_path / "lessons")                 # doctest: +SKIP
    >>> report.copied[:2]                                   # doctest: +SKIP
    ['00_quickstart.ipynb', '01_login_and_consent.ipynb']
    """
    if edition not in EDITIONS:
        from .errors import closed_set_error

        raise closed_set_error("edition", edition, EDITIONS)
    folder = Path(folder).expanduser()
    if folder.exists() and not folder.is_dir():
        from .errors import ParameterError

        raise ParameterError("folder", "must be a folder (it is a file)", str(folder))
    hint = None
    if kernelspec is None:
        kernelspec, hint = kernel_for_this_environment()
    folder.mkdir(parents=True, exist_ok=True)
    report = CopyReport(folder=folder.resolve(), edition=edition, kernel=kernelspec.get("name"), hint=hint)
    manifest = _read_manifest(folder)
    written, cells = manifest["files"], manifest["cells"]
    same_edition = manifest.get("edition", "instructor") == edition and manifest.get("kernel") == kernelspec.get("name")
    for rel, shipped in shipped_files().items():
        target = folder / rel
        notebook = rel.endswith(".ipynb")
        if notebook:
            nb = _edition(json.loads(shipped.read_text("utf-8")), edition, kernelspec)
            data, new_cells = _notebook_bytes(nb), fingerprint(nb)
        else:
            data, new_cells = shipped.read_bytes(), None
        new = hashlib.sha256(data).hexdigest()
        if not target.exists():
            report.copied.append(rel)
        else:
            have = _digest(target)
            if have == new:
                report.unchanged.append(rel)
                written[rel] = new
                if notebook:
                    cells[rel] = new_cells
                continue
            if notebook:
                mine = _read_notebook(target)
                have_cells = fingerprint(mine) if mine is not None else None
                if rel in cells:                    # this manifest knows the cells it wrote
                    as_written = have_cells == cells[rel]
                else:                               # an older manifest: bytes, or cells that need no upgrade
                    as_written = written.get(rel) == have or (have_cells is not None and have_cells == new_cells)
                if not as_written:
                    report.skipped[rel] = (_STRANGER if rel not in written else
                                           _CELLS_CHANGED if rel in cells else _CHANGED)
                    continue
                if have_cells == new_cells and same_edition and written.get(rel) != have:
                    report.unchanged.append(rel)     # the same cells, run or saved: keep the learner's outputs
                    cells[rel] = new_cells
                    continue
            elif written.get(rel) != have:
                report.skipped[rel] = _CHANGED if rel in written else _STRANGER
                continue
            report.updated.append(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written[rel] = new
        if notebook:
            cells[rel] = new_cells
    manifest.update(toolkit=__version__, edition=edition, kernel=kernelspec.get("name"))
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", "utf-8")
    if trust:
        ours = [rel for rel in (*report.copied, *report.updated, *report.unchanged) if rel.endswith(".ipynb")]
        report.signed = sign([folder / rel for rel in ours], root=folder)
    return report


def sign(notebooks, *, root: Path | None = None) -> list[str]:
    """Sign ``notebooks`` (paths) as trusted for this user with nbformat's notary, so Jupyter shows their stored
    outputs (maps, widgets, HTML) on first open. Returns the names signed (relative to ``root`` when given).
    Does nothing (returns ``[]``) where nbformat is not installed."""
    try:
        import nbformat
        from nbformat.sign import NotebookNotary
    except ImportError:
        return []
    notary = NotebookNotary()
    done = []
    try:
        for path in notebooks:
            path = Path(path)
            nb = nbformat.read(path, as_version=4)
            notary.sign(nb)
            done.append(path.relative_to(root).as_posix() if root is not None else path.name)
    finally:
        close = getattr(notary, "close", None) or getattr(notary.store, "close", None)
        if close is not None:
            close()           # its SQLite trust database
    return done


def sign_shipped(folder: str | Path) -> list[str]:
    """Sign the notebooks of ``folder`` that are exactly as toolkit ships them or as a copy wrote them (its
    manifest's SHA-256); the user's own notebooks and changed walkthroughs are left to the user. Returns the names
    signed."""
    folder = Path(folder)
    written = _read_manifest(folder)["files"]
    same = []
    for rel, path in shipped_files().items():
        target = folder / rel
        if not rel.endswith(".ipynb") or not target.is_file():
            continue
        if target.resolve() == path.resolve():
            same.append(target)
            continue
        have = _digest(target)
        if have == _digest(path) or written.get(rel) == have:
            same.append(target)
    return sign(same, root=folder)


def default_workdir() -> Path:
    """Where ``toolkit lab`` works outside a checkout: ``~/toolkit-walkthroughs`` (a folder of the user's own,
    kept between runs, so changed notebooks and outputs are never lost; not inside the installed package, which
    an upgrade replaces and which may not be writable)."""
    return Path.home() / "toolkit-walkthroughs"
