"""Messenger (social §4.2–§4.5): profile, friends (DataFrames, all pages), profiles for admins, and messages
to the user's own chatroom (memo) or to friends, with delivery reports.

>>> tk = toolkit.connect().login_as(4100000001, scopes=["profile", "friends", "talk_message"])  # doctest: +SKIP
>>> friends = tk.talk.all_friends()                         # every page, bounded by max_pages  # doctest: +SKIP
>>> from toolkit import templates as T  # doctest: +SKIP
>>> msg = T.text("See you at 7!", T.link(web_url="https://example.test"))  # doctest: +SKIP
>>> tk.talk.send_memo(msg)                                  # to the user's own chatroom  # doctest: +SKIP
>>> tk.talk.send_to_friends(friends.uuid[:3], msg)          # one row per recipient: sent / failed + code  # doctest: +SKIP
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping
from urllib.parse import parse_qs, urlsplit

from .area import Area, Call, endpoint
from .errors import ParameterError, warn_truncated
from .templates import validate

__all__ = ["TalkArea", "MAX_FRIENDS_PAGE", "MAX_RECEIVERS", "failure_frame", "name_script", "SCRIPTS"]

MAX_FRIENDS_PAGE = 100
MAX_RECEIVERS = 5
FRIEND_COLUMNS = ["id", "uuid", "profile_nickname", "profile_thumbnail_image", "favorite"]
DELIVERY_COLUMNS = ["receiver_uuid", "status", "code", "msg"]


SCRIPTS = ["Korean", "special", "number", "English", "Japanese", "emoji"]
"""Script classes of a nickname in the service's Korean-based ascending friends order."""


def name_script(nickname: str) -> str:
    """The script class of a nickname's first character (the key of the friends sort order).

    >>> [name_script(n) for n in ["민지", "_jay", "1004", "Alice", "さくら", "🌸"]]
    ['Korean', 'special', 'number', 'English', 'Japanese', 'emoji']
    """
    import unicodedata

    ch = (nickname or " ")[0]
    code = ord(ch)
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "Korean"
    if ch.isdigit():
        return "number"
    if ch.isascii() and ch.isalpha():
        return "English"
    if 0x3040 <= code <= 0x30FF or 0x4E00 <= code <= 0x9FFF or 0xFF66 <= code <= 0xFF9F:
        return "Japanese"
    if code >= 0x1F000 or unicodedata.category(ch) == "So":
        return "emoji"
    return "special"


def _order(order: str, friend_order: str | None):
    if order not in ("asc", "desc"):
        raise ParameterError("order", "must be 'asc' or 'desc'", order)
    if friend_order not in (None, "favorite", "nickname"):
        raise ParameterError("friend_order", "must be 'favorite', 'nickname' or None", friend_order)


def _friends_frame(elements: list[dict], meta: dict):
    from .frames import frame

    return frame(elements, columns=FRIEND_COLUMNS, ints=["id"], bools=["favorite"], meta=meta)


def _args(template_args: Mapping | None) -> str | None:
    if template_args is None:
        return None
    if not isinstance(template_args, Mapping):
        raise ParameterError("template_args", "must be a dict of key-value pairs", type(template_args).__name__)
    return json.dumps({str(k): v if isinstance(v, (int, float)) else str(v) for k, v in template_args.items()},
                      ensure_ascii=False)


def _template(template: Mapping) -> str:
    return json.dumps(validate(template), ensure_ascii=False, separators=(",", ":"))


def _uuids(receiver_uuids) -> list[str]:
    uuids = [receiver_uuids] if isinstance(receiver_uuids, str) else [str(u) for u in receiver_uuids]
    if not 1 <= len(uuids) <= MAX_RECEIVERS:
        raise ParameterError("receiver_uuids", f"give 1 to {MAX_RECEIVERS} uuids per message", len(uuids))
    if len(set(uuids)) != len(uuids):
        raise ParameterError("receiver_uuids", "a uuid is repeated")
    return uuids


def failure_frame(result: Mapping):
    """``failure_info`` of a friends-message answer: one row per failed recipient (code, msg, receiver_uuid)."""
    from .frames import frame

    rows = [{"receiver_uuid": u, "code": f["code"], "msg": f["msg"]} for f in result.get("failure_info") or []
            for u in f.get("receiver_uuids") or []]
    return frame(rows, columns=["receiver_uuid", "code", "msg"], ints=["code"])


def _delivery(uuids: list[str], body: Mapping, raw: bool):
    if raw:
        return body
    from .frames import frame

    failed = {u: (f["code"], f["msg"]) for f in body.get("failure_info") or [] for u in f.get("receiver_uuids") or []}
    ok = set(body.get("successful_receiver_uuids") or [])
    rows = []
    for u in uuids:
        if u in ok:
            rows.append({"receiver_uuid": u, "status": "sent", "code": None, "msg": None})
        else:
            code, msg = failed.get(u, (None, "not reported"))
            rows.append({"receiver_uuid": u, "status": "failed", "code": code, "msg": msg})
    return frame(rows, columns=DELIVERY_COLUMNS, ints=["code"], categories={"status": ["sent", "failed"]},
                 meta={"response": dict(body)})


class TalkArea(Area):
    """Messenger endpoints: the logged-in user's token, or the admin key for :meth:`profiles`."""

    def _user_call(self, method, path, name, **kw):
        return Call(method, "api", path, self._client.user_auth(), name=f"talk.{name}", **kw)

    @endpoint("GET", "api", "/v1/api/talk/profile")
    def profile(self) -> dict:
        """The user's messenger profile (``id`` and the consented ``nickName``/image URLs); -501 for non-users.

        Spec: social §4.2 messenger profile and friends (own profile).

        >>> tk.talk.profile()   # doctest: +SKIP
        """
        return self._user_call("GET", "/v1/api/talk/profile", "profile")

    # ------------------------------------------------------------------ friends
    def _friends_call(self, offset, limit, order, friend_order, raw):
        if not isinstance(offset, int) or offset < 0:
            raise ParameterError("offset", "must be an integer >= 0", offset)
        if not isinstance(limit, int) or not 1 <= limit <= MAX_FRIENDS_PAGE:
            raise ParameterError("limit", f"must be 1 to {MAX_FRIENDS_PAGE} (default 10)", limit)
        _order(order, friend_order)

        def parse(body, response):
            if raw:
                return body
            meta = {k: body.get(k) for k in ("total_count", "favorite_count", "before_url", "after_url")}
            return _friends_frame(body.get("elements") or [], meta)

        return self._user_call("GET", "/v1/api/talk/friends", "friends", parse=parse,
                               params={"offset": offset, "limit": limit, "order": order,
                                       "friend_order": friend_order})

    @endpoint("GET", "api", "/v1/api/talk/friends")
    def friends(self, offset: int = 0, limit: int = 10, order: str = "asc", friend_order: str | None = None, *,
                raw: bool = False):
        """One page of friends (``limit`` ≤ 100). ``total_count``, ``favorite_count``, ``before_url`` and
        ``after_url`` are in ``df.attrs["meta"]``. ``friend_order="favorite"`` lists favorites first.

        Spec: social §4.2 messenger profile and friends.

        >>> tk.talk.friends(limit=10)   # doctest: +SKIP
        """
        return self._friends_call(offset, limit, order, friend_order, raw)

    @endpoint("GET", "api", "/v1/api/talk/friends")
    def all_friends(self, order: str = "asc", friend_order: str | None = None, *, page_size: int = 100,
                    max_pages: int = 50):
        """Every friend, following ``after_url`` page by page (at most ``max_pages`` pages), as one DataFrame.

        ``df.attrs["meta"]`` holds ``total_count``, ``favorite_count``, ``pages`` and ``complete`` (False when
        the bound stopped the walk early).

        Spec: social §4.2 messenger profile and friends (all pages).

        >>> tk.talk.all_friends(page_size=50)   # doctest: +SKIP
        """
        if not isinstance(max_pages, int) or max_pages < 1:
            raise ParameterError("max_pages", "must be an integer >= 1", max_pages)
        first = self._friends_call(0, page_size, order, friend_order, True)

        def flow():
            body = yield first
            elements, pages = list(body.get("elements") or []), 1
            while body.get("after_url") and pages < max_pages:
                q = parse_qs(urlsplit(body["after_url"]).query)
                offset = int(q.get("offset", [len(elements)])[0])
                body = yield self._friends_call(offset, page_size, order, friend_order, True)
                elements += body.get("elements") or []
                pages += 1
            meta = {"total_count": body.get("total_count"), "favorite_count": body.get("favorite_count"),
                    "pages": pages, "complete": not body.get("after_url")}
            df = _friends_frame(elements, meta)
            if body.get("after_url"):
                total = body.get("total_count")
                warn_truncated(df, "all_friends", len(df), total if isinstance(total, int) else None,
                               f"the walk stopped at max_pages={max_pages} (page_size={page_size}); pass a larger "
                               "max_pages or page_size (at most 100) to read every friend")
            return df

        return flow()

    # ------------------------------------------------------------------ admin: profiles
    @endpoint("POST", "api", "/v2/api/talk/profiles", "GET", "api", "/v2/api/talk/profiles")
    def profiles(self, target_ids: Iterable[int], viewer_id: int | None = None, *, method: str = "POST",
                 raw: bool = False):
        """``/v2/api/talk/profiles`` with the admin key: one row per target (consented fields only).

        The viewer's profile, when ``viewer_id`` is given, is in ``df.attrs["meta"]["viewer"]``. Any unknown
        target fails the whole call (-2); an unknown viewer answers -101. ``method`` is ``POST`` (form body,
        the default) or ``GET`` (query); the service accepts both.

        Spec: social §4.3 messenger profiles (admin key).

        >>> tk.talk.profiles([4100000001, 4100000002])   # doctest: +SKIP
        """
        if method not in ("GET", "POST"):
            raise ParameterError("method", "must be 'GET' or 'POST'", method)
        ids = [target_ids] if isinstance(target_ids, int) else list(target_ids)
        try:
            ids = [int(i) for i in ids]
        except (TypeError, ValueError):
            raise ParameterError("target_ids", "must be service user ids (whole numbers)") from None
        if not ids:
            raise ParameterError("target_ids", "give at least one user id")
        data: dict[str, Any] = {"target_ids": ids, "target_id_type": "user_id"}
        if viewer_id is not None:
            data.update(viewer_id=int(viewer_id), viewer_id_type="user_id")

        def parse(body, response):
            if raw:
                return body
            from .frames import frame

            return frame(body.get("targets") or [], columns=["user_id", "nickname", "profile_image_url",
                                                               "thumbnail_image_url"], ints=["user_id"],
                         meta={"viewer": body.get("viewer")})

        if method == "GET":
            return Call("GET", "api", "/v2/api/talk/profiles", self._client.admin_auth(), params=data, parse=parse,
                        name="talk.profiles")
        return Call("POST", "api", "/v2/api/talk/profiles", self._client.admin_auth(), data=data, parse=parse,
                    idempotent=True, name="talk.profiles")

    # ------------------------------------------------------------------ memo
    def _memo(self, path, name, data):
        return self._user_call("POST", path, name, data=data, idempotent=False,
                               parse=lambda b, r: b.get("result_code") if isinstance(b, dict) else b)

    @endpoint("POST", "api", "/v2/api/talk/memo/default/send")
    def send_memo(self, template: Mapping) -> int:
        """Send a default template (see :mod:`toolkit.templates`) to the user's own chatroom; returns result_code.

        Spec: social §4.4 messages to the user's own chatroom (default template).

        >>> tk.talk.send_memo({"object_type": "text", "text": "hi", "link": {}})   # doctest: +SKIP
        """
        return self._memo("/v2/api/talk/memo/default/send", "send_memo", {"template_object": _template(template)})

    @endpoint("POST", "api", "/v2/api/talk/memo/send")
    def send_memo_custom(self, template_id: str, template_args: Mapping | None = None) -> int:
        """Send a custom template (template tool id) to the user's own chatroom. Without ``template_args`` the
        placeholders appear literally as ``${KEY}``.

        Spec: social §4.4 messages to the user's own chatroom (custom template).

        >>> tk.talk.send_memo_custom("100", {"name": "Bo"})   # doctest: +SKIP
        """
        return self._memo("/v2/api/talk/memo/send", "send_memo_custom",
                          {"template_id": _template_id(template_id), "template_args": _args(template_args)})

    @endpoint("POST", "api", "/v2/api/talk/memo/scrap/send")
    def send_memo_scrap(self, request_url: str, template_id: str | None = None,
                        template_args: Mapping | None = None) -> int:
        """Scrape ``request_url`` (its domain must be a web domain of the app) and send it to oneself.

        Spec: social §4.4 messages to the user's own chatroom (scrap).

        >>> tk.talk.send_memo_scrap("https://example.com/")   # doctest: +SKIP
        """
        return self._memo("/v2/api/talk/memo/scrap/send", "send_memo_scrap",
                          {"request_url": _url(request_url),
                           "template_id": _template_id(template_id) if template_id is not None else None,
                           "template_args": _args(template_args)})

    # ------------------------------------------------------------------ friends messages
    def _to_friends(self, path, name, uuids, data, raw):
        return self._user_call("POST", path, name, data={"receiver_uuids": uuids, **data}, idempotent=False,
                               parse=lambda body, r: _delivery(uuids, body, raw))

    @endpoint("POST", "api", "/v1/api/talk/friends/message/default/send")
    def send_to_friends(self, receiver_uuids, template: Mapping, *, raw: bool = False):
        """Send a default template to 1–5 friends (uuids from the friends list).

        Returns one row per recipient: ``status`` sent/failed with ``code`` and ``msg`` from ``failure_info``
        (the raw answer is in ``df.attrs["meta"]["response"]``). When a single recipient fails (or all fail),
        the service answers an error instead, raised as :class:`~toolkit.errors.ApiError` (e.g. code -532).

        Spec: social §4.5 messages to friends (default template).

        >>> tk.talk.send_to_friends(friends.uuid[:2], {"object_type": "text", "text": "hi", "link": {}})   # doctest: +SKIP
        """
        uuids = _uuids(receiver_uuids)
        return self._to_friends("/v1/api/talk/friends/message/default/send", "send_to_friends", uuids,
                                {"template_object": _template(template)}, raw)

    @endpoint("POST", "api", "/v1/api/talk/friends/message/send")
    def send_to_friends_custom(self, receiver_uuids, template_id: str, template_args: Mapping | None = None, *,
                               raw: bool = False):
        """Send a custom template to 1–5 friends; same delivery report as :meth:`send_to_friends`.

        Spec: social §4.5 messages to friends (custom template).

        >>> tk.talk.send_to_friends_custom(friends.uuid[:2], "100")   # doctest: +SKIP
        """
        uuids = _uuids(receiver_uuids)
        return self._to_friends("/v1/api/talk/friends/message/send", "send_to_friends_custom", uuids,
                                {"template_id": _template_id(template_id), "template_args": _args(template_args)},
                                raw)

    @endpoint("POST", "api", "/v1/api/talk/friends/message/scrap/send")
    def send_to_friends_scrap(self, receiver_uuids, request_url: str, template_id: str | None = None,
                              template_args: Mapping | None = None, *, raw: bool = False):
        """Scrape ``request_url`` and send it to 1–5 friends; same delivery report as :meth:`send_to_friends`.

        Spec: social §4.5 messages to friends (scrap).

        >>> tk.talk.send_to_friends_scrap(friends.uuid[:2], "https://example.com/")   # doctest: +SKIP
        """
        uuids = _uuids(receiver_uuids)
        return self._to_friends("/v1/api/talk/friends/message/scrap/send", "send_to_friends_scrap", uuids,
                                {"request_url": _url(request_url),
                                 "template_id": _template_id(template_id) if template_id is not None else None,
                                 "template_args": _args(template_args)}, raw)

    # ------------------------------------------------------------------ sandbox only
    def received(self, user_id: int, limit: int = 50):
        """Sandbox only: what ``user_id`` received (memos and friend messages), newest first, as a DataFrame.

        ``title`` is the message's headline (content title, text, or list header).

        Spec: social §4.4 and §4.5 messages (what a user received, sandbox only).

        >>> tk.talk.received(4100000002)   # doctest: +SKIP
        """
        sandbox = self._client.sandbox
        if sandbox is None:
            raise ParameterError("received", "exists only in the sandbox (the service does not show inboxes)")
        rows = sandbox.control("GET", "/sandbox/social/messages", params={"user_id": int(user_id), "limit": limit})
        from .frames import frame

        for row in rows:
            m = row["message"]
            row["object_type"] = m.get("object_type")
            row["title"] = (m.get("content") or {}).get("title") or m.get("text") or m.get("header_title")
            row["message"] = json.dumps(m, ensure_ascii=False)
        return frame(rows, columns=["sent_at", "chat", "sender_id", "sender_nickname", "receiver_id", "kind",
                                    "template_id", "object_type", "title", "message"], datetimes=["sent_at"],
                     ints=["sender_id", "receiver_id"])


def _template_id(value) -> str:
    if value is None or str(value).strip() == "":
        raise ParameterError("template_id", "required: the id of a custom template")
    return str(value)


def _url(value) -> str:
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise ParameterError("request_url", "must be an http(s) URL on a web domain of the app", value)
    return value
