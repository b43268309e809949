"""deploy/jupyterhub_config.py as JupyterHub loads it (traitlets' config loader, no hub started): the class
sandbox services it declares and the environment it gives each single-user server, for one sandbox and for a
class split over several (students assigned by name, stable when a sandbox is added). The real hub runs it in
test_jupyterhub.py."""
from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace

from traitlets.config.loader import PyFileConfigLoader

import toolkit
from toolkit.classroom import read_secret, student_token

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub_config.py"
CHECKOUT_CONFIG = Path(__file__).resolve().parents[2] / "jupyter-config"
EXTENSION = ({"JUPYTER_CONFIG_PATH": str(CHECKOUT_CONFIG)}
             if Path(toolkit.__file__).resolve().parents[1] == CHECKOUT_CONFIG.parent else {})
"""What the servers get for toolkit's Jupyter extension: the checkout's config where toolkit is imported from this
checkout (an editable install: the test venv), nothing where a regular install enables it itself."""


def fake_toolkit(folder: Path) -> str:
    """An executable file named toolkit in ``folder`` (the config checks the command exists; it never runs it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "toolkit"
    path.write_text("#!/bin/sh\nexit 1\n")
    path.chmod(0o755)
    return str(path)


def load(monkeypatch, tmp_path, **env):
    for name in ("TOOLKIT_CLASSROOM_URLS", "TOOLKIT_CLASSROOM_SANDBOXES", "TOOLKIT_CLASSROOM_DB",
                 "TOOLKIT_CLASSROOM_USER_ROLE",
                 "TOOLKIT_CLASSROOM_BROWSER_URLS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLKIT_CLASSROOM_SECRET_FILE", str(tmp_path / "class" / "class.secret"))
    monkeypatch.setenv("TOOLKIT_CLASSROOM_PORT", "18765")
    monkeypatch.setenv("TOOLKIT_CLASSROOM_TOOLKIT", fake_toolkit(tmp_path / "venv" / "bin"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    c = PyFileConfigLoader(CONFIG.name, str(CONFIG.parent)).load_config()
    services = c.JupyterHub.services.get_value([]) if "services" in c.JupyterHub else []
    load.roles = c.JupyterHub.load_roles.get_value([]) if "load_roles" in c.JupyterHub else []
    return services, c.Spawner.environment.get_value({})


def user_env(environment: dict, name: str) -> dict:
    spawner = SimpleNamespace(user=SimpleNamespace(name=name))
    return {k: v(spawner) if callable(v) else v for k, v in environment.items()}


def test_one_class_sandbox_as_a_hub_service(monkeypatch, tmp_path):
    services, environment = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_DB=str(tmp_path / "class/worlds.sqlite"))
    assert services == [{
        "name": "toolkit-classroom", "url": "http://127.0.0.1:18765",
        "command": [str(tmp_path / "venv" / "bin" / "toolkit"), "classroom", "--port", "18765", "--secret-file",
                    str(tmp_path / "class" / "class.secret"), "--db", str(tmp_path / "class/worlds.sqlite")],
        "environment": {"PYTHONUNBUFFERED": "1"},
        "oauth_no_confirm": True, "oauth_redirect_uri": "/services/toolkit-classroom/oauth_callback"}]
    # every hub user may reach it through the hub's login (the hub's OAuth for services)
    assert load.roles == [{"name": "user", "scopes": ["self", "access:services!service=toolkit-classroom"]}]
    assert oct((tmp_path / "class").stat().st_mode & 0o777) == "0o700"   # the secret's folder: the hub's only
    env = user_env(environment, "student1")
    secret = read_secret(tmp_path / "class" / "class.secret")
    assert env == {"TOOLKIT_CLASSROOM_URL": "http://127.0.0.1:18765",
                   "TOOLKIT_CLASSROOM_TOKEN": student_token(secret, "student1"),
                   "TOOLKIT_CLASSROOM_BROWSER_URL": "/services/toolkit-classroom",   # the browser: via the hub
                   "ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_MMAP_THRESHOLD_": "131072",
                   "MALLOC_TRIM_THRESHOLD_": "131072",                               # a kernel's memory
                   **EXTENSION}
    assert user_env(environment, "student2")["TOOLKIT_CLASSROOM_TOKEN"] == student_token(secret, "student2") != env[
        "TOOLKIT_CLASSROOM_TOKEN"]


def test_a_large_class_split_over_several_sandboxes_by_name(monkeypatch, tmp_path):
    services, environment = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_SANDBOXES="3",
                                 TOOLKIT_CLASSROOM_DB=str(tmp_path / "class/worlds.sqlite"))
    urls = [f"http://127.0.0.1:{18765 + k}" for k in range(3)]
    assert [s["url"] for s in services] == urls
    assert [s["name"] for s in services] == [f"toolkit-classroom-{k}" for k in range(3)]
    assert [s["command"][-1] for s in services] == [str(tmp_path / f"class/worlds-{k}.sqlite") for k in range(3)]
    assert [s["oauth_redirect_uri"] for s in services] == [f"/services/toolkit-classroom-{k}/oauth_callback"
                                                           for k in range(3)]
    assert load.roles == [{"name": "user", "scopes": ["self", *(f"access:services!service=toolkit-classroom-{k}"
                                                                 for k in range(3))]}]
    names = [f"student{i}" for i in range(300)]
    assigned = {n: user_env(environment, n)["TOOLKIT_CLASSROOM_URL"] for n in names}
    counts = [sum(1 for u in assigned.values() if u == url) for url in urls]
    assert min(counts) > 60, counts                               # about a third each
    assert user_env(environment, "student1")["TOOLKIT_CLASSROOM_URLS"] == ",".join(urls)   # for the teacher
    for n in names[:20]:            # each browser goes through the hub to the student's own sandbox's service
        env = user_env(environment, n)
        k = urls.index(env["TOOLKIT_CLASSROOM_URL"])
        assert env["TOOLKIT_CLASSROOM_BROWSER_URL"] == f"/services/toolkit-classroom-{k}" == f"/services/{services[k]['name']}"
    # the assignment is the documented rendezvous hash, so another hub (or a script) computes the same
    for n in names[:20]:
        assert assigned[n] == max(urls, key=lambda u: hashlib.sha256(f"{u}\n{n}".encode()).digest())
    # a fourth sandbox takes students only for itself: nobody moves between the first three
    _, grown = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_SANDBOXES="4")
    moved = {n: user_env(grown, n)["TOOLKIT_CLASSROOM_URL"] for n in names}
    assert all(moved[n] in (assigned[n], "http://127.0.0.1:18768") for n in names)
    assert 40 < sum(moved[n] != assigned[n] for n in names) < 110


def test_sandboxes_run_elsewhere(monkeypatch, tmp_path):
    urls = "http://classroom-0:8765, http://classroom-1:8765"
    services, environment = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_URLS=urls)
    assert services == []
    env = user_env(environment, "student1")
    assert env["TOOLKIT_CLASSROOM_URL"] in ("http://classroom-0:8765", "http://classroom-1:8765")
    assert env["TOOLKIT_CLASSROOM_URLS"] == "http://classroom-0:8765,http://classroom-1:8765"
    assert env["TOOLKIT_CLASSROOM_BROWSER_URL"] == ""             # no path through this hub was named
    _, environment = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_URLS=urls,
                          TOOLKIT_CLASSROOM_BROWSER_URLS="/services/class-0,/services/class-1")
    for n in ("student1", "student2", "student3", "student4"):
        env = user_env(environment, n)
        assert env["TOOLKIT_CLASSROOM_BROWSER_URL"] == "/services/class-" + env["TOOLKIT_CLASSROOM_URL"][-6]


def test_tokens_from_the_users_toolkit_when_the_hub_has_none(monkeypatch, tmp_path):
    """TLJH's hub environment lacks toolkit: the config asks the users' ``toolkit classroom token``."""
    import builtins
    import sys

    real_import = builtins.__import__

    def no_toolkit(mod, *a, **kw):
        if mod.startswith("toolkit"):
            raise ImportError(mod)
        return real_import(mod, *a, **kw)

    _, environment = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_TOOLKIT=str(Path(sys.executable).with_name(
        "toolkit")))
    monkeypatch.setattr(builtins, "__import__", no_toolkit)
    token = user_env(environment, "student.one@school")["TOOLKIT_CLASSROOM_TOKEN"]
    monkeypatch.setattr(builtins, "__import__", real_import)
    assert token == student_token(read_secret(tmp_path / "class" / "class.secret"), "student.one@school")


def test_the_secret_folder_is_made_private_and_a_shared_one_refused(monkeypatch, tmp_path):
    import os
    import stat

    import pytest

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)                         # like /tmp
    with pytest.raises(SystemExit, match="shared"):
        load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_SECRET_FILE=str(shared / "class.secret"))
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777 and not list(shared.iterdir())   # left as it was
    own = tmp_path / "own"
    own.mkdir(mode=0o750)
    own.chmod(0o750)
    load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_SECRET_FILE=str(own / "class.secret"))
    assert stat.S_IMODE(own.stat().st_mode) == 0o750                                   # not made here: unchanged
    load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_SECRET_FILE=str(tmp_path / "new" / "deeper" / "class.secret"))
    assert stat.S_IMODE((tmp_path / "new" / "deeper").stat().st_mode) == 0o700
    assert os.geteuid() == (tmp_path / "new" / "deeper").stat().st_uid


def test_toolkit_is_found_beside_the_hubs_python_or_the_hub_stops(monkeypatch, tmp_path):
    import sys

    import pytest

    venv_python = tmp_path / "venv2" / "bin" / "python"
    fake_toolkit(venv_python.parent)
    monkeypatch.setattr(sys, "executable", str(venv_python))      # a venv's python run by full path, not activated
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("TOOLKIT_CLASSROOM_TOOLKIT", raising=False)
    for name in ("TOOLKIT_CLASSROOM_URLS", "TOOLKIT_CLASSROOM_SANDBOXES", "TOOLKIT_CLASSROOM_DB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TOOLKIT_CLASSROOM_SECRET_FILE", str(tmp_path / "class" / "class.secret"))

    def services():
        c = PyFileConfigLoader(CONFIG.name, str(CONFIG.parent)).load_config()
        return c.JupyterHub.services.get_value([])

    if not Path("/opt/tljh/user/bin/toolkit").exists():
        assert services()[0]["command"][0] == str(venv_python.parent / "toolkit")
        (venv_python.parent / "toolkit").unlink()
        with pytest.raises(SystemExit, match="no toolkit command beside this Python"):
            services()
    monkeypatch.setenv("TOOLKIT_CLASSROOM_TOOLKIT", str(tmp_path / "nowhere" / "toolkit"))
    with pytest.raises(SystemExit, match="no toolkit command at"):
        services()


def test_a_revoked_student_gets_a_new_token_at_the_next_spawn(monkeypatch, tmp_path):
    from toolkit.classroom import revoke

    _, environment = load(monkeypatch, tmp_path)
    before = user_env(environment, "student1")["TOOLKIT_CLASSROOM_TOKEN"]
    other = user_env(environment, "student2")["TOOLKIT_CLASSROOM_TOKEN"]
    assert revoke(tmp_path / "class" / "class.secret", "student1") == 1
    after = user_env(environment, "student1")["TOOLKIT_CLASSROOM_TOKEN"]
    secret = read_secret(tmp_path / "class" / "class.secret")
    assert after != before and after == student_token(secret, "student1", 1)
    assert user_env(environment, "student2")["TOOLKIT_CLASSROOM_TOKEN"] == other          # nobody else's changes



def test_a_hub_whose_configuration_defines_the_user_role_gives_the_scope_itself(monkeypatch, tmp_path):
    """A subconfig cannot see the roles its parent configuration defined (traitlets loads it on its own), and
    JupyterHub refuses a role defined twice: where the hub's configuration defines ``user`` itself, the teacher adds
    the scope there and sets TOOLKIT_CLASSROOM_USER_ROLE=0."""
    wrapper = tmp_path / "hub_config.py"
    wrapper.write_text("c = get_config()\n"
                       "c.JupyterHub.load_roles = [{'name': 'user', 'scopes': ['self', 'read:groups',\n"
                       "                           'access:services!service=toolkit-classroom']}]\n"
                       f"load_subconfig({str(CONFIG)!r})\n")
    services, _ = load(monkeypatch, tmp_path, TOOLKIT_CLASSROOM_USER_ROLE="0")
    assert load.roles == [] and services[0]["oauth_no_confirm"] is True
    c = PyFileConfigLoader(wrapper.name, str(tmp_path)).load_config()
    assert [r["name"] for r in c.JupyterHub.load_roles] == ["user"]
