"""The sandbox's top-level router answers exactly as Starlette's nested mounts do: for every route of the
sandbox (its real paths and methods, with a recording endpoint) and for paths next to them (other methods,
trailing slashes, unknown paths, other hosts), the same status, the same redirect and the same scope."""
from __future__ import annotations

import asyncio
import json
import re

from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Mount, Route, Router

from toolkit.sandbox.app import Sandbox, create_app
from toolkit.sandbox.dispatch import HostRouter


async def recorder(request):
    scope = request.scope
    seen = {"endpoint": scope["endpoint"].__name__, "path_params": scope["path_params"], "path": scope["path"],
            "root_path": scope["root_path"], "app_root_path": scope.get("app_root_path"),
            "route": scope["route"].name, "url": str(request.url),
            "base_url": str(request.base_url)}
    return Response(json.dumps(seen), media_type="application/json")


def tables():
    """The sandbox's mounts, each route's endpoint replaced by the recorder (same paths, methods, order)."""
    sandbox = Sandbox()
    try:
        mounts = create_app(sandbox).routes
    finally:
        sandbox.store.close()
    out = []
    for mount in mounts:
        inner = [Route(r.path, recorder, methods=sorted(r.methods), name=r.endpoint.__name__) for r in mount.app.routes]
        out.append(Mount(mount.path, app=Router(routes=inner)))
    return out


def request(app, method: str, path: str):
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "server": ("127.0.0.1", 9), "client": ("127.0.0.1", 1), "root_path": "", "path": path,
             "raw_path": path.encode(), "query_string": b"", "headers": [(b"host", b"127.0.0.1:9")]}
    asyncio.run(app(scope, receive, send))
    start = sent[0]
    return start["status"], sorted(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def paths(mounts):
    for mount in mounts:
        for route in mount.app.routes:
            concrete = re.sub(r"\{[^}]+\}", "json", route.path)
            full = mount.path + concrete
            yield from (full, full + "/", full.rstrip("/") + "x", full.replace("json", "1/2"))
        yield from (mount.path, mount.path + "/", mount.path + "/nothing", mount.path + "//")
    yield from ("/", "/nowhere", "/local/v2/local/search/address.json/", "/LOCAL/v2/local/search/address.json")


def test_same_answers_as_nested_mounts():
    mounts = tables()
    nested = Starlette(routes=mounts)
    flat = Starlette(routes=mounts)
    flat.router = HostRouter(mounts)
    assert flat.router.flat is not None and len(flat.router.flat) == sum(len(m.app.routes) for m in mounts)
    checked = 0
    for path in paths(mounts):
        for method in ("GET", "POST", "DELETE", "PUT", "HEAD"):
            assert request(flat, method, path) == request(nested, method, path), (method, path)
            checked += 1
    assert checked > 500


def test_a_route_answers_with_its_path_params_and_the_mount_scope():
    mounts = tables()
    flat = Starlette(routes=mounts)
    flat.router = HostRouter(mounts)
    status, _, body = request(flat, "GET", "/local/v2/local/search/keyword.xml")
    seen = json.loads(body)
    assert status == 200 and seen["path_params"] == {"format": "xml"} and seen["root_path"] == "/local"
    assert seen["endpoint"] == "recorder" and seen["url"] == "http://127.0.0.1:9/local/v2/local/search/keyword.xml"


def test_a_route_kind_it_does_not_know_leaves_the_walk_to_starlette():
    inner = Router(routes=[Mount("/static", app=Router(routes=[]))])
    assert HostRouter([Mount("/x", app=inner)]).flat is not None
    assert HostRouter([Route("/x", recorder)]).flat is None
