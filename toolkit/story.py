"""Story feed (social §4.1): the logged-in user's stories as DataFrames, posting with upload and scrape.

>>> tk = toolkit.connect().login_as(4100000001, scopes=["profile"])     # doctest: +SKIP
>>> tk.story.is_story_user()                                            # doctest: +SKIP
True
>>> sid = tk.story.post_photo(images=["cat.png"], content="Our cat")    # upload, then post (one flow)  # doctest: +SKIP
>>> tk.story.mystories()                                                # one row per story × image  # doctest: +SKIP
>>> tk.story.comments(sid), tk.story.likes(sid)                         # one row per comment / mood  # doctest: +SKIP
>>> tk.story.delete(sid)  # doctest: +SKIP
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from .area import Area, Call, endpoint
from .errors import ParameterError

__all__ = ["StoryArea", "MAX_TEXT", "MAX_IMAGES", "MAX_IMAGE_BYTES", "PERMISSIONS"]

MAX_TEXT = 2048
MAX_IMAGES = 10
MAX_IMAGE_BYTES = 10 * 1024 * 1024
PERMISSIONS = {"A": "A", "F": "F", "M": "M", "PUBLIC": "A", "FRIEND": "F", "ONLY_ME": "M"}
STORY_COLUMNS = ["id", "created_at", "media_type", "permission", "content", "comment_count", "like_count", "url"]


def _image_kind(data: bytes) -> str | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:2] == b"\xff\xd8":
        return "jpg"
    return None


def _read_image(item: Any, n: int) -> tuple[str, bytes]:
    """(file name, bytes) of a path, bytes or a binary file object."""
    if isinstance(item, (str, os.PathLike)):
        path = Path(item)
        if not path.is_file():
            raise ParameterError(f"images[{n}]", "no such file", str(item))
        return path.name, path.read_bytes()
    if isinstance(item, (bytes, bytearray, memoryview)):
        data = bytes(item)
        return f"image_{n}.{_image_kind(data) or 'bin'}", data
    if hasattr(item, "read"):
        data = item.read()
        if isinstance(data, str):
            raise ParameterError(f"images[{n}]", "open the file in binary mode ('rb')")
        name = Path(getattr(item, "name", "") or f"image_{n}.{_image_kind(data) or 'bin'}").name
        return name, data
    raise ParameterError(f"images[{n}]", "must be a path, bytes or a binary file object", type(item).__name__)


def check_images(images: Iterable[Any]) -> list[tuple[str, bytes, str]]:
    """Read and check images against the upload limits: 1–10 images, each < 10 MB, PNG/JPEG/GIF, a GIF alone."""
    items = [images] if isinstance(images, (str, bytes, bytearray, os.PathLike)) or hasattr(images, "read") \
        else list(images)
    if not 1 <= len(items) <= MAX_IMAGES:
        raise ParameterError("images", f"give 1 to {MAX_IMAGES} images per upload", len(items))
    out = []
    for n, item in enumerate(items):
        name, data = _read_image(item, n)
        if len(data) >= MAX_IMAGE_BYTES:
            raise ParameterError(f"images[{n}]", f"each image must be less than 10 MB (got {len(data):,} bytes)")
        kind = _image_kind(data)
        if kind is None:
            raise ParameterError(f"images[{n}]", "is not a PNG, JPEG or GIF image", name)
        out.append((name, data, kind))
    if len(out) > 1 and any(k == "gif" for _, _, k in out):
        raise ParameterError("images", "a GIF can only be uploaded alone")
    return out


def _text(content: str | None, required: bool) -> str | None:
    if content is None:
        if required:
            raise ParameterError("content", "required for a note story")
        return None
    if not isinstance(content, str) or (required and not content):
        raise ParameterError("content", "must be a non-empty string", content)
    if len(content) > MAX_TEXT:
        raise ParameterError("content", f"at most {MAX_TEXT} characters (got {len(content)})")
    return content


def _common(permission, enable_share, android_exec_param, ios_exec_param, android_market_param,
            ios_market_param) -> dict:
    perm = PERMISSIONS.get(str(permission).upper()) if permission is not None else None
    if permission is not None and perm is None:
        raise ParameterError("permission", "must be 'A' (public), 'F' (friends) or 'M' (only me)", permission)
    return {"permission": perm, "enable_share": enable_share if enable_share else None,
            "android_exec_param": android_exec_param, "ios_exec_param": ios_exec_param,
            "android_market_param": android_market_param, "ios_market_param": ios_market_param}


def _story_rows(stories: list[dict], expand_media: bool) -> list[dict]:
    rows = []
    for s in stories:
        base = {k: s.get(k) for k in STORY_COLUMNS}
        media = s.get("media") or []
        base["media_count"] = len(media)
        if not expand_media:
            rows.append(base)
            continue
        if not media:
            rows.append(dict(base, media_index=None))
        for i, m in enumerate(media):
            rows.append(dict(base, media_index=i, **{f"media.{k}": v for k, v in m.items()}))
    return rows


class StoryArea(Area):
    """``{api_url}/v1/api/story/...`` with the logged-in user's token."""

    def _call(self, method, path, name, **kw):
        return Call(method, "api", path, self._client.user_auth(), name=f"story.{name}", **kw)

    @endpoint("GET", "api", "/v1/api/story/isstoryuser")
    def is_story_user(self) -> bool:
        """Whether the logged-in user uses the story feed (check this to avoid -601 on other story calls).

        Spec: social §4.1 story feed (is a story user).

        >>> tk.story.is_story_user()   # doctest: +SKIP
        """
        return self._call("GET", "/v1/api/story/isstoryuser", "is_story_user",
                          parse=lambda body, r: bool(body["isStoryUser"]))

    @endpoint("GET", "api", "/v1/api/story/profile")
    def profile(self) -> dict:
        """Story profile: the fields the user consented to (``{}`` without consent); -601 for non-story users.

        Spec: social §4.1 story feed (story profile).

        >>> tk.story.profile()   # doctest: +SKIP
        """
        return self._call("GET", "/v1/api/story/profile", "profile")

    # ------------------------------------------------------------------ posting
    @endpoint("POST", "api", "/v1/api/story/post/note")
    def post_note(self, content: str, *, permission: str | None = None, enable_share: bool = False,
                  android_exec_param=None, ios_exec_param=None, android_market_param=None, ios_market_param=None):
        """Post a text story (≤ 2,048 characters); returns the story id.

        ``permission``: ``A`` public (default), ``F`` friends, ``M`` only me (or PUBLIC/FRIEND/ONLY_ME).

        Spec: social §4.1 story feed (post a note).

        >>> tk.story.post_note("hello", permission="FRIEND")   # doctest: +SKIP
        """
        data = {"content": _text(content, True), **_common(permission, enable_share, android_exec_param,
                                                             ios_exec_param, android_market_param, ios_market_param)}
        return self._call("POST", "/v1/api/story/post/note", "post_note", data=data, parse=lambda b, r: b["id"],
                          idempotent=False)

    @endpoint("POST", "api", "/v1/api/story/upload/multi")
    def upload(self, images) -> list[str]:
        """Upload 1–10 images (paths, bytes or binary file objects; PNG/JPEG/GIF; each < 10 MB; a GIF alone).

        Returns the paths (carrying width and height) to pass unchanged as ``image_url_list``.

        Spec: social §4.1 story feed (upload images).

        >>> tk.story.upload(["photo.jpg"])   # doctest: +SKIP
        """
        checked = check_images(images)
        files = [(f"file[{n}]", (name, data, f"image/{'jpeg' if kind == 'jpg' else kind}"))
                 for n, (name, data, kind) in enumerate(checked)]
        return self._call("POST", "/v1/api/story/upload/multi", "upload", files=files, idempotent=False)

    @endpoint("POST", "api", "/v1/api/story/post/photo")
    def post_photo(self, image_url_list: list[str] | None = None, content: str | None = None, *, images=None,
                   permission: str | None = None, enable_share: bool = False, android_exec_param=None,
                   ios_exec_param=None, android_market_param=None, ios_market_param=None):
        """Post a photo story; returns its id.

        Give ``image_url_list`` (paths returned by :meth:`upload`, unchanged) or ``images`` (paths, bytes or file
        objects: they are uploaded first, in the same flow).

        Spec: social §4.1 story feed (post a photo story).

        >>> tk.story.post_photo(images=["photo.jpg"], content="sea")   # doctest: +SKIP
        """
        if (image_url_list is None) == (images is None):
            raise ParameterError("image_url_list", "give either image_url_list (uploaded paths) or images")
        data = {"content": _text(content, False), **_common(permission, enable_share, android_exec_param,
                                                              ios_exec_param, android_market_param, ios_market_param)}
        if image_url_list is not None:
            paths = [image_url_list] if isinstance(image_url_list, str) else list(image_url_list)
            if not 1 <= len(paths) <= MAX_IMAGES:
                raise ParameterError("image_url_list", f"give 1 to {MAX_IMAGES} uploaded paths", len(paths))
        upload = self.upload.__wrapped__(self, images) if images is not None else None

        def flow():
            got = paths if upload is None else (yield upload)
            return (yield self._call("POST", "/v1/api/story/post/photo", "post_photo",
                                     data={**data, "image_url_list": list(got)}, parse=lambda b, r: b["id"],
                                     idempotent=False))

        return flow()

    @endpoint("GET", "api", "/v1/api/story/linkinfo")
    def linkinfo(self, url: str) -> dict:
        """The scrape step: the link-information object of a web page (pass it unchanged to :meth:`post_link`).

        Spec: social §4.1 story feed (scrape a link).

        >>> tk.story.linkinfo("https://example.com/")   # doctest: +SKIP
        """
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ParameterError("url", "must be an http(s) URL", url)
        return self._call("GET", "/v1/api/story/linkinfo", "linkinfo", params={"url": url})

    @endpoint("POST", "api", "/v1/api/story/post/link")
    def post_link(self, link_info: "Mapping | str", content: str | None = None, *, permission: str | None = None,
                  enable_share: bool = False, android_exec_param=None, ios_exec_param=None,
                  android_market_param=None, ios_market_param=None):
        """Post a link story; ``link_info`` is the scrape step's object, or a URL to scrape first (one flow).

        Spec: social §4.1 story feed (post a link story).

        >>> tk.story.post_link("https://example.com/", "worth a read")   # doctest: +SKIP
        """
        data = {"content": _text(content, False), **_common(permission, enable_share, android_exec_param,
                                                              ios_exec_param, android_market_param, ios_market_param)}
        scrape = self.linkinfo.__wrapped__(self, link_info) if isinstance(link_info, str) else None
        if scrape is None and not isinstance(link_info, Mapping):
            raise ParameterError("link_info", "must be the scrape step's object or a URL", type(link_info).__name__)

        def flow():
            info = link_info if scrape is None else (yield scrape)
            return (yield self._call("POST", "/v1/api/story/post/link", "post_link",
                                     data={**data, "link_info": json.dumps(dict(info), ensure_ascii=False)},
                                     parse=lambda b, r: b["id"], idempotent=False))

        return flow()

    # ------------------------------------------------------------------ reading
    @endpoint("GET", "api", "/v1/api/story/mystory")
    def mystory(self, id: str) -> dict:
        """One story with ``content``, ``comments`` and ``likes`` (the raw JSON object).

        Spec: social §4.1 story feed (one story).

        >>> tk.story.mystory("AAAAAAA.BBBBBBB")   # doctest: +SKIP
        """
        return self._call("GET", "/v1/api/story/mystory", "mystory", params={"id": _id(id)})

    @endpoint("GET", "api", "/v1/api/story/mystories")
    def mystories(self, last_id: str | None = None, *, expand_media: bool = True, raw: bool = False):
        """The user's stories, newest first (older than ``last_id`` when given) as a DataFrame.

        With ``expand_media`` (default) a photo story has one row per image (``media_index``, ``media.original``,
        ``media.xlarge``, ...); other stories one row with ``media_index`` empty. ``created_at`` is UTC.

        Spec: social §4.1 story feed (the user's stories).

        >>> tk.story.mystories()   # doctest: +SKIP
        """
        def parse(body, response):
            if raw:
                return body
            from .frames import frame

            cols = STORY_COLUMNS + ["media_count"] + (["media_index", "media.original", "media.xlarge", "media.large",
                                                       "media.medium", "media.small"] if expand_media else [])
            return frame(_story_rows(body, expand_media), columns=cols, datetimes=["created_at"],
                         ints=["comment_count", "like_count", "media_count"] + (["media_index"] if expand_media else []),
                         meta={"count": len(body)})

        return self._call("GET", "/v1/api/story/mystories", "mystories",
                          params={"last_id": _id(last_id) if last_id is not None else None}, parse=parse)

    @endpoint("GET", "api", "/v1/api/story/mystory")
    def comments(self, id: str):
        """Comments of one story: one row per comment (``text``, ``writer.display_name``, ...).

        Spec: social §4.1 story feed (one story's comments).

        >>> tk.story.comments(tk.story.mystories().id[0])   # doctest: +SKIP
        """
        return self._call("GET", "/v1/api/story/mystory", "comments", params={"id": _id(id)},
                          parse=lambda body, r: _reactions(body, "comments", ["text", "writer.display_name",
                                                                              "writer.profile_thumbnail_url"]))

    @endpoint("GET", "api", "/v1/api/story/mystory")
    def likes(self, id: str):
        """Moods of one story: one row per friend (``emotion`` categorical, ``actor.display_name``, ...).

        Spec: social §4.1 story feed (one story's likes).

        >>> tk.story.likes(tk.story.mystories().id[0])   # doctest: +SKIP
        """
        return self._call("GET", "/v1/api/story/mystory", "likes", params={"id": _id(id)},
                          parse=lambda body, r: _reactions(body, "likes", ["emotion", "actor.display_name",
                                                                           "actor.profile_thumbnail_url"]))

    @endpoint("DELETE", "api", "/v1/api/story/delete/mystory")
    def delete(self, id: str) -> None:
        """Delete one of the user's stories (HTTP 200 with an empty body).

        Spec: social §4.1 story feed (delete a story).

        >>> tk.story.delete("AAAAAAA.BBBBBBB")   # doctest: +SKIP
        """
        return self._call("DELETE", "/v1/api/story/delete/mystory", "delete", params={"id": _id(id)},
                          parse=lambda b, r: None)


EMOTIONS = ["LIKE", "COOL", "HAPPY", "SAD", "CHEER_UP", "NOT_DEFINED"]


def _reactions(body: dict, key: str, columns: list[str]):
    from .frames import frame

    rows = [dict(item, story_id=body["id"]) for item in body.get(key) or []]
    cats = {"emotion": EMOTIONS} if key == "likes" else None
    df = frame(rows, columns=["story_id", *columns], categories=cats, meta={"story_id": body["id"]})
    if key == "likes":
        df["emotion"] = df["emotion"].cat.as_unordered()
    return df


def _id(value) -> str:
    if not isinstance(value, str) or not value:
        raise ParameterError("id", "must be a story id (a non-empty string)", value)
    return value
