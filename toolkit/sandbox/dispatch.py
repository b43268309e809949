"""The sandbox's top-level router: the hosts stay mounts (``/auth``, ``/api``, ...), but a request is routed in
one step, to the few routes whose path pattern matches its path.

Starlette walks a router's routes in order, matching each route's regular expression against the path, and a
mount adds a second router and its walk below the first. :class:`HostRouter` keeps the app's routes as they
are (the mounts, for ``app.routes`` and for every answer that is not a route's) and routes through a flat
copy of them: each mount's routes with the mount's path in front, in the same order. For a request path it
finds once (kept in a bounded table) which of those can match it, and walks only those, with Starlette's own
rules: the first full match answers, else the first partial one (a known path with another method: 405).
When none matches, Starlette's walk over the mounts answers as before (redirect of a missing trailing slash,
404). A route reached either way sees the same scope (``path``, ``root_path``, ``app_root_path``,
``path_params``, ``endpoint``; ``route`` is the flat copy of the route, its path with the mount's in front).
"""
from __future__ import annotations

import copy
from collections.abc import Sequence

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, Mount, Route, Router, compile_path

__all__ = ["HostRouter"]

MAX_PATHS = 4096      # request paths whose candidate routes are kept (the table is emptied when full)
MAX_PATH_LENGTH = 512  # longer paths are not kept


def _prefixed(route: BaseRoute, prefix: str) -> Route | Mount | None:
    """A copy of ``route`` answering under ``prefix`` (None for a kind of route this router does not flatten)."""
    # ``host_path`` is this module's own attribute on the copies (read by HostRouter._handle): Starlette's
    # classes do not declare it
    if type(route) is Route:
        flat_route = copy.copy(route)
        flat_route.path = prefix + route.path
        flat_route.path_regex, flat_route.path_format, flat_route.param_convertors = compile_path(flat_route.path)
        flat_route.host_path = prefix  # type: ignore[attr-defined]
        return flat_route
    if type(route) is Mount:
        flat_mount = copy.copy(route)
        flat_mount.path = prefix + route.path
        flat_mount.path_regex, flat_mount.path_format, flat_mount.param_convertors = \
            compile_path(flat_mount.path + "/{path:path}")
        flat_mount.host_path = prefix  # type: ignore[attr-defined]
        return flat_mount
    return None


def flatten(routes: list[BaseRoute]) -> list[Route | Mount] | None:
    """The routes of each mount under its path, in order; None when a route cannot be flattened exactly."""
    flat: list[Route | Mount] = []
    for route in routes:
        if type(route) is not Mount or not isinstance(route.app, Router) or type(route.app) is not Router \
                or route.param_convertors.keys() != {"path"} or route.app.middleware_stack != route.app.app:
            return None
        for inner in route.app.routes:
            copied = _prefixed(inner, route.path)
            if copied is None:
                return None
            flat.append(copied)
    return flat


class HostRouter(Router):
    """A :class:`starlette.routing.Router` over mounts that routes each request through the routes that can
    match its path (see the module's text).

    >>> from starlette.responses import PlainTextResponse
    >>> ok = Route("/v1/{name}", lambda request: PlainTextResponse(request.path_params["name"]))
    >>> router = HostRouter([Mount("/api", app=Router([ok]))])
    >>> [route.path for route in router.flat]
    ['/api/v1/{name}']
    """

    def __init__(self, routes: Sequence[BaseRoute], **options):
        super().__init__(routes=routes, **options)
        self.flat = flatten(list(self.routes))
        self._candidates: dict[str, tuple[Route | Mount, ...]] = {}

    def candidates(self, scope) -> tuple[Route | Mount, ...]:
        """The flat routes whose path pattern matches this request's path, in order."""
        route_path = get_route_path(scope)
        found = self._candidates.get(route_path)
        if found is None:
            found = tuple(route for route in self.flat or () if route.path_regex.match(route_path))
            if len(route_path) <= MAX_PATH_LENGTH:
                if len(self._candidates) >= MAX_PATHS:
                    self._candidates.clear()
                self._candidates[route_path] = found
        return found

    async def app(self, scope, receive, send) -> None:
        if scope["type"] == "http" and self.flat is not None:
            partial = partial_scope = None
            for route in self.candidates(scope):
                match, child_scope = route.matches(scope)
                if match is Match.FULL:
                    await self._handle(route, child_scope, scope, receive, send)
                    return
                if match is Match.PARTIAL and partial is None:
                    partial, partial_scope = route, child_scope
            if partial is not None:
                await self._handle(partial, partial_scope, scope, receive, send)
                return
        await super().app(scope, receive, send)

    async def _handle(self, route, child_scope, scope, receive, send) -> None:
        """What the mount, then its router, would have set in the scope, and the route's answer."""
        root_path = scope.get("root_path", "")
        scope.setdefault("router", self)
        scope["app_root_path"] = scope.get("app_root_path", root_path)
        scope["root_path"] = root_path + route.host_path
        scope["route"] = route
        scope.update(child_scope)
        await route.handle(scope, receive, send)
