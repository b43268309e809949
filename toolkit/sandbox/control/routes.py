"""Control API (``/sandbox/...``): not part of the service. Tests and notebooks use it to act as the end user
or as the platform.

* ``GET /sandbox/config`` — hosts and the demo app (as ``toolkit sandbox --print-config``)
* ``GET /sandbox/clock`` — the sandbox time; ``POST /sandbox/clock`` with ``{"advance": seconds}``,
  ``{"set": "2026-12-01T00:00:00Z"}`` or ``{"freeze": true|false}``
* ``POST /sandbox/quotas`` with ``{"api": "<api id>", "limit": N|null}`` — daily quota per API id (-10 beyond)
* ``POST /sandbox/webhooks`` with ``{"unlink": url, "account_status": url, ...}`` — the demo app's webhook URLs
* ``POST /sandbox/apps`` with ``{"name": "...", "channels": [{"channel_public_id", "channel_uuid", "name"}]}``
  — another app with its keys (REST, admin, JS, native, client secret) and channels; ``GET /sandbox/apps``
  lists every app's config. Users consent to an app with ``POST /sandbox/login {"app_id": ...}``. The body may
  set the app as a developer console does (:func:`..apps.models.check_settings`): ``redirect_uris``,
  ``logout_redirect_uris``, ``web_domains``, ``client_secret_required`` (false: the token endpoint takes no
  secret), ``consent_items`` (``{"profile": "required", "talk_message": "optional"}``) and ``service_terms``
  (``[{"tag": "terms", "required": true}]``); ``PATCH /sandbox/apps/{app_id}`` changes them later.
* ``GET /sandbox/health``
* ``GET /sandbox/openapi.json`` — the OpenAPI 3.1 document of the spec endpoints (:mod:`toolkit.sandbox.openapi`)
* ``GET /sandbox/callback`` and ``GET /sandbox/logged-out`` — the demo app's registered redirect and logout
  redirect pages: they show the outcome and ask the learner to paste the address into the notebook
  (``tk.oauth.complete(request, url)`` or the login widget)
* ``POST /sandbox/reset`` — throw the state away and start again from the seed (same port, same seed, clock
  start and frozen flag; a sandbox persisted in a file answers 409): what ``toolkit.connect(fresh=True)`` does
* ``GET /sandbox/fonts/NanumGothic.ttf`` — the bundled Hangul web font every sandbox page uses (cached a day)
* ``POST /sandbox/checks`` with ``{"exercise": "00.2", "ok": true}`` — a kernel's self-check verdict
  (``toolkit.lessons.check``), never the answer; ``GET /sandbox/checks`` lists them (``{"checks": [...]}``). In a
  class the class sandbox keeps them per student too, for the teacher's progress table.
* ``POST /sandbox/raised`` with ``{"kind": "KeyError"}`` — the class name of an error that ended a cell of the
  learner's own code (:func:`toolkit.lessons.watch_kernel`), never its message or code; ``GET`` lists them (in a
  class the class sandbox keeps each student's last one).
"""
from __future__ import annotations


from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.routing import Route

from ..apps.models import check_settings
from ..clock import ClockError
from ..identity.models import SCOPES
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
    if sb.class_policy is not None:            # a student's world: webhooks go where a class allows, nowhere else
        await sb.class_policy[0].check_webhooks(body, sb.class_policy[1])
    return json_response(sb.apps.set_webhooks(app_id, **body))


async def apps(request: Request):
    sb = sandbox_of(request)
    if request.method == "GET":
        return json_response({"apps": [sb.apps.public_config(a) for a in sb.apps.app_ids()]})
    body = await read_json(request)
    name, channels = body.get("name", "Sandbox App"), body.get("channels", [])
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise api_error(400, -2, "name must be text of 1 to 100 characters")
    settings = check_settings(body, SCOPES, partial=False)
    if sb.class_policy is not None:            # a student's world: the app's URLs stay on the class's origins
        sb.class_policy[0].check_app_urls(request, settings)
    if not isinstance(channels, list) or len(channels) > 20:
        raise api_error(400, -2, "channels must be a list of at most 20 channels")
    social = sb.model("social")
    taken = {c["channel_public_id"] for c in social.channels(None)}
    wanted = []
    for ch in channels:  # all checked before the app is made: a refused request changes nothing
        fields = ch if isinstance(ch, dict) else {}
        public_id, uuid = fields.get("channel_public_id"), fields.get("channel_uuid")
        if not all(isinstance(v, str) and 1 <= len(v) <= 64 for v in (public_id, uuid)):
            raise api_error(400, -2, "each channel needs channel_public_id and channel_uuid (text)")
        if public_id in taken:
            raise api_error(400, -2, f"channel {public_id!r} exists already")
        taken.add(public_id)
        wanted.append((public_id, uuid, str(fields.get("name") or uuid)[:100]))
    config = sb.apps.create_app(name, settings)
    for public_id, uuid, ch_name in wanted:
        social.add_channel(config["app_id"], public_id, uuid, ch_name)
    if "service_terms" in settings:
        sb.model("identity").set_app_terms(config["app_id"], settings["service_terms"])
    return json_response(_app_answer(sb, config["app_id"]))


def _app_answer(sb, app_id: str) -> dict:
    """An app's config with its channels and service terms."""
    terms = [{"tag": t["tag"], "required": bool(t["required"])} for t in sb.model("identity").app_terms(app_id)]
    return {**sb.apps.public_config(app_id), "service_terms": terms,
            "channels": [c["channel_public_id"] for c in sb.model("social").channels(app_id)]}


async def app_settings(request: Request):
    """``PATCH``/``PUT /sandbox/apps/{app_id}``: change an app's settings (those given; all checked first)."""
    sb = sandbox_of(request)
    app_id = request.path_params["app_id"]
    if sb.apps.app(app_id) is None:
        raise api_error(404, -2, f"no app {app_id[:20]!r} in the sandbox (GET /sandbox/apps lists them)")
    body = await read_json(request)
    if "channels" in body:
        raise api_error(400, -2, "channels are set when the app is made (POST /sandbox/apps)")
    settings = check_settings(body, SCOPES, partial=True)
    if sb.class_policy is not None:
        sb.class_policy[0].check_app_urls(request, settings)
    sb.apps.update_app(app_id, settings)
    if "service_terms" in settings:
        sb.model("identity").set_app_terms(app_id, settings["service_terms"])
    return json_response(_app_answer(sb, app_id))


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


async def checks(request: Request):
    """``POST /sandbox/checks`` ``{"exercise": "00.2", "ok": true}``: keep a self-check verdict (nothing else is
    taken: an unknown key is HTTP 400); ``GET``: the verdicts kept, oldest first."""
    sb = sandbox_of(request)
    model = sb.model("control")
    if request.method == "GET":
        return json_response({"checks": model.checks()})
    body = await read_json(request)
    unknown = sorted(set(body) - {"exercise", "ok"})
    if unknown:
        raise api_error(400, -2, 'a check is {"exercise": id, "ok": bool} (unknown: '
                        f"{', '.join(unknown)[:80]})")
    try:
        row = model.note_check(body.get("exercise"), body.get("ok"))
    except ValueError as exc:
        raise api_error(400, -2, str(exc)) from None
    hook = getattr(sb, "on_check", None)       # a class sandbox keeps the student's verdicts across resets
    if hook is not None:
        await run_in_threadpool(hook, row)
    return json_response(row)


async def raised(request: Request):
    """``POST /sandbox/raised`` ``{"kind": "KeyError"}``: keep the kind of an error the learner's own cell raised
    (the exception's class name only: an unknown key, or a message, is HTTP 400); ``GET``: the kinds kept, oldest
    first."""
    sb = sandbox_of(request)
    model = sb.model("control")
    if request.method == "GET":
        return json_response({"raised": model.raised()})
    body = await read_json(request)
    unknown = sorted(set(body) - {"kind"})
    if unknown:
        raise api_error(400, -2, 'a raised error is {"kind": class name} (unknown: ' f"{', '.join(unknown)[:80]})")
    try:
        row = model.note_raised(body.get("kind"))
    except ValueError as exc:
        raise api_error(400, -2, str(exc)) from None
    hook = getattr(sb, "on_raised", None)      # a class sandbox keeps the student's last one across resets
    if hook is not None:
        await run_in_threadpool(hook, row)
    return json_response(row)


async def logged_out(request: Request):
    return _page("Logged out", "<p id='logged-out'>You are logged out of the sandbox account.</p>")


def routes(sandbox):
    return {"sandbox": [
        Route("/config", config), Route("/health", health), Route("/clock", clock, methods=["GET", "POST"]),
        Route("/apps", apps, methods=["GET", "POST"]),
        Route("/apps/{app_id}", app_settings, methods=["PATCH", "PUT"]), Route("/quotas", quotas, methods=["POST"]), Route("/webhooks", webhooks, methods=["POST"]),
        Route("/callback", callback), Route("/logged-out", logged_out),
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/fonts/{name}", font, methods=["GET"]), Route("/reset", reset, methods=["POST"]),
        Route("/checks", checks, methods=["GET", "POST"]), Route("/raised", raised, methods=["GET", "POST"]),
    ]}
