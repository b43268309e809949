"""The named sandbox helpers the walkthroughs use instead of raw control-API paths: a friend's comment and like
on a story, the daily message limit, a customer file's stored users, the region polygons."""
from __future__ import annotations

import pytest

from toolkit.errors import ApiError


def test_a_friend_comments_and_likes_a_story(fresh_tk):
    tk = fresh_tk.login_as(4100000001, scopes=["profile", "friends", "talk_message", "plusfriends"])
    sid = tk.story.post_note("helpers", permission="F")
    tk.sandbox.comment_on_story(sid, 4100000002, "좋아요")
    tk.sandbox.like_story(sid, 4100000003, "CHEER_UP")
    assert tk.story.comments(sid)["text"].tolist() == ["좋아요"]
    assert tk.story.likes(sid)["emotion"].tolist() == ["CHEER_UP"]


def test_the_message_limit_is_set_and_restored(fresh_tk):
    from toolkit import templates as T

    tk = fresh_tk.login_as(4100000001, scopes=["profile", "friends", "talk_message"])
    friend = tk.talk.all_friends().set_index("profile_nickname").uuid["준호"]
    hello = T.text("안녕", link=T.link(web_url="https://example.test"))
    assert tk.sandbox.set_message_limit(0) == 0
    with pytest.raises(ApiError) as info:
        tk.talk.send_to_friends([friend], hello)
    assert info.value.code == -532
    default = tk.sandbox.set_message_limit(None)
    assert default > 0
    assert tk.talk.send_to_friends([friend], hello)["status"].tolist() == ["sent"]


def test_customer_file_users_reads_back_what_was_added(fresh_tk):
    tk = fresh_tk.login_as(4100000003, scopes=[])     # a user linked to the app, who added the channel
    fid = tk.channel.create_file("_xcLqmC", "helpers", {"visits": "number"})
    tk.channel.add_users(fid, "_xcLqmC", [("4100000003", {"visits": 2})], progress=False)
    stored = tk.sandbox.customer_file_users(fid)
    assert [(u["id"], u["field"]) for u in stored] == [("4100000003", {"visits": 2})]


def test_region_polygons_by_level(tk):
    districts = tk.sandbox.region_polygons("sigungu")
    dongs = tk.sandbox.region_polygons()
    assert {f["properties"]["level"] for f in districts["features"]} == {"sigungu"}
    assert len(districts["features"]) == 16
    assert {f["properties"]["level"] for f in dongs["features"]} == {"emd"}
    assert len(dongs["features"]) > len(districts["features"])
