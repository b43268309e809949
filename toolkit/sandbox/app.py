"""The sandbox's state (:class:`Sandbox`) and its ASGI app (:func:`create_app`).

Five hosts on one port: ``/auth``, ``/api``, ``/local``, ``/navi``, ``/status`` with the spec's paths beneath,
plus the control API under ``/sandbox``. Areas plug in by name (:data:`AREAS`): each is a package
``toolkit.sandbox.<area>`` with ``models.py`` (``SCHEMA``, ``Model(sandbox)`` with an optional ``seed(rng)``)
and ``routes.py`` (``routes(sandbox) -> {host: [Route, ...]}``).
"""
from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypedDict

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Router

from .clock import DEFAULT_START, Clock
from .dispatch import HostRouter
from .guard import RequestGuard
from .lane import Lane
from .store import Store
from .web import SpecError, api_error, json_response

if TYPE_CHECKING:
    from .classroom import ClassPolicy
    from .lane import Handler

__all__ = ["Sandbox", "SandboxApp", "create_app", "AREAS", "HOSTS"]

AREAS = ("apps", "control", "utility", "identity", "business", "social", "local", "navi", "events", "tiles")
HOSTS = ("auth", "api", "local", "navi", "status")


class SandboxOptions(TypedDict):
    """The keyword arguments of :class:`Sandbox` a server keeps to make the same sandbox again (on reset)."""

    seed: int
    clock_start: str
    frozen: bool
    clock: str


def datasets_dir() -> Path:
    """The data folder of the world (shipped inside the package; ``TOOLKIT_DATASETS`` overrides it, see
    :mod:`toolkit.data`)."""
    from ..data import root

    return root()


class Sandbox:
    """All state of one sandbox: store, clock, demo app, area models. Seeds a fresh store deterministically."""

    def __init__(self, db: str = ":memory:", *, seed: int = 7, clock_start: str = DEFAULT_START,
                 frozen: bool = False, base_url: str | None = None, clock: str = "virtual"):
        self.store = Store(db)
        try:
            found = self.store.check_version()   # a newer file is refused before anything is written
        except Exception:
            self.store.close()
            raise
        self.seed = int(self.store.get_meta("seed", seed))
        self.clock = Clock(self.store, clock_start, frozen, mode=clock)
        self.base_url = base_url
        # (policy, student) in a class sandbox: see toolkit.sandbox.classroom.ClassPolicy
        self.class_policy: tuple[ClassPolicy, str] | None = None
        # a class sandbox keeps the student's self-checks and raised errors (the rows POST /sandbox/checks and
        # /sandbox/raised wrote) across the world's resets: see toolkit.sandbox.classroom.Classroom
        self.on_check: Callable[[dict], None] | None = None
        self.on_raised: Callable[[dict], None] | None = None
        self.datasets = datasets_dir()
        self.models: dict[str, Any] = {}   # area → its model (a class of its own per area, loaded by name)
        for area in AREAS:
            module = importlib.import_module(f"{__package__}.{area}.models")
            if getattr(module, "SCHEMA", None):
                self.store.script(module.SCHEMA)
            self.models[area] = module.Model(self)
        self.store.migrate(found)                # an older file's tables brought to this version, in place
        # Each area is seeded once per store; a persisted store made before an area existed gets that area's
        # seed data on its next start (areas seed with their own random stream, so the others are unaffected).
        seeded = self.store.get_meta("seeded_areas", [])
        for area, model in self.models.items():
            if area not in seeded and hasattr(model, "seed"):
                model.seed(random.Random(f"{self.seed}:{area}"))
        if set(self.models) - set(seeded):
            self.store.set_meta("seed", self.seed)
            self.store.set_meta("seeded_areas", sorted(set(seeded) | set(self.models)))

    @property
    def apps(self):
        return self.models["apps"]

    def model(self, area: str):
        return self.models[area]

    def clock_changed(self) -> None:
        """Run the time-driven rules of every area after the clock was advanced or set (e.g. pending links
        older than 24 hours become unlinked at once, so their webhooks go out without waiting for a request)."""
        for model in self.models.values():
            hook = getattr(model, "on_clock", None)
            if hook is not None:
                hook()

    def hosts(self) -> dict[str, str]:
        base = (self.base_url or "").rstrip("/")
        return {host: f"{base}/{host}" for host in HOSTS}

    def config(self) -> dict:
        """What ``toolkit sandbox --print-config`` prints; ``world`` names the city of the world and its bounds."""
        return {"hosts": self.hosts(), "app": self.apps.public_config(), "world": self.models["local"].world_info()}


async def _spec_error(request: Request, exc: SpecError) -> Response:
    return exc.response()


async def _not_found(request: Request, exc) -> Response:
    return json_response({"msg": f"no such API: {request.method} {request.url.path}", "code": -404}, 404)


async def _bad_method(request: Request, exc) -> Response:
    return json_response({"msg": f"method {request.method} not allowed here", "code": -405}, 405)


def _internal_error(exc: Exception) -> SpecError:
    return api_error(500, -1, f"internal error of the sandbox: {type(exc).__name__}")


async def _internal(request: Request, exc: Exception) -> Response:
    """A real bug stays visible: HTTP 500. :class:`RequestGuard` keeps hostile input away from the routes, so
    only a defect of the sandbox reaches this handler."""
    return _internal_error(exc).response()


class SandboxApp(Starlette):
    """The sandbox's Starlette app, with its request lane (:mod:`.lane`) in front: the busiest reads are
    answered there, every other request by the whole stack. ``lane = None`` turns the lane off."""

    lane: Lane | None = None

    async def __call__(self, scope, receive, send) -> None:
        if self.lane is None or not await self.lane(scope, receive, send):
            await super().__call__(scope, receive, send)


def create_app(sandbox: Sandbox, *, lane: bool = True) -> SandboxApp:
    per_host: dict[str, list] = {host: [] for host in (*HOSTS, "sandbox")}
    lanes: dict[str, Handler] = {}
    for area in AREAS:
        module = importlib.import_module(f"{__package__}.{area}.routes")
        for host, routes in module.routes(sandbox).items():
            per_host[host].extend(routes)
        for host, handlers in getattr(module, "lanes", lambda s: {})(sandbox).items():
            lanes.update({f"/{host}{path}": handler for path, handler in handlers.items()})
    mounts = [Mount(f"/{host}", app=Router(routes=routes)) for host, routes in per_host.items()]
    handlers = {SpecError: _spec_error, 404: _not_found, 405: _bad_method, Exception: _internal}
    app = SandboxApp(routes=mounts, exception_handlers=handlers, middleware=[Middleware(RequestGuard)])
    app.router = HostRouter(mounts)    # the same mounts, each request routed in one step (see dispatch.py)
    app.state.sandbox = sandbox
    if lane:
        app.lane = Lane(lanes, _internal_error)
    return app
