"""toolkit as a user installs it: the wheel built by ``python -m build`` from this checkout, installed without
``-e``, with the ``[lab]`` extra only, into a fresh virtual environment in a temporary folder; and an environment
for running its commands from an empty folder with a home of its own, far from the checkout (nothing of the
checkout on ``sys.path``, no ``TOOLKIT_*`` variables, Jupyter's folders inside the temporary folder).

Used by ``tests/package/`` and by the browser test of the installed lab; built once per test session."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WHEEL_LIMIT = 20 * 1024 * 1024
"""The wheel's size limit in bytes."""


@dataclass
class Installed:
    root: Path
    """The temporary folder holding everything below."""
    wheel: Path
    sdist: Path
    venv: Path
    home: Path
    """The user's home (``HOME``) for commands run here."""
    empty: Path
    """An empty folder to run commands from."""
    build_seconds: float
    install_seconds: float
    build_output: str = ""
    """What ``python -m build`` printed (stdout and stderr)."""

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def toolkit(self) -> Path:
        return self.venv / "bin" / "toolkit"

    def env(self, **extra) -> dict[str, str]:
        """The environment of a user of this install: its venv first on PATH, a home of its own, nothing of the
        checkout or of the test run (PYTHONPATH, TOOLKIT_*, VIRTUAL_ENV) carried over."""
        keep = {k: v for k, v in os.environ.items()
                if not k.startswith(("TOOLKIT_", "PYTHON", "JUPYTER", "VIRTUAL_ENV", "PYTEST", "MPL", "IPYTHON"))}
        keep.update(HOME=str(self.home), PATH=f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                    JUPYTER_RUNTIME_DIR=str(self.home / ".jupyter-runtime"), PYTHONNOUSERSITE="1")
        keep.update(extra)
        return keep

    def run(self, *args, timeout: float = 600, cwd: Path | None = None, check: bool = True, **extra_env):
        """Run a command of this install from the empty folder; the completed process (text output)."""
        done = subprocess.run([str(a) for a in args], cwd=cwd or self.empty, env=self.env(**extra_env),
                              capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(map(str, args))} exited with {done.returncode}:\n"
                                 f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        return done


def build_and_install(root: Path) -> Installed:
    """Build the wheel and the sdist of the checkout into ``root/dist`` and install the wheel with ``[lab]`` into
    ``root/venv`` (the versions of constraints.txt, as the README's install uses)."""
    root = Path(root)
    dist, home, empty = root / "dist", root / "home", root / "empty"
    for folder in (dist, home, empty):
        folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)], capture_output=True,
                           text=True, timeout=900, stdin=subprocess.DEVNULL, cwd=root)
    if built.returncode != 0:
        raise AssertionError(f"python -m build failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}")
    build_seconds = time.monotonic() - started
    wheel = next(dist.glob("social_api_toolkit-*.whl"))
    sdist = next(dist.glob("social_api_toolkit-*.tar.gz"))
    started = time.monotonic()
    venv.EnvBuilder(with_pip=True, clear=True).create(root / "venv")
    # --no-compile: no byte-code for the thousands of files no test imports (the packages' own tests, mostly);
    # what is imported is compiled then, once. Half the install's CPU time; the same files installed.
    pip = [str(root / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
           "--no-compile", "-c", str(REPO / "constraints.txt"), f"social-api-toolkit[lab] @ {wheel.resolve().as_uri()}"]
    done = subprocess.run(pip, capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL, cwd=empty,
                          env={k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))})
    if done.returncode != 0:
        raise AssertionError(f"pip install of the wheel failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return Installed(root=root, wheel=wheel, sdist=sdist, venv=root / "venv", home=home, empty=empty,
                     build_seconds=build_seconds, install_seconds=time.monotonic() - started,
                     build_output=built.stdout + built.stderr)
