"""HTTP of the identity area. The control API's ``POST /sandbox/login`` acts as the end user: it logs a demo
user in to the demo app with the given scopes (link + consent) and returns fresh tokens, skipping the
browser pages. Body: ``{"user_id": 4100000001, "scopes": ["profile", "friends"]}`` (``email`` may replace
``user_id``).
"""
from __future__ import annotations

import json

from starlette.requests import Request
from starlette.routing import Route

from ..web import api_error, json_response, sandbox_of


async def control_login(request: Request):
    sb = sandbox_of(request)
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        raise api_error(400, -2, "body must be JSON") from None
    app_id = body.get("app_id", sb.apps.app()["app_id"])
    user = None
    if "user_id" in body:
        user = sb.apps.user(int(body["user_id"]))
    elif "email" in body:
        row = sb.store.one("SELECT id FROM users WHERE email = ?", body["email"])
        user = sb.apps.user(row["id"]) if row else None
    if user is None:
        raise api_error(400, -2, "unknown user: give user_id or email of a demo user")
    scopes = body.get("scopes") or []
    if not isinstance(scopes, list):
        raise api_error(400, -2, "scopes must be a list of scope ids")
    model = sb.model("identity")
    model.link(app_id, user["id"])
    model.agree(app_id, user["id"], scopes)
    tokens = model.issue_tokens(app_id, user["id"])
    return json_response({**tokens, "user_id": user["id"]})


def routes(sandbox):
    return {"sandbox": [Route("/login", control_login, methods=["POST"])]}
