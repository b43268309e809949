"""The data the sandbox reads at run time, shipped inside the package (a regular install carries it; no checkout
is needed): the city of Busan (``local/``, ``navi/``), the demo users, social seed data, the status catalogue and
the IP lists, plus the sample files the walkthroughs read (``samples/``). ``datasets/`` in the repository holds
the scripts that build these files and the README naming each file's source and licence.

A neutral package (neither a client area nor a sandbox area): both the sandbox and :mod:`toolkit.samples` read it.

>>> from toolkit.data import root
>>> (root() / "status" / "catalog.json").is_file()
True

``TOOLKIT_DATASETS=/some/folder`` makes the sandbox read another folder of the same layout instead (for building
or trying new data); it is read when a sandbox starts.
"""
from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

__all__ = ["ENV", "root", "packaged_root"]

ENV = "TOOLKIT_DATASETS"
"""The variable naming another data folder of the same layout."""


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
