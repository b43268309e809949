"""Build the social seed data (fictional, deterministic): ``python datasets/social/build_social.py``.

Writes contacts.json (messenger friends who are not demo login users), friendships.json, stories.json
(stories with comments and moods), channels.json (channels linked to the demo app and seeded relations),
pages.json (web pages the scrape step knows) and templates.json (custom message templates).
Everything is invented; names are common given names or made-up handles; URLs use the reserved
``.sandbox.test`` domain.
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "toolkit" / "data"   # the package data the sandbox reads
HERE = DATA / "social"
USERS = json.loads((DATA / "users" / "demo_users.json").read_text("utf-8"))
rng = random.Random(20261120)

# Nicknames in every script class of the sort order: Korean, special characters, numbers, English, Japanese, emoji.
CONTACT_NAMES = [
    "가온", "나래", "다솜", "라온", "마루", "바다", "사랑", "아린", "자람", "하늘", "한결", "윤슬", "새봄", "이든",
    "_jay", "#dev_kim", "(주)샌드박스", "@hana", "~mo~",
    "1004", "2team", "7seas", "99ers",
    "Alice", "bob", "Chloe", "daniel", "Emma", "Finn", "grace", "Henry", "Ivy", "jun",
    "さくら", "ゆうき", "はると", "あおい",
    "🐻곰돌이", "🌸", "🍀lucky",
]


def contacts():
    out = []
    for i, name in enumerate(CONTACT_NAMES, start=1):
        out.append({
            "id": 4200000000 + i, "nickname": name,
            "profile_image_url": f"https://img.sandbox.test/contact/{i}_640x640.jpg",
            "thumbnail_image_url": f"https://img.sandbox.test/contact/{i}_110x110.jpg",
            # a few contacts turned off messages from apps: sends to them fail (code -530 in the sandbox)
            "accepts_app_messages": i not in (5, 27),
        })
    return out


def friendships(contact_rows):
    talk_users = [u["id"] for u in USERS if u.get("is_talk_user", True)]
    pairs = {}
    # demo users: a friendship graph among themselves
    for a in talk_users:
        for b in talk_users:
            if a < b and rng.random() < 0.55:
                pairs[(a, b)] = (rng.random() < 0.3, rng.random() < 0.3)
    # minji (4100000001) is friends with every demo messenger user and every contact: the paging example
    for b in talk_users:
        if b != 4100000001:
            pairs.setdefault((4100000001, b), (rng.random() < 0.3, rng.random() < 0.3))
    for c in contact_rows:
        pairs[(4100000001, c["id"])] = (rng.random() < 0.2, False)
        for a in talk_users[1:]:
            if rng.random() < 0.25:
                pairs[(a, c["id"])] = (rng.random() < 0.2, False)
    # favorite flags: (a marks b, b marks a)
    return [{"a": a, "b": b, "a_favorites_b": fa, "b_favorites_a": fb} for (a, b), (fa, fb) in sorted(pairs.items())]


NOTES = [
    "오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!", "Finally finished the 1,000-piece puzzle.",
    "새로 생긴 동네 빵집 소금빵 추천합니다 🥐", "주말엔 집에서 영화 세 편 몰아보기.",
    "First snow of the season this morning ❄️", "가을 단풍 보러 북한산 다녀왔어요.",
    "Trying a new ramen recipe tonight.", "동생이랑 보드게임 카페 갔다 옴 ㅋㅋ",
    "책 한 권 완독! 다음 책 추천 받아요.", "Morning run: 5 km in the rain.",
]
COMMENTS = ["와 멋지다!", "Looks great!", "저도 가보고 싶어요", "ㅋㅋㅋㅋ", "Congrats 🎉", "다음엔 같이 가요!",
            "Where is this?", "부럽다…", "👍", "사진 너무 예뻐요"]
EMOTIONS = ["LIKE", "LIKE", "LIKE", "COOL", "HAPPY", "SAD", "CHEER_UP"]
START = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)


def stories(friend_pairs):
    friends = {}
    for p in friend_pairs:
        friends.setdefault(p["a"], []).append(p["b"])
        friends.setdefault(p["b"], []).append(p["a"])
    demo_ids = {u["id"] for u in USERS}
    out = []
    for u in USERS:
        if not u.get("is_story_user", True):
            continue
        mates = [f for f in friends.get(u["id"], []) if f in demo_ids] or [x for x in demo_ids if x != u["id"]][:3]
        for k in range(rng.randint(2, 5)):
            when = START - timedelta(days=rng.randint(1, 90), hours=rng.randint(0, 23), minutes=rng.randint(0, 59))
            kind = rng.choice(["NOTE", "NOTE", "PHOTO"])
            story = {"user_id": u["id"], "media_type": kind, "content": rng.choice(NOTES),
                     "permission": rng.choice(["PUBLIC", "PUBLIC", "FRIEND", "ONLY_ME"]),
                     "created_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "comments": [], "likes": []}
            if kind == "PHOTO":
                story["images"] = [{"width": rng.choice([1080, 1280, 960]), "height": rng.choice([720, 960, 1080])}
                                   for _ in range(rng.randint(1, 3))]
            for writer in rng.sample(mates, k=min(len(mates), rng.randint(0, 3))):
                story["comments"].append({"user_id": writer, "text": rng.choice(COMMENTS)})
            for actor in rng.sample(mates, k=min(len(mates), rng.randint(0, 4))):
                story["likes"].append({"user_id": actor, "emotion": rng.choice(EMOTIONS)})
            out.append(story)
    out.sort(key=lambda s: (s["user_id"], s["created_at"]))
    return out


CHANNELS = [
    {"channel_public_id": "_xcLqmC", "channel_uuid": "@sandboxcafe", "name": "Sandbox Café"},
    {"channel_public_id": "_ZeUTxl", "channel_uuid": "@sandboxbooks", "name": "샌드박스 책방"},
    {"channel_public_id": "_kQbVnP", "channel_uuid": "@sandboxnews", "name": "Sandbox News"},
]


def channels():
    relations = []
    for u in USERS:
        if not u.get("is_talk_user", True):
            continue
        for ch in CHANNELS:
            r = rng.random()
            if r < 0.5:
                relation = "ADDED"
            elif r < 0.65:
                relation = "BLOCKED"
            else:
                continue
            created = START - timedelta(days=rng.randint(10, 300), minutes=rng.randint(0, 1440))
            updated = created + timedelta(days=rng.randint(0, 9))
            relations.append({"user_id": u["id"], "channel_public_id": ch["channel_public_id"], "relation": relation,
                              "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
                              "updated_at": updated.strftime("%Y-%m-%dT%H:%M:%SZ")})
    return {"channels": CHANNELS, "relations": relations, "slots_per_channel": 20}


PAGES = [
    {"slug": "autumn-hike", "url": "https://blog.sandbox.test/posts/autumn-hike", "title": "북한산 가을 산행 코스 정리",
     "description": "초보자도 3시간이면 충분한 단풍 코스와 준비물.", "image": ["https://blog.sandbox.test/img/hike-1.jpg",
                                                              "https://blog.sandbox.test/img/hike-2.jpg"],
     "section": "travel", "type": "article"},
    {"slug": "salt-bread", "url": "https://food.sandbox.test/recipes/salt-bread", "title": "Salt bread at home",
     "description": "A buttery salt bread recipe in six steps.", "image": ["https://food.sandbox.test/img/bread.jpg"],
     "section": "recipes", "type": "article"},
    {"slug": "winter-sale", "url": "https://shop.sandbox.test/events/winter-sale", "title": "Winter sale — up to 40% off",
     "description": "Coats, scarves and boots until December 31.", "image": ["https://shop.sandbox.test/img/sale.png"],
     "section": "events", "type": "website"},
    {"slug": "city-news", "url": "https://news.sandbox.test/2026/11/tram-line", "title": "도심 트램 노선 확정",
     "description": "새 트램 노선이 2028년 개통을 목표로 확정되었다.", "image": [], "section": "news", "type": "article"},
]

TEMPLATES = [
    {"template_id": "10001", "name": "welcome", "template": {
        "object_type": "feed",
        "content": {"title": "${name}님, 환영합니다!", "description": "가입 기념 쿠폰: ${coupon}",
                    "image_url": "https://img.sandbox.test/tpl/welcome.png",
                    "link": {"web_url": "https://shop.sandbox.test/coupon?code=${coupon}"}},
        "buttons": [{"title": "쿠폰 받기", "link": {"web_url": "https://shop.sandbox.test/coupon?code=${coupon}"}}]}},
    {"template_id": "10002", "name": "reminder", "template": {
        "object_type": "text", "text": "Reminder: ${event} starts at ${time}.",
        "link": {"web_url": "https://events.sandbox.test/"}}},
    {"template_id": "10003", "name": "scrap-frame", "template": {
        "object_type": "feed", "content": {"title": "${SCRAP_TITLE}", "description": "${SCRAP_DESCRIPTION} — ${note}",
                                           "link": {"web_url": "${SCRAP_URL}"}}}},
]


def main():
    contact_rows = contacts()
    pairs = friendships(contact_rows)
    files = {
        "contacts.json": contact_rows, "friendships.json": pairs, "stories.json": stories(pairs),
        "channels.json": channels(), "pages.json": PAGES, "templates.json": TEMPLATES,
    }
    for name, data in files.items():
        (HERE / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(name, len(data))


if __name__ == "__main__":
    main()
