"""The package list: ``toolkit`` and its subpackages, plus the walkthroughs. The walkthroughs live in
``notebooks/`` in the repository (where JupyterLab opens them and nbval checks them) and are installed as the
data package ``toolkit.notebooks``, so a regular install carries them (``toolkit walkthroughs DIR`` copies them
out). Everything else is in pyproject.toml.

Data files, as Jupyter packages ship them: the server extension's config (enables ``toolkit.jupyter`` in the
Jupyter of the environment toolkit is installed into) and the prebuilt JupyterLab extension (its built assets are
committed under ``toolkit/jupyter/labextension``; the source is ``labextension/``)."""
from pathlib import Path

from setuptools import find_packages, setup

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


setup(packages=[*find_packages(include=["toolkit", "toolkit.*"]), "toolkit.notebooks"],
      package_dir={"toolkit.notebooks": "notebooks"},
      data_files=[("etc/jupyter/jupyter_server_config.d", ["jupyter-config/jupyter_server_config.d/toolkit.json"]),
                  *_labextension_files()])
