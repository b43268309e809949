"""The package list: ``toolkit`` and its subpackages, the folders of package data among them (``toolkit.data``'s
``local``, ``navi``, …: found as namespace packages, so setuptools ships them without a "package would be
ignored" warning), plus the walkthroughs. The walkthroughs live in ``notebooks/`` in the repository (where
JupyterLab opens them and nbval checks them) and are installed as the data package ``toolkit.notebooks`` (with
``toolkit.notebooks.reference``, their pages), so a regular install carries them (``toolkit walkthroughs DIR``
copies them out). Everything else is in pyproject.toml.

Data files, as Jupyter packages ship them: the server extension's config (enables ``toolkit.jupyter`` in the
Jupyter of the environment toolkit is installed into) and the prebuilt JupyterLab extension (its built assets are
committed under ``toolkit/jupyter/labextension``; the source is ``labextension/``, which the sdist carries
without its ``node_modules``)."""
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
LABEXT = "toolkit/jupyter/labextension"
LABEXT_NAME = "toolkit-jupyter"


def _labextension_files() -> list[tuple[str, list[str]]]:
    out: dict[str, list[str]] = {}
    for path in sorted((HERE / LABEXT).rglob("*")):
        if path.is_file():
            rel = path.relative_to(HERE / LABEXT).parent
            target = f"share/jupyter/labextensions/{LABEXT_NAME}" + ("" if str(rel) == "." else f"/{rel.as_posix()}")
            out.setdefault(target, []).append(path.relative_to(HERE).as_posix())
    return sorted(out.items())


LABEXT_SOURCE = "labextension"
LABEXT_SOURCE_SKIP = {"node_modules", "lib", "__pycache__", ".ipynb_checkpoints"}
"""Folders of the lab extension's source folder that are installed or built, not written: not in the sdist."""


def _labextension_source() -> list[str]:
    """The files of the lab extension's source (``labextension/``), none of ``LABEXT_SOURCE_SKIP``."""
    root = HERE / LABEXT_SOURCE
    if not root.is_dir():
        return []
    return sorted(p.relative_to(HERE).as_posix() for p in root.rglob("*")
                  if p.is_file() and not LABEXT_SOURCE_SKIP & set(p.relative_to(root).parts))


class Sdist(sdist):
    """The sdist, plus the lab extension's source: listed here rather than in MANIFEST.in, whose patterns would
    have to guess its layout and warn where the folder is absent."""

    def make_release_tree(self, base_dir, files):
        files = list(files)
        super().make_release_tree(base_dir, files + [f for f in _labextension_source() if f not in files])


# the prebuilt lab extension is not a package: it ships as data files (below); caches are no packages either
PACKAGES = find_namespace_packages(include=["toolkit", "toolkit.*"],
                                   exclude=["toolkit.jupyter.labextension", "toolkit.jupyter.labextension.*",
                                            "*.__pycache__", "*.ipynb_checkpoints"])

setup(cmdclass={"sdist": Sdist},
      packages=[*PACKAGES, "toolkit.notebooks", "toolkit.notebooks.reference"],
      package_dir={"toolkit.notebooks": "notebooks"},
      data_files=[("etc/jupyter/jupyter_server_config.d", ["jupyter-config/jupyter_server_config.d/toolkit.json"]),
                  *_labextension_files()])
