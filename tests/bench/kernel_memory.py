"""A student's kernel as a hub starts it: the environment ``deploy/jupyterhub_config.py`` gives a single-user
server, and the memory of one kernel and of several side by side (for sizing a class machine).

Resident memory (RSS) counts every page a process maps, its shared libraries' included; on a class machine the
libraries' file pages (numpy, pandas, pyarrow, matplotlib ...) are one copy for every kernel. So next to RSS this
prints, for kernels running side by side, the unique set size (USS: private pages, what each more student adds)
and the proportional set size (PSS: private pages plus its share of the shared ones), both from
``/proc/PID/smaps_rollup``.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = ROOT / "deploy" / "jupyterhub_config.py"


def hub_environment(url: str, secret_file: "str | Path", user: str) -> dict[str, str]:
    """The environment ``deploy/jupyterhub_config.py`` gives ``user``'s single-user server whose class sandbox
    is ``url`` (read with traitlets' loader, as JupyterHub reads it; ``JUPYTERHUB_USER`` as the hub sets it)."""
    from unittest import mock

    from traitlets.config.loader import PyFileConfigLoader

    hub_env = {k: v for k, v in os.environ.items()
               if k not in ("TOOLKIT_CLASSROOM_BROWSER_URLS", "TOOLKIT_CLASSROOM_SANDBOXES")}
    hub_env.update({"TOOLKIT_CLASSROOM_URLS": url, "TOOLKIT_CLASSROOM_SECRET_FILE": str(secret_file)})
    with mock.patch.dict(os.environ, hub_env, clear=True):       # the hub's environment while it reads its config
        config = PyFileConfigLoader(DEPLOY_CONFIG.name, str(DEPLOY_CONFIG.parent)).load_config()
    spawner = SimpleNamespace(user=SimpleNamespace(name=user))
    env = {k: (v(spawner) if callable(v) else v) for k, v in config.Spawner.environment.get_value({}).items()}
    return {**{k: str(v) for k, v in env.items() if v != ""}, "JUPYTERHUB_USER": user}


def memory(pid: int) -> dict[str, float]:
    """``rss``, ``pss`` and ``uss`` (private clean + dirty) of process ``pid``, in MB."""
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss", "Private_Clean", "Private_Dirty"):
                out[key] = int(rest.split()[0]) / 1024
    return {"rss": out["Rss"], "pss": out["Pss"], "uss": out["Private_Clean"] + out["Private_Dirty"]}


def run_kernels(envs: list[dict], steps: list[tuple[str, str]]) -> list[list[tuple[str, dict]]]:
    """Start one ipykernel per environment, all side by side; run ``steps`` in each (one kernel after another,
    step by step); after each step read every kernel's memory. Returns, per kernel, ``[(step, memory), ...]``
    (the memory read once every kernel ran the step)."""
    from jupyter_client.manager import start_new_kernel

    kernels = []
    try:
        for env in envs:
            km, kc = start_new_kernel(kernel_name="python3", env=env, cwd=env["HOME"], stderr=subprocess.DEVNULL)
            kernels.append((km, kc))
        out: list[list[tuple[str, dict]]] = [[] for _ in kernels]
        for name, code in steps:
            for km, kc in kernels:
                reply = kc.execute_interactive(code, timeout=300, output_hook=lambda msg: None)
                if reply["content"]["status"] != "ok":
                    raise RuntimeError(f"kernel step {name!r} failed: {reply['content'].get('ename')}: "
                                       f"{reply['content'].get('evalue')}")
            for i, (km, _) in enumerate(kernels):
                out[i].append((name, memory(km.provisioner.process.pid)))
        return out
    finally:
        for km, kc in kernels:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
