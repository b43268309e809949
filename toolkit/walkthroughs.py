"""The walkthroughs (lessons) as files a user can open anywhere: ``toolkit walkthroughs DIR`` copies them, with
the sample files they read and the pages they link to (``reference/``: concepts, API, errors), into ``DIR``.

* The walkthroughs ship inside the package (``toolkit.notebooks``, built from the repository's ``notebooks/``);
  in a checkout, :func:`source` is the checkout's ``notebooks/`` itself.
* A copy never overwrites a file the user changed: ``DIR/.toolkit-walkthroughs.json`` records the SHA-256 of
  every file as copied, so a later copy (a newer toolkit) updates only files still as toolkit wrote them, and
  says which it skipped and why.
* Copied notebooks are signed for the user with nbformat's notary (the user's Jupyter trust database), so their
  stored maps and widgets show on first open, before any Run All; a notebook the user changed is left alone.

>>> from toolkit.walkthroughs import copy
>>> report = copy("lessons")            # doctest: +SKIP
>>> print(report)                       # doctest: +SKIP
"""
from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ._version import __version__

__all__ = ["source", "in_checkout", "shipped_files", "copy", "sign", "sign_shipped", "CopyReport", "MANIFEST",
           "default_workdir"]

MANIFEST = ".toolkit-walkthroughs.json"
"""The file in a copied folder that records what toolkit wrote there (path → SHA-256)."""

SAMPLES_DIR = "samples"
"""Where a copy puts the sample files (the notebooks read them through :func:`toolkit.samples.path`; the copies
are there to look at and to try one's own changes on)."""


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


@dataclass
class CopyReport:
    """What :func:`copy` did, file by file (relative paths)."""

    folder: Path
    copied: list[str] = field(default_factory=list)
    """New in the folder."""
    updated: list[str] = field(default_factory=list)
    """Replaced by this toolkit's version: the file was as an earlier copy wrote it."""
    unchanged: list[str] = field(default_factory=list)
    """Already this toolkit's version."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Left as they are, with the reason (changed by the user, or not written by toolkit)."""
    signed: list[str] = field(default_factory=list)
    """Notebooks signed as trusted for this user."""

    def summary(self) -> str:
        """The counts, then a line for each skipped file and why (the folder is not named)."""
        lines = [f"{len(self.copied)} copied, {len(self.updated)} updated, {len(self.unchanged)} already current, "
                 f"{len(self.skipped)} skipped; {len(self.signed)} notebooks trusted"]
        lines += [f"  skipped {name}: {why}" for name, why in self.skipped.items()]
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"walkthroughs in {self.folder}: {self.summary()}"


def _read_manifest(folder: Path) -> dict:
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
        return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else {"files": {}}
    except (OSError, ValueError):
        return {"files": {}}


def copy(folder: str | Path, *, trust: bool = True) -> CopyReport:
    """Copy the walkthroughs, their ``reference/`` pages and the sample files into ``folder`` (made if missing),
    never overwriting a file the user changed, and sign the copied notebooks as trusted (``trust=False``: not).

    A file is written when it is missing, or when it is exactly as an earlier copy wrote it (so a newer toolkit
    updates it); any other existing file is skipped, and the report says why.

    >>> report = copy(tmp_path / "lessons")                 # doctest: +SKIP
    >>> report.copied[:2]                                   # doctest: +SKIP
    ['00_quickstart.ipynb', '01_login_and_consent.ipynb']
    """
    folder = Path(folder).expanduser()
    if folder.exists() and not folder.is_dir():
        from .errors import ParameterError

        raise ParameterError("folder", "must be a folder (it is a file)", str(folder))
    folder.mkdir(parents=True, exist_ok=True)
    report = CopyReport(folder=folder.resolve())
    manifest = _read_manifest(folder)
    written = manifest["files"]
    for rel, shipped in shipped_files().items():
        target = folder / rel
        new = _digest(shipped)
        if not target.exists():
            report.copied.append(rel)
        else:
            have = _digest(target)
            if have == new:
                report.unchanged.append(rel)
                written[rel] = new
                continue
            if written.get(rel) != have:
                report.skipped[rel] = ("changed since toolkit copied it; kept as it is (rename or delete it to get "
                                       "this version)" if rel in written else
                                       "not written by toolkit; kept as it is (move it away to get toolkit's)")
                continue
            report.updated.append(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shipped, target)
        written[rel] = new
    manifest.update(toolkit=__version__)
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
    """Sign the notebooks of ``folder`` that are exactly as toolkit ships them (the user's own notebooks and
    changed walkthroughs are left to the user). Returns the names signed."""
    folder = Path(folder)
    same = [folder / rel for rel, path in shipped_files().items() if rel.endswith(".ipynb")
            and (folder / rel).is_file()
            and ((folder / rel).resolve() == path.resolve() or _digest(folder / rel) == _digest(path))]
    return sign(same, root=folder)


def default_workdir() -> Path:
    """Where ``toolkit lab`` works outside a checkout: ``~/toolkit-walkthroughs`` (a folder of the user's own,
    kept between runs, so changed notebooks and outputs are never lost; not inside the installed package, which
    an upgrade replaces and which may not be writable)."""
    return Path.home() / "toolkit-walkthroughs"
