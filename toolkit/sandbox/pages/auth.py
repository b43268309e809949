"""What the user and the business authorization flows share: the account-session cookie, the client check of
an authorization request, the login form's submission, the token endpoint's client check, redirects and the
list fields of an authorize request. Both ``identity.routes`` and ``business.routes`` build on this module, so
neither area imports the other's routes.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..identity.models import SESSION_SECONDS, SESSION_STAY_SECONDS
from ..web import oauth_error, sandbox_of
from . import error_page, login_page

__all__ = ["COOKIE", "CLIENT_KEY_KINDS", "split_list", "redirect_to", "account_sessions", "set_session_cookie",
           "ClientCheck", "submit_login", "check_token_client"]

COOKIE = "sbx_account"
CLIENT_KEY_KINDS = ("rest_api", "javascript", "native_app")


def _model(request: Request):
    return sandbox_of(request).model("identity")


def split_list(value: str | None) -> list[str]:
    """A list field of the authorize request: comma- or space-separated (the spec's commas, RFC 6749's spaces
    for ``scope``; both are accepted, as independent OAuth clients send spaces).

    >>> split_list("openid profile,account_email")
    ['openid', 'profile', 'account_email']
    """
    return [p for p in re.split(r"[,\s]+", value or "") if p]


def redirect_to(uri: str, **params) -> Response:
    params = {k: v for k, v in params.items() if v is not None}
    sep = "&" if "?" in uri else "?"
    return RedirectResponse(uri + (sep + urlencode(params) if params else ""), status_code=302)


def account_sessions(request: Request) -> list[dict]:
    model = _model(request)
    out: list[dict] = []
    for sid in (request.cookies.get(COOKIE) or "").split():
        s = model.session(sid)
        if s is not None and all(o["user_id"] != s["user_id"] for o in out):
            out.append(s)
    return out


def set_session_cookie(response: Response, sessions: list[dict]) -> Response:
    if not sessions:
        response.delete_cookie(COOKIE, path="/auth")
        return response
    longest = max(SESSION_STAY_SECONDS if s["stay"] else SESSION_SECONDS for s in sessions)
    response.set_cookie(COOKIE, " ".join(s["sid"] for s in sessions), max_age=longest, path="/auth",
                        httponly=True, samesite="lax")
    return response


class ClientCheck:
    """The client part of an authorization request (user or business): ``client_id`` must be an app's REST API
    key (else the KOE101 page) and ``redirect_uri`` one of its registered URIs (else the KOE006 page); both
    pages are shown instead of redirecting, since the redirect target cannot be trusted."""

    def check_client(self, request: Request, fields: dict) -> bool:
        self.client_id = fields.get("client_id", "")
        found = sandbox_of(request).apps.find_key(self.client_id) if self.client_id else None
        self.error_page = None
        if found is None or found[1] not in CLIENT_KEY_KINDS:
            self.error_page = error_page("KOE101", "invalid client_id: not the REST API key of an app")
            return False
        self.app = found[0]
        self.redirect_uri = fields.get("redirect_uri", "")
        if self.redirect_uri not in self.app["redirect_uris"]:
            self.error_page = error_page("KOE006", "redirect_uri is not registered for this app: "
                                               + self.redirect_uri)
            return False
        self.state = fields.get("state")
        return True

    def fail(self, error: str, description: str) -> Response:
        return redirect_to(self.redirect_uri, error=error, error_description=description, state=self.state)


def submit_login(request: Request, req, form, then) -> Response:
    """The login form's POST (user and business authorization): wrong credentials show the form again; else a
    new account session, kept beside the browser's other sessions, and ``then(session)``'s answer with the cookie."""
    model = _model(request)
    email = str(form.get("email", ""))
    user = model.login_user(email, str(form.get("password", "")))
    if user is None:
        return login_page(req.q, login_hint=email, error="Wrong e-mail or password.", app_name=req.app["name"])
    session = model.new_session(user["id"], str(form.get("stay_logged_in", "")).lower() in ("true", "on", "1"))
    others = [s for s in account_sessions(request) if s["user_id"] != user["id"]]
    return set_session_cookie(then(session), [session, *others])


def check_token_client(sb, fields: dict):
    client_id = fields.get("client_id", "")
    found = sb.apps.find_key(client_id) if client_id else None
    if found is None or found[1] not in CLIENT_KEY_KINDS:
        raise oauth_error(401, "invalid_client", "unknown client_id (REST API key)", "KOE101")
    app = found[0]
    if app["client_secret_required"]:
        given = fields.get("client_secret", "")
        if not given or given != app["client_secret"]:
            raise oauth_error(401, "invalid_client", "client_secret is missing or wrong (the key's client-secret "
                                                     "setting is ON)", "KOE010")
    return app, client_id
