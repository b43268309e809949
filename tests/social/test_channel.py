"""Channels against the sandbox over HTTP: relation modes, multi (≤200, unknown omitted), customer files
(schema rules, slots, ≤2,000 users per call with chunking, channel friends only, delete)."""
from __future__ import annotations

import json

import pytest

from toolkit.errors import ApiError, InvalidArgumentError, ParameterError

from .conftest import ALL_SCOPES, JIWOO, JUNHO, MINJI

CAFE, BOOKS, NEWS = "_xcLqmC", "_ZeUTxl", "_kQbVnP"


def test_relations_token_mode(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=["profile"])
    with pytest.raises(ApiError) as err:
        fresh_tk.channel.relations()
    assert err.value.code == -402
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    df = fresh_tk.channel.relations()
    assert list(df.channel_public_id) == [CAFE, BOOKS, NEWS]
    rel = dict(zip(df.channel_public_id, df.relation.astype(str)))
    assert rel == {CAFE: "ADDED", BOOKS: "BLOCKED", NEWS: "ADDED"}
    blocked = df.set_index("channel_public_id").loc[BOOKS]
    assert blocked.created_at is pd_nat() and blocked.updated_at.tzname() == "UTC"
    assert df.set_index("channel_public_id").loc[CAFE].created_at.year == 2026
    one = fresh_tk.channel.relations([BOOKS])
    assert list(one.channel_public_id) == [BOOKS]
    r = fresh_raw("GET", "/v2/api/talk/channels", params={"channel_ids": "_nope"})
    assert r.status_code == 400 and r.json()["code"] == -2
    # NONE has no dates; a change through the control API shows up
    fresh_tk.channel.set_relation(MINJI, BOOKS, "NONE")
    body = fresh_raw("GET", "/v2/api/talk/channels", params={"channel_ids": BOOKS}).json()
    assert body == {"user_id": MINJI, "channels": [{"channel_uuid": "@sandboxbooks", "channel_public_id": BOOKS,
                                                     "relation": "NONE"}]}


def pd_nat():
    import pandas as pd

    return pd.NaT


def test_relations_admin_mode_and_501(fresh_tk, fresh_raw):
    fresh_tk.login_as(JUNHO, scopes=[])
    df = fresh_tk.channel.relations(target_id=JUNHO)  # admin mode needs no consent
    assert dict(zip(df.channel_public_id, df.relation.astype(str)))[BOOKS] == "ADDED"
    with pytest.raises(ApiError) as err:
        fresh_tk.channel.relations(target_id=4100000009)  # not linked to the app
    assert err.value.code == -101
    fresh_tk.login_as(JIWOO, scopes=ALL_SCOPES)
    with pytest.raises(ApiError) as err:
        fresh_tk.channel.relations(target_id=JIWOO)
    assert err.value.code == -501


def test_relations_multi(fresh_tk, fresh_raw):
    for uid in (MINJI, JUNHO, JIWOO):
        fresh_tk.login_as(uid, scopes=[])
    df = fresh_tk.channel.relations_multi([MINJI, JUNHO, JIWOO, 4100000009, 123])
    assert sorted(set(df.user_id)) == [MINJI, JUNHO]  # unknown, unlinked and non-messenger users omitted
    assert len(df) == 6 and df.attrs["meta"]["omitted"] == [JIWOO, 4100000009, 123]
    ids = ",".join(str(4100000001 + i) for i in range(201))
    r = fresh_raw("GET", "/v2/api/talk/channels/multi", headers=fresh_raw.admin(),
                  params={"target_id_type": "user_id", "target_ids": ids})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("GET", "/v2/api/talk/channels/multi", headers=fresh_raw.admin(),
                  params={"target_id_type": "user_id", "target_ids": ids.rsplit(",", 1)[0]})
    assert r.status_code == 200 and len(r.json()) == 2
    # the client chunks by 200
    big = fresh_tk.channel.relations_multi(range(4100000001, 4100000001 + 450), channel_ids=[NEWS])
    assert len(big) == 2 and set(big.channel_public_id) == {NEWS}
    assert big.attrs["meta"]["requested"] == 450


def test_customer_file_schema_rules(fresh_tk, fresh_raw):
    with pytest.raises(ParameterError):
        fresh_tk.channel.create_file(CAFE, "x", {"visits": "string"})
    with pytest.raises(ParameterError):
        fresh_tk.channel.create_file(CAFE, "x", {"전화번호": "number"})
    with pytest.raises(ParameterError):
        fresh_tk.channel.create_file(CAFE, "x", {f"k{i}": "number" for i in range(31)})
    path = "/v1/talkchannel/create/target_user_file"
    for schema in ({"visits": "string"}, {"앱유저아이디": "number"}, {f"k{i}": "number" for i in range(31)},
                   {"성별": "boolean"}, {}):
        r = fresh_raw("POST", path, headers=fresh_raw.rest(), json={"channel_public_id": CAFE, "file_name": "x",
                                                                     "schema": schema})
        assert r.status_code == 400 and r.json()["code"] == -2, schema
    r = fresh_raw("POST", path, headers=fresh_raw.rest(), json={"channel_public_id": "_nope", "file_name": "x",
                                                                 "schema": {"연령": "number"}})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("POST", path, headers=fresh_raw.rest(), json={"channel_public_id": CAFE, "file_name": "ok",
                                                                 "schema": {f"k{i}": "number" for i in range(30)}})
    assert r.status_code == 200 and isinstance(r.json()["file_id"], int)
    r = fresh_raw("POST", path, headers=fresh_raw.bearer() if fresh_tk.access_token else {},
                  json={"channel_public_id": CAFE, "file_name": "x", "schema": {"연령": "number"}})
    assert r.status_code == 401


def test_customer_file_workflow(fresh_tk, fresh_raw):
    linked = [MINJI, JUNHO, 4100000003, 4100000005]
    for uid in linked:
        fresh_tk.login_as(uid, scopes=[])
    fid = fresh_tk.channel.create_file(CAFE, "VIP 고객", {"구매금액": "number", "지역": "string", "visits": "number"})
    files = fresh_tk.channel.files(CAFE)
    assert list(files.file_name) == ["VIP 고객"] and files.status[0] == "using"
    assert files.attrs["meta"] == {"empty_slot": 19, "using_slot": 1}
    assert str(files.update_at.dtype).startswith("datetime64") and files.update_at[0].year == 2026
    assert json.loads(files.schema[0])["visits"] == "number"
    # channel friends of CAFE among the linked: MINJI, 4100000003, 4100000005 (JUNHO has not added it)
    users = [{"id": str(u), "field": {"구매금액": 1000 * n, "visits": n}} for n, u in enumerate(linked)]
    users += [{"id": "4100000007", "field": {"visits": 1}},  # added the channel but not linked to the app
              {"id": str(MINJI), "field": {"other": 3}}]  # a key outside the schema
    summary = fresh_tk.channel.add_users(fid, CAFE, users, progress=False)
    assert summary.attrs["meta"] == {"file_id": fid, "requested": 6, "added": 3, "chunks": 1}
    r = fresh_raw("POST", "/v1/talkchannel/update/target_users", headers=fresh_raw.rest(),
                  json={"file_id": fid, "channel_public_id": CAFE, "user_type": "app",
                        "users": [{"id": str(MINJI), "field": {"visits": "3"}}]})  # a string value is skipped
    assert r.json() == {"file_id": fid, "request_count": 1, "success_count": 0}
    stored = fresh_tk.sandbox.control("GET", "/sandbox/social/channels/file_users", params={"file_id": fid})
    assert sorted(u["id"] for u in stored) == sorted([str(MINJI), "4100000003", "4100000005"])
    # phone user type
    r = fresh_raw("POST", "/v1/talkchannel/update/target_users", headers=fresh_raw.admin(),
                  json={"file_id": fid, "channel_public_id": CAFE, "user_type": "phone",
                        "users": [{"id": "+82 10-1200-0009", "field": {"visits": 2}},
                                  {"id": "010-1200-0002", "field": {}}]})
    assert r.json() == {"file_id": fid, "request_count": 2, "success_count": 1}
    # delete users
    assert fresh_tk.channel.delete_users(fid, CAFE, [MINJI, "4100000003"]) is None
    stored = fresh_tk.sandbox.control("GET", "/sandbox/social/channels/file_users", params={"file_id": fid})
    assert sorted(u["id"] for u in stored) == ["+82 10-1200-0009", "4100000005"]
    r = fresh_raw("POST", "/v1/talkchannel/delete/target_users", headers=fresh_raw.rest(),
                  json={"file_id": fid, "channel_public_id": CAFE, "user_type": "app", "user_ids": ["4100000005"]})
    assert r.status_code == 200 and r.content == b""
    with pytest.raises(InvalidArgumentError):
        fresh_tk.channel.files("_nope")
    with pytest.raises(InvalidArgumentError):
        fresh_tk.channel.delete_users(fid + 100, CAFE, [MINJI])


def test_add_users_limit_and_chunking(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    fid = fresh_tk.channel.create_file(NEWS, "bulk", {"포인트": "number"})
    too_many = [{"id": str(10**9 + i), "field": {"포인트": i}} for i in range(2001)]
    r = fresh_raw("POST", "/v1/talkchannel/update/target_users", headers=fresh_raw.rest(),
                  json={"file_id": fid, "channel_public_id": NEWS, "user_type": "app", "users": too_many})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("POST", "/v1/talkchannel/update/target_users", headers=fresh_raw.rest(),
                  json={"file_id": fid, "channel_public_id": NEWS, "user_type": "app", "users": too_many[:2000]})
    assert r.json() == {"file_id": fid, "request_count": 2000, "success_count": 0}
    users = too_many + [{"id": str(MINJI), "field": {"포인트": 7}}] + [(str(10**10 + i), {"포인트": 1}) for i in range(2500)]
    summary = fresh_tk.channel.add_users(fid, NEWS, users, progress=False)
    assert list(summary.request_count) == [2000, 2000, 502] and summary.success_count.sum() == 1
    assert summary.attrs["meta"]["requested"] == 4502 and summary.attrs["meta"]["added"] == 1
    assert list(summary.skipped) == [2000, 1999, 502]
    with pytest.raises(ParameterError):
        fresh_tk.channel.add_users(fid, NEWS, [{"id": "1", "field": {"포인트": "3"}}])
    with pytest.raises(ParameterError):
        fresh_tk.channel.add_users(fid, NEWS, users, chunk_size=2001)


def test_file_slots(fresh_tk, fresh_raw):
    for n in range(20):
        fresh_tk.channel.create_file(BOOKS, f"f{n}", {"연령": "number"})
    with pytest.raises(InvalidArgumentError, match="slot"):
        fresh_tk.channel.create_file(BOOKS, "one too many", {"연령": "number"})
    assert fresh_tk.channel.files(BOOKS).attrs["meta"] == {"empty_slot": 0, "using_slot": 20}
