"""Messenger against the sandbox over HTTP: -501, consent, friends bounds/sort/paging, admin profiles,
memo and friend messages (≤5 uuids, partial failure_info, -532), stored deliveries."""
from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from toolkit import templates as T
from toolkit.errors import ApiError, InvalidArgumentError, ParameterError
from toolkit.sandbox.social.talk import script_class
from toolkit.talk import SCRIPTS, failure_frame, name_script

from .conftest import ALL_SCOPES, JIWOO, JUNHO, MINJI

MSG = T.text("See you at 7!", T.link(web_url="https://example.test"))


def test_talk_profile_and_501(tk):
    tk.login_as(MINJI, scopes=["profile"])
    prof = tk.talk.profile()
    assert prof["id"] == MINJI and prof["nickName"] == "민지" and prof["profileImageURL"].startswith("https://")
    tk.login_as(JIWOO, scopes=["profile", "friends"])
    for call in (tk.talk.profile, tk.talk.friends):
        with pytest.raises(ApiError) as err:
            call()
        assert err.value.code == -501 and err.value.status == 400


def test_friends_needs_consent(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=["profile"])
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.friends()
    assert err.value.code == -402 and err.value.status == 403


def test_friends_bounds(tk, raw):
    tk.login_as(MINJI, scopes=ALL_SCOPES)
    for params in ({"limit": 101}, {"limit": 0}, {"offset": -1}, {"order": "up"}, {"friend_order": "age"}):
        r = raw("GET", "/v1/api/talk/friends", params=params)
        assert r.status_code == 400 and r.json()["code"] == -2, params
    r = raw("GET", "/v1/api/talk/friends")
    body = r.json()
    assert len(body["elements"]) == 10 and body["total_count"] == 50  # default limit 10
    assert len(raw("GET", "/v1/api/talk/friends", params={"limit": 100}).json()["elements"]) == 50
    with pytest.raises(ParameterError):
        tk.talk.friends(limit=101)
    with pytest.raises(ParameterError):
        tk.talk.friends(order="random")


def test_client_script_classes_match_the_sandbox(tk):
    tk.login_as(MINJI, scopes=ALL_SCOPES)
    names = tk.talk.all_friends().profile_nickname
    assert [SCRIPTS.index(name_script(n)) for n in names] == [script_class(n) for n in names]


def test_friends_korean_first_sort(tk):
    tk.login_as(MINJI, scopes=ALL_SCOPES)
    df = tk.talk.friends(limit=100)
    classes = [script_class(n) for n in df.profile_nickname]
    assert classes == sorted(classes) and classes[0] == 0 and classes[-1] == 5
    assert set(classes) == {0, 1, 2, 3, 4, 5}  # Korean, special, numbers, English, Japanese, emoji
    desc = tk.talk.friends(limit=100, order="desc")
    assert list(desc.id) == list(df.id)[::-1]
    fav = tk.talk.friends(limit=100, friend_order="favorite")
    n = fav.attrs["meta"]["favorite_count"]
    assert n == int(df.favorite.sum()) and n > 0
    assert fav.favorite[:n].all() and not fav.favorite[n:].any()
    assert [script_class(x) for x in fav.profile_nickname[:n]] == sorted(script_class(x) for x in fav.profile_nickname[:n])


def test_friends_paging_links(tk):
    tk.login_as(MINJI, scopes=ALL_SCOPES)
    first = tk.talk.friends(limit=20, order="desc")
    meta = first.attrs["meta"]
    assert meta["before_url"] is None and meta["total_count"] == 50
    q = parse_qs(urlsplit(meta["after_url"]).query)
    assert q == {"offset": ["20"], "limit": ["20"], "order": ["desc"]}
    last = tk.talk.friends(offset=40, limit=20, order="desc")
    assert last.attrs["meta"]["after_url"] is None and len(last) == 10
    assert parse_qs(urlsplit(last.attrs["meta"]["before_url"]).query)["offset"] == ["20"]
    everyone = tk.talk.all_friends(order="desc", page_size=20)
    assert len(everyone) == 50 and everyone.id.is_unique and everyone.attrs["meta"]["pages"] == 3
    assert list(everyone.id[:20]) == list(first.id)
    bounded = tk.talk.all_friends(page_size=7, max_pages=2)
    assert len(bounded) == 14 and bounded.attrs["meta"]["complete"] is False


def test_admin_profiles(fresh_tk, fresh_raw):
    fresh_tk.login_as(JUNHO, scopes=["profile_nickname"])
    fresh_tk.login_as(MINJI, scopes=["profile"])
    df = fresh_tk.talk.profiles([MINJI, JUNHO], viewer_id=MINJI)
    assert fresh_tk.talk.profiles([MINJI, JUNHO], method="GET").equals(df)
    assert list(df.user_id) == [MINJI, JUNHO]
    assert df.nickname.tolist() == ["민지", "준호"]
    assert df.profile_image_url.notna().tolist() == [True, False]  # 준호 consented to the nickname only
    assert df.attrs["meta"]["viewer"]["user_id"] == MINJI
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.profiles([MINJI], viewer_id=4100000009)  # not linked to the app
    assert err.value.code == -101
    with pytest.raises(InvalidArgumentError):
        fresh_tk.talk.profiles([MINJI, 4100000009])  # one unknown target fails the whole call
    r = fresh_raw("GET", "/v2/api/talk/profiles", headers=fresh_raw.admin(),
                  params={"target_ids": json.dumps([MINJI]), "target_id_type": "user_id"})
    assert r.status_code == 200 and "viewer" not in r.json()
    r = fresh_raw("GET", "/v2/api/talk/profiles", headers=fresh_raw.rest(),
                  params={"target_ids": json.dumps([MINJI]), "target_id_type": "user_id"})
    assert r.status_code == 401
    r = fresh_raw("POST", "/v2/api/talk/profiles", headers=fresh_raw.admin(), data={"target_ids": f"[{MINJI}]"})
    assert r.status_code == 400 and r.json()["code"] == -2  # target_id_type is required


def test_memo_default_custom_scrap(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=["profile"])
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.send_memo(MSG)
    assert err.value.code == -402
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    assert fresh_tk.talk.send_memo(MSG) == 0
    assert fresh_tk.talk.send_memo_custom("10001", {"name": "민지"}) == 0
    assert fresh_tk.talk.send_memo_custom("10002") == 0  # no args: placeholders stay literal
    page = f"{fresh_tk.sandbox.base_url}/sandbox/social/pages/winter-sale"
    assert fresh_tk.talk.send_memo_scrap(page, "10003", {"note": "hurry", "SCRAP_TITLE": "overwritten?"}) == 0
    inbox = fresh_tk.talk.received(MINJI)
    assert list(inbox.chat) == ["MemoChat"] * 4
    titles = list(inbox.title)
    assert titles[0] == "Winter sale — up to 40% off"  # scrape results are not overwritten by template_args
    assert titles[1] == "Reminder: ${event} starts at ${time}."
    assert titles[2] == "민지님, 환영합니다!" and "${coupon}" in json.loads(inbox.message[2])["content"]["description"]
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.send_memo_scrap("https://blog.sandbox.test/posts/autumn-hike")  # domain not registered
    assert err.value.code == -2
    with pytest.raises(ApiError):
        fresh_tk.talk.send_memo_custom("99999")
    r = fresh_raw("POST", "/v2/api/talk/memo/default/send", data={"template_object": json.dumps({"object_type": "feed"})})
    assert r.status_code == 400 and r.json()["code"] == -2


def _uuids(tk, n):
    df = tk.talk.all_friends()
    ok = df[~df.profile_nickname.isin(["마루", "daniel"])]  # contacts 5 and 27 refuse app messages
    return list(ok.uuid[:n]), dict(zip(df.profile_nickname, df.uuid))


def test_friend_message_bounds(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    uuids, _ = _uuids(fresh_tk, 6)
    with pytest.raises(ParameterError):
        fresh_tk.talk.send_to_friends(uuids, MSG)
    body = {"template_object": json.dumps(MSG)}
    r = fresh_raw("POST", "/v1/api/talk/friends/message/default/send", data={**body, "receiver_uuids": json.dumps(uuids)})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("POST", "/v1/api/talk/friends/message/default/send", data={**body, "receiver_uuids": ",".join(uuids[:2])})
    assert r.status_code == 400 and r.json()["code"] == -2  # must be the text of a JSON array
    r = fresh_raw("POST", "/v1/api/talk/friends/message/default/send", data={**body, "receiver_uuids": json.dumps(uuids[:5])})
    assert r.status_code == 200 and r.json()["successful_receiver_uuids"] == uuids[:5]
    assert "failure_info" not in r.json()


def test_partial_failure_and_single_failure(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    good, by_name = _uuids(fresh_tk, 2)
    report = fresh_tk.talk.send_to_friends([*good, by_name["마루"], "not-a-friend-uuid"], MSG)
    assert list(report.status.astype(str)) == ["sent", "sent", "failed", "failed"]
    assert list(report.code[2:]) == [-530, -2]
    fails = failure_frame(report.attrs["meta"]["response"])
    assert set(fails.code) == {-530, -2} and len(fails) == 2
    with pytest.raises(ApiError) as err:  # a single recipient failing: error, no failure_info
        fresh_tk.talk.send_to_friends([by_name["daniel"]], MSG)
    assert err.value.code == -530 and "failure_info" not in err.value.body
    first = int(fresh_tk.talk.all_friends().set_index("uuid").loc[good[0], "id"])
    inbox = fresh_tk.talk.received(first)
    assert len(inbox) == 1 and inbox.chat[0] == "DirectChat" and inbox.sender_nickname[0] == "민지"


def test_daily_limit_532(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    fresh_tk.sandbox.control("POST", "/sandbox/social/limits", json={"daily_messages_per_sender": 3})
    uuids, by_name = _uuids(fresh_tk, 5)
    report = fresh_tk.talk.send_to_friends_custom(uuids, "10002", {"event": "Quiz", "time": "19:00"})
    assert list(report.status.astype(str)) == ["sent"] * 3 + ["failed"] * 2
    info = report.attrs["meta"]["response"]["failure_info"]
    assert info == [{"code": -532, "msg": info[0]["msg"], "receiver_uuids": uuids[3:]}]
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.send_to_friends(uuids[:1], MSG)
    assert err.value.code == -532
    fresh_tk.sandbox.advance(days=1)  # a new day resets the sender's count (log in again: tokens last 6 hours)
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    assert list(fresh_tk.talk.send_to_friends(uuids[:1], MSG).status.astype(str)) == ["sent"]
    # what the friend received
    friend_id = int(fresh_tk.talk.all_friends().set_index("uuid").loc[uuids[0], "id"])
    inbox = fresh_tk.talk.received(friend_id)
    assert inbox.title.tolist()[:2] == ["See you at 7!", "Reminder: Quiz starts at 19:00."]
    assert set(inbox.sender_id) == {MINJI}


def test_scrap_to_friends(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    uuids, _ = _uuids(fresh_tk, 2)
    page = f"{fresh_tk.sandbox.base_url}/sandbox/social/pages/autumn-hike"
    report = fresh_tk.talk.send_to_friends_scrap(uuids, page)
    assert (report.status == "sent").all()


def test_template_builders_validate():
    feed = T.feed(T.content("t", "d", image_url="https://i.test/a.png", image_width=640, image_height=480,
                            link=T.link(web_url="https://w.test")),
                  item_content=T.item_content(profile_text="Shop", items=[("Coat", "89,000")]),
                  social=T.social(like_count=3), buttons=[T.button("Go", T.link(web_url="https://w.test"))])
    assert feed["object_type"] == "feed" and feed["social"] == {"like_count": 3}
    lst = T.list_("Top 2", [T.content("a", link=T.link("https://a.test")), T.content("b", link=T.link("https://b.test"))])
    assert len(lst["contents"]) == 2
    assert T.location("Seoul", T.content("Office", link=T.link("https://m.test")))["address"] == "Seoul"
    assert T.commerce(T.content("Coat", link=T.link("https://s.test")), 89000, discount_rate=10)["commerce"]["regular_price"] == 89000
    assert T.calendar("evt-1", T.content("Meetup", link=T.link("https://c.test")))["id_type"] == "event"
    with pytest.raises(T.TemplateError):
        T.text("x" * 201, T.link("https://x.test"))
    with pytest.raises(T.TemplateError):
        T.list_("one", [T.content("a", link=T.link("https://a.test"))])
    with pytest.raises(T.TemplateError):
        T.commerce(T.content("c", link=T.link("https://a.test")), -1)
    with pytest.raises(T.TemplateError):
        T.calendar("x", T.content("c", link=T.link("https://a.test")), id_type="meeting")
    with pytest.raises(T.TemplateError):
        T.validate({"object_type": "feed", "content": {"title": "no link"}})
    with pytest.raises(T.TemplateError):
        T.feed(T.content("t", link=T.link("https://a.test")), buttons=[T.button("1", T.link("https://a")),
                                                                         T.button("2", T.link("https://b")),
                                                                         T.button("3", T.link("https://c"))])


def test_quota_applies_to_friends(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    fresh_tk.sandbox.set_quota("talk_friends", 1)
    fresh_tk.talk.friends()
    with pytest.raises(ApiError) as err:
        fresh_tk.talk.friends()
    assert err.value.code == -10
