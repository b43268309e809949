"""The social flows (paging, upload + post, chunking) run unchanged on the async client."""
from __future__ import annotations

import asyncio

from tests.conftest import client_for
from toolkit.client import AsyncClient

from .conftest import ALL_SCOPES, MINJI, png


def test_async_flows(fresh_server):
    atk = client_for(fresh_server, cls=AsyncClient)
    atk.login_as(MINJI, scopes=ALL_SCOPES)

    async def main():
        friends = await atk.talk.all_friends(page_size=15)
        sid = await atk.story.post_photo(images=[png(9, 9)], content="async")
        story = await atk.story.mystory(sid)
        fid = await atk.channel.create_file("_kQbVnP", "async", {"포인트": "number"})
        summary = await atk.channel.add_users(fid, "_kQbVnP", [(str(i), {"포인트": 1}) for i in range(2100)],
                                              progress=False)
        await atk.aclose()
        return friends, story, summary

    friends, story, summary = asyncio.run(main())
    assert len(friends) == 50 and friends.attrs["meta"]["pages"] == 4
    assert story["media"][0]["original"].endswith(".png")
    assert list(summary.request_count) == [2000, 100]
