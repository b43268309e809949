"""Control API (``/sandbox/...``): not part of the service. Tests and notebooks use it to act as the end user
or as the platform.

* ``GET /sandbox/config`` — hosts and the demo app (as ``toolkit sandbox --print-config``)
* ``GET /sandbox/clock`` — the sandbox time; ``POST /sandbox/clock`` with ``{"advance": seconds}``,
  ``{"set": "2026-12-01T00:00:00Z"}`` or ``{"freeze": true|false}``
* ``POST /sandbox/quotas`` with ``{"api": "<api id>", "limit": N|null}`` — daily quota per API id (-10 beyond)
* ``POST /sandbox/webhooks`` with ``{"unlink": url, "account_status": url, ...}`` — the demo app's webhook URLs
* ``GET /sandbox/health``
"""
from __future__ import annotations

import json

from starlette.requests import Request
from starlette.routing import Route

from ..web import api_error, json_response, sandbox_of


async def _json_body(request: Request) -> dict:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        raise api_error(400, -2, "control API bodies are JSON objects") from None
    if not isinstance(body, dict):
        raise api_error(400, -2, "control API bodies are JSON objects")
    return body


async def config(request: Request):
    return json_response(sandbox_of(request).config())


async def health(request: Request):
    return json_response({"ok": True, "now": sandbox_of(request).clock.describe()["now"]})


async def clock(request: Request):
    sb = sandbox_of(request)
    if request.method == "GET":
        return json_response(sb.clock.describe())
    body = await _json_body(request)
    try:
        if "set" in body:
            sb.clock.set(body["set"])
        if "advance" in body:
            sb.clock.advance(float(body["advance"]))
        if "freeze" in body:
            sb.clock.freeze(bool(body["freeze"]))
    except (TypeError, ValueError) as exc:
        raise api_error(400, -2, f"bad clock change: {exc}") from None
    return json_response(sb.clock.describe())


async def quotas(request: Request):
    sb = sandbox_of(request)
    body = await _json_body(request)
    api, limit = body.get("api"), body.get("limit")
    if not isinstance(api, str) or not api:
        raise api_error(400, -2, "api (an API id) is required")
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise api_error(400, -2, "limit must be a non-negative integer or null")
    sb.apps.set_quota(body.get("app_id", sb.apps.app()["app_id"]), api, limit)
    return json_response({"api": api, "limit": limit})


async def webhooks(request: Request):
    sb = sandbox_of(request)
    body = await _json_body(request)
    app_id = body.pop("app_id", sb.apps.app()["app_id"])
    return json_response(sb.apps.set_webhooks(app_id, **body))


def routes(sandbox):
    return {"sandbox": [
        Route("/config", config), Route("/health", health), Route("/clock", clock, methods=["GET", "POST"]),
        Route("/quotas", quotas, methods=["POST"]), Route("/webhooks", webhooks, methods=["POST"]),
    ]}
