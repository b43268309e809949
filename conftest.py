"""Run-wide settings of the test suite (the README's test command): nothing of a run is written outside
temporary folders.

* Jupyter, JupyterLab, IPython and matplotlib keep their files (trust database, workspaces, the ``migrated``
  marker, profiles, font cache) in one temporary folder of the run, for this process and every process it starts
  (kernels of nbval, ``toolkit lab``), never in the user's ``~/.jupyter`` or ``~/.local/share/jupyter``;
* what the walkthroughs write next to themselves while nbval runs them (``notebooks/out``, ``notebooks/reports``)
  is removed at the end of the run, unless it was there before.
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUN_HOME = Path(tempfile.mkdtemp(prefix="toolkit-tests-"))
"""The temporary folder of this run's Jupyter, IPython and matplotlib files."""
ISOLATED = {
    "JUPYTER_CONFIG_DIR": "jupyter-config",
    "JUPYTER_DATA_DIR": "jupyter-data",
    "JUPYTER_RUNTIME_DIR": "jupyter-runtime",
    "JUPYTERLAB_WORKSPACES_DIR": "jupyterlab-workspaces",
    "JUPYTERLAB_SETTINGS_DIR": "jupyterlab-settings",
    "IPYTHONDIR": "ipython",
    "MPLCONFIGDIR": "matplotlib",
}
"""Variable → folder under :data:`RUN_HOME`."""
for _var, _sub in ISOLATED.items():
    (RUN_HOME / _sub).mkdir()
    os.environ[_var] = str(RUN_HOME / _sub)

WALKTHROUGH_OUTPUTS = [HERE / "notebooks" / "out", HERE / "notebooks" / "reports"]
_THERE_BEFORE = {p for p in WALKTHROUGH_OUTPUTS if p.exists()}


# removed at exit, after IPython's own exit work (registered later, so run earlier) has written its history there
atexit.register(shutil.rmtree, RUN_HOME, True)


def pytest_sessionfinish(session, exitstatus):
    for path in WALKTHROUGH_OUTPUTS:
        if path not in _THERE_BEFORE:
            shutil.rmtree(path, ignore_errors=True)
