"""Control API of the webhook area (not part of the service): the delivery log, delivery settings, and
actions in which the sandbox acts as the platform. Bodies are JSON; ``app_id`` defaults to the demo app.

Delivery log and settings:

* ``GET /sandbox/webhooks/deliveries?kind=&state=&since=&limit=&wait=`` → ``{"deliveries": [...]}`` oldest
  first (``wait`` = at most that many seconds, ≤ 30, until nothing is pending);
  each with ``state``, ``attempts``, ``last_status``, ``note``, ``payload`` (unlink/share/channel members),
  ``set_claims`` (SET payload without ``aud``), ``attempt_log``. No key appears in it.
* ``GET|POST /sandbox/webhooks/settings`` — ``unlink_method`` (GET|POST), ``share_method`` (GET|POST),
  ``account_status_details`` (the RISC/CAEP item configured for the app), ``answer_timeout`` (≤ 3 s),
  ``retry_delays`` (seconds), ``deactivate_after`` (consecutive failed attempts).
* ``GET /sandbox/webhooks/health`` — per registered webhook: active, consecutive failures;
  ``POST /sandbox/webhooks/reactivate`` ``{"kind": ...}``.

The platform (each answers ``{"deliveries": [ids]}`` of the webhook deliveries it queued):

* ``POST /sandbox/platform/unlink`` ``{user_id, referrer_type=UNLINK_FROM_APPS}`` — the user unlinks outside the
  app: link → unlinked, consents dropped, tokens revoked; unlink webhook + SET User Unlinked.
* ``POST /sandbox/platform/pending-expired`` — sweeps pending links older than 24 h (``INCOMPLETE_SIGN_UP``).
* ``POST /sandbox/platform/account-disabled`` ``{user_id, reason="hijacking"}`` — marks the account disabled;
  SET Account Disabled. ``POST /sandbox/platform/account-enabled`` ``{user_id}`` — the reverse.
* ``POST /sandbox/platform/identifier-recycled`` ``{user_id, subject_type=email|phone, new_value?}``.
* ``POST /sandbox/platform/profile-changed`` ``{user_id, profile: "nickname profile_image"}``.
* ``POST /sandbox/platform/assurance-level`` ``{user_id, current_level, previous_level}``.
* ``POST /sandbox/platform/account-status`` ``{user_id, event_type, members: {...}}`` — any event type.
* ``POST /sandbox/platform/channel`` ``{user_id, channel_public_id, event: added|blocked, channel_uuid?}``.
* ``POST /sandbox/platform/share`` ``{user_id, chat_type=MemoChat, args: {...}, template_id?, hash_chat_id?}``.
"""
from __future__ import annotations


from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from ..web import Params, api_error, json_response, read_json, sandbox_of
from .models import AAL_LEVELS, CHANNEL_EVENTS, KINDS, UNLINK_REFERRERS


def _model(request: Request):
    return sandbox_of(request).model("events")


def _app_id(sb, body) -> str:
    app_id = str(body.get("app_id") or sb.apps.app()["app_id"])
    if sb.apps.app(app_id) is None:
        raise api_error(400, -2, f"unknown app_id {app_id}")
    return app_id


def _user(sb, body) -> dict:
    try:
        user = sb.apps.user(int(body["user_id"]))
    except (KeyError, TypeError, ValueError):
        raise api_error(400, -2, "user_id (a demo user's id) is required") from None
    if user is None:
        raise api_error(400, -2, f"unknown user_id {body['user_id']}")
    return user


def _check(value, choices, name):
    if value not in choices:
        raise api_error(400, -2, f"{name} must be one of {', '.join(choices)}")
    return value


def _done(model, ids):
    model.kick()
    return json_response({"deliveries": ids})


# ---------------------------------------------------------------------- log and settings
async def deliveries(request: Request):
    sb = sandbox_of(request)
    p = Params(dict(request.query_params))
    model = _model(request)
    wait = p.float("wait", 0.0)
    if wait is not None and wait > 0:
        await run_in_threadpool(model.wait_idle, min(wait, 30.0))
    await run_in_threadpool(model.pump)
    rows = model.deliveries(p.str("app_id"), kind=p.str("kind"), state=p.str("state"),
                            since=p.int("since", 0, lo=0), limit=p.int("limit", 1000, lo=1, hi=10000))
    _ = sb
    return json_response({"deliveries": rows})


async def settings(request: Request):
    sb = sandbox_of(request)
    model = _model(request)
    if request.method == "GET":
        return json_response(model.settings(_app_id(sb, dict(request.query_params))))
    body = await read_json(request)
    app_id = _app_id(sb, body)
    body.pop("app_id", None)
    return json_response(model.update_settings(app_id, **body))


async def health(request: Request):
    sb = sandbox_of(request)
    return json_response({"webhooks": _model(request).health(_app_id(sb, dict(request.query_params)))})


async def reactivate(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    kind = _check(body.get("kind"), KINDS, "kind")
    return json_response({"webhooks": _model(request).reactivate(_app_id(sb, body), kind)})


# ---------------------------------------------------------------------- the platform
async def platform_unlink(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    referrer = _check(body.get("referrer_type", "UNLINK_FROM_APPS"), UNLINK_REFERRERS, "referrer_type")
    identity = sb.model("identity")
    if identity.link_state(app_id, user["id"]) not in ("linked", "pending"):
        raise api_error(400, -101, f"user {user['id']} is not linked to app {app_id}")
    model = _model(request)
    _, ids = model.pumped(lambda: identity.unlink(app_id, user["id"], reason=referrer))
    return _done(model, ids)


async def platform_pending_expired(request: Request):
    model = _model(request)
    _, ids = model.pumped(sandbox_of(request).model("identity").sweep_pending)
    return _done(model, ids)


def _set_disabled(sb, user_id: int, disabled: bool) -> None:
    sb.store.execute("UPDATE users SET disabled = ? WHERE id = ?", int(disabled), int(user_id))


async def platform_account_disabled(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    _set_disabled(sb, user["id"], True)
    model = _model(request)
    return _done(model, model.account_status(app_id, user["id"], "Account Disabled",
                                             reason=str(body.get("reason", "hijacking"))))


async def platform_account_enabled(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    _set_disabled(sb, user["id"], False)
    model = _model(request)
    return _done(model, model.account_status(app_id, user["id"], "Account Enabled"))


async def platform_identifier_recycled(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    kind = _check(body.get("subject_type", "email"), ("email", "phone"), "subject_type")
    if kind == "email":
        subject = {"subject_type": "email", "account_email": user["email"]}
    else:
        subject = {"subject_type": "phone", "phone_number": user.get("phone_number") or ""}
    model = _model(request)
    return _done(model, model.account_status(app_id, user["id"], "Identifier Recycled", subject=subject,
                                             new_value=str(body.get("new_value", ""))))


async def platform_profile_changed(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    profile = body.get("profile", "nickname profile_image")
    if isinstance(profile, list):
        profile = " ".join(map(str, profile))
    model = _model(request)
    return _done(model, model.profile_changed(app_id, user["id"], str(profile)))


async def platform_assurance_level(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    current = _check(body.get("current_level", "nist-aal2"), AAL_LEVELS, "current_level")
    previous = _check(body.get("previous_level", "nist-aal1"), AAL_LEVELS, "previous_level")
    if current == previous:
        raise api_error(400, -2, "current_level and previous_level must differ")
    direction = "increase" if AAL_LEVELS.index(current) > AAL_LEVELS.index(previous) else "decrease"
    model = _model(request)
    return _done(model, model.account_status(app_id, user["id"], "Assurance Level Change", current_level=current,
                                             previous_level=previous, change_direction=direction))


async def platform_account_status(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    members = body.get("members") or {}
    if not isinstance(members, dict):
        raise api_error(400, -2, "members must be a JSON object")
    model = _model(request)
    try:
        ids = model.account_status(app_id, user["id"], str(body.get("event_type", "")), **members)
    except (ValueError, TypeError) as exc:
        raise api_error(400, -2, str(exc)) from None
    return _done(model, ids)


async def platform_channel(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    event = _check(body.get("event"), CHANNEL_EVENTS, "event")
    public_id = body.get("channel_public_id")
    if not isinstance(public_id, str) or not public_id:
        raise api_error(400, -2, "channel_public_id is required")
    model = _model(request)
    return _done(model, model.channel(app_id, user["id"], public_id, event, channel_uuid=body.get("channel_uuid")))


async def platform_share(request: Request):
    sb = sandbox_of(request)
    body = await read_json(request)
    app_id, user = _app_id(sb, body), _user(sb, body)
    args = body.get("args") or {}
    if not isinstance(args, dict):
        raise api_error(400, -2, "args (serverCallbackArgs) must be a JSON object")
    model = _model(request)
    try:
        ids = model.share(app_id, user["id"], chat_type=str(body.get("chat_type", "MemoChat")),
                          hash_chat_id=body.get("hash_chat_id"), args=args, template_id=body.get("template_id"),
                          is_single_chatroom=body.get("is_single_chatroom"),
                          chat_member_count_range=body.get("chat_member_count_range"))
    except (ValueError, TypeError) as exc:
        raise api_error(400, -2, str(exc)) from None
    return _done(model, ids)


def routes(sandbox):
    return {"sandbox": [
        Route("/webhooks/deliveries", deliveries, methods=["GET"]),
        Route("/webhooks/settings", settings, methods=["GET", "POST"]),
        Route("/webhooks/health", health, methods=["GET"]),
        Route("/webhooks/reactivate", reactivate, methods=["POST"]),
        Route("/platform/unlink", platform_unlink, methods=["POST"]),
        Route("/platform/pending-expired", platform_pending_expired, methods=["POST"]),
        Route("/platform/account-disabled", platform_account_disabled, methods=["POST"]),
        Route("/platform/account-enabled", platform_account_enabled, methods=["POST"]),
        Route("/platform/identifier-recycled", platform_identifier_recycled, methods=["POST"]),
        Route("/platform/profile-changed", platform_profile_changed, methods=["POST"]),
        Route("/platform/assurance-level", platform_assurance_level, methods=["POST"]),
        Route("/platform/account-status", platform_account_status, methods=["POST"]),
        Route("/platform/channel", platform_channel, methods=["POST"]),
        Route("/platform/share", platform_share, methods=["POST"]),
    ]}
