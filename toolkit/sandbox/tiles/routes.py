"""``GET /sandbox/tiles/{z}/{x}/{y}.png`` — a 256×256 PNG tile (Web Mercator, XYZ numbering) of the sandbox's
world. Not part of the spec (control API). Errors use the spec's shape 1 (``{"msg", "code"}``, HTTP 400):
``z`` outside 0–18, ``x``/``y`` outside ``0 … 2**z - 1`` or not integers. Tiles are cached per process
(``Cache-Control: max-age=86400``, since they depend only on the datasets)."""
from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..web import api_error
from .render import MAX_ZOOM


def _int(request: Request, name: str) -> int:
    raw = request.path_params[name]
    try:
        return int(raw)
    except ValueError:
        raise api_error(400, -2, f"{name} must be an integer, got {raw!r}") from None


async def tile(request: Request):
    z, x, y = _int(request, "z"), _int(request, "x"), _int(request, "y")
    if not 0 <= z <= MAX_ZOOM:
        raise api_error(400, -2, f"z must be between 0 and {MAX_ZOOM}, got {z}")
    n = 1 << z
    for name, v in (("x", x), ("y", y)):
        if not 0 <= v < n:
            raise api_error(400, -2, f"{name} must be between 0 and {n - 1} at zoom {z}, got {v}")
    rend = request.app.state.sandbox.model("tiles").renderer
    png = rend.cached(z, x, y)
    if png is None:
        png = await asyncio.to_thread(rend.tile, z, x, y)
    return Response(png, media_type="image/png", headers={"Cache-Control": "public, max-age=86400"})


def routes(sandbox):
    return {"sandbox": [Route("/tiles/{z}/{x}/{y}.png", tile, methods=["GET"])]}
