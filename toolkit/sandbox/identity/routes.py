"""HTTP of the identity area: the OAuth 2.0 / OpenID Connect provider on the auth host (identity §4.1–4.4,
4.10–4.12, 4.21) and the user endpoints on the API host (§4.3, 4.5–4.9, 4.13–4.15).

Choices where the spec is silent (see also :mod:`toolkit.sandbox.identity.models`):

* ``/oauth/authorize``: an unknown ``client_id`` shows error page KOE101, an unregistered ``redirect_uri`` page
  KOE006 (HTTP 400, no redirect). ``prompt=none`` without an account session redirects with
  ``error=login_required`` (the real platform's answer); with a session but missing link or consent,
  ``consent_required``. ``prompt=create`` shows the login page titled as sign-up (the sandbox has only demo
  users). ``prompt=select_account`` shows an account choice when the browser holds two or more sessions.
  A ``code_challenge_method`` other than ``S256`` redirects ``error=invalid_request``; unknown scope ids
  redirect ``error=invalid_scope``.
* ``/oauth/token`` error answers (OAuth shape): unknown ``client_id`` → 401 ``invalid_client`` KOE101; missing or
  wrong ``client_secret`` when required → 401 ``invalid_client`` KOE010; unknown/used/expired code, code of
  another client, wrong or missing PKCE verifier → 400 ``invalid_grant`` KOE320; ``redirect_uri`` differing
  from the authorization request → 400 ``invalid_grant`` KOE303; bad refresh token → 400 ``invalid_grant``
  KOE322; rate limit → 400 ``invalid_request`` KOE237. A code is consumed by the first token request that
  names it with valid client credentials, whatever that request's outcome.
* ``/oauth/tokeninfo`` verifies the signature against the published keys and the expiry: any failure is 400
  ``invalid_token`` KOE400 with a description of the cause.
* ``/oauth/logout`` ends every account session of the browser and redirects at once (302) with ``state``;
  an unregistered ``logout_redirect_uri`` shows error page KOE006.
* ``/v1/user/logout`` revokes every token of the user for the app in both modes.
* ``/.well-known/ssf-configuration``: ``delivery_methods_supported`` is the push-delivery URI
  ``urn:ietf:rfc:8935`` (a String, as the spec types it).

Endpoints the spec only names, modelled on the real platform's well-known shapes:

* ``GET|POST /v2/user/me`` (token or admin key): ``{id, connected_at, has_signed_up?, properties,
  kakao_account: {profile_needs_agreement, profile: {nickname, thumbnail_image_url, profile_image_url,
  is_default_image}, email_needs_agreement, is_email_valid, is_email_verified, email, name_needs_agreement, name,
  gender_needs_agreement, gender, birthday_needs_agreement, birthday, birthyear, phone_number_needs_agreement,
  phone_number, age_range_needs_agreement, age_range}}`` — values only for agreed scopes. ``has_signed_up`` is
  present only for apps without auto-link.
* ``POST /v1/user/signup`` (token or admin key, ``properties`` optional JSON object) → ``{id}``; a user already
  linked answers HTTP 400 code -102.
* ``POST /v1/user/unlink`` (token or admin key) → ``{id}``; consents are dropped and tokens revoked.
* ``GET /v1/user/access_token_info`` (token) → ``{id, expires_in, app_id}``.
* ``POST /v1/user/update_profile`` (token or admin key, ``properties`` JSON object of strings) → ``{id}``.
* ``GET /v1/user/ids`` (admin key) ``limit`` 1–100 (default 100), ``order`` asc|desc, ``from_id`` →
  ``{elements, total_count, before_url, after_url}`` over the app's linked users.

Control API (not part of the service): ``POST /sandbox/login`` acts as the end user: it logs a demo user in to
the demo app with the given scopes (link + consent) and returns fresh tokens, skipping the browser pages.
Body: ``{"user_id": 4100000001, "scopes": ["profile", "friends"]}`` (``email`` may replace ``user_id``;
``nonce``, ``service_terms`` optional; ``id_token`` is included when ``openid`` is agreed).
``POST /sandbox/identity/settings`` (``token_rate_limit``, ``token_rate_window``, ``client_secret_required``,
``auto_link``), ``POST /sandbox/keys/rotate``, ``POST /sandbox/unlink`` (``user_id``, ``reason``: the user
disconnects from outside), ``GET /sandbox/identity/events?since=N`` (the consent-event log),
``GET /sandbox/identity/users`` (demo users' ids, e-mails, nicknames; never passwords),
``POST /sandbox/identity/consent-history`` (replays ``toolkit/data/users/consent_history.json`` once: nine demo users
linked with varied consents over the week before the sandbox's start, no webhooks for that past).
"""
from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import jwt
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import pages
from ..pages.auth import (CLIENT_KEY_KINDS, ClientCheck, account_sessions, check_token_client, redirect_to,
                          set_session_cookie, split_list, submit_login)
from ..web import (Params, api_error, app_key_of, ascii_int, json_response, oauth_error, read_fields, read_json,
                   sandbox_of)
from .models import FIRST_LOGIN_SCOPES, SCOPES, s256



def _model(request: Request):
    return sandbox_of(request).model("identity")


# ====================================================================== authorization (browser)
class _Req(ClientCheck):
    """The parsed and checked authorization request."""

    def __init__(self, request: Request, q: str):
        self.q = q
        self.fields = dict(parse_qsl(q, keep_blank_values=True))
        f = self.fields
        if not self.check_client(request, f):
            return
        self.prompt = set(split_list(f.get("prompt") or f.get("auth_type")))
        self.scopes = split_list(f.get("scope"))
        self.terms = split_list(f.get("service_terms"))
        self.nonce = f.get("nonce") or None
        self.challenge = f.get("code_challenge") or None
        self.login_hint = f.get("login_hint", "")

    def without_prompt(self, *drop: str) -> str:
        fields = dict(self.fields)
        rest = [p for p in split_list(fields.get("prompt")) if p not in drop]
        if rest:
            fields["prompt"] = ",".join(rest)
        else:
            fields.pop("prompt", None)
        fields.pop("auth_type", None)
        return urlencode(fields)


def _check(req: _Req) -> Response | None:
    if req.error_page is not None:
        return req.error_page
    if req.fields.get("response_type") != "code":
        return req.fail("unsupported_response_type", "response_type must be code")
    method = req.fields.get("code_challenge_method")
    if req.challenge and method not in (None, "", "S256"):
        return req.fail("invalid_request", "code_challenge_method must be S256")
    unknown = [s for s in req.scopes if s not in SCOPES]
    if unknown:
        import difflib

        near = difflib.get_close_matches(unknown[0], list(SCOPES), n=1)
        mean = f" (did you mean {near[0]}?)" if near else ""
        return req.fail("invalid_scope", f"unknown scope ids: {', '.join(unknown)[:200]}{mean}")
    items = req.app.get("consent_items") or {}
    unset = [s for s in req.scopes if items and s not in items]
    if unset:
        return req.fail("invalid_scope", f"scope ids not set as consent items of the app: {', '.join(unset)[:200]} "
                                         f"(its consent items: {', '.join(items)[:300]})")
    return None


def _required(app: dict, scope: str) -> bool:
    """Whether the consent item is required: as the app sets it (its ``consent_items``), else the sandbox's
    default for the scope."""
    items = app.get("consent_items") or {}
    return items[scope] == "required" if scope in items else SCOPES[scope][2]


async def authorize(request: Request):
    sb = sandbox_of(request)
    req = _Req(request, request.url.query)
    bad = _check(req)
    if bad is not None:
        return bad
    sessions = account_sessions(request)
    if "login" in req.prompt or "create" in req.prompt or not sessions:
        if "none" in req.prompt:
            return req.fail("login_required", "prompt=none: no account session in this browser")
        return pages.login_page(req.without_prompt("login", "create"), login_hint=req.login_hint,
                                create="create" in req.prompt, app_name=req.app["name"])
    if "select_account" in req.prompt and len(sessions) > 1:
        accounts = [sb.apps.user(s["user_id"]) for s in sessions]
        return pages.select_page(req.without_prompt("select_account"), accounts)
    return _decide(request, req, sessions[0])


async def login_submit(request: Request):
    form = await request.form()
    req = _Req(request, str(form.get("q", "")))
    bad = _check(req)
    if bad is not None:
        return bad
    return submit_login(request, req, form, lambda session: _decide(request, req, session))


async def select_submit(request: Request):
    form = await request.form()
    req = _Req(request, str(form.get("q", "")))
    bad = _check(req)
    if bad is not None:
        return bad
    sessions = account_sessions(request)
    chosen = [s for s in sessions if str(s["user_id"]) == str(form.get("account", ""))]
    if not chosen:
        return pages.login_page(req.q, app_name=req.app["name"])
    ordered = chosen + [s for s in sessions if s is not chosen[0]]
    return set_session_cookie(_decide(request, req, chosen[0]), ordered)


def _pending_consent(request: Request, req: _Req, user_id: int):
    model = _model(request)
    app_id = req.app["app_id"]
    state = model.link_state(app_id, user_id)
    linked = state in ("linked", "pending")
    requested = req.scopes or ([] if linked else list(req.app.get("consent_items") or FIRST_LOGIN_SCOPES))
    agreed = set(model.agreed_scopes(app_id, user_id))
    missing = [s for s in requested if s not in agreed]
    terms = {t["tag"]: t for t in model.term_states(app_id, user_id)}
    missing_terms = [t for t in req.terms if t in terms and not terms[t]["agreed"]]
    if not any(terms[t]["required"] for t in req.terms if t in terms):
        missing_terms = []  # the terms screen appears only when a required term is requested
    return linked, missing, missing_terms, terms


def _decide(request: Request, req: _Req, session: dict) -> Response:
    sb = sandbox_of(request)
    unknown_terms = [t for t in req.terms if t not in {x["tag"] for x in _model(request).app_terms(req.app["app_id"])}]
    if unknown_terms:
        return req.fail("invalid_request", f"service_terms not configured for the app: {', '.join(unknown_terms)}")
    linked, missing, missing_terms, terms = _pending_consent(request, req, session["user_id"])
    if not linked or missing or missing_terms:
        if "none" in req.prompt:
            return req.fail("consent_required", "prompt=none: the user must consent first")
        user = sb.apps.user(session["user_id"])
        scope_items = [{"id": s, "display_name": SCOPES[s][0], "required": _required(req.app, s)} for s in missing]
        term_items = [{"tag": t, "required": terms[t]["required"]} for t in missing_terms]
        return pages.consent_page(req.q, app_name=req.app["name"], user=user, scopes=scope_items, terms=term_items)
    return _finish(request, req, session)


def _finish(request: Request, req: _Req, session: dict) -> Response:
    model = _model(request)
    app_id, user_id = req.app["app_id"], session["user_id"]
    if model.link_state(app_id, user_id) not in ("linked", "pending"):
        model.link(app_id, user_id, "linked" if req.app["auto_link"] else "pending")
    code = model.issue_code(app_id, req.client_id, user_id, req.redirect_uri, req.nonce, req.challenge,
                            session["auth_time"])
    return redirect_to(req.redirect_uri, code=code, state=req.state)


async def consent_submit(request: Request):
    form = await request.form()
    req = _Req(request, str(form.get("q", "")))
    bad = _check(req)
    if bad is not None:
        return bad
    sessions = [s for s in account_sessions(request) if str(s["user_id"]) == str(form.get("account", ""))]
    if not sessions:
        return pages.login_page(req.q, app_name=req.app["name"], error="Your session has ended; log in again.")
    session = sessions[0]
    model = _model(request)
    linked, missing, missing_terms, terms = _pending_consent(request, req, session["user_id"])
    app_id = req.app["app_id"]
    if form.get("action") != "agree":
        # a decline: every item the screen asked for (the platform sends no event for it; the log keeps it)
        model.decline(app_id, session["user_id"], missing, "cancelled")
        return req.fail("access_denied", "User denied access")
    chosen = set(form.getlist("scope"))
    agreed = [s for s in missing if _required(req.app, s) or s in chosen]
    model.decline(app_id, session["user_id"], [s for s in missing if s not in agreed], "unticked")
    chosen_terms = set(form.getlist("term"))
    agreed_terms = [t for t in missing_terms if terms[t]["required"] or t in chosen_terms]
    if not linked:
        model.link(app_id, session["user_id"], "linked" if req.app["auto_link"] else "pending")
    model.agree(app_id, session["user_id"], agreed)
    if agreed_terms:
        model.agree_terms(app_id, session["user_id"], agreed_terms, "KAUTH")
    return _finish(request, req, session)


async def logout_page(request: Request):
    sb = sandbox_of(request)
    p = Params(dict(request.query_params))
    client_id = p.str("client_id", "")
    found = sb.apps.find_key(client_id) if client_id else None
    if found is None or found[1] not in CLIENT_KEY_KINDS:
        return pages.error_page("KOE101", "invalid client_id")
    uri = p.str("logout_redirect_uri", "")
    if uri not in found[0]["logout_redirect_uris"]:
        return pages.error_page("KOE006", "logout_redirect_uri is not registered for this app: " + uri)
    model = _model(request)
    for s in account_sessions(request):
        model.end_session(s["sid"])
    return set_session_cookie(redirect_to(uri, state=p.str("state")), [])


# ====================================================================== token endpoints
async def token(request: Request):
    sb = sandbox_of(request)
    model = _model(request)
    fields = await read_fields(request)
    grant = fields.get("grant_type", "")
    if grant not in ("authorization_code", "refresh_token"):
        raise oauth_error(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token",
                          "KOE004")
    app, client_id = check_token_client(sb, fields)
    rate_error = oauth_error(400, "invalid_request", "token issuance rate limit exceeded", "KOE237")
    if grant == "refresh_token":
        refresh = fields.get("refresh_token", "")
        row = sb.store.one("SELECT user_id FROM tokens WHERE refresh_token = ? AND app_id = ? AND revoked = 0",
                           refresh, app["app_id"]) if refresh else None
        if row is None:
            raise oauth_error(400, "invalid_grant", "refresh token is invalid, revoked or expired", "KOE322")
        if not model.check_rate(app["app_id"], row["user_id"]):
            raise rate_error
        body = model.refresh(app["app_id"], refresh)
        if body is None:
            raise oauth_error(400, "invalid_grant", "refresh token is invalid, revoked or expired", "KOE322")
        return json_response(body)
    for name in ("code", "redirect_uri"):
        if not fields.get(name):
            raise oauth_error(400, "invalid_request", f"{name} is required", "KOE201")
    row = model.redeem_code(fields["code"])
    if row is None or row["app_id"] != app["app_id"] or row["client_id"] != client_id:
        raise oauth_error(400, "invalid_grant", "authorization code not found, already used or expired", "KOE320")
    if row["redirect_uri"] != fields["redirect_uri"]:
        raise oauth_error(400, "invalid_grant", "redirect_uri differs from the authorization request", "KOE303")
    verifier = fields.get("code_verifier")
    if row["code_challenge"]:
        if not verifier or s256(verifier) != row["code_challenge"]:
            raise oauth_error(400, "invalid_grant", "PKCE verification failed: code_verifier does not match "
                                                    "code_challenge", "KOE320")
    elif verifier:
        raise oauth_error(400, "invalid_grant", "code_verifier sent but the authorization request had no "
                                                "code_challenge", "KOE320")
    if model.link_state(app["app_id"], row["user_id"]) not in ("linked", "pending"):
        raise oauth_error(400, "invalid_grant", "the user is no longer linked to the app", "KOE320")
    if not model.check_rate(app["app_id"], row["user_id"]):
        raise rate_error
    body = model.issue_tokens(app["app_id"], row["user_id"], json.loads(row["scopes"]), auth_time=row["auth_time"],
                              client_id=client_id, nonce=row["nonce"])
    return json_response(body)


async def tokeninfo(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    id_token = fields.get("id_token", "")
    try:
        if id_token.count(".") != 2:
            raise jwt.DecodeError("not a compact JWT (three dot-separated parts)")
        claims = model.keys.verify(id_token, issuer=sandbox_of(request).hosts()["auth"])
    except jwt.PyJWTError as exc:
        raise oauth_error(400, "invalid_token", f"invalid ID token: {exc}", "KOE400") from None
    return json_response(claims)


def _discovery(sb) -> dict:
    auth, api = sb.hosts()["auth"], sb.hosts()["api"]
    return {
        "issuer": auth, "authorization_endpoint": f"{auth}/oauth/authorize", "token_endpoint": f"{auth}/oauth/token",
        "userinfo_endpoint": f"{api}/v1/oidc/userinfo", "jwks_uri": f"{auth}/.well-known/jwks.json",
        "token_endpoint_auth_methods_supported": ["client_secret_post"], "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"], "request_uri_parameter_supported": False,
        "response_types_supported": ["code"], "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "claims_supported": ["iss", "aud", "sub", "auth_time", "exp", "iat", "nonce", "nickname", "picture", "email"],
    }


async def openid_configuration(request: Request):
    return json_response(_discovery(sandbox_of(request)))


async def jwks(request: Request):
    return json_response(_model(request).keys.jwks(), headers={"Cache-Control": "public, max-age=3600"})


async def ssf_configuration(request: Request):
    auth = sandbox_of(request).hosts()["auth"]
    return json_response({"issuer": auth, "jwks_uri": f"{auth}/.well-known/jwks.json",
                          "delivery_methods_supported": "urn:ietf:rfc:8935"})


# ====================================================================== API host: user endpoints
def _consented(model, app_id, user_id) -> set[str]:
    return set(model.agreed_scopes(app_id, user_id))


async def userinfo(request: Request):
    sb = sandbox_of(request)
    model = _model(request)
    user, tok = model.bearer(request)
    agreed = _consented(model, tok["app_id"], user["id"])
    out: dict[str, str | bool] = {"sub": str(user["id"])}
    if "name" in agreed and user.get("name"):
        out["name"] = user["name"]
    if "profile" in agreed:
        out["nickname"] = user["nickname"]
        if user.get("thumbnail_image_url"):
            out["picture"] = user["thumbnail_image_url"]
    if "account_email" in agreed and user.get("email"):
        out["email"], out["email_verified"] = user["email"], True
    if "gender" in agreed and user.get("gender"):
        out["gender"] = user["gender"]
    # the year only with its own consent (birthyear); birthday consent alone gives 0000-MM-DD (the platform's rule)
    year = user.get("birthyear") if "birthyear" in agreed else None
    day = user.get("birthday") if "birthday" in agreed else None
    if day:
        out["birthdate"] = f"{year or '0000'}-{day[:2]}-{day[2:]}"
    if "phone_number" in agreed and user.get("phone_number"):
        out["phone_number"], out["phone_number_verified"] = user["phone_number"], True
    _ = sb
    return json_response(out)


async def user_logout(request: Request):
    model = _model(request)
    user, app_id, _tok = model.acting_user(request, await read_fields(request), allow_pending=True)
    model.revoke_user_tokens(app_id, user["id"])
    model.event(app_id, user["id"], "tokens_revoked", reason="issuer")
    return json_response({"id": user["id"]})


async def scopes(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    wanted = Params(fields).list("scopes")
    items = model.scope_states(app_id, user["id"])
    if wanted is not None:
        items = [s for s in items if s["id"] in wanted]
    return json_response({"id": user["id"], "scopes": items})


async def revoke_scopes(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    wanted = Params(fields).list("scopes", required=True)
    items = model.revoke_scopes(app_id, user["id"], wanted)
    return json_response({"id": user["id"], "scopes": items})


async def service_terms(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    p = Params(fields)
    result = p.enum("result", ("agreed_service_terms", "app_service_terms"), "agreed_service_terms")
    items = model.term_states(app_id, user["id"])
    if result == "agreed_service_terms":
        items = [t for t in items if t["agreed"]]
    tags = p.csv("tags")
    if tags is not None:
        known = {t["tag"] for t in items}
        unknown = [t for t in tags if t not in known]
        if unknown:
            raise api_error(400, -2, f"tags not in the {result} list: {', '.join(unknown)}")
        items = [t for t in items if t["tag"] in tags]
    return json_response({"id": user["id"], "service_terms": items})


async def revoke_service_terms(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    tags = Params(fields).csv("tags")
    if not tags:
        raise api_error(400, -2, "tags is required")
    return json_response({"id": user["id"], "revoked_service_terms": model.revoke_terms(app_id, user["id"], tags)})


async def upgrade_service_terms(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    tags = Params(fields).csv("tags")
    if not tags:
        raise api_error(400, -2, "tags is required")
    model.check_tags(app_id, tags)
    return json_response({"id": user["id"], "agreed_service_terms": model.agree_terms(app_id, user["id"], tags, "KAPI")})


def _properties_field(p: Params, required: bool) -> dict | None:
    raw = p.str("properties", required=required)
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        raise api_error(400, -2, "properties must be the text of a JSON object") from None
    if not isinstance(value, dict) or not all(isinstance(k, str) and (v is None or isinstance(v, str))
                                              for k, v in value.items()):
        raise api_error(400, -2, "properties must be a JSON object of string values")
    return value


async def signup(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields, allow_pending=True)
    props = _properties_field(Params(fields), False)
    if model.link_state(app_id, user["id"]) == "linked":
        raise api_error(400, -102, "the user is already linked (signed up) to the app")
    model.link(app_id, user["id"], "linked")
    if props:
        model.update_properties(app_id, user["id"], props)
    return json_response({"id": user["id"]})


async def unlink(request: Request):
    model = _model(request)
    user, app_id, _ = model.acting_user(request, await read_fields(request), allow_pending=True)
    model.unlink(app_id, user["id"], reason="UNLINK_FROM_SERVICE")
    return json_response({"id": user["id"]})


async def access_token_info(request: Request):
    sb = sandbox_of(request)
    user, tok = _model(request).bearer(request, allow_pending=True)
    return json_response({"id": user["id"], "expires_in": tok["expires_at"] - sb.clock.unix(),
                          "app_id": int(tok["app_id"])})


async def update_profile(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    model.update_properties(app_id, user["id"], _properties_field(Params(fields), True))
    return json_response({"id": user["id"]})


def _age_range(birthyear: str | None, year_now: int) -> str | None:
    if not birthyear:
        return None
    age = year_now - int(birthyear)
    lo = (age // 10) * 10
    return f"{lo}~{lo + 9}"


async def me(request: Request):
    sb = sandbox_of(request)
    model = _model(request)
    user, app_id, _ = model.acting_user(request, await read_fields(request), allow_pending=True)
    agreed = _consented(model, app_id, user["id"])
    link = sb.store.one("SELECT * FROM links WHERE app_id = ? AND user_id = ?", app_id, user["id"])
    from datetime import datetime, timezone

    connected = datetime.fromtimestamp(link["linked_at"], tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    app = sb.apps.app(app_id)
    out: dict = {"id": user["id"], "connected_at": connected}
    if not app["auto_link"]:
        out["has_signed_up"] = link["state"] == "linked"
    props = {}
    if "profile" in agreed:
        props = {"nickname": user["nickname"], "profile_image": user.get("profile_image_url"),
                 "thumbnail_image": user.get("thumbnail_image_url")}
    props.update(model.properties(app_id, user["id"]))
    out["properties"] = props
    acct: dict = {"profile_needs_agreement": "profile" not in agreed}
    if "profile" in agreed:
        acct["profile"] = {"nickname": user["nickname"], "thumbnail_image_url": user.get("thumbnail_image_url"),
                           "profile_image_url": user.get("profile_image_url"), "is_default_image": False}
    acct["email_needs_agreement"] = "account_email" not in agreed
    if "account_email" in agreed:
        acct.update(is_email_valid=True, is_email_verified=True, email=user["email"])
    for scope, keys in (("name", ("name",)), ("gender", ("gender",)), ("birthday", ("birthday", "birthyear")),
                        ("phone_number", ("phone_number",))):
        acct[f"{scope}_needs_agreement"] = scope not in agreed
        if scope in agreed:
            for k in keys:
                if user.get(k):
                    acct[k] = user[k]
            if scope == "birthday":
                acct["birthday_type"] = user.get("birthday_type") or "SOLAR"
    acct["age_range_needs_agreement"] = "age_range" not in agreed
    if "age_range" in agreed and _age_range(user.get("birthyear"), sb.clock.now().year):
        acct["age_range"] = _age_range(user.get("birthyear"), sb.clock.now().year)
    out["kakao_account"] = acct
    return json_response(out)


async def shipping_address(request: Request):
    model = _model(request)
    fields = await read_fields(request)
    user, app_id, _ = model.acting_user(request, fields)
    p = Params(fields)
    address_id = p.int("address_id")
    from_updated_at = p.int("from_updated_at", 0, lo=0)
    page_size = p.int("page_size", 10, lo=2)
    if "shipping_address" not in _consented(model, app_id, user["id"]):
        return json_response({"user_id": user["id"], "shipping_addresses_needs_agreement": True})
    items = model.shipping_addresses(user["id"], address_id, from_updated_at, page_size)
    return json_response({"user_id": user["id"], "shipping_addresses": items,
                          "shipping_addresses_needs_agreement": False})


async def user_ids(request: Request):
    sb = sandbox_of(request)
    header = request.headers.get("authorization", "")
    key = app_key_of(header)
    found = sb.apps.find_key(key) if key else None
    if found is None or found[1] != "admin":
        raise api_error(401, -401, "this API needs Authorization: ServiceAK <admin key>",
                        {"WWW-Authenticate": "ServiceAK"})
    p = Params(await read_fields(request))
    limit = p.int("limit", 100, lo=1, hi=100)
    order = p.enum("order", ("asc", "desc"), "asc")
    from_id = p.int("from_id")
    app_id = found[0]["app_id"]
    model = _model(request)
    rows = sb.store.all("SELECT user_id FROM links WHERE app_id = ? ORDER BY user_id", app_id)
    ids = [r["user_id"] for r in rows if model.link_state(app_id, r["user_id"]) == "linked"]
    if order == "desc":
        ids.reverse()
    if from_id is not None:
        ids_after = [i for i in ids if (i > from_id if order == "asc" else i < from_id)]
    else:
        ids_after = ids
    page = ids_after[:limit]
    base = sb.hosts()["api"] + "/v1/user/ids"
    after = (f"{base}?{urlencode({'limit': limit, 'order': order, 'from_id': page[-1]})}"
             if len(ids_after) > limit else None)
    before = (f"{base}?{urlencode({'limit': limit, 'order': 'desc' if order == 'asc' else 'asc', 'from_id': page[0]})}"
              if page and page[0] != ids[0] else None)
    return json_response({"elements": page, "total_count": len(ids), "before_url": before, "after_url": after})


# ====================================================================== control API
def _user_from(sb, body) -> dict:
    user = None
    if "user_id" in body:
        raw = body["user_id"]
        uid = None if isinstance(raw, bool) or not isinstance(raw, (int, str)) else ascii_int(str(raw))
        user = sb.apps.user(uid) if uid is not None else None
    elif "email" in body:
        row = sb.store.one("SELECT id FROM users WHERE email = ?", body["email"]) \
            if isinstance(body["email"], str) else None
        user = sb.apps.user(row["id"]) if row else None
    if user is None:
        raise api_error(400, -2, "unknown user: give user_id or email of a demo user")
    return user


async def control_login(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id = sb.apps.app_id_of(body)
    user = _user_from(sb, body)
    scopes = body.get("scopes") or []
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise api_error(400, -2, "scopes must be a list of scope ids")
    terms = body.get("service_terms") or []
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise api_error(400, -2, "service_terms must be a list of tags")
    if body.get("nonce") is not None and not isinstance(body["nonce"], str):
        raise api_error(400, -2, "nonce must be text")
    model = sb.model("identity")
    if terms:
        model.check_tags(app_id, terms)  # before any change
    model.link(app_id, user["id"])
    model.agree(app_id, user["id"], scopes)
    if terms:
        model.agree_terms(app_id, user["id"], terms, "KAUTH")
    tokens = model.issue_tokens(app_id, user["id"], nonce=body.get("nonce"))
    return json_response({**tokens, "user_id": user["id"]})


async def control_settings(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id = sb.apps.app_id_of(body)
    body.pop("app_id", None)
    allowed = {"token_rate_limit", "token_rate_window", "client_secret_required", "auto_link"}
    bad = set(body) - allowed
    if bad:
        raise api_error(400, -2, f"unknown settings: {', '.join(sorted(bad))[:200]}; known: {', '.join(sorted(allowed))}")
    for name in ("token_rate_limit", "token_rate_window"):
        value = body.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10 ** 9:
            raise api_error(400, -2, f"{name} must be an integer between 0 and 1000000000")
    for name in ("client_secret_required", "auto_link"):
        if not isinstance(body.get(name, False), bool):
            raise api_error(400, -2, f"{name} must be true or false")
    return json_response(sb.model("identity").update_settings(app_id, **body))


async def control_rotate(request: Request):
    return json_response(sandbox_of(request).model("identity").keys.rotate())


async def control_unlink(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id = sb.apps.app_id_of(body)
    user = _user_from(sb, body)
    if not isinstance(body.get("reason", ""), str):
        raise api_error(400, -2, "reason must be text")
    sb.model("identity").unlink(app_id, user["id"], reason=body.get("reason", "UNLINK_FROM_APPS"))
    return json_response({"id": user["id"], "state": "unlinked"})


async def control_events(request: Request):
    since = Params(dict(request.query_params)).int("since", 0, lo=0)
    return json_response({"events": sandbox_of(request).model("identity").events(since)})


async def control_consent_history(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id = sb.apps.app_id_of(body)
    path = sb.datasets / "users" / "consent_history.json"
    rows = json.loads(path.read_text("utf-8"))["events"]
    return json_response(sb.model("identity").replay_history(app_id, rows))


async def control_users(request: Request):
    users = sandbox_of(request).apps.users()
    return json_response({"users": [{"id": u["id"], "email": u["email"], "nickname": u["nickname"]} for u in users]})


def routes(sandbox):
    return {
        "auth": [
            Route("/oauth/authorize", authorize, methods=["GET"]),
            Route("/oauth/login", login_submit, methods=["POST"]),
            Route("/oauth/select", select_submit, methods=["POST"]),
            Route("/oauth/consent", consent_submit, methods=["POST"]),
            Route("/oauth/token", token, methods=["POST"]),
            Route("/oauth/tokeninfo", tokeninfo, methods=["POST"]),
            Route("/oauth/logout", logout_page, methods=["GET"]),
            Route("/.well-known/openid-configuration", openid_configuration, methods=["GET"]),
            Route("/.well-known/jwks.json", jwks, methods=["GET"]),
            Route("/.well-known/ssf-configuration", ssf_configuration, methods=["GET"]),
        ],
        "api": [
            Route("/v1/oidc/userinfo", userinfo, methods=["GET", "POST"]),
            Route("/v1/user/logout", user_logout, methods=["POST"]),
            Route("/v2/user/scopes", scopes, methods=["GET"]),
            Route("/v2/user/revoke/scopes", revoke_scopes, methods=["POST"]),
            Route("/v2/user/service_terms", service_terms, methods=["GET"]),
            Route("/v2/user/revoke/service_terms", revoke_service_terms, methods=["POST"]),
            Route("/v2/user/upgrade/service_terms", upgrade_service_terms, methods=["POST"]),
            Route("/v1/user/signup", signup, methods=["POST"]),
            Route("/v1/user/unlink", unlink, methods=["POST"]),
            Route("/v1/user/access_token_info", access_token_info, methods=["GET"]),
            Route("/v1/user/update_profile", update_profile, methods=["POST"]),
            Route("/v1/user/ids", user_ids, methods=["GET"]),
            Route("/v2/user/me", me, methods=["GET", "POST"]),
            Route("/v1/user/shipping_address", shipping_address, methods=["GET"]),
        ],
        "sandbox": [
            Route("/login", control_login, methods=["POST"]),
            Route("/identity/settings", control_settings, methods=["POST"]),
            Route("/identity/events", control_events, methods=["GET"]),
            Route("/identity/users", control_users, methods=["GET"]),
            Route("/identity/consent-history", control_consent_history, methods=["POST"]),
            Route("/keys/rotate", control_rotate, methods=["POST"]),
            Route("/unlink", control_unlink, methods=["POST"]),
        ],
    }
