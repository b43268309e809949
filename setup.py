"""The package list: ``toolkit`` and its subpackages, the folders of package data among them (``toolkit.data``'s
``local``, ``navi``, …: found as namespace packages, so setuptools ships them without a "package would be
ignored" warning), plus the walkthroughs. The walkthroughs live in ``notebooks/`` in the repository (where
JupyterLab opens them and nbval checks them) and are installed as the data package ``toolkit.notebooks`` (with
``toolkit.notebooks.reference``, their pages), so a regular install carries them (``toolkit walkthroughs DIR``
copies them out). Everything else is in pyproject.toml.

Data files, as Jupyter packages ship them: the server extension's config (enables ``toolkit.jupyter`` in the
Jupyter of the environment toolkit is installed into) and the prebuilt JupyterLab extension (its built assets are
committed under ``toolkit/jupyter/labextension``; the source is ``labextension/``, which the sdist carries
without its ``node_modules``).

The version comes from git through setuptools-scm (:data:`SCM`): a release is a tag ``vX.Y.Z`` on the commit
whose CHANGELOG.md names ``X.Y.Z`` as its newest release; any other commit builds as a development version above
the last release (:func:`version_scheme`). Tags do not always travel with a branch (a clean clone of a merged
branch may have none): where git finds no tag, the last release is the newest one CHANGELOG.md records
(:func:`last_release`), so the same commit builds the same version with or without its tags. A build from the
sdist reads the version the sdist carries (its PKG-INFO)."""
import re
import subprocess
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


def last_release() -> str:
    """The newest release CHANGELOG.md records: its first heading ``## X.Y.Z …`` (``0.0.0`` where none)."""
    found = re.search(r"^## (\d+\.\d+\.\d+)\b", (HERE / "CHANGELOG.md").read_text("utf-8"), flags=re.M)
    return found.group(1) if found else "0.0.0"


def _git(*args: str) -> str | None:
    """What ``git ARGS`` prints in this folder, stripped; None where git fails or is missing."""
    try:
        return subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, timeout=60,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def _commit_count(fallback: int) -> int:
    """The number of commits in the history of HEAD (``git rev-list --count HEAD``), else ``fallback``."""
    count = _git("rev-list", "--count", "HEAD")
    return int(count) if count and count.isdigit() else fallback


def _release_commit() -> str | None:
    """The commit that wrote the last release's heading into CHANGELOG.md (where its tag belongs), if any. Not
    asked of a shallow clone, whose oldest commit seems to write the whole file."""
    return _git("log", "-1", "--format=%H", "-S", f"## {last_release()} ", "--", "CHANGELOG.md") or None


def _release_without_tag(version) -> bool:
    """Whether ``version`` (setuptools-scm's) is the last release's commit, unchanged, in a clone without its tag."""
    head = _git("rev-parse", "HEAD")            # None outside a git checkout (an sdist's folder)
    return bool(head and not version.exact and not version.dirty
                and _git("rev-parse", "--is-shallow-repository") == "false" and _release_commit() == head)


def _sdist_version() -> str | None:
    """The version an sdist's folder was given when the sdist was made (its ``PKG-INFO``), else None. Building the
    wheel from the sdist must not decide again: setuptools-scm hands the schemes the git facts it stored
    (``scm_version.json``), but no git is there to tell whether they were a release."""
    info = HERE / "PKG-INFO"
    if not info.is_file():                  # a checkout has none at its top (only in its *.egg-info)
        return None
    found = re.search(r"^Version: *(\S+)", info.read_text("utf-8"), flags=re.M)
    return found.group(1) if found else None


def version_scheme(version) -> str:
    """The version of a build: a release tag's own version (``0.2.0``) on the tagged commit, else the next patch
    as a development version numbered by the commit's count in the history (``0.2.1.dev612``; setuptools-scm adds
    ``+g<commit>``, and ``.d<date>`` for uncommitted changes). The count, not the distance from the tag, so a
    clone without the tags (where setuptools-scm starts from ``fallback_version``, the last release CHANGELOG.md
    records) numbers a commit as a clone with them does, and a later commit always builds a higher version."""
    from setuptools_scm.version import guess_next_version

    made = _sdist_version()
    if made is not None:
        return made.split("+", 1)[0]
    if version.exact:
        return version.format_with("{tag}")
    if _release_without_tag(version):
        return last_release()
    return f"{guess_next_version(version)}.dev{_commit_count(version.distance)}"


def local_scheme(version) -> str:
    """``+g<commit>`` (``.d<date>`` for uncommitted changes) after a development version; nothing after a release,
    tagged or not."""
    from setuptools_scm.version import get_local_node_and_date

    made = _sdist_version()
    if made is not None:
        return "+" + made.split("+", 1)[1] if "+" in made else ""
    return "" if _release_without_tag(version) else get_local_node_and_date(version)


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

SCM = {"version_scheme": version_scheme, "local_scheme": local_scheme, "fallback_version": last_release(),
       "version_file": "toolkit/_scm_version.py"}
"""setuptools-scm's settings: the schemes above, the last release where git finds no tag, and the module the
version is written to (read by ``toolkit/_version.py``; written by the build, never committed)."""

setup(use_scm_version=SCM,
      cmdclass={"sdist": Sdist},
      packages=[*PACKAGES, "toolkit.notebooks", "toolkit.notebooks.reference"],
      package_dir={"toolkit.notebooks": "notebooks"},
      data_files=[("etc/jupyter/jupyter_server_config.d", ["jupyter-config/jupyter_server_config.d/toolkit.json"]),
                  *_labextension_files()])
