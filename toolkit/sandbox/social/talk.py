"""Messenger (social §4.2–§4.5): profile, friends, profiles for admins, messages; state, rules and HTTP.

Choices where the spec is silent, written down here:

* People are the demo users plus seeded messenger contacts (``toolkit/data/social/contacts.json``, ids 42000000xx),
  all users of the same service. A friend's ``uuid`` is derived per app from the seed and the user id.
* Consent: friends list needs ``friends``; memo and friend messages need ``talk_message``; missing consent
  answers HTTP 403 code -402 (the real platform's insufficient-scope error). A non-messenger account answers
  HTTP 400 code -501 (NotExistTalkUserException) on every messenger call.
* Friends sort: ``asc`` is Korean-based: Hangul, special characters, numbers, English, Japanese, emoji
  (classified by the nickname's first character), then by the nickname (case-folded), then id; ``desc`` is
  the exact reverse. ``friend_order`` accepts ``nickname`` (default) and ``favorite`` (favorites first, each
  group in ``order``); other values answer -2. ``offset`` ≥ 0, ``limit`` 1–100 (default 10), else -2.
  ``before_url``/``after_url`` are full URLs of the neighbouring pages with the same parameters (null at the
  ends); ``favorite_count`` counts all favorites. ``id`` of a friend is the service user id.
* ``/v2/api/talk/profiles``: "registered" means linked to the app. ``target_ids`` is a JSON array or
  comma-separated; at most 100 (sandbox choice). Each profile shows the fields its user consented to
  (``profile``/``profile_nickname``, ``profile``/``profile_image``). Multi-profiles are not modelled.
* Friend messages: ``receiver_uuids`` must be the text of a JSON array of 1–5 uuids (-2 otherwise). Each
  recipient fails with -2 (uuid not a friend of the sender), -530 (the friend does not accept messages from
  apps) or -532 (the sender's daily message limit, default 100 a UTC day, set with
  ``POST /sandbox/social/limits {"daily_messages_per_sender": N}``). One recipient failing, or every
  recipient failing, answers HTTP 400 with the first failure's code and message; some failing among 2–5
  answers 200 with ``successful_receiver_uuids`` and ``failure_info`` grouped by code.
* Templates: ``template_object`` is validated (object types feed, list, location, commerce, text, calendar;
  lower case; required members of the real platform's templates), errors answer -2. Custom templates are
  seeded (``toolkit/data/social/templates.json``); an unknown ``template_id`` answers -2. ``template_args`` is a
  JSON object; unknown placeholders stay literal ``${KEY}``. Scrap: ``request_url``'s origin must be one of
  the app's web domains (-2 otherwise); the scrape results fill ``${SCRAP_TITLE}``, ``${SCRAP_DESCRIPTION}``,
  ``${SCRAP_IMAGE}``, ``${SCRAP_URL}`` and ``template_args`` cannot overwrite them.
* Sent messages are stored; ``GET /sandbox/social/messages?user_id=N`` lists what user N received (memos
  included, ``chat`` ``MemoChat`` or ``DirectChat``), newest first.
"""
from __future__ import annotations

import json
import re
import unicodedata
from urllib.parse import urlencode, urlsplit

from starlette.requests import Request
from starlette.routing import Route

from ..web import (INT64_MAX, INT64_MIN, Params, api_error, json_response, read_fields, require_app_key,
                   sandbox_of)
from .common import SocialParts, has_any, make_uuid, need_scope, rfc3339

SCHEMA = """
CREATE TABLE IF NOT EXISTS talk_friends (
    user_id INTEGER NOT NULL, friend_id INTEGER NOT NULL, favorite INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, friend_id)
);
CREATE TABLE IF NOT EXISTS talk_messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, sender_id INTEGER NOT NULL,
    receiver_id INTEGER NOT NULL, chat TEXT NOT NULL, kind TEXT NOT NULL, template_id TEXT,
    message TEXT NOT NULL, created_at INTEGER NOT NULL
);
"""

MAX_FRIENDS_PAGE = 100
MAX_RECEIVERS = 5
MAX_PROFILE_TARGETS = 100
DEFAULT_DAILY_LIMIT = 100
OBJECT_TYPES = ("feed", "list", "location", "commerce", "text", "calendar")
PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_]+)\}")


def script_class(name: str) -> int:
    """0 Hangul, 1 special, 2 number, 3 English, 4 Japanese, 5 emoji (Korean-based order)."""
    ch = (name or " ")[0]
    code = ord(ch)
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return 0
    if ch.isdigit():
        return 2
    if ch.isascii() and ch.isalpha():
        return 3
    if 0x3040 <= code <= 0x30FF or 0x4E00 <= code <= 0x9FFF or 0xFF66 <= code <= 0xFF9F:
        return 4
    if code >= 0x1F000 or unicodedata.category(ch) == "So":
        return 5
    return 1


def friend_key(f: dict):
    return (script_class(f["profile_nickname"]), f["profile_nickname"].casefold(), f["id"])


class TalkMixin(SocialParts):
    def seed_talk(self, rng) -> None:
        rows = []
        for p in json.loads((self.sandbox.datasets / "social" / "friendships.json").read_text("utf-8")):
            rows.append((p["a"], p["b"], int(p["a_favorites_b"])))
            rows.append((p["b"], p["a"], int(p["b_favorites_a"])))
        with self.store.tx() as db:
            db.executemany("INSERT OR IGNORE INTO talk_friends VALUES (?,?,?)", rows)

    # ------------------------------------------------------------------ people
    def uuid(self, app_id: str, user_id: int) -> str:
        return make_uuid(self.sandbox.seed, app_id, user_id)

    def friends_of(self, app_id: str, user_id: int) -> list[dict]:
        out = []
        for row in self.store.all("SELECT friend_id, favorite FROM talk_friends WHERE user_id = ?", int(user_id)):
            person = self.person(row["friend_id"])
            if person is None or not person.get("is_talk_user", True):
                continue
            out.append({"id": person["id"], "uuid": self.uuid(app_id, person["id"]),
                        "profile_nickname": person["nickname"],
                        "profile_thumbnail_image": person.get("thumbnail_image_url"),
                        "favorite": bool(row["favorite"])})
        return out

    def sort_friends(self, friends: list[dict], order: str, friend_order: str) -> list[dict]:
        ordered = sorted(friends, key=friend_key, reverse=(order == "desc"))
        if friend_order == "favorite":
            ordered = [f for f in ordered if f["favorite"]] + [f for f in ordered if not f["favorite"]]
        return ordered

    def daily_limit(self) -> int:
        return int(self.store.get_meta("social.daily_messages_per_sender", DEFAULT_DAILY_LIMIT))

    def sent_today(self, app_id: str, sender_id: int) -> int:
        now = self.sandbox.clock.unix()
        start = now - now % 86400
        # an aggregate without GROUP BY always yields exactly one row
        return self.store.all("SELECT COUNT(*) AS n FROM talk_messages WHERE app_id = ? AND sender_id = ? AND"
                              " chat = 'DirectChat' AND created_at >= ?", app_id, int(sender_id), start)[0]["n"]

    def store_message(self, app_id, sender_id, receiver_id, chat, kind, template_id, message) -> None:
        self.store.execute("INSERT INTO talk_messages (app_id, sender_id, receiver_id, chat, kind, template_id,"
                           " message, created_at) VALUES (?,?,?,?,?,?,?,?)", app_id, int(sender_id),
                           int(receiver_id), chat, kind, template_id, json.dumps(message, ensure_ascii=False),
                           self.sandbox.clock.unix())

    def inbox(self, user_id: int, limit: int = 50) -> list[dict]:
        out = []
        for r in self.store.all("SELECT * FROM talk_messages WHERE receiver_id = ? ORDER BY seq DESC LIMIT ?",
                                int(user_id), limit):
            sender = self.person(r["sender_id"]) or {}
            out.append({"seq": r["seq"], "chat": r["chat"], "sender_id": r["sender_id"],
                        "sender_nickname": sender.get("nickname"), "receiver_id": r["receiver_id"],
                        "kind": r["kind"], "template_id": r["template_id"], "message": json.loads(r["message"]),
                        "sent_at": rfc3339(r["created_at"])})
        return out

    def custom_template(self, template_id: str) -> dict:
        for t in json.loads((self.sandbox.datasets / "social" / "templates.json").read_text("utf-8")):
            if t["template_id"] == template_id:
                return t["template"]
        raise api_error(400, -2, f"template_id {template_id!r} is not a template of the app")


# ---------------------------------------------------------------------- template checks
def _need(obj: dict, key: str, kind=dict, where: str = "template_object"):
    value = obj.get(key)
    if not isinstance(value, kind) or (isinstance(value, (str, list)) and not value):
        raise api_error(400, -2, f"{where}.{key} is required ({kind.__name__})")
    return value


def _check_link(link, where):
    if not isinstance(link, dict):
        raise api_error(400, -2, f"{where} must be an object with web_url/mobile_web_url/..._execution_params")


def _check_content(content, where):
    if not isinstance(content, dict):
        raise api_error(400, -2, f"{where} must be an object")
    _check_link(content.get("link"), f"{where}.link")


def validate_template(obj) -> dict:
    if not isinstance(obj, dict):
        raise api_error(400, -2, "template_object must be a JSON object")
    kind = obj.get("object_type")
    if kind not in OBJECT_TYPES:
        raise api_error(400, -2, f"template_object.object_type must be one of {', '.join(OBJECT_TYPES)}")
    if kind in ("feed", "location", "commerce", "calendar"):
        _check_content(_need(obj, "content"), "template_object.content")
    if kind == "text":
        text = _need(obj, "text", str)
        if len(text) > 200:
            raise api_error(400, -2, "template_object.text must be at most 200 characters")
        _check_link(obj.get("link"), "template_object.link")
    if kind == "list":
        _need(obj, "header_title", str)
        contents = _need(obj, "contents", list)
        if not 2 <= len(contents) <= 3:
            raise api_error(400, -2, "template_object.contents must hold 2 or 3 items")
        for i, c in enumerate(contents):
            _check_content(c, f"template_object.contents[{i}]")
    if kind == "location":
        _need(obj, "address", str)
    if kind == "commerce":
        commerce = _need(obj, "commerce")
        if not isinstance(commerce.get("regular_price"), int):
            raise api_error(400, -2, "template_object.commerce.regular_price is required (integer)")
    if kind == "calendar":
        if obj.get("id_type") not in ("event", "calendar"):
            raise api_error(400, -2, "template_object.id_type must be event or calendar")
        _need(obj, "id", str)
    buttons = obj.get("buttons")
    if buttons is not None:
        if not isinstance(buttons, list) or len(buttons) > 2:
            raise api_error(400, -2, "template_object.buttons must be a list of at most 2 buttons")
        for i, b in enumerate(buttons):
            if not isinstance(b, dict) or not isinstance(b.get("title"), str):
                raise api_error(400, -2, f"template_object.buttons[{i}] needs a title and a link")
            _check_link(b.get("link"), f"template_object.buttons[{i}].link")
    return obj


def fill(value, args: dict):
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: str(args[m.group(1)]) if m.group(1) in args else m.group(0), value)
    if isinstance(value, list):
        return [fill(v, args) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, args) for k, v in value.items()}
    return value


def _json_field(p: Params, name: str, required: bool = False):
    raw = p.str(name, required=required)
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise api_error(400, -2, f"{name} must be JSON text") from None


# ---------------------------------------------------------------------- HTTP
def _model(request: Request):
    return sandbox_of(request).model("social")


def _talk_user(request: Request):
    user, token = sandbox_of(request).model("identity").bearer(request)
    if not user["is_talk_user"]:
        raise api_error(400, -501, "NotExistTalkUserException")
    return user, token


async def talk_profile(request: Request):
    user, token = _talk_user(request)
    sandbox_of(request).apps.charge(token["app_id"], "talk_profile")
    body = {"id": user["id"]}
    if has_any(token, "profile", "profile_nickname"):
        body["nickName"] = user["nickname"]
    if has_any(token, "profile", "profile_image"):
        body["profileImageURL"] = user.get("profile_image_url")
        body["thumbnailURL"] = user.get("thumbnail_image_url")
    return json_response(body)


async def friends(request: Request):
    user, token = _talk_user(request)
    need_scope(token, "friends")
    p = Params(await read_fields(request))
    offset = p.int("offset", 0, lo=0, hi=10**9)
    limit = p.int("limit", 10, lo=1, hi=MAX_FRIENDS_PAGE)
    order = p.enum("order", ("asc", "desc"), "asc")
    friend_order = p.enum("friend_order", ("nickname", "favorite"), "nickname")
    sandbox_of(request).apps.charge(token["app_id"], "talk_friends")
    model = _model(request)
    everyone = model.sort_friends(model.friends_of(token["app_id"], user["id"]), order, friend_order)
    total = len(everyone)

    def link(off):
        q = {"offset": off, "limit": limit, "order": order}
        if p.has("friend_order"):
            q["friend_order"] = friend_order
        return str(request.url.replace(query=urlencode(q)))

    body = {"elements": everyone[offset:offset + limit], "total_count": total,
            "before_url": link(max(0, offset - limit)) if offset > 0 else None,
            "after_url": link(offset + limit) if offset + limit < total else None,
            "favorite_count": sum(f["favorite"] for f in everyone)}
    return json_response(body)


def _ids(p: Params, name: str, required: bool) -> list[int] | None:
    raw = p.list(name, required=required)
    if raw is None:
        return None
    try:
        ids = [int(x) for x in raw]
    except ValueError:
        raise api_error(400, -2, f"{name} must hold user ids (Long)") from None
    if any(not INT64_MIN <= i <= INT64_MAX for i in ids):
        raise api_error(400, -2, f"{name} must hold user ids (Long)")
    return ids


async def profiles(request: Request):
    app, _ = require_app_key(request, kinds=("admin",))
    sb = sandbox_of(request)
    p = Params(await read_fields(request))
    ids = _ids(p, "target_ids", True)
    assert ids is not None                              # required: _ids raised when missing
    p.enum("target_id_type", ("user_id",), required=True)
    if not 1 <= len(ids) <= MAX_PROFILE_TARGETS:
        raise api_error(400, -2, f"target_ids must hold 1 to {MAX_PROFILE_TARGETS} ids")
    viewer_id = p.int("viewer_id")
    if viewer_id is not None:
        p.enum("viewer_id_type", ("user_id",), "user_id")
    identity = sb.model("identity")

    def registered(uid):
        return sb.apps.user(uid) is not None and identity.link_state(app["app_id"], uid) == "linked"

    def info(uid):
        user, scopes = sb.apps.user(uid), identity.agreed_scopes(app["app_id"], uid)
        out = {"user_id": uid}
        if {"profile", "profile_nickname"} & set(scopes):
            out["nickname"] = user["nickname"]
        if {"profile", "profile_image"} & set(scopes):
            out["profile_image_url"] = user.get("profile_image_url")
            out["thumbnail_image_url"] = user.get("thumbnail_image_url")
        return out

    if viewer_id is not None and not registered(viewer_id):
        raise api_error(400, -101, "NotRegisteredUserException")
    missing = [i for i in ids if not registered(i)]
    if missing:
        raise api_error(400, -2, f"target id {missing[0]} is not registered to the service")
    body = {"targets": [info(i) for i in ids]}
    if viewer_id is not None:
        body = {"viewer": info(viewer_id), **body}
    return json_response(body)


async def _render(request: Request, model, app: dict, p: Params, kind: str) -> tuple[dict, str | None]:
    """The message a send delivers (validated, placeholders filled)."""
    args = _json_field(p, "template_args")
    if args is not None and not isinstance(args, dict):
        raise api_error(400, -2, "template_args must be a JSON object of key-value pairs")
    args = {k: v for k, v in (args or {}).items()}
    if kind == "default":
        return validate_template(_json_field(p, "template_object", True)), None
    if kind == "custom":
        chosen = p.str("template_id", required=True)
        return fill(model.custom_template(chosen), args), chosen
    url = p.str("request_url", required=True)
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if origin.rstrip("/") not in [d.rstrip("/") for d in app["web_domains"]]:
        raise api_error(400, -2, f"the domain of request_url ({parts.netloc}) is not a web domain of the app")
    info = await model.scrape(url)
    scraped = {"SCRAP_TITLE": info["title"], "SCRAP_DESCRIPTION": info["description"],
               "SCRAP_IMAGE": (info["image"] or [""])[0], "SCRAP_URL": info["url"], "SCRAP_HOST": info["host"]}
    template_id = p.str("template_id")
    if template_id is None:
        message = {"object_type": "feed", "content": {"title": info["title"], "description": info["description"],
                                                      "image_url": scraped["SCRAP_IMAGE"],
                                                      "link": {"web_url": info["url"]}}}
        return message, None
    args.update(scraped)  # template_args cannot overwrite scrape results
    return fill(model.custom_template(template_id), args), template_id


MEMO_API = {"default": "talk_memo_default_send", "custom": "talk_memo_send", "scrap": "talk_memo_scrap_send"}
FRIENDS_API = {"default": "talk_friends_message_default_send", "custom": "talk_friends_message_send",
               "scrap": "talk_friends_message_scrap_send"}


def memo_handler(kind: str):
    async def handler(request: Request):
        sb = sandbox_of(request)
        user, token = _talk_user(request)
        need_scope(token, "talk_message")
        p = Params(await read_fields(request))
        model = _model(request)
        app = sb.apps.app(token["app_id"])
        message, template_id = await _render(request, model, app, p, kind)
        sb.apps.charge(token["app_id"], MEMO_API[kind])
        model.store_message(token["app_id"], user["id"], user["id"], "MemoChat", kind, template_id, message)
        return json_response({"result_code": 0})
    return handler


def friends_handler(kind: str):
    async def handler(request: Request):
        sb = sandbox_of(request)
        user, token = _talk_user(request)
        need_scope(token, "talk_message")
        p = Params(await read_fields(request))
        uuids = p.list("receiver_uuids", required=True, allow_comma=False)
        if not 1 <= len(uuids) <= MAX_RECEIVERS:
            raise api_error(400, -2, f"receiver_uuids must hold 1 to {MAX_RECEIVERS} uuids (got {len(uuids)})")
        if len(set(uuids)) != len(uuids):
            raise api_error(400, -2, "receiver_uuids must not repeat a uuid")
        model = _model(request)
        app = sb.apps.app(token["app_id"])
        message, template_id = await _render(request, model, app, p, kind)
        sb.apps.charge(token["app_id"], FRIENDS_API[kind])
        by_uuid = {f["uuid"]: f for f in model.friends_of(token["app_id"], user["id"])}
        limit, used = model.daily_limit(), model.sent_today(token["app_id"], user["id"])
        ok, failures = [], []
        for uuid in uuids:
            friend = by_uuid.get(uuid)
            if friend is None:
                failures.append((uuid, -2, "the receiver is not a friend of the sender"))
                continue
            person = model.person(friend["id"])
            if not person.get("accepts_app_messages", True):
                failures.append((uuid, -530, "the receiver does not accept messages from this app"))
                continue
            if used >= limit:
                failures.append((uuid, -532, "daily message limit per sender exceeded"))
                continue
            model.store_message(token["app_id"], user["id"], friend["id"], "DirectChat", kind, template_id, message)
            used += 1
            ok.append(uuid)
        if not ok:
            _, code, msg = failures[0]
            raise api_error(400, code, msg)
        body: dict[str, list] = {"successful_receiver_uuids": ok}
        if failures:
            grouped: dict[int, dict] = {}
            for uuid, code, msg in failures:
                grouped.setdefault(code, {"code": code, "msg": msg, "receiver_uuids": []})["receiver_uuids"].append(uuid)
            body["failure_info"] = list(grouped.values())
        return json_response(body)
    return handler


async def control_messages(request: Request):
    p = Params(dict(request.query_params))
    user_id = p.int("user_id", required=True)
    return json_response(_model(request).inbox(user_id, p.int("limit", 50, lo=1, hi=1000)))


async def control_limits(request: Request):
    model = _model(request)
    try:
        body = json.loads(await request.body() or b"{}")
        if "daily_messages_per_sender" in body:
            value = body["daily_messages_per_sender"]
            if value is None:
                value = DEFAULT_DAILY_LIMIT
            if not isinstance(value, int) or value < 0:
                raise ValueError
            model.store.set_meta("social.daily_messages_per_sender", value)
    except (ValueError, AttributeError):
        raise api_error(400, -2, "body: {\"daily_messages_per_sender\": N (>= 0) or null}") from None
    return json_response({"daily_messages_per_sender": model.daily_limit()})


def talk_routes():
    api = [
        Route("/v1/api/talk/profile", talk_profile),
        Route("/v1/api/talk/friends", friends),
        Route("/v2/api/talk/profiles", profiles, methods=["GET", "POST"]),
        Route("/v2/api/talk/memo/default/send", memo_handler("default"), methods=["POST"]),
        Route("/v2/api/talk/memo/send", memo_handler("custom"), methods=["POST"]),
        Route("/v2/api/talk/memo/scrap/send", memo_handler("scrap"), methods=["POST"]),
        Route("/v1/api/talk/friends/message/default/send", friends_handler("default"), methods=["POST"]),
        Route("/v1/api/talk/friends/message/send", friends_handler("custom"), methods=["POST"]),
        Route("/v1/api/talk/friends/message/scrap/send", friends_handler("scrap"), methods=["POST"]),
    ]
    sandbox = [Route("/social/messages", control_messages),
               Route("/social/limits", control_limits, methods=["POST"])]
    return {"api": api, "sandbox": sandbox}
