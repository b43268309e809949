"""Messenger channels (social §4.6–§4.7): relations and customer files; state, rules and HTTP.

Choices where the spec is silent, written down here:

* The demo app has three linked channels (``toolkit/data/social/channels.json``); relations of demo users are
  seeded there. A pair without a row is ``NONE`` (no dates); ``ADDED`` carries ``created_at`` and
  ``updated_at``, ``BLOCKED`` only ``updated_at``. The control API ``POST /sandbox/social/channels/relation``
  ``{"user_id", "channel_public_id", "relation": "ADDED"|"BLOCKED"|"NONE"}`` changes a relation
  (``Model.set_relation`` is the hook the webhook sender can call).
* Token mode needs the ``plusfriends`` consent (HTTP 403 code -402 otherwise). ``channel_ids`` naming a
  channel not linked to the app, or ``channel_id_type`` other than ``channel_public_id``, answers -2. Both
  modes answer -501 for a user who is not a messenger user.
* ``channels/multi``: ``target_ids`` comma-separated (a JSON array is accepted too), 1–200 ids (-2 otherwise);
  ids of unknown users, users not linked to the app or not messenger users are omitted.
* Customer files: every channel has 20 slots; a file uses one (creating beyond answers -2). Schema: a JSON
  object of 1–30 keys; standard keys (Korean) may be ``string`` or ``number``; any other key is custom, must
  be ``number`` and may not be ``앱유저아이디`` or ``전화번호``; violations answer -2. A new file is ``using``;
  ``update_at`` is Korea time ``yyyy-MM-dd HH:mm:ss``, updated when users are added or deleted. Files are
  never edited.
* Adding users: 1–2,000 users per call (-2 otherwise); a user is skipped when the id is not a linked service
  user id (``app``) or a messenger user's phone number (``phone``, digits compared), when the user has not
  added the channel (``ADDED``), or when ``field`` names a key outside the schema or holds a non-number.
  ``request_count`` counts the users sent, ``success_count`` those stored (a user added again is updated).
* Unknown ``file_id`` of the channel, or a channel not linked to the app, answers -2 on every file call.
"""
from __future__ import annotations

import json
import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..apps.models import DEMO_APP_ID
from ..web import (INT64_MAX, INT64_MIN, Params, ascii_int, api_error, json_response, read_fields, read_json,
                   require_app_key, sandbox_of)
from .common import SocialParts, kst_text, need_scope, parse_rfc3339, rfc3339

SCHEMA = """
CREATE TABLE IF NOT EXISTS channel_relations (
    user_id INTEGER NOT NULL, channel_public_id TEXT NOT NULL, relation TEXT NOT NULL,
    created_at INTEGER, updated_at INTEGER, PRIMARY KEY (user_id, channel_public_id)
);
CREATE TABLE IF NOT EXISTS app_channels (
    channel_public_id TEXT PRIMARY KEY, app_id TEXT NOT NULL REFERENCES apps(app_id), channel_uuid TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS channel_files (
    file_id INTEGER PRIMARY KEY AUTOINCREMENT, channel_public_id TEXT NOT NULL, file_name TEXT NOT NULL,
    schema TEXT NOT NULL, status TEXT NOT NULL, update_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS channel_file_users (
    file_id INTEGER NOT NULL, user_type TEXT NOT NULL, user_key TEXT NOT NULL, field TEXT NOT NULL,
    PRIMARY KEY (file_id, user_type, user_key)
);
"""

MAX_MULTI = 200
MAX_SCHEMA = 30
MAX_ADD = 2000
STANDARD_KEYS = ("생년월일", "국가", "지역", "성별", "연령", "구매금액", "포인트", "가입일", "최근 구매일", "응모일")
RESERVED_KEYS = ("앱유저아이디", "전화번호")
RELATIONS = ("ADDED", "BLOCKED", "NONE")


class ChannelMixin(SocialParts):
    def channel_config(self) -> dict:
        return json.loads((self.sandbox.datasets / "social" / "channels.json").read_text("utf-8"))

    def seed_channels(self, rng) -> None:
        cfg = self.channel_config()
        with self.store.tx() as db:
            for r in cfg["relations"]:
                db.execute("INSERT OR REPLACE INTO channel_relations VALUES (?,?,?,?,?)",
                           (r["user_id"], r["channel_public_id"], r["relation"],
                            parse_rfc3339(r["created_at"]) if r["relation"] == "ADDED" else None,
                            parse_rfc3339(r["updated_at"])))

    def channels(self, app_id: str | None = DEMO_APP_ID) -> list[dict]:
        """The channels linked to ``app_id`` (every app's with None): the demo app's come from the dataset,
        other apps' from ``app_channels`` (control API ``POST /sandbox/apps``)."""
        demo = [{**c, "app_id": DEMO_APP_ID} for c in self.channel_config()["channels"]]
        rows = [dict(r) for r in self.store.all("SELECT * FROM app_channels ORDER BY rowid")]
        every = demo + rows
        return every if app_id is None else [c for c in every if c["app_id"] == str(app_id)]

    def channel(self, public_id: str, app_id: str | None = DEMO_APP_ID) -> dict:
        """A channel linked to ``app_id`` (any app's with None). Another app's channel answers like an unknown
        one, HTTP 400 ``{code: -2}`` "not linked to the app": the platform lets an app reach only the channels
        linked to it, and does not tell whether a channel of another app exists."""
        ch = next((c for c in self.channels(app_id) if c["channel_public_id"] == public_id), None)
        if ch is None:
            raise api_error(400, -2, f"channel {str(public_id)[:64]!r} is not linked to the app")
        return ch

    def add_channel(self, app_id: str, public_id: str, uuid: str, name: str) -> dict:
        if any(c["channel_public_id"] == public_id for c in self.channels(None)):
            raise api_error(400, -2, f"channel {public_id[:64]!r} exists already")
        self.store.execute("INSERT INTO app_channels VALUES (?, ?, ?, ?)", public_id, app_id, uuid, name)
        return self.channel(public_id, app_id)

    def set_relation(self, user_id: int, public_id: str, relation: str) -> dict:
        owner = self.channel(public_id, None)["app_id"]
        if relation not in RELATIONS:
            raise api_error(400, -2, f"relation must be one of {', '.join(RELATIONS)}")
        now = self.sandbox.clock.unix()
        with self.store.tx() as db:
            old = db.execute("SELECT * FROM channel_relations WHERE user_id = ? AND channel_public_id = ?",
                             (int(user_id), public_id)).fetchone()
            if relation == "NONE":
                db.execute("DELETE FROM channel_relations WHERE user_id = ? AND channel_public_id = ?",
                           (int(user_id), public_id))
            else:
                created = (old["created_at"] if old is not None and old["relation"] == "ADDED" else now) \
                    if relation == "ADDED" else None
                db.execute("INSERT OR REPLACE INTO channel_relations VALUES (?,?,?,?,?)",
                           (int(user_id), public_id, relation, created, now))
        before = old["relation"] if old is not None else "NONE"
        if relation in ("ADDED", "BLOCKED") and relation != before:
            # the channel webhook of the app the channel is linked to
            self.sandbox.model("events").channel(owner, int(user_id), public_id, relation.lower(),
                                                 channel_uuid=self.channel(public_id, owner)["channel_uuid"])
        return self.relation(user_id, self.channel(public_id, owner))

    def relation(self, user_id: int, ch: dict) -> dict:
        row = self.store.one("SELECT * FROM channel_relations WHERE user_id = ? AND channel_public_id = ?",
                             int(user_id), ch["channel_public_id"])
        out = {"channel_uuid": ch["channel_uuid"], "channel_public_id": ch["channel_public_id"],
               "relation": row["relation"] if row else "NONE"}
        if row is not None:
            if row["relation"] == "ADDED" and row["created_at"] is not None:
                out["created_at"] = rfc3339(row["created_at"])
            out["updated_at"] = rfc3339(row["updated_at"])
        return out

    def relations_of(self, user_id: int, public_ids: list[str] | None, app_id: str = DEMO_APP_ID) -> dict:
        chans = [self.channel(c, app_id) for c in public_ids] if public_ids else self.channels(app_id)
        return {"user_id": int(user_id), "channels": [self.relation(user_id, ch) for ch in chans]}

    # ------------------------------------------------------------------ customer files
    def files_of(self, public_id: str) -> list:
        return self.store.all("SELECT * FROM channel_files WHERE channel_public_id = ? ORDER BY file_id", public_id)

    def file(self, public_id: str, file_id, app_id: str = DEMO_APP_ID) -> dict:
        self.channel(public_id, app_id)
        try:
            file_id = int(file_id)
        except (TypeError, ValueError):
            raise api_error(400, -2, "file_id must be an integer") from None
        row = self.store.one("SELECT * FROM channel_files WHERE file_id = ? AND channel_public_id = ?", file_id,
                             public_id)
        if row is None:
            raise api_error(400, -2, f"file_id {file_id} is not a file of channel {public_id}")
        return dict(row)

    def slots(self) -> int:
        return int(self.channel_config().get("slots_per_channel", 20))


def _model(request: Request):
    return sandbox_of(request).model("social")


def _channel_ids(p: Params) -> list[str] | None:
    p.enum("channel_id_type", ("channel_public_id",), "channel_public_id")
    return p.list("channel_ids")


async def channels(request: Request):
    sb = sandbox_of(request)
    fields = await read_fields(request)
    user, app_id, token = sb.model("identity").acting_user(request, fields)
    if not user["is_talk_user"]:
        raise api_error(400, -501, "NotExistTalkUserException")
    if token is not None:
        need_scope(token, "plusfriends")
    p = Params(fields)
    ids = _channel_ids(p)
    sb.apps.charge(app_id, "talk_channels")
    return json_response(_model(request).relations_of(user["id"], ids, app_id))


async def channels_multi(request: Request):
    app, _ = require_app_key(request, kinds=("admin",))
    sb = sandbox_of(request)
    p = Params(await read_fields(request))
    p.enum("target_id_type", ("user_id",), required=True)
    raw = p.list("target_ids", required=True)
    try:
        ids = [int(x) for x in raw]
        if any(not INT64_MIN <= i <= INT64_MAX for i in ids):
            raise ValueError("beyond 64 bits")
    except ValueError:
        raise api_error(400, -2, "target_ids must hold user ids (Long)") from None
    if not 1 <= len(ids) <= MAX_MULTI:
        raise api_error(400, -2, f"target_ids must hold 1 to {MAX_MULTI} ids (got {len(ids)})")
    chans = _channel_ids(p)
    model = _model(request)
    if chans:
        for c in chans:
            model.channel(c, app["app_id"])
    sb.apps.charge(app["app_id"], "talk_channels_multi")
    identity = sb.model("identity")
    out = []
    for uid in dict.fromkeys(ids):
        user = sb.apps.user(uid)
        if user is None or not user["is_talk_user"] or identity.link_state(app["app_id"], uid) != "linked":
            continue
        out.append(model.relations_of(uid, chans, app["app_id"]))
    return json_response(out)


def _required(body: dict, name: str, kind):
    value = body.get(name)
    if value is None or value == "":
        raise api_error(400, -2, f"{name} is required")
    if not isinstance(value, kind) or isinstance(value, bool):
        raise api_error(400, -2, f"{name} has the wrong type")
    return value


def check_schema(schema) -> dict:
    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except ValueError:
            raise api_error(400, -2, "schema must be a JSON object") from None
    if not isinstance(schema, dict) or not schema:
        raise api_error(400, -2, "schema must be a JSON object of key to value type")
    if len(schema) > MAX_SCHEMA:
        raise api_error(400, -2, f"schema may hold at most {MAX_SCHEMA} items (got {len(schema)})")
    for key, kind in schema.items():
        if kind not in ("string", "number"):
            raise api_error(400, -2, f"schema[{key!r}]: value type must be string or number")
        if key in RESERVED_KEYS:
            raise api_error(400, -2, f"schema key {key!r} is reserved and cannot be a custom key")
        if key not in STANDARD_KEYS and kind != "number":
            raise api_error(400, -2, f"schema[{key!r}]: a custom key's value type must be number")
    return schema


async def create_file(request: Request):
    app, _ = require_app_key(request, kinds=("rest_api", "admin"))
    body = await read_json(request)
    model = _model(request)
    public_id = _required(body, "channel_public_id", str)
    model.channel(public_id, app["app_id"])
    schema = check_schema(body.get("schema") if body.get("schema") is not None else _required(body, "schema", dict))
    name = _required(body, "file_name", str)
    if len(model.files_of(public_id)) >= model.slots():
        raise api_error(400, -2, "no empty slot: delete a file first")
    sandbox_of(request).apps.charge(app["app_id"], "talkchannel_create_target_user_file")
    cur = model.store.execute("INSERT INTO channel_files (channel_public_id, file_name, schema, status, update_at)"
                              " VALUES (?,?,?,?,?)", public_id, name, json.dumps(schema, ensure_ascii=False),
                              "using", model.sandbox.clock.unix())
    return json_response({"file_id": cur.lastrowid})


async def list_files(request: Request):
    app, _ = require_app_key(request, kinds=("rest_api", "admin"))
    p = Params(await read_fields(request))
    model = _model(request)
    public_id = p.str("channel_public_id", required=True)
    model.channel(public_id, app["app_id"])
    sandbox_of(request).apps.charge(app["app_id"], "talkchannel_target_user_file")
    rows = model.files_of(public_id)
    using, empty = len(rows), model.slots() - len(rows)
    results = [{"file_id": r["file_id"], "file_name": r["file_name"], "status": r["status"],
                "update_at": kst_text(r["update_at"]), "schema": r["schema"], "empty_slot": empty,
                "using_slot": using} for r in rows]
    return json_response({"empty_slot": empty, "using_slot": using, "results": results})


def _digits(text: str) -> str:
    digits = re.sub(r"\D", "", text)
    return "0" + digits[2:] if digits.startswith("82") else digits


async def _file_users_request(request: Request):
    """The common part of adding and deleting a customer file's users: the key, the JSON body, the file of
    ``channel_public_id``/``file_id`` and a valid ``user_type``."""
    app, _ = require_app_key(request, kinds=("rest_api", "admin"))
    body = await read_json(request)
    model = _model(request)
    public_id = _required(body, "channel_public_id", str)
    f = model.file(public_id, _required(body, "file_id", int), app["app_id"])
    user_type = _required(body, "user_type", str)
    if user_type not in ("app", "phone"):
        raise api_error(400, -2, "user_type must be app or phone")
    return app, sandbox_of(request), body, model, public_id, f, user_type


async def add_users(request: Request):
    app, sb, body, model, public_id, f, user_type = await _file_users_request(request)
    users = _required(body, "users", list)
    if not 1 <= len(users) <= MAX_ADD:
        raise api_error(400, -2, f"users must hold 1 to {MAX_ADD} users per call (got {len(users)})")
    sb.apps.charge(app["app_id"], "talkchannel_update_target_users")
    schema = json.loads(f["schema"])
    identity = sb.model("identity")
    phones = {_digits(u["phone_number"] or ""): u for u in sb.apps.users() if u["is_talk_user"]}
    rows = []
    for entry in users:
        if not isinstance(entry, dict) or entry.get("id") in (None, ""):
            continue
        field = entry.get("field")
        if not isinstance(field, dict) or any(k not in schema or isinstance(v, bool) or not isinstance(v, (int, float))
                                              for k, v in field.items()):
            continue
        key = str(entry["id"])
        if user_type == "app":
            uid = ascii_int(key)
            user = sb.apps.user(uid) if uid is not None else None
            if user is None or identity.link_state(app["app_id"], user["id"]) != "linked":
                continue
        else:
            user = phones.get(_digits(key))
            if user is None:
                continue
        rel = model.store.one("SELECT relation FROM channel_relations WHERE user_id = ? AND channel_public_id = ?",
                              user["id"], public_id)
        if rel is None or rel["relation"] != "ADDED":
            continue
        rows.append((f["file_id"], user_type, key, json.dumps(field, ensure_ascii=False)))
    with model.store.tx() as db:
        db.executemany("INSERT OR REPLACE INTO channel_file_users VALUES (?,?,?,?)", rows)
        db.execute("UPDATE channel_files SET update_at = ? WHERE file_id = ?", (model.sandbox.clock.unix(),
                                                                                f["file_id"]))
    return json_response({"file_id": f["file_id"], "request_count": len(users),
                          "success_count": len({r[2] for r in rows})})


async def delete_users(request: Request):
    app, sb, body, model, public_id, f, user_type = await _file_users_request(request)
    ids = _required(body, "user_ids", list)
    if not ids:
        raise api_error(400, -2, "user_ids must hold at least one id")
    sb.apps.charge(app["app_id"], "talkchannel_delete_target_users")
    with model.store.tx() as db:
        db.executemany("DELETE FROM channel_file_users WHERE file_id = ? AND user_type = ? AND user_key = ?",
                       [(f["file_id"], user_type, str(i)) for i in ids])
        db.execute("UPDATE channel_files SET update_at = ? WHERE file_id = ?", (model.sandbox.clock.unix(),
                                                                                f["file_id"]))
    return Response(b"", 200)


async def control_relation(request: Request):
    body = await read_json(request)
    try:
        user_id = int(body["user_id"])
    except (KeyError, TypeError, ValueError):
        raise api_error(400, -2, "user_id is required") from None
    return json_response(_model(request).set_relation(user_id, str(body.get("channel_public_id")),
                                                      str(body.get("relation"))))


async def control_file_users(request: Request):
    p = Params(dict(request.query_params))
    file_id = p.int("file_id", required=True)
    rows = _model(request).store.all("SELECT * FROM channel_file_users WHERE file_id = ? ORDER BY user_type, user_key",
                                     file_id)
    return json_response([{"user_type": r["user_type"], "id": r["user_key"], "field": json.loads(r["field"])}
                          for r in rows])


def channel_routes():
    return {
        "api": [
            Route("/v2/api/talk/channels", channels, methods=["GET", "POST"]),
            Route("/v2/api/talk/channels/multi", channels_multi, methods=["GET", "POST"]),
            Route("/v1/talkchannel/create/target_user_file", create_file, methods=["POST"]),
            Route("/v1/talkchannel/target_user_file", list_files),
            Route("/v1/talkchannel/update/target_users", add_users, methods=["POST"]),
            Route("/v1/talkchannel/delete/target_users", delete_users, methods=["POST"]),
        ],
        "sandbox": [Route("/social/channels/relation", control_relation, methods=["POST"]),
                    Route("/social/channels/file_users", control_file_users)],
    }
