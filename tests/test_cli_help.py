"""The command line's help is plain text with every option documented, and ``--print-config`` computes the
configuration of a port without binding it (it works while a sandbox serves there)."""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys

import pytest

from toolkit import cli
from toolkit.sandbox.server import SandboxServer

MARKUP = re.compile(r"``|:(class|func|meth|mod|data):|\.\. |`[^`]+`_")


def _help(*argv) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        cli.main([*argv, "--help"])
    return out.getvalue()


@pytest.mark.parametrize("argv", [(), ("sandbox",), ("lab",)])
def test_help_is_plain_text(argv):
    text = _help(*argv)
    assert text.startswith("usage: toolkit") and not MARKUP.search(text), text


def _parsers():
    seen = []
    original = argparse.ArgumentParser.parse_args

    def capture(self, *a, **k):
        seen.append(self)
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = capture
    try:
        with pytest.raises(SystemExit):
            cli.main(["sandbox"])
    finally:
        argparse.ArgumentParser.parse_args = original
    top = seen[0]
    subs = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)][0]
    return [top, *subs.choices.values()]


def test_every_option_of_every_command_has_help():
    undocumented = [f"{p.prog} {'/'.join(a.option_strings) or a.dest}" for p in _parsers() for a in p._actions
                    if not isinstance(a, argparse._SubParsersAction) and not (a.help or "").strip()]
    assert not undocumented
    assert "--notebooks DIR" in _help("lab") and "folder JupyterLab opens" in _help("lab")


def test_print_config_does_not_bind_the_port_a_sandbox_serves_on():
    with SandboxServer(port=0) as server:
        out = subprocess.run([sys.executable, "-m", "toolkit.cli", "sandbox", "--print-config", "--port",
                              str(server.port)], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        config = json.loads(out.stdout)
        assert config["hosts"] == server.hosts()
        assert config["app"]["rest_api_key"] == server.app_config()["rest_api_key"]
