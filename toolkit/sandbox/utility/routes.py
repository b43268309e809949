"""HTTP of the utility area: ``GET {api_url}/v1/system/ips``, ``GET {status_url}/api/health/current``,
``GET {status_url}/api/health/history`` and the control API ``/sandbox/status/incidents``.

The history endpoint answers a top-level array, as the spec says; its ``warning`` (invalid product or API
ids) travels in the ``X-Status-Warning`` header as JSON, since an array has no room for it (a sandbox choice:
the spec does not say how the real service reports it there).
"""
from __future__ import annotations

import json
from datetime import date, datetime, timedelta

from starlette.requests import Request
from starlette.routing import Route

from ..web import Params, api_error, json_response, read_fields, require_app_key, sandbox_of
from .models import HISTORY_DAYS, LANGS, STATUSES


def _model(request: Request):
    return sandbox_of(request).model("utility")


async def system_ips(request: Request):
    require_app_key(request, kinds=("native_app", "rest_api", "javascript", "admin"))
    p = Params(await read_fields(request))
    rule_type = p.enum("rule_type", ("inbound", "outbound"))
    return json_response(_model(request).ip_lists(rule_type))


def _filters(p: Params):
    return p.csv("product"), p.csv("api"), p.enum("lang", LANGS, "ko")


async def health_current(request: Request):
    p = Params(await read_fields(request))
    products, apis, lang = _filters(p)
    return json_response(_model(request).current(products, apis, lang))


def _day(p: Params, name: str, default: date) -> date:
    raw = p.str(name)
    if raw is None:
        return default
    try:
        return datetime.strptime(raw, "%Y-%m-%d").date()
    except ValueError:
        raise api_error(400, -2, f"{name} must be a date written yyyy-MM-dd") from None


async def health_history(request: Request):
    model = _model(request)
    p = Params(await read_fields(request))
    products, apis, lang = _filters(p)
    today = model.today()
    earliest = today - timedelta(days=HISTORY_DAYS)
    start = _day(p, "start", earliest)
    end = min(_day(p, "end", today), today)
    if start < earliest:
        raise api_error(400, -2, f"start must be at most {HISTORY_DAYS} days before the request date ({earliest})")
    if start > end:
        raise api_error(400, -2, "start must not be after end")
    entries, warning = model.history(start, end, products, apis, lang)
    headers = {"X-Status-Warning": json.dumps(warning)} if warning else None
    return json_response(entries, headers=headers)


async def incidents(request: Request):
    sb = sandbox_of(request)
    model = sb.model("utility")
    if request.method == "GET":
        return json_response(model.incidents())
    try:
        body = json.loads(await request.body() or b"{}")
        start = int(body.get("start", sb.clock.unix()))
        end = int(body.get("end", start + float(body.get("hours", 1)) * 3600))
        return json_response(model.add_incident(body["api"], body.get("status", "RED"), start, end,
                                                body.get("note", "")), 201)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise api_error(400, -2, f"bad incident: {exc}; statuses: {', '.join(STATUSES)}") from None


def routes(sandbox):
    return {
        "api": [Route("/v1/system/ips", system_ips)],
        "status": [Route("/api/health/current", health_current), Route("/api/health/history", health_history)],
        "sandbox": [Route("/status/incidents", incidents, methods=["GET", "POST"])],
    }
