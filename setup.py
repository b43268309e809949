"""The package list: ``toolkit`` and its subpackages, plus the walkthroughs. The walkthroughs live in
``notebooks/`` in the repository (where JupyterLab opens them and nbval checks them) and are installed as the
data package ``toolkit.notebooks``, so a regular install carries them (``toolkit walkthroughs DIR`` copies them
out). Everything else is in pyproject.toml."""
from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["toolkit", "toolkit.*"]), "toolkit.notebooks"],
      package_dir={"toolkit.notebooks": "notebooks"})
