"""Story feed (social §4.1): state, rules and HTTP.

Choices where the spec is silent, written down here:

* Every story call needs a Bearer token; a user who is not a story user answers HTTP 400 code -601 on every
  story call but ``isstoryuser``. No consent is needed to post or read one's own stories; the profile's fields
  follow consent (``profile`` or ``profile_nickname`` → ``nickName``; ``profile`` or ``profile_image`` →
  image URLs; ``story_permalink`` → ``permalink``; ``birthday`` → ``birthday``/``birthdayType``).
* Parameter errors (missing ``content`` of a note, text over 2,048 characters, unknown ``permission``, a
  ``mystory``/``delete`` id that is not a story of the user, an unknown ``last_id``) answer HTTP 400 code -2.
* Upload errors (no part, a part whose name does not start with ``file`` or without a file name, more than
  10 images, an image of 10 MB or more, a GIF with other images, bytes that are not PNG/JPEG/GIF) answer HTTP
  400 code -602. The answer is a JSON array of paths ``/dn/<hash>/img_<n>.<ext>?width=W&height=H``.
* ``image_url_list`` of a photo story must be a JSON array (1–10) of paths this user uploaded, unchanged:
  otherwise HTTP 400 code -602. ``link_info`` must be the JSON text of an object the scrape step returned
  (``GET /v1/api/story/linkinfo``), unchanged: otherwise HTTP 400 code -2.
* Story ids look like ``_<user>.<n>``; urls ``https://story.sandbox.test/<user>/<n>``. Media URLs are derived
  from the upload path (``original``, ``xlarge``, ``large``, ``medium``, ``small``).
* ``mystories`` orders by creation time then id (newest first). Reading and deleting see only the caller's
  own stories.
* Control API: ``POST /sandbox/social/stories/{id}/comments`` ``{"user_id", "text"}`` and
  ``POST /sandbox/social/stories/{id}/likes`` ``{"user_id", "emotion"}`` let a friend react.
"""
from __future__ import annotations

import hashlib
import json
import struct
from urllib.parse import urlsplit

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from ..web import Params, api_error, json_response, read_fields, sandbox_of
from .common import SocialParts, has_any, parse_rfc3339, rfc3339

SCHEMA = """
CREATE TABLE IF NOT EXISTS story_stories (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE, user_id INTEGER NOT NULL, media_type TEXT NOT NULL,
    content TEXT, permission TEXT NOT NULL, enable_share INTEGER NOT NULL DEFAULT 0, exec TEXT NOT NULL DEFAULT '{}',
    images TEXT NOT NULL DEFAULT '[]', link_info TEXT, created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS story_comments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, story_id TEXT NOT NULL, user_id INTEGER NOT NULL, text TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS story_likes (
    story_id TEXT NOT NULL, user_id INTEGER NOT NULL, emotion TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (story_id, user_id)
);
CREATE TABLE IF NOT EXISTS story_uploads (path TEXT PRIMARY KEY, user_id INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS social_scrapes (info TEXT PRIMARY KEY);
"""

MAX_TEXT = 2048
MAX_IMAGES = 10
MAX_IMAGE_BYTES = 10 * 1024 * 1024
PERMISSIONS = {"A": "PUBLIC", "F": "FRIEND", "M": "ONLY_ME"}
EMOTIONS = ("LIKE", "COOL", "HAPPY", "SAD", "CHEER_UP", "NOT_DEFINED")
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def b62(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 62)
        out = ALPHABET[r] + out
        if not n:
            return out


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(extension, width, height) of PNG, GIF and JPEG bytes; None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return "png", w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return "gif", w, h
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return "jpg", w, h
            i += 2 + length
    return None


class StoryMixin(SocialParts):
    # ------------------------------------------------------------------ seeding
    def seed_stories(self, rng) -> None:
        for s in json.loads((self.sandbox.datasets / "social" / "stories.json").read_text("utf-8")):
            images = []
            for n, img in enumerate(s.get("images", [])):
                h = hashlib.sha256(f"seed:{s['user_id']}:{s['created_at']}:{n}".encode()).hexdigest()[:16]
                images.append(f"/dn/{h}/img_{n}.jpg?width={img['width']}&height={img['height']}")
            sid = self._insert_story(s["user_id"], s["media_type"], s["content"], s["permission"], False, {},
                                     images, None, parse_rfc3339(s["created_at"]))
            created = parse_rfc3339(s["created_at"])
            for k, c in enumerate(s["comments"]):
                self.add_comment(sid, c["user_id"], c["text"], created + 600 * (k + 1))
            for k, like in enumerate(s["likes"]):
                self.add_like(sid, like["user_id"], like["emotion"], created + 300 * (k + 1))

    # ------------------------------------------------------------------ rules
    def _insert_story(self, user_id, media_type, content, permission, enable_share, exec_params, images, link_info,
                      created_at=None) -> str:
        created_at = self.sandbox.clock.unix() if created_at is None else created_at
        with self.store.tx() as db:
            cur = db.execute("INSERT INTO story_stories (user_id, media_type, content, permission, enable_share, exec,"
                             " images, link_info, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
                             (user_id, media_type, content, permission, int(enable_share), json.dumps(exec_params),
                              json.dumps(images), json.dumps(link_info, ensure_ascii=False) if link_info else None,
                              created_at))
            seq = cur.lastrowid
            assert seq is not None                      # set by the INSERT just made
            sid = f"_{b62(user_id % 10**7)}.{b62(10**6 + seq)}"
            db.execute("UPDATE story_stories SET id = ? WHERE seq = ?", (sid, seq))
        return sid

    def add_comment(self, story_id: str, user_id: int, text: str, at: int | None = None) -> None:
        self.store.execute("INSERT INTO story_comments (story_id, user_id, text, created_at) VALUES (?,?,?,?)",
                           story_id, int(user_id), text, self.sandbox.clock.unix() if at is None else at)

    def add_like(self, story_id: str, user_id: int, emotion: str, at: int | None = None) -> None:
        self.store.execute("INSERT INTO story_likes VALUES (?,?,?,?) ON CONFLICT(story_id, user_id) DO UPDATE SET"
                           " emotion = excluded.emotion", story_id, int(user_id), emotion,
                           self.sandbox.clock.unix() if at is None else at)

    def actor(self, user_id: int) -> dict:
        person = self.person(user_id) or {}
        return {"display_name": person.get("nickname"), "profile_thumbnail_url": person.get("thumbnail_image_url")}

    @staticmethod
    def media(path: str) -> dict:
        stem = "https://dn.sandbox.test" + urlsplit(path).path
        base, _, ext = stem.rpartition(".")
        return {"original": stem, "xlarge": f"{base}_xl.{ext}", "large": f"{base}_l.{ext}",
                "medium": f"{base}_m.{ext}", "small": f"{base}_s.{ext}"}

    def story_json(self, row, full: bool = False) -> dict:
        sid = row["id"]
        user_part, _, n = sid[1:].partition(".")
        # a SELECT without FROM always yields exactly one row
        counts = self.store.all("SELECT (SELECT COUNT(*) FROM story_comments WHERE story_id = ?) AS c,"
                                " (SELECT COUNT(*) FROM story_likes WHERE story_id = ?) AS l", sid, sid)[0]
        out = {"id": sid, "url": f"https://story.sandbox.test/{user_part}/{n}", "media_type": row["media_type"],
               "created_at": rfc3339(row["created_at"]), "comment_count": counts["c"], "like_count": counts["l"],
               "content": row["content"] or "", "permission": row["permission"]}
        images = json.loads(row["images"])
        if row["media_type"] == "PHOTO":
            out["media"] = [self.media(p) for p in images]
        if full:
            out["comments"] = [{"text": c["text"], "writer": self.actor(c["user_id"])} for c in self.store.all(
                "SELECT * FROM story_comments WHERE story_id = ? ORDER BY created_at, seq", sid)]
            out["likes"] = [{"emotion": like["emotion"], "actor": self.actor(like["user_id"])} for like in self.store.all(
                "SELECT * FROM story_likes WHERE story_id = ? ORDER BY created_at, user_id", sid)]
        return out

    def own_story(self, user_id: int, sid: str):
        row = self.store.one("SELECT * FROM story_stories WHERE id = ? AND user_id = ?", sid, int(user_id))
        if row is None:
            raise api_error(400, -2, f"id {sid!r} is not a story of the user")
        return row

    def stories_of(self, user_id: int, last_id: str | None) -> list[dict]:
        rows = self.store.all("SELECT * FROM story_stories WHERE user_id = ? ORDER BY created_at DESC, seq DESC",
                              int(user_id))
        if last_id is not None:
            idx = next((i for i, r in enumerate(rows) if r["id"] == last_id), None)
            if idx is None:
                raise api_error(400, -2, f"last_id {last_id!r} is not a story of the user")
            rows = rows[idx + 1:]
        return [self.story_json(r) for r in rows]

    def delete_story(self, user_id: int, sid: str) -> None:
        self.own_story(user_id, sid)
        with self.store.tx() as db:
            db.execute("DELETE FROM story_stories WHERE id = ?", (sid,))
            db.execute("DELETE FROM story_comments WHERE story_id = ?", (sid,))
            db.execute("DELETE FROM story_likes WHERE story_id = ?", (sid,))

    def record_upload(self, user_id: int, digest: str, n: int, ext: str, w: int, h: int) -> str:
        """Record an uploaded image by ``digest`` (the first 16 hex digits of its SHA-256): its path."""
        path = f"/dn/{digest}/img_{n}.{ext}?width={w}&height={h}"
        self.store.execute("INSERT INTO story_uploads VALUES (?,?,?) ON CONFLICT(path) DO NOTHING", path,
                           int(user_id), self.sandbox.clock.unix())
        return path

    def uploaded(self, user_id: int, path: str) -> bool:
        return self.store.one("SELECT 1 FROM story_uploads WHERE path = ? AND user_id = ?", path,
                              int(user_id)) is not None


# ---------------------------------------------------------------------- HTTP
def _model(request: Request):
    return sandbox_of(request).model("social")


def _story_user(request: Request):
    user, token = sandbox_of(request).model("identity").bearer(request)
    if not user["is_story_user"]:
        raise api_error(400, -601, "NotExistStoryUserException")
    return user, token


async def isstoryuser(request: Request):
    user, _ = sandbox_of(request).model("identity").bearer(request)
    return json_response({"isStoryUser": bool(user["is_story_user"])})


async def profile(request: Request):
    user, token = _story_user(request)
    body = {}
    if has_any(token, "profile", "profile_nickname"):
        body["nickName"] = user["nickname"]
    if has_any(token, "profile", "profile_image"):
        n = user["id"] % 1000
        body.update(profileImageURL=f"https://story.sandbox.test/img/{n}_profile_640.jpg",
                    thumbnailURL=f"https://story.sandbox.test/img/{n}_profile_160x213.jpg",
                    bgImageURL=f"https://story.sandbox.test/img/{n}_bg_640.jpg")
    if has_any(token, "story_permalink"):
        body["permalink"] = f"https://story.sandbox.test/{b62(user['id'] % 10**7)}"
    if has_any(token, "birthday") and user.get("birthday"):
        body.update(birthday=user["birthday"], birthdayType=user.get("birthday_type") or "SOLAR")
    return json_response(body)


def _common(p: Params) -> tuple[str, bool, dict]:
    choice = p.enum("permission", tuple(PERMISSIONS), "A")
    permission = PERMISSIONS[choice]
    enable_share = p.bool("enable_share", False)
    exec_params = {k: p.str(k) for k in ("android_exec_param", "ios_exec_param", "android_market_param",
                                         "ios_market_param") if p.has(k)}
    return permission, enable_share, exec_params


def _content(p: Params, required: bool) -> str | None:
    content = p.str("content", required=required)
    if content is not None and len(content) > MAX_TEXT:
        raise api_error(400, -2, f"content must be at most {MAX_TEXT} characters (got {len(content)})")
    return content


async def post_note(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    content = _content(p, True)
    sid = _model(request)._insert_story(user["id"], "NOTE", content, *_common(p), [], None)
    return json_response({"id": sid})


async def post_photo(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    content = _content(p, False)
    common = _common(p)
    paths = p.list("image_url_list", required=True, allow_comma=False)
    if not 1 <= len(paths) <= MAX_IMAGES:
        raise api_error(400, -2, f"image_url_list must hold 1 to {MAX_IMAGES} paths")
    model = _model(request)
    bad = [x for x in paths if not model.uploaded(user["id"], x)]
    if bad:
        raise api_error(400, -602, f"image_url_list must hold the paths returned by the upload, unchanged: {bad[0]!r}")
    sid = model._insert_story(user["id"], "PHOTO", content, *common, paths, None)
    return json_response({"id": sid})


async def post_link(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    content = _content(p, False)
    common = _common(p)
    raw = p.str("link_info", required=True)
    try:
        info = json.loads(raw)
    except ValueError:
        raise api_error(400, -2, "link_info must be the JSON text of the scrape step's object") from None
    model = _model(request)
    if not isinstance(info, dict) or not model.was_scraped(info):
        raise api_error(400, -2, "link_info must be the object returned by the scrape step, unchanged")
    sid = model._insert_story(user["id"], "NOTE", content, *common, [], info)
    return json_response({"id": sid})


async def linkinfo(request: Request):
    _story_user(request)
    p = Params(await read_fields(request))
    return json_response(await _model(request).scrape(p.str("url", required=True)))


async def mystory(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    model = _model(request)
    return json_response(model.story_json(model.own_story(user["id"], p.str("id", required=True)), full=True))


async def mystories(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    return json_response(_model(request).stories_of(user["id"], p.str("last_id")))


async def delete_mystory(request: Request):
    user, _ = _story_user(request)
    p = Params(await read_fields(request))
    _model(request).delete_story(user["id"], p.str("id", required=True))
    return Response(b"", 200)


async def upload_multi(request: Request):
    user, _ = _story_user(request)
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise api_error(400, -602, "the upload body must be multipart/form-data")
    async with request.form(max_files=100, max_fields=100) as form:   # closes the parts' temporary files
        parts = []
        for name, value in form.multi_items():
            if not isinstance(value, UploadFile):
                continue
            if not name.startswith("file"):
                raise api_error(400, -602, f"part {name!r}: part names must start with 'file'")
            if not value.filename:
                raise api_error(400, -602, f"part {name!r} has no file name in Content-Disposition")
            parts.append((name, value))
        if not parts:
            raise api_error(400, -602, "no image part (names start with 'file', each with a file name)")
        if len(parts) > MAX_IMAGES:
            raise api_error(400, -602, f"at most {MAX_IMAGES} images per upload (got {len(parts)})")
        sized = []
        for name, value in parts:     # one image in memory at a time (the parts wait in temporary files)
            if (value.size or 0) >= MAX_IMAGE_BYTES:
                raise api_error(400, -602, f"part {name!r}: each image must be less than 10 MB")
            data = await value.read(MAX_IMAGE_BYTES)
            if len(data) >= MAX_IMAGE_BYTES:
                raise api_error(400, -602, f"part {name!r}: each image must be less than 10 MB")
            info = image_size(data)
            if info is None:
                raise api_error(400, -602, f"part {name!r} is not a PNG, JPEG or GIF image")
            sized.append((hashlib.sha256(data).hexdigest()[:16], info))
            del data
    if len(sized) > 1 and any(info[0] == "gif" for _, info in sized):
        raise api_error(400, -602, "a GIF can only be uploaded alone")
    model = _model(request)
    return json_response([model.record_upload(user["id"], digest, n, *info) for n, (digest, info) in enumerate(sized)])


async def control_react(request: Request):
    sb = sandbox_of(request)
    model = sb.model("social")
    sid = request.path_params["id"]
    if request.path_params["kind"] not in ("comments", "likes"):
        raise api_error(404, -404, "use /comments or /likes")
    if model.store.one("SELECT 1 FROM story_stories WHERE id = ?", sid) is None:
        raise api_error(404, -2, f"no story {sid!r}")
    try:
        body = json.loads(await request.body() or b"{}")
        user_id = int(body["user_id"])
    except (ValueError, KeyError, TypeError):
        raise api_error(400, -2, "body: {\"user_id\": ..., \"text\"|\"emotion\": ...}") from None
    if model.person(user_id) is None:
        raise api_error(400, -2, "unknown user_id")
    if request.path_params["kind"] == "comments":
        model.add_comment(sid, user_id, str(body.get("text", "")))
    else:
        emotion = body.get("emotion", "LIKE")
        if emotion not in EMOTIONS:
            raise api_error(400, -2, f"emotion must be one of {', '.join(EMOTIONS)}")
        model.add_like(sid, user_id, emotion)
    row = model.store.one("SELECT * FROM story_stories WHERE id = ?", sid)
    return json_response(model.story_json(row, full=True))


def story_routes():
    from starlette.routing import Route

    return {
        "api": [
            Route("/v1/api/story/isstoryuser", isstoryuser),
            Route("/v1/api/story/profile", profile),
            Route("/v1/api/story/post/note", post_note, methods=["POST"]),
            Route("/v1/api/story/post/photo", post_photo, methods=["POST"]),
            Route("/v1/api/story/post/link", post_link, methods=["POST"]),
            Route("/v1/api/story/linkinfo", linkinfo),
            Route("/v1/api/story/mystory", mystory),
            Route("/v1/api/story/mystories", mystories),
            Route("/v1/api/story/delete/mystory", delete_mystory, methods=["DELETE"]),
            Route("/v1/api/story/upload/multi", upload_multi, methods=["POST"]),
        ],
        "sandbox": [Route("/social/stories/{id}/{kind:str}", control_react, methods=["POST"])],
    }
