"""HTTP of business authorization (identity §4.16–4.20): the business consent screen and code on the auth
host, the business token endpoint, and the business token endpoints on the API host.

``GET /oauth/business/authorize`` shows the business consent screen on every request, whatever the user agreed
before. It needs the account session of the identity area (cookie); without one it shows the identity login
page, whose form posts to ``/oauth/business/login`` (beside the authorize URL) and then continues to the
business screen. With several account sessions in the browser the first (most recent) one is used.

Choices where the spec is silent (see also :mod:`toolkit.sandbox.business.models`):

* Request errors before any redirect: unknown ``client_id`` → error page KOE101; ``redirect_uri`` not
  registered for the app → error page KOE006 (HTTP 400, no redirect). After that, errors redirect to
  ``redirect_uri`` with ``error``, ``error_description`` and ``state``:

  - ``response_type`` other than ``code`` → ``unsupported_response_type``;
  - ``scope`` missing, an unknown business consent id, ``biz_account_email`` alone, or ``keyword_create`` /
    ``moment_create`` without ``resource_ids`` ``<group>:*`` → ``invalid_scope``;
  - a ``resource_ids`` value not of the form ``ScopeGroup:ResourceId``, naming an unknown group, a group
    without assets (``personal``) or a group none of the requested scopes belongs to → ``invalid_request``;
  - (after login) a ``resource_ids`` id the user does not hold → ``invalid_request``;
  - Cancel on the screen → ``access_denied``.

  ``resource_ids`` is a repeated query parameter; a value holding the text of a JSON array is accepted too
  (the spec's general ``String[]`` rule).
* ``POST /oauth/business/token``: the identity token endpoint's answers — unsupported grant → 400
  ``unsupported_grant_type`` KOE004; unknown ``client_id`` → 401 ``invalid_client`` KOE101; missing or wrong
  ``client_secret`` while the app's client-secret setting is ON (default; ``POST /sandbox/identity/settings``
  ``{"client_secret_required": false}`` turns it off) → 401 ``invalid_client`` KOE010; missing ``code`` or
  ``redirect_uri`` → 400 ``invalid_request`` KOE201; unknown, used or expired code, or a code of another
  client → 400 ``invalid_grant`` KOE320; ``redirect_uri`` differing from the code request → 400
  ``invalid_grant`` KOE303. A code is consumed by the first request naming it with valid client credentials,
  so one code never yields two business tokens.
* Business-token endpoints: a missing, unknown or revoked business token → HTTP 401 ``{code: -401}`` with
  ``WWW-Authenticate``. A user access token is not a business token (and vice versa).
* ``GET /v1/business/userinfo`` is retired from 2026-12-01T00:00:00Z by the sandbox clock (the spec: support
  ends on 2026-11-30): it then answers like any API the platform no longer serves, HTTP 404
  ``{"msg": "...retired...", "code": -404}``, whatever the token. Before that, ``email`` and
  ``email_verified`` (true) are present only when ``biz_account_email`` was agreed.
* ``updated_at`` is the issue time, or the revoke time once revoked.

Control API (not part of the service): ``GET /sandbox/business/assets?user_id=N`` (a demo user's business
assets), ``GET /sandbox/business/events?since=N`` (the issued/revoked transition log).
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import pages
from ..pages.auth import ClientCheck, account_sessions, check_token_client, redirect_to, split_list, submit_login
from ..web import Params, api_error, json_response, oauth_error, read_fields, sandbox_of
from . import pages as biz_pages
from .models import BIZ_SCOPES, CREATE_SCOPES, GROUP_FIELD, RETIRE_USERINFO_AT, build_agreements, group_of

RETIRE_AT = datetime.fromisoformat(RETIRE_USERINFO_AT.replace("Z", "+00:00"))


def _model(request: Request):
    return sandbox_of(request).model("business")


def _rfc3339(unix: int) -> str:
    return datetime.fromtimestamp(int(unix), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# ====================================================================== authorization (browser)
class _Req(ClientCheck):
    """The parsed and checked business authorization request (``q`` is its query string)."""

    def __init__(self, request: Request, q: str):
        self.q = q
        multi = parse_qs(q, keep_blank_values=True)
        f = {k: v[-1] for k, v in multi.items()}
        self.fields = f
        if not self.check_client(request, f):
            return
        self.scopes = list(dict.fromkeys(split_list(f.get("scope"))))  # commas or RFC 6749 spaces
        raw: list[str] = []
        for value in multi.get("resource_ids", []):
            text = value.strip()
            if text.startswith("["):
                try:
                    items = json.loads(text)
                except ValueError:
                    items = [text]
                raw.extend(str(i) for i in (items if isinstance(items, list) else [items]))
            elif text:
                raw.append(text)
        self.resource_ids = raw
        self.login_hint = f.get("login_hint", "")

    def groups(self) -> list[str]:
        return list(dict.fromkeys(group_of(s) for s in self.scopes))

    def requested(self) -> dict[str, list[str]]:
        """Asset group → requested ids (``["*"]`` when ``*`` is among them)."""
        out: dict[str, list[str]] = {}
        for value in self.resource_ids:
            grp, _, rid = value.partition(":")
            out.setdefault(grp, []).append(rid)
        return {g: (["*"] if "*" in ids else list(dict.fromkeys(ids))) for g, ids in out.items()}


def _check(req: _Req) -> Response | None:
    if req.error_page is not None:
        return req.error_page
    if req.fields.get("response_type") != "code":
        return req.fail("unsupported_response_type", "response_type must be code")
    if not req.scopes:
        return req.fail("invalid_scope", "scope is required: comma-separated business consent ids")
    unknown = [s for s in req.scopes if s not in BIZ_SCOPES]
    if unknown:
        return req.fail("invalid_scope", f"unknown business consent ids: {', '.join(unknown)}")
    if set(req.scopes) == {"biz_account_email"}:
        return req.fail("invalid_scope", "biz_account_email cannot be requested alone")
    groups = set(req.groups())
    for value in req.resource_ids:
        grp, sep, rid = value.partition(":")
        if not sep or not grp or not rid:
            return req.fail("invalid_request", f"resource_ids must be ScopeGroup:ResourceId, got {value!r}")
        if grp not in GROUP_FIELD:
            return req.fail("invalid_request", f"resource_ids names an unknown scope group: {grp!r}")
        if GROUP_FIELD[grp] is None:
            return req.fail("invalid_request", f"scope group {grp!r} has no business assets")
        if grp not in groups:
            return req.fail("invalid_request", f"resource_ids names group {grp!r} but no requested scope "
                                               "belongs to it")
    requested = req.requested()
    for scope, grp in CREATE_SCOPES.items():
        if scope in req.scopes and requested.get(grp) != ["*"]:
            return req.fail("invalid_scope", f"{scope} requires resource_ids {grp}:* (all ad accounts of the "
                                             "group)")
    return None


def _plan(request: Request, req: _Req, user_id: int) -> tuple[list[dict], str | None]:
    """Per asset group of the request: how the screen shows it. (items, error description)."""
    model = _model(request)
    requested = req.requested()
    items = []
    for grp in req.groups():
        if GROUP_FIELD[grp] is None:
            continue
        held = model.assets(user_id, grp)
        held_ids = {a["resource_id"] for a in held}
        ids = requested.get(grp)
        if ids is None:
            items.append({"group": grp, "mode": "select", "assets": held})
        elif ids == ["*"]:
            items.append({"group": grp, "mode": "all", "assets": held})
        else:
            missing = [i for i in ids if i not in held_ids]
            if missing:
                return [], f"the user holds no {grp} asset {', '.join(missing)}"
            items.append({"group": grp, "mode": "fixed", "assets": [a for a in held if a["resource_id"] in ids]})
    return items, None


def _screen(request: Request, req: _Req, session: dict) -> Response:
    sb = sandbox_of(request)
    items, error = _plan(request, req, session["user_id"])
    if error:
        return req.fail("invalid_request", error)
    user = sb.apps.user(session["user_id"])
    scopes = [{"id": s, "group": group_of(s), "display_name": BIZ_SCOPES[s][1]} for s in req.scopes]
    return biz_pages.consent_page(req.q, app_name=req.app["name"], user=user, scopes=scopes, assets=items)


async def authorize(request: Request):
    req = _Req(request, request.url.query)
    bad = _check(req)
    if bad is not None:
        return bad
    sessions = account_sessions(request)
    if not sessions:
        return pages.login_page(req.q, login_hint=req.login_hint, app_name=req.app["name"])
    return _screen(request, req, sessions[0])


async def login_submit(request: Request):
    form = await request.form()
    req = _Req(request, str(form.get("q", "")))
    bad = _check(req)
    if bad is not None:
        return bad
    return submit_login(request, req, form, lambda session: _screen(request, req, session))


async def consent_submit(request: Request):
    form = await request.form()
    req = _Req(request, str(form.get("q", "")))
    bad = _check(req)
    if bad is not None:
        return bad
    sessions = [s for s in account_sessions(request) if str(s["user_id"]) == str(form.get("account", ""))]
    if not sessions:
        return pages.login_page(req.q, app_name=req.app["name"], error="Your session has ended; log in again.")
    if form.get("action") != "agree":
        return req.fail("access_denied", "User denied access")
    user_id = sessions[0]["user_id"]
    items, error = _plan(request, req, user_id)
    if error:
        return req.fail("invalid_request", error)
    chosen = set(form.getlist("resource"))
    grants: dict[str, list[str]] = {}
    for item in items:
        grp = item["group"]
        if item["mode"] == "all":
            grants[grp] = ["*"]
        elif item["mode"] == "fixed":
            grants[grp] = [a["resource_id"] for a in item["assets"]]
        else:
            grants[grp] = [a["resource_id"] for a in item["assets"] if f"{grp}:{a['resource_id']}" in chosen]
    code = _model(request).issue_code(req.app["app_id"], req.client_id, user_id, req.redirect_uri, req.scopes,
                                      build_agreements(req.scopes, grants))
    return redirect_to(req.redirect_uri, code=code, state=req.state)


# ====================================================================== token endpoint
async def token(request: Request):
    sb = sandbox_of(request)
    model = _model(request)
    fields = await read_fields(request)
    if fields.get("grant_type", "") != "authorization_code":
        raise oauth_error(400, "unsupported_grant_type", "grant_type must be authorization_code", "KOE004")
    app, client_id = check_token_client(sb, fields)
    for name in ("code", "redirect_uri"):
        if not fields.get(name):
            raise oauth_error(400, "invalid_request", f"{name} is required", "KOE201")
    row = model.redeem_code(fields["code"])
    if row is None or row["app_id"] != app["app_id"] or row["client_id"] != client_id:
        raise oauth_error(400, "invalid_grant", "business authorization code not found, already used or expired",
                          "KOE320")
    if row["redirect_uri"] != fields["redirect_uri"]:
        raise oauth_error(400, "invalid_grant", "redirect_uri differs from the business authorization request",
                          "KOE303")
    tok = model.issue_token(row)
    return json_response({"token_type": "bearer", "access_token": tok["access_token"],
                          "scope": " ".join(tok["scopes"])})


# ====================================================================== API host
def _bearer(request: Request) -> dict:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    tok = _model(request).token(value.strip()) if scheme.lower() == "bearer" and value.strip() else None
    if tok is None:
        raise api_error(401, -401, "this business token does not exist or has been revoked",
                        {"WWW-Authenticate": 'Bearer error="invalid_token"'})
    return tok


async def tokeninfo(request: Request):
    tok = _bearer(request)
    return json_response({"id": tok["id"], "token_user_id": tok["token_user_id"], "biz_agreements": tok["agreements"],
                          "status": tok["status"], "updated_at": _rfc3339(tok["updated_at"])})


async def userinfo(request: Request):
    sb = sandbox_of(request)
    if sb.clock.now() >= RETIRE_AT:
        raise api_error(404, -404, "GET /v1/business/userinfo was retired on 2026-11-30 and is no longer served; "
                                   "the business e-mail consent no longer yields an e-mail")
    tok = _bearer(request)
    out: dict = {"token_user_id": tok["token_user_id"]}
    if "biz_account_email" in tok["scopes"]:
        user = sb.apps.user(tok["user_id"])
        out["email"], out["email_verified"] = user["email"], True
    return json_response(out)


async def revoke(request: Request):
    tok = _bearer(request)
    _model(request).revoke(tok)
    return json_response({"id": tok["id"], "token_user_id": tok["token_user_id"]})


# ====================================================================== control API
async def control_assets(request: Request):
    sb = sandbox_of(request)
    user_id = Params(dict(request.query_params)).int("user_id", required=True)
    if sb.apps.user(user_id) is None:
        raise api_error(400, -2, "unknown user_id: not a demo user")
    return json_response({"user_id": user_id, "assets": _model(request).assets(user_id)})


async def control_events(request: Request):
    since = Params(dict(request.query_params)).int("since", 0, lo=0)
    return json_response({"events": _model(request).events(since)})


def routes(sandbox):
    return {
        "auth": [
            Route("/oauth/business/authorize", authorize, methods=["GET"]),
            Route("/oauth/business/login", login_submit, methods=["POST"]),
            Route("/oauth/business/consent", consent_submit, methods=["POST"]),
            Route("/oauth/business/token", token, methods=["POST"]),
        ],
        "api": [
            Route("/v1/business/tokeninfo", tokeninfo, methods=["GET"]),
            Route("/v1/business/userinfo", userinfo, methods=["GET"]),
            Route("/v1/business/revoke", revoke, methods=["POST"]),
        ],
        "sandbox": [
            Route("/business/assets", control_assets, methods=["GET"]),
            Route("/business/events", control_events, methods=["GET"]),
        ],
    }
