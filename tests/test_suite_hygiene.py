"""The suite writes nothing outside temporary folders (the root conftest.py): Jupyter's, JupyterLab's, IPython's
and matplotlib's folders point into the run's temporary folder, in this process and in the processes it starts;
``.ci/run`` also compares the home's Jupyter files and notebooks/ before and after the run."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import conftest as root_conftest


def _inside_temp(path: str) -> bool:
    return Path(path).resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())


def test_jupyter_ipython_and_matplotlib_write_into_the_runs_temporary_folder():
    from jupyter_core.paths import jupyter_config_dir, jupyter_data_dir, jupyter_runtime_dir

    for path in (jupyter_config_dir(), jupyter_data_dir(), jupyter_runtime_dir()):
        assert _inside_temp(path) and Path(path).is_relative_to(root_conftest.RUN_HOME), path
    code = ("import json, os; from jupyter_core.paths import jupyter_data_dir; import matplotlib; "
            "print(json.dumps([jupyter_data_dir(), os.environ['JUPYTERLAB_WORKSPACES_DIR'], "
            "os.environ['IPYTHONDIR'], matplotlib.get_configdir()]))")
    child = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                      check=True).stdout)
    assert all(_inside_temp(p) for p in child), child

