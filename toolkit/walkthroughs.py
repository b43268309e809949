"""The walkthroughs (lessons) as files a user can open anywhere: ``toolkit walkthroughs DIR`` copies them, with
the sample files they read and the pages they link to (``reference/``: concepts, API, errors), into ``DIR``.

* The walkthroughs ship inside the package (``toolkit.notebooks``, built from the repository's ``notebooks/``);
  in a checkout, :func:`source` is the checkout's ``notebooks/`` itself. That is the **full edition**: every
  stored output (nbval checks it; ``toolkit walkthroughs DIR --instructor`` copies it).
* A copy is the **learner's edition** (:func:`edition`): no stored output that gives an answer away — cells tagged
  ``solution`` carry no outputs, nor do the code cells from a cell tagged ``predict`` to the end of the section
  that demonstrates its answer (its cell tagged ``reveal``; :func:`blind_cells`): the learner runs them after
  choosing a letter. Both editions show saved widgets as their static view (a stored
  widget view needs the kernel that made it; opened later, JupyterLab draws it as "Error displaying widget: model
  not found", or with the notebook's saved widget state as controls marked disconnected), and name the kernel of
  the environment that copies them (:func:`kernel_for_this_environment`).
* A copy never overwrites a walkthrough the user changed. What counts is what a person writes: the cells' types
  and sources in order (and a markdown cell's attachments), :func:`fingerprint`. JupyterLab's rewriting on open
  and save (``"collapsed"``, the kernelspec's display name, execution metadata, widget state, outputs of a run)
  is not a change, so a walkthrough only opened, run or saved is upgraded by the next copy; one with a cell
  added, removed or edited is skipped, and the report says why and which cells differ. Other files (pages,
  samples) compare by bytes.
* Every earlier release counts: the package carries the cells of each walkthrough as each earlier release shipped
  it (:mod:`toolkit.walkthrough_history`), so a copy whose cells equal any of them is upgraded, whatever its
  manifest says (an older manifest recorded bytes only, which JupyterLab's save changes).
* An upgrade keeps the learner's run: when the copy being replaced holds outputs other than those toolkit wrote
  (or it cannot tell, for a copy of an older manifest), the file as it was goes to ``DIR/before-upgrade/`` first
  and the report names it.
* ``DIR/.toolkit-walkthroughs.json`` records, per file, the SHA-256 of the bytes written (``files``) and, per
  notebook, the fingerprint of its cells (``cells``) and of its outputs (``outputs``).
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

from . import walkthrough_history
from ._version import __version__

__all__ = ["source", "in_checkout", "shipped_files", "copy", "sign", "sign_shipped", "CopyReport", "MANIFEST",
           "default_workdir", "edition", "blind_cells", "fingerprint", "kernel_for_this_environment", "KERNEL_LINE",
           "EDITIONS", "outputs_digest", "cell_changes", "BEFORE_UPGRADE"]

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

    * ``learner``: cells tagged ``solution`` carry no outputs, nor do the code cells of :func:`blind_cells`: from
      each cell tagged ``predict`` to the end of the section that demonstrates its answer (its ``reveal``).
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
    blind = blind_cells(nb.get("cells") or [])
    for i, cell in enumerate(nb.get("cells") or []):
        tags = _tags(cell)
        if cell.get("cell_type") != "code":
            continue
        if which == "learner" and (i in blind or "solution" in tags):
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


def blind_cells(cells: list[dict]) -> set[int]:
    """The cells whose stored outputs the learner's edition drops so that no *predict* exercise is answered on its
    screen: from each cell tagged ``predict`` to the end of the section that demonstrates its answer — the section
    (up to the next heading) of its reveal, the first cell tagged ``reveal`` after it — or, with no reveal before
    the next predict, to the next heading.

    >>> cells = [{"cell_type": "markdown", "metadata": {"tags": ["predict"]}, "source": "Which letter?"},
    ...          {"cell_type": "code", "metadata": {}, "source": "1"},
    ...          {"cell_type": "markdown", "metadata": {}, "source": "## 2. Step by step"},
    ...          {"cell_type": "code", "metadata": {"tags": ["reveal"]}, "source": "2"},
    ...          {"cell_type": "code", "metadata": {}, "source": "3"},
    ...          {"cell_type": "markdown", "metadata": {}, "source": "## 3. Next"},
    ...          {"cell_type": "code", "metadata": {}, "source": "4"}]
    >>> sorted(blind_cells(cells))
    [0, 1, 2, 3, 4]
    """
    def heading(i: int) -> bool:
        cell = cells[i]
        return cell.get("cell_type") == "markdown" and bool(_HEADING.search(_text(cell.get("source"))))

    out: set[int] = set()
    for i, cell in enumerate(cells):
        if "predict" not in _tags(cell):
            continue
        after = range(i + 1, len(cells))
        reveal = next((j for j in after if "reveal" in _tags(cells[j])
                       or "predict" in _tags(cells[j])), None)
        if reveal is not None and "predict" in _tags(cells[reveal]):
            reveal = None
        start = reveal if reveal is not None else i
        end = next((j for j in range(start + 1, len(cells)) if heading(j) and "predict" not in _tags(cells[j])),
                   len(cells))
        out.update(range(i, end))
    return out


_PYTHON_NAME = re.compile(r"python(3(\.\d+)?)?(\.exe)?", re.I)


def _same_python(command: str) -> bool:
    """Whether ``command`` (a kernelspec's argv[0]) is a python of this environment: an absolute path in the folder
    of this interpreter (the folder resolved, not the file: a virtual environment's python is a link to the base
    interpreter) named ``python``, ``python3`` or ``python3.X``. ``python -m ipykernel install`` writes the path it
    was run as (``…/bin/python``), while a console script such as ``toolkit`` runs as the python its shebang names
    (``…/bin/python3.11`` after ``python3.11 -m venv``): both are this environment.

    >>> import sys; from pathlib import Path
    >>> here = Path(sys.executable).parent
    >>> [_same_python(str(here / n)) for n in ("python", "python3", f"python3.{sys.version_info[1]}", "pip")]
    [True, True, True, False]
    >>> _same_python("python3"), _same_python("/nowhere/bin/python")
    (False, False)
    """
    try:
        if not os.path.isabs(command) or not _PYTHON_NAME.fullmatch(Path(command).name):
            return False
        return Path(command).parent.resolve() == Path(sys.executable).parent.resolve()
    except OSError:
        return False


def kernel_for_this_environment() -> tuple[dict, str | None]:
    """The kernelspec (``name``, ``display_name``, ``language``) a copied walkthrough asks for, so it opens in a
    kernel that has toolkit, and a hint to print (or None):

    1. a registered kernelspec whose interpreter is a python of this environment (``python``, ``python3`` or
       ``python3.X`` in this interpreter's folder, :func:`_same_python`; ``toolkit`` after the README's kernel line,
       :data:`KERNEL_LINE`; that name first when several match);
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
    kept: dict[str, str] = field(default_factory=dict)
    """Updated notebooks whose file before the upgrade (the learner's outputs) was kept: name → where."""
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
        lines += [f"  updated {name}: your copy before the upgrade, with its outputs, is {where}"
                  for name, where in self.kept.items()]
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
    for key in ("cells", "outputs"):
        if not isinstance(data.get(key), dict):
            data[key] = {}
    return data


BEFORE_UPGRADE = "before-upgrade"
"""The folder of a copy where an upgrade puts a notebook as it was, when it held the learner's own outputs."""


def outputs_digest(nb: dict) -> str:
    """SHA-256 of the outputs of notebook ``nb`` (a dict), read as Jupyter means them whatever layout wrote them
    (a multi-line string or a list of lines); execution counts and output metadata do not count.

    >>> a = {"cells": [{"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout", "text": "1\\n2"}]}]}
    >>> b = {"cells": [{"cell_type": "code", "execution_count": 4,
    ...                 "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1\\n", "2"]}]}]}
    >>> outputs_digest(a) == outputs_digest(b) != outputs_digest({"cells": [{"cell_type": "code", "outputs": []}]})
    True
    """
    def norm(o):
        out = {"output_type": o.get("output_type"), "name": o.get("name"), "text": _text(o.get("text"))}
        if isinstance(o.get("data"), dict):
            out["data"] = {k: v if isinstance(v, dict) else _text(v) for k, v in o["data"].items()}
        if o.get("output_type") == "error":
            out.update(ename=o.get("ename"), evalue=o.get("evalue"))
        return out

    every = [[norm(o) for o in c.get("outputs") or [] if isinstance(o, dict)]
             for c in nb.get("cells") or [] if isinstance(c, dict) and c.get("cell_type") == "code"]
    return hashlib.sha256(json.dumps(every, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def _keep_before_upgrade(folder: Path, rel: str) -> str:
    """Move ``folder/rel`` into ``folder/before-upgrade/`` (a new name if one is there); the new path, relative."""
    keep = folder / BEFORE_UPGRADE / Path(rel).name
    n = 2
    while keep.exists():
        keep = folder / BEFORE_UPGRADE / f"{Path(rel).stem}-{n}{Path(rel).suffix}"
        n += 1
    keep.parent.mkdir(parents=True, exist_ok=True)
    (folder / rel).replace(keep)
    return keep.relative_to(folder).as_posix()


def cell_changes(mine: dict, shipped: dict) -> str:
    """Which cells of notebook ``mine`` differ from notebook ``shipped`` (cell numbers as JupyterLab counts them,
    from 1, in ``mine``), in a few words.

    >>> c = lambda s: {"cell_type": "code", "source": s}
    >>> cell_changes({"cells": [c("a"), c("B"), c("new"), c("d")]}, {"cells": [c("a"), c("b"), c("d"), c("e")]})
    'cell 2 edited, cell 3 added, 1 removed after cell 4'
    """
    return _changes(walkthrough_history.cell_keys(mine), walkthrough_history.cell_keys(shipped))[1]


def _changes(b, a) -> tuple[int, str]:
    """How many cells of ``b`` (cell keys) differ from ``a``, and which, in words (see :func:`cell_changes`)."""
    import difflib

    edited: list[int] = []
    added: list[int] = []
    removed: list[tuple[int, int]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes():
        if op == "replace":
            pairs = min(i2 - i1, j2 - j1)
            edited += range(j1 + 1, j1 + pairs + 1)
            added += range(j1 + pairs + 1, j2 + 1)
            if i2 - i1 > pairs:
                removed.append((i2 - i1 - pairs, j2))
        elif op == "insert":
            added += range(j1 + 1, j2 + 1)
        elif op == "delete":
            removed.append((i2 - i1, j1))

    def cells(numbers, what):
        if not numbers:
            return []
        shown = ", ".join(map(str, numbers[:8])) + (f" and {len(numbers) - 8} more" if len(numbers) > 8 else "")
        return [f"cell{'s' if len(numbers) > 1 else ''} {shown} {what}"]

    parts = cells(edited, "edited") + cells(added, "added")
    parts += [f"{n} removed " + (f"after cell {after}" if after else "at the start") for n, after in removed]
    count = len(edited) + len(added) + sum(n for n, _ in removed)
    return count, ", ".join(parts) or "the same cells in another order"


def _skip_reason(name: str, mine: dict | None, shipped: dict, known: bool) -> str:
    """Why a notebook is skipped, naming the cells that differ from the nearest version toolkit shipped (this one
    or an earlier one: the fewest cells apart)."""
    if mine is None:
        return "not a notebook Jupyter can read; kept as it is (move it away to get toolkit's)"
    keys = walkthrough_history.cell_keys(mine)
    new = walkthrough_history.cell_keys(shipped)
    nearest = min([(*_changes(keys, new), 0), *((*_changes(keys, v), 1) for v in walkthrough_history.versions(name))])
    what = f"{nearest[1]} (against the {'version it would get' if nearest[2] == 0 else 'nearest earlier version'})"
    if not known:
        return f"not written by toolkit: {what}; kept as it is (move it away to get toolkit's)"
    return (f"its cells changed since toolkit copied it: {what}; no version toolkit shipped has these cells; kept as "
            "it is (rename or delete it to get this version)")


_CHANGED = "changed since toolkit copied it; kept as it is (rename or delete it to get this version)"
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
    written, cells, outputs = manifest["files"], manifest["cells"], manifest["outputs"]
    same_edition = manifest.get("edition", "instructor") == edition and manifest.get("kernel") == kernelspec.get("name")
    for rel, shipped in shipped_files().items():
        target = folder / rel
        notebook = rel.endswith(".ipynb")
        if notebook:
            nb = _edition(json.loads(shipped.read_text("utf-8")), edition, kernelspec)
            data, new_cells, new_outputs = _notebook_bytes(nb), fingerprint(nb), outputs_digest(nb)
        else:
            data, new_cells, new_outputs = shipped.read_bytes(), None, None
        new = hashlib.sha256(data).hexdigest()
        if not target.exists():
            report.copied.append(rel)
        else:
            have = _digest(target)
            if have == new:
                report.unchanged.append(rel)
                written[rel] = new
                if notebook:
                    cells[rel], outputs[rel] = new_cells, new_outputs
                continue
            if notebook:
                mine = _read_notebook(target)
                have_cells = fingerprint(mine) if mine is not None else None
                as_written = have_cells is not None and (
                    have_cells in (cells.get(rel), new_cells)          # as this manifest wrote it, or as new
                    or (mine is not None and walkthrough_history.shipped(Path(rel).name, mine)))     # as any earlier release shipped it
                if not as_written and rel not in cells and written.get(rel) == have:
                    as_written = True                        # an older manifest's bytes, untouched
                if not as_written:
                    report.skipped[rel] = _skip_reason(Path(rel).name, mine, nb, rel in written)
                    continue
                if have_cells == new_cells and same_edition and written.get(rel) != have:
                    report.unchanged.append(rel)     # the same cells, run or saved: keep the learner's outputs
                    cells[rel] = new_cells
                    continue
                if written.get(rel) != have and (mine is None or outputs.get(rel) != outputs_digest(mine)):
                    report.kept[rel] = _keep_before_upgrade(folder, rel)   # the learner's run, or cannot tell
            elif written.get(rel) != have:
                report.skipped[rel] = _CHANGED if rel in written else _STRANGER
                continue
            report.updated.append(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written[rel] = new
        if notebook:
            cells[rel], outputs[rel] = new_cells, new_outputs
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
