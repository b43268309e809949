"""The data the sandbox reads at run time, shipped inside the package (a regular install carries it; no checkout
is needed): the city of Busan (``local/``, ``navi/``), the demo users, social seed data, the status catalogue and
the IP lists, plus the sample files the walkthroughs read (``samples/``). Each file's source, terms and required
attribution ship with it, in ``NOTICE.md`` (:func:`notice`); ``datasets/`` in the repository holds the scripts
that build these files and the full account of how each was derived.

A neutral package (neither a client area nor a sandbox area): both the sandbox and :mod:`toolkit.samples` read it.

>>> from toolkit.data import root
>>> (root() / "status" / "catalog.json").is_file()
True
>>> from toolkit.data import notice
>>> "Store data: 소상공인시장진흥공단 상가(상권)정보 (data.go.kr)" in notice()
True

``TOOLKIT_DATASETS=/some/folder`` makes the sandbox read another folder of the same layout instead (for building
or trying new data); it is read when a sandbox starts.
"""
from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

__all__ = ["ENV", "NOTICE", "root", "packaged_root", "notice", "notice_path"]

ENV = "TOOLKIT_DATASETS"
"""The variable naming another data folder of the same layout."""

NOTICE = "NOTICE.md"
"""The file of this package giving each data file's source, terms and required attribution."""


def packaged_root() -> Path:
    """The folder of the data shipped inside the package (a real folder: the package is installed unzipped)."""
    return Path(str(files(__name__)))


def root() -> Path:
    """The data folder the sandbox reads: ``$TOOLKIT_DATASETS`` when set, else :func:`packaged_root`. A folder
    named by the variable that does not exist raises ``FileNotFoundError`` naming the variable."""
    env = os.environ.get(ENV)
    if not env:
        return packaged_root()
    path = Path(env).expanduser()
    if not path.is_dir():
        raise FileNotFoundError(f"{ENV}={env!r} is not a folder; unset it to use the data shipped with toolkit")
    return path


def notice_path() -> Path:
    """The file giving the shipped data's sources, terms and required attributions (``NOTICE.md`` of this
    package; always the shipped one, whatever ``TOOLKIT_DATASETS`` says)."""
    return packaged_root() / NOTICE


def notice() -> str:
    """The shipped data's sources, terms and required attributions, as Markdown text.

    >>> print(notice().splitlines()[0])
    # toolkit's data: sources and terms
    """
    return notice_path().read_text("utf-8")
