"""Command line: ``toolkit sandbox [--port N] [--db FILE] [--print-config]`` and ``toolkit lab``.

* ``toolkit sandbox`` serves the sandbox on 127.0.0.1 until interrupted and prints its base URLs.
* ``toolkit sandbox --print-config`` starts a sandbox on the given port (a free one by default), prints one
  JSON object ``{"hosts": {...five base URLs...}, "app": {...demo app: keys, client secret, redirect URIs...}}``
  and exits. The output holds the demo app's secrets in plain text, for wiring other tools to the sandbox.
* ``toolkit lab`` starts a shared sandbox and JupyterLab on ``notebooks/``. Each notebook's ``toolkit.connect()``
  starts its own embedded sandbox in its kernel (fresh, deterministic state: "Run All" gives the stored outputs);
  ``toolkit.connect(shared=True)`` binds to the lab's shared sandbox instead (``TOOLKIT_SANDBOX_URL``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path


def _server(args):
    from .sandbox.server import SandboxServer

    kw = {"seed": args.seed}
    if args.clock_start:
        kw["clock_start"] = args.clock_start
    return SandboxServer(port=args.port, db=args.db, frozen=args.frozen_clock, clock=args.clock, **kw)


def sandbox_env(config: dict) -> dict[str, str]:
    """The ``TOOLKIT_*`` variables that point a client at a running sandbox (its five hosts and keys)."""
    env = {f"TOOLKIT_{name.upper()}_URL": url for name, url in config["hosts"].items()}
    app = config["app"]
    env.update(TOOLKIT_REST_API_KEY=app["rest_api_key"], TOOLKIT_ADMIN_KEY=app["admin_key"],
               TOOLKIT_CLIENT_SECRET=app["client_secret"], TOOLKIT_APP_ID=app["app_id"],
               TOOLKIT_REDIRECT_URI=app["redirect_uris"][0])
    return env


def cmd_sandbox(args) -> int:
    server = _server(args)
    if args.print_config:
        server.start()
        try:
            print(json.dumps(server.config(), ensure_ascii=False))
        finally:
            server.stop()
        return 0
    server.start()
    print(f"toolkit sandbox on {server.base_url}  (database: {args.db or 'in memory'})", flush=True)
    for name, url in server.hosts().items():
        print(f"  {name:<7}{url}", flush=True)
    print("  control  " + server.base_url + "/sandbox/config   (Ctrl-C to stop)", flush=True)
    try:
        server.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def lab_command(notebooks: str | Path, extra: list[str] = ()) -> list[str]:
    """The JupyterLab command line ``toolkit lab`` runs (loopback only, on the notebooks folder)."""
    extra = list(extra)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []  # containers run as root
    return [sys.executable, "-m", "jupyter", "lab", f"--notebook-dir={Path(notebooks).resolve()}",
            "--ip=127.0.0.1", *root, *extra]


def cmd_lab(args) -> int:
    import importlib.util

    if importlib.util.find_spec("jupyterlab") is None:
        print("toolkit lab needs JupyterLab: pip install -e '.[lab]'", file=sys.stderr)
        return 2
    server = _server(args).start()
    # Each notebook's toolkit.connect() starts its own embedded sandbox in the kernel, so "Run All" reproduces the
    # stored outputs; toolkit.connect(shared=True) binds to this shared one (also reachable by other tools).
    env = {**os.environ, "TOOLKIT_SANDBOX_URL": server.base_url}
    cmd = lab_command(args.notebooks, args.lab_args)
    print(f"sandbox on {server.base_url}; starting JupyterLab on {Path(args.notebooks).resolve()}", flush=True)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 0
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="toolkit", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    common.add_argument("--db", default=None, help="SQLite file to persist the sandbox (default: in memory)")
    common.add_argument("--seed", type=int, default=7, help="seed of the deterministic demo data")
    common.add_argument("--clock-start", default=None, help="start instant of the sandbox clock (RFC 3339)")
    common.add_argument("--frozen-clock", action="store_true", help="the clock moves only when advanced")
    common.add_argument("--clock", choices=("virtual", "real"), default="virtual",
                        help="virtual: the deterministic sandbox clock (default); real: the wall clock, for outside "
                             "clients that check token times against their own clock")
    sb = sub.add_parser("sandbox", parents=[common], help="serve the sandbox")
    sb.add_argument("--print-config", action="store_true", help="print hosts and demo app as JSON and exit")
    sb.set_defaults(func=cmd_sandbox)
    lab = sub.add_parser("lab", parents=[common], help="sandbox + JupyterLab on notebooks/")
    lab.add_argument("--notebooks", default=str(Path(__file__).resolve().parents[1] / "notebooks"))
    lab.add_argument("lab_args", nargs=argparse.REMAINDER, help="extra arguments for jupyter lab")
    lab.set_defaults(func=cmd_lab)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
