"""Control API (``/sandbox/...``): not part of the service. Tests and notebooks use it to act as the end user
or as the platform.

* ``GET /sandbox/config`` — hosts and the demo app (as ``toolkit sandbox --print-config``)
* ``GET /sandbox/clock`` — the sandbox time; ``POST /sandbox/clock`` with ``{"advance": seconds}``,
  ``{"set": "2026-12-01T00:00:00Z"}`` or ``{"freeze": true|false}``
* ``POST /sandbox/quotas`` with ``{"api": "<api id>", "limit": N|null}`` — daily quota per API id (-10 beyond)
* ``POST /sandbox/webhooks`` with ``{"unlink": url, "account_status": url, ...}`` — the demo app's webhook URLs
* ``GET /sandbox/health``
* ``GET /sandbox/openapi.json`` — the OpenAPI 3.1 document of the spec endpoints (:mod:`toolkit.sandbox.openapi`)
* ``GET /sandbox/callback`` and ``GET /sandbox/logged-out`` — the demo app's registered redirect and logout
  redirect pages: they show the outcome and ask the learner to paste the address into the notebook
  (``tk.oauth.complete(request, url)`` or the login widget)
* ``POST /sandbox/reset`` — throw the state away and start again from the seed (same port, same seed, clock
  start and frozen flag; a sandbox persisted in a file answers 409): what ``toolkit.connect(fresh=True)`` does
* ``GET /sandbox/fonts/NanumGothic.ttf`` — the bundled Hangul web font every sandbox page uses (cached a day)
"""
from __future__ import annotations


from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ..clock import ClockError
from ..pages import FONT_CSS, FONT_STACK, font_bytes
from ..web import api_error, json_response, read_json, sandbox_of


async def config(request: Request):
    return json_response(sandbox_of(request).config())


async def health(request: Request):
    return json_response({"ok": True, "now": sandbox_of(request).clock.describe()["now"]})


async def clock(request: Request):
    sb = sandbox_of(request)
    if request.method == "GET":
        return json_response(sb.clock.describe())
    body = await read_json(request)
    unknown = sorted(set(body) - {"set", "advance", "freeze"})
    if unknown or not body:
        raise api_error(400, -2, "a clock change is {\"set\": time, \"advance\": seconds, \"freeze\": bool}"
                        + (f" (unknown: {', '.join(unknown)[:80]})" if unknown else ""))
    try:  # checked as a whole before anything changes (Clock.change)
        sb.clock.change(set=body.get("set"), advance=body.get("advance"), freeze=body.get("freeze"))
    except ClockError as exc:
        raise api_error(400, -2, f"bad clock change: {exc}") from None
    sb.clock_changed()
    return json_response(sb.clock.describe())


async def quotas(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    api, limit = body.get("api"), body.get("limit")
    if not isinstance(api, str) or not api:
        raise api_error(400, -2, "api (an API id) is required")
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise api_error(400, -2, "limit must be a non-negative integer or null")
    if isinstance(limit, bool) or (limit is not None and limit > 2 ** 31):
        raise api_error(400, -2, "limit must be a non-negative integer or null")
    sb.apps.set_quota(sb.apps.app_id_of(body), api, limit)
    return json_response({"api": api, "limit": limit})


async def webhooks(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id = sb.apps.app_id_of(body)
    body.pop("app_id", None)
    return json_response(sb.apps.set_webhooks(app_id, **body))


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
                        f"<style>{FONT_CSS}body{{font-family:{FONT_STACK};max-width:40em;margin:3em auto}}</style></head>"
                        f"<body><h1>{escape(title)}</h1>{body}</body></html>")


async def callback(request: Request):
    q = request.query_params
    if "error" in q:
        return _page("Login did not complete", f"<p id='error'><b>{escape(q['error'])}</b>: "
                     f"{escape(q.get('error_description', ''))}</p>")
    if "code" in q:
        return _page("Login complete", "<p id='done'>The demo app received an authorization code. Copy the whole "
                     "address of this page into the notebook to finish the login.</p>")
    return _page("Nothing to show", "<p>This page receives the login result of the sandbox demo app.</p>")


async def openapi_json(request: Request):
    """``GET /sandbox/openapi.json``: the OpenAPI 3.1 document of the spec endpoints (see ``..openapi``)."""
    from ..openapi import build_document

    return json_response(build_document(f"{request.url.scheme}://{request.url.netloc}"))


def reset(request: Request):
    """``POST /sandbox/reset`` (a sync handler: runs in the thread pool, as the old state's webhook worker is
    joined). Answers the new state's config."""
    do_reset = getattr(request.app.state, "reset", None)
    if do_reset is None:
        raise api_error(409, -2, "this sandbox app is not served by a SandboxServer: it cannot be reset")
    try:
        server = do_reset()
    except ValueError as exc:
        raise api_error(409, -2, str(exc)) from None
    return json_response(server.sandbox.config())


async def font(request: Request):
    """``GET /sandbox/fonts/NanumGothic.ttf`` (and ``NanumGothicBold.ttf``): the bundled Hangul web font of the
    sandbox's pages, cacheable for a day (it changes only with the font package)."""
    data = font_bytes(request.path_params["name"])
    if data is None:
        raise api_error(404, -404, "no such font: " + request.path_params["name"])
    return Response(data, media_type="font/ttf", headers={"Cache-Control": "public, max-age=86400, immutable"})


async def logged_out(request: Request):
    return _page("Logged out", "<p id='logged-out'>You are logged out of the sandbox account.</p>")


def routes(sandbox):
    return {"sandbox": [
        Route("/config", config), Route("/health", health), Route("/clock", clock, methods=["GET", "POST"]),
        Route("/quotas", quotas, methods=["POST"]), Route("/webhooks", webhooks, methods=["POST"]),
        Route("/callback", callback), Route("/logged-out", logged_out),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/fonts/{name}", font, methods=["GET"]), Route("/reset", reset, methods=["POST"]),
    ]}
