"""Every endpoint of the spec (tests/data/spec_endpoints.json, derived from shared/spec) has a sandbox handler
and a client function. Endpoints not built yet are listed in NOT_YET; the list may only shrink: an endpoint
that gets built must leave it (the test fails otherwise), so the list stays an honest record of the gaps."""
from __future__ import annotations

import json
import re
from pathlib import Path

from starlette.routing import Mount, Route

from toolkit.sandbox.app import create_app

SPEC = json.loads((Path(__file__).parent / "data" / "spec_endpoints.json").read_text("utf-8"))

NOT_YET: set[tuple[str, str, str]] = set()
CLIENT_NOT_YET: set[tuple[str, str, str]] = set()  # served by the sandbox, not yet wrapped by the client


def key(method: str, host: str, path: str) -> tuple[str, str, str]:
    return method, host, re.sub(r"\{format\}", "{FORMAT}", path, flags=re.I)


def sandbox_endpoints(sandbox) -> set[tuple[str, str, str]]:
    found = set()
    for mount in create_app(sandbox).routes:
        if not isinstance(mount, Mount):
            continue
        host = mount.path.strip("/")
        for route in mount.routes:
            if isinstance(route, Route):
                for method in route.methods or ():
                    found.add(key(method, host, route.path))
    return found


def test_spec_list_is_complete():
    assert len(SPEC) >= 60
    assert {r["host"] for r in SPEC} == {"auth", "api", "local", "navi", "status"}


def test_every_spec_endpoint_has_a_sandbox_handler_or_is_listed_as_not_yet(sandbox_server):
    served = sandbox_endpoints(sandbox_server.sandbox)
    missing = {key(r["method"], r["host"], r["path"]) for r in SPEC} - served
    assert missing <= NOT_YET, f"endpoints without a handler: {sorted(missing - NOT_YET)}"
    stale = NOT_YET - missing
    assert not stale, f"built now, remove from NOT_YET: {sorted(stale)}"


def test_every_spec_endpoint_has_a_client_function():
    import importlib

    from toolkit.area import WRAPPED
    from toolkit.client import AREAS

    for target in AREAS.values():
        importlib.import_module(target.split(":")[0])
    wrapped = {key(*k) for k in WRAPPED}
    missing = {key(r["method"], r["host"], r["path"]) for r in SPEC} - wrapped
    assert missing <= NOT_YET | CLIENT_NOT_YET, f"endpoints without a client function: {sorted(missing - NOT_YET)}"
    stale = CLIENT_NOT_YET - missing
    assert not stale, f"wrapped now, remove from CLIENT_NOT_YET: {sorted(stale)}"
