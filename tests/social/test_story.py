"""Story feed against the sandbox over HTTP: consent, -601, text/upload limits, paging by last_id, delete."""
from __future__ import annotations

import io
import json

import pytest

from toolkit.errors import ApiError, ParameterError

from .conftest import ALL_SCOPES, DOHYUN, MINJI, gif, png


def test_isstoryuser_and_profile_by_consent(tk):
    tk.login_as(MINJI, scopes=[])
    assert tk.story.is_story_user() is True
    tk.login_as(DOHYUN, scopes=["profile"])
    assert tk.story.is_story_user() is False
    with pytest.raises(ApiError) as err:
        tk.story.profile()
    assert err.value.code == -601 and err.value.status == 400


def test_profile_fields_follow_consent(fresh_tk):
    fresh_tk.login_as(MINJI, scopes=[])
    assert fresh_tk.story.profile() == {}
    fresh_tk.login_as(MINJI, scopes=["profile_nickname"])
    assert set(fresh_tk.story.profile()) == {"nickName"}
    fresh_tk.login_as(MINJI, scopes=["profile", "story_permalink", "birthday"])
    prof = fresh_tk.story.profile()
    assert {"nickName", "profileImageURL", "thumbnailURL", "bgImageURL", "permalink", "birthday",
            "birthdayType"} <= set(prof)
    assert prof["birthday"] == "0312" and prof["birthdayType"] == "SOLAR"


def test_note_text_limit_and_permission(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=ALL_SCOPES)
    sid = fresh_tk.story.post_note("가" * 2048, permission="F", enable_share=True)
    story = fresh_tk.story.mystory(sid)
    assert story["permission"] == "FRIEND" and len(story["content"]) == 2048 and story["media_type"] == "NOTE"
    with pytest.raises(ParameterError):
        fresh_tk.story.post_note("x" * 2049)
    r = fresh_raw("POST", "/v1/api/story/post/note", data={"content": "x" * 2049})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("POST", "/v1/api/story/post/note", data={"content": "hi", "permission": "X"})
    assert r.status_code == 400 and r.json()["code"] == -2
    r = fresh_raw("POST", "/v1/api/story/post/note", data={})
    assert r.status_code == 400 and r.json()["code"] == -2
    assert fresh_tk.story.mystory(fresh_tk.story.post_note("m", permission="M"))["permission"] == "ONLY_ME"


def test_upload_limits_server_side(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    path = "/v1/api/story/upload/multi"
    r = fresh_raw("POST", path, files=[(f"file[{i}]", (f"{i}.png", png(), "image/png")) for i in range(11)])
    assert r.status_code == 400 and r.json()["code"] == -602
    r = fresh_raw("POST", path, files=[("file0", ("a.gif", gif(), "image/gif")), ("file1", ("b.png", png(), "image/png"))])
    assert r.status_code == 400 and r.json()["code"] == -602 and "GIF" in r.json()["msg"]
    r = fresh_raw("POST", path, files=[("file", ("big.png", png(pad=10 * 1024 * 1024), "image/png"))])
    assert r.status_code == 400 and r.json()["code"] == -602
    r = fresh_raw("POST", path, files=[("image", ("a.png", png(), "image/png"))])
    assert r.status_code == 400 and r.json()["code"] == -602
    r = fresh_raw("POST", path, files=[("file", ("a.txt", b"hello", "text/plain"))])
    assert r.status_code == 400 and r.json()["code"] == -602
    r = fresh_raw("POST", path, files=[("file", ("a.gif", gif(7, 5), "image/gif"))])
    assert r.status_code == 200 and r.json()[0].endswith("?width=7&height=5")
    r = fresh_raw("POST", path, files=[(f"file[{i}]", (f"{i}.png", png(10 + i, 5), "image/png")) for i in range(10)])
    assert r.status_code == 200 and len(r.json()) == 10


def test_upload_client_checks_before_sending(fresh_tk, tmp_path):
    fresh_tk.login_as(MINJI, scopes=[])
    with pytest.raises(ParameterError, match="1 to 10"):
        fresh_tk.story.upload([png()] * 11)
    with pytest.raises(ParameterError, match="GIF"):
        fresh_tk.story.upload([gif(), png()])
    with pytest.raises(ParameterError, match="10 MB"):
        fresh_tk.story.upload([png(pad=10 * 1024 * 1024)])
    with pytest.raises(ParameterError, match="not a PNG"):
        fresh_tk.story.upload([b"hello"])
    f = tmp_path / "cat.png"
    f.write_bytes(png(6, 4))
    paths = fresh_tk.story.upload([f, io.BytesIO(png(8, 2)), png(3, 3)])
    assert [p.split("?")[1] for p in paths] == ["width=6&height=4", "width=8&height=2", "width=3&height=3"]


def test_photo_story_needs_unchanged_paths(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    paths = fresh_tk.story.upload([png(6, 4), png(8, 2)])
    tampered = paths[0].replace("width=6", "width=7")
    r = fresh_raw("POST", "/v1/api/story/post/photo", data={"image_url_list": json.dumps([tampered])})
    assert r.status_code == 400 and r.json()["code"] == -602
    sid = fresh_tk.story.post_photo(paths, "two images")
    story = fresh_tk.story.mystory(sid)
    assert story["media_type"] == "PHOTO" and len(story["media"]) == 2
    assert set(story["media"][0]) == {"original", "xlarge", "large", "medium", "small"}
    df = fresh_tk.story.mystories()
    mine = df[df.id == sid]
    assert list(mine.media_index) == [0, 1] and mine["media.original"].notna().all()
    # upload + post in one flow
    sid2 = fresh_tk.story.post_photo(images=[png(5, 5)])
    assert fresh_tk.story.mystory(sid2)["media"][0]["original"].endswith(".png")


def test_link_story_needs_scraped_info(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    info = fresh_tk.story.linkinfo("https://blog.sandbox.test/posts/autumn-hike")
    assert set(info) == {"url", "requested_url", "host", "title", "image", "description", "section", "type"}
    assert info["host"] == "blog.sandbox.test" and len(info["image"]) == 2
    forged = dict(info, title="changed")
    r = fresh_raw("POST", "/v1/api/story/post/link", data={"link_info": json.dumps(forged)})
    assert r.status_code == 400 and r.json()["code"] == -2
    sid = fresh_tk.story.post_link(info, "좋은 코스")
    assert fresh_tk.story.mystory(sid)["content"] == "좋은 코스"
    # served page on the sandbox host (real loopback page), scraped then posted in one flow
    base = fresh_tk.sandbox.base_url
    assert fresh_tk.story.post_link(f"{base}/sandbox/social/pages/salt-bread")
    with pytest.raises(ApiError) as err:
        fresh_tk.story.linkinfo("https://unreachable.example.com/")
    assert err.value.code == -2


def test_mystories_order_and_last_id(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    ids = []
    for n in range(3):
        fresh_tk.sandbox.advance(minutes=5)
        ids.append(fresh_tk.story.post_note(f"note {n}"))
    body = fresh_tk.story.mystories(raw=True)
    assert [s["id"] for s in body[:3]] == ids[::-1]
    stamps = [s["created_at"] for s in body]
    assert stamps == sorted(stamps, reverse=True)
    assert all("comments" not in s and "likes" not in s for s in body)
    after = fresh_tk.story.mystories(last_id=ids[1], raw=True)
    assert [s["id"] for s in after] == [s["id"] for s in body[2:]]
    assert after[0]["id"] == ids[0]
    assert ids[1] not in [s["id"] for s in after] and ids[2] not in [s["id"] for s in after]
    r = fresh_raw("GET", "/v1/api/story/mystories", params={"last_id": "_nope.1"})
    assert r.status_code == 400 and r.json()["code"] == -2


def test_comments_likes_and_delete(fresh_tk, fresh_raw):
    fresh_tk.login_as(MINJI, scopes=[])
    sid = fresh_tk.story.post_note("react please")
    sb = fresh_tk.sandbox
    sb.control("POST", f"/sandbox/social/stories/{sid}/comments", json={"user_id": 4100000002, "text": "멋지다"})
    sb.control("POST", f"/sandbox/social/stories/{sid}/likes", json={"user_id": 4100000003, "emotion": "COOL"})
    comments, likes = fresh_tk.story.comments(sid), fresh_tk.story.likes(sid)
    assert list(comments.text) == ["멋지다"] and comments["writer.display_name"][0] == "준호"
    assert list(likes.emotion.astype(str)) == ["COOL"] and likes["actor.display_name"][0] == "서연"
    row = fresh_tk.story.mystories(expand_media=False).set_index("id").loc[sid]
    assert row.comment_count == 1 and row.like_count == 1
    r = fresh_raw("DELETE", "/v1/api/story/delete/mystory", params={"id": sid})
    assert r.status_code == 200 and r.content == b""
    with pytest.raises(ApiError) as err:
        fresh_tk.story.mystory(sid)
    assert err.value.code == -2
    # someone else's story cannot be read or deleted
    other = fresh_tk.story.mystories(raw=True)[0]["id"]
    fresh_tk.login_as(4100000002, scopes=[])
    with pytest.raises(ApiError):
        fresh_tk.story.delete(other)


def test_story_needs_token(fresh_raw):
    r = fresh_raw("GET", "/v1/api/story/isstoryuser", headers={})
    assert r.status_code == 401 and r.json()["code"] == -401
