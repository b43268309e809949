"""The command line's mistakes and failures, as a user meets them (each case a subprocess): one line on stderr
naming the argument and the fix, exit code 2 for a usage mistake and 1 for a failure, never a traceback unless
``--debug`` or ``TOOLKIT_DEBUG=1`` asks for it; ``toolkit --version``; ``toolkit lab --port`` is JupyterLab's port."""
from __future__ import annotations

import argparse
import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit import __version__, cli
from toolkit.loopback import bind_loopback


def run(*args, cwd: Path, **env) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("TOOLKIT_")}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", "toolkit.cli", *map(str, args)], cwd=cwd, env=environ,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def one_line(done: subprocess.CompletedProcess, code: int) -> str:
    """The error line of a command that failed with ``code``; no traceback, nothing else on stderr."""
    assert done.returncode == code, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture()
def busy_port():
    """A port something on 127.0.0.1 listens on."""
    sock = bind_loopback(0)
    sock.listen(1)
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


def test_walkthroughs_into_a_file_is_one_line_and_exit_2(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine", "utf-8")
    line = one_line(run("walkthroughs", file, cwd=tmp_path), 2)
    assert line.startswith("toolkit walkthroughs: ") and str(file) in line and "folder" in line, line
    assert file.read_text("utf-8") == "mine"


def test_walkthroughs_under_a_file_is_one_line_and_exit_2(tmp_path):
    file = tmp_path / "notes.txt"
    file.write_text("mine", "utf-8")
    line = one_line(run("walkthroughs", file / "sub", cwd=tmp_path), 2)
    assert line == (f"toolkit walkthroughs: {file / 'sub'}: a part of this path is a file, not a folder; "
                    "give a folder's path"), line


def test_an_empty_folder_name_is_refused_and_nothing_is_copied(tmp_path):
    done = run("walkthroughs", "", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("toolkit walkthroughs: error: argument DIR: an empty name is not a folder"), last
    assert list(tmp_path.iterdir()) == [], "nothing is written into the current folder"
    assert run("lab", "--notebooks", " ", cwd=tmp_path).returncode == 2


def test_a_folder_that_cannot_be_written_is_one_line_and_exit_1(tmp_path):
    # root may write anywhere a mode allows nothing; /sys refuses everyone a new folder
    target = Path("/sys/toolkit-lessons") if os.geteuid() == 0 else tmp_path / "ro" / "lessons"
    if target.parent == tmp_path / "ro":
        target.parent.mkdir()
        target.parent.chmod(0o500)
    if not target.parent.is_dir():
        pytest.skip("no folder on this machine refuses a new folder")
    line = one_line(run("walkthroughs", target, cwd=tmp_path), 1)
    assert line.startswith(f"toolkit walkthroughs: {target}: ") and "permission denied; choose a place you can " \
        "write to" in line, line


def test_lab_notebooks_naming_a_file_says_it_is_a_file(tmp_path):
    pytest.importorskip("jupyterlab")
    file = tmp_path / "notes.txt"
    file.write_text("mine", "utf-8")
    line = one_line(run("lab", "--notebooks", file, cwd=tmp_path), 2)
    assert line == f"toolkit lab: --notebooks {file}: a file, not a folder: give the folder JupyterLab should open"
    line = one_line(run("lab", "--notebooks", tmp_path / "missing", cwd=tmp_path), 2)
    assert "no such folder" in line and f"toolkit walkthroughs {tmp_path / 'missing'}" in line, line
    line = one_line(run("lab", "--instructor", "--notebooks", tmp_path, cwd=tmp_path), 2)
    assert line == "toolkit lab: --instructor chooses the walkthroughs' folder and --notebooks names one: give one of them"


@pytest.mark.parametrize("option", ["--port", "--sandbox-port"])
def test_lab_on_a_busy_port_names_the_option(tmp_path, busy_port, option):
    pytest.importorskip("jupyterlab")
    line = one_line(run("lab", option, busy_port, "--notebooks", tmp_path, cwd=tmp_path), 1)
    assert line == (f"toolkit lab: {option} {busy_port}: 127.0.0.1:{busy_port} is already in use; choose another "
                    f"port, or leave {option} out for a free one"), line


@pytest.mark.parametrize("command", ["sandbox", "classroom"])
def test_a_server_on_a_busy_port_names_the_option(tmp_path, busy_port, command):
    extra = ["--secret-file", tmp_path / "secret"] if command == "classroom" else []
    line = one_line(run(command, "--port", busy_port, *extra, cwd=tmp_path), 1)
    assert line == (f"toolkit {command}: --port {busy_port}: the port is already in use; choose another port, or "
                    "leave --port out for a free one"), line


def test_a_port_that_is_no_port_is_a_usage_error(tmp_path):
    done = run("sandbox", "--port", "99999", cwd=tmp_path)
    assert done.returncode == 2 and "argument --port: '99999' is not a port" in done.stderr.splitlines()[-1]


@pytest.mark.parametrize("how", ["--debug", "TOOLKIT_DEBUG=1"])
def test_debug_shows_the_traceback(tmp_path, how):
    file = tmp_path / "notes.txt"
    file.write_text("mine", "utf-8")
    if how == "--debug":
        done = run("walkthroughs", file / "sub", "--debug", cwd=tmp_path)
    else:
        done = run("walkthroughs", file / "sub", cwd=tmp_path, TOOLKIT_DEBUG="1")
    assert done.returncode == 1 and "Traceback" in done.stderr and "NotADirectoryError" in done.stderr
    assert run("--debug", "walkthroughs", file / "sub", cwd=tmp_path).stderr.count("Traceback") == 1


def test_version(tmp_path):
    done = run("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"toolkit {__version__}", done


def test_an_unexpected_error_is_one_line_naming_the_debug_switch(monkeypatch, capsys, tmp_path):
    def boom(args):
        raise RuntimeError("something inside broke")

    monkeypatch.setattr(cli, "cmd_walkthroughs", boom)
    monkeypatch.delenv("TOOLKIT_DEBUG", raising=False)
    assert cli.main(["walkthroughs", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("toolkit walkthroughs: unexpected RuntimeError: something inside broke (TOOLKIT_DEBUG=1 or --debug "
                   "shows where; please report it)"), err


def test_describe_error_maps_the_file_errors():
    args = argparse.Namespace(command="walkthroughs")
    assert cli.describe_error(FileExistsError(errno.EEXIST, "File exists", "/x"), args) == (
        "/x: already exists and is not a folder; give a folder's path", 2)
    assert cli.describe_error(OSError(errno.ENOSPC, "No space left on device", "/x"), args)[1] == 1
    assert cli.describe_error(cli.CliError("bad", code=2), args) == ("bad", 2)


def test_lab_port_is_jupyterlabs_port_and_arguments_after_dashes_win():
    args = argparse.Namespace(port=8899, lab_args=["--", "--no-browser"])
    assert cli._lab_args(args) == ["--ServerApp.port=8899", "--ServerApp.port_retries=0", "--no-browser"]
    args.port = 0
    assert cli._lab_args(args) == ["--no-browser"]


def test_help_says_what_lab_opens_outside_a_checkout(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    top = capsys.readouterr().out
    assert "~/toolkit-walkthroughs" in top and "TOOLKIT_DEBUG=1" in top
    with pytest.raises(SystemExit):
        cli.main(["lab", "--help"])
    lab = " ".join(capsys.readouterr().out.split())
    assert "--port PORT JupyterLab's port on 127.0.0.1" in lab and "--sandbox-port N the shared sandbox's port" in lab
    assert "~/toolkit-walkthroughs" in lab


@pytest.mark.timeout(240)
def test_toolkit_lab_serves_jupyterlab_on_its_port_and_the_sandbox_on_the_sandbox_port(tmp_path):
    pytest.importorskip("jupyterlab")
    import signal
    import time

    import httpx

    from tests.labrun import free_port, group_alive

    lab_port, sandbox_port, token = free_port(), free_port(), "t" * 32
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLKIT_")}
    env.update(JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"), PYTHONUNBUFFERED="1")
    (tmp_path / "notebooks").mkdir()
    log = tmp_path / "lab.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "toolkit.cli", "lab", "--port", str(lab_port), "--sandbox-port",
                                 str(sandbox_port), "--notebooks", str(tmp_path / "notebooks"), "--", "--no-browser",
                                 f"--ServerApp.token={token}"], cwd=tmp_path, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        deadline, status = time.monotonic() + 180, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status = httpx.get(f"http://127.0.0.1:{lab_port}/api/status", params={"token": token}, timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        text = log.read_text("utf-8", "replace")
        assert status is not None and status.status_code == 200, text[-3000:]
        assert httpx.get(f"http://127.0.0.1:{sandbox_port}/sandbox/health", timeout=5).json()["ok"]
        assert f"sandbox on http://127.0.0.1:{sandbox_port}" in text
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60)
    assert code == 0, log.read_text("utf-8", "replace")[-3000:]
    servers = list((tmp_path / "runtime").glob("jpserver-*.json"))
    assert not [s for s in servers if group_alive(json.loads(s.read_text())["pid"])]
