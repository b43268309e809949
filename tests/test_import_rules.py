"""The house rules of imports, read from the source (every import statement, at any depth):

* no client area imports ``toolkit.client`` or another client area (areas depend on the core only);
* the core (``http``, ``config``, ``errors``, ``frames``, ``area``) imports neither the client, nor an area,
  nor the package ``__init__``;
* the sandbox never imports a client module (only the neutral utilities ``toolkit.loopback``, ``toolkit.fonts``,
  ``toolkit.addresstext`` (how addresses are written: one reader for both sides),
  ``toolkit.latency`` and the package data ``toolkit.data``).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from toolkit.client import AREAS

PKG = Path(__file__).resolve().parents[1] / "toolkit"
AREA_MODULES = sorted({spec.split(":")[0].rsplit(".", 1)[1] for spec in AREAS.values()})
CORE = ["http", "config", "errors", "frames", "area", "secrets", "coords", "_version", "authpages"]
NEUTRAL_FOR_SANDBOX = {"toolkit.loopback", "toolkit.fonts", "toolkit.latency", "toolkit.data", "toolkit.addresstext",
                       "toolkit.classroom", "toolkit.secrets"}   # class tokens: both sides derive them alike


def imports_of(path: Path) -> set[str]:
    """The absolute names of the toolkit modules ``path`` imports."""
    package = ".".join(path.relative_to(PKG.parent).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("toolkit")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("toolkit"):
                continue
            out.add(mod)
            if not node.module:      # ``from . import client``
                out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def test_the_reader_resolves_relative_imports():
    names = imports_of(PKG / "sandbox" / "server.py")
    assert "toolkit.loopback" in names and all(n.startswith("toolkit") for n in names)


@pytest.mark.parametrize("area", AREA_MODULES)
def test_no_area_imports_the_client_or_another_area(area):
    names = imports_of(PKG / f"{area}.py")
    forbidden = {"toolkit.client", "toolkit"} | {f"toolkit.{a}" for a in AREA_MODULES if a != area}
    assert not names & forbidden, f"toolkit.{area} imports {sorted(names & forbidden)}"


@pytest.mark.parametrize("module", CORE)
def test_the_core_imports_no_client_area_nor_the_package(module):
    names = imports_of(PKG / f"{module}.py")
    forbidden = {"toolkit.client", "toolkit"} | {f"toolkit.{a}" for a in AREA_MODULES}
    assert not names & forbidden, f"toolkit.{module} imports {sorted(names & forbidden)}"


def test_the_sandbox_never_imports_a_client_module():
    offenders = {}
    for path in (PKG / "sandbox").rglob("*.py"):
        bad = {n for n in imports_of(path) if not n.startswith("toolkit.sandbox") and n not in NEUTRAL_FOR_SANDBOX}
        if bad:
            offenders[str(path.relative_to(PKG))] = sorted(bad)
    assert not offenders
