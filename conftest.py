"""Run-wide settings of the test suite (the README's test command): nothing of a run is written outside
temporary folders.

* Jupyter, JupyterLab, IPython and matplotlib keep their files (trust database, workspaces, the ``migrated``
  marker, profiles, font cache) in one temporary folder of the run, for this process and every process it starts
  (kernels of nbval, ``toolkit lab``), never in the user's ``~/.jupyter`` or ``~/.local/share/jupyter``;
* what the walkthroughs write next to themselves while nbval runs them (``notebooks/out``, ``notebooks/reports``)
  is removed at the end of the run, unless it was there before;
* on both cores: pytest-xdist (``-n auto --dist loadgroup``, pyproject.toml) runs groups of tests on its workers,
  one group on one worker (:func:`pytest_xdist_make_scheduler`). A file is a group (its module fixtures are made
  once, a notebook's cells run in order in one kernel), and the tests of a heavy session fixture are one group
  across files (:data:`SHARED`: the installed wheel's venv and its plain lab, the checkout's Jupyter server, the
  documentation site), so it is made once. The heaviest groups are handed out first (:data:`FIRST`), so that no
  long one starts last.
"""
from __future__ import annotations

import atexit
import json
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


SHARED = {"installed_toolkit": "installed", "checkout_jupyter_server": "checkout_jupyter_server",
          "docs_site": "docs_site"}
"""Session fixture → the group of every test that uses it (directly or through another fixture)."""
FIRST = ["installed", "tests/bench/test_bench_all.py", "tests/browser/test_lab_walkthroughs.py", "docs_site",
         "tests/browser/test_saved_widgets.py", "tests/classroom/test_jupyterhub.py", "tests/test_fresh.py"]
"""The groups that take longest, longest first, handed out before the rest (which keeps its collection order).
Measured with ``--durations`` on a shared two-core machine: the installed wheel's group about 6-10 minutes (its
venv, the copied walkthroughs run in it and in its lab), the benchmarks' short run 5, every walkthrough's Run All
in JupyterLab about 3, the documentation site 1-2; a walkthrough under nbval takes 5-10 seconds."""
GROUPS_ENV = "TOOLKIT_XDIST_GROUPS"
"""Where xdist's workers write each test's group (a folder the controller makes, read by :class:`GroupScheduling`).

xdist's own ``loadgroup`` reads ``xdist_group`` marks through a suffix it writes into each test's id, which
pytest 9.2 no longer lets it change; so the groups travel this way, to a scheduler of ours."""


def _group(item) -> str:
    for fixture, group in SHARED.items():
        if fixture in getattr(item, "fixturenames", ()):        # a notebook cell (nbval) has none
            return group
    marked = item.get_closest_marker("xdist_group")
    if marked is not None:
        return str(marked.args[0] if marked.args else marked.kwargs.get("name", "default"))
    return item.nodeid.split("::")[0]


def _grouping(config) -> bool:
    """Whether this run hands out groups: ``--dist loadgroup`` on the controller, or one of its workers."""
    return (config.getoption("dist", "no") == "loadgroup" and config.getoption("numprocesses", None) not in (None, 0)
            or getattr(config.option, "loadgroup", False))


def pytest_configure(config):
    if _grouping(config) and not hasattr(config, "workerinput"):
        folder = tempfile.mkdtemp(prefix="toolkit-xdist-groups-")
        os.environ[GROUPS_ENV] = folder                     # the workers, started after this, inherit it
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_collection_modifyitems(config, items):
    """On a worker: the heavy groups first (the rest keep their order), and every test's group told to the
    controller."""
    if not (_grouping(config) and hasattr(config, "workerinput")):
        return
    groups = {item.nodeid: _group(item) for item in items}
    rank = {name: i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(groups[item.nodeid], len(FIRST)))     # stable
    folder = os.environ.get(GROUPS_ENV)
    if folder:
        with open(Path(folder) / f"{config.workerinput['workerid']}.json", "w", encoding="utf-8") as out:
            json.dump(groups, out)


def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist", "no") != "loadgroup" or not os.environ.get(GROUPS_ENV):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """xdist's scheduling by scope, a scope being a test's group as its worker computed it (:func:`_group`):
        a group runs on one worker, groups are handed out in the workers' order (the heavy first)."""

        groups: dict[str, str] = {}

        def _split_scope(self, nodeid: str) -> str:
            if not self.groups:
                for file in sorted(Path(os.environ[GROUPS_ENV]).glob("*.json")):
                    self.groups.update(json.loads(file.read_text("utf-8")))
            return self.groups.get(nodeid) or nodeid.split("::")[0]

    return GroupScheduling(config, log)


def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):     # an xdist worker: the run goes on elsewhere; the controller cleans
        return
    for path in WALKTHROUGH_OUTPUTS:
        if path not in _THERE_BEFORE:
            shutil.rmtree(path, ignore_errors=True)
