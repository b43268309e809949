"""Messenger channels (social §4.6–§4.7): relation reports and customer files.

>>> tk.channel.relations()                                   # the logged-in user × every linked channel  # doctest: +SKIP
>>> tk.channel.relations(target_id=4100000002)               # admin-key mode  # doctest: +SKIP
>>> tk.channel.relations_multi(range(4100000001, 4100000013))  # one row per user × channel (≤200 per call, chunked)  # doctest: +SKIP
>>> fid = tk.channel.create_file("_xcLqmC", "VIP", {"구매금액": "number", "visits": "number"})  # doctest: +SKIP
>>> tk.channel.add_users(fid, "_xcLqmC", users)               # chunks of 2,000, progress bar, summary frame  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from .area import Area, Call, endpoint
from .errors import ParameterError

__all__ = ["ChannelArea", "MAX_MULTI", "MAX_SCHEMA", "MAX_USERS_PER_CALL", "STANDARD_KEYS", "check_schema"]

MAX_MULTI = 200
MAX_SCHEMA = 30
MAX_USERS_PER_CALL = 2000
STANDARD_KEYS = ("생년월일", "국가", "지역", "성별", "연령", "구매금액", "포인트", "가입일", "최근 구매일", "응모일")
RESERVED_KEYS = ("앱유저아이디", "전화번호")
RELATION_COLUMNS = ["user_id", "channel_public_id", "channel_uuid", "relation", "created_at", "updated_at"]
RELATIONS = ["NONE", "BLOCKED", "ADDED"]


def check_schema(schema: Mapping[str, str]) -> dict:
    """Check a customer-file schema: 1–30 items; Korean standard keys; custom keys ``number`` and not reserved."""
    if not isinstance(schema, Mapping) or not schema:
        raise ParameterError("schema", "must be a non-empty dict of key → 'string' | 'number'")
    if len(schema) > MAX_SCHEMA:
        raise ParameterError("schema", f"at most {MAX_SCHEMA} items", len(schema))
    for key, kind in schema.items():
        if kind not in ("string", "number"):
            raise ParameterError(f"schema[{key!r}]", "value type must be 'string' or 'number'", kind)
        if key in RESERVED_KEYS:
            raise ParameterError(f"schema[{key!r}]", "is reserved and cannot be a custom key")
        if key not in STANDARD_KEYS and kind != "number":
            raise ParameterError(f"schema[{key!r}]", "a custom key's value type must be 'number' (standard keys: "
                                 + ", ".join(STANDARD_KEYS) + ")", kind)
    return dict(schema)


def _channel_ids(channel_ids) -> str | None:
    if channel_ids is None:
        return None
    ids = [channel_ids] if isinstance(channel_ids, str) else list(channel_ids)
    ids = [p.strip() for i in ids for p in str(i).split(",") if p.strip()]
    if not ids:
        raise ParameterError("channel_ids", "give at least one channel public id, or None for all")
    return ",".join(ids)


def _relation_rows(results: Iterable[Mapping]) -> list[dict]:
    return [dict(ch, user_id=r["user_id"]) for r in results for ch in r.get("channels") or []]


def _relations_frame(results, meta=None):
    from .frames import frame

    return frame(_relation_rows(results), columns=RELATION_COLUMNS, ints=["user_id"],
                 datetimes=["created_at", "updated_at"], categories={"relation": RELATIONS}, meta=meta)


def _user(entry: Any, n: int) -> dict:
    """A user for a customer file: ``{"id", "field"}``, or ``(id, field)``; field values must be numbers."""
    if isinstance(entry, Mapping):
        uid, field = entry.get("id"), entry.get("field", {})
    elif isinstance(entry, (tuple, list)) and len(entry) == 2:
        uid, field = entry
    else:
        uid, field = entry, {}
    if uid is None or str(uid) == "":
        raise ParameterError(f"users[{n}].id", "required")
    if not isinstance(field, Mapping):
        raise ParameterError(f"users[{n}].field", "must be a dict of schema key → number")
    for k, v in field.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ParameterError(f"users[{n}].field[{k!r}]", "only Number values: convert strings to numbers", v)
    return {"id": str(uid), "field": {str(k): v for k, v in field.items()}}


class ChannelArea(Area):
    """Channel relations (token or admin key) and customer files (REST API key or admin key)."""

    @endpoint("GET", "api", "/v2/api/talk/channels")
    def relations(self, channel_ids=None, *, target_id: int | None = None, raw: bool = False):
        """Relations of the logged-in user (or of ``target_id`` with the admin key) with the app's channels.

        One row per channel: ``relation`` (NONE < BLOCKED < ADDED), ``created_at``/``updated_at`` (UTC).

        Spec: social §4.6 channel relationship.

        >>> tk.channel.relations(target_id=4100000001)   # doctest: +SKIP
        """
        params = {"channel_ids": _channel_ids(channel_ids)}
        if params["channel_ids"]:
            params["channel_id_type"] = "channel_public_id"
        return Call("GET", "api", "/v2/api/talk/channels", self._client.user_auth(target_id), params=params,
                    parse=lambda body, r: body if raw else _relations_frame([body]), name="channel.relations")

    @endpoint("GET", "api", "/v2/api/talk/channels/multi")
    def relations_multi(self, target_ids: Iterable[int], channel_ids=None, *, raw: bool = False):
        """Relations of many users (admin key): one row per user × channel. More than 200 ids are sent in
        chunks of 200; users whose relation could not be checked are omitted (``meta['omitted']`` lists them).

        Spec: social §4.6 channel relationship (many users).

        >>> tk.channel.relations_multi([4100000001, 4100000002])   # doctest: +SKIP
        """
        ids = [target_ids] if isinstance(target_ids, int) else list(target_ids)
        try:
            ids = list(dict.fromkeys(int(i) for i in ids))
        except (TypeError, ValueError):
            raise ParameterError("target_ids", "must be service user ids (whole numbers)") from None
        if not ids:
            raise ParameterError("target_ids", "give at least one user id")
        chans = _channel_ids(channel_ids)
        calls = []
        for start in range(0, len(ids), MAX_MULTI):
            params = {"target_id_type": "user_id", "target_ids": ",".join(map(str, ids[start:start + MAX_MULTI])),
                      "channel_ids": chans, "channel_id_type": "channel_public_id" if chans else None}
            calls.append(Call("GET", "api", "/v2/api/talk/channels/multi", self._client.admin_auth(), params=params,
                              name="channel.relations_multi"))

        def flow():
            results = []
            for call in calls:
                results += (yield call) or []
            if raw:
                return results
            seen = {r["user_id"] for r in results}
            return _relations_frame(results, {"omitted": [i for i in ids if i not in seen], "requested": len(ids)})

        return flow()

    # ------------------------------------------------------------------ customer files
    def _file_call(self, method, path, name, **kw):
        return Call(method, "api", path, self._client.admin_auth(), name=f"channel.{name}", **kw)

    @endpoint("POST", "api", "/v1/talkchannel/create/target_user_file")
    def create_file(self, channel_public_id: str, file_name: str, schema: Mapping[str, str]) -> int:
        """Register a customer file (the schema can never be edited); returns ``file_id``.

        Spec: social §4.7 customer files (create a file).

        >>> file_id = tk.channel.create_file("_xcLqmC", "spring", {"age": "number"})   # doctest: +SKIP
        """
        if not channel_public_id:
            raise ParameterError("channel_public_id", "required")
        if not file_name:
            raise ParameterError("file_name", "required")
        body = {"channel_public_id": channel_public_id, "file_name": file_name, "schema": check_schema(schema)}
        return self._file_call("POST", "/v1/talkchannel/create/target_user_file", "create_file", json=body,
                               parse=lambda b, r: b["file_id"], idempotent=False)

    @endpoint("GET", "api", "/v1/talkchannel/target_user_file")
    def files(self, channel_public_id: str, *, raw: bool = False):
        """Customer files of a channel: one row per file (``update_at`` as Korea-time text → UTC datetime);
        ``empty_slot``/``using_slot`` in ``df.attrs["meta"]``.

        Spec: social §4.7 customer files (list).

        >>> tk.channel.files("_xcLqmC")   # doctest: +SKIP
        """
        if not channel_public_id:
            raise ParameterError("channel_public_id", "required")

        def parse(body, response):
            if raw:
                return body
            import pandas as pd

            from .frames import TEXT, frame

            df = frame(body.get("results") or [], columns=["file_id", "file_name", "status", "update_at", "schema"],
                       ints=["file_id"], meta={"empty_slot": body.get("empty_slot"),
                                               "using_slot": body.get("using_slot")})
            df = df.drop(columns=[c for c in ("empty_slot", "using_slot") if c in df.columns])
            df["status"] = df["status"].astype(TEXT).str.lower()
            df["update_at"] = pd.to_datetime(df["update_at"], format="%Y-%m-%d %H:%M:%S", errors="coerce") \
                .dt.tz_localize("Asia/Seoul").dt.tz_convert("UTC")
            return df

        return self._file_call("GET", "/v1/talkchannel/target_user_file", "files",
                               params={"channel_public_id": channel_public_id}, parse=parse)

    @endpoint("POST", "api", "/v1/talkchannel/update/target_users")
    def add_users(self, file_id: int, channel_public_id: str, users: Iterable[Any], *, user_type: str = "app",
                  chunk_size: int = MAX_USERS_PER_CALL, progress: bool = True):
        """Add any number of users to a customer file, in calls of at most 2,000, with a progress bar.

        ``users``: dicts ``{"id": ..., "field": {key: number}}``, ``(id, field)`` pairs or bare ids. Only users
        who added the channel are stored; the service skips the others. Returns a summary frame: one row per
        chunk (``chunk``, ``request_count``, ``success_count``, ``skipped``) with totals in ``attrs['meta']``.

        Spec: social §4.7 customer files (add users).

        >>> tk.channel.add_users(file_id, "_xcLqmC", [4100000001, 4100000002])   # doctest: +SKIP
        """
        if user_type not in ("app", "phone"):
            raise ParameterError("user_type", "must be 'app' (service user ids) or 'phone'", user_type)
        if not isinstance(chunk_size, int) or not 1 <= chunk_size <= MAX_USERS_PER_CALL:
            raise ParameterError("chunk_size", f"must be 1 to {MAX_USERS_PER_CALL}", chunk_size)
        items = [_user(u, n) for n, u in enumerate(users)]
        if not items:
            raise ParameterError("users", "give at least one user")
        chunks = [items[i:i + chunk_size] for i in range(0, len(items), chunk_size)]

        def flow():
            from .frames import frame
            from .progress import Progress

            rows = []
            bar = Progress(len(items), "add_users", "user", disable=not progress)
            try:
                for n, chunk in enumerate(chunks):
                    body = {"file_id": int(file_id), "channel_public_id": channel_public_id, "user_type": user_type,
                            "users": chunk}
                    res = yield self._file_call("POST", "/v1/talkchannel/update/target_users", "add_users",
                                                json=body, idempotent=True)
                    rows.append({"chunk": n, "first": chunk[0]["id"], "request_count": res["request_count"],
                                 "success_count": res["success_count"],
                                 "skipped": res["request_count"] - res["success_count"]})
                    bar.update(len(chunk))
            finally:
                bar.close()
            meta = {"file_id": int(file_id), "requested": sum(r["request_count"] for r in rows),
                    "added": sum(r["success_count"] for r in rows), "chunks": len(rows)}
            return frame(rows, columns=["chunk", "first", "request_count", "success_count", "skipped"],
                         ints=["request_count", "success_count", "skipped"], meta=meta)

        return flow()

    @endpoint("POST", "api", "/v1/talkchannel/delete/target_users")
    def delete_users(self, file_id: int, channel_public_id: str, user_ids: Iterable[Any], *,
                     user_type: str = "app") -> None:
        """Remove users from a customer file (HTTP 200 with an empty body).

        Spec: social §4.7 customer files (delete users).

        >>> tk.channel.delete_users(file_id, "_xcLqmC", [4100000001])   # doctest: +SKIP
        """
        if user_type not in ("app", "phone"):
            raise ParameterError("user_type", "must be 'app' or 'phone'", user_type)
        ids = [user_ids] if isinstance(user_ids, (str, int)) else [str(i) for i in user_ids]
        if not ids:
            raise ParameterError("user_ids", "give at least one id")
        body = {"file_id": int(file_id), "channel_public_id": channel_public_id, "user_type": user_type,
                "user_ids": [str(i) for i in ids]}
        return self._file_call("POST", "/v1/talkchannel/delete/target_users", "delete_users", json=body,
                               parse=lambda b, r: None, idempotent=True)

    # ------------------------------------------------------------------ sandbox only
    def set_relation(self, user_id: int, channel_public_id: str, relation: str) -> dict:
        """Sandbox only: act as the user adding (``ADDED``), blocking (``BLOCKED``) or removing a channel.

        Spec: social §4.6 channel relationship (sandbox control: add or block).

        >>> tk.channel.set_relation(4100000001, "_xcLqmC", "ADDED")   # doctest: +SKIP
        """
        if self._client.sandbox is None:
            raise ParameterError("set_relation", "exists only in the sandbox")
        return self._client.sandbox.control("POST", "/sandbox/social/channels/relation",
                                            json={"user_id": int(user_id), "channel_public_id": channel_public_id,
                                                  "relation": relation})
