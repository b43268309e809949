"""Every walkthrough runs unchanged in a student's world, stored outputs included: nbval runs a few walkthroughs
with the environment a hub gives a single-user server (TOOLKIT_CLASSROOM_URL, TOOLKIT_CLASSROOM_TOKEN,
JUPYTERHUB_USER), so each ``toolkit.connect(fresh=True)`` binds to the class sandbox, not an embedded one. 02
exercises the webhooks' signature checks (the JWKS fetch carries the world's header too)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.sandbox.classroom import ClassroomServer

from .conftest import SECRET, token

ROOT = Path(__file__).resolve().parents[2]
WALKTHROUGHS = ["00_quickstart.ipynb", "02_webhooks_and_business.ipynb", "03a_story_and_messenger.ipynb"]


@pytest.mark.parametrize("notebook", WALKTHROUGHS)
def test_walkthrough_in_a_students_world(notebook):
    with ClassroomServer(SECRET) as server:
        env = {**os.environ, "TOOLKIT_CLASSROOM_URL": server.base_url, "TOOLKIT_CLASSROOM_TOKEN": token("nb"),
               "JUPYTERHUB_USER": "nb"}
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval",
                              f"notebooks/{notebook}"], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300)
        assert out.returncode == 0, out.stdout[-4000:]
        assert server.classroom.names() == ["nb"]          # the kernel used the class sandbox's world
        assert server.classroom.world("nb").calls > 5
